// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of checker/re.c: checkpatch.pl's patterns as pcre2 sees them:
 * Perl qr// interpolation, learned types and modifiers, substitutions, and
 * the pretests and guards that must never change a result.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "../../checker/checkpatch/re.h"
#include "../../checker/checkpatch/vocab.h"
#include "../../checker/checkpatch/re_lits.h"
#include "../../checker/checkpatch/eng.h"

static int setup(void **state)
{
	*state = re_ctx_new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	re_ctx_free(*state);
	return 0;
}

static void test_re__interpolates_like_perl_qr(void **state)
{
	struct re_ctx *rc = *state;
	char *x = re_expand(rc, "^$Ident$");

	assert_non_null(x);
	assert_string_equal(x, "^(?^:[A-Za-z_][A-Za-z\\d_]*(?:\\s*\\#\\#\\s*[A-Za-z_][A-Za-z\\d_]*)*)$");
	free(x);
	x = re_expand(rc, "${Ident}_t $; $| $)");
	assert_non_null(x);
	assert_true(strstr(x, ")_t \\x1c $| $)") != NULL);
	free(x);
	assert_null(re_error(rc));
}

static void test_re__captures_and_groups_of_vocabulary(void **state)
{
	struct re_ctx *rc = *state;
	struct re_m m;
	size_t n;
	const char *p;

	assert_true(re_match(rc, "^\\+\\s*($Type)\\s+($Ident)\\s*;", "+\tunsigned long foo;", &m));
	p = re_cap(&m, 1, &n);
	assert_int_equal(n, strlen("unsigned long"));
	assert_memory_equal(p, "unsigned long", n);
	p = re_cap(&m, 2, &n);
	assert_memory_equal(p, "foo", n);
	assert_false(re_cap_defined(&m, 3));
	/* $Constant: octal/hex/int with suffixes, case-insensitive parts */
	assert_true(re_match(rc, "^$Constant$", "0x1FUL", NULL));
	assert_true(re_match(rc, "^$Constant$", "0755", NULL));
	assert_false(re_match(rc, "^$Constant$", "0x", NULL));
	/* $balanced_parens recursion */
	assert_true(re_match(rc, "^f$balanced_parens$", "f(a, (b), c(d(e)))", NULL));
	assert_false(re_match(rc, "^f$balanced_parens$", "f(a, (b)", NULL));
	assert_null(re_error(rc));
}

static void test_re__learned_types_recompile_dependent_patterns(void **state)
{
	struct re_ctx *rc = *state;
	static const char pat[] = "^$Type\\s+\\w+;$";

	assert_false(re_match(rc, pat, "foo_bar_struct x;", NULL));
	assert_int_equal(re_types_add(rc, 0, "foo_bar_struct", 14), 1);
	assert_int_equal(re_types_add(rc, 0, "foo_bar_struct", 14), 0);
	assert_true(re_match(rc, pat, "foo_bar_struct x;", NULL));
	re_types_reset(rc);
	assert_false(re_match(rc, pat, "foo_bar_struct x;", NULL));
	/* a learned modifier */
	assert_false(re_match(rc, "^$Modifier$", "__my_attr", NULL));
	re_types_add(rc, 1, "__my_attr", 9);
	assert_true(re_match(rc, "^$Modifier$", "__my_attr", NULL));
}

static void test_re__subst_global_and_empty_matches(void **state)
{
	struct re_ctx *rc = *state;
	struct sbuf out;

	sbuf_init(&out, 1024);
	assert_int_equal(re_subst(rc, "\\s+", " ", "a  b\t\tc", 7, 1, &out), 2);
	assert_string_equal(out.buf, "a b c");
	assert_int_equal(re_subst(rc, "(\\w+)=(\\w+)", "$2=${1}", "x=y", 3, 0, &out), 1);
	assert_string_equal(out.buf, "y=x");
	/* Perl: "abc" =~ s{x*}{-}g gives "-a-b-c-" */
	re_subst(rc, "x*", "-", "abc", 3, 1, &out);
	assert_string_equal(out.buf, "-a-b-c-");
	assert_int_equal(re_count(rc, "a", "banana", 6), 3);
	sbuf_reset(&out);
	re_quote("a.b*c", 5, &out);
	assert_string_equal(out.buf, "a\\.b\\*c");
	sbuf_release(&out);
}

static void test_re__bad_pattern_is_an_error_not_a_crash(void **state)
{
	struct re_ctx *rc = *state;

	assert_false(re_match(rc, "(unclosed", "x", NULL));
	assert_non_null(re_error(rc));
}

static void test_re__unknown_name_is_an_error(void **state)
{
	struct re_ctx *rc = re_ctx_new();

	(void)state;
	assert_false(re_match(rc, "$NoSuchName", "x", NULL));
	assert_non_null(re_error(rc));
	re_ctx_free(rc);
}

static void test_re__interned_patterns_are_shared(void **state)
{
	struct re_ctx *rc = *state;
	char a[] = "^x+$", b[] = "^x+$";
	const char *pa = re_intern(rc, a, 4), *pb = re_intern(rc, b, 4);

	assert_ptr_equal(pa, pb);
	assert_true(re_match(rc, pa, "xxx", NULL));
}

/*
 * re_find() on s from start agrees with pcre2 run directly on the pattern
 * as re_expand() writes it now (every learned word in): same result, same
 * groups.
 */
static void same_as_pcre2(struct re_ctx *rc, const char *pat, const char *s,
			  size_t start)
{
	char *x = re_expand(rc, pat);
	pcre2_code *code;
	pcre2_match_data *md;
	struct re_m m;
	int errcode, want, got, i;
	PCRE2_SIZE erroff, *ov;
	size_t n = strlen(s);

	assert_non_null(x);
	code = pcre2_compile((PCRE2_SPTR)x, PCRE2_ZERO_TERMINATED, 0, &errcode,
			     &erroff, NULL);
	assert_non_null(code);
	md = pcre2_match_data_create(RE_MAXCAP + 1, NULL);
	assert_non_null(md);
	want = pcre2_match(code, (PCRE2_SPTR)s, n, start, 0, md, NULL);
	got = re_find(rc, pat, s, n, start, &m);
	if (got != (want > 0))
		fail_msg("%s on \"%s\": re_find %d, pcre2 %d", pat, s, got, want);
	if (!start) {
		/* and with the subject's summary, made on first need */
		struct re_summary sum = { 0 };
		int twice = re_match_sum(rc, pat, s, n, &sum, NULL);

		if (twice != got || twice != re_match_sum(rc, pat, s, n, &sum, NULL))
			fail_msg("%s on \"%s\": re_match_sum %d, pcre2 %d", pat, s,
				 twice, want);
	}
	ov = pcre2_get_ovector_pointer(md);
	for (i = 0; got && i < want && i <= RE_MAXCAP; i++) {
		assert_int_equal(re_cap_defined(&m, i), ov[2 * i] != PCRE2_UNSET);
		if (ov[2 * i] != PCRE2_UNSET) {
			assert_int_equal(re_start(&m, i), ov[2 * i]);
			assert_int_equal(re_end(&m, i), ov[2 * i + 1]);
		}
	}
	assert_null(re_error(rc));
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	free(x);
}

static void test_re__literal_pretest_never_changes_a_result(void **state)
{
	static const char *const pats[] = {
		"ab?c", "ab*c", "ab{0,2}c", "ab{2}c", "x{2}y", "a{,2}b",
		"\\bsizeof\\s*\\(", "foo|bar", "(?i)FOO", "(?x) f o o",
		"(?s)^.\\s*return(\\s*)\\(", "a(?:b|c)d", "[abc]def", "[]x]y",
		"\\x41BC", "\\x{41}BC", "\\101BC", "q\\Qa|b\\E", "(?#x|y)z",
		"\\bint\\b", "a(*ACCEPT)b", "=\\s*$", "$Ident\\s*=\\s*sscanf",
		"foo$", "a\\Kb", "(?-i)ab", "(?i:x)yz", "(?m)^ab", "b",
		"^\\+.*\\bmemset\\s*\\(", "(ab)\\1c", "a$;b", "x{y", "\\Nq",
		"(?<=a)bc", "(?=abc)ab", "(?!x)ab", "\\#\\s*define", "zz(?R)?",
		"(ab)?c", "(a|b)c", "(?:ab)+c", "\\(?x", "\\(x\\)", "(?<n>ab)c",
		"(?'n'ab)c", "(?P<n>ab)c", "(?<=ab)c", "(?s:ab)c", "(?^:ab)c",
		"(?i:AB)c", "(x(?i)AB)c", "(?|(a)|(b))c", "((ab)c)d", "(a(b|c))d",
		"\\.h$", "(?<n>a)(?P>n)?x", "(?-s:ab)c",
		"(?i)=\\?utf-8\\?", "(?i)\\b675\\s+Mass\\s+Ave", "(?i)a_B",
		"(?i)fixes:?\\s*[0-9a-f]{5,}", "(?i)x(?-i:AB)", "(?i)a(?-i)BC",
		"(?i)[@`]x", "(?i)@X", "$String[A-Z_]", "^\\+\\s*$String",
		"([A-Za-z0-9_]+)$String", "$String?x", "(?i)\\+$String", "${String}+y",
		"\\b$InitAttribute\\b", "$Float", "a$Hex",
	};
	static const char *const subjects[] = {
		"ac", "abc", "abbc", "xbc", "xxy", "xy", "b", "sizeof(x)",
		"size of(x)", "bar", "foo", "f o o", "+\treturn (x)", "acd",
		"cdef", "]y", "ABC", "BC", "qa|b", "z", "int x", "integer",
		"a", "a = ", "x = sscanf(", "xfoo", "foox", "ab", "abab",
		"x\nab", "xyz", "XYZ", "+ memset(", "ababc", "a\034b", "x{y",
		"#define", "zzzz", "", "ABc", "c", "(x", "(x)", "xABc", "bc",
		"abcd", "acd", "a.h", "ah", "=?UTF-8?q?", "x =?utf-8?", "=?utf_8?",
		"675 mass AVE", "675  MASS ave", "Fixes: 12345abc", "FIXES 1234",
		"A_b", "a_b", "xAB", "xab", "aBC", "AbC", "`x", "@x", "`X",
		"\"XX\"A", "+ \"X\"", "foo\"\"", "x", "\"\"\"y", "+L\"\"", "__initdata",
		"__devinitconst x", "1.5f", "a0x1F", "\"\"y",
	};
	struct re_ctx *rc = *state;
	size_t i, j;

	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
		for (j = 0; j < sizeof(subjects) / sizeof(subjects[0]); j++) {
			same_as_pcre2(rc, pats[i], subjects[j], 0);
			if (strlen(subjects[j]) > 1)
				same_as_pcre2(rc, pats[i], subjects[j], 1);
		}
}

static void test_re__learned_words_only_matter_where_they_occur(void **state)
{
	static const char *const pats[] = {
		"^($Type)\\s+(\\w+)", "^\\+\\s+$Declare\\s*$Ident\\s*[=,;]",
		"(\\b$NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)($Ident))",
		"^($Modifier)\\s*", "\\bsizeof\\s+$Type",
	};
	static const char *const subjects[] = {
		"foo_t x", "+\tfoo_t x;", "bar x", "+\tbar *x;", "int x",
		"foo_tx y", "+\tbar __mine *x;", "__mine", "x##y z",
		"sizeof foo_t", "+\tbaz x;", "q x",
	};
	static const char *const words[] = {
		"foo_t", "bar", "", "baz", "x##y", "q",
	};
	struct re_ctx *rc = *state;
	size_t i, j, k;

	for (k = 0; k <= sizeof(words) / sizeof(words[0]); k++) {
		if (k == 2) {
			re_types_add(rc, 1, "__mine", 6);
		} else if (k > 0) {
			re_types_add(rc, 0, words[k - 1], strlen(words[k - 1]));
		}
		for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
			for (j = 0; j < sizeof(subjects) / sizeof(subjects[0]); j++)
				same_as_pcre2(rc, pats[i], subjects[j], 0);
	}
	/* a learned type decides a match, and is forgotten with the file */
	assert_true(re_match(rc, "^$Type\\s+\\w+$", "baz x", NULL));
	re_types_reset(rc);
	assert_false(re_match(rc, "^$Type\\s+\\w+$", "baz x", NULL));
	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
		for (j = 0; j < sizeof(subjects) / sizeof(subjects[0]); j++)
			same_as_pcre2(rc, pats[i], subjects[j], 0);
}

static void test_re__hot_patterns_stay_exact_once_jit_compiled(void **state)
{
	struct re_ctx *rc = *state;
	int i;

	uint32_t jit = 0;
	int after = 300;

	/*
	 * Until both patterns are JIT-compiled (when pcre2 has a JIT), then
	 * on: the interpreter's time on them decides when (re.c).
	 */
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	for (i = 0; i < 200000 && after > 0; i++) {
		same_as_pcre2(rc, "^\\+\\s*($Type)\\s+($Ident)\\s*;", "+\tunsigned long foo;", 0);
		same_as_pcre2(rc, "^\\+\\s*($Type)\\s+($Ident)\\s*;", "+\tfoo bar;", 0);
		same_as_pcre2(rc, "\\bsizeof\\s*\\(", "x = sizeof (y)", 0);
		if (!jit || re_jits(rc) >= 2)
			after--;
	}
	assert_int_equal(after, 0);
}

/* Matches pattern p until one more pattern is JIT-compiled (or a bound). */
static int jit_one_more(struct re_ctx *rc, const char *p)
{
	static const char subj[] =
		"+\tstatic const struct foo_bar *baz = qux(unsigned long x, u8 v7);";
	unsigned long before = re_jits(rc);
	int i;

	for (i = 0; i < 200000 && re_jits(rc) == before; i++)
		re_find(rc, p, subj, sizeof(subj) - 1, 0, NULL);
	return re_jits(rc) > before;
}

/*
 * JIT code stops at its budget (patterns stay interpreted) and goes on
 * when the budget grows.
 */
static void test_re__jit_code_stays_within_its_budget(void **state)
{
	struct re_ctx *rc = *state;
	uint32_t jit = 0;
	char pat[64];
	size_t last = 0;
	int k;

	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	if (!jit)
		skip();
	for (k = 0; k < 1000 && re_jit_code(rc) < RE_JIT_BUDGET_BASE; k++) {
		size_t was = re_jit_code(rc);

		/* no literal to pretest: each runs on the subject */
		snprintf(pat, sizeof(pat), "\\b(?:$Type)\\s*\\*?\\s*\\w{1,%d}\\b", k + 1);
		if (!jit_one_more(rc, re_intern(rc, pat, strlen(pat))))
			fail_msg("pattern %d was never JIT-compiled", k);
		last = re_jit_code(rc) - was;
	}
	assert_true(re_jit_code(rc) >= RE_JIT_BUDGET_BASE);
	/* it stopped with the compile that reached the budget */
	assert_true(re_jit_code(rc) - last < RE_JIT_BUDGET_BASE);
	snprintf(pat, sizeof(pat), "\\b(?:$Type)\\s*\\*?\\s*\\w{2,%d}\\b", k + 1);
	assert_false(jit_one_more(rc, re_intern(rc, pat, strlen(pat))));
	re_jit_budget_add(rc, 1u << 20);
	assert_true(jit_one_more(rc, re_intern(rc, pat, strlen(pat))));
}

/*
 * The end pretest (re_end_scan(), re_end_ok()) never changes a result:
 * patterns that end in one-byte items and white space before $, optional
 * items, groups of one, classes, $; and (?s), against pcre2 on random
 * subjects of those bytes, white space and newlines.
 */
static void test_re__end_pretest_never_changes_a_result(void **state)
{
	struct re_ctx *rc = *state;
	static const char *const pats[] = {
		"$;[ \\t]*$", "}\\s*$", "^[\\+ ]};?\\s*$", "$;+\\s*$", "^\\+\\s+$",
		"^\\+.*([\\[\\(])\\s*$", "^.\\s*}\\s*$", ";+\\s*$", "a{2}$", "\\{$",
		"x[^a-c]$", "(?s)\\n.$", "[\\x1c\\-]\\s?$", "(?:;)[ ]$", "\\x41\\t*$",
		"[}\\]]\\n*$", "\\d\\s+$", "\\W$", "[^\\s]\\s*$", "\\S\\s+$",
		"};?;?\\s*$", "(})\\s*+$", "\\}[\\t ]++$", "^\\+.*\\S\\s+$",
		"};[ \\t]+$", "\\S[\\t ]{2}$", "x\\s+?$", "\\w\\n+$",
	};
	static const char *const pieces[] = {
		"}", ";", " ", "\t", "\n", "\034", "+", "a", "(", "[", "\r", "\v",
		"x", "A", "9", "{", "]", "-", "}\n", " \n",
	};
	uint32_t seed = 2024;
	size_t i;
	int k;

	for (k = 0; k < 4000; k++) {
		char subj[64];
		size_t n = 0, parts;

		seed = seed * 1103515245u + 12345u;
		parts = (seed >> 16) % 7;
		while (parts--) {
			const char *pc;

			seed = seed * 1103515245u + 12345u;
			pc = pieces[(seed >> 16) % (sizeof(pieces) / sizeof(pieces[0]))];
			memcpy(subj + n, pc, strlen(pc));
			n += strlen(pc);
		}
		subj[n] = '\0';
		for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
			same_as_pcre2(rc, pats[i], subj, 0);
	}
}

/* the patterns above do get the pretest, and others do not */
static void test_re__end_scan_knows_its_patterns(void **state)
{
	uint8_t set[32], wset[32];

	(void)state;
	assert_int_equal(re_end_scan("}\\s*$", set, wset), 1);
	assert_true(set['}' / 8] & (1u << ('}' % 8)));
	assert_true(wset['\n' / 8] & (1u << ('\n' % 8)));
	assert_true(re_end_scan("$;[ \\t]*$", set, wset));
	assert_false(wset['\n' / 8] & (1u << ('\n' % 8)));
	assert_true(re_end_scan("^[\\+ ]};?\\s*$", set, wset));
	assert_true(set[';' / 8] & (1u << (';' % 8)));
	assert_false(re_end_scan("^[\\+ ]\\s*$", set, wset));	/* a space ends it */
	assert_false(re_end_scan("^.\\s*$", set, wset));
	assert_false(re_end_scan("(?m)}$", set, wset));
	assert_false(re_end_scan("(?i)x$", set, wset));
	assert_false(re_end_scan("a|}$", set, wset));
	assert_false(re_end_scan("}\\$", set, wset));
	assert_false(re_end_scan("$Ident\\s*$", set, wset));
	assert_false(re_end_scan("x(?=y)$", set, wset));
	assert_false(re_end_scan(";?\\s*$", set, wset));
	assert_false(re_end_scan("\\b}\\b$", set, wset));
	assert_int_equal(re_end_scan("\\S\\s+$", set, wset), 2);	/* white space required */
	assert_int_equal(re_end_scan("\\S[ \\t]{1,3}$", set, wset), 2);
	assert_int_equal(re_end_scan("\\S[ \\t]{0,3}$", set, wset), 1);
}

/* memmem() with ASCII letters matching in either case */
static int naive_icase_in(const char *s, size_t n, const char *lit, size_t l)
{
	size_t i, j;

	for (i = 0; i + l <= n; i++) {
		for (j = 0; j < l; j++) {
			int a = (unsigned char)s[i + j], b = (unsigned char)lit[j];

			if (a >= 'A' && a <= 'Z')
				a += 'a' - 'A';
			if (b >= 'A' && b <= 'Z')
				b += 'a' - 'A';
			if (a != b)
				break;
		}
		if (j == l)
			return 1;
	}
	return 0;
}

/*
 * One round of 200,000 random literals (1 to maxl bytes) and subjects over
 * the alphabet abc, re_lits_in() against naive_icase_in() (icase: the
 * literal in lower case) or memmem().
 */
static void literal_round(uint32_t *seed, const char *abc, size_t nabc,
			  size_t maxl, int icase)
{
	char lit[2][RE_LIT_MAX];
	unsigned char litn[2];
	char subj[64];
	int k;

	for (k = 0; k < 200000; k++) {
		size_t n, l, i;
		int want;

		*seed = *seed * 1103515245u + 12345u;
		n = (*seed >> 16) % sizeof(subj);
		*seed = *seed * 1103515245u + 12345u;
		l = 1 + (*seed >> 16) % maxl;
		for (i = 0; i < n; i++) {
			*seed = *seed * 1103515245u + 12345u;
			subj[i] = abc[(*seed >> 16) % nabc];
		}
		for (i = 0; i < l; i++) {
			*seed = *seed * 1103515245u + 12345u;
			lit[0][i] = abc[(*seed >> 16) % nabc];
			if (icase && lit[0][i] >= 'A' && lit[0][i] <= 'Z')
				lit[0][i] += 'a' - 'A';
		}
		litn[0] = (unsigned char)l;
		want = icase ? naive_icase_in(subj, n, lit[0], l)
			     : memmem(subj, n, lit[0], l) != NULL;
		if (re_lits_in(lit, litn, 1, icase, subj, n) != want)
			fail_msg("literal %.*s%s in %.*s: %d", (int)l, lit[0],
				 icase ? " (any case)" : "", (int)n, subj, !want);
		/* the summary never rules out a literal the subject holds */
		if (want) {
			struct re_summary sum;
			uint64_t sig[4];

			re_summarize(subj, n, &sum);
			re_lits_sig(lit, litn, 1, sig);
			if (!re_lits_may(&sum, sig))
				fail_msg("summary of %.*s rules out %.*s", (int)n, subj,
					 (int)l, lit[0]);
		}
	}
}

/* A summary rules out what a subject plainly lacks, and keeps the rest. */
static void test_re__summary_rules_out_absent_literals(void **state)
{
	static const char subj[] = "+\tint err = foo_bar(dev, 1);";
	char lit[2][RE_LIT_MAX] = { "jiffies", "foo_bar" };
	unsigned char litn[2] = { 7, 7 };
	struct re_summary sum;
	uint64_t sig[4];

	(void)state;
	re_summarize(subj, strlen(subj), &sum);
	re_lits_sig(lit, litn, 1, sig);		/* jiffies */
	assert_false(re_lits_may(&sum, sig));
	re_lits_sig(lit + 1, litn + 1, 1, sig);	/* foo_bar */
	assert_true(re_lits_may(&sum, sig));
	memcpy(lit[1], "FOO_BAR", 7);		/* case is folded */
	re_lits_sig(lit + 1, litn + 1, 1, sig);
	assert_true(re_lits_may(&sum, sig));
	re_lits_sig(lit, litn, 2, sig);		/* both: one is missing */
	assert_false(re_lits_may(&sum, sig));
}

/*
 * re_lits_in() looks for a literal by its rarest byte: it finds what a
 * plain search finds, wherever the literal sits (start, end, overlapping
 * false starts), on random subjects over a small alphabet; without case
 * (a literal in lower case, as re_lits_scan() writes them), what a
 * case-blind search finds, on letters whose case differs by the bit
 * 0x20 and on bytes that differ from a letter by that bit alone.
 */
static void test_re__literal_search_finds_what_memmem_finds(void **state)
{
	static const char abc[] = "ab_ (x";
	static const char mixed[] = "aAbB_\x7f(XA@`";
	uint32_t seed = 777;

	(void)state;
	literal_round(&seed, mixed, sizeof(mixed) - 1, 5, 1);
	literal_round(&seed, abc, sizeof(abc) - 1, 6, 0);
}

/* re_ctx_reset(): no error left, and a bad pattern is reported again */
static void test_re__reset_reports_bad_patterns_again(void **state)
{
	struct re_ctx *rc = *state;
	static const char bad[] = "(unclosed";

	assert_true(re_match(rc, "^a", "abc", NULL));
	assert_false(re_match(rc, bad, "x", NULL));
	assert_non_null(re_error(rc));
	re_ctx_reset(rc);
	assert_null(re_error(rc));
	assert_true(re_match(rc, "^a", "abc", NULL));
	assert_false(re_match(rc, bad, "x", NULL));
	assert_non_null(re_error(rc));
	re_ctx_reset(rc);
	assert_null(re_error(rc));
}

/*
 * A random line of up to maxp of the pieces (a linear congruential
 * generator from *seed): sz bytes at most with its NUL; returns its length.
 */
static size_t random_line(uint32_t *seed, const char *const *pieces,
			  size_t npieces, size_t maxp, char *out, size_t sz)
{
	size_t n = 0, i, np;

	*seed = *seed * 1103515245u + 12345u;
	np = 1 + (*seed >> 16) % maxp;
	for (i = 0; i < np; i++) {
		const char *pc;
		size_t l;

		*seed = *seed * 1103515245u + 12345u;
		pc = pieces[(*seed >> 16) % npieces];
		l = strlen(pc);
		if (n + l >= sz)
			break;
		memcpy(out + n, pc, l);
		n += l;
	}
	out[n] = '\0';
	return n;
}

/*
 * vocab.c puts checkpatch.pl's ${Ident}_t|${Ident}_handler|${Ident}_handler_fn
 * and some alternations behind look-aheads.  Compiled without them (as
 * checkpatch.pl has them), the type patterns must give the same result and
 * groups on every subject: tricky ones and thousands of random ones made
 * of the pieces that matter.
 */
static const char *const vocab_guards[] = {
	/* ${Ident}_t ... */
	"(?=(?:[^\\W_]++|_(?!(?:t|handler(?:_fn)?)\\b)|\\s*+\\#\\#\\s*+)*+_(?:t|handler(?:_fn)?)\\b)",
	"(?=[_cv][_o])",			/* $Attribute|$Sparse */
	"(?=[_usiblaF][_isnl1368etI])",	/* $typeTypedefs */
	"(?=[vcsuilfdbe][ohinlt])",		/* void ... enum */
	"(?=[cislu][hnoi])",			/* the misordered types */
};

static char *unguarded(const char *x)
{
	struct sbuf sb;
	size_t i;

	sbuf_init(&sb, 1 << 22);
	while (*x) {
		for (i = 0; i < sizeof(vocab_guards) / sizeof(vocab_guards[0]); i++)
			if (!strncmp(x, vocab_guards[i], strlen(vocab_guards[i])))
				break;
		if (i < sizeof(vocab_guards) / sizeof(vocab_guards[0]))
			x += strlen(vocab_guards[i]);
		else
			sbuf_addch(&sb, *x++);
	}
	return sbuf_detach(&sb, NULL);
}

static void test_re__type_guard_changes_no_match(void **state)
{
	struct re_ctx *rc = *state;
	static const char *const hosts[] = {
		"^($Type)\\s*(?:$Ident|,|\\)|\\(|\\s*$)",
		"(\\b$NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)($Ident))",
		"^(\\(\\s*$Type\\s*)\\)",
		"(?s)^.\\s*(?:$Storage\\s+)?$Type\\s*($Ident)\\s*\\(",
		"^($Type)(.*)$",
		"($BasicType)\\s*(\\w*)",
		"\\b($TypeMisordered(\\s*\\*)*|$C90_int_types)\\b",
		"^($Modifier)\\s*",
		"^\\+\\s+$Declare\\s*$Ident\\s*[=,;:\\[]",
	};
	static const char *const fixed[] = {
		"foo_t x", "foo_handler_fn(", "a ## b_t *p", "a##b_handler",
		"x_t_t", "_t", "__t y", "foo_handlerx", "foo_handler_fnx y",
		"struct foo_t", "const bar_t *", "u8_t", "t_t_t_t_t",
		"a ##\tb ## c_handler_fn z", "abc_ta", "x_t##y_t", "",
		"const volatile x", "__iomem *p", "fastcall int f", "uint x",
		"unsigned long long int y", "long unsigned int z", "__u8 a",
		"be32 b", "u_char c", "int8_t d", "atomic_t e", "FILE *f",
		"__alloc_size(1, 2) void *g", "__init h", "signed char i",
		"+\tstatic const struct foo *x = y;", "enum e f", "union u",
	};
	static const char *const pieces[] = {
		"a", "b", "_t", "_handler", "_fn", "_", "t", "##", " ", "\t",
		"*", "(", ")", ",", "x_t", "u8", "struct ", "const ", "int",
		";", "#", "h", "_handler_fn", "9", "\n",
		"const", "volatile", "__iomem", "__user", "fastcall", "__init",
		"__percpu", "unsigned ", "signed ", "long ", "short ", "char",
		"void", "bool", "float", "double", "union ", "enum ", "uint",
		"u_char", "__u8", "be32", "le16", "atomic_t", "FILE", "int8_t",
		"typeof(x)", "c", "v", "l", "s", "u", "i", "__", "+", "static ",
		"inline ", "[]", "=",
	};
	pcre2_match_data *m1 = pcre2_match_data_create(32, NULL);
	pcre2_match_data *m2 = pcre2_match_data_create(32, NULL);
	uint32_t seed = 12345;
	unsigned seen = 0;
	size_t h, k;

	for (h = 0; h < sizeof(hosts) / sizeof(hosts[0]); h++) {
		char *x = re_expand(rc, hosts[h]);
		char *y;
		pcre2_code *c1, *c2;
		int err;
		PCRE2_SIZE off;

		assert_non_null(x);
		y = unguarded(x);
		assert_true(strlen(y) < strlen(x));	/* a guard was there */
		for (k = 0; k < sizeof(vocab_guards) / sizeof(vocab_guards[0]); k++)
			if (strstr(x, vocab_guards[k]))
				seen |= 1u << k;
		c1 = pcre2_compile((PCRE2_SPTR)x, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
		c2 = pcre2_compile((PCRE2_SPTR)y, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
		assert_non_null(c1);
		assert_non_null(c2);
		for (k = 0; k < 10000 + sizeof(fixed) / sizeof(fixed[0]); k++) {
			char subj[256];
			size_t n = 0;
			int r1, r2;

			if (k < sizeof(fixed) / sizeof(fixed[0])) {
				n = strlen(fixed[k]);
				memcpy(subj, fixed[k], n + 1);
			} else {
				n = random_line(&seed, pieces,
						sizeof(pieces) / sizeof(pieces[0]),
						12, subj, sizeof(subj));
			}
			r1 = pcre2_match(c1, (PCRE2_SPTR)subj, n, 0, 0, m1, NULL);
			r2 = pcre2_match(c2, (PCRE2_SPTR)subj, n, 0, 0, m2, NULL);
			assert_int_equal(r1, r2);
			if (r1 > 0) {
				PCRE2_SIZE *o1 = pcre2_get_ovector_pointer(m1);
				PCRE2_SIZE *o2 = pcre2_get_ovector_pointer(m2);

				assert_memory_equal(o1, o2, 2 * (size_t)r1 * sizeof(*o1));
			}
		}
		pcre2_code_free(c1);
		pcre2_code_free(c2);
		free(x);
		free(y);
	}
	pcre2_match_data_free(m1);
	pcre2_match_data_free(m2);
	/* every guard was in some host */
	assert_int_equal(seen, (1u << (sizeof(vocab_guards) / sizeof(vocab_guards[0]))) - 1);
}

/*
 * vocab_may_hold_modifier() and vocab_may_hold_misordered() let callers pass
 * over a line before a long pattern: they must never say no where the
 * pattern can match.  Random lines made of the words and their pieces.
 */
static void test_re__vocab_guards_never_hide_a_match(void **state)
{
	struct re_ctx *rc = *state;
	static const char *const pieces[] = {
		"int", "long", "char", "short", "un", "sig", "ned", "signed",
		"sho", "rt", "_", "__", "init", "cons", "t", "const", "volat",
		"ile", "fast", "call", "u8", "*", " ", "\t", "(", ")", ",", "x",
		"__iomem", "static", "foo_t", "in", "lo", "ng", "\n", "s",
	};
	uint32_t seed = 4321;
	int k, said_no[3] = { 0, 0, 0 };

	for (k = 0; k < 30000; k++) {
		char subj[256];

		random_line(&seed, pieces, sizeof(pieces) / sizeof(pieces[0]), 10,
			    subj, sizeof(subj));
		if (!vocab_may_hold_modifier(subj)) {
			said_no[0]++;
			assert_false(re_match(rc, "$Modifier", subj, NULL));
		}
		if (!vocab_may_hold_misordered(subj, 0)) {
			said_no[1]++;
			assert_false(re_match(rc, "$TypeMisordered", subj, NULL));
		}
		if (!vocab_may_hold_misordered(subj, 1)) {
			said_no[2]++;
			assert_false(re_match(rc, "\\b($TypeMisordered(\\s*\\*)*|$C90_int_types)\\b",
					      subj, NULL));
		}
	}
	/* the lines tried both ways */
	assert_true(said_no[0] > 1000 && said_no[1] > 1000 && said_no[2] > 1000);
	assert_null(re_error(rc));
}

/* 400 random lines of pieces: each pattern as pcre2 has it, at any start */
static void against_pcre2(struct re_ctx *rc, uint32_t *seed, const char *const *pats,
			  size_t npats, const char *const *pieces, size_t npieces)
{
	size_t i, k;

	for (k = 0; k < 400; k++) {
		char subj[256];
		size_t n = random_line(seed, pieces, npieces, 9, subj, sizeof(subj));

		for (i = 0; i < npats; i++)
			same_as_pcre2(rc, pats[i], subj, n ? k % (n + 1) % 3 : 0);
	}
}

/*
 * Learned plain types are asked of a callout (re.c: RE_CALL_ALT), not
 * written into the pattern: the same results and groups as the pattern
 * with every word written in (same_as_pcre2 compiles that), for words that
 * are prefixes of one another and of other words, at any start; and more
 * words learned compile nothing more.
 */
static void test_re__learned_types_by_callout_are_exact(void **state)
{
	struct re_ctx *rc = *state;
	static const char *const pats[] = {
		"^($Type)\\s*(?:$Ident|,|\\)|\\(|\\s*$)",
		"(\\b$NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)($Ident))",
		"^\\+\\s+$Declare\\s*$Ident\\s*[=,;:\\[]",
		"^(\\(\\s*$Type\\s*\\)\\s*)(\\w*)", "($BasicType)\\s+(\\w+)",
	};
	static const char *const words[] = {
		"foo", "foo_bar", "foob", "x", "Ab9", "bar_t", "_q",
	};
	static const char *const pieces[] = {
		"foo", "foo_bar", "foob", "fo", "x", "Ab9", "Ab", "bar_t", "_q",
		" ", "  ", "*", "(", ")", ",", ";", "=", "+", "\t", "const ",
		"int", "static ", "y", "__iomem", "struct s", "[", "]",
	};
	uint32_t seed = 777;
	unsigned long before = 0;
	size_t w;

	for (w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		re_types_add(rc, 0, words[w], strlen(words[w]));
		if (w == 1)
			before = re_compiles(rc);
		against_pcre2(rc, &seed, pats, sizeof(pats) / sizeof(pats[0]), pieces,
			      sizeof(pieces) / sizeof(pieces[0]));
	}
	/* the call forms were compiled while two words were known */
	assert_true(re_compiles(rc) - before <= sizeof(pats) / sizeof(pats[0]));
}

/*
 * Learned modifiers through callouts (RE_CALL_MOD) match as their
 * alternation would, groups included, while none is a prefix of another;
 * a modifier may end inside a word ("xy" is "x" then the identifier "y").
 * Then one that is (MYMODX after MYMOD) takes the full form, still exact.
 */
static void test_re__learned_modifiers_by_callout_are_exact(void **state)
{
	struct re_ctx *rc = *state;
	static const char *const pats[] = {
		"^($Type)\\s*(?:$Ident|,|\\)|\\(|\\s*$)",
		"(\\b$NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)($Ident))",
		"^\\+\\s+$Declare\\s*$Ident\\s*[=,;:\\[]",
		"^((?:$Modifier\\s*)*)($Ident)", "($Modifier)($Ident)?",
		"\\b($Modifier)\\b",
		"(?:$Storage\\s+)?$Type\\s*($Ident)\\s*\\(",
	};
	static const char *const mods[] = {
		"MYMOD", "foo_attr", "x", "__my", "MYMODX",
	};
	static const char *const pieces[] = {
		"MYMOD", "MYMODbar", "MYMODX", "foo_attr", "foo", "x", "xy", "__my",
		"__myx", "mytype", " ", "  ", "*", "(", ")", ",", ";", "=", "+",
		"\t", "const ", "int", "static ", "y", "__iomem", "struct s",
	};
	uint32_t seed = 4711;
	unsigned long before = 0;
	size_t w;

	re_types_add(rc, 0, "mytype", 6);
	for (w = 0; w < sizeof(mods) / sizeof(mods[0]); w++) {
		re_types_add(rc, 1, mods[w], strlen(mods[w]));
		if (w == 0)
			before = re_compiles(rc);
		if (w == 4)	/* prefix-free until MYMODX */
			assert_true(re_compiles(rc) - before <=
				    2 * sizeof(pats) / sizeof(pats[0]));
		against_pcre2(rc, &seed, pats, sizeof(pats) / sizeof(pats[0]), pieces,
			      sizeof(pieces) / sizeof(pieces[0]));
	}
	re_types_reset(rc);
}

/* Round r's learned words: none, a type, a modifier, a word not plain. */
static void learn_round(struct re_ctx *rc, int round)
{
	re_types_reset(rc);
	if (round >= 1)
		re_types_add(rc, 0, "mytype", 6);
	if (round >= 2)
		re_types_add(rc, 1, "MYMOD", 5);
	if (round >= 3)
		re_types_add(rc, 0, "odd*word", 8);
}

/* Fails when one of pats matches subj, where a test said none can. */
static void none_match(struct re_ctx *rc, const char *const *pats, size_t n,
		       const char *subj, int round)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (re_match(rc, pats[i], subj, NULL))
			fail_msg("round %d: %s matches \"%s\", said no", round,
				 pats[i], subj);
}

/*
 * vocab_may_start_type() || re_learned_word_at() says no only where
 * ^$Type, ^$NonptrType and ^$Modifier cannot match: on random subjects,
 * with no learned words, learned types, learned modifiers (one a prefix of
 * other words) and a learned word that is not plain.
 */
static void test_re__type_start_test_never_hides_a_match(void **state)
{
	struct re_ctx *rc = *state;
	static const char *const pats[] = {
		"^$Type", "^$NonptrType", "^$Modifier", "^($Type)\\s*(?:$Ident|,|\\)|\\(|\\s*$)",
	};
	static const char *const pieces[] = {
		"a", "b", "_t", "_handler", "_fn", "_", "t", "##", " ", "\t",
		"*", "(", ")", ",", "x_t", "u8", "struct ", "const ", "int",
		"fastcall", "typeof", "__typeof__", "volatile", "__iomem", "co",
		"unsigned ", "signed ", "long ", "short ", "char", "void", "bool",
		"float", "double", "union ", "enum ", "uint", "u_char", "__u8",
		"be32", "le16", "atomic_t", "FILE", "int8_t", "__init", "mytype",
		"MYMOD", "MYMODX", "fa", "ty", "x", "9", "s", "u", "l", "c", "i",
	};
	uint32_t seed = 4242;
	int round, k, said_no = 0;

	for (round = 0; round < 4; round++) {
		learn_round(rc, round);
		for (k = 0; k < 6000; k++) {
			char subj[256];

			random_line(&seed, pieces, sizeof(pieces) / sizeof(pieces[0]),
				    6, subj, sizeof(subj));
			if (vocab_may_start_type(subj) || re_learned_word_at(rc, subj))
				continue;
			said_no++;
			none_match(rc, pats, sizeof(pats) / sizeof(pats[0]), subj, round);
		}
	}
	assert_true(said_no > 1000);	/* it does say no */
	re_types_reset(rc);
}

/*
 * eng_may_type_after_first() says no only where the statement patterns
 * shaped ^.\s*(storage, inline, typedef words)*$Type cannot match.
 */
static void test_re__statement_type_test_never_hides_a_match(void **state)
{
	struct re_ctx *rc = *state;
	static const char *const pats[] = {
		"(?s)^.\\s*(?:extern\\s+)?$Type\\s+($Ident)(\\s*)\\(",
		"(?s)^.\\s*(?:extern\\s+)?$Type\\s*(?:$Ident|\\(\\s*\\*\\s*$Ident\\s*\\))\\s*\\(\\s*([^{]+)\\s*\\)\\s*;",
		"(?s)^.\\s*(?:$Storage\\s+)?$Type\\s*($Ident)\\s*$balanced_parens\\s*{",
		"(?s)^(.(?:typedef\\s*)?(?:(?:$Storage|$Inline)\\s*)*\\s*$Type\\s*(?:\\b$Ident|\\(\\*\\s*$Ident\\))\\s*)\\(",
		"^(\\(\\s*$Type\\s*)\\)",
	};
	static const char *const pieces[] = {
		"extern ", "static ", "typedef", "typedef ", "inline ",
		"asmlinkage ", "noinline ", "__inline__", "__inline", "externfoo_t",
		"foo", "x_t", "u8", "int ", "struct s ", "(", ")", "*", ";", "{",
		"}", ",", " ", "\n", "mytype ", "MYMOD ", "bar", "void", "const ",
		"__always_inline ", "a_handler", "=",
	};
	static const char firsts[] = "+ (x\n";
	struct eng e;
	uint32_t seed = 99;
	int round, k, said_no = 0;

	memset(&e, 0, sizeof(e));
	e.rc = rc;
	for (round = 0; round < 4; round++) {
		learn_round(rc, round);
		for (k = 0; k < 6000; k++) {
			char subj[300];

			seed = seed * 1103515245u + 12345u;
			subj[0] = firsts[(seed >> 16) % (sizeof(firsts) - 1)];
			random_line(&seed, pieces, sizeof(pieces) / sizeof(pieces[0]),
				    8, subj + 1, sizeof(subj) - 1);
			if (eng_may_type_after_first(&e, subj))
				continue;
			said_no++;
			none_match(rc, pats, sizeof(pats) / sizeof(pats[0]), subj, round);
		}
	}
	assert_true(said_no > 1000);
	re_types_reset(rc);
}

/*
 * The statement substitutions done in C (eng_nl_blank(), eng_fs_blank(),
 * eng_has_boundary()) give what the Perl patterns give through pcre2, on
 * random text of newlines, comment bytes, semicolons, braces and white
 * space.
 */
static void test_re__c_substitutions_are_the_patterns(void **state)
{
	struct re_ctx *rc = *state;
	static const char abc[] = "\n\n\034;;{ \t\v\r+a";
	struct eng e;
	uint32_t seed = 4242;
	int k;

	memset(&e, 0, sizeof(e));
	e.rc = rc;
	for (k = 0; k < 50000; k++) {
		char subj[40];
		struct sbuf want;
		size_t n, i;
		const char *frag;

		seed = seed * 1103515245u + 12345u;
		n = (seed >> 16) % sizeof(subj);
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			subj[i] = abc[(seed >> 16) % (sizeof(abc) - 1)];
		}
		subj[n] = '\0';
		sbuf_init(&want, 1u << 16);
		re_subst(rc, "\\n.", "\n ", subj, n, 1, &want);
		assert_string_equal(eng_nl_blank(&e, subj), want.buf ? want.buf : "");
		sbuf_reset(&want);
		re_subst(rc, "$;", " ", subj, n, 1, &want);
		assert_string_equal(eng_fs_blank(&e, subj), want.buf ? want.buf : "");
		sbuf_reset(&want);
		re_subst(rc, ";+\\s*$", "", subj, n, 0, &want);
		frag = want.buf ? want.buf : "";
		assert_int_equal(eng_has_boundary(subj),
				 re_match(rc, "(?:\\{|;)", frag, NULL));
		sbuf_release(&want);
		eng_arena_reset(&e);
	}
	arena_free_all(&e);
}

/*
 * eng_may_hold_type() says no only where the pointer-location patterns
 * (a type anywhere in a line) cannot match.
 */
static void test_re__line_type_test_never_hides_a_match(void **state)
{
	struct re_ctx *rc = *state;
	static const char *const pats[] = {
		"(\\($NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)\\))",
		"(\\b$NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)($Ident))",
	};
	static const char *const pieces[] = {
		"foo", "bar", "x_t", "*", " ", "(", ")", "const ", "u8", "int",
		"struct s", "=", ";", "a->b", "MYMOD ", "mytype", "9", "_",
		"__iomem", "fastcall", "ex", "static ", "p", "q_handler",
	};
	struct eng e;
	uint32_t seed = 7;
	int round, k, said_no = 0;

	memset(&e, 0, sizeof(e));
	e.rc = rc;
	for (round = 0; round < 4; round++) {
		learn_round(rc, round);
		for (k = 0; k < 6000; k++) {
			char subj[256];

			random_line(&seed, pieces, sizeof(pieces) / sizeof(pieces[0]),
				    7, subj, sizeof(subj));
			if (eng_may_hold_type(&e, subj))
				continue;
			said_no++;
			none_match(rc, pats, sizeof(pats) / sizeof(pats[0]), subj, round);
		}
	}
	assert_true(said_no > 1000);
	re_types_reset(rc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_re__summary_rules_out_absent_literals),
		cmocka_unit_test_setup_teardown(test_re__interpolates_like_perl_qr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__reset_reports_bad_patterns_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__captures_and_groups_of_vocabulary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__learned_types_recompile_dependent_patterns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__subst_global_and_empty_matches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__bad_pattern_is_an_error_not_a_crash, setup, teardown),
		cmocka_unit_test(test_re__unknown_name_is_an_error),
		cmocka_unit_test_setup_teardown(test_re__interned_patterns_are_shared, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__literal_pretest_never_changes_a_result, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__learned_words_only_matter_where_they_occur, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__hot_patterns_stay_exact_once_jit_compiled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__jit_code_stays_within_its_budget, setup, teardown),
		cmocka_unit_test(test_re__literal_search_finds_what_memmem_finds),
		cmocka_unit_test_setup_teardown(test_re__end_pretest_never_changes_a_result, setup, teardown),
		cmocka_unit_test(test_re__end_scan_knows_its_patterns),
		cmocka_unit_test_setup_teardown(test_re__type_start_test_never_hides_a_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__statement_type_test_never_hides_a_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__line_type_test_never_hides_a_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__c_substitutions_are_the_patterns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__type_guard_changes_no_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__vocab_guards_never_hide_a_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__learned_types_by_callout_are_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__learned_modifiers_by_callout_are_exact, setup, teardown),
	};

	return cmocka_run_group_tests_name("re", tests, NULL, NULL);
}

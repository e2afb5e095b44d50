// SPDX-License-Identifier: GPL-2.0-only
/*
 * The misspelling list: both list formats, and the search proven equal to
 * checkpatch.pl's regex -- the sorted keys joined into one alternation, run
 * by pcre2 with Perl's /gi loop -- on fixed tricky lines and on random ones
 * (with checkpatch's own spelling.txt too when build/kernel has it).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <pcre2.h>

#include "../../checker/checker.h"
#include "../../checker/sbuf.h"
#include "../../checker/spelling.h"

/* ---- the reference: checkpatch.pl's regex through pcre2 ---- */

struct keyv {
	char **k;
	size_t n;
};

static int cmp_key(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	return strcmp(x, y);	/* Perl's sort on bytes (no NUL in keys) */
}

/* The keys of a list in checkpatch.pl's format, as Perl's hash would
 * hold them (later duplicates collapse). */
static void keys_of(const char *list, struct keyv *kv)
{
	const char *p = list;
	size_t i, j;

	kv->k = NULL;
	kv->n = 0;
	while (*p) {
		const char *nl = strchr(p, '\n'), *sep;
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, n), *s = line, *e;

		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		if (*s && *s != '#') {
			sep = strstr(s, "||");
			kv->k = realloc(kv->k, (kv->n + 1) * sizeof(char *));
			kv->k[kv->n++] = strndup(s, sep ? (size_t)(sep - s) : strlen(s));
		}
		free(line);
		p += n + (nl ? 1 : 0);
	}
	qsort(kv->k, kv->n, sizeof(char *), cmp_key);
	for (i = j = 0; i < kv->n; i++) {
		if (j && !strcmp(kv->k[j - 1], kv->k[i])) {
			free(kv->k[i]);
			continue;
		}
		kv->k[j++] = kv->k[i];
	}
	kv->n = j;
}

static void keys_free(struct keyv *kv)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		free(kv->k[i]);
	free(kv->k);
}

/* /(?:^|[^\w\-'`])($misspellings)(?:[^\w\-'`]|$)/gi */
static pcre2_code *perl_regex(const struct keyv *kv)
{
	size_t len = 64, i, at;
	char *pat;
	pcre2_code *re;
	int err;
	PCRE2_SIZE off;

	for (i = 0; i < kv->n; i++)
		len += strlen(kv->k[i]) + 1;
	pat = malloc(len);
	at = (size_t)snprintf(pat, len, "(?:^|[^\\w\\-'`])(");
	for (i = 0; i < kv->n; i++)
		at += (size_t)snprintf(pat + at, len - at, "%s%s", i ? "|" : "",
				       kv->k[i]);
	snprintf(pat + at, len - at, ")(?:[^\\w\\-'`]|$)");
	re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, PCRE2_CASELESS,
			   &err, &off, NULL);
	free(pat);
	return re;
}

/* Both searches over s must give the same (start, length) sequence. */
static int same_matches(pcre2_code *re, const struct chk_spelling *sp,
			const char *s, size_t n)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	size_t rpos = 0, opos = 0, st, ln;
	int ok = 1, rounds = 0;

	for (;;) {
		int rc = rpos <= n ? pcre2_match(re, (PCRE2_SPTR)s, n, rpos, 0, md, NULL) : -1;
		int oc = chk_spelling_next(sp, s, n, &opos, &st, &ln);
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

		if ((rc > 0) != (oc > 0)) {
			ok = 0;
			break;
		}
		if (rc <= 0)
			break;
		if (ov[2] != st || ov[3] - ov[2] != ln || ov[1] != opos) {
			ok = 0;
			break;
		}
		rpos = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
		if (++rounds > 1000)
			break;
	}
	if (!ok)
		fprintf(stderr, "mismatch on \"%.*s\"\n", (int)n, s);
	pcre2_match_data_free(md);
	return ok;
}

/* ---- fixed cases ---- */

static const char tricky[] =
	"# a comment line\n"
	"  abandonned||abandoned  \n"
	"an||AN\n"
	"an union||a union\n"
	"an user||a user\n"
	"cant||can't\n"
	"cant'||can't\n"
	"Foo||Bar\n"
	"foo||bar\n"
	"FOO||BAR\n"
	"re-use||reuse\n"
	"wont||won't\n"
	"teh||the\n"
	"tehy||they\n"
	"nofix||\n";

struct m { size_t st, len; };

static void expect_matches(const struct chk_spelling *sp, const char *s,
			   const struct m *want, size_t nwant)
{
	size_t pos = 0, st, ln, i = 0;

	while (chk_spelling_next(sp, s, strlen(s), &pos, &st, &ln)) {
		assert_true(i < nwant);
		assert_int_equal(st, want[i].st);
		assert_int_equal(ln, want[i].len);
		i++;
	}
	assert_int_equal(i, nwant);
}

static void test_spelling__parses_spelling_txt(void **state)
{
	struct chk_spelling *sp = chk_spelling_new(tricky, sizeof(tricky) - 1);

	(void)state;
	assert_non_null(sp);
	assert_int_equal(chk_spelling_count(sp), 14);
	assert_string_equal(chk_spelling_fix(sp, "abandonned", 10), "abandoned");
	assert_string_equal(chk_spelling_fix(sp, "ABANDONNED", 10), "abandoned");
	/* lc($typo) is looked up: "Foo" and "FOO" reach the "foo" entry */
	assert_string_equal(chk_spelling_fix(sp, "FOO", 3), "bar");
	assert_string_equal(chk_spelling_fix(sp, "an union", 8), "a union");
	/* "nofix||" splits to one field: the fix is undef */
	assert_null(chk_spelling_fix(sp, "nofix", 5));
	assert_null(chk_spelling_fix(sp, "nothere", 7));
	chk_spelling_free(sp);
}

static void test_spelling__parses_codespell_and_merges(void **state)
{
	static const char cs[] =
		"abandonned->abandoned\n"
		"teh->the, ten, tea,\n"
		"clas->class, disabled because of name clash in c++\n"
		"wont->won't, wont, \n"
		"->empty\n";
	struct chk_spelling *sp = chk_spelling_new(tricky, sizeof(tricky) - 1);

	(void)state;
	assert_non_null(sp);
	assert_int_equal(chk_spelling_add(sp, cs, sizeof(cs) - 1), 0);
	/* the later file wins; ", disabled" lines are skipped */
	assert_string_equal(chk_spelling_fix(sp, "teh", 3), "the");
	assert_string_equal(chk_spelling_fix(sp, "wont", 4), "won't");
	assert_null(chk_spelling_fix(sp, "clas", 4));
	assert_string_equal(chk_spelling_fix(sp, "", 0), "empty");
	assert_int_equal(chk_spelling_count(sp), 15);
	chk_spelling_free(sp);
}

static void test_spelling__regex_quirks(void **state)
{
	struct chk_spelling *sp = chk_spelling_new(tricky, sizeof(tricky) - 1);

	(void)state;
	{	/* the boundary after a typo is eaten: "teh teh" finds one */
		const struct m w[] = { { 0, 3 } };

		expect_matches(sp, "teh teh", w, 1);
	}
	{	/* two boundaries: both */
		const struct m w[] = { { 0, 3 }, { 5, 3 } };

		expect_matches(sp, "teh  teh", w, 2);
	}
	{	/* "an" sorts before "an union" and wins */
		const struct m w[] = { { 1, 2 } };

		expect_matches(sp, " an union", w, 1);
	}
	{	/* "FOO" < "Foo" < "foo": the first in sorted order is reported,
		 * with the text's own case */
		const struct m w[] = { { 0, 3 } };

		expect_matches(sp, "fOo.", w, 1);
	}
	{	/* hyphen, apostrophe and backtick are word characters here */
		expect_matches(sp, "re-teh teh' `teh x-teh", NULL, 0);
	}
	{	/* "cant'" is a key of its own: "cant'" followed by a space */
		const struct m w[] = { { 0, 5 } };

		expect_matches(sp, "cant' do", w, 1);
	}
	{
		const struct m w[] = { { 2, 6 } };

		expect_matches(sp, "+ re-use it", w, 1);
	}
	chk_spelling_free(sp);
}

static void test_spelling__empty_key_and_empty_line(void **state)
{
	static const char list[] = "||x\nteh||the\n";
	struct chk_spelling *sp = chk_spelling_new(list, sizeof(list) - 1);
	size_t pos = 0, st, ln;

	(void)state;
	/* the empty alternative sorts first: it wins wherever two
	 * boundaries meet, and at the start and end of the line */
	{
		const struct m w[] = { { 0, 0 }, { 2, 0 }, { 4, 3 } };

		expect_matches(sp, ". . teh", w, 3);
	}
	assert_int_equal(chk_spelling_next(sp, "", 0, &pos, &st, &ln), 1);
	assert_int_equal(chk_spelling_next(sp, "", 0, &pos, &st, &ln), 0);
	chk_spelling_free(sp);
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* Random lines made of keys (in random case), near-keys and separators. */
static size_t random_line(const struct keyv *kv, char *buf, size_t cap)
{
	static const char *const sep[] = {
		" ", "  ", "\t", ".", ",", "-", "'", "`", "_", "x", "0", "(",
		"\"", "/", "s", "e", "\n", "\xc3\xa9",
	};
	size_t n = 0, parts = rnd() % 12, i;

	for (i = 0; i < parts; i++) {
		const char *w;
		size_t l, j;

		if (rnd() % 3) {
			w = kv->k[rnd() % kv->n];
		} else {
			w = sep[rnd() % (sizeof(sep) / sizeof(sep[0]))];
		}
		l = strlen(w);
		if (n + l >= cap)
			break;
		for (j = 0; j < l; j++) {
			char c = w[j];

			if (rnd() % 4 == 0 && c >= 'a' && c <= 'z')
				c = (char)(c - 'a' + 'A');
			buf[n++] = c;
		}
		/* sometimes cut or extend a word */
		if (rnd() % 8 == 0 && n)
			n--;
	}
	buf[n] = '\0';
	return n;
}

static void equivalence_on(const char *list, size_t len, int rounds)
{
	struct chk_spelling *sp = chk_spelling_new(list, len);
	struct keyv kv;
	pcre2_code *re;
	char buf[512];
	int i, bad = 0;

	assert_non_null(sp);
	keys_of(list, &kv);
	assert_int_equal(chk_spelling_count(sp), kv.n);
	re = perl_regex(&kv);
	assert_non_null(re);
	for (i = 0; i < rounds && bad < 5; i++) {
		size_t n = random_line(&kv, buf, sizeof(buf));

		if (!same_matches(re, sp, buf, n))
			bad++;
	}
	assert_int_equal(bad, 0);
	pcre2_code_free(re);
	keys_free(&kv);
	chk_spelling_free(sp);
}

/* The keys of list against the regex on the fixed lines, then on random ones. */
static void same_as_regex_on(const char *list, size_t len,
			     const char *const *fixed, size_t nfixed)
{
	struct chk_spelling *sp = chk_spelling_new(list, len);
	struct keyv kv;
	pcre2_code *re;
	size_t i;

	keys_of(list, &kv);
	re = perl_regex(&kv);
	assert_non_null(re);
	for (i = 0; i < nfixed; i++)
		assert_true(same_matches(re, sp, fixed[i], strlen(fixed[i])));
	pcre2_code_free(re);
	keys_free(&kv);
	chk_spelling_free(sp);
	equivalence_on(list, len, 200000);
}

static void test_spelling__same_matches_as_the_regex(void **state)
{
	/* no empty key: pcre2's loop and Perl's differ only on empty
	 * matches, which the fixed test above covers */
	static const char *const fixed[] = {
		"teh teh", "teh  teh", " an union", "an an user", "fOo FOO foo.",
		"cant' cant'", "re-use re-use", "tehy teh", "\tteh\n", "teh\n",
		"an union\n", "x an union an user", "(teh)", "TEH", "wont`",
	};

	(void)state;
	same_as_regex_on(tricky, sizeof(tricky) - 1, fixed,
			 sizeof(fixed) / sizeof(fixed[0]));
}

/* checkpatch's own list, when the build has extracted it */
static void test_spelling__same_matches_with_spelling_txt(void **state)
{
	FILE *f = fopen("build/kernel/scripts/spelling.txt", "rb");
	char *buf;
	size_t n;

	(void)state;
	if (!f) {
		skip();
		return;
	}
	buf = malloc(1u << 20);
	n = fread(buf, 1, (1u << 20) - 1, f);
	fclose(f);
	buf[n] = '\0';
	equivalence_on(buf, n, 20000);
	free(buf);
}

/*
 * Keys holding boundary bytes ([^\w\-'`]) are matched past the run of
 * word bytes at a position, so the search tries longer lengths there:
 * keys with one first (codespell has "\xc3\xa9valuate"), inside, twice,
 * and one key longer than any other.
 */
static const char bounded[] =
	"teh||the\n"
	"can;t||can't\n"
	"an user||a user\n"
	";teh||the\n"
	"\xc3\xa9valuate||evaluate\n"
	"a b c||abc\n"
	"x: y||x\n"
	"teh teh teh||teh\n"
	"an||a\n"
	"longwordlongwordlongword||x\n";

static void test_spelling__keys_with_boundaries_as_regex(void **state)
{
	static const char *const fixed[] = {
		";teh", " ;teh", "x;teh", ";;teh", "can;t can;t", "can;tx",
		"\xc3\xa9valuate", "x\xc3\xa9valuate", " \xc3\xa9valuate.",
		"a b c", "a b cd", "a b a b c", "x: y x:y", "teh teh teh teh",
		"an user an", "longwordlongwordlongword",
		"longwordlongwordlongwordlongword longwordlongwordlongword",
		"xlongwordlongwordlongword", " longwordlongwordlongwor",
	};

	(void)state;
	same_as_regex_on(bounded, sizeof(bounded) - 1, fixed,
			 sizeof(fixed) / sizeof(fixed[0]));
}

/* Every byte before and after a typo: a boundary exactly as in the regex. */
static void test_spelling__every_byte_bounds_as_regex(void **state)
{
	struct chk_spelling *sp = chk_spelling_new(tricky, sizeof(tricky) - 1);
	struct keyv kv;
	pcre2_code *re;
	char line[8];
	int c;

	(void)state;
	keys_of(tricky, &kv);
	re = perl_regex(&kv);
	assert_non_null(re);
	for (c = 0; c < 256; c++) {
		memcpy(line, "xteh", 4);
		line[0] = (char)c;
		assert_true(same_matches(re, sp, line, 4));
		memcpy(line, "tehxteh", 7);
		line[3] = (char)c;
		assert_true(same_matches(re, sp, line, 4));
		assert_true(same_matches(re, sp, line, 7));
	}
	pcre2_code_free(re);
	keys_free(&kv);
	chk_spelling_free(sp);
}

/* TYPO_SPELLING through the checker, against checkpatch.pl's own output
 * for the same patch (with scripts/spelling.txt, whose entries for these
 * typos are the list below) */
static const char typo_patch[] =
	"From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n"
	"From: Jane Doe <jane@example.com>\n"
	"Date: Mon, 1 Jan 2024 00:00:00 +0000\n"
	"Subject: [PATCH] leds: acme: fix an union that was abandonned\n"
	"\n"
	"Teh driver had an union of TEH registers.  Abandonned code teh teh is\n"
	"removed; acessable-ish and re-abandonned stay.\n"
	"\n"
	"Signed-off-by: Jane Doe <jane@example.com>\n"
	"---\n"
	" drivers/leds/leds-acme.c | 2 +-\n"
	" 1 file changed, 1 insertion(+), 1 deletion(-)\n"
	"\n"
	"diff --git a/drivers/leds/leds-acme.c b/drivers/leds/leds-acme.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/drivers/leds/leds-acme.c\n"
	"+++ b/drivers/leds/leds-acme.c\n"
	"@@ -10,7 +10,7 @@ static int acme_set(struct led_classdev *cdev, int v)\n"
	" {\n"
	" \tstruct acme *a = to_acme(cdev);\n"
	" \n"
	"-\treturn regmap_write(a->map, 0x10, v); /* teh old one */\n"
	"+\treturn regmap_write(a->map, ACME_REG, v); /* Acessable, not teh */\n"
	" }\n"
	" \n"
	" static int acme_probe(struct platform_device *pdev)\n"
	"-- \n"
	"2.43.0\n";

static const char typo_expect[] =
	"WARNING:TYPO_SPELLING: 'an union' may be misspelled - perhaps 'a union'?\n"
	"#4: \n"
	"Subject: [PATCH] leds: acme: fix an union that was abandonned\n"
	"                                 ^^^^^^^^\n"
	"\n"
	"WARNING:TYPO_SPELLING: 'Teh' may be misspelled - perhaps 'The'?\n"
	"#6: \n"
	"Teh driver had an union of TEH registers.  Abandonned code teh teh is\n"
	"^^^\n"
	"\n"
	"WARNING:TYPO_SPELLING: 'an union' may be misspelled - perhaps 'a union'?\n"
	"#6: \n"
	"Teh driver had an union of TEH registers.  Abandonned code teh teh is\n"
	"               ^^^^^^^^\n"
	"\n"
	"WARNING:TYPO_SPELLING: 'TEH' may be misspelled - perhaps 'THE'?\n"
	"#6: \n"
	"Teh driver had an union of TEH registers.  Abandonned code teh teh is\n"
	"                           ^^^\n"
	"\n"
	"WARNING:TYPO_SPELLING: 'teh' may be misspelled - perhaps 'the'?\n"
	"#6: \n"
	"Teh driver had an union of TEH registers.  Abandonned code teh teh is\n"
	"                                                           ^^^\n"
	"\n"
	"WARNING:REPEATED_WORD: Possible repeated word: 'teh'\n"
	"#6: \n"
	"Teh driver had an union of TEH registers.  Abandonned code teh teh is\n"
	"\n"
	"WARNING:TYPO_SPELLING: 'Acessable' may be misspelled - perhaps 'Accessible'?\n"
	"#23: FILE: drivers/leds/leds-acme.c:13:\n"
	"+\treturn regmap_write(a->map, ACME_REG, v); /* Acessable, not teh */\n"
	" \t                                             ^^^^^^^^^\n"
	"\n"
	"WARNING:TYPO_SPELLING: 'teh' may be misspelled - perhaps 'the'?\n"
	"#23: FILE: drivers/leds/leds-acme.c:13:\n"
	"+\treturn regmap_write(a->map, ACME_REG, v); /* Acessable, not teh */\n"
	" \t                                                            ^^^\n"
	"\n";

static void test_spelling__typo_spelling_reports(void **state)
{
	static const char list[] =
		"acessable||accessible\n"
		"an union||a union\n"
		"teh||the\n"
		"wont||won't\n";
	struct chk_spelling *sp = chk_spelling_new(list, sizeof(list) - 1);
	struct chk_opts o;
	struct chk_result res;
	struct sbuf out;
	size_t i;

	(void)state;
	assert_non_null(sp);
	chk_opts_init(&o);
	o.show_types = 1;
	o.spelling = sp;
	assert_int_equal(chk_run(&o, "t.patch", typo_patch, sizeof(typo_patch) - 1,
				 &res), 0);
	sbuf_init(&out, 1u << 20);
	for (i = 0; i < res.n; i++)
		sbuf_addstr(&out, res.f[i].text);
	assert_string_equal(out.buf, typo_expect);
	sbuf_release(&out);
	chk_result_release(&res);
	chk_spelling_free(sp);
}

/* ---- images ---- */

#define CODESPELL_DICT "/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt"

/* The keys of a list in either format (typo||fix, typo->fix), for
 * making text: duplicates and odd lines do no harm here. */
static void keys_any(const char *list, struct keyv *kv)
{
	const char *p = list;
	size_t alloc = 0;

	kv->k = NULL;
	kv->n = 0;
	while (*p) {
		const char *nl = strchr(p, '\n'), *sep;
		size_t n = nl ? (size_t)(nl - p) : strlen(p), k;

		sep = memmem(p, n, "||", 2);
		if (!sep)
			sep = memmem(p, n, "->", 2);
		k = sep ? (size_t)(sep - p) : n;
		if (k && *p != '#') {
			if (kv->n == alloc) {
				alloc = alloc ? alloc * 2 : 64;
				kv->k = realloc(kv->k, alloc * sizeof(char *));
			}
			kv->k[kv->n++] = strndup(p, k);
		}
		p += n + (nl ? 1 : 0);
	}
}

/* Whether a and b answer every query the same: the fix of each key, in
 * its own case, upper case and cut short, and the matches in random
 * lines of the keys. */
static int same_answers(const struct chk_spelling *a, const struct chk_spelling *b,
			const struct keyv *kv, int rounds)
{
	char buf[512];
	size_t i;
	int r;

	if (chk_spelling_count(a) != chk_spelling_count(b))
		return 0;
	for (i = 0; i < kv->n; i++) {
		const char *k = kv->k[i];
		size_t n = strlen(k), j;
		char up[CHK_SPELLING_MAX_KEY + 1];
		const char *fa, *fb;

		if (n > CHK_SPELLING_MAX_KEY)
			continue;
		for (j = 0; j < n; j++)
			up[j] = (char)(k[j] >= 'a' && k[j] <= 'z' ? k[j] - 32 : k[j]);
		fa = chk_spelling_fix(a, k, n);
		fb = chk_spelling_fix(b, k, n);
		if (!fa != !fb || (fa && strcmp(fa, fb)))
			return 0;
		fa = chk_spelling_fix(a, up, n);
		fb = chk_spelling_fix(b, up, n);
		if (!fa != !fb || (fa && strcmp(fa, fb)))
			return 0;
		if (n && (!chk_spelling_fix(a, k, n - 1) != !chk_spelling_fix(b, k, n - 1)))
			return 0;
	}
	for (r = 0; r < rounds; r++) {
		size_t n = random_line(kv, buf, sizeof(buf)), pa = 0, pb = 0;
		size_t sa, la, sb, lb;

		for (;;) {
			int ra = chk_spelling_next(a, buf, n, &pa, &sa, &la);
			int rb = chk_spelling_next(b, buf, n, &pb, &sb, &lb);

			if (ra != rb)
				return 0;
			if (!ra)
				break;
			if (sa != sb || la != lb || pa != pb)
				return 0;
		}
	}
	return 1;
}

/* The image of a list built from list[0, len) loads into a list that
 * answers as the original and makes the same image again. */
static void image_round_trip(const char *list, size_t len, int rounds)
{
	struct chk_spelling *sp = chk_spelling_new(list, len), *im;
	struct sbuf img, again;
	struct keyv kv;

	assert_non_null(sp);
	sbuf_init(&img, 256u << 20);
	sbuf_init(&again, 256u << 20);
	assert_int_equal(chk_spelling_image(sp, &img), 0);
	im = chk_spelling_from_image(img.buf, img.len);
	assert_non_null(im);
	assert_int_equal(chk_spelling_image(im, &again), 0);
	assert_int_equal(again.len, img.len);
	assert_memory_equal(again.buf, img.buf, img.len);
	keys_any(list, &kv);
	assert_true(same_answers(sp, im, &kv, kv.n ? rounds : 0));
	keys_free(&kv);
	chk_spelling_free(im);
	chk_spelling_free(sp);
	sbuf_release(&again);
	sbuf_release(&img);
}

static char *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct sbuf sb;
	char tmp[65536];
	size_t n;

	if (!f)
		return NULL;
	sbuf_init(&sb, 64u << 20);
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		sbuf_add(&sb, tmp, n);
	fclose(f);
	return sbuf_detach(&sb, len);
}

static void test_spelling__image_answers_as_the_list(void **state)
{
	static const char cs[] =
		"abandonned->abandoned\n"
		"teh->the, ten, tea,\n"
		"clas->class, disabled because of name clash in c++\n"
		"wont->won't, wont, \n"
		"Teh->The\n"
		"TEH->THE\n";
	static const char *const files[] = {
		"build/kernel/scripts/spelling.txt", CODESPELL_DICT,
	};
	char both[sizeof(tricky) + sizeof(cs)];
	size_t i;

	(void)state;
	image_round_trip(tricky, sizeof(tricky) - 1, 20000);
	memcpy(both, tricky, sizeof(tricky) - 1);
	memcpy(both + sizeof(tricky) - 1, cs, sizeof(cs));
	image_round_trip(both, strlen(both), 20000);
	image_round_trip("", 0, 10);
	image_round_trip("||x\nteh||the\n", 13, 1000);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t n;
		char *buf = read_whole(files[i], &n);

		if (!buf)
			continue;
		image_round_trip(buf, n, 20000);
		free(buf);
	}
}

static void test_spelling__image_add_copies_the_image(void **state)
{
	static const char more[] = "teh->tee\nnewone||new one\n";
	struct chk_spelling *sp = chk_spelling_new(tricky, sizeof(tricky) - 1), *im, *all;
	struct sbuf img;
	char *copy, both[sizeof(tricky) + sizeof(more)];
	struct keyv kv;

	(void)state;
	sbuf_init(&img, 1u << 20);
	assert_int_equal(chk_spelling_image(sp, &img), 0);
	copy = malloc(img.len);
	memcpy(copy, img.buf, img.len);
	im = chk_spelling_from_image(img.buf, img.len);
	assert_non_null(im);
	assert_int_equal(chk_spelling_add(im, more, sizeof(more) - 1), 0);
	/* the image is left as it was; the list has both */
	assert_memory_equal(copy, img.buf, img.len);
	memcpy(both, tricky, sizeof(tricky) - 1);
	memcpy(both + sizeof(tricky) - 1, more, sizeof(more));
	all = chk_spelling_new(both, strlen(both));
	keys_any(both, &kv);
	assert_true(same_answers(all, im, &kv, 20000));
	assert_string_equal(chk_spelling_fix(im, "teh", 3), "tee");
	keys_free(&kv);
	chk_spelling_free(all);
	chk_spelling_free(im);
	chk_spelling_free(sp);
	free(copy);
	sbuf_release(&img);
}

/* Load b[0, n) from a buffer of exactly n bytes (so that the sanitizer
 * sees any read past it) and, when it loads, use it. */
static int load_and_use(const unsigned char *b, size_t n, const struct keyv *kv)
{
	void *buf = malloc(n ? n : 1);
	struct chk_spelling *sp;
	char line[512];
	size_t i, pos, st, ln;
	int r;

	memcpy(buf, b, n);
	sp = chk_spelling_from_image(buf, n);
	if (!sp) {
		free(buf);
		return 0;
	}
	for (i = 0; i < kv->n; i++)
		(void)chk_spelling_fix(sp, kv->k[i], strlen(kv->k[i]));
	for (r = 0; r < 20; r++) {
		size_t len = random_line(kv, line, sizeof(line));

		for (pos = 0; chk_spelling_next(sp, line, len, &pos, &st, &ln);)
			assert_true(st + ln <= len);
	}
	chk_spelling_free(sp);
	free(buf);
	return 1;
}

static void test_spelling__damaged_images_are_refused(void **state)
{
	struct chk_spelling *sp = chk_spelling_new(tricky, sizeof(tricky) - 1);
	struct sbuf img;
	unsigned char *b;
	struct keyv kv;
	size_t n, i;
	int loaded = 0;

	(void)state;
	sbuf_init(&img, 1u << 20);
	assert_int_equal(chk_spelling_image(sp, &img), 0);
	n = img.len;
	b = malloc(n);
	keys_any(tricky, &kv);
	assert_int_equal(load_and_use((unsigned char *)img.buf, n, &kv), 1);
	/* every truncation, and one byte more */
	for (i = 0; i < n; i++)
		assert_int_equal(load_and_use((unsigned char *)img.buf, i, &kv), 0);
	memcpy(b, img.buf, n);
	{
		unsigned char *longer = malloc(n + 1);

		memcpy(longer, b, n);
		longer[n] = 0;
		assert_int_equal(load_and_use(longer, n + 1, &kv), 0);
		free(longer);
	}
	/* not 8-byte aligned */
	{
		unsigned char *mis = malloc(n + 1);

		memcpy(mis + 1, b, n);
		assert_null(chk_spelling_from_image(mis + 1, n));
		free(mis);
	}
	/* each header byte changed: refused (magic, version, order, sizes,
	 * counts, total), but for the input count (bytes 32-39) */
	for (i = 0; i < 48; i++) {
		if (i >= 32 && i < 40)
			continue;
		memcpy(b, img.buf, n);
		b[i] ^= 0x80;
		assert_int_equal(load_and_use(b, n, &kv), 0);
	}
	/* bytes flipped at random, and random bytes: never a crash */
	for (i = 0; i < 100000; i++) {
		int k, flips = 1 + (int)(rnd() % 4);

		memcpy(b, img.buf, n);
		for (k = 0; k < flips; k++) {
			size_t at = i % 3 == 0 ? rnd() % 48 : rnd() % n;

			if (i % 2)
				b[at] = (unsigned char)rnd();
			else
				b[at] ^= (unsigned char)(1u << (rnd() % 8));
		}
		loaded += load_and_use(b, i % 5 == 0 ? rnd() % (n + 1) : n, &kv);
	}
	/* some flips land in keys or hashes: those load (wrong answers at
	 * worst); most are refused */
	assert_true(loaded > 0 && loaded < 100000);
	for (i = 0; i < 1000; i++) {
		size_t k;

		for (k = 0; k < n; k++)
			b[k] = (unsigned char)rnd();
		memcpy(b, img.buf, 8 + (i % 2) * 40);	/* past the magic, or the header */
		load_and_use(b, n, &kv);
	}
	keys_free(&kv);
	free(b);
	sbuf_release(&img);
	chk_spelling_free(sp);
}

static void test_spelling__image_needs_room(void **state)
{
	struct chk_spelling *sp = chk_spelling_new(tricky, sizeof(tricky) - 1);
	struct sbuf img;

	(void)state;
	sbuf_init(&img, 100);
	assert_int_equal(chk_spelling_image(sp, &img), -1);
	assert_int_equal(chk_spelling_image(NULL, &img), -1);
	assert_null(chk_spelling_from_image(NULL, 0));
	sbuf_release(&img);
	chk_spelling_free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spelling__parses_spelling_txt),
		cmocka_unit_test(test_spelling__parses_codespell_and_merges),
		cmocka_unit_test(test_spelling__regex_quirks),
		cmocka_unit_test(test_spelling__empty_key_and_empty_line),
		cmocka_unit_test(test_spelling__same_matches_as_the_regex),
		cmocka_unit_test(test_spelling__same_matches_with_spelling_txt),
		cmocka_unit_test(test_spelling__keys_with_boundaries_as_regex),
		cmocka_unit_test(test_spelling__every_byte_bounds_as_regex),
		cmocka_unit_test(test_spelling__typo_spelling_reports),
		cmocka_unit_test(test_spelling__image_answers_as_the_list),
		cmocka_unit_test(test_spelling__image_add_copies_the_image),
		cmocka_unit_test(test_spelling__damaged_images_are_refused),
		cmocka_unit_test(test_spelling__image_needs_room),
	};

	return cmocka_run_group_tests_name("spelling", tests, NULL, NULL);
}

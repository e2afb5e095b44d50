// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: C macros and blocks (checkpatch.pl, process(), from "Check for
 * illegal assignment in if conditional" to just before "check for bad
 * placement of section $InitAttribute"): trailing statements, else/while
 * after a brace, CamelCase, the #define rules; then, from "check for
 * redundant bracing round if etc" (seg_c_macros_rest()), braces,
 * volatile, strings and printf formats, #if 0/1, needless ifs, logging,
 * NULL comparisons, and reviewbot's DEPRECATED_SPINLOCK_INIT.
 */
#include "eng.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../banned.h"

static int seg_c_macros_rest(struct eng *e);

/* ---- %camelcase: a set of words ---- */

#define CAMEL_MAX_WORDS	(1u << 20)

struct camelcase_set {
	char **slot;
	size_t size, used;	/* size: a power of two */
};

static size_t camel_hash(const char *s, size_t n)
{
	size_t h = (size_t)14695981039346656037ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * (size_t)1099511628211ULL;
	return h;
}

static int camel_grow(struct camelcase_set *cs)
{
	size_t nsize = cs->size ? cs->size * 2 : 256, i;
	char **ns = calloc(nsize, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i < cs->size; i++) {
		size_t h;

		if (!cs->slot[i])
			continue;
		h = camel_hash(cs->slot[i], strlen(cs->slot[i])) & (nsize - 1);
		while (ns[h])
			h = (h + 1) & (nsize - 1);
		ns[h] = cs->slot[i];
	}
	free(cs->slot);
	cs->slot = ns;
	cs->size = nsize;
	return 0;
}

/*
 * "if (!defined $camelcase{$word}) { $camelcase{$word} = 1; ... }":
 * returns 1 when word was new (and adds it), 0 when already seen, -1 when
 * out of memory or full.
 */
static int camel_add(struct eng *e, const char *w, size_t n)
{
	struct camelcase_set *cs = e->camelcase;
	size_t h;
	char *p;

	if (!cs) {
		cs = calloc(1, sizeof(*cs));
		if (!cs)
			return -1;
		e->camelcase = cs;
	}
	if ((cs->used + 1) * 2 > cs->size) {
		if (cs->used >= CAMEL_MAX_WORDS || camel_grow(cs))
			return -1;
	}
	h = camel_hash(w, n) & (cs->size - 1);
	while (cs->slot[h]) {
		if (strlen(cs->slot[h]) == n && !memcmp(cs->slot[h], w, n))
			return 0;
		h = (h + 1) & (cs->size - 1);
	}
	p = malloc(n + 1);
	if (!p)
		return -1;
	memcpy(p, w, n);
	p[n] = '\0';
	cs->slot[h] = p;
	cs->used++;
	return 1;
}

void seg_c_macros_release(struct eng *e)
{
	struct camelcase_set *cs = e->camelcase;
	size_t i;

	if (!cs)
		return;
	for (i = 0; i < cs->size; i++)
		free(cs->slot[i]);
	free(cs->slot);
	free(cs);
	e->camelcase = NULL;
}

/* ---- small string helpers with Perl's semantics ---- */

/* substr($s, 0, length($c), ''): what is left of s after its first n bytes */
static const char *after_prefix(const char *s, size_t n)
{
	size_t l = strlen(s);

	return s + (n < l ? n : l);
}

/* the Perl substitution of "\n" and the rest of each line by nothing: the
 * first line only */
static char *first_line(struct eng *e, const char *s)
{
	const char *nl = strchr(s, '\n');

	return eng_strndup(e, s, nl ? (size_t)(nl - s) : strlen(s));
}

/* $s =~ s/$;//g */
static char *drop_fillers(struct eng *e, const char *s)
{
	char *r = eng_strdup(e, s), *w = r;
	const char *p;

	for (p = r; *p; p++)
		if (*p != '\x1c')
			*w++ = *p;
	*w = '\0';
	return r;
}

static size_t count_char(const char *s, char c)
{
	size_t n = 0;

	for (; *s; s++)
		if (*s == c)
			n++;
	return n;
}

/* $herectx of the macro checks: $here and the statement's raw lines */
static char *macro_herectx(struct eng *e, const char *ctx)
{
	ctx = eng_subst(e, "\\n*$", "", ctx, 0);	/* $ctx =~ s/\n*$// */
	return get_stat_here(e, e->linenr, statement_rawlines(e, ctx),
			     e->here.buf);
}

/* ---- the checks ---- */

/*
 * Check for illegal assignment in if conditional -- and check for trailing
 * statements after the conditional.
 */
static void assign_in_if(struct eng *e)
{
	const char *line = e->line;
	const char *s, *c;
	size_t clen;

	if (MQ(e, "do\\s*(?!{)", line)) {
		struct stmt_block nb;
		char *stat_next;

		stmt_ensure(e);
		ctx_statement_block(e, e->line_nr_next, e->remain_next,
				    e->off_next, &nb);
		stat_next = eng_nl_blank(e, nb.statement);
		if (MQ(e, "^\\s*while\\b", stat_next)) {
			/* If the statement carries leading newlines, then
			 * count those as offsets. */
			struct re_m m;
			const char *ws = "";
			long offset;

			if (re_match(e->rc, "(?s)^((?:\\s*\\n[+-])*\\s*)", stat_next, &m))
				ws = eng_strndup(e, stat_next + re_start(&m, 1),
						 re_end(&m, 1) - re_start(&m, 1));
			offset = statement_rawlines(e, ws) - 1;
			lineset_add(&e->suppress_whiletrailers,
				    e->line_nr_next + offset);
		}
	}

	if (lineset_has(&e->suppress_whiletrailers, e->linenr) ||
	    !e->has_stat || !e->stat || !e->cond ||
	    !MQ(e, "\\b(?:if|while|for)\\s*\\(", line) ||
	    MQ(e, "^.\\s*#", line))
		return;

	s = e->stat;
	c = e->cond;
	if (MQ(e, "(?s)\\bif\\s*\\(.*[^<>!=]=[^=].*", c))
		ERROR(e, R_ASSIGN_IN_IF,
		      eng_cat(e, "do not use assignment in if condition\n", e->herecurr));

	/* Find out what is on the end of the line after the conditional. */
	clen = strlen(c);
	s = first_line(e, after_prefix(s, clen));
	s = drop_fillers(e, s);		/* Remove any comments */
	if (clen && !MQ(e, "^\\s*{?\\s*\\\\*\\s*$", s) &&
	    !MQ(e, "}\\s*while\\s*", c)) {
		/* Find out how long the conditional actually is. */
		size_t cond_lines = count_char(c, '\n');
		const char *stat_real = "";

		if (cond_lines) {
			const char *r = raw_line(e, e->linenr, (long)cond_lines);

			stat_real = eng_cat(e, r ? r : "", "\n");
		}
		if (cond_lines > 1)
			stat_real = eng_cat(e, "[...]\n", stat_real);
		ERROR(e, R_TRAILING_STATEMENTS,
		      eng_printf(e, "trailing statements should be on next line\n%s%s",
				 e->herecurr, stat_real));
	}
}

/*
 * From "Check for bitwise tests written as boolean" to the case/default
 * check.  Returns pos($line) as that check leaves it: the CamelCase scan
 * below starts there ("while ($line =~ m{...}g)" continues from it).
 */
static size_t trailing_statements(struct eng *e)
{
	const char *line = e->line;
	size_t pos = 0;
	struct re_m m;

	/* Check for bitwise tests written as boolean */
	if (MQ(e, "(?:(?:\\[|\\(|\\&\\&|\\|\\|)\\s*0[xX][0-9]+\\s*(?:\\&\\&|\\|\\|)|"
	       "(?:\\&\\&|\\|\\|)\\s*0[xX][0-9]+\\s*(?:\\&\\&|\\|\\||\\)|\\]))", line))
		WARN(e, R_HEXADECIMAL_BOOLEAN_TEST,
		     eng_cat(e, "boolean test with hexadecimal, perhaps just 1 & or |?\n",
			     e->herecurr));

	/* if and else should not have general statements after it */
	if (M(e, "^.\\s*(?:}\\s*)?else\\b(.*)", line)) {
		char *s = drop_fillers(e, eng_cap(e, 1));

		if (!MQ(e, "^\\s*(?:\\sif|(?:{|)\\s*\\\\?\\s*$)", s))
			ERROR(e, R_TRAILING_STATEMENTS,
			      eng_cat(e, "trailing statements should be on next line\n",
				      e->herecurr));
	}
	/* if should not continue a brace */
	if (MQ(e, "}\\s*if\\b", line))
		ERROR(e, R_TRAILING_STATEMENTS,
		      eng_cat(e, "trailing statements should be on next line (or did you mean 'else if'?)\n",
			      e->herecurr));
	/* case and default should not have general statements after them */
	if (M(e, "^.\\s*(?:case\\s*.*|default\\s*):", line)) {
		/* the //g match set pos($line); the \G match continues from
		 * it and, matching, moves it on (failing, resets it) */
		pos = re_end(&e->m, 0);
		if (re_find(e->rc, "\\G(?:(?:\\s*$;*)(?:\\s*{)?(?:\\s*$;*)(?:\\s*\\\\)?\\s*$|\\s*return\\s+)",
			    line, strlen(line), pos, &m)) {
			pos = re_end(&m, 0);
		} else {
			pos = 0;
			ERROR(e, R_TRAILING_STATEMENTS,
			      eng_cat(e, "trailing statements should be on next line\n",
				      e->herecurr));
		}
	}
	return pos;
}

/* Check for }<nl>else {, and }<nl>while (...); at the same indent. */
static void after_brace(struct eng *e)
{
	const char *line = e->line;

	if (MQ(e, "}\\s*$", e->prevline) && MQ(e, "^.\\s*else\\s*", line) &&
	    e->previndent == e->indent)
		ERROR(e, R_ELSE_AFTER_BRACE,
		      eng_cat(e, "else should follow close brace '}'\n", e->hereprev));

	if (MQ(e, "}\\s*$", e->prevline) && MQ(e, "^.\\s*while\\s*", line) &&
	    e->previndent == e->indent) {
		struct stmt_block b;
		const char *s;

		ctx_statement_block(e, e->linenr, e->realcnt, 0, &b);
		/* Find out what is on the end of the line after the
		 * conditional. */
		s = first_line(e, after_prefix(b.statement, strlen(b.condition)));
		if (MQ(e, "^\\s*;", s))
			ERROR(e, R_WHILE_AFTER_BRACE,
			      eng_cat(e, "while should follow close brace '}'\n", e->hereprev));
	}
}

/* Specific variable tests: CamelCase. */
static void camelcase(struct eng *e, size_t pos)
{
	const char *line = e->line;
	size_t len = strlen(line);
	struct re_m m;

	/* while ($line =~ m{($Constant|$Lval)}g), from pos($line) */
	while (!e->line_skip && pos <= len && re_find(e->rc, "($Constant|$Lval)", line, len, pos, &m)) {
		char *var = eng_strndup(e, line + re_start(&m, 1),
					re_end(&m, 1) - re_start(&m, 1));
		size_t vlen = strlen(var), vpos = 0;
		struct re_m wm;

		pos = re_end(&m, 0) > re_start(&m, 0) ? re_end(&m, 0) : re_end(&m, 0) + 1;
		if (MQ(e, "^$Constant$", var) ||
		    !MQ(e, "[A-Z][a-z]|[a-z][A-Z]", var) ||
		    /* Ignore some autogenerated defines and enum values */
		    MQ(e, "^(?:[A-Z]+_){1,5}[A-Z]{1,3}[a-z]", var) ||
		    /* Ignore Page<foo> variants */
		    MQ(e, "^(?:Clear|Set|TestClear|TestSet|)Page[A-Z]", var) ||
		    /* 6.12: Ignore ETHTOOL_LINK_MODE_<foo> variants */
		    (e->cpv >= CP_6_12 && MQ(e, "^ETHTOOL_LINK_MODE_", var)) ||
		    /* Ignore SI style variants like nS, mV and dB
		     * (ie: max_uV, regulator_min_uA_show, RANGE_mA_VALUE) */
		    MQ(e, "^(?:[a-z0-9_]*|[A-Z0-9_]*)?_?[a-z][A-Z](?:_[a-z0-9_]+|_[A-Z0-9_]+)?$", var) ||
		    /* Ignore some three character SI units explicitly, like
		     * MiB and KHz */
		    MQ(e, "^(?:[a-z_]*?)_?(?:[KMGT]iB|[KMGT]?Hz)(?:_[a-z_]+)?$", var))
			continue;
		while (!e->line_skip && vpos <= vlen && re_find(e->rc, "\\b($Ident)", var, vlen, vpos, &wm)) {
			const char *w = var + re_start(&wm, 1);
			size_t wn = re_end(&wm, 1) - re_start(&wm, 1);
			char *word = eng_strndup(e, w, wn);

			vpos = re_end(&wm, 0) > re_start(&wm, 0) ?
			       re_end(&wm, 0) : re_end(&wm, 0) + 1;
			if (!MQ(e, "[A-Z][a-z]|[a-z][A-Z]", word))
				continue;
			/*
			 * With $check, checkpatch.pl seeds %camelcase from
			 * the tree's include/ headers and from $realfile on disk;
			 * without a tree ("find $root/include" on an undef
			 * $root, no .git) and with $realfile absent from the
			 * working folder, both seed nothing.
			 */
			if (camel_add(e, word, wn) == 1)
				CHK(e, R_CAMELCASE,
				    eng_printf(e, "Avoid CamelCase: <%s>\n%s", word,
					       e->herecurr));
		}
	}
}

/*
 * "split(",", $s)": the fields of s, trailing empty ones removed; returns
 * the count and the fields in *out (arena).
 */
static size_t split_commas(struct eng *e, const char *s, char ***out)
{
	size_t n = count_char(s, ',') + 1, k = 0;
	char **v = eng_alloc(e, sizeof(*v) * n);
	const char *p = s;

	*out = v;
	if (!v)
		return 0;
	for (;;) {
		const char *q = strchr(p, ',');

		v[k++] = eng_strndup(e, p, q ? (size_t)(q - p) : strlen(p));
		if (!q)
			break;
		p = q + 1;
	}
	while (k && !v[k - 1][0])
		k--;
	return k;
}

/* Perl's "while ($s =~ s/pat/repl/)": one substitution on an sbuf */
static int subst1(struct eng *e, const char *pat, const char *repl,
		  struct sbuf *sb)
{
	return re_subst_sb(e->rc, pat, repl, sb, 0) > 0 && !sb->err;
}

#define FLATTEN_MAX 1000000	/* substitutions: each one shortens dstat */

/* Perl's \w on bytes */
static int word_byte(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * 6.12: every word of a vmlinux.lds.h line goes into %maybe_linker_symbol,
 * and the line, as checkpatch.pl's substitution leaves it, has each word
 * replaced by how often it was seen before ("" the first time).
 */
static void linker_symbols(struct eng *e)
{
	const char *p = e->line;
	struct sbuf sb;

	sbuf_init(&sb, ENG_ARENA_MAX);
	while (*p) {
		const char *w = p;
		long was;

		while (*p && !word_byte((unsigned char)*p))
			p++;
		sbuf_add(&sb, w, (size_t)(p - w));
		if (!*p)
			break;
		for (w = p; word_byte((unsigned char)*p); p++)
			;
		was = linksym_bump(e, w, (size_t)(p - w));
		if (was)
			sbuf_addf(&sb, "%ld", was);
	}
	if (!sb.err)
		eng_set_line(e, sb.buf);
	else
		eng_fail_line(e);
	sbuf_release(&sb);
}

/*
 * multi-statement macros should be enclosed in a do while loop, grab the
 * first statement and ensure its the whole macro if its not enclosed in a
 * known good container
 */
static void macro_complex(struct eng *e)
{
	struct stmt_block b;
	const char *ctx, *dstat, *define_args = NULL, *define_stmt;
	char **def_args = NULL;
	size_t ndef_args = 0, i, k;
	int has_flow_statement = 0, has_arg_concat = 0;
	struct sbuf sb;
	char *herectx, *stmt;

	ctx_statement_block(e, e->linenr, e->realcnt, 0, &b);
	ctx = b.statement;
	dstat = b.statement;

	/* M(), not MQ(): a failing s/// below leaves $1 as these set it */
	if (M(e, "\\b(goto|return)\\b", ctx))
		has_flow_statement = 1;
	if (M(e, "\\#\\#", ctx) &&
	    !M(e, "\\#\\#\\s*(?:__VA_ARGS__|args)\\b", ctx))
		has_arg_concat = 1;

	/* strip "#define NAME(args)" off dstat; args are its $1 */
	if (M(e, "^.\\s*\\#\\s*define\\s+$Ident(\\([^\\)]*\\))?\\s*", dstat))
		dstat = eng_strdup(e, dstat + re_end(&e->m, 0));
	if (eng_cap_def(e, 1))
		define_args = eng_cap(e, 1);
	define_stmt = dstat;

	if (define_args && define_args[0]) {
		size_t l = strlen(define_args);
		char *a;

		/* substr($define_args, 1, length($define_args) - 2) */
		a = eng_strndup(e, define_args + 1, l >= 2 ? l - 2 : 0);
		a = eng_subst(e, "\\s*", "", a, 1);
		a = eng_subst(e, "\\\\\\+?", "", a, 1);
		ndef_args = split_commas(e, a, &def_args);
	}

	sbuf_init(&sb, ENG_ARENA_MAX / 4);
	sbuf_addstr(&sb, dstat);
	re_subst_sb(e->rc, "$;", "", &sb, 1);
	re_subst_sb(e->rc, "\\\\\\n.", "", &sb, 1);
	re_subst_sb(e->rc, "(?s)^\\s*", "", &sb, 0);
	re_subst_sb(e->rc, "(?s)\\s*$", "", &sb, 0);

	/* Flatten any parentheses and braces */
	for (k = 0; k < FLATTEN_MAX && !sb.err; k++)
		if (!subst1(e, "\\([^\\(\\)]*\\)", "1u", &sb) &&
		    !subst1(e, "\\{[^\\{\\}]*\\}", "1u", &sb) &&
		    !subst1(e, ".\\[[^\\[\\]]*\\]", "1u", &sb))
			break;

	/* Flatten any obvious string concatenation. */
	for (k = 0; k < FLATTEN_MAX && !sb.err; k++)
		if (!subst1(e, "($String)\\s*$Ident", "$1", &sb) &&
		    !subst1(e, "$Ident\\s*($String)", "$1", &sb))
			break;

	/* Make asm volatile uses seem like a generic function */
	re_subst_sb(e->rc, "\\b_*asm_*\\s+_*volatile_*\\b", "asm_volatile", &sb, 1);
	stmt = eng_sbuf_str(e, &sb);
	sbuf_release(&sb);

	herectx = macro_herectx(e, ctx);

	if (stmt[0] &&
	    !MQ(e, "^(?:$Ident|-?$Constant),$", stmt) &&		/* 10, // foo(), */
	    !MQ(e, "^(?:$Ident|-?$Constant);$", stmt) &&		/* foo(); */
	    /* 10, foo(), !foo, ~foo, -foo, foo->bar, foo.bar->baz */
	    !MQ(e, "^[!~-]?(?:$Lval|$Constant)$", stmt) &&
	    !MQ(e, "^'X'$", stmt) && !MQ(e, "^'XX'$", stmt) &&		/* character constants */
	    /* $exceptions */
	    !MQ(e, "$Declare|module_param_named|MODULE_PARM_DESC|DECLARE_PER_CPU|"
		"DEFINE_PER_CPU|__typeof__\\(|union|struct|\\.$Ident\\s*=\\s*|^\"|\"$|^\\[",
		stmt) &&
	    !MQ(e, "^\\.$Ident\\s*=", stmt) &&				/* .foo = */
	    !MQ(e, "^(?:\\#\\s*$Ident|\\#\\s*$Constant)\\s*$", stmt) &&	/* stringification #foo */
	    !(e->cpv >= CP_6_12 && MQ(e, "^case\\b", stmt)) &&		/* case ... (6.12) */
	    /* do {...} while (...); and do {...} while (...) */
	    !MQ(e, "^do\\s*$Constant\\s*while\\s*$Constant;?$", stmt) &&
	    !MQ(e, "^while\\s*$Constant\\s*$Constant\\s*$", stmt) &&	/* while (...) {...} */
	    !MQ(e, "^for\\s*$Constant$", stmt) &&			/* for (...) */
	    !MQ(e, "^for\\s*$Constant\\s+(?:$Ident|-?$Constant)$", stmt) &&	/* for (...) bar() */
	    !MQ(e, "^do\\s*{", stmt) &&					/* do {... */
	    !MQ(e, "^\\(\\{", stmt) &&					/* ({... */
	    !MQ(e, "^.\\s*#\\s*define\\s+TRACE_(?:SYSTEM|INCLUDE_FILE|INCLUDE_PATH)\\b", ctx)) {
		if (MQ(e, "^\\s*if\\b", stmt))
			ERROR(e, R_MULTISTATEMENT_MACRO_USE_DO_WHILE,
			      eng_cat(e, "Macros starting with if should be enclosed by a do - while loop to avoid possible if/else logic defects\n",
				      herectx));
		else if (strchr(stmt, ';'))
			ERROR(e, R_MULTISTATEMENT_MACRO_USE_DO_WHILE,
			      eng_cat(e, "Macros with multiple statements should be enclosed in a do - while loop\n",
				      herectx));
		else
			ERROR(e, R_COMPLEX_MACRO,
			      eng_cat(e, "Macros with complex values should be enclosed in parentheses\n",
				      herectx));
	}

	/* Make $define_stmt single line, comment-free, etc */
	{
		struct sbuf ds;
		const char *p = define_stmt;
		int first = 1;

		sbuf_init(&ds, ENG_ARENA_MAX / 4);
		/* split('\n', ...) drops trailing empty fields: they add
		 * nothing here anyway */
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);

			if (n && p[n - 1] == '\\')	/* $l =~ s/\\$// */
				n--;
			if (first) {
				sbuf_add(&ds, p, n);
				first = 0;
			} else if (n && (p[0] == '+' || p[0] == ' ')) {
				sbuf_add(&ds, p + 1, n - 1);
			}
			if (!nl)
				break;
			p = nl + 1;
		}
		define_stmt = eng_sbuf_str(e, &ds);
		sbuf_release(&ds);
	}
	define_stmt = drop_fillers(e, define_stmt);
	define_stmt = eng_subst(e, "\\s+", " ", define_stmt, 1);
	define_stmt = trim(e, define_stmt);

	/* check if any macro arguments are reused (ignore '...' and 'type') */
	for (i = 0; i < ndef_args && !e->line_skip; i++) {
		const char *arg = def_args[i], *pat;
		char *tmp;
		int use_cnt;

		if (MQ(e, "\\.\\.\\.", arg))
			continue;
		if (MQ(e, "(?i)^type$", arg))
			continue;
		/*
		 * $arg is interpolated as a pattern, as in the Perl.  The
		 * typecheck alternative (a copy of the large $Type) can only
		 * match where "typecheck" occurs: leave it out elsewhere so
		 * each argument name does not compile a copy of $Type.
		 */
		if (strstr(define_stmt, "typecheck"))
			pat = eng_pat(e, "\\b(__must_be_array|offsetof|sizeof|sizeof_field|"
				      "__stringify|typeof|__typeof__|__builtin\\w+|"
				      "typecheck\\s*\\(\\s*$Type\\s*,|\\#+)\\s*\\(*\\s*%s\\s*\\)*\\b",
				      arg);
		else
			pat = eng_pat(e, "\\b(__must_be_array|offsetof|sizeof|sizeof_field|"
				      "__stringify|typeof|__typeof__|__builtin\\w+|"
				      "\\#+)\\s*\\(*\\s*%s\\s*\\)*\\b",
				      arg);
		tmp = eng_subst(e, pat, "", define_stmt, 1);
		tmp = eng_subst(e, eng_pat(e, "\\#+\\s*%s\\b", arg), "", tmp, 1);
		tmp = eng_subst(e, eng_pat(e, "\\b%s\\s*\\#\\#", arg), "", tmp, 1);
		use_cnt = re_count(e->rc, eng_pat(e, "\\b%s\\b", arg), tmp, strlen(tmp));
		if (use_cnt > 1)
			CHK(e, R_MACRO_ARG_REUSE,
			    eng_printf(e, "Macro argument reuse '%s' - possible side-effects?\n%s",
				       arg, herectx));
		/* check if any macro arguments may have other precedence
		 * issues */
		if (M(e, eng_pat(e, "(?m)($Operators)?\\s*\\b%s\\b\\s*($Operators)?", arg), tmp)) {
			size_t n1, n2;
			const char *o1 = re_cap(&e->m, 1, &n1);
			const char *o2 = re_cap(&e->m, 2, &n2);

			if ((o1 && !(n1 == 1 && o1[0] == ',')) ||
			    (o2 && !(n2 == 1 && o2[0] == ',')))
				CHK(e, R_MACRO_ARG_PRECEDENCE,
				    eng_printf(e, "Macro argument '%s' may be better as '(%s)' to avoid precedence issues\n%s",
					       arg, arg, herectx));
		}
		/* 6.12: check if this is an unused argument */
		if (e->cpv >= CP_6_12 &&
		    !MQ(e, eng_pat(e, "\\b%s\\b", arg), define_stmt))
			WARN(e, R_MACRO_ARG_UNUSED,
			     eng_printf(e, "Argument '%s' is not used in function-like macro\n%s",
					arg, herectx));
	}

	/* check for macros with flow control, but without ## concatenation
	 * ## concatenation is commonly a macro that defines a function so
	 * ignore those */
	/* (its $herectx is built again from the same trimmed $ctx) */
	if (has_flow_statement && !has_arg_concat)
		WARN(e, R_MACRO_WITH_FLOW_CONTROL,
		     eng_cat(e, "Macros with flow control statements should be avoided\n",
			     herectx));
}

/*
 * do {} while (0) macro tests:
 * single-statement macros do not need to be enclosed in do while (0) loop,
 * macro should not end with a semicolon
 */
static void macro_do_while(struct eng *e)
{
	struct stmt_block b;
	const char *ctx;
	char *dstat;

	ctx_statement_block(e, e->linenr, e->realcnt, 0, &b);
	ctx = b.statement;
	dstat = eng_subst(e, "\\\\\\n.", "", b.statement, 1);
	dstat = eng_fs_blank(e, dstat);

	if (M(e, "^\\+\\s*#\\s*define\\s+$Ident\\s*${balanced_parens}\\s*"
	      "do\\s*{(.*)\\s*}\\s*while\\s*\\(\\s*0\\s*\\)\\s*([;\\s]*)\\s*$", dstat)) {
		char *stmts = eng_cap(e, 2);
		int semis = eng_cap_def(e, 3) && eng_cap(e, 3)[0];
		char *herectx = macro_herectx(e, ctx);

		if (count_char(stmts, ';') == 1 &&
		    !MQ(e, "^\\s*(if|while|for|switch)\\b", stmts))
			WARN(e, R_SINGLE_STATEMENT_DO_WHILE_MACRO,
			     eng_cat(e, "Single statement macros should not use a do {} while (0) loop\n",
				     herectx));
		if (semis)
			WARN(e, R_DO_WHILE_MACRO_WITH_TRAILING_SEMICOLON,
			     eng_cat(e, "do {} while (0) macros should not be semicolon terminated\n",
				     herectx));
	} else if (MQ(e, "^\\+\\s*#\\s*define\\s+$Ident.*;\\s*$", dstat)) {
		WARN(e, R_TRAILING_SEMICOLON,
		     eng_cat(e, "macros should not use a trailing semicolon\n",
			     macro_herectx(e, ctx)));
	}
}

int seg_c_macros(struct eng *e)
{
	const char *line = e->line;
	size_t pos;

	assign_in_if(e);
	pos = trailing_statements(e);
	after_brace(e);
	camelcase(e, pos);

	/* no spaces allowed after \ in define */
	if (MQ(e, "\\#\\s*define.*\\\\\\s+$", line))
		WARN(e, R_WHITESPACE_AFTER_LINE_CONTINUATION,
		     eng_cat(e, "Whitespace after \\ makes next lines useless\n",
			     e->herecurr));

	/*
	 * warn if <asm/foo.h> is #included and <linux/foo.h> is available
	 * (INCLUDE_LINUX, ARCH_INCLUDE_LINUX): needs the tree, which
	 * reviewbot never has (checkpatch.pl --no-tree skips it).
	 */

	if (!MQ(e, "/vmlinux.lds.h$", e->realfile.buf) &&
	    M(e, "^.\\s*\\#\\s*define\\s*$Ident(\\()?", line)) {
		/* M(): macro_complex() may read this $1 (see there) */
		macro_complex(e);
	} else if (e->cpv >= CP_6_12 && MQ(e, "/vmlinux.lds.h$", e->realfile.buf)) {
		/* 6.12: $line =~ s/(\w+)/$maybe_linker_symbol{$1}++/ge */
		linker_symbols(e);
	} else if (!MQ(e, "^..*\\\\$", e->prevline) &&
		   /* check for line continuations outside of #defines,
		    * preprocessor #, and asm */
		   !MQ(e, "^\\+\\s*\\#.*\\\\$", line) &&		/* preprocessor */
		   !MQ(e, "^\\+.*\\b(__asm__|asm)\\b.*\\\\$", line) &&	/* asm */
		   MQ(e, "^\\+.*\\\\$", line)) {
		WARN(e, R_LINE_CONTINUATIONS,
		     eng_cat(e, "Avoid unnecessary line continuations\n", e->herecurr));
	}

	if (!MQ(e, "/vmlinux.lds.h$", e->realfile.buf) &&
	    MQ(e, "^.\\s*\\#\\s*define\\s+$Ident(\\()?", line))
		macro_do_while(e);

	return seg_c_macros_rest(e);
}

/* ---- the rest of the segment ---- */

/* check for redundant bracing round if etc */
static void braces_if_chain(struct eng *e)
{
	struct stmt_chunk *chunks;
	size_t nchunks, i;
	long endln, ln;
	int level, allow = 0, seen = 0, sum_allowed = 0;
	char *herectx;

	if (!M(e, "(^.*)\\bif\\b", e->line) ||
	    MQ(e, "else\\s*$", eng_cap(e, 1)))
		return;
	level = ctx_statement_full(e, e->linenr, e->realcnt, 1, &chunks,
				   &nchunks, &endln);
	if (!(nchunks > 1 && level == 0))
		return;

	herectx = eng_cat(e, e->here.buf, "\n");
	ln = e->linenr - 1;
	for (i = 0; i < nchunks; i++) {
		const char *cond = chunks[i].condition;
		const char *block = chunks[i].statement;
		const char *ws = "", *raw;
		struct re_m m;
		long offset;
		int allowed = 0;

		/* If the condition carries leading newlines, then count
		 * those as offsets. */
		if (re_match(e->rc, "(?s)^((?:\\s*\\n[+-])*\\s*)", cond, &m))
			ws = eng_strndup(e, cond + re_start(&m, 1),
					 re_end(&m, 1) - re_start(&m, 1));
		offset = statement_rawlines(e, ws) - 1;

		/* We have looked at and allowed this specific line. */
		lineset_add(&e->suppress_ifbraces, ln + offset);

		raw = eng_rawline(e, ln + offset + 1);	/* $rawlines[$ln + $offset] */
		herectx = eng_printf(e, "%s%s\n[...]\n", herectx, raw ? raw : "");
		ln += statement_rawlines(e, block) - 1;

		block = after_prefix(block, strlen(cond));
		if (MQ(e, "^\\s*{", block))
			seen++;
		if (statement_lines(e, cond) > 1)
			allowed = 1;
		if (MQ(e, "\\b(?:if|for|while)\\b", block))
			allowed = 1;
		if (statement_block_size(e, block) > 1)
			allowed = 1;
		sum_allowed += allowed;
		allow++;
	}
	if (!seen)
		return;
	if (sum_allowed == 0)
		WARN(e, R_BRACES,
		     eng_cat(e, "braces {} are not necessary for any arm of this statement\n",
			     herectx));
	else if (sum_allowed != allow && seen != allow)
		CHK(e, R_BRACES,
		    eng_cat(e, "braces {} should be used on all arms of this statement\n",
			    herectx));
}

static void braces_single(struct eng *e)
{
	struct stmt_chunk *chunks;
	size_t nchunks;
	long endln, off;
	int level, allowed = 0;
	const char *cond, *block;

	if (lineset_has(&e->suppress_ifbraces, e->linenr - 1) ||
	    !M(e, "\\b(if|while|for|else)\\b", e->line))
		return;
	off = (long)re_start(&e->m, 0);

	/* Check the pre-context.  A match here moves $-[0] to the '}',
	 * and that is the offset the Perl then hands ctx_statement_full. */
	if (M(e, "(\\}\\s*)$", eng_strndup(e, e->line, (size_t)off))) {
		allowed = 1;
		off = (long)re_start(&e->m, 0);
	}

	level = ctx_statement_full(e, e->linenr, e->realcnt, off, &chunks,
				   &nchunks, &endln);
	if (!nchunks)
		return;

	/* Check the condition. */
	cond = chunks[0].condition;
	block = after_prefix(chunks[0].statement, strlen(cond));
	if (statement_lines(e, cond) > 1)
		allowed = 1;
	if (MQ(e, "\\b(?:if|for|while)\\b", block))
		allowed = 1;
	if (statement_block_size(e, block) > 1)
		allowed = 1;
	/* Check the post-context. */
	if (nchunks > 1) {
		const char *b1 = after_prefix(chunks[1].statement,
					      strlen(chunks[1].condition));

		if (MQ(e, "^\\s*\\{", b1))
			allowed = 1;
	}
	if (level == 0 && MQ(e, "^\\s*\\{", block) && !allowed) {
		char *herectx = get_stat_here(e, e->linenr,
					      statement_rawlines(e, block),
					      e->here.buf);

		WARN(e, R_BRACES,
		     eng_cat(e, "braces {} are not necessary for single statement blocks\n",
			     herectx));
	}
}

/* check for user-visible strings broken across lines, and friends */
static void strings(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;

	/*
	 * Check for user-visible strings broken across lines, which breaks
	 * the ability to grep for the string.  Make exceptions when the
	 * previous string ends in a newline (multiple lines in one string
	 * constant) or '\t', '\r', ';', or '{' (common in inline assembly) or
	 * is a octal \123 or hexadecimal \xaf value
	 */
	if (MQ(e, "^\\+\\s*$String", line) &&
	    MQ(e, "\"\\s*$", e->prevline) &&
	    !MQ(e, "(?:\\\\(?:[ntr]|[0-7]{1,3}|x[0-9a-fA-F]{1,2})|;\\s*|\\{\\s*)\"\\s*$",
		e->prevrawline))
		WARN(e, R_SPLIT_STRING,
		     eng_cat(e, "quoted string split across lines\n", e->hereprev));

	/* check for missing a space in a string concatenation */
	if (MQ(e, "[^\\\\]\\w\"$", e->prevrawline) &&
	    MQ(e, "^\\+[\\t ]+\"\\w", rawline))
		WARN(e, R_MISSING_SPACE,
		     eng_cat(e, "break quoted strings at a space character\n", e->hereprev));

	/*
	 * check for an embedded function name in a string when the function
	 * is known.  This does not work very well for -f --file checking as
	 * it depends on patch context providing the function name or a
	 * single line form for in-file function declarations
	 */
	if (MQ(e, "^\\+.*$String", line) && e->has_context_function) {
		const char *cf = e->context_function.buf;
		char *qs = get_quoted_string(e, line, rawline);

		/* $context_function is interpolated as a pattern; the
		 * strstr() only spares compiling one that cannot match */
		if (strstr(qs, cf) && MQ(e, eng_pat(e, "\\b%s\\b", cf), qs) &&
		    strlen(qs) != strlen(cf) + 2)
			WARN(e, R_EMBEDDED_FUNCTION_NAME,
			     eng_printf(e, "Prefer using '\"%%s...\", __func__' to using '%s', this function's name, in a string\n%s",
					cf, e->herecurr));
	}

	/*
	 * check for unnecessary function tracing like uses.  This does not
	 * use $logFunctions because there are many instances like
	 * 'dprintk(FOO, "%s()\n", __func__);' which do not match
	 * $logFunctions
	 */
	if (MQ(e, "^\\+.*\\([^\"]*\"$tracing_logging_tags{0,3}%s(?:\\s*\\(\\s*\\)\\s*)?"
	       "$tracing_logging_tags{0,3}(?:\\\\n)?\"\\s*,\\s*__func__\\s*\\)\\s*;",
	       rawline))
		WARN(e, R_TRACING_LOGGING,
		     eng_cat(e, "Unnecessary ftrace-like logging - prefer using ftrace\n",
			     e->herecurr));

	/* check for spaces before a quoted newline */
	if (MQ(e, "^.*\\\".*\\s\\\\n", rawline))
		WARN(e, R_QUOTED_WHITESPACE_BEFORE_NEWLINE,
		     eng_cat(e, "unnecessary whitespace before a quoted newline\n",
			     e->herecurr));

	/* concatenated string without spaces between elements */
	if (MQ(e, "$String[A-Z_]", line) ||
	    (M(e, "([A-Za-z0-9_]+)$String", line) &&
	     !MQ(e, "^[Lu]$", eng_cap(e, 1))))
		CHK(e, R_CONCATENATED_STRING,
		    eng_cat(e, "Concatenated strings should use spaces between elements\n",
			    e->herecurr));

	/* uncoalesced string fragments */
	if (MQ(e, "$String\\s*[Lu]?\"", line))
		WARN(e, R_STRING_FRAGMENTS,
		     eng_cat(e, "Consecutive strings are generally better as a single string\n",
			     e->herecurr));
}

/* check for non-standard and hex prefixed decimal printf formats */
static void printf_formats(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;
	size_t len = strlen(line), rlen = strlen(rawline), pos = 0;
	int show_L = 1, show_Z = 1;	/* don't show the same defect twice */
	struct re_m m;

	while (!e->line_skip && pos <= len &&
	       re_find(e->rc, "(?:^|\")([X\\t]*)(?:\"|$)", line, len, pos, &m)) {
		size_t s1 = re_start(&m, 1), e1 = re_end(&m, 1);
		char *string;

		pos = re_end(&m, 0) > re_start(&m, 0) ? re_end(&m, 0) : re_end(&m, 0) + 1;
		/* substr($rawline, $-[1], $+[1] - $-[1]) */
		if (s1 > rlen)
			s1 = rlen;
		if (e1 > rlen)
			e1 = rlen;
		string = eng_strndup(e, rawline + s1, e1 - s1);
		string = eng_subst(e, "%%", "__", string, 1);
		/* check for %L */
		if (show_L && M(e, "%[\\*\\d\\.\\$]*L([diouxX])", string)) {
			char *c = eng_cap(e, 1);

			WARN(e, R_PRINTF_L,
			     eng_printf(e, "%%L%s is non-standard C, use %%ll%s\n%s",
					c, c, e->herecurr));
			show_L = 0;
		}
		/* check for %Z */
		if (show_Z && M(e, "%[\\*\\d\\.\\$]*Z([diouxX])", string)) {
			char *c = eng_cap(e, 1);

			WARN(e, R_PRINTF_Z,
			     eng_printf(e, "%%Z%s is non-standard C, use %%z%s\n%s",
					c, c, e->herecurr));
			show_Z = 0;
		}
		/* check for 0x<decimal> */
		/* the Perl's [\*\d\.\$\Llzth]: \L is its lower-case
		 * escape, so the class holds no 'L' */
		if (MQ(e, "0x%[\\*\\d\\.\\$lzth]*[diou]", string))
			ERROR(e, R_PRINTF_0XDECIMAL,
			      eng_cat(e, "Prefixing 0x with decimal output is defective\n",
				      e->herecurr));
	}
}

/* from "check for needless "if (<foo>) fn(<foo>)" uses" on */
static void logging(struct eng *e)
{
	const char *line = e->line;

	/* check for needless "if (<foo>) fn(<foo>)" uses */
	if (M(e, "\\bif\\s*\\(\\s*($Lval)\\s*\\)", e->prevline) &&
	    /* (the pattern below needs the tested text as is: don't
	     * compile one per name that cannot match) */
	    strstr(line, eng_cap(e, 1))) {
		char *tested = eng_quote(e, eng_cap(e, 1));
		const char *pat = eng_pat(e,
			"\\b(kfree|usb_free_urb|debugfs_remove(?:_recursive)?|"
			"(?:kmem_cache|mempool|dma_pool)_destroy)\\s*\\(\\s*%s\\s*\\)\\s*;",
			tested);

		if (M(e, pat, line))
			WARN(e, R_NEEDLESS_IF,
			     eng_printf(e, "%s(NULL) is safe and this check is probably not required\n%s",
					eng_cap(e, 1), e->hereprev));
	}

	/* check for unnecessary "Out of Memory" messages */
	if (MQ(e, "^\\+.*\\b$logFunctions\\s*\\(", line) &&
	    M(e, "^[ \\+]\\s*if\\s*\\(\\s*(\\!\\s*|NULL\\s*==\\s*)?($Lval)(\\s*==\\s*NULL\\s*)?\\s*\\)",
	      e->prevline) &&
	    (eng_cap_def(e, 1) || eng_cap_def(e, 3)) &&
	    e->linenr > 3) {
		char *testval = eng_cap(e, 2);
		struct stmt_block b;

		ctx_statement_block(e, e->linenr - 3, e->realcnt, 0, &b);
		/* (strstr: the pattern needs testval as is) */
		if (strstr(b.statement, testval) &&
		    MQ(e, eng_pat(e, "(?:^|\\n)[ \\+]\\s*(?:$Type\\s*)?%s\\s*=\\s*"
				  "(?:\\([^\\)]*\\)\\s*)?\\s*$allocFunctions\\s*\\(",
				  eng_quote(e, testval)), b.statement) &&
		    !MQ(e, "\\b__GFP_NOWARN\\b", b.statement))
			WARN(e, R_OOM_MESSAGE,
			     eng_cat(e, "Possible unnecessary 'out of memory' message\n",
				     e->hereprev));
	}

	/* check for logging functions with KERN_<LEVEL> */
	if (!MQ(e, "printk(?:_ratelimited|_once)?\\s*\\(", line) &&
	    M(e, "\\b$logFunctions\\s*\\(.*\\b(KERN_[A-Z]+)\\b", line))
		WARN(e, R_UNNECESSARY_KERN_LEVEL,
		     eng_printf(e, "Possible unnecessary %s\n%s", eng_cap(e, 1),
				e->herecurr));

	/* check for logging continuations */
	if (MQ(e, "\\bprintk\\s*\\(\\s*KERN_CONT\\b|\\bpr_cont\\s*\\(", line))
		WARN(e, R_LOGGING_CONTINUATION,
		     eng_cat(e, "Avoid logging continuation uses where feasible\n",
			     e->herecurr));

	/* check for unnecessary use of %h[xudi] and %hh[xudi] in logging
	 * functions */
	if (e->has_stat && e->stat &&
	    MQ(e, "\\b$logFunctions\\s*\\(", line) && strchr(e->stat, '"')) {
		long lc = e->linenr;
		const char *p, *q;
		char *stat_real;
		size_t slen, pos;
		struct re_m m;

		for (p = e->stat; *p; p++)
			if (*p == '\n')
				lc++;
		stat_real = get_stat_real(e, e->linenr, lc);
		slen = strlen(stat_real);
		/* pos($stat_real) = index($stat_real, '"'): -1 counts
		 * from the end */
		q = strchr(stat_real, '"');
		pos = q ? (size_t)(q - stat_real) : (slen ? slen - 1 : 0);
		while (!e->line_skip && pos <= slen &&
		       re_find(e->rc, "[^\\\"%]*(%[\\#\\d\\.\\*\\-]*(h+)[idux])",
			       stat_real, slen, pos, &m)) {
			char *pspec = eng_strndup(e, stat_real + re_start(&m, 1),
						  re_end(&m, 1) - re_start(&m, 1));
			char *h = eng_strndup(e, stat_real + re_start(&m, 2),
					      re_end(&m, 2) - re_start(&m, 2));

			pos = re_end(&m, 0) > re_start(&m, 0) ?
			      re_end(&m, 0) : re_end(&m, 0) + 1;
			WARN(e, R_UNNECESSARY_MODIFIER,
			     eng_printf(e, "Integer promotion: Using '%s' in '%s' is unnecessary\n%s\n%s\n",
					h, pspec, e->here.buf, stat_real));
		}
	}

	/* check for mask then right shift without a parentheses */
	if (strstr(line, ">>") && strchr(line, '&') &&	/* needed to match */
	    M(e, "$LvalOrFunc\\s*\\&\\s*($LvalOrFunc)\\s*>>", line) &&
	    !MQ(e, "^\\&", eng_cap(e, 4)))	/* $LvalOrFunc may be &foo, ignore if so */
		WARN(e, R_MASK_THEN_SHIFT,
		     eng_cat(e, "Possible precedence defect with mask then right shift - may need parentheses\n",
			     e->herecurr));

	/* check for pointer comparisons to NULL */
	{
		size_t len = strlen(line), pos = 0;
		struct re_m m;

		while (!e->line_skip && pos <= len && strstr(line, "NULL") &&	/* needed to match */
		       re_find(e->rc, "\\b$LvalOrFunc\\s*(==|\\!=)\\s*NULL\\b",
			       line, len, pos, &m)) {
			size_t n4;
			const char *op = re_cap(&m, 4, &n4);
			char *val = eng_strndup(e, line + re_start(&m, 1),
						re_end(&m, 1) - re_start(&m, 1));
			const char *equal = op && n4 == 2 && !memcmp(op, "!=", 2) ? "" : "!";

			pos = re_end(&m, 0) > re_start(&m, 0) ?
			      re_end(&m, 0) : re_end(&m, 0) + 1;
			CHK(e, R_COMPARISON_TO_NULL,
			    eng_printf(e, "Comparison to NULL could be written \"%s%s\"\n%s",
				       equal, val, e->herecurr));
		}
	}
}

static int seg_c_macros_rest(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;

	braces_if_chain(e);
	braces_single(e);

	/* check for single line unbalanced braces */
	if (MQ(e, "^.\\s*\\}\\s*else\\s*$", e->sline) ||
	    MQ(e, "^.\\s*else\\s*\\{\\s*$", e->sline))
		CHK(e, R_BRACES,
		    eng_cat(e, "Unbalanced braces around else statement\n", e->herecurr));

	/* check for unnecessary blank lines around braces */
	if (MQ(e, "^.\\s*}\\s*$", line) && MQ(e, "^.\\s*$", e->prevrawline))
		CHK(e, R_BRACES,
		    eng_cat(e, "Blank lines aren't necessary before a close brace '}'\n",
			    e->hereprev));
	if (MQ(e, "^.\\s*$", rawline) && MQ(e, "^..*{\\s*$", e->prevline))
		CHK(e, R_BRACES,
		    eng_cat(e, "Blank lines aren't necessary after an open brace '{'\n",
			    e->hereprev));

	/* no volatiles please */
	if (MQ(e, "\\bvolatile\\b", line) &&
	    !MQ(e, "\\b(__asm__|asm)\\s+(__volatile__|volatile)\\b", line))
		WARN(e, R_VOLATILE,
		     eng_cat(e, "Use of volatile is usually wrong: see Documentation/process/volatile-considered-harmful.rst\n",
			     e->herecurr));

	/*
	 * reviewbot: SPIN_LOCK_UNLOCKED and RW_LOCK_UNLOCKED were removed
	 * from the kernel, so code using them no longer builds (the seed
	 * checkpatch reported them; checkpatch.pl 6.1 does not).  Checked on
	 * the sanitised line: not in strings or comments.
	 */
	if (line[0] == '+' && MQ(e, "\\.(?:c|h)$", e->realfile.buf)) {
		if (MQ(e, "\\bSPIN_LOCK_UNLOCKED\\b", line))
			ERROR(e, R_DEPRECATED_SPINLOCK_INIT,
			      eng_cat(e, "SPIN_LOCK_UNLOCKED is deprecated: use DEFINE_SPINLOCK() or __SPIN_LOCK_UNLOCKED(lock)\n",
				      e->herecurr));
		if (MQ(e, "\\bRW_LOCK_UNLOCKED\\b", line))
			ERROR(e, R_DEPRECATED_SPINLOCK_INIT,
			      eng_cat(e, "RW_LOCK_UNLOCKED is deprecated: use DEFINE_RWLOCK() or __RW_LOCK_UNLOCKED(lock)\n",
				      e->herecurr));
	}

	strings(e);
	printf_formats(e);

	/* check for line continuations in quoted strings with odd counts
	 * of " */
	if (MQ(e, "\\\\$", rawline)) {
		size_t nq = 0;
		const char *p;

		for (p = e->sline; *p; p++)
			if (*p == '"')
				nq++;
		if (nq % 2)
			WARN(e, R_LINE_CONTINUATIONS,
			     eng_cat(e, "Avoid line continuations in quoted strings\n",
				     e->herecurr));
	}

	/* warn about #if 0 */
	if (MQ(e, "^.\\s*\\#\\s*if\\s+0\\b", line))
		WARN(e, R_IF_0,
		     eng_cat(e, "Consider removing the code enclosed by this #if 0 and its #endif\n",
			     e->herecurr));

	/* warn about #if 1 */
	if (MQ(e, "^.\\s*\\#\\s*if\\s+1\\b", line))
		WARN(e, R_IF_1,
		     eng_cat(e, "Consider removing the #if 1 and its #endif\n",
			     e->herecurr));

	logging(e);
	return SEG_GO;
}

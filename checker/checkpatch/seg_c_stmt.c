// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: the statement scan and the checks anchored in the context
 * (checkpatch.pl 6.1, process(), from "Check for potential 'bare' types"
 * to "ignore lines not being added"): type learning, switch/case indent,
 * brace on the next line, trailing semicolons, conditional indentation and
 * the value annotation later checks read; then, for added lines, up to
 * "check for spacing round square brackets" (seg_c_stmt_rest()):
 * declarations, typedefs, pointer placement, printk levels, braces after
 * function definitions and function pointer spacing.
 */
#include "eng.h"

#include <string.h>

#include "../banned.h"
#include "vocab.h"

static int seg_c_stmt_rest(struct eng *e);


/* s =~ s/pat/repl/[g] in place on a scratch string; returns the count */
static int subst_count(struct eng *e, const char *pat, const char *repl,
		       const char **s, int global)
{
	struct sbuf out;
	int n;

	sbuf_init(&out, ENG_ARENA_MAX);
	n = re_subst(e->rc, pat, repl, *s, strlen(*s), global, &out);
	if (n)
		*s = eng_sbuf_str(e, &out);
	sbuf_release(&out);
	return n;
}

/*
 * The argument list of a function declaration: possible() on every
 * argument that looks like a type ("D:").
 */
static void possible_args(struct eng *e, const char *s, size_t name_len)
{
	const char *ctx;
	size_t n = strlen(s), pos = 0;
	struct re_m m;

	/* substr($ctx, 0, $name_len + 1, '') */
	ctx = s + (name_len + 1 < n ? name_len + 1 : n);
	ctx = eng_subst(e, "\\)[^\\)]*$", "", ctx, 0);
	n = strlen(ctx);
	/* Perl splits $ctx on commas and the white space around them;
	 * empty fields never match below */
	for (;;) {
		size_t end = n, next = n + 1;
		const char *arg;

		if (pos <= n && re_find(e->rc, "\\s*,\\s*", ctx, n, pos, &m)) {
			end = re_start(&m, 0);
			next = re_end(&m, 0);
		}
		arg = eng_strndup(e, ctx + pos, end - pos);
		if (re_match(e->rc, "(?s)^(?:const\\s+)?($Ident)(?:\\s+$Sparse)*\\s*\\**\\s*(:?\\b$Ident)?$",
			     arg, &m) ||
		    re_match(e->rc, "(?s)^($Ident)$", arg, &m))
			possible(e, eng_mcap(e, &m, 1), arg);
		if (next > n)
			break;
		pos = next;
	}
}

/* Check for potential 'bare' types */
/* s holds if, while, for, switch, do or else: the control patterns' words */
static int may_hold_control(const char *s)
{
	return strstr(s, "if") || strstr(s, "for") || strstr(s, "do") ||
	       strstr(s, "else") || strstr(s, "while") || strstr(s, "switch");
}

static void bare_types(struct eng *e)
{
	struct stmt_block b;
	const char *s, *l, *brace;
	size_t pos, n;
	struct re_m m;

	ctx_statement_block(e, e->linenr, e->realcnt, 0, &b);
	e->stat = eng_nl_blank(e, b.statement);
	e->cond = eng_nl_blank(e, b.condition);
	e->line_nr_next = b.linenr;
	e->remain_next = b.remain;
	e->off_next = b.off;
	e->has_stat = 1;

	/*
	 * If this statement has no statement boundaries within it there is
	 * no point in retrying a statement scan until we hit end of it.
	 */
	if (!eng_has_boundary(e->stat))
		e->suppress_statement = e->line_nr_next;

	/* Find the real next line. */
	e->realline_next = e->line_nr_next;
	l = eng_line(e, e->realline_next);
	if (l) {
		/* substr($l, $off_next): undef past the end, as "" here */
		long len = (long)strlen(l), off = e->off_next;

		if (off < 0)
			off = len + off > 0 ? len + off : 0;
		l = off > len ? "" : l + off;
	}
	if (!l || re_match(e->rc, "^\\s*$", l, NULL))
		e->realline_next++;

	/* s/\{.*$//s: up to the first brace */
	brace = strchr(e->stat, '{');
	s = brace ? eng_strndup(e, e->stat, (size_t)(brace - e->stat)) : e->stat;

	if (re_match(e->rc, "(?s)$Ident:\\*$", s, NULL)) {
		/* Ignore goto labels. */
	} else if (re_match(e->rc, "(?s)^.\\s*$Ident\\s*\\(", s, NULL)) {
		/* Ignore functions being called */
	} else if (re_match(e->rc, "(?s)^.\\s*else\\b", s, NULL)) {
	} else if (e->prev_values == 'E' &&
		   /*
		    * (?:\s*$Ident)+? with the identifier's letters taken
		    * possessively: a word split in two pieces never leads
		    * to another match (a \b follows), but backtracking into
		    * every split is exponential in PCRE.
		    */
		   re_match(e->rc,
			    "(?s)^.\\s*(?:$Storage\\s+)?(?:$Inline\\s+)?(?:const\\s+)?"
			    "((?:\\s*[A-Za-z_][A-Za-z\\d_]*+(?:\\s*\\#\\#\\s*[A-Za-z_][A-Za-z\\d_]*+)*)+?)"
			    "\\b(?:\\s+$Sparse)?\\s*\\**\\s*(?:$Ident|\\(\\*[^\\)]*\\))"
			    "(?:\\s*$Modifier)?\\s*(?:;|=|,|\\()",
			    s, &m)) {
		/* declarations always start with types */
		possible(e, eng_subst(e, "\\s+", " ", eng_mcap(e, &m, 1), 1), s);
	} else if (re_match(e->rc, "(?s)^.(?:$Storage\\s+)?(?:$Inline\\s+)?(?:const\\s+)?($Ident)\\b\\s*(?!:)",
			    s, &m)) {
		/* definitions in global scope can only start with types */
		possible(e, eng_mcap(e, &m, 1), s);
	}

	/* any (foo ... *) is a pointer cast, and foo is a type */
	n = strlen(s);
	pos = 0;
	while (!e->line_skip && pos <= n &&
	       re_find(e->rc, "(?s)\\(($Ident)(?:\\s+$Sparse)*[\\s\\*]+\\s*\\)", s, n, pos, &m)) {
		possible(e, eng_mcap(e, &m, 1), s);
		pos = re_end(&m, 0) > re_start(&m, 0) ? re_end(&m, 0) : re_end(&m, 0) + 1;
	}

	/*
	 * Check for any sort of function declaration.
	 * int foo(something bar, other baz);
	 * void (*store_gdt)(x86_descr_ptr *);
	 */
	if (e->prev_values == 'E' && eng_may_type_after_first(e, s) &&
	    re_match(e->rc, "(?s)^(.(?:typedef\\s*)?(?:(?:$Storage|$Inline)\\s*)*\\s*$Type\\s*(?:\\b$Ident|\\(\\*\\s*$Ident\\))\\s*)\\(",
		     s, &m))
		possible_args(e, s, re_end(&m, 1) - re_start(&m, 1));
}

/* Check for switch () and associated case and default statements should
 * be at the same indent. */
static void switch_case_indent(struct eng *e)
{
	size_t n, i;
	const char **ctx = ctx_block_outer(e, e->linenr, e->realcnt, &n);
	struct sbuf err;
	const char *sep = "";

	sbuf_init(&err, ENG_ARENA_MAX / 4);
	/* shift(@ctx) */
	for (i = 1; i < n; i++) {
		int clen, cindent;

		line_stats(e, ctx[i], &clen, &cindent);
		if (re_match(e->rc, "^\\+\\s*(case\\s+|default:)", ctx[i], NULL) &&
		    e->indent != cindent) {
			sbuf_addstr(&err, sep);
			sbuf_addstr(&err, ctx[i]);
			sbuf_addch(&err, '\n');
			sep = "";
		} else {
			sep = "[...]\n";
		}
	}
	if (err.len)
		ERROR(e, R_SWITCH_CASE_INDENT_LEVEL,
		      eng_printf(e, "switch and case should be at the same indent\n%s%s",
				 e->hereline, err.buf));
	sbuf_release(&err);
}

/* if/while/etc brace do not go on next line, unless defining a do while
 * loop, or if that brace on the next line is for something else */
static void brace_next_line(struct eng *e, const char *pre_ctx)
{
	int level;
	size_t n, i;
	const char **ctx = ctx_statement_level(e, e->linenr, e->realcnt, 0,
					       &level, &n);
	long ctx_cnt, ctx_ln, ctx_skip;
	const char *ctxs, *next;
	struct sbuf sb;

	if (MQ(e, "^\\+\\t{6,}", e->line))
		WARN(e, R_DEEP_INDENTATION,
		     eng_cat(e, "Too many leading tabs - consider code refactoring\n",
			     e->herecurr));

	/* $realcnt - $#ctx - 1 */
	ctx_cnt = e->realcnt - (long)n;
	sbuf_init(&sb, ENG_ARENA_MAX / 4);
	for (i = 0; i < n; i++) {
		if (i)
			sbuf_addch(&sb, '\n');
		sbuf_addstr(&sb, ctx[i]);
	}
	ctxs = eng_sbuf_str(e, &sb);
	sbuf_release(&sb);

	ctx_ln = e->linenr;
	ctx_skip = e->realcnt;
	while (ctx_skip > ctx_cnt ||
	       (ctx_skip == ctx_cnt && eng_line(e, ctx_ln) &&
		eng_line(e, ctx_ln)[0] == '-')) {
		const char *l = eng_line(e, ctx_ln);

		if (!l || l[0] != '-')
			ctx_skip--;
		ctx_ln++;
	}

	next = eng_line(e, ctx_ln);
	if (!MQ(e, "\\{\\s*", ctxs) && next && MQ(e, "^\\+\\s*\\{", next))
		ERROR(e, R_OPEN_BRACE,
		      eng_printf(e, "that open brace { should be on the previous line\n%s\n%s\n%s\n",
				 e->here.buf, ctxs, eng_rawline(e, ctx_ln)));
	if (level == 0 && !MQ(e, "\\}\\s*while\\s*\\($", pre_ctx) &&
	    MQ(e, "\\)\\s*\\;\\s*$", ctxs) && next) {
		int nlength, nindent;

		line_stats(e, next, &nlength, &nindent);
		if (nindent > e->indent)
			WARN(e, R_TRAILING_SEMICOLON,
			     eng_printf(e, "trailing semicolon indicates no statements, indent implies otherwise\n%s\n%s\n%s\n",
					e->here.buf, ctxs, eng_rawline(e, ctx_ln)));
	}
}

/* Check relative indent for conditionals and blocks. */
static void relative_indent(struct eng *e)
{
	const char *s, *c, *stat_real;
	long cond_lines, cond_ptr;
	size_t cl;
	int continuation = 0, check = 0, slen, sindent;
	int tabsize = e->o->tabsize > 0 ? e->o->tabsize : 1;

	stmt_ensure(e);
	/* substr($s, 0, length($c), '') */
	cl = strlen(e->cond);
	s = e->stat + (cl < strlen(e->stat) ? cl : strlen(e->stat));

	/* remove inline comments */
	s = eng_fs_blank(e, s);
	c = eng_fs_blank(e, e->cond);

	/* Find out how long the conditional actually is. */
	cond_lines = 0;
	for (; *c; c++)
		if (*c == '\n')
			cond_lines++;

	/*
	 * Make sure we remove the line prefixes as we have none on the
	 * first line, and are going to readd them where necessary.
	 */
	s = eng_subst(e, "(?s)\\n.", "\n", s, 1);
	while (MQ(e, "\\n\\s+\\\\\\n", s))
		cond_lines += subst_count(e, "\\n\\s+\\\\\\n", "\n", &s, 1);

	/*
	 * We want to check the first line inside the block starting at the
	 * end of the conditional, so remove:
	 *  1) any blank line termination
	 *  2) any opening brace { on end of the line
	 *  3) any do (...) {
	 */
	s = eng_subst(e, "^.*\\bdo\\b", "", s, 0);
	s = eng_subst(e, "^\\s*\\{", "", s, 0);
	if (subst_count(e, "^\\s*\\\\", "", &s, 0))
		continuation = 1;
	if (subst_count(e, "^\\s*?\\n", "", &s, 0)) {
		check = 1;
		cond_lines++;
	}

	/* Also ignore a loop construct at the end of a preprocessor statement. */
	if ((MQ(e, "^.\\s*#\\s*define\\s", e->prevline) ||
	     MQ(e, "\\\\\\s*$", e->prevline)) && continuation == 0)
		check = 0;

	cond_ptr = -1;
	continuation = 0;
	while (cond_ptr != cond_lines) {
		cond_ptr = cond_lines;

		/* If we see an #else/#elif then the code is not linear. */
		if (MQ(e, "^\\s*\\#\\s*(?:else|elif)", s))
			check = 0;

		/*
		 * Ignore:
		 *  1) blank lines, they should be at 0,
		 *  2) preprocessor lines, and
		 *  3) labels.
		 */
		if (continuation || MQ(e, "^\\s*?\\n", s) || MQ(e, "^\\s*#\\s*?", s) ||
		    MQ(e, "^\\s*$Ident\\s*:", s)) {
			continuation = MQ(e, "^.*?\\\\\\n", s) ? 1 : 0;
			if (subst_count(e, "^.*?\\n", "", &s, 0))
				cond_lines++;
		}
	}

	line_stats(e, eng_cat(e, "+", s), &slen, &sindent);
	stat_real = raw_line(e, e->linenr, cond_lines);

	/* Check if either of these lines are modified, else this is not
	 * this patch's fault. */
	if (!stat_real ||
	    (!MQ(e, "^\\+", e->stat) && !MQ(e, "^\\+", stat_real)))
		check = 0;
	if (stat_real && cond_lines > 1)
		stat_real = eng_cat(e, "[...]\n", stat_real);

	if (check && *s &&
	    ((sindent % tabsize) != 0 ||
	     sindent < e->indent ||
	     (sindent == e->indent && !MQ(e, "^\\s*(?:\\}|\\{|else\\b)", s)) ||
	     sindent > e->indent + e->o->tabsize))
		WARN(e, R_SUSPECT_CODE_INDENT,
		     eng_printf(e, "suspect code indent for conditional statements (%d, %d)\n%s%s\n",
				e->indent, sindent, e->herecurr, stat_real));
}

int seg_c_stmt(struct eng *e)
{
	const char *line = e->line;
	char *cv, *cvars;
	int control;

	e->stat = e->cond = NULL;
	e->has_stat = 0;
	e->line_nr_next = e->remain_next = e->off_next = 0;
	e->realline_next = 0;	/* undef: a real one is >= 1 */
	e->opline = e->curr_values = e->curr_vars = NULL;

	/* Check for potential 'bare' types */
	if (e->linenr > e->suppress_statement && e->realcnt &&
	    MQ(e, ".\\s*\\S", e->sline))
		bare_types(e);

	/*
	 * Checks which may be anchored in the context.
	 */

	/* Check for switch () and associated case and default
	 * statements should be at the same indent. */
	if (MQ(e, "\\bswitch\\s*\\(.*\\)", line))
		switch_case_indent(e);

	/* if/while/etc brace do not go on next line, unless defining a do
	 * while loop, or if that brace on the next line is for something else */
	control = may_hold_control(line);
	if (control &&
	    M(e, "(.*)\\b((?:if|while|for|switch|(?:[a-z_]+|)for_each[a-z_]+)\\s*\\(|do\\b|else\\b)", line) &&
	    !MQ(e, "^.\\s*\\#", line))
		brace_next_line(e, eng_cat(e, eng_cap(e, 1), eng_cap(e, 2)));

	/* Check relative indent for conditionals and blocks. */
	if (control &&
	    MQ(e, "\\b(?:(?:if|while|for|(?:[a-z_]+|)for_each[a-z_]+)\\s*\\(|(?:do|else)\\b)", line) &&
	    !MQ(e, "^.\\s*#", line) && !MQ(e, "\\}\\s*while\\s*", line))
		relative_indent(e);

	/* Track the 'values' across context and added lines. */
	e->opline = eng_subst(e, "^.", " ", line, 0);
	annotate_values(e, eng_cat(e, e->opline, "\n"), e->prev_values, &cv, &cvars);
	e->curr_values = eng_printf(e, "%c%s", e->prev_values, cv);
	e->curr_vars = cvars;
	if (e->line_skip)	/* curr_values may be "" */
		return SEG_NEXT;
	e->prev_values = e->curr_values[strlen(e->curr_values) - 1];

	/* ignore lines not being added */
	if (line[0] && line[0] != '+')
		return SEG_NEXT;

	return seg_c_stmt_rest(e);
}

/* ---- the rest of the segment ---- */
/* Perl's  while ($s =~ /pat/g): the next match at or after *pos */
static int next_match(struct eng *e, const char *pat, const char *s,
		      size_t *pos, struct re_m *m)
{
	size_t n = strlen(s);

	if (e->line_skip || *pos > n || !re_find(e->rc, pat, s, n, *pos, m))
		return 0;
	*pos = re_end(m, 0) > re_start(m, 0) ? re_end(m, 0) : re_end(m, 0) + 1;
	return 1;
}

/*
 * %suppress_export holds 1 or 2 per line: kept in the lineset as
 * 2 * line + (value == 2), set at most once per line.
 */
static int export_defined(struct eng *e, long ln)
{
	return lineset_has(&e->suppress_export, 2 * ln) ||
	       lineset_has(&e->suppress_export, 2 * ln + 1);
}

static void export_set(struct eng *e, long ln, int v)
{
	if (lineset_add(&e->suppress_export, 2 * ln + (v == 2)) < 0)
		e->failed = 1;
}

/* EXPORT_SYMBOL should immediately follow the thing it is exporting,
 * consider the whole statement. */
static void export_symbol(struct eng *e)
{
	const char *next = e->realline_next ? eng_line(e, e->realline_next) : NULL;
	struct re_m m;

	if (next && !export_defined(e, e->realline_next) &&
	    re_match(e->rc, "EXPORT_SYMBOL.*\\((.*)\\)", next, &m)) {
		/*
		 * Handle definitions which produce identifiers with a prefix:
		 *   XXX(foo);
		 *   EXPORT_SYMBOL(something_foo);
		 */
		const char *name = eng_subst(e, "^\\s*($Ident).*", "$1", eng_mcap(e, &m, 1), 0);
		const char *stat = e->stat ? e->stat : "";
		const char *q = eng_quote(e, name);

		if (re_match(e->rc, "^(?:.\\s*}\\s*\\n)?.([A-Z_]+)\\s*\\(\\s*($Ident)", stat, &m) &&
		    MQ(e, eng_pat(e, "^${Ident}_%s", eng_mcap(e, &m, 2)), name)) {
			export_set(e, e->realline_next, 1);
		} else if (!MQ(e, eng_pat(e, "(?:\\n.}\\s*$|"
					  "^.DEFINE_$Ident\\(%s\\)|"
					  "^.DECLARE_$Ident\\(%s\\)|"
					  "^.LIST_HEAD\\(%s\\)|"
					  "^.(?:$Storage\\s+)?$Type\\s*\\(\\s*\\*\\s*%s\\s*\\)\\s*\\(|"
					  "\\b%s(?:\\s+$Attribute)*\\s*(?:;|=|\\[|\\())",
					  q, q, q, q, q), stat)) {
			export_set(e, e->realline_next, 2);
		} else {
			export_set(e, e->realline_next, 1);
		}
	}
	if (!export_defined(e, e->linenr) && MQ(e, "^.\\s*$", e->prevline) &&
	    MQ(e, "EXPORT_SYMBOL.*\\((.*)\\)", e->line))
		export_set(e, e->linenr, 2);
	if (lineset_has(&e->suppress_export, 2 * e->linenr + 1))
		WARN(e, R_EXPORT_SYMBOL,
		     eng_cat(e, "EXPORT_SYMBOL(foo); should immediately follow its function/variable\n",
			     e->herecurr));
}

/* A cheap necessary condition of /(?:\.|->)\s*$/ */
static int ends_in_deref(const char *s)
{
	size_t n = strlen(s);

	while (n && strchr(" \t\n\r\f\v", s[n - 1]))
		n--;
	return n && (s[n - 1] == '.' || (s[n - 1] == '>' && n > 1 && s[n - 2] == '-'));
}

/* "* goes on variable not on type" */
static void pointer_location(struct eng *e)
{
	const char *line = e->line;
	size_t pos = 0;
	struct re_m m;

	/* both patterns need a '*' or a modifier after the type, and a type */
	if (!strchr(line, '*') && !re_learned_modifiers(e->rc) &&
	    !vocab_may_hold_modifier(line))
		return;
	if (!eng_may_hold_type(e, line))
		return;
	/* (char*[ const]) */
	while (next_match(e, "(\\($NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)\\))",
			  line, &pos, &m)) {
		const char *from = eng_mcap(e, &m, 2), *to = from;

		/* Should start with a space. */
		to = eng_subst(e, "^(\\S)", " $1", to, 0);
		/* Should not end with a space. */
		to = eng_subst(e, "\\s+$", "", to, 0);
		/* '*'s should not have spaces between. */
		while (MQ(e, "\\*\\s+\\*", to))
			to = eng_subst(e, "\\*\\s+\\*", "**", to, 0);
		if (strcmp(from, to))
			ERROR(e, R_POINTER_LOCATION,
			      eng_printf(e, "\"(foo%s)\" should be \"(foo%s)\"\n%s",
					 from, to, e->herecurr));
	}
	pos = 0;
	while (next_match(e, "(\\b$NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)($Ident))",
			  line, &pos, &m)) {
		const char *from = eng_mcap(e, &m, 2), *to = from;
		const char *ident = eng_mcap(e, &m, 3);

		/* Should start with a space. */
		to = eng_subst(e, "^(\\S)", " $1", to, 0);
		/* Should not end with a space. */
		to = eng_subst(e, "\\s+$", "", to, 0);
		/* '*'s should not have spaces between. */
		while (MQ(e, "\\*\\s+\\*", to))
			to = eng_subst(e, "\\*\\s+\\*", "**", to, 0);
		/* Modifiers should have spaces. */
		to = eng_subst(e, "(\\b$Modifier$)", "$1 ", to, 0);
		if (strcmp(from, to) && !MQ(e, "^$Modifier$", ident))
			ERROR(e, R_POINTER_LOCATION,
			      eng_printf(e, "\"foo%sbar\" should be \"foo%sbar\"\n%s",
					 from, to, e->herecurr));
	}
}

/* Function pointer declarations: check spacing between type, funcptr,
 * and args; canonical declaration is "type (*funcptr)(args...)" */
static void funcptr_spacing(struct eng *e)
{
	struct re_m m;
	const char *declare, *post_declare_space = "";

	if (!re_match(e->rc, "^.\\s*($Declare)\\((\\s*)\\*(\\s*)($Ident)(\\s*)\\)(\\s*)\\(",
		      e->line, &m))
		return;
	declare = eng_mcap(e, &m, 1);

	/*
	 * the $Declare variable will capture all spaces after the type so
	 * check it for a missing trailing missing space but pointer return
	 * types don't need a space so don't warn for those.
	 */
	{
		struct re_m m2;

		if (re_match(e->rc, "(\\s+)$", declare, &m2)) {
			post_declare_space = eng_mcap(e, &m2, 1);
			declare = rtrim(e, declare);
		}
	}
	if (!MQ(e, "\\*$", declare) && MQ(e, "^$", post_declare_space))
		WARN(e, R_SPACING,
		     eng_cat(e, "missing space after return type\n", e->herecurr));

	/* unnecessary space "type ( *funcptr)(args...)" */
	if (re_cap_defined(&m, 2) && MQ(e, "^\\s", eng_mcap(e, &m, 2)))
		WARN(e, R_SPACING,
		     eng_cat(e, "Unnecessary space after function pointer open parenthesis\n",
			     e->herecurr));
	/* unnecessary space "type (* funcptr)(args...)" */
	if (re_cap_defined(&m, 3) && MQ(e, "^\\s", eng_mcap(e, &m, 3)))
		WARN(e, R_SPACING,
		     eng_cat(e, "Unnecessary space before function pointer name\n",
			     e->herecurr));
	/* unnecessary space "type (*funcptr )(args...)" */
	if (re_cap_defined(&m, 5) && MQ(e, "^\\s", eng_mcap(e, &m, 5)))
		WARN(e, R_SPACING,
		     eng_cat(e, "Unnecessary space after function pointer name\n",
			     e->herecurr));
	/* unnecessary space "type (*funcptr) (args...)" */
	if (re_cap_defined(&m, 6) && MQ(e, "^\\s", eng_mcap(e, &m, 6)))
		WARN(e, R_SPACING,
		     eng_cat(e, "Unnecessary space before function pointer arguments\n",
			     e->herecurr));
}

/* check for unnecessary <signed> int declarations of short/long/long long */
static void unnecessary_int(struct eng *e)
{
	size_t pos = 0;
	struct re_m m;

	/* every match holds one of those words (asked once, not per match) */
	if (!vocab_may_hold_misordered(e->sline, 1))
		return;
	while (next_match(e, "\\b($TypeMisordered(\\s*\\*)*|$C90_int_types)\\b",
			  e->sline, &pos, &m)) {
		const char *type = trim(e, eng_mcap(e, &m, 1));
		const char *new_type;

		if (!MQ(e, "\\bint\\b", type))
			continue;
		if (!MQ(e, "\\b(?:short|long\\s+long|long)\\b", type))
			continue;
		new_type = eng_subst(e, "\\b\\s*int\\s*\\b", " ", type, 0);
		new_type = eng_subst(e, "\\b\\s*(?:un)?signed\\b\\s*", " ", new_type, 0);
		new_type = eng_subst(e, "^const\\s+", "", new_type, 0);
		if (MQ(e, "\\bunsigned\\b", type))
			new_type = eng_cat(e, "unsigned ", new_type);
		if (MQ(e, "^const\\b", type))
			new_type = eng_cat(e, "const ", new_type);
		new_type = eng_subst(e, "\\s+", " ", new_type, 1);
		new_type = trim(e, new_type);
		WARN(e, R_UNNECESSARY_INT,
		     eng_printf(e, "Prefer '%s' over '%s' as the int is unnecessary\n%s",
				new_type, type, e->herecurr));
	}
}

/* prefer variants of (subsystem|netdev|dev|pr)_<level> to printk(KERN_<LEVEL> */
static void printk_levels(struct eng *e)
{
	const char *line = e->line;
	struct re_m m;

	if (re_match(e->rc, "\\b(printk(_once|_ratelimited)?)\\s*\\(\\s*KERN_([A-Z]+)", line, &m)) {
		const char *printk = eng_mcap(e, &m, 1);
		const char *modifier = eng_mcap(e, &m, 2);
		const char *orig = eng_mcap(e, &m, 3);
		char *level = eng_strdup(e, orig), *p;
		const char *level2;

		for (p = level; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		if (!strcmp(level, "warning"))
			level = eng_strdup(e, "warn");
		level2 = level;
		if (!strcmp(level, "debug"))
			level2 = "dbg";
		level = eng_cat(e, level, modifier);
		level2 = eng_cat(e, level2, modifier);
		WARN(e, R_PREFER_PR_LEVEL,
		     eng_printf(e, "Prefer [subsystem eg: netdev]_%s([subsystem]dev, ... then dev_%s(dev, ... then pr_%s(...  to %s(KERN_%s ...\n%s",
				level2, level2, level, printk, orig, e->herecurr));
	}

	/* prefer dev_<level> to dev_printk(KERN_<LEVEL> */
	if (re_match(e->rc, "\\bdev_printk\\s*\\(\\s*KERN_([A-Z]+)", line, &m)) {
		const char *orig = eng_mcap(e, &m, 1);
		char *level = eng_strdup(e, orig), *p;

		for (p = level; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		if (!strcmp(level, "warning"))
			level = eng_strdup(e, "warn");
		if (!strcmp(level, "debug"))
			level = eng_strdup(e, "dbg");
		WARN(e, R_PREFER_DEV_LEVEL,
		     eng_printf(e, "Prefer dev_%s(... to dev_printk(KERN_%s, ...\n%s",
				level, orig, e->herecurr));
	}
}

/* line holds var, \s*=\s*, then var or '*' (see SELF_ASSIGNMENT) */
static int may_self_assign(const char *line, const char *var)
{
	size_t n = strlen(var);
	const char *p = line;

	if (!n)
		return 0;
	while ((p = strstr(p, var))) {
		const char *q = p + n;

		p++;
		while (vocab_is_space((unsigned char)*q))
			q++;
		if (*q++ != '=')
			continue;
		while (vocab_is_space((unsigned char)*q))
			q++;
		if (*q == '*' || !strncmp(q, var, n))
			return 1;
	}
	return 0;
}

static int seg_c_stmt_rest(struct eng *e)
{
	const char *line = e->line, *sline = e->sline, *prevline = e->prevline;
	size_t pos;
	struct re_m m;

	/*
	 * check for self assignments used to avoid compiler warnings
	 * e.g.:	int foo = foo, *bar = NULL;
	 *	struct foo bar = *(&(bar));
	 */
	if (M(e, "^\\+\\s*(?:$Declare)?([A-Za-z_][A-Za-z\\d_]*)\\s*=", line)) {
		const char *var = eng_cap(e, 1);

		/*
		 * Every match holds "var\s*=\s*" then var or '*': without
		 * that, not the pattern (compiled anew for every name, with
		 * all of $Declare) but this says no.
		 */
		if (may_self_assign(line, var) &&
		    MQ(e, eng_pat(e, "^\\+\\s*(?:$Declare)?%s\\s*=\\s*(?:%s|\\*\\s*\\(?\\s*&\\s*\\(?\\s*%s\\s*\\)?\\s*\\)?)\\s*[;,]",
				  var, var, var), line))
			WARN(e, R_SELF_ASSIGNMENT,
			     eng_cat(e, "Do not use self-assignments to avoid compiler warnings\n",
				     e->herecurr));
	}

	/* check for dereferences that span multiple lines */
	if (ends_in_deref(prevline) &&
	    MQ(e, "^\\+.*$Lval\\s*(?:\\.|->)\\s*$", prevline) &&
	    MQ(e, "^\\+\\s*(?!\\#\\s*(?!define\\s+|if))\\s*$Lval", line)) {
		char *ref = "";

		if (M(e, "($Lval\\s*(?:\\.|->))\\s*$", prevline))
			ref = eng_cap(e, 1);
		if (M(e, "^.\\s*($Lval)", line))
			ref = eng_cat(e, ref, eng_cap(e, 1));
		ref = eng_subst(e, "\\s", "", ref, 1);
		WARN(e, R_MULTILINE_DEREFERENCE,
		     eng_printf(e, "Avoid multiple line dereference - prefer '%s'\n%s",
				ref, e->hereprev));
	}

	/* check for declarations of signed or unsigned without int */
	pos = 0;
	/* only a bare "signed"/"unsigned" is reported; the loop's matches
	 * are its own, so skipping it changes nothing else */
	while (strstr(line, "signed") &&
	       next_match(e, "\\b($Declare)\\s*(?!char\\b|short\\b|int\\b|long\\b)\\s*($Ident)?\\s*[=,;\\[\\)\\(]",
			  line, &pos, &m)) {
		const char *type = eng_mcap(e, &m, 1);
		struct re_m m2;

		if (re_match(e->rc, "^(?:(?:$Storage|$Inline|$Attribute)\\s+)*((?:un)?signed)((?:\\s*\\*)*)\\s*$",
			     type, &m2)) {
			const char *sign = eng_mcap(e, &m2, 1);
			const char *pointer = rtrim(e, eng_mcap(e, &m2, 2));

			WARN(e, R_UNSPECIFIED_INT,
			     eng_printf(e, "Prefer '%s int%s' to bare use of '%s%s'\n%s",
					trim(e, sign), pointer, sign, pointer,
					e->herecurr));
		}
	}

	/* TEST: allow direct testing of the type matcher (--debug type):
	 * reviewbot has no debug options. */

	/* check for initialisation to aggregates open brace on the next line */
	if (MQ(e, "^.\\s*\\{", line) && MQ(e, "(?:^|[^=])=\\s*$", prevline))
		ERROR(e, R_OPEN_BRACE,
		      eng_cat(e, "that open brace { should be on the previous line\n",
			      e->hereprev));

	/*
	 * Checks which are anchored on the added line.
	 */

	/* check for malformed paths in #include statements (uses RAW line) */
	if (re_match(e->rc, "^.\\s*\\#\\s*include\\s+[<\"](.*)[\">]", e->rawline, &m)) {
		const char *path = eng_mcap(e, &m, 1);

		if (strstr(path, "//"))
			ERROR(e, R_MALFORMED_INCLUDE,
			      eng_cat(e, "malformed #include filename\n", e->herecurr));
		if (MQ(e, "^uapi/", path) && MQ(e, "\\binclude/uapi/", e->realfile.buf))
			ERROR(e, R_UAPI_INCLUDE,
			      eng_cat(e, "No #include in ...include/uapi/... should use a uapi/ path prefix\n",
				      e->herecurr));
	}

	/* no C99 // comments */
	if (strstr(line, "//"))
		ERROR(e, R_C99_COMMENTS,
		      eng_cat(e, "do not use C99 // comments\n", e->herecurr));
	/* Remove C99 comments. */
	e->line = line = eng_subst(e, "//.*", "", line, 0);
	eng_known_lines(e);
	e->opline = eng_subst(e, "//.*", "", e->opline, 0);

	export_symbol(e);

	/* check for global initialisers. */
	if (M(e, "^\\+$Type\\s*$Ident(?:\\s+$Modifier)*\\s*=\\s*($zero_initializer)\\s*;", line) &&
	    !(MQ(e, "^tools/testing/selftests/bpf/progs/.*\\.c$", e->realfile.buf) ||
	      MQ(e, "^samples/bpf/.*_kern\\.c$", e->realfile.buf) ||
	      MQ(e, "/bpf/.*\\.bpf\\.c$", e->realfile.buf)))
		ERROR(e, R_GLOBAL_INITIALISERS,
		      eng_printf(e, "do not initialise globals to %s\n%s",
				 eng_cap(e, 1), e->herecurr));
	/* check for static initialisers. */
	if (M(e, "^\\+.*\\bstatic\\s.*=\\s*($zero_initializer)\\s*;", line))
		ERROR(e, R_INITIALISED_STATIC,
		      eng_printf(e, "do not initialise statics to %s\n%s",
				 eng_cap(e, 1), e->herecurr));

	/* check for misordered declarations of char/short/int/long with signed/unsigned */
	pos = 0;
	if (vocab_may_hold_misordered(sline, 0))
		while (next_match(e, "(\\b$TypeMisordered\\b)", sline, &pos, &m))
			WARN(e, R_MISORDERED_TYPE,
			     eng_printf(e, "type '%s' should be specified in [[un]signed] [short|int|long|long long] order\n%s",
					trim(e, eng_mcap(e, &m, 1)), e->herecurr));

	unnecessary_int(e);

	/* check for static const char * arrays. */
	if (MQ(e, "\\bstatic\\s+const\\s+char\\s*\\*\\s*(\\w+)\\s*\\[\\s*\\]\\s*=\\s*", line))
		WARN(e, R_STATIC_CONST_CHAR_ARRAY,
		     eng_cat(e, "static const char * array should probably be static const char * const\n",
			     e->herecurr));

	/* check for initialized const char arrays that should be static const */
	if (MQ(e, "^\\+\\s*const\\s+(char|unsigned\\s+char|_*u8|(?:[us]_)?int8_t)\\s+\\w+\\s*\\[\\s*(?:\\w+\\s*)?\\]\\s*=\\s*\"", line))
		WARN(e, R_STATIC_CONST_CHAR_ARRAY,
		     eng_cat(e, "const array should probably be static const\n", e->herecurr));

	/* check for static char foo[] = "bar" declarations. */
	if (MQ(e, "\\bstatic\\s+char\\s+(\\w+)\\s*\\[\\s*\\]\\s*=\\s*\"", line))
		WARN(e, R_STATIC_CONST_CHAR_ARRAY,
		     eng_cat(e, "static char array declaration should probably be static const char\n",
			     e->herecurr));

	/* check for const <foo> const where <foo> is not a pointer or array type */
	if (M(e, "\\bconst\\s+($BasicType)\\s+const\\b", sline)) {
		const char *found = eng_cap(e, 1);
		const char *q = eng_quote(e, found);

		if (MQ(e, eng_pat(e, "\\bconst\\s+%s\\s+const\\b\\s*\\*", q), sline))
			WARN(e, R_CONST_CONST,
			     eng_printf(e, "'const %s const *' should probably be 'const %s * const'\n%s",
					found, found, e->herecurr));
		else if (!MQ(e, eng_pat(e, "\\bconst\\s+%s\\s+const\\s+\\w+\\s*\\[", q), sline))
			WARN(e, R_CONST_CONST,
			     eng_printf(e, "'const %s const' should probably be 'const %s'\n%s",
					found, found, e->herecurr));
	}

	/*
	 * check for const static or static <non ptr type> const declarations
	 * prefer 'static const <foo>' over 'const static <foo>' and 'static <foo> const'
	 */
	if (M(e, "^\\+\\s*const\\s+static\\s+($Type)\\b", sline) ||
	    M(e, "^\\+\\s*static\\s+($BasicType)\\s+const\\b", sline))
		WARN(e, R_STATIC_CONST,
		     eng_printf(e, "Move const after static - use 'static const %s'\n%s",
				eng_cap(e, 1), e->herecurr));

	/* check for non-global char *foo[] = {"bar", ...} declarations. */
	if (MQ(e, "^.\\s+(?:static\\s+|const\\s+)?char\\s+\\*\\s*\\w+\\s*\\[\\s*\\]\\s*=\\s*\\{", line))
		WARN(e, R_STATIC_CONST_CHAR_ARRAY,
		     eng_cat(e, "char * array declaration might be better as static const\n",
			     e->herecurr));

	/* check for sizeof(foo)/sizeof(foo[0]) that could be ARRAY_SIZE(foo) */
	if (M(e, "\\bsizeof\\s*\\(\\s*($Lval)\\s*\\)", line)) {
		const char *array = eng_cap(e, 1);
		const char *q = eng_quote(e, array);

		if (MQ(e, eng_pat(e, "\\b(sizeof\\s*\\(\\s*%s\\s*\\)\\s*/\\s*sizeof\\s*\\(\\s*%s\\s*\\[\\s*0\\s*\\]\\s*\\))",
				  q, q), line))
			WARN(e, R_ARRAY_SIZE,
			     eng_printf(e, "Prefer ARRAY_SIZE(%s)\n%s", array, e->herecurr));
	}

	/* check for function declarations without arguments like "int foo()" */
	/* (a failed cheap test means the full match fails too) */
	if (MQ(e, "\\(\\s*\\)", line) &&
	    M(e, "(\\b$Type\\s*$Ident)\\s*\\(\\s*\\)", line)) {
		const char *f = eng_cap(e, 1);

		ERROR(e, R_FUNCTION_WITHOUT_ARGS,
		      eng_printf(e, "Bad function definition - %s() should probably be %s(void)\n%s",
				 f, f, e->herecurr));
	}

	/* check for new typedefs, only function parameters and sparse
	 * annotations make sense. */
	if (MQ(e, "\\btypedef\\s", line) &&
	    !MQ(e, "\\btypedef\\s+$Type\\s*\\(\\s*\\*?$Ident\\s*\\)\\s*\\(", line) &&
	    !MQ(e, "\\btypedef\\s+$Type\\s+$Ident\\s*\\(", line) &&
	    !MQ(e, "\\b$typeTypedefs\\b", line) &&
	    !MQ(e, "\\b__bitwise\\b", line))
		WARN(e, R_NEW_TYPEDEFS,
		     eng_cat(e, "do not add new typedefs\n", e->herecurr));

	pointer_location(e);

	/* do not use BUG() or variants */
	if (MQ(e, "\\b(?!AA_|BUILD_|DCCP_|IDA_|KVM_|RWLOCK_|snd_|SPIN_)(?:[a-zA-Z_]*_)?BUG(?:_ON)?(?:_[A-Z_]+)?\\s*\\(", line)) {
		const char *msg = eng_cat(e, "Do not crash the kernel unless it is absolutely unavoidable--use WARN_ON_ONCE() plus recovery code (if feasible) instead of BUG() or variants\n",
					  e->herecurr);

		if (e->o->file)
			CHK(e, R_AVOID_BUG, msg);
		else
			WARN(e, R_AVOID_BUG, msg);
	}

	/* avoid LINUX_VERSION_CODE */
	if (MQ(e, "\\bLINUX_VERSION_CODE\\b", line))
		WARN(e, R_LINUX_VERSION_CODE,
		     eng_cat(e, "LINUX_VERSION_CODE should be avoided, code should be for the version to which it is merged\n",
			     e->herecurr));

	/* check for uses of printk_ratelimit */
	if (MQ(e, "\\bprintk_ratelimit\\s*\\(", line))
		WARN(e, R_PRINTK_RATELIMITED,
		     eng_cat(e, "Prefer printk_ratelimited or pr_<level>_ratelimited to printk_ratelimit\n",
			     e->herecurr));

	/* printk should use KERN_* levels */
	if (MQ(e, "\\bprintk\\s*\\(\\s*(?!KERN_[A-Z]+\\b)", line))
		WARN(e, R_PRINTK_WITHOUT_KERN_LEVEL,
		     eng_cat(e, "printk() should include KERN_<LEVEL> facility level\n",
			     e->herecurr));

	printk_levels(e);

	/* trace_printk should not be used in production code. */
	if (M(e, "\\b(trace_printk|trace_puts|ftrace_vprintk)\\s*\\(", line))
		WARN(e, R_TRACE_PRINTK,
		     eng_printf(e, "Do not use %s() in production code (this can be ignored if built only with a debug config option)\n%s",
				eng_cap(e, 1), e->herecurr));

	/*
	 * ENOSYS means "bad syscall nr" and nothing else.  This will have a
	 * small number of false positives, but assembly files are not
	 * checked, so at least the arch entry code will not trigger this
	 * warning.
	 */
	if (MQ(e, "\\bENOSYS\\b", line))
		WARN(e, R_ENOSYS,
		     eng_cat(e, "ENOSYS means 'invalid syscall nr' and nothing else\n",
			     e->herecurr));

	/*
	 * ENOTSUPP is not a standard error code and should be avoided in new
	 * patches.  Folks usually mean EOPNOTSUPP (also called ENOTSUP), when
	 * they type ENOTSUPP.
	 */
	if (!e->o->file && MQ(e, "\\bENOTSUPP\\b", line))
		WARN(e, R_ENOTSUPP,
		     eng_cat(e, "ENOTSUPP is not a SUSV4 error code, prefer EOPNOTSUPP\n",
			     e->herecurr));

	/* function brace can't be on same line, except for #defines of do
	 * while, or if closed on same line */
	if (!strchr(sline, '}') && strchr(sline, '{') &&
	    MQ(e, "$Type\\s*$Ident\\s*$balanced_parens\\s*\\{", sline) &&
	    !MQ(e, "\\#\\s*define\\b.*do\\s*\\{", sline))
		ERROR(e, R_OPEN_BRACE,
		      eng_cat(e, "open brace '{' following function definitions go on the next line\n",
			      e->herecurr));

	/* open braces for enum, union and struct go on the same line. */
	if (MQ(e, "^.\\s*\\{", line) &&
	    M(e, "^.\\s*(?:typedef\\s+)?(enum|union|struct)(?:\\s+$Ident)?\\s*$", prevline))
		ERROR(e, R_OPEN_BRACE,
		      eng_printf(e, "open brace '{' following %s go on the same line\n%s",
				 eng_cap(e, 1), e->hereprev));

	/* missing space after union, struct or enum definition */
	if (M(e, "^.\\s*(?:typedef\\s+)?(enum|union|struct)(?:\\s+$Ident){1,2}[=\\{]", line))
		WARN(e, R_SPACING,
		     eng_printf(e, "missing space after %s definition\n%s",
				eng_cap(e, 1), e->herecurr));

	funcptr_spacing(e);
	return SEG_GO;
}

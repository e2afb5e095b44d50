// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: the statement scan and the checks anchored in the context
 * (checkpatch.pl 6.1, process(), from "Check for potential 'bare' types"
 * to "ignore lines not being added"): type learning, switch/case indent,
 * brace on the next line, trailing semicolons, conditional indentation and
 * the value annotation later checks read.  The checks on added lines that
 * follow, up to "check for spacing round square brackets", are in
 * seg_c_stmt2.c.
 */
#include "eng.h"

#include <string.h>

#include "banned.h"

int seg_c_stmt2(struct eng *e);

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

	return seg_c_stmt2(e);
}

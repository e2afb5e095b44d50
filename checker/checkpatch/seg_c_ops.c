// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: spacing around brackets, function names and operators
 * (checkpatch.pl 6.1, process(), from "check for spacing round square
 * brackets" through "Check operator spacing"), then, from "check for
 * whitespace before a non-naked semicolon" to just before "Check for
 * illegal assignment in if conditional" (seg_c_ops_rest()): semicolons,
 * braces, brackets and parentheses spacing, unnecessary parentheses,
 * labels, comma/semicolon mix-ups, return forms, constant comparisons.
 *
 * The operator check walks $opline split on operators and classifies what
 * stands either side of each operator (the "ctx", e.g. "WxV": whitespace
 * before, a value after); the unary/binary reading of '-', '&', '*' comes
 * from annotate_values() ($curr_values, $curr_vars), computed earlier in
 * the loop for every line, context lines included.
 */
#include "eng.h"

#include <stdio.h>
#include <string.h>

#include "../banned.h"

static int seg_c_ops_rest(struct eng *e);

/* Perl's \s */
static int is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static int all_ws(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!is_ws((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * check for spacing round square brackets; allowed:
 *  1. with a type on the left -- int [] a;
 *  2. at the beginning of a line for slice initialisers -- [0...10] = 5,
 *  3. inside a curly brace -- = { [0...10] = 5 }
 */
static void bracket_space(struct eng *e)
{
	const char *line = e->line;
	size_t n = strlen(line), pos = 0;
	struct re_m m;
	int guard = 0;

	while (!e->line_skip && pos <= n && guard++ < 100000 &&
	       re_find(e->rc, "(.*?\\s)\\[", line, n, pos, &m)) {
		size_t where = re_start(&m, 1);
		char *prefix = eng_strndup(e, line + where, re_end(&m, 1) - where);

		if (!MQ(e, "$Type\\s+$", prefix) &&
		    (where != 0 || !MQ(e, "^.\\s+$", prefix)) &&
		    !MQ(e, "[{,:]\\s+$", prefix))
			ERROR(e, R_BRACKET_SPACE,
			      eng_cat(e, "space prohibited before open square bracket '['\n",
				      e->herecurr));
		pos = re_end(&m, 0);
	}
}

/* check for spaces between functions and their parentheses. */
static void func_paren_space(struct eng *e)
{
	const char *line = e->line;
	size_t n = strlen(line), pos = 0;
	struct re_m m;
	int guard = 0;

	while (!e->line_skip && pos <= n && guard++ < 100000 &&
	       re_find(e->rc, "($Ident)\\s+\\(", line, n, pos, &m)) {
		size_t nlen;
		const char *np = re_cap(&m, 1, &nlen);
		char *name = eng_strndup(e, np, nlen);
		char *ctx_before = eng_strndup(e, line, re_start(&m, 1));
		char *ctx = eng_cat(e, ctx_before, name);

		pos = re_end(&m, 0);
		/* Ignore those directives where spaces _are_ permitted. */
		if (MQ(e, "^(?:if|for|while|switch|return|case|volatile|__volatile__|__attribute__|format|__extension__|asm|__asm__|scoped_guard)$",
		       name)) {
			/* nothing */
		} else if (MQ(e, "^.\\s*\\#\\s*define\\s*$", ctx_before)) {
			/* cpp #define statements have non-optional spaces */
		} else if (MQ(e, "^.\\s*\\#\\s*elif\\s*$", ctx)) {
			/* cpp #elif statement condition may start with a ( */
		} else if (MQ(e, "$Type$", ctx)) {
			/* ends with a type: most likely a typedef for a function */
		} else {
			WARN(e, R_SPACING,
			     eng_cat(e, "space prohibited between function name and open parenthesis '('\n",
				     e->herecurr));
		}
	}
}

/* "$a" and "$c" are one letter each and ctx is "${a}x${c}" */
static int in(char c, const char *set)
{
	return c && strchr(set, c) != NULL;
}

/* the classification of the text before an operator ($a) */
static char ctx_before(const char *el, size_t ellen, const char *ca, size_t calen)
{
	char a = 0;
	char last = ellen ? el[ellen - 1] : 0;

	if (ellen)
		a = 'V';
	if (ellen && is_ws((unsigned char)last))
		a = 'W';
	if (ellen && last == '\x1c')
		a = 'C';
	if (ellen && (last == '[' || last == '('))
		a = 'B';
	if (!ellen)
		a = 'O';
	if (all_ws(ca, calen))
		a = 'E';
	return a;
}

/* the classification of the text after an operator ($c) */
static char ctx_after(const char *el, size_t ellen)
{
	char c = 0;
	size_t i;

	if (ellen)
		c = 'V';
	if (ellen && is_ws((unsigned char)el[0]))
		c = 'W';
	if (ellen && el[0] == '\x1c')
		c = 'C';
	if (ellen && (el[0] == ')' || el[0] == ']' || el[0] == ';'))
		c = 'B';
	if (!ellen)
		c = 'O';
	/* /^\s*\\$/: the element is blanks then a trailing backslash */
	for (i = 0; i < ellen && is_ws((unsigned char)el[i]); i++)
		;
	if (i < ellen && el[i] == '\\' && i + 1 == ellen)
		c = 'E';
	return c;
}

static int streq(const char *a, const char *b)
{
	return !strcmp(a, b);
}

/* $ca =~ /(?:\)|!|~|\*|-|\&|\||\+\+|\-\-|\{)$/ */
static int ends_unary_ok(const char *ca, size_t calen)
{
	if (!calen)
		return 0;
	if (in(ca[calen - 1], ")!~*-&|{"))
		return 1;
	return calen >= 2 && ca[calen - 2] == '+' && ca[calen - 1] == '+';
}

#define OPS_MAX_ELEMS	(1u << 20)

/* What the operator reports share: "<text> '<op>' (ctx:..)" and a caret
 * under the operator ($hereptr). */
struct op_at {
	const char *op, *at, *blank;
	size_t off;
};

static void op_report(struct eng *e, char sev, const char *text,
		      const struct op_at *w)
{
	char *msg = eng_printf(e, "%s '%s' %s\n%s%.*s^\n", text, w->op, w->at,
			       e->hereline, (int)w->off, w->blank);

	if (sev == 'E')
		ERROR(e, R_SPACING, msg);
	else
		CHK(e, R_SPACING, msg);
}

/* Check operator spacing. */
static void op_spacing(struct eng *e)
{
	const char *opline = e->opline;
	const char *curr_values = e->curr_values, *curr_vars = e->curr_vars;
	size_t oplen, vlen, varlen, pos = 0, nel = 0, n, off = 0;
	size_t *st, *ln;
	struct re_m m;
	char *blank;

	if (!opline || !curr_values || !curr_vars)
		return;
	oplen = strlen(opline);
	vlen = strlen(curr_values);
	varlen = strlen(curr_vars);

	/* my @elements = split(/($ops|;)/, $opline); */
	st = eng_alloc(e, sizeof(*st) * (2 * oplen + 2));
	ln = eng_alloc(e, sizeof(*ln) * (2 * oplen + 2));
	if (!st || !ln)
		return;
	while (!e->line_skip && pos <= oplen && nel + 2 < OPS_MAX_ELEMS &&
	       re_find(e->rc,
		       "(<<=|>>=|<=|>=|==|!=|\\+=|-=|\\*=|\\/=|%=|\\^=|\\|=|&=|=>|->|<<|>>|<|>|=|!|~|&&|\\|\\||,|\\^|\\+\\+|--|&|\\||\\+|-|\\*|\\/|%|\\?:|\\?|:|;)",
		       opline, oplen, pos, &m)) {
		st[nel] = pos;
		ln[nel++] = re_start(&m, 0) - pos;
		st[nel] = re_start(&m, 0);
		ln[nel++] = re_end(&m, 0) - re_start(&m, 0);
		pos = re_end(&m, 0);
	}
	st[nel] = pos;
	ln[nel++] = oplen - pos;
	/* split drops trailing empty fields (separators are never empty) */
	while (nel && ln[nel - 1] == 0)
		nel--;

	blank = copy_spacing(e, opline);

	/* for ($n = 0; $n < $#elements; $n += 2) */
	for (n = 0; n + 1 < nel && !e->line_skip; n += 2) {
		const char *el = opline + st[n];
		const char *ca, *cc, *opp;
		size_t calen, oplen_n = ln[n + 1];
		char a, c, ctx[4], opv[8], at[16];
		char *op;
		struct op_at w;
		int has_next = n + 2 < nel;

		off += ln[n];

		/* Pick up the preceding and succeeding characters. */
		ca = opline;
		calen = off;
		cc = "";
		if (oplen >= off + oplen_n)
			cc = opline + off + oplen_n;

		a = ctx_before(el, ln[n], ca, calen);
		opp = opline + st[n + 1];
		op = eng_strndup(e, opp, oplen_n);
		if (has_next)
			c = ctx_after(opline + st[n + 2], ln[n + 2]);
		else
			c = 'E';
		ctx[0] = a;
		ctx[1] = 'x';
		ctx[2] = c;
		ctx[3] = '\0';
		snprintf(at, sizeof(at), "(ctx:%s)", ctx);

		w.op = op;
		w.at = at;
		w.blank = blank;
		w.off = off;

		/* Get the full operator variant. */
		snprintf(opv, sizeof(opv), "%s%c", op,
			 off < varlen ? curr_vars[off] : '\0');

		/* Ignore operators passed as parameters. */
		if (!(off + 1 < vlen && curr_values[off + 1] == 'V') &&
		    calen && is_ws((unsigned char)ca[calen - 1]) &&
		    MQ(e, "^\\s*[,\\)]", cc)) {
			/* nothing */

		/* ; should have either the end of line or a space or \ after it */
		} else if (streq(op, ";")) {
			if (!in(c, "WEBC") && cc[0] != '\\' && cc[0] != ';')
				op_report(e, 'E', "space required after that", &w);

		/* // is a comment: never an element of the split */

		/* : when part of a bitfield */
		} else if (streq(opv, ":B")) {
			/* skip the bitfield test for now */

		/* No spaces for: -> */
		} else if (streq(op, "->")) {
			if (a == 'W' || c == 'W')
				op_report(e, 'E', "spaces prohibited around that", &w);

		/* , must not have a space before and must have a space on the right. */
		} else if (streq(op, ",")) {
			if (a == 'W')
				op_report(e, 'E', "space prohibited before that", &w);
			if (!in(c, "WEC") && cc[0] != '}')
				op_report(e, 'E', "space required after that", &w);

		/* '*' as part of a type definition -- reported already. */
		} else if (streq(opv, "*_")) {
			/* nothing */

		/* unary operators should have a space before and none after.
		 * May be left adjacent to another unary operator, or a cast */
		} else if (streq(op, "!") || streq(op, "~") ||
			   streq(opv, "*U") || streq(opv, "-U") ||
			   streq(opv, "&U") || streq(opv, "&&U")) {
			if (!in(a, "WEBC") && !ends_unary_ok(ca, calen))
				op_report(e, 'E', "space required before that", &w);
			if (streq(op, "*") && MQ(e, "\\s*$Modifier\\b", cc)) {
				/* A unary '*' may be const */
			} else if (c == 'W') {
				op_report(e, 'E', "space prohibited after that", &w);
			}

		/* unary ++ and unary -- are allowed no space on one side. */
		} else if (streq(op, "++") || streq(op, "--")) {
			if (!(in(a, "WEOBC") && c != 'W') &&
			    !(a != 'W' && in(c, "WOBEC")))
				op_report(e, 'E', "space required one side of that", &w);
			if ((a == 'W' && in(c, "BE")) ||
			    (a == 'W' && cc[0] == ';'))
				op_report(e, 'E', "space prohibited before that", &w);
			if (a == 'E' && c == 'W')
				op_report(e, 'E', "space prohibited after that", &w);

		/* << and >> may either have or not have spaces both sides */
		} else if (streq(op, "<<") || streq(op, ">>") ||
			   streq(op, "&") || streq(op, "^") || streq(op, "|") ||
			   streq(op, "+") || streq(op, "-") ||
			   streq(op, "*") || streq(op, "/") ||
			   streq(op, "%")) {
			if (e->check) {
				if (has_next && !(in(a, "EW") && in(c, "EW"))) {
					op_report(e, 'C', "spaces preferred around that", &w);
				} else if (!has_next && !(a == 'W' && in(c, "OE"))) {
					op_report(e, 'C', "space preferred before that", &w);
				}
			} else if ((a == 'W' && !in(c, "WCE")) ||
				   (!in(a, "WCE") && c == 'W')) {
				op_report(e, 'E', "need consistent spacing around", &w);
			}

		/* A colon needs no spaces before when it is terminating a
		 * case value or a label. */
		} else if (streq(opv, ":C") || streq(opv, ":L")) {
			if (a == 'W' && !MQ(e, ".*\\.lds\\.h$", e->realfile.buf))
				op_report(e, 'E', "space prohibited before that", &w);

		/* All the others need spaces both sides. */
		} else if (!(in(a, "EWC") && in(c, "CWE"))) {
			int ok = 0;

			/* Ignore email addresses <foo@bar> */
			if ((streq(op, "<") && MQ(e, "^\\S+\\@\\S+>", cc)) ||
			    (streq(op, ">") &&
			     MQ(e, "<\\S+\\@\\S+$", eng_strndup(e, ca, calen))))
				ok = 1;

			/* for asm volatile statements ignore a colon with
			 * another colon immediately before or after */
			if (streq(op, ":") &&
			    ((calen && ca[calen - 1] == ':') || cc[0] == ':'))
				ok = 1;

			/* messages are ERROR, but ?: are CHK */
			if (ok == 0) {
				char sev = 'E';

				if ((streq(op, "?:") || streq(op, "?") || streq(op, ":")) &&
				    a == 'V' && c == 'V')
					sev = 'C';
				op_report(e, sev, "spaces required around that", &w);
			}
		}
		off += oplen_n;
	}
}

int seg_c_ops(struct eng *e)
{
	bracket_space(e);
	func_paren_space(e);

	/* Check operator spacing. */
	if (!MQ(e, "\\#\\s*include", e->line))
		op_spacing(e);

	return seg_c_ops_rest(e);
}

/* ---- the rest of the segment ---- */
/*
 * The "comma where semicolon could be used" pattern,
 *   ^\+\s*(?:$Lval\s*$Assignment\s*)?$FuncArg\s*,\s*(?:$Lval\s*$Assignment\s*)?$FuncArg\s*;\s*$
 * with $Ident's letters and the blanks after "+" and "," possessive: on a
 * long statement that does not match (an argument list continued over
 * lines) the original backtracks through every way of splitting the
 * identifiers and indentation and runs out of match budget, where Perl
 * gives up quickly.  What follows an identifier is never a word character
 * and what follows those blanks never starts with a blank, so the set of
 * matched strings is the same.
 */
#define ID_P	"[A-Za-z_][A-Za-z\\d_]*+(?:\\s*\\#\\#\\s*[A-Za-z_][A-Za-z\\d_]*+)*"
#define LVAL_P	"(?:" ID_P "(?:->" ID_P "|\\." ID_P "|\\[[^]]*\\])*)"
#define FUNCARG_P \
	"(?:$Typecast{0,1}(?:(?:[\\&\\*]\\s*)?" LVAL_P "\\s*$balanced_parens{0,1}\\s*|$Constant|$String))"
#define SUSPECT_COMMA_RE \
	"^\\+\\s*+(?:" LVAL_P "\\s*$Assignment\\s*)?" FUNCARG_P "\\s*,\\s*+(?:" \
	LVAL_P "\\s*$Assignment\\s*)?" FUNCARG_P "\\s*;\\s*$"

/* checkpatch.pl's deparenthesize() */
static char *deparenthesize(struct eng *e, const char *s)
{
	char *r = eng_strdup(e, s);
	int guard = 0;

	while (guard++ < 100000 && MQ(e, "^\\s*\\(.*\\)\\s*$", r)) {
		r = eng_subst(e, "^\\s*\\(\\s*", "", r, 0);
		r = eng_subst(e, "\\s*\\)\\s*$", "", r, 0);
	}
	return eng_subst(e, "\\s+", " ", r, 1);
}

/* check for unnecessary parentheses around comparisons in if uses
 * when !drivers/staging or command-line uses --strict */
static void if_paren_compare(struct eng *e)
{
	const char *if_stat, *test;
	size_t n, pos = 0, blen;
	const char *bp;
	struct re_m m;
	struct sbuf herectx;
	int have_herectx = 0, guard = 0;

	if (!((!MQ(e, "^(?:drivers/staging/)", e->realfile.buf) || e->o->strict) &&
	      e->has_stat && e->stat &&
	      M(e, "(^.\\s*if\\s*($balanced_parens))", e->stat)))
		return;
	if_stat = eng_cap(e, 1);
	/* substr($2, 1, -1) */
	bp = re_cap(&e->m, 2, &blen);
	test = blen >= 2 ? eng_strndup(e, bp + 1, blen - 2) : "";
	n = strlen(test);

	sbuf_init(&herectx, ENG_ARENA_MAX / 4);
	while (!e->line_skip && pos <= n && guard++ < 100000 &&
	       re_find(e->rc,
		       "(?:^|[^\\w\\&\\!\\~])+\\s*\\(\\s*([\\&\\!\\~]?\\s*$Lval\\s*(?:$Compare\\s*$FuncArg)?)\\s*\\)",
		       test, n, pos, &m)) {
		size_t mlen;
		const char *mp = re_cap(&m, 1, &mlen);
		char *match = eng_strndup(e, mp, mlen);

		pos = re_end(&m, 0) > re_start(&m, 0) ? re_end(&m, 0) : re_end(&m, 0) + 1;
		/* avoid parentheses around potential macro args */
		if (MQ(e, "^\\s*\\w+\\s*$", match))
			continue;
		if (!have_herectx) {
			int cnt = statement_rawlines(e, if_stat), i;

			have_herectx = 1;
			sbuf_addstr(&herectx, e->here.buf);
			sbuf_addch(&herectx, '\n');
			for (i = 0; i < cnt; i++) {
				const char *rl = raw_line(e, e->linenr, i);

				sbuf_addstr(&herectx, rl ? rl : "");
				sbuf_addch(&herectx, '\n');
				if (MQ(e, "^[ \\+].*\\{", rl))
					break;
			}
		}
		CHK(e, R_UNNECESSARY_PARENTHESES,
		    eng_printf(e, "Unnecessary parentheses around '%s'\n%s",
			       match, herectx.buf));
	}
	sbuf_release(&herectx);
}

/* return is not a function */
static void return_parens(struct eng *e)
{
	char *spacing;

	if (!(e->has_stat && e->stat &&
	      M(e, "(?s)^.\\s*return(\\s*)\\(", e->stat)))
		return;
	spacing = eng_cap(e, 1);
	if (M(e, "^.\\s*return\\s*($balanced_parens)\\s*;\\s*$", e->stat)) {
		char *value = deparenthesize(e, eng_cap(e, 1));

		if (MQ(e, "^\\s*$FuncArg\\s*(?:\\?|$)", value))
			ERROR(e, R_RETURN_PARENTHESES,
			      eng_cat(e, "return is not a function, parentheses are not required\n",
				      e->herecurr));
	} else if (!MQ(e, "\\s+", spacing)) {
		ERROR(e, R_SPACING,
		      eng_cat(e, "space required before the open parenthesis '('\n",
			      e->herecurr));
	}
}

static int seg_c_ops_rest(struct eng *e)
{
	const char *line = e->line, *sline = e->sline;
	size_t n, pos;
	struct re_m m;
	int guard;

	/* check for whitespace before a non-naked semicolon */
	if (MQ(e, "^\\+.*\\S\\s+;\\s*$", line))
		WARN(e, R_SPACING,
		     eng_cat(e, "space prohibited before semicolon\n", e->herecurr));

	/* check for multiple assignments */
	if (MQ(e, "^.\\s*$Lval\\s*=\\s*$Lval\\s*=(?!=)", line))
		CHK(e, R_MULTIPLE_ASSIGNMENTS,
		    eng_cat(e, "multiple assignments should be avoided\n", e->herecurr));

	/* need space before brace following if, while, etc */
	if ((MQ(e, "\\(.*\\)\\{", line) && !MQ(e, "\\($Type\\)\\{", line)) ||
	    MQ(e, "\\b(?:else|do)\\{", line))
		ERROR(e, R_SPACING,
		      eng_cat(e, "space required before the open brace '{'\n", e->herecurr));

	/* closing brace should have a space following it when it has
	 * anything on the line */
	if (MQ(e, "}(?!(?:,|;|\\)|\\}))\\S", line))
		ERROR(e, R_SPACING,
		      eng_cat(e, "space required after that close brace '}'\n", e->herecurr));

	/* check spacing on square brackets */
	if (MQ(e, "\\[\\s", line) && !MQ(e, "\\[\\s*$", line))
		ERROR(e, R_SPACING,
		      eng_cat(e, "space prohibited after that open square bracket '['\n",
			      e->herecurr));
	if (MQ(e, "\\s\\]", line))
		ERROR(e, R_SPACING,
		      eng_cat(e, "space prohibited before that close square bracket ']'\n",
			      e->herecurr));

	/* check spacing on parentheses */
	if (MQ(e, "\\(\\s", line) && !MQ(e, "\\(\\s*(?:\\\\)?$", line) &&
	    !MQ(e, "for\\s*\\(\\s+;", line))
		ERROR(e, R_SPACING,
		      eng_cat(e, "space prohibited after that open parenthesis '('\n",
			      e->herecurr));
	if (M(e, "(\\s+)\\)", line) && !MQ(e, "^.\\s*\\)", line) &&
	    !MQ(e, "for\\s*\\(.*;\\s+\\)", line) &&
	    !MQ(e, ":\\s+\\)", line))
		ERROR(e, R_SPACING,
		      eng_cat(e, "space prohibited before that close parenthesis ')'\n",
			      e->herecurr));

	/* check unnecessary parentheses around addressof/dereference single
	 * $Lvals, ie: &(foo->bar) should be &foo->bar and *(foo->bar) should
	 * be *foo->bar */
	n = strlen(line);
	pos = 0;
	guard = 0;
	while (!e->line_skip && pos <= n && guard++ < 100000 &&
	       re_find(e->rc,
		       "(?:[^&]&\\s*|\\*)\\(\\s*($Ident\\s*(?:$Member\\s*)+)\\s*\\)",
		       line, n, pos, &m)) {
		size_t vlen;
		const char *vp = re_cap(&m, 1, &vlen);

		CHK(e, R_UNNECESSARY_PARENTHESES,
		    eng_printf(e, "Unnecessary parentheses around %.*s\n%s",
			       (int)vlen, vp, e->herecurr));
		pos = re_end(&m, 0);
	}

	/* check for unnecessary parentheses around function pointer uses
	 * ie: (foo->bar)(); should be foo->bar();
	 * but not "if (foo->bar) (" to avoid some false positives */
	if (M(e, "(\\bif\\s*|)(\\(\\s*$Ident\\s*(?:$Member\\s*)+\\))[ \\t]*\\(", line) &&
	    !MQ(e, "^if", eng_cap(e, 1)))
		CHK(e, R_UNNECESSARY_PARENTHESES,
		    eng_printf(e, "Unnecessary parentheses around function pointer %s\n%s",
			       eng_cap(e, 2), e->herecurr));

	if_paren_compare(e);

	/* check that goto labels aren't indented (allow a single space
	 * indentation) and ignore bitfield definitions like foo:1 */
	if (MQ(e, "^.\\s+[A-Za-z_][A-Za-z\\d_]*:(?!\\s*\\d+)", sline) &&
	    !MQ(e, "^. [A-Za-z\\d_][A-Za-z\\d_]*:", sline) &&
	    !MQ(e, "^.\\s+default:", sline))
		WARN(e, R_INDENTED_LABEL,
		     eng_cat(e, "labels should not be indented\n", e->herecurr));

	/* check if a statement with a comma should be two statements like:
	 *	foo = bar(),	/+ comma should be semicolon +/
	 *	bar = baz(); */
	if (e->has_stat && e->stat && MQ(e, SUSPECT_COMMA_RE, e->stat)) {
		int cnt = statement_rawlines(e, e->stat);

		WARN(e, R_SUSPECT_COMMA_SEMICOLON,
		     eng_cat(e, "Possible comma where semicolon could be used\n",
			     get_stat_here(e, e->linenr, cnt, e->here.buf)));
	}

	return_parens(e);

	/* unnecessary return in a void function at end-of-function, with the
	 * previous line a single leading tab, then return; and the line
	 * before that not a goto label target like "out:" */
	if (MQ(e, "^[ \\+]}\\s*$", sline) &&
	    MQ(e, "^\\+\\treturn\\s*;\\s*$", e->prevline) &&
	    e->linenr >= 3 &&
	    MQ(e, "^[ +]", eng_line(e, e->linenr - 2)) &&
	    !MQ(e, "^[ +]\\s*$Ident\\s*:", eng_line(e, e->linenr - 2)))
		WARN(e, R_RETURN_VOID,
		     eng_cat(e, "void function return statements are not generally useful\n",
			     e->hereprev));

	/* if statements using unnecessary parentheses - ie: if ((foo == bar)) */
	if (M(e, "\\bif\\s*((?:\\(\\s*){2,})", line)) {
		const char *p = eng_cap(e, 1);
		int count = 0;

		for (; *p; p++)
			if (*p == '(')
				count++;
		if (M(e, eng_pat(e, "\\bif\\s*(?:\\(\\s*){%d,%d}$LvalOrFunc\\s*($Compare)\\s*$LvalOrFunc(?:\\s*\\)){%d,%d}",
				 count, count, count, count), line)) {
			/* Not $1 because of $LvalOrFunc */
			const char *msg = !strcmp(eng_cap(e, 4), "==") ?
					  " - maybe == should be = ?" : "";

			WARN(e, R_UNNECESSARY_PARENTHESES,
			     eng_printf(e, "Unnecessary parentheses%s\n%s", msg,
					e->herecurr));
		}
	}

	/* comparisons with a constant or upper case identifier on the left
	 *	avoid cases like "foo + BAR < baz"
	 *	only fix matches surrounded by parentheses to avoid incorrect
	 *	conversions like "FOO < baz() + 5" being "misfixed" to
	 *	"baz() > FOO + 5" */
	/* ($Compare needs one of these: a failed test means no match) */
	if ((strchr(line, '<') || strchr(line, '>') || strstr(line, "==") ||
	     strstr(line, "!=")) &&
	    M(e, "^\\+(.*)\\b($Constant|[A-Z_][A-Z0-9_]*)\\s*($Compare)\\s*($LvalOrFunc)",
	      line)) {
		char *lead = eng_cap(e, 1);
		char *to = eng_cap(e, 4);

		if (!MQ(e, "(?:$Operators|\\.)\\s*$", lead) &&
		    !MQ(e, "^(?:Constant|[A-Z_][A-Z0-9_]*)$", to))
			WARN(e, R_CONSTANT_COMPARISON,
			     eng_cat(e, "Comparisons should place the constant on the right side of the test\n",
				     e->herecurr));
	}

	/* Return of what appears to be an errno should normally be negative */
	if (M(e, "\\breturn(?:\\s*\\(+\\s*|\\s+)(E[A-Z]+)(?:\\s*\\)+\\s*|\\s*)[;:,]", sline)) {
		char *name = eng_cap(e, 1);

		if (strcmp(name, "EOF") && strcmp(name, "ERROR") &&
		    !MQ(e, "^EPOLL", name))
			WARN(e, R_USE_NEGATIVE_ERRNO,
			     eng_printf(e, "return of an errno should typically be negative (ie: return -%s)\n%s",
					name, e->herecurr));
	}

	/* Need a space before open parenthesis after if, while etc */
	if (MQ(e, "\\b(if|while|for|switch)\\(", line))
		ERROR(e, R_SPACING,
		      eng_cat(e, "space required before the open parenthesis '('\n",
			      e->herecurr));

	return SEG_GO;
}

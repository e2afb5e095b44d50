// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: spacing around brackets, function names and operators
 * (checkpatch.pl 6.1, process(), from "check for spacing round square
 * brackets" through "Check operator spacing"); seg_c_ops2.c carries on
 * from "check for whitespace before a non-naked semicolon" to just before
 * "Check for illegal assignment in if conditional".
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

#include "seg_c_ops.h"
#include "banned.h"

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

	return seg_c_ops2(e);
}

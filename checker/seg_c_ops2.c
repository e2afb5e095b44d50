// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment seg_c_ops, second half (checkpatch.pl 6.1, process(), from
 * "check for whitespace before a non-naked semicolon" to just before
 * "Check for illegal assignment in if conditional"): semicolons, braces,
 * brackets and parentheses spacing, unnecessary parentheses, labels,
 * comma/semicolon mix-ups, return forms, constant comparisons.
 */
#include "eng.h"

#include <string.h>

#include "seg_c_ops.h"
#include "banned.h"

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

int seg_c_ops2(struct eng *e)
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

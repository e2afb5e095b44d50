// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: indentation, continuation lines, block comments and line
 * spacing of C, perl and dts sources (checkpatch.pl 6.1, process(), from
 * "at the beginning of a line any tabs must come first" to "check we are in
 * a valid C source file if not then ignore this hunk").
 */
#include "eng.h"
#include "vocab.h"

#include <string.h>

#include "../banned.h"

/* "$here\n" . cat_vet($rawline) . "\n" */
static const char *herevet(struct eng *e)
{
	return eng_printf(e, "%s\n%s\n", e->here.buf, cat_vet(e, e->rawline));
}

/* "c" x n */
static char *repeat(struct eng *e, char c, int n)
{
	char *s;

	if (n < 0)
		n = 0;
	s = eng_alloc(e, (size_t)n + 1);
	if (!s)
		return eng_strdup(e, "");
	memset(s, c, (size_t)n);
	s[n] = '\0';
	return s;
}

/*
 * s holds a '(' and ends, but for white space, in "&&", "||" or ","
 * (every match of parenthesis_alignment()'s first pattern does)
 */
static int continues_in_parens(const char *s)
{
	size_t n;

	if (!s || !strchr(s, '('))
		return 0;
	n = strlen(s);
	while (n && vocab_is_space((unsigned char)s[n - 1]))
		n--;
	return (n >= 1 && s[n - 1] == ',') ||
	       (n >= 2 && ((s[n - 2] == '&' && s[n - 1] == '&') ||
			   (s[n - 2] == '|' && s[n - 1] == '|')));
}

/* check multi-line statement indentation matches previous line */
static void parenthesis_alignment(struct eng *e)
{
	const char *prevline = e->prevline;
	char *oldindent, *rest, *newindent, *goodtabindent, *goodspaceindent;
	int pos, ts = e->o->tabsize;

	if (!continues_in_parens(prevline) ||
	    !MQ(e, "^\\+([ \\t]*)((?:$c90_Keywords(?:\\s+if)\\s*)|(?:$Declare\\s*)?(?:$Ident|\\(\\s*\\*\\s*$Ident\\s*\\))\\s*|(?:\\*\\s*)*$Lval\\s*=\\s*$Ident\\s*)\\(.*(\\&\\&|\\|\\||,)\\s*$",
		prevline))
		return;
	/* always matches: prevline starts with '+' */
	if (!M(e, "^\\+(\\t*)(.*)$", prevline))
		return;
	oldindent = eng_cap(e, 1);
	rest = eng_cap(e, 2);

	pos = pos_last_openparen(e, rest);
	if (pos < 0)
		return;
	/* when this fails, Perl's $2 is still $rest */
	if (M(e, "^(\\+| )([ \\t]*)", e->line))
		newindent = eng_cap(e, 2);
	else
		newindent = rest;

	goodtabindent = eng_printf(e, "%s%s%s", oldindent,
				   repeat(e, '\t', pos / ts),
				   repeat(e, ' ', pos % ts));
	goodspaceindent = eng_cat(e, oldindent, repeat(e, ' ', pos));

	if (strcmp(newindent, goodtabindent) &&
	    strcmp(newindent, goodspaceindent))
		CHK(e, R_PARENTHESIS_ALIGNMENT,
		    eng_cat(e, "Alignment should match open parenthesis\n",
			    e->hereprev));
}

/* Block comment * alignment */
static void block_comment_align(struct eng *e)
{
	const char *prevrawline = e->prevrawline;
	const char *oldindent, *newindent;

	if (!(MQ(e, "$;[ \\t]*$", e->prevline) &&		/* ends in comment */
	      MQ(e, "^\\+[ \\t]*$;", e->line) &&		/* leading comment */
	      MQ(e, "^\\+[ \\t]*\\*", e->rawline) &&		/* leading * */
	      ((MQ(e, "^\\+.*?\\/\\*", prevrawline) &&		/* leading slash-star */
		!MQ(e, "\\*\\/[ \\t]*$", prevrawline)) ||	/* no trailing star-slash */
	       MQ(e, "^\\+[ \\t]*\\*", prevrawline))))		/* leading * */
		return;

	/*
	 * The matches above have no groups, so Perl's $1 is undef when the
	 * first of these fails; the second then always matches.
	 */
	if (M(e, "^\\+([ \\t]*/?)\\*", prevrawline))
		oldindent = expand_tabs(e, eng_cap(e, 1));
	else if (M(e, "^\\+(.*/?)\\*", prevrawline))
		oldindent = expand_tabs(e, eng_cap(e, 1));
	else
		oldindent = "";
	if (M(e, "^\\+([ \\t]*)\\*", e->rawline))
		newindent = expand_tabs(e, eng_cap(e, 1));
	else
		newindent = "";
	if (strlen(oldindent) != strlen(newindent))
		WARN(e, R_BLOCK_COMMENT_STYLE,
		     eng_cat(e, "Block comments should align the * on each line\n",
			     e->hereprev));
}

/* the declaration shapes of "check for missing blank lines after declarations" */
static int looks_like_decl(struct eng *e, const char *l)
{
	return MQ(e, "^\\+\\s+$Declare\\s*$Ident\\s*[=,;:\\[]", l) ||
	       /* function pointer declarations */
	       MQ(e, "^\\+\\s+$Declare\\s*\\(\\s*\\*\\s*$Ident\\s*\\)\\s*[=,;:\\[\\(]", l) ||
	       /* foo bar; where foo is some local typedef or #define */
	       MQ(e, "^\\+\\s+$Ident(?:\\s+|\\s*\\*\\s*)$Ident\\s*[=,;\\[]", l) ||
	       /* known declaration macros */
	       MQ(e, "^\\+\\s+$declaration_macros", l);
}

/* check for missing blank lines after declarations */
static void missing_blank_after_decl(struct eng *e)
{
	const char *sl, *pl;

	/*
	 * (declarations must have the same indentation and not be at the
	 * start of line); $1 is interpolated raw, it is only whitespace
	 */
	if (!M(e, "\\+(\\s+)\\S", e->prevline))
		return;
	if (!MQ(e, eng_pat(e, "^\\+%s\\S", eng_cap(e, 1)), e->sline))
		return;

	/* remove $Attribute/$Sparse uses to simplify comparisons */
	sl = eng_subst(e, "\\b(?:$Attribute|$Sparse)\\b", "", e->sline, 1);
	pl = eng_subst(e, "\\b(?:$Attribute|$Sparse)\\b", "", e->prevline, 1);

	if (!looks_like_decl(e, pl))
		return;
	/* for "else if" which can look like "$Ident $Ident" */
	if (MQ(e, "^\\+\\s+$c90_Keywords\\b", pl) ||
	    /* other possible extensions of declaration lines */
	    MQ(e, "(?:$Compare|$Assignment|$Operators)\\s*$", pl) ||
	    /* not starting a section or a macro "\" extended line */
	    MQ(e, "(?:\\{\\s*|\\\\)$", pl))
		return;
	/* looks like a declaration */
	if (looks_like_decl(e, sl) ||
	    /* start of struct or union or enum */
	    MQ(e, "^\\+\\s+(?:static\\s+)?(?:const\\s+)?(?:union|struct|enum|typedef)\\b", sl) ||
	    /* start or end of block or continuation of declaration */
	    MQ(e, "^\\+\\s+(?:$|[\\{\\}\\.\\#\\\"\\?\\:\\(\\[])", sl) ||
	    /* bitfield continuation */
	    MQ(e, "^\\+\\s+$Ident\\s*:\\s*\\d+\\s*[,;]", sl) ||
	    /* other possible extensions of declaration lines */
	    MQ(e, "^\\+\\s+\\(?\\s*(?:$Compare|$Assignment|$Operators)", sl))
		return;
	WARN(e, R_LINE_SPACING,
	     eng_cat(e, "Missing a blank line after declarations\n", e->hereprev));
}

/* s starts "+", one or more tabs, then a space */
static int tabs_then_space(const char *s)
{
	if (!s || *s++ != '+' || *s != '\t')
		return 0;
	while (*s == '\t')
		s++;
	return *s == ' ';
}

int seg_source(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline, *sline = e->sline;
	const char *prevline = e->prevline, *prevrawline = e->prevrawline;

	/*
	 * at the beginning of a line any tabs must come first and anything
	 * more than $tabsize must use tabs.
	 */
	if (MQ(e, "^\\+\\s* \\t\\s*\\S", rawline) ||
	    MQ(e, "^\\+\\s*        \\s*", rawline)) {
		e->rpt_cleaners = 1;
		ERROR(e, R_CODE_INDENT,
		      eng_cat(e, "code indent should use tabs where possible\n",
			      herevet(e)));
	}

	/* check for space before tabs. */
	if (rawline[0] == '+' && strstr(rawline, " \t"))
		WARN(e, R_SPACE_BEFORE_TAB,
		     eng_cat(e, "please, no space before tabs\n", herevet(e)));

	/* check for assignments on the start of a line */
	if (M(e, "^\\+\\s+($Assignment)[^=]", sline))
		CHK(e, R_ASSIGNMENT_CONTINUATIONS,
		    eng_printf(e, "Assignment operator '%s' should be on the previous line\n%s",
			       eng_cap(e, 1), e->hereprev));

	/* check for && or || at the start of a line */
	if (MQ(e, "^\\+\\s*(&&|\\|\\|)", rawline))
		CHK(e, R_LOGICAL_CONTINUATIONS,
		    eng_cat(e, "Logical continuations should be on the previous line\n",
			    e->hereprev));

	/* check indentation starts on a tab stop (every match starts
	 * "+\t+ ": the long pattern only there) */
	if (tabs_then_space(sline) &&
	    M(e, "^\\+\\t+( +)(?:$c90_Keywords\\b|\\{\\s*$|\\}\\s*(?:else\\b|while\\b|\\s*$)|$Declare\\s*$Ident\\s*[;=])",
	      sline)) {
		int indent = (int)strlen(eng_cap(e, 1));

		if (indent % e->o->tabsize)
			WARN(e, R_TABSTOP,
			     eng_cat(e, "Statements should start on a tabstop\n",
				     e->herecurr));
	}

	/* check multi-line statement indentation matches previous line */
	parenthesis_alignment(e);

	/*
	 * check for space after cast like "(int) foo" or "(struct foo) bar"
	 * avoid checking a few false positives:
	 *   "sizeof(<type>)" or "__alignof__(<type>)"
	 *   function pointer declarations like "(*foo)(int) = bar;"
	 *   structure definitions like "(struct foo) { 0 };"
	 *   multiline macros that define functions
	 *   known attributes or the __attribute__ keyword
	 */
	if (M(e, "^\\+(.*)\\(\\s*$Type\\s*\\)([ \\t]++)((?![={]|\\\\$|$Attribute|__attribute__))",
	      line) &&
	    (!eng_cap_def(e, 1) ||
	     !MQ(e, "\\b(?:sizeof|__alignof__)\\s*$", eng_cap(e, 1))))
		CHK(e, R_SPACING,
		    eng_cat(e, "No space is necessary after a cast\n", e->herecurr));

	/*
	 * Block comment styles
	 * Networking with an initial / *; $realline > 3: do not warn about
	 * the initial copyright comment block after SPDX-License-Identifier
	 * (6.1 only: 6.12 dropped the rule)
	 */
	if (e->cpv <= CP_6_1 &&
	    MQ(e, "^(drivers/net/|net/)", e->realfile.buf) &&
	    MQ(e, "^\\+[ \\t]*\\/\\*[ \\t]*$", prevrawline) &&
	    MQ(e, "^\\+[ \\t]*\\*", rawline) &&
	    e->realline > 3)
		WARN(e, R_NETWORKING_BLOCK_COMMENT_STYLE,
		     eng_cat(e, "networking block comments don't use an empty /* line, use /* Comment...\n",
			     e->hereprev));

	/* Block comments use * on subsequent lines */
	if (MQ(e, "$;[ \\t]*$", prevline) &&		/* ends in comment */
	    MQ(e, "^\\+.*?\\/\\*", prevrawline) &&	/* starting / * */
	    !MQ(e, "\\*\\/[ \\t]*$", prevrawline) &&	/* no trailing * / */
	    rawline[0] == '+' &&			/* line is new */
	    !MQ(e, "^\\+[ \\t]*\\*", rawline))		/* no leading * */
		WARN(e, R_BLOCK_COMMENT_STYLE,
		     eng_cat(e, "Block comments use * on subsequent lines\n",
			     e->hereprev));

	/* Block comments use * / on trailing lines */
	if (!MQ(e, "^\\+[ \\t]*\\*/[ \\t]*$", rawline) &&	/* trailing * / */
	    !MQ(e, "^\\+.*/\\*.*\\*/[ \\t]*$", rawline) &&	/* inline / *...* / */
	    !MQ(e, "^\\+.*\\*{2,}/[ \\t]*$", rawline) &&		/* trailing ** / */
	    MQ(e, "^\\+[ \\t]*.+\\*\\/[ \\t]*$", rawline))		/* non blank * / */
		WARN(e, R_BLOCK_COMMENT_STYLE,
		     eng_cat(e, "Block comments use a trailing */ on a separate line\n",
			     e->herecurr));

	/* Block comment * alignment */
	block_comment_align(e);

	/*
	 * check for missing blank lines after struct/union declarations
	 * with exceptions for various attributes and macros
	 */
	if (MQ(e, "^[\\+ ]};?\\s*$", prevline) &&
	    line[0] == '+' &&
	    !(MQ(e, "^\\+\\s*$", line) ||
	      (e->cpv >= CP_6_12 ?
	       MQ(e, "^\\+\\s*(?:EXPORT_SYMBOL|early_param|ALLOW_ERROR_INJECTION)", line) :
	       MQ(e, "^\\+\\s*(?:EXPORT_SYMBOL|early_param)", line)) ||
	      MQ(e, "(?i)^\\+\\s*MODULE_", line) ||
	      MQ(e, "^\\+\\s*\\#\\s*(?:end|elif|else)", line) ||
	      MQ(e, "^\\+[a-z_]*init", line) ||
	      MQ(e, "^\\+\\s*(?:static\\s+)?[A-Z_]*ATTR", line) ||
	      MQ(e, "^\\+\\s*DECLARE", line) ||
	      MQ(e, "^\\+\\s*builtin_[\\w_]*driver", line) ||
	      MQ(e, "^\\+\\s*__setup", line)))
		CHK(e, R_LINE_SPACING,
		    eng_cat(e, "Please use a blank line after function/struct/union/enum declarations\n",
			    e->hereprev));

	/* check for multiple consecutive blank lines */
	if (MQ(e, "^[\\+ ]\\s*$", prevline) &&
	    MQ(e, "^\\+\\s*$", line) &&
	    e->last_blank_line != e->linenr - 1) {
		CHK(e, R_LINE_SPACING,
		    eng_cat(e, "Please don't use multiple blank lines\n",
			    e->hereprev));
		e->last_blank_line = e->linenr;
	}

	/* check for missing blank lines after declarations */
	missing_blank_after_decl(e);

	/*
	 * check for spaces at the beginning of a line.
	 * Exceptions:
	 *  1) within comments
	 *  2) indented preprocessor commands
	 *  3) hanging labels
	 */
	if (!strncmp(rawline, "+ ", 2) &&
	    !MQ(e, "^\\+ *(?:$;|#|$Ident:)", line))
		WARN(e, R_LEADING_SPACE,
		     eng_cat(e, "please, no spaces at the start of a line\n",
			     herevet(e)));

	/* check we are in a valid C source file if not then ignore this hunk */
	if (!MQ(e, "\\.(h|c)$", e->realfile.buf))
		return SEG_NEXT;
	return SEG_GO;
}

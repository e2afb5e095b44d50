// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: C per-line checks before the statement scan (checkpatch.pl 6.1,
 * process(), from "check for unusual line ending [ or (" to just before
 * "Check for potential 'bare' types").  Only C files (.c, .h) get here.
 */
#include "eng.h"

#include <string.h>

#include "../banned.h"

int seg_c_lines(struct eng *e)
{
	const char *line = e->line, *sline = e->sline, *rawline = e->rawline;
	const char *prevline = e->prevline;

	/* check for unusual line ending [ or ( */
	if (M(e, "^\\+.*([\\[\\(])\\s*$", line))
		CHK(e, R_OPEN_ENDED_LINE,
		    eng_printf(e, "Lines should not end with a '%s'\n%s",
			       eng_cap(e, 1), e->herecurr));

	/* check if this appears to be the start function declaration, save the name */
	if (MQ(e, "^\\+\\{\\s*$", sline) &&
	    M(e, "^\\+(?:(?:(?:$Storage|$Inline)\\s*)*\\s*$Type\\s*)?($Ident)\\(", prevline)) {
		size_t n;
		const char *p = re_cap(&e->m, 1, &n);

		sbuf_reset(&e->context_function);
		sbuf_add(&e->context_function, p, n);
		e->has_context_function = 1;
	}

	/* check if this appears to be the end of function declaration */
	if (MQ(e, "^\\+\\}\\s*$", sline))
		e->has_context_function = 0;

	/*
	 * check indentation of any line with a bare else
	 * (but not if it is a multiple line "if (foo) return bar; else return baz;")
	 * if the previous line is a break or return and is indented 1 tab more...
	 */
	if (M(e, "^\\+([\\t]+)(?:}[ \\t]*)?else(?:[ \\t]*{)?\\s*$", sline)) {
		size_t tabs = re_end(&e->m, 1) - re_start(&e->m, 1) + 1;
		const char *next = eng_line(e, e->linenr + 1);

		if (MQ(e, eng_pat(e, "^\\+\\t{%zu,%zu}break\\b", tabs, tabs), prevline) ||
		    (MQ(e, eng_pat(e, "^\\+\\t{%zu,%zu}return\\b", tabs, tabs), prevline) &&
		     next &&
		     !MQ(e, eng_pat(e, "^[ \\+]\\t{%zu,%zu}return", tabs, tabs), next)))
			WARN(e, R_UNNECESSARY_ELSE,
			     eng_cat(e, "else is not generally useful after a break or return\n",
				     e->hereprev));
	}

	/*
	 * check indentation of a line with a break;
	 * if the previous line is a goto, return or break
	 * and is indented the same # of tabs
	 */
	if (M(e, "^\\+([\\t]+)break\\s*;\\s*$", sline)) {
		char *tabs = eng_cap(e, 1);

		if (M(e, eng_pat(e, "^\\+%s(goto|return|break)\\b", tabs), prevline))
			WARN(e, R_UNNECESSARY_BREAK,
			     eng_printf(e, "break is not useful after a %s\n%s",
					eng_cap(e, 1), e->hereprev));
	}

	/* check for RCS/CVS revision markers */
	if (MQ(e, "^\\+.*\\$(Revision|Log|Id)(?:\\$|)", rawline))
		WARN(e, R_CVS_KEYWORD,
		     eng_cat(e, "CVS style keyword markers, these will _not_ be updated\n",
			     e->herecurr));

	/* check for old HOTPLUG __dev<foo> section markings */
	if (M(e, "\\b(__dev(init|exit)(data|const|))\\b", line))
		WARN(e, R_HOTPLUG_SECTION,
		     eng_printf(e, "Using %s is unnecessary\n%s", eng_cap(e, 1),
				e->herecurr));
	return SEG_GO;
}

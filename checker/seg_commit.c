// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: the commit message and mail headers (checkpatch.pl 6.1,
 * process(), from "Verify the existence of a commit log" to just before
 * "ignore non-hunk lines and lines being removed").
 */
#include "eng.h"

#include <string.h>

#include "banned.h"

int seg_commit(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;

	/* Verify the existence of a commit log if appropriate; 2 is used
	 * because a $signature is counted in $commit_log_lines */
	if (e->in_commit_log) {
		if (!MQ(e, "^\\s*$", line))
			e->commit_log_lines++;
	} else if (e->has_commit_log && e->commit_log_lines < 2) {
		WARN(e, R_COMMIT_MESSAGE,
		     "Missing commit description - Add an appropriate one\n");
		e->commit_log_lines = 2;
	}

	/* Check if the commit log has what seems like a diff which can confuse patch */
	if (e->in_commit_log && !e->commit_log_has_diff &&
	    ((M(e, "^\\s+diff\\b.*a/([\\w/]+)", line) &&
	      MQ(e, eng_pat(e, "^\\s+diff\\b.*a/[\\w/]+\\s+b/%s\\b", eng_cap(e, 1)), line)) ||
	     MQ(e, "^\\s*(?:\\-\\-\\-\\s+a/|\\+\\+\\+\\s+b/)", line) ||
	     MQ(e, "^\\s*\\@\\@ \\-\\d+,\\d+ \\+\\d+,\\d+ \\@\\@", line))) {
		ERROR(e, R_DIFF_IN_COMMIT_MSG,
		      eng_cat(e, "Avoid using diff content in the commit message - patch(1) might not work\n",
			      e->herecurr));
		e->commit_log_has_diff = 1;
	}

	/* Check for incorrect file permissions */
	if (MQ(e, "^new (file )?mode.*[7531]\\d{0,2}$", line)) {
		char *permhere = eng_printf(e, "%sFILE: %s\n", e->here.buf, e->realfile.buf);

		if (!MQ(e, "scripts/", e->realfile.buf) &&
		    !MQ(e, "\\.(py|pl|awk|sh)$", e->realfile.buf))
			ERROR(e, R_EXECUTE_PERMISSIONS,
			      eng_cat(e, "do not set execute permissions for source files\n", permhere));
	}

	/* Check the patch for a From: */
	if (M(e, "^From:\\s*(.*)", line)) {
		char *author = eng_cap(e, 1);
		long cur = e->linenr;
		const char *r;

		while ((r = eng_rawline(e, cur + 1)) && (cur++, M(e, "^[ \\t]\\s*(.*)", r)))
			author = eng_cat(e, author, eng_cap(e, 1));
		author = eng_subst(e, "\"", "", author, 1);
		author = reformat_email(e, author);
		sbuf_reset(&e->author);
		sbuf_addstr(&e->author, author);
	}

	/* Check the patch for a signoff: */
	if (M(e, "(?i)^\\s*signed-off-by:\\s*(.*)", line)) {
		char *ctx = eng_cap(e, 1);

		e->signoff++;
		e->in_commit_log = 0;
		if (e->author.len && e->authorsignoff != 1) {
			if (same_email_addresses(e, ctx, e->author.buf)) {
				e->authorsignoff = 1;
			} else {
				struct email_parts a, b;

				parse_email(e, ctx, &a);
				parse_email(e, e->author.buf, &b);
				if (!strcasecmp(a.address, b.address) &&
				    !strcmp(a.name, b.name)) {
					sbuf_reset(&e->author_sob);
					sbuf_addstr(&e->author_sob, ctx);
					e->authorsignoff = 2;
				} else if (!strcasecmp(a.address, b.address)) {
					sbuf_reset(&e->author_sob);
					sbuf_addstr(&e->author_sob, ctx);
					e->authorsignoff = 3;
				} else if (!strcmp(a.name, b.name)) {
					char *a1 = a.address, *a2 = b.address;

					sbuf_reset(&e->author_sob);
					sbuf_addstr(&e->author_sob, ctx);
					e->authorsignoff = 4;
					if (M(e, "(\\S+)\\+\\S+(\\@.*)", a1))
						a1 = eng_cat(e, eng_cap(e, 1), eng_cap(e, 2));
					if (M(e, "(\\S+)\\+\\S+(\\@.*)", a2))
						a2 = eng_cat(e, eng_cap(e, 1), eng_cap(e, 2));
					if (!strcmp(a1, a2))
						e->authorsignoff = 5;
				}
			}
		}
	}

	/* Check for patch separator */
	if (!strcmp(line, "---")) {
		e->has_patch_separator = 1;
		e->in_commit_log = 0;
	}

	/* Check if MAINTAINERS is being updated. */
	if (MQ(e, "^\\s*MAINTAINERS\\s*\\|", line))
		e->reported_maintainer_file = 1;

	/* Check if it's the start of a commit log (not a header line and we
	 * haven't seen the patch filename) */
	if (e->in_header_lines && !e->realfile.len &&
	    !(MQ(e, "^\\s+(?:\\S|$)", rawline) ||
	      MQ(e, "(?i)^(?:commit\\b|from\\b|[\\w-]+:)", rawline))) {
		e->in_header_lines = 0;
		e->in_commit_log = 1;
		e->has_commit_log = 1;
	}
	return SEG_GO;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * backport: whether a posted series is a stable backport, a change
 * merged upstream already and sent again for a stable branch, so that
 * its review is stored and shown but not mailed unless the list asks
 * ([source] review_backports, bot/pipeline_review.c).
 *
 * A series is one when its subject's tags name a stable branch or
 * AUTOSEL (Documentation/process/stable-kernel-rules.rst and the
 * stable maintainers' scripts):
 *   "[PATCH 6.6.y] ...", "[PATCH v2 6.1.y 1/3]", "[PATCH 5.15 12/34]",
 *   "[PATCH AUTOSEL 7.0] ...", "[PATCH AUTOSEL 4.9 07/91]",
 *   "[PATCH stable 6.1]", "[PATCH 4.19-stable]", "[PATCH linux-6.6.y]"
 * ("for-6.6" names a mainline cycle, not a stable branch: no), or when
 * its commit message carries the line the stable scripts put there:
 *   "[ Upstream commit <sha> ]"    (Sasha Levin's, AUTOSEL's)
 *   "commit <sha> upstream."       (Greg Kroah-Hartman's)
 * with 12 to 40 hex digits of <sha>, alone on its line.  Nothing here
 * allocates; lines are read within the lengths given.
 */
#ifndef RB_BACKPORT_H
#define RB_BACKPORT_H

#include <stddef.h>

/* 1 when subject s[0, n) tags the patch for a stable branch or AUTOSEL;
 * why gets the tag ("6.6.y", "AUTOSEL") when not NULL. */
int backport_subject(const char *s, size_t n, char *why, size_t whylen);

/* 1 when the line l[0, n) (no newline; blanks around it allowed) is a
 * stable upstream-commit line. */
int backport_upstream_line(const char *l, size_t n);

/* 1 when the commit message of a patch mail's body b[0, n) (the lines
 * before its first "---" or "diff --git" line) holds an upstream-commit
 * line. */
int backport_body(const char *b, size_t n);

/* 1 when a checkpatch.pl report text (its "#N: " line, then the line it
 * quotes) quotes an upstream-commit line of the commit message: the
 * stable line is no commit reference to reword (GIT_COMMIT_ID). */
int backport_report_on_upstream_line(const char *text);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commit: the commit-message part of a patch as mailed -- the headers
 * that matter (Subject, From, Date, Message-ID; folded lines unfolded,
 * RFC 2047 words decoded to UTF-8), the body before the "---" separator or
 * the diff, and its trailers (Signed-off-by:, Fixes:, Link:, ...).
 *
 * Input is one patch (a git format-patch file or one mail); the first
 * "From " line of an mbox is skipped.  Every string is owned by the result
 * and bounded by the caps below.
 */
#ifndef RB_COMMIT_H
#define RB_COMMIT_H

#include <stddef.h>

#define CHK_COMMIT_MAX_HEADER	(64u << 10)	/* bytes of one unfolded header */
#define CHK_COMMIT_MAX_TRAILERS	1024

struct chk_trailer {
	char *tag;		/* "Signed-off-by", as written */
	char *value;		/* trimmed */
	long patch_line;	/* 1-based */
};

struct chk_commit {
	char *subject;		/* NULL when there is none */
	char *from;
	char *date;
	char *message_id;	/* without the angle brackets */
	long body_line;		/* first line of the body, 0 when none */
	long body_lines;	/* lines of the body (up to the separator) */
	const char *body;	/* slice of the input */
	size_t body_len;
	struct chk_trailer *trailers;
	size_t ntrailers;
	long signoffs;		/* Signed-off-by: trailers */
	long separator_line;	/* the "---" line, 0 when none */
	long diff_line;		/* first diff header line, 0 when none */
	int truncated;		/* a cap was reached */
};

/* Parses buf[0, len).  Returns 0, or -1 when out of memory (out is then
 * released). */
int chk_commit_parse(const char *buf, size_t len, struct chk_commit *out);
void chk_commit_release(struct chk_commit *c);

#endif

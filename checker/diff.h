/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * diff: a unified-diff parser for patches as mailed (git format-patch,
 * git diff, plain diff -u).  It finds every file with its old and new path
 * (a/ b/ prefixes removed, git's quoted names unquoted), whether it is new,
 * deleted, renamed, copied, mode-only or binary (binary contents are
 * skipped), and every hunk with its line counts checked against its body.
 * Each line knows its number in the new (or old) file and in the patch
 * (1-based, checkpatch.pl's "#N:").
 *
 * Lines point into the caller's buffer, which must outlive the result.
 * Everything mail controls is bounded by struct diff_limits.
 */
#ifndef RB_DIFF_H
#define RB_DIFF_H

#include <stddef.h>

enum diff_flag {
	DIFF_NEW = 1 << 0,
	DIFF_DELETED = 1 << 1,
	DIFF_RENAMED = 1 << 2,
	DIFF_COPIED = 1 << 3,
	DIFF_MODE_CHANGE = 1 << 4,
	DIFF_BINARY = 1 << 5,
	DIFF_GIT = 1 << 6,	/* had a "diff --git" header */
};

enum diff_hunk_err {
	DIFF_HUNK_OK = 0,
	DIFF_HUNK_SHORT,	/* the body ended before the counts were met */
	DIFF_HUNK_BAD_HEADER,	/* numbers out of range in the @@ line */
};

struct diff_line {
	char kind;		/* '+', '-', ' ' */
	unsigned char no_newline; /* followed by "\ No newline at end of file" */
	unsigned char crlf;	/* ended in CR LF (text excludes the CR) */
	const char *text;	/* after the kind character */
	size_t len;
	long old_line;		/* 0 for '+' lines */
	long new_line;		/* 0 for '-' lines */
	long patch_line;	/* line of the patch, 1-based */
};

struct diff_hunk {
	long old_start, old_count, new_start, new_count;
	long patch_line;	/* of the @@ line */
	const char *section;	/* text after the second @@ */
	size_t section_len;
	size_t first_line, nlines;	/* into diff.lines */
	enum diff_hunk_err err;
};

struct diff_file {
	char *old_path;		/* NULL for a new file */
	char *new_path;		/* NULL for a deleted file */
	unsigned flags;		/* enum diff_flag */
	unsigned old_mode, new_mode;	/* 0 when not given */
	int similarity;		/* rename/copy similarity %, -1 when none */
	long patch_line;	/* of the first header line */
	size_t first_hunk, nhunks;	/* into diff.hunks */
	long added, removed;
};

struct diff_limits {
	size_t max_files;
	size_t max_hunks;
	size_t max_lines;
	size_t max_path;
};

#define DIFF_DEFAULT_MAX_FILES	50000
#define DIFF_DEFAULT_MAX_HUNKS	1000000
#define DIFF_DEFAULT_MAX_LINES	8000000
#define DIFF_DEFAULT_MAX_PATH	4096

enum diff_result {
	DIFF_OK = 0,
	DIFF_ERR_NOMEM = -1,
	DIFF_ERR_LIMIT = -2,	/* a limit was reached; the rest is ignored */
};

struct diff {
	struct diff_file *files;
	size_t nfiles;
	struct diff_hunk *hunks;
	size_t nhunks;
	struct diff_line *lines;
	size_t nlines;
	long bad_hunks;		/* hunks whose counts lie */
	long first_diff_line;	/* patch line where the first file starts, 0 if none */
};

void diff_limits_init(struct diff_limits *lim);
/* Parses buf[0, len).  lim may be NULL for the defaults.  On an error the
 * files parsed so far stay in out; diff_release() it either way. */
int diff_parse(const char *buf, size_t len, const struct diff_limits *lim,
	       struct diff *out);
void diff_release(struct diff *d);
const char *diff_strerror(int err);
/* The path a file is known by: the new path, or the old one if deleted. */
const char *diff_file_path(const struct diff_file *f);

#endif

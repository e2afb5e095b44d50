/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cview: the C code a patch shows, one side at a time, as tokens.
 *
 * The new side of a patch is what its context and added lines say the
 * files hold after it; the old side is its context and removed lines.
 * Each hunk's side is a fragment: its lines in file order and their
 * tokens (ctok.h), a CTK_GAP token between two fragments.  A fragment
 * starts with the tokens of its hunk header's section text (git's
 * "function name" after the second @@), flagged CVF_SECTION, so code that
 * starts inside a function still has that function's header.
 *
 * The top-level items of each fragment are found by bracket structure:
 * function definitions (a parameter list followed by a body), struct and
 * union definitions, and variables with a brace initializer; an item
 * whose start is above the hunk (the fragment opens inside it) is known
 * from the section text, its head marked missing.
 *
 * A view owns its lines, tokens and items; the lines point into the
 * buffer diff_parse() read, which must outlive the view.  Every count is
 * bounded (CVIEW_MAX_*); a view cut by a limit says so in err, and what it
 * holds is still valid.
 */
#ifndef RB_CVIEW_H
#define RB_CVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "../diff.h"
#include "ctok.h"

#define CVIEW_MAX_TOKENS	(1u << 21)
#define CVIEW_MAX_ITEMS		(1u << 16)

/* token flags (struct ctok.flags) */
enum {
	CVF_CHANGED = 1 << 0,	/* on an added line (new side) or a removed
				 * one (old side), unless its change block (a
				 * run of '-' and '+' lines) has it with other
				 * white space: re-indenting changes nothing */
	CVF_SECTION = 1 << 1,	/* from the hunk header's section text */
};

struct cv_line {
	const char *s;		/* the code, after the diff's kind character */
	size_t n;
	long pline;		/* line of the patch, 1-based */
	long fline;		/* line in this side's file, 0 for a section */
	char kind;		/* '+', '-', ' ', or '@' for a section */
};

struct cv_frag {
	size_t file;		/* into files */
	size_t line0, nlines;	/* into lines */
	size_t tok0, ntok;	/* into tb.t: the section's tokens, then the code's */
	size_t code0;		/* the first token of the code (after the section) */
};

struct cv_file {
	const char *path;	/* this side's path */
	unsigned flags;		/* enum diff_flag */
	int is_c;		/* .c or .h */
	int is_header;		/* .h */
	int kernel;		/* kernel C: not tools/, scripts/, usr/, a boot stub */
	size_t frag0, nfrags;
	long added;		/* lines this side changed */
};

enum cv_item_kind {
	CVI_FUNC = 1,		/* a function definition */
	CVI_STRUCT,		/* struct or union definition (fields in the body) */
	CVI_VAR,		/* a variable with a brace initializer */
};

struct cv_item {
	enum cv_item_kind kind;
	size_t frag;
	size_t t0;		/* first token of the item (its type, storage...) */
	size_t name;		/* its name's token, or SIZE_MAX */
	size_t p0, p1;		/* CVI_FUNC: '(' and ')' of its parameters, or
				 * SIZE_MAX when not shown */
	size_t b0;		/* '{' of its body, SIZE_MAX when above the hunk */
	size_t in0, in1;	/* the body's tokens, braces excluded: in1 is its
				 * '}', or the fragment's end when the body goes
				 * on below the hunk */
	int head_missing;	/* starts above the hunk (section text only) */
	int tail_missing;	/* goes on below the hunk */
	int changed;		/* a changed line is in [t0, in1) */
};

struct cview {
	char side;		/* '+' or '-' */
	struct cv_file *files;
	size_t nfiles;
	struct cv_frag *frags;
	size_t nfrags;
	struct cv_line *lines;
	size_t nlines;
	struct ctok_buf tb;
	struct cv_item *items;
	size_t nitems;
	int err;		/* a limit or memory cut the view */
};

/* The view of side ('+' new, '-' old) of a parsed diff. 0, or -1 (err). */
int cview_build(struct cview *v, const struct diff *d, char side);
void cview_release(struct cview *v);

/* The line of token i. */
static inline const struct cv_line *cview_line(const struct cview *v, size_t i)
{
	return &v->lines[v->tb.t[i].line];
}

/* The fragment's tokens end here (exclusive). */
static inline size_t cview_frag_end(const struct cview *v, size_t frag)
{
	return v->frags[frag].tok0 + v->frags[frag].ntok;
}

/* The name of an item as a token, or NULL. */
const struct ctok *cview_item_name(const struct cview *v, const struct cv_item *it);

/* Whether s[0, n) names kernel C (kernel .c/.h, not user-space tools). */
int cview_kernel_path(const char *path);

#endif

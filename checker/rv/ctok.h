/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctok: a C tokenizer for the code a patch shows.
 *
 * The input is a run of source lines (a hunk's new or old side), each
 * given as a pointer and a length; tokens point into those lines and
 * carry the index of their line, so a finding can be put back on the
 * patch line that holds it.  Comments (block comments across lines too)
 * and white space are skipped; a preprocessor directive is one CTK_PP
 * token (its continuation lines included); string and character literals
 * are one token each, adjacent string literals are not joined.
 *
 * What mail controls is bounded: a tokenizer is made with a cap on its
 * tokens (ctok_init()), and past it ctok_push_line() refuses more and
 * sets err.  Nothing is allocated per token beyond the token array.
 */
#ifndef RB_CTOK_H
#define RB_CTOK_H

#include <stddef.h>
#include <stdint.h>

enum ctok_kind {
	CTK_IDENT = 1,		/* identifiers and keywords */
	CTK_NUMBER,
	CTK_STRING,		/* "..." (with an encoding prefix) */
	CTK_CHAR,		/* '...' */
	CTK_PUNCT,		/* operators and punctuators, longest match */
	CTK_PP,			/* a whole preprocessor directive */
	CTK_GAP,		/* lines not shown (between two hunks) */
};

struct ctok {
	const char *s;		/* into the line it came from */
	uint32_t len;
	uint16_t kind;		/* enum ctok_kind */
	uint16_t flags;		/* the line's flags (ctok_push_line()) */
	uint32_t line;		/* the caller's line number for it */
};

struct ctok_buf {
	struct ctok *t;
	size_t n, alloc, cap;
	int err;		/* the cap or memory ran out: tokens are cut */
	/* between lines */
	int in_comment;		/* inside a block comment */
	int in_pp;		/* the last directive ends in a backslash */
};

#define CTOK_MAX_DEFAULT	(1u << 20)	/* tokens of one input */

void ctok_init(struct ctok_buf *tb, size_t cap);
void ctok_release(struct ctok_buf *tb);
/*
 * Tokenizes one line (s, n; no newline) as the continuation of the lines
 * before it; line and flags are copied into its tokens.  0, or -1 when
 * the cap or memory ran out (tb->err set, the line's tokens cut).
 */
int ctok_push_line(struct ctok_buf *tb, const char *s, size_t n,
		   uint32_t line, uint16_t flags);
/* A CTK_GAP token: the code goes on elsewhere (the state is reset). */
int ctok_push_gap(struct ctok_buf *tb, uint32_t line);

/* Whether t is the punctuator or identifier text w. */
int ctok_is(const struct ctok *t, const char *w);
int ctok_is_ident(const struct ctok *t, const char *w);
/* Whether t is an identifier that starts with prefix. */
int ctok_ident_prefix(const struct ctok *t, const char *prefix);
/*
 * Whether t is an identifier named in the NULL-terminated list names; a
 * name that ends in '*' stands for every identifier that starts with it.
 */
int ctok_ident_in(const struct ctok *t, const char *const *names);
/* Whether identifiers a and b have the same text. */
int ctok_same(const struct ctok *a, const struct ctok *b);

/*
 * The index of the token that closes the bracket at i ('(', '[' or '{'),
 * not searching past end; end when it does not close before it (or when
 * a CTK_GAP comes first).
 */
size_t ctok_match(const struct ctok *t, size_t i, size_t end);

/* Whether a C keyword that is not a type: if, for, return, sizeof... */
int ctok_keyword(const struct ctok *t);

#endif

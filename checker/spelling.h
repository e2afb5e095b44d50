/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The misspelling list of checkpatch.pl's TYPO_SPELLING check.
 *
 * checkpatch.pl loads scripts/spelling.txt ("typo||fix" lines) and, with
 * --codespell, codespell's dictionary.txt ("typo->fix, fix2" lines) into
 * one hash, then searches each line with one giant case-insensitive
 * alternation of the sorted keys:
 *
 *   while ($rawline =~ /(?:^|[^\w\-'`])($misspellings)(?:[^\w\-'`]|$)/gi)
 *
 * This module keeps the keys in a hash table and finds exactly the matches
 * that loop finds, in the same order, without building the regex: at each
 * place the regex engine would try, every key length that can match there
 * is looked up and the first key in sorted order wins, as Perl's ordered
 * alternation does.
 *
 * Bytes, not characters: \w and case folding are ASCII-only, as in Perl on
 * byte strings.  Keys are literal text (checkpatch.pl interpolates them as
 * regex source, which only differs for keys holding regex metacharacters;
 * neither list has any).
 */
#ifndef RB_SPELLING_H
#define RB_SPELLING_H

#include <stddef.h>

struct sbuf;

#define CHK_SPELLING_MAX_INPUT	(64u << 20)	/* bytes of all lists */
#define CHK_SPELLING_MAX_KEY	256		/* longer keys are ignored */

struct chk_spelling;

/*
 * Builds a list from buf[0, len), one entry a line.  Each line is read the
 * way checkpatch.pl reads its lists: surrounding whitespace trimmed, blank
 * lines and lines starting with '#' skipped; then a line holding "||" is a
 * spelling.txt entry (typo||fix), any other line a codespell one (skipped
 * when it says ", disabled", cut at the first ',', then typo->fix).  A
 * later entry for the same typo replaces the earlier one, so loading
 * spelling.txt then codespell's dictionary (checkpatch.pl --codespell) is
 * one call on the two files joined, or chk_spelling_add() for the second.
 * Returns NULL when out of memory or past CHK_SPELLING_MAX_INPUT.
 */
struct chk_spelling *chk_spelling_new(const char *buf, size_t len);
/*
 * Adds more entries to sp; 0 or -1 (nothing added on error).  On a list
 * made from an image, the image's arrays are copied first (the image is
 * never written).
 */
int chk_spelling_add(struct chk_spelling *sp, const char *buf, size_t len);
void chk_spelling_free(struct chk_spelling *sp);

/*
 * An image of a list: a position-independent copy of its memory that
 * chk_spelling_from_image() turns back into the same list without
 * parsing or hashing, so that a program can cache the list in a file and
 * map it.  Its format is CHK_SPELLING_IMAGE_VERSION (a new format, a new
 * number); it holds the byte order and the word size of the machine that
 * wrote it and loads only on a machine that agrees.
 */
#define CHK_SPELLING_IMAGE_VERSION	2u

/* Appends the image of sp to out; 0, or -1 when out refused it. */
int chk_spelling_image(const struct chk_spelling *sp, struct sbuf *out);
/*
 * The list an image holds, or NULL when buf[0, len) is not an image of
 * this format or is damaged: every size, offset and index is checked
 * against len in one pass (O(entries + slots)), so that no input can make
 * a lookup leave the buffer or loop (damage that can only change answers,
 * in a key's bytes or a hash, is not looked for).  The list borrows buf
 * (8-byte aligned, as from malloc or mmap): the caller keeps it alive and
 * unchanged until chk_spelling_free().  A list from an image answers
 * chk_spelling_next() and chk_spelling_fix() exactly as the list the
 * image was made from.
 */
struct chk_spelling *chk_spelling_from_image(const void *buf, size_t len);

/* Number of distinct typos (Perl's keys %spelling_fix). */
size_t chk_spelling_count(const struct chk_spelling *sp);

/*
 * The next match of checkpatch.pl's spelling loop in s[0, n), starting
 * the search at *pos (0 for the first call): returns 1 and sets
 * *start and *len to the typo ($-[1] and length($1)) and *pos to where Perl's
 * pos() is left (after the boundary character the match ate), or returns
 * 0 when there is none.
 */
int chk_spelling_next(const struct chk_spelling *sp, const char *s, size_t n,
		      size_t *pos, size_t *start, size_t *len);

/*
 * $spelling_fix{lc($typo)}: the fix of the entry whose typo is exactly
 * the ASCII-lowercased text, or NULL (Perl's undef) when there is none.
 */
const char *chk_spelling_fix(const struct chk_spelling *sp, const char *typo,
			     size_t n);

#endif

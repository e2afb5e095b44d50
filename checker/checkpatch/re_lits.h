/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal to re.c and re_lits.c: the literal pretest, and the name
 * characters of "$Name" both read.
 */
#ifndef RB_RE_LITS_H
#define RB_RE_LITS_H

#include <stddef.h>
#include <stdint.h>

#define RE_LIT_MAX	24		/* bytes of a literal kept for a pretest */

static inline int is_name_start(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static inline int is_name_char(int c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

/*
 * Up to two of the longest literal strings every match of pat must
 * contain, into lit and litn; returns how many (0 when none is sure).
 * Interpolated names are groups of their own, except $typeTypedefs when
 * typedefs (--typedefsfile words) adds an alternation to it.  A pattern
 * that starts with (?i) has its literals matched without case: *icase is
 * set and they are written in lower case.
 */
int re_lits_scan(const char *pat, int typedefs, char lit[2][RE_LIT_MAX],
		 unsigned char litn[2], unsigned char *icase);
/* Whether s[0, n) holds all nlit literals (ASCII letters in any case when
 * icase). */
int re_lits_in(const char lit[2][RE_LIT_MAX], const unsigned char litn[2],
	       int nlit, int icase, const char *s, size_t n);

/*
 * A subject's summary for the literal pretest, made once for a subject
 * many patterns run on: which bytes and which pairs of adjacent bytes it
 * holds, hashed into 256 bits (ASCII letters folded to lower case).  A
 * pattern's literals get the same bits (re_lits_sig()); a subject whose
 * summary lacks one of them holds none of the literals, one that has
 * them all must still be searched (re_lits_in()).
 */
struct re_summary {
	int ready;		/* 0: not made yet (re.c makes it when first needed) */
	uint64_t bits[4];
};
void re_summarize(const char *s, size_t n, struct re_summary *sum);
void re_lits_sig(const char (*lit)[RE_LIT_MAX], const unsigned char *litn,
		 int nlit, uint64_t sig[4]);
/* whether a subject summarized as sum may hold literals of signature sig */
static inline int re_lits_may(const struct re_summary *sum, const uint64_t sig[4])
{
	return !((sig[0] & ~sum->bits[0]) | (sig[1] & ~sum->bits[1]) |
		 (sig[2] & ~sum->bits[2]) | (sig[3] & ~sum->bits[3]));
}

/*
 * The end pretest, for a pattern that ends in one-byte items and optional
 * white space before its final $ (like "}\\s*$" or "$;[ \\t]*$"): the
 * bytes set the last of them can be, and the white space wset that may
 * follow it (none of set).  Returns 0 when the pattern has no such end
 * (or flags that would change it: any but s), 1 when it has one, 2
 * when at least one byte of wset must end every match (like "\\S\\s+$").
 * re_end_ok() then says whether s[0, n) may match: its last byte outside
 * wset (or the one before a final newline, where $ also matches) is in
 * set, and, with req, it is not the subject's last.
 */
int re_end_scan(const char *pat, uint8_t set[32], uint8_t wset[32]);
int re_end_ok(const uint8_t set[32], const uint8_t wset[32], int req,
	      const char *s, size_t n);

#endif

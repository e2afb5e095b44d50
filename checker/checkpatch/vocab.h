/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The named patterns of checkpatch.pl ($Ident, $Type, $Constant, ...) that
 * checker patterns interpolate.  Static entries are constant; the entries
 * built from the learned type lists are marked dynamic and built by
 * vocab_build_types() into the re_ctx.
 */
#ifndef RB_VOCAB_H
#define RB_VOCAB_H

#include <stddef.h>

enum vocab_kind {
	VOCAB_QR,	/* a qr// object: interpolated as (?^flags:src) */
	VOCAB_STR,	/* a plain string: interpolated as is */
	VOCAB_DYN,	/* built at run time from the type lists (a qr) */
};

struct vocab {
	const char *name;
	const char *src;	/* NULL for VOCAB_DYN */
	const char *flags;	/* "", "i", ... */
	enum vocab_kind kind;
	int dyn;		/* index into the dynamic table */
	/*
	 * The checkpatch.pl versions of this row (CPV_ bits, rules.h), 0 for
	 * every version: a name whose definition changed has a row per
	 * definition, and a pattern that interpolates it depends on the
	 * version (re.c compiles it per version).
	 */
	unsigned cpv;
};

enum vocab_dyn {
	VDYN_MODIFIER,
	VDYN_BASICTYPE,
	VDYN_NONPTRTYPE,
	VDYN_NONPTRTYPEMISORDERED,
	VDYN_NONPTRTYPEWITHATTR,
	VDYN_TYPE,
	VDYN_TYPEMISORDERED,
	VDYN_DECLARE,
	VDYN_DECLAREMISORDERED,
	VDYN__COUNT
};

/*
 * The row of name[0, n) for version cpv (enum cp_version), or NULL.
 * vocab_find() gives a name's first row whatever the version: its
 * caller must not rely on a row with cpv set.
 */
const struct vocab *vocab_find_v(const char *name, size_t n, int cpv);
const struct vocab *vocab_find(const char *name, size_t n);

struct sbuf;
/*
 * Builds the sources of the dynamic entries from the learned words (each
 * list NUL-separated, count entries) into out[VDYN__COUNT], as
 * checkpatch.pl's build_types() does.
 */
void vocab_build_types(const char *const *mods, size_t nmods,
		       const char *const *types, size_t ntypes,
		       struct sbuf *out);

/*
 * Necessary conditions for the modifier and misordered-type words, to pass
 * over a subject before a long pattern is tried on it (each is exact: it
 * says no only when no match is possible).
 *
 * vocab_may_hold_modifier: whether s can hold a $Modifier word that is
 * not learned from the file: every one holds "__" or is const, volatile or
 * fastcall.  With learned modifiers, ask the pattern.
 * vocab_may_hold_misordered: whether s can hold a $NonptrTypeMisordered
 * match: every one holds "signed" or "short".  With c90 set, or a
 * $C90_int_types match: every one holds "int" or "long".
 * (tests/unit/test_re.c checks both against the patterns.)
 */
int vocab_may_hold_modifier(const char *s);
int vocab_may_hold_misordered(const char *s, int c90);
/*
 * Whether $Type, $NonptrType or $Modifier, with no learned word and no
 * --typedefsfile word (re_learned_word_at() answers for those), may match
 * at the start of s: every alternative starts with one of the two-byte
 * starts the look-aheads of vocab.c name, with "fa" (fastcall) or "ty"
 * (typeof), or is ${Ident}_t, ${Ident}_handler or ${Ident}_handler_fn,
 * whose identifier's words (joined by ##) hold one that ends so.
 */
int vocab_may_start_type(const char *s);

/* pcre2's (and Perl's) \s: the bytes the patterns' white space means */
static inline int vocab_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

#endif

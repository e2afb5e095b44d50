/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * re: Perl-compatible patterns for the checker, written the way
 * checkpatch.pl writes them.
 *
 * A pattern is a C string literal in Perl syntax.  "$Name" or "${Name}"
 * interpolates a named pattern of the vocabulary (vocab.c) exactly as Perl
 * interpolates a qr// object: wrapped in "(?^flags:...)" so its own flags
 * hold.  "$;" is checkpatch's comment filler, byte 0x1c.
 *
 * Patterns are compiled lazily, the first time they are used, and cached
 * in the re_ctx keyed by the literal's address: a call site costs one
 * compile per process.  Patterns that interpolate the learned type lists
 * ($Type, $Declare, ...) are recompiled when those lists change, but only
 * for subjects that hold a learned word (re.c: struct re_entry).  A
 * pattern is JIT-compiled once pcre2's interpreter has spent on it what
 * the JIT compile costs.  A subject that lacks a
 * literal string every match needs is not matched at all.
 *
 * Subjects are byte strings with an explicit length (they may hold NUL);
 * no UTF-8 mode, as checkpatch.pl works on bytes.
 */
#ifndef RB_RE_H
#define RB_RE_H

#include <stddef.h>
#include <stdint.h>

#include "../sbuf.h"

#define RE_MAXCAP 20	/* capture groups a caller can read */

struct re_ctx;

struct re_m {
	const char *s;		/* the subject */
	size_t n;
	int ncap;		/* groups set, including group 0 */
	size_t ov[2 * (RE_MAXCAP + 1)];
};

struct re_ctx *re_ctx_new(void);
void re_ctx_free(struct re_ctx *rc);
/*
 * Back to the state re_ctx_new() and the same re_set_typedefs() and
 * re_use_precompiled() calls give, as far as any match can tell: no error,
 * no learned words, failed patterns tried again.  Compiled (and
 * JIT-compiled) patterns and interned ones (keyed by their text) are kept.
 */
void re_ctx_reset(struct re_ctx *rc);

/*
 * Patterns compiled ahead of time (tools/mkpatterns.c writes the table at
 * build time): each entry is a pattern's literal text and its pcre2
 * serialized code (less the set's prefix), compiled with no learned
 * types.  Sorted by text (strcmp).  A pattern found here is decoded
 * instead of compiled.
 */
struct re_precompiled {
	const char *text;
	const unsigned char *bytes;
	unsigned int len;
	unsigned char dyn;	/* interpolates the learned types */
	/*
	 * The checkpatch.pl versions (enum cp_version bits) this code is
	 * for, 0 for every one: a pattern that interpolates a name whose
	 * definition changed between versions (vocab.h) is in the table once
	 * per version, each with its own bit.
	 */
	unsigned short cpv;
	/*
	 * The literal pretest's strings (re_lits_scan() without typedefs):
	 * nlit of them, litn[i] bytes each, one after the other at lits.
	 */
	signed char nlit;
	unsigned char litn[2];
	unsigned char icase;	/* matched in either case (lower case here) */
	const char *lits;
	/* the end pretest's two byte sets (re_end_scan()), or NULL */
	const unsigned char *ends;
	unsigned char endreq;	/* ... and a white space byte must end it */
};

struct re_precompiled_set {
	const struct re_precompiled *v;
	size_t n;
	const char *pcre2_version;	/* the serialization must match */
	/*
	 * What each serialization starts with, held once: pcre2's header
	 * and character tables.  An entry's bytes are its code alone.
	 */
	const unsigned char *prefix;
	size_t prefix_len;
};

void re_use_precompiled(struct re_ctx *rc, const struct re_precompiled_set *set);

/*
 * Calls cb for every literal (not interned) pattern compiled so far, with
 * its code serialized as compiled without learned types, and cpv the
 * bit of the context's version when the code depends on it (else 0).
 * For the build tool; returns the number exported or -1.
 */
int re_export(struct re_ctx *rc,
	      int (*cb)(void *arg, const char *text, int dyn, unsigned cpv,
			const unsigned char *bytes, size_t len),
	      void *arg);

/*
 * The checkpatch.pl version (enum cp_version, rules.h) whose definitions
 * of the vocabulary's names the patterns interpolate; 0 (6.1) in a new
 * context.  A change drops what was compiled for the other version.
 */
void re_set_version(struct re_ctx *rc, int cpv);
int re_version(const struct re_ctx *rc);

/* Compiles so far, for tests and the benchmark. */
unsigned long re_compiles(const struct re_ctx *rc);
/* JIT compiles so far (see re.c: a pattern is JIT-compiled once its
 * interpreted matches took as long as that would). */
unsigned long re_jits(const struct re_ctx *rc);
/* Precompiled patterns decoded so far (see re_use_precompiled()). */
unsigned long re_decodes(const struct re_ctx *rc);
/*
 * JIT code is memory (about twice its size resident): it is compiled
 * while what was compiled so far is under a budget, RE_JIT_BUDGET_BASE
 * plus what the caller adds for the text it checks, so that it grows
 * with the text it serves.  Past the budget, patterns stay interpreted.
 */
#define RE_JIT_BUDGET_BASE	(256u << 10)
void re_jit_budget_add(struct re_ctx *rc, size_t bytes);
/* Bytes of JIT code compiled so far. */
size_t re_jit_code(const struct re_ctx *rc);

/*
 * Matches pat against s[0, n) starting at offset start.  Returns 1 on a
 * match (m filled when not NULL), 0 on none.  Errors (a bad pattern, a
 * match limit) count as no match and are kept: see re_error().
 */
int re_find(struct re_ctx *rc, const char *pat, const char *s, size_t n,
	    size_t start, struct re_m *m);

/* Convenience on NUL-terminated subjects. */
int re_match(struct re_ctx *rc, const char *pat, const char *s,
	     struct re_m *m);
/*
 * re_match() on s whose length n (strlen(s)) the caller knows, with its
 * summary for the literal pretest or NULL: made the first time a pattern
 * needs it (sum->ready 0), or re_summarize() of s[0, n) already.
 */
struct re_summary;
int re_match_sum(struct re_ctx *rc, const char *pat, const char *s, size_t n,
		 struct re_summary *sum, struct re_m *m);

/* Group i of a match: pointer and length, or NULL when the group is unset. */
const char *re_cap(const struct re_m *m, int i, size_t *len);
/* Appends group i (nothing when unset) to out; returns whether it was set. */
int re_cap_add(const struct re_m *m, int i, struct sbuf *out);
/* Group i copied into a buffer of size sz (truncated); "" when unset. */
const char *re_cap_str(const struct re_m *m, int i, char *buf, size_t sz);
int re_cap_defined(const struct re_m *m, int i);
size_t re_start(const struct re_m *m, int i);	/* $-[i] */
size_t re_end(const struct re_m *m, int i);	/* $+[i] */

/*
 * s/pat/repl/[g]: Perl replacement syntax ($1, ${1}) on s[0, n); the
 * result replaces out's content.  Returns the number of substitutions.
 */
int re_subst(struct re_ctx *rc, const char *pat, const char *repl,
	     const char *s, size_t n, int global, struct sbuf *out);
/* In place on an sbuf. */
int re_subst_sb(struct re_ctx *rc, const char *pat, const char *repl,
		struct sbuf *sb, int global);

/* Counts non-overlapping matches (Perl's () = /.../g). */
int re_count(struct re_ctx *rc, const char *pat, const char *s, size_t n);

/* Regex-quotes s (Perl's \Q...\E) onto out. */
void re_quote(const char *s, size_t n, struct sbuf *out);

/*
 * Patterns built at run time (an interpolated value, a learned word): the
 * text is interned in the context so the cache can key it.  The returned
 * pointer is valid until re_ctx_free.
 */
const char *re_intern(struct re_ctx *rc, const char *pat, size_t n);

/*
 * When more than max run-time patterns are interned, forgets them all and
 * their compiled code (every pointer re_intern() returned becomes
 * invalid).  Call it only where no such pointer is held.
 */
int re_intern_trim(struct re_ctx *rc, size_t max);

/* The learned type lists: checkpatch's possible() and build_types(). */
void re_types_reset(struct re_ctx *rc);
int re_types_add(struct re_ctx *rc, int modifier, const char *word, size_t n);
/* Modifiers learned from the current file so far. */
size_t re_learned_modifiers(const struct re_ctx *rc);
/*
 * Whether a learned word or a --typedefsfile word may be what a $Type,
 * $NonptrType or $Modifier match starts with at s: s starts with a
 * learned type (a whole word) or a learned modifier, or a word that is
 * not plain (or a typedefs word) is known, which could be anywhere.
 * With vocab_may_start_type(), a necessary condition for those matches.
 */
int re_learned_word_at(const struct re_ctx *rc, const char *s);

/* Extra typedef names ('|'-joined) appended to $typeTypedefs. */
int re_set_typedefs(struct re_ctx *rc, const char *words);

/* The first error met, or NULL. */
const char *re_error(const struct re_ctx *rc);
/*
 * A deadline for the matches (CLOCK_MONOTONIC nanoseconds, 0: none),
 * looked at only when a match reaches its step limit: past it, the match
 * is not retried with a larger limit, every later match gets a small one
 * and re_expired() says so, until the next re_set_deadline().  Such
 * matches count as no match without an error.
 */
void re_set_deadline(struct re_ctx *rc, uint64_t deadline_ns);
int re_expired(const struct re_ctx *rc);
uint64_t re_now_ns(void);	/* CLOCK_MONOTONIC in nanoseconds */

/* Expanded text of a pattern (for tests and debugging); caller frees. */
char *re_expand(struct re_ctx *rc, const char *pat);

#endif

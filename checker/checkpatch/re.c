// SPDX-License-Identifier: GPL-2.0-only
/*
 * re: checkpatch.pl's Perl patterns compiled with pcre2, with the
 * vocabulary interpolated as Perl interpolates qr// objects (re.h).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "re.h"

#include <pcre2.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "re_lits.h"
#include "vocab.h"
#include "../banned.h"

/*
 * A compiled form is JIT-compiled once its interpreted matches have taken
 * as long as its JIT compile would (struct re_code): what a JIT compile
 * costs is learned from the ones made, RE_JIT_PRIOR_NS for
 * RE_JIT_PRIOR_BYTES of code before any.
 */
#define RE_JIT_PRIOR_NS		150000
#define RE_JIT_PRIOR_BYTES	1000
#define RE_MATCH_LIMIT	5000000		/* backtracking steps per match */
#define RE_MATCH_LIMIT_RETRY 200000000	/* ... for the one retry */
#define RE_MATCH_LIMIT_LATE 100000	/* ... once the deadline has passed */
#define RE_NS_PER_STEP	20		/* a slow guess of an interpreted step */
#define RE_EXPAND_MAX	(4u << 20)	/* bytes of one expanded pattern */
#define RE_MAX_WORDS	4096		/* learned types or modifiers per file */

/*
 * One compiled form of a pattern: what a match reads first (48 bytes),
 * then the rest.
 */
struct re_code {
	pcre2_code *code;
	/*
	 * What pcre2 itself checks before it tries a match (code_info()),
	 * checked here without the call: the least subject length a match
	 * needs, and for an anchored pattern the bytes a match can start
	 * with (first, a bitmap; nofirst when any byte can).
	 */
	uint32_t minlen;
	unsigned char anchored, nofirst;
	unsigned char jit;	/* JIT compile tried (RE_JIT_OK: it worked) */
	uint8_t first[32];
	unsigned gen;		/* generation compiled against */
	/*
	 * A pattern used a few times costs more to JIT-compile than its
	 * interpreted matches; one used often, less.  Which is which is not
	 * known in advance (one patch or thousands, short lines or long
	 * statements), so the time the interpreter spends on it is summed
	 * and it is JIT-compiled when that reaches what a JIT compile of its
	 * size costs: never more than twice the better of the two.
	 */
	uint64_t interp_ns;
	size_t size;		/* bytes of compiled code */
};

#define RE_JIT_TRIED	1
#define RE_JIT_OK	2

/*
 * A pattern that interpolates the learned types ("dyn") is compiled in two
 * forms: base, with no learned words (it lives across files), and full,
 * with the first nt types and nm modifiers learned from the current file
 * (the lists only grow until they are reset for the next file).
 *
 * A learned word is an alternative of a list (see vocab_build_types); a
 * plain word ([A-Za-z0-9_]+) that occurs nowhere in the subject cannot
 * match at any position, and a pattern without that alternative behaves
 * exactly as one with it (same result, same groups).  So a subject that
 * holds no learned word (and every learned word is plain) is matched with
 * the base form; one whose learned words (and words that are not plain)
 * were all known when the full form was compiled is matched with the full
 * form, though more words were learned since; otherwise the full form is
 * compiled again with every word learned so far.  Other patterns have the
 * base form only.
 */
/*
 * Entries start on a cache line (the array is aligned), and what a match
 * that fails early reads (the key, the flags, and base's code, minimum
 * length and first bytes) fills that line: 8 + 8 + 48 bytes.
 */
struct __attribute__((aligned(64))) re_entry {
	const char *pat;	/* key: the pattern literal's address */
	unsigned char litn[2];
	signed char nlit;
	unsigned char icase;	/* the literals match in either case */
	unsigned char known;	/* dyn below is set */
	unsigned char dyn;	/* interpolates the learned types */
	unsigned char bad;	/* failed to compile: never retried */
	unsigned char verdep;	/* interpolates a name the version changes */
	struct re_code base;
	int32_t prek;		/* its precompiled entry + 1 (0: not looked up,
				 * -1: none) */
	/*
	 * Up to two literal strings every match contains (re_lits_scan());
	 * nlit is -1 until the pattern is scanned.
	 */
	char lit[2][RE_LIT_MAX];
	uint64_t litsig[4];	/* their bits in a subject's summary (re_lits_sig()) */
	/*
	 * The end pretest (re_end_scan()): endk 0 until the pattern is
	 * scanned, then 1 without one, 2 with ends[0] the last bytes a match
	 * may end in before the white space ends[1], 3 when at least one
	 * byte of that white space must end it.
	 */
	unsigned char endk;
	uint8_t ends[2][32];
	struct re_code full;
	size_t full_nt, full_nm;	/* the words full was compiled with */
	struct re_code call;	/* learned types through a callout (RE_FORM_CALL) */
};

_Static_assert(offsetof(struct re_entry, base.first) + 32 <= 64,
	       "a failing match reads one cache line of its entry");

/*
 * n zeroed entries, cache-line aligned, from calloc() (whose fresh pages
 * are zero already: a process touches only the entries it uses), the
 * block's own address in *raw for free().
 */
static struct re_entry *ent_alloc(size_t n, void **raw)
{
	const size_t a = _Alignof(struct re_entry);
	uintptr_t p;

	if (n > (SIZE_MAX - a) / sizeof(struct re_entry))
		return NULL;
	*raw = calloc(1, n * sizeof(struct re_entry) + a);
	if (!*raw)
		return NULL;
	p = ((uintptr_t)*raw + a - 1) & ~(uintptr_t)(a - 1);
	return (struct re_entry *)p;
}

/*
 * The forms of a pattern that interpolates the learned lists: none learned
 * (base), every word learned so far written in (full, compiled again as
 * the file teaches more), or the learned types asked of a callout
 * (call, compiled once: see learned_callout()).
 */
enum { RE_FORM_BASE, RE_FORM_FULL, RE_FORM_CALL };

/*
 * In the call form the learned types, the last alternatives of the type
 * list, are this one alternative: the word that starts here, whole (\w++),
 * if it is a learned type.  Exact: the list is always followed by \b, so
 * of plain words (\w+) only the one that is the whole run can match at a
 * place, the one \w++ takes; no groups are inside; and like the words it
 * replaces it comes last.  A learned type that is not a plain word, or a
 * learned modifier (not followed by \b), still takes the full form.
 */
#define RE_CALL_ALT	"(?C1)\\w++(?C2)"
/*
 * And the learned modifiers, the last alternatives of $Modifier, are this
 * one: at a place where a learned modifier starts (callout 3 finds it),
 * the word chars up to its end (callout 4 lets \w+? stop there only).
 * Exact while no learned modifier is a prefix of another (mods_prefixed):
 * then at most one starts at a place, so the order of the alternatives
 * it replaces does not matter, and no longer match could follow on a
 * backtrack (the group is atomic, so 4 always reads 3's record).
 * Modifiers are not always followed by \b, so a word's whole run (as for
 * the types) would not do.
 */
#define RE_CALL_MOD	"(?>(?C3)\\w+?(?C4))"
#define RE_TSET		(2 * RE_MAX_WORDS)	/* learned types' hash slots */

struct re_intern_entry {
	char *s;
	size_t n;
};

struct re_words {
	char **w;
	size_t n, alloc;
};

struct re_ctx {
	/*
	 * The compiled patterns, dense (ent[0, nent)), and an open-addressed
	 * index of them by the pattern's address (idx[h] is an entry number
	 * plus one, 0 when free; tabsz slots, a power of two): the index is
	 * small and the entries used together sit together, so a lookup
	 * touches little memory.
	 */
	struct re_entry *ent;
	void *ent_raw;		/* the block ent is in (ent_alloc()) */
	size_t nent, entalloc;
	uint32_t *idx;
	size_t tabsz;
	struct re_intern_entry *itab;
	size_t itabsz, itabused;
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	struct re_words mods, types;
	struct sbuf dyn[VDYN__COUNT];
	struct sbuf dyn0[VDYN__COUNT];	/* ... with no learned words */
	struct sbuf dync[VDYN__COUNT];	/* ... with RE_CALL_ALT and RE_CALL_MOD */
	/* the plain learned types by hash (type number + 1, 0 free) */
	uint32_t tset[RE_TSET];
	size_t call_start;	/* learned_callout(): where the word starts */
	size_t callm_start, callm_len;	/* ... the modifier that starts there */
	int mods_prefixed;	/* a learned modifier is a prefix of another */
	const struct sbuf *expand_dyn;	/* the one expand_into() reads */
	struct sbuf all0;
	/*
	 * The learned words that occur in a subject (words_in()): which
	 * byte pairs start plain words of two bytes or more, and those words
	 * by their first two bytes (word_head and word_next chain learned
	 * word numbers: types, then modifiers as RE_MAX_WORDS + index);
	 * the other words are listed in word_other.
	 */
	uint64_t word2[65536 / 64];
	int word_other[2 * RE_MAX_WORDS];
	size_t nword_other;
	size_t nword_odd;		/* learned words that are not plain */
	int word_head[1024];
	int word_next[2 * RE_MAX_WORDS];
	unsigned epoch;		/* bumped when learned words are reset */
	char *typedefs_extra;	/* --typedefsfile words, '|'-joined */
	const struct re_precompiled_set *pre;
	/*
	 * Decoding a precompiled pattern: the set's prefix and the code are
	 * put together in dec, and the decoded codes share one copy of the
	 * character tables (dec_malloc()).
	 */
	unsigned char *dec;
	size_t decsz;
	const struct re_precompiled_set *dec_set;	/* its prefix is in dec */
	pcre2_general_context *gctx;
	void *tables;		/* the shared tables, or NULL */
	size_t tables_size;	/* ... the size of their allocation */
	int want_tables;	/* in a decode, before its first allocation */
	int no_share;		/* a decode did not allocate its tables first */
	unsigned long compiles, decodes;
	uint64_t jit_ns, jit_bytes;	/* JIT compiles so far (with the prior) */
	unsigned long jits;		/* ... that succeeded */
	size_t jit_code, jit_budget;	/* their JIT code; what it may reach */
	size_t nbad;		/* entries marked bad (an upper bound) */
	unsigned gen;		/* bumped when learned words or typedefs
				 * change */
	unsigned base_gen;	/* bumped when typedefs change */
	char err[256];
	int cpv;		/* the checkpatch.pl version (re_set_version()) */
	int expand_verdep;	/* expand_into() met a versioned name */
	uint64_t deadline;	/* re_set_deadline(), 0: none */
	int expired;		/* ... and it has passed */
};

static uint64_t now_ns(void);
static void re_expire(struct re_ctx *rc);

static void re_set_error(struct re_ctx *rc, const char *what, const char *pat)
{
	size_t n;

	if (rc->err[0])
		return;
	n = strlen(what);
	if (n >= sizeof(rc->err))
		n = sizeof(rc->err) - 1;
	memcpy(rc->err, what, n);
	rc->err[n] = '\0';
	if (pat && n + 3 < sizeof(rc->err)) {
		size_t m = strlen(pat);

		memcpy(rc->err + n, ": ", 2);
		n += 2;
		if (m > sizeof(rc->err) - n - 1)
			m = sizeof(rc->err) - n - 1;
		memcpy(rc->err + n, pat, m);
		rc->err[n + m] = '\0';
	}
}

const char *re_error(const struct re_ctx *rc)
{
	return rc->err[0] ? rc->err : NULL;
}

static size_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p * UINT64_C(0x9E3779B97F4A7C15);

	return (size_t)(x >> 32);
}

static size_t hash_bytes(const char *s, size_t n)
{
	size_t h = 1469598103934665603ULL & (size_t)-1;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * (size_t)1099511628211ULL;
	return h;
}

/* The learned type that is s[0, n), if one is (type number), else -1. */
static int learned_type(const struct re_ctx *rc, const char *s, size_t n)
{
	size_t h = hash_bytes(s, n) & (RE_TSET - 1);
	uint32_t k;

	while ((k = rc->tset[h])) {
		const char *w = rc->types.w[k - 1];

		if (strlen(w) == n && !memcmp(w, s, n))
			return (int)(k - 1);
		h = (h + 1) & (RE_TSET - 1);
	}
	return -1;
}

/*
 * The length of the learned modifier s[0, n) starts with, or 0 (there is
 * one at most while mods_prefixed is 0).
 */
static size_t learned_mod_at(const struct re_ctx *rc, const char *s, size_t n)
{
	size_t i, l;

	for (i = 0; n && i < rc->mods.n; i++) {
		const char *w = rc->mods.w[i];

		if ((unsigned char)w[0] != (unsigned char)s[0])
			continue;
		l = strlen(w);
		if (l <= n && !memcmp(w, s, l))
			return l;
	}
	return 0;
}

/*
 * RE_CALL_ALT's callouts: 1 notes where the word starts, 2 lets the match
 * go on (0) when the word up to here is a learned type, else fails it (1).
 * Nothing but \w++ lies between them, so the start 2 reads is its own.
 */
static int learned_callout(pcre2_callout_block *cb, void *data)
{
	struct re_ctx *rc = data;

	if (cb->callout_number == 1) {
		rc->call_start = cb->current_position;
		return 0;
	}
	if (cb->callout_number == 3) {
		size_t len = learned_mod_at(rc, (const char *)cb->subject + cb->current_position,
					    cb->subject_length - cb->current_position);

		rc->callm_start = cb->current_position;
		rc->callm_len = len;
		return !len;
	}
	if (cb->callout_number == 4)
		return cb->current_position != rc->callm_start + rc->callm_len;
	if (cb->callout_number != 2 || rc->call_start > cb->current_position)
		return 1;
	return learned_type(rc, (const char *)cb->subject + rc->call_start,
			    cb->current_position - rc->call_start) < 0;
}

/*
 * The decoded codes' allocator.  pcre2_serialize_decode() allocates the
 * serialization's tables first, then its code, and every pattern of a
 * set is serialized with the same tables (tools/mkpatterns.c checks), so
 * the decoded codes share one copy of them instead of one each (600 KB
 * on a large patch).  pcre2_code_free() drops the tables' reference
 * count and frees them at 0: that free is ignored here, and the copy is
 * freed with the context.  Were a decode ever to allocate its code
 * first, precompiled() finds the code holding the shared block and
 * stops sharing.
 */
static void *dec_malloc(size_t n, void *data)
{
	struct re_ctx *rc = data;

	if (rc->want_tables) {
		rc->want_tables = 0;
		if (!rc->tables) {
			rc->tables = malloc(n);
			rc->tables_size = n;
			return rc->tables;
		}
		if (n == rc->tables_size)
			return rc->tables;
	}
	return malloc(n);
}

static void dec_free(void *p, void *data)
{
	struct re_ctx *rc = data;

	if (p && p == rc->tables)
		return;
	free(p);
}

struct re_ctx *re_ctx_new(void)
{
	struct re_ctx *rc = calloc(1, sizeof(*rc));
	int i;

	if (!rc)
		return NULL;
	rc->tabsz = 4096;
	rc->idx = calloc(rc->tabsz, sizeof(*rc->idx));
	rc->entalloc = 256;
	rc->ent = ent_alloc(rc->entalloc, &rc->ent_raw);
	rc->itabsz = 256;
	rc->itab = calloc(rc->itabsz, sizeof(*rc->itab));
	rc->md = pcre2_match_data_create(RE_MAXCAP + 1, NULL);
	rc->mctx = pcre2_match_context_create(NULL);
	rc->gctx = pcre2_general_context_create(dec_malloc, dec_free, rc);
	for (i = 0; i < VDYN__COUNT; i++) {
		sbuf_init(&rc->dyn[i], RE_EXPAND_MAX);
		sbuf_init(&rc->dyn0[i], RE_EXPAND_MAX);
		sbuf_init(&rc->dync[i], RE_EXPAND_MAX);
	}
	sbuf_init(&rc->all0, RE_EXPAND_MAX);
	if (!rc->idx || !rc->ent || !rc->itab || !rc->md || !rc->mctx ||
	    !rc->gctx) {
		re_ctx_free(rc);
		return NULL;
	}
	pcre2_set_match_limit(rc->mctx, RE_MATCH_LIMIT);
	rc->jit_ns = RE_JIT_PRIOR_NS;
	rc->jit_bytes = RE_JIT_PRIOR_BYTES;
	rc->jit_budget = RE_JIT_BUDGET_BASE;
	vocab_build_types(NULL, 0, NULL, 0, rc->dyn0);
	{
		static const char *const call_alt[] = { RE_CALL_ALT };
		static const char *const call_mod[] = { RE_CALL_MOD };

		vocab_build_types(call_mod, 1, call_alt, 1, rc->dync);
	}
	pcre2_set_callout(rc->mctx, learned_callout, rc);
	rc->expand_dyn = rc->dyn;
	memset(rc->word_head, -1, sizeof(rc->word_head));

	{
		void vocab_type_all0(struct sbuf *out);

		vocab_type_all0(&rc->all0);
	}
	re_types_reset(rc);
	return rc;
}

static void entry_release(struct re_entry *e)
{
	pcre2_code_free(e->base.code);
	pcre2_code_free(e->full.code);
	pcre2_code_free(e->call.code);
}

static void words_clear(struct re_words *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->w[i]);
	w->n = 0;
}

void re_ctx_free(struct re_ctx *rc)
{
	size_t i;

	if (!rc)
		return;
	for (i = 0; i < rc->nent; i++)
		entry_release(&rc->ent[i]);
	free(rc->ent_raw);
	free(rc->idx);
	for (i = 0; rc->itab && i < rc->itabsz; i++)
		free(rc->itab[i].s);
	free(rc->itab);
	pcre2_match_data_free(rc->md);
	pcre2_match_context_free(rc->mctx);
	/* after every code: they may share rc->tables */
	pcre2_general_context_free(rc->gctx);
	free(rc->tables);
	free(rc->dec);
	words_clear(&rc->mods);
	words_clear(&rc->types);
	free(rc->mods.w);
	free(rc->types.w);
	for (i = 0; i < VDYN__COUNT; i++) {
		sbuf_release(&rc->dyn[i]);
		sbuf_release(&rc->dyn0[i]);
		sbuf_release(&rc->dync[i]);
	}
	sbuf_release(&rc->all0);
	free(rc->typedefs_extra);
	free(rc);
}

/* The deadline passed: every later match gets a small budget (the match
 * context is theirs) until the next re_set_deadline(). */
static void re_expire(struct re_ctx *rc)
{
	rc->expired = 1;
	pcre2_set_match_limit(rc->mctx, RE_MATCH_LIMIT_LATE);
}

void re_set_deadline(struct re_ctx *rc, uint64_t deadline_ns)
{
	rc->deadline = deadline_ns;
	rc->expired = 0;
	pcre2_set_match_limit(rc->mctx, RE_MATCH_LIMIT);
}

int re_expired(const struct re_ctx *rc)
{
	return rc->expired;
}

uint64_t re_now_ns(void)
{
	return now_ns();
}

void re_ctx_reset(struct re_ctx *rc)
{
	size_t i;

	rc->err[0] = '\0';
	/* a pattern that failed to compile is tried (and reported) again */
	for (i = 0; rc->nbad && i < rc->nent; i++) {
		struct re_entry *e = &rc->ent[i];
		const char *pat = e->pat;

		if (!pat || !e->bad)
			continue;
		entry_release(e);
		memset(e, 0, sizeof(*e));
		e->pat = pat;
		e->nlit = -1;
	}
	rc->nbad = 0;
	re_types_reset(rc);
}

void re_set_version(struct re_ctx *rc, int cpv)
{
	size_t i;

	if (cpv == rc->cpv)
		return;
	rc->cpv = cpv;
	/* what was compiled for the other version is compiled again */
	for (i = 0; i < rc->nent; i++) {
		struct re_entry *e = &rc->ent[i];
		const char *pat = e->pat;

		if (!pat || !e->verdep)
			continue;
		if (e->bad)
			rc->nbad--;
		entry_release(e);
		memset(e, 0, sizeof(*e));
		e->pat = pat;
		e->nlit = -1;
	}
}

int re_version(const struct re_ctx *rc)
{
	return rc->cpv;
}

static int is_interned(const struct re_ctx *rc, const char *p);

/* ---- interpolation ---- */

static int expand_into(struct re_ctx *rc, const char *src, struct sbuf *out,
		       int *dyn, int depth);

static int expand_name(struct re_ctx *rc, const char *name, size_t n,
		       struct sbuf *out, int *dyn, int depth)
{
	const struct vocab *v = vocab_find_v(name, n, rc->cpv);

	if (!v) {
		re_set_error(rc, "unknown pattern name", name);
		return -1;
	}
	if (v->cpv)
		rc->expand_verdep = 1;
	if (v->kind == VOCAB_DYN) {
		*dyn = 1;
		sbuf_addstr(out, "(?^:");
		if (expand_into(rc, rc->expand_dyn[v->dyn].buf, out, dyn,
				depth + 1))
			return -1;
		sbuf_addch(out, ')');
		return 0;
	}
	if (rc->typedefs_extra && !strcmp(v->name, "typeTypedefs")) {
		/* checkpatch.pl: $typeTypedefs .= '|' . $typeOtherTypedefs,
		 * which makes the qr a plain string */
		sbuf_addf(out, "(?^%s:", v->flags);
		if (expand_into(rc, v->src, out, dyn, depth + 1))
			return -1;
		sbuf_addstr(out, ")|");
		sbuf_addstr(out, rc->typedefs_extra);
		return 0;
	}
	if (v->dyn == -1)	/* typeAll0 */
		return expand_into(rc, rc->all0.buf, out, dyn, depth + 1);
	if (v->kind == VOCAB_STR)
		return expand_into(rc, v->src, out, dyn, depth + 1);
	sbuf_addf(out, "(?^%s:", v->flags);
	if (expand_into(rc, v->src, out, dyn, depth + 1))
		return -1;
	sbuf_addch(out, ')');
	return 0;
}

static int expand_into(struct re_ctx *rc, const char *src, struct sbuf *out,
		       int *dyn, int depth)
{
	const char *p = src;

	if (depth > 32) {
		re_set_error(rc, "pattern nests too deep", src);
		return -1;
	}
	while (*p) {
		const char *q = p;

		while (*q && *q != '\\' && *q != '$')
			q++;
		sbuf_add(out, p, (size_t)(q - p));
		p = q;
		if (!*p)
			break;
		if (*p == '\\') {
			sbuf_add(out, p, p[1] ? 2 : 1);
			p += p[1] ? 2 : 1;
			continue;
		}
		/* '$' */
		if (p[1] == ';') {
			sbuf_addstr(out, "\\x1c");
			p += 2;
		} else if (p[1] == '{' && is_name_start((unsigned char)p[2])) {
			const char *e = strchr(p + 2, '}');

			if (!e) {
				re_set_error(rc, "unterminated ${", src);
				return -1;
			}
			if (expand_name(rc, p + 2, (size_t)(e - p - 2), out, dyn,
					depth))
				return -1;
			p = e + 1;
		} else if (is_name_start((unsigned char)p[1])) {
			const char *e = p + 1;

			while (is_name_char((unsigned char)*e))
				e++;
			if (expand_name(rc, p + 1, (size_t)(e - p - 1), out, dyn,
					depth))
				return -1;
			p = e;
		} else {
			sbuf_addch(out, '$');
			p++;
		}
	}
	return out->err ? -1 : 0;
}

char *re_expand(struct re_ctx *rc, const char *pat)
{
	struct sbuf sb;
	int dyn = 0;

	sbuf_init(&sb, RE_EXPAND_MAX);
	if (expand_into(rc, pat, &sb, &dyn, 0)) {
		sbuf_release(&sb);
		return NULL;
	}
	rc->expand_verdep = 0;
	return sbuf_detach(&sb, NULL);
}

/* ---- the cache ---- */

/* Indexes every entry in idx, of nsz slots (zeroed). */
static void tab_fill(struct re_ctx *rc, uint32_t *idx, size_t nsz)
{
	size_t i;

	for (i = 0; i < rc->nent; i++) {
		size_t h = hash_ptr(rc->ent[i].pat) & (nsz - 1);

		while (idx[h])
			h = (h + 1) & (nsz - 1);
		idx[h] = (uint32_t)(i + 1);
	}
}

/* The index again with nsz slots (more than now). */
static int tab_grow(struct re_ctx *rc, size_t nsz)
{
	uint32_t *ni = calloc(nsz, sizeof(*ni));

	if (!ni)
		return -1;
	tab_fill(rc, ni, nsz);
	free(rc->idx);
	rc->idx = ni;
	rc->tabsz = nsz;
	return 0;
}

/*
 * The entry of pat, added when new.  A pointer it returns is valid until
 * the next call adds an entry.
 */
static inline __attribute__((always_inline)) struct re_entry *
tab_get(struct re_ctx *rc, const char *pat)
{
	struct re_entry *e;
	size_t h = hash_ptr(pat) & (rc->tabsz - 1);
	uint32_t k;

	while ((k = rc->idx[h])) {
		if (rc->ent[k - 1].pat == pat)
			return &rc->ent[k - 1];
		h = (h + 1) & (rc->tabsz - 1);
	}
	if (rc->nent >= UINT32_MAX - 1)
		return NULL;
	if (rc->nent == rc->entalloc) {
		size_t na = rc->entalloc * 2;
		void *raw;
		struct re_entry *ne = ent_alloc(na, &raw);

		if (!ne)
			return NULL;
		memcpy(ne, rc->ent, rc->nent * sizeof(*ne));
		free(rc->ent_raw);
		rc->ent_raw = raw;
		rc->ent = ne;
		rc->entalloc = na;
	}
	if ((rc->nent + 1) * 2 > rc->tabsz) {
		if (tab_grow(rc, rc->tabsz * 2))
			return NULL;
		h = hash_ptr(pat) & (rc->tabsz - 1);
		while (rc->idx[h])
			h = (h + 1) & (rc->tabsz - 1);
	}
	e = &rc->ent[rc->nent];
	memset(e, 0, sizeof(*e));
	e->pat = pat;
	e->nlit = -1;
	rc->idx[h] = (uint32_t)(++rc->nent);
	return e;
}

/*
 * e's pattern in the precompiled table, when the table is valid in this
 * state (else NULL); the table's literal pretest is e's from then on.
 * The search is made once (e->prek).
 */
static const struct re_precompiled *pre_entry(struct re_ctx *rc,
					      struct re_entry *e)
{
	const struct re_precompiled_set *set = rc->pre;
	const struct re_precompiled *p;
	size_t lo = 0, hi;

	/* the table was compiled with no learned words and no typedefs */
	if (!set || rc->typedefs_extra || e->prek < 0)
		return NULL;
	if (!e->prek) {
		e->prek = -1;
		hi = set->n;
		/* the first entry of the text, then the one of this version
		 * (a text is there once, or once per version it differs in) */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (strcmp(set->v[mid].text, e->pat) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < set->n && !strcmp(set->v[lo].text, e->pat); lo++) {
			if (!set->v[lo].cpv || (set->v[lo].cpv & (1u << rc->cpv))) {
				e->prek = (int32_t)lo + 1;
				break;
			}
		}
		if (e->prek < 0)
			return NULL;
	}
	p = &set->v[e->prek - 1];
	if (e->nlit < 0 && p->nlit >= 0 && p->nlit <= 2 &&
	    p->litn[0] <= RE_LIT_MAX && p->litn[1] <= RE_LIT_MAX) {
		memcpy(e->lit[0], p->lits, p->litn[0]);
		memcpy(e->lit[1], p->lits + p->litn[0], p->litn[1]);
		e->litn[0] = p->litn[0];
		e->litn[1] = p->litn[1];
		e->nlit = p->nlit;
		e->icase = p->icase;
		re_lits_sig(e->lit, e->litn, e->nlit > 0 ? e->nlit : 0, e->litsig);
	}
	if (!e->endk) {
		e->endk = p->ends ? 2 + (p->endreq != 0) : 1;
		if (p->ends)
			memcpy(e->ends, p->ends, sizeof(e->ends));
	}
	return p;
}

/* The precompiled code of e's literal pattern, when valid in this state. */
static pcre2_code *precompiled(struct re_ctx *rc, struct re_entry *e, int *dyn)
{
	const struct re_precompiled_set *set = rc->pre;
	const struct re_precompiled *p = pre_entry(rc, e);
	pcre2_code *code = NULL;
	size_t need;
	int got;

	if (!p)
		return NULL;
	need = set->prefix_len + p->len;
	if (need > rc->decsz) {
		unsigned char *nd = realloc(rc->dec, need);

		if (!nd)
			return NULL;
		rc->dec = nd;
		rc->decsz = need;
	}
	/* the prefix stays in place from one decode to the next */
	if (rc->dec_set != set) {
		memcpy(rc->dec, set->prefix, set->prefix_len);
		rc->dec_set = set;
	}
	memcpy(rc->dec + set->prefix_len, p->bytes, p->len);
	rc->want_tables = !rc->no_share;
	got = pcre2_serialize_decode(&code, 1, rc->dec, rc->gctx);
	rc->want_tables = 0;
	if (got != 1)
		return NULL;
	if ((void *)code == rc->tables) {
		/* it is the code's now, freed as any */
		rc->tables = NULL;
		rc->no_share = 1;
	}
	*dyn = p->dyn;
	e->verdep = p->cpv != 0;
	rc->decodes++;
	return code;
}

/* Reads what pcre2 checks before a match from c's code (struct re_code). */
static void code_info(struct re_code *c)
{
	uint32_t opts = 0, fct = 0, fcu = 0, minlen = 0;
	const uint8_t *bm = NULL;
	size_t size = 0;

	c->size = pcre2_pattern_info(c->code, PCRE2_INFO_SIZE, &size) ? 0 : size;
	c->anchored = 0;
	c->nofirst = 1;
	c->minlen = 0;
	if (pcre2_pattern_info(c->code, PCRE2_INFO_MINLENGTH, &minlen) == 0)
		c->minlen = minlen;
	if (pcre2_pattern_info(c->code, PCRE2_INFO_ALLOPTIONS, &opts) ||
	    !(opts & PCRE2_ANCHORED))
		return;
	c->anchored = 1;
	if (pcre2_pattern_info(c->code, PCRE2_INFO_FIRSTBITMAP, &bm) == 0 &&
	    bm) {
		memcpy(c->first, bm, sizeof(c->first));
		c->nofirst = 0;
	} else if (pcre2_pattern_info(c->code, PCRE2_INFO_FIRSTCODETYPE,
				      &fct) == 0 && fct == 1 &&
		   pcre2_pattern_info(c->code, PCRE2_INFO_FIRSTCODEUNIT,
				      &fcu) == 0 && fcu < 256) {
		/* the unit may be caseless: both cases of a letter pass */
		memset(c->first, 0, sizeof(c->first));
		c->first[fcu / 8] |= (uint8_t)(1u << (fcu % 8));
		if ((fcu | 32) >= 'a' && (fcu | 32) <= 'z') {
			fcu ^= 32;
			c->first[fcu / 8] |= (uint8_t)(1u << (fcu % 8));
		}
		c->nofirst = 0;
	}
}

/* Whether pcre2 would fail s[0, n) from start without trying (code_info()). */
static int code_cannot(const struct re_code *c, const char *s, size_t n,
		       size_t start)
{
	unsigned char b;

	if (n - start < c->minlen)
		return 1;
	if (!c->anchored || c->nofirst || start >= n)
		return 0;
	b = (unsigned char)s[start];
	return !(c->first[b / 8] & (1u << (b % 8)));
}

/*
 * Compiles e's pattern into c: with no learned words (full 0), or with
 * every word learned so far.  Sets e->dyn.
 */
static int compile_code(struct re_ctx *rc, struct re_entry *e,
			struct re_code *c, int form)
{
	int full = form == RE_FORM_FULL;

	struct sbuf sb;
	int dyn = 0, errcode, ret;
	PCRE2_SIZE erroff;

	pcre2_code_free(c->code);
	c->code = NULL;
	c->jit = 0;
	c->interp_ns = 0;
	c->gen = full ? rc->epoch : rc->base_gen;
	if (form == RE_FORM_BASE) {
		c->code = precompiled(rc, e, &dyn);
		if (c->code) {
			code_info(c);
			e->dyn = (unsigned char)dyn;
			e->known = 1;
			return 0;
		}
	}
	rc->compiles++;
	sbuf_init(&sb, RE_EXPAND_MAX);
	rc->expand_dyn = full ? rc->dyn : form == RE_FORM_CALL ? rc->dync :
		rc->dyn0;
	rc->expand_verdep = 0;
	ret = expand_into(rc, e->pat, &sb, &dyn, 0);
	rc->expand_dyn = rc->dyn;
	if (rc->expand_verdep)
		e->verdep = 1;
	rc->expand_verdep = 0;
	if (ret) {
		sbuf_release(&sb);
		e->bad = 1;
		rc->nbad++;
		return -1;
	}
	c->code = pcre2_compile((PCRE2_SPTR)sb.buf, sb.len, 0, &errcode,
				&erroff, NULL);
	sbuf_release(&sb);
	if (!c->code) {
		PCRE2_UCHAR msg[160];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		re_set_error(rc, (const char *)msg, e->pat);
		e->bad = 1;
		rc->nbad++;
		return -1;
	}
	code_info(c);
	e->dyn = (unsigned char)dyn;
	e->known = 1;
	if (full) {
		e->full_nt = rc->types.n;
		e->full_nm = rc->mods.n;
	}
	return 0;
}

/* Learned word number k (types, then modifiers at RE_MAX_WORDS). */
static const char *word_of(const struct re_ctx *rc, int k)
{
	return k < RE_MAX_WORDS ? rc->types.w[k] :
		rc->mods.w[k - RE_MAX_WORDS];
}

static int word_plain(const char *w)
{
	if (!*w)
		return 0;
	for (; *w; w++)
		if (!is_name_char((unsigned char)*w))
			return 0;
	return 1;
}

/*
 * Which learned words a subject s[0, n) needs (see struct re_entry): the
 * plain ones that occur in it and every other one.  Returns whether there
 * is one; *nt and *nm are one past the last type and modifier needed.
 */
static int words_in(const struct re_ctx *rc, const char *s, size_t n,
		    size_t *nt, size_t *nm)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, k;
	int any = 0;

	*nt = *nm = 0;
	/* words that are not plain, and one-byte words */
	for (k = 0; k < rc->nword_other; k++) {
		int w = rc->word_other[k];
		const char *t = word_of(rc, w);

		if (!word_plain(t) || (n && memchr(s, t[0], n))) {
			any = 1;
			if (w < RE_MAX_WORDS) {
				if ((size_t)w + 1 > *nt)
					*nt = (size_t)w + 1;
			} else if ((size_t)(w - RE_MAX_WORDS) + 1 > *nm) {
				*nm = (size_t)(w - RE_MAX_WORDS) + 1;
			}
		}
	}
	for (i = 0; i + 1 < n; i++) {
		unsigned b = (unsigned)u[i] << 8 | u[i + 1];
		int w;

		if (!(rc->word2[b / 64] & (UINT64_C(1) << (b % 64))))
			continue;
		for (w = rc->word_head[b % 1024]; w >= 0;
		     w = rc->word_next[w]) {
			const char *t = word_of(rc, w);
			size_t l;

			if ((unsigned char)t[0] != u[i] ||
			    (unsigned char)t[1] != u[i + 1])
				continue;
			l = strlen(t);
			if (l > n - i || memcmp(t, s + i, l))
				continue;
			any = 1;
			if (w < RE_MAX_WORDS) {
				if ((size_t)w + 1 > *nt)
					*nt = (size_t)w + 1;
			} else if ((size_t)(w - RE_MAX_WORDS) + 1 > *nm) {
				*nm = (size_t)(w - RE_MAX_WORDS) + 1;
			}
		}
	}
	return any;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Counts an interpreted match of c that took ns; JIT-compiles c when due. */
static void code_interpreted(struct re_ctx *rc, struct re_code *c, uint64_t ns)
{
	uint64_t t0;

	c->interp_ns += ns;
	if ((double)c->interp_ns * (double)rc->jit_bytes <
	    (double)c->size * (double)rc->jit_ns)
		return;
	/* not tried: the budget grows with the text checked (re.h) */
	if (rc->jit_code >= rc->jit_budget)
		return;
	c->jit = RE_JIT_TRIED;	/* once: under MemoryDenyWriteExecute it fails */
	t0 = now_ns();
	if (pcre2_jit_compile(c->code, PCRE2_JIT_COMPLETE) == 0) {
		size_t js = 0;

		c->jit = RE_JIT_OK;
		rc->jits++;
		if (pcre2_pattern_info(c->code, PCRE2_INFO_JITSIZE, &js) == 0)
			rc->jit_code += js;
	}
	if (rc->jit_ns < UINT64_MAX / 2 && rc->jit_bytes < UINT64_MAX / 2) {
		rc->jit_ns += now_ns() - t0;
		rc->jit_bytes += c->size;
	}
}

/*
 * Whether s[start, n) lacks one of e's literals (e->nlit > 0): the
 * subject's summary first, when there is one.
 */
static inline __attribute__((always_inline)) int
lits_absent(const struct re_entry *e, struct re_summary *sum,
	    const char *s, size_t n, size_t start)
{
	if (start > n)
		return 1;
	if (sum) {
		if (!sum->ready)
			re_summarize(s, n, sum);
		if (!re_lits_may(sum, e->litsig))
			return 1;
	}
	return !re_lits_in(e->lit, e->litn, e->nlit, e->icase, s + start, n - start);
}

/*
 * The compiled form of pat to run on the subject s[0, n), from start; NULL
 * when it cannot match there.
 */
static inline __attribute__((always_inline)) struct re_code *
re_code(struct re_ctx *rc, struct re_entry *e, const char *s, size_t n,
	size_t start, struct re_summary *sum)
{
	size_t nt, nm;

	if (!e || e->bad)
		return NULL;
	/*
	 * Not decoded yet: the table's literal pretest first, so a pattern
	 * whose literals a process never meets is never decoded.
	 */
	if (!e->base.code) {
		const struct re_precompiled *p = pre_entry(rc, e);

		if (p && e->nlit > 0 && (!p->dyn || !rc->nword_odd) &&
		    lits_absent(e, sum, s, n, start))
			return NULL;
	}
	if (!e->base.code || (e->dyn && e->base.gen != rc->base_gen)) {
		if (compile_code(rc, e, &e->base, RE_FORM_BASE))
			return NULL;
	}
	/* the base form is the only one: what pcre2 checks first, first */
	if (!e->dyn && code_cannot(&e->base, s, n, start))
		return NULL;
	/*
	 * A subject without a literal every match holds: no match.  Only
	 * once the pattern compiled (a bad pattern is reported at its first
	 * use) and unless a learned word that is not plain may make the
	 * full form fail to compile (reported at its first use too).
	 */
	if (!e->endk)
		e->endk = (unsigned char)(1 + re_end_scan(e->pat, e->ends[0], e->ends[1]));
	if (e->endk >= 2 && !re_end_ok(e->ends[0], e->ends[1], e->endk == 3, s, n))
		return NULL;
	if (e->nlit < 0) {
		e->nlit = (signed char)re_lits_scan(e->pat, rc->typedefs_extra != NULL,
						    e->lit, e->litn, &e->icase);
		re_lits_sig(e->lit, e->litn, e->nlit > 0 ? e->nlit : 0, e->litsig);
	}
	if (e->nlit && (!e->dyn || !rc->nword_odd) &&
	    lits_absent(e, sum, s, n, start))
		return NULL;
	if (!e->dyn || (!rc->mods.n && !rc->types.n) ||
	    !words_in(rc, s, n, &nt, &nm))
		return &e->base;
	if (!rc->nword_odd && !rc->mods_prefixed) {
		/* plain learned words only: the call form, compiled once */
		if (!e->call.code || e->call.gen != rc->base_gen) {
			if (compile_code(rc, e, &e->call, RE_FORM_CALL))
				return NULL;
		}
		return &e->call;
	}
	if (!e->full.code || e->full.gen != rc->epoch || nt > e->full_nt ||
	    nm > e->full_nm) {
		if (compile_code(rc, e, &e->full, RE_FORM_FULL))
			return NULL;
	}
	return &e->full;
}

/* re_find() once the pattern's entry e is looked up */
static inline __attribute__((always_inline)) int
find_entry(struct re_ctx *rc, struct re_entry *e, const char *pat,
		      const char *s, size_t n, size_t start,
		      struct re_summary *sum, struct re_m *m)
{
	struct re_code *c;
	pcre2_code *code;
	PCRE2_SIZE *ov;
	int rc2;

	c = re_code(rc, e, s, n, start, sum);
	if (!c || start > n || code_cannot(c, s, n, start))
		return 0;
	code = c->code;
	if (c->jit == RE_JIT_OK) {
		/* pcre2_match() would check again what is known here */
		rc2 = pcre2_jit_match(code, (PCRE2_SPTR)s, n, start, 0, rc->md,
				      rc->mctx);
	} else if (c->jit) {
		rc2 = pcre2_match(code, (PCRE2_SPTR)s, n, start, 0, rc->md,
				  rc->mctx);
	} else {
		uint64_t t0 = now_ns();

		rc2 = pcre2_match(code, (PCRE2_SPTR)s, n, start, 0, rc->md,
				  rc->mctx);
		code_interpreted(rc, c, now_ns() - t0);
	}
	if (rc2 == PCRE2_ERROR_JIT_STACKLIMIT)
		rc2 = pcre2_match(code, (PCRE2_SPTR)s, n, start,
				  PCRE2_NO_JIT, rc->md, rc->mctx);
	if (rc2 == PCRE2_ERROR_MATCHLIMIT) {
		uint32_t retry = RE_MATCH_LIMIT_RETRY;

		/*
		 * Perl's engine prunes some searches that pcre2 walks in full;
		 * a few of checkpatch.pl's patterns need more steps here on
		 * long statements.  Retry once with a far larger budget before
		 * calling it an error (the budget still bounds hostile input).
		 * With a deadline, the retry gets the steps the time left
		 * allows, and a match cut short by that ends the check.
		 */
		if (rc->deadline && !rc->expired) {
			uint64_t t = now_ns();
			uint64_t steps = t < rc->deadline ?
					 (rc->deadline - t) / RE_NS_PER_STEP : 0;

			if (steps < RE_MATCH_LIMIT)
				re_expire(rc);
			else if (steps < retry)
				retry = (uint32_t)steps;
		}
		if (rc->expired)
			return 0;
		pcre2_set_match_limit(rc->mctx, retry);
		rc2 = pcre2_match(code, (PCRE2_SPTR)s, n, start, PCRE2_NO_JIT,
				  rc->md, rc->mctx);
		pcre2_set_match_limit(rc->mctx, RE_MATCH_LIMIT);
		if (rc2 == PCRE2_ERROR_MATCHLIMIT && retry < RE_MATCH_LIMIT_RETRY) {
			re_expire(rc);
			return 0;
		}
	}
	if (rc2 == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc2 < 0) {
		PCRE2_UCHAR msg[160];

		pcre2_get_error_message(rc2, msg, sizeof(msg));
		re_set_error(rc, (const char *)msg, pat);
		return 0;
	}
	if (!m)
		return 1;
	m->s = s;
	m->n = n;
	ov = pcre2_get_ovector_pointer(rc->md);
	if (rc2 == 0 || rc2 > RE_MAXCAP + 1)
		rc2 = RE_MAXCAP + 1;
	m->ncap = rc2;
	memcpy(m->ov, ov, 2 * (size_t)rc2 * sizeof(m->ov[0]));
	/* PCRE2_UNSET is ~0 in every byte */
	memset(m->ov + 2 * rc2, 0xff,
	       (size_t)(2 * (RE_MAXCAP + 1 - rc2)) * sizeof(m->ov[0]));
	return 1;
}

int re_find(struct re_ctx *rc, const char *pat, const char *s, size_t n,
	    size_t start, struct re_m *m)
{
	return find_entry(rc, tab_get(rc, pat), pat, s, n, start, NULL, m);
}

/*
 * A compiled pattern without learned words that must start with one of
 * some bytes fails a subject that starts otherwise, whatever its length:
 * code_cannot() before strlen().
 */
static inline __attribute__((always_inline)) int
first_byte_cannot(const struct re_entry *e, const char *s)
{
	unsigned char b = (unsigned char)s[0];

	return e && !e->dyn && e->base.code && e->base.anchored &&
	       !e->base.nofirst && b && !(e->base.first[b / 8] & (1u << (b % 8)));
}

int re_match(struct re_ctx *rc, const char *pat, const char *s,
	     struct re_m *m)
{
	struct re_entry *e = tab_get(rc, pat);

	if (first_byte_cannot(e, s))
		return 0;
	return find_entry(rc, e, pat, s, strlen(s), 0, NULL, m);
}

int re_match_sum(struct re_ctx *rc, const char *pat, const char *s, size_t n,
		 struct re_summary *sum, struct re_m *m)
{
	struct re_entry *e = tab_get(rc, pat);

	if (first_byte_cannot(e, s))
		return 0;
	return find_entry(rc, e, pat, s, n, 0, sum, m);
}

const char *re_intern(struct re_ctx *rc, const char *pat, size_t n)
{
	size_t h, i;

	if (rc->itabused * 2 >= rc->itabsz) {
		size_t nsz = rc->itabsz * 2;
		struct re_intern_entry *nt = calloc(nsz, sizeof(*nt));

		if (!nt)
			return NULL;
		for (i = 0; i < rc->itabsz; i++) {
			if (!rc->itab[i].s)
				continue;
			h = hash_bytes(rc->itab[i].s, rc->itab[i].n) & (nsz - 1);
			while (nt[h].s)
				h = (h + 1) & (nsz - 1);
			nt[h] = rc->itab[i];
		}
		free(rc->itab);
		rc->itab = nt;
		rc->itabsz = nsz;
	}
	h = hash_bytes(pat, n) & (rc->itabsz - 1);
	while (rc->itab[h].s) {
		if (rc->itab[h].n == n && !memcmp(rc->itab[h].s, pat, n))
			return rc->itab[h].s;
		h = (h + 1) & (rc->itabsz - 1);
	}
	rc->itab[h].s = malloc(n + 1);
	if (!rc->itab[h].s)
		return NULL;
	memcpy(rc->itab[h].s, pat, n);
	rc->itab[h].s[n] = '\0';
	rc->itab[h].n = n;
	rc->itabused++;
	return rc->itab[h].s;
}

/* ---- learned types ---- */

/* Indexes learned word number k for words_in(). */
static void words_filter_add(struct re_ctx *rc, int k)
{
	const char *w = word_of(rc, k);
	unsigned b;

	if (!word_plain(w) || !w[1]) {
		if (!word_plain(w))
			rc->nword_odd++;
		rc->word_other[rc->nword_other++] = k;
		return;
	}
	b = (unsigned)(unsigned char)w[0] << 8 | (unsigned char)w[1];
	rc->word2[b / 64] |= UINT64_C(1) << (b % 64);
	rc->word_next[k] = rc->word_head[b % 1024];
	rc->word_head[b % 1024] = k;
}

static void re_rebuild(struct re_ctx *rc)
{
	vocab_build_types((const char *const *)rc->mods.w, rc->mods.n,
			  (const char *const *)rc->types.w, rc->types.n,
			  rc->dyn);
	rc->gen++;
}

void re_types_reset(struct re_ctx *rc)
{
	/* nothing learned: the compiled patterns are still right */
	if (rc->gen && !rc->mods.n && !rc->types.n)
		return;
	words_clear(&rc->mods);
	words_clear(&rc->types);
	memset(rc->word2, 0, sizeof(rc->word2));
	memset(rc->word_head, -1, sizeof(rc->word_head));
	memset(rc->tset, 0, sizeof(rc->tset));
	rc->nword_other = 0;
	rc->nword_odd = 0;
	rc->mods_prefixed = 0;
	rc->epoch++;
	re_rebuild(rc);
}

int re_types_add(struct re_ctx *rc, int modifier, const char *word, size_t n)
{
	struct re_words *w = modifier ? &rc->mods : &rc->types;
	size_t i;
	char *copy;

	/* A repeated word adds an alternative that can never change a match. */
	for (i = 0; i < w->n; i++)
		if (strlen(w->w[i]) == n && !memcmp(w->w[i], word, n))
			return 0;
	if (w->n >= RE_MAX_WORDS)
		return -1;
	if (w->n == w->alloc) {
		size_t na = w->alloc ? w->alloc * 2 : 16;
		char **nw = realloc(w->w, na * sizeof(*nw));

		if (!nw)
			return -1;
		w->w = nw;
		w->alloc = na;
	}
	copy = malloc(n + 1);
	if (!copy)
		return -1;
	memcpy(copy, word, n);
	copy[n] = '\0';
	for (i = 0; modifier && i < w->n; i++) {
		size_t l = strlen(w->w[i]);

		if (!memcmp(w->w[i], copy, l < n ? l : n))
			rc->mods_prefixed = 1;
	}
	w->w[w->n++] = copy;
	words_filter_add(rc, modifier ? RE_MAX_WORDS + (int)(w->n - 1) :
			 (int)(w->n - 1));
	if (!modifier && word_plain(copy)) {
		size_t h = hash_bytes(copy, n) & (RE_TSET - 1);

		while (rc->tset[h])
			h = (h + 1) & (RE_TSET - 1);
		rc->tset[h] = (uint32_t)w->n;
	}
	re_rebuild(rc);
	return 1;
}

int re_set_typedefs(struct re_ctx *rc, const char *words)
{
	const char *cur = rc->typedefs_extra;
	size_t i;

	/* the same words: the compiled patterns are still right */
	if (rc->gen && (words && *words ? cur && !strcmp(cur, words) : !cur))
		return 0;
	free(rc->typedefs_extra);
	rc->typedefs_extra = NULL;
	if (words && *words) {
		rc->typedefs_extra = strdup(words);
		if (!rc->typedefs_extra)
			return -1;
	}
	rc->gen++;
	rc->base_gen++;
	rc->epoch++;
	/* the literals of a pattern naming $typeTypedefs change */
	for (i = 0; i < rc->nent; i++)
		rc->ent[i].nlit = -1;
	return 0;
}

/* Whether p is one of the interned run-time patterns. */
static int is_interned(const struct re_ctx *rc, const char *p)
{
	size_t n = strlen(p), h = hash_bytes(p, n) & (rc->itabsz - 1);

	while (rc->itab[h].s) {
		if (rc->itab[h].s == p)
			return 1;
		h = (h + 1) & (rc->itabsz - 1);
	}
	return 0;
}

int re_intern_trim(struct re_ctx *rc, size_t max)
{
	size_t i, kept = 0;

	if (rc->itabused <= max)
		return 0;
	/* drop the compiled patterns keyed by interned text, then the text */
	for (i = 0; i < rc->nent; i++) {
		struct re_entry *e = &rc->ent[i];

		if (is_interned(rc, e->pat)) {
			entry_release(e);
			continue;
		}
		rc->ent[kept++] = *e;
	}
	rc->nent = kept;
	memset(rc->idx, 0, rc->tabsz * sizeof(*rc->idx));
	tab_fill(rc, rc->idx, rc->tabsz);
	for (i = 0; i < rc->itabsz; i++) {
		free(rc->itab[i].s);
		rc->itab[i].s = NULL;
		rc->itab[i].n = 0;
	}
	rc->itabused = 0;
	return 1;
}

void re_use_precompiled(struct re_ctx *rc, const struct re_precompiled_set *set)
{
	char ver[64];

	/* serialized code is only valid for the library that wrote it */
	const struct re_precompiled_set *was = rc->pre;
	size_t i;

	if (set && set->pcre2_version &&
	    pcre2_config(PCRE2_CONFIG_VERSION, ver) > 0 &&
	    !strcmp(ver, set->pcre2_version))
		rc->pre = set;
	else
		rc->pre = NULL;
	if (rc->pre != was)
		for (i = 0; i < rc->nent; i++)
			rc->ent[i].prek = 0;
}

unsigned long re_compiles(const struct re_ctx *rc)
{
	return rc->compiles;
}

unsigned long re_decodes(const struct re_ctx *rc)
{
	return rc->decodes;
}

unsigned long re_jits(const struct re_ctx *rc)
{
	return rc->jits;
}

void re_jit_budget_add(struct re_ctx *rc, size_t bytes)
{
	rc->jit_budget = bytes > SIZE_MAX - rc->jit_budget ? SIZE_MAX :
			 rc->jit_budget + bytes;
}

size_t re_jit_code(const struct re_ctx *rc)
{
	return rc->jit_code;
}

int re_learned_word_at(const struct re_ctx *rc, const char *s)
{
	size_t i, n = 0;

	if (rc->typedefs_extra || rc->nword_odd)
		return 1;
	while (is_name_char((unsigned char)s[n]))
		n++;
	if (n && rc->types.n && learned_type(rc, s, n) >= 0)
		return 1;
	/* a modifier is not always followed by \b: a prefix may match */
	for (i = 0; i < rc->mods.n; i++)
		if (!strncmp(s, rc->mods.w[i], strlen(rc->mods.w[i])))
			return 1;
	return 0;
}

size_t re_learned_modifiers(const struct re_ctx *rc)
{
	return rc->mods.n;
}

int re_export(struct re_ctx *rc,
	      int (*cb)(void *arg, const char *text, int dyn, unsigned cpv,
			const unsigned char *bytes, size_t len),
	      void *arg)
{
	size_t i;
	int n = 0;

	re_types_reset(rc);
	for (i = 0; i < rc->nent; i++) {
		struct re_entry *e = &rc->ent[i];
		const pcre2_code *codes[1];
		uint8_t *bytes;
		PCRE2_SIZE size;
		int ret;

		if (!e->base.code || is_interned(rc, e->pat))
			continue;
		codes[0] = e->base.code;
		if (pcre2_serialize_encode(codes, 1, &bytes, &size, NULL) != 1)
			return -1;
		ret = cb(arg, e->pat, e->dyn, e->verdep ? 1u << rc->cpv : 0,
			 bytes, size);
		pcre2_serialize_free(bytes);
		if (ret)
			return -1;
		n++;
	}
	return n;
}

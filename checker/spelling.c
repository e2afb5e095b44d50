// SPDX-License-Identifier: GPL-2.0-only
/*
 * The misspelling list of TYPO_SPELLING (see spelling.h): checkpatch.pl's
 * %spelling_fix hash and an exact equivalent of its one-regex search.
 *
 * The regex is (?:^|B)(K1|K2|...|Kn)(?:B|$) with B = [^\w\-'`], the keys
 * sorted, and /gi.  The engine tries start positions left to right; at
 * each it tries ^ (only at offset 0) and then B, and after either it tries
 * the keys in order, taking the first one that matches case-insensitively
 * and is followed by B or the end.  So at a key position p the winner is
 * the smallest key (in Perl's sort order) among those that match there
 * with a boundary after them.  Keys are indexed by their lowercased text;
 * for each key length that can match at p, one lookup tells whether some
 * key of that length matches there, and which of them sorts first.  Only
 * the word at p is such a length, unless the key holds a boundary byte
 * (see alternation()), and two small filters spare most lookups.
 */
#include "spelling.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "banned.h"

#define MAX_ENTRIES	(4u << 20)
#define TAB_MIN		64u		/* slots of the smallest table */
#define TAB_MAX		(1u << 24)	/* > MAX_ENTRIES * 4 / 3 */
#define SP_NOFIX	UINT32_MAX	/* no fix: Perl's undef */
#define SP_WIN		1u		/* first key in sorted order among its
					 * case variants */
#define PRE_WORDS	64u		/* 4096 bits of the prefix filter */

/*
 * 12 bytes an entry and 8 a slot, so that the dictionary of codespell
 * (37k entries) is about 1.4 MB in memory and in its image: the slot
 * carries the hash, so a probe reads one cache line until the hashes
 * agree.  These structs are also the image's format (no padding).
 */
struct sp_entry {
	uint32_t key;		/* offset of the key in pool */
	uint32_t fix;		/* offset of the NUL-terminated fix, or SP_NOFIX */
	uint16_t klen;		/* <= CHK_SPELLING_MAX_KEY */
	uint16_t flags;		/* SP_WIN */
};

struct sp_slot {
	uint32_t v;		/* entry index + 1; 0: empty */
	uint32_t h;		/* hash_fold() of the key */
};

_Static_assert(sizeof(struct sp_entry) == 12, "sp_entry is 12 bytes");
_Static_assert(sizeof(struct sp_slot) == 8, "sp_slot is 8 bytes");

/*
 * Two filters spare the search most probes of the table, which is too
 * large for the cache: a probe of a word that is no key (nearly every
 * word) would miss it.  Both are bit sets that may say yes wrongly but
 * never say no wrongly, so consulting them changes no answer.
 *
 * The bloom filter holds every slot's hash, two bits of one 64-bit word
 * (4 bits a slot, 32 KB for codespell's dictionary): a hash that lacks
 * either bit is in no slot, so tab_find() would return 0.
 *
 * The prefix filter holds, for each key with a boundary byte ([^\w\-'`])
 * in it, one bit for the hash of its bytes up to and with the first one
 * (see alternation()).  Few keys have one ("an union", "can;t").
 */
static uint32_t bloom_words(uint32_t size)
{
	return size / 16;	/* a power of two: size is one, >= TAB_MIN */
}

static uint64_t bloom_bits(uint32_t h)
{
	return 1ull << (h & 63) | 1ull << (h >> 6 & 63);
}

/* h >> 12 has 20 bits: enough for bloom_words(TAB_MAX) */
static uint32_t bloom_at(uint32_t h, uint32_t words)
{
	return h >> 12 & (words - 1);
}

static uint64_t pre_bit(uint32_t h)
{
	return 1ull << (h & 63);
}

static uint32_t pre_at(uint32_t h)
{
	return h >> 6 & (PRE_WORDS - 1);
}

/*
 * One open-addressing table (linear probing, at most 3/4 full, so that
 * a probe always meets an empty slot) holds every key under the hash of
 * its lowercased text.  An exact lookup compares the bytes; a
 * case-insensitive one takes the key of its case variants that sorts
 * first, which carries SP_WIN.
 */
struct chk_spelling {
	char *pool;		/* keys and fixes, each NUL-terminated */
	uint32_t pool_len, pool_alloc;
	struct sp_entry *ent;
	uint32_t nent, ent_alloc;
	struct sp_slot *slot;
	uint32_t size;		/* slots: a power of two, or 0 */
	uint64_t *bloom;	/* bloom_words(size) words, when size */
	uint64_t pre[PRE_WORDS];	/* the prefix filter */
	uint32_t maxlen;
	uint64_t input;		/* bytes read so far */
	int borrowed;		/* pool, ent, slot, bloom: in an image */
	unsigned char lens[CHK_SPELLING_MAX_KEY + 1];	/* key lengths seen */
};

static int lc(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Perl's \s on bytes */
static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

/*
 * [\w\-'`] as two 64-bit masks of the bytes 0-63 and 64-127: ' - 0-9,
 * then A-Z _ ` a-z.  (The unit tests hold is_bound() to the regex.)
 */
#define WORD_LO	(1ull << '\'' | 1ull << '-' | 0x3ffull << '0')
#define WORD_HI	(0x3ffffffull << ('A' - 64) | 1ull << ('_' - 64) | \
		 1ull << ('`' - 64) | 0x3ffffffull << ('a' - 64))

/* not in [\w\-'`]: may stand before and after a typo */
static inline int is_bound(int c)
{
	return c > 127 || !((c < 64 ? WORD_LO : WORD_HI) >> (c & 63) & 1);
}

/* The index of the first boundary byte in s[0, n), or n. */
static size_t first_bound(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && !is_bound((unsigned char)s[i]); i++)
		;
	return i;
}

/* FNV-1a over the lowercased bytes, folded to 32 bits (part of the image
 * format: changing it changes CHK_SPELLING_IMAGE_VERSION) */
#define FNV_OFF 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint32_t fold32(uint64_t h)
{
	return (uint32_t)(h ^ (h >> 32));
}

static uint32_t hash_fold(const char *s, size_t n)
{
	uint64_t h = FNV_OFF;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)lc((unsigned char)s[i]);
		h *= FNV_PRIME;
	}
	return fold32(h);
}

static int eq_fold(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lc((unsigned char)a[i]) != lc((unsigned char)b[i]))
			return 0;
	return 1;
}

/* Perl's cmp on byte strings */
static int perl_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	if (c)
		return c;
	return na < nb ? -1 : na > nb;
}

static const char *ent_key(const struct chk_spelling *sp, uint32_t i)
{
	return sp->pool + sp->ent[i].key;
}

/*
 * The entry (index + 1) whose key is s[0, n) -- exactly, or with fold
 * case-insensitively and the first of its case variants -- or 0.  h is
 * hash_fold(s, n); *at is left at the slot holding it, or at the empty
 * slot that ended the probe.
 */
static uint32_t tab_find(const struct chk_spelling *sp, uint32_t h,
			 const char *s, size_t n, int fold, uint32_t *at)
{
	uint32_t mask = sp->size - 1, i = h & mask;

	for (;; i = (i + 1) & mask) {
		const struct sp_slot *sl = &sp->slot[i];
		const struct sp_entry *e;

		if (!sl->v)
			break;
		if (sl->h != h)
			continue;
		e = &sp->ent[sl->v - 1];
		if (e->klen != n)
			continue;
		if (fold ? (e->flags & SP_WIN) && eq_fold(sp->pool + e->key, s, n) :
			   !memcmp(sp->pool + e->key, s, n)) {
			*at = i;
			return sl->v;
		}
	}
	*at = i;
	return 0;
}

static void bloom_add(struct chk_spelling *sp, uint32_t h)
{
	sp->bloom[bloom_at(h, bloom_words(sp->size))] |= bloom_bits(h);
}

static int bloom_has(const struct chk_spelling *sp, uint32_t h)
{
	uint64_t b = bloom_bits(h);

	return (sp->bloom[bloom_at(h, bloom_words(sp->size))] & b) == b;
}

static int pre_has(const struct chk_spelling *sp, uint32_t h)
{
	return (sp->pre[pre_at(h)] & pre_bit(h)) != 0;
}

/* Rehashes into ns slots (a power of two above the entries). */
static int tab_resize(struct chk_spelling *sp, uint32_t ns)
{
	struct sp_slot *slot;
	uint64_t *bloom;
	uint32_t i;

	if (ns > TAB_MAX)
		return -1;
	slot = calloc(ns, sizeof(*slot));
	bloom = calloc(bloom_words(ns), sizeof(*bloom));
	if (!slot || !bloom) {
		free(slot);
		free(bloom);
		return -1;
	}
	for (i = 0; i < sp->size; i++) {
		uint32_t j;

		if (!sp->slot[i].v)
			continue;
		for (j = sp->slot[i].h & (ns - 1); slot[j].v; j = (j + 1) & (ns - 1))
			;
		slot[j] = sp->slot[i];
	}
	free(sp->slot);
	free(sp->bloom);
	sp->slot = slot;
	sp->bloom = bloom;
	sp->size = ns;
	for (i = 0; i < ns; i++)
		if (slot[i].v)
			bloom_add(sp, slot[i].h);
	return 0;
}

/* The smallest table size holding n entries at most 3/4 full. */
static uint32_t tab_size_for(uint32_t n)
{
	uint64_t ns = TAB_MIN;

	while (ns * 3 < (uint64_t)n * 4 && ns <= TAB_MAX)
		ns *= 2;
	return (uint32_t)ns;	/* past TAB_MAX: tab_resize() refuses it */
}

static int pool_add(struct chk_spelling *sp, const char *s, size_t n,
		    uint32_t *off)
{
	if (n >= UINT32_MAX - 1 - sp->pool_len)
		return -1;
	if (sp->pool_alloc - sp->pool_len < n + 1) {
		uint64_t na = sp->pool_alloc ? sp->pool_alloc : 1u << 16;
		char *np;

		while (na - sp->pool_len < n + 1)
			na *= 2;
		if (na > UINT32_MAX)
			na = UINT32_MAX;
		np = realloc(sp->pool, (size_t)na);
		if (!np)
			return -1;
		sp->pool = np;
		sp->pool_alloc = (uint32_t)na;
	}
	memcpy(sp->pool + sp->pool_len, s, n);
	sp->pool[sp->pool_len + n] = '\0';
	*off = sp->pool_len;
	sp->pool_len += (uint32_t)n + 1;
	return 0;
}

static int ent_reserve(struct chk_spelling *sp, uint32_t want)
{
	struct sp_entry *ne;

	if (sp->ent_alloc >= want)
		return 0;
	ne = realloc(sp->ent, (size_t)want * sizeof(*ne));
	if (!ne)
		return -1;
	sp->ent = ne;
	sp->ent_alloc = want;
	return 0;
}

/* $spelling_fix{$key} = $fix (fix NULL: undef) */
static int set_entry(struct chk_spelling *sp, const char *key, size_t klen,
		     const char *fix, size_t flen)
{
	uint32_t h, v, w, at, other;
	struct sp_entry *e;
	size_t fb;

	if (klen > CHK_SPELLING_MAX_KEY)
		return 0;
	if ((uint64_t)(sp->nent + 1) * 4 > (uint64_t)sp->size * 3 &&
	    tab_resize(sp, sp->size ? sp->size * 2 : TAB_MIN))
		return -1;
	h = hash_fold(key, klen);
	v = tab_find(sp, h, key, klen, 0, &at);
	if (v) {
		e = &sp->ent[v - 1];
	} else {
		if (sp->nent >= MAX_ENTRIES)
			return -1;
		if (sp->nent == sp->ent_alloc &&
		    ent_reserve(sp, sp->ent_alloc ? sp->ent_alloc * 2 : 1024))
			return -1;
		e = &sp->ent[sp->nent];
		if (pool_add(sp, key, klen, &e->key))
			return -1;
		e->klen = (uint16_t)klen;
		e->flags = SP_WIN;
		/* the first key in sorted order wins among case variants */
		w = tab_find(sp, h, key, klen, 1, &other);
		if (w) {
			if (perl_cmp(key, klen, ent_key(sp, w - 1), klen) < 0)
				sp->ent[w - 1].flags &= (uint16_t)~SP_WIN;
			else
				e->flags = 0;
		}
		sp->slot[at].v = ++sp->nent;
		sp->slot[at].h = h;
		bloom_add(sp, h);
		fb = first_bound(key, klen);
		if (fb < klen) {
			uint32_t ph = hash_fold(key, fb + 1);

			sp->pre[pre_at(ph)] |= pre_bit(ph);
		}
		sp->lens[klen] = 1;
		if (klen > sp->maxlen)
			sp->maxlen = (uint32_t)klen;
	}
	e->fix = SP_NOFIX;
	if (fix && pool_add(sp, fix, flen, &e->fix)) {
		e->fix = SP_NOFIX;
		return -1;
	}
	return 0;
}

/* The separators are two bytes ("||", "->"): memchr for the first. */
static const char *find_str(const char *s, size_t n, const char *what)
{
	const char *p = s, *end = s + n;

	while (p + 1 < end && (p = memchr(p, what[0], (size_t)(end - p - 1)))) {
		if (p[1] == what[1])
			return p;
		p++;
	}
	return NULL;
}

/* /, disabled/i: only a comma can start it */
static int says_disabled(const char *s, size_t n)
{
	static const char dis[] = ", disabled";
	const char *p = s, *end = s + n;

	while ((p = memchr(p, ',', (size_t)(end - p)))) {
		if ((size_t)(end - p) >= sizeof(dis) - 1 &&
		    eq_fold(p, dis, sizeof(dis) - 1))
			return 1;
		p++;
	}
	return 0;
}

/*
 * my ($suspect, $fix) = split(/SEP/, $line): the first two fields, where
 * trailing empty fields are dropped (so "a||" has no fix).
 */
static int split2(struct chk_spelling *sp, const char *s, size_t n,
		  const char *sep)
{
	size_t w = strlen(sep);
	const char *a = find_str(s, n, sep), *b, *end = s + n;
	size_t flen;

	if (!a)
		return set_entry(sp, s, n, NULL, 0);
	b = find_str(a + w, (size_t)(end - (a + w)), sep);
	flen = (size_t)((b ? b : end) - (a + w));
	if (flen == 0) {
		/* the fix is empty: a field only if a non-empty one follows */
		const char *p = b;
		int later = 0;

		while (p && !later) {
			const char *q = find_str(p + w, (size_t)(end - (p + w)), sep);

			if ((q ? q : end) > p + w)
				later = 1;
			p = q;
		}
		if (!later)
			return set_entry(sp, s, (size_t)(a - s), NULL, 0);
	}
	return set_entry(sp, s, (size_t)(a - s), a + w, flen);
}

static int add_line(struct chk_spelling *sp, const char *s, size_t n)
{
	const char *comma;

	/* trailing, then leading whitespace (Perl's \s) */
	while (n && is_space((unsigned char)s[n - 1]))
		n--;
	while (n && is_space((unsigned char)*s)) {
		s++;
		n--;
	}
	if (!n || *s == '#')
		return 0;
	if (find_str(s, n, "||"))
		return split2(sp, s, n, "||");
	/* codespell's dictionary */
	if (says_disabled(s, n))
		return 0;
	comma = memchr(s, ',', n);
	if (comma)
		n = (size_t)(comma - s);
	return split2(sp, s, n, "->");
}

/*
 * Room for nlines more entries (a line makes one at most) and len more
 * pool bytes (a line's key and fix with their NULs take no more than the
 * line and its newline), so that a list loads without growing anything.
 */
static int reserve(struct chk_spelling *sp, size_t nlines, size_t len)
{
	uint64_t want = (uint64_t)sp->nent + nlines, na;
	uint32_t ns;

	if (want > MAX_ENTRIES)
		want = MAX_ENTRIES;
	ns = tab_size_for((uint32_t)want);
	if (ns > sp->size && tab_resize(sp, ns))
		return -1;
	if (ent_reserve(sp, (uint32_t)want))
		return -1;
	na = (uint64_t)sp->pool_len + len + nlines + 1;
	if (na > UINT32_MAX)
		return -1;
	if (sp->pool_alloc < na) {
		char *np = realloc(sp->pool, (size_t)na);

		if (!np)
			return -1;
		sp->pool = np;
		sp->pool_alloc = (uint32_t)na;
	}
	return 0;
}

/* Copy-on-write: an image's arrays become the list's own. */
static int sp_own(struct chk_spelling *sp)
{
	char *pool = malloc(sp->pool_len ? sp->pool_len : 1);
	struct sp_entry *ent = malloc(sp->nent ? sp->nent * sizeof(*ent) : 1);
	struct sp_slot *slot = malloc(sp->size * sizeof(*slot));
	uint64_t *bloom = malloc(bloom_words(sp->size) * sizeof(*bloom));

	if (!pool || !ent || !slot || !bloom) {
		free(pool);
		free(ent);
		free(slot);
		free(bloom);
		return -1;
	}
	memcpy(pool, sp->pool, sp->pool_len);
	memcpy(ent, sp->ent, sp->nent * sizeof(*ent));
	memcpy(slot, sp->slot, sp->size * sizeof(*slot));
	memcpy(bloom, sp->bloom, bloom_words(sp->size) * sizeof(*bloom));
	sp->pool = pool;
	sp->pool_alloc = sp->pool_len;
	sp->ent = ent;
	sp->ent_alloc = sp->nent;
	sp->slot = slot;
	sp->bloom = bloom;
	sp->borrowed = 0;
	return 0;
}

int chk_spelling_add(struct chk_spelling *sp, const char *buf, size_t len)
{
	size_t i = 0, nlines = 1;
	const char *p = buf, *end = buf + len;

	if (len > CHK_SPELLING_MAX_INPUT - sp->input)
		return -1;
	if (sp->borrowed && sp_own(sp))
		return -1;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		nlines++;
		p++;
	}
	if (reserve(sp, nlines, len))
		return -1;
	sp->input += len;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;

		if (add_line(sp, buf + i, n))
			return -1;
		i += n + 1;
	}
	return 0;
}

struct chk_spelling *chk_spelling_new(const char *buf, size_t len)
{
	struct chk_spelling *sp = calloc(1, sizeof(*sp));

	if (!sp)
		return NULL;
	if (chk_spelling_add(sp, buf, len)) {
		chk_spelling_free(sp);
		return NULL;
	}
	return sp;
}

void chk_spelling_free(struct chk_spelling *sp)
{
	if (!sp)
		return;
	if (!sp->borrowed) {
		free(sp->pool);
		free(sp->ent);
		free(sp->slot);
		free(sp->bloom);
	}
	free(sp);
}

size_t chk_spelling_count(const struct chk_spelling *sp)
{
	return sp ? sp->nent : 0;
}

/* tab_find(), case-insensitively, past the bloom filter */
static uint32_t probe(const struct chk_spelling *sp, uint32_t h, const char *s,
		      size_t n)
{
	uint32_t at;

	return bloom_has(sp, h) ? tab_find(sp, h, s, n, 1, &at) : 0;
}

/*
 * The alternation at p: the first key in sorted order matching s[p, ...)
 * case-insensitively and followed by a boundary or the end.  Returns the
 * entry index + 1, or 0.
 *
 * The candidates are the key lengths l <= max after which s has a
 * boundary or ends.  Let r be the length of the run of non-boundary bytes
 * at p.  No l < r is one (s[p + l] is not a boundary); l = r is.  A key
 * of length l > r that matches has at r a byte that folds to s[p + r], a
 * boundary (lc() moves no byte across [\w\-'`]), and none before: so its
 * first boundary byte is at r, its first r + 1 bytes hash as
 * s[p, p + r + 1) and the prefix filter holds that hash.  Hence l = r is
 * tried (when the bloom filter lets it through, else tab_find() would
 * miss), and the lengths past r are tried one by one only when the prefix
 * filter admits s[p, p + r + 1).  A run longer than max leaves no
 * candidate at all.  *run is set to r (at most max): s[p, p + r) holds
 * no boundary byte.
 */
static uint32_t alternation(const struct chk_spelling *sp, const char *s,
			    size_t n, size_t p, size_t *run)
{
	uint64_t h = FNV_OFF;
	uint32_t best = 0, v;
	size_t l, r, max = n - p < sp->maxlen ? n - p : sp->maxlen;

	for (r = 0; r < max && !is_bound((unsigned char)s[p + r]); r++) {
		h ^= (unsigned char)lc((unsigned char)s[p + r]);
		h *= FNV_PRIME;
	}
	*run = r;
	if (p + r != n && !is_bound((unsigned char)s[p + r]))
		return 0;
	if (sp->lens[r])
		best = probe(sp, fold32(h), s + p, r);
	if (r == max)
		return best;
	/* s[p + r] is a boundary byte, which lc() leaves alone */
	h ^= (unsigned char)s[p + r];
	h *= FNV_PRIME;
	if (!pre_has(sp, fold32(h)))
		return best;
	for (l = r + 1; l <= max; l++) {
		if (l > r + 1) {
			h ^= (unsigned char)lc((unsigned char)s[p + l - 1]);
			h *= FNV_PRIME;
		}
		if (!sp->lens[l] || (p + l != n && !is_bound((unsigned char)s[p + l])))
			continue;
		v = probe(sp, fold32(h), s + p, l);
		if (v && (!best ||
			  perl_cmp(ent_key(sp, v - 1), l, ent_key(sp, best - 1),
				   sp->ent[best - 1].klen) < 0))
			best = v;
	}
	return best;
}

/* The match of entry v - 1 at p, tried from st (st == p or st + 1 == p). */
static int found(const struct chk_spelling *sp, size_t n, size_t st, size_t p,
		 uint32_t v, size_t *pos, size_t *start, size_t *len)
{
	*start = p;
	*len = sp->ent[v - 1].klen;
	/* (?:[^\w\-'`]|$) eats the boundary character */
	*pos = p + *len < n ? p + *len + 1 : n;
	/* an empty match at the end: Perl's /g stops after it */
	if (*pos == st)
		*pos = n + 1;
	return 1;
}

int chk_spelling_next(const struct chk_spelling *sp, const char *s, size_t n,
		      size_t *pos, size_t *start, size_t *len)
{
	size_t st, run;
	uint32_t v;

	if (!sp || !sp->nent || *pos > n)
		return 0;
	/* (?:^|[^\w\-'`]) at st: ^ first (only at 0), then the boundary byte */
	st = *pos;
	if (st == 0 && (v = alternation(sp, s, n, 0, &run)))
		return found(sp, n, 0, 0, v, pos, start, len);
	while (st < n) {
		if (!is_bound((unsigned char)s[st])) {
			st++;
			continue;
		}
		v = alternation(sp, s, n, st + 1, &run);
		if (v)
			return found(sp, n, st, st + 1, v, pos, start, len);
		/* s[st + 1, st + 1 + run) has no boundary byte to start at */
		st += 1 + run;
	}
	return 0;
}

const char *chk_spelling_fix(const struct chk_spelling *sp, const char *typo,
			     size_t n)
{
	char buf[CHK_SPELLING_MAX_KEY];
	size_t i;
	uint32_t v, at;
	const struct sp_entry *e;

	if (!sp || !sp->nent || n > CHK_SPELLING_MAX_KEY)
		return NULL;
	for (i = 0; i < n; i++)
		buf[i] = (char)lc((unsigned char)typo[i]);
	v = tab_find(sp, hash_fold(buf, n), buf, n, 0, &at);
	if (!v)
		return NULL;
	e = &sp->ent[v - 1];
	return e->fix != SP_NOFIX ? sp->pool + e->fix : NULL;
}

/*
 * The image: this header, the entries, zeros up to a multiple of 8, the
 * slots, the bloom filter (bloom_words(size) words), the prefix filter
 * (PRE_WORDS words), the pool.  Native byte order, checked on load with
 * the sizes of the structs; every offset is relative, so the image works
 * wherever it is mapped.
 */
#define IMG_MAGIC	"RBSPELL\n"
#define IMG_ORDER	0x01020304u
#define IMG_SIZES	((uint32_t)sizeof(size_t) | (uint32_t)sizeof(struct sp_entry) << 8 | \
			 (uint32_t)sizeof(struct sp_slot) << 16)

struct sp_image {
	char magic[8];
	uint32_t version;	/* CHK_SPELLING_IMAGE_VERSION */
	uint32_t order;		/* IMG_ORDER as the writer stored it */
	uint32_t sizes;		/* IMG_SIZES of the writer */
	uint32_t nent;
	uint32_t size;		/* slots */
	uint32_t pool_len;
	uint64_t input;
	uint64_t total;		/* bytes of the image */
};

_Static_assert(sizeof(struct sp_image) == 48, "no padding in the header");

static uint64_t img_ent_bytes(uint32_t nent)
{
	return ((uint64_t)nent * sizeof(struct sp_entry) + 7) & ~(uint64_t)7;
}

/* the two filters, after the slots */
static uint64_t img_filter_bytes(uint32_t size)
{
	return ((uint64_t)bloom_words(size) + PRE_WORDS) * sizeof(uint64_t);
}

int chk_spelling_image(const struct chk_spelling *sp, struct sbuf *out)
{
	static const char zero[8];
	struct sp_image hdr;
	uint64_t eb;

	if (!sp || !sp->size)
		return -1;
	eb = img_ent_bytes(sp->nent);
	memset(&hdr, 0, sizeof(hdr));
	memcpy(hdr.magic, IMG_MAGIC, sizeof(hdr.magic));
	hdr.version = CHK_SPELLING_IMAGE_VERSION;
	hdr.order = IMG_ORDER;
	hdr.sizes = IMG_SIZES;
	hdr.nent = sp->nent;
	hdr.size = sp->size;
	hdr.pool_len = sp->pool_len;
	hdr.input = sp->input;
	hdr.total = sizeof(hdr) + eb + (uint64_t)sp->size * sizeof(struct sp_slot) +
		    img_filter_bytes(sp->size) + sp->pool_len;
	sbuf_add(out, &hdr, sizeof(hdr));
	sbuf_add(out, sp->ent, (size_t)sp->nent * sizeof(struct sp_entry));
	sbuf_add(out, zero, (size_t)(eb - (uint64_t)sp->nent * sizeof(struct sp_entry)));
	sbuf_add(out, sp->slot, (size_t)sp->size * sizeof(struct sp_slot));
	sbuf_add(out, sp->bloom, bloom_words(sp->size) * sizeof(uint64_t));
	sbuf_add(out, sp->pre, sizeof(sp->pre));
	sbuf_add(out, sp->pool, sp->pool_len);
	return out->err ? -1 : 0;
}

/*
 * Every field is checked in one pass over the entries and one over the
 * slots, so that no lookup can leave the image or probe forever: the
 * sizes and their sum against len, the table a power of two at most 3/4
 * full (as many slots used as there are entries, so that a probe ends),
 * each slot naming an entry, each entry's key inside the pool and its
 * fix NUL-terminated there (the pool ends with a NUL).  What only makes
 * answers wrong is not looked for: hashes are not recomputed, an entry
 * named by two slots is not noticed, and the filters' bits are taken as
 * they are (their size follows from the table's).
 */
struct chk_spelling *chk_spelling_from_image(const void *buf, size_t len)
{
	const unsigned char *b = buf;
	struct sp_image hdr;
	struct chk_spelling *sp = NULL;
	uint64_t eb, slot_off, bloom_off, pool_off;
	uint32_t i, used = 0;
	int bad = 0;

	if (!buf || len < sizeof(hdr) || ((uintptr_t)buf & 7))
		return NULL;
	memcpy(&hdr, buf, sizeof(hdr));
	if (memcmp(hdr.magic, IMG_MAGIC, sizeof(hdr.magic)) ||
	    hdr.version != CHK_SPELLING_IMAGE_VERSION || hdr.order != IMG_ORDER ||
	    hdr.sizes != IMG_SIZES)
		return NULL;
	if (hdr.nent > MAX_ENTRIES || hdr.size < TAB_MIN || hdr.size > TAB_MAX ||
	    (hdr.size & (hdr.size - 1)) ||
	    (uint64_t)hdr.nent * 4 > (uint64_t)hdr.size * 3 ||
	    hdr.input > CHK_SPELLING_MAX_INPUT || (hdr.nent && !hdr.pool_len))
		return NULL;
	eb = img_ent_bytes(hdr.nent);
	slot_off = sizeof(hdr) + eb;
	bloom_off = slot_off + (uint64_t)hdr.size * sizeof(struct sp_slot);
	pool_off = bloom_off + img_filter_bytes(hdr.size);
	if (hdr.total != pool_off + hdr.pool_len || hdr.total != len)
		return NULL;
	for (i = (uint32_t)(sizeof(hdr) + (uint64_t)hdr.nent * sizeof(struct sp_entry));
	     i < slot_off; i++)
		if (b[i])
			return NULL;
	if (hdr.pool_len && b[pool_off + hdr.pool_len - 1])
		return NULL;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return NULL;
	sp->ent = (struct sp_entry *)(b + sizeof(hdr));
	sp->slot = (struct sp_slot *)(b + slot_off);
	sp->bloom = (uint64_t *)(b + bloom_off);	/* never written */
	memcpy(sp->pre, sp->bloom + bloom_words(hdr.size), sizeof(sp->pre));
	sp->pool = (char *)(b + pool_off);	/* never written: borrowed */
	sp->borrowed = 1;
	sp->nent = sp->ent_alloc = hdr.nent;
	sp->size = hdr.size;
	sp->pool_len = sp->pool_alloc = hdr.pool_len;
	sp->input = hdr.input;
	/* branch-free passes over the entries and the slots (not the pool) */
	for (i = 0; i < hdr.nent; i++) {
		const struct sp_entry *e = &sp->ent[i];
		uint32_t kl = e->klen > CHK_SPELLING_MAX_KEY ? 0 : e->klen;

		bad |= (e->klen > CHK_SPELLING_MAX_KEY) | ((e->flags & ~SP_WIN) != 0) |
		       ((uint64_t)e->key + e->klen >= hdr.pool_len) |
		       (e->fix != SP_NOFIX && e->fix >= hdr.pool_len);
		sp->lens[kl] = 1;
		sp->maxlen = kl > sp->maxlen ? kl : sp->maxlen;
	}
	for (i = 0; i < hdr.size; i++) {
		uint32_t v = sp->slot[i].v;

		used += v != 0;
		bad |= v > hdr.nent;
	}
	if (bad)
		goto bad;
	if (used != hdr.nent)
		goto bad;
	return sp;
bad:
	free(sp);
	return NULL;
}

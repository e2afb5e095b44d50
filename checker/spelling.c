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
 * for each key length that occurs, one lookup tells whether some key of
 * that length matches at p, and which of them sorts first.
 */
#include "spelling.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

#define MAX_ENTRIES	(4u << 20)

struct sp_entry {
	size_t key;		/* offset of the key in pool */
	size_t klen;
	size_t fix;		/* offset of the NUL-terminated fix */
	int has_fix;		/* 0: Perl's undef */
};

struct sp_table {		/* open addressing, values are entry index + 1 */
	uint32_t *slot;
	uint64_t *hash;
	size_t size;		/* power of two, or 0 */
	size_t used;
};

struct chk_spelling {
	char *pool;		/* keys and fixes */
	size_t pool_len, pool_alloc;
	struct sp_entry *ent;
	size_t nent, ent_alloc;
	struct sp_table exact;	/* key -> entry */
	struct sp_table fold;	/* lowercased key -> entry of the first key
				 * in sorted order with that lowercase form */
	unsigned char lens[CHK_SPELLING_MAX_KEY + 1];	/* key lengths seen */
	size_t maxlen;
	size_t input;		/* bytes read so far */
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

/* not in [\w\-'`]: may stand before and after a typo */
static int is_bound(int c)
{
	return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		 (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		 c == '\'' || c == '`');
}

#define FNV_OFF 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t hash_bytes(const char *s, size_t n, int fold)
{
	uint64_t h = FNV_OFF;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)(fold ? lc((unsigned char)s[i]) : s[i]);
		h *= FNV_PRIME;
	}
	return h;
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

static const char *ent_key(const struct chk_spelling *sp, size_t i)
{
	return sp->pool + sp->ent[i].key;
}

/* The slot of s[0, n) (its hash h) in t: holding it, or the empty one. */
static size_t tab_find(const struct chk_spelling *sp, const struct sp_table *t,
		       uint64_t h, const char *s, size_t n, int fold)
{
	size_t mask = t->size - 1, i = (size_t)h & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t v = t->slot[i];
		const struct sp_entry *e;

		if (!v)
			return i;
		e = &sp->ent[v - 1];
		if (t->hash[i] == h && e->klen == n &&
		    (fold ? eq_fold(ent_key(sp, v - 1), s, n) :
			    !memcmp(ent_key(sp, v - 1), s, n)))
			return i;
	}
}

static int tab_grow(struct sp_table *t)
{
	size_t ns = t->size ? t->size * 2 : 1024, i;
	uint32_t *slot = calloc(ns, sizeof(*slot));
	uint64_t *hash = calloc(ns, sizeof(*hash));

	if (!slot || !hash) {
		free(slot);
		free(hash);
		return -1;
	}
	for (i = 0; i < t->size; i++) {
		size_t j;

		if (!t->slot[i])
			continue;
		for (j = (size_t)t->hash[i] & (ns - 1); slot[j]; j = (j + 1) & (ns - 1))
			;
		slot[j] = t->slot[i];
		hash[j] = t->hash[i];
	}
	free(t->slot);
	free(t->hash);
	t->slot = slot;
	t->hash = hash;
	t->size = ns;
	return 0;
}

static int pool_add(struct chk_spelling *sp, const char *s, size_t n,
		    size_t *off)
{
	if (sp->pool_alloc - sp->pool_len < n + 1) {
		size_t na = sp->pool_alloc ? sp->pool_alloc : 1u << 16;
		char *np;

		while (na - sp->pool_len < n + 1)
			na *= 2;
		np = realloc(sp->pool, na);
		if (!np)
			return -1;
		sp->pool = np;
		sp->pool_alloc = na;
	}
	memcpy(sp->pool + sp->pool_len, s, n);
	sp->pool[sp->pool_len + n] = '\0';
	*off = sp->pool_len;
	sp->pool_len += n + 1;
	return 0;
}

/* $spelling_fix{$key} = $fix (fix NULL: undef) */
static int set_entry(struct chk_spelling *sp, const char *key, size_t klen,
		     const char *fix, size_t flen)
{
	uint64_t h, hf;
	size_t i, j;
	struct sp_entry *e;

	if (klen > CHK_SPELLING_MAX_KEY)
		return 0;
	if ((sp->exact.used + 1) * 2 > sp->exact.size && tab_grow(&sp->exact))
		return -1;
	if ((sp->fold.used + 1) * 2 > sp->fold.size && tab_grow(&sp->fold))
		return -1;
	h = hash_bytes(key, klen, 0);
	i = tab_find(sp, &sp->exact, h, key, klen, 0);
	if (sp->exact.slot[i]) {
		e = &sp->ent[sp->exact.slot[i] - 1];
	} else {
		if (sp->nent >= MAX_ENTRIES)
			return -1;
		if (sp->nent == sp->ent_alloc) {
			size_t na = sp->ent_alloc ? sp->ent_alloc * 2 : 1024;
			struct sp_entry *ne = realloc(sp->ent, na * sizeof(*ne));

			if (!ne)
				return -1;
			sp->ent = ne;
			sp->ent_alloc = na;
		}
		e = &sp->ent[sp->nent];
		if (pool_add(sp, key, klen, &e->key))
			return -1;
		e->klen = klen;
		sp->exact.slot[i] = (uint32_t)++sp->nent;
		sp->exact.hash[i] = h;
		sp->exact.used++;

		/* the first key in sorted order wins among case variants */
		hf = hash_bytes(key, klen, 1);
		j = tab_find(sp, &sp->fold, hf, key, klen, 1);
		if (!sp->fold.slot[j]) {
			sp->fold.slot[j] = (uint32_t)sp->nent;
			sp->fold.hash[j] = hf;
			sp->fold.used++;
		} else if (perl_cmp(key, klen, ent_key(sp, sp->fold.slot[j] - 1),
				    klen) < 0) {
			sp->fold.slot[j] = (uint32_t)sp->nent;
		}
		sp->lens[klen] = 1;
		if (klen > sp->maxlen)
			sp->maxlen = klen;
	}
	e->has_fix = fix != NULL;
	e->fix = 0;
	if (fix && pool_add(sp, fix, flen, &e->fix))
		return -1;
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
 * Room for about nlines more entries and len more pool bytes, so that a
 * list is loaded without growing the tables line by line.
 */
static int reserve(struct chk_spelling *sp, size_t nlines, size_t len)
{
	size_t want = sp->nent + nlines, na;

	if (want > MAX_ENTRIES)
		want = MAX_ENTRIES;
	while (sp->exact.size < 2 * want)
		if (tab_grow(&sp->exact))
			return -1;
	while (sp->fold.size < 2 * want)
		if (tab_grow(&sp->fold))
			return -1;
	if (sp->ent_alloc < want) {
		struct sp_entry *ne = realloc(sp->ent, want * sizeof(*ne));

		if (!ne)
			return -1;
		sp->ent = ne;
		sp->ent_alloc = want;
	}
	na = sp->pool_len + len + nlines + 1;
	if (sp->pool_alloc < na) {
		char *np = realloc(sp->pool, na);

		if (!np)
			return -1;
		sp->pool = np;
		sp->pool_alloc = na;
	}
	return 0;
}

int chk_spelling_add(struct chk_spelling *sp, const char *buf, size_t len)
{
	size_t i = 0, nlines = 1;
	const char *p = buf, *end = buf + len;

	if (len > CHK_SPELLING_MAX_INPUT - sp->input)
		return -1;
	sp->input += len;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		nlines++;
		p++;
	}
	if (reserve(sp, nlines, len))
		return -1;
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
	free(sp->pool);
	free(sp->ent);
	free(sp->exact.slot);
	free(sp->exact.hash);
	free(sp->fold.slot);
	free(sp->fold.hash);
	free(sp);
}

size_t chk_spelling_count(const struct chk_spelling *sp)
{
	return sp ? sp->nent : 0;
}

/*
 * The alternation at p: the first key in sorted order matching s[p, ...)
 * case-insensitively and followed by a boundary or the end.  Returns the
 * entry index + 1, or 0.
 */
static size_t alternation(const struct chk_spelling *sp, const char *s,
			  size_t n, size_t p)
{
	uint64_t h = FNV_OFF;
	size_t best = 0, l, max = n - p < sp->maxlen ? n - p : sp->maxlen;

	for (l = 0; l <= max; l++) {
		if (l) {
			h ^= (unsigned char)lc((unsigned char)s[p + l - 1]);
			h *= FNV_PRIME;
		}
		if (sp->lens[l] && (p + l == n || is_bound((unsigned char)s[p + l]))) {
			size_t i = tab_find(sp, &sp->fold, h, s + p, l, 1);
			uint32_t v = sp->fold.slot[i];

			if (v && (!best ||
				  perl_cmp(ent_key(sp, v - 1), l,
					   ent_key(sp, best - 1),
					   sp->ent[best - 1].klen) < 0))
				best = v;
		}
	}
	return best;
}

int chk_spelling_next(const struct chk_spelling *sp, const char *s, size_t n,
		      size_t *pos, size_t *start, size_t *len)
{
	size_t st, p, v;

	if (!sp || !sp->nent || *pos > n)
		return 0;
	for (st = *pos; st <= n; st++) {
		/* (?:^|[^\w\-'`]): ^ first, then the boundary character */
		for (int alt = 0; alt < 2; alt++) {
			if (alt == 0 && st != 0)
				continue;
			if (alt == 1 && (st == n || !is_bound((unsigned char)s[st])))
				continue;
			p = st + (size_t)alt;
			v = alternation(sp, s, n, p);
			if (!v)
				continue;
			*start = p;
			*len = sp->ent[v - 1].klen;
			/* (?:[^\w\-'`]|$) eats the boundary character */
			*pos = p + *len < n ? p + *len + 1 : n;
			/* an empty match at the end: Perl's /g stops after it */
			if (*pos == st)
				*pos = n + 1;
			return 1;
		}
	}
	return 0;
}

const char *chk_spelling_fix(const struct chk_spelling *sp, const char *typo,
			     size_t n)
{
	char buf[CHK_SPELLING_MAX_KEY];
	size_t i, k;
	const struct sp_entry *e;

	if (!sp || !sp->nent || n > CHK_SPELLING_MAX_KEY)
		return NULL;
	for (i = 0; i < n; i++)
		buf[i] = (char)lc((unsigned char)typo[i]);
	k = tab_find(sp, &sp->exact, hash_bytes(buf, n, 0), buf, n, 0);
	if (!sp->exact.slot[k])
		return NULL;
	e = &sp->ent[sp->exact.slot[k] - 1];
	return e->has_fix ? sp->pool + e->fix : NULL;
}

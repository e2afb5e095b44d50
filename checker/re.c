// SPDX-License-Identifier: GPL-2.0-only
#define PCRE2_CODE_UNIT_WIDTH 8
#include "re.h"

#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vocab.h"
#include "banned.h"

#define RE_JIT_AFTER	4096		/* uses before a pattern is JIT-compiled:
					 * JIT costs ~100x a compile, worth it
					 * only for big inputs */
#define RE_MATCH_LIMIT	5000000		/* backtracking steps per match */
#define RE_MATCH_LIMIT_RETRY 200000000	/* ... for the one retry */
#define RE_EXPAND_MAX	(4u << 20)	/* bytes of one expanded pattern */
#define RE_MAX_WORDS	4096		/* learned types or modifiers per file */

struct re_entry {
	const char *pat;	/* key: the pattern literal's address */
	pcre2_code *code;
	unsigned gen;		/* type generation compiled against */
	unsigned uses;
	unsigned char dyn;	/* interpolates the learned types */
	unsigned char jit;
	unsigned char bad;	/* failed to compile: never retried */
};

struct re_intern_entry {
	char *s;
	size_t n;
};

struct re_words {
	char **w;
	size_t n, alloc;
};

struct re_ctx {
	struct re_entry *tab;
	size_t tabsz, tabused;
	struct re_intern_entry *itab;
	size_t itabsz, itabused;
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	struct re_words mods, types;
	struct sbuf dyn[VDYN__COUNT];
	struct sbuf all0;
	char *typedefs_extra;	/* --typedefsfile words, '|'-joined */
	const struct re_precompiled_set *pre;
	unsigned long compiles, decodes;
	unsigned gen;
	char err[256];
};

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
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 17;
	x *= 0xed5ad4bbU;
	x ^= x >> 11;
	return (size_t)x;
}

static size_t hash_bytes(const char *s, size_t n)
{
	size_t h = 1469598103934665603ULL & (size_t)-1;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * (size_t)1099511628211ULL;
	return h;
}

struct re_ctx *re_ctx_new(void)
{
	struct re_ctx *rc = calloc(1, sizeof(*rc));
	int i;

	if (!rc)
		return NULL;
	rc->tabsz = 1024;
	rc->tab = calloc(rc->tabsz, sizeof(*rc->tab));
	rc->itabsz = 256;
	rc->itab = calloc(rc->itabsz, sizeof(*rc->itab));
	rc->md = pcre2_match_data_create(RE_MAXCAP + 1, NULL);
	rc->mctx = pcre2_match_context_create(NULL);
	if (!rc->tab || !rc->itab || !rc->md || !rc->mctx) {
		re_ctx_free(rc);
		return NULL;
	}
	pcre2_set_match_limit(rc->mctx, RE_MATCH_LIMIT);
	for (i = 0; i < VDYN__COUNT; i++)
		sbuf_init(&rc->dyn[i], RE_EXPAND_MAX);
	sbuf_init(&rc->all0, RE_EXPAND_MAX);
	{
		void vocab_type_all0(struct sbuf *out);

		vocab_type_all0(&rc->all0);
	}
	re_types_reset(rc);
	return rc;
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
	for (i = 0; rc->tab && i < rc->tabsz; i++)
		pcre2_code_free(rc->tab[i].code);
	free(rc->tab);
	for (i = 0; rc->itab && i < rc->itabsz; i++)
		free(rc->itab[i].s);
	free(rc->itab);
	pcre2_match_data_free(rc->md);
	pcre2_match_context_free(rc->mctx);
	words_clear(&rc->mods);
	words_clear(&rc->types);
	free(rc->mods.w);
	free(rc->types.w);
	for (i = 0; i < VDYN__COUNT; i++)
		sbuf_release(&rc->dyn[i]);
	sbuf_release(&rc->all0);
	free(rc->typedefs_extra);
	free(rc);
}

static int is_interned(const struct re_ctx *rc, const char *p);

/* ---- interpolation ---- */

static int expand_into(struct re_ctx *rc, const char *src, struct sbuf *out,
		       int *dyn, int depth);

static int expand_name(struct re_ctx *rc, const char *name, size_t n,
		       struct sbuf *out, int *dyn, int depth)
{
	const struct vocab *v = vocab_find(name, n);

	if (!v) {
		re_set_error(rc, "unknown pattern name", name);
		return -1;
	}
	if (v->kind == VOCAB_DYN) {
		*dyn = 1;
		sbuf_addstr(out, "(?^:");
		if (expand_into(rc, rc->dyn[v->dyn].buf, out, dyn, depth + 1))
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

static int is_name_start(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int is_name_char(int c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
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
	return sbuf_detach(&sb, NULL);
}

/* ---- the cache ---- */

static int tab_grow(struct re_ctx *rc)
{
	size_t nsz = rc->tabsz * 2, i;
	struct re_entry *nt = calloc(nsz, sizeof(*nt));

	if (!nt)
		return -1;
	for (i = 0; i < rc->tabsz; i++) {
		size_t h;

		if (!rc->tab[i].pat)
			continue;
		h = hash_ptr(rc->tab[i].pat) & (nsz - 1);
		while (nt[h].pat)
			h = (h + 1) & (nsz - 1);
		nt[h] = rc->tab[i];
	}
	free(rc->tab);
	rc->tab = nt;
	rc->tabsz = nsz;
	return 0;
}

static struct re_entry *tab_get(struct re_ctx *rc, const char *pat)
{
	size_t h;

	if (rc->tabused * 2 >= rc->tabsz && tab_grow(rc))
		return NULL;
	h = hash_ptr(pat) & (rc->tabsz - 1);
	while (rc->tab[h].pat && rc->tab[h].pat != pat)
		h = (h + 1) & (rc->tabsz - 1);
	if (!rc->tab[h].pat) {
		rc->tab[h].pat = pat;
		rc->tabused++;
	}
	return &rc->tab[h];
}

/* The precompiled code of a literal pattern, when valid in this state. */
static pcre2_code *precompiled(struct re_ctx *rc, const char *pat, int *dyn)
{
	const struct re_precompiled_set *set = rc->pre;
	size_t lo = 0, hi;
	pcre2_code *code = NULL;

	/* the table was compiled with no learned words */
	if (!set || rc->mods.n || rc->types.n || rc->typedefs_extra)
		return NULL;
	hi = set->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(set->v[mid].text, pat);

		if (!c) {
			if (pcre2_serialize_decode(&code, 1, set->v[mid].bytes, NULL) != 1)
				return NULL;
			*dyn = set->v[mid].dyn;
			rc->decodes++;
			return code;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int compile_entry(struct re_ctx *rc, struct re_entry *e)
{
	struct sbuf sb;
	int dyn = 0, errcode;
	PCRE2_SIZE erroff;

	pcre2_code_free(e->code);
	e->code = NULL;
	e->jit = 0;
	e->uses = 0;
	e->code = precompiled(rc, e->pat, &dyn);
	if (e->code) {
		e->dyn = (unsigned char)dyn;
		e->gen = rc->gen;
		return 0;
	}
	rc->compiles++;
	sbuf_init(&sb, RE_EXPAND_MAX);
	if (expand_into(rc, e->pat, &sb, &dyn, 0)) {
		sbuf_release(&sb);
		e->bad = 1;
		return -1;
	}
	e->code = pcre2_compile((PCRE2_SPTR)sb.buf, sb.len, 0, &errcode,
				&erroff, NULL);
	sbuf_release(&sb);
	if (!e->code) {
		PCRE2_UCHAR msg[160];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		re_set_error(rc, (const char *)msg, e->pat);
		e->bad = 1;
		return -1;
	}
	e->dyn = (unsigned char)dyn;
	e->gen = rc->gen;
	return 0;
}

static pcre2_code *re_code(struct re_ctx *rc, const char *pat)
{
	struct re_entry *e = tab_get(rc, pat);

	if (!e)
		return NULL;
	if (e->bad)
		return NULL;
	if (!e->code || (e->dyn && e->gen != rc->gen)) {
		if (compile_entry(rc, e))
			return NULL;
	}
	if (++e->uses == RE_JIT_AFTER && !e->jit) {
		e->jit = 1;
		pcre2_jit_compile(e->code, PCRE2_JIT_COMPLETE);
	}
	return e->code;
}

int re_find(struct re_ctx *rc, const char *pat, const char *s, size_t n,
	    size_t start, struct re_m *m)
{
	pcre2_code *code = re_code(rc, pat);
	PCRE2_SIZE *ov;
	int rc2, i;

	if (!code)
		return 0;
	if (start > n)
		return 0;
	rc2 = pcre2_match(code, (PCRE2_SPTR)s, n, start, 0, rc->md, rc->mctx);
	if (rc2 == PCRE2_ERROR_JIT_STACKLIMIT)
		rc2 = pcre2_match(code, (PCRE2_SPTR)s, n, start,
				  PCRE2_NO_JIT, rc->md, rc->mctx);
	if (rc2 == PCRE2_ERROR_MATCHLIMIT) {
		/*
		 * Perl's engine prunes some searches that pcre2 walks in full;
		 * a few of checkpatch.pl's patterns need more steps here on
		 * long statements.  Retry once with a far larger budget before
		 * calling it an error (the budget still bounds hostile input).
		 */
		pcre2_set_match_limit(rc->mctx, RE_MATCH_LIMIT_RETRY);
		rc2 = pcre2_match(code, (PCRE2_SPTR)s, n, start, PCRE2_NO_JIT,
				  rc->md, rc->mctx);
		pcre2_set_match_limit(rc->mctx, RE_MATCH_LIMIT);
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
	for (i = 0; i < 2 * (RE_MAXCAP + 1); i++)
		m->ov[i] = i < 2 * rc2 ? ov[i] : PCRE2_UNSET;
	return 1;
}

int re_match(struct re_ctx *rc, const char *pat, const char *s,
	     struct re_m *m)
{
	return re_find(rc, pat, s, strlen(s), 0, m);
}

int re_cap_defined(const struct re_m *m, int i)
{
	return i >= 0 && i <= RE_MAXCAP && m->ov[2 * i] != PCRE2_UNSET;
}

const char *re_cap(const struct re_m *m, int i, size_t *len)
{
	if (!re_cap_defined(m, i)) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = m->ov[2 * i + 1] - m->ov[2 * i];
	return m->s + m->ov[2 * i];
}

int re_cap_add(const struct re_m *m, int i, struct sbuf *out)
{
	size_t n;
	const char *p = re_cap(m, i, &n);

	if (!p)
		return 0;
	sbuf_add(out, p, n);
	return 1;
}

const char *re_cap_str(const struct re_m *m, int i, char *buf, size_t sz)
{
	size_t n;
	const char *p = re_cap(m, i, &n);

	if (!sz)
		return buf;
	if (!p)
		n = 0;
	if (n >= sz)
		n = sz - 1;
	if (n)
		memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

size_t re_start(const struct re_m *m, int i)
{
	return re_cap_defined(m, i) ? m->ov[2 * i] : 0;
}

size_t re_end(const struct re_m *m, int i)
{
	return re_cap_defined(m, i) ? m->ov[2 * i + 1] : 0;
}

int re_subst(struct re_ctx *rc, const char *pat, const char *repl,
	     const char *s, size_t n, int global, struct sbuf *out)
{
	struct re_m m;
	size_t pos = 0, last = 0;
	int count = 0;
	struct sbuf res;

	sbuf_init(&res, out->cap);
	while (pos <= n && re_find(rc, pat, s, n, pos, &m)) {
		const char *r = repl;
		size_t ms = m.ov[0], me = m.ov[1];

		sbuf_add(&res, s + last, ms - last);
		while (*r) {
			if (*r == '\\' && r[1]) {
				sbuf_addch(&res, r[1]);
				r += 2;
			} else if (*r == '$' && r[1] >= '0' && r[1] <= '9') {
				re_cap_add(&m, r[1] - '0', &res);
				r += 2;
			} else if (*r == '$' && r[1] == '{') {
				int g = 0;

				r += 2;
				while (*r >= '0' && *r <= '9')
					g = g * 10 + (*r++ - '0');
				if (*r == '}')
					r++;
				re_cap_add(&m, g, &res);
			} else {
				sbuf_addch(&res, *r++);
			}
		}
		last = me;
		count++;
		if (!global)
			break;
		if (me == ms) {
			/* empty match: copy one byte and move on, as Perl does */
			if (me < n)
				sbuf_addch(&res, s[me]);
			last = me + 1;
			pos = me + 1;
			if (pos > n)
				break;
		} else {
			pos = me;
		}
	}
	if (last < n)
		sbuf_add(&res, s + last, n - last);
	sbuf_reset(out);
	sbuf_add(out, res.buf, res.len);
	sbuf_release(&res);
	return count;
}

int re_subst_sb(struct re_ctx *rc, const char *pat, const char *repl,
		struct sbuf *sb, int global)
{
	struct sbuf tmp;
	int count;

	sbuf_init(&tmp, sb->cap);
	count = re_subst(rc, pat, repl, sb->buf, sb->len, global, &tmp);
	if (count) {
		sbuf_reset(sb);
		sbuf_add(sb, tmp.buf, tmp.len);
	}
	sbuf_release(&tmp);
	return count;
}

int re_count(struct re_ctx *rc, const char *pat, const char *s, size_t n)
{
	struct re_m m;
	size_t pos = 0;
	int count = 0;

	while (pos <= n && re_find(rc, pat, s, n, pos, &m)) {
		count++;
		pos = m.ov[1] > m.ov[0] ? m.ov[1] : m.ov[1] + 1;
	}
	return count;
}

void re_quote(const char *s, size_t n, struct sbuf *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!is_name_char(c) && c < 0x80)
			sbuf_addch(out, '\\');
		sbuf_addch(out, c);
	}
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
	w->w[w->n++] = copy;
	re_rebuild(rc);
	return 1;
}

int re_set_typedefs(struct re_ctx *rc, const char *words)
{
	free(rc->typedefs_extra);
	rc->typedefs_extra = NULL;
	if (words && *words) {
		rc->typedefs_extra = strdup(words);
		if (!rc->typedefs_extra)
			return -1;
	}
	rc->gen++;
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
	size_t i, nsz = rc->tabsz, dropped = 0;
	struct re_entry *nt;

	if (rc->itabused <= max)
		return 0;
	/* drop the compiled patterns keyed by interned text, then the text */
	nt = calloc(nsz, sizeof(*nt));
	if (!nt)
		return -1;
	for (i = 0; i < rc->tabsz; i++) {
		struct re_entry *e = &rc->tab[i];
		size_t h;

		if (!e->pat)
			continue;
		if (is_interned(rc, e->pat)) {
			pcre2_code_free(e->code);
			dropped++;
			continue;
		}
		h = hash_ptr(e->pat) & (nsz - 1);
		while (nt[h].pat)
			h = (h + 1) & (nsz - 1);
		nt[h] = *e;
	}
	free(rc->tab);
	rc->tab = nt;
	rc->tabused -= dropped;
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
	if (set && set->pcre2_version &&
	    pcre2_config(PCRE2_CONFIG_VERSION, ver) > 0 &&
	    !strcmp(ver, set->pcre2_version))
		rc->pre = set;
	else
		rc->pre = NULL;
}

unsigned long re_compiles(const struct re_ctx *rc)
{
	return rc->compiles;
}

int re_export(struct re_ctx *rc,
	      int (*cb)(void *arg, const char *text, int dyn,
			const unsigned char *bytes, size_t len),
	      void *arg)
{
	size_t i;
	int n = 0;

	re_types_reset(rc);
	for (i = 0; i < rc->tabsz; i++) {
		struct re_entry *e = &rc->tab[i];
		const pcre2_code *codes[1];
		uint8_t *bytes;
		PCRE2_SIZE size;
		int ret;

		if (!e->pat || !e->code || is_interned(rc, e->pat))
			continue;
		/* a pattern compiled with learned words: compile it afresh */
		if (e->dyn && compile_entry(rc, e))
			continue;
		codes[0] = e->code;
		if (pcre2_serialize_encode(codes, 1, &bytes, &size, NULL) != 1)
			return -1;
		ret = cb(arg, e->pat, e->dyn, bytes, size);
		pcre2_serialize_free(bytes);
		if (ret)
			return -1;
		n++;
	}
	return n;
}

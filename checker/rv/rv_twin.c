// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pieces reviewbot's own checks share (rv.h): calls gathered across
 * lines, an added line's twin in its change block, the function a line
 * is in.  Works on the sanitised lines (strings "XXX", comments masked),
 * so nothing inside a comment or a string literal matches.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rv.h"

#include "../banned.h"

int rv_is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

int rv_is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\x1c' || c == '\n' || c == '\r';
}

/* A line of a hunk: '+', ' ' or '-'. */
static int hunk_line(const char *l)
{
	return l && (l[0] == '+' || l[0] == ' ' || l[0] == '-');
}

/* The next line after i on side ('+' skips '-' lines and the other way). */
static long next_on_side(struct eng *e, long i, char side)
{
	char other = side == '+' ? '-' : '+';

	do {
		i++;
	} while ((size_t)i < e->nlines && e->lines[i][0] == other);
	return i;
}

int rv_gather_call(struct eng *e, long idx, size_t open, char side,
		   struct rv_call *c)
{
	struct sbuf sb, rb;
	long i = idx;
	size_t p = open + 1, k, start = 0;
	int depth = 1, nl = 0, ok = 0;

	memset(c, 0, sizeof(*c));
	sbuf_init(&sb, 1u << 16);
	sbuf_init(&rb, 1u << 16);
	while (!ok) {
		const char *l = e->lines[i], *r = e->rawlines[i];
		/* the raw line where sanitising kept the length */
		int same = strlen(l) == strlen(r);

		for (; l[p]; p++) {
			char ch = l[p];

			if (ch == '(' || ch == '[' || ch == '{') {
				depth++;
			} else if (ch == ')' || ch == ']' || ch == '}') {
				if (--depth == 0) {
					p++;
					ok = 1;
					break;
				}
			}
			sbuf_addch(&sb, ch == '\x1c' ? ' ' : ch);
			sbuf_addch(&rb, ch == '\x1c' ? ' ' : same ? r[p] : ch);
		}
		if (ok)
			break;
		i = next_on_side(e, i, side);
		if ((size_t)i >= e->nlines || !hunk_line(e->lines[i]) ||
		    ++nl > RV_MAX_LINES)
			break;
		sbuf_addch(&sb, ' ');
		sbuf_addch(&rb, ' ');
		p = 1;
	}
	if (!ok || sb.err || rb.err) {
		sbuf_release(&sb);
		sbuf_release(&rb);
		return 0;
	}
	c->text = eng_strndup(e, sb.buf, sb.len);
	c->raw = eng_strndup(e, rb.buf, rb.len);
	c->len = sb.len;
	sbuf_release(&sb);
	sbuf_release(&rb);
	if (e->line_skip)	/* out of scratch memory: c->text is shorter than c->len */
		return 0;

	/* what follows the ')': this line, then the next lines */
	for (nl = 0; nl < 3 && !c->after;) {
		const char *l = e->lines[i];

		for (; l[p] && !c->after; p++)
			if (!rv_is_blank(l[p]))
				c->after = l[p];
		i = next_on_side(e, i, side);
		if ((size_t)i >= e->nlines || !hunk_line(e->lines[i]))
			break;
		p = 1;
		nl++;
	}

	/* split at top-level commas */
	depth = 0;
	for (k = 0; k <= c->len && c->narg < RV_MAX_ARGS; k++) {
		char ch = k < c->len ? c->text[k] : ',';

		if (ch == '(' || ch == '[' || ch == '{')
			depth++;
		else if (ch == ')' || ch == ']' || ch == '}')
			depth--;
		else if (ch == ',' && depth == 0) {
			size_t a = start, b = k;

			while (a < b && rv_is_blank(c->text[a]))
				a++;
			while (b > a && rv_is_blank(c->text[b - 1]))
				b--;
			c->off[c->narg] = a;
			c->n[c->narg] = b - a;
			c->narg++;
			start = k + 1;
		}
	}
	if (c->narg == 1 && c->n[0] == 0)
		c->narg = 0;
	return 1;
}

char *rv_arg(struct eng *e, const struct rv_call *c, size_t i)
{
	char *s = eng_strndup(e, c->text + c->off[i], c->n[i]);
	size_t r, w = 0;

	for (r = 0; s[r]; r++) {
		if (rv_is_blank(s[r]) && (w == 0 || s[w - 1] == ' '))
			continue;
		s[w++] = rv_is_blank(s[r]) ? ' ' : s[r];
	}
	while (w > 0 && s[w - 1] == ' ')
		w--;
	s[w] = 0;
	return s;
}

char *rv_raw_arg(struct eng *e, const struct rv_call *c, size_t i)
{
	return eng_strndup(e, c->raw + c->off[i], c->n[i]);
}

char *rv_squeeze(struct eng *e, const char *s)
{
	char *r = eng_strdup(e, s), *w = r;
	const char *p;

	for (p = r; *p; p++)
		if (!rv_is_blank(*p))
			*w++ = *p;
	*w = '\0';
	return r;
}

/*
 * What the twin questions need of a change block, worked out once per
 * block (the lines come in order, so one block is asked about many
 * times in a row): its bounds, the squeezed text of each of its lines
 * as a hash (64-bit FNV-1a, white space and comment bytes aside), the
 * removed and added lines' hashes sorted, and the calls its removed
 * lines make, per pattern.  Without it a block of n lines cost n*n
 * (a 24,000-line block of strcpy() lines: half a minute).
 */
#define TWIN_MAX_CALLSETS	8

struct twin_callset {
	const char *fnpat;	/* the caller's pattern (compared by text) */
	char *fnpat_copy;
	size_t arg;
	uint64_t *keys;		/* hashes of the squeezed arguments, sorted */
	char **names;		/* the function of each key (parallel) */
	size_t n;
	int any;		/* some removed line calls one */
	char *any_name;
};

struct rv_twin {
	long lo, hi;		/* the block, [lo, hi) */
	uint64_t *minus, *plus;	/* sorted hashes of its '-' / '+' lines */
	size_t nminus, nplus;
	struct twin_callset sets[TWIN_MAX_CALLSETS];
	size_t nsets;
	/* hashes of every line (0: not worked out), for the moved test */
	uint64_t *line_hash;
	size_t nline_hash;
};

static uint64_t squeeze_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	int any = 0;

	for (; *s; s++) {
		if (rv_is_blank((unsigned char)*s))
			continue;
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
		any = 1;
	}
	return any ? h | 1 : 0;	/* 0 is "blank" */
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void twin_sets_free(struct rv_twin *t)
{
	size_t i, k;

	for (i = 0; i < t->nsets; i++) {
		for (k = 0; k < t->sets[i].n; k++)
			free(t->sets[i].names[k]);
		free(t->sets[i].names);
		free(t->sets[i].keys);
		free(t->sets[i].fnpat_copy);
		free(t->sets[i].any_name);
	}
	t->nsets = 0;
}

void rv_twin_release(struct eng *e)
{
	struct rv_twin *t = e->rv_twin;

	if (!t)
		return;
	twin_sets_free(t);
	free(t->minus);
	free(t->plus);
	free(t->line_hash);
	free(t);
	e->rv_twin = NULL;
}

/* The hash of raw line i without its first column (cached). */
static uint64_t line_hash(struct eng *e, struct rv_twin *t, long i)
{
	if (!t->line_hash) {
		t->line_hash = calloc(e->nlines ? e->nlines : 1, sizeof(*t->line_hash));
		t->nline_hash = t->line_hash ? e->nlines : 0;
	}
	if ((size_t)i >= t->nline_hash)
		return squeeze_hash(e->rawlines[i][0] ? e->rawlines[i] + 1 : "");
	if (!t->line_hash[i])
		t->line_hash[i] = squeeze_hash(e->rawlines[i][0] ? e->rawlines[i] + 1 : "") | 2;
	return t->line_hash[i] & ~(uint64_t)2 ? t->line_hash[i] : 0;
}

static void block_bounds(struct eng *e, long idx, long *lo, long *hi)
{
	long a = idx, b = idx + 1;

	while (a > 0 && (e->lines[a - 1][0] == '-' || e->lines[a - 1][0] == '+') &&
	       strncmp(e->rawlines[a - 1], "--- ", 4) &&
	       strncmp(e->rawlines[a - 1], "+++ ", 4))
		a--;
	while ((size_t)b < e->nlines &&
	       (e->lines[b][0] == '-' || e->lines[b][0] == '+') &&
	       strncmp(e->rawlines[b], "--- ", 4))
		b++;
	*lo = a;
	*hi = b;
}

/* The cache for idx's block, made when idx is outside the last one. */
static struct rv_twin *twin_for(struct eng *e, long idx)
{
	struct rv_twin *t = e->rv_twin;
	long lo, hi, i;

	if (!t) {
		t = e->rv_twin = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->lo = t->hi = -1;
	}
	if (idx >= t->lo && idx < t->hi)
		return t;
	block_bounds(e, idx, &lo, &hi);
	twin_sets_free(t);
	free(t->minus);
	free(t->plus);
	t->minus = t->plus = NULL;
	t->nminus = t->nplus = 0;
	t->lo = lo;
	t->hi = hi;
	t->minus = malloc((size_t)(hi - lo) * sizeof(*t->minus));
	t->plus = malloc((size_t)(hi - lo) * sizeof(*t->plus));
	if (!t->minus || !t->plus) {
		t->lo = t->hi = -1;
		return NULL;
	}
	for (i = lo; i < hi; i++) {
		uint64_t h = line_hash(e, t, i);

		if (!h)
			continue;
		if (e->rawlines[i][0] == '-')
			t->minus[t->nminus++] = h;
		else if (e->rawlines[i][0] == '+')
			t->plus[t->nplus++] = h;
	}
	qsort(t->minus, t->nminus, sizeof(*t->minus), u64_cmp);
	qsort(t->plus, t->nplus, sizeof(*t->plus), u64_cmp);
	return t;
}

void rv_block(struct eng *e, long idx, long *lo, long *hi)
{
	struct rv_twin *t = twin_for(e, idx);

	if (t) {
		*lo = t->lo;
		*hi = t->hi;
	} else {
		block_bounds(e, idx, lo, hi);
	}
}

/* Whether l is a file header ("--- a/", "+++ b/", "diff --git"). */
static int file_header(const char *raw)
{
	return !strncmp(raw, "--- ", 4) || !strncmp(raw, "+++ ", 4) ||
	       !strncmp(raw, "diff --git ", 11);
}

int rv_twin_same(struct eng *e, long idx)
{
	struct rv_twin *t = twin_for(e, idx);
	char other = e->rawlines[idx][0] == '-' ? '+' : '-';
	uint64_t self;
	long i;

	if (!t)
		return 0;
	self = line_hash(e, t, idx);
	if (!self)
		return 0;
	if (bsearch(&self, other == '-' ? t->minus : t->plus,
		    other == '-' ? t->nminus : t->nplus, sizeof(self), u64_cmp))
		return 1;
	/* moved: the same text removed elsewhere in the file */
	for (i = idx - 1; i >= 0 && i >= idx - RV_NEAR; i--) {
		const char *r = e->rawlines[i];

		if (file_header(r))
			break;
		if (r[0] == other && line_hash(e, t, i) == self)
			return 1;
	}
	for (i = idx + 1; (size_t)i < e->nlines && i <= idx + RV_NEAR; i++) {
		const char *r = e->rawlines[i];

		if (file_header(r))
			break;
		if (r[0] == other && line_hash(e, t, i) == self)
			return 1;
	}
	return 0;
}

/* The calls of fnpat the block's removed lines make, with the squeezed
 * argument arg of each: worked out once per block and pattern. */
static struct twin_callset *callset(struct eng *e, struct rv_twin *t,
				    const char *fnpat, size_t arg)
{
	const char *pat = eng_pat(e, "(?<![\\w.>])(%s)\\s*\\(", fnpat);
	struct twin_callset *cs;
	size_t i, alloc = 0;
	long l;

	for (i = 0; i < t->nsets; i++)
		if (t->sets[i].arg == arg && !strcmp(t->sets[i].fnpat_copy, fnpat))
			return &t->sets[i];
	if (t->nsets == TWIN_MAX_CALLSETS)
		twin_sets_free(t);
	cs = &t->sets[t->nsets];
	memset(cs, 0, sizeof(*cs));
	cs->fnpat_copy = strdup(fnpat);
	if (!cs->fnpat_copy)
		return NULL;
	cs->arg = arg;
	t->nsets++;
	if (!t->nminus)
		return cs;
	for (l = t->lo; l < t->hi; l++) {
		const char *line = e->lines[l];
		size_t pos = 0, len = strlen(line);
		struct re_m m;
		int guard;

		if (line[0] != '-')
			continue;
		for (guard = 0; guard < 16 && pos < len &&
		     re_find(e->rc, pat, line, len, pos, &m); guard++) {
			struct rv_call c;
			const char *name = eng_mcap(e, &m, 1);

			pos = re_end(&m, 0);
			if (!cs->any) {
				cs->any = 1;
				cs->any_name = strdup(name);
			}
			if (!rv_gather_call(e, l, pos - 1, '-', &c) || c.narg <= arg)
				continue;
			if (cs->n == alloc) {
				size_t na = alloc ? alloc * 2 : 16;
				uint64_t *nk = realloc(cs->keys, na * sizeof(*nk));
				char **nn;

				if (!nk)
					return cs;
				cs->keys = nk;
				nn = realloc(cs->names, na * sizeof(*nn));
				if (!nn)
					return cs;
				cs->names = nn;
				alloc = na;
			}
			cs->keys[cs->n] = squeeze_hash(rv_arg(e, &c, arg));
			cs->names[cs->n] = strdup(name);
			cs->n++;
		}
	}
	/* sorted by key, names alongside */
	for (i = 1; i < cs->n; i++) {
		size_t k = i;

		while (k > 0 && cs->keys[k - 1] > cs->keys[k]) {
			uint64_t tk = cs->keys[k];
			char *tn = cs->names[k];

			cs->keys[k] = cs->keys[k - 1];
			cs->names[k] = cs->names[k - 1];
			cs->keys[k - 1] = tk;
			cs->names[k - 1] = tn;
			k--;
		}
		if (i > 4096)
			break;	/* a huge block: unsorted past here, found linearly */
	}
	return cs;
}

int rv_twin_call(struct eng *e, long idx, const char *fnpat, size_t arg,
		 const char *key, const char **fn)
{
	struct rv_twin *t = twin_for(e, idx);
	struct twin_callset *cs;
	uint64_t want;
	size_t i;

	if (!t || !t->nminus)
		return 0;
	cs = callset(e, t, fnpat, arg);
	if (!cs || !cs->any)
		return 0;
	if (!key) {
		if (fn && cs->any_name)
			*fn = eng_strdup(e, cs->any_name);
		return 1;
	}
	want = squeeze_hash(key);
	for (i = 0; i < cs->n; i++)
		if (cs->keys[i] == want) {
			if (fn && cs->names[i])
				*fn = eng_strdup(e, cs->names[i]);
			return 1;
		}
	return 0;
}

int rv_twin_has(struct eng *e, long idx, const char *text)
{
	struct rv_twin *t = twin_for(e, idx);
	const char *want = rv_squeeze(e, text);
	long lo, hi, i, seen = 0;

	if (!*want || (t && !t->nminus))
		return 0;
	rv_block(e, idx, &lo, &hi);
	/* a substring test: at most RV_NEAR removed lines are read */
	for (i = lo; i < hi && seen < RV_NEAR; i++)
		if (e->lines[i][0] == '-') {
			seen++;
			if (strstr(rv_squeeze(e, e->lines[i] + 1), want))
				return 1;
		}
	return 0;
}

/* The text after a hunk's "@@ -a,b +c,d @@". */
static const char *hunk_context(struct eng *e, long i)
{
	const char *r = e->rawlines[i], *p = strstr(r + 2, "@@");

	return p ? p + 2 : "";
}

const char *rv_function(struct eng *e, long idx, long *start)
{
	long i;

	*start = idx;
	for (i = idx; i >= 0 && i > idx - RV_FUNC_LINES; i--) {
		const char *l = e->lines[i];

		if (!strncmp(e->rawlines[i], "@@ ", 3)) {
			*start = i + 1;
			return hunk_context(e, i);
		}
		if (!hunk_line(l) || file_header(e->rawlines[i]))
			break;
		if (l[0] == '-')
			continue;
		*start = i;
		if (i < idx && l[1] == '}')
			return "";	/* the end of the function before */
		/* a definition's header starts in the first column */
		if (rv_is_ident((unsigned char)l[1]) && strchr(l, '(') &&
		    !MQ(e, ";\\s*$", l) && !MQ(e, "^.\\s*(?:typedef|struct\\s+\\w+\\s*\\{|enum\\b|union\\b)", l)) {
			const char *h = l + 1;
			long k = i;
			int n = 0;

			while (!strchr(h, ')') && n < 4 && (size_t)k + 1 < e->nlines &&
			       e->lines[k + 1][0] != '-' && hunk_line(e->lines[k + 1])) {
				k++;
				n++;
				h = eng_cat(e, h, e->lines[k] + 1);
			}
			return h;
		}
	}
	return "";
}

const char *rv_function_name(struct eng *e, const char *header)
{
	struct re_m m;

	if (!re_match(e->rc, "(\\w+)\\s*\\(", header, &m))
		return "";
	return eng_mcap(e, &m, 1);
}

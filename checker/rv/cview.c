// SPDX-License-Identifier: GPL-2.0-only
/*
 * cview: one side of a patch's C code as fragments of tokens, and the
 * top-level items in them (cview.h).
 *
 * Where a fragment starts inside something (a function, an initializer),
 * two things tell: a closing brace that no opening brace of the fragment
 * matches, and the indentation of its first code line (kernel code is
 * indented with a tab per level, and git puts the last unindented line
 * above the hunk in its header, which is the enclosing item's first line
 * when the hunk starts inside one, and the item before when it does not).
 */
#include "cview.h"

#include <stdlib.h>
#include <string.h>

#include "../banned.h"

static int grow(void **p, size_t *alloc, size_t n, size_t size, size_t max)
{
	size_t na;
	void *np;

	if (n < *alloc)
		return 0;
	if (n >= max)
		return -1;
	na = *alloc ? *alloc * 2 : 64;
	if (na > max)
		na = max;
	np = realloc(*p, na * size);
	if (!np)
		return -1;
	*p = np;
	*alloc = na;
	return 0;
}

int cview_kernel_path(const char *path)
{
	size_t n = strlen(path);

	if (n < 2 || path[n - 2] != '.' || (path[n - 1] != 'c' && path[n - 1] != 'h'))
		return 0;
	if (!strncmp(path, "tools/", 6) || !strncmp(path, "scripts/", 8) ||
	    !strncmp(path, "usr/", 4) || !strncmp(path, "samples/", 8))
		return 0;
	if (!strncmp(path, "arch/", 5)) {
		const char *s = strchr(path + 5, '/');

		if (s && !strncmp(s, "/boot/", 6))
			return 0;
	}
	return 1;
}

const struct ctok *cview_item_name(const struct cview *v, const struct cv_item *it)
{
	return it->name == SIZE_MAX ? NULL : &v->tb.t[it->name];
}

/* Leading tabs of a line (8 spaces count as one), or -1 for a blank line. */
static int indent_of(const char *s, size_t n)
{
	size_t i, sp = 0;
	int tabs = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '\t') {
			tabs++;
			sp = 0;
		} else if (s[i] == ' ') {
			if (++sp == 8) {
				tabs++;
				sp = 0;
			}
		} else {
			return tabs + (sp > 0);
		}
	}
	return -1;
}

static int add_item(struct cview *v, size_t *alloc, const struct cv_item *it)
{
	if (grow((void **)&v->items, alloc, v->nitems, sizeof(*it), CVIEW_MAX_ITEMS)) {
		v->err = 1;
		return -1;
	}
	v->items[v->nitems++] = *it;
	return 0;
}

static int punct(const struct ctok *t, char c)
{
	return t->kind == CTK_PUNCT && t->len == 1 && t->s[0] == c;
}

/* Whether [a, b) holds a changed token. */
static int changed_in(const struct cview *v, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++)
		if (v->tb.t[i].flags & CVF_CHANGED)
			return 1;
	return 0;
}

/*
 * What the tokens [a, b) of a declaration before a '{' make of it: a
 * function (name and parameters), a variable with an initializer, or a
 * struct or union.  0 when none of these (an enum, a stray brace).
 */
static enum cv_item_kind classify(const struct cview *v, size_t a, size_t b,
				  size_t *name, size_t *p0, size_t *p1)
{
	const struct ctok *t = v->tb.t;
	size_t i;

	*name = *p0 = *p1 = SIZE_MAX;
	if (a >= b)
		return 0;
	/* "... = {": an initializer; its name is the last identifier
	 * before the '=' outside brackets */
	for (i = a; i < b; i++)
		if (punct(&t[i], '='))
			break;
	if (i < b) {
		size_t k = i, depth = 0;

		while (k-- > a) {
			if (punct(&t[k], ']'))
				depth++;
			else if (punct(&t[k], '['))
				depth -= depth > 0;
			else if (!depth && t[k].kind == CTK_IDENT) {
				*name = k;
				break;
			}
		}
		return i + 1 == b ? CVI_VAR : 0;
	}
	/* "name(...)": a function, its parameter list maybe cut at the
	 * section's end (a header written over several lines) */
	for (i = a; i < b; i++) {
		size_t m;

		if (!punct(&t[i], '('))
			continue;
		if (i == a || t[i - 1].kind != CTK_IDENT || ctok_keyword(&t[i - 1]))
			return 0;
		/* no return type: a macro call ("list_for_each_entry(...) {"),
		 * but for the macros that define a function */
		if (i - 1 == a && !(t[a].flags & CVF_SECTION) &&
		    !ctok_ident_prefix(&t[a], "SYSCALL_DEFINE") &&
		    !ctok_ident_prefix(&t[a], "COMPAT_SYSCALL_DEFINE"))
			return 0;
		m = ctok_match(t, i, b);
		*name = i - 1;
		*p0 = i;
		*p1 = m < b ? m : SIZE_MAX;
		return CVI_FUNC;
	}
	for (i = a; i < b; i++) {
		if (ctok_is_ident(&t[i], "enum"))
			return 0;
		if (ctok_is_ident(&t[i], "struct") || ctok_is_ident(&t[i], "union")) {
			if (i + 1 < b && t[i + 1].kind == CTK_IDENT)
				*name = i + 1;
			return CVI_STRUCT;
		}
	}
	return 0;
}

/*
 * The items of fragment f.  base is how deep the fragment's first code
 * token is (0 at top level); the tokens before the brace that closes
 * that depth belong to an item that starts above the hunk, named by the
 * section text.
 */
static void scan_frag(struct cview *v, size_t f, size_t *alloc)
{
	const struct cv_frag *fr = &v->frags[f];
	const struct ctok *t = v->tb.t;
	size_t i, end = fr->tok0 + fr->ntok, start = fr->code0, decl;
	long depth = 0, minimum = 0;
	int first_indent = -1;
	struct cv_item it;

	if (start >= end)
		return;
	for (i = start; i < end; i++) {
		if (punct(&t[i], '{'))
			depth++;
		else if (punct(&t[i], '}') && --depth < minimum)
			minimum = depth;
	}
	{
		const struct cv_line *l = &v->lines[t[start].line];

		first_indent = indent_of(l->s, l->n);
		/* a line that opens with '}' is one level deeper before it */
		if (first_indent >= 0 && punct(&t[start], '}'))
			first_indent++;
	}
	depth = -minimum;
	if (first_indent > depth && t[start].kind != CTK_PP)
		depth = first_indent;

	i = start;
	if (depth > 0) {
		/* inside an item that starts above: up to the brace that
		 * closes it, a '}' in the first column (kernel style), or
		 * the one that brings the depth back to 0 */
		size_t close = end;
		long d = depth;

		for (i = start; i < end; i++) {
			if (punct(&t[i], '{')) {
				d++;
			} else if (punct(&t[i], '}')) {
				const struct cv_line *l = &v->lines[t[i].line];

				d--;
				if (d <= 0 || t[i].s == l->s) {
					close = i;
					break;
				}
			}
		}
		memset(&it, 0, sizeof(it));
		it.kind = classify(v, fr->tok0, fr->code0, &it.name, &it.p0, &it.p1);
		if (!it.kind && fr->tok0 < fr->code0 && punct(&t[fr->code0 - 1], '{'))
			it.kind = classify(v, fr->tok0, fr->code0 - 1, &it.name,
					   &it.p0, &it.p1);
		if (!it.kind && fr->tok0 == fr->code0) {
			/* no section: code of a function is still code */
			it.kind = CVI_FUNC;
			it.name = it.p0 = it.p1 = SIZE_MAX;
		}
		if (it.kind) {
			it.frag = f;
			it.t0 = fr->tok0;
			it.b0 = SIZE_MAX;
			it.in0 = start;
			it.in1 = close;
			it.head_missing = 1;
			it.tail_missing = close == end;
			it.changed = changed_in(v, start, close);
			if (add_item(v, alloc, &it))
				return;
		}
		if (close == end)
			return;
		i = close + 1;
	}

	decl = i;
	for (; i < end; i++) {
		if (t[i].kind == CTK_PP) {
			decl = i + 1;
			continue;
		}
		if (punct(&t[i], ';') || punct(&t[i], '}')) {
			decl = i + 1;
			continue;
		}
		if (punct(&t[i], '(') || punct(&t[i], '[')) {
			size_t m = ctok_match(t, i, end);

			if (m == end)
				return;
			i = m;
			continue;
		}
		if (punct(&t[i], '{')) {
			size_t m = ctok_match(t, i, end);

			memset(&it, 0, sizeof(it));
			/* the hunk opens with the body's brace: the header is
			 * the section's */
			if (decl == i && i == fr->code0 && fr->tok0 < fr->code0) {
				it.kind = classify(v, fr->tok0, fr->code0, &it.name, &it.p0, &it.p1);
				decl = fr->tok0;
			} else {
				it.kind = classify(v, decl, i, &it.name, &it.p0, &it.p1);
			}
			if (it.kind) {
				it.frag = f;
				it.t0 = decl;
				it.b0 = i;
				it.in0 = i + 1;
				it.in1 = m;
				it.tail_missing = m == end;
				it.changed = changed_in(v, decl, m);
				if (add_item(v, alloc, &it))
					return;
			}
			if (m == end)
				return;
			i = m;
			/* "struct x { ... } name;" and "= { ... };" end at ';' */
			if (it.kind != CVI_FUNC)
				continue;
			decl = i + 1;
		}
	}
}

/* FNV-1a of a line without its white space. */
static uint64_t squeezed_hash(const char *s, size_t n, size_t *kept)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	*kept = 0;
	for (i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')
			continue;
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
		(*kept)++;
	}
	return h;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Marks the lines of hunk h that changed only white space: a line of
 * side's kind whose text, white space aside, a line of the other kind in
 * the same change block (a run of '-' and '+' lines) has.  twin[k] for
 * the hunk's k-th line.
 */
static void mark_twins(const struct diff *d, const struct diff_hunk *h, char side,
		       unsigned char *twin)
{
	char other = side == '+' ? '-' : '+';
	size_t k = 0, n = h->nlines;
	uint64_t *hs = malloc((n ? n : 1) * sizeof(*hs));

	memset(twin, 0, n);
	if (!hs)
		return;
	while (k < n) {
		size_t a = k, b, i, nh = 0;

		if (d->lines[h->first_line + k].kind == ' ') {
			k++;
			continue;
		}
		while (k < n && d->lines[h->first_line + k].kind != ' ')
			k++;
		b = k;
		for (i = a; i < b; i++) {
			const struct diff_line *dl = &d->lines[h->first_line + i];
			size_t kept;

			if (dl->kind == other) {
				uint64_t x = squeezed_hash(dl->text, dl->len, &kept);

				if (kept)
					hs[nh++] = x;
			}
		}
		if (!nh)
			continue;
		qsort(hs, nh, sizeof(*hs), u64_cmp);
		for (i = a; i < b; i++) {
			const struct diff_line *dl = &d->lines[h->first_line + i];
			size_t kept;
			uint64_t x;

			if (dl->kind != side)
				continue;
			x = squeezed_hash(dl->text, dl->len, &kept);
			if (kept && bsearch(&x, hs, nh, sizeof(*hs), u64_cmp))
				twin[i] = 1;
		}
	}
	free(hs);
}

/* Whether the first comment delimiter of hunk h's side (within its
 * first lines) is "*\/": the hunk starts inside a comment. */
static int opens_in_comment(const struct diff *d, const struct diff_hunk *h, char side)
{
	size_t k, i;

	for (k = 0; k < h->nlines && k < 64; k++) {
		const struct diff_line *dl = &d->lines[h->first_line + k];

		if (dl->kind != ' ' && dl->kind != side)
			continue;
		for (i = 0; i + 1 < dl->len; i++) {
			if (dl->text[i] == '"' || dl->text[i] == '\'')
				return 0;
			if (dl->text[i] == '/' && dl->text[i + 1] == '*')
				return 0;
			if (dl->text[i] == '/' && dl->text[i + 1] == '/')
				break;
			if (dl->text[i] == '*' && dl->text[i + 1] == '/')
				return 1;
		}
	}
	return 0;
}

int cview_build(struct cview *v, const struct diff *d, char side)
{
	size_t fi, falloc = 0, fralloc = 0, lalloc = 0, ialloc = 0;
	unsigned char *twin = NULL;

	memset(v, 0, sizeof(*v));
	v->side = side;
	ctok_init(&v->tb, CVIEW_MAX_TOKENS);
	for (fi = 0; fi < d->nfiles && !v->err; fi++) {
		const struct diff_file *df = &d->files[fi];
		const char *path = side == '+' ? df->new_path : df->old_path;
		struct cv_file *cf;
		size_t h;

		if (!path || (df->flags & DIFF_BINARY))
			continue;
		if (grow((void **)&v->files, &falloc, v->nfiles, sizeof(*cf), 1u << 20)) {
			v->err = 1;
			break;
		}
		cf = &v->files[v->nfiles++];
		memset(cf, 0, sizeof(*cf));
		cf->path = path;
		cf->flags = df->flags;
		{
			size_t n = strlen(path);

			cf->is_c = n > 2 && path[n - 2] == '.' &&
				   (path[n - 1] == 'c' || path[n - 1] == 'h');
			cf->is_header = cf->is_c && path[n - 1] == 'h';
		}
		cf->kernel = cview_kernel_path(path);
		cf->frag0 = v->nfrags;
		cf->added = side == '+' ? df->added : df->removed;
		if (!cf->is_c)
			continue;
		for (h = df->first_hunk; h < df->first_hunk + df->nhunks && !v->err; h++) {
			const struct diff_hunk *dh = &d->hunks[h];
			struct cv_frag *fr;
			size_t k;

			if (v->tb.n && ctok_push_gap(&v->tb, (uint32_t)v->nlines ? (uint32_t)v->nlines - 1 : 0)) {
				v->err = 1;
				break;
			}
			if (grow((void **)&v->frags, &fralloc, v->nfrags, sizeof(*fr), 1u << 20)) {
				v->err = 1;
				break;
			}
			fr = &v->frags[v->nfrags++];
			memset(fr, 0, sizeof(*fr));
			fr->file = v->nfiles - 1;
			fr->line0 = v->nlines;
			fr->tok0 = v->tb.n;
			if (dh->section_len) {
				struct cv_line *l;

				if (grow((void **)&v->lines, &lalloc, v->nlines, sizeof(*l), 1u << 24)) {
					v->err = 1;
					break;
				}
				l = &v->lines[v->nlines++];
				l->s = dh->section;
				l->n = dh->section_len;
				l->pline = dh->patch_line;
				l->fline = 0;
				l->kind = '@';
				if (ctok_push_line(&v->tb, l->s, l->n, (uint32_t)(v->nlines - 1),
						   CVF_SECTION))
					v->err = 1;
				/* a section is one line: whatever it left open
				 * (a comment, a directive) ends with it */
				v->tb.in_comment = v->tb.in_pp = 0;
			}
			fr->code0 = v->tb.n;
			/* a hunk that opens inside a block comment: its first
			 * comment delimiter is a closing one */
			v->tb.in_comment = opens_in_comment(d, dh, side);
			twin = realloc(twin, dh->nlines ? dh->nlines : 1);
			if (!twin) {
				v->err = 1;
				break;
			}
			mark_twins(d, dh, side, twin);
			for (k = dh->first_line; k < dh->first_line + dh->nlines && !v->err; k++) {
				const struct diff_line *dl = &d->lines[k];
				struct cv_line *l;

				if (dl->kind != ' ' && dl->kind != side)
					continue;
				if (grow((void **)&v->lines, &lalloc, v->nlines, sizeof(*l), 1u << 24)) {
					v->err = 1;
					break;
				}
				l = &v->lines[v->nlines++];
				l->s = dl->text;
				l->n = dl->len;
				l->pline = dl->patch_line;
				l->fline = side == '+' ? dl->new_line : dl->old_line;
				l->kind = dl->kind;
				if (ctok_push_line(&v->tb, l->s, l->n, (uint32_t)(v->nlines - 1),
						   dl->kind == side && !twin[k - dh->first_line] ?
						   CVF_CHANGED : 0))
					v->err = 1;
			}
			fr->nlines = v->nlines - fr->line0;
			fr->ntok = v->tb.n - fr->tok0;
			v->files[v->nfiles - 1].nfrags++;
			v->tb.in_comment = v->tb.in_pp = 0;
		}
	}
	free(twin);
	if (v->tb.err)
		v->err = 1;
	for (fi = 0; fi < v->nfrags; fi++)
		scan_frag(v, fi, &ialloc);
	return v->err ? -1 : 0;
}

void cview_release(struct cview *v)
{
	free(v->files);
	free(v->frags);
	free(v->lines);
	free(v->items);
	ctok_release(&v->tb);
	memset(v, 0, sizeof(*v));
}

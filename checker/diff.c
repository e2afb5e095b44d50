// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unified diff parsing (GNU diffutils' "unified format", with git's
 * extended headers as documented in git-diff(1) "generating patches").
 * Tolerated deviations, as patch(1) and checkpatch.pl tolerate them:
 *  - an empty line inside a hunk is a context line (GNU diff drops the
 *    space of a blank context line);
 *  - "@@ -a +c @@" without counts means a count of 1;
 *  - a hunk whose body ends early is kept, marked DIFF_HUNK_SHORT;
 *  - lines ending in CR LF (mail gateways) count as lines, marked crlf.
 */
#include "diff.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

#define DIFF_MAX_COUNT	(LONG_MAX / 4)

void diff_limits_init(struct diff_limits *lim)
{
	lim->max_files = DIFF_DEFAULT_MAX_FILES;
	lim->max_hunks = DIFF_DEFAULT_MAX_HUNKS;
	lim->max_lines = DIFF_DEFAULT_MAX_LINES;
	lim->max_path = DIFF_DEFAULT_MAX_PATH;
}

const char *diff_strerror(int err)
{
	switch (err) {
	case DIFF_OK:
		return "no error";
	case DIFF_ERR_NOMEM:
		return "out of memory";
	case DIFF_ERR_LIMIT:
		return "too many files, hunks or lines";
	}
	return "unknown error";
}

const char *diff_file_path(const struct diff_file *f)
{
	return f->new_path ? f->new_path : f->old_path;
}

struct cursor {
	const char *buf, *end;
	const char *line;	/* current line */
	size_t len;		/* without the newline */
	long patch_line;	/* 1-based */
	const char *next;
};

static int cur_next(struct cursor *c)
{
	const char *nl;

	if (c->next >= c->end)
		return 0;
	c->line = c->next;
	nl = memchr(c->line, '\n', (size_t)(c->end - c->line));
	c->len = nl ? (size_t)(nl - c->line) : (size_t)(c->end - c->line);
	c->next = nl ? nl + 1 : c->end;
	c->patch_line++;
	return 1;
}

/* Looks at the line after the current one without moving. */
static int cur_peek(const struct cursor *c, const char **line, size_t *len)
{
	const char *nl;

	if (c->next >= c->end)
		return 0;
	*line = c->next;
	nl = memchr(*line, '\n', (size_t)(c->end - *line));
	*len = nl ? (size_t)(nl - *line) : (size_t)(c->end - *line);
	return 1;
}

static int starts(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);

	return n >= p && !memcmp(s, prefix, p);
}

static size_t chomp_cr(const char *s, size_t n)
{
	return n && s[n - 1] == '\r' ? n - 1 : n;
}

/* git's quoted path ("a/x\ty"): C escapes and octal. */
static char *unquote(const char *s, size_t n, size_t *used, size_t max)
{
	char *out = malloc(n + 1);
	size_t i = 1, o = 0;

	if (!out)
		return NULL;
	while (i < n && s[i] != '"') {
		char c = s[i++];

		if (c == '\\' && i < n) {
			char d = s[i++];

			switch (d) {
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 't': c = '\t'; break;
			case 'n': c = '\n'; break;
			case 'v': c = '\v'; break;
			case 'f': c = '\f'; break;
			case 'r': c = '\r'; break;
			case '0': case '1': case '2': case '3': {
				int v = d - '0', k;

				for (k = 0; k < 2 && i < n && s[i] >= '0' && s[i] <= '7'; k++)
					v = v * 8 + (s[i++] - '0');
				c = (char)v;
				break;
			}
			default: c = d; break;
			}
		}
		if (o < max)
			out[o++] = c;
	}
	out[o] = '\0';
	*used = i < n ? i + 1 : n;
	return out;
}

static char *path_dup(const char *s, size_t n, size_t max)
{
	char *p;

	if (n > max)
		n = max;
	p = malloc(n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* Removes the first component ("a/", "b/", or any p1 prefix). */
static void strip_p1(char *p)
{
	char *s = strchr(p, '/');

	if (s)
		memmove(p, s + 1, strlen(s + 1) + 1);
}

/* The path of a ---/+++ line: up to a tab (timestamp), /dev/null is NULL. */
static int header_path(const char *s, size_t n, size_t max, char **out)
{
	size_t used;
	const char *tab;

	*out = NULL;
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	n = chomp_cr(s, n);
	if (n && *s == '"') {
		*out = unquote(s, n, &used, max);
		if (!*out)
			return -1;
	} else {
		tab = memchr(s, '\t', n);
		if (tab)
			n = (size_t)(tab - s);
		while (n && s[n - 1] == ' ')
			n--;
		if (n == 9 && !memcmp(s, "/dev/null", 9))
			return 0;
		*out = path_dup(s, n, max);
		if (!*out)
			return -1;
	}
	if (!strcmp(*out, "/dev/null")) {
		free(*out);
		*out = NULL;
		return 0;
	}
	strip_p1(*out);
	return 0;
}

static int parse_num(const char **p, const char *end, long *v)
{
	long x = 0;
	const char *s = *p;

	if (s >= end || *s < '0' || *s > '9')
		return -1;
	while (s < end && *s >= '0' && *s <= '9') {
		if (x > DIFF_MAX_COUNT / 10)
			return -1;
		x = x * 10 + (*s++ - '0');
	}
	*p = s;
	*v = x;
	return 0;
}

/* "@@ -a[,b] +c[,d] @@[ section]" */
static int parse_hunk_header(const char *s, size_t n, struct diff_hunk *h)
{
	const char *p = s + 4, *end = s + n;

	h->old_count = h->new_count = 1;
	if (parse_num(&p, end, &h->old_start))
		return -1;
	if (p < end && *p == ',') {
		p++;
		if (parse_num(&p, end, &h->old_count))
			return -1;
	}
	if (end - p < 2 || p[0] != ' ' || p[1] != '+')
		return -1;
	p += 2;
	if (parse_num(&p, end, &h->new_start))
		return -1;
	if (p < end && *p == ',') {
		p++;
		if (parse_num(&p, end, &h->new_count))
			return -1;
	}
	if (end - p < 3 || memcmp(p, " @@", 3))
		return -1;
	p += 3;
	if (p < end && *p == ' ')
		p++;
	h->section = p;
	h->section_len = (size_t)(end - p);
	return 0;
}

struct parser {
	struct diff *d;
	const struct diff_limits *lim;
	size_t files_alloc, hunks_alloc, lines_alloc;
};

static struct diff_file *new_file(struct parser *ps, long patch_line)
{
	struct diff *d = ps->d;
	struct diff_file *f;

	if (d->nfiles >= ps->lim->max_files)
		return NULL;
	if (d->nfiles == ps->files_alloc) {
		size_t na = ps->files_alloc ? ps->files_alloc * 2 : 8;
		struct diff_file *nf = realloc(d->files, na * sizeof(*nf));

		if (!nf)
			return NULL;
		d->files = nf;
		ps->files_alloc = na;
	}
	f = &d->files[d->nfiles++];
	memset(f, 0, sizeof(*f));
	f->similarity = -1;
	f->patch_line = patch_line;
	f->first_hunk = d->nhunks;
	if (!d->first_diff_line)
		d->first_diff_line = patch_line;
	return f;
}

static struct diff_hunk *new_hunk(struct parser *ps)
{
	struct diff *d = ps->d;

	if (d->nhunks >= ps->lim->max_hunks)
		return NULL;
	if (d->nhunks == ps->hunks_alloc) {
		size_t na = ps->hunks_alloc ? ps->hunks_alloc * 2 : 16;
		struct diff_hunk *nh = realloc(d->hunks, na * sizeof(*nh));

		if (!nh)
			return NULL;
		d->hunks = nh;
		ps->hunks_alloc = na;
	}
	memset(&d->hunks[d->nhunks], 0, sizeof(d->hunks[0]));
	return &d->hunks[d->nhunks++];
}

static struct diff_line *new_line(struct parser *ps)
{
	struct diff *d = ps->d;

	if (d->nlines >= ps->lim->max_lines)
		return NULL;
	if (d->nlines == ps->lines_alloc) {
		size_t na = ps->lines_alloc ? ps->lines_alloc * 2 : 64;
		struct diff_line *nl = realloc(d->lines, na * sizeof(*nl));

		if (!nl)
			return NULL;
		d->lines = nl;
		ps->lines_alloc = na;
	}
	memset(&d->lines[d->nlines], 0, sizeof(d->lines[0]));
	return &d->lines[d->nlines++];
}

static unsigned parse_mode(const char *s, size_t n)
{
	unsigned m = 0;
	size_t i;

	for (i = 0; i < n && s[i] >= '0' && s[i] <= '7' && i < 8; i++)
		m = m * 8 + (unsigned)(s[i] - '0');
	return m;
}

/* "diff --git a/P b/Q": the two names, unquoting where quoted. */
static int git_names(const char *s, size_t n, size_t max, char **a, char **b)
{
	size_t used;
	const char *p = s + 11, *end = s + n, *sp;

	*a = *b = NULL;
	end = s + chomp_cr(s, n);
	if (p < end && *p == '"') {
		*a = unquote(p, (size_t)(end - p), &used, max);
		if (!*a)
			return -1;
		p += used;
		while (p < end && *p == ' ')
			p++;
		if (p < end && *p == '"')
			*b = unquote(p, (size_t)(end - p), &used, max);
		else
			*b = path_dup(p, (size_t)(end - p), max);
	} else {
		/* unquoted names may hold spaces: prefer the split where
		 * both names are the same (git's own rule for non-renames) */
		const char *best = NULL;

		for (sp = p; sp < end; sp++) {
			const char *q = memchr(sp, ' ', (size_t)(end - sp));
			size_t la, lb;

			if (!q)
				break;
			sp = q;
			if (end - q < 2)
				break;
			if (!best)
				best = q;
			la = (size_t)(q - p);
			lb = (size_t)(end - q - 1);
			if (la == lb || (la > 2 && lb > 2 &&
			    la - 2 == lb - 2 && !memcmp(p + 2, q + 3, la - 2))) {
				best = q;
				break;
			}
		}
		if (!best)
			return 0;
		*a = path_dup(p, (size_t)(best - p), max);
		if (best + 1 < end && best[1] == '"')
			*b = unquote(best + 1, (size_t)(end - best - 1), &used, max);
		else
			*b = path_dup(best + 1, (size_t)(end - best - 1), max);
	}
	if (!*a || !*b) {
		free(*a);
		free(*b);
		*a = *b = NULL;
		return -1;
	}
	strip_p1(*a);
	strip_p1(*b);
	return 0;
}

static void set_path(char **dst, char *src)
{
	free(*dst);
	*dst = src;
}

/* Skips a "GIT binary patch" body: two blocks, each ended by a blank line. */
static void skip_binary(struct cursor *c)
{
	int blocks = 0;
	const char *l;
	size_t n;

	while (blocks < 2 && cur_peek(c, &l, &n)) {
		if (starts(l, n, "literal ") || starts(l, n, "delta ")) {
			cur_next(c);
			while (cur_next(c) && chomp_cr(c->line, c->len) != 0)
				;
			blocks++;
			continue;
		}
		break;
	}
}

static int parse_hunk_body(struct parser *ps, struct cursor *c,
			   struct diff_file *f, struct diff_hunk *h)
{
	long old_left = h->old_count, new_left = h->new_count;
	long old_no = h->old_start, new_no = h->new_start;
	const char *l;
	size_t n;

	h->first_line = ps->d->nlines;
	while ((old_left > 0 || new_left > 0) && cur_peek(c, &l, &n)) {
		struct diff_line *dl;
		char kind = n ? l[0] : ' ';

		if (kind == '\\') {
			cur_next(c);
			if (ps->d->nlines > h->first_line)
				ps->d->lines[ps->d->nlines - 1].no_newline = 1;
			continue;
		}
		if (kind != ' ' && kind != '-' && kind != '+')
			break;
		if ((kind == '-' && old_left <= 0) || (kind == '+' && new_left <= 0) ||
		    (kind == ' ' && (old_left <= 0 || new_left <= 0)))
			break;
		cur_next(c);
		dl = new_line(ps);
		if (!dl)
			return DIFF_ERR_LIMIT;
		dl->kind = kind;
		dl->text = n ? l + 1 : l;
		dl->len = n ? n - 1 : 0;
		if (dl->len && dl->text[dl->len - 1] == '\r') {
			dl->crlf = 1;
			dl->len--;
		}
		dl->patch_line = c->patch_line;
		if (kind != '+') {
			dl->old_line = old_no++;
			old_left--;
		}
		if (kind != '-') {
			dl->new_line = new_no++;
			new_left--;
		}
		if (kind == '+')
			f->added++;
		else if (kind == '-')
			f->removed++;
	}
	/* a trailing "\ No newline at end of file" */
	if (cur_peek(c, &l, &n) && n && l[0] == '\\' && ps->d->nlines > h->first_line) {
		cur_next(c);
		ps->d->lines[ps->d->nlines - 1].no_newline = 1;
	}
	h->nlines = ps->d->nlines - h->first_line;
	if (old_left > 0 || new_left > 0) {
		h->err = DIFF_HUNK_SHORT;
		ps->d->bad_hunks++;
	}
	return 0;
}

int diff_parse(const char *buf, size_t len, const struct diff_limits *lim,
	       struct diff *out)
{
	struct diff_limits deflim;
	struct parser ps;
	struct cursor c;
	struct diff_file *f = NULL;
	int in_git_header = 0;
	int ret = DIFF_OK;

	memset(out, 0, sizeof(*out));
	if (!lim) {
		diff_limits_init(&deflim);
		lim = &deflim;
	}
	memset(&ps, 0, sizeof(ps));
	ps.d = out;
	ps.lim = lim;
	memset(&c, 0, sizeof(c));
	c.buf = c.next = buf;
	c.end = buf + len;

	while (cur_next(&c)) {
		const char *l = c.line, *pl;
		size_t n = c.len, pn;

		if (starts(l, n, "diff --git ")) {
			char *a, *b;

			f = new_file(&ps, c.patch_line);
			if (!f) {
				ret = DIFF_ERR_LIMIT;
				break;
			}
			f->flags |= DIFF_GIT;
			if (git_names(l, n, lim->max_path, &a, &b)) {
				ret = DIFF_ERR_NOMEM;
				break;
			}
			f->old_path = a;
			f->new_path = b;
			in_git_header = 1;
			continue;
		}
		if (in_git_header && f) {
			size_t m = chomp_cr(l, n);

			if (starts(l, m, "new file mode ")) {
				f->flags |= DIFF_NEW;
				f->new_mode = parse_mode(l + 14, m - 14);
				set_path(&f->old_path, NULL);
				continue;
			}
			if (starts(l, m, "deleted file mode ")) {
				f->flags |= DIFF_DELETED;
				f->old_mode = parse_mode(l + 18, m - 18);
				set_path(&f->new_path, NULL);
				continue;
			}
			if (starts(l, m, "old mode ")) {
				f->flags |= DIFF_MODE_CHANGE;
				f->old_mode = parse_mode(l + 9, m - 9);
				continue;
			}
			if (starts(l, m, "new mode ")) {
				f->flags |= DIFF_MODE_CHANGE;
				f->new_mode = parse_mode(l + 9, m - 9);
				continue;
			}
			if (starts(l, m, "rename from ") || starts(l, m, "copy from ")) {
				size_t off = l[0] == 'r' ? 12 : 10;

				f->flags |= l[0] == 'r' ? DIFF_RENAMED : DIFF_COPIED;
				set_path(&f->old_path, path_dup(l + off, m - off, lim->max_path));
				continue;
			}
			if (starts(l, m, "rename to ") || starts(l, m, "copy to ")) {
				size_t off = l[0] == 'r' ? 10 : 8;

				set_path(&f->new_path, path_dup(l + off, m - off, lim->max_path));
				continue;
			}
			if (starts(l, m, "similarity index ") || starts(l, m, "dissimilarity index ")) {
				const char *p = l + (l[0] == 's' ? 17 : 20);
				long v;

				if (!parse_num(&p, l + m, &v) && v <= 100)
					f->similarity = (int)v;
				continue;
			}
			if (starts(l, m, "index "))
				continue;
			if (starts(l, m, "Binary files ") || starts(l, m, "GIT binary patch")) {
				f->flags |= DIFF_BINARY;
				if (l[0] == 'G')
					skip_binary(&c);
				in_git_header = 0;
				continue;
			}
		}
		if (starts(l, n, "--- ") && cur_peek(&c, &pl, &pn) && starts(pl, pn, "+++ ")) {
			char *oldp, *newp;

			if (!f || !in_git_header) {
				f = new_file(&ps, c.patch_line);
				if (!f) {
					ret = DIFF_ERR_LIMIT;
					break;
				}
			}
			cur_next(&c);
			if (header_path(l + 4, n - 4, lim->max_path, &oldp) ||
			    header_path(pl + 4, pn - 4, lim->max_path, &newp)) {
				ret = DIFF_ERR_NOMEM;
				break;
			}
			if (!(f->flags & DIFF_GIT)) {
				set_path(&f->old_path, oldp);
				set_path(&f->new_path, newp);
				if (!oldp)
					f->flags |= DIFF_NEW;
				if (!newp)
					f->flags |= DIFF_DELETED;
			} else {
				free(oldp);
				free(newp);
			}
			in_git_header = 0;
			continue;
		}
		if (starts(l, n, "@@ -") && f) {
			struct diff_hunk *h = new_hunk(&ps);

			in_git_header = 0;
			if (!h) {
				ret = DIFF_ERR_LIMIT;
				break;
			}
			h->patch_line = c.patch_line;
			if (parse_hunk_header(l, chomp_cr(l, n), h)) {
				h->err = DIFF_HUNK_BAD_HEADER;
				out->bad_hunks++;
				h->first_line = out->nlines;
				f->nhunks = out->nhunks - f->first_hunk;
				continue;
			}
			ret = parse_hunk_body(&ps, &c, f, h);
			f->nhunks = out->nhunks - f->first_hunk;
			if (ret)
				break;
			continue;
		}
		/* anything else ends a git header that had no content */
		if (in_git_header && n)
			in_git_header = 0;
	}
	return ret;
}

void diff_release(struct diff *d)
{
	size_t i;

	for (i = 0; i < d->nfiles; i++) {
		free(d->files[i].old_path);
		free(d->files[i].new_path);
	}
	free(d->files);
	free(d->hunks);
	free(d->lines);
	memset(d, 0, sizeof(*d));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pipeline's mail reader, below everything else of it: a raw mail
 * parsed (as it comes, within the configured [limits], or read again
 * from the store within the ceilings), with a Message-ID named from its
 * bytes when it has none; a series read again, its view: its patches and
 * the findings it does not settle itself.  Mail coming in (pipeline.c),
 * the commands, the review and the stages all read it through here.
 * See pipeline_int.h.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "pipeline_int.h"
#include "../store/store_web.h"
#include "../checker/diff.h"
#include "../checker/banned.h"

uint64_t pipe_fnv1a(uint64_t h, const void *buf, size_t n)
{
	const unsigned char *b = buf;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

int pipe_parse_within(const char *raw, size_t len, const struct mime_limits *lim,
		      struct mime_mail *m)
{
	struct mime_limits fixed_lim = *lim;
	struct sbuf fixed;
	char hdr[96];
	int ret;

	if (len > lim->max_mail)
		return MIME_ERR_LIMIT;
	ret = mime_parse_limits(raw, len, lim, m);
	if (ret != MIME_ERR_NO_MSGID)
		return ret;
	/*
	 * git format-patch output and hand-made mail have no Message-ID: the
	 * bytes name it, so the same mail read twice is one message.  The
	 * stored raw mail stays as it came.
	 */
	snprintf(hdr, sizeof(hdr), "Message-ID: <nomsgid-%016" PRIx64 "@" PIPE_INVALID_DOMAIN ">\n",
		 pipe_fnv1a(PIPE_FNV_INIT, raw, len));
	fixed_lim.max_mail += strlen(hdr);
	sbuf_init(&fixed, MIME_MAX_MAIL + sizeof(hdr));
	/* after an mbox "From " line, if any */
	if (len > 5 && !memcmp(raw, "From ", 5)) {
		const char *nl = memchr(raw, '\n', len);
		size_t n = nl ? (size_t)(nl - raw) + 1 : len;

		sbuf_add(&fixed, raw, n);
		raw += n;
		len -= n;
	}
	sbuf_addstr(&fixed, hdr);
	sbuf_add(&fixed, raw, len);
	ret = fixed.err ? MIME_ERR_LIMIT : mime_parse_limits(fixed.buf, fixed.len, &fixed_lim, m);
	sbuf_release(&fixed);
	return ret;
}

/*
 * A mail stored earlier, read again (pipe_load_mail): it passed the
 * configured [limits] when it came, so the ceilings apply here; [limits]
 * lowered since then does not make it unreadable.
 */
int pipeline_parse(const char *raw, size_t len, struct mime_mail *m)
{
	const struct mime_limits ceil = {
		.max_mail = MIME_MAX_MAIL,
		.max_parts = MIME_CEIL_PARTS,
		.max_refs = MIME_CEIL_REFS,
	};

	return pipe_parse_within(raw, len, &ceil, m);
}

int pipe_load_mail(struct store *st, int64_t msg_id, struct mime_mail *m)
{
	void *raw = NULL;
	size_t len = 0;
	int ret;

	ret = store_msg_raw(st, msg_id, &raw, &len);
	if (ret != STORE_OK)
		return -1;
	ret = pipeline_parse(raw, len, m);
	free(raw);
	return ret == MIME_OK ? 0 : -1;
}

/* ---- a series read again: its view ------------------------------------- */

static int cmp_removed(const void *a, const void *b)
{
	const struct removed *x = a, *y = b;

	return (x->hash > y->hash) - (x->hash < y->hash);
}

static uint64_t line_hash(const char *file, const char *text, size_t len)
{
	uint64_t h = pipe_fnv1a(PIPE_FNV_INIT, file, strlen(file) + 1);

	return pipe_fnv1a(h, text, len);
}

void pipe_view_release(struct view *v)
{
	size_t i;

	for (i = 0; i < v->npatches; i++)
		store_patch_release(&v->patches[i]);
	free(v->patches);
	for (i = 0; i < v->nf; i++)
		store_finding_release(&v->f[i]);
	free(v->f);
	free(v->cf);
	free(v->rm);
	free(v->sc);
	if (v->have_first)
		mime_release(&v->first);
	memset(v, 0, sizeof(*v));
}

static int add_removed(struct view *v, uint64_t h, int part)
{
	struct removed *n;

	if (v->nrm == v->rm_alloc) {
		size_t a = v->rm_alloc ? v->rm_alloc * 2 : 256;

		if (a > DIFF_DEFAULT_MAX_LINES)
			return 0;	/* enough: the filter is a courtesy */
		n = realloc(v->rm, a * sizeof(*n));
		if (!n)
			return -1;
		v->rm = n;
		v->rm_alloc = a;
	}
	v->rm[v->nrm].hash = h;
	v->rm[v->nrm].part = part;
	v->nrm++;
	return 0;
}

/* ---- scopes: the function a line is in --------------------------------- */

static uint64_t scope_key(int part, const char *path, long line)
{
	uint64_t h = pipe_fnv1a(PIPE_FNV_INIT, &part, sizeof(part));

	h = pipe_fnv1a(h, path, strlen(path) + 1);
	return pipe_fnv1a(h, &line, sizeof(line));
}

static int cmp_scope(const void *a, const void *b)
{
	const struct scope_line *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* A label ("err_free:", "out:") at column 0: inside its function. */
static int is_label(const char *t, size_t n)
{
	size_t i = 0;

	while (i < n && (isalnum((unsigned char)t[i]) || t[i] == '_'))
		i++;
	if (!i || i >= n || t[i] != ':' || (i + 1 < n && t[i + 1] == ':'))
		return 0;
	for (i++; i < n && (t[i] == ' ' || t[i] == '\t'); i++)
		;
	return i == n || t[i] == '/';
}

/*
 * The scope a line of text opens, or 0: a line at column 0 that starts
 * like C (a letter or '_', as git's default funcname) and is no label,
 * named by its first 60 bytes (git cuts a hunk's section at 80) without
 * trailing blanks, so a hunk's section names the same function.
 */
static uint64_t scope_open(const char *path, const char *t, size_t n)
{
	if (!n || !(isalpha((unsigned char)t[0]) || t[0] == '_') || is_label(t, n))
		return 0;
	if (n > 60)
		n = 60;
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\r'))
		n--;
	return pipe_fnv1a(pipe_fnv1a(PIPE_FNV_INIT ^ 0x5c09e, path, strlen(path) + 1),
			  t, n) | 1;
}

/* A scope of its own, known to be no function named anywhere. */
static uint64_t scope_unknown(struct view *v)
{
	v->sc_next++;
	return pipe_fnv1a(PIPE_FNV_INIT ^ 0xa11, &v->sc_next, sizeof(v->sc_next)) | 1;
}

static int add_scope(struct view *v, int part, const char *path, long line, uint64_t scope)
{
	struct scope_line *n;

	if (v->nsc == v->sc_alloc) {
		size_t a = v->sc_alloc ? v->sc_alloc * 2 : 256;

		if (a > PIPE_MAX_SCOPE_LINES)
			return 0;	/* enough: a scope is a courtesy */
		n = realloc(v->sc, a * sizeof(*n));
		if (!n)
			return -1;
		v->sc = n;
		v->sc_alloc = a;
	}
	v->sc[v->nsc].key = scope_key(part, path, line);
	v->sc[v->nsc].scope = scope;
	v->nsc++;
	return 0;
}

/* The scopes of the added lines of one file's hunks. */
static int scan_scopes(struct view *v, const struct diff *d, const struct diff_file *df,
		       const char *path, int part)
{
	size_t j, k;

	for (j = df->first_hunk; j < df->first_hunk + df->nhunks; j++) {
		const struct diff_hunk *h = &d->hunks[j];
		const char *sec = h->section;
		size_t sn = h->section_len;
		uint64_t cur;

		while (sn && (*sec == ' ' || *sec == '\t')) {
			sec++;
			sn--;
		}
		cur = sec ? scope_open(path, sec, sn) : 0;
		if (!cur)
			cur = scope_unknown(v);
		for (k = h->first_line; k < h->first_line + h->nlines; k++) {
			const struct diff_line *l = &d->lines[k];
			uint64_t o;

			if (l->kind == '-')
				continue;
			if (l->len && l->text[0] == '}') {
				if (l->kind == '+' && add_scope(v, part, path, l->new_line, cur))
					return -1;
				cur = scope_unknown(v);
				continue;
			}
			o = scope_open(path, l->text, l->len);
			if (o)
				cur = o;
			if (l->kind == '+' && add_scope(v, part, path, l->new_line, cur))
				return -1;
		}
	}
	return 0;
}

/* The scope of finding f, 0 when not known. */
static uint64_t scope_of(const struct view *v, const struct store_finding *f)
{
	struct scope_line key, *r;

	if (!f->file || f->line <= 0 || !v->nsc)
		return 0;
	key.key = scope_key(f->part, f->file, f->line);
	r = bsearch(&key, v->sc, v->nsc, sizeof(*r), cmp_scope);
	return r ? r->scope : 0;
}

/* What one patch's diff tells the series. */
static int scan_patch(struct view *v, const struct mime_mail *m, int part)
{
	struct diff d;
	size_t i, j, k;
	int ret = 0;

	memset(&d, 0, sizeof(d));
	diff_parse(m->body, m->body_len, NULL, &d);
	for (i = 0; i < d.nfiles && !ret; i++) {
		const struct diff_file *df = &d.files[i];
		const char *path = diff_file_path(df);

		if (!path)
			continue;
		if (!strcmp(path, "MAINTAINERS"))
			v->touches_maintainers = 1;
		if (!strncmp(path, "Documentation/ABI/", 18) && df->added)
			v->adds_abi_doc = 1;
		for (j = df->first_hunk; j < df->first_hunk + df->nhunks && !ret; j++)
			for (k = d.hunks[j].first_line;
			     k < d.hunks[j].first_line + d.hunks[j].nlines && !ret; k++)
				if (d.lines[k].kind == '-')
					ret = add_removed(v, line_hash(path, d.lines[k].text,
								       d.lines[k].len), part);
		if (!ret)
			ret = scan_scopes(v, &d, df, path, part);
	}
	diff_release(&d);
	return ret;
}

static int removed_later(const struct view *v, const struct store_finding *f)
{
	struct removed key, *r;

	if (!f->file || !f->line_text || !v->nrm)
		return 0;
	key.hash = line_hash(f->file, f->line_text, strlen(f->line_text));
	r = bsearch(&key, v->rm, v->nrm, sizeof(*r), cmp_removed);
	if (!r)
		return 0;
	while (r > v->rm && r[-1].hash == key.hash)
		r--;
	for (; r < v->rm + v->nrm && r->hash == key.hash; r++)
		if (r->part > f->part)
			return 1;
	return 0;
}

static int settled(const struct view *v, const struct store_finding *f)
{
	if (v->touches_maintainers && (!strcmp(f->type, "NEW_FILE_NO_MAINTAINERS") ||
				       !strcmp(f->type, "FILE_PATH_CHANGES")))
		return 1;
	if (v->adds_abi_doc && !strcmp(f->type, "UAPI_SYSFS_UNDOCUMENTED"))
		return 1;
	return removed_later(v, f);
}

/* Loads a series' patches and findings, keeping those the series does
 * not settle itself; only_part > 0 keeps that part's findings only. */
int pipe_view_load(struct store *st, int64_t series_id, int only_part, struct view *v)
{
	struct mime_mail m;
	size_t i;
	int ret;

	memset(v, 0, sizeof(*v));
	ret = store_patch_list(st, series_id, &v->patches, &v->npatches);
	if (ret != STORE_OK)
		return ret < 0 ? ret : STORE_ERR;
	for (i = 0; i < v->npatches; i++) {
		if (pipe_load_mail(st, v->patches[i].msg_id, &m))
			continue;
		if (scan_patch(v, &m, v->patches[i].part)) {
			mime_release(&m);
			return STORE_ERR_NOMEM;
		}
		if (!v->have_first) {
			v->first = m;
			v->have_first = 1;
		} else {
			mime_release(&m);
		}
	}
	if (v->nrm)
		qsort(v->rm, v->nrm, sizeof(*v->rm), cmp_removed);
	if (v->nsc)
		qsort(v->sc, v->nsc, sizeof(*v->sc), cmp_scope);
	ret = store_finding_list(st, series_id, &v->f, &v->nf);
	if (ret != STORE_OK)
		return ret < 0 ? ret : STORE_ERR;
	v->cf = calloc(v->nf ? v->nf : 1, sizeof(*v->cf));
	if (!v->cf)
		return STORE_ERR_NOMEM;
	for (i = 0; i < v->nf; i++) {
		const struct store_finding *f = &v->f[i];
		struct compose_finding *c;

		if (only_part > 0 && f->part != only_part)
			continue;
		if (settled(v, f))
			continue;
		c = &v->cf[v->ncf++];
		c->part = f->part;
		c->type = f->type;
		c->severity = f->severity;
		c->category = f->category;
		c->file = f->file;
		c->line = f->line;
		c->message = f->message;
		c->line_text = f->line_text;
		c->fingerprint = f->fingerprint;
		c->id = f->id;
		c->scope = scope_of(v, f);
	}
	return STORE_OK;
}

int pipe_view_publishable(struct store *st, const char *publish, struct view *v)
{
	size_t i, j, k, kept = 0;
	char *pub;
	int ret;

	pub = calloc(v->npatches + 1, 1);
	if (!pub)
		return STORE_ERR_NOMEM;
	for (i = 0; i < v->npatches; i++) {
		ret = v->patches[i].msg_id ?
		      store_web_msg_published(st, publish, v->patches[i].msg_id) : STORE_DONE;
		if (ret < 0) {
			free(pub);
			return ret;
		}
		pub[i] = ret == STORE_OK;
		kept += (size_t)pub[i];
	}
	/* a finding goes with its part: kept only when that part may be
	 * published (a part that has no patch row is not) */
	for (j = 0, k = 0; j < v->ncf; j++) {
		int ok = 0;

		for (i = 0; i < v->npatches && !ok; i++)
			ok = pub[i] && v->patches[i].part == v->cf[j].part;
		if (ok)
			v->cf[k++] = v->cf[j];
	}
	v->ncf = k;
	free(pub);
	return (int)kept;
}

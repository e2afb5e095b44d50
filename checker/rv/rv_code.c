// SPDX-License-Identifier: GPL-2.0-only
/*
 * The patch as C code, for the rules that read functions rather than
 * lines (rv_fix.c, rv_flow.c, rv_perm.c, rv_life.c): the input's diff
 * parsed again (diff.c), both of its sides as token views (cview.c), and
 * the commit message of each mail in it.  Built once, after the last
 * line, and freed with the engine's other review state.
 *
 * Also the one way those rules report: at a token or a line seen earlier,
 * with the engine's current-line fields pointed at it for the report.
 */
#include "rv.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../diff.h"
#include "cfunc.h"
#include "cview.h"

#include "../banned.h"

#define RV_MAX_MAILS	4096
#define RV_MAX_SUBJECT	4096
#define RV_MAX_MESSAGE	(1u << 20)

static int is_from_line(const char *l)
{
	static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri",
					    "Sat", "Sun" };
	const char *p;
	size_t i;

	if (strncmp(l, "From ", 5) || l[5] == ' ' || !l[5])
		return 0;
	p = strchr(l + 5, ' ');
	if (!p)
		return 0;
	while (*p == ' ')
		p++;
	for (i = 0; i < 7; i++)
		if (!strncmp(p, days[i], 3) && p[3] == ' ')
			return 1;
	return 0;
}

static int is_header_line(const char *l)
{
	const char *p = l;

	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
	       (*p >= '0' && *p <= '9') || *p == '-')
		p++;
	return p > l && *p == ':';
}

static int is_diff_start(const char *l)
{
	return !strncmp(l, "diff --git ", 11) || !strncmp(l, "Index: ", 7) ||
	       (!strncmp(l, "--- ", 4) && (!strncmp(l + 4, "a/", 2) ||
					   !strncmp(l + 4, "/dev/null", 9)));
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* One mail of the input: lines [a, b). */
static int read_mail(struct eng *e, struct rv_msg *m, long a, long b)
{
	struct sbuf subj, text;
	long i = a, body;
	int in_headers = 0;

	memset(m, 0, sizeof(*m));
	m->line0 = a + 1;
	m->line1 = b + 1;
	sbuf_init(&subj, RV_MAX_SUBJECT);
	sbuf_init(&text, RV_MAX_MESSAGE);
	if (i < b && is_from_line(e->rawlines[i]))
		i++;
	if (i < b && is_header_line(e->rawlines[i]))
		in_headers = 1;
	/* the headers: Subject: and its folded lines (RFC 5322 2.2.3) */
	while (in_headers && i < b && e->rawlines[i][0]) {
		const char *l = e->rawlines[i];

		if (!strncasecmp(l, "Subject:", 8)) {
			sbuf_addstr(&subj, skip_ws(l + 8));
			while (i + 1 < b && (e->rawlines[i + 1][0] == ' ' ||
					     e->rawlines[i + 1][0] == '\t')) {
				i++;
				sbuf_addch(&subj, ' ');
				sbuf_addstr(&subj, skip_ws(e->rawlines[i]));
			}
		}
		i++;
	}
	if (in_headers && i < b)
		i++;		/* the blank line */
	body = i;
	/* no headers: the first line is the subject (git show, a bare file) */
	if (!in_headers && i < b && !is_diff_start(e->rawlines[i])) {
		sbuf_addstr(&subj, e->rawlines[i]);
		i++;
	}
	m->body0 = body + 1;
	m->diff0 = b + 1;
	sbuf_add(&text, subj.buf, subj.len);
	sbuf_addstr(&text, "\n\n");
	for (; i < b; i++) {
		const char *l = e->rawlines[i];

		if (is_diff_start(l) || !strcmp(l, "---")) {
			long k;

			for (k = i; k < b && !is_diff_start(e->rawlines[k]); k++)
				;
			m->diff0 = k + 1;
			break;
		}
		sbuf_addstr(&text, l);
		sbuf_addch(&text, '\n');
		{
			const char *t = skip_ws(l);

			if (!strncasecmp(t, "Fixes:", 6))
				m->has_fixes = 1;
			if (!strncasecmp(t, "Cc:", 3) &&
			    (strstr(t, "stable@vger.kernel.org") || strstr(t, "stable@kernel.org")))
				m->has_stable = 1;
		}
	}
	m->subject = strndup(subj.buf, subj.len);
	m->text = strndup(text.buf, text.len);
	sbuf_release(&subj);
	sbuf_release(&text);
	if (!m->subject || !m->text) {
		free(m->subject);
		free(m->text);
		m->subject = m->text = NULL;
		return -1;
	}
	return 0;
}

static void code_free(struct rv_code *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nfuncs; i++)
		cfunc_release(&c->funcs[i]);
	free(c->funcs);
	for (i = 0; i < c->nmsgs; i++) {
		free(c->msgs[i].subject);
		free(c->msgs[i].text);
	}
	free(c->msgs);
	if (c->nv)
		cview_release(c->nv);
	if (c->ov)
		cview_release(c->ov);
	free(c->nv);
	free(c->ov);
	diff_release(&c->d);
	free(c->buf);
	free(c);
}

const struct rv_code *rv_code_get(struct eng *e)
{
	struct rv_code *c;
	size_t i, len = 0, nm = 0;
	long start = 0;

	if (e->rv_code_done)
		return e->rv_code;
	e->rv_code_done = 1;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	for (i = 0; i < e->nlines; i++)
		len += strlen(e->rawlines[i]) + 1;
	c->buf = malloc(len + 1);
	if (!c->buf)
		goto fail;
	for (i = 0; i < e->nlines; i++) {
		size_t n = strlen(e->rawlines[i]);

		memcpy(c->buf + c->len, e->rawlines[i], n);
		c->len += n;
		c->buf[c->len++] = '\n';
	}
	c->buf[c->len] = '\0';
	if (diff_parse(c->buf, c->len, NULL, &c->d) == DIFF_ERR_NOMEM || !c->d.nfiles)
		goto fail;
	c->nv = calloc(1, sizeof(*c->nv));
	c->ov = calloc(1, sizeof(*c->ov));
	if (!c->nv || !c->ov)
		goto fail;
	/* a view cut by a limit still holds what it could: keep it */
	cview_build(c->nv, &c->d, '+');
	cview_build(c->ov, &c->d, '-');

	/* the mails: an mbox's From_ lines start each one */
	for (i = 1; i <= e->nlines; i++) {
		if (i < e->nlines && !is_from_line(e->rawlines[i]))
			continue;
		if (c->nmsgs >= RV_MAX_MAILS)
			break;
		if (c->nmsgs == nm) {
			size_t na = nm ? nm * 2 : 4;
			struct rv_msg *n = realloc(c->msgs, na * sizeof(*n));

			if (!n)
				goto fail;
			c->msgs = n;
			nm = na;
		}
		if (read_mail(e, &c->msgs[c->nmsgs], start, (long)i))
			goto fail;
		c->nmsgs++;
		start = (long)i;
	}
	e->rv_code = c;
	return c;
fail:
	code_free(c);
	return NULL;
}

void rv_code_release(struct eng *e)
{
	code_free(e->rv_code);
	e->rv_code = NULL;
	e->rv_code_done = 0;
}

size_t rv_code_funcs(struct eng *e, struct rv_code *c)
{
	const struct cview *v;
	size_t i, n = 0;

	(void)e;
	if (!c || c->funcs_done)
		return c ? c->nfuncs : 0;
	c->funcs_done = 1;
	v = c->nv;
	for (i = 0; i < v->nitems; i++)
		n += v->items[i].kind == CVI_FUNC && v->items[i].changed;
	if (!n)
		return 0;
	c->funcs = calloc(n, sizeof(*c->funcs));
	if (!c->funcs)
		return 0;
	for (i = 0; i < v->nitems; i++) {
		const struct cv_item *it = &v->items[i];

		if (it->kind != CVI_FUNC || !it->changed ||
		    !v->files[v->frags[it->frag].file].kernel)
			continue;
		cfunc_build(&c->funcs[c->nfuncs++], v, it);
	}
	return c->nfuncs;
}

const char *rv_code_path(const struct cview *v, size_t tok)
{
	size_t i;

	for (i = 0; i < v->nfrags; i++)
		if (tok >= v->frags[i].tok0 && tok < v->frags[i].tok0 + v->frags[i].ntok)
			return v->files[v->frags[i].file].path;
	return "";
}

const struct cv_item *rv_code_item_at(const struct cview *v, size_t tok)
{
	size_t i;

	for (i = 0; i < v->nitems; i++)
		if (tok >= v->items[i].in0 && tok < v->items[i].in1)
			return &v->items[i];
	return NULL;
}

static const struct cv_item *find_item(const struct rv_code *c, enum cv_item_kind kind,
				       const struct ctok *name)
{
	size_t i;

	if (!c || !c->nv || !name)
		return NULL;
	for (i = 0; i < c->nv->nitems; i++) {
		const struct cv_item *it = &c->nv->items[i];
		const struct ctok *n = cview_item_name(c->nv, it);

		if (it->kind == kind && n && ctok_same(n, name) && !it->head_missing)
			return it;
	}
	return NULL;
}

const struct cv_item *rv_code_struct(const struct rv_code *c, const struct ctok *tag)
{
	return find_item(c, CVI_STRUCT, tag);
}

const struct cv_item *rv_code_global(const struct rv_code *c, const struct ctok *name)
{
	return find_item(c, CVI_VAR, name);
}

long rv_code_define(const struct rv_code *c, const struct ctok *name)
{
	const struct cview *v = c->nv;
	size_t i;

	for (i = 0; i < v->tb.n; i++) {
		const struct ctok *t = &v->tb.t[i];
		const char *p, *end;
		char *ep;
		long val;

		if (t->kind != CTK_PP)
			continue;
		p = t->s + 1;
		end = t->s + t->len;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(end - p) < 7 || strncmp(p, "define", 6))
			continue;
		p += 6;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(end - p) <= name->len || memcmp(p, name->s, name->len) ||
		    (p[name->len] != ' ' && p[name->len] != '\t'))
			continue;
		p += name->len;
		val = strtol(p, &ep, 0);
		if (ep > p && ep <= end && val > 0 && val < (1l << 20))
			return val;
	}
	return -1;
}

int rv_ident_says(struct eng *e, const struct ctok *t, const char *pat)
{
	char w[128];
	size_t n = t->len < sizeof(w) - 1 ? t->len : sizeof(w) - 1;

	if (t->kind != CTK_IDENT)
		return 0;
	memcpy(w, t->s, n);
	w[n] = '\0';
	return MQ(e, pat, w);
}

const struct rv_msg *rv_code_msg(const struct rv_code *c, long pline)
{
	size_t i;

	for (i = 0; c && i < c->nmsgs; i++)
		if (pline >= c->msgs[i].line0 && pline < c->msgs[i].line1)
			return &c->msgs[i];
	return NULL;
}

void rv_report_line(struct eng *e, enum rule_sev sev, enum rule_id id,
		    const char *path, long pline, long fline, const char *msg)
{
	rv_report_raw(e, sev, id, path, pline, fline,
		      pline >= 1 && (size_t)pline <= e->nlines ? e->rawlines[pline - 1] : "",
		      msg);
}

void rv_report_raw(struct eng *e, enum rule_sev sev, enum rule_id id,
		   const char *path, long pline, long fline, const char *raw,
		   const char *msg)
{
	struct sbuf old_file, old_here, prefix;
	long old_linenr = e->linenr, old_realline = e->realline;
	int old_in_loop = e->in_loop, old_has_file = e->here_has_file;
	const char *old_prefix = e->prefix;

	sbuf_init(&old_file, 1u << 16);
	sbuf_init(&old_here, 1u << 16);
	sbuf_init(&prefix, 1u << 16);
	sbuf_add(&old_file, e->realfile.buf, e->realfile.len);
	sbuf_add(&old_here, e->here.buf, e->here.len);

	e->linenr = pline;
	e->realline = fline;
	e->in_loop = 1;
	e->here_has_file = path != NULL;
	sbuf_reset(&e->realfile);
	if (path)
		sbuf_addstr(&e->realfile, path);
	sbuf_reset(&e->here);
	if (!path)
		sbuf_addf(&e->here, "#%ld: ", pline);
	else if (fline)
		sbuf_addf(&e->here, "#%ld: FILE: %s:%ld:", pline, path, fline);
	else
		sbuf_addf(&e->here, "#%ld: FILE: %s:", pline, path);
	if (e->o->showfile || e->o->emacs) {
		sbuf_addf(&prefix, "%s:%ld: ", e->o->showfile && path ? path : e->filename,
			  e->o->showfile || e->o->file ? fline : pline);
		e->prefix = prefix.buf;
	}
	if (!e->here.err && !e->realfile.err && !prefix.err) {
		const char *text = eng_printf(e, "%s\n%s\n%s\n", msg, e->here.buf, raw);

		if (sev == SEV_ERROR)
			ERROR(e, id, text);
		else if (sev == SEV_CHECK)
			CHK(e, id, text);
		else
			WARN(e, id, text);
	}
	else
		e->failed = 1;

	sbuf_reset(&e->realfile);
	sbuf_add(&e->realfile, old_file.buf, old_file.len);
	sbuf_reset(&e->here);
	sbuf_add(&e->here, old_here.buf, old_here.len);
	e->prefix = old_prefix;
	e->here_has_file = old_has_file;
	e->in_loop = old_in_loop;
	e->realline = old_realline;
	e->linenr = old_linenr;
	sbuf_release(&prefix);
	sbuf_release(&old_here);
	sbuf_release(&old_file);
}

void rv_report_tok(struct eng *e, enum rule_sev sev, enum rule_id id,
		   const struct cview *v, size_t tok, const char *msg)
{
	const struct cv_line *l = cview_line(v, tok);
	const struct cv_frag *fr = NULL;
	size_t i;

	for (i = 0; i < v->nfrags; i++)
		if (tok >= v->frags[i].tok0 && tok < v->frags[i].tok0 + v->frags[i].ntok) {
			fr = &v->frags[i];
			break;
		}
	if (!fr)
		return;
	rv_report_line(e, sev, id, v->files[fr->file].path, l->pline, l->fline, msg);
}

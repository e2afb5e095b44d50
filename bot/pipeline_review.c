// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pipeline's second half: one review per series version, and its
 * delivery.  See pipeline.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pipeline.h"
#include "pipeline_int.h"
#include "boot.h"
#include "build.h"
#include "command.h"
#include "compose.h"
#include "deliver.h"
#include "log.h"
#include "series.h"
#include "version.h"
#include "../checker/diff.h"
#include "../checker/readiness.h"
#include "../checker/banned.h"

#define PIPE_RETRY_MIN		60	/* seconds: first retry of a delivery */
#define PIPE_RETRY_MAX		3600
#define PIPE_MAX_ATTEMPTS	20	/* then failed for good */
#define PIPE_MAX_RCPT		4096	/* bytes of the envelope recipient list */
#define PIPE_DEFAULT_ADDRESS	"reviewbot@localhost"

/*
 * Findings a later part of the series settles are not the author's
 * problem: a line a later patch removes again, and the "no MAINTAINERS
 * entry" / "undocumented sysfs" findings when the series adds the entry
 * or the documentation in another patch.
 */
struct removed {
	uint64_t hash;		/* of file + '\0' + line text */
	int part;
};

struct view {
	struct store_patch *patches;
	size_t npatches;
	struct store_finding *f;
	size_t nf;
	struct compose_finding *cf;	/* the findings kept, pointing into f */
	size_t ncf;
	struct removed *rm;
	size_t nrm, rm_alloc;
	int touches_maintainers;
	int adds_abi_doc;
	struct mime_mail first;		/* the lowest part's mail (threading) */
	int have_first;
};

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

static void view_release(struct view *v)
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

static int load_mail(struct store *st, int64_t msg_id, struct mime_mail *m)
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

/* Loads a series' patches and findings, keeping those the series does
 * not settle itself; only_part > 0 keeps that part's findings only. */
static int view_load(struct store *st, int64_t series_id, int only_part, struct view *v)
{
	struct mime_mail m;
	size_t i;
	int ret;

	memset(v, 0, sizeof(*v));
	ret = store_patch_list(st, series_id, &v->patches, &v->npatches);
	if (ret != STORE_OK)
		return ret < 0 ? ret : STORE_ERR;
	for (i = 0; i < v->npatches; i++) {
		if (load_mail(st, v->patches[i].msg_id, &m))
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
	}
	return STORE_OK;
}

/* ---- one review -------------------------------------------------------- */

static void add_rcpt(struct sbuf *rcpt, const char *addr)
{
	const char *p = rcpt->buf;
	size_t n;

	/* only what the mail's headers show too: no hidden recipient */
	if (!addr || !compose_address_ok(addr))
		return;
	n = strlen(addr);
	/* once each */
	while ((p = strstr(p, addr))) {
		if ((p == rcpt->buf || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return;
		p += n;
	}
	if (rcpt->len)
		sbuf_addch(rcpt, ',');
	sbuf_addstr(rcpt, addr);
}

/* addr lowercased into out (opt-outs and caps are kept lowercase). */
static const char *lower_addr(const char *addr, char *out, size_t outlen)
{
	size_t i;

	if (!addr)
		return NULL;
	for (i = 0; addr[i] && i + 1 < outlen; i++)
		out[i] = (addr[i] >= 'A' && addr[i] <= 'Z') ?
			 (char)(addr[i] - 'A' + 'a') : addr[i];
	out[i] = '\0';
	return out;
}

/* The series' thread, or the thread of the mail replied to, is muted. */
static int thread_muted(struct store *st, const struct store_series *s,
			const struct mime_mail *to_mail)
{
	return store_mute_get(st, s->root) == STORE_OK ||
	       store_mute_get(st, command_thread_root(to_mail)) == STORE_OK ||
	       store_mute_get(st, to_mail->message_id) == STORE_OK;
}

struct review_ctx {
	struct pipeline *p;
	int64_t now;
	int force;
	int failed;		/* series whose review failed (logged) */
};

/* ---- the compile stage ([build], build.h) -------------------------------- */

/*
 * Compile-tests the series (synchronously: one build at a time, bounded
 * by [build] timeout) and stores its new errors and warnings as findings
 * of the part that touched the file; the verdict goes to *state / note.
 */
static int compile_series(struct pipeline *p, struct store_series *s,
			  const struct view *v, const struct mime_mail *cover,
			  int *state, char *note, size_t notelen)
{
	struct build_patch *bp;
	struct mime_mail *mails;
	struct build_result res;
	char base[80], fp[32];
	const char *have_base = NULL;
	size_t i, n = 0;
	int ret = 0;

	bp = calloc(v->npatches + 1, sizeof(*bp));
	mails = calloc(v->npatches + 1, sizeof(*mails));
	if (!bp || !mails) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	if (cover && build_base_commit(cover->body, cover->body_len, base, sizeof(base)))
		have_base = base;
	for (i = 0; i < v->npatches && i < BUILD_MAX_PATCHES; i++) {
		if (load_mail(p->st, v->patches[i].msg_id, &mails[n]))
			continue;
		bp[n].part = v->patches[i].part;
		bp[n].text = mails[n].body;
		bp[n].len = mails[n].body_len;
		if (!have_base && build_base_commit(mails[n].body, mails[n].body_len,
						    base, sizeof(base)))
			have_base = base;
		n++;
	}
	if (build_series(p->cfg, bp, n, have_base, &res)) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < res.nissues && ret >= 0; i++) {
		const struct build_issue *is = &res.issues[i];
		struct store_finding f;
		int64_t fid;
		size_t j;

		memset(&f, 0, sizeof(f));
		for (j = 0; j < v->npatches; j++)
			if (v->patches[j].part == is->part)
				f.patch_id = v->patches[j].id;
		if (!f.patch_id && v->npatches)
			f.patch_id = v->patches[v->npatches - 1].id;
		f.type = is->error ? "COMPILE_ERROR" : "COMPILE_WARNING";
		f.severity = is->error ? "ERROR" : "WARNING";
		f.category = "correctness";
		f.file = is->file;
		f.line = is->line;
		f.message = is->message;
		f.line_text = is->line_text;
		/* the compiler's words, not the line number: stable across versions */
		compose_fingerprint(f.type, f.file, f.message, fp, sizeof(fp));
		f.fingerprint = fp;
		ret = store_finding_add(p->st, &f, &fid);
	}
	*state = 1 + (res.verdict == BUILD_OK ? CHK_READY_OK :
		      res.verdict == BUILD_CONCERN ? CHK_READY_CONCERN :
		      CHK_READY_NOT_CHECKED);
	snprintf(note, notelen, "%s", res.note);
	{
		char t[64];

		snprintf(t, sizeof(t), "prepare=%.1fs apply=%.1fs build=%.1fs",
			 res.prepare_s, res.apply_s, res.build_s);
		log_event(LOG_INFO, "compile-test", "series", s->subject,
			  "result", res.note, "cost", t, NULL);
	}
	build_result_release(&res);
	if (ret > 0)
		ret = 0;
out:
	for (i = 0; i < n; i++)
		mime_release(&mails[i]);
	free(mails);
	free(bp);
	return ret;
}

/* ---- the QEMU load stage ([boot], boot.h) -------------------------------- */

/*
 * Load-tests the modules the series adds (synchronously, bounded by
 * [boot] timeout per module) and stores a finding for each that oopses,
 * warns, hangs or fails to load, on the part adding it; the verdict goes
 * to *state / note.
 */
static int load_test_series(struct pipeline *p, struct store_series *s,
			    const struct view *v, int *state, char *note, size_t notelen)
{
	struct boot_patch *bp;
	struct mime_mail *mails;
	struct boot_series_result *res;
	struct boot_opts o;
	char fp[32], msg[512];
	size_t i, j, n = 0;
	int ret = 0;

	bp = calloc(v->npatches + 1, sizeof(*bp));
	mails = calloc(v->npatches + 1, sizeof(*mails));
	res = calloc(1, sizeof(*res));
	if (!bp || !mails || !res) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < v->npatches; i++) {
		if (load_mail(p->st, v->patches[i].msg_id, &mails[n]))
			continue;
		bp[n].part = v->patches[i].part;
		bp[n].text = mails[n].body;
		bp[n].len = mails[n].body_len;
		n++;
	}
	boot_opts_from_config(&o, p->cfg);
	if (boot_check(&o, msg, sizeof(msg))) {
		/* never on the host: without QEMU the stage does not run */
		log_event(LOG_ERR, "load-test", "series", s->subject, "error", msg, NULL);
		*state = 1 + CHK_READY_NOT_CHECKED;
		snprintf(note, notelen, "%.150s", msg);
		goto out;
	}
	if (boot_series(&o, bp, n, res)) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < res->n && ret >= 0; i++) {
		const struct boot_result *r = &res->r[i];
		struct store_finding f;
		int64_t fid;

		if (r->verdict != BOOT_CONCERN)
			continue;
		memset(&f, 0, sizeof(f));
		for (j = 0; j < v->npatches; j++)
			if (v->patches[j].part == res->part[i])
				f.patch_id = v->patches[j].id;
		if (!f.patch_id && v->npatches)
			f.patch_id = v->patches[v->npatches - 1].id;
		boot_result_summary(r, msg, sizeof(msg));
		f.type = (char *)r->type;
		f.severity = "ERROR";
		f.category = "correctness";
		f.file = res->file[i];
		f.line = 0;
		f.message = msg;
		/* the type and the module, not the console: stable across versions */
		compose_fingerprint(f.type, f.file, r->module, fp, sizeof(fp));
		f.fingerprint = fp;
		ret = store_finding_add(p->st, &f, &fid);
	}
	*state = 1 + (res->verdict == BOOT_OK ? CHK_READY_OK :
		      res->verdict == BOOT_CONCERN ? CHK_READY_CONCERN :
		      CHK_READY_NOT_CHECKED);
	snprintf(note, notelen, "%s", res->note);
	{
		char t[64];

		snprintf(t, sizeof(t), "modules=%zu build=%.1fs boot=%.1fs",
			 res->n, res->build_s, res->boot_s);
		log_event(LOG_INFO, "load-test", "series", s->subject,
			  "result", res->note, "cost", t, NULL);
	}
	if (ret > 0)
		ret = 0;
out:
	for (i = 0; i < n; i++)
		mime_release(&mails[i]);
	free(res);
	free(mails);
	free(bp);
	return ret;
}

static int review_series(struct pipeline *p, struct store_series *s, int64_t now)
{
	const struct config *cfg = p->cfg;
	struct store *st = p->st;
	struct view cur, prev;
	struct mime_mail cover;
	const struct mime_mail *to_mail;
	struct store_msg to_row;
	const struct config_source *src = NULL;
	struct compose_review r;
	struct compose_stats cs;
	struct compose_addr cc[MIME_MAX_RCPTS + 1];
	struct store_reply reply;
	struct store_review rv;
	enum store_optout_mode om;
	struct sbuf mail, rcpt;
	char msgid[256], err[256], author[256], cnote[BUILD_NOTE_MAX];
	const char *suppress = NULL, *author_lc;
	int cstate = 0;
	int wstate = 0;
	char wnote[BOOT_NOTE_MAX];
	size_t ncc = 0, i;
	int have_cover = 0, have_prev = 0, ret, only_part = 0;
	int64_t reply_id = 0, review_id = 0;
	enum reply_policy policy = REPLY_POLICY_LIST;
	/* a dry run needs no address of its own */
	const char *bot_addr = cfg->address ? cfg->address : PIPE_DEFAULT_ADDRESS;

	memset(&to_row, 0, sizeof(to_row));
	memset(&cs, 0, sizeof(cs));
	sbuf_init(&mail, COMPOSE_MAX_MAIL);
	sbuf_init(&rcpt, PIPE_MAX_RCPT);
	ret = view_load(st, s->id, 0, &cur);
	if (ret != STORE_OK)
		goto out;
	if (s->cover_msg && !load_mail(st, s->cover_msg, &cover))
		have_cover = 1;
	ret = series_link_prev(st, s, have_cover ? cover.body : NULL);
	if (ret != STORE_OK)
		goto out;
	if (s->prev_id) {
		struct store_series ps;

		/* a replacement part is compared with the part it replaces */
		if (s->total == 1 && cur.npatches == 1 && cur.patches[0].part != 1)
			only_part = cur.patches[0].part;
		if (store_series_get(st, s->prev_id, &ps) == STORE_OK) {
			if (ps.total > 1 && s->total == 1 && cur.npatches == 1)
				only_part = cur.patches[0].part;
			store_series_release(&ps);
		}
		ret = view_load(st, s->prev_id, only_part, &prev);
		if (ret != STORE_OK) {
			view_release(&prev);
			goto out;
		}
		have_prev = 1;
	}
	to_mail = have_cover ? &cover : cur.have_first ? &cur.first : NULL;
	if (!to_mail) {
		ret = store_series_set_state(st, s->id, SERIES_SKIPPED, now);
		log_event(LOG_INFO, "series-skipped", "series", s->subject,
			  "reason", "no readable patch", NULL);
		goto out;
	}
	if (have_cover && command_wants_skip(cover.body, cover.body_len)) {
		ret = store_series_set_state(st, s->id, SERIES_SKIPPED, now);
		log_event(LOG_INFO, "series-skipped", "msgid", to_mail->message_id,
			  "reason", "Reviewbot: skip", NULL);
		goto out;
	}
	if (p->mode != PIPE_IMPORT && build_enabled(cfg)) {
		ret = compile_series(p, s, &cur, have_cover ? &cover : NULL, &cstate,
				     cnote, sizeof(cnote));
		if (ret < 0)
			goto out;
		/* again, with the compiler's findings (cur.first stays where
		 * to_mail points) */
		view_release(&cur);
		ret = view_load(st, s->id, 0, &cur);
		if (ret != STORE_OK)
			goto out;
	}
	if (p->mode != PIPE_IMPORT && boot_enabled(cfg)) {
		ret = load_test_series(p, s, &cur, &wstate, wnote, sizeof(wnote));
		if (ret < 0)
			goto out;
		/* again, with the load test's findings */
		view_release(&cur);
		ret = view_load(st, s->id, 0, &cur);
		if (ret != STORE_OK)
			goto out;
	}
	author_lc = lower_addr(s->author_addr, author, sizeof(author));
	store_msg_find(st, to_mail->message_id, &to_row);
	for (i = 0; to_row.source && i < cfg->nsources; i++)
		if (!strcmp(cfg->sources[i].name, to_row.source))
			src = &cfg->sources[i];
	if (src)
		policy = src->reply;

	memset(&r, 0, sizeof(r));
	r.bot.name = cfg->name;
	r.bot.addr = bot_addr;
	r.bot_version = REVIEWBOT_VERSION;
	r.to.name = s->author_name;
	r.to.addr = s->author_addr;
	add_rcpt(&rcpt, s->author_addr);
	if (s->list && policy != REPLY_POLICY_AUTHOR) {
		cc[ncc].name = NULL;
		cc[ncc++].addr = s->list;
	}
	if (policy == REPLY_POLICY_ALL)
		for (i = 0; i < to_mail->ncc && ncc < MIME_MAX_RCPTS; i++)
			if (strcasecmp(to_mail->cc[i].addr, s->list ? s->list : "") &&
			    strcasecmp(to_mail->cc[i].addr, cfg->address ? cfg->address : ""))
				cc[ncc++] = (struct compose_addr){ to_mail->cc[i].name,
								   to_mail->cc[i].addr };
	if (store_optout_get(st, author_lc, &om) == STORE_OK) {
		if (om == OPTOUT_SILENT)
			suppress = "the author opted out of reviews";
		else
			ncc = 0;	/* private: the author only */
	}
	if (!suppress && thread_muted(st, s, to_mail))
		suppress = "the thread is muted";
	if (policy == REPLY_POLICY_NONE)
		suppress = "the source's reply policy is none";
	for (i = 0; i < ncc; i++)
		add_rcpt(&rcpt, cc[i].addr);
	r.cc = cc;
	r.ncc = ncc;
	r.subject = to_mail->subject;
	r.in_reply_to = to_mail->message_id;
	r.references = (const char *const *)to_mail->refs;
	r.nreferences = to_mail->nrefs;
	r.version = s->version;
	r.version_minor = s->version_minor;
	r.total = s->total;
	r.patches = cur.npatches;
	r.findings = cur.cf;
	r.nfindings = cur.ncf;
	if (have_prev) {
		struct store_series ps;

		if (store_series_get(st, s->prev_id, &ps) == STORE_OK) {
			r.prev_version = ps.version ? ps.version : 1;
			store_series_release(&ps);
		}
		r.prev = prev.cf;
		r.nprev = prev.ncf;
	}
	if (cstate) {
		r.compiles_state = cstate;
		r.compiles_note = cnote;
	}
	if (wstate) {
		r.works_state = wstate;
		r.works_note = wnote;
	}
	r.date = now;
	compose_message_id(to_mail->message_id, s->version, s->version_minor,
			   bot_addr, msgid, sizeof(msgid));
	r.message_id = msgid;
	if (compose_review_mail(p->tpl, &r, &mail, &cs, err, sizeof(err))) {
		log_event(LOG_ERR, "compose-failed", "msgid", to_mail->message_id,
			  "error", err, NULL);
		ret = STORE_ERR;
		goto out;
	}

	if (p->mode == PIPE_IMPORT || (cs.clean && !cfg->review_clean)) {
		reply_id = 0;
	} else {
		memset(&reply, 0, sizeof(reply));
		reply.message_id = msgid;
		reply.series_id = s->id;
		reply.kind = "review";
		reply.mail_from = (char *)bot_addr;
		reply.rcpt = rcpt.buf;
		reply.body = mail.buf;
		reply.to_addr = (char *)author_lc;
		/* the list counts for its cap only when the review goes there */
		for (i = 0; s->list && i < ncc; i++)
			if (cc[i].addr == s->list)
				reply.list = s->list;
		reply.created = now;
		reply.next_attempt = now;
		ret = store_reply_add(st, &reply, &reply_id);
		if (ret < 0)
			goto out;
		if (ret == STORE_OK && suppress) {
			ret = store_reply_mark_suppressed(st, reply_id, suppress);
			if (ret < 0)
				goto out;
			p->stats.suppressed++;
		}
	}
	memset(&rv, 0, sizeof(rv));
	rv.series_id = s->id;
	rv.reply_id = reply_id;
	rv.created = now;
	rv.findings = cs.shown;
	rv.nits = cs.nits;
	rv.fixed = cs.fixed;
	rv.added = cs.added;
	rv.still = cs.still;
	ret = store_review_add(st, &rv, &review_id);
	if (ret < 0)
		goto out;
	ret = store_series_set_state(st, s->id, SERIES_REVIEWED, now);
	if (ret < 0)
		goto out;
	p->stats.reviews++;
	if (cs.clean)
		p->stats.clean++;
	if (p->mode != PIPE_IMPORT) {
		char nf[32], nn[32];

		snprintf(nf, sizeof(nf), "%ld", cs.shown);
		snprintf(nn, sizeof(nn), "%ld", cs.nits);
		log_event(LOG_INFO, "review", "msgid", to_mail->message_id,
			  "reply", msgid, "findings", nf, "nits", nn,
			  "suppressed", suppress, NULL);
	}
out:
	if (have_prev)
		view_release(&prev);
	view_release(&cur);
	if (have_cover)
		mime_release(&cover);
	store_msg_release(&to_row);
	sbuf_release(&mail);
	sbuf_release(&rcpt);
	return ret;
}

static int review_one(void *arg, int64_t id)
{
	struct review_ctx *rc = arg;
	struct pipeline *p = rc->p;
	struct store_series s;
	int ret;

	if (p->stop && *p->stop)
		return 1;
	ret = store_series_get(p->st, id, &s);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 0;
	if (!rc->force && !series_complete(p->st, &s) &&
	    rc->now - s.last_part_at < p->cfg->series_wait) {
		store_series_release(&s);
		return 0;
	}
	ret = store_begin(p->st);
	if (ret) {
		store_series_release(&s);
		return ret;
	}
	ret = review_series(p, &s, rc->now);
	if (ret >= 0)
		ret = store_commit(p->st);
	if (ret < 0) {
		char sid[24], why[256];

		/* the reason, before the rollback clears it */
		snprintf(why, sizeof(why), "%s", store_errmsg(p->st));
		store_rollback(p->st);
		/* a busy or full database: the walk ends and waits; a series
		 * that fails on its own must not hold up the others */
		if (ret != STORE_ERR_BUSY && ret != STORE_ERR_FULL &&
		    ret != STORE_ERR_NOMEM) {
			snprintf(sid, sizeof(sid), "%lld", (long long)id);
			log_event(LOG_WARN, "review-failed", "series", sid,
				  "subject", s.subject, "error", why, NULL);
			rc->failed++;
			ret = 0;
		}
	}
	store_series_release(&s);
	return ret;
}

int pipeline_review(struct pipeline *p, int64_t now, int force)
{
	struct review_ctx rc = { p, now, force, 0 };
	int ret;

	ret = store_series_each_open(p->st, review_one, &rc);
	if (ret > 0)
		ret = 0;	/* stopped by a signal */
	return ret < 0 ? ret : rc.failed ? STORE_ERR : 0;
}

/* ---- delivery ------------------------------------------------------------ */

/*
 * 1 when sending r now would pass author_replies_per_hour (replies sent
 * to its to_addr in the last hour) or list_replies_per_hour (sent to its
 * list): it waits for a later cycle.  Negative on a store error.
 */
static int over_cap(struct pipeline *p, const struct store_reply *r, int64_t now)
{
	const struct config *cfg = p->cfg;
	long long n = 0;
	int ret;

	if (cfg->author_replies_per_hour > 0 && r->to_addr) {
		ret = store_reply_count_sent(p->st, now - 3600, r->to_addr, NULL, &n);
		if (ret < 0)
			return ret;
		if (n >= cfg->author_replies_per_hour) {
			log_event(LOG_DEBUG, "rate-limited", "reply", r->message_id,
				  "cap", "author_replies_per_hour", NULL);
			return 1;
		}
	}
	if (cfg->list_replies_per_hour > 0 && r->list) {
		ret = store_reply_count_sent(p->st, now - 3600, NULL, r->list, &n);
		if (ret < 0)
			return ret;
		if (n >= cfg->list_replies_per_hour) {
			log_event(LOG_DEBUG, "rate-limited", "reply", r->message_id,
				  "cap", "list_replies_per_hour", NULL);
			return 1;
		}
	}
	return 0;
}

static int deliver_one(void *arg, int64_t id)
{
	struct review_ctx *rc = arg;
	struct pipeline *p = rc->p;
	struct store_reply r;
	long long sent = 0;
	char err[512], attempts[16];
	int ret, dr;
	int64_t wait;

	if (p->stop && *p->stop)
		return 1;	/* SIGTERM: the rest waits for the next start */
	if (p->cfg->max_replies_per_hour > 0) {
		ret = store_reply_count_since(p->st, rc->now - 3600, &sent);
		if (ret < 0)
			return ret;
		if (sent >= p->cfg->max_replies_per_hour)
			return 1;	/* over the cap: the rest waits */
	}
	ret = store_reply_get(p->st, id, &r);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 0;
	ret = over_cap(p, &r, rc->now);
	if (ret) {
		store_reply_release(&r);
		return ret < 0 ? ret : 0;	/* stays pending, no attempt counted */
	}
	dr = deliver_reply(p->cfg, &r, err, sizeof(err));
	snprintf(attempts, sizeof(attempts), "%d", r.attempts + 1);
	if (dr == DELIVER_OK) {
		ret = store_reply_mark_sent(p->st, id, rc->now);
		p->stats.sent++;
		log_event(LOG_INFO, "sent", "reply", r.message_id, "rcpt", r.rcpt, NULL);
	} else if ((dr == DELIVER_TEMPFAIL || dr == DELIVER_UNREACHABLE) &&
		   r.attempts + 1 < PIPE_MAX_ATTEMPTS) {
		wait = PIPE_RETRY_MIN << (r.attempts < 6 ? r.attempts : 6);
		if (wait > PIPE_RETRY_MAX)
			wait = PIPE_RETRY_MAX;
		ret = store_reply_defer(p->st, id, err, rc->now + wait);
		p->stats.deferred++;
		log_event(LOG_WARN, "deferred", "reply", r.message_id, "error", err,
			  "attempts", attempts, NULL);
		/* a server that is down or silent for one is so for the next:
		 * the others wait for the next cycle rather than a timeout each */
		if (ret >= 0 && dr == DELIVER_UNREACHABLE)
			ret = 1;
	} else {
		ret = store_reply_mark_failed(p->st, id, err);
		p->stats.failed++;
		log_event(LOG_ERR, "failed", "reply", r.message_id, "error", err,
			  "attempts", attempts, NULL);
	}
	store_reply_release(&r);
	return ret;
}

int pipeline_deliver(struct pipeline *p, int64_t now)
{
	struct review_ctx rc = { p, now, 0, 0 };
	int ret;

	ret = store_reply_each_due(p->st, now, deliver_one, &rc);
	return ret > 0 ? 0 : ret;
}

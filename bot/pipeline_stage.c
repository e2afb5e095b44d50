// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pipeline's compile and load stages ([build], build.h; [boot],
 * boot.h) and their queue in the store: a series to review queues the
 * stages the configuration enables; the daemon runs the oldest queued
 * stage, one at a time, between its cycles; the result (verdict, note,
 * findings) is kept with the series version, so a restart or a second
 * review runs nothing again.  A review waits for its stages at most
 * [policy] stage_wait seconds; past that it goes with "pending" on
 * their lines and a follow-up mail, threaded under the review, carries
 * the results when they are in.  See pipeline_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pipeline.h"
#include "pipeline_int.h"
#include "stage/boot.h"
#include "stage/build.h"
#include "mail/compose.h"
#include "stage/sandbox.h"
#include "log.h"
#include "claim.h"
#include "../checker/diff.h"
#include "../checker/readiness.h"
#include "../checker/rules.h"
#include "../checker/banned.h"

#define PIPE_STAGE_MAX_ATTEMPTS	3	/* attempts cut short (a crash, a kill) */

static double stage_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Ends the stage's transaction: commit when ret is not an error. */
static int stage_commit(struct store *st, int ret)
{
	if (ret >= 0)
		ret = store_commit(st);
	if (ret < 0)
		store_rollback(st);
	return ret < 0 ? ret : 0;
}

/*
 * A stop (SIGTERM) cut the stage short: its result is dropped and the
 * stage stays queued, to run again at the next start.
 */
static int stage_stopped(struct pipeline *p, const struct store_series *s,
			 const struct store_stage *sg)
{
	if (!pipeline_stopping(p))
		return 0;
	/* given back, the attempt not counted: a stop is no crash */
	store_stage_unclaim(p->st, sg->id, p->claim);
	log_event(LOG_INFO, "stage-interrupted", "series", s->subject,
		  "result", "queued again for the next start", NULL);
	return 1;
}

/* The stages the configuration enables, as a bit mask of 1 << kind. */
static unsigned stages_wanted(const struct pipeline *p)
{
	unsigned m = 0;

	if (p->mode == PIPE_IMPORT)
		return 0;	/* history: nothing is built or booted */
	if (build_enabled(p->cfg))
		m |= 1u << STAGE_COMPILE;
	if (boot_enabled(p->cfg))
		m |= 1u << STAGE_LOAD;
	return m;
}

/* ---- the compile stage ([build], build.h) -------------------------------- */

static int stage_slot;

void pipeline_set_stage_slot(struct pipeline *p, int slot)
{
	(void)p;
	stage_slot = slot >= 0 ? slot : 0;
}

/* The category of a compile stage's type (checker/rv/rules_build.def). */
static const char *type_category(const char *type)
{
	int r = type ? rule_find(type, strlen(type)) : -1;

	return r >= 0 ? rule_cat_name(rule_table[r].cat) : "correctness";
}

/* Ends a stage taken by this process: its result, unless the stage is no
 * longer ours (another runner took it after our claim lapsed). */
static int stage_done(struct pipeline *p, const struct store_stage *sg, int verdict,
		      const char *note, const char *details, double secs, int64_t now)
{
	int ret = store_stage_finish_claimed(p->st, sg->id, p->claim, verdict, note, details,
					     secs, now);

	if (ret == STORE_DONE)
		log_event(LOG_WARN, "stage-lost", "stage", store_stage_kind_name(sg->kind),
			  "reason", "another runner holds it now; its result is kept", NULL);
	return ret == STORE_DONE ? STORE_OK : ret;
}

/* What the base choice reads: the list, To and Cc, tags, base-commit. */
static void fill_info(struct build_info *info, const struct store_series *s,
		      const struct mime_mail *mails, size_t n, const struct mime_mail *cover,
		      char *base, size_t baselen)
{
	size_t i, k;

	memset(info, 0, sizeof(*info));
	info->list = s->list;
	info->prefix = s->prefix;
	for (k = 0; k < n + 1; k++) {
		const struct mime_mail *m = k < n ? &mails[k] : cover;

		if (!m)
			continue;
		for (i = 0; i < m->nto && info->nrcpt < BUILD_MAX_RCPTS; i++)
			info->rcpt[info->nrcpt++] = m->to[i].addr;
		for (i = 0; i < m->ncc && info->nrcpt < BUILD_MAX_RCPTS; i++)
			info->rcpt[info->nrcpt++] = m->cc[i].addr;
		if (!info->base_commit && m->body &&
		    build_base_commit(m->body, m->body_len, base, baselen))
			info->base_commit = base;
		if (m->body)
			info->prerequisites += build_prerequisites(m->body, m->body_len);
	}
}

/*
 * Compile-tests the series (bounded by [build] timeout), then, in one
 * transaction, stores its new diagnostics as findings of the part that
 * touched the file, and the stage's verdict, note and details.
 */
static int compile_series(struct pipeline *p, const struct store_series *s,
			  const struct view *v, const struct mime_mail *cover,
			  const struct store_stage *sg, double t0, int64_t now)
{
	struct build_patch *bp;
	struct mime_mail *mails;
	void **raws;
	struct build_result res = { 0 };
	struct build_info info;
	char base[80], fp[32];
	size_t i, n = 0;
	int ret = 0;

	bp = calloc(v->npatches + 1, sizeof(*bp));
	mails = calloc(v->npatches + 1, sizeof(*mails));
	raws = calloc(v->npatches + 1, sizeof(*raws));
	if (!bp || !mails || !raws) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < v->npatches && i < BUILD_MAX_PATCHES; i++) {
		size_t rl = 0;

		if (store_msg_raw(p->st, v->patches[i].msg_id, &raws[n], &rl) != STORE_OK)
			continue;
		if (pipeline_parse(raws[n], rl, &mails[n]) != MIME_OK) {
			free(raws[n]);
			raws[n] = NULL;
			continue;
		}
		bp[n].part = v->patches[i].part;
		bp[n].text = mails[n].body;
		bp[n].len = mails[n].body_len;
		bp[n].raw = raws[n];
		bp[n].raw_len = rl;
		n++;
	}
	fill_info(&info, s, mails, n, cover, base, sizeof(base));
	if (sandbox_config_check(p->cfg, res.note, sizeof(res.note))) {
		/* no sandbox, or one that would show the bot's secrets:
		 * nothing of the series is run; the review says which, the
		 * log where (the bot's folders are not the list's business) */
		log_event(LOG_ERR, "compile-test", "series", s->subject, "error", res.note, NULL);
		if (strncmp(res.note, "bubblewrap", 10))
			snprintf(res.note, sizeof(res.note), "not run: the configuration would show "
				 "the bot's own files to the build (see the log)");
		ret = stage_done(p, sg, 1 + CHK_READY_NOT_CHECKED, res.note, NULL,
				 stage_now() - t0, now);
		goto out;
	}
	if (build_series(p->cfg, stage_slot, bp, n, &info, &res)) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	if (stage_stopped(p, s, sg)) {
		build_result_release(&res);
		goto out;
	}
	ret = store_begin(p->st);
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
		f.type = (char *)is->type;
		f.severity = is->error ? "ERROR" : "WARNING";
		f.category = (char *)type_category(is->type);
		f.file = is->file;
		f.line = is->line;
		f.message = is->message;
		f.line_text = is->line_text;
		/* the tool's words, not the line number: stable across versions */
		compose_fingerprint(f.type, f.file, f.message, fp, sizeof(fp));
		f.fingerprint = fp;
		ret = store_finding_add(p->st, &f, &fid);
	}
	if (ret >= 0)
		ret = stage_done(p, sg,
				 1 + (res.verdict == BUILD_OK ? CHK_READY_OK :
				      res.verdict == BUILD_CONCERN ? CHK_READY_CONCERN :
				      CHK_READY_NOT_CHECKED),
				 res.note, res.details, stage_now() - t0, now);
	ret = stage_commit(p->st, ret);
	{
		char t[400];

		snprintf(t, sizeof(t), "wait=%.1fs sync=%.1fs prepare=%.1fs apply=%.1fs "
			 "gcc=%.1fs+%.1fs sparse=%.1fs+%.1fs analyzer=%.1fs+%.1fs "
			 "coccinelle=%.1fs+%.1fs total=%.1fs objects=%zu cached=%u "
			 "sandboxes=%u peak=%lluMiB disk=%lluMiB",
			 res.wait_s, res.sync_s, res.prepare_s, res.apply_s,
			 res.after_s[0], res.base_s[0], res.after_s[1], res.base_s[1],
			 res.after_s[2], res.base_s[2], res.after_s[3], res.base_s[3],
			 res.total_s, res.objects, res.base_cached, res.sandboxes,
			 res.peak_memory >> 20, res.disk >> 20);
		log_event(LOG_INFO, "compile-test", "series", s->subject,
			  "result", res.note, "cost", t, NULL);
	}
	build_result_release(&res);
out:
	for (i = 0; i < n; i++) {
		mime_release(&mails[i]);
		free(raws[i]);
	}
	free(raws);
	free(mails);
	free(bp);
	return ret;
}

/* ---- the QEMU load stage ([boot], boot.h) -------------------------------- */

/*
 * Load-tests the modules the series adds (bounded by [boot] timeout per
 * module), then, in one transaction, stores a finding for each that
 * oopses, warns, hangs or fails to load, on the part adding it, and the
 * stage's verdict.
 */
static int load_test_series(struct pipeline *p, const struct store_series *s,
			    const struct view *v, const struct store_stage *sg,
			    double t0, int64_t now)
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
		if (pipe_load_mail(p->st, v->patches[i].msg_id, &mails[n]))
			continue;
		bp[n].part = v->patches[i].part;
		bp[n].text = mails[n].body;
		bp[n].len = mails[n].body_len;
		n++;
	}
	boot_opts_from_config(&o, p->cfg);
	if (boot_check(&o, msg, sizeof(msg)) || sandbox_config_check(p->cfg, msg, sizeof(msg))) {
		/* never on the host: without QEMU the stage does not run */
		log_event(LOG_ERR, "load-test", "series", s->subject, "error", msg, NULL);
		ret = stage_done(p, sg, 1 + CHK_READY_NOT_CHECKED, msg, NULL, stage_now() - t0,
				 now);
		goto out;
	}
	if (boot_series(&o, bp, n, res)) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	if (stage_stopped(p, s, sg))
		goto out;
	ret = store_begin(p->st);
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
	if (ret >= 0)
		ret = stage_done(p, sg,
				 1 + (res->verdict == BOOT_OK ? CHK_READY_OK :
				      res->verdict == BOOT_CONCERN ? CHK_READY_CONCERN :
				      CHK_READY_NOT_CHECKED),
				 res->note, NULL, stage_now() - t0, now);
	ret = stage_commit(p->st, ret);
	{
		char t[64];

		snprintf(t, sizeof(t), "modules=%zu build=%.1fs boot=%.1fs",
			 res->n, res->build_s, res->boot_s);
		log_event(LOG_INFO, "load-test", "series", s->subject,
			  "result", res->note, "cost", t, NULL);
	}
out:
	for (i = 0; i < n; i++)
		mime_release(&mails[i]);
	free(res);
	free(mails);
	free(bp);
	return ret;
}

/* ---- the queue ------------------------------------------------------------ */

/*
 * Whether series s changes a C file (.c or .h): one that does not has
 * nothing to compile, and its compile stage is done at once rather than
 * queued behind other series' builds.  On a store or parse error: 1
 * (the stage runs and says what it finds).
 */
static int series_changes_c(struct pipeline *p, const struct store_series *s)
{
	struct store_patch *pt = NULL;
	size_t np = 0, i, j;
	int any = 0;

	if (store_patch_list(p->st, s->id, &pt, &np) != STORE_OK)
		return 1;
	for (i = 0; i < np && !any; i++) {
		struct mime_mail m;
		struct diff d;

		if (pipe_load_mail(p->st, pt[i].msg_id, &m)) {
			any = 1;
			break;
		}
		memset(&d, 0, sizeof(d));
		diff_parse(m.body, m.body_len, NULL, &d);
		for (j = 0; j < d.nfiles && !any; j++) {
			const char *path = diff_file_path(&d.files[j]);
			size_t l = path ? strlen(path) : 0;

			any = l > 2 && (!strcmp(path + l - 2, ".c") || !strcmp(path + l - 2, ".h"));
		}
		diff_release(&d);
		mime_release(&m);
	}
	for (i = 0; i < np; i++)
		store_patch_release(&pt[i]);
	free(pt);
	return any;
}

int pipe_stages_wait(struct pipeline *p, const struct store_series *s, int64_t now)
{
	unsigned want = stages_wanted(p);
	int k, ret, wait = 0;

	for (k = STAGE_COMPILE; k <= STAGE_LOAD; k++) {
		struct store_stage sg;

		if (!(want & (1u << k)))
			continue;
		ret = store_stage_get(p->st, s->id, (enum store_stage_kind)k, &sg);
		if (ret == STORE_DONE) {
			/* a write only the first time a series is seen */
			ret = store_stage_enqueue(p->st, s->id, (enum store_stage_kind)k, now);
			if (ret < 0)
				return ret;
			if (ret == STORE_OK)
				log_event(LOG_INFO, "stage-queued", "series", s->subject, "stage",
					  store_stage_kind_name((enum store_stage_kind)k), NULL);
			ret = store_stage_get(p->st, s->id, (enum store_stage_kind)k, &sg);
			if (ret == STORE_OK && k == STAGE_COMPILE && !sg.done &&
			    !series_changes_c(p, s) &&
			    store_stage_claim(p->st, sg.id, p->claim, NULL, now) == STORE_OK) {
				ret = stage_done(p, &sg, 1 + CHK_READY_NOT_CHECKED,
						 "the series changes no C file", NULL, 0, now);
				store_stage_release(&sg);
				if (ret < 0)
					return ret;
				ret = store_stage_get(p->st, s->id, (enum store_stage_kind)k, &sg);
			}
		}
		if (ret < 0)
			return ret;
		if (ret == STORE_OK && !sg.done && now - sg.queued < p->cfg->stage_wait)
			wait = 1;
		if (ret == STORE_OK)
			store_stage_release(&sg);
	}
	return wait;
}

int pipe_stages_gather(struct pipeline *p, const struct store_series *s,
		       struct pipe_stages *out)
{
	unsigned want = stages_wanted(p);
	int k, ret;

	memset(out, 0, sizeof(*out));
	for (k = STAGE_COMPILE; k <= STAGE_LOAD; k++) {
		struct store_stage sg;

		if (!(want & (1u << k)))
			continue;
		ret = store_stage_get(p->st, s->id, (enum store_stage_kind)k, &sg);
		if (ret < 0)
			return ret;
		if (ret != STORE_OK)
			continue;
		if (sg.done) {
			out->state[k] = sg.verdict;
			snprintf(out->note[k], sizeof(out->note[k]), "%s", sg.note ? sg.note : "");
			if (k == STAGE_COMPILE && sg.details)
				snprintf(out->details, sizeof(out->details), "%s", sg.details);
		} else {
			/* the review goes without it: a follow-up is owed */
			out->pending[k] = 1;
			if (!sg.followup)
				ret = store_stage_set_followup(p->st, sg.id, 1);
		}
		store_stage_release(&sg);
		if (ret < 0)
			return ret;
	}
	return STORE_OK;
}

void pipe_stages_to_compose(const struct pipe_stages *sg, struct compose_review *r)
{
	if (sg->state[STAGE_COMPILE]) {
		r->compiles_state = sg->state[STAGE_COMPILE];
		r->compiles_note = sg->note[STAGE_COMPILE];
		r->compiles_details = sg->details[0] ? sg->details : NULL;
	}
	if (sg->state[STAGE_LOAD]) {
		r->works_state = sg->state[STAGE_LOAD];
		r->works_note = sg->note[STAGE_LOAD];
	}
	r->compiles_pending = sg->pending[STAGE_COMPILE];
	r->works_pending = sg->pending[STAGE_LOAD];
}

/* Whether another runner's claim on a stage still holds (bot/claim.h). */
static int claim_live(void *arg, const char *claim, int64_t claimed_at)
{
	return claim_holds(claim, claimed_at, *(const int64_t *)arg);
}

int pipeline_run_stage(struct pipeline *p, int64_t now)
{
	struct store_stage sg;
	struct store_series s;
	struct mime_mail cover;
	struct view v;
	char sid[24];
	int ret, have_cover = 0;
	double t0 = stage_now();
	unsigned want = stages_wanted(p);

	if (!want)
		return 0;
	/* the oldest stage no live runner holds: queued, or held by a
	 * runner that died (a killed worker: taken again, nothing lost) */
	ret = store_stage_next_free(p->st, 1u << STAGE_COMPILE | 1u << STAGE_LOAD, claim_live,
				    &now, &sg);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 0;
	snprintf(sid, sizeof(sid), "%lld", (long long)sg.series_id);
	ret = store_stage_claim(p->st, sg.id, p->claim, sg.claim, now);
	if (ret != STORE_OK) {
		/* another runner was faster: the next one */
		store_stage_release(&sg);
		return ret < 0 ? ret : 1;
	}
	if (sg.claim)
		log_event(LOG_WARN, "stage-taken-over", "series", sid, "stage",
			  store_stage_kind_name(sg.kind), "from", sg.claim, NULL);
	if (sg.attempts >= PIPE_STAGE_MAX_ATTEMPTS) {
		/* it was cut short every time: never again */
		log_event(LOG_WARN, "stage-abandoned", "series", sid,
			  "stage", store_stage_kind_name(sg.kind), NULL);
		ret = stage_done(p, &sg, 1 + CHK_READY_NOT_CHECKED,
				 "the test was cut short three times", NULL, 0, now);
		store_stage_release(&sg);
		return ret < 0 ? ret : 1;
	}
	if (!(want & (1u << sg.kind))) {
		/* queued under an earlier configuration */
		ret = stage_done(p, &sg, 1 + CHK_READY_NOT_CHECKED, "not configured any more",
				 NULL, 0, now);
		store_stage_release(&sg);
		return ret < 0 ? ret : 1;
	}
	ret = store_series_get(p->st, sg.series_id, &s);
	if (ret != STORE_OK) {
		ret = ret < 0 ? ret : stage_done(p, &sg, 1 + CHK_READY_NOT_CHECKED,
						 "the series is gone", NULL, 0, now);
		goto out_stage;
	}
	/* the parts only: each stage reads and parses their mails itself */
	memset(&v, 0, sizeof(v));
	ret = store_patch_list(p->st, s.id, &v.patches, &v.npatches);
	if (ret == STORE_OK) {
		if (s.cover_msg && !pipe_load_mail(p->st, s.cover_msg, &cover))
			have_cover = 1;
		log_event(LOG_INFO, "stage-start", "series", s.subject,
			  "stage", store_stage_kind_name(sg.kind), NULL);
		if (sg.kind == STAGE_COMPILE)
			ret = compile_series(p, &s, &v, have_cover ? &cover : NULL, &sg, t0, now);
		else
			ret = load_test_series(p, &s, &v, &sg, t0, now);
		if (have_cover)
			mime_release(&cover);
	}
	pipe_view_release(&v);
	store_series_release(&s);
out_stage:
	if (ret < 0) {
		log_event(LOG_ERR, "stage-failed", "series", sid, "stage",
			  store_stage_kind_name(sg.kind), "error", store_errmsg(p->st), NULL);
		/* a store error: the stage goes back for the next try */
		store_stage_unclaim(p->st, sg.id, p->claim);
	}
	store_stage_release(&sg);
	return ret < 0 ? ret : 1;
}

/* ---- follow-ups ------------------------------------------------------------ */

struct followup_ctx {
	struct pipeline *p;
	int64_t now;
};

/* Findings the stages made: the compiler's and the load test's. */
static int stage_finding(const struct compose_finding *f)
{
	return f->type && (!strncmp(f->type, "COMPILE_", 8) || !strncmp(f->type, "MODULE_", 7));
}

/*
 * The follow-up of series s: its stages' results, in reply to its review
 * (or, when no review mail was made, to the mail a review would have
 * answered, and then only when a stage found something).
 */
static int followup_series(struct pipeline *p, const struct store_series *s,
			   const struct pipe_stages *sg, int64_t now)
{
	const char *bot_addr = pipe_bot_address(p);
	struct store_review rv;
	struct store_reply review;
	struct mime_mail cover;
	const struct mime_mail *to_mail;
	struct compose_review r;
	struct pipe_rcpt rc;
	struct view v;
	struct sbuf mail;
	struct compose_cover *covered = NULL;
	struct compose_stats cs;
	const char **refs = NULL;
	char msgid[256], err[256];
	int have_cover = 0, have_review = 0, have_rc = 0, concern = 0, ret;
	size_t i, k = 0;
	int64_t reply_id;

	memset(&review, 0, sizeof(review));
	sbuf_init(&mail, COMPOSE_MAX_MAIL);
	ret = pipe_view_load(p->st, s->id, 0, &v);
	if (ret != STORE_OK)
		goto out;
	if (s->cover_msg && !pipe_load_mail(p->st, s->cover_msg, &cover))
		have_cover = 1;
	to_mail = have_cover ? &cover : v.have_first ? &v.first : NULL;
	if (!to_mail)
		goto out;	/* nothing to reply to (logged at the review) */
	if (store_review_get_by_series(p->st, s->id, &rv) == STORE_OK && rv.reply_id &&
	    store_reply_get(p->st, rv.reply_id, &review) == STORE_OK) {
		/* a review kept back for having nothing to say was never
		 * mailed: this is the first mail then, and only when a stage
		 * found something */
		if (review.state == REPLY_SUPPRESSED && review.reason &&
		    !strcmp(review.reason, PIPE_REASON_QUIET))
			store_reply_release(&review);
		else
			have_review = 1;
	}
	/* only the stages' findings */
	for (i = 0; i < v.ncf; i++)
		if (stage_finding(&v.cf[i]))
			v.cf[k++] = v.cf[i];
	v.ncf = k;
	concern = sg->state[STAGE_COMPILE] == 1 + CHK_READY_CONCERN ||
		  sg->state[STAGE_LOAD] == 1 + CHK_READY_CONCERN;
	if (!have_review && !concern) {
		log_event(LOG_INFO, "followup-skipped", "series", s->subject,
			  "reason", "no review mail and nothing found", NULL);
		goto out;
	}
	ret = pipe_recipients(p, s, to_mail, now, &rc);
	have_rc = 1;
	if (ret < 0)
		goto out;
	refs = calloc(to_mail->nrefs + 2, sizeof(*refs));
	if (!refs) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < to_mail->nrefs; i++)
		refs[i] = to_mail->refs[i];
	pipe_review_init(&r, p, s, &v, to_mail, &rc);
	if (have_review) {
		refs[i++] = to_mail->message_id;
		r.in_reply_to = review.message_id;
	} else {
		r.in_reply_to = to_mail->message_id;
	}
	r.references = refs;
	r.nreferences = i;
	pipe_stages_to_compose(sg, &r);
	covered = calloc(v.ncf + 1, sizeof(*covered));
	if (!covered) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	r.cover = covered;
	r.followup = 1;
	r.date = now;
	/* from what it answers, so a resend is recognisable; never the
	 * review's own (version -1 is no series version) */
	compose_message_id(&p->idkey, r.in_reply_to, -1, 0, bot_addr, msgid, sizeof(msgid));
	r.message_id = msgid;
	if (compose_review_mail(p->tpl, &r, &mail, &cs, err, sizeof(err))) {
		log_event(LOG_ERR, "compose-failed", "msgid", to_mail->message_id,
			  "error", err, NULL);
		ret = STORE_ERR;
		goto out;
	}
	/* the review was not sent for a reason that holds for this too */
	if (!rc.suppress && have_review && review.state == REPLY_SUPPRESSED)
		rc.suppress = "the review was suppressed";
	ret = pipe_reply_add(p, s, "followup", msgid, bot_addr, &rc, mail.buf, now,
			     &reply_id);
	if (ret == STORE_OK)
		ret = pipe_cover_add(p, reply_id, covered, cs.ncover);
	if (ret < 0)
		goto out;
	log_event(LOG_INFO, "followup", "msgid", to_mail->message_id, "reply", msgid,
		  "suppressed", rc.suppress, NULL);
	ret = STORE_OK;
out:
	free(refs);
	free(covered);
	if (have_rc)
		pipe_rcpt_release(&rc);
	if (have_review)
		store_reply_release(&review);
	if (have_cover)
		mime_release(&cover);
	pipe_view_release(&v);
	sbuf_release(&mail);
	return ret;
}

static int followup_one(void *arg, int64_t id)
{
	struct followup_ctx *fc = arg;
	struct pipeline *p = fc->p;
	struct store_stage sg, other[2];
	struct store_series s;
	struct pipe_stages st;
	int k, ret, have[2] = { 0, 0 }, ready = 1;

	if (pipeline_stopping(p))
		return 1;
	ret = store_stage_get_id(p->st, id, &sg);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 0;
	if (sg.followup != 1) {		/* made meanwhile, with the other stage */
		store_stage_release(&sg);
		return 0;
	}
	memset(&st, 0, sizeof(st));
	for (k = STAGE_COMPILE; k <= STAGE_LOAD && ret >= 0; k++) {
		ret = store_stage_get(p->st, sg.series_id, (enum store_stage_kind)k, &other[k]);
		if (ret != STORE_OK)
			continue;
		have[k] = 1;
		if (other[k].followup == 1 && !other[k].done)
			ready = 0;	/* one mail for both: wait for the other */
		if (other[k].done) {
			st.state[k] = other[k].verdict;
			snprintf(st.note[k], sizeof(st.note[k]), "%s",
				 other[k].note ? other[k].note : "");
			if (k == STAGE_COMPILE && other[k].details)
				snprintf(st.details, sizeof(st.details), "%s", other[k].details);
		}
	}
	if (ret < 0 || !ready)
		goto out;
	ret = store_series_get(p->st, sg.series_id, &s);
	if (ret != STORE_OK)
		goto out;
	ret = store_begin(p->st);
	if (ret >= 0)
		ret = followup_series(p, &s, &st, fc->now);
	for (k = STAGE_COMPILE; k <= STAGE_LOAD && ret >= 0; k++)
		if (have[k] && other[k].followup == 1)
			ret = store_stage_set_followup(p->st, other[k].id, 2);
	ret = stage_commit(p->st, ret);
	store_series_release(&s);
out:
	for (k = STAGE_COMPILE; k <= STAGE_LOAD; k++)
		if (have[k])
			store_stage_release(&other[k]);
	store_stage_release(&sg);
	return ret < 0 ? ret : 0;
}

int pipe_followups(struct pipeline *p, int64_t now)
{
	struct followup_ctx fc = { p, now };
	int ret;

	if (!stages_wanted(p))
		return 0;
	ret = store_stage_each_followup(p->st, followup_one, &fc);
	return ret > 0 ? 0 : ret;
}

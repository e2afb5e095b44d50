// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipeline: the review step, one review per series version (its findings
 * compared with the previous version), and delivery.  See pipeline.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "pipeline.h"
#include "pipeline_int.h"
#include "stage/boot.h"
#include "stage/build.h"
#include "backport.h"
#include "claim.h"
#include "command.h"
#include "mail/compose.h"
#include "mail/deliver.h"
#include "feedback.h"
#include "log.h"
#include "series.h"
#include "web/publish.h"
#include "../checker/diff.h"
#include "../checker/readiness.h"
#include "../checker/banned.h"

#define PIPE_RETRY_MIN		60	/* seconds: first retry of a delivery */
#define PIPE_RETRY_MAX		3600
#define PIPE_MAX_ATTEMPTS	20	/* then failed for good */

/*
 * cur and prev (may be NULL) cut to what may be published
 * (pipe_view_publishable, under bot/web/publish.c's lists and sources):
 * the number of prev's parts that may be, or a negative store error.
 */
static int pipe_publishable(struct pipeline *p, struct view *cur, struct view *prev)
{
	char *publish = publish_json(p->cfg);
	int ret;

	if (!publish)
		return STORE_ERR_NOMEM;
	ret = pipe_view_publishable(p->st, publish, cur);
	if (ret >= 0 && prev)
		ret = pipe_view_publishable(p->st, publish, prev);
	else if (ret >= 0)
		ret = 0;
	free(publish);
	return ret;
}

/* ---- one review -------------------------------------------------------- */

struct review_ctx {
	struct pipeline *p;
	int64_t now;
	int force;
	int failed;		/* series whose review failed (logged) */
	int batch;		/* one transaction, a savepoint a series */
	int spent[3];		/* delivery: the reviews' and the answers' hourly
				 * budget is spent (the rest of that kind waits) */
	int64_t spent_oldest[3];	/* the first reply that budget counts */
};

/*
 * The review's Message-ID is made from the Message-ID it answers, so a
 * resend is recognisable.  When another series' mail holds it already,
 * that series answered another copy of this Message-ID (one mailed to
 * the bot directly, which the list's copy replaced after its review was
 * sent, store_msg_replace): this review is another mail, named from the
 * Message-ID and this series.  0 or a store error.
 */
static int review_msgid_free(struct store *st, const struct secret_key *idkey,
			     const struct store_series *s,
			     const struct mime_mail *to_mail, const char *bot_addr,
			     char *msgid, size_t msgidlen)
{
	struct store_reply rp;
	char salted[600];
	int64_t rid;
	int ret, taken;

	ret = store_reply_find(st, msgid, &rid);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 0;
	ret = store_reply_get(st, rid, &rp);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 0;
	taken = rp.series_id != s->id;
	store_reply_release(&rp);
	if (!taken)
		return 0;
	snprintf(salted, sizeof(salted), "%s#series-%lld", to_mail->message_id,
		 (long long)s->id);
	compose_message_id(idkey, salted, s->version, s->version_minor, bot_addr, msgid, msgidlen);
	return 0;
}

static int review_series(struct pipeline *p, struct store_series *s, int64_t now)
{
	const struct config *cfg = p->cfg;
	struct store *st = p->st;
	struct view cur, prev;
	struct mime_mail cover;
	const struct mime_mail *to_mail;
	struct compose_review r;
	struct compose_stats cs;
	struct pipe_rcpt rc;
	struct pipe_stages sg;
	struct store_review rv;
	struct feedback_demoted dem;
	struct compose_cover *covered = NULL;
	struct sbuf mail;
	char msgid[256], err[256];
	int have_cover = 0, have_prev = 0, have_rc = 0, ret, only_part = 0, backport = 0;
	char backport_why[40] = "";
	int64_t reply_id = 0, review_id = 0;
	const char *bot_addr = pipe_bot_address(p);

	memset(&cs, 0, sizeof(cs));
	memset(&dem, 0, sizeof(dem));
	sbuf_init(&mail, COMPOSE_MAX_MAIL);
	ret = pipe_view_load(st, s->id, 0, &cur);
	if (ret != STORE_OK)
		goto out;
	/* a cover letter is never reviewed alone: its patches went
	 * elsewhere or never came (series_place opens it again if they do) */
	if (!cur.npatches) {
		ret = store_series_set_state(st, s->id, SERIES_SKIPPED, now);
		log_event(LOG_INFO, "series-skipped", "series", s->subject,
			  "reason", "a cover letter without patches", NULL);
		goto out;
	}
	if (s->cover_msg && !pipe_load_mail(st, s->cover_msg, &cover))
		have_cover = 1;
	/* (without a cover letter, the first patch's notes may link v1) */
	ret = series_link_prev(st, s, have_cover ? cover.body :
				      cur.have_first ? cur.first.body : NULL);
	if (ret != STORE_OK)
		goto out;
	if (s->prev_id) {
		struct store_series ps;

		/* a replacement part is compared with the part it replaces,
		 * and a version of which one part came (part 1 of 7 sent
		 * alone in reply to v1's) with that part */
		if (cur.npatches == 1 &&
		    ((s->total == 1 && cur.patches[0].part != 1) || s->total > 1))
			only_part = cur.patches[0].part;
		if (store_series_get(st, s->prev_id, &ps) == STORE_OK) {
			if (ps.total > 1 && s->total == 1 && cur.npatches == 1)
				only_part = cur.patches[0].part;
			store_series_release(&ps);
		}
		ret = pipe_view_load(st, s->prev_id, only_part, &prev);
		if (ret != STORE_OK) {
			pipe_view_release(&prev);
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
	/* the compile and load stages' results, done or pending */
	ret = pipe_stages_gather(p, s, &sg);
	if (ret < 0)
		goto out;
	ret = pipe_recipients(p, s, to_mail, now, &rc);
	have_rc = 1;
	if (ret < 0)
		goto out;
	/* a review the list gets says only what may be published: nothing
	 * of a part, or a version before, that went to the bot alone */
	if (rc.list) {
		ret = pipe_publishable(p, &cur, have_prev ? &prev : NULL);
		if (ret < 0)
			goto out;
		if (have_prev && ret == 0) {
			pipe_view_release(&prev);
			have_prev = 0;
		}
	}

	pipe_review_init(&r, p, s, &cur, to_mail, &rc);
	if (have_prev) {
		struct store_series ps;

		if (store_series_get(st, s->prev_id, &ps) == STORE_OK) {
			r.prev_version = ps.version ? ps.version : 1;
			store_series_release(&ps);
		}
		r.prev = prev.cf;
		r.nprev = prev.ncf;
	}
	pipe_stages_to_compose(&sg, &r);
	/* the types this list's maintainers demoted: nits here */
	ret = feedback_demoted_load(st, cfg, s->list, &dem);
	if (ret < 0)
		goto out;
	r.demoted = (const char *const *)dem.types;
	r.ndemoted = dem.n;
	covered = calloc(cur.ncf + 1, sizeof(*covered));
	if (!covered) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	r.cover = covered;
	r.date = now;
	compose_message_id(&p->idkey, to_mail->message_id, s->version, s->version_minor,
			   bot_addr, msgid, sizeof(msgid));
	ret = review_msgid_free(st, &p->idkey, s, to_mail, bot_addr, msgid, sizeof(msgid));
	if (ret < 0)
		goto out;
	r.message_id = msgid;
	if (compose_review_mail(p->tpl, &r, &mail, &cs, err, sizeof(err))) {
		log_event(LOG_ERR, "compose-failed", "msgid", to_mail->message_id,
			  "error", err, NULL);
		ret = STORE_ERR;
		goto out;
	}

	/*
	 * Made, stored and shown, but not mailed by policy (after what its
	 * recipients say: an opt-out, a mute): a stable backport is merged
	 * upstream already; a review with nothing in Security, User-space
	 * interface, Correctness or Process is noise (issue 32).  Either is
	 * mailed when the list asks for it.
	 */
	if (backport_subject(to_mail->subject, strlen(to_mail->subject), backport_why,
			     sizeof(backport_why)))
		backport = 1;
	else if (cur.have_first && backport_body(cur.first.body, cur.first.body_len)) {
		backport = 1;
		snprintf(backport_why, sizeof(backport_why), "an upstream-commit line");
	}
	if (!rc.suppress && backport && !(rc.src && rc.src->review_backports))
		rc.suppress = PIPE_REASON_BACKPORT;
	if (!rc.suppress && cs.quiet && !cfg->review_clean &&
	    !(rc.src && rc.src->review_clean))
		rc.suppress = PIPE_REASON_QUIET;

	if (p->mode == PIPE_IMPORT) {
		reply_id = 0;
	} else {
		ret = pipe_reply_add(p, s, "review", msgid, bot_addr, &rc, mail.buf, now,
				     &reply_id);
		if (ret < 0)
			goto out;
		if (ret == STORE_OK)
			ret = pipe_cover_add(p, reply_id, covered, cs.ncover);
		if (ret < 0)
			goto out;
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

		if (rc.suppress && !strcmp(rc.suppress, PIPE_REASON_QUIET))
			p->stats.quiet++;
		if (rc.suppress && !strcmp(rc.suppress, PIPE_REASON_BACKPORT))
			p->stats.backports++;
		snprintf(nf, sizeof(nf), "%ld", cs.shown);
		snprintf(nn, sizeof(nn), "%ld", cs.nits);
		log_event(LOG_INFO, "review", "msgid", to_mail->message_id,
			  "reply", msgid, "findings", nf, "nits", nn,
			  "backport", backport ? backport_why : NULL,
			  "suppressed", have_rc ? rc.suppress : NULL, NULL);
	}
out:
	if (have_prev)
		pipe_view_release(&prev);
	pipe_view_release(&cur);
	if (have_cover)
		mime_release(&cover);
	if (have_rc)
		pipe_rcpt_release(&rc);
	feedback_demoted_release(&dem);
	free(covered);
	sbuf_release(&mail);
	return ret;
}

static int review_one(void *arg, int64_t id)
{
	struct review_ctx *rc = arg;
	struct pipeline *p = rc->p;
	struct pipeline_stats saved;
	struct store_series s;
	int ret, r2;

	if (pipeline_stopping(p))
		return 1;
	ret = store_series_get(p->st, id, &s);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 0;
	if (!rc->force && !series_complete(p->st, &s) &&
	    rc->now - s.last_part_at < p->cfg->series_wait) {
		store_series_release(&s);
		return 0;
	}
	/* a mail of it came directly but names a list: the list's own copy
	 * may follow, and only that one answers the list */
	if (!rc->force && pipe_awaits_list(p, &s, rc->now)) {
		store_series_release(&s);
		return 0;
	}
	/* its compile and load stages first, up to [policy] stage_wait */
	ret = pipe_stages_wait(p, &s, rc->now);
	if (ret) {
		store_series_release(&s);
		return ret < 0 ? ret : 0;
	}
	ret = rc->batch ? store_savepoint(p->st) : store_begin(p->st);
	if (ret) {
		store_series_release(&s);
		return ret;
	}
	/* under the write lock now: another process may have reviewed it
	 * since it was read */
	store_series_release(&s);
	ret = store_series_get(p->st, id, &s);
	if (ret != STORE_OK || s.state != SERIES_OPEN) {
		if (ret == STORE_OK)
			store_series_release(&s);
		r2 = ret < 0 ? ret : STORE_OK;
		ret = rc->batch ? store_savepoint_end(p->st, r2) : store_rollback(p->st);
		return r2 < 0 ? r2 : ret;
	}
	saved = p->stats;
	ret = review_series(p, &s, rc->now);
	if (ret >= 0)
		ret = rc->batch ? store_savepoint_end(p->st, ret) :
			store_commit(p->st);
	if (ret < 0) {
		char sid[24], why[256];

		/* the reason, before the rollback clears it */
		snprintf(why, sizeof(why), "%s", store_errmsg(p->st));
		if (rc->batch)
			store_savepoint_end(p->st, ret);
		else
			store_rollback(p->st);
		p->stats = saved;
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
	struct review_ctx rc = { p, now, force, 0, 0, { 0, 0 }, { 0, 0 } };
	struct pipeline_stats saved;
	long too_old = p->stats.too_old;
	int ret;

	/*
	 * Import records reviews and sends nothing: the walk is one
	 * transaction (one sync, not one a series); what a crash undoes is
	 * done again at the next start.
	 */
	saved = p->stats;
	if (pipeline_history_only(p) && store_begin(p->st) == STORE_OK)
		rc.batch = 1;
	ret = store_series_each_open(p->st, review_one, &rc);
	if (rc.batch) {
		int r = ret < 0 ? ret : store_commit(p->st);

		if (r < 0) {
			store_rollback(p->st);
			p->stats = saved;	/* none of those reviews is kept */
			if (ret >= 0)
				ret = r;
		}
	}
	if (ret > 0)
		ret = 0;	/* stopped by a signal */
	/* the stages' results owed to reviews that went without them */
	if (ret >= 0)
		ret = pipe_followups(p, now);
	if (p->stats.too_old > too_old && !pipeline_history_only(p)) {
		char n[24], age[24];

		snprintf(n, sizeof(n), "%ld", p->stats.too_old - too_old);
		snprintf(age, sizeof(age), "%d", p->cfg->max_age);
		log_event(LOG_INFO, "too-old", "not_sent", n, "max_age", age,
			  "reason", PIPE_REASON_TOO_OLD, NULL);
	}
	return ret < 0 ? ret : rc.failed ? STORE_ERR : 0;
}

/* ---- delivery ------------------------------------------------------------ */

/* "HH:MM" (UTC) of t, for the log and status. */
static void hhmm(int64_t t, char *out, size_t outlen)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(out, outlen, "%H:%M", &tm))
		snprintf(out, outlen, "?");
}

/*
 * A cap is reached: r waits until the first reply the cap counts is an
 * hour old (a place frees then), not before the next minute.  Stays
 * pending, no attempt counted; logged once per hold, at info level, and
 * counted by reviewbot status as "held by cap".  1, or a store error.
 */
static int hold(struct pipeline *p, const struct store_reply *r, const char *cap,
		int64_t oldest, int64_t now)
{
	char why[64], until[16];
	int64_t t = oldest + 3600;
	int ret;

	if (t < now + 60)
		t = now + 60;
	snprintf(why, sizeof(why), PIPE_HOLD_PREFIX "%s", cap);
	ret = store_reply_hold(p->st, r->id, why, t);
	if (ret < 0)
		return ret;
	hhmm(t, until, sizeof(until));
	log_event(LOG_INFO, "held", "reply", r->message_id, "kind", r->kind, "cap", cap,
		  "until", until, NULL);
	return 1;
}

/*
 * 1 when sending r now would pass author_replies_per_hour (reviews and
 * follow-ups sent to its to_addr in the last hour; an answer to a
 * command is neither counted nor held by it: it has caps of its own) or
 * list_replies_per_hour (sent to its list): r is held.  Negative on a
 * store error.
 */
static int over_cap(struct pipeline *p, const struct store_reply *r, int64_t now)
{
	const struct config *cfg = p->cfg;
	int confirm = r->kind && (!strcmp(r->kind, "confirm") || !strcmp(r->kind, "request"));
	int64_t oldest = 0;
	long long n = 0;
	int ret;

	if (cfg->author_replies_per_hour > 0 && r->to_addr && !confirm) {
		ret = store_reply_sent_window(p->st, now - 3600, r->to_addr, NULL, 0, &n,
					      &oldest);
		if (ret < 0)
			return ret;
		if (n >= cfg->author_replies_per_hour)
			return hold(p, r, "author_replies_per_hour", oldest, now);
	}
	if (cfg->list_replies_per_hour > 0 && r->list) {
		ret = store_reply_sent_window(p->st, now - 3600, NULL, r->list, -1, &n,
					      &oldest);
		if (ret < 0)
			return ret;
		if (n >= cfg->list_replies_per_hour)
			return hold(p, r, "list_replies_per_hour", oldest, now);
	}
	return 0;
}

/*
 * The two hourly budgets: reviews and follow-ups (max_replies_per_hour),
 * answers to commands (max_confirmations_per_hour).  A flood of commands
 * never spends the reviews' budget, and the due walk hands out every
 * review before any answer (store_reply_each_due).  1 when r's budget
 * is spent (it is held), 0, or a negative store error.
 */
static int over_budget(struct review_ctx *rc, const struct store_reply *r)
{
	struct pipeline *p = rc->p;
	/* 1: answers to commands, 2: requests for a command's token (each
	 * its own budget: issue 33), 0: the rest */
	int confirm = !r->kind ? 0 : !strcmp(r->kind, "confirm") ? 1 :
		      !strcmp(r->kind, "request") ? 2 : 0;
	int cap = confirm == 1 ? p->cfg->max_confirmations_per_hour :
		  confirm == 2 ? p->cfg->max_requests_per_hour : p->cfg->max_replies_per_hour;
	const char *name = confirm == 1 ? "max_confirmations_per_hour" :
			   confirm == 2 ? "max_requests_per_hour" : "max_replies_per_hour";
	long long sent = 0;
	int64_t oldest = 0;
	int ret;

	if (cap <= 0)
		return 0;
	if (rc->spent[confirm])
		return hold(p, r, name, rc->spent_oldest[confirm], rc->now);
	ret = store_reply_sent_window(p->st, rc->now - 3600, NULL, NULL, confirm, &sent,
				      &oldest);
	if (ret < 0)
		return ret;
	if (sent < cap)
		return 0;
	rc->spent[confirm] = 1;
	rc->spent_oldest[confirm] = oldest;
	return hold(p, r, name, oldest, rc->now);
}

/* A Message-ID of the thread a queued reply answers is a muted root. */
static int id_muted(void *arg, const char *id)
{
	return store_mute_get(arg, id) == STORE_OK;
}

/* A reply decided on at queue time is not sent after all: recorded so. */
static int suppress_now(struct pipeline *p, const struct store_reply *r, const char *why)
{
	int ret = store_reply_mark_suppressed(p->st, r->id, why);

	if (ret == STORE_OK) {
		p->stats.suppressed++;
		log_event(LOG_INFO, "suppressed", "reply", r->message_id, "kind", r->kind,
			  "reason", why, "when", "delivery", NULL);
	}
	return ret < 0 ? ret : 1;
}

/*
 * What changed since a review or follow-up was queued (it may have
 * waited for a cap, a retry or the stages): its author opted out (it is
 * suppressed, or for "optout private" goes to the author alone), or its
 * thread was muted (suppressed).  1 when r is not to be sent, 0 to go
 * on (r's recipients and mail as they are now), or a store error.
 * Answers to commands are not looked at: an opt-out is confirmed too.
 */
static int recheck(struct pipeline *p, struct store_reply *r)
{
	enum store_optout_mode om;
	struct store_series s;
	struct sbuf mail;
	int ret, muted = 0;

	if (!r->kind || !strcmp(r->kind, "confirm") || !strcmp(r->kind, "request"))
		return 0;
	if (r->series_id && store_series_get(p->st, r->series_id, &s) == STORE_OK) {
		muted = s.root && store_mute_get(p->st, s.root) == STORE_OK;
		store_series_release(&s);
	}
	if (!muted)
		muted = compose_mail_thread_ids(r->body, id_muted, p->st);
	if (muted)
		return suppress_now(p, r, "the thread is muted");
	if (r->to_addr && store_optout_get(p->st, r->to_addr, &om) == STORE_OK) {
		if (om == OPTOUT_SILENT)
			return suppress_now(p, r, "the author opted out of reviews");
		if (r->rcpt && strcasecmp(r->rcpt, r->to_addr)) {
			/* private: the same mail, to the author alone */
			sbuf_init(&mail, COMPOSE_MAX_MAIL);
			ret = compose_mail_drop_cc(r->body, &mail) ? STORE_ERR_NOMEM :
				store_reply_set_rcpt(p->st, r->id, r->to_addr, NULL, mail.buf);
			if (ret == STORE_OK) {
				char *rcpt = strdup(r->to_addr);

				if (!rcpt) {
					sbuf_release(&mail);
					return STORE_ERR_NOMEM;
				}
				free(r->rcpt);
				r->rcpt = rcpt;
				free(r->list);
				r->list = NULL;
				free(r->body);
				r->body = sbuf_detach(&mail, NULL);
				log_event(LOG_INFO, "made-private", "reply", r->message_id,
					  "reason", "the author opted out to private reviews",
					  NULL);
			}
			sbuf_release(&mail);
			if (ret < 0)
				return ret;
			if (ret != STORE_OK || !r->body)
				return 1;	/* no longer pending: another process */
		}
	}
	return 0;
}

static int deliver_one(void *arg, int64_t id)
{
	struct review_ctx *rc = arg;
	struct pipeline *p = rc->p;
	struct store_reply r;
	char err[512], attempts[16];
	int ret, dr;
	int64_t wait;

	if (pipeline_stopping(p))
		return 1;	/* SIGTERM: the rest waits for the next start */
	ret = store_reply_get(p->st, id, &r);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 0;
	/* another process on the database delivers it (or did meanwhile) */
	if (r.state != REPLY_PENDING ||
	    (r.claim && strcmp(r.claim, p->claim) &&
	     claim_holds(r.claim, r.claimed_at, rc->now))) {
		store_reply_release(&r);
		return 0;
	}
	/* opt-outs and mutes as they are now, then the caps */
	ret = recheck(p, &r);
	if (!ret)
		ret = over_budget(rc, &r);
	if (!ret)
		ret = over_cap(p, &r, rc->now);
	if (ret) {
		store_reply_release(&r);
		return ret < 0 ? ret : 0;	/* not sent: the others go on */
	}
	/*
	 * Ours before it leaves: one statement, committed (and synced) on
	 * its own, that only one process's can change.  A claim left by a
	 * process that died between it and the mark below is taken over by
	 * the next walk (claim.h): the reply goes again, with its
	 * Message-ID, as after any crash between a send and its mark.
	 */
	ret = store_reply_claim(p->st, id, p->claim, r.claim, rc->now);
	if (ret != STORE_OK) {
		store_reply_release(&r);
		return ret < 0 ? ret : 0;	/* another process took it first */
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
	struct review_ctx rc = { p, now, 0, 0, 0, { 0, 0 }, { 0, 0 } };
	int ret;

	ret = store_reply_each_due(p->st, now, deliver_one, &rc);
	return ret > 0 ? 0 : ret;
}

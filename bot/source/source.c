// SPDX-License-Identifier: GPL-2.0-only
/*
 * source: feeding mail into the pipeline (source.h): batches stored with
 * their checkpoint, checked on every core, processed in order, and the
 * driver table's poll loop.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"
#include "../log.h"
#include "../mail/mailbox.h"
#include "../mail/maildate.h"
#include "../mail/mime.h"
#include "../../checker/banned.h"

/*
 * Mails stored before the checker threads may see them: each mail is
 * claimed with one attempt charged as it is stored (pipeline_add), and
 * a check must not start before that is committed, or a check that
 * kills the process would kill every start (the batch rolled back, read
 * again, checked again).  So the batch's transaction is committed every
 * SOURCE_OFFER_CHUNK mails, without the checkpoint (a batch read again
 * after a crash finds these stored: duplicates by Message-ID), and only
 * then are they offered.
 */
#define SOURCE_OFFER_CHUNK	32

struct source_batch {
	struct pipeline *p;
	struct store *st;
	const struct config_source *src;
	int64_t now;
	int64_t ids[SOURCE_BATCH];
	struct mime_mail mails[SOURCE_BATCH];
	struct pipeline_check checks[SOURCE_BATCH];
	/* mails[i] is not message ids[i] any more: another copy of its
	 * Message-ID, later in the batch, took its place (pipeline_add);
	 * it is processed from what is stored */
	unsigned char stale[SOURCE_BATCH];
	/*
	 * The checker threads, started at the first mail: each mail is
	 * checked from the moment it is parsed, while the rest of the batch
	 * is read and stored (NULL: checked as each is processed).
	 */
	struct pipeline_pool *pool;
	int pool_tried;
	size_t offered;		/* mails[0, offered) are committed and offered */
	size_t n;
	size_t bytes;
	int open;		/* a transaction is open */
	struct pipeline_stats at_begin;	/* the counters when it opened */
	uint64_t done;
	int64_t floor;		/* mail dated before it is not stored (0: none) */
	uint64_t older;		/* left out for the floor */
};

static int batch_begin(struct source_batch *b)
{
	int ret;

	if (b->open)
		return 0;
	ret = store_begin(b->st);
	if (ret)
		return ret;
	b->open = 1;
	b->at_begin = *pipeline_stats(b->p);
	return 0;
}

/* Rolls the open transaction back, and what it counted. */
static void batch_rollback(struct source_batch *b)
{
	store_rollback(b->st);
	if (b->open)
		pipeline_stats_restore(b->p, &b->at_begin);
	b->open = 0;
}

/* The mails stored since the last commit are gone with its rollback. */
static void batch_forget_uncommitted(struct source_batch *b)
{
	size_t i;

	for (i = b->offered; i < b->n; i++) {
		mime_release(&b->mails[i]);
		pipeline_check_release(&b->checks[i]);
	}
	b->n = b->offered;
}

/* Commits the mails stored so far (no checkpoint) and offers them to the
 * checker threads. */
static int batch_offer(struct source_batch *b)
{
	int ret;

	ret = store_commit(b->st);
	if (ret < 0) {
		log_event(LOG_WARN, "store-failed", "source", b->src ? b->src->name : NULL,
			  "error", store_errmsg(b->st), NULL);
		batch_rollback(b);
		batch_forget_uncommitted(b);
		return ret;
	}
	b->open = 0;
	b->offered = b->n;
	pipeline_pool_offer(b->pool, b->n);
	return 0;
}

/* Whether raw is older than the floor, by the date it is taken to have. */
static int older_than_floor(const struct source_batch *b, const char *raw, size_t len)
{
	int64_t date, received;

	if (b->floor <= 0 || mime_header_dates(raw, len, &date, &received) < 0)
		return 0;	/* (a mail that cannot be read is stored, as always) */
	return maildate_effective(date, received, b->now) < b->floor;
}

int source_batch_add(struct source_batch *b, const char *raw, size_t len)
{
	int64_t id = 0;
	int ret;

	if (older_than_floor(b, raw, len)) {
		b->older++;
		return SOURCE_OLDER;
	}
	ret = batch_begin(b);
	if (ret)
		return ret;
	ret = pipeline_add(b->p, b->src, raw, len, b->now, &id, &b->mails[b->n]);
	if (ret < 0)
		return ret;
	if (ret == STORE_OK && b->mails[b->n].message_id) {
		size_t k;

		for (k = 0; k < b->n; k++)
			if (b->ids[k] == id)
				b->stale[k] = 1;
		b->stale[b->n] = 0;
		b->ids[b->n++] = id;
		b->bytes += len;
		if (!b->pool_tried) {
			b->pool_tried = 1;
			b->pool = pipeline_pool_new(b->p, b->mails, b->checks,
						    SOURCE_BATCH, 0);
		}
		if (b->pool)
			b->checks[b->n - 1].skip =
				pipeline_repeat_part(b->p, b->src, &b->mails[b->n - 1]);
		if (b->pool && b->n - b->offered >= SOURCE_OFFER_CHUNK) {
			ret = batch_offer(b);
			if (ret < 0)
				return ret;
		}
	}
	b->done++;
	return 0;
}

int source_has_archive_copy(struct store *st, const struct config_source *src,
			    const char *mid)
{
	struct store_msg m;
	const char *l = src ? src->list : NULL, *p;
	size_t n = l ? strlen(l) : 0, k;
	int has = 0;

	memset(&m, 0, sizeof(m));
	if (store_msg_find(st, mid, &m) != STORE_OK)
		return 0;
	if (!m.via_lists)
		has = 1;
	else if (m.via >= VIA_ARCHIVE && !l)
		has = 1;
	else if (m.via >= VIA_ARCHIVE)
		for (p = m.via_lists; *p && !has; p += k + (p[k] ? 1 : 0)) {
			k = strcspn(p, ",");
			has = k == n && !strncasecmp(p, l, n);
		}
	store_msg_release(&m);
	return has;
}

int source_batch_full(const struct source_batch *b)
{
	return b->n >= SOURCE_BATCH || b->bytes >= SOURCE_BATCH_BYTES;
}

/* Commits the stored batch (with the checkpoint, when given), then
 * processes each message in a transaction of its own. */
struct flush {
	struct source_batch *b;
	int batch;		/* one transaction, a savepoint a message */
	int ret;
	struct pipeline_stats at_begin;	/* the counters when batch began */
};

/* Processes the batch's message i, its check done (pipeline_pool_finish):
 * nonzero stops the batch. */
static int flush_one(void *arg, size_t i)
{
	struct flush *f = arg;
	struct source_batch *b = f->b;
	struct pipeline_stats saved;
	int ret;

	/* SIGTERM: the rest is stored (state new) and processed at the
	 * next start */
	if (pipeline_stopping(b->p))
		return 1;
	ret = f->batch ? store_savepoint(b->st) : store_begin(b->st);
	if (ret < 0) {
		f->ret = ret;
		return 1;
	}
	saved = *pipeline_stats(b->p);
	ret = b->stale[i] ? pipeline_process(b->p, b->ids[i], NULL, NULL, b->now) :
	      pipeline_process(b->p, b->ids[i], &b->mails[i], &b->checks[i], b->now);
	if (f->batch) {
		int r = store_savepoint_end(b->st, ret);

		if (ret >= 0)
			ret = r;
	} else if (ret >= 0) {
		ret = store_commit(b->st);
	}
	if (ret < 0) {
		/* stored and committed: the message stays new, and
		 * pipeline_process_pending tries it again with the rest of
		 * the batch, so the source reads on */
		log_event(LOG_WARN, "process-deferred", "error",
			  store_errmsg(b->st), NULL);
		if (!f->batch)
			store_rollback(b->st);
		/* what it counted is undone with it */
		pipeline_stats_restore(b->p, &saved);
		return 1;
	}
	return 0;
}

int source_batch_flush(struct source_batch *b, const char *checkpoint)
{
	struct flush f = { .b = b };
	size_t i;
	int ret = 0;

	if (!b->open && !checkpoint && !b->n)
		return 0;
	/* (all of it may be committed already, SOURCE_OFFER_CHUNK) */
	if (!b->open && checkpoint) {
		ret = batch_begin(b);
		if (ret)
			return ret;
	}
	if (b->open && checkpoint)
		ret = store_checkpoint_set(b->st, b->src->name, checkpoint, b->now);
	if (b->open && (ret < 0 || (ret = store_commit(b->st)) < 0)) {
		/* the driver says "database error"; here is SQLite's reason */
		log_event(LOG_WARN, "store-failed", "source", b->src ? b->src->name : NULL,
			  "error", store_errmsg(b->st), NULL);
		batch_rollback(b);
		batch_forget_uncommitted(b);
		goto out;
	}
	b->open = 0;
	b->offered = b->n;
	/*
	 * A review may go out after each message, so each is committed (and
	 * synced) before the next.  Import sends nothing: its batch is one
	 * transaction, a savepoint a message, one sync instead of hundreds;
	 * a crash leaves the messages stored and new, processed again at the
	 * next start.
	 */
	f.batch = pipeline_history_only(b->p);
	f.at_begin = *pipeline_stats(b->p);
	if (f.batch && store_begin(b->st) < 0) {
		log_event(LOG_WARN, "process-deferred", "error",
			  store_errmsg(b->st), NULL);
		goto out;
	}
	/*
	 * The checker's work on every core (under way since each mail was
	 * parsed), and the store's in order on this thread as each message's
	 * check is done (flush_one()).  Without the pool, each message is
	 * checked as it is processed.
	 */
	if (b->pool)
		pipeline_pool_finish(b->pool, b->n, flush_one, &f);
	else
		for (i = 0; i < b->n && !flush_one(&f, i); i++)
			;
	ret = f.ret;
	if (f.batch && store_commit(b->st) < 0) {
		/* the batch's processing is undone: its messages stay new,
		 * and what it counted goes too */
		log_event(LOG_WARN, "process-deferred", "error",
			  store_errmsg(b->st), NULL);
		store_rollback(b->st);
		pipeline_stats_restore(b->p, &f.at_begin);
	}
out:
	/* (after a failed commit, checks may still be under way) */
	pipeline_pool_drain(b->pool);
	for (i = 0; i < b->n; i++) {
		mime_release(&b->mails[i]);
		pipeline_check_release(&b->checks[i]);
	}
	b->n = b->offered = 0;
	b->bytes = 0;
	/* no check is under way: what was not processed (a stop, a
	 * database error) did not crash, its attempt is given back */
	pipeline_unclaim(b->p);
	return ret < 0 ? ret : 0;
}

void source_batch_abort(struct source_batch *b)
{
	size_t i;

	if (b->open)
		batch_rollback(b);
	/* no check reads the mails any more */
	pipeline_pool_drain(b->pool);
	for (i = 0; i < b->n; i++) {
		mime_release(&b->mails[i]);
		pipeline_check_release(&b->checks[i]);
	}
	/* stored before this (SOURCE_OFFER_CHUNK) and not processed: new,
	 * for the next walk, and not blamed */
	if (b->offered)
		pipeline_unclaim(b->p);
	b->n = b->offered = 0;
	b->bytes = 0;
}

struct source_batch *source_batch_new(struct pipeline *p, struct store *st,
				      const struct config_source *src, int64_t now)
{
	struct source_batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->p = p;
	b->st = st;
	b->src = src;
	b->now = now;
	return b;
}


void source_batch_free(struct source_batch *b)
{
	if (!b)
		return;
	source_batch_abort(b);
	pipeline_pool_free(b->pool);
	free(b);
}

int source_batch_checkpoint(struct source_batch *b, char **value)
{
	*value = NULL;
	if (!b->src || !b->src->name)
		return STORE_OK;
	return store_checkpoint_get(b->st, b->src->name, value) < 0 ? STORE_ERR : STORE_OK;
}

uint64_t source_batch_count(const struct source_batch *b)
{
	return b->done;
}

void source_batch_set_floor(struct source_batch *b, int64_t floor)
{
	b->floor = floor > 0 ? floor : 0;
}

uint64_t source_batch_older(const struct source_batch *b)
{
	return b->older;
}

/* ---- the first start ------------------------------------------------------ */

/* "YYYY-MM-DD hh:mm:ss UTC" of t. */
static void utc_time(int64_t t, char *out, size_t outlen)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(out, outlen, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(out, outlen, "%" PRId64, t);
}

int source_parse_since(const char *s, int64_t *t)
{
	static const char *const fmts[] = {
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
		"%Y-%m-%dT%H:%M", "%Y-%m-%d",
	};
	struct tm tm;
	const char *end;
	size_t i;
	time_t v;

	for (i = 0; s && i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(s, fmts[i], &tm);
		if (!end || *end || tm.tm_year < 70 || tm.tm_year > 8099)
			continue;
		v = timegm(&tm);
		if (v == (time_t)-1 || v <= 0)
			continue;
		*t = (int64_t)v;
		return 0;
	}
	return -1;
}

int source_plan(struct store *st, const struct config_source *src, int max_age,
		int64_t since, int64_t now, struct source_plan *pl)
{
	char *cp = NULL;
	int ret = STORE_DONE;

	memset(pl, 0, sizeof(*pl));
	pl->max_age = max_age;
	if (st && src->name) {
		ret = store_checkpoint_get(st, src->name, &cp);
		if (ret < 0)
			return ret;
		free(cp);
	}
	pl->first = ret != STORE_OK;
	if (since > 0) {
		pl->since = 1;
		pl->floor = since;
	} else if (pl->first && max_age > 0) {
		pl->floor = now - max_age;
	}
	return STORE_OK;
}

void source_plan_describe(const struct source_plan *pl, char *out, size_t outlen)
{
	char t[48];

	utc_time(pl->floor, t, sizeof(t));
	if (pl->since)
		snprintf(out, outlen, "reads mail dated from %s on (--since; what the "
			 "database holds is not fetched again), nothing older", t);
	else if (pl->first && pl->floor)
		snprintf(out, outlen, "first start: reads mail dated from %s on "
			 "([policy] max_age = %d s), nothing older (run --since DATE "
			 "reads older mail)", t, pl->max_age);
	else if (pl->first)
		snprintf(out, outlen, "first start: reads everything the source holds "
			 "([policy] max_age = 0)");
	else
		snprintf(out, outlen, "reads on from where it stopped");
}

int source_session_plan(struct source_session *s, int max_age, int64_t since,
			int64_t now)
{
	struct source_plan pl;
	char what[512], t[48];
	int ret;

	s->floor = 0;
	s->rewind = 0;
	ret = source_plan(s->st, s->src, max_age, since, now, &pl);
	if (ret < 0)
		return ret;
	if (!pl.first && !pl.since)
		return STORE_OK;
	s->floor = pl.floor;
	s->rewind = pl.since;
	source_plan_describe(&pl, what, sizeof(what));
	if (pl.floor)
		utc_time(pl.floor, t, sizeof(t));
	log_event(LOG_INFO, pl.since ? "backfill" : "first-start", "source", s->src->name,
		  "since", pl.floor ? t : "everything", "plan", what, NULL);
	return STORE_OK;
}

/* ---- sessions ------------------------------------------------------------ */

void source_session_close(struct source_session *s)
{
	if (s->ops && s->ops->close)
		s->ops->close(s);
	s->priv = NULL;
}

int source_session_poll(struct source_session *s, struct pipeline *p, int64_t now,
			int force)
{
	struct source_batch *b;
	char err[1024], nf[16], wait[16];
	int64_t delay;
	int ret;

	if (now < s->next_try)
		return 0;
	/* after a failure the backoff decides, not the poll interval */
	if (!force && !s->failures && s->last_poll &&
	    now - s->last_poll < s->src->poll_interval)
		return 0;
	b = source_batch_new(p, s->st, s->src, now);
	if (!b) {
		log_event(LOG_ERR, "source-failed", "source", s->src->name,
			  "error", "out of memory", NULL);
		return -1;
	}
	err[0] = '\0';
	source_batch_set_floor(b, s->floor);
	ret = s->ops->poll(s, b, err, sizeof(err));
	if (source_batch_older(b)) {
		char n[24], t[48];

		snprintf(n, sizeof(n), "%" PRIu64, source_batch_older(b));
		utc_time(b->floor, t, sizeof(t));
		log_event(LOG_INFO, "older-not-read", "source", s->src->name, "not_read", n,
			  "since", t, NULL);
	}
	source_batch_free(b);
	s->last_poll = now;
	/* --since rewinds once; the first start's floor holds until the
	 * source has been read through */
	s->rewind = 0;
	if (!ret)
		s->floor = 0;
	if (!ret) {
		if (s->failures)
			log_event(LOG_INFO, "source-recovered", "source", s->src->name, NULL);
		s->failures = 0;
		s->next_try = 0;
		return 1;
	}
	/* exponential backoff with jitter, so a restarted server is not
	 * hit by every client at once */
	source_session_close(s);
	s->failures++;
	delay = SOURCE_BACKOFF_MIN << (s->failures < 10 ? s->failures - 1 : 9);
	if (delay > SOURCE_BACKOFF_MAX)
		delay = SOURCE_BACKOFF_MAX;
	delay = delay / 2 + random() % (delay / 2 + 1);
	s->next_try = now + (delay ? delay : 1);
	snprintf(nf, sizeof(nf), "%d", s->failures);
	snprintf(wait, sizeof(wait), "%lld", (long long)(s->next_try - now));
	log_event(LOG_WARN, "source-failed", "source", s->src->name, "error", err,
		  "failures", nf, "retry_in", wait, NULL);
	return -1;
}

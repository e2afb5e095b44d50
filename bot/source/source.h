/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source: feeding mail into the pipeline.
 *
 * A batch (struct source_batch) is how every source hands mail over: up to
 * SOURCE_BATCH messages (or SOURCE_BATCH_BYTES) are stored, with the
 * source's checkpoint, in one transaction (source_batch_flush); then the
 * patches are checked on every core and each message is processed in a
 * transaction of its own.  Each message is stored claimed by this
 * process with one processing attempt charged, and no check of it
 * starts before that is committed: with checker threads, the batch's
 * transaction is committed every SOURCE_OFFER_CHUNK messages (without
 * the checkpoint) before they are offered to the threads.  A crash
 * after a commit leaves the messages in state "new", charged: the next
 * run processes them (pipeline_process_pending, which checks such a
 * message again in a child process and marks it bad when that check
 * does not finish either) and reads on from the checkpoint.  A message seen again (a batch read again after a crash,
 * a re-scan after an IMAP UIDVALIDITY change, a rewritten mbox) is
 * recognised by its Message-ID and skipped.
 *
 * The first start (source_plan): a source without a checkpoint reads
 * what its archive holds back to [policy] max_age and nothing older (the
 * floor, now - max_age; none when max_age is 0: the whole archive), the
 * same on every source; `run --since DATE` sets the floor to DATE for
 * the first poll of every source, read before or not (a backfill: what
 * the store holds is not fetched again).  A mail is older than the floor
 * when the date it is taken to have (bot/mail/maildate.h: its Date:, or
 * its arrival when the Date: is implausible) is: source_batch_add() does
 * not store it.  The drivers skip what their server's listing already
 * shows to be older (the feed's times, IMAP SEARCH, the NNTP overview),
 * never a mail the floor would keep.  Only public-inbox over HTTP keeps
 * the floor afterwards (in its checkpoint, as its feed lists old mail
 * again at every poll); the others read on from their checkpoint.
 *
 * A session (struct source_session) is one configured source as the
 * daemon keeps it between cycles: its driver (by type and url scheme,
 * bot/source/source_drivers.c), the driver's connection, and the backoff after a
 * failure.  Drivers:
 *   maildir, mbox                 bot/source/src_local.c
 *   imap, public-inbox imap(s)://  bot/source/src_imap.c
 *   nntp, public-inbox nntp(s)://  bot/source/src_nntp.c
 *   public-inbox http(s)://        bot/source/src_pihttp.c
 */
#ifndef RB_SOURCE_H
#define RB_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "../config.h"
#include "../pipeline.h"

#define SOURCE_BATCH		512
#define SOURCE_BATCH_BYTES	(32u << 20)
#define SOURCE_BACKOFF_MIN	1	/* seconds after the first failure */
#define SOURCE_BACKOFF_MAX	300	/* seconds, at most, between attempts */

/* ---- batches ----------------------------------------------------------- */

struct source_batch;

struct source_batch *source_batch_new(struct pipeline *p, struct store *st,
				      const struct config_source *src, int64_t now);
/* Flushes nothing: call source_batch_flush first.  NULL is fine. */
void source_batch_free(struct source_batch *b);
/* Stores one raw message (a transaction opens on the first).  0, or a
 * negative store result. */
int source_batch_add(struct source_batch *b, const char *raw, size_t len);
/* (SOURCE_OLDER instead of 0 for a mail older than the batch's floor) */
/*
 * 1 when an archive source (src) need not fetch message mid: the stored
 * copy of that Message-ID came from a list's archive through src's list
 * already (schema 11), or was stored before schema 11, when a
 * Message-ID was the message.  A copy mailed to the bot under that
 * Message-ID is no reason to skip the archive's: that one takes its
 * place (or, the same mail, says it came through the list).
 */
int source_has_archive_copy(struct store *st, const struct config_source *src,
			    const char *mid);
/* 1 when the batch should be flushed now. */
int source_batch_full(const struct source_batch *b);
/*
 * Commits what was added, with checkpoint (NULL: unchanged) as the
 * source's position, then checks and processes the messages.  0, or a
 * negative store result (the transaction is rolled back: the messages
 * and the checkpoint are as before).
 */
int source_batch_flush(struct source_batch *b, const char *checkpoint);
/* Rolls back what was added and not flushed. */
void source_batch_abort(struct source_batch *b);
/* The source's stored checkpoint (malloc'd), or NULL when none; 0 or a
 * negative store result. */
int source_batch_checkpoint(struct source_batch *b, char **value);
/* Messages added so far (stored or already known). */
uint64_t source_batch_count(const struct source_batch *b);
/* Mail dated before floor (0: none) is not stored from now on:
 * source_batch_add() returns SOURCE_OLDER for it. */
void source_batch_set_floor(struct source_batch *b, int64_t floor);
/* Messages left out for the floor so far. */
uint64_t source_batch_older(const struct source_batch *b);

#define SOURCE_OLDER	1	/* source_batch_add(): older than the floor, not stored */

/* ---- sessions and drivers ---------------------------------------------- */

struct source_session;

struct source_ops {
	const char *name;	/* "maildir", "imap", ... for logs */
	/*
	 * Reads what is new since the checkpoint through b (flushing it with
	 * the new checkpoint as it goes, and at the end).  Connects when
	 * needed.  0, or -1 with err set (the session is then closed and
	 * retried after a backoff).
	 */
	int (*poll)(struct source_session *s, struct source_batch *b,
		    char *err, size_t errlen);
	/*
	 * Starts waiting for new mail on the server (IMAP IDLE) and returns
	 * the socket to watch for reading, or -1 when the driver cannot
	 * (the daemon then polls every poll_interval).  May be NULL.  The
	 * next poll() ends the wait.
	 */
	int (*idle)(struct source_session *s);
	/* Drops the connection and frees priv. */
	void (*close)(struct source_session *s);
};

struct source_session {
	const struct source_ops *ops;
	const struct config_source *src;
	struct store *st;
	void *priv;		/* the driver's */
	int failures;		/* in a row */
	int64_t next_try;	/* not before (backoff) */
	int64_t last_poll;
	/* the first start's floor (source_session_plan), until a poll
	 * succeeds: mail dated before it is not read (0: none) */
	int64_t floor;
	/* run --since: the first poll reads from the floor even where the
	 * checkpoint is past it */
	int rewind;
};

/* What a source's next start reads (source_plan). */
struct source_plan {
	int first;		/* no checkpoint yet: a first start */
	int since;		/* run --since DATE */
	int64_t floor;		/* mail dated before it is not read (0: none) */
	int max_age;		/* [policy] max_age the floor comes from */
};

/*
 * The plan for src (st may be NULL: no database yet, a first start):
 * since (run --since, 0: none) or now - max_age for a first start.
 * 0, or a negative store result.
 */
int source_plan(struct store *st, const struct config_source *src, int max_age,
		int64_t since, int64_t now, struct source_plan *pl);
/* The plan in words, for run -n and the log ("first start: reads mail
 * dated from ... on"). */
void source_plan_describe(const struct source_plan *pl, char *out, size_t outlen);
/* Sets the session's floor from its plan, and logs a first start or a
 * backfill.  0, or a negative store result. */
int source_session_plan(struct source_session *s, int max_age, int64_t since,
			int64_t now);
/* "YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS]" or "YYYY-MM-DDTHH:MM[:SS]",
 * UTC, into *t; 0, or -1 when it is not one. */
int source_parse_since(const char *s, int64_t *t);

/* Picks the driver for src; 0, or -1 with err when there is none. */
int source_session_init(struct source_session *s, const struct config_source *src,
			struct store *st, char *err, size_t errlen);
void source_session_close(struct source_session *s);
/*
 * One poll of a session when it is due (backoff, poll interval or
 * force): reads, records a failure with exponential backoff and jitter.
 * Returns 1 when it polled, 0 when not due, -1 on a failure (logged).
 */
int source_session_poll(struct source_session *s, struct pipeline *p, int64_t now,
			int force);

/* The drivers' constructors (bot/source/source_drivers.c lists them by type).
 * Each sets s->ops (and s->priv when it keeps a connection); nothing
 * connects before the first poll. */
int src_local_init(struct source_session *s, char *err, size_t errlen);
int src_imap_init(struct source_session *s, char *err, size_t errlen);
int src_nntp_init(struct source_session *s, char *err, size_t errlen);
int src_pihttp_init(struct source_session *s, char *err, size_t errlen);

/* ---- reading files (import, review) ------------------------------------ */

/* Called after each batch (for progress); may be NULL. */
typedef void (*source_progress_fn)(void *arg, uint64_t done, uint64_t total);

/*
 * Reads every message of path (an mbox, a single mail, or a maildir)
 * through the pipeline, with no checkpoint; src may be NULL.
 */
int source_read_path(struct pipeline *p, struct store *st,
		     const struct config_source *src, const char *path,
		     int64_t now, source_progress_fn progress, void *arg,
		     char *err, size_t errlen);

#endif

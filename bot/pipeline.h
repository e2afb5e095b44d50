/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pipeline: the bot's main job, one step per function, all state in the
 * store (DESIGN.md "Data flow"):
 *
 *   pipeline_add       a raw mail from a source → store.messages (new)
 *   pipeline_process   parse (mime), classify, place in its series,
 *                      check it, store the findings
 *   pipeline_review    series that are complete (or waited series_wait)
 *                      → one review mail each, queued as a pending reply
 *   pipeline_deliver   pending replies → the outbox / sendmail / SMTP,
 *                      each claimed (committed) before it is handed
 *                      over, marked sent only once delivered
 *
 * The caller owns transactions: pipeline_add's rows are committed before
 * pipeline_process runs, so a crash between them loses nothing (the
 * message waits in state "new" and is processed on the next run).  Each
 * review is queued in one transaction with its series' state, so a
 * series gets exactly one review.
 */
#ifndef RB_PIPELINE_H
#define RB_PIPELINE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "mail/mime.h"
#include "../checker/checker.h"
#include "../store/store.h"

struct template_set;
struct pipeline;

struct pipeline_stats {
	long stored, duplicates, bad;
	long patches, covers, replies, skipped;
	long findings;
	long reviews, clean, suppressed;
	long quiet, backports;	/* reviews not mailed: nothing to say, a backport */
	long too_old;		/* replies not sent: the mail is older than max_age */
	long sent, deferred, failed;
	/* commands to the bot refused (outside the Date: window, ...), and
	 * waiting for their sender's token (bot/command.h) */
	long commands_refused, commands_pending;
	/* schema 13: copies of a stored Message-ID that differ, kept aside,
	 * and those that took its place (counted in stored) */
	long copies, replaced;
};

/*
 * The reason a reply is recorded but not sent when the mail it answers
 * is dated longer ago than [policy] max_age (a first start on a backlog,
 * a long outage): reviewbot status counts the replies suppressed with it.
 */
#define PIPE_REASON_TOO_OLD	"the mail is older than [policy] max_age"
/*
 * The reasons a review is stored and shown but not mailed, by policy
 * (bot/pipeline_review.c): nothing worth a mail ([source] review_clean),
 * a stable backport ([source] review_backports, bot/backport.h).
 * reviewbot status counts the replies suppressed with each.
 */
#define PIPE_REASON_QUIET	"nothing in Security, User-space interface, Correctness" \
				" or Process ([source] review_clean is off)"
#define PIPE_REASON_BACKPORT	"a stable backport, merged upstream already" \
				" ([source] review_backports is off)"
/* A patch through b4's web relay whose author it does not name in a way
 * the bot trusts: its From: is the relay's devnull (bot/mail/mime.h). */
#define PIPE_REASON_RELAY	"the author is not known: the From: is b4 relay's devnull" \
				" and no X-Original-From: names the author"
/* The reason of a pending reply waiting for a cap to free a place
 * ("held by author_replies_per_hour", ...): reviewbot status counts them. */
#define PIPE_HOLD_PREFIX	"held by "

/* 1 when mail m is older than [policy] max_age at now, by the date it
 * is taken to have (bot/mail/maildate.h: its Date:, or its arrival when
 * that is missing or implausibly far in the future). */
int pipeline_too_old(const struct config *cfg, const struct mime_mail *m, int64_t now);

enum pipeline_mode {
	PIPE_RUN = 0,		/* review and queue replies */
	PIPE_IMPORT,		/* history only: series are marked reviewed, no mail */
};

/*
 * A pipeline over st with cfg and the templates t (both must outlive it).
 * err gets the reason on failure (e.g. the spelling dictionary).
 */
int pipeline_new(struct store *st, const struct config *cfg,
		 const struct template_set *t, enum pipeline_mode mode,
		 struct pipeline **out, char *err, size_t errlen);
void pipeline_free(struct pipeline *p);
/* When *stop becomes non-zero (a signal), reviews and deliveries end
 * after the one in hand; what is left waits for the next start. */
void pipeline_set_stop(struct pipeline *p, const volatile sig_atomic_t *stop);
const struct pipeline_stats *pipeline_stats(const struct pipeline *p);
/* The counters as they were when a transaction began, put back when
 * the transaction is rolled back: the summary counts only what the
 * database kept (a full disk undoes a batch that was counted). */
void pipeline_stats_restore(struct pipeline *p, const struct pipeline_stats *saved);
/* Non-zero for import: history only, no mail and no stages. */
int pipeline_history_only(const struct pipeline *p);
/* Non-zero once the stop flag is set (sources stop between messages). */
int pipeline_stopping(const struct pipeline *p);
/* SIGHUP: a new configuration and templates (both must outlive p);
 * the store and the spelling dictionary stay. */
void pipeline_set_config(struct pipeline *p, const struct config *cfg,
			 const struct template_set *t);

/*
 * mime_parse(), and for a mail without a Message-ID (git format-patch
 * output) one made from its bytes ("nomsgid-HASH@reviewbot.invalid").
 */
int pipeline_parse(const char *raw, size_t len, struct mime_mail *m);

/*
 * Stores raw[0, len) from source src (NULL: none) as a new message,
 * claimed by this process with one processing attempt charged (see
 * pipeline_process_pending): once committed, a check of it that kills
 * the process counts.
 * Returns STORE_OK with *id, STORE_DUP when its Message-ID is known, or
 * a store error.  A mail that cannot be parsed is stored too, in state
 * "bad" with the reason (under a Message-ID made from its bytes when it
 * has none).  When parsed is not NULL and the mail parsed, *parsed
 * receives it (the caller passes it on to pipeline_process and releases
 * it); otherwise parsed->message_id is NULL.
 */
int pipeline_add(struct pipeline *p, const struct config_source *src,
		 const char *raw, size_t len, int64_t now, int64_t *id,
		 struct mime_mail *parsed);

/*
 * Who message id (parsed as m) was sent to: its To and Cc addresses and
 * its List-Id (store_msg_set_rcpt), from which reviewbot serve and the
 * query by mail decide what may be published (store/store_web.h).
 * pipeline_add records them; pipeline_fill_rcpt fills them in, in one
 * transaction, for messages stored before schema 8 (*n: how many).
 */
int pipeline_record_rcpt(struct store *st, int64_t id, const struct mime_mail *m);
int pipeline_fill_rcpt(struct store *st, long *n);

/*
 * The checker's work on one patch mail, done ahead (and several at once,
 * on every core) by a pipeline_pool; pipeline_process stores it.
 */
struct added_line {
	uint64_t path_hash;
	long line;
};

struct pipeline_check {
	int done;		/* computed (else pipeline_process checks) */
	int too_large;
	/*
	 * Not "": the check did not finish, and why (the checker ran out of
	 * its time, or gave up on a line).  The message is then bad with
	 * this reason, and its series is reviewed without it.
	 */
	char unfinished[160];
	/*
	 * Set before the mail is offered to a pool: not worth checking
	 * ahead (pipeline_repeat_part); pipeline_process checks it should
	 * it be needed after all.
	 */
	int skip;
	/*
	 * The first file whose hunk git apply would refuse as corrupt: its
	 * lines do not add up to its @@ counts (a line wrapped or cut by the
	 * mail program), or the @@ line is malformed.  NULL when none.
	 */
	char *corrupt;
	struct sbuf text;	/* what was checked */
	struct chk_result res;
	struct added_line *added;	/* sorted */
	size_t nadded;
};

void pipeline_check_release(struct pipeline_check *pc);
/*
 * The checker on every core, ahead of the store: a pool over the mails
 * m[0, cap) and their checks pc[0, cap) (zeroed here), with up to
 * `threads` threads in all, the calling thread included (0: one per core).
 * pipeline_pool_offer() hands out m[0, n) as soon as each is parsed, so
 * checking overlaps reading and storing the rest;
 * pipeline_pool_finish() offers m[0, n), then calls done(arg, i) for
 * i = 0, 1, ... in order, each as soon as mail i is checked, checking
 * mails itself while the next is not ready, and leaves the pool empty
 * for the next batch (offers start at 0 again).  done returns nonzero to
 * stop: the rest are not handed out, and finish returns nonzero.  A mail
 * that is not a patch is left not done, as is one whose check ran out of
 * memory (pipeline_process checks it then).  pipeline_pool_drain()
 * empties the pool without calling anything: no check is under way when
 * it returns.  pipeline_pool_new() returns NULL when it cannot start.
 */
struct pipeline_pool;
/*
 * Whether m repeats a part that an earlier mail of this pipeline brought:
 * same list, author, thread root, version, size and number.  Such a mail
 * is stored and filed as "part N of the series came before", and a check
 * of it would be thrown away; so the pool does not check it ahead.  A
 * guess from what was offered, not from the store: a wrong one costs a
 * check in the calling thread, never a result.  Remembers m's part.
 */
int pipeline_repeat_part(struct pipeline *p, const struct config_source *src,
			 const struct mime_mail *m);
struct pipeline_pool *pipeline_pool_new(const struct pipeline *p, const struct mime_mail *m,
					struct pipeline_check *pc, size_t cap, int threads);
void pipeline_pool_offer(struct pipeline_pool *pp, size_t n);
int pipeline_pool_finish(struct pipeline_pool *pp, size_t n,
			 int (*done)(void *arg, size_t i), void *arg);
void pipeline_pool_drain(struct pipeline_pool *pp);
void pipeline_pool_free(struct pipeline_pool *pp);

/* Processes message id (state new: one another process processed
 * meanwhile is left alone); m is its parsed mail or NULL (parsed again
 * from the store); pc its check done ahead, or NULL. */
int pipeline_process(struct pipeline *p, int64_t id, const struct mime_mail *m,
		     struct pipeline_check *pc, int64_t now);
/*
 * pipeline_process for every message still new (after a crash, a batch
 * cut short by a stop or a database error), each in a transaction of its
 * own, and each charged an attempt committed before it starts (store_
 * msg_claim).  A message still charged by a process that is gone (it
 * died in the check, or while it held the message: a crash, SIGKILL,
 * the OOM killer) is checked once more in a child process first: when
 * that check does not finish either (a signal, PIPE_ISOLATED_TIMEOUT),
 * the message is marked bad ("check did not finish after 2 attempts")
 * and never checked again, and the walk goes on.  A message another
 * live process holds is left to it.  A message that fails while others
 * go through is skipped, and marked bad with the reason after
 * PIPE_MAX_PROCESS_FAILS such walks; a busy or full database ends the
 * walk (the messages wait for the next).  Call it with no other thread
 * running (it forks).
 */
int pipeline_process_pending(struct pipeline *p, int64_t now);
/*
 * Gives back the attempts this process charged to messages it did not
 * process (a stop, a database error: no crash), and lets them go to
 * whoever processes them next.  Call when no check is under way: at the
 * end of a batch or a walk.  0 or a negative store error (logged).
 */
int pipeline_unclaim(struct pipeline *p);
/* This process's name on the rows it works on (bot/claim.h). */
const char *pipeline_claim(const struct pipeline *p);

/* Reviews every open series that is complete, or whose last part is
 * series_wait old, or every open series when force. */
int pipeline_review(struct pipeline *p, int64_t now, int force);

/*
 * Runs the oldest queued compile or load stage ([build], [boot]) of a
 * series under review, and stores its result: 1 when one ran, 0 when
 * none is queued (or none is configured), negative on a store error.
 * One at a time: the caller reviews and delivers between two.
 */
int pipeline_run_stage(struct pipeline *p, int64_t now);
/*
 * The compile stage's worker slot this process uses ([build] workers:
 * each worker process has its own work tree and object folder); 0, the
 * default, for `run --once` and the daemon itself.
 */
void pipeline_set_stage_slot(struct pipeline *p, int slot);

/* Delivers the pending replies that are due: each is claimed first
 * (store_reply_claim), so another process on the database never sends
 * it too; one another live process holds is left to it. */
int pipeline_deliver(struct pipeline *p, int64_t now);

#endif

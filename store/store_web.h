/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * store_web: what may be published, and the questions that reviewbot
 * serve (web pages and the JSON API) and the query by mail ask of the
 * history.  Everything here reads, but store_msg_set_rcpt(), with which
 * the bot records who a message was sent to.
 *
 * Privacy, the same for the web, the API and the query by mail: a
 * query with q->publish set, a JSON object naming the lists and the
 * sources whose mail is public,
 *   {"lists": ["linux-leds@vger.kernel.org"], "sources": ["lore-leds"]}
 * (bot/web/publish.h makes it from the configuration), matches a patch, and
 * its findings, only when
 *   - its mail is stored with its recipients (schema 8: messages stored
 *     before are published once the bot has filled them in), and
 *   - it came through a mailing list: it has a List-Id, one of the
 *     "lists" is on its To or Cc, or it was read from one of the
 *     "sources" (a public archive); a mail sent to the bot alone, or
 *     to people, is never published, and
 *   - neither its sender nor its series' author has opted out, in
 *     either mode ("optout" or "optout private").
 * A series is published when one of its patches is; its review (the
 * mail, its state and counts) only when every mail of the series is.
 * Without q->publish (the operator's own `reviewbot query`) everything
 * matches.
 *
 * Ownership as in store.h: rows handed to callbacks are valid during
 * the call only; arrays returned are the caller's to free with the
 * function named beside them.
 */
#ifndef RB_STORE_WEB_H
#define RB_STORE_WEB_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The categories, in the order of checker/rules.h's enum rule_cat. */
#define STORE_NCATEGORIES	5
extern const char *const store_categories[STORE_NCATEGORIES];
/* The index of category name in store_categories, or -1. */
int store_category_index(const char *name);

/* Most versions of one series store_web_versions() follows. */
#define STORE_MAX_VERSIONS	100

/*
 * Opens the database at path read-only (SQLITE_OPEN_READONLY and
 * PRAGMA query_only): nothing through this handle can write.  The
 * schema must be STORE_SCHEMA_VERSION (an older one is STORE_ERR_VERSION
 * with a hint: the bot upgrades it); a missing file is STORE_DONE.
 */
int store_open_readonly(const char *path, struct store **out, char *err,
			size_t errlen);

/* ---- who a message went to (schema 8) ------------------------------------ */

/* Records the To and Cc addresses of message id (lowercase, ','-
 * separated, "" when none) and its List-Id (NULL when none). */
int store_msg_set_rcpt(struct store *st, int64_t id, const char *rcpt,
		       const char *list_id);
/* STORE_OK with *rcpt and *list_id (malloc'd; NULL for SQL NULL), or
 * STORE_DONE when there is no such message. */
int store_msg_get_rcpt(struct store *st, int64_t id, char **rcpt, char **list_id);
/* Calls cb with the id of every message whose recipients are not
 * recorded (stored before schema 8), but bad ones; cb may write. */
int store_msg_each_without_rcpt(struct store *st,
				int (*cb)(void *arg, int64_t id), void *arg);

/* ---- published history --------------------------------------------------- */

/* STORE_OK when message id may be published under publish (see above;
 * publish NULL: any message), STORE_DONE when not. */
int store_web_msg_published(struct store *st, const char *publish, int64_t id);

/* The patch that came in message msg_id: STORE_OK or STORE_DONE. */
int store_web_patch_by_msg(struct store *st, int64_t msg_id, struct store_patch *p);

/* One series version, with what its pages and the API show of it. */
struct store_series_row {
	struct store_series s;
	int64_t date;		/* its earliest mail's Date:, else when created */
	char *msgid;		/* its page's Message-ID: the cover letter's,
				 * else its first patch's; NULL when none */
	long patches;		/* its patches (the published ones) */
	long per_cat[STORE_NCATEGORIES]; /* its findings per category */
	int64_t review_id;	/* 0: no review yet */
	int review_published;	/* the review may be shown (see above) */
	long shown, nits, fixed, added, still; /* the review's counts */
	int64_t reply_id;	/* the review mail, 0 when none was made */
	char *reply_msgid;
	int reply_state;	/* enum store_reply_state */
	char *reply_reason;
	int64_t reply_sent_at;
};

/*
 * Series versions matching q: author (of the series), list, series
 * (any of its Message-IDs, or q->series_id), since and until (on the
 * series' date), and file, category and type (it has such a finding);
 * q->publish, limit and offset as for findings; newest_first: the
 * series stored last first (the order they came), else the first.  With
 * reviewed_only, only series with a review (published, under publish).
 */
int store_web_series(struct store *st, const struct store_query *q,
		     int reviewed_only,
		     int (*cb)(void *arg, const struct store_series_row *r),
		     void *arg);

/* The lists series were posted to (published ones under publish), with
 * how many series and the latest series' creation time. */
int store_web_lists(struct store *st, const char *publish,
		    int (*cb)(void *arg, const char *list, long long series,
			      int64_t latest),
		    void *arg);

/*
 * Findings matching q counted per week (Monday 00:00 UTC, as Unix
 * seconds) and category, oldest week first; mail without a date is
 * left out.  limit and offset are ignored.
 */
int store_web_weekly(struct store *st, const struct store_query *q,
		     int (*cb)(void *arg, int64_t week, const char *category,
			       long long n),
		     void *arg);

/* The keys findings can be counted by (reviewbot query --count-by). */
enum store_count_key {
	COUNT_AUTHOR = 1 << 0,	/* lowercase address */
	COUNT_TYPE = 1 << 1,
	COUNT_CATEGORY = 1 << 2,
	COUNT_FILE = 1 << 3,
	COUNT_LIST = 1 << 4,
	COUNT_WEEK = 1 << 5,	/* Monday 00:00 UTC, Unix seconds */
};

/* One group: the values of the keys counted by (NULL / 0 for the
 * others, and for a finding without that value), and the count. */
struct store_count_row {
	const char *author, *type, *category, *file, *list;
	int64_t week;
	long long n;
};

/* Findings matching q grouped by keys (enum store_count_key bits),
 * largest group first; limit and offset apply to the groups. */
int store_query_count(struct store *st, const struct store_query *q, unsigned keys,
		      int (*cb)(void *arg, const struct store_count_row *r),
		      void *arg);

/* One version of a series, against the version before it in the list. */
struct store_version {
	int64_t series_id;
	int version, version_minor;
	char *msgid;		/* its page's Message-ID, or NULL */
	char *subject;
	int64_t date;
	long findings;		/* distinct findings (by fingerprint) */
	long fixed;		/* in the version before, not in this one */
	long added;		/* in this one, not in the version before */
	long still;		/* in both */
};

/*
 * The versions of the series series_id belongs to, oldest first: its
 * predecessors (prev_id), itself, and the versions after it (the
 * earliest series naming it as prev_id, and so on), at most
 * STORE_MAX_VERSIONS.  Under publish, versions not published are left
 * out (and each is compared with the published one before it).  *out
 * malloc'd (store_versions_free), *n its length, *self the index of
 * series_id in it (or *n when it is not published).
 */
int store_web_versions(struct store *st, int64_t series_id, const char *publish,
		       struct store_version **out, size_t *n, size_t *self);
void store_versions_free(struct store_version *v, size_t n);

#endif

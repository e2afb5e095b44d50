/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * store internals shared by the store/ sources; nothing outside store/ includes
 * this.  The handle keeps one prepared statement per enum store_stmt_id,
 * prepared on first use from the SQL text at its one call site and
 * finalized in store_close().
 *
 * Statement discipline: every function that steps a statement ends with
 * store_stmt_done() (reset + clear bindings) on every path, so text is
 * bound SQLITE_STATIC and no read cursor outlives the call.
 */
#ifndef RB_STORE_INT_H
#define RB_STORE_INT_H

#include <sqlite3.h>
#include <stdint.h>

#include "store.h"

enum store_stmt_id {
	/* store.c */
	STMT_BEGIN,
	STMT_COMMIT,
	STMT_ROLLBACK,
	STMT_SAVEPOINT,
	STMT_RELEASE,
	STMT_ROLLBACK_TO,
	STMT_USER_VERSION,
	STMT_SYNCHRONOUS,
	/* store_msg.c */
	STMT_MSG_ADD,
	STMT_MSG_ID_BY_MSGID,
	STMT_MSG_RAW_ADD,
	STMT_MSG_SET_STATE,
	STMT_MSG_SET_SERIES,
	STMT_MSG_GET,
	STMT_MSG_FIND,
	STMT_MSG_RAW,
	STMT_MSG_NEW_IDS,
	STMT_MSG_COUNT,
	STMT_MSG_CLAIM,
	STMT_MSG_UNCLAIM,
	/* store_series.c */
	STMT_SERIES_ADD,
	STMT_SERIES_GET,
	STMT_SERIES_FIND,
	STMT_SERIES_FIND_UNTHREADED,
	STMT_SERIES_PREV_CHANGE_ID,
	STMT_SERIES_PREV_SUBJECT,
	STMT_SERIES_PREV_CANDIDATES,
	STMT_SERIES_HAS_REPLY_TO,
	STMT_SERIES_DATED_NEAR,
	STMT_SERIES_UPDATE,
	STMT_SERIES_SET_STATE,
	STMT_SERIES_OPEN_IDS,
	STMT_SERIES_COUNT_OPEN,
	STMT_SERIES_REF_ADD,
	STMT_SERIES_BY_REF,
	STMT_PATCH_ADD,
	STMT_PATCH_ID_BY_PART,
	STMT_PATCH_SET_CHECKED,
	STMT_PATCH_REMOVE,
	STMT_PATCH_REMOVE_FINDINGS,
	STMT_PATCH_LIST,
	STMT_FINDING_ADD,
	STMT_FINDING_LIST,
	/* store_reply.c */
	STMT_REPLY_ADD,
	STMT_REPLY_ID_BY_MSGID,
	STMT_REPLY_GET,
	STMT_REPLY_DUE_IDS,
	STMT_REPLY_MARK,
	STMT_REPLY_DEFER,
	STMT_REPLY_COUNT,
	STMT_REPLY_COUNT_SINCE,
	STMT_REVIEW_ADD,
	STMT_REVIEW_ID_BY_SERIES,
	STMT_REVIEW_GET,
	STMT_OPTOUT_SET,
	STMT_OPTOUT_GET,
	STMT_OPTOUT_REMOVE,
	STMT_OPTOUT_COUNT,
	STMT_CHECKPOINT_SET,
	STMT_CHECKPOINT_GET,
	STMT_CHECKPOINT_EACH,
	STMT_REPLY_COUNT_SENT,
	STMT_REPLY_COUNT_KIND,
	STMT_REPLY_CLAIM,
	STMT_REPLY_COUNT_SENT_KIND,
	/* store_optout.c */
	STMT_MUTE_ADD,
	STMT_MUTE_GET,
	STMT_MUTE_COUNT,
	STMT_TOKEN_ADD,
	STMT_TOKEN_USE,
	STMT_FORGET_FIRST,
	STMT_FORGET_LAST = STMT_FORGET_FIRST + 19,
	/* store_status.c */
	STMT_SERIES_COUNT,
	STMT_SERIES_COUNT_WAITING,
	STMT_REPLY_COUNT_DUE,
	STMT_PATCH_COUNT,
	STMT_FINDING_COUNT,
	/* store_stage.c */
	STMT_STAGE_ENQUEUE,
	STMT_STAGE_GET,
	STMT_STAGE_GET_ID,
	STMT_STAGE_NEXT,
	STMT_STAGE_START,
	STMT_STAGE_FINISH,
	STMT_STAGE_SET_FOLLOWUP,
	STMT_STAGE_COUNT_QUEUED,
	STMT_STAGE_FOLLOWUP_IDS,
	STMT_STAGE_QUEUED_KINDS,
	STMT_STAGE_CLAIM,
	STMT_STAGE_RENEW,
	STMT_STAGE_UNCLAIM,
	STMT_STAGE_FINISH_CLAIMED,
	/* store_feedback.c */
	STMT_REPLY_FINDING_ADD,
	STMT_REPLY_FINDINGS_EACH,
	STMT_FEEDBACK_ADD,
	STMT_FEEDBACK_FINDING,
	STMT_FEEDBACK_COUNT,
	STMT_FEEDBACK_COUNTS,
	STMT_FEEDBACK_MAINTAINED,
	/* store_web.c */
	STMT_MSG_SET_RCPT,
	STMT_MSG_GET_RCPT,
	STMT_MSG_WITHOUT_RCPT,
	STMT_WEB_LISTS,
	STMT_WEB_MSG_PUBLISHED,
	STMT_WEB_PATCH_BY_MSG,
	STMT_WEB_NEXT_VERSION,
	STMT_WEB_FINGERPRINTS,
	/* store_reply.c: caps and delivery-time checks (issue 21) */
	STMT_REPLY_SENT_WINDOW,
	STMT_REPLY_HOLD,
	STMT_REPLY_SET_RCPT,
	STMT_REPLY_COUNT_WAITING,
	STMT_REPLY_COUNT_REASON,
	/* store_trust.c: secrets, pending commands, confirmed senders
	 * (issue 33) */
	STMT_SECRET_GET,
	STMT_SECRET_ADD,
	STMT_PENDING_ADD,
	STMT_PENDING_FIND,
	STMT_PENDING_TAKE,
	STMT_PENDING_COUNT,
	STMT_CONFIRMED_ADD,
	STMT_CONFIRMED_GET,
	STMT_COMMAND_REFUSED,
	STMT_COMMAND_COUNT,
	STMT_FEEDBACK_UPGRADE,
	/* store_msg.c: the copies of a Message-ID (schema 11) */
	STMT_MSG_MERGE_COPY,
	STMT_MSG_COPY_ADD,
	STMT_MSG_COPY_KEEP_ROW,
	STMT_MSG_COPY_COUNT,
	STMT_MSG_COPY_SERIES,
	STMT_MSG_COPY_DROP_FINDINGS,
	STMT_MSG_COPY_DROP_PATCHES,
	STMT_MSG_COPY_DROP_COVER,
	STMT_MSG_COPY_DROP_REF,
	STMT_MSG_COPY_SERIES_EMPTY,
	STMT_MSG_COPY_RETIRE,
	STMT_MSG_COPY_RETIRE_REFS,
	STMT_MSG_COPY_RETIRE_STAGES,
	STMT_MSG_COPY_UNSENT_REVIEW,
	STMT_MSG_COPY_DROP_REVIEW,
	STMT_MSG_COPY_DROP_REPLIES,
	STMT_MSG_COPY_REOPEN,
	STMT_MSG_COPY_OVERWRITE,
	STMT_MSG_COPY_OVERWRITE_RAW,
	STMT_MSG_ADD11,
	STMT_MSG_GET11,
	STMT_MSG_FIND11,
	STMT__COUNT
};

#define STORE_ERRMSG_MAX	256

/*
 * Statements whose text depends on which filters a query sets
 * (store_query.c, store_web.c): each shape (kind and the filters'
 * bits) is prepared on its first use and kept, the least recently used
 * finalized when all STORE_NSHAPES are taken.  A web page uses a few
 * shapes; a handle is used by one thread at a time.
 */
#define STORE_NSHAPES	48

struct store_shape {
	uint32_t kind, key;
	uint64_t used;		/* the clock at its last use; 0: empty */
	sqlite3_stmt *s;
};

struct store {
	sqlite3 *db;
	int version;		/* the schema's, once opened (older ones in tests) */
	sqlite3_stmt *stmt[STMT__COUNT];
	struct store_shape shapes[STORE_NSHAPES];
	uint64_t shape_clock;
	char errmsg[STORE_ERRMSG_MAX];
};

/* The statement of shape (kind, key), or NULL when not prepared yet. */
sqlite3_stmt *store_shape_find(struct store *st, uint32_t kind, uint32_t key);
/* Prepares sql as shape (kind, key): the statement, or NULL with the
 * error recorded (*ret set). */
sqlite3_stmt *store_shape_prepare(struct store *st, uint32_t kind, uint32_t key,
				  const char *sql, int *ret);

/* SQL text made of this program's fragments only (never a value: those
 * are bound), in a buffer of at most STORE_SQL_MAX bytes. */
#define STORE_SQL_MAX	(32u << 10)

struct store_sql {
	char *buf;
	size_t len;
	int err;		/* out of memory or over STORE_SQL_MAX */
};

void store_sql_add(struct store_sql *q, const char *s);
void store_sql_release(struct store_sql *q);

/* The statement id, prepared from sql on first use; NULL with the error
 * recorded (*ret set) when preparing fails. */
sqlite3_stmt *store_stmt(struct store *st, enum store_stmt_id id,
			 const char *sql, int *ret);
/* Resets s and clears its bindings; NULL is fine. */
void store_stmt_done(sqlite3_stmt *s);

/*
 * A handle on the database file path, opened with SQLite's flags
 * (SQLITE_OPEN_READWRITE or _READONLY), its busy timeout set and its
 * schema guarded (defensive, not trusted).  On an error *out is NULL and
 * err says "PATH: what".
 */
int store_connect(const char *path, int flags, struct store **out, char *err,
		  size_t errlen);
/* An open that failed after store_connect(): err says "PATH: what" (st's
 * message, else ret's), st is closed; returns ret. */
int store_open_fail(struct store *st, const char *path, int ret, char *err,
		    size_t errlen);

/* Records SQLite's message for rc and returns the store_result for it. */
int store_sqlerr(struct store *st, int rc);
/* Records a message of ours and returns result. */
int store_seterr(struct store *st, int result, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void store_clearerr(struct store *st);

/*
 * Binders: each does nothing when *rc is already an error, so a run of
 * binds is checked once.  Text NULL and ids 0 bind SQL NULL; text is
 * bound SQLITE_STATIC (see the statement discipline above).
 */
void store_bind_text(sqlite3_stmt *s, int i, const char *v, int *rc);
void store_bind_int64(sqlite3_stmt *s, int i, int64_t v, int *rc);
void store_bind_id(sqlite3_stmt *s, int i, int64_t v, int *rc);
/* Binds NULL for 0 (a disabled time filter). */
void store_bind_opt_int64(sqlite3_stmt *s, int i, int64_t v, int *rc);

/* A malloc'd copy of a text column, NULL for SQL NULL; sets *oom. */
char *store_col_dup(sqlite3_stmt *s, int i, int *oom);
int64_t store_col_id(sqlite3_stmt *s, int i);

/*
 * Steps a statement that returns no row (INSERT/UPDATE/DELETE) and
 * finishes it: STORE_OK or an error.  *changes (when not NULL) gets the
 * rows changed, *rowid (when not NULL) the last inserted rowid.
 */
int store_step_write(struct store *st, sqlite3_stmt *s, int *changes,
		     int64_t *rowid);
/* Steps a statement returning at most one row with one integer column:
 * STORE_OK with *v, STORE_DONE when no row; finishes it. */
int store_step_int64(struct store *st, sqlite3_stmt *s, int64_t *v);

/*
 * The store_bound_* helpers step s after its binds: rc is their result
 * (SQLITE_OK or the first error, see the binders above; SQLITE_OK for a
 * statement without parameters).  When rc is an error they record it
 * and return its store_result without stepping.
 */
/* Binds checked, then store_step_write(): finishes s on every path. */
int store_bound_write(struct store *st, sqlite3_stmt *s, int rc, int *changes,
		      int64_t *rowid);
/* store_bound_write() of an UPDATE/DELETE meant to change a row:
 * STORE_OK, STORE_DONE when it changed none, or an error. */
int store_bound_change(struct store *st, sqlite3_stmt *s, int rc);
/* Binds checked, then store_step_int64(): finishes s on every path. */
int store_bound_int64(struct store *st, sqlite3_stmt *s, int rc, int64_t *v);
/* A bound count(*): *n gets the count (0 when no row or on an error);
 * STORE_OK or an error, never STORE_DONE.  Finishes s on every path. */
int store_bound_count(struct store *st, sqlite3_stmt *s, int rc, long long *n);
/*
 * Binds checked, then steps a read of at most one row: STORE_OK with the
 * row in s to read, STORE_DONE when no row, or an error.  Does not
 * finish s: the caller reads the row, then calls store_stmt_done().
 */
int store_bound_row(struct store *st, sqlite3_stmt *s, int rc);
/*
 * Binds checked, then steps every row of s and calls row for each; stops
 * at the first row that returns non-zero and returns that, else STORE_OK
 * or the step's error.  Finishes s on every path.  row reads the row in s
 * and does not step it; it runs with the read cursor open
 * (store_each_id is for callbacks that write).
 */
int store_bound_each(struct store *st, sqlite3_stmt *s, int rc,
		     int (*row)(struct store *st, sqlite3_stmt *s, void *arg),
		     void *arg);

/* Room for element n in *arr (of *alloc elements of size bytes), doubling
 * it: STORE_OK or STORE_ERR_NOMEM (recorded). */
int store_grow(struct store *st, void **arr, size_t *alloc, size_t n,
	       size_t size);

/*
 * Steps a "SELECT k, count(*) ... GROUP BY k" and finishes it:
 * counts[k] gets the count of each k from 0 to n - 1, other k are
 * skipped (counts is not cleared first).  STORE_OK or an error.
 */
int store_step_counts(struct store *st, sqlite3_stmt *s, long long *counts,
		      int n);

/*
 * Reads the first column (an id) of every row of the bound statement s,
 * finishes s, then calls cb for each id: the callback may write.
 */
int store_each_id(struct store *st, sqlite3_stmt *s,
		  int (*cb)(void *arg, int64_t id), void *arg);

/* Runs several statements in one transaction unless the caller holds
 * one: *own tells store_tx_leave whether to commit or roll back. */
int store_tx_enter(struct store *st, int *own);
int store_tx_leave(struct store *st, int own, int ret);

/* Row readers shared by store_series.c, store_query.c and store_web.c:
 * the columns of PATCH_COLS / FINDING_COLS (the latter from column col
 * on), and a series' 17 columns (id, list, ... reviewed_at, in the order
 * of the series table) from column 0. */
#define PATCH_COLS(t) \
	t "id, " t "series_id, " t "msg_id, " t "part, " t "subject, " \
	t "checked, " t "errors, " t "warnings, " t "checks"
#define FINDING_COLS(t) \
	t "id, " t "patch_id, " t "series_id, " t "part, " t "type, " \
	t "severity, " t "category, " t "file, " t "line, " t "message, " \
	t "line_text, " t "fingerprint"
int store_patch_from_row(struct store *st, sqlite3_stmt *q,
			 struct store_patch *p);
int store_finding_from_row(struct store *st, sqlite3_stmt *q, int col,
			   struct store_finding *f);
int store_series_from_row(struct store *st, sqlite3_stmt *q,
			  struct store_series *s);

/* The kinds of statements made per shape (store_shape_find()). */
enum store_shape_kind {
	SHAPE_FINDINGS = 1,
	SHAPE_PATCHES,
	SHAPE_WEEKLY,
	SHAPE_COUNT,
	SHAPE_SERIES,
};

/* Which filters of a store_query are set: a shape's key. */
enum store_query_bit {
	QB_AUTHOR = 1u << 0,
	QB_FILE = 1u << 1,
	QB_LIST = 1u << 2,
	QB_CATEGORY = 1u << 3,
	QB_TYPE = 1u << 4,
	QB_SERIES_MSGID = 1u << 5,
	QB_SINCE = 1u << 6,
	QB_UNTIL = 1u << 7,
	QB_PUBLISH = 1u << 8,
	QB_SERIES_ID = 1u << 9,
	QB_PATCH_ID = 1u << 10,
	QB_NEWEST = 1u << 11,
	QB_FILE_EXACT = 1u << 12,	/* the glob names one file */
	QB_REVIEWED = 1u << 13,		/* store_web_series()'s reviewed_only */
	QB_AFTER = 1u << 14,		/* keyset paging: store_query.after */
};
#define QB_KEYS_SHIFT	16	/* store_query_count()'s keys above */
uint32_t store_query_bits(const struct store_query *q);

/* now when t is 0 */
int64_t store_time_or_now(int64_t t);

/* Binds the filters q sets to a statement of q's shape: ?1 author,
 * ?2 file glob, ?3 list, ?4 categories, ?5 types, ?6 a series'
 * Message-ID, ?7 since, ?8 until, ?9 limit (-1: none), ?10 publish,
 * ?11 offset, ?12 series id, ?14 patch id (store_query.c). */
void store_bind_query(sqlite3_stmt *s, const struct store_query *q, int *rc);

/*
 * Schema 10's stored forms of the privacy rule and the author filter
 * (store.c's migration 10 and its triggers): each an expression over
 * the row of the table it names, as an UPDATE of that table sees it.
 */
/* messages.pub: 0 never, 1 by its List-Id, 2 when the configuration
 * makes one of its lists or its source public */
#define M_PUB \
	"(CASE WHEN messages.rcpt IS NULL THEN 0" \
	" WHEN EXISTS (SELECT 1 FROM optouts o" \
	"  WHERE o.addr = lower(messages.from_addr)) THEN 0" \
	" WHEN messages.list_id IS NOT NULL THEN 1 ELSE 2 END)"
/* series.opted_out */
#define S_OPTED_OUT \
	"EXISTS (SELECT 1 FROM optouts o WHERE o.addr = lower(series.author_addr))"
/* the text the author filter reads: "address name", lowercase */
#define W_WHO(addr, name) \
	"lower(ifnull(" addr ", '') || ' ' || ifnull(" name ", ''))"
#define S_WHO	W_WHO("series.author_addr", "series.author_name")
/* a patch's: its mail's address and name, the series' where none */
#define P_WHO_PART(mcol, scol) \
	"coalesce((SELECT pm." mcol " FROM messages pm WHERE pm.id = patches.msg_id)," \
	" (SELECT ps." scol " FROM series ps WHERE ps.id = patches.series_id))"
#define P_WHO	W_WHO(P_WHO_PART("from_addr", "author_addr"), \
		      P_WHO_PART("from_name", "author_name"))

/*
 * SQL: message m of series s may be published (store_web.h): it is
 * stored with its recipients (schema 8) and came through a list (a
 * List-Id, one of the lists of the JSON parameter pub's "lists" on its
 * To or Cc, or read from one of its "sources"), and neither its sender
 * nor the series' author opted out.  m, s and pub are the SQL names of
 * the message, the series and the parameter; with m NULL (a LEFT JOIN
 * that found none) it is false.  All but the configuration's lists and
 * sources is stored (m.pub, s.opted_out: schema 10), so those are read
 * only for mail without a List-Id.
 */
#define STORE_WEB_PUBLISHED(m, s, pub) \
	"(ifnull(" s ".opted_out, 0) = 0" \
	" AND (ifnull(" m ".pub, 0) = 1 OR (ifnull(" m ".pub, 0) = 2" \
	"  AND (EXISTS (SELECT 1 FROM json_each(" pub ", '$.sources') ps" \
	"    WHERE ps.value = " m ".source)" \
	"   OR EXISTS (SELECT 1 FROM json_each(" pub ", '$.lists') pj" \
	"    WHERE instr(',' || " m ".rcpt || ',', ',' || lower(pj.value) || ',') > 0)))))"

/*
 * SQL: " AND s.id IN (...)", the series that the Message-ID ?6 names: a
 * message's series, a patch's, or the series whose thread root it is.
 * Under publish (?10 not NULL) the message named must itself be one
 * that may be published (STORE_WEB_PUBLISHED), else ?6 names nothing:
 * a private part's Message-ID answers as one never seen does, and does
 * not tell which public series it belongs to (issue 33).
 */
#define STORE_SERIES_BY_MSGID \
	" AND s.id IN (" \
	"  SELECT m6.series_id FROM messages m6 LEFT JOIN series s6 ON s6.id = m6.series_id" \
	"   WHERE m6.message_id = ?6 AND (?10 IS NULL OR " \
	STORE_WEB_PUBLISHED("m6", "s6", "?10") ")" \
	"  UNION SELECT p6.series_id FROM patches p6" \
	"   JOIN messages m6 ON m6.id = p6.msg_id LEFT JOIN series s6 ON s6.id = p6.series_id" \
	"   WHERE m6.message_id = ?6 AND (?10 IS NULL OR " \
	STORE_WEB_PUBLISHED("m6", "s6", "?10") ")" \
	"  UNION SELECT s6.id FROM series s6 WHERE s6.root = ?6 AND (?10 IS NULL OR" \
	"   NOT EXISTS (SELECT 1 FROM messages m7 WHERE m7.message_id = ?6 AND NOT " \
	STORE_WEB_PUBLISHED("m7", "s6", "?10") ")))"

#endif

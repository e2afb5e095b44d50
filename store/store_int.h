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
	STMT_FORGET_LAST = STMT_FORGET_FIRST + 15,
	/* store_query.c */
	STMT_QUERY_FINDINGS,
	STMT_QUERY_PATCHES,
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
	STMT_WEB_SERIES,
	STMT_WEB_SERIES_OLDEST,
	STMT_WEB_WEEKLY,
	STMT_WEB_COUNT,
	STMT_WEB_LISTS,
	STMT_WEB_MSG_PUBLISHED,
	STMT_WEB_SERIES_PUBLISHED,
	STMT_WEB_PATCH_BY_MSG,
	STMT_WEB_NEXT_VERSION,
	STMT_WEB_FINGERPRINTS,
	/* store_reply.c: caps and delivery-time checks (issue 21) */
	STMT_REPLY_SENT_WINDOW,
	STMT_REPLY_HOLD,
	STMT_REPLY_SET_RCPT,
	STMT_REPLY_COUNT_WAITING,
	STMT_REPLY_COUNT_REASON,
	STMT__COUNT
};

#define STORE_ERRMSG_MAX	256

struct store {
	sqlite3 *db;
	sqlite3_stmt *stmt[STMT__COUNT];
	char errmsg[STORE_ERRMSG_MAX];
};

/* The statement id, prepared from sql on first use; NULL with the error
 * recorded (*ret set) when preparing fails. */
sqlite3_stmt *store_stmt(struct store *st, enum store_stmt_id id,
			 const char *sql, int *ret);
/* Resets s and clears its bindings; NULL is fine. */
void store_stmt_done(sqlite3_stmt *s);

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

/* now when t is 0 */
int64_t store_time_or_now(int64_t t);

/* Binds q to ?1 .. ?14 of a query statement (store_query.c's list). */
void store_bind_query(sqlite3_stmt *s, const struct store_query *q, int *rc);

/*
 * SQL: message m of series s may be published (store_web.h): it is
 * stored with its recipients (schema 8) and came through a list (a
 * List-Id, one of the lists of the JSON parameter pub's "lists" on its
 * To or Cc, or read from one of its "sources"), and neither its sender
 * nor the series' author opted out.  m, s and pub are the SQL names of
 * the message, the series and the parameter; with m NULL (a LEFT JOIN
 * that found none) it is false.
 */
#define STORE_WEB_PUBLISHED(m, s, pub) \
	"(" m ".rcpt IS NOT NULL" \
	" AND (" m ".list_id IS NOT NULL" \
	"  OR " m ".source IN (SELECT ps.value FROM json_each(" pub ", '$.sources') ps)" \
	"  OR EXISTS (SELECT 1 FROM json_each(" pub ", '$.lists') pj" \
	"   WHERE instr(',' || " m ".rcpt || ',', ',' || lower(pj.value) || ',') > 0))" \
	" AND NOT EXISTS (SELECT 1 FROM optouts po" \
	"  WHERE po.addr IN (lower(" m ".from_addr), lower(" s ".author_addr))))"

#endif

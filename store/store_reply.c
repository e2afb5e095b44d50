// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: replies (the outgoing queue), reviews, opt-outs, checkpoints.
 *
 * A reply is stored pending before it is delivered and marked sent only
 * after the server accepted it; only a pending reply changes state, so
 * a second mark (a retry racing a success) changes nothing.
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

#include "../checker/banned.h"

#define REPLY_COLS \
	"id, message_id, series_id, kind, mail_from, rcpt, body, state," \
	" reason, attempts, created, next_attempt, sent_at, to_addr, list, claim," \
	" claimed_at"

static const char *const reply_state_names[REPLY__COUNT] = {
	[REPLY_PENDING] = "pending",
	[REPLY_SENT] = "sent",
	[REPLY_FAILED] = "failed",
	[REPLY_SUPPRESSED] = "suppressed",
};

const char *store_reply_state_name(enum store_reply_state s)
{
	if ((int)s < 0 || s >= REPLY__COUNT)
		return "unknown";
	return reply_state_names[s];
}

void store_reply_release(struct store_reply *r)
{
	if (!r)
		return;
	free(r->message_id);
	free(r->kind);
	free(r->mail_from);
	free(r->rcpt);
	free(r->body);
	free(r->reason);
	free(r->to_addr);
	free(r->list);
	free(r->claim);
	memset(r, 0, sizeof(*r));
}

/* The id under a unique key after an INSERT changed nothing. */
static int dup_id(struct store *st, enum store_stmt_id sid, const char *sql,
		  const char *text, int64_t num, int64_t *id)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	q = store_stmt(st, sid, sql, &ret);
	if (!q)
		return ret;
	if (text)
		store_bind_text(q, 1, text, &rc);
	else
		store_bind_int64(q, 1, num, &rc);
	ret = store_bound_int64(st, q, rc, id);
	if (ret == STORE_OK)
		return STORE_DUP;
	if (ret == STORE_DONE)
		ret = store_seterr(st, STORE_ERR, "row not stored");
	return ret;
}

int store_reply_add(struct store *st, const struct store_reply *r, int64_t *id)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	*id = 0;
	if (!r->message_id)
		return store_seterr(st, STORE_ERR_RANGE, "reply without Message-ID");
	q = store_stmt(st, STMT_REPLY_ADD,
		       "INSERT INTO replies (message_id, series_id, kind,"
		       " mail_from, rcpt, body, state, reason, attempts, created,"
		       " next_attempt, sent_at, to_addr, list)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7, 0, ?8, ?9, 0,"
		       " ?10, ?11)"
		       " ON CONFLICT (message_id) DO NOTHING", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, r->message_id, &rc);
	store_bind_id(q, 2, r->series_id, &rc);
	store_bind_text(q, 3, r->kind, &rc);
	store_bind_text(q, 4, r->mail_from, &rc);
	store_bind_text(q, 5, r->rcpt, &rc);
	store_bind_text(q, 6, r->body, &rc);
	store_bind_text(q, 7, r->reason, &rc);
	store_bind_int64(q, 8, store_time_or_now(r->created), &rc);
	store_bind_int64(q, 9, r->next_attempt, &rc);
	store_bind_text(q, 10, r->to_addr, &rc);
	store_bind_text(q, 11, r->list, &rc);
	ret = store_bound_write(st, q, rc, &changes, id);
	if (ret || changes)
		return ret;
	return dup_id(st, STMT_REPLY_ID_BY_MSGID,
		      "SELECT id FROM replies WHERE message_id = ?1",
		      r->message_id, 0, id);
}

int store_reply_get(struct store *st, int64_t id, struct store_reply *r)
{
	sqlite3_stmt *q;
	int rc, ret = STORE_OK, oom = 0, state;

	store_clearerr(st);
	memset(r, 0, sizeof(*r));
	q = store_stmt(st, STMT_REPLY_GET,
		       "SELECT " REPLY_COLS " FROM replies WHERE id = ?1", &ret);
	if (!q)
		return ret;
	rc = sqlite3_bind_int64(q, 1, id);
	ret = store_bound_row(st, q, rc);
	if (ret)
		goto out;
	r->id = sqlite3_column_int64(q, 0);
	r->message_id = store_col_dup(q, 1, &oom);
	r->series_id = store_col_id(q, 2);
	r->kind = store_col_dup(q, 3, &oom);
	r->mail_from = store_col_dup(q, 4, &oom);
	r->rcpt = store_col_dup(q, 5, &oom);
	r->body = store_col_dup(q, 6, &oom);
	state = sqlite3_column_int(q, 7);
	r->state = state >= 0 && state < REPLY__COUNT ?
		   (enum store_reply_state)state : REPLY_FAILED;
	r->reason = store_col_dup(q, 8, &oom);
	r->attempts = sqlite3_column_int(q, 9);
	r->created = sqlite3_column_int64(q, 10);
	r->next_attempt = sqlite3_column_int64(q, 11);
	r->sent_at = sqlite3_column_int64(q, 12);
	r->to_addr = store_col_dup(q, 13, &oom);
	r->list = store_col_dup(q, 14, &oom);
	r->claim = store_col_dup(q, 15, &oom);
	r->claimed_at = sqlite3_column_int64(q, 16);
	if (oom) {
		store_reply_release(r);
		ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	}
out:
	store_stmt_done(q);
	return ret;
}

int store_reply_each_due(struct store *st, int64_t now,
			 int (*cb)(void *arg, int64_t id), void *arg)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_REPLY_DUE_IDS,
		       "SELECT id FROM replies WHERE state = 0"
		       " AND next_attempt <= ?1"
		       " ORDER BY kind IN ('confirm', 'request'), created, id", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, now, &rc);
	if (rc) {
		store_stmt_done(q);
		return store_sqlerr(st, rc);
	}
	return store_each_id(st, q, cb, arg);
}

/*
 * Leaves the pending state: one statement for sent, failed and
 * suppressed.  ?5 counts a delivery attempt (sent, failed) or not.
 */
static int reply_mark(struct store *st, int64_t id, enum store_reply_state state,
		      const char *reason, int keep_reason, int64_t sent_at,
		      int attempt)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_REPLY_MARK,
		       "UPDATE replies SET state = ?2,"
		       " reason = CASE WHEN ?4 THEN reason ELSE ?3 END,"
		       " sent_at = ?6, attempts = attempts + ?5,"
		       " claim = NULL, claimed_at = 0"
		       " WHERE id = ?1 AND state = 0", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_int64(q, 2, (int64_t)state, &rc);
	store_bind_text(q, 3, reason, &rc);
	store_bind_int64(q, 4, keep_reason, &rc);
	store_bind_int64(q, 5, attempt, &rc);
	store_bind_int64(q, 6, sent_at, &rc);
	return store_bound_change(st, q, rc);
}

int store_reply_mark_sent(struct store *st, int64_t id, int64_t when)
{
	return reply_mark(st, id, REPLY_SENT, NULL, 1,
			  store_time_or_now(when), 1);
}

int store_reply_mark_failed(struct store *st, int64_t id, const char *reason)
{
	return reply_mark(st, id, REPLY_FAILED, reason, 0, 0, 1);
}

int store_reply_mark_suppressed(struct store *st, int64_t id, const char *reason)
{
	return reply_mark(st, id, REPLY_SUPPRESSED, reason, 0, 0, 0);
}

int store_reply_defer(struct store *st, int64_t id, const char *reason,
		      int64_t next_attempt)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_REPLY_DEFER,
		       "UPDATE replies SET attempts = attempts + 1, reason = ?2,"
		       " next_attempt = ?3, claim = NULL, claimed_at = 0"
		       " WHERE id = ?1 AND state = 0", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_text(q, 2, reason, &rc);
	store_bind_int64(q, 3, next_attempt, &rc);
	return store_bound_change(st, q, rc);
}

int store_reply_claim(struct store *st, int64_t id, const char *owner,
		      const char *prev, int64_t now)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!owner)
		return store_seterr(st, STORE_ERR_RANGE, "no owner");
	/* "IS": NULL matches NULL; of two processes that read the same
	 * claim, the first statement to run takes it */
	q = store_stmt(st, STMT_REPLY_CLAIM,
		       "UPDATE replies SET claim = ?2, claimed_at = ?3"
		       " WHERE id = ?1 AND state = 0 AND claim IS ?4", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_text(q, 2, owner, &rc);
	store_bind_int64(q, 3, store_time_or_now(now), &rc);
	store_bind_text(q, 4, prev, &rc);
	return store_bound_change(st, q, rc);
}

int store_reply_count(struct store *st, long long counts[REPLY__COUNT])
{
	sqlite3_stmt *q;
	int ret = STORE_OK;

	store_clearerr(st);
	memset(counts, 0, sizeof(counts[0]) * REPLY__COUNT);
	q = store_stmt(st, STMT_REPLY_COUNT,
		       "SELECT state, count(*) FROM replies GROUP BY state", &ret);
	if (!q)
		return ret;
	return store_step_counts(st, q, counts, REPLY__COUNT);
}

int store_reply_count_since(struct store *st, int64_t since, long long *n)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, STMT_REPLY_COUNT_SINCE,
		       "SELECT count(*) FROM replies WHERE state = 1"
		       " AND sent_at >= ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, since, &rc);
	return store_bound_count(st, q, rc, n);
}

int store_reply_count_sent_kind(struct store *st, int64_t since, const char *kind,
				int same, long long *n)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	if (!kind)
		return store_seterr(st, STORE_ERR_RANGE, "no kind");
	q = store_stmt(st, STMT_REPLY_COUNT_SENT_KIND,
		       "SELECT count(*) FROM replies WHERE state = 1"
		       " AND sent_at >= ?1 AND (kind IS ?2) = ?3", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, since, &rc);
	store_bind_text(q, 2, kind, &rc);
	store_bind_int64(q, 3, same ? 1 : 0, &rc);
	return store_bound_count(st, q, rc, n);
}

int store_reply_count_sent(struct store *st, int64_t since, const char *to_addr,
			   const char *list, long long *n)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, STMT_REPLY_COUNT_SENT,
		       "SELECT count(*) FROM replies WHERE state = 1"
		       " AND sent_at >= ?1 AND (?2 IS NULL OR to_addr = ?2)"
		       " AND (?3 IS NULL OR list = ?3)", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, since, &rc);
	store_bind_text(q, 2, to_addr, &rc);
	store_bind_text(q, 3, list, &rc);
	return store_bound_count(st, q, rc, n);
}

int store_reply_count_kind(struct store *st, const char *kind, const char *to_addr,
			   int64_t since, long long *n)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	if (!kind)
		return store_seterr(st, STORE_ERR_RANGE, "no kind");
	q = store_stmt(st, STMT_REPLY_COUNT_KIND,
		       "SELECT count(*) FROM replies WHERE kind = ?1"
		       " AND (?2 IS NULL OR to_addr = ?2) AND created >= ?3"
		       " AND state != 3", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, kind, &rc);
	store_bind_text(q, 2, to_addr, &rc);
	store_bind_int64(q, 3, since, &rc);
	return store_bound_count(st, q, rc, n);
}

int store_reply_sent_window(struct store *st, int64_t since, const char *to_addr,
			    const char *list, int confirm, long long *n, int64_t *oldest)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	if (oldest)
		*oldest = 0;
	q = store_stmt(st, STMT_REPLY_SENT_WINDOW,
		       "SELECT count(*), coalesce(min(sent_at), 0) FROM replies"
		       " WHERE state = 1 AND sent_at >= ?1"
		       " AND (?2 IS NULL OR to_addr = ?2) AND (?3 IS NULL OR list = ?3)"
		       " AND (?4 < 0 OR (CASE kind WHEN 'confirm' THEN 1"
		       "  WHEN 'request' THEN 2 ELSE 0 END) = ?4)", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, since, &rc);
	store_bind_text(q, 2, to_addr, &rc);
	store_bind_text(q, 3, list, &rc);
	store_bind_int64(q, 4, confirm < 0 ? -1 : confirm, &rc);
	ret = store_bound_row(st, q, rc);
	if (ret == STORE_OK) {
		*n = sqlite3_column_int64(q, 0);
		if (oldest)
			*oldest = sqlite3_column_int64(q, 1);
	}
	store_stmt_done(q);
	return ret == STORE_DONE ? STORE_OK : ret;
}

int store_reply_hold(struct store *st, int64_t id, const char *why, int64_t until)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_REPLY_HOLD,
		       "UPDATE replies SET reason = ?2, next_attempt = ?3"
		       " WHERE id = ?1 AND state = 0", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_text(q, 2, why, &rc);
	store_bind_int64(q, 3, until, &rc);
	return store_bound_change(st, q, rc);
}

int store_reply_set_rcpt(struct store *st, int64_t id, const char *rcpt,
			 const char *list, const char *body)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!rcpt || !body)
		return store_seterr(st, STORE_ERR_RANGE, "no recipient or no mail");
	q = store_stmt(st, STMT_REPLY_SET_RCPT,
		       "UPDATE replies SET rcpt = ?2, list = ?3, body = ?4"
		       " WHERE id = ?1 AND state = 0", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_text(q, 2, rcpt, &rc);
	store_bind_text(q, 3, list, &rc);
	store_bind_text(q, 4, body, &rc);
	return store_bound_change(st, q, rc);
}

int store_reply_count_waiting(struct store *st, int64_t now, const char *prefix,
			      long long *n, int64_t *first)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	*first = 0;
	if (!prefix)
		return store_seterr(st, STORE_ERR_RANGE, "no prefix");
	/* substr, not LIKE: the prefix is text, not a pattern */
	q = store_stmt(st, STMT_REPLY_COUNT_WAITING,
		       "SELECT count(*), coalesce(min(next_attempt), 0) FROM replies"
		       " WHERE state = 0 AND next_attempt > ?1"
		       " AND substr(reason, 1, length(?2)) = ?2", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, now, &rc);
	store_bind_text(q, 2, prefix, &rc);
	ret = store_bound_row(st, q, rc);
	if (ret == STORE_OK) {
		*n = sqlite3_column_int64(q, 0);
		*first = sqlite3_column_int64(q, 1);
	}
	store_stmt_done(q);
	return ret == STORE_DONE ? STORE_OK : ret;
}

int store_reply_count_reason(struct store *st, enum store_reply_state state,
			     const char *reason, long long *n)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, STMT_REPLY_COUNT_REASON,
		       "SELECT count(*) FROM replies WHERE state = ?1 AND reason = ?2",
		       &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, (int64_t)state, &rc);
	store_bind_text(q, 2, reason, &rc);
	return store_bound_count(st, q, rc, n);
}

int store_reply_find(struct store *st, const char *message_id, int64_t *id)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*id = 0;
	if (!message_id)
		return STORE_DONE;
	q = store_stmt(st, STMT_REPLY_ID_BY_MSGID,
		       "SELECT id FROM replies WHERE message_id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, message_id, &rc);
	return store_bound_int64(st, q, rc, id);
}

/* ---- reviews ------------------------------------------------------------- */

int store_review_add(struct store *st, const struct store_review *r, int64_t *id)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	*id = 0;
	q = store_stmt(st, STMT_REVIEW_ADD,
		       "INSERT INTO reviews (series_id, reply_id, created,"
		       " findings, nits, fixed, added, still)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
		       " ON CONFLICT (series_id) DO NOTHING", &ret);
	if (!q)
		return ret;
	store_bind_id(q, 1, r->series_id, &rc);
	store_bind_id(q, 2, r->reply_id, &rc);
	store_bind_int64(q, 3, store_time_or_now(r->created), &rc);
	store_bind_int64(q, 4, r->findings, &rc);
	store_bind_int64(q, 5, r->nits, &rc);
	store_bind_int64(q, 6, r->fixed, &rc);
	store_bind_int64(q, 7, r->added, &rc);
	store_bind_int64(q, 8, r->still, &rc);
	ret = store_bound_write(st, q, rc, &changes, id);
	if (ret || changes)
		return ret;
	return dup_id(st, STMT_REVIEW_ID_BY_SERIES,
		      "SELECT id FROM reviews WHERE series_id = ?1",
		      NULL, r->series_id, id);
}

int store_review_get_by_series(struct store *st, int64_t series_id,
			       struct store_review *r)
{
	sqlite3_stmt *q;
	int rc, ret = STORE_OK;

	store_clearerr(st);
	memset(r, 0, sizeof(*r));
	q = store_stmt(st, STMT_REVIEW_GET,
		       "SELECT id, series_id, reply_id, created, findings, nits,"
		       " fixed, added, still FROM reviews WHERE series_id = ?1",
		       &ret);
	if (!q)
		return ret;
	rc = sqlite3_bind_int64(q, 1, series_id);
	ret = store_bound_row(st, q, rc);
	if (ret)
		goto out;
	r->id = sqlite3_column_int64(q, 0);
	r->series_id = store_col_id(q, 1);
	r->reply_id = store_col_id(q, 2);
	r->created = sqlite3_column_int64(q, 3);
	r->findings = (long)sqlite3_column_int64(q, 4);
	r->nits = (long)sqlite3_column_int64(q, 5);
	r->fixed = (long)sqlite3_column_int64(q, 6);
	r->added = (long)sqlite3_column_int64(q, 7);
	r->still = (long)sqlite3_column_int64(q, 8);
out:
	store_stmt_done(q);
	return ret;
}

/* ---- opt-outs ------------------------------------------------------------ */

int store_optout_set(struct store *st, const char *addr,
		     enum store_optout_mode mode, int64_t when)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!addr)
		return store_seterr(st, STORE_ERR_RANGE, "no address");
	if (mode != OPTOUT_SILENT && mode != OPTOUT_PRIVATE)
		return store_seterr(st, STORE_ERR_RANGE, "bad opt-out mode %d",
				    (int)mode);
	q = store_stmt(st, STMT_OPTOUT_SET,
		       "INSERT INTO optouts (addr, mode, created)"
		       " VALUES (?1, ?2, ?3) ON CONFLICT (addr) DO UPDATE"
		       " SET mode = excluded.mode, created = excluded.created",
		       &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, addr, &rc);
	store_bind_int64(q, 2, (int64_t)mode, &rc);
	store_bind_int64(q, 3, store_time_or_now(when), &rc);
	return store_bound_write(st, q, rc, NULL, NULL);
}

int store_optout_get(struct store *st, const char *addr,
		     enum store_optout_mode *mode)
{
	sqlite3_stmt *q;
	int64_t v = 0;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*mode = OPTOUT_SILENT;
	if (!addr)
		return STORE_DONE;
	q = store_stmt(st, STMT_OPTOUT_GET,
		       "SELECT mode FROM optouts WHERE addr = ?1", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, addr, &rc);
	ret = store_bound_int64(st, q, rc, &v);
	/* an unknown mode is the strictest one */
	if (ret == STORE_OK)
		*mode = v == OPTOUT_PRIVATE ? OPTOUT_PRIVATE : OPTOUT_SILENT;
	return ret;
}

/* STORE_DONE when addr had not opted out. */
int store_optout_remove(struct store *st, const char *addr)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!addr)
		return STORE_DONE;
	q = store_stmt(st, STMT_OPTOUT_REMOVE,
		       "DELETE FROM optouts WHERE addr = ?1", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, addr, &rc);
	return store_bound_change(st, q, rc);
}

int store_optout_count(struct store *st, long long *n)
{
	sqlite3_stmt *q;
	int ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, STMT_OPTOUT_COUNT, "SELECT count(*) FROM optouts",
		       &ret);
	if (!q)
		return ret;
	return store_bound_count(st, q, SQLITE_OK, n);
}

/* ---- checkpoints --------------------------------------------------------- */

int store_checkpoint_set(struct store *st, const char *source,
			 const char *value, int64_t when)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!source || !value)
		return store_seterr(st, STORE_ERR_RANGE, "no source or value");
	q = store_stmt(st, STMT_CHECKPOINT_SET,
		       "INSERT INTO checkpoints (source, value, updated)"
		       " VALUES (?1, ?2, ?3) ON CONFLICT (source) DO UPDATE"
		       " SET value = excluded.value, updated = excluded.updated",
		       &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, source, &rc);
	store_bind_text(q, 2, value, &rc);
	store_bind_int64(q, 3, store_time_or_now(when), &rc);
	return store_bound_write(st, q, rc, NULL, NULL);
}

int store_checkpoint_get(struct store *st, const char *source, char **value)
{
	sqlite3_stmt *q;
	int rc, ret = STORE_OK, oom = 0;

	store_clearerr(st);
	*value = NULL;
	if (!source)
		return STORE_DONE;
	q = store_stmt(st, STMT_CHECKPOINT_GET,
		       "SELECT value FROM checkpoints WHERE source = ?1", &ret);
	if (!q)
		return ret;
	rc = SQLITE_OK;
	store_bind_text(q, 1, source, &rc);
	ret = store_bound_row(st, q, rc);
	if (ret)
		goto out;
	*value = store_col_dup(q, 0, &oom);
	if (oom)
		ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	else if (!*value)
		ret = STORE_DONE;
out:
	store_stmt_done(q);
	return ret;
}

/* The strings passed to cb point into SQLite's row: valid during the call. */
int store_checkpoint_each(struct store *st,
			  int (*cb)(void *arg, const char *source,
				    const char *value, int64_t updated),
			  void *arg)
{
	sqlite3_stmt *q;
	int rc, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_CHECKPOINT_EACH,
		       "SELECT source, value, updated FROM checkpoints"
		       " ORDER BY source", &ret);
	if (!q)
		return ret;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *src = (const char *)sqlite3_column_text(q, 0);
		const char *val = (const char *)sqlite3_column_text(q, 1);

		if (!src || !val) {
			ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
			goto out;
		}
		ret = cb(arg, src, val, sqlite3_column_int64(q, 2));
		if (ret)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = store_sqlerr(st, rc);
out:
	store_stmt_done(q);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: messages and their raw bytes.
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

#include "../checker/banned.h"

#define MSG_COLS \
	"id, message_id, source, list, from_addr, from_name, subject, date," \
	" received, in_reply_to, refs, state, reason, series_id, attempts, claim," \
	" claimed_at"

static const char *const msg_state_names[MSG__COUNT] = {
	[MSG_NEW] = "new",
	[MSG_PATCH] = "patch",
	[MSG_COVER] = "cover",
	[MSG_REPLY] = "reply",
	[MSG_COMMAND] = "command",
	[MSG_SKIPPED] = "skipped",
	[MSG_BAD] = "bad",
};

const char *store_msg_state_name(enum store_msg_state s)
{
	if ((int)s < 0 || s >= MSG__COUNT)
		return "unknown";
	return msg_state_names[s];
}

void store_msg_release(struct store_msg *m)
{
	if (!m)
		return;
	free(m->message_id);
	free(m->source);
	free(m->list);
	free(m->from_addr);
	free(m->from_name);
	free(m->subject);
	free(m->in_reply_to);
	free(m->refs);
	free(m->reason);
	free(m->claim);
	memset(m, 0, sizeof(*m));
}

static int msg_from_row(struct store *st, sqlite3_stmt *s, struct store_msg *m)
{
	int oom = 0, state;

	memset(m, 0, sizeof(*m));
	m->id = sqlite3_column_int64(s, 0);
	m->message_id = store_col_dup(s, 1, &oom);
	m->source = store_col_dup(s, 2, &oom);
	m->list = store_col_dup(s, 3, &oom);
	m->from_addr = store_col_dup(s, 4, &oom);
	m->from_name = store_col_dup(s, 5, &oom);
	m->subject = store_col_dup(s, 6, &oom);
	m->date = sqlite3_column_int64(s, 7);
	m->received = sqlite3_column_int64(s, 8);
	m->in_reply_to = store_col_dup(s, 9, &oom);
	m->refs = store_col_dup(s, 10, &oom);
	state = sqlite3_column_int(s, 11);
	m->state = state >= 0 && state < MSG__COUNT ? (enum store_msg_state)state
						    : MSG_BAD;
	m->reason = store_col_dup(s, 12, &oom);
	m->series_id = store_col_id(s, 13);
	m->attempts = sqlite3_column_int(s, 14);
	m->claim = store_col_dup(s, 15, &oom);
	m->claimed_at = sqlite3_column_int64(s, 16);
	if (oom) {
		store_msg_release(m);
		return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	}
	return STORE_OK;
}

/* Steps a lookup (rc the result of its binds): STORE_OK with m filled,
 * or STORE_DONE.  Finishes s. */
static int msg_lookup(struct store *st, sqlite3_stmt *s, int rc,
		      struct store_msg *m)
{
	int ret;

	ret = store_bound_row(st, s, rc);
	if (ret == STORE_OK)
		ret = msg_from_row(st, s, m);
	store_stmt_done(s);
	return ret;
}

static int msg_id_by_msgid(struct store *st, const char *message_id,
			   int64_t *id)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	s = store_stmt(st, STMT_MSG_ID_BY_MSGID,
		       "SELECT id FROM messages WHERE message_id = ?1", &ret);
	if (!s)
		return ret;
	store_bind_text(s, 1, message_id, &rc);
	return store_bound_int64(st, s, rc, id);
}

static int msg_insert(struct store *st, const struct store_msg *m,
		      int *changes, int64_t *id)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	s = store_stmt(st, STMT_MSG_ADD,
		       "INSERT INTO messages (message_id, source, list,"
		       " from_addr, from_name, subject, date, received,"
		       " in_reply_to, refs, state)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 0)"
		       " ON CONFLICT (message_id) DO NOTHING", &ret);
	if (!s)
		return ret;
	store_bind_text(s, 1, m->message_id, &rc);
	store_bind_text(s, 2, m->source, &rc);
	store_bind_text(s, 3, m->list, &rc);
	store_bind_text(s, 4, m->from_addr, &rc);
	store_bind_text(s, 5, m->from_name, &rc);
	store_bind_text(s, 6, m->subject, &rc);
	store_bind_int64(s, 7, m->date, &rc);
	store_bind_int64(s, 8, store_time_or_now(m->received), &rc);
	store_bind_text(s, 9, m->in_reply_to, &rc);
	store_bind_text(s, 10, m->refs, &rc);
	return store_bound_write(st, s, rc, changes, id);
}

static int msg_raw_insert(struct store *st, int64_t id, const void *raw,
			  size_t rawlen)
{
	sqlite3_stmt *s;
	int rc, ret = STORE_OK;

	s = store_stmt(st, STMT_MSG_RAW_ADD,
		       "INSERT INTO message_raw (msg_id, raw) VALUES (?1, ?2)",
		       &ret);
	if (!s)
		return ret;
	rc = sqlite3_bind_int64(s, 1, id);
	if (rc == SQLITE_OK) {
		/* a NULL pointer would bind SQL NULL: empty is a zeroblob */
		if (rawlen)
			rc = sqlite3_bind_blob64(s, 2, raw, rawlen, SQLITE_STATIC);
		else
			rc = sqlite3_bind_zeroblob(s, 2, 0);
	}
	return store_bound_write(st, s, rc, NULL, NULL);
}

int store_msg_add(struct store *st, const struct store_msg *m,
		  const void *raw, size_t rawlen, int64_t *id)
{
	int64_t newid = 0;
	int ret, own, changes = 0;

	store_clearerr(st);
	*id = 0;
	if (!m->message_id)
		return store_seterr(st, STORE_ERR_RANGE, "message without Message-ID");
	if (rawlen > STORE_MAX_RAW)
		return store_seterr(st, STORE_ERR_RANGE,
				    "message of %zu bytes is larger than %u",
				    rawlen, STORE_MAX_RAW);
	if (rawlen && !raw)
		return store_seterr(st, STORE_ERR_RANGE, "no raw bytes");

	/* the row and its bytes go in together */
	ret = store_tx_enter(st, &own);
	if (ret)
		return ret;
	ret = msg_insert(st, m, &changes, &newid);
	if (ret)
		goto out;
	if (!changes) {
		ret = msg_id_by_msgid(st, m->message_id, &newid);
		if (ret == STORE_OK)
			ret = STORE_DUP;
		else if (ret == STORE_DONE)
			ret = store_seterr(st, STORE_ERR, "message not stored");
		goto out;
	}
	ret = msg_raw_insert(st, newid, raw, rawlen);
out:
	ret = store_tx_leave(st, own, ret);
	if (ret >= 0)
		*id = newid;
	return ret;
}

int store_msg_set_state(struct store *st, int64_t id,
			enum store_msg_state state, const char *reason)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if ((int)state < 0 || state >= MSG__COUNT)
		return store_seterr(st, STORE_ERR_RANGE, "bad message state %d",
				    (int)state);
	/* out of state new, nothing is under way any more */
	s = store_stmt(st, STMT_MSG_SET_STATE,
		       "UPDATE messages SET state = ?2, reason = ?3,"
		       " attempts = CASE WHEN ?2 = 0 THEN attempts ELSE 0 END,"
		       " claim = CASE WHEN ?2 = 0 THEN claim END,"
		       " claimed_at = CASE WHEN ?2 = 0 THEN claimed_at ELSE 0 END"
		       " WHERE id = ?1", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	store_bind_int64(s, 2, (int64_t)state, &rc);
	store_bind_text(s, 3, reason, &rc);
	return store_bound_change(st, s, rc);
}

int store_msg_claim(struct store *st, int64_t id, const char *owner,
		    const char *prev, int64_t now)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!owner)
		return store_seterr(st, STORE_ERR_RANGE, "no owner");
	/* "IS": NULL matches NULL, so an unclaimed row is taken only while
	 * nobody took it */
	s = store_stmt(st, STMT_MSG_CLAIM,
		       "UPDATE messages SET attempts = attempts + 1, claim = ?2,"
		       " claimed_at = ?3 WHERE id = ?1 AND state = 0 AND claim IS ?4",
		       &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	store_bind_text(s, 2, owner, &rc);
	store_bind_int64(s, 3, store_time_or_now(now), &rc);
	store_bind_text(s, 4, prev, &rc);
	return store_bound_change(st, s, rc);
}

int store_msg_unclaim(struct store *st, const char *owner, long long *n)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	if (n)
		*n = 0;
	if (!owner)
		return store_seterr(st, STORE_ERR_RANGE, "no owner");
	s = store_stmt(st, STMT_MSG_UNCLAIM,
		       "UPDATE messages SET attempts = max(attempts - 1, 0),"
		       " claim = NULL, claimed_at = 0 WHERE claim = ?1 AND state = 0",
		       &ret);
	if (!s)
		return ret;
	store_bind_text(s, 1, owner, &rc);
	ret = store_bound_write(st, s, rc, &changes, NULL);
	if (ret == STORE_OK && n)
		*n = changes;
	return ret;
}

int store_msg_set_series(struct store *st, int64_t id, int64_t series_id)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = store_stmt(st, STMT_MSG_SET_SERIES,
		       "UPDATE messages SET series_id = ?2 WHERE id = ?1", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	store_bind_id(s, 2, series_id, &rc);
	return store_bound_change(st, s, rc);
}

int store_msg_get(struct store *st, int64_t id, struct store_msg *m)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	memset(m, 0, sizeof(*m));
	s = store_stmt(st, STMT_MSG_GET,
		       "SELECT " MSG_COLS " FROM messages WHERE id = ?1", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	return msg_lookup(st, s, rc, m);
}

int store_msg_find(struct store *st, const char *message_id, struct store_msg *m)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	memset(m, 0, sizeof(*m));
	if (!message_id)
		return STORE_DONE;
	s = store_stmt(st, STMT_MSG_FIND,
		       "SELECT " MSG_COLS " FROM messages WHERE message_id = ?1",
		       &ret);
	if (!s)
		return ret;
	store_bind_text(s, 1, message_id, &rc);
	return msg_lookup(st, s, rc, m);
}

int store_msg_raw(struct store *st, int64_t id, void **raw, size_t *len)
{
	sqlite3_stmt *s;
	const void *p;
	size_t n;
	int rc, ret = STORE_OK;

	store_clearerr(st);
	*raw = NULL;
	*len = 0;
	s = store_stmt(st, STMT_MSG_RAW,
		       "SELECT raw FROM message_raw WHERE msg_id = ?1", &ret);
	if (!s)
		return ret;
	rc = sqlite3_bind_int64(s, 1, id);
	ret = store_bound_row(st, s, rc);
	if (ret)
		goto out;
	p = sqlite3_column_blob(s, 0);
	n = (size_t)sqlite3_column_bytes(s, 0);
	if (n && !p) {
		ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
		goto out;
	}
	*raw = malloc(n ? n : 1);
	if (!*raw) {
		ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (n)
		memcpy(*raw, p, n);
	*len = n;
out:
	store_stmt_done(s);
	return ret;
}

int store_msg_each_new(struct store *st,
		       int (*cb)(void *arg, int64_t id), void *arg)
{
	sqlite3_stmt *s;
	int ret = STORE_OK;

	store_clearerr(st);
	/* ids grow with arrival: "oldest first" is the order they were stored */
	s = store_stmt(st, STMT_MSG_NEW_IDS,
		       "SELECT id FROM messages WHERE state = 0 ORDER BY id", &ret);
	if (!s)
		return ret;
	return store_each_id(st, s, cb, arg);
}

int store_msg_count(struct store *st, long long counts[MSG__COUNT])
{
	sqlite3_stmt *s;
	int ret = STORE_OK;

	store_clearerr(st);
	memset(counts, 0, sizeof(counts[0]) * MSG__COUNT);
	s = store_stmt(st, STMT_MSG_COUNT,
		       "SELECT state, count(*) FROM messages GROUP BY state", &ret);
	if (!s)
		return ret;
	return store_step_counts(st, s, counts, MSG__COUNT);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: messages and their raw bytes, and the copies of a Message-ID
 * (schema 11, store.h).
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

#include "../checker/banned.h"

#define MSG_COLS \
	"id, message_id, source, list, from_addr, from_name, subject, date," \
	" received, in_reply_to, refs, state, reason, series_id, attempts, claim," \
	" claimed_at"
/* schema 11 on: the copy the row holds too (a test opens older ones) */
#define MSG_COLS11	MSG_COLS ", hash, via, via_lists"
#define HAS_COPIES(st)	((st)->version >= 13)

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
	free(m->hash);
	free(m->via_lists);
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
	if (sqlite3_column_count(s) > 17) {
		m->hash = store_col_dup(s, 17, &oom);
		m->via = sqlite3_column_int(s, 18);
		m->via_lists = store_col_dup(s, 19, &oom);
	}
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

	if (HAS_COPIES(st))
		s = store_stmt(st, STMT_MSG_ADD11,
			       "INSERT INTO messages (message_id, source, list,"
			       " from_addr, from_name, subject, date, received,"
			       " in_reply_to, refs, state, hash, via, via_lists)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 0, ?11, ?12, ?13)"
			       " ON CONFLICT (message_id) DO NOTHING", &ret);
	else
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
	if (HAS_COPIES(st)) {
		store_bind_text(s, 11, m->hash, &rc);
		store_bind_int64(s, 12, m->via, &rc);
		store_bind_text(s, 13, m->via_lists, &rc);
	}
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
	s = HAS_COPIES(st) ?
	    store_stmt(st, STMT_MSG_GET11, "SELECT " MSG_COLS11 " FROM messages WHERE id = ?1",
		       &ret) :
	    store_stmt(st, STMT_MSG_GET, "SELECT " MSG_COLS " FROM messages WHERE id = ?1",
		       &ret);
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
	s = HAS_COPIES(st) ?
	    store_stmt(st, STMT_MSG_FIND11,
		       "SELECT " MSG_COLS11 " FROM messages WHERE message_id = ?1", &ret) :
	    store_stmt(st, STMT_MSG_FIND,
		       "SELECT " MSG_COLS " FROM messages WHERE message_id = ?1", &ret);
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

/* ---- the copies of a Message-ID (schema 11) --------------------------------- */

#define COPY_MAX_LISTS	4096	/* bytes of a merged via_lists */

/* a ','-separated list holds item (whole) */
static int list_has(const char *list, const char *item, size_t n)
{
	const char *p = list;

	while (p && *p) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, item, n))
			return 1;
		p += k;
		if (*p)
			p++;
	}
	return 0;
}

/* a and b merged (a's first, then what b adds), malloc'd; NULL when out
 * of memory or past COPY_MAX_LISTS (then a alone is kept) */
static char *lists_merge(const char *a, const char *b)
{
	size_t na = a ? strlen(a) : 0, nb = b ? strlen(b) : 0, n = na, k;
	char *out = malloc(na + nb + 2);
	const char *p;

	if (!out)
		return NULL;
	memcpy(out, a ? a : "", na);
	out[n] = '\0';
	for (p = b; p && *p; p += k + (p[k] ? 1 : 0)) {
		k = strcspn(p, ",");
		if (!k || list_has(out, p, k))
			continue;
		if (n + k + 1 > COPY_MAX_LISTS)
			break;
		if (n)
			out[n++] = ',';
		memcpy(out + n, p, k);
		n += k;
		out[n] = '\0';
	}
	return out;
}

int store_msg_merge_copy(struct store *st, int64_t id, const struct store_msg *copy,
			 const char *list_id)
{
	struct store_msg row;
	sqlite3_stmt *s;
	char *lists;
	int rc = SQLITE_OK, ret, better;

	ret = store_msg_get(st, id, &row);
	if (ret)
		return ret == STORE_DONE ? store_seterr(st, STORE_ERR, "no message %lld",
							(long long)id) : ret;
	better = copy->via > row.via;
	lists = lists_merge(row.via_lists ? row.via_lists : "", copy->via_lists);
	store_msg_release(&row);
	if (!lists)
		return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	store_clearerr(st);
	s = store_stmt(st, STMT_MSG_MERGE_COPY,
		       "UPDATE messages SET hash = coalesce(hash, ?2), via_lists = ?3,"
		       " via = CASE WHEN ?4 THEN ?5 ELSE via END,"
		       " source = CASE WHEN ?4 THEN ?6 ELSE source END,"
		       " list = CASE WHEN ?4 THEN ?7 ELSE list END,"
		       " list_id = CASE WHEN ?4 THEN coalesce(?8, list_id) ELSE list_id END"
		       " WHERE id = ?1", &ret);
	if (!s) {
		free(lists);
		return ret;
	}
	store_bind_int64(s, 1, id, &rc);
	store_bind_text(s, 2, copy->hash, &rc);
	store_bind_text(s, 3, lists, &rc);
	store_bind_int64(s, 4, better, &rc);
	store_bind_int64(s, 5, copy->via, &rc);
	store_bind_text(s, 6, copy->source, &rc);
	store_bind_text(s, 7, copy->list, &rc);
	store_bind_text(s, 8, list_id, &rc);
	ret = store_bound_change(st, s, rc);
	free(lists);
	return ret;
}

int store_msg_copy_add(struct store *st, int64_t id, const struct store_msg *copy,
		       const void *raw, size_t rawlen, const char *reason)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	if (!copy->hash)
		return store_seterr(st, STORE_ERR_RANGE, "a copy without its hash");
	if (rawlen > STORE_MAX_RAW || (rawlen && !raw))
		return store_seterr(st, STORE_ERR_RANGE, "copy of %zu bytes", rawlen);
	s = store_stmt(st, STMT_MSG_COPY_ADD,
		       "INSERT INTO message_copies (msg_id, hash, source, via, via_lists,"
		       " from_addr, subject, date, received, reason, raw)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
		       " ON CONFLICT (msg_id, hash) DO NOTHING", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	store_bind_text(s, 2, copy->hash, &rc);
	store_bind_text(s, 3, copy->source, &rc);
	store_bind_int64(s, 4, copy->via, &rc);
	store_bind_text(s, 5, copy->via_lists, &rc);
	store_bind_text(s, 6, copy->from_addr, &rc);
	store_bind_text(s, 7, copy->subject, &rc);
	store_bind_int64(s, 8, copy->date, &rc);
	store_bind_int64(s, 9, store_time_or_now(copy->received), &rc);
	store_bind_text(s, 10, reason, &rc);
	if (rc == SQLITE_OK)
		rc = rawlen ? sqlite3_bind_blob64(s, 11, raw, rawlen, SQLITE_STATIC) :
		     sqlite3_bind_zeroblob(s, 11, 0);
	ret = store_bound_write(st, s, rc, &changes, NULL);
	return ret ? ret : changes ? STORE_OK : STORE_DUP;
}

int store_msg_copy_count(struct store *st, int64_t id, long long *n)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = store_stmt(st, STMT_MSG_COPY_COUNT,
		       "SELECT count(*) FROM message_copies WHERE msg_id = ?1", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	return store_bound_count(st, s, rc, n);
}

/* One statement of store_msg_replace: ?1 the id, ?2 text (when not NULL). */
static int copy_step(struct store *st, enum store_stmt_id sid, const char *sql,
		     int64_t id, const char *text)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	s = store_stmt(st, sid, sql, &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	if (text)
		store_bind_text(s, 2, text, &rc);
	return store_bound_write(st, s, rc, NULL, NULL);
}

#define COPY_MAX_SERIES	16	/* series one message's copy touched */

struct series_ids {
	int64_t v[COPY_MAX_SERIES];
	size_t n;
};

static int series_id_row(struct store *st, sqlite3_stmt *s, void *arg)
{
	struct series_ids *ids = arg;

	(void)st;
	if (ids->n < COPY_MAX_SERIES)
		ids->v[ids->n++] = sqlite3_column_int64(s, 0);
	return 0;
}

/* What the old copy of message id made, in series sid, undone (see
 * store.h); reason for the log of what was dropped. */
static int settle_series(struct store *st, int64_t sid, int64_t id)
{
	sqlite3_stmt *s;
	int64_t review = 0;
	int rc = SQLITE_OK, ret = STORE_OK;

	/* left without any mail: put aside, so nothing joins it again */
	s = store_stmt(st, STMT_MSG_COPY_SERIES_EMPTY,
		       "SELECT 1 FROM series s WHERE s.id = ?1 AND s.cover_msg IS NULL"
		       " AND NOT EXISTS (SELECT 1 FROM patches p WHERE p.series_id = s.id)"
		       " AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.series_id = s.id"
		       "  AND m.id != ?2)", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, sid, &rc);
	store_bind_int64(s, 2, id, &rc);
	ret = store_bound_row(st, s, rc);
	store_stmt_done(s);
	if (ret < 0)
		return ret;
	if (ret == STORE_OK) {
		ret = copy_step(st, STMT_MSG_COPY_RETIRE,
				"UPDATE series SET state = 2 WHERE id = ?1", sid, NULL);
		if (!ret)
			ret = copy_step(st, STMT_MSG_COPY_RETIRE_REFS,
					"DELETE FROM series_refs WHERE series_id = ?1", sid, NULL);
		if (!ret)
			ret = copy_step(st, STMT_MSG_COPY_RETIRE_STAGES,
					"DELETE FROM stages WHERE series_id = ?1"
					" AND state = 'queued'", sid, NULL);
		if (ret)
			return ret;
	}
	/* a review nobody saw yet (no mail, or one not sent) is made again
	 * with the new copy: the review and its unsent mails go */
	rc = SQLITE_OK;
	s = store_stmt(st, STMT_MSG_COPY_UNSENT_REVIEW,
		       "SELECT r.id FROM reviews r WHERE r.series_id = ?1"
		       " AND NOT EXISTS (SELECT 1 FROM replies rp WHERE rp.series_id = ?1"
		       "  AND rp.state IN (1, 2))", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, sid, &rc);
	ret = store_bound_int64(st, s, rc, &review);
	if (ret < 0)
		return ret;
	if (ret == STORE_DONE)
		return STORE_OK;
	ret = copy_step(st, STMT_MSG_COPY_DROP_REVIEW,
			"DELETE FROM reviews WHERE id = ?1", review, NULL);
	if (!ret)
		ret = copy_step(st, STMT_MSG_COPY_DROP_REPLIES,
				"DELETE FROM replies WHERE series_id = ?1 AND state IN (0, 3)",
				sid, NULL);
	if (!ret)
		ret = copy_step(st, STMT_MSG_COPY_REOPEN,
				"UPDATE series SET state = 0, reviewed_at = 0"
				" WHERE id = ?1 AND state = 1", sid, NULL);
	return ret;
}

int store_msg_replace(struct store *st, int64_t id, const char *old_hash,
		      const struct store_msg *copy, const void *raw, size_t rawlen,
		      const char *reason)
{
	struct series_ids ids = { { 0 }, 0 };
	struct store_msg row;
	sqlite3_stmt *s;
	size_t i;
	int rc = SQLITE_OK, ret, own;

	store_clearerr(st);
	if (!old_hash || !copy->hash)
		return store_seterr(st, STORE_ERR_RANGE, "a copy without its hash");
	if (rawlen > STORE_MAX_RAW || (rawlen && !raw))
		return store_seterr(st, STORE_ERR_RANGE, "copy of %zu bytes", rawlen);
	ret = store_msg_get(st, id, &row);
	if (ret)
		return ret == STORE_DONE ? store_seterr(st, STORE_ERR, "no message %lld",
							(long long)id) : ret;
	ret = store_tx_enter(st, &own);
	if (ret)
		goto out_row;
	/* the old copy, kept */
	s = store_stmt(st, STMT_MSG_COPY_KEEP_ROW,
		       "INSERT INTO message_copies (msg_id, hash, source, via, via_lists,"
		       " from_addr, subject, date, received, reason, raw)"
		       " SELECT m.id, ?2, m.source, m.via, m.via_lists, m.from_addr, m.subject,"
		       "  m.date, m.received, ?3, r.raw"
		       " FROM messages m JOIN message_raw r ON r.msg_id = m.id WHERE m.id = ?1"
		       " ON CONFLICT (msg_id, hash) DO NOTHING", &ret);
	if (!s)
		goto out;
	store_bind_int64(s, 1, id, &rc);
	store_bind_text(s, 2, old_hash, &rc);
	store_bind_text(s, 3, reason, &rc);
	ret = store_bound_write(st, s, rc, NULL, NULL);
	if (ret)
		goto out;
	/* the series it was in: as a patch, a cover letter or a message */
	rc = SQLITE_OK;
	s = store_stmt(st, STMT_MSG_COPY_SERIES,
		       "SELECT series_id FROM patches WHERE msg_id = ?1"
		       " UNION SELECT series_id FROM messages WHERE id = ?1 AND series_id IS NOT NULL"
		       " UNION SELECT id FROM series WHERE cover_msg = ?1", &ret);
	if (!s)
		goto out;
	store_bind_int64(s, 1, id, &rc);
	ret = store_bound_each(st, s, rc, series_id_row, &ids);
	if (!ret)
		ret = copy_step(st, STMT_MSG_COPY_DROP_FINDINGS,
				"DELETE FROM findings WHERE patch_id IN"
				" (SELECT id FROM patches WHERE msg_id = ?1)", id, NULL);
	if (!ret)
		ret = copy_step(st, STMT_MSG_COPY_DROP_PATCHES,
				"DELETE FROM patches WHERE msg_id = ?1", id, NULL);
	if (!ret)
		ret = copy_step(st, STMT_MSG_COPY_DROP_COVER,
				"UPDATE series SET cover_msg = NULL WHERE cover_msg = ?1", id, NULL);
	if (!ret)
		ret = copy_step(st, STMT_MSG_COPY_DROP_REF,
				"DELETE FROM series_refs WHERE msgid = ?2 AND own = 1"
				" AND series_id IN (SELECT series_id FROM messages WHERE id = ?1"
				"  UNION SELECT series_id FROM patches WHERE msg_id = ?1)",
				id, row.message_id);
	if (ret)
		goto out;
	/* the row becomes the new copy (series_id cleared first: the
	 * emptied series is judged without it) */
	rc = SQLITE_OK;
	s = store_stmt(st, STMT_MSG_COPY_OVERWRITE,
		       "UPDATE messages SET source = ?2, list = ?3, from_addr = ?4,"
		       " from_name = ?5, subject = ?6, date = ?7, received = ?8,"
		       " in_reply_to = ?9, refs = ?10, state = 0, reason = NULL,"
		       " series_id = NULL, attempts = 0, claim = NULL, claimed_at = 0,"
		       " rcpt = NULL, list_id = NULL, hash = ?11, via = ?12, via_lists = ?13"
		       " WHERE id = ?1", &ret);
	if (!s)
		goto out;
	store_bind_int64(s, 1, id, &rc);
	store_bind_text(s, 2, copy->source, &rc);
	store_bind_text(s, 3, copy->list, &rc);
	store_bind_text(s, 4, copy->from_addr, &rc);
	store_bind_text(s, 5, copy->from_name, &rc);
	store_bind_text(s, 6, copy->subject, &rc);
	store_bind_int64(s, 7, copy->date, &rc);
	store_bind_int64(s, 8, store_time_or_now(copy->received), &rc);
	store_bind_text(s, 9, copy->in_reply_to, &rc);
	store_bind_text(s, 10, copy->refs, &rc);
	store_bind_text(s, 11, copy->hash, &rc);
	store_bind_int64(s, 12, copy->via, &rc);
	store_bind_text(s, 13, copy->via_lists, &rc);
	ret = store_bound_change(st, s, rc);
	if (ret)
		goto out;
	for (i = 0; i < ids.n && !ret; i++)
		ret = settle_series(st, ids.v[i], id);
	if (ret)
		goto out;
	rc = SQLITE_OK;
	s = store_stmt(st, STMT_MSG_COPY_OVERWRITE_RAW,
		       "UPDATE message_raw SET raw = ?2 WHERE msg_id = ?1", &ret);
	if (!s)
		goto out;
	rc = sqlite3_bind_int64(s, 1, id);
	if (rc == SQLITE_OK)
		rc = rawlen ? sqlite3_bind_blob64(s, 2, raw, rawlen, SQLITE_STATIC) :
		     sqlite3_bind_zeroblob(s, 2, 0);
	ret = store_bound_change(st, s, rc);
out:
	ret = store_tx_leave(st, own, ret);
out_row:
	store_msg_release(&row);
	return ret;
}

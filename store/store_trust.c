// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: who sent a command (schema 11, see store.h): the installation's
 * secrets, commands waiting for their sender's token, the addresses that
 * sent one back, and the commands refused.
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

#include "../checker/banned.h"

/* ---- secrets ------------------------------------------------------------------ */

int store_secret_get(struct store *st, const char *name, void *buf, size_t len)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!name || !len || len > STORE_SECRET_MAX)
		return store_seterr(st, STORE_ERR_RANGE, "bad secret name or length");
	q = store_stmt(st, STMT_SECRET_GET, "SELECT value FROM secrets WHERE name = ?1",
		       &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, name, &rc);
	ret = store_bound_row(st, q, rc);
	if (ret == STORE_OK) {
		if (sqlite3_column_type(q, 0) == SQLITE_BLOB &&
		    (size_t)sqlite3_column_bytes(q, 0) == len)
			memcpy(buf, sqlite3_column_blob(q, 0), len);
		else
			ret = STORE_DONE;
	}
	store_stmt_done(q);
	return ret;
}

int store_secret_add(struct store *st, const char *name, const void *buf, size_t len,
		     int64_t when)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!name || !len || len > STORE_SECRET_MAX)
		return store_seterr(st, STORE_ERR_RANGE, "bad secret name or length");
	q = store_stmt(st, STMT_SECRET_ADD,
		       "INSERT INTO secrets (name, value, created) VALUES (?1, ?2, ?3)"
		       " ON CONFLICT (name) DO NOTHING", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, name, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_blob(q, 2, buf, (int)len, SQLITE_STATIC);
	store_bind_int64(q, 3, store_time_or_now(when), &rc);
	return store_bound_write(st, q, rc, NULL, NULL);
}

/* ---- commands waiting for a token ------------------------------------------- */

int store_pending_add(struct store *st, const char *addr, const char *token,
		      const char *action, const char *arg, int64_t msg_id, int64_t when)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	if (!addr || !token || !*token || strlen(token) > STORE_TOKEN_MAX)
		return store_seterr(st, STORE_ERR_RANGE, "bad address or token");
	q = store_stmt(st, STMT_PENDING_ADD,
		       "INSERT INTO optin_tokens (addr, token, created, used, action, arg,"
		       " msg_id) VALUES (?1, ?2, ?3, 0, ?4, ?5, ?6)"
		       " ON CONFLICT (token) DO NOTHING", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, addr, &rc);
	store_bind_text(q, 2, token, &rc);
	store_bind_int64(q, 3, store_time_or_now(when), &rc);
	store_bind_text(q, 4, action, &rc);
	store_bind_text(q, 5, arg, &rc);
	store_bind_id(q, 6, msg_id, &rc);
	ret = store_bound_write(st, q, rc, &changes, NULL);
	if (ret == STORE_OK && !changes)
		ret = STORE_DUP;
	return ret;
}

void store_pending_release(struct store_pending *p)
{
	free(p->addr);
	free(p->action);
	free(p->arg);
	memset(p, 0, sizeof(*p));
}

int store_pending_take(struct store *st, const char *addr, const char *token,
		       int64_t not_before, int64_t now, struct store_pending *p)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK, oom = 0, own = 0;

	store_clearerr(st);
	memset(p, 0, sizeof(*p));
	if (!addr || !token || !*token || strlen(token) > STORE_TOKEN_MAX)
		return STORE_DONE;
	ret = store_tx_enter(st, &own);
	if (ret)
		return ret;
	q = store_stmt(st, STMT_PENDING_FIND,
		       "SELECT id, addr, action, arg, msg_id, created FROM optin_tokens"
		       " WHERE token = ?2 AND addr = ?1 AND used = 0 AND created >= ?3",
		       &ret);
	if (!q)
		goto out;
	store_bind_text(q, 1, addr, &rc);
	store_bind_text(q, 2, token, &rc);
	store_bind_int64(q, 3, not_before, &rc);
	ret = store_bound_row(st, q, rc);
	if (ret == STORE_OK) {
		p->id = sqlite3_column_int64(q, 0);
		p->addr = store_col_dup(q, 1, &oom);
		p->action = store_col_dup(q, 2, &oom);
		p->arg = store_col_dup(q, 3, &oom);
		p->msg_id = store_col_id(q, 4);
		p->created = sqlite3_column_int64(q, 5);
	}
	store_stmt_done(q);
	if (ret == STORE_OK && oom)
		ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	if (ret)
		goto out;
	q = store_stmt(st, STMT_PENDING_TAKE,
		       "UPDATE optin_tokens SET used = ?2 WHERE id = ?1 AND used = 0", &ret);
	if (!q)
		goto out;
	rc = SQLITE_OK;
	store_bind_int64(q, 1, p->id, &rc);
	store_bind_int64(q, 2, store_time_or_now(now), &rc);
	ret = store_bound_change(st, q, rc);
out:
	ret = store_tx_leave(st, own, ret);
	if (ret)
		store_pending_release(p);
	return ret;
}

int store_pending_count(struct store *st, const char *to_addr, int64_t since,
			long long *n)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, STMT_PENDING_COUNT,
		       "SELECT count(*) FROM optin_tokens WHERE action IS NOT NULL"
		       " AND used = 0 AND created >= ?2 AND (?1 IS NULL OR addr = ?1)",
		       &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, to_addr, &rc);
	store_bind_int64(q, 2, since, &rc);
	return store_bound_count(st, q, rc, n);
}

/* ---- confirmed senders ----------------------------------------------------------- */

int store_confirmed_add(struct store *st, const char *addr, int64_t when)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!addr || !*addr)
		return store_seterr(st, STORE_ERR_RANGE, "no address");
	q = store_stmt(st, STMT_CONFIRMED_ADD,
		       "INSERT INTO confirmed (addr, confirmed_at) VALUES (?1, ?2)"
		       " ON CONFLICT (addr) DO UPDATE SET confirmed_at = excluded.confirmed_at",
		       &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, addr, &rc);
	store_bind_int64(q, 2, store_time_or_now(when), &rc);
	return store_bound_write(st, q, rc, NULL, NULL);
}

int store_confirmed_get(struct store *st, const char *addr)
{
	sqlite3_stmt *q;
	int64_t v = 0;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!addr || !*addr)
		return STORE_DONE;
	q = store_stmt(st, STMT_CONFIRMED_GET, "SELECT 1 FROM confirmed WHERE addr = ?1",
		       &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, addr, &rc);
	return store_bound_int64(st, q, rc, &v);
}

/* ---- refused commands -------------------------------------------------------------- */

int store_command_refused_count(struct store *st, int64_t since, long long *n)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, STMT_COMMAND_REFUSED,
		       "SELECT count(*) FROM messages WHERE state = ?1 AND received >= ?2"
		       " AND reason LIKE '%refused%'", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, MSG_COMMAND, &rc);
	store_bind_int64(q, 2, since, &rc);
	return store_bound_count(st, q, rc, n);
}

int store_command_count(struct store *st, const char *reason, const char *addr,
			int64_t since, long long *n)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	if (!reason)
		return store_seterr(st, STORE_ERR_RANGE, "no reason");
	q = store_stmt(st, STMT_COMMAND_COUNT,
		       "SELECT count(*) FROM messages WHERE state = ?1 AND reason = ?2"
		       " AND received >= ?4 AND (?3 IS NULL OR lower(from_addr) = ?3)", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, MSG_COMMAND, &rc);
	store_bind_text(q, 2, reason, &rc);
	store_bind_text(q, 3, addr, &rc);
	store_bind_int64(q, 4, since, &rc);
	return store_bound_count(st, q, rc, n);
}

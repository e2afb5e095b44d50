// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: what opting out needs beyond the optouts table (schema 3):
 * muted threads, one-time opt-in tokens, and forgetting an address.
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

#include "../checker/banned.h"

/* ---- mutes ----------------------------------------------------------------- */

int store_mute_add(struct store *st, const char *root, const char *addr,
		   int64_t when)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!root || !*root)
		return store_seterr(st, STORE_ERR_RANGE, "no thread root");
	q = store_stmt(st, STMT_MUTE_ADD,
		       "INSERT INTO mutes (root, addr, created) VALUES (?1, ?2, ?3)"
		       " ON CONFLICT (root) DO NOTHING", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, root, &rc);
	store_bind_text(q, 2, addr, &rc);
	store_bind_int64(q, 3, store_time_or_now(when), &rc);
	return store_bound_write(st, q, rc, NULL, NULL);
}

int store_mute_get(struct store *st, const char *root)
{
	sqlite3_stmt *q;
	int64_t v = 0;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!root || !*root)
		return STORE_DONE;
	q = store_stmt(st, STMT_MUTE_GET, "SELECT 1 FROM mutes WHERE root = ?1",
		       &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, root, &rc);
	return store_bound_int64(st, q, rc, &v);
}

int store_mute_count(struct store *st, long long *n)
{
	sqlite3_stmt *q;
	int ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, STMT_MUTE_COUNT, "SELECT count(*) FROM mutes", &ret);
	if (!q)
		return ret;
	return store_bound_count(st, q, SQLITE_OK, n);
}

/* ---- opt-in tokens ----------------------------------------------------------- */

int store_token_add(struct store *st, const char *addr, const char *token,
		    int64_t when)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	if (!addr || !token || !*token || strlen(token) > STORE_TOKEN_MAX)
		return store_seterr(st, STORE_ERR_RANGE, "bad address or token");
	q = store_stmt(st, STMT_TOKEN_ADD,
		       "INSERT INTO optin_tokens (addr, token, created, used)"
		       " VALUES (?1, ?2, ?3, 0) ON CONFLICT (token) DO NOTHING",
		       &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, addr, &rc);
	store_bind_text(q, 2, token, &rc);
	store_bind_int64(q, 3, store_time_or_now(when), &rc);
	ret = store_bound_write(st, q, rc, &changes, NULL);
	if (ret == STORE_OK && !changes)
		ret = STORE_DUP;
	return ret;
}

/* One statement: the address check and the use cannot be separated. */
int store_token_use(struct store *st, const char *addr, const char *token,
		    int64_t not_before, int64_t now)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!addr || !token || !*token || strlen(token) > STORE_TOKEN_MAX)
		return STORE_DONE;
	q = store_stmt(st, STMT_TOKEN_USE,
		       "UPDATE optin_tokens SET used = ?4 WHERE token = ?2"
		       " AND addr = ?1 AND used = 0 AND created >= ?3", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, addr, &rc);
	store_bind_text(q, 2, token, &rc);
	store_bind_int64(q, 3, not_before, &rc);
	store_bind_int64(q, 4, store_time_or_now(now), &rc);
	return store_bound_change(st, q, rc);
}

/* ---- forgetting an address ------------------------------------------------- */

/* The address's messages (M), series (S) and replies (R), as SQL. */
#define F_MSGS	"(SELECT id FROM messages WHERE from_addr = ?1)"
#define F_SER	"(SELECT id FROM series WHERE author_addr = ?1)"
#define F_REPL	"(SELECT id FROM replies WHERE to_addr = ?1 OR series_id IN " F_SER ")"
#define F_PATCH	"(SELECT id FROM patches WHERE series_id IN " F_SER \
		" OR msg_id IN " F_MSGS ")"

enum forget_count {
	FC_NONE, FC_FINDINGS, FC_REVIEWS, FC_REPLIES, FC_PATCHES, FC_SERIES,
	FC_MESSAGES, FC_MUTES, FC_TOKENS,
};

/*
 * Children first: foreign keys are checked at the end of each
 * statement, so every step leaves the database consistent.  Messages
 * and series point at each other (series_id, cover_msg): the links are
 * cut before either is deleted.
 */
static const struct {
	enum forget_count count;
	const char *sql;
} forget_steps[] = {
	{ FC_FINDINGS, "DELETE FROM findings WHERE series_id IN " F_SER
		       " OR patch_id IN " F_PATCH },
	{ FC_REVIEWS, "DELETE FROM reviews WHERE series_id IN " F_SER },
	{ FC_NONE, "UPDATE reviews SET reply_id = NULL WHERE reply_id IN " F_REPL },
	{ FC_REPLIES, "DELETE FROM replies WHERE to_addr = ?1 OR series_id IN " F_SER },
	{ FC_PATCHES, "DELETE FROM patches WHERE series_id IN " F_SER
		      " OR msg_id IN " F_MSGS },
	{ FC_NONE, "UPDATE series SET prev_id = NULL WHERE prev_id IN " F_SER },
	{ FC_NONE, "UPDATE series SET cover_msg = NULL WHERE cover_msg IN " F_MSGS },
	{ FC_NONE, "UPDATE messages SET series_id = NULL WHERE series_id IN " F_SER },
	{ FC_SERIES, "DELETE FROM series WHERE author_addr = ?1" },
	{ FC_NONE, "DELETE FROM message_raw WHERE msg_id IN " F_MSGS },
	/* the copies it sent of any Message-ID, and those of its mail */
	{ FC_NONE, "DELETE FROM message_copies WHERE from_addr = ?1 OR msg_id IN " F_MSGS },
	{ FC_MESSAGES, "DELETE FROM messages WHERE from_addr = ?1" },
	{ FC_MUTES, "DELETE FROM mutes WHERE addr = ?1" },
	{ FC_TOKENS, "DELETE FROM optin_tokens WHERE addr = ?1" },
	/* the record that it sent a token back (schema 11) */
	{ FC_NONE, "DELETE FROM confirmed WHERE addr = ?1" },
	/* the findings it disputed (its findings' disputes and numbers go
	 * with them: ON DELETE CASCADE) */
	{ FC_NONE, "DELETE FROM feedback WHERE addr = ?1" },
	/* the author filter's texts (schema 10) nothing names any more:
	 * the address's own go with its mail (?1 to number the parameter) */
	{ FC_NONE, "DELETE FROM authors WHERE ?1 IS NOT NULL"
		   " AND NOT EXISTS (SELECT 1 FROM patches p WHERE p.author_id = authors.id)"
		   " AND NOT EXISTS (SELECT 1 FROM series s WHERE s.author_id = authors.id)" },
};

#define FORGET_NSTEPS (sizeof(forget_steps) / sizeof(forget_steps[0]))

_Static_assert(FORGET_NSTEPS <= STMT_FORGET_LAST - STMT_FORGET_FIRST + 1,
	       "more forget steps than statement slots");

int store_forget_address(struct store *st, const char *addr,
			 struct store_forget *c)
{
	struct store_forget cnt;
	sqlite3_stmt *q;
	long long *slot;
	size_t i;
	int rc, ret, own = 0, changes;

	store_clearerr(st);
	memset(&cnt, 0, sizeof(cnt));
	if (c)
		memset(c, 0, sizeof(*c));
	if (!addr || !*addr)
		return store_seterr(st, STORE_ERR_RANGE, "no address");
	ret = store_tx_enter(st, &own);
	if (ret)
		return ret;
	for (i = 0; i < FORGET_NSTEPS; i++) {
		q = store_stmt(st, (enum store_stmt_id)(STMT_FORGET_FIRST + i),
			       forget_steps[i].sql, &ret);
		if (!q)
			goto out;
		rc = SQLITE_OK;
		store_bind_text(q, 1, addr, &rc);
		changes = 0;
		ret = store_bound_write(st, q, rc, &changes, NULL);
		if (ret)
			goto out;
		switch (forget_steps[i].count) {
		case FC_FINDINGS: slot = &cnt.findings; break;
		case FC_REVIEWS: slot = &cnt.reviews; break;
		case FC_REPLIES: slot = &cnt.replies; break;
		case FC_PATCHES: slot = &cnt.patches; break;
		case FC_SERIES: slot = &cnt.series; break;
		case FC_MESSAGES: slot = &cnt.messages; break;
		case FC_MUTES: slot = &cnt.mutes; break;
		case FC_TOKENS: slot = &cnt.tokens; break;
		default: slot = NULL; break;
		}
		if (slot)
			*slot += changes;
	}
out:
	ret = store_tx_leave(st, own, ret);
	if (!ret && c)
		*c = cnt;
	return ret;
}

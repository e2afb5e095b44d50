// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: false-positive feedback (schema 6): the findings a review
 * covers with the numbers it shows, who disputed which finding, and the
 * counts per list and type that say whether a type is demoted on a list
 * (bot/feedback.h).
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

#include "../checker/banned.h"

int store_reply_finding_add(struct store *st, int64_t reply_id, int64_t finding_id,
			    int num)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	if (reply_id <= 0 || finding_id <= 0 || num < 0)
		return store_seterr(st, STORE_ERR_RANGE, "bad reply, finding or number");
	/* the finding there already: nothing written */
	q = store_stmt(st, STMT_REPLY_FINDING_ADD,
		       "INSERT INTO reply_findings (reply_id, finding_id, num)"
		       " VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, reply_id, &rc);
	store_bind_int64(q, 2, finding_id, &rc);
	store_bind_int64(q, 3, num, &rc);
	ret = store_bound_write(st, q, rc, &changes, NULL);
	if (ret == STORE_OK && !changes)
		ret = STORE_DUP;
	return ret;
}

struct reply_findings_cb {
	int (*cb)(void *arg, const struct store_reply_finding *rf);
	void *arg;
};

static int reply_finding_row(struct store *st, sqlite3_stmt *q, void *arg)
{
	struct reply_findings_cb *c = arg;
	struct store_reply_finding rf;

	(void)st;
	memset(&rf, 0, sizeof(rf));
	rf.finding_id = sqlite3_column_int64(q, 0);
	rf.series_id = sqlite3_column_int64(q, 1);
	rf.num = sqlite3_column_int(q, 2);
	rf.type = (const char *)sqlite3_column_text(q, 3);
	rf.list = (const char *)sqlite3_column_text(q, 4);
	return c->cb(c->arg, &rf);
}

int store_reply_findings_each(struct store *st, int64_t reply_id,
			      int (*cb)(void *arg, const struct store_reply_finding *rf),
			      void *arg)
{
	struct reply_findings_cb c = { cb, arg };
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_REPLY_FINDINGS_EACH,
		       "SELECT rf.finding_id, f.series_id, rf.num, f.type, s.list"
		       " FROM reply_findings rf"
		       " JOIN findings f ON f.id = rf.finding_id"
		       " JOIN series s ON s.id = f.series_id"
		       " WHERE rf.reply_id = ?1"
		       " ORDER BY rf.num = 0, rf.num, rf.finding_id", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, reply_id, &rc);
	return store_bound_each(st, q, rc, reply_finding_row, &c);
}

int store_feedback_add(struct store *st, const struct store_feedback *fb, int64_t *id)
{
	sqlite3_stmt *q;
	char reason[STORE_FEEDBACK_REASON_MAX + 1];
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;
	int64_t rowid = 0, found = 0;

	store_clearerr(st);
	if (id)
		*id = 0;
	if (!fb || fb->finding_id <= 0 || !fb->addr || !*fb->addr)
		return store_seterr(st, STORE_ERR_RANGE, "bad finding or address");
	if (fb->reason) {
		size_t n = strlen(fb->reason);

		if (n > STORE_FEEDBACK_REASON_MAX) {
			/* cut at a character boundary: never half a UTF-8 one */
			n = STORE_FEEDBACK_REASON_MAX;
			while (n && ((unsigned char)fb->reason[n] & 0xc0) == 0x80)
				n--;
		}
		memcpy(reason, fb->reason, n);
		reason[n] = '\0';
	}
	/* a maintainer's verified word on a finding disputed in that
	 * address's name before, unverified (a forged From: got there
	 * first, issue 33): it is the maintainer's now */
	if (fb->maintainer) {
		q = store_stmt(st, STMT_FEEDBACK_UPGRADE,
			       "UPDATE feedback SET maintainer = 1, reply_id = ?2, msg_id = ?3,"
			       " reason = ?5, created = ?6"
			       " WHERE finding_id = ?1 AND addr = ?4 AND maintainer = 0", &ret);
		if (!q)
			return ret;
		store_bind_int64(q, 1, fb->finding_id, &rc);
		store_bind_id(q, 2, fb->reply_id, &rc);
		store_bind_id(q, 3, fb->msg_id, &rc);
		store_bind_text(q, 4, fb->addr, &rc);
		store_bind_text(q, 5, fb->reason ? reason : NULL, &rc);
		store_bind_int64(q, 6, store_time_or_now(fb->created), &rc);
		ret = store_bound_write(st, q, rc, &changes, NULL);
		if (ret)
			return ret;
		if (changes)
			return STORE_OK;
		rc = SQLITE_OK;
	}
	/* nothing written when there is no such finding: told apart below */
	q = store_stmt(st, STMT_FEEDBACK_ADD,
		       "INSERT INTO feedback (finding_id, reply_id, msg_id, addr,"
		       " maintainer, reason, created)"
		       " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7"
		       " WHERE EXISTS (SELECT 1 FROM findings WHERE id = ?1)"
		       " ON CONFLICT (finding_id, addr) DO NOTHING", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, fb->finding_id, &rc);
	store_bind_id(q, 2, fb->reply_id, &rc);
	store_bind_id(q, 3, fb->msg_id, &rc);
	store_bind_text(q, 4, fb->addr, &rc);
	store_bind_int64(q, 5, fb->maintainer ? 1 : 0, &rc);
	store_bind_text(q, 6, fb->reason ? reason : NULL, &rc);
	store_bind_int64(q, 7, store_time_or_now(fb->created), &rc);
	ret = store_bound_write(st, q, rc, &changes, &rowid);
	if (ret)
		return ret;
	if (changes) {
		if (id)
			*id = rowid;
		return STORE_OK;
	}
	/* a duplicate, or no such finding */
	rc = SQLITE_OK;
	q = store_stmt(st, STMT_FEEDBACK_FINDING,
		       "SELECT count(*) FROM findings WHERE id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, fb->finding_id, &rc);
	ret = store_bound_int64(st, q, rc, &found);
	if (ret < 0)
		return ret;
	if (!found)
		return store_seterr(st, STORE_ERR_RANGE, "no finding %lld",
				    (long long)fb->finding_id);
	return STORE_DUP;
}

int store_feedback_count(struct store *st, long long *n)
{
	sqlite3_stmt *q;
	int ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, STMT_FEEDBACK_COUNT, "SELECT count(*) FROM feedback", &ret);
	if (!q)
		return ret;
	return store_bound_count(st, q, SQLITE_OK, n);
}

struct counts_cb {
	int (*cb)(void *arg, const struct store_feedback_count *c);
	void *arg;
};

static int counts_row(struct store *st, sqlite3_stmt *q, void *arg)
{
	struct counts_cb *cc = arg;
	struct store_feedback_count c;

	(void)st;
	memset(&c, 0, sizeof(c));
	c.list = (const char *)sqlite3_column_text(q, 0);
	c.type = (const char *)sqlite3_column_text(q, 1);
	c.findings = sqlite3_column_int64(q, 2);
	c.disputed = sqlite3_column_int64(q, 3);
	c.by_maintainers = sqlite3_column_int64(q, 4);
	c.reviews = sqlite3_column_int64(q, 5);
	return cc->cb(cc->arg, &c);
}

int store_feedback_counts(struct store *st, const char *list, int64_t since,
			  int only_disputed, int per_type,
			  int (*cb)(void *arg, const struct store_feedback_count *c),
			  void *arg)
{
	struct counts_cb cc = { cb, arg };
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	/*
	 * d: each disputed finding once, with whether a maintainer was
	 * among those who disputed it.  Series of no list are grouped
	 * under NULL; list NULL asks for every list.  With only_disputed,
	 * the types nobody disputed are left out before the findings are
	 * read (the index on findings.type), not after.
	 */
	q = store_stmt(st, STMT_FEEDBACK_COUNTS,
		       "SELECT CASE WHEN ?4 THEN NULL ELSE s.list END AS l, f.type,"
		       " count(*), count(d.finding_id), coalesce(sum(d.maint), 0),"
		       " count(DISTINCT CASE WHEN d.maint THEN f.series_id END)"
		       " FROM findings f JOIN series s ON s.id = f.series_id"
		       " LEFT JOIN (SELECT finding_id, max(maintainer) AS maint"
		       "            FROM feedback GROUP BY finding_id) d"
		       "   ON d.finding_id = f.id"
		       " WHERE (?1 IS NULL OR s.list = ?1) AND s.created >= ?2"
		       "   AND f.type IS NOT NULL"
		       "   AND (?3 = 0 OR f.type IN (SELECT f2.type FROM feedback fb"
		       "        JOIN findings f2 ON f2.id = fb.finding_id))"
		       " GROUP BY l, f.type"
		       " HAVING ?3 = 0 OR count(d.finding_id) > 0"
		       " ORDER BY l, f.type", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, list, &rc);
	store_bind_int64(q, 2, since, &rc);
	store_bind_int64(q, 3, only_disputed ? 1 : 0, &rc);
	store_bind_int64(q, 4, per_type ? 1 : 0, &rc);
	return store_bound_each(st, q, rc, counts_row, &cc);
}

struct maintained_cb {
	int (*cb)(void *arg, const char *type, int64_t series_id,
		  const char *addr);
	void *arg;
};

static int maintained_row(struct store *st, sqlite3_stmt *q, void *arg)
{
	struct maintained_cb *c = arg;

	(void)st;
	return c->cb(c->arg, (const char *)sqlite3_column_text(q, 0),
		     sqlite3_column_int64(q, 1),
		     (const char *)sqlite3_column_text(q, 2));
}

int store_feedback_each_maintained(struct store *st, const char *list,
				   int (*cb)(void *arg, const char *type,
					     int64_t series_id, const char *addr),
				   void *arg)
{
	struct maintained_cb c = { cb, arg };
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!list)
		return STORE_OK;	/* no list, no maintainers */
	q = store_stmt(st, STMT_FEEDBACK_MAINTAINED,
		       "SELECT DISTINCT f.type, f.series_id, fb.addr FROM feedback fb"
		       " JOIN findings f ON f.id = fb.finding_id"
		       " JOIN series s ON s.id = f.series_id"
		       " WHERE fb.maintainer = 1 AND s.list = ?1 AND f.type IS NOT NULL"
		       " ORDER BY f.type, f.series_id, fb.addr", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, list, &rc);
	return store_bound_each(st, q, rc, maintained_row, &c);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: series, their patches, and the findings on them.
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

#include "../checker/banned.h"

#define SERIES_COLS \
	"id, list, author_addr, author_name, subject, root, prefix, change_id," \
	" version, version_minor, total, cover_msg, prev_id, created," \
	" last_part_at, state, reviewed_at"

static int patch_id_by_part(struct store *st, int64_t series_id, int part,
			    int64_t *id);

/* ---- series -------------------------------------------------------------- */

void store_series_release(struct store_series *s)
{
	if (!s)
		return;
	free(s->list);
	free(s->author_addr);
	free(s->author_name);
	free(s->subject);
	free(s->root);
	free(s->prefix);
	free(s->change_id);
	memset(s, 0, sizeof(*s));
}

int store_series_from_row(struct store *st, sqlite3_stmt *q,
			  struct store_series *s)
{
	int oom = 0, state;

	memset(s, 0, sizeof(*s));
	s->id = sqlite3_column_int64(q, 0);
	s->list = store_col_dup(q, 1, &oom);
	s->author_addr = store_col_dup(q, 2, &oom);
	s->author_name = store_col_dup(q, 3, &oom);
	s->subject = store_col_dup(q, 4, &oom);
	s->root = store_col_dup(q, 5, &oom);
	s->prefix = store_col_dup(q, 6, &oom);
	s->change_id = store_col_dup(q, 7, &oom);
	s->version = sqlite3_column_int(q, 8);
	s->version_minor = sqlite3_column_int(q, 9);
	s->total = sqlite3_column_int(q, 10);
	s->cover_msg = store_col_id(q, 11);
	s->prev_id = store_col_id(q, 12);
	s->created = sqlite3_column_int64(q, 13);
	s->last_part_at = sqlite3_column_int64(q, 14);
	state = sqlite3_column_int(q, 15);
	s->state = state == SERIES_REVIEWED ? SERIES_REVIEWED :
		   state == SERIES_SKIPPED ? SERIES_SKIPPED : SERIES_OPEN;
	s->reviewed_at = sqlite3_column_int64(q, 16);
	if (oom) {
		store_series_release(s);
		return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	}
	return STORE_OK;
}

/* Steps a single-series lookup (rc the result of its binds), finishing q. */
static int series_lookup(struct store *st, sqlite3_stmt *q, int rc,
			 struct store_series *s)
{
	int ret;

	ret = store_bound_row(st, q, rc);
	if (ret == STORE_OK)
		ret = store_series_from_row(st, q, s);
	store_stmt_done(q);
	return ret;
}

int store_series_add(struct store *st, const struct store_series *s, int64_t *id)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*id = 0;
	q = store_stmt(st, STMT_SERIES_ADD,
		       "INSERT INTO series (list, author_addr, author_name,"
		       " subject, root, prefix, change_id, version,"
		       " version_minor, total, cover_msg, prev_id, created,"
		       " last_part_at, state, reviewed_at)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
		       " ?12, ?13, ?14, 0, 0)", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, s->list, &rc);
	store_bind_text(q, 2, s->author_addr, &rc);
	store_bind_text(q, 3, s->author_name, &rc);
	store_bind_text(q, 4, s->subject, &rc);
	store_bind_text(q, 5, s->root, &rc);
	store_bind_text(q, 6, s->prefix, &rc);
	store_bind_text(q, 7, s->change_id, &rc);
	store_bind_int64(q, 8, s->version, &rc);
	store_bind_int64(q, 9, s->version_minor, &rc);
	store_bind_int64(q, 10, s->total, &rc);
	store_bind_id(q, 11, s->cover_msg, &rc);
	store_bind_id(q, 12, s->prev_id, &rc);
	store_bind_int64(q, 13, store_time_or_now(s->created), &rc);
	store_bind_int64(q, 14, s->last_part_at, &rc);
	return store_bound_write(st, q, rc, NULL, id);
}

int store_series_get(struct store *st, int64_t id, struct store_series *s)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	memset(s, 0, sizeof(*s));
	q = store_stmt(st, STMT_SERIES_GET,
		       "SELECT " SERIES_COLS " FROM series WHERE id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	return series_lookup(st, q, rc, s);
}

/* IS, not =, so that a NULL list (or root) matches NULL. */
int store_series_find(struct store *st, const char *list, const char *author_addr,
		      const char *root, int version, int version_minor, int total,
		      struct store_series *s)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	memset(s, 0, sizeof(*s));
	q = store_stmt(st, STMT_SERIES_FIND,
		       "SELECT " SERIES_COLS " FROM series"
		       " WHERE list IS ?1 AND author_addr IS ?2 AND root IS ?3"
		       " AND version = ?4 AND version_minor = ?5 AND total = ?6"
		       " AND state IN (0, 1)"
		       " ORDER BY created DESC, id DESC LIMIT 1", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, list, &rc);
	store_bind_text(q, 2, author_addr, &rc);
	store_bind_text(q, 3, root, &rc);
	store_bind_int64(q, 4, version, &rc);
	store_bind_int64(q, 5, version_minor, &rc);
	store_bind_int64(q, 6, total, &rc);
	return series_lookup(st, q, rc, s);
}

int store_series_find_unthreaded(struct store *st, const char *list,
				 const char *author_addr, const char *prefix,
				 int version, int version_minor, int total, int part,
				 int64_t since, int64_t date, int64_t window,
				 int unthreaded_only, struct store_series *s)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	memset(s, 0, sizeof(*s));
	q = store_stmt(st, STMT_SERIES_FIND_UNTHREADED,
		       "SELECT " SERIES_COLS " FROM series"
		       " WHERE list IS ?1 AND author_addr IS ?2"
		       " AND (?3 < 0 OR (version = ?3 AND version_minor = ?4)) AND total = ?5"
		       " AND state = 0 AND last_part_at >= ?6"
		       " AND ifnull(prefix, '') = ifnull(?8, '')"
		       " AND CASE WHEN ?7 = 0 THEN ifnull(cover_msg, 0) = 0"
		       " ELSE NOT EXISTS (SELECT 1 FROM patches p"
		       " WHERE p.series_id = series.id AND p.part = ?7) END"
		       " AND (?9 = 0 OR EXISTS (SELECT 1 FROM messages m"
		       " WHERE m.series_id = series.id"
		       " AND (m.date = 0 OR abs(m.date - ?9) <= ?10)))"
		       " AND (?11 = 0 OR NOT EXISTS (SELECT 1 FROM messages m"
		       " WHERE m.series_id = series.id"
		       " AND (m.in_reply_to IS NOT NULL OR m.refs IS NOT NULL)))"
		       " ORDER BY created DESC, id DESC LIMIT 1", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, list, &rc);
	store_bind_text(q, 2, author_addr, &rc);
	store_bind_int64(q, 3, version, &rc);
	store_bind_int64(q, 4, version_minor, &rc);
	store_bind_int64(q, 5, total, &rc);
	store_bind_int64(q, 6, since, &rc);
	store_bind_int64(q, 7, part, &rc);
	store_bind_text(q, 8, prefix, &rc);
	store_bind_int64(q, 9, date, &rc);
	store_bind_int64(q, 10, window, &rc);
	store_bind_int64(q, 11, unthreaded_only ? 1 : 0, &rc);
	return series_lookup(st, q, rc, s);
}

int store_series_ref_add(struct store *st, int64_t series_id, const char *msgid,
			 int own)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!msgid || !*msgid)
		return STORE_OK;
	q = store_stmt(st, STMT_SERIES_REF_ADD,
		       "INSERT INTO series_refs (msgid, series_id, own)"
		       " VALUES (?1, ?2, ?3) ON CONFLICT (msgid, series_id)"
		       " DO UPDATE SET own = max(own, excluded.own)", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, msgid, &rc);
	store_bind_int64(q, 2, series_id, &rc);
	store_bind_int64(q, 3, own ? 1 : 0, &rc);
	return store_bound_write(st, q, rc, NULL, NULL);
}

struct ref_rows {
	int64_t *ids;
	int *own;
	size_t max, *n;
};

static int ref_row(struct store *st, sqlite3_stmt *q, void *arg)
{
	struct ref_rows *r = arg;

	(void)st;
	if (*r->n == r->max)
		return STORE_OK;	/* LIMIT ?4: no such row */
	r->ids[*r->n] = sqlite3_column_int64(q, 0);
	if (r->own)
		r->own[*r->n] = sqlite3_column_int(q, 1);
	(*r->n)++;
	return STORE_OK;
}

int store_series_by_ref(struct store *st, const char *list, const char *author_addr,
			const char *msgid, int64_t *ids, int *own, size_t max,
			size_t *n)
{
	struct ref_rows r = { ids, own, max, n };
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	if (!msgid || !max)
		return STORE_OK;
	q = store_stmt(st, STMT_SERIES_BY_REF,
		       "SELECT r.series_id, r.own FROM series_refs r"
		       " JOIN series s ON s.id = r.series_id"
		       " WHERE r.msgid = ?1 AND s.list IS ?2 AND s.author_addr IS ?3"
		       " ORDER BY r.own DESC, s.created DESC, s.id DESC LIMIT ?4", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, msgid, &rc);
	store_bind_text(q, 2, list, &rc);
	store_bind_text(q, 3, author_addr, &rc);
	store_bind_int64(q, 4, (int64_t)max, &rc);
	return store_bound_each(st, q, rc, ref_row, &r);
}

int store_series_has_part(struct store *st, int64_t series_id, int part)
{
	int64_t id = 0;
	int ret;

	store_clearerr(st);
	ret = patch_id_by_part(st, series_id, part, &id);
	if (ret == STORE_OK)
		return 1;
	return ret == STORE_DONE ? 0 : ret;
}

/* "Before": a lower version, or the same version with a lower minor. */
#define SERIES_BEFORE \
	" AND (version < ?2 OR (version = ?2 AND version_minor < ?3))" \
	" AND id IS NOT ?4" \
	" ORDER BY version DESC, version_minor DESC, created DESC, id DESC" \
	" LIMIT 1"

int store_series_find_prev_by_change_id(struct store *st, const char *change_id,
					const char *list, const char *author_addr,
					int version, int version_minor, int64_t not_id,
					struct store_series *s)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	memset(s, 0, sizeof(*s));
	if (!change_id)
		return STORE_DONE;
	q = store_stmt(st, STMT_SERIES_PREV_CHANGE_ID,
		       "SELECT " SERIES_COLS " FROM series WHERE change_id = ?1"
		       " AND list IS ?5 AND author_addr IS ?6"
		       SERIES_BEFORE, &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, change_id, &rc);
	store_bind_int64(q, 2, version, &rc);
	store_bind_int64(q, 3, version_minor, &rc);
	store_bind_id(q, 4, not_id, &rc);
	store_bind_text(q, 5, list, &rc);
	store_bind_text(q, 6, author_addr, &rc);
	return series_lookup(st, q, rc, s);
}

struct id_rows {
	int64_t *ids;
	size_t max, *n;
};

static int id_row(struct store *st, sqlite3_stmt *q, void *arg)
{
	struct id_rows *r = arg;

	(void)st;
	if (*r->n < r->max)
		r->ids[(*r->n)++] = sqlite3_column_int64(q, 0);
	return STORE_OK;
}

int store_series_prev_candidates(struct store *st, const char *list,
				 const char *author_addr, int version, int version_minor,
				 int64_t not_id, int64_t *ids, size_t max, size_t *n)
{
	struct id_rows r = { ids, max, n };
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	if (!max)
		return STORE_OK;
	q = store_stmt(st, STMT_SERIES_PREV_CANDIDATES,
		       "SELECT id FROM series"
		       " WHERE list IS ?1 AND author_addr IS ?2"
		       " AND (version < ?3 OR (version = ?3 AND version_minor < ?4))"
		       " AND id IS NOT ?5"
		       " AND NOT EXISTS (SELECT 1 FROM series n WHERE n.prev_id = series.id"
		       " AND n.id IS NOT ?5 AND n.version = ?3 AND n.version_minor = ?4)"
		       " ORDER BY version DESC, version_minor DESC, created DESC, id DESC"
		       " LIMIT ?6", &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, list, &rc);
	store_bind_text(q, 2, author_addr, &rc);
	store_bind_int64(q, 3, version, &rc);
	store_bind_int64(q, 4, version_minor, &rc);
	store_bind_id(q, 5, not_id, &rc);
	store_bind_int64(q, 6, (int64_t)max, &rc);
	return store_bound_each(st, q, rc, id_row, &r);
}

int store_series_dated_near(struct store *st, int64_t series_id, int64_t date,
			    int64_t window)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!date)
		return 1;
	q = store_stmt(st, STMT_SERIES_DATED_NEAR,
		       "SELECT 1 FROM messages WHERE series_id = ?1"
		       " AND (date = 0 OR abs(date - ?2) <= ?3) LIMIT 1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, series_id, &rc);
	store_bind_int64(q, 2, date, &rc);
	store_bind_int64(q, 3, window, &rc);
	ret = store_bound_row(st, q, rc);
	store_stmt_done(q);
	return ret == STORE_OK ? 1 : ret == STORE_DONE ? 0 : ret;
}

int store_series_has_reply_to(struct store *st, int64_t series_id, const char *msgid)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!msgid)
		return 0;
	q = store_stmt(st, STMT_SERIES_HAS_REPLY_TO,
		       "SELECT 1 FROM messages WHERE series_id = ?1 AND in_reply_to = ?2"
		       " LIMIT 1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, series_id, &rc);
	store_bind_text(q, 2, msgid, &rc);
	ret = store_bound_row(st, q, rc);
	store_stmt_done(q);
	return ret == STORE_OK ? 1 : ret == STORE_DONE ? 0 : ret;
}

int store_series_find_prev_by_subject(struct store *st, const char *list,
				      const char *author_addr, const char *subject,
				      int version, int version_minor, int64_t not_id,
				      struct store_series *s)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	memset(s, 0, sizeof(*s));
	if (!subject)
		return STORE_DONE;
	q = store_stmt(st, STMT_SERIES_PREV_SUBJECT,
		       "SELECT " SERIES_COLS " FROM series WHERE subject = ?1"
		       " AND list IS ?5 AND author_addr IS ?6"
		       SERIES_BEFORE, &ret);
	if (!q)
		return ret;
	store_bind_text(q, 1, subject, &rc);
	store_bind_int64(q, 2, version, &rc);
	store_bind_int64(q, 3, version_minor, &rc);
	store_bind_id(q, 4, not_id, &rc);
	store_bind_text(q, 5, list, &rc);
	store_bind_text(q, 6, author_addr, &rc);
	return series_lookup(st, q, rc, s);
}

int store_series_update(struct store *st, const struct store_series *s)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_SERIES_UPDATE,
		       "UPDATE series SET author_name = ?2, subject = ?3,"
		       " prefix = ?4, change_id = ?5, cover_msg = ?6,"
		       " prev_id = ?7, total = ?8, last_part_at = ?9,"
		       " version = ?10, version_minor = ?11"
		       " WHERE id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, s->id, &rc);
	store_bind_text(q, 2, s->author_name, &rc);
	store_bind_text(q, 3, s->subject, &rc);
	store_bind_text(q, 4, s->prefix, &rc);
	store_bind_text(q, 5, s->change_id, &rc);
	store_bind_id(q, 6, s->cover_msg, &rc);
	store_bind_id(q, 7, s->prev_id, &rc);
	store_bind_int64(q, 8, s->total, &rc);
	store_bind_int64(q, 9, s->last_part_at, &rc);
	store_bind_int64(q, 10, s->version, &rc);
	store_bind_int64(q, 11, s->version_minor, &rc);
	return store_bound_change(st, q, rc);
}

int store_series_set_state(struct store *st, int64_t id,
			   enum store_series_state state, int64_t when)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (state != SERIES_OPEN && state != SERIES_REVIEWED &&
	    state != SERIES_SKIPPED)
		return store_seterr(st, STORE_ERR_RANGE, "bad series state %d",
				    (int)state);
	q = store_stmt(st, STMT_SERIES_SET_STATE,
		       "UPDATE series SET state = ?2, reviewed_at = ?3"
		       " WHERE id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_int64(q, 2, (int64_t)state, &rc);
	store_bind_int64(q, 3, when, &rc);
	return store_bound_change(st, q, rc);
}

int store_series_each_open(struct store *st,
			   int (*cb)(void *arg, int64_t id), void *arg)
{
	sqlite3_stmt *q;
	int ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_SERIES_OPEN_IDS,
		       "SELECT id FROM series WHERE state = 0"
		       " ORDER BY created, id", &ret);
	if (!q)
		return ret;
	return store_each_id(st, q, cb, arg);
}

int store_series_count_open(struct store *st, long long *n)
{
	sqlite3_stmt *q;
	int ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, STMT_SERIES_COUNT_OPEN,
		       "SELECT count(*) FROM series WHERE state = 0", &ret);
	if (!q)
		return ret;
	return store_bound_count(st, q, SQLITE_OK, n);
}

/* ---- patches ------------------------------------------------------------- */

void store_patch_release(struct store_patch *p)
{
	if (!p)
		return;
	free(p->subject);
	memset(p, 0, sizeof(*p));
}

int store_patch_from_row(struct store *st, sqlite3_stmt *q,
			 struct store_patch *p)
{
	int oom = 0;

	memset(p, 0, sizeof(*p));
	p->id = sqlite3_column_int64(q, 0);
	p->series_id = store_col_id(q, 1);
	p->msg_id = store_col_id(q, 2);
	p->part = sqlite3_column_int(q, 3);
	p->subject = store_col_dup(q, 4, &oom);
	p->checked = sqlite3_column_int(q, 5);
	p->errors = (long)sqlite3_column_int64(q, 6);
	p->warnings = (long)sqlite3_column_int64(q, 7);
	p->checks = (long)sqlite3_column_int64(q, 8);
	if (oom) {
		store_patch_release(p);
		return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	}
	return STORE_OK;
}

static int patch_id_by_part(struct store *st, int64_t series_id, int part,
			    int64_t *id)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	q = store_stmt(st, STMT_PATCH_ID_BY_PART,
		       "SELECT id FROM patches WHERE series_id = ?1 AND part = ?2",
		       &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, series_id, &rc);
	store_bind_int64(q, 2, part, &rc);
	return store_bound_int64(st, q, rc, id);
}

int store_patch_add(struct store *st, const struct store_patch *p, int64_t *id)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	*id = 0;
	q = store_stmt(st, STMT_PATCH_ADD,
		       "INSERT INTO patches (series_id, msg_id, part, subject,"
		       " checked, errors, warnings, checks)"
		       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
		       " ON CONFLICT (series_id, part) DO NOTHING", &ret);
	if (!q)
		return ret;
	store_bind_id(q, 1, p->series_id, &rc);
	store_bind_id(q, 2, p->msg_id, &rc);
	store_bind_int64(q, 3, p->part, &rc);
	store_bind_text(q, 4, p->subject, &rc);
	store_bind_int64(q, 5, p->checked ? 1 : 0, &rc);
	store_bind_int64(q, 6, p->errors, &rc);
	store_bind_int64(q, 7, p->warnings, &rc);
	store_bind_int64(q, 8, p->checks, &rc);
	ret = store_bound_write(st, q, rc, &changes, id);
	if (ret || changes)
		return ret;
	ret = patch_id_by_part(st, p->series_id, p->part, id);
	if (ret == STORE_OK)
		return STORE_DUP;
	if (ret == STORE_DONE)
		ret = store_seterr(st, STORE_ERR, "patch not stored");
	return ret;
}

int store_patch_set_checked(struct store *st, int64_t id, long errors,
			    long warnings, long checks)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_PATCH_SET_CHECKED,
		       "UPDATE patches SET checked = 1, errors = ?2,"
		       " warnings = ?3, checks = ?4 WHERE id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_int64(q, 2, errors, &rc);
	store_bind_int64(q, 3, warnings, &rc);
	store_bind_int64(q, 4, checks, &rc);
	return store_bound_change(st, q, rc);
}

int store_patch_remove(struct store *st, int64_t id)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	/* findings first: they point at it */
	q = store_stmt(st, STMT_PATCH_REMOVE_FINDINGS,
		       "DELETE FROM findings WHERE patch_id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	ret = store_bound_write(st, q, rc, NULL, NULL);
	if (ret)
		return ret;
	rc = SQLITE_OK;
	q = store_stmt(st, STMT_PATCH_REMOVE,
		       "DELETE FROM patches WHERE id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	return store_bound_change(st, q, rc);
}

/*
 * The rows of a _list function, grown as they are read: size bytes each,
 * filled by from_row, freed by release on an error.
 */
struct rows {
	char *arr;
	size_t n, alloc, size;
	int (*from_row)(struct store *st, sqlite3_stmt *q, void *row);
	void (*release)(void *row);
};

static int grow_row(struct store *st, sqlite3_stmt *q, void *arg)
{
	struct rows *r = arg;
	int ret;

	ret = store_grow(st, (void **)&r->arr, &r->alloc, r->n, r->size);
	if (!ret)
		ret = r->from_row(st, q, r->arr + r->n * r->size);
	if (!ret)
		r->n++;
	return ret;
}

/*
 * Every row of statement id (sql, ?1 the series) into *out, *n of them;
 * all or none.
 */
static int list_rows(struct store *st, enum store_stmt_id id, const char *sql,
		     int64_t series_id, struct rows *r, void **out, size_t *n)
{
	sqlite3_stmt *q;
	size_t i;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*out = NULL;
	*n = 0;
	q = store_stmt(st, id, sql, &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, series_id, &rc);
	ret = store_bound_each(st, q, rc, grow_row, r);
	if (ret) {
		for (i = 0; i < r->n; i++)
			r->release(r->arr + i * r->size);
		free(r->arr);
		return ret;
	}
	*out = r->arr;
	*n = r->n;
	return STORE_OK;
}

static int patch_from_row(struct store *st, sqlite3_stmt *q, void *row)
{
	return store_patch_from_row(st, q, row);
}

static void patch_release(void *row)
{
	store_patch_release(row);
}

int store_patch_list(struct store *st, int64_t series_id,
		     struct store_patch **out, size_t *n)
{
	struct rows r = { NULL, 0, 0, sizeof(**out), patch_from_row, patch_release };

	return list_rows(st, STMT_PATCH_LIST,
			 "SELECT " PATCH_COLS("") " FROM patches WHERE series_id = ?1"
			 " ORDER BY part, id",
			 series_id, &r, (void **)out, n);
}

/* ---- findings ------------------------------------------------------------ */

void store_finding_release(struct store_finding *f)
{
	if (!f)
		return;
	free(f->type);
	free(f->severity);
	free(f->category);
	free(f->file);
	free(f->message);
	free(f->line_text);
	free(f->fingerprint);
	memset(f, 0, sizeof(*f));
}

int store_finding_from_row(struct store *st, sqlite3_stmt *q, int col,
			   struct store_finding *f)
{
	int oom = 0;

	memset(f, 0, sizeof(*f));
	f->id = sqlite3_column_int64(q, col + 0);
	f->patch_id = store_col_id(q, col + 1);
	f->series_id = store_col_id(q, col + 2);
	f->part = sqlite3_column_int(q, col + 3);
	f->type = store_col_dup(q, col + 4, &oom);
	f->severity = store_col_dup(q, col + 5, &oom);
	f->category = store_col_dup(q, col + 6, &oom);
	f->file = store_col_dup(q, col + 7, &oom);
	f->line = (long)sqlite3_column_int64(q, col + 8);
	f->message = store_col_dup(q, col + 9, &oom);
	f->line_text = store_col_dup(q, col + 10, &oom);
	f->fingerprint = store_col_dup(q, col + 11, &oom);
	if (oom) {
		store_finding_release(f);
		return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	}
	return STORE_OK;
}

/*
 * series_id and part are copied from the patch row, so that a finding
 * cannot disagree with its patch (f->series_id and f->part are ignored).
 */
int store_finding_add(struct store *st, const struct store_finding *f, int64_t *id)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	*id = 0;
	q = store_stmt(st, STMT_FINDING_ADD,
		       "INSERT INTO findings (patch_id, series_id, part, type,"
		       " severity, category, file, line, message, line_text,"
		       " fingerprint)"
		       " SELECT p.id, p.series_id, p.part, ?2, ?3, ?4, ?5, ?6,"
		       " ?7, ?8, ?9 FROM patches p WHERE p.id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, f->patch_id, &rc);
	store_bind_text(q, 2, f->type, &rc);
	store_bind_text(q, 3, f->severity, &rc);
	store_bind_text(q, 4, f->category, &rc);
	store_bind_text(q, 5, f->file, &rc);
	store_bind_int64(q, 6, f->line, &rc);
	store_bind_text(q, 7, f->message, &rc);
	store_bind_text(q, 8, f->line_text, &rc);
	store_bind_text(q, 9, f->fingerprint, &rc);
	ret = store_bound_write(st, q, rc, &changes, id);
	if (ret == STORE_OK && !changes) {
		*id = 0;
		ret = store_seterr(st, STORE_ERR_RANGE, "no patch %lld",
				   (long long)f->patch_id);
	}
	return ret;
}

static int finding_from_row(struct store *st, sqlite3_stmt *q, void *row)
{
	return store_finding_from_row(st, q, 0, row);
}

static void finding_release(void *row)
{
	store_finding_release(row);
}

int store_finding_list(struct store *st, int64_t series_id,
		       struct store_finding **out, size_t *n)
{
	struct rows r = { NULL, 0, 0, sizeof(**out), finding_from_row, finding_release };

	return list_rows(st, STMT_FINDING_LIST,
			 "SELECT " FINDING_COLS("") " FROM findings WHERE series_id = ?1"
			 " ORDER BY part, file, line, id",
			 series_id, &r, (void **)out, n);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: what may be published and the history as reviewbot serve and
 * the query by mail show it (store_web.h).  Every statement is prepared
 * once (the series' once per set of filters, as store_query.c's) with
 * bound parameters; the privacy rule is one SQL fragment,
 * STORE_WEB_PUBLISHED (store_int.h), used by every statement here and by
 * store_query.c's.
 */
#include "store_int.h"
#include "store_web.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../checker/banned.h"

#define STORE_MMAP_SIZE	"2147418112"	/* SQLite's default cap */

const char *const store_categories[STORE_NCATEGORIES] = {
	"security", "uapi", "correctness", "process", "style",
};

int store_category_index(const char *name)
{
	int i;

	for (i = 0; name && i < STORE_NCATEGORIES; i++)
		if (!strcmp(name, store_categories[i]))
			return i;
	return -1;
}

/* ---- opening read-only ---------------------------------------------------- */

int store_open_readonly(const char *path, struct store **out, char *err,
			size_t errlen)
{
	struct store *st;
	int rc, ret, v;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	if (access(path, F_OK)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path,
				 errno == ENOENT ? "no such database" : strerror(errno));
		return errno == ENOENT ? STORE_DONE : STORE_ERR;
	}
	/* SQLite would only say "unable to open database file" */
	if (access(path, R_OK)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return STORE_ERR;
	}
	ret = store_connect(path, SQLITE_OPEN_READONLY, &st, err, errlen);
	if (ret)
		return ret;
	rc = sqlite3_exec(st->db, "PRAGMA query_only = 1", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		ret = store_sqlerr(st, rc);
		goto fail;
	}
	/*
	 * Pages read through a memory map rather than a read() each: the
	 * pages that filter or count many findings read hundreds of
	 * thousands of rows (an author's or a folder's, tests/bench/
	 * bench_serve.sh: about half their time was system calls).  The
	 * map is the kernel's page cache, shared by the handles; SQLite
	 * caps it (2 GiB unless built otherwise) and reads the rest, and
	 * the WAL, as before.
	 */
	rc = sqlite3_exec(st->db, "PRAGMA mmap_size = " STORE_MMAP_SIZE, NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		ret = store_sqlerr(st, rc);
		goto fail;
	}
	v = store_schema_version(st);
	if (v < 0) {
		ret = v;
		goto fail;
	}
	if (v != STORE_SCHEMA_VERSION) {
		ret = store_seterr(st, STORE_ERR_VERSION,
				   v > STORE_SCHEMA_VERSION ?
				   "database schema version %d is newer than %d" :
				   "database schema version %d is older than %d"
				   " (reviewbot run or status upgrades it)",
				   v, STORE_SCHEMA_VERSION);
		goto fail;
	}
	st->version = v;
	store_clearerr(st);
	*out = st;
	return STORE_OK;
fail:
	return store_open_fail(st, path, ret, err, errlen);
}

/* ---- recipients ------------------------------------------------------------ */

int store_msg_set_rcpt(struct store *st, int64_t id, const char *rcpt,
		       const char *list_id)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = store_stmt(st, STMT_MSG_SET_RCPT,
		       "UPDATE messages SET rcpt = ?2, list_id = ?3 WHERE id = ?1", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	store_bind_text(s, 2, rcpt ? rcpt : "", &rc);
	store_bind_text(s, 3, list_id, &rc);
	return store_bound_change(st, s, rc);
}

int store_msg_get_rcpt(struct store *st, int64_t id, char **rcpt, char **list_id)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK, oom = 0;

	store_clearerr(st);
	*rcpt = *list_id = NULL;
	s = store_stmt(st, STMT_MSG_GET_RCPT,
		       "SELECT rcpt, list_id FROM messages WHERE id = ?1", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	ret = store_bound_row(st, s, rc);
	if (ret == STORE_OK) {
		*rcpt = store_col_dup(s, 0, &oom);
		*list_id = store_col_dup(s, 1, &oom);
		if (oom) {
			free(*rcpt);
			free(*list_id);
			*rcpt = *list_id = NULL;
			ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
		}
	}
	store_stmt_done(s);
	return ret;
}

int store_msg_each_without_rcpt(struct store *st,
				int (*cb)(void *arg, int64_t id), void *arg)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = store_stmt(st, STMT_MSG_WITHOUT_RCPT,
		       "SELECT id FROM messages WHERE rcpt IS NULL AND state != ?1"
		       " ORDER BY id", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, MSG_BAD, &rc);
	if (rc) {
		store_stmt_done(s);
		return store_sqlerr(st, rc);
	}
	return store_each_id(st, s, cb, arg);
}

/* ---- published ------------------------------------------------------------- */

int store_web_msg_published(struct store *st, const char *publish, int64_t id)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = store_stmt(st, STMT_WEB_MSG_PUBLISHED,
		       "SELECT 1 FROM messages m LEFT JOIN series s ON s.id = m.series_id"
		       " WHERE m.id = ?1 AND (?2 IS NULL OR "
		       STORE_WEB_PUBLISHED("m", "s", "?2") ")", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	store_bind_text(s, 2, publish, &rc);
	ret = store_bound_row(st, s, rc);
	store_stmt_done(s);
	return ret;
}

int store_web_patch_by_msg(struct store *st, int64_t msg_id, struct store_patch *p)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = store_stmt(st, STMT_WEB_PATCH_BY_MSG,
		       "SELECT " PATCH_COLS("") " FROM patches WHERE msg_id = ?1"
		       " ORDER BY id LIMIT 1", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, msg_id, &rc);
	ret = store_bound_row(st, s, rc);
	if (ret == STORE_OK)
		ret = store_patch_from_row(st, s, p);
	store_stmt_done(s);
	return ret;
}

/* ---- series ---------------------------------------------------------------- */

#define W_SERIES_COLS \
	"s.id, s.list, s.author_addr, s.author_name, s.subject, s.root, s.prefix," \
	" s.change_id, s.version, s.version_minor, s.total, s.cover_msg, s.prev_id," \
	" s.created, s.last_part_at, s.state, s.reviewed_at"
#define W_NSERIES_COLS	17

/* the series' date: its earliest mail's, else its creation */
#define W_SERIES_DATE \
	"coalesce((SELECT min(md.date) FROM messages md" \
	" WHERE md.series_id = s.id AND md.date > 0), s.created)"

/* a patch of s (p, with its mail m) that may be published under ?10 */
#define W_PATCH_OK	STORE_WEB_PUBLISHED("m", "s", "?10")

/* every mail of s may be published (its review may be shown) */
#define W_REVIEW_OK \
	"NOT EXISTS (SELECT 1 FROM messages m" \
	"  WHERE m.series_id = s.id AND NOT " STORE_WEB_PUBLISHED("m", "s", "?10") ")"

/* s's findings of category n, of its published patches under ?10 */
#define W_CAT_COUNT(n) \
	" (SELECT count(*) FROM findings f JOIN patches p ON p.id = f.patch_id" \
	"  LEFT JOIN messages m ON m.id = p.msg_id" \
	"  WHERE f.series_id = s.id AND f.category = '" n "' AND " W_PATCH_OK "),"
#define W_CAT_COUNT_ALL(n) \
	" (SELECT count(*) FROM findings f WHERE f.series_id = s.id" \
	"  AND f.category = '" n "'),"

/*
 * The filters of store_query.c (store_bind_query), each in the text
 * only when set (k, store_query_bits()), and QB_REVIEWED.  The
 * categories' subqueries follow store_categories[].  ORDER BY the
 * rowid, not an expression: SQLite then walks the series in that order
 * and works out the columns of the rows it returns only, where a sort
 * would compute them for every series; newest first is the order the
 * bot stored them, which is the order they came.
 */
static void make_series(struct store_sql *b, uint32_t k)
{
	int pub = (k & QB_PUBLISH) != 0;

	store_sql_add(b, "SELECT " W_SERIES_COLS ", " W_SERIES_DATE ","
		      " (SELECT mc.message_id FROM messages mc WHERE mc.id = s.cover_msg),"
		      " (SELECT mp.message_id FROM patches pp JOIN messages mp ON mp.id = pp.msg_id"
		      "  WHERE pp.series_id = s.id ORDER BY pp.part, pp.id LIMIT 1),");
	if (pub)
		store_sql_add(b, " (SELECT count(*) FROM patches p LEFT JOIN messages m"
			      "  ON m.id = p.msg_id WHERE p.series_id = s.id AND " W_PATCH_OK "),"
			      W_CAT_COUNT("security") W_CAT_COUNT("uapi")
			      W_CAT_COUNT("correctness") W_CAT_COUNT("process")
			      W_CAT_COUNT("style") " r.id, " W_REVIEW_OK ",");
	else
		store_sql_add(b, " (SELECT count(*) FROM patches p WHERE p.series_id = s.id),"
			      W_CAT_COUNT_ALL("security") W_CAT_COUNT_ALL("uapi")
			      W_CAT_COUNT_ALL("correctness") W_CAT_COUNT_ALL("process")
			      W_CAT_COUNT_ALL("style") " r.id, 1,");
	store_sql_add(b, " r.findings, r.nits, r.fixed, r.added, r.still,"
		      " rp.id, rp.message_id, rp.state, rp.reason, rp.sent_at"
		      " FROM series s"
		      " LEFT JOIN reviews r ON r.series_id = s.id"
		      " LEFT JOIN replies rp ON rp.id = r.reply_id"
		      " WHERE 1");
	if (k & QB_AUTHOR)
		store_sql_add(b, " AND s.author_id IN (SELECT a.id FROM authors a"
			      "  WHERE instr(a.who, lower(?1)) > 0)");
	if (k & QB_LIST)
		store_sql_add(b, " AND s.list = ?3");
	if (k & QB_SERIES_MSGID)
		store_sql_add(b, STORE_SERIES_BY_MSGID);
	if (k & QB_SERIES_ID)
		store_sql_add(b, " AND s.id = ?12");
	if (k & QB_PATCH_ID)
		store_sql_add(b, " AND s.id = (SELECT p14.series_id FROM patches p14"
			      " WHERE p14.id = ?14)");
	if (k & QB_SINCE)
		store_sql_add(b, " AND " W_SERIES_DATE " >= ?7");
	if (k & QB_UNTIL)
		store_sql_add(b, " AND " W_SERIES_DATE " <= ?8");
	if (k & QB_FILE) {
		/* the series with such a finding, from the folder's range of
		 * index findings_file alone, once (then exactly, below) */
		store_sql_add(b, " AND s.id IN (SELECT fi.series_id FROM findings fi"
			      "  WHERE fi.file GLOB ?2");
		if (k & QB_CATEGORY)
			store_sql_add(b, " AND instr(',' || ?4 || ',', ',' || fi.category || ',') > 0");
		if (k & QB_TYPE)
			store_sql_add(b, " AND instr(',' || ?5 || ',', ',' || fi.type || ',') > 0");
		store_sql_add(b, ")");
	}
	if (k & (QB_FILE | QB_CATEGORY | QB_TYPE)) {
		store_sql_add(b, " AND EXISTS (SELECT 1 FROM findings f"
			      "  JOIN patches p ON p.id = f.patch_id"
			      "  LEFT JOIN messages m ON m.id = p.msg_id"
			      "  WHERE f.series_id = s.id");
		if (k & QB_FILE)
			store_sql_add(b, " AND f.file GLOB ?2");
		if (k & QB_CATEGORY)
			store_sql_add(b, " AND instr(',' || ?4 || ',', ',' || f.category || ',') > 0");
		if (k & QB_TYPE)
			store_sql_add(b, " AND instr(',' || ?5 || ',', ',' || f.type || ',') > 0");
		if (pub)
			store_sql_add(b, " AND " W_PATCH_OK);
		store_sql_add(b, ")");
	}
	if (pub)
		store_sql_add(b, " AND EXISTS (SELECT 1 FROM patches p"
			      "  JOIN messages m ON m.id = p.msg_id"
			      "  WHERE p.series_id = s.id AND " W_PATCH_OK ")");
	if (k & QB_REVIEWED)
		store_sql_add(b, pub ? " AND r.id IS NOT NULL AND " W_REVIEW_OK :
			      " AND r.id IS NOT NULL");
	/* keyset paging: the series after series ?15 in this order */
	if (k & QB_AFTER)
		store_sql_add(b, k & QB_NEWEST ? " AND s.id < ?15" : " AND s.id > ?15");
	store_sql_add(b, k & QB_NEWEST ? " ORDER BY s.id DESC" : " ORDER BY s.id");
	store_sql_add(b, " LIMIT ?9 OFFSET ?11");
}

static void series_row_release(struct store_series_row *r)
{
	store_series_release(&r->s);
	free(r->msgid);
	free(r->reply_msgid);
	free(r->reply_reason);
	memset(r, 0, sizeof(*r));
}

static int series_row_read(struct store *st, sqlite3_stmt *q, struct store_series_row *r)
{
	int oom = 0, state, c = W_NSERIES_COLS, i, ret;
	char *cover, *first;

	memset(r, 0, sizeof(*r));
	ret = store_series_from_row(st, q, &r->s);
	if (ret)
		return ret;
	r->date = sqlite3_column_int64(q, c++);
	cover = store_col_dup(q, c++, &oom);
	first = store_col_dup(q, c++, &oom);
	if (cover) {
		r->msgid = cover;
		free(first);
	} else {
		r->msgid = first;
	}
	r->patches = (long)sqlite3_column_int64(q, c++);
	for (i = 0; i < STORE_NCATEGORIES; i++)
		r->per_cat[i] = (long)sqlite3_column_int64(q, c++);
	r->review_id = store_col_id(q, c++);
	r->review_published = r->review_id && sqlite3_column_int(q, c);
	c++;
	r->shown = (long)sqlite3_column_int64(q, c++);
	r->nits = (long)sqlite3_column_int64(q, c++);
	r->fixed = (long)sqlite3_column_int64(q, c++);
	r->added = (long)sqlite3_column_int64(q, c++);
	r->still = (long)sqlite3_column_int64(q, c++);
	r->reply_id = store_col_id(q, c++);
	r->reply_msgid = store_col_dup(q, c++, &oom);
	state = sqlite3_column_int(q, c++);
	r->reply_state = state >= 0 && state < REPLY__COUNT ? state : REPLY_FAILED;
	r->reply_reason = store_col_dup(q, c++, &oom);
	r->reply_sent_at = sqlite3_column_int64(q, c++);
	if (oom) {
		series_row_release(r);
		return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	}
	return STORE_OK;
}

struct series_cb {
	int (*cb)(void *arg, const struct store_series_row *r);
	void *arg;
};

static int series_row(struct store *st, sqlite3_stmt *q, void *arg)
{
	struct series_cb *c = arg;
	struct store_series_row row;
	int ret;

	ret = series_row_read(st, q, &row);
	if (ret)
		return ret;
	ret = c->cb(c->arg, &row);
	series_row_release(&row);
	return ret;
}

int store_web_series(struct store *st, const struct store_query *q,
		     int reviewed_only,
		     int (*cb)(void *arg, const struct store_series_row *r),
		     void *arg)
{
	struct series_cb c = { cb, arg };
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	struct store_sql b = { NULL, 0, 0 };
	uint32_t k = store_query_bits(q) | (reviewed_only ? QB_REVIEWED : 0);

	store_clearerr(st);
	k &= ~QB_FILE_EXACT;
	s = store_shape_find(st, SHAPE_SERIES, k);
	if (!s) {
		make_series(&b, k);
		if (b.err) {
			store_sql_release(&b);
			return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
		}
		s = store_shape_prepare(st, SHAPE_SERIES, k, b.buf, &ret);
		store_sql_release(&b);
		if (!s)
			return ret;
	}
	store_bind_query(s, q, &rc);
	return store_bound_each(st, s, rc, series_row, &c);
}

struct lists_cb {
	int (*cb)(void *arg, const char *list, long long series, int64_t latest);
	void *arg;
};

static int lists_row(struct store *st, sqlite3_stmt *s, void *arg)
{
	struct lists_cb *c = arg;

	(void)st;
	return c->cb(c->arg, (const char *)sqlite3_column_text(s, 0),
		     sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2));
}

int store_web_lists(struct store *st, const char *publish,
		    int (*cb)(void *arg, const char *list, long long series,
			      int64_t latest),
		    void *arg)
{
	struct lists_cb c = { cb, arg };
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = store_stmt(st, STMT_WEB_LISTS,
		       "SELECT s.list, count(*), max(s.created) FROM series s"
		       " WHERE s.list IS NOT NULL AND (?10 IS NULL OR EXISTS ("
		       "  SELECT 1 FROM patches p JOIN messages m ON m.id = p.msg_id"
		       "  WHERE p.series_id = s.id AND "
		       STORE_WEB_PUBLISHED("m", "s", "?10") "))"
		       " GROUP BY s.list ORDER BY s.list", &ret);
	if (!s)
		return ret;
	store_bind_text(s, 10, publish, &rc);
	return store_bound_each(st, s, rc, lists_row, &c);
}

/* ---- versions -------------------------------------------------------------- */

void store_versions_free(struct store_version *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free(v[i].msgid);
		free(v[i].subject);
	}
	free(v);
}

static int next_version(struct store *st, int64_t id, int64_t *next)
{
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	s = store_stmt(st, STMT_WEB_NEXT_VERSION,
		       "SELECT id FROM series WHERE prev_id = ?1 AND id != ?1"
		       " ORDER BY version, version_minor, created, id LIMIT 1", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	return store_bound_int64(st, s, rc, next);
}

/* A sorted array of malloc'd strings. */
struct strv {
	char **v;
	size_t n, alloc;
};

static void strv_free(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

static int fingerprint_row(struct store *st, sqlite3_stmt *s, void *arg)
{
	struct strv *fp = arg;
	int ret, oom = 0;

	ret = store_grow(st, (void **)&fp->v, &fp->alloc, fp->n, sizeof(*fp->v));
	if (ret)
		return ret;
	fp->v[fp->n] = store_col_dup(s, 0, &oom);
	if (oom || !fp->v[fp->n])
		return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	fp->n++;
	return STORE_OK;
}

/* The distinct fingerprints of series id (published ones under
 * publish), sorted: *out malloc'd strings. */
static int fingerprints(struct store *st, int64_t id, const char *publish,
			char ***out, size_t *n)
{
	struct strv fp = { NULL, 0, 0 };
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	*out = NULL;
	*n = 0;
	s = store_stmt(st, STMT_WEB_FINGERPRINTS,
		       "SELECT DISTINCT f.fingerprint FROM findings f"
		       " JOIN patches p ON p.id = f.patch_id"
		       " JOIN series s ON s.id = f.series_id"
		       " LEFT JOIN messages m ON m.id = p.msg_id"
		       " WHERE f.series_id = ?1 AND f.fingerprint IS NOT NULL"
		       " AND (?10 IS NULL OR " W_PATCH_OK ")"
		       " ORDER BY 1", &ret);
	if (!s)
		return ret;
	store_bind_int64(s, 1, id, &rc);
	store_bind_text(s, 10, publish, &rc);
	ret = store_bound_each(st, s, rc, fingerprint_row, &fp);
	if (ret) {
		strv_free(fp.v, fp.n);
		return ret;
	}
	*out = fp.v;
	*n = fp.n;
	return STORE_OK;
}

struct one_series {
	struct store_series_row row;
	int found;
};

static int keep_one(void *arg, const struct store_series_row *r)
{
	struct one_series *o = arg;

	o->found = 1;
	o->row.s.version = r->s.version;
	o->row.s.version_minor = r->s.version_minor;
	o->row.date = r->date;
	o->row.msgid = r->msgid ? strdup(r->msgid) : NULL;
	o->row.s.subject = r->s.subject ? strdup(r->s.subject) : NULL;
	if ((r->msgid && !o->row.msgid) || (r->s.subject && !o->row.s.subject))
		return STORE_ERR_NOMEM;
	return 1;
}

int store_web_versions(struct store *st, int64_t series_id, const char *publish,
		       struct store_version **out, size_t *n, size_t *self)
{
	int64_t chain[2 * STORE_MAX_VERSIONS + 1];
	struct store_version *v = NULL;
	struct store_series cur;
	char **prevfp = NULL, **fp = NULL;
	size_t nchain = 0, nv = 0, nprev = 0, nfp = 0, i, j, k, first;
	int64_t id, next;
	int ret = STORE_OK, have_prev = 0;

	*out = NULL;
	*n = 0;
	*self = 0;
	store_clearerr(st);
	/* back to the first version (a loop in prev_id ends the walk) */
	chain[STORE_MAX_VERSIONS] = series_id;
	first = STORE_MAX_VERSIONS;
	id = series_id;
	while (first > 0) {
		ret = store_series_get(st, id, &cur);
		if (ret == STORE_DONE && id != series_id)
			break;	/* a predecessor forgotten since */
		if (ret)
			return ret;
		id = cur.prev_id;
		store_series_release(&cur);
		for (k = first; id && k <= STORE_MAX_VERSIONS; k++)
			if (chain[k] == id)
				id = 0;
		if (!id)
			break;
		chain[--first] = id;
	}
	nchain = STORE_MAX_VERSIONS + 1;
	/* and on to the latest */
	id = series_id;
	while (nchain < sizeof(chain) / sizeof(chain[0])) {
		ret = next_version(st, id, &next);
		if (ret == STORE_DONE)
			break;
		if (ret)
			return ret;
		for (k = first; k < nchain; k++)
			if (chain[k] == next)
				next = 0;
		if (!next)
			break;
		chain[nchain++] = id = next;
	}
	ret = STORE_OK;
	v = calloc(nchain - first, sizeof(*v));
	if (!v)
		return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	*self = nchain;	/* not published: past the end */
	for (k = first; k < nchain; k++) {
		struct store_query q;
		struct one_series o;

		memset(&q, 0, sizeof(q));
		memset(&o, 0, sizeof(o));
		q.series_id = chain[k];
		q.publish = publish;
		ret = store_web_series(st, &q, 0, keep_one, &o);
		if (ret < 0) {
			free(o.row.msgid);
			free(o.row.s.subject);
			goto out;
		}
		ret = STORE_OK;
		if (!o.found)
			continue;
		ret = fingerprints(st, chain[k], publish, &fp, &nfp);
		if (ret) {
			free(o.row.msgid);
			free(o.row.s.subject);
			goto out;
		}
		v[nv].series_id = chain[k];
		v[nv].version = o.row.s.version;
		v[nv].version_minor = o.row.s.version_minor;
		v[nv].msgid = o.row.msgid;
		v[nv].subject = o.row.s.subject;
		v[nv].date = o.row.date;
		v[nv].findings = (long)nfp;
		if (have_prev) {
			/* both sorted: one merge pass */
			for (i = 0, j = 0; i < nprev || j < nfp;) {
				int c = i == nprev ? 1 : j == nfp ? -1 :
					strcmp(prevfp[i], fp[j]);

				if (c < 0) {
					v[nv].fixed++;
					i++;
				} else if (c > 0) {
					v[nv].added++;
					j++;
				} else {
					v[nv].still++;
					i++;
					j++;
				}
			}
		}
		if (chain[k] == series_id)
			*self = nv;
		nv++;
		strv_free(prevfp, nprev);
		prevfp = fp;
		nprev = nfp;
		fp = NULL;
		nfp = 0;
		have_prev = 1;
	}
	if (*self == nchain)
		*self = nv;
out:
	strv_free(prevfp, nprev);
	strv_free(fp, nfp);
	if (ret) {
		store_versions_free(v, nv);
		*self = 0;
		return ret;
	}
	*out = v;
	*n = nv;
	return STORE_OK;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: the maintainers' queries (reviewbot query).  A statement per
 * set of filters (a shape, store_shape_find()): the WHERE clause holds
 * the fixed fragment of each filter that is set and nothing of the
 * others, so that SQLite can use an index for it, and every value is a
 * bound parameter: the SQL text never holds what the user typed.  The
 * filters also choose the order of the tables (q_from_findings()).
 *
 * Parameters (store_bind_query), the same number in every shape:
 *   ?1 author (substring of address or name, ASCII case-insensitive)
 *   ?2 file glob   ?3 list
 *   ?4 categories   ?5 types (each a ','-separated list of names)
 *   ?6 a Message-ID of the series   ?7 since   ?8 until   ?9 limit (-1: none)
 *   ?10 publish: only what may be published (store_web.h), the public
 *       lists and sources as JSON   ?11 offset   ?12 series id
 *   ?14 patch id   ?15 after: the row a keyset page starts after
 */
#include "store_int.h"
#include "store_web.h"

#include <stdlib.h>
#include <string.h>

#include "../checker/banned.h"

/* The patch mail's author, or the series' when the mail is missing. */
#define Q_AUTHOR_ADDR	"coalesce(m.from_addr, s.author_addr)"
#define Q_AUTHOR_NAME	"coalesce(m.from_name, s.author_name)"

/*
 * A series by any of its messages: a message assigned to it, the mail
 * of one of its patches, or its root.
 */
#define Q_SERIES_FILTER STORE_SERIES_BY_MSGID

/*
 * The author filter: the patch's "address name" (its mail's, the
 * series' where the mail has none) contains ?1, any ASCII case.  The
 * few thousand texts are read, then index patches_author (schema 10).
 */
#define Q_AUTHOR_FILTER \
	" AND p.author_id IN (SELECT a.id FROM authors a" \
	"  WHERE instr(a.who, lower(?1)) > 0)"

/*
 * The order of the tables.  A filter with an index of its own (an
 * author, a series, a patch, one file) drives the statement; without
 * one, rows that need their mail (published ones, a date range) are
 * read newest (or oldest) mail first from index messages_date, and a
 * page stops after its rows instead of sorting every finding.
 */
#define Q_FROM_FINDINGS(mjoin) \
	" FROM findings f" \
	" JOIN patches p ON p.id = f.patch_id" \
	" JOIN series s ON s.id = f.series_id" \
	" " mjoin " messages m ON m.id = p.msg_id"
#define Q_FROM_DATES \
	" FROM messages m" \
	" CROSS JOIN patches p ON p.msg_id = m.id" \
	" CROSS JOIN findings f INDEXED BY findings_patch ON f.patch_id = p.id" \
	" JOIN series s ON s.id = f.series_id"

#define Q_DRIVERS \
	(QB_AUTHOR | QB_SERIES_MSGID | QB_SERIES_ID | QB_PATCH_ID | QB_FILE_EXACT)

/* every row has its mail: published ones, or a date range */
static int q_needs_mail(uint32_t k)
{
	return (k & (QB_PUBLISH | QB_SINCE | QB_UNTIL)) != 0;
}

/* a GLOB matching one name only: no * or ?, and [ only as "[c]" */
static int glob_is_literal(const char *g)
{
	for (; *g; g++) {
		if (*g == '[' && g[1] && g[1] != ']' && g[2] == ']')
			g += 2;
		else if (*g == '*' || *g == '?' || *g == '[')
			return 0;
	}
	return 1;
}

uint32_t store_query_bits(const struct store_query *q)
{
	uint32_t k = 0;

	if (q->author)
		k |= QB_AUTHOR;
	if (q->file_glob)
		k |= QB_FILE | (glob_is_literal(q->file_glob) ? QB_FILE_EXACT : 0);
	if (q->list)
		k |= QB_LIST;
	if (q->category)
		k |= QB_CATEGORY;
	if (q->type)
		k |= QB_TYPE;
	if (q->series_msgid)
		k |= QB_SERIES_MSGID;
	if (q->since)
		k |= QB_SINCE;
	if (q->until)
		k |= QB_UNTIL;
	if (q->publish)
		k |= QB_PUBLISH;
	if (q->series_id)
		k |= QB_SERIES_ID;
	if (q->patch_id)
		k |= QB_PATCH_ID;
	if (q->newest_first)
		k |= QB_NEWEST;
	if (q->after)
		k |= QB_AFTER;
	return k;
}

/* f's file, category and type (" AND ..." each) */
static void q_finding_filters(struct store_sql *b, uint32_t k, const char *f)
{
	if (k & QB_FILE) {
		store_sql_add(b, " AND ");
		store_sql_add(b, f);
		store_sql_add(b, ".file GLOB ?2");
	}
	if (k & QB_CATEGORY) {
		store_sql_add(b, " AND instr(',' || ?4 || ',', ',' || ");
		store_sql_add(b, f);
		store_sql_add(b, ".category || ',') > 0");
	}
	if (k & QB_TYPE) {
		store_sql_add(b, " AND instr(',' || ?5 || ',', ',' || ");
		store_sql_add(b, f);
		store_sql_add(b, ".type || ',') > 0");
	}
}

/* " WHERE 1" and the filters of k on p, s and m (and f with with_f) */
static void q_filters(struct store_sql *b, uint32_t k, int with_f)
{
	store_sql_add(b, " WHERE 1");
	if (k & QB_AUTHOR)
		store_sql_add(b, Q_AUTHOR_FILTER);
	/* a list without a series ends the statement at once (SQLite
	 * evaluates the EXISTS once, before reading a row) */
	if (k & QB_LIST)
		store_sql_add(b, " AND s.list = ?3"
			      " AND EXISTS (SELECT 1 FROM series sl WHERE sl.list = ?3)");
	if (k & QB_SERIES_MSGID)
		store_sql_add(b, Q_SERIES_FILTER);
	if (k & QB_SINCE)
		store_sql_add(b, " AND m.date >= ?7");
	if (k & QB_UNTIL)
		store_sql_add(b, " AND m.date <= ?8");
	/* a series' or a patch's findings from index findings_series or
	 * findings_patch */
	if (k & QB_SERIES_ID)
		store_sql_add(b, with_f ? " AND f.series_id = ?12" : " AND p.series_id = ?12");
	if (k & QB_PATCH_ID)
		store_sql_add(b, with_f ? " AND f.patch_id = ?14" : " AND p.id = ?14");
	if (k & QB_PUBLISH)
		store_sql_add(b, " AND " STORE_WEB_PUBLISHED("m", "s", "?10"));
	if (with_f)
		q_finding_filters(b, k, "f");
}

/* FROM findings, patches, series and messages in the order k wants;
 * all: every row is read (a count), so the date walk only serves a
 * date range, and a file glob's range of index findings_file drives */
static void q_from_findings(struct store_sql *b, uint32_t k, int all)
{
	int walk = !(k & Q_DRIVERS) && q_needs_mail(k);

	/* a folder and a category or type: few rows, found in the
	 * folder's range of the index alone (it holds both) */
	if ((k & QB_FILE) && (k & (QB_CATEGORY | QB_TYPE)))
		walk = 0;
	if (all)
		walk = !(k & (Q_DRIVERS | QB_FILE)) && (k & (QB_SINCE | QB_UNTIL));
	if (walk)
		store_sql_add(b, Q_FROM_DATES);
	else if (q_needs_mail(k))
		store_sql_add(b, Q_FROM_FINDINGS("JOIN"));
	else
		store_sql_add(b, Q_FROM_FINDINGS("LEFT JOIN"));
}

/* the rows' order: their mail's date and id, oldest or newest first
 * (a patch without its mail as one of date 0) */
static void q_date_order(struct store_sql *b, uint32_t k)
{
	store_sql_add(b, k & QB_NEWEST ? " ORDER BY m.date DESC, m.id DESC" :
		      " ORDER BY m.date, m.id");
}

/*
 * Keyset paging (QB_AFTER): the rows after row ?15 in q_date_order()'s
 * order, then tail (the rest of the order: a finding's part, file, line
 * and id, or a patch's part and id), cur the same of the row ?15 (from
 * its mail xm, its patch xp and its finding xf).  Its mail's date and id
 * are read once (uncorrelated subqueries), and "m.date <= its date"
 * lets the walk over index messages_date start there instead of reading
 * every row before it, as an offset does.
 */
static void q_after(struct store_sql *b, uint32_t k, const char *from,
		    const char *tail, const char *cur)
{
	const char *lt = k & QB_NEWEST ? " < " : " > ";
	const char *le = k & QB_NEWEST ? " <= " : " >= ";

	if (!(k & QB_AFTER))
		return;
	store_sql_add(b, " AND m.date");
	store_sql_add(b, le);
	store_sql_add(b, "(SELECT xm.date");
	store_sql_add(b, from);
	store_sql_add(b, ") AND (m.date");
	store_sql_add(b, lt);
	store_sql_add(b, "(SELECT xm.date");
	store_sql_add(b, from);
	store_sql_add(b, ") OR (m.date = (SELECT xm.date");
	store_sql_add(b, from);
	store_sql_add(b, ") AND (m.id");
	store_sql_add(b, lt);
	store_sql_add(b, "(SELECT xm.id");
	store_sql_add(b, from);
	store_sql_add(b, ") OR (m.id = (SELECT xm.id");
	store_sql_add(b, from);
	store_sql_add(b, ") AND ");
	store_sql_add(b, tail);
	store_sql_add(b, " > (SELECT ");
	store_sql_add(b, cur);
	store_sql_add(b, from);
	store_sql_add(b, ")))))");
}

/*
 * the finding ?15, its patch and its mail; under publish only one that
 * may be published (a private one's date must not show through the
 * rows after it: it is as one that is not there)
 */
#define Q_AFTER_FINDING \
	" FROM findings xf JOIN patches xp ON xp.id = xf.patch_id" \
	" JOIN messages xm ON xm.id = xp.msg_id WHERE xf.id = ?15"
#define Q_AFTER_FINDING_PUB \
	" FROM findings xf JOIN patches xp ON xp.id = xf.patch_id" \
	" JOIN messages xm ON xm.id = xp.msg_id JOIN series xs ON xs.id = xp.series_id" \
	" WHERE xf.id = ?15 AND " STORE_WEB_PUBLISHED("xm", "xs", "?10")
/* the patch ?15 and its mail, the same way */
#define Q_AFTER_PATCH \
	" FROM patches xp JOIN messages xm ON xm.id = xp.msg_id WHERE xp.id = ?15"
#define Q_AFTER_PATCH_PUB \
	" FROM patches xp JOIN messages xm ON xm.id = xp.msg_id" \
	" JOIN series xs ON xs.id = xp.series_id" \
	" WHERE xp.id = ?15 AND " STORE_WEB_PUBLISHED("xm", "xs", "?10")

/* The statement of kind for q's filters (k), prepared once per shape. */
static sqlite3_stmt *q_stmt(struct store *st, enum store_shape_kind kind, uint32_t k,
			    void (*make)(struct store_sql *b, uint32_t k), int *ret)
{
	struct store_sql b = { NULL, 0, 0 };
	sqlite3_stmt *s;

	s = store_shape_find(st, kind, k);
	if (s)
		return s;
	make(&b, k);
	if (b.err) {
		store_sql_release(&b);
		*ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
		return NULL;
	}
	s = store_shape_prepare(st, kind, k, b.buf, ret);
	store_sql_release(&b);
	return s;
}

static void make_findings(struct store_sql *b, uint32_t k)
{
	store_sql_add(b, "SELECT " FINDING_COLS("f.") ","
		      " m.message_id, m.subject, " Q_AUTHOR_ADDR ", " Q_AUTHOR_NAME ","
		      " s.list, m.date, s.version, s.total, s.version_minor");
	q_from_findings(b, k, 0);
	q_filters(b, k, 1);
	q_after(b, k, k & QB_PUBLISH ? Q_AFTER_FINDING_PUB : Q_AFTER_FINDING,
		"(f.part, ifnull(f.file, ''), f.line, f.id)",
		"xf.part, ifnull(xf.file, ''), xf.line, xf.id");
	q_date_order(b, k);
	store_sql_add(b, ", f.part, ifnull(f.file, ''), f.line, f.id LIMIT ?9 OFFSET ?11");
}

/*
 * A patch is listed when it has at least one finding matching all of
 * file glob, category and type (or always, when none of them is set);
 * its count is of those findings.
 */
static void make_patches(struct store_sql *b, uint32_t k)
{
	uint32_t fk = k & (QB_FILE | QB_CATEGORY | QB_TYPE);

	store_sql_add(b, "SELECT " PATCH_COLS("p.") ","
		      " m.message_id, " Q_AUTHOR_ADDR ", " Q_AUTHOR_NAME ","
		      " s.list, m.date, s.version, s.total, s.version_minor,"
		      " (SELECT count(*) FROM findings f WHERE f.patch_id = p.id");
	q_finding_filters(b, fk, "f");
	store_sql_add(b, ")");
	if (!(k & Q_DRIVERS) && q_needs_mail(k))
		store_sql_add(b, " FROM messages m"
			      " CROSS JOIN patches p ON p.msg_id = m.id"
			      " JOIN series s ON s.id = p.series_id");
	else
		store_sql_add(b, q_needs_mail(k) ?
			      " FROM patches p JOIN series s ON s.id = p.series_id"
			      " JOIN messages m ON m.id = p.msg_id" :
			      " FROM patches p JOIN series s ON s.id = p.series_id"
			      " LEFT JOIN messages m ON m.id = p.msg_id");
	q_filters(b, k, 0);
	if (fk && (k & QB_FILE_EXACT)) {
		/* the file's findings first (index findings_file) */
		store_sql_add(b, " AND p.id IN (SELECT f.patch_id FROM findings f WHERE 1");
		q_finding_filters(b, fk, "f");
		store_sql_add(b, ")");
	} else if (fk) {
		store_sql_add(b, " AND EXISTS (SELECT 1 FROM findings f WHERE f.patch_id = p.id");
		q_finding_filters(b, fk, "f");
		store_sql_add(b, ")");
	}
	q_after(b, k, k & QB_PUBLISH ? Q_AFTER_PATCH_PUB : Q_AFTER_PATCH, "(p.part, p.id)",
		"xp.part, xp.id");
	q_date_order(b, k);
	store_sql_add(b, ", p.part, p.id LIMIT ?9 OFFSET ?11");
}

void store_bind_query(sqlite3_stmt *s, const struct store_query *q, int *rc)
{
	int64_t limit = -1;
	int n = sqlite3_bind_parameter_count(s);

	/* each filter's parameter is in the statement exactly when the
	 * filter is set (an unset one would be NULL); limit and offset
	 * when the statement has them */
	if (q->limit && (unsigned long long)q->limit <= (unsigned long long)INT64_MAX)
		limit = (int64_t)q->limit;
	if (q->author)
		store_bind_text(s, 1, q->author, rc);
	if (q->file_glob)
		store_bind_text(s, 2, q->file_glob, rc);
	if (q->list)
		store_bind_text(s, 3, q->list, rc);
	if (q->category)
		store_bind_text(s, 4, q->category, rc);
	if (q->type)
		store_bind_text(s, 5, q->type, rc);
	if (q->series_msgid)
		store_bind_text(s, 6, q->series_msgid, rc);
	if (q->since)
		store_bind_int64(s, 7, q->since, rc);
	if (q->until)
		store_bind_int64(s, 8, q->until, rc);
	if (n >= 9)
		store_bind_int64(s, 9, limit, rc);
	if (q->publish)
		store_bind_text(s, 10, q->publish, rc);
	if (n >= 11)
		store_bind_int64(s, 11, q->offset <= (size_t)INT64_MAX ?
				 (int64_t)q->offset : INT64_MAX, rc);
	if (q->series_id)
		store_bind_int64(s, 12, q->series_id, rc);
	if (q->patch_id)
		store_bind_int64(s, 14, q->patch_id, rc);
	if (q->after)
		store_bind_int64(s, 15, q->after, rc);
}

static void query_row_release(struct store_query_row *r)
{
	store_finding_release(&r->f);
	free(r->message_id);
	free(r->subject);
	free(r->author_addr);
	free(r->author_name);
	free(r->list);
	memset(r, 0, sizeof(*r));
}

struct findings_cb {
	int (*cb)(void *arg, const struct store_query_row *r);
	void *arg;
};

static int findings_row(struct store *st, sqlite3_stmt *s, void *arg)
{
	struct findings_cb *c = arg;
	struct store_query_row row;
	int ret, oom = 0;

	memset(&row, 0, sizeof(row));
	ret = store_finding_from_row(st, s, 0, &row.f);
	if (ret)
		return ret;
	row.message_id = store_col_dup(s, 12, &oom);
	row.subject = store_col_dup(s, 13, &oom);
	row.author_addr = store_col_dup(s, 14, &oom);
	row.author_name = store_col_dup(s, 15, &oom);
	row.list = store_col_dup(s, 16, &oom);
	row.date = sqlite3_column_int64(s, 17);
	row.version = sqlite3_column_int(s, 18);
	row.total = sqlite3_column_int(s, 19);
	row.version_minor = sqlite3_column_int(s, 20);
	if (oom)
		ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	else
		ret = c->cb(c->arg, &row);
	query_row_release(&row);
	return ret;
}

int store_query_findings(struct store *st, const struct store_query *q,
			 int (*cb)(void *arg, const struct store_query_row *r),
			 void *arg)
{
	struct findings_cb c = { cb, arg };
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = q_stmt(st, SHAPE_FINDINGS, store_query_bits(q), make_findings, &ret);
	if (!s)
		return ret;
	store_bind_query(s, q, &rc);
	return store_bound_each(st, s, rc, findings_row, &c);
}

static void patch_row_release(struct store_patch_row *r)
{
	store_patch_release(&r->p);
	free(r->message_id);
	free(r->author_addr);
	free(r->author_name);
	free(r->list);
	memset(r, 0, sizeof(*r));
}

struct patches_cb {
	int (*cb)(void *arg, const struct store_patch_row *r);
	void *arg;
};

static int patches_row(struct store *st, sqlite3_stmt *s, void *arg)
{
	struct patches_cb *c = arg;
	struct store_patch_row row;
	int ret, oom = 0;

	memset(&row, 0, sizeof(row));
	ret = store_patch_from_row(st, s, &row.p);
	if (ret)
		return ret;
	row.message_id = store_col_dup(s, 9, &oom);
	row.author_addr = store_col_dup(s, 10, &oom);
	row.author_name = store_col_dup(s, 11, &oom);
	row.list = store_col_dup(s, 12, &oom);
	row.date = sqlite3_column_int64(s, 13);
	row.version = sqlite3_column_int(s, 14);
	row.total = sqlite3_column_int(s, 15);
	row.version_minor = sqlite3_column_int(s, 16);
	row.findings = (long)sqlite3_column_int64(s, 17);
	if (oom)
		ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	else
		ret = c->cb(c->arg, &row);
	patch_row_release(&row);
	return ret;
}

int store_query_patches(struct store *st, const struct store_query *q,
			int (*cb)(void *arg, const struct store_patch_row *r),
			void *arg)
{
	struct patches_cb c = { cb, arg };
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = q_stmt(st, SHAPE_PATCHES, store_query_bits(q), make_patches, &ret);
	if (!s)
		return ret;
	store_bind_query(s, q, &rc);
	return store_bound_each(st, s, rc, patches_row, &c);
}

/* ---- per week, and counted by keys (store_web.h) ---------------------------- */

/* the Monday 00:00 UTC starting m.date's week (1970-01-01 was a Thursday) */
#define Q_WEEK	"(m.date - ((m.date / 86400 + 3) % 7) * 86400 - m.date % 86400)"

/*
 * Without a filter that drives, the messages first (CROSS JOIN keeps
 * that order) and the since as a range of index messages_date, so that
 * the chart's recent weeks are read alone; the planner left alone
 * scans every finding.
 */
static void make_weekly(struct store_sql *b, uint32_t k)
{
	store_sql_add(b, "SELECT " Q_WEEK ", f.category, count(*)");
	q_from_findings(b, k, 1);
	q_filters(b, k, 1);
	store_sql_add(b, " AND m.date > 0 GROUP BY 1, 2 ORDER BY 1, 2");
}

struct weekly_cb {
	int (*cb)(void *arg, int64_t week, const char *category, long long n);
	void *arg;
};

static int weekly_row(struct store *st, sqlite3_stmt *s, void *arg)
{
	struct weekly_cb *c = arg;
	const char *cat = (const char *)sqlite3_column_text(s, 1);

	(void)st;
	return c->cb(c->arg, sqlite3_column_int64(s, 0), cat ? cat : "",
		     sqlite3_column_int64(s, 2));
}

int store_web_weekly(struct store *st, const struct store_query *q,
		     int (*cb)(void *arg, int64_t week, const char *category,
			       long long n),
		     void *arg)
{
	struct weekly_cb c = { cb, arg };
	struct store_query all = *q;
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	all.limit = 0;
	all.offset = 0;
	s = q_stmt(st, SHAPE_WEEKLY, store_query_bits(&all) & ~QB_NEWEST, make_weekly, &ret);
	if (!s)
		return ret;
	store_bind_query(s, &all, &rc);
	return store_bound_each(st, s, rc, weekly_row, &c);
}

/*
 * The keys chosen are in the shape (k >> QB_KEYS_SHIFT, enum
 * store_count_key bits); a key not chosen is NULL in every row, so it
 * does not split the groups.
 */
static void make_count(struct store_sql *b, uint32_t k)
{
	unsigned keys = k >> QB_KEYS_SHIFT;

	store_sql_add(b, keys & COUNT_AUTHOR ? "SELECT lower(" Q_AUTHOR_ADDR ")," :
		      "SELECT NULL,");
	store_sql_add(b, keys & COUNT_TYPE ? " f.type," : " NULL,");
	store_sql_add(b, keys & COUNT_CATEGORY ? " f.category," : " NULL,");
	store_sql_add(b, keys & COUNT_FILE ? " f.file," : " NULL,");
	store_sql_add(b, keys & COUNT_LIST ? " s.list," : " NULL,");
	store_sql_add(b, keys & COUNT_WEEK ?
		      " CASE WHEN m.date > 0 THEN " Q_WEEK " END," : " NULL,");
	store_sql_add(b, " count(*)");
	q_from_findings(b, k, 1);
	q_filters(b, k, 1);
	store_sql_add(b, " GROUP BY 1, 2, 3, 4, 5, 6"
		      " ORDER BY 7 DESC, 1, 2, 3, 4, 5, 6"
		      " LIMIT ?9 OFFSET ?11");
}

struct count_cb {
	int (*cb)(void *arg, const struct store_count_row *r);
	void *arg;
};

static int count_row(struct store *st, sqlite3_stmt *s, void *arg)
{
	struct count_cb *c = arg;
	struct store_count_row row;

	(void)st;
	memset(&row, 0, sizeof(row));
	row.author = (const char *)sqlite3_column_text(s, 0);
	row.type = (const char *)sqlite3_column_text(s, 1);
	row.category = (const char *)sqlite3_column_text(s, 2);
	row.file = (const char *)sqlite3_column_text(s, 3);
	row.list = (const char *)sqlite3_column_text(s, 4);
	row.week = sqlite3_column_int64(s, 5);
	row.n = sqlite3_column_int64(s, 6);
	return c->cb(c->arg, &row);
}

int store_query_count(struct store *st, const struct store_query *q, unsigned keys,
		      int (*cb)(void *arg, const struct store_count_row *r),
		      void *arg)
{
	struct count_cb c = { cb, arg };
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	s = q_stmt(st, SHAPE_COUNT, (store_query_bits(q) & ~QB_NEWEST) |
		   (uint32_t)(keys & 63) << QB_KEYS_SHIFT, make_count, &ret);
	if (!s)
		return ret;
	store_bind_query(s, q, &rc);
	return store_bound_each(st, s, rc, count_row, &c);
}

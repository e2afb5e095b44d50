// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: the maintainers' queries (reviewbot query).  One statement per
 * query; every filter is a bound parameter that NULL disables, so the
 * SQL text never depends on what the user typed.
 *
 * Parameters shared by both statements:
 *   ?1 author (substring of address or name, ASCII case-insensitive)
 *   ?2 file glob   ?3 list
 *   ?4 categories   ?5 types (each a ','-separated list of names)
 *   ?6 a Message-ID of the series   ?7 since   ?8 until   ?9 limit (-1: none)
 *   ?10 publish: only what may be published (store_web.h), the public
 *       lists and sources as JSON   ?11 offset   ?12 series id
 *   ?13 newest first (1) or oldest first (0)   ?14 patch id
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
#define Q_SERIES_FILTER \
	" AND (?6 IS NULL OR s.id IN (" \
	"  SELECT m6.series_id FROM messages m6 WHERE m6.message_id = ?6" \
	"  UNION SELECT p6.series_id FROM patches p6" \
	"   JOIN messages m6 ON m6.id = p6.msg_id WHERE m6.message_id = ?6" \
	"  UNION SELECT s6.id FROM series s6 WHERE s6.root = ?6))"

#define Q_COMMON_FILTERS \
	" WHERE (?1 IS NULL OR instr(lower(ifnull(" Q_AUTHOR_ADDR ", '')" \
	"  || ' ' || ifnull(" Q_AUTHOR_NAME ", '')), lower(?1)) > 0)" \
	" AND (?3 IS NULL OR s.list = ?3)" \
	Q_SERIES_FILTER \
	" AND (?7 IS NULL OR m.date >= ?7)" \
	" AND (?8 IS NULL OR m.date <= ?8)" \
	" AND (?12 IS NULL OR s.id = ?12)" \
	" AND (?14 IS NULL OR p.id = ?14)" \
	" AND (?10 IS NULL OR " STORE_WEB_PUBLISHED("m", "s", "?10") ")"

/* f's category and type in the lists ?4 and ?5 */
#define Q_FINDING_FILTERS(f) \
	" AND (?2 IS NULL OR " f ".file GLOB ?2)" \
	" AND (?4 IS NULL OR instr(',' || ?4 || ',', ',' || " f ".category || ',') > 0)" \
	" AND (?5 IS NULL OR instr(',' || ?5 || ',', ',' || " f ".type || ',') > 0)"

/* the order of the rows, oldest or newest (?13) first */
#define Q_DATE_ORDER \
	" CASE WHEN ?13 THEN -ifnull(m.date, 0) ELSE ifnull(m.date, 0) END," \
	" CASE WHEN ?13 THEN -ifnull(m.id, 0) ELSE ifnull(m.id, 0) END"

static const char sql_query_findings[] =
	"SELECT " FINDING_COLS("f.") ","
	" m.message_id, m.subject, " Q_AUTHOR_ADDR ", " Q_AUTHOR_NAME ","
	" s.list, m.date, s.version, s.total"
	" FROM findings f"
	" JOIN patches p ON p.id = f.patch_id"
	" JOIN series s ON s.id = f.series_id"
	" LEFT JOIN messages m ON m.id = p.msg_id"
	Q_COMMON_FILTERS
	Q_FINDING_FILTERS("f")
	/* ?12 as a range of index findings_series (all of it when NULL):
	 * a series' findings (each row of a page's series table, the patch
	 * page) are read from the index, not found by a scan of all of
	 * them; on 2.7 million findings 0.76 s -> 1 ms, while the first
	 * page of every finding went 3.9 s -> 6.4 s */
	" AND f.series_id BETWEEN ifnull(?12, -9223372036854775808)"
	" AND ifnull(?12, 9223372036854775807)"
	" ORDER BY" Q_DATE_ORDER ", f.part, f.file, f.line, f.id"
	" LIMIT ?9 OFFSET ?11";

/*
 * A patch is listed when it has at least one finding matching all of
 * file glob, category and type (or always, when none of them is set);
 * its count is of those findings.
 */
static const char sql_query_patches[] =
	"SELECT " PATCH_COLS("p.") ","
	" m.message_id, " Q_AUTHOR_ADDR ", " Q_AUTHOR_NAME ","
	" s.list, m.date, s.version, s.total, count(f.id)"
	" FROM patches p"
	" JOIN series s ON s.id = p.series_id"
	" LEFT JOIN messages m ON m.id = p.msg_id"
	" LEFT JOIN findings f ON f.patch_id = p.id"
	Q_FINDING_FILTERS("f")
	Q_COMMON_FILTERS
	" GROUP BY p.id"
	" HAVING (?2 IS NULL AND ?4 IS NULL AND ?5 IS NULL) OR count(f.id) > 0"
	" ORDER BY" Q_DATE_ORDER ", p.part, p.id"
	" LIMIT ?9 OFFSET ?11";

void store_bind_query(sqlite3_stmt *s, const struct store_query *q, int *rc)
{
	int64_t limit = -1;

	if (q->limit && (unsigned long long)q->limit <= (unsigned long long)INT64_MAX)
		limit = (int64_t)q->limit;
	store_bind_text(s, 1, q->author, rc);
	store_bind_text(s, 2, q->file_glob, rc);
	store_bind_text(s, 3, q->list, rc);
	store_bind_text(s, 4, q->category, rc);
	store_bind_text(s, 5, q->type, rc);
	store_bind_text(s, 6, q->series_msgid, rc);
	store_bind_opt_int64(s, 7, q->since, rc);
	store_bind_opt_int64(s, 8, q->until, rc);
	store_bind_int64(s, 9, limit, rc);
	store_bind_text(s, 10, q->publish, rc);
	store_bind_int64(s, 11, q->offset <= (size_t)INT64_MAX ? (int64_t)q->offset : INT64_MAX, rc);
	store_bind_id(s, 12, q->series_id, rc);
	store_bind_int64(s, 13, q->newest_first ? 1 : 0, rc);
	store_bind_id(s, 14, q->patch_id, rc);
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
	s = store_stmt(st, STMT_QUERY_FINDINGS, sql_query_findings, &ret);
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
	row.findings = (long)sqlite3_column_int64(s, 16);
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
	s = store_stmt(st, STMT_QUERY_PATCHES, sql_query_patches, &ret);
	if (!s)
		return ret;
	store_bind_query(s, q, &rc);
	return store_bound_each(st, s, rc, patches_row, &c);
}

/* ---- per week, and counted by keys (store_web.h) ---------------------------- */

/* the Monday 00:00 UTC starting m.date's week (1970-01-01 was a Thursday) */
#define Q_WEEK	"(m.date - ((m.date / 86400 + 3) % 7) * 86400 - m.date % 86400)"

/*
 * The messages first (CROSS JOIN keeps that order) and m.date >= a plain
 * bound, so that a since walks index messages_date over its weeks alone
 * (the chart's recent weeks); the planner left alone scans every finding.
 */
static const char sql_query_weekly[] =
	"SELECT " Q_WEEK ", f.category, count(*)"
	" FROM messages m"
	" CROSS JOIN patches p ON p.msg_id = m.id"
	" CROSS JOIN findings f ON f.patch_id = p.id"
	" JOIN series s ON s.id = f.series_id"
	Q_COMMON_FILTERS
	Q_FINDING_FILTERS("f")
	" AND m.date > 0 AND m.date >= ifnull(?7, 1)"
	" GROUP BY 1, 2 ORDER BY 1, 2";

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
	s = store_stmt(st, STMT_WEB_WEEKLY, sql_query_weekly, &ret);
	if (!s)
		return ret;
	store_bind_query(s, &all, &rc);
	return store_bound_each(st, s, rc, weekly_row, &c);
}

/*
 * One statement for every choice of keys: ?15 holds the enum
 * store_count_key bits, and a key not chosen is NULL in every row, so
 * it does not split the groups.
 */
static const char sql_query_count[] =
	"SELECT CASE WHEN ?15 & 1 THEN lower(" Q_AUTHOR_ADDR ") END,"
	" CASE WHEN ?15 & 2 THEN f.type END,"
	" CASE WHEN ?15 & 4 THEN f.category END,"
	" CASE WHEN ?15 & 8 THEN f.file END,"
	" CASE WHEN ?15 & 16 THEN s.list END,"
	" CASE WHEN ?15 & 32 AND m.date > 0 THEN " Q_WEEK " END,"
	" count(*)"
	" FROM findings f"
	" JOIN patches p ON p.id = f.patch_id"
	" JOIN series s ON s.id = f.series_id"
	" LEFT JOIN messages m ON m.id = p.msg_id"
	Q_COMMON_FILTERS
	Q_FINDING_FILTERS("f")
	" GROUP BY 1, 2, 3, 4, 5, 6"
	" ORDER BY 7 DESC, 1, 2, 3, 4, 5, 6"
	" LIMIT ?9 OFFSET ?11";

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
	s = store_stmt(st, STMT_WEB_COUNT, sql_query_count, &ret);
	if (!s)
		return ret;
	store_bind_query(s, q, &rc);
	store_bind_int64(s, 15, (int64_t)(keys & 63), &rc);
	return store_bound_each(st, s, rc, count_row, &c);
}

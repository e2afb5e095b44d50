// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: the maintainers' queries (reviewbot query).  One statement per
 * query; every filter is a bound parameter that NULL disables, so the
 * SQL text never depends on what the user typed.
 *
 * Parameters shared by both statements:
 *   ?1 author (substring of address or name, ASCII case-insensitive)
 *   ?2 file glob   ?3 list   ?4 category   ?5 type
 *   ?6 a Message-ID of the series   ?7 since   ?8 until   ?9 limit (-1: none)
 */
#include "store_int.h"

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
	" AND (?8 IS NULL OR m.date <= ?8)"

static const char sql_query_findings[] =
	"SELECT " FINDING_COLS("f.") ","
	" m.message_id, m.subject, " Q_AUTHOR_ADDR ", " Q_AUTHOR_NAME ","
	" s.list, m.date, s.version, s.total"
	" FROM findings f"
	" JOIN patches p ON p.id = f.patch_id"
	" JOIN series s ON s.id = f.series_id"
	" LEFT JOIN messages m ON m.id = p.msg_id"
	Q_COMMON_FILTERS
	" AND (?2 IS NULL OR f.file GLOB ?2)"
	" AND (?4 IS NULL OR f.category = ?4)"
	" AND (?5 IS NULL OR f.type = ?5)"
	" ORDER BY m.date, m.id, f.part, f.file, f.line, f.id"
	" LIMIT ?9";

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
	"  AND (?2 IS NULL OR f.file GLOB ?2)"
	"  AND (?4 IS NULL OR f.category = ?4)"
	"  AND (?5 IS NULL OR f.type = ?5)"
	Q_COMMON_FILTERS
	" GROUP BY p.id"
	" HAVING (?2 IS NULL AND ?4 IS NULL AND ?5 IS NULL) OR count(f.id) > 0"
	" ORDER BY m.date, m.id, p.part, p.id"
	" LIMIT ?9";

static void bind_query(sqlite3_stmt *s, const struct store_query *q, int *rc)
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

int store_query_findings(struct store *st, const struct store_query *q,
			 int (*cb)(void *arg, const struct store_query_row *r),
			 void *arg)
{
	struct store_query_row row;
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK, oom = 0;

	store_clearerr(st);
	memset(&row, 0, sizeof(row));
	s = store_stmt(st, STMT_QUERY_FINDINGS, sql_query_findings, &ret);
	if (!s)
		return ret;
	bind_query(s, q, &rc);
	if (rc) {
		ret = store_sqlerr(st, rc);
		goto out;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ret = store_finding_from_row(st, s, 0, &row.f);
		if (ret)
			goto out;
		row.message_id = store_col_dup(s, 12, &oom);
		row.subject = store_col_dup(s, 13, &oom);
		row.author_addr = store_col_dup(s, 14, &oom);
		row.author_name = store_col_dup(s, 15, &oom);
		row.list = store_col_dup(s, 16, &oom);
		row.date = sqlite3_column_int64(s, 17);
		row.version = sqlite3_column_int(s, 18);
		row.total = sqlite3_column_int(s, 19);
		if (oom) {
			ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
			goto out;
		}
		ret = cb(arg, &row);
		query_row_release(&row);
		if (ret)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = store_sqlerr(st, rc);
out:
	query_row_release(&row);
	store_stmt_done(s);
	return ret;
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

int store_query_patches(struct store *st, const struct store_query *q,
			int (*cb)(void *arg, const struct store_patch_row *r),
			void *arg)
{
	struct store_patch_row row;
	sqlite3_stmt *s;
	int rc = SQLITE_OK, ret = STORE_OK, oom = 0;

	store_clearerr(st);
	memset(&row, 0, sizeof(row));
	s = store_stmt(st, STMT_QUERY_PATCHES, sql_query_patches, &ret);
	if (!s)
		return ret;
	bind_query(s, q, &rc);
	if (rc) {
		ret = store_sqlerr(st, rc);
		goto out;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ret = store_patch_from_row(st, s, &row.p);
		if (ret)
			goto out;
		row.message_id = store_col_dup(s, 9, &oom);
		row.author_addr = store_col_dup(s, 10, &oom);
		row.author_name = store_col_dup(s, 11, &oom);
		row.list = store_col_dup(s, 12, &oom);
		row.date = sqlite3_column_int64(s, 13);
		row.version = sqlite3_column_int(s, 14);
		row.total = sqlite3_column_int(s, 15);
		row.findings = (long)sqlite3_column_int64(s, 16);
		if (oom) {
			ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
			goto out;
		}
		ret = cb(arg, &row);
		patch_row_release(&row);
		if (ret)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = store_sqlerr(st, rc);
out:
	patch_row_release(&row);
	store_stmt_done(s);
	return ret;
}

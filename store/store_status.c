// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: read-only counts for `reviewbot status`.  Nothing here writes.
 */
#include "store_int.h"

#include <string.h>

#include "../checker/banned.h"

/* One count(*) statement, bound with v when bind is set. */
static int count_one(struct store *st, enum store_stmt_id id, const char *sql,
		     int bind, int64_t v, long long *n)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	q = store_stmt(st, id, sql, &ret);
	if (!q)
		return ret;
	if (bind)
		store_bind_int64(q, 1, v, &rc);
	return store_bound_count(st, q, rc, n);
}

int store_series_count(struct store *st, long long counts[SERIES__COUNT])
{
	sqlite3_stmt *q;
	int ret = STORE_OK;

	store_clearerr(st);
	memset(counts, 0, sizeof(counts[0]) * SERIES__COUNT);
	q = store_stmt(st, STMT_SERIES_COUNT,
		       "SELECT state, count(*) FROM series GROUP BY state", &ret);
	if (!q)
		return ret;
	return store_step_counts(st, q, counts, SERIES__COUNT);
}

/* the test bot/series.c series_complete() makes, in SQL */
int store_series_count_waiting(struct store *st, int64_t since, long long *n)
{
	return count_one(st, STMT_SERIES_COUNT_WAITING,
			 "SELECT count(*) FROM series s WHERE s.state = 0"
			 " AND s.last_part_at >= ?1"
			 " AND (SELECT count(*) FROM patches p WHERE p.series_id = s.id)"
			 " < s.total", 1, since, n);
}

int store_reply_count_due(struct store *st, int64_t now, long long *n)
{
	return count_one(st, STMT_REPLY_COUNT_DUE,
			 "SELECT count(*) FROM replies WHERE state = 0"
			 " AND next_attempt <= ?1", 1, now, n);
}

int store_patch_count(struct store *st, long long *patches, long long *findings)
{
	int ret;

	*findings = 0;
	ret = count_one(st, STMT_PATCH_COUNT, "SELECT count(*) FROM patches", 0, 0,
			patches);
	if (ret)
		return ret;
	return count_one(st, STMT_FINDING_COUNT, "SELECT count(*) FROM findings", 0, 0,
			 findings);
}

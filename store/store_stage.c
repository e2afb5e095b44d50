// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: the stage queue (schema 4).  The compile and load tests of a
 * series version wait here, run one at a time, and their results stay
 * as the cache of that version: one row per (series, kind), never
 * queued twice.
 *
 * A stage stays 'queued' until its result is in, so one cut short by a
 * crash or a restart is handed out again by store_stage_next();
 * attempts counts the starts.
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

#include "../checker/banned.h"

#define STAGE_COLS \
	"id, series_id, kind, state, verdict, note, queued, started," \
	" finished, attempts, seconds, followup, claim, claimed_at, details"

/* The queue's order: compile before load of the same series. */
#define STAGE_ORDER \
	"queued, series_id, CASE kind WHEN 'compile' THEN 0 ELSE 1 END, id"

static const char *const stage_kind_names[] = {
	[STAGE_COMPILE] = "compile",
	[STAGE_LOAD] = "load",
};

#define STAGE_NKINDS (sizeof(stage_kind_names) / sizeof(stage_kind_names[0]))

static int kind_ok(enum store_stage_kind k)
{
	return (int)k >= 0 && (size_t)k < STAGE_NKINDS;
}

const char *store_stage_kind_name(enum store_stage_kind k)
{
	return kind_ok(k) ? stage_kind_names[k] : "unknown";
}

void store_stage_release(struct store_stage *s)
{
	if (!s)
		return;
	free(s->note);
	free(s->claim);
	free(s->details);
	memset(s, 0, sizeof(*s));
}

/*
 * Steps q (returning STAGE_COLS; rc the result of its binds) once and
 * fills *out from its row: STORE_OK, STORE_DONE when no row, or an
 * error.  Finishes q.
 */
static int stage_step_row(struct store *st, sqlite3_stmt *q, int rc,
			  struct store_stage *out)
{
	const char *kind, *state;
	size_t k;
	int ret, oom = 0;

	ret = store_bound_row(st, q, rc);
	if (ret)
		goto out;
	out->id = sqlite3_column_int64(q, 0);
	out->series_id = store_col_id(q, 1);
	kind = (const char *)sqlite3_column_text(q, 2);
	for (k = 0; kind && k < STAGE_NKINDS && strcmp(kind, stage_kind_names[k]); k++)
		;
	if (kind && k < STAGE_NKINDS) {
		out->kind = (enum store_stage_kind)k;
	} else {
		/* the CHECK constraint keeps anything else out */
		ret = store_seterr(st, STORE_ERR, "stage %lld has a bad kind",
				   (long long)out->id);
		goto out;
	}
	state = (const char *)sqlite3_column_text(q, 3);
	out->done = state && !strcmp(state, "done");
	out->verdict = sqlite3_column_int(q, 4);
	out->note = store_col_dup(q, 5, &oom);
	out->queued = sqlite3_column_int64(q, 6);
	out->started = sqlite3_column_int64(q, 7);
	out->finished = sqlite3_column_int64(q, 8);
	out->attempts = sqlite3_column_int(q, 9);
	out->seconds = sqlite3_column_double(q, 10);
	out->followup = sqlite3_column_int(q, 11);
	out->claim = store_col_dup(q, 12, &oom);
	out->claimed_at = sqlite3_column_int64(q, 13);
	out->details = store_col_dup(q, 14, &oom);
	if (oom)
		ret = store_seterr(st, STORE_ERR_NOMEM, "out of memory");
out:
	store_stmt_done(q);
	if (ret != STORE_OK)
		store_stage_release(out);
	return ret;
}

int store_stage_enqueue(struct store *st, int64_t series_id,
			enum store_stage_kind kind, int64_t now)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK, changes = 0;

	store_clearerr(st);
	if (series_id <= 0 || !kind_ok(kind))
		return store_seterr(st, STORE_ERR_RANGE, "bad series or stage kind");
	q = store_stmt(st, STMT_STAGE_ENQUEUE,
		       "INSERT INTO stages (series_id, kind, queued)"
		       " VALUES (?1, ?2, ?3)"
		       " ON CONFLICT (series_id, kind) DO NOTHING", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, series_id, &rc);
	store_bind_text(q, 2, stage_kind_names[kind], &rc);
	store_bind_int64(q, 3, store_time_or_now(now), &rc);
	ret = store_bound_write(st, q, rc, &changes, NULL);
	if (ret == STORE_OK && !changes)
		ret = STORE_DUP;
	return ret;
}

int store_stage_get(struct store *st, int64_t series_id,
		    enum store_stage_kind kind, struct store_stage *out)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	memset(out, 0, sizeof(*out));
	if (!kind_ok(kind))
		return store_seterr(st, STORE_ERR_RANGE, "bad stage kind");
	q = store_stmt(st, STMT_STAGE_GET,
		       "SELECT " STAGE_COLS " FROM stages"
		       " WHERE series_id = ?1 AND kind = ?2", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, series_id, &rc);
	store_bind_text(q, 2, stage_kind_names[kind], &rc);
	return stage_step_row(st, q, rc, out);
}

int store_stage_get_id(struct store *st, int64_t id, struct store_stage *out)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	memset(out, 0, sizeof(*out));
	q = store_stmt(st, STMT_STAGE_GET_ID,
		       "SELECT " STAGE_COLS " FROM stages WHERE id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	return stage_step_row(st, q, rc, out);
}

int store_stage_next(struct store *st, struct store_stage *out)
{
	sqlite3_stmt *q;
	int ret = STORE_OK;

	store_clearerr(st);
	memset(out, 0, sizeof(*out));
	q = store_stmt(st, STMT_STAGE_NEXT,
		       "SELECT " STAGE_COLS " FROM stages WHERE state = 'queued'"
		       " ORDER BY " STAGE_ORDER " LIMIT 1", &ret);
	if (!q)
		return ret;
	return stage_step_row(st, q, SQLITE_OK, out);
}

int store_stage_start(struct store *st, int64_t id, int64_t now)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_STAGE_START,
		       "UPDATE stages SET attempts = attempts + 1, started = ?2"
		       " WHERE id = ?1 AND state = 'queued'", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_int64(q, 2, store_time_or_now(now), &rc);
	return store_bound_change(st, q, rc);
}

int store_stage_finish(struct store *st, int64_t id, int verdict,
		       const char *note, double seconds, int64_t now)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	/* !(x >= 0) also catches NaN */
	if (verdict < 0 || !(seconds >= 0))
		return store_seterr(st, STORE_ERR_RANGE, "bad verdict or duration");
	q = store_stmt(st, STMT_STAGE_FINISH,
		       "UPDATE stages SET state = 'done', verdict = ?2, note = ?3,"
		       " seconds = ?4, finished = ?5"
		       " WHERE id = ?1 AND state = 'queued'", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_int64(q, 2, verdict, &rc);
	store_bind_text(q, 3, note, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_double(q, 4, seconds);
	store_bind_int64(q, 5, store_time_or_now(now), &rc);
	return store_bound_change(st, q, rc);
}

int store_stage_set_followup(struct store *st, int64_t id, int value)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (value < 0 || value > 2)
		return store_seterr(st, STORE_ERR_RANGE, "bad follow-up value %d",
				    value);
	q = store_stmt(st, STMT_STAGE_SET_FOLLOWUP,
		       "UPDATE stages SET followup = ?2 WHERE id = ?1", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_int64(q, 2, value, &rc);
	return store_bound_change(st, q, rc);
}

int store_stage_count_queued(struct store *st, long long *n, int64_t *oldest)
{
	sqlite3_stmt *q;
	int rc, ret = STORE_OK;

	store_clearerr(st);
	*n = 0;
	*oldest = 0;
	q = store_stmt(st, STMT_STAGE_COUNT_QUEUED,
		       "SELECT count(*), coalesce(min(queued), 0) FROM stages"
		       " WHERE state = 'queued'", &ret);
	if (!q)
		return ret;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*n = sqlite3_column_int64(q, 0);
		*oldest = sqlite3_column_int64(q, 1);
	} else if (rc != SQLITE_DONE) {
		ret = store_sqlerr(st, rc);
	}
	store_stmt_done(q);
	return ret;
}

int store_stage_each_followup(struct store *st,
			      int (*cb)(void *arg, int64_t id), void *arg)
{
	sqlite3_stmt *q;
	int ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_STAGE_FOLLOWUP_IDS,
		       "SELECT id FROM stages WHERE state = 'done' AND followup = 1"
		       " ORDER BY finished, id", &ret);
	if (!q)
		return ret;
	return store_each_id(st, q, cb, arg);
}

/* ---- runners (schema 11) -------------------------------------------------- */

int store_stage_next_free(struct store *st, unsigned kinds,
			  int (*holds)(void *arg, const char *claim, int64_t claimed_at),
			  void *arg, struct store_stage *out)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;
	int64_t after_queued = -1, after_id = 0;

	store_clearerr(st);
	memset(out, 0, sizeof(*out));
	if (!(kinds & ((1u << STAGE_NKINDS) - 1)))
		return STORE_DONE;
	/*
	 * One row at a time, in the queue's order, past the ones whose
	 * claim holds: a statement is never left stepping while holds()
	 * runs, and a long queue of held stages is read once.
	 */
	for (;;) {
		q = store_stmt(st, STMT_STAGE_QUEUED_KINDS,
			       "SELECT " STAGE_COLS " FROM stages WHERE state = 'queued'"
			       " AND ((?1 & 1 AND kind = 'compile') OR (?1 & 2 AND kind = 'load'))"
			       " AND (queued > ?2 OR (queued = ?2 AND id > ?3))"
			       " ORDER BY queued, id LIMIT 1", &ret);
		if (!q)
			return ret;
		rc = SQLITE_OK;
		store_bind_int64(q, 1, (int64_t)kinds, &rc);
		store_bind_int64(q, 2, after_queued, &rc);
		store_bind_int64(q, 3, after_id, &rc);
		ret = stage_step_row(st, q, rc, out);
		if (ret != STORE_OK)
			return ret;
		if (!out->claim || !holds || !holds(arg, out->claim, out->claimed_at))
			return STORE_OK;
		after_queued = out->queued;
		after_id = out->id;
		store_stage_release(out);
	}
}

int store_stage_claim(struct store *st, int64_t id, const char *claim,
		      const char *old_claim, int64_t now)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (!claim || !*claim)
		return store_seterr(st, STORE_ERR_RANGE, "a claim needs a name");
	q = store_stmt(st, STMT_STAGE_CLAIM,
		       "UPDATE stages SET claim = ?2, claimed_at = ?4, started = ?4,"
		       " attempts = attempts + 1"
		       " WHERE id = ?1 AND state = 'queued' AND claim IS ?3", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_text(q, 2, claim, &rc);
	store_bind_text(q, 3, old_claim, &rc);
	store_bind_int64(q, 4, store_time_or_now(now), &rc);
	return store_bound_change(st, q, rc);
}

int store_stage_renew(struct store *st, int64_t id, const char *claim, int64_t now)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_STAGE_RENEW,
		       "UPDATE stages SET claimed_at = ?3"
		       " WHERE id = ?1 AND state = 'queued' AND claim = ?2", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_text(q, 2, claim, &rc);
	store_bind_int64(q, 3, store_time_or_now(now), &rc);
	return store_bound_change(st, q, rc);
}

int store_stage_unclaim(struct store *st, int64_t id, const char *claim)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	q = store_stmt(st, STMT_STAGE_UNCLAIM,
		       "UPDATE stages SET claim = NULL, claimed_at = 0,"
		       " attempts = max(attempts - 1, 0)"
		       " WHERE id = ?1 AND state = 'queued' AND claim = ?2", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_text(q, 2, claim, &rc);
	return store_bound_change(st, q, rc);
}

int store_stage_finish_claimed(struct store *st, int64_t id, const char *claim,
			       int verdict, const char *note, const char *details,
			       double seconds, int64_t now)
{
	sqlite3_stmt *q;
	int rc = SQLITE_OK, ret = STORE_OK;

	store_clearerr(st);
	if (verdict < 0 || !(seconds >= 0))
		return store_seterr(st, STORE_ERR_RANGE, "bad verdict or duration");
	q = store_stmt(st, STMT_STAGE_FINISH_CLAIMED,
		       "UPDATE stages SET state = 'done', verdict = ?3, note = ?4,"
		       " details = ?5, seconds = ?6, finished = ?7, claim = NULL"
		       " WHERE id = ?1 AND state = 'queued' AND claim IS ?2", &ret);
	if (!q)
		return ret;
	store_bind_int64(q, 1, id, &rc);
	store_bind_text(q, 2, claim, &rc);
	store_bind_int64(q, 3, verdict, &rc);
	store_bind_text(q, 4, note, &rc);
	store_bind_text(q, 5, details, &rc);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_double(q, 6, seconds);
	store_bind_int64(q, 7, store_time_or_now(now), &rc);
	return store_bound_change(st, q, rc);
}

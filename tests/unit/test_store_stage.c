// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of store/store_stage.c: the compile and load stages' queue:
 * enqueue, order, start and finish, follow-ups owed, counts, forgetting, the
 * v3 migration.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../store/store.h"

#define STORE_FIXTURE_DIR "/tmp/test_store_stage.XXXXXX"
#include "store_fixture.h"
#include "store_rows.h"

/* ---- helpers ------------------------------------------------------------- */

/* a one-part v1 series of author on netdev, thread root root */
static int64_t add_series1(struct store *st, const char *author, const char *root,
			   int64_t created)
{
	return add_series(st, "netdev@vger.kernel.org", author, root, 1, 0, 1, NULL,
			  "foo: bar", created);
}

static int64_t stage_id(struct store *st, int64_t series,
			enum store_stage_kind kind)
{
	struct store_stage s;
	int64_t id;

	assert_int_equal(store_stage_get(st, series, kind, &s), STORE_OK);
	id = s.id;
	store_stage_release(&s);
	return id;
}

struct marks {
	int64_t v[16];
	size_t n;
	int stop_at;		/* return 7 at this call (1-based), 0: never */
	struct store *st;	/* when set, the callback marks the follow-up made */
};

static int collect_mark(void *arg, int64_t id)
{
	struct marks *c = arg;

	if (c->n < 16)
		c->v[c->n] = id;
	c->n++;
	if (c->st)
		assert_int_equal(store_stage_set_followup(c->st, id, 2), STORE_OK);
	return c->stop_at && (int)c->n == c->stop_at ? 7 : 0;
}

/* ---- tests --------------------------------------------------------------- */

static void test_store_stage__kind_names(void **state)
{
	(void)state;
	assert_string_equal(store_stage_kind_name(STAGE_COMPILE), "compile");
	assert_string_equal(store_stage_kind_name(STAGE_LOAD), "load");
	assert_string_equal(store_stage_kind_name((enum store_stage_kind)7), "unknown");
	assert_string_equal(store_stage_kind_name((enum store_stage_kind)-1), "unknown");
}

static void test_store_stage__enqueue_twice_is_dup_queued_or_done(void **state)
{
	struct fx *fx = *state;
	struct store_stage s;
	int64_t sid, id;

	sid = add_series1(fx->st, "dev@example.org", "r1@x", 100);
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_COMPILE, 200), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_COMPILE, 300), STORE_DUP);
	/* the first row is kept as it was */
	assert_int_equal(store_stage_get(fx->st, sid, STAGE_COMPILE, &s), STORE_OK);
	assert_int_equal(s.queued, 200);
	assert_false(s.done);
	id = s.id;
	store_stage_release(&s);
	/* the other kind of the same series is its own row */
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_LOAD, 300), STORE_OK);
	assert_true(stage_id(fx->st, sid, STAGE_LOAD) != id);
	/* a done stage is not queued again: its result is the cache */
	assert_int_equal(store_stage_finish(fx->st, id, 1, "ok", 1.5, 400), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_COMPILE, 500), STORE_DUP);
	assert_int_equal(store_stage_get_id(fx->st, id, &s), STORE_OK);
	assert_true(s.done);
	assert_int_equal(s.queued, 200);
	store_stage_release(&s);
	/* a queued time of 0 is now */
	sid = add_series1(fx->st, "dev@example.org", "r2@x", 100);
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_LOAD, 0), STORE_OK);
	assert_int_equal(store_stage_get(fx->st, sid, STAGE_LOAD, &s), STORE_OK);
	assert_true(s.queued > 1000000000);
	store_stage_release(&s);
}

static void test_store_stage__enqueue_refuses_bad_kind_and_unknown_series(void **state)
{
	struct fx *fx = *state;
	struct store_stage s;
	long long n;
	int64_t oldest;

	assert_int_equal(store_stage_enqueue(fx->st, 1, (enum store_stage_kind)5, 1),
			 STORE_ERR_RANGE);
	assert_string_not_equal(store_errmsg(fx->st), "");
	assert_int_equal(store_stage_enqueue(fx->st, 0, STAGE_COMPILE, 1), STORE_ERR_RANGE);
	/* the foreign key holds */
	assert_int_equal(store_stage_enqueue(fx->st, 4242, STAGE_COMPILE, 1), STORE_ERR);
	assert_non_null(strstr(store_errmsg(fx->st), "FOREIGN KEY"));
	assert_int_equal(store_stage_count_queued(fx->st, &n, &oldest), STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_stage_get(fx->st, 4242, (enum store_stage_kind)5, &s),
			 STORE_ERR_RANGE);
}

static void test_store_stage__next_takes_older_first_compile_before_load(void **state)
{
	struct fx *fx = *state;
	struct store_stage s;
	int64_t a, b, c;

	assert_int_equal(store_stage_next(fx->st, &s), STORE_DONE);
	a = add_series1(fx->st, "a@x", "a@x", 100);
	b = add_series1(fx->st, "b@x", "b@x", 101);
	c = add_series1(fx->st, "c@x", "c@x", 102);
	/* queued in an order that the rules must undo: b's load before its
	 * compile, c before a, all but c at the same time */
	assert_int_equal(store_stage_enqueue(fx->st, c, STAGE_COMPILE, 50), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, b, STAGE_LOAD, 200), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, b, STAGE_COMPILE, 200), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, a, STAGE_LOAD, 200), STORE_OK);

	/* oldest queued first */
	assert_int_equal(store_stage_next(fx->st, &s), STORE_OK);
	assert_int_equal(s.series_id, c);
	assert_int_equal(s.kind, STAGE_COMPILE);
	assert_int_equal(store_stage_finish(fx->st, s.id, 1, NULL, 1, 201), STORE_OK);
	store_stage_release(&s);
	/* same time: the older series (lower id) first */
	assert_int_equal(store_stage_next(fx->st, &s), STORE_OK);
	assert_int_equal(s.series_id, a);
	assert_int_equal(s.kind, STAGE_LOAD);
	/* next hands out the same stage until it is finished */
	store_stage_release(&s);
	assert_int_equal(store_stage_next(fx->st, &s), STORE_OK);
	assert_int_equal(s.series_id, a);
	assert_int_equal(store_stage_start(fx->st, s.id, 202), STORE_OK);
	assert_int_equal(store_stage_finish(fx->st, s.id, 1, NULL, 1, 203), STORE_OK);
	store_stage_release(&s);
	/* the same series: compile before load, whatever the id order */
	assert_int_equal(store_stage_next(fx->st, &s), STORE_OK);
	assert_int_equal(s.series_id, b);
	assert_int_equal(s.kind, STAGE_COMPILE);
	assert_int_equal(store_stage_finish(fx->st, s.id, 1, NULL, 1, 204), STORE_OK);
	store_stage_release(&s);
	assert_int_equal(store_stage_next(fx->st, &s), STORE_OK);
	assert_int_equal(s.series_id, b);
	assert_int_equal(s.kind, STAGE_LOAD);
	assert_int_equal(store_stage_finish(fx->st, s.id, 1, NULL, 1, 205), STORE_OK);
	store_stage_release(&s);
	assert_int_equal(store_stage_next(fx->st, &s), STORE_DONE);
	assert_null(s.note);
}

static void test_store_stage__start_finish_get_round_trip(void **state)
{
	struct fx *fx = *state;
	struct store_stage s, t;
	int64_t sid, id;

	sid = add_series1(fx->st, "dev@example.org", "r1@x", 100);
	assert_int_equal(store_stage_get(fx->st, sid, STAGE_LOAD, &s), STORE_DONE);
	assert_int_equal(store_stage_get_id(fx->st, 999, &s), STORE_DONE);
	assert_int_equal(store_stage_start(fx->st, 999, 1), STORE_DONE);
	assert_int_equal(store_stage_finish(fx->st, 999, 1, NULL, 0, 1), STORE_DONE);
	assert_int_equal(store_stage_set_followup(fx->st, 999, 1), STORE_DONE);

	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_LOAD, 1000), STORE_OK);
	assert_int_equal(store_stage_get(fx->st, sid, STAGE_LOAD, &s), STORE_OK);
	id = s.id;
	assert_true(id > 0);
	assert_int_equal(s.series_id, sid);
	assert_int_equal(s.kind, STAGE_LOAD);
	assert_false(s.done);
	assert_int_equal(s.verdict, 0);
	assert_null(s.note);
	assert_int_equal(s.queued, 1000);
	assert_int_equal(s.started, 0);
	assert_int_equal(s.finished, 0);
	assert_int_equal(s.attempts, 0);
	assert_true(s.seconds == 0);
	assert_int_equal(s.followup, 0);
	store_stage_release(&s);

	/* two attempts (a restart in between): started is the last one's */
	assert_int_equal(store_stage_start(fx->st, id, 1010), STORE_OK);
	assert_int_equal(store_stage_start(fx->st, id, 1020), STORE_OK);
	assert_int_equal(store_stage_get_id(fx->st, id, &s), STORE_OK);
	assert_int_equal(s.attempts, 2);
	assert_int_equal(s.started, 1020);
	assert_false(s.done);
	store_stage_release(&s);

	/* bad results change nothing */
	assert_int_equal(store_stage_finish(fx->st, id, -1, "x", 1, 1030), STORE_ERR_RANGE);
	assert_int_equal(store_stage_finish(fx->st, id, 1, "x", -1, 1030), STORE_ERR_RANGE);
	assert_int_equal(store_stage_finish(fx->st, id, 1, "x", NAN, 1030), STORE_ERR_RANGE);

	assert_int_equal(store_stage_finish(fx->st, id, 2,
					    "2 modules, 1 oops 'quoted'; --", 12.25,
					    1050), STORE_OK);
	assert_int_equal(store_stage_get(fx->st, sid, STAGE_LOAD, &s), STORE_OK);
	assert_int_equal(store_stage_get_id(fx->st, id, &t), STORE_OK);
	assert_int_equal(s.id, id);
	assert_true(s.done);
	assert_int_equal(s.verdict, 2);
	assert_string_equal(s.note, "2 modules, 1 oops 'quoted'; --");
	assert_int_equal(s.queued, 1000);
	assert_int_equal(s.started, 1020);
	assert_int_equal(s.finished, 1050);
	assert_int_equal(s.attempts, 2);
	assert_true(s.seconds == 12.25);
	assert_int_equal(t.id, s.id);
	assert_string_equal(t.note, s.note);
	assert_int_equal(t.finished, s.finished);
	store_stage_release(&s);
	store_stage_release(&t);
	assert_null(t.note);

	/* a result, once in, stays; a done stage does not start again */
	assert_int_equal(store_stage_finish(fx->st, id, 1, "other", 1, 1060), STORE_DONE);
	assert_int_equal(store_stage_start(fx->st, id, 1060), STORE_DONE);
	assert_int_equal(store_stage_get_id(fx->st, id, &s), STORE_OK);
	assert_string_equal(s.note, "2 modules, 1 oops 'quoted'; --");
	assert_int_equal(s.attempts, 2);
	store_stage_release(&s);
	assert_int_equal(store_stage_next(fx->st, &s), STORE_DONE);
	store_stage_release(NULL);
}

static void test_store_stage__followup_walk_owed_done_stages_in_result_order(void **state)
{
	struct fx *fx = *state;
	struct marks c = { 0 };
	struct store_stage s;
	int64_t a, b, ac, al, bc, bl;

	a = add_series1(fx->st, "a@x", "a@x", 100);
	b = add_series1(fx->st, "b@x", "b@x", 101);
	assert_int_equal(store_stage_enqueue(fx->st, a, STAGE_COMPILE, 10), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, a, STAGE_LOAD, 10), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, b, STAGE_COMPILE, 10), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, b, STAGE_LOAD, 10), STORE_OK);
	ac = stage_id(fx->st, a, STAGE_COMPILE);
	al = stage_id(fx->st, a, STAGE_LOAD);
	bc = stage_id(fx->st, b, STAGE_COMPILE);
	bl = stage_id(fx->st, b, STAGE_LOAD);

	assert_int_equal(store_stage_set_followup(fx->st, ac, 3), STORE_ERR_RANGE);
	assert_int_equal(store_stage_set_followup(fx->st, ac, -1), STORE_ERR_RANGE);
	/* the reviews went out without these results */
	assert_int_equal(store_stage_set_followup(fx->st, ac, 1), STORE_OK);
	assert_int_equal(store_stage_set_followup(fx->st, al, 1), STORE_OK);
	assert_int_equal(store_stage_set_followup(fx->st, bc, 1), STORE_OK);
	/* queued stages owe nothing yet */
	assert_int_equal(store_stage_each_followup(fx->st, collect_mark, &c), STORE_OK);
	assert_int_equal(c.n, 0);

	assert_int_equal(store_stage_finish(fx->st, bc, 1, NULL, 1, 30), STORE_OK);
	assert_int_equal(store_stage_finish(fx->st, al, 1, NULL, 1, 20), STORE_OK);
	assert_int_equal(store_stage_finish(fx->st, ac, 1, NULL, 1, 40), STORE_OK);
	/* done, but its review had it: no follow-up */
	assert_int_equal(store_stage_finish(fx->st, bl, 1, NULL, 1, 10), STORE_OK);

	/* a non-zero return stops the walk and is returned */
	c.stop_at = 2;
	assert_int_equal(store_stage_each_followup(fx->st, collect_mark, &c), 7);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.v[0], al);
	assert_int_equal(c.v[1], bc);

	/* the callback may write: it marks each follow-up made */
	memset(&c, 0, sizeof(c));
	c.st = fx->st;
	assert_int_equal(store_stage_each_followup(fx->st, collect_mark, &c), STORE_OK);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.v[0], al);
	assert_int_equal(c.v[1], bc);
	assert_int_equal(c.v[2], ac);
	assert_int_equal(store_stage_get_id(fx->st, ac, &s), STORE_OK);
	assert_int_equal(s.followup, 2);
	store_stage_release(&s);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_stage_each_followup(fx->st, collect_mark, &c), STORE_OK);
	assert_int_equal(c.n, 0);
}

static void test_store_stage__count_queued_and_oldest(void **state)
{
	struct fx *fx = *state;
	long long n = -1;
	int64_t oldest = -1, a, b;

	assert_int_equal(store_stage_count_queued(fx->st, &n, &oldest), STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(oldest, 0);
	a = add_series1(fx->st, "a@x", "a@x", 100);
	b = add_series1(fx->st, "b@x", "b@x", 101);
	assert_int_equal(store_stage_enqueue(fx->st, a, STAGE_COMPILE, 300), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, a, STAGE_LOAD, 200), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, b, STAGE_COMPILE, 250), STORE_OK);
	assert_int_equal(store_stage_count_queued(fx->st, &n, &oldest), STORE_OK);
	assert_int_equal(n, 3);
	assert_int_equal(oldest, 200);
	/* a started stage is still queued */
	assert_int_equal(store_stage_start(fx->st, stage_id(fx->st, a, STAGE_LOAD), 310),
			 STORE_OK);
	assert_int_equal(store_stage_count_queued(fx->st, &n, &oldest), STORE_OK);
	assert_int_equal(n, 3);
	assert_int_equal(oldest, 200);
	assert_int_equal(store_stage_finish(fx->st, stage_id(fx->st, a, STAGE_LOAD), 1,
					    NULL, 2, 320), STORE_OK);
	assert_int_equal(store_stage_count_queued(fx->st, &n, &oldest), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(oldest, 250);
}

static void test_store_stage__forgetting_the_author_deletes_its_stages(void **state)
{
	struct fx *fx = *state;
	struct store_forget cnt;
	struct store_stage s;
	long long n;
	int64_t mine, other, oldest, m;

	m = add_msg(fx->st, "p1@x", "dev@example.org", NULL, 100);
	mine = add_series1(fx->st, "dev@example.org", "p1@x", 100);
	assert_int_equal(store_msg_set_series(fx->st, m, mine), STORE_OK);
	other = add_series1(fx->st, "other@example.org", "o1@x", 101);
	assert_int_equal(store_stage_enqueue(fx->st, mine, STAGE_COMPILE, 10), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, mine, STAGE_LOAD, 10), STORE_OK);
	assert_int_equal(store_stage_finish(fx->st, stage_id(fx->st, mine, STAGE_LOAD), 1,
					    "ok", 1, 20), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, other, STAGE_COMPILE, 11), STORE_OK);

	assert_int_equal(store_forget_address(fx->st, "dev@example.org", &cnt), STORE_OK);
	assert_int_equal(cnt.series, 1);
	assert_int_equal(store_stage_get(fx->st, mine, STAGE_COMPILE, &s), STORE_DONE);
	assert_int_equal(store_stage_get(fx->st, mine, STAGE_LOAD, &s), STORE_DONE);
	assert_int_equal(store_stage_get(fx->st, other, STAGE_COMPILE, &s), STORE_OK);
	store_stage_release(&s);
	assert_int_equal(store_stage_count_queued(fx->st, &n, &oldest), STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(oldest, 11);
	assert_int_equal(store_stage_next(fx->st, &s), STORE_OK);
	assert_int_equal(s.series_id, other);
	store_stage_release(&s);
}

static void test_store_stage__migration_from_v3_keeps_data_adds_table(void **state)
{
	struct fx *fx = *state;
	struct store_series got;
	struct store_stage s;
	struct store_msg m;
	long long n;
	int64_t mid, sid, oldest;
	char err[256];

	assert_int_equal(store_open_at_version(fx->path, 3, &fx->st, err,
					       sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), 3);
	mid = add_msg(fx->st, "p1@x", "dev@example.org", NULL, 100);
	sid = add_series1(fx->st, "dev@example.org", "p1@x", 100);
	assert_int_equal(store_mute_add(fx->st, "p1@x", "dev@example.org", 1), STORE_OK);
	/* v4's table is not there yet */
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_COMPILE, 10), STORE_ERR);
	assert_non_null(strstr(store_errmsg(fx->st), "stages"));
	assert_int_equal(store_stage_count_queued(fx->st, &n, &oldest), STORE_ERR);
	store_close(fx->st);
	fx->st = NULL;

	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_msg_find(fx->st, "p1@x", &m), STORE_OK);
	assert_int_equal(m.id, mid);
	store_msg_release(&m);
	assert_int_equal(store_series_get(fx->st, sid, &got), STORE_OK);
	assert_string_equal(got.author_addr, "dev@example.org");
	store_series_release(&got);
	assert_int_equal(store_mute_get(fx->st, "p1@x"), STORE_OK);
	assert_int_equal(store_stage_count_queued(fx->st, &n, &oldest), STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_COMPILE, 10), STORE_OK);
	assert_int_equal(store_stage_next(fx->st, &s), STORE_OK);
	assert_int_equal(s.series_id, sid);
	store_stage_release(&s);
	/* the migrated table cascades too */
	assert_int_equal(store_forget_address(fx->st, "dev@example.org", NULL), STORE_OK);
	assert_int_equal(store_stage_next(fx->st, &s), STORE_DONE);
}

/* Another process (plain SQLite, foreign keys on) deleting a series row
 * takes its stages along: the cascade is in the schema, not in our C. */
static void test_store_stage__series_row_delete_cascades_in_sql(void **state)
{
	struct fx *fx = *state;
	struct store_stage s;
	sqlite3 *db;
	char sql[128];
	int64_t sid;

	sid = add_series1(fx->st, "dev@example.org", "p1@x", 100);
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_LOAD, 10), STORE_OK);
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA foreign_keys = ON; DELETE FROM series"
		 " WHERE id = %lld", (long long)sid);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_stage_get(fx->st, sid, STAGE_LOAD, &s), STORE_DONE);
}

/* A runner's test of a claim: the names listed in arg are alive. */
static int alive(void *arg, const char *claim, int64_t claimed_at)
{
	const char *const *live = arg;

	(void)claimed_at;
	for (; *live; live++)
		if (!strcmp(*live, claim))
			return 1;
	return 0;
}

/*
 * The queue shared by runners (schema 11): a stage is claimed by one
 * runner at a time, skipped by the others while the claim holds, taken
 * over when its runner is gone, given back without counting an attempt,
 * and finished only by the runner holding it, with its details.
 */
static void test_store_stage__runners_claim_take_over_and_finish(void **state)
{
	struct fx *fx = *state;
	const char *live_a[] = { "A", NULL }, *none[] = { NULL };
	struct store_stage s, got;
	int64_t a, b, first, second;

	a = add_series1(fx->st, "a@example.org", "pa@x", 100);
	b = add_series1(fx->st, "b@example.org", "pb@x", 101);
	assert_int_equal(store_stage_enqueue(fx->st, a, STAGE_COMPILE, 10), STORE_OK);
	assert_int_equal(store_stage_enqueue(fx->st, b, STAGE_LOAD, 20), STORE_OK);
	first = stage_id(fx->st, a, STAGE_COMPILE);
	second = stage_id(fx->st, b, STAGE_LOAD);

	/* no kind asked for: nothing */
	assert_int_equal(store_stage_next_free(fx->st, 0, alive, live_a, &s), STORE_DONE);
	/* the oldest, unclaimed */
	assert_int_equal(store_stage_next_free(fx->st, 3, alive, none, &s), STORE_OK);
	assert_int_equal(s.id, first);
	assert_null(s.claim);
	store_stage_release(&s);
	assert_int_equal(store_stage_claim(fx->st, first, "A", NULL, 30), STORE_OK);
	/* a second runner comes too late */
	assert_int_equal(store_stage_claim(fx->st, first, "B", NULL, 31), STORE_DONE);
	/* while A lives, B is handed the next one */
	assert_int_equal(store_stage_next_free(fx->st, 3, alive, live_a, &s), STORE_OK);
	assert_int_equal(s.id, second);
	store_stage_release(&s);
	/* a runner of compile stages only sees none free */
	assert_int_equal(store_stage_next_free(fx->st, 1, alive, live_a, &s), STORE_DONE);
	/* A died: its stage is free again, claim and all */
	assert_int_equal(store_stage_next_free(fx->st, 1, alive, none, &s), STORE_OK);
	assert_int_equal(s.id, first);
	assert_string_equal(s.claim, "A");
	assert_int_equal(s.attempts, 1);
	assert_int_equal(s.claimed_at, 30);
	store_stage_release(&s);
	/* B takes it over: only from A, not from a claim it did not see */
	assert_int_equal(store_stage_claim(fx->st, first, "B", "C", 40), STORE_DONE);
	assert_int_equal(store_stage_claim(fx->st, first, "B", "A", 40), STORE_OK);
	/* A's late result is refused: the stage is B's */
	assert_int_equal(store_stage_finish_claimed(fx->st, first, "A", 1, "late", NULL, 1, 41),
			 STORE_DONE);
	assert_int_equal(store_stage_renew(fx->st, first, "A", 42), STORE_DONE);
	assert_int_equal(store_stage_renew(fx->st, first, "B", 42), STORE_OK);
	assert_int_equal(store_stage_get_id(fx->st, first, &got), STORE_OK);
	assert_int_equal(got.attempts, 2);
	assert_int_equal(got.claimed_at, 42);
	store_stage_release(&got);
	/* a stop gives it back, the attempt not counted */
	assert_int_equal(store_stage_unclaim(fx->st, first, "A"), STORE_DONE);
	assert_int_equal(store_stage_unclaim(fx->st, first, "B"), STORE_OK);
	assert_int_equal(store_stage_get_id(fx->st, first, &got), STORE_OK);
	assert_null(got.claim);
	assert_int_equal(got.attempts, 1);
	store_stage_release(&got);
	assert_int_equal(store_stage_claim(fx->st, first, "B", NULL, 50), STORE_OK);
	assert_int_equal(store_stage_finish_claimed(fx->st, first, "B", 2, "ok on x",
						    "tree: x\n", 3.5, 60), STORE_OK);
	assert_int_equal(store_stage_get_id(fx->st, first, &got), STORE_OK);
	assert_true(got.done);
	assert_int_equal(got.verdict, 2);
	assert_string_equal(got.note, "ok on x");
	assert_string_equal(got.details, "tree: x\n");
	assert_null(got.claim);
	store_stage_release(&got);
	/* done: nobody takes it, nobody claims it again */
	assert_int_equal(store_stage_claim(fx->st, first, "C", NULL, 61), STORE_DONE);
	assert_int_equal(store_stage_next_free(fx->st, 3, alive, none, &s), STORE_OK);
	assert_int_equal(s.id, second);
	store_stage_release(&s);
	assert_int_equal(store_stage_claim(fx->st, second, "", NULL, 62), STORE_ERR_RANGE);
}

/* 13 -> 14: the queue's rows keep their state and get no claim. */
static void test_store_stage__migration_from_v13_adds_claims(void **state)
{
	struct fx *fx = *state;
	struct store_stage s;
	char err[256];
	int64_t sid;

	assert_int_equal(store_open_at_version(fx->path, 13, &fx->st, err, sizeof(err)),
			 STORE_OK);
	sid = add_series1(fx->st, "dev@example.org", "p1@x", 100);
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_COMPILE, 10), STORE_OK);
	assert_int_equal(store_stage_next(fx->st, &s), STORE_ERR);	/* no claim column yet */
	store_close(fx->st);
	fx->st = NULL;
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_stage_next_free(fx->st, 1, NULL, NULL, &s), STORE_OK);
	assert_int_equal(s.series_id, sid);
	assert_int_equal(s.queued, 10);
	assert_null(s.claim);
	assert_null(s.details);
	assert_int_equal(store_stage_claim(fx->st, s.id, "A", NULL, 20), STORE_OK);
	store_stage_release(&s);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
#define TD(name) cmocka_unit_test_setup_teardown(name, setup_dir, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_stage__kind_names),
		T(test_store_stage__enqueue_twice_is_dup_queued_or_done),
		T(test_store_stage__enqueue_refuses_bad_kind_and_unknown_series),
		T(test_store_stage__next_takes_older_first_compile_before_load),
		T(test_store_stage__start_finish_get_round_trip),
		T(test_store_stage__followup_walk_owed_done_stages_in_result_order),
		T(test_store_stage__count_queued_and_oldest),
		T(test_store_stage__forgetting_the_author_deletes_its_stages),
		TD(test_store_stage__migration_from_v3_keeps_data_adds_table),
		T(test_store_stage__series_row_delete_cascades_in_sql),
		T(test_store_stage__runners_claim_take_over_and_finish),
		TD(test_store_stage__migration_from_v13_adds_claims),
	};

	return cmocka_run_group_tests_name("store_stage", tests, NULL, NULL);
}

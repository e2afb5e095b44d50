// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of store/: opening, migrations from every older schema,
 * transactions and savepoints, busy writers, messages, series, patches and
 * findings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../store/store.h"
#include "../../store/store_web.h"

#define EVIL "'; DROP TABLE messages; --"

#define STORE_FIXTURE_DIR "/tmp/test_store.XXXXXX"
#include "store_fixture.h"
#include "store_rows.h"

/* ---- open, versions, files ----------------------------------------------- */

static void test_store__open_empty_is_current_version_and_mode_0600(void **state)
{
	struct fx *fx = *state;
	char wal[160];
	struct stat sb;

	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	assert_int_equal(STORE_SCHEMA_VERSION, 14);
	assert_int_equal(stat(fx->path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	/* SQLite gives the WAL the database file's mode */
	snprintf(wal, sizeof(wal), "%s-wal", fx->path);
	if (stat(wal, &sb) == 0)
		assert_int_equal(sb.st_mode & 0777, 0600);
	assert_string_equal(store_errmsg(fx->st), "");
}

static void test_store__reopen_is_idempotent(void **state)
{
	struct fx *fx = *state;
	struct store_msg m;
	char err[256];
	int64_t id;

	id = add_msg(fx->st, "a@x", "a@x", NULL, 10);
	store_close(fx->st);
	fx->st = NULL;
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	store_close(fx->st);
	fx->st = NULL;
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_msg_get(fx->st, id, &m), STORE_OK);
	assert_string_equal(m.message_id, "a@x");
	store_msg_release(&m);
}

static void test_store__migration_from_v1_keeps_data(void **state)
{
	struct fx *fx = *state;
	struct store_reply r = {
		.message_id = (char *)"reply@bot", .kind = (char *)"review",
		.body = (char *)"body\n", .created = 5,
	};
	struct store_finding *f;
	struct store_msg m;
	int64_t mid, sid, pid, id;
	char err[256];
	size_t n;

	assert_int_equal(store_open_at_version(fx->path, STORE_SCHEMA_VERSION + 1,
					       &fx->st, err, sizeof(err)), STORE_ERR_RANGE);
	assert_null(fx->st);
	assert_int_equal(store_open_at_version(fx->path, 1, &fx->st, err,
					       sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), 1);
	mid = add_msg(fx->st, "p1@x", "dev@example.org", "Dev", 100);
	sid = add_series(fx->st, "l", "dev@example.org", "p1@x", 1, 0, 1,
			 NULL, "foo: bar", 100);
	pid = add_patch(fx->st, sid, mid, 1);
	add_finding(fx->st, pid, "LONG_LINE", "style", "a.c", 3);
	/* v2's tables are not there yet */
	assert_int_equal(store_reply_add(fx->st, &r, &id), STORE_ERR);
	assert_non_null(strstr(store_errmsg(fx->st), "replies"));
	store_close(fx->st);
	fx->st = NULL;

	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_msg_find(fx->st, "p1@x", &m), STORE_OK);
	assert_int_equal(m.id, mid);
	store_msg_release(&m);
	assert_int_equal(store_finding_list(fx->st, sid, &f, &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].type, "LONG_LINE");
	store_finding_release(&f[0]);
	free(f);
	assert_int_equal(store_reply_add(fx->st, &r, &id), STORE_OK);
	assert_int_equal(store_optout_set(fx->st, "x@y", OPTOUT_SILENT, 1), STORE_OK);
	/* and v4's stages, for a series stored at v1 */
	assert_int_equal(store_stage_enqueue(fx->st, sid, STAGE_COMPILE, 1), STORE_OK);
}

static void test_store__migration_from_v2_adds_reply_columns_mutes_tokens(void **state)
{
	struct fx *fx = *state;
	struct store_reply r = {
		.message_id = (char *)"old@bot", .kind = (char *)"review",
		.rcpt = (char *)"dev@example.org", .body = (char *)"body\n", .created = 5,
	};
	struct store_reply got;
	sqlite3 *db;
	long long n;
	int64_t id, rid, when;
	char err[256];

	assert_int_equal(store_open_at_version(fx->path, 2, &fx->st, err,
					       sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), 2);
	assert_int_equal(store_optout_set(fx->st, "x@y", OPTOUT_PRIVATE, 1), STORE_OK);
	/* v3's tables and columns are not there yet */
	assert_int_equal(store_mute_add(fx->st, "root@x", "a@x", 1), STORE_ERR);
	assert_int_equal(store_reply_add(fx->st, &r, &rid), STORE_ERR);
	store_close(fx->st);
	fx->st = NULL;
	/* a reply as version 2 wrote it */
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "INSERT INTO replies (message_id, kind, rcpt,"
				      " body, state, created, sent_at) VALUES ('old@bot',"
				      " 'review', 'dev@example.org', 'body', 1, 5, 100)",
				      NULL, NULL, NULL), SQLITE_OK);
	rid = sqlite3_last_insert_rowid(db);
	sqlite3_close(db);

	/* straight to the current version (3, then 4: the stages) */
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	/* the old reply is there, with no author or list */
	assert_int_equal(store_reply_get(fx->st, rid, &got), STORE_OK);
	assert_string_equal(got.message_id, "old@bot");
	assert_null(got.to_addr);
	assert_null(got.list);
	store_reply_release(&got);
	assert_int_equal(store_reply_count_since(fx->st, 0, &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_reply_count_sent(fx->st, 0, "dev@example.org", NULL, &n),
			 STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_optout_count(fx->st, &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_mute_add(fx->st, "root@x", "a@x", 1), STORE_OK);
	assert_int_equal(store_token_add(fx->st, "a@x", "t0k", 1), STORE_OK);
	r.message_id = (char *)"new@bot";
	r.to_addr = (char *)"dev@example.org";
	assert_int_equal(store_reply_add(fx->st, &r, &id), STORE_OK);
	assert_int_equal(store_stage_count_queued(fx->st, &n, &when), STORE_OK);
	assert_int_equal(n, 0);
}

static void test_store__newer_schema_is_refused_untouched(void **state)
{
	struct fx *fx = *state;
	sqlite3 *db;
	sqlite3_stmt *s;
	char err[256];

	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE future (x);"
				      "PRAGMA user_version = 99;",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)),
			 STORE_ERR_VERSION);
	assert_null(fx->st);
	assert_non_null(strstr(err, "newer"));

	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s,
					    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 99);
	sqlite3_finalize(s);
	/* still in rollback-journal mode, no table of ours */
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s,
					    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(s, 0), "delete");
	sqlite3_finalize(s);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master"
					    " WHERE name = 'messages'", -1, &s,
					    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
}

static void test_store__not_a_database_is_an_error(void **state)
{
	struct fx *fx = *state;
	char err[256];
	FILE *f;

	f = fopen(fx->path, "w");
	assert_non_null(f);
	fputs("From nobody Mon Jan  1 00:00:00 2024\nthis is no database at all,"
	      " just text long enough to be looked at\n", f);
	fclose(f);
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_ERR);
	assert_null(fx->st);
	assert_non_null(strstr(err, "not a database"));
}

static void test_store__transactions_commit_and_roll_back(void **state)
{
	struct fx *fx = *state;
	struct store_msg m;

	assert_int_equal(store_commit(fx->st), STORE_ERR);
	assert_int_equal(store_rollback(fx->st), STORE_OK);
	assert_int_equal(store_begin(fx->st), STORE_OK);
	assert_int_equal(store_begin(fx->st), STORE_ERR);
	assert_non_null(strstr(store_errmsg(fx->st), "open already"));
	add_msg(fx->st, "gone@x", "a@x", NULL, 1);
	assert_int_equal(store_rollback(fx->st), STORE_OK);
	assert_int_equal(store_msg_find(fx->st, "gone@x", &m), STORE_DONE);

	assert_int_equal(store_begin(fx->st), STORE_OK);
	add_msg(fx->st, "kept@x", "a@x", NULL, 1);
	assert_int_equal(store_commit(fx->st), STORE_OK);
	assert_int_equal(store_msg_find(fx->st, "kept@x", &m), STORE_OK);
	store_msg_release(&m);
}

/* A savepoint inside a transaction: kept, or undone alone (import's batches). */
static void test_store__savepoints_keep_or_undo_one_part(void **state)
{
	struct fx *fx = *state;
	struct store_msg m;

	assert_int_equal(store_savepoint(fx->st), STORE_ERR);	/* no transaction */
	assert_int_equal(store_synchronous(fx->st), 2);		/* FULL */
	assert_int_equal(store_set_bulk(fx->st), STORE_OK);
	assert_int_equal(store_synchronous(fx->st), 1);		/* NORMAL */
	assert_int_equal(store_begin(fx->st), STORE_OK);
	assert_int_equal(store_savepoint(fx->st), STORE_OK);
	add_msg(fx->st, "one@x", "a@x", NULL, 1);
	assert_int_equal(store_savepoint_end(fx->st, 0), STORE_OK);
	assert_int_equal(store_savepoint(fx->st), STORE_OK);
	add_msg(fx->st, "two@x", "a@x", NULL, 2);
	assert_int_equal(store_savepoint_end(fx->st, -1), STORE_OK);
	assert_int_equal(store_msg_find(fx->st, "two@x", &m), STORE_DONE);
	assert_int_equal(store_savepoint(fx->st), STORE_OK);
	add_msg(fx->st, "three@x", "a@x", NULL, 3);
	assert_int_equal(store_savepoint_end(fx->st, 1), STORE_OK);
	assert_int_equal(store_commit(fx->st), STORE_OK);
	assert_int_equal(store_msg_find(fx->st, "one@x", &m), STORE_OK);
	store_msg_release(&m);
	assert_int_equal(store_msg_find(fx->st, "three@x", &m), STORE_OK);
	store_msg_release(&m);
	assert_int_equal(store_msg_find(fx->st, "two@x", &m), STORE_DONE);
}

static void test_store__second_writer_gets_busy_after_timeout(void **state)
{
	struct fx *fx = *state;
	struct store_msg m = { .message_id = (char *)"late@x" };
	struct store *st2 = NULL;
	struct timespec t0, t1;
	char err[256];
	int64_t id;
	long ms;

	assert_int_equal(store_open(fx->path, &st2, err, sizeof(err)), STORE_OK);
	store_set_busy_timeout(st2, 200);
	assert_int_equal(store_begin(fx->st), STORE_OK);
	add_msg(fx->st, "first@x", "a@x", NULL, 1);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(store_msg_add(st2, &m, "r", 1, &id), STORE_ERR_BUSY);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(ms >= 150);
	assert_non_null(strstr(store_errmsg(st2), "locked"));
	assert_int_equal(store_begin(st2), STORE_ERR_BUSY);

	/* readers are not blocked in WAL mode, and see the last commit */
	{
		struct store_msg g;

		assert_int_equal(store_msg_find(st2, "first@x", &g), STORE_DONE);
	}
	assert_int_equal(store_commit(fx->st), STORE_OK);
	assert_int_equal(store_msg_add(st2, &m, "r", 1, &id), STORE_OK);
	store_close(st2);
}

/* ---- messages ------------------------------------------------------------ */

static void test_store__msg_add_dup_get_find_raw(void **state)
{
	struct fx *fx = *state;
	static const char raw[] = "From: a@x\r\n\r\nbody\0with\0NULs\xff\n";
	struct store_msg m = {
		.message_id = (char *)"20240101.1234@example.org",
		.source = (char *)"imap-netdev",
		.list = NULL,
		.from_addr = (char *)"dev@example.org",
		.from_name = (char *)"D\xc3\xa9v",
		.subject = (char *)"[PATCH v2 1/3] net: x",
		.date = 1700000000,
		.received = 1700000100,
		.in_reply_to = (char *)"cover@example.org",
		.refs = (char *)"a@x b@y cover@example.org",
	};
	struct store_msg g;
	int64_t id, id2;
	void *r;
	size_t n;

	assert_int_equal(store_msg_add(fx->st, &m, raw, sizeof(raw), &id), STORE_OK);
	assert_true(id > 0);
	assert_int_equal(store_msg_add(fx->st, &m, "other", 5, &id2), STORE_DUP);
	assert_int_equal(id2, id);

	assert_int_equal(store_msg_get(fx->st, id, &g), STORE_OK);
	assert_int_equal(g.id, id);
	assert_string_equal(g.message_id, m.message_id);
	assert_string_equal(g.source, "imap-netdev");
	assert_null(g.list);
	assert_string_equal(g.from_addr, m.from_addr);
	assert_string_equal(g.from_name, m.from_name);
	assert_string_equal(g.subject, m.subject);
	assert_int_equal(g.date, 1700000000);
	assert_int_equal(g.received, 1700000100);
	assert_string_equal(g.in_reply_to, m.in_reply_to);
	assert_string_equal(g.refs, m.refs);
	assert_int_equal(g.state, MSG_NEW);
	assert_null(g.reason);
	assert_int_equal(g.series_id, 0);
	store_msg_release(&g);

	assert_int_equal(store_msg_find(fx->st, m.message_id, &g), STORE_OK);
	assert_int_equal(g.id, id);
	store_msg_release(&g);
	assert_int_equal(store_msg_find(fx->st, "nope@x", &g), STORE_DONE);
	assert_int_equal(store_msg_get(fx->st, id + 100, &g), STORE_DONE);

	/* the first bytes are kept, NULs and all */
	assert_int_equal(store_msg_raw(fx->st, id, &r, &n), STORE_OK);
	assert_int_equal(n, sizeof(raw));
	assert_memory_equal(r, raw, sizeof(raw));
	free(r);
	assert_int_equal(store_msg_raw(fx->st, id + 100, &r, &n), STORE_DONE);
	assert_null(r);
}

static void test_store__msg_received_defaults_to_now_and_empty_raw(void **state)
{
	struct fx *fx = *state;
	struct store_msg m = { .message_id = (char *)"now@x" }, g;
	int64_t id, before = (int64_t)time(NULL);
	void *r;
	size_t n;

	assert_int_equal(store_msg_add(fx->st, &m, NULL, 0, &id), STORE_OK);
	assert_int_equal(store_msg_get(fx->st, id, &g), STORE_OK);
	assert_true(g.received >= before && g.received <= before + 5);
	assert_int_equal(g.date, 0);
	store_msg_release(&g);
	assert_int_equal(store_msg_raw(fx->st, id, &r, &n), STORE_OK);
	assert_int_equal(n, 0);
	free(r);
}

static void test_store__msg_limits_are_range_errors(void **state)
{
	struct fx *fx = *state;
	struct store_msg m = { .message_id = (char *)"big@x" }, g;
	int64_t id = 5;

	/* the size is checked before the bytes are looked at */
	assert_int_equal(store_msg_add(fx->st, &m, "x", (size_t)STORE_MAX_RAW + 1,
				       &id), STORE_ERR_RANGE);
	assert_int_equal(id, 0);
	assert_non_null(strstr(store_errmsg(fx->st), "larger"));
	m.message_id = NULL;
	assert_int_equal(store_msg_add(fx->st, &m, "x", 1, &id), STORE_ERR_RANGE);
	assert_int_equal(store_msg_find(fx->st, "big@x", &g), STORE_DONE);
	assert_int_equal(store_msg_set_state(fx->st, 1, MSG__COUNT, NULL),
			 STORE_ERR_RANGE);
}

static void test_store__msg_state_reason_series_and_counts(void **state)
{
	struct fx *fx = *state;
	long long counts[MSG__COUNT];
	struct store_msg g;
	int64_t a, b, c, sid;

	a = add_msg(fx->st, "a@x", "a@x", NULL, 1);
	b = add_msg(fx->st, "b@x", "a@x", NULL, 2);
	c = add_msg(fx->st, "c@x", "a@x", NULL, 3);
	assert_int_equal(store_msg_set_state(fx->st, a, MSG_BAD,
					     "no From: header"), STORE_OK);
	assert_int_equal(store_msg_set_state(fx->st, b, MSG_SKIPPED,
					     "Reviewbot: skip"), STORE_OK);
	assert_int_equal(store_msg_set_state(fx->st, 999, MSG_PATCH, NULL),
			 STORE_DONE);
	sid = add_series(fx->st, "l", "a@x", "c@x", 1, 0, 1, NULL, "s", 1);
	assert_int_equal(store_msg_set_state(fx->st, c, MSG_PATCH, NULL), STORE_OK);
	assert_int_equal(store_msg_set_series(fx->st, c, sid), STORE_OK);
	/* foreign keys hold */
	assert_int_equal(store_msg_set_series(fx->st, c, sid + 50), STORE_ERR);
	assert_non_null(strstr(store_errmsg(fx->st), "FOREIGN KEY"));

	assert_int_equal(store_msg_get(fx->st, a, &g), STORE_OK);
	assert_int_equal(g.state, MSG_BAD);
	assert_string_equal(g.reason, "no From: header");
	store_msg_release(&g);
	assert_int_equal(store_msg_get(fx->st, c, &g), STORE_OK);
	assert_int_equal(g.state, MSG_PATCH);
	assert_null(g.reason);
	assert_int_equal(g.series_id, sid);
	store_msg_release(&g);

	add_msg(fx->st, "d@x", "a@x", NULL, 4);
	assert_int_equal(store_msg_count(fx->st, counts), STORE_OK);
	assert_int_equal(counts[MSG_NEW], 1);
	assert_int_equal(counts[MSG_PATCH], 1);
	assert_int_equal(counts[MSG_BAD], 1);
	assert_int_equal(counts[MSG_SKIPPED], 1);
	assert_int_equal(counts[MSG_COVER], 0);
	assert_string_equal(store_msg_state_name(MSG_SKIPPED), "skipped");
	assert_string_equal(store_msg_state_name(MSG_NEW), "new");
	assert_string_equal(store_msg_state_name(MSG__COUNT), "unknown");
}

struct walk {
	struct store *st;
	int64_t seen[8];
	size_t n;
};

/* Writes from inside the walk: processes the message and stores a new one. */
static int process_new(void *arg, int64_t id)
{
	struct walk *w = arg;
	struct store_msg m = { .message_id = NULL };
	char msgid[32];
	int64_t nid;

	if (w->n < 8)
		w->seen[w->n] = id;
	w->n++;
	if (store_msg_set_state(w->st, id, MSG_REPLY, NULL) != STORE_OK)
		return -100;
	snprintf(msgid, sizeof(msgid), "during-%zu@x", w->n);
	m.message_id = msgid;
	if (store_msg_add(w->st, &m, "r", 1, &nid) != STORE_OK)
		return -101;
	return 0;
}

static void test_store__each_new_is_oldest_first_and_callback_may_write(void **state)
{
	struct fx *fx = *state;
	struct walk w = { .st = fx->st };
	struct ids c = { .stop_at = 1 };
	int64_t a, b, d;

	a = add_msg(fx->st, "a@x", "a@x", NULL, 30);
	b = add_msg(fx->st, "b@x", "a@x", NULL, 20);
	d = add_msg(fx->st, "d@x", "a@x", NULL, 10);
	assert_int_equal(store_msg_set_state(fx->st, b, MSG_COVER, NULL), STORE_OK);

	assert_int_equal(store_msg_each_new(fx->st, process_new, &w), STORE_OK);
	assert_int_equal(w.n, 2);
	assert_int_equal(w.seen[0], a);
	assert_int_equal(w.seen[1], d);

	/* only what the callbacks stored is new now; a non-zero return stops */
	assert_int_equal(store_msg_each_new(fx->st, collect_id, &c), 7);
	assert_int_equal(c.n, 1);
	c.n = 0;
	c.stop_at = 0;
	assert_int_equal(store_msg_each_new(fx->st, collect_id, &c), STORE_OK);
	assert_int_equal(c.n, 2);
}

/* ---- series, patches, findings ------------------------------------------ */

static void test_store__series_find_and_previous_versions(void **state)
{
	struct fx *fx = *state;
	const char *cid = "20240101-foo-bar-0123456789ab";
	const char *subj = "net: foo: add bar";
	struct store_series s;
	int64_t s1, s2, s21, s3, s5;

	s1 = add_series(fx->st, "l", "a@x", "r1", 1, 0, 3, cid, subj, 100);
	s2 = add_series(fx->st, "l", "a@x", "r2", 2, 0, 3, cid, subj, 200);
	s21 = add_series(fx->st, "l", "a@x", "r21", 2, 1, 3, cid, subj, 300);
	s3 = add_series(fx->st, "l", "a@x", "r3", 3, 0, 3, NULL, subj, 400);
	s5 = add_series(fx->st, NULL, "a@x", "r5", 1, 0, 1, NULL, "other", 500);

	assert_int_equal(store_series_find(fx->st, "l", "a@x", "r1", 1, 0, 3, &s),
			 STORE_OK);
	assert_int_equal(s.id, s1);
	assert_string_equal(s.change_id, cid);
	assert_string_equal(s.subject, subj);
	assert_string_equal(s.author_name, "Author Name");
	assert_int_equal(s.created, 100);
	assert_int_equal(s.state, SERIES_OPEN);
	store_series_release(&s);
	assert_int_equal(store_series_find(fx->st, "l", "a@x", "r1", 1, 0, 2, &s),
			 STORE_DONE);
	assert_int_equal(store_series_find(fx->st, "l", "b@x", "r1", 1, 0, 3, &s),
			 STORE_DONE);
	/* a NULL list matches NULL only */
	assert_int_equal(store_series_find(fx->st, NULL, "a@x", "r5", 1, 0, 1, &s),
			 STORE_OK);
	assert_int_equal(s.id, s5);
	assert_null(s.list);
	store_series_release(&s);
	assert_int_equal(store_series_find(fx->st, "l", "a@x", "r5", 1, 0, 1, &s),
			 STORE_DONE);

	/* by change-id: v2.1 follows v2, v2 follows v1 */
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, "l", "a@x", 2, 1,
							     s21, &s), STORE_OK);
	assert_int_equal(s.id, s2);
	store_series_release(&s);
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, "l", "a@x", 2, 0,
							     s2, &s), STORE_OK);
	assert_int_equal(s.id, s1);
	store_series_release(&s);
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, "l", "a@x", 3, 0,
							     s3, &s), STORE_OK);
	assert_int_equal(s.id, s21);
	assert_int_equal(s.version_minor, 1);
	store_series_release(&s);
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, "l", "a@x", 1, 0,
							     s1, &s), STORE_DONE);
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, "nope", "l", "a@x", 5, 0,
							     0, &s), STORE_DONE);
	/* a change-id copied by someone else, or to another list, links nothing */
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, "l", "b@x", 3, 0,
							     s3, &s), STORE_DONE);
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, "m", "a@x", 3, 0,
							     s3, &s), STORE_DONE);

	/* by subject: list and author must match too */
	assert_int_equal(store_series_find_prev_by_subject(fx->st, "l", "a@x", subj,
							   3, 0, s3, &s), STORE_OK);
	assert_int_equal(s.id, s21);
	store_series_release(&s);
	assert_int_equal(store_series_find_prev_by_subject(fx->st, "l", "b@x", subj,
							   3, 0, s3, &s), STORE_DONE);
	assert_int_equal(store_series_find_prev_by_subject(fx->st, "other", "a@x",
							   subj, 3, 0, s3, &s),
			 STORE_DONE);
}

static void test_store__series_update_state_and_open_walk(void **state)
{
	struct fx *fx = *state;
	struct store_series s;
	struct ids c = { 0 };
	long long n;
	int64_t s1, s2, s3, cover;

	s1 = add_series(fx->st, "l", "a@x", "r1", 1, 0, 2, NULL, "one", 100);
	s2 = add_series(fx->st, "l", "a@x", "r2", 2, 0, 2, NULL, "one", 300);
	s3 = add_series(fx->st, "l", "b@x", "r3", 1, 0, 1, NULL, "two", 200);
	cover = add_msg(fx->st, "r2", "a@x", NULL, 300);

	assert_int_equal(store_series_get(fx->st, s2, &s), STORE_OK);
	free(s.subject);
	s.subject = strdup("one, renamed");
	free(s.prefix);
	s.prefix = strdup("RFC net-next");
	s.cover_msg = cover;
	s.prev_id = s1;
	s.total = 4;
	s.last_part_at = 333;
	assert_int_equal(store_series_update(fx->st, &s), STORE_OK);
	store_series_release(&s);
	assert_int_equal(store_series_get(fx->st, s2, &s), STORE_OK);
	assert_string_equal(s.subject, "one, renamed");
	assert_string_equal(s.prefix, "RFC net-next");
	assert_int_equal(s.cover_msg, cover);
	assert_int_equal(s.prev_id, s1);
	assert_int_equal(s.total, 4);
	assert_int_equal(s.last_part_at, 333);
	assert_int_equal(s.version, 2);
	store_series_release(&s);

	assert_int_equal(store_series_set_state(fx->st, s1, SERIES_REVIEWED, 150),
			 STORE_OK);
	assert_int_equal(store_series_get(fx->st, s1, &s), STORE_OK);
	assert_int_equal(s.state, SERIES_REVIEWED);
	assert_int_equal(s.reviewed_at, 150);
	store_series_release(&s);
	/* reviewed is still found, skipped is not */
	assert_int_equal(store_series_find(fx->st, "l", "a@x", "r1", 1, 0, 2, &s),
			 STORE_OK);
	store_series_release(&s);
	assert_int_equal(store_series_set_state(fx->st, s1, SERIES_SKIPPED, 160),
			 STORE_OK);
	assert_int_equal(store_series_find(fx->st, "l", "a@x", "r1", 1, 0, 2, &s),
			 STORE_DONE);
	assert_int_equal(store_series_set_state(fx->st, s1, 9, 0), STORE_ERR_RANGE);
	assert_int_equal(store_series_set_state(fx->st, 999, SERIES_OPEN, 0),
			 STORE_DONE);

	/* open ones, oldest first */
	assert_int_equal(store_series_each_open(fx->st, collect_id, &c), STORE_OK);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.v[0], s3);
	assert_int_equal(c.v[1], s2);
	assert_int_equal(store_series_count_open(fx->st, &n), STORE_OK);
	assert_int_equal(n, 2);
}

static void test_store__patch_dup_on_series_and_part(void **state)
{
	struct fx *fx = *state;
	struct store_patch p = { .part = 2, .subject = (char *)"[PATCH 2/2] b" };
	struct store_patch *list;
	int64_t sid, m1, m2, p1, p2, dup;
	size_t n;

	sid = add_series(fx->st, "l", "a@x", "r", 1, 0, 2, NULL, "s", 1);
	m1 = add_msg(fx->st, "m1@x", "a@x", NULL, 1);
	m2 = add_msg(fx->st, "m2@x", "a@x", NULL, 2);
	p.series_id = sid;
	p.msg_id = m2;
	assert_int_equal(store_patch_add(fx->st, &p, &p2), STORE_OK);
	p1 = add_patch(fx->st, sid, m1, 1);
	p.msg_id = m1;
	assert_int_equal(store_patch_add(fx->st, &p, &dup), STORE_DUP);
	assert_int_equal(dup, p2);
	assert_int_equal(store_patch_set_checked(fx->st, p2, 1, 2, 3), STORE_OK);
	assert_int_equal(store_patch_set_checked(fx->st, 999, 1, 2, 3), STORE_DONE);

	assert_int_equal(store_patch_list(fx->st, sid, &list, &n), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(list[0].id, p1);
	assert_int_equal(list[0].part, 1);
	assert_int_equal(list[0].checked, 0);
	assert_int_equal(list[1].id, p2);
	assert_int_equal(list[1].msg_id, m2);	/* the first one kept */
	assert_string_equal(list[1].subject, "[PATCH 2/2] b");
	assert_int_equal(list[1].checked, 1);
	assert_int_equal(list[1].errors, 1);
	assert_int_equal(list[1].warnings, 2);
	assert_int_equal(list[1].checks, 3);
	store_patch_release(&list[0]);
	store_patch_release(&list[1]);
	free(list);

	assert_int_equal(store_patch_list(fx->st, sid + 1, &list, &n), STORE_OK);
	assert_int_equal(n, 0);
	free(list);
}

static void test_store__findings_listed_by_part_file_line(void **state)
{
	struct fx *fx = *state;
	struct store_finding *f, bad = { .patch_id = 999, .type = (char *)"X" };
	int64_t sid, p1, p2, id;
	size_t n;

	sid = add_series(fx->st, "l", "a@x", "r", 1, 0, 2, NULL, "s", 1);
	p2 = add_patch(fx->st, sid, add_msg(fx->st, "2@x", "a@x", NULL, 2), 2);
	p1 = add_patch(fx->st, sid, add_msg(fx->st, "1@x", "a@x", NULL, 1), 1);
	add_finding(fx->st, p2, "SPACING", "style", "b.c", 5);
	add_finding(fx->st, p1, "LONG_LINE", "style", "a.c", 20);
	add_finding(fx->st, p1, "MISSING_SIGN_OFF", "process", NULL, 0);
	add_finding(fx->st, p1, "USER_COPY", "security", "a.c", 3);
	assert_int_equal(store_finding_add(fx->st, &bad, &id), STORE_ERR_RANGE);

	assert_int_equal(store_finding_list(fx->st, sid, &f, &n), STORE_OK);
	assert_int_equal(n, 4);
	assert_string_equal(f[0].type, "MISSING_SIGN_OFF");
	assert_null(f[0].file);
	assert_int_equal(f[0].part, 1);
	assert_string_equal(f[1].type, "USER_COPY");
	assert_int_equal(f[1].line, 3);
	assert_string_equal(f[2].type, "LONG_LINE");
	assert_string_equal(f[3].type, "SPACING");
	/* part and series come from the patch */
	assert_int_equal(f[3].part, 2);
	assert_int_equal(f[3].series_id, sid);
	assert_int_equal(f[3].patch_id, p2);
	assert_string_equal(f[3].severity, "WARNING");
	assert_string_equal(f[3].category, "style");
	assert_string_equal(f[3].message, "msg");
	assert_string_equal(f[3].line_text, "int x;");
	assert_string_equal(f[3].fingerprint, "fp");
	for (size_t i = 0; i < n; i++)
		store_finding_release(&f[i]);
	free(f);
}

static void test_store__migration_from_v4_adds_attempts_and_claims(void **state)
{
	struct fx *fx = *state;
	struct store_reply got;
	struct store_msg m;
	sqlite3 *db;
	int64_t mid, rid;
	char err[256];

	assert_int_equal(store_open_at_version(fx->path, 4, &fx->st, err,
					       sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), 4);
	mid = add_msg(fx->st, "p1@x", "dev@example.org", NULL, 100);
	/* v5's columns are not there yet */
	assert_int_equal(store_msg_claim(fx->st, mid, "me", NULL, 1), STORE_ERR);
	assert_non_null(strstr(store_errmsg(fx->st), "no such column"));
	store_close(fx->st);
	fx->st = NULL;
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "INSERT INTO replies (message_id, kind, rcpt,"
				      " body, created) VALUES ('old@bot', 'review',"
				      " 'dev@example.org', 'body', 5)",
				      NULL, NULL, NULL), SQLITE_OK);
	rid = sqlite3_last_insert_rowid(db);
	sqlite3_close(db);

	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	/* what v4 stored: no attempt, no claim */
	assert_int_equal(store_msg_get(fx->st, mid, &m), STORE_OK);
	assert_int_equal(m.attempts, 0);
	assert_null(m.claim);
	store_msg_release(&m);
	assert_int_equal(store_reply_get(fx->st, rid, &got), STORE_OK);
	assert_null(got.claim);
	assert_int_equal(got.state, REPLY_PENDING);
	store_reply_release(&got);
	assert_int_equal(store_msg_claim(fx->st, mid, "me", NULL, 1), STORE_OK);
	assert_int_equal(store_reply_claim(fx->st, rid, "me", NULL, 1), STORE_OK);
}

/* Schema 6: the series stored before are found by their mails, by what
 * their patches reply to, and by their thread root. */
static void test_store__migration_from_v5_knows_series_by_their_mails(void **state)
{
	struct fx *fx = *state;
	int64_t ids[4], s1, s2, c, p1, p2, other;
	int own[4];
	size_t n;
	char err[256];

	assert_int_equal(store_open_at_version(fx->path, 5, &fx->st, err,
					       sizeof(err)), STORE_OK);
	s1 = add_series(fx->st, "l", "a@x", "c@x", 1, 0, 2, NULL, "one", 100);
	s2 = add_series(fx->st, "l", "a@x", "q@x", 1, 0, 1, NULL, "two", 200);
	c = add_msg(fx->st, "c@x", "a@x", NULL, 100);
	p1 = add_msg(fx->st, "p1@x", "a@x", NULL, 100);
	p2 = add_msg(fx->st, "p2@x", "a@x", NULL, 100);
	other = add_msg(fx->st, "o@x", "a@x", NULL, 100);
	assert_int_equal(store_msg_set_series(fx->st, c, s1), STORE_OK);
	assert_int_equal(store_msg_set_state(fx->st, c, MSG_COVER, NULL), STORE_OK);
	assert_int_equal(store_msg_set_series(fx->st, p1, s1), STORE_OK);
	assert_int_equal(store_msg_set_state(fx->st, p1, MSG_PATCH, NULL), STORE_OK);
	assert_int_equal(store_msg_set_series(fx->st, p2, s1), STORE_OK);
	/* a message not (or no longer) a part names nothing */
	assert_int_equal(store_msg_set_state(fx->st, p2, MSG_SKIPPED, "x"), STORE_OK);
	(void)other;
	store_close(fx->st);
	fx->st = NULL;

	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", "p1@x", ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], s1);
	assert_int_equal(own[0], 1);
	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", "c@x", ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(own[0], 1);
	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", "p2@x", ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 0);
	/* the root of a series whose mails are gone */
	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", "q@x", ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], s2);
	assert_int_equal(own[0], 0);
}

/* Schema 12 lets the findings of one entry of a review share its
 * number ("false-positive #N" names them all); schema 11 refused the
 * second, and the rows kept stay. */
static void test_store__migration_from_v11_lets_an_entry_share_its_number(void **state)
{
	struct fx *fx = *state;
	struct store_reply r;
	int64_t s1, m1, p1, f1, f2, f3, rid = 0;
	char err[256];

	assert_int_equal(store_open_at_version(fx->path, 11, &fx->st, err,
					       sizeof(err)), STORE_OK);
	s1 = add_series(fx->st, "l", "a@x", "m1@x", 1, 0, 1, NULL, "one", 100);
	m1 = add_msg(fx->st, "m1@x", "a@x", NULL, 100);
	p1 = add_patch(fx->st, s1, m1, 1);
	f1 = add_finding(fx->st, p1, "BAD_SIGN_OFF", "process", NULL, 0);
	f2 = add_finding(fx->st, p1, "NO_AUTHOR_SIGN_OFF", "process", NULL, 0);
	f3 = add_finding(fx->st, p1, "SIGN_OFF_NOT_SENDER", "process", NULL, 0);
	memset(&r, 0, sizeof(r));
	r.message_id = (char *)"r@bot";
	r.series_id = s1;
	r.kind = (char *)"review";
	r.mail_from = (char *)"bot@x";
	r.rcpt = (char *)"a@x";
	r.body = (char *)"x\n";
	r.created = 100;
	assert_int_equal(store_reply_add(fx->st, &r, &rid), STORE_OK);
	assert_int_equal(store_reply_finding_add(fx->st, rid, f1, 1), STORE_OK);
	assert_int_equal(store_reply_finding_add(fx->st, rid, f2, 1), STORE_DUP);
	store_close(fx->st);
	fx->st = NULL;

	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_reply_finding_add(fx->st, rid, f2, 1), STORE_OK);
	assert_int_equal(store_reply_finding_add(fx->st, rid, f3, 1), STORE_OK);
	assert_int_equal(store_reply_finding_add(fx->st, rid, f1, 2), STORE_DUP);
}

/* Schema 10 works out what the privacy rule and the author filter need
 * for the mail stored before: published or not, opted out, authors. */
static void test_store__migration_from_v9_stores_published_and_authors(void **state)
{
	struct fx *fx = *state;
	int64_t s1, s2, m1, m2, m3;
	char err[256];
	sqlite3 *db;
	sqlite3_stmt *q;

	assert_int_equal(store_open_at_version(fx->path, 9, &fx->st, err,
					       sizeof(err)), STORE_OK);
	s1 = add_series(fx->st, "l", "a@x", "m1@x", 1, 0, 1, NULL, "one", 100);
	s2 = add_series(fx->st, "l", "B@x", "m3@x", 1, 0, 1, NULL, "two", 100);
	m1 = add_msg(fx->st, "m1@x", "a@x", "Ann", 100);
	m2 = add_msg(fx->st, "m2@x", "a@x", NULL, 100);
	m3 = add_msg(fx->st, "m3@x", "B@x", "Bo", 100);
	assert_int_equal(store_msg_set_rcpt(fx->st, m1, "l@x", "l.x"), STORE_OK);
	assert_int_equal(store_msg_set_rcpt(fx->st, m3, "l@x", NULL), STORE_OK);
	assert_int_equal(store_msg_set_series(fx->st, m1, s1), STORE_OK);
	assert_int_equal(store_msg_set_series(fx->st, m3, s2), STORE_OK);
	add_patch(fx->st, s1, m1, 1);
	add_patch(fx->st, s1, m2, 2);
	add_patch(fx->st, s2, m3, 1);
	assert_int_equal(store_optout_set(fx->st, "b@x", OPTOUT_PRIVATE, 1), STORE_OK);
	store_close(fx->st);
	fx->st = NULL;

	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT group_concat(message_id || '=' || pub, ' ') FROM"
		" (SELECT message_id, pub FROM messages ORDER BY id)", -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	/* a List-Id; no recipients recorded; its sender opted out */
	assert_string_equal((const char *)sqlite3_column_text(q, 0), "m1@x=1 m2@x=0 m3@x=0");
	sqlite3_finalize(q);
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT group_concat(p.part || ':' || a.who, ';') FROM"
		" (SELECT * FROM patches ORDER BY id) p JOIN authors a ON a.id = p.author_id",
		-1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	/* the mail's address and name, the series' name where it has none */
	assert_string_equal((const char *)sqlite3_column_text(q, 0),
			    "1:a@x ann;2:a@x author name;1:b@x bo");
	sqlite3_finalize(q);
	assert_int_equal(sqlite3_prepare_v2(db,
		"SELECT group_concat(opted_out || ':' || (author_id IS NOT NULL), ' ') FROM"
		" (SELECT * FROM series ORDER BY id)", -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(q, 0), "0:1 1:1");
	sqlite3_finalize(q);
	sqlite3_close(db);
}

/* Schema 13 keeps every message, its copy's hash not known yet, how it
 * came not known (NULL: its review goes where it used to), no copy. */
static void test_store__migration_from_v12_knows_copies(void **state)
{
	struct fx *fx = *state;
	struct store_msg m;
	long long n = -1;
	int64_t id;
	char err[256];

	assert_int_equal(store_open_at_version(fx->path, 12, &fx->st, err,
					       sizeof(err)), STORE_OK);
	id = add_msg(fx->st, "old@x", "a@x", "Ann", 100);
	store_close(fx->st);
	fx->st = NULL;
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_msg_get(fx->st, id, &m), STORE_OK);
	assert_string_equal(m.message_id, "old@x");
	assert_null(m.hash);
	assert_int_equal(m.via, VIA_DIRECT);
	assert_null(m.via_lists);
	store_msg_release(&m);
	assert_int_equal(store_msg_copy_count(fx->st, id, &n), STORE_OK);
	assert_int_equal(n, 0);
}

static int64_t one_int(struct store *st, const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	int64_t v = -1;

	(void)st;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return v;
}

/*
 * The copies of a Message-ID: the same mail again gains the better way
 * it came; one that differs is kept aside; one that came a better way
 * takes the row's place, new again, and what the old one made is undone:
 * its patch and findings, its series' reference; its series, left
 * empty, is put aside, its unsent review gone.
 */
static void test_store__copies_merge_keep_and_replace(void **state)
{
	struct fx *fx = *state;
	struct store_msg first = {
		.message_id = (char *)"v1@vic", .source = (char *)"box",
		.list = (char *)"l@x", .from_addr = (char *)"vic@x",
		.subject = (char *)"[PATCH] squat", .date = 100, .received = 101,
		.hash = (char *)"aaaa", .via = VIA_DIRECT, .via_lists = (char *)"",
	};
	struct store_msg same = first, other = first, list = first, m;
	struct store_review rv = { 0 };
	struct store_reply rp = { 0 };
	int64_t id, id2, s, p, rid, rvid;
	long long n;

	assert_int_equal(store_msg_add(fx->st, &first, "raw1", 4, &id), STORE_OK);
	/* the same mail through the list: merged */
	same.source = (char *)"lore";
	same.via = VIA_ARCHIVE;
	same.via_lists = (char *)"l@x";
	assert_int_equal(store_msg_add(fx->st, &same, "raw1+", 5, &id2), STORE_DUP);
	assert_int_equal(id2, id);
	assert_int_equal(store_msg_merge_copy(fx->st, id, &same, "l.x"), STORE_OK);
	assert_int_equal(store_msg_get(fx->st, id, &m), STORE_OK);
	assert_int_equal(m.via, VIA_ARCHIVE);
	assert_string_equal(m.via_lists, "l@x");
	assert_string_equal(m.source, "lore");
	store_msg_release(&m);
	/* a worse copy that differs: kept aside once */
	other.hash = (char *)"bbbb";
	other.source = (char *)"box";
	assert_int_equal(store_msg_copy_add(fx->st, id, &other, "raw2", 4, "came first"), STORE_OK);
	assert_int_equal(store_msg_copy_add(fx->st, id, &other, "raw2", 4, "came first"), STORE_DUP);
	assert_int_equal(store_msg_copy_count(fx->st, id, &n), STORE_OK);
	assert_int_equal(n, 1);

	/* it was processed: a patch, a finding, a reference, a review not sent */
	s = add_series(fx->st, "l@x", "vic@x", "v1@vic", 1, 0, 1, NULL, "squat", 100);
	assert_int_equal(store_msg_set_series(fx->st, id, s), STORE_OK);
	assert_int_equal(store_msg_set_state(fx->st, id, MSG_PATCH, NULL), STORE_OK);
	p = add_patch(fx->st, s, id, 1);
	add_finding(fx->st, p, "SPACING", "style", "a.c", 3);
	assert_int_equal(store_series_ref_add(fx->st, s, "v1@vic", 1), STORE_OK);
	rp.message_id = (char *)"review-1@bot";
	rp.series_id = s;
	rp.kind = (char *)"review";
	assert_int_equal(store_reply_add(fx->st, &rp, &rid), STORE_OK);
	rv.series_id = s;
	rv.reply_id = rid;
	assert_int_equal(store_review_add(fx->st, &rv, &rvid), STORE_OK);
	assert_int_equal(store_series_set_state(fx->st, s, SERIES_REVIEWED, 200), STORE_OK);

	/* a better copy that differs takes the place */
	list.hash = (char *)"cccc";
	list.subject = (char *)"[PATCH] the real one";
	list.via = VIA_ARCHIVE + 1;	/* better than the row's now */
	list.via_lists = (char *)"l@x";
	assert_int_equal(store_msg_replace(fx->st, id, "aaaa", &list, "raw3", 4, "replaced"),
			 STORE_OK);
	assert_int_equal(store_msg_get(fx->st, id, &m), STORE_OK);
	assert_int_equal(m.state, MSG_NEW);
	assert_int_equal(m.series_id, 0);
	assert_string_equal(m.subject, "[PATCH] the real one");
	assert_string_equal(m.hash, "cccc");
	store_msg_release(&m);
	{
		void *raw;
		size_t len;

		assert_int_equal(store_msg_raw(fx->st, id, &raw, &len), STORE_OK);
		assert_int_equal(len, 4);
		assert_memory_equal(raw, "raw3", 4);
		free(raw);
	}
	assert_int_equal(store_msg_copy_count(fx->st, id, &n), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(one_int(fx->st, fx->path, "SELECT count(*) FROM patches"), 0);
	assert_int_equal(one_int(fx->st, fx->path, "SELECT count(*) FROM findings"), 0);
	assert_int_equal(one_int(fx->st, fx->path, "SELECT count(*) FROM series_refs"), 0);
	assert_int_equal(one_int(fx->st, fx->path, "SELECT count(*) FROM reviews"), 0);
	assert_int_equal(one_int(fx->st, fx->path, "SELECT count(*) FROM replies"), 0);
	assert_int_equal(one_int(fx->st, fx->path, "SELECT state FROM series"), SERIES_SKIPPED);
	assert_int_equal(one_int(fx->st, fx->path,
				 "SELECT count(*) FROM message_copies WHERE hash = 'aaaa'"
				 " AND reason = 'replaced' AND raw = CAST('raw1' AS BLOB)"), 1);
}

/* A Message-ID names every series that holds it or whose mails name
 * it, of one list and author: own ones first, then the newest. */
static void test_store__series_refs_by_list_author_own_first(void **state)
{
	struct fx *fx = *state;
	struct store_forget fc;
	int64_t ids[4], s1, s2, s3, s4;
	int own[4];
	size_t n;

	s1 = add_series(fx->st, "l", "a@x", "r", 1, 0, 2, NULL, "one", 100);
	s2 = add_series(fx->st, "l", "a@x", "r", 2, 0, 2, NULL, "one", 200);
	s3 = add_series(fx->st, "l", "b@x", "r", 1, 0, 2, NULL, "one", 300);
	s4 = add_series(fx->st, "m", "a@x", "r", 1, 0, 2, NULL, "one", 400);
	assert_int_equal(store_series_ref_add(fx->st, s1, "c@x", 1), STORE_OK);
	assert_int_equal(store_series_ref_add(fx->st, s2, "c@x", 0), STORE_OK);
	assert_int_equal(store_series_ref_add(fx->st, s3, "c@x", 0), STORE_OK);
	assert_int_equal(store_series_ref_add(fx->st, s4, "c@x", 0), STORE_OK);
	assert_int_equal(store_series_ref_add(fx->st, s2, "d@x", 0), STORE_OK);
	/* again, and own once set stays set */
	assert_int_equal(store_series_ref_add(fx->st, s2, "d@x", 1), STORE_OK);
	assert_int_equal(store_series_ref_add(fx->st, s2, "d@x", 0), STORE_OK);
	assert_int_equal(store_series_ref_add(fx->st, s2, NULL, 0), STORE_OK);
	assert_int_equal(store_series_ref_add(fx->st, s2, EVIL, 0), STORE_OK);

	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", "c@x", ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], s1);
	assert_int_equal(own[0], 1);
	assert_int_equal(ids[1], s2);
	assert_int_equal(own[1], 0);
	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", "c@x", ids, NULL, 1, &n),
			 STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], s1);
	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", "d@x", ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(own[0], 1);
	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", EVIL, ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", "nope@x", ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_series_has_part(fx->st, s1, 1), 0);
	add_patch(fx->st, s1, add_msg(fx->st, "p@x", "a@x", NULL, 1), 1);
	assert_int_equal(store_series_has_part(fx->st, s1, 1), 1);
	assert_int_equal(store_series_has_part(fx->st, s1, 2), 0);
	/* a series' references go with it */
	assert_int_equal(store_forget_address(fx->st, "a@x", &fc), STORE_OK);
	assert_int_equal(store_series_by_ref(fx->st, "l", "a@x", "c@x", ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_series_by_ref(fx->st, "l", "b@x", "c@x", ids, own, 4, &n),
			 STORE_OK);
	assert_int_equal(n, 1);
	/* and the author filter's text of the address (schema 10) */
	{
		sqlite3 *db;
		sqlite3_stmt *q;

		assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM authors"
						    " WHERE who LIKE 'a@x%'", -1, &q, NULL),
				 SQLITE_OK);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(q, 0), 0);
		sqlite3_finalize(q);
		sqlite3_close(db);
	}
}

/* Unthreaded parts: the same tags, and a mail dated near theirs. */
static void test_store__series_find_unthreaded_by_prefix_and_date(void **state)
{
	struct fx *fx = *state;
	struct store_series s;
	int64_t s1, m1;

	s1 = add_series(fx->st, "l", "a@x", "r", 1, 0, 2, NULL, "one", 100);
	assert_int_equal(store_series_get(fx->st, s1, &s), STORE_OK);
	free(s.prefix);
	s.prefix = strdup("net");
	assert_int_equal(store_series_update(fx->st, &s), STORE_OK);
	store_series_release(&s);
	m1 = add_msg(fx->st, "p1@x", "a@x", NULL, 5000);
	assert_int_equal(store_msg_set_series(fx->st, m1, s1), STORE_OK);
	add_patch(fx->st, s1, m1, 1);

	assert_int_equal(store_series_find_unthreaded(fx->st, "l", "a@x", "net", 1, 0, 2, 2,
						      0, 5600, 1200, 0, &s), STORE_OK);
	assert_int_equal(s.id, s1);
	store_series_release(&s);
	/* another tag, none, the part already there, too far in time */
	assert_int_equal(store_series_find_unthreaded(fx->st, "l", "a@x", "net-next", 1, 0,
						      2, 2, 0, 5600, 1200, 0, &s), STORE_DONE);
	assert_int_equal(store_series_find_unthreaded(fx->st, "l", "a@x", NULL, 1, 0,
						      2, 2, 0, 5600, 1200, 0, &s), STORE_DONE);
	assert_int_equal(store_series_find_unthreaded(fx->st, "l", "a@x", "net", 1, 0,
						      2, 1, 0, 5600, 1200, 0, &s), STORE_DONE);
	assert_int_equal(store_series_find_unthreaded(fx->st, "l", "a@x", "net", 1, 0,
						      2, 2, 0, 6300, 1200, 0, &s), STORE_DONE);
	/* no date on the mail: any */
	assert_int_equal(store_series_find_unthreaded(fx->st, "l", "a@x", "net", 1, 0,
						      2, 2, 0, 0, 1200, 0, &s), STORE_OK);
	store_series_release(&s);
	/* for a threaded mail: a series of unthreaded mails only */
	assert_int_equal(store_series_find_unthreaded(fx->st, "l", "a@x", "net", 1, 0,
						      2, 2, 0, 0, 1200, 1, &s), STORE_OK);
	store_series_release(&s);
	{
		struct store_msg t = {
			.message_id = (char *)"p3@x", .from_addr = (char *)"a@x",
			.subject = (char *)"[PATCH 3/3] x", .date = 5000,
			.in_reply_to = (char *)"elsewhere@x",
		};
		int64_t tid = 0;

		assert_int_equal(store_msg_add(fx->st, &t, "raw", 3, &tid), STORE_OK);
		assert_int_equal(store_msg_set_series(fx->st, tid, s1), STORE_OK);
	}
	assert_int_equal(store_series_find_unthreaded(fx->st, "l", "a@x", "net", 1, 0,
						      2, 2, 0, 0, 1200, 1, &s), STORE_DONE);
}

/* A crash between a claim and the end of its work leaves the attempt
 * counted; a work that ends gives it back; processing clears it. */
static void test_store__msg_claim_counts_attempts_across_handles(void **state)
{
	struct fx *fx = *state;
	struct store_msg m;
	long long n;
	int64_t a, b, c;
	char err[256];

	a = add_msg(fx->st, "a@x", "dev@example.org", NULL, 100);
	b = add_msg(fx->st, "b@x", "dev@example.org", NULL, 100);
	c = add_msg(fx->st, "c@x", "dev@example.org", NULL, 100);
	assert_int_equal(store_msg_claim(fx->st, a, "p1", NULL, 50), STORE_OK);
	assert_int_equal(store_msg_claim(fx->st, b, "p1", NULL, 50), STORE_OK);
	assert_int_equal(store_msg_claim(fx->st, c, "p1", NULL, 50), STORE_OK);
	/* another process read "unclaimed" too late: it gets nothing */
	assert_int_equal(store_msg_claim(fx->st, a, "p2", NULL, 51), STORE_DONE);
	assert_int_equal(store_msg_claim(fx->st, b, NULL, NULL, 51), STORE_ERR_RANGE);
	assert_int_equal(store_msg_get(fx->st, a, &m), STORE_OK);
	assert_int_equal(m.attempts, 1);
	assert_string_equal(m.claim, "p1");
	assert_int_equal(m.claimed_at, 50);
	store_msg_release(&m);
	/* b is processed: its attempts and claim go */
	assert_int_equal(store_msg_set_state(fx->st, b, MSG_PATCH, NULL), STORE_OK);
	assert_int_equal(store_msg_get(fx->st, b, &m), STORE_OK);
	assert_int_equal(m.attempts, 0);
	assert_null(m.claim);
	store_msg_release(&m);
	/* c's work ended without a crash: its attempt is given back */
	assert_int_equal(store_msg_set_state(fx->st, c, MSG_NEW, NULL), STORE_OK);
	assert_int_equal(store_msg_unclaim(fx->st, "p2", &n), STORE_OK);
	assert_int_equal(n, 0);
	/* p1 "crashes" with a still in hand: a new handle sees the attempt */
	store_close(fx->st);
	fx->st = NULL;
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_msg_get(fx->st, a, &m), STORE_OK);
	assert_int_equal(m.attempts, 1);
	store_msg_release(&m);
	/* the next process takes it over from the dead one: a second attempt */
	assert_int_equal(store_msg_claim(fx->st, a, "p3", "p1", 60), STORE_OK);
	assert_int_equal(store_msg_get(fx->st, a, &m), STORE_OK);
	assert_int_equal(m.attempts, 2);
	assert_string_equal(m.claim, "p3");
	store_msg_release(&m);
	assert_int_equal(store_msg_unclaim(fx->st, "p1", &n), STORE_OK);
	assert_int_equal(n, 1);	/* c */
	assert_int_equal(store_msg_unclaim(fx->st, "p3", &n), STORE_OK);
	assert_int_equal(n, 1);	/* a */
	assert_int_equal(store_msg_get(fx->st, a, &m), STORE_OK);
	assert_int_equal(m.attempts, 1);
	assert_null(m.claim);
	store_msg_release(&m);
	assert_int_equal(store_msg_get(fx->st, c, &m), STORE_OK);
	assert_int_equal(m.attempts, 0);
	store_msg_release(&m);
	/* a processed message is not claimed again */
	assert_int_equal(store_msg_claim(fx->st, b, "p3", NULL, 70), STORE_DONE);
	assert_int_equal(store_msg_claim(fx->st, 999, "p3", NULL, 70), STORE_DONE);
	assert_int_equal(store_msg_claim(fx->st, a, EVIL, NULL, 70), STORE_OK);
	assert_int_equal(store_msg_unclaim(fx->st, EVIL, &n), STORE_OK);
	assert_int_equal(n, 1);
}

/* A reader's open: a missing database is an error, and no file is made. */
/*
 * Schema 11 (issue 33): the installation's secrets, tokens that carry a
 * pending command, the addresses that sent a token back.  A token stored
 * before keeps its meaning (it opts back in: action NULL); nothing of the
 * new tables is there at 10.
 */
static void test_store__migration_from_v10_keeps_tokens_adds_pending(void **state)
{
	struct fx *fx = *state;
	struct store_pending pd;
	unsigned char key[16], got[16];
	long long n;
	char err[256];
	int64_t mid;

	assert_int_equal(store_open_at_version(fx->path, 10, &fx->st, err,
					       sizeof(err)), STORE_OK);
	assert_int_equal(store_token_add(fx->st, "a@x", "0123456789abcdef0123456789abcdef", 100),
			 STORE_OK);
	memset(key, 7, sizeof(key));
	assert_int_equal(store_secret_add(fx->st, "message-id", key, sizeof(key), 1), STORE_ERR);
	assert_int_equal(store_confirmed_add(fx->st, "a@x", 1), STORE_ERR);
	store_close(fx->st);
	fx->st = NULL;

	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	/* the old token: no action, opts back in; once */
	assert_int_equal(store_pending_take(fx->st, "b@x", "0123456789abcdef0123456789abcdef",
					    0, 200, &pd), STORE_DONE);
	assert_int_equal(store_pending_take(fx->st, "a@x", "0123456789abcdef0123456789abcdef",
					    0, 200, &pd), STORE_OK);
	assert_string_equal(pd.addr, "a@x");
	assert_null(pd.action);
	store_pending_release(&pd);
	assert_int_equal(store_pending_take(fx->st, "a@x", "0123456789abcdef0123456789abcdef",
					    0, 300, &pd), STORE_DONE);
	/* a pending command, counted until used or expired */
	mid = add_msg(fx->st, "m@x", "a@x", NULL, 100);
	assert_int_equal(store_pending_add(fx->st, "a@x", "fedcba9876543210fedcba9876543210",
					   "mute", "root@x", mid, 1000), STORE_OK);
	assert_int_equal(store_pending_add(fx->st, "a@x", "fedcba9876543210fedcba9876543210",
					   "mute", "root@x", mid, 1000), STORE_DUP);
	assert_int_equal(store_pending_count(fx->st, NULL, 900, &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_pending_count(fx->st, "b@x", 900, &n), STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_pending_count(fx->st, NULL, 1001, &n), STORE_OK);
	assert_int_equal(n, 0);
	/* expired for a not_before after it was made */
	assert_int_equal(store_pending_take(fx->st, "a@x", "fedcba9876543210fedcba9876543210",
					    1001, 1100, &pd), STORE_DONE);
	assert_int_equal(store_pending_take(fx->st, "a@x", "fedcba9876543210fedcba9876543210",
					    900, 1100, &pd), STORE_OK);
	assert_string_equal(pd.action, "mute");
	assert_string_equal(pd.arg, "root@x");
	assert_int_equal(pd.msg_id, mid);
	store_pending_release(&pd);
	assert_int_equal(store_pending_count(fx->st, NULL, 0, &n), STORE_OK);
	assert_int_equal(n, 0);
	/* the secret: the first value stays */
	assert_int_equal(store_secret_get(fx->st, "message-id", got, sizeof(got)), STORE_DONE);
	assert_int_equal(store_secret_add(fx->st, "message-id", key, sizeof(key), 1), STORE_OK);
	memset(key, 9, sizeof(key));
	assert_int_equal(store_secret_add(fx->st, "message-id", key, sizeof(key), 2), STORE_OK);
	assert_int_equal(store_secret_get(fx->st, "message-id", got, sizeof(got)), STORE_OK);
	assert_int_equal(got[0], 7);
	assert_int_equal(store_secret_get(fx->st, "message-id", got, 8), STORE_DONE);
	/* confirmed, and forgotten with the address */
	assert_int_equal(store_confirmed_get(fx->st, "a@x"), STORE_DONE);
	assert_int_equal(store_confirmed_add(fx->st, "a@x", 5), STORE_OK);
	assert_int_equal(store_confirmed_add(fx->st, "a@x", 6), STORE_OK);
	assert_int_equal(store_confirmed_get(fx->st, "a@x"), STORE_OK);
	assert_int_equal(store_forget_address(fx->st, "a@x", NULL), STORE_OK);
	assert_int_equal(store_confirmed_get(fx->st, "a@x"), STORE_DONE);
}

static void test_store__open_existing_makes_nothing(void **state)
{
	struct fx *fx = *state;
	struct store *st = NULL;
	char err[256];

	assert_int_equal(store_open_existing(fx->path, &st, err, sizeof(err)), STORE_DONE);
	assert_null(st);
	assert_non_null(strstr(err, "no such database"));
	assert_int_equal(access(fx->path, F_OK), -1);
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_open_existing(fx->path, &st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
	store_close(st);
}

static void test_store__strerror_names_every_result(void **state)
{
	(void)state;
	assert_string_equal(store_strerror(STORE_OK), "no error");
	assert_string_equal(store_strerror(STORE_ERR_BUSY), "database is locked");
	assert_string_equal(store_strerror(STORE_ERR_VERSION),
			    "database schema is newer than this program");
	assert_string_equal(store_strerror(-99), "unknown error");
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
#define TD(name) cmocka_unit_test_setup_teardown(name, setup_dir, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_store__open_empty_is_current_version_and_mode_0600),
		T(test_store__reopen_is_idempotent),
		TD(test_store__migration_from_v1_keeps_data),
		TD(test_store__migration_from_v2_adds_reply_columns_mutes_tokens),
		TD(test_store__migration_from_v4_adds_attempts_and_claims),
		TD(test_store__migration_from_v5_knows_series_by_their_mails),
		TD(test_store__migration_from_v9_stores_published_and_authors),
		TD(test_store__migration_from_v10_keeps_tokens_adds_pending),
		TD(test_store__migration_from_v11_lets_an_entry_share_its_number),
		TD(test_store__migration_from_v12_knows_copies),
		TD(test_store__open_existing_makes_nothing),
		TD(test_store__newer_schema_is_refused_untouched),
		TD(test_store__not_a_database_is_an_error),
		T(test_store__transactions_commit_and_roll_back),
		T(test_store__savepoints_keep_or_undo_one_part),
		T(test_store__second_writer_gets_busy_after_timeout),
		T(test_store__msg_add_dup_get_find_raw),
		T(test_store__copies_merge_keep_and_replace),
		T(test_store__msg_received_defaults_to_now_and_empty_raw),
		T(test_store__msg_limits_are_range_errors),
		T(test_store__msg_state_reason_series_and_counts),
		T(test_store__each_new_is_oldest_first_and_callback_may_write),
		T(test_store__msg_claim_counts_attempts_across_handles),
		T(test_store__series_find_and_previous_versions),
		T(test_store__series_update_state_and_open_walk),
		T(test_store__series_refs_by_list_author_own_first),
		T(test_store__series_find_unthreaded_by_prefix_and_date),
		T(test_store__patch_dup_on_series_and_part),
		T(test_store__findings_listed_by_part_file_line),
		cmocka_unit_test(test_store__strerror_names_every_result),
	};

	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}

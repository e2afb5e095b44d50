// SPDX-License-Identifier: GPL-2.0-only
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

#define EVIL "'; DROP TABLE messages; --"

#define STORE_FIXTURE_DIR "/tmp/test_store.XXXXXX"
#include "store_fixture.h"

/* ---- helpers ------------------------------------------------------------- */

static int64_t add_msg(struct store *st, const char *msgid, const char *from,
		       const char *name, int64_t date)
{
	struct store_msg m = {
		.message_id = (char *)msgid,
		.source = (char *)"test",
		.list = (char *)"netdev@vger.kernel.org",
		.from_addr = (char *)from,
		.from_name = (char *)name,
		.subject = (char *)"[PATCH] x",
		.date = date,
		.received = date + 5,
	};
	int64_t id = 0;

	assert_int_equal(store_msg_add(st, &m, "raw", 3, &id), STORE_OK);
	assert_true(id > 0);
	return id;
}

static int64_t add_series(struct store *st, const char *list,
			  const char *author, const char *root, int version,
			  int minor, int total, const char *change_id,
			  const char *subject, int64_t created)
{
	struct store_series s = {
		.list = (char *)list,
		.author_addr = (char *)author,
		.author_name = (char *)"Author Name",
		.subject = (char *)subject,
		.root = (char *)root,
		.change_id = (char *)change_id,
		.version = version,
		.version_minor = minor,
		.total = total,
		.created = created,
		.last_part_at = created,
	};
	int64_t id = 0;

	assert_int_equal(store_series_add(st, &s, &id), STORE_OK);
	assert_true(id > 0);
	return id;
}

static int64_t add_patch(struct store *st, int64_t series, int64_t msg, int part)
{
	struct store_patch p = {
		.series_id = series,
		.msg_id = msg,
		.part = part,
		.subject = (char *)"[PATCH] part",
	};
	int64_t id = 0;

	assert_int_equal(store_patch_add(st, &p, &id), STORE_OK);
	return id;
}

static int64_t add_finding(struct store *st, int64_t patch, const char *type,
			   const char *category, const char *file, long line)
{
	struct store_finding f = {
		.patch_id = patch,
		.type = (char *)type,
		.severity = (char *)"WARNING",
		.category = (char *)category,
		.file = (char *)file,
		.line = line,
		.message = (char *)"msg",
		.line_text = (char *)"int x;",
		.fingerprint = (char *)"fp",
	};
	int64_t id = 0;

	assert_int_equal(store_finding_add(st, &f, &id), STORE_OK);
	return id;
}

struct ids {
	int64_t v[32];
	size_t n;
	int stop_at;		/* return 7 at this call (1-based), 0: never */
	struct store *st;
};

static int collect_id(void *arg, int64_t id)
{
	struct ids *c = arg;

	if (c->n < 32)
		c->v[c->n] = id;
	c->n++;
	return c->stop_at && (int)c->n == c->stop_at ? 7 : 0;
}

/* ---- open, versions, files ----------------------------------------------- */

static void test_store__open_empty_is_current_version_and_mode_0600(void **state)
{
	struct fx *fx = *state;
	char wal[160];
	struct stat sb;

	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	assert_int_equal(STORE_SCHEMA_VERSION, 4);
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
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, 2, 1,
							     s21, &s), STORE_OK);
	assert_int_equal(s.id, s2);
	store_series_release(&s);
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, 2, 0,
							     s2, &s), STORE_OK);
	assert_int_equal(s.id, s1);
	store_series_release(&s);
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, 3, 0,
							     s3, &s), STORE_OK);
	assert_int_equal(s.id, s21);
	assert_int_equal(s.version_minor, 1);
	store_series_release(&s);
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, cid, 1, 0,
							     s1, &s), STORE_DONE);
	assert_int_equal(store_series_find_prev_by_change_id(fx->st, "nope", 5, 0,
							     0, &s), STORE_DONE);

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

/* ---- queries --------------------------------------------------------------- */

struct qfx {
	int64_t sa, sb, pa1, pa2, pb1;
};

/*
 * Series A (netdev, alice, 2 parts, cover a0) and B (usb, bob, 1 part):
 *   a1 date 1000: foo.c:5 USER_COPY security, foo.c:10 LONG_LINE style
 *   a2 date 1001: include/uapi/linux/foo.h:3 UAPI_IOCTL uapi
 *   b1 date 2000: commit message MISSING_SIGN_OFF process,
 *                 drivers/usb/bar.c:7 TRAILING_WHITESPACE style
 */
static void query_data(struct store *st, struct qfx *q)
{
	int64_t a0, a1, a2, b1;
	struct store_series s;

	a0 = add_msg(st, "a0@x", "alice@example.org", "Alice Smith", 999);
	a1 = add_msg(st, "a1@x", "alice@example.org", "Alice Smith", 1000);
	a2 = add_msg(st, "a2@x", "alice@example.org", "Alice Smith", 1001);
	b1 = add_msg(st, "b1@x", "bob@example.com", "Bob", 2000);
	q->sa = add_series(st, "netdev", "alice@example.org", "a0@x", 3, 0, 2,
			   NULL, "net: foo", 999);
	q->sb = add_series(st, "linux-usb", "bob@example.com", "b1@x", 1, 0, 1,
			   NULL, "usb: bar", 2000);
	assert_int_equal(store_msg_set_series(st, a0, q->sa), STORE_OK);
	assert_int_equal(store_series_get(st, q->sa, &s), STORE_OK);
	s.cover_msg = a0;
	assert_int_equal(store_series_update(st, &s), STORE_OK);
	store_series_release(&s);
	q->pa1 = add_patch(st, q->sa, a1, 1);
	q->pa2 = add_patch(st, q->sa, a2, 2);
	q->pb1 = add_patch(st, q->sb, b1, 1);
	add_finding(st, q->pa1, "LONG_LINE", "style", "drivers/net/foo.c", 10);
	add_finding(st, q->pa1, "USER_COPY", "security", "drivers/net/foo.c", 5);
	add_finding(st, q->pa2, "UAPI_IOCTL", "uapi", "include/uapi/linux/foo.h", 3);
	add_finding(st, q->pb1, "TRAILING_WHITESPACE", "style", "drivers/usb/bar.c", 7);
	add_finding(st, q->pb1, "MISSING_SIGN_OFF", "process", NULL, 0);
}

struct qres {
	char types[16][32];
	int64_t patch[16];
	long count[16];
	size_t n;
	int stop_at;
};

static int collect_row(void *arg, const struct store_query_row *r)
{
	struct qres *q = arg;

	if (q->n < 16) {
		snprintf(q->types[q->n], sizeof(q->types[0]), "%s", r->f.type);
		q->patch[q->n] = r->f.patch_id;
	}
	q->n++;
	return q->stop_at && (int)q->n == q->stop_at ? 7 : 0;
}

static size_t run_q(struct store *st, const struct store_query *q, struct qres *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(store_query_findings(st, q, collect_row, r), STORE_OK);
	return r->n;
}

static void test_store__query_findings_filters(void **state)
{
	struct fx *fx = *state;
	struct store_query q;
	struct qfx d;
	struct qres r;

	query_data(fx->st, &d);

	memset(&q, 0, sizeof(q));
	assert_int_equal(run_q(fx->st, &q, &r), 5);
	assert_string_equal(r.types[0], "USER_COPY");
	assert_string_equal(r.types[1], "LONG_LINE");
	assert_string_equal(r.types[2], "UAPI_IOCTL");
	assert_string_equal(r.types[3], "MISSING_SIGN_OFF");	/* no file first */
	assert_string_equal(r.types[4], "TRAILING_WHITESPACE");

	q.author = "ALICE@";
	assert_int_equal(run_q(fx->st, &q, &r), 3);
	q.author = "smith";		/* the display name */
	assert_int_equal(run_q(fx->st, &q, &r), 3);
	q.author = "example.com";
	assert_int_equal(run_q(fx->st, &q, &r), 2);
	q.author = "carol";
	assert_int_equal(run_q(fx->st, &q, &r), 0);

	memset(&q, 0, sizeof(q));
	q.file_glob = "drivers/*";
	assert_int_equal(run_q(fx->st, &q, &r), 3);
	q.file_glob = "include/uapi/*.h";
	assert_int_equal(run_q(fx->st, &q, &r), 1);
	q.file_glob = "*.c";
	q.author = "bob";
	assert_int_equal(run_q(fx->st, &q, &r), 1);
	assert_string_equal(r.types[0], "TRAILING_WHITESPACE");

	memset(&q, 0, sizeof(q));
	q.category = "security";
	assert_int_equal(run_q(fx->st, &q, &r), 1);
	assert_string_equal(r.types[0], "USER_COPY");
	q.category = NULL;
	q.type = "TRAILING_WHITESPACE";
	assert_int_equal(run_q(fx->st, &q, &r), 1);
	q.type = NULL;
	q.list = "linux-usb";
	assert_int_equal(run_q(fx->st, &q, &r), 2);

	memset(&q, 0, sizeof(q));
	q.since = 1001;
	assert_int_equal(run_q(fx->st, &q, &r), 3);
	q.until = 1001;
	assert_int_equal(run_q(fx->st, &q, &r), 1);
	assert_string_equal(r.types[0], "UAPI_IOCTL");
	q.since = 0;
	q.until = 1000;
	assert_int_equal(run_q(fx->st, &q, &r), 2);

	/* a series by its cover, by one of its patches, by its root */
	memset(&q, 0, sizeof(q));
	q.series_msgid = "a0@x";
	assert_int_equal(run_q(fx->st, &q, &r), 3);
	q.series_msgid = "a2@x";
	assert_int_equal(run_q(fx->st, &q, &r), 3);
	q.series_msgid = "b1@x";
	assert_int_equal(run_q(fx->st, &q, &r), 2);
	q.series_msgid = "zz@x";
	assert_int_equal(run_q(fx->st, &q, &r), 0);

	memset(&q, 0, sizeof(q));
	q.limit = 2;
	assert_int_equal(run_q(fx->st, &q, &r), 2);
	q.limit = (size_t)-1;
	assert_int_equal(run_q(fx->st, &q, &r), 5);

	/* the callback's non-zero stops the walk and comes back */
	memset(&q, 0, sizeof(q));
	memset(&r, 0, sizeof(r));
	r.stop_at = 2;
	assert_int_equal(store_query_findings(fx->st, &q, collect_row, &r), 7);
	assert_int_equal(r.n, 2);
}

static int check_row(void *arg, const struct store_query_row *r)
{
	int *n = arg;

	assert_string_equal(r->f.type, "UAPI_IOCTL");
	assert_string_equal(r->message_id, "a2@x");
	assert_string_equal(r->subject, "[PATCH] x");
	assert_string_equal(r->author_addr, "alice@example.org");
	assert_string_equal(r->author_name, "Alice Smith");
	assert_string_equal(r->list, "netdev");
	assert_int_equal(r->date, 1001);
	assert_int_equal(r->version, 3);
	assert_int_equal(r->total, 2);
	assert_int_equal(r->f.part, 2);
	assert_int_equal(r->f.line, 3);
	(*n)++;
	return 0;
}

static void test_store__query_row_carries_patch_series_and_mail(void **state)
{
	struct fx *fx = *state;
	struct store_query q = { .category = "uapi" };
	struct qfx d;
	int n = 0;

	query_data(fx->st, &d);
	assert_int_equal(store_query_findings(fx->st, &q, check_row, &n), STORE_OK);
	assert_int_equal(n, 1);
}

static int collect_patch(void *arg, const struct store_patch_row *r)
{
	struct qres *q = arg;

	if (q->n < 16) {
		q->patch[q->n] = r->p.id;
		q->count[q->n] = r->findings;
		snprintf(q->types[q->n], sizeof(q->types[0]), "%s", r->message_id);
	}
	q->n++;
	return 0;
}

static size_t run_p(struct store *st, const struct store_query *q, struct qres *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(store_query_patches(st, q, collect_patch, r), STORE_OK);
	return r->n;
}

static void test_store__query_patches_with_counts(void **state)
{
	struct fx *fx = *state;
	struct store_query q;
	struct qfx d;
	struct qres r;
	int64_t lone;

	query_data(fx->st, &d);
	/* a clean patch is listed when no finding filter is set */
	lone = add_patch(fx->st, add_series(fx->st, "netdev", "c@x", "c1@x", 1,
					    0, 1, NULL, "clean", 3000),
			 add_msg(fx->st, "c1@x", "c@x", NULL, 3000), 1);

	memset(&q, 0, sizeof(q));
	assert_int_equal(run_p(fx->st, &q, &r), 4);
	assert_int_equal(r.patch[0], d.pa1);
	assert_int_equal(r.count[0], 2);
	assert_string_equal(r.types[0], "a1@x");
	assert_int_equal(r.patch[1], d.pa2);
	assert_int_equal(r.count[1], 1);
	assert_int_equal(r.patch[2], d.pb1);
	assert_int_equal(r.count[2], 2);
	assert_int_equal(r.patch[3], lone);
	assert_int_equal(r.count[3], 0);

	q.category = "style";
	assert_int_equal(run_p(fx->st, &q, &r), 2);
	assert_int_equal(r.patch[0], d.pa1);
	assert_int_equal(r.count[0], 1);
	assert_int_equal(r.patch[1], d.pb1);
	assert_int_equal(r.count[1], 1);

	memset(&q, 0, sizeof(q));
	q.file_glob = "include/*";
	assert_int_equal(run_p(fx->st, &q, &r), 1);
	assert_int_equal(r.patch[0], d.pa2);

	memset(&q, 0, sizeof(q));
	q.author = "BOB";
	assert_int_equal(run_p(fx->st, &q, &r), 1);
	assert_int_equal(r.count[0], 2);
	q.author = NULL;
	q.series_msgid = "a0@x";
	q.type = "LONG_LINE";
	assert_int_equal(run_p(fx->st, &q, &r), 1);
	assert_int_equal(r.patch[0], d.pa1);
	q.type = NULL;
	q.limit = 1;
	assert_int_equal(run_p(fx->st, &q, &r), 1);
}

/* ---- replies, reviews, opt-outs, checkpoints ----------------------------- */

static int64_t add_reply(struct store *st, const char *msgid, int64_t created,
			 int64_t next)
{
	struct store_reply r = {
		.message_id = (char *)msgid,
		.kind = (char *)"review",
		.mail_from = (char *)"bot@example.org",
		.rcpt = (char *)"a@x,list@x",
		.body = (char *)"Subject: Re: x\n\nhello\n",
		.created = created,
		.next_attempt = next,
	};
	int64_t id = 0;

	assert_int_equal(store_reply_add(st, &r, &id), STORE_OK);
	return id;
}

static int send_it(void *arg, int64_t id)
{
	struct ids *c = arg;

	collect_id(c, id);
	return store_reply_mark_sent(c->st, id, 700);
}

static void test_store__replies_queue_and_states(void **state)
{
	struct fx *fx = *state;
	struct store_reply r = { .message_id = (char *)"r1@bot" }, g;
	long long counts[REPLY__COUNT], n;
	struct ids c = { .st = fx->st };
	int64_t r1, r2, r3, r4, id;

	r1 = add_reply(fx->st, "r1@bot", 100, 0);
	r2 = add_reply(fx->st, "r2@bot", 200, 500);
	assert_int_equal(store_reply_add(fx->st, &r, &id), STORE_DUP);
	assert_int_equal(id, r1);

	assert_int_equal(store_reply_get(fx->st, r1, &g), STORE_OK);
	assert_string_equal(g.message_id, "r1@bot");
	assert_string_equal(g.kind, "review");
	assert_string_equal(g.mail_from, "bot@example.org");
	assert_string_equal(g.rcpt, "a@x,list@x");
	assert_string_equal(g.body, "Subject: Re: x\n\nhello\n");
	assert_int_equal(g.state, REPLY_PENDING);
	assert_int_equal(g.attempts, 0);
	assert_int_equal(g.created, 100);
	assert_int_equal(g.series_id, 0);
	assert_null(g.reason);
	store_reply_release(&g);
	assert_int_equal(store_reply_get(fx->st, 999, &g), STORE_DONE);

	assert_int_equal(store_reply_each_due(fx->st, 300, collect_id, &c), STORE_OK);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.v[0], r1);
	c.n = 0;
	assert_int_equal(store_reply_each_due(fx->st, 600, collect_id, &c), STORE_OK);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.v[0], r1);
	assert_int_equal(c.v[1], r2);

	/* a temporary failure: counted, reason kept, later */
	assert_int_equal(store_reply_defer(fx->st, r1, "421 try later", 1000),
			 STORE_OK);
	assert_int_equal(store_reply_get(fx->st, r1, &g), STORE_OK);
	assert_int_equal(g.attempts, 1);
	assert_int_equal(g.next_attempt, 1000);
	assert_string_equal(g.reason, "421 try later");
	assert_int_equal(g.state, REPLY_PENDING);
	store_reply_release(&g);

	/* the delivery callback writes */
	c.n = 0;
	assert_int_equal(store_reply_each_due(fx->st, 600, send_it, &c), STORE_OK);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.v[0], r2);
	assert_int_equal(store_reply_get(fx->st, r2, &g), STORE_OK);
	assert_int_equal(g.state, REPLY_SENT);
	assert_int_equal(g.sent_at, 700);
	assert_int_equal(g.attempts, 1);
	store_reply_release(&g);
	/* sent is final */
	assert_int_equal(store_reply_mark_sent(fx->st, r2, 800), STORE_DONE);
	assert_int_equal(store_reply_mark_failed(fx->st, r2, "x"), STORE_DONE);
	assert_int_equal(store_reply_defer(fx->st, r2, "x", 5), STORE_DONE);

	r3 = add_reply(fx->st, "r3@bot", 300, 0);
	assert_int_equal(store_reply_mark_failed(fx->st, r3, "550 no such user"),
			 STORE_OK);
	assert_int_equal(store_reply_get(fx->st, r3, &g), STORE_OK);
	assert_int_equal(g.state, REPLY_FAILED);
	assert_string_equal(g.reason, "550 no such user");
	store_reply_release(&g);
	r4 = add_reply(fx->st, "r4@bot", 400, 0);
	assert_int_equal(store_reply_mark_suppressed(fx->st, r4, "opt-out"), STORE_OK);
	assert_int_equal(store_reply_get(fx->st, r4, &g), STORE_OK);
	assert_int_equal(g.state, REPLY_SUPPRESSED);
	assert_int_equal(g.attempts, 0);
	assert_string_equal(g.reason, "opt-out");
	store_reply_release(&g);

	assert_int_equal(store_reply_count(fx->st, counts), STORE_OK);
	assert_int_equal(counts[REPLY_PENDING], 1);
	assert_int_equal(counts[REPLY_SENT], 1);
	assert_int_equal(counts[REPLY_FAILED], 1);
	assert_int_equal(counts[REPLY_SUPPRESSED], 1);
	/* the hourly cap counts what was sent, not what waits */
	assert_int_equal(store_reply_count_since(fx->st, 700, &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_reply_count_since(fx->st, 701, &n), STORE_OK);
	assert_int_equal(n, 0);
	assert_string_equal(store_reply_state_name(REPLY_SUPPRESSED), "suppressed");
	assert_string_equal(store_reply_state_name(REPLY_PENDING), "pending");
}

static void test_store__one_review_per_series(void **state)
{
	struct fx *fx = *state;
	struct store_review r = { .findings = 3, .nits = 7, .fixed = 1,
				  .added = 2, .still = 4, .created = 55 }, g;
	int64_t sid, id, id2;

	sid = add_series(fx->st, "l", "a@x", "r", 1, 0, 1, NULL, "s", 1);
	r.series_id = sid;
	r.reply_id = add_reply(fx->st, "rev@bot", 50, 0);
	assert_int_equal(store_review_add(fx->st, &r, &id), STORE_OK);
	r.findings = 100;
	assert_int_equal(store_review_add(fx->st, &r, &id2), STORE_DUP);
	assert_int_equal(id2, id);
	assert_int_equal(store_review_get_by_series(fx->st, sid, &g), STORE_OK);
	assert_int_equal(g.id, id);
	assert_int_equal(g.series_id, sid);
	assert_int_equal(g.reply_id, r.reply_id);
	assert_int_equal(g.created, 55);
	assert_int_equal(g.findings, 3);
	assert_int_equal(g.nits, 7);
	assert_int_equal(g.fixed, 1);
	assert_int_equal(g.added, 2);
	assert_int_equal(g.still, 4);
	assert_int_equal(store_review_get_by_series(fx->st, sid + 1, &g), STORE_DONE);
	/* a review belongs to a series */
	r.series_id = 0;
	assert_int_equal(store_review_add(fx->st, &r, &id), STORE_ERR);
	assert_true(strlen(store_errmsg(fx->st)) > 0);
}

static void test_store__optout_set_get_remove(void **state)
{
	struct fx *fx = *state;
	enum store_optout_mode mode;
	long long n;

	assert_int_equal(store_optout_get(fx->st, "a@x", &mode), STORE_DONE);
	assert_int_equal(store_optout_set(fx->st, "a@x", OPTOUT_SILENT, 10), STORE_OK);
	assert_int_equal(store_optout_get(fx->st, "a@x", &mode), STORE_OK);
	assert_int_equal(mode, OPTOUT_SILENT);
	assert_int_equal(store_optout_set(fx->st, "a@x", OPTOUT_PRIVATE, 20), STORE_OK);
	assert_int_equal(store_optout_get(fx->st, "a@x", &mode), STORE_OK);
	assert_int_equal(mode, OPTOUT_PRIVATE);
	assert_int_equal(store_optout_set(fx->st, "b@x", OPTOUT_SILENT, 30), STORE_OK);
	assert_int_equal(store_optout_count(fx->st, &n), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(store_optout_remove(fx->st, "a@x"), STORE_OK);
	assert_int_equal(store_optout_get(fx->st, "a@x", &mode), STORE_DONE);
	assert_int_equal(store_optout_remove(fx->st, "a@x"), STORE_DONE);
	assert_int_equal(store_optout_count(fx->st, &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_optout_set(fx->st, "c@x", 5, 30), STORE_ERR_RANGE);
}

static int64_t add_sent(struct store *st, const char *msgid, const char *kind,
			const char *to, const char *list, int64_t sent_at)
{
	struct store_reply r = {
		.message_id = (char *)msgid, .kind = (char *)kind,
		.rcpt = (char *)to, .body = (char *)"b\n", .to_addr = (char *)to,
		.list = (char *)list, .created = sent_at ? sent_at : 50,
	};
	int64_t id = 0;

	assert_int_equal(store_reply_add(st, &r, &id), STORE_OK);
	if (sent_at)
		assert_int_equal(store_reply_mark_sent(st, id, sent_at), STORE_OK);
	return id;
}

static void test_store__reply_author_list_and_counts_per_cap(void **state)
{
	struct fx *fx = *state;
	struct store_reply r;
	long long n;
	int64_t id;

	id = add_sent(fx->st, "r1@bot", "review", "a@x", "l@x", 1000);
	add_sent(fx->st, "r2@bot", "review", "a@x", NULL, 1100);
	add_sent(fx->st, "r3@bot", "review", "b@x", "l@x", 1200);
	add_sent(fx->st, "r4@bot", "review", "a@x", "l@x", 0);	/* pending */
	add_sent(fx->st, "r5@bot", "review", "a@x", "l@x", 10);	/* long ago */
	assert_int_equal(store_reply_get(fx->st, id, &r), STORE_OK);
	assert_string_equal(r.to_addr, "a@x");
	assert_string_equal(r.list, "l@x");
	store_reply_release(&r);

	assert_int_equal(store_reply_count_sent(fx->st, 900, "a@x", NULL, &n), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(store_reply_count_sent(fx->st, 900, NULL, "l@x", &n), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(store_reply_count_sent(fx->st, 900, "a@x", "l@x", &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_reply_count_sent(fx->st, 900, NULL, NULL, &n), STORE_OK);
	assert_int_equal(n, 3);
	assert_int_equal(store_reply_count_sent(fx->st, 0, "a@x", NULL, &n), STORE_OK);
	assert_int_equal(n, 3);
	assert_int_equal(store_reply_count_sent(fx->st, 900, EVIL, EVIL, &n), STORE_OK);
	assert_int_equal(n, 0);

	/* confirmations: created in the window and not suppressed */
	add_sent(fx->st, "c1@bot", "confirm", "a@x", NULL, 0);
	add_sent(fx->st, "c2@bot", "confirm", "a@x", NULL, 2000);
	id = add_sent(fx->st, "c3@bot", "confirm", "a@x", NULL, 0);
	assert_int_equal(store_reply_mark_suppressed(fx->st, id, "rate"), STORE_OK);
	add_sent(fx->st, "c4@bot", "confirm", "b@x", NULL, 0);
	assert_int_equal(store_reply_count_kind(fx->st, "confirm", "a@x", 0, &n), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(store_reply_count_kind(fx->st, "confirm", "a@x", 1500, &n), STORE_OK);
	assert_int_equal(n, 1);

	assert_int_equal(store_reply_find(fx->st, "c2@bot", &id), STORE_OK);
	assert_true(id > 0);
	assert_int_equal(store_reply_find(fx->st, "nope@bot", &id), STORE_DONE);
	assert_int_equal(store_reply_find(fx->st, NULL, &id), STORE_DONE);
}

static void test_store__mutes_by_thread_root(void **state)
{
	struct fx *fx = *state;
	long long n;

	assert_int_equal(store_mute_get(fx->st, "root@x"), STORE_DONE);
	assert_int_equal(store_mute_add(fx->st, "root@x", "a@x", 5), STORE_OK);
	assert_int_equal(store_mute_add(fx->st, "root@x", "b@x", 6), STORE_OK);
	assert_int_equal(store_mute_add(fx->st, EVIL, NULL, 0), STORE_OK);
	assert_int_equal(store_mute_get(fx->st, "root@x"), STORE_OK);
	assert_int_equal(store_mute_get(fx->st, EVIL), STORE_OK);
	assert_int_equal(store_mute_get(fx->st, "other@x"), STORE_DONE);
	assert_int_equal(store_mute_get(fx->st, NULL), STORE_DONE);
	assert_int_equal(store_mute_count(fx->st, &n), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(store_mute_add(fx->st, "", "a@x", 5), STORE_ERR_RANGE);
}

static void test_store__tokens_work_once_for_their_address_in_time(void **state)
{
	struct fx *fx = *state;

	assert_int_equal(store_token_add(fx->st, "a@x", "tok1", 1000), STORE_OK);
	assert_int_equal(store_token_add(fx->st, "b@x", "tok1", 1000), STORE_DUP);
	assert_int_equal(store_token_add(fx->st, "a@x", "tok2", 100), STORE_OK);
	/* another address's token changes nothing */
	assert_int_equal(store_token_use(fx->st, "b@x", "tok1", 0, 1500), STORE_DONE);
	assert_int_equal(store_token_use(fx->st, "a@x", "tok9", 0, 1500), STORE_DONE);
	/* expired */
	assert_int_equal(store_token_use(fx->st, "a@x", "tok2", 500, 1500), STORE_DONE);
	assert_int_equal(store_token_use(fx->st, "a@x", "tok1", 500, 1500), STORE_OK);
	assert_int_equal(store_token_use(fx->st, "a@x", "tok1", 500, 1600), STORE_DONE);
	assert_int_equal(store_token_use(fx->st, "a@x", NULL, 0, 1), STORE_DONE);
	assert_int_equal(store_token_add(fx->st, "a@x", "", 1), STORE_ERR_RANGE);
}

static void test_store__forget_address_deletes_its_history_only(void **state)
{
	struct fx *fx = *state;
	struct store_forget fc;
	struct store_series s;
	struct store_msg m;
	struct store_review rv = { 0 };
	enum store_optout_mode mode;
	int64_t m1, m2, m3, s1, s2, s3, p1, p2, p3, rid, id;
	long long counts[MSG__COUNT];
	void *raw;
	size_t len;

	/* dev: two versions of a series; other: a series whose cover is
	 * dev's mail and whose previous version is dev's */
	m1 = add_msg(fx->st, "d1@x", "dev@x", "Dev", 100);
	m2 = add_msg(fx->st, "d2@x", "dev@x", "Dev", 200);
	m3 = add_msg(fx->st, "o1@x", "other@x", "Other", 300);
	s1 = add_series(fx->st, "l", "dev@x", "d1@x", 1, 0, 1, "cid", "foo", 100);
	s2 = add_series(fx->st, "l", "dev@x", "d2@x", 2, 0, 1, "cid", "foo", 200);
	s3 = add_series(fx->st, "l", "other@x", "o1@x", 3, 0, 1, "cid", "foo", 300);
	assert_int_equal(store_series_get(fx->st, s2, &s), STORE_OK);
	s.prev_id = s1;
	assert_int_equal(store_series_update(fx->st, &s), STORE_OK);
	store_series_release(&s);
	assert_int_equal(store_series_get(fx->st, s3, &s), STORE_OK);
	s.prev_id = s2;
	s.cover_msg = m2;
	assert_int_equal(store_series_update(fx->st, &s), STORE_OK);
	store_series_release(&s);
	assert_int_equal(store_msg_set_series(fx->st, m1, s1), STORE_OK);
	assert_int_equal(store_msg_set_series(fx->st, m3, s3), STORE_OK);
	p1 = add_patch(fx->st, s1, m1, 1);
	p2 = add_patch(fx->st, s2, m2, 1);
	p3 = add_patch(fx->st, s3, m3, 1);
	add_finding(fx->st, p1, "LONG_LINE", "style", "a.c", 1);
	add_finding(fx->st, p2, "LONG_LINE", "style", "a.c", 1);
	add_finding(fx->st, p3, "LONG_LINE", "style", "a.c", 1);
	rid = add_sent(fx->st, "r1@bot", "review", "dev@x", "l", 400);
	rv.series_id = s1;
	rv.reply_id = rid;
	assert_int_equal(store_review_add(fx->st, &rv, &id), STORE_OK);
	rv.series_id = s3;
	rv.reply_id = add_sent(fx->st, "r3@bot", "review", "other@x", "l", 400);
	assert_int_equal(store_review_add(fx->st, &rv, &id), STORE_OK);
	add_sent(fx->st, "c1@bot", "confirm", "dev@x", NULL, 0);
	assert_int_equal(store_mute_add(fx->st, "d1@x", "dev@x", 1), STORE_OK);
	assert_int_equal(store_token_add(fx->st, "dev@x", "tok", 1), STORE_OK);
	assert_int_equal(store_optout_set(fx->st, "dev@x", OPTOUT_SILENT, 1), STORE_OK);

	assert_int_equal(store_forget_address(fx->st, "dev@x", &fc), STORE_OK);
	assert_int_equal(fc.messages, 2);
	assert_int_equal(fc.series, 2);
	assert_int_equal(fc.patches, 2);
	assert_int_equal(fc.findings, 2);
	assert_int_equal(fc.reviews, 1);
	assert_int_equal(fc.replies, 2);
	assert_int_equal(fc.mutes, 1);
	assert_int_equal(fc.tokens, 1);

	assert_int_equal(store_msg_find(fx->st, "d1@x", &m), STORE_DONE);
	assert_int_equal(store_msg_raw(fx->st, m2, &raw, &len), STORE_DONE);
	assert_int_equal(store_series_get(fx->st, s1, &s), STORE_DONE);
	assert_int_equal(store_reply_find(fx->st, "c1@bot", &id), STORE_DONE);
	assert_int_equal(store_mute_get(fx->st, "d1@x"), STORE_DONE);
	/* the opt-out stays */
	assert_int_equal(store_optout_get(fx->st, "dev@x", &mode), STORE_OK);
	/* other's series is kept, unlinked from dev's */
	assert_int_equal(store_series_get(fx->st, s3, &s), STORE_OK);
	assert_int_equal(s.prev_id, 0);
	assert_int_equal(s.cover_msg, 0);
	store_series_release(&s);
	assert_int_equal(store_review_get_by_series(fx->st, s3, &rv), STORE_OK);
	assert_int_equal(store_msg_count(fx->st, counts), STORE_OK);
	assert_int_equal(counts[MSG_NEW], 1);
	/* a second forget finds nothing; in the caller's transaction too */
	assert_int_equal(store_begin(fx->st), STORE_OK);
	assert_int_equal(store_forget_address(fx->st, "dev@x", &fc), STORE_OK);
	assert_int_equal(store_commit(fx->st), STORE_OK);
	assert_int_equal(fc.messages + fc.series + fc.replies, 0);
	assert_int_equal(store_forget_address(fx->st, NULL, NULL), STORE_ERR_RANGE);
}

struct cps {
	char text[256];
	int n;
};

static int collect_cp(void *arg, const char *source, const char *value,
		      int64_t updated)
{
	struct cps *c = arg;
	size_t len = strlen(c->text);

	snprintf(c->text + len, sizeof(c->text) - len, "%s=%s@%lld;", source,
		 value, (long long)updated);
	c->n++;
	return 0;
}

static void test_store__checkpoints_set_get_each(void **state)
{
	struct fx *fx = *state;
	struct cps c = { .n = 0 };
	char *v;

	assert_int_equal(store_checkpoint_get(fx->st, "imap", &v), STORE_DONE);
	assert_null(v);
	assert_int_equal(store_checkpoint_set(fx->st, "mbox", "4096", 5), STORE_OK);
	assert_int_equal(store_checkpoint_set(fx->st, "imap", "123:456", 10), STORE_OK);
	assert_int_equal(store_checkpoint_set(fx->st, "imap", "123:457", 20), STORE_OK);
	assert_int_equal(store_checkpoint_get(fx->st, "imap", &v), STORE_OK);
	assert_string_equal(v, "123:457");
	free(v);
	assert_int_equal(store_checkpoint_each(fx->st, collect_cp, &c), STORE_OK);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.text, "imap=123:457@20;mbox=4096@5;");
}

/* ---- hostile text ---------------------------------------------------------- */

static void test_store__sql_metacharacters_round_trip(void **state)
{
	struct fx *fx = *state;
	const char *evil2 = "\" OR 1=1; -- %_*?[ \\ ');DELETE FROM series;";
	struct store_msg m = {
		.message_id = (char *)EVIL,
		.source = (char *)evil2,
		.list = (char *)EVIL,
		.from_addr = (char *)EVIL,
		.from_name = (char *)evil2,
		.subject = (char *)EVIL,
		.in_reply_to = (char *)evil2,
		.refs = (char *)EVIL,
	}, g;
	struct store_reply r = {
		.message_id = (char *)EVIL, .kind = (char *)evil2,
		.body = (char *)EVIL, .rcpt = (char *)evil2,
	}, rg;
	struct store_series s;
	struct store_finding *f;
	struct store_query q = { .author = EVIL };
	struct qres res;
	enum store_optout_mode mode;
	long long counts[MSG__COUNT];
	int64_t mid, sid, pid, rid;
	size_t n;
	char *v;

	assert_int_equal(store_msg_add(fx->st, &m, EVIL, strlen(EVIL), &mid),
			 STORE_OK);
	assert_int_equal(store_msg_set_state(fx->st, mid, MSG_SKIPPED, EVIL), STORE_OK);
	assert_int_equal(store_msg_find(fx->st, EVIL, &g), STORE_OK);
	assert_string_equal(g.message_id, EVIL);
	assert_string_equal(g.source, evil2);
	assert_string_equal(g.list, EVIL);
	assert_string_equal(g.from_addr, EVIL);
	assert_string_equal(g.from_name, evil2);
	assert_string_equal(g.subject, EVIL);
	assert_string_equal(g.in_reply_to, evil2);
	assert_string_equal(g.refs, EVIL);
	assert_string_equal(g.reason, EVIL);
	store_msg_release(&g);

	sid = add_series(fx->st, EVIL, evil2, EVIL, 1, 0, 1, evil2, EVIL, 1);
	assert_int_equal(store_series_find(fx->st, EVIL, evil2, EVIL, 1, 0, 1, &s),
			 STORE_OK);
	assert_int_equal(s.id, sid);
	assert_string_equal(s.change_id, evil2);
	assert_string_equal(s.subject, EVIL);
	store_series_release(&s);
	pid = add_patch(fx->st, sid, mid, 1);
	add_finding(fx->st, pid, EVIL, evil2, EVIL, 1);
	assert_int_equal(store_finding_list(fx->st, sid, &f, &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].type, EVIL);
	assert_string_equal(f[0].category, evil2);
	assert_string_equal(f[0].file, EVIL);
	store_finding_release(&f[0]);
	free(f);

	/* as query filters: matched literally (instr, =), never as SQL */
	assert_int_equal(run_q(fx->st, &q, &res), 1);
	q.author = NULL;
	q.type = EVIL;
	q.category = evil2;
	q.list = EVIL;
	q.series_msgid = EVIL;
	assert_int_equal(run_q(fx->st, &q, &res), 1);
	assert_string_equal(res.types[0], EVIL);

	assert_int_equal(store_reply_add(fx->st, &r, &rid), STORE_OK);
	assert_int_equal(store_reply_mark_failed(fx->st, rid, evil2), STORE_OK);
	assert_int_equal(store_reply_get(fx->st, rid, &rg), STORE_OK);
	assert_string_equal(rg.body, EVIL);
	assert_string_equal(rg.kind, evil2);
	assert_string_equal(rg.reason, evil2);
	store_reply_release(&rg);

	assert_int_equal(store_optout_set(fx->st, EVIL, OPTOUT_PRIVATE, 1), STORE_OK);
	assert_int_equal(store_optout_get(fx->st, EVIL, &mode), STORE_OK);
	assert_int_equal(store_checkpoint_set(fx->st, EVIL, evil2, 1), STORE_OK);
	assert_int_equal(store_checkpoint_get(fx->st, EVIL, &v), STORE_OK);
	assert_string_equal(v, evil2);
	free(v);

	/* and every table is still there */
	assert_int_equal(store_msg_count(fx->st, counts), STORE_OK);
	assert_int_equal(counts[MSG_SKIPPED], 1);
	assert_int_equal(store_series_get(fx->st, sid, &s), STORE_OK);
	store_series_release(&s);
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
		TD(test_store__newer_schema_is_refused_untouched),
		TD(test_store__not_a_database_is_an_error),
		T(test_store__transactions_commit_and_roll_back),
		T(test_store__second_writer_gets_busy_after_timeout),
		T(test_store__msg_add_dup_get_find_raw),
		T(test_store__msg_received_defaults_to_now_and_empty_raw),
		T(test_store__msg_limits_are_range_errors),
		T(test_store__msg_state_reason_series_and_counts),
		T(test_store__each_new_is_oldest_first_and_callback_may_write),
		T(test_store__series_find_and_previous_versions),
		T(test_store__series_update_state_and_open_walk),
		T(test_store__patch_dup_on_series_and_part),
		T(test_store__findings_listed_by_part_file_line),
		T(test_store__query_findings_filters),
		T(test_store__query_row_carries_patch_series_and_mail),
		T(test_store__query_patches_with_counts),
		T(test_store__replies_queue_and_states),
		T(test_store__one_review_per_series),
		T(test_store__optout_set_get_remove),
		T(test_store__reply_author_list_and_counts_per_cap),
		T(test_store__mutes_by_thread_root),
		T(test_store__tokens_work_once_for_their_address_in_time),
		T(test_store__forget_address_deletes_its_history_only),
		T(test_store__checkpoints_set_get_each),
		T(test_store__sql_metacharacters_round_trip),
		cmocka_unit_test(test_store__strerror_names_every_result),
	};

	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The store's false-positive feedback (schema 6): the findings a review
 * covers with their numbers, disputes, and the counts per list and type.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../store/store.h"

#define EVIL "'; DROP TABLE feedback; --"

#define STORE_FIXTURE_DIR "/tmp/test_store_feedback.XXXXXX"
#include "store_fixture.h"
#include "store_rows.h"

static int64_t add_review_reply(struct store *st, const char *msgid, int64_t series)
{
	struct store_reply r = {
		.message_id = (char *)msgid,
		.series_id = series,
		.kind = (char *)"review",
		.mail_from = (char *)"bot@example.org",
		.rcpt = (char *)"a@x",
		.body = (char *)"Subject: Re: x\n\nhello\n",
		.created = 100,
	};
	int64_t id = 0;

	assert_int_equal(store_reply_add(st, &r, &id), STORE_OK);
	return id;
}

/* One series on list with a patch; its id in *series. */
static int64_t add_one_patch(struct store *st, const char *tag, const char *list,
			     int64_t *series)
{
	char msgid[64];
	int64_t m;

	snprintf(msgid, sizeof(msgid), "%s@x", tag);
	m = add_msg(st, msgid, "dev@example.org", NULL, 100);
	*series = add_series(st, list, "dev@example.org", msgid, 1, 0, 1, NULL, tag, 100);
	return add_patch(st, *series, m, 1);
}

struct rf_seen {
	int64_t id[16];
	int num[16];
	char type[16][32];
	char list[16][64];
	size_t n;
};

static int collect_rf(void *arg, const struct store_reply_finding *rf)
{
	struct rf_seen *s = arg;

	if (s->n < 16) {
		s->id[s->n] = rf->finding_id;
		s->num[s->n] = rf->num;
		snprintf(s->type[s->n], sizeof(s->type[0]), "%s", rf->type ? rf->type : "-");
		snprintf(s->list[s->n], sizeof(s->list[0]), "%s", rf->list ? rf->list : "-");
	}
	s->n++;
	return 0;
}

static void test_store_feedback__reply_findings_keep_numbers_and_nits(void **state)
{
	struct fx *fx = *state;
	struct rf_seen s;
	int64_t ser, p, f1, f2, f3, f4, r;

	p = add_one_patch(fx->st, "a", "leds@x", &ser);
	f1 = add_finding(fx->st, p, "LONG_LINE", "style", "a.c", 1);
	f2 = add_finding(fx->st, p, "AVOID_BUG", "correctness", "a.c", 2);
	f3 = add_finding(fx->st, p, "LONG_LINE", "style", "a.c", 3);
	f4 = add_finding(fx->st, p, "AVOID_BUG", "correctness", "a.c", 4);
	r = add_review_reply(fx->st, "r@bot", ser);

	assert_int_equal(store_reply_finding_add(fx->st, r, f2, 2), STORE_OK);
	assert_int_equal(store_reply_finding_add(fx->st, r, f1, 0), STORE_OK);
	assert_int_equal(store_reply_finding_add(fx->st, r, f3, 0), STORE_OK);
	/* a finding once; nits (0) many times, and the findings of one
	 * entry of the mail under its number (schema 11) */
	assert_int_equal(store_reply_finding_add(fx->st, r, f2, 5), STORE_DUP);
	assert_int_equal(store_reply_finding_add(fx->st, r, f1, 2), STORE_DUP);
	assert_int_equal(store_reply_finding_add(fx->st, r, f4, 2), STORE_OK);
	assert_int_equal(store_reply_finding_add(fx->st, r, f1, -1), STORE_ERR_RANGE);
	assert_int_equal(store_reply_finding_add(fx->st, 0, f1, 1), STORE_ERR_RANGE);

	memset(&s, 0, sizeof(s));
	assert_int_equal(store_reply_findings_each(fx->st, r, collect_rf, &s), STORE_OK);
	assert_int_equal(s.n, 4);
	/* the numbered first, then the others by id */
	assert_true(s.id[0] == f2 && s.num[0] == 2);
	assert_string_equal(s.type[0], "AVOID_BUG");
	assert_string_equal(s.list[0], "leds@x");
	assert_true(s.id[1] == f4 && s.num[1] == 2);
	assert_true(s.id[2] == f1 && s.num[2] == 0);
	assert_true(s.id[3] == f3 && s.num[3] == 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(store_reply_findings_each(fx->st, r + 1, collect_rf, &s), STORE_OK);
	assert_int_equal(s.n, 0);
}

static void test_store_feedback__dispute_once_per_address(void **state)
{
	struct fx *fx = *state;
	struct store_feedback fb;
	long long n;
	int64_t ser, p, f1, r, id = 0, id2 = 0;

	p = add_one_patch(fx->st, "a", "leds@x", &ser);
	f1 = add_finding(fx->st, p, "LONG_LINE", "style", "a.c", 1);
	r = add_review_reply(fx->st, "r@bot", ser);
	memset(&fb, 0, sizeof(fb));
	fb.finding_id = f1;
	fb.reply_id = r;
	fb.addr = "maint@example.org";
	fb.maintainer = 1;
	fb.reason = EVIL;
	assert_int_equal(store_feedback_add(fx->st, &fb, &id), STORE_OK);
	assert_true(id > 0);
	assert_int_equal(store_feedback_add(fx->st, &fb, &id2), STORE_DUP);
	assert_int_equal(id2, 0);
	fb.addr = "other@example.org";
	fb.reason = NULL;
	assert_int_equal(store_feedback_add(fx->st, &fb, NULL), STORE_OK);
	fb.finding_id = f1 + 100;
	assert_int_equal(store_feedback_add(fx->st, &fb, NULL), STORE_ERR_RANGE);
	fb.finding_id = f1;
	fb.addr = "";
	assert_int_equal(store_feedback_add(fx->st, &fb, NULL), STORE_ERR_RANGE);
	assert_int_equal(store_feedback_count(fx->st, &n), STORE_OK);
	assert_int_equal(n, 2);
}

static void test_store_feedback__reason_cut_at_a_character(void **state)
{
	struct fx *fx = *state;
	struct store_feedback fb;
	char reason[400];
	sqlite3 *db;
	sqlite3_stmt *q;
	int64_t ser, p, f1, id = 0;
	size_t i;

	p = add_one_patch(fx->st, "a", "leds@x", &ser);
	f1 = add_finding(fx->st, p, "LONG_LINE", "style", "a.c", 1);
	/* 199 ASCII bytes, then two-byte characters across the limit */
	memset(reason, 'a', 199);
	for (i = 199; i + 2 < sizeof(reason); i += 2) {
		reason[i] = (char)0xc3;
		reason[i + 1] = (char)0xa9;
	}
	reason[i] = '\0';
	memset(&fb, 0, sizeof(fb));
	fb.finding_id = f1;
	fb.addr = "x@example.org";
	fb.reason = reason;
	assert_int_equal(store_feedback_add(fx->st, &fb, &id), STORE_OK);

	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT reason, created FROM feedback"
					    " WHERE id = ?1", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_int64(q, 1, id);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	/* 200 would split the character at 199-200 */
	assert_int_equal(sqlite3_column_bytes(q, 0), 199);
	assert_true(sqlite3_column_int64(q, 1) > 0);	/* 0: now */
	sqlite3_finalize(q);
	sqlite3_close(db);
}

struct counts_seen {
	char row[16][128];
	size_t n;
};

static int collect_count(void *arg, const struct store_feedback_count *c)
{
	struct counts_seen *s = arg;

	if (s->n < 16)
		snprintf(s->row[s->n], sizeof(s->row[0]), "%s %s %lld %lld %lld %lld",
			 c->list ? c->list : "-", c->type, c->findings, c->disputed,
			 c->by_maintainers, c->reviews);
	s->n++;
	return 0;
}

static void dispute(struct store *st, int64_t finding, const char *addr, int maint)
{
	struct store_feedback fb;

	memset(&fb, 0, sizeof(fb));
	fb.finding_id = finding;
	fb.addr = addr;
	fb.maintainer = maint;
	assert_int_equal(store_feedback_add(st, &fb, NULL), STORE_OK);
}

static void test_store_feedback__counts_per_list_and_type(void **state)
{
	struct fx *fx = *state;
	struct counts_seen s;
	int64_t s1, s2, s3, p1, p2, p3, a1, a2, b1, c1;

	p1 = add_one_patch(fx->st, "a", "leds@x", &s1);
	p2 = add_one_patch(fx->st, "b", "leds@x", &s2);
	p3 = add_one_patch(fx->st, "c", "net@x", &s3);
	a1 = add_finding(fx->st, p1, "LONG_LINE", "style", "a.c", 1);
	a2 = add_finding(fx->st, p1, "LONG_LINE", "style", "a.c", 2);
	add_finding(fx->st, p1, "AVOID_BUG", "correctness", "a.c", 3);
	b1 = add_finding(fx->st, p2, "LONG_LINE", "style", "b.c", 1);
	c1 = add_finding(fx->st, p3, "LONG_LINE", "style", "c.c", 1);
	add_finding(fx->st, p3, "SPACING", "style", "c.c", 2);
	/* a1 twice (once by a maintainer): one disputed finding */
	dispute(fx->st, a1, "maint@x", 1);
	dispute(fx->st, a1, "dev@x", 0);
	dispute(fx->st, a2, "maint@x", 1);
	dispute(fx->st, b1, "dev@x", 0);
	dispute(fx->st, c1, "netmaint@x", 1);

	memset(&s, 0, sizeof(s));
	assert_int_equal(store_feedback_counts(fx->st, NULL, 0, 0, 0, collect_count, &s),
			 STORE_OK);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.row[0], "leds@x AVOID_BUG 1 0 0 0");
	/* 3 findings, 3 disputed, 2 by a maintainer, in 1 series */
	assert_string_equal(s.row[1], "leds@x LONG_LINE 3 3 2 1");
	assert_string_equal(s.row[2], "net@x LONG_LINE 1 1 1 1");
	assert_string_equal(s.row[3], "net@x SPACING 1 0 0 0");

	memset(&s, 0, sizeof(s));
	assert_int_equal(store_feedback_counts(fx->st, "leds@x", 0, 1, 0, collect_count, &s),
			 STORE_OK);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.row[0], "leds@x LONG_LINE 3 3 2 1");

	memset(&s, 0, sizeof(s));
	assert_int_equal(store_feedback_counts(fx->st, NULL, 0, 1, 1, collect_count, &s),
			 STORE_OK);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.row[0], "- LONG_LINE 4 4 3 2");

	/* series created before since are left out */
	memset(&s, 0, sizeof(s));
	assert_int_equal(store_feedback_counts(fx->st, NULL, 101, 0, 0, collect_count, &s),
			 STORE_OK);
	assert_int_equal(s.n, 0);
}

struct maint_seen {
	char row[16][96];
	size_t n;
};

static int collect_maint(void *arg, const char *type, int64_t series, const char *addr)
{
	struct maint_seen *s = arg;

	if (s->n < 16)
		snprintf(s->row[s->n], sizeof(s->row[0]), "%s %lld %s", type,
			 (long long)series, addr);
	s->n++;
	return 0;
}

static void test_store_feedback__maintained_disputes_once_per_series(void **state)
{
	struct fx *fx = *state;
	struct maint_seen s;
	char want[96];
	int64_t s1, s2, s3, p1, p2, p3;

	p1 = add_one_patch(fx->st, "a", "leds@x", &s1);
	p2 = add_one_patch(fx->st, "b", "leds@x", &s2);
	p3 = add_one_patch(fx->st, "c", "net@x", &s3);
	dispute(fx->st, add_finding(fx->st, p1, "LONG_LINE", "style", "a.c", 1), "m@x", 1);
	dispute(fx->st, add_finding(fx->st, p1, "LONG_LINE", "style", "a.c", 2), "m@x", 1);
	dispute(fx->st, add_finding(fx->st, p2, "LONG_LINE", "style", "b.c", 1), "m@x", 1);
	dispute(fx->st, add_finding(fx->st, p2, "SPACING", "style", "b.c", 2), "dev@x", 0);
	dispute(fx->st, add_finding(fx->st, p3, "LONG_LINE", "style", "c.c", 1), "m@x", 1);

	memset(&s, 0, sizeof(s));
	assert_int_equal(store_feedback_each_maintained(fx->st, "leds@x", collect_maint, &s),
			 STORE_OK);
	assert_int_equal(s.n, 2);
	snprintf(want, sizeof(want), "LONG_LINE %lld m@x", (long long)s1);
	assert_string_equal(s.row[0], want);
	snprintf(want, sizeof(want), "LONG_LINE %lld m@x", (long long)s2);
	assert_string_equal(s.row[1], want);
	memset(&s, 0, sizeof(s));
	assert_int_equal(store_feedback_each_maintained(fx->st, NULL, collect_maint, &s),
			 STORE_OK);
	assert_int_equal(s.n, 0);
}

static long long count_rows(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	long long n = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	if (sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return n;
}

/* Forgetting an address takes its disputes, and the disputes and
 * numbers of its findings; a patch taken out of its series takes them
 * too; nothing dangles. */
static void test_store_feedback__go_with_their_finding_and_address(void **state)
{
	struct fx *fx = *state;
	struct store_forget fc;
	int64_t s1, s2, p1, p2, f1, f2, r1;

	p1 = add_one_patch(fx->st, "a", "leds@x", &s1);
	p2 = add_one_patch(fx->st, "b", "leds@x", &s2);
	f1 = add_finding(fx->st, p1, "LONG_LINE", "style", "a.c", 1);
	f2 = add_finding(fx->st, p2, "LONG_LINE", "style", "b.c", 1);
	r1 = add_review_reply(fx->st, "r1@bot", s1);
	assert_int_equal(store_reply_finding_add(fx->st, r1, f1, 1), STORE_OK);
	dispute(fx->st, f1, "gone@x", 0);
	dispute(fx->st, f2, "gone@x", 0);
	dispute(fx->st, f2, "stays@x", 1);

	assert_int_equal(store_forget_address(fx->st, "gone@x", &fc), STORE_OK);
	assert_int_equal(count_rows(fx->path, "SELECT count(*) FROM feedback"), 1);
	assert_int_equal(count_rows(fx->path, "SELECT count(*) FROM feedback"
				    " WHERE addr = 'stays@x'"), 1);
	/* dev@example.org wrote both patches: everything of theirs goes */
	assert_int_equal(store_forget_address(fx->st, "dev@example.org", &fc), STORE_OK);
	assert_int_equal(fc.findings, 2);
	assert_int_equal(count_rows(fx->path, "SELECT count(*) FROM feedback"), 0);
	assert_int_equal(count_rows(fx->path, "SELECT count(*) FROM reply_findings"), 0);
	assert_int_equal(count_rows(fx->path, "SELECT count(*) FROM pragma_foreign_key_check"), 0);

	p1 = add_one_patch(fx->st, "c", "leds@x", &s1);
	f1 = add_finding(fx->st, p1, "LONG_LINE", "style", "a.c", 1);
	r1 = add_review_reply(fx->st, "r2@bot", s1);
	assert_int_equal(store_reply_finding_add(fx->st, r1, f1, 1), STORE_OK);
	dispute(fx->st, f1, "m@x", 1);
	assert_int_equal(store_patch_remove(fx->st, p1), STORE_OK);
	assert_int_equal(count_rows(fx->path, "SELECT count(*) FROM feedback"), 0);
	assert_int_equal(count_rows(fx->path, "SELECT count(*) FROM reply_findings"), 0);
}

static void test_store_feedback__migration_from_v5(void **state)
{
	struct fx *fx = *state;
	int64_t ser, p, f1;
	char err[256];

	assert_int_equal(store_open_at_version(fx->path, 5, &fx->st, err, sizeof(err)),
			 STORE_OK);
	p = add_one_patch(fx->st, "a", "leds@x", &ser);
	f1 = add_finding(fx->st, p, "LONG_LINE", "style", "a.c", 1);
	/* v6's tables are not there yet */
	assert_int_equal(store_reply_finding_add(fx->st, 1, f1, 1), STORE_ERR);
	assert_non_null(strstr(store_errmsg(fx->st), "no such table"));
	store_close(fx->st);
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_schema_version(fx->st), STORE_SCHEMA_VERSION);
	dispute(fx->st, f1, "m@x", 1);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_store_feedback__reply_findings_keep_numbers_and_nits),
		T(test_store_feedback__dispute_once_per_address),
		T(test_store_feedback__reason_cut_at_a_character),
		T(test_store_feedback__counts_per_list_and_type),
		T(test_store_feedback__maintained_disputes_once_per_series),
		T(test_store_feedback__go_with_their_finding_and_address),
		cmocka_unit_test_setup_teardown(test_store_feedback__migration_from_v5,
						setup_dir, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

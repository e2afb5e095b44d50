// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of store/store_query.c: the statements behind `reviewbot
 * query`: filters, rows joined to their patch, series and mail, counts, SQL
 * metacharacters that round-trip as data.
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

#define EVIL "'; DROP TABLE messages; --"

#define STORE_FIXTURE_DIR "/tmp/test_store_query.XXXXXX"
#include "store_fixture.h"
#include "store_rows.h"

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

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_store__query_findings_filters),
		T(test_store__query_row_carries_patch_series_and_mail),
		T(test_store__query_patches_with_counts),
		T(test_store__sql_metacharacters_round_trip),
	};

	return cmocka_run_group_tests_name("store_query", tests, NULL, NULL);
}

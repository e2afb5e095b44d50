// SPDX-License-Identifier: GPL-2.0-only
/* store_web: privacy, series rows, versions, weeks, counts, read-only. */
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
#include "../../store/store_web.h"
#include "../../bot/pipeline.h"

#define STORE_FIXTURE_DIR "/tmp/test_store_web.XXXXXX"
#include "store_fixture.h"
#include "store_rows.h"

#define LIST "linux-leds@vger.kernel.org"
#define LISTS "{\"lists\":[\"" LIST "\"],\"sources\":[\"lore\"]}"

/*
 * Five one-patch series, each with one finding of its own type:
 *   pub    To the list                     published
 *   lid    To a person, with a List-Id     published
 *   priv   To the bot alone                never
 *   old    recipients not recorded (v5)    not until filled in
 *   opt    To the list, author opted out   never
 * and pub2, v2 of pub (prev_id), which fixes pub's finding and adds one.
 */
struct wfx {
	int64_t s[6], p[6], m[6];
};

enum { PUB, LID, PRIV, OLD, OPT, PUB2 };

static void one(struct store *st, struct wfx *w, int i, const char *msgid,
		const char *from, const char *rcpt, const char *list_id,
		const char *type, const char *cat, int64_t date, int version)
{
	w->m[i] = add_msg(st, msgid, from, "Name", date);
	if (rcpt)
		assert_int_equal(store_msg_set_rcpt(st, w->m[i], rcpt, list_id), STORE_OK);
	w->s[i] = add_series(st, LIST, from, msgid, version, 0, 1, NULL, "leds: x", date);
	assert_int_equal(store_msg_set_series(st, w->m[i], w->s[i]), STORE_OK);
	w->p[i] = add_patch(st, w->s[i], w->m[i], 1);
	{
		struct store_finding f = {
			.patch_id = w->p[i], .type = (char *)type, .severity = (char *)"WARNING",
			.category = (char *)cat, .file = (char *)"drivers/leds/x.c",
			.line = 3, .message = (char *)"m", .fingerprint = (char *)type,
		};
		int64_t id;

		assert_int_equal(store_finding_add(st, &f, &id), STORE_OK);
	}
}

static void web_data(struct store *st, struct wfx *w)
{
	struct store_series s;
	struct store_finding f = {
		.type = (char *)"LONG_LINE", .severity = (char *)"WARNING",
		.category = (char *)"style", .file = (char *)"drivers/leds/x.c",
		.line = 9, .message = (char *)"m", .fingerprint = (char *)"LONG_LINE",
	};
	int64_t id;

	/* 2026-11-02 (a Monday) 10:00 UTC, and a week later */
	one(st, w, PUB, "pub@x", "ann@example.org", "maint@example.org," LIST, NULL,
	    "USER_COPY", "security", 1793613600, 1);
	one(st, w, LID, "lid@x", "ben@example.org", "maint@example.org",
	    "linux-leds.vger.kernel.org", "UAPI_IOCTL", "uapi", 1793613600, 1);
	one(st, w, PRIV, "priv@x", "cat@example.org", "reviewbot@example.org", NULL,
	    "PRIVATE_ONLY", "process", 1793613600, 1);
	one(st, w, OLD, "old@x", "dan@example.org", NULL, NULL,
	    "OLD_ONLY", "process", 1793613600, 1);
	one(st, w, OPT, "opt@x", "Eve@Example.org", LIST, NULL,
	    "OPTED_ONLY", "correctness", 1793613600, 1);
	assert_int_equal(store_optout_set(st, "eve@example.org", OPTOUT_PRIVATE, 1), STORE_OK);
	one(st, w, PUB2, "pub2@x", "ann@example.org", LIST, NULL,
	    "MISSING_SIGN_OFF", "process", 1793613600 + 7 * 86400, 2);
	f.patch_id = w->p[PUB2];
	assert_int_equal(store_finding_add(st, &f, &id), STORE_OK);
	f.patch_id = w->p[PUB];
	assert_int_equal(store_finding_add(st, &f, &id), STORE_OK);
	assert_int_equal(store_series_get(st, w->s[PUB2], &s), STORE_OK);
	s.prev_id = w->s[PUB];
	assert_int_equal(store_series_update(st, &s), STORE_OK);
	store_series_release(&s);
}

struct types {
	char v[16][32];
	size_t n;
};

static int type_row(void *arg, const struct store_query_row *r)
{
	struct types *t = arg;

	if (t->n < 16)
		snprintf(t->v[t->n], sizeof(t->v[0]), "%s", r->f.type);
	t->n++;
	return 0;
}

static int has(const struct types *t, const char *type)
{
	size_t i;

	for (i = 0; i < t->n && i < 16; i++)
		if (!strcmp(t->v[i], type))
			return 1;
	return 0;
}

static void findings(struct store *st, const struct store_query *q, struct types *t)
{
	memset(t, 0, sizeof(*t));
	assert_int_equal(store_query_findings(st, q, type_row, t), STORE_OK);
}

static void test_store_web__publish_hides_private_mail_and_opted_out_authors(void **state)
{
	struct fx *fx = *state;
	struct store_query q;
	struct types t;
	struct wfx w;

	web_data(fx->st, &w);
	memset(&q, 0, sizeof(q));
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 8);	/* the operator sees everything */
	q.publish = LISTS;
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 5);
	assert_true(has(&t, "USER_COPY"));
	assert_true(has(&t, "UAPI_IOCTL"));	/* by its List-Id */
	assert_true(has(&t, "MISSING_SIGN_OFF"));
	assert_false(has(&t, "PRIVATE_ONLY"));
	assert_false(has(&t, "OLD_ONLY"));
	assert_false(has(&t, "OPTED_ONLY"));

	/* mail read from a public archive is public */
	{
		sqlite3 *db;

		assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, "UPDATE messages SET source = 'lore'"
					      " WHERE message_id = 'priv@x'", NULL, NULL, NULL),
				 SQLITE_OK);
		sqlite3_close(db);
		findings(fx->st, &q, &t);
		assert_true(has(&t, "PRIVATE_ONLY"));
		assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, "UPDATE messages SET source = 'test'"
					      " WHERE message_id = 'priv@x'", NULL, NULL, NULL),
				 SQLITE_OK);
		sqlite3_close(db);
	}
	/* a list in a part of an address does not count */
	assert_int_equal(store_msg_set_rcpt(fx->st, w.m[PRIV], "x" LIST ",bot@x", NULL), STORE_OK);
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 5);
	/* once the old mail's recipients are filled in, it is published */
	assert_int_equal(store_msg_set_rcpt(fx->st, w.m[OLD], "a@x," LIST, NULL), STORE_OK);
	findings(fx->st, &q, &t);
	assert_true(has(&t, "OLD_ONLY"));
	/* opting out in silent mode hides too; opting back in shows again */
	assert_int_equal(store_optout_set(fx->st, "dan@example.org", OPTOUT_SILENT, 1), STORE_OK);
	findings(fx->st, &q, &t);
	assert_false(has(&t, "OLD_ONLY"));
	assert_int_equal(store_optout_remove(fx->st, "eve@example.org"), STORE_OK);
	findings(fx->st, &q, &t);
	assert_true(has(&t, "OPTED_ONLY"));

	assert_int_equal(store_web_msg_published(fx->st, LISTS, w.m[PUB]), STORE_OK);
	assert_int_equal(store_web_msg_published(fx->st, LISTS, w.m[PRIV]), STORE_DONE);
	assert_int_equal(store_web_msg_published(fx->st, NULL, w.m[PRIV]), STORE_OK);
}

static void test_store_web__query_lists_offsets_and_order(void **state)
{
	struct fx *fx = *state;
	struct store_query q;
	struct types t;
	struct wfx w;

	web_data(fx->st, &w);
	memset(&q, 0, sizeof(q));
	q.category = "security,uapi";
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 2);
	q.category = NULL;
	q.type = "LONG_LINE,USER_COPY";
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 3);
	q.type = "LONG";	/* a whole name, not a part */
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 0);
	q.type = NULL;
	q.publish = LISTS;
	q.limit = 2;
	q.offset = 4;
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 1);
	q.offset = 0;
	q.limit = 1;
	q.newest_first = 1;
	findings(fx->st, &q, &t);
	assert_string_equal(t.v[0], "MISSING_SIGN_OFF");	/* pub2's, a week later */
	q.limit = 0;
	q.newest_first = 0;
	q.patch_id = w.p[PUB];
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 2);
	q.patch_id = 0;
	q.series_id = w.s[PUB2];
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 2);
}

struct srows {
	int64_t id[8];
	long cats[8][STORE_NCATEGORIES];
	char msgid[8][16];
	int review_published[8];
	size_t n;
};

static int series_row(void *arg, const struct store_series_row *r)
{
	struct srows *s = arg;

	if (s->n < 8) {
		s->id[s->n] = r->s.id;
		memcpy(s->cats[s->n], r->per_cat, sizeof(r->per_cat));
		snprintf(s->msgid[s->n], sizeof(s->msgid[0]), "%s", r->msgid ? r->msgid : "");
		s->review_published[s->n] = r->review_published;
	}
	s->n++;
	return 0;
}

static void test_store_web__series_rows_are_published_ones_newest_first(void **state)
{
	struct fx *fx = *state;
	struct store_review rv = { 0 };
	struct store_query q;
	struct srows r;
	struct wfx w;
	int64_t id;

	web_data(fx->st, &w);
	memset(&q, 0, sizeof(q));
	memset(&r, 0, sizeof(r));
	q.publish = LISTS;
	q.newest_first = 1;
	assert_int_equal(store_web_series(fx->st, &q, 0, series_row, &r), STORE_OK);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.id[0], w.s[PUB2]);
	assert_string_equal(r.msgid[0], "pub2@x");
	assert_int_equal(r.cats[0][3], 1);	/* process */
	assert_int_equal(r.cats[0][4], 1);	/* style */
	/* a category filter: series with such a finding */
	memset(&r, 0, sizeof(r));
	q.category = "uapi";
	assert_int_equal(store_web_series(fx->st, &q, 0, series_row, &r), STORE_OK);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.id[0], w.s[LID]);
	/* reviewed only: none is yet */
	memset(&r, 0, sizeof(r));
	q.category = NULL;
	assert_int_equal(store_web_series(fx->st, &q, 1, series_row, &r), STORE_OK);
	assert_int_equal(r.n, 0);
	rv.series_id = w.s[PUB];
	assert_int_equal(store_review_add(fx->st, &rv, &id), STORE_OK);
	rv.series_id = w.s[PRIV];
	assert_int_equal(store_review_add(fx->st, &rv, &id), STORE_OK);
	assert_int_equal(store_web_series(fx->st, &q, 1, series_row, &r), STORE_OK);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.id[0], w.s[PUB]);
	assert_true(r.review_published[0]);
	/* the operator sees all six */
	memset(&r, 0, sizeof(r));
	q.publish = NULL;
	assert_int_equal(store_web_series(fx->st, &q, 0, series_row, &r), STORE_OK);
	assert_int_equal(r.n, 6);
}

/* ---- keyset paging ------------------------------------------------------- */

#define KS_MAX	512

struct ks_rows {
	int64_t id[KS_MAX];
	size_t n;
};

static int ks_finding(void *arg, const struct store_query_row *r)
{
	struct ks_rows *k = arg;

	if (k->n < KS_MAX)
		k->id[k->n++] = r->f.id;
	return 0;
}

static int ks_patch(void *arg, const struct store_patch_row *r)
{
	struct ks_rows *k = arg;

	if (k->n < KS_MAX)
		k->id[k->n++] = r->p.id;
	return 0;
}

static int ks_series(void *arg, const struct store_series_row *r)
{
	struct ks_rows *k = arg;

	if (k->n < KS_MAX)
		k->id[k->n++] = r->s.id;
	return 0;
}

/* kind 0 findings, 1 patches, 2 series: every row of q, page after page
 * of size rows (each after the last one of the page before) */
static void ks_read(struct store *st, int kind, struct store_query q, size_t size,
		    struct ks_rows *out)
{
	struct ks_rows page;
	int ret;

	memset(out, 0, sizeof(*out));
	q.limit = size;
	q.after = 0;
	for (;;) {
		memset(&page, 0, sizeof(page));
		ret = kind == 0 ? store_query_findings(st, &q, ks_finding, &page) :
		      kind == 1 ? store_query_patches(st, &q, ks_patch, &page) :
		      store_web_series(st, &q, 0, ks_series, &page);
		assert_int_equal(ret, STORE_OK);
		assert_true(out->n + page.n <= KS_MAX);
		memcpy(out->id + out->n, page.id, page.n * sizeof(page.id[0]));
		out->n += page.n;
		if (page.n < size)
			break;
		q.after = page.id[page.n - 1];
	}
}

/*
 * Pages by key (store_query.after) are the rows that one statement
 * without a limit gives, in its order, whatever the shape: findings and
 * patches newest or oldest first (ties of date, findings in the commit
 * message, several a line), published or not, driven by an author or a
 * file or walking the dates; series either way.  An id that is not there
 * gives nothing.
 */
static void test_store_web__keyset_pages_read_every_row_once_in_order(void **state)
{
	struct fx *fx = *state;
	static const char *const files[] = { "drivers/a.c", NULL, "drivers/b.c" };
	struct ks_rows all, paged;
	struct store_query q;
	int64_t m, s, p;
	int i, j, kind, shape, newest;
	size_t size;
	char msgid[32], from[32];

	for (i = 0; i < 24; i++) {
		snprintf(msgid, sizeof(msgid), "k%d@x", i);
		snprintf(from, sizeof(from), "dev%d@example.org", i % 3);
		/* dates in threes: rows of one date ordered by their mail */
		m = add_msg(fx->st, msgid, from, "Dev", 1793613600 + (i / 3) * 86400);
		assert_int_equal(store_msg_set_rcpt(fx->st, m, LIST, NULL), STORE_OK);
		s = add_series(fx->st, LIST, from, msgid, 1, 0, 1, NULL, "x", 1793613600);
		assert_int_equal(store_msg_set_series(fx->st, m, s), STORE_OK);
		p = add_patch(fx->st, s, m, 1);
		for (j = 0; j < 5; j++)
			add_finding(fx->st, p, j % 2 ? "LONG_LINE" : "SPACING", "style",
				    files[(i + j) % 3], j < 4 ? 7 : 3);
	}
	for (kind = 0; kind < 3; kind++)
		for (shape = 0; shape < 4; shape++)
			for (newest = 0; newest < 2; newest++)
				for (size = 1; size <= 7; size += 3) {
					memset(&q, 0, sizeof(q));
					q.newest_first = newest;
					q.publish = shape & 1 ? LISTS : NULL;
					if (shape == 2)
						q.author = "dev1";
					if (shape == 3)
						q.file_glob = "drivers/*";
					ks_read(fx->st, kind, q, 1000, &all);
					assert_true(all.n > 3);
					ks_read(fx->st, kind, q, size, &paged);
					if (paged.n != all.n ||
					    memcmp(paged.id, all.id, all.n * sizeof(all.id[0])))
						fail_msg("kind %d shape %d newest %d size %zu: %zu rows"
							 " paged, %zu in one", kind, shape, newest, size,
							 paged.n, all.n);
				}
	memset(&q, 0, sizeof(q));
	q.after = 999999;
	memset(&paged, 0, sizeof(paged));
	assert_int_equal(store_query_findings(fx->st, &q, ks_finding, &paged), STORE_OK);
	assert_int_equal(paged.n, 0);
}

/* A page after a finding or a patch that may not be published is a page
 * after one that is not there: its date does not show through. */
static void test_store_web__keyset_after_a_private_row_is_after_none(void **state)
{
	struct fx *fx = *state;
	struct ks_rows rows;
	struct store_query q;
	struct wfx w;
	int64_t priv_finding;
	sqlite3 *db;
	sqlite3_stmt *s;

	web_data(fx->st, &w);
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT id FROM findings WHERE patch_id = ?1",
					    -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_int64(s, 1, w.p[PRIV]);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	priv_finding = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	memset(&q, 0, sizeof(q));
	q.after = priv_finding;
	q.newest_first = 1;
	memset(&rows, 0, sizeof(rows));
	assert_int_equal(store_query_findings(fx->st, &q, ks_finding, &rows), STORE_OK);
	assert_true(rows.n > 0);	/* the operator pages after it */
	q.publish = LISTS;
	memset(&rows, 0, sizeof(rows));
	assert_int_equal(store_query_findings(fx->st, &q, ks_finding, &rows), STORE_OK);
	assert_int_equal(rows.n, 0);
	q.after = w.p[PRIV];
	memset(&rows, 0, sizeof(rows));
	assert_int_equal(store_query_patches(fx->st, &q, ks_patch, &rows), STORE_OK);
	assert_int_equal(rows.n, 0);
	q.after = w.p[PUB2];	/* a published one: the rows after it */
	memset(&rows, 0, sizeof(rows));
	assert_int_equal(store_query_patches(fx->st, &q, ks_patch, &rows), STORE_OK);
	assert_true(rows.n > 0);
}

static void test_store_web__versions_count_fixed_new_still(void **state)
{
	struct fx *fx = *state;
	struct store_version *v;
	size_t n, self;
	struct wfx w;

	web_data(fx->st, &w);
	assert_int_equal(store_web_versions(fx->st, w.s[PUB2], LISTS, &v, &n, &self), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(self, 1);
	assert_int_equal(v[0].version, 1);
	assert_string_equal(v[0].msgid, "pub@x");
	assert_int_equal(v[0].findings, 2);
	assert_int_equal(v[1].version, 2);
	assert_int_equal(v[1].fixed, 1);	/* USER_COPY */
	assert_int_equal(v[1].added, 1);	/* MISSING_SIGN_OFF */
	assert_int_equal(v[1].still, 1);	/* LONG_LINE */
	store_versions_free(v, n);
	assert_int_equal(store_web_versions(fx->st, w.s[PUB], LISTS, &v, &n, &self), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(self, 0);
	store_versions_free(v, n);
	/* a private one is its own chain, and not published */
	assert_int_equal(store_web_versions(fx->st, w.s[PRIV], LISTS, &v, &n, &self), STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(self, 0);
	store_versions_free(v, n);
}

struct weeks {
	int64_t week[8];
	char cat[8][48];
	long long n[8];
	size_t k;
};

static int week_row(void *arg, int64_t week, const char *cat, long long n)
{
	struct weeks *w = arg;

	if (w->k < 8) {
		w->week[w->k] = week;
		snprintf(w->cat[w->k], sizeof(w->cat[0]), "%s", cat);
		w->n[w->k] = n;
	}
	w->k++;
	return 0;
}

static int count_row(void *arg, const struct store_count_row *r)
{
	struct weeks *w = arg;

	if (w->k < 8) {
		w->week[w->k] = r->week;
		snprintf(w->cat[w->k], sizeof(w->cat[0]), "%s|%s", r->author ? r->author : "-",
			 r->category ? r->category : "-");
		w->n[w->k] = r->n;
	}
	w->k++;
	return 0;
}

static void test_store_web__weeks_start_on_monday_and_counts_group(void **state)
{
	struct fx *fx = *state;
	struct store_query q;
	struct weeks k;
	struct wfx w;

	web_data(fx->st, &w);
	memset(&q, 0, sizeof(q));
	memset(&k, 0, sizeof(k));
	q.publish = LISTS;
	assert_int_equal(store_web_weekly(fx->st, &q, week_row, &k), STORE_OK);
	/* week of 2026-11-02: security, style, uapi; the next: process, style */
	assert_int_equal(k.k, 5);
	assert_int_equal(k.week[0], 1793577600);	/* Monday 2026-11-02 00:00 */
	assert_string_equal(k.cat[0], "security");
	assert_int_equal(k.week[3], 1793577600 + 7 * 86400);
	assert_string_equal(k.cat[3], "process");

	memset(&k, 0, sizeof(k));
	assert_int_equal(store_query_count(fx->st, &q, COUNT_AUTHOR, count_row, &k), STORE_OK);
	assert_int_equal(k.k, 2);
	assert_string_equal(k.cat[0], "ann@example.org|-");
	assert_int_equal(k.n[0], 4);
	assert_int_equal(k.n[1], 1);
	memset(&k, 0, sizeof(k));
	assert_int_equal(store_query_count(fx->st, &q, COUNT_AUTHOR | COUNT_CATEGORY | COUNT_WEEK,
					   count_row, &k), STORE_OK);
	assert_int_equal(k.k, 5);
	assert_int_equal(k.n[0], 1);
	assert_true(k.week[0] > 0);
}

static void test_store_web__readonly_handle_cannot_write(void **state)
{
	struct fx *fx = *state;
	struct store *ro = NULL;
	struct store_query q;
	struct types t;
	struct wfx w;
	char err[256];
	int64_t id;

	web_data(fx->st, &w);
	assert_int_equal(store_open_readonly(fx->path, &ro, err, sizeof(err)), STORE_OK);
	memset(&q, 0, sizeof(q));
	memset(&t, 0, sizeof(t));
	assert_int_equal(store_query_findings(ro, &q, type_row, &t), STORE_OK);
	assert_int_equal(t.n, 8);
	assert_true(store_optout_set(ro, "x@y", OPTOUT_SILENT, 1) < 0);
	assert_true(store_msg_set_rcpt(ro, w.m[PRIV], LIST, NULL) < 0);
	assert_true(store_review_add(ro, &(struct store_review){ .series_id = w.s[PUB] }, &id) < 0);
	store_close(ro);
	assert_int_equal(store_open_readonly("/nonexistent/rb.db", &ro, err, sizeof(err)), STORE_DONE);
	assert_null(ro);
}

static void test_store_web__readonly_refuses_an_older_schema(void **state)
{
	struct fx *fx = *state;
	struct store *ro = NULL;
	char err[256];

	assert_int_equal(store_open_at_version(fx->path, 5, &fx->st, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_open_readonly(fx->path, &ro, err, sizeof(err)), STORE_ERR_VERSION);
	assert_non_null(strstr(err, "older"));
	assert_null(ro);
}

static int collect(void *arg, int64_t id)
{
	return collect_id(arg, id);
}

static void test_store_web__messages_without_recipients_are_listed(void **state)
{
	struct fx *fx = *state;
	struct ids c;
	char *r, *l;
	int64_t a, b;

	memset(&c, 0, sizeof(c));
	a = add_msg(fx->st, "a@x", "a@x", NULL, 1);
	b = add_msg(fx->st, "b@x", "b@x", NULL, 1);
	assert_int_equal(store_msg_set_rcpt(fx->st, b, "", NULL), STORE_OK);
	assert_int_equal(store_msg_each_without_rcpt(fx->st, collect, &c), STORE_OK);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.v[0], a);
	assert_int_equal(store_msg_get_rcpt(fx->st, b, &r, &l), STORE_OK);
	assert_string_equal(r, "");
	assert_null(l);
	free(r);
	assert_int_equal(store_msg_get_rcpt(fx->st, a, &r, &l), STORE_OK);
	assert_null(r);
	assert_int_equal(store_msg_get_rcpt(fx->st, 999, &r, &l), STORE_DONE);
	assert_int_equal(store_msg_set_rcpt(fx->st, 999, "", NULL), STORE_DONE);
}

/* mail stored before schema 8 gets its recipients from its raw bytes */
static void test_store_web__fill_rcpt_reads_the_raw_mail(void **state)
{
	static const char raw[] =
		"From: Ann <ann@example.org>\n"
		"To: Maint <Maint@Example.ORG>, " LIST "\n"
		"Cc: reviewbot@example.org\n"
		"List-Id: <linux-leds.vger.kernel.org>\n"
		"Subject: [PATCH] x\n"
		"Message-ID: <raw@x>\n"
		"\nbody\n";
	struct fx *fx = *state;
	struct store_msg m = {
		.message_id = (char *)"raw@x", .from_addr = (char *)"ann@example.org",
		.subject = (char *)"[PATCH] x",
	};
	char *r, *l;
	int64_t id, junk;
	long n = 0;

	assert_int_equal(store_msg_add(fx->st, &m, raw, sizeof(raw) - 1, &id), STORE_OK);
	m.message_id = (char *)"junk@x";
	assert_int_equal(store_msg_add(fx->st, &m, "\x01", 1, &junk), STORE_OK);
	assert_int_equal(pipeline_fill_rcpt(fx->st, &n), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(store_msg_get_rcpt(fx->st, id, &r, &l), STORE_OK);
	assert_string_equal(r, "maint@example.org," LIST ",reviewbot@example.org");
	assert_string_equal(l, "linux-leds.vger.kernel.org");
	free(r);
	free(l);
	assert_int_equal(store_msg_get_rcpt(fx->st, junk, &r, &l), STORE_OK);
	assert_string_equal(r, "");
	free(r);
	assert_int_equal(pipeline_fill_rcpt(fx->st, &n), STORE_OK);
	assert_int_equal(n, 0);
}

/* one column of one row, read through a connection of the test's own */
static long long sql_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	long long v = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

#define PUB_OF(msgid) \
	"SELECT pub FROM messages WHERE message_id = '" msgid "'"
#define OPTED_OF(root) \
	"SELECT opted_out FROM series WHERE root = '" root "'"

/*
 * Schema 10 stores what the rule needs: a privately mailed patch is
 * never published (pub 2: only a public list or source of the
 * configuration's would), an opt-out after the patches were stored
 * unpublishes them at once (the sender's mail and the series they
 * wrote), and opting back in publishes them again.
 */
static void test_store_web__stored_flags_follow_recipients_and_optouts(void **state)
{
	struct fx *fx = *state;
	struct store_query q;
	struct types t;
	struct wfx w;

	web_data(fx->st, &w);
	assert_int_equal(sql_int(fx->path, PUB_OF("pub@x")), 2);	/* To the list */
	assert_int_equal(sql_int(fx->path, PUB_OF("lid@x")), 1);	/* a List-Id */
	assert_int_equal(sql_int(fx->path, PUB_OF("priv@x")), 2);	/* the bot alone */
	assert_int_equal(sql_int(fx->path, PUB_OF("old@x")), 0);	/* not recorded */
	assert_int_equal(sql_int(fx->path, PUB_OF("opt@x")), 0);	/* opted out */
	assert_int_equal(sql_int(fx->path, OPTED_OF("opt@x")), 1);
	assert_int_equal(sql_int(fx->path, OPTED_OF("pub@x")), 0);

	memset(&q, 0, sizeof(q));
	q.publish = LISTS;
	findings(fx->st, &q, &t);
	assert_false(has(&t, "PRIVATE_ONLY"));	/* privately mailed: never */
	assert_true(has(&t, "USER_COPY"));

	/* ann opts out privately after her patches were stored: hidden at
	 * once, the series' rows and the mail's both */
	assert_int_equal(store_optout_set(fx->st, "ann@example.org", OPTOUT_PRIVATE, 2),
			 STORE_OK);
	assert_int_equal(sql_int(fx->path, PUB_OF("pub@x")), 0);
	assert_int_equal(sql_int(fx->path, PUB_OF("pub2@x")), 0);
	assert_int_equal(sql_int(fx->path, OPTED_OF("pub@x")), 1);
	findings(fx->st, &q, &t);
	assert_false(has(&t, "USER_COPY"));
	assert_false(has(&t, "MISSING_SIGN_OFF"));
	assert_int_equal(t.n, 1);	/* lid's alone */
	assert_int_equal(store_web_msg_published(fx->st, LISTS, w.m[PUB]), STORE_DONE);
	/* the mode changed again: still out */
	assert_int_equal(store_optout_set(fx->st, "ann@example.org", OPTOUT_SILENT, 3),
			 STORE_OK);
	findings(fx->st, &q, &t);
	assert_false(has(&t, "USER_COPY"));
	/* back in: published again */
	assert_int_equal(store_optout_remove(fx->st, "ann@example.org"), STORE_OK);
	assert_int_equal(sql_int(fx->path, PUB_OF("pub@x")), 2);
	assert_int_equal(sql_int(fx->path, OPTED_OF("pub@x")), 0);
	findings(fx->st, &q, &t);
	assert_true(has(&t, "USER_COPY"));
	assert_true(has(&t, "MISSING_SIGN_OFF"));

	/* the recipients recorded later make an old mail a list's */
	assert_int_equal(store_msg_set_rcpt(fx->st, w.m[OLD], "a@x", "leds.example.org"),
			 STORE_OK);
	assert_int_equal(sql_int(fx->path, PUB_OF("old@x")), 1);
}

/* The author filter reads the stored "address name" of a patch (its
 * mail's, the series' where the mail has none) and of a series, any
 * case, a part of either. */
static void test_store_web__author_filter_reads_stored_names(void **state)
{
	struct fx *fx = *state;
	struct store_query q;
	struct types t;
	struct wfx w;

	web_data(fx->st, &w);
	memset(&q, 0, sizeof(q));
	q.author = "ANN@example";
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 4);	/* pub's two, pub2's two */
	q.author = "org name";		/* across the address and the name */
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 8);
	q.author = "nobody";
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 0);
	/* a mail without a name: the series' author's is read */
	{
		sqlite3 *db;

		assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, "UPDATE messages SET from_name = NULL"
					      " WHERE message_id = 'lid@x'", NULL, NULL, NULL),
				 SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, "UPDATE series SET author_name = 'Ben Bo'"
					      " WHERE root = 'lid@x'", NULL, NULL, NULL),
				 SQLITE_OK);
		sqlite3_close(db);
	}
	q.author = "ben bo";
	findings(fx->st, &q, &t);
	assert_int_equal(t.n, 1);
	assert_true(has(&t, "UAPI_IOCTL"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_store_web__publish_hides_private_mail_and_opted_out_authors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__query_lists_offsets_and_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__series_rows_are_published_ones_newest_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__keyset_pages_read_every_row_once_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__keyset_after_a_private_row_is_after_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__versions_count_fixed_new_still, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__weeks_start_on_monday_and_counts_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__readonly_handle_cannot_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__readonly_refuses_an_older_schema, setup_dir, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__messages_without_recipients_are_listed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__fill_rcpt_reads_the_raw_mail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__stored_flags_follow_recipients_and_optouts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_web__author_filter_reads_stored_names, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Series assembly: real-world thread shapes (git send-email with and
 * without a cover letter, --chain-reply-to, parts out of order, v2 in
 * reply to v1, a replacement part, b4 change-ids, lore links).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../bot/series.h"
#include "../../bot/mail/subject.h"

struct fx {
	char dir[64];
	char path[96];
	struct store *st;
	int64_t now;
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char err[256];

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/test_series.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->path, sizeof(fx->path), "%s/rb.db", fx->dir);
	if (store_open(fx->path, &fx->st, err, sizeof(err)) != STORE_OK) {
		fprintf(stderr, "store_open: %s\n", err);
		return -1;
	}
	fx->now = 1000;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	static const char *const sfx[] = { "", "-wal", "-shm" };
	char p[160];
	size_t i;

	store_close(fx->st);
	for (i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s%s", fx->path, sfx[i]);
		unlink(p);
	}
	rmdir(fx->dir);
	free(fx);
	return 0;
}

struct arrival {
	int ret;
	int64_t msg, series, patch;
};

/*
 * A mail arrives: stored, its subject parsed, placed.  refs is a
 * space-separated References list as sent or NULL; irt its In-Reply-To
 * (NULL: the last References entry); xrefs the ids of a repeated
 * header; date its Date: (0: none).
 */
static struct arrival arrive_full(struct fx *fx, const char *msgid, const char *from,
				  const char *subject, const char *refs, const char *irt,
				  const char *xrefs, const char *body, int64_t date)
{
	struct arrival a = { 0, 0, 0, 0 };
	struct mime_mail m;
	struct store_msg row;
	struct subject sj;
	char buf[1024], xbuf[256], *v[16], *x[4], *tok, *save = NULL, *raw;
	size_t n = 0, nx = 0, rawlen;

	memset(&m, 0, sizeof(m));
	memset(&row, 0, sizeof(row));
	if (refs) {
		snprintf(buf, sizeof(buf), "%s", refs);
		for (tok = strtok_r(buf, " ", &save); tok && n < 16; tok = strtok_r(NULL, " ", &save))
			v[n++] = tok;
	}
	if (xrefs) {
		snprintf(xbuf, sizeof(xbuf), "%s", xrefs);
		for (tok = strtok_r(xbuf, " ", &save); tok && nx < 4; tok = strtok_r(NULL, " ", &save))
			x[nx++] = tok;
	}
	m.message_id = (char *)msgid;
	m.subject = (char *)subject;
	m.from.addr = (char *)from;
	m.from.name = (char *)"A Developer";
	m.refs = n ? v : NULL;
	m.nrefs = n;
	m.in_reply_to = irt ? (char *)irt : n ? v[n - 1] : NULL;
	m.xrefs = nx ? x : NULL;
	m.nxrefs = nx;
	m.date = date;
	m.body = (char *)(body ? body : "");
	m.body_len = strlen(m.body);
	row.message_id = m.message_id;
	row.from_addr = m.from.addr;
	row.subject = m.subject;
	row.list = (char *)"list@example.org";
	row.in_reply_to = m.in_reply_to;
	row.date = date;
	/* the raw mail, read again for the files a series changes */
	rawlen = strlen(m.body) + strlen(msgid) + strlen(from) + strlen(subject) + 64;
	raw = malloc(rawlen);
	assert_non_null(raw);
	snprintf(raw, rawlen, "Message-ID: <%s>\nFrom: %s\nSubject: %s\n\n%s", msgid, from,
		 subject, m.body);
	assert_int_equal(store_msg_add(fx->st, &row, raw, strlen(raw), &a.msg), STORE_OK);
	free(raw);
	subject_parse(subject, strlen(subject), &sj);
	assert_true(sj.kind == SUBJ_PATCH || sj.kind == SUBJ_COVER);
	fx->now += 10;
	a.ret = series_place(fx->st, a.msg, &m, &sj, "list@example.org", fx->now,
			     &a.series, &a.patch);
	if (a.ret == STORE_OK) {
		assert_int_equal(store_msg_set_series(fx->st, a.msg, a.series), STORE_OK);
		assert_int_equal(store_msg_set_state(fx->st, a.msg,
						     sj.kind == SUBJ_COVER ? MSG_COVER : MSG_PATCH,
						     NULL), STORE_OK);
	}
	return a;
}

/* The same, in-reply-to the last of refs (oldest first), no date. */
static struct arrival arrive(struct fx *fx, const char *msgid, const char *from,
			     const char *subject, const char *refs, const char *body)
{
	return arrive_full(fx, msgid, from, subject, refs, NULL, NULL, body, 0);
}

static int complete(struct fx *fx, int64_t id)
{
	struct store_series s;
	int c;

	assert_int_equal(store_series_get(fx->st, id, &s), STORE_OK);
	c = series_complete(fx->st, &s);
	store_series_release(&s);
	return c;
}

static struct store_series get(struct fx *fx, int64_t id)
{
	struct store_series s;

	assert_int_equal(store_series_get(fx->st, id, &s), STORE_OK);
	return s;
}

static void test_series__cover_and_parts_in_order(void **state)
{
	struct fx *fx = *state;
	struct arrival c, p1, p2, p3;
	struct store_series s;

	c = arrive(fx, "c@x", "dev@x.org", "[PATCH 0/3] leds: add acme", NULL, NULL);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/3] leds: one", "c@x", NULL);
	p2 = arrive(fx, "p2@x", "dev@x.org", "[PATCH 2/3] leds: two", "c@x", NULL);
	assert_int_equal(p1.series, c.series);
	assert_int_equal(p2.series, c.series);
	assert_false(complete(fx, c.series));
	p3 = arrive(fx, "p3@x", "dev@x.org", "[PATCH 3/3] leds: three", "c@x", NULL);
	assert_int_equal(p3.series, c.series);
	assert_true(complete(fx, c.series));
	s = get(fx, c.series);
	assert_int_equal(s.cover_msg, c.msg);
	assert_int_equal(s.total, 3);
	assert_string_equal(s.subject, "leds: add acme");
	assert_string_equal(s.root, "c@x");
	store_series_release(&s);
}

static void test_series__parts_before_their_cover(void **state)
{
	struct fx *fx = *state;
	struct arrival c, p1, p2;

	p2 = arrive(fx, "p2@x", "dev@x.org", "[PATCH v2 2/2] b", "c@x", NULL);
	c = arrive(fx, "c@x", "dev@x.org", "[PATCH v2 0/2] cover", NULL, NULL);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH v2 1/2] a", "c@x", NULL);
	assert_int_equal(c.series, p2.series);
	assert_int_equal(p1.series, p2.series);
	assert_true(complete(fx, c.series));
}

static void test_series__no_cover_parts_under_the_first(void **state)
{
	struct fx *fx = *state;
	struct arrival p1, p2, p3;
	struct store_series s;

	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH net-next 1/3] net: a", NULL, NULL);
	p2 = arrive(fx, "p2@x", "dev@x.org", "[PATCH net-next 2/3] net: b", "p1@x", NULL);
	p3 = arrive(fx, "p3@x", "dev@x.org", "[PATCH net-next 3/3] net: c", "p1@x", NULL);
	assert_int_equal(p2.series, p1.series);
	assert_int_equal(p3.series, p1.series);
	s = get(fx, p1.series);
	assert_int_equal(s.cover_msg, 0);
	assert_string_equal(s.subject, "net: a");
	assert_string_equal(s.prefix, "net-next");
	store_series_release(&s);
	assert_true(complete(fx, p1.series));
}

static void test_series__chain_reply_to(void **state)
{
	struct fx *fx = *state;
	struct arrival p1, p2, p3;

	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/3] a", NULL, NULL);
	p2 = arrive(fx, "p2@x", "dev@x.org", "[PATCH 2/3] b", "p1@x", NULL);
	p3 = arrive(fx, "p3@x", "dev@x.org", "[PATCH 3/3] c", "p1@x p2@x", NULL);
	assert_int_equal(p2.series, p1.series);
	assert_int_equal(p3.series, p1.series);
}

static void test_series__v2_in_reply_to_v1_is_its_own_version(void **state)
{
	struct fx *fx = *state;
	struct arrival c1, p1, c2, q1;
	struct store_series s;

	c1 = arrive(fx, "c1@x", "dev@x.org", "[PATCH 0/1] foo: bar", NULL, NULL);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/1] foo: bar", "c1@x", NULL);
	c2 = arrive(fx, "c2@x", "dev@x.org", "[PATCH v2 0/1] foo: bar", "c1@x", NULL);
	q1 = arrive(fx, "q1@x", "dev@x.org", "[PATCH v2 1/1] foo: bar", "c1@x c2@x", NULL);
	assert_int_equal(p1.series, c1.series);
	assert_int_equal(q1.series, c2.series);
	assert_true(c2.series != c1.series);
	s = get(fx, c2.series);
	assert_int_equal(s.version, 2);
	assert_int_equal(series_link_prev(fx->st, &s, NULL), STORE_OK);
	assert_int_equal(s.prev_id, c1.series);
	store_series_release(&s);
}

static void test_series__replacement_part_in_reply(void **state)
{
	struct fx *fx = *state;
	struct arrival p1, p2, p3, r, r51;
	struct store_series s;

	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/3] a", NULL, NULL);
	p2 = arrive(fx, "p2@x", "dev@x.org", "[PATCH 2/3] b", "p1@x", NULL);
	p3 = arrive(fx, "p3@x", "dev@x.org", "[PATCH 3/3] c", "p1@x", NULL);
	(void)p3;
	r = arrive(fx, "r@x", "dev@x.org", "[PATCH v2 2/3] b", "p1@x p2@x", NULL);
	assert_true(r.series != p1.series);
	s = get(fx, r.series);
	assert_int_equal(s.version, 2);
	assert_int_equal(s.total, 1);
	assert_int_equal(s.prev_id, p1.series);
	store_series_release(&s);
	assert_true(complete(fx, r.series));
	/* "v5.1" style: a minor version replacing v2's part */
	r51 = arrive(fx, "r51@x", "dev@x.org", "[PATCH v2.1 2/3] b", "p1@x p2@x r@x", NULL);
	assert_int_equal(r51.ret, STORE_OK);
	s = get(fx, r51.series);
	assert_int_equal(s.version, 2);
	assert_int_equal(s.version_minor, 1);
	assert_int_equal(s.prev_id, r.series);
	store_series_release(&s);
	(void)p2;
}

static void test_series__plain_patches_in_one_thread_are_separate(void **state)
{
	struct fx *fx = *state;
	struct arrival d1, d2;

	d1 = arrive(fx, "d1@x", "dev@x.org", "[PATCH] fix one thing", "talk@x", NULL);
	d2 = arrive(fx, "d2@x", "dev@x.org", "[PATCH] fix another", "talk@x", NULL);
	assert_int_equal(d1.ret, STORE_OK);
	assert_int_equal(d2.ret, STORE_OK);
	assert_true(d1.series != d2.series);
	assert_true(complete(fx, d1.series));
}

static void test_series__cover_0_of_1(void **state)
{
	struct fx *fx = *state;
	struct arrival c, p;

	c = arrive(fx, "c@x", "dev@x.org", "[PATCH 0/1] cover", NULL, NULL);
	p = arrive(fx, "p@x", "dev@x.org", "[PATCH 1/1] the patch", "c@x", NULL);
	assert_int_equal(p.series, c.series);
}

static void test_series__resent_part_is_a_duplicate(void **state)
{
	struct fx *fx = *state;
	struct arrival p1, again;

	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/2] a", "c@x", NULL);
	again = arrive(fx, "p1b@x", "dev@x.org", "[PATCH 1/2] a", "c@x", NULL);
	assert_int_equal(again.ret, STORE_DUP);
	assert_int_equal(again.series, p1.series);
}

static void test_series__other_author_same_thread_is_another_series(void **state)
{
	struct fx *fx = *state;
	struct arrival a, b;

	a = arrive(fx, "a@x", "one@x.org", "[PATCH 1/2] a", "c@x", NULL);
	b = arrive(fx, "b@x", "two@x.org", "[PATCH 1/2] a", "c@x", NULL);
	assert_true(a.series != b.series);
}

static void test_series__b4_change_id_links_versions(void **state)
{
	struct fx *fx = *state;
	struct arrival c1, c3;
	struct store_series s;

	c1 = arrive(fx, "c1@x", "dev@x.org", "[PATCH 0/2] first title", NULL,
		    "intro\n\n---\nbase-commit: abc\nchange-id: 20261101-acme-leds-0123abcd\n\nBest regards,\n");
	c3 = arrive(fx, "c3@x", "dev@x.org", "[PATCH v3 0/2] a better title", NULL,
		    "intro\n---\nchange-id: 20261101-acme-leds-0123abcd\n");
	s = get(fx, c3.series);
	assert_string_equal(s.change_id, "20261101-acme-leds-0123abcd");
	assert_int_equal(series_link_prev(fx->st, &s, NULL), STORE_OK);
	assert_int_equal(s.prev_id, c1.series);
	store_series_release(&s);
}

static void test_series__lore_link_in_cover_links_versions(void **state)
{
	struct fx *fx = *state;
	struct arrival c1, c2;
	struct store_series s;

	c1 = arrive(fx, "20261101.1-1-dev@x.org", "dev@x.org", "[PATCH 0/2] old name", NULL, NULL);
	c2 = arrive(fx, "c2@x", "dev@x.org", "[PATCH v2 0/2] new name", NULL, NULL);
	s = get(fx, c2.series);
	assert_int_equal(series_link_prev(fx->st, &s,
		"Changes in v2:\n- renamed\n\nv1: https://lore.kernel.org/all/20261101.1-1-dev%40x.org/\n"),
		STORE_OK);
	assert_int_equal(s.prev_id, c1.series);
	store_series_release(&s);
}

static void test_series__no_previous_version_for_v1(void **state)
{
	struct fx *fx = *state;
	struct arrival c;
	struct store_series s;

	c = arrive(fx, "c@x", "dev@x.org", "[PATCH 0/2] only", NULL, NULL);
	s = get(fx, c.series);
	assert_int_equal(series_link_prev(fx->st, &s, NULL), STORE_OK);
	assert_int_equal(s.prev_id, 0);
	store_series_release(&s);
}

static void test_series__unthreaded_parts_join_by_author_and_size(void **state)
{
	struct fx *fx = *state;
	struct arrival c, p1, p2, other, again;

	/* git format-patch files without --thread, given to `review` */
	c = arrive(fx, "c@x", "dev@x.org", "[PATCH v2 0/2] cover", NULL, NULL);
	p2 = arrive(fx, "p2@x", "dev@x.org", "[PATCH v2 2/2] b", NULL, NULL);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH v2 1/2] a", NULL, NULL);
	assert_int_equal(p1.series, c.series);
	assert_int_equal(p2.series, c.series);
	assert_true(complete(fx, c.series));
	/* another size, or a part already there, is another series */
	other = arrive(fx, "o@x", "dev@x.org", "[PATCH v2 1/3] a", NULL, NULL);
	assert_true(other.series != c.series);
	again = arrive(fx, "p1b@x", "dev@x.org", "[PATCH v2 1/2] a", NULL, NULL);
	assert_true(again.series != c.series);
}

/* git send-email --in-reply-to=<v1 1/2> of a v2 without a cover letter:
 * one v2 series whose previous version is v1 (was: v2 1/2 a replacement,
 * v2 2/2 a series of its own) */
static void test_series__v2_in_reply_to_v1_first_patch_is_one_series(void **state)
{
	struct fx *fx = *state;
	struct arrival a1, a2, b1, b2;
	struct store_series s;

	a1 = arrive(fx, "a1@x", "dev@x.org", "[PATCH 1/2] mailmap: one", NULL, NULL);
	a2 = arrive(fx, "a2@x", "dev@x.org", "[PATCH 2/2] mailmap: two", "a1@x", NULL);
	b1 = arrive(fx, "b1@x", "dev@x.org", "[PATCH v2 1/2] mailmap: one", "a1@x", NULL);
	b2 = arrive(fx, "b2@x", "dev@x.org", "[PATCH v2 2/2] mailmap: two", "a1@x b1@x", NULL);
	assert_int_equal(a2.series, a1.series);
	assert_true(b1.series != a1.series);
	assert_int_equal(b2.series, b1.series);
	s = get(fx, b1.series);
	assert_int_equal(s.version, 2);
	assert_int_equal(s.total, 2);
	assert_int_equal(s.prev_id, a1.series);
	store_series_release(&s);
	assert_true(complete(fx, b1.series));
}

/* v2 sent in reply to v1's last patch, its parts out of order (Patchwork's
 * revision-out-of-order) */
static void test_series__v2_in_reply_to_v1_last_patch_out_of_order(void **state)
{
	struct fx *fx = *state;
	struct arrival c1, p1, p2, c2, q1, q2;
	struct store_series s;

	c1 = arrive(fx, "c1@x", "dev@x.org", "[PATCH 0/2] A sample series", NULL, NULL);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/2] a", "c1@x", NULL);
	p2 = arrive(fx, "p2@x", "dev@x.org", "[PATCH 2/2] b", "c1@x", NULL);
	q2 = arrive(fx, "q2@x", "dev@x.org", "[PATCH v2 2/2] b", "c1@x p2@x c2@x", NULL);
	q1 = arrive(fx, "q1@x", "dev@x.org", "[PATCH v2 1/2] a", "c1@x p2@x c2@x", NULL);
	c2 = arrive(fx, "c2@x", "dev@x.org", "[PATCH v2 0/2] A sample series", "c1@x p2@x", NULL);
	assert_int_equal(p1.series, c1.series);
	assert_int_equal(p2.series, c1.series);
	assert_true(q2.series != c1.series);
	assert_int_equal(q1.series, q2.series);
	assert_int_equal(c2.series, q2.series);
	s = get(fx, c2.series);
	assert_int_equal(s.cover_msg, c2.msg);
	assert_int_equal(s.prev_id, c1.series);
	store_series_release(&s);
}

/* References newest first (Patchwork's base-deep-threaded), or the
 * parent only in a second References or In-Reply-To header */
static void test_series__any_reference_finds_the_series(void **state)
{
	struct fx *fx = *state;
	struct arrival c, p1, p2, d, e1, e2;

	c = arrive(fx, "c@x", "dev@x.org", "[PATCH 0/2] deep", NULL, NULL);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/2] a", "c@x", NULL);
	p2 = arrive_full(fx, "p2@x", "dev@x.org", "[PATCH 2/2] b", "p1@x c@x", "c@x",
			 NULL, NULL, 0);
	assert_int_equal(p1.series, c.series);
	assert_int_equal(p2.series, c.series);
	/* the first header names a discussion, a second one the cover */
	d = arrive(fx, "d@x", "dev@x.org", "[PATCH V2 0/2] dup headers", NULL, NULL);
	e1 = arrive_full(fx, "e1@x", "dev@x.org", "[PATCH V2 1/2] a", "talk@x", "talk@x",
			 "d@x", NULL, 0);
	e2 = arrive_full(fx, "e2@x", "dev@x.org", "[PATCH V2 2/2] b", "other@x", NULL,
			 "d@x", NULL, 0);
	assert_int_equal(e1.series, d.series);
	assert_int_equal(e2.series, d.series);
}

/* A resend without a version in reply to 1/2 (Patchwork's
 * bugs-nocover-noversion): a second series, nothing dropped */
static void test_series__unversioned_resend_in_reply_is_a_series(void **state)
{
	struct fx *fx = *state;
	struct arrival a1, a2, b1, b2;

	a1 = arrive(fx, "a1@x", "dev@x.org", "[PATCH 1/2] a", NULL, NULL);
	a2 = arrive(fx, "a2@x", "dev@x.org", "[PATCH 2/2] b", "a1@x", NULL);
	b1 = arrive(fx, "b1@x", "dev@x.org", "[PATCH 1/2] a", "a1@x", NULL);
	b2 = arrive(fx, "b2@x", "dev@x.org", "[PATCH 2/2] b", "a1@x b1@x", NULL);
	assert_int_equal(a2.series, a1.series);
	assert_int_equal(b1.ret, STORE_OK);
	assert_int_equal(b2.ret, STORE_OK);
	assert_true(b1.series != a1.series);
	assert_int_equal(b2.series, b1.series);
	assert_true(complete(fx, b1.series));
}

/* "[PATCH net-next v3 0/4]" over "[PATCH 1/4]" ... (Patchwork's
 * base-different-versions): one series, v3, in either order */
static void test_series__unversioned_parts_join_a_versioned_cover(void **state)
{
	struct fx *fx = *state;
	struct arrival c, p1, p2, q1, d;
	struct store_series s;

	c = arrive(fx, "c@x", "dev@x.org", "[PATCH net-next v3 0/2] net: dsa (v3)", NULL, NULL);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/2] net: dsa: a", "c@x", NULL);
	p2 = arrive(fx, "p2@x", "dev@x.org", "[PATCH 2/2] net: dsa: b", "c@x", NULL);
	assert_int_equal(p1.series, c.series);
	assert_int_equal(p2.series, c.series);
	s = get(fx, c.series);
	assert_int_equal(s.version, 3);
	store_series_release(&s);
	/* the parts first */
	q1 = arrive(fx, "q1@x", "dev@x.org", "[PATCH 1/2] x: a", "d@x", NULL);
	d = arrive(fx, "d@x", "dev@x.org", "[PATCH v4 0/2] x", NULL, NULL);
	assert_int_equal(d.series, q1.series);
	s = get(fx, d.series);
	assert_int_equal(s.version, 4);
	assert_int_equal(s.cover_msg, d.msg);
	store_series_release(&s);
}

/* "[PATCH 1/2]" then "[PATCH v2 2/2]" in reply to it (Patchwork's
 * bugs-mixed-versions): two series, the second a v2 of the first */
static void test_series__mixed_versions_are_two_series(void **state)
{
	struct fx *fx = *state;
	struct arrival a1, b2;
	struct store_series s;

	a1 = arrive(fx, "a1@x", "dev@x.org", "[PATCH 1/2] a", NULL, NULL);
	b2 = arrive(fx, "b2@x", "dev@x.org", "[PATCH v2 2/2] b", "a1@x", NULL);
	assert_true(b2.series != a1.series);
	s = get(fx, b2.series);
	assert_int_equal(s.version, 2);
	assert_int_equal(s.total, 2);
	assert_int_equal(s.prev_id, a1.series);
	store_series_release(&s);
}

/* The same cover letter subject sent again, not threaded (Patchwork's
 * revision-unlabeled): two series */
static void test_series__unlabeled_revision_is_another_series(void **state)
{
	struct fx *fx = *state;
	struct arrival c1, p1, c2, q2, q1;

	c1 = arrive(fx, "c1@x", "dev@x.org", "[PATCH 0/2] sample", NULL, NULL);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/2] a", "c1@x", NULL);
	c2 = arrive(fx, "c2@x", "dev@x.org", "[PATCH 0/2] sample", NULL, NULL);
	q2 = arrive(fx, "q2@x", "dev@x.org", "[PATCH 2/2] b", "c2@x", NULL);
	q1 = arrive(fx, "q1@x", "dev@x.org", "[PATCH 1/2] a", "c2@x", NULL);
	assert_int_equal(p1.series, c1.series);
	assert_true(c2.series != c1.series);
	assert_int_equal(q1.series, c2.series);
	assert_int_equal(q2.series, c2.series);
}

/* Unthreaded parts of one sender: the same tags and size, dated within
 * SERIES_UNTHREADED_DATE_WINDOW of a mail of the series */
static void test_series__unthreaded_parts_by_prefix_and_date(void **state)
{
	struct fx *fx = *state;
	struct arrival a1, a2, b1, c2, d2;
	int64_t t = 1495516865;

	a1 = arrive_full(fx, "a1@x", "dev@x.org", "[net,v2,1/2] net: a", NULL, NULL, NULL,
			 NULL, t);
	a2 = arrive_full(fx, "a2@x", "dev@x.org", "[net,v2,2/2] net: b", NULL, NULL, NULL,
			 NULL, t + 514);
	assert_int_equal(a2.series, a1.series);
	/* another tag */
	b1 = arrive_full(fx, "b1@x", "dev@x.org", "[PATCH net-next v2 1/2] net: a", NULL,
			 NULL, NULL, NULL, t + 600);
	c2 = arrive_full(fx, "c2@x", "dev@x.org", "[PATCH v2 2/2] net: b", NULL, NULL, NULL,
			 NULL, t + 600);
	assert_true(b1.series != a1.series);
	assert_true(c2.series != b1.series);
	/* a day later */
	d2 = arrive_full(fx, "d2@x", "dev@x.org", "[PATCH net-next v2 2/2] net: b", NULL,
			 NULL, NULL, NULL, t + 86400);
	assert_true(d2.series != b1.series);
}

/* Part 1 of a whole version in reply to the earlier part 1, and a lone
 * cover letter that its patches reach late */
static void test_series__part_one_alone_and_late_parts(void **state)
{
	struct fx *fx = *state;
	struct arrival a1, a2, a3, b1, c, p1;
	struct store_series s;

	a1 = arrive(fx, "a1@x", "dev@x.org", "[PATCH 1/3] a", NULL, NULL);
	a2 = arrive(fx, "a2@x", "dev@x.org", "[PATCH 2/3] b", "a1@x", NULL);
	a3 = arrive(fx, "a3@x", "dev@x.org", "[PATCH 3/3] c", "a1@x", NULL);
	(void)a2;
	(void)a3;
	b1 = arrive(fx, "b1@x", "dev@x.org", "[PATCH v2 1/3] a", "a1@x", NULL);
	s = get(fx, b1.series);
	assert_int_equal(s.total, 3);
	assert_int_equal(s.prev_id, a1.series);
	store_series_release(&s);
	assert_false(complete(fx, b1.series));

	c = arrive(fx, "c@x", "dev@x.org", "[PATCH 0/1] cover", NULL, NULL);
	assert_int_equal(store_series_set_state(fx->st, c.series, SERIES_SKIPPED, 1), STORE_OK);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/1] late", "c@x", NULL);
	assert_int_equal(p1.series, c.series);
	s = get(fx, c.series);
	assert_int_equal(s.state, SERIES_OPEN);
	store_series_release(&s);
}

/* "[PATCH 3/3]" sent later under "[PATCH 0/2]" (Patchwork's
 * base-extra-patches): one series of three; a "[PATCH 1/3]" there then
 * repeats part 1 in its place */
static void test_series__extra_part_under_the_cover_joins(void **state)
{
	struct fx *fx = *state;
	struct arrival c, p1, p2, p3, q1;
	struct store_series s;

	c = arrive(fx, "c@x", "dev@x.org", "[PATCH 0/2] cover", NULL, NULL);
	p1 = arrive(fx, "p1@x", "dev@x.org", "[PATCH 1/2] a", "c@x", NULL);
	p2 = arrive(fx, "p2@x", "dev@x.org", "[PATCH 2/2] b", "c@x", NULL);
	p3 = arrive(fx, "p3@x", "dev@x.org", "[PATCH 3/3] c", "c@x", NULL);
	assert_int_equal(p1.series, c.series);
	assert_int_equal(p2.series, c.series);
	assert_int_equal(p3.series, c.series);
	s = get(fx, c.series);
	assert_int_equal(s.total, 3);
	store_series_release(&s);
	assert_true(complete(fx, c.series));
	q1 = arrive(fx, "q1@x", "dev@x.org", "[PATCH 1/3] a", "c@x", NULL);
	assert_int_equal(q1.ret, STORE_DUP);
	assert_int_equal(q1.series, c.series);
}

/* ---- linking versions: only the author's own series ----------------- */

static const char diff_ab[] =
	"Signed-off-by: A Developer <dev@x.org>\n---\n"
	"diff --git a/drivers/hwmon/foo.c b/drivers/hwmon/foo.c\n+int a;\n"
	"diff --git a/Documentation/hwmon/foo.rst b/Documentation/hwmon/foo.rst\n+x\n";
static const char diff_c[] =
	"Signed-off-by: A Developer <dev@x.org>\n---\n"
	"diff --git a/drivers/hwmon/bar.c b/drivers/hwmon/bar.c\n+int b;\n";

/* A stranger's cover letter copying the victim's b4 change-id (or
 * linking the victim's v1) is no next version of it: the victim's v1
 * page showed the attacker's "v2 (fixed)" */
static void test_series__a_strangers_change_id_or_link_is_no_version(void **state)
{
	struct fx *fx = *state;
	struct arrival v1, p1, a2, l2, r2, own2;
	struct store_series s;

	v1 = arrive(fx, "20261101.1-1-dev@x.org", "dev@x.org", "[PATCH 0/1] hwmon: add foo",
		    NULL, "intro\n---\nchange-id: 20261101-foo-0123\n");
	p1 = arrive(fx, "v1p1@x", "dev@x.org", "[PATCH 1/1] hwmon: add foo",
		    "20261101.1-1-dev@x.org", diff_ab);
	assert_int_equal(p1.series, v1.series);
	a2 = arrive(fx, "a2@evil", "mallory@evil.org", "[PATCH v2 0/1] hwmon: add foo (fixed)",
		    NULL, "intro\n---\nchange-id: 20261101-foo-0123\n");
	s = get(fx, a2.series);
	assert_int_equal(series_link_prev(fx->st, &s, "intro\n---\nchange-id: 20261101-foo-0123\n"),
			 STORE_OK);
	assert_int_equal(s.prev_id, 0);
	store_series_release(&s);
	l2 = arrive(fx, "l2@evil", "mallory@evil.org", "[PATCH v2 0/1] hwmon: foo, fixed",
		    NULL, NULL);
	s = get(fx, l2.series);
	assert_int_equal(series_link_prev(fx->st, &s,
		"Changes in v2:\n- everything\n- Link to v1: https://lore.kernel.org/r/20261101.1-1-dev@x.org\n"),
		STORE_OK);
	assert_int_equal(s.prev_id, 0);
	store_series_release(&s);
	/* a stranger's "[PATCH v2 1/1]" in reply to the victim's patch
	 * replaces nothing of it */
	r2 = arrive(fx, "r2@evil", "mallory@evil.org", "[PATCH v2 1/1] hwmon: add foo",
		    "20261101.1-1-dev@x.org v1p1@x", diff_ab);
	s = get(fx, r2.series);
	assert_int_equal(s.prev_id, 0);
	store_series_release(&s);
	/* the author's own v2 with that change-id is one */
	own2 = arrive(fx, "own2@x", "dev@x.org", "[PATCH v2 0/1] hwmon: (foo) a new name",
		      NULL, "intro\n---\nchange-id: 20261101-foo-0123\n");
	s = get(fx, own2.series);
	assert_int_equal(series_link_prev(fx->st, &s, NULL), STORE_OK);
	assert_int_equal(s.prev_id, v1.series);
	store_series_release(&s);
}

/* A v2 whose subject changed, without change-id or link: the same
 * author's earlier series changing the same files is its v1, not the
 * author's other series nor a stranger's on the same files */
static void test_series__same_author_same_files_is_the_previous_version(void **state)
{
	struct fx *fx = *state;
	struct arrival v1, other, stranger, v2;
	struct store_series s;

	v1 = arrive(fx, "v1@x", "dev@x.org", "[PATCH] hwmon: add a driver for the FOO-1", NULL,
		    diff_ab);
	other = arrive(fx, "o1@x", "dev@x.org", "[PATCH] hwmon: bar: fix a typo", NULL, diff_c);
	stranger = arrive(fx, "s1@y", "someone@y.org", "[PATCH] hwmon: foo: tweak", NULL, diff_ab);
	(void)other;
	(void)stranger;
	v2 = arrive(fx, "v2@x", "dev@x.org", "[PATCH v2] hwmon: (foo) new driver for FOO-1 chips",
		    NULL, diff_ab);
	s = get(fx, v2.series);
	assert_int_equal(series_link_prev(fx->st, &s, diff_ab), STORE_OK);
	assert_int_equal(s.prev_id, v1.series);
	store_series_release(&s);
}

/* "Changes since v1" in a v3's cover: of the author's earlier series on
 * those files, the v1 */
static void test_series__changes_since_names_the_version(void **state)
{
	struct fx *fx = *state;
	struct arrival a1, b2, c3, c3p;
	struct store_series s;

	a1 = arrive(fx, "a1@x", "dev@x.org", "[PATCH] hwmon: foo: first try", NULL, diff_ab);
	b2 = arrive(fx, "b2@x", "dev@x.org", "[PATCH v2] hwmon: foo: unrelated cleanup", NULL,
		    diff_ab);
	(void)b2;
	c3 = arrive(fx, "c3@x", "dev@x.org", "[PATCH v3 0/1] hwmon: foo: third name", NULL, NULL);
	c3p = arrive(fx, "c3p@x", "dev@x.org", "[PATCH v3 1/1] hwmon: foo: third name", "c3@x",
		     diff_ab);
	assert_int_equal(c3p.series, c3.series);
	s = get(fx, c3.series);
	assert_int_equal(series_link_prev(fx->st, &s, "Changes since v1:\n- all of it\n"), STORE_OK);
	assert_int_equal(s.prev_id, a1.series);
	store_series_release(&s);
	assert_int_equal(series_changes_since("v2 -> v3:\n- x\n", 3), 2);
	assert_int_equal(series_changes_since("Changes in v4:\n- x\n", 4), 3);
	assert_int_equal(series_changes_since("Changes from V2\n", 5), 2);
	assert_int_equal(series_changes_since("since v7 nothing\n", 3), 0);
	assert_int_equal(series_changes_since("no history\n", 3), 0);
}

/* ---- the same mails in any order: the same series -------------------- */

struct mail_def {
	const char *msgid, *subject, *refs;
};

/*
 * A describes the series each mail of set[0, n) is in (its version and
 * the first Message-ID of that series, in set order), and each series'
 * previous version, as one string.
 */
static void describe(struct fx *fx, const struct mail_def *set, size_t n,
		     const int64_t *series, char *out, size_t outlen)
{
	size_t i, j, o = 0;
	struct store_series s, ps;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		for (j = 0; j < n && series[j] != series[i]; j++)
			;
		s = get(fx, series[i]);
		o += (size_t)snprintf(out + o, outlen - o, "%s:v%d@%s", set[i].msgid, s.version,
				      set[j].msgid);
		if (s.prev_id) {
			ps = get(fx, s.prev_id);
			o += (size_t)snprintf(out + o, outlen - o, "<v%d:%s", ps.version,
					      ps.subject);
			store_series_release(&ps);
		}
		o += (size_t)snprintf(out + o, outlen - o, " ");
		store_series_release(&s);
		assert_true(o < outlen);
	}
}

/* Feeds set[order[0..n)] into a fresh store; describe()s the result. */
static void feed(struct fx *fx, const struct mail_def *set, const size_t *order, size_t n,
		 char *out, size_t outlen)
{
	int64_t series[16];
	struct arrival a;
	char err[256];
	size_t i;

	assert_true(n <= 16);
	store_close(fx->st);
	unlink(fx->path);
	assert_int_equal(store_open(fx->path, &fx->st, err, sizeof(err)), STORE_OK);
	for (i = 0; i < n; i++) {
		const struct mail_def *d = &set[order[i]];

		a = arrive(fx, d->msgid, "dev@x.org", d->subject, d->refs,
			   strstr(d->subject, " 0/") ? NULL : diff_ab);
		assert_int_equal(a.ret, STORE_OK);
		series[order[i]] = a.series;
	}
	describe(fx, set, n, series, out, outlen);
}

static void check_orders(struct fx *fx, const struct mail_def *set, size_t n,
			 const size_t orders[][16], size_t norders)
{
	char first[2048], other[2048];
	size_t k;

	feed(fx, set, orders[0], n, first, sizeof(first));
	for (k = 1; k < norders; k++) {
		feed(fx, set, orders[k], n, other, sizeof(other));
		if (strcmp(first, other))
			fail_msg("order %zu gives\n  %s\nand order 0\n  %s", k, other, first);
	}
}

/*
 * A v2 whose Message-IDs the sender's provider rewrote: its parts reply
 * to the ids git send-email gave (c2-orig), which no mail carries, and
 * one part lacks the "v2".  Read over NNTP (the archive's order) and
 * over HTTP (its Received: times, which put the untagged part first),
 * it was assembled differently: one v2 series of three, or a "v1" of
 * the untagged part and a v2 of the other two; and the cover letters
 * (unthreaded, their Message-IDs rewritten too) joined their parts only
 * when they came last.
 */
static void test_series__rewritten_ids_and_mixed_tags_in_any_order(void **state)
{
	static const struct mail_def set[] = {
		{ "R1-c@mail.example", "[PATCH 0/3] hwmon: (foo) add bar", NULL },
		{ "R1-1@mail.example", "[PATCH 1/3] hwmon: (foo) one", "c1-orig@host" },
		{ "R1-2@mail.example", "[PATCH 2/3] hwmon: (foo) two", "c1-orig@host" },
		{ "R1-3@mail.example", "[PATCH 3/3] hwmon: (foo) three", "c1-orig@host" },
		{ "R2-c@mail.example", "[PATCH v2 0/3] hwmon: (foo) add bar", NULL },
		{ "R2-1@mail.example", "[PATCH v2 1/3] hwmon: (foo) one", "c2-orig@host" },
		{ "R2-2@mail.example", "[PATCH 2/3] hwmon: (foo) two", "c2-orig@host" },
		{ "R2-3@mail.example", "[PATCH v2 3/3] hwmon: (foo) three", "c2-orig@host" },
	};
	static const size_t orders[][16] = {
		{ 0, 1, 2, 3, 4, 5, 6, 7 },	/* NNTP: the archive's order */
		{ 0, 2, 1, 3, 4, 6, 5, 7 },	/* HTTP: by Received: time */
		{ 4, 6, 7, 5, 0, 3, 2, 1 },
		{ 7, 6, 5, 4, 3, 2, 1, 0 },
	};
	struct fx *fx = *state;
	char out[2048];

	check_orders(fx, set, 8, orders, 4);
	/* and it is one v1 and one v2 series, each with its cover letter */
	feed(fx, set, orders[1], 8, out, sizeof(out));
	assert_string_equal(out,
		"R1-c@mail.example:v1@R1-c@mail.example R1-1@mail.example:v1@R1-c@mail.example "
		"R1-2@mail.example:v1@R1-c@mail.example R1-3@mail.example:v1@R1-c@mail.example "
		"R2-c@mail.example:v2@R2-c@mail.example R2-1@mail.example:v2@R2-c@mail.example "
		"R2-2@mail.example:v2@R2-c@mail.example R2-3@mail.example:v2@R2-c@mail.example ");
}

/* "[PATCH 1/2]" and "[PATCH v2 2/2]" in reply to it (Patchwork's
 * bugs-mixed-versions) read the other way round: still two series, the
 * second a v2 of the first */
static void test_series__mixed_versions_in_any_order(void **state)
{
	static const struct mail_def set[] = {
		{ "a1@x", "[PATCH 1/2] a", NULL },
		{ "b2@x", "[PATCH v2 2/2] b", "a1@x" },
	};
	static const size_t orders[][16] = { { 0, 1 }, { 1, 0 } };
	struct fx *fx = *state;
	char out[512];

	check_orders(fx, set, 2, orders, 2);
	feed(fx, set, orders[1], 2, out, sizeof(out));
	assert_string_equal(out, "a1@x:v1@a1@x b2@x:v2@b2@x<v1:a ");
}

/* A cover letter that forgot its "v2", sent with its "[PATCH v2 N/2]"
 * parts: one v2 series in either order; a v1's cover letter of days
 * before, which a v2 sent with --in-reply-to answers, stays v1's */
static void test_series__cover_without_its_version_in_any_order(void **state)
{
	static const struct mail_def set[] = {
		{ "c@x", "[PATCH 0/2] leds: foo", NULL },
		{ "p1@x", "[PATCH v2 1/2] leds: foo: a", "c@x" },
		{ "p2@x", "[PATCH v2 2/2] leds: foo: b", "c@x" },
	};
	static const size_t orders[][16] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 } };
	struct fx *fx = *state;
	struct arrival c1, q1;
	struct store_series s;
	char out[512];
	int64_t t = 1795000000;

	check_orders(fx, set, 3, orders, 3);
	feed(fx, set, orders[1], 3, out, sizeof(out));
	assert_string_equal(out, "c@x:v2@c@x p1@x:v2@c@x p2@x:v2@c@x ");

	c1 = arrive_full(fx, "old-c@x", "dev@x.org", "[PATCH 0/2] leds: bar", NULL, NULL, NULL,
			 NULL, t);
	q1 = arrive_full(fx, "new-p1@x", "dev@x.org", "[PATCH v2 1/2] leds: bar: a", "old-c@x",
			 NULL, NULL, diff_ab, t + 5 * 86400);
	assert_true(q1.series != c1.series);
	s = get(fx, q1.series);
	assert_int_equal(s.version, 2);
	assert_int_equal(s.prev_id, c1.series);
	store_series_release(&s);
}

static void test_series__change_id_parsing(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(series_change_id("a\nchange-id: 20231004-foo-bar-abc123\n", out, sizeof(out)), 0);
	assert_string_equal(out, "20231004-foo-bar-abc123");
	assert_int_equal(series_change_id("Change-Id: I0123456789abcdef\n", out, sizeof(out)), 0);
	assert_int_equal(series_change_id("no id here\n  change-id: x\n", out, sizeof(out)), -1);
	assert_int_equal(series_change_id("change-id: \n", out, sizeof(out)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_series__cover_and_parts_in_order),
		T(test_series__parts_before_their_cover),
		T(test_series__no_cover_parts_under_the_first),
		T(test_series__chain_reply_to),
		T(test_series__v2_in_reply_to_v1_is_its_own_version),
		T(test_series__replacement_part_in_reply),
		T(test_series__plain_patches_in_one_thread_are_separate),
		T(test_series__cover_0_of_1),
		T(test_series__resent_part_is_a_duplicate),
		T(test_series__other_author_same_thread_is_another_series),
		T(test_series__b4_change_id_links_versions),
		T(test_series__lore_link_in_cover_links_versions),
		T(test_series__no_previous_version_for_v1),
		T(test_series__unthreaded_parts_join_by_author_and_size),
		T(test_series__v2_in_reply_to_v1_first_patch_is_one_series),
		T(test_series__v2_in_reply_to_v1_last_patch_out_of_order),
		T(test_series__any_reference_finds_the_series),
		T(test_series__unversioned_resend_in_reply_is_a_series),
		T(test_series__unversioned_parts_join_a_versioned_cover),
		T(test_series__mixed_versions_are_two_series),
		T(test_series__unlabeled_revision_is_another_series),
		T(test_series__unthreaded_parts_by_prefix_and_date),
		T(test_series__part_one_alone_and_late_parts),
		T(test_series__extra_part_under_the_cover_joins),
		T(test_series__a_strangers_change_id_or_link_is_no_version),
		T(test_series__same_author_same_files_is_the_previous_version),
		T(test_series__changes_since_names_the_version),
		T(test_series__rewritten_ids_and_mixed_tags_in_any_order),
		T(test_series__mixed_versions_in_any_order),
		T(test_series__cover_without_its_version_in_any_order),
		cmocka_unit_test(test_series__change_id_parsing),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

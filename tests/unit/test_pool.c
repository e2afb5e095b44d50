// SPDX-License-Identifier: GPL-2.0-only
/*
 * The checker pool (pipeline_pool_*): mails offered one by one as they
 * are parsed are checked on other threads, their results consumed in
 * order, exactly as one thread would check them; a stop leaves nothing
 * under way; the pool serves batch after batch.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#define STORE_FIXTURE_DIR "/tmp/test_pool.XXXXXX"
#include "store_fixture.h"

#include "../../bot/config.h"
#include "../../bot/mail/mime.h"
#include "../../bot/pipeline.h"
#include "../../bot/mail/template.h"

#define NMAIL 40

struct pool_fx {
	struct fx *fx;
	struct config cfg;
	struct template_set *t;
	struct pipeline *p;
	struct mime_mail m[NMAIL];
	struct pipeline_check pc[NMAIL];
	/* what done() saw */
	size_t order[NMAIL];
	size_t nseen;
	size_t stop_at;		/* done() says stop at this one (NMAIL: never) */
	unsigned char skip[NMAIL];	/* offered with pc[i].skip set */
};

/*
 * Mail i: every fifth a reply (not a patch, so not checked), the others
 * a patch adding i % 4 + 1 lines that end in a space, one
 * TRAILING_WHITESPACE error each.
 */
static void make_mail(size_t i, struct mime_mail *m)
{
	char buf[4096];
	size_t k, lines = i % 4 + 1;
	int n;

	n = snprintf(buf, sizeof(buf),
		     "From: Dev %zu <dev%zu@example.org>\n"
		     "To: list@example.org\n"
		     "Subject: %s[PATCH] foo: change %zu\n"
		     "Message-ID: <pool-%zu@example.org>\n"
		     "Date: Mon, 1 Jun 2026 10:00:00 +0000\n"
		     "\n"
		     "Change %zu.\n\nSigned-off-by: Dev %zu <dev%zu@example.org>\n"
		     "---\n"
		     "diff --git a/foo.c b/foo.c\n"
		     "--- a/foo.c\n+++ b/foo.c\n@@ -1,1 +1,%zu @@\n int a;\n",
		     i, i, i % 5 == 4 ? "Re: " : "", i, i, i, i, i, lines + 1);
	for (k = 0; k < lines; k++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "+int b%zu; \n", k);
	assert_int_equal(mime_parse(buf, (size_t)n, m), MIME_OK);
}

static int pool_setup(void **state)
{
	struct pool_fx *px = calloc(1, sizeof(*px));
	char err[256];
	size_t i;

	if (!px || setup((void **)&px->fx))
		return -1;
	config_init(&px->cfg);
	if (template_set_load("templates", &px->t, err, sizeof(err)) ||
	    pipeline_new(px->fx->st, &px->cfg, px->t, PIPE_IMPORT, &px->p, err,
			 sizeof(err))) {
		fprintf(stderr, "pool_setup: %s\n", err);
		return -1;
	}
	for (i = 0; i < NMAIL; i++)
		make_mail(i, &px->m[i]);
	px->stop_at = NMAIL;
	*state = px;
	return 0;
}

static int pool_teardown(void **state)
{
	struct pool_fx *px = *state;
	void *fx = px->fx;
	size_t i;

	for (i = 0; i < NMAIL; i++) {
		mime_release(&px->m[i]);
		pipeline_check_release(&px->pc[i]);
	}
	pipeline_free(px->p);
	template_set_free(px->t);
	config_release(&px->cfg);
	free(px);
	return teardown(&fx);
}

static int seen(void *arg, size_t i)
{
	struct pool_fx *px = arg;

	px->order[px->nseen++] = i;
	/* what is handed over is complete */
	if (i % 5 == 4 || px->skip[i]) {
		assert_false(px->pc[i].done);
	} else {
		assert_true(px->pc[i].done);
		assert_int_equal(px->pc[i].res.errors, (long)(i % 4 + 1));
		assert_int_equal(px->pc[i].nadded, i % 4 + 1);
	}
	return i == px->stop_at;
}

static void release_checks(struct pool_fx *px)
{
	size_t i;

	for (i = 0; i < NMAIL; i++)
		pipeline_check_release(&px->pc[i]);
	px->nseen = 0;
}

/* Finishes a batch of all NMAIL: every one consumed, in order. */
static void finish_all(struct pool_fx *px, struct pipeline_pool *pp)
{
	size_t i;

	assert_int_equal(pipeline_pool_finish(pp, NMAIL, seen, px), 0);
	assert_int_equal(px->nseen, NMAIL);
	for (i = 0; i < NMAIL; i++)
		assert_int_equal(px->order[i], i);
	release_checks(px);
}

/* Offered one at a time, as a source parses them; consumed in order. */
static void test_pool__checks_in_order_as_mails_are_offered(void **state)
{
	struct pool_fx *px = *state;
	struct pipeline_pool *pp;
	int threads, round;
	size_t i;

	for (threads = 1; threads <= 4; threads++) {
		pp = pipeline_pool_new(px->p, px->m, px->pc, NMAIL, threads);
		assert_non_null(pp);
		/* two batches through one pool: it empties itself */
		for (round = 0; round < 2; round++) {
			for (i = 1; i <= NMAIL / 2; i++)
				pipeline_pool_offer(pp, i);
			finish_all(px, pp);
		}
		pipeline_pool_free(pp);
	}
}

/*
 * done() says stop: finish says so, what follows is not consumed, and
 * no check is under way once it returns (the caller frees the mails).
 * A drain with mails offered and none consumed does the same.
 */
static void test_pool__a_stop_or_drain_leaves_nothing_under_way(void **state)
{
	struct pool_fx *px = *state;
	struct pipeline_pool *pp;

	pp = pipeline_pool_new(px->p, px->m, px->pc, NMAIL, 3);
	assert_non_null(pp);
	px->stop_at = 7;
	assert_int_not_equal(pipeline_pool_finish(pp, NMAIL, seen, px), 0);
	assert_int_equal(px->nseen, 8);
	release_checks(px);

	pipeline_pool_offer(pp, NMAIL);
	pipeline_pool_drain(pp);
	release_checks(px);

	/* and the pool goes on: all of them, in order */
	px->stop_at = NMAIL;
	finish_all(px, pp);
	pipeline_pool_free(pp);

	/* freed with mails offered and not consumed */
	pp = pipeline_pool_new(px->p, px->m, px->pc, NMAIL, 2);
	assert_non_null(pp);
	pipeline_pool_offer(pp, NMAIL);
	pipeline_pool_free(pp);
}

/* A mail offered marked skip is handed over unchecked, and
 * pipeline_process still checks it when it needs the result. */
static void test_pool__a_mail_marked_skip_is_left_to_pipeline_process(void **state)
{
	struct pool_fx *px = *state;
	struct pipeline_pool *pp;
	struct pipeline_check pc;
	struct mime_mail m;
	char raw[4096];
	long long patches = 0, findings = 0;
	int64_t id = 0;
	size_t i;
	int n;

	pp = pipeline_pool_new(px->p, px->m, px->pc, NMAIL, 2);
	assert_non_null(pp);
	for (i = 0; i < NMAIL; i++) {
		px->skip[i] = i % 3 == 0;
		px->pc[i].skip = px->skip[i];
		pipeline_pool_offer(pp, i + 1);
	}
	finish_all(px, pp);
	pipeline_pool_free(pp);

	n = snprintf(raw, sizeof(raw),
		     "From: Dev <dev@example.org>\nTo: list@example.org\n"
		     "Subject: [PATCH] foo: skip\nMessage-ID: <skip@example.org>\n"
		     "Date: Mon, 1 Jun 2026 10:00:00 +0000\n\nSkip.\n\n"
		     "Signed-off-by: Dev <dev@example.org>\n---\n"
		     "diff --git a/foo.c b/foo.c\n--- a/foo.c\n+++ b/foo.c\n"
		     "@@ -1,1 +1,3 @@\n int a;\n+int b; \n+int c; \n");
	assert_int_equal(pipeline_add(px->p, NULL, raw, (size_t)n, 1, &id, &m), STORE_OK);
	memset(&pc, 0, sizeof(pc));
	pc.skip = 1;
	assert_true(pipeline_process(px->p, id, &m, &pc, 1) >= 0);
	assert_int_equal(store_patch_count(px->fx->st, &patches, &findings), STORE_OK);
	assert_int_equal(patches, 1);
	assert_int_equal(findings, 2);	/* the two trailing spaces */
	mime_release(&m);
}

static void parse_part(struct mime_mail *m, const char *from, const char *subject,
		       const char *msgid, const char *refs)
{
	char buf[1024];
	int n;

	n = snprintf(buf, sizeof(buf),
		     "From: %s\nSubject: %s\nMessage-ID: <%s>\n%s%s%s%s%s"
		     "Date: Mon, 1 Jun 2026 10:00:00 +0000\n\nbody\n",
		     from, subject, msgid,
		     refs ? "In-Reply-To: <" : "", refs ? refs : "", refs ? ">\n" : "",
		     refs ? "References: <" : "", refs ? refs : "");
	if (refs)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, ">\n");
	(void)n;
	memset(m, 0, sizeof(*m));
	assert_int_equal(mime_parse(buf, strlen(buf), m), MIME_OK);
}

/*
 * A part repeats an earlier one with the same list, author, thread root,
 * version, size and number; anything else is news, and so is every
 * plain [PATCH] and every part outside a thread.
 */
static void test_pool__repeat_parts_are_told_by_author_root_and_number(void **state)
{
	struct pool_fx *px = *state;
	struct config_source a = { .name = "a", .list = "a@example.org" };
	struct config_source b = { .name = "b", .list = "b@example.org" };
	const struct {
		const char *from, *subject, *msgid, *refs;
		const struct config_source *src;
		int repeat;
	} t[] = {
		{ "D <d@x.org>", "[PATCH v2 1/3] x: one", "p1", "c0", &a, 0 },
		{ "D <d@x.org>", "[PATCH v2 2/3] x: two", "p2", "c0", &a, 0 },
		{ "D <d@x.org>", "[PATCH v2 1/3] x: one", "p1b", "c0", &a, 1 },
		{ "D <d@x.org>", "[PATCH v2 2/3] x: two, again", "p2b", "c0", &a, 1 },
		{ "D <d@x.org>", "[PATCH v2 1/3] x: one", "p1c", "c0", &b, 0 },
		{ "E <e@x.org>", "[PATCH v2 1/3] x: one", "p1d", "c0", &a, 0 },
		{ "D <d@x.org>", "[PATCH v2 1/3] x: one", "p1e", "c9", &a, 0 },
		{ "D <d@x.org>", "[PATCH v3 1/3] x: one", "p1f", "c0", &a, 0 },
		{ "D <d@x.org>", "[PATCH v2 1/4] x: one", "p1g", "c0", &a, 0 },
		{ "D <d@x.org>", "[PATCH v2 3/3] x: three", "p3", "c0", &a, 0 },
		{ "D <d@x.org>", "[PATCH] x: plain", "q1", "c0", &a, 0 },
		{ "D <d@x.org>", "[PATCH] x: plain", "q2", "c0", &a, 0 },
		{ "D <d@x.org>", "[PATCH 1/2] x: loose", "r1", NULL, &a, 0 },
		{ "D <d@x.org>", "[PATCH 1/2] x: loose", "r2", NULL, &a, 0 },
		{ "D <d@x.org>", "Re: [PATCH v2 1/3] x: one", "s1", "c0", &a, 0 },
		{ "D <d@x.org>", "[PATCH v2 0/3] x", "c0b", "c0", &a, 0 },
	};
	struct mime_mail m;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		parse_part(&m, t[i].from, t[i].subject, t[i].msgid, t[i].refs);
		assert_int_equal(pipeline_repeat_part(px->p, t[i].src, &m), t[i].repeat);
		mime_release(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pool__checks_in_order_as_mails_are_offered,
						pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_pool__a_stop_or_drain_leaves_nothing_under_way,
						pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_pool__a_mail_marked_skip_is_left_to_pipeline_process,
						pool_setup, pool_teardown),
		cmocka_unit_test_setup_teardown(test_pool__repeat_parts_are_told_by_author_root_and_number,
						pool_setup, pool_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

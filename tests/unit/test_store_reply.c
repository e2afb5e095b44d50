// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of store/store_reply.c: the outbox: replies queued, claimed
 * once and marked, one review per series, opt-outs, mutes, caps, tokens,
 * forgetting an address, checkpoints.
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

#define STORE_FIXTURE_DIR "/tmp/test_store_reply.XXXXXX"
#include "store_fixture.h"
#include "store_rows.h"

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

	/* to anyone: the cap on all confirmations */
	assert_int_equal(store_reply_count_kind(fx->st, "confirm", NULL, 0, &n), STORE_OK);
	assert_int_equal(n, 3);
	assert_int_equal(store_reply_count_kind(fx->st, NULL, "a@x", 0, &n), STORE_ERR_RANGE);

	assert_int_equal(store_reply_find(fx->st, "c2@bot", &id), STORE_OK);
	assert_true(id > 0);
	assert_int_equal(store_reply_find(fx->st, "nope@bot", &id), STORE_DONE);
	assert_int_equal(store_reply_find(fx->st, NULL, &id), STORE_DONE);
}

/* What the caps look at: sent replies per author, list and kind with the
 * oldest one (the cap frees a place an hour after it); a reply held by
 * a cap waits, counted apart from those due; its recipients can change
 * while it waits; suppressed replies are counted by their reason. */
static void test_store__reply_caps_hold_and_recount(void **state)
{
	struct fx *fx = *state;
	struct ids c = { .st = fx->st };
	struct store_reply g;
	long long n;
	int64_t oldest, first, p1, p2, sup;

	add_sent(fx->st, "r1@bot", "review", "a@x", "l@x", 1000);
	add_sent(fx->st, "r2@bot", "followup", "a@x", "l@x", 1100);
	add_sent(fx->st, "c1@bot", "confirm", "a@x", NULL, 1050);
	add_sent(fx->st, "r3@bot", "review", "b@x", "m@x", 900);
	assert_int_equal(store_reply_sent_window(fx->st, 950, "a@x", NULL, 0, &n, &oldest),
			 STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(oldest, 1000);
	assert_int_equal(store_reply_sent_window(fx->st, 950, "a@x", NULL, 1, &n, &oldest),
			 STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(oldest, 1050);
	assert_int_equal(store_reply_sent_window(fx->st, 0, "a@x", NULL, -1, &n, NULL),
			 STORE_OK);
	assert_int_equal(n, 3);
	assert_int_equal(store_reply_sent_window(fx->st, 0, NULL, "m@x", -1, &n, &oldest),
			 STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(oldest, 900);
	assert_int_equal(store_reply_sent_window(fx->st, 2000, NULL, NULL, -1, &n, &oldest),
			 STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(oldest, 0);
	assert_int_equal(store_reply_sent_window(fx->st, 0, EVIL, EVIL, 0, &n, &oldest),
			 STORE_OK);
	assert_int_equal(n, 0);

	/* held until 4600: not due before, counted as waiting */
	p1 = add_reply(fx->st, "p1@bot", 1200, 1200);
	p2 = add_reply(fx->st, "p2@bot", 1200, 1200);
	assert_int_equal(store_reply_hold(fx->st, p1, "held by author_replies_per_hour", 4600),
			 STORE_OK);
	assert_int_equal(store_reply_each_due(fx->st, 1300, collect_id, &c), STORE_OK);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.v[0], p2);
	assert_int_equal(store_reply_count_waiting(fx->st, 1300, "held by ", &n, &first),
			 STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(first, 4600);
	/* a prefix is text, not a pattern */
	assert_int_equal(store_reply_count_waiting(fx->st, 1300, "held%", &n, &first),
			 STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_reply_count_waiting(fx->st, 4600, "held by ", &n, &first),
			 STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_reply_get(fx->st, p1, &g), STORE_OK);
	assert_int_equal(g.attempts, 0);
	assert_string_equal(g.reason, "held by author_replies_per_hour");
	store_reply_release(&g);

	/* new recipients while it waits (a private opt-out) */
	assert_int_equal(store_reply_set_rcpt(fx->st, p1, "a@x", NULL, "To: a@x\n\nhi\n"),
			 STORE_OK);
	assert_int_equal(store_reply_get(fx->st, p1, &g), STORE_OK);
	assert_string_equal(g.rcpt, "a@x");
	assert_null(g.list);
	assert_string_equal(g.body, "To: a@x\n\nhi\n");
	store_reply_release(&g);
	assert_int_equal(store_reply_set_rcpt(fx->st, p1, NULL, NULL, "x"), STORE_ERR_RANGE);

	/* only a pending reply is held or changed */
	assert_int_equal(store_reply_mark_suppressed(fx->st, p2, "too old"), STORE_OK);
	assert_int_equal(store_reply_hold(fx->st, p2, "held by x", 9000), STORE_DONE);
	assert_int_equal(store_reply_set_rcpt(fx->st, p2, "a@x", NULL, "x"), STORE_DONE);
	sup = add_reply(fx->st, "p3@bot", 1200, 1200);
	assert_int_equal(store_reply_mark_suppressed(fx->st, sup, "too old"), STORE_OK);
	assert_int_equal(store_reply_count_reason(fx->st, REPLY_SUPPRESSED, "too old", &n),
			 STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(store_reply_count_reason(fx->st, REPLY_PENDING, "too old", &n),
			 STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_reply_count_reason(fx->st, REPLY_SUPPRESSED, EVIL, &n),
			 STORE_OK);
	assert_int_equal(n, 0);
}

/* Two processes, one pending reply: only the first claim holds; the
 * claim goes with the reply's delivery, and a claim of a dead process
 * is taken over by naming it. */
static void test_store__reply_claim_is_taken_once(void **state)
{
	struct fx *fx = *state;
	struct store *other = NULL;
	struct store_reply g;
	char err[256];
	int64_t r1, r2;

	r1 = add_reply(fx->st, "r1@bot", 100, 0);
	r2 = add_reply(fx->st, "r2@bot", 100, 0);
	assert_int_equal(store_open(fx->path, &other, err, sizeof(err)), STORE_OK);
	assert_int_equal(store_reply_claim(fx->st, r1, "p1", NULL, 200), STORE_OK);
	assert_int_equal(store_reply_claim(other, r1, "p2", NULL, 201), STORE_DONE);
	assert_int_equal(store_reply_get(other, r1, &g), STORE_OK);
	assert_string_equal(g.claim, "p1");
	assert_int_equal(g.claimed_at, 200);
	store_reply_release(&g);
	/* sent: the claim is gone and nobody can take the reply again */
	assert_int_equal(store_reply_mark_sent(fx->st, r1, 210), STORE_OK);
	assert_int_equal(store_reply_get(other, r1, &g), STORE_OK);
	assert_null(g.claim);
	store_reply_release(&g);
	assert_int_equal(store_reply_claim(other, r1, "p2", NULL, 220), STORE_DONE);
	/* p1 dies holding r2: p2 takes it over, naming p1's claim */
	assert_int_equal(store_reply_claim(fx->st, r2, "p1", NULL, 300), STORE_OK);
	assert_int_equal(store_reply_claim(other, r2, "p2", NULL, 301), STORE_DONE);
	assert_int_equal(store_reply_claim(other, r2, "p2", "p1", 302), STORE_OK);
	assert_int_equal(store_reply_claim(fx->st, r2, "p1", "p1", 303), STORE_DONE);
	/* deferred: the claim is given up with it */
	assert_int_equal(store_reply_defer(other, r2, "421", 400), STORE_OK);
	assert_int_equal(store_reply_get(fx->st, r2, &g), STORE_OK);
	assert_null(g.claim);
	assert_int_equal(g.attempts, 1);
	store_reply_release(&g);
	assert_int_equal(store_reply_claim(fx->st, r2, NULL, NULL, 500), STORE_ERR_RANGE);
	store_close(other);
}

/* Reviews go before confirmations, whatever their age; the budgets
 * count each kind apart. */
static void test_store__due_reviews_before_confirmations(void **state)
{
	struct fx *fx = *state;
	struct ids c = { .st = fx->st };
	long long n;
	int64_t c1, c2, rv, fu;

	c1 = add_sent(fx->st, "c1@bot", "confirm", "a@x", NULL, 0);
	c2 = add_sent(fx->st, "c2@bot", "confirm", "b@x", NULL, 0);
	rv = add_sent(fx->st, "rv@bot", "review", "c@x", "l@x", 0);
	fu = add_sent(fx->st, "fu@bot", "followup", "c@x", "l@x", 0);
	assert_int_equal(store_reply_each_due(fx->st, 1000, collect_id, &c), STORE_OK);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.v[0], rv);
	assert_int_equal(c.v[1], fu);
	assert_int_equal(c.v[2], c1);
	assert_int_equal(c.v[3], c2);
	assert_int_equal(store_reply_mark_sent(fx->st, c1, 900), STORE_OK);
	assert_int_equal(store_reply_mark_sent(fx->st, c2, 900), STORE_OK);
	assert_int_equal(store_reply_mark_sent(fx->st, rv, 900), STORE_OK);
	assert_int_equal(store_reply_count_sent_kind(fx->st, 800, "confirm", 1, &n), STORE_OK);
	assert_int_equal(n, 2);
	assert_int_equal(store_reply_count_sent_kind(fx->st, 800, "confirm", 0, &n), STORE_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_reply_count_sent_kind(fx->st, 901, "confirm", 1, &n), STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_reply_count_sent_kind(fx->st, 0, EVIL, 1, &n), STORE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_reply_count_sent_kind(fx->st, 0, NULL, 1, &n), STORE_ERR_RANGE);
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

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_store__replies_queue_and_states),
		T(test_store__one_review_per_series),
		T(test_store__optout_set_get_remove),
		T(test_store__reply_author_list_and_counts_per_cap),
		T(test_store__reply_caps_hold_and_recount),
		T(test_store__reply_claim_is_taken_once),
		T(test_store__due_reviews_before_confirmations),
		T(test_store__mutes_by_thread_root),
		T(test_store__tokens_work_once_for_their_address_in_time),
		T(test_store__forget_address_deletes_its_history_only),
		T(test_store__checkpoints_set_get_each),
	};

	return cmocka_run_group_tests_name("store_reply", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipeline_process_pending and the attempts charged before a check: a
 * message still charged by a process that is gone is checked once more
 * in a child process, and marked bad when that check does not finish
 * either (here: the test hook kills the child), processed when it does;
 * one a live process holds is left to it until that process is gone;
 * one left by a stop is charged and processed; what this process
 * charged and did not finish is given back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>

#define STORE_FIXTURE_DIR "/tmp/test_pending.XXXXXX"
#include "store_fixture.h"

#include "../../bot/claim.h"
#include "../../bot/config.h"
#include "../../bot/mail/mime.h"
#include "../../bot/pipeline.h"
#include "../../bot/pipeline_int.h"
#include "../../bot/mail/template.h"

/* a name of a process that is gone: this host, a boot long past */
static char dead[CLAIM_MAX];
#define DEAD dead

static void name_dead(void)
{
	char host[CLAIM_MAX];

	assert_int_equal(sscanf(claim_self(), "%191s", host), 1);
	snprintf(dead, sizeof(dead), "%.64s 00000000-0000-0000-0000-000000000000 1 1", host);
}

static int64_t add_patch_mail(struct pipeline *p, const char *tag)
{
	char buf[1024];
	struct mime_mail m;
	int64_t id = 0;
	int n;

	n = snprintf(buf, sizeof(buf),
		     "From: Dev <dev-%s@example.org>\nTo: list@example.org\n"
		     "Subject: [PATCH] foo: %s\nMessage-ID: <%s@example.org>\n"
		     "Date: Mon, 1 Jun 2026 10:00:00 +0000\n\nChange.\n\n"
		     "Signed-off-by: Dev <dev-%s@example.org>\n---\n"
		     "--- a/foo.c\n+++ b/foo.c\n@@ -1,1 +1,2 @@\n int a;\n+int %s; \n",
		     tag, tag, tag, tag, tag);
	assert_int_equal(pipeline_add(p, NULL, buf, (size_t)n, 100, &id, &m), STORE_OK);
	mime_release(&m);
	return id;
}

/* what a crashed process left: its claim and attempts, by SQL */
static void set_claim(const char *path, int64_t id, const char *claim, int attempts)
{
	sqlite3 *db;
	sqlite3_stmt *s;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	assert_int_equal(sqlite3_prepare_v2(db, "UPDATE messages SET claim = ?1,"
					    " claimed_at = ?2, attempts = ?3 WHERE id = ?4",
					    -1, &s, NULL), SQLITE_OK);
	if (claim)
		sqlite3_bind_text(s, 1, claim, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, 100);
	sqlite3_bind_int(s, 3, attempts);
	sqlite3_bind_int64(s, 4, id);
	assert_int_equal(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	sqlite3_close(db);
}

static void test_pending__attempts_decide_and_a_live_holder_keeps_its_message(void **state)
{
	struct fx *fx = *state;
	struct config cfg;
	struct template_set *t = NULL;
	struct pipeline *p = NULL;
	struct store_msg m;
	char err[256], live[CLAIM_MAX] = "";
	int fds[2], status;
	int64_t a, b, c, d;
	pid_t child;
	ssize_t r;

	/* a live holder: a child that names itself, then waits to be killed
	 * (before this process computes its own name, which it would
	 * inherit) */
	assert_int_equal(pipe(fds), 0);
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		const char *me = claim_self();

		/* never outlives a failed test for long */
		alarm(60);
		if (write(fds[1], me, strlen(me) + 1) < 0)
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	r = read(fds[0], live, sizeof(live) - 1);
	close(fds[0]);
	assert_true(r > 0);
	assert_string_not_equal(live, claim_self());
	name_dead();

	config_init(&cfg);
	cfg.series_wait = 0;
	assert_int_equal(template_set_load("templates", &t, err, sizeof(err)), 0);
	/* a check that kills its process (in the child only) */
	setenv("REVIEWBOT_TEST_CRASH_ON", "int a_poison;", 1);
	assert_int_equal(pipeline_new(fx->st, &cfg, t, PIPE_RUN, &p, err, sizeof(err)), 0);
	unsetenv("REVIEWBOT_TEST_CRASH_ON");
	assert_int_equal(store_begin(fx->st), STORE_OK);
	a = add_patch_mail(p, "a_poison");
	b = add_patch_mail(p, "b");
	c = add_patch_mail(p, "c");
	d = add_patch_mail(p, "d");
	assert_int_equal(store_commit(fx->st), STORE_OK);
	/* stored: claimed by this process, one attempt charged */
	assert_int_equal(store_msg_get(fx->st, a, &m), STORE_OK);
	assert_int_equal(m.attempts, 1);
	assert_string_equal(m.claim, pipeline_claim(p));
	store_msg_release(&m);

	set_claim(fx->path, a, DEAD, 1);	/* the process died checking it */
	set_claim(fx->path, b, DEAD, 1);	/* ... or merely holding it */
	set_claim(fx->path, c, live, 1);	/* in hand elsewhere */
	set_claim(fx->path, d, NULL, 0);	/* left by a stop */
	assert_int_equal(pipeline_process_pending(p, 200), 0);

	assert_int_equal(store_msg_get(fx->st, a, &m), STORE_OK);
	assert_int_equal(m.state, MSG_BAD);
	assert_string_equal(m.reason, "check did not finish after 2 attempts");
	assert_int_equal(m.attempts, 0);
	assert_null(m.claim);
	assert_int_equal(m.series_id, 0);
	store_msg_release(&m);
	assert_int_equal(store_msg_get(fx->st, b, &m), STORE_OK);
	assert_int_equal(m.state, MSG_PATCH);
	assert_int_equal(m.attempts, 0);
	assert_null(m.claim);
	store_msg_release(&m);
	assert_int_equal(store_msg_get(fx->st, c, &m), STORE_OK);
	assert_int_equal(m.state, MSG_NEW);
	assert_int_equal(m.attempts, 1);
	assert_string_equal(m.claim, live);
	store_msg_release(&m);
	assert_int_equal(store_msg_get(fx->st, d, &m), STORE_OK);
	assert_int_equal(m.state, MSG_PATCH);
	store_msg_release(&m);
	assert_int_equal(pipeline_stats(p)->bad, 1);
	assert_int_equal(pipeline_stats(p)->patches, 2);

	/* the holder dies: its message is taken over, a second attempt */
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(pipeline_process_pending(p, 300), 0);
	assert_int_equal(store_msg_get(fx->st, c, &m), STORE_OK);
	assert_int_equal(m.state, MSG_PATCH);
	assert_null(m.claim);
	store_msg_release(&m);

	pipeline_free(p);
	template_set_free(t);
	config_release(&cfg);
}

/* A stop before the walk: nothing charged, nothing taken. */
static void test_pending__a_stop_charges_nothing(void **state)
{
	struct fx *fx = *state;
	static volatile sig_atomic_t stop = 1;
	struct config cfg;
	struct template_set *t = NULL;
	struct pipeline *p = NULL;
	struct store_msg m;
	char err[256];
	int64_t a;

	name_dead();
	config_init(&cfg);
	assert_int_equal(template_set_load("templates", &t, err, sizeof(err)), 0);
	assert_int_equal(pipeline_new(fx->st, &cfg, t, PIPE_RUN, &p, err, sizeof(err)), 0);
	assert_int_equal(store_begin(fx->st), STORE_OK);
	a = add_patch_mail(p, "a");
	assert_int_equal(store_commit(fx->st), STORE_OK);
	set_claim(fx->path, a, DEAD, 1);
	pipeline_set_stop(p, &stop);
	assert_int_equal(pipeline_process_pending(p, 200), 0);
	assert_int_equal(store_msg_get(fx->st, a, &m), STORE_OK);
	assert_int_equal(m.state, MSG_NEW);
	assert_int_equal(m.attempts, 1);
	assert_string_equal(m.claim, DEAD);
	store_msg_release(&m);
	/* and what this process charged itself is given back */
	set_claim(fx->path, a, pipeline_claim(p), 2);
	assert_int_equal(pipeline_unclaim(p), 0);
	assert_int_equal(store_msg_get(fx->st, a, &m), STORE_OK);
	assert_int_equal(m.attempts, 1);
	assert_null(m.claim);
	store_msg_release(&m);
	pipeline_free(p);
	template_set_free(t);
	config_release(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_pending__attempts_decide_and_a_live_holder_keeps_its_message,
			setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending__a_stop_charges_nothing,
						setup, teardown),
	};

	return cmocka_run_group_tests_name("pending", tests, NULL, NULL);
}

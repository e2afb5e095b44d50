// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stages' sandbox (bot/stage/sandbox.c) with the real bubblewrap: what a
 * command inside sees and cannot do, that it dies with its deadline, and
 * the helpers that handle what a sandbox wrote without following its
 * links.  Needs bwrap and user namespaces (deploy/install-deps.sh
 * installs bubblewrap); as root the commands run as nobody.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../bot/config.h"
#include "../../bot/stage/sandbox.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct fx {
	char dir[64];		/* a folder of the test's, 0755 */
	char rw[128];		/* dir/rw, the sandbox's user owns it */
	char ro[128];		/* dir/ro, read-only inside */
	char hidden[128];	/* dir/hidden, never shown */
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0644), 0);
}

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char p[256];

	assert_non_null(fx);
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/rb-sandbox-XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	assert_int_equal(chmod(fx->dir, 0755), 0);
	snprintf(fx->rw, sizeof(fx->rw), "%s/rw", fx->dir);
	snprintf(fx->ro, sizeof(fx->ro), "%s/ro", fx->dir);
	snprintf(fx->hidden, sizeof(fx->hidden), "%s/hidden", fx->dir);
	assert_int_equal(sandbox_mkdir_owned(fx->rw), 0);
	assert_int_equal(mkdir(fx->ro, 0755), 0);
	assert_int_equal(mkdir(fx->hidden, 0755), 0);
	snprintf(p, sizeof(p), "%s/file", fx->ro);
	put(p, "read-only text\n");
	snprintf(p, sizeof(p), "%s/secret", fx->hidden);
	put(p, "hunter2\n");
	*state = fx;
	return 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	nftw(fx->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(fx);
	return 0;
}

/* sh -c script in a sandbox seeing fx->ro read-only and fx->rw writable */
static enum sandbox_result sh(const struct fx *fx, const char *script, double secs,
			      struct sbuf *out, struct sandbox *sb)
{
	const char *const argv[] = { "sh", "-c", script, NULL };

	sandbox_init(sb, NULL, now_s() + secs);
	sandbox_ro(sb, fx->ro);
	sandbox_rw(sb, fx->rw);
	sandbox_chdir(sb, fx->rw);
	return sandbox_run(sb, argv, out, NULL);
}

/* Without bwrap on PATH the stages refuse and say what to install (run
 * first: a success is remembered for the process). */
static void test_sandbox__missing_bwrap_is_refused_with_why(void **state)
{
	char *old = strdup(getenv("PATH"));
	char err[512];

	(void)state;
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(sandbox_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bubblewrap"));
	assert_non_null(strstr(err, "not found"));
	setenv("PATH", old, 1);
	free(old);
	assert_int_equal(sandbox_check(err, sizeof(err)), 0);
}

static void test_sandbox__sees_only_what_it_is_given(void **state)
{
	struct fx *fx = *state;
	struct sandbox sb;
	struct sbuf out;
	char script[1024];

	sbuf_init(&out, 1 << 20);
	snprintf(script, sizeof(script),
		 "cat %s/file; echo x > %s/made && echo rw-ok; "
		 "echo x > %s/file 2>/dev/null || echo ro-refused; "
		 "cat %s/secret 2>/dev/null || echo hidden-absent; "
		 "[ -e /etc/passwd ] || echo no-passwd; [ -e /root ] || echo no-root; "
		 "[ -e /var ] || echo no-var; echo \"home=$HOME\"; "
		 "[ -z \"$RB_SANDBOX_TEST_LEAK\" ] && echo env-clean; "
		 "echo uid=$(id -u); hostname",
		 fx->ro, fx->rw, fx->ro, fx->hidden);
	setenv("RB_SANDBOX_TEST_LEAK", "leaked", 1);
	assert_int_equal(sh(fx, script, 30, &out, &sb), SANDBOX_OK);
	unsetenv("RB_SANDBOX_TEST_LEAK");
	assert_non_null(strstr(out.buf, "read-only text"));
	assert_non_null(strstr(out.buf, "rw-ok"));
	assert_non_null(strstr(out.buf, "ro-refused"));
	assert_non_null(strstr(out.buf, "hidden-absent"));
	assert_null(strstr(out.buf, "hunter2"));
	assert_non_null(strstr(out.buf, "no-passwd"));
	assert_non_null(strstr(out.buf, "no-root"));
	assert_non_null(strstr(out.buf, "no-var"));
	assert_non_null(strstr(out.buf, "home=/tmp"));
	assert_non_null(strstr(out.buf, "env-clean"));
	assert_null(strstr(out.buf, "uid=0\n"));
	assert_non_null(strstr(out.buf, "reviewbot-sandbox"));
	sbuf_release(&out);
}

static void test_sandbox__has_no_network(void **state)
{
	struct fx *fx = *state;
	struct sandbox sb;
	struct sbuf out;

	sbuf_init(&out, 1 << 20);
	/* only a loopback device, and it is not the host's */
	assert_int_equal(sh(fx, "grep -c : /proc/net/dev; "
			    "python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 53), 2)' "
			    "2>&1 | tail -n 1", 30, &out, &sb), SANDBOX_OK);
	assert_non_null(strstr(out.buf, "1\n"));
	assert_non_null(strstr(out.buf, "unreachable"));
	sbuf_release(&out);
}

static void test_sandbox__exit_status_and_no_start(void **state)
{
	struct fx *fx = *state;
	const char *const missing[] = { "no-such-program-rb", NULL };
	struct sandbox sb;

	assert_int_equal(sh(fx, "exit 3", 30, NULL, &sb), SANDBOX_FAILED);
	assert_true(WIFEXITED(sb.status) && WEXITSTATUS(sb.status) == 3);
	assert_int_equal(sh(fx, "kill -9 $$", 30, NULL, &sb), SANDBOX_FAILED);
	sandbox_init(&sb, NULL, now_s() + 30);
	assert_int_equal(sandbox_run(&sb, missing, NULL, NULL), SANDBOX_NOSTART);
	assert_non_null(strstr(sb.why, "no-such-program-rb"));
	/* a mount of a folder that is not there: refused before bwrap */
	sandbox_init(&sb, NULL, now_s() + 30);
	sandbox_ro(&sb, "/nonexistent/rb-folder");
	assert_int_equal(sandbox_run(&sb, missing, NULL, NULL), SANDBOX_NOSTART);
	/* a relative path is no mount */
	sandbox_init(&sb, NULL, now_s() + 30);
	sandbox_rw(&sb, "relative/path");
	assert_int_equal(sandbox_run(&sb, missing, NULL, NULL), SANDBOX_NOSTART);
}

/* The deadline kills the command and everything it started, detached
 * children included. */
static void test_sandbox__deadline_kills_everything(void **state)
{
	struct fx *fx = *state;
	struct sandbox sb;
	char script[768], late[256];
	double t0 = now_s();

	snprintf(late, sizeof(late), "%s/late", fx->rw);
	snprintf(script, sizeof(script),
		 "(sleep 2; touch %s) & setsid sh -c 'sleep 2; touch %s.2' & sleep 60",
		 late, late);
	assert_int_equal(sh(fx, script, 0.5, NULL, &sb), SANDBOX_TIMEOUT);
	assert_true(now_s() - t0 < 5);
	sleep(3);
	assert_int_not_equal(access(late, F_OK), 0);
	strcat(late, ".2");
	assert_int_not_equal(access(late, F_OK), 0);
}

static void test_sandbox__limits_hold(void **state)
{
	struct fx *fx = *state;
	struct sandbox sb;
	struct sbuf out;
	struct sandbox_limits lim;
	const char *const argv[] = { "sh", "-c",
		"cat /proc/self/limits; head -c 3000000 /dev/zero > big", NULL };

	sbuf_init(&out, 1 << 20);
	sandbox_default_limits(&lim, 60);
	lim.fsize_bytes = 1u << 20;
	sandbox_init(&sb, &lim, now_s() + 30);
	sandbox_rw(&sb, fx->rw);
	sandbox_chdir(&sb, fx->rw);
	/* head is killed by SIGXFSZ at the file size limit */
	assert_int_equal(sandbox_run(&sb, argv, &out, NULL), SANDBOX_FAILED);
	assert_non_null(strstr(out.buf, "Max address space         4294967296"));
	assert_non_null(strstr(out.buf, "Max processes             512"));
	assert_non_null(strstr(out.buf, "Max core file size        0"));
	assert_non_null(strstr(out.buf, "Max cpu time              65"));
	{
		char p[256];
		struct stat st;

		snprintf(p, sizeof(p), "%s/big", fx->rw);
		assert_int_equal(stat(p, &st), 0);
		assert_true(st.st_size <= (1 << 20));
	}
	sbuf_release(&out);
}

/* Output past the buffer's cap is read and dropped: the command is not
 * blocked on a full pipe, and the buffer holds the cap. */
static void test_sandbox__output_is_capped(void **state)
{
	struct fx *fx = *state;
	struct sandbox sb;
	struct sbuf out;

	sbuf_init(&out, 4096);
	assert_int_equal(sh(fx, "head -c 5000000 /dev/zero | tr '\\0' x; echo done", 30, &out, &sb),
			 SANDBOX_OK);
	assert_true(out.len <= 4096);
	sbuf_release(&out);
}

/* A tree a sandbox wrote, with links out of it and deeper than the host's
 * walk: removed, what the links point at untouched. */
static void test_sandbox__rmtree_never_follows_links(void **state)
{
	struct fx *fx = *state;
	struct sandbox sb;
	char script[1024], t[256], target[256];

	snprintf(t, sizeof(t), "%s/tree", fx->rw);
	snprintf(target, sizeof(target), "%s/file", fx->ro);
	snprintf(script, sizeof(script),
		 "mkdir -p tree/a && ln -s %s tree/a/link && ln -s %s tree/dirlink && "
		 "mkfifo tree/fifo && cd tree && i=0; while [ $i -lt 300 ]; do mkdir d; cd d; "
		 "i=$((i+1)); done; echo deep > f",
		 target, fx->ro);
	assert_int_equal(sh(fx, script, 60, NULL, &sb), SANDBOX_OK);
	assert_int_equal(sandbox_rmtree(t), 0);
	assert_int_not_equal(access(t, F_OK), 0);
	assert_int_equal(access(target, R_OK), 0);
	/* a missing path is no error; a bad one is */
	assert_int_equal(sandbox_rmtree(t), 0);
	assert_int_equal(sandbox_rmtree("relative"), -1);
}

static void test_sandbox__files_from_a_sandbox_are_read_as_files_only(void **state)
{
	struct fx *fx = *state;
	struct sandbox sb;
	char script[512], p[256];
	char *buf;
	size_t len;

	snprintf(script, sizeof(script), "ln -s %s/secret link && mkfifo fifo && "
		 "printf 0123456789 > ten", fx->hidden);
	assert_int_equal(sh(fx, script, 30, NULL, &sb), SANDBOX_OK);
	snprintf(p, sizeof(p), "%s/link", fx->rw);
	assert_int_equal(sandbox_read_file(p, 100, 0, &buf, &len), -1);
	snprintf(p, sizeof(p), "%s/fifo", fx->rw);
	assert_int_equal(sandbox_read_file(p, 100, 0, &buf, &len), -1);	/* not blocked */
	snprintf(p, sizeof(p), "%s/ten", fx->rw);
	assert_int_equal(sandbox_read_file(p, 5, 0, &buf, &len), -1);
	assert_int_equal(sandbox_read_file(p, 5, 1, &buf, &len), 0);
	assert_int_equal(len, 5);
	assert_string_equal(buf, "01234");
	free(buf);
	assert_int_equal(sandbox_read_file(p, 100, 0, &buf, &len), 0);
	assert_string_equal(buf, "0123456789");
	free(buf);
	/* written anew only: never over what is there, never through a link */
	snprintf(p, sizeof(p), "%s/link", fx->rw);
	assert_int_equal(sandbox_write_new(p, "x", 1, 0644), -1);
	snprintf(p, sizeof(p), "%s/ten", fx->rw);
	assert_int_equal(sandbox_write_new(p, "x", 1, 0644), -1);
	snprintf(p, sizeof(p), "%s/hidden/secret", fx->dir);
	assert_int_equal(sandbox_read_file(p, 100, 0, &buf, &len), 0);
	assert_string_equal(buf, "hunter2\n");
	free(buf);
	snprintf(p, sizeof(p), "%s/new", fx->rw);
	assert_int_equal(sandbox_write_new(p, "new\n", 4, 0644), 0);
}

/* A configuration that would show the bot's own files to the stages is
 * refused, saying which; one that keeps them apart is accepted. */
static void test_sandbox__config_keeps_secrets_out_of_sight(void **state)
{
	struct fx *fx = *state;
	struct config c;
	char err[1024], db[300], pw[300], tree[256], work[256];

	memset(&c, 0, sizeof(c));
	snprintf(tree, sizeof(tree), "%s/linux", fx->ro);
	snprintf(work, sizeof(work), "%s/work", fx->dir);
	snprintf(db, sizeof(db), "%s/db/reviewbot.db", fx->hidden);
	snprintf(pw, sizeof(pw), "%s/smtp.password", fx->hidden);
	assert_int_equal(mkdir(tree, 0755), 0);
	c.build_tree = tree;
	c.build_work = work;
	c.database = db;
	c.delivery = DELIVER_SMTP;
	c.delivery_password_file = pw;
	if (sandbox_config_check(&c, err, sizeof(err)))
		fail_msg("%s", err);
	/* the password file in the work folder */
	snprintf(pw, sizeof(pw), "%s/work/smtp.password", fx->dir);
	assert_int_equal(sandbox_config_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "[delivery] password_file"));
	assert_non_null(strstr(err, "[build] work"));
	/* the database in the tree */
	snprintf(pw, sizeof(pw), "%s/smtp.password", fx->hidden);
	snprintf(db, sizeof(db), "%s/reviewbot.db", tree);
	assert_int_equal(sandbox_config_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "[bot] database"));
	assert_non_null(strstr(err, "[build] tree"));
	/* no stage: nothing to check */
	c.build_tree = NULL;
	assert_int_equal(sandbox_config_check(&c, err, sizeof(err)), 0);
}

/* As root the sandbox runs as nobody, who must reach the tree: a 0700
 * folder on the way is named at run -n, not at the first series. */
static void test_sandbox__config_tree_out_of_reach_is_named(void **state)
{
	struct fx *fx = *state;
	struct config c;
	char err[1024], tree[300], walled[256];

	if (geteuid() != 0)
		skip();
	snprintf(walled, sizeof(walled), "%s/walled", fx->dir);
	snprintf(tree, sizeof(tree), "%s/linux", walled);
	assert_int_equal(mkdir(walled, 0700), 0);
	assert_int_equal(mkdir(tree, 0755), 0);
	memset(&c, 0, sizeof(c));
	c.build_tree = tree;
	c.database = "/nonexistent/db/reviewbot.db";
	assert_int_equal(sandbox_config_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot reach"));
	assert_non_null(strstr(err, "nobody"));
	assert_int_equal(chmod(walled, 0755), 0);
	assert_int_equal(sandbox_config_check(&c, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sandbox__missing_bwrap_is_refused_with_why),
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_sandbox__sees_only_what_it_is_given),
		T(test_sandbox__has_no_network),
		T(test_sandbox__exit_status_and_no_start),
		T(test_sandbox__deadline_kills_everything),
		T(test_sandbox__limits_hold),
		T(test_sandbox__output_is_capped),
		T(test_sandbox__rmtree_never_follows_links),
		T(test_sandbox__files_from_a_sandbox_are_read_as_files_only),
		T(test_sandbox__config_keeps_secrets_out_of_sight),
		T(test_sandbox__config_tree_out_of_reach_is_named),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

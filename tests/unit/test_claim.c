// SPDX-License-Identifier: GPL-2.0-only
/*
 * claim: this process's name, and whether another name's holder lives:
 * a live process holds however old its claim, a dead one, one whose
 * process id was used again, or one of a past boot does not; another
 * host's claim holds until it is CLAIM_TTL old.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../bot/claim.h"

/* the name with its field k (0: host, 1: boot, 2: pid, 3: start) set to v */
static void with_field(const char *name, int k, const char *v, char *out, size_t n)
{
	char f[4][CLAIM_MAX], all[4 * CLAIM_MAX + 4];

	assert_int_equal(sscanf(name, "%191s %191s %191s %191s", f[0], f[1], f[2], f[3]), 4);
	snprintf(f[k], sizeof(f[k]), "%s", v);
	snprintf(all, sizeof(all), "%s %s %s %s", f[0], f[1], f[2], f[3]);
	assert_true(strlen(all) < n);
	memcpy(out, all, strlen(all) + 1);
}

static void test_claim__self_is_four_words_and_holds(void **state)
{
	const char *me = claim_self();
	char pid[32], f[4][CLAIM_MAX];

	(void)state;
	assert_ptr_equal(claim_self(), me);
	assert_int_equal(sscanf(me, "%191s %191s %191s %191s", f[0], f[1], f[2], f[3]), 4);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	assert_string_equal(f[2], pid);
	assert_true(strtoull(f[3], NULL, 10) > 0);
	assert_true(claim_holds(me, 1000, 1000));
	/* a live holder's claim holds however old */
	assert_true(claim_holds(me, 1000, 1000 + 10 * CLAIM_TTL));
	assert_false(claim_holds(NULL, 1000, 1000));
}

static void test_claim__a_dead_process_holds_nothing(void **state)
{
	char name[CLAIM_MAX], pid[32];
	pid_t child;

	(void)state;
	child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	snprintf(pid, sizeof(pid), "%ld", (long)child);
	with_field(claim_self(), 2, pid, name, sizeof(name));
	assert_false(claim_holds(name, 1000, 1001));
}

/* The start time of pid, field 22 of /proc/PID/stat, and its state. */
static unsigned long long stat_of(pid_t pid, char *st)
{
	char path[64], buf[1024], *p;
	FILE *f;
	int field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	p = strrchr(buf, ')');
	assert_non_null(p);
	*st = p[2];
	for (field = 2; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	return strtoull(p, NULL, 10);
}

/* Killed with its parent, not reaped yet: a zombie holds nothing (a
 * worker killed with the daemon that started it). */
static void test_claim__a_zombie_holds_nothing(void **state)
{
	char name[CLAIM_MAX], pid[32], start[32], st = '?';
	unsigned long long ticks = 0;
	pid_t child;
	int i;

	(void)state;
	child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(0);
	for (i = 0; i < 500 && st != 'Z'; i++) {
		ticks = stat_of(child, &st);
		if (st != 'Z')
			usleep(10 * 1000);
	}
	assert_int_equal(st, 'Z');
	snprintf(pid, sizeof(pid), "%ld", (long)child);
	snprintf(start, sizeof(start), "%llu", ticks);
	with_field(claim_self(), 2, pid, name, sizeof(name));
	with_field(name, 3, start, name, sizeof(name));
	assert_false(claim_holds(name, 1000, 1001));
	assert_int_equal(waitpid(child, NULL, 0), child);
}

static void test_claim__a_process_id_used_again_holds_nothing(void **state)
{
	char name[CLAIM_MAX], ppid[32];

	(void)state;
	/* our parent lives, but did not start at our start time */
	snprintf(ppid, sizeof(ppid), "%ld", (long)getppid());
	with_field(claim_self(), 2, ppid, name, sizeof(name));
	assert_false(claim_holds(name, 1000, 1001));
	/* ours, with another start time */
	with_field(claim_self(), 3, "1", name, sizeof(name));
	assert_false(claim_holds(name, 1000, 1001));
}

static void test_claim__a_past_boot_holds_nothing(void **state)
{
	char name[CLAIM_MAX];

	(void)state;
	with_field(claim_self(), 1, "00000000-0000-0000-0000-000000000000", name, sizeof(name));
	assert_false(claim_holds(name, 1000, 1001));
}

static void test_claim__another_host_or_junk_holds_until_old(void **state)
{
	char name[CLAIM_MAX];

	(void)state;
	with_field(claim_self(), 0, "elsewhere.example.org", name, sizeof(name));
	assert_true(claim_holds(name, 1000, 1000 + CLAIM_TTL - 1));
	assert_false(claim_holds(name, 1000, 1000 + CLAIM_TTL));
	assert_true(claim_holds("junk", 1000, 1001));
	assert_true(claim_holds("h b -5 7", 1000, 1001));
	assert_false(claim_holds("junk", 1000, 1000 + CLAIM_TTL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claim__self_is_four_words_and_holds),
		cmocka_unit_test(test_claim__a_dead_process_holds_nothing),
		cmocka_unit_test(test_claim__a_zombie_holds_nothing),
		cmocka_unit_test(test_claim__a_process_id_used_again_holds_nothing),
		cmocka_unit_test(test_claim__a_past_boot_holds_nothing),
		cmocka_unit_test(test_claim__another_host_or_junk_holds_until_old),
	};

	return cmocka_run_group_tests_name("claim", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bot/kversion.c: the checkpatch.pl version of the bot's reviews, from
 * [checker] checkpatch_version or the kernel tree's Makefile.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../bot/kversion.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_kversion.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/Makefile", dir);
	unlink(path);
	return rmdir(dir);
}

static void makefile(const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/Makefile", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_kversion__reads_the_tree_makefile(void **state)
{
	char why[512], note[256];
	int major = -1, minor = -1;

	(void)state;
	makefile("# SPDX-License-Identifier: GPL-2.0\nVERSION = 6\nPATCHLEVEL = 12\n"
		 "SUBLEVEL = 118\nEXTRAVERSION =\nNAME = Baby Opossum Posse\n");
	assert_int_equal(kversion_of_tree(dir, &major, &minor, why, sizeof(why)), 0);
	assert_int_equal(major, 6);
	assert_int_equal(minor, 12);
	assert_int_equal(kversion_checkpatch("auto", dir, note, sizeof(note)), CP_6_12);
	assert_string_equal(note, "the tree's kernel 6.12");
	makefile("VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n");
	assert_int_equal(kversion_checkpatch("auto", dir, note, sizeof(note)), CP_6_1);
	assert_int_equal(kversion_checkpatch(NULL, dir, NULL, 0), CP_6_1);
	/* the nearest supported one */
	makefile("VERSION=6\nPATCHLEVEL=6\n");
	assert_int_equal(kversion_checkpatch("auto", dir, note, sizeof(note)), CP_6_1);
	makefile("VERSION = 6\nPATCHLEVEL = 15\n");
	assert_int_equal(kversion_checkpatch("auto", dir, note, sizeof(note)), CP_6_12);
	makefile("VERSION = 5\nPATCHLEVEL = 10\n");
	assert_int_equal(kversion_checkpatch("auto", dir, note, sizeof(note)), CP_6_1);
	/* a setting wins over the tree */
	assert_int_equal(kversion_checkpatch("6.12", dir, note, sizeof(note)), CP_6_12);
	assert_string_equal(note, "[checker] checkpatch_version");
}

static void test_kversion__unknown_tree_is_the_newest(void **state)
{
	char why[512], note[256];
	int major, minor;

	(void)state;
	makefile("EXTRAVERSION = 6\nNAME = x\n");
	assert_int_equal(kversion_of_tree(dir, &major, &minor, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no VERSION and PATCHLEVEL"));
	assert_int_equal(kversion_checkpatch("auto", dir, note, sizeof(note)), CP_LATEST);
	assert_non_null(strstr(note, "the newest (the tree's version unknown"));
	makefile("VERSION = six\nPATCHLEVEL = 1\n");
	assert_int_equal(kversion_of_tree(dir, &major, &minor, why, sizeof(why)), -1);
	makefile("VERSION = 6000\nPATCHLEVEL = 1\n");
	assert_int_equal(kversion_of_tree(dir, &major, &minor, why, sizeof(why)), -1);
	makefile("");
	assert_int_equal(kversion_of_tree(dir, &major, &minor, why, sizeof(why)), -1);
	assert_int_equal(kversion_of_tree("/nonexistent/tree", &major, &minor, why,
					  sizeof(why)), -1);
	assert_non_null(strstr(why, "No such file"));
	assert_int_equal(kversion_checkpatch("auto", "/nonexistent/tree", note, sizeof(note)),
			 CP_LATEST);
	/* no tree: the newest, or the setting */
	assert_int_equal(kversion_checkpatch("auto", NULL, note, sizeof(note)), CP_LATEST);
	assert_string_equal(note, "the newest");
	assert_int_equal(kversion_checkpatch("6.1", NULL, note, sizeof(note)), CP_6_1);
	assert_int_equal(kversion_checkpatch("", "", NULL, 0), CP_LATEST);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kversion__reads_the_tree_makefile,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_kversion__unknown_tree_is_the_newest,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

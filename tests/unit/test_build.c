// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compile stage's parsing and its "not checked" paths, without a
 * kernel tree (tests/build/test_build.sh builds a real one).
 */
#include <ftw.h>
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

#include "../../bot/stage/build.h"
#include "../../checker/banned.h"

static void test_build__parses_gcc_error_with_column(void **state)
{
	const char *l = "/src/linux/drivers/misc/dummy-irq.c:28:17: error: implicit "
			"declaration of function 'foo' [-Werror=implicit-function-declaration]";
	const char *file, *msg;
	size_t fl, ml;
	long ln;
	int err = -1;

	(void)state;
	assert_int_equal(build_parse_diag(l, strlen(l), "/src/linux/", &file, &fl, &ln,
					  &err, &msg, &ml), 1);
	assert_int_equal(fl, strlen("drivers/misc/dummy-irq.c"));
	assert_memory_equal(file, "drivers/misc/dummy-irq.c", fl);
	assert_int_equal(ln, 28);
	assert_int_equal(err, 1);
	assert_int_equal(ml, strlen(msg));
	assert_true(!strncmp(msg, "implicit declaration", 20));
}

static void test_build__parses_warning_without_column(void **state)
{
	const char *l = "./include/linux/x.h:7: warning: unused variable 'a'\r";
	const char *file, *msg;
	size_t fl, ml;
	long ln;
	int err = -1;

	(void)state;
	assert_int_equal(build_parse_diag(l, strlen(l), NULL, &file, &fl, &ln, &err,
					  &msg, &ml), 1);
	assert_memory_equal(file, "include/linux/x.h", fl);
	assert_int_equal(fl, strlen("include/linux/x.h"));
	assert_int_equal(ln, 7);
	assert_int_equal(err, 0);
	assert_int_equal(ml, strlen("unused variable 'a'"));
}

static void test_build__ignores_notes_and_make_lines(void **state)
{
	const char *lines[] = {
		"drivers/a.c:3:1: note: declared here",
		"make[2]: *** [scripts/Makefile.build:250: drivers/a.o] Error 1",
		"drivers/a.c: In function 'f':",
		"  CC      drivers/a.o",
		"a.c:12:",
		"",
	};
	const char *file, *msg;
	size_t fl, ml, i;
	long ln;
	int err;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(build_parse_diag(lines[i], strlen(lines[i]), NULL, &file,
						  &fl, &ln, &err, &msg, &ml), 0);
}

static void test_build__finds_base_commit_trailer(void **state)
{
	const char *t = "text\n\nbase-commit: 0123456789abcdef0123456789abcdef01234567\n"
			"-- \n2.39.5\n";
	const char *bad = "base-commit: xyz\nbase-commit: 12ab\n";
	char out[64];

	(void)state;
	assert_int_equal(build_base_commit(t, strlen(t), out, sizeof(out)), 1);
	assert_string_equal(out, "0123456789abcdef0123456789abcdef01234567");
	assert_int_equal(build_base_commit(bad, strlen(bad), out, sizeof(out)), 0);
	assert_int_equal(build_base_commit(t, strlen(t), out, 8), 0);
}

static void test_build__off_without_tree(void **state)
{
	struct config c;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(build_enabled(&c), 0);
	assert_int_equal(build_enabled(NULL), 0);
	c.build_tree = "/nonexistent";
	assert_int_equal(build_enabled(&c), 1);
}

static void test_build__missing_tree_is_not_checked(void **state)
{
	const char *diff = "diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n"
			   "@@ -1 +1 @@\n-a\n+b\n";
	struct build_patch p = { 1, diff, strlen(diff) };
	struct build_result r;
	struct config c;
	char err[128];

	(void)state;
	memset(&c, 0, sizeof(c));
	c.build_tree = "/nonexistent/reviewbot-tree";
	c.build_timeout = 10;
	c.build_jobs = 1;
	assert_int_equal(build_prepare(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no kernel tree"));
	assert_int_equal(build_series(&c, &p, 1, "abc1234", &r), 0);
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_int_equal(r.nissues, 0);
	assert_non_null(strstr(r.note, "no kernel tree"));
	build_result_release(&r);
}

/*
 * A fake kernel tree: a Makefile with the kernel's version lines and its
 * targets (config, modules_prepare, path/file.o built by cc with the
 * warnings on), scripts/config, and one driver that already has a
 * warning.  The whole flow runs on it in seconds: git baseline outside
 * the tree, apply, the two builds, the comparison, the reset.
 */
static const char fake_makefile[] =
	"VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\n"
	"allmodconfig olddefconfig:\n\t@echo CONFIG_WERROR=y > $(O)/.config\n"
	"modules_prepare:\n\t@true\n"
	"%.o: %.c\n\t@mkdir -p $(dir $(O)/$@)\n"
	"\t@if [ -f slow ]; then sleep 30; fi\n"
	"\t@cc -Wall -c -o $(O)/$@ $<\n";

static const char fake_driver[] =
	"int drv_probe(void);\n"
	"int drv_probe(void)\n"
	"{\n"
	"\tint old_unused;\n"
	"\treturn 0;\n"
	"}\n";

struct fake {
	char dir[64];
	char tree[128];
	struct config cfg;
};

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static char *read_all(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static int fake_setup(void **state)
{
	struct fake *fk = calloc(1, sizeof(*fk));
	char path[256];

	assert_non_null(fk);
	snprintf(fk->dir, sizeof(fk->dir), "/tmp/rb-build-XXXXXX");
	assert_non_null(mkdtemp(fk->dir));
	/* the sandbox's user (nobody, when the tests run as root) reads it */
	assert_int_equal(chmod(fk->dir, 0755), 0);
	snprintf(fk->tree, sizeof(fk->tree), "%s/linux", fk->dir);
	assert_int_equal(mkdir(fk->tree, 0755), 0);
	snprintf(path, sizeof(path), "%s/Makefile", fk->tree);
	write_file(path, fake_makefile, 0644);
	snprintf(path, sizeof(path), "%s/scripts", fk->tree);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/scripts/config", fk->tree);
	write_file(path, "#!/bin/sh\nexit 0\n", 0755);
	snprintf(path, sizeof(path), "%s/drivers", fk->tree);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/drivers/drv.c", fk->tree);
	write_file(path, fake_driver, 0644);
	fk->cfg.build_tree = fk->tree;
	fk->cfg.build_config = "allmodconfig";
	fk->cfg.build_jobs = 1;
	fk->cfg.build_timeout = 60;
	*state = fk;
	return 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int fake_teardown(void **state)
{
	struct fake *fk = *state;

	nftw(fk->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(fk);
	return 0;
}

/* One patch to drivers/drv.c replacing the line "\tint old_unused;" */
static const char *patch_replacing(const char *with)
{
	static char buf[1024];
	int lines = 5;
	const char *p;

	for (p = with; *p; p++)
		lines += *p == '\n';
	snprintf(buf, sizeof(buf),
		 "Subject: [PATCH] drv\n\nSigned-off-by: A <a@b.c>\n---\n"
		 "diff --git a/drivers/drv.c b/drivers/drv.c\n"
		 "--- a/drivers/drv.c\n+++ b/drivers/drv.c\n"
		 "@@ -2,5 +2,%d @@\n int drv_probe(void)\n {\n"
		 "-\tint old_unused;\n+%s\n \treturn 0;\n }\n-- \n2.39.5\n", lines, with);
	return buf;
}

static void run_one(struct fake *fk, const char *text, struct build_result *r)
{
	struct build_patch p = { 1, text, strlen(text) };
	char path[256];

	assert_int_equal(build_series(&fk->cfg, &p, 1, NULL, r), 0);
	/* the pristine tree was never written */
	snprintf(path, sizeof(path), "%s/drivers/drv.c", fk->tree);
	assert_string_equal(read_all(path), fake_driver);
	snprintf(path, sizeof(path), "%s/drivers/new.c", fk->tree);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/.git", fk->tree);
	assert_int_equal(access(path, F_OK), -1);
	/* the scratch copy the series went to is back as it was */
	snprintf(path, sizeof(path), "%s.reviewbot/src/drivers/drv.c", fk->tree);
	assert_string_equal(read_all(path), fake_driver);
	snprintf(path, sizeof(path), "%s.reviewbot/src/drivers/new.c", fk->tree);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s.reviewbot/src/slow", fk->tree);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_build__fake_tree_whole_flow(void **state)
{
	struct fake *fk = *state;
	struct build_result r;
	char err[256], path[256];
	const char *add_new =
		"Subject: [PATCH] new\n\n---\n"
		"diff --git a/drivers/new.c b/drivers/new.c\nnew file mode 100644\n"
		"--- /dev/null\n+++ b/drivers/new.c\n@@ -0,0 +1,2 @@\n"
		"+int new_fn(void);\n+int new_fn(void) { return 1 }\n";

	assert_int_equal(build_prepare(&fk->cfg, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s.reviewbot/prepared", fk->tree);
	assert_int_equal(access(path, F_OK), 0);

	/* the existing warning stays the tree's, not the patch's */
	run_one(fk, patch_replacing("\tint old_unused; /* still */"), &r);
	assert_int_equal(r.verdict, BUILD_OK);
	assert_int_equal(r.nissues, 0);
	assert_int_equal(r.objects, 1);
	assert_non_null(strstr(r.note, "linux 6.1.99"));
	build_result_release(&r);
	/* the pristine object's output is kept: built once per preparation */
	snprintf(path, sizeof(path), "%s.reviewbot/base/drivers%%drv.c.log", fk->tree);
	assert_non_null(strstr(read_all(path), "unused variable 'old_unused'"));

	/* a new warning, with file:line and the line */
	run_one(fk, patch_replacing("\tint old_unused;\n+\tint new_unused;"), &r);
	assert_int_equal(r.verdict, BUILD_CONCERN);
	assert_int_equal(r.nissues, 1);
	assert_int_equal(r.issues[0].error, 0);
	assert_string_equal(r.issues[0].file, "drivers/drv.c");
	assert_int_equal(r.issues[0].line, 5);
	assert_non_null(strstr(r.issues[0].message, "unused variable 'new_unused'"));
	assert_string_equal(r.issues[0].line_text, "\tint new_unused;");
	build_result_release(&r);

	/* an error in a file the series adds (removed again by the reset) */
	run_one(fk, add_new, &r);
	assert_int_equal(r.verdict, BUILD_CONCERN);
	assert_true(r.nissues >= 1);
	assert_int_equal(r.issues[0].error, 1);
	assert_string_equal(r.issues[0].file, "drivers/new.c");
	assert_non_null(strstr(r.note, "error"));
	build_result_release(&r);

	/* a series for another tree: not checked, never a finding */
	run_one(fk, "diff --git a/drivers/drv.c b/drivers/drv.c\n--- a/drivers/drv.c\n"
		"+++ b/drivers/drv.c\n@@ -1,2 +1,2 @@\n-int nothing_like_this(void);\n"
		"+int x(void);\n int drv_probe(void)\n", &r);
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_int_equal(r.nissues, 0);
	assert_non_null(strstr(r.note, "does not apply"));
	build_result_release(&r);

	/* a series applies patch after patch; the finding goes to the part
	 * that touched the file last */
	{
		struct build_patch two[2];
		char first[1024];
		const char *second =
			"diff --git a/drivers/drv.c b/drivers/drv.c\n--- a/drivers/drv.c\n"
			"+++ b/drivers/drv.c\n@@ -3,4 +3,4 @@\n {\n-\tint renamed;\n"
			"+\tint renamed_again;\n \treturn 0;\n }\n";

		snprintf(first, sizeof(first), "%s", patch_replacing("\tint renamed;"));
		two[0] = (struct build_patch){ 1, first, strlen(first) };
		two[1] = (struct build_patch){ 2, second, strlen(second) };
		assert_int_equal(build_series(&fk->cfg, two, 2, NULL, &r), 0);
		assert_int_equal(r.verdict, BUILD_CONCERN);
		assert_int_equal(r.nissues, 1);
		assert_int_equal(r.issues[0].part, 2);
		assert_non_null(strstr(r.issues[0].message, "'renamed_again'"));
		build_result_release(&r);
	}

	/* words from a file outside the tree never reach the review */
	snprintf(path, sizeof(path), "%s/secret.h", fk->dir);
	write_file(path, "hunter2_secret_token here;\n", 0644);
	{
		char line[300];

		snprintf(line, sizeof(line), "\tint old_unused;\n+#include \"%s\"", path);
		run_one(fk, patch_replacing(line), &r);
	}
	/* the sandbox shows the compiler no such file: the include fails,
	 * and nothing of the file is read */
	assert_int_equal(r.verdict, BUILD_CONCERN);
	assert_true(r.nissues >= 1);
	assert_non_null(strstr(r.issues[0].message, "No such file"));
	assert_null(strstr(r.note, "hunter2"));
	for (size_t i = 0; i < r.nissues; i++) {
		assert_null(strstr(r.issues[i].message, "hunter2"));
		assert_true(!r.issues[i].line_text || !strstr(r.issues[i].line_text, "hunter2"));
	}
	build_result_release(&r);

	/* a symbolic link could lead the compiler out of the tree */
	run_one(fk, "diff --git a/drivers/l.c b/drivers/l.c\nnew file mode 120000\n"
		"--- /dev/null\n+++ b/drivers/l.c\n@@ -0,0 +1 @@\n+/etc/passwd\n"
		"\\ No newline at end of file\n", &r);
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_non_null(strstr(r.note, "symbolic link"));
	build_result_release(&r);

	/* a build past the timeout (the series adds the file that makes the
	 * fake tree's build sleep): killed, not checked */
	{
		char slow[1400];

		snprintf(slow, sizeof(slow), "%sdiff --git a/slow b/slow\nnew file mode 100644\n"
			 "index 0000000..e69de29\n", patch_replacing("\tint broken;"));
		fk->cfg.build_timeout = 2;
		run_one(fk, slow, &r);
	}
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_int_equal(r.nissues, 0);
	assert_non_null(strstr(r.note, "timed out"));
	build_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build__parses_gcc_error_with_column),
		cmocka_unit_test(test_build__parses_warning_without_column),
		cmocka_unit_test(test_build__ignores_notes_and_make_lines),
		cmocka_unit_test(test_build__finds_base_commit_trailer),
		cmocka_unit_test(test_build__off_without_tree),
		cmocka_unit_test(test_build__missing_tree_is_not_checked),
		cmocka_unit_test_setup_teardown(test_build__fake_tree_whole_flow,
						fake_setup, fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

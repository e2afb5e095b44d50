// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of checker/diff.c: unified diffs as git writes them (new,
 * deleted, renamed, binary, no newline at end), hunk counts that lie, names
 * with quotes and spaces, the file limit, and every corpus hunk consistent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../checker/diff.h"

static void parse(const char *s, struct diff *d)
{
	assert_int_equal(diff_parse(s, strlen(s), NULL, d), DIFF_OK);
}

static void test_diff__format_patch_one_file(void **state)
{
	const char *p =
		"From 1234 Mon Sep 17 00:00:00 2001\n"
		"From: A <a@example.org>\n"
		"Subject: [PATCH] x\n"
		"\n"
		"Body.\n"
		"\n"
		"Signed-off-by: A <a@example.org>\n"
		"---\n"
		" drivers/x.c | 3 ++-\n"
		"\n"
		"diff --git a/drivers/x.c b/drivers/x.c\n"
		"index 1111111..2222222 100644\n"
		"--- a/drivers/x.c\n"
		"+++ b/drivers/x.c\n"
		"@@ -10,3 +10,4 @@ static int f(void)\n"
		" a\n"
		"-b\n"
		"+c\n"
		"+d\n"
		" e\n"
		"-- \n"
		"2.39.5\n";
	struct diff d;

	(void)state;
	parse(p, &d);
	assert_int_equal(d.nfiles, 1);
	assert_string_equal(d.files[0].old_path, "drivers/x.c");
	assert_string_equal(d.files[0].new_path, "drivers/x.c");
	assert_true(d.files[0].flags & DIFF_GIT);
	assert_int_equal(d.nhunks, 1);
	assert_int_equal(d.hunks[0].err, DIFF_HUNK_OK);
	assert_int_equal(d.hunks[0].section_len, strlen("static int f(void)"));
	assert_int_equal(d.nlines, 5);
	/* "+c" is patch line 18, new line 11 */
	assert_int_equal(d.lines[2].kind, '+');
	assert_int_equal(d.lines[2].patch_line, 18);
	assert_int_equal(d.lines[2].new_line, 11);
	assert_int_equal(d.lines[2].old_line, 0);
	assert_int_equal(d.lines[1].old_line, 11);
	assert_int_equal(d.lines[4].new_line, 13);
	assert_int_equal(d.files[0].added, 2);
	assert_int_equal(d.files[0].removed, 1);
	assert_int_equal(d.bad_hunks, 0);
	diff_release(&d);
}

static void test_diff__new_deleted_renamed_mode_binary(void **state)
{
	const char *p =
		"diff --git a/new.c b/new.c\n"
		"new file mode 100644\n"
		"index 0000000..1111111\n"
		"--- /dev/null\n"
		"+++ b/new.c\n"
		"@@ -0,0 +1 @@\n"
		"+int x;\n"
		"diff --git a/old.c b/old.c\n"
		"deleted file mode 100644\n"
		"index 1111111..0000000\n"
		"--- a/old.c\n"
		"+++ /dev/null\n"
		"@@ -1 +0,0 @@\n"
		"-int y;\n"
		"diff --git a/from.c b/to.c\n"
		"similarity index 90%\n"
		"rename from from.c\n"
		"rename to to.c\n"
		"diff --git a/script.sh b/script.sh\n"
		"old mode 100644\n"
		"new mode 100755\n"
		"diff --git a/blob.bin b/blob.bin\n"
		"index 1111111..2222222 100644\n"
		"GIT binary patch\n"
		"literal 3\n"
		"KcmZQz00aO5000\n"
		"\n"
		"literal 0\n"
		"HcmV?d00001\n"
		"\n"
		"diff --git a/img.png b/img.png\n"
		"index 1111111..2222222 100644\n"
		"Binary files a/img.png and b/img.png differ\n";
	struct diff d;

	(void)state;
	parse(p, &d);
	assert_int_equal(d.nfiles, 6);
	assert_true(d.files[0].flags & DIFF_NEW);
	assert_null(d.files[0].old_path);
	assert_string_equal(diff_file_path(&d.files[0]), "new.c");
	assert_int_equal(d.files[0].new_mode, 0100644);
	assert_true(d.files[1].flags & DIFF_DELETED);
	assert_null(d.files[1].new_path);
	assert_string_equal(diff_file_path(&d.files[1]), "old.c");
	assert_true(d.files[2].flags & DIFF_RENAMED);
	assert_string_equal(d.files[2].old_path, "from.c");
	assert_string_equal(d.files[2].new_path, "to.c");
	assert_int_equal(d.files[2].similarity, 90);
	assert_int_equal(d.files[2].nhunks, 0);
	assert_true(d.files[3].flags & DIFF_MODE_CHANGE);
	assert_int_equal(d.files[3].new_mode, 0100755);
	assert_true(d.files[4].flags & DIFF_BINARY);
	assert_int_equal(d.files[4].nhunks, 0);
	assert_true(d.files[5].flags & DIFF_BINARY);
	assert_int_equal(d.nlines, 2);
	diff_release(&d);
}

static void test_diff__no_newline_and_crlf(void **state)
{
	const char *p =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,2 +1,2 @@\n"
		" a\r\n"
		"-b\n"
		"\\ No newline at end of file\n"
		"+b;\n"
		"\\ No newline at end of file\n";
	struct diff d;

	(void)state;
	parse(p, &d);
	assert_int_equal(d.nfiles, 1);
	assert_false(d.files[0].flags & DIFF_GIT);
	assert_string_equal(d.files[0].new_path, "x.c");
	assert_int_equal(d.nlines, 3);
	assert_true(d.lines[0].crlf);
	assert_int_equal(d.lines[0].len, 1);
	assert_true(d.lines[1].no_newline);
	assert_true(d.lines[2].no_newline);
	assert_int_equal(d.lines[2].patch_line, 7);
	assert_int_equal(d.hunks[0].err, DIFF_HUNK_OK);
	diff_release(&d);
}

static void test_diff__hunk_counts_that_lie(void **state)
{
	/* claims 5 new lines, has 2; the next file must still be found */
	const char *p =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,1 +1,5 @@\n"
		" a\n"
		"+b\n"
		"--- a/y.c\n"
		"+++ b/y.c\n"
		"@@ -1 +1 @@\n"
		"-c\n"
		"+d\n"
		"+this line is past the counts and not part of the hunk\n";
	struct diff d;

	(void)state;
	parse(p, &d);
	assert_int_equal(d.nfiles, 2);
	assert_int_equal(d.hunks[0].err, DIFF_HUNK_SHORT);
	assert_int_equal(d.bad_hunks, 1);
	assert_int_equal(d.hunks[1].err, DIFF_HUNK_OK);
	assert_int_equal(d.hunks[1].nlines, 2);
	assert_int_equal(d.nlines, 4);
	diff_release(&d);
}

static void test_diff__numbers_past_2_64_are_a_bad_header(void **state)
{
	const char *p =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,99999999999999999999999 +1,1 @@\n"
		"+x\n";
	struct diff d;

	(void)state;
	parse(p, &d);
	assert_int_equal(d.nhunks, 1);
	assert_int_equal(d.hunks[0].err, DIFF_HUNK_BAD_HEADER);
	assert_int_equal(d.nlines, 0);
	diff_release(&d);
}

static void test_diff__blank_context_line_without_space(void **state)
{
	const char *p =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,3 +1,3 @@\n"
		" a\n"
		"\n"
		"-b\n"
		"+c\n";
	struct diff d;

	(void)state;
	parse(p, &d);
	assert_int_equal(d.nlines, 4);
	assert_int_equal(d.lines[1].kind, ' ');
	assert_int_equal(d.lines[1].new_line, 2);
	assert_int_equal(d.hunks[0].err, DIFF_HUNK_OK);
	diff_release(&d);
}

static void test_diff__quoted_and_spaced_names(void **state)
{
	const char *p =
		"diff --git \"a/dir/tab\\there.c\" \"b/dir/tab\\there.c\"\n"
		"index 1..2 100644\n"
		"--- \"a/dir/tab\\there.c\"\n"
		"+++ \"b/dir/tab\\there.c\"\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n"
		"diff --git a/with space.c b/with space.c\n"
		"index 1..2 100644\n"
		"--- a/with space.c\n"
		"+++ b/with space.c\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n";
	struct diff d;

	(void)state;
	parse(p, &d);
	assert_int_equal(d.nfiles, 2);
	assert_string_equal(d.files[0].new_path, "dir/tab\there.c");
	assert_string_equal(d.files[1].new_path, "with space.c");
	assert_string_equal(d.files[1].old_path, "with space.c");
	diff_release(&d);
}

static void test_diff__file_limit_is_enforced(void **state)
{
	const char *p =
		"--- a/1.c\n+++ b/1.c\n@@ -1 +1 @@\n-a\n+b\n"
		"--- a/2.c\n+++ b/2.c\n@@ -1 +1 @@\n-a\n+b\n"
		"--- a/3.c\n+++ b/3.c\n@@ -1 +1 @@\n-a\n+b\n";
	struct diff_limits lim;
	struct diff d;

	(void)state;
	diff_limits_init(&lim);
	lim.max_files = 2;
	assert_int_equal(diff_parse(p, strlen(p), &lim, &d), DIFF_ERR_LIMIT);
	assert_int_equal(d.nfiles, 2);
	diff_release(&d);
}

static void test_diff__not_a_patch(void **state)
{
	const char *p = "Hello,\n\nthis is a reply, not a patch.\n-- \nme\n";
	struct diff d;

	(void)state;
	parse(p, &d);
	assert_int_equal(d.nfiles, 0);
	assert_int_equal(d.first_diff_line, 0);
	diff_release(&d);
}

/* Every real patch of the corpus parses with honest hunk counts. */
static void test_diff__corpus_hunks_are_consistent(void **state)
{
	const char *dir = getenv("CORPUS_PATCHES");
	DIR *dp;
	struct dirent *de;
	int n = 0;

	(void)state;
	if (!dir)
		dir = "../shared/corpus/patches";
	dp = opendir(dir);
	if (!dp)
		skip();
	while ((de = readdir(dp))) {
		char path[4096];
		FILE *f;
		char *buf;
		long len;
		struct diff d;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "rb");
		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = malloc((size_t)len + 1);
		assert_non_null(buf);
		assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
		fclose(f);
		assert_int_equal(diff_parse(buf, (size_t)len, NULL, &d), DIFF_OK);
		if (d.bad_hunks)
			fail_msg("%s: %ld bad hunks", de->d_name, d.bad_hunks);
		assert_true(d.nfiles > 0);
		diff_release(&d);
		free(buf);
		n++;
	}
	closedir(dp);
	assert_true(n > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff__format_patch_one_file),
		cmocka_unit_test(test_diff__new_deleted_renamed_mode_binary),
		cmocka_unit_test(test_diff__no_newline_and_crlf),
		cmocka_unit_test(test_diff__hunk_counts_that_lie),
		cmocka_unit_test(test_diff__numbers_past_2_64_are_a_bad_header),
		cmocka_unit_test(test_diff__blank_context_line_without_space),
		cmocka_unit_test(test_diff__quoted_and_spaced_names),
		cmocka_unit_test(test_diff__file_limit_is_enforced),
		cmocka_unit_test(test_diff__not_a_patch),
		cmocka_unit_test(test_diff__corpus_hunks_are_consistent),
	};

	return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of checker/commit.c: a patch's commit message read as git and
 * checkpatch.pl read it: headers, folded encoded subjects, the separator and
 * sign-offs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/commit.h"

static void test_commit__format_patch_with_folded_encoded_subject(void **state)
{
	const char *p =
		"From 1234567890abcdef Mon Sep 17 00:00:00 2001\n"
		"From: =?UTF-8?q?J=C3=B6rg=20Hacker?= <jorg@example.org>\n"
		"Date: Tue, 3 Nov 2026 10:12:44 +0100\n"
		"Message-ID: <20261103.1234-1-jorg@example.org>\n"
		"Subject: [PATCH v2 3/7] leds: acme: add a very long subject that\n"
		" was folded by git send-email\n"
		"\n"
		"The body, first line.\n"
		"Second line with a URL http://example.org: not a trailer.\n"
		"\n"
		"Fixes: 0123456789ab (\"leds: acme: start\")\n"
		"Reported-by: A Tester <t@example.org>\n"
		"Signed-off-by: =?UTF-8?q?J=C3=B6rg?= <jorg@example.org>\n"
		"Signed-off-by: Maintainer <m@example.org>\n"
		"---\n"
		" drivers/leds/x.c | 1 +\n"
		"\n"
		"diff --git a/drivers/leds/x.c b/drivers/leds/x.c\n";
	struct chk_commit c;

	(void)state;
	assert_int_equal(chk_commit_parse(p, strlen(p), &c), 0);
	assert_string_equal(c.subject, "[PATCH v2 3/7] leds: acme: add a very long subject that was folded by git send-email");
	assert_string_equal(c.from, "J\xc3\xb6rg Hacker <jorg@example.org>");
	assert_string_equal(c.message_id, "20261103.1234-1-jorg@example.org");
	assert_int_equal(c.body_line, 8);
	assert_int_equal(c.separator_line, 15);
	assert_int_equal(c.diff_line, 18);
	assert_int_equal(c.ntrailers, 4);
	assert_string_equal(c.trailers[0].tag, "Fixes");
	assert_string_equal(c.trailers[0].value, "0123456789ab (\"leds: acme: start\")");
	assert_int_equal(c.trailers[0].patch_line, 11);
	assert_string_equal(c.trailers[2].tag, "Signed-off-by");
	assert_int_equal(c.signoffs, 2);
	assert_true(c.body_len > 0 && !memcmp(c.body, "The body", 8));
	chk_commit_release(&c);
}

static void test_commit__no_separator_and_no_signoff(void **state)
{
	const char *p =
		"Subject: [PATCH] x\n"
		"\n"
		"Just a body.\n"
		"diff --git a/x.c b/x.c\n";
	struct chk_commit c;

	(void)state;
	assert_int_equal(chk_commit_parse(p, strlen(p), &c), 0);
	assert_int_equal(c.signoffs, 0);
	assert_int_equal(c.separator_line, 0);
	assert_int_equal(c.diff_line, 4);
	assert_int_equal(c.body_lines, 1);
	chk_commit_release(&c);
}

static void test_commit__plain_diff_has_no_message(void **state)
{
	const char *p = "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n";
	struct chk_commit c;

	(void)state;
	assert_int_equal(chk_commit_parse(p, strlen(p), &c), 0);
	assert_null(c.subject);
	assert_int_equal(c.diff_line, 1);
	assert_int_equal(c.ntrailers, 0);
	chk_commit_release(&c);
}

static void test_commit__header_without_end_of_input(void **state)
{
	const char *p = "Subject: cut";	/* no newline, no body */
	struct chk_commit c;

	(void)state;
	assert_int_equal(chk_commit_parse(p, strlen(p), &c), 0);
	assert_string_equal(c.subject, "cut");
	assert_int_equal(c.body_line, 0);
	chk_commit_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit__format_patch_with_folded_encoded_subject),
		cmocka_unit_test(test_commit__no_separator_and_no_signoff),
		cmocka_unit_test(test_commit__plain_diff_has_no_message),
		cmocka_unit_test(test_commit__header_without_end_of_input),
	};

	return cmocka_run_group_tests_name("commit", tests, NULL, NULL);
}

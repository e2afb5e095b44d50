// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of bot/backport.c: stable backports known by their subject
 * tags and by the upstream-commit line of their commit message, in the
 * shapes the stable maintainers' mails have (the corpus's AUTOSEL mails
 * of driverdev-devel, stable-kernel-rules.rst).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../bot/backport.h"

static int subj(const char *s, char *why, size_t n)
{
	return backport_subject(s, strlen(s), why, n);
}

static void test_backport__subject_tags_name_a_stable_branch(void **state)
{
	static const char *const yes[] = {
		"[PATCH 6.6.y] hwmon: (pmbus) fix a leak",
		"[PATCH AUTOSEL 7.0] hwmon: (k10temp) add a model",
		"[PATCH AUTOSEL 4.9 07/91] staging: rtl8188eu: fix possible null dereference",
		"[PATCH 5.15 12/34] usb: gadget: fix it",
		"[PATCH v2 6.1.y 1/3] net: fix it",
		"[PATCH stable 6.1] x: y",
		"[PATCH 4.19-stable] x: y",
		"[PATCH linux-6.6.y] x: y",
		"[PATCH 6.1 000/150] 6.1.100-rc1 review",
		"[PATCH 5.10.y 5.15.y] x: y",
		"[PATCH 6.1.100] x: y",
	};
	static const char *const no[] = {
		"[PATCH v5.1 2/3] leds: fix it",
		"[PATCH net 1/2] net: fix it",
		"[PATCH for-6.6] x: y",
		"[PATCH v2] leds: remove ide-disk trigger",
		"[PATCH 1.0] x: y",
		"[PATCH 123.4] x: y",
		"[PATCH 6.6z] x: y",
		"Re: [PATCH 6.6.y] hwmon: (pmbus) fix a leak",
		"hwmon: 6.6.y is not a tag here",
		"[PATCH] stable: no tag, a word of the subject",
	};
	char why[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!subj(yes[i], why, sizeof(why)))
			fail_msg("not a backport: %s", yes[i]);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (subj(no[i], why, sizeof(why)))
			fail_msg("a backport: %s (%s)", no[i], why);
	assert_true(subj("[PATCH AUTOSEL 5.6 16/62] most: core: use function", why, sizeof(why)));
	assert_string_equal(why, "AUTOSEL");
	assert_true(subj("[PATCH v3 6.6.y] x", why, sizeof(why)));
	assert_string_equal(why, "6.6.y");
	assert_true(subj("[PATCH 6.6.y] x", NULL, 0));
}

static int line(const char *l)
{
	return backport_upstream_line(l, strlen(l));
}

static void test_backport__the_upstream_commit_line(void **state)
{
	(void)state;
	assert_true(line("[ Upstream commit 228241944a48113470d3c3b46c88ba7fbe0a274b ]"));
	assert_true(line("[ upstream commit 228241944a48 ]"));
	assert_true(line("[Upstream commit 228241944a48113470d3c3b46c88ba7fbe0a274b]"));
	assert_true(line("commit 5e56bc06e18dfc8a66180fa369384b36e2ab621a upstream."));
	assert_true(line("  commit 5e56bc06e18dfc8a66180fa369384b36e2ab621a upstream\r"));
	/* a reference in prose, a short or overlong id, something after it */
	assert_false(line("This reverts commit 5e56bc06e18dfc8a66180fa369384b36e2ab621a."));
	assert_false(line("commit 5e56bc06e18d (\"most: core: use function subsys_initcall()\")"));
	assert_false(line("[ Upstream commit 2282419 ]"));
	assert_false(line("[ Upstream commit 228241944a48113470d3c3b46c88ba7fbe0a274b00 ]"));
	assert_false(line("[ Upstream commit 228241944a48113470d3c3b46c88ba7fbe0a274b and more ]"));
	assert_false(line("commit 5e56bc06e18dfc8a66180fa369384b36e2ab621a upstream. and more"));
	assert_false(line("[ Upstream commit ]"));
	assert_false(line(""));
}

static void test_backport__only_the_commit_message_counts(void **state)
{
	static const char msg[] =
		"From: Connor Kuehl <connor.kuehl@canonical.com>\n"
		"\n"
		"[ Upstream commit 228241944a48113470d3c3b46c88ba7fbe0a274b ]\n"
		"\n"
		"Inside a nested 'else' block ...\n"
		"Signed-off-by: Sasha Levin <sashal@kernel.org>\n"
		"---\n"
		" drivers/staging/rtl8188eu/core/rtw_xmit.c | 9 ++++++---\n";
	static const char in_diff[] =
		"Fix it.\n"
		"\n"
		"Signed-off-by: A <a@x>\n"
		"---\n"
		"diff --git a/Documentation/x.txt b/Documentation/x.txt\n"
		"+commit 5e56bc06e18dfc8a66180fa369384b36e2ab621a upstream.\n";
	static const char report[] =
		"ERROR: Please use git commit description style 'commit <12+ chars of sha1>'\n"
		"#81: \n"
		"[ Upstream commit 5e56bc06e18dfc8a66180fa369384b36e2ab621a ]\n";
	static const char other[] =
		"ERROR: Please use git commit description style 'commit <12+ chars of sha1>'\n"
		"#12: \n"
		"This fixes commit 5e56bc06e18dfc8a66180fa369384b36e2ab621a by doing x\n";

	(void)state;
	assert_true(backport_body(msg, sizeof(msg) - 1));
	assert_false(backport_body(in_diff, sizeof(in_diff) - 1));
	assert_false(backport_body("", 0));
	/* a line cut at the end of the buffer is read within it */
	assert_true(backport_body("commit 5e56bc06e18dfc8a66180fa369384b36e2ab621a upstream.", 57));
	assert_false(backport_body("commit 5e56bc06e18dfc8a66180fa369384b36e2ab621a upstream.", 20));
	assert_true(backport_report_on_upstream_line(report));
	assert_false(backport_report_on_upstream_line(other));
	assert_false(backport_report_on_upstream_line("ERROR: x\n"));
	assert_false(backport_report_on_upstream_line(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backport__subject_tags_name_a_stable_branch),
		cmocka_unit_test(test_backport__the_upstream_commit_line),
		cmocka_unit_test(test_backport__only_the_commit_message_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * rv_twin.c through the checker: an added line is judged only for what
 * it changes against the removed lines of its change block (its twin),
 * and a line that only moved or was re-indented is not judged at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/checker.h"

/* A patch of drivers/misc/twin.c whose hunk is the lines given. */
static void patch(char *buf, size_t cap, const char *hunk)
{
	size_t minus = 0, plus = 0;
	const char *p;

	for (p = hunk; *p; p = strchr(p, '\n') + 1) {
		if (*p == '-' || *p == ' ')
			minus++;
		if (*p == '+' || *p == ' ')
			plus++;
		if (!strchr(p, '\n'))
			break;
	}
	snprintf(buf, cap,
		 "From: Jane Doe <jane@example.com>\n"
		 "Subject: [PATCH] misc: twin: a change\n"
		 "\n"
		 "Signed-off-by: Jane Doe <jane@example.com>\n"
		 "---\n"
		 "diff --git a/drivers/misc/twin.c b/drivers/misc/twin.c\n"
		 "index 1111111..2222222 100644\n"
		 "--- a/drivers/misc/twin.c\n"
		 "+++ b/drivers/misc/twin.c\n"
		 "@@ -10,%zu +10,%zu @@ static int twin_show(struct twin *t, char *out)\n"
		 "%s",
		 minus, plus, hunk);
}

/* How many findings of type rule checking the hunk gives. */
static int count(const char *hunk, enum rule_id rule)
{
	static char buf[1 << 14];
	struct chk_opts o;
	struct chk_result r;
	size_t i;
	int n = 0;

	patch(buf, sizeof(buf), hunk);
	chk_opts_init(&o);
	o.extra = 1;
	assert_int_equal(chk_run(&o, "in.patch", buf, strlen(buf), &r), 0);
	for (i = 0; i < r.n; i++)
		n += r.f[i].rule == rule;
	chk_result_release(&r);
	return n;
}

static void test_twin__white_space_only_change_is_not_blamed(void **state)
{
	(void)state;
	assert_int_equal(count(" {\n"
			       "-\tsprintf(t->str, \"%d  \", ((__s32*)t->extra)[0]);\n"
			       "+\tsprintf(t->str, \"%d  \", ((__s32 *)t->extra)[0]);\n"
			       " }\n", R_STRING_FUNC_DEPRECATED), 0);
	/* the same line new: it is judged */
	assert_int_equal(count(" {\n"
			       "+\tsprintf(t->str, \"%d  \", ((__s32 *)t->extra)[0]);\n"
			       " }\n", R_STRING_FUNC_DEPRECATED), 1);
}

static void test_twin__a_changed_argument_is_not_the_call(void **state)
{
	(void)state;
	/* only the source changed: the copy into t->name was there */
	assert_int_equal(count(" {\n"
			       "-\tstrcpy(t->name, t->colors[i]);\n"
			       "+\tstrcpy(t->name, twin_color_name(i));\n"
			       " }\n", R_STRING_COPY_CHECK), 0);
	/* the destination changed: a new copy */
	assert_int_equal(count(" {\n"
			       "-\tstrcpy(t->name, t->colors[i]);\n"
			       "+\tstrcpy(t->label, twin_color_name(i));\n"
			       " }\n", R_STRING_COPY_CHECK), 1);
}

static void test_twin__bounded_call_replaced_by_unbounded_is_certain(void **state)
{
	(void)state;
	assert_int_equal(count(" {\n"
			       "-\tsnprintf(t->name, sizeof(t->name), \"twin:%s\",\n"
			       "-\t\t t->pdata->label);\n"
			       "+\tsprintf(t->name, \"%s:%s\", t->pdata->id,\n"
			       "+\t\tt->pdata->label);\n"
			       " }\n", R_UNBOUNDED_STRING_COPY), 1);
	/* another destination's snprintf() is no twin */
	assert_int_equal(count(" {\n"
			       "-\tsnprintf(t->label, sizeof(t->label), \"twin:%s\", s);\n"
			       "+\tsprintf(t->name, \"%s:%s\", t->pdata->id, s);\n"
			       " }\n", R_UNBOUNDED_STRING_COPY), 0);
}

static void test_twin__an_ignored_result_that_was_ignored_before(void **state)
{
	(void)state;
	assert_int_equal(count(" {\n"
			       "-\tcopy_to_user(out, t->buf, 16);\n"
			       "+\tcopy_to_user(out, t->buf, sizeof(t->buf));\n"
			       " }\n", R_USER_COPY_UNCHECKED), 0);
	assert_int_equal(count(" {\n"
			       "-\tret = copy_to_user(out, t->buf, 16);\n"
			       "+\tcopy_to_user(out, t->buf, sizeof(t->buf));\n"
			       " }\n", R_USER_COPY_UNCHECKED), 1);
}

static void test_twin__a_moved_line_is_not_judged(void **state)
{
	(void)state;
	assert_int_equal(count("-\tstrcpy(t->name, s);\n"
			       " \tx = 1;\n"
			       " \ty = 2;\n"
			       "+\tstrcpy(t->name, s);\n", R_STRING_COPY_CHECK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twin__white_space_only_change_is_not_blamed),
		cmocka_unit_test(test_twin__a_changed_argument_is_not_the_call),
		cmocka_unit_test(test_twin__bounded_call_replaced_by_unbounded_is_certain),
		cmocka_unit_test(test_twin__an_ignored_result_that_was_ignored_before),
		cmocka_unit_test(test_twin__a_moved_line_is_not_judged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

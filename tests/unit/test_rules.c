// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of checker/rules.c: the rule table (sorted, unique, complete),
 * categories (a question is never security or uapi), versions and type
 * lists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/checker.h"

static void test_rules__table_is_sorted_unique_and_complete(void **state)
{
	int i;

	(void)state;
	assert_true(RULE__COUNT > 200);
	for (i = 0; i < RULE__COUNT; i++) {
		const struct rule *r = &rule_table[i];

		assert_non_null(r->name);
		assert_true(r->sevs != 0);
		assert_true((r->sevs & ~(SEV_E | SEV_W | SEV_C)) == 0);
		assert_true(r->cat < CAT__COUNT);
		assert_true(strlen(r->desc) > 5);
		assert_null(strchr(r->desc, '\n'));
		/* plain ASCII: the descriptions go into a man page as they are */
		{
			const unsigned char *p;

			for (p = (const unsigned char *)r->desc; *p; p++)
				assert_true(*p >= 32 && *p < 127);
		}
		/* names are unique (checkpatch.pl's rows and each review
		 * module's are sorted within their file) */
		{
			int j;

			for (j = 0; j < i; j++)
				assert_true(strcmp(rule_table[j].name, r->name) != 0);
		}
	}
}

static void test_rules__questions_are_never_security_or_uapi(void **state)
{
	int i, questions = 0;

	(void)state;
	for (i = 0; i < RULE__COUNT; i++) {
		const struct rule *r = &rule_table[i];

		assert_true(r->conf == CONF_CERTAIN || r->conf == CONF_QUESTION);
		if (r->conf != CONF_QUESTION)
			continue;
		questions++;
		assert_true(r->cat != CAT_SECURITY && r->cat != CAT_UAPI);
	}
	assert_true(questions >= 5);
	assert_string_equal(rule_conf_name(CONF_CERTAIN), "certain");
	assert_string_equal(rule_conf_name(CONF_QUESTION), "question");
	assert_int_equal(rule_table[R_UNBOUNDED_STRING_COPY].conf, CONF_CERTAIN);
	assert_int_equal(rule_table[R_STRING_COPY_CHECK].cat, CAT_CORRECTNESS);
	assert_int_equal(rule_table[R_USE_SYSFS_EMIT].cat, CAT_STYLE);
}

static void test_rules__versions_of_each_type(void **state)
{
	int i, own = 0, only_612 = 0, only_61 = 0;

	(void)state;
	for (i = 0; i < RULE__COUNT; i++) {
		const struct rule *r = &rule_table[i];

		/* every type is in some version, and only in known ones */
		assert_true(r->own || r->cpv);
		assert_true((r->cpv & ~CPV_ALL) == 0);
		own += r->own;
		only_612 += !r->own && r->cpv == CPV_FROM(6_12);
		only_61 += !r->own && r->cpv == CPV_UPTO(6_1);
	}
	assert_true(own > 20);
	/* checkpatch.pl 6.12 added 12 types (MISSING_FIXES_TAG is also
	 * reviewbot's own) and dropped one */
	assert_int_equal(only_612, 11);
	assert_int_equal(only_61, 1);
	assert_true(rule_in_version(&rule_table[R_LONG_LINE], CP_6_1));
	assert_true(rule_in_version(&rule_table[R_LONG_LINE], CP_6_12));
	assert_false(rule_in_version(&rule_table[R_STRCPY], CP_6_1));
	assert_true(rule_in_version(&rule_table[R_STRCPY], CP_6_12));
	assert_true(rule_in_version(&rule_table[R_NETWORKING_BLOCK_COMMENT_STYLE], CP_6_1));
	assert_false(rule_in_version(&rule_table[R_NETWORKING_BLOCK_COMMENT_STYLE], CP_6_12));
	/* reviewbot's MISSING_FIXES_TAG is in both, and checkpatch.pl's in 6.12 */
	assert_true(rule_table[R_MISSING_FIXES_TAG].own);
	assert_int_equal(rule_table[R_MISSING_FIXES_TAG].cpv, CPV_FROM(6_12));
	assert_true(rule_in_version(&rule_table[R_MISSING_FIXES_TAG], CP_6_1));
	assert_true(rule_in_version(&rule_table[R_UAPI_IOCTL], CP_6_1));
	assert_false(rule_in_version(&rule_table[R_LONG_LINE], (enum cp_version)CP__COUNT));
}

static void test_rules__version_names_and_nearest(void **state)
{
	char list[64];

	(void)state;
	assert_int_equal(CP_LATEST, CP_6_12);
	assert_string_equal(cp_version_name(CP_6_1), "6.1");
	assert_string_equal(cp_version_name(CP_6_12), "6.12");
	assert_string_equal(cp_version_name((enum cp_version)CP__COUNT), "?");
	assert_int_equal(cp_version_find("6.1", 3), CP_6_1);
	assert_int_equal(cp_version_find("6.12", 4), CP_6_12);
	assert_int_equal(cp_version_find("6.12.1", 6), -1);
	assert_int_equal(cp_version_find("6.1", 2), -1);
	assert_int_equal(cp_version_find("6.6", 3), -1);
	assert_int_equal(cp_version_find("", 0), -1);
	/* a tree's version: the nearest, the older of two as near */
	assert_int_equal(cp_version_nearest(6, 1), CP_6_1);
	assert_int_equal(cp_version_nearest(6, 6), CP_6_1);
	assert_int_equal(cp_version_nearest(6, 7), CP_6_12);
	assert_int_equal(cp_version_nearest(6, 12), CP_6_12);
	assert_int_equal(cp_version_nearest(6, 18), CP_6_12);
	assert_int_equal(cp_version_nearest(5, 15), CP_6_1);
	assert_int_equal(cp_version_nearest(4, 19), CP_6_1);
	assert_int_equal(cp_version_nearest(7, 0), CP_6_12);
	cp_version_list(list, sizeof(list), ", ");
	assert_string_equal(list, "6.1, 6.12");
	cp_version_list(list, 4, "|");
	assert_string_equal(list, "6.1");	/* cut at a whole name */
	assert_int_equal(CPV_ALL, 3u);
	assert_int_equal(CPV_FROM(6_12), 2u);
	assert_int_equal(CPV_UPTO(6_1), 1u);
}

static void test_rules__find_is_case_insensitive(void **state)
{
	(void)state;
	assert_int_equal(rule_find("LONG_LINE", 9), R_LONG_LINE);
	assert_int_equal(rule_find("long_line", 9), R_LONG_LINE);
	assert_int_equal(rule_find("LONG_LINEX", 10), -1);
	assert_int_equal(rule_find("LONG_LINE_COMMENT", 9), R_LONG_LINE);
}

static void test_rules__style_covers_whitespace_and_long_lines(void **state)
{
	(void)state;
	assert_int_equal(rule_table[R_LONG_LINE].cat, CAT_STYLE);
	assert_int_equal(rule_table[R_TRAILING_WHITESPACE].cat, CAT_STYLE);
	assert_int_equal(rule_table[R_SPACING].cat, CAT_STYLE);
	assert_int_equal(rule_table[R_OPEN_BRACE].cat, CAT_STYLE);
	assert_int_equal(rule_table[R_CODE_INDENT].cat, CAT_STYLE);
	assert_int_equal(rule_table[R_MISSING_SIGN_OFF].cat, CAT_PROCESS);
	assert_int_equal(rule_table[R_DEPRECATED_SPINLOCK_INIT].cat, CAT_CORRECTNESS);
}

static void test_rules__options_parse_type_lists(void **state)
{
	struct chk_opts o;

	(void)state;
	chk_opts_init(&o);
	chk_opts_types(&o, " long_line , SPACING,NOT_A_TYPE,,", 0);
	assert_true(o.ignore[R_LONG_LINE]);
	assert_true(o.ignore[R_SPACING]);
	assert_false(o.ignore[R_CODE_INDENT]);
	assert_false(o.use_any);
	chk_opts_types(&o, "CODE_INDENT", 1);
	assert_true(o.use_any);
	assert_true(o.use[R_CODE_INDENT]);
	assert_int_equal(chk_opts_categories(&o, "security,uapi"), 0);
	assert_int_equal(o.categories, (1u << CAT_SECURITY) | (1u << CAT_UAPI));
	assert_int_equal(chk_opts_categories(&o, "nonsense"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules__table_is_sorted_unique_and_complete),
		cmocka_unit_test(test_rules__questions_are_never_security_or_uapi),
		cmocka_unit_test(test_rules__versions_of_each_type),
		cmocka_unit_test(test_rules__version_names_and_nearest),
		cmocka_unit_test(test_rules__find_is_case_insensitive),
		cmocka_unit_test(test_rules__style_covers_whitespace_and_long_lines),
		cmocka_unit_test(test_rules__options_parse_type_lists),
	};

	return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}

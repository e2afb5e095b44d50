// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of checker/readiness.c: findings mapped to the review's
 * checklist, concerns only from the rules certain enough to claim them,
 * series merged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/checker.h"
#include "../../checker/readiness.h"

/* A result holding findings of the given rules (only .rule matters). */
static void fake_result(struct chk_result *res, struct chk_finding *f,
			const enum rule_id *rules, size_t n)
{
	size_t i;

	memset(res, 0, sizeof(*res));
	memset(f, 0, n * sizeof(*f));
	for (i = 0; i < n; i++)
		f[i].rule = rules[i];
	res->f = f;
	res->n = n;
}

static void test_readiness__clean_patch_is_ok_but_build_unchecked(void **state)
{
	struct chk_result res;
	struct chk_finding f[1];
	struct chk_readiness r;

	(void)state;
	chk_readiness_init(&r);
	fake_result(&res, f, NULL, 0);
	chk_readiness_patch(&res, &r);
	assert_int_equal(r.crit[CHK_CRIT_SECURITY].state, CHK_READY_OK);
	assert_int_equal(r.crit[CHK_CRIT_UAPI].state, CHK_READY_OK);
	assert_int_equal(r.crit[CHK_CRIT_AFFECTS_OTHERS].state, CHK_READY_OK);
	assert_int_equal(r.crit[CHK_CRIT_MAINTAINER].state, CHK_READY_OK);
	assert_int_equal(r.crit[CHK_CRIT_COMPILES].state, CHK_READY_NOT_CHECKED);
	assert_int_equal(r.crit[CHK_CRIT_WORKS].state, CHK_READY_NOT_CHECKED);
	assert_int_equal(r.patches, 1);
	chk_readiness_release(&r);
}

static void test_readiness__findings_map_to_criteria(void **state)
{
	/* style, uapi, process (affects others), process (maintainer),
	 * checkpatch's FILE_PATH_CHANGES (no criterion), process (affects) */
	static const enum rule_id rules[] = {
		R_LONG_LINE, R_UAPI_SYSFS, R_SHARED_CODE_CHANGE,
		R_NEW_FILE_NO_MAINTAINERS, R_FILE_PATH_CHANGES,
		R_DRIVER_DEFAULT_ENABLED,
	};
	struct chk_result res;
	struct chk_finding f[6];
	struct chk_readiness r;

	(void)state;
	chk_readiness_init(&r);
	fake_result(&res, f, rules, 6);
	chk_readiness_patch(&res, &r);
	assert_int_equal(r.crit[CHK_CRIT_SECURITY].state, CHK_READY_OK);
	assert_int_equal(r.crit[CHK_CRIT_UAPI].state, CHK_READY_CONCERN);
	assert_int_equal(r.crit[CHK_CRIT_UAPI].n, 1);
	assert_int_equal(r.crit[CHK_CRIT_UAPI].refs[0].finding, 1);
	assert_int_equal(r.crit[CHK_CRIT_AFFECTS_OTHERS].state, CHK_READY_CONCERN);
	assert_int_equal(r.crit[CHK_CRIT_AFFECTS_OTHERS].n, 2);
	assert_int_equal(r.crit[CHK_CRIT_AFFECTS_OTHERS].refs[0].finding, 2);
	assert_int_equal(r.crit[CHK_CRIT_AFFECTS_OTHERS].refs[1].finding, 5);
	assert_int_equal(r.crit[CHK_CRIT_MAINTAINER].state, CHK_READY_CONCERN);
	assert_int_equal(r.crit[CHK_CRIT_MAINTAINER].n, 1);
	assert_int_equal(r.crit[CHK_CRIT_MAINTAINER].refs[0].finding, 3);
	assert_int_equal(r.per_cat[CAT_STYLE], 1);
	assert_int_equal(r.per_cat[CAT_UAPI], 1);
	assert_int_equal(r.per_cat[CAT_PROCESS], 4);
	assert_int_equal(r.per_cat[CAT_SECURITY], 0);
	chk_readiness_release(&r);
}

static void test_readiness__concerns_come_from_certain_rules_only(void **state)
{
	/* questions of security matters, then one certain finding each */
	static const enum rule_id rules[] = {
		R_STRING_COPY_CHECK, R_ALLOC_SIZE_CHECK, R_FORMAT_STRING_CHECK,
		R_SENSITIVE_FILE_CHECK, R_PRIV_WRITE_NO_CAPABLE, R_ALLOC_WITH_MULTIPLY,
		R_USE_SYSFS_EMIT, R_STRING_FUNC_DEPRECATED,
		R_UNBOUNDED_STRING_COPY, R_UAPI_REMOVED,
	};
	struct chk_result res;
	struct chk_finding f[10];
	struct chk_readiness r;

	(void)state;
	chk_readiness_init(&r);
	fake_result(&res, f, rules, 8);
	chk_readiness_patch(&res, &r);
	assert_int_equal(r.crit[CHK_CRIT_SECURITY].state, CHK_READY_OK);
	assert_int_equal(r.crit[CHK_CRIT_UAPI].state, CHK_READY_OK);
	fake_result(&res, f, rules, 10);
	chk_readiness_patch(&res, &r);
	assert_int_equal(r.crit[CHK_CRIT_SECURITY].state, CHK_READY_CONCERN);
	assert_int_equal(r.crit[CHK_CRIT_SECURITY].n, 1);
	assert_int_equal(r.crit[CHK_CRIT_SECURITY].refs[0].finding, 8);
	assert_int_equal(r.crit[CHK_CRIT_UAPI].state, CHK_READY_CONCERN);
	assert_int_equal(r.crit[CHK_CRIT_UAPI].n, 1);
	assert_int_equal(r.crit[CHK_CRIT_UAPI].refs[0].finding, 9);
	chk_readiness_release(&r);
}

static void test_readiness__series_merge_shifts_patches(void **state)
{
	static const enum rule_id p1[] = { R_LONG_LINE };
	static const enum rule_id p2[] = { R_LONG_LINE, R_NEW_FILE_NO_MAINTAINERS };
	static const enum rule_id p3[] = { R_NEW_FILE_NO_MAINTAINERS };
	struct chk_result res;
	struct chk_finding f[2];
	struct chk_readiness one, series;

	(void)state;
	chk_readiness_init(&one);
	chk_readiness_init(&series);
	fake_result(&res, f, p1, 1);
	chk_readiness_patch(&res, &one);
	chk_readiness_merge(&series, &one);
	assert_int_equal(series.crit[CHK_CRIT_MAINTAINER].state, CHK_READY_OK);
	fake_result(&res, f, p2, 2);
	chk_readiness_patch(&res, &one);
	chk_readiness_merge(&series, &one);
	fake_result(&res, f, p3, 1);
	chk_readiness_patch(&res, &one);
	chk_readiness_merge(&series, &one);
	assert_int_equal(series.patches, 3);
	assert_int_equal(series.crit[CHK_CRIT_MAINTAINER].state, CHK_READY_CONCERN);
	assert_int_equal(series.crit[CHK_CRIT_MAINTAINER].n, 2);
	assert_int_equal(series.crit[CHK_CRIT_MAINTAINER].refs[0].patch, 1);
	assert_int_equal(series.crit[CHK_CRIT_MAINTAINER].refs[0].finding, 1);
	assert_int_equal(series.crit[CHK_CRIT_MAINTAINER].refs[1].patch, 2);
	assert_int_equal(series.crit[CHK_CRIT_MAINTAINER].refs[1].finding, 0);
	assert_int_equal(series.crit[CHK_CRIT_SECURITY].state, CHK_READY_OK);
	assert_int_equal(series.crit[CHK_CRIT_COMPILES].state, CHK_READY_NOT_CHECKED);
	assert_int_equal(series.per_cat[CAT_STYLE], 2);
	assert_int_equal(series.per_cat[CAT_PROCESS], 2);
	/* merging two whole series shifts by the patches already there */
	chk_readiness_merge(&series, &one);
	assert_int_equal(series.patches, 4);
	assert_int_equal(series.crit[CHK_CRIT_MAINTAINER].refs[2].patch, 3);
	chk_readiness_release(&one);
	chk_readiness_release(&series);
}

static void test_readiness__names(void **state)
{
	(void)state;
	assert_string_equal(chk_ready_name(CHK_READY_OK), "ok");
	assert_string_equal(chk_ready_name(CHK_READY_CONCERN), "concern");
	assert_string_equal(chk_ready_name(CHK_READY_NOT_CHECKED), "not checked");
	assert_string_equal(chk_criterion_name(CHK_CRIT_AFFECTS_OTHERS), "affects_others");
	assert_string_equal(chk_criterion_name(CHK_CRIT_WORKS), "works");
}

/* A new driver file, a Kconfig default y, no MAINTAINERS: end to end. */
static const char new_driver_patch[] =
	"From: Jane Doe <jane@example.com>\n"
	"Subject: [PATCH] misc: add Acme AL100 driver\n"
	"\n"
	"Add a driver for the Acme AL100 light sensor.\n"
	"\n"
	"Signed-off-by: Jane Doe <jane@example.com>\n"
	"---\n"
	"diff --git a/drivers/misc/Kconfig b/drivers/misc/Kconfig\n"
	"--- a/drivers/misc/Kconfig\n"
	"+++ b/drivers/misc/Kconfig\n"
	"@@ -1,2 +1,7 @@\n"
	" menu \"Misc devices\"\n"
	"+config ACME_AL100\n"
	"+\ttristate \"Acme AL100 light sensor\"\n"
	"+\tdepends on I2C\n"
	"+\tdefault y\n"
	"+\n"
	" endmenu\n"
	"diff --git a/drivers/misc/acme.c b/drivers/misc/acme.c\n"
	"new file mode 100644\n"
	"--- /dev/null\n"
	"+++ b/drivers/misc/acme.c\n"
	"@@ -0,0 +1,3 @@\n"
	"+// SPDX-License-Identifier: GPL-2.0-only\n"
	"+#include <linux/module.h>\n"
	"+MODULE_LICENSE(\"GPL\");\n";

static void test_readiness__from_a_real_run(void **state)
{
	struct chk_opts o;
	struct chk_result res;
	struct chk_readiness r;

	(void)state;
	chk_opts_init(&o);
	o.extra = 1;
	memset(&res, 0, sizeof(res));
	assert_int_equal(chk_run(&o, "t.patch", new_driver_patch,
				 sizeof(new_driver_patch) - 1, &res), 0);
	chk_readiness_init(&r);
	chk_readiness_patch(&res, &r);
	assert_int_equal(r.crit[CHK_CRIT_MAINTAINER].state, CHK_READY_CONCERN);
	assert_int_equal(res.f[r.crit[CHK_CRIT_MAINTAINER].refs[0].finding].rule,
			 R_NEW_FILE_NO_MAINTAINERS);
	assert_int_equal(r.crit[CHK_CRIT_AFFECTS_OTHERS].state, CHK_READY_CONCERN);
	assert_int_equal(res.f[r.crit[CHK_CRIT_AFFECTS_OTHERS].refs[0].finding].rule,
			 R_DRIVER_DEFAULT_ENABLED);
	assert_int_equal(r.crit[CHK_CRIT_SECURITY].state, CHK_READY_OK);
	chk_readiness_release(&r);
	chk_result_release(&res);
}

static void test_readiness__process_only_for_what_blocks_applying(void **state)
{
	/* a malformed sign-off and a fix without Fixes: block applying; a
	 * typo, a subject's wording and a link's form do not */
	static const enum rule_id rules[] = {
		R_TYPO_SPELLING, R_BAD_SIGN_OFF, R_EMAIL_SUBJECT, R_MISSING_FIXES_TAG,
		R_COMMIT_LOG_USE_LINK,
	};
	struct chk_result res;
	struct chk_finding f[5];
	struct chk_readiness r;

	(void)state;
	chk_readiness_init(&r);
	fake_result(&res, f, rules, 5);
	chk_readiness_patch(&res, &r);
	assert_int_equal(r.crit[CHK_CRIT_PROCESS].state, CHK_READY_CONCERN);
	assert_int_equal(r.crit[CHK_CRIT_PROCESS].n, 2);
	assert_int_equal(r.crit[CHK_CRIT_PROCESS].refs[0].finding, 1);
	assert_int_equal(r.crit[CHK_CRIT_PROCESS].refs[1].finding, 3);
	assert_string_equal(chk_process_kind(R_BAD_SIGN_OFF), "the sign-off chain");
	assert_string_equal(chk_process_kind(R_SIGN_OFF_NOT_SENDER), "the sign-off chain");
	assert_string_equal(chk_process_kind(R_MISSING_FIXES_TAG), "a fix without a Fixes: tag");
	assert_null(chk_process_kind(R_TYPO_SPELLING));
	assert_null(chk_process_kind(R_LONG_LINE));
	assert_int_equal(chk_criterion_of(R_TYPO_SPELLING), -1);
	assert_int_equal(chk_criterion_of(R_FROM_SIGN_OFF_MISMATCH), CHK_CRIT_PROCESS);
	assert_int_equal(chk_criterion_of((enum rule_id)RULE__COUNT), -1);
	assert_string_equal(chk_criterion_name(CHK_CRIT_PROCESS), "process");
	chk_readiness_release(&r);
	/* nothing of the kind: no concern */
	fake_result(&res, f, rules, 1);
	chk_readiness_patch(&res, &r);
	assert_int_equal(r.crit[CHK_CRIT_PROCESS].state, CHK_READY_OK);
	chk_readiness_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readiness__process_only_for_what_blocks_applying),
		cmocka_unit_test(test_readiness__clean_patch_is_ok_but_build_unchecked),
		cmocka_unit_test(test_readiness__findings_map_to_criteria),
		cmocka_unit_test(test_readiness__concerns_come_from_certain_rules_only),
		cmocka_unit_test(test_readiness__series_merge_shifts_patches),
		cmocka_unit_test(test_readiness__names),
		cmocka_unit_test(test_readiness__from_a_real_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The checker per checkpatch.pl version (chk_opts.cp_version): the
 * default, each version's rules, the patterns compiled per version (the
 * build's table and compiled at run time agree, and a checker switched
 * between versions gives what a fresh one gives), --no-fixes-tag, and
 * MISSING_FIXES_TAG said once with --extra.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/checker.h"
#include "../../checker/checkpatch/re.h"
#include "../../checker/spelling.h"
#include "../../bot/patterns.h"
#include "check_fixture.h"

#define MAX_INPUTS 512

static const char strcpy_patch[] =
	"From: A <a@example.org>\nSubject: [PATCH] x: copy\n\nCopy the name.\n\n"
	"Signed-off-by: A <a@example.org>\n---\n"
	"--- a/drivers/x.c\n+++ b/drivers/x.c\n@@ -1,1 +1,3 @@\n int a;\n"
	"+\tstrcpy(name, src);\n+\tstrlcpy(name, src, 4);\n";

static const char kasan_patch[] =
	"From: A <a@example.org>\nSubject: [PATCH] x: fix a leak\n\n"
	"Fix an info leak found by syzkaller:\n\n  BUG: KASAN: slab-out-of-bounds\n\n"
	"Signed-off-by: A <a@example.org>\n---\n"
	"--- a/drivers/x.c\n+++ b/drivers/x.c\n@@ -1,1 +1,2 @@\n int a;\n"
	"+int b;\n";

/* The findings of type id in a check of buf with o */
static int count(const struct chk_opts *o, const char *buf, enum rule_id id)
{
	struct chk_result r;
	size_t i;
	int n = 0;

	chk_run(o, "x.patch", buf, strlen(buf), &r);
	assert_null(r.error);
	for (i = 0; i < r.n; i++)
		n += r.f[i].rule == id;
	chk_result_release(&r);
	return n;
}

static void test_cpversion__default_is_the_newest(void **state)
{
	struct chk_opts o;

	(void)state;
	chk_opts_init(&o);
	assert_int_equal(o.cp_version, CP_LATEST);
	assert_int_equal(o.cp_version, CP_6_12);
	assert_int_equal(o.fixes_tag, 1);
	assert_int_equal(count(&o, strcpy_patch, R_STRCPY), 1);
	/* a value out of range is taken as the newest */
	o.cp_version = (enum cp_version)CP__COUNT;
	assert_int_equal(count(&o, strcpy_patch, R_STRCPY), 1);
	o.cp_version = (enum cp_version)-1;
	assert_int_equal(count(&o, strcpy_patch, R_STRCPY), 1);
}

static void test_cpversion__each_version_its_rules_and_messages(void **state)
{
	struct chk_opts o;
	struct chk_result r;
	size_t i;
	int seen = 0;

	(void)state;
	chk_opts_init(&o);
	o.cp_version = CP_6_1;
	assert_int_equal(count(&o, strcpy_patch, R_STRCPY), 0);
	assert_int_equal(count(&o, strcpy_patch, R_STRLCPY), 1);
	assert_int_equal(count(&o, kasan_patch, R_MISSING_FIXES_TAG), 0);
	o.cp_version = CP_6_12;
	assert_int_equal(count(&o, strcpy_patch, R_STRCPY), 1);
	assert_int_equal(count(&o, kasan_patch, R_MISSING_FIXES_TAG), 1);
	/* STRLCPY in both, with each version's link */
	for (o.cp_version = CP_6_1; o.cp_version < CP__COUNT; o.cp_version++) {
		chk_run(&o, "x.patch", strcpy_patch, strlen(strcpy_patch), &r);
		for (i = 0; i < r.n; i++) {
			if (r.f[i].rule != R_STRLCPY)
				continue;
			seen++;
			assert_non_null(strstr(r.f[i].msg, o.cp_version == CP_6_1 ?
						  "lore.kernel.org" : "KSPP/linux/issues/89"));
		}
		chk_result_release(&r);
	}
	assert_int_equal(seen, 2);
}

static void test_cpversion__no_fixes_tag(void **state)
{
	struct chk_opts o;
	struct chk_result r;
	size_t i;

	(void)state;
	chk_opts_init(&o);
	o.fixes_tag = 0;
	assert_int_equal(count(&o, kasan_patch, R_MISSING_FIXES_TAG), 0);
	o.fixes_tag = 1;
	chk_run(&o, "x.patch", kasan_patch, strlen(kasan_patch), &r);
	for (i = 0; i < r.n && r.f[i].rule != R_MISSING_FIXES_TAG; i++)
		;
	assert_true(i < r.n);
	assert_string_equal(r.f[i].msg,
			    "The commit message has 'BUG: KASAN: ', perhaps it also needs a 'Fixes:' tag?");
	chk_result_release(&r);
	/* not with -f, as checkpatch.pl */
	o.file = 1;
	assert_int_equal(count(&o, kasan_patch, R_MISSING_FIXES_TAG), 0);
}

/*
 * With --extra, reviewbot's MISSING_FIXES_TAG (an info leak without
 * Fixes: and Cc: stable, on its line) and checkpatch.pl 6.12's (the KASAN
 * report, at the end) are the same concern: said once.
 */
static void test_cpversion__missing_fixes_tag_said_once(void **state)
{
	static const char leak_patch[] =
		"From: A <a@example.org>\nSubject: [PATCH] x: clear the padding\n\n"
		"This was an info leak, found by syzkaller:\n\n  BUG: KASAN: slab-out-of-bounds\n\n"
		"Signed-off-by: A <a@example.org>\n---\n"
		"--- a/drivers/x.c\n+++ b/drivers/x.c\n@@ -1,1 +1,2 @@\n int a;\n"
		"+int b;\n";
	struct chk_opts o;
	struct chk_result r;
	size_t i;

	(void)state;
	chk_opts_init(&o);
	o.extra = 1;
	/* reviewbot's, on the line of the leak: checkpatch.pl's is left out */
	chk_run(&o, "x.patch", leak_patch, strlen(leak_patch), &r);
	for (i = 0; i < r.n && r.f[i].rule != R_MISSING_FIXES_TAG; i++)
		;
	assert_true(i < r.n);
	assert_non_null(strstr(r.f[i].msg, "security fix"));
	assert_int_equal(r.f[i].patch_line, 4);
	for (i++; i < r.n; i++)
		assert_int_not_equal(r.f[i].rule, R_MISSING_FIXES_TAG);
	chk_result_release(&r);
	o.cp_version = CP_6_1;
	assert_int_equal(count(&o, leak_patch, R_MISSING_FIXES_TAG), 1);
	/* without --extra, checkpatch.pl's alone */
	o.extra = 0;
	o.cp_version = CP_6_12;
	assert_int_equal(count(&o, leak_patch, R_MISSING_FIXES_TAG), 1);
	/* reviewbot's not shown (a CHECK without --strict): checkpatch.pl's is */
	o.extra = 1;
	assert_int_equal(count(&o, kasan_patch, R_MISSING_FIXES_TAG), 1);
	o.cp_version = CP_6_1;
	assert_int_equal(count(&o, kasan_patch, R_MISSING_FIXES_TAG), 0);
	/* the type ignored: neither */
	o.cp_version = CP_6_12;
	chk_opts_types(&o, "MISSING_FIXES_TAG", 0);
	assert_int_equal(count(&o, leak_patch, R_MISSING_FIXES_TAG), 0);
	assert_int_equal(count(&o, kasan_patch, R_MISSING_FIXES_TAG), 0);
}

struct inputs {
	glob_t g;
	size_t n;
	char *buf[MAX_INPUTS];
	size_t len[MAX_INPUTS];
};

static struct inputs in;

static int setup(void **state)
{
	size_t i;

	(void)state;
	memset(&in, 0, sizeof(in));
	if (glob("tests/checker/*/in.patch", 0, NULL, &in.g))
		return -1;
	in.n = in.g.gl_pathc < MAX_INPUTS ? in.g.gl_pathc : MAX_INPUTS;
	for (i = 0; i < in.n; i++)
		if (!(in.buf[i] = slurp(in.g.gl_pathv[i], &in.len[i])))
			return -1;
	return 0;
}

static int teardown(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < in.n; i++)
		free(in.buf[i]);
	globfree(&in.g);
	return 0;
}

static char *run(const struct chk_opts *o, size_t i)
{
	struct chk_result r;
	int ret = chk_run(o, "in.patch", in.buf[i], in.len[i], &r);
	char *s = render(o, ret, &r);

	chk_result_release(&r);
	return s;
}

/*
 * Each golden input, each version, default and --strict: the patterns of
 * the build's table (some there once per version) give what the same
 * patterns compiled at run time give, and one checker switched from
 * version to version between inputs gives what a fresh one gives.
 */
static void test_cpversion__patterns_per_version(void **state)
{
	struct chk_opts o[CP__COUNT], plain;
	struct chk_checker *c;
	char **ref[CP__COUNT];
	size_t i;
	int v, strict;

	(void)state;
	assert_true(in.n > 100);
	for (strict = 0; strict < 2; strict++) {
		for (v = 0; v < CP__COUNT; v++) {
			chk_opts_init(&o[v]);
			o[v].cp_version = (enum cp_version)v;
			o[v].strict = strict;
			o[v].extra = 1;
			o[v].patterns = &reviewbot_patterns;
			o[v].const_structs = reviewbot_cp_data[v].const_structs;
			plain = o[v];
			plain.patterns = NULL;
			ref[v] = calloc(in.n, sizeof(char *));
			assert_non_null(ref[v]);
			for (i = 0; i < in.n; i++) {
				char *got;

				ref[v][i] = run(&o[v], i);
				got = run(&plain, i);
				if (strcmp(got, ref[v][i]))
					fail_msg("%s: precompiled and compiled differ (%s, strict %d)",
						 in.g.gl_pathv[i], cp_version_name((enum cp_version)v),
						 strict);
				free(got);
			}
		}
		/* one checker, its options changed between inputs: every
		 * input in every version in turn */
		plain = o[0];
		c = chk_new(&plain);
		assert_non_null(c);
		for (i = 0; i < in.n; i++) {
			for (v = 0; v < CP__COUNT; v++) {
				int w = (int)((i + (size_t)v) % CP__COUNT);
				struct chk_result r;
				char *got;
				int ret;

				plain = o[w];
				assert_int_equal(chk_reset(c), 0);
				ret = chk_check(c, "in.patch", in.buf[i], in.len[i], &r);
				got = render(&plain, ret, &r);
				chk_result_release(&r);
				if (strcmp(got, ref[w][i]))
					fail_msg("%s: a switched checker differs (%s, strict %d)",
						 in.g.gl_pathv[i], cp_version_name((enum cp_version)w),
						 strict);
				free(got);
			}
		}
		chk_free(c);
		for (v = 0; v < CP__COUNT; v++) {
			for (i = 0; i < in.n; i++)
				free(ref[v][i]);
			free(ref[v]);
		}
	}
}

/* The built-in data: each version's lists, loadable, 6.12's the larger. */
static void test_cpversion__built_in_data(void **state)
{
	struct chk_spelling *sp[CP__COUNT];
	int v;

	(void)state;
	for (v = 0; v < CP__COUNT; v++) {
		const struct chk_cp_data *d = &reviewbot_cp_data[v];

		assert_true(((uintptr_t)d->spelling_image & 7) == 0);
		sp[v] = chk_spelling_from_image(d->spelling_image, d->spelling_image_len);
		assert_non_null(sp[v]);
		assert_int_equal(chk_spelling_count(sp[v]), d->spelling_entries);
		assert_true(d->spelling_entries > 1000);
		assert_non_null(chk_spelling_fix(sp[v], "recieve", 7));
		assert_non_null(strstr(d->const_structs, "file_operations"));
	}
	assert_true(reviewbot_cp_data[CP_6_12].spelling_entries >
		    reviewbot_cp_data[CP_6_1].spelling_entries);
	/* const_structs.checkpatch of 6.12 adds regmap_config */
	assert_null(strstr(reviewbot_cp_data[CP_6_1].const_structs, "regmap_config"));
	assert_non_null(strstr(reviewbot_cp_data[CP_6_12].const_structs, "regmap_config"));
	for (v = 0; v < CP__COUNT; v++)
		chk_spelling_free(sp[v]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpversion__default_is_the_newest),
		cmocka_unit_test(test_cpversion__each_version_its_rules_and_messages),
		cmocka_unit_test(test_cpversion__no_fixes_tag),
		cmocka_unit_test(test_cpversion__missing_fixes_tag_said_once),
		cmocka_unit_test(test_cpversion__built_in_data),
		cmocka_unit_test_setup_teardown(test_cpversion__patterns_per_version,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

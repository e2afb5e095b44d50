// SPDX-License-Identifier: GPL-2.0-only
/*
 * The checker's per-line and per-check limits.  A line whose checks ask
 * for more scratch memory than ENG_ARENA_MAX (a #define with 8,500
 * arguments did, and crashed the bot at every start) is skipped from that
 * point on, the other lines checked, and the result says so
 * (CHK_LINE_SKIPPED); the arena's helpers then hand out writable empty
 * strings, never read-only ones.  opts.time_limit_ms ends a check with
 * CHK_TIMED_OUT, and a generous one changes nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "../../checker/checkpatch/eng.h"
#include "check_fixture.h"

extern const struct re_precompiled_set reviewbot_patterns;

/* the #N of the first added line in patch_of() */
#define FIRST_ADDED	19

/*
 * A format-patch mail adding the lines given (NULL-terminated) to a C
 * file, as `git format-patch` writes it; the first one is #19.
 */
static char *patch_of(const char *const *lines)
{
	struct sbuf sb;
	size_t n = 0;
	char *p;

	while (lines[n])
		n++;
	sbuf_init(&sb, 1u << 28);
	sbuf_addf(&sb,
		  "From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
		  "From: A Person <a@example.com>\n"
		  "Date: Mon, 1 Jan 2024 00:00:00 +0000\n"
		  "Subject: [PATCH] foo: add a thing\n"
		  "\n"
		  "Add a thing.\n"
		  "\n"
		  "Signed-off-by: A Person <a@example.com>\n"
		  "---\n"
		  " drivers/foo/foo.c | %zu +\n"
		  " 1 file changed, %zu insertion(+)\n"
		  "\n"
		  "diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c\n"
		  "index 1111111..2222222 100644\n"
		  "--- a/drivers/foo/foo.c\n"
		  "+++ b/drivers/foo/foo.c\n"
		  "@@ -1,3 +1,%zu @@\n"
		  " #include <linux/foo.h>\n", n, n, n + 3);
	for (n = 0; lines[n]; n++) {
		sbuf_addch(&sb, '+');
		sbuf_addstr(&sb, lines[n]);
		sbuf_addch(&sb, '\n');
	}
	sbuf_addstr(&sb, " \n int x;\n-- \n2.40.0\n");
	assert_int_equal(sb.err, 0);
	p = strndup(sb.buf, sb.len);
	sbuf_release(&sb);
	assert_non_null(p);
	return p;
}

/* head, then n times item joined by sep, then tail */
static char *repeat_join(const char *head, const char *item, const char *sep,
			 size_t n, const char *tail)
{
	struct sbuf sb;
	size_t i;
	char *p;

	sbuf_init(&sb, 1u << 28);
	sbuf_addstr(&sb, head);
	for (i = 0; i < n; i++) {
		if (i)
			sbuf_addstr(&sb, sep);
		sbuf_addstr(&sb, item);
	}
	sbuf_addstr(&sb, tail);
	p = strndup(sb.buf, sb.len);
	sbuf_release(&sb);
	assert_non_null(p);
	return p;
}

static void opts(struct chk_opts *o, int strict, int extra)
{
	chk_opts_init(o);
	o->strict = strict;
	o->extra = extra;
	o->patterns = &reviewbot_patterns;
}

static const struct chk_finding *find(const struct chk_result *r,
				      const char *type, long patch_line)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(rule_table[r->f[i].rule].name, type) &&
		    r->f[i].patch_line == patch_line)
			return &r->f[i];
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the engine's arena on a failed line ---- */

struct fixture {
	struct chk_opts o;
	struct chk_result res;
	struct eng e;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	chk_opts_init(&f->o);
	f->e.o = &f->o;
	f->e.res = &f->res;
	f->e.rc = re_ctx_new();
	if (!f->e.rc) {
		free(f);
		return -1;
	}
	sanitise_line_reset(&f->e, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	arena_free_all(&f->e);
	re_ctx_free(f->e.rc);
	free(f);
	return 0;
}

static void test_check_limits__failed_line_helpers_give_writable_empty_strings(void **state)
{
	struct fixture *f = *state;
	struct eng *e = &f->e;
	char *s;

	assert_non_null(eng_alloc(e, 100));
	assert_null(eng_alloc(e, (size_t)ENG_ARENA_MAX + 1));
	assert_true(e->line_skip);
	/* every later request on the line fails, small ones too */
	assert_null(eng_alloc(e, 16));
	s = eng_strndup(e, "abc", 3);
	assert_non_null(s);
	assert_string_equal(s, "");
	s[0] = '\0';		/* writable: read-only memory would fault */
	s = eng_printf(e, "%s%d", "x", 1);
	assert_string_equal(s, "");
	s[0] = '\0';
	assert_string_equal(eng_cat(e, "a", "b"), "");
	/* these once wrote past "" up to their argument's length */
	assert_string_equal(eng_nl_blank(e, "a\nb\nc\nd"), "");
	assert_string_equal(eng_fs_blank(e, "a\034b\034c"), "");
	assert_string_equal(eng_subst(e, "a", "b", "aaa", 1), "");
	assert_string_equal(copy_spacing(e, "\tab"), "");
	assert_string_equal(expand_tabs(e, "\tab"), "");
	assert_string_equal(trim(e, "  ab  "), "");
	assert_string_equal(eng_pat(e, "a%s", "b"), "(*FAIL)");

	/* the next line starts afresh */
	eng_arena_reset(e);
	e->line_skip = 0;
	s = eng_strndup(e, "abc", 3);
	assert_string_equal(s, "abc");
	assert_false(e->line_skip);
}

static void test_check_limits__sanitise_out_of_scratch_writes_nothing(void **state)
{
	struct fixture *f = *state;
	struct eng *e = &f->e;
	size_t n = 2u << 20;
	char *line = malloc(n + 1);

	assert_non_null(line);
	memset(line, 'a', n);
	memcpy(line, "+\tx = \"", 7);
	line[n] = '\0';
	/* the arena nearly full: the line's copy does not fit */
	assert_non_null(eng_alloc(e, ENG_ARENA_MAX - (1u << 20)));
	assert_null(sanitise_line(e, line));
	assert_true(e->line_skip);
	free(line);
}

/* ---- whole checks ---- */

/* "#define X(a,a,a,...) a" with n arguments */
static char *define_with_args(size_t n)
{
	return repeat_join("#define X(", "a", ",", n, ") a");
}

static void test_check_limits__define_with_8500_arguments_is_skipped_not_a_crash(void **state)
{
	char *def = define_with_args(8500);
	const char *lines[] = { def, "int y; ", NULL };
	char *patch = patch_of(lines);
	struct chk_opts o;
	struct chk_result r;
	struct sbuf out;
	int mode, ret;

	(void)state;
	sbuf_init(&out, CHK_MAX_REPORT);
	for (mode = 0; mode < 2; mode++) {
		opts(&o, mode, mode);
		ret = chk_run(&o, "poison.patch", patch, strlen(patch), &r);
		assert_int_equal(ret, -1);
		assert_int_equal(r.flags, CHK_LINE_SKIPPED);
		assert_int_equal(r.lines_skipped, 1);
		assert_int_equal(r.first_skipped, FIRST_ADDED);
		assert_non_null(r.error);
		assert_non_null(strstr(r.error, "line #19 too complex"));
		/* found before the limit: kept */
		assert_non_null(find(&r, "LONG_LINE", FIRST_ADDED));
		/* the line after is checked as usual */
		assert_non_null(find(&r, "TRAILING_WHITESPACE", FIRST_ADDED + 1));
		assert_true(r.is_patch);
		assert_false(r.clean);
		/* --json says why the check is incomplete */
		sbuf_reset(&out);
		chk_format_json(&o, &r, "poison.patch", &out);
		assert_non_null(strstr(out.buf, ",\"incomplete\":[\"line_skipped\"],"
				       "\"lines_skipped\":1,\"first_skipped\":19}"));
		chk_result_release(&r);
	}
	sbuf_release(&out);
	free(patch);
	free(def);
}

static void test_check_limits__lines_after_a_too_complex_line_are_checked(void **state)
{
	/* each comma's report quotes the whole line: the scratch memory
	 * runs out after ~6,000 of them */
	char *call = repeat_join("\tfoo(", "a", ",", 20000, ");");
	const char *lines[] = { call, "int y; ", "int z; ", NULL };
	char *patch = patch_of(lines);
	struct chk_opts o;
	struct chk_result r;

	(void)state;
	opts(&o, 0, 1);
	assert_int_equal(chk_run(&o, "poison.patch", patch, strlen(patch), &r), -1);
	assert_int_equal(r.flags, CHK_LINE_SKIPPED);
	assert_int_equal(r.lines_skipped, 1);
	assert_int_equal(r.first_skipped, FIRST_ADDED);
	assert_non_null(find(&r, "SPACING", FIRST_ADDED));
	assert_non_null(find(&r, "TRAILING_WHITESPACE", FIRST_ADDED + 1));
	assert_non_null(find(&r, "TRAILING_WHITESPACE", FIRST_ADDED + 2));
	chk_result_release(&r);
	free(patch);
	free(call);
}

static void test_check_limits__time_limit_ends_a_slow_check(void **state)
{
	/* 60 lines of 1,500 commas: each takes tens of ms */
	char *call = repeat_join("\tfoo(", "a", ",", 1500, ");");
	const char *lines[61];
	char *patch;
	struct chk_opts o;
	struct chk_result r;
	double t0, took;
	size_t i;

	(void)state;
	for (i = 0; i < 60; i++)
		lines[i] = call;
	lines[60] = NULL;
	patch = patch_of(lines);
	opts(&o, 0, 1);
	o.time_limit_ms = 100;
	t0 = now_s();
	assert_int_equal(chk_run(&o, "slow.patch", patch, strlen(patch), &r), -1);
	took = now_s() - t0;
	assert_true(r.flags & CHK_TIMED_OUT);
	assert_false(r.flags & CHK_LINE_SKIPPED);
	assert_true(r.stopped_at >= 1 && r.stopped_at < FIRST_ADDED + 60);
	assert_non_null(strstr(r.error, "timed out after 100 ms"));
	for (i = 0; i < r.n; i++)
		assert_true(r.f[i].patch_line <= r.stopped_at);
	if (took > 10)
		fail_msg("a 100 ms limit took %.1f s", took);
	chk_result_release(&r);
	free(patch);
	free(call);
}

static void test_check_limits__time_limit_cuts_a_slow_match_short(void **state)
{
	/* a comment of 1 MB: its sanitised line is 1 MB of spaces that one
	 * pattern backtracks through for minutes (checkpatch.pl: 2) */
	char *cmt = repeat_join("\t/* ", "x", " ", 500000, " */");
	const char *lines[] = { cmt, NULL };
	char *patch = patch_of(lines);
	struct chk_opts o;
	struct chk_result r;
	double t0, took;

	(void)state;
	opts(&o, 0, 0);
	o.time_limit_ms = 300;
	t0 = now_s();
	assert_int_equal(chk_run(&o, "slow.patch", patch, strlen(patch), &r), -1);
	took = now_s() - t0;
	assert_int_equal(r.flags, CHK_TIMED_OUT);
	/* (a slow build may run out of time before the comment's line) */
	assert_true(r.stopped_at >= 1 && r.stopped_at <= FIRST_ADDED);
	/* unbounded: 217 s on this machine */
	if (took > 60)
		fail_msg("a 300 ms limit took %.1f s", took);
	chk_result_release(&r);
	free(patch);
	free(cmt);
}

static void test_check_limits__generous_time_limit_changes_nothing(void **state)
{
	struct chk_opts o1, o2;
	glob_t g;
	size_t i;

	(void)state;
	assert_int_equal(glob("tests/checker/*/in.patch", 0, NULL, &g), 0);
	assert_true(g.gl_pathc > 10);
	opts(&o1, 1, 1);
	opts(&o2, 1, 1);
	o2.time_limit_ms = 3600u * 1000u;
	for (i = 0; i < g.gl_pathc; i++) {
		struct chk_result r1, r2;
		size_t n;
		char *buf = slurp(g.gl_pathv[i], &n), *a, *b;
		int ret1, ret2;

		assert_non_null(buf);
		ret1 = chk_run(&o1, "in.patch", buf, n, &r1);
		ret2 = chk_run(&o2, "in.patch", buf, n, &r2);
		a = render(&o1, ret1, &r1);
		b = render(&o2, ret2, &r2);
		if (strcmp(a, b))
			fail_msg("%s: a time limit changed the result", g.gl_pathv[i]);
		assert_int_equal(r2.flags, 0);
		free(a);
		free(b);
		chk_result_release(&r1);
		chk_result_release(&r2);
		free(buf);
	}
	globfree(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_check_limits__failed_line_helpers_give_writable_empty_strings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_limits__sanitise_out_of_scratch_writes_nothing, setup, teardown),
		cmocka_unit_test(test_check_limits__define_with_8500_arguments_is_skipped_not_a_crash),
		cmocka_unit_test(test_check_limits__lines_after_a_too_complex_line_are_checked),
		cmocka_unit_test(test_check_limits__time_limit_ends_a_slow_check),
		cmocka_unit_test(test_check_limits__time_limit_cuts_a_slow_match_short),
		cmocka_unit_test(test_check_limits__generous_time_limit_changes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

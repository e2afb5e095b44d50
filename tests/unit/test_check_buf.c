// SPDX-License-Identifier: GPL-2.0-only
/*
 * chk_check_buf(): checking a buffer split in place gives what
 * chk_check() on a const copy gives (it copies, then splits), on every
 * golden input and on inputs with odd line ends; and a finding's msg and
 * file, kept in its text's allocation, read as before.  A sink
 * (chk_opts.sink) is handed the findings a result would have kept.
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
#include "check_fixture.h"

extern const struct re_precompiled_set reviewbot_patterns;


/* buf[0, n) through chk_check() and chk_check_buf(): the same result. */
static void same_both_ways(const struct chk_opts *o, const char *buf, size_t n,
			   const char *what)
{
	struct chk_checker *c1 = chk_new(o), *c2 = chk_new(o);
	struct chk_result r;
	char *w = malloc(n + 1), *a, *b;
	int ret;

	assert_non_null(c1);
	assert_non_null(c2);
	assert_non_null(w);
	memcpy(w, buf, n);
	w[n] = '\0';
	ret = chk_check(c1, "in.patch", buf, n, &r);
	a = render(o, ret, &r);
	chk_result_release(&r);
	ret = chk_check_buf(c2, "in.patch", w, n, &r);
	b = render(o, ret, &r);
	chk_result_release(&r);
	if (strcmp(a, b))
		fail_msg("%s: chk_check_buf() differs from chk_check()", what);
	free(a);
	free(b);
	free(w);
	chk_free(c1);
	chk_free(c2);
}

static void opts(struct chk_opts *o, int extra, int file)
{
	chk_opts_init(o);
	o->extra = extra;
	o->file = file;
	o->patterns = &reviewbot_patterns;
}

static void test_check_buf__golden_inputs_give_chk_check_results(void **state)
{
	struct chk_opts o;
	glob_t g;
	size_t i;
	int extra;

	(void)state;
	assert_int_equal(glob("tests/checker/*/in.patch", 0, NULL, &g), 0);
	assert_true(g.gl_pathc > 10);
	for (extra = 0; extra < 2; extra++) {
		opts(&o, extra, 0);
		for (i = 0; i < g.gl_pathc; i++) {
			size_t n;
			char *buf = slurp(g.gl_pathv[i], &n);

			assert_non_null(buf);
			same_both_ways(&o, buf, n, g.gl_pathv[i]);
			free(buf);
		}
	}
	globfree(&g);
}

static const char head[] =
	"From: A <a@example.org>\nSubject: [PATCH] x\n\nx\n\n"
	"Signed-off-by: A <a@example.org>\n---\n"
	"diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1,1 +1,4 @@\n int a;\n";

/* No newline at the end, a NUL inside a line, CRs, nothing at all. */
static void test_check_buf__odd_line_ends(void **state)
{
	static const char nul[] = "+int y = y;\0 /* c */\n+  char *s = \"a\0b\"; // hi";
	struct chk_opts o;
	struct sbuf sb;
	int file;

	(void)state;
	for (file = 0; file < 2; file++) {
		opts(&o, 1, file);
		sbuf_init(&sb, 1u << 20);
		sbuf_addstr(&sb, head);
		sbuf_add(&sb, nul, sizeof(nul) - 1);
		same_both_ways(&o, sb.buf, sb.len, "no final newline, NULs");
		sbuf_addch(&sb, '\n');
		same_both_ways(&o, sb.buf, sb.len, "final newline, NULs");
		sbuf_reset(&sb);
		sbuf_addstr(&sb, head);
		sbuf_addstr(&sb, "+\tint b; /* x */\r\n+\r\n\n\n+\tb = 1;  ");
		same_both_ways(&o, sb.buf, sb.len, "CRs and blank lines");
		same_both_ways(&o, "", 0, "empty input");
		same_both_ways(&o, "\n", 1, "one newline");
		same_both_ways(&o, "x", 1, "one byte");
		sbuf_release(&sb);
	}
}

/* msg is the message's first line; file and line come with the location. */
static void test_check_buf__finding_fields_share_one_allocation(void **state)
{
	struct chk_opts o;
	struct chk_checker *c;
	struct chk_result r;
	struct sbuf sb;
	size_t i;
	int located = 0;

	(void)state;
	opts(&o, 0, 0);
	c = chk_new(&o);
	assert_non_null(c);
	sbuf_init(&sb, 1u << 20);
	sbuf_addstr(&sb, head);
	sbuf_addstr(&sb, "+int  b ;   \n");
	chk_check_buf(c, "in.patch", sb.buf, sb.len, &r);
	assert_true(r.n > 0);
	for (i = 0; i < r.n; i++) {
		const struct chk_finding *f = &r.f[i];

		assert_null(strchr(f->msg, '\n'));
		assert_non_null(strstr(f->text, f->msg));
		if (f->file) {
			located++;
			assert_string_equal(f->file, "x.c");
			assert_int_equal(f->line, 2);
		}
	}
	assert_true(located > 0);
	chk_result_release(&r);
	sbuf_release(&sb);
	chk_free(c);
}

/* One finding as render() writes it. */
static void finding_line(struct sbuf *sb, const struct chk_finding *f)
{
	sbuf_addf(sb, "%d %d %ld %ld %s %s\n%s", (int)f->rule, (int)f->sev,
		  f->line, f->patch_line, f->file ? f->file : "-", f->msg,
		  f->text);
}

static void to_sbuf(void *arg, const struct chk_finding *f)
{
	finding_line(arg, f);
}

/* The sink is handed every finding, in order, and the result keeps none
 * of them but the same counts. */
static void test_check_buf__sink_gets_the_findings(void **state)
{
	struct chk_opts o, os;
	struct chk_result r1, r2;
	struct sbuf kept, sunk;
	glob_t g;
	size_t i, k, total = 0;

	(void)state;
	assert_int_equal(glob("tests/checker/*/in.patch", 0, NULL, &g), 0);
	opts(&o, 1, 0);
	os = o;
	sbuf_init(&kept, 1u << 26);
	sbuf_init(&sunk, 1u << 26);
	os.sink = to_sbuf;
	os.sink_arg = &sunk;
	for (i = 0; i < g.gl_pathc; i++) {
		size_t n;
		char *buf = slurp(g.gl_pathv[i], &n);

		assert_non_null(buf);
		sbuf_reset(&kept);
		sbuf_reset(&sunk);
		assert_int_equal(chk_run(&o, "in.patch", buf, n, &r1), 0);
		assert_int_equal(chk_run(&os, "in.patch", buf, n, &r2), 0);
		for (k = 0; k < r1.n; k++)
			finding_line(&kept, &r1.f[k]);
		assert_int_equal(r2.n, 0);
		assert_int_equal(r2.errors, r1.errors);
		assert_int_equal(r2.warnings, r1.warnings);
		assert_int_equal(r2.checks, r1.checks);
		assert_int_equal(r2.clean, r1.clean);
		assert_int_equal(kept.len, sunk.len);
		if (kept.len && memcmp(kept.buf, sunk.buf, kept.len))
			fail_msg("%s: the sink's findings differ", g.gl_pathv[i]);
		total += r1.n;
		chk_result_release(&r1);
		chk_result_release(&r2);
		free(buf);
	}
	assert_true(total > 20);
	sbuf_release(&kept);
	sbuf_release(&sunk);
	globfree(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_buf__golden_inputs_give_chk_check_results),
		cmocka_unit_test(test_check_buf__odd_line_ends),
		cmocka_unit_test(test_check_buf__finding_fields_share_one_allocation),
		cmocka_unit_test(test_check_buf__sink_gets_the_findings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

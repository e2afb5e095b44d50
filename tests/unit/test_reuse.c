// SPDX-License-Identifier: GPL-2.0-only
/*
 * chk_run_reuse() and chk_reset(): a checker kept between inputs gives
 * what a fresh one (chk_run) gives, whatever came before, in any thread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/checker.h"
#include "../../checker/checkpatch/re.h"
#include "../../checker/checkpatch/re_lits.h"
#include "../../checker/spelling.h"
#include "check_fixture.h"

extern const struct re_precompiled_set reviewbot_patterns;

#define MAX_INPUTS 512

struct inputs {
	glob_t g;
	size_t n;
	char *buf[MAX_INPUTS];
	size_t len[MAX_INPUTS];
};

static struct inputs in;


static char *run_fresh(const struct chk_opts *o, size_t i)
{
	struct chk_result r;
	int ret = chk_run(o, "in.patch", in.buf[i], in.len[i], &r);
	char *s = render(o, ret, &r);

	chk_result_release(&r);
	return s;
}

static char *run_reuse(const struct chk_opts *o, size_t i)
{
	struct chk_result r;
	int ret = chk_run_reuse(o, "in.patch", in.buf[i], in.len[i], &r);
	char *s = render(o, ret, &r);

	chk_result_release(&r);
	return s;
}

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

static void opts(struct chk_opts *o, struct chk_spelling *sp, int strict)
{
	chk_opts_init(o);
	o->extra = 1;
	o->strict = strict;
	o->spelling = sp;
	o->patterns = &reviewbot_patterns;
}

static struct chk_spelling *spelling(void)
{
	static const char words[] =
		"abandonned||abandoned\nacessable||accessible\nteh->the\n";

	return chk_spelling_new(words, sizeof(words) - 1);
}

/* Every golden input, forwards then backwards, default and --strict. */
static void test_reuse__results_equal_chk_run_in_any_order(void **state)
{
	struct chk_spelling *sp = spelling();
	struct chk_opts o;
	char **ref = calloc(in.n, sizeof(*ref));
	size_t i, k;
	int strict, pass;

	(void)state;
	assert_non_null(sp);
	assert_non_null(ref);
	assert_true(in.n > 10);
	for (strict = 0; strict < 2; strict++) {
		opts(&o, sp, strict);
		for (i = 0; i < in.n; i++)
			ref[i] = run_fresh(&o, i);
		for (pass = 0; pass < 2; pass++) {
			for (k = 0; k < in.n; k++) {
				char *got;

				i = pass ? in.n - 1 - k : k;
				got = run_reuse(&o, i);
				if (strcmp(got, ref[i]))
					fail_msg("%s differs (pass %d, strict %d)",
						 in.g.gl_pathv[i], pass, strict);
				free(got);
			}
		}
		for (i = 0; i < in.n; i++)
			free(ref[i]);
	}
	chk_thread_release();
	free(ref);
	chk_spelling_free(sp);
}

/* Options changed between calls (typedefs, --strict) are honoured. */
static void test_reuse__changed_opts_are_honoured(void **state)
{
	static const char patch[] =
		"From: A <a@example.org>\nSubject: [PATCH] x\n\n"
		"Signed-off-by: A <a@example.org>\n---\n"
		"--- a/x.c\n+++ b/x.c\n@@ -1,1 +1,4 @@\n int a;\n"
		"+static foo_t * x;\n+int f(void){\n+\treturn (int) x ;}\n";
	struct chk_opts o;
	struct chk_result r;
	char *a, *b;
	int ret;

	(void)state;
	opts(&o, NULL, 0);
	ret = chk_run_reuse(&o, "x", patch, sizeof(patch) - 1, &r);
	chk_result_release(&r);
	assert_int_equal(ret, 0);
	o.typedefs = "foo_t|bar_t";
	o.strict = 1;
	ret = chk_run_reuse(&o, "x", patch, sizeof(patch) - 1, &r);
	a = render(&o, ret, &r);
	chk_result_release(&r);
	ret = chk_run(&o, "x", patch, sizeof(patch) - 1, &r);
	b = render(&o, ret, &r);
	chk_result_release(&r);
	assert_string_equal(a, b);
	free(a);
	free(b);
	o.typedefs = NULL;
	ret = chk_run_reuse(&o, "x", patch, sizeof(patch) - 1, &r);
	a = render(&o, ret, &r);
	chk_result_release(&r);
	ret = chk_run(&o, "x", patch, sizeof(patch) - 1, &r);
	b = render(&o, ret, &r);
	chk_result_release(&r);
	assert_string_equal(a, b);
	free(a);
	free(b);
	chk_thread_release();
}

struct worker {
	const struct chk_opts *o;
	char **ref;
	size_t first;
	int bad;
};

static void *worker(void *arg)
{
	struct worker *w = arg;
	size_t k;

	for (k = 0; k < in.n; k++) {
		size_t i = (w->first + k * 7) % in.n;
		char *got = run_reuse(w->o, i);

		if (strcmp(got, w->ref[i]))
			w->bad++;
		free(got);
	}
	/* a thread's checker is freed when the thread exits */
	return NULL;
}

static void test_reuse__one_checker_per_thread(void **state)
{
	struct chk_opts o;
	struct worker w[3];
	pthread_t t[3];
	char **ref = calloc(in.n, sizeof(*ref));
	size_t i;
	int k;

	(void)state;
	assert_non_null(ref);
	opts(&o, NULL, 0);
	for (i = 0; i < in.n; i++)
		ref[i] = run_fresh(&o, i);
	for (k = 0; k < 3; k++) {
		w[k].o = &o;
		w[k].ref = ref;
		w[k].first = (size_t)k * in.n / 3;
		w[k].bad = 0;
		assert_int_equal(pthread_create(&t[k], NULL, worker, &w[k]), 0);
	}
	for (k = 0; k < 3; k++) {
		pthread_join(t[k], NULL);
		assert_int_equal(w[k].bad, 0);
	}
	for (i = 0; i < in.n; i++)
		free(ref[i]);
	free(ref);
}

/*
 * The precompiled table's literal pretests (written by tools/mkpatterns)
 * are what re.c's scan of each pattern gives, and the table is sorted
 * (a text twice where the build kept two copies of a literal):
 * precompiled() takes the first and binary-searches the second.
 */
static void test_reuse__precompiled_literals_are_the_scan(void **state)
{
	const struct re_precompiled_set *set = &reviewbot_patterns;
	size_t i;

	(void)state;
	assert_true(set->n > 100);
	for (i = 0; i < set->n; i++) {
		const struct re_precompiled *p = &set->v[i];
		char lit[2][RE_LIT_MAX];
		unsigned char litn[2] = { 0, 0 }, icase = 0;
		int nlit = re_lits_scan(p->text, 0, lit, litn, &icase);

		if (i)
			assert_true(strcmp(set->v[i - 1].text, p->text) <= 0);
		assert_int_equal(p->nlit, nlit);
		assert_int_equal(p->icase, icase);
		{
			uint8_t ends[2][32];
			int endk = re_end_scan(p->text, ends[0], ends[1]);

			assert_int_equal(p->ends != NULL, endk != 0);
			if (endk) {
				assert_memory_equal(p->ends, ends, sizeof(ends));
				assert_int_equal(p->endreq, endk == 2);
			}
		}
		if (nlit > 0) {
			assert_int_equal(p->litn[0], litn[0]);
			assert_memory_equal(p->lits, lit[0], litn[0]);
		}
		if (nlit > 1) {
			assert_int_equal(p->litn[1], litn[1]);
			assert_memory_equal(p->lits + litn[0], lit[1], litn[1]);
		}
	}
}

/* A precompiled pattern is decoded only once a subject holds its literals. */
static void test_reuse__patterns_decoded_when_their_literals_show(void **state)
{
	const struct re_precompiled_set *set = &reviewbot_patterns;
	const struct re_precompiled *p = NULL;
	struct re_ctx *rc = re_ctx_new();
	char subj[2 * RE_LIT_MAX + 8];
	size_t i;

	(void)state;
	assert_non_null(rc);
	re_use_precompiled(rc, set);
	for (i = 0; i < set->n && !p; i++)
		if (set->v[i].nlit > 0 && !set->v[i].dyn && set->v[i].litn[0] > 2)
			p = &set->v[i];
	assert_non_null(p);
	assert_false(re_match(rc, p->text, "\001 nothing here \001", NULL));
	assert_int_equal(re_decodes(rc), 0);
	/* all its literals, one after the other: decoded (a match or not) */
	memcpy(subj, p->lits, (size_t)p->litn[0] + p->litn[1]);
	subj[p->litn[0] + p->litn[1]] = '\0';
	re_match(rc, p->text, subj, NULL);
	assert_int_equal(re_decodes(rc), 1);
	re_ctx_free(rc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reuse__results_equal_chk_run_in_any_order),
		cmocka_unit_test(test_reuse__changed_opts_are_honoured),
		cmocka_unit_test(test_reuse__one_checker_per_thread),
		cmocka_unit_test(test_reuse__precompiled_literals_are_the_scan),
		cmocka_unit_test(test_reuse__patterns_decoded_when_their_literals_show),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

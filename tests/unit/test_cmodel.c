// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the C model the code-reading rules use: checker/rv/ctok.c
 * (tokens: comments across lines, literals, directives, punctuators),
 * cview.c (a patch's sides as fragments, where a hunk starts inside a
 * function or a comment, what only changed white space) and cfunc.c
 * (statements, variables and the control-flow graph of a function), and
 * their limits on hostile input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../checker/diff.h"
#include "../../checker/rv/cfunc.h"
#include "../../checker/rv/ctok.h"
#include "../../checker/rv/cview.h"

/* ---- ctok ---- */

static void push(struct ctok_buf *tb, const char *s, uint32_t line)
{
	assert_int_equal(ctok_push_line(tb, s, strlen(s), line, 0), 0);
}

static void test_cmodel__tokens_skip_comments_across_lines(void **state)
{
	struct ctok_buf tb;

	(void)state;
	ctok_init(&tb, 0);
	push(&tb, "a /* one", 0);
	push(&tb, "still */ b // gone", 1);
	push(&tb, "c", 2);
	assert_int_equal(tb.n, 3);
	assert_true(ctok_is_ident(&tb.t[0], "a"));
	assert_true(ctok_is_ident(&tb.t[1], "b"));
	assert_int_equal(tb.t[1].line, 1);
	assert_true(ctok_is_ident(&tb.t[2], "c"));
	ctok_release(&tb);
}

static void test_cmodel__tokens_literals_directives_punctuators(void **state)
{
	struct ctok_buf tb;

	(void)state;
	ctok_init(&tb, 0);
	push(&tb, "#define X(a) \\", 0);
	push(&tb, "	(a + 1)", 1);
	push(&tb, "x <<= \"a\\\"/*\" + L'\\'' ->y...1.5e-3;", 2);
	assert_int_equal(tb.t[0].kind, CTK_PP);
	assert_int_equal(tb.t[1].kind, CTK_IDENT);	/* the continuation is the directive's */
	assert_true(ctok_is(&tb.t[1], "x"));
	assert_true(ctok_is(&tb.t[2], "<<="));
	assert_int_equal(tb.t[3].kind, CTK_STRING);
	assert_int_equal(tb.t[3].len, 7);
	assert_true(ctok_is(&tb.t[4], "+"));
	assert_int_equal(tb.t[5].kind, CTK_CHAR);
	assert_true(ctok_is(&tb.t[6], "->"));
	assert_true(ctok_is(&tb.t[7], "y"));
	assert_true(ctok_is(&tb.t[8], "..."));
	assert_int_equal(tb.t[9].kind, CTK_NUMBER);
	assert_true(ctok_is(&tb.t[9], "1.5e-3"));
	ctok_release(&tb);
}

static void test_cmodel__tokens_stop_at_their_cap(void **state)
{
	struct ctok_buf tb;
	int i, r = 0;

	(void)state;
	ctok_init(&tb, 100);
	for (i = 0; i < 100 && !r; i++)
		r = ctok_push_line(&tb, "a b c d e f g h", 15, (uint32_t)i, 0);
	assert_int_equal(r, -1);
	assert_true(tb.err);
	assert_true(tb.n <= 100);
	ctok_release(&tb);
}

/* ---- cview ---- */

struct model {
	struct diff d;
	struct cview v;
};

static void model(struct model *m, const char *patch, char side)
{
	assert_int_equal(diff_parse(patch, strlen(patch), NULL, &m->d), DIFF_OK);
	cview_build(&m->v, &m->d, side);
}

static void model_release(struct model *m)
{
	cview_release(&m->v);
	diff_release(&m->d);
}

static const struct cv_item *item_named(const struct cview *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->nitems; i++) {
		const struct ctok *n = cview_item_name(v, &v->items[i]);

		if (n && ctok_is(n, name))
			return &v->items[i];
	}
	return NULL;
}

static const char *inside_patch =
	"diff --git a/drivers/x.c b/drivers/x.c\n"
	"--- a/drivers/x.c\n"
	"+++ b/drivers/x.c\n"
	"@@ -10,8 +10,10 @@ static int foo(struct bar *b, size_t len)\n"
	" 	}\n"
	" \n"
	" 	x = 1;\n"
	"+	if (len > 4)\n"
	"+		return -EINVAL;\n"
	"-	memcpy(b->buf,  src, len);\n"
	"+	memcpy(b->buf, src, len);\n"
	" 	return 0;\n"
	" }\n"
	" \n"
	" static int baz(void)\n";

static void test_cmodel__view_starts_inside_a_function(void **state)
{
	struct model m;
	const struct cv_item *it;
	size_t i;
	int memcpy_changed = -1;

	(void)state;
	model(&m, inside_patch, '+');
	assert_int_equal(m.v.nfiles, 1);
	assert_int_equal(m.v.nfrags, 1);
	it = item_named(&m.v, "foo");
	assert_non_null(it);
	assert_int_equal(it->kind, CVI_FUNC);
	assert_true(it->head_missing);
	assert_false(it->tail_missing);
	assert_true(it->changed);
	/* the memcpy() line only changed white space */
	for (i = it->in0; i < it->in1; i++)
		if (ctok_is_ident(&m.v.tb.t[i], "memcpy"))
			memcpy_changed = m.v.tb.t[i].flags & CVF_CHANGED;
	assert_int_equal(memcpy_changed, 0);
	model_release(&m);
}

static void test_cmodel__view_opens_inside_a_comment(void **state)
{
	const char *p =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -3,4 +3,5 @@ static void f(void)\n"
		" 	 * a comment, then code: x = y;\n"
		" 	 */\n"
		"+	z = 1;\n"
		" 	w = 2;\n"
		" }\n";
	struct model m;
	size_t i;
	int seen_y = 0;

	(void)state;
	model(&m, p, '+');
	for (i = m.v.frags[0].code0; i < m.v.tb.n; i++)
		seen_y |= ctok_is_ident(&m.v.tb.t[i], "y");
	assert_false(seen_y);
	assert_non_null(item_named(&m.v, "f"));
	model_release(&m);
}

static const char *file_patch =
	"diff --git a/drivers/y.c b/drivers/y.c\n"
	"new file mode 100644\n"
	"--- /dev/null\n"
	"+++ b/drivers/y.c\n"
	"@@ -0,0 +1,42 @@\n"
	"+struct y_req {\n"
	"+	__u32 a;\n"
	"+	__u16 b[4];\n"
	"+};\n"
	"+\n"
	"+static const struct file_operations y_fops = {\n"
	"+	.write = y_write,\n"
	"+};\n"
	"+\n"
	"+static long y_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n"
	"+{\n"
	"+	struct y_req req, *p = NULL;\n"
	"+	char name[16] = {};\n"
	"+	const char __user *u = (void __user *)arg;\n"
	"+	int i, ret = 0;\n"
	"+\n"
	"+	CLASS(fd, fh)(i);\n"
	"+	for (i = 0; i < 4; i++) {\n"
	"+		if (i == 2)\n"
	"+			continue;\n"
	"+		ret++;\n"
	"+	}\n"
	"+	switch (cmd) {\n"
	"+	case 1:\n"
	"+		ret = 1;\n"
	"+		break;\n"
	"+	default:\n"
	"+		goto out;\n"
	"+	}\n"
	"+	list_for_each_entry(p, &head, node)\n"
	"+		ret += p->a;\n"
	"+	if (ret < 0) {\n"
	"+		ret = -EINVAL;\n"
	"+		goto out;\n"
	"+	} else {\n"
	"+		ret = 0;\n"
	"+	}\n"
	"+	return ret;\n"
	"+out:\n"
	"+	kfree(p);\n"
	"+	return -EFAULT;\n"
	"+}\n";

static void test_cmodel__view_finds_structs_initialisers_functions(void **state)
{
	struct model m;
	const struct cv_item *s, *v, *f;

	(void)state;
	model(&m, file_patch, '+');
	s = item_named(&m.v, "y_req");
	v = item_named(&m.v, "y_fops");
	f = item_named(&m.v, "y_ioctl");
	assert_non_null(s);
	assert_non_null(v);
	assert_non_null(f);
	assert_int_equal(s->kind, CVI_STRUCT);
	assert_int_equal(v->kind, CVI_VAR);
	assert_int_equal(f->kind, CVI_FUNC);
	assert_false(f->head_missing);
	assert_false(f->tail_missing);
	model_release(&m);
}

/* ---- cfunc ---- */

static int stmt_with(const struct cfunc *f, enum cs_kind kind, const char *first)
{
	size_t i;

	for (i = 0; i < f->nst; i++)
		if (f->st[i].kind == kind && (!first || ctok_is(cf_tok(f, f->st[i].e0), first)))
			return (int)i;
	return -1;
}

static int var_named(const struct cfunc *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nvars; i++)
		if (ctok_is(cf_tok(f, f->vars[i].name), name))
			return (int)i;
	return -1;
}

static void test_cmodel__function_variables(void **state)
{
	struct model m;
	struct cfunc f;
	int v;

	(void)state;
	model(&m, file_patch, '+');
	assert_int_equal(cfunc_build(&f, &m.v, item_named(&m.v, "y_ioctl")), 0);
	v = var_named(&f, "arg");
	assert_true(v >= 0 && (f.vars[v].flags & CVV_PARAM));
	v = var_named(&f, "f");
	assert_true(v >= 0 && f.vars[v].ptr == 1 && (f.vars[v].flags & CVV_STRUCT));
	v = var_named(&f, "req");
	assert_true(v >= 0 && f.vars[v].ptr == 0 && (f.vars[v].flags & CVV_STRUCT));
	assert_true(ctok_is(cf_tok(&f, f.vars[v].tag), "y_req"));
	v = var_named(&f, "p");
	assert_true(v >= 0 && f.vars[v].ptr == 1 && f.vars[v].init0 != SIZE_MAX);
	v = var_named(&f, "name");
	assert_true(v >= 0 && f.vars[v].ndims == 1);
	assert_true(ctok_is(cf_tok(&f, f.vars[v].dim0), "16"));
	v = var_named(&f, "u");
	assert_true(v >= 0 && (f.vars[v].flags & CVV_USER) && (f.vars[v].flags & CVV_CONST));
	v = var_named(&f, "ret");
	assert_true(v >= 0 && f.vars[v].init0 != SIZE_MAX);
	cfunc_release(&f);
	model_release(&m);
}

static int visit_count(const struct cfunc *f, int s, void *arg)
{
	(void)f;
	(void)s;
	(*(int *)arg)++;
	return 0;
}

static void test_cmodel__function_graph(void **state)
{
	struct model m;
	struct cfunc f;
	int sw, brk, cont, forl, go, label, loopm, ifs, ret, n = 0;

	(void)state;
	model(&m, file_patch, '+');
	assert_int_equal(cfunc_build(&f, &m.v, item_named(&m.v, "y_ioctl")), 0);
	assert_int_equal(f.err, 0);
	assert_false(f.partial);
	/* CLASS(fd, fh)(i) is a statement, not a loop */
	assert_true(stmt_with(&f, CS_EXPR, "CLASS") >= 0);
	forl = stmt_with(&f, CS_FOR, NULL);
	cont = stmt_with(&f, CS_CONTINUE, NULL);
	sw = stmt_with(&f, CS_SWITCH, NULL);
	brk = stmt_with(&f, CS_BREAK, NULL);
	go = stmt_with(&f, CS_GOTO, "out");
	label = stmt_with(&f, CS_LABEL, "out");
	loopm = stmt_with(&f, CS_LOOPMACRO, NULL);
	ifs = stmt_with(&f, CS_IF, "ret");
	ret = stmt_with(&f, CS_RETURN, "ret");
	assert_true(forl >= 0 && cont >= 0 && sw >= 0 && brk >= 0 && go >= 0 &&
		    label >= 0 && loopm >= 0 && ifs >= 0 && ret >= 0);
	/* continue goes back to the loop; the goto to its label; the break
	 * leaves the switch for the loop macro after it */
	assert_int_equal(f.succ[f.succ0[cont]], forl);
	assert_int_equal(f.succ[f.succ0[go]], label);
	assert_int_equal(f.succ[f.succ0[brk]], loopm);
	assert_int_equal(f.succ[f.succ0[ret]], CF_EXIT);
	assert_true(cfunc_reaches(&f, forl, label));
	assert_false(cfunc_reaches(&f, ret, label));
	/* the if whose then jumps out guards what follows it, with its
	 * condition false; its else does not jump */
	assert_false(cfunc_exits(&f, ifs));
	assert_true(cfunc_exits(&f, f.st[ifs].a));
	cfunc_walk(&f, f.entry, visit_count, &n);
	assert_true(n > 10);
	cfunc_release(&f);
	model_release(&m);
}

struct guard_seen {
	int n, sense;
	const struct cfunc *f;
};

static int guard_cb(const struct cfunc *f, size_t c0, size_t c1, int sense, void *arg)
{
	struct guard_seen *g = arg;

	(void)c1;
	if (ctok_is(cf_tok(f, c0), "len")) {
		g->n++;
		g->sense = sense;
	}
	return 0;
}

static void test_cmodel__function_guards(void **state)
{
	struct model m;
	struct cfunc f;
	struct guard_seen g = { 0, -1, NULL };
	int s;

	(void)state;
	model(&m, inside_patch, '+');
	assert_int_equal(cfunc_build(&f, &m.v, item_named(&m.v, "foo")), 0);
	assert_true(f.partial);
	/* the parameters come from the hunk's section */
	assert_true(cfunc_param(&f, "len") >= 0);
	assert_int_equal(f.vars[cfunc_param(&f, "b")].ptr, 1);
	s = stmt_with(&f, CS_EXPR, "memcpy");
	assert_true(s >= 0);
	cfunc_guards(&f, s, guard_cb, &g);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.sense, 0);	/* runs when "len > 4" is false */
	cfunc_release(&f);
	model_release(&m);
}

/* A function nested past CFUNC_MAX_DEPTH is modelled up to it. */
static void test_cmodel__deep_nesting_is_cut_not_crashed(void **state)
{
	size_t n = 3 * 1000 + 4096, i;
	char *p = malloc(n * 8), *w = p;
	struct model m;
	struct cfunc f;

	(void)state;
	assert_non_null(p);
	w += sprintf(w, "--- /dev/null\n+++ b/z.c\n@@ -0,0 +1,2001 @@\n+void z(void)\n");
	for (i = 0; i < 1000; i++)
		w += sprintf(w, "+{\n");
	for (i = 0; i < 1000; i++)
		w += sprintf(w, "+}\n");
	model(&m, p, '+');
	assert_non_null(item_named(&m.v, "z"));
	cfunc_build(&f, &m.v, item_named(&m.v, "z"));
	assert_true(f.err);
	assert_true(f.nst <= CFUNC_MAX_STMTS);
	cfunc_release(&f);
	model_release(&m);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmodel__tokens_skip_comments_across_lines),
		cmocka_unit_test(test_cmodel__tokens_literals_directives_punctuators),
		cmocka_unit_test(test_cmodel__tokens_stop_at_their_cap),
		cmocka_unit_test(test_cmodel__view_starts_inside_a_function),
		cmocka_unit_test(test_cmodel__view_opens_inside_a_comment),
		cmocka_unit_test(test_cmodel__view_finds_structs_initialisers_functions),
		cmocka_unit_test(test_cmodel__function_variables),
		cmocka_unit_test(test_cmodel__function_graph),
		cmocka_unit_test(test_cmodel__function_guards),
		cmocka_unit_test(test_cmodel__deep_nesting_is_cut_not_crashed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

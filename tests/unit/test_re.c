// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/re.h"

static int setup(void **state)
{
	*state = re_ctx_new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	re_ctx_free(*state);
	return 0;
}

static void test_re__interpolates_like_perl_qr(void **state)
{
	struct re_ctx *rc = *state;
	char *x = re_expand(rc, "^$Ident$");

	assert_non_null(x);
	assert_string_equal(x, "^(?^:[A-Za-z_][A-Za-z\\d_]*(?:\\s*\\#\\#\\s*[A-Za-z_][A-Za-z\\d_]*)*)$");
	free(x);
	x = re_expand(rc, "${Ident}_t $; $| $)");
	assert_non_null(x);
	assert_true(strstr(x, ")_t \\x1c $| $)") != NULL);
	free(x);
	assert_null(re_error(rc));
}

static void test_re__captures_and_groups_of_vocabulary(void **state)
{
	struct re_ctx *rc = *state;
	struct re_m m;
	size_t n;
	const char *p;

	assert_true(re_match(rc, "^\\+\\s*($Type)\\s+($Ident)\\s*;", "+\tunsigned long foo;", &m));
	p = re_cap(&m, 1, &n);
	assert_int_equal(n, strlen("unsigned long"));
	assert_memory_equal(p, "unsigned long", n);
	p = re_cap(&m, 2, &n);
	assert_memory_equal(p, "foo", n);
	assert_false(re_cap_defined(&m, 3));
	/* $Constant: octal/hex/int with suffixes, case-insensitive parts */
	assert_true(re_match(rc, "^$Constant$", "0x1FUL", NULL));
	assert_true(re_match(rc, "^$Constant$", "0755", NULL));
	assert_false(re_match(rc, "^$Constant$", "0x", NULL));
	/* $balanced_parens recursion */
	assert_true(re_match(rc, "^f$balanced_parens$", "f(a, (b), c(d(e)))", NULL));
	assert_false(re_match(rc, "^f$balanced_parens$", "f(a, (b)", NULL));
	assert_null(re_error(rc));
}

static void test_re__learned_types_recompile_dependent_patterns(void **state)
{
	struct re_ctx *rc = *state;
	static const char pat[] = "^$Type\\s+\\w+;$";

	assert_false(re_match(rc, pat, "foo_bar_struct x;", NULL));
	assert_int_equal(re_types_add(rc, 0, "foo_bar_struct", 14), 1);
	assert_int_equal(re_types_add(rc, 0, "foo_bar_struct", 14), 0);
	assert_true(re_match(rc, pat, "foo_bar_struct x;", NULL));
	re_types_reset(rc);
	assert_false(re_match(rc, pat, "foo_bar_struct x;", NULL));
	/* a learned modifier */
	assert_false(re_match(rc, "^$Modifier$", "__my_attr", NULL));
	re_types_add(rc, 1, "__my_attr", 9);
	assert_true(re_match(rc, "^$Modifier$", "__my_attr", NULL));
}

static void test_re__subst_global_and_empty_matches(void **state)
{
	struct re_ctx *rc = *state;
	struct sbuf out;

	sbuf_init(&out, 1024);
	assert_int_equal(re_subst(rc, "\\s+", " ", "a  b\t\tc", 7, 1, &out), 2);
	assert_string_equal(out.buf, "a b c");
	assert_int_equal(re_subst(rc, "(\\w+)=(\\w+)", "$2=${1}", "x=y", 3, 0, &out), 1);
	assert_string_equal(out.buf, "y=x");
	/* Perl: "abc" =~ s{x*}{-}g gives "-a-b-c-" */
	re_subst(rc, "x*", "-", "abc", 3, 1, &out);
	assert_string_equal(out.buf, "-a-b-c-");
	assert_int_equal(re_count(rc, "a", "banana", 6), 3);
	sbuf_reset(&out);
	re_quote("a.b*c", 5, &out);
	assert_string_equal(out.buf, "a\\.b\\*c");
	sbuf_release(&out);
}

static void test_re__bad_pattern_is_an_error_not_a_crash(void **state)
{
	struct re_ctx *rc = *state;

	assert_false(re_match(rc, "(unclosed", "x", NULL));
	assert_non_null(re_error(rc));
}

static void test_re__unknown_name_is_an_error(void **state)
{
	struct re_ctx *rc = re_ctx_new();

	(void)state;
	assert_false(re_match(rc, "$NoSuchName", "x", NULL));
	assert_non_null(re_error(rc));
	re_ctx_free(rc);
}

static void test_re__interned_patterns_are_shared(void **state)
{
	struct re_ctx *rc = *state;
	char a[] = "^x+$", b[] = "^x+$";
	const char *pa = re_intern(rc, a, 4), *pb = re_intern(rc, b, 4);

	assert_ptr_equal(pa, pb);
	assert_true(re_match(rc, pa, "xxx", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_re__interpolates_like_perl_qr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__captures_and_groups_of_vocabulary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__learned_types_recompile_dependent_patterns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__subst_global_and_empty_matches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_re__bad_pattern_is_an_error_not_a_crash, setup, teardown),
		cmocka_unit_test(test_re__unknown_name_is_an_error),
		cmocka_unit_test_setup_teardown(test_re__interned_patterns_are_shared, setup, teardown),
	};

	return cmocka_run_group_tests_name("re", tests, NULL, NULL);
}

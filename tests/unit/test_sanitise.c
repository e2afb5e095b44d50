// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sanitiser against checkpatch.pl's own sanitise_line(): the expected
 * strings were produced by running the Perl sub on the same input lines
 * (comment filler 0x1c shown here as '~').
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/checkpatch/eng.h"

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

static const char *show(char *s)
{
	char *p;

	for (p = s; *p; p++)
		if (*p == '\x1c')
			*p = '~';
	return s;
}

static void test_sanitise__matches_checkpatch_line_by_line(void **state)
{
	struct fixture *f = *state;
	static const char *const in[] = {
		"+\tx = \"a /* b */ c\"; /* real comment */",
		"+\tc = '\\''; // tail comment",
		"+/* start of a",
		"+ * comment that goes on",
		"+ * and ends */ int after;",
		"+#include <linux/module.h>",
		"+#error this is \"not\" a string",
		"+\ts = \"esc \\\" still string\";",
		"+\ty = a / b; z = \"unterminated",
		"+next line",
	};
	static const char *const want[] = {
		"+\tx = \"XXXXXXXXXXX\"; ~~~~~~~~~~~~~~~~~~",
		"+\tc = 'XX'; ~~~~~~~~~~~~~~~",
		"+~~~~~~~~~~~~~",
		"+~~~~~~~~~~~~~~~~~~~~~~~",
		"+~~~~~~~~~~~~~~ int after;",
		"+#include <XXXXXXXXXXXXXX>",
		"+#error XXXXXXXXXXXXXXXXXXXXXX",
		"+\ts = \"XXXXXXXXXXXXXXXXXXX\";",
		"+\ty = a / b; z = \"XXXXXXXXXXXX",
		"+XXXXXXXXX",
	};
	size_t i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		assert_string_equal(show(sanitise_line(&f->e, in[i])), want[i]);
}

static void test_sanitise__reset_into_comment(void **state)
{
	struct fixture *f = *state;

	sanitise_line_reset(&f->e, 1);
	assert_string_equal(show(sanitise_line(&f->e, "+ still comment */ code();")),
			    "+~~~~~~~~~~~~~~~~~ code();");
}

static void test_sanitise__keeps_length_and_diff_marker(void **state)
{
	struct fixture *f = *state;
	const char *l = " \tif (a) { \"x\" } /* y */";
	char *s = sanitise_line(&f->e, l);

	assert_int_equal(strlen(s), strlen(l));
	assert_int_equal(s[0], ' ');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sanitise__matches_checkpatch_line_by_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sanitise__reset_into_comment, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sanitise__keeps_length_and_diff_marker, setup, teardown),
	};

	return cmocka_run_group_tests_name("sanitise", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * sbuf: formatted appends that fit the room the buffer has, that do not
 * (grown and formatted again), and that pass the cap (the buffer keeps
 * what it had); single bytes at and past the cap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/sbuf.h"

static void test_sbuf__addf_fits_grows_and_keeps_the_terminator(void **state)
{
	struct sbuf sb;
	char big[5000];
	size_t i;

	(void)state;
	sbuf_init(&sb, 1u << 20);
	assert_int_equal(sbuf_addf(&sb, "%s-%d", "ab", 42), 0);
	assert_string_equal(sb.buf, "ab-42");
	assert_int_equal(sb.len, 5);
	/* longer than any room made so far: grown, formatted again */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(sbuf_addf(&sb, "[%s]", big), 0);
	assert_int_equal(sb.len, 5 + 2 + sizeof(big) - 1);
	assert_int_equal(sb.buf[5], '[');
	assert_int_equal(sb.buf[sb.len - 1], ']');
	assert_int_equal(sb.buf[sb.len], '\0');
	/* many small ones in the room that is left */
	for (i = 0; i < 1000; i++)
		assert_int_equal(sbuf_addf(&sb, "%zu,", i % 10), 0);
	assert_int_equal(sb.len, 5 + 2 + sizeof(big) - 1 + 2000);
	assert_int_equal(strlen(sb.buf), sb.len);
	assert_int_equal(sbuf_addf(&sb, "%s", ""), 0);
	assert_int_equal(strlen(sb.buf), sb.len);
	sbuf_release(&sb);
}

static void test_sbuf__addf_past_the_cap_keeps_what_was_there(void **state)
{
	struct sbuf sb;

	(void)state;
	sbuf_init(&sb, 8);
	assert_int_equal(sbuf_addf(&sb, "%s", "abcd"), 0);
	/* the room is larger than the cap: it must not count */
	assert_int_equal(sbuf_addf(&sb, "%s", "efghi"), SBUF_ERR_CAP);
	assert_int_equal(sb.err, SBUF_ERR_CAP);
	assert_int_equal(sb.len, 4);
	assert_string_equal(sb.buf, "abcd");
	/* sticky */
	assert_int_equal(sbuf_addf(&sb, "%s", "e"), SBUF_ERR_CAP);
	assert_string_equal(sb.buf, "abcd");
	sbuf_reset(&sb);
	/* exactly the cap fits */
	assert_int_equal(sbuf_addf(&sb, "%s", "12345678"), 0);
	assert_string_equal(sb.buf, "12345678");
	assert_int_equal(sbuf_addf(&sb, "%s", ""), 0);
	assert_int_equal(sbuf_addf(&sb, "%c", 'x'), SBUF_ERR_CAP);
	assert_string_equal(sb.buf, "12345678");
	sbuf_release(&sb);
	/* a fresh buffer with a cap of 0 takes nothing */
	sbuf_init(&sb, 0);
	assert_int_equal(sbuf_addf(&sb, "%s", ""), 0);
	assert_int_equal(sbuf_addf(&sb, "%d", 1), SBUF_ERR_CAP);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	sbuf_release(&sb);
	/* a long one past a cap the first room would not reach */
	sbuf_init(&sb, 1000);
	assert_int_equal(sbuf_addf(&sb, "%0999d", 7), 0);
	assert_int_equal(sb.len, 999);
	assert_int_equal(sbuf_addf(&sb, "%d", 12), SBUF_ERR_CAP);
	assert_int_equal(sb.len, 999);
	assert_int_equal(sb.buf[999], '\0');
	sbuf_release(&sb);
}

static void test_sbuf__addch_to_the_cap(void **state)
{
	struct sbuf sb;
	int i;

	(void)state;
	sbuf_init(&sb, 100);
	for (i = 0; i < 100; i++)
		assert_int_equal(sbuf_addch(&sb, 'a' + i % 26), 0);
	assert_int_equal(sb.len, 100);
	assert_int_equal(strlen(sb.buf), 100);
	assert_int_equal(sbuf_addch(&sb, 'z'), SBUF_ERR_CAP);
	assert_int_equal(sb.len, 100);
	assert_int_equal(sb.buf[100], '\0');
	assert_int_equal(sbuf_addch(&sb, 'z'), SBUF_ERR_CAP);
	sbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sbuf__addf_fits_grows_and_keeps_the_terminator),
		cmocka_unit_test(test_sbuf__addf_past_the_cap_keeps_what_was_there),
		cmocka_unit_test(test_sbuf__addch_to_the_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

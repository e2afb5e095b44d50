// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of bot/web/web_cache.c: texts kept by key, a bounded number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bot/web/web_cache.h"

static void test_web_cache__a_text_is_given_back_by_its_key_only(void **state)
{
	struct sbuf b;

	(void)state;
	web_cache_clear();
	sbuf_init(&b, 1024);
	assert_int_equal(web_cache_get("chart a", &b), 0);
	web_cache_put("chart a", "<svg>a</svg>", 12);
	web_cache_put("chart b", "<svg>b</svg>", 12);
	assert_int_equal(web_cache_get("chart a", &b), 1);
	assert_string_equal(b.buf, "<svg>a</svg>");
	sbuf_reset(&b);
	assert_int_equal(web_cache_get("chart", &b), 0);
	assert_int_equal(web_cache_get("chart a ", &b), 0);
	/* kept again: the new text */
	web_cache_put("chart a", "<svg>A</svg>", 12);
	assert_int_equal(web_cache_get("chart a", &b), 1);
	assert_string_equal(b.buf, "<svg>A</svg>");
	sbuf_release(&b);
	web_cache_clear();
}

static void test_web_cache__at_most_so_many_the_oldest_go_first(void **state)
{
	char key[32], *big;
	struct sbuf b;
	int i, kept = 0;

	(void)state;
	web_cache_clear();
	sbuf_init(&b, 1024);
	for (i = 0; i < WEB_CACHE_ENTRIES + 10; i++) {
		snprintf(key, sizeof(key), "types %d", i);
		web_cache_put(key, "x", 1);
	}
	for (i = 0; i < WEB_CACHE_ENTRIES + 10; i++) {
		snprintf(key, sizeof(key), "types %d", i);
		kept += web_cache_get(key, &b);
	}
	assert_int_equal(kept, WEB_CACHE_ENTRIES);
	assert_int_equal(web_cache_get("types 0", &b), 0);
	assert_int_equal(web_cache_get("types 73", &b), 1);
	/* a text past the cap is not kept */
	big = calloc(WEB_CACHE_MAX_TEXT + 2, 1);
	assert_non_null(big);
	web_cache_put("big", big, WEB_CACHE_MAX_TEXT + 1);
	assert_int_equal(web_cache_get("big", &b), 0);
	free(big);
	sbuf_release(&b);
	web_cache_clear();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_web_cache__a_text_is_given_back_by_its_key_only),
		cmocka_unit_test(test_web_cache__at_most_so_many_the_oldest_go_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

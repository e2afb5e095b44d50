// SPDX-License-Identifier: GPL-2.0-only
/* qfilter: the query language of reviewbot query, the web and mail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bot/qfilter.h"

#define NOW	1793613600	/* Mon 2026-11-02 10:00:00 UTC */

static void parse_ok(struct qfilter *f, const char *s)
{
	char err[256];

	qfilter_init(f);
	if (qfilter_parse(f, s, strlen(s), NOW, err, sizeof(err)))
		fail_msg("'%s': %s", s, err);
}

static void parse_bad(const char *s, const char *want)
{
	struct qfilter f;
	char err[256];

	qfilter_init(&f);
	if (!qfilter_parse(&f, s, strlen(s), NOW, err, sizeof(err)))
		fail_msg("'%s' parsed", s);
	if (!strstr(err, want))
		fail_msg("'%s': got \"%s\", wanted \"%s\"", s, err, want);
	qfilter_release(&f);
}

static void words(const struct qfilter *f, const char *want)
{
	struct sbuf sb;

	sbuf_init(&sb, 8192);
	qfilter_words(f, &sb);
	assert_string_equal(sb.buf, want);
	sbuf_release(&sb);
}

static void test_qfilter__the_issues_example_parses(void **state)
{
	struct qfilter f;

	(void)state;
	parse_ok(&f, "category:uapi file:drivers/leds/* since:30d");
	assert_string_equal(f.category, "uapi");
	assert_string_equal(f.file, "drivers/leds/*");
	assert_int_equal(f.since, NOW - 30 * 86400);
	assert_int_equal(f.nset, 3);
	qfilter_release(&f);
}

static void test_qfilter__types_any_case_validated_and_listed(void **state)
{
	struct qfilter f;

	(void)state;
	parse_ok(&f, "type:long_line,Trailing_Whitespace category:UAPI,security");
	assert_string_equal(f.type, "LONG_LINE,TRAILING_WHITESPACE");
	assert_string_equal(f.category, "uapi,security");
	qfilter_release(&f);
	parse_bad("type:LONG_LINES", "unknown type 'LONG_LINES'");
	parse_bad("type:LONG_LINE,,X", "unknown type");
	parse_bad("category:securty", "unknown category 'securty'");
	/* a category or type is a whole name, never SQL */
	parse_bad("type:LONG_LINE'--", "unknown type");
}

static void test_qfilter__dates_absolute_relative_and_bad(void **state)
{
	struct qfilter f;
	int64_t t;

	(void)state;
	parse_ok(&f, "since:2026-11-01 until:2026-11-01");
	assert_int_equal(f.since, 1793491200);
	assert_int_equal(f.until, 1793491200 + 86399);	/* the day's end */
	words(&f, "since:2026-11-01 until:2026-11-01");
	qfilter_release(&f);
	parse_ok(&f, "since:2026-11-01T08:30 until:1793613600");
	assert_int_equal(f.since, 1793491200 + 8 * 3600 + 30 * 60);
	assert_int_equal(f.until, NOW);
	words(&f, "since:2026-11-01T08:30:00 until:2026-11-02T10:00:00");
	qfilter_release(&f);
	assert_int_equal(qfilter_date("2w", 0, NOW, &t), 0);
	assert_int_equal(t, NOW - 14 * 86400);
	assert_int_equal(qfilter_date("12h", 0, NOW, &t), 0);
	assert_int_equal(t, NOW - 12 * 3600);
	assert_int_equal(qfilter_date("30x", 0, NOW, &t), -1);
	assert_int_equal(qfilter_date("30dd", 0, NOW, &t), -1);
	assert_int_equal(qfilter_date("-3d", 0, NOW, &t), -1);
	assert_int_equal(qfilter_date("99999999999d", 0, NOW, &t), -1);
	assert_int_equal(qfilter_date("2026-13-45", 0, NOW, &t), -1);
	assert_int_equal(qfilter_date("yesterday", 0, NOW, &t), -1);
	/* found by fuzz_query: a time no date can say */
	assert_int_equal(qfilter_date("2222221111111600", 0, NOW, &t), -1);
	assert_int_equal(qfilter_date("253402300799", 0, NOW, &t), 0);
	parse_bad("since:last-week", "is not a date");
}

static void test_qfilter__message_ids_with_or_without_brackets(void **state)
{
	struct qfilter f;
	char *m;

	(void)state;
	parse_ok(&f, "series:<abc@example.org>");
	assert_string_equal(f.series, "abc@example.org");
	qfilter_release(&f);
	parse_ok(&f, "series:abc@example.org");
	assert_string_equal(f.series, "abc@example.org");
	qfilter_release(&f);
	m = qfilter_msgid("  <x@y>  ");
	assert_string_equal(m, "x@y");
	free(m);
	assert_null(qfilter_msgid("<>"));
	assert_null(qfilter_msgid("a b@c"));
	assert_null(qfilter_msgid("a<b@c"));
}

static void test_qfilter__quotes_aliases_and_words_back(void **state)
{
	struct qfilter f;

	(void)state;
	parse_ok(&f, "  from:\"Jane Doe\"\tlist:Linux-LEDs@vger.kernel.org limit:20 ");
	assert_string_equal(f.author, "Jane Doe");
	assert_string_equal(f.list, "linux-leds@vger.kernel.org");
	assert_int_equal(f.limit, 20);
	assert_int_equal(f.nset, 2);
	words(&f, "author:\"Jane Doe\" list:linux-leds@vger.kernel.org limit:20");
	qfilter_release(&f);
	parse_ok(&f, "");
	assert_int_equal(f.nset, 0);
	words(&f, "");
	qfilter_release(&f);
}

static void test_qfilter__bad_words_say_why(void **state)
{
	char big[6000];

	(void)state;
	parse_bad("leds", "'leds' is not a filter");
	parse_bad("subject:foo", "unknown filter 'subject'");
	parse_bad("author:", "author needs a value");
	parse_bad("author:\"open", "lacks its closing");
	parse_bad("limit:0", "limit takes a number");
	parse_bad("limit:12abc", "limit takes a number");
	parse_bad("series:\"<a b>\"", "is not a Message-ID");
	parse_bad("author:J\"J", "holds a '\"'");	/* found by fuzz_query */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	parse_bad(big, "at most 4096 bytes");
	memcpy(big, "file:", 5);
	big[1000] = '\0';
	parse_bad(big, "too long");
	parse_bad("author:a author:a author:a author:a author:a author:a author:a author:a"
		  " author:a author:a author:a author:a author:a author:a author:a author:a"
		  " author:a author:a author:a author:a author:a author:a author:a author:a"
		  " author:a author:a author:a author:a author:a author:a author:a author:a"
		  " author:a", "at most 32 filters");
}

static void test_qfilter__set_refuses_control_characters(void **state)
{
	struct qfilter f;
	char err[128];

	(void)state;
	qfilter_init(&f);
	assert_int_equal(qfilter_set(&f, "author", "a\nb", NOW, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "control character"));
	assert_int_equal(qfilter_set(&f, "FILE", "a/b.c", NOW, err, sizeof(err)), 0);
	assert_string_equal(f.file, "a/b.c");
	/* a second value replaces the first */
	assert_int_equal(qfilter_set(&f, "file", "c.c", NOW, err, sizeof(err)), 0);
	assert_string_equal(f.file, "c.c");
	qfilter_release(&f);
}

static void test_qfilter__apply_fills_the_store_query(void **state)
{
	struct store_query q;
	struct qfilter f;

	(void)state;
	parse_ok(&f, "author:ann type:long_line series:<s@x> limit:5");
	memset(&q, 0, sizeof(q));
	q.limit = 100;
	qfilter_apply(&f, &q);
	assert_string_equal(q.author, "ann");
	assert_string_equal(q.type, "LONG_LINE");
	assert_string_equal(q.series_msgid, "s@x");
	assert_int_equal(q.limit, 5);
	assert_null(q.category);
	qfilter_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qfilter__the_issues_example_parses),
		cmocka_unit_test(test_qfilter__types_any_case_validated_and_listed),
		cmocka_unit_test(test_qfilter__dates_absolute_relative_and_bad),
		cmocka_unit_test(test_qfilter__message_ids_with_or_without_brackets),
		cmocka_unit_test(test_qfilter__quotes_aliases_and_words_back),
		cmocka_unit_test(test_qfilter__bad_words_say_why),
		cmocka_unit_test(test_qfilter__set_refuses_control_characters),
		cmocka_unit_test(test_qfilter__apply_fills_the_store_query),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

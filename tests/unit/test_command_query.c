// SPDX-License-Identifier: GPL-2.0-only
/* "query WORDS" mailed to the bot: which lines are queries, and their
 * words as written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bot/command.h"

struct qcase {
	const char *name;
	const char *body;
	enum command_kind kind;
	const char *words;	/* for COMMAND_QUERY */
};

static const struct qcase cases[] = {
	{ "the issue's example", "query category:uapi file:drivers/leds/* since:30d\n",
	  COMMAND_QUERY, "category:uapi file:drivers/leds/* since:30d" },
	{ "any case, words keep theirs", "Query file:Documentation/ABI/*\n",
	  COMMAND_QUERY, "file:Documentation/ABI/*" },
	{ "white space runs and CRLF", "  query\t author:jane   since:2w \r\n",
	  COMMAND_QUERY, "author:jane since:2w" },
	{ "a Message-ID in brackets in plain text stays",
	  "query series:<a@b.example>\n", COMMAND_QUERY, "series:<a@b.example>" },
	{ "HTML mail: tags dropped", "<div dir=\"ltr\">query type:long_line</div>\n",
	  COMMAND_QUERY, "type:long_line" },
	{ "bare query: no words", "query\n", COMMAND_QUERY, "" },
	{ "after a quote and an attribution",
	  "On Mon, 3 Nov 2026, reviewbot wrote:\n> review\n\nquery author:joe\n",
	  COMMAND_QUERY, "author:joe" },
	{ "a word that only starts with query", "queryx author:joe\n", COMMAND_NONE, NULL },
	{ "a sentence", "Can you query the history for me?\n", COMMAND_NONE, NULL },
	{ "quoted query", "> query author:joe\n", COMMAND_NONE, NULL },
	{ "optout still is optout", "optout\n", COMMAND_OPTOUT, NULL },
};

static void test_command_query__lines(void **state)
{
	struct command c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum command_kind k = command_parse(cases[i].body, strlen(cases[i].body), &c);

		if (k != cases[i].kind)
			fail_msg("%s: kind %d, wanted %d", cases[i].name, k, cases[i].kind);
		if (cases[i].words && strcmp(c.query, cases[i].words))
			fail_msg("%s: words '%s', wanted '%s'", cases[i].name, c.query,
				 cases[i].words);
	}
	assert_string_equal(command_name(COMMAND_QUERY), "query");
}

static void test_command_query__too_long_is_said(void **state)
{
	struct command c;
	char body[3000];

	(void)state;
	memcpy(body, "query author:", 13);
	memset(body + 13, 'a', sizeof(body) - 14);
	body[sizeof(body) - 1] = '\0';
	assert_int_equal(command_parse(body, strlen(body), &c), COMMAND_QUERY);
	assert_true(c.query_too_long);
	assert_int_equal(strlen(c.query), COMMAND_QUERY_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_query__lines),
		cmocka_unit_test(test_command_query__too_long_is_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of bot/command.c: the commands a mail may carry (optout, mute,
 * false-positive, query ...) found in its first lines, skip markers, thread
 * roots, auto-generated mail left alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bot/command.h"
#include "../../bot/config.h"

#define TOK "0123456789abcdef0123456789abcdef"

struct parse_case {
	const char *name;
	const char *body;
	enum command_kind kind;
	const char *token;	/* for COMMAND_CONFIRM */
};

static const struct parse_case cases[] = {
	{ "bare optout", "optout\n", COMMAND_OPTOUT, NULL },
	{ "no newline", "optout", COMMAND_OPTOUT, NULL },
	{ "capitals and full stop", "OptOut.\n", COMMAND_OPTOUT, NULL },
	{ "spelled with a dash", "opt-out!\n", COMMAND_OPTOUT, NULL },
	{ "leading blank lines and spaces", "\n\n   \t optout  \r\n", COMMAND_OPTOUT, NULL },
	{ "optout private", "optout private\n", COMMAND_OPTOUT_PRIVATE, NULL },
	{ "optout private, odd spacing and case", "  OPTOUT \t  Private \n",
	  COMMAND_OPTOUT_PRIVATE, NULL },
	{ "mute", "Mute\n\nThanks,\nJane\n", COMMAND_MUTE, NULL },
	{ "optin", "optin\n", COMMAND_OPTIN, NULL },
	{ "opt-in", "opt-in\n", COMMAND_OPTIN, NULL },
	{ "signature after the command", "optout\n\n-- \nJane Developer\nACME Inc.\n",
	  COMMAND_OPTOUT, NULL },
	{ "quoted review first, command below",
	  "> [PATCH 1/2] a.c:3: WARNING: line too long\n>\n> -- \n> reviewbot\n\nmute\n",
	  COMMAND_MUTE, NULL },
	{ "attribution line then quote then command",
	  "On Mon, 3 Nov 2026 at 10:00, reviewbot <bot@example.org> wrote:\n"
	  "> some review\n\noptout\n", COMMAND_OPTOUT, NULL },
	{ "attribution wrapped on two lines",
	  "On Mon, 3 Nov 2026 at 10:00, reviewbot <bot@example.org>\nwrote:\n"
	  "> some review\noptout private\n", COMMAND_OPTOUT_PRIVATE, NULL },
	{ "HTML-ish junk around the command",
	  "<html><body>\n<div dir=\"ltr\"><br></div>\n<div>optout&nbsp;private</div>\n"
	  "</body></html>\n", COMMAND_OPTOUT_PRIVATE, NULL },
	{ "non-breaking spaces", "\xc2\xa0optout\xc2\xa0\n", COMMAND_OPTOUT, NULL },
	{ "a sentence is not a command", "Please optout me from this bot.\n",
	  COMMAND_NONE, NULL },
	{ "words after the command", "optout now\n", COMMAND_NONE, NULL },
	{ "the command not on the first line", "Hi,\n\noptout\n", COMMAND_NONE, NULL },
	{ "only quoted text", "> optout\n> mute\n", COMMAND_NONE, NULL },
	{ "empty body", "", COMMAND_NONE, NULL },
	{ "discussion", "Thanks for the review, v2 is coming.\n", COMMAND_NONE, NULL },
	{ "a very long first line",
	  "optout xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
	  COMMAND_NONE, NULL },
	{ "optin with a token", "optin " TOK "\n", COMMAND_CONFIRM, TOK },
	{ "confirm with a token, capitals", "Confirm " "0123456789ABCDEF0123456789ABCDEF" "\n",
	  COMMAND_CONFIRM, TOK },
	/* quoted text is never the sender's: an auto-responder quoting the
	 * confirmation it answers cannot use the token */
	{ "a reply that only quotes the confirm line",
	  "Yes please.\n\nOn Mon, 3 Nov 2026, reviewbot wrote:\n"
	  "> reviewbot received the command \"optin\" for a@b.c.\n>\n>     confirm " TOK "\n",
	  COMMAND_NONE, NULL },
	{ "an out-of-office quoting it all", "I am away until Monday.\n\n"
	  ">     confirm " TOK "\n> optout\n", COMMAND_NONE, NULL },
	{ "optin above the quoted token", "optin\n\n>    confirm " TOK "\n",
	  COMMAND_OPTIN, NULL },
	{ "the confirm line written in the reply", "Yes please.\n\n    confirm " TOK "\n\n"
	  "On Mon, 3 Nov 2026, reviewbot wrote:\n>     confirm " TOK "\n",
	  COMMAND_CONFIRM, TOK },
	{ "HTML: the token in a blockquote",
	  "<div>Yes</div>\n<blockquote type=\"cite\">\n<div>confirm " TOK "</div>\n"
	  "</blockquote>\n", COMMAND_NONE, NULL },
	{ "HTML: a command in a blockquote", "<blockquote>optout</blockquote>\n",
	  COMMAND_NONE, NULL },
	{ "HTML: the command after the blockquote",
	  "<blockquote>\nsome review\n</blockquote>\n<div>mute</div>\n", COMMAND_MUTE, NULL },
	{ "a short token is no token", "confirm 0123456789abcdef\n", COMMAND_NONE, NULL },
	{ "a token with non-hex digits", "confirm 0123456789abcdef0123456789abcdeg\n",
	  COMMAND_NONE, NULL },
	{ "optout wins over a quoted token", "optout\n> confirm " TOK "\n",
	  COMMAND_OPTOUT, NULL },
};

static void test_command__parse_table(void **state)
{
	struct command c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum command_kind k = command_parse(cases[i].body, strlen(cases[i].body), &c);

		if (k != cases[i].kind || c.kind != k)
			fail_msg("%s: got %s, want %s", cases[i].name, command_name(k),
				 command_name(cases[i].kind));
		if (cases[i].token)
			assert_string_equal(c.token, cases[i].token);
		else
			assert_string_equal(c.token, "");
	}
}

static void test_command__false_positive(void **state)
{
	static const struct {
		const char *body;
		enum command_kind kind;
		const char *type;
		int number;
		const char *reason;
	} fp[] = {
		{ "false-positive LONG_LINE\n", COMMAND_FALSE_POSITIVE, "LONG_LINE", 0, "" },
		/* markup is dropped, as in every command line */
		{ "False Positive long_line: it is a URL, see <https://x>.\n",
		  COMMAND_FALSE_POSITIVE, "LONG_LINE", 0, "it is a URL, see" },
		{ "false-positive #3 - The Lock Is Held Here\n", COMMAND_FALSE_POSITIVE, "", 3,
		  "The Lock Is Held Here" },
		{ "false-positive 12, fine\n", COMMAND_FALSE_POSITIVE, "", 12, "fine" },
		{ "<div>FALSE-POSITIVE:&nbsp;#7</div>\n", COMMAND_FALSE_POSITIVE, "", 7, "" },
		{ "> quoted\nOn Mon, Jane wrote:\nfalse-positive AVOID_BUG\n> x\n",
		  COMMAND_FALSE_POSITIVE, "AVOID_BUG", 0, "" },
		{ "false-positive USER_COPY_UNCHECKED, caf\xc3\xa9\tok\n",
		  COMMAND_FALSE_POSITIVE, "USER_COPY_UNCHECKED", 0, "caf\xc3\xa9 ok" },
		/* answered with how: no target, or one that is none */
		{ "false-positive\n", COMMAND_FALSE_POSITIVE, "", 0, "" },
		{ "false-positive #0\n", COMMAND_FALSE_POSITIVE, "", 0, "" },
		{ "false-positive #100000\n", COMMAND_FALSE_POSITIVE, "", 0, "" },
		{ "false-positive #3x\n", COMMAND_FALSE_POSITIVE, "", 0, "" },
		{ "false-positive LONG.LINE\n", COMMAND_FALSE_POSITIVE, "", 0, "" },
		{ "false-positive A23456789012345678901234567890123456789012345678901234567890123X\n",
		  COMMAND_FALSE_POSITIVE, "", 0, "" },
		/* prose, quoted text, later lines: no command */
		{ "false-positives are a pain\n", COMMAND_NONE, "", 0, "" },
		{ "I think this is a false-positive LONG_LINE\n", COMMAND_NONE, "", 0, "" },
		{ "> false-positive LONG_LINE\n", COMMAND_NONE, "", 0, "" },
		{ "Thanks.\nfalse-positive LONG_LINE\n", COMMAND_NONE, "", 0, "" },
	};
	char body[1200], want[STORE_FEEDBACK_REASON_MAX + 1];
	struct command c;
	size_t i;
	int n;

	(void)state;
	for (i = 0; i < sizeof(fp) / sizeof(fp[0]); i++) {
		enum command_kind k = command_parse(fp[i].body, strlen(fp[i].body), &c);

		if (k != fp[i].kind)
			fail_msg("%s: got %s", fp[i].body, command_name(k));
		assert_string_equal(c.type, fp[i].type);
		assert_int_equal(c.number, fp[i].number);
		assert_string_equal(c.reason, fp[i].reason);
		assert_string_equal(c.token, "");
	}
	/* a long reason is cut at STORE_FEEDBACK_REASON_MAX bytes, never in a
	 * character */
	n = snprintf(body, sizeof(body), "false-positive #1 a");
	for (i = 0; i < 150; i++)
		n += snprintf(body + n, sizeof(body) - (size_t)n, "\xc3\xa9");
	assert_int_equal(command_parse(body, (size_t)n, &c), COMMAND_FALSE_POSITIVE);
	assert_int_equal(strlen(c.reason), STORE_FEEDBACK_REASON_MAX - 1);
	want[0] = 'a';
	for (i = 1; i + 1 < STORE_FEEDBACK_REASON_MAX; i += 2)
		memcpy(want + i, "\xc3\xa9", 2);
	want[i] = '\0';
	assert_string_equal(c.reason, want);
	/* a line longer than any command is prose */
	n = snprintf(body, sizeof(body), "false-positive #1 ");
	while (n < 1100)
		body[n++] = 'x';
	assert_int_equal(command_parse(body, (size_t)n, &c), COMMAND_NONE);
}

static void test_command__looks_at_the_first_lines_only(void **state)
{
	char *body;
	size_t i, n = 0, cap = 200 * 4 + 64;
	struct command c;

	(void)state;
	body = malloc(cap);
	assert_non_null(body);
	for (i = 0; i < COMMAND_MAX_LINES + 5; i++)
		n += (size_t)snprintf(body + n, cap - n, ">\n");
	n += (size_t)snprintf(body + n, cap - n, "optout\n");
	assert_int_equal(command_parse(body, n, &c), COMMAND_NONE);
	free(body);
	/* a body that is not NUL-terminated at len is read up to len only */
	assert_int_equal(command_parse("muteXX", 4, &c), COMMAND_MUTE);
	assert_int_equal(command_parse(NULL, 0, &c), COMMAND_NONE);
}

static void test_command__names(void **state)
{
	(void)state;
	assert_string_equal(command_name(COMMAND_OPTOUT), "optout");
	assert_string_equal(command_name(COMMAND_OPTOUT_PRIVATE), "optout private");
	assert_string_equal(command_name(COMMAND_MUTE), "mute");
	assert_string_equal(command_name(COMMAND_OPTIN), "optin");
	assert_string_equal(command_name(COMMAND_CONFIRM), "optin confirmed");
	assert_string_equal(command_name(COMMAND_FALSE_POSITIVE), "false-positive");
	assert_string_equal(command_name(COMMAND_NONE), "none");
}

static void test_command__reviewbot_skip_line(void **state)
{
	static const char yes1[] = "This series is for discussion.\n\nReviewbot: skip\n";
	static const char yes2[] = "x\n  REVIEWBOT:   SKIP  \ny\n";
	static const char no1[] = "Reviewbot: skip this one please\n";
	static const char no2[] = "We could add a 'Reviewbot: skip' line.\n";

	(void)state;
	assert_true(command_wants_skip(yes1, strlen(yes1)));
	assert_true(command_wants_skip(yes2, strlen(yes2)));
	assert_false(command_wants_skip(no1, strlen(no1)));
	assert_false(command_wants_skip(no2, strlen(no2)));
	assert_false(command_wants_skip(NULL, 0));
}

static void test_command__thread_root(void **state)
{
	char *refs[] = { (char *)"root@x", (char *)"mid@x" };
	struct mime_mail m;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.message_id = (char *)"own@x";
	assert_string_equal(command_thread_root(&m), "own@x");
	m.in_reply_to = (char *)"parent@x";
	assert_string_equal(command_thread_root(&m), "parent@x");
	m.refs = refs;
	m.nrefs = 2;
	assert_string_equal(command_thread_root(&m), "root@x");
}

/* A program's mail is never a command; a person's, through a list (which
 * adds Precedence: bulk or list), is. */
static void test_command__auto_generated_mail(void **state)
{
	static const struct {
		const char *headers;
		const char *why;	/* NULL: a person */
	} autos[] = {
		{ "From: Jane <jane@example.org>\n", NULL },
		{ "From: Jane <jane@example.org>\nAuto-Submitted: no\n", NULL },
		{ "From: Jane <jane@example.org>\nAuto-Submitted: No (sent by hand)\n", NULL },
		{ "From: Jane <jane@example.org>\nAuto-Submitted: auto-replied\n", "Auto-Submitted" },
		{ "From: Jane <jane@example.org>\nAuto-Submitted: auto-notified\n", "Auto-Submitted" },
		{ "From: Jane <jane@example.org>\nAuto-Submitted: notify-me\n", "Auto-Submitted" },
		{ "From: Jane <jane@example.org>\nReturn-Path: <>\n", "Return-Path: <>" },
		{ "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\n",
		  "from MAILER-DAEMON or postmaster" },
		{ "From: postmaster@example.org\n", "from MAILER-DAEMON or postmaster" },
		{ "From: Jane <jane@example.org>\nX-Autoreply: yes\n", "X-Autoreply" },
		{ "From: Jane <jane@example.org>\nX-Auto-Response-Suppress: All\n",
		  "X-Auto-Response-Suppress" },
		{ "From: Jane <jane@example.org>\nPrecedence: bulk\n", "Precedence" },
		{ "From: Jane <jane@example.org>\nPrecedence: list\n", "Precedence" },
		{ "From: Jane <jane@example.org>\nPrecedence: junk\n", "Precedence" },
		/* as vger passes a person's reply on */
		{ "From: Jane <jane@example.org>\nPrecedence: bulk\n"
		  "List-Id: <linux-leds.vger.kernel.org>\n", NULL },
		{ "From: Jane <jane@example.org>\nPrecedence: list\n"
		  "List-Id: <driverdev-devel.linuxdriverproject.org>\n", NULL },
		{ "From: Jane <jane@example.org>\nPrecedence: junk\n"
		  "List-Id: <linux-leds.vger.kernel.org>\n", "Precedence" },
		{ "From: Jane <jane@example.org>\nPrecedence: bulk\n"
		  "List-Id: <linux-leds.vger.kernel.org>\nX-Autoreply: yes\n", "X-Autoreply" },
		{ "From: Jane <postmaster.jane@example.org>\n", NULL },
	};
	struct mime_mail m;
	char buf[512];
	const char *why;
	size_t i;
	int n;

	(void)state;
	for (i = 0; i < sizeof(autos) / sizeof(autos[0]); i++) {
		n = snprintf(buf, sizeof(buf), "%sMessage-ID: <a%zu@x>\nSubject: Re: x\n\noptout\n",
			     autos[i].headers, i);
		assert_int_equal(mime_parse(buf, (size_t)n, &m), MIME_OK);
		why = command_auto_generated(&m);
		if (autos[i].why ? !why || strcmp(why, autos[i].why) : why != NULL)
			fail_msg("case %zu: got %s, want %s", i, why ? why : "(none)",
				 autos[i].why ? autos[i].why : "(none)");
		mime_release(&m);
	}
}

/*
 * Issue 33: a command backdated past max_age was carried out unanswered,
 * and one dated in the future passed.  The window: no Date:, later than
 * max_clock_skew ahead, or older than max_age (when set) is refused.
 */
static void test_command__date_window(void **state)
{
	struct config cfg;
	int64_t now = 2000000000;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_clock_skew = 900;
	cfg.max_age = 259200;
	assert_null(command_date_refusal(&cfg, now, now));
	assert_null(command_date_refusal(&cfg, now + 900, now));
	assert_null(command_date_refusal(&cfg, now - 259200, now));
	assert_non_null(strstr(command_date_refusal(&cfg, now + 901, now), "future"));
	assert_non_null(strstr(command_date_refusal(&cfg, now - 259201, now), "max_age"));
	assert_non_null(strstr(command_date_refusal(&cfg, 0, now), "no usable Date"));
	/* max_age 0: no limit in the past, the future still refused */
	cfg.max_age = 0;
	assert_null(command_date_refusal(&cfg, 1, now));
	assert_non_null(command_date_refusal(&cfg, now + 86400, now));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command__parse_table),
		cmocka_unit_test(test_command__false_positive),
		cmocka_unit_test(test_command__looks_at_the_first_lines_only),
		cmocka_unit_test(test_command__names),
		cmocka_unit_test(test_command__reviewbot_skip_line),
		cmocka_unit_test(test_command__thread_root),
		cmocka_unit_test(test_command__auto_generated_mail),
		cmocka_unit_test(test_command__date_window),
	};

	return cmocka_run_group_tests_name("command", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of bot/config.c: the configuration file's grammar, defaults
 * from the option table, bounds, errors that name file and line, and the
 * shipped example.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../bot/config.h"
#include "../../bot/mail/mailbox.h"
#include "../../bot/mail/mime.h"
#include "../../bot/mail/subject.h"
#include "../../checker/diff.h"

static const char *option_default(const char *section, const char *key)
{
	size_t i;

	for (i = 0; i < config_noptions; i++)
		if (!strcmp(config_options[i].section, section) &&
		    !strcmp(config_options[i].key, key))
			return config_options[i].def;
	fail_msg("no option %s.%s", section, key);
	return NULL;
}

/* Parses s as "x.conf"; asserts success. */
static void parse_ok(const char *name, const char *s, struct config *c)
{
	char err[512];

	if (config_parse(name, s, strlen(s), c, err, sizeof(err)))
		fail_msg("unexpected error: %s", err);
	assert_string_equal(err, "");
}

static void expect_err(const char *s, const char *want)
{
	struct config c;
	char err[512];

	if (!config_parse("x.conf", s, strlen(s), &c, err, sizeof(err)))
		fail_msg("parsed, wanted \"%s\"", want);
	if (strcmp(err, want))
		fail_msg("got \"%s\", wanted \"%s\"", err, want);
	/* the defaults are back, and releasing them is clean */
	assert_null(c.file);
	assert_int_equal(c.nsources, 0);
	config_release(&c);
}

static void test_config__defaults_come_from_the_table(void **state)
{
	struct config c;

	(void)state;
	config_init(&c);
	assert_null(c.file);
	assert_null(c.address);
	assert_string_equal(c.name, "reviewbot");
	assert_string_equal(c.database, "reviewbot.db");
	/* unset: found beside the program, not compiled in */
	assert_null(c.templates);
	assert_null(option_default("bot", "templates"));
	assert_int_equal(c.dry_run, 1);
	assert_int_equal(c.nsources, 0);
	assert_null(c.sources);
	assert_int_equal(c.delivery, DELIVER_MAILDIR);
	assert_null(c.delivery_url);
	assert_string_equal(c.delivery_path, "outbox");
	assert_int_equal(c.series_wait, 600);
	assert_int_equal(c.review_clean, 0);
	assert_int_equal(c.max_replies_per_hour, 30);
	assert_int_equal(c.max_confirmations_per_hour, 20);
	assert_int_equal(c.stage_wait, 600);
	assert_int_equal(c.max_age, 259200);	/* 3 days */
	config_release(&c);
	config_release(&c);	/* twice is harmless */
}

static void test_config__table_is_consistent(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(config_noptions, 79);
	for (i = 0; i < config_noptions; i++) {
		const struct config_option *o = &config_options[i];

		assert_non_null(o->desc);
		assert_true(strlen(o->desc) > 0);
		if (!strcmp(o->type, "int"))
			assert_true(o->min <= o->max);
		if (!strcmp(o->type, "enum"))
			assert_non_null(o->values);
		/* keys are spelt with '_' only, lowercase */
		assert_null(strchr(o->key, '-'));
	}
	assert_null(option_default("source", "type"));	/* required */
	/* the enum names follow the values strings */
	assert_string_equal(source_type_name(SRC_MAILDIR), "maildir");
	assert_string_equal(source_type_name(SRC_MBOX), "mbox");
	assert_string_equal(source_type_name(SRC_IMAP), "imap");
	assert_string_equal(source_type_name(SRC_NNTP), "nntp");
	assert_string_equal(source_type_name(SRC_PUBLIC_INBOX), "public-inbox");
	assert_string_equal(reply_policy_name(REPLY_POLICY_LIST), "list");
	assert_string_equal(reply_policy_name(REPLY_POLICY_ALL), "all");
	assert_string_equal(reply_policy_name(REPLY_POLICY_AUTHOR), "author");
	assert_string_equal(reply_policy_name(REPLY_POLICY_NONE), "none");
	assert_string_equal(delivery_type_name(DELIVER_MAILDIR), "maildir");
	assert_string_equal(delivery_type_name(DELIVER_SENDMAIL), "sendmail");
	assert_string_equal(delivery_type_name(DELIVER_SMTP), "smtp");
	assert_string_equal(delivery_type_name((enum delivery_type)42), "unknown");
	for (i = 0; i < config_noptions; i++) {
		const struct config_option *o = &config_options[i];

		if (!strcmp(o->section, "source") && !strcmp(o->key, "type"))
			assert_string_equal(o->values, "maildir|mbox|imap|nntp|public-inbox");
		if (!strcmp(o->section, "source") && !strcmp(o->key, "reply"))
			assert_string_equal(o->values, "list|all|author|none");
		if (!strcmp(o->section, "delivery") && !strcmp(o->key, "type"))
			assert_string_equal(o->values, "maildir|sendmail|smtp");
	}
}

static const char full[] =
	"[bot]\n"
	"        address = reviewbot@example.org\n"
	"        name = Review Bot\n"
	"        database = /var/lib/reviewbot/reviewbot.db\n"
	"        templates = /usr/share/reviewbot/templates\n"
	"        dry_run = false\n"
	"[source \"lkml\"]\n"
	"        type = imap\n"
	"        url = imaps://bot@imap.example.org/INBOX\n"
	"        list = linux-kernel@vger.kernel.org\n"
	"        reply = list\n"
	"        poll_interval = 60\n"
	"[source \"leds\"]\n"
	"        type = public-inbox\n"
	"        url = https://lore.kernel.org/linux-leds\n"
	"        reply = author\n"
	"        review_clean = yes\n"
	"        review_backports = on\n"
	"[source \"news\"]\n"
	"        type = nntp\n"
	"        url = nntps://news.example.org/x\n"
	"        reply = all\n"
	"[source \"box\"]\n"
	"        type = mbox\n"
	"        path = /srv/a.mbox\n"
	"        reply = none\n"
	"        poll_interval = 86400\n"
	"[delivery]\n"
	"        type = smtp\n"
	"        url = smtps://bot@smtp.example.org:465\n"
	"[policy]\n"
	"        series_wait = 0\n"
	"        review_clean = false\n"
	"        max_replies_per_hour = 100000\n";

static void test_config__full_config(void **state)
{
	struct config c;

	(void)state;
	parse_ok("/etc/reviewbot/reviewbot.conf", full, &c);
	assert_string_equal(c.file, "/etc/reviewbot/reviewbot.conf");
	assert_string_equal(c.address, "reviewbot@example.org");
	assert_string_equal(c.name, "Review Bot");
	assert_string_equal(c.database, "/var/lib/reviewbot/reviewbot.db");
	assert_string_equal(c.templates, "/usr/share/reviewbot/templates");
	assert_int_equal(c.dry_run, 0);
	assert_int_equal(c.nsources, 4);
	assert_string_equal(c.sources[0].name, "lkml");
	assert_int_equal(c.sources[0].type, SRC_IMAP);
	assert_string_equal(c.sources[0].url, "imaps://bot@imap.example.org/INBOX");
	assert_null(c.sources[0].path);
	assert_string_equal(c.sources[0].list, "linux-kernel@vger.kernel.org");
	assert_int_equal(c.sources[0].reply, REPLY_POLICY_LIST);
	assert_int_equal(c.sources[0].poll_interval, 60);
	assert_int_equal(c.sources[0].line, 7);
	assert_string_equal(c.sources[1].name, "leds");
	assert_int_equal(c.sources[1].type, SRC_PUBLIC_INBOX);
	assert_null(c.sources[1].list);
	assert_int_equal(c.sources[1].reply, REPLY_POLICY_AUTHOR);
	assert_int_equal(c.sources[1].review_clean, 1);
	assert_int_equal(c.sources[1].review_backports, 1);
	assert_int_equal(c.sources[0].review_clean, 0);
	assert_int_equal(c.sources[0].review_backports, 0);
	assert_int_equal(c.sources[2].type, SRC_NNTP);
	assert_int_equal(c.sources[2].reply, REPLY_POLICY_ALL);
	assert_int_equal(c.sources[3].type, SRC_MBOX);
	assert_string_equal(c.sources[3].path, "/srv/a.mbox");
	assert_int_equal(c.sources[3].reply, REPLY_POLICY_NONE);
	assert_int_equal(c.sources[3].poll_interval, 86400);
	assert_int_equal(c.sources[3].line, 23);
	assert_int_equal(c.delivery, DELIVER_SMTP);
	assert_string_equal(c.delivery_url, "smtps://bot@smtp.example.org:465");
	assert_null(c.delivery_path);
	assert_int_equal(c.series_wait, 0);
	assert_int_equal(c.review_clean, 0);
	assert_int_equal(c.max_replies_per_hour, 100000);
	config_release(&c);
}

static void test_config__defaults_when_keys_are_missing(void **state)
{
	struct config c;

	(void)state;
	parse_ok("x.conf", "", &c);
	assert_string_equal(c.file, "x.conf");
	assert_string_equal(c.name, "reviewbot");
	assert_string_equal(c.database, "reviewbot.db");
	assert_int_equal(c.dry_run, 1);
	assert_int_equal(c.delivery, DELIVER_MAILDIR);
	assert_string_equal(c.delivery_path, "outbox");
	config_release(&c);

	parse_ok("x.conf",
		 "[source \"a\"]\n type = maildir\n path = /m\n"
		 "[delivery]\n type = sendmail\n", &c);
	assert_int_equal(c.nsources, 1);
	assert_int_equal(c.sources[0].reply, REPLY_POLICY_LIST);
	assert_int_equal(c.sources[0].poll_interval, 60);
	assert_null(c.sources[0].url);
	assert_null(c.sources[0].list);
	assert_int_equal(c.delivery, DELIVER_SENDMAIL);
	assert_string_equal(c.delivery_path, "/usr/sbin/sendmail");
	/* no address needed while dry_run is true */
	assert_null(c.address);
	config_release(&c);

	parse_ok("x.conf", "[delivery]\n type = sendmail\n path = /usr/bin/msmtp\n", &c);
	assert_string_equal(c.delivery_path, "/usr/bin/msmtp");
	config_release(&c);
}

struct err_case {
	const char *in;
	const char *err;
};

static const struct err_case err_cases[] = {
	{ "[bot]\n\n\n\n\n\n adress = a@b\n",
	  "x.conf:7: unknown key 'adress' in section [bot]" },
	{ "[source \"lkml\"]\n type = imap\n poll_interval = 0\n",
	  "x.conf:3: poll_interval: 0 is below the minimum 1" },
	{ "[source \"lkml\"]\n poll_interval = 86401\n",
	  "x.conf:2: poll_interval: 86401 is above the maximum 86400" },
	{ "[source \"lkml\"]\n poll_interval = 99999999999999999999999\n",
	  "x.conf:2: poll_interval: 99999999999999999999999 is above the maximum 86400" },
	{ "[source \"lkml\"]\n poll_interval = -99999999999999999999999\n",
	  "x.conf:2: poll_interval: -99999999999999999999999 is below the minimum 1" },
	{ "[source \"lkml\"]\n poll_interval = 1m\n",
	  "x.conf:2: poll_interval: '1m' is not a number" },
	{ "[source \"lkml\"]\n poll_interval = \" 5\"\n",
	  "x.conf:2: poll_interval: ' 5' is not a number" },
	{ "[source \"lkml\"]\n poll_interval =\n",
	  "x.conf:2: poll_interval: '' is not a number" },
	{ "[policy]\n series_wait = 604801\n",
	  "x.conf:2: series_wait: 604801 is above the maximum 604800" },
	{ "[policy]\n max_replies_per_hour = -1\n",
	  "x.conf:2: max_replies_per_hour: -1 is below the minimum 0" },
	{ "[policy]\n max_confirmations_per_hour = 100001\n",
	  "x.conf:2: max_confirmations_per_hour: 100001 is above the maximum 100000" },
	{ "[policy]\n demote_after = 1001\n",
	  "x.conf:2: demote_after: 1001 is above the maximum 1000" },
	{ "[source \"m\"]\n type = maildir\n path = /m\n maintainers = a@x, b\n",
	  "x.conf:4: maintainers: 'a@x, b' holds something that is not an address (local@domain)" },
	{ "[source \"m\"]\n type = maildir\n path = /m\n maintainers = \" , \"\n",
	  "x.conf:4: maintainers: ' , ' holds no address" },
	{ "[source \"m\"]\n type = maildir\n path = /m\n\n maintainers = a@x\n",
	  "x.conf:5: source \"m\": maintainers needs list" },
	{ "[policy]\n stage_wait = -1\n",
	  "x.conf:2: stage_wait: -1 is below the minimum 0" },
	{ "[policy]\n stage_wait = 604801\n",
	  "x.conf:2: stage_wait: 604801 is above the maximum 604800" },
	/* [limits]: below the minimum and above the ceiling */
	{ "[limits]\n max_message_bytes = 1023\n",
	  "x.conf:2: max_message_bytes: 1023 is below the minimum 1024" },
	{ "[limits]\n\n max_message_bytes = 67108865\n",
	  "x.conf:3: max_message_bytes: 67108865 is above the maximum 67108864" },
	{ "[limits]\n max_message_bytes = 64M\n",
	  "x.conf:2: max_message_bytes: '64M' is not a number" },
	{ "[limits]\n max_parts = 0\n",
	  "x.conf:2: max_parts: 0 is below the minimum 1" },
	{ "[limits]\n max_parts = 10001\n",
	  "x.conf:2: max_parts: 10001 is above the maximum 10000" },
	{ "[limits]\n max_references = 0\n",
	  "x.conf:2: max_references: 0 is below the minimum 1" },
	{ "[limits]\n max_references = 10001\n",
	  "x.conf:2: max_references: 10001 is above the maximum 10000" },
	{ "[limits]\n max_files_per_patch = 0\n",
	  "x.conf:2: max_files_per_patch: 0 is below the minimum 1" },
	{ "[limits]\n max_files_per_patch = 200001\n",
	  "x.conf:2: max_files_per_patch: 200001 is above the maximum 200000" },
	{ "[limits]\n max_lines_per_patch = 0\n",
	  "x.conf:2: max_lines_per_patch: 0 is below the minimum 1" },
	{ "[limits]\n max_lines_per_patch = 8000001\n",
	  "x.conf:2: max_lines_per_patch: 8000001 is above the maximum 8000000" },
	{ "[limits]\n max_series_parts = 0\n",
	  "x.conf:2: max_series_parts: 0 is below the minimum 1" },
	{ "[limits]\n max_series_parts = 100000\n",
	  "x.conf:2: max_series_parts: 100000 is above the maximum 99999" },
	{ "[limits]\n max_lines_per_file = 10\n",
	  "x.conf:2: unknown key 'max_lines_per_file' in section [limits]" },
	{ "[limits \"x\"]\n", "x.conf:1: section [limits] takes no name" },
	{ "[limits]\n max_parts = 5\n max-parts = 6\n",
	  "x.conf:3: max_parts: given twice (first at line 2)" },
	{ "# c\n[source \"lkml\"]\n type = imap\n list = l@x\n\n\n\n\n",
	  "x.conf:2: source \"lkml\": url is required for type imap" },
	{ "[source \"lkml\"]\n type = nntp\n url = imaps://x/y\n",
	  "x.conf:3: source \"lkml\": url must start with nntp:// or nntps:// for type nntp" },
	{ "[source \"lkml\"]\n url = http://x/y\n type = imap\n",
	  "x.conf:2: source \"lkml\": url must start with imap:// or imaps:// for type imap" },
	{ "[source \"lkml\"]\n type = imap\n url = nntp://x/y\n",
	  "x.conf:3: source \"lkml\": url must start with imap:// or imaps:// for type imap" },
	{ "[source \"lkml\"]\n type = imap\n url = imap://x\n path = /x\n",
	  "x.conf:4: source \"lkml\": path does not apply to type imap" },
	{ "[source \"m\"]\n type = maildir\n",
	  "x.conf:1: source \"m\": path is required for type maildir" },
	{ "[source \"m\"]\n type = mbox\n path = a\n url = imap://x\n",
	  "x.conf:4: source \"m\": url does not apply to type mbox" },
	{ "[source \"m\"]\n path = a\n",
	  "x.conf:1: source \"m\": type is required" },
	{ "[source \"m\"]\n type = pop3\n",
	  "x.conf:2: type: 'pop3' is not one of maildir|mbox|imap|nntp|public-inbox" },
	{ "[source \"m\"]\n url = ftp://x\n",
	  "x.conf:2: url: the url must start with imap://, imaps://, nntp://, nntps://, http:// or https://" },
	{ "[source \"m\"]\n url = \"imap://x y\"\n",
	  "x.conf:2: url: the url is not a url (it has a space)" },
	{ "[source \"m\"]\n reply = everyone\n",
	  "x.conf:2: reply: 'everyone' is not one of list|all|author|none" },
	{ "[source \"m\"]\n list = linux-kernel\n",
	  "x.conf:2: list: 'linux-kernel' is not an address (local@domain)" },
	{ "[source \"m\"]\n type = maildir\n[source \"m\"]\n type = mbox\n",
	  "x.conf:4: type: given twice (first at line 2)" },
	{ "[bot]\n address = a@b\n[policy]\n[bot]\n address = c@d\n",
	  "x.conf:5: address: given twice (first at line 2)" },
	{ "[bot]\n dry-run = yes\n DRY_RUN = no\n",
	  "x.conf:3: dry_run: given twice (first at line 2)" },
	{ "[bot]\n address = a@b@c\n",
	  "x.conf:2: address: 'a@b@c' is not an address (local@domain)" },
	{ "[bot]\n address = @b\n",
	  "x.conf:2: address: '@b' is not an address (local@domain)" },
	{ "[bot]\n address = \"a b@c\"\n",
	  "x.conf:2: address: 'a b@c' is not an address (local@domain)" },
	{ "[bot]\n address = <a@b>\n",
	  "x.conf:2: address: '<a@b>' is not an address (local@domain)" },
	{ "[bot]\n address = a@b\\n\n",
	  "x.conf:2: address: control character in 'a@b\\x0a'" },
	{ "[bot]\n name = \"Bot\\nBcc: x@y\"\n",
	  "x.conf:2: name: control character in 'Bot\\x0aBcc: x@y'" },
	{ "[bot]\n name =\n",
	  "x.conf:2: name: empty value" },
	{ "[bot]\n database = \"\"\n",
	  "x.conf:2: database: empty value" },
	{ "[bot]\n dry_run = maybe\n",
	  "x.conf:2: dry_run: 'maybe' is not a boolean (true/false, yes/no, on/off, 1/0)" },
	{ "[bot]\n address\n",
	  "x.conf:2: address: a value is required" },
	{ "[bot]\n dry_run = false\n[source \"a\"]\n type = maildir\n path = x\n",
	  "x.conf:1: bot: address is required when dry_run is false" },
	{ "[delivery]\n type = smtp\n",
	  "x.conf:1: delivery: url is required for type smtp" },
	{ "[delivery]\n url = imap://x\n",
	  "x.conf:2: url: the url must start with smtp:// or smtps://" },
	/* a url is never repeated in an error: it may hold a password */
	{ "[delivery]\n url = smtp://bot:secret@\n type = smtp\n",
	  "x.conf:2: url: the url names no host" },
	{ "[delivery]\n url = smtp://x\n",
	  "x.conf:2: delivery: url does not apply to type maildir" },
	{ "[delivery]\n type = smtp\n url = smtp://x\n path = y\n",
	  "x.conf:4: delivery: path does not apply to type smtp" },
	{ "[delivery]\n type = pigeon\n",
	  "x.conf:2: type: 'pigeon' is not one of maildir|sendmail|smtp" },
	{ "[bot\n", "x.conf:1: unterminated section header" },
	{ "\n[source \"lkml]\n", "x.conf:2: unterminated section header" },
	{ "[bot", "x.conf:1: unterminated section header" },
	{ "[bot] address = a@b\n", "x.conf:1: text after the section header" },
	{ "[source lkml]\n",
	  "x.conf:1: bad section header: a name must be quoted, as [source \"NAME\"]" },
	{ "[]\n", "x.conf:1: bad section header" },
	{ "[bot/x]\n", "x.conf:1: bad section header" },
	{ "[source.lkml]\n", "x.conf:1: unknown section [source.lkml]" },
	{ "[core]\n", "x.conf:1: unknown section [core]" },
	{ "[source]\n",
	  "x.conf:1: section [source] needs a name, as [source \"NAME\"]" },
	{ "[source \"\"]\n", "x.conf:1: empty source name" },
	{ "[bot \"x\"]\n", "x.conf:1: section [bot] takes no name" },
	{ "[source \"a\"]\n reply = all\n zap = 1\n",
	  "x.conf:3: unknown key 'zap' in section [source \"a\"]" },
	{ "address = a@b\n", "x.conf:1: key 'address' before any section" },
	{ "[bot]\n address: a@b\n", "x.conf:2: expected '=' after key 'address'" },
	{ "[bot]\n = a@b\n", "x.conf:2: unexpected character '='" },
	{ "[bot]\n \x01\n", "x.conf:2: unexpected byte 0x01" },
	{ "[bot]\n name = \"abc\n", "x.conf:2: name: unterminated quote" },
	{ "[bot]\n name = a\\qb\n", "x.conf:2: name: unknown escape '\\q'" },
	{ "[bot]\n name = ab\\", "x.conf:2: name: backslash at the end of the file" },
};

static void test_config__errors_name_file_and_line(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++)
		expect_err(err_cases[i].in, err_cases[i].err);
}

static void test_config__error_buffer_is_optional_and_bounded(void **state)
{
	struct config c;
	char err[12];

	(void)state;
	assert_int_equal(config_parse("x.conf", "[zz]\n", 5, &c, NULL, 0), -1);
	config_release(&c);
	assert_int_equal(config_parse("x.conf", "[zz]\n", 5, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "x.conf:1: u");
	config_release(&c);
}

static void test_config__quoting_and_escapes(void **state)
{
	struct config c;

	(void)state;
	parse_ok("x.conf",
		 "[bot]\n"
		 "  name = \"  Review \\\"Bot\\\"  \"   \n"
		 "  address = \"bot\"@\"example.org\"   # quoted pieces join\n"
		 "  database = \"/a b/c;d#e.db\"\n"
		 "  templates = /x\\\\y\n", &c);
	assert_string_equal(c.name, "  Review \"Bot\"  ");
	assert_string_equal(c.address, "bot@example.org");
	assert_string_equal(c.database, "/a b/c;d#e.db");
	assert_string_equal(c.templates, "/x\\y");
	config_release(&c);

	/* internal blanks of an unquoted value stay, one space for each */
	parse_ok("x.conf", "[bot]\n name = Review\t  Bot   \n", &c);
	assert_string_equal(c.name, "Review   Bot");
	config_release(&c);
}

static void test_config__comments(void **state)
{
	struct config c;

	(void)state;
	parse_ok("x.conf",
		 "# top\n"
		 "; also a comment\n"
		 "[bot] # after a header\n"
		 "\t# indented\n"
		 "\tname = Bot # trailing\n"
		 "\taddress = a@b;trailing\n"
		 "[policy] ; after a header\n"
		 "\tseries_wait = 5#x\n"
		 "#[bot]\n"
		 "#name = ignored\n", &c);
	assert_string_equal(c.name, "Bot");
	assert_string_equal(c.address, "a@b");
	assert_int_equal(c.series_wait, 5);
	config_release(&c);
}

static void test_config__checkpatch_version(void **state)
{
	struct config c;

	(void)state;
	config_init(&c);
	assert_string_equal(c.checkpatch_version, "auto");
	config_release(&c);
	parse_ok("x.conf", "[checker]\n\tcheckpatch_version = 6.1\n", &c);
	assert_string_equal(c.checkpatch_version, "6.1");
	config_release(&c);
	parse_ok("x.conf", "[checker]\n\tcheckpatch-version = 6.12\n", &c);
	assert_string_equal(c.checkpatch_version, "6.12");
	config_release(&c);
	parse_ok("x.conf", "[checker]\ncheckpatch_version = auto\n", &c);
	assert_string_equal(c.checkpatch_version, "auto");
	config_release(&c);
	expect_err("[checker]\n\tcheckpatch_version = 6.6\n",
		   "x.conf:2: checkpatch_version: '6.6' is not a checkpatch.pl version reviewbot follows (6.1, 6.12) or auto");
	expect_err("[checker]\n\tcheckpatch_version = 6.12.1\n",
		   "x.conf:2: checkpatch_version: '6.12.1' is not a checkpatch.pl version reviewbot follows (6.1, 6.12) or auto");
	expect_err("[checker \"x\"]\n", "x.conf:1: section [checker] takes no name");
}

static void test_config__continuation_lines(void **state)
{
	struct config c;
	char err[256];
	const char *s =
		"[bot]\n"
		"  name = Review \\\n"
		"Bot\n"
		"  templates = \"/usr/share/\\\n"
		"reviewbot\"\r\n"
		"  address = a@b\\\r\n"
		"\n"
		"  zap = 1\n";

	(void)state;
	/* the error after two continued lines is on the right line */
	assert_int_equal(config_parse("x.conf", s, strlen(s), &c, err, sizeof(err)), -1);
	assert_string_equal(err, "x.conf:8: unknown key 'zap' in section [bot]");
	config_release(&c);
	parse_ok("x.conf",
		 "[bot]\n"
		 "  name = Review \\\n"
		 "Bot\n"
		 "  templates = \"/usr/share/\\\n"
		 "reviewbot\"\r\n"
		 "  address = a@b\\\r\n"
		 "\n", &c);
	assert_string_equal(c.name, "Review Bot");
	assert_string_equal(c.templates, "/usr/share/reviewbot");
	assert_string_equal(c.address, "a@b");
	config_release(&c);
}

static void test_config__names_are_case_insensitive(void **state)
{
	struct config c;

	(void)state;
	parse_ok("x.conf",
		 "[BOT]\n"
		 "  Address = a@b\n"
		 "  DRY-RUN = off\n"
		 "[Source \"Lkml\"]\n"
		 "  TYPE = IMAP\n"
		 "  URL = IMAPS://x/y\n"
		 "  Poll-Interval = 5\n"
		 "  reply = Author\n"
		 "[source \"lkml\"]\n"
		 "  type = maildir\n"
		 "  path = /m\n"
		 "[Policy]\n"
		 "  max-replies-per-hour = 0\n"
		 "  Series_Wait = 1\n", &c);
	assert_int_equal(c.dry_run, 0);
	/* subsection names are case-sensitive, as in git */
	assert_int_equal(c.nsources, 2);
	assert_string_equal(c.sources[0].name, "Lkml");
	assert_int_equal(c.sources[0].type, SRC_IMAP);
	assert_int_equal(c.sources[0].poll_interval, 5);
	assert_int_equal(c.sources[0].reply, REPLY_POLICY_AUTHOR);
	assert_string_equal(c.sources[1].name, "lkml");
	assert_int_equal(c.max_replies_per_hour, 0);
	assert_int_equal(c.series_wait, 1);
	config_release(&c);
}

static void test_config__booleans(void **state)
{
	static const struct { const char *v; int want; } b[] = {
		{ "true", 1 }, { "TRUE", 1 }, { "yes", 1 }, { "On", 1 }, { "1", 1 },
		{ "false", 0 }, { "No", 0 }, { "off", 0 }, { "0", 0 }, { "", 0 },
	};
	char buf[128];
	struct config c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		snprintf(buf, sizeof(buf), "[policy]\nreview_clean = %s\n", b[i].v);
		parse_ok("x.conf", buf, &c);
		assert_int_equal(c.review_clean, b[i].want);
		config_release(&c);
	}
	/* a bool key alone is true, as in git */
	parse_ok("x.conf", "[policy]\nreview_clean = no\n[bot]\ndry_run\n", &c);
	assert_int_equal(c.dry_run, 1);
	assert_int_equal(c.review_clean, 0);
	config_release(&c);
}

static void test_config__bounds_are_inclusive(void **state)
{
	struct config c;

	(void)state;
	parse_ok("x.conf",
		 "[source \"a\"]\n type = mbox\n path = /a\n poll_interval = 1\n"
		 "[source \"b\"]\n type = mbox\n path = /b\n poll_interval = +86400\n"
		 "[policy]\n series_wait = 604800\n max_replies_per_hour = 0\n", &c);
	assert_int_equal(c.sources[0].poll_interval, 1);
	assert_int_equal(c.sources[1].poll_interval, 86400);
	assert_int_equal(c.series_wait, 604800);
	assert_int_equal(c.max_replies_per_hour, 0);
	config_release(&c);
}

/* Each [limits] default is the module's named constant, each maximum its
 * ceiling, and the parsers get what the file says. */
static void test_config__limits_defaults_are_the_constants(void **state)
{
	struct mime_limits ml;
	struct diff_limits dl, dd;
	struct config c;
	size_t i;

	(void)state;
	config_init(&c);
	assert_int_equal(c.max_message_bytes, MAILBOX_MAX_MESSAGE);
	assert_int_equal(c.max_message_bytes, MIME_MAX_MAIL);
	assert_int_equal(c.max_parts, MIME_MAX_PARTS);
	assert_int_equal(c.max_references, MIME_MAX_REFS);
	assert_int_equal(c.max_files_per_patch, DIFF_DEFAULT_MAX_FILES);
	assert_int_equal(c.max_lines_per_patch, DIFF_DEFAULT_MAX_LINES);
	assert_int_equal(c.max_series_parts, SUBJECT_MAX_PARTS);
	assert_int_equal(c.check_seconds, 60);
	config_mime_limits(&c, &ml);
	assert_int_equal(ml.max_mail, MIME_MAX_MAIL);
	assert_int_equal(ml.max_parts, MIME_MAX_PARTS);
	assert_int_equal(ml.max_refs, MIME_MAX_REFS);
	config_diff_limits(&c, &dl);
	diff_limits_init(&dd);
	assert_memory_equal(&dl, &dd, sizeof(dd));
	config_release(&c);

	for (i = 0; i < config_noptions; i++) {
		const struct config_option *o = &config_options[i];

		if (strcmp(o->section, "limits"))
			continue;
		assert_string_equal(o->type, "int");
		assert_true(o->min >= 1);
		if (!strcmp(o->key, "max_message_bytes"))
			assert_int_equal(o->max, MAILBOX_MAX_MESSAGE);
		else if (!strcmp(o->key, "max_parts"))
			assert_int_equal(o->max, MIME_CEIL_PARTS);
		else if (!strcmp(o->key, "max_references"))
			assert_int_equal(o->max, MIME_CEIL_REFS);
		else if (!strcmp(o->key, "max_lines_per_patch"))
			assert_int_equal(o->max, DIFF_DEFAULT_MAX_LINES);
		else if (!strcmp(o->key, "max_series_parts"))
			assert_int_equal(o->max, SUBJECT_CEIL_PARTS);
		else if (!strcmp(o->key, "check_seconds"))
			assert_int_equal(o->max, 3600);
		else if (strcmp(o->key, "max_files_per_patch"))
			fail_msg("limits.%s is not checked here", o->key);
		/* bounded: a ceiling, never "no limit" */
		assert_true(strtol(o->def, NULL, 10) <= o->max);
	}
}

static void test_config__limits_lower_and_higher(void **state)
{
	struct mime_limits ml;
	struct diff_limits dl;
	struct config c;

	(void)state;
	parse_ok("x.conf",
		 "[limits]\n max_message_bytes = 1024\n max_parts = 10000\n"
		 " max_references = 1\n max_files_per_patch = 200000\n"
		 " max_lines_per_patch = 1\n max_series_parts = 99999\n"
		 "[policy]\n stage_wait = 0\n", &c);
	assert_int_equal(c.max_message_bytes, 1024);
	assert_int_equal(c.max_parts, 10000);
	assert_int_equal(c.max_references, 1);
	assert_int_equal(c.max_files_per_patch, 200000);
	assert_int_equal(c.max_lines_per_patch, 1);
	assert_int_equal(c.max_series_parts, 99999);
	assert_int_equal(c.stage_wait, 0);
	config_mime_limits(&c, &ml);
	assert_int_equal(ml.max_mail, 1024);
	assert_int_equal(ml.max_parts, 10000);
	assert_int_equal(ml.max_refs, 1);
	config_diff_limits(&c, &dl);
	assert_int_equal(dl.max_files, 200000);
	assert_int_equal(dl.max_lines, 1);
	assert_int_equal(dl.max_hunks, DIFF_DEFAULT_MAX_HUNKS);
	assert_int_equal(dl.max_path, DIFF_DEFAULT_MAX_PATH);
	config_release(&c);

	parse_ok("x.conf", "[limits]\n max_message_bytes = 67108864\n"
		 "[policy]\n stage_wait = 604800\n", &c);
	assert_int_equal(c.max_message_bytes, 67108864);
	assert_int_equal(c.stage_wait, 604800);
	/* the others keep their defaults */
	assert_int_equal(c.max_parts, MIME_MAX_PARTS);
	assert_int_equal(c.max_series_parts, SUBJECT_MAX_PARTS);
	config_release(&c);
}

static void test_config__duplicate_sources_merge(void **state)
{
	struct config c;

	(void)state;
	parse_ok("x.conf",
		 "[source \"a\"]\n type = imap\n"
		 "[source \"b\"]\n type = mbox\n path = /b\n"
		 "[source \"a\"]\n url = imap://x/y\n", &c);
	assert_int_equal(c.nsources, 2);
	assert_string_equal(c.sources[0].url, "imap://x/y");
	assert_int_equal(c.sources[0].line, 1);
	config_release(&c);
}

static void test_config__too_many_sources(void **state)
{
	char *buf = malloc(64 * 1024), err[256];
	size_t n = 0;
	struct config c;
	int i;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i <= CONFIG_MAX_SOURCES; i++)
		n += (size_t)snprintf(buf + n, 64 * 1024 - n,
				      "[source \"s%d\"]\ntype = mbox\npath = /m\n", i);
	assert_int_equal(config_parse("x.conf", buf, n, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "x.conf:193: too many sources (at most 64)");
	config_release(&c);
	free(buf);
}

static void test_config__relative_paths_follow_the_file(void **state)
{
	const char *s =
		"[bot]\n database = db/r.db\n"
		"[source \"m\"]\n type = maildir\n path = Maildir\n"
		"[source \"abs\"]\n type = mbox\n path = /srv/x.mbox\n";
	struct config c;

	(void)state;
	parse_ok("/etc/reviewbot/reviewbot.conf", s, &c);
	assert_string_equal(c.database, "/etc/reviewbot/db/r.db");
	assert_string_equal(c.sources[0].path, "/etc/reviewbot/Maildir");
	assert_string_equal(c.sources[1].path, "/srv/x.mbox");
	/* defaults are relative to the file too */
	assert_string_equal(c.delivery_path, "/etc/reviewbot/outbox");
	assert_null(c.templates);	/* unset: beside the program */
	config_release(&c);

	parse_ok("/r.conf", s, &c);
	assert_string_equal(c.database, "/db/r.db");
	assert_string_equal(c.sources[0].path, "/Maildir");
	config_release(&c);

	parse_ok("conf/r.conf", s, &c);
	assert_string_equal(c.database, "conf/db/r.db");
	config_release(&c);

	/* a name without '/' is in the current folder: kept relative */
	parse_ok("r.conf", s, &c);
	assert_string_equal(c.database, "db/r.db");
	assert_string_equal(c.sources[0].path, "Maildir");
	assert_string_equal(c.delivery_path, "outbox");
	config_release(&c);
}

static void test_config__nul_byte_is_an_error_with_its_line(void **state)
{
	static const char s[] = "[bot]\nname = a\nname\0 = b\n";
	struct config c;
	char err[256];

	(void)state;
	assert_int_equal(config_parse("x.conf", s, sizeof(s) - 1, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "x.conf:3: NUL byte in the file");
	config_release(&c);
}

static void test_config__file_over_the_cap(void **state)
{
	size_t n = CONFIG_MAX_FILE + 1;
	char *buf = malloc(n), err[512], path[] = "/tmp/rb-test-config-XXXXXX";
	struct config c;
	FILE *f;
	int fd;

	(void)state;
	assert_non_null(buf);
	memset(buf, '#', n);
	buf[n - 1] = '\n';
	assert_int_equal(config_parse("x.conf", buf, n, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "x.conf: larger than 1048576 bytes");
	config_release(&c);
	/* one byte less is fine */
	buf[n - 2] = '\n';
	assert_int_equal(config_parse("x.conf", buf, n - 1, &c, err, sizeof(err)), 0);
	config_release(&c);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	fclose(f);
	assert_int_equal(config_load(path, &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ": larger than 1048576 bytes"));
	assert_memory_equal(err, path, strlen(path));
	config_release(&c);
	unlink(path);
	free(buf);
}

static void test_config__load_reports_io_errors(void **state)
{
	struct config c;
	char err[512];

	(void)state;
	assert_int_equal(config_load("/nonexistent/reviewbot.conf", &c, err,
				     sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/reviewbot.conf: no such file or directory");
	assert_string_equal(c.name, "reviewbot");
	config_release(&c);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	assert_non_null(f);
	buf = malloc(1 << 20);
	assert_non_null(buf);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void test_config__example_parses_and_names_every_key(void **state)
{
	const char *path = "deploy/reviewbot.conf.example";
	struct config c;
	char err[512], want[128];
	size_t len, i;
	char *text;

	(void)state;
	if (config_load(path, &c, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(c.file, path);
	assert_string_equal(c.address, "reviewbot@example.org");
	assert_int_equal(c.dry_run, 1);
	assert_true(c.nsources >= 2);
	assert_int_equal(c.sources[0].type, SRC_IMAP);
	assert_string_equal(c.database, "deploy/reviewbot.db");
	config_release(&c);

	/* every key of the table is documented in it, with its default */
	text = slurp(path, &len);
	for (i = 0; i < config_noptions; i++) {
		const struct config_option *o = &config_options[i];

		snprintf(want, sizeof(want), "[%s", o->section);
		assert_non_null(strstr(text, want));
		snprintf(want, sizeof(want), "%s = ", o->key);
		if (!strstr(text, want))
			fail_msg("%s.%s is not in %s", o->section, o->key, path);
		if (o->def && strcmp(o->key, "templates")) {
			snprintf(want, sizeof(want), "#%s = %s\n", o->key, o->def);
			if (!strstr(text, want))
				fail_msg("%s.%s: no \"%s\" in %s", o->section,
					 o->key, want, path);
		}
	}
	free(text);
}

static void test_config__maintainers_per_list(void **state)
{
	struct config c;
	char many[CONFIG_MAX_VALUE], err[512];
	size_t i, n = 0;

	(void)state;
	parse_ok("x.conf",
		 "[source \"a\"]\n type = maildir\n path = /a\n list = leds@x\n"
		 " maintainers = Pavel@X.org,lee@x.org\tjj@x.org\n"
		 "[source \"b\"]\n type = maildir\n path = /b\n list = LEDS@x\n"
		 " maintainers = other@x.org\n"
		 "[source \"c\"]\n type = maildir\n path = /c\n list = net@x\n"
		 "[policy]\n demote_after = 0\n", &c);
	assert_int_equal(c.demote_after, 0);
	/* any case, any separator, every source of the list */
	assert_true(config_is_maintainer(&c, "leds@x", "pavel@x.org"));
	assert_true(config_is_maintainer(&c, "Leds@X", "LEE@x.org"));
	assert_true(config_is_maintainer(&c, "leds@x", "jj@x.org"));
	assert_true(config_is_maintainer(&c, "leds@x", "other@x.org"));
	/* not a part of an address, not another list's, not without a list */
	assert_false(config_is_maintainer(&c, "leds@x", "x.org"));
	assert_false(config_is_maintainer(&c, "leds@x", "avel@x.org"));
	assert_false(config_is_maintainer(&c, "net@x", "pavel@x.org"));
	assert_false(config_is_maintainer(&c, NULL, "pavel@x.org"));
	assert_false(config_is_maintainer(&c, "leds@x", ""));
	assert_true(config_list_has_maintainers(&c, "leds@x"));
	assert_false(config_list_has_maintainers(&c, "net@x"));
	assert_false(config_list_has_maintainers(&c, NULL));
	config_release(&c);

	parse_ok("x.conf", "", &c);
	assert_int_equal(c.demote_after, 3);
	config_release(&c);

	/* at most CONFIG_MAX_MAINTAINERS addresses */
	n = (size_t)snprintf(many, sizeof(many),
			     "[source \"a\"]\n type = maildir\n path = /a\n list = l@x\n maintainers =");
	for (i = 0; i <= CONFIG_MAX_MAINTAINERS; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, " m%zu@x", i);
	snprintf(many + n, sizeof(many) - n, "\n");
	assert_int_equal(config_parse("x.conf", many, strlen(many), &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x.conf:5: maintainers: 'm0@x m1@x"));
	assert_non_null(strstr(err, "...' holds more than 64 addresses"));
	config_release(&c);
}

/* [tree "NAME"] sections (issue 34 item 1): each a tree with its url,
 * branch, lists and interval; errors name the file and line */
static void test_config__trees(void **state)
{
	struct config c;

	(void)state;
	parse_ok("x.conf",
		 "[tree \"net-next\"]\n url = git://git.kernel.org/net-next.git\n"
		 " branch = main\n lists = netdev@vger.kernel.org, bpf@vger.kernel.org\n"
		 " fetch_interval = 60\n"
		 "[tree \"hwmon-next\"]\n url = file:///srv/git/hwmon.git\n"
		 "  lists = linux-hwmon@vger.kernel.org\n"
		 "[build]\n workers = 2\n tools = gcc sparse\n max_memory_mb = 2048\n"
		 " max_tasks = 200\n max_disk_mb = 512\n tmp_mb = 64\n", &c);
	assert_int_equal(c.ntrees, 2);
	assert_string_equal(c.trees[0].name, "net-next");
	assert_string_equal(c.trees[0].url, "git://git.kernel.org/net-next.git");
	assert_string_equal(c.trees[0].branch, "main");
	assert_int_equal(c.trees[0].fetch_interval, 60);
	assert_true(config_tree_has_list(&c.trees[0], "BPF@vger.kernel.org"));
	assert_false(config_tree_has_list(&c.trees[0], "linux-hwmon@vger.kernel.org"));
	/* defaults: master, an hour */
	assert_string_equal(c.trees[1].branch, "master");
	assert_int_equal(c.trees[1].fetch_interval, 3600);
	assert_int_equal(c.trees[1].line, 6);
	assert_int_equal(c.build_workers, 2);
	assert_string_equal(c.build_tools, "gcc sparse");
	assert_int_equal(c.build_max_memory_mb, 2048);
	assert_int_equal(c.build_max_tasks, 200);
	assert_int_equal(c.build_max_disk_mb, 512);
	assert_int_equal(c.build_tmp_mb, 64);
	config_release(&c);

	parse_ok("x.conf", "", &c);
	assert_int_equal(c.ntrees, 0);
	assert_int_equal(c.build_workers, 1);
	assert_string_equal(c.build_tools, "gcc sparse analyzer coccinelle");
	assert_int_equal(c.build_max_memory_mb, 4096);
	config_release(&c);

	expect_err("[tree]\n url = git://x/y\n",
		   "x.conf:1: section [tree] needs a name, as [tree \"NAME\"]");
	expect_err("[tree \"a\"]\n branch = b\n", "x.conf:1: tree \"a\": url is required");
	expect_err("[tree \"../x\"]\n", "x.conf:1: tree name \"../x\": letters, digits, '.', "
		   "'_' and '-' only, at most 48, not starting with '.' or '-'");
	expect_err("[tree \"a\"]\n url = ssh://x/y\n",
		   "x.conf:2: url: the url must start with https://, http://, git:// or file://");
	expect_err("[tree \"a\"]\n url = file://rel/y\n",
		   "x.conf:2: url: the url must name an absolute path (file:///srv/git/linux.git)");
	expect_err("[tree \"a\"]\n url = git://x/y\n branch = ../master\n",
		   "x.conf:3: branch: '../master' is not a plain branch name (letters, digits, "
		   ". _ - + /)");
	expect_err("[tree \"a\"]\n url = git://x/y\n lists = netdev\n",
		   "x.conf:3: lists: 'netdev' holds something that is not an address (local@domain)");
	expect_err("[tree \"a\"]\n url = git://x/y\n[tree \"b\"]\n url = git://x/y\n",
		   "x.conf:3: tree \"b\": the same url and branch as tree \"a\"");
	expect_err("[build]\n tools = gcc clang\n",
		   "x.conf:2: tools: 'gcc clang' names a tool other than gcc, sparse, analyzer and "
		   "coccinelle");
	expect_err("[build]\n workers = 17\n", "x.conf:2: workers: 17 is above the maximum 16");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config__defaults_come_from_the_table),
		cmocka_unit_test(test_config__table_is_consistent),
		cmocka_unit_test(test_config__full_config),
		cmocka_unit_test(test_config__defaults_when_keys_are_missing),
		cmocka_unit_test(test_config__errors_name_file_and_line),
		cmocka_unit_test(test_config__error_buffer_is_optional_and_bounded),
		cmocka_unit_test(test_config__quoting_and_escapes),
		cmocka_unit_test(test_config__comments),
		cmocka_unit_test(test_config__continuation_lines),
		cmocka_unit_test(test_config__names_are_case_insensitive),
		cmocka_unit_test(test_config__booleans),
		cmocka_unit_test(test_config__bounds_are_inclusive),
		cmocka_unit_test(test_config__limits_defaults_are_the_constants),
		cmocka_unit_test(test_config__limits_lower_and_higher),
		cmocka_unit_test(test_config__duplicate_sources_merge),
		cmocka_unit_test(test_config__too_many_sources),
		cmocka_unit_test(test_config__relative_paths_follow_the_file),
		cmocka_unit_test(test_config__nul_byte_is_an_error_with_its_line),
		cmocka_unit_test(test_config__file_over_the_cap),
		cmocka_unit_test(test_config__load_reports_io_errors),
		cmocka_unit_test(test_config__example_parses_and_names_every_key),
		cmocka_unit_test(test_config__maintainers_per_list),
		cmocka_unit_test(test_config__checkpatch_version),
		cmocka_unit_test(test_config__trees),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The date a mail is taken to have (bot/mail/maildate.c), and the dates
 * it is taken from (bot/mail/mime.c: Date: and the topmost Received:).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../bot/mail/maildate.h"
#include "../../bot/mail/mime.h"

#define T_2019	1559390400LL	/* 2019-06-01 12:00:00 UTC */
#define T_2026	1796644800LL	/* 2026-12-07 12:00:00 UTC */
#define T_2085	3642796800LL	/* 2085-06-08 00:00:00 UTC */

static void test_maildate__a_plausible_date_is_believed(void **state)
{
	(void)state;
	/* sent an hour before it arrived, or a few hours ahead (a clock) */
	assert_int_equal(maildate_effective(T_2026 - 3600, T_2026, T_2026 + 60), T_2026 - 3600);
	assert_int_equal(maildate_effective(T_2026 + 5 * 3600, T_2026, T_2026 + 60),
			 T_2026 + 5 * 3600);
	/* an old date is old (what max_age is for) */
	assert_int_equal(maildate_effective(T_2019, T_2026, T_2026), T_2019);
}

static void test_maildate__a_future_date_takes_the_arrival(void **state)
{
	(void)state;
	/* a 2019 patch dated 2085: of 2019 */
	assert_int_equal(maildate_effective(T_2085, T_2019, T_2026), T_2019);
	/* no Received: the moment the bot has it */
	assert_int_equal(maildate_effective(T_2085, 0, T_2026), T_2026);
	/* a Received: in the future is no arrival either */
	assert_int_equal(maildate_effective(T_2085, T_2085, T_2026), T_2026);
	/* more than a day ahead of its arrival */
	assert_int_equal(maildate_effective(T_2026 + MAILDATE_FUTURE_SKEW + 1, T_2026, T_2026),
			 T_2026);
}

static void test_maildate__no_date_takes_the_arrival(void **state)
{
	(void)state;
	assert_int_equal(maildate_effective(0, T_2019, T_2026), T_2019);
	assert_int_equal(maildate_effective(0, 0, T_2026), T_2026);
}

static const char mail_2085[] =
	"Received: from mail.example.org (mail.example.org [192.0.2.1])\r\n"
	"\tby lists.example.org with ESMTP id 1234;\r\n"
	"\tSat, 1 Jun 2019 12:00:00 +0000\r\n"
	"Received: from [10.0.0.2] by mail.example.org; Sat, 1 Jun 2019 11:59:00 +0000\r\n"
	"From: Dev <dev@example.org>\r\n"
	"To: list@example.org\r\n"
	"Subject: [PATCH] a fix from the future\r\n"
	"Date: Fri, 8 Jun 2085 00:00:00 +0000\r\n"
	"Message-ID: <future@example.org>\r\n"
	"\r\n"
	"body\r\n";

static void test_maildate__dates_from_the_header_block(void **state)
{
	int64_t date = -1, received = -1;

	(void)state;
	assert_int_equal(mime_header_dates(mail_2085, sizeof(mail_2085) - 1, &date, &received),
			 MIME_OK);
	assert_int_equal(date, T_2085);
	/* the topmost Received: (the newest), folded over three lines */
	assert_int_equal(received, T_2019);
	assert_int_equal(maildate_effective(date, received, T_2026), T_2019);
}

static void test_maildate__mime_parse_keeps_the_arrival(void **state)
{
	struct mime_mail m;

	(void)state;
	assert_int_equal(mime_parse(mail_2085, sizeof(mail_2085) - 1, &m), MIME_OK);
	assert_int_equal(m.date, T_2085);
	assert_int_equal(m.received, T_2019);
	mime_release(&m);
}

static void test_maildate__bad_or_missing_received(void **state)
{
	static const char none[] = "From: a@b\nDate: Sat, 1 Jun 2019 12:00:00 +0000\n\nx\n";
	static const char bad[] = "Received: by host; not a date\nReceived: x; "
				  "Sat, 1 Jun 2019 12:00:00 +0000\nFrom: a@b\n\nx\n";
	static const char nosemi[] = "Received: by host with a date Sat, 1 Jun 2019\n\nx\n";
	int64_t date, received;

	(void)state;
	assert_int_equal(mime_header_dates(none, sizeof(none) - 1, &date, &received), MIME_OK);
	assert_int_equal(date, T_2019);
	assert_int_equal(received, 0);
	/* only the topmost counts: a bad one is no arrival */
	assert_int_equal(mime_header_dates(bad, sizeof(bad) - 1, &date, &received), MIME_OK);
	assert_int_equal(date, 0);
	assert_int_equal(received, 0);
	assert_int_equal(mime_header_dates(nosemi, sizeof(nosemi) - 1, &date, &received), MIME_OK);
	assert_int_equal(received, 0);
	/* a date-time alone */
	assert_int_equal(mime_date("Sat, 1 Jun 2019 12:00:00 +0000", 30), T_2019);
	assert_int_equal(mime_date("yesterday", 9), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maildate__a_plausible_date_is_believed),
		cmocka_unit_test(test_maildate__a_future_date_takes_the_arrival),
		cmocka_unit_test(test_maildate__no_date_takes_the_arrival),
		cmocka_unit_test(test_maildate__dates_from_the_header_block),
		cmocka_unit_test(test_maildate__mime_parse_keeps_the_arrival),
		cmocka_unit_test(test_maildate__bad_or_missing_received),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of bot/mail/digest.c: SHA-256 against FIPS 180-4's
 * examples, and which copies of a mail are the same mail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bot/mail/digest.h"

static void hex_of(const unsigned char *d, char *out)
{
	int i;

	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_digest__sha256_matches_fips_180_examples(void **state)
{
	unsigned char d[32];
	char hex[65];
	char *million = malloc(1000000);

	(void)state;
	mail_sha256("", 0, d);
	hex_of(d, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	mail_sha256("abc", 3, d);
	hex_of(d, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	mail_sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, d);
	hex_of(d, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	assert_non_null(million);
	memset(million, 'a', 1000000);
	mail_sha256(million, 1000000, d);
	hex_of(d, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(million);
}

#define MAIL \
	"From: Ann <ann@example.com>\n" \
	"To: linux-leds@vger.kernel.org\n" \
	"Subject: [PATCH] leds: x: fix the thing\n" \
	"Date: Mon, 02 Nov 2026 10:00:00 +0000\n" \
	"Message-ID: <v1@ann>\n" \
	"\n" \
	"Make it better.\n" \
	"---\n" \
	"+int a;\n"

static void digest_of(const char *mail, char *out)
{
	mail_digest(mail, strlen(mail), out);
}

/* The same mail as it travels: a list's, a mailbox's and a server's
 * fields added, CRLF line ends, a folded field, names in another case,
 * an mbox separator, empty lines after the body. */
static void test_digest__copies_that_travelled_are_the_same_mail(void **state)
{
	static const char *const same[] = {
		"Return-Path: <ann@example.com>\n"
		"Received: from mx.example.com by bot.example.org; Mon, 2 Nov 2026\n"
		"\tvia smtp\n"
		"Delivered-To: reviewbot@example.org\n"
		MAIL,
		"From: Ann <ann@example.com>\n"
		"To: linux-leds@vger.kernel.org\n"
		"Subject: [PATCH] leds: x: fix the thing\n"
		"Date: Mon, 02 Nov 2026 10:00:00 +0000\n"
		"Message-ID: <v1@ann>\n"
		"List-Id: <linux-leds.vger.kernel.org>\n"
		"List-Unsubscribe: <mailto:linux-leds+unsubscribe@vger.kernel.org>\n"
		"Precedence: bulk\n"
		"X-Mailing-List: linux-leds@vger.kernel.org\n"
		"DKIM-Signature: v=1; a=rsa-sha256; d=example.com; b=abc\n"
		"ARC-Seal: i=1; cv=none\n"
		"Authentication-Results: mx; dkim=pass\n"
		"X-Spam-Status: No\n"
		"\n"
		"Make it better.\n"
		"---\n"
		"+int a;\n",
		"From: Ann <ann@example.com>\r\n"
		"To: linux-leds@vger.kernel.org\r\n"
		"Subject: [PATCH] leds: x: fix the thing\r\n"
		"Date: Mon, 02 Nov 2026 10:00:00 +0000\r\n"
		"Message-ID: <v1@ann>\r\n"
		"\r\n"
		"Make it better.\r\n"
		"---\r\n"
		"+int a;\r\n",
		"FROM: Ann <ann@example.com>\n"
		"to:   linux-leds@vger.kernel.org\n"
		"Subject: [PATCH] leds: x:\n"
		"  fix the thing\n"
		"Date: Mon, 02 Nov 2026 10:00:00 +0000\n"
		"Message-ID: <v1@ann>\n"
		"\n"
		"Make it better.\n"
		"---\n"
		"+int a;\n",
		"From ann@example.com Mon Nov  2 10:00:00 2026\n" MAIL "\n\n\n",
	};
	static const char *const other[] = {
		/* another body, another subject, another sender */
		"From: Ann <ann@example.com>\nTo: linux-leds@vger.kernel.org\n"
		"Subject: [PATCH] leds: x: fix the thing\nDate: Mon, 02 Nov 2026 10:00:00 +0000\n"
		"Message-ID: <v1@ann>\n\nMake it better.\n---\n+int b;\n",
		"From: Ann <ann@example.com>\nTo: linux-leds@vger.kernel.org\n"
		"Subject: [PATCH] leds: x: break the thing\nDate: Mon, 02 Nov 2026 10:00:00 +0000\n"
		"Message-ID: <v1@ann>\n\nMake it better.\n---\n+int a;\n",
		"From: Eve <ann@example.com>\nTo: linux-leds@vger.kernel.org\n"
		"Subject: [PATCH] leds: x: fix the thing\nDate: Mon, 02 Nov 2026 10:00:00 +0000\n"
		"Message-ID: <v1@ann>\n\nMake it better.\n---\n+int a;\n",
		/* a field the bot reads, added: not the way's */
		"Auto-Submitted: auto-generated\n" MAIL,
		"X-Reviewbot: skip\n" MAIL,
		/* a space inside a line of the body counts */
		"From: Ann <ann@example.com>\nTo: linux-leds@vger.kernel.org\n"
		"Subject: [PATCH] leds: x: fix the thing\nDate: Mon, 02 Nov 2026 10:00:00 +0000\n"
		"Message-ID: <v1@ann>\n\nMake it  better.\n---\n+int a;\n",
	};
	char base[MAIL_DIGEST_HEX + 1], d[MAIL_DIGEST_HEX + 1];
	size_t i;

	(void)state;
	digest_of(MAIL, base);
	assert_int_equal(strlen(base), MAIL_DIGEST_HEX);
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		digest_of(same[i], d);
		if (strcmp(d, base))
			fail_msg("copy %zu is not the same mail", i);
	}
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		digest_of(other[i], d);
		if (!strcmp(d, base))
			fail_msg("mail %zu is taken for the same", i);
	}
}

/* Whatever the bytes: no header end, only a separator, nothing. */
static void test_digest__any_bytes_have_a_digest(void **state)
{
	static const char *const odd[] = { "", "From x\n", "Subject: x", "\n\n\n", "\r", ":\n:" };
	char d[MAIL_DIGEST_HEX + 1];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		mail_digest(odd[i], strlen(odd[i]), d);
		assert_int_equal(strlen(d), MAIL_DIGEST_HEX);
	}
	mail_digest(NULL, 0, d);
	assert_int_equal(strlen(d), MAIL_DIGEST_HEX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest__sha256_matches_fips_180_examples),
		cmocka_unit_test(test_digest__copies_that_travelled_are_the_same_mail),
		cmocka_unit_test(test_digest__any_bytes_have_a_digest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

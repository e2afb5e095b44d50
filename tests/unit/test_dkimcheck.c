// SPDX-License-Identifier: GPL-2.0-only
/*
 * dkimcheck: a From: vouched for by DKIM, verified by libopendkim with
 * the key table tests/data/dkim/keys (no DNS), on mails dkimpy signed
 * (tests/data/dkim/sign.py): two implementations agreeing.  Issue 33: a
 * maintainer's word counted from From: alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bot/mail/dkimcheck.h"

#define DIR	"tests/data/dkim/"
#define KEYS	DIR "keys"

static char *slurp(const char *name, size_t *len)
{
	char path[256], *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), DIR "%s", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 64);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static void test_dkimcheck__signed_mail_passes_for_its_domain(void **state)
{
	char why[256];
	size_t n;
	char *m = slurp("good.eml", &n);

	(void)state;
	assert_int_equal(dkimcheck_from(m, n, "pavel@example.org", KEYS, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "verified"));
	/* another From: domain than the signer's */
	assert_int_equal(dkimcheck_from(m, n, "pavel@example.net", KEYS, why, sizeof(why)), 0);
	/* no key to be had (no key table, and no DNS here) */
	assert_int_equal(dkimcheck_from(m, n, "pavel@example.org", DIR "none", why,
					sizeof(why)), 0);
	free(m);
}

static void test_dkimcheck__changed_mail_fails(void **state)
{
	char why[256], *p;
	size_t n;
	char *m = slurp("good.eml", &n);

	(void)state;
	/* the body changed: #1 -> #2 */
	p = strstr(m, "false-positive #1");
	assert_non_null(p);
	p[16] = '2';
	assert_int_equal(dkimcheck_from(m, n, "pavel@example.org", KEYS, why, sizeof(why)), 0);
	p[16] = '1';
	/* a signed header changed */
	p = strstr(m, "Date: Mon");
	assert_non_null(p);
	p[6] = 'T';
	assert_int_equal(dkimcheck_from(m, n, "pavel@example.org", KEYS, why, sizeof(why)), 0);
	p[6] = 'M';
	assert_int_equal(dkimcheck_from(m, n, "pavel@example.org", KEYS, why, sizeof(why)), 1);
	free(m);
}

static void test_dkimcheck__a_second_from_fails(void **state)
{
	char why[256], *two;
	size_t n;
	char *m = slurp("good.eml", &n);
	const char *add = "From: Mallory <mallory@example.net>\n";

	(void)state;
	two = malloc(n + strlen(add) + 1);
	assert_non_null(two);
	memcpy(two, add, strlen(add));
	memcpy(two + strlen(add), m, n + 1);
	assert_int_equal(dkimcheck_from(two, n + strlen(add), "mallory@example.net", KEYS,
					why, sizeof(why)), 0);
	assert_int_equal(dkimcheck_from(two, n + strlen(add), "pavel@example.org", KEYS,
					why, sizeof(why)), 0);
	free(two);
	free(m);
}

static void test_dkimcheck__subdomain_aligned_length_and_headers(void **state)
{
	char why[256];
	size_t n;
	char *m;

	(void)state;
	/* d=example.org vouches for lists.example.org (relaxed alignment) */
	m = slurp("sub.eml", &n);
	assert_int_equal(dkimcheck_from(m, n, "pavel@lists.example.org", KEYS, why,
					sizeof(why)), 1);
	free(m);
	/* l= covers "thanks", the command was added below it */
	m = slurp("length.eml", &n);
	assert_int_equal(dkimcheck_from(m, n, "pavel@example.org", KEYS, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "part of the body"));
	free(m);
	/* In-Reply-To added to a signed mail that had none */
	m = slurp("irt_unsigned.eml", &n);
	assert_int_equal(dkimcheck_from(m, n, "pavel@example.org", KEYS, why, sizeof(why)), 0);
	free(m);
	/* no signature at all */
	m = strdup("From: a@example.org\nDate: x\n\nhi\n");
	assert_int_equal(dkimcheck_from(m, strlen(m), "a@example.org", KEYS, why, sizeof(why)),
			 0);
	assert_string_equal(why, "no DKIM signature");
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dkimcheck__signed_mail_passes_for_its_domain),
		cmocka_unit_test(test_dkimcheck__changed_mail_fails),
		cmocka_unit_test(test_dkimcheck__a_second_from_fails),
		cmocka_unit_test(test_dkimcheck__subdomain_aligned_length_and_headers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

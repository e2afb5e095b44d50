// SPDX-License-Identifier: GPL-2.0-only
/*
 * RFC 2047 header decoding: each vector's expected bytes are what Perl's
 * Encode (3.17, perl 5.36) gives for decode("MIME-Header", $line), encoded
 * back with encode("utf8", ...) (the UTF-8 form) and as print writes it
 * (the print form).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../checker/rfc2047.h"

struct vec {
	const char *in, *utf8, *print;
	int wide;	/* the print form is UTF-8: a character above U+00FF */
};

static const struct vec vecs[] = {
	{ "From: =?UTF-8?q?Rafa=C5=82=20Mi=C5=82ecki?= <r@m.pl>",
	  "From: Rafa\xc5""\x82"" Mi\xc5""\x82""ecki <r@m.pl>",
	  "From: Rafa\xc5""\x82"" Mi\xc5""\x82""ecki <r@m.pl>", 1 },
	{ "From: =?iso-8859-1?q?Jos=E9?= <j@x>",
	  "From: Jos\xc3""\xa9"" <j@x>",
	  "From: Jos\xe9"" <j@x>", 0 },
	{ "From: =?us-ascii?q?Jos=E9?= <j@x>",
	  "From: Jos\xef""\xbf""\xbd"" <j@x>",
	  "From: Jos\xef""\xbf""\xbd"" <j@x>", 1 },
	{ "From: =?windows-1252?q?=80uro_=81?= x",
	  "From: \xe2""\x82""\xac""uro \xef""\xbf""\xbd"" x",
	  "From: \xe2""\x82""\xac""uro \xef""\xbf""\xbd"" x", 1 },
	{ "From: x=?foo?q?Jos=E9?=  =?bar?b?QUJD?= y",
	  "From: x =?foo?q?Jos=E9?=  =?bar?b?QUJD?= y",
	  "From: x =?foo?q?Jos=E9?=  =?bar?b?QUJD?= y", 0 },
	{ "From: =?UTF-8?B?w6k=?= =?UTF-8?B?w6k=?=",
	  "From: \xc3""\xa9""\xc3""\xa9""",
	  "From: \xe9""\xe9""", 0 },
	{ "From: =?UTF-8?q?=C3?= =?UTF-8?q?=A9?= split",
	  "From: \xc3""\xa9"" split",
	  "From: \xe9"" split", 0 },
	{ "From: =?UTF-8?q?=C3?= =?utf-8?q?=A9?= not joined",
	  "From: \xef""\xbf""\xbd""\xef""\xbf""\xbd"" not joined",
	  "From: \xef""\xbf""\xbd""\xef""\xbf""\xbd"" not joined", 1 },
	{ "From: =?UTF-8?q?a?=   b =?UTF-8?q?c?= =?utf-8?q?d?=",
	  "From: a   b cd",
	  "From: a   b cd", 0 },
	{ "From: =?UTF-8?q?=ED=A0=80?= x",
	  "From: \xef""\xbf""\xbd"" x",
	  "From: \xef""\xbf""\xbd"" x", 1 },
	{ "From: =?UTF-8?q?=EF=BF=BE?= x",
	  "From: \xef""\xbf""\xbd"" x",
	  "From: \xef""\xbf""\xbd"" x", 1 },
	{ "From: =?UTF-8*en?q?Jos=C3=A9?= x",
	  "From: Jos\xc3""\xa9"" x",
	  "From: Jos\xe9"" x", 0 },
	{ "From: Rafa\xc5""\x82"" =?UTF-8?q?x?=",
	  "From: Rafa\xc3""\x85""\xc2""\x82"" x",
	  "From: Rafa\xc5""\x82"" x", 0 },
	{ "From: =?UTF-8?Q?a_b=3?= c",
	  "From: a b=3 c",
	  "From: a b=3 c", 0 },
	{ "From: =?utf-8?b?QUJD?=?= x",
	  "From: ABC?= x",
	  "From: ABC?= x", 0 },
	{ "From: =?ISO-8859-1?B?SvZyZw==?=",
	  "From: J\xc3""\xb6""rg",
	  "From: J\xf6""rg", 0 },
	{ "From: =?utf8?q?=E2=82=AC?= wide",
	  "From: \xe2""\x82""\xac"" wide",
	  "From: \xe2""\x82""\xac"" wide", 1 },
	{ "From: =?a?q?x?==?a?q?y?= =?a?q?z?=",
	  "From: =?a?q?xyz?=",
	  "From: =?a?q?xyz?=", 0 },
	{ "From: =?x?q?1?= =?x?q?2?=",
	  "From: =?x?q?12?=",
	  "From: =?x?q?12?=", 0 },
	{ "From: no words at all",
	  "From: no words at all",
	  "From: no words at all", 0 },
	{ "From: =?UTF-8?q?=3D=3F?= =?UTF-8?q?x?=",
	  "From: =?x",
	  "From: =?x", 0 },
};

static void test_rfc2047__matches_perl_encode(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		struct sbuf a, b;
		int r;

		sbuf_init(&a, 1u << 16);
		sbuf_init(&b, 1u << 16);
		assert_int_equal(rfc2047_decode(vecs[i].in, strlen(vecs[i].in),
						RFC2047_UTF8, &a), 1);
		r = rfc2047_decode(vecs[i].in, strlen(vecs[i].in), RFC2047_PRINT, &b);
		assert_string_equal(a.buf, vecs[i].utf8);
		assert_string_equal(b.buf, vecs[i].print);
		assert_int_equal(r, vecs[i].wide);
		sbuf_release(&a);
		sbuf_release(&b);
	}
}

static void test_rfc2047__appends_and_keeps_crs(void **state)
{
	struct sbuf sb;

	(void)state;
	sbuf_init(&sb, 1u << 16);
	sbuf_addstr(&sb, "x:");
	/* a CR not followed by a blank ends a unit and is kept; a folding
	 * CR is dropped */
	assert_int_equal(rfc2047_decode("a\r b=?utf-8?q?=C3=A9?=\r", 23,
					RFC2047_PRINT, &sb), 0);
	assert_string_equal(sb.buf, "x:a b\xe9\r");
	assert_int_equal(rfc2047_latin1_to_utf8("\xe9", 1, &sb), 0);
	assert_string_equal(sb.buf, "x:a b\xe9\r\xc3\xa9");
	sbuf_release(&sb);
}

static void test_rfc2047__cap_is_an_error(void **state)
{
	struct sbuf sb;

	(void)state;
	sbuf_init(&sb, 4);
	assert_int_equal(rfc2047_decode("=?utf-8?q?abcdefgh?=", 20,
					RFC2047_UTF8, &sb), -1);
	sbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc2047__matches_perl_encode),
		cmocka_unit_test(test_rfc2047__appends_and_keeps_crs),
		cmocka_unit_test(test_rfc2047__cap_is_an_error),
	};

	return cmocka_run_group_tests_name("rfc2047", tests, NULL, NULL);
}

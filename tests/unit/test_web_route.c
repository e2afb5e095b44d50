// SPDX-License-Identifier: GPL-2.0-only
/* web_route: reviewbot serve's URLs and escaping, hostile ones first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bot/web/web_route.h"

static void route(const char *path, int status, enum web_page page, const char *arg)
{
	struct web_route r;

	if (web_route(path, &r) != status)
		fail_msg("%s: status %d, wanted %d", path, r.status, status);
	assert_int_equal(r.status, status);
	if (r.page != page)
		fail_msg("%s: page %d, wanted %d", path, r.page, page);
	if (arg)
		assert_string_equal(r.arg, arg);
}

static void test_web_route__pages_and_their_arguments(void **state)
{
	struct web_route r;

	(void)state;
	route("/", 200, WEB_FRONT, "");
	route("/search", 200, WEB_SEARCH, "");
	route("/robots.txt", 200, WEB_ROBOTS, "");
	route("/l/linux-leds@vger.kernel.org/", 200, WEB_LIST, "linux-leds@vger.kernel.org");
	route("/m/20261103091244.4121-2-jane@example.org/", 200, WEB_MSG,
	      "20261103091244.4121-2-jane@example.org");
	route("/m/a@b", 200, WEB_MSG, "a@b");
	route("/a/Jane%20Doe/", 200, WEB_AUTHOR, "Jane Doe");
	route("/s/42/", 200, WEB_SERIES, "42");
	assert_int_equal(web_route("/s/42/", &r), 200);
	assert_int_equal(r.id, 42);
	route("/s/0/", 404, WEB_NOT_FOUND, NULL);
	route("/s/4x/", 404, WEB_NOT_FOUND, NULL);
	route("/s/99999999999999999999/", 404, WEB_NOT_FOUND, NULL);
	route("/f/drivers/leds/leds-x.c", 200, WEB_FILE, "drivers/leds/leds-x.c");
	assert_int_equal(web_route("/f/drivers/leds/", &r), 200);
	assert_string_equal(r.arg, "drivers/leds");
	assert_true(r.dir);
	route("/api/v1/", 200, WEB_API_INDEX, NULL);
	route("/api/v1", 200, WEB_API_INDEX, NULL);
	route("/api/v1/findings", 200, WEB_API_FINDINGS, NULL);
	route("/api/v1/patches", 200, WEB_API_PATCHES, NULL);
	route("/api/v1/series", 200, WEB_API_SERIES, NULL);
	route("/api/v1/reviews", 200, WEB_API_REVIEWS, NULL);
	route("/api/v1/versions", 200, WEB_API_VERSIONS, NULL);
	route("/api/v1/nothing", 404, WEB_NOT_FOUND, NULL);
	route("/api/v2/findings", 404, WEB_NOT_FOUND, NULL);
	route("/nothing", 404, WEB_NOT_FOUND, NULL);
	route("/favicon.ico", 404, WEB_NOT_FOUND, NULL);
}

/* lore.kernel.org/LIST/MSGID/ with our host, and /r/MSGID */
static void test_web_route__lore_urls_redirect_to_the_message(void **state)
{
	(void)state;
	route("/linux-leds/20261103091244.4121-2-jane@example.org/", 200,
	      WEB_REDIRECT_MSG, "20261103091244.4121-2-jane@example.org");
	route("/all/a@b/raw", 200, WEB_REDIRECT_MSG, "a@b");
	route("/linux-leds/a@b/T/", 200, WEB_REDIRECT_MSG, "a@b");
	route("/r/a@b", 200, WEB_REDIRECT_MSG, "a@b");
	/* lore writes a Message-ID's '/' as %2F: one part */
	route("/m/a%2Fb@c/", 200, WEB_MSG, "a/b@c");
	route("/linux-leds/notamsgid/", 404, WEB_NOT_FOUND, NULL);
}

static void test_web_route__hostile_paths_are_4xx(void **state)
{
	char longp[WEB_MAX_PATH + 8];

	(void)state;
	route("/m/../../etc/passwd", 400, WEB_NOT_FOUND, "");
	route("/f/../../etc/passwd", 400, WEB_NOT_FOUND, "");
	route("/f/drivers/%2e%2e/%2E%2E/etc/passwd", 400, WEB_NOT_FOUND, "");
	route("/m/%2e%2e/", 400, WEB_NOT_FOUND, "");
	route("/./", 400, WEB_NOT_FOUND, "");
	route("/f/a%2Fb", 400, WEB_NOT_FOUND, "");	/* no '/' smuggled into a path part */
	route("/f/a%5Cb", 400, WEB_NOT_FOUND, "");	/* nor a backslash */
	route("/m/a%00b@c/", 400, WEB_NOT_FOUND, "");
	route("/m/a%0ab@c/", 400, WEB_NOT_FOUND, "");
	route("/m/a%zzb/", 400, WEB_NOT_FOUND, "");
	route("/m/a%4", 400, WEB_NOT_FOUND, "");
	route("/m/a%", 400, WEB_NOT_FOUND, "");
	route("/m/a b/", 400, WEB_NOT_FOUND, "");
	route("/m/\xc3\xa9@x/", 400, WEB_NOT_FOUND, "");
	route("m/a@b/", 400, WEB_NOT_FOUND, "");
	route("", 400, WEB_NOT_FOUND, "");
	route("//m/a@b/", 404, WEB_NOT_FOUND, "");
	route("/m//", 404, WEB_NOT_FOUND, "");
	route("/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/", 404, WEB_NOT_FOUND, "");
	memset(longp, 'a', sizeof(longp) - 1);
	longp[0] = '/';
	longp[sizeof(longp) - 1] = '\0';
	route(longp, 414, WEB_NOT_FOUND, "");
	assert_int_equal(web_route(NULL, &(struct web_route){ 0 }), 400);
}

static void test_web_route__decoding(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(web_pct_decode("a+b%20c", 7, 1, out, sizeof(out)), 0);
	assert_string_equal(out, "a b c");
	assert_int_equal(web_pct_decode("a+b", 3, 0, out, sizeof(out)), 0);
	assert_string_equal(out, "a+b");
	assert_int_equal(web_pct_decode("%41%6a", 6, 0, out, sizeof(out)), 0);
	assert_string_equal(out, "Aj");
	assert_int_equal(web_pct_decode("0123456789abcdef", 16, 0, out, sizeof(out)), -1);
	assert_int_equal(web_pct_decode("%7f", 3, 0, out, sizeof(out)), -1);
	assert_int_equal(web_pct_decode("%1", 2, 0, out, sizeof(out)), -1);
	/* a slice: what lies past n is not read */
	assert_int_equal(web_pct_decode("ab%41", 3, 0, out, sizeof(out)), -1);
}

static void html(const char *in, size_t n, const char *want)
{
	struct sbuf sb;

	sbuf_init(&sb, 1024);
	web_html_n(&sb, in, n);
	assert_string_equal(sb.buf, want);
	sbuf_release(&sb);
}

static void test_web_route__html_escapes_markup_quotes_and_bad_bytes(void **state)
{
	struct sbuf sb;

	(void)state;
	html("<script>alert('x')</script>", 27,
	     "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	html("\" onmouseover=\"x", 16, "&quot; onmouseover=&quot;x");
	html("a&amp;b", 7, "a&amp;amp;b");
	html("caf\xc3\xa9", 5, "caf\xc3\xa9");
	html("bad\xff", 4, "bad\xef\xbf\xbd");
	html("cut\xc3", 4, "cut\xef\xbf\xbd");		/* a sequence cut at the end */
	html("\xe2\x80\xa8", 3, "\xe2\x80\xa8");
	html("bell\x07\x1b[0m", 9, "bell\xef\xbf\xbd\xef\xbf\xbd[0m");
	html("nul\0x", 5, "nul\xef\xbf\xbdx");
	html("tab\tnl\n", 7, "tab\tnl\n");
	sbuf_init(&sb, 64);
	web_html(&sb, NULL);
	assert_int_equal(sb.len, 0);
	sbuf_release(&sb);
}

static void test_web_route__url_parts_encode_all_but_the_safe(void **state)
{
	struct sbuf sb;

	(void)state;
	sbuf_init(&sb, 256);
	web_url_part(&sb, "a/b@c d\"<>&?#%+", 0);
	assert_string_equal(sb.buf, "a%2Fb@c%20d%22%3C%3E%26%3F%23%25%2B");
	sbuf_reset(&sb);
	web_url_part(&sb, "drivers/leds/x.c", 1);
	assert_string_equal(sb.buf, "drivers/leds/x.c");
	sbuf_reset(&sb);
	web_url_part(&sb, "caf\xc3\xa9", 0);
	assert_string_equal(sb.buf, "caf%C3%A9");
	sbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_web_route__pages_and_their_arguments),
		cmocka_unit_test(test_web_route__lore_urls_redirect_to_the_message),
		cmocka_unit_test(test_web_route__hostile_paths_are_4xx),
		cmocka_unit_test(test_web_route__decoding),
		cmocka_unit_test(test_web_route__html_escapes_markup_quotes_and_bad_bytes),
		cmocka_unit_test(test_web_route__url_parts_encode_all_but_the_safe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

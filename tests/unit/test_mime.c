// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of bot/mail/mime.c: MIME parsing and decoding of hostile mail:
 * inline and attached patches, transfer encodings and charsets, encoded
 * words, nested multiparts and their limits, broken Message-IDs and
 * References, NUL bytes and invalid UTF-8, auto-reply signals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bot/mail/mime.h"

#define FIXTURES "tests/data/mail/"

static char *slurp(const char *name, size_t *len)
{
	char path[256];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), FIXTURES "%s", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void parse_file(const char *name, struct mime_mail *m)
{
	size_t len;
	char *raw = slurp(name, &len);

	assert_int_equal(mime_parse(raw, len, m), MIME_OK);
	free(raw);
}

static int parse_str(const char *s, struct mime_mail *m)
{
	return mime_parse(s, strlen(s), m);
}

static int has_ctrl(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t')
			return 1;
	return 0;
}

/* raw with its header line name replaced by line, or dropped (NULL):
 * a new string; raw is freed. */
static char *header_with(char *raw, const char *name, const char *line)
{
	char *p, *e, *out;
	char key[64];

	/* the header's line: the first starting with name */
	snprintf(key, sizeof(key), "\n%s", name);
	p = strstr(raw, key);
	assert_non_null(p);
	p++;
	e = strchr(p, '\n');
	assert_non_null(e);
	out = malloc(strlen(raw) + (line ? strlen(line) : 0) + 2);
	assert_non_null(out);
	memcpy(out, raw, (size_t)(p - raw));
	out[p - raw] = '\0';
	if (line) {
		strcat(out, line);
		strcat(out, "\n");
	}
	strcat(out, e + 1);
	free(raw);
	return out;
}

/* The relay fixture with one header line replaced, or dropped. */
static char *relay_with(const char *name, const char *line)
{
	size_t len;

	return header_with(slurp("b4-relay.eml", &len), name, line);
}

/*
 * b4's web relay: From: "Name via B4 Relay" <devnull+LOCAL.DOMAIN@kernel.org>
 * with the author in X-Original-From: and Reply-To: (b4's
 * misc/send-receive.py).  The author is the mail's From; the relay's is
 * kept; X-Original-From replaces only that devnull, and only when it is
 * the address the devnull encodes (it is as forgeable as From:).
 */
static void test_mime__b4_relay_author_is_the_from(void **state)
{
	struct mime_mail m;
	char *raw;

	(void)state;
	parse_file("b4-relay.eml", &m);
	assert_string_equal(m.from.addr, "ana.lopes@example.com");
	assert_string_equal(m.from.name, "Ana L\xc3\xb3pes");
	assert_string_equal(m.relay.addr, "devnull+ana.lopes.example.com@kernel.org");
	assert_string_equal(m.relay.name, "Ana L\xc3\xb3pes via B4 Relay");
	assert_true(mime_relay_devnull(m.relay.addr));
	assert_false(mime_relay_devnull(m.from.addr));
	mime_release(&m);

	/* X-Original-From naming another than the devnull encodes is not
	 * believed: the Reply-To that agrees is; with neither, the devnull
	 * stays (and is never mailed) */
	raw = relay_with("X-Original-From:", "X-Original-From: Mallory <victim@example.org>");
	assert_int_equal(parse_str(raw, &m), MIME_OK);
	assert_string_equal(m.from.addr, "ana.lopes@example.com");
	mime_release(&m);
	raw = header_with(raw, "Reply-To:", "Reply-To: victim@example.org");
	assert_int_equal(parse_str(raw, &m), MIME_OK);
	assert_string_equal(m.from.addr, "devnull+ana.lopes.example.com@kernel.org");
	assert_string_equal(m.from.name, "Ana L\xc3\xb3pes via B4 Relay");
	assert_null(m.relay.addr);
	mime_release(&m);
	free(raw);

	/* no X-Original-From: the relay's Reply-To, the name from its From */
	raw = relay_with("X-Original-From:", NULL);
	assert_int_equal(parse_str(raw, &m), MIME_OK);
	assert_string_equal(m.from.addr, "ana.lopes@example.com");
	assert_string_equal(m.from.name, "Ana L\xc3\xb3pes");
	assert_non_null(m.relay.addr);
	mime_release(&m);
	free(raw);

	/* the relay never rewrites its own domain: such a claim is forged */
	raw = relay_with("From:", "From: Maint via B4 Relay <devnull+maint.kernel.org@kernel.org>");
	raw = header_with(raw, "X-Original-From:", "X-Original-From: Maint <maint@kernel.org>");
	raw = header_with(raw, "Reply-To:", "Reply-To: maint@kernel.org");
	assert_int_equal(parse_str(raw, &m), MIME_OK);
	assert_string_equal(m.from.addr, "devnull+maint.kernel.org@kernel.org");
	assert_null(m.relay.addr);
	mime_release(&m);
	free(raw);

	/* a list's "X via group" From with X-Original-From (Google
	 * Groups) is no relay: From stays */
	raw = relay_with("From:", "From: \"'Ana' via acme-dev\" <acme-dev@googlegroups.com>");
	assert_int_equal(parse_str(raw, &m), MIME_OK);
	assert_string_equal(m.from.addr, "acme-dev@googlegroups.com");
	assert_null(m.relay.addr);
	mime_release(&m);
	free(raw);

	assert_false(mime_relay_devnull("devnull@kernel.org"));
	assert_false(mime_relay_devnull("devnull+x@example.org"));
	assert_true(mime_relay_devnull("DevNull+x.y.z@Kernel.org"));
	assert_false(mime_relay_devnull(NULL));
}

static void test_mime__inline_patch_and_headers(void **state)
{
	struct mime_mail m;

	(void)state;
	parse_file("inline.eml", &m);
	assert_string_equal(m.message_id,
			    "7d2924de-053b-44d2-a479-870dc3878170@gmail.com");
	/* folded header unfolded */
	assert_string_equal(m.subject,
		"[PATCH net-next] net: phy: realtek: add RTL8125D-internal PHY");
	assert_string_equal(m.from.name, "Heiner Kallweit");
	assert_string_equal(m.from.addr, "hkallweit1@gmail.com");
	/* group syntax flattened, domains lowercased */
	assert_int_equal(m.nto, 3);
	assert_string_equal(m.to[0].addr, "andrew@lunn.ch");
	assert_string_equal(m.to[1].addr, "kuba@kernel.org");
	assert_string_equal(m.to[1].name, "Jakub Kicinski");
	assert_string_equal(m.to[2].addr, "pabeni@redhat.com");
	assert_string_equal(m.to[2].name, "Paolo Abeni");
	assert_int_equal(m.ncc, 1);
	assert_string_equal(m.cc[0].addr, "netdev@vger.kernel.org");
	assert_null(m.reply_to.addr);
	/* Thu, 17 Oct 2024 18:01:13 +0200 */
	assert_int_equal(m.date, 1729180873);
	assert_string_equal(m.date_raw, "Thu, 17 Oct 2024 18:01:13 +0200");
	assert_string_equal(m.in_reply_to, "cover.1729180000@gmail.com");
	assert_int_equal(m.nrefs, 2);
	assert_string_equal(m.refs[0], "root@gmail.com");
	assert_string_equal(m.refs[1], "cover.1729180000@gmail.com");
	assert_string_equal(m.list_id, "netdev.vger.kernel.org");
	assert_int_equal(m.precedence_bulk, 1);
	assert_null(m.auto_submitted);
	assert_null(m.x_reviewbot);
	assert_int_equal(m.has_attachment_patch, 0);
	assert_int_equal(m.warnings, 0);
	assert_int_equal(strlen(m.body), m.body_len);
	assert_non_null(strstr(m.body, "The first boards show up"));
	assert_non_null(strstr(m.body, "+\tcase 0x001cc841:\n"));
	mime_release(&m);
}

static void test_mime__quoted_printable_latin1(void **state)
{
	struct mime_mail m;

	(void)state;
	parse_file("qp-latin1.eml", &m);
	/* windows-1252 Q word and ISO-8859-1 Q word */
	assert_string_equal(m.subject,
			    "\xe2\x80\x9cquoted\xe2\x80\x9d fix \xe2\x82\xac"
			    " for Ren\xc3\xa9");
	assert_true(strncmp(m.body, "Ren\xc3\xa9 wrote this na\xc3\xafve fix.\n",
			    strlen("Ren\xc3\xa9 wrote this na\xc3\xafve fix.\n")) == 0);
	/* soft line breaks gone, the patch intact */
	assert_non_null(strstr(m.body, "@@ -1151,6 +1151,7 @@ static int "
				       "rtl_internal_nbaset_match_phy\n"));
	assert_int_equal(m.warnings, 0);
	mime_release(&m);
}

static void test_mime__base64_and_split_encoded_words(void **state)
{
	struct mime_mail m;

	(void)state;
	parse_file("base64.eml", &m);
	/* a character split across two B words survives */
	assert_string_equal(m.subject,
			    "[PATCH] f\xc3\xbcr J\xc3\xb6rg \xe2\x82\xac");
	assert_string_equal(m.reply_to.name, "J\xc3\xb6rg Z");
	assert_string_equal(m.reply_to.addr, "Joerg@example.org");
	assert_true(strncmp(m.body, "J\xc3\xb6rg says h\xc3\xa9llo\n", 16) == 0);
	assert_non_null(strstr(m.body, "diff --git a/drivers/net/phy/realtek.c"));
	mime_release(&m);
}

static void test_mime__windows_1252_body(void **state)
{
	struct mime_mail m;

	(void)state;
	parse_file("cp1252.eml", &m);
	assert_true(strncmp(m.body, "\xe2\x80\x9cSmart quotes\xe2\x80\x9d cost "
				    "\xe2\x82\xac 5.\n", 27) == 0);
	mime_release(&m);
}

static void test_mime__xpatch_attachment_after_text(void **state)
{
	struct mime_mail m;
	const char *text, *patch;

	(void)state;
	parse_file("attach-xpatch.eml", &m);
	assert_int_equal(m.has_attachment_patch, 1);
	text = strstr(m.body, "Hi, the patch is attached.");
	patch = strstr(m.body, "+\tcase 0x001cc841:\n");
	assert_non_null(text);
	assert_non_null(patch);
	assert_true(text < patch);
	/* the list footer is neither the text nor a patch */
	assert_null(strstr(m.body, "devel mailing list"));
	mime_release(&m);
}

static void test_mime__plain_attachment_with_diff(void **state)
{
	struct mime_mail m;

	(void)state;
	parse_file("attach-plain.eml", &m);
	assert_int_equal(m.has_attachment_patch, 1);
	assert_non_null(strstr(m.body, "Please see the attachment."));
	assert_non_null(strstr(m.body, "diff --git a/drivers/net/phy/realtek.c"));
	/* a text/plain attachment without a diff is left out */
	assert_null(strstr(m.body, "Just notes"));
	mime_release(&m);
}

static void test_mime__nested_multipart(void **state)
{
	struct mime_mail m;

	(void)state;
	parse_file("nested.eml", &m);
	assert_non_null(strstr(m.body, "Plain text part."));
	assert_null(strstr(m.body, "HTML part"));
	assert_non_null(strstr(m.body, "+\tcase 0x001cc841:\n"));
	assert_int_equal(m.has_attachment_patch, 1);
	mime_release(&m);
}

static char *nest(int depth)
{
	size_t cap = (size_t)depth * 100 + 200, len = 0;
	char *s = malloc(cap);
	int i;

	assert_non_null(s);
	len += (size_t)snprintf(s + len, cap - len,
				"From: a@b.c\nMessage-ID: <deep@x>\n");
	for (i = 0; i < depth; i++)
		len += (size_t)snprintf(s + len, cap - len,
			"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n",
			i, i);
	len += (size_t)snprintf(s + len, cap - len,
				"Content-Type: text/plain\n\nhello\n");
	for (i = depth - 1; i >= 0; i--)
		len += (size_t)snprintf(s + len, cap - len, "--b%d--\n", i);
	return s;
}

static void test_mime__nesting_limit(void **state)
{
	struct mime_mail m;
	char *s;

	(void)state;
	s = nest(MIME_MAX_DEPTH);
	assert_int_equal(parse_str(s, &m), MIME_OK);
	assert_string_equal(m.body, "hello\n");
	mime_release(&m);
	free(s);

	s = nest(MIME_MAX_DEPTH + 1);
	assert_int_equal(parse_str(s, &m), MIME_ERR_LIMIT);
	free(s);

	/* thousands of levels: refused quickly, before libetpan */
	s = nest(5000);
	assert_int_equal(parse_str(s, &m), MIME_ERR_LIMIT);
	free(s);
}

static void test_mime__too_many_parts(void **state)
{
	struct mime_mail m;
	size_t cap = 20 * (MIME_MAX_PARTS + 10) + 200, len = 0;
	char *s = malloc(cap);
	int i;

	(void)state;
	assert_non_null(s);
	len += (size_t)snprintf(s + len, cap - len, "Message-ID: <p@x>\n"
		"Content-Type: multipart/mixed; boundary=b\n\n");
	for (i = 0; i < MIME_MAX_PARTS + 5; i++)
		len += (size_t)snprintf(s + len, cap - len, "--b\n\nx\n");
	len += (size_t)snprintf(s + len, cap - len, "--b--\n");
	assert_int_equal(parse_str(s, &m), MIME_ERR_LIMIT);
	free(s);
}

/* A multipart mail of n text parts (malloc'd). */
static char *parts_mail(size_t n, size_t *len)
{
	size_t cap = 8 * n + 200, o = 0, i;
	char *s = malloc(cap);

	assert_non_null(s);
	o += (size_t)snprintf(s + o, cap - o, "Message-ID: <p@x>\n"
		"Content-Type: multipart/mixed; boundary=b\n\n");
	for (i = 0; i < n; i++)
		o += (size_t)snprintf(s + o, cap - o, "--b\n\nx\n");
	o += (size_t)snprintf(s + o, cap - o, "--b--\n");
	*len = o;
	return s;
}

static void test_mime__limits_default_to_the_constants(void **state)
{
	struct mime_limits lim;

	(void)state;
	memset(&lim, 0xff, sizeof(lim));
	mime_limits_init(&lim);
	assert_int_equal(lim.max_mail, MIME_MAX_MAIL);
	assert_int_equal(lim.max_parts, MIME_MAX_PARTS);
	assert_int_equal(lim.max_refs, MIME_MAX_REFS);
	assert_true(MIME_MAX_PARTS <= MIME_CEIL_PARTS);
	assert_true(MIME_MAX_REFS <= MIME_CEIL_REFS);
}

static void test_mime__part_limit_lower_and_higher(void **state)
{
	struct mime_limits lim;
	struct mime_mail m;
	size_t len;
	char *s;

	(void)state;
	mime_limits_init(&lim);
	lim.max_parts = 10;
	s = parts_mail(3, &len);
	assert_int_equal(mime_parse_limits(s, len, &lim, &m), MIME_OK);
	mime_release(&m);
	free(s);
	s = parts_mail(20, &len);
	assert_int_equal(mime_parse_limits(s, len, &lim, &m), MIME_ERR_LIMIT);
	assert_int_equal(mime_parse(s, len, &m), MIME_OK);	/* the default allows it */
	mime_release(&m);
	free(s);

	/* raised past the default */
	s = parts_mail(MIME_MAX_PARTS + 5, &len);
	assert_int_equal(mime_parse(s, len, &m), MIME_ERR_LIMIT);
	lim.max_parts = MIME_MAX_PARTS + 100;
	assert_int_equal(mime_parse_limits(s, len, &lim, &m), MIME_OK);
	mime_release(&m);
	free(s);

	/* never past the ceiling, whatever the caller asks */
	s = parts_mail(MIME_CEIL_PARTS + 5, &len);
	lim.max_parts = (size_t)-1;
	assert_int_equal(mime_parse_limits(s, len, &lim, &m), MIME_ERR_LIMIT);
	free(s);
}

static void test_mime__size_limit(void **state)
{
	static const char mail[] = "Message-ID: <s@x>\nSubject: s\n\nbody\n";
	struct mime_limits lim;
	struct mime_mail m;

	(void)state;
	mime_limits_init(&lim);
	lim.max_mail = sizeof(mail) - 1;
	assert_int_equal(mime_parse_limits(mail, sizeof(mail) - 1, &lim, &m), MIME_OK);
	mime_release(&m);
	lim.max_mail = sizeof(mail) - 2;
	assert_int_equal(mime_parse_limits(mail, sizeof(mail) - 1, &lim, &m), MIME_ERR_LIMIT);
	assert_null(m.message_id);
	/* NULL: the defaults */
	assert_int_equal(mime_parse_limits(mail, sizeof(mail) - 1, NULL, &m), MIME_OK);
	mime_release(&m);
}

static void test_mime__crlf_mail(void **state)
{
	struct mime_mail m;

	(void)state;
	parse_file("crlf.eml", &m);
	assert_string_equal(m.subject, "[PATCH] crlf mail");
	assert_string_equal(m.message_id, "crlf@example.org");
	assert_null(strchr(m.body, '\r'));
	assert_non_null(strstr(m.body, "+\tcase 0x001cc841:\n \t\tbreak;\n"));
	mime_release(&m);
}

static void test_mime__missing_message_id(void **state)
{
	struct mime_mail m;

	(void)state;
	assert_int_equal(parse_str("From: a@b.c\nSubject: x\n\nbody\n", &m),
			 MIME_ERR_NO_MSGID);
	assert_int_equal(parse_str("Message-ID: <>\n\nbody\n", &m),
			 MIME_ERR_NO_MSGID);
	assert_int_equal(parse_str("Message-ID: <a b@c>\n\nbody\n", &m),
			 MIME_ERR_NO_MSGID);
	assert_string_equal(mime_strerror(MIME_ERR_NO_MSGID),
			    "no usable message-id");
}

static void test_mime__lenient_message_id(void **state)
{
	struct mime_mail m;

	(void)state;
	/* libetpan cannot type this field; it is read leniently */
	assert_int_equal(parse_str("Message-ID: <a@b> (added by x)\n"
				   "In-Reply-To: Your message of Tue <p@q>\n"
				   "\nbody\n", &m), MIME_OK);
	assert_string_equal(m.message_id, "a@b");
	assert_string_equal(m.in_reply_to, "p@q");
	assert_string_equal(m.subject, "");
	assert_string_equal(m.from.addr, "");
	assert_int_equal(m.date, 0);
	assert_null(m.date_raw);
	mime_release(&m);
}

static void test_mime__encoded_crlf_in_subject(void **state)
{
	struct mime_mail m;

	(void)state;
	assert_int_equal(parse_str("Message-ID: <i@x>\n"
		"Subject: =?utf-8?q?a=0D=0ABcc:_x@y?=\n\nbody\n", &m), MIME_OK);
	assert_false(has_ctrl(m.subject));
	assert_non_null(strstr(m.subject, "Bcc: x@y"));
	assert_true(m.warnings & MIME_WARN_CTRL);
	mime_release(&m);
}

static void test_mime__nul_in_header(void **state)
{
	static const char raw[] = "Message-ID: <n@x>\n"
				  "Subject: before\0after\n"
				  "\nbody\n";
	struct mime_mail m;

	(void)state;
	assert_int_equal(mime_parse(raw, sizeof(raw) - 1, &m), MIME_OK);
	assert_string_equal(m.subject, "before after");
	assert_true(m.warnings & MIME_WARN_CTRL);
	mime_release(&m);
}

static void test_mime__invalid_utf8_replaced(void **state)
{
	static const char raw[] = "Message-ID: <u@x>\n"
				  "Subject: =?utf-8?b?/w==?= ok\n"
				  "Content-Type: text/plain; charset=utf-8\n"
				  "\nbad \xff byte, nul \0 too\n";
	struct mime_mail m;

	(void)state;
	assert_int_equal(mime_parse(raw, sizeof(raw) - 1, &m), MIME_OK);
	assert_string_equal(m.body,
			    "bad \xef\xbf\xbd byte, nul \xef\xbf\xbd too\n");
	assert_int_equal(strlen(m.body), m.body_len);
	assert_null(strchr(m.subject, '\xff'));
	mime_release(&m);
}

/*
 * The repair on random bodies: ASCII runs of every length (the repair
 * passes them eight bytes at a time) between bad bytes, NULs, UTF-8 of
 * two and three bytes, a lead byte cut short, and CRLFs, at every
 * alignment; each piece's expected output is known.
 */
static void test_mime__repair_at_every_alignment(void **state)
{
	static const struct {
		const char *in;
		size_t n;
		const char *out;
	} pieces[] = {
		{ "\xff", 1, "\xef\xbf\xbd" }, { "", 1, "\xef\xbf\xbd" },
		{ "\xc3\xa9", 2, "\xc3\xa9" }, { "\xe2\x82\xac", 3, "\xe2\x82\xac" },
		{ "\xc3", 1, "\xef\xbf\xbd" }, { "\r\n", 2, "\n" }, { "\n", 1, "\n" },
	};
	static const char hdr[] = "Message-ID: <r@x>\nSubject: s\n"
				  "Content-Type: text/plain; charset=utf-8\n\n";
	char raw[1024], want[2048];
	uint32_t seed = 31337;
	int k;

	(void)state;
	for (k = 0; k < 3000; k++) {
		size_t n = sizeof(hdr) - 1, w = 0, i, p;
		struct mime_mail m;

		memcpy(raw, hdr, n);
		for (p = 0; p < 12; p++) {
			size_t run, pi;

			seed = seed * 1103515245u + 12345u;
			run = (seed >> 16) % 21;
			for (i = 0; i < run; i++) {
				raw[n++] = (char)('a' + (i + p) % 26);
				want[w++] = (char)('a' + (i + p) % 26);
			}
			seed = seed * 1103515245u + 12345u;
			pi = (seed >> 16) % (sizeof(pieces) / sizeof(pieces[0]));
			memcpy(raw + n, pieces[pi].in, pieces[pi].n);
			n += pieces[pi].n;
			memcpy(want + w, pieces[pi].out, strlen(pieces[pi].out));
			w += strlen(pieces[pi].out);
		}
		raw[n++] = '\n';
		want[w++] = '\n';
		want[w] = '\0';
		assert_int_equal(mime_parse(raw, n, &m), MIME_OK);
		assert_int_equal(m.body_len, w);
		assert_memory_equal(m.body, want, w);
		mime_release(&m);
	}
}

static void test_mime__raw_latin1_header(void **state)
{
	struct mime_mail m;

	(void)state;
	assert_int_equal(parse_str("Message-ID: <l@x>\n"
				   "Subject: caf\xe9\n\nbody\n", &m), MIME_OK);
	assert_string_equal(m.subject, "caf\xc3\xa9");
	assert_true(m.warnings & MIME_WARN_CHARSET);
	mime_release(&m);
}

static void test_mime__many_references(void **state)
{
	struct mime_mail m;
	size_t n = 600, cap = n * 32 + 100, len = 0, i;
	char *s = malloc(cap);
	char want[32];

	(void)state;
	assert_non_null(s);
	len += (size_t)snprintf(s + len, cap - len,
				"Message-ID: <r@x>\nReferences:");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "\n <ref%zu@x>", i);
	len += (size_t)snprintf(s + len, cap - len, "\n\nbody\n");
	assert_int_equal(parse_str(s, &m), MIME_OK);
	assert_int_equal(m.nrefs, MIME_MAX_REFS);
	assert_true(m.warnings & MIME_WARN_REFS);
	assert_string_equal(m.refs[0], "ref0@x");
	snprintf(want, sizeof(want), "ref%zu@x", n - MIME_MAX_REFS + 1);
	assert_string_equal(m.refs[1], want);
	snprintf(want, sizeof(want), "ref%zu@x", n - 1);
	assert_string_equal(m.refs[MIME_MAX_REFS - 1], want);
	mime_release(&m);
	free(s);
}

/* Patchwork's bugs-multiple-references: a list or a client that adds
 * its own In-Reply-To and References beside the sender's */
static void test_mime__repeated_threading_headers_are_kept(void **state)
{
	struct mime_mail m;

	(void)state;
	assert_int_equal(parse_str("Message-ID: <p2@x>\n"
				   "In-Reply-To: <other@x>\n"
				   "References: <other@x>\n"
				   "In-Reply-To: <cover@x> <p1@x>\n"
				   "References: <cover@x>\n <p1@x>\n"
				   "Subject: [PATCH 2/2] b\n\nbody\n", &m), MIME_OK);
	assert_string_equal(m.in_reply_to, "other@x");
	assert_int_equal(m.nrefs, 1);
	assert_string_equal(m.refs[0], "other@x");
	assert_int_equal(m.nxrefs, 4);
	assert_string_equal(m.xrefs[0], "cover@x");
	assert_string_equal(m.xrefs[1], "p1@x");
	assert_string_equal(m.xrefs[2], "cover@x");
	assert_string_equal(m.xrefs[3], "p1@x");
	mime_release(&m);

	/* one of each: nothing extra */
	assert_int_equal(parse_str("Message-ID: <p2@x>\nIn-Reply-To: <c@x>\n"
				   "References: <c@x>\n\nbody\n", &m), MIME_OK);
	assert_int_equal(m.nxrefs, 0);
	assert_null(m.xrefs);
	mime_release(&m);
}

static void test_mime__references_limit_lower_and_higher(void **state)
{
	struct mime_limits lim;
	struct mime_mail m;
	size_t n = 600, cap = n * 32 + 100, len = 0, i;
	char *s = malloc(cap);

	(void)state;
	assert_non_null(s);
	len += (size_t)snprintf(s + len, cap - len, "Message-ID: <r@x>\nReferences:");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "\n <ref%zu@x>", i);
	len += (size_t)snprintf(s + len, cap - len, "\n\nbody\n");
	mime_limits_init(&lim);

	/* lower: the root and the last ones */
	lim.max_refs = 3;
	assert_int_equal(mime_parse_limits(s, len, &lim, &m), MIME_OK);
	assert_int_equal(m.nrefs, 3);
	assert_true(m.warnings & MIME_WARN_REFS);
	assert_string_equal(m.refs[0], "ref0@x");
	assert_string_equal(m.refs[1], "ref598@x");
	assert_string_equal(m.refs[2], "ref599@x");
	mime_release(&m);

	/* 0 counts as 1: the root is always kept */
	lim.max_refs = 0;
	assert_int_equal(mime_parse_limits(s, len, &lim, &m), MIME_OK);
	assert_int_equal(m.nrefs, 1);
	assert_string_equal(m.refs[0], "ref0@x");
	mime_release(&m);

	/* higher than the default: all of them */
	lim.max_refs = 1000;
	assert_int_equal(mime_parse_limits(s, len, &lim, &m), MIME_OK);
	assert_int_equal(m.nrefs, n);
	assert_false(m.warnings & MIME_WARN_REFS);
	mime_release(&m);
	free(s);
}

static void test_mime__date_zone_applied(void **state)
{
	struct mime_mail m;

	(void)state;
	assert_int_equal(parse_str("Message-ID: <d@x>\n"
		"Date: Mon, 1 Jan 2024 00:30:00 -0130\n\nbody\n", &m), MIME_OK);
	assert_int_equal(m.date, 1704067200 + 1800 + 5400);
	mime_release(&m);
}

static void test_mime__bot_and_auto_headers(void **state)
{
	struct mime_mail m;

	(void)state;
	assert_int_equal(parse_str("Message-ID: <h@x>\n"
		"Auto-Submitted: auto-replied\n"
		"X-Reviewbot: v1; id=3\n"
		"List-Id: Linux LEDs <linux-leds.vger.kernel.org>\n"
		"\nbody\n", &m), MIME_OK);
	assert_string_equal(m.auto_submitted, "auto-replied");
	assert_string_equal(m.x_reviewbot, "v1; id=3");
	assert_string_equal(m.list_id, "linux-leds.vger.kernel.org");
	assert_int_equal(m.precedence_bulk, 0);
	mime_release(&m);
}

/* What says a program sent a mail: each header alone, and none on a
 * person's mail. */
static void test_mime__auto_reply_signals(void **state)
{
	struct mime_mail m;

	(void)state;
	assert_int_equal(parse_str("Return-Path: <>\nMessage-ID: <b@x>\n"
		"From: MAILER-DAEMON@example.org\nPrecedence: junk\n"
		"X-Autoreply: yes\nX-Auto-Response-Suppress: All\n\nbody\n", &m), MIME_OK);
	assert_int_equal(m.return_path_null, 1);
	assert_int_equal(m.precedence_bulk, 1);
	assert_int_equal(m.precedence_junk, 1);
	assert_int_equal(m.x_autoreply, 1);
	assert_int_equal(m.x_auto_response_suppress, 1);
	assert_string_equal(m.from.addr, "MAILER-DAEMON@example.org");
	mime_release(&m);
	assert_int_equal(parse_str("Return-Path:   < >  \nMessage-ID: <b2@x>\n\nbody\n", &m),
			 MIME_OK);
	assert_int_equal(m.return_path_null, 1);
	mime_release(&m);
	assert_int_equal(parse_str("Return-Path: <dev@example.org>\nMessage-ID: <p@x>\n"
		"From: Dev <dev@example.org>\nPrecedence: bulk\n\nbody\n", &m), MIME_OK);
	assert_int_equal(m.return_path_null, 0);
	assert_int_equal(m.precedence_bulk, 1);
	assert_int_equal(m.precedence_junk, 0);
	assert_int_equal(m.x_autoreply, 0);
	assert_int_equal(m.x_auto_response_suppress, 0);
	mime_release(&m);
}

static void test_mime__msgid_extraction(void **state)
{
	char *s;

	(void)state;
	s = mime_msgid("<a@b> junk", 10);
	assert_string_equal(s, "a@b");
	free(s);
	s = mime_msgid("  bare@token more", 17);
	assert_string_equal(s, "bare@token");
	free(s);
	s = mime_msgid("x <  sp@aces  >", 15);
	assert_string_equal(s, "sp@aces");
	free(s);
	assert_null(mime_msgid("<>", 2));
	assert_null(mime_msgid("", 0));
	assert_null(mime_msgid("<a\x01@b>", 7));
}

static void test_mime__not_a_mail(void **state)
{
	struct mime_mail m;

	(void)state;
	/* libetpan reads almost anything as a body; without headers no id */
	assert_int_equal(mime_parse("", 0, &m), MIME_ERR_NO_MSGID);
	assert_string_equal(mime_strerror(MIME_ERR_PARSE), "not a mail message");
	assert_string_equal(mime_strerror(MIME_ERR_LIMIT),
			    "mail over a size, depth or part limit");
	assert_string_equal(mime_strerror(MIME_ERR_NOMEM), "out of memory");
	assert_string_equal(mime_strerror(MIME_OK), "no error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mime__b4_relay_author_is_the_from),
		cmocka_unit_test(test_mime__inline_patch_and_headers),
		cmocka_unit_test(test_mime__quoted_printable_latin1),
		cmocka_unit_test(test_mime__base64_and_split_encoded_words),
		cmocka_unit_test(test_mime__windows_1252_body),
		cmocka_unit_test(test_mime__xpatch_attachment_after_text),
		cmocka_unit_test(test_mime__plain_attachment_with_diff),
		cmocka_unit_test(test_mime__nested_multipart),
		cmocka_unit_test(test_mime__nesting_limit),
		cmocka_unit_test(test_mime__too_many_parts),
		cmocka_unit_test(test_mime__limits_default_to_the_constants),
		cmocka_unit_test(test_mime__part_limit_lower_and_higher),
		cmocka_unit_test(test_mime__size_limit),
		cmocka_unit_test(test_mime__crlf_mail),
		cmocka_unit_test(test_mime__missing_message_id),
		cmocka_unit_test(test_mime__lenient_message_id),
		cmocka_unit_test(test_mime__encoded_crlf_in_subject),
		cmocka_unit_test(test_mime__nul_in_header),
		cmocka_unit_test(test_mime__invalid_utf8_replaced),
		cmocka_unit_test(test_mime__raw_latin1_header),
		cmocka_unit_test(test_mime__many_references),
		cmocka_unit_test(test_mime__repeated_threading_headers_are_kept),
		cmocka_unit_test(test_mime__references_limit_lower_and_higher),
		cmocka_unit_test(test_mime__date_zone_applied),
		cmocka_unit_test(test_mime__bot_and_auto_headers),
		cmocka_unit_test(test_mime__auto_reply_signals),
		cmocka_unit_test(test_mime__msgid_extraction),
		cmocka_unit_test(test_mime__not_a_mail),
		cmocka_unit_test(test_mime__repair_at_every_alignment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

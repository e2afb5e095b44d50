// SPDX-License-Identifier: GPL-2.0-only
/*
 * The review mail.  Golden mails are tests/data/compose/<case>.expect,
 * compared byte for byte; REGEN=1 rewrites them (read the diff!).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bot/mail/compose.h"
#include "../../bot/secret.h"
#include "../../checker/readiness.h"
#include "../../bot/mail/template.h"
#include "../../checker/rfc2047.h"

#define DATE_2024_01_02	INT64_C(1704189600)	/* Tue, 02 Jan 2024 10:00:00 */

static struct template_set *tset;

static int setup(void **state)
{
	char err[256];

	(void)state;
	if (template_set_load("templates", &tset, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	template_set_free(tset);
	return 0;
}

static const struct compose_addr list_cc[] = {
	{ NULL, "linux-leds@vger.kernel.org" },
};

/* A v1 series of 3 patches from Jane, replied to at its cover letter. */
static void base(struct compose_review *r)
{
	memset(r, 0, sizeof(*r));
	r->bot.name = "reviewbot";
	r->bot.addr = "reviewbot@example.org";
	r->bot_version = "0.1.0";
	r->to.name = "Jane Developer";
	r->to.addr = "jane@example.com";
	r->cc = list_cc;
	r->ncc = 1;
	r->subject = "[PATCH 0/3] leds: add acme driver";
	r->in_reply_to = "20240102093000.1234-1-jane@example.com";
	r->version = 1;
	r->total = 3;
	r->patches = 3;
	r->date = DATE_2024_01_02;
}

/* Lines of the mail: headers fold within 78 columns, prose within 72,
 * nothing passes 998 octets; only quoted code ("    +") may be longer. */
static void check_shape(const struct sbuf *m)
{
	const char *p = m->buf, *end = m->buf + m->len;
	int in_body = 0;

	assert_null(memchr(m->buf, '\r', m->len));
	assert_null(memchr(m->buf, '\0', m->len));
	assert_true(m->len > 0 && end[-1] == '\n');
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)(nl - p), cols = 0, i;

		assert_non_null(nl);
		assert_true(n <= 998);
		for (i = 0; i < n; i++)
			if (((unsigned char)p[i] & 0xc0) != 0x80)
				cols += p[i] == '\t' ? 8 - cols % 8 : 1;
		if (!in_body && !n) {
			in_body = 1;
		} else if (!in_body) {
			if (cols > 78)
				fail_msg("header line of %zu columns: %.*s", cols, (int)n, p);
			if (p[0] != ' ' && !memchr(p, ':', n))
				fail_msg("not a header: %.*s", (int)n, p);
			for (i = 0; i < n; i++)
				assert_true(p[i] >= 0x20 && p[i] < 0x7f);
		} else if (cols > 72 && strncmp(p, "    +", 5)) {
			fail_msg("body line of %zu columns: %.*s", cols, (int)n, p);
		}
		p = nl + 1;
	}
	assert_true(in_body);
}

static void golden(const char *name, const struct sbuf *m)
{
	char path[256];
	char *want;
	size_t n, i, line = 1, bol = 0;
	FILE *f;

	snprintf(path, sizeof(path), "tests/data/compose/%s.expect", name);
	if (getenv("REGEN")) {
		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(m->buf, 1, m->len, f), m->len);
		assert_int_equal(fclose(f), 0);
		return;
	}
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s missing (REGEN=1 writes it)", path);
	want = malloc(1 << 20);
	assert_non_null(want);
	n = fread(want, 1, 1 << 20, f);
	fclose(f);
	for (i = 0; i < n && i < m->len && want[i] == m->buf[i]; i++) {
		if (want[i] == '\n') {
			line++;
			bol = i + 1;
		}
	}
	if (i != n || n != m->len) {
		const char *we = memchr(want + bol, '\n', n - bol);
		const char *ge = memchr(m->buf + bol, '\n', m->len - bol);

		fail_msg("%s: differs at line %zu:\n want: %.*s\n got:  %.*s", path, line,
			 (int)(we ? (size_t)(we - want) - bol : n - bol), want + bol,
			 (int)(ge ? (size_t)(ge - m->buf) - bol : m->len - bol),
			 m->buf + bol);
	}
	free(want);
}

static void compose_ok(const struct compose_review *r, struct sbuf *m,
		       struct compose_stats *st)
{
	char err[256] = "";

	sbuf_init(m, COMPOSE_MAX_MAIL);
	if (compose_review_mail(tset, r, m, st, err, sizeof(err)))
		fail_msg("compose: %s", err);
	check_shape(m);
}

/* The header named name (unfolded: CRLF/LF + WSP removed), or NULL. */
static char *header(const struct sbuf *m, const char *name)
{
	size_t nl = strlen(name);
	const char *p = m->buf;
	struct sbuf v;

	while (*p && *p != '\n') {
		const char *e = strchr(p, '\n');

		if (!strncmp(p, name, nl) && p[nl] == ':') {
			sbuf_init(&v, 1 << 16);
			p += nl + 1;
			if (*p == ' ')
				p++;
			for (;;) {
				e = strchr(p, '\n');
				sbuf_add(&v, p, (size_t)(e - p));
				if (e[1] != ' ' && e[1] != '\t')
					break;
				p = e + 1;
			}
			return sbuf_detach(&v, NULL);
		}
		p = e + 1;
	}
	return NULL;
}

static size_t count_lines_starting(const struct sbuf *m, const char *prefix, int headers_only)
{
	const char *p = m->buf;
	size_t k = 0, n = strlen(prefix);

	while (*p) {
		if (headers_only && *p == '\n')
			break;
		if (!strncmp(p, prefix, n))
			k++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return k;
}

static void test_compose__clean_series(void **state)
{
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;

	(void)state;
	base(&r);
	compose_ok(&r, &m, &st);
	assert_int_equal(st.clean, 1);
	assert_int_equal(st.shown, 0);
	assert_int_equal(st.nits, 0);
	assert_non_null(strstr(m.buf, "found nothing to report"));
	golden("clean", &m);
	sbuf_release(&m);
}

#define F(part, type, sev, cat, file, line, msg, text) \
	{ part, type, sev, cat, file, line, msg, text, NULL, 0, 0 }

static const struct compose_finding one_patch_findings[] = {
	F(1, "LONG_LINE", "WARNING", "style", "drivers/leds/leds-acme.c", 77,
	  "line length of 104 exceeds 100 columns", "\tpr_info(\"...\");"),
	F(1, "SPACING", "ERROR", "style", "drivers/leds/leds-acme.c", 90,
	  "space required after that ','", "\tfoo(a,b);"),
	F(1, "USER_COPY_UNCHECKED", "WARNING", "security", "drivers/leds/leds-acme.c", 120,
	  "result of copy_from_user() thrown away", "\tcopy_from_user(&req, argp, len);"),
	F(1, "LONG_LINE", "WARNING", "style", "drivers/leds/leds-acme.c", 40,
	  "line length of 101 exceeds 100 columns", "\tx = 1;"),
	F(1, "UAPI_IOCTL", "WARNING", "uapi", "include/uapi/linux/acme.h", 12,
	  "new ioctl command number (_IO, _IOR, _IOW, _IOWR): ABI forever",
	  "#define ACME_SET_LED\t_IOW('A', 1, struct acme_req)"),
	F(1, "SPACING", "ERROR", "style", "drivers/leds/leds-acme.c", 91,
	  "space required after that ','", "\tfoo(a,c);"),
	F(1, "TRAILING_WHITESPACE", "ERROR", "style", "drivers/leds/leds-acme.c", 33,
	  "trailing whitespace", "\tint x; "),
	F(1, "UAPI_IOCTL_HANDLER", "WARNING", "uapi", "drivers/leds/leds-acme.c", 200,
	  "new .unlocked_ioctl handler: every command it accepts is ABI forever",
	  "\t.unlocked_ioctl = acme_ioctl,"),
	F(1, "NEW_FILE_NO_MAINTAINERS", "WARNING", "process", NULL, 0,
	  "added file(s) without a MAINTAINERS entry: drivers/leds/leds-acme.c", NULL),
	F(1, "LONG_LINE", "WARNING", "style", "drivers/leds/leds-acme.c", 52,
	  "line length of 110 exceeds 100 columns", "\ty = 2;"),
	F(1, "SPACING", "ERROR", "style", "drivers/leds/leds-acme.c", 92,
	  "space required after that ','", "\tfoo(a,d);"),
	F(1, "AVOID_BUG", "WARNING", "correctness", "drivers/leds/leds-acme.c", 150,
	  "Do not crash the kernel unless it is absolutely unavoidable--use WARN_ON_ONCE() plus recovery code (if feasible) instead of BUG() or variants",
	  "\tBUG_ON(!priv);"),
	F(1, "LONG_LINE", "WARNING", "style", "drivers/leds/leds-acme.c", 130,
	  "line length of 120 exceeds 100 columns", "\tz = 3;"),
	F(1, "SPACING", "ERROR", "style", "drivers/leds/leds-acme.c", 93,
	  "space required after that ','", "\tfoo(a,e);"),
	F(1, "TRAILING_WHITESPACE", "ERROR", "style", "drivers/leds/leds-acme.c", 34,
	  "trailing whitespace", "\tint y; "),
	F(1, "CODE_INDENT", "ERROR", "style", "drivers/leds/leds-acme.c", 60,
	  "code indent should use tabs where possible", "        x = 1;"),
};

static void test_compose__one_patch_with_security_uapi_and_nits(void **state)
{
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;

	(void)state;
	base(&r);
	r.subject = "[PATCH] leds: add acme driver";
	r.total = 1;
	r.patches = 1;
	r.findings = one_patch_findings;
	r.nfindings = sizeof(one_patch_findings) / sizeof(one_patch_findings[0]);
	compose_ok(&r, &m, &st);
	assert_int_equal(st.clean, 0);
	/* 5 findings and 7 style ERRORs listed, 4 long lines counted */
	assert_int_equal(st.shown, 12);
	assert_int_equal(st.nits, 4);
	assert_non_null(strstr(m.buf, "  security:              concern (1 finding below)\n"));
	assert_non_null(strstr(m.buf, "  user-space interface:  concern (2 findings below)\n"));
	assert_non_null(strstr(m.buf, "  affects others:        no shared code changed, no driver on by default\n"));
	assert_non_null(strstr(m.buf, "  maintainer:            concern (1 finding below)\n"));
	assert_non_null(strstr(m.buf, "  compiles:              not checked (no tree)\n"));
	assert_non_null(strstr(m.buf, "Style nits: 4 "));
	/* examples by line, compacted; ERRORs are listed, not counted */
	assert_non_null(strstr(m.buf,
		"  LONG_LINE  4  e.g. drivers/leds/leds-acme.c:40, :52, :77\n\n"));
	assert_non_null(strstr(m.buf, "\nStyle errors (checkpatch.pl ERROR)\n"));
	assert_non_null(strstr(m.buf, "drivers/leds/leds-acme.c:93: ERROR: space required after that ','"));
	assert_true(strstr(m.buf, "\nProcess\n") < strstr(m.buf, "\nStyle errors"));
	assert_true(strstr(m.buf, "\nStyle errors") < strstr(m.buf, "\nStyle nits"));
	/* sections in order, code quoted as it is */
	assert_true(strstr(m.buf, "\nSecurity\n") < strstr(m.buf, "\nUser-space interface"));
	assert_true(strstr(m.buf, "\nUser-space interface") < strstr(m.buf, "\nCorrectness\n"));
	assert_true(strstr(m.buf, "\nCorrectness\n") < strstr(m.buf, "\nProcess\n"));
	assert_true(strstr(m.buf, "\nProcess\n") < strstr(m.buf, "\nStyle nits"));
	assert_non_null(strstr(m.buf, "\n    +\tcopy_from_user(&req, argp, len);\n"));
	assert_null(strstr(m.buf, "\tx = 1;"));	/* nits are not quoted */
	golden("one_patch", &m);
	sbuf_release(&m);
}

static const struct compose_finding v1_findings[] = {
	F(1, "LONG_LINE", "WARNING", "style", "drivers/leds/leds-acme.c", 40,
	  "line length of 101 exceeds 100 columns", "\tfoo();"),
	F(2, "USER_COPY_UNCHECKED", "WARNING", "security", "drivers/leds/leds-acme.c", 120,
	  "result of copy_from_user() thrown away", "\tcopy_from_user(&req, argp, len);"),
	F(2, "SPACING", "ERROR", "style", "drivers/leds/leds-acme.c", 90,
	  "space required after that ','", "\tfoo(a,b);"),
	F(2, "SPACING", "ERROR", "style", "drivers/leds/leds-acme.c", 95,
	  "space required after that ','", "\tfoo(a,b);"),
	F(3, "TRAILING_WHITESPACE", "ERROR", "style", "drivers/leds/Kconfig", 7,
	  "trailing whitespace", "\tdepends on OF "),
};

static const struct compose_finding v2_findings[] = {
	/* the same line, moved and re-indented: still there */
	F(2, "SPACING", "ERROR", "style", "drivers/leds/leds-acme.c", 101,
	  "space required after that ','", "    foo(a,b);  "),
	F(3, "TRAILING_WHITESPACE", "ERROR", "style", "drivers/leds/Kconfig", 9,
	  "trailing whitespace", "\tdepends on OF "),
	/* new */
	F(2, "UAPI_SYSFS_UNDOCUMENTED", "WARNING", "uapi", "drivers/leds/leds-acme.c", 60,
	  "sysfs attributes added without a Documentation/ABI/ entry: blink",
	  "static DEVICE_ATTR_RW(blink);"),
};

static const struct compose_finding question_findings[] = {
	F(1, "STRING_COPY_CHECK", "WARNING", "correctness", "drivers/leds/leds-acme.c", 70,
	  "check that what strcat() writes always fits 'led->label'", "\tstrcat(led->label, color);"),
	F(1, "ALLOC_SIZE_CHECK", "WARNING", "correctness", "drivers/leds/leds-acme.c", 80,
	  "check that the count in kzalloc() size 'n * m' cannot be large enough to wrap",
	  "\tp = kzalloc(n * m, GFP_KERNEL);"),
	F(1, "USE_SYSFS_EMIT", "WARNING", "style", "drivers/leds/leds-acme.c", 90,
	  "sprintf() into the sysfs show() buffer 'buf': use sysfs_emit()",
	  "\treturn sprintf(buf, \"%u\\n\", x);"),
	F(1, "UAPI_SYSFS", "WARNING", "uapi", "drivers/leds/leds-acme.c", 100,
	  "new sysfs attributes 'a', 'b': ABI", "static DEVICE_ATTR_RW(a);"),
	F(1, "UNKNOWN_COMMIT_ID", "WARNING", "process", NULL, 0,
	  "Unknown commit id '0123456789ab', maybe rebased or not pulled?", NULL),
	F(1, "FILE_PATH_CHANGES", "WARNING", "process", NULL, 0,
	  "added, moved or deleted file(s), does MAINTAINERS need updating?", NULL),
	F(1, "NEW_FILE_NO_MAINTAINERS", "CHECK", "process", NULL, 0,
	  "New files (drivers/leds/leds-acme.c) without a MAINTAINERS change", NULL),
	F(1, "ALLOC_WITH_MULTIPLY", "WARNING", "correctness", "drivers/leds/leds-acme.c", 110,
	  "Prefer kcalloc over kzalloc with multiply", "\tq = kzalloc(req.n * sizeof(*q), GFP_KERNEL);"),
	F(1, "ALLOC_SIZE_OVERFLOW", "WARNING", "security", "drivers/leds/leds-acme.c", 110,
	  "kzalloc() size 'req.n * sizeof(*q)' multiplies 'req.n', which comes from user space",
	  "\tq = kzalloc(req.n * sizeof(*q), GFP_KERNEL);"),
	F(1, "STRCPY", "WARNING", "correctness", "drivers/leds/leds-acme.c", 120,
	  "Prefer strscpy over strcpy - see: https://github.com/KSPP/linux/issues/88",
	  "\tstrcpy(led->name, \"acme\");"),
	F(1, "STRING_FUNC_DEPRECATED", "WARNING", "style", "drivers/leds/leds-acme.c", 120,
	  "strcpy() of a string that fits 'led->name': use strscpy()",
	  "\tstrcpy(led->name, \"acme\");"),
	F(1, "STRCPY", "WARNING", "correctness", "drivers/leds/leds-acme.c", 130,
	  "Prefer strscpy over strcpy - see: https://github.com/KSPP/linux/issues/88",
	  "\tstrcpy(led->alt, \"acme\");"),
};

static void test_compose__questions_under_correctness_and_each_concern_once(void **state)
{
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;

	(void)state;
	base(&r);
	r.subject = "[PATCH] leds: add acme driver";
	r.total = 1;
	r.patches = 1;
	r.findings = question_findings;
	r.nfindings = sizeof(question_findings) / sizeof(question_findings[0]);
	compose_ok(&r, &m, &st);
	/* the questions are no concern: the one certain finding is */
	assert_non_null(strstr(m.buf, "  security:              concern (1 finding below)\n"));
	assert_non_null(strstr(m.buf, "\nCorrectness\n"));
	assert_true(strstr(m.buf, "\nCorrectness\n") < strstr(m.buf, "check that what strcat()"));
	assert_true(strstr(m.buf, "\nCorrectness\n") < strstr(m.buf, "check that the count"));
	/* Security holds the certain finding alone, then comes uapi */
	assert_true(strstr(m.buf, "\nSecurity\n") < strstr(m.buf, "(ALLOC_SIZE_OVERFLOW)"));
	assert_true(strstr(m.buf, "(ALLOC_SIZE_OVERFLOW)") < strstr(m.buf, "\nUser-space interface"));
	assert_true(strstr(m.buf, "\nUser-space interface") < strstr(m.buf, "\nCorrectness\n"));
	/* the right advice for sysfs, folded with the nits */
	assert_non_null(strstr(m.buf, "  USE_SYSFS_EMIT          1  at drivers/leds/leds-acme.c:90\n"));
	/* no tree, so no "Unknown commit id"; FILE_PATH_CHANGES says what
	 * NEW_FILE_NO_MAINTAINERS says; ALLOC_WITH_MULTIPLY what
	 * ALLOC_SIZE_OVERFLOW says on the same line */
	assert_null(strstr(m.buf, "Unknown commit id"));
	assert_null(strstr(m.buf, "FILE_PATH_CHANGES"));
	assert_non_null(strstr(m.buf, "(NEW_FILE_NO_MAINTAINERS)"));
	assert_null(strstr(m.buf, "ALLOC_WITH_MULTIPLY"));
	/* checkpatch.pl's STRCPY only where reviewbot says nothing of the copy */
	assert_non_null(strstr(m.buf, "STRING_FUNC_DEPRECATED  1  at drivers/leds/leds-acme.c:120\n"));
	assert_null(strstr(m.buf, "leds-acme.c:120: WARNING: Prefer strscpy"));
	assert_non_null(strstr(m.buf, "leds-acme.c:130: WARNING: Prefer strscpy"));
	assert_int_equal(st.shown, 6);
	assert_int_equal(st.nits, 2);
	sbuf_release(&m);
}

static void test_compose__v2_fixed_new_and_still(void **state)
{
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;

	(void)state;
	base(&r);
	r.subject = "[PATCH v2 0/3] leds: add acme driver";
	r.version = 2;
	r.prev_version = 1;
	r.findings = v2_findings;
	r.nfindings = 3;
	r.prev = v1_findings;
	r.nprev = 5;
	compose_ok(&r, &m, &st);
	assert_int_equal(st.fixed, 3);
	assert_int_equal(st.added, 1);
	assert_int_equal(st.still, 2);
	assert_non_null(strstr(m.buf, "Since v1: 3 fixed, 1 new, 2 still there.\n"
		"  fixed: USER_COPY_UNCHECKED in drivers/leds/leds-acme.c\n"
		"  fixed: LONG_LINE in drivers/leds/leds-acme.c\n"
		"  fixed: SPACING in drivers/leds/leds-acme.c\n"
		"  new:   UAPI_SYSFS_UNDOCUMENTED in drivers/leds/leds-acme.c\n"));
	assert_non_null(strstr(m.buf, "[PATCH 2/3] drivers/leds/leds-acme.c:60: WARNING:"));
	golden("since_v2", &m);
	sbuf_release(&m);

	/* all fixed: the short review, still saying what changed */
	r.findings = NULL;
	r.nfindings = 0;
	compose_ok(&r, &m, &st);
	assert_int_equal(st.clean, 1);
	assert_int_equal(st.fixed, 5);
	assert_non_null(strstr(m.buf, "found nothing to report"));
	assert_non_null(strstr(m.buf, "\n\nSince v1: 5 fixed, 0 new, 0 still there.\n"
		"  fixed: USER_COPY_UNCHECKED in drivers/leds/leds-acme.c\n"
		"  fixed: LONG_LINE in drivers/leds/leds-acme.c\n"
		"  fixed: SPACING in drivers/leds/leds-acme.c (2 times)\n"
		"  fixed: TRAILING_WHITESPACE in drivers/leds/Kconfig\n\n-- \n"));
	sbuf_release(&m);

	/* an edited line with the same problem is still there, not fixed
	 * and new: the same type in the same file */
	{
		struct compose_finding a = v1_findings[1], b = v1_findings[1];

		a.line_text = "\tcopy_from_user(&req, argp, sizeof(req));";
		a.line = 130;
		r.findings = &a;
		r.nfindings = 1;
		r.prev = &b;
		r.nprev = 1;
		compose_ok(&r, &m, &st);
		assert_int_equal(st.still, 1);
		assert_int_equal(st.fixed, 0);
		assert_int_equal(st.added, 0);
		sbuf_release(&m);
	}

	/* the store's own fingerprints are used when given */
	{
		struct compose_finding a = v2_findings[0], b = v1_findings[0];

		a.fingerprint = "same";
		b.fingerprint = "same";
		r.findings = &a;
		r.nfindings = 1;
		r.prev = &b;
		r.nprev = 1;
		compose_ok(&r, &m, &st);
		assert_int_equal(st.still, 1);
		assert_int_equal(st.fixed, 0);
		assert_int_equal(st.added, 0);
		sbuf_release(&m);
	}
}

/* Decodes an unfolded header value with the checker's RFC 2047 decoder. */
static void assert_decodes_to(const char *value, const char *want)
{
	struct sbuf d;

	sbuf_init(&d, 1 << 16);
	assert_true(rfc2047_decode(value, strlen(value), RFC2047_UTF8, &d) >= 0);
	assert_string_equal(d.buf, want);
	sbuf_release(&d);
}

static void test_compose__non_ascii_names_and_subject_are_encoded(void **state)
{
	static const struct compose_addr cc[] = {
		{ "Doe, John", "john@example.com" },
		{ "Bob \"the builder\" Smith", "bob@example.com" },
		{ NULL, "linux-leds@vger.kernel.org" },
	};
	static const char subj[] =
		"[PATCH] leds: add driver for the \xc5\x81\xc3\xb3""d\xc5\xba board "
		"\xe2\x98\x83 with a subject long enough to need several encoded words";
	/* body text is UTF-8: a bad byte or a control in code is U+FFFD */
	static const struct compose_finding f[] = {
		F(1, "AVOID_BUG", "WARNING", "correctness", "drivers/leds/leds-\xc5\x82\xc3\xb3""d\xc5\xba.c",
		  5, "BUG_ON() in caf\xc3\xa9 code", "\t/* caf\xc3\xa9 \xff\x01 */\r"),
	};
	struct compose_review r;
	struct sbuf m;
	char *v;

	(void)state;
	base(&r);
	r.findings = f;
	r.nfindings = 1;
	r.to.name = "Rafa\xc5\x82 Mi\xc5\x82""ecki";
	r.to.addr = "rafal@example.com";
	r.subject = subj;
	r.total = 1;
	r.cc = cc;
	r.ncc = 3;
	compose_ok(&r, &m, NULL);

	assert_non_null(strstr(m.buf, "\n    +\t/* caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd */\n"));
	assert_non_null(strstr(m.buf, "drivers/leds/leds-\xc5\x82\xc3\xb3""d\xc5\xba.c:5: WARNING: BUG_ON() in caf\xc3\xa9 code"));
	v = header(&m, "Subject");
	assert_non_null(v);
	assert_memory_equal(v, "Re: =?UTF-8?B?", 14);
	{
		char want[512];

		snprintf(want, sizeof(want), "Re: %s", subj);
		assert_decodes_to(v, want);
	}
	free(v);
	v = header(&m, "To");
	assert_decodes_to(v, "Rafa\xc5\x82 Mi\xc5\x82""ecki <rafal@example.com>");
	free(v);
	v = header(&m, "Cc");
	assert_string_equal(v, "\"Doe, John\" <john@example.com>, \"Bob \\\"the builder\\\" Smith\""
			    " <bob@example.com>, linux-leds@vger.kernel.org");
	free(v);
	/* every encoded word within 75 characters */
	{
		const char *p = m.buf;

		while ((p = strstr(p, "=?UTF-8?B?"))) {
			const char *e = strstr(p + 10, "?=");

			assert_non_null(e);
			assert_true(e + 2 - p <= 75);
			p = e + 2;
		}
	}
	golden("non_ascii", &m);
	sbuf_release(&m);
}

static void test_compose__header_injection_stays_one_header(void **state)
{
	static const struct compose_addr cc[] = {
		{ "x", "a@b>, evil@example.net" },	/* not an address: left out */
		{ "Mallory\r\nBcc: m@example.net", "list@example.org" },
	};
	struct compose_review r;
	struct sbuf m;
	char *v;

	(void)state;
	base(&r);
	r.subject = "[PATCH] x\r\nBcc: victim@example.org\r\n\r\nbody\x1b[2J";
	r.to.name = "Eve\nBcc: eve2@example.net";
	r.to.addr = "eve@example.com";
	r.in_reply_to = "abc@x>\r\nBcc: y@example.net";
	r.references = (const char *const[]){ "ok@example.com", "bad id@x" };
	r.nreferences = 2;
	r.cc = cc;
	r.ncc = 2;
	compose_ok(&r, &m, NULL);
	assert_int_equal(count_lines_starting(&m, "Bcc:", 1), 0);
	assert_int_equal(count_lines_starting(&m, "Subject:", 1), 1);
	v = header(&m, "Subject");
	assert_string_equal(v, "Re: [PATCH] x Bcc: victim@example.org body [2J");
	free(v);
	v = header(&m, "To");
	assert_string_equal(v, "\"Eve Bcc: eve2@example.net\" <eve@example.com>");
	free(v);
	v = header(&m, "Cc");
	assert_string_equal(v, "\"Mallory Bcc: m@example.net\" <list@example.org>");
	free(v);
	assert_null(header(&m, "In-Reply-To"));
	v = header(&m, "References");
	assert_string_equal(v, "<ok@example.com>");
	free(v);
	golden("injection", &m);
	sbuf_release(&m);
}

static void test_compose__many_references_are_folded_and_trimmed(void **state)
{
	enum { N = 2000 };
	struct compose_review r;
	struct sbuf m;
	char **refs, *v;
	size_t i, k = 0;
	const char *p;

	(void)state;
	refs = calloc(N, sizeof(*refs));
	assert_non_null(refs);
	for (i = 0; i < N; i++) {
		refs[i] = malloc(64);
		assert_non_null(refs[i]);
		snprintf(refs[i], 64, "<%zu.thread@example.com>", i);
	}
	base(&r);
	r.references = (const char *const *)refs;
	r.nreferences = N;
	compose_ok(&r, &m, NULL);	/* folded within 78 columns */
	v = header(&m, "References");
	for (p = v; (p = strchr(p, '<')); p++)
		k++;
	assert_int_equal(k, 21);
	assert_memory_equal(v, "<0.thread@example.com> <1981.thread@example.com>", 48);
	assert_non_null(strstr(v, "<1999.thread@example.com> "
			       "<20240102093000.1234-1-jane@example.com>"));
	free(v);
	golden("references", &m);
	sbuf_release(&m);
	for (i = 0; i < N; i++)
		free(refs[i]);
	free(refs);
}

static void test_compose__long_text_wraps_and_code_stays_whole(void **state)
{
	static const char code[] =
		"\t\t\tif (acme_read_register(priv, ACME_REG_STATUS, &status) < 0 && retries-- > 0)";
	const struct compose_finding f[] = {
		F(2, "AVOID_BUG", "WARNING", "correctness", "drivers/leds/leds-acme.c", 150,
		  "Do not crash the kernel unless it is absolutely unavoidable--use "
		  "WARN_ON_ONCE() plus recovery code (if feasible) instead of BUG() or "
		  "variants, and think twice about the words of this message, which "
		  "is long on purpose so that it wraps more than once",
		  code),
		F(3, "COMMIT_MESSAGE_TYPO", "WARNING", "unheard-of", NULL, 3,
		  "a type and a category nobody knows: shown under Correctness",
		  NULL),
	};
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;
	char want[256];

	(void)state;
	base(&r);
	r.subject = "[PATCH 0/3] leds: add acme driver, with a cover letter subject that "
		    "is much longer than anyone would sensibly write it";
	r.findings = f;
	r.nfindings = 2;
	r.compiles_note = "no build stage yet";
	compose_ok(&r, &m, &st);
	assert_int_equal(st.shown, 2);
	snprintf(want, sizeof(want), "\n    +%s\n", code);
	assert_non_null(strstr(m.buf, want));
	assert_non_null(strstr(m.buf, "  compiles:              not checked (no build stage yet)\n"));
	assert_non_null(strstr(m.buf, "  #2 [PATCH 3/3] commit message:3: WARNING: a type"));
	golden("wrap", &m);
	sbuf_release(&m);
}

static void test_compose__sections_show_at_most_max_then_say_how_many_more(void **state)
{
	struct compose_finding f[COMPOSE_MAX_SHOWN + 10];
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;
	char want[64];
	size_t i;

	(void)state;
	for (i = 0; i < COMPOSE_MAX_SHOWN + 10; i++) {
		struct compose_finding x = F(1, "USER_COPY_UNCHECKED", "WARNING", "security",
					     "drivers/x.c", (long)i + 1, "thrown away", NULL);
		f[i] = x;
	}
	base(&r);
	r.findings = f;
	r.nfindings = COMPOSE_MAX_SHOWN + 10;
	compose_ok(&r, &m, &st);
	assert_int_equal(st.shown, COMPOSE_MAX_SHOWN);
	assert_non_null(strstr(m.buf, "  ... and 10 more\n"));
	snprintf(want, sizeof(want), "drivers/x.c:%d:", COMPOSE_MAX_SHOWN);
	assert_non_null(strstr(m.buf, want));
	snprintf(want, sizeof(want), "drivers/x.c:%d:", COMPOSE_MAX_SHOWN + 1);
	assert_null(strstr(m.buf, want));
	assert_non_null(strstr(m.buf, "concern (60 findings below)"));
	sbuf_release(&m);
}

/* The listed findings are numbered in the order shown, across sections;
 * cover gives back every finding with an id the mail covers, and its
 * number (0: counted with the nits, or past COMPOSE_MAX_SHOWN). */
static void test_compose__findings_numbered_and_covered(void **state)
{
	struct compose_finding f[COMPOSE_MAX_SHOWN + 4];
	struct compose_cover cover[COMPOSE_MAX_SHOWN + 4];
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;
	char want[96];
	size_t i;

	(void)state;
	for (i = 0; i < COMPOSE_MAX_SHOWN + 1; i++) {
		struct compose_finding x = F(1, "STYLE_ERR_X", "ERROR", "style",
					     "drivers/x.c", (long)i + 10, "an error", NULL);
		x.id = 100 + (int64_t)i;
		f[i] = x;
	}
	{
		struct compose_finding sec = F(2, "USER_COPY_UNCHECKED", "WARNING", "security",
					       "drivers/x.c", 5, "thrown away", NULL);
		struct compose_finding nit = F(1, "LONG_LINE", "WARNING", "style",
					       "drivers/x.c", 7, "long", NULL);
		struct compose_finding noid = F(1, "AVOID_BUG", "WARNING", "correctness",
						"drivers/x.c", 8, "bug", NULL);

		sec.id = 7;
		nit.id = 8;
		f[COMPOSE_MAX_SHOWN + 1] = sec;
		f[COMPOSE_MAX_SHOWN + 2] = nit;
		f[COMPOSE_MAX_SHOWN + 3] = noid;
	}
	base(&r);
	r.findings = f;
	r.nfindings = COMPOSE_MAX_SHOWN + 4;
	r.cover = cover;
	compose_ok(&r, &m, &st);
	/* security first, then correctness (no id), then the style errors */
	assert_non_null(strstr(m.buf, "\n  #1 [PATCH 2/3] drivers/x.c:5: WARNING: thrown away"));
	assert_non_null(strstr(m.buf, "\n  #2 [PATCH 1/3] drivers/x.c:8: WARNING: bug"));
	assert_non_null(strstr(m.buf, "\n  #3 [PATCH 1/3] drivers/x.c:10: ERROR: an error"));
	snprintf(want, sizeof(want), "\n  #%d [PATCH 1/3] drivers/x.c:%d: ERROR",
		 COMPOSE_MAX_SHOWN + 2, COMPOSE_MAX_SHOWN + 9);
	assert_non_null(strstr(m.buf, want));
	snprintf(want, sizeof(want), "#%d ", COMPOSE_MAX_SHOWN + 3);
	assert_null(strstr(m.buf, want));
	assert_int_equal(st.shown, COMPOSE_MAX_SHOWN + 2);
	/* all but the one without an id, in the order given */
	assert_int_equal(st.ncover, COMPOSE_MAX_SHOWN + 3);
	assert_int_equal(cover[0].id, 100);
	assert_int_equal(cover[0].num, 3);
	assert_int_equal(cover[COMPOSE_MAX_SHOWN - 1].num, COMPOSE_MAX_SHOWN + 2);
	assert_int_equal(cover[COMPOSE_MAX_SHOWN].id, 100 + COMPOSE_MAX_SHOWN);
	assert_int_equal(cover[COMPOSE_MAX_SHOWN].num, 0);	/* "... and 1 more" */
	assert_int_equal(cover[COMPOSE_MAX_SHOWN + 1].id, 7);
	assert_int_equal(cover[COMPOSE_MAX_SHOWN + 1].num, 1);
	assert_int_equal(cover[COMPOSE_MAX_SHOWN + 2].id, 8);
	assert_int_equal(cover[COMPOSE_MAX_SHOWN + 2].num, 0);	/* a nit */
	sbuf_release(&m);
}

/* A type the list's maintainers demoted is a nit there: not listed, no
 * concern, named once in the footer; the other findings are as before. */
static void test_compose__demoted_type_counted_with_nits(void **state)
{
	static const char *const demoted[] = { "UAPI_IOCTL", "USER_COPY_UNCHECKED", "NOT_HERE" };
	struct compose_cover cover[32];
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;
	size_t i;

	(void)state;
	base(&r);
	r.findings = one_patch_findings;
	r.nfindings = sizeof(one_patch_findings) / sizeof(one_patch_findings[0]);
	r.total = 1;
	r.patches = 1;
	r.demoted = demoted;
	r.ndemoted = 3;
	r.cover = cover;
	compose_ok(&r, &m, &st);
	assert_int_equal(st.demoted, 2);
	assert_non_null(strstr(m.buf, "  security:              no finding in the patch text (not built)\n"));
	/* the handler's finding still says so */
	assert_non_null(strstr(m.buf, "  user-space interface:  concern (1 finding below)\n"));
	assert_null(strstr(m.buf, "(USER_COPY_UNCHECKED)"));
	assert_null(strstr(m.buf, "(UAPI_IOCTL)"));
	assert_non_null(strstr(m.buf, "  #1 drivers/leds/leds-acme.c:200: WARNING: new .unlocked_ioctl"));
	assert_non_null(strstr(m.buf, "Style nits: 6 (counted by type"));
	assert_non_null(strstr(m.buf, "\n  USER_COPY_UNCHECKED  1  at "));
	assert_non_null(strstr(m.buf, "\n  UAPI_IOCTL           1  at "));
	assert_non_null(strstr(m.buf, "\nCounted with the nits on this list, as its maintainers answered\n"
			       "\"false-positive\" to them: UAPI_IOCTL, USER_COPY_UNCHECKED.\n"));
	assert_null(strstr(m.buf, "NOT_HERE"));
	/* no id in these findings: nothing covered */
	assert_int_equal(st.ncover, 0);
	sbuf_release(&m);

	/* without the list's word, the same mail as before */
	r.ndemoted = 0;
	compose_ok(&r, &m, &st);
	assert_int_equal(st.demoted, 0);
	assert_non_null(strstr(m.buf, "  security:              concern (1 finding below)\n"));
	assert_null(strstr(m.buf, "Counted with the nits"));
	for (i = 0; i < 2; i++)
		assert_non_null(strstr(m.buf, i ? "(UAPI_IOCTL)" : "(USER_COPY_UNCHECKED)"));
	sbuf_release(&m);
}

/* The answer to false-positive: to the sender alone, auto-replied,
 * threaded under the command, its paragraphs cleaned and wrapped. */
static void test_compose__feedback_answer(void **state)
{
	static const char *const refs[] = { "p1@x", "review-1@example.org" };
	struct compose_feedback f;
	struct sbuf m;
	char err[256] = "";
	char *v;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.head.bot.name = "reviewbot";
	f.head.bot.addr = "reviewbot@example.org";
	f.head.bot_version = "0.1.0";
	f.head.to.name = "Anne";
	f.head.to.addr = "anne@example.com";
	f.head.subject = "Re: [PATCH] leds: x";
	f.head.in_reply_to = "fp1@anne";
	f.head.references = refs;
	f.head.nreferences = 2;
	f.command = "false-positive #1";
	f.result = "Recorded: finding #1 of the review (USER_COPY_UNCHECKED) is disputed"
		   " by anne@example.com, with the reason given.\r\nBcc: evil@example.net";
	f.head.date = DATE_2024_01_02;
	f.head.message_id = "reviewbot-0123456789abcdef@example.org";
	sbuf_init(&m, COMPOSE_MAX_MAIL);
	if (compose_feedback_mail(tset, &f, &m, err, sizeof(err)))
		fail_msg("compose: %s", err);
	check_shape(&m);
	v = header(&m, "To");
	assert_string_equal(v, "Anne <anne@example.com>");
	free(v);
	assert_null(header(&m, "Cc"));
	assert_null(header(&m, "Bcc"));
	v = header(&m, "Auto-Submitted");
	assert_string_equal(v, "auto-replied");
	free(v);
	v = header(&m, "In-Reply-To");
	assert_string_equal(v, "<fp1@anne>");
	free(v);
	assert_non_null(strstr(m.buf, "\n\nreviewbot received \"false-positive #1\" from"
			       " anne@example.com.\n\nRecorded: finding #1 of the review"
			       " (USER_COPY_UNCHECKED) is disputed by\nanne@example.com, with the reason given. Bcc: evil"));
	/* the control characters are gone: no line of its own */
	assert_null(strstr(m.buf, "\nBcc:"));
	assert_null(strstr(m.buf, "As a maintainer"));
	f.note = "As a maintainer of linux-leds@vger.kernel.org, your word counts.";
	if (compose_feedback_mail(tset, &f, &m, err, sizeof(err)))
		fail_msg("compose: %s", err);
	assert_non_null(strstr(m.buf, "evil@example.net\n\nAs a maintainer of linux-leds@vger.kernel.org,"
			       " your word counts.\n\n-- \n"));
	f.result = NULL;
	assert_int_equal(compose_feedback_mail(tset, &f, &m, err, sizeof(err)), -1);
	assert_int_equal(m.len, 0);
	sbuf_release(&m);
}

static void test_compose__re_once_and_recipients_deduplicated(void **state)
{
	static const struct compose_addr cc[] = {
		{ NULL, "linux-leds@vger.kernel.org" },
		{ "Jane", "JANE@example.com" },
		{ NULL, "reviewbot@example.org" },
		{ "The list", "<linux-leds@vger.kernel.org>" },
	};
	struct compose_review r;
	struct sbuf m;
	char *v;

	(void)state;
	base(&r);
	r.subject = "RE: [PATCH 0/3] leds: add acme driver";
	r.cc = cc;
	r.ncc = 4;
	compose_ok(&r, &m, NULL);
	v = header(&m, "Subject");
	assert_string_equal(v, "RE: [PATCH 0/3] leds: add acme driver");
	free(v);
	v = header(&m, "Cc");
	assert_string_equal(v, "linux-leds@vger.kernel.org");
	free(v);
	assert_true(compose_address_ok(" <JANE@example.com> "));
	assert_false(compose_address_ok("a@b>, evil@example.net"));
	assert_false(compose_address_ok("\"quoted local\"@example.com"));
	assert_false(compose_address_ok("no-at-sign"));
	assert_false(compose_address_ok(NULL));
	v = header(&m, "Date");
	assert_string_equal(v, "Tue, 02 Jan 2024 10:00:00 +0000");
	free(v);
	v = header(&m, "Auto-Submitted");
	assert_string_equal(v, "auto-generated");
	free(v);
	sbuf_release(&m);
}

static void test_compose__errors_and_the_size_cap(void **state)
{
	struct compose_review r;
	struct compose_addr *cc;
	struct sbuf m;
	char err[256];
	size_t i;

	(void)state;
	sbuf_init(&m, COMPOSE_MAX_MAIL);
	base(&r);
	r.to.addr = "not an address";
	assert_int_equal(compose_review_mail(tset, &r, &m, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "bad recipient address");
	assert_int_equal(m.len, 0);

	/* 5000 long Cc addresses pass a megabyte */
	cc = calloc(5000, sizeof(*cc));
	assert_non_null(cc);
	for (i = 0; i < 5000; i++) {
		char *a = malloc(256);

		assert_non_null(a);
		memset(a, 'a', 240);
		snprintf(a + 240, 16, "%zu@x.org", i);
		cc[i].addr = a;
	}
	base(&r);
	r.cc = cc;
	r.ncc = 5000;
	assert_int_equal(compose_review_mail(tset, &r, &m, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "review mail larger than 1048576 bytes");
	assert_int_equal(m.len, 0);
	for (i = 0; i < 5000; i++)
		free((char *)cc[i].addr);
	free(cc);
	sbuf_release(&m);
}

/* A review before the stages end says "pending"; the follow-up, from
 * followup.txt, gives their verdicts and findings only. */
static void test_compose__pending_stages_and_the_followup(void **state)
{
	static const struct compose_finding stage_f[] = {
		F(1, "COMPILE_ERROR", "ERROR", "correctness", "drivers/leds/leds-acme.c", 12,
		  "'foo' undeclared (first use in this function)", "\treturn foo;"),
	};
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;

	(void)state;
	base(&r);
	r.compiles_pending = 1;
	r.works_pending = 1;
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf, "compiles:              pending (the results will follow in a reply)"));
	assert_non_null(strstr(m.buf, "seems to work:         pending (the results will follow in a reply)"));
	/* pending is not clean: the full review, with its checklist */
	assert_non_null(strstr(m.buf, "Merge readiness"));
	sbuf_release(&m);

	base(&r);
	r.followup = 1;
	r.in_reply_to = "reviewbot-0123456789abcdef@example.org";
	r.message_id = "reviewbot-fedcba9876543210@example.org";
	r.findings = stage_f;
	r.nfindings = 1;
	r.compiles_state = 1 + CHK_READY_CONCERN;
	r.works_state = 1 + CHK_READY_OK;
	r.works_note = "loads and unloads cleanly in QEMU (no hardware present)";
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf, "have\nfinished since the review above."));
	assert_non_null(strstr(m.buf, "compiles:              concern"));
	assert_non_null(strstr(m.buf, "seems to work:         ok (loads and unloads cleanly"));
	assert_non_null(strstr(m.buf, "COMPILE_ERROR"));
	assert_non_null(strstr(m.buf, "In-Reply-To: <reviewbot-0123456789abcdef@example.org>"));
	assert_null(strstr(m.buf, "Merge readiness"));
	assert_null(strstr(m.buf, "Style nits"));
	sbuf_release(&m);
}

static void test_compose__message_id_is_deterministic(void **state)
{
	char a[256], b[256];
	size_t i;

	(void)state;
	compose_message_id(NULL, "x@example.com", 2, 0, "bot@example.org", a, sizeof(a));
	compose_message_id(NULL, "<x@example.com>", 2, 0, "Bot <bot@example.org>", b, sizeof(b));
	assert_string_equal(a, b);
	assert_int_equal(strlen(a), strlen("reviewbot-0123456789abcdef@example.org"));
	assert_memory_equal(a, "reviewbot-", 10);
	for (i = 10; i < 26; i++)
		assert_non_null(strchr("0123456789abcdef", a[i]));
	assert_string_equal(a + 26, "@example.org");
	compose_message_id(NULL, "x@example.com", 3, 0, "bot@example.org", b, sizeof(b));
	assert_string_not_equal(a, b);
	compose_message_id(NULL, "x@example.com", 2, 1, "bot@example.org", b, sizeof(b));
	assert_string_not_equal(a, b);
	compose_message_id(NULL, "y@example.com", 2, 0, "bot@example.org", b, sizeof(b));
	assert_string_not_equal(a, b);
	/* the domain sanitized; none at all is localhost */
	compose_message_id(NULL, "x@example.com", 2, 0, "bot@ex ample..org.>\r\n", b, sizeof(b));
	assert_string_equal(b + 26, "@example.org");
	compose_message_id(NULL, "x@example.com", 2, 0, "bot", b, sizeof(b));
	assert_string_equal(b + 26, "@localhost");
	compose_message_id(NULL, NULL, 1, 0, NULL, b, sizeof(b));
	assert_string_equal(b + 26, "@localhost");

	/* the mail uses it when no message_id is given */
	{
		struct compose_review r;
		struct sbuf m;
		char want[300];

		base(&r);
		compose_ok(&r, &m, NULL);
		compose_message_id(NULL, r.in_reply_to, 1, 0, r.bot.addr, a, sizeof(a));
		snprintf(want, sizeof(want), "\nMessage-ID: <%s>\n", a);
		assert_non_null(strstr(m.buf, want));
		sbuf_release(&m);
		r.message_id = "given@example.org";
		compose_ok(&r, &m, NULL);
		assert_non_null(strstr(m.buf, "\nMessage-ID: <given@example.org>\n"));
		sbuf_release(&m);
	}
}

/*
 * Issue 33: a review's Message-ID was a fixed hash of the patch's, so
 * anyone could answer a review before it was mailed ("false-positive"
 * In-Reply-To it).  Under the installation's key it is SipHash-2-4:
 * the same key gives the same id (threading, a resend recognised),
 * another key another id, and neither is the unkeyed hash.
 */
static void test_compose__message_id_needs_the_installation_key(void **state)
{
	struct secret_key k1, k2;
	struct secret_siphash h;
	unsigned char msg[15];
	char plain[256], a[256], b[256], c[256];
	size_t i;

	(void)state;
	/* SipHash-2-4's reference vector: key 00..0f, message 00..0e */
	for (i = 0; i < sizeof(k1.k); i++)
		k1.k[i] = (unsigned char)i;
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (unsigned char)i;
	secret_siphash_init(&h, &k1);
	secret_siphash_add(&h, msg, 7);
	secret_siphash_add(&h, msg + 7, 8);
	assert_true(secret_siphash_final(&h) == 0xa129ca6149be45e5ULL);
	secret_siphash_init(&h, &k1);
	assert_true(secret_siphash_final(&h) == 0x726fdb47dd0e0e31ULL);

	memset(&k2, 0, sizeof(k2));
	k2.k[0] = 1;
	compose_message_id(NULL, "x@example.com", 1, 0, "bot@example.org", plain, sizeof(plain));
	compose_message_id(&k1, "x@example.com", 1, 0, "bot@example.org", a, sizeof(a));
	compose_message_id(&k1, "<x@example.com>", 1, 0, "bot@example.org", b, sizeof(b));
	compose_message_id(&k2, "x@example.com", 1, 0, "bot@example.org", c, sizeof(c));
	assert_string_equal(a, b);
	assert_string_not_equal(a, plain);
	assert_string_not_equal(a, c);
	assert_int_equal(strlen(a), strlen(plain));
	assert_memory_equal(a, "reviewbot-", 10);
	assert_string_equal(a + 26, "@example.org");
	compose_message_id(&k1, "x@example.com", 2, 0, "bot@example.org", b, sizeof(b));
	assert_string_not_equal(a, b);
}

/*
 * No line of the body is one `b4 am -S` takes as a trailer for the
 * commit: "token: ...@..." or "Fixes: ..." (issue 21: the quoted subject
 * of a "mailmap:" patch wrapped so that "mailmap: map a@b" began a line;
 * a file named with an address under "Since v1").
 */
static void test_compose__no_body_line_is_a_b4_trailer(void **state)
{
	static const struct compose_finding now[] = {
		F(1, "TRAILING_WHITESPACE", "ERROR", "style", "x@example.org", 2,
		  "trailing whitespace", "Jane <jane@example.org> "),
	};
	static const struct compose_finding before[] = {
		F(1, "LONG_LINE", "WARNING", "style", "drivers/jane@example.org/a.c", 9,
		  "line length of 101 exceeds 100 columns", "\tfoo();"),
		F(1, "TRAILING_WHITESPACE", "ERROR", "style", "x@example.org", 2,
		  "trailing whitespace", "Jane <jane@example.org> "),
	};
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;
	const char *p, *e;

	(void)state;
	base(&r);
	r.subject = "[PATCH net-next v3] mailmap: map jane@old.example.org to her new address";
	r.total = 1;
	r.patches = 1;
	r.version = 3;
	r.prev_version = 2;
	r.findings = now;
	r.nfindings = 1;
	r.prev = before;
	r.nprev = 2;
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf, "\"[PATCH net-next\nv3] mailmap: map"));
	assert_non_null(strstr(m.buf, "\n  - fixed: LONG_LINE in drivers/jane@example.org/a.c\n"));
	/* b4 leaves "x@example.org:2: ERROR: ..." (no address after the
	 * token), the findings' code and the checklist: unchanged */
	assert_non_null(strstr(m.buf, "\n  #1 x@example.org:2: ERROR: trailing whitespace"));
	assert_non_null(strstr(m.buf, "\n    +Jane <jane@example.org>"));
	assert_non_null(strstr(m.buf, "\n  security:              no finding in the patch text (not built)\n"));
	for (p = strstr(m.buf, "\n\n"); p && strncmp(p, "\n-- \n", 5); p = e) {
		size_t w, k;

		p++;
		e = strchr(p, '\n');
		w = strspn(p, " \t");
		k = strcspn(p + w, " \t\n");
		if (k >= 3 && p[w + k - 1] == ':' && p[w + k] == ' ' &&
		    memchr(p + w + k, '@', (size_t)(e - (p + w + k))))
			fail_msg("a trailer for b4: %.*s", (int)(e - p), p);
	}
	sbuf_release(&m);
}

static void test_compose__fingerprint_ignores_place_and_blanks_only(void **state)
{
	char a[17], b[17];

	(void)state;
	compose_fingerprint("SPACING", "x.c", "\tfoo(a,b);", a, sizeof(a));
	assert_int_equal(strlen(a), 16);
	compose_fingerprint("SPACING", "x.c", "  foo(a,b);   ", b, sizeof(b));
	assert_string_equal(a, b);
	compose_fingerprint("SPACING", "x.c", "\tfoo(a,  \t b);", a, sizeof(a));
	compose_fingerprint("SPACING", "x.c", "foo(a, b);", b, sizeof(b));
	assert_string_equal(a, b);
	compose_fingerprint("SPACING", "x.c", "foo(a,b);", b, sizeof(b));
	assert_string_not_equal(a, b);	/* a space added is a change */
	compose_fingerprint("SPACING", "x.c", "foo(a,b);", a, sizeof(a));
	compose_fingerprint("LONG_LINE", "x.c", "foo(a,b);", b, sizeof(b));
	assert_string_not_equal(a, b);
	compose_fingerprint("SPACING", "y.c", "foo(a,b);", b, sizeof(b));
	assert_string_not_equal(a, b);
	compose_fingerprint("SPACING", NULL, "foo(a,b);", a, sizeof(a));
	compose_fingerprint("SPACING", "", "foo(a,b);", b, sizeof(b));
	assert_string_not_equal(a, b);
	compose_fingerprint("SPACING", "x.c", NULL, a, sizeof(a));
	compose_fingerprint("SPACING", "x.c", "", b, sizeof(b));
	assert_string_not_equal(a, b);
}

/* The mail with its wrapped lines joined again ("\n    " a space), for
 * looking for an entry whatever its wrapping. */
static char *flat(const struct sbuf *m)
{
	char *s = strdup(m->buf), *p = s;

	assert_non_null(s);
	while ((p = strstr(p, "\n    ")) != NULL) {
		size_t k;

		if (p[5] == '+') {	/* quoted code stays on its line */
			p++;
			continue;
		}
		k = strspn(p + 1, " ");
		*p = ' ';
		memmove(p + 1, p + 1 + k, strlen(p + 1 + k) + 1);
	}
	return s;
}

static int cover_num(const struct compose_cover *c, size_t n, int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i].id == id)
			return c[i].num;
	return -1;
}

/*
 * One problem, one entry (issue 35): a malformed sign-off and what it
 * gives in its patch, and the lines of one function with one type and
 * message, each listed once under one number, which names every finding
 * of the entry for "false-positive #N".
 */
static void test_compose__one_cause_and_one_function_said_once(void **state)
{
	struct compose_finding f[40];
	struct compose_cover cover[40];
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;
	size_t n = 0, i;
	char *t;

	(void)state;
#define ADD(id_, x) do { struct compose_finding y_ = x; y_.id = (id_); f[n++] = y_; } while (0)
	ADD(1, F(1, "SIGN_OFF_NOT_SENDER", "WARNING", "process", NULL, 0,
		 "last Signed-off-by: is not the sender's", NULL));
	ADD(2, F(1, "BAD_SIGN_OFF", "ERROR", "process", NULL, 0,
		 "Unrecognized email address: 'Jane Developer jane@example.com'", NULL));
	ADD(3, F(1, "NO_AUTHOR_SIGN_OFF", "ERROR", "process", NULL, 0,
		 "Missing Signed-off-by: line by nominal patch author 'Jane Developer <jane@example.com>'",
		 NULL));
	ADD(40, F(1, "MISSING_FIXES_TAG", "WARNING", "process", NULL, 0,
		  "the commit message describes a fix but has no Fixes: tag", NULL));
	/* another patch's sign-off is a problem of its own */
	ADD(4, F(2, "SIGN_OFF_NOT_SENDER", "WARNING", "process", NULL, 0,
		 "last Signed-off-by: is not the sender's", NULL));
	for (i = 0; i < 12; i++) {
		ADD(10 + (int64_t)i, F(1, "CODE_INDENT", "ERROR", "style", "drivers/x.c",
				       40 + (long)i, "code indent should use tabs where possible",
				       "        x = 1;"));
		f[n - 1].scope = 0x1111;
	}
	for (i = 0; i < 2; i++) {
		ADD(30 + (int64_t)i, F(1, "CODE_INDENT", "ERROR", "style", "drivers/x.c",
				       80 + (long)i, "code indent should use tabs where possible",
				       "        y = 1;"));
		f[n - 1].scope = 0x2222;
	}
	/* the same function, another message; and a line of no known one */
	ADD(32, F(1, "CODE_INDENT", "ERROR", "style", "drivers/x.c", 90, "another message",
		  "        z = 1;"));
	f[n - 1].scope = 0x2222;
	ADD(33, F(1, "CODE_INDENT", "ERROR", "style", "drivers/x.c", 100,
		  "code indent should use tabs where possible", "        w = 1;"));
#undef ADD
	base(&r);
	r.total = 2;
	r.patches = 2;
	r.findings = f;
	r.nfindings = n;
	r.cover = cover;
	compose_ok(&r, &m, &st);
	t = flat(&m);
	/* the process line names what blocks applying, counting entries */
	assert_non_null(strstr(t, "\n  process:               concern: the sign-off chain, a fix"
			       " without a Fixes: tag (3 findings below)\n"));
	assert_non_null(strstr(t, "\n  #1 [PATCH 1/2] commit message: ERROR: Unrecognized email"
			       " address: 'Jane Developer jane@example.com' (BAD_SIGN_OFF, which"
			       " also gives NO_AUTHOR_SIGN_OFF and SIGN_OFF_NOT_SENDER)\n"));
	assert_non_null(strstr(t, "\n  #2 [PATCH 1/2] commit message: WARNING: the commit message"));
	assert_non_null(strstr(t, "\n  #3 [PATCH 2/2] commit message: WARNING: last Signed-off-by:"));
	assert_null(strstr(t, "(NO_AUTHOR_SIGN_OFF)"));
	assert_non_null(strstr(t, "\n  #4 [PATCH 1/2] drivers/x.c lines 40-51: ERROR: code indent"
			       " should use tabs where possible (CODE_INDENT, 12 lines)\n"
			       "    +        x = 1;\n"));
	assert_non_null(strstr(t, "\n  #5 [PATCH 1/2] drivers/x.c lines 80-81: ERROR: code indent"
			       " should use tabs where possible (CODE_INDENT, 2 lines)\n"));
	assert_non_null(strstr(t, "\n  #6 [PATCH 1/2] drivers/x.c:90: ERROR: another message"));
	assert_non_null(strstr(t, "\n  #7 [PATCH 1/2] drivers/x.c:100: ERROR: code indent"));
	assert_null(strstr(t, "#8 "));
	assert_int_equal(st.shown, 7);
	assert_int_equal(st.quiet, 0);
	/* every finding covered, an entry's under its number */
	assert_int_equal(st.ncover, n);
	assert_int_equal(cover_num(cover, n, 1), 1);
	assert_int_equal(cover_num(cover, n, 2), 1);
	assert_int_equal(cover_num(cover, n, 3), 1);
	assert_int_equal(cover_num(cover, n, 40), 2);
	assert_int_equal(cover_num(cover, n, 4), 3);
	for (i = 0; i < 12; i++)
		assert_int_equal(cover_num(cover, n, 10 + (int64_t)i), 4);
	assert_int_equal(cover_num(cover, n, 30), 5);
	assert_int_equal(cover_num(cover, n, 31), 5);
	assert_int_equal(cover_num(cover, n, 32), 6);
	assert_int_equal(cover_num(cover, n, 33), 7);
	free(t);
	sbuf_release(&m);
}

/* Whether a review is worth a mail: something in Security, User-space
 * interface, Correctness or Process, or a stage's concern; style alone
 * (nits, style ERRORs) or a demoted type is not (issue 32). */
static void test_compose__quiet_unless_something_to_say(void **state)
{
	static const char *const demoted[] = { "AVOID_BUG" };
	struct compose_finding f[4] = {
		F(1, "LONG_LINE", "WARNING", "style", "drivers/x.c", 7, "long", NULL),
		F(1, "TRAILING_WHITESPACE", "ERROR", "style", "drivers/x.c", 8,
		  "trailing whitespace", "\tx; "),
		F(1, "AVOID_BUG", "WARNING", "correctness", "drivers/x.c", 9, "bug",
		  "\tBUG();"),
	};
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;

	(void)state;
	base(&r);
	compose_ok(&r, &m, &st);
	assert_true(st.clean && st.quiet);
	sbuf_release(&m);
	r.findings = f;
	r.nfindings = 2;
	compose_ok(&r, &m, &st);
	assert_true(!st.clean && st.quiet);
	sbuf_release(&m);
	r.nfindings = 3;
	compose_ok(&r, &m, &st);
	assert_false(st.quiet);
	sbuf_release(&m);
	r.demoted = demoted;
	r.ndemoted = 1;
	compose_ok(&r, &m, &st);
	assert_true(st.quiet);
	sbuf_release(&m);
	r.nfindings = 1;
	r.compiles_state = 1 + CHK_READY_CONCERN;
	r.compiles_note = "1 new error";
	compose_ok(&r, &m, &st);
	assert_false(st.quiet);
	assert_non_null(strstr(m.buf, "\n  compiles:              concern (1 new error)\n"));
	sbuf_release(&m);
}

/* The checklist says what was checked: "ok" only from a stage that ran
 * and passed, the security line "not built" until the build ran. */
static void test_compose__checklist_says_what_was_checked(void **state)
{
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;

	(void)state;
	base(&r);
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf,
		"\n  security:              no finding in the patch text (not built)\n"
		"  user-space interface:  no interface change found in the patch text\n"
		"  affects others:        no shared code changed, no driver on by default\n"
		"  maintainer:            no new file without a MAINTAINERS entry\n"
		"  compiles:              not checked (no tree)\n"
		"  seems to work:         not checked (no load test)\n\n"));
	assert_null(strstr(m.buf, ": ok"));
	assert_null(strstr(m.buf, "process:"));
	sbuf_release(&m);
	r.compiles_state = 1 + CHK_READY_OK;
	r.compiles_note = "allmodconfig, W=1: no new warning";
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf, "\n  security:              no finding in the patch text\n"));
	assert_non_null(strstr(m.buf,
		"\n  compiles:              ok (allmodconfig, W=1: no new warning)\n"));
	sbuf_release(&m);
}

/* A patch whose security findings are all the fix it makes says so in
 * its checklist; a concern of another type beside it is a concern. */
static void test_compose__security_fix_is_no_concern(void **state)
{
	struct compose_finding f[2] = {
		F(1, "SECURITY_FIX", "WARNING", "security", "drivers/x.c", 20,
		  "security fix: this check is what fixes an out-of-bounds write that the device can trigger (syzbot reported it); Fixes: and Cc: stable are there",
		  "\tif (len > sizeof(buf))"),
		F(1, "UNBOUNDED_STRING_COPY", "WARNING", "security", "drivers/x.c", 30,
		  "strcpy() writes a string of unknown length into 'name'",
		  "\tstrcpy(name, s);"),
	};
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;

	(void)state;
	base(&r);
	r.findings = f;
	r.nfindings = 1;
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf,
		"\n  security:              fixes a security bug (1 finding below)\n"));
	assert_null(strstr(m.buf, "security:              concern"));
	sbuf_release(&m);
	r.nfindings = 2;
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf,
		"\n  security:              concern (2 findings below)\n"));
	sbuf_release(&m);
}

/* The User-space interface heading says what the section holds: a
 * removed ABI is not "new ABI" (issue 32). */
static void test_compose__uapi_heading_says_what_the_section_holds(void **state)
{
	struct compose_finding f[3] = {
		F(1, "UAPI_REMOVED", "WARNING", "uapi", "drivers/x.c", 0,
		  "sysfs attribute 'mode' removed: user space may still read it", NULL),
		F(1, "UAPI_SYSFS", "WARNING", "uapi", "drivers/x.c", 10,
		  "new sysfs attributes 'blink': ABI", "static DEVICE_ATTR_RW(blink);"),
		F(1, "UAPI_HEADER", "WARNING", "uapi", "include/uapi/linux/x.h", 3,
		  "changes struct x_req: field 'len' made wider", "\t__u64 len;"),
	};
	struct compose_review r;
	struct compose_stats st;
	struct sbuf m;

	(void)state;
	base(&r);
	r.findings = f;
	r.nfindings = 1;
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf,
		"\nUser-space interface (removed ABI: does user space still use it?)\n"));
	assert_null(strstr(m.buf, "new ABI"));
	sbuf_release(&m);
	r.nfindings = 2;
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf,
		"\nUser-space interface (new and removed ABI: each needs review)\n"));
	sbuf_release(&m);
	r.findings = f + 2;
	r.nfindings = 1;
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf,
		"\nUser-space interface (changed ABI: does user space rely on it?)\n"));
	sbuf_release(&m);
	r.findings = f + 1;
	r.nfindings = 1;
	compose_ok(&r, &m, &st);
	assert_non_null(strstr(m.buf,
		"\nUser-space interface (new ABI: needs a review of its own)\n"));
	sbuf_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compose__clean_series),
		cmocka_unit_test(test_compose__one_patch_with_security_uapi_and_nits),
		cmocka_unit_test(test_compose__questions_under_correctness_and_each_concern_once),
		cmocka_unit_test(test_compose__v2_fixed_new_and_still),
		cmocka_unit_test(test_compose__non_ascii_names_and_subject_are_encoded),
		cmocka_unit_test(test_compose__header_injection_stays_one_header),
		cmocka_unit_test(test_compose__many_references_are_folded_and_trimmed),
		cmocka_unit_test(test_compose__long_text_wraps_and_code_stays_whole),
		cmocka_unit_test(test_compose__sections_show_at_most_max_then_say_how_many_more),
		cmocka_unit_test(test_compose__findings_numbered_and_covered),
		cmocka_unit_test(test_compose__demoted_type_counted_with_nits),
		cmocka_unit_test(test_compose__feedback_answer),
		cmocka_unit_test(test_compose__re_once_and_recipients_deduplicated),
		cmocka_unit_test(test_compose__errors_and_the_size_cap),
		cmocka_unit_test(test_compose__pending_stages_and_the_followup),
		cmocka_unit_test(test_compose__message_id_is_deterministic),
		cmocka_unit_test(test_compose__message_id_needs_the_installation_key),
		cmocka_unit_test(test_compose__no_body_line_is_a_b4_trailer),
		cmocka_unit_test(test_compose__fingerprint_ignores_place_and_blanks_only),
		cmocka_unit_test(test_compose__one_cause_and_one_function_said_once),
		cmocka_unit_test(test_compose__quiet_unless_something_to_say),
		cmocka_unit_test(test_compose__checklist_says_what_was_checked),
		cmocka_unit_test(test_compose__uapi_heading_says_what_the_section_holds),
		cmocka_unit_test(test_compose__security_fix_is_no_concern),
	};

	return cmocka_run_group_tests_name("compose", tests, setup, teardown);
}

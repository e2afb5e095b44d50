// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of bot/mail/mailbox.c: mbox (mboxrd and mboxo) and maildir
 * read and written, resumed where the last read stopped, oversized messages
 * skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bot/mail/mailbox.h"

#define FIXTURES "tests/data/mail/"
#define SEP "From mboxrd@z Thu Jan  1 00:00:00 1970\n"

/* three.mbox, unescaped */
static const char msg1[] =
	"From: Heiner Kallweit <hkallweit1@gmail.com>\n"
	"Subject: [PATCH 1/2] net: phy: one\n"
	"Message-ID: <one@example.org>\n"
	"\n"
	"Escaped lines follow.\n"
	"From here it was escaped once.\n"
	">From here twice.\n"
	"> >From not at the start.\n"
	"\n"
	"diff --git a/a.c b/a.c\n";
static const char msg2[] =
	"From: Heiner Kallweit <hkallweit1@gmail.com>\n"
	"Subject: [PATCH 2/2] net: phy: two\n"
	"Message-ID: <two@example.org>\n"
	"\n"
	"A body line, then a bare one:\n"
	"From the start of a line, but not after an empty line.\n"
	"\n"
	"Ends with two empty lines.\n"
	"\n";
static const char msg3[] =
	"From: Andrew Lunn <andrew@lunn.ch>\n"
	"Subject: Re: [PATCH 2/2] net: phy: two\n"
	"Message-ID: <three@example.org>\n"
	"\n"
	"Reviewed-by: Andrew Lunn <andrew@lunn.ch>\n";

/* escaped lengths in the file: msg1 has two '>' more */
#define OFF2 (sizeof(SEP) - 1 + sizeof(msg1) - 1 + 2 + 1)
#define OFF3 (OFF2 + sizeof(SEP) - 1 + sizeof(msg2) - 1 + 1)
#define OFFEND (OFF3 + sizeof(SEP) - 1 + sizeof(msg3) - 1 + 1)

static void expect_msg(struct mbox_reader *r, struct sbuf *sb, const char *want,
		       uint64_t start, uint64_t next)
{
	uint64_t s, n;

	assert_int_equal(mbox_next(r, sb, &s, &n), MAILBOX_OK);
	assert_int_equal(sb->len, strlen(want));
	assert_memory_equal(sb->buf, want, sb->len);
	assert_int_equal(s, start);
	assert_int_equal(n, next);
}

static void test_mailbox__mboxrd_split_and_unescape(void **state)
{
	struct mbox_reader *r;
	struct sbuf sb;
	uint64_t s, n;

	(void)state;
	sbuf_init(&sb, MAILBOX_MAX_MESSAGE);
	assert_int_equal(mbox_open(FIXTURES "three.mbox", 0, MBOX_RD, &r),
			 MAILBOX_OK);
	expect_msg(r, &sb, msg1, 0, OFF2);
	expect_msg(r, &sb, msg2, OFF2, OFF3);
	expect_msg(r, &sb, msg3, OFF3, OFFEND);
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_END);
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_END);
	mbox_close(r);
	sbuf_release(&sb);
}

static void test_mailbox__reopen_at_next_continues(void **state)
{
	struct mbox_reader *r;
	struct sbuf sb;
	uint64_t s, n;

	(void)state;
	sbuf_init(&sb, MAILBOX_MAX_MESSAGE);
	assert_int_equal(mbox_open(FIXTURES "three.mbox", OFF2, MBOX_RD, &r),
			 MAILBOX_OK);
	expect_msg(r, &sb, msg2, OFF2, OFF3);
	mbox_close(r);
	assert_int_equal(mbox_open(FIXTURES "three.mbox", OFF3, MBOX_RD, &r),
			 MAILBOX_OK);
	expect_msg(r, &sb, msg3, OFF3, OFFEND);
	mbox_close(r);
	/* at the end: nothing new */
	assert_int_equal(mbox_open(FIXTURES "three.mbox", OFFEND, MBOX_RD, &r),
			 MAILBOX_OK);
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_END);
	mbox_close(r);
	/* an offset inside a message goes on to the next separator */
	assert_int_equal(mbox_open(FIXTURES "three.mbox", 10, MBOX_RD, &r),
			 MAILBOX_OK);
	expect_msg(r, &sb, msg2, OFF2, OFF3);
	mbox_close(r);
	sbuf_release(&sb);
}

static void test_mailbox__mboxo_unescape(void **state)
{
	char buf[] = ">From a\n>>From b\n>>>From c\nx >From d\n";
	char rd[sizeof(buf)];
	size_t n;

	(void)state;
	memcpy(rd, buf, sizeof(buf));
	n = mbox_unescape(buf, strlen(buf), MBOX_O);
	assert_int_equal(n, strlen("From a\n>>From b\n>>>From c\nx >From d\n"));
	assert_memory_equal(buf, "From a\n>>From b\n>>>From c\nx >From d\n", n);
	n = mbox_unescape(rd, strlen(rd), MBOX_RD);
	assert_memory_equal(rd, "From a\n>From b\n>>From c\nx >From d\n", n);
	assert_int_equal(n, strlen("From a\n>From b\n>>From c\nx >From d\n"));
}

static void test_mailbox__mboxo_reader(void **state)
{
	struct mbox_reader *r;
	struct sbuf sb;
	uint64_t s, n;

	(void)state;
	sbuf_init(&sb, MAILBOX_MAX_MESSAGE);
	assert_int_equal(mbox_open(FIXTURES "three.mbox", 0, MBOX_O, &r),
			 MAILBOX_OK);
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_OK);
	assert_non_null(strstr(sb.buf, "\nFrom here it was escaped once.\n"));
	assert_non_null(strstr(sb.buf, "\n>>From here twice.\n"));
	mbox_close(r);
	sbuf_release(&sb);
}

static void test_mailbox__single_mail_without_from_line(void **state)
{
	struct mbox_reader *r;
	struct sbuf sb;
	uint64_t s, n;
	struct stat st;

	(void)state;
	assert_int_equal(stat(FIXTURES "crlf.eml", &st), 0);
	sbuf_init(&sb, MAILBOX_MAX_MESSAGE);
	assert_int_equal(mbox_open(FIXTURES "crlf.eml", 0, MBOX_RD, &r),
			 MAILBOX_OK);
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_OK);
	/* the bytes as they are, CRLF kept */
	assert_int_equal(sb.len, (size_t)st.st_size);
	assert_non_null(strstr(sb.buf, "Message-ID: <crlf@example.org>\r\n"));
	assert_int_equal(s, 0);
	assert_int_equal(n, (uint64_t)st.st_size);
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_END);
	mbox_close(r);
	sbuf_release(&sb);
}

static void test_mailbox__crlf_mbox(void **state)
{
	struct mbox_reader *r;
	struct sbuf sb;
	uint64_t s, n;

	(void)state;
	sbuf_init(&sb, MAILBOX_MAX_MESSAGE);
	assert_int_equal(mbox_open(FIXTURES "crlf.mbox", 0, MBOX_RD, &r),
			 MAILBOX_OK);
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_OK);
	assert_string_equal(sb.buf, "Message-ID: <c1@x>\r\n\r\nbody one\r\n");
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_OK);
	assert_string_equal(sb.buf, "Message-ID: <c2@x>\r\n\r\nbody two\r\n");
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_END);
	mbox_close(r);
	sbuf_release(&sb);
}

static void write_file(const char *path, const char *s, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void test_mailbox__message_over_cap_skipped(void **state)
{
	char dir[] = "/tmp/test_mailbox.XXXXXX", path[64];
	struct mbox_reader *r;
	struct sbuf sb, big;
	uint64_t s, n, s2, n2;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/big.mbox", dir);
	sbuf_init(&big, 1 << 20);
	sbuf_addstr(&big, SEP "Message-ID: <big@x>\n\n");
	/* one long line over the window, then many lines */
	sbuf_addrep(&big, 'x', 100000);
	sbuf_addch(&big, '\n');
	for (i = 0; i < 2000; i++)
		sbuf_addstr(&big, "a line of the big message\n");
	sbuf_addstr(&big, "\n" SEP "Message-ID: <small@x>\n\nsmall\n");
	assert_int_equal(big.err, 0);
	write_file(path, big.buf, big.len);

	/* the caller's cap stands for MAILBOX_MAX_MESSAGE here */
	sbuf_init(&sb, 4096);
	assert_int_equal(mbox_open(path, 0, MBOX_RD, &r), MAILBOX_OK);
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_ERR_LIMIT);
	assert_int_equal(s, 0);
	assert_int_equal(n, big.len - strlen(SEP "Message-ID: <small@x>\n\nsmall\n"));
	assert_int_equal(mbox_next(r, &sb, &s2, &n2), MAILBOX_OK);
	assert_string_equal(sb.buf, "Message-ID: <small@x>\n\nsmall\n");
	assert_int_equal(s2, n);
	assert_int_equal(n2, big.len);
	mbox_close(r);
	sbuf_release(&sb);
	sbuf_release(&big);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void test_mailbox__empty_and_missing_file(void **state)
{
	char dir[] = "/tmp/test_mailbox.XXXXXX", path[64];
	struct mbox_reader *r;
	struct sbuf sb;
	uint64_t s, n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/empty", dir);
	write_file(path, "", 0);
	sbuf_init(&sb, 1024);
	assert_int_equal(mbox_open(path, 0, MBOX_RD, &r), MAILBOX_OK);
	assert_int_equal(mbox_next(r, &sb, &s, &n), MAILBOX_END);
	mbox_close(r);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mbox_open(path, 0, MBOX_RD, &r), MAILBOX_ERR_IO);
	assert_int_equal(errno, ENOENT);
	assert_null(r);
	sbuf_release(&sb);
	assert_int_equal(rmdir(dir), 0);
}

static void rm_tree(const char *dir)
{
	const char *subs[] = { "tmp", "new", "cur" };
	char p[512];
	struct dirent *de;
	DIR *d;
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, subs[i]);
		d = opendir(p);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			char f[1024];

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(f, sizeof(f), "%s/%s", p, de->d_name);
			assert_int_equal(unlink(f), 0);
		}
		closedir(d);
		assert_int_equal(rmdir(p), 0);
	}
	assert_int_equal(rmdir(dir), 0);
}

static void put(const char *dir, const char *name, const char *body)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	write_file(p, body, strlen(body));
}

static void test_mailbox__maildir_order_and_after(void **state)
{
	char dir[] = "/tmp/test_mailbox.XXXXXX", p[512];
	struct maildir_list l;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(mailbox_is_maildir(dir), 0);
	snprintf(p, sizeof(p), "%s/new", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/cur", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/tmp", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(mailbox_is_maildir(dir), 1);
	put(dir, "new/200.b", "m");
	put(dir, "new/100.a", "m");
	put(dir, "new/.hidden", "m");
	put(dir, "cur/050.z:2,S", "m");
	put(dir, "cur/300.c:2,", "m");
	put(dir, "tmp/999.t", "m");

	assert_int_equal(maildir_list(dir, NULL, &l), MAILBOX_OK);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.names[0], "new/100.a");
	assert_string_equal(l.names[1], "new/200.b");
	assert_string_equal(l.names[2], "cur/050.z:2,S");
	assert_string_equal(l.names[3], "cur/300.c:2,");
	maildir_list_release(&l);

	assert_int_equal(maildir_list(dir, "new/100.a", &l), MAILBOX_OK);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.names[0], "new/200.b");
	maildir_list_release(&l);

	assert_int_equal(maildir_list(dir, "cur/050.z:2,S", &l), MAILBOX_OK);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.names[0], "cur/300.c:2,");
	maildir_list_release(&l);

	assert_int_equal(maildir_list(dir, "cur/300.c:2,", &l), MAILBOX_OK);
	assert_int_equal(l.n, 0);
	maildir_list_release(&l);
	rm_tree(dir);
}

/* Names as delivery agents make them, numbers unpadded: read in the order
 * they came, not the order strcmp() gives. */
static void test_mailbox__maildir_delivery_order(void **state)
{
	static const char *const names[] = {
		"new/1765000000.M100000P7Q3.host",
		"new/999999999.M5P7Q1.host",
		"new/1765000000.M99999P7Q2.host",
		"new/1765000001.M5P7Q10.host",
		"new/1765000001.M5P7Q9.host",
	};
	char dir[] = "/tmp/test_mailbox.XXXXXX", p[512];
	struct maildir_list l;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/new", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/cur", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		put(dir, names[i], "m");
	assert_int_equal(maildir_list(dir, NULL, &l), MAILBOX_OK);
	assert_int_equal(l.n, 5);
	assert_string_equal(l.names[0], "new/999999999.M5P7Q1.host");
	assert_string_equal(l.names[1], "new/1765000000.M99999P7Q2.host");
	assert_string_equal(l.names[2], "new/1765000000.M100000P7Q3.host");
	assert_string_equal(l.names[3], "new/1765000001.M5P7Q9.host");
	assert_string_equal(l.names[4], "new/1765000001.M5P7Q10.host");
	maildir_list_release(&l);

	/* what came after a name, in the same order */
	assert_int_equal(maildir_list(dir, "new/1765000000.M99999P7Q2.host", &l),
			 MAILBOX_OK);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.names[0], "new/1765000000.M100000P7Q3.host");
	maildir_list_release(&l);
	rm_tree(dir);
}

static void test_mailbox__deliver_then_list_and_read(void **state)
{
	char dir[] = "/tmp/test_mailbox.XXXXXX", box[512], p[600];
	static const char m1[] = "Message-ID: <d1@x>\r\n\r\nfirst\r\n";
	static const char m2[] = "Message-ID: <d2@x>\n\nsecond\n";
	struct maildir_list l;
	struct sbuf sb;
	struct stat st;
	char *n1, *n2;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(box, sizeof(box), "%s/outbox", dir);
	assert_int_equal(maildir_deliver(box, m1, sizeof(m1) - 1, &n1),
			 MAILBOX_OK);
	assert_int_equal(maildir_deliver(box, m2, sizeof(m2) - 1, &n2),
			 MAILBOX_OK);
	assert_int_equal(maildir_deliver(box, m2, sizeof(m2) - 1, NULL),
			 MAILBOX_OK);
	assert_int_equal(strncmp(n1, "new/", 4), 0);
	assert_string_not_equal(n1, n2);
	assert_null(strchr(n1 + 4, '/'));
	assert_int_equal(mailbox_is_maildir(box), 1);
	assert_int_equal(stat(box, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);

	assert_int_equal(maildir_list(box, NULL, &l), MAILBOX_OK);
	assert_int_equal(l.n, 3);
	maildir_list_release(&l);

	sbuf_init(&sb, MAILBOX_MAX_MESSAGE);
	assert_int_equal(maildir_read(box, n1, &sb), MAILBOX_OK);
	assert_int_equal(sb.len, sizeof(m1) - 1);
	assert_memory_equal(sb.buf, m1, sb.len);
	assert_int_equal(maildir_read(box, n2, &sb), MAILBOX_OK);
	assert_string_equal(sb.buf, m2);
	/* names outside new/ and cur/ are refused */
	assert_int_equal(maildir_read(box, "new/../../etc/passwd", &sb),
			 MAILBOX_ERR_IO);
	assert_int_equal(maildir_read(box, "tmp/x", &sb), MAILBOX_ERR_IO);
	sbuf_release(&sb);

	/* tmp/ is left empty */
	snprintf(p, sizeof(p), "%s/tmp", box);
	assert_int_equal(rmdir(p), 0);
	assert_int_equal(mkdir(p, 0700), 0);
	free(n1);
	free(n2);
	rm_tree(box);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mailbox__mboxrd_split_and_unescape),
		cmocka_unit_test(test_mailbox__reopen_at_next_continues),
		cmocka_unit_test(test_mailbox__mboxo_unescape),
		cmocka_unit_test(test_mailbox__mboxo_reader),
		cmocka_unit_test(test_mailbox__single_mail_without_from_line),
		cmocka_unit_test(test_mailbox__crlf_mbox),
		cmocka_unit_test(test_mailbox__message_over_cap_skipped),
		cmocka_unit_test(test_mailbox__empty_and_missing_file),
		cmocka_unit_test(test_mailbox__maildir_order_and_after),
		cmocka_unit_test(test_mailbox__maildir_delivery_order),
		cmocka_unit_test(test_mailbox__deliver_then_list_and_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

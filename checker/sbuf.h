/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sbuf: the one growable byte buffer, always created with a hard cap.
 *
 * The buffer is always NUL-terminated (buf[len] == 0) so it can be handed
 * to C string functions, but it may hold NUL bytes of its own: len is the
 * truth.  Once an append would pass the cap or memory runs out, the buffer
 * keeps what it had, sets err and refuses every later append, so callers
 * may append many times and check err once.
 */
#ifndef RB_SBUF_H
#define RB_SBUF_H

#include <stdarg.h>
#include <stddef.h>

enum sbuf_err {
	SBUF_OK = 0,
	SBUF_ERR_CAP = -1,	/* the cap would have been passed */
	SBUF_ERR_NOMEM = -2,
};

struct sbuf {
	char *buf;		/* owned; never NULL after sbuf_init */
	size_t len;
	size_t alloc;
	size_t cap;		/* maximum len */
	int err;		/* enum sbuf_err, sticky */
};

void sbuf_init(struct sbuf *sb, size_t cap);
void sbuf_release(struct sbuf *sb);
void sbuf_reset(struct sbuf *sb);		/* len = 0, err = 0 */
int sbuf_add(struct sbuf *sb, const void *p, size_t n);
int sbuf_addstr(struct sbuf *sb, const char *s);
int sbuf_addch(struct sbuf *sb, int c);
int sbuf_addrep(struct sbuf *sb, int c, size_t n);
int sbuf_addf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap);
void sbuf_truncate(struct sbuf *sb, size_t len);
/* Hands the bytes to the caller (free() them); the sbuf is left empty. */
char *sbuf_detach(struct sbuf *sb, size_t *len);
const char *sbuf_strerror(int err);
/* Length of the valid UTF-8 sequence at p (RFC 3629), or 0. */
size_t sbuf_utf8_len(const unsigned char *p);
/* Appends s as a JSON string; bytes that are not UTF-8 become U+FFFD. */
void sbuf_addjson(struct sbuf *sb, const char *s);

#endif

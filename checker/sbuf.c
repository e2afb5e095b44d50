// SPDX-License-Identifier: GPL-2.0-only
/* sbuf: the one growable byte buffer, always with a hard cap (sbuf.h). */
#include "sbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

static char sbuf_empty[1];

void sbuf_init(struct sbuf *sb, size_t cap)
{
	sb->buf = sbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
	sb->cap = cap;
	sb->err = SBUF_OK;
}

void sbuf_release(struct sbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sbuf_init(sb, sb->cap);
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	sb->err = SBUF_OK;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

static int sbuf_grow(struct sbuf *sb, size_t extra)
{
	size_t want, n;
	char *p;

	if (sb->err)
		return sb->err;
	if (extra > sb->cap || sb->len > sb->cap - extra) {
		sb->err = SBUF_ERR_CAP;
		return sb->err;
	}
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return 0;
	n = sb->alloc ? sb->alloc : 64;
	while (n < want)
		n = n > ((size_t)-1) / 2 ? want : n * 2;
	p = sb->alloc ? realloc(sb->buf, n) : malloc(n);
	if (!p) {
		sb->err = SBUF_ERR_NOMEM;
		return sb->err;
	}
	if (!sb->alloc)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = n;
	return 0;
}

int sbuf_add(struct sbuf *sb, const void *p, size_t n)
{
	int ret = sbuf_grow(sb, n);

	if (ret)
		return ret;
	if (n)
		memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int sbuf_addstr(struct sbuf *sb, const char *s)
{
	return sbuf_add(sb, s, strlen(s));
}

int sbuf_addch(struct sbuf *sb, int c)
{
	char ch = (char)c;

	/* the common case without sbuf_add()'s checks and copy */
	if (!sb->err && sb->len + 2 <= sb->alloc && sb->len < sb->cap) {
		sb->buf[sb->len++] = ch;
		sb->buf[sb->len] = '\0';
		return 0;
	}
	return sbuf_add(sb, &ch, 1);
}

int sbuf_addrep(struct sbuf *sb, int c, size_t n)
{
	int ret = sbuf_grow(sb, n);

	if (ret)
		return ret;
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

/*
 * Formats into the room the buffer has (some is made first), and only
 * when the text does not fit there measures it, grows and formats again:
 * formatting twice was most of what building a pattern cost.
 */
int sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	size_t room;
	int n;
	int ret;

	if (sb->err)
		return sb->err;
	if (!sb->alloc && sb->cap > sb->len)
		sbuf_grow(sb, sb->cap - sb->len < 255 ? sb->cap - sb->len : 255);
	if (sb->err)
		return sb->err;
	room = sb->alloc > sb->len ? sb->alloc - sb->len : 0;
	va_copy(cp, ap);
	n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, cp);
	va_end(cp);
	if (n < 0) {
		if (room)
			sb->buf[sb->len] = '\0';
		sb->err = SBUF_ERR_NOMEM;
		return sb->err;
	}
	if ((size_t)n < room) {
		if ((size_t)n > sb->cap - sb->len) {
			sb->buf[sb->len] = '\0';
			sb->err = SBUF_ERR_CAP;
			return sb->err;
		}
		sb->len += (size_t)n;
		return 0;
	}
	if (room)
		sb->buf[sb->len] = '\0';
	ret = sbuf_grow(sb, (size_t)n);
	if (ret)
		return ret;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
	return 0;
}

int sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = sbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return ret;
}

void sbuf_truncate(struct sbuf *sb, size_t len)
{
	if (len >= sb->len)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

char *sbuf_detach(struct sbuf *sb, size_t *len)
{
	char *p;

	if (len)
		*len = sb->len;
	if (!sb->alloc) {
		p = calloc(1, 1);
	} else {
		p = sb->buf;
	}
	sb->buf = sbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
	sb->err = SBUF_OK;
	return p;
}

const char *sbuf_strerror(int err)
{
	switch (err) {
	case SBUF_OK:
		return "no error";
	case SBUF_ERR_CAP:
		return "size limit reached";
	case SBUF_ERR_NOMEM:
		return "out of memory";
	}
	return "unknown error";
}

/* Length of the valid UTF-8 sequence at p (RFC 3629), or 0. */
size_t sbuf_utf8_len(const unsigned char *p)
{
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		return (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (p[0] >= 0xe0 && p[0] <= 0xef) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if (p[0] == 0xe0 && p[1] < 0xa0)
			return 0;
		if (p[0] == 0xed && p[1] > 0x9f)
			return 0;
		return 3;
	}
	if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80)
			return 0;
		if (p[0] == 0xf0 && p[1] < 0x90)
			return 0;
		if (p[0] == 0xf4 && p[1] > 0x8f)
			return 0;
		return 4;
	}
	return 0;
}

void sbuf_addjson(struct sbuf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	sbuf_addch(out, '"');
	while (*p) {
		size_t n;

		switch (*p) {
		case '"':
			sbuf_addstr(out, "\\\"");
			break;
		case '\\':
			sbuf_addstr(out, "\\\\");
			break;
		case '\n':
			sbuf_addstr(out, "\\n");
			break;
		case '\t':
			sbuf_addstr(out, "\\t");
			break;
		case '\r':
			sbuf_addstr(out, "\\r");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				sbuf_addf(out, "\\u%04x", *p);
			} else if (*p >= 0x80) {
				n = sbuf_utf8_len(p);
				if (n) {
					sbuf_add(out, p, n);
					p += n;
					continue;
				}
				sbuf_addstr(out, "\\ufffd");
			} else {
				sbuf_addch(out, *p);
			}
		}
		p++;
	}
	sbuf_addch(out, '"');
}

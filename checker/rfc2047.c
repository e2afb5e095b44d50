// SPDX-License-Identifier: GPL-2.0-only
/*
 * RFC 2047 header decoding as Perl's Encode::MIME::Header decode() does
 * it (see rfc2047.h).  The Perl works on one "unit" at a time (text up to
 * a line break that is not a fold), first joining adjacent encoded words
 * of one charset, then replacing each run of encoded words (separated by
 * nothing but whitespace) by its decoded text.
 */
#include "rfc2047.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

enum charset { CS_UNKNOWN, CS_UTF8, CS_LATIN1, CS_ASCII, CS_CP1252 };

struct word {			/* "=?charset*lang?e?text?=" in a buffer */
	size_t start, end;
	size_t cs, cs_len;
	size_t lang, lang_len;	/* "*lang", or empty */
	char enc;
	size_t text, text_len;
};

struct dec {
	struct sbuf *out;
	size_t base;		/* out->len at the start */
	int wide;		/* a character above U+00FF was written */
};

/* Perl's \s */
static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_alnum(int c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

/* [!"#\$%&'+\-0-9A-Z\\\^_`a-z\{\|\}~] */
static int is_cs_char(int c)
{
	return is_alnum(c) || (c && strchr("!\"#$%&'+-\\^_`{|}~", c));
}

/* $re_capture_encoded_word_split at s[i]: all its parts are determined
 * (no backtracking can change them), so a greedy parse is exact */
static int parse_word(const char *s, size_t n, size_t i, struct word *w)
{
	size_t p = i, k;

	if (p + 1 >= n || s[p] != '=' || s[p + 1] != '?')
		return 0;
	p += 2;
	w->cs = p;
	while (p < n && is_cs_char((unsigned char)s[p]))
		p++;
	if (p == w->cs)
		return 0;
	w->cs_len = p - w->cs;
	w->lang = p;
	if (p < n && s[p] == '*') {
		/* [A-Za-z]{1,8}(?:-[0-9A-Za-z]{1,8})* */
		size_t q = p + 1;

		for (k = 0; k < 8 && q < n && is_alpha((unsigned char)s[q]); k++)
			q++;
		if (!k)
			return 0;
		while (q + 1 < n && s[q] == '-' && is_alnum((unsigned char)s[q + 1])) {
			q++;
			for (k = 0; k < 8 && q < n && is_alnum((unsigned char)s[q]); k++)
				q++;
		}
		p = q;
	}
	w->lang_len = p - w->lang;
	if (p + 2 >= n || s[p] != '?' || s[p + 2] != '?' ||
	    (s[p + 1] != 'Q' && s[p + 1] != 'q' && s[p + 1] != 'B' &&
	     s[p + 1] != 'b'))
		return 0;
	w->enc = s[p + 1];
	p += 3;
	w->text = p;
	while (p < n && s[p] != '?')
		p++;
	if (p + 1 >= n || s[p + 1] != '=')
		return 0;
	w->text_len = p - w->text;
	w->start = i;
	w->end = p + 2;
	return 1;
}

static int same_kind(const char *s, const struct word *a, const struct word *b)
{
	return a->cs_len == b->cs_len && a->lang_len == b->lang_len &&
	       a->enc == b->enc && !memcmp(s + a->cs, s + b->cs, a->cs_len) &&
	       !memcmp(s + a->lang, s + b->lang, a->lang_len);
}

/* Encode's find_mime_encoding(), then find_encoding() with its aliases,
 * for the charsets known here */
static enum charset find_charset(const char *s, size_t n)
{
	static const struct {
		const char *name;
		enum charset cs;
	} names[] = {
		{ "utf8", CS_UTF8 }, { "utf8strict", CS_UTF8 },
		{ "iso88591", CS_LATIN1 }, { "latin1", CS_LATIN1 },
		{ "isolatin1", CS_LATIN1 },
		{ "usascii", CS_ASCII }, { "ascii", CS_ASCII },
		{ "iso646us", CS_ASCII },
		{ "windows1252", CS_CP1252 }, { "cp1252", CS_CP1252 },
		{ "winlatin1", CS_CP1252 },
	};
	char buf[32];
	size_t i, k = 0;

	/* case and '-' / '_' do not matter to Encode's alias table */
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '-' || c == '_')
			continue;
		if (k + 1 >= sizeof(buf))
			return CS_UNKNOWN;
		buf[k++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	buf[k] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(buf, names[i].name))
			return names[i].cs;
	return CS_UNKNOWN;
}

static void put_char(struct dec *d, uint32_t c)
{
	char b[4];
	size_t n;

	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | (c >> 6));
		b[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | (c >> 12));
		b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (c >> 18));
		b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	if (c > 0xff)
		d->wide = 1;
	sbuf_add(d->out, b, n);
}

/* bytes outside encoded words: one character each */
static void put_bytes(struct dec *d, const char *s, size_t n, int drop_crlf)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (drop_crlf && (c == '\r' || c == '\n'))
			continue;
		put_char(d, c);
	}
}

/* Perl's UTF8SKIP on a start byte */
static size_t utf8_skip(unsigned char c)
{
	return c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : c < 0xfc ? 5 :
	       c < 0xfe ? 6 : c == 0xfe ? 7 : 13;
}

static int is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * Encode's strict UTF-8 decoder with CHECK 0: a sequence cut short by a
 * non-continuation byte (or the end) is one U+FFFD for the bytes before
 * it; a complete sequence that is overlong, a surrogate, a noncharacter
 * or above U+10FFFF is one U+FFFD for the whole sequence.
 */
static void decode_utf8(struct dec *d, const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t skip, k;
		uint32_t uv;
		int bad = 0;

		if (s[i] < 0x80) {
			put_char(d, s[i++]);
			continue;
		}
		if (is_cont(s[i])) {
			put_char(d, 0xfffd);
			i++;
			continue;
		}
		skip = utf8_skip(s[i]);
		for (k = 1; k < skip && i + k < n && is_cont(s[i + k]); k++)
			;
		if (k < skip) {
			put_char(d, 0xfffd);
			i += k;
			continue;
		}
		if (skip > 4) {
			bad = 1;	/* above U+10FFFF whatever it holds */
			uv = 0;
		} else {
			uv = s[i] & (0x7f >> skip);
			for (k = 1; k < skip; k++)
				uv = (uv << 6) | (s[i + k] & 0x3f);
			if ((uv < 0x80) || (uv < 0x800 && skip > 2) ||
			    (uv < 0x10000 && skip > 3) || uv > 0x10ffff ||
			    (uv >= 0xd800 && uv <= 0xdfff) ||
			    (uv >= 0xfdd0 && uv <= 0xfdef) ||
			    (uv & 0xfffe) == 0xfffe)
				bad = 1;
		}
		put_char(d, bad ? 0xfffd : uv);
		i += skip;
	}
}

static const uint16_t cp1252_80[32] = {
	0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd,
	0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178,
};

static void decode_octets(struct dec *d, enum charset cs,
			  const unsigned char *s, size_t n)
{
	size_t i;

	if (cs == CS_UTF8) {
		decode_utf8(d, s, n);
		return;
	}
	for (i = 0; i < n; i++) {
		uint32_t c = s[i];

		if (cs == CS_ASCII && c >= 0x80)
			c = 0xfffd;
		else if (cs == CS_CP1252 && c >= 0x80 && c < 0xa0)
			c = cp1252_80[c - 0x80];
		put_char(d, c);
	}
}

/* MIME::Base64::decode_base64 (XS): skips foreign bytes, stops at '=' */
static size_t base64(const char *s, size_t n, unsigned char *r)
{
	const char *end = s + n;
	unsigned char *r0 = r;

	while (s < end) {
		unsigned char c[4];
		int i = 0;

		do {
			unsigned char ch = (unsigned char)*s++, v;

			if (ch >= 'A' && ch <= 'Z')
				v = ch - 'A';
			else if (ch >= 'a' && ch <= 'z')
				v = ch - 'a' + 26;
			else if (ch >= '0' && ch <= '9')
				v = ch - '0' + 52;
			else if (ch == '+')
				v = 62;
			else if (ch == '/')
				v = 63;
			else if (ch == '=')
				v = 64;
			else
				v = 255;
			if (v != 255)
				c[i++] = v;
			if (s == end) {
				if (i < 4) {
					if (i < 2)
						return (size_t)(r - r0);
					if (i == 2)
						c[2] = 64;
					c[3] = 64;
				}
				break;
			}
		} while (i < 4);
		if (c[0] == 64 || c[1] == 64)
			break;
		*r++ = (unsigned char)((c[0] << 2) | ((c[1] & 0x30) >> 4));
		if (c[2] == 64)
			break;
		*r++ = (unsigned char)(((c[1] & 0x0f) << 4) | ((c[2] & 0x3c) >> 2));
		if (c[3] == 64)
			break;
		*r++ = (unsigned char)(((c[2] & 0x03) << 6) | c[3]);
	}
	return (size_t)(r - r0);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One known-charset word's text: CR/LF dropped, then B or Q. */
static int decode_text(struct dec *d, enum charset cs, char enc,
		       const char *text, size_t n)
{
	char *t = malloc(n + 1);
	unsigned char *o = malloc(n + 1);
	size_t tn = 0, on = 0, i;

	if (!t || !o) {
		free(t);
		free(o);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (text[i] != '\r' && text[i] != '\n')
			t[tn++] = text[i];
	if (enc == 'B' || enc == 'b') {
		/* split /(?<==)(?=[^=])/: each piece decoded on its own */
		size_t st = 0;

		for (i = 1; i <= tn; i++) {
			if (i == tn || (t[i - 1] == '=' && t[i] != '=')) {
				on += base64(t + st, i - st, o + on);
				st = i;
			}
		}
	} else {
		for (i = 0; i < tn; i++) {
			int h1, h2;

			if (t[i] == '_') {
				o[on++] = ' ';
			} else if (t[i] == '=' && i + 2 < tn &&
				   (h1 = hexval((unsigned char)t[i + 1])) >= 0 &&
				   (h2 = hexval((unsigned char)t[i + 2])) >= 0) {
				o[on++] = (unsigned char)(h1 * 16 + h2);
				i += 2;
			} else {
				o[on++] = (unsigned char)t[i];
			}
		}
	}
	decode_octets(d, cs, o, on);
	free(t);
	free(o);
	return 0;
}

/* $output =~ /(?:\A|[ \t])$/ on what this call wrote */
static int ends_in_blank(const struct dec *d)
{
	const char *b = d->out->buf + d->base;
	size_t n = d->out->len - d->base;

	if (n && b[n - 1] == '\n')
		n--;	/* $ also matches before a final newline */
	return !n || b[n - 1] == ' ' || b[n - 1] == '\t';
}

/* The run of encoded words in m[from, ...): decoded; returns its end. */
static size_t decode_run(struct dec *d, const char *m, size_t mn,
			 struct word w)
{
	for (;;) {
		struct word nx;
		size_t k = w.end;
		int more;
		enum charset cs = find_charset(m + w.cs, w.cs_len);

		while (k < mn && is_space((unsigned char)m[k]))
			k++;
		more = parse_word(m, mn, k, &nx);
		if (cs == CS_UNKNOWN) {
			/* kept as it is, with the blanks that follow it */
			if (!ends_in_blank(d))
				sbuf_addch(d->out, ' ');
			put_bytes(d, m + w.start, (more ? k : w.end) - w.start, 0);
		} else if (decode_text(d, cs, w.enc, m + w.text, w.text_len)) {
			d->out->err = SBUF_ERR_NOMEM;
			return mn;
		}
		if (!more)
			return w.end;
		w = nx;
	}
}

/* One unit: join same-kind neighbours, then decode the runs. */
static int decode_unit(struct dec *d, const char *s, size_t n)
{
	char *m = malloc(n + 1);
	size_t mn = 0, i = 0, plain;
	int shared = 0;
	struct word w, w2;

	if (!m)
		return -1;
	/* 1 while s/$re_capture_encoded_word_split\s*=\?\1\2\?\3\?(...)\?=/.../ */
	while (i < n) {
		if (parse_word(s, n, i, &w)) {
			size_t j = w.end, k;
			int merged = 0;

			for (;;) {
				k = j;
				while (k < n && is_space((unsigned char)s[k]))
					k++;
				if (!parse_word(s, n, k, &w2) || !same_kind(s, &w, &w2))
					break;
				if (!merged) {
					size_t from = i + (size_t)shared;

					memcpy(m + mn, s + from, w.text + w.text_len - from);
					mn += w.text + w.text_len - from;
					merged = 1;
				}
				memcpy(m + mn, s + w2.text, w2.text_len);
				mn += w2.text_len;
				j = w2.end;
			}
			if (merged) {
				m[mn++] = '?';
				m[mn++] = '=';
				/* the closing '=' may open the next word */
				i = j - 1;
				shared = 1;
				continue;
			}
		}
		if (!shared)
			m[mn++] = s[i];
		shared = 0;
		i++;
	}

	/* 1 while s{^(.*?)$re_match_decode}{...} */
	i = plain = 0;
	while (i < mn) {
		if (parse_word(m, mn, i, &w)) {
			put_bytes(d, m + plain, i - plain, 1);
			i = plain = decode_run(d, m, mn, w);
			continue;
		}
		i++;
	}
	put_bytes(d, m + plain, mn - plain, 1);
	free(m);
	return 0;
}

int rfc2047_decode(const char *s, size_t n, enum rfc2047_form form,
		   struct sbuf *out)
{
	struct dec d = { out, out->len, 0 };
	size_t pos = 0;

	/* units end at a line break not followed by a blank (a fold) */
	while (pos < n && !out->err) {
		size_t e = pos, nl = 0;

		while (e < n) {
			if (s[e] == '\r' || s[e] == '\n') {
				nl = s[e] == '\r' && e + 1 < n && s[e + 1] == '\n' ? 2 : 1;
				if (e + nl < n && (s[e + nl] == ' ' || s[e + nl] == '\t')) {
					e += nl + 1;
					nl = 0;
					continue;
				}
				break;
			}
			e++;
		}
		if (decode_unit(&d, s + pos, e - pos))
			return -1;
		put_bytes(&d, s + e, nl, 0);
		pos = e + nl;
	}
	if (out->err)
		return -1;
	if (form == RFC2047_PRINT && !d.wide) {
		/* every character is below U+0100: one byte each */
		char *b = out->buf + d.base;
		size_t i = 0, k = 0, len = out->len - d.base;

		while (i < len) {
			unsigned char c = (unsigned char)b[i];

			if (c < 0x80) {
				b[k++] = (char)c;
				i++;
			} else {
				b[k++] = (char)(((c & 0x03) << 6) | (b[i + 1] & 0x3f));
				i += 2;
			}
		}
		sbuf_truncate(out, d.base + k);
		return 0;
	}
	return 1;
}

int rfc2047_latin1_to_utf8(const char *s, size_t n, struct sbuf *out)
{
	struct dec d = { out, out->len, 0 };

	put_bytes(&d, s, n, 0);
	return out->err ? -1 : 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The commit-message part of a patch.  Headers per RFC 5322 section 2.2
 * (a header ends at a line that does not start with white space; section
 * 2.2.3 unfolding removes the CRLF before the white space), encoded words
 * per RFC 2047.  Trailers as git interpret-trailers reads them: "Token:
 * value" lines, the token made of letters, digits and '-'.
 */
#include "commit.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rfc2047.h"
#include "sbuf.h"
#include "banned.h"

struct line {
	const char *s;
	size_t n;		/* without newline or CR */
	const char *next;
};

static int next_line(const char *p, const char *end, struct line *l)
{
	const char *nl;

	if (p >= end)
		return 0;
	nl = memchr(p, '\n', (size_t)(end - p));
	l->s = p;
	l->n = nl ? (size_t)(nl - p) : (size_t)(end - p);
	l->next = nl ? nl + 1 : end;
	if (l->n && p[l->n - 1] == '\r')
		l->n--;
	return 1;
}

static char *dup_n(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int has_8bit(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 1;
	return 0;
}

/* Decodes an unfolded header value; returns a malloc'd UTF-8 string. */
static char *header_value(const char *s, size_t n)
{
	struct sbuf sb;

	while (n && is_space(*s)) {
		s++;
		n--;
	}
	while (n && is_space(s[n - 1]))
		n--;
	sbuf_init(&sb, CHK_COMMIT_MAX_HEADER);
	/*
	 * rfc2047_decode() reads bytes outside encoded words as Latin-1, as
	 * Perl does; mail that carries raw 8-bit headers means UTF-8, so
	 * such a value is kept as it is.
	 */
	if (!memmem(s, n, "=?", 2) || has_8bit(s, n) ||
	    rfc2047_decode(s, n, RFC2047_UTF8, &sb) < 0 || sb.err) {
		sbuf_reset(&sb);
		sbuf_add(&sb, s, n);
	}
	return sbuf_detach(&sb, NULL);
}

static int trailer_token(const char *s, size_t n, size_t *toklen)
{
	size_t i = 0;

	if (!n || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')))
		return 0;
	while (i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
			 (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
		i++;
	if (i >= n || s[i] != ':')
		return 0;
	if (i + 1 < n && !is_space(s[i + 1]))
		return 0;	/* "http://..." is not a trailer */
	*toklen = i;
	return 1;
}

static int is_diff_start(const struct line *l, const char *end)
{
	return (l->n >= 11 && !memcmp(l->s, "diff --git ", 11)) ||
	       (l->n >= 7 && !memcmp(l->s, "Index: ", 7)) ||
	       (l->n >= 4 && !memcmp(l->s, "--- ", 4) && end - l->next >= 4 &&
		!memcmp(l->next, "+++ ", 4));
}

/* RFC 5322 3.6.8: a field name is printable US-ASCII but ':', then ':' */
static const char *header_colon(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		unsigned char ch = (unsigned char)l->s[i];

		if (ch == ':')
			return i ? l->s + i : NULL;
		if (ch < 33 || ch > 126)
			return NULL;
	}
	return NULL;
}

static int add_trailer(struct chk_commit *c, size_t *alloc, const char *s,
		       size_t toklen, size_t n, long lineno)
{
	struct chk_trailer *t;
	const char *v = s + toklen + 1;
	size_t vn = n - toklen - 1;

	if (c->ntrailers >= CHK_COMMIT_MAX_TRAILERS) {
		c->truncated = 1;
		return 0;
	}
	if (c->ntrailers == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 8;
		struct chk_trailer *nt = realloc(c->trailers, na * sizeof(*nt));

		if (!nt)
			return -1;
		c->trailers = nt;
		*alloc = na;
	}
	while (vn && is_space(*v)) {
		v++;
		vn--;
	}
	while (vn && is_space(v[vn - 1]))
		vn--;
	t = &c->trailers[c->ntrailers];
	t->tag = dup_n(s, toklen);
	t->value = dup_n(v, vn);
	t->patch_line = lineno;
	if (!t->tag || !t->value) {
		free(t->tag);
		free(t->value);
		return -1;
	}
	c->ntrailers++;
	if (toklen == 13 && !strncasecmp(s, "Signed-off-by", 13))
		c->signoffs++;
	return 0;
}

int chk_commit_parse(const char *buf, size_t len, struct chk_commit *c)
{
	const char *p = buf, *end = buf + len;
	struct line l;
	long lineno = 0;
	size_t talloc = 0;
	int in_headers = 1, seen_header = 0;
	struct sbuf hdr;
	char **slot = NULL;

	memset(c, 0, sizeof(*c));
	sbuf_init(&hdr, CHK_COMMIT_MAX_HEADER);

	/* an mbox "From " line */
	if (next_line(p, end, &l) && l.n >= 5 && !memcmp(l.s, "From ", 5)) {
		p = l.next;
		lineno++;
	}
	while (next_line(p, end, &l)) {
		lineno++;
		if (in_headers) {
			if (seen_header && l.n && is_space(l.s[0])) {
				/* RFC 5322 2.2.3: unfold */
				if (slot) {
					sbuf_add(&hdr, l.s, l.n);
					if (hdr.err)
						c->truncated = 1;
				}
				p = l.next;
				continue;
			}
			if (slot) {
				free(*slot);
				*slot = header_value(hdr.buf, hdr.len);
				slot = NULL;
			}
			if (l.n == 0) {
				in_headers = 0;
				c->body_line = lineno + 1;
				c->body = l.next;
				p = l.next;
				continue;
			}
			if (header_colon(&l)) {
				const char *q = header_colon(&l);
				size_t k = (size_t)(q - l.s);

				seen_header = 1;
				sbuf_reset(&hdr);
				sbuf_add(&hdr, q + 1, l.n - k - 1);
				if (k == 7 && !strncasecmp(l.s, "Subject", 7))
					slot = &c->subject;
				else if (k == 4 && !strncasecmp(l.s, "From", 4))
					slot = &c->from;
				else if (k == 4 && !strncasecmp(l.s, "Date", 4))
					slot = &c->date;
				else if (k == 10 && !strncasecmp(l.s, "Message-ID", 10))
					slot = &c->message_id;
				p = l.next;
				continue;
			}
			/* not a header: a bare commit message (git log style) */
			in_headers = 0;
			c->body_line = lineno;
			c->body = l.s;
		}
		/* the body */
		if (l.n == 3 && !memcmp(l.s, "---", 3)) {
			c->separator_line = lineno;
			c->body_len = (size_t)(l.s - c->body);
			break;
		}
		if (is_diff_start(&l, end)) {
			c->diff_line = lineno;
			c->body_len = (size_t)(l.s - c->body);
			break;
		}
		{
			size_t tok;

			if (trailer_token(l.s, l.n, &tok) &&
			    add_trailer(c, &talloc, l.s, tok, l.n, lineno))
				goto nomem;
		}
		c->body_lines++;
		p = l.next;
	}
	if (slot) {
		free(*slot);
		*slot = header_value(hdr.buf, hdr.len);
	}
	if (c->body && !c->separator_line && !c->diff_line)
		c->body_len = (size_t)(end - c->body);
	/* the diff after the separator */
	if (c->separator_line && !c->diff_line) {
		p = l.next;
		while (next_line(p, end, &l)) {
			lineno++;
			if (is_diff_start(&l, end)) {
				c->diff_line = lineno;
				break;
			}
			p = l.next;
		}
	}
	if (c->message_id) {
		char *m = c->message_id;
		size_t n = strlen(m);

		if (n >= 2 && m[0] == '<' && m[n - 1] == '>') {
			memmove(m, m + 1, n - 2);
			m[n - 2] = '\0';
		}
	}
	sbuf_release(&hdr);
	return 0;
nomem:
	sbuf_release(&hdr);
	chk_commit_release(c);
	return -1;
}

void chk_commit_release(struct chk_commit *c)
{
	size_t i;

	free(c->subject);
	free(c->from);
	free(c->date);
	free(c->message_id);
	for (i = 0; i < c->ntrailers; i++) {
		free(c->trailers[i].tag);
		free(c->trailers[i].value);
	}
	free(c->trailers);
	memset(c, 0, sizeof(*c));
}

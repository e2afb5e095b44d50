// SPDX-License-Identifier: GPL-2.0-only
/*
 * web_route: URLs in, escaped text out (web_route.h).
 */
#include "web_route.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/banned.h"

#define WEB_MAX_PARTS	16	/* path parts looked at */

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

int web_pct_decode(const char *s, size_t n, int plus, char *out, size_t outlen)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c == '%') {
			int h, l;

			if (i + 2 >= n)
				return -1;
			h = hexval((unsigned char)s[i + 1]);
			l = hexval((unsigned char)s[i + 2]);
			if (h < 0 || l < 0)
				return -1;
			c = h * 16 + l;
			i += 2;
		} else if (c == '+' && plus) {
			c = ' ';
		}
		if (c < 0x20 || c == 0x7f)
			return -1;
		if (o + 1 >= outlen)
			return -1;
		out[o++] = (char)c;
	}
	if (o >= outlen)
		return -1;
	out[o] = '\0';
	return 0;
}

struct part {
	const char *s;
	size_t n;
};

/* the decoded part p into r->arg: 0, or the status to answer */
static int take(const struct part *p, struct web_route *r)
{
	if (web_pct_decode(p->s, p->n, 0, r->arg, sizeof(r->arg)))
		return 400;
	if (!r->arg[0])
		return 404;
	return 0;
}

static int is_id(const char *s, int64_t *id)
{
	char *e;
	long long v;

	if (*s < '1' || *s > '9')
		return 0;
	errno = 0;
	v = strtoll(s, &e, 10);
	if (errno || *e || v < 1)
		return 0;
	*id = v;
	return 1;
}

static int found(struct web_route *r, enum web_page page)
{
	r->page = page;
	r->status = 200;
	return 200;
}

static int refuse(struct web_route *r, int status)
{
	r->page = WEB_NOT_FOUND;
	r->status = status;
	r->arg[0] = '\0';
	return status;
}

int web_route(const char *path, struct web_route *r)
{
	struct part parts[WEB_MAX_PARTS];
	size_t len, n = 0, i;
	const char *p, *slash;
	char dec[WEB_MAX_ARG + 1];
	int trailing, st;

	memset(r, 0, sizeof(*r));
	if (!path || *path != '/')
		return refuse(r, 400);
	len = strlen(path);
	if (len > WEB_MAX_PATH)
		return refuse(r, 414);
	for (i = 0; i < len; i++)
		if ((unsigned char)path[i] <= 0x20 || (unsigned char)path[i] >= 0x7f)
			return refuse(r, 400);
	/* the parts between slashes; each decoded part must not be "."
	 * or ".." (nor decode to either) */
	for (p = path + 1; ; p = slash + 1) {
		slash = strchr(p, '/');
		if (n == WEB_MAX_PARTS)
			return refuse(r, 404);
		parts[n].s = p;
		parts[n].n = slash ? (size_t)(slash - p) : strlen(p);
		if (web_pct_decode(parts[n].s, parts[n].n, 0, dec, sizeof(dec)))
			return refuse(r, 400);
		if (!strcmp(dec, ".") || !strcmp(dec, ".."))
			return refuse(r, 400);
		if (strchr(dec, '\\'))
			return refuse(r, 400);
		n++;
		if (!slash)
			break;
	}
	/* "/a/b/" has a last empty part: the trailing slash */
	trailing = n > 1 && parts[n - 1].n == 0;
	if (trailing)
		n--;
	/* no empty part inside ("//") */
	for (i = 0; i + 1 < n; i++)
		if (!parts[i].n)
			return refuse(r, 404);

	if (n == 1 && parts[0].n == 0)
		return found(r, WEB_FRONT);
	if (n == 1 && parts[0].n == 6 && !memcmp(parts[0].s, "search", 6))
		return found(r, WEB_SEARCH);
	if (n == 1 && parts[0].n == 10 && !memcmp(parts[0].s, "robots.txt", 10))
		return found(r, WEB_ROBOTS);
	if (parts[0].n == 1 && n == 2) {
		switch (parts[0].s[0]) {
		case 'l':
			st = take(&parts[1], r);
			return st ? refuse(r, st) : found(r, WEB_LIST);
		case 'm':
			st = take(&parts[1], r);
			return st ? refuse(r, st) : found(r, WEB_MSG);
		case 'r':
			st = take(&parts[1], r);
			return st ? refuse(r, st) : found(r, WEB_REDIRECT_MSG);
		case 'a':
			st = take(&parts[1], r);
			return st ? refuse(r, st) : found(r, WEB_AUTHOR);
		case 's':
			st = take(&parts[1], r);
			if (st)
				return refuse(r, st);
			if (!is_id(r->arg, &r->id))
				return refuse(r, 404);
			return found(r, WEB_SERIES);
		}
	}
	if (parts[0].n == 1 && parts[0].s[0] == 'f' && n >= 2) {
		/* the rest of the path, decoded part by part */
		size_t o = 0;

		for (i = 1; i < n; i++) {
			if (web_pct_decode(parts[i].s, parts[i].n, 0, dec, sizeof(dec)))
				return refuse(r, 400);
			if (strchr(dec, '/'))
				return refuse(r, 400);
			if (o + strlen(dec) + 2 > sizeof(r->arg))
				return refuse(r, 414);
			if (o)
				r->arg[o++] = '/';
			memcpy(r->arg + o, dec, strlen(dec));
			o += strlen(dec);
		}
		r->arg[o] = '\0';
		r->dir = trailing;
		return found(r, WEB_FILE);
	}
	if (parts[0].n == 3 && !memcmp(parts[0].s, "api", 3) && n >= 2 &&
	    parts[1].n == 2 && !memcmp(parts[1].s, "v1", 2)) {
		static const struct {
			const char *name;
			enum web_page page;
		} api[] = {
			{ "findings", WEB_API_FINDINGS }, { "patches", WEB_API_PATCHES },
			{ "series", WEB_API_SERIES }, { "reviews", WEB_API_REVIEWS },
			{ "versions", WEB_API_VERSIONS },
		};

		if (n == 2)
			return found(r, WEB_API_INDEX);
		if (n == 3) {
			for (i = 0; i < sizeof(api) / sizeof(api[0]); i++)
				if (parts[2].n == strlen(api[i].name) &&
				    !memcmp(parts[2].s, api[i].name, parts[2].n))
					return found(r, api[i].page);
		}
		return refuse(r, 404);
	}
	/* lore: /LIST/MESSAGE-ID/ (and /raw, /T/, ... after it) */
	if (n >= 2 && parts[0].n > 1) {
		st = take(&parts[1], r);
		if (st)
			return refuse(r, st);
		if (strchr(r->arg, '@'))
			return found(r, WEB_REDIRECT_MSG);
	}
	return refuse(r, 404);
}

/* ---- escaping -------------------------------------------------------------- */

void web_html_n(struct sbuf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t k;

	while (p < end) {
		switch (*p) {
		case '&':
			sbuf_addstr(out, "&amp;");
			break;
		case '<':
			sbuf_addstr(out, "&lt;");
			break;
		case '>':
			sbuf_addstr(out, "&gt;");
			break;
		case '"':
			sbuf_addstr(out, "&quot;");
			break;
		case '\'':
			sbuf_addstr(out, "&#39;");
			break;
		case '\n':
		case '\t':
			sbuf_addch(out, *p);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				sbuf_addstr(out, "\xef\xbf\xbd");
			} else if (*p >= 0x80) {
				k = (size_t)(end - p) >= 4 ? sbuf_utf8_len(p) : 0;
				if (!k && (size_t)(end - p) < 4) {
					/* near the end: check on a NUL-padded copy */
					unsigned char tmp[5] = { 0 };

					memcpy(tmp, p, (size_t)(end - p));
					k = sbuf_utf8_len(tmp);
				}
				if (k) {
					sbuf_add(out, p, k);
					p += k;
					continue;
				}
				sbuf_addstr(out, "\xef\xbf\xbd");
			} else {
				sbuf_addch(out, *p);
			}
		}
		p++;
	}
}

void web_html(struct sbuf *out, const char *s)
{
	if (s)
		web_html_n(out, s, strlen(s));
}

void web_url_part(struct sbuf *out, const char *s, int slash)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;

	for (p = (const unsigned char *)s; p && *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' || *p == '_' ||
		    *p == '~' || *p == '@' || (slash && *p == '/')) {
			sbuf_addch(out, *p);
		} else {
			sbuf_addch(out, '%');
			sbuf_addch(out, hex[*p >> 4]);
			sbuf_addch(out, hex[*p & 15]);
		}
	}
}

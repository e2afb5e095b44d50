// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: what reviewbot serve and the query by mail take from
 * strangers.  The first byte picks: 0 the query language (qfilter_parse,
 * then qfilter_words parsed again gives the same filters), 1 a URL path
 * (web_route: a known status, the argument NUL-terminated, never a "."
 * or ".." part), 2 HTML escaping (no markup character survives, the
 * output is UTF-8).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../bot/qfilter.h"
#include "../../bot/web/web_route.h"

#include "../../checker/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void query(const char *s, size_t n)
{
	struct qfilter f, g;
	struct sbuf words;
	char err[256];

	qfilter_init(&f);
	qfilter_init(&g);
	sbuf_init(&words, 1u << 16);
	if (!qfilter_parse(&f, s, n, 1793613600, err, sizeof(err))) {
		qfilter_words(&f, &words);
		if (words.err || qfilter_parse(&g, words.buf, words.len, 1793613600, err,
					       sizeof(err)))
			__builtin_trap();
		/* the words say the same filters */
		if ((!same(f.author, g.author) || !same(f.file, g.file) ||
		     !same(f.list, g.list) || !same(f.category, g.category) ||
		     !same(f.type, g.type) || !same(f.series, g.series) ||
		     f.since != g.since || f.until != g.until || f.limit != g.limit))
			__builtin_trap();
	} else if (!err[0] || !memchr(err, '\0', sizeof(err))) {
		__builtin_trap();
	}
	qfilter_release(&f);
	qfilter_release(&g);
	sbuf_release(&words);
}

static void route(const char *s)
{
	struct web_route r;
	int st = web_route(s, &r);

	if (st != r.status || (st != 200 && st != 400 && st != 404 && st != 414))
		__builtin_trap();
	if (!memchr(r.arg, '\0', sizeof(r.arg)))
		__builtin_trap();
	if (st == 200 && (!strcmp(r.arg, "..") || strstr(r.arg, "/../") ||
			  !strncmp(r.arg, "../", 3)))
		__builtin_trap();
	if (st != 200 && (r.page != WEB_NOT_FOUND || r.arg[0]))
		__builtin_trap();
}

static void html(const char *s, size_t n)
{
	struct sbuf sb;
	size_t i, k;

	sbuf_init(&sb, 16 * n + 16);
	web_html_n(&sb, s, n);
	for (i = 0; i < sb.len; i += k) {
		unsigned char c = (unsigned char)sb.buf[i];

		if (c == '<' || c == '>' || c == '"' || c == '\'' || c == 0 ||
		    (c < 0x20 && c != '\n' && c != '\t'))
			__builtin_trap();
		k = c < 0x80 ? 1 : sbuf_utf8_len((const unsigned char *)sb.buf + i);
		if (!k)
			__builtin_trap();
	}
	sbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1 || size > (1u << 16))
		return 0;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0:
		query(s, size - 1);
		break;
	case 1:
		route(s);
		break;
	default:
		html(s, size - 1);
		break;
	}
	free(s);
	return 0;
}

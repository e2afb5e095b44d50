/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * web_route: reviewbot serve's URLs, taken apart with no trust in them,
 * and the escaping of what goes back (HTML text and attributes, URL
 * parts).  Pure functions: no I/O, no store.
 *
 *   /                          the front page: every list
 *   /l/LIST/                   the front page of one list
 *   /m/MESSAGE-ID/             a patch (or cover letter) and its review:
 *                              lore's /LIST/MESSAGE-ID/ with the host and
 *                              the list part changed
 *   /LIST/MESSAGE-ID/...       (a lore URL with our host) and
 *   /r/MESSAGE-ID              redirect to /m/MESSAGE-ID/
 *   /s/ID/                     a series version
 *   /a/ADDRESS/                an author's series and findings
 *   /f/PATH                    findings in a file; /f/DIR/ in a folder
 *   /search?q=WORDS            the query language of bot/qfilter.h
 *   /api/v1/                   the JSON API's index
 *   /api/v1/{findings,patches,series,reviews,versions}
 *   /robots.txt
 *
 * A path is split at '/' first and each part percent-decoded after
 * (RFC 3986 2.1), so a Message-ID's own '/' travels as %2F as lore
 * writes it.  Refused with 400: a path not starting with '/', bytes
 * outside printable ASCII, a bad or NUL escape, a decoded control
 * character, a "." or ".." part (traversal: nothing is served from
 * files, but no such path means anything either).  414 past
 * WEB_MAX_PATH bytes.
 */
#ifndef RB_WEB_ROUTE_H
#define RB_WEB_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "../../checker/sbuf.h"

#define WEB_MAX_PATH	2048	/* bytes of a request's path */
#define WEB_MAX_ARG	1024	/* bytes of a decoded path part or parameter */

enum web_page {
	WEB_NOT_FOUND = 0,
	WEB_FRONT,
	WEB_LIST,
	WEB_MSG,
	WEB_SERIES,
	WEB_AUTHOR,
	WEB_FILE,
	WEB_SEARCH,
	WEB_REDIRECT_MSG,	/* to /m/ARG/ */
	WEB_ROBOTS,
	WEB_API_INDEX,
	WEB_API_FINDINGS,
	WEB_API_PATCHES,
	WEB_API_SERIES,
	WEB_API_REVIEWS,
	WEB_API_VERSIONS,
};

struct web_route {
	enum web_page page;
	int status;		/* 200, or 400 / 404 / 414 */
	int dir;		/* WEB_FILE: the path named a folder (a final '/') */
	int64_t id;		/* WEB_SERIES */
	char arg[WEB_MAX_ARG + 1];	/* the decoded part: list, Message-ID,
					 * address or path */
};

/* Routes path (the request's path, no query string).  Returns r->status. */
int web_route(const char *path, struct web_route *r);

/*
 * Percent-decodes s[0, n) into out (outlen bytes, NUL-terminated); '+'
 * is a space when plus (form values).  -1 for a bad escape, %00, a
 * decoded control character or a result that does not fit.
 */
int web_pct_decode(const char *s, size_t n, int plus, char *out, size_t outlen);

/* Appends s as HTML text or a quoted attribute value: & < > " ' as
 * entities, control characters and bytes that are not UTF-8 as U+FFFD,
 * so the page is well-formed UTF-8 whatever the mail held. */
void web_html(struct sbuf *out, const char *s);
/* The same for s[0, n). */
void web_html_n(struct sbuf *out, const char *s, size_t n);

/* Appends s percent-encoded for a path part ('/' kept when slash) or a
 * query value: all but A-Z a-z 0-9 - . _ ~ @ (and '/'). */
void web_url_part(struct sbuf *out, const char *s, int slash);

#endif

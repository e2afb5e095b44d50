/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * web_cache: the parts of the first pages that count a lot of the
 * history and read the same for everyone for a while: the front
 * pages' chart (a list's or every list's findings of 26 weeks: 135,000
 * of them on ten years of a busy list) and a folder's findings by type
 * (132,660 under drivers/), tests/bench/README.md.  Each is kept
 * WEB_CACHE_TTL seconds (what the pages' Cache-Control lets a browser
 * keep them anyway), at most WEB_CACHE_ENTRIES of them, the oldest
 * made room for first: a page costs its table, not that count, at
 * every request.  Keys are made by the caller from what decides the
 * text (the list or folder, the publish rule).  Thread-safe.
 */
#ifndef RB_WEB_CACHE_H
#define RB_WEB_CACHE_H

#include <stddef.h>

#include "../../checker/sbuf.h"

#define WEB_CACHE_TTL		60	/* seconds */
#define WEB_CACHE_ENTRIES	64
#define WEB_CACHE_MAX_KEY	1100	/* bytes of a key, more: not kept */
#define WEB_CACHE_MAX_TEXT	(256u << 10)	/* bytes of a text, more: not kept */

/* Appends the text kept under key, younger than WEB_CACHE_TTL, to out:
 * 1 when there was one, 0 when not. */
int web_cache_get(const char *key, struct sbuf *out);

/* Keeps text[0, len) under key (nothing when too long or out of memory). */
void web_cache_put(const char *key, const char *text, size_t len);

/* Forgets everything (tests). */
void web_cache_clear(void);

#endif

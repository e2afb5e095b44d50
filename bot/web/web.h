/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * web: what reviewbot serve answers, apart from HTTP.  A request (its
 * route, its decoded parameters) and a read-only store go in; a status,
 * a content type and a body come out.  bot/web/web_server.c speaks HTTP
 * (libmicrohttpd) around it; the unit tests call it directly.
 *
 *   web_page.c    the HTML pages (server-rendered, no JavaScript)
 *   web_chart.c   the findings-per-week chart, inline SVG
 *   web_api.c     the JSON API under /api/v1/
 *
 * Privacy: every question to the store carries ctx->publish, so the
 * pages and the API show only what store/store_web.h lets out; what
 * is not published is answered exactly as what does not exist (404).
 * Every text from mail is escaped (web_html(), sbuf_addjson()).
 */
#ifndef RB_WEB_H
#define RB_WEB_H

#include <stddef.h>
#include <stdint.h>

#include "../config.h"
#include "web_route.h"
#include "../../checker/sbuf.h"
#include "../../store/store.h"

#define WEB_MAX_BODY	(16u << 20)	/* bytes of one answer */
#define WEB_MAX_PARAMS	32		/* query parameters; more: 414 */
#define WEB_MAX_PARAMS_TEXT "32"
#define WEB_PAGE_ROWS	30		/* rows of a page's table */
#define WEB_API_ROWS	100		/* rows of an API answer by default */
#define WEB_API_MAX_ROWS 1000		/* ... at most */
/*
 * Paging: by key (after=ID, the last row of the page before), at any
 * depth for the cost of the first page; by offset only this far, as an
 * offset reads every row it skips (a page past the end of 2.7 million
 * findings took 6 s, tests/bench/README.md).
 */
#define WEB_MAX_PAGE	10		/* ?page=N of the HTML pages at most */
#define WEB_MAX_PAGE_TEXT "10"
#define WEB_MAX_OFFSET	1000		/* rows an API offset skips at most */
#define WEB_MAX_OFFSET_TEXT "1000"
#define WEB_CHART_WEEKS	26		/* weeks the chart shows */

struct web_ctx {
	struct store *st;		/* read-only (store_open_readonly) */
	const struct config *cfg;
	const char *publish;		/* publish_json(cfg) */
	int64_t now;
};

struct web_param {
	char key[32];
	char value[WEB_MAX_ARG + 1];	/* decoded */
};

struct web_request {
	struct web_route route;
	struct web_param params[WEB_MAX_PARAMS];
	size_t nparams;
};

struct web_response {
	int status;
	const char *type;		/* Content-Type */
	char location[WEB_MAX_PATH + 64]; /* a redirect's Location, or "" */
	struct sbuf body;
};

void web_response_init(struct web_response *r);
void web_response_release(struct web_response *r);

/* The decoded value of parameter key, or NULL (the first if repeated). */
const char *web_param(const struct web_request *req, const char *key);

struct qfilter;
/*
 * The filters of req into f (initialised): the words of parameter q
 * (bot/qfilter.h), then the parameters author, file, list, category,
 * type, since, until, series and limit, which replace what q said.
 * 0 or -1 with err.
 */
int web_filters(const struct web_ctx *ctx, const struct web_request *req,
		struct qfilter *f, char *err, size_t errlen);

/* Answers req into resp (initialised); never fails: a store error is a
 * 500 page. */
void web_answer(const struct web_ctx *ctx, const struct web_request *req,
		struct web_response *resp);

/* web_page.c */
void web_page(const struct web_ctx *ctx, const struct web_request *req,
	      struct web_response *resp);
/* web_api.c */
void web_api(const struct web_ctx *ctx, const struct web_request *req,
	     struct web_response *resp);

/* web_chart.c: findings of q per week and category, the last
 * WEB_CHART_WEEKS weeks up to the latest with a finding, as an <svg>
 * with a legend; a short sentence when there is none.  0 or a store
 * error. */
int web_chart(struct store *st, const struct store_query *q, struct sbuf *out);

#endif

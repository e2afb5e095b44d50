// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: what the pages and the API share (web.h): the response, the
 * request's parameters and its filters.  web_answer.c dispatches.
 */
#include "web.h"

#include <string.h>

#include "../qfilter.h"
#include "../../checker/banned.h"

void web_response_init(struct web_response *r)
{
	memset(r, 0, sizeof(*r));
	r->status = 200;
	r->type = "text/html; charset=utf-8";
	sbuf_init(&r->body, WEB_MAX_BODY);
}

void web_response_release(struct web_response *r)
{
	sbuf_release(&r->body);
}

const char *web_param(const struct web_request *req, const char *key)
{
	size_t i;

	for (i = 0; i < req->nparams; i++)
		if (!strcmp(req->params[i].key, key))
			return req->params[i].value;
	return NULL;
}

int web_filters(const struct web_ctx *ctx, const struct web_request *req,
		struct qfilter *f, char *err, size_t errlen)
{
	static const char *const keys[] = {
		"author", "file", "list", "category", "type", "since", "until",
		"series", "limit",
	};
	const char *v = web_param(req, "q");
	size_t i;

	if (v && qfilter_parse(f, v, strlen(v), ctx->now, err, errlen))
		return -1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = web_param(req, keys[i]);
		if (v && *v && qfilter_set(f, keys[i], v, ctx->now, err, errlen))
			return -1;
	}
	return 0;
}

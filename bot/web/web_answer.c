// SPDX-License-Identifier: GPL-2.0-only
/*
 * web_answer: a request to its page (web_page.c) or API answer
 * (web_api.c), by its route (web.h).
 */
#include "web.h"

#include "../../checker/banned.h"

void web_answer(const struct web_ctx *ctx, const struct web_request *req,
		struct web_response *resp)
{
	switch (req->route.page) {
	case WEB_API_INDEX:
	case WEB_API_FINDINGS:
	case WEB_API_PATCHES:
	case WEB_API_SERIES:
	case WEB_API_REVIEWS:
	case WEB_API_VERSIONS:
		web_api(ctx, req, resp);
		break;
	default:
		web_page(ctx, req, resp);
		break;
	}
	if (resp->body.err) {
		/* past WEB_MAX_BODY: say so rather than send half a page */
		sbuf_reset(&resp->body);
		resp->status = 500;
		resp->type = "text/plain; charset=utf-8";
		sbuf_addstr(&resp->body, "answer too large\n");
	}
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * web_api: the JSON API under /api/v1/ (reviewbot(1) "JSON API" names
 * every field; they do not change within v1).  Each list is one object:
 *
 *   {"offset":0,"after":null,"limit":100,"count":N,"next":URL|null,"findings":[...]}
 *
 * with "next" the same request for the following page while the page
 * is full: after=ID, the last row of this one (keyset paging: any depth
 * costs what the first page does; offset skips WEB_MAX_OFFSET rows at
 * most, as it reads every row it skips).  Filters as for the search page (web_filters()); limit at
 * most WEB_API_MAX_ROWS.  Errors are {"error":"..."} with a 4xx status.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../qfilter.h"
#include "../version.h"
#include "web.h"
#include "../../store/store_web.h"
#include "../../checker/banned.h"

static void iso_time(struct sbuf *b, const char *key, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	sbuf_addf(b, "\"%s\":", key);
	if (!t || !gmtime_r(&tt, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		sbuf_addstr(b, "null");
	else
		sbuf_addf(b, "\"%s\"", buf);
}

static void kv(struct sbuf *b, const char *key, const char *v)
{
	sbuf_addf(b, "\"%s\":", key);
	if (v)
		sbuf_addjson(b, v);
	else
		sbuf_addstr(b, "null");
}

static void url_msg(struct sbuf *b, const char *msgid)
{
	struct sbuf u;

	sbuf_addstr(b, "\"url\":");
	if (!msgid) {
		sbuf_addstr(b, "null");
		return;
	}
	sbuf_init(&u, WEB_MAX_PATH * 4);
	sbuf_addstr(&u, "/m/");
	web_url_part(&u, msgid, 0);
	sbuf_addch(&u, '/');
	sbuf_addjson(b, u.buf);
	sbuf_release(&u);
}

static void api_error(struct web_response *resp, int status, const char *msg)
{
	sbuf_reset(&resp->body);
	resp->status = status;
	sbuf_addstr(&resp->body, "{\"error\":");
	sbuf_addjson(&resp->body, msg);
	sbuf_addstr(&resp->body, "}\n");
}

struct rows {
	struct sbuf *b;
	size_t n, max;
	int64_t last;		/* the id of the last row of the page */
	int mail;		/* reviews: the mail too */
	struct store *st;
	int failed;
};

static int sep(struct rows *r)
{
	if (++r->n > r->max)
		return 0;	/* the one past the page: there is a next */
	if (r->n > 1)
		sbuf_addch(r->b, ',');
	sbuf_addch(r->b, '\n');
	return 1;
}

/* A finding's or a patch's object opened with the mail it is in. */
static void mail_fields(struct sbuf *b, int64_t date, const char *message_id,
			const char *subject, const char *author, const char *author_name,
			const char *list)
{
	sbuf_addch(b, '{');
	iso_time(b, "date", date);
	sbuf_addch(b, ',');
	kv(b, "message_id", message_id);
	sbuf_addch(b, ',');
	kv(b, "subject", subject);
	sbuf_addch(b, ',');
	kv(b, "author", author);
	sbuf_addch(b, ',');
	kv(b, "author_name", author_name);
	sbuf_addch(b, ',');
	kv(b, "list", list);
}

static int finding_obj(void *arg, const struct store_query_row *q)
{
	struct rows *r = arg;
	struct sbuf *b = r->b;

	if (!sep(r))
		return 0;
	r->last = q->f.id;
	mail_fields(b, q->date, q->message_id, q->subject, q->author_addr,
		    q->author_name, q->list);
	sbuf_addf(b, ",\"series_id\":%lld,\"version\":%d,\"version_minor\":%d,"
		  "\"part\":%d,\"total\":%d,", (long long)q->f.series_id, q->version,
		  q->version_minor, q->f.part, q->total);
	kv(b, "type", q->f.type);
	sbuf_addch(b, ',');
	kv(b, "severity", q->f.severity);
	sbuf_addch(b, ',');
	kv(b, "category", q->f.category);
	sbuf_addch(b, ',');
	kv(b, "file", q->f.file);
	sbuf_addf(b, ",\"line\":%ld,", q->f.line);
	kv(b, "message", q->f.message);
	sbuf_addch(b, ',');
	kv(b, "line_text", q->f.line_text);
	sbuf_addch(b, ',');
	kv(b, "fingerprint", q->f.fingerprint);
	sbuf_addch(b, ',');
	url_msg(b, q->message_id);
	sbuf_addch(b, '}');
	return 0;
}

static int patch_obj(void *arg, const struct store_patch_row *p)
{
	struct rows *r = arg;
	struct sbuf *b = r->b;

	if (!sep(r))
		return 0;
	r->last = p->p.id;
	mail_fields(b, p->date, p->message_id, p->p.subject, p->author_addr,
		    p->author_name, p->list);
	sbuf_addf(b, ",\"series_id\":%lld,\"version\":%d,\"version_minor\":%d,"
		  "\"part\":%d,\"total\":%d,\"errors\":%ld,\"warnings\":%ld,"
		  "\"checks\":%ld,\"findings\":%ld,",
		  (long long)p->p.series_id, p->version, p->version_minor, p->p.part,
		  p->total, p->p.errors,
		  p->p.warnings, p->p.checks, p->findings);
	url_msg(b, p->message_id);
	sbuf_addch(b, '}');
	return 0;
}

static const char *series_state(enum store_series_state s)
{
	return s == SERIES_REVIEWED ? "reviewed" : s == SERIES_SKIPPED ? "skipped" : "open";
}

static int series_obj(void *arg, const struct store_series_row *s)
{
	struct rows *r = arg;
	struct sbuf *b = r->b;
	int c;

	if (!sep(r))
		return 0;
	r->last = s->s.id;
	sbuf_addf(b, "{\"series_id\":%lld,", (long long)s->s.id);
	iso_time(b, "date", s->date);
	sbuf_addch(b, ',');
	kv(b, "subject", s->s.subject);
	sbuf_addch(b, ',');
	kv(b, "author", s->s.author_addr);
	sbuf_addch(b, ',');
	kv(b, "author_name", s->s.author_name);
	sbuf_addch(b, ',');
	kv(b, "list", s->s.list);
	sbuf_addf(b, ",\"version\":%d,\"version_minor\":%d,\"total\":%d,\"patches\":%ld,",
		  s->s.version, s->s.version_minor, s->s.total, s->patches);
	kv(b, "message_id", s->msgid);
	sbuf_addch(b, ',');
	url_msg(b, s->msgid);
	sbuf_addf(b, ",\"state\":\"%s\",\"findings\":{", series_state(s->s.state));
	for (c = 0; c < STORE_NCATEGORIES; c++)
		sbuf_addf(b, "%s\"%s\":%ld", c ? "," : "", store_categories[c], s->per_cat[c]);
	sbuf_addstr(b, "},\"review\":");
	if (!s->review_id || !s->review_published) {
		sbuf_addstr(b, "null}");
		return 0;
	}
	sbuf_addf(b, "{\"state\":\"%s\",",
		  s->reply_id ? store_reply_state_name((enum store_reply_state)s->reply_state) :
		  "none");
	kv(b, "reply_message_id", s->reply_id ? s->reply_msgid : NULL);
	sbuf_addch(b, ',');
	kv(b, "reason", s->reply_id ? s->reply_reason : NULL);
	sbuf_addch(b, ',');
	iso_time(b, "sent_at", s->reply_id && s->reply_state == REPLY_SENT ? s->reply_sent_at : 0);
	sbuf_addf(b, ",\"shown\":%ld,\"nits\":%ld,\"fixed\":%ld,\"new\":%ld,\"still\":%ld",
		  s->shown, s->nits, s->fixed, s->added, s->still);
	if (r->mail) {
		struct store_reply rp;

		sbuf_addstr(b, ",\"mail\":");
		if (s->reply_id && store_reply_get(r->st, s->reply_id, &rp) == STORE_OK) {
			sbuf_addjson(b, rp.body ? rp.body : "");
			store_reply_release(&rp);
		} else {
			sbuf_addstr(b, "null");
		}
	}
	sbuf_addstr(b, "}}");
	return 0;
}

/* ?NAME=N: 0 when absent; -1 when not a number from min to max */
static long long number_of(const struct web_request *req, const char *name,
			   long long min, long long max)
{
	const char *v = web_param(req, name);
	char *e;
	long long n;

	if (!v)
		return 0;
	n = strtoll(v, &e, 10);
	if (!*v || *e || n < min || n > max || n == LLONG_MAX)
		return -1;
	return n;
}

/* this request again after row id (the offset and after it had dropped) */
static void next_url(struct sbuf *b, const struct web_request *req, const char *path,
		     int64_t after)
{
	struct sbuf u;
	size_t i;

	sbuf_init(&u, WEB_MAX_PATH * 8);
	sbuf_addstr(&u, path);
	sbuf_addf(&u, "?after=%lld", (long long)after);
	for (i = 0; i < req->nparams; i++) {
		if (!strcmp(req->params[i].key, "offset") || !strcmp(req->params[i].key, "after"))
			continue;
		sbuf_addch(&u, '&');
		web_url_part(&u, req->params[i].key, 0);
		sbuf_addch(&u, '=');
		web_url_part(&u, req->params[i].value, 0);
	}
	sbuf_addjson(b, u.buf);
	sbuf_release(&u);
}

static void api_index(struct web_response *resp)
{
	sbuf_addf(&resp->body,
		  "{\"api\":\"reviewbot\",\"version\":\"v1\",\"reviewbot\":\"%s\","
		  "\"endpoints\":{\"findings\":\"/api/v1/findings\",\"patches\":\"/api/v1/patches\","
		  "\"series\":\"/api/v1/series\",\"reviews\":\"/api/v1/reviews\","
		  "\"versions\":\"/api/v1/versions?series=MESSAGE-ID\"},"
		  "\"filters\":[\"q\",\"author\",\"file\",\"list\",\"category\",\"type\",\"since\","
		  "\"until\",\"series\"],\"paging\":{\"limit\":%d,\"max_limit\":%d,\"offset\":0,"
		  "\"max_offset\":%d,\"after\":null},"
		  "\"manual\":\"reviewbot(1), JSON API\"}\n",
		  REVIEWBOT_VERSION, WEB_API_ROWS, WEB_API_MAX_ROWS, WEB_MAX_OFFSET);
}

static void api_versions(const struct web_ctx *ctx, const struct web_request *req,
			 struct web_response *resp)
{
	const char *typed = web_param(req, "series");
	struct sbuf *b = &resp->body;
	struct store_version *v = NULL;
	struct store_msg m;
	size_t n = 0, self = 0, i;
	char *msgid;
	int ret;

	msgid = typed ? qfilter_msgid(typed) : NULL;
	if (!msgid) {
		api_error(resp, 400, "versions needs series=MESSAGE-ID");
		return;
	}
	ret = store_msg_find(ctx->st, msgid, &m);
	if (ret == STORE_OK) {
		ret = m.series_id ? store_web_msg_published(ctx->st, ctx->publish, m.id) :
			STORE_DONE;
		if (ret == STORE_OK)
			ret = store_web_versions(ctx->st, m.series_id, ctx->publish, &v, &n, &self);
		store_msg_release(&m);
	}
	if (ret < 0) {
		api_error(resp, 500, "database error");
		goto out;
	}
	if (ret == STORE_DONE || self >= n) {
		api_error(resp, 404, "no such published message");
		goto out;
	}
	sbuf_addstr(b, "{");
	kv(b, "series", msgid);
	sbuf_addstr(b, ",\"versions\":[");
	for (i = 0; i < n; i++) {
		sbuf_addf(b, "%s\n{\"version\":%d,\"version_minor\":%d,\"series_id\":%lld,",
			  i ? "," : "", v[i].version, v[i].version_minor,
			  (long long)v[i].series_id);
		iso_time(b, "date", v[i].date);
		sbuf_addch(b, ',');
		kv(b, "message_id", v[i].msgid);
		sbuf_addch(b, ',');
		kv(b, "subject", v[i].subject);
		sbuf_addf(b, ",\"findings\":%ld,", v[i].findings);
		if (i)
			sbuf_addf(b, "\"fixed\":%ld,\"new\":%ld,\"still\":%ld,", v[i].fixed,
				  v[i].added, v[i].still);
		else
			sbuf_addstr(b, "\"fixed\":null,\"new\":null,\"still\":null,");
		sbuf_addf(b, "\"this\":%s,", i == self ? "true" : "false");
		url_msg(b, v[i].msgid);
		sbuf_addch(b, '}');
	}
	sbuf_addstr(b, "]}\n");
out:
	store_versions_free(v, n);
	free(msgid);
}

void web_api(const struct web_ctx *ctx, const struct web_request *req,
	     struct web_response *resp)
{
	static const char *const names[] = {
		[WEB_API_FINDINGS] = "findings", [WEB_API_PATCHES] = "patches",
		[WEB_API_SERIES] = "series", [WEB_API_REVIEWS] = "reviews",
	};
	enum web_page page = req->route.page;
	struct sbuf *b = &resp->body;
	struct store_query q;
	struct qfilter f;
	struct rows r;
	char err[256], path[32];
	long long offset, after;
	size_t limit;
	int ret;

	resp->type = "application/json";
	if (page == WEB_API_INDEX) {
		api_index(resp);
		return;
	}
	if (page == WEB_API_VERSIONS) {
		api_versions(ctx, req, resp);
		return;
	}
	qfilter_init(&f);
	if (web_filters(ctx, req, &f, err, sizeof(err))) {
		api_error(resp, 400, err);
		goto out;
	}
	offset = number_of(req, "offset", 0, WEB_MAX_OFFSET);
	if (offset < 0) {
		api_error(resp, 400, "offset takes a number from 0 to " WEB_MAX_OFFSET_TEXT
			  "; page on with next (after=)");
		goto out;
	}
	after = number_of(req, "after", 1, INT64_MAX);
	if (after < 0) {
		api_error(resp, 400, "after takes the id a next link gives");
		goto out;
	}
	if (f.limit > WEB_API_MAX_ROWS) {
		api_error(resp, 400, "limit is at most 1000 (page with offset)");
		goto out;
	}
	limit = f.limit ? f.limit : WEB_API_ROWS;
	memset(&q, 0, sizeof(q));
	qfilter_apply(&f, &q);
	q.publish = ctx->publish;
	q.limit = limit + 1;
	q.offset = (size_t)offset;
	q.after = after;
	q.newest_first = page == WEB_API_SERIES || page == WEB_API_REVIEWS;
	memset(&r, 0, sizeof(r));
	r.b = b;
	r.max = limit;
	r.st = ctx->st;
	r.mail = page == WEB_API_REVIEWS && web_param(req, "mail") &&
		 !strcmp(web_param(req, "mail"), "1");
	snprintf(path, sizeof(path), "/api/v1/%s", names[page]);
	sbuf_addf(b, "{\"offset\":%lld,\"after\":", offset);
	if (after)
		sbuf_addf(b, "%lld", after);
	else
		sbuf_addstr(b, "null");
	sbuf_addf(b, ",\"limit\":%zu,\"%s\":[", limit, names[page]);
	if (page == WEB_API_FINDINGS)
		ret = store_query_findings(ctx->st, &q, finding_obj, &r);
	else if (page == WEB_API_PATCHES)
		ret = store_query_patches(ctx->st, &q, patch_obj, &r);
	else
		ret = store_web_series(ctx->st, &q, page == WEB_API_REVIEWS, series_obj, &r);
	if (ret < 0) {
		api_error(resp, 500, "database error");
		goto out;
	}
	sbuf_addf(b, "\n],\"count\":%zu,\"next\":", r.n > r.max ? r.max : r.n);
	if (r.n > r.max && r.last > 0)
		next_url(b, req, path, r.last);
	else
		sbuf_addstr(b, "null");
	sbuf_addstr(b, "}\n");
out:
	qfilter_release(&f);
}

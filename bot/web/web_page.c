// SPDX-License-Identifier: GPL-2.0-only
/*
 * web_page: reviewbot serve's HTML pages, made on the server: small,
 * without JavaScript, readable on a phone (one column, tables that
 * scroll sideways).  Every text from mail goes through web_html().
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../mail/subject.h"
#include "../qfilter.h"
#include "../version.h"
#include "web.h"
#include "web_cache.h"
#include "../../checker/readiness.h"
#include "../../checker/rules.h"
#include "../../store/store_web.h"
#include "../../checker/banned.h"

#define MAX_SHOWN	2000	/* findings one page lists at most */

static const char style[] =
	"body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:64em;"
	"padding:0 .8em;color:#222;background:#fff}"
	"header{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;"
	"padding:.5em 0;border-bottom:1px solid #ddd}"
	"header>a{font-weight:600;text-decoration:none}"
	"header form{flex:1;display:flex;gap:.3em;min-width:14em}"
	"header input{flex:1;min-width:0;font:inherit;padding:.2em .3em}"
	"h1{font-size:1.3em;margin:.6em 0 .3em;overflow-wrap:anywhere}"
	"h2{font-size:1.1em;margin:1.2em 0 .3em}"
	"a{color:#1a5fb4}"
	".scroll{overflow-x:auto}"
	"table{border-collapse:collapse;width:100%}"
	"th,td{text-align:left;padding:.2em .4em;border-bottom:1px solid #eee;"
	"vertical-align:top}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"pre{background:#f6f6f6;padding:.6em;font-size:13px;white-space:pre-wrap;"
	"overflow-wrap:anywhere}"
	"code{font-size:13px;overflow-wrap:anywhere}"
	".meta{color:#555}"
	".ok{color:#1e7b34}.concern{color:#b00020;font-weight:600}.na{color:#777}"
	".new{color:#b00020}.still{color:#8a5a00}"
	"ul.ready{list-style:none;padding:0;margin:.3em 0}"
	".cl{white-space:nowrap;font-size:13px}"
	".cl b{font-weight:normal;margin-right:.3em}.cl b.concern{font-weight:700}"
	"td.d{white-space:nowrap}"
	".chart svg{width:100%;height:auto;max-height:14em}"
	".chart figcaption{font-size:13px}"
	"figure{margin:.5em 0}"
	".key{margin-right:.8em;white-space:nowrap}"
	".sw{display:inline-block;width:.8em;height:.8em;margin-right:.25em}"
	".c0{background:#c0392b}.c1{background:#8e44ad}.c2{background:#d35400}"
	".c3{background:#2471a3}.c4{background:#7f8c8d}"
	".err{color:#b00020}"
	"nav.pages{margin:.8em 0}"
	"footer{margin:2em 0 1em;color:#666;font-size:13px}";

static const char *const crit_label[CHK_CRIT__COUNT] = {
	"security", "user-space interface", "affects others", "maintainer",
	"compiles", "seems to work", "process",
};
/* a series table's checklist: a letter each, on one line */
static const char crit_letter[CHK_CRIT__COUNT] = { 'S', 'U', 'O', 'M', 'C', 'W', 'P' };
#define CHECKLIST_KEY "S security, U user-space interface, O affects others, " \
	"M maintainer, C compiles, W seems to work, P process: &#10003; nothing found, " \
	"! concern, ? not checked"

/* ---- pieces ------------------------------------------------------------- */

static void fmt_time(int64_t t, int with_time, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) ||
	    !strftime(buf, n, with_time ? "%Y-%m-%d %H:%M UTC" : "%Y-%m-%d", &tm))
		snprintf(buf, n, "-");
}

static void head(struct sbuf *b, const char *title, const char *search)
{
	sbuf_addstr(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
		    "<title>");
	web_html(b, title);
	sbuf_addstr(b, " - reviewbot</title><style>");
	sbuf_addstr(b, style);
	sbuf_addstr(b, "</style></head>\n<body><header><a href=\"/\">reviewbot</a>"
		    "<form action=\"/search\" method=\"get\" role=\"search\">"
		    "<input name=\"q\" aria-label=\"query\" value=\"");
	web_html(b, search ? search : "");
	sbuf_addstr(b, "\" placeholder=\"category:uapi file:drivers/*\">"
		    "<button>Search</button></form></header>\n<main>\n");
}

static void foot(struct sbuf *b)
{
	sbuf_addf(b, "</main>\n<footer>reviewbot %s &middot; <a href=\"/api/v1/\">JSON API</a>"
		  " &middot; only mail sent to public lists is shown, and nothing of"
		  " authors who opted out</footer>\n</body></html>\n", REVIEWBOT_VERSION);
}

static void link_msg(struct sbuf *b, const char *msgid, const char *text)
{
	if (!msgid) {
		web_html(b, text);
		return;
	}
	sbuf_addstr(b, "<a href=\"/m/");
	web_url_part(b, msgid, 0);
	sbuf_addstr(b, "/\">");
	web_html(b, text && *text ? text : msgid);
	sbuf_addstr(b, "</a>");
}

static void link_author(struct sbuf *b, const char *addr, const char *name)
{
	if (!addr) {
		web_html(b, name ? name : "-");
		return;
	}
	sbuf_addstr(b, "<a href=\"/a/");
	web_url_part(b, addr, 0);
	sbuf_addstr(b, "/\">");
	web_html(b, name && *name ? name : addr);
	sbuf_addstr(b, "</a>");
}

static void link_file(struct sbuf *b, const char *file, long line)
{
	if (!file) {
		sbuf_addstr(b, "(commit message)");
		return;
	}
	sbuf_addstr(b, "<a href=\"/f/");
	web_url_part(b, file, 1);
	sbuf_addstr(b, "\"><code>");
	web_html(b, file);
	sbuf_addstr(b, "</code></a>");
	if (line)
		sbuf_addf(b, ":%ld", line);
}

static void error_page(struct web_response *resp, int status, const char *title,
		       const char *text)
{
	sbuf_reset(&resp->body);
	resp->status = status;
	head(&resp->body, title, NULL);
	sbuf_addstr(&resp->body, "<h1>");
	web_html(&resp->body, title);
	sbuf_addstr(&resp->body, "</h1>\n<p>");
	web_html(&resp->body, text);
	sbuf_addstr(&resp->body, "</p>\n");
	foot(&resp->body);
}

static void store_failed(const struct web_ctx *ctx, struct web_response *resp)
{
	(void)ctx;
	error_page(resp, 500, "Database error",
		   "The history could not be read just now; try again in a moment.");
}

static void not_here(struct web_response *resp)
{
	error_page(resp, 404, "Not found",
		   "There is no such page here.  A patch is shown only when it was sent"
		   " to a public list and its author has not opted out.");
}

/* ---- the checklist, from the stored findings ------------------------------ */

struct checklist {
	struct chk_readiness rd;
	char note[2][160];	/* compile and load stages' notes */
	int failed;
	/* as the review mail said it (it leaves out what a later patch of
	 * the series settles), when there is one to read */
	int from_review;
	char said[CHK_CRIT__COUNT][160];
};

static int collect_rule(void *arg, const struct store_query_row *r)
{
	struct chk_result *res = arg;
	int rule = r->f.type ? rule_find(r->f.type, strlen(r->f.type)) : -1;

	if (rule < 0)
		return 0;	/* an unknown type counts in no criterion */
	if (res->n == res->alloc) {
		size_t na = res->alloc ? res->alloc * 2 : 32;
		struct chk_finding *nf;

		if (na > MAX_SHOWN * 8)
			return 0;
		nf = realloc(res->f, na * sizeof(*nf));
		if (!nf)
			return STORE_ERR_NOMEM;
		res->f = nf;
		res->alloc = na;
	}
	memset(&res->f[res->n], 0, sizeof(res->f[0]));
	res->f[res->n++].rule = (enum rule_id)rule;
	return 0;
}

/*
 * The "Merge readiness" block of a review mail (templates/review.txt):
 * "  label:   value" lines after it, up to a blank line.  Each label
 * known sets that criterion's state from its value's first words (ok
 * or "no ...": nothing found; concern or "fixes ...": a concern; anything
 * else is not checked).  0 when no line was found (a
 * template without the block): the findings' readiness stays.
 */
static int checklist_from_mail(const char *body, struct checklist *cl)
{
	const char *p = body ? strstr(body, "\nMerge readiness\n") : NULL;
	const char *nl, *colon, *v;
	int c, found = 0;

	if (!p)
		return 0;
	for (p = strchr(p + 1, '\n') + 1; *p == ' '; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		colon = memchr(p, ':', (size_t)(nl - p));
		if (!colon)
			break;
		for (v = colon + 1; v < nl && *v == ' '; v++)
			;
		while (*p == ' ')
			p++;
		for (c = 0; c < CHK_CRIT__COUNT; c++) {
			if ((size_t)(colon - p) != strlen(crit_label[c]) ||
			    memcmp(p, crit_label[c], (size_t)(colon - p)))
				continue;
			/* "ok" and "no <finding> ..." found nothing; "concern"
			 * and "fixes a security bug" want a look; the rest
			 * ("not checked", "pending") was not checked */
			cl->rd.crit[c].state = !strncmp(v, "ok", 2) || !strncmp(v, "no ", 3) ?
				CHK_READY_OK :
				!strncmp(v, "concern", 7) || !strncmp(v, "fixes ", 6) ?
				CHK_READY_CONCERN : CHK_READY_NOT_CHECKED;
			cl->rd.crit[c].n = 0;
			snprintf(cl->said[c], sizeof(cl->said[c]), "%.*s", (int)(nl - v), v);
			found = 1;
		}
	}
	cl->from_review = found;
	return found;
}

/* The merge-readiness of a series: what its review mail said when it
 * may be shown (row r), else from its published findings, and its
 * compile and load stages when they ran. */
static int series_checklist(const struct web_ctx *ctx, int64_t series_id,
			    const struct store_series_row *r, struct checklist *cl)
{
	struct store_query q;
	struct store_stage sg;
	struct chk_result res;
	int ret, k;

	memset(cl, 0, sizeof(*cl));
	memset(&res, 0, sizeof(res));
	memset(&q, 0, sizeof(q));
	chk_readiness_init(&cl->rd);
	q.series_id = series_id;
	q.publish = ctx->publish;
	ret = store_query_findings(ctx->st, &q, collect_rule, &res);
	if (ret >= 0)
		chk_readiness_patch(&res, &cl->rd);
	free(res.f);
	if (ret < 0)
		return ret;
	for (k = 0; k < 2; k++) {
		ret = store_stage_get(ctx->st, series_id, k ? STAGE_LOAD : STAGE_COMPILE, &sg);
		if (ret < 0)
			return ret;
		if (ret == STORE_DONE)
			continue;
		if (sg.done && sg.verdict > 0 && sg.verdict <= CHK_READY_NOT_CHECKED + 1)
			cl->rd.crit[k ? CHK_CRIT_WORKS : CHK_CRIT_COMPILES].state =
				(enum chk_ready)(sg.verdict - 1);
		if (sg.note)
			snprintf(cl->note[k], sizeof(cl->note[k]), "%s", sg.note);
		else if (!sg.done)
			snprintf(cl->note[k], sizeof(cl->note[k]), "queued");
		store_stage_release(&sg);
	}
	if (r && r->review_published && r->reply_id) {
		struct store_reply rp;

		ret = store_reply_get(ctx->st, r->reply_id, &rp);
		if (ret < 0)
			return ret;
		if (ret == STORE_OK) {
			checklist_from_mail(rp.body, cl);
			store_reply_release(&rp);
		}
	}
	return 0;
}

static const char *state_class(enum chk_ready s)
{
	return s == CHK_READY_OK ? "ok" : s == CHK_READY_CONCERN ? "concern" : "na";
}

static void checklist_full(struct sbuf *b, const struct checklist *cl)
{
	int c;

	sbuf_addstr(b, "<ul class=\"ready\">\n");
	for (c = 0; c < CHK_CRIT__COUNT; c++) {
		const struct chk_ready_crit *k = &cl->rd.crit[c];
		const char *note = c == CHK_CRIT_COMPILES ? cl->note[0] :
				   c == CHK_CRIT_WORKS ? cl->note[1] : "";

		sbuf_addf(b, "<li>%s: <span class=\"%s\">", crit_label[c],
			  state_class(k->state));
		if (cl->from_review && cl->said[c][0]) {
			web_html(b, cl->said[c]);
			note = "";	/* the mail's words say it */
		} else {
			sbuf_addstr(b, chk_ready_name(k->state));
		}
		if (k->state == CHK_READY_CONCERN && k->n)
			sbuf_addf(b, " (%zu finding%s)", k->n, k->n == 1 ? "" : "s");
		sbuf_addstr(b, "</span>");
		if (*note) {
			sbuf_addstr(b, " <span class=\"meta\">");
			web_html(b, note);
			sbuf_addstr(b, "</span>");
		}
		sbuf_addstr(b, "</li>\n");
	}
	sbuf_addstr(b, "</ul>\n");
	sbuf_addstr(b, cl->from_review ?
		    "<p class=\"meta\">As the review mail says.</p>\n" :
		    "<p class=\"meta\">From the stored findings (no review mail to read).</p>\n");
}

/*
 * A series table's checklist: the six criteria as letters on one line
 * ("S&#10003; U! O&#10003; M&#10003; C? W?"), each with its words as a
 * title; six badges a row, stacked, showed a dozen series a screen.
 */
static void checklist_line(struct sbuf *b, const struct checklist *cl)
{
	int c;

	sbuf_addstr(b, "<span class=\"cl\">");
	for (c = 0; c < CHK_CRIT__COUNT; c++) {
		enum chk_ready s = cl->rd.crit[c].state;

		sbuf_addf(b, "<b class=\"%s\" title=\"%s: %s\">%c%s</b>",
			  state_class(s), crit_label[c], chk_ready_name(s), crit_letter[c],
			  s == CHK_READY_OK ? "&#10003;" : s == CHK_READY_CONCERN ? "!" : "?");
	}
	sbuf_addstr(b, "</span>");
}

/* ---- tables ---------------------------------------------------------------- */

struct series_table {
	const struct web_ctx *ctx;
	struct sbuf *b;
	size_t rows, max;
	int failed;
	int64_t last;		/* the last series shown */
};

static int series_tr(void *arg, const struct store_series_row *r)
{
	struct series_table *t = arg;
	struct sbuf *b = t->b;
	struct checklist cl;
	char date[32], ver[16];
	int c;

	if (++t->rows > t->max)
		return 0;	/* one more than shown: there is a next page */
	t->last = r->s.id;
	fmt_time(r->date, 0, date, sizeof(date));
	subject_version_tag(r->s.version, r->s.version_minor, ver, sizeof(ver));
	sbuf_addf(b, "<tr><td class=\"d\">%s</td><td>", date);
	link_msg(b, r->msgid, r->s.subject ? r->s.subject : "(no subject)");
	sbuf_addstr(b, " <span class=\"meta\">");
	sbuf_addf(b, "%s%ld/%d</span></td><td>", ver, r->patches, r->s.total);
	link_author(b, r->s.author_addr, r->s.author_name);
	sbuf_addstr(b, "</td><td>");
	if (series_checklist(t->ctx, r->s.id, r, &cl) < 0) {
		t->failed = 1;
		chk_readiness_release(&cl.rd);
		return STORE_ERR;
	}
	checklist_line(b, &cl);
	chk_readiness_release(&cl.rd);
	sbuf_addstr(b, "</td>");
	for (c = 0; c < STORE_NCATEGORIES; c++)
		sbuf_addf(b, "<td class=\"n\">%ld</td>", r->per_cat[c]);
	sbuf_addstr(b, "<td>");
	if (!r->review_id)
		sbuf_addstr(b, r->s.state == SERIES_SKIPPED ? "skipped" : "waiting");
	else if (!r->review_published)
		sbuf_addstr(b, "-");
	else if (!r->reply_id)
		sbuf_addstr(b, "no mail");
	else
		sbuf_addstr(b, store_reply_state_name((enum store_reply_state)r->reply_state));
	sbuf_addstr(b, "</td></tr>\n");
	return 0;
}

/*
 * Where a table's page starts: ?after=ID, the last row of the page
 * before (keyset paging: a page deep in the history costs what the
 * first does), or ?page=N for the first WEB_MAX_PAGE pages (links made
 * before; an offset reads every row it skips, so no deeper).
 */
struct paging {
	size_t page;
	int64_t after;
	int64_t last;		/* out: the last row shown */
	int more;		/* out: there is a next page */
};

static int paging_first(const struct paging *pg)
{
	return !pg->page && !pg->after;
}

/* The series of q (newest first), the page pg says; 0 or a store error. */
static int series_table(const struct web_ctx *ctx, struct sbuf *b, struct store_query *q,
			struct paging *pg, size_t *shown)
{
	struct series_table t = { ctx, b, 0, WEB_PAGE_ROWS, 0, 0 };
	int ret, c;

	q->publish = ctx->publish;
	q->newest_first = 1;
	q->limit = WEB_PAGE_ROWS + 1;
	q->offset = pg->after ? 0 : pg->page * WEB_PAGE_ROWS;
	q->after = pg->after;
	sbuf_addstr(b, "<div class=\"scroll\"><table><thead><tr><th>date</th><th>series</th>"
		    "<th>author</th><th title=\"" CHECKLIST_KEY "\">checklist</th>");
	for (c = 0; c < STORE_NCATEGORIES; c++)
		sbuf_addf(b, "<th title=\"findings: %s\">%.4s</th>", store_categories[c],
			  store_categories[c]);
	sbuf_addstr(b, "<th>review</th></tr></thead><tbody>\n");
	ret = store_web_series(ctx->st, q, 0, series_tr, &t);
	sbuf_addstr(b, "</tbody></table></div>\n");
	*shown = t.rows > t.max ? t.max : t.rows;
	pg->more = t.rows > t.max;
	pg->last = t.last;
	return ret < 0 ? ret : 0;
}

struct finding_table {
	struct sbuf *b;
	size_t rows, max;
	int with_where;		/* the patch and author columns */
	int64_t last;		/* the last finding shown */
};

static int finding_tr(void *arg, const struct store_query_row *r)
{
	struct finding_table *t = arg;
	struct sbuf *b = t->b;
	char date[32];

	if (++t->rows > t->max)
		return 0;
	t->last = r->f.id;
	sbuf_addstr(b, "<tr>");
	if (t->with_where) {
		fmt_time(r->date, 0, date, sizeof(date));
		sbuf_addf(b, "<td>%s</td><td>", date);
		link_msg(b, r->message_id, r->subject);
		sbuf_addstr(b, "</td><td>");
		link_author(b, r->author_addr, r->author_name);
		sbuf_addstr(b, "</td>");
	}
	sbuf_addstr(b, "<td>");
	web_html(b, r->f.category);
	sbuf_addstr(b, "</td><td><code>");
	web_html(b, r->f.type);
	sbuf_addstr(b, "</code></td><td>");
	link_file(b, r->f.file, r->f.line);
	sbuf_addstr(b, "</td><td>");
	web_html(b, r->f.message);
	sbuf_addstr(b, "</td></tr>\n");
	return 0;
}

static int finding_table(const struct web_ctx *ctx, struct sbuf *b, struct store_query *q,
			 struct paging *pg)
{
	struct finding_table t = { b, 0, WEB_PAGE_ROWS * 2, 1, 0 };
	int ret;

	q->publish = ctx->publish;
	q->newest_first = 1;
	q->limit = t.max + 1;
	q->offset = pg->after ? 0 : pg->page * t.max;
	q->after = pg->after;
	sbuf_addstr(b, "<div class=\"scroll\"><table><thead><tr><th>date</th><th>patch</th>"
		    "<th>author</th><th>category</th><th>type</th><th>where</th>"
		    "<th>message</th></tr></thead><tbody>\n");
	ret = store_query_findings(ctx->st, q, finding_tr, &t);
	sbuf_addstr(b, "</tbody></table></div>\n");
	pg->more = t.rows > t.max;
	pg->last = t.last;
	return ret < 0 ? ret : 0;
}

struct count_list {
	struct sbuf *b;
	unsigned key;
};

static int count_li(void *arg, const struct store_count_row *r)
{
	struct count_list *c = arg;
	const char *v = c->key == COUNT_TYPE ? r->type : r->category;

	sbuf_addstr(c->b, "<li>");
	if (c->key == COUNT_TYPE) {
		sbuf_addstr(c->b, "<code>");
		web_html(c->b, v);
		sbuf_addstr(c->b, "</code>");
	} else {
		web_html(c->b, v);
	}
	sbuf_addf(c->b, ": %lld</li>\n", r->n);
	return 0;
}

static int count_list(const struct web_ctx *ctx, struct sbuf *b, struct store_query *q,
		      unsigned key, size_t limit)
{
	struct count_list c = { b, key };
	int ret;

	q->publish = ctx->publish;
	q->limit = limit;
	q->offset = 0;
	sbuf_addstr(b, "<ul>\n");
	ret = store_query_count(ctx->st, q, key, count_li, &c);
	sbuf_addstr(b, "</ul>\n");
	return ret < 0 ? ret : 0;
}

/* ---- what the first pages count, kept a while (web_cache.h) ----------------- */

/* the cache key of what names: the publish rule (as a hash) and names */
static void cache_key(const struct web_ctx *ctx, const char *what, const char *names,
		      char *key, size_t keylen)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const unsigned char *p;

	for (p = (const unsigned char *)(ctx->publish ? ctx->publish : ""); *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	snprintf(key, keylen, "%s %016llx %s", what, (unsigned long long)h, names);
}

/* web_chart() of q (a list's or every list's: nothing else set), kept */
static int chart_kept(const struct web_ctx *ctx, const struct store_query *q, struct sbuf *b)
{
	char key[WEB_CACHE_MAX_KEY + 1];
	struct sbuf tmp;
	int ret;

	cache_key(ctx, "chart", q->list ? q->list : "", key, sizeof(key));
	if (web_cache_get(key, b))
		return 0;
	sbuf_init(&tmp, WEB_MAX_BODY);
	ret = web_chart(ctx->st, q, &tmp);
	if (ret >= 0 && !tmp.err)
		web_cache_put(key, tmp.buf, tmp.len);
	sbuf_add(b, tmp.buf, tmp.len);
	sbuf_release(&tmp);
	return ret;
}

/* count_list() of a file's or folder's findings (glob) by type, kept */
static int types_kept(const struct web_ctx *ctx, const char *glob, size_t limit,
		      struct sbuf *b)
{
	char key[WEB_CACHE_MAX_KEY + 1];
	struct store_query q;
	struct sbuf tmp;
	int ret, keep = strlen(glob) < WEB_CACHE_MAX_KEY - 32;

	cache_key(ctx, "types", glob, key, sizeof(key));
	if (keep && web_cache_get(key, b))
		return 0;
	memset(&q, 0, sizeof(q));
	q.file_glob = glob;
	sbuf_init(&tmp, WEB_MAX_BODY);
	ret = count_list(ctx, &tmp, &q, COUNT_TYPE, limit);
	if (ret >= 0 && !tmp.err && keep)
		web_cache_put(key, tmp.buf, tmp.len);
	sbuf_add(b, tmp.buf, tmp.len);
	sbuf_release(&tmp);
	return ret;
}

/*
 * ?page=N and ?after=ID into pg: 0 when absent (and a page that is no
 * number, as before); -1 for a page past WEB_MAX_PAGE or an after that
 * is no row id (400: the next-page links say after=).
 */
static int paging_of(const struct web_request *req, struct paging *pg)
{
	const char *v = web_param(req, "page"), *a = web_param(req, "after");
	char *e;
	long long n;

	memset(pg, 0, sizeof(*pg));
	if (a) {
		n = strtoll(a, &e, 10);
		if (!*a || *e || n <= 0 || n == LLONG_MAX)
			return -1;
		pg->after = n;
	}
	if (!v || !*v)
		return 0;
	n = strtoll(v, &e, 10);
	if (*e || n < 0)
		return 0;
	if (n > WEB_MAX_PAGE)
		return -1;
	pg->page = (size_t)n;
	return 0;
}

static void bad_paging(struct web_response *resp)
{
	error_page(resp, 400, "Bad request",
		   "Pages are reached with their next-page links (after=); page takes a"
		   " number up to " WEB_MAX_PAGE_TEXT ".");
}

/* base with the request's parameters but page and after, and after=ID
 * first when ID > 0 (an attribute value: & as &amp;) */
static void page_url(struct sbuf *b, const struct web_request *req, const char *base,
		     int64_t after)
{
	size_t i;
	int first = 1;

	sbuf_addstr(b, base);
	if (after > 0) {
		sbuf_addf(b, "?after=%lld", (long long)after);
		first = 0;
	}
	for (i = 0; i < req->nparams; i++) {
		if (!strcmp(req->params[i].key, "page") || !strcmp(req->params[i].key, "after"))
			continue;
		sbuf_addstr(b, first ? "?" : "&amp;");
		first = 0;
		web_url_part(b, req->params[i].key, 0);
		sbuf_addch(b, '=');
		web_url_part(b, req->params[i].value, 0);
	}
}

/* links to the first page and the one after, keeping the other parameters */
static void pager(struct sbuf *b, const struct web_request *req, const char *base,
		  const struct paging *pg)
{
	if (paging_first(pg) && !pg->more)
		return;
	sbuf_addstr(b, "<nav class=\"pages\">");
	if (!paging_first(pg)) {
		sbuf_addstr(b, "<a href=\"");
		page_url(b, req, base, 0);
		sbuf_addstr(b, "\">&larr; newest</a> ");
	}
	if (pg->more && pg->last > 0) {
		sbuf_addstr(b, "<a href=\"");
		page_url(b, req, base, pg->last);
		sbuf_addstr(b, "\">next page &rarr;</a>");
	}
	sbuf_addstr(b, "</nav>\n");
}

/* ---- the front page -------------------------------------------------------- */

struct lists_nav {
	struct sbuf *b;
	const char *cur;
	int n;
};

static int list_li(void *arg, const char *list, long long series, int64_t latest)
{
	struct lists_nav *l = arg;

	(void)latest;
	if (!l->n++)
		sbuf_addstr(l->b, "<p class=\"meta\">Lists: ");
	else
		sbuf_addstr(l->b, " &middot; ");
	if (l->cur && !strcmp(l->cur, list)) {
		web_html(l->b, list);
	} else {
		sbuf_addstr(l->b, "<a href=\"/l/");
		web_url_part(l->b, list, 0);
		sbuf_addstr(l->b, "/\">");
		web_html(l->b, list);
		sbuf_addstr(l->b, "</a>");
	}
	sbuf_addf(l->b, " (%lld)", series);
	return 0;
}

static void page_front(const struct web_ctx *ctx, const struct web_request *req,
		       struct web_response *resp, const char *list)
{
	struct sbuf *b = &resp->body;
	struct lists_nav ln = { b, list, 0 };
	struct store_query q;
	struct paging pg;
	size_t shown;

	if (paging_of(req, &pg)) {
		bad_paging(resp);
		return;
	}
	head(b, list ? list : "Patch reviews", list ? "" : NULL);
	if (list) {
		sbuf_addstr(b, "<h1>");
		web_html(b, list);
		sbuf_addstr(b, "</h1>\n");
	} else {
		sbuf_addstr(b, "<h1>Patch reviews</h1>\n");
	}
	if (store_web_lists(ctx->st, ctx->publish, list_li, &ln) < 0)
		goto fail;
	if (ln.n) {
		if (list)
			sbuf_addstr(b, " &middot; <a href=\"/\">all lists</a>");
		sbuf_addstr(b, "</p>\n");
	}
	/* the chart on the first page only: a later one is its table */
	if (paging_first(&pg)) {
		sbuf_addstr(b, "<h2>Findings per week</h2>\n");
		memset(&q, 0, sizeof(q));
		q.list = list;
		q.publish = ctx->publish;
		if (chart_kept(ctx, &q, b) < 0)
			goto fail;
	}
	sbuf_addstr(b, paging_first(&pg) ? "<h2>Latest series</h2>\n" : "<h2>Series</h2>\n");
	memset(&q, 0, sizeof(q));
	q.list = list;
	if (series_table(ctx, b, &q, &pg, &shown) < 0)
		goto fail;
	if (!shown)
		sbuf_addstr(b, "<p class=\"none\">No series yet.</p>\n");
	if (list) {
		struct sbuf base;

		sbuf_init(&base, WEB_MAX_PATH + 16);
		sbuf_addstr(&base, "/l/");
		web_url_part(&base, list, 0);
		sbuf_addch(&base, '/');
		pager(b, req, base.buf, &pg);
		sbuf_release(&base);
	} else {
		pager(b, req, "/", &pg);
	}
	foot(b);
	return;
fail:
	store_failed(ctx, resp);
}

/* ---- a series version, a message -------------------------------------------- */

struct one_row {
	struct store_series_row r;
	char *subject, *msgid, *author, *name, *list, *reply_msgid, *reply_reason;
	int found;
};

static int keep_row(void *arg, const struct store_series_row *r)
{
	struct one_row *o = arg;

	o->found = 1;
	o->r = *r;
	o->subject = r->s.subject ? strdup(r->s.subject) : NULL;
	o->msgid = r->msgid ? strdup(r->msgid) : NULL;
	o->author = r->s.author_addr ? strdup(r->s.author_addr) : NULL;
	o->name = r->s.author_name ? strdup(r->s.author_name) : NULL;
	o->list = r->s.list ? strdup(r->s.list) : NULL;
	o->reply_msgid = r->reply_msgid ? strdup(r->reply_msgid) : NULL;
	o->reply_reason = r->reply_reason ? strdup(r->reply_reason) : NULL;
	/* the row's own strings die with the call */
	o->r.s.subject = o->subject;
	o->r.msgid = o->msgid;
	o->r.s.author_addr = o->author;
	o->r.s.author_name = o->name;
	o->r.s.list = o->list;
	o->r.reply_msgid = o->reply_msgid;
	o->r.reply_reason = o->reply_reason;
	o->r.s.root = o->r.s.prefix = o->r.s.change_id = NULL;
	return 1;
}

static void one_row_release(struct one_row *o)
{
	free(o->subject);
	free(o->msgid);
	free(o->author);
	free(o->name);
	free(o->list);
	free(o->reply_msgid);
	free(o->reply_reason);
	memset(o, 0, sizeof(*o));
}

/* the published series id: STORE_OK with o filled, STORE_DONE, or an error */
static int get_series(const struct web_ctx *ctx, int64_t id, struct one_row *o)
{
	struct store_query q;
	int ret;

	memset(o, 0, sizeof(*o));
	memset(&q, 0, sizeof(q));
	q.series_id = id;
	q.publish = ctx->publish;
	ret = store_web_series(ctx->st, &q, 0, keep_row, o);
	if (ret < 0) {
		one_row_release(o);
		return ret;
	}
	return o->found ? STORE_OK : STORE_DONE;
}

/* a finding as the message page lists it */
struct item {
	char *type, *category, *severity, *file, *message, *line_text, *fingerprint;
	long line;
	int part;
};

struct items {
	struct item *v;
	size_t n, alloc;
	int failed;
};

static char *dup_or_null(const char *s, int *failed)
{
	char *r;

	if (!s)
		return NULL;
	r = strdup(s);
	if (!r)
		*failed = 1;
	return r;
}

static int collect_item(void *arg, const struct store_query_row *r)
{
	struct items *it = arg;
	struct item *x;

	if (it->n == MAX_SHOWN)
		return 0;
	if (it->n == it->alloc) {
		size_t na = it->alloc ? it->alloc * 2 : 32;
		struct item *nv = realloc(it->v, na * sizeof(*nv));

		if (!nv) {
			it->failed = 1;
			return STORE_ERR_NOMEM;
		}
		it->v = nv;
		it->alloc = na;
	}
	x = &it->v[it->n++];
	memset(x, 0, sizeof(*x));
	x->type = dup_or_null(r->f.type, &it->failed);
	x->category = dup_or_null(r->f.category, &it->failed);
	x->severity = dup_or_null(r->f.severity, &it->failed);
	x->file = dup_or_null(r->f.file, &it->failed);
	x->message = dup_or_null(r->f.message, &it->failed);
	x->line_text = dup_or_null(r->f.line_text, &it->failed);
	x->fingerprint = dup_or_null(r->f.fingerprint, &it->failed);
	x->line = r->f.line;
	x->part = r->f.part;
	return it->failed ? STORE_ERR_NOMEM : 0;
}

static void items_release(struct items *it)
{
	size_t i;

	for (i = 0; i < it->n; i++) {
		free(it->v[i].type);
		free(it->v[i].category);
		free(it->v[i].severity);
		free(it->v[i].file);
		free(it->v[i].message);
		free(it->v[i].line_text);
		free(it->v[i].fingerprint);
	}
	free(it->v);
	memset(it, 0, sizeof(*it));
}

static int load_items(const struct web_ctx *ctx, int64_t series_id, int64_t patch_id,
		      struct items *it)
{
	struct store_query q;
	int ret;

	memset(it, 0, sizeof(*it));
	memset(&q, 0, sizeof(q));
	q.series_id = series_id;
	q.patch_id = patch_id;
	q.publish = ctx->publish;
	ret = store_query_findings(ctx->st, &q, collect_item, it);
	return ret < 0 ? ret : it->failed ? STORE_ERR_NOMEM : 0;
}

static int has_fp(const struct items *it, const char *fp)
{
	size_t i;

	for (i = 0; fp && i < it->n; i++)
		if (it->v[i].fingerprint && !strcmp(it->v[i].fingerprint, fp))
			return 1;
	return 0;
}

/* The findings by category; with prev (the version before), each says
 * whether it is new or still there. */
static void findings_html(struct sbuf *b, const struct items *it, const struct items *prev,
			  const char *prevname)
{
	int c;
	size_t i, n;

	if (!it->n) {
		sbuf_addstr(b, "<p>No findings.</p>\n");
		return;
	}
	for (c = 0; c < STORE_NCATEGORIES; c++) {
		for (n = 0, i = 0; i < it->n; i++)
			n += it->v[i].category && !strcmp(it->v[i].category, store_categories[c]);
		if (!n)
			continue;
		sbuf_addf(b, "<h3><span class=\"sw c%d\"></span>%s (%zu)</h3>\n<ul>\n", c,
			  store_categories[c], n);
		for (i = 0; i < it->n; i++) {
			const struct item *x = &it->v[i];

			if (!x->category || strcmp(x->category, store_categories[c]))
				continue;
			sbuf_addstr(b, "<li>");
			if (prev) {
				int still = has_fp(prev, x->fingerprint);

				sbuf_addf(b, "<span class=\"%s\">[%s since %s]</span> ",
					  still ? "still" : "new", still ? "still" : "new", prevname);
			}
			web_html(b, x->severity);
			sbuf_addstr(b, " <code>");
			web_html(b, x->type);
			sbuf_addstr(b, "</code> ");
			link_file(b, x->file, x->line);
			sbuf_addstr(b, ": ");
			web_html(b, x->message);
			if (x->line_text) {
				sbuf_addstr(b, "<br><code>");
				web_html(b, x->line_text);
				sbuf_addstr(b, "</code>");
			}
			sbuf_addstr(b, "</li>\n");
		}
		sbuf_addstr(b, "</ul>\n");
	}
}

/* what the version before had that this one has not */
static void fixed_html(struct sbuf *b, const struct items *cur, const struct items *prev,
		       const char *prevname)
{
	size_t i, n = 0;

	for (i = 0; i < prev->n; i++) {
		const struct item *x = &prev->v[i];

		if (has_fp(cur, x->fingerprint))
			continue;
		if (!n++)
			sbuf_addf(b, "<h3>Fixed since %s</h3>\n<ul>\n", prevname);
		sbuf_addstr(b, "<li><code>");
		web_html(b, x->type);
		sbuf_addstr(b, "</code> ");
		link_file(b, x->file, x->line);
		sbuf_addstr(b, ": ");
		web_html(b, x->message);
		sbuf_addstr(b, "</li>\n");
	}
	if (n)
		sbuf_addstr(b, "</ul>\n");
}

static void review_html(const struct web_ctx *ctx, struct sbuf *b, const struct one_row *o)
{
	const struct store_series_row *r = &o->r;
	struct store_reply rp;
	char when[40];

	sbuf_addstr(b, "<h2>Review mail</h2>\n<p>");
	if (!r->review_id) {
		sbuf_addstr(b, r->s.state == SERIES_SKIPPED ?
			    "Not reviewed: the series asked to be skipped.</p>\n" :
			    "Not reviewed yet: the bot waits for the rest of the series.</p>\n");
		return;
	}
	if (!r->review_published) {
		sbuf_addstr(b, "The review mail is not shown.</p>\n");
		return;
	}
	if (!r->reply_id) {
		sbuf_addstr(b, "Reviewed without a mail: nothing was found.</p>\n");
		return;
	}
	switch (r->reply_state) {
	case REPLY_SENT:
		fmt_time(r->reply_sent_at, 1, when, sizeof(when));
		sbuf_addf(b, "Sent %s as <code>&lt;", when);
		web_html(b, r->reply_msgid);
		sbuf_addstr(b, "&gt;</code>.");
		break;
	case REPLY_PENDING:
		sbuf_addstr(b, "Queued, not sent yet.");
		break;
	default:
		sbuf_addf(b, "Not sent (%s): ", r->reply_state == REPLY_FAILED ?
			  "failed" : "suppressed");
		web_html(b, r->reply_reason ? r->reply_reason : "no reason given");
		sbuf_addstr(b, ". This is what it said:");
		break;
	}
	sbuf_addstr(b, "</p>\n");
	if (store_reply_get(ctx->st, r->reply_id, &rp) != STORE_OK)
		return;
	sbuf_addstr(b, "<pre>");
	web_html(b, rp.body);
	sbuf_addstr(b, "</pre>\n");
	store_reply_release(&rp);
}

static void versions_html(struct sbuf *b, const struct store_version *v, size_t n,
			  size_t self)
{
	size_t i;
	char date[32], name[16];

	if (n < 2)
		return;
	sbuf_addstr(b, "<h2>Versions</h2>\n<p class=\"meta\">Every finding each version has,"
		    " by fingerprint (the review mail leaves out what the series settles"
		    " itself).</p>\n<div class=\"scroll\"><table><thead><tr>"
		    "<th>version</th><th>date</th><th class=\"n\">findings</th>"
		    "<th class=\"n\">fixed</th><th class=\"n\">new</th>"
		    "<th class=\"n\">still</th></tr></thead><tbody>\n");
	for (i = 0; i < n; i++) {
		subject_version_name(v[i].version, v[i].version_minor, name, sizeof(name));
		fmt_time(v[i].date, 0, date, sizeof(date));
		sbuf_addstr(b, "<tr><td>");
		if (i == self)
			sbuf_addf(b, "<strong>%s</strong> (this)", name);
		else
			link_msg(b, v[i].msgid, name);
		sbuf_addf(b, "</td><td>%s</td><td class=\"n\">%ld</td>", date, v[i].findings);
		if (i)
			sbuf_addf(b, "<td class=\"n\">%ld</td><td class=\"n\">%ld</td>"
				  "<td class=\"n\">%ld</td>", v[i].fixed, v[i].added, v[i].still);
		else
			sbuf_addstr(b, "<td class=\"n\">-</td><td class=\"n\">-</td>"
				    "<td class=\"n\">-</td>");
		sbuf_addstr(b, "</tr>\n");
	}
	sbuf_addstr(b, "</tbody></table></div>\n");
}

struct parts_list {
	const struct web_ctx *ctx;
	struct sbuf *b;
	int64_t self;
};

static int part_li(void *arg, const struct store_patch_row *r)
{
	struct parts_list *p = arg;

	sbuf_addf(p->b, "<li>%d/%d ", r->p.part, r->total);
	if (r->p.id == p->self)
		web_html(p->b, r->p.subject);
	else
		link_msg(p->b, r->message_id, r->p.subject);
	sbuf_addf(p->b, " <span class=\"meta\">(%ld finding%s)</span></li>\n", r->findings,
		  r->findings == 1 ? "" : "s");
	return 0;
}

/*
 * The page of series version id; for a patch's page (patch_id set) the
 * findings are that patch's, and its mail's subject and date head it.
 */
static void series_page(const struct web_ctx *ctx, struct web_response *resp, int64_t id,
			const struct store_msg *msg, int64_t patch_id)
{
	struct sbuf *b = &resp->body;
	struct store_version *v = NULL;
	struct items cur, prev;
	struct one_row o;
	struct checklist cl;
	struct store_query q;
	struct parts_list pl = { ctx, b, patch_id };
	char date[40], ver[16], prevname[16] = "";
	size_t nv = 0, self = 0;
	int ret, have_prev = 0;

	memset(&cur, 0, sizeof(cur));
	memset(&prev, 0, sizeof(prev));
	memset(&cl, 0, sizeof(cl));
	chk_readiness_init(&cl.rd);
	ret = get_series(ctx, id, &o);
	if (ret == STORE_DONE) {
		not_here(resp);
		return;
	}
	if (ret < 0)
		goto fail;
	subject_version_name(o.r.s.version, o.r.s.version_minor, ver, sizeof(ver));
	head(b, msg && msg->subject ? msg->subject : o.subject ? o.subject : "series", NULL);
	sbuf_addstr(b, "<h1>");
	web_html(b, msg && msg->subject ? msg->subject : o.subject);
	sbuf_addstr(b, "</h1>\n<p class=\"meta\">");
	link_author(b, o.author, o.name);
	fmt_time(msg && msg->date ? msg->date : o.r.date, 1, date, sizeof(date));
	sbuf_addf(b, " &middot; %s &middot; ", date);
	if (o.list) {
		sbuf_addstr(b, "<a href=\"/l/");
		web_url_part(b, o.list, 0);
		sbuf_addstr(b, "/\">");
		web_html(b, o.list);
		sbuf_addstr(b, "</a> &middot; ");
	}
	sbuf_addf(b, "%s, %ld of %d patch%s", ver, o.r.patches, o.r.s.total,
		  o.r.s.total == 1 ? "" : "es");
	if (patch_id)
		sbuf_addf(b, " &middot; <a href=\"/s/%lld/\">the series</a>", (long long)id);
	if (msg) {
		sbuf_addstr(b, " &middot; <a href=\"https://lore.kernel.org/r/");
		web_url_part(b, msg->message_id, 0);
		sbuf_addstr(b, "\">lore</a>");
	}
	sbuf_addstr(b, "</p>\n");

	if (series_checklist(ctx, id, &o.r, &cl) < 0)
		goto fail;
	sbuf_addstr(b, "<h2>Checklist of the series</h2>\n");
	checklist_full(b, &cl);

	ret = store_web_versions(ctx->st, id, ctx->publish, &v, &nv, &self);
	if (ret < 0)
		goto fail;
	if (load_items(ctx, id, patch_id, &cur) < 0)
		goto fail;
	if (self > 0 && self < nv) {
		if (load_items(ctx, v[self - 1].series_id, 0, &prev) < 0)
			goto fail;
		have_prev = 1;
		subject_version_name(v[self - 1].version, v[self - 1].version_minor,
				     prevname, sizeof(prevname));
	}
	sbuf_addf(b, "<h2>Findings%s</h2>\n", patch_id ? " of this patch" : "");
	findings_html(b, &cur, have_prev ? &prev : NULL, prevname);
	if (have_prev && !patch_id)
		fixed_html(b, &cur, &prev, prevname);
	else if (have_prev && patch_id) {
		/* fixed is a matter of the whole series */
		struct items all;

		if (load_items(ctx, id, 0, &all) < 0)
			goto fail;
		fixed_html(b, &all, &prev, prevname);
		items_release(&all);
	}

	sbuf_addstr(b, "<h2>Patches</h2>\n<ul>\n");
	memset(&q, 0, sizeof(q));
	q.series_id = id;
	q.publish = ctx->publish;
	if (store_query_patches(ctx->st, &q, part_li, &pl) < 0)
		goto fail;
	sbuf_addstr(b, "</ul>\n");
	versions_html(b, v, nv, self);
	review_html(ctx, b, &o);
	foot(b);
	goto out;
fail:
	store_failed(ctx, resp);
out:
	chk_readiness_release(&cl.rd);
	items_release(&cur);
	items_release(&prev);
	store_versions_free(v, nv);
	one_row_release(&o);
}

static void page_msg(const struct web_ctx *ctx, const struct web_request *req,
		     struct web_response *resp)
{
	struct store_msg m;
	struct store_patch p;
	int ret;

	ret = store_msg_find(ctx->st, req->route.arg, &m);
	if (ret < 0) {
		store_failed(ctx, resp);
		return;
	}
	if (ret == STORE_DONE) {
		not_here(resp);
		return;
	}
	/* a message of a series only, and one that may be published; what
	 * may not is answered as what does not exist */
	ret = m.series_id ? store_web_msg_published(ctx->st, ctx->publish, m.id) : STORE_DONE;
	if (ret < 0) {
		store_failed(ctx, resp);
	} else if (ret == STORE_DONE) {
		not_here(resp);
	} else {
		ret = store_web_patch_by_msg(ctx->st, m.id, &p);
		if (ret < 0) {
			store_failed(ctx, resp);
		} else {
			series_page(ctx, resp, m.series_id, &m, ret == STORE_OK ? p.id : 0);
			if (ret == STORE_OK)
				store_patch_release(&p);
		}
	}
	store_msg_release(&m);
}

/* ---- an author, a file, a search ------------------------------------------------ */

static void page_author(const struct web_ctx *ctx, const struct web_request *req,
			struct web_response *resp)
{
	struct sbuf *b = &resp->body;
	struct store_query q;
	struct paging pg;
	size_t shown;
	struct sbuf base;

	if (paging_of(req, &pg)) {
		bad_paging(resp);
		return;
	}
	head(b, req->route.arg, NULL);
	sbuf_addstr(b, "<h1>");
	web_html(b, req->route.arg);
	sbuf_addstr(b, "</h1>\n<h2>Series</h2>\n");
	memset(&q, 0, sizeof(q));
	q.author = req->route.arg;
	if (series_table(ctx, b, &q, &pg, &shown) < 0)
		goto fail;
	if (!shown && paging_first(&pg)) {
		not_here(resp);
		return;
	}
	sbuf_init(&base, WEB_MAX_PATH + 16);
	sbuf_addstr(&base, "/a/");
	web_url_part(&base, req->route.arg, 0);
	sbuf_addch(&base, '/');
	pager(b, req, base.buf, &pg);
	sbuf_release(&base);
	/* the counts on the first page only: a later one is its table */
	if (!paging_first(&pg)) {
		foot(b);
		return;
	}
	sbuf_addstr(b, "<h2>Findings by category</h2>\n");
	memset(&q, 0, sizeof(q));
	q.author = req->route.arg;
	if (count_list(ctx, b, &q, COUNT_CATEGORY, STORE_NCATEGORIES) < 0)
		goto fail;
	sbuf_addstr(b, "<h2>Most frequent types</h2>\n");
	memset(&q, 0, sizeof(q));
	q.author = req->route.arg;
	if (count_list(ctx, b, &q, COUNT_TYPE, 15) < 0)
		goto fail;
	foot(b);
	return;
fail:
	store_failed(ctx, resp);
}

/* path as a GLOB matching itself (SQLite GLOB: * ? [ are special), with
 * a "/" and "*" after it for a folder */
static void glob_of(struct sbuf *out, const char *path, int dir)
{
	for (; *path; path++) {
		if (*path == '*' || *path == '?' || *path == '[')
			sbuf_addf(out, "[%c]", *path);
		else
			sbuf_addch(out, *path);
	}
	if (dir)
		sbuf_addstr(out, "/*");
}

static void page_file(const struct web_ctx *ctx, const struct web_request *req,
		      struct web_response *resp)
{
	struct sbuf *b = &resp->body;
	struct store_query q;
	struct sbuf glob, base;
	struct paging pg;

	if (paging_of(req, &pg)) {
		bad_paging(resp);
		return;
	}
	sbuf_init(&glob, WEB_MAX_ARG * 4 + 8);
	sbuf_init(&base, WEB_MAX_PATH + 16);
	glob_of(&glob, req->route.arg, req->route.dir);
	head(b, req->route.arg, NULL);
	sbuf_addstr(b, "<h1><code>");
	web_html(b, req->route.arg);
	sbuf_addstr(b, req->route.dir ? "/</code></h1>\n" : "</code></h1>\n");
	/* the counts on the first page only: a later one is its table */
	if (paging_first(&pg)) {
		sbuf_addstr(b, "<h2>Findings by type</h2>\n");
		if (types_kept(ctx, glob.buf, 20, b) < 0)
			goto fail;
	}
	sbuf_addstr(b, "<h2>Findings, newest first</h2>\n");
	memset(&q, 0, sizeof(q));
	q.file_glob = glob.buf;
	if (finding_table(ctx, b, &q, &pg) < 0)
		goto fail;
	sbuf_addstr(&base, "/f/");
	web_url_part(&base, req->route.arg, 1);
	if (req->route.dir)
		sbuf_addch(&base, '/');
	pager(b, req, base.buf, &pg);
	foot(b);
	goto out;
fail:
	store_failed(ctx, resp);
out:
	sbuf_release(&glob);
	sbuf_release(&base);
}

static void search_help(struct sbuf *b)
{
	sbuf_addstr(b, "<p>Write filters as <code>key:value</code> words, as in a query"
		    " mailed to the bot:</p>\n<ul>\n"
		    "<li><code>author:TEXT</code> address or name contains TEXT</li>\n"
		    "<li><code>file:GLOB</code> a finding's file, e.g. <code>drivers/leds/*</code></li>\n"
		    "<li><code>list:ADDRESS</code> posted to this list</li>\n"
		    "<li><code>category:security,uapi</code> security, uapi, correctness,"
		    " process, style</li>\n"
		    "<li><code>type:LONG_LINE</code> checkpatch types, any case, comma lists</li>\n"
		    "<li><code>since:30d</code>, <code>until:2026-11-30</code> dates, or a time"
		    " ago (d, w, h)</li>\n"
		    "<li><code>series:MESSAGE-ID</code> the series a message belongs to</li>\n"
		    "</ul>\n<p>Example: <a href=\"/search?q=category%3Auapi%20file%3Adrivers%2F%2A\">"
		    "<code>category:uapi file:drivers/*</code></a> (<code>since:30d</code>"
		    " counts back from today: nothing in an older archive)</p>\n");
}

static void page_search(const struct web_ctx *ctx, const struct web_request *req,
			struct web_response *resp)
{
	struct sbuf *b = &resp->body;
	struct sbuf words;
	struct store_query q;
	struct qfilter f;
	char err[256];
	struct paging pg;
	size_t shown;

	if (paging_of(req, &pg)) {
		bad_paging(resp);
		return;
	}
	qfilter_init(&f);
	sbuf_init(&words, QFILTER_MAX_TEXT * 2);
	if (web_filters(ctx, req, &f, err, sizeof(err))) {
		const char *typed = web_param(req, "q");

		resp->status = 400;
		head(b, "Search", typed);
		sbuf_addstr(b, "<h1>Search</h1>\n<p class=\"err\">");
		web_html(b, err);
		sbuf_addstr(b, "</p>\n");
		search_help(b);
		foot(b);
		goto out;
	}
	qfilter_words(&f, &words);
	head(b, words.len ? words.buf : "Search", words.buf);
	sbuf_addstr(b, "<h1>Search</h1>\n");
	if (!f.nset) {
		search_help(b);
		foot(b);
		goto out;
	}
	sbuf_addstr(b, "<p class=\"meta\">");
	web_html(b, words.buf);
	sbuf_addstr(b, " &middot; the same as JSON: <a href=\"/api/v1/findings?q=");
	web_url_part(b, words.buf, 0);
	sbuf_addstr(b, "\">findings</a>, <a href=\"/api/v1/series?q=");
	web_url_part(b, words.buf, 0);
	sbuf_addstr(b, "\">series</a></p>\n");
	/* the chart and the series on the first page only: a later one is
	 * the findings' table */
	if (paging_first(&pg)) {
		struct paging first = { 0, 0, 0, 0 };

		memset(&q, 0, sizeof(q));
		qfilter_apply(&f, &q);
		q.publish = ctx->publish;
		sbuf_addstr(b, "<h2>Findings per week</h2>\n");
		if (web_chart(ctx->st, &q, b) < 0)
			goto fail;
		sbuf_addstr(b, "<h2>Series</h2>\n");
		memset(&q, 0, sizeof(q));
		qfilter_apply(&f, &q);
		if (series_table(ctx, b, &q, &first, &shown) < 0)
			goto fail;
		if (!shown)
			sbuf_addstr(b, "<p>None.</p>\n");
		else if (first.more)
			sbuf_addf(b, "<p class=\"meta\">The %d newest; the API lists them all.</p>\n",
				  WEB_PAGE_ROWS);
	}
	sbuf_addstr(b, "<h2>Findings, newest first</h2>\n");
	memset(&q, 0, sizeof(q));
	qfilter_apply(&f, &q);
	if (finding_table(ctx, b, &q, &pg) < 0)
		goto fail;
	pager(b, req, "/search", &pg);
	foot(b);
	goto out;
fail:
	store_failed(ctx, resp);
out:
	qfilter_release(&f);
	sbuf_release(&words);
}

/* ---- the dispatcher -------------------------------------------------------------- */

void web_page(const struct web_ctx *ctx, const struct web_request *req,
	      struct web_response *resp)
{
	const struct web_route *r = &req->route;

	switch (r->page) {
	case WEB_FRONT:
		page_front(ctx, req, resp, NULL);
		break;
	case WEB_LIST:
		page_front(ctx, req, resp, r->arg);
		break;
	case WEB_MSG:
		page_msg(ctx, req, resp);
		break;
	case WEB_SERIES:
		series_page(ctx, resp, r->id, NULL, 0);
		break;
	case WEB_AUTHOR:
		page_author(ctx, req, resp);
		break;
	case WEB_FILE:
		page_file(ctx, req, resp);
		break;
	case WEB_SEARCH:
		page_search(ctx, req, resp);
		break;
	case WEB_REDIRECT_MSG:
		resp->status = 301;
		sbuf_reset(&resp->body);
		{
			struct sbuf loc;

			sbuf_init(&loc, sizeof(resp->location) - 1);
			sbuf_addstr(&loc, "/m/");
			web_url_part(&loc, r->arg, 0);
			sbuf_addch(&loc, '/');
			snprintf(resp->location, sizeof(resp->location), "%s",
				 loc.err ? "/" : loc.buf);
			sbuf_release(&loc);
		}
		sbuf_addstr(&resp->body, "moved\n");
		resp->type = "text/plain; charset=utf-8";
		break;
	case WEB_ROBOTS:
		resp->type = "text/plain; charset=utf-8";
		sbuf_addstr(&resp->body, "User-agent: *\nDisallow: /api/\nDisallow: /search\n");
		break;
	default:
		if (r->status == 400)
			error_page(resp, 400, "Bad request", "That address is not one of ours.");
		else if (r->status == 414)
			error_page(resp, 414, "Address too long", "That address is too long.");
		else
			not_here(resp);
		break;
	}
}

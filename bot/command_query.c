// SPDX-License-Identifier: GPL-2.0-only
/*
 * command_query: "query WORDS" mailed to the bot (command.h), answered
 * with the series and findings matching, as reviewbot serve would show
 * them: the same filters (bot/qfilter.h), the same privacy rule
 * (store/store_web.h), the same budgets as the other commands' answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "command.h"
#include "command_int.h"
#include "mail/compose.h"
#include "mail/subject.h"
#include "log.h"
#include "pipeline.h"
#include "pipeline_int.h"
#include "web/publish.h"
#include "qfilter.h"
#include "mail/template.h"
#include "version.h"
#include "web/web_route.h"
#include "../store/store_web.h"
#include "../checker/banned.h"

#define QM_SERIES	20	/* series an answer lists at most */
#define QM_FINDINGS	50	/* findings an answer lists at most */
#define QM_RESULTS_MAX	(256u << 10)

/* s cleaned for a mail line: controls as spaces, at most max bytes, cut
 * at a UTF-8 character boundary ("..." when cut) */
static void add_text(struct sbuf *b, const char *s, size_t max)
{
	size_t n = 0, k;
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		if (*p < 0x20 || *p == 0x7f) {
			k = 1;
		} else if (*p >= 0x80) {
			k = sbuf_utf8_len(p);
			if (!k) {
				p++;
				continue;	/* not UTF-8: left out */
			}
		} else {
			k = 1;
		}
		if (n + k > max) {
			sbuf_addstr(b, "...");
			return;
		}
		if (*p < 0x20 || *p == 0x7f)
			sbuf_addch(b, ' ');
		else
			sbuf_add(b, p, k);
		n += k;
		p += k;
	}
}

static void fmt_day(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
		snprintf(buf, n, "-");
}

static void add_url(struct sbuf *b, const char *web, const char *msgid)
{
	size_t n;

	if (!web || !msgid)
		return;
	n = strlen(web);
	sbuf_addstr(b, "      ");
	sbuf_add(b, web, n && web[n - 1] == '/' ? n - 1 : n);
	sbuf_addstr(b, "/m/");
	web_url_part(b, msgid, 0);
	sbuf_addstr(b, "/\n");
}

struct results {
	struct sbuf *b;
	const char *web;
	size_t n, max;
};

static int series_line(void *arg, const struct store_series_row *r)
{
	struct results *res = arg;
	struct sbuf *b = res->b;
	char day[16], ver[32];
	int c, any = 0;

	if (++res->n > res->max)
		return 0;
	fmt_day(r->date, day, sizeof(day));
	subject_version_tag(r->s.version, r->s.version_minor, ver, sizeof(ver));
	sbuf_addf(b, "  %s  [%s%ld/%d] ", day, ver, r->patches, r->s.total);
	add_text(b, r->s.subject, 200);
	sbuf_addstr(b, "\n      ");
	if (r->s.author_name) {
		add_text(b, r->s.author_name, 80);
		sbuf_addstr(b, " <");
		add_text(b, r->s.author_addr, 254);
		sbuf_addch(b, '>');
	} else {
		add_text(b, r->s.author_addr, 254);
	}
	if (r->s.list) {
		sbuf_addstr(b, ", ");
		add_text(b, r->s.list, 254);
	}
	sbuf_addstr(b, "\n      findings:");
	for (c = 0; c < STORE_NCATEGORIES; c++)
		if (r->per_cat[c]) {
			sbuf_addf(b, "%s %s %ld", any ? "," : "", store_categories[c],
				  r->per_cat[c]);
			any = 1;
		}
	if (!any)
		sbuf_addstr(b, " none");
	if (!r->review_id)
		sbuf_addstr(b, "; not reviewed yet");
	else if (r->review_published && r->reply_id)
		sbuf_addf(b, "; review %s",
			  store_reply_state_name((enum store_reply_state)r->reply_state));
	sbuf_addch(b, '\n');
	add_url(b, res->web, r->msgid);
	return 0;
}

static int finding_line(void *arg, const struct store_query_row *r)
{
	struct results *res = arg;
	struct sbuf *b = res->b;
	char day[16];

	if (++res->n > res->max)
		return 0;
	fmt_day(r->date, day, sizeof(day));
	sbuf_addf(b, "  %s  ", day);
	add_text(b, r->f.category, 16);
	sbuf_addstr(b, "  ");
	add_text(b, r->f.type, 64);
	sbuf_addstr(b, "  ");
	if (r->f.file) {
		add_text(b, r->f.file, 300);
		sbuf_addf(b, ":%ld", r->f.line);
	} else {
		sbuf_addstr(b, "(commit message)");
	}
	sbuf_addstr(b, "\n      ");
	add_text(b, r->f.message, 400);
	sbuf_addstr(b, "\n      in ");
	add_text(b, r->subject, 200);
	sbuf_addch(b, '\n');
	add_url(b, res->web, r->message_id);
	return 0;
}

/* The answer's {{results}}: 0 or a store error. */
static int results_text(struct store *st, const struct qfilter *f, const char *publish,
			const char *web, struct sbuf *b)
{
	struct results res = { b, web, 0, QM_SERIES };
	struct store_query q;
	int ret;

	memset(&q, 0, sizeof(q));
	qfilter_apply(f, &q);
	q.publish = publish;
	q.newest_first = 1;
	q.limit = QM_SERIES + 1;
	sbuf_addstr(b, "Series, newest first:\n\n");
	ret = store_web_series(st, &q, 0, series_line, &res);
	if (ret < 0)
		return ret;
	if (!res.n)
		sbuf_addstr(b, "  none\n");
	else if (res.n > res.max)
		sbuf_addf(b, "  (the %d newest: narrow the query for the others)\n", QM_SERIES);

	memset(&q, 0, sizeof(q));
	qfilter_apply(f, &q);
	q.publish = publish;
	q.newest_first = 1;
	q.limit = (f->limit && f->limit < QM_FINDINGS ? f->limit : QM_FINDINGS) + 1;
	res.n = 0;
	res.max = q.limit - 1;
	sbuf_addstr(b, "\nFindings, newest first:\n\n");
	ret = store_query_findings(st, &q, finding_line, &res);
	if (ret < 0)
		return ret;
	if (!res.n)
		sbuf_addstr(b, "  none\n");
	else if (res.n > res.max)
		sbuf_addf(b, "  (the %zu newest: narrow the query for the others)\n", res.max);
	return 0;
}

int command_query(struct pipeline *p, const struct mime_mail *m,
		  const struct store_msg *row, const char *sender,
		  const struct command *c, int64_t now, const char **reason)
{
	const struct config *cfg = p->cfg;
	struct compose_confirm cc;
	struct qfilter f;
	struct sbuf results, link, words, mail;
	char err[256], msgid[256];
	char *publish = NULL;
	int ret = STORE_OK;

	*reason = NULL;
	if (!p->tpl || !template_set_has(p->tpl, "query.txt")) {
		*reason = "query not answered: no query.txt template";
		return STORE_OK;
	}
	/* the work is capped per sender, then for all, before any lookup
	 * (a query costs a second or more on a large history) */
	if (cfg->queries_per_hour > 0 || cfg->max_queries_per_hour > 0) {
		long long n = 0, all = 0;

		if (cfg->queries_per_hour > 0) {
			ret = store_command_count(p->st, "query", sender, now - 3600, &n);
			if (ret < 0)
				return ret;
		}
		if (cfg->queries_per_hour > 0 && n >= cfg->queries_per_hour) {
			*reason = "query refused: queries_per_hour reached for this address";
			return STORE_OK;
		}
		if (cfg->max_queries_per_hour > 0) {
			ret = store_command_count(p->st, "query", NULL, now - 3600, &all);
			if (ret < 0)
				return ret;
		}
		if (cfg->max_queries_per_hour > 0 && all >= cfg->max_queries_per_hour) {
			*reason = "query refused: max_queries_per_hour reached";
			return STORE_OK;
		}
	}
	qfilter_init(&f);
	sbuf_init(&results, QM_RESULTS_MAX);
	sbuf_init(&link, 8192);
	sbuf_init(&words, 8192);
	sbuf_init(&mail, COMPOSE_MAX_MAIL);
	if (c->query_too_long) {
		sbuf_addf(&results, "The query is longer than %d bytes: nothing was looked up.\n",
			  COMMAND_QUERY_MAX);
	} else if (qfilter_parse(&f, c->query, strlen(c->query), now, err, sizeof(err))) {
		sbuf_addstr(&results, "The query could not be read: ");
		add_text(&results, err, 255);
		sbuf_addstr(&results, ".  Nothing was looked up.\n");
	} else if (!f.nset) {
		sbuf_addstr(&results, "The query names no filter: nothing was looked up.\n");
	} else {
		publish = publish_json(cfg);
		if (!publish) {
			ret = STORE_ERR_NOMEM;
			goto out;
		}
		ret = results_text(p->st, &f, publish, cfg->web_url, &results);
		if (ret < 0)
			goto out;
		qfilter_words(&f, &words);
		if (cfg->web_url) {
			size_t wn = strlen(cfg->web_url);

			sbuf_addstr(&link, "The same on the web:\n  ");
			sbuf_add(&link, cfg->web_url,
				 wn && cfg->web_url[wn - 1] == '/' ? wn - 1 : wn);
			sbuf_addstr(&link, "/search?q=");
			web_url_part(&link, words.buf, 0);
			sbuf_addstr(&link, "\n\n");
		}
	}
	if (results.err || link.err) {
		ret = STORE_ERR_NOMEM;
		goto out;
	}
	memset(&cc, 0, sizeof(cc));
	command_answer_head(p, m, sender, now, "[reviewbot] query", msgid, sizeof(msgid),
			    &cc.head);
	cc.command = words.len ? words.buf : c->query;
	if (compose_query_mail(p->tpl, &cc, results.buf, link.buf, &mail, err, sizeof(err))) {
		log_event(LOG_ERR, "compose-failed", "msgid", m->message_id, "error", err, NULL);
		ret = STORE_ERR;
		goto out;
	}
	/* under the caps of every answer to a command */
	ret = command_queue_answer(p, m, row, sender, msgid, mail.buf, now, "query-answer",
				   words.len ? words.buf : NULL, COMMAND_ANSWER);
out:
	free(publish);
	qfilter_release(&f);
	sbuf_release(&results);
	sbuf_release(&link);
	sbuf_release(&words);
	sbuf_release(&mail);
	return ret;
}

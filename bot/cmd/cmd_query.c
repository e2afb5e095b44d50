// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot query: the history, for maintainers.  Runs in the front
 * binary (store and sqlite3 only).  The filters are checked by qfilter
 * (bot/qfilter.h), as for the web and the query by mail; this is the
 * operator's own view, so everything matches (no privacy filter).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cmd.h"
#include "cmd_common.h"
#include "../feedback.h"
#include "../mail/subject.h"
#include "getopt_long.h"
#include "../qfilter.h"
#include "../../checker/rules.h"
#include "../../checker/sbuf.h"
#include "../../store/store.h"
#include "../../store/store_web.h"
#include "../../checker/banned.h"

#define QUERY_MAX_LINE	(1u << 20)

static void usage(FILE *f)
{
	fputs("Usage: reviewbot query [--config FILE] [FILTERS]\n"
	      "                       [--patches | --count-by KEYS | --feedback] [--json | --csv]\n"
	      "       reviewbot query [--config FILE] --review MSGID | --versions MSGID\n"
	      "\n"
	      "Lists the findings (or with --patches the patches) the bot has seen,\n"
	      "oldest first; or with --feedback, per type, how many findings there\n"
	      "are, how many were disputed by a \"false-positive\" answer, how many\n"
	      "by the list's maintainers, and the lists on which the type is\n"
	      "demoted (counted with the nits).\n"
	      "\n"
	      "Filters:\n"
	      "  --author TEXT      address or name contains TEXT (any case)\n"
	      "  --file GLOB        file path matches GLOB (e.g. 'drivers/leds/*')\n"
	      "  --list ADDR        posted to this list\n"
	      "  --category CATS    security, uapi, correctness, process or style;\n"
	      "                     a comma list matches any of them\n"
	      "  --type TYPES       checkpatch types, any case (e.g. long_line,spacing)\n"
	      "  --since DATE       mail dated on or after DATE (YYYY-MM-DD[THH:MM[:SS]],\n"
	      "                     Unix seconds, or a time ago: 30d, 2w, 12h)\n"
	      "  --until DATE       mail dated on or before DATE\n"
	      "  --series MSGID     the series that message belongs to (<> or not)\n"
	      "  --limit N          at most N rows\n"
	      "Output:\n"
	      "  --patches          one row per patch, with its counts\n"
	      "  --count-by KEYS    findings counted by any of author, type, category,\n"
	      "                     file, list, week (comma-separated), largest first\n"
	      "  --feedback         one row per type (--list, --type and --since apply)\n"
	      "  --json             one JSON object per line\n"
	      "  --csv              comma-separated values, a header line first\n"
	      "  --review MSGID     the review mail of that message's series, as stored\n"
	      "  --versions MSGID   the versions of that message's series: what each\n"
	      "                     fixed, added and still has of the one before\n"
	      "  --config FILE      configuration naming the database\n"
	      "  --database FILE    this database instead\n"
	      "  --help             this text\n"
	      "  --version          the program's version\n",
	      f);
}

static void fmt_date(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
		snprintf(buf, n, "-");
}

enum fmt { FMT_TABLE, FMT_JSON, FMT_CSV };

struct out {
	enum fmt fmt;
	int header;
	long rows;
	unsigned keys;		/* --count-by */
	struct sbuf line;
};

static void json_kv(struct sbuf *sb, const char *k, const char *v, int first)
{
	sbuf_addf(sb, "%s\"%s\":", first ? "" : ",", k);
	if (v)
		sbuf_addjson(sb, v);
	else
		sbuf_addstr(sb, "null");
}

/* RFC 4180: a field with a comma, quote or line break is quoted, its
 * quotes doubled; controls other than those are made visible. */
static void csv(struct sbuf *sb, const char *v, int first)
{
	const char *p;

	if (!first)
		sbuf_addch(sb, ',');
	if (!v)
		return;
	if (!strpbrk(v, ",\"\r\n")) {
		for (p = v; *p; p++)
			sbuf_addch(sb, (unsigned char)*p < ' ' || *p == 0x7f ? '?' : *p);
		return;
	}
	sbuf_addch(sb, '"');
	for (p = v; *p; p++) {
		if (*p == '"')
			sbuf_addch(sb, '"');
		sbuf_addch(sb, (unsigned char)*p < ' ' && *p != '\n' && *p != '\r' ? '?' : *p);
	}
	sbuf_addch(sb, '"');
}

static void csv_num(struct sbuf *sb, long long v)
{
	sbuf_addf(sb, ",%lld", v);
}

static void flush(struct out *o)
{
	fwrite(o->line.buf, 1, o->line.len, stdout);
	sbuf_reset(&o->line);
	o->rows++;
}

/* A table cell from mail: controls made visible so a row stays a row. */
static void cell(struct sbuf *sb, const char *s, size_t width)
{
	size_t n = 0;

	for (; s && *s && (!width || n < width); s++, n++)
		sbuf_addch(sb, (unsigned char)*s < ' ' || *s == 0x7f ? '?' : *s);
	for (; n < width; n++)
		sbuf_addch(sb, ' ');
}

static int finding_row(void *arg, const struct store_query_row *r)
{
	struct out *o = arg;
	struct sbuf *sb = &o->line;
	char date[32], ver[32];

	fmt_date(r->date, date, sizeof(date));
	if (o->fmt == FMT_JSON) {
		sbuf_addch(sb, '{');
		json_kv(sb, "date", date, 1);
		json_kv(sb, "message_id", r->message_id, 0);
		json_kv(sb, "subject", r->subject, 0);
		json_kv(sb, "author", r->author_addr, 0);
		json_kv(sb, "author_name", r->author_name, 0);
		json_kv(sb, "list", r->list, 0);
		sbuf_addf(sb, ",\"version\":%d,\"version_minor\":%d,\"part\":%d,"
			  "\"total\":%d", r->version, r->version_minor, r->f.part,
			  r->total);
		json_kv(sb, "type", r->f.type, 0);
		json_kv(sb, "severity", r->f.severity, 0);
		json_kv(sb, "category", r->f.category, 0);
		json_kv(sb, "file", r->f.file, 0);
		sbuf_addf(sb, ",\"line\":%ld", r->f.line);
		json_kv(sb, "message", r->f.message, 0);
		json_kv(sb, "fingerprint", r->f.fingerprint, 0);
		sbuf_addstr(sb, "}\n");
	} else if (o->fmt == FMT_CSV) {
		if (!o->header++)
			sbuf_addstr(sb, "date,message_id,subject,author,author_name,list,version,"
				    "version_minor,part,total,type,severity,category,file,line,message,fingerprint\n");
		csv(sb, date, 1);
		csv(sb, r->message_id, 0);
		csv(sb, r->subject, 0);
		csv(sb, r->author_addr, 0);
		csv(sb, r->author_name, 0);
		csv(sb, r->list, 0);
		csv_num(sb, r->version);
		csv_num(sb, r->version_minor);
		csv_num(sb, r->f.part);
		csv_num(sb, r->total);
		csv(sb, r->f.type, 0);
		csv(sb, r->f.severity, 0);
		csv(sb, r->f.category, 0);
		csv(sb, r->f.file, 0);
		csv_num(sb, r->f.line);
		csv(sb, r->f.message, 0);
		csv(sb, r->f.fingerprint, 0);
		sbuf_addch(sb, '\n');
	} else {
		if (!o->header++)
			sbuf_addstr(sb, "DATE        AUTHOR                    CATEGORY     TYPE                        WHERE\n");
		cell(sb, date, 12);
		cell(sb, r->author_addr, 25);
		sbuf_addch(sb, ' ');
		cell(sb, r->f.category, 12);
		sbuf_addch(sb, ' ');
		cell(sb, r->f.type, 27);
		sbuf_addch(sb, ' ');
		subject_version_tag(r->version, r->version_minor, ver, sizeof(ver));
		sbuf_addf(sb, "%s%d/%d ", ver, r->f.part, r->total);
		if (r->f.file) {
			cell(sb, r->f.file, 0);
			sbuf_addf(sb, ":%ld", r->f.line);
		} else {
			sbuf_addstr(sb, "(commit message)");
		}
		sbuf_addch(sb, '\n');
	}
	flush(o);
	return 0;
}

static int patch_row(void *arg, const struct store_patch_row *r)
{
	struct out *o = arg;
	struct sbuf *sb = &o->line;
	char date[32];

	fmt_date(r->date, date, sizeof(date));
	if (o->fmt == FMT_JSON) {
		sbuf_addch(sb, '{');
		json_kv(sb, "date", date, 1);
		json_kv(sb, "message_id", r->message_id, 0);
		json_kv(sb, "subject", r->p.subject, 0);
		json_kv(sb, "author", r->author_addr, 0);
		json_kv(sb, "author_name", r->author_name, 0);
		json_kv(sb, "list", r->list, 0);
		sbuf_addf(sb, ",\"version\":%d,\"version_minor\":%d,\"part\":%d,"
			  "\"total\":%d,\"errors\":%ld,\"warnings\":%ld,\"checks\":%ld,"
			  "\"findings\":%ld}\n",
			  r->version, r->version_minor, r->p.part, r->total, r->p.errors, r->p.warnings,
			  r->p.checks, r->findings);
	} else if (o->fmt == FMT_CSV) {
		if (!o->header++)
			sbuf_addstr(sb, "date,message_id,subject,author,author_name,list,version,"
				    "version_minor,part,total,errors,warnings,checks,findings\n");
		csv(sb, date, 1);
		csv(sb, r->message_id, 0);
		csv(sb, r->p.subject, 0);
		csv(sb, r->author_addr, 0);
		csv(sb, r->author_name, 0);
		csv(sb, r->list, 0);
		csv_num(sb, r->version);
		csv_num(sb, r->version_minor);
		csv_num(sb, r->p.part);
		csv_num(sb, r->total);
		csv_num(sb, r->p.errors);
		csv_num(sb, r->p.warnings);
		csv_num(sb, r->p.checks);
		csv_num(sb, r->findings);
		sbuf_addch(sb, '\n');
	} else {
		if (!o->header++)
			sbuf_addstr(sb, "DATE        AUTHOR                    FINDINGS  SUBJECT\n");
		cell(sb, date, 12);
		cell(sb, r->author_addr, 25);
		sbuf_addf(sb, " %8ld  ", r->findings);
		cell(sb, r->p.subject, 0);
		sbuf_addch(sb, '\n');
	}
	flush(o);
	return 0;
}

/* ---- query --feedback ------------------------------------------------------ */

/* The demoted types of each list the configuration gives maintainers. */
struct demoted_lists {
	const char *list[CONFIG_MAX_SOURCES];
	struct feedback_demoted d[CONFIG_MAX_SOURCES];
	size_t n;
};

static int demoted_lists_load(struct store *st, const struct config *cfg,
			      const char *only, struct demoted_lists *dl)
{
	size_t i, j;
	int ret;

	memset(dl, 0, sizeof(*dl));
	for (i = 0; i < cfg->nsources && dl->n < CONFIG_MAX_SOURCES; i++) {
		const char *l = cfg->sources[i].list;

		if (!l || !cfg->sources[i].maintainers || (only && strcasecmp(l, only)))
			continue;
		for (j = 0; j < dl->n && strcasecmp(dl->list[j], l); j++)
			;
		if (j < dl->n)
			continue;
		ret = feedback_demoted_load(st, cfg, l, &dl->d[dl->n]);
		if (ret < 0)
			return ret;
		dl->list[dl->n++] = l;
	}
	return 0;
}

static void demoted_lists_release(struct demoted_lists *dl)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		feedback_demoted_release(&dl->d[i]);
}

/* Whether type is one of the comma list's (any case). */
static int type_listed(const char *list, const char *type)
{
	size_t n = strlen(type);
	const char *p = list, *c;

	for (;;) {
		c = strchr(p, ',');
		if ((size_t)((c ? c : p + strlen(p)) - p) == n && !strncasecmp(p, type, n))
			return 1;
		if (!c)
			return 0;
		p = c + 1;
	}
}

struct fb_out {
	struct out *o;
	const char *types;		/* --type: a comma list, or NULL */
	const struct demoted_lists *dl;
};

static int feedback_row(void *arg, const struct store_feedback_count *c)
{
	struct fb_out *fo = arg;
	struct out *o = fo->o;
	struct sbuf *sb = &o->line;
	size_t i, k = 0;

	if (fo->types && !type_listed(fo->types, c->type))
		return 0;
	if (o->fmt == FMT_CSV) {
		if (!o->header++)
			sbuf_addstr(sb, "type,findings,disputed,by_maintainers,reviews_by_maintainers,demoted\n");
		csv(sb, c->type, 1);
		sbuf_addf(sb, ",%lld,%lld,%lld,%lld", c->findings, c->disputed,
			  c->by_maintainers, c->reviews);
		sbuf_addch(sb, ',');
		{
			struct sbuf lists;

			sbuf_init(&lists, QUERY_MAX_LINE);
			for (i = 0; i < fo->dl->n; i++)
				if (feedback_demoted_has(&fo->dl->d[i], c->type)) {
					sbuf_addstr(&lists, k++ ? " " : "");
					sbuf_addstr(&lists, fo->dl->list[i]);
				}
			csv(sb, lists.buf, 1);
			sbuf_release(&lists);
		}
		sbuf_addch(sb, '\n');
	} else if (o->fmt == FMT_JSON) {
		sbuf_addch(sb, '{');
		json_kv(sb, "type", c->type, 1);
		sbuf_addf(sb, ",\"findings\":%lld,\"disputed\":%lld,\"by_maintainers\":%lld,"
			  "\"reviews_by_maintainers\":%lld,\"demoted\":[", c->findings,
			  c->disputed, c->by_maintainers, c->reviews);
		for (i = 0; i < fo->dl->n; i++)
			if (feedback_demoted_has(&fo->dl->d[i], c->type)) {
				sbuf_addstr(sb, k++ ? "," : "");
				sbuf_addjson(sb, fo->dl->list[i]);
			}
		sbuf_addstr(sb, "]}\n");
	} else {
		if (!o->header++)
			sbuf_addstr(sb, "TYPE                         FINDINGS  DISPUTED  BY MAINTAINERS  DEMOTED ON\n");
		cell(sb, c->type, 28);
		sbuf_addf(sb, " %8lld  %8lld  %14lld  ", c->findings, c->disputed,
			  c->by_maintainers);
		for (i = 0; i < fo->dl->n; i++)
			if (feedback_demoted_has(&fo->dl->d[i], c->type)) {
				sbuf_addstr(sb, k++ ? ", " : "");
				cell(sb, fo->dl->list[i], 0);
			}
		if (!k)
			sbuf_addch(sb, '-');
		sbuf_addch(sb, '\n');
	}
	flush(o);
	return 0;
}

/* ---- --count-by ----------------------------------------------------------- */

static const struct {
	const char *name;
	unsigned bit;
	int width;
} count_keys[] = {
	{ "author", COUNT_AUTHOR, 30 },
	{ "type", COUNT_TYPE, 27 },
	{ "category", COUNT_CATEGORY, 12 },
	{ "file", COUNT_FILE, 40 },
	{ "list", COUNT_LIST, 30 },
	{ "week", COUNT_WEEK, 11 },
};
#define NCOUNT_KEYS (sizeof(count_keys) / sizeof(count_keys[0]))

/* "author,type" into bits; -1 with the bad name in bad */
static int parse_keys(const char *s, unsigned *keys, char *bad, size_t badlen)
{
	const char *p = s, *c;
	size_t n, k;

	*keys = 0;
	for (;;) {
		c = strchr(p, ',');
		n = c ? (size_t)(c - p) : strlen(p);
		for (k = 0; k < NCOUNT_KEYS; k++)
			if (strlen(count_keys[k].name) == n && !strncmp(count_keys[k].name, p, n))
				break;
		if (k == NCOUNT_KEYS) {
			snprintf(bad, badlen, "%.*s", (int)(n > 64 ? 64 : n), p);
			return -1;
		}
		*keys |= count_keys[k].bit;
		if (!c)
			return 0;
		p = c + 1;
	}
}

static const char *key_value(const struct store_count_row *r, unsigned bit,
			     char *buf, size_t n)
{
	switch (bit) {
	case COUNT_AUTHOR:
		return r->author;
	case COUNT_TYPE:
		return r->type;
	case COUNT_CATEGORY:
		return r->category;
	case COUNT_FILE:
		return r->file;
	case COUNT_LIST:
		return r->list;
	case COUNT_WEEK:
		if (!r->week)
			return NULL;
		fmt_date(r->week, buf, n);
		return buf;
	}
	return NULL;
}

static int count_row(void *arg, const struct store_count_row *r)
{
	struct out *o = arg;
	struct sbuf *sb = &o->line;
	char buf[32];
	size_t k;
	int first = 1;

	if (o->fmt == FMT_JSON)
		sbuf_addch(sb, '{');
	if (!o->header++ && o->fmt != FMT_JSON) {
		for (k = 0; k < NCOUNT_KEYS; k++) {
			if (!(o->keys & count_keys[k].bit))
				continue;
			if (o->fmt == FMT_CSV) {
				csv(sb, count_keys[k].name, first);
			} else {
				char up[16];
				size_t i;

				for (i = 0; count_keys[k].name[i] && i + 1 < sizeof(up); i++)
					up[i] = (char)(count_keys[k].name[i] - 'a' + 'A');
				up[i] = '\0';
				cell(sb, up, (size_t)count_keys[k].width);
				sbuf_addch(sb, ' ');
			}
			first = 0;
		}
		sbuf_addstr(sb, o->fmt == FMT_CSV ? ",count\n" : "   COUNT\n");
		first = 1;
	}
	for (k = 0; k < NCOUNT_KEYS; k++) {
		const char *v;

		if (!(o->keys & count_keys[k].bit))
			continue;
		v = key_value(r, count_keys[k].bit, buf, sizeof(buf));
		if (o->fmt == FMT_JSON) {
			json_kv(sb, count_keys[k].name, v, first);
		} else if (o->fmt == FMT_CSV) {
			csv(sb, v, first);
		} else {
			cell(sb, v ? v : "-", (size_t)count_keys[k].width);
			sbuf_addch(sb, ' ');
		}
		first = 0;
	}
	if (o->fmt == FMT_JSON)
		sbuf_addf(sb, ",\"count\":%lld}\n", r->n);
	else if (o->fmt == FMT_CSV)
		sbuf_addf(sb, ",%lld\n", r->n);
	else
		sbuf_addf(sb, "%8lld\n", r->n);
	flush(o);
	return 0;
}

/* ---- --review and --versions ------------------------------------------------ */

/* The series of message msgid (a patch or cover letter), or of the
 * review mail with that Message-ID: 0, 1 when there is none (said on
 * stderr), or a store error. */
static int series_of(struct store *st, const char *msgid, int64_t *series_id)
{
	struct store_msg m;
	struct store_reply r;
	int64_t rid;
	int ret;

	*series_id = 0;
	ret = store_msg_find(st, msgid, &m);
	if (ret < 0)
		return ret;
	if (ret == STORE_OK) {
		*series_id = m.series_id;
		store_msg_release(&m);
		if (!*series_id) {
			fprintf(stderr, "reviewbot query: <%s> is no patch of a series\n", msgid);
			return 1;
		}
		return 0;
	}
	ret = store_reply_find(st, msgid, &rid);
	if (ret == STORE_OK) {
		ret = store_reply_get(st, rid, &r);
		if (ret < 0)
			return ret;
		*series_id = ret == STORE_OK ? r.series_id : 0;
		if (ret == STORE_OK)
			store_reply_release(&r);
		if (*series_id)
			return 0;
	}
	if (ret < 0)
		return ret;
	fprintf(stderr, "reviewbot query: no message <%s>\n", msgid);
	return 1;
}

static int print_review(struct store *st, const char *msgid)
{
	struct store_review rv;
	struct store_reply r;
	struct store_series s;
	int64_t sid;
	int ret;

	ret = series_of(st, msgid, &sid);
	if (ret)
		return ret;
	ret = store_review_get_by_series(st, sid, &rv);
	if (ret < 0)
		return ret;
	if (ret == STORE_DONE) {
		ret = store_series_get(st, sid, &s);
		if (ret < 0)
			return ret;
		fprintf(stderr, "reviewbot query: the series of <%s> has no review yet (%s)\n",
			msgid, ret == STORE_OK && s.state == SERIES_SKIPPED ? "skipped" :
			"waiting for its parts");
		if (ret == STORE_OK)
			store_series_release(&s);
		return 1;
	}
	if (!rv.reply_id) {
		fprintf(stderr, "reviewbot query: the series of <%s> was reviewed without a mail"
			" (nothing found, review_clean off)\n", msgid);
		return 1;
	}
	ret = store_reply_get(st, rv.reply_id, &r);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 1;
	fprintf(stderr, "reviewbot query: review <%s>: %s%s%s\n", r.message_id,
		store_reply_state_name(r.state), r.reason ? ": " : "", r.reason ? r.reason : "");
	fputs(r.body ? r.body : "", stdout);
	store_reply_release(&r);
	return 0;
}

static int print_versions(struct store *st, const char *msgid, enum fmt fmt)
{
	struct store_version *v;
	struct sbuf sb;
	size_t n, self, i;
	int64_t sid;
	char date[32], ver[32];
	int ret;

	ret = series_of(st, msgid, &sid);
	if (ret)
		return ret;
	ret = store_web_versions(st, sid, NULL, &v, &n, &self);
	if (ret)
		return ret < 0 ? ret : 1;
	sbuf_init(&sb, QUERY_MAX_LINE);
	if (fmt == FMT_TABLE)
		sbuf_addstr(&sb, "VERSION  DATE        FINDINGS  FIXED    NEW  STILL  MESSAGE-ID\n");
	else if (fmt == FMT_CSV)
		sbuf_addstr(&sb, "version,date,findings,fixed,new,still,message_id,subject\n");
	for (i = 0; i < n; i++) {
		fmt_date(v[i].date, date, sizeof(date));
		subject_version_name(v[i].version, v[i].version_minor, ver, sizeof(ver));
		if (fmt == FMT_JSON) {
			sbuf_addf(&sb, "{\"version\":%d,\"version_minor\":%d", v[i].version,
				  v[i].version_minor);
			json_kv(&sb, "date", date, 0);
			sbuf_addf(&sb, ",\"findings\":%ld", v[i].findings);
			if (i)
				sbuf_addf(&sb, ",\"fixed\":%ld,\"new\":%ld,\"still\":%ld",
					  v[i].fixed, v[i].added, v[i].still);
			else
				sbuf_addstr(&sb, ",\"fixed\":null,\"new\":null,\"still\":null");
			json_kv(&sb, "message_id", v[i].msgid, 0);
			json_kv(&sb, "subject", v[i].subject, 0);
			sbuf_addf(&sb, ",\"this\":%s}\n", i == self ? "true" : "false");
		} else if (fmt == FMT_CSV) {
			csv(&sb, ver, 1);
			csv(&sb, date, 0);
			csv_num(&sb, v[i].findings);
			if (i) {
				csv_num(&sb, v[i].fixed);
				csv_num(&sb, v[i].added);
				csv_num(&sb, v[i].still);
			} else {
				sbuf_addstr(&sb, ",,,");
			}
			csv(&sb, v[i].msgid, 0);
			csv(&sb, v[i].subject, 0);
			sbuf_addch(&sb, '\n');
		} else {
			cell(&sb, ver, 6);
			sbuf_addstr(&sb, i == self ? "*  " : "   ");
			cell(&sb, date, 10);
			sbuf_addf(&sb, "  %8ld  ", v[i].findings);
			if (i)
				sbuf_addf(&sb, "%5ld  %5ld  %5ld  ", v[i].fixed, v[i].added,
					  v[i].still);
			else
				sbuf_addstr(&sb, "    -      -      -  ");
			sbuf_addch(&sb, '<');
			cell(&sb, v[i].msgid ? v[i].msgid : "", 0);
			sbuf_addstr(&sb, ">\n");
		}
	}
	fwrite(sb.buf, 1, sb.len, stdout);
	sbuf_release(&sb);
	store_versions_free(v, n);
	return 0;
}

/* ---- the command ----------------------------------------------------------- */

int cmd_query(int argc, char **argv)
{
	struct store_query q;
	struct store *st = NULL;
	struct config cfg;
	struct qfilter qf;
	struct out o;
	char *config_file = NULL, *database = NULL, *author = NULL, *file = NULL;
	char *list = NULL, *category = NULL, *type = NULL, *since = NULL;
	char *until = NULL, *series = NULL, *limit = NULL, *count_by = NULL;
	char *review = NULL, *versions = NULL, *one_msgid = NULL;
	char **args;
	char err[1024];
	int json = 0, csv_out = 0, patches = 0, feedback = 0, help = 0, version = 0;
	int nargs = 0;
	int ret = 2, have_cfg = 0, r;
	int64_t now = (int64_t)time(NULL);
	size_t i;
	const struct gl_opt opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "database", GL_STRING, NULL, &database, NULL },
		{ "author", GL_STRING, NULL, &author, NULL },
		{ "file", GL_STRING, NULL, &file, NULL },
		{ "list", GL_STRING, NULL, &list, NULL },
		{ "category", GL_STRING, NULL, &category, NULL },
		{ "type", GL_STRING, NULL, &type, NULL },
		{ "since", GL_STRING, NULL, &since, NULL },
		{ "until", GL_STRING, NULL, &until, NULL },
		{ "series", GL_STRING, NULL, &series, NULL },
		{ "limit", GL_STRING, NULL, &limit, NULL },
		{ "count-by", GL_STRING, NULL, &count_by, NULL },
		{ "review", GL_STRING, NULL, &review, NULL },
		{ "versions", GL_STRING, NULL, &versions, NULL },
		{ "patches", GL_SET, &patches, NULL, NULL },
		{ "feedback", GL_SET, &feedback, NULL, NULL },
		{ "json", GL_SET, &json, NULL, NULL },
		{ "csv", GL_SET, &csv_out, NULL, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};
	const struct {
		const char *key;
		char **value;
	} filters[] = {
		{ "author", &author }, { "file", &file }, { "list", &list },
		{ "category", &category }, { "type", &type }, { "since", &since },
		{ "until", &until }, { "series", &series }, { "limit", &limit },
	};

	memset(&q, 0, sizeof(q));
	memset(&o, 0, sizeof(o));
	memset(&cfg, 0, sizeof(cfg));	/* --database alone: no sources, no maintainers */
	qfilter_init(&qf);
	sbuf_init(&o.line, QUERY_MAX_LINE);
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		goto out;
	if (cmd_parse("query", opts, argc, argv, args, &nargs, 0, &help, &version, usage,
		      &ret))
		goto out;
	if (json && csv_out) {
		fprintf(stderr, "reviewbot query: --json or --csv, not both\n");
		goto out;
	}
	if ((review != NULL) + (versions != NULL) + (count_by != NULL) + patches + feedback > 1) {
		fprintf(stderr, "reviewbot query: one of --patches, --count-by, --feedback,"
			" --review and --versions\n");
		goto out;
	}
	if (feedback && (author || file || category || until || series || limit)) {
		fprintf(stderr, "reviewbot query: --feedback takes --list, --type and --since only\n");
		goto out;
	}
	if (review && json) {
		fprintf(stderr, "reviewbot query: --review prints the mail as it is stored\n");
		goto out;
	}
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		if (!*filters[i].value)
			continue;
		if (qfilter_set(&qf, filters[i].key, *filters[i].value, now, err, sizeof(err))) {
			fprintf(stderr, "reviewbot query: --%s: %s\n", filters[i].key, err);
			goto out;
		}
	}
	if (count_by && parse_keys(count_by, &o.keys, err, sizeof(err))) {
		fprintf(stderr, "reviewbot query: --count-by: unknown key '%s' (author, type,"
			" category, file, list, week)\n", err);
		goto out;
	}
	if (review || versions) {
		one_msgid = qfilter_msgid(review ? review : versions);
		if (!one_msgid) {
			fprintf(stderr, "reviewbot query: --%s: not a Message-ID\n",
				review ? "review" : "versions");
			goto out;
		}
	}
	if (!config_file && !database)
		config_file = cmd_default_config();
	if (!database) {
		if (cmd_load_config(config_file, &cfg, "query"))
			goto out;
		have_cfg = 1;
	}
	/* a query writes nothing: a database that is not there is not made */
	r = store_open_existing(database ? database : cfg.database, &st, err, sizeof(err));
	if (r == STORE_DONE) {
		fprintf(stderr, "reviewbot query: %s\n", err);
		goto out;
	}
	if (r) {
		fprintf(stderr, "reviewbot query: %s: %s\n",
			database ? database : cfg.database, err);
		goto out;
	}
	o.fmt = json ? FMT_JSON : csv_out ? FMT_CSV : FMT_TABLE;
	if (review || versions) {
		ret = review ? print_review(st, one_msgid) :
			print_versions(st, one_msgid, o.fmt);
		if (ret < 0) {
			fprintf(stderr, "reviewbot query: database: %s\n", store_errmsg(st));
			ret = 2;
		}
		goto out;
	}
	qfilter_apply(&qf, &q);
	if (feedback) {
		struct demoted_lists dl;
		struct fb_out fo = { &o, qf.type, &dl };

		ret = demoted_lists_load(st, &cfg, qf.list, &dl);
		if (!ret)
			ret = store_feedback_counts(st, qf.list, qf.since, 0, 1, feedback_row, &fo);
		demoted_lists_release(&dl);
	} else if (patches)
		ret = store_query_patches(st, &q, patch_row, &o);
	else if (count_by)
		ret = store_query_count(st, &q, o.keys, count_row, &o);
	else
		ret = store_query_findings(st, &q, finding_row, &o);
	if (ret < 0) {
		fprintf(stderr, "reviewbot query: database: %s\n", store_errmsg(st));
		ret = 2;
		goto out;
	}
	if (o.fmt == FMT_TABLE && !o.rows)
		fprintf(stderr, "reviewbot query: nothing matches\n");
	ret = 0;
out:
	store_close(st);
	if (have_cfg)
		config_release(&cfg);
	qfilter_release(&qf);
	sbuf_release(&o.line);
	free(config_file);
	free(database);
	for (i = 0; i < sizeof(filters) / sizeof(filters[0]); i++)
		free(*filters[i].value);
	free(count_by);
	free(review);
	free(versions);
	free(one_msgid);
	free(args);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot query: the history, for maintainers.  Runs in the front
 * binary (store and sqlite3 only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cmd.h"
#include "cmd_common.h"
#include "feedback.h"
#include "getopt_long.h"
#include "version.h"
#include "../checker/rules.h"
#include "../checker/sbuf.h"
#include "../store/store.h"
#include "../checker/banned.h"

#define QUERY_MAX_LINE	(1u << 20)

static void usage(FILE *f)
{
	fputs("Usage: reviewbot query [--config FILE] [FILTERS] [--patches | --feedback] [--json]\n"
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
	      "  --category CAT     security, uapi, correctness, process or style\n"
	      "  --type TYPE        a checkpatch type, e.g. LONG_LINE\n"
	      "  --since DATE       mail dated on or after DATE (YYYY-MM-DD, or Unix time)\n"
	      "  --until DATE       mail dated on or before DATE\n"
	      "  --series MSGID     the series that message belongs to\n"
	      "  --limit N          at most N rows\n"
	      "Output:\n"
	      "  --patches          one row per patch, with its counts\n"
	      "  --feedback         one row per type (--list, --type and --since apply)\n"
	      "  --json             one JSON object per line\n"
	      "  --config FILE      configuration naming the database\n"
	      "  --database FILE    this database instead\n"
	      "  --help             this text\n"
	      "  --version          the program's version\n",
	      f);
}

/* YYYY-MM-DD[THH:MM[:SS]] (UTC) or Unix seconds; end: the last second of
 * a bare day. */
static int parse_date(const char *s, int end, int64_t *out)
{
	struct tm tm;
	const char *rest;
	char *e;
	long long v;

	memset(&tm, 0, sizeof(tm));
	rest = strptime(s, "%Y-%m-%d", &tm);
	if (rest) {
		if (*rest == 'T' || *rest == ' ') {
			const char *r2 = strptime(rest + 1, "%H:%M:%S", &tm);

			if (!r2)
				r2 = strptime(rest + 1, "%H:%M", &tm);
			if (!r2 || *r2)
				return -1;
			end = 0;
		} else if (*rest) {
			return -1;
		}
		*out = (int64_t)timegm(&tm) + (end ? 86399 : 0);
		return 0;
	}
	errno = 0;
	v = strtoll(s, &e, 10);
	if (errno || *e || e == s || v < 0)
		return -1;
	*out = v;
	return 0;
}

static void fmt_date(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
		snprintf(buf, n, "-");
}

struct out {
	int json;
	int header;
	long rows;
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
	char date[32];

	fmt_date(r->date, date, sizeof(date));
	if (o->json) {
		sbuf_addch(sb, '{');
		json_kv(sb, "date", date, 1);
		json_kv(sb, "message_id", r->message_id, 0);
		json_kv(sb, "subject", r->subject, 0);
		json_kv(sb, "author", r->author_addr, 0);
		json_kv(sb, "author_name", r->author_name, 0);
		json_kv(sb, "list", r->list, 0);
		sbuf_addf(sb, ",\"version\":%d,\"part\":%d,\"total\":%d", r->version,
			  r->f.part, r->total);
		json_kv(sb, "type", r->f.type, 0);
		json_kv(sb, "severity", r->f.severity, 0);
		json_kv(sb, "category", r->f.category, 0);
		json_kv(sb, "file", r->f.file, 0);
		sbuf_addf(sb, ",\"line\":%ld", r->f.line);
		json_kv(sb, "message", r->f.message, 0);
		json_kv(sb, "fingerprint", r->f.fingerprint, 0);
		sbuf_addstr(sb, "}\n");
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
		if (r->version > 1)
			sbuf_addf(sb, "v%d ", r->version);
		sbuf_addf(sb, "%d/%d ", r->f.part, r->total);
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
	if (o->json) {
		sbuf_addch(sb, '{');
		json_kv(sb, "date", date, 1);
		json_kv(sb, "message_id", r->message_id, 0);
		json_kv(sb, "subject", r->p.subject, 0);
		json_kv(sb, "author", r->author_addr, 0);
		json_kv(sb, "author_name", r->author_name, 0);
		json_kv(sb, "list", r->list, 0);
		sbuf_addf(sb, ",\"version\":%d,\"part\":%d,\"total\":%d,\"errors\":%ld,"
			  "\"warnings\":%ld,\"checks\":%ld,\"findings\":%ld}\n",
			  r->version, r->p.part, r->total, r->p.errors, r->p.warnings,
			  r->p.checks, r->findings);
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

struct fb_out {
	struct out *o;
	const char *type;		/* --type, or NULL */
	const struct demoted_lists *dl;
};

static int feedback_row(void *arg, const struct store_feedback_count *c)
{
	struct fb_out *fo = arg;
	struct out *o = fo->o;
	struct sbuf *sb = &o->line;
	size_t i, k = 0;

	if (fo->type && strcasecmp(fo->type, c->type))
		return 0;
	if (o->json) {
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

int cmd_query(int argc, char **argv)
{
	struct store_query q;
	struct store *st = NULL;
	struct config cfg;
	struct out o;
	char *config_file = NULL, *database = NULL, *author = NULL, *file = NULL;
	char *list = NULL, *category = NULL, *type = NULL, *since = NULL;
	char *until = NULL, *series = NULL, *limit = NULL;
	char **args;
	char err[1024];
	int json = 0, patches = 0, feedback = 0, help = 0, version = 0, nargs = 0, ret = 2;
	int have_cfg = 0, r;
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
		{ "patches", GL_SET, &patches, NULL, NULL },
		{ "feedback", GL_SET, &feedback, NULL, NULL },
		{ "json", GL_SET, &json, NULL, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};

	memset(&q, 0, sizeof(q));
	memset(&o, 0, sizeof(o));
	sbuf_init(&o.line, QUERY_MAX_LINE);
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		goto out;
	if (gl_parse(opts, argc, argv, args, &nargs, err, sizeof(err))) {
		fprintf(stderr, "reviewbot query: %s\n", err);
		usage(stderr);
		goto out;
	}
	if (help) {
		usage(stdout);
		ret = 0;
		goto out;
	}
	if (version) {
		printf("reviewbot %s\n", REVIEWBOT_VERSION);
		ret = 0;
		goto out;
	}
	if (nargs) {
		fprintf(stderr, "reviewbot query: unexpected argument '%s'\n", args[0]);
		goto out;
	}
	if (patches && feedback) {
		fprintf(stderr, "reviewbot query: --patches and --feedback exclude each other\n");
		goto out;
	}
	if (feedback && (author || file || category || until || series || limit)) {
		fprintf(stderr, "reviewbot query: --feedback takes --list, --type and --since only\n");
		goto out;
	}
	if (category && rule_cat_find(category, strlen(category)) < 0) {
		fprintf(stderr, "reviewbot query: unknown category '%s' (security, uapi, correctness, process, style)\n",
			category);
		goto out;
	}
	if ((since && parse_date(since, 0, &q.since)) || (until && parse_date(until, 1, &q.until))) {
		fprintf(stderr, "reviewbot query: a date is YYYY-MM-DD[THH:MM[:SS]] or Unix seconds\n");
		goto out;
	}
	if (limit) {
		char *e;
		long long v;

		errno = 0;
		v = strtoll(limit, &e, 10);
		if (errno || *e || v < 1 || v > 100000000) {
			fprintf(stderr, "reviewbot query: --limit takes a number from 1 to 100000000\n");
			goto out;
		}
		q.limit = (size_t)v;
	}
	if (!config_file && !database)
		config_file = cmd_default_config();
	/* --feedback: the configuration says who maintains which list
	 * (the defaults, with --database: no demotion shown) */
	if (!database || feedback) {
		if (cmd_load_config(database ? NULL : config_file, &cfg, "query"))
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
	q.author = author;
	q.file_glob = file;
	q.list = list;
	q.category = category;
	q.type = type;
	q.series_msgid = series;
	o.json = json;
	if (feedback) {
		struct demoted_lists dl;
		struct fb_out fo = { &o, type, &dl };

		ret = demoted_lists_load(st, &cfg, list, &dl);
		if (!ret)
			ret = store_feedback_counts(st, list, q.since, 0, 1, feedback_row, &fo);
		demoted_lists_release(&dl);
	} else if (patches)
		ret = store_query_patches(st, &q, patch_row, &o);
	else
		ret = store_query_findings(st, &q, finding_row, &o);
	if (ret < 0) {
		fprintf(stderr, "reviewbot query: database: %s\n", store_errmsg(st));
		ret = 2;
		goto out;
	}
	if (!json && !o.rows)
		fprintf(stderr, "reviewbot query: nothing matches\n");
	ret = 0;
out:
	store_close(st);
	if (have_cfg)
		config_release(&cfg);
	sbuf_release(&o.line);
	free(config_file);
	free(database);
	free(author);
	free(file);
	free(list);
	free(category);
	free(type);
	free(since);
	free(until);
	free(series);
	free(limit);
	free(args);
	return ret;
}

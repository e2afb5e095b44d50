// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot status: what is in the store, for the admin.  Runs in the
 * front binary (store and sqlite3 only) and writes nothing; a missing
 * database is an error rather than a new empty one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_common.h"
#include "../command.h"
#include "../feedback.h"
#include "getopt_long.h"
#include "../pipeline.h"
#include "../version.h"
#include "../../checker/sbuf.h"
#include "../../store/store.h"
#include "../../checker/banned.h"

#define STATUS_MAX_OUT		(4u << 20)	/* bytes of the whole report */
#define STATUS_MAX_VALUE	256		/* bytes of a checkpoint shown */
#define STATUS_MAX_ARGS		16
#define STATUS_MAX_TYPES	200		/* disputed types kept (--json) */
#define STATUS_TEXT_TYPES	10		/* ... and shown as text */

static void usage(FILE *f)
{
	fputs("Usage: reviewbot status [--config FILE | --database FILE] [--json]\n"
	      "\n"
	      "Prints what the bot's database holds: messages per state, series\n"
	      "open (and how many still wait for parts), reviewed and skipped,\n"
	      "replies pending, sent, failed and suppressed, opt-outs, the findings\n"
	      "people answered \"false-positive\" to (per type: disputed, by the\n"
	      "list's maintainers, lists on which it is demoted; query --feedback\n"
	      "has every type), and where each source stopped reading.\n"
	      "\n"
	      "  --config FILE     configuration naming the database (default:\n"
	      "                    $REVIEWBOT_CONFIG, else /etc/reviewbot/reviewbot.conf)\n"
	      "  --database FILE   this database instead\n"
	      "  --json            one JSON object\n"
	      "  --help            this text\n"
	      "  --version         the program's version\n",
	      f);
}

/* A disputed type, for the summary. */
struct disputed {
	char type[64];
	long long findings, disputed, by_maintainers;
	char demoted[256];	/* the lists it is demoted on, ", "-separated */
};

struct status {
	long long msgs[MSG__COUNT], msgs_total;
	long long series[SERIES__COUNT], series_total, waiting;
	long long patches, findings;
	long long replies[REPLY__COUNT], replies_total, due;
	long long held;			/* pending, held by a cap */
	int64_t held_until;		/* the first of them due again */
	long long too_old;		/* suppressed: older than max_age */
	long long quiet;		/* suppressed: nothing worth a mail */
	long long backports;		/* suppressed: a stable backport */
	long long optouts, mutes;
	/* commands waiting for their sender's token, and refused (issue 33) */
	long long pending, refused;
	long long stages;		/* compile and load stages queued */
	int64_t stage_oldest, stage_age;
	int schema;
	long long disputes;		/* false-positive answers recorded */
	struct disputed *types;		/* the disputed types, most disputed first */
	size_t ntypes;
};

static int keep_disputed(void *arg, const struct store_feedback_count *c)
{
	struct status *s = arg;
	struct disputed *d;

	if (s->ntypes == STATUS_MAX_TYPES || strlen(c->type) >= sizeof(d->type))
		return 0;
	d = &s->types[s->ntypes++];
	memset(d, 0, sizeof(*d));
	snprintf(d->type, sizeof(d->type), "%s", c->type);
	d->findings = c->findings;
	d->disputed = c->disputed;
	d->by_maintainers = c->by_maintainers;
	return 0;
}

static int cmp_disputed(const void *pa, const void *pb)
{
	const struct disputed *a = pa, *b = pb;

	if (a->disputed != b->disputed)
		return a->disputed > b->disputed ? -1 : 1;
	return strcmp(a->type, b->type);
}

/* The lists each disputed type is demoted on, under cfg. */
static int mark_demoted(struct store *st, const struct config *cfg, struct status *s)
{
	struct feedback_demoted d;
	size_t i, k;
	int ret;

	for (i = 0; i < cfg->nsources; i++) {
		const char *l = cfg->sources[i].list;

		if (!l || !cfg->sources[i].maintainers)
			continue;
		for (k = 0; k < i; k++)
			if (cfg->sources[k].list && cfg->sources[k].maintainers &&
			    !strcasecmp(cfg->sources[k].list, l))
				break;
		if (k < i)
			continue;	/* that list is done */
		ret = feedback_demoted_load(st, cfg, l, &d);
		if (ret < 0)
			return ret;
		for (k = 0; k < s->ntypes; k++) {
			size_t n = strlen(s->types[k].demoted);

			if (!feedback_demoted_has(&d, s->types[k].type))
				continue;
			snprintf(s->types[k].demoted + n, sizeof(s->types[k].demoted) - n,
				 "%s%s", n ? ", " : "", l);
		}
		feedback_demoted_release(&d);
	}
	return 0;
}

struct cp_out {
	struct sbuf *sb;
	int json;
	int n;
	const struct config *cfg;	/* NULL with --database */
};

static void fmt_time(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, n, "never");
}

/* Text for a terminal: controls made visible, at most max bytes. */
static void add_visible(struct sbuf *sb, const char *s, size_t max)
{
	size_t n = 0;

	for (; s && *s && n < max; s++, n++)
		sbuf_addch(sb, (unsigned char)*s < ' ' || *s == 0x7f ? '?' : *s);
	if (s && *s)
		sbuf_addstr(sb, "...");
}

static int checkpoint_row(void *arg, const char *source, const char *value,
			  int64_t updated)
{
	struct cp_out *o = arg;
	char when[64];

	fmt_time(updated, when, sizeof(when));
	if (o->json) {
		sbuf_addstr(o->sb, o->n ? "," : "");
		sbuf_addstr(o->sb, "{\"source\":");
		sbuf_addjson(o->sb, source);
		sbuf_addstr(o->sb, ",\"value\":");
		sbuf_addjson(o->sb, value);
		sbuf_addf(o->sb, ",\"updated\":%lld,\"updated_utc\":", (long long)updated);
		sbuf_addjson(o->sb, when);
		sbuf_addch(o->sb, '}');
	} else {
		sbuf_addstr(o->sb, "checkpoint ");
		add_visible(o->sb, source, STATUS_MAX_VALUE);
		sbuf_addstr(o->sb, ": ");
		add_visible(o->sb, value, STATUS_MAX_VALUE);
		sbuf_addf(o->sb, " (%s)\n", when);
	}
	o->n++;
	return 0;
}

static int gather(struct store *st, const struct config *cfg, struct status *s)
{
	int64_t now = (int64_t)time(NULL);
	int i, r;

	memset(s, 0, sizeof(*s));
	s->schema = store_schema_version(st);
	if (s->schema < 0)
		return s->schema;
	r = store_msg_count(st, s->msgs);
	if (!r)
		r = store_series_count(st, s->series);
	if (!r)
		r = store_series_count_waiting(st, now - cfg->series_wait, &s->waiting);
	if (!r)
		r = store_patch_count(st, &s->patches, &s->findings);
	if (!r)
		r = store_reply_count(st, s->replies);
	if (!r)
		r = store_reply_count_due(st, now, &s->due);
	if (!r)
		r = store_reply_count_waiting(st, now, PIPE_HOLD_PREFIX, &s->held,
					      &s->held_until);
	if (!r)
		r = store_reply_count_reason(st, REPLY_SUPPRESSED, PIPE_REASON_TOO_OLD,
					     &s->too_old);
	if (!r)
		r = store_reply_count_reason(st, REPLY_SUPPRESSED, PIPE_REASON_QUIET,
					     &s->quiet);
	if (!r)
		r = store_reply_count_reason(st, REPLY_SUPPRESSED, PIPE_REASON_BACKPORT,
					     &s->backports);
	if (!r)
		r = store_optout_count(st, &s->optouts);
	if (!r)
		r = store_mute_count(st, &s->mutes);
	if (!r && s->schema >= 11)
		r = store_pending_count(st, NULL, now - COMMAND_TOKEN_TTL, &s->pending);
	if (!r && s->schema >= 11)
		r = store_command_refused_count(st, 0, &s->refused);
	if (!r && s->schema >= 4)
		r = store_stage_count_queued(st, &s->stages, &s->stage_oldest);
	if (!r && s->schema >= 6) {
		s->types = calloc(STATUS_MAX_TYPES, sizeof(*s->types));
		if (!s->types)
			return STORE_ERR_NOMEM;
		r = store_feedback_count(st, &s->disputes);
		if (!r && s->disputes)
			r = store_feedback_counts(st, NULL, 0, 1, 1, keep_disputed, s);
		if (!r)
			r = mark_demoted(st, cfg, s);
		qsort(s->types, s->ntypes, sizeof(*s->types), cmp_disputed);
	}
	if (r)
		return r;
	if (s->stage_oldest)
		s->stage_age = now - s->stage_oldest;
	for (i = 0; i < MSG__COUNT; i++)
		s->msgs_total += s->msgs[i];
	for (i = 0; i < SERIES__COUNT; i++)
		s->series_total += s->series[i];
	for (i = 0; i < REPLY__COUNT; i++)
		s->replies_total += s->replies[i];
	return 0;
}

static void print_text(struct sbuf *sb, const char *db, const struct status *s)
{
	int i;

	sbuf_addstr(sb, "database: ");
	add_visible(sb, db, 4096);
	sbuf_addf(sb, "\nschema: %d\n", s->schema);
	sbuf_addf(sb, "messages: %lld (", s->msgs_total);
	for (i = 0; i < MSG__COUNT; i++)
		sbuf_addf(sb, "%s%s %lld", i ? ", " : "",
			  store_msg_state_name((enum store_msg_state)i), s->msgs[i]);
	sbuf_addf(sb, ")\nseries: %lld (open %lld, waiting %lld, reviewed %lld, skipped %lld)\n",
		  s->series_total, s->series[SERIES_OPEN], s->waiting,
		  s->series[SERIES_REVIEWED], s->series[SERIES_SKIPPED]);
	sbuf_addf(sb, "patches: %lld\nfindings: %lld\n", s->patches, s->findings);
	sbuf_addf(sb, "replies: %lld (pending %lld, due %lld, held by cap %lld",
		  s->replies_total, s->replies[REPLY_PENDING], s->due, s->held);
	if (s->held) {
		char until[16];
		time_t t = (time_t)s->held_until;
		struct tm tm;

		if (!gmtime_r(&t, &tm) || !strftime(until, sizeof(until), "%H:%M", &tm))
			snprintf(until, sizeof(until), "?");
		sbuf_addf(sb, " (until %s UTC)", until);
	}
	sbuf_addf(sb, ", sent %lld, failed %lld, suppressed %lld",
		  s->replies[REPLY_SENT], s->replies[REPLY_FAILED],
		  s->replies[REPLY_SUPPRESSED]);
	if (s->too_old || s->quiet || s->backports) {
		const char *sep = " (";

		if (s->too_old) {
			sbuf_addf(sb, "%s%lld too old: [policy] max_age", sep, s->too_old);
			sep = "; ";
		}
		if (s->quiet) {
			sbuf_addf(sb, "%s%lld with nothing to say: [source] review_clean",
				  sep, s->quiet);
			sep = "; ";
		}
		if (s->backports)
			sbuf_addf(sb, "%s%lld stable backports: [source] review_backports",
				  sep, s->backports);
		sbuf_addch(sb, ')');
	}
	sbuf_addstr(sb, ")\n");
	sbuf_addf(sb, "opt-outs: %lld\nmuted threads: %lld\n", s->optouts, s->mutes);
	sbuf_addf(sb, "commands: %lld pending confirmation, %lld refused\n", s->pending,
		  s->refused);
	sbuf_addf(sb, "stages queued: %lld", s->stages);
	if (s->stages)
		sbuf_addf(sb, " (oldest %lld s ago)", (long long)s->stage_age);
	sbuf_addch(sb, '\n');
	sbuf_addf(sb, "false-positive disputes: %lld", s->disputes);
	if (s->ntypes)
		sbuf_addf(sb, " (%zu type%s disputed)", s->ntypes, s->ntypes == 1 ? "" : "s");
	sbuf_addch(sb, '\n');
	for (i = 0; i < (int)s->ntypes && i < STATUS_TEXT_TYPES; i++) {
		const struct disputed *d = &s->types[i];

		sbuf_addstr(sb, "  ");
		add_visible(sb, d->type, sizeof(d->type));
		sbuf_addf(sb, ": %lld of %lld findings disputed, %lld by maintainers",
			  d->disputed, d->findings, d->by_maintainers);
		if (d->demoted[0]) {
			sbuf_addstr(sb, "; demoted on ");
			add_visible(sb, d->demoted, sizeof(d->demoted));
		}
		sbuf_addch(sb, '\n');
	}
	if (s->ntypes > STATUS_TEXT_TYPES)
		sbuf_addf(sb, "  ... and %zu more (reviewbot query --feedback)\n",
			  s->ntypes - STATUS_TEXT_TYPES);
}

static void print_json(struct sbuf *sb, const char *db, const struct status *s)
{
	int i;

	sbuf_addstr(sb, "{\"version\":");
	sbuf_addjson(sb, REVIEWBOT_VERSION);
	sbuf_addstr(sb, ",\"database\":");
	sbuf_addjson(sb, db);
	sbuf_addf(sb, ",\"schema\":%d,\"messages\":{\"total\":%lld", s->schema,
		  s->msgs_total);
	for (i = 0; i < MSG__COUNT; i++)
		sbuf_addf(sb, ",\"%s\":%lld", store_msg_state_name((enum store_msg_state)i),
			  s->msgs[i]);
	sbuf_addf(sb, "},\"series\":{\"total\":%lld,\"open\":%lld,\"waiting\":%lld,"
		  "\"reviewed\":%lld,\"skipped\":%lld}",
		  s->series_total, s->series[SERIES_OPEN], s->waiting,
		  s->series[SERIES_REVIEWED], s->series[SERIES_SKIPPED]);
	sbuf_addf(sb, ",\"patches\":%lld,\"findings\":%lld", s->patches, s->findings);
	sbuf_addf(sb, ",\"replies\":{\"total\":%lld,\"pending\":%lld,\"due\":%lld,"
		  "\"held\":%lld,\"held_until\":%lld,"
		  "\"sent\":%lld,\"failed\":%lld,\"suppressed\":%lld,\"too_old\":%lld,"
		  "\"quiet\":%lld,\"backports\":%lld}",
		  s->replies_total, s->replies[REPLY_PENDING], s->due, s->held,
		  (long long)s->held_until,
		  s->replies[REPLY_SENT], s->replies[REPLY_FAILED],
		  s->replies[REPLY_SUPPRESSED], s->too_old, s->quiet, s->backports);
	sbuf_addf(sb, ",\"optouts\":%lld,\"mutes\":%lld", s->optouts, s->mutes);
	sbuf_addf(sb, ",\"commands\":{\"pending\":%lld,\"refused\":%lld}", s->pending,
		  s->refused);
	sbuf_addf(sb, ",\"stages\":{\"queued\":%lld,\"oldest_age\":%lld}", s->stages,
		  (long long)s->stage_age);
	sbuf_addf(sb, ",\"feedback\":{\"disputes\":%lld,\"types\":[", s->disputes);
	for (i = 0; i < (int)s->ntypes; i++) {
		const struct disputed *d = &s->types[i];

		sbuf_addstr(sb, i ? ",{\"type\":" : "{\"type\":");
		sbuf_addjson(sb, d->type);
		sbuf_addf(sb, ",\"findings\":%lld,\"disputed\":%lld,\"by_maintainers\":%lld,"
			  "\"demoted_on\":", d->findings, d->disputed, d->by_maintainers);
		sbuf_addjson(sb, d->demoted);
		sbuf_addch(sb, '}');
	}
	sbuf_addstr(sb, "]}");
	sbuf_addstr(sb, ",\"checkpoints\":[");
}

int cmd_status(int argc, char **argv)
{
	struct config cfg;
	struct store *st = NULL;
	struct status s = { .types = NULL };
	struct sbuf out;
	struct cp_out cp;
	char *config_file = NULL, *database = NULL;
	char *args[STATUS_MAX_ARGS + 1];
	const char *db;
	char err[1024];
	int nargs = 0, help = 0, version = 0, json = 0, have_cfg = 0, ret = 2, r;
	size_t i;
	const struct gl_opt opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "database", GL_STRING, NULL, &database, NULL },
		{ "json", GL_SET, &json, NULL, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};

	sbuf_init(&out, STATUS_MAX_OUT);
	if (argc > STATUS_MAX_ARGS) {
		fprintf(stderr, "reviewbot status: too many arguments\n");
		goto out;
	}
	if (cmd_parse("status", opts, argc, argv, args, &nargs, 0, &help, &version, usage,
		      &ret))
		goto out;
	if (config_file && database) {
		fprintf(stderr, "reviewbot status: --config and --database exclude each other\n");
		goto out;
	}
	if (!database && !config_file)
		config_file = cmd_default_config();
	/* the defaults give series_wait when only a database is named */
	if (cmd_load_config(database ? NULL : config_file, &cfg, "status"))
		goto out;
	have_cfg = 1;
	db = database ? database : cfg.database;
	if (access(db, F_OK)) {
		fprintf(stderr, "reviewbot status: %s: no database (the bot has not run yet?)\n", db);
		goto out;
	}
	if (store_open(db, &st, err, sizeof(err))) {
		fprintf(stderr, "reviewbot status: %s: %s\n", db, err);
		goto out;
	}
	r = gather(st, &cfg, &s);
	memset(&cp, 0, sizeof(cp));
	cp.sb = &out;
	cp.json = json;
	cp.cfg = database ? NULL : &cfg;
	if (!r) {
		if (json)
			print_json(&out, db, &s);
		else
			print_text(&out, db, &s);
		r = store_checkpoint_each(st, checkpoint_row, &cp);
	}
	if (r < 0) {
		fprintf(stderr, "reviewbot status: database: %s\n",
			*store_errmsg(st) ? store_errmsg(st) : store_strerror(r));
		goto out;
	}
	/* configured sources that have not stopped anywhere yet */
	for (i = 0; cp.cfg && i < cfg.nsources; i++) {
		char *v = NULL;

		r = store_checkpoint_get(st, cfg.sources[i].name, &v);
		free(v);
		if (r != STORE_DONE)
			continue;
		if (json) {
			sbuf_addstr(&out, cp.n++ ? "," : "");
			sbuf_addstr(&out, "{\"source\":");
			sbuf_addjson(&out, cfg.sources[i].name);
			sbuf_addstr(&out, ",\"value\":null,\"updated\":0,\"updated_utc\":\"never\"}");
		} else {
			sbuf_addstr(&out, "checkpoint ");
			add_visible(&out, cfg.sources[i].name, STATUS_MAX_VALUE);
			sbuf_addstr(&out, ": none (never read)\n");
		}
	}
	if (json)
		sbuf_addstr(&out, "]}\n");
	fwrite(out.buf, 1, out.len, stdout);
	ret = fflush(stdout) ? 2 : 0;
out:
	free(s.types);
	store_close(st);
	if (have_cfg)
		config_release(&cfg);
	sbuf_release(&out);
	free(config_file);
	free(database);
	return ret;
}

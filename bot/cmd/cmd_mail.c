// SPDX-License-Identifier: GPL-2.0-only
/*
 * The subcommands that read mail: run, import, review.  They live in the
 * helper (reviewbot-mail, under libexec) with the MIME and network
 * libraries, so `reviewbot check` never loads them.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_common.h"
#include "getopt_long.h"
#include "../stage/boot.h"
#include "../stage/sandbox.h"
#include "../stage/build.h"
#include "../log.h"
#include "../source/mailbox.h"
#include "../pipeline.h"
#include "../privdrop.h"
#include "../source/source.h"
#include "../mail/template.h"
#include "../version.h"
#include "../../store/store.h"
#include "../../checker/banned.h"

/* the build tree's templates/, seen from the helper (the Makefile knows
 * how deep the build folder is) */
#ifndef RB_TEMPLATES_REL
#define RB_TEMPLATES_REL "../../../templates"
#endif

#define RUN_MAX_SLEEP	60	/* seconds the daemon sleeps at most */

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t reload_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void on_reload(int sig)
{
	(void)sig;
	reload_requested = 1;
}

/*
 * No SA_RESTART: a signal ends the daemon's poll() at once.  SIGTERM and
 * SIGINT finish the message (review, delivery) in hand and stop; SIGHUP
 * reloads the configuration and templates between two cycles.
 */
static void run_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_reload;
	sigaction(SIGHUP, &sa, NULL);
	/* a server closing the socket is an error return, not a death */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/*
 * Templates: the configured folder.  Without a configuration file, when
 * the compiled-in folder is missing (installed under another prefix, or
 * run from the build tree), the folder beside the helper: installed
 * (libexec/reviewbot/ → share/reviewbot/templates) or in the build tree
 * (build/libexec/reviewbot/ → templates).
 */
static int load_templates(const struct config *cfg, int explicit_config,
			  struct template_set **out, char *err, size_t errlen)
{
	static const char *const rels[] = {
		"../../share/reviewbot/templates", RB_TEMPLATES_REL,
	};
	char dir[PATH_MAX];
	const char *from = cfg->templates;
	struct stat sb;
	size_t i;

	if (!explicit_config && stat(cfg->templates, &sb))
		for (i = 0; i < sizeof(rels) / sizeof(rels[0]); i++)
			if (!cmd_exe_relative(rels[i], dir, sizeof(dir)) &&
			    !stat(dir, &sb)) {
				from = dir;
				break;
			}
	if (template_set_load(from, out, err, errlen))
		return -1;
	/* the stages' results may follow a review in a mail of their own */
	if ((build_enabled(cfg) || boot_enabled(cfg)) &&
	    !template_set_has(*out, "followup.txt")) {
		snprintf(err, errlen, "template folder %.900s: followup.txt missing "
			 "(needed with [build] or [boot])", from);
		template_set_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

struct session {
	struct config cfg;
	struct store *st;
	struct template_set *tpl;
	struct pipeline *p;
	int have_cfg;
};

static void session_close(struct session *s)
{
	pipeline_free(s->p);
	template_set_free(s->tpl);
	store_close(s->st);
	if (s->have_cfg)
		config_release(&s->cfg);
}

/* drop: `run` started as root becomes [bot] user before it opens the
 * database or reads a template or a mail (bot/privdrop.h) */
static int session_open(struct session *s, const char *config_file,
			const char *db_override, enum pipeline_mode mode,
			const char *cmd, int drop)
{
	char err[1024];

	memset(s, 0, sizeof(*s));
	if (cmd_load_config(config_file, &s->cfg, cmd))
		return -1;
	s->have_cfg = 1;
	if (drop && privdrop_to_user(s->cfg.user, err, sizeof(err))) {
		fprintf(stderr, "reviewbot %s: %s\n", cmd, err);
		return -1;
	}
	if (load_templates(&s->cfg, config_file != NULL, &s->tpl, err, sizeof(err))) {
		fprintf(stderr, "reviewbot %s: %s\n", cmd, err);
		return -1;
	}
	if (store_open(db_override ? db_override : s->cfg.database, &s->st, err,
		       sizeof(err))) {
		fprintf(stderr, "reviewbot %s: %s: %s\n", cmd,
			db_override ? db_override : s->cfg.database, err);
		return -1;
	}
	if (pipeline_new(s->st, &s->cfg, s->tpl, mode, &s->p, err, sizeof(err))) {
		fprintf(stderr, "reviewbot %s: %s\n", cmd, err);
		return -1;
	}
	/* recipients of mail stored before schema 8 (reviewbot serve
	 * publishes none of it until then) */
	{
		long n = 0;
		char nb[24];

		if (pipeline_fill_rcpt(s->st, &n) < 0)
			log_event(LOG_WARN, "rcpt-fill-failed", "error", store_errmsg(s->st), NULL);
		else if (n) {
			snprintf(nb, sizeof(nb), "%ld", n);
			log_event(LOG_INFO, "rcpt-filled", "messages", nb, NULL);
		}
	}
	return 0;
}

static void print_stats(const char *what, const struct pipeline_stats *st, double secs)
{
	fprintf(stderr,
		"reviewbot %s: %ld messages stored (%ld already known, %ld unreadable), "
		"%ld patches, %ld cover letters, %ld replies, %ld skipped; %ld findings; "
		"%ld reviews (%ld clean); %ld sent, %ld deferred, %ld failed; %.2f s\n",
		what, st->stored, st->duplicates, st->bad, st->patches, st->covers,
		st->replies, st->skipped, st->findings, st->reviews, st->clean,
		st->sent, st->deferred, st->failed, secs);
}

static double now_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- run --------------------------------------------------------------- */

static void run_usage(FILE *f)
{
	fputs("Usage: reviewbot run [--config FILE] [--once] [-n] [--verbose]\n"
	      "\n"
	      "The daemon: reads the configured sources, checks every patch, keeps\n"
	      "everything in the database and replies with one review per series\n"
	      "version.\n"
	      "\n"
	      "  --config FILE   configuration (default: $REVIEWBOT_CONFIG, else\n"
	      "                  /etc/reviewbot/reviewbot.conf)\n"
	      "  --once          read what is there, review, deliver, and exit\n"
	      "  -n              check the configuration and templates, print\n"
	      "                  \"configuration OK\" or the first error, and exit\n"
	      "  --verbose       log every patch (level=debug)\n"
	      "  --help          this text\n"
	      "  --version       the version\n",
	      f);
}

/*
 * The compile and load stages can run: bubblewrap makes its sandbox,
 * nothing the bot keeps to itself is in a folder they show, and for the
 * load stage QEMU, the kernel, the headers and busybox are there.  run
 * -n fails without them; the daemon says so at the start, and the stages
 * then report "not checked" with why.
 */
static int check_stages(const struct config *cfg, int strict)
{
	struct boot_opts o;
	char err[768] = "";
	const char *what = "[build]";

	if (!build_enabled(cfg) && !boot_enabled(cfg))
		return 0;
	/* QEMU first: its absence says most about a [boot] that cannot run */
	boot_opts_from_config(&o, cfg);
	if (boot_enabled(cfg) && boot_check(&o, err, sizeof(err))) {
		what = "[boot]";
	} else if (sandbox_config_check(cfg, err, sizeof(err))) {
		what = build_enabled(cfg) ? "[build]" : "[boot]";
	} else {
		return 0;
	}
	if (strict) {
		fprintf(stderr, "reviewbot run: %s: %s\n", what, err);
		return -1;
	}
	log_event(LOG_ERR, "stage-unavailable", "stage", what, "error", err,
		  "result", "the stage says \"not checked\"", NULL);
	return 0;
}

/* Every source has a driver in this build (run -n). */
static int check_drivers(const struct config *cfg)
{
	struct source_session ss;
	char err[512] = "";
	size_t i;

	for (i = 0; i < cfg->nsources; i++) {
		if (source_session_init(&ss, &cfg->sources[i], NULL, err, sizeof(err))) {
			fprintf(stderr, "reviewbot run: %s:%d: %s\n", cfg->file ? cfg->file : "-",
				cfg->sources[i].line, err);
			return -1;
		}
		source_session_close(&ss);
	}
	return 0;
}

/* Reviews, then deliveries; errors logged and counted. */
static void run_review_deliver(struct session *s, int64_t now, int *failures)
{
	if (pipeline_review(s->p, now, 0) < 0) {
		const char *e = store_errmsg(s->st);

		log_event(LOG_ERR, "review-failed", "error",
			  *e ? e : "see the series logged above", NULL);
		(*failures)++;
	}
	if (pipeline_deliver(s->p, now) < 0) {
		log_event(LOG_ERR, "deliver-failed", "error", store_errmsg(s->st), NULL);
		(*failures)++;
	}
}

/*
 * Sources, then reviews, then deliveries, then the compile and load
 * stages one at a time, each followed by the reviews and follow-ups it
 * completes: one turn of the daemon.  The daemon runs one stage a turn
 * (its sources are read between two) and returns 1 when more may be
 * queued; --once runs them all.
 */
static int run_cycle(struct session *s, struct source_session *ss, const int *woke,
		     int first, int once, int *failures)
{
	int ran = 0;

	size_t i;
	int64_t now = time(NULL);

	/* messages stored but not processed: the last run ended, a batch
	 * was cut short, or the database was busy or full */
	if (pipeline_process_pending(s->p, now) < 0) {
		log_event(LOG_ERR, "process-failed", "error", store_errmsg(s->st), NULL);
		(*failures)++;
	}
	for (i = 0; i < s->cfg.nsources && !stop_requested; i++)
		if (source_session_poll(&ss[i], s->p, now, first || woke[i]) < 0)
			(*failures)++;
	run_review_deliver(s, time(NULL), failures);
	while (!stop_requested) {
		ran = pipeline_run_stage(s->p, time(NULL));
		if (ran < 0) {
			log_event(LOG_ERR, "stage-failed", "error", store_errmsg(s->st), NULL);
			(*failures)++;
		}
		if (ran <= 0)
			break;
		run_review_deliver(s, time(NULL), failures);
		if (!once)
			break;
	}
	return ran > 0;
}

/*
 * Sleeps until a source's server says there is mail (IMAP IDLE), a
 * source is due, or RUN_MAX_SLEEP passes (series waiting for
 * series_wait, replies waiting for a retry), or a signal.
 */
static void run_wait(struct session *s, struct source_session *ss, int *woke,
		     int busy)
{
	struct pollfd fds[CONFIG_MAX_SOURCES];
	size_t idx[CONFIG_MAX_SOURCES], n = 0, i;
	int64_t now = time(NULL), wait = busy ? 0 : RUN_MAX_SLEEP, due;
	int fd;

	for (i = 0; i < s->cfg.nsources; i++) {
		woke[i] = 0;
		fd = ss[i].ops->idle && now >= ss[i].next_try ? ss[i].ops->idle(&ss[i]) : -1;
		if (fd >= 0) {
			fds[n].fd = fd;
			fds[n].events = POLLIN;
			fds[n].revents = 0;
			idx[n++] = i;
		}
		due = ss[i].next_try > now ? ss[i].next_try - now
					   : ss[i].last_poll + ss[i].src->poll_interval - now;
		if (due < wait)
			wait = due;
	}
	if (wait < 1)
		wait = busy ? 0 : 1;	/* busy: stages queued, only a look */
	if (poll(fds, n, (int)(wait * 1000)) <= 0)
		return;
	for (i = 0; i < n; i++)
		if (fds[i].revents)
			woke[idx[i]] = 1;
}

/*
 * SIGHUP: the configuration and the templates again, and the sources
 * reconnected from their checkpoints.  A file that does not load (or
 * templates that do not) is logged and the old ones are kept.  The
 * database stays the one opened at the start: a new [bot] database or
 * user takes a restart.
 */
static void run_reload(struct session *s, const char *config_file,
		       struct source_session *ss, size_t *nss)
{
	struct config cfg;
	struct template_set *tpl = NULL;
	struct source_session fresh[CONFIG_MAX_SOURCES];
	char err[1024] = "";
	size_t k, n = 0;

	if (config_load(config_file, &cfg, err, sizeof(err))) {
		log_event(LOG_ERR, "reload-failed", "config", config_file, "error", err,
			  "kept", "the running configuration", NULL);
		config_release(&cfg);	/* a failed load leaves the defaults in it */
		return;
	}
	if (!cfg.nsources || (!cfg.address && !cfg.dry_run)) {
		log_event(LOG_ERR, "reload-failed", "config", config_file, "error",
			  !cfg.nsources ? "no [source] to read"
					: "[bot] address is required to send replies",
			  "kept", "the running configuration", NULL);
		goto fail;
	}
	if (load_templates(&cfg, 1, &tpl, err, sizeof(err))) {
		log_event(LOG_ERR, "reload-failed", "config", config_file, "error", err,
			  "kept", "the running configuration", NULL);
		goto fail;
	}
	for (k = 0; k < cfg.nsources; k++, n++)
		if (source_session_init(&fresh[k], &cfg.sources[k], s->st, err, sizeof(err))) {
			log_event(LOG_ERR, "reload-failed", "config", config_file,
				  "error", err, "kept", "the running configuration", NULL);
			goto fail;
		}
	if (strcmp(cfg.database, s->cfg.database))
		log_event(LOG_WARN, "reload-partial", "database", s->cfg.database,
			  "reason", "a new database takes a restart", NULL);
	for (k = 0; k < *nss; k++)
		source_session_close(&ss[k]);
	template_set_free(s->tpl);
	config_release(&s->cfg);
	/* the sources point into cfg.sources, which moves with the struct */
	s->cfg = cfg;
	s->tpl = tpl;
	pipeline_set_config(s->p, &s->cfg, s->tpl);
	memcpy(ss, fresh, n * sizeof(*ss));
	*nss = n;
	log_event(LOG_INFO, "reloaded", "config", config_file, NULL);
	return;
fail:
	for (k = 0; k < n; k++)
		source_session_close(&fresh[k]);
	template_set_free(tpl);
	config_release(&cfg);
}

int cmd_run(int argc, char **argv)
{
	struct session s;
	char *config_file = NULL;
	char **args;
	char err[512] = "";
	struct source_session ss[CONFIG_MAX_SOURCES];
	int woke[CONFIG_MAX_SOURCES];
	size_t k, nss = 0;
	int once = 0, check_only = 0, verbose = 0, help = 0, version = 0, nargs = 0;
	int ret = 2, failures = 0, first, busy;
	double t0 = now_secs();
	const struct gl_opt opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "once", GL_SET, &once, NULL, NULL },
		{ "n|check-config", GL_SET, &check_only, NULL, NULL },
		{ "verbose|v", GL_SET, &verbose, NULL, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};

	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return 2;
	if (gl_parse(opts, argc, argv, args, &nargs, err, sizeof(err))) {
		fprintf(stderr, "reviewbot run: %s\n", err);
		run_usage(stderr);
		goto out_args;
	}
	if (version) {
		printf("reviewbot %s\n", REVIEWBOT_VERSION);
		ret = 0;
		goto out_args;
	}
	if (help) {
		run_usage(stdout);
		ret = 0;
		goto out_args;
	}
	if (nargs) {
		fprintf(stderr, "reviewbot run: unexpected argument '%s'\n", args[0]);
		goto out_args;
	}
	if (!config_file)
		config_file = cmd_default_config();
	if (check_only) {
		struct config cfg;
		struct template_set *t = NULL;

		if (cmd_load_config(config_file, &cfg, "run"))
			goto out_args;
		if (cmd_check_runnable(&cfg, "run") || check_drivers(&cfg) ||
		    check_stages(&cfg, 1) ||
		    load_templates(&cfg, 1, &t, err, sizeof(err))) {
			if (t == NULL && err[0])
				fprintf(stderr, "reviewbot run: %s\n", err);
			config_release(&cfg);
			goto out_args;
		}
		template_set_free(t);
		config_release(&cfg);
		printf("configuration OK\n");
		ret = 0;
		goto out_args;
	}
	if (verbose)
		log_set_level(LOG_DEBUG);
	privdrop_limits();
	if (session_open(&s, config_file, NULL, PIPE_RUN, "run", 1))
		goto out_session;
	if (cmd_check_runnable(&s.cfg, "run"))
		goto out_session;
	run_signals();
	pipeline_set_stop(s.p, &stop_requested);
	log_event(LOG_INFO, "start", "version", REVIEWBOT_VERSION, "config",
		  config_file, "database", s.cfg.database, NULL);
	check_stages(&s.cfg, 0);
	memset(woke, 0, sizeof(woke));
	for (k = 0; k < s.cfg.nsources; k++) {
		if (source_session_init(&ss[k], &s.cfg.sources[k], s.st, err, sizeof(err))) {
			fprintf(stderr, "reviewbot run: %s\n", err);
			goto out_sources;
		}
		nss++;
	}
	for (first = 1; !stop_requested; first = 0) {
		if (reload_requested) {
			reload_requested = 0;
			run_reload(&s, config_file, ss, &nss);
			first = 1;
		}
		busy = run_cycle(&s, ss, woke, first, once, &failures);
		if (once)
			break;
		if (!reload_requested)
			run_wait(&s, ss, woke, busy);
	}
	print_stats("run", pipeline_stats(s.p), now_secs() - t0);
	/* --once reports what failed; the daemon's failures were logged as
	 * they came and retried, and a stop asked for is a clean end */
	ret = once && failures ? 1 : 0;
	log_event(LOG_INFO, "stop", NULL);
out_sources:
	for (k = 0; k < nss; k++)
		source_session_close(&ss[k]);
out_session:
	session_close(&s);
out_args:
	free(config_file);
	free(args);
	return ret;
}

/* ---- import ------------------------------------------------------------- */

static void import_usage(FILE *f)
{
	fputs("Usage: reviewbot import [--config FILE] [--source NAME] MBOX|MAILDIR...\n"
	      "\n"
	      "Backfills the history: stores, assembles and checks every message\n"
	      "of the files, and marks their series reviewed without mailing\n"
	      "anyone.\n"
	      "\n"
	      "  --config FILE   configuration (for the database)\n"
	      "  --source NAME   file the messages under this configured source\n"
	      "                  (its list address)\n"
	      "  --database FILE use this database instead of the configured one\n"
	      "  --help          this text\n"
	      "  --version       the version\n",
	      f);
}

struct progress {
	struct pipeline *p;
	int tty;
	double t0;
	const char *path;
};

/* One line on a terminal, rewritten: count, rate, time left; cleared at
 * the end.  Nothing when stderr is not a terminal. */
static void show_progress(void *arg, uint64_t done, uint64_t total)
{
	struct progress *pr = arg;
	const struct pipeline_stats *st = pipeline_stats(pr->p);
	double el = now_secs() - pr->t0;
	long n = st->stored + st->duplicates + st->bad;

	if (!pr->tty || !total)
		return;
	if (done >= total) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K%s: %ld messages, %.0f/s, %3d%%, about %.0f s left",
		pr->path, n, el > 0 ? (double)n / el : 0.0, (int)(done * 100 / total),
		done ? el * (double)(total - done) / (double)done : 0.0);
}

int cmd_import(int argc, char **argv)
{
	struct session s;
	struct progress pr;
	const struct config_source *src = NULL;
	char *config_file = NULL, *source = NULL, *database = NULL;
	char **args;
	char err[1024];
	int help = 0, version = 0, nargs = 0, ret = 2, i;
	size_t k;
	double t0 = now_secs();
	const struct gl_opt opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "source", GL_STRING, NULL, &source, NULL },
		{ "database", GL_STRING, NULL, &database, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};

	memset(&s, 0, sizeof(s));
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return 2;
	if (gl_parse(opts, argc, argv, args, &nargs, err, sizeof(err))) {
		fprintf(stderr, "reviewbot import: %s\n", err);
		import_usage(stderr);
		goto out_args;
	}
	if (version) {
		printf("reviewbot %s\n", REVIEWBOT_VERSION);
		ret = 0;
		goto out_args;
	}
	if (help) {
		import_usage(stdout);
		ret = 0;
		goto out_args;
	}
	if (!nargs) {
		fprintf(stderr, "reviewbot import: no file to import\n");
		import_usage(stderr);
		goto out_args;
	}
	if (!config_file)
		config_file = cmd_default_config();
	privdrop_limits();
	if (session_open(&s, config_file, database, PIPE_IMPORT, "import", 0))
		goto out_session;
	/* a transaction a batch, a savepoint a message (store_set_bulk) */
	store_set_bulk(s.st);
	for (k = 0; source && k < s.cfg.nsources; k++)
		if (!strcmp(s.cfg.sources[k].name, source))
			src = &s.cfg.sources[k];
	if (source && !src) {
		fprintf(stderr, "reviewbot import: no source \"%s\" in %s\n", source,
			s.cfg.file ? s.cfg.file : "the configuration");
		goto out_session;
	}
	pr.p = s.p;
	pr.tty = isatty(2);
	pr.t0 = t0;
	ret = 0;
	/* what an import cut short left stored and new (importing the same
	 * files again finds them stored), each charged an attempt first: a
	 * mail whose check killed the import twice is marked bad */
	if (pipeline_process_pending(s.p, time(NULL)) < 0) {
		fprintf(stderr, "reviewbot import: database: %s\n", store_errmsg(s.st));
		ret = 1;
	}
	for (i = 0; i < nargs; i++) {
		pr.path = args[i];
		if (source_read_path(s.p, s.st, src, args[i], time(NULL), show_progress,
				     &pr, err, sizeof(err))) {
			fprintf(stderr, "reviewbot import: %s\n", err);
			ret = 1;
		}
	}
	/* history: every series is settled without mail */
	if (pipeline_review(s.p, time(NULL), 1) < 0) {
		fprintf(stderr, "reviewbot import: database: %s\n", store_errmsg(s.st));
		ret = 1;
	}
	{
		double secs = now_secs() - t0;
		const struct pipeline_stats *st = pipeline_stats(s.p);
		long n = st->stored + st->duplicates;

		print_stats("import", st, secs);
		fprintf(stderr, "reviewbot import: %ld messages in %.2f s: %.0f messages/s\n",
			n, secs, secs > 0 ? (double)n / secs : 0.0);
	}
out_session:
	session_close(&s);
out_args:
	free(config_file);
	free(source);
	free(database);
	free(args);
	return ret;
}

/* ---- review ------------------------------------------------------------- */

static void review_usage(FILE *f)
{
	fputs("Usage: reviewbot review [--config FILE] MSGFILE...\n"
	      "\n"
	      "Prints the review mail(s) the bot would send for these messages\n"
	      "(mails, mboxes or maildirs; the parts of a series are reviewed as\n"
	      "one).  Sends nothing and writes no database but a temporary one.\n"
	      "\n"
	      "  --config FILE   take the bot's address, templates and policy from\n"
	      "                  this configuration (default: built-in defaults)\n"
	      "  --help          this text\n"
	      "  --version       the version\n",
	      f);
}

struct printer {
	struct store *st;
	int n;
};

static int print_reply(void *arg, int64_t id)
{
	struct printer *pr = arg;
	struct store_reply r;

	if (store_reply_get(pr->st, id, &r) != STORE_OK)
		return 0;
	if (pr->n++)
		fputs("\n", stdout);
	fputs(r.body, stdout);
	store_reply_release(&r);
	return 0;
}

int cmd_review(int argc, char **argv)
{
	struct session s;
	struct printer pr;
	char *config_file = NULL;
	char **args;
	char err[1024], dir[] = "/tmp/reviewbot-review.XXXXXX", db[64];
	int help = 0, version = 0, nargs = 0, ret = 2, i, made_dir = 0;
	const struct gl_opt opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};

	memset(&s, 0, sizeof(s));
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return 2;
	if (gl_parse(opts, argc, argv, args, &nargs, err, sizeof(err))) {
		fprintf(stderr, "reviewbot review: %s\n", err);
		review_usage(stderr);
		goto out_args;
	}
	if (version) {
		printf("reviewbot %s\n", REVIEWBOT_VERSION);
		ret = 0;
		goto out_args;
	}
	if (help) {
		review_usage(stdout);
		ret = 0;
		goto out_args;
	}
	if (!nargs) {
		fprintf(stderr, "reviewbot review: no message file\n");
		review_usage(stderr);
		goto out_args;
	}
	if (!mkdtemp(dir)) {
		fprintf(stderr, "reviewbot review: %s: %s\n", dir, strerror(errno));
		goto out_args;
	}
	made_dir = 1;
	snprintf(db, sizeof(db), "%s/review.db", dir);
	log_set_level(LOG_WARN);
	if (session_open(&s, config_file, db, PIPE_RUN, "review", 0))
		goto out_session;

	ret = 0;
	for (i = 0; i < nargs; i++)
		if (source_read_path(s.p, s.st, NULL, args[i], time(NULL), NULL, NULL,
				     err, sizeof(err))) {
			fprintf(stderr, "reviewbot review: %s\n", err);
			ret = 2;
		}
	if (!ret && pipeline_review(s.p, time(NULL), 1) < 0) {
		fprintf(stderr, "reviewbot review: database: %s\n", store_errmsg(s.st));
		ret = 2;
	}
	/* the compile and load stages, when configured, then the reviews
	 * (and follow-ups) that waited for them */
	if (!ret) {
		int ran;

		while ((ran = pipeline_run_stage(s.p, time(NULL))) > 0)
			;
		if (ran < 0 || pipeline_review(s.p, time(NULL), 1) < 0) {
			fprintf(stderr, "reviewbot review: database: %s\n",
				store_errmsg(s.st));
			ret = 2;
		}
	}
	pr.st = s.st;
	pr.n = 0;
	if (!ret)
		store_reply_each_due(s.st, INT64_MAX, print_reply, &pr);
	if (!ret && !pr.n)
		fprintf(stderr, "reviewbot review: no patch to review in the input\n");
out_session:
	session_close(&s);
	if (made_dir) {
		char path[128];

		snprintf(path, sizeof(path), "%s/review.db-wal", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/review.db-shm", dir);
		unlink(path);
		unlink(db);
		rmdir(dir);
	}
out_args:
	free(config_file);
	free(args);
	return ret;
}

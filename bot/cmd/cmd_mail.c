// SPDX-License-Identifier: GPL-2.0-only
/*
 * The subcommands that read mail: run, import, review.  They live in the
 * helper (reviewbot-mail, under libexec) with the MIME and network
 * libraries, so `reviewbot check` never loads them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_common.h"
#include "getopt_long.h"
#include "../stage/boot.h"
#include "../stage/sandbox.h"
#include "../stage/build.h"
#include "../stage/cgroup.h"
#include "../log.h"
#include "../mail/mailbox.h"
#include "../pipeline.h"
#include "../privdrop.h"
#include "../source/source.h"
#include "../secret.h"
#include "../mail/template.h"
#include "../version.h"
#include "../../store/store.h"
#include "../../store/store_web.h"
#include "../../checker/banned.h"

#ifndef RB_TEMPLATES_INST_REL
#define RB_TEMPLATES_INST_REL "../../share/reviewbot/templates"
#endif
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
 * SIGTERM and SIGINT finish the message (review, delivery) in hand and
 * stop; SIGHUP reloads the configuration and templates between two cycles.
 */
static void run_signals(void)
{
	cmd_signals(on_stop, on_reload);
}

/*
 * Templates: the configured folder, or, when [bot] templates is not set,
 * the one beside the program, found from where the helper runs: as
 * installed (LIBEXECDIR/reviewbot/ → DATADIR/reviewbot/templates) or in
 * the build tree (build/libexec/reviewbot/ → templates), whatever PREFIX
 * the program was built for.
 */
static int load_templates(const struct config *cfg, struct template_set **out,
			  char *err, size_t errlen)
{
	static const char *const rels[] = { RB_TEMPLATES_INST_REL, RB_TEMPLATES_REL };
	char dir[PATH_MAX], tried[2][PATH_MAX];
	const char *from = cfg->templates;
	struct stat sb;
	size_t i;

	*out = NULL;
	for (i = 0; !from && i < sizeof(rels) / sizeof(rels[0]); i++) {
		tried[i][0] = '\0';
		if (cmd_exe_relative(rels[i], dir, sizeof(dir)))
			continue;
		if (!realpath(dir, tried[i]))
			snprintf(tried[i], sizeof(tried[i]), "%s", dir);
		if (!stat(dir, &sb) && S_ISDIR(sb.st_mode))
			from = tried[i];
	}
	if (!from) {
		snprintf(err, errlen, "no template folder: [bot] templates is not set and "
			 "none is beside the program (%.400s, %.400s)", tried[0], tried[1]);
		return -1;
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
	if (load_templates(&s->cfg, &s->tpl, err, sizeof(err))) {
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
		"%ld reviews (%ld clean; not mailed: %ld with nothing to say, "
		"%ld stable backports); %ld sent, %ld deferred, %ld failed, "
		"%ld too old to answer ([policy] max_age); %.2f s\n",
		what, st->stored, st->duplicates, st->bad, st->patches, st->covers,
		st->replies, st->skipped, st->findings, st->reviews, st->clean,
		st->quiet, st->backports, st->sent, st->deferred, st->failed,
		st->too_old, secs);
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
	fputs("Usage: reviewbot run [--config FILE] [--once] [-n] [--since DATE] [--verbose]\n"
	      "\n"
	      "The daemon: reads the configured sources, checks every patch, keeps\n"
	      "everything in the database and replies with one review per series\n"
	      "version.  A source read for the first time is read back to\n"
	      "[policy] max_age, nothing older.\n"
	      "\n"
	      "  --config FILE   configuration (default: $REVIEWBOT_CONFIG, else\n"
	      "                  /etc/reviewbot/reviewbot.conf)\n"
	      "  --once          read what is there, review, deliver, and exit\n"
	      "  -n              check the configuration and templates, say what\n"
	      "                  each source's next start reads, print\n"
	      "                  \"configuration OK\" or the first error, and exit\n"
	      "  --since DATE    a backfill: read every source from DATE on\n"
	      "                  (YYYY-MM-DD[ HH:MM[:SS]], UTC), read before or not;\n"
	      "                  mail older than max_age is stored, not answered\n"
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
	const char *what = "[build]", *how = NULL;

	if (!build_enabled(cfg) && !boot_enabled(cfg))
		return 0;
	/* QEMU first: its absence says most about a [boot] that cannot run */
	boot_opts_from_config(&o, cfg);
	if (boot_enabled(cfg) && boot_check(&o, err, sizeof(err))) {
		what = "[boot]";
	} else if (sandbox_config_check(cfg, err, sizeof(err))) {
		what = build_enabled(cfg) ? "[build]" : "[boot]";
	} else if (build_enabled(cfg) && cgroup_check(&how, err, sizeof(err))) {
		/* no total bound, no compile stage (reviewbot(8)) */
		what = "[build]";
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

/* A folder the daemon must write in (and create files in). */
static int writable_dir(const char *dir, char *err, size_t errlen)
{
	struct stat sb;

	if (stat(dir, &sb)) {
		snprintf(err, errlen, "%.900s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%.900s: not a folder", dir);
		return -1;
	}
	if (access(dir, W_OK | X_OK)) {
		snprintf(err, errlen, "%.900s: not writable (%s)", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* The folder of path, or "." */
static void parent_dir(const char *path, char *out, size_t outlen)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(out, outlen, ".");
	else if (slash == path)
		snprintf(out, outlen, "/");
	else
		snprintf(out, outlen, "%.*s", (int)(slash - path), path);
}

/* A password file or variable that the daemon will read. */
static int password_ok(const char *file, const char *env, char *err, size_t errlen)
{
	char pw[SECRET_MAX_PASSWORD];
	int r;

	if (!file && !env)
		return 0;
	r = secret_password(file, env, pw, sizeof(pw), err, errlen);
	explicit_bzero(pw, sizeof(pw));
	return r < 0 ? -1 : 0;
}

/*
 * run -n: what the daemon will need of the file system, as the user it
 * runs as: every maildir and mbox source there and readable, every
 * password file readable (and private) or variable set, the database's
 * folder writable (and the database, when it exists), the outbox's
 * folder or the sendmail program.  Prints the first problem.
 */
static int check_paths(const struct config *cfg)
{
	const char *file = cfg->file ? cfg->file : "-";
	char err[1100], dir[PATH_MAX];
	struct stat sb;
	size_t i;
	int fd;

	for (i = 0; i < cfg->nsources; i++) {
		const struct config_source *src = &cfg->sources[i];

		err[0] = '\0';
		if (src->type == SRC_MAILDIR) {
			if (stat(src->path, &sb))
				snprintf(err, sizeof(err), "maildir %.900s: %s", src->path,
					 strerror(errno));
			else if (!mailbox_is_maildir(src->path))
				snprintf(err, sizeof(err),
					 "%.900s: not a maildir (no cur/ and new/ folders)",
					 src->path);
			else if (access(src->path, R_OK | X_OK))
				snprintf(err, sizeof(err), "maildir %.900s: %s", src->path,
					 strerror(errno));
		} else if (src->type == SRC_MBOX) {
			fd = open(src->path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				snprintf(err, sizeof(err), "mbox %.900s: %s", src->path,
					 strerror(errno));
			else
				close(fd);
		}
		if (!err[0])
			password_ok(src->password_file, src->password_env, err, sizeof(err));
		if (err[0]) {
			fprintf(stderr, "reviewbot run: %s:%d: source \"%s\": %s\n", file,
				src->line, src->name, err);
			return -1;
		}
	}
	err[0] = '\0';
	/* a dry run writes to the outbox maildir whatever the delivery */
	if (!cfg->dry_run && password_ok(cfg->delivery_password_file, cfg->delivery_password_env, err,
			sizeof(err))) {
		fprintf(stderr, "reviewbot run: %s: [delivery]: %s\n", file, err);
		return -1;
	}
	parent_dir(cfg->database, dir, sizeof(dir));
	if (writable_dir(dir, err, sizeof(err)) ||
	    (!stat(cfg->database, &sb) && access(cfg->database, R_OK | W_OK) &&
	     snprintf(err, sizeof(err), "%.900s: %s", cfg->database, strerror(errno)))) {
		fprintf(stderr, "reviewbot run: %s: [bot] database: %s\n", file, err);
		return -1;
	}
	if (cfg->dry_run || cfg->delivery == DELIVER_MAILDIR) {
		/* made at the first delivery when missing */
		if (stat(cfg->delivery_path, &sb))
			parent_dir(cfg->delivery_path, dir, sizeof(dir));
		else
			snprintf(dir, sizeof(dir), "%s", cfg->delivery_path);
		if (writable_dir(dir, err, sizeof(err))) {
			fprintf(stderr, "reviewbot run: %s: [delivery] path: %s\n", file, err);
			return -1;
		}
	} else if (cfg->delivery == DELIVER_SENDMAIL && access(cfg->delivery_path, X_OK)) {
		fprintf(stderr, "reviewbot run: %s: [delivery] path %s: %s\n", file,
			cfg->delivery_path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * check_paths as the daemon will run: started as root with [bot] user,
 * in a child that drops to that user first.
 */
static int check_paths_as_runner(const struct config *cfg)
{
	char err[512];
	pid_t pid;
	int status;

	if (geteuid() != 0 || !cfg->user)
		return check_paths(cfg);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "reviewbot run: fork: %s\n", strerror(errno));
		return -1;
	}
	if (!pid) {
		if (privdrop_to_user(cfg->user, err, sizeof(err))) {
			fprintf(stderr, "reviewbot run: %s\n", err);
			_exit(1);
		}
		_exit(check_paths(cfg) ? 1 : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* ---- the stage workers ([build] workers) ---------------------------------- */

/*
 * The compile and load stages run beside the daemon, in worker processes
 * that take them from the database's stage queue (pipeline_run_stage()),
 * so that mail keeps being read, checked and answered while a kernel
 * builds.  Each is this helper again ("worker"), exec'd fresh (no
 * database connection crosses a fork), with its own worker slot (work
 * tree and object folder) and a pipe on which it tells the daemon a
 * stage is done, so waiting reviews and follow-ups go out at once.  A
 * worker that dies is started again; the stage it held is taken again
 * (its claim dies with it).
 */
#define WORKER_MAX		16
#define WORKER_POLL_S		2	/* seconds between looks at an empty queue */
#define WORKER_SYNC_S		60	/* between looks at the trees' fetch intervals */
#define WORKER_RESPAWN_S	10	/* a worker that died starts again after this */
#define WORKER_STOP_S		30	/* a stop waits this long, then kills */
#define WORKER_NOTIFY_FD	3

static volatile sig_atomic_t child_exited;

static void on_child(int sig)
{
	(void)sig;
	child_exited = 1;
}

struct workers {
	size_t n;
	pid_t pid[WORKER_MAX];
	time_t died[WORKER_MAX];	/* when it ended; 0 while it runs */
	int rfd, wfd;			/* the notification pipe */
	char config[PATH_MAX];
};

static int workers_wanted(const struct config *cfg, int once)
{
	if (once || (!build_enabled(cfg) && !boot_enabled(cfg)))
		return 0;
	return cfg->build_workers > 0 ? (cfg->build_workers > WORKER_MAX ? WORKER_MAX
						: cfg->build_workers) : 1;
}

static void worker_spawn(struct workers *w, size_t i)
{
	char slot[16], fd[16];
	pid_t pid;

	snprintf(slot, sizeof(slot), "%zu", i);
	snprintf(fd, sizeof(fd), "%d", WORKER_NOTIFY_FD);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		log_event(LOG_ERR, "worker-failed", "slot", slot, "error", strerror(errno), NULL);
		w->died[i] = time(NULL);
		return;
	}
	if (pid == 0) {
		/* a worker does not outlive its daemon (killed outright: the
		 * next daemon starts its own, and takes the stage again) */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() == 1)
			_exit(127);
		if (dup2(w->wfd, WORKER_NOTIFY_FD) < 0)
			_exit(127);
		closefrom(WORKER_NOTIFY_FD + 1);
		execl("/proc/self/exe", "reviewbot-mail", "worker", "--config", w->config,
		      "--slot", slot, "--notify", fd, (char *)NULL);
		_exit(127);
	}
	w->pid[i] = pid;
	w->died[i] = 0;
	{
		char pb[24];

		snprintf(pb, sizeof(pb), "%ld", (long)pid);
		log_event(LOG_INFO, "worker-started", "slot", slot, "pid", pb, NULL);
	}
}

static int workers_start(struct workers *w, const struct config *cfg, const char *config_file,
			 int once)
{
	struct sigaction sa;
	int fds[2];
	size_t i;

	memset(w, 0, sizeof(*w));
	w->rfd = w->wfd = -1;
	w->n = (size_t)workers_wanted(cfg, once);
	if (!w->n)
		return 0;
	if (!config_file || !realpath(config_file, w->config) || pipe2(fds, O_CLOEXEC)) {
		log_event(LOG_ERR, "worker-failed", "error",
			  "no configuration file or pipe for the workers: the stages run in "
			  "the daemon", NULL);
		w->n = 0;
		return -1;
	}
	w->rfd = fds[0];
	w->wfd = fds[1];
	fcntl(w->rfd, F_SETFL, O_NONBLOCK);
	fcntl(w->wfd, F_SETFL, O_NONBLOCK);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_child;	/* no SA_RESTART: the daemon's poll wakes */
	sigaction(SIGCHLD, &sa, NULL);
	for (i = 0; i < w->n; i++)
		worker_spawn(w, i);
	return 0;
}

/* Reaps the workers that ended and starts them again when it is time. */
static void workers_reap(struct workers *w, int stopping)
{
	time_t now = time(NULL);
	size_t i;

	child_exited = 0;
	for (i = 0; i < w->n; i++) {
		int status;
		char slot[16], st[32];

		if (w->pid[i] > 0 && waitpid(w->pid[i], &status, WNOHANG) == w->pid[i]) {
			snprintf(slot, sizeof(slot), "%zu", i);
			if (WIFSIGNALED(status))
				snprintf(st, sizeof(st), "signal %d", WTERMSIG(status));
			else
				snprintf(st, sizeof(st), "exit %d", WEXITSTATUS(status));
			log_event(LOG_WARN, "worker-died", "slot", slot, "status", st,
				  "result", "its stage is taken again", NULL);
			w->pid[i] = 0;
			w->died[i] = now;
		}
		if (!stopping && w->pid[i] == 0 && now - w->died[i] >= WORKER_RESPAWN_S)
			worker_spawn(w, i);
	}
}

/* 1 while a worker waits to be started again (the daemon looks soon). */
static int workers_pending(const struct workers *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->pid[i] == 0)
			return 1;
	return 0;
}

static void workers_drain(struct workers *w)
{
	char buf[256];

	while (w->rfd >= 0 && read(w->rfd, buf, sizeof(buf)) > 0)
		;
}

static void workers_stop(struct workers *w)
{
	time_t until = time(NULL) + WORKER_STOP_S;
	size_t i, left;

	for (i = 0; i < w->n; i++)
		if (w->pid[i] > 0)
			kill(w->pid[i], SIGTERM);
	do {
		left = 0;
		for (i = 0; i < w->n; i++) {
			int status;

			if (w->pid[i] <= 0)
				continue;
			if (waitpid(w->pid[i], &status, WNOHANG) == w->pid[i])
				w->pid[i] = 0;
			else
				left++;
		}
		if (left)
			usleep(100 * 1000);
	} while (left && time(NULL) < until);
	for (i = 0; i < w->n; i++)
		if (w->pid[i] > 0) {
			kill(w->pid[i], SIGKILL);
			waitpid(w->pid[i], NULL, 0);
			w->pid[i] = 0;
		}
	if (w->rfd >= 0)
		close(w->rfd);
	if (w->wfd >= 0)
		close(w->wfd);
	w->rfd = w->wfd = -1;
	w->n = 0;
}

static void worker_usage(FILE *f)
{
	fputs("Usage: reviewbot-mail worker --config FILE --slot N [--notify FD]\n"
	      "\n"
	      "A worker of `reviewbot run` ([build] workers): takes the compile and\n"
	      "load stages from the database's queue and runs them, in worker slot N.\n"
	      "reviewbot run starts and stops its workers itself.\n",
	      f);
}

int cmd_worker(int argc, char **argv)
{
	struct session s;
	char *config_file = NULL, *slot_s = NULL, *notify_s = NULL;
	char **args;
	int help = 0, version = 0, nargs = 0, ret = 2, slot = 0, notify = -1;
	time_t last_sync = 0;
	const struct gl_opt opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "slot", GL_STRING, NULL, &slot_s, NULL },
		{ "notify", GL_STRING, NULL, &notify_s, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};

	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return 2;
	if (cmd_parse("worker", opts, argc, argv, args, &nargs, 0, &help, &version,
		      worker_usage, &ret))
		goto out_args;
	if (slot_s) {
		char *e;
		long v = strtol(slot_s, &e, 10);

		if (*e || v < 0 || v >= WORKER_MAX) {
			fprintf(stderr, "reviewbot worker: --slot: 0 to %d\n", WORKER_MAX - 1);
			goto out_args;
		}
		slot = (int)v;
	}
	if (notify_s)
		notify = (int)strtol(notify_s, NULL, 10);
	if (!config_file)
		config_file = cmd_default_config();
	if (session_open(&s, config_file, NULL, PIPE_RUN, "worker", 1))
		goto out_session;
	run_signals();
	pipeline_set_stop(s.p, &stop_requested);
	pipeline_set_stage_slot(s.p, slot);
	{
		char sb[16];

		snprintf(sb, sizeof(sb), "%d", slot);
		log_event(LOG_INFO, "worker-start", "slot", sb, NULL);
	}
	while (!stop_requested) {
		time_t now = time(NULL);
		int ran = pipeline_run_stage(s.p, now);

		if (ran > 0) {
			/* a stage is done (or given back): the daemon looks */
			if (notify >= 0 && write(notify, "s", 1) < 0 && errno != EAGAIN)
				notify = -1;
			continue;
		}
		if (ran < 0)
			log_event(LOG_ERR, "stage-failed", "error", store_errmsg(s.st), NULL);
		if (build_enabled(&s.cfg) && now - last_sync >= WORKER_SYNC_S) {
			char err[512];

			/* the trees' fetches between series, not in them */
			if (build_sync(&s.cfg, err, sizeof(err)))
				log_event(LOG_ERR, "tree-sync-failed", "error", err, NULL);
			last_sync = time(NULL);
			continue;
		}
		poll(NULL, 0, WORKER_POLL_S * 1000);
	}
	log_event(LOG_INFO, "worker-stop", NULL);
	ret = 0;
out_session:
	session_close(&s);
out_args:
	free(config_file);
	free(slot_s);
	free(notify_s);
	free(args);
	return ret;
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
		     int first, int once, int in_process, int *failures)
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
	while (!stop_requested && in_process) {
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
		     int busy, struct workers *w)
{
	struct pollfd fds[CONFIG_MAX_SOURCES + 1];
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
	if (w->n && workers_pending(w) && wait > 2)
		wait = 2;		/* a worker to start again */
	if (w->rfd >= 0) {
		/* a worker finished a stage: its review or follow-up goes now */
		fds[n].fd = w->rfd;
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		idx[n++] = CONFIG_MAX_SOURCES;
	}
	if (child_exited || poll(fds, n, (int)(wait * 1000)) <= 0)
		return;
	for (i = 0; i < n; i++)
		if (fds[i].revents && idx[i] < CONFIG_MAX_SOURCES)
			woke[idx[i]] = 1;
	workers_drain(w);
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
	if (load_templates(&cfg, &tpl, err, sizeof(err))) {
		log_event(LOG_ERR, "reload-failed", "config", config_file, "error", err,
			  "kept", "the running configuration", NULL);
		goto fail;
	}
	for (k = 0; k < cfg.nsources; k++, n++) {
		if (source_session_init(&fresh[k], &cfg.sources[k], s->st, err, sizeof(err))) {
			log_event(LOG_ERR, "reload-failed", "config", config_file,
				  "error", err, "kept", "the running configuration", NULL);
			goto fail;
		}
		/* a source new to the configuration starts as a first start
		 * does; the others read on from their checkpoints */
		if (source_session_plan(&fresh[k], cfg.max_age, 0, time(NULL)) < 0) {
			log_event(LOG_ERR, "reload-failed", "config", config_file,
				  "error", store_errmsg(s->st), "kept",
				  "the running configuration", NULL);
			n++;
			goto fail;
		}
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

/*
 * run -n: what each source's next start reads (a first start back to
 * [policy] max_age, a --since backfill, or on from its checkpoint), from
 * the database when there is one (opened read-only).
 */
static void describe_plans(const struct config *cfg, int64_t since)
{
	struct source_plan pl;
	struct store *st = NULL;
	char err[256], what[512];
	size_t k;

	if (cfg->database && access(cfg->database, F_OK) == 0 &&
	    store_open_readonly(cfg->database, &st, err, sizeof(err)))
		st = NULL;
	for (k = 0; k < cfg->nsources; k++) {
		if (source_plan(st, &cfg->sources[k], cfg->max_age, since, time(NULL), &pl) < 0)
			continue;
		source_plan_describe(&pl, what, sizeof(what));
		printf("source \"%s\": %s\n", cfg->sources[k].name, what);
	}
	store_close(st);
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
	char *since_arg = NULL;
	int64_t since = 0;
	int once = 0, check_only = 0, verbose = 0, help = 0, version = 0, nargs = 0;
	int ret = 2, failures = 0, first, busy;
	struct workers workers = { .rfd = -1, .wfd = -1 };
	double t0 = now_secs();
	const struct gl_opt opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "since", GL_STRING, NULL, &since_arg, NULL },
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
	if (cmd_parse("run", opts, argc, argv, args, &nargs, 0, &help, &version,
		      run_usage, &ret))
		goto out_args;
	if (since_arg && source_parse_since(since_arg, &since)) {
		fprintf(stderr, "reviewbot run: --since %s: not a date (YYYY-MM-DD[ HH:MM[:SS]], UTC)\n",
			since_arg);
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
		    check_paths_as_runner(&cfg) || check_stages(&cfg, 1) ||
		    load_templates(&cfg, &t, err, sizeof(err))) {
			if (t == NULL && err[0])
				fprintf(stderr, "reviewbot run: %s\n", err);
			config_release(&cfg);
			goto out_args;
		}
		template_set_free(t);
		describe_plans(&cfg, since);
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
	workers_start(&workers, &s.cfg, config_file, once);
	memset(woke, 0, sizeof(woke));
	for (k = 0; k < s.cfg.nsources; k++) {
		if (source_session_init(&ss[k], &s.cfg.sources[k], s.st, err, sizeof(err))) {
			fprintf(stderr, "reviewbot run: %s\n", err);
			goto out_sources;
		}
		nss++;
		if (source_session_plan(&ss[k], s.cfg.max_age, since, time(NULL)) < 0) {
			fprintf(stderr, "reviewbot run: database: %s\n", store_errmsg(s.st));
			goto out_sources;
		}
	}
	for (first = 1; !stop_requested; first = 0) {
		if (reload_requested) {
			reload_requested = 0;
			run_reload(&s, config_file, ss, &nss);
			/* the workers read the configuration again too */
			workers_stop(&workers);
			workers_start(&workers, &s.cfg, config_file, once);
			first = 1;
		}
		if (workers.n)
			workers_reap(&workers, 0);
		busy = run_cycle(&s, ss, woke, first, once, !workers.n, &failures);
		if (once)
			break;
		if (!reload_requested)
			run_wait(&s, ss, woke, busy, &workers);
	}
	workers_stop(&workers);
	print_stats("run", pipeline_stats(s.p), now_secs() - t0);
	/* --once reports what failed; the daemon's failures were logged as
	 * they came and retried, and a stop asked for is a clean end */
	ret = once && failures ? 1 : 0;
	log_event(LOG_INFO, "stop", NULL);
out_sources:
	workers_stop(&workers);
	for (k = 0; k < nss; k++)
		source_session_close(&ss[k]);
out_session:
	session_close(&s);
out_args:
	free(since_arg);
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

/*
 * What import and review share: every path (a mail, mbox or maildir)
 * read into the pipeline, its messages filed under src (NULL: by their
 * own lists), with progress on pr when not NULL; then every series
 * settled as history (pipeline_review without mail), also after a path
 * failed when review_anyway.  Each failure is said as "reviewbot CMD:
 * ...".  0, or -1 when anything failed.
 */
static int read_and_review(struct session *s, const struct config_source *src,
			   char **paths, int npaths, struct progress *pr, int review_anyway,
			   const char *cmd)
{
	char err[1024];
	int i, ret = 0;

	for (i = 0; i < npaths; i++) {
		if (pr)
			pr->path = paths[i];
		if (source_read_path(s->p, s->st, src, paths[i], time(NULL),
				     pr ? show_progress : NULL, pr, err, sizeof(err))) {
			fprintf(stderr, "reviewbot %s: %s\n", cmd, err);
			ret = -1;
		}
	}
	if ((!ret || review_anyway) && pipeline_review(s->p, time(NULL), 1) < 0) {
		fprintf(stderr, "reviewbot %s: database: %s\n", cmd, store_errmsg(s->st));
		ret = -1;
	}
	return ret;
}

int cmd_import(int argc, char **argv)
{
	struct session s;
	struct progress pr;
	const struct config_source *src = NULL;
	char *config_file = NULL, *source = NULL, *database = NULL;
	char **args;
	int help = 0, version = 0, nargs = 0, ret = 2;
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
	if (cmd_parse("import", opts, argc, argv, args, &nargs, -1, &help, &version,
		      import_usage, &ret))
		goto out_args;
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
	/* history: every series is settled without mail */
	if (read_and_review(&s, src, args, nargs, &pr, 1, "import"))
		ret = 1;
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
	      "Prints the review mail(s) the bot would make for these messages\n"
	      "(mails, mboxes or maildirs; the parts of a series are reviewed as\n"
	      "one), and on standard error the ones it would store but not mail\n"
	      "(nothing to say, a stable backport) and why.  Sends nothing and\n"
	      "writes no database but a temporary one.\n"
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
	/* made but not mailed: what the bot would do, said */
	if (r.state == REPLY_SUPPRESSED)
		fprintf(stderr, "reviewbot review: <%s> not mailed: %s\n", r.message_id,
			r.reason ? r.reason : "suppressed");
	store_reply_release(&r);
	return 0;
}

/* Every reply of the temporary database, in the order they were made
 * (its ids count from 1): the due ones and the suppressed ones. */
static void print_replies(struct printer *pr)
{
	long long counts[REPLY__COUNT], total = 0;
	int64_t id;
	int k;

	if (store_reply_count(pr->st, counts) != STORE_OK)
		return;
	for (k = 0; k < REPLY__COUNT; k++)
		total += counts[k];
	for (id = 1; id <= total; id++)
		print_reply(pr, id);
}

int cmd_review(int argc, char **argv)
{
	struct session s;
	struct printer pr;
	char *config_file = NULL;
	char **args;
	char dir[] = "/tmp/reviewbot-review.XXXXXX", db[64];
	int help = 0, version = 0, nargs = 0, ret = 2, made_dir = 0;
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
	if (cmd_parse("review", opts, argc, argv, args, &nargs, -1, &help, &version,
		      review_usage, &ret))
		goto out_args;
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
	/* the mail the bot would send had the message just arrived, however
	 * old its Date: (the pipeline reads the configuration it was given) */
	s.cfg.max_age = 0;

	ret = read_and_review(&s, NULL, args, nargs, NULL, 0, "review") ? 2 : 0;
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
		print_replies(&pr);
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

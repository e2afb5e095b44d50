// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compile stage: see build.h.  Every command is an argv run without
 * a shell, in a process group of its own, its output (stdout and stderr
 * together) read into a capped buffer until the series' deadline.
 */
#include "build.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "boot_int.h"
#include "sandbox.h"
#include "../../checker/diff.h"
#include "../../checker/sbuf.h"
#include "../../checker/banned.h"

#define BUILD_PATH_MAX		4096
#define BUILD_PREP_TIMEOUT	7200	/* seconds for the one-time preparation */
#define BUILD_GIT_NAME		"reviewbot"
#define BUILD_STAMP		"prepared"
#define BUILD_LAYOUT		"2"	/* the work folder's layout (the stamp's) */
#define BUILD_MAX_FILE		(8u << 20)	/* bytes read to quote a line */

enum run_result { RUN_OK = 0, RUN_FAILED, RUN_TIMEOUT, RUN_NOSTART };

/*
 * The work folder ([build] work):
 *   src/       the scratch tree: a copy of the pristine [build] tree that
 *              series are applied to, reset before every series
 *   git/       its baseline (a bare git dir: reset --hard and clean -x
 *              bring src back, untracked files included)
 *   obj.base/  the prepared object folder (config, modules_prepare)
 *   obj/       a copy of obj.base for one series (O=), made anew each time
 *   patches/   the series' mails for git apply, made anew each time
 *   base/      the pristine objects' compiler output, per object
 * The [build] tree itself is only ever read (to make src).
 */
struct ctx {
	const struct config *cfg;
	char tree[BUILD_PATH_MAX];	/* the pristine tree (read-only) */
	char work[BUILD_PATH_MAX];
	char src[BUILD_PATH_MAX + 8];
	char gitdir[BUILD_PATH_MAX + 8];
	char obj[BUILD_PATH_MAX + 8];
	char objbase[BUILD_PATH_MAX + 16];
	char patches[BUILD_PATH_MAX + 16];
	char version[64];		/* "linux 6.1.158" */
	double deadline;		/* monotonic seconds */
	struct sandbox_limits lim;
	unsigned sandboxes;		/* commands run (sandboxes made) */
};

/* set: a stop was asked for (SIGTERM): commands in hand are killed */
static const volatile sig_atomic_t *build_stop;

void build_set_stop(const volatile sig_atomic_t *stop)
{
	build_stop = stop;
}

int build_enabled(const struct config *cfg)
{
	return cfg && cfg->build_tree && *cfg->build_tree;
}

/* ---- running commands (in the sandbox, sandbox.h) ------------------------ */

/* What a command of the stage sees, besides the toolchain. */
enum {
	SEE_TREE = 1 << 0,	/* the pristine tree, read-only */
	SEE_SRC = 1 << 1,	/* the scratch tree, read-only */
	SEE_SRC_RW = 1 << 2,	/* the scratch tree, writable */
	SEE_GIT_RW = 1 << 3,	/* its baseline, writable */
	SEE_OBJ_RW = 1 << 4,	/* the object folder, writable */
	SEE_WORK_RW = 1 << 5,	/* the whole work folder (cp and rm only) */
	SEE_PATCHES = 1 << 6,	/* the series' mails, read-only */
	SEE_CONFIG = 1 << 7,	/* [build] config when it is a file */
};

/*
 * Runs argv in the sandbox, seeing what `see` says, in cwd (inside),
 * until it ends or the deadline passes.  Output goes to out (capped; the
 * rest is read and dropped) when out is not NULL.  Only git apply and
 * make run what a series brings (make with the scratch tree read-only
 * and the object folder writable); cp, rm and git's reset and clean run
 * our own commands on what it left.
 */
static enum run_result run(struct ctx *c, unsigned see, const char *const argv[],
			   const char *cwd, struct sbuf *out)
{
	struct sandbox *sb = malloc(sizeof(*sb));
	enum sandbox_result r;

	if (!sb)
		return RUN_NOSTART;
	sandbox_init(sb, &c->lim, c->deadline);
	if (see & SEE_WORK_RW)
		sandbox_rw(sb, c->work);
	if (see & SEE_TREE)
		sandbox_ro(sb, c->tree);
	if (see & SEE_SRC_RW)
		sandbox_rw(sb, c->src);
	else if (see & SEE_SRC)
		sandbox_ro(sb, c->src);
	if (see & SEE_GIT_RW)
		sandbox_rw(sb, c->gitdir);
	if (see & SEE_OBJ_RW)
		sandbox_rw(sb, c->obj);
	if (see & SEE_PATCHES)
		sandbox_ro(sb, c->patches);
	if ((see & SEE_CONFIG) && c->cfg->build_config && c->cfg->build_config[0] == '/')
		sandbox_ro(sb, c->cfg->build_config);
	if (cwd)
		sandbox_chdir(sb, cwd);
	c->sandboxes++;
	r = sandbox_run(sb, argv, out, build_stop);
	if (r == SANDBOX_NOSTART && out && sb->why[0]) {
		sbuf_addstr(out, "\n");
		sbuf_addstr(out, sb->why);
	}
	free(sb);
	return r == SANDBOX_OK ? RUN_OK : r == SANDBOX_TIMEOUT ? RUN_TIMEOUT :
	       r == SANDBOX_NOSTART ? RUN_NOSTART : RUN_FAILED;
}

/* git --git-dir=G --work-tree=SRC args... in SRC, seeing `see` too. */
static enum run_result git(struct ctx *c, unsigned see, struct sbuf *out, const char *a1,
			   const char *a2, const char *a3, const char *a4,
			   const char *a5, const char *a6)
{
	char gd[BUILD_PATH_MAX + 32], wt[BUILD_PATH_MAX + 32];
	const char *argv[24];
	int i = 0;

	snprintf(gd, sizeof(gd), "--git-dir=%s", c->gitdir);
	snprintf(wt, sizeof(wt), "--work-tree=%s", c->src);
	argv[i++] = "git";
	argv[i++] = "-c";
	argv[i++] = "user.name=" BUILD_GIT_NAME;
	argv[i++] = "-c";
	argv[i++] = "user.email=" BUILD_GIT_NAME "@localhost";
	argv[i++] = "-c";
	argv[i++] = "gc.auto=0";
	argv[i++] = "-c";
	argv[i++] = "core.autocrlf=false";
	/* a file changed behind git's back is seen by its ctime */
	argv[i++] = "-c";
	argv[i++] = "core.trustctime=true";
	argv[i++] = "-c";
	argv[i++] = "core.checkStat=default";
	argv[i++] = gd;
	argv[i++] = wt;
	argv[i++] = a1;
	argv[i++] = a2;
	argv[i++] = a3;
	argv[i++] = a4;
	argv[i++] = a5;
	argv[i++] = a6;
	argv[i] = NULL;
	if (!(see & SEE_SRC_RW))
		see |= SEE_SRC;
	return run(c, see, argv, c->src, out);
}

/*
 * Back to the pristine scratch tree: every tracked file as the baseline
 * has it, every other file (ignored ones too) removed.
 */
static enum run_result reset_src(struct ctx *c, struct sbuf *out)
{
	enum run_result r;

	r = git(c, SEE_SRC_RW | SEE_GIT_RW, out, "reset", "-q", "--hard", NULL, NULL, NULL);
	if (!r)
		r = git(c, SEE_SRC_RW | SEE_GIT_RW, out, "clean", "-q", "-ffdx", NULL, NULL,
			NULL);
	return r;
}

/* A fresh object folder for a series: obj.base copied. */
static enum run_result reset_obj(struct ctx *c, struct sbuf *out)
{
	const char *const cp[] = { "cp", "-a", "--", c->objbase, c->obj, NULL };

	if (sandbox_rmtree(c->obj))
		return RUN_FAILED;
	return run(c, SEE_WORK_RW, cp, c->work, out);
}

/* ---- paths and files ----------------------------------------------------- */

static int ctx_init(struct ctx *c, const struct config *cfg, char *err, size_t errlen)
{
	char mk[BUILD_PATH_MAX + 16], line[256];
	long ver = -1, pl = -1, sl = -1;
	FILE *f;
	int n;

	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
	if (!build_enabled(cfg)) {
		snprintf(err, errlen, "no [build] tree");
		return -1;
	}
	/* the kernel's Makefile names its files by the real path: the prefix
	 * stripped from diagnostics must be that one */
	{
		char *real = realpath(cfg->build_tree, NULL);

		n = snprintf(c->tree, sizeof(c->tree), "%s", real ? real : cfg->build_tree);
		free(real);
	}
	if (n <= 0 || (size_t)n >= sizeof(c->tree) - 32) {
		snprintf(err, errlen, "[build] tree: path too long");
		return -1;
	}
	while (n > 1 && c->tree[n - 1] == '/')
		c->tree[--n] = '\0';
	if (cfg->build_work)
		n = snprintf(c->work, sizeof(c->work), "%s", cfg->build_work);
	else
		n = snprintf(c->work, sizeof(c->work), "%s.reviewbot", c->tree);
	if (n <= 0 || (size_t)n >= sizeof(c->work) - 32) {
		snprintf(err, errlen, "[build] work: path too long");
		return -1;
	}
	while (n > 1 && c->work[n - 1] == '/')
		c->work[--n] = '\0';
	if (c->work[0] != '/') {
		snprintf(err, errlen, "[build] work: not an absolute path");
		return -1;
	}
	snprintf(c->src, sizeof(c->src), "%s/src", c->work);
	snprintf(c->gitdir, sizeof(c->gitdir), "%s/git", c->work);
	snprintf(c->obj, sizeof(c->obj), "%s/obj", c->work);
	snprintf(c->objbase, sizeof(c->objbase), "%s/obj.base", c->work);
	snprintf(c->patches, sizeof(c->patches), "%s/patches", c->work);
	sandbox_default_limits(&c->lim, cfg->build_timeout > 0 ? (unsigned long)cfg->build_timeout
							       : 900);
	snprintf(mk, sizeof(mk), "%s/Makefile", c->tree);
	f = fopen(mk, "r");
	if (!f) {
		snprintf(err, errlen, "no kernel tree at %s", c->tree);
		return -1;
	}
	for (n = 0; n < 20 && fgets(line, sizeof(line), f); n++) {
		char *e;

		if (!strncmp(line, "VERSION = ", 10))
			ver = strtol(line + 10, &e, 10);
		else if (!strncmp(line, "PATCHLEVEL = ", 13))
			pl = strtol(line + 13, &e, 10);
		else if (!strncmp(line, "SUBLEVEL = ", 11))
			sl = strtol(line + 11, &e, 10);
	}
	fclose(f);
	if (ver < 0 || ver > 99 || pl < 0 || pl > 999 || sl < 0 || sl > 9999) {
		snprintf(err, errlen, "%s is not a kernel tree", c->tree);
		return -1;
	}
	snprintf(c->version, sizeof(c->version), "linux %ld.%ld.%ld", ver, pl, sl);
	return 0;
}

static int disk_full(const char *path)
{
	struct statvfs sv;

	if (statvfs(path, &sv))
		return 0;
	return (unsigned long long)sv.f_bavail * sv.f_frsize < BUILD_MIN_FREE;
}

/* What the stamp says: the tree and the config it was prepared for. */
static void stamp_text(const struct ctx *c, char *out, size_t outlen)
{
	snprintf(out, outlen, "layout=" BUILD_LAYOUT "\ntree=%s\nconfig=%s\nversion=%s\n",
		 c->tree, c->cfg->build_config ? c->cfg->build_config : "allmodconfig",
		 c->version);
}

static int stamp_ok(const struct ctx *c)
{
	char path[BUILD_PATH_MAX + 32], want[BUILD_PATH_MAX * 2 + 128];
	char have[sizeof(want)];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/" BUILD_STAMP, c->work);
	stamp_text(c, want, sizeof(want));
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(have, 1, sizeof(have) - 1, f);
	fclose(f);
	have[n] = '\0';
	return !strcmp(have, want);
}

/*
 * One build at a time per work folder, across processes too (the daemon
 * and a `run --once`): an flock on WORK/lock, waited for until the
 * deadline.  Returns the fd, or -1.
 */
static int lock_work(const struct ctx *c, double deadline)
{
	char path[BUILD_PATH_MAX + 16];
	int fd;

	if (sandbox_mkdir_owned(c->work))
		return -1;
	snprintf(path, sizeof(path), "%s/lock", c->work);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || sandbox_now() > deadline ||
		    (build_stop && *build_stop)) {
			close(fd);
			return -1;
		}
		usleep(200 * 1000);
	}
	return fd;
}

/* ---- preparation --------------------------------------------------------- */

static int fail(char *err, size_t errlen, const char *what, enum run_result r,
		const struct sbuf *out)
{
	const char *tail = out && out->len ? out->buf : "";
	size_t tl = out ? out->len : 0;

	/* the last line of the command's words says most */
	while (tl && (tail[tl - 1] == '\n' || tail[tl - 1] == '\r'))
		tl--;
	{
		size_t s = tl;

		while (s && tail[s - 1] != '\n')
			s--;
		snprintf(err, errlen, "%s %s%s%.*s", what,
			 r == RUN_TIMEOUT ? "timed out" :
			 r == RUN_NOSTART ? "could not start" : "failed",
			 tl > s ? ": " : "", (int)(tl - s > 120 ? 120 : tl - s), tail + s);
	}
	return -1;
}

/* The pristine objects' compiler output, kept per object while the
 * preparation holds: WORK/base/PATH-with-%-for-/.log */
static void base_path(const struct ctx *c, const char *file, char *out, size_t outlen)
{
	size_t n = (size_t)snprintf(out, outlen, "%s/base/", c->work), i;

	for (i = 0; file[i] && n + 5 < outlen; i++)
		out[n++] = file[i] == '/' ? '%' : file[i];
	snprintf(out + n, outlen - n, ".log");
}

static int mkdir_p_base(const struct ctx *c)
{
	char dir[BUILD_PATH_MAX + 16];

	snprintf(dir, sizeof(dir), "%s/base", c->work);
	return sandbox_mkdir_p(dir);
}

static void base_clear(const struct ctx *c)
{
	char dir[BUILD_PATH_MAX + 16], path[BUILD_PATH_MAX + 300];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/base", c->work);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
}

/* A git killed by a timeout or a crash leaves its index lock; we hold
 * the work folder's lock, so no other git runs here. */
static void unlock_index(const struct ctx *c)
{
	char path[BUILD_PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/index.lock", c->gitdir);
	unlink(path);
}

/* Runs one step of the preparation; its failure says what into err. */
static int prep_step(struct ctx *c, unsigned see, const char *const argv[], const char *cwd,
		     const char *what, struct sbuf *out, char *err, size_t errlen)
{
	enum run_result r;

	sbuf_reset(out);
	r = run(c, see, argv, cwd, out);
	return r ? fail(err, errlen, what, r, out) : 0;
}

static int prepare(struct ctx *c, char *err, size_t errlen)
{
	char path[BUILD_PATH_MAX + 64], odir[BUILD_PATH_MAX + 16], jobs[32];
	char from[BUILD_PATH_MAX + 8];
	const char *cfgv = c->cfg->build_config ? c->cfg->build_config : "allmodconfig";
	const char *const gone[] = { c->src, c->gitdir, c->obj, c->objbase, c->patches };
	struct sbuf out;
	double saved = c->deadline;
	int ret = -1;
	size_t i;
	FILE *f;

	if (stamp_ok(c))
		return 0;
	sbuf_init(&out, 1u << 20);
	c->deadline = sandbox_now() + BUILD_PREP_TIMEOUT;
	if (sandbox_check(err, errlen))
		goto out;
	snprintf(path, sizeof(path), "%s/" BUILD_STAMP, c->work);
	unlink(path);
	if (sandbox_mkdir_owned(c->work)) {
		snprintf(err, errlen, "cannot make %s: %s", c->work, strerror(errno));
		goto out;
	}
	if (disk_full(c->work)) {
		snprintf(err, errlen, "disk full at %s", c->work);
		goto out;
	}
	/* a new start: nothing of an earlier preparation (or layout) stays */
	for (i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		if (sandbox_rmtree(gone[i])) {
			snprintf(err, errlen, "cannot remove %s", gone[i]);
			goto out;
		}
	base_clear(c);
	/* the scratch tree: a copy of the pristine one, which is never
	 * written (reflinks where the file system has them) */
	snprintf(from, sizeof(from), "%s/.", c->tree);
	{
		const char *cp[] = { "cp", "-a", "--reflink=auto", "--", from, c->src, NULL };

		if (prep_step(c, SEE_TREE | SEE_WORK_RW, cp, c->work, "copying the tree", &out,
			      err, errlen))
			goto out;
	}
	/* its baseline: a git dir beside it, every file added with -f
	 * (Debian's .gitignore ignores everything) */
	{
		const char *init[] = { "git", "init", "-q", "--bare", c->gitdir, NULL };

		if (prep_step(c, SEE_WORK_RW, init, c->work, "git init", &out, err, errlen))
			goto out;
	}
	sbuf_reset(&out);
	if (git(c, SEE_GIT_RW, &out, "add", "-f", "-A", ".", NULL, NULL)) {
		ret = fail(err, errlen, "git add", RUN_FAILED, &out);
		goto out;
	}
	sbuf_reset(&out);
	if (git(c, SEE_GIT_RW, &out, "commit", "-q", "--no-verify", "-m", "reviewbot baseline",
		NULL)) {
		ret = fail(err, errlen, "git commit", RUN_FAILED, &out);
		goto out;
	}
	/* the object folder, prepared here and copied to obj.base, from
	 * which each series gets a fresh copy at the same path */
	if (sandbox_mkdir_owned(c->obj)) {
		snprintf(err, errlen, "cannot make %s: %s", c->obj, strerror(errno));
		goto out;
	}
	snprintf(odir, sizeof(odir), "O=%s", c->obj);
	snprintf(jobs, sizeof(jobs), "-j%d", c->cfg->build_jobs > 0 ? c->cfg->build_jobs : 1);
	/* the configuration, CONFIG_WERROR off (allmodconfig sets it) */
	if (strchr(cfgv, '/')) {
		const char *cp[] = { "cp", "--", cfgv, path, NULL };

		if (cfgv[0] != '/') {
			snprintf(err, errlen, "[build] config: a file must be an absolute path");
			goto out;
		}
		snprintf(path, sizeof(path), "%s/.config", c->obj);
		if (prep_step(c, SEE_CONFIG | SEE_OBJ_RW, cp, c->obj, "copying the config", &out,
			      err, errlen))
			goto out;
		cfgv = "olddefconfig";
	}
	{
		const char *mk[] = { "make", "-s", "-C", c->src, odir, cfgv, NULL };

		if (prep_step(c, SEE_SRC | SEE_OBJ_RW, mk, c->obj, "make config", &out, err,
			      errlen))
			goto out;
	}
	{
		char script[BUILD_PATH_MAX + 32], file[BUILD_PATH_MAX + 16];
		const char *sc[] = { script, "--file", file, "-d", "WERROR", NULL };
		const char *mk[] = { "make", "-s", "-C", c->src, odir, "olddefconfig", NULL };

		snprintf(script, sizeof(script), "%s/scripts/config", c->src);
		snprintf(file, sizeof(file), "%s/.config", c->obj);
		if (prep_step(c, SEE_SRC | SEE_OBJ_RW, sc, c->obj, "turning CONFIG_WERROR off",
			      &out, err, errlen) ||
		    prep_step(c, SEE_SRC | SEE_OBJ_RW, mk, c->obj, "turning CONFIG_WERROR off",
			      &out, err, errlen))
			goto out;
	}
	{
		const char *mk[] = { "make", "-s", "-C", c->src, odir, jobs,
				     "modules_prepare", NULL };

		if (prep_step(c, SEE_SRC | SEE_OBJ_RW, mk, c->obj, "make modules_prepare", &out,
			      err, errlen))
			goto out;
	}
	{
		const char *cp[] = { "cp", "-a", "--", c->obj, c->objbase, NULL };

		if (prep_step(c, SEE_WORK_RW, cp, c->work, "keeping the object folder", &out,
			      err, errlen))
			goto out;
	}
	snprintf(path, sizeof(path), "%s/" BUILD_STAMP, c->work);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	{
		char st[BUILD_PATH_MAX * 2 + 128];

		stamp_text(c, st, sizeof(st));
		fputs(st, f);
	}
	if (fclose(f)) {
		snprintf(err, errlen, "cannot write %s", path);
		goto out;
	}
	ret = 0;
out:
	c->deadline = saved;
	sbuf_release(&out);
	return ret;
}

int build_prepare(const struct config *cfg, char *err, size_t errlen)
{
	struct ctx c;
	int fd, ret;

	if (ctx_init(&c, cfg, err, errlen))
		return -1;
	fd = lock_work(&c, sandbox_now() + BUILD_PREP_TIMEOUT);
	if (fd < 0) {
		snprintf(err, errlen, "cannot lock %s", c.work);
		return -1;
	}
	ret = prepare(&c, err, errlen);
	close(fd);
	return ret;
}

/* ---- diagnostics --------------------------------------------------------- */

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

int build_parse_diag(const char *line, size_t len, const char *tree_prefix,
		     const char **file, size_t *file_len, long *lineno,
		     int *error, const char **msg, size_t *msg_len)
{
	const char *p, *end = line + len, *colon;
	size_t pl = tree_prefix ? strlen(tree_prefix) : 0;
	long ln = 0;

	/* FILE:LINE: or FILE:LINE:COL: then "error: " / "warning: " */
	for (colon = line; colon < end; colon++) {
		if (*colon != ':' || colon + 1 >= end || !is_digit(colon[1]))
			continue;
		p = colon + 1;
		ln = 0;
		while (p < end && is_digit(*p) && ln < 100000000)
			ln = ln * 10 + (*p++ - '0');
		if (p >= end || *p != ':')
			continue;
		p++;
		if (p < end && is_digit(*p)) {
			while (p < end && is_digit(*p))
				p++;
			if (p >= end || *p != ':')
				continue;
			p++;
		}
		if (p < end && *p == ' ')
			p++;
		if ((size_t)(end - p) > 7 && !memcmp(p, "error: ", 7)) {
			*error = 1;
			p += 7;
		} else if ((size_t)(end - p) > 9 && !memcmp(p, "warning: ", 9)) {
			*error = 0;
			p += 9;
		} else if ((size_t)(end - p) > 13 && !memcmp(p, "fatal error: ", 13)) {
			*error = 1;
			p += 13;
		} else {
			return 0;
		}
		*file = line;
		*file_len = (size_t)(colon - line);
		if (pl && *file_len > pl && !memcmp(line, tree_prefix, pl)) {
			*file += pl;
			*file_len -= pl;
		}
		while (*file_len > 2 && !memcmp(*file, "./", 2)) {
			*file += 2;
			*file_len -= 2;
		}
		*lineno = ln;
		*msg = p;
		*msg_len = (size_t)(end - p);
		while (*msg_len && ((*msg)[*msg_len - 1] == '\r' || (*msg)[*msg_len - 1] == ' '))
			(*msg_len)--;
		return *file_len > 0;
	}
	return 0;
}

struct diag {
	char *file;
	char *msg;
	long line;
	int error;
	int used;		/* baseline: matched by a patched one */
};

struct diags {
	struct diag *d;
	size_t n, alloc;
};

static void diags_release(struct diags *ds)
{
	size_t i;

	for (i = 0; i < ds->n; i++) {
		free(ds->d[i].file);
		free(ds->d[i].msg);
	}
	free(ds->d);
	memset(ds, 0, sizeof(*ds));
}

static char *dup_n(const char *s, size_t n)
{
	char *r = malloc(n + 1);

	if (r) {
		memcpy(r, s, n);
		r[n] = '\0';
	}
	return r;
}

/* Every diagnostic of out into ds (at most BUILD_MAX_ISSUES * 4). */
static int diags_parse(const struct sbuf *out, const char *prefix, struct diags *ds)
{
	const char *p = out->buf, *end = out->buf + out->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *file, *msg;
		size_t fl, ml;
		long ln;
		int error;

		if (build_parse_diag(p, (size_t)(e - p), prefix, &file, &fl, &ln, &error,
				     &msg, &ml) && file[0] != '/' && !memmem(file, fl, "..", 2)) {
			/* only the tree's files: never words from a file the
			 * series made the compiler read elsewhere */
			struct diag *d;

			if (ds->n == ds->alloc) {
				size_t na = ds->alloc ? ds->alloc * 2 : 16;

				if (na > BUILD_MAX_ISSUES * 4)
					break;
				d = realloc(ds->d, na * sizeof(*d));
				if (!d)
					return -1;
				ds->d = d;
				ds->alloc = na;
			}
			d = &ds->d[ds->n];
			memset(d, 0, sizeof(*d));
			d->file = dup_n(file, fl);
			d->msg = dup_n(msg, ml > 500 ? 500 : ml);
			d->line = ln;
			d->error = error;
			ds->n++;
			if (!d->file || !d->msg)
				return -1;
		}
		p = e + 1;
	}
	return 0;
}

/* ---- the series ---------------------------------------------------------- */

struct target {
	char *path;		/* the .c, relative to the tree */
	int part;		/* last part touching it */
	int in_base;		/* exists in the pristine tree */
};

static int file_part(const struct target *t, size_t nt, const char *file, int last)
{
	size_t i;

	for (i = 0; i < nt; i++)
		if (!strcmp(t[i].path, file))
			return t[i].part;
	return last;
}

/* The touched .c files of the series, each once, with the last part. */
static int targets_of(const struct build_patch *p, size_t n, struct target **out,
		      size_t *nout, int *symlink)
{
	struct target *t;
	size_t i, j, k, nt = 0;

	t = calloc(BUILD_MAX_OBJECTS, sizeof(*t));
	if (!t)
		return -1;
	for (i = 0; i < n; i++) {
		struct diff d;

		memset(&d, 0, sizeof(d));
		if (diff_parse(p[i].text, p[i].len, NULL, &d)) {
			diff_release(&d);
			continue;
		}
		for (j = 0; j < d.nfiles; j++) {
			const char *path = d.files[j].new_path;
			size_t len;

			if ((d.files[j].new_mode & 0170000) == 0120000)
				*symlink = 1;
			if (!path || (d.files[j].flags & DIFF_DELETED) || !boot_tree_path_ok(path))
				continue;
			len = strlen(path);
			if (len < 3 || strcmp(path + len - 2, ".c"))
				continue;
			for (k = 0; k < nt; k++)
				if (!strcmp(t[k].path, path))
					break;
			if (k == nt) {
				if (nt == BUILD_MAX_OBJECTS)
					continue;
				t[nt].path = strdup(path);
				if (!t[nt].path) {
					diff_release(&d);
					goto nomem;
				}
				nt++;
			}
			t[k].part = p[i].part;
		}
		diff_release(&d);
	}
	*out = t;
	*nout = nt;
	return 0;
nomem:
	for (k = 0; k < nt; k++)
		free(t[k].path);
	free(t);
	return -1;
}

/* Builds the objects of t (those in the base only when base) with W=1,
 * after removing them so that make compiles them again. */
static enum run_result build_objects(struct ctx *c, struct target *t, size_t nt, int base,
				     struct sbuf *out, size_t *built)
{
	const char *argv[BUILD_MAX_OBJECTS + 16];
	char *objs[BUILD_MAX_OBJECTS];
	char odir[BUILD_PATH_MAX + 16], jobs[32];
	size_t i, a = 0, no = 0;
	enum run_result r;

	snprintf(odir, sizeof(odir), "O=%s", c->obj);
	snprintf(jobs, sizeof(jobs), "-j%d", c->cfg->build_jobs > 0 ? c->cfg->build_jobs : 1);
	argv[a++] = "make";
	argv[a++] = "-s";
	argv[a++] = "-k";
	argv[a++] = jobs;
	argv[a++] = "-C";
	argv[a++] = c->src;
	argv[a++] = odir;
	argv[a++] = "W=1";
	for (i = 0; i < nt; i++) {
		char full[BUILD_PATH_MAX * 2];
		size_t len = strlen(t[i].path);

		if (base && !t[i].in_base)
			continue;
		objs[no] = strdup(t[i].path);
		if (!objs[no])
			break;
		objs[no][len - 1] = 'o';
		/* gone, so that make compiles it again (what obj holds
		 * here came from obj.base or the pristine builds) */
		snprintf(full, sizeof(full), "%s/%s", c->obj, objs[no]);
		unlink(full);
		argv[a++] = objs[no++];
	}
	argv[a] = NULL;
	*built = no;
	/* the scratch tree is read-only to make and to whatever the
	 * series' Makefiles run; only the object folder is writable */
	r = no ? run(c, SEE_SRC | SEE_OBJ_RW, argv, c->obj, out) : RUN_OK;
	for (i = 0; i < no; i++)
		free(objs[i]);
	return r;
}

/* Line ln of the patched scratch tree's file, or NULL (read without
 * following a link: the tree was written by git apply from mail). */
static char *line_of(const struct ctx *c, const char *file, long ln)
{
	char *buf, *r = NULL, *p, *end;
	size_t n;
	long cur = 1;

	if (ln <= 0 || !boot_tree_path_ok(file) ||
	    boot_tree_read(c->src, file, BUILD_MAX_FILE, &buf, &n))
		return NULL;
	p = buf;
	end = buf + n;
	while (p < end && cur < ln) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			break;
		p = nl + 1;
		cur++;
	}
	if (cur == ln && p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		r = dup_n(p, (size_t)((nl ? nl : end) - p));
	}
	free(buf);
	return r;
}

static void set_note(struct build_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_note(struct build_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->note, sizeof(res->note), fmt, ap);
	va_end(ap);
}

static int contains(const struct sbuf *s, const char *what)
{
	return s->len && strstr(s->buf, what) != NULL;
}

/* A build that says nothing of the code (timed out, make did not
 * start, the disk is full): its note set, 1; else 0. */
static int build_unusable(struct build_result *res, enum run_result r, const struct sbuf *out)
{
	if (r == RUN_TIMEOUT || r == RUN_NOSTART) {
		set_note(res, "%s", r == RUN_TIMEOUT ? "the build timed out" :
			 "make could not start");
		return 1;
	}
	if (contains(out, "No space left on device")) {
		set_note(res, "the build machine's disk is full");
		return 1;
	}
	return 0;
}

static int add_issue(struct build_result *res, const struct ctx *c, const struct diag *d,
		     int part)
{
	struct build_issue *is;

	if (res->nissues == BUILD_MAX_ISSUES)
		return 0;
	if (!res->issues) {
		res->issues = calloc(BUILD_MAX_ISSUES, sizeof(*res->issues));
		if (!res->issues)
			return -1;
	}
	is = &res->issues[res->nissues];
	is->part = part;
	is->error = d->error;
	is->line = d->line;
	is->file = strdup(d->file);
	is->message = strdup(d->msg);
	is->line_text = line_of(c, d->file, d->line);
	res->nissues++;
	return is->file && is->message ? 0 : -1;
}

/* The new diagnostics of after (not in before: same file, kind and words;
 * line numbers move with the patch). */
static int compare(struct build_result *res, const struct ctx *c, struct diags *before,
		   const struct diags *after, const struct target *t, size_t nt, int last)
{
	size_t i, j;

	for (i = 0; i < after->n; i++) {
		const struct diag *a = &after->d[i];
		int seen = 0;

		for (j = 0; j < i && !seen; j++)
			seen = after->d[j].line == a->line && after->d[j].error == a->error &&
			       !strcmp(after->d[j].file, a->file) &&
			       !strcmp(after->d[j].msg, a->msg);
		if (seen)
			continue;	/* a header's warning, once per object */
		for (j = 0; j < before->n; j++) {
			struct diag *b = &before->d[j];

			if (!b->used && b->error == a->error && !strcmp(b->file, a->file) &&
			    !strcmp(b->msg, a->msg)) {
				b->used = 1;
				seen = 1;
				break;
			}
		}
		if (!seen && add_issue(res, c, a, file_part(t, nt, a->file, last)))
			return -1;
	}
	return 0;
}

static int write_patch(const struct ctx *c, size_t i, const struct build_patch *p,
		       char *path, size_t pathlen)
{
	snprintf(path, pathlen, "%s/series-%04zu.patch", c->patches, i + 1);
	return sandbox_write_new(path, p->text, p->len, 0644);
}

int build_series(const struct config *cfg, const struct build_patch *p, size_t n,
		 const char *base, struct build_result *res)
{
	struct target *t = NULL;
	struct diags before = { 0 }, after = { 0 };
	struct sbuf out;
	char err[BUILD_NOTE_MAX], based[80] = "";
	char prefix[BUILD_PATH_MAX + 16];
	size_t nt = 0, i, nbuilt = 0, nerr = 0, nwarn = 0;
	enum run_result r;
	double t0, t1;
	struct ctx c;
	int ret = 0, applied = 0, last = n ? p[n - 1].part : 1, lockfd = -1, symlink = 0;

	memset(res, 0, sizeof(*res));
	sbuf_init(&out, BUILD_MAX_OUTPUT);
	if (base && *base)
		snprintf(based, sizeof(based), "; the author's base-commit: %.12s", base);
	if (ctx_init(&c, cfg, err, sizeof(err))) {
		set_note(res, "%s", err);
		goto out;
	}
	if (!n || n > BUILD_MAX_PATCHES) {
		set_note(res, "no patches to apply");
		goto out;
	}
	t0 = sandbox_now();
	lockfd = lock_work(&c, t0 + (cfg->build_timeout > 0 ? cfg->build_timeout : 900));
	if (lockfd < 0) {
		set_note(res, "another compile test held the test tree too long");
		goto out;
	}
	res->wait_s = sandbox_now() - t0;
	t0 = sandbox_now();
	if (prepare(&c, err, sizeof(err))) {
		set_note(res, "the test tree could not be prepared: %s", err);
		goto out;
	}
	res->prepare_s = sandbox_now() - t0;
	c.deadline = sandbox_now() + (cfg->build_timeout > 0 ? cfg->build_timeout : 900);
	if (disk_full(c.work)) {
		set_note(res, "the build machine's disk is full");
		goto out;
	}
	if (targets_of(p, n, &t, &nt, &symlink)) {
		ret = -1;
		goto out;
	}
	if (symlink) {
		/* the compiler would follow it out of the tree */
		set_note(res, "the series adds a symbolic link");
		goto out;
	}
	if (!nt) {
		set_note(res, "the series changes no .c file");
		goto out;
	}
	snprintf(prefix, sizeof(prefix), "%s/", c.src);

	/* the scratch tree and the object folder as prepared, whatever an
	 * earlier series (or a crash in one) left there */
	unlock_index(&c);
	t0 = sandbox_now();
	if (reset_src(&c, &out) || reset_obj(&c, &out)) {
		set_note(res, "the test tree could not be reset");
		goto out;
	}
	for (i = 0; i < nt; i++) {
		char full[BUILD_PATH_MAX * 2];
		struct stat st;

		snprintf(full, sizeof(full), "%s/%s", c.tree, t[i].path);
		t[i].in_base = !stat(full, &st) && S_ISREG(st.st_mode);
	}

	/* the pristine objects, each built once while the preparation holds */
	sbuf_reset(&out);
	r = RUN_OK;
	for (i = 0; i < nt && r != RUN_TIMEOUT && r != RUN_NOSTART; i++) {
		char cache[BUILD_PATH_MAX + 300];
		struct sbuf one;
		FILE *f;

		if (!t[i].in_base)
			continue;
		base_path(&c, t[i].path, cache, sizeof(cache));
		f = fopen(cache, "r");
		if (f) {
			char buf[8192];
			size_t got;

			while ((got = fread(buf, 1, sizeof(buf), f)))
				sbuf_add(&out, buf, got);
			fclose(f);
			continue;
		}
		sbuf_init(&one, BUILD_MAX_OUTPUT);
		r = build_objects(&c, &t[i], 1, 1, &one, &nbuilt);
		if ((r == RUN_OK || r == RUN_FAILED) && !one.err &&
		    !contains(&one, "No space left on device") && !mkdir_p_base(&c)) {
			f = fopen(cache, "w");
			if (f) {
				int ok = fwrite(one.buf, 1, one.len, f) == one.len;

				if (fclose(f) || !ok)
					unlink(cache);
			}
		}
		sbuf_add(&out, one.buf, one.len);
		sbuf_release(&one);
	}
	res->build_s += sandbox_now() - t0;
	if (build_unusable(res, r, &out))
		goto out;
	if (diags_parse(&out, prefix, &before)) {
		ret = -1;
		goto out;
	}

	/* the series, one patch after the other, into the index too so that
	 * reset --hard removes the files it adds */
	t1 = sandbox_now();
	if (sandbox_rmtree(c.patches) || sandbox_mkdir_owned(c.patches)) {
		set_note(res, "the series could not be written out");
		goto reset;
	}
	for (i = 0; i < n; i++) {
		char path[BUILD_PATH_MAX + 64];

		if (write_patch(&c, i, &p[i], path, sizeof(path))) {
			set_note(res, "the series could not be written out");
			goto reset;
		}
		sbuf_reset(&out);
		r = git(&c, SEE_SRC_RW | SEE_GIT_RW | SEE_PATCHES, &out, "apply", "--index",
			"--whitespace=nowarn", path, NULL, NULL);
		if (r) {
			set_note(res, "patch %d does not apply to the test tree (%s)%s",
				 p[i].part, c.version, based);
			goto reset;
		}
	}
	/* git apply outside its work tree does nothing and says 0 */
	sbuf_reset(&out);
	r = git(&c, 0, &out, "--no-optional-locks", "diff", "--cached", "--quiet", NULL, NULL);
	if (r != RUN_FAILED) {
		set_note(res, "the series changed nothing in the test tree");
		goto reset;
	}
	applied = 1;
	res->apply_s = sandbox_now() - t1;

	t1 = sandbox_now();
	sbuf_reset(&out);
	r = build_objects(&c, t, nt, 0, &out, &nbuilt);
	res->build_s += sandbox_now() - t1;
	if (build_unusable(res, r, &out))
		goto reset;
	if (diags_parse(&out, prefix, &after) ||
	    compare(res, &c, &before, &after, t, nt, last)) {
		ret = -1;
		goto reset;
	}
	if (r == RUN_FAILED && !res->nissues) {
		/* make failed and no new diagnostic says why: not the author's
		 * fault as far as we can tell */
		set_note(res, "make failed without a compiler diagnostic (%s)", c.version);
		goto reset;
	}
	for (i = 0; i < res->nissues; i++) {
		if (res->issues[i].error)
			nerr++;
		else
			nwarn++;
	}
	res->objects = nbuilt;
	res->verdict = res->nissues ? BUILD_CONCERN : BUILD_OK;
	if (nerr && nwarn)
		set_note(res, "%zu new error%s, %zu new warning%s at W=1 on %s",
			 nerr, nerr == 1 ? "" : "s", nwarn, nwarn == 1 ? "" : "s", c.version);
	else if (nerr || nwarn)
		set_note(res, "%zu new %s%s at W=1 on %s", nerr + nwarn,
			 nerr ? "error" : "warning", nerr + nwarn == 1 ? "" : "s", c.version);
	else
		set_note(res, "%zu object%s built at W=1 on %s, no new warnings", nbuilt,
			 nbuilt == 1 ? "" : "s", c.version);
reset:
	/* back to the pristine tree, whatever happened; a timeout leaves a
	 * little time for it */
	if (c.deadline - sandbox_now() < 120)
		c.deadline = sandbox_now() + 120;
	unlock_index(&c);
	sbuf_reset(&out);
	r = reset_src(&c, &out);
	sandbox_rmtree(c.patches);
	if (r && applied && res->verdict == BUILD_NOT_CHECKED && !res->note[0])
		set_note(res, "the test tree could not be reset");
out:
	if (res->verdict == BUILD_NOT_CHECKED && !res->note[0])
		set_note(res, "the compile test failed");
	res->sandboxes = c.sandboxes;
	if (lockfd >= 0)
		close(lockfd);
	for (i = 0; i < nt; i++)
		free(t[i].path);
	free(t);
	diags_release(&before);
	diags_release(&after);
	sbuf_release(&out);
	return ret;
}

void build_result_release(struct build_result *r)
{
	size_t i;

	for (i = 0; i < r->nissues; i++) {
		free(r->issues[i].file);
		free(r->issues[i].message);
		free(r->issues[i].line_text);
	}
	free(r->issues);
	memset(r, 0, sizeof(*r));
}

int build_base_commit(const char *text, size_t len, char *out, size_t outlen)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if ((size_t)(e - p) > 13 && !memcmp(p, "base-commit: ", 13)) {
			const char *h = p + 13;
			size_t n = 0;

			while (h + n < e && n < 64 &&
			       ((h[n] >= '0' && h[n] <= '9') || (h[n] >= 'a' && h[n] <= 'f')))
				n++;
			if (n >= 7 && n + 1 <= outlen && (h + n == e || h[n] == '\r' ||
							 h[n] == ' ')) {
				memcpy(out, h, n);
				out[n] = '\0';
				return 1;
			}
		}
		p = e + 1;
	}
	return 0;
}

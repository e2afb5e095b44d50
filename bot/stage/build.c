// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compile stage: a series applied to its base, the files it touches
 * built by each tool after it and (where a tool said something) before
 * it, the new diagnostics kept.  See build.h for what and build_int.h
 * for where.
 */
#include "build_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "../log.h"
#include "../../checker/diff.h"
#include "../../checker/banned.h"

#define BUILD_PREP_TIMEOUT	7200	/* seconds for an object folder's preparation */
#define BUILD_GIT_NAME		"reviewbot"
#define BUILD_MAX_FILE		(8u << 20)	/* bytes of a file read to quote a line */
#define BUILD_MAX_CANDIDATES	3	/* bases tried for one series */
#define BUILD_CACHE_KEEP	32	/* base commits whose results are kept */
#define BUILD_KCFLAGS		"KCFLAGS=-fdiagnostics-plain-output"
#define BUILD_KCFLAGS_ANALYZER	"KCFLAGS=-fdiagnostics-plain-output -fanalyzer"
#define BUILD_SPATCH_TIMEOUT	"120"	/* seconds per file for one script */

const volatile sig_atomic_t *build_stop_flag;

void build_set_stop(const volatile sig_atomic_t *stop)
{
	build_stop_flag = stop;
}

int build_enabled(const struct config *cfg)
{
	return cfg && ((cfg->build_tree && *cfg->build_tree) || cfg->ntrees);
}

/* ---- running commands ------------------------------------------------------ */

enum run_result build_run(struct bctx *c, unsigned see, const char *const argv[],
			  const char *cwd, struct sbuf *out)
{
	struct sandbox *sb = malloc(sizeof(*sb));
	enum sandbox_result r;

	if (!sb)
		return RUN_NOSTART;
	sandbox_init(sb, &c->lim, c->deadline);
	sb->hide_host = 1;
	sb->cg = c->cg;
	sb->net = (see & SEE_NET) != 0;
	if (see & SEE_REPO_RW)
		sandbox_bind_at(sb, c->repo, BUILD_IN_REPO, 1);
	else if (see & (SEE_REPO | SEE_GIT))
		sandbox_bind_at(sb, c->repo, BUILD_IN_REPO, 0);
	if (see & SEE_GIT)
		sandbox_bind_at(sb, c->git, BUILD_IN_GIT, 1);
	if (see & SEE_SRC_RW)
		sandbox_bind_at(sb, c->src, BUILD_IN_SRC, 1);
	else if (see & SEE_SRC)
		sandbox_bind_at(sb, c->src, BUILD_IN_SRC, 0);
	if (see & SEE_OBJBASE) {
		sandbox_bind_at(sb, c->objbase, BUILD_IN_OBJ, 1);
		if (c->quota)
			sandbox_quota(sb, c->objbase, c->quota_base);
	} else if (see & SEE_OBJ) {
		sandbox_bind_at(sb, c->obj, BUILD_IN_OBJ, 1);
		if (c->quota)
			sandbox_quota(sb, c->obj, c->quota);
	}
	if (see & SEE_MAIL)
		sandbox_bind_at(sb, c->mail, BUILD_IN_MAIL, 0);
	if (see & SEE_SLOT)
		sandbox_bind_at(sb, c->slotdir, BUILD_IN_SLOT, 1);
	if (see & SEE_TREE)
		sandbox_bind_at(sb, c->tree, BUILD_IN_TREE, 0);
	if ((see & SEE_FROM) && c->from)
		sandbox_bind_at(sb, c->from, BUILD_IN_FROM, 0);
	if ((see & SEE_CONFIG) && c->cfg->build_config && c->cfg->build_config[0] == '/')
		sandbox_bind_at(sb, c->cfg->build_config, BUILD_IN_CONFIG, 0);
	sandbox_setenv(sb, "GIT_TERMINAL_PROMPT", "0");
	sandbox_chdir(sb, cwd ? cwd : "/");
	c->sandboxes++;
	{
		double t0 = sandbox_now();

		r = sandbox_run(sb, argv, out, build_stop_flag);
		if (sandbox_now() - t0 >= 1.0) {
			/* where a stage's time goes (run --verbose) */
			char what[160], took[32];
			size_t i, k = 0;

			for (i = 0; argv[i] && k + 2 < sizeof(what); i++) {
				if (!strcmp(argv[i], "-c") && argv[i + 1]) {
					i++;
					continue;
				}
				k += (size_t)snprintf(what + k, sizeof(what) - k, "%s%s", k ? " " : "",
						      argv[i]);
			}
			snprintf(took, sizeof(took), "%.1fs", sandbox_now() - t0);
			log_event(LOG_DEBUG, "build-command", "command", what, "took", took, NULL);
		}
	}
	if (r == SANDBOX_NOSTART && out && sb->why[0]) {
		sbuf_addstr(out, "\n");
		sbuf_addstr(out, sb->why);
	}
	if (r == SANDBOX_QUOTA)
		c->quota_hit = 1;
	free(sb);
	return r == SANDBOX_OK ? RUN_OK : r == SANDBOX_TIMEOUT ? RUN_TIMEOUT :
	       r == SANDBOX_NOSTART ? RUN_NOSTART : r == SANDBOX_QUOTA ? RUN_QUOTA : RUN_FAILED;
}

enum run_result build_git(struct bctx *c, int repo, unsigned see, struct sbuf *out,
			  const char *const args[])
{
	const char *argv[64];
	size_t i = 0, k;

	argv[i++] = "git";
	argv[i++] = "-c";
	argv[i++] = "user.name=" BUILD_GIT_NAME;
	argv[i++] = "-c";
	argv[i++] = "user.email=" BUILD_GIT_NAME "@localhost";
	argv[i++] = "-c";
	argv[i++] = "gc.auto=0";
	argv[i++] = "-c";
	argv[i++] = "maintenance.auto=false";
	argv[i++] = "-c";
	argv[i++] = "core.autocrlf=false";
	argv[i++] = "-c";
	argv[i++] = "advice.detachedHead=false";
	argv[i++] = "-c";
	argv[i++] = "core.hooksPath=/dev/null";
	argv[i++] = "-c";
	argv[i++] = "safe.directory=*";
	argv[i++] = repo ? "--git-dir=" BUILD_IN_REPO : "--git-dir=" BUILD_IN_GIT;
	if (!repo) {
		argv[i++] = "--work-tree=" BUILD_IN_SRC;
		see |= SEE_GIT;
		if (!(see & SEE_SRC_RW))
			see |= SEE_SRC;
	}
	for (k = 0; args[k] && i + 1 < sizeof(argv) / sizeof(argv[0]); k++)
		argv[i++] = args[k];
	if (args[k])
		return RUN_NOSTART;
	argv[i] = NULL;
	return build_run(c, see, argv, repo ? "/" : BUILD_IN_SRC, out);
}

void build_tail(const struct sbuf *out, char *buf, size_t n)
{
	size_t e = out->len, s, i, k = 0;

	while (e && (out->buf[e - 1] == '\n' || out->buf[e - 1] == '\r'))
		e--;
	s = e;
	while (s && out->buf[s - 1] != '\n')
		s--;
	for (i = s; i < e && k + 1 < n; i++) {
		unsigned char ch = (unsigned char)out->buf[i];

		buf[k++] = ch < 0x20 || ch >= 0x7f ? '?' : (char)ch;
	}
	buf[k] = '\0';
}

/* ---- paths ------------------------------------------------------------------ */

static int ctx_init(struct bctx *c, const struct config *cfg, int slot, char *err,
		    size_t errlen)
{
	int n;

	memset(c, 0, sizeof(*c));
	c->cfg = cfg;
	c->slot = slot;
	if (!build_enabled(cfg)) {
		snprintf(err, errlen, "no [build] tree and no [tree]");
		return -1;
	}
	if (cfg->build_tree && *cfg->build_tree) {
		char *real = realpath(cfg->build_tree, NULL);

		n = snprintf(c->tree, sizeof(c->tree), "%s", real ? real : cfg->build_tree);
		free(real);
		if (n <= 0 || (size_t)n >= sizeof(c->tree)) {
			snprintf(err, errlen, "[build] tree: path too long");
			return -1;
		}
		while (n > 1 && c->tree[n - 1] == '/')
			c->tree[--n] = '\0';
	}
	if (sandbox_build_work(cfg, c->work, sizeof(c->work) - 64) || c->work[0] != '/') {
		snprintf(err, errlen, "[build] work: not an absolute path");
		return -1;
	}
	n = (int)strlen(c->work);
	while (n > 1 && c->work[n - 1] == '/')
		c->work[--n] = '\0';
	snprintf(c->repo, sizeof(c->repo), "%s/repo.git", c->work);
	snprintf(c->slotdir, sizeof(c->slotdir), "%s/w%d", c->work, slot);
	snprintf(c->git, sizeof(c->git), "%s/git", c->slotdir);
	snprintf(c->src, sizeof(c->src), "%s/src", c->slotdir);
	snprintf(c->obj, sizeof(c->obj), "%s/obj", c->slotdir);
	snprintf(c->objbase, sizeof(c->objbase), "%s/obj.base", c->slotdir);
	snprintf(c->mail, sizeof(c->mail), "%s/mail", c->slotdir);
	sandbox_default_limits(&c->lim, cfg->build_timeout > 0 ? (unsigned long)cfg->build_timeout
							       : 900);
	c->lim.tmp_bytes = (unsigned long long)(cfg->build_tmp_mb > 0 ? cfg->build_tmp_mb : 256) << 20;
	c->deadline = sandbox_now() + (cfg->build_timeout > 0 ? cfg->build_timeout : 900);
	return 0;
}

static int disk_full(const char *path)
{
	struct statvfs sv;

	if (statvfs(path, &sv))
		return 0;
	return (unsigned long long)sv.f_bavail * sv.f_frsize < BUILD_MIN_FREE;
}

/* An flock on path, waited for until the deadline: the fd, or -1. */
static int lock_file(const char *path, double until)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || sandbox_now() > until ||
		    (build_stop_flag && *build_stop_flag)) {
			close(fd);
			return -1;
		}
		usleep(200 * 1000);
	}
	return fd;
}

/* ---- the object folder ------------------------------------------------------ */

static const char *config_target(const struct config *cfg)
{
	return cfg->build_config ? cfg->build_config : "allmodconfig";
}

static void obj_stamp_text(const struct bctx *c, const char *commit, const char *gcc,
			   char *out, size_t n)
{
	snprintf(out, n, "layout=" BUILD_LAYOUT "\ncommit=%s\nconfig=%s\ngcc=%s\n", commit,
		 config_target(c->cfg), gcc);
}

/* What the stamp holds, or "" */
static void obj_stamp_read(const struct bctx *c, char *out, size_t n)
{
	char path[BUILD_PATH_MAX + 32];
	FILE *f;
	size_t k;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/obj.stamp", c->slotdir);
	f = fopen(path, "re");
	if (!f)
		return;
	k = fread(out, 1, n - 1, f);
	fclose(f);
	out[k] = '\0';
}

static int obj_stamp_write(const struct bctx *c, const char *text)
{
	char path[BUILD_PATH_MAX + 32];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/obj.stamp", c->slotdir);
	if (!text) {
		unlink(path);
		return 0;
	}
	f = fopen(path, "we");
	if (!f)
		return -1;
	ok = fputs(text, f) >= 0;
	return fclose(f) || !ok ? -1 : 0;
}

/* One make in obj.base for the preparation; its failure logged (its
 * words are the tree's, and stay in the log) and said in err. */
static int prep_make(struct bctx *c, const char *const argv[], const char *what, char *err,
		     size_t errlen)
{
	struct sbuf out;
	enum run_result r;
	char tail[160];

	sbuf_init(&out, 1u << 20);
	r = build_run(c, SEE_SRC | SEE_OBJBASE | SEE_CONFIG, argv, BUILD_IN_OBJ, &out);
	if (r) {
		build_tail(&out, tail, sizeof(tail));
		log_event(LOG_ERR, "build-prepare-failed", "step", what, "output", tail, NULL);
		snprintf(err, errlen, "%s %s", what, r == RUN_TIMEOUT ? "timed out" :
			 r == RUN_QUOTA ? "wrote more than [build] max_disk_mb" :
			 r == RUN_NOSTART ? "could not start" : "failed");
	}
	sbuf_release(&out);
	return r ? -1 : 0;
}

/*
 * Whether the commits of stamp have and of commit differ only in files
 * the preparation does not read: .c files outside scripts/ and tools/,
 * and documentation.  Then the folder is right for commit as it is.
 */
static int only_sources_moved(struct bctx *c, const char *have, const char *commit)
{
	const char *at = strstr(have, "\ncommit=");
	char old[41];
	const char *args[] = { "diff", "--name-only", "--no-renames", old, commit, NULL };
	struct sbuf out;
	const char *p, *end;
	int ok = 0;

	if (!at || strlen(at + 8) < 40)
		return 0;
	memcpy(old, at + 8, 40);
	old[40] = '\0';
	sbuf_init(&out, 1u << 20);
	if (build_git(c, 1, SEE_REPO, &out, args) != RUN_OK || out.err)
		goto out;
	ok = 1;
	for (p = out.buf ? out.buf : "", end = p + out.len; p < end && ok;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n && !((n > 2 && !memcmp(p + n - 2, ".c", 2) && strncmp(p, "scripts/", 8) &&
			    strncmp(p, "tools/", 6)) ||
			   !strncmp(p, "Documentation/", 14)))
			ok = 0;
		p = nl ? nl + 1 : end;
	}
out:
	sbuf_release(&out);
	return ok;
}

/*
 * obj.base prepared for commit (the work tree is at it): from scratch
 * (the configuration, CONFIG_WERROR off, modules_prepare), or, when only
 * the commit moved, brought up to it by make.  0 or -1 with err.
 */
static int obj_ready(struct bctx *c, const char *commit, const char *gcc, char *err,
		     size_t errlen)
{
	char want[512], have[512], jobs[32], cfgfile[BUILD_PATH_MAX + 64];
	const char *cfgv = config_target(c->cfg);
	double saved = c->deadline;
	int fresh, ret = -1;
	struct stat st;

	obj_stamp_text(c, commit, gcc, want, sizeof(want));
	obj_stamp_read(c, have, sizeof(have));
	if (!strcmp(want, have))
		return 0;
	snprintf(cfgfile, sizeof(cfgfile), "%s/.config", c->objbase);
	/* the same configuration and compiler at another commit: make
	 * brings it along; anything else starts again */
	{
		const char *nl = strstr(have, "\nconfig=");

		fresh = !have[0] || strncmp(have, "layout=" BUILD_LAYOUT "\n", 9) || !nl ||
			strcmp(nl + 1, strstr(want, "\nconfig=") + 1) ||
			stat(cfgfile, &st) || !S_ISREG(st.st_mode);
	}
	if (!fresh && only_sources_moved(c, have, commit)) {
		/* nothing modules_prepare reads changed: make rebuilds what
		 * depends on the changed files when it is asked for it */
		return obj_stamp_write(c, want) ? -1 : 0;
	}
	obj_stamp_write(c, NULL);
	c->deadline = sandbox_now() + BUILD_PREP_TIMEOUT;
	snprintf(jobs, sizeof(jobs), "-j%d", c->cfg->build_jobs > 0 ? c->cfg->build_jobs : 1);
	if (fresh) {
		if (sandbox_rmtree(c->objbase) || sandbox_mkdir_owned(c->objbase)) {
			snprintf(err, errlen, "cannot make the object folder");
			goto out;
		}
		if (strchr(cfgv, '/')) {
			const char *const cp[] = { "cp", "--", BUILD_IN_CONFIG,
						   BUILD_IN_OBJ "/.config", NULL };

			if (cfgv[0] != '/') {
				snprintf(err, errlen, "[build] config: a file must be an absolute path");
				goto out;
			}
			if (prep_make(c, cp, "copying the config", err, errlen))
				goto out;
			cfgv = "olddefconfig";
		}
		{
			const char *const mk[] = { "make", "-s", "-C", BUILD_IN_SRC,
						   "O=" BUILD_IN_OBJ, BUILD_KCFLAGS, cfgv, NULL };

			if (prep_make(c, mk, "make config", err, errlen))
				goto out;
		}
		{
			const char *const sc[] = { BUILD_IN_SRC "/scripts/config", "--file",
						   BUILD_IN_OBJ "/.config", "-d", "WERROR", NULL };

			if (prep_make(c, sc, "turning CONFIG_WERROR off", err, errlen))
				goto out;
		}
	}
	{
		const char *const mk[] = { "make", "-s", "-C", BUILD_IN_SRC, "O=" BUILD_IN_OBJ,
					   BUILD_KCFLAGS, "olddefconfig", NULL };
		const char *const mp[] = { "make", "-s", "-C", BUILD_IN_SRC, "O=" BUILD_IN_OBJ,
					   BUILD_KCFLAGS, jobs, "modules_prepare", NULL };

		if (prep_make(c, mk, "make olddefconfig", err, errlen) ||
		    prep_make(c, mp, "make modules_prepare", err, errlen))
			goto out;
	}
	if (obj_stamp_write(c, want)) {
		snprintf(err, errlen, "cannot write the object folder's stamp");
		goto out;
	}
	ret = 0;
out:
	c->deadline = saved;
	return ret;
}

/* ---- the series' files --------------------------------------------------------- */

struct target {
	char path[DIAG_FILE_MAX];	/* the .c, relative to the tree */
	char module[DIAG_FILE_MAX];	/* its module's .ko, or "" */
	int part;			/* last part touching it */
	int in_base, in_after;		/* exists before / after the series */
	int built;			/* its object was made (this state) */
	int built_after;		/* ... in the patched tree */
};

struct files {
	struct target t[BUILD_MAX_OBJECTS];
	size_t nt;
	char (*touched)[DIAG_FILE_MAX];	/* every file of the series */
	int *touched_part;
	size_t ntouched, touched_alloc;
	int build_code;		/* it changes how the kernel is built */
	int symlink;		/* it adds a symbolic link */
};

static void files_release(struct files *f)
{
	free(f->touched);
	free(f->touched_part);
	memset(f, 0, sizeof(*f));
}

static int touched_add(struct files *f, const char *path, int part)
{
	size_t i;

	for (i = 0; i < f->ntouched; i++)
		if (!strcmp(f->touched[i], path)) {
			f->touched_part[i] = part;
			return 0;
		}
	if (f->ntouched == f->touched_alloc) {
		size_t na = f->touched_alloc ? f->touched_alloc * 2 : 32;
		char (*nt)[DIAG_FILE_MAX] = realloc(f->touched, na * sizeof(*nt));
		int *np;

		if (!nt)
			return -1;
		f->touched = nt;
		np = realloc(f->touched_part, na * sizeof(*np));
		if (!np)
			return -1;
		f->touched_part = np;
		f->touched_alloc = na;
	}
	snprintf(f->touched[f->ntouched], DIAG_FILE_MAX, "%s", path);
	f->touched_part[f->ntouched++] = part;
	return 0;
}

static int target_add(struct files *f, const char *path, int part)
{
	size_t k;

	for (k = 0; k < f->nt; k++)
		if (!strcmp(f->t[k].path, path)) {
			f->t[k].part = part;
			return 0;
		}
	if (f->nt == BUILD_MAX_OBJECTS || strlen(path) >= DIAG_FILE_MAX)
		return 0;
	memset(&f->t[f->nt], 0, sizeof(f->t[0]));
	snprintf(f->t[f->nt].path, DIAG_FILE_MAX, "%s", path);
	f->t[f->nt++].part = part;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A file of the kernel's build machinery: what make, Kconfig or a
 * script runs. */
static int is_build_file(const char *path)
{
	const char *b = base_name(path);
	size_t n = strlen(b);

	return !strncmp(b, "Makefile", 8) || !strncmp(b, "Kbuild", 6) ||
	       !strncmp(b, "Kconfig", 7) || !strncmp(path, "scripts/", 8) ||
	       !strncmp(path, "tools/", 6) || (n > 3 && !strcmp(b + n - 3, ".mk")) ||
	       (n > 3 && !strcmp(b + n - 3, ".sh")) || (n > 3 && !strcmp(b + n - 3, ".pl")) ||
	       (n > 3 && !strcmp(b + n - 3, ".py")) || (n > 4 && !strcmp(b + n - 4, ".awk")) ||
	       (n > 6 && !strcmp(b + n - 6, ".cocci")) || !strcmp(b, "Makefile.build");
}

/*
 * An added line of a Makefile, Kbuild or Kconfig that runs nothing: a
 * kbuild list (obj-$(CONFIG_FOO) += foo.o, foo-y := a.o b.o), flags,
 * conditionals on CONFIG_ symbols, or Kconfig's own words.  Anything
 * that expands something else ($(shell ...), $(info ...), a recipe, an
 * include, a Kconfig macro) makes the build's output the series' to
 * write, and so never quoted.
 */
static int plain_build_line(const char *path, const char *s, size_t n)
{
	const char *b = base_name(path);
	size_t i;

	if (!strncmp(b, "Kconfig", 7)) {
		for (i = 0; i + 1 < n; i++)
			if (s[i] == '$' && s[i + 1] == '(')
				return 0;
		return 1;
	}
	if (!strncmp(b, "Makefile", 8) || !strncmp(b, "Kbuild", 6)) {
		if (n && s[0] == '\t')
			return 0;	/* a recipe */
		for (i = 0; i < n; i++) {
			if (s[i] == '#')
				break;
			if (s[i] == '$') {
				static const char *const ok[] = {
					"$(CONFIG_", "$(src)", "$(obj)", "$(srctree)", "$(objtree)",
				};
				size_t k;

				for (k = 0; k < sizeof(ok) / sizeof(ok[0]); k++)
					if (n - i >= strlen(ok[k]) && !memcmp(s + i, ok[k], strlen(ok[k])))
						break;
				if (k == sizeof(ok) / sizeof(ok[0]))
					return 0;
			}
			if (s[i] == ':' && !(i + 1 < n && s[i + 1] == '='))
				return 0;	/* a rule */
		}
		{
			static const char *const words[] = { "include", "-include", "sinclude",
							     "define", "export", "override", "vpath",
							     ".PHONY" };
			size_t k, j = 0;

			while (j < n && (s[j] == ' '))
				j++;
			for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
				if (n - j >= strlen(words[k]) && !memcmp(s + j, words[k], strlen(words[k])))
					return 0;
		}
		return 1;
	}
	return 0;
}

/* The files of the series: targets (.c), all touched, build code. */
static int files_of(const struct build_patch *p, size_t n, struct files *f)
{
	size_t i, j, k;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < n; i++) {
		struct diff d;

		memset(&d, 0, sizeof(d));
		if (diff_parse(p[i].text, p[i].len, NULL, &d) < 0 && !d.nfiles) {
			diff_release(&d);
			continue;
		}
		for (j = 0; j < d.nfiles; j++) {
			const struct diff_file *df = &d.files[j];
			const char *path = df->new_path ? df->new_path : df->old_path;
			size_t len;

			if ((df->new_mode & 0170000) == 0120000)
				f->symlink = 1;
			if (!path || !boot_tree_path_ok(path))
				continue;
			if (touched_add(f, path, p[i].part)) {
				diff_release(&d);
				return -1;
			}
			if (is_build_file(path)) {
				for (k = 0; k < df->nhunks; k++) {
					const struct diff_hunk *h = &d.hunks[df->first_hunk + k];
					size_t l;

					for (l = 0; l < h->nlines; l++) {
						const struct diff_line *dl = &d.lines[h->first_line + l];

						if (dl->kind == '+' &&
						    !plain_build_line(path, dl->text, dl->len))
							f->build_code = 1;
					}
				}
				if (!df->nhunks && !(df->flags & DIFF_DELETED))
					f->build_code = 1;	/* binary, mode: not plain */
			}
			if (!df->new_path || (df->flags & DIFF_DELETED))
				continue;
			len = strlen(path);
			if (len > 2 && !strcmp(path + len - 2, ".c"))
				target_add(f, path, p[i].part);
		}
		diff_release(&d);
	}
	return 0;
}

static int touched_part(const struct files *f, const char *file)
{
	size_t i;

	for (i = 0; i < f->ntouched; i++)
		if (!strcmp(f->touched[i], file))
			return f->touched_part[i];
	return 0;
}

/* A regular file of the work tree (not through a link). */
static int file_in_src(const struct bctx *c, const char *rel)
{
	char *buf;
	size_t n;

	if (boot_tree_read(c->src, rel, BUILD_MAX_FILE, &buf, &n))
		return 0;
	free(buf);
	return 1;
}

/*
 * A header the series changes outside include/: the .c files beside it
 * that include it by name are built too (at most what the series has
 * room for).
 */
static void add_header_users(struct bctx *c, struct files *f)
{
	size_t i;

	for (i = 0; i < f->ntouched && f->nt < BUILD_MAX_OBJECTS; i++) {
		const char *h = f->touched[i], *b = base_name(h);
		char dir[DIAG_FILE_MAX], host[BUILD_PATH_MAX * 2 + DIAG_FILE_MAX], inc[300];
		size_t hl = strlen(h);
		struct dirent *de;
		DIR *d;

		if (hl < 3 || strcmp(h + hl - 2, ".h") || !strncmp(h, "include/", 8) ||
		    strstr(h, "/include/") || b == h)
			continue;
		snprintf(dir, sizeof(dir), "%.*s", (int)(b - h - 1), h);
		snprintf(host, sizeof(host), "%s/%s", c->src, dir);
		snprintf(inc, sizeof(inc), "#include \"%s\"", b);
		d = opendir(host);
		if (!d)
			continue;
		while ((de = readdir(d)) && f->nt < BUILD_MAX_OBJECTS) {
			char rel[DIAG_FILE_MAX + 300], *buf;
			size_t n = strlen(de->d_name), len;

			if (n < 3 || strcmp(de->d_name + n - 2, ".c") ||
			    (size_t)snprintf(rel, sizeof(rel), "%s/%s", dir, de->d_name) >= DIAG_FILE_MAX ||
			    !boot_tree_path_ok(rel))
				continue;
			if (boot_tree_read(c->src, rel, BUILD_MAX_FILE, &buf, &len))
				continue;
			if (memmem(buf, len, inc, strlen(inc)))
				target_add(f, rel, f->touched_part[i]);
			free(buf);
		}
		closedir(d);
	}
}

/* word is one of the words of s[0, n) (separated by spaces or tabs) */
static int has_word(const char *s, size_t n, const char *word)
{
	size_t wl = strlen(word), i = 0;

	while (i < n) {
		size_t k;

		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		k = i;
		while (k < n && s[k] != ' ' && s[k] != '\t')
			k++;
		if (k - i == wl && !memcmp(s + i, word, wl))
			return 1;
		i = k;
	}
	return 0;
}

/*
 * The module a .c of the tree belongs to, from its folder's Makefile
 * (or Kbuild): NAME-y / NAME-objs / NAME-$(CONFIG_X) holding file.o
 * makes NAME.ko; obj-m / obj-$(CONFIG_X) += file.o makes file.ko.
 * "" when neither (built in, or not in the folder's lists).
 */
static void module_of(const struct bctx *c, const char *cpath, char *out, size_t outlen)
{
	const char *b = base_name(cpath);
	char dir[DIAG_FILE_MAX], obj[DIAG_FILE_MAX], mk[DIAG_FILE_MAX + 16];
	static const char *const names[] = { "Makefile", "Kbuild" };
	char *buf = NULL;
	size_t len = 0, i;

	out[0] = '\0';
	if (b == cpath)
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(b - cpath - 1), cpath);
	snprintf(obj, sizeof(obj), "%.*s.o", (int)(strlen(b) - 2), b);
	for (i = 0; i < 2 && !buf; i++) {
		snprintf(mk, sizeof(mk), "%s/%s", dir, names[i]);
		if (boot_tree_read(c->src, mk, 1u << 20, &buf, &len))
			buf = NULL;
	}
	if (!buf)
		return;
	/* continuation lines joined */
	for (i = 0; i + 1 < len; i++)
		if (buf[i] == '\\' && buf[i + 1] == '\n')
			buf[i] = buf[i + 1] = ' ';
	{
		const char *p = buf, *end = buf + len;
		char module[DIAG_FILE_MAX] = "";
		int single = 0;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *e = nl ? nl : end, *eq, *dash, *q = p;

			while (q < e && (*q == ' ' || *q == '\t'))
				q++;
			eq = memchr(q, '=', (size_t)(e - q));
			dash = eq ? memchr(q, '-', (size_t)(eq - q)) : NULL;
			if (eq && dash && has_word(eq + 1, (size_t)(e - eq - 1), obj)) {
				size_t nl2 = (size_t)(dash - q);

				if (nl2 == 3 && !memcmp(q, "obj", 3)) {
					/* obj-m or obj-$(CONFIG_...): a module of its own */
					if (dash[1] == 'm' || (dash[1] == '$' && dash[2] == '('))
						single = 1;
				} else if (nl2 && nl2 < sizeof(module) &&
					   (dash[1] == 'y' || !strncmp(dash + 1, "objs", 4) ||
					    (dash[1] == '$' && dash[2] == '('))) {
					snprintf(module, sizeof(module), "%.*s", (int)nl2, q);
					if (strstr(module, "flags") || strchr(module, ' '))
						module[0] = '\0';
				}
			}
			p = nl ? nl + 1 : end;
		}
		char ko[DIAG_FILE_MAX * 2 + 8];

		if (module[0])
			snprintf(ko, sizeof(ko), "%s/%s.ko", dir, module);
		else if (single)
			snprintf(ko, sizeof(ko), "%s/%.*s.ko", dir, (int)(strlen(b) - 2), b);
		else
			ko[0] = '\0';
		if (strlen(ko) < outlen)
			snprintf(out, outlen, "%s", ko);
	}
	free(buf);
}

/* ---- reading the work tree's files for the diagnostics ------------------------ */

struct srcfile {
	char path[DIAG_FILE_MAX];
	char *text;
	size_t len;
	int missing;
};

struct srcfiles {
	struct srcfile f[BUILD_MAX_OBJECTS * 2];
	size_t n;
};

static void srcfiles_release(struct srcfiles *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->f[i].text);
	s->n = 0;
}

static const struct srcfile *src_get(const struct bctx *c, struct srcfiles *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->f[i].path, path))
			return &s->f[i];
	if (s->n == sizeof(s->f) / sizeof(s->f[0]))
		return NULL;
	snprintf(s->f[s->n].path, sizeof(s->f[0].path), "%s", path);
	s->f[s->n].text = NULL;
	s->f[s->n].missing = !boot_tree_path_ok(path) ||
			     boot_tree_read(c->src, path, BUILD_MAX_FILE, &s->f[s->n].text,
					    &s->f[s->n].len);
	return &s->f[s->n++];
}

/* Each diagnostic without its function gets the one of its line. */
static void fill_functions(const struct bctx *c, struct diag_list *l, struct srcfiles *s)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct srcfile *f;

		/* read now in any case: the quoted line is this state's */
		f = src_get(c, s, l->d[i].file);
		if (l->d[i].func[0] || l->d[i].line <= 0)
			continue;
		if (f && !f->missing)
			diag_function_at(f->text, f->len, l->d[i].line, l->d[i].func,
					 sizeof(l->d[i].func));
	}
}

static char *line_of(const struct srcfile *f, long ln)
{
	const char *p, *end;
	long cur = 1;
	char *r;

	if (!f || f->missing || ln <= 0)
		return NULL;
	p = f->text;
	end = f->text + f->len;
	while (p < end && cur < ln) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			return NULL;
		p = nl + 1;
		cur++;
	}
	if (p >= end)
		return NULL;
	{
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		r = malloc(n + 1);
		if (r) {
			memcpy(r, p, n);
			r[n] = '\0';
		}
	}
	return r;
}

/* ---- the base's results, cached --------------------------------------------------- */

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* WORK/cache/COMMIT/KEY/TOOL[/NAME] */
static int cache_path(const struct bctx *c, const char *commit, const char *gcc,
		      enum diag_tool tool, const char *file, const char *script, char *out,
		      size_t n)
{
	char key[24], name[DIAG_FILE_MAX + 100];
	size_t i, k = 0;
	uint64_t h = fnv(0xcbf29ce484222325ULL, config_target(c->cfg));

	h = fnv(fnv(h, gcc), BUILD_LAYOUT);
	snprintf(key, sizeof(key), "%016llx", (unsigned long long)h);
	if (file) {
		for (i = 0; file[i] && k + 2 < sizeof(name); i++)
			name[k++] = file[i] == '/' ? '%' : file[i];
		if (script) {
			name[k++] = '@';
			for (i = 0; script[i] && k + 2 < sizeof(name); i++)
				name[k++] = script[i] == '/' ? '%' : script[i];
		}
		name[k] = '\0';
		return (size_t)snprintf(out, n, "%s/cache/%s/%s/%s/%s", c->work, commit, key,
					diag_tool_name(tool), name) < n ? 0 : -1;
	}
	return (size_t)snprintf(out, n, "%s/cache/%s/%s/%s", c->work, commit, key,
				diag_tool_name(tool)) < n ? 0 : -1;
}

/* 1 with the cached diagnostics appended to l, 0 when not cached. */
static int cache_get(const struct bctx *c, const char *commit, const char *gcc,
		     enum diag_tool tool, const char *file, const char *script,
		     struct diag_list *l)
{
	char path[BUILD_PATH_MAX + 512];
	char *buf;
	size_t len;
	const char *p, *end;

	if (cache_path(c, commit, gcc, tool, file, script, path, sizeof(path)) ||
	    sandbox_read_file(path, 4u << 20, 0, &buf, &len))
		return 0;
	for (p = buf, end = buf + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct diag d;

		if (!diag_deserialize(p, (size_t)((nl ? nl : end) - p), &d))
			diag_list_add(l, &d);
		p = nl ? nl + 1 : end;
	}
	free(buf);
	return 1;
}

static void cache_put(const struct bctx *c, const char *commit, const char *gcc,
		      enum diag_tool tool, const char *file, const char *script,
		      const struct diag_list *l)
{
	char path[BUILD_PATH_MAX + 512], tmp[BUILD_PATH_MAX + 530], line[1024];
	size_t i;
	FILE *f;
	int ok = 1;

	if (cache_path(c, commit, gcc, tool, NULL, NULL, path, sizeof(path)) ||
	    sandbox_mkdir_p(path) ||
	    cache_path(c, commit, gcc, tool, file, script, path, sizeof(path)))
		return;
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "we");
	if (!f)
		return;
	for (i = 0; i < l->n; i++) {
		/* the target's own, and those of headers it includes */
		if (tool == DIAG_COCCI && strcmp(l->d[i].file, file))
			continue;
		if (tool == DIAG_COCCI && strcmp(l->d[i].script, script))
			continue;
		if (!diag_serialize(&l->d[i], line, sizeof(line)))
			ok &= fputs(line, f) >= 0;
	}
	if (fclose(f) || !ok || rename(tmp, path))
		unlink(tmp);
}

/* At most BUILD_CACHE_KEEP base commits' results: the oldest go. */
static void cache_trim(const struct bctx *c)
{
	char dir[BUILD_PATH_MAX + 16], path[BUILD_PATH_MAX * 3];
	struct {
		char name[64];
		time_t t;
	} e[BUILD_CACHE_KEEP * 4];
	size_t n = 0, i;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/cache", c->work);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && n < sizeof(e) / sizeof(e[0])) {
		struct stat st;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(e[0].name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(e[n].name, sizeof(e[n].name), "%s", de->d_name);
		e[n++].t = st.st_mtime;
	}
	closedir(d);
	while (n > BUILD_CACHE_KEEP) {
		size_t old = 0;

		for (i = 1; i < n; i++)
			if (e[i].t < e[old].t)
				old = i;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e[old].name) < sizeof(path))
			sandbox_rmtree(path);
		e[old] = e[--n];
	}
}

/* ---- the tools -------------------------------------------------------------------- */

struct run_state {
	struct bctx *c;
	int after;			/* the patched tree in obj, else the base in obj.base */
	struct files *f;
	struct diag_list list[DIAG__TOOLS];
	int ran[DIAG__TOOLS];		/* the tool ran (on this state) */
	char why[DIAG__TOOLS][96];	/* why it did not */
	int stop;			/* a timeout, the disk budget: the stage ends */
	char stop_why[96];
};

static unsigned obj_see(const struct run_state *s)
{
	return SEE_SRC | (s->after ? SEE_OBJ : SEE_OBJBASE);
}

static const char *obj_host(const struct run_state *s)
{
	return s->after ? s->c->obj : s->c->objbase;
}

static int target_here(const struct run_state *s, const struct target *t)
{
	return s->after ? t->in_after : t->in_base;
}

/* The run's result: 0 go on, -1 the stage stops (timeout, disk). */
static int ran_ok(struct run_state *s, enum diag_tool tool, enum run_result r, const struct sbuf *out)
{
	if (r == RUN_TIMEOUT) {
		snprintf(s->stop_why, sizeof(s->stop_why), "the build timed out ([build] timeout)");
		s->stop = 1;
		return -1;
	}
	if (r == RUN_QUOTA) {
		snprintf(s->stop_why, sizeof(s->stop_why),
			 "the build wrote more than [build] max_disk_mb");
		s->stop = 1;
		return -1;
	}
	if (r == RUN_NOSTART) {
		snprintf(s->why[tool], sizeof(s->why[tool]), "%s could not start (not installed?)",
			 tool == DIAG_COCCI ? "spatch" : tool == DIAG_SPARSE ? "sparse" : "make");
		return 0;
	}
	if (out && strstr(out->buf ? out->buf : "", "No space left on device")) {
		/* the machine's, or the series' own doing in its bounds */
		snprintf(s->stop_why, sizeof(s->stop_why), "%s", disk_full(s->c->work) ?
			 "the build machine's disk is full" :
			 "the build ran out of space ([build] tmp_mb or max_disk_mb)");
		s->stop = 1;
		return -1;
	}
	s->ran[tool] = 1;
	return 0;
}

/* make in the state's object folder with targets (each t's object, with
 * suffix ".o" or ".s", and its module when mod); extra one argument. */
static enum run_result make_targets(struct run_state *s, const char *suffix, int mod,
				    const char *const extra[], int only_built, struct sbuf *out,
				    size_t *nbuilt)
{
	const char *argv[BUILD_MAX_OBJECTS * 2 + 24];
	char (*names)[DIAG_FILE_MAX + 4] = calloc(BUILD_MAX_OBJECTS * 2, sizeof(*names));
	char jobs[32];
	size_t i, a = 0, k = 0;
	enum run_result r = RUN_OK;

	*nbuilt = 0;
	if (!names)
		return RUN_NOSTART;
	snprintf(jobs, sizeof(jobs), "-j%d", s->c->cfg->build_jobs > 0 ? s->c->cfg->build_jobs : 1);
	argv[a++] = "make";
	argv[a++] = "-s";
	argv[a++] = "-k";
	argv[a++] = jobs;
	argv[a++] = "-C";
	argv[a++] = BUILD_IN_SRC;
	argv[a++] = "O=" BUILD_IN_OBJ;
	argv[a++] = "W=1";
	for (i = 0; extra[i]; i++)
		argv[a++] = extra[i];
	for (i = 0; i < s->f->nt; i++) {
		struct target *t = &s->f->t[i];
		char host[BUILD_PATH_MAX + DIAG_FILE_MAX + 16];
		size_t len = strlen(t->path);

		if (!target_here(s, t) || (only_built && !t->built))
			continue;
		snprintf(names[k], sizeof(names[k]), "%.*s%s", (int)(len - 2), t->path, suffix);
		/* gone, so that make makes it again and says what it says */
		snprintf(host, sizeof(host), "%s/%s", obj_host(s), names[k]);
		unlink(host);
		argv[a++] = names[k++];
		if (mod && t->module[0]) {
			size_t j;

			for (j = 0; j + 1 < k; j++)
				if (!strcmp(names[j], t->module))
					break;
			if (j + 1 == k || k == 1) {
				snprintf(names[k], sizeof(names[k]), "%s", t->module);
				snprintf(host, sizeof(host), "%s/%s", obj_host(s), t->module);
				unlink(host);
				argv[a++] = names[k++];
			}
		}
	}
	argv[a] = NULL;
	*nbuilt = k;
	if (k)
		r = build_run(s->c, obj_see(s), argv, BUILD_IN_OBJ, out);
	free(names);
	return r;
}

static int run_gcc(struct run_state *s)
{
	const char *const extra[] = { BUILD_KCFLAGS, NULL };
	struct sbuf out;
	size_t n, i;
	enum run_result r;
	int ret = 0;

	sbuf_init(&out, BUILD_MAX_OUTPUT);
	r = make_targets(s, ".o", 1, extra, 0, &out, &n);
	if (ran_ok(s, DIAG_GCC, r, &out) || !n)
		goto out;
	if (diag_parse(DIAG_GCC, out.buf ? out.buf : "", out.len, BUILD_IN_SRC "/", NULL, 0,
		       &s->list[DIAG_GCC]))
		ret = -1;
	for (i = 0; i < s->f->nt; i++) {
		struct target *t = &s->f->t[i];
		char host[BUILD_PATH_MAX + DIAG_FILE_MAX + 16];
		struct stat st;
		size_t len = strlen(t->path);

		snprintf(host, sizeof(host), "%s/%.*s.o", obj_host(s), (int)(len - 2), t->path);
		t->built = target_here(s, t) && !lstat(host, &st) && S_ISREG(st.st_mode);
	}
out:
	sbuf_release(&out);
	return ret;
}

/* Sparse's run: what gcc said of this state again (an object made
 * anew) is gcc's, not sparse's: gcc's warnings carry their option
 * ([-Wfoo]), sparse's never; gcc's errors are those of its own run. */
static int run_sparse(struct run_state *s)
{
	const char *const extra[] = { BUILD_KCFLAGS, "C=2", NULL };
	struct diag_list got = { 0 };
	struct sbuf out;
	size_t n, i, j;
	enum run_result r;
	int ret = 0;

	sbuf_init(&out, BUILD_MAX_OUTPUT);
	r = make_targets(s, ".o", 0, extra, 1, &out, &n);
	if (ran_ok(s, DIAG_SPARSE, r, &out) || !n)
		goto out;
	if (diag_parse(DIAG_SPARSE, out.buf ? out.buf : "", out.len, BUILD_IN_SRC "/", NULL, 0,
		       &got)) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < got.n; i++) {
		const struct diag *d = &got.d[i];

		if (d->opt[0])
			continue;
		for (j = 0; j < s->list[DIAG_GCC].n; j++) {
			const struct diag *g = &s->list[DIAG_GCC].d[j];

			if (g->line == d->line && !strcmp(g->file, d->file) &&
			    !strncmp(d->msg, g->msg, strlen(g->msg)))
				break;
		}
		if (j == s->list[DIAG_GCC].n && diag_list_add(&s->list[DIAG_SPARSE], d)) {
			ret = -1;
			break;
		}
	}
out:
	diag_list_release(&got);
	sbuf_release(&out);
	return ret;
}

static int run_analyzer(struct run_state *s)
{
	const char *const extra[] = { BUILD_KCFLAGS_ANALYZER, NULL };
	struct sbuf out;
	size_t n;
	enum run_result r;
	int ret = 0;

	sbuf_init(&out, BUILD_MAX_OUTPUT);
	r = make_targets(s, ".s", 0, extra, 1, &out, &n);
	if (ran_ok(s, DIAG_ANALYZER, r, &out) || !n)
		goto out;
	if (diag_parse(DIAG_ANALYZER, out.buf ? out.buf : "", out.len, BUILD_IN_SRC "/", NULL, 0,
		       &s->list[DIAG_ANALYZER]))
		ret = -1;
out:
	sbuf_release(&out);
	return ret;
}

/* Whether the tree's script says "Confidence: High". */
static int script_high(const struct bctx *c, const char *rel)
{
	char *buf;
	size_t len;
	int high = 0;

	if (boot_tree_read(c->src, rel, 1u << 20, &buf, &len))
		return 0;
	{
		const char *m = memmem(buf, len, "Confidence:", 11);

		if (m) {
			m += 11;
			while (m < buf + len && *m == ' ')
				m++;
			high = (size_t)(buf + len - m) >= 4 && !strncasecmp(m, "High", 4);
		}
	}
	free(buf);
	return high;
}

/*
 * The coccinelle scripts on the targets of this state; want (NULL: all)
 * says which script runs on which target (the base: only what the
 * patched tree's run reported).
 */
static int run_cocci(struct run_state *s, const struct diag_list *want)
{
	size_t i, j, nscripts = tools_cocci_count();
	int ret = 0;

	for (i = 0; i < nscripts && !s->stop; i++) {
		const char *name = tools_cocci_scripts[i];
		const char *argv[BUILD_MAX_OBJECTS + 20];
		char (*files)[DIAG_FILE_MAX + 16] = NULL;
		char rel[128], cocci[160];
		struct sbuf out;
		size_t a = 0, k = 0;
		enum run_result r;

		snprintf(rel, sizeof(rel), "scripts/coccinelle/%s.cocci", name);
		if (!file_in_src(s->c, rel))
			continue;	/* not in this tree's version */
		files = calloc(BUILD_MAX_OBJECTS, sizeof(*files));
		if (!files)
			return -1;
		snprintf(cocci, sizeof(cocci), BUILD_IN_SRC "/%s", rel);
		argv[a++] = "spatch";
		argv[a++] = "-D";
		argv[a++] = "report";
		argv[a++] = "--no-show-diff";
		argv[a++] = "--very-quiet";
		argv[a++] = "--timeout";
		argv[a++] = BUILD_SPATCH_TIMEOUT;
		argv[a++] = "--cocci-file";
		argv[a++] = cocci;
		for (j = 0; j < s->f->nt; j++) {
			const struct target *t = &s->f->t[j];

			if (!target_here(s, t))
				continue;
			if (want) {
				size_t w;

				for (w = 0; w < want->n; w++)
					if (!strcmp(want->d[w].script, name) &&
					    !strcmp(want->d[w].file, t->path))
						break;
				if (w == want->n)
					continue;
			}
			snprintf(files[k], sizeof(files[k]), BUILD_IN_SRC "/%s", t->path);
			argv[a++] = files[k++];
		}
		argv[a] = NULL;
		if (!k) {
			free(files);
			continue;
		}
		sbuf_init(&out, BUILD_MAX_OUTPUT);
		r = build_run(s->c, SEE_SRC, argv, BUILD_IN_SRC, &out);
		if (!ran_ok(s, DIAG_COCCI, r, &out) &&
		    diag_parse(DIAG_COCCI, out.buf ? out.buf : "", out.len, BUILD_IN_SRC "/", name,
			       script_high(s->c, rel), &s->list[DIAG_COCCI]))
			ret = -1;
		sbuf_release(&out);
		free(files);
		if (r == RUN_NOSTART)
			break;	/* spatch is missing: no other script will run */
	}
	return ret;
}

static int tool_wanted(const struct config *cfg, enum diag_tool t)
{
	const char *v = cfg->build_tools, *name = diag_tool_name(t);
	size_t n = strlen(name);

	if (t == DIAG_GCC)
		return 1;
	if (!v)
		return 1;
	while (*v) {
		size_t k;

		v += strspn(v, ", \t");
		k = strcspn(v, ", \t");
		if (k == n && !strncmp(v, name, n))
			return 1;
		v += k;
	}
	return 0;
}

/* ---- the result ---------------------------------------------------------------- */

static void set_note(struct build_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_note(struct build_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->note, sizeof(res->note), fmt, ap);
	va_end(ap);
}

struct details {
	struct sbuf sb;
};

static void det(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void det(struct sbuf *sb, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sbuf_addstr(sb, line);
}

static int add_issue(struct build_result *res, const struct diag *d, const char *type,
		     int part, int quote, const struct srcfile *sf)
{
	struct build_issue *is;
	char msg[DIAG_MSG_MAX + 160];
	const char *tool = d->tool == DIAG_GCC ? (d->modpost ? "modpost" : "gcc W=1") :
			   d->tool == DIAG_SPARSE ? "sparse" :
			   d->tool == DIAG_ANALYZER ? "gcc -fanalyzer" : "coccinelle";

	if (res->nissues == BUILD_MAX_ISSUES)
		return 0;
	if (!res->issues) {
		res->issues = calloc(BUILD_MAX_ISSUES, sizeof(*res->issues));
		if (!res->issues)
			return -1;
	}
	is = &res->issues[res->nissues];
	memset(is, 0, sizeof(*is));
	is->part = part;
	is->error = d->error;
	is->type = type;
	is->file = strdup(d->file);
	if (quote) {
		is->line = d->line;
		if (d->tool == DIAG_COCCI)
			snprintf(msg, sizeof(msg), "%s (scripts/coccinelle/%s.cocci): %s", tool,
				 d->script, d->msg);
		else
			snprintf(msg, sizeof(msg), "%s: %s%s%s%s", tool, d->msg,
				 d->opt[0] ? " [" : "", d->opt, d->opt[0] ? "]" : "");
		is->line_text = line_of(sf, d->line);
	} else {
		/* the series' build files could have printed it: no words */
		snprintf(msg, sizeof(msg), "%s: a new %s (not quoted: the series changes "
			 "the kernel's build files)", tool, d->error ? "error" : "warning");
	}
	is->message = strdup(msg);
	res->nissues++;
	return is->file && is->message ? 0 : -1;
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
	free(r->details);
	memset(r, 0, sizeof(*r));
}

/* "hwmon-next at 0123456789ab" or "linux 6.1.192 ([build] tree)" */
static void where_text(const struct bctx *c, const struct btree *t, const char *commit,
		       char *out, size_t n)
{
	if (!t->ct) {
		char rel[32];

		tree_release_of(c, rel, sizeof(rel));
		snprintf(out, n, "linux %s ([build] tree)", rel);
	} else {
		snprintf(out, n, "%s at %.12s", t->name, commit);
	}
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
			if (n >= 7 && n <= 40 && n + 1 <= outlen &&
			    (h + n == e || h[n] == '\r' || h[n] == ' ')) {
				memcpy(out, h, n);
				out[n] = '\0';
				return 1;
			}
		}
		p = e + 1;
	}
	return 0;
}

int build_prerequisites(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if ((size_t)(e - p) > 24 && !memcmp(p, "prerequisite-patch-id: ", 23))
			n++;
		p = e + 1;
	}
	return n;
}

/* ---- the base ------------------------------------------------------------------- */

struct base_pick {
	int tree;		/* index into c->trees */
	char commit[41];
	const char *why;	/* "base-commit", "list", "subject", "newest" */
};

/* The tags of a subject prefix that name tree t (its name or branch). */
static int prefix_names(const char *prefix, const struct btree *t)
{
	const char *p = prefix;

	while (p && *p) {
		size_t n;

		p += strspn(p, " ,");
		n = strcspn(p, " ,");
		if (n && ((strlen(t->name) == n && !strncasecmp(p, t->name, n)) ||
			  (t->branch && strlen(t->branch) == n && !strncasecmp(p, t->branch, n))))
			return 1;
		p += n;
	}
	return 0;
}

static int tree_of_list(const struct btree *t, const struct build_info *info)
{
	size_t i;

	if (!t->ct)
		return 0;
	if (info->list && config_tree_has_list(t->ct, info->list))
		return 1;
	for (i = 0; i < info->nrcpt; i++)
		if (config_tree_has_list(t->ct, info->rcpt[i]))
			return 1;
	return 0;
}

static void pick_add(struct base_pick *b, size_t *n, int tree, const char *commit,
		     const char *why)
{
	size_t i;

	if (*n == BUILD_MAX_CANDIDATES || !commit[0])
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp(b[i].commit, commit))
			return;
	b[*n].tree = tree;
	snprintf(b[*n].commit, sizeof(b[*n].commit), "%s", commit);
	b[*n].why = why;
	(*n)++;
}

/*
 * The bases to try, best first.  *bc_missing: the series names a
 * base-commit no tree has (the trees were fetched once more first).
 */
static size_t pick_bases(struct bctx *c, const struct build_info *info, struct base_pick *b,
			 int *bc_missing)
{
	size_t n = 0, i;
	int listed = 0;

	*bc_missing = 0;
	if (info->base_commit && *info->base_commit) {
		char full[41], err[256];

		if (tree_resolve(c, info->base_commit, full)) {
			/* perhaps pushed since the last fetch */
			tree_sync(c, 1, err, sizeof(err));
			if (tree_resolve(c, info->base_commit, full))
				full[0] = '\0';
		}
		if (full[0]) {
			int t = tree_holding(c, full);

			if (t < 0) {
				for (i = 0; i < c->ntrees && t < 0; i++)
					if (tree_of_list(&c->trees[i], info))
						t = (int)i;
				if (t < 0)
					t = 0;
			}
			pick_add(b, &n, t, full, "base-commit");
		} else {
			*bc_missing = 1;
		}
	}
	if (n)
		return n;	/* its own base: that one only */
	/* the list's tree the subject names: that one only (the author
	 * says where it goes; not applying there is the answer) */
	for (i = 0; i < c->ntrees && !n; i++)
		if (c->trees[i].tip[0] && tree_of_list(&c->trees[i], info) &&
		    prefix_names(info->prefix, &c->trees[i]))
			pick_add(b, &n, (int)i, c->trees[i].tip, "subject");
	if (n)
		return n;
	/* else each of the list's trees in the configuration's order */
	for (i = 0; i < c->ntrees; i++)
		if (c->trees[i].tip[0] && tree_of_list(&c->trees[i], info)) {
			pick_add(b, &n, (int)i, c->trees[i].tip, "list");
			listed = 1;
		}
	if (!listed)
		for (i = 0; i < c->ntrees && !n; i++)
			if (c->trees[i].tip[0] && prefix_names(info->prefix, &c->trees[i])) {
				pick_add(b, &n, (int)i, c->trees[i].tip, "subject");
				listed = 1;
			}
	if (!listed) {
		int best = -1;

		for (i = 0; i < c->ntrees; i++)
			if (c->trees[i].tip[0] &&
			    (best < 0 || c->trees[i].tip_time > c->trees[best].tip_time))
				best = (int)i;
		if (best >= 0)
			pick_add(b, &n, best, c->trees[best].tip, "newest");
	}
	return n;
}

/* "does not apply to NAME BRANCH at SHA12: patch 2, drivers/x.c hunk 1 (line 28)" */
static void failure_note(struct build_result *res, const struct bctx *c,
			 const struct base_pick *b, const struct am_failure *f, int bc_missing,
			 const struct build_info *info)
{
	const struct btree *t = &c->trees[b->tree];
	char where[160], what[300] = "", more[120] = "";

	if (t->ct)
		snprintf(where, sizeof(where), "%s %s at %.12s", t->name, t->branch, b->commit);
	else
		where_text(c, t, b->commit, where, sizeof(where));
	if (f->part)
		snprintf(what, sizeof(what), ": patch %d", f->part);
	if (f->empty)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s has no diff",
			 what[0] ? "" : ": a mail");
	else if (f->file[0]) {
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s%s", what[0] ? ", " : ": ",
			 f->file);
		if (f->missing)
			snprintf(what + strlen(what), sizeof(what) - strlen(what), " is not in the tree");
		else if (f->hunk)
			snprintf(what + strlen(what), sizeof(what) - strlen(what), " hunk %d (line %ld)",
				 f->hunk, f->line);
		if (f->conflict)
			snprintf(what + strlen(what), sizeof(what) - strlen(what),
				 ", a 3-way merge conflicts");
	}
	if (bc_missing)
		snprintf(more, sizeof(more), "; its base-commit %.12s is in no tree",
			 info->base_commit);
	else if (info->prerequisites)
		snprintf(more, sizeof(more), "; it needs %d prerequisite patch%s",
			 info->prerequisites, info->prerequisites == 1 ? "" : "es");
	set_note(res, "does not apply to %s%s%s", where, what, more);
}

/* ---- sync ------------------------------------------------------------------------ */

int build_sync(const struct config *cfg, char *err, size_t errlen)
{
	struct bctx *c = calloc(1, sizeof(*c));
	int ret = -1;

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (ctx_init(c, cfg, 0, err, errlen) == 0 && sandbox_check(err, errlen) == 0 &&
	    sandbox_mkdir_owned(c->work) == 0)
		ret = tree_sync(c, 0, err, errlen);
	free(c);
	return ret;
}

/* ---- the series ---------------------------------------------------------------- */

struct job {
	struct bctx c;
	struct files f;
	struct run_state after, base;
	struct srcfiles sa, sb;
	struct diag_added added;
	struct diag_list fresh[DIAG__TOOLS];
	struct tool_versions v;
	char base_commit[41], head[41];
	struct cgroup cg;
	int have_cg;
	struct build_result *res;
	unsigned long long obj_start;	/* bytes of obj when the series started */
};

static void job_release(struct job *j)
{
	size_t t;

	for (t = 0; t < DIAG__TOOLS; t++) {
		diag_list_release(&j->after.list[t]);
		diag_list_release(&j->base.list[t]);
		diag_list_release(&j->fresh[t]);
	}
	srcfiles_release(&j->sa);
	srcfiles_release(&j->sb);
	diag_added_release(&j->added);
	files_release(&j->f);
	if (j->have_cg)
		cgroup_remove(&j->cg);
}

/* The base's results for tool t: the cache's, or run on what is missing. */
static int base_results(struct job *j, enum diag_tool tool)
{
	struct bctx *c = &j->c;
	struct run_state *s = &j->base;
	int missing[BUILD_MAX_OBJECTS] = { 0 };
	size_t i, k, nmiss = 0;
	double t0 = sandbox_now();
	int ret = 0;

	for (i = 0; i < j->f.nt; i++) {
		struct target *t = &j->f.t[i];

		if (!t->in_base)
			continue;
		if (tool == DIAG_COCCI) {
			/* per script that reported on the file after the series */
			for (k = 0; k < j->after.list[DIAG_COCCI].n; k++) {
				const struct diag *d = &j->after.list[DIAG_COCCI].d[k];

				if (strcmp(d->file, t->path))
					continue;
				if (cache_get(c, j->base_commit, j->v.gcc, tool, t->path, d->script,
					      &s->list[tool]))
					j->res->base_cached++;
				else
					missing[i] = 1;
			}
		} else if (cache_get(c, j->base_commit, j->v.gcc, tool, t->path, NULL,
				     &s->list[tool])) {
			j->res->base_cached++;
		} else {
			missing[i] = 1;
		}
		nmiss += missing[i];
	}
	if (!nmiss)
		goto out;
	{
		/* only the missing ones run: the others' in_base off meanwhile */
		int keep[BUILD_MAX_OBJECTS];
		struct diag_list got, cached = s->list[tool];

		for (i = 0; i < j->f.nt; i++) {
			keep[i] = j->f.t[i].in_base;
			j->f.t[i].in_base = keep[i] && missing[i];
		}
		memset(&s->list[tool], 0, sizeof(s->list[tool]));
		if (tool == DIAG_GCC) {
			ret = run_gcc(s);
		} else if (tool == DIAG_SPARSE) {
			/* C=2 makes the objects it lacks itself: the base's
			 * were built (or are now) with the same flags */
			for (i = 0; i < j->f.nt; i++)
				j->f.t[i].built = j->f.t[i].in_base;
			ret = run_sparse(s);
		} else if (tool == DIAG_ANALYZER) {
			ret = run_analyzer(s);
		} else {
			ret = run_cocci(s, &j->after.list[DIAG_COCCI]);
		}
		got = s->list[tool];
		s->list[tool] = cached;
		if (!ret && !s->stop && s->ran[tool]) {
			for (i = 0; i < j->f.nt; i++) {
				if (!missing[i])
					continue;
				if (tool == DIAG_COCCI) {
					for (k = 0; k < j->after.list[DIAG_COCCI].n; k++) {
						const struct diag *d = &j->after.list[DIAG_COCCI].d[k];

						if (!strcmp(d->file, j->f.t[i].path))
							cache_put(c, j->base_commit, j->v.gcc, tool,
								  j->f.t[i].path, d->script, &got);
					}
				} else {
					cache_put(c, j->base_commit, j->v.gcc, tool, j->f.t[i].path,
						  NULL, &got);
				}
			}
		}
		for (i = 0; i < got.n && !ret; i++)
			ret = diag_list_add(&s->list[tool], &got.d[i]);
		diag_list_release(&got);
		for (i = 0; i < j->f.nt; i++)
			j->f.t[i].in_base = keep[i];
	}
out:
	j->res->base_s[tool] += sandbox_now() - t0;
	return ret;
}

static const char *const tool_words[DIAG__TOOLS] = {
	[DIAG_GCC] = "W=1", [DIAG_SPARSE] = "sparse", [DIAG_ANALYZER] = "-fanalyzer",
	[DIAG_COCCI] = "coccinelle",
};

/* "allmodconfig, gcc 12.2.0, W=1, sparse, -fanalyzer, coccinelle" */
static void tools_text(const struct job *j, char *out, size_t n)
{
	size_t t, k;

	k = (size_t)snprintf(out, n, "%s, gcc %s", base_name(config_target(j->c.cfg)),
			     j->v.gcc[0] ? j->v.gcc : "?");
	for (t = 0; t < DIAG__TOOLS && k < n; t++)
		if (j->after.ran[t])
			k += (size_t)snprintf(out + k, n - k, ", %s", tool_words[t]);
}

static void add_details(struct job *j, const struct base_pick *b, const char *where,
			int bc_missing, const struct build_info *info)
{
	struct bctx *c = &j->c;
	const struct btree *t = &c->trees[b->tree];
	struct build_result *res = j->res;
	struct sbuf sb;
	size_t i, k;

	sbuf_init(&sb, BUILD_DETAILS_MAX);
	det(&sb, "Compile test: the series was applied with git am -3 to %s%s", where,
	    !strcmp(b->why, "base-commit") ? " (its base-commit)" :
	    !strcmp(b->why, "subject") ? " (the tree its subject names)" :
	    !strcmp(b->why, "list") ? " (its list's tree)" : " (the newest tree)");
	det(&sb, ".\n");
	if (bc_missing)
		det(&sb, "  Its base-commit %.40s is in no tree the bot fetches (fetched again).\n",
		    info->base_commit);
	if (t->ct)
		det(&sb, "  tree: %s, branch %s, commit %s\n",
		    !strncasecmp(t->url, "file://", 7) ? "a local repository" : t->url,
		    t->branch, b->commit);
	else
		det(&sb, "  tree: the bot's [build] tree, imported as commit %s\n", b->commit);
	det(&sb, "  configuration: %s, CONFIG_WERROR off\n", config_target(c->cfg));
	det(&sb, "  tools: gcc %s (W=1)", j->v.gcc[0] ? j->v.gcc : "?");
	if (tool_wanted(c->cfg, DIAG_SPARSE))
		det(&sb, ", sparse %s (C=2)%s", j->v.sparse[0] ? j->v.sparse : "?",
		    j->after.ran[DIAG_SPARSE] ? "" : " not run");
	if (tool_wanted(c->cfg, DIAG_ANALYZER))
		det(&sb, ", gcc -fanalyzer%s", j->after.ran[DIAG_ANALYZER] ? "" : " not run");
	if (tool_wanted(c->cfg, DIAG_COCCI))
		det(&sb, ", coccinelle %s (%zu scripts of scripts/coccinelle)%s",
		    j->v.spatch[0] ? j->v.spatch : "?", tools_cocci_count(),
		    j->after.ran[DIAG_COCCI] ? "" : " not run");
	det(&sb, "\n");
	for (k = 0; k < DIAG__TOOLS; k++)
		if (j->after.why[k][0])
			det(&sb, "  %s: %s\n", diag_tool_name((enum diag_tool)k), j->after.why[k]);
	det(&sb, "  to reproduce, in the tree at %.12s with the series applied (git am -3):\n",
	    b->commit);
	if (strchr(config_target(c->cfg), '/'))
		det(&sb, "    cp CONFIG obj/.config && make O=obj olddefconfig\n");
	else
		det(&sb, "    make O=obj %s\n", config_target(c->cfg));
	det(&sb, "    scripts/config --file obj/.config -d WERROR && make O=obj olddefconfig "
	    "modules_prepare\n");
	{
		char objs[600] = "", mods[400] = "";
		size_t ko = 0, km = 0;

		for (i = 0; i < j->f.nt; i++) {
			const struct target *tg = &j->f.t[i];

			if (!tg->in_after)
				continue;
			if (ko + strlen(tg->path) + 2 < sizeof(objs))
				ko += (size_t)snprintf(objs + ko, sizeof(objs) - ko, " %.*s.o",
						       (int)(strlen(tg->path) - 2), tg->path);
			if (tg->module[0] && !strstr(mods, tg->module) &&
			    km + strlen(tg->module) + 2 < sizeof(mods))
				km += (size_t)snprintf(mods + km, sizeof(mods) - km, " %s", tg->module);
		}
		det(&sb, "    make O=obj W=1%s%s\n", objs, mods);
		if (j->after.ran[DIAG_SPARSE])
			det(&sb, "    make O=obj W=1 C=2%s\n", objs);
		if (j->after.ran[DIAG_ANALYZER]) {
			char sfiles[600] = "";
			size_t ks = 0;

			for (i = 0; i < j->f.nt; i++)
				if (j->f.t[i].in_after && ks + strlen(j->f.t[i].path) + 2 < sizeof(sfiles))
					ks += (size_t)snprintf(sfiles + ks, sizeof(sfiles) - ks, " %.*s.s",
							       (int)(strlen(j->f.t[i].path) - 2),
							       j->f.t[i].path);
			det(&sb, "    make O=obj W=1 KCFLAGS=-fanalyzer%s\n", sfiles);
		}
		if (j->after.ran[DIAG_COCCI])
			det(&sb, "    spatch -D report --no-show-diff --very-quiet --cocci-file "
			    "scripts/coccinelle/SCRIPT.cocci FILE.c, for SCRIPT in %s ...\n",
			    tools_cocci_scripts[0]);
	}
	if (res->before)
		det(&sb, "  %zu diagnostic%s in the files it touches %s there before the series "
		    "(not counted against it).\n", res->before, res->before == 1 ? "" : "s",
		    res->before == 1 ? "was" : "were");
	if (!sb.err && sb.len)
		res->details = strdup(sb.buf);
	sbuf_release(&sb);
}

int build_series(const struct config *cfg, int slot, const struct build_patch *p, size_t n,
		 const struct build_info *info, struct build_result *res)
{
	struct job *j = calloc(1, sizeof(*j));
	struct base_pick bases[BUILD_MAX_CANDIDATES];
	struct am_failure first_fail;
	char err[BUILD_NOTE_MAX], where[200], tools[200], path[BUILD_PATH_MAX + 32];
	const char *cgwhat = NULL;
	size_t nb = 0, i, t, chosen = 0, nerr = 0, nwarn = 0, outside = 0, outside_err = 0;
	double t0 = sandbox_now(), t1;
	int ret = 0, lockfd = -1, applied = 0, bc_missing = 0, r;
	struct bctx *c;

	memset(res, 0, sizeof(*res));
	if (!j)
		return -1;
	j->res = res;
	c = &j->c;
	if (ctx_init(c, cfg, slot, err, sizeof(err))) {
		set_note(res, "%s", err);
		goto out;
	}
	if (!n || n > BUILD_MAX_PATCHES) {
		set_note(res, "no patches to apply");
		goto out;
	}
	if (files_of(p, n, &j->f)) {
		ret = -1;
		goto out;
	}
	if (j->f.symlink) {
		/* the compiler would follow it out of the tree */
		set_note(res, "the series adds a symbolic link");
		goto out;
	}
	{
		int any = 0;

		for (i = 0; i < j->f.ntouched && !any; i++) {
			size_t l = strlen(j->f.touched[i]);

			any = l > 2 && (!strcmp(j->f.touched[i] + l - 2, ".c") ||
					!strcmp(j->f.touched[i] + l - 2, ".h"));
		}
		if (!any) {
			set_note(res, "the series changes no C file");
			goto out;
		}
	}
	/* no total bound, no stage (issue 33 item 4) */
	if (cgroup_check(&cgwhat, err, sizeof(err))) {
		set_note(res, "not run: no cgroup can bound the build (see reviewbot(8))");
		log_event(LOG_ERR, "compile-refused", "error", err, NULL);
		goto out;
	}
	if (sandbox_check(err, sizeof(err))) {
		set_note(res, "%s", err);
		goto out;
	}
	if (sandbox_mkdir_owned(c->work)) {
		set_note(res, "the work folder cannot be made");
		goto out;
	}
	snprintf(path, sizeof(path), "%s.lock", c->slotdir);
	lockfd = lock_file(path, t0 + (cfg->build_timeout > 0 ? cfg->build_timeout : 900));
	if (lockfd < 0) {
		set_note(res, "another compile test held the worker's tree too long");
		goto out;
	}
	res->wait_s = sandbox_now() - t0;
	{
		char name[64];

		snprintf(name, sizeof(name), "rb-stage-%ld-%d", (long)getpid(), slot);
		if (cgroup_make(&j->cg, name,
				(unsigned long long)(cfg->build_max_memory_mb > 0 ?
						     cfg->build_max_memory_mb : 4096) << 20,
				(unsigned long)(cfg->build_max_tasks > 0 ? cfg->build_max_tasks : 1024),
				err, sizeof(err))) {
			set_note(res, "not run: the build's cgroup could not be made");
			log_event(LOG_ERR, "compile-refused", "error", err, NULL);
			goto out;
		}
		j->have_cg = 1;
		c->cg = &j->cg;
	}
	if (disk_full(c->work)) {
		set_note(res, "the build machine's disk is full");
		goto out;
	}

	/* the trees: fetched when due, [build] tree imported once */
	t1 = sandbox_now();
	{
		int have = 0;

		if (tree_sync(c, 0, err, sizeof(err)))
			log_event(LOG_ERR, "tree-sync-failed", "error", err, NULL);
		for (i = 0; i < c->ntrees; i++)
			have |= c->trees[i].tip[0] != '\0';
		if (!have) {
			/* its words name the bot's folders: the log's only */
			set_note(res, "no tree could be fetched or read");
			goto out;
		}
	}
	res->sync_s = sandbox_now() - t1;
	t1 = sandbox_now();
	if (tree_slot_ready(c, err, sizeof(err))) {
		set_note(res, "the worker's tree could not be made");
		log_event(LOG_ERR, "compile-failed", "error", err, NULL);
		goto out;
	}
	tools_versions(c, &j->v);
	if (!j->v.gcc[0]) {
		set_note(res, "not run: gcc cannot be run in the sandbox");
		goto out;
	}
	res->prepare_s += sandbox_now() - t1;
	nb = pick_bases(c, info, bases, &bc_missing);
	if (!nb) {
		set_note(res, "no tree to apply it to (none could be fetched)");
		goto out;
	}

	/* git am -3 on each base in turn, until one takes it */
	t1 = sandbox_now();
	memset(&first_fail, 0, sizeof(first_fail));
	for (i = 0; i < nb && !applied; i++) {
		struct am_failure f;

		if (tree_checkout(c, bases[i].commit)) {
			set_note(res, "the tree could not be checked out at %.12s", bases[i].commit);
			goto out;
		}
		r = tree_am(c, p, n, j->head, &f);
		if (r < 0) {
			set_note(res, "git am could not run");
			goto reset;
		}
		if (r == 0) {
			applied = 1;
			chosen = i;
		} else if (i == 0) {
			first_fail = f;
		}
	}
	res->apply_s = sandbox_now() - t1;
	if (!applied) {
		failure_note(res, c, &bases[0], &first_fail, bc_missing, info);
		goto reset;
	}
	snprintf(j->base_commit, sizeof(j->base_commit), "%s", bases[chosen].commit);
	where_text(c, &c->trees[bases[chosen].tree], j->base_commit, where, sizeof(where));
	{
		const char *args[] = { "diff", "-U0", "--no-color", "--no-ext-diff",
				       "--no-renames", j->base_commit, j->head, NULL };
		struct sbuf out;

		sbuf_init(&out, BUILD_MAX_OUTPUT);
		if (build_git(c, 0, 0, &out, args) == RUN_OK)
			diag_added_parse(out.buf ? out.buf : "", out.len, &j->added);
		sbuf_release(&out);
	}
	/* what it builds, read in the patched tree */
	add_header_users(c, &j->f);
	for (i = 0; i < j->f.nt; i++) {
		j->f.t[i].in_after = file_in_src(c, j->f.t[i].path);
		module_of(c, j->f.t[i].path, j->f.t[i].module, sizeof(j->f.t[i].module));
	}
	{
		int any = 0;

		for (i = 0; i < j->f.nt; i++)
			any |= j->f.t[i].in_after;
		if (!any) {
			/* a header alone is not built: which objects it
			 * concerns is more than a series' worth */
			set_note(res, "nothing built: the series changes no .c file (a header "
				 "under include/ is not built alone)");
			goto reset;
		}
	}
	/* the object folder, prepared on the base */
	t1 = sandbox_now();
	if (tree_checkout(c, j->base_commit) ||
	    obj_ready(c, j->base_commit, j->v.gcc, err, sizeof(err))) {
		set_note(res, "the test tree could not be prepared (%s)", err[0] ? err : "checkout");
		goto reset;
	}
	for (i = 0; i < j->f.nt; i++)
		j->f.t[i].in_base = file_in_src(c, j->f.t[i].path);
	{
		const char *const cp[] = { "cp", "-a", "--", BUILD_IN_SLOT "/obj.base",
					   BUILD_IN_SLOT "/obj", NULL };
		unsigned long long room = (unsigned long long)(cfg->build_max_disk_mb > 0 ?
							       cfg->build_max_disk_mb : 4096) << 20;
		struct sbuf out;

		sbuf_init(&out, 1u << 16);
		if (sandbox_rmtree(c->obj) || build_run(c, SEE_SLOT, cp, "/", &out)) {
			sbuf_release(&out);
			set_note(res, "the object folder could not be copied");
			goto reset;
		}
		sbuf_release(&out);
		j->obj_start = sandbox_usage(c->obj, 0, NULL);
		c->quota = j->obj_start + room;
		c->quota_base = sandbox_usage(c->objbase, 0, NULL) + room;
	}
	if (tree_checkout(c, j->head)) {
		set_note(res, "the patched tree could not be checked out");
		goto reset;
	}
	res->prepare_s += sandbox_now() - t1;

	/* after the series: every tool */
	j->after.c = c;
	j->after.after = 1;
	j->after.f = &j->f;
	t1 = sandbox_now();
	ret = run_gcc(&j->after);
	res->after_s[DIAG_GCC] = sandbox_now() - t1;
	for (t = DIAG_SPARSE; t < DIAG__TOOLS && !ret && !j->after.stop; t++) {
		if (!tool_wanted(cfg, (enum diag_tool)t))
			continue;
		t1 = sandbox_now();
		ret = t == DIAG_SPARSE ? run_sparse(&j->after) :
		      t == DIAG_ANALYZER ? run_analyzer(&j->after) : run_cocci(&j->after, NULL);
		res->after_s[t] = sandbox_now() - t1;
	}
	if (ret)
		goto reset;
	if (j->after.stop) {
		set_note(res, "%s", j->after.stop_why);
		goto reset;
	}
	if (!j->after.ran[DIAG_GCC]) {
		set_note(res, "make could not start");
		goto reset;
	}
	for (t = 0; t < DIAG__TOOLS; t++)
		fill_functions(c, &j->after.list[t], &j->sa);
	for (i = 0; i < j->f.nt; i++) {
		j->f.t[i].built_after = j->f.t[i].in_after && j->f.t[i].built;
		res->objects += j->f.t[i].built_after;
	}

	/* before it: only what a tool said after, and only once per base */
	if (tree_checkout(c, j->base_commit)) {
		set_note(res, "the tree could not be checked out again");
		goto reset;
	}
	j->base.c = c;
	j->base.after = 0;
	j->base.f = &j->f;
	for (t = 0; t < DIAG__TOOLS && !ret && !j->base.stop; t++)
		if (j->after.list[t].n)
			ret = base_results(j, (enum diag_tool)t);
	if (ret)
		goto reset;
	if (j->base.stop) {
		set_note(res, "%s", j->base.stop_why);
		goto reset;
	}
	for (t = 0; t < DIAG__TOOLS; t++) {
		size_t kept = 0;

		fill_functions(c, &j->base.list[t], &j->sb);
		if (diag_compare(&j->base.list[t], &j->after.list[t], &j->added, &j->fresh[t],
				 &kept)) {
			ret = -1;
			goto reset;
		}
		res->before += kept;
	}

	/* the new ones: quoted when they are about the series' files */
	res->quoted = !j->f.build_code;
	for (t = 0; t < DIAG__TOOLS && !ret; t++) {
		for (i = 0; i < j->fresh[t].n && !ret; i++) {
			const struct diag *d = &j->fresh[t].d[i];
			int part = touched_part(&j->f, d->file);

			if (!part) {
				outside++;
				outside_err += d->error;
				continue;
			}
			ret = add_issue(res, d, diag_type(d, &j->added), part, res->quoted,
					src_get(c, &j->sa, d->file));
		}
	}
	if (ret)
		goto reset;
	for (i = 0; i < res->nissues; i++) {
		if (res->issues[i].error)
			nerr++;
		else
			nwarn++;
	}
	{
		int unbuilt = 0;

		for (i = 0; i < j->f.nt; i++)
			unbuilt |= j->f.t[i].in_after && !j->f.t[i].built_after;
		if (unbuilt && !nerr && !outside_err) {
			/* make failed and no new diagnostic says why: not the
			 * author's fault as far as we can tell */
			set_note(res, "make failed without a compiler diagnostic (%s)", where);
			goto reset;
		}
	}
	tools_text(j, tools, sizeof(tools));
	if (bc_missing && strlen(tools) + 40 < sizeof(tools))
		snprintf(tools + strlen(tools), sizeof(tools) - strlen(tools),
			 "; its base-commit is in no tree");
	res->verdict = nerr || nwarn || outside_err ? BUILD_CONCERN : BUILD_OK;
	if (res->verdict == BUILD_OK)
		set_note(res, "on %s (%s)", where, tools);
	else if (nerr && nwarn)
		set_note(res, "%zu new error%s, %zu new warning%s on %s (%s)", nerr,
			 nerr == 1 ? "" : "s", nwarn, nwarn == 1 ? "" : "s", where, tools);
	else if (nerr || nwarn)
		set_note(res, "%zu new %s%s on %s (%s)", nerr + nwarn, nerr ? "error" : "warning",
			 nerr + nwarn == 1 ? "" : "s", where, tools);
	else
		set_note(res, "%zu new error%s in files the series does not touch, on %s (%s)",
			 outside_err, outside_err == 1 ? "" : "s", where, tools);
	add_details(j, &bases[chosen], where, bc_missing, info);
	if (outside && res->details) {
		char more[160];
		size_t dl = strlen(res->details);
		char *nd;

		snprintf(more, sizeof(more), "  %zu new diagnostic%s in files the series does not "
			 "touch (not quoted).\n", outside, outside == 1 ? "" : "s");
		nd = realloc(res->details, dl + strlen(more) + 1);
		if (nd) {
			memcpy(nd + dl, more, strlen(more) + 1);
			res->details = nd;
		}
	}
	if (!res->quoted && res->details) {
		static const char why[] = "  The series changes the kernel's build files, which "
					  "could print anything: its diagnostics are counted, not "
					  "quoted.\n";
		size_t dl = strlen(res->details);
		char *nd = realloc(res->details, dl + sizeof(why));

		if (nd) {
			memcpy(nd + dl, why, sizeof(why));
			res->details = nd;
		}
	}
	if (cgroup_oom(&j->cg)) {
		/* the kernel killed something for the bound: nothing says the
		 * result is whole */
		res->verdict = BUILD_NOT_CHECKED;
		set_note(res, "the build ran out of memory ([build] max_memory_mb)");
		for (i = 0; i < res->nissues; i++) {
			free(res->issues[i].file);
			free(res->issues[i].message);
			free(res->issues[i].line_text);
		}
		res->nissues = 0;
	}
reset:
	/* back to the base, whatever happened; a timeout leaves a little
	 * time for it */
	if (c->deadline - sandbox_now() < 120)
		c->deadline = sandbox_now() + 120;
	if (c->quota_hit && res->verdict != BUILD_NOT_CHECKED) {
		res->verdict = BUILD_NOT_CHECKED;
		set_note(res, "the build wrote more than [build] max_disk_mb");
	}
	/* the object folder stays until the next series replaces it (what
	 * the series' build left can be looked at; none of it is used) */
	if (c->quota) {
		unsigned long long now = sandbox_usage(c->obj, 0, NULL);

		res->disk = now > j->obj_start ? now - j->obj_start : 0;
	}
	sandbox_rmtree(c->mail);
	if (j->base_commit[0])
		tree_checkout(c, j->base_commit);
	else if (nb)
		tree_checkout(c, bases[0].commit);
	cache_trim(c);
out:
	if (res->verdict == BUILD_NOT_CHECKED && !res->note[0])
		set_note(res, "the compile test failed");
	if (res->verdict == BUILD_NOT_CHECKED) {
		/* nothing found counts when the result is not whole */
		for (i = 0; i < res->nissues; i++) {
			free(res->issues[i].file);
			free(res->issues[i].message);
			free(res->issues[i].line_text);
		}
		free(res->issues);
		res->issues = NULL;
		res->nissues = 0;
	}
	if (j->have_cg)
		res->peak_memory = cgroup_sample(&j->cg);
	res->sandboxes = c->sandboxes;
	res->total_s = sandbox_now() - t0;
	if (lockfd >= 0)
		close(lockfd);
	job_release(j);
	free(j);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * One control group per stage, with a total memory and task limit: see
 * cgroup.h for where the group comes from and why.
 */
#include "cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../checker/banned.h"

#define CG_LEAF		"reviewbot"	/* v2: where the bot's own processes live */
#define CG_LINE_MAX	4096
#define CG_MAX_KILL_ROUNDS	100	/* 10 ms apart: a second to empty a group */

/* Where the stages' groups are made, found by cgroup_check(). */
static struct {
	enum cgroup_kind kind;
	char base[CGROUP_PATH_MAX * 2];		/* v2 parent; v1 memory parent */
	char pids_base[CGROUP_PATH_MAX * 2];	/* v1 pids parent */
} where;

/* ---- small file helpers (no stdio: cgroup_attach runs after fork) ---- */

static int write_str(const char *path, const char *s)
{
	size_t n = strlen(s);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, s, n);
	if (close(fd) || w != (ssize_t)n)
		return -1;
	return 0;
}

/* The file's first bytes, NUL-terminated (at most n - 1). */
static int read_str(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	buf[0] = '\0';
	if (fd < 0)
		return -1;
	r = read(fd, buf, n - 1);
	close(fd);
	if (r < 0)
		return -1;
	buf[r] = '\0';
	return 0;
}

static int join(char *out, size_t n, const char *a, const char *b)
{
	int w = snprintf(out, n, "%s/%s", a, b);

	return w < 0 || (size_t)w >= n ? -1 : 0;
}

/* word is one of the words of list (separated by spaces, commas or newlines) */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	while (*list) {
		size_t k;

		list += strspn(list, " ,\n\t");
		k = strcspn(list, " ,\n\t");
		if (k == n && !strncmp(list, word, n))
			return 1;
		list += k;
	}
	return 0;
}

static int file_has_words(const char *dir, const char *file, const char *w1, const char *w2)
{
	char path[CGROUP_PATH_MAX * 3], buf[1024];

	if (join(path, sizeof(path), dir, file) || read_str(path, buf, sizeof(buf)))
		return 0;
	return has_word(buf, w1) && (!w2 || has_word(buf, w2));
}

/* ---- where we are --------------------------------------------------------- */

/*
 * The mount point of a cgroup file system from /proc/self/mountinfo: v2
 * (fstype cgroup2) when ctrl is NULL, else the v1 hierarchy whose super
 * options name ctrl.  0 or -1.
 */
static int find_mount(const char *ctrl, char *out, size_t n)
{
	char line[CG_LINE_MAX];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		char *field[6], *p = line, *dash, *fstype, *opts;
		size_t i;

		for (i = 0; i < 6; i++) {
			field[i] = strsep(&p, " ");
			if (!field[i])
				break;
		}
		if (i < 6 || !p)
			continue;
		dash = strstr(p, "- ");
		if (!dash)
			continue;
		p = dash + 2;
		fstype = strsep(&p, " ");
		strsep(&p, " ");	/* the source */
		opts = p ? strsep(&p, " \n") : NULL;
		if (!fstype || !opts)
			continue;
		if (ctrl ? strcmp(fstype, "cgroup") || !has_word(opts, ctrl)
			 : strcmp(fstype, "cgroup2"))
			continue;
		/* a mount point with a space is written \040: none of ours */
		if (strchr(field[4], '\\') || (size_t)snprintf(out, n, "%s", field[4]) >= n)
			continue;
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* Our group's path in /proc/self/cgroup: v2's "0::PATH" when ctrl is
 * NULL, else the v1 line whose controllers name ctrl. */
static int self_path(const char *ctrl, char *out, size_t n)
{
	char line[CG_LINE_MAX];
	FILE *f = fopen("/proc/self/cgroup", "re");
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		char *p = line, *id = strsep(&p, ":"), *ctrls = strsep(&p, ":");
		size_t len;

		if (!id || !ctrls || !p)
			continue;
		if (ctrl ? !has_word(ctrls, ctrl) : strcmp(id, "0") || *ctrls)
			continue;
		len = strcspn(p, "\n");
		p[len] = '\0';
		if (p[0] != '/' || strstr(p, "/..") || (size_t)snprintf(out, n, "%s", p) >= n)
			continue;
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* ---- cgroup v2 ------------------------------------------------------------- */

/* Moves every process of group dir into its child leaf. */
static int move_all(const char *dir, const char *leaf)
{
	char from[CGROUP_PATH_MAX + 32], to[CGROUP_PATH_MAX + 64];
	char line[64];
	FILE *f;
	int ret = 0;

	if (join(from, sizeof(from), dir, "cgroup.procs") ||
	    snprintf(to, sizeof(to), "%s/%s/cgroup.procs", dir, leaf) >= (int)sizeof(to))
		return -1;
	f = fopen(from, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		/* a process that ended meanwhile is no error */
		if (write_str(to, line) && errno != ESRCH)
			ret = -1;
	}
	fclose(f);
	return ret;
}

/*
 * cgroup v2 with memory and pids ours to hand down: where the stages'
 * groups go, into where.base.  When our group still holds processes (a
 * group with processes cannot give controllers to children), they move
 * into a leaf CG_LEAF first.
 */
static int v2_setup(char *err, size_t errlen)
{
	char mnt[CGROUP_PATH_MAX], path[CGROUP_PATH_MAX], dir[CGROUP_PATH_MAX * 2];
	char parent[CGROUP_PATH_MAX * 2], file[CGROUP_PATH_MAX * 2 + 32];
	char *slash;
	int tries;

	if (find_mount(NULL, mnt, sizeof(mnt)) || self_path(NULL, path, sizeof(path))) {
		snprintf(err, errlen, "no cgroup v2 hierarchy");
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s%s", mnt, strcmp(path, "/") ? path : "");
	if (!file_has_words(dir, "cgroup.controllers", "memory", "pids")) {
		snprintf(err, errlen, "cgroup v2 at %.200s has no memory and pids controllers "
			 "for the bot", dir);
		return -1;
	}
	/* already in our leaf: the stages go beside it */
	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (slash && !strcmp(slash + 1, CG_LEAF) && slash > parent + strlen(mnt)) {
		*slash = '\0';
		if (file_has_words(parent, "cgroup.subtree_control", "memory", "pids") &&
		    !access(parent, W_OK)) {
			snprintf(where.base, sizeof(where.base), "%s", parent);
			return 0;
		}
	}
	if (join(file, sizeof(file), dir, "cgroup.subtree_control") || access(dir, W_OK) ||
	    access(file, W_OK)) {
		snprintf(err, errlen, "the bot's cgroup v2 group (%.200s) is not delegated to "
			 "it", dir);
		return -1;
	}
	if (file_has_words(dir, "cgroup.subtree_control", "memory", "pids")) {
		snprintf(where.base, sizeof(where.base), "%s", dir);
		return 0;
	}
	if (!strcmp(path, "/")) {
		/* the root group takes no leaf: hand the controllers down */
		if (write_str(file, "+memory +pids")) {
			snprintf(err, errlen, "cannot enable memory and pids in %.200s: %s", file,
				 strerror(errno));
			return -1;
		}
		snprintf(where.base, sizeof(where.base), "%s", dir);
		return 0;
	}
	if (join(parent, sizeof(parent), dir, CG_LEAF) ||
	    (mkdir(parent, 0755) && errno != EEXIST)) {
		snprintf(err, errlen, "cannot make %.200s: %s", parent, strerror(errno));
		return -1;
	}
	/* a process forked meanwhile lands in dir again: a few rounds */
	for (tries = 0; tries < 20; tries++) {
		if (move_all(dir, CG_LEAF) == 0 && write_str(file, "+memory +pids") == 0) {
			snprintf(where.base, sizeof(where.base), "%s", dir);
			return 0;
		}
		usleep(10 * 1000);
	}
	snprintf(err, errlen, "cannot hand memory and pids down in %.200s: %s", dir,
		 strerror(errno));
	return -1;
}

/* ---- cgroup v1 ------------------------------------------------------------- */

static int v1_dir(const char *ctrl, char *out, size_t n)
{
	char mnt[CGROUP_PATH_MAX], path[CGROUP_PATH_MAX];

	if (find_mount(ctrl, mnt, sizeof(mnt)) || self_path(ctrl, path, sizeof(path)))
		return -1;
	return (size_t)snprintf(out, n, "%s%s", mnt, strcmp(path, "/") ? path : "") < n ? 0 : -1;
}

static int v1_setup(char *err, size_t errlen)
{
	char mem[CGROUP_PATH_MAX], pids[CGROUP_PATH_MAX];

	if (v1_dir("memory", mem, sizeof(mem)) || v1_dir("pids", pids, sizeof(pids))) {
		snprintf(err, errlen, "no cgroup v1 memory and pids hierarchies");
		return -1;
	}
	if (access(mem, W_OK) || access(pids, W_OK)) {
		snprintf(err, errlen, "cgroup v1's groups (%.200s) are not writable by the bot "
			 "(they are for root)", mem);
		return -1;
	}
	snprintf(where.base, sizeof(where.base), "%s", mem);
	snprintf(where.pids_base, sizeof(where.pids_base), "%s", pids);
	return 0;
}

int cgroup_check(const char **what, char *err, size_t errlen)
{
	char e2[400] = "", e1[400] = "";

	if (where.kind == CGROUP_V2 && !access(where.base, W_OK)) {
		*what = "cgroup v2 (memory, pids)";
		return 0;
	}
	if (v2_setup(e2, sizeof(e2)) == 0) {
		where.kind = CGROUP_V2;
		*what = "cgroup v2 (memory, pids)";
		return 0;
	}
	if (v1_setup(e1, sizeof(e1)) == 0) {
		where.kind = CGROUP_V1;
		*what = "cgroup v1 (memory, pids)";
		return 0;
	}
	where.kind = CGROUP_NONE;
	snprintf(err, errlen, "the compile stage runs only in a cgroup that bounds its memory "
		 "and processes, and the bot may make none here (%s; %s): give it cgroup v2 "
		 "delegation (Delegate=yes in reviewbot.service, or systemd-run --user --scope "
		 "-p Delegate=yes), or run it as root for cgroup v1", e2, e1);
	return -1;
}

/* ---- one stage's group ----------------------------------------------------- */

static int set_value(const char *dir, const char *file, unsigned long long v)
{
	char path[CGROUP_PATH_MAX * 3], num[32];

	snprintf(num, sizeof(num), "%llu", v);
	return join(path, sizeof(path), dir, file) ? -1 : write_str(path, num);
}

int cgroup_make(struct cgroup *cg, const char *name, unsigned long long memory,
		unsigned long tasks, char *err, size_t errlen)
{
	const char *what;
	const char *p;

	memset(cg, 0, sizeof(*cg));
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')) {
			snprintf(err, errlen, "bad cgroup name");
			return -1;
		}
	if (cgroup_check(&what, err, errlen))
		return -1;
	if (join(cg->dir, sizeof(cg->dir), where.base, name) ||
	    join(cg->procs, sizeof(cg->procs), cg->dir, "cgroup.procs")) {
		snprintf(err, errlen, "cgroup path too long");
		return -1;
	}
	/* one left by a process that died with it: empty it first */
	cg->kind = where.kind;
	if (where.kind == CGROUP_V1 &&
	    (join(cg->pids_dir, sizeof(cg->pids_dir), where.pids_base, name) ||
	     join(cg->pids_procs, sizeof(cg->pids_procs), cg->pids_dir, "cgroup.procs"))) {
		snprintf(err, errlen, "cgroup path too long");
		return -1;
	}
	cgroup_remove(cg);
	cg->kind = where.kind;
	if (mkdir(cg->dir, 0755) ||
	    (cg->kind == CGROUP_V1 && mkdir(cg->pids_dir, 0755))) {
		snprintf(err, errlen, "cannot make the stage's cgroup %.200s: %s", cg->dir,
			 strerror(errno));
		cgroup_remove(cg);
		return -1;
	}
	if (cg->kind == CGROUP_V2) {
		if (set_value(cg->dir, "memory.max", memory) ||
		    set_value(cg->dir, "pids.max", tasks))
			goto fail;
		/* no swap to spill into past the limit (absent without swap) */
		set_value(cg->dir, "memory.swap.max", 0);
	} else {
		if (set_value(cg->dir, "memory.limit_in_bytes", memory) ||
		    set_value(cg->pids_dir, "pids.max", tasks))
			goto fail;
		set_value(cg->dir, "memory.memsw.limit_in_bytes", memory);
	}
	return 0;
fail:
	snprintf(err, errlen, "cannot set the limits of the stage's cgroup %.200s: %s", cg->dir,
		 strerror(errno));
	cgroup_remove(cg);
	return -1;
}

/* The decimal pid, without stdio. */
static void pid_text(pid_t pid, char *out)
{
	char tmp[24];
	size_t n = 0, i = 0;
	unsigned long v = (unsigned long)pid;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && n < sizeof(tmp));
	while (n)
		out[i++] = tmp[--n];
	out[i] = '\0';
}

int cgroup_attach(const struct cgroup *cg, pid_t pid)
{
	char num[24];

	if (!cg || cg->kind == CGROUP_NONE)
		return -1;
	pid_text(pid, num);
	if (write_str(cg->procs, num))
		return -1;
	if (cg->kind == CGROUP_V1 && write_str(cg->pids_procs, num))
		return -1;
	return 0;
}

static unsigned long long read_u64(const char *dir, const char *file)
{
	char path[CGROUP_PATH_MAX * 3], buf[64];

	if (join(path, sizeof(path), dir, file) || read_str(path, buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 10);
}

unsigned long long cgroup_sample(struct cgroup *cg)
{
	unsigned long long v = 0;

	if (!cg || cg->kind == CGROUP_NONE)
		return 0;
	if (cg->kind == CGROUP_V2) {
		v = read_u64(cg->dir, "memory.peak");
		if (!v)
			v = read_u64(cg->dir, "memory.current");
	} else {
		v = read_u64(cg->dir, "memory.max_usage_in_bytes");
	}
	if (v > cg->peak)
		cg->peak = v;
	return cg->peak;
}

int cgroup_oom(const struct cgroup *cg)
{
	char path[CGROUP_PATH_MAX * 3], buf[2048], *p;

	if (!cg || cg->kind == CGROUP_NONE)
		return 0;
	if (join(path, sizeof(path), cg->dir,
		 cg->kind == CGROUP_V2 ? "memory.events" : "memory.oom_control") ||
	    read_str(path, buf, sizeof(buf)))
		return 0;
	p = strstr(buf, "oom_kill ");
	return p && strtoul(p + 9, NULL, 10) > 0;
}

/* SIGKILLs every process listed in procs; the number listed. */
static int kill_listed(const char *procs)
{
	char line[64];
	FILE *f = fopen(procs, "re");
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		long pid = strtol(line, NULL, 10);

		if (pid > 1 && pid != (long)getpid()) {
			kill((pid_t)pid, SIGKILL);
			n++;
		}
	}
	fclose(f);
	return n;
}

static void empty_and_remove(const char *dir, const char *procs, int v2)
{
	char kill_file[CGROUP_PATH_MAX * 3];
	int i;

	if (!dir[0])
		return;
	if (access(dir, F_OK))
		return;
	/* cgroup.kill (Linux 5.14) takes the whole group at once */
	if (v2 && !join(kill_file, sizeof(kill_file), dir, "cgroup.kill"))
		write_str(kill_file, "1");
	for (i = 0; i < CG_MAX_KILL_ROUNDS; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return;
		kill_listed(procs);
		usleep(10 * 1000);
	}
}

void cgroup_remove(struct cgroup *cg)
{
	if (!cg || cg->kind == CGROUP_NONE)
		return;
	empty_and_remove(cg->dir, cg->procs, cg->kind == CGROUP_V2);
	if (cg->kind == CGROUP_V1)
		empty_and_remove(cg->pids_dir, cg->pids_procs, 0);
	cg->kind = CGROUP_NONE;
}

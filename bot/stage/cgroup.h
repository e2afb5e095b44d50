/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgroup: the bound of one stage as a whole (issue 33 item 4).  Limits
 * per process (RLIMIT_AS, RLIMIT_FSIZE: sandbox.h) do not add up: three
 * compilers of 1.5 GiB each and an in-memory /tmp are each within them.
 * So every command of a compile stage runs in one control group made for
 * that stage, with a limit on the memory of all its processes together
 * (tmpfs pages included) and on their number; the group is emptied and
 * removed when the stage ends.
 *
 * Where the group comes from, in this order:
 *   1. cgroup v2 with the memory and pids controllers delegated to the
 *      bot: its own cgroup is writable by it (systemd's Delegate=yes in
 *      reviewbot.service, or `systemd-run --user --scope -p Delegate=yes
 *      reviewbot run` by hand).  The bot's processes move into a leaf
 *      "reviewbot" of it once (a cgroup v2 group with processes cannot
 *      hand controllers down), then each stage gets a sibling;
 *   2. cgroup v1's memory and pids hierarchies, where the bot may make
 *      groups in them (as root: the bot runs as root without [bot]
 *      user);
 *   3. none: cgroup_check() says why, and the compile stage refuses to
 *      run ("not checked"): a stage without a total bound is not run.
 *
 * No function here exits or prints.  cgroup_attach() is safe to call in
 * a child between fork() and exec() (open, write, close only).
 */
#ifndef RB_CGROUP_H
#define RB_CGROUP_H

#include <stddef.h>
#include <sys/types.h>

#define CGROUP_PATH_MAX	1024

enum cgroup_kind { CGROUP_NONE = 0, CGROUP_V2, CGROUP_V1 };

struct cgroup {
	enum cgroup_kind kind;
	char dir[CGROUP_PATH_MAX * 2 + 64];	/* v2: the group; v1: its memory group */
	char pids_dir[CGROUP_PATH_MAX * 2 + 64];	/* v1: its pids group */
	char procs[CGROUP_PATH_MAX * 2 + 96];	/* where a pid is written */
	char pids_procs[CGROUP_PATH_MAX * 2 + 96];	/* v1: the pids group's */
	unsigned long long peak;	/* bytes: the most it used, sampled */
};

/*
 * Whether a stage's group can be made here: 0 (what says how, for the
 * stage's details: "cgroup v2 (delegated)", "cgroup v1 (memory, pids)"),
 * or -1 with err saying why not and what to do.  Tried anew each call
 * (cheap: a few files read).
 */
int cgroup_check(const char **what, char *err, size_t errlen);

/*
 * Makes a fresh group named after name (letters, digits, '-'), with
 * memory (bytes, swap included where the kernel counts it) and tasks
 * limits.  0 or -1 with err.  Release with cgroup_remove().
 */
int cgroup_make(struct cgroup *cg, const char *name, unsigned long long memory,
		unsigned long tasks, char *err, size_t errlen);

/* Moves pid into the group: 0 or -1.  For a child before exec(). */
int cgroup_attach(const struct cgroup *cg, pid_t pid);

/* Samples the group's memory use into cg->peak (and returns it). */
unsigned long long cgroup_sample(struct cgroup *cg);

/* 1 when the memory limit made the kernel kill a process of the group. */
int cgroup_oom(const struct cgroup *cg);

/* Kills whatever is left in the group and removes it. */
void cgroup_remove(struct cgroup *cg);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compile stage's insides, shared by build.c (the series: apply,
 * build, compare), build_tree.c (the trees: repository, fetch, base,
 * git am) and build_tools.c (the tools' commands).  Not for outside
 * bot/stage/.
 *
 * The work folder ([build] work, sandbox_build_work()):
 *   repo.git/      the one bare repository: [tree "NAME"] fetched into
 *                  refs/trees/NAME, [build] tree imported into
 *                  refs/trees/tree (BUILD_TREE_LOCAL)
 *   repo.lock      held while the repository is written (fetch, import)
 *   trees/NAME     a tree's state: when it was fetched last, its tip
 *   cache/C/K/T/F  the base's diagnostics of tool T for file F at commit
 *                  C under configuration K (build_diag.h's lines)
 *   wN/            worker slot N ([build] workers; `run --once` is 0):
 *     lock         held while a series is in the slot
 *     git/         its own git dir (HEAD, index, the series' commits),
 *                  borrowing repo.git's objects (objects/info/alternates)
 *     src/         its work tree, checked out at a series' base and reset
 *     obj.base/    the object folder (O=) prepared for a base and a
 *                  configuration, with the base's objects built so far
 *     obj/         obj.base copied for one series, removed after it
 *     mail/        the series' mails, for git am
 *     obj.stamp    what obj.base is prepared for
 * Inside every sandbox these are always at the same place (BUILD_IN_*),
 * so what the builds write (.cmd files, diagnostics) never names the
 * host's folders and a copy of obj.base is valid for any slot's series.
 */
#ifndef RB_BUILD_INT_H
#define RB_BUILD_INT_H

#include <signal.h>
#include <stddef.h>

#include "build.h"
#include "build_diag.h"
#include "cgroup.h"
#include "sandbox.h"
#include "../../checker/sbuf.h"

#define BUILD_PATH_MAX		4096
#define BUILD_TREE_LOCAL	"tree"	/* [build] tree's name in the repository */
#define BUILD_LAYOUT		"3"	/* the work folder's layout */

#define BUILD_IN_REPO		"/w/repo"
#define BUILD_IN_GIT		"/w/git"
#define BUILD_IN_SRC		"/w/src"
#define BUILD_IN_OBJ		"/w/obj"
#define BUILD_IN_MAIL		"/w/mail"
#define BUILD_IN_SLOT		"/w/slot"
#define BUILD_IN_TREE		"/w/tree"
#define BUILD_IN_FROM		"/w/from"
#define BUILD_IN_CONFIG		"/w/config"

enum run_result { RUN_OK = 0, RUN_FAILED, RUN_TIMEOUT, RUN_NOSTART, RUN_QUOTA };

/* What a command of the stage sees besides the toolchain (BUILD_IN_*). */
enum {
	SEE_REPO = 1 << 0,	/* the repository, read-only */
	SEE_REPO_RW = 1 << 1,	/* ... writable (fetch, import) */
	SEE_GIT = 1 << 2,	/* the slot's git dir, writable (and the repository) */
	SEE_SRC = 1 << 3,	/* the work tree, read-only */
	SEE_SRC_RW = 1 << 4,	/* ... writable (checkout, am) */
	SEE_OBJBASE = 1 << 5,	/* obj.base at BUILD_IN_OBJ, writable */
	SEE_OBJ = 1 << 6,	/* obj at BUILD_IN_OBJ, writable */
	SEE_MAIL = 1 << 7,	/* the series' mails, read-only */
	SEE_SLOT = 1 << 8,	/* the whole slot (cp) */
	SEE_TREE = 1 << 9,	/* [build] tree, read-only (import) */
	SEE_FROM = 1 << 10,	/* a file:// tree's folder, read-only (fetch) */
	SEE_CONFIG = 1 << 11,	/* [build] config when it is a file */
	SEE_NET = 1 << 12,	/* the network (fetch) */
};

/* A tree as the stage knows it: a [tree] section or [build] tree. */
struct btree {
	const char *name;
	const char *branch;	/* NULL for [build] tree */
	const char *url;	/* NULL for [build] tree */
	const struct config_tree *ct;	/* NULL for [build] tree */
	char tip[41];		/* the fetched commit, "" when never */
	long long tip_time;	/* its committer time */
	long long fetched;	/* when (Unix seconds), 0 never */
};

struct bctx {
	const struct config *cfg;
	int slot;
	char work[BUILD_PATH_MAX];
	char repo[BUILD_PATH_MAX + 16];
	char slotdir[BUILD_PATH_MAX + 16];
	char git[BUILD_PATH_MAX + 32];
	char src[BUILD_PATH_MAX + 32];
	char obj[BUILD_PATH_MAX + 32];
	char objbase[BUILD_PATH_MAX + 32];
	char mail[BUILD_PATH_MAX + 32];
	char tree[BUILD_PATH_MAX];	/* [build] tree (real path), or "" */
	const char *from;		/* the file:// folder of the fetch in hand */
	struct btree trees[CONFIG_MAX_TREES + 1];
	size_t ntrees;
	double deadline;
	struct sandbox_limits lim;
	struct cgroup *cg;		/* the stage's bound, or NULL (preparations) */
	unsigned long long quota;	/* bytes obj may hold (0: no bound yet) */
	unsigned long long quota_base;	/* bytes obj.base may hold */
	unsigned sandboxes;
	int quota_hit;			/* a command wrote past the disk budget */
};

extern const volatile sig_atomic_t *build_stop_flag;

/* Runs argv in a sandbox seeing `see`, in cwd (inside).  Output into out
 * (capped) when not NULL; the bwrap's own complaint appended. */
enum run_result build_run(struct bctx *c, unsigned see, const char *const argv[],
			  const char *cwd, struct sbuf *out);
/* git with the stage's settings: on the slot's git dir and work tree
 * (repo 0) or on the repository (repo 1).  args NULL-terminated. */
enum run_result build_git(struct bctx *c, int repo, unsigned see, struct sbuf *out,
			  const char *const args[]);
/* The last line of out, made printable and cut, for the log only (never
 * for a review: it is what a command printed). */
void build_tail(const struct sbuf *out, char *buf, size_t n);

/* ---- build_tree.c ---- */

/* The repository made, [build] tree imported, each tree fetched when its
 * interval passed (or force).  c->trees filled.  0, or -1 with err. */
int tree_sync(struct bctx *c, int force, char *err, size_t errlen);
/* The kernel release of [build] tree ("6.1.192"), or "". */
void tree_release_of(const struct bctx *c, char *out, size_t n);
/* The tree holding commit (40 hex), or -1. */
int tree_holding(struct bctx *c, const char *commit);
/* The full id of hex (a commit of the repository), into out[41]: 0 or -1. */
int tree_resolve(struct bctx *c, const char *hex, char *out);
/* The slot's git dir and work tree made.  0 or -1 with err. */
int tree_slot_ready(struct bctx *c, char *err, size_t errlen);
/* The work tree at commit, nothing else in it.  0 or -1. */
int tree_checkout(struct bctx *c, const char *commit);

/* Where a series failed to apply. */
struct am_failure {
	int part;		/* the part, 0 unknown */
	char file[200];		/* "" unknown */
	long line;		/* the hunk's first line in the base, 0 unknown */
	int hunk;		/* 1-based within the file, 0 unknown */
	int conflict;		/* the 3-way merge conflicted too */
	int missing;		/* the file is not in the tree */
	int empty;		/* the mail has no patch */
};
/*
 * git am -3 of the mails p[0, n) on the work tree (at its base): 0 with
 * the new HEAD in head[41], 1 when it does not apply (*f says where), -1
 * when it could not run.
 */
int tree_am(struct bctx *c, const struct build_patch *p, size_t n, char *head,
	    struct am_failure *f);

/* ---- build_tools.c ---- */

/* The versions of the tools, "" when not found (cached per process). */
struct tool_versions {
	char gcc[32], sparse[32], spatch[32];
};
void tools_versions(struct bctx *c, struct tool_versions *v);

/* One coccinelle script: its path under scripts/coccinelle/. */
extern const char *const tools_cocci_scripts[];
size_t tools_cocci_count(void);

#endif

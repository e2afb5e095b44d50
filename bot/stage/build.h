/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * build: the compile stage (issues 9 and 34).  A series is applied with
 * `git am -3` to the right base and what it touches is built there, with
 * the kernel's own tools, before and after it; the review reports only
 * what the series adds.
 *
 * The base: the series' base-commit: when a fetched tree has it (every
 * tree fetched once more first when none has); else the first tree whose
 * [tree] lists name the list the series was posted to (or one of its
 * To/Cc), the one its subject prefix names among them when several do
 * ([PATCH net-next]); else the tree whose tip is newest.  [build] tree, a
 * plain folder, is imported once and is a tree like the others.  Trees
 * are fetched by build_sync() on their fetch_interval, in a sandbox of
 * their own that sees only the repository: no patch is ever near a
 * fetch.  See build_int.h for the work folder.
 *
 * Then, on the patched tree: the objects of the .c files the series
 * touches (and of the .c files beside a header it touches that include
 * it) and the modules of their folders that hold them, at W=1; sparse
 * (C=2) on the same objects; gcc -fanalyzer on them; the kernel's
 * coccinelle scripts on memory safety, NULL, locking and API misuse on
 * the files ([build] tools chooses).  For each tool that said something
 * the base is asked too (its results cached per base commit and
 * configuration), and only what is new counts (build_diag.h).
 *
 * Never blame the patch for the tree: a series that does not apply, a
 * failed preparation, a timeout, a tool that is missing or a machine out
 * of memory or disk gives BUILD_NOT_CHECKED (or a line of the details)
 * with why, never an issue.  Nothing a command printed is ever quoted:
 * only diagnostics about files of the series, and those only when the
 * series leaves the kernel's build machinery (Makefiles, Kconfig,
 * scripts/) as plain as it found it: a series whose build files can run
 * commands gets counts, not quotes.
 *
 * Every command runs in the sandbox (sandbox.h), all of a series' in one
 * cgroup bounding its memory and tasks together (cgroup.h; no cgroup, no
 * stage); the object folder's growth is bounded by [build] max_disk_mb.
 * One series at a time per worker slot (an flock), several slots beside.
 */
#ifndef RB_BUILD_H
#define RB_BUILD_H

#include <signal.h>
#include <stddef.h>

#include "../config.h"

#define BUILD_MAX_PATCHES	256	/* parts of a series */
#define BUILD_MAX_OBJECTS	64	/* .c files built per series */
#define BUILD_MAX_ISSUES	200	/* new diagnostics kept */
#define BUILD_MAX_OUTPUT	(4u << 20)	/* bytes of one command's output */
#define BUILD_NOTE_MAX		200	/* bytes of the note (compose's cap) */
#define BUILD_DETAILS_MAX	4096	/* bytes of the details */
#define BUILD_MIN_FREE		(512ull << 20)	/* bytes free in work, else "disk full" */
#define BUILD_MAX_RCPTS		64

enum build_verdict {
	BUILD_NOT_CHECKED = 0,
	BUILD_OK,
	BUILD_CONCERN,		/* new diagnostics: see issues */
};

/* One patch mail of the series, in order. */
struct build_patch {
	int part;
	const char *text;	/* the body (the diff) */
	size_t len;
	const char *raw;	/* the whole mail as it came, for git am */
	size_t raw_len;
};

/* What the base choice reads of a series. */
struct build_info {
	const char *list;		/* the list it was read from, or NULL */
	const char *rcpt[BUILD_MAX_RCPTS];	/* its To and Cc, lowercase */
	size_t nrcpt;
	const char *prefix;		/* its subject's tags ("RFC net-next"), or NULL */
	const char *base_commit;	/* its base-commit: (hex), or NULL */
	int prerequisites;		/* prerequisite-patch-id: lines it has */
};

/* A new diagnostic (there after the series, not before). */
struct build_issue {
	int part;		/* the last part of the series touching file */
	int error;		/* 1: an error */
	const char *type;	/* a row of checker/rv/rules_build.def */
	char *file;		/* relative to the tree */
	long line;
	char *message;		/* "TOOL: the tool's words" */
	char *line_text;	/* the line in the patched file, or NULL */
};

struct build_result {
	enum build_verdict verdict;
	char note[BUILD_NOTE_MAX];	/* for compose's compiles_note */
	char *details;			/* how to reproduce it, or NULL; owned */
	struct build_issue *issues;	/* owned */
	size_t nissues;
	size_t objects;			/* objects built */
	size_t before;			/* diagnostics the base had already */
	int quoted;			/* 0: the series' build files could run
					 * commands: issues say no words */
	/* what it cost (seconds), for the log and make bench */
	double wait_s, sync_s, prepare_s, apply_s, total_s;
	double after_s[4], base_s[4];	/* per tool (enum diag_tool) */
	unsigned base_cached;		/* base results read from the cache */
	unsigned sandboxes;		/* commands run, each in a sandbox */
	unsigned long long peak_memory;	/* bytes, the stage's cgroup */
	unsigned long long disk;	/* bytes the object folder grew */
};

/* Non-zero when [build] tree is set or a [tree] section is given. */
int build_enabled(const struct config *cfg);
/*
 * stop (a signal handler's flag) set: the commands of a build in hand are
 * killed and it ends at once (its result means nothing: the caller drops
 * it and the stage runs again).  NULL: never.
 */
void build_set_stop(const volatile sig_atomic_t *stop);

/*
 * The trees fetched whose fetch_interval passed ([build] tree imported
 * when it was not): what a worker does between series.  Returns 0, or
 * -1 with err.  Slow the first time (a clone).
 */
int build_sync(const struct config *cfg, char *err, size_t errlen);

/*
 * Compile-tests the series p[0, n) in worker slot slot (0 for run
 * --once).  Returns 0 with *out filled (any verdict), or -1 when out of
 * memory.  Release *out with build_result_release.
 */
int build_series(const struct config *cfg, int slot, const struct build_patch *p, size_t n,
		 const struct build_info *info, struct build_result *out);
void build_result_release(struct build_result *r);

/*
 * The hex id of a "base-commit: HEX" line of text[0, len) (git
 * format-patch --base), into out (at least 41 bytes); 1 when found.
 */
int build_base_commit(const char *text, size_t len, char *out, size_t outlen);
/* How many "prerequisite-patch-id: HEX" lines text[0, len) has. */
int build_prerequisites(const char *text, size_t len);

#endif

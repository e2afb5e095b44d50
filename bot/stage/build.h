/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * build: the compile stage (issue 9).  A series is applied to a scratch
 * state of a kernel tree ([build] tree) and every .c it touches is built
 * as one object with W=1; the compiler's errors and warnings are compared
 * with the same objects built on the pristine tree.
 *
 * The tree is never written to for long: a git dir OUTSIDE it (a .git
 * inside would change the kernel release) holds a baseline commit; a
 * series is applied with `git apply --index` and undone with
 * `git reset --hard`, which also removes the files the series added.
 * Objects live in an out-of-tree folder (O=).  Both are under [build]
 * work (default: the tree's path + ".reviewbot").
 *
 * Preparation (once, marked by a stamp in the work folder): the git
 * baseline, the configuration (a make target or a .config file, with
 * CONFIG_WERROR off) and modules_prepare.
 *
 * Never blame the patch for the tree: a series that does not apply, a
 * failed preparation, a timeout or a full disk gives BUILD_NOT_CHECKED
 * with why, never an issue.  Commands run without a shell, in their own
 * process group, killed when the series' timeout passes.  One build at
 * a time: the caller runs series one after another.
 */
#ifndef RB_BUILD_H
#define RB_BUILD_H

#include <signal.h>
#include <stddef.h>

#include "../config.h"

#define BUILD_MAX_PATCHES	256	/* parts of a series */
#define BUILD_MAX_OBJECTS	64	/* .c files built per series */
#define BUILD_MAX_ISSUES	200	/* new errors + warnings kept */
#define BUILD_MAX_OUTPUT	(4u << 20)	/* bytes of one command's output */
#define BUILD_NOTE_MAX		200	/* bytes of the note (compose's cap) */
#define BUILD_MIN_FREE		(512ull << 20)	/* bytes free in work, else "disk full" */

enum build_verdict {
	BUILD_NOT_CHECKED = 0,
	BUILD_OK,
	BUILD_CONCERN,		/* new errors or warnings: see issues */
};

/* One patch mail of the series, in order (the body holds the diff). */
struct build_patch {
	int part;
	const char *text;
	size_t len;
};

/* A new compiler diagnostic (not there on the pristine tree). */
struct build_issue {
	int part;		/* the last part of the series touching file */
	int error;		/* 1: error, 0: warning */
	char *file;		/* relative to the tree */
	long line;
	char *message;		/* the compiler's words, without "error: " */
	char *line_text;	/* the line in the patched file, or NULL */
};

struct build_result {
	enum build_verdict verdict;
	char note[BUILD_NOTE_MAX];	/* for compose's compiles_note */
	struct build_issue *issues;	/* owned */
	size_t nissues;
	size_t objects;			/* objects compared */
	double wait_s;				/* for the work folder's lock */
	double prepare_s, apply_s, build_s;	/* seconds spent */
	unsigned sandboxes;			/* commands run, each in a sandbox */
};

/* Non-zero when [build] tree is set. */
int build_enabled(const struct config *cfg);
/*
 * stop (a signal handler's flag) set: the commands of a build in hand are
 * killed and it ends at once (its result means nothing: the caller drops
 * it and the stage runs again at the next start).  NULL: never.
 */
void build_set_stop(const volatile sig_atomic_t *stop);

/*
 * Prepares the work folder once (a no-op when its stamp says it is done
 * for this tree and config).  Returns 0, or -1 with err.  Slow the first
 * time (minutes): the review of the first series pays for it.
 */
int build_prepare(const struct config *cfg, char *err, size_t errlen);

/*
 * Compile-tests the series p[0, n) (prepares first if needed).  base is
 * the author's base-commit (build_base_commit) or NULL, named in the note
 * when the series does not apply.  Returns 0 with *out filled (any
 * verdict), or -1 when out of memory.  Release *out with
 * build_result_release.
 */
int build_series(const struct config *cfg, const struct build_patch *p, size_t n,
		 const char *base, struct build_result *out);
void build_result_release(struct build_result *r);

/*
 * The hex id of a "base-commit: HEX" line of text[0, len) (git
 * format-patch --base), into out (at least 41 bytes); 1 when found.
 */
int build_base_commit(const char *text, size_t len, char *out, size_t outlen);

/*
 * Parses one line of compiler output "FILE:LINE[:COL]: error|warning:
 * MESSAGE" (tree_prefix stripped from FILE when present).  Returns 1 and
 * fills the pointers into line (not copied), or 0 for any other line.
 * Exposed for the tests.
 */
int build_parse_diag(const char *line, size_t len, const char *tree_prefix,
		     const char **file, size_t *file_len, long *lineno,
		     int *error, const char **msg, size_t *msg_len);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * checker: a reimplementation of the Linux kernel's scripts/checkpatch.pl
 * as a library.  Bytes in, findings out: no I/O, no exit, no printing.
 *
 * One call checks one input the way one checkpatch.pl run checks one file
 * argument: a git format-patch file, a mail, an mbox of several (checked as
 * one input, as checkpatch.pl does), a plain unified diff, or with
 * opts.file a source file.  The caller owns everything it passes in; the
 * result owns its findings until chk_result_release().
 */
#ifndef RB_CHECKER_H
#define RB_CHECKER_H

#include <stddef.h>

#include "rules.h"
#include "sbuf.h"

#define CHK_MAX_INPUT		(256u << 20)	/* bytes of one input */
#define CHK_MAX_LINES		(8u << 20)	/* lines of one input */
#define CHK_MAX_REPORT		(64u << 20)	/* bytes of one report */
#define CHK_MAX_FINDINGS_BYTES	(1u << 30)	/* bytes of all reports kept */
#define CHK_TIME_LIMIT_MAX_MS	(1000ul * 1000 * 1000)	/* opts.time_limit_ms */

struct chk_spelling;
struct re_precompiled_set;
struct chk_finding;

struct chk_opts {
	/*
	 * The checkpatch.pl whose rules, messages and data the check
	 * follows (rules.h; default CP_LATEST).  The caller gives the
	 * version's data with it: spelling and const_structs below.
	 */
	enum cp_version cp_version;
	int strict;		/* --strict / --subjective: show CHECKs */
	int file;		/* -f: the input is a source file */
	int max_line_length;	/* default 100 */
	int tabsize;		/* default 8 */
	int min_conf_desc_length; /* default 4 */
	int quiet;		/* -q, counted */
	int terse;
	int emacs;
	int showfile;
	int show_types;
	int summary;		/* default on */
	int summary_file;
	int signoff;		/* check sign-offs, default on */
	int fixes_tag;		/* 6.12's missing Fixes: check, default on */
	int patch;		/* treat input as a patch, default on */
	int color;		/* 0: never */
	unsigned char ignore[RULE__COUNT];	/* --ignore */
	unsigned char use[RULE__COUNT];		/* --types; all 0: all */
	int use_any;		/* some --types given */
	unsigned categories;	/* bit per enum rule_cat; 0: all */
	int ignore_c99_comment_tolerance; /* --ignore C99_COMMENT_TOLERANCE */
	const char *test_only;	/* --test-only: only messages containing it */
	int verbose;		/* explain each type once, after its first report */
	/*
	 * reviewbot's own checks (security, user-space interface, process;
	 * checker/rv/review.c) beyond checkpatch.pl's.  Off by default so the
	 * text output stays checkpatch.pl's; the CLI turns it on with
	 * --extra, --json and --category.
	 */
	int extra;
	/*
	 * What the kernel tree says, for reviewbot's own process checks
	 * (--extra), when the caller has one: its MAINTAINERS (F:, X: and
	 * N: patterns: whether an entry covers a new file) and its .mailmap
	 * (which addresses are one person's: SIGN_OFF_NOT_SENDER).  Text and
	 * length, owned by the caller; NULL: no tree.
	 */
	const char *tree_maintainers;
	size_t tree_maintainers_len;
	const char *tree_mailmap;
	size_t tree_mailmap_len;
	/* misspellings (checker/spelling.h), built once by the caller; NULL: none */
	const struct chk_spelling *spelling;
	/* checkpatch.pl's $const_structs: struct names joined by '|', or NULL */
	const char *const_structs;
	/* extra typedef names (--typedefsfile) joined by '|', or NULL */
	const char *typedefs;
	const char *kconfig_prefix;	/* default "CONFIG_" */
	/* patterns compiled at build time (re.h), or NULL */
	const struct re_precompiled_set *patterns;
	/*
	 * When set, each finding is handed to sink as it is made, and then
	 * dropped: the result keeps the counts but no findings (n stays 0),
	 * so memory stays flat however many findings an input has.  f and
	 * its strings are only valid during the call.
	 */
	void (*sink)(void *arg, const struct chk_finding *f);
	void *sink_arg;
	/*
	 * Wall-clock milliseconds (CLOCK_MONOTONIC) one check may take; 0:
	 * no limit (the default, as checkpatch.pl has none).  Past it the
	 * check ends with CHK_TIMED_OUT, keeping the findings made so far.
	 * The clock is read once per line, when a line's scratch memory
	 * grows by a chunk (64 KiB), when a pattern is built at run time and
	 * when a match reaches its step limit -- never per match -- so a
	 * check ends soon after its time, but one pattern match cannot be
	 * cut short: on a pathological line of a few hundred KiB a single
	 * match can take seconds (a 400 KB comment line: up to ~15 s here).
	 */
	unsigned long time_limit_ms;
	/*
	 * Bytes of one line the checks look at; 0: no limit (the default,
	 * as checkpatch.pl).  A longer line is not checked at all (it counts
	 * as CHK_LINE_SKIPPED) and the other lines see it as an empty line
	 * of its kind: some of checkpatch.pl's patterns scan a line once per
	 * starting position, which no step limit bounds (a 1 MB line: minutes
	 * in one match).  The bot sets it (CHK_BOT_MAX_LINE_BYTES).
	 */
	size_t max_line_bytes;
};

/* What the bot checks of one line at most: no kernel source line comes
 * near it, and one match on a line this long ends within a second. */
#define CHK_BOT_MAX_LINE_BYTES	(16u << 10)

/*
 * What checkpatch.pl of one version reads from its tree even with
 * --no-tree: scripts/spelling.txt and scripts/const_structs.checkpatch.
 * The build extracts both from Debian's linux-source package of each
 * version (tools/mkcpdata.c; never committed) into a table the programs
 * link (bot/patterns.h), so that a check's data follows its version.
 */
struct chk_cp_data {
	/* spelling.txt's list as a spelling image (chk_spelling_from_image()),
	 * 8-byte aligned; its entries */
	const void *spelling_image;
	size_t spelling_image_len;
	size_t spelling_entries;
	/* const_structs.checkpatch's names joined by '|' (chk_opts.const_structs) */
	const char *const_structs;
};

void chk_opts_init(struct chk_opts *o);
/* Parses a comma-separated list of type names into ignore/use; unknown
 * names are accepted as checkpatch.pl does. */
void chk_opts_types(struct chk_opts *o, const char *list, int use);
int chk_opts_categories(struct chk_opts *o, const char *list);

struct chk_finding {
	enum rule_id rule;
	enum rule_sev sev;
	char *msg;		/* the message's first line, no newline */
	char *file;		/* path in the new tree, or NULL */
	long line;		/* line in the new file, 0 when none */
	long patch_line;	/* checkpatch's #N, 0 when none */
	char *text;		/* the report exactly as checkpatch.pl prints it */
	/*
	 * text, msg and file are one allocation, starting at text: only
	 * chk_result_release() frees them.
	 */
};

/*
 * Why a check is incomplete (struct chk_result's flags).  Each comes with
 * res->error set (a sentence for people, about the most important one)
 * and chk_check() returning -1; the findings made are kept and valid.
 * res->error may also be set with no flag: a pattern that failed
 * ("pattern error: ...").  A caller that only needs to know whether the
 * check is complete tests res->error; one that wants the reason, flags.
 */
enum chk_flag {
	/*
	 * One or more lines were too complex to check: they asked for more
	 * scratch memory than the per-line limit (checkpatch.pl's work on
	 * some lines grows with the square of their length, e.g. a #define
	 * with thousands of arguments) or made a report past CHK_MAX_REPORT.
	 * Each such line keeps the findings made before the limit; its
	 * remaining checks are skipped and the lines after it checked as
	 * usual.  lines_skipped counts them, first_skipped is checkpatch's
	 * #N of the first.
	 */
	CHK_LINE_SKIPPED = 1u << 0,
	/*
	 * opts.time_limit_ms ran out: the lines from stopped_at (#N) on were
	 * not fully checked (the findings on line stopped_at made in time
	 * are kept), nor were the checks after the last line (sign-off, ...);
	 * stopped_at is past the last line when only those were cut short.
	 */
	CHK_TIMED_OUT = 1u << 1,
	/* another limit (input size, line count, the findings' count or
	 * bytes, memory): the check stopped where it was */
	CHK_LIMIT = 1u << 2,
};

struct chk_result {
	struct chk_finding *f;
	size_t n, alloc;
	long errors, warnings, checks;
	long lines_checked;
	int clean;		/* no finding shown */
	int is_patch;
	int empty;		/* no input at all: nothing to say */
	int silent;		/* checkpatch.pl would print nothing (e.g. --no-patch) */
	int rpt_cleaners;	/* whitespace errors seen: say so */
	int show_checks;	/* the total line counts checks ($check at the end) */
	char *error;		/* an internal problem (limit, memory), or NULL */
	unsigned flags;		/* enum chk_flag: why the check is incomplete */
	long lines_skipped;	/* CHK_LINE_SKIPPED: how many lines */
	long first_skipped;	/* CHK_LINE_SKIPPED: #N of the first */
	long stopped_at;	/* CHK_TIMED_OUT: #N of the first line not fully checked */
};

/*
 * A checker for many inputs: compiled patterns and checkpatch.pl's state
 * that outlives one file are kept between chk_check() calls.  o must
 * outlive the checker.
 */
struct chk_checker;
struct chk_checker *chk_new(const struct chk_opts *o);
void chk_free(struct chk_checker *c);
int chk_check(struct chk_checker *c, const char *name, const char *buf,
	      size_t len, struct chk_result *res);
/*
 * chk_check() on a buffer the caller gives up for the call: buf must hold
 * len + 1 bytes, all of which the checker may overwrite (it splits the
 * lines in place instead of copying them).  No pointer into buf is kept
 * after the call.
 */
int chk_check_buf(struct chk_checker *c, const char *name, char *buf,
		  size_t len, struct chk_result *res);
/* For the build tool: every literal pattern the checker compiled so far,
 * serialized (see re_export()). */
int chk_export_patterns(struct chk_checker *c,
			int (*cb)(void *arg, const char *text, int dyn,
				  unsigned cpv, const unsigned char *bytes,
				  size_t len),
			void *arg);
/* Patterns compiled at run time so far (not found precompiled). */
unsigned long chk_pattern_compiles(const struct chk_checker *c);

/*
 * Checks buf[0, len) with a checker of its own.  name is the file name checkpatch.pl prints
 * ("Your patch" for stdin is the caller's business).  Returns 0, or -1
 * with res->error set and res->flags saying why (enum chk_flag); the
 * findings made are kept.  chk_check() and the others return the same.
 */
int chk_run(const struct chk_opts *o, const char *name, const char *buf,
	    size_t len, struct chk_result *res);
void chk_result_release(struct chk_result *res);

/*
 * Puts c back in the state chk_new(c's opts) gives (the opts may have
 * changed since), keeping its compiled patterns: chk_check() after
 * chk_reset() gives what chk_run() gives.  0, or -1 (out of memory: free c).
 */
int chk_reset(struct chk_checker *c);
/*
 * chk_run() with one checker per thread, reset before each input: the same
 * results, without decoding and compiling the patterns again.  The
 * thread's checker is freed when the thread exits or by
 * chk_thread_release().
 */
int chk_run_reuse(const struct chk_opts *o, const char *name, const char *buf,
		  size_t len, struct chk_result *res);
void chk_thread_release(void);

/*
 * The text checkpatch.pl prints for one input: findings, total line,
 * notes and the verdict line.  vname is the name in the verdict line.
 */
void chk_format_text(const struct chk_opts *o, const struct chk_result *res,
		     const char *filename, const char *vname, struct sbuf *out);
/* One JSON object (one line, newline-terminated) for one input. */
void chk_format_json(const struct chk_opts *o, const struct chk_result *res,
		     const char *filename, struct sbuf *out);

#endif

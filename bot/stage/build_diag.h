/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * build_diag: what the compile stage's tools said, read from their output
 * and compared before and after a series (issue 34 items 2 and 3).  No
 * I/O: text in, diagnostics out.
 *
 * A diagnostic is one error or warning of one tool about one place:
 *   gcc        "FILE:LINE[:COL]: error|warning: MESSAGE [-Wopt]", with the
 *              "In function 'f'" and "inlined from 'f' at FILE:LINE" lines
 *              before it (a warning in a header that a function of the
 *              series' file inlined is moved to that file's line), and the
 *              modpost's "WARNING|ERROR: modpost: ..." about a module
 *   sparse     the same form; its "expected / got" lines go with it
 *   analyzer   gcc -fanalyzer's warnings ([-Wanalyzer-...]) with the
 *              places of their path ("note: (N) ..."), so that a defect
 *              whose path runs through lines the series added is certain
 *   coccinelle a report line of a script: "FILE:LINE:COL-COL: MESSAGE"
 * Only files of the tree count (relative, without ".."): nothing the
 * series made a tool read elsewhere is ever quoted.  Everything else a
 * tool or make printed is dropped: it is never quoted in a review.
 *
 * Comparison: a diagnostic is new when the patched tree has it and the
 * base does not, matched by tool, file, function and message (numbers
 * after "line" taken out): line numbers move with the series, a function
 * and the tool's words do not.  When a key is there n times before and m
 * times after, m - n are new, those on added lines first.
 */
#ifndef RB_BUILD_DIAG_H
#define RB_BUILD_DIAG_H

#include <stddef.h>

#define DIAG_MAX		2000	/* diagnostics read from one output */
#define DIAG_MSG_MAX		300	/* bytes of a message kept */
#define DIAG_FUNC_MAX		80
#define DIAG_FILE_MAX		200
#define DIAG_PATH_MAX		16	/* places of an analyzer path kept */

enum diag_tool { DIAG_GCC = 0, DIAG_SPARSE, DIAG_ANALYZER, DIAG_COCCI, DIAG__TOOLS };

/* "gcc", "sparse", "analyzer", "coccinelle" (the [build] tools words) */
const char *diag_tool_name(enum diag_tool t);

struct diag {
	enum diag_tool tool;
	int error;			/* error / fatal error / modpost ERROR */
	int modpost;			/* a modpost line (file: the module's source) */
	char file[DIAG_FILE_MAX];	/* relative to the tree */
	long line;
	char func[DIAG_FUNC_MAX];	/* "" at file scope or unknown */
	char msg[DIAG_MSG_MAX];		/* the tool's words */
	char opt[64];			/* gcc's option ("-Wunused-variable"), or "" */
	char script[96];		/* coccinelle: the script, "null/deref_null" */
	int script_high;		/* its Confidence: is High */
	long path[DIAG_PATH_MAX];	/* analyzer: lines of its path in file */
	size_t npath;
	int used;			/* compare(): matched */
};

struct diag_list {
	struct diag *d;
	size_t n, alloc;
	size_t dropped;		/* about files outside the tree, or past DIAG_MAX */
};

void diag_list_release(struct diag_list *l);
/* Appends a copy of d: 0, or -1 when out of memory (or full: dropped). */
int diag_list_add(struct diag_list *l, const struct diag *d);

/*
 * Reads a tool's output (all of it: stdout and stderr together) into l.
 * prefix ("/w/src/") is taken off file names that start with it;
 * script/high name the coccinelle script a report came from.  Returns
 * 0, or -1 when out of memory.
 */
int diag_parse(enum diag_tool tool, const char *out, size_t len, const char *prefix,
	       const char *script, int high, struct diag_list *l);

/*
 * The gcc-form line "FILE:LINE[:COL]: error|warning|fatal error: MSG":
 * 1 with the parts (pointers into line), else 0.  Exposed for tests.
 */
int diag_parse_line(const char *line, size_t len, const char **file, size_t *file_len,
		    long *lineno, int *error, const char **msg, size_t *msg_len);

/*
 * The function of text[0, len) (a C file) that holds line, into out
 * ("" at file scope): the last name before a top-level "(...) {".
 * Approximate but the same for the same code, which is what matching
 * needs.
 */
void diag_function_at(const char *text, size_t len, long line, char *out, size_t outlen);

/* Added lines of a file: sorted ranges [from, to] of the patched file. */
struct diag_lines {
	char file[DIAG_FILE_MAX];
	long (*r)[2];
	size_t n, alloc;
};

struct diag_added {
	struct diag_lines *f;
	size_t n, alloc;
};

void diag_added_release(struct diag_added *a);
/* Reads `git diff -U0` output: the new-side lines of every hunk.  0 or -1. */
int diag_added_parse(const char *out, size_t len, struct diag_added *a);
/* 1 when line of file is one the series added. */
int diag_added_has(const struct diag_added *a, const char *file, long line);

/*
 * The new diagnostics of after against before (both with their func set):
 * copies into out.  *before_kept counts the before ones matched (warnings
 * that were there already).  0 or -1.
 */
int diag_compare(const struct diag_list *before, struct diag_list *after,
		 const struct diag_added *added, struct diag_list *out, size_t *before_kept);

/*
 * The finding type of a new diagnostic (a row of checker/rv/rules_build.def)
 * and whether its category is security; added says whether its place (or
 * its path) is on lines the series added.
 */
const char *diag_type(const struct diag *d, const struct diag_added *added);

/* One line of a cache file and back: "tool\terror\tfile\tline\tfunc\topt\tscript\tmsg". */
int diag_serialize(const struct diag *d, char *out, size_t outlen);
int diag_deserialize(const char *line, size_t len, struct diag *d);

/* "line 12" -> "line N": the message as compared. */
void diag_normalize(const char *msg, char *out, size_t outlen);

#endif

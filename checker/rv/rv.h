/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What reviewbot's own checks (rv_*.c) share: calls gathered across the
 * lines of a hunk, the function a line is in, and the "twin" of an added
 * line (rv_twin.c).  Private to checker/; the engine state is eng.h's.
 *
 * A review blames only what the patch changes.  An added line is paired
 * with the removed lines of its change block (the run of '-' and '+'
 * lines between two context lines): a finding whose subject (say, the
 * function and the destination of a string copy) a removed line of the
 * block already had is not the patch's doing, whatever else changed on
 * the line, and a line that only moved or was re-indented (a removed line
 * near it in the same file has its text, white space aside) is not
 * judged at all.
 *
 * Lines are indexes into e->lines / e->rawlines (0-based).  Strings
 * returned are from the per-line arena.
 */
#ifndef RB_RV_H
#define RB_RV_H

#include "../checkpatch/eng.h"
#include "../diff.h"

#define RV_MAX_ARGS	16	/* arguments of one call we look at */
#define RV_MAX_LINES	40	/* lines one call may span */
#define RV_NEAR		400	/* lines searched for a moved line */
#define RV_FUNC_LINES	400	/* lines walked back for a function's start */

/* The arguments of one call, gathered across lines (an arena string). */
struct rv_call {
	const char *text;
	const char *raw;	/* text with the raw line's bytes (strings kept) */
	size_t len;
	size_t narg;
	size_t off[RV_MAX_ARGS], n[RV_MAX_ARGS];
	char after;		/* first code character after ')', 0 if none */
};

int rv_is_ident(int c);
int rv_is_blank(int c);

/*
 * The call whose '(' is at lines[idx][open]: its arguments split at the
 * top-level commas and the character after its ')'.  side '+' follows
 * the new text (removed lines skipped), '-' the old (added lines
 * skipped).  0 when it does not close within the hunk.
 */
int rv_gather_call(struct eng *e, long idx, size_t open, char side,
		   struct rv_call *c);
/* Argument i, runs of blanks as one space, trimmed. */
char *rv_arg(struct eng *e, const struct rv_call *c, size_t i);
/* Argument i as the raw lines have it (string contents kept). */
char *rv_raw_arg(struct eng *e, const struct rv_call *c, size_t i);
/* s without its blanks (to compare code white space aside). */
char *rv_squeeze(struct eng *e, const char *s);

/* The change block of line idx: its '-' and '+' lines are [*lo, *hi). */
void rv_block(struct eng *e, long idx, long *lo, long *hi);
/* Frees what rv_twin.c keeps between lines (review_release()). */
void rv_twin_release(struct eng *e);
/*
 * Whether added line idx only moved or changed white space: a removed
 * line of its block, or one within RV_NEAR lines in the same file, has
 * its text white space aside (for a removed line idx: an added one).
 */
int rv_twin_same(struct eng *e, long idx);
/*
 * Whether a removed line of idx's change block calls a function matching
 * fnpat (a pattern alternation such as "strcpy|sprintf") whose argument
 * arg, white space aside, is key (any call of it with key NULL).  The
 * name of the call found is in *fn when fn is not NULL.
 */
int rv_twin_call(struct eng *e, long idx, const char *fnpat, size_t arg,
		 const char *key, const char **fn);

/* Whether a removed line of idx's change block holds text (sanitised,
 * white space aside). */
int rv_twin_has(struct eng *e, long idx, const char *text);

/*
 * The function line idx is in, as far as the hunk shows it: *start is
 * the first line of the hunk in it (its header line when shown), the
 * header text (name and parameters, lines joined) is returned, or the
 * function the hunk's "@@" line names, or "" when none is known.
 */
const char *rv_function(struct eng *e, long idx, long *start);
/* The name of the function in a header, or "". */
const char *rv_function_name(struct eng *e, const char *header);

/*
 * The patch as C code (rv_code.c): its diff parsed again, both sides as
 * token views (cview.h), and each mail's commit message.  Built on the
 * first call after the last line (from review_final()), kept until
 * review_release(); NULL when the input has no diff or memory ran out.
 */
struct cview;
struct cv_item;
struct ctok;

struct rv_msg {
	long line0, line1;	/* patch lines (1-based, [line0, line1)) of the
				 * mail: headers, message and diff */
	long body0;		/* first line of the message body */
	long diff0;		/* first line of the diff, or line1 */
	char *subject;		/* unfolded, without "Subject: " */
	char *text;		/* the subject, a blank line, the body up to the
				 * diff (trailers included), lines joined by \n */
	int has_fixes;		/* a Fixes: trailer */
	int has_stable;		/* Cc: stable@vger.kernel.org (or @kernel.org) */
};

struct cfunc;

/*
 * What the rules that walk paths do in one function at most: a patch is
 * mail, and its functions as large as it likes.  Past these the rest of
 * the function is not judged (nothing is said of it).
 */
#define RV_PATH_MAX_STMTS	4000	/* statements of a function walked */
#define RV_PATH_MAX_STARTS	24	/* frees, locks, copies walked from */

struct rv_code {
	char *buf;		/* the input again, lines joined by '\n' */
	size_t len;
	struct diff d;
	struct cview *nv, *ov;	/* new and old side */
	struct rv_msg *msgs;
	size_t nmsgs;
	/* the models of the new side's functions the patch changes, in
	 * kernel C files (built on first use: rv_code_funcs()) */
	struct cfunc *funcs;
	size_t nfuncs;
	int funcs_done;
};

const struct rv_code *rv_code_get(struct eng *e);
/* The rules that read the patch as C, each run once after the last line
 * (review_final()): rv_fix.c, rv_flow.c, rv_perm.c, rv_life.c. */
void rv_fix_final(struct eng *e);
void rv_flow_final(struct eng *e);
void rv_leak_final(struct eng *e);
void rv_perm_final(struct eng *e);
void rv_life_final(struct eng *e);
void rv_code_release(struct eng *e);
/* The changed functions' models (c->funcs), built on the first call. */
size_t rv_code_funcs(struct eng *e, struct rv_code *c);
/* The path of the file that holds token tok of view v. */
const char *rv_code_path(const struct cview *v, size_t tok);
/* The item of view v whose body holds token tok, or NULL. */
const struct cv_item *rv_code_item_at(const struct cview *v, size_t tok);
/* A struct or union definition of the new side named tag (a token), or NULL. */
const struct cv_item *rv_code_struct(const struct rv_code *c, const struct ctok *tag);
/* A file-scope variable of the new side named name (a token) with a brace
 * initializer, or NULL. */
const struct cv_item *rv_code_global(const struct rv_code *c, const struct ctok *name);

/* The value of "#define NAME NUMBER" on the new side (a positive number
 * below 2^20), or -1. */
long rv_code_define(const struct rv_code *c, const struct ctok *name);
/* The mail whose lines hold patch line pline, or NULL. */
/* Whether identifier t matches pattern pat (names over 127 bytes are cut). */
int rv_ident_says(struct eng *e, const struct ctok *t, const char *pat);
const struct rv_msg *rv_code_msg(const struct rv_code *c, long pline);

/*
 * Reports a finding at token tok of view v (its line of the patch and of
 * the file, its file), as the engine would at that line: --json,
 * --emacs and --showfile locate it.  msg is the message's text without
 * the location lines.
 */
void rv_report_tok(struct eng *e, enum rule_sev sev, enum rule_id id,
		   const struct cview *v, size_t tok, const char *msg);
/* The same at patch line pline (1-based) of file path, file line fline;
 * path NULL for a line of the commit message. */
void rv_report_line(struct eng *e, enum rule_sev sev, enum rule_id id,
		    const char *path, long pline, long fline, const char *msg);
/* The same quoting raw (the line as the patch has it) for the line. */
void rv_report_raw(struct eng *e, enum rule_sev sev, enum rule_id id,
		   const char *path, long pline, long fline, const char *raw,
		   const char *msg);

#endif

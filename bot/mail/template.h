/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * template: the reply texts of templates/, with named placeholders.
 *
 * A template file is UTF-8 text.  Lines starting with '#' at its top are
 * comments (each file lists the placeholders it may use there); the rest
 * is the text.  In the text:
 *
 *   {{name}}   a placeholder; name is [a-z_]+, at most
 *              TEMPLATE_MAX_NAME bytes
 *   {{{{       a literal "{{"
 *   any other "{{" is an error; "}}" alone is plain text.
 *
 * A line that is one placeholder and nothing else is a block: its value
 * (several lines, say) is inserted as it is, followed by a newline when
 * it lacks one, and the line disappears when the value is empty.  Every
 * other line is an inline line: its values have control characters
 * replaced by spaces, and the line is word-wrapped at
 * TEMPLATE_WRAP_COLUMNS columns after substitution (template_wrap()).
 * Lines are wrapped one by one, never joined.
 *
 * The templates the bot knows (review.txt, review-clean.txt, footer.txt,
 * confirm.txt, followup.txt, feedback.txt) are checked when loaded against a table of the
 * placeholders each may use and the ones each must use, so a typo stops
 * the bot at start-up, not when a mail is composed.  Other *.txt files
 * of the folder are loaded too and may use any name.
 *
 * Errors name the file and line: "template review.txt:12: unknown
 * placeholder {{foo}}".  Nothing here prints or exits.
 */
#ifndef RB_TEMPLATE_H
#define RB_TEMPLATE_H

#include <stddef.h>

#include "../../checker/sbuf.h"

#define TEMPLATE_MAX_FILE	(64u << 10)	/* bytes of one template file */
#define TEMPLATE_MAX_PLACEHOLDERS 256		/* placeholders in one file */
#define TEMPLATE_MAX_FILES	64		/* *.txt files in the folder */
#define TEMPLATE_MAX_NAME	32		/* bytes of a placeholder name */
#define TEMPLATE_MAX_LINE	998		/* bytes of a template line (RFC 5322 2.1.1) */
#define TEMPLATE_WRAP_COLUMNS	72

/* A value for a placeholder; the caller owns both strings. */
struct template_var {
	const char *name;	/* without braces: "subject" */
	const char *value;	/* NULL is an error, "" an empty value */
};

struct template_set;

/*
 * Loads every *.txt file of dir ("review.txt", ... and any others
 * present; hidden files and other names are skipped).  The four known
 * templates must all be there; followup.txt (needed only with [build]
 * or [boot]) and feedback.txt (without it, false-positive commands are
 * recorded, not answered) are checked when present.  Returns 0 with
 * *out set (free it with template_set_free()), or -1 with err set and
 * *out NULL.
 */
int template_set_load(const char *dir, struct template_set **out,
		      char *err, size_t errlen);
void template_set_free(struct template_set *t);

/* 1 when the set has a template of that file name. */
int template_set_has(const struct template_set *t, const char *name);

/*
 * Renders the template named name ("review.txt") with vars, appending to
 * out.  A placeholder of the template without a var, a var that a known
 * template does not offer, or out's cap are errors (-1, err set, out left
 * as it was); vars the template does not use are fine.  When a name
 * appears twice in vars the first wins.
 */
int template_render(const struct template_set *t, const char *name,
		    const struct template_var *vars, size_t nvars,
		    struct sbuf *out, char *err, size_t errlen);

/*
 * Appends the one line s[0, n) (no newline in it) to out, word-wrapped at
 * width columns: each output line ends in '\n'.  A line that fits is
 * copied as it is (inner runs of spaces kept); otherwise it is broken at
 * runs of spaces and tabs, the run at a break dropped, and continuation
 * lines start with cont spaces (pass the line's own indentation to keep
 * it).  A word wider than a whole line (a long path, a URL) is cut into
 * pieces that fit, after a '/', '-', '_', '.' or ',' near the end of
 * the room where there is one, else at a character boundary; nothing
 * passes width but a word kept up so that no line starts like a
 * trailer (then cut only past TEMPLATE_MAX_LINE bytes).
 * Columns count UTF-8 characters, tabs to the next multiple of 8.
 * Returns 0 or out's error.
 */
int template_wrap(struct sbuf *out, const char *s, size_t n, size_t width,
		  size_t cont);

#define TEMPLATE_LABEL_MAX	40	/* bytes of "  label:   " a value lines up after */

/*
 * Where the wrapped lines of s[0, n) start: the column of its value when
 * it is a "  label:   value" line (a ':' and two or more blanks within
 * TEMPLATE_LABEL_MAX bytes, as in the checklist), else the columns of
 * its indentation (leading spaces and tabs).
 */
size_t template_indent(const char *s, size_t n);

/* Bytes of the well-formed UTF-8 character at s[0, n) (1 for ASCII), or
 * 0 when s starts with a malformed one (overlong, surrogate, > U+10FFFF,
 * truncated). */
size_t template_utf8_len(const char *s, size_t n);

#endif

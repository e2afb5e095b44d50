/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qfilter: the filters of `reviewbot query`, one set of rules for the
 * three ways they are written:
 *
 *   reviewbot query --category uapi,security --since 30d
 *   https://host/search?q=category:uapi+file:drivers/leds/leds-*+since:30d
 *     (or /api/v1/findings?category=uapi&since=30d)
 *   a mail to the bot: "query category:uapi file:drivers/leds/leds-* since:30d"
 *
 * The words are key:value (Patchew's search language), separated by
 * white space; a value with spaces is put in double quotes
 * (author:"Jane Doe"), and no value holds a '"'.  Keys:
 *
 *   author:TEXT    address or name contains TEXT, any case (also from:)
 *   file:GLOB      a finding's file matches GLOB (drivers/leds/leds-*)
 *   list:ADDR      posted to this list
 *   category:CATS  security, uapi, correctness, process, style; a comma
 *                  list matches any of them
 *   type:TYPES     checkpatch types, any case (long_line); a comma list
 *   since:DATE     mail dated on or after DATE: YYYY-MM-DD[THH:MM[:SS]]
 *                  (UTC), Unix seconds, or a time ago: 30d, 2w, 12h
 *   until:DATE     mail dated on or before DATE (a bare day: its end)
 *   series:MSGID   the series a message belongs to, <> or not
 *   limit:N        at most N rows
 *
 * Every value is checked here (a type must be a known one, a category
 * one of the five, a date a date) and normalised (types upper case,
 * categories lower case, Message-IDs without <>), so that what reaches
 * the store is always well-formed.  Nothing here prints.
 */
#ifndef RB_QFILTER_H
#define RB_QFILTER_H

#include <stddef.h>
#include <stdint.h>

#include "../checker/sbuf.h"
#include "../store/store.h"

#define QFILTER_MAX_VALUE	512	/* bytes of one value */
#define QFILTER_MAX_WORDS	32	/* key:value words of one query */
#define QFILTER_MAX_TEXT	4096	/* bytes of a query's words */
#define QFILTER_MAX_LIMIT	100000000

struct qfilter {
	char *author, *file, *list, *category, *type, *series;	/* owned */
	int64_t since, until;		/* 0: open */
	size_t limit;			/* 0: none */
	int nset;			/* filters set (limit not counted) */
};

void qfilter_init(struct qfilter *f);
void qfilter_release(struct qfilter *f);

/*
 * Sets the filter key (a name above, any case; "from" is "author") to
 * value, relative dates counted back from now.  A second value for a
 * key replaces the first.  0, or -1 with err ("unknown type 'FOO'").
 */
int qfilter_set(struct qfilter *f, const char *key, const char *value,
		int64_t now, char *err, size_t errlen);

/* Parses the words of s[0, n) into f (see above): 0 or -1 with err. */
int qfilter_parse(struct qfilter *f, const char *s, size_t n, int64_t now,
		  char *err, size_t errlen);

/* The filters as words again (dates as YYYY-MM-DD or with the time),
 * in the order above; "" when none. */
void qfilter_words(const struct qfilter *f, struct sbuf *out);

/* Points q's filters at f's (q is not cleared first: f must outlive q's
 * use). */
void qfilter_apply(const struct qfilter *f, struct store_query *q);

/* YYYY-MM-DD[THH:MM[:SS]] (UTC; end: the last second of a bare day),
 * Unix seconds, or N followed by d, w or h counted back from now. */
int qfilter_date(const char *s, int end, int64_t now, int64_t *out);

/* A Message-ID as typed ("<a@b>", " a@b "): the part between, malloc'd,
 * or NULL when it is empty, too long or holds white space or <>. */
char *qfilter_msgid(const char *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compose: the review mail of one series version, from templates/.
 *
 * The body (templates/review.txt, or review-clean.txt when nothing is
 * shown) has, in this order, each only when non-empty:
 *   the merge-readiness checklist, each line saying what was checked
 *   and what it found: security ("no finding in the patch text (not
 *   built)"), user-space interface, affects others, maintainer,
 *   compiles ("not checked (no tree)", or the stage's verdict), seems to
 *   work, and a "process" line only when a process finding blocks
 *   applying (checker/readiness.h); "ok" only where a stage ran and
 *   passed, "concern (N findings below)" counting what is listed;
 *   "Since vN-1:" fixed / new / still there, by fingerprint;
 *   sections Security, User-space interface (headed by what it holds:
 *   new, changed or removed ABI), Correctness, Process: each finding as
 *   "#K [PATCH M/N] file:line: SEVERITY: message (TYPE)" with the
 *   offending line quoted untouched below it (a rule that is only a
 *   question is of category correctness, so it is asked there);
 *   a problem is said once: the findings one cause gives in a patch (a
 *   malformed sign-off gives BAD_SIGN_OFF, NO_AUTHOR_SIGN_OFF and
 *   SIGN_OFF_NOT_SENDER) are one entry led by the cause ("which also
 *   gives ..."), and the findings of one type and message in one
 *   function (compose_finding.scope) are one entry with their lines
 *   ("file lines 40-63: ... (CODE_INDENT, 12 lines)");
 *   K numbers the entries of the mail from 1 in the order they are
 *   shown, so that an answer "false-positive #K" names one: every
 *   finding of the entry (bot/command.h; compose_review.cover gives
 *   each finding of an entry the entry's number);
 *   "Style errors": the style findings of severity ERROR, listed the
 *   same way, never folded into the nits;
 *   "Style nits: N" with a count per type (most frequent first, long
 *   lines first among equals) and at most COMPOSE_NIT_EXAMPLES examples
 *   each;
 *   the footer saying how to opt out and how to dispute a finding, and
 *   which types, if any, the list's maintainers demoted: the findings
 *   of a type in compose_review.demoted are counted with the nits,
 *   whatever their category or severity, and raise no concern in the
 *   checklist (bot/feedback.h).
 * Left out, so each concern is said once: checkpatch.pl's "Unknown
 * commit id" (UNKNOWN_COMMIT_ID: the bot checks without a tree),
 * FILE_PATH_CHANGES in a patch with NEW_FILE_NO_MAINTAINERS,
 * ALLOC_WITH_MULTIPLY on a line with ALLOC_SIZE_OVERFLOW.
 * Prose is wrapped at 72 columns, a word longer than a line broken
 * (template_wrap()); quoted code is never wrapped.
 *
 * Whether it is worth a mail (compose_stats.quiet): only when Security,
 * User-space interface, Correctness or Process lists something, or a
 * stage found a problem; style (nits and style ERRORs) alone is not.
 * The caller decides what a quiet review becomes ([source]
 * review_clean, bot/pipeline_review.c).
 *
 * Headers are made here, not by templates: From the bot, To the author,
 * Cc the list (and the original Cc when the policy says so), Subject
 * "Re: <subject of the mail replied to>", In-Reply-To and References
 * (folded so no line passes 78 columns where it can and never 998
 * octets), Message-ID from compose_message_id(), Date,
 * Auto-Submitted: auto-generated, X-Reviewbot: <version>, MIME-Version
 * and Content-Type text/plain; charset=UTF-8, 8bit.  Every header value
 * taken from mail is stripped of CR, LF and other controls and
 * RFC 2047-encoded when not ASCII, so no header can be injected.
 */
#ifndef RB_COMPOSE_H
#define RB_COMPOSE_H

#include <stddef.h>
#include <stdint.h>

#include "../../checker/sbuf.h"

#define COMPOSE_MAX_MAIL	(1u << 20)	/* bytes of one review mail */
#define COMPOSE_NIT_EXAMPLES	3
#define COMPOSE_MAX_SHOWN	50		/* findings listed per section */

struct template_set;

/* One finding as the composer sees it (from store_finding). */
struct compose_finding {
	int part;		/* M of the patch */
	const char *type;	/* "LONG_LINE" */
	const char *severity;	/* "ERROR", "WARNING", "CHECK" */
	const char *category;	/* "security", "uapi", "correctness", "process", "style" */
	const char *file;	/* NULL for the commit message */
	long line;
	const char *message;
	const char *line_text;	/* NULL when none */
	const char *fingerprint;
	int64_t id;		/* the store's finding id, 0 when none (for cover) */
	/* the function (or other top-level block) of file the line is in,
	 * as a number the caller makes (equal numbers: the same one), 0
	 * when not known: findings of one type and message with the same
	 * non-zero scope are said as one */
	uint64_t scope;
};

/* A finding the mail covers, and the number it shows it with. */
struct compose_cover {
	int64_t id;		/* compose_finding.id */
	int num;		/* #num, or 0: counted with the nits, or past
				 * COMPOSE_MAX_SHOWN of its section; the
				 * findings of one entry share its number */
};

struct compose_addr {
	const char *name;	/* may be NULL */
	const char *addr;
};

struct compose_review {
	/* the bot */
	struct compose_addr bot;
	const char *bot_version;	/* for X-Reviewbot */
	/* recipients: to is the author; cc the list and others (may be 0) */
	struct compose_addr to;
	const struct compose_addr *cc;
	size_t ncc;
	/* the mail replied to: cover letter, or first patch */
	const char *subject;		/* as sent, decoded */
	const char *in_reply_to;	/* its Message-ID, without <> */
	const char *const *references;	/* its References, oldest first */
	size_t nreferences;
	/* the series */
	int version, version_minor, total;
	size_t patches;			/* patches reviewed (may be < total) */
	/* the findings to report: already only those on lines the series
	 * adds and not removed by a later patch */
	const struct compose_finding *findings;
	size_t nfindings;
	/* the previous version's findings, or prev_version 0 when none */
	int prev_version;
	const struct compose_finding *prev;
	size_t nprev;
	/* criteria the bot could not check, with why (NULL: "not checked") */
	const char *compiles_note;
	const char *works_note;
	/* a stage that ran (bot/stage/build.c, the boot stage) gives its verdict:
	 * 0 = not run ("not checked" + note), else 1 + enum chk_ready; the
	 * note is then shown after "ok" / "concern" too */
	int compiles_state;
	int works_state;
	/* the compile stage's details (how it was built, how to reproduce
	 * it: bot/stage/build.h), lines of text, or NULL: the {{build}}
	 * block */
	const char *compiles_details;
	/* a stage still running when the review goes ([policy] stage_wait):
	 * the line says "pending", its result follows in a reply */
	int compiles_pending;
	int works_pending;
	/* 1: the follow-up with the stages' results (templates/followup.txt),
	 * replying to the review; findings then holds the stages' only */
	int followup;
	int64_t date;			/* for the Date: header */
	const char *message_id;		/* of the review, from compose_message_id() */
	/* types the list's maintainers demoted (bot/feedback.h): counted
	 * with the nits, and named in the footer when the mail has one */
	const char *const *demoted;
	size_t ndemoted;
	/* out, when not NULL: room for nfindings entries, which get the
	 * findings with an id the mail covers (compose_stats.ncover) */
	struct compose_cover *cover;
};

/* Counts the composer found, for the store's review row. */
struct compose_stats {
	long shown;		/* entries listed in sections (#1..#shown) */
	long nits;		/* style findings folded into the count */
	long fixed, added, still;
	int clean;		/* nothing shown, no nit */
	int quiet;		/* nothing in Security, User-space interface,
				 * Correctness or Process and no stage's
				 * concern: nothing worth a mail */
	size_t ncover;		/* entries written to compose_review.cover */
	long demoted;		/* findings counted with the nits as demoted */
};

/*
 * Composes the whole mail (headers and body, LF line ends) into out
 * (reset first).  Returns 0, or -1 with err set ("template review.txt:
 * unknown placeholder {{foo}}", a limit, ...).
 */
int compose_review_mail(const struct template_set *t, const struct compose_review *r,
			struct sbuf *out, struct compose_stats *stats,
			char *err, size_t errlen);

/*
 * The headers of an answer to a command mailed to the bot: From the bot,
 * To the sender alone, "Re: " its subject, threaded under it,
 * Auto-Submitted: auto-replied (RFC 3834), X-Reviewbot.
 */
struct compose_answer {
	struct compose_addr bot;
	const char *bot_version;
	struct compose_addr to;		/* the sender of the command */
	const char *subject;		/* of the command mail */
	const char *in_reply_to;	/* its Message-ID */
	const char *const *references;	/* its References */
	size_t nreferences;
	int64_t date;
	const char *message_id;		/* of the answer */
};

/* The answer to a command (bot/command.h), from templates/confirm.txt. */
struct compose_confirm {
	struct compose_answer head;
	const char *command;		/* "optout", ... for {{command}} */
	const char *effect;		/* what it does, for {{effect}} (NULL: "") */
	const char *token;		/* the one-time token, for {{token}} */
	/* the template: NULL for confirm.txt (a command carried out),
	 * "request.txt" (a command waiting for the token) */
	const char *template_name;
};

int compose_confirm_mail(const struct template_set *t, const struct compose_confirm *c,
			 struct sbuf *out, char *err, size_t errlen);

/*
 * The answer to "false-positive" (bot/command.h), from
 * templates/feedback.txt, with an answer's headers.  result and note are
 * paragraphs of prose, cleaned and wrapped here (note may be NULL).
 */
struct compose_feedback {
	struct compose_answer head;
	const char *command;		/* "false-positive LONG_LINE", for {{command}} */
	const char *result;		/* what was recorded, or why not */
	const char *note;		/* a maintainer's: how far the demotion is */
};

#define COMPOSE_MAX_PARAGRAPH	2048	/* bytes of result or note kept */

int compose_feedback_mail(const struct template_set *t, const struct compose_feedback *f,
			  struct sbuf *out, char *err, size_t errlen);

/*
 * The answer to a query mailed to the bot (bot/command_query.c), from
 * templates/query.txt, with c as for a confirmation (c->command the
 * query as understood, c->token unused): {{results}} and {{link}} are
 * blocks the caller made, {{query}} and {{address}} are cleaned here.
 */
int compose_query_mail(const struct template_set *t, const struct compose_confirm *c,
		       const char *results, const char *link, struct sbuf *out,
		       char *err, size_t errlen);

struct secret_key;

/*
 * The Message-ID of the review of the message reviewed_msgid, version
 * vN: "reviewbot-<16 hex digits of a hash of reviewed_msgid and the
 * version>@<domain of bot_addr>" (no <>), so the same review made again
 * has the same Message-ID.  The hash is SipHash-2-4 under key, the
 * installation's own (bot/secret.h: kept in its database), so nobody
 * outside can work out the Message-ID of a review before it is mailed
 * (and answer it, issue 33).  key NULL gives the unkeyed FNV-1a hash the
 * bot used before, for the composer's own tests only.  out must hold
 * 256 bytes.
 */
void compose_message_id(const struct secret_key *key, const char *reviewed_msgid,
			int version, int version_minor, const char *bot_addr,
			char *out, size_t outlen);

/* 1 when addr (surrounding white space and <> allowed) is an address
 * compose_review_mail() puts in a header: printable ASCII local@domain
 * without white space, specials or quotes, at most 254 bytes.  Cc
 * entries that fail, or repeat To, the bot or an earlier Cc (case-
 * insensitively), are left out of the mail: filter envelope recipients
 * the same way. */
int compose_address_ok(const char *addr);

/* Fingerprint of a finding: type + file + normalised line text (white
 * space runs collapsed, trimmed), hashed to 16 hex digits; the line
 * number is left out so it is stable across versions.  out: 17 bytes. */
void compose_fingerprint(const char *type, const char *file, const char *line_text,
			 char *out, size_t outlen);

/*
 * On a mail made by compose_review_mail() or compose_confirm_mail() (it
 * is queued, and may wait for a cap before it leaves):
 *
 * compose_mail_thread_ids() calls cb with each Message-ID (without <>)
 * of its In-Reply-To and References headers, and stops at the first
 * non-zero return, which it returns; 0 otherwise.
 *
 * compose_mail_drop_cc() puts the mail without its Cc header into out
 * (reset first): the same mail for its author alone.  0, or -1 when out
 * overflows.
 */
int compose_mail_thread_ids(const char *mail, int (*cb)(void *arg, const char *id),
			    void *arg);
int compose_mail_drop_cc(const char *mail, struct sbuf *out);

#endif

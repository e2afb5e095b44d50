/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * command: opting out by mail, and disputing a review's finding.
 *
 * A mail is meant for the bot when its To or Cc holds the bot's address
 * or its In-Reply-To is one of the bot's own replies.  Such a mail is a
 * command when the first line of its body that is not empty, not quoted
 * ('>') and not an attribution ("On ... wrote:", possibly wrapped over
 * two lines) is, ignoring case, HTML tags, surrounding white space and a
 * final '.' or '!':
 *
 *   optout             no more reviews of the sender's patches
 *   optout private     reviews to the sender only, never the list
 *   mute               nothing more in this thread: the thread of the
 *                      mail it answers, which the bot must have (a patch,
 *                      a review, ...), and only from the patch's or the
 *                      series' author or an address on the thread's
 *                      To/Cc; anyone else's is refused, unanswered
 *   optin              asks for a one-time token (mailed to the sender)
 *   optin TOKEN        uses the token (so does "confirm TOKEN")
 *   false-positive TYPE [reason]
 *   false-positive #N [reason]
 *                      the findings of type TYPE (any case), or the
 *                      finding the mail answered shows as #N (N alone
 *                      is taken too), are wrong: only in an answer to
 *                      a review or follow-up of the bot's (its
 *                      In-Reply-To, else the last References entry
 *                      that is one), whose findings they must be; the
 *                      rest of the line (after a ',', ':', ';' or '-'
 *                      too) is the reason, kept up to
 *                      STORE_FEEDBACK_REASON_MAX bytes.  Anyone may say
 *                      so; the list's maintainers' word demotes a type
 *                      on their list (bot/feedback.h).  Recorded once
 *                      per finding and sender: a mail that disputes
 *                      nothing new is recorded as a duplicate and not
 *                      answered.  One that names no finding of the
 *                      review, or answers no review, is answered with
 *                      why (templates/feedback.txt, like every answer
 *                      to it).
 *   query WORDS        the series and findings matching the key:value
 *                      words of bot/qfilter.h ("query category:uapi
 *                      file:drivers/leds/leds-* since:30d"), mailed back;
 *                      only what reviewbot serve would show
 *                      (bot/command_query.c).  The words keep their case
 *                      (file paths), and a plain-text line is taken as
 *                      written (series:<id@host> keeps its brackets)
 *
 * ("opt-out", "opt-in" and "false positive" are taken too.)  When that line is "optin" or
 * no command, a line "confirm TOKEN" among the first COMMAND_MAX_LINES
 * lines of the body is the token.  Command words are read from the
 * sender's own text only, never from quoted lines ('>' or inside an HTML
 * <blockquote>): an auto-responder quoting a confirmation cannot use its
 * token.
 *
 * Mail a program sent (command_auto_generated: RFC 3834's Auto-Submitted
 * other than "no", a null Return-Path, MAILER-DAEMON or postmaster,
 * X-Autoreply, X-Auto-Response-Suppress, Precedence bulk, junk or list)
 * is never a command: no answer, nothing changed.  Precedence bulk and
 * list are what a list adds to every mail it passes on, so on mail that
 * came through a list (List-Id) only "junk" counts.
 *
 * Who sent it (issue 33; reviewbot(8), TRUST): the sender is the From:
 * address, lowercased, which anyone can write.  It is "verified" when
 * the mail's DKIM signature verifies for its domain
 * (bot/mail/dkimcheck.h), "confirmed" when the address sent a token back
 * before (store confirmed), else neither.
 *
 *   - optout, optout private, mute and optin are never carried out from
 *     the mail: the address gets one request (templates/request.txt, a
 *     Subject of the bot's own, under requests_per_day and
 *     max_requests_per_hour) with a token that carries the command
 *     (store optin_tokens.action); "confirm TOKEN" back from that
 *     address, within COMMAND_TOKEN_TTL, once, carries it out and is
 *     answered (templates/confirm.txt) with a fresh token that opts the
 *     address back in.  A query from a sender neither verified nor
 *     confirmed waits the same way.
 *   - false-positive is recorded for anyone, as a maintainer's only when
 *     verified and about a review mailed to that list; answered
 *     (templates/feedback.txt) only to a verified or confirmed sender.
 *   - a command whose Date: is missing, past [policy] max_clock_skew
 *     ahead or older than [policy] max_age is refused, answered with why
 *     to a verified or confirmed sender only.
 *   - every answer's Subject is the bot's own ("Re: [reviewbot] ..."),
 *     never the command mail's.
 *
 * A token that does not work for the sender gets no answer.
 */
#ifndef RB_COMMAND_H
#define RB_COMMAND_H

#include <stddef.h>
#include <stdint.h>

#include "mail/mime.h"
#include "../store/store.h"

#define COMMAND_MAX_LINES	60		/* lines of a body looked at */
#define COMMAND_MAX_SCAN	(64u << 10)	/* bytes of a body looked at */
#define COMMAND_TOKEN_HEX	32		/* a token: 128 random bits in hex */
#define COMMAND_TOKEN_TTL	(7 * 86400)	/* seconds a token works */
#define COMMAND_SKIP_LINE	"reviewbot: skip"
#define COMMAND_TYPE_MAX	63		/* bytes of a TYPE named */
#define COMMAND_NUMBER_MAX	99999		/* the largest #N taken */

enum command_kind {
	COMMAND_NONE = 0,
	COMMAND_OPTOUT,
	COMMAND_OPTOUT_PRIVATE,
	COMMAND_MUTE,
	COMMAND_OPTIN,		/* asks for a token */
	COMMAND_CONFIRM,	/* carries a token */
	COMMAND_FALSE_POSITIVE,	/* type or number (neither: answered with how) */
	COMMAND_QUERY,		/* query WORDS */
};

#define COMMAND_QUERY_MAX	1024	/* bytes of a query's words */

struct command {
	enum command_kind kind;
	char token[COMMAND_TOKEN_HEX + 1];	/* COMMAND_CONFIRM: lowercase hex */
	/* COMMAND_FALSE_POSITIVE: the type named (uppercase, [A-Z0-9_]) or
	 * "", the number named (1..COMMAND_NUMBER_MAX) or 0, the reason
	 * (UTF-8 as written, white space runs as one space) or "" */
	char type[COMMAND_TYPE_MAX + 1];
	int number;
	char reason[STORE_FEEDBACK_REASON_MAX + 1];
	char query[COMMAND_QUERY_MAX + 1];	/* COMMAND_QUERY: the words */
	int query_too_long;			/* ... past COMMAND_QUERY_MAX */
};

/* Parses body[0, len) as above; returns c->kind. */
enum command_kind command_parse(const char *body, size_t len, struct command *c);
/* "optout", "optout private", "mute", "optin", "optin confirmed",
 * "false-positive", "none". */
const char *command_name(enum command_kind k);

/* 1 when a line of body[0, len) (a cover letter) is "Reviewbot: skip"
 * (any case, surrounding white space allowed). */
int command_wants_skip(const char *body, size_t len);

/* Why m looks sent by a program rather than a person (see above), or
 * NULL. */
const char *command_auto_generated(const struct mime_mail *m);

/* The Message-ID of the thread m belongs to: its first References
 * entry, else its In-Reply-To, else its own Message-ID. */
const char *command_thread_root(const struct mime_mail *m);

/*
 * How far a command's sender is known.  Anyone can write any From:, so
 * a mail from an address counts as that address's only when its DKIM
 * signature verifies for the From: domain (bot/mail/dkimcheck.h), or
 * the address sent a token of the bot's back before (it reads its
 * mail: confirmed).
 */
enum command_trust {
	COMMAND_TRUST_NONE = 0,
	COMMAND_TRUST_CONFIRMED,
	COMMAND_TRUST_VERIFIED,
};
/* "verified", "confirmed", "neither verified nor confirmed". */
const char *command_trust_name(enum command_trust t);

struct config;
/* Why a command dated date (0: none) is refused at now, or NULL: no
 * Date:, later than now + [policy] max_clock_skew, or older than
 * [policy] max_age (when set). */
const char *command_date_refusal(const struct config *cfg, int64_t date, int64_t now);

struct pipeline;

/*
 * The pipeline's hook (pipeline_process, before the subject is looked
 * at): when message id (parsed as m) is a command to the bot, carries it
 * out, marks the message MSG_COMMAND and queues the confirmation mail
 * (kind "confirm", To the sender only, suppressed past
 * confirmations_per_hour, or when the source's reply policy is none).
 * row is the message's store row (its source).  Returns 1 when handled,
 * 0 when m is not a command (the pipeline goes on), or a negative store
 * error.  Mail imported as history (PIPE_IMPORT) is never a command.
 */
int command_process(struct pipeline *p, int64_t id, const struct mime_mail *m,
		    const struct store_msg *row, int64_t now);

/*
 * "query WORDS" from sender (lowercase): runs it with the privacy rule
 * of reviewbot serve and queues the answer (kind "confirm": the same
 * per-address and overall budgets as the other commands' answers).
 * *reason (may stay NULL) says why no answer was queued.  0 or a
 * negative store error.  (bot/command_query.c)
 */
int command_query(struct pipeline *p, const struct mime_mail *m,
		  const struct store_msg *row, const char *sender,
		  const struct command *c, int64_t now, const char **reason);

#endif

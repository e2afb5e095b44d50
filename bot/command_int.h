/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What command.c, command_feedback.c and command_query.c share (see
 * command.h): an answer's headers and its queue (command_answer.c) below
 * them, and the false-positive command (command_feedback.c) that
 * command.c hands on.
 */
#ifndef RB_COMMAND_INT_H
#define RB_COMMAND_INT_H

#include <stddef.h>
#include <stdint.h>

#include "command.h"

struct pipeline;
struct compose_answer;

/*
 * The headers of the answer to command mail m from sender, dated now,
 * into h: Subject "Re: " subject, the bot's own words (never the
 * command mail's Subject: a forged sender cannot have the bot mail its
 * text to someone), threaded under m; its Message-ID made into msgid
 * (version 0: never a review's).  h points into m, subject and msgid.
 */
void command_answer_head(const struct pipeline *p, const struct mime_mail *m,
			 const char *sender, int64_t now, const char *subject,
			 char *msgid, size_t msgidlen, struct compose_answer *h);

/* The budget a mail to a command's sender counts against. */
enum command_budget {
	/* an answer to a verified or confirmed sender: confirmations_per_hour
	 * for the address, max_confirmations_per_hour for all */
	COMMAND_ANSWER,
	/* a request for a token, the one mail an unknown address gets:
	 * requests_per_day for the address, max_requests_per_hour for all */
	COMMAND_REQUEST,
};

/*
 * Queues mail (whole, headers included), Message-ID msgid, as the one
 * answer to command mail m, To sender alone: kind "confirm", so it
 * counts against confirmations_per_hour (per address) and
 * max_confirmations_per_hour (all together), past which, or when the
 * source's reply policy is none, it is recorded suppressed.  STORE_OK
 * (a second answer with the same Message-ID is not queued again) or a
 * negative store error.  Logged as event, with query (when not NULL).
 */
int command_queue_answer(struct pipeline *p, const struct mime_mail *m,
			 const struct store_msg *row, const char *sender,
			 const char *msgid, const char *mail, int64_t now,
			 const char *event, const char *query, enum command_budget budget);

/*
 * Carries out a false-positive command c from sender (lowercase, known
 * as trust) in message id (m, its store row): records the disputes,
 * marks the message MSG_COMMAND with what was done, and queues the
 * answer when the sender may be answered (verified or confirmed).  The
 * dispute is a maintainer's only when the sender is verified, maintains
 * the list and the review answered was mailed to that list.  Returns
 * STORE_OK or a negative store error.
 */
int command_false_positive(struct pipeline *p, int64_t id, const struct mime_mail *m,
			   const struct store_msg *row, const char *sender,
			   const struct command *c, enum command_trust trust, int64_t now);

#endif

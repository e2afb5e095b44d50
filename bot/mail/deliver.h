/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * deliver: hands one reply to its way out.
 *
 *   maildir   written into the outbox maildir (tmp/ → new/, fsync'd);
 *             the dry-run default: nothing leaves the machine
 *   sendmail  the configured program run directly (no shell) as
 *             "sendmail -i -f FROM -- RCPT...", the mail on its stdin;
 *             exit status 0 is delivered, 75 (EX_TEMPFAIL) is a
 *             temporary failure, anything else a permanent one
 *   smtp      to [delivery] url with libcurl (bot/mail/smtp.c): sent after
 *             the server's final 250 for the DATA; a 4xx, a refused or
 *             dropped connection or a timeout is a temporary failure, a
 *             5xx a permanent one with the server's words in err
 *
 * With dry_run on, every reply goes to the outbox maildir whatever the
 * delivery type: [delivery] path for type maildir, else "outbox" beside
 * the database.
 */
#ifndef RB_DELIVER_H
#define RB_DELIVER_H

#include <stddef.h>

#include "../config.h"
#include "../../store/store.h"

enum deliver_result {
	DELIVER_OK = 0,
	DELIVER_TEMPFAIL = 1,	/* try again later */
	DELIVER_UNREACHABLE = 2, /* the same, and the server is down or silent:
				  * no use trying the other replies now */
	DELIVER_PERMFAIL = -1,	/* give up: err says why */
};

#define DELIVER_MAX_RCPTS	64

/* The outbox folder dry runs write to (malloc'd). */
char *deliver_outbox(const struct config *cfg);

int deliver_reply(const struct config *cfg, const struct store_reply *r,
		  char *err, size_t errlen);

#endif

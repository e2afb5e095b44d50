/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * maildate: the date a mail is taken to have, for the age rules (the
 * first start's floor, [policy] max_age).
 *
 * Date: is what the sender's machine said, and anyone may write any
 * date there; the newest Received: line (the topmost, added by the last
 * server that took the mail: the list's, the archive's or the bot's own)
 * says when the mail system saw it.  Date: is believed unless it is
 * implausible: missing, or more than MAILDATE_FUTURE_SKEW after the
 * arrival (a 2019 patch dated 2085 is as suspect as an old one: it is
 * taken to be of 2019).  An arrival that is missing, or itself more than
 * MAILDATE_FUTURE_SKEW after now, is now: the moment the bot has the
 * mail.  So the date taken is never after the arrival by more than the
 * skew, never after the Date: when there is one, and the same for the
 * same bytes whichever source delivered them.
 */
#ifndef RB_MAILDATE_H
#define RB_MAILDATE_H

#include <stdint.h>

/* Seconds a Date: may be ahead of its arrival (clocks and time zones
 * set wrong by a few hours are common; a day is not). */
#define MAILDATE_FUTURE_SKEW	86400

/* The date taken, from Date: (0: none) and the newest Received: (0:
 * none) at now. */
int64_t maildate_effective(int64_t date, int64_t received, int64_t now);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * maildate: the date a mail is taken to have (maildate.h).
 */
#include "maildate.h"

int64_t maildate_effective(int64_t date, int64_t received, int64_t now)
{
	int64_t arrival = received;

	if (arrival <= 0 || arrival > now + MAILDATE_FUTURE_SKEW)
		arrival = now;
	if (date <= 0 || date > arrival + MAILDATE_FUTURE_SKEW)
		return arrival;
	return date;
}

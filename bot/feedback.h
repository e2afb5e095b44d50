/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * feedback: what people's "false-positive" answers (bot/command.h) make
 * of a type on a list.
 *
 * A type is demoted on a list when the list's maintainers ([source]
 * maintainers) answered "false-positive" to a finding of that type in
 * at least [policy] demote_after reviews (series) of the list (0:
 * never).  A dispute counts when its sender maintained the list when it
 * was sent and still does ([source] maintainers now): taking an address
 * out of the configuration takes its word back.  A demoted type's
 * findings are counted with the nits in that list's reviews, and no
 * longer raise a concern in the checklist (bot/mail/compose.h); other lists
 * keep it as it is.
 *
 * Front-binary safe: store and configuration only.
 */
#ifndef RB_FEEDBACK_H
#define RB_FEEDBACK_H

#include <stddef.h>

#include "config.h"
#include "../store/store.h"

#define FEEDBACK_MAX_DEMOTED	256	/* types demoted on one list, at most */

/* The types demoted on one list (each malloc'd, sorted). */
struct feedback_demoted {
	char **types;
	size_t n;
};

/*
 * The types demoted on list under cfg (none when list is NULL, has no
 * maintainers or demote_after is 0).  STORE_OK or a store error (d is
 * then empty).
 */
int feedback_demoted_load(struct store *st, const struct config *cfg, const char *list,
			  struct feedback_demoted *d);
/* 1 when type is among them. */
int feedback_demoted_has(const struct feedback_demoted *d, const char *type);
void feedback_demoted_release(struct feedback_demoted *d);

/* The reviews of list in which its maintainers (now and then) disputed a
 * finding of type: *n, to set against demote_after. */
int feedback_type_reviews(struct store *st, const struct config *cfg, const char *list,
			  const char *type, long long *n);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * series: which series (and version) a patch mail or cover letter
 * belongs to, kept in the store.
 *
 * A series version is keyed by (list, author, thread root, version,
 * minor, total).  The thread root is the first Message-ID of References
 * (or In-Reply-To, or the mail's own Message-ID when it starts a
 * thread): a cover letter 0/N and the parts threaded under it share it,
 * and so do parts threaded under the first patch when there is no cover
 * letter, or chained one under the other (--chain-reply-to), or a v2
 * sent in reply to v1 (the version keeps them apart).  Parts may arrive
 * in any order: the first to arrive creates the series.  Parts that carry
 * no threading headers at all join the author's open series of the same
 * version, tags and size that lacks their number, whose latest part came
 * within SERIES_UNTHREADED_WINDOW and one of whose mails is dated within
 * SERIES_UNTHREADED_DATE_WINDOW of theirs.
 *
 * A single part sent in reply to a part of an earlier version with the
 * same number ("[PATCH v2 3/7]" under v1's 3/7, "[PATCH v5.1 3/7]") is a
 * replacement: a series version of its own, of one part, whose previous
 * version is the replied-to series.
 *
 * The previous version of a series is found when it is reviewed:
 * b4's change-id, then links to earlier versions in the cover letter
 * (lore.kernel.org/.../MSGID, "v1: <MSGID>"), then the newest earlier
 * version by the same author with the same normalised subject on the
 * same list.
 */
#ifndef RB_SERIES_H
#define RB_SERIES_H

#include <stdint.h>

#include "../store/store.h"
#include "mime.h"
#include "subject.h"

#define SERIES_MAX_LINKS	16	/* earlier-version links read from a cover */
#define SERIES_UNTHREADED_WINDOW (6 * 3600) /* seconds an unthreaded part may lag */
#define SERIES_UNTHREADED_DATE_WINDOW (20 * 60) /* Date: skew within an unthreaded
						 * series (Patchwork's SERIES_DELAY_INTERVAL) */

/*
 * Places message msg_id (mail m, subject sj of kind SUBJ_PATCH or
 * SUBJ_COVER) into its series, creating it when needed, and records the
 * patch (for parts >= 1) with store_patch_add.  *series_id and
 * *patch_id (0 for a cover letter) are set.  A second mail for a part
 * already present (a resend with a new Message-ID) returns STORE_DUP:
 * the caller marks it skipped.  Runs inside the caller's transaction.
 */
int series_place(struct store *st, int64_t msg_id, const struct mime_mail *m,
		 const struct subject *sj, const char *list, int64_t now,
		 int64_t *series_id, int64_t *patch_id);

/* 1 when every part 1..total of the series is in. */
int series_complete(struct store *st, const struct store_series *s);

/*
 * Finds and records the previous version of s (when s->prev_id is not
 * set yet); cover_body is the cover letter's text or NULL.
 */
int series_link_prev(struct store *st, struct store_series *s, const char *cover_body);

/* b4's "change-id: ..." from a cover letter's body into out (NUL-terminated);
 * 0 when found, -1 when not. */
int series_change_id(const char *body, char *out, size_t outlen);

#endif

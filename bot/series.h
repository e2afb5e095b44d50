/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * series: which series (and version) a patch mail or cover letter
 * belongs to, kept in the store.
 *
 * As Patchwork does (parser.find_series), a mail finds its series
 * through its references: the series whose mails named this mail's
 * Message-ID (parts that came before it), else the series holding or
 * naming what it replies to, nearest first (In-Reply-To, a repeated
 * In-Reply-To or References header, References from the newest to the
 * oldest), whatever the order of arrival, duplicated headers or
 * References listed newest first.  A series is one author's on one list
 * (store_series_by_ref).  The first reference that names a series of the
 * mail's version and size decides:
 *
 *  - the series lacks the mail's part: the mail joins it;
 *  - it holds that part, replying to what this mail replies to: a copy
 *    under a new Message-ID (STORE_DUP, the caller files it skipped);
 *  - it holds that part elsewhere in the thread (an unversioned resend
 *    sent in reply to the old series): the mail starts a series.
 *
 * A mail without "vN" goes with a series of any version ("[PATCH 1/4]"
 * under "[PATCH v3 0/4]"), and a series of such mails takes the version
 * of a mail they reply to.  A cover letter joins only a series that
 * named it: what it replies to is an earlier version or a discussion.
 * A series of an older version met on the way is the new series'
 * previous version: a v2 sent with --in-reply-to to v1's cover letter,
 * first patch or last patch is one v2 series, compared with v1.
 *
 * Parts without any threading header join the author's open series of
 * the same version, tags (prefix) and size that lacks their number,
 * whose latest part came within SERIES_UNTHREADED_WINDOW and one of
 * whose mails is dated within SERIES_UNTHREADED_DATE_WINDOW of theirs.
 *
 * A single part sent in reply to a part of an earlier version with the
 * same number ("[PATCH v2 3/7]" under v1's 3/7, "[PATCH v5.1 1/7]") is a
 * replacement: a series version of its own, of one part, whose previous
 * version is the replied-to series.  Part 1 of a whole new version sent
 * in reply to the earlier part 1 is no replacement: its parts follow.
 *
 * A plain "[PATCH]" (no M/N) is a series of its own.  The thread root
 * kept with a series (first References entry, In-Reply-To, or the mail
 * itself) is what mutes match.
 *
 * The previous version of a series not found through references is
 * found when it is reviewed, always among the same author's series on
 * the same list (a stranger's series is never someone's next version:
 * a change-id or a link is text anyone can copy, and no sender is
 * verified yet): b4's change-id (in the cover letter, or under the
 * "---" of a first patch without one), then links to earlier versions
 * in the cover letter or the patch's notes (lore.kernel.org/.../MSGID),
 * then the newest earlier version changing the same files (of the
 * version "Changes since vN" names, when it does), then the one with the
 * same normalised subject.  A later version that came first (v2 sent in
 * reply to v1, read before it) gets the earlier one when it comes.
 */
#ifndef RB_SERIES_H
#define RB_SERIES_H

#include <stdint.h>

#include "../store/store.h"
#include "mail/mime.h"
#include "mail/subject.h"

#define SERIES_MAX_LINKS	16	/* earlier-version links read from a cover */
#define SERIES_UNTHREADED_WINDOW (6 * 3600) /* seconds an unthreaded part may lag */
#define SERIES_UNTHREADED_DATE_WINDOW (20 * 60) /* Date: skew within an unthreaded
						 * series (Patchwork's SERIES_DELAY_INTERVAL) */
#define SERIES_MAX_WALK		64	/* references of a mail looked up */
#define SERIES_MAX_CANDIDATES	8	/* series looked at for one reference,
					 * or as an earlier version by files */
#define SERIES_MAX_FILES	256	/* files of a series compared */
#define SERIES_MAX_PATH		1024	/* bytes of a file's path */
#define SERIES_MAX_PATCHES_READ	64	/* patches of a series read for its files */
#define SERIES_FILES_OVERLAP	50	/* percent of the files shared: a version */

/*
 * Places message msg_id (mail m, subject sj of kind SUBJ_PATCH or
 * SUBJ_COVER) into its series, creating it when needed, and records the
 * patch (for parts >= 1) with store_patch_add, and the Message-IDs it
 * names (store_series_ref_add).  *series_id and *patch_id (0 for a
 * cover letter) are set.  A copy of a part already present, in the same
 * place of the thread under a new Message-ID, returns STORE_DUP with
 * *series_id: the caller marks it skipped.  Runs inside the caller's
 * transaction.
 */
int series_place(struct store *st, int64_t msg_id, const struct mime_mail *m,
		 const struct subject *sj, const char *list, int64_t now,
		 int64_t *series_id, int64_t *patch_id);

/* 1 when every part 1..total of the series is in. */
int series_complete(struct store *st, const struct store_series *s);

/*
 * Finds and records the previous version of s (when s->prev_id is not
 * set yet); body is the cover letter's text, or without one the first
 * patch's (its notes are read), or NULL.
 */
int series_link_prev(struct store *st, struct store_series *s, const char *body);

/* The version a cover letter says its series follows ("Changes since
 * v2", "v2 -> v3", "Changes in v3"), below version; 0 when none. */
int series_changes_since(const char *body, int version);

/* b4's "change-id: ..." from a cover letter's body into out (NUL-terminated);
 * 0 when found, -1 when not. */
int series_change_id(const char *body, char *out, size_t outlen);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source: feeding mail into the pipeline, from the configured sources
 * (run) or from files named on the command line (import, review).
 *
 * Local sources: maildir and mbox.  Mail is taken in batches: up to
 * SOURCE_BATCH messages (or SOURCE_BATCH_BYTES) are stored, with the
 * source's checkpoint, in one transaction; then each is processed in a
 * transaction of its own.  A crash after the first commit leaves the
 * messages in state "new" and the checkpoint past them: the next run
 * processes them (pipeline_process_pending) and reads on from there.
 */
#ifndef RB_SOURCE_H
#define RB_SOURCE_H

#include <stdint.h>

#include "config.h"
#include "pipeline.h"

#define SOURCE_BATCH		512
#define SOURCE_BATCH_BYTES	(32u << 20)

/* Called after each batch (for progress); may be NULL. */
typedef void (*source_progress_fn)(void *arg, uint64_t done, uint64_t total);

/*
 * Reads what is new in a configured local source (after its checkpoint)
 * through the pipeline.  Returns 0, or -1 with err set.
 */
int source_poll_local(struct pipeline *p, struct store *st,
		      const struct config_source *src, int64_t now,
		      char *err, size_t errlen);

/*
 * Reads every message of path (an mbox, a single mail, or a maildir)
 * through the pipeline, with no checkpoint; src may be NULL.
 */
int source_read_path(struct pipeline *p, struct store *st,
		     const struct config_source *src, const char *path,
		     int64_t now, source_progress_fn progress, void *arg,
		     char *err, size_t errlen);

#endif

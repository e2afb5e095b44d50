// SPDX-License-Identifier: GPL-2.0-only
/*
 * The local sources: mbox files (checkpoint: the byte offset after the
 * last message read) and maildirs (checkpoint: the newest delivery
 * time read; see read_maildir).  A first start reads them whole, the
 * floor (source.h) deciding on each mail.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "source.h"
#include "../log.h"
#include "../mail/mailbox.h"
#include "../../checker/banned.h"

static int read_mbox(struct source_batch *b, const char *path, uint64_t offset, int checkpoint,
		     source_progress_fn progress, void *arg, char *err, size_t errlen)
{
	struct mbox_reader *r = NULL;
	struct sbuf msg;
	struct stat sb;
	uint64_t start, next = offset;
	char cp[64];
	int ret;

	sbuf_init(&msg, MAILBOX_MAX_MESSAGE);
	if (stat(path, &sb)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		ret = -1;
		goto out;
	}
	/* a file shorter than the checkpoint was rewritten: read it again
	 * (duplicates are recognised by Message-ID) */
	if ((uint64_t)sb.st_size < offset)
		offset = next = 0;
	ret = mbox_open(path, offset, MBOX_RD, &r);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		ret = -1;
		goto out;
	}
	for (;;) {
		ret = mbox_next(r, &msg, &start, &next);
		if (ret == MAILBOX_END)
			break;
		if (ret == MAILBOX_ERR_LIMIT) {
			snprintf(cp, sizeof(cp), "%" PRIu64, start);
			log_event(LOG_WARN, "message-too-large", "file", path,
				  "offset", cp, NULL);
			continue;
		}
		if (ret) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			ret = -1;
			goto out;
		}
		ret = source_batch_add(b, msg.buf, msg.len);
		if (ret < 0)
			goto store_err;
		if (source_batch_full(b)) {
			snprintf(cp, sizeof(cp), "%" PRIu64, next);
			ret = source_batch_flush(b, checkpoint ? cp : NULL);
			if (ret < 0)
				goto store_err;
			if (progress)
				progress(arg, next, (uint64_t)sb.st_size);
		}
	}
	snprintf(cp, sizeof(cp), "%" PRIu64, next);
	ret = source_batch_flush(b, checkpoint ? cp : NULL);
	if (ret < 0)
		goto store_err;
	if (progress)
		progress(arg, (uint64_t)sb.st_size, (uint64_t)sb.st_size);
	ret = 0;
	goto out;
store_err:
	snprintf(err, errlen, "database: %s", store_strerror(ret));
	ret = -1;
out:
	source_batch_abort(b);
	if (r)
		mbox_close(r);
	sbuf_release(&msg);
	return ret;
}

/*
 * A maildir's checkpoint is "t=SECONDS": the newest delivery time read,
 * from the names' leading seconds (maildir(5): "time.unique.host").
 * Names are not ordered within a second (nor across hosts' unique
 * parts), so every message named within MAILDIR_SLACK seconds of the
 * checkpoint, or not named by time at all, is read again; those already
 * stored are recognised by their Message-ID and dropped.  A mail reader
 * moving a message from new/ to cur/ keeps its time.
 */
#define MAILDIR_SLACK	300	/* seconds */

static int64_t name_time(const char *name)
{
	const char *base = strrchr(name, '/');
	int64_t t = 0;
	int digits = 0;

	for (base = base ? base + 1 : name; *base >= '0' && *base <= '9' && digits < 18;
	     base++, digits++)
		t = t * 10 + (*base - '0');
	return digits ? t : -1;
}

static int64_t pos_parse(const char *cp)
{
	char *end;
	long long t;

	if (!cp || strncmp(cp, "t=", 2))
		return -1;
	errno = 0;
	t = strtoll(cp + 2, &end, 10);
	return errno || *end || t < 0 ? -1 : t;
}

static int read_maildir(struct source_batch *b, const char *dir, const char *after,
			int checkpoint, source_progress_fn progress, void *arg,
			char *err, size_t errlen)
{
	struct maildir_list l;
	struct sbuf msg;
	char cp[32];
	int64_t since = pos_parse(after), newest = since, t;
	size_t i;
	int ret;

	memset(&l, 0, sizeof(l));
	sbuf_init(&msg, MAILBOX_MAX_MESSAGE);
	/* a maildir that is not there is a mistake (a typo, an unmounted
	 * disk), not an empty source */
	if (!mailbox_is_maildir(dir)) {
		struct stat sb;

		if (stat(dir, &sb))
			snprintf(err, errlen, "maildir %s: %s", dir, strerror(errno));
		else
			snprintf(err, errlen, "%s: not a maildir (no cur/ and new/ folders)", dir);
		ret = -1;
		goto out;
	}
	ret = maildir_list(dir, NULL, &l);
	if (ret) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		ret = -1;
		goto out;
	}
	for (i = 0; i < l.n; i++) {
		t = name_time(l.names[i]);
		if (since >= 0 && t >= 0 && t < since - MAILDIR_SLACK)
			continue;
		sbuf_reset(&msg);
		ret = maildir_read(dir, l.names[i], &msg);
		if (ret == MAILBOX_ERR_LIMIT) {
			/* over the ceiling of [limits] max_message_bytes: not
			 * read, as the mbox reader and the other sources do */
			log_event(LOG_WARN, "message-too-large", "file", l.names[i], NULL);
			continue;
		}
		if (ret) {
			/* gone (moved by a mail reader): say so, go on */
			log_event(LOG_WARN, "unreadable-message", "file", l.names[i], "error",
				  ret == MAILBOX_ERR_NOMEM ? "out of memory" : strerror(errno),
				  NULL);
			continue;
		}
		ret = source_batch_add(b, msg.buf, msg.len);
		if (ret < 0)
			goto store_err;
		if (t > newest)
			newest = t;
		if (source_batch_full(b)) {
			snprintf(cp, sizeof(cp), "t=%lld", (long long)newest);
			ret = source_batch_flush(b, checkpoint && newest >= 0 ? cp : NULL);
			if (ret < 0)
				goto store_err;
			if (progress)
				progress(arg, i + 1, l.n);
		}
	}
	snprintf(cp, sizeof(cp), "t=%lld", (long long)newest);
	ret = source_batch_flush(b, checkpoint && newest >= 0 ? cp : NULL);
	if (ret < 0)
		goto store_err;
	if (progress)
		progress(arg, l.n, l.n);
	ret = 0;
	goto out;
store_err:
	snprintf(err, errlen, "database: %s", store_strerror(ret));
	ret = -1;
out:
	source_batch_abort(b);
	maildir_list_release(&l);
	sbuf_release(&msg);
	return ret;
}


static int local_poll(struct source_session *s, struct source_batch *b,
		      char *err, size_t errlen)
{
	const struct config_source *src = s->src;
	char *cp = NULL, *end;
	uint64_t offset = 0;
	int ret;

	ret = source_batch_checkpoint(b, &cp);
	if (ret < 0) {
		snprintf(err, errlen, "database: %s", store_strerror(ret));
		return -1;
	}
	/* run --since: read from the start, the floor deciding (what the
	 * store holds is recognised by Message-ID) */
	if (s->rewind) {
		free(cp);
		cp = NULL;
	}
	if (src->type == SRC_MBOX) {
		if (cp) {
			errno = 0;
			offset = strtoull(cp, &end, 10);
			if (errno || *end)
				offset = 0;
		}
		ret = read_mbox(b, src->path, offset, 1, NULL, NULL, err, errlen);
	} else {
		ret = read_maildir(b, src->path, cp, 1, NULL, NULL, err, errlen);
	}
	free(cp);
	return ret;
}

static void local_close(struct source_session *s)
{
	s->priv = NULL;
}

static const struct source_ops local_ops = {
	.name = "local",
	.poll = local_poll,
	.idle = NULL,
	.close = local_close,
};

int src_local_init(struct source_session *s, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	s->ops = &local_ops;
	return 0;
}

int source_read_path(struct pipeline *p, struct store *st,
		     const struct config_source *src, const char *path,
		     int64_t now, source_progress_fn progress, void *arg,
		     char *err, size_t errlen)
{
	struct source_batch *b;
	int ret;

	b = source_batch_new(p, st, src, now);
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (mailbox_is_maildir(path))
		ret = read_maildir(b, path, NULL, 0, progress, arg, err, errlen);
	else
		ret = read_mbox(b, path, 0, 0, progress, arg, err, errlen);
	source_batch_free(b);
	return ret;
}

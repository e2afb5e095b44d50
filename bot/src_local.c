// SPDX-License-Identifier: GPL-2.0-only
/*
 * The local sources: mbox files (checkpoint: the byte offset after the
 * last message read) and maildirs (checkpoint: the last name read in new/
 * and in cur/).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "source.h"
#include "log.h"
#include "mailbox.h"
#include "../checker/banned.h"

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
 * A maildir's checkpoint is the last name read in new/ and in cur/,
 * "new/NAME\ncur/NAME" (either may be missing): new mail lands in new/
 * and mail readers move it to cur/, so each folder is followed apart.  A
 * message moved after it was read comes again under a new name and is
 * recognised by its Message-ID.
 */
struct maildir_pos {
	char *last[2];		/* new/, cur/ */
};

static int folder_of(const char *name)
{
	return !strncmp(name, "cur/", 4);
}

static void pos_parse(struct maildir_pos *pos, const char *cp)
{
	const char *nl;

	pos->last[0] = pos->last[1] = NULL;
	while (cp && *cp) {
		nl = strchr(cp, '\n');
		if (!strncmp(cp, "new/", 4) || !strncmp(cp, "cur/", 4))
			pos->last[folder_of(cp)] = nl ? strndup(cp, (size_t)(nl - cp)) : strdup(cp);
		cp = nl ? nl + 1 : NULL;
	}
}

static char *pos_format(const struct maildir_pos *pos)
{
	struct sbuf sb;

	sbuf_init(&sb, 2 * PATH_MAX + 2);
	if (pos->last[0])
		sbuf_addstr(&sb, pos->last[0]);
	if (pos->last[1]) {
		if (sb.len)
			sbuf_addch(&sb, '\n');
		sbuf_addstr(&sb, pos->last[1]);
	}
	return sbuf_detach(&sb, NULL);
}

static int read_maildir(struct source_batch *b, const char *dir, const char *after,
			int checkpoint, source_progress_fn progress, void *arg,
			char *err, size_t errlen)
{
	struct maildir_list l;
	struct maildir_pos pos;
	struct sbuf msg;
	char *cp = NULL;
	size_t i;
	int ret, f;

	memset(&l, 0, sizeof(l));
	pos_parse(&pos, after);
	sbuf_init(&msg, MAILBOX_MAX_MESSAGE);
	ret = maildir_list(dir, NULL, &l);
	if (ret) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		ret = -1;
		goto out;
	}
	for (i = 0; i < l.n; i++) {
		f = folder_of(l.names[i]);
		if (pos.last[f] && strcmp(l.names[i], pos.last[f]) <= 0)
			continue;
		sbuf_reset(&msg);
		ret = maildir_read(dir, l.names[i], &msg);
		if (ret) {
			/* gone (moved by a mail reader) or too large: say so, go on */
			log_event(LOG_WARN, "unreadable-message", "file", l.names[i],
				  "error", strerror(errno), NULL);
			continue;
		}
		ret = source_batch_add(b, msg.buf, msg.len);
		if (ret < 0)
			goto store_err;
		free(pos.last[f]);
		pos.last[f] = strdup(l.names[i]);
		if (source_batch_full(b)) {
			free(cp);
			cp = pos_format(&pos);
			ret = source_batch_flush(b, checkpoint ? cp : NULL);
			if (ret < 0)
				goto store_err;
			if (progress)
				progress(arg, i + 1, l.n);
		}
	}
	free(cp);
	cp = pos_format(&pos);
	ret = source_batch_flush(b, checkpoint && cp && *cp ? cp : NULL);
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
	free(cp);
	free(pos.last[0]);
	free(pos.last[1]);
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

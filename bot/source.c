// SPDX-License-Identifier: GPL-2.0-only
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
#include "mime.h"
#include "../checker/banned.h"

struct batch {
	struct pipeline *p;
	struct store *st;
	const struct config_source *src;
	int64_t now;
	int64_t ids[SOURCE_BATCH];
	struct mime_mail mails[SOURCE_BATCH];
	struct pipeline_check checks[SOURCE_BATCH];
	size_t n;
	size_t bytes;
	int open;		/* a transaction is open */
	uint64_t done;
};

static int batch_begin(struct batch *b)
{
	int ret;

	if (b->open)
		return 0;
	ret = store_begin(b->st);
	if (ret)
		return ret;
	b->open = 1;
	return 0;
}

static int batch_add(struct batch *b, const char *raw, size_t len)
{
	int64_t id = 0;
	int ret;

	ret = batch_begin(b);
	if (ret)
		return ret;
	ret = pipeline_add(b->p, b->src, raw, len, b->now, &id, &b->mails[b->n]);
	if (ret < 0)
		return ret;
	if (ret == STORE_OK && b->mails[b->n].message_id) {
		b->ids[b->n++] = id;
		b->bytes += len;
	}
	b->done++;
	return 0;
}

static int batch_full(const struct batch *b)
{
	return b->n >= SOURCE_BATCH || b->bytes >= SOURCE_BATCH_BYTES;
}

/* Commits the stored batch (with the checkpoint, when given), then
 * processes each message in a transaction of its own. */
static int batch_flush(struct batch *b, const char *checkpoint)
{
	size_t i;
	int ret = 0;

	if (!b->open && !checkpoint)
		return 0;
	if (!b->open) {
		ret = batch_begin(b);
		if (ret)
			return ret;
	}
	if (checkpoint)
		ret = store_checkpoint_set(b->st, b->src->name, checkpoint, b->now);
	if (ret < 0 || (ret = store_commit(b->st)) < 0) {
		store_rollback(b->st);
		b->open = 0;
		goto out;
	}
	b->open = 0;
	/* the checker's work on every core, then the store's in order */
	pipeline_check_many(b->p, b->mails, b->checks, b->n, 0);
	for (i = 0; i < b->n; i++) {
		ret = store_begin(b->st);
		if (ret < 0)
			break;
		ret = pipeline_process(b->p, b->ids[i], &b->mails[i], &b->checks[i], b->now);
		if (ret < 0) {
			store_rollback(b->st);
			break;
		}
		ret = store_commit(b->st);
		if (ret < 0)
			break;
	}
out:
	for (i = 0; i < b->n; i++) {
		mime_release(&b->mails[i]);
		pipeline_check_release(&b->checks[i]);
	}
	b->n = 0;
	b->bytes = 0;
	return ret < 0 ? ret : 0;
}

static void batch_abort(struct batch *b)
{
	size_t i;

	if (b->open)
		store_rollback(b->st);
	b->open = 0;
	for (i = 0; i < b->n; i++)
		mime_release(&b->mails[i]);
	b->n = 0;
}

static int read_mbox(struct batch *b, const char *path, uint64_t offset, int checkpoint,
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
		ret = batch_add(b, msg.buf, msg.len);
		if (ret < 0)
			goto store_err;
		if (batch_full(b)) {
			snprintf(cp, sizeof(cp), "%" PRIu64, next);
			ret = batch_flush(b, checkpoint ? cp : NULL);
			if (ret < 0)
				goto store_err;
			if (progress)
				progress(arg, next, (uint64_t)sb.st_size);
		}
	}
	snprintf(cp, sizeof(cp), "%" PRIu64, next);
	ret = batch_flush(b, checkpoint ? cp : NULL);
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
	batch_abort(b);
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

static int read_maildir(struct batch *b, const char *dir, const char *after,
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
		ret = batch_add(b, msg.buf, msg.len);
		if (ret < 0)
			goto store_err;
		free(pos.last[f]);
		pos.last[f] = strdup(l.names[i]);
		if (batch_full(b)) {
			free(cp);
			cp = pos_format(&pos);
			ret = batch_flush(b, checkpoint ? cp : NULL);
			if (ret < 0)
				goto store_err;
			if (progress)
				progress(arg, i + 1, l.n);
		}
	}
	free(cp);
	cp = pos_format(&pos);
	ret = batch_flush(b, checkpoint && cp && *cp ? cp : NULL);
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
	batch_abort(b);
	free(cp);
	free(pos.last[0]);
	free(pos.last[1]);
	maildir_list_release(&l);
	sbuf_release(&msg);
	return ret;
}

static struct batch *batch_new(struct pipeline *p, struct store *st,
			       const struct config_source *src, int64_t now)
{
	struct batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->p = p;
	b->st = st;
	b->src = src;
	b->now = now;
	return b;
}

int source_poll_local(struct pipeline *p, struct store *st,
		      const struct config_source *src, int64_t now,
		      char *err, size_t errlen)
{
	struct batch *b;
	char *cp = NULL, *end;
	uint64_t offset = 0;
	int ret;

	b = batch_new(p, st, src, now);
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ret = store_checkpoint_get(st, src->name, &cp);
	if (ret < 0) {
		snprintf(err, errlen, "database: %s", store_strerror(ret));
		free(b);
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
	} else if (src->type == SRC_MAILDIR) {
		ret = read_maildir(b, src->path, cp, 1, NULL, NULL, err, errlen);
	} else {
		snprintf(err, errlen, "source \"%s\": type %s is not read by this program",
			 src->name, source_type_name(src->type));
		ret = -1;
	}
	free(cp);
	free(b);
	return ret;
}

int source_read_path(struct pipeline *p, struct store *st,
		     const struct config_source *src, const char *path,
		     int64_t now, source_progress_fn progress, void *arg,
		     char *err, size_t errlen)
{
	struct batch *b;
	int ret;

	b = batch_new(p, st, src, now);
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (mailbox_is_maildir(path))
		ret = read_maildir(b, path, NULL, 0, progress, arg, err, errlen);
	else
		ret = read_mbox(b, path, 0, 0, progress, arg, err, errlen);
	free(b);
	return ret;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mailbox: local mail stores, mbox files and maildirs: read as sources,
 * written as the outbox.
 *
 * mbox: a message starts at a line beginning "From " at the start of the
 * file (or of the reading offset) or right after an empty line; a "From "
 * line after a non-empty line is body text.  This is the robust rule most
 * readers use: mboxo/mboxrd writers escape body lines that would look like
 * a separator, and the empty line a writer puts before each separator is
 * the format's, not the message's (exactly one is stripped).  Unescaping: in mboxrd every
 * ">+From " loses one '>'; in mboxo only ">From " does (the two cannot be
 * told apart from the file: MBOX_RD is the default, as public-inbox and
 * git write mboxrd, and ">>From " is rare in patches).  The "From " line
 * itself is not part of the message.  A file that does not start with
 * "From " is one message (a single mail saved as a file, a .patch).
 * CRLF line ends are accepted and kept for mime.c to handle.
 *
 * maildir: new/ then cur/ (tmp/ never), files sorted by name, each one
 * message; names starting with '.' are skipped.
 *
 * Positions: an mbox position is a byte offset of a "From " line; a
 * maildir position is the last file name read in new/ + cur/ order.  The
 * daemon keeps them as checkpoints so it reads only what is new.
 */
#ifndef RB_MAILBOX_H
#define RB_MAILBOX_H

#include <stddef.h>
#include <stdint.h>

#include "../../checker/sbuf.h"

/* bytes of one message read: the ceiling (and default) of [limits]
 * max_message_bytes, which the pipeline applies (bot/config.h) */
#define MAILBOX_MAX_MESSAGE	(64u << 20)
#define MAILBOX_MAX_FILES	1000000		/* files listed in one maildir */

enum mbox_flavour {
	MBOX_RD = 0,
	MBOX_O,
};

enum mailbox_result {
	MAILBOX_OK = 0,
	MAILBOX_END = 1,	/* no more messages */
	MAILBOX_ERR_IO = -1,	/* errno set */
	MAILBOX_ERR_LIMIT = -2,	/* a message over MAILBOX_MAX_MESSAGE: skipped */
	MAILBOX_ERR_NOMEM = -3,
};

/* Reading an mbox file from a byte offset.  The file is mapped or read in
 * bounded chunks, never all at once into memory. */
struct mbox_reader;

int mbox_open(const char *path, uint64_t offset, enum mbox_flavour fl,
	      struct mbox_reader **out);
/*
 * The next message, unescaped, into msg (reset first).  *start is the
 * offset of its "From " line (or 0), *next the offset after it: store
 * *next as the checkpoint once the message is stored.  MAILBOX_END at
 * the end.  MAILBOX_ERR_LIMIT: that message was skipped (positions set),
 * reading may go on.
 */
int mbox_next(struct mbox_reader *r, struct sbuf *msg, uint64_t *start,
	      uint64_t *next);
void mbox_close(struct mbox_reader *r);

/* Unescapes one mbox message in place (mboxrd or mboxo rules); returns
 * the new length. */
size_t mbox_unescape(char *buf, size_t len, enum mbox_flavour fl);

/* Reading a maildir: the names of its messages after a position. */
struct maildir_list {
	char **names;		/* "new/NAME" or "cur/NAME", in reading order */
	size_t n;
};

/* Lists the messages of dir whose relative name sorts after `after`
 * (NULL or "": all), in delivery order: new/ before cur/, and within
 * each the names compared with their runs of digits as numbers. */
int maildir_list(const char *dir, const char *after, struct maildir_list *out);
void maildir_list_release(struct maildir_list *l);
/* Reads one listed message (dir + "/" + name) into msg (capped). */
int maildir_read(const char *dir, const char *name, struct sbuf *msg);

/*
 * Writes one message into a maildir (tmp/ then rename into new/, fsync'd,
 * folders created 0700 when missing), under a unique name; *name (when
 * not NULL) gets the new/ name, malloc'd.  For the outbox.
 */
int maildir_deliver(const char *dir, const char *msg, size_t len, char **name);

/* 1 when path is a maildir (has cur/ and new/), 0 when not. */
int mailbox_is_maildir(const char *path);

#endif

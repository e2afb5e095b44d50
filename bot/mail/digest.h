/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * digest: what makes two copies of a mail the same mail, as a SHA-256
 * (FIPS 180-4) of its canonical text.
 *
 * A Message-ID is a claim anyone can make first: a mail carrying a
 * victim's Message-ID that reaches the bot before the list's copy must
 * not become that patch.  The store keeps each copy that differs
 * (store_msg_replace, store_msg_copy_add); a copy the same as one stored
 * is one message, as it always was.  The same means: the same header
 * fields in the same order, names in any case, values unfolded with their
 * runs of white space as one space, and the same body, line ends CRLF or
 * LF and the empty lines at its end aside, leaving out what the way a
 * mail travels adds or changes: the trace and delivery fields (Received,
 * Return-Path, Delivered-To, X-Original-To, ...), what lists add
 * (List-*, Precedence, Sender, X-Mailing-List, Archived-At, ...),
 * signatures and verdicts added on the way (DKIM-Signature, ARC-*,
 * Authentication-Results, X-Spam-*, ...) and an mbox "From " line.
 * Everything else the bot reads (From, To, Cc, Subject, Date,
 * In-Reply-To, References, Auto-Submitted, the MIME fields, the body)
 * counts, so copies that are the same are processed the same.  SHA-256,
 * not a faster hash: a copy made to collide with the list's would be
 * taken for it.
 */
#ifndef RB_DIGEST_H
#define RB_DIGEST_H

#include <stddef.h>

#define MAIL_DIGEST_HEX	64	/* hex digits of a digest */

/* The digest of raw[0, len) (any bytes) into out, NUL-terminated. */
void mail_digest(const char *raw, size_t len, char out[MAIL_DIGEST_HEX + 1]);

/* SHA-256 of data[0, len) into out (32 bytes). */
void mail_sha256(const void *data, size_t len, unsigned char out[32]);

#endif

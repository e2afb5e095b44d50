/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dkimcheck: whether a mail's From: address is vouched for by its
 * domain, with DKIM (RFC 6376) verified by Debian's OpenDKIM library.
 *
 * A mail passes when one of its DKIM-Signature fields verifies (the
 * key from DNS, or from [bot] dkim_keys in tests and offline installs),
 * its signing domain d= is the From: address's domain or a parent of it
 * (DMARC's relaxed alignment, RFC 7489 3.1.1), it signs From, Date and
 * Message-ID (and In-Reply-To when the mail has one: a maintainer's
 * signed mail, public on the list, cannot be sent again answering
 * another review), its body length tag, if any, covers the whole body
 * (RFC 6376 8.2: nothing unsigned added below), and the mail has one
 * From: field only.  Anything else, a missing signature or a key that
 * cannot be fetched included, is "not verified": the sender is then an
 * ordinary one, never refused for it.
 *
 * Only the mail helper links it (libopendkim); the front binary never
 * calls it.
 */
#ifndef RB_DKIMCHECK_H
#define RB_DKIMCHECK_H

#include <stddef.h>

#define DKIMCHECK_TIMEOUT	10	/* seconds a key lookup in DNS may take */

/*
 * 1 when raw[0, len) passes for from_addr (as above), 0 when not, with
 * why (a short reason, for the log) in both cases.  keys: the file of
 * keys ("SELECTOR._domainkey.DOMAIN RECORD" a line, the record as DNS
 * would give it) to use instead of DNS, or NULL.
 */
int dkimcheck_from(const char *raw, size_t len, const char *from_addr, const char *keys,
		   char *why, size_t whylen);

#endif

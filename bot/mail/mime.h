/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mime: one mail, parsed with libetpan into what the bot needs.
 *
 * RFC 5322 headers are unfolded, RFC 2047 encoded words decoded and every
 * text converted to UTF-8 (unknown charsets: bytes kept when valid UTF-8,
 * else Latin-1 assumed, and mime.warnings says so).  Untrusted header text
 * is normalised once here: CR, LF, NUL and other C0 controls (but TAB) in
 * a decoded header become a space, so nothing downstream can be tricked
 * into writing a header line of the sender's choosing.
 *
 * The body: the text the checker should see, as git am would build it.
 * A single-part text/plain mail is its decoded body; multipart mail
 * (any depth up to MIME_MAX_DEPTH) contributes its first text/plain part
 * that is not an attachment, followed by every part that holds a patch:
 * Content-Type text/x-patch, text/x-diff, text/x-patch-ish, or a
 * text/plain (or application/octet-stream) attachment whose content
 * starts a diff ("diff --git", "--- ", "Index: ").  Quoted-printable and
 * base64 are decoded; CRLF becomes LF.
 *
 * Limits: MIME_MAX_* below; a mail over a limit is an error
 * (MIME_ERR_LIMIT) the caller stores as the reason, never a crash.  The
 * size, part and References limits are the defaults of struct
 * mime_limits, which the bot sets from [limits] (bot/config.h) up to the
 * ceilings MIME_MAX_MAIL, MIME_CEIL_PARTS and MIME_CEIL_REFS.
 */
#ifndef RB_MIME_H
#define RB_MIME_H

#include <stddef.h>
#include <stdint.h>

/* MIME_MAX_MAIL, _PARTS and _REFS are the defaults of struct mime_limits;
 * MIME_MAX_MAIL and MIME_CEIL_* the most a caller may allow */
#define MIME_MAX_MAIL		(64u << 20)	/* bytes of one raw mail */
#define MIME_MAX_HEADER		(256u << 10)	/* bytes of one unfolded header */
#define MIME_MAX_DEPTH		32		/* multipart nesting */
#define MIME_MAX_PARTS		1000		/* parts in one mail */
#define MIME_CEIL_PARTS		10000
#define MIME_MAX_REFS		256		/* References kept: the first, the last */
#define MIME_CEIL_REFS		10000
#define MIME_MAX_RCPTS		256		/* To + Cc addresses kept */

enum mime_result {
	MIME_OK = 0,
	MIME_ERR_PARSE = -1,	/* not a mail libetpan can read */
	MIME_ERR_LIMIT = -2,	/* over a MIME_MAX_* limit */
	MIME_ERR_NOMEM = -3,
	MIME_ERR_NO_MSGID = -4,	/* no usable Message-ID */
};

struct mime_addr {
	char *name;		/* UTF-8 display name, or NULL */
	char *addr;		/* local@domain, domain lowercased; never NULL */
};

struct mime_mail {
	char *message_id;	/* without <>, never NULL after MIME_OK */
	char *subject;		/* decoded, unfolded, "" when missing */
	struct mime_addr from;	/* addr "" when missing */
	struct mime_addr *to, *cc;
	size_t nto, ncc;
	struct mime_addr reply_to; /* addr NULL when missing */
	/* b4's web relay: when From: was its devnull address and its
	 * X-Original-From: (or Reply-To:) named the author the way the
	 * relay encodes it, from is the author and relay the relay's own
	 * From: (see mime_relay_devnull()); addr NULL otherwise */
	struct mime_addr relay;
	int64_t date;		/* Unix seconds, 0 when missing or bad */
	char *date_raw;		/* the Date: header as sent, or NULL */
	/* the date of the topmost Received: (the newest, added by the last
	 * server that took the mail), 0 when there is none or it is bad:
	 * bot/mail/maildate.h says what it is for */
	int64_t received;
	char *in_reply_to;	/* first Message-ID of In-Reply-To, or NULL */
	char **refs;		/* References, oldest first (without <>) */
	size_t nrefs;
	/* the ids of a repeated In-Reply-To or References header, and an
	 * In-Reply-To's second and later ids, in order (at most max_refs):
	 * threading that only the first header would hide */
	char **xrefs;
	size_t nxrefs;
	char *list_id;		/* List-Id: the part inside <>, or NULL */
	char *auto_submitted;	/* Auto-Submitted: value, or NULL */
	char *x_reviewbot;	/* the bot's own header (MIME_BOT_HEADER), or NULL */
	/* what says a program sent the mail (RFC 3834 and its common kin;
	 * bot/command.c decides) */
	int precedence_bulk;	/* Precedence: bulk / junk / list */
	int precedence_junk;	/* Precedence: junk */
	int return_path_null;	/* Return-Path: <> (a bounce, RFC 5321 4.5.5) */
	int x_autoreply;	/* an X-Autoreply: header */
	int x_auto_response_suppress; /* an X-Auto-Response-Suppress: header */
	char *body;		/* see above; UTF-8, LF line ends, NUL-terminated */
	size_t body_len;
	int has_attachment_patch; /* the patch came as an attachment */
	unsigned warnings;	/* enum mime_warning bits */
};

#define MIME_BOT_HEADER "X-Reviewbot"

enum mime_warning {
	MIME_WARN_CHARSET = 1 << 0,	/* an unknown charset was guessed */
	MIME_WARN_ENCODING = 1 << 1,	/* bad base64/QP: decoded what could be */
	MIME_WARN_CTRL = 1 << 2,	/* control characters removed from a header */
	MIME_WARN_REFS = 1 << 3,	/* References cut to mime_limits.max_refs */
};

/* The limits a caller may set; values past a ceiling count as the ceiling. */
struct mime_limits {
	size_t max_mail;	/* bytes of the raw mail (MIME_MAX_MAIL) */
	size_t max_parts;	/* parts and attached messages (MIME_MAX_PARTS), >= 1 */
	size_t max_refs;	/* References kept (MIME_MAX_REFS), >= 1 */
};

/* The defaults: MIME_MAX_MAIL, MIME_MAX_PARTS, MIME_MAX_REFS. */
void mime_limits_init(struct mime_limits *lim);

/* Parses raw[0, len) within the default limits.  On error *m holds
 * nothing to release. */
int mime_parse(const char *raw, size_t len, struct mime_mail *m);
/* The same within lim (NULL: the defaults). */
int mime_parse_limits(const char *raw, size_t len, const struct mime_limits *lim,
		      struct mime_mail *m);
void mime_release(struct mime_mail *m);
const char *mime_strerror(int result);

/*
 * b4's web relay (b4 send through its web endpoint: b4's
 * misc/send-receive.py) sends a patch From: "Name via B4 Relay"
 * <devnull+LOCAL.DOMAIN@kernel.org>, the author's own address encoded
 * in the local part ('@' as '.'), and names the author in
 * X-Original-From: and Reply-To: (DMARC forbids their From: on the
 * relay's mail).  mime_parse() makes the author the mail's From (to
 * whom the review goes, whose opt-out and mute count, whom query and the
 * pages name) when X-Original-From (else Reply-To) agrees with that
 * encoding and is not of the relay's own domain (the relay never
 * rewrites its own): X-Original-From is as forgeable as From:, so it
 * only replaces the relay's devnull, and gives the mail no more than a
 * From: naming the author would.  A relay mail whose author cannot be
 * told keeps the devnull From, which is never mailed.
 *
 * mime_relay_devnull() is 1 when addr is such a devnull address.
 */
#define MIME_RELAY_DOMAIN	"kernel.org"
#define MIME_RELAY_LOCAL	"devnull+"
int mime_relay_devnull(const char *addr);

/*
 * The Date: and the topmost Received: date of raw[0, len) (0 each when
 * missing or bad), from its header block alone: what mime_parse() would
 * set as date and received, without decoding the mail.  0, or a
 * negative MIME result (a field over MIME_MAX_HEADER).
 */
int mime_header_dates(const char *raw, size_t len, int64_t *date, int64_t *received);
/* A date-time (RFC 5322 3.3) in v[0, n), folded or not, as Unix
 * seconds; 0 when it is not one. */
int64_t mime_date(const char *v, size_t n);

/*
 * Extracts the first Message-ID from a header value ("<a@b> junk" → "a@b"),
 * malloc'd, or NULL.  Used for In-Reply-To, References and links.
 */
char *mime_msgid(const char *value, size_t len);

#endif

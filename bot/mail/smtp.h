/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smtp: one reply handed to an SMTP server with libcurl (RFC 5321).
 *
 * [delivery] url is smtp://[user@]host[:port][/ehlo-name] or smtps://...
 * (implicit TLS, RFC 8314).  On smtp:// STARTTLS (RFC 3207) is used when
 * the server offers it and required when [delivery] starttls is true.
 * Peer and host name are verified against [delivery] ca_file, else the
 * system's CAs.  With a user in the url, AUTH uses the password from
 * [delivery] password_file or password_env (secret_password()); a
 * password written into the url is refused.  The password never reaches
 * err or a log line.
 *
 * Envelope: MAIL FROM r->mail_from, RCPT TO each address of r->rcpt
 * (comma-separated, at most DELIVER_MAX_RCPTS).  Addresses are printable
 * ASCII without spaces, '<' or '>', with an '@' (nothing from mail can
 * inject an SMTP command).  All or nothing: a server refusing any one
 * recipient fails the whole transfer before DATA (libcurl's default; we
 * do not set CURLOPT_MAIL_RCPT_ALLOWFAILS, spelt ..._ALLLOWFAILS before
 * curl 8.2), so "sent" always means every recipient was accepted and a
 * retry after a 4xx can never duplicate the mail for the others.
 *
 * Body: r->body with LF line ends goes out with CRLF; libcurl does the
 * dot-stuffing (RFC 5321 4.5.2).  A line over 998 octets (4.5.3.1.6) or
 * a bare CR refuses the reply (it cannot come from compose).
 *
 * Results (enum deliver_result):
 *   DELIVER_OK        only after the server's final 250 for the DATA
 *   DELIVER_TEMPFAIL  a 4xx reply, a refused or dropped connection, a
 *                     timeout (connect 10 s, which libcurl counts up to
 *                     the end of EHLO/STARTTLS/AUTH; the whole transfer
 *                     60 s), TLS that fails or a STARTTLS that is
 *                     required and not offered, an unreadable password
 *                     file: anything that may mend itself or be mended by
 *                     the admin.  A connection lost after the data and
 *                     before the final reply is one too: the server may
 *                     have taken the mail, so the retry may duplicate it
 *                     (RFC 5321 6.1 accepts that over losing it)
 *   DELIVER_PERMFAIL  a 5xx reply (err holds the server's last reply
 *                     line, controls escaped, e.g. "550 5.1.1 <x@y>: user
 *                     unknown"; a 535 for a wrong password is one), or a
 *                     reply we refuse to send (bad address, long line)
 *
 * Without starttls = true, a server that does not offer STARTTLS (or a
 * man in the middle that strips it) gets AUTH in the clear: set starttls
 * when a password is used on smtp://.  A server that offers no AUTH is
 * sent the mail without it (libcurl's way).
 *
 * The connection is closed after each reply.  curl_global_init() must
 * have been called (bot/cmd/mailmain.c does).
 */
#ifndef RB_SMTP_H
#define RB_SMTP_H

#include <stddef.h>

#include "../config.h"
#include "../../store/store.h"

#define SMTP_CONNECT_TIMEOUT	10	/* seconds */
#define SMTP_TIMEOUT		60	/* seconds, the whole transfer */
#define SMTP_MAX_LINE		998	/* octets, without CRLF (RFC 5321 4.5.3.1.6) */
#define SMTP_MAX_ADDRESS	254	/* octets of one address (RFC 5321 4.5.3.1.3) */
#define SMTP_MAX_BODY		(4u << 20)	/* bytes on the wire */
#define SMTP_MAX_REPLY_TEXT	512	/* bytes of the server's words kept */

/*
 * Sends r to cfg->delivery_url.  Returns an enum deliver_result; err
 * (never NULL, errlen > 0) says why when it is not DELIVER_OK.
 */
int smtp_send(const struct config *cfg, const struct store_reply *r,
	      char *err, size_t errlen);

#endif

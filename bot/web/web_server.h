/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * web_server: reviewbot serve's HTTP side, on libmicrohttpd: a pool of
 * threads (epoll), each answer made whole in memory by bot/web/web.h with
 * one of a pool of read-only database handles.
 *
 * What a hostile client gets:
 *   - any method but GET and HEAD: 405 with Allow: GET, HEAD, answered
 *     before any body is read;
 *   - a request line and headers past WEB_MEMORY_LIMIT bytes: 414 or 431
 *     (libmicrohttpd); a path past WEB_MAX_PATH: 414; a malformed or
 *     traversing path or parameter: 400 (bot/web/web_route.h);
 *   - a connection that has not sent its whole request [web] timeout
 *     seconds after it opened (a slow client, even one trickling a byte
 *     now and then) is cut off, and so is one idle that long (one that
 *     never reads its answer); one request a connection ("Connection:
 *     close"); at most [web] max_connections at once, the others wait
 *     in the kernel's listen queue (each connection holds two file
 *     descriptors);
 *   - every answer carries a Content-Security-Policy that allows no
 *     script, no frame, no form target but the site, and nosniff.
 * Nothing here writes the database: the handles are opened with
 * store_open_readonly().
 */
#ifndef RB_WEB_SERVER_H
#define RB_WEB_SERVER_H

#include <signal.h>
#include <stddef.h>

#include "../config.h"

#define WEB_MEMORY_LIMIT	(16u << 10)	/* bytes of a request line and headers */
#define WEB_LISTEN_BACKLOG	128

struct web_server_opts {
	const struct config *cfg;
	const char *database;		/* the database file */
	const char *listen;		/* ADDR:PORT (port 0: any free one) */
	int verbose;			/* one log line a request */
};

/* A socket bound to ADDR:PORT and listening (close-on-exec), or -1 with
 * err; *port gets the port bound (for port 0). */
int web_listen(const char *addr_port, int *port, char *err, size_t errlen);

/*
 * Serves on the listening socket fd until *stop becomes non-zero
 * (checked every WEB_STOP_POLL_MS): opens [web] threads read-only
 * handles first (so a missing database or an old schema fails here, not
 * at the first request).  Returns 0 after a stop, or -1 with err.
 */
int web_serve(int fd, const struct web_server_opts *o,
	      const volatile sig_atomic_t *stop, char *err, size_t errlen);

#define WEB_STOP_POLL_MS	200

#endif

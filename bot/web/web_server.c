// SPDX-License-Identifier: GPL-2.0-only
/*
 * web_server: HTTP for reviewbot serve on libmicrohttpd (web_server.h).
 */
#include "web_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../log.h"
#include "publish.h"
#include "web.h"
#include "../../store/store_web.h"
#include "../../checker/banned.h"

#define WEB_MAX_THREADS	64

static const char csp[] =
	"default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:;"
	" form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/* the read-only handles, one per thread at most */
struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct store *st[WEB_MAX_THREADS];
	int busy[WEB_MAX_THREADS];
	int n;
};

/*
 * The deadline of a request: a connection has [web] idle_timeout
 * seconds from its opening to send its request line, and [web] timeout
 * to send its headers too.  libmicrohttpd times out an idle connection
 * only, so a client trickling a byte now and then would keep its slot,
 * and clients holding connections open without a word would keep them
 * all ([web] max_per_address bounds those of one address); this table
 * and the watchdog in web_serve() cut them off.  Each connection's socket is dup()ed when it
 * opens and the copy closed when it closes, so the watchdog's
 * shutdown() always reaches that socket and never a later one that got
 * the same number.  Every answer says "Connection: close": one request
 * a connection, so the deadline covers every request.
 */
struct conn_slot {
	int used;
	int fd;			/* our dup() of the connection's socket */
	int line;		/* its request line came */
	int answered;		/* 1: the request came; 2: cut off */
	double started;		/* CLOCK_MONOTONIC, seconds */
};

/* a connection whose request was refused before libmicrohttpd read its
 * parameters (uri_seen()): the request's context, never answered again */
static char refused_early;

struct server {
	const struct web_server_opts *o;
	struct pool pool;
	char *publish;
	pthread_mutex_t cmu;
	struct conn_slot *conns;
	size_t nconns;
	long cut;		/* slow clients cut off */
	long idle;		/* of which sent no request line */
	/* mhd_log()'s counts, under cmu */
	long limited;		/* connections closed at a limit */
	long log_lines, log_suppressed;
	double log_window;	/* when the current window began */
};

static struct store *pool_get(struct pool *p, int *slot)
{
	int i;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		for (i = 0; i < p->n; i++)
			if (!p->busy[i]) {
				p->busy[i] = 1;
				*slot = i;
				pthread_mutex_unlock(&p->mu);
				return p->st[i];
			}
		pthread_cond_wait(&p->cv, &p->mu);
	}
}

static void pool_put(struct pool *p, int slot)
{
	pthread_mutex_lock(&p->mu);
	p->busy[slot] = 0;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* ---- listening -------------------------------------------------------------- */

int web_listen(const char *addr_port, int *port, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char host[64];
	const char *orig = addr_port, *colon = strrchr(addr_port, ':');
	size_t hn;
	long p;
	char *e;
	int fd, one = 1;

	memset(&ss, 0, sizeof(ss));
	if (!colon || colon == addr_port)
		goto bad;
	errno = 0;
	p = strtol(colon + 1, &e, 10);
	if (errno || *e || e == colon + 1 || p < 0 || p > 65535)
		goto bad;
	hn = (size_t)(colon - addr_port);
	if (addr_port[0] == '[') {
		if (hn < 3 || addr_port[hn - 1] != ']')
			goto bad;
		addr_port++;
		hn -= 2;
	}
	if (hn >= sizeof(host))
		goto bad;
	memcpy(host, addr_port, hn);
	host[hn] = '\0';
	if (inet_pton(AF_INET, host, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		((struct sockaddr_in *)&ss)->sin_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)p);
		sl = sizeof(struct sockaddr_in);
	} else if (inet_pton(AF_INET6, host, &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1) {
		((struct sockaddr_in6 *)&ss)->sin6_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)p);
		sl = sizeof(struct sockaddr_in6);
	} else {
		goto bad;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, sl) || listen(fd, WEB_LISTEN_BACKLOG)) {
		snprintf(err, errlen, "%s: %s", orig, strerror(errno));
		close(fd);
		return -1;
	}
	sl = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		snprintf(err, errlen, "getsockname: %s", strerror(errno));
		close(fd);
		return -1;
	}
	*port = ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port :
		      ((struct sockaddr_in6 *)&ss)->sin6_port);
	return fd;
bad:
	snprintf(err, errlen, "'%s' is not ADDR:PORT with a numeric address"
		 " (127.0.0.1:8080, [::1]:8080)", orig);
	return -1;
}

/* ---- one request ------------------------------------------------------------ */

/* the identity: the path and parameters reach web_route undecoded, so a
 * Message-ID's %2F stays in its part (libmicrohttpd would decode it) */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls;
	(void)c;
	return strlen(s);
}

struct args {
	struct web_request *req;
	int bad;
};

static enum MHD_Result one_arg(void *cls, enum MHD_ValueKind kind, const char *key,
			       const char *value)
{
	struct args *a = cls;
	struct web_param *p;

	(void)kind;
	if (a->req->nparams == WEB_MAX_PARAMS)
		return MHD_YES;		/* the rest are not looked at */
	p = &a->req->params[a->req->nparams];
	if (web_pct_decode(key, strlen(key), 1, p->key, sizeof(p->key))) {
		/* a key of ours is short and plain: a longer one is ignored,
		 * a malformed one refused */
		char big[WEB_MAX_ARG + 1];

		if (web_pct_decode(key, strlen(key), 1, big, sizeof(big)))
			a->bad = 1;
		return MHD_YES;
	}
	if (web_pct_decode(value ? value : "", value ? strlen(value) : 0, 1, p->value,
			   sizeof(p->value))) {
		a->bad = 1;
		return MHD_YES;
	}
	a->req->nparams++;
	return MHD_YES;
}

static void add_headers(struct MHD_Response *r, const char *type)
{
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, "Content-Security-Policy", csp);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(r, "X-Frame-Options", "DENY");
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status,
				 const char *text, const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	add_headers(r, "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
			enum MHD_ConnectionNotificationCode toe)
{
	struct server *sv = cls;
	struct conn_slot *slot = *socket_context;
	const union MHD_ConnectionInfo *ci;
	size_t i;

	pthread_mutex_lock(&sv->cmu);
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		for (i = 0; ci && i < sv->nconns; i++) {
			if (sv->conns[i].used)
				continue;
			sv->conns[i].fd = fcntl(ci->connect_fd, F_DUPFD_CLOEXEC, 0);
			if (sv->conns[i].fd < 0)
				break;	/* untracked: the idle timeout still holds */
			sv->conns[i].used = 1;
			sv->conns[i].line = 0;
			sv->conns[i].answered = 0;
			sv->conns[i].started = now_ms() / 1e3;
			*socket_context = &sv->conns[i];
			break;
		}
	} else if (slot) {
		close(slot->fd);
		slot->used = 0;
		*socket_context = NULL;
	}
	pthread_mutex_unlock(&sv->cmu);
}

/* the request came: its deadline is met */
static void conn_answered(struct server *sv, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci;
	struct conn_slot *slot;

	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	slot = ci ? ci->socket_context : NULL;
	if (!slot)
		return;
	pthread_mutex_lock(&sv->cmu);
	if (slot->used && !slot->answered)
		slot->line = slot->answered = 1;
	pthread_mutex_unlock(&sv->cmu);
}

/* cuts off the connections past their deadline; how many (*idle: of
 * them, those that never sent a request line) */
static long conn_watchdog(struct server *sv, long *idle)
{
	double now = now_ms() / 1e3, limit = (double)sv->o->cfg->web_timeout;
	double first = (double)sv->o->cfg->web_idle_timeout;
	long n = 0;
	size_t i;

	*idle = 0;
	pthread_mutex_lock(&sv->cmu);
	for (i = 0; i < sv->nconns; i++) {
		struct conn_slot *k = &sv->conns[i];

		if (!k->used || k->answered)
			continue;
		if (now - k->started > limit || (!k->line && now - k->started > first)) {
			shutdown(k->fd, SHUT_RDWR);
			k->answered = 2;
			*idle += !k->line;
			n++;
		}
	}
	pthread_mutex_unlock(&sv->cmu);
	return n;
}

/* the parameters of a request-target as libmicrohttpd will split them:
 * one per '&'-separated piece after the '?' */
static size_t count_params(const char *uri)
{
	const char *q = strchr(uri, '?');
	size_t n;

	if (!q || !q[1])
		return 0;
	for (n = 1, q++; *q; q++)
		n += *q == '&';
	return n;
}

/*
 * Answers 414 on the connection's socket itself and ends it.
 * libmicrohttpd 0.9.75 (Debian 12) keeps each parameter in the
 * connection's 16 KiB memory pool before any handler runs, and when
 * that runs out (about 300 of them) its own 431 does not fit either:
 * the client got no answer at all.  Nothing has been sent on the
 * connection yet (its request line just came), and the answer is far
 * smaller than an empty socket buffer.
 */
static void refuse_params(struct MHD_Connection *c)
{
	static const char body[] = "reviewbot serve: a request has at most "
				   WEB_MAX_PARAMS_TEXT " query parameters\n";
	const union MHD_ConnectionInfo *ci;
	char answer[1024];
	int n;

	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci)
		return;
	n = snprintf(answer, sizeof(answer),
		     "HTTP/1.1 414 URI Too Long\r\n"
		     "Connection: close\r\n"
		     "Content-Type: text/plain; charset=utf-8\r\n"
		     "Content-Length: %zu\r\n"
		     "Cache-Control: no-store\r\n"
		     "Content-Security-Policy: %s\r\n"
		     "X-Content-Type-Options: nosniff\r\n"
		     "Referrer-Policy: no-referrer\r\n"
		     "X-Frame-Options: DENY\r\n"
		     "\r\n%s", sizeof(body) - 1, csp, body);
	if (n > 0 && (size_t)n < sizeof(answer))
		(void)!send(ci->connect_fd, answer, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
	shutdown(ci->connect_fd, SHUT_WR);
}

/*
 * The request line came (libmicrohttpd's URI log callback, called
 * before it reads the parameters): the connection is no longer idle;
 * a request with more than WEB_MAX_PARAMS parameters is answered 414
 * here, before they are read.  The return value is the request's
 * context in handle().
 */
static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct server *sv = cls;
	const union MHD_ConnectionInfo *ci;
	struct conn_slot *slot;

	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	slot = ci ? ci->socket_context : NULL;
	if (slot) {
		pthread_mutex_lock(&sv->cmu);
		if (slot->used)
			slot->line = 1;
		pthread_mutex_unlock(&sv->cmu);
	}
	if (count_params(uri) <= WEB_MAX_PARAMS)
		return NULL;
	refuse_params(c);
	if (sv->o->verbose)
		log_event(LOG_INFO, "http", "status", "414", "reason", "too many parameters",
			  NULL);
	return &refused_early;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version,
			      const char *upload_data, size_t *upload_data_size,
			      void **req_cls)
{
	struct server *sv = cls;
	struct web_request *req;
	struct web_response resp;
	struct web_ctx ctx;
	struct MHD_Response *r;
	struct args a;
	enum MHD_Result ret;
	char *body;
	size_t len;
	double t0 = now_ms();
	int slot, head;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	if (*req_cls == &refused_early)
		return MHD_NO;	/* answered already: close */
	conn_answered(sv, c);
	head = !strcmp(method, MHD_HTTP_METHOD_HEAD);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && !head) {
		if (sv->o->verbose)
			log_event(LOG_INFO, "http", "method", method, "path", url,
				  "status", "405", NULL);
		return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				 "reviewbot serve is read-only: GET and HEAD only\n", "GET, HEAD");
	}
	req = calloc(1, sizeof(*req));
	if (!req)
		return MHD_NO;
	web_route(url, &req->route);
	a.req = req;
	a.bad = 0;
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, one_arg, &a);
	if (a.bad) {
		req->route.page = WEB_NOT_FOUND;
		req->route.status = 400;
	}
	web_response_init(&resp);
	memset(&ctx, 0, sizeof(ctx));
	ctx.cfg = sv->o->cfg;
	ctx.publish = sv->publish;
	ctx.now = (int64_t)time(NULL);
	ctx.st = pool_get(&sv->pool, &slot);
	web_answer(&ctx, req, &resp);
	pool_put(&sv->pool, slot);
	body = sbuf_detach(&resp.body, &len);
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		web_response_release(&resp);
		free(req);
		return MHD_NO;
	}
	add_headers(r, resp.type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
				resp.status == 200 ? "max-age=60" : "no-store");
	if (resp.location[0])
		MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, resp.location);
	ret = MHD_queue_response(c, (unsigned)resp.status, r);
	MHD_destroy_response(r);
	if (sv->o->verbose || resp.status >= 500) {
		char st[8], bytes[24], ms[24];

		snprintf(st, sizeof(st), "%d", resp.status);
		snprintf(bytes, sizeof(bytes), "%zu", len);
		snprintf(ms, sizeof(ms), "%.1f", now_ms() - t0);
		log_event(resp.status >= 500 ? LOG_WARN : LOG_INFO, "http", "method", method,
			  "path", url, "status", st, "bytes", bytes, "ms", ms, NULL);
	}
	web_response_release(&resp);
	free(req);
	return ret;
}

/*
 * libmicrohttpd's messages.  It says one for each connection it closes
 * at [web] max_connections or max_per_address: those are counted and
 * logged once a turn of the watchdog (event=http-limited); of the others
 * at most WEB_LOG_BURST a WEB_LOG_WINDOW seconds are logged, the rest
 * counted (event=http-error-suppressed): a client cannot fill the log.
 */
#define WEB_LOG_BURST	20
#define WEB_LOG_WINDOW	10

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	struct server *sv = cls;
	char line[512];
	size_t n;
	int show = 1;
	double now = now_ms() / 1e3;

	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	pthread_mutex_lock(&sv->cmu);
	if (strstr(line, "connection limit")) {
		sv->limited++;
		show = 0;
	} else {
		if (now - sv->log_window > WEB_LOG_WINDOW) {
			sv->log_window = now;
			sv->log_lines = 0;
		}
		if (++sv->log_lines > WEB_LOG_BURST) {
			sv->log_suppressed++;
			show = 0;
		}
	}
	pthread_mutex_unlock(&sv->cmu);
	if (show)
		log_event(LOG_WARN, "http-error", "error", line, NULL);
}

/* the counts mhd_log() kept, logged and reset */
static void log_counts(struct server *sv)
{
	long limited, suppressed;
	char n[24];

	pthread_mutex_lock(&sv->cmu);
	limited = sv->limited;
	suppressed = sv->log_suppressed;
	sv->limited = sv->log_suppressed = 0;
	pthread_mutex_unlock(&sv->cmu);
	if (limited) {
		snprintf(n, sizeof(n), "%ld", limited);
		log_event(LOG_INFO, "http-limited", "connections", n,
			  "reason", "max_connections or max_per_address", NULL);
	}
	if (suppressed) {
		snprintf(n, sizeof(n), "%ld", suppressed);
		log_event(LOG_WARN, "http-error-suppressed", "lines", n, NULL);
	}
}

/* ---- the server --------------------------------------------------------------- */

int web_serve(int fd, const struct web_server_opts *o,
	      const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct server sv;
	struct MHD_Daemon *d = NULL;
	int i, threads, ret = -1;
	double counted = 0;

	memset(&sv, 0, sizeof(sv));
	sv.o = o;
	pthread_mutex_init(&sv.pool.mu, NULL);
	pthread_cond_init(&sv.pool.cv, NULL);
	pthread_mutex_init(&sv.cmu, NULL);
	/* libmicrohttpd may pass its limit by one connection per thread */
	sv.nconns = (size_t)o->cfg->web_max_connections + WEB_MAX_THREADS;
	sv.conns = calloc(sv.nconns, sizeof(*sv.conns));
	if (!sv.conns) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	threads = o->cfg->web_threads > 0 ? o->cfg->web_threads : 1;
	if (threads > WEB_MAX_THREADS)
		threads = WEB_MAX_THREADS;
	sv.publish = publish_json(o->cfg);
	if (!sv.publish) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < threads; i++) {
		if (store_open_readonly(o->database, &sv.pool.st[i], err, errlen))
			goto out;
		sv.pool.n++;
	}
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
			     MHD_USE_ERROR_LOG,
			     0, NULL, NULL, handle, &sv,
			     MHD_OPTION_EXTERNAL_LOGGER, mhd_log, &sv,
			     MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
			     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)threads,
			     MHD_OPTION_CONNECTION_LIMIT,
			     (unsigned int)o->cfg->web_max_connections,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT,
			     (unsigned int)o->cfg->web_max_per_address,
			     MHD_OPTION_URI_LOG_CALLBACK, uri_seen, &sv,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)o->cfg->web_timeout,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)WEB_MEMORY_LIMIT,
			     MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, NULL,
			     MHD_OPTION_NOTIFY_CONNECTION, conn_notify, &sv,
			     MHD_OPTION_END);
	if (!d) {
		snprintf(err, errlen, "cannot start the HTTP server (libmicrohttpd)");
		goto out;
	}
	while (!*stop) {
		struct timespec ts = { 0, WEB_STOP_POLL_MS * 1000000L };
		long cut, idle;

		nanosleep(&ts, NULL);
		if (now_ms() / 1e3 - counted >= WEB_LOG_WINDOW) {
			log_counts(&sv);
			counted = now_ms() / 1e3;
		}
		cut = conn_watchdog(&sv, &idle);
		if (cut > idle) {
			char n[24], t[24];

			sv.cut += cut - idle;
			snprintf(n, sizeof(n), "%ld", cut - idle);
			snprintf(t, sizeof(t), "%d", o->cfg->web_timeout);
			log_event(LOG_INFO, "http-slow-client", "connections", n,
				  "timeout", t, NULL);
		}
		if (idle) {
			char n[24], t[24];

			sv.idle += idle;
			snprintf(n, sizeof(n), "%ld", idle);
			snprintf(t, sizeof(t), "%d", o->cfg->web_idle_timeout);
			log_event(LOG_INFO, "http-idle-client", "connections", n,
				  "idle_timeout", t, NULL);
		}
	}
	ret = 0;
out:
	if (d)
		MHD_stop_daemon(d);
	log_counts(&sv);
	for (i = 0; i < sv.pool.n; i++)
		store_close(sv.pool.st[i]);
	free(sv.publish);
	free(sv.conns);
	pthread_mutex_destroy(&sv.cmu);
	pthread_cond_destroy(&sv.pool.cv);
	pthread_mutex_destroy(&sv.pool.mu);
	return ret;
}

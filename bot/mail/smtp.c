// SPDX-License-Identifier: GPL-2.0-only
/*
 * SMTP delivery with libcurl: see smtp.h for what is sent and how the
 * outcome maps to enum deliver_result.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "smtp.h"
#include "deliver.h"
#include "../secret.h"
#include "../../checker/sbuf.h"
#include "../../checker/banned.h"

struct smtp_xfer {
	const char *body;	/* CRLF, what goes after DATA */
	size_t len, pos;
	const char *password;	/* never copied into reply */
	int quitting;		/* QUIT sent: its 221 is not the answer */
	char reply[SMTP_MAX_REPLY_TEXT];	/* the server's last line, escaped */
};

/* Printable ASCII stays, everything else becomes \xNN; truncated to fit. */
static void escape_into(char *dst, size_t dstlen, const char *src, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i;
	unsigned char c;

	for (i = 0; i < n && o + 1 < dstlen; i++) {
		c = (unsigned char)src[i];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			dst[o++] = (char)c;
			continue;
		}
		if (o + 4 >= dstlen)
			break;
		dst[o++] = '\\';
		dst[o++] = 'x';
		dst[o++] = hex[c >> 4];
		dst[o++] = hex[c & 15];
	}
	dst[o] = '\0';
}

/*
 * Keeps the last line the server sent (one reply line per call, but a
 * chunk of several is handled too).  Replies after our QUIT are ignored:
 * the interesting one is the answer that ended the transaction.
 */
static int debug_cb(CURL *h, curl_infotype type, char *data, size_t size, void *arg)
{
	struct smtp_xfer *x = arg;
	size_t start = 0, end, i;

	(void)h;
	if (type == CURLINFO_HEADER_OUT) {
		if (size >= 4 && !strncasecmp(data, "QUIT", 4))
			x->quitting = 1;
		return 0;
	}
	if (type != CURLINFO_HEADER_IN || x->quitting)
		return 0;
	/* the last non-empty line of the chunk */
	end = size;
	while (end && (data[end - 1] == '\n' || data[end - 1] == '\r'))
		end--;
	if (!end)
		return 0;
	for (i = end; i > 0; i--)
		if (data[i - 1] == '\n') {
			start = i;
			break;
		}
	escape_into(x->reply, sizeof(x->reply), data + start, end - start);
	/* a server echoing the password (it should never) does not get it
	 * into err or the store */
	if (x->password && *x->password && strstr(x->reply, x->password)) {
		end = strnlen(x->reply, 3);
		snprintf(x->reply + end, sizeof(x->reply) - end,
			 " (reply text withheld: it held the password)");
	}
	return 0;
}

static size_t read_cb(char *buf, size_t size, size_t nitems, void *arg)
{
	struct smtp_xfer *x = arg;
	size_t n = size * nitems, left = x->len - x->pos;

	if (n > left)
		n = left;
	memcpy(buf, x->body + x->pos, n);
	x->pos += n;
	return n;
}

/* A plain address: printable ASCII, no space, '<', '>', one '@' at least
 * with something on both sides.  Nothing else reaches an SMTP command. */
static int address_ok(const char *a, size_t n)
{
	const char *at;
	size_t i;

	if (!n || n > SMTP_MAX_ADDRESS)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)a[i] <= 0x20 || (unsigned char)a[i] >= 0x7f ||
		    a[i] == '<' || a[i] == '>' || a[i] == '\\' || a[i] == '"')
			return 0;
	at = memrchr(a, '@', n);
	return at && at > a && at < a + n - 1;
}

static int bad_address(const char *what, const char *a, size_t n, char *err,
		       size_t errlen)
{
	char shown[80];

	escape_into(shown, sizeof(shown), a, n < 60 ? n : 60);
	snprintf(err, errlen, "smtp: %s \"%s%s\" is not a plain mail address", what,
		 shown, n > 60 ? "..." : "");
	return DELIVER_PERMFAIL;
}

static int build_rcpts(const char *list, struct curl_slist **out, char *err, size_t errlen)
{
	struct curl_slist *l = NULL, *t;
	const char *p = list ? list : "", *e;
	char addr[SMTP_MAX_ADDRESS + 1];
	size_t n, count = 0;

	*out = NULL;
	while (*p) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		n = (size_t)(e - p);
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n) {
			if (!address_ok(p, n)) {
				curl_slist_free_all(l);
				return bad_address("recipient", p, n, err, errlen);
			}
			if (++count > DELIVER_MAX_RCPTS) {
				curl_slist_free_all(l);
				snprintf(err, errlen, "smtp: more than %d recipients",
					 DELIVER_MAX_RCPTS);
				return DELIVER_PERMFAIL;
			}
			memcpy(addr, p, n);
			addr[n] = '\0';
			t = curl_slist_append(l, addr);
			if (!t) {
				curl_slist_free_all(l);
				snprintf(err, errlen, "out of memory");
				return DELIVER_TEMPFAIL;
			}
			l = t;
		}
		p = *e ? e + 1 : e;
	}
	if (!l) {
		snprintf(err, errlen, "smtp: no recipient");
		return DELIVER_PERMFAIL;
	}
	*out = l;
	return DELIVER_OK;
}

/*
 * The mail with CRLF line ends (RFC 5321 2.3.8).  A CRLF already there is
 * kept; a bare CR or a line over SMTP_MAX_LINE octets refuses the mail.
 * Dot-stuffing is libcurl's (it escapes "\r\n." on SMTP uploads).
 */
static int build_body(const char *body, struct sbuf *out, char *err, size_t errlen)
{
	const char *p = body ? body : "", *nl, *end;
	size_t n, line = 0;

	if (!*p) {
		snprintf(err, errlen, "smtp: the mail is empty");
		return DELIVER_PERMFAIL;
	}
	while (*p) {
		line++;
		nl = strchr(p, '\n');
		end = nl ? nl : p + strlen(p);
		n = (size_t)(end - p);
		if (n && p[n - 1] == '\r' && nl)
			n--;
		if (memchr(p, '\r', n)) {
			snprintf(err, errlen, "smtp: line %zu of the mail holds a bare CR", line);
			return DELIVER_PERMFAIL;
		}
		if (n > SMTP_MAX_LINE) {
			snprintf(err, errlen, "smtp: line %zu of the mail is longer than %d octets",
				 line, SMTP_MAX_LINE);
			return DELIVER_PERMFAIL;
		}
		sbuf_add(out, p, n);
		sbuf_add(out, "\r\n", 2);
		p = nl ? nl + 1 : end;
	}
	if (out->err) {
		snprintf(err, errlen, "smtp: the mail is too big (%s)", sbuf_strerror(out->err));
		return out->err == SBUF_ERR_CAP ? DELIVER_PERMFAIL : DELIVER_TEMPFAIL;
	}
	return DELIVER_OK;
}

/*
 * Parses the url with libcurl's own parser (what it will connect to):
 * scheme smtp or smtps, a host, no password.  Fills where ("host:port"
 * for messages) and *user (curl_free it; NULL when none).
 */
static int parse_url(const char *url, CURLU *u, char *where, size_t wherelen,
		     char **user, char *err, size_t errlen)
{
	char *scheme = NULL, *host = NULL, *port = NULL, *pass = NULL;
	int ret = DELIVER_TEMPFAIL;
	CURLUcode uc;

	*user = NULL;
	if (!url || !*url) {
		snprintf(err, errlen, "smtp: [delivery] url is not set");
		return DELIVER_TEMPFAIL;
	}
	uc = curl_url_set(u, CURLUPART_URL, url, 0);
	if (uc) {
		/* the url is not echoed: it may hold a password */
		snprintf(err, errlen, "smtp: [delivery] url: %s", curl_url_strerror(uc));
		return DELIVER_TEMPFAIL;
	}
	if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) ||
	    (strcasecmp(scheme, "smtp") && strcasecmp(scheme, "smtps"))) {
		snprintf(err, errlen, "smtp: [delivery] url: the scheme is not smtp or smtps");
		goto out;
	}
	if (curl_url_get(u, CURLUPART_PASSWORD, &pass, 0) != CURLUE_NO_PASSWORD) {
		snprintf(err, errlen, "smtp: [delivery] url holds a password: use password_file or password_env");
		goto out;
	}
	if (curl_url_get(u, CURLUPART_HOST, &host, 0) ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT)) {
		snprintf(err, errlen, "smtp: [delivery] url has no host");
		goto out;
	}
	snprintf(where, wherelen, "%s:%s", host, port);
	uc = curl_url_get(u, CURLUPART_USER, user, CURLU_URLDECODE);
	if (uc && uc != CURLUE_NO_USER) {
		snprintf(err, errlen, "smtp: [delivery] url: %s", curl_url_strerror(uc));
		goto out;
	}
	if (*user && !**user) {
		curl_free(*user);
		*user = NULL;
	}
	ret = DELIVER_OK;
out:
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		curl_free(pass);
	}
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	return ret;
}

/* The server's 3-digit code at the start of its last line, else 0. */
static long reply_code(const char *line)
{
	if (line[0] >= '2' && line[0] <= '5' && line[1] >= '0' && line[1] <= '9' &&
	    line[2] >= '0' && line[2] <= '9' && (line[3] == ' ' || line[3] == '-' ||
						 line[3] == '\0'))
		return (line[0] - '0') * 100 + (line[1] - '0') * 10 + (line[2] - '0');
	return 0;
}

/*
 * The errors libcurl's SMTP code returns when the server refused a step
 * (greeting, EHLO, STARTTLS, AUTH, MAIL, RCPT, DATA, the end of data):
 * then the last reply is the answer.  Other errors (a reset, a timeout,
 * TLS) leave an earlier, stale reply behind.
 */
static int server_refused(CURLcode rc)
{
	switch (rc) {
	case CURLE_SEND_ERROR:
	case CURLE_WEIRD_SERVER_REPLY:
	case CURLE_LOGIN_DENIED:
	case CURLE_REMOTE_ACCESS_DENIED:
	case CURLE_USE_SSL_FAILED:
		return 1;
	default:
		return 0;
	}
}

static int classify(CURLcode rc, long code, const struct smtp_xfer *x, const char *where,
		    const char *curlerr, char *err, size_t errlen)
{
	if (rc == CURLE_OK && code == 250)
		return DELIVER_OK;
	if (server_refused(rc) && code >= 400 && code < 600) {
		if (x->reply[0])
			snprintf(err, errlen, "%s", x->reply);
		else
			snprintf(err, errlen, "%ld (from %s)", code, where);
		return code >= 500 ? DELIVER_PERMFAIL : DELIVER_TEMPFAIL;
	}
	/* no 4xx/5xx: the connection, TLS, a timeout, or our side */
	if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
	    rc == CURLE_OPERATION_TIMEDOUT) {
		snprintf(err, errlen, "smtp %s: %s", where,
			 curlerr[0] ? curlerr : curl_easy_strerror(rc));
		return DELIVER_UNREACHABLE;
	}
	if (rc == CURLE_OK)
		snprintf(err, errlen, "smtp %s: the transfer ended without a 250 (last reply %ld)",
			 where, code);
	else
		snprintf(err, errlen, "smtp %s: %s", where,
			 curlerr[0] ? curlerr : curl_easy_strerror(rc));
	return DELIVER_TEMPFAIL;
}

int smtp_send(const struct config *cfg, const struct store_reply *r,
	      char *err, size_t errlen)
{
	struct smtp_xfer x = { 0 };
	struct curl_slist *rcpts = NULL;
	struct sbuf body;
	char password[SECRET_MAX_PASSWORD], perr[256], where[300] = "?";
	char curlerr[CURL_ERROR_SIZE] = "", from[SMTP_MAX_ADDRESS + 3];
	char *user = NULL;
	CURLU *u = NULL;
	CURL *h = NULL;
	CURLcode rc;
	long code = 0;
	int ret, pw;

	err[0] = '\0';
	password[0] = '\0';
	sbuf_init(&body, SMTP_MAX_BODY);
	if (r->mail_from && *r->mail_from) {
		if (!address_ok(r->mail_from, strlen(r->mail_from))) {
			ret = bad_address("sender", r->mail_from, strlen(r->mail_from),
					  err, errlen);
			goto out;
		}
		snprintf(from, sizeof(from), "<%s>", r->mail_from);
	} else {
		snprintf(from, sizeof(from), "<>");	/* null reverse-path */
	}
	ret = build_rcpts(r->rcpt, &rcpts, err, errlen);
	if (ret != DELIVER_OK)
		goto out;
	ret = build_body(r->body, &body, err, errlen);
	if (ret != DELIVER_OK)
		goto out;

	ret = DELIVER_TEMPFAIL;
	u = curl_url();
	h = curl_easy_init();
	if (!u || !h) {
		snprintf(err, errlen, "smtp: cannot set up libcurl");
		goto out;
	}
	ret = parse_url(cfg->delivery_url, u, where, sizeof(where), &user, err, errlen);
	if (ret != DELIVER_OK)
		goto out;
	ret = DELIVER_TEMPFAIL;
	if (user) {
		pw = secret_password(cfg->delivery_password_file, cfg->delivery_password_env,
				     password, sizeof(password), perr, sizeof(perr));
		if (pw < 0) {
			snprintf(err, errlen, "smtp %s: %s", where, perr);
			goto out;
		}
		if (pw > 0) {
			snprintf(err, errlen, "smtp %s: a user in [delivery] url but no password_file or password_env",
				 where);
			goto out;
		}
	}
	x.body = body.buf;
	x.len = body.len;
	x.password = password;

	if (curl_easy_setopt(h, CURLOPT_CURLU, u) ||
#if LIBCURL_VERSION_NUM >= 0x075500	/* 7.85.0 */
	    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps") ||
#else
	    curl_easy_setopt(h, CURLOPT_PROTOCOLS, (long)(CURLPROTO_SMTP | CURLPROTO_SMTPS)) ||
#endif
	    /* the mail goes where the url says, whatever the environment */
	    curl_easy_setopt(h, CURLOPT_PROXY, "") ||
	    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) ||
	    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, (long)SMTP_CONNECT_TIMEOUT) ||
	    curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)SMTP_TIMEOUT) ||
	    curl_easy_setopt(h, CURLOPT_USE_SSL, cfg->delivery_starttls ?
			     (long)CURLUSESSL_ALL : (long)CURLUSESSL_TRY) ||
	    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L) ||
	    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L) ||
	    (cfg->delivery_ca_file &&
	     curl_easy_setopt(h, CURLOPT_CAINFO, cfg->delivery_ca_file)) ||
	    (user && curl_easy_setopt(h, CURLOPT_PASSWORD, password)) ||
	    curl_easy_setopt(h, CURLOPT_MAIL_FROM, from) ||
	    curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpts) ||
	    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L) ||
	    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)x.len) ||
	    curl_easy_setopt(h, CURLOPT_READFUNCTION, read_cb) ||
	    curl_easy_setopt(h, CURLOPT_READDATA, &x) ||
	    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, curlerr) ||
	    curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, debug_cb) ||
	    curl_easy_setopt(h, CURLOPT_DEBUGDATA, &x) ||
	    curl_easy_setopt(h, CURLOPT_VERBOSE, 1L)) {
		snprintf(err, errlen, "smtp %s: libcurl refused an option", where);
		goto out;
	}
	rc = curl_easy_perform(h);
	code = reply_code(x.reply);
	if (!code && curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK)
		code = 0;
	ret = classify(rc, code, &x, where, curlerr, err, errlen);
out:
	/* the handle keeps its own copy of the password until cleanup */
	if (h)
		curl_easy_cleanup(h);
	curl_url_cleanup(u);
	curl_free(user);
	curl_slist_free_all(rcpts);
	sbuf_release(&body);
	explicit_bzero(password, sizeof(password));
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The IMAP source (RFC 3501), and public-inbox's IMAP face: libetpan's
 * low-level mailimap API.
 *
 * url: imap://[USER@]HOST[:PORT][/MAILBOX] or imaps://..., USER and
 * MAILBOX percent-decoded, MAILBOX INBOX by default.  For public-inbox
 * the path names the inbox by its newsgroup (NAME); its mailboxes NAME.0,
 * NAME.1, ... (slices of 50,000 messages, public-inbox's UID_SLICE) are
 * found with LIST and read in order.
 *
 * Checkpoint: "UIDVALIDITY:LASTUID" for an imap source; for public-inbox
 * one "MAILBOX=UIDVALIDITY:LASTUID" per mailbox, joined by spaces.  A
 * changed UIDVALIDITY reads the mailbox again from UID 1 (the store
 * knows the messages by Message-ID).  Messages are fetched with
 * BODY.PEEK[] (RFC 3501 6.4.5), so nothing is marked \Seen, in chunks
 * of at most FETCH_CHUNK messages and FETCH_BYTES bytes.
 *
 * The first start (source.h): what each mailbox holds from the floor on
 * is found with UID SEARCH SENTSINCE (the Date:) and SINCE (the arrival),
 * a day before the floor as both have a day's precision (RFC 3501
 * 6.4.4): reading starts at the lowest UID either finds, and the floor
 * decides on each mail read (source_batch_add).  A server that cannot
 * search is read from its first message, the floor still deciding.
 *
 * TLS: libetpan built with GnuTLS does not verify the server's
 * certificate at all (mailstream_ssl_set_server_certicate() is "not
 * implemented" there, the handshake accepts any certificate).  So after
 * the handshake, before anything else is sent, tls_verify() checks the
 * peer's chain with GnuTLS against ca_file (or the system's CAs) and
 * the url's host, and the connection is dropped when that fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <libetpan/libetpan.h>

#include "source.h"
#include "../secret.h"
#include "../log.h"
#include "../mail/mailbox.h"
#include "../../checker/sbuf.h"
#include "../../checker/banned.h"

#define IMAP_TIMEOUT	60		/* seconds for any read or write */
#define IMAP_IDLE_BOUND	30		/* seconds of wall time to enter or leave IDLE */
#define IMAP_LINE_MAX	1024		/* bytes of a line read while idle (kept) */
#define IMAP_MAX_NAME	255		/* bytes of user, host, mailbox */
#define IMAP_MAX_BOXES	4096		/* public-inbox slices */
#define IMAP_MAX_CHAIN	16		/* certificates */
#define FETCH_CHUNK	100		/* messages per UID FETCH */
#define FETCH_BYTES	(32u << 20)	/* bytes per UID FETCH (by RFC822.SIZE) */
#define UID_WINDOW	100		/* UIDs asked for at once */
#define UID_WINDOW_MAX	(1u << 20)	/* grown over empty stretches */

struct imap_box {
	char name[IMAP_MAX_NAME + 1];
	uint32_t validity, last;
};

struct imap_url {
	char user[IMAP_MAX_NAME + 1];
	char host[IMAP_MAX_NAME + 1];
	char mailbox[IMAP_MAX_NAME + 1];
	uint16_t port;
	int tls;			/* imaps:// */
};

struct imap_priv {
	struct imap_url url;
	mailimap *imap;
	int idling;
	unsigned idle_tag;		/* the IDLE command's tag number */
	char tag[16];			/* the tag of the IDLE in progress */
	uint32_t exists;		/* of the selected mailbox, when last read */
	int poke[2];			/* always readable: "poll me now" */
	struct imap_box *boxes;		/* the checkpoint, parsed */
	size_t nboxes;
};

struct imap_msg {
	uint32_t uid, size;
};

/* ---- url ---------------------------------------------------------------- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Percent-decodes [p, p + n) into out; printable ASCII only, and none
 * of the characters IMAP quoting or LIST wildcards would trip over. */
static int url_decode(const char *p, size_t n, char *out, size_t outlen, const char *bad)
{
	size_t i, o = 0;
	int c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)p[i];
		if (c == '%') {
			if (i + 2 >= n || hexval(p[i + 1]) < 0 || hexval(p[i + 2]) < 0)
				return -1;
			c = hexval(p[i + 1]) * 16 + hexval(p[i + 2]);
			i += 2;
		}
		if (c < 0x21 || c > 0x7e || strchr(bad, c))
			return -1;
		if (o + 1 >= outlen)
			return -1;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return 0;
}

static int url_parse(const char *url, struct imap_url *u, char *err, size_t errlen)
{
	const char *p, *at, *slash, *colon, *hend;
	size_t hn;
	long port;
	char *end;

	memset(u, 0, sizeof(*u));
	if (!url) {
		snprintf(err, errlen, "no url");
		return -1;
	}
	if (!strncmp(url, "imaps://", 8)) {
		u->tls = 1;
		p = url + 8;
	} else if (!strncmp(url, "imap://", 7)) {
		p = url + 7;
	} else {
		snprintf(err, errlen, "url must start with imap:// or imaps://");
		return -1;
	}
	slash = strchr(p, '/');
	if (!slash)
		slash = p + strlen(p);
	at = memchr(p, '@', (size_t)(slash - p));
	if (at) {
		if (at == p || url_decode(p, (size_t)(at - p), u->user, sizeof(u->user), ":@/\"\\")) {
			snprintf(err, errlen, "url: bad user name");
			return -1;
		}
		p = at + 1;
	}
	/* host: a name, an IPv4 address or [IPv6] */
	if (*p == '[') {
		hend = memchr(p, ']', (size_t)(slash - p));
		if (!hend) {
			snprintf(err, errlen, "url: bad host");
			return -1;
		}
		p++;
		hn = (size_t)(hend - p);
		colon = hend + 1 < slash && hend[1] == ':' ? hend + 1 : NULL;
		if (hend + 1 < slash && !colon) {
			snprintf(err, errlen, "url: bad host");
			return -1;
		}
	} else {
		colon = memchr(p, ':', (size_t)(slash - p));
		hend = colon ? colon : slash;
		hn = (size_t)(hend - p);
	}
	if (!hn || hn > IMAP_MAX_NAME || strspn(p, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:") < hn) {
		snprintf(err, errlen, "url: bad host");
		return -1;
	}
	memcpy(u->host, p, hn);
	u->host[hn] = '\0';
	u->port = u->tls ? 993 : 143;
	if (colon) {
		errno = 0;
		port = strtol(colon + 1, &end, 10);
		if (errno || end != slash || end == colon + 1 || port < 1 || port > 65535) {
			snprintf(err, errlen, "url: bad port");
			return -1;
		}
		u->port = (uint16_t)port;
	}
	if (*slash && slash[1]) {
		if (url_decode(slash + 1, strlen(slash + 1), u->mailbox, sizeof(u->mailbox),
			       "\"\\*%")) {
			snprintf(err, errlen, "url: bad mailbox name (printable ASCII only)");
			return -1;
		}
	} else {
		memcpy(u->mailbox, "INBOX", 6);
	}
	return 0;
}

/* ---- checkpoint ----------------------------------------------------------- */

static int uid_pair(const char *p, uint32_t *v, uint32_t *u)
{
	unsigned long long a, b;
	char *end;

	errno = 0;
	a = strtoull(p, &end, 10);
	if (errno || end == p || *end != ':' || a > UINT32_MAX)
		return -1;
	p = end + 1;
	b = strtoull(p, &end, 10);
	if (errno || end == p || (*end && *end != ' ') || b > UINT32_MAX)
		return -1;
	*v = (uint32_t)a;
	*u = (uint32_t)b;
	return 0;
}

static struct imap_box *box_find(struct imap_priv *ip, const char *name, int add)
{
	struct imap_box *nb;
	size_t i;

	for (i = 0; i < ip->nboxes; i++)
		if (!strcmp(ip->boxes[i].name, name))
			return &ip->boxes[i];
	if (!add || ip->nboxes >= IMAP_MAX_BOXES || strlen(name) > IMAP_MAX_NAME)
		return NULL;
	nb = realloc(ip->boxes, (ip->nboxes + 1) * sizeof(*nb));
	if (!nb)
		return NULL;
	ip->boxes = nb;
	nb = &ip->boxes[ip->nboxes++];
	memset(nb, 0, sizeof(*nb));
	memcpy(nb->name, name, strlen(name) + 1);
	return nb;
}

/* An unreadable checkpoint reads everything again (deduplicated). */
static void cp_parse(struct imap_priv *ip, const char *cp, int multi)
{
	struct imap_box *bx;
	char name[IMAP_MAX_NAME + 1];
	const char *eq, *sp;
	uint32_t v, u;

	ip->nboxes = 0;
	if (!cp)
		return;
	if (!multi) {
		if (!uid_pair(cp, &v, &u) && (bx = box_find(ip, ip->url.mailbox, 1))) {
			bx->validity = v;
			bx->last = u;
		}
		return;
	}
	while (*cp) {
		sp = strchr(cp, ' ');
		eq = strchr(cp, '=');
		if (eq && (!sp || eq < sp) && (size_t)(eq - cp) <= IMAP_MAX_NAME &&
		    !uid_pair(eq + 1, &v, &u)) {
			memcpy(name, cp, (size_t)(eq - cp));
			name[eq - cp] = '\0';
			bx = box_find(ip, name, 1);
			if (bx) {
				bx->validity = v;
				bx->last = u;
			}
		}
		if (!sp)
			break;
		cp = sp + 1;
	}
}

static char *cp_format(const struct imap_priv *ip, int multi)
{
	struct sbuf sb;
	size_t i;

	sbuf_init(&sb, IMAP_MAX_BOXES * (IMAP_MAX_NAME + 24));
	for (i = 0; i < ip->nboxes; i++) {
		if (multi)
			sbuf_addf(&sb, "%s%s=", i ? " " : "", ip->boxes[i].name);
		sbuf_addf(&sb, "%" PRIu32 ":%" PRIu32, ip->boxes[i].validity, ip->boxes[i].last);
		if (!multi)
			break;
	}
	return sbuf_detach(&sb, NULL);
}

/* ---- TLS ------------------------------------------------------------------- */

/* Checks the peer's certificate chain (libetpan does not, see the top). */
static int tls_verify(mailimap *imap, const struct config_source *src, const char *host,
		      char *err, size_t errlen)
{
	gnutls_x509_trust_list_t tl = NULL;
	gnutls_x509_crt_t certs[IMAP_MAX_CHAIN];
	gnutls_typed_vdata_st vd;
	gnutls_datum_t d, out = { NULL, 0 };
	unsigned int n = 0, i, status = 0;
	carray *chain;
	MMAPString *s;
	int r, ret = -1;

	chain = mailstream_get_certificate_chain(imap->imap_stream);
	if (!chain || !carray_count(chain)) {
		snprintf(err, errlen, "tls: the server sent no certificate");
		goto out;
	}
	if (gnutls_x509_trust_list_init(&tl, 0) < 0) {
		snprintf(err, errlen, "tls: out of memory");
		goto out;
	}
	if (src->ca_file)
		r = gnutls_x509_trust_list_add_trust_file(tl, src->ca_file, NULL,
							  GNUTLS_X509_FMT_PEM, 0, 0);
	else
		r = gnutls_x509_trust_list_add_system_trust(tl, 0, 0);
	if (r <= 0) {
		snprintf(err, errlen, "tls: no CA certificate loaded from %s",
			 src->ca_file ? src->ca_file : "the system's store");
		goto out;
	}
	for (i = 0; i < carray_count(chain) && n < IMAP_MAX_CHAIN; i++) {
		s = carray_get(chain, i);
		d.data = (unsigned char *)s->str;
		d.size = (unsigned int)s->len;
		if (gnutls_x509_crt_init(&certs[n]) < 0)
			goto bad_chain;
		if (gnutls_x509_crt_import(certs[n], &d, GNUTLS_X509_FMT_DER) < 0) {
			gnutls_x509_crt_deinit(certs[n]);
			goto bad_chain;
		}
		n++;
	}
	memset(&vd, 0, sizeof(vd));
	vd.type = GNUTLS_DT_DNS_HOSTNAME;
	vd.data = (unsigned char *)host;
	r = gnutls_x509_trust_list_verify_crt2(tl, certs, n, &vd, 1, 0, &status, NULL);
	if (r < 0 || status) {
		if (r >= 0 && gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509,
									   &out, 0) >= 0)
			snprintf(err, errlen, "tls: certificate of %s not trusted: %s", host,
				 (const char *)out.data);
		else
			snprintf(err, errlen, "tls: certificate of %s not trusted", host);
		gnutls_free(out.data);
		goto out;
	}
	ret = 0;
	goto out;
bad_chain:
	snprintf(err, errlen, "tls: unreadable certificate from the server");
out:
	for (i = 0; i < n; i++)
		gnutls_x509_crt_deinit(certs[i]);
	if (tl)
		gnutls_x509_trust_list_deinit(tl, 1);
	if (chain)
		mailstream_certificate_chain_free(chain);
	return ret;
}

/* SNI (RFC 6066), from libetpan's handshake callback. */
static void tls_setup(struct mailstream_ssl_context *ctx, void *data)
{
	mailstream_ssl_set_server_name(ctx, data);
}

/* ---- connection -------------------------------------------------------------- */

static int idle_done(struct imap_priv *ip);

static void imap_drop(struct imap_priv *ip, int logout)
{
	if (!ip->imap)
		return;
	/* best effort: a dead server costs at most IMAP_TIMEOUT here */
	if (logout && (!ip->idling || !idle_done(ip)))
		mailimap_logout(ip->imap);
	mailimap_free(ip->imap);
	ip->imap = NULL;
	ip->idling = 0;
}

/* The server's words after a failed command (escaped when logged). */
static const char *imap_said(mailimap *imap)
{
	return imap && imap->imap_response ? imap->imap_response : "no answer";
}

/* CAPABILITY: libetpan keeps the list for mailimap_has_extension() */
static int capabilities(mailimap *imap)
{
	struct mailimap_capability_data *cap = NULL;
	int r;

	r = mailimap_capability(imap, &cap);
	if (cap)
		mailimap_capability_data_free(cap);
	return r != MAILIMAP_NO_ERROR;
}

static int imap_connect(struct imap_priv *ip, const struct config_source *src,
			char *err, size_t errlen)
{
	char pass[SECRET_MAX_PASSWORD];
	const char *user = ip->url.user;
	int r, ret = -1;

	pass[0] = '\0';
	r = secret_password(src->password_file, src->password_env, pass, sizeof(pass),
			    err, errlen);
	if (r < 0)
		return -1;
	if (!*user) {
		if (src->type != SRC_PUBLIC_INBOX) {
			snprintf(err, errlen, "url names no user");
			goto out;
		}
		/* public-inbox's IMAP server takes any login */
		user = "anonymous";
		if (r == 1)
			memcpy(pass, "anonymous", 10);
	} else if (r == 1) {
		snprintf(err, errlen, "no password: set password_file or password_env");
		goto out;
	}
	mailstream_network_delay.tv_sec = IMAP_TIMEOUT;
	mailstream_network_delay.tv_usec = 0;
	ip->imap = mailimap_new(0, NULL);
	if (!ip->imap) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	mailimap_set_timeout(ip->imap, IMAP_TIMEOUT);
	if (ip->url.tls)
		r = mailimap_ssl_connect_with_callback(ip->imap, ip->url.host, ip->url.port,
						       tls_setup, ip->url.host);
	else
		r = mailimap_socket_connect(ip->imap, ip->url.host, ip->url.port);
	/* 2 is MAILIMAP_NO_ERROR_NON_AUTHENTICATED: the usual greeting */
	if (r != MAILIMAP_NO_ERROR && r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED &&
	    r != MAILIMAP_NO_ERROR_AUTHENTICATED) {
		snprintf(err, errlen, "cannot connect to %s:%u%s (error %d)", ip->url.host,
			 ip->url.port, ip->url.tls ? " with TLS" : "", r);
		goto out;
	}
	if (ip->url.tls && tls_verify(ip->imap, src, ip->url.host, err, errlen))
		goto out;
	if (capabilities(ip->imap)) {
		snprintf(err, errlen, "CAPABILITY failed: %s", imap_said(ip->imap));
		goto out;
	}
	if (!ip->url.tls && mailimap_has_extension(ip->imap, "STARTTLS")) {
		/* RFC 3501 6.2.1; capabilities are asked again after it */
		r = mailimap_socket_starttls_with_callback(ip->imap, tls_setup, ip->url.host);
		if (r != MAILIMAP_NO_ERROR) {
			snprintf(err, errlen, "STARTTLS failed (error %d)", r);
			goto out;
		}
		if (tls_verify(ip->imap, src, ip->url.host, err, errlen))
			goto out;
		if (capabilities(ip->imap)) {
			snprintf(err, errlen, "CAPABILITY failed: %s", imap_said(ip->imap));
			goto out;
		}
	} else if (!ip->url.tls && src->starttls) {
		snprintf(err, errlen, "%s:%u does not offer STARTTLS and starttls = true: "
			 "not sending the password in clear", ip->url.host, ip->url.port);
		goto out;
	}
	if (mailimap_has_extension(ip->imap, "LOGINDISABLED"))
		r = mailimap_authenticate(ip->imap, "PLAIN", ip->url.host, NULL, NULL,
					  user, user, pass, NULL);
	else
		r = mailimap_login(ip->imap, user, pass);
	if (r != MAILIMAP_NO_ERROR) {
		snprintf(err, errlen, "login as %s failed: %s", user, imap_said(ip->imap));
		goto out;
	}
	log_event(LOG_DEBUG, "imap-connected", "source", src->name, "host", ip->url.host, NULL);
	ret = 0;
out:
	explicit_bzero(pass, sizeof(pass));
	if (ret)
		imap_drop(ip, 0);
	return ret;
}

/* ---- fetching --------------------------------------------------------------- */

static int msg_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct imap_msg *)a)->uid, y = ((const struct imap_msg *)b)->uid;

	return x < y ? -1 : x > y;
}

/* UID and RFC822.SIZE of the messages in uid range [lo, hi] (hi 0: "*"),
 * sorted, those not above after left out.  *n 0 when none. */
static int fetch_sizes(mailimap *imap, uint32_t lo, uint32_t hi, uint32_t after,
		       struct imap_msg **out, size_t *n)
{
	struct mailimap_fetch_type *ft;
	struct mailimap_set *set;
	struct mailimap_msg_att_item *it;
	struct mailimap_msg_att *ma;
	struct imap_msg *v = NULL, m;
	clist *res = NULL;
	clistiter *c, *d;
	size_t cnt = 0;
	int r;

	*out = NULL;
	*n = 0;
	set = mailimap_set_new_interval(lo, hi);
	ft = mailimap_fetch_type_new_fetch_att_list_empty();
	if (!set || !ft || mailimap_fetch_type_new_fetch_att_list_add(ft, mailimap_fetch_att_new_uid()) ||
	    mailimap_fetch_type_new_fetch_att_list_add(ft, mailimap_fetch_att_new_rfc822_size())) {
		r = MAILIMAP_ERROR_MEMORY;
		goto out;
	}
	r = mailimap_uid_fetch(imap, set, ft, &res);
	if (r != MAILIMAP_NO_ERROR)
		goto out;
	v = calloc((size_t)clist_count(res) + 1, sizeof(*v));
	if (!v) {
		r = MAILIMAP_ERROR_MEMORY;
		goto out;
	}
	for (c = clist_begin(res); c; c = clist_next(c)) {
		ma = clist_content(c);
		memset(&m, 0, sizeof(m));
		for (d = clist_begin(ma->att_list); d; d = clist_next(d)) {
			it = clist_content(d);
			if (it->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC)
				continue;
			if (it->att_data.att_static->att_type == MAILIMAP_MSG_ATT_UID)
				m.uid = it->att_data.att_static->att_data.att_uid;
			else if (it->att_data.att_static->att_type == MAILIMAP_MSG_ATT_RFC822_SIZE)
				m.size = it->att_data.att_static->att_data.att_rfc822_size;
		}
		if (m.uid > after && m.uid >= lo && (!hi || m.uid <= hi))
			v[cnt++] = m;
	}
	qsort(v, cnt, sizeof(*v), msg_cmp);
	*out = v;
	*n = cnt;
	v = NULL;
	r = MAILIMAP_NO_ERROR;
out:
	free(v);
	if (res)
		mailimap_fetch_list_free(res);
	if (set)
		mailimap_set_free(set);
	if (ft)
		mailimap_fetch_type_free(ft);
	return r;
}

struct reader {
	struct imap_priv *ip;
	struct source_batch *b;
	const struct config_source *src;
	struct imap_box *box;
	int multi;
	int probe;		/* a missing mailbox is the end, not an error */
	int64_t floor;		/* the first start's (source.h), 0: none */
	int rewind;		/* run --since: from the floor, whatever the checkpoint */
	char *err;
	size_t errlen;
};

/*
 * The lowest UID of the selected mailbox that UID SEARCH key finds, or
 * 0 for none (into *lowest, kept when it is lower).  0, or -1 when the
 * server refused the search.
 */
static int search_lowest(mailimap *imap, struct mailimap_search_key *key, uint32_t *lowest)
{
	clist *res = NULL;
	clistiter *c;
	uint32_t *u;
	int r;

	if (!key)
		return -1;
	r = mailimap_uid_search(imap, NULL, key, &res);
	mailimap_search_key_free(key);
	if (r != MAILIMAP_NO_ERROR)
		return -1;
	for (c = clist_begin(res); c; c = clist_next(c)) {
		u = clist_content(c);
		if (u && *u && (!*lowest || *u < *lowest))
			*lowest = *u;
	}
	mailimap_search_result_free(res);
	return 0;
}

/*
 * Where the first start reads the selected mailbox from: the UID before
 * the first mail SEARCH finds from a day before the floor on, or the
 * last UID (uidnext - 1) when it finds none.  0 with *last set, or -1
 * when the server cannot search (then everything is read).
 */
static int floor_last(struct reader *rd, uint32_t uidnext, uint32_t *last)
{
	time_t t = (time_t)(rd->floor - 86400);
	struct tm tm;
	uint32_t lowest = 0;
	int i;

	if (!gmtime_r(&t, &tm))
		return -1;
	for (i = 0; i < 2; i++) {
		struct mailimap_date *d = mailimap_date_new(tm.tm_mday, tm.tm_mon + 1,
							    tm.tm_year + 1900);

		if (!d)
			return -1;
		if (search_lowest(rd->ip->imap, i ? mailimap_search_key_new_since(d)
						  : mailimap_search_key_new_sentsince(d),
				  &lowest))
			return -1;
	}
	if (lowest)
		*last = lowest - 1;
	else if (uidnext)
		*last = uidnext - 1;
	else
		return -1;
	return 0;
}

static int flush(struct reader *rd)
{
	char *cp = cp_format(rd->ip, rd->multi);
	int r;

	if (!cp) {
		snprintf(rd->err, rd->errlen, "out of memory");
		return -1;
	}
	r = source_batch_flush(rd->b, cp);
	free(cp);
	if (r < 0) {
		snprintf(rd->err, rd->errlen, "database: %s", store_strerror(r));
		return -1;
	}
	return 0;
}

/* BODY.PEEK[] of msgs[0..n), added to the batch in UID order. */
static int fetch_bodies(struct reader *rd, const struct imap_msg *msgs, size_t n)
{
	struct mailimap_fetch_type *ft;
	struct mailimap_set *set;
	struct mailimap_msg_att_item *it;
	struct mailimap_msg_att *ma;
	struct mailimap_msg_att_body_section *body;
	clist *res = NULL;
	clistiter *c, *d;
	uint32_t uid;
	size_t i;
	int r, ret = -1;

	set = mailimap_set_new_empty();
	ft = mailimap_fetch_type_new_fetch_att_list_empty();
	if (!set || !ft ||
	    mailimap_fetch_type_new_fetch_att_list_add(ft, mailimap_fetch_att_new_uid()) ||
	    mailimap_fetch_type_new_fetch_att_list_add(ft,
		mailimap_fetch_att_new_body_peek_section(mailimap_section_new(NULL)))) {
		snprintf(rd->err, rd->errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		if (mailimap_set_add_single(set, msgs[i].uid)) {
			snprintf(rd->err, rd->errlen, "out of memory");
			goto out;
		}
	r = mailimap_uid_fetch(rd->ip->imap, set, ft, &res);
	if (r != MAILIMAP_NO_ERROR) {
		snprintf(rd->err, rd->errlen, "UID FETCH in %s failed (error %d): %s",
			 rd->box->name, r, imap_said(rd->ip->imap));
		goto out;
	}
	/* in UID order, whatever order the server answered in */
	for (i = 0; i < n; i++) {
		body = NULL;
		for (c = clist_begin(res); c && !body; c = clist_next(c)) {
			ma = clist_content(c);
			uid = 0;
			for (d = clist_begin(ma->att_list); d; d = clist_next(d)) {
				it = clist_content(d);
				if (it->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC)
					continue;
				if (it->att_data.att_static->att_type == MAILIMAP_MSG_ATT_UID)
					uid = it->att_data.att_static->att_data.att_uid;
			}
			if (uid != msgs[i].uid)
				continue;
			for (d = clist_begin(ma->att_list); d; d = clist_next(d)) {
				it = clist_content(d);
				if (it->att_type == MAILIMAP_MSG_ATT_ITEM_STATIC &&
				    it->att_data.att_static->att_type == MAILIMAP_MSG_ATT_BODY_SECTION)
					body = it->att_data.att_static->att_data.att_body_section;
			}
		}
		if (body && body->sec_body_part && body->sec_length <= MAILBOX_MAX_MESSAGE) {
			r = source_batch_add(rd->b, body->sec_body_part, body->sec_length);
			if (r < 0) {
				snprintf(rd->err, rd->errlen, "database: %s", store_strerror(r));
				goto out;
			}
		} else {
			/* gone meanwhile (expunged), or larger than it said */
			char us[16];

			snprintf(us, sizeof(us), "%" PRIu32, msgs[i].uid);
			log_event(LOG_WARN, "message-skipped", "source", rd->src->name,
				  "mailbox", rd->box->name, "uid", us,
				  "reason", body ? "too large" : "not returned", NULL);
		}
		rd->box->last = msgs[i].uid;
		if (source_batch_full(rd->b) && flush(rd))
			goto out;
	}
	ret = 0;
out:
	if (res)
		mailimap_fetch_list_free(res);
	if (set)
		mailimap_set_free(set);
	if (ft)
		mailimap_fetch_type_free(ft);
	return ret;
}

/* Everything in msgs[0..n) (sorted), in chunks bounded in count and bytes. */
static int read_msgs(struct reader *rd, const struct imap_msg *msgs, size_t n)
{
	size_t i = 0, j;
	uint64_t bytes;
	char us[16], ss[16];

	while (i < n) {
		if (msgs[i].size > MAILBOX_MAX_MESSAGE) {
			snprintf(us, sizeof(us), "%" PRIu32, msgs[i].uid);
			snprintf(ss, sizeof(ss), "%" PRIu32, msgs[i].size);
			log_event(LOG_WARN, "message-too-large", "source", rd->src->name,
				  "mailbox", rd->box->name, "uid", us, "size", ss, NULL);
			rd->box->last = msgs[i].uid;
			i++;
			continue;
		}
		bytes = 0;
		for (j = i; j < n && j - i < FETCH_CHUNK && msgs[j].size <= MAILBOX_MAX_MESSAGE &&
		     (j == i || bytes + msgs[j].size <= FETCH_BYTES); j++)
			bytes += msgs[j].size;
		if (fetch_bodies(rd, msgs + i, j - i))
			return -1;
		i = j;
	}
	return 0;
}

/* One mailbox: EXAMINE (read-only, RFC 3501 6.3.2), then what is new. */
static int read_box(struct reader *rd, const char *name)
{
	struct mailimap_selection_info *si;
	struct imap_msg *msgs = NULL;
	uint32_t lo, hi, uidnext, w = UID_WINDOW;
	size_t n;
	char vs[32];
	int r;

	rd->box = box_find(rd->ip, name, 1);
	if (!rd->box) {
		snprintf(rd->err, rd->errlen, "too many mailboxes");
		return -1;
	}
	r = mailimap_examine(rd->ip->imap, name);
	if (r != MAILIMAP_NO_ERROR && rd->probe)
		return 1;
	if (r != MAILIMAP_NO_ERROR) {
		snprintf(rd->err, rd->errlen, "EXAMINE %s failed: %s", name, imap_said(rd->ip->imap));
		return -1;
	}
	si = rd->ip->imap->imap_selection_info;
	rd->ip->exists = si->sel_exists;
	if (si->sel_uidvalidity != rd->box->validity) {
		if (rd->box->validity) {
			snprintf(vs, sizeof(vs), "%" PRIu32, si->sel_uidvalidity);
			log_event(LOG_INFO, "uidvalidity-changed", "source", rd->src->name,
				  "mailbox", name, "uidvalidity", vs, NULL);
		}
		rd->box->validity = si->sel_uidvalidity;
		rd->box->last = 0;
	}
	if (!si->sel_exists)
		return 0;
	uidnext = si->sel_uidnext;
	/* a first start (nothing read here yet) or a backfill: from the floor */
	if (rd->floor && (!rd->box->last || rd->rewind)) {
		uint32_t last;

		if (!floor_last(rd, uidnext, &last)) {
			rd->box->last = last;
		} else {
			log_event(LOG_WARN, "search-failed", "source", rd->src->name,
				  "mailbox", name, "reason",
				  "UID SEARCH refused: every message is read, the floor decides",
				  NULL);
			if (rd->rewind)
				rd->box->last = 0;
		}
	}
	for (lo = rd->box->last + 1; lo && (!uidnext || lo < uidnext); ) {
		/* uid windows: no list of a whole mailbox in memory */
		hi = uidnext ? (uidnext - lo > w ? lo + w - 1 : uidnext - 1) : 0;
		r = fetch_sizes(rd->ip->imap, lo, hi, rd->box->last, &msgs, &n);
		if (r != MAILIMAP_NO_ERROR) {
			snprintf(rd->err, rd->errlen, "UID FETCH in %s failed (error %d): %s",
				 name, r, imap_said(rd->ip->imap));
			return -1;
		}
		r = read_msgs(rd, msgs, n);
		free(msgs);
		if (r)
			return -1;
		if (!hi || hi == UINT32_MAX)
			break;
		lo = hi + 1;
		w = n ? UID_WINDOW : (w < UID_WINDOW_MAX ? w * 2 : w);
	}
	return 0;
}

static int box_slice(const char *name, const char *base, unsigned long *slice)
{
	size_t bl = strlen(base);
	char *end;

	if (strncmp(name, base, bl) || name[bl] != '.' || !name[bl + 1] ||
	    strspn(name + bl + 1, "0123456789") != strlen(name + bl + 1))
		return -1;
	errno = 0;
	*slice = strtoul(name + bl + 1, &end, 10);
	return errno || *slice > IMAP_MAX_BOXES * 1000UL ? -1 : 0;
}

static int slice_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* public-inbox: LIST NAME.* and read NAME.0, NAME.1, ... in order. */
static int read_slices(struct reader *rd)
{
	struct mailimap_mailbox_list *mb;
	unsigned long *slices = NULL, sl;
	char pattern[IMAP_MAX_NAME + 3], name[IMAP_MAX_NAME + 24];
	const char *base = rd->ip->url.mailbox;
	clist *res = NULL;
	clistiter *c;
	size_t n = 0, i;
	int r, ret = -1;

	snprintf(pattern, sizeof(pattern), "%s.*", base);
	if (mailimap_list(rd->ip->imap, "", pattern, &res) != MAILIMAP_NO_ERROR) {
		snprintf(rd->err, rd->errlen, "LIST %s failed: %s", pattern, imap_said(rd->ip->imap));
		goto out;
	}
	slices = calloc((size_t)clist_count(res) + 1, sizeof(*slices));
	if (!slices) {
		snprintf(rd->err, rd->errlen, "out of memory");
		goto out;
	}
	for (c = clist_begin(res); c && n < IMAP_MAX_BOXES; c = clist_next(c)) {
		mb = clist_content(c);
		if (mb->mb_name && !box_slice(mb->mb_name, base, &sl))
			slices[n++] = sl;
	}
	if (!n) {
		/* public-inbox-netd may list nothing (seen with an inbox
		 * created after it started): try NAME.0, NAME.1, ... */
		for (sl = 0; sl < IMAP_MAX_BOXES; sl++) {
			snprintf(name, sizeof(name), "%s.%lu", base, sl);
			rd->probe = sl > 0;
			r = read_box(rd, name);
			if (r < 0)
				goto out;
			if (r > 0) {
				/* the failed EXAMINE left no mailbox selected:
				 * IDLE waits on the newest slice, selected again */
				rd->probe = 0;
				snprintf(name, sizeof(name), "%s.%lu", base, sl - 1);
				if (read_box(rd, name))
					goto out;
				break;
			}
		}
		rd->probe = 0;
		ret = 0;
		goto out;
	}
	qsort(slices, n, sizeof(*slices), slice_cmp);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s.%lu", base, slices[i]);
		if (read_box(rd, name))
			goto out;
	}
	ret = 0;
out:
	free(slices);
	if (res)
		mailimap_list_result_free(res);
	return ret;
}

/* ---- the driver ---------------------------------------------------------------- */

static struct imap_priv *priv_new(const struct config_source *src, char *err, size_t errlen)
{
	struct imap_priv *ip = calloc(1, sizeof(*ip));

	if (!ip) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	ip->poke[0] = ip->poke[1] = -1;
	if (url_parse(src->url, &ip->url, err, errlen)) {
		free(ip);
		return NULL;
	}
	return ip;
}

static int imap_poll(struct source_session *s, struct source_batch *b, char *err, size_t errlen)
{
	struct imap_priv *ip = s->priv;
	struct reader rd;
	char *cp = NULL;
	int r, ret = -1;

	if (!ip) {
		ip = priv_new(s->src, err, errlen);
		if (!ip)
			return -1;
		s->priv = ip;
	}
	if (ip->idling && idle_done(ip)) {
		/* gone, or no answer to DONE within IMAP_IDLE_BOUND: the
		 * next poll (after the backoff) reconnects and reads */
		snprintf(err, errlen, "connection lost while idle: %s", imap_said(ip->imap));
		imap_drop(ip, 0);
		return -1;
	}
	if (!ip->imap && imap_connect(ip, s->src, err, errlen))
		return -1;
	r = source_batch_checkpoint(b, &cp);
	if (r < 0) {
		snprintf(err, errlen, "database: %s", store_strerror(r));
		return -1;
	}
	memset(&rd, 0, sizeof(rd));
	rd.ip = ip;
	rd.b = b;
	rd.src = s->src;
	rd.multi = s->src->type == SRC_PUBLIC_INBOX;
	rd.floor = s->floor;
	rd.rewind = s->rewind;
	rd.err = err;
	rd.errlen = errlen;
	cp_parse(ip, cp, rd.multi);
	if (rd.multi ? read_slices(&rd) : read_box(&rd, ip->url.mailbox))
		goto out;
	if (flush(&rd))
		goto out;
	ret = 0;
out:
	source_batch_abort(b);
	free(cp);
	return ret;
}

/* An fd that is always readable: the daemon polls this source at once. */
static int poke(struct imap_priv *ip)
{
	if (ip->poke[0] < 0) {
		if (pipe2(ip->poke, O_CLOEXEC))
			return -1;
		if (write(ip->poke[1], "", 1) != 1)
			return -1;
	}
	return ip->poke[0];
}

/*
 * IDLE (RFC 2177), bounded by wall time.  libetpan's mailimap_idle()
 * (1.9.4) waits for the tagged answer to IDLE when untagged lines come
 * before the continuation, as public-inbox sends "* N EXISTS" when mail
 * arrived since the mailbox was selected: its 60 s read timeout is
 * reset by each line the server sends ("* OK Still here" every minute),
 * so it never returned.  Here IDLE and DONE are sent and their answers
 * read line by line, each wait cut to what is left of IMAP_IDLE_BOUND:
 * past it the connection is dropped and the daemon polls (which
 * reconnects and fetches).  An EXISTS seen on the way means new mail.
 */

/* One line (CRLF dropped, cut at IMAP_LINE_MAX) before deadline: 0, or -1
 * (the connection failed, or the time is up). */
static int idle_line(struct imap_priv *ip, time_t deadline, char *line, size_t max)
{
	mailstream *ms = ip->imap->imap_stream;
	mailstream_low *low = mailstream_get_low(ms);
	time_t saved = mailstream_low_get_timeout(low), now;
	size_t n = 0;
	char c;
	int ret = -1;

	for (;;) {
		now = time(NULL);
		if (now >= deadline)
			break;
		/* a read waits no longer than what is left */
		mailstream_low_set_timeout(low, deadline - now);
		if (mailstream_read(ms, &c, 1) != 1)
			break;
		if (c == '\n') {
			if (n && line[n - 1] == '\r')
				n--;
			line[n] = '\0';
			ret = 0;
			break;
		}
		if (n + 1 < max)
			line[n++] = c;
	}
	mailstream_low_set_timeout(low, saved);
	return ret;
}

/*
 * Sends "TAG word" (IDLE or DONE: DONE is untagged) and reads until the
 * continuation (want_cont) or the tagged answer: 0 when it came (an OK
 * for the tagged answer), -1 when not within IMAP_IDLE_BOUND (*why
 * says).  *exists is set when an EXISTS came on the way.
 */
static int idle_exchange(struct imap_priv *ip, const char *cmd, int want_cont,
			 int *exists, const char **why)
{
	mailstream *ms = ip->imap->imap_stream;
	time_t deadline = time(NULL) + IMAP_IDLE_BOUND;
	char line[IMAP_LINE_MAX];
	size_t tl = strlen(ip->tag);

	*why = "the connection failed";
	if (mailstream_write(ms, cmd, strlen(cmd)) != (ssize_t)strlen(cmd) ||
	    mailstream_flush(ms) == -1)
		return -1;
	for (;;) {
		if (idle_line(ip, deadline, line, sizeof(line))) {
			if (time(NULL) >= deadline)
				*why = "no answer within the bound";
			return -1;
		}
		if (line[0] == '+' && want_cont)
			return 0;
		if (line[0] == '*') {
			if (strstr(line, " EXISTS"))
				*exists = 1;
			continue;
		}
		if (!strncmp(line, ip->tag, tl) && line[tl] == ' ') {
			if (!want_cont && !strncasecmp(line + tl + 1, "OK", 2))
				return 0;
			*why = want_cont ? "IDLE refused" : "DONE refused";
			return -1;
		}
	}
}

/* Starts IDLE: 0, or -1 (logged; the connection is to be dropped). */
static int idle_start(struct imap_priv *ip, const struct config_source *src, int *exists)
{
	char cmd[32];
	const char *why;

	snprintf(ip->tag, sizeof(ip->tag), "rb%u", ++ip->idle_tag);
	snprintf(cmd, sizeof(cmd), "%s IDLE\r\n", ip->tag);
	if (idle_exchange(ip, cmd, 1, exists, &why)) {
		log_event(LOG_WARN, "idle-failed", "source", src->name, "reason", why, NULL);
		return -1;
	}
	ip->idling = 1;
	return 0;
}

/* Ends IDLE: 0, or -1 (the connection is to be dropped). */
static int idle_done(struct imap_priv *ip)
{
	const char *why;
	int exists = 0;

	ip->idling = 0;
	return idle_exchange(ip, "DONE\r\n", 0, &exists, &why);
}

/*
 * The daemon's wait.  Without a connection (after a failure, once the
 * backoff is over) the answer is the poke fd: the daemon polls, which
 * reconnects.  Mail that came while the last poll ran (EXISTS grew) or
 * that libetpan already buffered also pokes, as no new EXISTS would wake
 * us for it.  Called again while idling (the daemon woke for something
 * else), IDLE is renewed, so it never runs for the 29 minutes servers
 * may allow.
 */
static int imap_idle(struct source_session *s)
{
	struct imap_priv *ip = s->priv;
	char err[256];
	int exists = 0;

	if (!ip) {
		ip = priv_new(s->src, err, sizeof(err));
		if (!ip)
			return -1;
		s->priv = ip;
	}
	if (!ip->imap)
		return poke(ip);
	/* IDLE needs a selected mailbox (libetpan dereferences it) */
	if (!mailimap_has_idle(ip->imap) || !ip->imap->imap_selection_info)
		return -1;
	if (ip->idling && idle_done(ip)) {
		imap_drop(ip, 0);
		return poke(ip);
	}
	if (ip->imap->imap_selection_info &&
	    ip->imap->imap_selection_info->sel_exists != ip->exists)
		return poke(ip);
	if (idle_start(ip, s->src, &exists)) {
		imap_drop(ip, 0);
		return poke(ip);
	}
	/* mail came before the continuation, or is read already */
	if (exists || ip->imap->imap_stream->read_buffer_len)
		return poke(ip);
	return mailimap_idle_get_fd(ip->imap);
}

static void imap_close(struct source_session *s)
{
	struct imap_priv *ip = s->priv;

	if (!ip)
		return;
	imap_drop(ip, 1);
	if (ip->poke[0] >= 0)
		close(ip->poke[0]);
	if (ip->poke[1] >= 0)
		close(ip->poke[1]);
	free(ip->boxes);
	free(ip);
	s->priv = NULL;
}

static const struct source_ops imap_ops = {
	.name = "imap",
	.poll = imap_poll,
	.idle = imap_idle,
	.close = imap_close,
};

int src_imap_init(struct source_session *s, char *err, size_t errlen)
{
	struct imap_url u;
	char e[256];

	if (url_parse(s->src->url, &u, e, sizeof(e))) {
		snprintf(err, errlen, "source \"%s\": %s", s->src->name, e);
		return -1;
	}
	s->ops = &imap_ops;
	return 0;
}

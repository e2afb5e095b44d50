// SPDX-License-Identifier: GPL-2.0-only
/*
 * A public-inbox archive over HTTP(S), with libcurl: polls <url>new.atom
 * with conditional requests, fetches each new message from
 * <url><Message-ID>/raw (mboxrd, unescaped here), oldest first.
 *
 * The feed lists the newest messages (25 by default), newest first, each
 * with an <updated> time (its Received: or Date: time) and a link
 * <url><Message-ID>/.  The checkpoint is the feed position: the newest
 * <updated> read, the Message-IDs read at exactly that time (so entries
 * sharing a timestamp are neither lost nor doubled), the Message-IDs the
 * feed still lists that could not be stored (gone, too large: not tried
 * again), and the feed's ETag and Last-Modified (stored only once the
 * whole feed was read, so a 304 never hides a message a failed poll left
 * behind):
 *
 *	t=UNIXTIME
 *	m=MESSAGE-ID		(any number, without <>)
 *	x=MESSAGE-ID		(any number)
 *	etag=VALUE
 *	lm=VALUE
 *	f=UNIXTIME		(the first start's floor, when there was one)
 *
 * The first start (no checkpoint, source.h) reads the archive from its
 * floor on, as IMAP and NNTP do: the position starts PIHTTP_FLOOR_MARGIN
 * before the floor (the feed's time is the mail's arrival, and the date
 * a mail is taken to have may be up to a day after it) and the feed is
 * paged forward from there; without a floor ([policy] max_age = 0) from
 * the archive's start.  The floor stays in the checkpoint: every feed
 * lists mail older than it again, and an entry whose time is more than
 * the margin before it is never fetched.
 *
 * Every entry of a changed feed is looked up in the store, so a message
 * the store holds (read through another source, or before a crash) is not
 * fetched again, and one that arrives late with an older time than the
 * position is still read.
 *
 * When no entry of the feed is behind the position, more mail arrived
 * than one feed page holds (25 entries by default): the feed is paged
 * forward from the position with public-inbox's "new.atom?t=YYYYMMDDhhmmss-"
 * (the entries at or after that time, oldest first, one page at a time;
 * View.pm's paginate_recent), reading each page as the feed, until a
 * page reaches the first page's entries.  A server that does not page
 * (it answers ?t= with the first page again, and no entry read at the
 * position's time) leaves mail between the position and the feed's
 * oldest entry unread: that range is logged at error level.  More entries in one second than a page
 * holds cannot be paged past: the rest of that second is logged the same
 * way.  A 404 for new.atom is an empty inbox (public-inbox has no feed
 * for an inbox without mail): logged once, not a failure.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "source.h"
#include "../log.h"
#include "../mail/mailbox.h"
#include "../mail/maildate.h"
#include "../version.h"
#include "../../checker/sbuf.h"
#include "../../store/store.h"
#include "../../checker/banned.h"

#define PIHTTP_FEED_MAX		(8u << 20)	/* bytes of new.atom */
#define PIHTTP_MAX_ENTRIES	10000		/* entries read from one feed */
#define PIHTTP_MAX_MID		998		/* bytes of a Message-ID */
#define PIHTTP_MAX_URL		4096
#define PIHTTP_MAX_VALIDATOR	256		/* bytes of an ETag/Last-Modified */
#define PIHTTP_CP_MAX_MIDS	256		/* Message-IDs kept at the newest time */
#define PIHTTP_CONNECT_TIMEOUT	10L		/* seconds */
#define PIHTTP_TIMEOUT		60L		/* seconds, a whole transfer */
#define PIHTTP_MAX_REDIRS	3L
#define PIHTTP_MAX_PAGES	400		/* feed pages read in one poll */
/* An entry this long before the floor is older than it, whatever its
 * Date: (maildate.h: the date taken is at most a day after the arrival,
 * which is the feed's time; a second day for the servers' clocks). */
#define PIHTTP_FLOOR_MARGIN	(2 * MAILDATE_FUTURE_SKEW)

struct pihttp {
	CURL *curl;
	char *base;		/* the url, ending in '/' */
	int empty;		/* new.atom answered 404 (logged once) */
};

/* One response: its body (capped) and validators. */
struct fetch {
	struct sbuf body;
	char etag[PIHTTP_MAX_VALIDATOR + 1];
	char lastmod[PIHTTP_MAX_VALIDATOR + 1];
	int too_large;
};

struct entry {
	char *mid;
	int64_t updated;
	size_t order;		/* its place in the feed (0: newest) */
};

/* A bounded set of Message-IDs. */
struct midset {
	char **v;
	size_t n;
};

/* The feed position (see the top). */
struct pos {
	int64_t t;
	struct midset at;	/* read at time t */
	struct midset skipped;	/* in the feed, not stored: gone or too large */
	char etag[PIHTTP_MAX_VALIDATOR + 1];
	char lastmod[PIHTTP_MAX_VALIDATOR + 1];
	int64_t floor;		/* mail dated before it is not read (0: none) */
};

/* ---- the position -------------------------------------------------------- */

static void midset_clear(struct midset *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

static void pos_release(struct pos *p)
{
	midset_clear(&p->at);
	midset_clear(&p->skipped);
	memset(p, 0, sizeof(*p));
}

static int midset_has(const struct midset *m, const char *mid)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->v[i], mid))
			return 1;
	return 0;
}

static int midset_add(struct midset *m, const char *mid)
{
	char **v;

	if (midset_has(m, mid) || m->n >= PIHTTP_CP_MAX_MIDS)
		return 0;	/* past the cap the store's lookup still dedupes */
	v = realloc(m->v, (m->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	m->v = v;
	m->v[m->n] = strdup(mid);
	if (!m->v[m->n])
		return -1;
	m->n++;
	return 0;
}

/* A validator or Message-ID is kept only when it is printable ASCII. */
static int printable(const char *s, size_t max)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (i >= max || s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

static void copy_validator(char *dst, const char *s, size_t n)
{
	if (n > PIHTTP_MAX_VALIDATOR)
		n = 0;
	memcpy(dst, s, n);
	dst[n] = '\0';
	if (!printable(dst, PIHTTP_MAX_VALIDATOR))
		dst[0] = '\0';
}

/* Unknown lines are ignored: an unreadable checkpoint reads the feed again
 * (the store recognises what it has). */
static int pos_parse(struct pos *p, const char *cp)
{
	const char *nl;
	char *end;
	size_t n;
	long long t;

	memset(p, 0, sizeof(*p));
	while (cp && *cp) {
		nl = strchr(cp, '\n');
		n = nl ? (size_t)(nl - cp) : strlen(cp);
		if (n > 2 && !strncmp(cp, "t=", 2)) {
			t = strtoll(cp + 2, &end, 10);
			if (end == cp + n && t >= 0)
				p->t = t;
		} else if (n > 2 && n - 2 <= PIHTTP_MAX_MID &&
			   (!strncmp(cp, "m=", 2) || !strncmp(cp, "x=", 2))) {
			char mid[PIHTTP_MAX_MID + 1];

			memcpy(mid, cp + 2, n - 2);
			mid[n - 2] = '\0';
			if (midset_add(cp[0] == 'm' ? &p->at : &p->skipped, mid))
				return -1;
		} else if (n > 5 && !strncmp(cp, "etag=", 5)) {
			copy_validator(p->etag, cp + 5, n - 5);
		} else if (n > 3 && !strncmp(cp, "lm=", 3)) {
			copy_validator(p->lastmod, cp + 3, n - 3);
		} else if (n > 2 && !strncmp(cp, "f=", 2)) {
			t = strtoll(cp + 2, &end, 10);
			if (end == cp + n && t > 0)
				p->floor = t;
		}
		cp = nl ? nl + 1 : NULL;
	}
	return 0;
}

static char *pos_format(const struct pos *p, int validators)
{
	struct sbuf sb;
	size_t i;

	sbuf_init(&sb, (2 * PIHTTP_CP_MAX_MIDS + 4) * (PIHTTP_MAX_MID + 8));
	sbuf_addf(&sb, "t=%" PRId64 "\n", p->t);
	for (i = 0; i < p->at.n; i++)
		sbuf_addf(&sb, "m=%s\n", p->at.v[i]);
	for (i = 0; i < p->skipped.n; i++)
		sbuf_addf(&sb, "x=%s\n", p->skipped.v[i]);
	if (validators && p->etag[0])
		sbuf_addf(&sb, "etag=%s\n", p->etag);
	if (validators && p->lastmod[0])
		sbuf_addf(&sb, "lm=%s\n", p->lastmod);
	if (p->floor)
		sbuf_addf(&sb, "f=%" PRId64 "\n", p->floor);
	if (sb.err) {
		sbuf_release(&sb);
		return NULL;
	}
	return sbuf_detach(&sb, NULL);
}

/* ---- HTTP ---------------------------------------------------------------- */

static size_t on_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct fetch *f = arg;
	size_t n = size * nmemb;

	if (sbuf_add(&f->body, data, n)) {
		f->too_large = f->body.err == SBUF_ERR_CAP;
		return 0;	/* aborts the transfer */
	}
	return n;
}

static int header_is(const char *line, size_t n, const char *name, const char **val,
		     size_t *vlen)
{
	size_t k = strlen(name);

	if (n <= k || strncasecmp(line, name, k) || line[k] != ':')
		return 0;
	line += k + 1;
	n -= k + 1;
	while (n && (*line == ' ' || *line == '\t'))
		line++, n--;
	while (n && (line[n - 1] == '\r' || line[n - 1] == '\n' || line[n - 1] == ' '))
		n--;
	*val = line;
	*vlen = n;
	return 1;
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *arg)
{
	struct fetch *f = arg;
	size_t n = size * nmemb;
	const char *v;
	size_t vn;

	/* a new response (after a redirect) starts over */
	if (n >= 5 && !strncmp(data, "HTTP/", 5)) {
		f->etag[0] = f->lastmod[0] = '\0';
	} else if (header_is(data, n, "ETag", &v, &vn)) {
		copy_validator(f->etag, v, vn);
	} else if (header_is(data, n, "Last-Modified", &v, &vn)) {
		copy_validator(f->lastmod, v, vn);
	}
	return n;
}

static int http_setup(struct pihttp *h, const struct config_source *src, char *err,
		      size_t errlen)
{
	CURL *c;

	c = curl_easy_init();
	if (!c) {
		snprintf(err, errlen, "curl: cannot initialise");
		return -1;
	}
	h->curl = c;
	if (curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https") ||
	    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") ||
	    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L) ||
	    curl_easy_setopt(c, CURLOPT_MAXREDIRS, PIHTTP_MAX_REDIRS) ||
	    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, PIHTTP_CONNECT_TIMEOUT) ||
	    curl_easy_setopt(c, CURLOPT_TIMEOUT, PIHTTP_TIMEOUT) ||
	    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L) ||
	    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L) ||
	    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L) ||
	    curl_easy_setopt(c, CURLOPT_USERAGENT, "reviewbot/" REVIEWBOT_VERSION) ||
	    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "") ||
	    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body) ||
	    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header) ||
	    (src->ca_file && curl_easy_setopt(c, CURLOPT_CAINFO, src->ca_file))) {
		snprintf(err, errlen, "curl: an option is not supported by this libcurl");
		return -1;
	}
	return 0;
}

/*
 * GETs url into f (capped at max).  Returns the HTTP status, 0 when the
 * body passed max (f->too_large), or -1 with err.
 */
static int http_get(struct pihttp *h, const char *url, size_t max, const struct pos *cond,
		    struct fetch *f, char *err, size_t errlen)
{
	struct curl_slist *hdrs = NULL, *l;
	char line[PIHTTP_MAX_VALIDATOR + 32];
	long status = 0;
	CURLcode rc;
	int ret = -1;

	sbuf_init(&f->body, max);
	f->etag[0] = f->lastmod[0] = '\0';
	f->too_large = 0;
	if (cond && cond->etag[0]) {
		snprintf(line, sizeof(line), "If-None-Match: %s", cond->etag);
		l = curl_slist_append(hdrs, line);
		if (!l)
			goto nomem;
		hdrs = l;
	}
	if (cond && cond->lastmod[0]) {
		snprintf(line, sizeof(line), "If-Modified-Since: %s", cond->lastmod);
		l = curl_slist_append(hdrs, line);
		if (!l)
			goto nomem;
		hdrs = l;
	}
	curl_easy_setopt(h->curl, CURLOPT_URL, url);
	curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(h->curl, CURLOPT_HEADERDATA, f);
	rc = curl_easy_perform(h->curl);
	curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, NULL);
	if (rc == CURLE_WRITE_ERROR && f->too_large) {
		ret = 0;
		goto out;
	}
	if (rc != CURLE_OK) {
		snprintf(err, errlen, "%s", curl_easy_strerror(rc));
		goto out;
	}
	if (f->body.err) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &status);
	ret = status > 0 && status < 1000 ? (int)status : -1;
	if (ret < 0)
		snprintf(err, errlen, "no HTTP status");
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	curl_slist_free_all(hdrs);
	return ret;
}

static void pihttp_close(struct source_session *s);

/* ---- the feed ------------------------------------------------------------ */

static const char *find_in(const char *p, const char *end, const char *needle)
{
	return memmem(p, (size_t)(end - p), needle, strlen(needle));
}

/* "YYYY-MM-DDTHH:MM:SSZ" (what public-inbox writes; offsets honoured) */
static int parse_time(const char *s, size_t n, int64_t *out)
{
	char buf[40], *end;
	struct tm tm;
	time_t t;
	long off = 0;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	memset(&tm, 0, sizeof(tm));
	end = strptime(buf, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return -1;
	if (*end == '.')	/* fractions of a second */
		while (isdigit((unsigned char)*++end))
			;
	if ((end[0] == '+' || end[0] == '-') && isdigit((unsigned char)end[1]) &&
	    isdigit((unsigned char)end[2]) && end[3] == ':' &&
	    isdigit((unsigned char)end[4]) && isdigit((unsigned char)end[5]) && !end[6]) {
		off = ((end[1] - '0') * 10 + (end[2] - '0')) * 3600L +
		      ((end[4] - '0') * 10 + (end[5] - '0')) * 60L;
		if (end[0] == '-')
			off = -off;
	} else if (strcmp(end, "Z")) {
		return -1;
	}
	t = timegm(&tm);
	if (t == (time_t)-1)
		return -1;
	*out = (int64_t)t - off;
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* XML character references (only those a feed uses in a url) */
static size_t xml_unescape(const char *s, size_t n, char *out)
{
	static const struct { const char *ent; char c; } ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&apos;", '\'' }, { "&#39;", '\'' },
		{ "&#34;", '"' }, { "&#38;", '&' },
	};
	size_t i = 0, o = 0, k, el;

	while (i < n) {
		if (s[i] == '&') {
			for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
				el = strlen(ents[k].ent);
				if (n - i >= el && !memcmp(s + i, ents[k].ent, el))
					break;
			}
			if (k < sizeof(ents) / sizeof(ents[0])) {
				out[o++] = ents[k].c;
				i += strlen(ents[k].ent);
				continue;
			}
		}
		out[o++] = s[i++];
	}
	out[o] = '\0';
	return o;
}

/*
 * The Message-ID from an entry's link ".../<escaped Message-ID>/":
 * the last path segment, percent-decoded.  NULL when it is not one.
 */
static char *mid_from_href(const char *href, size_t n)
{
	char *raw, *mid = NULL;
	size_t len, i, o, start;
	int hi, lo;

	if (n > PIHTTP_MAX_URL)
		return NULL;
	raw = malloc(n + 1);
	if (!raw)
		return NULL;
	len = xml_unescape(href, n, raw);
	if (len < 2 || raw[len - 1] != '/')
		goto out;
	len--;
	start = len;
	while (start && raw[start - 1] != '/')
		start--;
	if (start == len || len - start > 3 * PIHTTP_MAX_MID)
		goto out;
	mid = malloc(len - start + 1);
	if (!mid)
		goto out;
	for (i = start, o = 0; i < len; i++) {
		if (raw[i] == '%' && i + 2 < len &&
		    (hi = hexval((unsigned char)raw[i + 1])) >= 0 &&
		    (lo = hexval((unsigned char)raw[i + 2])) >= 0) {
			mid[o++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			mid[o++] = raw[i];
		}
	}
	mid[o] = '\0';
	/* hostile: no control bytes, no brackets, bounded */
	if (!o || o > PIHTTP_MAX_MID || memchr(mid, '\0', o) != NULL ||
	    !printable(mid, PIHTTP_MAX_MID) || strpbrk(mid, "<> ")) {
		free(mid);
		mid = NULL;
	}
out:
	free(raw);
	return mid;
}

/* The href of the first <link .../> of an entry. */
static int entry_link(const char *p, const char *end, const char **href, size_t *n)
{
	const char *q, *close;

	for (q = p; (q = find_in(q, end, "<link")) != NULL; q += 5) {
		if (q + 5 >= end || !isspace((unsigned char)q[5]))
			continue;
		close = memchr(q, '>', (size_t)(end - q));
		if (!close)
			return -1;
		q = find_in(q, close, "href=\"");
		if (!q)
			return -1;
		q += 6;
		*href = q;
		q = memchr(q, '"', (size_t)(close - q));
		if (!q)
			return -1;
		*n = (size_t)(q - *href);
		return 0;
	}
	return -1;
}

static void entries_free(struct entry *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(e[i].mid);
	free(e);
}

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->updated != y->updated)
		return x->updated < y->updated ? -1 : 1;
	/* the feed lists newer first: a later place is older */
	return x->order > y->order ? -1 : x->order < y->order;
}

/*
 * The feed's entries, oldest first.  Entries without a usable link or
 * time are left out (logged).  0, or -1 when out of memory.
 */
static int feed_parse(const struct config_source *src, const char *buf, size_t len,
		      struct entry **out, size_t *nout)
{
	const char *p = buf, *end = buf + len, *e, *u, *ue, *href;
	struct entry *v = NULL, *nv;
	size_t n = 0, alloc = 0, hn;
	int64_t t;
	char *mid;

	while (n < PIHTTP_MAX_ENTRIES && (p = find_in(p, end, "<entry")) != NULL) {
		e = find_in(p, end, "</entry>");
		if (!e)
			break;
		u = find_in(p, e, "<updated>");
		ue = u ? find_in(u, e, "</updated>") : NULL;
		mid = NULL;
		if (u && ue && !parse_time(u + 9, (size_t)(ue - u - 9), &t) &&
		    !entry_link(p, e, &href, &hn))
			mid = mid_from_href(href, hn);
		if (!mid) {
			log_event(LOG_WARN, "feed-entry-skipped", "source", src->name,
				  "reason", "no usable link or time", NULL);
			p = e + 8;
			continue;
		}
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 32;
			nv = realloc(v, alloc * sizeof(*v));
			if (!nv) {
				free(mid);
				goto nomem;
			}
			v = nv;
		}
		v[n].mid = mid;
		v[n].updated = t;
		v[n].order = n;
		n++;
		p = e + 8;
	}
	if (n)
		qsort(v, n, sizeof(*v), entry_cmp);
	*out = v;
	*nout = n;
	return 0;
nomem:
	entries_free(v, n);
	return -1;
}

/* ---- messages ------------------------------------------------------------ */

/* public-inbox's escaping of a Message-ID in a url (PublicInbox::MID) */
static void mid_escape(struct sbuf *sb, const char *mid)
{
	static const char ok[] = "-._~!$&'()*+,;=:@";
	const unsigned char *s;

	for (s = (const unsigned char *)mid; *s; s++) {
		if (isalnum(*s) || strchr(ok, *s))
			sbuf_addch(sb, *s);
		else
			sbuf_addf(sb, "%%%02X", *s);
	}
}


/*
 * Fetches one message into the batch.  0 when added, 1 when skipped with
 * a log line (gone or too large), or -1 with err.
 */
static int fetch_message(struct source_session *s, struct source_batch *b,
			 const char *mid, char *err, size_t errlen)
{
	struct pihttp *h = s->priv;
	struct fetch f;
	struct sbuf url;
	char *raw, *nl;
	size_t len;
	int status, ret = -1;

	memset(&f, 0, sizeof(f));
	sbuf_init(&url, PIHTTP_MAX_URL);
	sbuf_addstr(&url, h->base);
	mid_escape(&url, mid);
	sbuf_addstr(&url, "/raw");
	if (url.err) {
		log_event(LOG_WARN, "message-skipped", "source", s->src->name,
			  "message_id", mid, "reason", "url too long", NULL);
		ret = 1;
		goto out;
	}
	status = http_get(h, url.buf, MAILBOX_MAX_MESSAGE, NULL, &f, err, errlen);
	if (status < 0)
		goto out;
	if (status == 0) {
		log_event(LOG_WARN, "message-too-large", "source", s->src->name,
			  "message_id", mid, NULL);
		ret = 1;
		goto out;
	}
	if (status == 404 || status == 410) {
		log_event(LOG_WARN, "message-gone", "source", s->src->name,
			  "message_id", mid, NULL);
		ret = 1;
		goto out;
	}
	if (status != 200) {
		snprintf(err, errlen, "%s: HTTP status %d", url.buf, status);
		goto out;
	}
	raw = f.body.buf;
	len = f.body.len;
	/* mboxrd: the "From " line goes, ">From " lines lose one '>' */
	if (len >= 5 && !memcmp(raw, "From ", 5)) {
		nl = memchr(raw, '\n', len);
		if (!nl) {
			ret = 1;
			goto out;
		}
		len -= (size_t)(nl + 1 - raw);
		raw = nl + 1;
		len = mbox_unescape(raw, len, MBOX_RD);
	}
	ret = source_batch_add(b, raw, len);
	if (ret < 0) {
		snprintf(err, errlen, "database: %s", store_strerror(ret));
		ret = -1;
		goto out;
	}
	/* older than the floor: not stored, and not fetched again */
	ret = ret == SOURCE_OLDER ? 1 : 0;
out:
	sbuf_release(&f.body);
	sbuf_release(&url);
	return ret;
}

static int flush(struct source_batch *b, const struct pos *p, int validators,
		 char *err, size_t errlen)
{
	char *cp = pos_format(p, validators);
	int ret;

	if (!cp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ret = source_batch_flush(b, cp);
	free(cp);
	if (ret < 0) {
		snprintf(err, errlen, "database: %s", store_strerror(ret));
		return -1;
	}
	return 0;
}

/* Whether the position is past e (by time, or read at the same time). */
static int pos_past(const struct pos *p, const struct entry *e)
{
	return e->updated < p->t || (e->updated == p->t && midset_has(&p->at, e->mid));
}

/* Moves the position past e. */
static int pos_advance(struct pos *p, const struct entry *e)
{
	if (e->updated < p->t)
		return 0;	/* older than the position: already past it */
	if (e->updated > p->t) {
		midset_clear(&p->at);
		p->t = e->updated;
	}
	return midset_add(&p->at, e->mid);
}

static int pihttp_open(struct source_session *s, char *err, size_t errlen);

/* "YYYY-MM-DD hh:mm:ss UTC" of t, for the log. */
static void utc(int64_t t, char *out, size_t outlen)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(out, outlen, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(out, outlen, "%" PRId64, t);
}

/*
 * Reads the entries ent[0, n) (oldest first): each one not in the store
 * (nor skipped before) is fetched, and the position moves past it; the
 * batch is flushed as it fills.  0, or -1 with err (what was read before
 * the failure is kept, with the position before it).
 */
static int read_entries(struct source_session *s, struct source_batch *b,
			const struct entry *ent, size_t n, struct pos *cur, size_t *nnew,
			char *err, size_t errlen)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		const struct entry *e = &ent[i];

		/*
		 * Entries behind the position were read, unless one came
		 * late with an older time (its Received:/Date: is what the
		 * feed shows): the store says.
		 */
		if (midset_has(&cur->skipped, e->mid) ||
		    source_has_archive_copy(s->st, s->src, e->mid) ||
		    (cur->floor && e->updated < cur->floor - PIHTTP_FLOOR_MARGIN))
			;
		else if ((ret = fetch_message(s, b, e->mid, err, errlen)) < 0)
			goto fail;
		else if (ret == 1 && midset_add(&cur->skipped, e->mid))
			goto nomem;
		else if (ret == 0)
			(*nnew)++;
		if (pos_advance(cur, e))
			goto nomem;
		if (source_batch_full(b) && flush(b, cur, 0, err, errlen))
			return -1;	/* rolled back: the position stays */
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	{
		char e2[128];

		/* keep what was read, with the position before the failure */
		flush(b, cur, 0, e2, sizeof(e2));
	}
	return -1;
}

/* GETs new.atom (?t=SINCE- when since >= 0) and parses it. */
static int get_feed(struct source_session *s, int64_t since, const struct pos *cond,
		    struct fetch *f, struct entry **ent, size_t *n, char *err, size_t errlen)
{
	struct pihttp *h = s->priv;
	struct sbuf url;
	int status;

	*ent = NULL;
	*n = 0;
	sbuf_init(&url, PIHTTP_MAX_URL);
	sbuf_addstr(&url, h->base);
	sbuf_addstr(&url, "new.atom");
	if (since >= 0) {
		time_t t = (time_t)since;
		struct tm tm;
		char ts[32];

		if (!gmtime_r(&t, &tm) || !strftime(ts, sizeof(ts), "%Y%m%d%H%M%S", &tm)) {
			snprintf(err, errlen, "time %" PRId64 " out of range", since);
			sbuf_release(&url);
			return -1;
		}
		sbuf_addf(&url, "?t=%s-", ts);
	}
	if (url.err) {
		snprintf(err, errlen, "url too long");
		sbuf_release(&url);
		return -1;
	}
	status = http_get(h, url.buf, PIHTTP_FEED_MAX, cond, f, err, errlen);
	if (status == 0) {
		snprintf(err, errlen, "%s: over %u bytes", url.buf, PIHTTP_FEED_MAX);
		status = -1;
	} else if (status > 0 && status != 200 && status != 304 && status != 404) {
		snprintf(err, errlen, "%s: HTTP status %d", url.buf, status);
		status = -1;
	} else if (status == 200 && feed_parse(s->src, f->body.buf, f->body.len, ent, n)) {
		snprintf(err, errlen, "out of memory");
		status = -1;
	}
	sbuf_release(&url);
	return status;
}

static int has_mid(const struct entry *ent, size_t n, const char *mid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(ent[i].mid, mid))
			return 1;
	return 0;
}

/*
 * More new mail than the feed's first page first[0, nfirst) holds (or a
 * first start, start): the pages after the position old, oldest first,
 * up to the first page.
 */
static int read_pages(struct source_session *s, struct source_batch *b,
		      const struct pos *old, const struct entry *first, size_t nfirst,
		      int start, struct pos *cur, size_t *nnew, char *err, size_t errlen)
{
	int64_t since = old->t, oldest = first[0].updated;
	int connected = 0, ignored = 0, done = 0, ret = 0, status;
	size_t page, i, n;
	struct entry *ent;
	struct fetch f;
	char from[40], to[40], np[24];

	for (page = 0; !done && page < PIHTTP_MAX_PAGES; page++) {
		memset(&f, 0, sizeof(f));
		status = get_feed(s, since, NULL, &f, &ent, &n, err, errlen);
		sbuf_release(&f.body);
		if (status != 200) {
			if (status > 0)
				snprintf(err, errlen, "new.atom?t=: HTTP status %d", status);
			return -1;
		}
		for (i = 0; i < n; i++) {
			if (pos_past(old, &ent[i]))
				connected = 1;
			/* the first page's range is reached: it reads the rest */
			if (ent[i].updated >= oldest || has_mid(first, nfirst, ent[i].mid))
				done = 1;
		}
		if (!page && !connected) {
			/* ?t= not honoured: the feed's first page again (a
			 * server that honours it lists the entries read at
			 * the position's time first) */
			for (i = 0; i < n && has_mid(first, nfirst, ent[i].mid); i++)
				;
			if (i == n && n == nfirst) {
				ignored = 1;
				entries_free(ent, n);
				break;
			}
		}
		ret = read_entries(s, b, ent, n, cur, nnew, err, errlen);
		entries_free(ent, n);
		if (ret)
			return -1;
		if (flush(b, cur, 0, err, errlen))
			return -1;
		if (!n)
			break;
		if (cur->t > since) {
			since = cur->t;
		} else if (!done) {
			/* a page of entries all in one second: past it */
			utc(since, from, sizeof(from));
			log_event(LOG_ERR, "feed-gap", "source", s->src->name, "from", from,
				  "to", from, "reason",
				  "more messages in one second than a feed page holds: some may be missing",
				  NULL);
			since++;
		}
	}
	utc(old->t, from, sizeof(from));
	utc(oldest, to, sizeof(to));
	snprintf(np, sizeof(np), "%zu", page);
	if (ignored && start)
		/* public-inbox answers ?t= with the first page when fewer
		 * entries than a page follow the time: an archive that small
		 * looks the same as a server that does not page */
		log_event(LOG_INFO, "feed-first-page", "source", s->src->name, "from", from,
			  "reason", "the feed's first page holds everything since the floor, "
			  "or the server does not page (?t=)", NULL);
	else if (ignored)
		log_event(LOG_ERR, "feed-gap", "source", s->src->name, "from", from, "to", to,
			  "reason",
			  "more new mail than the feed holds and the feed cannot be paged (?t=): messages between these times may be missing",
			  NULL);
	else if (!done)
		log_event(LOG_WARN, "feed-paged", "source", s->src->name, "pages", np,
			  "reason", "page limit reached: the rest is read at the next poll",
			  NULL);
	else
		log_event(LOG_INFO, "feed-paged", "source", s->src->name, "pages", np,
			  "from", from, "to", to, NULL);
	return 0;
}

static int pihttp_poll(struct source_session *s, struct source_batch *b, char *err,
		       size_t errlen)
{
	struct pihttp *h = s->priv;
	struct entry *ent = NULL;
	struct pos old, cur;
	struct fetch f;
	char *cpstr = NULL, nbuf[32];
	size_t n = 0, i, nnew = 0;
	int ret = -1, status, known = 0, first;

	memset(&old, 0, sizeof(old));
	memset(&cur, 0, sizeof(cur));
	memset(&f, 0, sizeof(f));
	if (!h) {
		if (pihttp_open(s, err, errlen))
			goto out;
		h = s->priv;
	}
	ret = source_batch_checkpoint(b, &cpstr);
	if (ret < 0) {
		snprintf(err, errlen, "database: %s", store_strerror(ret));
		ret = -1;
		goto out;
	}
	ret = -1;
	if (pos_parse(&old, cpstr) || pos_parse(&cur, cpstr)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/*
	 * A first start, or a --since backfill: the feed is paged from the
	 * floor (less the margin), or from the archive's start without one;
	 * the floor is kept (see the top).
	 */
	first = !cpstr || s->rewind;
	if (s->floor)
		old.floor = cur.floor = s->floor;
	if (first) {
		int64_t t = old.floor > PIHTTP_FLOOR_MARGIN ? old.floor - PIHTTP_FLOOR_MARGIN : 0;

		midset_clear(&old.at);
		midset_clear(&cur.at);
		/* what an earlier floor left out may be read now */
		midset_clear(&old.skipped);
		old.t = cur.t = t;
		/* (a 304 would hide what lies behind the old position) */
		old.etag[0] = old.lastmod[0] = '\0';
	}
	source_batch_set_floor(b, cur.floor);
	status = get_feed(s, -1, &old, &f, &ent, &n, err, errlen);
	if (status < 0)
		goto out;
	if (status == 304) {
		log_event(LOG_DEBUG, "feed-unchanged", "source", s->src->name, NULL);
		ret = 0;
		goto out;
	}
	if (status == 404) {
		/* public-inbox has no feed for an inbox without mail (or the
		 * url names no inbox): said once, then quiet until it changes */
		log_event(h->empty ? LOG_DEBUG : LOG_WARN, "feed-empty", "source",
			  s->src->name, "reason",
			  "new.atom: HTTP status 404 (an inbox without mail yet, or a wrong url)",
			  NULL);
		h->empty = 1;
		ret = 0;
		goto out;
	}
	h->empty = 0;
	memcpy(cur.etag, f.etag, sizeof(cur.etag));
	memcpy(cur.lastmod, f.lastmod, sizeof(cur.lastmod));
	/* skipped messages are remembered while the feed still lists them */
	midset_clear(&cur.skipped);
	for (i = 0; i < n; i++)
		if (midset_has(&old.skipped, ent[i].mid) &&
		    midset_add(&cur.skipped, ent[i].mid))
			goto nomem;
	for (i = 0; i < n; i++)
		if (pos_past(&old, &ent[i]))
			known++;
	/* more new mail than the feed shows (or a first start): the pages
	 * between first */
	if ((cpstr || first) && n && !known &&
	    read_pages(s, b, &old, ent, n, first, &cur, &nnew, err, errlen))
		goto out;
	if (read_entries(s, b, ent, n, &cur, &nnew, err, errlen))
		goto out;
	/* the whole feed is read: now a 304 means nothing new */
	if (flush(b, &cur, 1, err, errlen))
		goto out;
	snprintf(nbuf, sizeof(nbuf), "%zu", nnew);
	log_event(LOG_DEBUG, "feed-read", "source", s->src->name, "fetched", nbuf, NULL);
	ret = 0;
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	source_batch_abort(b);
	entries_free(ent, n);
	pos_release(&old);
	pos_release(&cur);
	sbuf_release(&f.body);
	free(cpstr);
	return ret;
}

static void pihttp_close(struct source_session *s)
{
	struct pihttp *h = s->priv;

	if (!h)
		return;
	if (h->curl)
		curl_easy_cleanup(h->curl);
	free(h->base);
	free(h);
	s->priv = NULL;
}

static const struct source_ops pihttp_ops = {
	.name = "public-inbox-http",
	.poll = pihttp_poll,
	.idle = NULL,
	.close = pihttp_close,
};

static int pihttp_open(struct source_session *s, char *err, size_t errlen)
{
	const char *url = s->src->url;
	struct pihttp *h;
	size_t n = strlen(url);

	h = calloc(1, sizeof(*h));
	if (!h || !(h->base = malloc(n + 2))) {
		free(h);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(h->base, url, n);
	/* <url>new.atom and <url><Message-ID>/raw need the slash */
	if (n && url[n - 1] != '/')
		h->base[n++] = '/';
	h->base[n] = '\0';
	s->priv = h;
	if (http_setup(h, s->src, err, errlen)) {
		pihttp_close(s);
		return -1;
	}
	return 0;
}

/* Checks the url; the connection opens on the first poll (and again
 * after a failure closed it). */
int src_pihttp_init(struct source_session *s, char *err, size_t errlen)
{
	const char *url = s->src->url;

	if (!url || (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))) {
		snprintf(err, errlen, "source \"%s\": url must be http:// or https://",
			 s->src->name);
		return -1;
	}
	if (strlen(url) > PIHTTP_MAX_URL - 2 * PIHTTP_MAX_MID) {
		snprintf(err, errlen, "source \"%s\": url too long", s->src->name);
		return -1;
	}
	s->ops = &pihttp_ops;
	s->priv = NULL;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * NNTP sources (type nntp, and public-inbox with an nntp(s):// url), with
 * libetpan: nntp[s]://[user@]host[:port]/GROUP (RFC 3977).
 *
 * The checkpoint is "GROUP:LAST", the last article number read.  The
 * first run reads from the group's first article; a group whose last
 * number is below the checkpoint was renumbered and is read again from
 * its start (what the store holds is recognised by Message-ID).  The
 * overview (XOVER, RFC 2980 2.8) comes first, in ranges of
 * NNTP_RANGE articles: it gives each article's size (an article over
 * MAILBOX_MAX_MESSAGE is skipped with a log line, as libetpan would read
 * it whole) and its Message-ID (one the store holds is not fetched).
 *
 * The first start (source.h) reads from the first article at the floor:
 * found by bisection over article numbers with the overview's dates
 * (articles are numbered as they arrive, and their Date:s follow, but
 * not strictly: each probe takes the median of NNTP_PROBE articles, and
 * reading starts NNTP_FLOOR_MARGIN before the floor); an article whose
 * overview date is before the floor is not fetched (the date a mail is
 * taken to have is never after its Date:), and the floor decides on
 * each one fetched.
 *
 * libetpan's NNTP has no STARTTLS: starttls = true is refused for
 * nntp:// (use nntps://, port 563).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libetpan/libetpan.h>

#include "source.h"
#include "../secret.h"
#include "../log.h"
#include "../mail/mailbox.h"
#include "../mail/mime.h"
#include "../../store/store.h"
#include "../../checker/banned.h"

#define NNTP_RANGE		1000	/* articles per overview request */
#define NNTP_TIMEOUT		60	/* seconds, network */
#define NNTP_MAX_HOST		255
#define NNTP_MAX_GROUP		255
#define NNTP_MAX_USER		255
#define NNTP_PROBE		15	/* articles whose median date a probe takes */
#define NNTP_FLOOR_MARGIN	(7 * 86400)	/* dates out of order by up to a week */

struct nntp_url {
	int tls;
	char user[NNTP_MAX_USER + 1];
	char host[NNTP_MAX_HOST + 1];
	uint16_t port;
	char group[NNTP_MAX_GROUP + 1];
};

struct nntp {
	newsnntp *sess;
	struct nntp_url u;
};

static int copy_part(char *dst, size_t max, const char *s, size_t n)
{
	if (!n || n > max)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

static int url_parse(const char *url, struct nntp_url *u)
{
	const char *p, *at, *slash, *colon, *end;
	char *e;
	long port;

	memset(u, 0, sizeof(*u));
	if (!strncmp(url, "nntp://", 7)) {
		p = url + 7;
	} else if (!strncmp(url, "nntps://", 8)) {
		p = url + 8;
		u->tls = 1;
	} else {
		return -1;
	}
	u->port = u->tls ? 563 : 119;
	slash = strchr(p, '/');
	if (!slash)
		return -1;
	at = memchr(p, '@', (size_t)(slash - p));
	if (at) {
		if (copy_part(u->user, NNTP_MAX_USER, p, (size_t)(at - p)))
			return -1;
		p = at + 1;
	}
	end = slash;
	colon = memchr(p, ':', (size_t)(slash - p));
	if (colon) {
		errno = 0;
		port = strtol(colon + 1, &e, 10);
		if (e != slash || errno || port < 1 || port > 65535)
			return -1;
		u->port = (uint16_t)port;
		end = colon;
	}
	if (copy_part(u->host, NNTP_MAX_HOST, p, (size_t)(end - p)))
		return -1;
	if (copy_part(u->group, NNTP_MAX_GROUP, slash + 1, strlen(slash + 1)) ||
	    strpbrk(u->group, " \t\r\n/"))
		return -1;
	return 0;
}

static void nntp_close(struct source_session *s)
{
	struct nntp *n = s->priv;

	if (!n)
		return;
	if (n->sess)
		newsnntp_free(n->sess);
	free(n);
	s->priv = NULL;
}

static int nntp_connect(struct source_session *s, struct nntp *n, char *err, size_t errlen)
{
	char pw[SECRET_MAX_PASSWORD], perr[256];
	int r, ret = -1;

	pw[0] = '\0';
	n->sess = newsnntp_new(0, NULL);
	if (!n->sess) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	newsnntp_set_timeout(n->sess, NNTP_TIMEOUT);
	if (n->u.tls)
		r = newsnntp_ssl_connect(n->sess, n->u.host, n->u.port);
	else
		r = newsnntp_socket_connect(n->sess, n->u.host, n->u.port);
	if (r != NEWSNNTP_NO_ERROR) {
		snprintf(err, errlen, "%s:%u: cannot connect (libetpan %d)", n->u.host,
			 (unsigned)n->u.port, r);
		goto out;
	}
	if (n->u.user[0]) {
		r = secret_password(s->src->password_file, s->src->password_env, pw,
				    sizeof(pw), perr, sizeof(perr));
		if (r < 0) {
			snprintf(err, errlen, "%s", perr);
			goto out;
		}
		if (r == 1) {
			snprintf(err, errlen, "a user in the url but no password_file or password_env");
			goto out;
		}
		r = newsnntp_authinfo_username(n->sess, n->u.user);
		if (r == NEWSNNTP_WARNING_REQUEST_AUTHORIZATION_PASSWORD)
			r = newsnntp_authinfo_password(n->sess, pw);
		if (r != NEWSNNTP_NO_ERROR) {
			snprintf(err, errlen, "authentication as %s failed (libetpan %d)",
				 n->u.user, r);
			goto out;
		}
	}
	/* RFC 3977 5.3; servers that are readers already may refuse it */
	newsnntp_mode_reader(n->sess);
	ret = 0;
out:
	explicit_bzero(pw, sizeof(pw));
	if (ret && n->sess) {
		newsnntp_free(n->sess);
		n->sess = NULL;
	}
	return ret;
}


/* "<id>" from the overview, without the brackets (NULL: none). */
static int overview_mid(const char *s, char *out, size_t outlen)
{
	size_t n;

	if (!s || *s != '<')
		return -1;
	n = strcspn(s + 1, ">");
	if (s[1 + n] != '>' || !n || n >= outlen)
		return -1;
	memcpy(out, s + 1, n);
	out[n] = '\0';
	return 0;
}

static int flush_at(struct source_batch *b, const char *group, uint32_t last, char *err,
		    size_t errlen)
{
	char cp[NNTP_MAX_GROUP + 16];
	int ret;

	snprintf(cp, sizeof(cp), "%s:%" PRIu32, group, last);
	ret = source_batch_flush(b, cp);
	if (ret < 0) {
		snprintf(err, errlen, "database: %s", store_strerror(ret));
		return -1;
	}
	return 0;
}

/* The article number after the checkpoint, or 0 when it is another
 * group's or unreadable. */
static uint32_t checkpoint_last(const char *cp, const char *group, int *have)
{
	size_t g = strlen(group);
	unsigned long long v;
	char *e;

	*have = 0;
	if (!cp || strncmp(cp, group, g) || cp[g] != ':')
		return 0;
	errno = 0;
	v = strtoull(cp + g + 1, &e, 10);
	if (*e || errno || v > UINT32_MAX)
		return 0;
	*have = 1;
	return (uint32_t)v;
}

static int read_range(struct source_session *s, struct source_batch *b, uint32_t from,
		      uint32_t to, char *err, size_t errlen)
{
	struct nntp *n = s->priv;
	clist *ov = NULL;
	clistiter *it;
	char mid[1024], num[16], *art;
	size_t len;
	int r, ret = -1;

	r = newsnntp_xover_range(n->sess, from, to, &ov);
	if (r == NEWSNNTP_ERROR_NO_ARTICLE_SELECTED ||
	    r == NEWSNNTP_ERROR_INVALID_ARTICLE_NUMBER ||
	    r == NEWSNNTP_ERROR_ARTICLE_NOT_FOUND)
		return flush_at(b, n->u.group, to, err, errlen);	/* a gap */
	if (r != NEWSNNTP_NO_ERROR) {
		snprintf(err, errlen, "XOVER %" PRIu32 "-%" PRIu32 " failed (libetpan %d)",
			 from, to, r);
		return -1;
	}
	for (it = clist_begin(ov); it; it = clist_next(it)) {
		struct newsnntp_xover_resp_item *o = clist_content(it);

		if (!o || o->ovr_article < from || o->ovr_article > to)
			continue;
		snprintf(num, sizeof(num), "%" PRIu32, o->ovr_article);
		if (o->ovr_size > MAILBOX_MAX_MESSAGE) {
			log_event(LOG_WARN, "message-too-large", "source", s->src->name,
				  "article", num, NULL);
			continue;
		}
		if (!overview_mid(o->ovr_message_id, mid, sizeof(mid)) &&
		    source_has_archive_copy(s->st, s->src, mid))
			continue;
		/* older than the first start's floor by its Date: */
		if (s->floor && o->ovr_date) {
			int64_t d = mime_date(o->ovr_date, strlen(o->ovr_date));

			if (d > 0 && d < s->floor)
				continue;
		}
		art = NULL;
		r = newsnntp_article(n->sess, o->ovr_article, &art, &len);
		if (r == NEWSNNTP_ERROR_ARTICLE_NOT_FOUND ||
		    r == NEWSNNTP_ERROR_INVALID_ARTICLE_NUMBER) {
			log_event(LOG_WARN, "message-gone", "source", s->src->name,
				  "article", num, NULL);
			continue;
		}
		if (r != NEWSNNTP_NO_ERROR) {
			snprintf(err, errlen, "ARTICLE %s failed (libetpan %d)", num, r);
			goto out;
		}
		if (len > MAILBOX_MAX_MESSAGE) {
			log_event(LOG_WARN, "message-too-large", "source", s->src->name,
				  "article", num, NULL);
			newsnntp_article_free(art);
			continue;
		}
		r = source_batch_add(b, art, len);
		newsnntp_article_free(art);
		if (r < 0) {
			snprintf(err, errlen, "database: %s", store_strerror(r));
			goto out;
		}
		if (source_batch_full(b) &&
		    flush_at(b, n->u.group, o->ovr_article, err, errlen))
			goto out;
	}
	ret = flush_at(b, n->u.group, to, err, errlen);
out:
	if (ov)
		newsnntp_xover_resp_list_free(ov);
	return ret;
}

static int nntp_new(struct source_session *s, char *err, size_t errlen);

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * 1 when the articles from number at on are older than the floor less
 * the margin (the median of the dates of up to NNTP_PROBE of them), 0
 * when not or when none is there to say, -1 when the server failed.
 */
static int probe_old(struct nntp *n, uint32_t at, uint32_t high, int64_t floor)
{
	int64_t dates[NNTP_PROBE];
	clist *ov = NULL;
	clistiter *it;
	size_t nd = 0;
	uint32_t to = high - at >= NNTP_PROBE ? at + NNTP_PROBE - 1 : high;
	int r;

	r = newsnntp_xover_range(n->sess, at, to, &ov);
	if (r == NEWSNNTP_ERROR_NO_ARTICLE_SELECTED ||
	    r == NEWSNNTP_ERROR_INVALID_ARTICLE_NUMBER ||
	    r == NEWSNNTP_ERROR_ARTICLE_NOT_FOUND)
		return 0;
	if (r != NEWSNNTP_NO_ERROR)
		return -1;
	for (it = clist_begin(ov); it && nd < NNTP_PROBE; it = clist_next(it)) {
		struct newsnntp_xover_resp_item *o = clist_content(it);
		int64_t d;

		if (o && o->ovr_date && (d = mime_date(o->ovr_date, strlen(o->ovr_date))) > 0)
			dates[nd++] = d;
	}
	newsnntp_xover_resp_list_free(ov);
	if (!nd)
		return 0;
	qsort(dates, nd, sizeof(dates[0]), cmp_i64);
	return dates[nd / 2] < floor - NNTP_FLOOR_MARGIN;
}

/* The first article to read for the floor: first..high+1 (past the end:
 * none), or first when the server fails to say. */
static uint32_t floor_article(struct source_session *s, uint32_t first, uint32_t high)
{
	struct nntp *n = s->priv;
	uint64_t lo = first, hi = (uint64_t)high + 1, mid;
	int r;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		r = probe_old(n, (uint32_t)mid, high, s->floor);
		if (r < 0) {
			log_event(LOG_WARN, "overview-failed", "source", s->src->name, "reason",
				  "XOVER failed: every article is read, the floor decides", NULL);
			return first;
		}
		if (r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

static int nntp_poll(struct source_session *s, struct source_batch *b, char *err,
		     size_t errlen)
{
	struct nntp *n = s->priv;
	struct newsnntp_group_info *gi = NULL;
	char *cp = NULL;
	uint32_t last, from, to, first, high;
	int r, ret = -1, have;

	if (!n) {
		if (nntp_new(s, err, errlen))
			return -1;
		n = s->priv;
	}
	if (!n->sess && nntp_connect(s, n, err, errlen))
		goto out;
	r = newsnntp_group(n->sess, n->u.group, &gi);
	if (r != NEWSNNTP_NO_ERROR || !gi) {
		snprintf(err, errlen, "GROUP %s failed (libetpan %d)", n->u.group, r);
		goto out;
	}
	first = gi->grp_first;
	high = gi->grp_last;
	r = source_batch_checkpoint(b, &cp);
	if (r < 0) {
		snprintf(err, errlen, "database: %s", store_strerror(r));
		goto out;
	}
	last = checkpoint_last(cp, n->u.group, &have);
	if (have && high < last) {
		log_event(LOG_WARN, "group-renumbered", "source", s->src->name,
			  "group", n->u.group, NULL);
		last = 0;
	}
	from = last + 1 > first ? last + 1 : first;
	/* a first start (or a backfill): from the floor on */
	if (s->floor && high && (!have || s->rewind)) {
		from = floor_article(s, first, high);
		if (from > high) {
			/* nothing since the floor: read up to here */
			ret = flush_at(b, n->u.group, high, err, errlen);
			goto out;
		}
	}
	if (!high || high < from) {
		ret = 0;
		goto out;
	}
	while (from <= high) {
		to = high - from >= NNTP_RANGE ? from + NNTP_RANGE - 1 : high;
		if (read_range(s, b, from, to, err, errlen))
			goto out;
		if (to == UINT32_MAX)
			break;
		from = to + 1;
	}
	ret = 0;
out:
	source_batch_abort(b);
	if (gi)
		newsnntp_group_free(gi);
	free(cp);
	if (ret && n->sess) {
		newsnntp_free(n->sess);
		n->sess = NULL;
	}
	return ret;
}

static const struct source_ops nntp_ops = {
	.name = "nntp",
	.poll = nntp_poll,
	.idle = NULL,		/* NNTP has no push: the daemon polls */
	.close = nntp_close,
};

/* The driver's state from the url (again after a failure closed it). */
static int nntp_new(struct source_session *s, char *err, size_t errlen)
{
	struct nntp *n;

	n = calloc(1, sizeof(*n));
	if (!n) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!s->src->url || url_parse(s->src->url, &n->u)) {
		snprintf(err, errlen,
			 "source \"%s\": url must be nntp[s]://[user@]host[:port]/GROUP",
			 s->src->name);
		free(n);
		return -1;
	}
	if (s->src->starttls && !n->u.tls) {
		snprintf(err, errlen,
			 "source \"%s\": starttls is not supported for NNTP (libetpan has no "
			 "STARTTLS for it); use nntps://", s->src->name);
		free(n);
		return -1;
	}
	s->priv = n;
	return 0;
}

int src_nntp_init(struct source_session *s, char *err, size_t errlen)
{
	if (nntp_new(s, err, errlen))
		return -1;
	s->ops = &nntp_ops;
	return 0;
}

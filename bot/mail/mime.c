// SPDX-License-Identifier: GPL-2.0-only
/*
 * mime: one mail parsed with libetpan (RFC 5322 headers, RFC 2045/2046
 * structure, RFC 2047 encoded words) into struct mime_mail.
 *
 * Deviations tolerated or choices made, as a list (mblaze keeps one too):
 *  - a top-level header field that libetpan cannot parse as its type
 *    (e.g. "Message-ID: <a@b> junk") arrives as an optional field and is
 *    read leniently here (first <...> token); a field that still makes
 *    no sense is treated as missing, the mail is not rejected;
 *  - NUL bytes in the top-level header block become spaces before
 *    libetpan sees them (its fields are C strings), MIME_WARN_CTRL;
 *  - raw 8-bit header text is taken as UTF-8 when valid, else Latin-1
 *    (MIME_WARN_CHARSET); an encoded word in a charset iconv does not
 *    know is read as Latin-1 by libetpan (MIME_WARN_CHARSET);
 *  - addresses: only the domain is lowercased (RFC 5321 2.4: the local
 *    part may be case-sensitive); group syntax is flattened;
 *  - dates with two- or three-digit years follow RFC 5322 4.3;
 *  - an mbox "From " line in front of the header is skipped;
 *  - a NUL byte in the body becomes U+FFFD (the body is handed on as a
 *    C string as well), invalid UTF-8 too;
 *  - a text/plain or application/octet-stream part "holds a patch" when
 *    one of its lines starts "diff --git ", "Index: ", or is a "--- "
 *    line followed by a "+++ " line (an attached format-patch file
 *    starts with its mail header, not with the diff).
 *
 * libetpan's mailmime_parse() recurses per multipart level and rescans
 * the rest of the mail at each level, so a hostile mail with thousands
 * of nested multiparts costs quadratic time.  prescan() therefore counts
 * the multipart nesting from the raw text (boundaries on a stack) and
 * refuses a mail over MIME_MAX_DEPTH / the part limit before libetpan
 * runs; the walk over libetpan's tree checks both limits again.
 */
#include "mime.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <libetpan/libetpan.h>
#include <libetpan/charconv.h>

#include "../../checker/sbuf.h"
#include "../../checker/banned.h"

#define MSGID_MAX	995	/* RFC 5322 line length less "Message-ID: <>" */
#define CT_VALUE_MAX	8192	/* bytes of a Content-Type value prescan reads */
#define BOUNDARY_MAX	200	/* RFC 2046 5.1.1 allows 70 */

const char *mime_strerror(int result)
{
	switch (result) {
	case MIME_OK:
		return "no error";
	case MIME_ERR_PARSE:
		return "not a mail message";
	case MIME_ERR_LIMIT:
		return "mail over a size, depth or part limit";
	case MIME_ERR_NOMEM:
		return "out of memory";
	case MIME_ERR_NO_MSGID:
		return "no usable message-id";
	}
	return "unknown error";
}

/* ---- UTF-8 and header text ------------------------------------------ */

/* Length of the valid UTF-8 sequence at s[0, n), or 0 (RFC 3629 4). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return n >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0))
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}

/*
 * How many bytes from s[0, n) on are plain ASCII (and no NUL when
 * nul_bad), eight at a time: the run utf8_seq() would pass one by one.
 */
static size_t ascii_run(const unsigned char *s, size_t n, int nul_bad)
{
	const uint64_t hi = UINT64_C(0x8080808080808080);
	const uint64_t lo = UINT64_C(0x0101010101010101);
	size_t i = 0;
	uint64_t w;

	while (i + 8 <= n) {
		memcpy(&w, s + i, 8);
		if (w & hi)
			break;
		if (nul_bad && ((w - lo) & ~w & hi))
			break;
		i += 8;
	}
	return i;
}

static int utf8_valid(const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0, k;

	while (i < n) {
		i += ascii_run(s + i, n - i, 0);
		if (i >= n)
			break;
		k = utf8_seq(s + i, n - i);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

/* Appends p[0, n) as UTF-8, a bad byte (and NUL when nul_bad) as U+FFFD. */
static void utf8_repair(struct sbuf *out, const char *p, size_t n, int nul_bad)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0, start = 0, k;

	while (i < n) {
		i += ascii_run(s + i, n - i, nul_bad);
		if (i >= n)
			break;
		k = utf8_seq(s + i, n - i);
		if (k && !(nul_bad && s[i] == 0)) {
			i += k;
			continue;
		}
		sbuf_add(out, p + start, i - start);
		sbuf_add(out, "\xef\xbf\xbd", 3);
		i++;
		start = i;
	}
	sbuf_add(out, p + start, n - start);
}

static void latin1_to_utf8(struct sbuf *out, const char *p, size_t n)
{
	size_t i;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)p[i];
		if (c == 0) {
			sbuf_add(out, "\xef\xbf\xbd", 3);	/* NUL: see the list */
		} else if (c < 0x80) {
			sbuf_addch(out, c);
		} else {
			sbuf_addch(out, 0xc0 | (c >> 6));
			sbuf_addch(out, 0x80 | (c & 0x3f));
		}
	}
}

struct ctx {
	struct mime_mail *m;
	struct mime_addr x_original_from;	/* read for relay_author() */
	struct mime_limits lim;
	int err;		/* first enum mime_result error */
	size_t nparts;
	size_t nrcpt;
	int have_text;
	struct sbuf body;
};

static void set_err(struct ctx *c, int err)
{
	if (!c->err)
		c->err = err;
}

static int sbuf_result(const struct sbuf *sb)
{
	if (sb->err == SBUF_ERR_NOMEM)
		return MIME_ERR_NOMEM;
	if (sb->err)
		return MIME_ERR_LIMIT;
	return MIME_OK;
}

/*
 * The one boundary for untrusted header text: C0 controls (but TAB) and
 * DEL become a space, leading and trailing white space goes.  Returns a
 * malloc'd string, or NULL on failure (recorded in c).
 */
static char *hdr_finish(struct ctx *c, struct sbuf *sb)
{
	size_t i, b, e;
	char *s;

	for (i = 0; i < sb->len; i++) {
		unsigned char ch = (unsigned char)sb->buf[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			sb->buf[i] = ' ';
			c->m->warnings |= MIME_WARN_CTRL;
		}
	}
	if (sbuf_result(sb)) {
		set_err(c, sbuf_result(sb));
		return NULL;
	}
	for (e = sb->len; e > 0 && (sb->buf[e - 1] == ' ' ||
				    sb->buf[e - 1] == '\t'); e--)
		;
	for (b = 0; b < e && (sb->buf[b] == ' ' || sb->buf[b] == '\t'); b++)
		;
	s = malloc(e - b + 1);
	if (!s) {
		set_err(c, MIME_ERR_NOMEM);
		return NULL;
	}
	memcpy(s, sb->buf + b, e - b);
	s[e - b] = 0;
	return s;
}

/* Appends p[0, n) unfolded (RFC 5322 2.2.3: CR and LF of a fold go). */
static void unfold(struct sbuf *out, const char *p, size_t n)
{
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		if (p[i] != '\r' && p[i] != '\n')
			continue;
		if (p[i] == '\n' && i + 1 < n && p[i + 1] != ' ' &&
		    p[i + 1] != '\t')
			continue;	/* a bare line break: controls rule */
		if (p[i] == '\r' && !(i + 1 < n && p[i + 1] == '\n'))
			continue;
		sbuf_add(out, p + start, i - start);
		start = i + 1;
	}
	sbuf_add(out, p + start, n - start);
}

/* Header text that needs no RFC 2047 decoding (List-Id, Precedence...). */
static char *hdr_plain(struct ctx *c, const char *p, size_t n)
{
	struct sbuf u, out;
	char *s;

	sbuf_init(&u, MIME_MAX_HEADER);
	sbuf_init(&out, MIME_MAX_HEADER * 2);
	unfold(&u, p, n);
	if (utf8_valid(u.buf, u.len)) {
		sbuf_add(&out, u.buf, u.len);
	} else {
		latin1_to_utf8(&out, u.buf, u.len);
		c->m->warnings |= MIME_WARN_CHARSET;
	}
	s = hdr_finish(c, &out);
	sbuf_release(&u);
	sbuf_release(&out);
	return s;
}

/* Warns when an encoded word names a charset iconv does not know. */
static void check_charsets(struct ctx *c, const char *p, size_t n)
{
	const char *q, *end = p + n, *cs, *ce;
	char name[64];
	iconv_t cd;

	for (q = p; q + 1 < end; q++) {
		if (q[0] != '=' || q[1] != '?')
			continue;
		cs = q + 2;
		for (ce = cs; ce < end && *ce != '?' && *ce != '*' &&
		     ce - cs < (ptrdiff_t)sizeof(name) - 1; ce++)
			;
		if (ce >= end || (*ce != '?' && *ce != '*') || ce == cs)
			continue;
		memcpy(name, cs, (size_t)(ce - cs));
		name[ce - cs] = 0;
		if (!strcasecmp(name, "utf-8") || !strcasecmp(name, "utf8") ||
		    !strcasecmp(name, "us-ascii"))
			continue;
		cd = iconv_open("UTF-8", name);
		if (cd == (iconv_t)-1) {
			c->m->warnings |= MIME_WARN_CHARSET;
			continue;
		}
		iconv_close(cd);
	}
}

/*
 * Decoded header text (RFC 2047), UTF-8, normalised; malloc'd.  When
 * libetpan cannot decode it, the unfolded raw text is used.
 */
static char *hdr_text(struct ctx *c, const char *p, size_t n)
{
	struct sbuf u, out;
	char *dec = NULL, *s;
	size_t idx = 0;
	const char *from;
	int r;

	if (!memmem(p, n, "=?", 2))
		return hdr_plain(c, p, n);
	sbuf_init(&u, MIME_MAX_HEADER);
	sbuf_init(&out, MIME_MAX_HEADER * 2);
	unfold(&u, p, n);
	check_charsets(c, u.buf, u.len);
	from = "utf-8";
	if (!utf8_valid(u.buf, u.len)) {
		from = "iso-8859-1";
		c->m->warnings |= MIME_WARN_CHARSET;
	}
	r = u.err ? MAILIMF_ERROR_MEMORY :
	    mailmime_encoded_phrase_parse(from, u.buf, u.len, &idx, "utf-8",
					  &dec);
	if (r == MAILIMF_NO_ERROR) {
		utf8_repair(&out, dec, strlen(dec), 0);
		free(dec);
	} else if (!strcmp(from, "utf-8")) {
		c->m->warnings |= MIME_WARN_ENCODING;
		sbuf_add(&out, u.buf, u.len);
	} else {
		c->m->warnings |= MIME_WARN_ENCODING;
		latin1_to_utf8(&out, u.buf, u.len);
	}
	s = hdr_finish(c, &out);
	sbuf_release(&u);
	sbuf_release(&out);
	return s;
}

/* ---- Message-IDs ----------------------------------------------------- */

static int msgid_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > MSGID_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch <= 0x20 || ch == 0x7f || ch == '<' || ch == '>')
			return 0;
	}
	return utf8_valid(s, n);
}

static int is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/*
 * Finds the next Message-ID token in p[*pos, n): "<...>" (trimmed), or a
 * bare token up to white space or ','.  Returns 1 with [*b, *e) set, 0 at
 * the end.
 */
static int msgid_next(const char *p, size_t n, size_t *pos, size_t *b,
		      size_t *e)
{
	size_t i = *pos, j;

	while (i < n && (is_ws(p[i]) || p[i] == ','))
		i++;
	if (i >= n)
		return 0;
	if (p[i] == '<') {
		for (j = i + 1; j < n && p[j] != '>' && p[j] != '<'; j++)
			;
		*b = i + 1;
		*e = j;
		*pos = j < n && p[j] == '>' ? j + 1 : j;
	} else {
		for (j = i; j < n && !is_ws(p[j]) && p[j] != '<' &&
		     p[j] != ','; j++)
			;
		*b = i;
		*e = j;
		*pos = j;
	}
	while (*b < *e && is_ws(p[*b]))
		(*b)++;
	while (*e > *b && is_ws(p[*e - 1]))
		(*e)--;
	return 1;
}

static char *dup_range(const char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, p, n);
		s[n] = 0;
	}
	return s;
}

char *mime_msgid(const char *value, size_t len)
{
	size_t pos = 0, b, e;
	const char *lt;

	if (!value)
		return NULL;
	/* "<a@b> junk", 'Your message of "..." <a@b>': the first <...> */
	lt = memchr(value, '<', len);
	if (lt)
		pos = (size_t)(lt - value);
	if (!msgid_next(value, len, &pos, &b, &e) || !msgid_ok(value + b, e - b))
		return NULL;
	return dup_range(value + b, e - b);
}

/*
 * The Message-ID header itself: its <...> token, or the whole trimmed
 * value when there are no <> (libetpan hands the typed value without
 * them); "a b@c" is rejected, not cut to "a".
 */
static char *msgid_header(const char *p, size_t n)
{
	while (n && is_ws(*p)) {
		p++;
		n--;
	}
	while (n && is_ws(p[n - 1]))
		n--;
	if (memchr(p, '<', n))
		return mime_msgid(p, n);
	return msgid_ok(p, n) ? dup_range(p, n) : NULL;
}

/* Stores References: refs[0] and the last max_refs - 1 valid ids. */
static void add_refs(struct ctx *c, const char *const *ids, size_t n)
{
	struct mime_mail *m = c->m;
	size_t nvalid = 0, i, k, skip, max = c->lim.max_refs;

	for (i = 0; i < n; i++)
		nvalid += msgid_ok(ids[i], strlen(ids[i]));
	if (!nvalid)
		return;
	if (nvalid > max)
		m->warnings |= MIME_WARN_REFS;
	m->refs = calloc(nvalid < max ? nvalid : max, sizeof(*m->refs));
	if (!m->refs) {
		set_err(c, MIME_ERR_NOMEM);
		return;
	}
	skip = nvalid > max ? nvalid - max : 0;
	for (i = 0, k = 0; i < n; i++) {
		if (!msgid_ok(ids[i], strlen(ids[i])))
			continue;
		k++;
		if (k > 1 && k - 1 <= skip)
			continue;	/* dropped: keep the root and the tail */
		m->refs[m->nrefs] = dup_range(ids[i], strlen(ids[i]));
		if (!m->refs[m->nrefs]) {
			set_err(c, MIME_ERR_NOMEM);
			return;
		}
		m->nrefs++;
	}
}

/* One more id of a repeated threading header (mime_mail.xrefs). */
static void add_xref(struct ctx *c, const char *id, size_t n)
{
	struct mime_mail *m = c->m;
	char **nx;

	if (!msgid_ok(id, n) || m->nxrefs >= c->lim.max_refs)
		return;
	if (!(m->nxrefs & (m->nxrefs - 1)) || !m->nxrefs) {
		/* 1, 2, 4, 8, ...: grown at each power of two */
		nx = realloc(m->xrefs, (m->nxrefs ? m->nxrefs * 2 : 1) * sizeof(*nx));
		if (!nx) {
			set_err(c, MIME_ERR_NOMEM);
			return;
		}
		m->xrefs = nx;
	}
	m->xrefs[m->nxrefs] = dup_range(id, n);
	if (!m->xrefs[m->nxrefs]) {
		set_err(c, MIME_ERR_NOMEM);
		return;
	}
	m->nxrefs++;
}

static void xrefs_from_clist(struct ctx *c, clist *l, int skip_first)
{
	clistiter *it;

	for (it = l ? clist_begin(l) : NULL; it; it = clist_next(it)) {
		const char *id = clist_content(it);

		if (skip_first) {
			skip_first = 0;
			continue;
		}
		if (id)
			add_xref(c, id, strlen(id));
	}
}

static void xrefs_from_text(struct ctx *c, const char *p, size_t len, int skip_first)
{
	size_t pos = 0, b, e;

	while (msgid_next(p, len, &pos, &b, &e)) {
		if (skip_first) {
			skip_first = 0;
			continue;
		}
		add_xref(c, p + b, e - b);
	}
}

static void refs_from_clist(struct ctx *c, clist *l)
{
	const char **ids;
	clistiter *it;
	size_t n = 0;

	if (!l || !clist_count(l))
		return;
	ids = calloc((size_t)clist_count(l), sizeof(*ids));
	if (!ids) {
		set_err(c, MIME_ERR_NOMEM);
		return;
	}
	for (it = clist_begin(l); it; it = clist_next(it))
		ids[n++] = clist_content(it);
	add_refs(c, ids, n);
	free(ids);
}

static void refs_from_text(struct ctx *c, const char *p, size_t len)
{
	size_t pos = 0, b, e, n = 0, cap = 0, i;
	char **ids = NULL, **nids;

	while (msgid_next(p, len, &pos, &b, &e)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nids = realloc(ids, cap * sizeof(*ids));
			if (!nids)
				goto nomem;
			ids = nids;
		}
		ids[n] = dup_range(p + b, e - b);
		if (!ids[n])
			goto nomem;
		n++;
	}
	add_refs(c, (const char *const *)ids, n);
	goto out;
nomem:
	set_err(c, MIME_ERR_NOMEM);
out:
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

/* ---- addresses and dates --------------------------------------------- */

static int addr_set(struct ctx *c, struct mime_addr *a,
		    const struct mailimf_mailbox *mb)
{
	char *at;

	if (!mb || !mb->mb_addr_spec)
		return -1;
	a->addr = hdr_plain(c, mb->mb_addr_spec, strlen(mb->mb_addr_spec));
	if (!a->addr)
		return -1;
	if (!*a->addr) {
		free(a->addr);
		a->addr = NULL;
		return -1;
	}
	at = strrchr(a->addr, '@');
	for (at = at ? at : a->addr + strlen(a->addr); *at; at++)
		*at = (char)tolower((unsigned char)*at);
	a->name = NULL;
	if (mb->mb_display_name) {
		size_t n;
		char *nm = hdr_text(c, mb->mb_display_name,
				    strlen(mb->mb_display_name));

		/* libetpan may leave the quotes of "=?..?= x" in place */
		n = nm ? strlen(nm) : 0;
		if (n >= 1 && nm[0] == '"') {
			memmove(nm, nm + 1, n);
			n--;
		}
		if (n >= 1 && nm[n - 1] == '"')
			nm[--n] = 0;
		if (nm && !*nm) {
			free(nm);
			nm = NULL;
		}
		a->name = nm;
	}
	return 0;
}

static void addr_free(struct mime_addr *a)
{
	free(a->name);
	free(a->addr);
	a->name = NULL;
	a->addr = NULL;
}

/* Adds the mailboxes of an address list (groups flattened) to a list. */
static void rcpt_add(struct ctx *c, struct mime_addr **list, size_t *n,
		     const struct mailimf_mailbox *mb)
{
	struct mime_addr *nl;

	if (c->nrcpt >= MIME_MAX_RCPTS)
		return;
	nl = realloc(*list, (*n + 1) * sizeof(**list));
	if (!nl) {
		set_err(c, MIME_ERR_NOMEM);
		return;
	}
	*list = nl;
	if (addr_set(c, &nl[*n], mb))
		return;
	(*n)++;
	c->nrcpt++;
}

static void rcpts_add(struct ctx *c, struct mime_addr **list, size_t *n,
		      const struct mailimf_address_list *al)
{
	clistiter *it, *jt;

	if (!al)
		return;
	for (it = clist_begin(al->ad_list); it; it = clist_next(it)) {
		struct mailimf_address *a = clist_content(it);

		if (a->ad_type == MAILIMF_ADDRESS_MAILBOX) {
			rcpt_add(c, list, n, a->ad_data.ad_mailbox);
		} else if (a->ad_type == MAILIMF_ADDRESS_GROUP &&
			   a->ad_data.ad_group->grp_mb_list) {
			clist *l = a->ad_data.ad_group->grp_mb_list->mb_list;

			for (jt = clist_begin(l); jt; jt = clist_next(jt))
				rcpt_add(c, list, n, clist_content(jt));
		}
	}
}

/* The first mailbox of an address list (inside a group too). */
static const struct mailimf_mailbox *
first_mailbox(const struct mailimf_address_list *al)
{
	clistiter *it;

	if (!al)
		return NULL;
	for (it = clist_begin(al->ad_list); it; it = clist_next(it)) {
		struct mailimf_address *a = clist_content(it);

		if (a->ad_type == MAILIMF_ADDRESS_MAILBOX)
			return a->ad_data.ad_mailbox;
		if (a->ad_type == MAILIMF_ADDRESS_GROUP &&
		    a->ad_data.ad_group->grp_mb_list &&
		    clist_begin(a->ad_data.ad_group->grp_mb_list->mb_list))
			return clist_content(clist_begin(
				a->ad_data.ad_group->grp_mb_list->mb_list));
	}
	return NULL;
}

/* RFC 5322 3.3 date-time to Unix seconds; 0 when out of range. */
static int64_t date_unix(const struct mailimf_date_time *dt)
{
	struct tm tm;
	int year = dt->dt_year, zone = dt->dt_zone, az;
	time_t t;

	if (year >= 0 && year < 50)		/* RFC 5322 4.3 */
		year += 2000;
	else if (year >= 50 && year < 1000)
		year += 1900;
	if (year < 1900 || year > 9999 || dt->dt_month < 1 ||
	    dt->dt_month > 12 || dt->dt_day < 1 || dt->dt_day > 31 ||
	    dt->dt_hour < 0 || dt->dt_hour > 23 || dt->dt_min < 0 ||
	    dt->dt_min > 59 || dt->dt_sec < 0 || dt->dt_sec > 60 ||
	    zone < -9959 || zone > 9959)
		return 0;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = year - 1900;
	tm.tm_mon = dt->dt_month - 1;
	tm.tm_mday = dt->dt_day;
	tm.tm_hour = dt->dt_hour;
	tm.tm_min = dt->dt_min;
	tm.tm_sec = dt->dt_sec;
	t = timegm(&tm);
	if (t == (time_t)-1)
		return 0;
	az = zone < 0 ? -zone : zone;
	az = (az / 100) * 3600 + (az % 100) * 60;
	return (int64_t)t - (zone < 0 ? -az : az);
}

/* ---- raw header block ------------------------------------------------ */

/* Length of the top-level header block, through its empty line. */
static size_t header_len(const char *raw, size_t len)
{
	size_t i = 0;
	const char *nl;

	while (i < len) {
		if (raw[i] == '\n')
			return i + 1;
		if (raw[i] == '\r' && i + 1 < len && raw[i + 1] == '\n')
			return i + 2;
		nl = memchr(raw + i, '\n', len - i);
		if (!nl)
			return len;
		i = (size_t)(nl - raw) + 1;
	}
	return len;
}

struct raw_field {
	const char *name;
	const char *v;		/* the first such field's value, or NULL */
	size_t len;
};

enum { RAW_DATE, RAW_MSGID, RAW_RECEIVED, RAW_N };

/*
 * Checks MIME_MAX_HEADER on every top-level field and finds the raw
 * values libetpan does not keep: Date: (it keeps only the parsed date),
 * Message-ID: (its typed value drops white space, "<a b@c>" would
 * come out as "ab@c") and the first (topmost) Received: (a trace field
 * it does not type).
 */
static int header_scan(const char *raw, size_t hlen, struct raw_field *rf)
{
	size_t i = 0, start, vstart, e, nl_len;
	const char *nl;
	int k;

	for (k = 0; k < RAW_N; k++) {
		rf[k].v = NULL;
		rf[k].len = 0;
	}
	while (i < hlen) {
		start = i;
		/* one field: its line and the continuation lines */
		do {
			nl = memchr(raw + i, '\n', hlen - i);
			i = nl ? (size_t)(nl - raw) + 1 : hlen;
		} while (i < hlen && (raw[i] == ' ' || raw[i] == '\t'));
		if (i - start > MIME_MAX_HEADER)
			return MIME_ERR_LIMIT;
		for (k = 0; k < RAW_N; k++) {
			nl_len = strlen(rf[k].name);
			if (rf[k].v || i - start <= nl_len ||
			    strncasecmp(raw + start, rf[k].name, nl_len))
				continue;
			for (vstart = start + nl_len; vstart < i &&
			     (raw[vstart] == ' ' || raw[vstart] == '\t'); vstart++)
				;
			if (vstart >= i || raw[vstart] != ':')
				continue;
			vstart++;
			e = i;
			while (e > vstart && (raw[e - 1] == '\n' ||
					      raw[e - 1] == '\r'))
				e--;
			rf[k].v = raw + vstart;
			rf[k].len = e - vstart;
		}
	}
	return MIME_OK;
}

#define DATE_TEXT_MAX	256	/* bytes of a date-time read from a field */

int64_t mime_date(const char *v, size_t n)
{
	struct mailimf_date_time *dt = NULL;
	char buf[DATE_TEXT_MAX + 1];
	size_t i, idx = 0;
	int64_t t = 0;

	while (n && (*v == ' ' || *v == '\t'))
		v++, n--;
	if (!n || n > DATE_TEXT_MAX)
		return 0;
	for (i = 0; i < n; i++)
		buf[i] = v[i] == '\r' || v[i] == '\n' || !v[i] ? ' ' : v[i];
	buf[n] = '\0';
	if (mailimf_date_time_parse(buf, n, &idx, &dt) == MAILIMF_NO_ERROR && dt) {
		t = date_unix(dt);
		mailimf_date_time_free(dt);
	}
	return t;
}

/* The date of a Received: value: what follows its last ';' (RFC 5322
 * 3.6.7); 0 when there is none. */
static int64_t received_date(const char *v, size_t n)
{
	const char *semi = n ? memrchr(v, ';', n) : NULL;

	if (!semi)
		return 0;
	return mime_date(semi + 1, n - (size_t)(semi + 1 - v));
}

int mime_header_dates(const char *raw, size_t len, int64_t *date, int64_t *received)
{
	struct raw_field rf[RAW_N] = {
		[RAW_DATE] = { "date", NULL, 0 },
		[RAW_MSGID] = { "message-id", NULL, 0 },
		[RAW_RECEIVED] = { "received", NULL, 0 },
	};
	size_t hlen;
	int ret;

	*date = *received = 0;
	if (!raw)
		return MIME_ERR_PARSE;
	if (len >= 5 && !memcmp(raw, "From ", 5)) {
		const char *nl = memchr(raw, '\n', len);
		size_t i = nl ? (size_t)(nl - raw) + 1 : len;

		raw += i;
		len -= i;
	}
	hlen = header_len(raw, len);
	ret = header_scan(raw, hlen, rf);
	if (ret)
		return ret;
	if (rf[RAW_DATE].v)
		*date = mime_date(rf[RAW_DATE].v, rf[RAW_DATE].len);
	if (rf[RAW_RECEIVED].v)
		*received = received_date(rf[RAW_RECEIVED].v, rf[RAW_RECEIVED].len);
	return MIME_OK;
}

/* ---- prescan: multipart nesting from the raw text --------------------- */

struct prescan {
	char bnd[MIME_MAX_DEPTH + 1][BOUNDARY_MAX + 1];
	size_t blen[MIME_MAX_DEPTH + 1];
	int depth;
	size_t parts;
	size_t messages;
	size_t max_parts;
};

/* Extracts the boundary parameter of a Content-Type value, or 0. */
static size_t ct_boundary(const char *v, size_t n, char *out)
{
	size_t i, k = 0;

	for (i = 0; i + 8 <= n; i++) {
		if (strncasecmp(v + i, "boundary", 8) ||
		    (i > 0 && v[i - 1] != ';' && !is_ws(v[i - 1])))
			continue;
		i += 8;
		while (i < n && is_ws(v[i]))
			i++;
		if (i >= n || v[i] != '=')
			continue;
		i++;
		while (i < n && is_ws(v[i]))
			i++;
		if (i < n && v[i] == '"') {
			for (i++; i < n && v[i] != '"' && k < BOUNDARY_MAX; i++)
				out[k++] = v[i];
		} else {
			for (; i < n && v[i] != ';' && !is_ws(v[i]) &&
			     k < BOUNDARY_MAX; i++)
				out[k++] = v[i];
		}
		out[k] = 0;
		return k;
	}
	return 0;
}

static int prescan_ct(struct prescan *ps, const char *p, size_t n)
{
	char val[CT_VALUE_MAX];
	size_t k = 0, i;

	/* the unfolded value, up to CT_VALUE_MAX bytes */
	for (i = 0; i < n && k < sizeof(val); i++) {
		if (p[i] == '\n' && !(i + 1 < n && (p[i + 1] == ' ' ||
						     p[i + 1] == '\t')))
			break;
		if (p[i] != '\r' && p[i] != '\n')
			val[k++] = p[i];
	}
	for (i = 0; i < k && is_ws(val[i]); i++)
		;
	if (k - i >= 8 && !strncasecmp(val + i, "message/", 8)) {
		ps->messages++;
		return ps->messages > ps->max_parts ? MIME_ERR_LIMIT : 0;
	}
	if (k - i < 10 || strncasecmp(val + i, "multipart/", 10))
		return 0;
	if (ps->depth >= MIME_MAX_DEPTH)
		return MIME_ERR_LIMIT;
	/* no boundary found: counted for good (conservative) */
	ps->blen[ps->depth] = ct_boundary(val + i, k - i, ps->bnd[ps->depth]);
	ps->depth++;
	return 0;
}

static void prescan_delim(struct prescan *ps, const char *p, size_t n)
{
	int d;
	size_t bl;

	for (d = ps->depth - 1; d >= 0; d--) {
		bl = ps->blen[d];
		if (!bl || n < 2 + bl || memcmp(p + 2, ps->bnd[d], bl))
			continue;
		ps->parts++;
		/* a delimiter of an outer part ends the inner ones */
		ps->depth = d + 1;
		if (n >= 4 + bl && p[2 + bl] == '-' && p[3 + bl] == '-')
			ps->depth = d;
		return;
	}
}

static int prescan(const char *raw, size_t len, size_t max_parts)
{
	struct prescan *ps;
	size_t i = 0, n;
	const char *nl;
	int ret = MIME_OK;

	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return MIME_ERR_NOMEM;
	ps->max_parts = max_parts;
	while (i < len) {
		nl = memchr(raw + i, '\n', len - i);
		n = nl ? (size_t)(nl - raw) - i : len - i;
		if (n >= 13 && !strncasecmp(raw + i, "content-type:", 13)) {
			ret = prescan_ct(ps, raw + i + 13, len - i - 13);
			if (ret)
				break;
		} else if (n >= 3 && raw[i] == '-' && raw[i + 1] == '-' &&
			   ps->depth) {
			prescan_delim(ps, raw + i, n);
			if (ps->parts > ps->max_parts) {
				ret = MIME_ERR_LIMIT;
				break;
			}
		}
		i += n + 1;
	}
	free(ps);
	return ret;
}

/* ---- body parts ------------------------------------------------------ */

enum part_kind {
	PART_SKIP,
	PART_TEXT,	/* text/plain, inline */
	PART_PATCH,	/* a patch type: text/x-patch, text/x-diff... */
	PART_MAYBE,	/* text/plain attachment, octet-stream: a diff? */
};

static int is_attachment(const struct mailmime_single_fields *sf)
{
	return sf->fld_disposition && sf->fld_disposition->dsp_type &&
	       sf->fld_disposition->dsp_type->dsp_type ==
		       MAILMIME_DISPOSITION_TYPE_ATTACHMENT;
}

static enum part_kind part_kind(const struct mailmime_content *ct,
				const struct mailmime_single_fields *sf)
{
	const struct mailmime_type *t;
	const char *sub;
	int dt;

	if (!ct || !ct->ct_type)
		return is_attachment(sf) ? PART_MAYBE : PART_TEXT;
	t = ct->ct_type;
	sub = ct->ct_subtype ? ct->ct_subtype : "";
	if (t->tp_type != MAILMIME_TYPE_DISCRETE_TYPE || !t->tp_data.tp_discrete_type)
		return PART_SKIP;
	dt = t->tp_data.tp_discrete_type->dt_type;
	if (dt == MAILMIME_DISCRETE_TYPE_TEXT) {
		if (!strcasecmp(sub, "x-patch") || !strcasecmp(sub, "x-diff") ||
		    !strcasecmp(sub, "patch") || !strcasecmp(sub, "diff"))
			return PART_PATCH;
		if (!strcasecmp(sub, "plain"))
			return is_attachment(sf) ? PART_MAYBE : PART_TEXT;
		return PART_SKIP;
	}
	if (dt == MAILMIME_DISCRETE_TYPE_APPLICATION &&
	    (!strcasecmp(sub, "octet-stream") || !strcasecmp(sub, "x-patch")))
		return PART_MAYBE;
	return PART_SKIP;
}

/* 1 when a line of s[0, n) starts a diff (see the list at the top). */
static int holds_diff(const char *s, size_t n)
{
	size_t i = 0;
	const char *nl;

	while (i < n) {
		size_t l;

		nl = memchr(s + i, '\n', n - i);
		l = nl ? (size_t)(nl - s) - i : n - i;
		if ((l >= 11 && !memcmp(s + i, "diff --git ", 11)) ||
		    (l >= 7 && !memcmp(s + i, "Index: ", 7)))
			return 1;
		if (l >= 4 && !memcmp(s + i, "--- ", 4) && nl &&
		    n - (i + l + 1) >= 4 && !memcmp(nl + 1, "+++ ", 4))
			return 1;
		i += l + 1;
	}
	return 0;
}

/* Flags base64 / quoted-printable text libetpan decodes leniently. */
#define MIME_DECODE_PAD	8	/* NUL bytes behind a part given to libetpan */

static int encoding_bad(int enc, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (enc == MAILMIME_MECHANISM_BASE64) {
			if (!isalnum(ch) && ch != '+' && ch != '/' &&
			    ch != '=' && !is_ws((char)ch))
				return 1;
		} else if (ch == '=') {
			if (i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r'))
				continue;
			if (i + 2 >= n || !isxdigit((unsigned char)s[i + 1]) ||
			    !isxdigit((unsigned char)s[i + 2]))
				return 1;
		}
	}
	return 0;
}

static int is_utf8_name(const char *cs)
{
	return !cs || !*cs || !strcasecmp(cs, "utf-8") ||
	       !strcasecmp(cs, "utf8") || !strcasecmp(cs, "us-ascii") ||
	       !strcasecmp(cs, "ascii");
}

/* Appends s[0, n) in charset cs as UTF-8 to out, CRLF as LF. */
static void text_append(struct ctx *c, struct sbuf *out, const char *cs,
			const char *s, size_t n)
{
	struct sbuf tmp;
	char *conv = NULL;
	size_t clen = 0, i, j;
	int r;

	sbuf_init(&tmp, MIME_MAX_MAIL);
	if (is_utf8_name(cs)) {
		utf8_repair(&tmp, s, n, 1);
	} else {
		r = charconv_buffer("utf-8", cs, s, n, &conv, &clen);
		if (r == MAIL_CHARCONV_NO_ERROR) {
			utf8_repair(&tmp, conv, clen, 1);
			charconv_buffer_free(conv);
		} else if (r == MAIL_CHARCONV_ERROR_MEMORY) {
			set_err(c, MIME_ERR_NOMEM);
		} else {
			/* unknown charset: UTF-8 when valid, else Latin-1 */
			c->m->warnings |= MIME_WARN_CHARSET;
			if (utf8_valid(s, n) && !memchr(s, 0, n))
				sbuf_add(&tmp, s, n);
			else
				latin1_to_utf8(&tmp, s, n);
		}
	}
	if (sbuf_result(&tmp)) {
		set_err(c, sbuf_result(&tmp));
		goto out;
	}
	/* CRLF -> LF in place (from the first CR), then append */
	{
		const char *cr = tmp.len ? memchr(tmp.buf, '\r', tmp.len) : NULL;

		i = j = cr ? (size_t)(cr - tmp.buf) : tmp.len;
	}
	for (; i < tmp.len; i++) {
		if (tmp.buf[i] == '\r' && i + 1 < tmp.len && tmp.buf[i + 1] == '\n')
			continue;
		tmp.buf[j++] = tmp.buf[i];
	}
	if (out->len && out->buf[out->len - 1] != '\n' && j)
		sbuf_addch(out, '\n');
	sbuf_add(out, tmp.buf, j);
	if (sbuf_result(out))
		set_err(c, sbuf_result(out));
out:
	sbuf_release(&tmp);
}

static void single_part(struct ctx *c, struct mailmime *mm)
{
	struct mailmime_single_fields sf;
	struct mailmime_data *d = mm->mm_data.mm_single;
	enum part_kind kind;
	const char *s;
	char *dec = NULL;
	size_t n, idx = 0;
	int enc, r;

	if (!d || d->dt_type != MAILMIME_DATA_TEXT)
		return;
	memset(&sf, 0, sizeof(sf));
	mailmime_single_fields_init(&sf, mm->mm_mime_fields, mm->mm_content_type);
	kind = part_kind(mm->mm_content_type, &sf);
	if (kind == PART_SKIP)
		return;
	s = d->dt_data.dt_text.dt_data;
	n = d->dt_data.dt_text.dt_length;
	enc = d->dt_encoding;
	if (enc == MAILMIME_MECHANISM_BASE64 ||
	    enc == MAILMIME_MECHANISM_QUOTED_PRINTABLE) {
		char *pad;

		if (encoding_bad(enc, s, n))
			c->m->warnings |= MIME_WARN_ENCODING;
		/* libetpan's decoders look up to two bytes past the end
		 * (a "=" at the end of quoted-printable): decode a copy
		 * with NULs behind it, never the mail's own buffer */
		pad = calloc(1, n + MIME_DECODE_PAD);
		if (!pad) {
			set_err(c, MIME_ERR_NOMEM);
			return;
		}
		memcpy(pad, s, n);
		r = mailmime_part_parse(pad, n, &idx, enc, &dec, &n);
		free(pad);
		if (r != MAILIMF_NO_ERROR) {
			set_err(c, r == MAILIMF_ERROR_MEMORY ? MIME_ERR_NOMEM :
							       MIME_ERR_PARSE);
			return;
		}
		s = dec;
	}
	if (kind == PART_TEXT && !c->have_text) {
		/* the mail's text, an inline patch included */
		c->have_text = 1;
	} else {
		/* every later part that holds a patch */
		if (kind != PART_PATCH && !holds_diff(s, n))
			goto out;
		c->have_text = 1;
		c->m->has_attachment_patch = 1;
	}
	text_append(c, &c->body, sf.fld_content_charset, s, n);
out:
	if (dec)
		mailmime_decoded_part_free(dec);
}

static void walk(struct ctx *c, struct mailmime *mm, int depth)
{
	clistiter *it;

	if (!mm || c->err)
		return;
	if (++c->nparts > c->lim.max_parts) {
		set_err(c, MIME_ERR_LIMIT);
		return;
	}
	switch (mm->mm_type) {
	case MAILMIME_SINGLE:
		single_part(c, mm);
		break;
	case MAILMIME_MULTIPLE:
		if (depth + 1 > MIME_MAX_DEPTH) {
			set_err(c, MIME_ERR_LIMIT);
			return;
		}
		for (it = clist_begin(mm->mm_data.mm_multipart.mm_mp_list);
		     it && !c->err; it = clist_next(it))
			walk(c, clist_content(it), depth + 1);
		break;
	case MAILMIME_MESSAGE:
		if (depth + 1 > MIME_MAX_DEPTH) {
			set_err(c, MIME_ERR_LIMIT);
			return;
		}
		walk(c, mm->mm_data.mm_message.mm_msg_mime, depth + 1);
		break;
	}
}

/* ---- top-level header fields ----------------------------------------- */

static void set_once(char **dst, char *val)
{
	if (*dst || !val) {
		free(val);
		return;
	}
	*dst = val;
}

static void optional_field(struct ctx *c, const struct mailimf_optional_field *of)
{
	struct mime_mail *m = c->m;
	const char *name = of->fld_name, *v = of->fld_value;
	size_t n;
	char *s;

	if (!name || !v)
		return;
	n = strlen(v);
	if (!strcasecmp(name, "In-Reply-To")) {
		int had = m->in_reply_to != NULL;

		set_once(&m->in_reply_to, mime_msgid(v, n));
		xrefs_from_text(c, v, n, !had);
	} else if (!strcasecmp(name, "References")) {
		if (!m->nrefs)
			refs_from_text(c, v, n);
		else
			xrefs_from_text(c, v, n, 0);
	} else if (!strcasecmp(name, "Subject")) {
		set_once(&m->subject, hdr_text(c, v, n));
	} else if (!strcasecmp(name, "List-Id")) {
		s = hdr_plain(c, v, n);
		if (s)
			set_once(&m->list_id, mime_msgid(s, strlen(s)));
		free(s);
	} else if (!strcasecmp(name, "Auto-Submitted")) {
		set_once(&m->auto_submitted, hdr_plain(c, v, n));
	} else if (!strcasecmp(name, MIME_BOT_HEADER)) {
		set_once(&m->x_reviewbot, hdr_plain(c, v, n));
	} else if (!strcasecmp(name, "Precedence")) {
		s = hdr_plain(c, v, n);
		if (s && (!strncasecmp(s, "bulk", 4) ||
			  !strncasecmp(s, "junk", 4) ||
			  !strncasecmp(s, "list", 4)))
			m->precedence_bulk = 1;
		if (s && !strncasecmp(s, "junk", 4))
			m->precedence_junk = 1;
		free(s);
	} else if (!strcasecmp(name, "Return-Path")) {
		/* (when libetpan leaves it unparsed) "<>", blanks allowed */
		v += strspn(v, " \t\r\n");
		if (*v == '<') {
			v += 1 + strspn(v + 1, " \t\r\n");
			if (*v == '>' && !v[1 + strspn(v + 1, " \t\r\n")])
				m->return_path_null = 1;
		}
	} else if (!strcasecmp(name, "X-Autoreply")) {
		m->x_autoreply = 1;
	} else if (!strcasecmp(name, "X-Auto-Response-Suppress")) {
		m->x_auto_response_suppress = 1;
	} else if (!strcasecmp(name, "X-Original-From") && !c->x_original_from.addr) {
		struct mailimf_mailbox *mb = NULL;
		size_t at = 0;

		if (mailimf_mailbox_parse(v, n, &at, &mb) == MAILIMF_NO_ERROR && mb) {
			addr_set(c, &c->x_original_from, mb);
			mailimf_mailbox_free(mb);
		}
	} else if (!strcasecmp(name, "From") && !m->from.addr) {
		/* unparsable From: keep a bare address when there is one */
		s = mime_msgid(v, n);
		if (s && strchr(s, '@'))
			m->from.addr = s;
		else
			free(s);
	}
}

/* ---- b4's web relay ----------------------------------------------------- */

int mime_relay_devnull(const char *addr)
{
	const char *at = addr ? strrchr(addr, '@') : NULL;
	size_t k = strlen(MIME_RELAY_LOCAL);

	return at && (size_t)(at - addr) > k && !strncasecmp(addr, MIME_RELAY_LOCAL, k) &&
	       !strcasecmp(at + 1, MIME_RELAY_DOMAIN);
}

/* The relay's encoding of the author a in From's local part l[0, n):
 * a with '@' as '.', case aside. */
static int relay_encodes(const char *l, size_t n, const char *a)
{
	size_t i;

	if (!a || strlen(a) != n || !strchr(a, '@'))
		return 0;
	for (i = 0; i < n; i++) {
		char x = a[i] == '@' ? '.' : a[i];

		if (tolower((unsigned char)x) != tolower((unsigned char)l[i]))
			return 0;
	}
	return 1;
}

/* An address the relay would have rewritten: local@domain, with no
 * blank or control, not of the relay's own domain. */
static int relay_author_ok(const char *a)
{
	const char *at = a ? strrchr(a, '@') : NULL;
	const unsigned char *p;

	if (!at || at == a || !at[1] || !strcasecmp(at + 1, MIME_RELAY_DOMAIN))
		return 0;
	for (p = (const unsigned char *)a; *p; p++)
		if (*p <= ' ' || *p == 0x7f)
			return 0;
	return 1;
}

/*
 * From: is b4 relay's devnull: the author named by X-Original-From (or
 * Reply-To) becomes the mail's From when it agrees with the address the
 * relay encoded in the devnull (mime.h), and the relay's From is kept in
 * m->relay.  Takes c->x_original_from.
 */
static void relay_author(struct ctx *c)
{
	struct mime_mail *m = c->m;
	struct mime_addr *cand[2] = { &c->x_original_from, &m->reply_to }, author;
	const char *local, *at;
	size_t k = strlen(MIME_RELAY_LOCAL), i;

	if (!mime_relay_devnull(m->from.addr))
		return;
	at = strrchr(m->from.addr, '@');
	local = m->from.addr + k;
	for (i = 0; i < 2; i++) {
		const struct mime_addr *a = cand[i];

		if (!a->addr || !relay_author_ok(a->addr) ||
		    !relay_encodes(local, (size_t)(at - local), a->addr))
			continue;
		const char *name = a->name, *via = NULL;
		size_t nn = name ? strlen(name) : 0;

		/* Reply-To has no name: the relay's From is "NAME via B4 Relay" */
		if (!name && m->from.name && (via = strstr(m->from.name, " via ")) != NULL) {
			name = m->from.name;
			nn = (size_t)(via - name);
		}
		memset(&author, 0, sizeof(author));
		author.addr = strdup(a->addr);
		if (name && nn)
			author.name = strndup(name, nn);
		if (!author.addr || (name && nn && !author.name)) {
			free(author.addr);
			free(author.name);
			set_err(c, MIME_ERR_NOMEM);
			return;
		}
		m->relay = m->from;
		m->from = author;
		return;
	}
}

static void fields(struct ctx *c, struct mailimf_fields *f)
{
	struct mime_mail *m = c->m;
	const struct mailimf_mailbox *mb;
	clistiter *it, *it2;

	if (!f)
		return;
	for (it = clist_begin(f->fld_list); it && !c->err; it = clist_next(it)) {
		struct mailimf_field *fld = clist_content(it);

		switch (fld->fld_type) {
		case MAILIMF_FIELD_FROM:
			if (m->from.addr || !fld->fld_data.fld_from ||
			    !fld->fld_data.fld_from->frm_mb_list)
				break;
			it2 = clist_begin(
				fld->fld_data.fld_from->frm_mb_list->mb_list);
			mb = it2 ? clist_content(it2) : NULL;
			addr_set(c, &m->from, mb);
			break;
		case MAILIMF_FIELD_TO:
			if (fld->fld_data.fld_to)
				rcpts_add(c, &m->to, &m->nto,
					  fld->fld_data.fld_to->to_addr_list);
			break;
		case MAILIMF_FIELD_CC:
			if (fld->fld_data.fld_cc)
				rcpts_add(c, &m->cc, &m->ncc,
					  fld->fld_data.fld_cc->cc_addr_list);
			break;
		case MAILIMF_FIELD_REPLY_TO:
			if (m->reply_to.addr || !fld->fld_data.fld_reply_to)
				break;
			addr_set(c, &m->reply_to, first_mailbox(
				fld->fld_data.fld_reply_to->rt_addr_list));
			break;
		case MAILIMF_FIELD_MESSAGE_ID:
			break;	/* read from the raw header: header_scan() */
		case MAILIMF_FIELD_IN_REPLY_TO: {
			clist *l;
			clistiter *jt;

			if (!fld->fld_data.fld_in_reply_to)
				break;
			l = fld->fld_data.fld_in_reply_to->mid_list;
			if (m->in_reply_to) {
				xrefs_from_clist(c, l, 0);
				break;
			}
			for (jt = l ? clist_begin(l) : NULL; jt && !m->in_reply_to;
			     jt = clist_next(jt)) {
				const char *id = clist_content(jt);

				m->in_reply_to = mime_msgid(id, strlen(id));
			}
			xrefs_from_clist(c, l, 1);
			break;
		}
		case MAILIMF_FIELD_REFERENCES:
			if (!fld->fld_data.fld_references)
				break;
			if (!m->nrefs)
				refs_from_clist(c,
					fld->fld_data.fld_references->mid_list);
			else
				xrefs_from_clist(c,
					fld->fld_data.fld_references->mid_list, 0);
			break;
		case MAILIMF_FIELD_SUBJECT:
			if (m->subject || !fld->fld_data.fld_subject ||
			    !fld->fld_data.fld_subject->sbj_value)
				break;
			m->subject = hdr_text(c, fld->fld_data.fld_subject->sbj_value,
				strlen(fld->fld_data.fld_subject->sbj_value));
			break;
		case MAILIMF_FIELD_ORIG_DATE:
			if (!m->date && fld->fld_data.fld_orig_date &&
			    fld->fld_data.fld_orig_date->dt_date_time)
				m->date = date_unix(
					fld->fld_data.fld_orig_date->dt_date_time);
			break;
		case MAILIMF_FIELD_RETURN_PATH:
			/* the null reverse-path of a bounce (RFC 5321 4.5.5) */
			if (fld->fld_data.fld_return_path &&
			    fld->fld_data.fld_return_path->ret_path &&
			    (!fld->fld_data.fld_return_path->ret_path->pt_addr_spec ||
			     !*fld->fld_data.fld_return_path->ret_path->pt_addr_spec))
				m->return_path_null = 1;
			break;
		case MAILIMF_FIELD_OPTIONAL_FIELD:
			if (fld->fld_data.fld_optional_field)
				optional_field(c, fld->fld_data.fld_optional_field);
			break;
		}
	}
}

/* ---- entry points ---------------------------------------------------- */

void mime_release(struct mime_mail *m)
{
	size_t i;

	if (!m)
		return;
	free(m->message_id);
	free(m->subject);
	addr_free(&m->from);
	addr_free(&m->relay);
	for (i = 0; i < m->nto; i++)
		addr_free(&m->to[i]);
	free(m->to);
	for (i = 0; i < m->ncc; i++)
		addr_free(&m->cc[i]);
	free(m->cc);
	addr_free(&m->reply_to);
	free(m->date_raw);
	free(m->in_reply_to);
	for (i = 0; i < m->nrefs; i++)
		free(m->refs[i]);
	free(m->refs);
	for (i = 0; i < m->nxrefs; i++)
		free(m->xrefs[i]);
	free(m->xrefs);
	free(m->list_id);
	free(m->auto_submitted);
	free(m->x_reviewbot);
	free(m->body);
	memset(m, 0, sizeof(*m));
}

void mime_limits_init(struct mime_limits *lim)
{
	lim->max_mail = MIME_MAX_MAIL;
	lim->max_parts = MIME_MAX_PARTS;
	lim->max_refs = MIME_MAX_REFS;
}

/* A caller's limits within [1, ceiling] (the size within [0, ceiling]). */
static size_t clamp(size_t v, size_t lo, size_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int mime_parse(const char *raw, size_t len, struct mime_mail *m)
{
	return mime_parse_limits(raw, len, NULL, m);
}

int mime_parse_limits(const char *raw, size_t len, const struct mime_limits *lim,
		      struct mime_mail *m)
{
	struct ctx c;
	struct mailmime *mm = NULL;
	char *copy = NULL;
	struct raw_field rf[RAW_N] = {
		[RAW_DATE] = { "date", NULL, 0 },
		[RAW_MSGID] = { "message-id", NULL, 0 },
		[RAW_RECEIVED] = { "received", NULL, 0 },
	};
	size_t hlen, idx = 0, i;
	int r, ret;

	memset(m, 0, sizeof(*m));
	memset(&c, 0, sizeof(c));
	c.m = m;
	if (lim) {
		c.lim.max_mail = clamp(lim->max_mail, 0, MIME_MAX_MAIL);
		c.lim.max_parts = clamp(lim->max_parts, 1, MIME_CEIL_PARTS);
		c.lim.max_refs = clamp(lim->max_refs, 1, MIME_CEIL_REFS);
	} else {
		mime_limits_init(&c.lim);
	}
	/* the decoded body may be larger than the raw mail (Latin-1 to
	 * UTF-8): bounded by the ceiling, not by max_mail */
	sbuf_init(&c.body, MIME_MAX_MAIL);
	if (!raw || len > c.lim.max_mail) {
		ret = raw ? MIME_ERR_LIMIT : MIME_ERR_PARSE;
		goto out;
	}
	/* an mbox "From " line left in front (a saved .patch file) */
	if (len >= 5 && !memcmp(raw, "From ", 5)) {
		const char *nl = memchr(raw, '\n', len);

		i = nl ? (size_t)(nl - raw) + 1 : len;
		raw += i;
		len -= i;
	}
	hlen = header_len(raw, len);
	ret = header_scan(raw, hlen, rf);
	if (ret)
		goto out;
	ret = prescan(raw, len, c.lim.max_parts);
	if (ret)
		goto out;
	/* NUL in the header block: libetpan's fields are C strings */
	if (memchr(raw, 0, hlen)) {
		copy = malloc(len ? len : 1);
		if (!copy) {
			ret = MIME_ERR_NOMEM;
			goto out;
		}
		memcpy(copy, raw, len);
		for (i = 0; i < hlen; i++)
			if (!copy[i])
				copy[i] = ' ';
		m->warnings |= MIME_WARN_CTRL;
		raw = copy;
		header_scan(raw, hlen, rf);
	}
	r = mailmime_parse(raw, len, &idx, &mm);
	if (r != MAILIMF_NO_ERROR || !mm) {
		ret = r == MAILIMF_ERROR_MEMORY ? MIME_ERR_NOMEM : MIME_ERR_PARSE;
		goto out;
	}
	if (mm->mm_type != MAILMIME_MESSAGE) {
		ret = MIME_ERR_PARSE;
		goto out;
	}
	fields(&c, mm->mm_data.mm_message.mm_fields);
	if (rf[RAW_DATE].v && !c.err)
		m->date_raw = hdr_plain(&c, rf[RAW_DATE].v, rf[RAW_DATE].len);
	if (rf[RAW_RECEIVED].v)
		m->received = received_date(rf[RAW_RECEIVED].v, rf[RAW_RECEIVED].len);
	if (rf[RAW_MSGID].v && !c.err) {
		char *v = hdr_plain(&c, rf[RAW_MSGID].v, rf[RAW_MSGID].len);

		if (v)
			m->message_id = msgid_header(v, strlen(v));
		free(v);
	}
	if (!c.err)
		walk(&c, mm->mm_data.mm_message.mm_msg_mime, 0);
	if (c.err) {
		ret = c.err;
		goto out;
	}
	if (!m->message_id) {
		ret = MIME_ERR_NO_MSGID;
		goto out;
	}
	if (!m->subject) {
		m->subject = strdup("");
		if (!m->subject) {
			ret = MIME_ERR_NOMEM;
			goto out;
		}
	}
	if (!c.err)
		relay_author(&c);
	if (c.err) {
		ret = c.err;
		goto out;
	}
	if (!m->from.addr) {
		m->from.addr = strdup("");
		if (!m->from.addr) {
			ret = MIME_ERR_NOMEM;
			goto out;
		}
	}
	/* the last part ends without its line break (RFC 2046 5.1.1) */
	if (c.body.len && c.body.buf[c.body.len - 1] != '\n')
		sbuf_addch(&c.body, '\n');
	ret = sbuf_result(&c.body);
	if (ret)
		goto out;
	m->body = sbuf_detach(&c.body, &m->body_len);
	if (!m->body)
		ret = MIME_ERR_NOMEM;
out:
	if (mm)
		mailmime_free(mm);
	free(copy);
	addr_free(&c.x_original_from);
	sbuf_release(&c.body);
	if (ret)
		mime_release(m);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mails the bot writes (compose.h), each with its body from
 * templates/ and its headers made here: the review of a series (findings
 * by category, since the previous version, the checklist), the answers
 * to mail commands (confirmation, false-positive, query: one
 * compose_answer() for their shared shape), and a queued mail of our own
 * read again (its thread ids, its Cc dropped for a private resend).
 *
 * Deviations from "untouched", each so the mail stays valid 8bit text
 * (RFC 5322 2.1.1, RFC 2045 2.8):
 *  - text from mail is read as UTF-8; a malformed byte becomes U+FFFD;
 *  - in quoted code, a control character other than TAB becomes U+FFFD
 *    and a trailing CR is dropped; a line longer than CMP_MAX_CODE
 *    bytes is cut and ends in " [...]";
 *  - in prose and headers, controls (C0, DEL, C1, U+2028, U+2029) and
 *    runs of white space become one space, and long values are cut
 *    (CMP_MAX_*) and end in "...".
 */
#include "compose.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <strings.h>
#include <time.h>

#include "subject.h"
#include "../secret.h"
#include "template.h"
#include "../version.h"
#include "../../checker/checker.h"
#include "../../checker/readiness.h"
#include "../../checker/rules.h"

#include "../../checker/banned.h"

#define CMP_MAX_SUBJECT	512	/* bytes of the subject, after cleaning */
#define CMP_MAX_NAME	256	/* bytes of a display name */
#define CMP_MAX_ADDR	254	/* bytes of an address (RFC 5321 4.5.3.1.3) */
#define CMP_MAX_ID	250	/* bytes of a Message-ID between <> */
#define CMP_MAX_MSG	512	/* bytes of a finding's message */
#define CMP_MAX_FILE	256	/* bytes of a file name */
#define CMP_MAX_TYPE	64	/* bytes of a type name */
#define CMP_MAX_NOTE	200	/* bytes of compiles_note / works_note */
#define CMP_MAX_CODE	900	/* bytes of a quoted line (998 with indent) */
#define CMP_REFS_LAST	20	/* References kept after the first */
#define CMP_FOLD	78	/* header line length to fold at */
#define CMP_EW_BYTES	30	/* UTF-8 bytes per encoded word (52 chars) */

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- hashes ------------------------------------------------------------- */

#define FNV_OFFSET	UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME	UINT64_C(0x100000001b3)

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *u = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= u[i];
		h *= FNV_PRIME;
	}
	return h;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

void compose_fingerprint(const char *type, const char *file, const char *line_text,
			 char *out, size_t outlen)
{
	uint64_t h = FNV_OFFSET;
	const char *p;
	int gap = 0;

	if (type)
		h = fnv(h, type, strlen(type));
	h = fnv(h, "", 1);
	/* NULL (the commit message) differs from every file name */
	h = file ? fnv(h, file, strlen(file)) : fnv(h, "\1", 1);
	h = fnv(h, "", 1);
	if (line_text) {
		for (p = line_text; is_space(*p); p++)
			;
		for (; *p; p++) {
			if (is_space(*p)) {
				gap = 1;
				continue;
			}
			if (gap)
				h = fnv(h, " ", 1);
			gap = 0;
			h = fnv(h, p, 1);
		}
	} else {
		h = fnv(h, "\1", 1);
	}
	if (outlen)
		snprintf(out, outlen, "%016" PRIx64, h);
}

static int is_domain_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.';
}

void compose_message_id(const struct secret_key *key, const char *reviewed_msgid,
			int version, int version_minor, const char *bot_addr,
			char *out, size_t outlen)
{
	const char *id = reviewed_msgid ? reviewed_msgid : "", *at;
	size_t n = strlen(id), k = 0;
	uint64_t h = FNV_OFFSET;
	char v[64], dom[201];

	/* the same id with or without its <> */
	if (n >= 2 && id[0] == '<' && id[n - 1] == '>') {
		id++;
		n -= 2;
	}
	snprintf(v, sizeof(v), "v%d.%d", version, version_minor);
	if (key) {
		struct secret_siphash sh;

		secret_siphash_init(&sh, key);
		secret_siphash_add(&sh, id, n);
		secret_siphash_add(&sh, "", 1);
		secret_siphash_add(&sh, v, strlen(v));
		h = secret_siphash_final(&sh);
	} else {
		h = fnv(h, id, n);
		h = fnv(h, "", 1);
		h = fnv(h, v, strlen(v));
	}

	/* the domain: a dot-atom of [A-Za-z0-9.-] (RFC 5322 3.6.4) */
	at = bot_addr ? strrchr(bot_addr, '@') : NULL;
	for (at = at ? at + 1 : ""; *at && k < sizeof(dom) - 1; at++) {
		if (!is_domain_char(*at))
			continue;
		if (*at == '.' && (!k || dom[k - 1] == '.'))
			continue;
		dom[k++] = *at;
	}
	while (k && dom[k - 1] == '.')
		k--;
	dom[k] = '\0';
	if (outlen)
		snprintf(out, outlen, "reviewbot-%016" PRIx64 "@%s", h,
			 k ? dom : "localhost");
}

/* ---- cleaning text from mail -------------------------------------------- */

/* 1 when the character s[0, l) is a control or a line separator. */
static int is_control(const char *s, size_t l)
{
	const unsigned char *u = (const unsigned char *)s;

	if (l == 1)
		return u[0] < 0x20 || u[0] == 0x7f;
	if (l == 2)
		return u[0] == 0xc2 && u[1] < 0xa0;		/* C1 */
	if (l == 3)
		return u[0] == 0xe2 && u[1] == 0x80 &&
		       (u[2] == 0xa8 || u[2] == 0xa9);		/* U+2028/9 */
	return 0;
}

/*
 * Appends s as one line of prose: controls and white space runs become
 * one space, trimmed; malformed UTF-8 becomes U+FFFD; at most max bytes,
 * then "...".
 */
static void add_clean(struct sbuf *sb, const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0, i = 0, start = sb->len;
	int gap = 0;

	while (i < n) {
		size_t l = template_utf8_len(s + i, n - i);
		const char *c = s + i;
		size_t cl = l;

		if (!l) {
			c = replacement;
			cl = 3;
			l = 1;
		}
		i += l;
		if ((cl == 1 && is_space(*c)) || (c != replacement && is_control(c, cl))) {
			gap = 1;
			continue;
		}
		if (sb->len - start + gap + cl > max) {
			sbuf_addstr(sb, "...");
			return;
		}
		if (gap && sb->len > start)
			sbuf_addch(sb, ' ');
		gap = 0;
		sbuf_add(sb, c, cl);
	}
}

/* add_clean() into a fresh string; NULL when out of memory. */
static char *clean_dup(const char *s, size_t max)
{
	struct sbuf sb;

	sbuf_init(&sb, max + 16);
	add_clean(&sb, s, max);
	if (sb.err) {
		sbuf_release(&sb);
		return NULL;
	}
	return sbuf_detach(&sb, NULL);
}

/* A quoted line of code: tabs and spaces kept, nothing wrapped. */
static void add_code(struct sbuf *sb, const char *s)
{
	size_t n = strlen(s), i = 0, start = sb->len;

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	while (i < n) {
		size_t l = template_utf8_len(s + i, n - i);
		const char *c = s + i;
		size_t cl = l;

		if (!l || (s[i] != '\t' && is_control(s + i, l))) {
			c = replacement;
			cl = 3;
			l = l ? l : 1;
		}
		if (sb->len - start + cl > CMP_MAX_CODE) {
			sbuf_addstr(sb, " [...]");
			return;
		}
		sbuf_add(sb, c, cl);
		i += l;
	}
}

/* ---- addresses and ids --------------------------------------------------- */

/* An addr-spec we dare to put in a header: local@domain, printable ASCII
 * without white space, specials or quotes (no quoted local parts). */
static int good_addr(const char *a, size_t n)
{
	const char *at;
	size_t i;

	if (n < 3 || n > CMP_MAX_ADDR)
		return 0;
	at = memchr(a, '@', n);
	if (!at || at == a || at == a + n - 1 || memchr(at + 1, '@', n - (size_t)(at - a) - 1))
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)a[i];

		if (c <= 0x20 || c >= 0x7f || strchr("()<>[]:;,\"\\", c))
			return 0;
	}
	return 1;
}

/* A msg-id's inside: printable ASCII, no white space, no <>. */
static int good_id(const char *s, size_t n)
{
	size_t i;

	if (!n || n > CMP_MAX_ID)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '"' ||
		    c == '\\')
			return 0;
	}
	return 1;
}

/* Trims white space and one pair of <> off s; the inside in *p, *n. */
static void strip_id(const char *s, const char **p, size_t *n)
{
	size_t len = s ? strlen(s) : 0;

	if (!s)
		s = "";
	while (len && is_space(*s)) {
		s++;
		len--;
	}
	while (len && is_space(s[len - 1]))
		len--;
	if (len >= 2 && s[0] == '<' && s[len - 1] == '>') {
		s++;
		len -= 2;
	}
	*p = s;
	*n = len;
}

int compose_address_ok(const char *addr)
{
	const char *a;
	size_t n;

	strip_id(addr, &a, &n);
	return good_addr(a, n);
}

/* ---- headers ------------------------------------------------------------ */

struct hdr {
	struct sbuf *out;
	size_t col;		/* of the current line */
	int words;		/* words on the current line */
};

static void hdr_begin(struct hdr *h, const char *name)
{
	sbuf_addstr(h->out, name);
	sbuf_addch(h->out, ':');
	h->col = strlen(name) + 1;
	h->words = 0;
}

/* One word, folded onto a new line when it would pass CMP_FOLD and the
 * line holds a word already (RFC 5322 2.2.3). */
static void hdr_word(struct hdr *h, const char *w, size_t n)
{
	if (h->words && h->col + 1 + n > CMP_FOLD) {
		sbuf_addstr(h->out, "\n ");
		h->col = 1;
	} else {
		sbuf_addch(h->out, ' ');
		h->col++;
	}
	sbuf_add(h->out, w, n);
	h->col += n;
	h->words++;
}

/* Words of s separated by single spaces. */
static void hdr_words(struct hdr *h, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t j = i;

		while (j < n && s[j] != ' ')
			j++;
		if (j > i)
			hdr_word(h, s + i, j - i);
		i = j + 1;
	}
}

static void hdr_end(struct hdr *h)
{
	sbuf_addch(h->out, '\n');
}

static int needs_encoding(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	for (; *u; u++)
		if (*u >= 0x80)
			return 1;
	/* "=?" would be read as the start of an encoded word */
	return strstr(s, "=?") != NULL;
}

static void base64(struct sbuf *sb, const unsigned char *p, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned long v = (unsigned long)p[i] << 16 | p[i + 1] << 8 | p[i + 2];

		sbuf_addch(sb, tab[v >> 18 & 63]);
		sbuf_addch(sb, tab[v >> 12 & 63]);
		sbuf_addch(sb, tab[v >> 6 & 63]);
		sbuf_addch(sb, tab[v & 63]);
	}
	if (n - i == 1) {
		unsigned long v = (unsigned long)p[i] << 16;

		sbuf_addch(sb, tab[v >> 18 & 63]);
		sbuf_addch(sb, tab[v >> 12 & 63]);
		sbuf_addstr(sb, "==");
	} else if (n - i == 2) {
		unsigned long v = (unsigned long)p[i] << 16 | p[i + 1] << 8;

		sbuf_addch(sb, tab[v >> 18 & 63]);
		sbuf_addch(sb, tab[v >> 12 & 63]);
		sbuf_addch(sb, tab[v >> 6 & 63]);
		sbuf_addch(sb, '=');
	}
}

/*
 * s (clean UTF-8) as RFC 2047 B encoded words of at most CMP_EW_BYTES
 * bytes each (52 characters, within the 75 of RFC 2047 2), never
 * splitting a character; the white space between them is not part of
 * the text (RFC 2047 6.2).
 */
static void hdr_encoded(struct hdr *h, const char *s)
{
	size_t n = strlen(s), i = 0;
	struct sbuf w;

	sbuf_init(&w, 128);
	while (i < n) {
		size_t k = i;

		while (k < n) {
			size_t l = template_utf8_len(s + k, n - k);

			if (!l)
				l = 1;
			if (k + l - i > CMP_EW_BYTES && k > i)
				break;
			k += l;
		}
		sbuf_reset(&w);
		sbuf_addstr(&w, "=?UTF-8?B?");
		base64(&w, (const unsigned char *)s + i, k - i);
		sbuf_addstr(&w, "?=");
		hdr_word(h, w.buf, w.len);
		i = k;
	}
	sbuf_release(&w);
}

/* "Name <addr>" as words, the last one followed by tail (",", ""). */
static void hdr_addr(struct hdr *h, const char *name, const char *addr,
		     size_t alen, const char *tail)
{
	char *nm = clean_dup(name, CMP_MAX_NAME);
	struct sbuf w;

	sbuf_init(&w, CMP_MAX_ADDR + 16);
	if (nm && *nm && !(strlen(nm) == alen && !memcmp(nm, addr, alen))) {
		if (needs_encoding(nm)) {
			hdr_encoded(h, nm);
		} else if (strpbrk(nm, "()<>[]:;@\\,.\"")) {
			/* a quoted-string (RFC 5322 3.2.4) */
			struct sbuf q;
			const char *p;

			sbuf_init(&q, 2 * CMP_MAX_NAME + 16);
			sbuf_addch(&q, '"');
			for (p = nm; *p; p++) {
				if (*p == '"' || *p == '\\')
					sbuf_addch(&q, '\\');
				sbuf_addch(&q, *p);
			}
			sbuf_addch(&q, '"');
			hdr_words(h, q.buf, q.len);
			sbuf_release(&q);
		} else {
			hdr_words(h, nm, strlen(nm));
		}
		sbuf_addch(&w, '<');
		sbuf_add(&w, addr, alen);
		sbuf_addch(&w, '>');
	} else {
		sbuf_add(&w, addr, alen);
	}
	sbuf_addstr(&w, tail);
	hdr_word(h, w.buf, w.len);
	sbuf_release(&w);
	free(nm);
}

static int same_addr(const char *a, size_t an, const char *b, size_t bn)
{
	return an == bn && !strncasecmp(a, b, an);
}

/* The Cc addresses worth sending to: good, and not To, From or a repeat. */
static size_t pick_cc(const struct compose_review *r, const char *to, size_t tn,
		      const char *from, size_t fn, size_t *keep)
{
	size_t i, j, k = 0;

	for (i = 0; i < r->ncc; i++) {
		const char *a;
		size_t an;
		int dup = 0;

		strip_id(r->cc[i].addr, &a, &an);
		if (!good_addr(a, an) || same_addr(a, an, to, tn) ||
		    same_addr(a, an, from, fn))
			continue;
		for (j = 0; j < k && !dup; j++) {
			const char *b;
			size_t bn;

			strip_id(r->cc[keep[j]].addr, &b, &bn);
			dup = same_addr(a, an, b, bn);
		}
		if (!dup)
			keep[k++] = i;
	}
	return k;
}

static int add_date(struct sbuf *out, int64_t date)
{
	static const char *const days[] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
	};
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
	};
	time_t t = (time_t)date;
	struct tm tm;

	/* RFC 5322 3.3; the year must have 4 digits */
	if ((int64_t)t != date || !gmtime_r(&t, &tm) || tm.tm_year + 1900 < 1900 ||
	    tm.tm_year + 1900 > 9999)
		return -1;
	sbuf_addf(out, "Date: %s, %02d %s %04d %02d:%02d:%02d +0000\n",
		  days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
		  tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	return 0;
}

/* auto_submitted: RFC 3834's value, "auto-generated" for reviews,
 * "auto-replied" for answers to commands. */
static int add_headers(const struct compose_review *r, const char *msgid,
		       const char *auto_submitted, struct sbuf *out,
		       char *err, size_t errlen)
{
	struct hdr h = { out, 0, 0 };
	const char *from, *to, *irt;
	size_t fn, tn, irtn, ncc, i, nids = 0;
	size_t *keep = NULL;
	struct sbuf subj;
	const char **ids = NULL;
	size_t *idn = NULL;
	char *ver = NULL;
	int ret = -1;

	sbuf_init(&subj, CMP_MAX_SUBJECT + 16);
	strip_id(r->bot.addr, &from, &fn);
	strip_id(r->to.addr, &to, &tn);
	if (!good_addr(from, fn)) {
		set_err(err, errlen, "bad bot address");
		goto out;
	}
	if (!good_addr(to, tn)) {
		set_err(err, errlen, "bad recipient address");
		goto out;
	}
	keep = calloc(r->ncc + 1, sizeof(*keep));
	ids = calloc(r->nreferences + 1, sizeof(*ids));
	idn = calloc(r->nreferences + 1, sizeof(*idn));
	if (!keep || !ids || !idn) {
		set_err(err, errlen, "out of memory");
		goto out;
	}

	hdr_begin(&h, "From");
	hdr_addr(&h, r->bot.name, from, fn, "");
	hdr_end(&h);
	hdr_begin(&h, "To");
	hdr_addr(&h, r->to.name, to, tn, "");
	hdr_end(&h);
	ncc = pick_cc(r, to, tn, from, fn, keep);
	if (ncc) {
		hdr_begin(&h, "Cc");
		for (i = 0; i < ncc; i++) {
			const char *a;
			size_t an;

			strip_id(r->cc[keep[i]].addr, &a, &an);
			hdr_addr(&h, r->cc[keep[i]].name, a, an, i + 1 < ncc ? "," : "");
		}
		hdr_end(&h);
	}

	/* Subject: "Re: " once (RFC 5322 3.6.5) */
	add_clean(&subj, r->subject, CMP_MAX_SUBJECT);
	hdr_begin(&h, "Subject");
	if (strncasecmp(subj.buf, "Re:", 3))
		hdr_word(&h, "Re:", 3);
	if (subj.len) {
		if (needs_encoding(subj.buf))
			hdr_encoded(&h, subj.buf);
		else
			hdr_words(&h, subj.buf, subj.len);
	}
	hdr_end(&h);

	if (add_date(out, r->date)) {
		set_err(err, errlen, "date %" PRId64 " out of range", r->date);
		goto out;
	}
	sbuf_addf(out, "Message-ID: <%s>\n", msgid);

	/* In-Reply-To and References (RFC 5322 3.6.4) */
	for (i = 0; i < r->nreferences; i++) {
		strip_id(r->references[i], &ids[nids], &idn[nids]);
		if (good_id(ids[nids], idn[nids]))
			nids++;
	}
	strip_id(r->in_reply_to, &irt, &irtn);
	if (good_id(irt, irtn)) {
		sbuf_addf(out, "In-Reply-To: <%.*s>\n", (int)irtn, irt);
		ids[nids] = irt;
		idn[nids] = irtn;
		nids++;
	}
	if (nids) {
		struct sbuf w;

		sbuf_init(&w, CMP_MAX_ID + 8);
		hdr_begin(&h, "References");
		for (i = 0; i < nids; i++) {
			/* very long threads: the first and the last ones are
			 * enough to find the thread, and RFC 5322 3.6.4 lets
			 * References be trimmed */
			if (nids > 1 + CMP_REFS_LAST && i > 0 && i < nids - CMP_REFS_LAST)
				continue;
			sbuf_reset(&w);
			sbuf_addf(&w, "<%.*s>", (int)idn[i], ids[i]);
			hdr_word(&h, w.buf, w.len);
		}
		hdr_end(&h);
		sbuf_release(&w);
	}

	sbuf_addf(out, "Auto-Submitted: %s\n", auto_submitted);
	ver = clean_dup(r->bot_version ? r->bot_version : REVIEWBOT_VERSION, 64);
	if (!ver) {
		set_err(err, errlen, "out of memory");
		goto out;
	}
	if (needs_encoding(ver)) {
		free(ver);
		ver = strdup("?");
		if (!ver) {
			set_err(err, errlen, "out of memory");
			goto out;
		}
	}
	hdr_begin(&h, "X-Reviewbot");
	hdr_words(&h, ver, strlen(ver));
	hdr_end(&h);
	sbuf_addstr(out, "MIME-Version: 1.0\n"
		    "Content-Type: text/plain; charset=UTF-8\n"
		    "Content-Transfer-Encoding: 8bit\n");
	ret = 0;
out:
	free(ver);
	free(keep);
	free(ids);
	free(idn);
	sbuf_release(&subj);
	return ret;
}

/* ---- findings ----------------------------------------------------------- */

static enum rule_cat cat_of(const struct compose_finding *f)
{
	int c = f->category ? rule_cat_find(f->category, strlen(f->category)) : -1;

	if (c < 0 && f->type) {
		int r = rule_find(f->type, strlen(f->type));

		if (r >= 0)
			c = (int)rule_table[r].cat;
	}
	/* unknown: shown rather than folded away */
	return c < 0 ? CAT_CORRECTNESS : (enum rule_cat)c;
}

static int cmp_nstr(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;	/* NULL (commit message) first */
	return strcmp(a, b);
}

static int cmp_where(const struct compose_finding *a, const struct compose_finding *b)
{
	int c;

	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	c = cmp_nstr(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	c = cmp_nstr(a->type, b->type);
	return c ? c : cmp_nstr(a->message, b->message);
}

/*
 * A finding with its category, worked out once (not in every compare),
 * whether it is counted with the nits rather than listed, and the entry
 * it is listed in: the findings of one entry (group_items()) are said
 * once, by their lead, under one number.
 */
enum entry_kind {
	ENTRY_ONE = 0,		/* a finding on its own */
	ENTRY_LINES,		/* one type and message on lines of one function */
	ENTRY_CAUSE,		/* a cause and the findings it gives */
};

struct item {
	const struct compose_finding *f;
	enum rule_cat cat;
	int nit;	/* a style finding other than an ERROR, or a demoted one */
	size_t lead;	/* index (in the sorted items) of its entry's lead */
	size_t next;	/* the entry's next finding, or SIZE_MAX */
	size_t count;	/* for a lead: the findings of its entry */
	enum entry_kind kind;	/* for a lead */
};

/* A style ERROR is listed, never folded into the nits' count. */
static int is_error(const struct compose_finding *f)
{
	return f->severity && !strcmp(f->severity, "ERROR");
}

/* By category, then part, file, line. */
static int cmp_shown(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;

	if (a->cat != b->cat)
		return a->cat < b->cat ? -1 : 1;
	return cmp_where(a->f, b->f);
}

/* By type, then where. */
static int cmp_type(const void *pa, const void *pb)
{
	const struct compose_finding *a = *(const struct compose_finding *const *)pa;
	const struct compose_finding *b = *(const struct compose_finding *const *)pb;
	int c = cmp_nstr(a->type, b->type);

	return c ? c : cmp_where(a, b);
}

/*
 * Findings one cause gives in one patch, the cause first: a sign-off
 * checkpatch.pl cannot read (BAD_SIGN_OFF: no angle brackets, say) is
 * also no sign-off by the author and none by the sender; no sign-off at
 * all (MISSING_SIGN_OFF) none by the sender either; the author signing
 * off with another address is the sender signing off with it too.  The
 * best-ranked type a patch has leads, the lower-ranked ones are said
 * with it; a second finding of the lead's own type is its own entry.
 */
static const char *const signoff_causes[] = {
	"BAD_SIGN_OFF", "MISSING_SIGN_OFF", "NO_AUTHOR_SIGN_OFF",
	"FROM_SIGN_OFF_MISMATCH", "SIGN_OFF_NOT_SENDER",
};

static int cause_rank(const struct compose_finding *f)
{
	size_t k;

	for (k = 0; f->type && k < sizeof(signoff_causes) / sizeof(signoff_causes[0]); k++)
		if (!strcmp(f->type, signoff_causes[k]))
			return (int)k;
	return -1;
}

/* Lines of one function: the same part, file, type, message and scope. */
static int cmp_run(const struct item *a, const struct item *b)
{
	int c;

	if (a->f->part != b->f->part)
		return a->f->part < b->f->part ? -1 : 1;
	c = cmp_nstr(a->f->file, b->f->file);
	if (!c)
		c = cmp_nstr(a->f->type, b->f->type);
	if (!c)
		c = cmp_nstr(a->f->message, b->f->message);
	if (!c && a->f->scope != b->f->scope)
		c = a->f->scope < b->f->scope ? -1 : 1;
	return c;
}

static const struct item *run_base;

static int cmp_run_idx(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = cmp_run(&run_base[a], &run_base[b]);

	return c ? c : (a > b) - (a < b);
}

static void join(struct item *it, size_t lead, size_t *tail, size_t i,
		 enum entry_kind kind)
{
	it[i].lead = lead;
	it[tail[lead]].next = i;
	tail[lead] = i;
	it[lead].count++;
	it[lead].kind = kind;
}

/*
 * Puts each listed item of it[0, n) (sorted by cmp_shown) in its entry:
 * a cause with what it gives, lines of one function, or alone.  Leads
 * come first in the sorted order, and each entry's findings are chained
 * from its lead in that order.  -1 when out of memory (every item is
 * then alone).
 */
static int group_items(struct item *it, size_t n)
{
	size_t *tail = NULL, *idx = NULL, i, j, k, m = 0;
	int ret = -1;

	for (i = 0; i < n; i++) {
		it[i].lead = i;
		it[i].next = SIZE_MAX;
		it[i].count = 1;
		it[i].kind = ENTRY_ONE;
	}
	tail = calloc(n + 1, sizeof(*tail));
	idx = calloc(n + 1, sizeof(*idx));
	if (!tail || !idx)
		goto out;
	for (i = 0; i < n; i++)
		tail[i] = i;
	/* causes: within the items of one category and part */
	for (i = 0; i < n; i = j) {
		size_t best = SIZE_MAX;

		for (j = i; j < n && it[j].cat == it[i].cat && it[j].f->part == it[i].f->part; j++)
			if (!it[j].nit && cause_rank(it[j].f) >= 0 &&
			    (best == SIZE_MAX || cause_rank(it[j].f) < cause_rank(it[best].f)))
				best = j;
		if (best == SIZE_MAX)
			continue;
		for (k = i; k < j; k++)
			if (k != best && !it[k].nit &&
			    cause_rank(it[k].f) > cause_rank(it[best].f))
				join(it, best, tail, k, ENTRY_CAUSE);
	}
	/* lines of one function: listed items alone so far, with a place */
	for (i = 0; i < n; i++)
		if (!it[i].nit && it[i].lead == i && it[i].count == 1 && it[i].f->file &&
		    it[i].f->line > 0 && it[i].f->scope)
			idx[m++] = i;
	run_base = it;
	qsort(idx, m, sizeof(*idx), cmp_run_idx);
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && !cmp_run(&it[idx[i]], &it[idx[j]]); j++)
			join(it, idx[i], tail, idx[j], ENTRY_LINES);
	}
	ret = 0;
out:
	free(tail);
	free(idx);
	return ret;
}

/* "[PATCH 2/3] drivers/x.c:120", or "drivers/x.c:120" for one patch. */
static void add_where(struct sbuf *sb, const struct compose_finding *f, int total)
{
	if (total > 1)
		sbuf_addf(sb, "[PATCH %d/%d] ", f->part, total);
	if (f->file)
		add_clean(sb, f->file, CMP_MAX_FILE);
	else
		sbuf_addstr(sb, "commit message");
	if (f->line > 0)
		sbuf_addf(sb, ":%ld", f->line);
}

#define CMP_MAX_RANGES	8	/* line ranges an entry names, then "..." */

/* "drivers/x.c lines 40-52, 60": the lines of entry it[lead] (one file,
 * by line, from its chain). */
static void add_where_lines(struct sbuf *sb, const struct item *it, size_t lead,
			    int total)
{
	const struct compose_finding *f = it[lead].f;
	size_t i, ranges = 0;
	long from = 0, to = 0;

	if (total > 1)
		sbuf_addf(sb, "[PATCH %d/%d] ", f->part, total);
	add_clean(sb, f->file, CMP_MAX_FILE);
	sbuf_addstr(sb, " lines ");
	for (i = lead; ; i = it[i].next) {
		long l = i == SIZE_MAX ? 0 : it[i].f->line;

		if (i != SIZE_MAX && from && (l == to || l == to + 1)) {
			to = l;
			continue;
		}
		if (from) {
			if (ranges == CMP_MAX_RANGES) {
				sbuf_addstr(sb, ", ...");
				break;
			}
			sbuf_addf(sb, ranges ? ", %ld" : "%ld", from);
			if (to > from)
				sbuf_addf(sb, "-%ld", to);
			ranges++;
		}
		if (i == SIZE_MAX)
			break;
		from = to = l;
	}
}

static void add_type(struct sbuf *sb, const char *type)
{
	if (type && *type)
		add_clean(sb, type, CMP_MAX_TYPE);
	else
		sbuf_addstr(sb, "UNKNOWN");
}

static const char *const section_title[CAT__COUNT] = {
	[CAT_SECURITY] = "Security",
	[CAT_UAPI] = "User-space interface",
	[CAT_CORRECTNESS] = "Correctness",
	[CAT_PROCESS] = "Process",
	[CAT_STYLE] = "Style errors (checkpatch.pl ERROR)",
};

/*
 * What a user-space interface finding does to the ABI, from its type (a
 * name with _REMOVED or _CHANGED in it) and the verbs of its message
 * ("removes #define X", "header ... deleted", "changes enum value Y",
 * "adds field Z"): it may do several.  Nothing said: it adds.  The
 * heading of the section is worded from what it holds.
 */
enum abi_kind { ABI_NEW = 1, ABI_CHANGED = 2, ABI_REMOVED = 4 };

static int word_in(const char *s, const char *const *words)
{
	size_t k, n;
	const char *p;

	for (k = 0; s && words[k]; k++) {
		n = strlen(words[k]);
		for (p = s; (p = strstr(p, words[k])) != NULL; p += n)
			if ((p == s || !isalpha((unsigned char)p[-1])) &&
			    !isalpha((unsigned char)p[n]))
				return 1;
	}
	return 0;
}

static int abi_kind(const struct compose_finding *f)
{
	static const char *const removed[] = { "removes", "deleted", NULL };
	static const char *const changed[] = { "changes", "changed", "inserts", NULL };
	static const char *const added[] = { "adds", "appends", NULL };
	int k = 0;

	if (f->type && strstr(f->type, "_REMOVED"))
		k |= ABI_REMOVED;
	else if (f->type && strstr(f->type, "_CHANGED"))
		k |= ABI_CHANGED;
	else {
		if (word_in(f->message, removed))
			k |= ABI_REMOVED;
		if (word_in(f->message, changed))
			k |= ABI_CHANGED;
		if (word_in(f->message, added))
			k |= ABI_NEW;
	}
	return k ? k : ABI_NEW;
}

static void add_uapi_title(struct sbuf *sb, int kinds)
{
	sbuf_addstr(sb, section_title[CAT_UAPI]);
	switch (kinds) {
	case ABI_NEW:
		sbuf_addstr(sb, " (new ABI: needs a review of its own)");
		break;
	case ABI_REMOVED:
		sbuf_addstr(sb, " (removed ABI: does user space still use it?)");
		break;
	case ABI_CHANGED:
		sbuf_addstr(sb, " (changed ABI: does user space rely on it?)");
		break;
	default: {
		const char *w[3];
		size_t nw = 0, k;

		if (kinds & ABI_NEW)
			w[nw++] = "new";
		if (kinds & ABI_CHANGED)
			w[nw++] = "changed";
		if (kinds & ABI_REMOVED)
			w[nw++] = "removed";
		sbuf_addstr(sb, " (");
		for (k = 0; k < nw; k++)
			sbuf_addf(sb, "%s%s", !k ? "" : k + 1 == nw ? " and " : ", ", w[k]);
		sbuf_addstr(sb, " ABI: each needs review)");
		break;
	}
	}
}

/* One entry: "#K where: SEVERITY: message (TYPE...)" and its code. */
static void add_entry(struct sbuf *out, struct sbuf *line, const struct item *it,
		      size_t i, int total, long num)
{
	const struct compose_finding *f = it[i].f;
	size_t j;

	sbuf_reset(line);
	sbuf_addf(line, "  #%ld ", num);
	if (it[i].kind == ENTRY_LINES)
		add_where_lines(line, it, i, total);
	else
		add_where(line, f, total);
	sbuf_addstr(line, ": ");
	if (f->severity && *f->severity) {
		add_clean(line, f->severity, CMP_MAX_TYPE);
		sbuf_addstr(line, ": ");
	}
	add_clean(line, f->message, CMP_MAX_MSG);
	sbuf_addstr(line, " (");
	add_type(line, f->type);
	if (it[i].kind == ENTRY_LINES) {
		size_t lines = 0;
		long last = 0;

		for (j = i; j != SIZE_MAX; j = it[j].next)
			if (it[j].f->line != last) {
				lines++;
				last = it[j].f->line;
			}
		sbuf_addf(line, ", %zu lines", lines);
	} else if (it[i].kind == ENTRY_CAUSE) {
		/* the other types it gives, each once, in the chain's order */
		const char *types[sizeof(signoff_causes) / sizeof(signoff_causes[0])];
		size_t nt = 0, k;

		for (j = it[i].next; j != SIZE_MAX; j = it[j].next) {
			for (k = 0; k < nt && cmp_nstr(types[k], it[j].f->type); k++)
				;
			if (k == nt && nt < sizeof(types) / sizeof(types[0]))
				types[nt++] = it[j].f->type;
		}
		sbuf_addstr(line, ", which also gives");
		for (k = 0; k < nt; k++) {
			sbuf_addstr(line, !k ? " " : k + 1 == nt ? " and " : ", ");
			add_type(line, types[k]);
		}
	}
	sbuf_addch(line, ')');
	template_wrap(out, line->buf, line->len, TEMPLATE_WRAP_COLUMNS, 4);
	if (f->line_text) {
		sbuf_addstr(out, "    +");
		add_code(out, f->line_text);
		sbuf_addch(out, '\n');
	}
}

/*
 * One section per category but style (of which only the ERRORs), each
 * ending in a blank line.  The entries listed are numbered from 1 (#K)
 * in the order shown: numbers[] (one per finding of base) gets each
 * finding the number of its entry.
 */
static void add_sections(struct sbuf *out, const struct item *it, size_t n,
			 int total, long *shown, const struct compose_finding *base,
			 int *numbers)
{
	struct sbuf line;
	size_t i = 0;

	sbuf_init(&line, out->cap);
	while (i < n) {
		enum rule_cat c = it[i].cat;
		size_t j, k, m, listed = 0, entries = 0;
		int kinds = 0;

		for (j = i; j < n && it[j].cat == c; j++)
			if (!it[j].nit && it[j].lead == j) {
				entries++;
				if (c == CAT_UAPI)
					kinds |= abi_kind(it[j].f);
			}
		if (!entries) {
			i = j;
			continue;
		}
		sbuf_reset(&line);
		if (c == CAT_UAPI)
			add_uapi_title(&line, kinds);
		else
			sbuf_addstr(&line, section_title[c]);
		template_wrap(out, line.buf, line.len, TEMPLATE_WRAP_COLUMNS, 2);
		for (k = i; k < j; k++) {
			long num;

			if (it[k].nit || it[k].lead != k || listed == COMPOSE_MAX_SHOWN)
				continue;
			listed++;
			num = *shown + (long)listed;
			for (m = k; m != SIZE_MAX; m = it[m].next)
				numbers[it[m].f - base] = (int)num;
			add_entry(out, &line, it, k, total, num);
		}
		if (entries > listed)
			sbuf_addf(out, "  ... and %zu more\n", entries - listed);
		sbuf_addch(out, '\n');
		*shown += (long)listed;
		i = j;
	}
	if (line.err)
		out->err = line.err;
	sbuf_release(&line);
}

struct nit_group {
	const struct compose_finding *const *f;	/* first of the run, by type */
	size_t n;
};

static int is_long_line(const char *type)
{
	return type && !strncmp(type, "LONG_LINE", 9);
}

/* Most frequent first, long lines first among equals, then by name. */
static int cmp_group(const void *pa, const void *pb)
{
	const struct nit_group *a = pa, *b = pb;
	int la = is_long_line(a->f[0]->type), lb = is_long_line(b->f[0]->type);

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	if (la != lb)
		return la ? -1 : 1;
	return cmp_nstr(a->f[0]->type, b->f[0]->type);
}

static size_t digits(size_t n)
{
	size_t d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* "Style nits: N" and a line per type, ending in a blank line. */
static int add_nits(struct sbuf *out, const struct item *it, size_t n, int total,
		    long *nits)
{
	const struct compose_finding **f = NULL;
	struct nit_group *g = NULL;
	size_t k = 0, ng = 0, i, tw = 0, cw;
	struct sbuf line, type;
	int ret = -1;

	sbuf_init(&line, out->cap);
	sbuf_init(&type, CMP_MAX_TYPE + 16);
	for (i = 0; i < n; i++)
		if (it[i].nit)
			k++;
	*nits = (long)k;
	if (!k)
		return 0;
	f = calloc(k, sizeof(*f));
	g = calloc(k, sizeof(*g));
	if (!f || !g)
		goto out;
	for (i = 0, k = 0; i < n; i++)
		if (it[i].nit)
			f[k++] = it[i].f;
	qsort(f, k, sizeof(*f), cmp_type);
	for (i = 0; i < k; i++) {
		if (!ng || cmp_nstr(g[ng - 1].f[0]->type, f[i]->type)) {
			g[ng].f = &f[i];
			g[ng].n = 0;
			ng++;
		}
		g[ng - 1].n++;
	}
	qsort(g, ng, sizeof(*g), cmp_group);
	for (i = 0; i < ng; i++) {
		sbuf_reset(&type);
		add_type(&type, g[i].f[0]->type);
		if (type.len > tw)
			tw = type.len;
	}
	cw = digits(g[0].n);
	sbuf_addf(out, "Style nits: %zu (counted by type, not listed one by one)\n", k);
	for (i = 0; i < ng; i++) {
		size_t e, ex = g[i].n < COMPOSE_NIT_EXAMPLES ? g[i].n : COMPOSE_NIT_EXAMPLES;
		size_t cont;

		sbuf_reset(&type);
		add_type(&type, g[i].f[0]->type);
		sbuf_reset(&line);
		sbuf_addf(&line, "  %-*s  %*zu  %s ", (int)tw, type.buf, (int)cw,
			  g[i].n, g[i].n > ex ? "e.g." : "at");
		cont = line.len <= 48 ? line.len : 4;
		for (e = 0; e < ex; e++) {
			const struct compose_finding *a = g[i].f[e];
			const struct compose_finding *p = e ? g[i].f[e - 1] : NULL;

			if (e)
				sbuf_addstr(&line, ", ");
			if (p && p->part == a->part && a->file && p->file &&
			    !strcmp(a->file, p->file) && a->line > 0)
				sbuf_addf(&line, ":%ld", a->line);
			else
				add_where(&line, a, total);
		}
		template_wrap(out, line.buf, line.len, TEMPLATE_WRAP_COLUMNS, cont);
	}
	sbuf_addch(out, '\n');
	if (line.err)
		out->err = line.err;
	ret = 0;
out:
	free(f);
	free(g);
	sbuf_release(&line);
	sbuf_release(&type);
	return ret;
}

/* ---- since the previous version ----------------------------------------- */

struct fp {
	char fp[65];
	const struct compose_finding *f;
	enum rule_cat cat;
	int matched;
};

static int cmp_fp(const void *pa, const void *pb)
{
	const struct fp *a = pa, *b = pb;
	int c = strcmp(a->fp, b->fp);

	return c ? c : cmp_where(a->f, b->f);
}

static void fill_fp(struct fp *out, const struct compose_finding *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		out[i].f = &f[i];
		out[i].cat = cat_of(&f[i]);
		out[i].matched = 0;
		if (f[i].fingerprint && *f[i].fingerprint)
			snprintf(out[i].fp, sizeof(out[i].fp), "%s", f[i].fingerprint);
		else
			compose_fingerprint(f[i].type, f[i].file, f[i].line_text,
					    out[i].fp, sizeof(out[i].fp));
	}
}

/* By category, type, file: the order of the fixed / new lists. */
static int cmp_brief(const void *pa, const void *pb)
{
	const struct fp *a = *(const struct fp *const *)pa;
	const struct fp *b = *(const struct fp *const *)pb;
	int c;

	if (a->cat != b->cat)
		return a->cat < b->cat ? -1 : 1;
	c = cmp_nstr(a->f->type, b->f->type);
	return c ? c : cmp_nstr(a->f->file, b->f->file);
}

/* "  fixed: TYPE in file (N times)" lines of the unmatched ones. */
static int add_brief(struct sbuf *out, const char *label, const struct fp *x,
		     size_t n, size_t count)
{
	const struct fp **u;
	struct sbuf line;
	size_t i, k = 0, lines = 0, left = 0;

	if (!count)
		return 0;
	u = calloc(count, sizeof(*u));
	if (!u)
		return -1;
	for (i = 0; i < n; i++)
		if (!x[i].matched)
			u[k++] = &x[i];
	qsort(u, k, sizeof(*u), cmp_brief);
	sbuf_init(&line, out->cap);
	for (i = 0; i < k; ) {
		size_t j = i + 1;

		while (j < k && !cmp_nstr(u[j]->f->type, u[i]->f->type) &&
		       !cmp_nstr(u[j]->f->file, u[i]->f->file))
			j++;
		if (lines == COMPOSE_MAX_SHOWN) {
			left += j - i;
			i = j;
			continue;
		}
		sbuf_reset(&line);
		sbuf_addf(&line, "  %s ", label);
		add_type(&line, u[i]->f->type);
		sbuf_addstr(&line, " in ");
		if (u[i]->f->file)
			add_clean(&line, u[i]->f->file, CMP_MAX_FILE);
		else
			sbuf_addstr(&line, "the commit message");
		if (j - i > 1)
			sbuf_addf(&line, " (%zu times)", j - i);
		template_wrap(out, line.buf, line.len, TEMPLATE_WRAP_COLUMNS, 4);
		lines++;
		i = j;
	}
	if (left)
		sbuf_addf(out, "  ... and %zu more\n", left);
	if (line.err)
		out->err = line.err;
	sbuf_release(&line);
	free(u);
	return 0;
}

static int cmp_type_file(const void *pa, const void *pb)
{
	const struct fp *a = *(const struct fp *const *)pa;
	const struct fp *b = *(const struct fp *const *)pb;
	int c = cmp_nstr(a->f->type, b->f->type);

	return c ? c : cmp_nstr(a->f->file, b->f->file);
}

/*
 * A finding whose line was edited but not fixed (the same type in the
 * same file, other text: DEVICE_ATTR(mode, 0666, ...) became
 * DEVICE_ATTR_RW(mode)) is still there, not one fixed and one new.
 * Pairs the unmatched findings of both sides by type and file.
 */
static int pair_changed_lines(struct fp *cur, size_t ncur, struct fp *prev,
			      size_t nprev, long *still)
{
	struct fp **a, **b;
	size_t i, j, na = 0, nb = 0;

	a = calloc(ncur + 1, sizeof(*a));
	b = calloc(nprev + 1, sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	for (i = 0; i < ncur; i++)
		if (!cur[i].matched)
			a[na++] = &cur[i];
	for (j = 0; j < nprev; j++)
		if (!prev[j].matched)
			b[nb++] = &prev[j];
	qsort(a, na, sizeof(*a), cmp_type_file);
	qsort(b, nb, sizeof(*b), cmp_type_file);
	for (i = 0, j = 0; i < na && j < nb; ) {
		int c = cmp_type_file(&a[i], &b[j]);

		if (!c) {
			a[i++]->matched = 1;
			b[j++]->matched = 1;
			(*still)++;
		} else if (c < 0) {
			i++;
		} else {
			j++;
		}
	}
	free(a);
	free(b);
	return 0;
}

static int add_since(struct sbuf *out, const struct compose_review *r,
		     struct compose_stats *st)
{
	struct fp *cur = NULL, *prev = NULL;
	size_t i = 0, j = 0;
	int ret = -1;

	if (r->prev_version <= 0)
		return 0;
	cur = calloc(r->nfindings + 1, sizeof(*cur));
	prev = calloc(r->nprev + 1, sizeof(*prev));
	if (!cur || !prev)
		goto out;
	fill_fp(cur, r->findings, r->nfindings);
	fill_fp(prev, r->prev, r->nprev);
	qsort(cur, r->nfindings, sizeof(*cur), cmp_fp);
	qsort(prev, r->nprev, sizeof(*prev), cmp_fp);
	/* a multiset: each finding of one side matches at most one of the other */
	while (i < r->nfindings && j < r->nprev) {
		int c = strcmp(cur[i].fp, prev[j].fp);

		if (!c) {
			cur[i++].matched = 1;
			prev[j++].matched = 1;
			st->still++;
		} else if (c < 0) {
			i++;
		} else {
			j++;
		}
	}
	if (pair_changed_lines(cur, r->nfindings, prev, r->nprev, &st->still))
		goto out;
	st->added = (long)r->nfindings - st->still;
	st->fixed = (long)r->nprev - st->still;
	sbuf_addf(out, "Since v%d: %ld fixed, %ld new, %ld still there.\n",
		  r->prev_version, st->fixed, st->added, st->still);
	if (add_brief(out, "fixed:", prev, r->nprev, (size_t)st->fixed) ||
	    add_brief(out, "new:  ", cur, r->nfindings, (size_t)st->added))
		goto out;
	sbuf_addch(out, '\n');
	ret = 0;
out:
	free(cur);
	free(prev);
	return ret;
}

/* ---- merge readiness ---------------------------------------------------- */

/* The readiness of the series, a chk_result per part (readiness.h). */
static int readiness_of(const struct compose_finding *const *byplace, size_t n,
			struct chk_readiness *all)
{
	struct chk_finding *cf = NULL;
	struct chk_readiness one;
	size_t i = 0;
	int ret = -1;

	chk_readiness_init(&one);
	cf = calloc(n + 1, sizeof(*cf));
	if (!cf)
		goto out;
	while (i < n) {
		struct chk_result res;
		size_t j = i, k = 0;

		for (; j < n && byplace[j]->part == byplace[i]->part; j++) {
			int rule = byplace[j]->type ?
				rule_find(byplace[j]->type, strlen(byplace[j]->type)) : -1;

			/* an unknown type counts in no criterion */
			if (rule >= 0)
				cf[k++].rule = (enum rule_id)rule;
		}
		memset(&res, 0, sizeof(res));
		res.f = cf;
		res.n = k;
		chk_readiness_patch(&res, &one);
		chk_readiness_merge(all, &one);
		i = j;
	}
	ret = all->failed ? -1 : 0;
out:
	chk_readiness_release(&one);
	free(cf);
	return ret;
}

static int cmp_place(const void *pa, const void *pb)
{
	return cmp_where(*(const struct compose_finding *const *)pa,
			 *(const struct compose_finding *const *)pb);
}

/*
 * What a criterion's line says when nothing was found against it: what
 * was checked, never "ok" (only a stage that ran and passed says that).
 */
static const char *const nothing_found[CHK_CRIT__COUNT] = {
	[CHK_CRIT_SECURITY] = "no finding in the patch text",
	[CHK_CRIT_UAPI] = "no interface change found in the patch text",
	[CHK_CRIT_AFFECTS_OTHERS] = "no shared code changed, no driver on by default",
	[CHK_CRIT_MAINTAINER] = "no new file without a MAINTAINERS entry",
	[CHK_CRIT_COMPILES] = "no tree",
	[CHK_CRIT_WORKS] = "no load test",
	[CHK_CRIT_PROCESS] = "no sign-off or Fixes: problem found",
};

/*
 * The value of criterion c's line.  entries: the listed entries behind a
 * concern; kinds: what they are about (the process line), or NULL;
 * built: the compile stage ran (the security line then does not say
 * "not built").
 */
static void ready_text(struct sbuf *sb, int c, const struct chk_ready_crit *k,
		       size_t entries, const char *kinds, const char *note,
		       int pending, int built)
{
	if (pending) {
		sbuf_addstr(sb, "pending (the results will follow in a reply)");
		return;
	}
	if (k->state == CHK_READY_CONCERN && entries) {
		sbuf_addstr(sb, "concern");
		if (kinds && *kinds) {
			sbuf_addstr(sb, ": ");
			sbuf_addstr(sb, kinds);
		}
		sbuf_addf(sb, " (%zu finding%s below)", entries, entries == 1 ? "" : "s");
		return;
	}
	if (c == CHK_CRIT_COMPILES || c == CHK_CRIT_WORKS) {
		/* a stage's own verdict has no rule-table findings behind
		 * it: its note says why, or why it did not run */
		sbuf_addstr(sb, chk_ready_name(k->state));
		/* the compile stage's "ok on NAME at SHA12 (allmodconfig,
		 * ...)": where it was built follows the word */
		if (k->state == CHK_READY_OK && note && !strncmp(note, "on ", 3)) {
			sbuf_addch(sb, ' ');
			add_clean(sb, note, CMP_MAX_NOTE);
			return;
		}
		if (!note || !*note)
			note = k->state == CHK_READY_NOT_CHECKED ? nothing_found[c] : NULL;
		if (note) {
			sbuf_addstr(sb, " (");
			add_clean(sb, note, CMP_MAX_NOTE);
			sbuf_addch(sb, ')');
		}
		return;
	}
	if (k->state == CHK_READY_CONCERN) {
		sbuf_addstr(sb, "concern");
		return;
	}
	sbuf_addstr(sb, nothing_found[c]);
	if (c == CHK_CRIT_SECURITY && !built)
		sbuf_addstr(sb, " (not built)");
}

/* ---- the mail ----------------------------------------------------------- */

enum { B_SINCE, B_SECTIONS, B_NITS, B_FOOTER, B_BODY, B_SUBJECT, B_MISC, B_PROCESS,
       B_BUILD, B__COUNT };

#define CMP_MAX_BUILD_LINES	40	/* lines of the compile stage's details */

/*
 * The compile stage's details as a block: its lines as they are (their
 * indentation kept), each cleaned of control characters and cut, at
 * most CMP_MAX_BUILD_LINES, ending in a blank line.
 */
static void add_build(struct sbuf *out, const char *details)
{
	const char *p = details, *end;
	size_t lines = 0;

	if (!p || !*p)
		return;
	end = p + strlen(p);
	while (p < end && lines < CMP_MAX_BUILD_LINES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p), lead = 0;
		char *line = malloc(n + 1);

		if (!line)
			return;
		memcpy(line, p, n);
		line[n] = '\0';
		while (lead < n && line[lead] == ' ' && lead < 8)
			lead++;
		sbuf_add(out, line, lead);
		add_clean(out, line + lead, CMP_MAX_CODE);
		sbuf_addch(out, '\n');
		free(line);
		lines++;
		p = nl ? nl + 1 : end;
	}
	sbuf_addch(out, '\n');
}

/*
 * Findings a review leaves out, so each concern is said once and none is
 * an artefact of checking without a kernel tree:
 *  - checkpatch.pl's "Unknown commit id" (UNKNOWN_COMMIT_ID): the bot
 *    checks without a tree, so no id is known;
 *  - a finding that another, more precise one says again: in the same
 *    patch (same_line 0) or on the same line (1).
 */
static const struct {
	const char *drop, *kept;
	int same_line;
} same_concern[] = {
	{ "FILE_PATH_CHANGES", "NEW_FILE_NO_MAINTAINERS", 0 },
	{ "ALLOC_WITH_MULTIPLY", "ALLOC_SIZE_OVERFLOW", 1 },
	/* checkpatch.pl 6.12's "Prefer strscpy over strcpy", where reviewbot
	 * says what the copy risks */
	{ "STRCPY", "UNBOUNDED_STRING_COPY", 1 },
	{ "STRCPY", "STRING_COPY_CHECK", 1 },
	{ "STRCPY", "STRING_FUNC_DEPRECATED", 1 },
};

static int said_elsewhere(const struct compose_finding *f,
			  const struct compose_finding *all, size_t n)
{
	size_t i, k;

	if (f->type && !strcmp(f->type, "UNKNOWN_COMMIT_ID"))
		return 1;
	for (k = 0; k < sizeof(same_concern) / sizeof(same_concern[0]); k++) {
		if (!f->type || strcmp(f->type, same_concern[k].drop))
			continue;
		for (i = 0; i < n; i++)
			if (all[i].type && !strcmp(all[i].type, same_concern[k].kept) &&
			    all[i].part == f->part &&
			    (!same_concern[k].same_line ||
			     (!cmp_nstr(all[i].file, f->file) && all[i].line == f->line)))
				return 1;
	}
	return 0;
}

/* The findings of f[0, n) a review shows, into a new array (*out). */
static int keep_findings(const struct compose_finding *f, size_t n,
			 struct compose_finding **out, size_t *nout)
{
	size_t i;

	*nout = 0;
	*out = calloc(n + 1, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < n; i++)
		if (!said_elsewhere(&f[i], f, n))
			(*out)[(*nout)++] = f[i];
	return 0;
}

static int compose_review(const struct template_set *t, const struct compose_review *r,
			  struct sbuf *out, struct compose_stats *stats,
			  char *err, size_t errlen);

static int is_demoted(const struct compose_review *r, const char *type)
{
	size_t i;

	for (i = 0; type && i < r->ndemoted; i++)
		if (r->demoted[i] && !strcmp(r->demoted[i], type))
			return 1;
	return 0;
}

/*
 * Whether line l[0, n) is one that `b4 am` takes from a reply as a
 * trailer for the commit (b4's find_trailers(), follow-up rules): a first
 * word "token:" (two or more characters, the first a letter, digit or
 * '_') with text after it that holds an address ("...@...") or whose
 * token names a trailer that needs none (Fixes:, Link:, ...).
 */
static int b4_trailer(const char *l, size_t n)
{
	static const char *const nonperson[] = {
		"fixes", "subject", "date", "from", "link", "buglink", "closes",
		"obsoleted-by", "change-id", "base-commit", "message-id",
	};
	size_t i = 0, w, e, k;
	unsigned char c;

	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	w = i;
	while (i < n && l[i] != ' ' && l[i] != '\t')
		i++;
	e = i;
	c = w < n ? (unsigned char)l[w] : 0;
	if (e - w < 3 || l[e - 1] != ':' || !(isalnum(c) || c == '_' || c >= 0x80))
		return 0;
	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	if (i == e || i == n)
		return 0;	/* no blank after the ':', or nothing after it */
	if (memchr(l + i, '@', n - i))
		return 1;
	for (k = 0; k < sizeof(nonperson) / sizeof(nonperson[0]); k++)
		if (strlen(nonperson[k]) == e - w - 1 &&
		    !strncasecmp(l + w, nonperson[k], e - w - 1))
			return 1;
	return 0;
}

/* The footer's line naming the demoted types the mail counts as nits. */
static void add_demoted_note(struct sbuf *out, const struct compose_review *r)
{
	struct sbuf line;
	size_t i, j, named = 0;

	sbuf_init(&line, out->cap);
	sbuf_addstr(&line, "Counted with the nits on this list, as its maintainers"
		    " answered \"false-positive\" to them:");
	for (i = 0; i < r->ndemoted; i++) {
		for (j = 0; j < r->nfindings; j++)
			if (r->findings[j].type && r->demoted[i] &&
			    !strcmp(r->findings[j].type, r->demoted[i]))
				break;
		if (j == r->nfindings)
			continue;
		sbuf_addstr(&line, named++ ? ", " : " ");
		add_type(&line, r->demoted[i]);
	}
	sbuf_addch(&line, '.');
	if (named)
		template_wrap(out, line.buf, line.len, TEMPLATE_WRAP_COLUMNS, 0);
	if (line.err)
		out->err = line.err;
	sbuf_release(&line);
}

/*
 * The body into out, no line of it a trailer for b4 (b4_trailer()): a
 * maintainer who runs `b4 am -S` on the series would get it in the
 * commit.  The wrapping never starts a line with "token:"
 * (template_wrap()); a line that starts so by itself (a file or type
 * named so, in a finding or under "Since vN") gets "- " before it.  The
 * signature ("-- ") and what follows are b4's to skip.
 */
static void add_body(struct sbuf *out, const char *b, size_t len)
{
	const char *end = b + len, *nl;
	size_t n, ind;
	int sig = 0;

	while (b < end) {
		nl = memchr(b, '\n', (size_t)(end - b));
		n = nl ? (size_t)(nl - b) : (size_t)(end - b);
		if (n == 3 && !memcmp(b, "-- ", 3))
			sig = 1;
		if (!sig && b4_trailer(b, n)) {
			ind = strspn(b, " \t");
			if (ind > n)
				ind = n;
			sbuf_add(out, b, ind);
			sbuf_addstr(out, "- ");
			sbuf_add(out, b + ind, n - ind);
		} else {
			sbuf_add(out, b, n);
		}
		if (nl)
			sbuf_addch(out, '\n');
		b += n + (nl ? 1 : 0);
	}
}

int compose_review_mail(const struct template_set *t, const struct compose_review *r,
			struct sbuf *out, struct compose_stats *stats,
			char *err, size_t errlen)
{
	struct compose_review rr;
	struct compose_finding *cur = NULL, *prev = NULL;
	int ret;

	if (!t || !r || (r->nfindings && !r->findings) || (r->nprev && !r->prev))
		return compose_review(t, r, out, stats, err, errlen);
	rr = *r;
	if (keep_findings(r->findings, r->nfindings, &cur, &rr.nfindings) ||
	    keep_findings(r->prev, r->nprev, &prev, &rr.nprev)) {
		free(cur);
		free(prev);
		sbuf_reset(out);
		set_err(err, errlen, "out of memory");
		return -1;
	}
	rr.findings = cur;
	rr.prev = prev;
	ret = compose_review(t, &rr, out, stats, err, errlen);
	free(cur);
	free(prev);
	return ret;
}

static int compose_review(const struct template_set *t, const struct compose_review *r,
			  struct sbuf *out, struct compose_stats *stats,
			  char *err, size_t errlen)
{
	const struct compose_finding **byplace = NULL;
	struct item *sorted = NULL;
	int *numbers = NULL;
	struct compose_stats st;
	struct chk_readiness rd;
	struct sbuf b[B__COUNT];
	struct sbuf ready[CHK_CRIT__COUNT];
	char msgid[256], num[4][32];
	const char *bot_name, *addr;
	char *bot_addr = NULL, *bot_version = NULL, *bot_name_c = NULL;
	size_t i, an, nplace = 0, entries[CHK_CRIT__COUNT] = { 0 };
	struct sbuf kinds;
	size_t secfix = 0;	/* security entries that are a SECURITY_FIX */
	int ret = -1, c;

	memset(&st, 0, sizeof(st));
	sbuf_init(&kinds, 512);
	chk_readiness_init(&rd);
	for (i = 0; i < B__COUNT; i++)
		sbuf_init(&b[i], COMPOSE_MAX_MAIL);
	for (i = 0; i < CHK_CRIT__COUNT; i++)
		sbuf_init(&ready[i], 1024);
	sbuf_reset(out);
	if (!t || !r) {
		set_err(err, errlen, "nothing to compose");
		goto out;
	}
	if (r->nfindings && !r->findings) {
		set_err(err, errlen, "findings missing");
		goto out;
	}

	sorted = calloc(r->nfindings + 1, sizeof(*sorted));
	byplace = calloc(r->nfindings + 1, sizeof(*byplace));
	numbers = calloc(r->nfindings + 1, sizeof(*numbers));
	if (!sorted || !byplace || !numbers)
		goto nomem;
	for (i = 0; i < r->nfindings; i++) {
		const struct compose_finding *f = &r->findings[i];

		sorted[i].f = f;
		/* a demoted type is a nit on this list, and no concern */
		if (is_demoted(r, f->type)) {
			sorted[i].cat = CAT_STYLE;
			sorted[i].nit = 1;
			st.demoted++;
			continue;
		}
		sorted[i].cat = cat_of(f);
		sorted[i].nit = sorted[i].cat == CAT_STYLE && !is_error(f);
		byplace[nplace++] = f;
	}
	qsort(sorted, r->nfindings, sizeof(*sorted), cmp_shown);
	qsort(byplace, nplace, sizeof(*byplace), cmp_place);
	if (group_items(sorted, r->nfindings))
		goto nomem;

	if (readiness_of(byplace, nplace, &rd))
		goto nomem;
	if (r->compiles_state > 0 && r->compiles_state <= CHK_READY_NOT_CHECKED + 1)
		rd.crit[CHK_CRIT_COMPILES].state = (enum chk_ready)(r->compiles_state - 1);
	if (r->works_state > 0 && r->works_state <= CHK_READY_NOT_CHECKED + 1)
		rd.crit[CHK_CRIT_WORKS].state = (enum chk_ready)(r->works_state - 1);
	/* what the checklist counts: the entries listed, not each finding;
	 * and whether anything is worth a mail */
	st.quiet = r->compiles_state != 1 + CHK_READY_CONCERN &&
		   r->works_state != 1 + CHK_READY_CONCERN;
	for (i = 0; i < r->nfindings; i++) {
		const struct item *x = &sorted[i];
		int rule = x->f->type ? rule_find(x->f->type, strlen(x->f->type)) : -1;
		int k = rule >= 0 ? chk_criterion_of((enum rule_id)rule) : -1;
		const char *kind = rule >= 0 ? chk_process_kind((enum rule_id)rule) : NULL;

		if (x->nit)
			continue;
		if (x->cat != CAT_STYLE)
			st.quiet = 0;
		if (k >= 0 && x->lead == i)
			entries[k]++;
		if (k == CHK_CRIT_SECURITY && x->lead == i && !strcmp(x->f->type, "SECURITY_FIX"))
			secfix++;
		if (k == CHK_CRIT_PROCESS && kind && !strstr(kinds.buf ? kinds.buf : "", kind)) {
			if (kinds.len)
				sbuf_addstr(&kinds, ", ");
			sbuf_addstr(&kinds, kind);
		}
	}
	for (c = 0; c < CHK_CRIT__COUNT; c++)
		ready_text(&ready[c], c, &rd.crit[c], entries[c],
			   c == CHK_CRIT_PROCESS ? kinds.buf : NULL,
			   c == CHK_CRIT_COMPILES ? r->compiles_note :
			   c == CHK_CRIT_WORKS ? r->works_note : NULL,
			   c == CHK_CRIT_COMPILES ? r->compiles_pending :
			   c == CHK_CRIT_WORKS ? r->works_pending : 0,
			   r->compiles_state == 1 + CHK_READY_OK ||
			   r->compiles_state == 1 + CHK_READY_CONCERN);
	/* a patch whose only security findings are the fix it makes fixes a
	 * bug: that is no concern about it, but news for the stable trees */
	if (rd.crit[CHK_CRIT_SECURITY].state == CHK_READY_CONCERN &&
	    secfix && secfix == entries[CHK_CRIT_SECURITY]) {
		sbuf_reset(&ready[CHK_CRIT_SECURITY]);
		sbuf_addf(&ready[CHK_CRIT_SECURITY], "fixes a security bug (%zu finding%s below)",
			  secfix, secfix == 1 ? "" : "s");
	}
	/* the process line only when something there blocks applying */
	if (rd.crit[CHK_CRIT_PROCESS].state == CHK_READY_CONCERN) {
		sbuf_reset(&b[B_MISC]);
		sbuf_addstr(&b[B_MISC], "  process:               ");
		sbuf_add(&b[B_MISC], ready[CHK_CRIT_PROCESS].buf, ready[CHK_CRIT_PROCESS].len);
		template_wrap(&b[B_PROCESS], b[B_MISC].buf, b[B_MISC].len,
			      TEMPLATE_WRAP_COLUMNS, 25);
		sbuf_reset(&b[B_MISC]);
	}

	if (add_since(&b[B_SINCE], r, &st))
		goto nomem;
	add_build(&b[B_BUILD], r->compiles_details);
	add_sections(&b[B_SECTIONS], sorted, r->nfindings, r->total, &st.shown,
		     r->findings, numbers);
	if (add_nits(&b[B_NITS], sorted, r->nfindings, r->total, &st.nits))
		goto nomem;
	st.clean = r->nfindings == 0;

	strip_id(r->bot.addr, &addr, &an);
	sbuf_add(&b[B_MISC], addr, an);
	bot_addr = clean_dup(b[B_MISC].buf, CMP_MAX_ADDR);
	bot_version = clean_dup(r->bot_version ? r->bot_version : REVIEWBOT_VERSION, 64);
	bot_name_c = clean_dup(r->bot.name ? r->bot.name : "reviewbot", CMP_MAX_NAME);
	if (!bot_addr || !bot_version || !bot_name_c)
		goto nomem;
	bot_name = *bot_name_c ? bot_name_c : "reviewbot";

	{
		const struct template_var fv[] = {
			{ "bot_name", bot_name },
			{ "bot_address", bot_addr },
			{ "bot_version", bot_version },
		};

		if (template_render(t, "footer.txt", fv, sizeof(fv) / sizeof(fv[0]),
				    &b[B_FOOTER], err, errlen))
			goto out;
		if (st.demoted)
			add_demoted_note(&b[B_FOOTER], r);
	}

	add_clean(&b[B_SUBJECT], r->subject, CMP_MAX_SUBJECT);
	subject_version_name(r->version, r->version_minor, num[0], sizeof(num[0]));
	snprintf(num[1], sizeof(num[1]), "%zu", r->patches);
	snprintf(num[2], sizeof(num[2]), "%d", r->total);
	snprintf(num[3], sizeof(num[3]), "%ld", st.shown);
	{
		char nits[32];
		const struct template_var v[] = {
			{ "subject", b[B_SUBJECT].buf },
			{ "series_version", num[0] },
			{ "patches", num[1] },
			{ "total", num[2] },
			{ "bot_name", bot_name },
			{ "bot_address", bot_addr },
			{ "bot_version", bot_version },
			{ "ready_security", ready[CHK_CRIT_SECURITY].buf },
			{ "ready_uapi", ready[CHK_CRIT_UAPI].buf },
			{ "ready_affects_others", ready[CHK_CRIT_AFFECTS_OTHERS].buf },
			{ "ready_maintainer", ready[CHK_CRIT_MAINTAINER].buf },
			{ "ready_compiles", ready[CHK_CRIT_COMPILES].buf },
			{ "ready_works", ready[CHK_CRIT_WORKS].buf },
			{ "ready_process", b[B_PROCESS].buf },
			{ "shown", num[3] },
			{ "nits_count", nits },
			{ "since", b[B_SINCE].buf },
			{ "build", b[B_BUILD].buf },
			{ "sections", b[B_SECTIONS].buf },
			{ "nits", b[B_NITS].buf },
			{ "footer", b[B_FOOTER].buf },
		};

		snprintf(nits, sizeof(nits), "%ld", st.nits);
		for (i = 0; i < B__COUNT; i++)
			if (b[i].err)
				goto toobig;
		for (i = 0; i < CHK_CRIT__COUNT; i++)
			if (ready[i].err)
				goto nomem;
		if (template_render(t, r->followup ? "followup.txt" :
				    st.clean && !r->compiles_state && !r->works_state &&
				    !r->compiles_pending && !r->works_pending ?
				    "review-clean.txt" : "review.txt",
				    v, sizeof(v) / sizeof(v[0]), &b[B_BODY], err, errlen))
			goto out;
	}

	if (r->message_id) {
		const char *m;
		size_t mn;

		strip_id(r->message_id, &m, &mn);
		if (!good_id(m, mn) || !memchr(m, '@', mn)) {
			set_err(err, errlen, "bad Message-ID for the review");
			goto out;
		}
		snprintf(msgid, sizeof(msgid), "%.*s", (int)mn, m);
	} else {
		compose_message_id(NULL, r->in_reply_to, r->version, r->version_minor,
				   r->bot.addr, msgid, sizeof(msgid));
	}
	if (add_headers(r, msgid, "auto-generated", out, err, errlen))
		goto out;
	sbuf_addch(out, '\n');
	add_body(out, b[B_BODY].buf, b[B_BODY].len);
	if (out->err == SBUF_ERR_NOMEM)
		goto nomem;
	if (out->err || out->len > COMPOSE_MAX_MAIL)
		goto toobig;
	/* the findings the mail covers, with their numbers */
	for (i = 0; r->cover && i < r->nfindings; i++)
		if (r->findings[i].id > 0) {
			r->cover[st.ncover].id = r->findings[i].id;
			r->cover[st.ncover++].num = numbers[i];
		}
	ret = 0;
	goto out;
toobig:
	set_err(err, errlen, "review mail larger than %zu bytes",
		out->cap < COMPOSE_MAX_MAIL ? out->cap : (size_t)COMPOSE_MAX_MAIL);
	goto out;
nomem:
	set_err(err, errlen, "out of memory");
out:
	if (ret)
		sbuf_reset(out);
	if (stats)
		*stats = st;
	free(sorted);
	free(byplace);
	free(numbers);
	free(bot_addr);
	free(bot_version);
	free(bot_name_c);
	chk_readiness_release(&rd);
	sbuf_release(&kinds);
	for (i = 0; i < B__COUNT; i++)
		sbuf_release(&b[i]);
	for (i = 0; i < CHK_CRIT__COUNT; i++)
		sbuf_release(&ready[i]);
	return ret;
}

/* ---- the answer to a command ------------------------------------------------ */

/* The review-shaped headers of answer h, for add_headers(). */
static void answer_head(struct compose_review *r, const struct compose_answer *h)
{
	memset(r, 0, sizeof(*r));
	r->bot = h->bot;
	r->bot_version = h->bot_version;
	r->to = h->to;
	r->subject = h->subject ? h->subject : "";
	r->in_reply_to = h->in_reply_to;
	r->references = h->references;
	r->nreferences = h->nreferences;
	r->date = h->date;
}

/*
 * The answers to commands share their shape: h's headers (To the sender
 * alone, threaded under the command, "Auto-Submitted: auto-replied"), a
 * body rendered from template tpl with the caller's own variables plus
 * {{address}}, {{bot_name}}, {{bot_address}} and {{bot_version}}, cleaned
 * here.  what names the mail in errors ("confirmation", "answer").
 */
#define ANSWER_MAX_VARS	8

static int compose_answer(const struct template_set *t, const char *tpl,
			  const char *what, const struct compose_answer *h,
			  const struct template_var *own, size_t nown,
			  struct sbuf *out, char *err, size_t errlen)
{
	struct template_var v[ANSWER_MAX_VARS + 4];
	struct compose_review r;
	struct sbuf body;
	char msgid[CMP_MAX_ID + 1];
	char *addr, *ver, *name, *baddr;
	const char *m;
	size_t mn;
	int ret = -1;

	sbuf_reset(out);
	sbuf_init(&body, COMPOSE_MAX_MAIL);
	addr = clean_dup(h->to.addr ? h->to.addr : "", CMP_MAX_ADDR);
	ver = clean_dup(h->bot_version ? h->bot_version : REVIEWBOT_VERSION, 64);
	name = clean_dup(h->bot.name && *h->bot.name ? h->bot.name : "reviewbot",
			 CMP_MAX_NAME);
	baddr = clean_dup(h->bot.addr ? h->bot.addr : "", CMP_MAX_ADDR);
	if (!addr || !ver || !name || !baddr)
		goto nomem;
	if (nown > ANSWER_MAX_VARS) {
		set_err(err, errlen, "too many template variables");
		goto out;
	}
	memcpy(v, own, nown * sizeof(v[0]));
	v[nown] = (struct template_var){ "address", addr };
	v[nown + 1] = (struct template_var){ "bot_name", name };
	v[nown + 2] = (struct template_var){ "bot_address", baddr };
	v[nown + 3] = (struct template_var){ "bot_version", ver };
	if (template_render(t, tpl, v, nown + 4, &body, err, errlen))
		goto out;
	strip_id(h->message_id, &m, &mn);
	if (!good_id(m, mn) || !memchr(m, '@', mn) || mn >= sizeof(msgid)) {
		set_err(err, errlen, "bad Message-ID for the %s", what);
		goto out;
	}
	snprintf(msgid, sizeof(msgid), "%.*s", (int)mn, m);
	answer_head(&r, h);
	if (add_headers(&r, msgid, "auto-replied", out, err, errlen))
		goto out;
	sbuf_addch(out, '\n');
	sbuf_add(out, body.buf, body.len);
	if (out->err == SBUF_ERR_NOMEM)
		goto nomem;
	if (out->err || out->len > COMPOSE_MAX_MAIL) {
		set_err(err, errlen, "%s mail too large", what);
		goto out;
	}
	ret = 0;
	goto out;
nomem:
	set_err(err, errlen, "out of memory");
out:
	if (ret)
		sbuf_reset(out);
	free(addr);
	free(ver);
	free(name);
	free(baddr);
	sbuf_release(&body);
	return ret;
}

int compose_confirm_mail(const struct template_set *t, const struct compose_confirm *c,
			 struct sbuf *out, char *err, size_t errlen)
{
	char *cmd, *eff, *tok;
	int ret = -1;

	cmd = clean_dup(c->command ? c->command : "", 64);
	eff = clean_dup(c->effect ? c->effect : "", 512);
	tok = clean_dup(c->token ? c->token : "", 128);
	if (!cmd || !eff || !tok) {
		sbuf_reset(out);
		set_err(err, errlen, "out of memory");
	} else {
		const struct template_var v[] = {
			{ "command", cmd },
			{ "effect", eff },
			{ "token", tok },
		};

		ret = compose_answer(t, c->template_name ? c->template_name : "confirm.txt",
				     "confirmation", &c->head,
				     v, sizeof(v) / sizeof(v[0]), out, err, errlen);
	}
	free(cmd);
	free(eff);
	free(tok);
	return ret;
}

/* ---- the answer to false-positive ------------------------------------------- */

/* p as a block: cleaned, wrapped, then a blank line ("" for NULL). */
static void add_paragraph(struct sbuf *out, const char *p)
{
	struct sbuf line;

	if (!p || !*p)
		return;
	sbuf_init(&line, COMPOSE_MAX_PARAGRAPH + 8);
	add_clean(&line, p, COMPOSE_MAX_PARAGRAPH);
	template_wrap(out, line.buf, line.len, TEMPLATE_WRAP_COLUMNS, 0);
	sbuf_addch(out, '\n');
	if (line.err)
		out->err = line.err;
	sbuf_release(&line);
}

int compose_feedback_mail(const struct template_set *t, const struct compose_feedback *f,
			  struct sbuf *out, char *err, size_t errlen)
{
	struct sbuf result, note;
	char *cmd = NULL;
	int ret = -1;

	sbuf_init(&result, 4 * COMPOSE_MAX_PARAGRAPH);
	sbuf_init(&note, 4 * COMPOSE_MAX_PARAGRAPH);
	if (!t || !f || !f->result) {
		sbuf_reset(out);
		set_err(err, errlen, "nothing to compose");
		goto out;
	}
	cmd = clean_dup(f->command ? f->command : "", 128);
	add_paragraph(&result, f->result);
	add_paragraph(&note, f->note);
	if (!cmd || result.err || note.err) {
		sbuf_reset(out);
		set_err(err, errlen, "out of memory");
		goto out;
	}
	{
		const struct template_var v[] = {
			{ "command", cmd },
			{ "result", result.buf },
			{ "note", note.buf },
		};

		ret = compose_answer(t, "feedback.txt", "answer", &f->head,
				     v, sizeof(v) / sizeof(v[0]), out, err, errlen);
	}
out:
	free(cmd);
	sbuf_release(&result);
	sbuf_release(&note);
	return ret;
}

/*
 * The answer to "query ..." (bot/command_query.c), from templates/
 * query.txt: headers as for a confirmation, {{results}} and {{link}}
 * blocks made by the caller with every text from the store already
 * cleaned.
 */
int compose_query_mail(const struct template_set *t, const struct compose_confirm *c,
		       const char *results, const char *link, struct sbuf *out,
		       char *err, size_t errlen)
{
	char *query;
	int ret = -1;

	query = clean_dup(c->command ? c->command : "", 4096);
	if (!query) {
		sbuf_reset(out);
		set_err(err, errlen, "out of memory");
	} else {
		const struct template_var v[] = {
			{ "query", query },
			{ "results", results ? results : "" },
			{ "link", link ? link : "" },
		};

		ret = compose_answer(t, "query.txt", "answer", &c->head,
				     v, sizeof(v) / sizeof(v[0]), out, err, errlen);
	}
	free(query);
	return ret;
}

/* ---- a queued mail, again ----------------------------------------------------- */

/*
 * The header named name (with its continuation lines) of a mail we made:
 * "Name: value\n", folded lines starting with a blank, the header block
 * ending at the first empty line.  *val and *vn: the value, folds included;
 * the header spans [*start, *end).  0 when found.
 */
static int own_header(const char *mail, const char *name, const char **start,
		      const char **end, const char **val, size_t *vn)
{
	size_t k = strlen(name);
	const char *l = mail, *nl;

	while (*l && *l != '\n') {
		nl = strchr(l, '\n');
		if (!nl)
			nl = l + strlen(l);
		if (!strncasecmp(l, name, k) && l[k] == ':') {
			const char *e = *nl ? nl + 1 : nl;

			while (*e == ' ' || *e == '\t') {
				const char *n2 = strchr(e, '\n');

				e = n2 ? n2 + 1 : e + strlen(e);
			}
			*start = l;
			*end = e;
			*val = l + k + 1;
			*vn = (size_t)(e - *val);
			return 0;
		}
		l = *nl ? nl + 1 : nl;
	}
	return -1;
}

int compose_mail_thread_ids(const char *mail, int (*cb)(void *arg, const char *id),
			    void *arg)
{
	static const char *const names[] = { "In-Reply-To", "References" };
	char id[CMP_MAX_ID + 1];
	const char *start, *end, *v, *lt, *gt;
	size_t vn, i;
	int ret;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (own_header(mail, names[i], &start, &end, &v, &vn))
			continue;
		while ((lt = memchr(v, '<', vn)) != NULL) {
			vn -= (size_t)(lt + 1 - v);
			v = lt + 1;
			gt = memchr(v, '>', vn);
			if (!gt)
				break;
			if ((size_t)(gt - v) < sizeof(id) && gt > v) {
				memcpy(id, v, (size_t)(gt - v));
				id[gt - v] = '\0';
				ret = cb(arg, id);
				if (ret)
					return ret;
			}
			vn -= (size_t)(gt + 1 - v);
			v = gt + 1;
		}
	}
	return 0;
}

int compose_mail_drop_cc(const char *mail, struct sbuf *out)
{
	const char *start, *end, *v;
	size_t vn;

	sbuf_reset(out);
	if (own_header(mail, "Cc", &start, &end, &v, &vn)) {
		sbuf_addstr(out, mail);
	} else {
		sbuf_add(out, mail, (size_t)(start - mail));
		sbuf_addstr(out, end);
	}
	return out->err ? -1 : 0;
}

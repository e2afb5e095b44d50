// SPDX-License-Identifier: GPL-2.0-only
/*
 * Patch subjects as git format-patch writes them ("[PATCH v3 2/7] foo",
 * git-format-patch(1) --subject-prefix, -v, --rfc) and as people edit
 * them by hand.  Tolerated deviations, all seen on real lists:
 *  - tags in any order and case ("[net-next PATCH v2 03/10]",
 *    "[PATCH 2/7 v3]", "[PATCH V2]"), glued ("PATCHv2", "PATCH-v2"),
 *    split over several groups ("[PATCH 06/10] [v4]"), split by commas;
 *  - a list's own tag before the patch tags ("[Intel-wired-lan] [PATCH]");
 *  - Mercurial's patchbomb numbers ("[PATCH 1 of 2]"), a number glued to
 *    the tag ("[PATCH1/8]", "[PATCH1 of 8]", "[v2PATCH1/4]"), a colon after
 *    the tags ("[Patch 2/2]: foo");
 *  - a group that numbers a part needs no PATCH word: Patchwork's own
 *    mbox export writes "[net,v2,1/2] foo" (a bare "[1/2] foo" too);
 *  - reply prefixes of many mail clients, repeated or counted ("Re: Re:",
 *    "Re[2]:", "AW:", "Antw:", "Re :");
 *  - control characters (a NUL, an unfolded CR LF) count as white space.
 * A group that never closes ends the tags: the rest is text.
 */
#include "subject.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../../checker/banned.h"

/* reply prefixes of mail clients (English, German, Nordic, Dutch, ...) */
static const char *const reply_words[] = {
	"re", "aw", "fwd", "fw", "sv", "antw", "vs", "wg", "odp", "tr",
};

struct cur {
	const char *s;
	size_t len, pos;
};

static int is_space(unsigned char c)
{
	return c == ' ' || c < 0x20 || c == 0x7f;
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static void skip_space(struct cur *c)
{
	while (c->pos < c->len && is_space((unsigned char)c->s[c->pos]))
		c->pos++;
}

/*
 * Parses up to 9 decimal digits (leading zeros allowed) of s[0, n)
 * starting at *i.  Returns the value, or -1 when there is no digit or
 * the number is too long to be a count (the caller sees it as out of
 * range).
 */
static long parse_num(const char *s, size_t n, size_t *i)
{
	long v = 0;
	size_t start = *i, sig = 0;

	while (*i < n && is_digit((unsigned char)s[*i])) {
		if (v || s[*i] != '0')
			sig++;
		if (sig > 9)
			v = 1000000000L;	/* saturate */
		else
			v = v * 10 + (s[*i] - '0');
		(*i)++;
	}
	return *i == start ? -1 : v;
}

/*
 * A reply prefix at c: a word of reply_words, an optional "[N]" or "(N)"
 * count, optional blanks and a colon.  Moves past it and returns 1.
 */
static int eat_reply(struct cur *c)
{
	const char *s = c->s + c->pos;
	size_t n = c->len - c->pos, i, w;

	for (w = 0; w < sizeof(reply_words) / sizeof(reply_words[0]); w++) {
		size_t wl = strlen(reply_words[w]);

		if (n < wl || strncasecmp(s, reply_words[w], wl))
			continue;
		i = wl;
		if (i < n && (s[i] == '[' || s[i] == '(')) {
			char close = s[i] == '[' ? ']' : ')';
			size_t j = i + 1;

			if (parse_num(s, n, &j) < 0 || j >= n || s[j] != close)
				continue;
			i = j + 1;
		}
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i < n && s[i] == ':') {
			c->pos += i + 1;
			return 1;
		}
	}
	return 0;
}

struct tags {
	int patch;		/* a group named PATCH or RFC */
	int have_version, have_numbers;
	int of_pending;		/* "M of": M is in part, "N" may follow */
	long part, total;
	size_t plen;
	int prefix_full;
};

static void prefix_add(struct subject *out, struct tags *t, const char *tok,
		       size_t n)
{
	size_t need = n + (t->plen ? 1 : 0);

	/* cut at a token boundary: once one does not fit, none follows */
	if (t->prefix_full || need > sizeof(out->prefix) - 1 - t->plen) {
		t->prefix_full = 1;
		return;
	}
	if (t->plen)
		out->prefix[t->plen++] = ' ';
	memcpy(out->prefix + t->plen, tok, n);
	t->plen += n;
	out->prefix[t->plen] = '\0';
}

/* "v3", "V3", "v5.1": 1..SUBJECT_MAX_VERSION, minor 0..SUBJECT_MAX_VERSION */
static int parse_version(const char *tok, size_t n, int *major, int *minor)
{
	size_t i = 1;
	long ma, mi = 0;

	if (n < 2 || (tok[0] != 'v' && tok[0] != 'V'))
		return 0;
	ma = parse_num(tok, n, &i);
	if (ma < 1 || ma > SUBJECT_MAX_VERSION)
		return 0;
	if (i < n && tok[i] == '.') {
		i++;
		mi = parse_num(tok, n, &i);
		if (mi < 0 || mi > SUBJECT_MAX_VERSION)
			return 0;
	}
	if (i != n)
		return 0;
	*major = (int)ma;
	*minor = (int)mi;
	return 1;
}

/* "M/N" with digits only; sets *m, *nn (saturated when huge) */
static int parse_numbers(const char *tok, size_t n, long *m, long *nn)
{
	size_t i = 0;

	*m = parse_num(tok, n, &i);
	if (*m < 0 || i >= n || tok[i] != '/')
		return 0;
	i++;
	*nn = parse_num(tok, n, &i);
	return *nn >= 0 && i == n;
}

/* "RFT/RFC": a token of words split by '/' that names RFC */
static int names_rfc(const char *tok, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t j = i;

		while (j < n && tok[j] != '/')
			j++;
		if (j - i == 3 && !strncasecmp(tok + i, "RFC", 3))
			return 1;
		i = j + 1;
	}
	return 0;
}

static void take_token(struct subject *out, struct tags *t, const char *tok,
		       size_t n)
{
	int ma, mi;
	long m, nn;

	if (n == 5 && !strncasecmp(tok, "PATCH", 5)) {
		t->patch = 1;
		return;
	}
	/* "PATCHv2", "PATCH-v2" */
	if (n > 5 && !strncasecmp(tok, "PATCH", 5)) {
		size_t skip = tok[5] == '-' ? 6 : 5;

		if (parse_version(tok + skip, n - skip, &ma, &mi)) {
			t->patch = 1;
			if (!t->have_version) {
				t->have_version = 1;
				out->version = ma;
				out->version_minor = mi;
			}
			return;
		}
		/* "PATCH1/8", seen in the wild (Patchwork parses it too) */
		if (!t->have_numbers && parse_numbers(tok + 5, n - 5, &m, &nn)) {
			t->patch = 1;
			t->have_numbers = 1;
			t->part = m;
			t->total = nn;
			return;
		}
	}
	/* "v2PATCH1/4": a version glued in front (Patchwork's tests) */
	if (n >= 7 && (tok[0] == 'v' || tok[0] == 'V') && is_digit((unsigned char)tok[1])) {
		size_t k = 1;

		while (k < n && is_digit((unsigned char)tok[k]))
			k++;
		if (n - k >= 5 && !strncasecmp(tok + k, "PATCH", 5) &&
		    parse_version(tok, k, &ma, &mi)) {
			if (!t->have_version) {
				t->have_version = 1;
				out->version = ma;
				out->version_minor = mi;
			}
			take_token(out, t, tok + k, n - k);
			return;
		}
	}
	if (n == 6 && !strncasecmp(tok, "RESEND", 6)) {
		out->resend = 1;
		return;
	}
	if (!t->have_version && parse_version(tok, n, &ma, &mi)) {
		t->have_version = 1;
		out->version = ma;
		out->version_minor = mi;
		return;
	}
	if (!t->have_numbers && parse_numbers(tok, n, &m, &nn)) {
		t->have_numbers = 1;
		t->part = m;
		t->total = nn;
		return;
	}
	if (names_rfc(tok, n)) {
		t->patch = 1;
		out->rfc = 1;
	}
	prefix_add(out, t, tok, n);
}

/* A token of digits only, at most 9 of them (parse_num saturates). */
static int all_digits(const char *tok, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!is_digit((unsigned char)tok[i]))
			return 0;
	return n > 0;
}

/*
 * Tokens of the group g[0, n), split on white space and commas.  The
 * three tokens "M of N" (hg email) are one part number; a group that
 * numbers a part is a patch's tags, PATCH or not.
 */
static void take_group(struct subject *out, struct tags *t, const char *g,
		       size_t n)
{
	size_t i = 0, j;
	long num[2];
	int numbered = t->have_numbers;

	while (i < n) {
		size_t start, len, k, glued;

		while (i < n && (is_space((unsigned char)g[i]) || g[i] == ','))
			i++;
		start = i;
		while (i < n && !is_space((unsigned char)g[i]) && g[i] != ',')
			i++;
		len = i - start;
		if (!len)
			continue;
		/* "PATCH1 of 8": the tag glued to M */
		glued = !t->have_numbers && len > 5 && !strncasecmp(g + start, "PATCH", 5) &&
			all_digits(g + start + 5, len - 5) ? 5 : 0;
		if (!t->have_numbers && all_digits(g + start + glued, len - glued)) {
			/* "M of N": look two tokens ahead */
			j = i;
			while (j < n && is_space((unsigned char)g[j]))
				j++;
			if (n - j > 3 && !strncasecmp(g + j, "of", 2) &&
			    is_space((unsigned char)g[j + 2])) {
				j += 3;
				while (j < n && is_space((unsigned char)g[j]))
					j++;
				for (k = j; k < n && is_digit((unsigned char)g[k]); k++)
					;
				if (k > j && (k == n || is_space((unsigned char)g[k]) ||
					      g[k] == ',')) {
					k = 0;
					num[0] = parse_num(g + start + glued, len - glued, &k);
					if (glued)
						t->patch = 1;
					k = j;
					while (k < n && is_digit((unsigned char)g[k]))
						k++;
					len = k - j;
					k = 0;
					num[1] = parse_num(g + j, len, &k);
					t->have_numbers = 1;
					t->part = num[0];
					t->total = num[1];
					i = j + len;
					continue;
				}
			}
		}
		take_token(out, t, g + start, len);
	}
	if (!numbered && t->have_numbers)
		t->patch = 1;
}

/*
 * Copies s[0, n) into out->normalised with runs of white space made one
 * space, leading and trailing space dropped.  When the input was cut at
 * SUBJECT_MAX, an incomplete UTF-8 sequence at the end is dropped too.
 */
static void normalise(struct subject *out, const char *s, size_t n, int cut)
{
	size_t o = 0, i;
	int pending = 0;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (is_space(ch)) {
			pending = o > 0;
			continue;
		}
		if (pending && o < SUBJECT_MAX)
			out->normalised[o++] = ' ';
		pending = 0;
		if (o < SUBJECT_MAX)
			out->normalised[o++] = (char)ch;
	}
	if (cut) {
		/* back over continuation bytes to the lead byte, if any */
		size_t j = o, k;

		while (j > 0 && ((unsigned char)out->normalised[j - 1] & 0xc0) == 0x80 &&
		       o - j < 3)
			j--;
		if (j > 0 && ((unsigned char)out->normalised[j - 1] & 0xc0) == 0xc0) {
			unsigned char lead = (unsigned char)out->normalised[j - 1];
			size_t want = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;

			k = o - (j - 1);
			if (k < want)
				o = j - 1;
		}
		while (o > 0 && out->normalised[o - 1] == ' ')
			o--;
	}
	out->normalised[o] = '\0';
}

void subject_parse(const char *s, size_t len, struct subject *out)
{
	subject_parse_max(s, len, SUBJECT_MAX_PARTS, out);
}

void subject_parse_max(const char *s, size_t len, int max_parts, struct subject *out)
{
	struct cur c;
	struct tags t;
	int reply = 0, cut = 0, bad = 0;

	memset(out, 0, offsetof(struct subject, normalised));
	out->normalised[0] = '\0';
	out->kind = SUBJ_OTHER;
	out->version = 1;
	out->part = 1;
	out->total = 1;
	memset(&t, 0, sizeof(t));
	if (max_parts < 1)
		max_parts = 1;
	if (max_parts > SUBJECT_CEIL_PARTS)
		max_parts = SUBJECT_CEIL_PARTS;
	if (!s)
		len = 0;
	if (len > SUBJECT_MAX) {
		len = SUBJECT_MAX;
		cut = 1;
	}
	c.s = s;
	c.len = len;
	c.pos = 0;

	for (;;) {
		const char *g, *close;

		skip_space(&c);
		if (c.pos >= c.len)
			break;
		/* replies wrap the tags; after a patch's tags "Re:" is text */
		if (!t.patch && eat_reply(&c)) {
			reply = 1;
			continue;
		}
		if (c.s[c.pos] != '[')
			break;
		g = c.s + c.pos + 1;
		close = memchr(g, ']', c.len - c.pos - 1);
		if (!close)
			break;	/* never closed: text, not tags */
		take_group(out, &t, g, (size_t)(close - g));
		c.pos = (size_t)(close - c.s) + 1;
	}

	/* "[Patch 2/2]: foo": the colon belongs to the tags */
	if (t.patch && c.pos > 0 && c.pos < c.len && c.s[c.pos - 1] == ']' &&
	    c.s[c.pos] == ':')
		c.pos++;
	normalise(out, c.s ? c.s + c.pos : "", c.len - c.pos, cut);
	out->has_version = t.have_version;

	if (t.have_numbers) {
		if (t.total == 0 || t.total > max_parts ||
		    t.part > t.total)
			bad = 1;
		else {
			out->part = (int)t.part;
			out->total = (int)t.total;
			out->has_numbers = 1;
		}
	}
	out->bad_numbers = bad;
	if (bad)
		out->kind = SUBJ_OTHER;
	else if (reply)
		out->kind = SUBJ_REPLY;
	else if (!t.patch)
		out->kind = SUBJ_OTHER;
	else
		out->kind = out->part == 0 ? SUBJ_COVER : SUBJ_PATCH;
}

const char *subject_kind_name(enum subject_kind k)
{
	switch (k) {
	case SUBJ_OTHER:
		return "other";
	case SUBJ_PATCH:
		return "patch";
	case SUBJ_COVER:
		return "cover";
	case SUBJ_REPLY:
		return "reply";
	}
	return "unknown";
}

void subject_version_name(int version, int version_minor, char *buf, size_t n)
{
	if (version_minor)
		snprintf(buf, n, "v%d.%d", version, version_minor);
	else
		snprintf(buf, n, "v%d", version);
}

void subject_version_tag(int version, int version_minor, char *buf, size_t n)
{
	size_t k;

	if (!n)
		return;
	buf[0] = '\0';
	if (version <= 1 && !version_minor)
		return;
	subject_version_name(version, version_minor, buf, n);
	k = strlen(buf);
	if (k + 1 < n) {
		buf[k] = ' ';
		buf[k + 1] = '\0';
	}
}

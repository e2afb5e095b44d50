// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pieces reviewbot's own checks share (rv.h): calls gathered across
 * lines, an added line's twin in its change block, the function a line
 * is in.  Works on the sanitised lines (strings "XXX", comments masked),
 * so nothing inside a comment or a string literal matches.
 */
#include <string.h>

#include "rv.h"

#include "../banned.h"

int rv_is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

int rv_is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\x1c' || c == '\n' || c == '\r';
}

/* A line of a hunk: '+', ' ' or '-'. */
static int hunk_line(const char *l)
{
	return l && (l[0] == '+' || l[0] == ' ' || l[0] == '-');
}

/* The next line after i on side ('+' skips '-' lines and the other way). */
static long next_on_side(struct eng *e, long i, char side)
{
	char other = side == '+' ? '-' : '+';

	do {
		i++;
	} while ((size_t)i < e->nlines && e->lines[i][0] == other);
	return i;
}

int rv_gather_call(struct eng *e, long idx, size_t open, char side,
		   struct rv_call *c)
{
	struct sbuf sb, rb;
	long i = idx;
	size_t p = open + 1, k, start = 0;
	int depth = 1, nl = 0, ok = 0;

	memset(c, 0, sizeof(*c));
	sbuf_init(&sb, 1u << 16);
	sbuf_init(&rb, 1u << 16);
	while (!ok) {
		const char *l = e->lines[i], *r = e->rawlines[i];
		/* the raw line where sanitising kept the length */
		int same = strlen(l) == strlen(r);

		for (; l[p]; p++) {
			char ch = l[p];

			if (ch == '(' || ch == '[' || ch == '{') {
				depth++;
			} else if (ch == ')' || ch == ']' || ch == '}') {
				if (--depth == 0) {
					p++;
					ok = 1;
					break;
				}
			}
			sbuf_addch(&sb, ch == '\x1c' ? ' ' : ch);
			sbuf_addch(&rb, ch == '\x1c' ? ' ' : same ? r[p] : ch);
		}
		if (ok)
			break;
		i = next_on_side(e, i, side);
		if ((size_t)i >= e->nlines || !hunk_line(e->lines[i]) ||
		    ++nl > RV_MAX_LINES)
			break;
		sbuf_addch(&sb, ' ');
		sbuf_addch(&rb, ' ');
		p = 1;
	}
	if (!ok || sb.err || rb.err) {
		sbuf_release(&sb);
		sbuf_release(&rb);
		return 0;
	}
	c->text = eng_strndup(e, sb.buf, sb.len);
	c->raw = eng_strndup(e, rb.buf, rb.len);
	c->len = sb.len;
	sbuf_release(&sb);
	sbuf_release(&rb);
	if (e->line_skip)	/* out of scratch memory: c->text is shorter than c->len */
		return 0;

	/* what follows the ')': this line, then the next lines */
	for (nl = 0; nl < 3 && !c->after;) {
		const char *l = e->lines[i];

		for (; l[p] && !c->after; p++)
			if (!rv_is_blank(l[p]))
				c->after = l[p];
		i = next_on_side(e, i, side);
		if ((size_t)i >= e->nlines || !hunk_line(e->lines[i]))
			break;
		p = 1;
		nl++;
	}

	/* split at top-level commas */
	depth = 0;
	for (k = 0; k <= c->len && c->narg < RV_MAX_ARGS; k++) {
		char ch = k < c->len ? c->text[k] : ',';

		if (ch == '(' || ch == '[' || ch == '{')
			depth++;
		else if (ch == ')' || ch == ']' || ch == '}')
			depth--;
		else if (ch == ',' && depth == 0) {
			size_t a = start, b = k;

			while (a < b && rv_is_blank(c->text[a]))
				a++;
			while (b > a && rv_is_blank(c->text[b - 1]))
				b--;
			c->off[c->narg] = a;
			c->n[c->narg] = b - a;
			c->narg++;
			start = k + 1;
		}
	}
	if (c->narg == 1 && c->n[0] == 0)
		c->narg = 0;
	return 1;
}

char *rv_arg(struct eng *e, const struct rv_call *c, size_t i)
{
	char *s = eng_strndup(e, c->text + c->off[i], c->n[i]);
	size_t r, w = 0;

	for (r = 0; s[r]; r++) {
		if (rv_is_blank(s[r]) && (w == 0 || s[w - 1] == ' '))
			continue;
		s[w++] = rv_is_blank(s[r]) ? ' ' : s[r];
	}
	while (w > 0 && s[w - 1] == ' ')
		w--;
	s[w] = 0;
	return s;
}

char *rv_raw_arg(struct eng *e, const struct rv_call *c, size_t i)
{
	return eng_strndup(e, c->raw + c->off[i], c->n[i]);
}

char *rv_squeeze(struct eng *e, const char *s)
{
	char *r = eng_strdup(e, s), *w = r;
	const char *p;

	for (p = r; *p; p++)
		if (!rv_is_blank(*p))
			*w++ = *p;
	*w = '\0';
	return r;
}

void rv_block(struct eng *e, long idx, long *lo, long *hi)
{
	long a = idx, b = idx + 1;

	while (a > 0 && (e->lines[a - 1][0] == '-' || e->lines[a - 1][0] == '+') &&
	       strncmp(e->rawlines[a - 1], "--- ", 4) &&
	       strncmp(e->rawlines[a - 1], "+++ ", 4))
		a--;
	while ((size_t)b < e->nlines &&
	       (e->lines[b][0] == '-' || e->lines[b][0] == '+') &&
	       strncmp(e->rawlines[b], "--- ", 4))
		b++;
	*lo = a;
	*hi = b;
}

/* Whether line l is a file header ("--- a/", "+++ b/", "diff --git"). */
static int file_header(const char *raw)
{
	return !strncmp(raw, "--- ", 4) || !strncmp(raw, "+++ ", 4) ||
	       !strncmp(raw, "diff --git ", 11);
}

int rv_twin_same(struct eng *e, long idx)
{
	const char *self = rv_squeeze(e, e->rawlines[idx] + 1);
	char other = e->rawlines[idx][0] == '-' ? '+' : '-';
	long lo, hi, i;

	rv_block(e, idx, &lo, &hi);
	for (i = lo; i < hi; i++)
		if (e->rawlines[i][0] == other &&
		    !strcmp(self, rv_squeeze(e, e->rawlines[i] + 1)))
			return 1;
	/* moved: the same text removed elsewhere in the file */
	if (!*self)
		return 0;
	for (i = idx - 1; i >= 0 && i >= idx - RV_NEAR; i--) {
		const char *r = e->rawlines[i];

		if (file_header(r))
			break;
		if (r[0] == other && !strcmp(self, rv_squeeze(e, r + 1)))
			return 1;
	}
	for (i = idx + 1; (size_t)i < e->nlines && i <= idx + RV_NEAR; i++) {
		const char *r = e->rawlines[i];

		if (file_header(r))
			break;
		if (r[0] == other && !strcmp(self, rv_squeeze(e, r + 1)))
			return 1;
	}
	return 0;
}

int rv_twin_call(struct eng *e, long idx, const char *fnpat, size_t arg,
		 const char *key, const char **fn)
{
	const char *pat = eng_pat(e, "(?<![\\w.>])(%s)\\s*\\(", fnpat);
	const char *want = key ? rv_squeeze(e, key) : NULL;
	long lo, hi, i;

	rv_block(e, idx, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const char *l = e->lines[i];
		size_t pos = 0, len = strlen(l);
		struct re_m m;
		int guard;

		if (l[0] != '-')
			continue;
		for (guard = 0; guard < 16 && pos < len &&
		     re_find(e->rc, pat, l, len, pos, &m); guard++) {
			struct rv_call c;

			pos = re_end(&m, 0);
			if (want && (!rv_gather_call(e, i, pos - 1, '-', &c) ||
				     c.narg <= arg ||
				     strcmp(want, rv_squeeze(e, rv_arg(e, &c, arg)))))
				continue;
			if (fn)
				*fn = eng_mcap(e, &m, 1);
			return 1;
		}
	}
	return 0;
}

int rv_twin_has(struct eng *e, long idx, const char *text)
{
	const char *want = rv_squeeze(e, text);
	long lo, hi, i;

	if (!*want)
		return 0;
	rv_block(e, idx, &lo, &hi);
	for (i = lo; i < hi; i++)
		if (e->lines[i][0] == '-' && strstr(rv_squeeze(e, e->lines[i] + 1), want))
			return 1;
	return 0;
}

/* The text after a hunk's "@@ -a,b +c,d @@". */
static const char *hunk_context(struct eng *e, long i)
{
	const char *r = e->rawlines[i], *p = strstr(r + 2, "@@");

	return p ? p + 2 : "";
}

const char *rv_function(struct eng *e, long idx, long *start)
{
	long i;

	*start = idx;
	for (i = idx; i >= 0 && i > idx - RV_FUNC_LINES; i--) {
		const char *l = e->lines[i];

		if (!strncmp(e->rawlines[i], "@@ ", 3)) {
			*start = i + 1;
			return hunk_context(e, i);
		}
		if (!hunk_line(l) || file_header(e->rawlines[i]))
			break;
		if (l[0] == '-')
			continue;
		*start = i;
		if (i < idx && l[1] == '}')
			return "";	/* the end of the function before */
		/* a definition's header starts in the first column */
		if (rv_is_ident((unsigned char)l[1]) && strchr(l, '(') &&
		    !MQ(e, ";\\s*$", l) && !MQ(e, "^.\\s*(?:typedef|struct\\s+\\w+\\s*\\{|enum\\b|union\\b)", l)) {
			const char *h = l + 1;
			long k = i;
			int n = 0;

			while (!strchr(h, ')') && n < 4 && (size_t)k + 1 < e->nlines &&
			       e->lines[k + 1][0] != '-' && hunk_line(e->lines[k + 1])) {
				k++;
				n++;
				h = eng_cat(e, h, e->lines[k] + 1);
			}
			return h;
		}
	}
	return "";
}

const char *rv_function_name(struct eng *e, const char *header)
{
	struct re_m m;

	if (!re_match(e->rc, "(\\w+)\\s*\\(", header, &m))
		return "";
	return eng_mcap(e, &m, 1);
}

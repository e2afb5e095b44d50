// SPDX-License-Identifier: GPL-2.0-only
/*
 * re_ops: Perl's operations on a match, built on re_find(): the groups
 * ($1.. and their offsets), s///, a count of matches, and \Q..\E.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "re.h"

#include <pcre2.h>
#include <string.h>

#include "re_lits.h"
#include "../banned.h"

int re_cap_defined(const struct re_m *m, int i)
{
	return i >= 0 && i <= RE_MAXCAP && m->ov[2 * i] != PCRE2_UNSET;
}

const char *re_cap(const struct re_m *m, int i, size_t *len)
{
	if (!re_cap_defined(m, i)) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = m->ov[2 * i + 1] - m->ov[2 * i];
	return m->s + m->ov[2 * i];
}

int re_cap_add(const struct re_m *m, int i, struct sbuf *out)
{
	size_t n;
	const char *p = re_cap(m, i, &n);

	if (!p)
		return 0;
	sbuf_add(out, p, n);
	return 1;
}

const char *re_cap_str(const struct re_m *m, int i, char *buf, size_t sz)
{
	size_t n;
	const char *p = re_cap(m, i, &n);

	if (!sz)
		return buf;
	if (!p)
		n = 0;
	if (n >= sz)
		n = sz - 1;
	if (n)
		memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

size_t re_start(const struct re_m *m, int i)
{
	return re_cap_defined(m, i) ? m->ov[2 * i] : 0;
}

size_t re_end(const struct re_m *m, int i)
{
	return re_cap_defined(m, i) ? m->ov[2 * i + 1] : 0;
}

int re_subst(struct re_ctx *rc, const char *pat, const char *repl,
	     const char *s, size_t n, int global, struct sbuf *out)
{
	struct re_m m;
	size_t pos = 0, last = 0;
	int count = 0;
	struct sbuf res;

	sbuf_init(&res, out->cap);
	while (pos <= n && re_find(rc, pat, s, n, pos, &m)) {
		const char *r = repl;
		size_t ms = m.ov[0], me = m.ov[1];

		sbuf_add(&res, s + last, ms - last);
		while (*r) {
			if (*r == '\\' && r[1]) {
				sbuf_addch(&res, r[1]);
				r += 2;
			} else if (*r == '$' && r[1] >= '0' && r[1] <= '9') {
				re_cap_add(&m, r[1] - '0', &res);
				r += 2;
			} else if (*r == '$' && r[1] == '{') {
				int g = 0;

				r += 2;
				while (*r >= '0' && *r <= '9')
					g = g * 10 + (*r++ - '0');
				if (*r == '}')
					r++;
				re_cap_add(&m, g, &res);
			} else {
				sbuf_addch(&res, *r++);
			}
		}
		last = me;
		count++;
		if (!global)
			break;
		if (me == ms) {
			/* empty match: copy one byte and move on, as Perl does */
			if (me < n)
				sbuf_addch(&res, s[me]);
			last = me + 1;
			pos = me + 1;
			if (pos > n)
				break;
		} else {
			pos = me;
		}
	}
	if (last < n)
		sbuf_add(&res, s + last, n - last);
	sbuf_reset(out);
	sbuf_add(out, res.buf, res.len);
	sbuf_release(&res);
	return count;
}

int re_subst_sb(struct re_ctx *rc, const char *pat, const char *repl,
		struct sbuf *sb, int global)
{
	struct sbuf tmp;
	int count;

	sbuf_init(&tmp, sb->cap);
	count = re_subst(rc, pat, repl, sb->buf, sb->len, global, &tmp);
	if (count) {
		sbuf_reset(sb);
		sbuf_add(sb, tmp.buf, tmp.len);
	}
	sbuf_release(&tmp);
	return count;
}

int re_count(struct re_ctx *rc, const char *pat, const char *s, size_t n)
{
	struct re_m m;
	size_t pos = 0;
	int count = 0;

	while (pos <= n && re_find(rc, pat, s, n, pos, &m)) {
		count++;
		pos = m.ov[1] > m.ov[0] ? m.ov[1] : m.ov[1] + 1;
	}
	return count;
}

void re_quote(const char *s, size_t n, struct sbuf *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!is_name_char(c) && c < 0x80)
			sbuf_addch(out, '\\');
		sbuf_addch(out, c);
	}
}

// SPDX-License-Identifier: GPL-2.0-only
/* Stable backports recognised from their subject and commit message
 * (backport.h). */
#include "backport.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mail/subject.h"
#include "../checker/banned.h"

/* The digits at s[0, n): their count when 1 to max, else 0. */
static size_t digits(const char *s, size_t n, size_t max)
{
	size_t i = 0;

	while (i < n && i <= max && isdigit((unsigned char)s[i]))
		i++;
	return i >= 1 && i <= max ? i : 0;
}

/*
 * A stable branch named by tag t[0, n): [linux-]MAJOR.MINOR[.SUB] with
 * an optional ".y", ".x" or "-stable"; MAJOR 2 to 99.
 */
static int stable_branch(const char *t, size_t n)
{
	size_t i = 0, k;

	if (n > 6 && !strncasecmp(t, "linux-", 6))
		i = 6;
	k = digits(t + i, n - i, 2);
	if (!k || (k == 1 && t[i] < '2'))
		return 0;
	i += k;
	if (i >= n || t[i] != '.')
		return 0;
	k = digits(t + i + 1, n - i - 1, 3);
	if (!k)
		return 0;
	i += 1 + k;
	if (i < n && t[i] == '.' && (k = digits(t + i + 1, n - i - 1, 3)) != 0)
		i += 1 + k;
	if (i == n)
		return 1;
	if (n - i == 2 && t[i] == '.' && strchr("yYxX", t[i + 1]))
		return 1;
	return n - i == 7 && !strncasecmp(t + i, "-stable", 7);
}

int backport_subject(const char *s, size_t n, char *why, size_t whylen)
{
	struct subject sj;
	const char *p;

	subject_parse(s, n, &sj);
	if (sj.kind != SUBJ_PATCH && sj.kind != SUBJ_COVER)
		return 0;
	for (p = sj.prefix; *p; ) {
		size_t k;

		while (*p == ' ')
			p++;
		k = strcspn(p, " ");
		if (k && ((k == 7 && !strncasecmp(p, "AUTOSEL", 7)) ||
			  (k == 6 && !strncasecmp(p, "stable", 6)) || stable_branch(p, k))) {
			if (why && whylen)
				snprintf(why, whylen, "%.*s", (int)k, p);
			return 1;
		}
		p += k;
	}
	return 0;
}

static int hex_run(const char *s, size_t n, size_t *len)
{
	size_t i = 0;

	while (i < n && isxdigit((unsigned char)s[i]))
		i++;
	*len = i;
	return i >= 12 && i <= 40;
}

int backport_upstream_line(const char *l, size_t n)
{
	size_t i = 0, k;

	while (n && (l[n - 1] == ' ' || l[n - 1] == '\t' || l[n - 1] == '\r'))
		n--;
	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	l += i;
	n -= i;
	/* "[ Upstream commit SHA ]" */
	if (n > 2 && l[0] == '[' && l[n - 1] == ']') {
		size_t a = 1, b = n - 1;

		while (a < b && l[a] == ' ')
			a++;
		while (b > a && l[b - 1] == ' ')
			b--;
		if (b - a > 16 && !strncasecmp(l + a, "upstream commit ", 16) &&
		    hex_run(l + a + 16, b - a - 16, &k) && a + 16 + k == b)
			return 1;
		return 0;
	}
	/* "commit SHA upstream." */
	if (n > 7 && !strncasecmp(l, "commit ", 7) && hex_run(l + 7, n - 7, &k)) {
		const char *r = l + 7 + k;
		size_t rn = n - 7 - k;

		return (rn == 9 && !strncasecmp(r, " upstream", 9)) ||
		       (rn == 10 && !strncasecmp(r, " upstream.", 10));
	}
	return 0;
}

int backport_body(const char *b, size_t n)
{
	const char *end = b + n, *nl;
	size_t k;

	while (b < end) {
		nl = memchr(b, '\n', (size_t)(end - b));
		k = nl ? (size_t)(nl - b) : (size_t)(end - b);
		if ((k == 3 && !memcmp(b, "---", 3)) || (k >= 11 && !memcmp(b, "diff --git ", 11)))
			return 0;
		if (backport_upstream_line(b, k))
			return 1;
		b += k + (nl ? 1 : 0);
	}
	return 0;
}

int backport_report_on_upstream_line(const char *text)
{
	const char *p = text ? strstr(text, "\n#") : NULL, *e;

	if (!p)
		return 0;
	p = strchr(p + 1, '\n');
	if (!p)
		return 0;
	p++;
	e = strchr(p, '\n');
	return backport_upstream_line(p, e ? (size_t)(e - p) : strlen(p));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * qfilter: the filters of a query, checked and normalised once for the
 * command line, the web and mail (qfilter.h).
 */
#include "qfilter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../checker/rules.h"
#include "../checker/banned.h"

#define QF_MAX_MSGID	998	/* RFC 5322 2.1.1: a line */
#define QF_MAX_TIME	253402300799LL	/* 9999-12-31T23:59:59Z */

void qfilter_init(struct qfilter *f)
{
	memset(f, 0, sizeof(*f));
}

void qfilter_release(struct qfilter *f)
{
	free(f->author);
	free(f->file);
	free(f->list);
	free(f->category);
	free(f->type);
	free(f->series);
	memset(f, 0, sizeof(*f));
}

static void set_err(char *err, size_t errlen, const char *fmt, const char *v)
{
	char shown[64];
	size_t i, n = 0;

	if (!err || !errlen)
		return;
	/* the value as typed, bounded and printable */
	for (i = 0; v && v[i] && n + 4 < sizeof(shown); i++)
		shown[n++] = (unsigned char)v[i] < 0x20 || v[i] == 0x7f ? '?' : v[i];
	if (v && v[i])
		n += (size_t)snprintf(shown + n, sizeof(shown) - n, "...");
	shown[n < sizeof(shown) ? n : sizeof(shown) - 1] = '\0';
	snprintf(err, errlen, fmt, shown);
}

int qfilter_date(const char *s, int end, int64_t now, int64_t *out)
{
	struct tm tm;
	const char *rest;
	char *e;
	long long v;

	memset(&tm, 0, sizeof(tm));
	rest = strptime(s, "%Y-%m-%d", &tm);
	if (rest) {
		if (*rest == 'T' || *rest == ' ') {
			const char *r2 = strptime(rest + 1, "%H:%M:%S", &tm);

			if (!r2)
				r2 = strptime(rest + 1, "%H:%M", &tm);
			if (!r2 || *r2)
				return -1;
			end = 0;
		} else if (*rest) {
			return -1;
		}
		*out = (int64_t)timegm(&tm) + (end ? 86399 : 0);
		return *out < 0 || *out > QF_MAX_TIME ? -1 : 0;
	}
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &e, 10);
	if (errno || e == s || v < 0)
		return -1;
	if (!*e) {
		/* at most 9999-12-31T23:59:59: a date the words can write */
		if (v > QF_MAX_TIME)
			return -1;
		*out = v;
		return 0;
	}
	/* a time ago: 30d, 2w, 12h (at most 100 years) */
	if (e[1] || v > 36500L * 24)
		return -1;
	switch (*e) {
	case 'h':
		v *= 3600;
		break;
	case 'd':
		v *= 86400;
		break;
	case 'w':
		v *= 7 * 86400;
		break;
	default:
		return -1;
	}
	if (v > 36500LL * 86400)
		return -1;
	*out = now - v > 0 ? now - v : 1;
	return 0;
}

char *qfilter_msgid(const char *s)
{
	size_t n;
	const char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '<')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e > s && e[-1] == '>')
		e--;
	n = (size_t)(e - s);
	if (!n || n > QF_MAX_MSGID)
		return NULL;
	for (e = s; e < s + n; e++)
		if ((unsigned char)*e <= ' ' || *e == '<' || *e == '>' || *e == 0x7f)
			return NULL;
	return strndup(s, n);
}

/* A comma list of names, each looked up by find (-1: unknown) and
 * written back as canon() gives it; *out malloc'd. */
static int name_list(const char *v, int (*find)(const char *, size_t),
		     const char *(*canon)(int), char **out, const char **bad)
{
	struct sbuf sb;
	const char *p = v, *c;
	int k;

	sbuf_init(&sb, QFILTER_MAX_VALUE + 1);
	*bad = NULL;
	for (;;) {
		size_t n;

		c = strchr(p, ',');
		n = c ? (size_t)(c - p) : strlen(p);
		while (n && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		k = n ? find(p, n) : -1;
		if (k < 0) {
			*bad = p;
			sbuf_release(&sb);
			return -1;
		}
		if (sb.len)
			sbuf_addch(&sb, ',');
		sbuf_addstr(&sb, canon(k));
		if (!c)
			break;
		p = c + 1;
	}
	if (sb.err) {
		sbuf_release(&sb);
		return -1;
	}
	*out = sbuf_detach(&sb, NULL);
	return 0;
}

static int cat_find(const char *s, size_t n)
{
	return rule_cat_find(s, n);
}

static const char *cat_canon(int k)
{
	return rule_cat_name((enum rule_cat)k);
}

static int type_find(const char *s, size_t n)
{
	return rule_find(s, n);
}

static const char *type_canon(int k)
{
	return rule_table[k].name;
}

static int replace(char **slot, char *v)
{
	if (!v)
		return -1;
	free(*slot);
	*slot = v;
	return 0;
}

int qfilter_set(struct qfilter *f, const char *key, const char *value,
		int64_t now, char *err, size_t errlen)
{
	const char *bad;
	char *v = NULL, *e;
	size_t i;

	if (err && errlen)
		err[0] = '\0';
	if (strlen(value) > QFILTER_MAX_VALUE) {
		set_err(err, errlen, "the value of %s is too long", key);
		return -1;
	}
	for (i = 0; value[i]; i++) {
		if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f) {
			set_err(err, errlen, "the value of %s holds a control character", key);
			return -1;
		}
		/* no filter needs one, and the words could not be written
		 * back (qfilter_words) */
		if (value[i] == '"') {
			set_err(err, errlen, "the value of %s holds a '\"'", key);
			return -1;
		}
	}
	if (!*value) {
		set_err(err, errlen, "%s needs a value", key);
		return -1;
	}
	if (!strcasecmp(key, "author") || !strcasecmp(key, "from")) {
		if (replace(&f->author, strdup(value)))
			goto nomem;
	} else if (!strcasecmp(key, "file")) {
		if (replace(&f->file, strdup(value)))
			goto nomem;
	} else if (!strcasecmp(key, "list")) {
		v = strdup(value);
		if (!v)
			goto nomem;
		for (e = v; *e; e++)
			if (*e >= 'A' && *e <= 'Z')
				*e = (char)(*e - 'A' + 'a');
		replace(&f->list, v);
	} else if (!strcasecmp(key, "category")) {
		if (name_list(value, cat_find, cat_canon, &v, &bad)) {
			set_err(err, errlen, "unknown category '%s' (security, uapi, correctness,"
				" process, style)", bad ? bad : value);
			return -1;
		}
		replace(&f->category, v);
	} else if (!strcasecmp(key, "type")) {
		if (name_list(value, type_find, type_canon, &v, &bad)) {
			set_err(err, errlen, "unknown type '%s' (reviewbot check --list-types"
				" lists them)", bad ? bad : value);
			return -1;
		}
		replace(&f->type, v);
	} else if (!strcasecmp(key, "since") || !strcasecmp(key, "until")) {
		int until = !strcasecmp(key, "until");

		if (qfilter_date(value, until, now, until ? &f->until : &f->since)) {
			set_err(err, errlen, "'%s' is not a date (YYYY-MM-DD[THH:MM[:SS]], Unix"
				" seconds, or a time ago: 30d, 2w, 12h)", value);
			return -1;
		}
	} else if (!strcasecmp(key, "series")) {
		v = qfilter_msgid(value);
		if (!v) {
			set_err(err, errlen, "'%s' is not a Message-ID", value);
			return -1;
		}
		replace(&f->series, v);
	} else if (!strcasecmp(key, "limit")) {
		long long n;

		errno = 0;
		n = strtoll(value, &e, 10);
		if (errno || *e || e == value || n < 1 || n > QFILTER_MAX_LIMIT) {
			set_err(err, errlen, "limit takes a number from 1 to 100000000, not '%s'",
				value);
			return -1;
		}
		f->limit = (size_t)n;
		return 0;
	} else {
		set_err(err, errlen, "unknown filter '%s' (author, file, list, category, type,"
			" since, until, series, limit)", key);
		return -1;
	}
	f->nset++;
	return 0;
nomem:
	set_err(err, errlen, "out of memory%s", "");
	return -1;
}

int qfilter_parse(struct qfilter *f, const char *s, size_t n, int64_t now,
		  char *err, size_t errlen)
{
	char key[32], value[QFILTER_MAX_VALUE + 1];
	size_t i = 0, k, words = 0;

	if (err && errlen)
		err[0] = '\0';
	if (n > QFILTER_MAX_TEXT) {
		set_err(err, errlen, "a query is at most 4096 bytes%s", "");
		return -1;
	}
	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
			i++;
		if (i >= n)
			break;
		if (++words > QFILTER_MAX_WORDS) {
			set_err(err, errlen, "a query has at most 32 filters%s", "");
			return -1;
		}
		for (k = 0; i < n && s[i] != ':' && s[i] != ' ' && s[i] != '\t' &&
			    s[i] != '\r' && s[i] != '\n'; i++) {
			if (k + 1 >= sizeof(key)) {
				set_err(err, errlen, "unknown filter '%s'", "");
				return -1;
			}
			key[k++] = s[i];
		}
		key[k] = '\0';
		if (i >= n || s[i] != ':' || !k) {
			set_err(err, errlen, "'%s' is not a filter: write key:value (author, file,"
				" list, category, type, since, until, series, limit)", key);
			return -1;
		}
		i++;
		k = 0;
		if (i < n && s[i] == '"') {
			for (i++; i < n && s[i] != '"'; i++) {
				if (k + 1 >= sizeof(value))
					goto long_value;
				value[k++] = s[i];
			}
			if (i >= n) {
				set_err(err, errlen, "the value of %s lacks its closing '\"'", key);
				return -1;
			}
			i++;
		} else {
			for (; i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
			       s[i] != '\n'; i++) {
				if (k + 1 >= sizeof(value))
					goto long_value;
				value[k++] = s[i];
			}
		}
		value[k] = '\0';
		if (memchr(value, '\0', k)) {
			set_err(err, errlen, "the value of %s holds a NUL", key);
			return -1;
		}
		if (qfilter_set(f, key, value, now, err, errlen))
			return -1;
	}
	return 0;
long_value:
	set_err(err, errlen, "the value of %s is too long", key);
	return -1;
}

static void add_word(struct sbuf *out, const char *key, const char *v)
{
	if (!v)
		return;
	if (out->len)
		sbuf_addch(out, ' ');
	sbuf_addstr(out, key);
	sbuf_addch(out, ':');
	if (strpbrk(v, " \t\""))
		sbuf_addf(out, "\"%s\"", v);
	else
		sbuf_addstr(out, v);
}

static void add_date(struct sbuf *out, const char *key, int64_t t, int end)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	if (!t || !gmtime_r(&tt, &tm))
		return;
	if (!end && !tm.tm_hour && !tm.tm_min && !tm.tm_sec)
		strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
	else if (end && tm.tm_hour == 23 && tm.tm_min == 59 && tm.tm_sec == 59)
		strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
	else
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	add_word(out, key, buf);
}

void qfilter_words(const struct qfilter *f, struct sbuf *out)
{
	add_word(out, "author", f->author);
	add_word(out, "file", f->file);
	add_word(out, "list", f->list);
	add_word(out, "category", f->category);
	add_word(out, "type", f->type);
	add_date(out, "since", f->since, 0);
	add_date(out, "until", f->until, 1);
	add_word(out, "series", f->series);
	if (f->limit) {
		char n[24];

		snprintf(n, sizeof(n), "%zu", f->limit);
		add_word(out, "limit", n);
	}
}

void qfilter_apply(const struct qfilter *f, struct store_query *q)
{
	q->author = f->author;
	q->file_glob = f->file;
	q->list = f->list;
	q->category = f->category;
	q->type = f->type;
	q->series_msgid = f->series;
	q->since = f->since;
	q->until = f->until;
	if (f->limit)
		q->limit = f->limit;
}

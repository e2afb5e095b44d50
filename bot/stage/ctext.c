// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctext: a C source's text as the compiler reads it, up to (not
 * including) preprocessing.  See ctext.h.
 */
#include <stdlib.h>
#include <string.h>

#include "ctext.h"
#include "../../checker/banned.h"

/* Reading position in t, and what has been written of code and lit. */
struct cursor {
	const char *p, *e;
	char *code, *lit;
	size_t nc, nl;
	int run;		/* lit ends inside a run of adjacent literals */
};

static const char *skip_splices(const char *p, const char *e)
{
	while (p < e && *p == '\\') {
		const char *q = p + 1;

		while (q < e && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\v' || *q == '\f'))
			q++;
		if (q >= e || *q != '\n')
			break;
		p = q + 1;
	}
	return p;
}

/* The next character after the splices, -1 at the end; *p moves past it. */
static int ct_get(struct cursor *c)
{
	c->p = skip_splices(c->p, c->e);
	if (c->p >= c->e)
		return -1;
	return (unsigned char)*c->p++;
}

static int ct_peek(struct cursor *c)
{
	c->p = skip_splices(c->p, c->e);
	return c->p < c->e ? (unsigned char)*c->p : -1;
}

static void ct_end_run(struct cursor *c)
{
	if (c->run)
		c->lit[c->nl++] = '\n';
	c->run = 0;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* One escape sequence after its backslash (C11 6.4.4.4), decoded. */
static int ct_escape(struct cursor *c)
{
	static const char simple[] = "n\nt\tr\ra\ab\bf\fv\ve\033";
	int ch = ct_get(c), v, d, k;
	const char *s;

	if (ch < 0)
		return '\\';
	if (ch == 'x' || ch == 'u' || ch == 'U') {
		int max = ch == 'x' ? 1 << 30 : ch == 'u' ? 4 : 8;

		for (v = 0, k = 0; k < max && (d = hexval(ct_peek(c))) >= 0; k++) {
			ct_get(c);
			v = (v << 4 | d) & 0xffffff;
		}
		return v < 0x100 ? v : '?';
	}
	if (ch >= '0' && ch <= '7') {
		for (v = ch - '0', k = 1; k < 3 && (d = ct_peek(c)) >= '0' && d <= '7'; k++)
			v = v << 3 | (ct_get(c) - '0');
		return v & 0xff;
	}
	for (s = simple; *s; s += 2)
		if (ch == s[0])
			return s[1];
	return ch;		/* \\ \' \" \? and what the compiler warns about */
}

/* A literal after its opening quote: up to q (" or '), or the line's end. */
static void ct_literal(struct cursor *c, int q, char *lit)
{
	int ch;

	c->code[c->nc++] = (char)q;
	while ((ch = ct_peek(c)) >= 0 && ch != '\n') {
		ct_get(c);
		if (ch == q) {
			c->code[c->nc++] = (char)q;
			return;
		}
		c->code[c->nc++] = (char)ch;
		if (ch == '\\')
			ch = ct_escape(c);
		if (lit)
			lit[c->nl++] = (char)ch;
	}
}

/* R"delim( ... )delim": no splice, no escape inside (C++ 5.13.5, a GNU C extension). */
static int ct_raw(struct cursor *c)
{
	const char *d = c->p + 1, *s, *end;
	char close[18];
	size_t dl;

	for (s = d; s < c->e && s - d < 16 && *s != '('; s++)
		if (*s == ' ' || *s == ')' || *s == '\\' || *s == '\n' || *s == '\t' || *s == '"')
			return -1;
	if (s >= c->e || *s != '(')
		return -1;
	dl = (size_t)(s - d);
	close[0] = ')';
	memcpy(close + 1, d, dl);
	close[dl + 1] = '"';
	s++;
	end = (size_t)(c->e - s) >= dl + 2 ? memmem(s, (size_t)(c->e - s), close, dl + 2) : NULL;
	if (!end)
		end = c->e;
	memcpy(c->code + c->nc, c->p, (size_t)(end - c->p));
	c->nc += (size_t)(end - c->p);
	memcpy(c->lit + c->nl, s, (size_t)(end - s));
	c->nl += (size_t)(end - s);
	c->p = end < c->e ? end + dl + 2 : c->e;
	return 0;
}

static int ident_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '$';
}

int ctext_read(struct ctext *out, const char *t, size_t len)
{
	static const char *const prefix[] = { "L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R" };
	struct cursor cur, *c = &cur;
	int ch;

	memset(out, 0, sizeof(*out));
	memset(c, 0, sizeof(*c));
	c->p = t;
	c->e = t + len;
	c->code = malloc(len + 2);
	c->lit = malloc(len + 2);
	if (!c->code || !c->lit) {
		free(c->code);
		free(c->lit);
		return -1;
	}
	while ((ch = ct_get(c)) >= 0) {
		if (ch == '/' && ct_peek(c) == '/') {
			while ((ch = ct_get(c)) >= 0 && ch != '\n')
				;
			c->code[c->nc++] = ' ';
			c->code[c->nc++] = '\n';
		} else if (ch == '/' && ct_peek(c) == '*') {
			int prev = 0;

			ct_get(c);
			while ((ch = ct_get(c)) >= 0 && !(prev == '*' && ch == '/'))
				prev = ch;
			c->code[c->nc++] = ' ';
		} else if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
			   ch == '\v' || ch == '\f') {
			c->code[c->nc++] = (char)ch;
		} else if (ch == '"') {
			c->run = 1;
			ct_literal(c, '"', c->lit);
		} else if (ch == '\'') {
			ct_end_run(c);
			ct_literal(c, '\'', NULL);
		} else if (ident_char(ch) && !(ch >= '0' && ch <= '9')) {
			char id[4];
			size_t n = 0, i;
			int is_prefix = 0;

			for (;;) {
				c->code[c->nc++] = (char)ch;
				if (n < sizeof(id))
					id[n] = (char)ch;
				n++;
				ch = ct_peek(c);	/* after the loop: what follows */
				if (!ident_char(ch))
					break;
				ct_get(c);
			}
			for (i = 0; n < sizeof(id) && i < sizeof(prefix) / sizeof(prefix[0]); i++)
				if (strlen(prefix[i]) == n && !memcmp(prefix[i], id, n))
					is_prefix = 1;
			if (!is_prefix || ch != '"') {
				ct_end_run(c);
				continue;
			}
			c->run = 1;
			if (id[n - 1] == 'R' && !ct_raw(c))
				continue;
			ct_get(c);
			ct_literal(c, '"', c->lit);
		} else {
			ct_end_run(c);
			c->code[c->nc++] = (char)ch;
		}
	}
	ct_end_run(c);
	c->code[c->nc] = '\0';
	c->lit[c->nl] = '\0';
	out->code = c->code;
	out->ncode = c->nc;
	out->lit = c->lit;
	out->nlit = c->nl;
	return 0;
}

void ctext_release(struct ctext *c)
{
	free(c->code);
	free(c->lit);
	memset(c, 0, sizeof(*c));
}


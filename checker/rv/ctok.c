// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctok: C tokens of the lines a patch shows (ctok.h).  Follows C11's
 * translation phase 3 (section 5.1.1.2): comments become nothing, a
 * preprocessing directive is kept whole, and the rest is split into
 * identifiers, numbers (pp-numbers, 6.4.8), literals and punctuators
 * (6.4.6, longest match).  Trigraphs and digraphs are not translated: the
 * kernel has none.
 */
#include "ctok.h"

#include <stdlib.h>
#include <string.h>

#include "../banned.h"

void ctok_init(struct ctok_buf *tb, size_t cap)
{
	memset(tb, 0, sizeof(*tb));
	tb->cap = cap ? cap : CTOK_MAX_DEFAULT;
}

void ctok_release(struct ctok_buf *tb)
{
	free(tb->t);
	memset(tb, 0, sizeof(*tb));
}

static int push(struct ctok_buf *tb, const char *s, size_t len, int kind,
		uint32_t line, uint16_t flags)
{
	struct ctok *t;

	if (tb->err)
		return -1;
	if (tb->n == tb->alloc) {
		size_t na = tb->alloc ? tb->alloc * 2 : 256;
		struct ctok *nt;

		if (na > tb->cap)
			na = tb->cap;
		if (tb->n >= na) {
			tb->err = 1;
			return -1;
		}
		nt = realloc(tb->t, na * sizeof(*nt));
		if (!nt) {
			tb->err = 1;
			return -1;
		}
		tb->t = nt;
		tb->alloc = na;
	}
	t = &tb->t[tb->n++];
	t->s = s;
	t->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	t->kind = (uint16_t)kind;
	t->flags = flags;
	t->line = line;
	return 0;
}

static int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == '$' || (unsigned char)c >= 0x80;
}

static int is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* The punctuators longer than one byte, longest first (6.4.6). */
static const char *const puncts[] = {
	"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
	"!=", "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=",
	"##",
};

static size_t punct_len(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		size_t k = strlen(puncts[i]);

		if (k <= n && !memcmp(s, puncts[i], k))
			return k;
	}
	return 1;
}

/* The end of a literal opened by q at s[i] (past its closing quote, or
 * the line's end when it does not close on the line). */
static size_t literal_end(const char *s, size_t n, size_t i, char q)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\') {
			i++;
			continue;
		}
		if (s[i] == q)
			return i + 1;
	}
	return n;
}

int ctok_push_line(struct ctok_buf *tb, const char *s, size_t n,
		   uint32_t line, uint16_t flags)
{
	size_t i = 0;
	int first = 1;		/* no token yet on this line */

	if (tb->err)
		return -1;
	if (tb->in_pp) {
		/* a continuation line of a directive: part of its token */
		tb->in_pp = n > 0 && s[n - 1] == '\\';
		return 0;
	}
	while (i < n) {
		char c = s[i];
		size_t k;

		if (tb->in_comment) {
			for (k = i; k + 1 < n; k++)
				if (s[k] == '*' && s[k + 1] == '/')
					break;
			if (k + 1 >= n)
				return 0;
			tb->in_comment = 0;
			i = k + 2;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < n && s[i + 1] == '*') {
			tb->in_comment = 1;
			i += 2;
			continue;
		}
		if (c == '/' && i + 1 < n && s[i + 1] == '/')
			return 0;
		if (c == '#' && first) {
			/* a directive: the rest of the line, and of the lines a
			 * trailing backslash joins to it */
			tb->in_pp = s[n - 1] == '\\';
			return push(tb, s + i, n - i, CTK_PP, line, flags);
		}
		first = 0;
		if (is_ident_start(c)) {
			/* an encoding prefix makes a literal: L"", u8"", U'' */
			for (k = i + 1; k < n && is_ident_char(s[k]); k++)
				;
			if (k < n && (s[k] == '"' || s[k] == '\'') && k - i <= 2 &&
			    (s[i] == 'L' || s[i] == 'u' || s[i] == 'U')) {
				size_t e = literal_end(s, n, k, s[k]);

				if (push(tb, s + i, e - i, s[k] == '"' ? CTK_STRING : CTK_CHAR,
					 line, flags))
					return -1;
				i = e;
				continue;
			}
			if (push(tb, s + i, k - i, CTK_IDENT, line, flags))
				return -1;
			i = k;
			continue;
		}
		if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(s[i + 1]))) {
			/* a pp-number: digits, letters, '.', and a sign after
			 * an exponent letter (6.4.8) */
			for (k = i + 1; k < n; k++) {
				if (is_ident_char(s[k]) || s[k] == '.')
					continue;
				if ((s[k] == '+' || s[k] == '-') &&
				    (s[k - 1] == 'e' || s[k - 1] == 'E' ||
				     s[k - 1] == 'p' || s[k - 1] == 'P'))
					continue;
				break;
			}
			if (push(tb, s + i, k - i, CTK_NUMBER, line, flags))
				return -1;
			i = k;
			continue;
		}
		if (c == '"' || c == '\'') {
			size_t e = literal_end(s, n, i, c);

			if (push(tb, s + i, e - i, c == '"' ? CTK_STRING : CTK_CHAR,
				 line, flags))
				return -1;
			i = e;
			continue;
		}
		if (c == '\\') {
			/* a line continuation outside a directive */
			i++;
			continue;
		}
		k = punct_len(s + i, n - i);
		if (push(tb, s + i, k, CTK_PUNCT, line, flags))
			return -1;
		i += k;
	}
	return 0;
}

int ctok_push_gap(struct ctok_buf *tb, uint32_t line)
{
	tb->in_comment = 0;
	tb->in_pp = 0;
	return push(tb, "", 0, CTK_GAP, line, 0);
}

int ctok_is(const struct ctok *t, const char *w)
{
	size_t n = strlen(w);

	return t->len == n && !memcmp(t->s, w, n);
}

int ctok_is_ident(const struct ctok *t, const char *w)
{
	return t->kind == CTK_IDENT && ctok_is(t, w);
}

int ctok_ident_prefix(const struct ctok *t, const char *prefix)
{
	size_t n = strlen(prefix);

	return t->kind == CTK_IDENT && t->len >= n && !memcmp(t->s, prefix, n);
}

int ctok_ident_in(const struct ctok *t, const char *const *names)
{
	size_t i, n;

	if (t->kind != CTK_IDENT)
		return 0;
	for (i = 0; names[i]; i++) {
		n = strlen(names[i]);
		if (n && names[i][n - 1] == '*') {
			if (t->len >= n - 1 && !memcmp(t->s, names[i], n - 1))
				return 1;
		} else if (t->len == n && !memcmp(t->s, names[i], n)) {
			return 1;
		}
	}
	return 0;
}

int ctok_same(const struct ctok *a, const struct ctok *b)
{
	return a->len == b->len && a->kind == b->kind &&
	       !memcmp(a->s, b->s, a->len);
}

size_t ctok_match(const struct ctok *t, size_t i, size_t end)
{
	char open = t[i].s[0], close;
	size_t depth = 0;

	close = open == '(' ? ')' : open == '[' ? ']' : '}';
	for (; i < end; i++) {
		if (t[i].kind == CTK_GAP)
			return end;
		if (t[i].kind != CTK_PUNCT || t[i].len != 1)
			continue;
		if (t[i].s[0] == open)
			depth++;
		else if (t[i].s[0] == close && --depth == 0)
			return i;
	}
	return end;
}

int ctok_keyword(const struct ctok *t)
{
	static const char *const kw[] = {
		"if", "else", "for", "while", "do", "switch", "case", "default",
		"return", "goto", "break", "continue", "sizeof", "typeof",
		"__typeof__", "_Alignof", "alignof", "asm", "__asm__",
		"offsetof",
	};
	size_t i;

	if (t->kind != CTK_IDENT)
		return 0;
	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (ctok_is(t, kw[i]))
			return 1;
	return 0;
}

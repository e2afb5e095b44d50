// SPDX-License-Identifier: GPL-2.0-only
/*
 * checkpatch.pl's sanitise_line(): string and character literals become
 * X, comments become $; (0x1c), the comment state carries across lines
 * (e->sanitise_quote), so rules never match inside them.  Byte for byte
 * as the Perl, quirks included: a rule written against checkpatch.pl's
 * sanitised text must see the same text here.
 */
#include "eng.h"

#include <string.h>

#include "../banned.h"

#define CMT '\x1c'

void sanitise_line_reset(struct eng *e, int in_comment)
{
	e->sanitise_quote = in_comment ? "*/" : "";
}

static int quote_is(const struct eng *e, const char *q)
{
	return !strcmp(e->sanitise_quote, q);
}

char *sanitise_line(struct eng *e, const char *line)
{
	size_t len = strlen(line), off;
	char *res;
	struct re_m m;

	res = eng_strndup(e, line, len);
	if (e->line_skip)	/* res is shorter than line: give up */
		return NULL;
	if (!len)
		return res;
	/* res starts as a copy; every position from 1 on is rewritten */
	for (off = 1; off < len; off++) {
		char c = line[off];

		if (quote_is(e, "") &&
		    !strncmp(line + off, "/*", 2)) {
			e->sanitise_quote = "*/";
			res[off] = CMT;
			if (off + 1 < len)
				res[off + 1] = CMT;
			off++;
			continue;
		}
		if (quote_is(e, "*/") && !strncmp(line + off, "*/", 2)) {
			e->sanitise_quote = "";
			res[off] = CMT;
			res[off + 1] = CMT;
			off++;
			continue;
		}
		if (quote_is(e, "") && !strncmp(line + off, "//", 2)) {
			e->sanitise_quote = "//";
			res[off] = '/';
			res[off + 1] = '/';
			off++;
			continue;
		}
		/* A \ in a string means ignore the next character. */
		if ((quote_is(e, "'") || quote_is(e, "\"")) && c == '\\') {
			res[off] = 'X';
			if (off + 1 < len)
				res[off + 1] = 'X';
			else {
				/* substr($res, $off, 2, 'XX') past the end grows it */
				char *r2 = eng_alloc(e, len + 2);

				if (r2) {
					memcpy(r2, res, len);
					r2[len] = 'X';
					r2[len + 1] = '\0';
					res = r2;
				}
			}
			off++;
			continue;
		}
		if (c == '\'' || c == '"') {
			if (quote_is(e, "")) {
				e->sanitise_quote = c == '\'' ? "'" : "\"";
				res[off] = c;
				continue;
			} else if (e->sanitise_quote[0] == c && !e->sanitise_quote[1]) {
				e->sanitise_quote = "";
			}
		}
		if (quote_is(e, "*/") && c != '\t')
			res[off] = CMT;
		else if (quote_is(e, "//") && c != '\t')
			res[off] = CMT;
		else if (e->sanitise_quote[0] && c != '\t')
			res[off] = 'X';
		else
			res[off] = c;
	}
	if (quote_is(e, "//"))
		e->sanitise_quote = "";

	/* The pathname on a #include may be surrounded by '<' and '>'. */
	if (re_match(e->rc, "^.\\s*\\#\\s*include\\s+\\<(.*)\\>", res, &m)) {
		size_t n = re_end(&m, 1) - re_start(&m, 1);
		char *clean = eng_alloc(e, n + 3);

		if (clean) {
			clean[0] = '<';
			memset(clean + 1, 'X', n);
			clean[n + 1] = '>';
			clean[n + 2] = '\0';
			res = eng_subst(e, "\\<.*\\>", clean, res, 0);
		}
	/* The whole of a #error is a string. */
	} else if (re_match(e->rc, "^.\\s*\\#\\s*(?:error|warning)\\s+(.*)\\b", res, &m)) {
		size_t n = re_end(&m, 1) - re_start(&m, 1);
		struct re_m m2;

		if (re_match(e->rc, "(\\#\\s*(?:error|warning)\\s+).*", res, &m2)) {
			size_t s = re_start(&m2, 0), p1 = re_end(&m2, 1);
			size_t tail = strlen(res) - re_end(&m2, 0);
			char *r2 = eng_alloc(e, s + (p1 - s) + n + tail + 1);

			if (r2) {
				memcpy(r2, res, p1);
				memset(r2 + p1, 'X', n);
				memcpy(r2 + p1 + n, res + re_end(&m2, 0), tail + 1);
				res = r2;
			}
		}
	}

	if (!e->o->ignore_c99_comment_tolerance &&
	    re_match(e->rc, "(//.*$)", res, &m)) {
		/* s/\Q$match\E/"$;" x length($match)/e: the first occurrence */
		size_t n = re_end(&m, 1) - re_start(&m, 1);
		char *match = eng_strndup(e, res + re_start(&m, 1), n);
		char *at = e->line_skip ? NULL : strstr(res, match);

		if (at)
			memset(at, CMT, n);
	}
	return e->line_skip ? NULL : res;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compile stage's diagnostics: read from the tools' output, placed in
 * their function, compared before and after the series, typed.  See
 * build_diag.h.
 */
#include "build_diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/banned.h"

static const char *const tool_names[DIAG__TOOLS] = {
	[DIAG_GCC] = "gcc", [DIAG_SPARSE] = "sparse", [DIAG_ANALYZER] = "analyzer",
	[DIAG_COCCI] = "coccinelle",
};

const char *diag_tool_name(enum diag_tool t)
{
	return (unsigned)t < DIAG__TOOLS ? tool_names[t] : "unknown";
}

void diag_list_release(struct diag_list *l)
{
	free(l->d);
	memset(l, 0, sizeof(*l));
}

int diag_list_add(struct diag_list *l, const struct diag *d)
{
	if (l->n == DIAG_MAX) {
		l->dropped++;
		return 0;
	}
	if (l->n == l->alloc) {
		size_t na = l->alloc ? l->alloc * 2 : 16;
		struct diag *nd = realloc(l->d, na * sizeof(*nd));

		if (!nd)
			return -1;
		l->d = nd;
		l->alloc = na;
	}
	l->d[l->n] = *d;
	l->d[l->n].used = 0;
	l->n++;
	return 0;
}

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* text[0, n) into out, control characters and tabs as spaces, cut. */
static void copy_clean(char *out, size_t outlen, const char *text, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n && k + 1 < outlen; i++) {
		unsigned char ch = (unsigned char)text[i];

		/* gcc's quotes in a UTF-8 locale: plain ones */
		if (ch == 0xe2 && i + 2 < n && (unsigned char)text[i + 1] == 0x80 &&
		    ((unsigned char)text[i + 2] == 0x98 || (unsigned char)text[i + 2] == 0x99)) {
			out[k++] = '\'';
			i += 2;
			continue;
		}
		out[k++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
	}
	out[k] = '\0';
}

int diag_parse_line(const char *line, size_t len, const char **file, size_t *file_len,
		    long *lineno, int *error, const char **msg, size_t *msg_len)
{
	const char *p, *end = line + len, *colon;
	long ln = 0;

	for (colon = line; colon < end; colon++) {
		if (*colon != ':' || colon + 1 >= end || !is_digit(colon[1]))
			continue;
		p = colon + 1;
		ln = 0;
		while (p < end && is_digit(*p) && ln < 100000000)
			ln = ln * 10 + (*p++ - '0');
		if (p >= end || *p != ':')
			continue;
		p++;
		if (p < end && is_digit(*p)) {
			while (p < end && is_digit(*p))
				p++;
			if (p >= end || *p != ':')
				continue;
			p++;
		}
		if (p < end && *p == ' ')
			p++;
		if ((size_t)(end - p) > 7 && !memcmp(p, "error: ", 7)) {
			*error = 1;
			p += 7;
		} else if ((size_t)(end - p) > 9 && !memcmp(p, "warning: ", 9)) {
			*error = 0;
			p += 9;
		} else if ((size_t)(end - p) > 13 && !memcmp(p, "fatal error: ", 13)) {
			*error = 1;
			p += 13;
		} else {
			return 0;
		}
		*file = line;
		*file_len = (size_t)(colon - line);
		*lineno = ln;
		*msg = p;
		*msg_len = (size_t)(end - p);
		while (*msg_len && ((*msg)[*msg_len - 1] == '\r' || (*msg)[*msg_len - 1] == ' '))
			(*msg_len)--;
		return *file_len > 0;
	}
	return 0;
}

/*
 * file[0, n) made relative to the tree (prefix and "./" taken off) into
 * out; 0 when it is not a file of the tree (absolute elsewhere, "..").
 */
static int tree_file(const char *file, size_t n, const char *prefix, char *out, size_t outlen)
{
	size_t pl = prefix ? strlen(prefix) : 0;

	if (pl && n > pl && !memcmp(file, prefix, pl)) {
		file += pl;
		n -= pl;
	}
	while (n > 2 && !memcmp(file, "./", 2)) {
		file += 2;
		n -= 2;
	}
	if (!n || n >= outlen || file[0] == '/' || memmem(file, n, "..", 2))
		return 0;
	{
		size_t i;

		for (i = 0; i < n; i++) {
			unsigned char ch = (unsigned char)file[i];

			if (ch <= ' ' || ch >= 0x7f || ch == ':' || ch == '\\')
				return 0;
		}
	}
	memcpy(out, file, n);
	out[n] = '\0';
	return 1;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* The text between the first pair of quotes ' ' (plain or UTF-8) of s. */
static int quoted(const char *s, size_t n, char *out, size_t outlen)
{
	char tmp[512];
	const char *a, *b;

	copy_clean(tmp, sizeof(tmp), s, n);
	a = strchr(tmp, '\'');
	if (!a)
		return 0;
	b = strchr(a + 1, '\'');
	if (!b || (size_t)(b - a - 1) >= outlen)
		return 0;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = '\0';
	return 1;
}

/* Takes " [-Wfoo]" and " [CWE-123]" off the end of msg, keeping -Wfoo. */
static void split_option(struct diag *d)
{
	for (;;) {
		size_t n = strlen(d->msg);
		char *open;

		if (!n || d->msg[n - 1] != ']')
			return;
		open = strrchr(d->msg, '[');
		if (!open || open == d->msg)
			return;
		if (!strncmp(open, "[-W", 3) && !d->opt[0]) {
			snprintf(d->opt, sizeof(d->opt), "%.*s", (int)(n - (size_t)(open - d->msg) - 2),
				 open + 1);
		} else if (strncmp(open, "[CWE-", 5) && strncmp(open, "[-W", 3)) {
			return;
		}
		while (open > d->msg && open[-1] == ' ')
			open--;
		*open = '\0';
	}
}

/* One place of an "inlined from 'f' at FILE:LINE" chain. */
struct frame {
	char func[DIAG_FUNC_MAX];
	char file[DIAG_FILE_MAX];
	long line;
};

#define MAX_FRAMES	8

struct parse_state {
	enum diag_tool tool;
	const char *prefix;
	const char *script;
	int high;
	struct diag_list *l;
	char in_file[DIAG_FILE_MAX];	/* of the last "In function" line */
	char in_func[DIAG_FUNC_MAX];
	struct frame fr[MAX_FRAMES];
	size_t nfr;
	int have_last;			/* l's last entry may take notes */
	int context_used;		/* the In function / inlined lines went to a diag */
};

/* "FILE: In function 'f':" (or ',' when an inline chain follows) */
static int in_function_line(struct parse_state *s, const char *line, size_t n)
{
	const char *m = memmem(line, n, ": In function ", 14);
	char file[DIAG_FILE_MAX];

	if (!m)
		return 0;
	if (s->context_used)
		s->nfr = 0;
	s->context_used = 0;
	s->in_func[0] = '\0';
	s->in_file[0] = '\0';
	if (tree_file(line, (size_t)(m - line), s->prefix, file, sizeof(file)))
		snprintf(s->in_file, sizeof(s->in_file), "%s", file);
	quoted(m + 14, n - (size_t)(m + 14 - line), s->in_func, sizeof(s->in_func));
	s->nfr = 0;
	return 1;
}

/* "    inlined from 'f' at FILE:LINE:COL[,:]" */
static int inlined_line(struct parse_state *s, const char *line, size_t n)
{
	const char *m = memmem(line, n, "inlined from ", 13), *at, *end = line + n;
	struct frame f;
	const char *colon;
	size_t fl;

	if (!m)
		return 0;
	memset(&f, 0, sizeof(f));
	quoted(m + 13, n - (size_t)(m + 13 - line), f.func, sizeof(f.func));
	at = memmem(m, (size_t)(end - m), " at ", 4);
	if (!at)
		return 1;
	at += 4;
	colon = memchr(at, ':', (size_t)(end - at));
	if (!colon)
		return 1;
	fl = (size_t)(colon - at);
	if (!tree_file(at, fl, s->prefix, f.file, sizeof(f.file)))
		return 1;
	f.line = strtol(colon + 1, NULL, 10);
	if (s->nfr < MAX_FRAMES)
		s->fr[s->nfr++] = f;
	return 1;
}

/* "WARNING: modpost: ..." about a module of the tree */
static int modpost_line(struct parse_state *s, const char *line, size_t n)
{
	struct diag d;
	const char *m, *p, *end = line + n;
	int error;

	if (n > 17 && !memcmp(line, "WARNING: modpost: ", 18)) {
		error = 0;
		m = line + 18;
	} else if (n > 15 && !memcmp(line, "ERROR: modpost: ", 16)) {
		error = 1;
		m = line + 16;
	} else {
		return 0;
	}
	/* without vmlinux (never built here) every symbol is undefined */
	if (memmem(m, (size_t)(end - m), "undefined!", 10) ||
	    memmem(m, (size_t)(end - m), "suppressed", 10) ||
	    memmem(m, (size_t)(end - m), "Module.symvers", 14))
		return 1;
	memset(&d, 0, sizeof(d));
	/* the first NAME.o of the tree it names is the file */
	for (p = m; p < end; p++) {
		const char *w = p, *e;

		while (p < end && *p != ' ' && *p != ':' && *p != '\'' && *p != '"' && *p != '(' &&
		       *p != '[' && *p != ']')
			p++;
		e = p;
		if (e - w > 2 && !memcmp(e - 2, ".o", 2) &&
		    tree_file(w, (size_t)(e - w), s->prefix, d.file, sizeof(d.file) - 1)) {
			d.file[strlen(d.file) - 1] = 'c';
			break;
		}
		if (p >= end)
			break;
	}
	if (!d.file[0]) {
		s->l->dropped++;
		return 1;
	}
	d.tool = DIAG_GCC;
	d.error = error;
	d.modpost = 1;
	copy_clean(d.msg, sizeof(d.msg), m, (size_t)(end - m));
	if (diag_list_add(s->l, &d))
		return -1;
	s->have_last = 0;
	return 1;
}

/* coccinelle's report: "FILE:LINE:COL-COL: MESSAGE" */
static int cocci_line(struct parse_state *s, const char *line, size_t n)
{
	const char *end = line + n, *c1 = memchr(line, ':', n), *p;
	struct diag d;
	long ln = 0;

	if (!c1)
		return 0;
	p = c1 + 1;
	if (p >= end || !is_digit(*p))
		return 0;
	while (p < end && is_digit(*p) && ln < 100000000)
		ln = ln * 10 + (*p++ - '0');
	if (p >= end || *p != ':')
		return 0;
	p++;
	while (p < end && (is_digit(*p) || *p == '-'))
		p++;
	if (p + 1 >= end || *p != ':' || p[1] != ' ')
		return 0;
	memset(&d, 0, sizeof(d));
	if (!tree_file(line, (size_t)(c1 - line), s->prefix, d.file, sizeof(d.file))) {
		s->l->dropped++;
		return 1;
	}
	d.tool = DIAG_COCCI;
	d.line = ln;
	copy_clean(d.msg, sizeof(d.msg), p + 2, (size_t)(end - p - 2));
	snprintf(d.script, sizeof(d.script), "%s", s->script ? s->script : "");
	d.script_high = s->high;
	return diag_list_add(s->l, &d) ? -1 : 1;
}

/* sparse's "FILE:L:C:    expected T" / "got T" after its warning */
static int sparse_more(struct parse_state *s, const char *line, size_t n)
{
	struct diag *last;
	const char *p = line, *end = line + n;
	int colons = 0;
	size_t k;

	if (!s->have_last || !s->l->n)
		return 0;
	last = &s->l->d[s->l->n - 1];
	if (last->tool != DIAG_SPARSE)
		return 0;
	while (p < end && colons < 3) {
		if (*p == ':')
			colons++;
		p++;
	}
	if (colons < 3 || p + 4 > end || memcmp(p, "    ", 4))
		return 0;
	while (p < end && *p == ' ')
		p++;
	if (!((size_t)(end - p) > 9 && !memcmp(p, "expected ", 9)) &&
	    !((size_t)(end - p) > 4 && !memcmp(p, "got ", 4)))
		return 0;
	k = strlen(last->msg);
	if (k + 8 < sizeof(last->msg)) {
		char add[160];

		copy_clean(add, sizeof(add), p, (size_t)(end - p));
		snprintf(last->msg + k, sizeof(last->msg) - k, "%s%s", strchr(last->msg, '(') &&
			 strstr(last->msg, " expected ") ? ", " : " / ", add);
	}
	return 1;
}

/* "FILE:L:C: note: (N) ..." of the analyzer's path */
static int note_line(struct parse_state *s, const char *line, size_t n)
{
	const char *m = memmem(line, n, ": note: ", 8), *p;
	char file[DIAG_FILE_MAX];
	struct diag *last;
	long ln = 0;

	if (!m)
		return 0;
	if (!s->have_last || !s->l->n)
		return 1;
	last = &s->l->d[s->l->n - 1];
	if (last->tool != DIAG_ANALYZER || last->npath >= DIAG_PATH_MAX)
		return 1;
	/* FILE:LINE:COL: note */
	p = memchr(line, ':', (size_t)(m - line));
	if (!p || !tree_file(line, (size_t)(p - line), s->prefix, file, sizeof(file)) ||
	    strcmp(file, last->file))
		return 1;
	ln = strtol(p + 1, NULL, 10);
	if (ln > 0)
		last->path[last->npath++] = ln;
	return 1;
}

static int diag_line(struct parse_state *s, const char *line, size_t n)
{
	const char *file, *msg;
	size_t fl, ml, i;
	long ln;
	int error;
	struct diag d;

	if (!diag_parse_line(line, n, &file, &fl, &ln, &error, &msg, &ml))
		return 0;
	memset(&d, 0, sizeof(d));
	d.tool = s->tool;
	d.error = error;
	d.line = ln;
	copy_clean(d.msg, sizeof(d.msg), msg, ml);
	split_option(&d);
	s->have_last = 0;
	if (s->tool == DIAG_ANALYZER && strncmp(d.opt, "-Wanalyzer-", 11))
		return 1;	/* the W=1 words again: the gcc run has them */
	if (!tree_file(file, fl, s->prefix, d.file, sizeof(d.file))) {
		s->l->dropped++;
		s->context_used = 1;
		return 1;
	}
	if (s->in_file[0] && !strcmp(s->in_file, d.file))
		snprintf(d.func, sizeof(d.func), "%s", s->in_func);
	/* a header's warning about code a function of a .c inlined: there */
	if (!ends_with(d.file, ".c")) {
		for (i = s->nfr; i-- > 0;) {
			if (!ends_with(s->fr[i].file, ".c"))
				continue;
			{
				size_t k = strlen(d.msg);

				snprintf(d.msg + k, sizeof(d.msg) - k, " (in %s)", d.file);
			}
			snprintf(d.file, sizeof(d.file), "%s", s->fr[i].file);
			snprintf(d.func, sizeof(d.func), "%s", s->fr[i].func);
			d.line = s->fr[i].line;
			break;
		}
	}
	s->context_used = 1;
	if (diag_list_add(s->l, &d))
		return -1;
	s->have_last = 1;
	return 1;
}

int diag_parse(enum diag_tool tool, const char *out, size_t len, const char *prefix,
	       const char *script, int high, struct diag_list *l)
{
	struct parse_state s;
	const char *p = out, *end = out + len;

	memset(&s, 0, sizeof(s));
	s.tool = tool;
	s.prefix = prefix;
	s.script = script;
	s.high = high;
	s.l = l;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		int r = 0;

		if (n > 4096)
			n = 4096;	/* nothing of ours is that long */
		if (tool == DIAG_COCCI)
			r = cocci_line(&s, p, n);
		else if ((r = in_function_line(&s, p, n)) || (r = inlined_line(&s, p, n)))
			;
		else if (tool == DIAG_GCC && (r = modpost_line(&s, p, n)))
			;
		else if (tool == DIAG_SPARSE && (r = sparse_more(&s, p, n)))
			;
		else if ((r = diag_line(&s, p, n)))
			;
		else
			r = note_line(&s, p, n);
		if (r < 0)
			return -1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* ---- functions -------------------------------------------------------------- */

static int ident_start(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static int ident_char(char ch)
{
	return ident_start(ch) || is_digit(ch);
}

/* Names before a '(' that are not the function's: attributes and
 * annotations the kernel writes before or after a declarator. */
static int is_annotation(const char *s, size_t n)
{
	static const char *const names[] = {
		"__attribute__", "__attribute", "__printf", "__scanf", "__acquires",
		"__releases", "__must_hold", "__cond_lock", "__aligned", "__section",
		"__alloc_size", "__malloc", "__diagnose_as", "__counted_by", "__nonstring",
		"__no_sanitize_address", "__weak", "__visible", "__noreturn",
		"__deprecated", "__always_inline", "__must_check", "__cold", "__init",
		"__exit", "sizeof", "typeof", "__typeof__",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], s, n))
			return 1;
	return 0;
}

void diag_function_at(const char *text, size_t len, long line, char *out, size_t outlen)
{
	const char *p = text, *end = text + len;
	const char *id = NULL, *cand = NULL;
	size_t idn = 0, candn = 0;
	long cur = 1, start = 0;
	int depth = 0, paren = 0, init = 0, bol = 1;
	char fn[DIAG_FUNC_MAX] = "";

	out[0] = '\0';
	while (p < end) {
		char ch = *p;

		if (ch == '\n') {
			cur++;
			bol = 1;
			p++;
			if (depth == 0 && cur > line)
				return;	/* past it at file scope */
			continue;
		}
		if (bol && (ch == ' ' || ch == '\t')) {
			p++;
			continue;
		}
		if (bol && ch == '#') {
			/* a preprocessor line, continued by backslashes */
			while (p < end && *p != '\n') {
				if (*p == '\\' && p + 1 < end && p[1] == '\n') {
					cur++;
					p++;
				}
				p++;
			}
			continue;
		}
		bol = 0;
		if (ch == '/' && p + 1 < end && p[1] == '*') {
			p += 2;
			while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
				if (*p == '\n')
					cur++;
				p++;
			}
			p += 2;
			continue;
		}
		if (ch == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (ch == '"' || ch == '\'') {
			p++;
			while (p < end && *p != ch && *p != '\n') {
				if (*p == '\\' && p + 1 < end)
					p++;
				p++;
			}
			p++;
			continue;
		}
		if (ident_start(ch)) {
			id = p;
			while (p < end && ident_char(*p))
				p++;
			idn = (size_t)(p - id);
			continue;
		}
		if (depth == 0) {
			if (ch == '(') {
				if (!paren && !cand && !init && id && !is_annotation(id, idn)) {
					cand = id;
					candn = idn;
				}
				paren++;
			} else if (ch == ')') {
				if (paren)
					paren--;
			} else if (ch == ';' && !paren) {
				cand = NULL;
				init = 0;
			} else if (ch == '=' && !paren) {
				init = 1;
			} else if (ch == '{' && !paren) {
				if (cand && !init) {
					snprintf(fn, sizeof(fn), "%.*s", (int)candn, cand);
					start = cur;
				} else {
					fn[0] = '\0';
				}
				depth = 1;
			}
		} else if (ch == '{') {
			depth++;
		} else if (ch == '}') {
			depth--;
			if (depth == 0) {
				if (fn[0] && line >= start && line <= cur) {
					snprintf(out, outlen, "%s", fn);
					return;
				}
				fn[0] = '\0';
				cand = NULL;
				init = 0;
			}
		}
		id = NULL;
		p++;
	}
	if (depth > 0 && fn[0] && line >= start)
		snprintf(out, outlen, "%s", fn);
}

/* ---- added lines ------------------------------------------------------------- */

void diag_added_release(struct diag_added *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->f[i].r);
	free(a->f);
	memset(a, 0, sizeof(*a));
}

int diag_added_parse(const char *out, size_t len, struct diag_added *a)
{
	const char *p = out, *end = out + len;
	struct diag_lines *cur = NULL;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n > 6 && !memcmp(p, "+++ b/", 6)) {
			if (a->n == a->alloc) {
				size_t na = a->alloc ? a->alloc * 2 : 8;
				struct diag_lines *nf = realloc(a->f, na * sizeof(*nf));

				if (!nf)
					return -1;
				a->f = nf;
				a->alloc = na;
			}
			cur = &a->f[a->n];
			memset(cur, 0, sizeof(*cur));
			if (!tree_file(p + 6, n - 6, NULL, cur->file, sizeof(cur->file)))
				cur = NULL;
			else
				a->n++;
		} else if (n > 4 && !memcmp(p, "+++ ", 4)) {
			cur = NULL;	/* /dev/null: deleted */
		} else if (cur && n > 4 && !memcmp(p, "@@ -", 4)) {
			const char *plus = memchr(p, '+', n);
			long from, count = 1;
			char *e;

			if (plus) {
				from = strtol(plus + 1, &e, 10);
				if (*e == ',')
					count = strtol(e + 1, &e, 10);
				if (count > 0 && from > 0) {
					if (cur->n == cur->alloc) {
						size_t na = cur->alloc ? cur->alloc * 2 : 8;
						long (*nr)[2] = realloc(cur->r, na * sizeof(*nr));

						if (!nr)
							return -1;
						cur->r = nr;
						cur->alloc = na;
					}
					cur->r[cur->n][0] = from;
					cur->r[cur->n][1] = from + count - 1;
					cur->n++;
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int diag_added_has(const struct diag_added *a, const char *file, long line)
{
	size_t i, j;

	if (!a)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (strcmp(a->f[i].file, file))
			continue;
		for (j = 0; j < a->f[i].n; j++)
			if (line >= a->f[i].r[j][0] && line <= a->f[i].r[j][1])
				return 1;
	}
	return 0;
}

/* ---- comparison --------------------------------------------------------------- */

void diag_normalize(const char *msg, char *out, size_t outlen)
{
	size_t k = 0;
	const char *p = msg;

	while (*p && k + 2 < outlen) {
		/* "line 123", "lines 12-14", ":123": places, not words */
		if ((!strncmp(p, "line ", 5) || !strncmp(p, "lines ", 6)) && k + 8 < outlen) {
			size_t w = p[4] == 's' ? 6 : 5;

			memcpy(out + k, p, w);
			k += w;
			p += w;
			if (is_digit(*p)) {
				out[k++] = 'N';
				while (is_digit(*p) || *p == '-' || *p == ',')
					p++;
			}
			continue;
		}
		if (*p == ':' && is_digit(p[1])) {
			out[k++] = ':';
			out[k++] = 'N';
			p++;
			while (is_digit(*p))
				p++;
			continue;
		}
		out[k++] = *p++;
	}
	out[k] = '\0';
}

typedef char norm_t[DIAG_MSG_MAX + 8];

static int same_key(const struct diag *a, const char *na, const struct diag *b, const char *nb)
{
	return a->tool == b->tool && a->error == b->error && !strcmp(a->file, b->file) &&
	       !strcmp(a->func, b->func) && !strcmp(a->script, b->script) && !strcmp(na, nb);
}

static norm_t *norms_of(const struct diag_list *l)
{
	norm_t *n = calloc(l->n + 1, sizeof(*n));
	size_t i;

	for (i = 0; n && i < l->n; i++)
		diag_normalize(l->d[i].msg, n[i], sizeof(n[i]));
	return n;
}

/* Marks the repeats of one place (a header's warning, once per object). */
static void mark_repeats(const struct diag_list *l, norm_t *n, unsigned char *rep)
{
	size_t i, j;

	for (i = 0; i < l->n; i++)
		for (j = 0; j < i && !rep[i]; j++)
			if (!rep[j] && l->d[j].line == l->d[i].line &&
			    same_key(&l->d[j], n[j], &l->d[i], n[i]))
				rep[i] = 1;
}

static int on_added(const struct diag *d, const struct diag_added *added)
{
	size_t i;

	if (diag_added_has(added, d->file, d->line))
		return 1;
	for (i = 0; i < d->npath; i++)
		if (diag_added_has(added, d->file, d->path[i]))
			return 1;
	return 0;
}

int diag_compare(const struct diag_list *before, struct diag_list *after,
		 const struct diag_added *added, struct diag_list *out, size_t *before_kept)
{
	unsigned char *brep = calloc(before->n + 1, 1), *arep = calloc(after->n + 1, 1);
	norm_t *bn = norms_of(before), *an = norms_of(after);
	size_t i, j;
	int ret = -1, pass;

	*before_kept = 0;
	if (!brep || !arep || !bn || !an)
		goto done;
	mark_repeats(before, bn, brep);
	mark_repeats(after, an, arep);
	for (i = 0; i < after->n; i++)
		after->d[i].used = 0;
	for (i = 0; i < before->n; i++) {
		if (brep[i])
			continue;
		/* an old one matches a place the series did not add first */
		for (pass = 0; pass < 2; pass++) {
			for (j = 0; j < after->n; j++) {
				struct diag *a = &after->d[j];

				if (arep[j] || a->used || on_added(a, added) != pass ||
				    !same_key(&before->d[i], bn[i], a, an[j]))
					continue;
				a->used = 1;
				(*before_kept)++;
				break;
			}
			if (j < after->n)
				break;
		}
	}
	for (j = 0; j < after->n; j++)
		if (!arep[j] && !after->d[j].used && diag_list_add(out, &after->d[j]))
			goto done;
	ret = 0;
done:
	free(brep);
	free(arep);
	free(bn);
	free(an);
	return ret;
}

/* ---- types --------------------------------------------------------------------- */

static int opt_is(const char *opt, const char *const *list)
{
	for (; *list; list++) {
		size_t n = strlen(*list);

		if (!strncmp(opt, *list, n) && (!opt[n] || opt[n] == '='))
			return 1;
	}
	return 0;
}

const char *diag_type(const struct diag *d, const struct diag_added *added)
{
	static const char *const bounds[] = {
		"-Wstringop-overflow", "-Warray-bounds", "-Wformat-overflow",
		"-Wformat-truncation", NULL,
	};
	static const char *const style[] = {
		"-Wmissing-prototypes", "-Wmissing-declarations", "-Wold-style-declaration",
		"-Wold-style-definition", "-Wmissing-include-dirs", NULL,
	};
	static const char *const defects[] = {
		"-Wanalyzer-null-dereference", "-Wanalyzer-possible-null-dereference",
		"-Wanalyzer-null-argument", "-Wanalyzer-possible-null-argument",
		"-Wanalyzer-use-after-free", "-Wanalyzer-double-free",
		"-Wanalyzer-malloc-leak", "-Wanalyzer-file-leak",
		"-Wanalyzer-use-of-uninitialized-value", "-Wanalyzer-free-of-non-heap",
		"-Wanalyzer-deref-before-check", NULL,
	};
	static const char *const kdoc[] = {
		"not described in", "Excess function parameter", "expecting prototype for",
		"cannot understand function prototype", "This comment starts with '/**'",
		"Function parameter or member", "No description found for", NULL,
	};
	size_t i;

	switch (d->tool) {
	case DIAG_GCC:
		if (d->modpost)
			return "COMPILE_MODPOST";
		if (opt_is(d->opt, bounds) || strstr(d->msg, "__write_overflow") ||
		    strstr(d->msg, "__read_overflow") || strstr(d->msg, "beyond size of object"))
			return "COMPILE_BOUNDS";
		if (d->error)
			return "COMPILE_ERROR";
		if (opt_is(d->opt, style))
			return "COMPILE_STYLE";
		for (i = 0; !d->opt[0] && kdoc[i]; i++)
			if (strstr(d->msg, kdoc[i]))
				return "COMPILE_STYLE";
		return "COMPILE_WARNING";
	case DIAG_SPARSE:
		if (strstr(d->msg, "address space") || strstr(d->msg, "noderef") ||
		    strstr(d->msg, "address-space"))
			return "COMPILE_SPARSE_ADDRESS_SPACE";
		return "COMPILE_SPARSE";
	case DIAG_ANALYZER:
		return opt_is(d->opt, defects) && on_added(d, added) ? "COMPILE_ANALYZER"
								       : "COMPILE_ANALYZER_QUESTION";
	case DIAG_COCCI:
		return d->script_high ? "COMPILE_COCCI" : "COMPILE_COCCI_QUESTION";
	case DIAG__TOOLS:
		break;
	}
	return "COMPILE_WARNING";
}

/* ---- the cache's lines ----------------------------------------------------------- */

int diag_serialize(const struct diag *d, char *out, size_t outlen)
{
	char path[DIAG_PATH_MAX * 12 + 2] = "";
	size_t i, k = 0;
	int w;

	for (i = 0; i < d->npath && k + 12 < sizeof(path); i++)
		k += (size_t)snprintf(path + k, sizeof(path) - k, "%s%ld", i ? "," : "", d->path[i]);
	w = snprintf(out, outlen, "%d\t%d\t%d\t%s\t%ld\t%s\t%s\t%s\t%d\t%s\t%s\n", (int)d->tool,
		     d->error, d->modpost, d->file, d->line, d->func, d->opt, d->script,
		     d->script_high, path, d->msg);
	return w < 0 || (size_t)w >= outlen ? -1 : 0;
}

/* The next tab-separated field of *p into out. */
static int field(const char **p, const char *end, char *out, size_t outlen)
{
	const char *tab = memchr(*p, '\t', (size_t)(end - *p));
	const char *e = tab ? tab : end;

	if ((size_t)(e - *p) >= outlen)
		return -1;
	memcpy(out, *p, (size_t)(e - *p));
	out[e - *p] = '\0';
	*p = tab ? tab + 1 : end;
	return tab ? 0 : 1;
}

int diag_deserialize(const char *line, size_t len, struct diag *d)
{
	const char *p = line, *end = line + len;
	char num[32], path[DIAG_PATH_MAX * 12 + 2];
	char *q;

	memset(d, 0, sizeof(d[0]));
	while (end > p && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	if (field(&p, end, num, sizeof(num)))
		return -1;
	d->tool = (enum diag_tool)strtol(num, NULL, 10);
	if ((unsigned)d->tool >= DIAG__TOOLS || field(&p, end, num, sizeof(num)))
		return -1;
	d->error = num[0] == '1';
	if (field(&p, end, num, sizeof(num)))
		return -1;
	d->modpost = num[0] == '1';
	if (field(&p, end, d->file, sizeof(d->file)) || field(&p, end, num, sizeof(num)))
		return -1;
	d->line = strtol(num, NULL, 10);
	if (field(&p, end, d->func, sizeof(d->func)) || field(&p, end, d->opt, sizeof(d->opt)) ||
	    field(&p, end, d->script, sizeof(d->script)) || field(&p, end, num, sizeof(num)))
		return -1;
	d->script_high = num[0] == '1';
	if (field(&p, end, path, sizeof(path)) || field(&p, end, d->msg, sizeof(d->msg)) < 0)
		return -1;
	for (q = path; *q && d->npath < DIAG_PATH_MAX;) {
		d->path[d->npath++] = strtol(q, &q, 10);
		if (*q == ',')
			q++;
		else
			break;
	}
	{
		char clean[DIAG_FILE_MAX];

		if (!tree_file(d->file, strlen(d->file), NULL, clean, sizeof(clean)))
			return -1;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/* Reply templates with named placeholders (template.h). */
#include "template.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../fileio.h"

#include "../../checker/banned.h"

/* ---- the templates the bot knows ---------------------------------------- */

#define TN_MUST		1u	/* the template must use it */
#define TN_BLOCK	2u	/* only alone on its line (a multi-line value) */

struct tpl_name {
	const char *name;
	unsigned flags;
};

struct tpl_known {
	const char *file;
	const struct tpl_name *names;
	size_t n;
	int optional;	/* checked when present, not required */
};

/*
 * What compose.c passes to review.txt, review-clean.txt and
 * followup.txt; see the
 * comments at the top of templates/review.txt for what each holds.
 */
#define REVIEW_NAMES(sections_nits)					\
	{ "subject", 0 },						\
	{ "series_version", 0 },					\
	{ "patches", 0 },						\
	{ "total", 0 },							\
	{ "bot_name", 0 },						\
	{ "bot_address", 0 },						\
	{ "bot_version", 0 },						\
	{ "ready_security", 0 },					\
	{ "ready_uapi", 0 },						\
	{ "ready_affects_others", 0 },					\
	{ "ready_maintainer", 0 },					\
	{ "ready_compiles", 0 },					\
	{ "ready_works", 0 },						\
	{ "ready_process", TN_BLOCK },					\
	{ "shown", 0 },							\
	{ "nits_count", 0 },						\
	{ "since", TN_BLOCK },						\
	{ "build", TN_BLOCK },						\
	{ "sections", TN_BLOCK | (sections_nits) },			\
	{ "nits", TN_BLOCK | (sections_nits) },				\
	{ "footer", TN_BLOCK | TN_MUST }

static const struct tpl_name review_names[] = { REVIEW_NAMES(TN_MUST) };
static const struct tpl_name clean_names[] = { REVIEW_NAMES(0) };

static const struct tpl_name footer_names[] = {
	{ "bot_name", 0 },
	{ "bot_address", TN_MUST },
	{ "bot_version", 0 },
};

/* The answer to an opt-out command, asking to confirm it. */
static const struct tpl_name confirm_names[] = {
	{ "command", 0 },
	{ "effect", 0 },
	{ "address", 0 },
	{ "token", TN_MUST },
	{ "bot_name", 0 },
	{ "bot_address", 0 },
	{ "bot_version", 0 },
};

/* The answer to a false-positive command (blocks: compose wraps them). */
static const struct tpl_name feedback_names[] = {
	{ "command", 0 },
	{ "address", 0 },
	{ "result", TN_BLOCK | TN_MUST },
	{ "note", TN_BLOCK },
	{ "bot_name", 0 },
	{ "bot_address", 0 },
	{ "bot_version", 0 },
};

/* The answer to a query mailed to the bot (bot/command_query.c). */
static const struct tpl_name query_names[] = {
	{ "query", 0 },
	{ "address", 0 },
	{ "results", TN_BLOCK | TN_MUST },
	{ "link", TN_BLOCK },
	{ "bot_name", 0 },
	{ "bot_address", 0 },
	{ "bot_version", 0 },
};

#define KNOWN(f, a) { f, a, sizeof(a) / sizeof((a)[0]), 0 }
#define KNOWN_OPTIONAL(f, a) { f, a, sizeof(a) / sizeof((a)[0]), 1 }
static const struct tpl_known known_templates[] = {
	KNOWN("review.txt", review_names),
	KNOWN("review-clean.txt", clean_names),
	KNOWN("footer.txt", footer_names),
	KNOWN("confirm.txt", confirm_names),
	/* needed only with [build] or [boot] (the caller checks) */
	KNOWN_OPTIONAL("followup.txt", clean_names),
	/* a folder made before it: false-positive is recorded, not answered */
	KNOWN_OPTIONAL("feedback.txt", feedback_names),
	/* without it, queries mailed to the bot get no answer */
	KNOWN_OPTIONAL("query.txt", query_names),
	/* the request for a token before a command is carried out (its
	 * names are confirm.txt's); without it, no such command can be */
	KNOWN_OPTIONAL("request.txt", confirm_names),
};
#define NKNOWN (sizeof(known_templates) / sizeof(known_templates[0]))

static const struct tpl_known *known_find(const char *file)
{
	size_t i;

	for (i = 0; i < NKNOWN; i++)
		if (!strcmp(known_templates[i].file, file))
			return &known_templates[i];
	return NULL;
}

static const struct tpl_name *known_name(const struct tpl_known *k,
					 const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (strlen(k->names[i].name) == n && !memcmp(k->names[i].name, name, n))
			return &k->names[i];
	return NULL;
}

/* ---- a parsed template -------------------------------------------------- */

struct tseg {
	const char *p;		/* into text: literal bytes, or the name */
	size_t n;
	int var;		/* 1: a placeholder named p[0, n) */
};

struct tline {
	size_t seg, nseg;	/* segs[seg, seg + nseg) */
	long lineno;		/* in the file, for errors */
	int block;		/* one placeholder alone on the line */
};

struct template {
	char *file;		/* "review.txt" */
	char *text;		/* the whole file; segs point into it */
	const struct tpl_known *known;	/* NULL: any placeholder */
	struct tseg *segs;
	size_t nsegs, asegs;
	struct tline *lines;
	size_t nlines, alines;
};

struct template_set {
	struct template *t;
	size_t n;
};

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

static void template_release(struct template *t)
{
	free(t->file);
	free(t->text);
	free(t->segs);
	free(t->lines);
	memset(t, 0, sizeof(*t));
}

static int add_seg(struct template *t, const char *p, size_t n, int var)
{
	if (t->nsegs == t->asegs) {
		size_t na = t->asegs ? t->asegs * 2 : 32;
		struct tseg *ns = realloc(t->segs, na * sizeof(*ns));

		if (!ns)
			return -1;
		t->segs = ns;
		t->asegs = na;
	}
	t->segs[t->nsegs].p = p;
	t->segs[t->nsegs].n = n;
	t->segs[t->nsegs].var = var;
	t->nsegs++;
	return 0;
}

static int add_line(struct template *t, size_t seg, long lineno)
{
	if (t->nlines == t->alines) {
		size_t na = t->alines ? t->alines * 2 : 32;
		struct tline *nl = realloc(t->lines, na * sizeof(*nl));

		if (!nl)
			return -1;
		t->lines = nl;
		t->alines = na;
	}
	t->lines[t->nlines].seg = seg;
	t->lines[t->nlines].nseg = t->nsegs - seg;
	t->lines[t->nlines].lineno = lineno;
	t->lines[t->nlines].block = 0;
	t->nlines++;
	return 0;
}

size_t template_utf8_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned long cp;
	size_t len, i;

	if (!n)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2;
		cp = u[0] & 0x1f;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		cp = u[0] & 0x0f;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		cp = u[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (u[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

/* Parses one line of the text (no newline) into segments. */
static int parse_line(struct template *t, const char *p, size_t n, long lineno,
		      size_t *nvars, char *err, size_t errlen)
{
	size_t i = 0, lit = 0, first = t->nsegs, k;

	if (n > TEMPLATE_MAX_LINE) {
		set_err(err, errlen, "template %s:%ld: line longer than %d bytes",
			t->file, lineno, TEMPLATE_MAX_LINE);
		return -1;
	}
	for (k = 0; k < n; ) {
		unsigned char c = (unsigned char)p[k];
		size_t l;

		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			set_err(err, errlen, "template %s:%ld: control character 0x%02x",
				t->file, lineno, c);
			return -1;
		}
		l = template_utf8_len(p + k, n - k);
		if (!l) {
			set_err(err, errlen, "template %s:%ld: not UTF-8", t->file, lineno);
			return -1;
		}
		k += l;
	}
	while (i < n) {
		size_t j;

		if (p[i] != '{' || i + 1 >= n || p[i + 1] != '{') {
			i++;
			continue;
		}
		if (i > lit && add_seg(t, p + lit, i - lit, 0))
			goto nomem;
		if (i + 3 < n && p[i + 2] == '{' && p[i + 3] == '{') {
			/* "{{{{": a literal "{{" */
			if (add_seg(t, p + i, 2, 0))
				goto nomem;
			i += 4;
			lit = i;
			continue;
		}
		for (j = i + 2; j < n && is_name_char(p[j]); j++)
			;
		if (j == i + 2 || j + 1 >= n || p[j] != '}' || p[j + 1] != '}') {
			set_err(err, errlen,
				"template %s:%ld: bad placeholder at column %zu (want {{name}} with name [a-z_]+, or {{{{ for a literal {{)",
				t->file, lineno, i + 1);
			return -1;
		}
		if (j - (i + 2) > TEMPLATE_MAX_NAME) {
			set_err(err, errlen, "template %s:%ld: placeholder name longer than %d bytes",
				t->file, lineno, TEMPLATE_MAX_NAME);
			return -1;
		}
		if (++*nvars > TEMPLATE_MAX_PLACEHOLDERS) {
			set_err(err, errlen, "template %s:%ld: more than %d placeholders",
				t->file, lineno, TEMPLATE_MAX_PLACEHOLDERS);
			return -1;
		}
		if (t->known && !known_name(t->known, p + i + 2, j - (i + 2))) {
			set_err(err, errlen, "template %s:%ld: unknown placeholder {{%.*s}}",
				t->file, lineno, (int)(j - (i + 2)), p + i + 2);
			return -1;
		}
		if (add_seg(t, p + i + 2, j - (i + 2), 1))
			goto nomem;
		i = j + 2;
		lit = i;
	}
	if (n > lit && add_seg(t, p + lit, n - lit, 0))
		goto nomem;
	if (add_line(t, first, lineno))
		goto nomem;
	if (t->nsegs - first == 1 && t->segs[first].var &&
	    t->segs[first].n + 4 == n)
		t->lines[t->nlines - 1].block = 1;
	if (t->known) {
		for (k = first; k < t->nsegs; k++) {
			const struct tpl_name *tn;

			if (!t->segs[k].var)
				continue;
			tn = known_name(t->known, t->segs[k].p, t->segs[k].n);
			if ((tn->flags & TN_BLOCK) && !t->lines[t->nlines - 1].block) {
				set_err(err, errlen,
					"template %s:%ld: {{%s}} must be alone on its line",
					t->file, lineno, tn->name);
				return -1;
			}
		}
	}
	return 0;
nomem:
	set_err(err, errlen, "template %s: out of memory", t->file);
	return -1;
}

static int uses(const struct template *t, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < t->nsegs; i++)
		if (t->segs[i].var && t->segs[i].n == n && !memcmp(t->segs[i].p, name, n))
			return 1;
	return 0;
}

/* Takes the file's bytes (text, len; text[len] == 0) and parses them. */
static int template_parse(struct template *t, char *err, size_t errlen)
{
	const char *p = t->text, *end = t->text + strlen(t->text);
	size_t nvars = 0, i;
	long lineno = 0;
	int top = 1;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);

		lineno++;
		if (!(top && n && p[0] == '#')) {
			top = 0;
			if (parse_line(t, p, n, lineno, &nvars, err, errlen))
				return -1;
		}
		p += n + (eol ? 1 : 0);
	}
	if (t->known) {
		for (i = 0; i < t->known->n; i++) {
			const struct tpl_name *tn = &t->known->names[i];

			if ((tn->flags & TN_MUST) && !uses(t, tn->name)) {
				set_err(err, errlen, "template %s: {{%s}} is required but not used",
					t->file, tn->name);
				return -1;
			}
		}
	}
	return 0;
}

static int good_file_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 5 || n > 64 || s[0] == '.' || strcmp(s + n - 4, ".txt"))
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return 0;
	}
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_one(const char *dir, const char *file, struct template *t,
		    char *err, size_t errlen)
{
	struct sbuf sb;
	char path[4096];
	int ret = -1;

	sbuf_init(&sb, TEMPLATE_MAX_FILE);
	memset(t, 0, sizeof(*t));
	t->file = strdup(file);
	if (!t->file) {
		set_err(err, errlen, "template %s: out of memory", file);
		goto out;
	}
	t->known = known_find(file);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >= sizeof(path)) {
		set_err(err, errlen, "template %s: path too long", file);
		goto out;
	}
	if (fileio_read(path, &sb)) {
		if (errno == EFBIG)
			set_err(err, errlen, "template %s: larger than %u bytes",
				file, TEMPLATE_MAX_FILE);
		else
			set_err(err, errlen, "template %s: %s", file, strerror(errno));
		goto out;
	}
	if (memchr(sb.buf, '\0', sb.len)) {
		set_err(err, errlen, "template %s: NUL byte", file);
		goto out;
	}
	t->text = sbuf_detach(&sb, NULL);
	if (!t->text) {
		set_err(err, errlen, "template %s: out of memory", file);
		goto out;
	}
	ret = template_parse(t, err, errlen);
out:
	sbuf_release(&sb);
	return ret;
}

int template_set_load(const char *dir, struct template_set **out,
		      char *err, size_t errlen)
{
	struct template_set *ts = NULL;
	char *names[TEMPLATE_MAX_FILES];
	size_t nnames = 0, i;
	struct dirent *de;
	DIR *dp;
	int ret = -1;

	*out = NULL;
	dp = opendir(dir);
	if (!dp) {
		set_err(err, errlen, "template folder %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(dp))) {
		char path[4096];
		struct stat st;

		if (!good_file_name(de->d_name))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     de->d_name) >= sizeof(path) ||
		    stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		if (nnames == TEMPLATE_MAX_FILES) {
			set_err(err, errlen, "template folder %s: more than %d templates",
				dir, TEMPLATE_MAX_FILES);
			goto out;
		}
		names[nnames] = strdup(de->d_name);
		if (!names[nnames]) {
			set_err(err, errlen, "template folder %s: out of memory", dir);
			goto out;
		}
		nnames++;
	}
	qsort(names, nnames, sizeof(names[0]), cmp_str);
	for (i = 0; i < NKNOWN; i++) {
		const char *f = known_templates[i].file;

		if (!known_templates[i].optional && !bsearch(&f, names, nnames, sizeof(names[0]), cmp_str)) {
			set_err(err, errlen, "template folder %s: %s missing", dir, f);
			goto out;
		}
	}
	ts = calloc(1, sizeof(*ts));
	if (ts)
		ts->t = calloc(nnames, sizeof(*ts->t));
	if (!ts || !ts->t) {
		set_err(err, errlen, "template folder %s: out of memory", dir);
		goto out;
	}
	for (i = 0; i < nnames; i++) {
		ts->n++;
		if (load_one(dir, names[i], &ts->t[i], err, errlen))
			goto out;
	}
	*out = ts;
	ts = NULL;
	ret = 0;
out:
	closedir(dp);
	for (i = 0; i < nnames; i++)
		free(names[i]);
	template_set_free(ts);
	return ret;
}

void template_set_free(struct template_set *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		template_release(&t->t[i]);
	free(t->t);
	free(t);
}

static const struct template *find_template(const struct template_set *ts,
					    const char *name)
{
	size_t i;

	for (i = 0; ts && i < ts->n; i++)
		if (!strcmp(ts->t[i].file, name))
			return &ts->t[i];
	return NULL;
}

int template_set_has(const struct template_set *t, const char *name)
{
	return find_template(t, name) != NULL;
}

/* ---- wrapping ----------------------------------------------------------- */

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The column after s[0, n) printed from column col. */
static size_t advance(size_t col, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\t')
			col = (col / 8 + 1) * 8;
		else if ((c & 0xc0) != 0x80)
			col++;
	}
	return col;
}

size_t template_indent(const char *s, size_t n)
{
	size_t i = 0, j;

	while (i < n && is_blank(s[i]))
		i++;
	/* "  label:   value": the value's column (a checklist line) */
	for (j = i; j + 2 < n && j < TEMPLATE_LABEL_MAX; j++) {
		if (s[j] == ':' && is_blank(s[j + 1]) && is_blank(s[j + 2])) {
			for (j++; j < n && is_blank(s[j]); j++)
				;
			if (j < n && j <= TEMPLATE_LABEL_MAX)
				return advance(0, s, j);
			break;
		}
	}
	return advance(0, s, i);
}

/* Where to cut s[0, n) so at most max bytes stay, at a character start. */
static size_t cut_at(const char *s, size_t n, size_t max)
{
	size_t i = n < max ? n : max;

	while (i > 0 && i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i ? i : (n < max ? n : max);
}

/*
 * Bytes of the start of s[0, n) that fit in room columns from column
 * col, at least one character: up to just after the last '/' among
 * them, else the last '-', '_', '.' or ',', when that keeps half the
 * room or more (a path or a name breaks where a reader expects it),
 * else as many characters as fit.
 */
static size_t cut_to_room(const char *s, size_t n, size_t col, size_t room)
{
	size_t i = 0, fit = 0, at_punct = 0, at_slash = 0, c = col;

	while (i < n) {
		size_t l = template_utf8_len(s + i, n - i), nc;

		if (!l)
			l = 1;
		nc = advance(c, s + i, l);
		if (nc - col > room)
			break;
		c = nc;
		i += l;
		fit = i;
		if (strchr("/-_.,", s[i - 1]) && i < n && c - col >= room / 2) {
			at_punct = i;
			if (s[i - 1] == '/')
				at_slash = i;
		}
	}
	if (at_slash)
		return at_slash;
	if (at_punct)
		return at_punct;
	if (fit)
		return fit;
	return template_utf8_len(s, n) ? template_utf8_len(s, n) : 1;
}

/*
 * A word that must not start a wrapped line: "mailmap:", "Fixes:", a
 * token of two or more characters, the first a letter, digit or '_'
 * (or any non-ASCII byte), ending in ':'.  Followed by more text on its
 * line, it makes the line a trailer for b4 (its find_trailers():
 * "^\\s*(\\w\\S+):\\s+(\\S.*)"), and `b4 am` of the series would put the
 * line into the commit (with -S, whoever it names).
 */
static int trailer_word(const char *s, size_t n)
{
	unsigned char c = (unsigned char)s[0];

	return n >= 3 && s[n - 1] == ':' &&
	       (isalnum(c) || c == '_' || c >= 0x80);
}

/*
 * Whether a line starting with token s[0, n) (a trailer_word()) and
 * going on with text from rest[0, rn) could be one `b4 am` takes: its
 * value holds an address, or the token names a trailer that needs none
 * (b4's find_trailers(): Fixes:, Link:, ...).  Only such a token is kept
 * up on a full line rather than start the next one.
 */
static int b4_would_take(const char *s, size_t n, const char *rest, size_t rn)
{
	static const char *const nonperson[] = {
		"fixes", "subject", "date", "from", "link", "buglink", "closes",
		"obsoleted-by", "change-id", "base-commit", "message-id",
	};
	size_t k;

	if (memchr(rest, '@', rn))
		return 1;
	for (k = 0; k < sizeof(nonperson) / sizeof(nonperson[0]); k++)
		if (strlen(nonperson[k]) == n - 1 && !strncasecmp(s, nonperson[k], n - 1))
			return 1;
	return 0;
}

/* The next word of s[i, n): its blanks [*g, *w), itself [*w, *e). */
static void next_word(const char *s, size_t n, size_t i, size_t *g, size_t *w,
		      size_t *e)
{
	*g = i;
	while (i < n && is_blank(s[i]))
		i++;
	*w = i;
	while (i < n && !is_blank(s[i]))
		i++;
	*e = i;
}

int template_wrap(struct sbuf *out, const char *s, size_t n, size_t width,
		  size_t cont)
{
	size_t i, col, bytes;
	int first = 1, on_line = 0;

	if (advance(0, s, n) <= width && n <= TEMPLATE_MAX_LINE) {
		/* as it is, trailing blanks too ("-- " stays a signature line) */
		sbuf_add(out, s, n);
		return sbuf_addch(out, '\n');
	}
	while (n && is_blank(s[n - 1]))
		n--;
	if (cont > TEMPLATE_WRAP_COLUMNS)
		cont = TEMPLATE_WRAP_COLUMNS;
	for (i = 0; i < n && is_blank(s[i]); i++)
		;
	if (i > TEMPLATE_WRAP_COLUMNS)
		i = 0;	/* an absurd indentation is not kept */
	sbuf_add(out, s, i);
	col = advance(0, s, i);
	bytes = i;
	while (i < n) {
		size_t g, w, gcol, ng, nw, ne;
		int brk;

		next_word(s, n, i, &g, &w, &i);
		gcol = advance(col, s + g, w - g);
		brk = !first && advance(gcol, s + w, i - w) > width;
		next_word(s, n, i, &ng, &nw, &ne);
		/*
		 * No wrapped line starts with "token: text" (trailer_word):
		 * the word before it goes down with it; when that is alone
		 * on its line or a token too, the token starts the next line
		 * unless b4 could take that line (b4_would_take()): then it
		 * stays up there, past the width.
		 */
		if (brk && trailer_word(s + w, i - w) && nw < ne &&
		    b4_would_take(s + w, i - w, s + i, n - i))
			brk = 0;
		if (!brk && on_line && !trailer_word(s + w, i - w) && nw < ne &&
		    trailer_word(s + nw, ne - nw) && ne < n &&
		    advance(advance(gcol, s + w, i - w), s + ng, ne - ng) > width)
			brk = 1;
		if (brk) {
			sbuf_addch(out, '\n');
			sbuf_addrep(out, ' ', cont);
			col = cont;
			bytes = cont;
			on_line = 0;
		} else {
			sbuf_add(out, s + g, w - g);
			col = gcol;
			bytes += w - g;
		}
		first = 0;
		/* a word wider than a whole line is cut into lines that fit
		 * (cut_to_room()): only quoted code, which is never wrapped,
		 * passes width */
		while (!on_line && width > col + 8 && advance(col, s + w, i - w) > width) {
			size_t k = cut_to_room(s + w, i - w, col, width - col);

			sbuf_add(out, s + w, k);
			sbuf_addch(out, '\n');
			sbuf_addrep(out, ' ', cont);
			w += k;
			col = cont;
			bytes = cont;
			if (width <= col + 8)
				break;
		}
		/* a word that would pass the line limit is cut */
		while (bytes + (i - w) > TEMPLATE_MAX_LINE) {
			size_t room = TEMPLATE_MAX_LINE - bytes;
			size_t k = room ? cut_at(s + w, i - w, room) : 0;

			sbuf_add(out, s + w, k);
			sbuf_addch(out, '\n');
			sbuf_addrep(out, ' ', cont);
			w += k;
			col = cont;
			bytes = cont;
		}
		sbuf_add(out, s + w, i - w);
		col = advance(col, s + w, i - w);
		bytes += i - w;
		on_line++;
	}
	return sbuf_addch(out, '\n');
}

/* ---- rendering ---------------------------------------------------------- */

static const char *find_var(const struct template_var *vars, size_t nvars,
			    const char *name, size_t n, int *found)
{
	size_t i;

	for (i = 0; i < nvars; i++)
		if (vars[i].name && strlen(vars[i].name) == n &&
		    !memcmp(vars[i].name, name, n)) {
			*found = 1;
			return vars[i].value;
		}
	*found = 0;
	return NULL;
}

/* An inline value: controls become spaces, malformed UTF-8 U+FFFD. */
static void add_inline(struct sbuf *sb, const char *v)
{
	size_t n = strlen(v), i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)v[i];
		size_t l = template_utf8_len(v + i, n - i);

		if (c < 0x20 || c == 0x7f) {
			sbuf_addch(sb, ' ');
			i++;
		} else if (!l) {
			sbuf_addstr(sb, "\xef\xbf\xbd");
			i++;
		} else {
			sbuf_add(sb, v + i, l);
			i += l;
		}
	}
}

int template_render(const struct template_set *ts, const char *name,
		    const struct template_var *vars, size_t nvars,
		    struct sbuf *out, char *err, size_t errlen)
{
	const struct template *t = find_template(ts, name);
	size_t start = out->len, i, k;
	int start_err = out->err;
	struct sbuf line;
	int ret = -1;

	sbuf_init(&line, out->cap);
	if (!t) {
		set_err(err, errlen, "no template %s", name);
		goto out;
	}
	if (t->known) {
		for (i = 0; i < nvars; i++) {
			const char *vn = vars[i].name ? vars[i].name : "";

			if (!known_name(t->known, vn, strlen(vn))) {
				set_err(err, errlen, "template %s: unknown placeholder {{%s}} given",
					t->file, vn);
				goto out;
			}
		}
	}
	for (i = 0; i < t->nlines; i++) {
		const struct tline *l = &t->lines[i];

		sbuf_reset(&line);
		for (k = l->seg; k < l->seg + l->nseg; k++) {
			const struct tseg *s = &t->segs[k];
			const char *v;
			int found;

			if (!s->var) {
				sbuf_add(&line, s->p, s->n);
				continue;
			}
			v = find_var(vars, nvars, s->p, s->n, &found);
			if (!v) {
				set_err(err, errlen, "template %s:%ld: no value for {{%.*s}}",
					t->file, l->lineno, (int)s->n, s->p);
				goto out;
			}
			if (l->block)
				sbuf_addstr(&line, v);
			else
				add_inline(&line, v);
		}
		if (l->block) {
			if (line.len) {
				sbuf_add(out, line.buf, line.len);
				if (line.buf[line.len - 1] != '\n')
					sbuf_addch(out, '\n');
			}
		} else {
			template_wrap(out, line.buf, line.len, TEMPLATE_WRAP_COLUMNS,
				      template_indent(line.buf, line.len));
		}
		if (line.err || out->err) {
			set_err(err, errlen, "template %s: %s", t->file,
				sbuf_strerror(line.err ? line.err : out->err));
			goto out;
		}
	}
	ret = 0;
out:
	if (ret) {
		/* out as it was, without the sticky error we may have set */
		sbuf_truncate(out, start);
		out->err = start_err;
	}
	sbuf_release(&line);
	return ret;
}

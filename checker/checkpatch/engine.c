// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine's helpers (eng.h) the rule segments share: the per-line
 * scratch arena and its strings, the matches' $1.. and s///, the pool of
 * sanitised lines (eng_set_line), line sets, checkpatch.pl's small helpers
 * (expand_tabs, trim, get_quoted_string, ...) and report() with ERROR,
 * WARN and CHK.  The per-line loop itself is process.c.
 */
#include "eng.h"
#include "vocab.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../banned.h"

/* ---- arena ---- */

struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	char data[];
};

#define ARENA_CHUNK (64u << 10)

void eng_fail_line(struct eng *e)
{
	e->line_skip = 1;
	/* the newest chunk looks full: every later request takes the slow
	 * path below, which refuses it (the fast path gains no test) */
	if (e->arena)
		e->arena->used = e->arena->size;
}

char *eng_oom_str(struct eng *e)
{
	memset(e->oom_str, 0, sizeof(e->oom_str));
	return e->oom_str;
}

int eng_late(struct eng *e)
{
	if (!e->timed_out && !re_expired(e->rc) && re_now_ns() < e->deadline)
		return 0;
	e->timed_out = 1;
	eng_fail_line(e);	/* the rest of this line comes to nothing */
	return 1;
}

void *eng_alloc(struct eng *e, size_t n)
{
	struct arena_chunk *c = e->arena;

	if (n > ENG_ARENA_MAX) {
		eng_fail_line(e);
		return NULL;
	}
	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t sz = n > ARENA_CHUNK ? n : ARENA_CHUNK;

		/* (a new chunk every 64 KiB of scratch: the deadline is
		 * looked at here too, so that one line cannot run on) */
		if (e->line_skip || (e->deadline && eng_late(e)) ||
		    e->arena_used + sz > ENG_ARENA_MAX) {
			eng_fail_line(e);
			return NULL;
		}
		c = malloc(sizeof(*c) + sz);
		if (!c) {
			e->failed = 1;	/* the process is out of memory: stop */
			eng_fail_line(e);
			return NULL;
		}
		c->size = sz;
		c->used = 0;
		c->next = e->arena;
		e->arena = c;
		e->arena_used += sz;
	}
	c->used += n;
	return c->data + c->used - n;
}

void eng_known_lines(struct eng *e)
{
	const char *s[3] = { e->line, e->rawline, e->sline };
	int i;

	for (i = 0; i < 3; i++) {
		e->known_s[i] = s[i];
		e->known_n[i] = s[i] ? strlen(s[i]) : 0;
		e->known_sum[i].ready = 0;	/* made when first needed */
	}
}

void eng_arena_reset(struct eng *e)
{
	struct arena_chunk *c = e->arena, *next;

	/* keep the newest chunk, drop the rest */
	if (!c)
		return;
	for (next = c->next; next; ) {
		struct arena_chunk *n2 = next->next;

		free(next);
		next = n2;
	}
	c->next = NULL;
	c->used = 0;
	e->arena_used = c->size;
}

void arena_free_all(struct eng *e)
{
	struct arena_chunk *c = e->arena;

	while (c) {
		struct arena_chunk *n = c->next;

		free(c);
		c = n;
	}
	e->arena = NULL;
	e->arena_used = 0;
}

char *eng_strndup(struct eng *e, const char *s, size_t n)
{
	char *p = eng_alloc(e, n + 1);

	if (!p)
		return eng_oom_str(e);
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *eng_strdup(struct eng *e, const char *s)
{
	return eng_strndup(e, s ? s : "", s ? strlen(s) : 0);
}

char *eng_printf(struct eng *e, const char *fmt, ...)
{
	va_list ap;
	struct sbuf sb;
	char *p;

	/* a failed line's messages are dropped: do not format them */
	if (e->line_skip)
		return eng_oom_str(e);
	sbuf_init(&sb, ENG_ARENA_MAX);
	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	p = eng_sbuf_str(e, &sb);
	sbuf_release(&sb);
	return p;
}

char *eng_sbuf_str(struct eng *e, const struct sbuf *sb)
{
	if (sb->err) {
		eng_fail_line(e);
		return eng_oom_str(e);
	}
	return eng_strndup(e, sb->buf, sb->len);
}

char *eng_cat(struct eng *e, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *p = eng_alloc(e, na + nb + 1);

	if (!p)
		return eng_oom_str(e);
	memcpy(p, a, na);
	memcpy(p + na, b, nb + 1);
	return p;
}

char *eng_cap(struct eng *e, int n)
{
	size_t len;
	const char *p = re_cap(&e->m, n, &len);

	return eng_strndup(e, p ? p : "", p ? len : 0);
}

char *eng_mcap(struct eng *e, const struct re_m *m, int i)
{
	size_t n;
	const char *p = re_cap(m, i, &n);

	return eng_strndup(e, p ? p : "", p ? n : 0);
}

long eng_count_nl(const char *s)
{
	long n = 0;

	for (; *s; s++)
		if (*s == '\n')
			n++;
	return n;
}

int eng_cap_def(struct eng *e, int n)
{
	return re_cap_defined(&e->m, n);
}

char *eng_nl_blank(struct eng *e, const char *s)
{
	size_t n = strlen(s), i;
	char *p = eng_strndup(e, s, n);

	if (e->line_skip)	/* p may be shorter than s */
		return p;
	for (i = 0; i + 1 < n; i++)
		if (p[i] == '\n' && p[i + 1] != '\n')	/* '.': all but \n */
			p[++i] = ' ';
	return p;
}

char *eng_fs_blank(struct eng *e, const char *s)
{
	size_t n = strlen(s);
	char *p = eng_strndup(e, s, n), *q = p;

	if (e->line_skip)	/* p may be shorter than s */
		return p;
	while ((q = memchr(q, '\034', (size_t)(p + n - q))))
		*q++ = ' ';
	return p;
}

/* Perl's \s: space, \t, \n, \v, \f, \r */
static int is_perl_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

int eng_has_boundary(const char *stat)
{
	size_t n = strlen(stat), end = n;

	while (end && is_perl_space((unsigned char)stat[end - 1]))
		end--;
	if (end && stat[end - 1] == ';') {
		while (end && stat[end - 1] == ';')
			end--;
		n = end;
	}
	return memchr(stat, '{', n) || memchr(stat, ';', n);
}

char *eng_subst(struct eng *e, const char *pat, const char *repl,
		const char *s, int global)
{
	struct sbuf out;
	char *p;

	if (e->line_skip)	/* a failed line: its results are not used */
		return eng_oom_str(e);
	sbuf_init(&out, ENG_ARENA_MAX);
	re_subst(e->rc, pat, repl, s, strlen(s), global, &out);
	p = eng_sbuf_str(e, &out);
	sbuf_release(&out);
	return p;
}

const char *eng_pat(struct eng *e, const char *fmt, ...)
{
	va_list ap;
	struct sbuf sb;
	const char *p;

	/* a failed line compiles nothing more (a pattern per argument of a
	 * #define can be thousands) */
	if (e->line_skip || (e->deadline && eng_late(e)))
		return "(*FAIL)";
	sbuf_init(&sb, 1u << 24);
	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	p = re_intern(e->rc, sb.buf, sb.len);
	sbuf_release(&sb);
	return p ? p : "(*FAIL)";
}

static int may_type_from(struct eng *e, const char *q, int depth)
{
	static const char *const words[] = {
		"typedef", "extern", "static", "asmlinkage", "inline",
		"__always_inline", "noinline", "__inline", "__inline__",
	};
	size_t i;

	if (vocab_may_start_type(q) || re_learned_word_at(e->rc, q))
		return 1;
	if (depth >= 8)
		return 1;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = strlen(words[i]);
		const char *r = q + n;

		if (strncmp(q, words[i], n))
			continue;
		while (vocab_is_space((unsigned char)*r))
			r++;
		if (may_type_from(e, r, depth + 1))
			return 1;
	}
	return 0;
}

int eng_may_hold_type(struct eng *e, const char *s)
{
	const char *p;

	for (p = s; p && *p; p++) {
		unsigned char c = (unsigned char)*p;
		int word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '_';

		if (!word)
			continue;
		if (vocab_may_start_type(p) || re_learned_word_at(e->rc, p))
			return 1;
		/* the rest of this word: a type starts at a word's start */
		while (p[1] && ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z') ||
				(p[1] >= '0' && p[1] <= '9') || p[1] == '_'))
			p++;
	}
	return 0;
}

int eng_may_type_after_first(struct eng *e, const char *s)
{
	if (!s || !*s++)
		return 0;
	while (vocab_is_space((unsigned char)*s))
		s++;
	return may_type_from(e, s, 0);
}

char *eng_quote(struct eng *e, const char *s)
{
	struct sbuf sb;
	char *p;

	if (e->line_skip)
		return eng_oom_str(e);
	sbuf_init(&sb, ENG_ARENA_MAX);
	re_quote(s, strlen(s), &sb);
	p = eng_sbuf_str(e, &sb);
	sbuf_release(&sb);
	return p;
}

/* ---- line sets ---- */

int lineset_has(const struct lineset *s, long v)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return 1;
	return 0;
}

int lineset_add(struct lineset *s, long v)
{
	if (lineset_has(s, v))
		return 0;
	if (s->n >= ENG_MAX_SUPPRESS)
		return -1;
	if (s->n == s->alloc) {
		size_t na = s->alloc ? s->alloc * 2 : 16;
		long *nv = realloc(s->v, na * sizeof(*nv));

		if (!nv)
			return -1;
		s->v = nv;
		s->alloc = na;
	}
	s->v[s->n++] = v;
	return 1;
}

void lineset_clear(struct lineset *s)
{
	s->n = 0;
}

void lineset_release(struct lineset *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->alloc = 0;
}

/* ---- checkpatch.pl's small helpers ---- */

const char *eng_line(struct eng *e, long n1)
{
	if (n1 < 1 || (size_t)n1 > e->nlines)
		return NULL;
	return e->lines[n1 - 1];
}

const char *eng_rawline(struct eng *e, long n1)
{
	if (n1 < 1 || (size_t)n1 > e->nlines)
		return NULL;
	return e->rawlines[n1 - 1];
}

char *expand_tabs(struct eng *e, const char *s)
{
	size_t n = 0, tabs = 0, i, len = strlen(s), ts = (size_t)e->o->tabsize;
	char *res, *p;

	for (i = 0; i < len; i++)
		if (s[i] == '\t')
			tabs++;
	res = eng_alloc(e, len + tabs * ts + 1);
	if (!res)
		return eng_oom_str(e);
	p = res;
	for (i = 0; i < len; i++) {
		if (s[i] == '\t') {
			*p++ = ' ';
			n++;
			for (; n % ts; n++)
				*p++ = ' ';
			continue;
		}
		*p++ = s[i];
		n++;
	}
	*p = '\0';
	return res;
}

char *copy_spacing(struct eng *e, const char *s)
{
	char *r = eng_strdup(e, s), *p;

	for (p = r; *p; p++)
		if (*p != '\t')
			*p = ' ';
	return r;
}

void line_stats(struct eng *e, const char *line, int *length, int *indent)
{
	char *x = expand_tabs(e, line[0] ? line + 1 : line);
	const char *p = x;

	/* Perl's \s: space, \t, \n, \v, \f, \r */
	while (*p && strchr(" \t\n\v\f\r", *p))
		p++;
	*length = (int)strlen(x);
	*indent = (int)(p - x);
}

char *cat_vet(struct eng *e, const char *s)
{
	struct sbuf sb;
	char *r;
	const unsigned char *p;

	sbuf_init(&sb, ENG_ARENA_MAX);
	for (p = (const unsigned char *)s; *p; p++) {
		/* [[:cntrl:]] in Perl's byte semantics: 0-31 and 127 */
		if (*p < 32 || *p == 127) {
			sbuf_addch(&sb, '^');
			sbuf_addch(&sb, (*p + 64) & 0xff);
		} else {
			sbuf_addch(&sb, *p);
		}
	}
	sbuf_addch(&sb, '$');
	r = eng_sbuf_str(e, &sb);
	sbuf_release(&sb);
	return r;
}

char *ltrim(struct eng *e, const char *s)
{
	while (is_perl_space((unsigned char)*s))
		s++;
	return eng_strdup(e, s);
}

char *rtrim(struct eng *e, const char *s)
{
	size_t n = strlen(s);

	while (n && is_perl_space((unsigned char)s[n - 1]))
		n--;
	return eng_strndup(e, s, n);
}

char *trim(struct eng *e, const char *s)
{
	while (is_perl_space((unsigned char)*s))
		s++;
	return rtrim(e, s);
}

char *tabify(struct eng *e, const char *leading)
{
	int ts = e->o->tabsize;
	char *spaces = eng_alloc(e, (size_t)ts + 1);
	const char *p1, *p2;
	char *cur = eng_strdup(e, leading);

	if (!spaces)
		return cur;
	memset(spaces, ' ', (size_t)ts);
	spaces[ts] = '\0';
	p1 = eng_pat(e, "^([\\t]*)%s", spaces);
	p2 = eng_pat(e, "^([\\t]*)( {1,%d})\\t", ts - 1);
	while (re_match(e->rc, p1, cur, NULL))
		cur = eng_subst(e, p1, "$1\t", cur, 1);
	while (re_match(e->rc, p2, cur, NULL))
		cur = eng_subst(e, p2, "$1\t", cur, 1);
	return cur;
}

int pos_last_openparen(struct eng *e, const char *line)
{
	size_t len = strlen(line), pos;
	int opens = 0, closes = 0;
	size_t last_openparen = 0;
	struct re_m m;

	for (pos = 0; pos < len; pos++) {
		if (line[pos] == '(')
			opens++;
		else if (line[pos] == ')')
			closes++;
	}
	if (opens == 0 || closes >= opens)
		return -1;
	for (pos = 0; pos < len; pos++) {
		const char *string = line + pos;

		if (re_match(e->rc, "^($FuncArg|$balanced_parens)", string, &m)) {
			pos += re_end(&m, 1) - re_start(&m, 1) - 1;
		} else if (line[pos] == '(') {
			last_openparen = pos;
		} else if (!strchr(string, '(')) {
			break;
		}
	}
	return (int)strlen(expand_tabs(e, eng_strndup(e, line, last_openparen))) + 1;
}

char *get_raw_comment(struct eng *e, const char *line, const char *rawline)
{
	size_t n = strlen(line), rn = strlen(rawline), i, k = 0;
	char *r = eng_alloc(e, n + 1);

	if (!r)
		return eng_oom_str(e);
	for (i = 0; i < n; i++)
		if (line[i] == '\x1c' && i < rn)
			r[k++] = rawline[i];
	r[k] = '\0';
	return r;
}

char *get_quoted_string(struct eng *e, const char *line, const char *rawline)
{
	struct re_m m;
	size_t s, en, rn;

	if (!line || !rawline)
		return eng_strdup(e, "");
	if (!re_match(e->rc, "($String)", line, &m))
		return eng_strdup(e, "");
	s = re_start(&m, 0);
	en = re_end(&m, 0);
	rn = strlen(rawline);
	if (s > rn)
		return eng_strdup(e, "");
	if (en > rn)
		en = rn;
	return eng_strndup(e, rawline + s, en - s);
}

/* ---- reports ---- */

int eng_show_type(struct eng *e, enum rule_id id)
{
	const struct chk_opts *o = e->o;

	if (o->use_any)
		return o->use[id];
	return !o->ignore[id];
}

int eng_report(struct eng *e, enum rule_sev sev, enum rule_id id,
	       const char *msg)
{
	struct chk_result *res = e->res;
	struct chk_finding *f, one;
	struct sbuf out;
	const char *nl;
	char *blk;
	size_t msglen, filelen;
	int has_loc;

	/* reviewbot (--extra): a subsystem's convention may make it style */
	if (e->o->extra)
		id = rv_retype(e, id, &msg);
	/* a failed line's later findings come from cut-short strings, and
	 * those made after the deadline from cut-short matches */
	if (e->line_skip || (e->deadline && re_expired(e->rc)) ||
	    !eng_show_type(e, id))
		return 0;
	/* the checker has no tree: with --extra an unknown id says nothing */
	if (e->o->extra && id == R_UNKNOWN_COMMIT_ID)
		return 0;
	if (e->o->test_only && !strstr(msg, e->o->test_only))
		return 0;
	if (e->o->categories && !(e->o->categories & (1u << rule_table[id].cat)))
		return 0;
	if (!e->o->sink && res->n == res->alloc) {
		size_t na = res->alloc ? res->alloc * 2 : 32;
		struct chk_finding *nf;

		if (na > (1u << 22)) {
			e->failed = 1;
			e->failed_why = "too many findings";
			return 0;
		}
		nf = realloc(res->f, na * sizeof(*nf));
		if (!nf) {
			e->failed = 1;
			return 0;
		}
		res->f = nf;
		res->alloc = na;
	}

	/* checkpatch.pl's report(): prefix, level, type, message */
	sbuf_init(&out, CHK_MAX_REPORT);
	/* Term::ANSIColor's RED, YELLOW, GREEN, BLUE and RESET */
	if (e->o->color)
		sbuf_addstr(&out, sev == SEV_ERROR ? "\033[31m" :
			    sev == SEV_WARNING ? "\033[33m" : "\033[32m");
	sbuf_addstr(&out, e->prefix ? e->prefix : "");
	sbuf_addstr(&out, rule_sev_name(sev));
	sbuf_addch(&out, ':');
	if (e->o->show_types) {
		if (e->o->color)
			sbuf_addstr(&out, "\033[34m");
		sbuf_addstr(&out, rule_table[id].name);
		sbuf_addch(&out, ':');
	}
	if (e->o->color)
		sbuf_addstr(&out, "\033[0m");
	sbuf_addch(&out, ' ');
	sbuf_addstr(&out, msg);
	sbuf_addch(&out, '\n');
	if (e->o->showfile) {
		/* drop the second line (the "#N: FILE: ..." one) */
		const char *l1 = memchr(out.buf, '\n', out.len);

		if (l1) {
			const char *l2 = memchr(l1 + 1, '\n',
						out.len - (size_t)(l1 + 1 - out.buf));
			size_t cut0 = (size_t)(l1 - out.buf);

			if (l2) {
				size_t cut1 = (size_t)(l2 - out.buf);

				memmove(out.buf + cut0, out.buf + cut1,
					out.len - cut1 + 1);
				out.len -= cut1 - cut0;
			} else {
				/* split/join on "\n" keeps one line */
				sbuf_truncate(&out, cut0);
			}
		}
	}
	/*
	 * checkpatch.pl --verbose appends the type's text from the kernel's
	 * Documentation/dev-tools/checkpatch.rst; reviewbot has no tree and
	 * explains with the rule table's description instead.
	 */
	if (e->o->verbose && !e->explained[id]) {
		e->explained[id] = 1;
		sbuf_addstr(&out, rule_table[id].desc);
		sbuf_addstr(&out, "\n\n");
	}
	if (e->o->terse) {
		const char *l1 = memchr(out.buf, '\n', out.len);

		if (l1)
			sbuf_truncate(&out, (size_t)(l1 - out.buf) + 1);
		else
			sbuf_addch(&out, '\n');
	}
	if (out.err) {
		/* a report past CHK_MAX_REPORT: the line is too complex */
		sbuf_release(&out);
		eng_fail_line(e);
		return 0;
	}
	if (!e->o->sink) {
		/* what the findings hold in all: lines that each stay within
		 * their scratch memory could still add up without end */
		if (out.len > CHK_MAX_FINDINGS_BYTES - e->findings_bytes) {
			sbuf_release(&out);
			e->failed = 1;
			e->failed_why = "the findings passed their size limit";
			return 0;
		}
		e->findings_bytes += out.len;
	}

	/*
	 * one allocation per finding: text, then msg, then file (see
	 * struct chk_finding); the location is only taken when the message
	 * quotes the current line's $here
	 */
	nl = strchr(msg, '\n');
	msglen = nl ? (size_t)(nl - msg) : strlen(msg);
	has_loc = e->in_loop && e->here.len && strstr(msg, e->here.buf);
	filelen = has_loc && e->realfile.len && e->here_has_file ?
		  e->realfile.len + 1 : 0;
	blk = malloc(out.len + 1 + msglen + 1 + filelen);
	if (!blk) {
		sbuf_release(&out);
		e->failed = 1;
		return 0;
	}
	f = e->o->sink ? &one : &res->f[res->n];
	memset(f, 0, sizeof(*f));
	f->rule = id;
	f->sev = sev;
	memcpy(blk, out.buf, out.len + 1);
	f->text = blk;
	blk += out.len + 1;
	sbuf_release(&out);
	memcpy(blk, msg, msglen);
	blk[msglen] = '\0';
	f->msg = blk;
	blk += msglen + 1;
	if (has_loc) {
		f->patch_line = e->linenr;
		if (filelen) {
			memcpy(blk, e->realfile.buf, filelen);
			f->file = blk;
			f->line = e->realline;
		}
	}
	if (e->o->sink) {
		e->o->sink(e->o->sink_arg, f);
		free(f->text);
		return 1;
	}
	res->n++;
	return 1;
}

int ERROR(struct eng *e, enum rule_id id, const char *msg)
{
	/* a finding that is style by its subsystem's convention is a nit */
	if (e->o->extra) {
		const char *m = msg;

		if (rv_retype(e, id, &m) != id)
			return WARN(e, id, msg);
	}
	if (eng_report(e, SEV_ERROR, id, msg)) {
		e->clean = 0;
		e->res->errors++;
		return 1;
	}
	return 0;
}

int WARN(struct eng *e, enum rule_id id, const char *msg)
{
	if (eng_report(e, SEV_WARNING, id, msg)) {
		e->clean = 0;
		e->res->warnings++;
		return 1;
	}
	return 0;
}

int CHK(struct eng *e, enum rule_id id, const char *msg)
{
	if (e->check && eng_report(e, SEV_CHECK, id, msg)) {
		e->clean = 0;
		e->res->checks++;
		return 1;
	}
	return 0;
}

/*
 * The sanitised lines that differ from their raw line, packed in chunks
 * (a malloc per line would cost more than most lines).  Freed with the
 * input, in eng_release().
 */
struct line_chunk {
	struct line_chunk *next;
	size_t size, used;
	char data[];
};

#define LINE_CHUNK (64u << 10)

const char *eng_line_pool_strdup(struct eng *e, const char *s)
{
	size_t n = strlen(s) + 1;
	struct line_chunk *c = e->line_pool;
	char *p;

	if (!c || c->size - c->used < n) {
		size_t sz = n > LINE_CHUNK ? n : LINE_CHUNK;

		c = malloc(sizeof(*c) + sz);
		if (!c)
			return NULL;
		c->size = sz;
		c->used = 0;
		c->next = e->line_pool;
		e->line_pool = c;
	}
	p = c->data + c->used;
	memcpy(p, s, n);
	c->used += n;
	return p;
}

void eng_line_pool_free(struct eng *e)
{
	struct line_chunk *c = e->line_pool;

	while (c) {
		struct line_chunk *next = c->next;

		free(c);
		c = next;
	}
	e->line_pool = NULL;
}

void eng_set_line(struct eng *e, const char *s)
{
	const char *p = eng_line_pool_strdup(e, s);

	if (!p) {
		e->failed = 1;
		eng_fail_line(e);
		return;
	}
	e->lines[e->linenr - 1] = p;
	e->line = p;
	eng_known_lines(e);
}

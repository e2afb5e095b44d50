// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statement and block context, value annotation and type learning: the
 * machinery of checkpatch.pl that its rules stand on (ctx_statement_block,
 * ctx_block_get, ctx_locate_comment, raw_line, annotate_values, possible).
 * Ported with its quirks; the comments name the Perl where it is subtle.
 */
#include "eng.h"
#include "vocab.h"

#include <stdlib.h>
#include <string.h>

#include "../banned.h"

/* ---- ctx_statement_block ---- */

struct csb_frame {
	char type;
	int level;
};

#define CSB_MAX_STACK 4096

void ctx_statement_block(struct eng *e, long linenr, long remain, long off,
			 struct stmt_block *out)
{
	long line = linenr - 1;
	struct sbuf blk;
	long soff = off, coff = off - 1, loff = 0;
	int coff_set = 0;
	char type = 0;		/* '' is 0 */
	int level = 0;
	struct csb_frame *stack;
	int nstack = 0;
	int p = -1, c = -1;	/* -1: undef */
	long len = 0;
	long slen, clen;

	sbuf_init(&blk, ENG_ARENA_MAX / 4);
	stack = eng_alloc(e, sizeof(*stack) * CSB_MAX_STACK);
	if (!stack) {
		memset(out, 0, sizeof(*out));
		out->statement = out->condition = "";
		return;
	}
	for (;;) {
		const char *remainder;

		if (nstack == 0) {
			stack[0].type = 0;
			stack[0].level = 0;
			nstack = 1;
		}
		/* If we are about to drop off the end, pull in more context. */
		if (off >= len) {
			for (; remain > 0; line++) {
				const char *l = eng_line(e, line + 1);

				if (!l)
					break;
				if (l[0] == '-')
					continue;
				remain--;
				loff = len;
				sbuf_addstr(&blk, l);
				sbuf_addch(&blk, '\n');
				len = (long)blk.len;
				line++;
				break;
			}
			if (off >= len)
				break;
			if (level == 0 &&
			    re_match(e->rc, "^.\\s*#\\s*define", blk.buf + off, NULL)) {
				level++;
				type = '#';
			}
		}
		p = c;
		c = (unsigned char)blk.buf[off];
		remainder = blk.buf + off;

		/* Handle nested #if/#else. */
		if (c == '#') {
			if (re_match(e->rc, "^#\\s*(?:ifndef|ifdef|if)\\s", remainder, NULL)) {
				if (nstack < CSB_MAX_STACK) {
					stack[nstack].type = type;
					stack[nstack].level = level;
					nstack++;
				}
			} else if (re_match(e->rc, "^#\\s*(?:else|elif)\\b", remainder, NULL)) {
				/* $stack[$#stack - 1]: index -1 is the last */
				int i = nstack - 2 >= 0 ? nstack - 2 : nstack - 1;

				type = stack[i].type;
				level = stack[i].level;
			} else if (re_match(e->rc, "^#\\s*endif\\b", remainder, NULL)) {
				nstack--;
				type = stack[nstack].type;
				level = stack[nstack].level;
			}
		}

		/* Statement ends at the ';' or a close '}' at the outermost level. */
		if (level == 0 && c == ';')
			break;

		/* An else is really a conditional as long as its not else if */
		if (level == 0 && coff_set == 0 && c == 'e' &&
		    (p == -1 || p == '}' || p == '+' || strchr(" \t\n\r\f\v", p)) &&
		    re_match(e->rc, "^(else)(?:\\s|{)", remainder, NULL) &&
		    !re_match(e->rc, "^else\\s+if\\b", remainder, NULL)) {
			coff = off + 4 - 1;
			coff_set = 1;
		}

		if ((type == 0 || type == '(') && c == '(') {
			level++;
			type = '(';
		}
		if (type == '(' && c == ')') {
			level--;
			type = level != 0 ? '(' : 0;
			if (level == 0 && coff < soff) {
				coff = off;
				coff_set = 1;
			}
		}
		if ((type == 0 || type == '{') && c == '{') {
			level++;
			type = '{';
		}
		if (type == '{' && c == '}') {
			level--;
			type = level != 0 ? '{' : 0;
			if (level == 0) {
				if (off + 1 < len && blk.buf[off + 1] == ';')
					off++;
				break;
			}
		}
		/* Preprocessor commands end at the newline unless escaped. */
		if (type == '#' && c == '\n' && p != '\\') {
			level--;
			type = 0;
			off++;
			break;
		}
		off++;
	}
	/* We are truly at the end, so shuffle to the next line. */
	if (off == len) {
		loff = len + 1;
		line++;
		remain--;
	}

	slen = off - soff + 1;
	clen = coff - soff + 1;
	if (blk.err)		/* the statement passed its cap: cut short */
		eng_fail_line(e);
	if (soff > len) {
		out->statement = "";
		out->condition = "";
	} else {
		if (slen < 0)
			slen = len - soff + slen > 0 ? len - soff + slen : 0;
		if (soff + slen > len)
			slen = len - soff;
		if (clen < 0)
			clen = len - soff + clen > 0 ? len - soff + clen : 0;
		if (soff + clen > len)
			clen = len - soff;
		out->statement = eng_strndup(e, blk.buf + soff, (size_t)slen);
		out->condition = eng_strndup(e, blk.buf + soff, (size_t)clen);
	}
	out->linenr = line;
	out->remain = remain + 1;
	out->off = off - loff + 1;
	out->level = level;
	sbuf_release(&blk);
}

void stmt_ensure(struct eng *e)
{
	struct stmt_block b;

	if (e->has_stat)
		return;
	ctx_statement_block(e, e->linenr, e->realcnt, 0, &b);
	e->stat = b.statement;
	e->cond = b.condition;
	e->line_nr_next = b.linenr;
	e->remain_next = b.remain;
	e->off_next = b.off;
	e->has_stat = 1;
}

int statement_lines(struct eng *e, const char *stmt)
{
	char *s = eng_subst(e, "(^|\\n).", "$1", stmt, 1);

	s = eng_subst(e, "^\\s*", "", s, 0);
	s = eng_subst(e, "\\s*$", "", s, 0);
	return (int)eng_count_nl(s) + 1;
}

int statement_rawlines(struct eng *e, const char *stmt)
{
	(void)e;
	return (int)eng_count_nl(stmt) + 1;
}

int statement_block_size(struct eng *e, const char *stmt)
{
	char *s = eng_subst(e, "(^|\\n).", "$1", stmt, 1);
	int nl, ns = 0;
	const char *p;

	s = eng_subst(e, "^\\s*{", "", s, 0);
	s = eng_subst(e, "}\\s*$", "", s, 0);
	s = eng_subst(e, "^\\s*", "", s, 0);
	s = eng_subst(e, "\\s*$", "", s, 0);
	nl = (int)eng_count_nl(s) + 1;
	for (p = s; *p; p++)
		if (*p == ';')
			ns++;
	return nl > ns ? nl : ns;
}

#define CSF_MAX_CHUNKS 4096

int ctx_statement_full(struct eng *e, long linenr, long remain, long off,
		       struct stmt_chunk **chunks, size_t *nchunks,
		       long *linenr_out)
{
	struct stmt_block b;
	struct stmt_chunk *ch = eng_alloc(e, sizeof(*ch) * CSF_MAX_CHUNKS);
	size_t n = 0;

	*chunks = ch;
	*nchunks = 0;
	ctx_statement_block(e, linenr, remain, off, &b);
	if (!ch) {
		*linenr_out = b.linenr;
		return b.level;
	}
	ch[n].condition = b.condition;
	ch[n].statement = b.statement;
	n++;
	if (!(b.remain > 0 &&
	      re_match(e->rc, "(?s)^\\s*(?:\\n[+-])?\\s*(?:if|else|do)\\b", b.condition, NULL))) {
		*nchunks = n;
		*linenr_out = b.linenr;
		return b.level;
	}
	for (;;) {
		ctx_statement_block(e, b.linenr, b.remain, b.off, &b);
		if (!(b.remain > 0 &&
		      re_match(e->rc, "(?s)^(?:\\s*\\n[+-])*\\s*(?:else|do)\\b", b.condition, NULL)))
			break;
		if (n < CSF_MAX_CHUNKS) {
			ch[n].condition = b.condition;
			ch[n].statement = b.statement;
			n++;
		}
	}
	*nchunks = n;
	*linenr_out = b.linenr;
	return b.level;
}

/* ---- ctx_block_get ---- */

const char **ctx_block_get(struct eng *e, long linenr, long remain,
			   int outer, char open, char close, long off,
			   int *level_out, size_t *n_out)
{
	long line, start = linenr - 1;
	int level = 0;
	int *stack;
	int nstack = 0;
	const char **res;
	size_t n = 0, cap;

	cap = remain > 0 ? (size_t)remain : 1;
	if (cap > e->nlines + 1)
		cap = e->nlines + 1;
	res = eng_alloc(e, sizeof(*res) * cap);
	stack = eng_alloc(e, sizeof(*stack) * CSB_MAX_STACK);
	if (!res || !stack) {
		*n_out = 0;
		*level_out = 0;
		return res;
	}
	stack[nstack++] = level;
	for (line = start; remain > 0; line++) {
		const char *raw = eng_rawline(e, line + 1);
		const char *l = eng_line(e, line + 1);
		const char *cp;

		/*
		 * Past the end of the input every line is undef and nothing
		 * changes but the count: a hunk header that lies about its
		 * length (+1,999999999) would make the Perl loop a billion
		 * times.  Stop; only such a hostile patch sees a difference.
		 */
		if ((size_t)line >= e->nlines + 1)
			break;
		if (raw && raw[0] == '-')
			continue;
		remain--;
		if (!l)
			l = "";
		/* Handle nested #if/#else. */
		if (re_match(e->rc, "^.\\s*#\\s*(?:ifndef|ifdef|if)\\s", l, NULL)) {
			if (nstack < CSB_MAX_STACK)
				stack[nstack++] = level;
		} else if (re_match(e->rc, "^.\\s*#\\s*(?:else|elif)\\b", l, NULL)) {
			/* $stack[$#stack - 1]: the last one when there is one,
			 * undef (0) when an #endif emptied the stack */
			level = nstack >= 2 ? stack[nstack - 2] :
				nstack == 1 ? stack[0] : 0;
		} else if (re_match(e->rc, "^.\\s*#\\s*endif\\b", l, NULL)) {
			if (nstack > 0)
				level = stack[--nstack];
			else
				level = 0;	/* pop of an empty list: undef */
		}
		for (cp = l; *cp; cp++) {
			if (off > 0) {
				off--;
				continue;
			}
			if (*cp == close && level > 0) {
				level--;
				if (level == 0)
					break;
			} else if (*cp == open) {
				level++;
			}
		}
		if ((!outer || level <= 1) && n < cap)
			res[n++] = raw ? raw : "";
		if (level == 0)
			break;
	}
	*n_out = n;
	*level_out = level;
	return res;
}

const char **ctx_block_outer(struct eng *e, long linenr, long remain, size_t *n)
{
	int level;

	return ctx_block_get(e, linenr, remain, 1, '{', '}', 0, &level, n);
}

const char **ctx_block(struct eng *e, long linenr, long remain, size_t *n)
{
	int level;

	return ctx_block_get(e, linenr, remain, 0, '{', '}', 0, &level, n);
}

const char **ctx_statement(struct eng *e, long linenr, long remain, long off,
			   size_t *n)
{
	int level;

	return ctx_block_get(e, linenr, remain, 0, '(', ')', off, &level, n);
}

const char **ctx_block_level(struct eng *e, long linenr, long remain,
			     int *level, size_t *n)
{
	return ctx_block_get(e, linenr, remain, 0, '{', '}', 0, level, n);
}

const char **ctx_statement_level(struct eng *e, long linenr, long remain,
				 long off, int *level, size_t *n)
{
	return ctx_block_get(e, linenr, remain, 0, '(', ')', off, level, n);
}

/* ---- comments ---- */

char *ctx_locate_comment(struct eng *e, long first_line, long end_line)
{
	struct re_m m;
	const char *r;
	struct sbuf cur;
	int in_comment = 0;
	long ln;
	char *ret;

	/* If c99 comment on the current line, or the line before or after */
	r = eng_rawline(e, end_line);
	if (r && re_match(e->rc, "^\\+.*(//.*$)", r, &m))
		return eng_strndup(e, r + re_start(&m, 1), re_end(&m, 1) - re_start(&m, 1));
	r = eng_rawline(e, end_line - 1);
	if (r && re_match(e->rc, "^[\\+ ].*(//.*$)", r, &m))
		return eng_strndup(e, r + re_start(&m, 1), re_end(&m, 1) - re_start(&m, 1));
	r = eng_rawline(e, end_line + 1);
	if (r && re_match(e->rc, "^[\\+ ].*(//.*$)", r, &m))
		return eng_strndup(e, r + re_start(&m, 1), re_end(&m, 1) - re_start(&m, 1));

	/* Catch a comment on the end of the line itself. */
	r = eng_rawline(e, end_line);
	if (r && re_match(e->rc, ".*(/\\*.*\\*/)\\s*(?:\\\\\\s*)?$", r, &m))
		return eng_strndup(e, r + re_start(&m, 1), re_end(&m, 1) - re_start(&m, 1));

	/* Look through the context and try and figure out if there is a comment. */
	sbuf_init(&cur, ENG_ARENA_MAX / 4);
	for (ln = first_line; ln < end_line; ln++) {
		const char *line = eng_rawline(e, ln);

		if (!line)
			line = "";
		if (ln == first_line && re_match(e->rc, "^.\\s*\\*", line, NULL))
			in_comment = 1;
		if (strstr(line, "/*"))
			in_comment = 1;
		if (!in_comment && cur.len)
			sbuf_reset(&cur);
		if (in_comment) {
			sbuf_addstr(&cur, line);
			sbuf_addch(&cur, '\n');
		}
		if (strstr(line, "*/"))
			in_comment = 0;
	}
	if (cur.len && cur.buf[cur.len - 1] == '\n')
		sbuf_truncate(&cur, cur.len - 1);
	ret = eng_sbuf_str(e, &cur);
	sbuf_release(&cur);
	return ret;
}

int ctx_has_comment(struct eng *e, long first_line, long end_line)
{
	return ctx_locate_comment(e, first_line, end_line)[0] != '\0';
}

const char *raw_line(struct eng *e, long linenr, long cnt)
{
	long offset = linenr - 1;
	const char *line = NULL;

	cnt++;
	while (cnt) {
		line = offset >= 0 && (size_t)offset < e->nlines ?
		       e->rawlines[offset] : NULL;
		offset++;
		if (line && line[0] == '-')
			continue;
		cnt--;
	}
	return line;
}

char *get_stat_real(struct eng *e, long linenr, long lc)
{
	struct sbuf sb;
	long count;
	char *r;
	const char *l;

	sbuf_init(&sb, ENG_ARENA_MAX / 4);
	l = raw_line(e, linenr, 0);
	sbuf_addstr(&sb, l ? l : "");
	for (count = linenr + 1; count <= lc; count++) {
		l = raw_line(e, count, 0);
		sbuf_addch(&sb, '\n');
		sbuf_addstr(&sb, l ? l : "");
	}
	r = eng_sbuf_str(e, &sb);
	sbuf_release(&sb);
	return r;
}

char *get_stat_here(struct eng *e, long linenr, long cnt, const char *here)
{
	struct sbuf sb;
	long n;
	char *r;

	sbuf_init(&sb, ENG_ARENA_MAX / 4);
	sbuf_addstr(&sb, here);
	sbuf_addch(&sb, '\n');
	for (n = 0; n < cnt; n++) {
		const char *l = raw_line(e, linenr, n);

		sbuf_addstr(&sb, l ? l : "");
		sbuf_addch(&sb, '\n');
	}
	r = eng_sbuf_str(e, &sb);
	sbuf_release(&sb);
	return r;
}

/* ---- annotate_values ---- */

void annotate_reset(struct eng *e)
{
	e->av_preprocessor = 0;
	e->av_pending = '_';
	sbuf_reset(&e->av_paren_type);
	sbuf_addch(&e->av_paren_type, 'E');
	e->av_pend_colon = 'O';
}

static void av_push(struct eng *e, char c)
{
	sbuf_addch(&e->av_paren_type, c);
}

/* pop of an empty stack gives undef, which we spell 0 */
static char av_pop(struct eng *e)
{
	char c;

	if (!e->av_paren_type.len)
		return 0;
	c = e->av_paren_type.buf[e->av_paren_type.len - 1];
	sbuf_truncate(&e->av_paren_type, e->av_paren_type.len - 1);
	return c;
}

void annotate_values(struct eng *e, const char *stream, char type,
		     char **res_out, char **var_out)
{
	size_t slen = strlen(stream);
	char *res = eng_alloc(e, slen + 1);
	char *var = eng_alloc(e, slen + 1);
	size_t rlen = 0;
	const char *cur = stream;
	struct re_m m;

	if (!res || !var) {
		*res_out = eng_strdup(e, "");
		*var_out = eng_strdup(e, "");
		return;
	}
	memset(var, '_', slen);
	var[slen] = '\0';

	while (*cur) {
		size_t adv, rem = slen - (size_t)(cur - stream);
		unsigned char c = (unsigned char)*cur;
		int is_word = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
		/* (the type and modifier patterns' necessary condition) */
		int may_type = is_word && (vocab_may_start_type(cur) ||
					   re_learned_word_at(e->rc, cur));

/* each Perl branch matched against $cur, a new string of its own */
#define AV(pat) re_find(e->rc, (pat), cur, rem, 0, &m)

		if (!e->av_paren_type.len)
			av_push(e, 'E');
		/*
		 * The branches below are the Perl's if/elsif chain in its
		 * order, only skipping the branches that cannot match the
		 * token's first character (every $Type, $Modifier and $Ident
		 * starts with a letter or '_'; learned words are identifiers).
		 */
		if (vocab_is_space(c)) {
			/* ^(\s+), walked */
			size_t k = 1;

			while (k < rem && vocab_is_space((unsigned char)cur[k]))
				k++;
			m.ov[2] = 0;
			m.ov[3] = k;
			if (memchr(cur, '\n', k) && e->av_preprocessor) {
				type = av_pop(e);
				e->av_preprocessor = 0;
			}
		} else if (c == '(' && eng_may_type_after_first(e, cur) &&
			   AV("^(\\(\\s*$Type\\s*)\\)") &&
			   e->av_pending == '_') {
			av_push(e, type);
			type = 'c';
		} else if (is_word && may_type &&
			   AV("^($Type)\\s*(?:$Ident|,|\\)|\\(|\\s*$)")) {
			type = 'T';
		} else if (is_word && may_type && AV("^($Modifier)\\s*")) {
			type = 'T';
		} else if (c == '#' && AV("^(\\#\\s*define\\s*$Ident)(\\(?)")) {
			e->av_preprocessor = 1;
			av_push(e, type);
			if (re_end(&m, 2) > re_start(&m, 2))
				e->av_pending = 'N';
			type = 'E';
		} else if (c == '#' && AV("^(\\#\\s*(?:undef\\s*$Ident|include\\b))")) {
			e->av_preprocessor = 1;
			av_push(e, type);
		} else if (c == '#' && AV("^(\\#\\s*(?:ifdef|ifndef|if))")) {
			e->av_preprocessor = 1;
			av_push(e, type);
			av_push(e, type);
			type = 'E';
		} else if (c == '#' && AV("^(\\#\\s*(?:else|elif))")) {
			e->av_preprocessor = 1;
			av_push(e, e->av_paren_type.len ?
				   e->av_paren_type.buf[e->av_paren_type.len - 1] : 0);
			type = 'E';
		} else if (c == '#' && AV("^(\\#\\s*(?:endif))")) {
			e->av_preprocessor = 1;
			av_pop(e);
			av_push(e, type);
			type = 'E';
		} else if (c == '\\' && AV("^(\\\\\\n)")) {
			/* PRECONT */
		} else if (is_word && AV("^(__attribute__)\\s*\\(?")) {
			e->av_pending = type;
			type = 'N';
		} else if (is_word && AV("^(sizeof)\\s*(\\()?")) {
			if (re_cap_defined(&m, 2))
				e->av_pending = 'V';
			type = 'N';
		} else if (is_word && AV("^(if|while|for)\\b")) {
			e->av_pending = 'E';
			type = 'N';
		} else if (is_word && AV("^(case)")) {
			e->av_pend_colon = 'C';
			type = 'N';
		} else if (is_word && AV("^(return|else|goto|typeof|__typeof__)\\b")) {
			type = 'N';
		} else if (c == '(') {
			m.ov[2] = 0;
			m.ov[3] = 1;
			av_push(e, e->av_pending);
			e->av_pending = '_';
			type = 'N';
		} else if (c == ')') {
			char nt = av_pop(e);

			m.ov[2] = 0;
			m.ov[3] = 1;
			if (nt != '_')
				type = nt;
		} else if (is_word && AV("^($Ident)\\s*\\(")) {
			type = 'V';
			e->av_pending = 'V';
		} else if (is_word && AV("^($Ident\\s*):(?:\\s*\\d+\\s*(,|=|;))?")) {
			if ((re_cap_defined(&m, 2) && type == 'C') || type == 'T')
				e->av_pend_colon = 'B';
			else if (type == 'E')
				e->av_pend_colon = 'L';
			type = 'V';
		} else if ((is_word || (c >= '0' && c <= '9') || c == '.') &&
			   AV("^($Ident|$Constant)")) {
			type = 'V';
		} else if (!is_word && AV("^($Assignment)")) {
			type = 'N';
		} else if (c == ';' || c == '{' || c == '}') {
			m.ov[2] = 0;
			m.ov[3] = 1;
			type = 'E';
			e->av_pend_colon = 'O';
		} else if (c == ',') {
			m.ov[2] = 0;
			m.ov[3] = 1;
			type = 'C';
		} else if (c == '?') {
			m.ov[2] = 0;
			m.ov[3] = 1;
			type = 'N';
		} else if (c == ':') {
			m.ov[2] = 0;
			m.ov[3] = 1;
			if (rlen < slen)
				var[rlen] = e->av_pend_colon;
			if (e->av_pend_colon == 'C' || e->av_pend_colon == 'L')
				type = 'E';
			else
				type = 'N';
			e->av_pend_colon = 'O';
		} else if (c == '[') {
			m.ov[2] = 0;
			m.ov[3] = 1;
			type = 'N';
		} else if ((c == '-' || c == '+' || c == '*' || c == '&') &&
			   AV("^(-(?![->])|\\+(?!\\+)|\\*|\\&\\&|\\&)")) {
			char variant = type == 'V' ? 'B' : 'U';

			if (rlen < slen)
				var[rlen] = variant;
			type = 'N';
		} else if (!is_word && AV("^($Operators)")) {
			size_t n;
			const char *op = re_cap(&m, 1, &n);

			if (!(n == 2 && (!memcmp(op, "++", 2) || !memcmp(op, "--", 2))))
				type = 'N';
		} else {
			/* (^.): any one byte ('.' does not match a newline, but
			 * a newline is white space and never gets here) */
			m.ov[2] = 0;
			m.ov[3] = 1;
		}
#undef AV
		adv = re_end(&m, 1) - re_start(&m, 1);
		if (adv == 0)
			adv = 1;	/* never stall on an empty match */
		if (adv > rem)		/* rem is strlen(cur): no rescan per token */
			adv = rem;
		/* $res .= $type x length($1): an undef type adds nothing */
		if (type) {
			memset(res + rlen, type, adv);
			rlen += adv;
		}
		cur += adv;
	}
	res[rlen] = '\0';
	*res_out = res;
	*var_out = var;
}

/* ---- possible(): learn types and modifiers from declarations ---- */

static const char not_permitted[] =
	"(?:^(?:$Modifier|$Storage|$Type|DEFINE_\\S+)$|^(?:goto|return|case|else|asm|__asm__|do|\\#|\\#\\#|)(?:\\s|$)|^(?:typedef|struct|enum)\\b)";

void possible(struct eng *e, const char *poss, const char *line)
{
	char *p;

	(void)line;
	if (re_match(e->rc, not_permitted, poss, NULL))
		return;
	p = eng_subst(e, "\\s*$Storage\\s*", "", poss, 1);
	p = eng_subst(e, "\\s*$Sparse\\s*", "", p, 1);
	if (re_match(e->rc, "^\\s*$", p, NULL)) {
		/* nothing */
	} else if (re_match(e->rc, "\\s", p, NULL)) {
		char *q;

		p = eng_subst(e, "\\s*$Type\\s*", "", p, 1);
		/* split(' ', $possible) */
		q = p;
		while (*q) {
			char *w;
			char save;

			while (*q && strchr(" \t\n\r\f\v", *q))
				q++;
			if (!*q)
				break;
			w = q;
			while (*q && !strchr(" \t\n\r\f\v", *q))
				q++;
			save = *q;
			*q = '\0';
			if (!re_match(e->rc, not_permitted, w, NULL))
				re_types_add(e->rc, 1, w, strlen(w));
			*q = save;
		}
	} else {
		re_types_add(e->rc, 0, p, strlen(p));
	}
}

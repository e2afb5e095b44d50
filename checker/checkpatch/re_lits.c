// SPDX-License-Identifier: GPL-2.0-only
/*
 * re_lits: the literal strings every match of a pattern contains, found in
 * the pattern's text, so re.c can pass over a subject that lacks one
 * without running pcre2 (re.c: the pretest).
 */
#include "re_lits.h"

#include <stdint.h>
#include <string.h>

#include "vocab.h"
#include "../banned.h"

/* Bytes that stand for themselves outside a class, with no flags set. */
static int lit_char(int c)
{
	return is_name_char(c) || (c && strchr(" ,;:=!<>\"'@%&/-~#`", c));
}

/* The end of the escape sequence at p (p[0] == '\\'), or NULL: too odd. */
static const char *skip_escape(const char *p)
{
	const char *q;

	switch (p[1]) {
	case '\0':
	case 'Q':
		return NULL;
	case 'x':
	case 'o':
		if (p[2] == '{') {
			q = strchr(p + 3, '}');
			return q ? q + 1 : NULL;
		}
		if (p[1] == 'o')
			return NULL;
		q = p + 2;
		while (q < p + 4 && strchr("0123456789abcdefABCDEF", *q) && *q)
			q++;
		return q;
	case 'c':
		return p[2] ? p + 3 : NULL;
	case 'p':
	case 'P':
	case 'g':
	case 'k':
	case 'N':
		if (p[2] == '{' || p[2] == '<' || p[2] == '\'') {
			int close = p[2] == '{' ? '}' : p[2] == '<' ? '>' : '\'';

			q = strchr(p + 3, close);
			return q ? q + 1 : NULL;
		}
		if (p[1] == 'N')
			return p + 2;
		if (p[1] == 'g') {
			q = p + 2;
			if (*q == '+' || *q == '-')
				q++;
			while (*q >= '0' && *q <= '9')
				q++;
			return q;
		}
		if (p[1] == 'k')
			return NULL;
		return p[2] ? p + 3 : NULL;
	default:
		if (p[1] >= '0' && p[1] <= '9') {
			q = p + 1;
			while (*q >= '0' && *q <= '9')
				q++;
			return q;
		}
		return p + 2;
	}
}

/* The end of the class at p (p[0] == '['), or NULL. */
static const char *skip_class(const char *p)
{
	const char *q = p + 1;

	if (*q == '^')
		q++;
	if (*q == ']')
		q++;
	while (*q && *q != ']') {
		if (*q == '\\') {
			if (q[1] == 'Q' || q[1] == 'E' || !q[1])
				return NULL;
			q += 2;
		} else if (*q == '[' && q[1] && strchr(":.=", q[1])) {
			const char *e = strstr(q + 2, ":]");

			if (q[1] != ':' || !e)
				return NULL;
			q = e + 2;
		} else {
			q++;
		}
	}
	return *q ? q + 1 : NULL;
}

/* The end of the group at p (p[0] == '('), or NULL. */
static const char *skip_group(const char *p)
{
	int depth = 0;

	while (*p) {
		if (*p == '\\') {
			p = skip_escape(p);
			if (!p)
				return NULL;
			continue;
		}
		if (*p == '[') {
			p = skip_class(p);
			if (!p)
				return NULL;
			continue;
		}
		if (*p == '(') {
			/* comments hold anything; verbs like (*ACCEPT) end a
			 * match early */
			if (p[1] == '*' || (p[1] == '?' && p[2] == '#'))
				return NULL;
			depth++;
		} else if (*p == ')') {
			if (--depth == 0)
				return p + 1;
		}
		p++;
	}
	return NULL;
}

static int is_quant(int c)
{
	return c == '?' || c == '*' || c == '+' || c == '{';
}

/* The literals found so far: the two longest. */
struct lit_set {
	char s[2][RE_LIT_MAX];
	unsigned char n[2];
	int cnt;
};

static void lits_add(struct lit_set *ls, const char *s, size_t n)
{
	int i;

	if (!n)
		return;
	if (ls->cnt < 2) {
		i = ls->cnt++;
	} else {
		i = ls->n[0] < ls->n[1] ? 0 : 1;
		if (n <= ls->n[i])
			return;
	}
	memcpy(ls->s[i], s, n);
	ls->n[i] = (unsigned char)n;
}

/*
 * Scans the sequence at p up to the ')' that ends its group (depth > 0)
 * or the end of the pattern, adding the literals every match of it holds
 * to ls: runs of characters that stand for themselves, and those of
 * groups that are neither quantified nor lookarounds; none when the
 * sequence has an alternation.  Returns where it stopped, or NULL to give
 * up on the whole pattern (syntax it does not know, flags that change how
 * literals match, verbs that end a match early).
 */
static const char *lits_seq(int typedefs, const char *p, int depth,
			    int vdepth, struct lit_set *out);

/*
 * The literals of the vocabulary's name s[0, n) (a qr// of checkpatch.pl's
 * own, no flags: a group of its own) into ls, unless a quantifier follows
 * it (at after); 0, or -1 to give up on the whole pattern.
 */
static int name_lits(int typedefs, const char *s, size_t n, const char *after,
		     int vdepth, struct lit_set *ls)
{
	const struct vocab *v = vocab_find(s, n);
	struct lit_set sub;
	int i;

	/* (a name the version changes: no literals, true in every version) */
	if (!v || v->cpv || v->kind != VOCAB_QR || !v->src || *v->flags || vdepth >= 8 ||
	    is_quant((unsigned char)*after))
		return 0;
	memset(&sub, 0, sizeof(sub));
	if (!lits_seq(typedefs, v->src, 0, vdepth + 1, &sub))
		return typedefs ? -1 : 0;	/* (it may hold $typeTypedefs) */
	for (i = 0; i < sub.cnt; i++)
		lits_add(ls, sub.s[i], sub.n[i]);
	return 0;
}

static const char *lits_seq(int typedefs, const char *p, int depth,
			    int vdepth, struct lit_set *out)
{
	struct lit_set ls;
	char run[RE_LIT_MAX];
	size_t rn = 0;
	int alt = 0, i;

	memset(&ls, 0, sizeof(ls));
	for (;;) {
		const char *next;
		int c = (unsigned char)*p;

		/* an ordinary or escaped punctuation character */
		if (c && lit_char(c)) {
			next = p + 1;
		} else if (c == '\\' && p[1] && (unsigned char)p[1] < 0x80 &&
			   !is_name_char((unsigned char)p[1])) {
			next = p + 2;
			c = (unsigned char)p[1];
		} else {
			next = NULL;
		}
		if (next) {
			if (is_quant((unsigned char)*next)) {
				lits_add(&ls, run, rn);
				rn = 0;
			} else {
				if (rn == RE_LIT_MAX) {
					lits_add(&ls, run, rn);
					rn = 0;
				}
				run[rn++] = (char)c;
			}
			p = next;
			continue;
		}
		lits_add(&ls, run, rn);
		rn = 0;
		switch (*p) {
		case '\0':
			if (depth)
				return NULL;
			goto end;
		case ')':
			if (!depth)
				return NULL;
			goto end;
		case '|':
			alt = 1;
			p++;
			break;
		case '\\':
			p = skip_escape(p);
			break;
		case '[':
			p = skip_class(p);
			break;
		case '{': {
			/* a quantifier {n}, {n,}, {n,m} or {,m}; else a '{' */
			const char *q = p + 1;

			while ((*q >= '0' && *q <= '9') || *q == ',')
				q++;
			p = *q == '}' && q > p + 1 ? q + 1 : p + 1;
			break;
		}
		case '$':
			if (p[1] == '{' && is_name_start((unsigned char)p[2])) {
				const char *q = strchr(p + 2, '}');

				if (!q || (typedefs &&
					   (size_t)(q - p - 2) == 12 &&
					   !memcmp(p + 2, "typeTypedefs", 12)))
					return NULL;
				if (name_lits(typedefs, p + 2, (size_t)(q - p - 2), q + 1,
					      vdepth, &ls))
					return NULL;
				p = q + 1;
			} else if (is_name_start((unsigned char)p[1])) {
				const char *q = p + 1;

				while (is_name_char((unsigned char)*q))
					q++;
				if (typedefs && q - p - 1 == 12 &&
				    !memcmp(p + 1, "typeTypedefs", 12))
					return NULL;
				if (name_lits(typedefs, p + 1, (size_t)(q - p - 1), q, vdepth, &ls))
					return NULL;
				p = q;
			} else {
				p += p[1] == ';' ? 2 : 1;
			}
			break;
		case '(': {
			const char *body = NULL, *q;

			if (p[1] == '*' || (p[1] == '?' && p[2] == '#'))
				return NULL;
			if (p[1] != '?') {
				body = p + 1;
			} else if (p[2] == ':' || p[2] == '>' || p[2] == '|') {
				body = p + 3;
			} else if ((p[2] == '<' && is_name_start((unsigned char)p[3])) ||
				   p[2] == '\'' || (p[2] == 'P' && p[3] == '<')) {
				q = strchr(p + 3, p[2] == '\'' ? '\'' : '>');
				if (!q)
					return NULL;
				body = q + 1;
			} else {
				/*
				 * Flags: s, m and ^ keep literals as they
				 * are, others (i, x) may not: (?i) for the
				 * rest of the group gives up, (?i:...) is a
				 * group to pass over.
				 */
				const char *f = p + 2;
				int plain = 1;

				for (q = f; *q && (is_name_start((unsigned char)*q) ||
						   *q == '-' || *q == '^'); q++)
					if (!strchr("sm-^", *q))
						plain = 0;
				if (q > f && *q == ')') {
					if (!plain)
						return NULL;
					p = q + 1;
					break;
				}
				if (q > f && *q == ':' && plain)
					body = q + 1;
			}
			if (!body) {	/* lookaround, condition, call ... */
				p = skip_group(p);
				break;
			}
			{
				struct lit_set sub;

				memset(&sub, 0, sizeof(sub));
				q = lits_seq(typedefs, body, depth + 1, vdepth, &sub);
				if (!q)
					return NULL;
				p = q + 1;
				if (!is_quant((unsigned char)*p))
					for (i = 0; i < sub.cnt; i++)
						lits_add(&ls, sub.s[i], sub.n[i]);
			}
			break;
		}
		default:	/* . ^ quantifiers and bytes >= 0x80 */
			p++;
			break;
		}
		if (!p)
			return NULL;
	}
end:
	if (!alt)
		for (i = 0; i < ls.cnt; i++)
			lits_add(out, ls.s[i], ls.n[i]);
	return p;
}

/*
 * Finds up to two of the longest literal strings that every match of the
 * pattern must contain (lits_seq()).  Interpolated names are groups of
 * their own, except $typeTypedefs with --typedefsfile words, which adds
 * an alternation.
 */
int re_lits_scan(const char *pat, int typedefs, char lit[2][RE_LIT_MAX],
		 unsigned char litn[2], unsigned char *icase)
{
	struct lit_set ls;
	int i, j;
	size_t k;

	/*
	 * (?i) first: the whole pattern matches without case.  In pcre2's
	 * byte mode (no PCRE2_UTF) with its default tables that folds the
	 * ASCII letters and nothing else.
	 */
	*icase = !strncmp(pat, "(?i)", 4);
	memset(&ls, 0, sizeof(ls));
	if (!lits_seq(typedefs, pat + (*icase ? 4 : 0), 0, 0, &ls))
		return 0;
	for (i = j = 0; i < ls.cnt; i++) {
		int anchor = !*icase;

		for (k = 0; !anchor && k < ls.n[i]; k++)
			anchor = !is_name_start((unsigned char)ls.s[i][k]) ||
				 ls.s[i][k] == '_';
		/*
		 * Without case, only a literal with a byte that is not a
		 * letter is worth a search: that byte is found by memchr()
		 * (a search letter by letter costs more than pcre2's own).
		 */
		if (!anchor)
			continue;
		memcpy(lit[j], ls.s[i], ls.n[i]);
		litn[j] = ls.n[i];
		for (k = 0; *icase && k < ls.n[i]; k++)
			if (lit[j][k] >= 'A' && lit[j][k] <= 'Z')
				lit[j][k] = (char)(lit[j][k] - 'A' + 'a');
		j++;
	}
	return j;
}

/* Whether s[0, n) holds the l bytes at lit (subjects are short lines). */
static int has_lit(const char *s, size_t n, const char *lit, size_t l)
{
	const char *p = s, *end = s + n;
	size_t i;

	while ((size_t)(end - p) >= l) {
		p = memchr(p, lit[0], (size_t)(end - p) - l + 1);
		if (!p)
			return 0;
		/* (short: compared here rather than in a memcmp() call) */
		for (i = 1; i < l && p[i] == lit[i]; i++)
			;
		if (i >= l)
			return 1;
		p++;
	}
	return 0;
}

static int is_lower(int c)
{
	return c >= 'a' && c <= 'z';
}

/*
 * has_lit() with the letters of lit (lower case) matching either case:
 * found through lit's first byte that is not a letter when it has one,
 * else byte by byte.
 */
static int has_lit_icase(const char *s, size_t n, const char *lit, size_t l)
{
	const char *p, *end = s + n;
	size_t i, k;

	for (k = 0; k < l && is_lower((unsigned char)lit[k]); k++)
		;
	for (p = s; (size_t)(end - p) >= l; p++) {
		if (k < l) {
			p = memchr(p + k, lit[k], (size_t)(end - p) - l + 1);
			if (!p)
				return 0;
			p -= k;
		} else if (((unsigned char)*p | 0x20) != (unsigned char)lit[0]) {
			continue;
		}
		for (i = 0; i < l; i++) {
			unsigned char c = (unsigned char)p[i];

			if (is_lower((unsigned char)lit[i]) ? (c | 0x20) != (unsigned char)lit[i]
							    : c != (unsigned char)lit[i])
				break;
		}
		if (i >= l)
			return 1;
	}
	return 0;
}

static inline unsigned fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c | 0x20u : c;
}

/* a byte's bit and a pair's bit among a summary's 256 */
static inline unsigned byte_bit(unsigned c)
{
	return (c * 37u) & 255u;
}

static inline unsigned pair_bit(unsigned a, unsigned b)
{
	return (a * 67u + b * 13u + 101u) & 255u;
}

#define SIG_SET(b, k)	((b)[(k) / 64] |= UINT64_C(1) << ((k) % 64))

/* Adds the bits of the bytes u[0, n) and of their adjacent pairs to b. */
static void sig_add(uint64_t b[4], const unsigned char *u, size_t n)
{
	unsigned prev;
	size_t i;

	if (!n)
		return;
	prev = fold(u[0]);
	SIG_SET(b, byte_bit(prev));
	for (i = 1; i < n; i++) {
		unsigned c = fold(u[i]);

		SIG_SET(b, byte_bit(c));
		SIG_SET(b, pair_bit(prev, c));
		prev = c;
	}
}

void re_summarize(const char *s, size_t n, struct re_summary *sum)
{
	uint64_t b[4] = { 0, 0, 0, 0 };

	sig_add(b, (const unsigned char *)s, n);
	memcpy(sum->bits, b, sizeof(b));
	sum->ready = 1;
}

void re_lits_sig(const char (*lit)[RE_LIT_MAX], const unsigned char *litn,
		 int nlit, uint64_t sig[4])
{
	int i;

	memset(sig, 0, 4 * sizeof(*sig));
	for (i = 0; i < nlit; i++)
		sig_add(sig, (const unsigned char *)lit[i], litn[i]);
}

int re_lits_in(const char lit[2][RE_LIT_MAX], const unsigned char litn[2],
	       int nlit, int icase, const char *s, size_t n)
{
	int i;

	for (i = 0; i < nlit; i++)
		if (!(icase ? has_lit_icase(s, n, lit[i], litn[i])
			    : has_lit(s, n, lit[i], litn[i])))
			return 0;
	return 1;
}

/* ---- the end pretest --------------------------------------------------- */

#define BIT_SET(s, c)	((s)[(unsigned char)(c) / 8] |= (uint8_t)(1u << ((unsigned char)(c) % 8)))
#define BIT_HAS(s, c)	((s)[(unsigned char)(c) / 8] & (1u << ((unsigned char)(c) % 8)))

static void set_range(uint8_t *s, int lo, int hi)
{
	for (; lo <= hi; lo++)
		BIT_SET(s, lo);
}

/* Perl's (and pcre2's) \s, \d, \w and their complements; 0 when not one */
static int class_escape(int c, uint8_t *s)
{
	uint8_t t[32];
	int i;

	memset(t, 0, sizeof(t));
	switch (c | 0x20) {
	case 's':
		set_range(t, '\t', '\r');
		BIT_SET(t, ' ');
		break;
	case 'd':
		set_range(t, '0', '9');
		break;
	case 'w':
		set_range(t, '0', '9');
		set_range(t, 'A', 'Z');
		set_range(t, 'a', 'z');
		BIT_SET(t, '_');
		break;
	default:
		return 0;
	}
	for (i = 0; i < 32; i++)
		s[i] |= c >= 'a' ? t[i] : (uint8_t)~t[i];
	return 1;
}

/* A single byte an escape stands for (\t, \xHH, \-...), or -1. */
static int escape_byte(const char *p, const char **end)
{
	int c = (unsigned char)p[1], v = 0, k;

	*end = p + 2;
	switch (c) {
	case 't': return '\t';
	case 'n': return '\n';
	case 'r': return '\r';
	case 'f': return '\f';
	case 'e': return 0x1b;
	case 'a': return 7;
	case 'x':
		for (k = 2; k < 4 && p[k] && strchr("0123456789abcdefABCDEF", p[k]); k++)
			v = v * 16 + (p[k] <= '9' ? p[k] - '0' : (p[k] | 0x20) - 'a' + 10);
		if (k == 2)
			return -1;
		*end = p + k;
		return v;
	}
	if (c && c < 0x80 && !is_name_char(c))
		return c;
	return -1;
}

/* The bytes the class at p (p[0] == '[') matches, into s; its end or NULL. */
static const char *class_set(const char *p, uint8_t *s)
{
	const char *q = p + 1, *e;
	uint8_t t[32];
	int neg = 0, prev = -1, i;

	memset(t, 0, sizeof(t));
	if (*q == '^') {
		neg = 1;
		q++;
	}
	if (*q == ']') {
		BIT_SET(t, ']');
		prev = ']';
		q++;
	}
	while (*q && *q != ']') {
		int c;

		if (*q == '[')
			return NULL;	/* [:alpha:] and the like */
		if (*q == '\\') {
			if (class_escape((unsigned char)q[1], t)) {
				q += 2;
				prev = -1;
				continue;
			}
			c = escape_byte(q, &e);
			if (c < 0)
				return NULL;
			q = e;
		} else if (*q == '-' && prev >= 0 && q[1] && q[1] != ']') {
			int hi;

			q++;
			if (*q == '\\') {
				hi = escape_byte(q, &e);
				if (hi < 0)
					return NULL;
				q = e;
			} else {
				hi = (unsigned char)*q++;
			}
			if (hi < prev)
				return NULL;
			set_range(t, prev, hi);
			prev = -1;
			continue;
		} else {
			c = (unsigned char)*q++;
		}
		BIT_SET(t, c);
		prev = c;
	}
	if (*q != ']')
		return NULL;
	for (i = 0; i < 32; i++)
		s[i] = neg ? (uint8_t)~t[i] : t[i];
	return q + 1;
}

enum { TK_ATOM, TK_OTHER, TK_END };

struct etok {
	int kind;
	int optional;		/* may match nothing (?, *, {0,...}) */
	uint8_t set[32];	/* TK_ATOM: the bytes it matches, one */
};

#define ETOK_MAX	96

/*
 * The atom at p, one byte wide (a byte, an escape, a class, ., $; or a
 * group around one such atom), into t; returns its end, or NULL when p
 * holds something else (t->kind is then TK_OTHER and *skip its end).
 */
static const char *atom_at(const char *p, int dotall, struct etok *t, const char **skip)
{
	const char *e;
	int c;

	memset(t, 0, sizeof(*t));
	t->kind = TK_ATOM;
	*skip = NULL;
	switch (*p) {
	case '\\':
		if (class_escape((unsigned char)p[1], t->set))
			return p + 2;
		c = escape_byte(p, &e);
		if (c >= 0) {
			BIT_SET(t->set, c);
			return e;
		}
		break;
	case '[':
		e = class_set(p, t->set);
		if (e)
			return e;
		*skip = skip_class(p);
		t->kind = TK_OTHER;
		return NULL;
	case '.':
		memset(t->set, 0xff, sizeof(t->set));
		if (!dotall)
			t->set['\n' / 8] &= (uint8_t)~(1u << ('\n' % 8));
		return p + 1;
	case '$':
		if (p[1] == ';') {
			BIT_SET(t->set, 0x1c);
			return p + 2;
		}
		break;
	case '(': {
		const char *body = NULL, *end = skip_group(p);

		if (p[1] != '?')
			body = p + 1;
		else if (p[2] == ':')
			body = p + 3;
		if (body && end) {
			struct etok in;
			const char *s2, *ie = atom_at(body, dotall, &in, &s2);

			if (ie && ie == end - 1) {
				*t = in;
				return end;
			}
		}
		*skip = end;
		t->kind = TK_OTHER;
		return NULL;
	}
	case '{':
		if (p[1] >= '0' && p[1] <= '9')
			break;	/* a quantifier with nothing before it */
		BIT_SET(t->set, '{');
		return p + 1;
	case '^': case ')': case '|': case '*': case '+': case '?':
		break;
	default:
		BIT_SET(t->set, *p);
		return p + 1;
	}
	t->kind = TK_OTHER;
	if (*p == '\\')
		*skip = skip_escape(p);
	return NULL;
}

int re_end_scan(const char *pat, uint8_t set[32], uint8_t wset[32])
{
	struct etok tk[ETOK_MAX];
	size_t n = 0, i, k;
	const char *p = pat, *q;
	int dotall = 0, req;

	/* flags: only (?s) keeps what $, \s and the bytes mean */
	for (q = pat; (q = strstr(q, "(?")); q += 2) {
		const char *f = q + 2;

		while (is_name_start((unsigned char)*f) || *f == '-' || *f == '^') {
			if (*f != 's' && *f != '^')
				return 0;
			f++;
		}
		if (f > q + 2 && (*f == ')' || *f == ':'))
			dotall = 1;
	}
	while (*p) {
		struct etok t;
		const char *skip, *e;

		if (n == ETOK_MAX || *p == '|' || *p == ')')
			return 0;
		if (*p == '$' && !p[1]) {
			tk[n].kind = TK_END;
			n++;
			break;
		}
		e = atom_at(p, dotall, &t, &skip);
		if (!e) {
			/* a zero-width or wider item: a name, an anchor, a group */
			if (!skip) {
				if (*p == '$' && (p[1] == '{' || is_name_start((unsigned char)p[1]))) {
					skip = p[1] == '{' ? strchr(p, '}') : p + 1;
					if (!skip)
						return 0;
					skip++;
					while (p[1] != '{' && is_name_char((unsigned char)*skip))
						skip++;
				} else if (*p == '^' || *p == '$') {
					skip = p + 1;
				} else {
					return 0;
				}
			}
			if (!skip)
				return 0;
			e = skip;
		}
		/* a quantifier: how few times */
		if (*e == '?' || *e == '*') {
			t.optional = 1;
			e++;
		} else if (*e == '+') {
			e++;
		} else if (*e == '{' && e[1] >= '0' && e[1] <= '9') {
			const char *r = e + 1;

			while ((*r >= '0' && *r <= '9') || *r == ',')
				r++;
			if (*r != '}')
				return 0;
			t.optional = e[1] == '0' && (e[2] == ',' || e[2] == '}');
			e = r + 1;
		}
		if (*e == '+' || *e == '?')
			e++;	/* possessive, lazy */
		tk[n++] = t;
		p = e;
	}
	if (!n || tk[n - 1].kind != TK_END)
		return 0;
	n--;
	/* white space that may end the match, then the bytes before it */
	memset(wset, 0, 32);
	req = 0;
	if (n && tk[n - 1].kind == TK_ATOM) {
		uint8_t sp[32];

		memset(sp, 0, sizeof(sp));
		class_escape('s', sp);
		for (i = 0; i < 32 && !(tk[n - 1].set[i] & ~sp[i]); i++)
			;
		if (i == 32) {
			memcpy(wset, tk[n - 1].set, 32);
			req = !tk[n - 1].optional;
			n--;
		}
	}
	memset(set, 0, 32);
	for (k = 0; k < 4 && n && tk[n - 1].kind == TK_ATOM; k++) {
		for (i = 0; i < 32; i++)
			set[i] |= tk[n - 1].set[i];
		if (!tk[--n].optional) {
			for (i = 0; i < 32; i++)
				if (set[i] & wset[i])
					return 0;
			return 1 + req;
		}
	}
	return 0;
}

int re_end_ok(const uint8_t set[32], const uint8_t wset[32], int req,
	      const char *s, size_t n)
{
	size_t e = n;

	/*
	 * A match's white space is the whole run of wset bytes before where
	 * it ends (the byte before it is in set, which shares none with
	 * wset): with req, that run is not empty.
	 */
	while (e && BIT_HAS(wset, s[e - 1]))
		e--;
	if (e && (!req || e < n) && BIT_HAS(set, s[e - 1]))
		return 1;
	/* $ also matches before a newline that ends the subject */
	if (n && s[n - 1] == '\n' && !BIT_HAS(wset, '\n')) {
		e = n - 1;
		while (e && BIT_HAS(wset, s[e - 1]))
			e--;
		if (e && (!req || e < n - 1) && BIT_HAS(set, s[e - 1]))
			return 1;
	}
	return 0;
}

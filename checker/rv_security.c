// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot's security checks (beyond checkpatch.pl), on added C lines:
 *
 *   USER_COPY_UNCHECKED        copy_{from,to}_user(), get_user(), ... whose
 *                              result is thrown away (a statement of its
 *                              own, or cast to (void))
 *   ALLOC_SIZE_OVERFLOW        an allocation size multiplying a run-time
 *                              value without an overflow-checked helper
 *   UNBOUNDED_STRING_COPY      strcpy(), strcat(), sprintf(), vsprintf()
 *   FORMAT_STRING_NOT_LITERAL  printk-like call whose format is a variable
 *                              and that passes nothing else to format
 *   WORLD_WRITABLE_INTERFACE   world-writable modes checkpatch.pl's
 *                              EXPORTED_WORLD_WRITABLE does not see
 *   SENSITIVE_WORLD_READABLE   files and parameters named like secrets
 *                              (key, password, token...) readable by all
 *
 * review_line() runs before the checkpatch segments of a line, so the
 * statement context (e->stat) is not there yet: calls are followed across
 * lines here, on the sanitised lines (strings are "XXX", comments 0x1c),
 * so nothing inside a comment or a string literal matches.  The module
 * keeps no state between lines.
 */
#include <string.h>

#include "eng.h"

#include <ctype.h>
#include <strings.h>

#include "banned.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#define RVS_MAX_LINES	40	/* lines one call may span */
#define RVS_MAX_ARGS	16	/* arguments of one call we look at */
#define RVS_MAX_BACK	20	/* lines walked back for a statement start */

/* The arguments of one call, gathered across lines (an arena string). */
struct call {
	const char *text;
	size_t len;
	size_t narg;
	size_t off[RVS_MAX_ARGS], n[RVS_MAX_ARGS];
	char after;		/* first code character after ')', 0 if none */
};

static int is_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\x1c' || c == '\n' || c == '\r';
}

/* A line of the same hunk: '+' or ' ' (code), '-' (skipped by callers). */
static int hunk_prefix(const char *l)
{
	return l && (l[0] == '+' || l[0] == ' ' || l[0] == '-');
}

/*
 * Kernel C only: user-space tools and the boot stubs have their own libc
 * and none of the kernel's safer helpers.
 */
static int kernel_c_file(struct eng *e)
{
	const char *f = e->realfile.buf;

	return MQ(e, "\\.[ch]$", f) &&
	       !MQ(e, "^(?:tools|scripts|usr|samples/bpf)/", f) &&
	       !MQ(e, "^arch/[^/]+/boot/", f);
}

/*
 * The call whose '(' is at lines[idx][open]: its arguments split at the
 * top-level commas and the character after its ')'.  Removed lines in
 * between are skipped; the call must close within the hunk.
 */
static int gather_call(struct eng *e, long idx, size_t open, struct call *c)
{
	struct sbuf sb;
	long i = idx;
	size_t p = open + 1, k, start = 0;
	int depth = 1, nl = 0, ok = 0;

	memset(c, 0, sizeof(*c));
	sbuf_init(&sb, 1u << 16);
	while (!ok) {
		const char *l = e->lines[i];

		for (; l[p]; p++) {
			char ch = l[p];

			if (ch == '(' || ch == '[' || ch == '{') {
				depth++;
			} else if (ch == ')' || ch == ']' || ch == '}') {
				if (--depth == 0) {
					p++;
					ok = 1;
					break;
				}
			}
			sbuf_addch(&sb, ch == '\x1c' ? ' ' : ch);
		}
		if (ok)
			break;
		/* the next code line of this hunk */
		do {
			i++;
		} while ((size_t)i < e->nlines && e->lines[i][0] == '-');
		if ((size_t)i >= e->nlines || !hunk_prefix(e->lines[i]) ||
		    ++nl > RVS_MAX_LINES)
			break;
		sbuf_addch(&sb, ' ');
		p = 1;
	}
	if (!ok || sb.err) {
		sbuf_release(&sb);
		return 0;
	}
	c->text = eng_strndup(e, sb.buf, sb.len);
	c->len = sb.len;
	sbuf_release(&sb);
	if (e->line_skip)	/* c->text is shorter than c->len */
		return 0;

	/* what follows the ')': this line, then the next code lines */
	for (nl = 0; nl < 3 && !c->after;) {
		const char *l = e->lines[i];

		for (; l[p] && !c->after; p++)
			if (!is_blank(l[p]))
				c->after = l[p];
		do {
			i++;
		} while ((size_t)i < e->nlines && e->lines[i][0] == '-');
		if ((size_t)i >= e->nlines || !hunk_prefix(e->lines[i]))
			break;
		p = 1;
		nl++;
	}

	/* split at top-level commas */
	depth = 0;
	for (k = 0; k <= c->len && c->narg < RVS_MAX_ARGS; k++) {
		char ch = k < c->len ? c->text[k] : ',';

		if (ch == '(' || ch == '[' || ch == '{')
			depth++;
		else if (ch == ')' || ch == ']' || ch == '}')
			depth--;
		else if (ch == ',' && depth == 0) {
			size_t a = start, b = k;

			while (a < b && is_blank(c->text[a]))
				a++;
			while (b > a && is_blank(c->text[b - 1]))
				b--;
			c->off[c->narg] = a;
			c->n[c->narg] = b - a;
			c->narg++;
			start = k + 1;
		}
	}
	if (c->narg == 1 && c->n[0] == 0)
		c->narg = 0;
	return 1;
}

/* Argument i for a message: runs of blanks (line breaks) as one space. */
static char *arg_str(struct eng *e, const struct call *c, size_t i)
{
	char *s = eng_strndup(e, c->text + c->off[i], c->n[i]);
	size_t r, w = 0;

	for (r = 0; s[r]; r++) {
		if (is_blank(s[r]) && (w == 0 || s[w - 1] == ' '))
			continue;
		s[w++] = is_blank(s[r]) ? ' ' : s[r];
	}
	while (w > 0 && s[w - 1] == ' ')
		w--;
	s[w] = 0;
	return s;
}

/* The index of the code line before idx in the same hunk, or -1. */
static long prev_code_line(struct eng *e, long idx)
{
	long i = idx;

	while (--i >= 0) {
		const char *l = e->lines[i];
		size_t k;

		if (!hunk_prefix(l))
			return -1;
		if (l[0] == '-')
			continue;
		for (k = 1; l[k] && is_blank(l[k]); k++)
			;
		if (l[k])
			return i;
	}
	return -1;
}

/* Paren balance of s: '(' counts +1, ')' counts -1. */
static int paren_balance(const char *s)
{
	int b = 0;

	for (; *s; s++)
		b += (*s == '(') - (*s == ')');
	return b;
}

/* A complete "if (...)", "while (...)", "for (...)" header (or "else"). */
static int control_header(struct eng *e, const char *t)
{
	if (MQ(e, "^(?:\\}\\s*)?else$", t))
		return 1;
	return MQ(e, "^(?:\\}\\s*)?(?:else\\s+)?(?:if|while|for)\\s*\\(.*\\)$", t) &&
	       paren_balance(t) == 0;
}

/*
 * Whether text t, the code just before a call on the same line, leaves
 * the call at the start of a statement: nothing, "(void)", a closed
 * statement or block, a label, or a control header without braces.
 */
static int prefix_starts_statement(struct eng *e, const char *t)
{
	if (!*t)
		return 1;
	if (paren_balance(t) > 0)
		return 0;	/* inside "for (...;" or an argument list */
	return MQ(e, "[;{}]$", t) ||
	       MQ(e, "^(?:case\\b[^?]*|default|[A-Za-z_]\\w*)\\s*:$", t) ||
	       control_header(e, t);
}

/*
 * Whether the call whose name starts at lines[idx][pos] begins a
 * statement of its own, so its value is thrown away (given that a ';'
 * follows the call).  A "(void)" cast in front counts as thrown away.
 */
static int call_is_statement(struct eng *e, long idx, size_t pos)
{
	char *t = trim(e, eng_strndup(e, e->lines[idx] + 1, pos - 1));
	long i, n;

	if (M(e, "^(.*?)\\(\\s*void\\s*\\)$", t))
		t = trim(e, eng_cap(e, 1));
	if (*t)
		return prefix_starts_statement(e, t);

	/* the call opens its line: what ends the line before? */
	i = prev_code_line(e, idx);
	if (i < 0)
		return 1;	/* first line of the hunk: assume a statement */
	t = trim(e, e->lines[i] + 1);
	if (MQ(e, "^#\\s*define\\b", t))
		return 0;	/* a macro's value: its callers use it */
	if (t[0] == '#')
		return 1;
	t = trim(e, eng_subst(e, "\\\\$", "", t, 0));
	if (prefix_starts_statement(e, t))
		return 1;
	if (!MQ(e, "\\)$", t))
		return 0;
	/* a multi-line if/while/for condition ending on line i? */
	for (n = 0; paren_balance(t) < 0 && n < RVS_MAX_BACK; n++) {
		i = prev_code_line(e, i);
		if (i < 0)
			return 0;
		t = eng_cat(e, trim(e, e->lines[i] + 1), eng_cat(e, " ", t));
	}
	return control_header(e, t);
}

/* ---- USER_COPY_UNCHECKED ---- */

static const char *user_copy_reason(const char *fn)
{
	if (strstr(fn, "copy_from_user"))
		return "returns the number of bytes it could not copy; ignoring it goes on with a partly filled kernel buffer and never returns -EFAULT";
	if (strstr(fn, "copy_to_user"))
		return "returns the number of bytes it could not copy; ignoring it reports success to user space for data it never received";
	if (strstr(fn, "get_user"))
		return "returns -EFAULT on a bad user address; ignoring it goes on with a value that was never read from user space";
	if (strstr(fn, "put_user"))
		return "returns -EFAULT on a bad user address; ignoring it reports success for a value user space never received";
	if (strstr(fn, "strncpy_from_user"))
		return "returns the string length or -EFAULT; ignoring it misses the fault and a truncated string that is not NUL-terminated";
	return "returns the number of bytes it could not clear; ignoring it leaves stale data in user memory and reports success";
}

static void check_user_copy(struct eng *e, long idx)
{
	const char *line = e->line;
	size_t pos = 0, len = strlen(line);
	struct re_m m;
	int guard;

	for (guard = 0; guard < 32 && pos < len &&
	     re_find(e->rc, "(?<![\\w.>])((?:__)?(?:copy_from_user|copy_to_user)(?:_inatomic)?|__?(?:get|put)_user|get_user|put_user|strncpy_from_user|__?clear_user|clear_user)\\s*\\(",
		     line, len, pos, &m); guard++) {
		size_t name = re_start(&m, 1), open = re_end(&m, 0) - 1;
		char *fn = eng_strndup(e, line + name, re_end(&m, 1) - name);
		struct call c;

		pos = re_end(&m, 0);
		if (!gather_call(e, idx, open, &c) || c.after != ';')
			continue;
		if (!call_is_statement(e, idx, name))
			continue;
		WARN(e, R_USER_COPY_UNCHECKED,
		     eng_printf(e, "%s() %s\n%s", fn, user_copy_reason(fn),
				e->herecurr));
	}
}

/* ---- ALLOC_SIZE_OVERFLOW ---- */

static const struct {
	const char *fn;
	unsigned char size_arg;
	const char *instead;
} alloc_funcs[] = {
	{ "kmalloc", 0, "kmalloc_array(), array_size() or struct_size()" },
	{ "kzalloc", 0, "kcalloc(), array_size() or struct_size()" },
	{ "kmalloc_node", 0, "kmalloc_array_node(), array_size() or struct_size()" },
	{ "kzalloc_node", 0, "kcalloc_node(), array_size() or struct_size()" },
	{ "kvmalloc", 0, "kvmalloc_array(), array_size() or struct_size()" },
	{ "kvzalloc", 0, "kvcalloc(), array_size() or struct_size()" },
	{ "kvmalloc_node", 0, "array_size() or struct_size()" },
	{ "kvzalloc_node", 0, "array_size() or struct_size()" },
	{ "vmalloc", 0, "array_size() or struct_size()" },
	{ "vzalloc", 0, "array_size() or struct_size()" },
	{ "vmalloc_user", 0, "array_size() or struct_size()" },
	{ "vmalloc_32", 0, "array_size() or struct_size()" },
	{ "vmalloc_node", 0, "array_size() or struct_size()" },
	{ "vzalloc_node", 0, "array_size() or struct_size()" },
	{ "__vmalloc", 0, "array_size() or struct_size()" },
	{ "devm_kmalloc", 1, "devm_kmalloc_array(), array_size() or struct_size()" },
	{ "devm_kzalloc", 1, "devm_kcalloc(), array_size() or struct_size()" },
	{ "krealloc", 1, "krealloc_array(), array_size() or struct_size()" },
	{ "kmemdup", 1, "array_size() or struct_size()" },
	{ "memdup_user", 1, "array_size() or struct_size()" },
	{ "vmemdup_user", 1, "array_size() or struct_size()" },
	{ "dma_alloc_coherent", 1, "array_size() or struct_size()" },
	{ "dmam_alloc_coherent", 1, "array_size() or struct_size()" },
	{ "devm_krealloc", 2, "array_size() or struct_size()" },
};

/* Names whose parenthesised operand is a compile-time constant. */
static int const_wrapper(const char *w, size_t n)
{
	static const char *const names[] = {
		"sizeof", "__alignof__", "_Alignof", "alignof", "offsetof",
		"ARRAY_SIZE", "sizeof_field", "offsetofend", "typeof",
		"__typeof__",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], w, n))
			return 1;
	return 0;
}

/* Helpers that compute a size with an overflow check (saturating). */
static int checked_helper(const char *w, size_t n)
{
	static const char *const names[] = {
		"array_size", "array3_size", "struct_size", "struct_size_t",
		"flex_array_size", "size_mul", "size_add", "size_sub",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], w, n))
			return 1;
	return 0;
}

/* C type words that may appear in a cast inside a constant operand. */
static int type_word(const char *w, size_t n)
{
	static const char *const names[] = {
		"unsigned", "signed", "int", "long", "short", "char",
		"size_t", "ssize_t", "u8", "u16", "u32", "u64",
		"s8", "s16", "s32", "s64", "__u8", "__u16", "__u32", "__u64",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], w, n))
			return 1;
	return 0;
}

/* s[i] is '(' (or '['): the index after its match, or n. */
static size_t skip_group(const char *s, size_t n, size_t i)
{
	int depth = 0;

	for (; i < n; i++) {
		if (s[i] == '(' || s[i] == '[')
			depth++;
		else if ((s[i] == ')' || s[i] == ']') && --depth == 0)
			return i + 1;
	}
	return n;
}

/* s[i] is ')' (or ']'): the index of its '(' (or '['), or 0. */
static size_t back_group(const char *s, size_t i)
{
	int depth = 0;

	for (;; i--) {
		if (s[i] == ')' || s[i] == ']')
			depth++;
		else if ((s[i] == '(' || s[i] == '[') && --depth == 0)
			return i;
		if (i == 0)
			return 0;
	}
}

/*
 * Whether the operand s[a, b) is a compile-time constant as far as a
 * reviewer can tell: numbers, sizeof()/ARRAY_SIZE()/offsetof(), and
 * ALL_CAPS macros (as checkpatch.pl takes them for constants too).
 */
static int operand_const(const char *s, size_t a, size_t b)
{
	size_t i = a;

	while (i < b) {
		size_t w = i, k;
		int lower = 0;

		if (s[i] >= '0' && s[i] <= '9') {
			while (i < b && is_ident(s[i]))
				i++;
			continue;
		}
		if (!is_ident(s[i])) {
			i++;
			continue;
		}
		while (i < b && is_ident(s[i]))
			i++;
		if (const_wrapper(s + w, i - w)) {
			for (k = i; k < b && is_blank(s[k]); k++)
				;
			if (k < b && s[k] == '(') {
				i = skip_group(s, b, k);
			} else {
				/* sizeof expr: the rest of the operand */
				return 1;
			}
			continue;
		}
		for (k = w; k < i; k++)
			if (s[k] >= 'a' && s[k] <= 'z')
				lower = 1;
		if (lower && !type_word(s + w, i - w))
			return 0;
	}
	return 1;
}

/* The start of the operand that ends just before s[i] (a '*'). */
static size_t left_operand(const char *s, size_t i)
{
	size_t j = i;

	while (j > 0 && is_blank(s[j - 1]))
		j--;
	for (;;) {
		if (j > 0 && (s[j - 1] == ')' || s[j - 1] == ']'))
			j = back_group(s, j - 1);
		while (j > 0 && is_ident(s[j - 1]))
			j--;
		if (j > 0 && s[j - 1] == '.')
			j--;
		else if (j > 1 && s[j - 1] == '>' && s[j - 2] == '-')
			j -= 2;
		else
			break;
	}
	return j;
}

/* The end of the operand that starts just after s[i] (a '*'). */
static size_t right_operand(const char *s, size_t n, size_t i)
{
	size_t k = i + 1;

	while (k < n && is_blank(s[k]))
		k++;
	while (k < n && (s[k] == '(' || s[k] == '-' || s[k] == '~')) {
		if (s[k] == '(')
			k = skip_group(s, n, k);	/* a cast or a group */
		else
			k++;
		while (k < n && is_blank(s[k]))
			k++;
		if (k < n && !is_ident(s[k]) && s[k] != '(')
			return k;
	}
	for (;;) {
		size_t w = k;

		while (k < n && is_ident(s[k]))
			k++;
		if (k - w == 6 && !memcmp(s + w, "sizeof", 6))
			while (k < n && is_blank(s[k]))
				k++;
		while (k < n && (s[k] == '(' || s[k] == '['))
			k = skip_group(s, n, k);
		if (k < n && s[k] == '.')
			k++;
		else if (k + 1 < n && s[k] == '-' && s[k + 1] == '>')
			k += 2;
		else
			return k;
	}
}

/* s[a, b) is "(type)" or "(type *)": a cast, not an operand. */
static int is_cast(const char *s, size_t a, size_t b)
{
	size_t k = a + 1, w;

	if (b <= a + 2 || s[a] != '(' || s[b - 1] != ')' ||
	    skip_group(s, b, a) != b)
		return 0;
	while (k < b && is_blank(s[k]))
		k++;
	for (w = k; k < b && is_ident(s[k]); k++)
		;
	if (!(type_word(s + w, k - w) ||
	      (k - w == 6 && !memcmp(s + w, "struct", 6)) ||
	      (k - w == 5 && !memcmp(s + w, "const", 5)) ||
	      (k - w == 4 && !memcmp(s + w, "void", 4))))
		return 0;
	for (; k < b - 1; k++)
		if (!is_ident(s[k]) && !is_blank(s[k]) && s[k] != '*')
			return 0;
	return 1;
}

/*
 * Whether the size expression s[0, n) multiplies with a run-time operand
 * outside an overflow-checked helper.  A product of constants is folded
 * by the compiler and cannot wrap at run time, so it stays quiet.
 */
static int size_mul_unchecked(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (is_ident(s[i]) && !(s[i] >= '0' && s[i] <= '9')) {
			size_t w = i, k;

			while (i < n && is_ident(s[i]))
				i++;
			for (k = i; k < n && is_blank(s[k]); k++)
				;
			if ((checked_helper(s + w, i - w) ||
			     const_wrapper(s + w, i - w)) && k < n && s[k] == '(') {
				i = skip_group(s, n, k);
			} else if (i - w == 6 && !memcmp(s + w, "sizeof", 6)) {
				/* "sizeof *p": its '*' is not a product */
				while (k < n && (is_blank(s[k]) || s[k] == '*'))
					k++;
				i = right_operand(s, n, k - 1);
			}
			continue;
		}
		if (s[i] == '*') {
			size_t p = i, q = i + 1, l, r;

			while (p > 0 && is_blank(s[p - 1]))
				p--;
			while (q < n && is_blank(s[q]))
				q++;
			/* binary: an operand before it, no cast "(T *)" */
			if (p > 0 && (is_ident(s[p - 1]) || s[p - 1] == ')' ||
				      s[p - 1] == ']') &&
			    q < n && s[q] != ')' && s[q] != '*' && s[q] != ',') {
				l = left_operand(s, i);
				r = right_operand(s, n, i);
				if (is_cast(s, l, p)) {
					i++;	/* "(size_t)*len": a dereference */
					continue;
				}
				if (!operand_const(s, l, i) ||
				    !operand_const(s, i + 1, r))
					return 1;
			}
		}
		i++;
	}
	return 0;
}

/*
 * checkpatch.pl's ALLOC_WITH_MULTIPLY already reports
 * "p = k[v][mz]alloc(n * sizeof(x), ...)": the same test on the
 * statement starting at this line, so that case is not reported twice.
 */
static int checkpatch_alloc_multiply(struct eng *e, const char *fn)
{
	struct stmt_block b;
	const char *stat, *a1, *a2, *r1, *r2;

	if (!MQ(e, "^\\+\\s*$Lval\\s*\\=", e->line) || !e->realcnt)
		return 0;
	ctx_statement_block(e, e->linenr, e->realcnt, 0, &b);
	stat = eng_nl_blank(e, b.statement);
	if (!M(e, "^\\+\\s*($Lval)\\s*\\=\\s*(?:$balanced_parens)?\\s*((?:kv|k)[mz]alloc)\\s*\\(\\s*($FuncArg)\\s*\\*\\s*($FuncArg)\\s*,", stat) ||
	    strcmp(eng_cap(e, 3), fn))
		return 0;
	a1 = eng_cap(e, 4);
	a2 = eng_cap(e, 10);
	r1 = a1;
	r2 = a2;
	if (MQ(e, "^sizeof\\s*\\S", a1)) {
		r1 = a2;
		r2 = a1;
	}
	return !MQ(e, "^sizeof\\b", r1) && MQ(e, "^sizeof\\s*\\S", r2) &&
	       !(MQ(e, "^$Constant$", r1) || MQ(e, "^[A-Z_][A-Z0-9_]*$", r1));
}

static void check_alloc_size(struct eng *e, long idx)
{
	const char *line = e->line;
	size_t pos = 0, len = strlen(line);
	struct re_m m;
	int guard;

	for (guard = 0; guard < 32 && pos < len &&
	     re_find(e->rc, "(?<![\\w.>])((?:devm_|dmam_|dma_|__)?(?:k|kv|v)?(?:[mz]alloc|realloc|memdup|memdup_user|alloc_coherent)\\w*)\\s*\\(",
		     line, len, pos, &m); guard++) {
		size_t name = re_start(&m, 1), open = re_end(&m, 0) - 1, i;
		size_t fnlen = re_end(&m, 1) - name;
		const char *fn = eng_strndup(e, line + name, fnlen);
		struct call c;

		pos = re_end(&m, 0);
		for (i = 0; i < ARRAY_SIZE(alloc_funcs); i++)
			if (!strcmp(alloc_funcs[i].fn, fn))
				break;
		if (i == ARRAY_SIZE(alloc_funcs))
			continue;
		if (!gather_call(e, idx, open, &c) ||
		    c.narg <= alloc_funcs[i].size_arg)
			continue;
		if (!size_mul_unchecked(c.text + c.off[alloc_funcs[i].size_arg],
					c.n[alloc_funcs[i].size_arg]))
			continue;
		if (checkpatch_alloc_multiply(e, fn))
			continue;
		WARN(e, R_ALLOC_SIZE_OVERFLOW,
		     eng_printf(e, "%s() size '%s' multiplies a run-time value without an overflow check, so a large count wraps to a small buffer that is then overrun: use %s\n%s",
				fn, arg_str(e, &c, alloc_funcs[i].size_arg),
				alloc_funcs[i].instead, e->herecurr));
	}
}

/* ---- UNBOUNDED_STRING_COPY ---- */

/* The text before a call looks like a declaration: "char *strcpy(". */
static int declaration_prefix(struct eng *e, const char *t)
{
	return MQ(e, "(?:\\w|\\*)$", t) &&
	       !MQ(e, "(?:^|\\W)(?:return|else|case|do)$", t);
}

static void check_string_funcs(struct eng *e, long idx)
{
	const char *line = e->line;
	size_t pos = 0, len = strlen(line);
	struct re_m m;
	int guard;

	(void)idx;
	for (guard = 0; guard < 32 && pos < len &&
	     re_find(e->rc, "(?<![\\w.>])(strcpy|strcat|sprintf|vsprintf)\\s*\\(",
		     line, len, pos, &m); guard++) {
		size_t name = re_start(&m, 1);
		char *fn = eng_strndup(e, line + name, re_end(&m, 1) - name);
		char *pre = trim(e, eng_strndup(e, line + 1, name - 1));
		const char *why;

		pos = re_end(&m, 0);
		if (declaration_prefix(e, pre) || MQ(e, "^#\\s*define\\s*$", pre))
			continue;
		if (!strcmp(fn, "strcpy"))
			why = "strcpy() does not know the size of its destination, so a longer source overflows it: use strscpy()";
		else if (!strcmp(fn, "strcat"))
			why = "strcat() does not know the size of its destination, so a longer result overflows it: use strlcat(), or build the string with scnprintf()";
		else if (!strcmp(fn, "sprintf"))
			why = "sprintf() does not know the size of its buffer, so a longer result overflows it: use snprintf() or scnprintf() (sysfs_emit() in a sysfs show() function)";
		else
			why = "vsprintf() does not know the size of its buffer, so a longer result overflows it: use vsnprintf() or vscnprintf()";
		WARN(e, R_UNBOUNDED_STRING_COPY, eng_printf(e, "%s\n%s", why, e->herecurr));
	}
}

/* ---- FORMAT_STRING_NOT_LITERAL ---- */

/*
 * printk-like functions: the format's argument index and where the
 * values to format start (fmt + 1 except when fixed arguments follow).
 */
static const struct {
	const char *fn;
	unsigned char fmt, vargs;
} fmt_funcs[] = {
	{ "printk", 0, 1 }, { "printk_deferred", 0, 1 }, { "panic", 0, 1 },
	{ "pr_emerg", 0, 1 }, { "pr_alert", 0, 1 }, { "pr_crit", 0, 1 },
	{ "pr_err", 0, 1 }, { "pr_warn", 0, 1 }, { "pr_warning", 0, 1 },
	{ "pr_notice", 0, 1 }, { "pr_info", 0, 1 }, { "pr_cont", 0, 1 },
	{ "pr_debug", 0, 1 }, { "pr_devel", 0, 1 },
	{ "dev_emerg", 1, 2 }, { "dev_alert", 1, 2 }, { "dev_crit", 1, 2 },
	{ "dev_err", 1, 2 }, { "dev_warn", 1, 2 }, { "dev_notice", 1, 2 },
	{ "dev_info", 1, 2 }, { "dev_dbg", 1, 2 }, { "dev_vdbg", 1, 2 },
	{ "dev_printk", 2, 3 }, { "dev_err_probe", 2, 3 },
	{ "netdev_emerg", 1, 2 }, { "netdev_alert", 1, 2 },
	{ "netdev_crit", 1, 2 }, { "netdev_err", 1, 2 },
	{ "netdev_warn", 1, 2 }, { "netdev_notice", 1, 2 },
	{ "netdev_info", 1, 2 }, { "netdev_dbg", 1, 2 },
	{ "netif_err", 3, 4 }, { "netif_warn", 3, 4 },
	{ "netif_notice", 3, 4 }, { "netif_info", 3, 4 },
	{ "netif_dbg", 3, 4 },
	{ "seq_printf", 1, 2 }, { "seq_buf_printf", 1, 2 },
	{ "sprintf", 1, 2 }, { "snprintf", 2, 3 }, { "scnprintf", 2, 3 },
	{ "kasprintf", 1, 2 }, { "devm_kasprintf", 2, 3 },
	{ "sysfs_emit", 1, 2 }, { "sysfs_emit_at", 2, 3 },
	{ "WARN", 1, 2 }, { "WARN_ONCE", 1, 2 },
	{ "kthread_run", 2, 3 }, { "kthread_create", 2, 3 },
	{ "dev_set_name", 1, 2 }, { "kobject_set_name", 1, 2 },
	{ "alloc_workqueue", 0, 3 }, { "alloc_ordered_workqueue", 0, 2 },
};

/* The current line continues a #define (the line before ends in '\'). */
static int in_macro(struct eng *e, long idx)
{
	long i = prev_code_line(e, idx);

	if (MQ(e, "^.\\s*#\\s*define\\b", e->lines[idx]))
		return 1;
	return i >= 0 && MQ(e, "\\\\\\s*$", e->lines[i]);
}

static void check_format(struct eng *e, long idx)
{
	const char *line = e->line;
	size_t pos = 0, len = strlen(line);
	struct re_m m;
	int guard;

	if (in_macro(e, idx))
		return;	/* the format is the macro's caller's */
	for (guard = 0; guard < 32 && pos < len &&
	     re_find(e->rc, "(?<![\\w.>])([A-Za-z_]\\w*?)(?:_once|_ratelimited)?\\s*\\(",
		     line, len, pos, &m); guard++) {
		size_t name = re_start(&m, 1), open = re_end(&m, 0) - 1, i;
		char *fn = eng_strndup(e, line + name, re_end(&m, 1) - name);
		char *full = eng_strndup(e, line + name, open - name);
		char *fmt, *pre;
		struct call c;

		pos = re_end(&m, 0);
		for (i = 0; i < ARRAY_SIZE(fmt_funcs); i++)
			if (!strcmp(fmt_funcs[i].fn, fn))
				break;
		if (i == ARRAY_SIZE(fmt_funcs))
			continue;
		pre = trim(e, eng_strndup(e, line + 1, name - 1));
		if (declaration_prefix(e, pre))
			continue;
		if (!gather_call(e, idx, open, &c) ||
		    c.narg != fmt_funcs[i].vargs)
			continue;
		fmt = arg_str(e, &c, fmt_funcs[i].fmt);
		/* a literal, a literal chosen by ?:, or ALL_CAPS macros */
		if (!*fmt || strchr(fmt, '"') || MQ(e, "^[A-Z0-9_\\s]+$", fmt))
			continue;
		WARN(e, R_FORMAT_STRING_NOT_LITERAL,
		     eng_printf(e, "%s() takes '%s' as its format string, so any '%%' in it is read as a conversion that pulls missing arguments off the stack: %s\n%s",
				trim(e, full), fmt,
				!strcmp(fn, "seq_printf") ? "use seq_puts()" :
				"pass it as an argument to \"%s\"",
				e->herecurr));
	}
}

/* ---- WORLD_WRITABLE_INTERFACE ---- */

/*
 * Mode arguments checkpatch.pl does not look at: functions missing from
 * its list, and symbolic modes (its test there reads octal only).
 */
static const struct {
	const char *fn;
	unsigned char mode_arg;
	unsigned char symbolic_only;	/* octal: checkpatch.pl reports it */
	const char *what;
} mode_funcs[] = {
	{ "module_param", 2, 1, "module parameter" },
	{ "module_param_named", 3, 1, "module parameter" },
	{ "module_param_array", 3, 1, "module parameter" },
	{ "module_param_string", 3, 1, "module parameter" },
	{ "module_param_array_named", 4, 1, "module parameter" },
	{ "module_param_cb", 3, 0, "module parameter" },
	{ "module_param_named_unsafe", 3, 0, "module parameter" },
	{ "module_param_unsafe", 2, 0, "module parameter" },
	{ "proc_create", 1, 1, "procfs file" },
	{ "proc_create_data", 1, 1, "procfs file" },
	{ "proc_create_single", 1, 0, "procfs file" },
	{ "proc_create_single_data", 1, 0, "procfs file" },
	{ "proc_create_seq", 1, 0, "procfs file" },
	{ "proc_create_seq_data", 1, 0, "procfs file" },
	{ "proc_create_seq_private", 1, 0, "procfs file" },
	{ "proc_create_net", 1, 0, "procfs file" },
	{ "proc_create_net_data", 1, 0, "procfs file" },
	{ "proc_create_net_single", 1, 0, "procfs file" },
	{ "proc_mkdir_mode", 1, 0, "procfs directory" },
	{ "__ATTR", 1, 1, "sysfs file" },
	{ "CLASS_ATTR", 1, 1, "sysfs file" },
	{ "SENSOR_ATTR", 1, 1, "sysfs file" },
	{ "SENSOR_DEVICE_ATTR", 1, 1, "sysfs file" },
	{ "SENSOR_ATTR_2", 1, 1, "sysfs file" },
	{ "SENSOR_DEVICE_ATTR_2", 1, 1, "sysfs file" },
	{ "IIO_DEVICE_ATTR", 1, 1, "sysfs file" },
	{ "sysfs_chmod_file", 2, 0, "sysfs file" },
};

static int world_writable(struct eng *e, const char *mode)
{
	return MQ(e, "\\b(?:S_IWUGO|S_IWOTH|S_IRWXUGO|S_IALLUGO|S_IRWXO)\\b", mode) ||
	       MQ(e, "^\\(?\\s*0[0-7]{2}[2367]\\s*\\)?$", mode);
}

static void check_world_writable(struct eng *e, long idx)
{
	const char *line = e->line;
	size_t pos = 0, len = strlen(line);
	struct re_m m;
	int guard;

	if (!MQ(e, "\\b(?:S_IWUGO|S_IWOTH|S_IRWXUGO|S_IALLUGO|S_IRWXO|0[0-7]{2}[2367])\\b", line))
		return;
	/* checkpatch.pl's own EXPORTED_WORLD_WRITABLE line test */
	if (MQ(e, "debugfs_create_\\w+.*\\b$mode_perms_world_writable\\b", line) ||
	    MQ(e, "DEVICE_ATTR.*\\b$mode_perms_world_writable\\b", line))
		return;

	/* ".mode = 0666" of a struct attribute, miscdevice, ctl_table... */
	if (M(e, "(?:\\.|->)mode\\s*=\\s*([^,;}]+?)\\s*[,;}]", line) &&
	    world_writable(e, eng_cap(e, 1))) {
		WARN(e, R_WORLD_WRITABLE_INTERFACE,
		     eng_printf(e, "mode %s lets every local user write to this device node or file, so any unprivileged process can drive it: use 0600 or 0644 (and let udev grant access where users need it)\n%s",
				trim(e, eng_cap(e, 1)), e->herecurr));
		return;
	}

	for (guard = 0; guard < 32 && pos < len &&
	     re_find(e->rc, "(?<![\\w.>])([A-Za-z_]\\w*)\\s*\\(", line, len, pos, &m);
	     guard++) {
		size_t name = re_start(&m, 1), open = re_end(&m, 0) - 1, i;
		char *fn = eng_strndup(e, line + name, re_end(&m, 1) - name);
		char *mode;
		struct call c;

		pos = re_end(&m, 0);
		for (i = 0; i < ARRAY_SIZE(mode_funcs); i++)
			if (!strcmp(mode_funcs[i].fn, fn))
				break;
		if (i == ARRAY_SIZE(mode_funcs) ||
		    !gather_call(e, idx, open, &c) ||
		    c.narg <= mode_funcs[i].mode_arg)
			continue;
		mode = arg_str(e, &c, mode_funcs[i].mode_arg);
		if (!world_writable(e, mode))
			continue;
		if (mode_funcs[i].symbolic_only && !MQ(e, "\\bS_I", mode))
			continue;
		WARN(e, R_WORLD_WRITABLE_INTERFACE,
		     eng_printf(e, "%s() with mode %s makes this %s writable by every local user, so any unprivileged process can change the driver's state: use 0644 or 0600\n%s",
				fn, mode, mode_funcs[i].what, e->herecurr));
	}
}


/* ---- SENSITIVE_WORLD_READABLE ---- */

/* words of a file name that say it holds a secret */
static int sensitive_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"key", "keys", "privkey", "secret", "secrets", "password",
		"passwd", "passphrase", "token", "tokens", "nonce", "seed",
		"salt", "otp", "cred", "creds", "credentials",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !strncasecmp(words[i], w, n))
			return 1;
	return 0;
}

static int sensitive_name(const char *s)
{
	while (*s) {
		const char *w;

		while (*s && !isalnum((unsigned char)*s))
			s++;
		w = s;
		while (isalnum((unsigned char)*s))
			s++;
		if (s > w && sensitive_word(w, (size_t)(s - w)))
			return 1;
	}
	return 0;
}

/*
 * A file or parameter named like a secret (key, password, token, seed...)
 * and readable by every user: S_IRUGO, S_IROTH, or an octal mode whose
 * "other" digit has the read bit.  One-line calls only.
 */
static void check_sensitive_readable(struct eng *e)
{
	static const struct {
		const char *pat;	/* on the raw line: name, then mode */
		const char *what;
	} calls[] = {
		{ "\\b(debugfs_create_\\w+|proc_create\\w*)\\s*\\(\\s*\"([^\"]*)\"\\s*,\\s*([^,()]+)\\s*,", "file" },
		{ "\\b(DEVICE_ATTR|DRIVER_ATTR|CLASS_ATTR|BUS_ATTR|__ATTR)\\s*\\(\\s*(\\w+)\\s*,\\s*([^,()]+)\\s*,", "sysfs file" },
		{ "\\b(module_param)\\s*\\(\\s*(\\w+)\\s*,\\s*[^,()]+,\\s*([^,()]+)\\s*\\)", "module parameter" },
		{ "\\b(module_param_named)\\s*\\(\\s*(\\w+)\\s*,\\s*[^,()]+,\\s*[^,()]+,\\s*([^,()]+)\\s*\\)", "module parameter" },
	};
	const char *raw = e->rawline;
	size_t i;
	struct re_m m;

	if (!strpbrk(e->line, "(") ||
	    !MQ(e, "\\b(?:debugfs_create_|proc_create|DEVICE_ATTR|DRIVER_ATTR|CLASS_ATTR|BUS_ATTR|__ATTR|module_param)", e->line))
		return;
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		char *name, *mode, *fn;

		if (!re_match(e->rc, calls[i].pat, raw, &m))
			continue;
		/* the call itself is code, not a comment or a string */
		fn = eng_strndup(e, raw + re_start(&m, 1), re_end(&m, 1) - re_start(&m, 1));
		if (e->line[re_start(&m, 1)] != raw[re_start(&m, 1)])
			continue;
		name = eng_strndup(e, raw + re_start(&m, 2), re_end(&m, 2) - re_start(&m, 2));
		mode = trim(e, eng_strndup(e, raw + re_start(&m, 3), re_end(&m, 3) - re_start(&m, 3)));
		if (!sensitive_name(name))
			continue;
		if (!MQ(e, "\\b(?:S_IRUGO|S_IROTH|S_IRWXUGO|S_IALLUGO|S_IRWXO)\\b", mode) &&
		    !MQ(e, "^0[0-7]{2}[4567]$", mode))
			continue;
		WARN(e, R_SENSITIVE_WORLD_READABLE,
		     eng_printf(e, "%s '%s' looks like it holds a secret but mode %s lets every local user read it: use 0400 or 0600%s\n%s",
				calls[i].what, name, mode,
				!strncmp(fn, "debugfs", 7) ? " (and keep secrets out of debugfs)" : "",
				e->herecurr));
		return;
	}
}

void rv_security_line(struct eng *e)
{
	long idx = e->linenr - 1;

	if (e->in_commit_log || !e->hunk_line || !e->line ||
	    e->line[0] != '+' || idx < 0 || (size_t)idx >= e->nlines ||
	    e->lines[idx] != e->line || !kernel_c_file(e))
		return;
	check_user_copy(e, idx);
	check_alloc_size(e, idx);
	check_string_funcs(e, idx);
	check_format(e, idx);
	check_world_writable(e, idx);
	check_sensitive_readable(e);
}

void rv_security_final(struct eng *e)
{
	(void)e;	/* every finding is made on its own line */
}

void rv_security_release(struct eng *e)
{
	(void)e;	/* no state kept between lines */
}

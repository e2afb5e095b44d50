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
 * keeps one thing between lines: the struct fields the input declares
 * __user (struct rv_security).
 */
#include <string.h>

#include "rv.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

#include "../banned.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#define RVS_MAX_BACK	20	/* lines walked back for a statement start */

#define is_ident rv_is_ident
#define is_blank rv_is_blank

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

/* ---- what the function around a line says (its lines in the hunk) ---- */

/*
 * The code lines of the function around line idx that the hunk shows,
 * up to idx: [scope.start, idx], '-' lines skipped by the callers.
 */
struct scope {
	long idx, start;
	const char *header;	/* "" when not shown */
	int done;
};

static void scope_get(struct eng *e, struct scope *s, long idx)
{
	if (s->done && s->idx == idx)
		return;
	s->idx = idx;
	s->header = rv_function(e, idx, &s->start);
	s->done = 1;
}

/* Whether a code line of the scope before idx (or of the header) matches pat. */
static int scope_has(struct eng *e, struct scope *s, const char *pat)
{
	long i;

	if (MQ(e, pat, s->header))
		return 1;
	for (i = s->start; i < s->idx; i++)
		if (e->lines[i][0] != '-' && MQ(e, pat, e->lines[i]))
			return 1;
	return 0;
}

/*
 * Whether variable w holds data from user space or the device: copied
 * with copy_from_user()/get_user()/memdup_user(), parsed from a user's
 * buffer (kstrto*(), sscanf()), read from registers or a device's
 * buffer (readl(), ioread*(), regmap_read(), i2c_smbus_read_*(),
 * le*_to_cpu()), a netlink attribute's value, or an ioctl's argument;
 * depth follows one assignment from such a variable.
 */
static int tainted_expr_d(struct eng *e, struct scope *s, const char *x, size_t n,
			  const char **who, int depth);

static int tainted_word(struct eng *e, struct scope *s, const char *w, int depth)
{
	const char *q = eng_quote(e, w);
	long i;

	if (scope_has(e, s, eng_pat(e, "\\b(?:__)?(?:copy_from_user|get_user)\\s*\\(\\s*&?\\s*%s\\b", q)) ||
	    scope_has(e, s, eng_pat(e, "\\b%s\\s*=\\s*(?:\\([^()]*\\)\\s*)?(?:v?memdup_user\\w*|read[bwlq]\\w*|ioread\\d+\\w*|in[bwl]|i2c_smbus_read_\\w+|(?:le|be)\\d+_to_cpu\\w*|get_unaligned\\w*|nla_get_\\w+|simple_strto\\w+)\\s*\\(", q)) ||
	    scope_has(e, s, eng_pat(e, "\\b(?:regmap_read|regmap_bulk_read|kstrto\\w+|sscanf)\\s*\\([^;]*&\\s*%s\\b", q)) ||
	    (MQ(e, "ioctl\\w*\\s*\\(", s->header) &&
	     MQ(e, eng_pat(e, "\\bunsigned\\s+long\\s+%s\\s*\\)", q), s->header)))
		return 1;
	if (depth <= 0)
		return 0;
	/* copied from a tainted variable: strcpy(w, t), memcpy(&w, t, n) */
	for (i = s->start; i < s->idx; i++) {
		const char *l = e->lines[i];
		struct re_m m;

		if (l[0] != '-' &&
		    re_match(e->rc, eng_pat(e, "\\b(?:str\\w*cpy|str\\w*cat|memcpy|s\\w*printf)\\s*\\(\\s*&?\\s*%s\\s*,([^;]*)", q), l, &m)) {
			const char *rest = eng_mcap(e, &m, 1), *who;

			if (tainted_expr_d(e, s, rest, strlen(rest), &who, depth - 1))
				return 1;
		}
	}
	/* w = <expression of a tainted variable> */
	for (i = s->start; i < s->idx; i++) {
		const char *l = e->lines[i];
		struct re_m m;
		size_t k, n;
		const char *rhs;

		if (l[0] == '-' ||
		    !re_match(e->rc, eng_pat(e, "\\b%s\\s*=(?!=)\\s*([^;]*)", q), l, &m))
			continue;
		rhs = eng_mcap(e, &m, 1);
		n = strlen(rhs);
		for (k = 0; k < n;) {
			size_t a = k;

			if (!is_ident(rhs[k]) || (rhs[k] >= '0' && rhs[k] <= '9')) {
				k++;
				continue;
			}
			while (k < n && is_ident(rhs[k]))
				k++;
			if (strncmp(rhs + a, w, strlen(w)) &&
			    tainted_word(e, s, eng_strndup(e, rhs + a, k - a), depth - 1))
				return 1;
		}
	}
	return 0;
}

/* Whether an identifier of expression x[0, n) is tainted: its name in *who. */
static int tainted_expr_d(struct eng *e, struct scope *s, const char *x, size_t n,
			  const char **who, int depth)
{
	size_t k;

	for (k = 0; k < n;) {
		size_t a = k;
		const char *w;

		if (!is_ident(x[k]) || (x[k] >= '0' && x[k] <= '9')) {
			k++;
			continue;
		}
		while (k < n && is_ident(x[k]))
			k++;
		w = eng_strndup(e, x + a, k - a);
		if (!strcmp(w, "sizeof") || MQ(e, "^[A-Z0-9_]+$", w))
			continue;
		if (tainted_word(e, s, w, depth)) {
			*who = w;
			return 1;
		}
	}
	return 0;
}

static int tainted_expr(struct eng *e, struct scope *s, const char *x, size_t n,
			const char **who)
{
	return tainted_expr_d(e, s, x, n, who, 2);
}

/*
 * Whether variable w is bounded before line idx: compared with <, <=, >,
 * >=, passed through min()/max()/clamp()/array_index_nospec(), or only
 * ever set to constants and counted up (a loop's counter).
 */
static int bounded_word(struct eng *e, struct scope *s, const char *w)
{
	const char *q = eng_quote(e, w);
	long i;
	int sets = 0, other = 0;

	if (scope_has(e, s, eng_pat(e, "\\b%s\\s*(?:<=?|(?<!-)>=?)(?!>)|(?:(?<![<-])[<>]=?)\\s*%s\\b(?!\\s*(?:->|\\.|\\())", q, q)) ||
	    scope_has(e, s, eng_pat(e, "\\b(?:min|max|clamp|min_t|max_t|clamp_t|clamp_val|array_index_nospec)\\s*\\([^;]*\\b%s\\b", q)))
		return 1;
	for (i = s->start; i < s->idx; i++) {
		const char *l = e->lines[i];
		struct re_m m;

		if (l[0] == '-')
			continue;
		if (MQ(e, eng_pat(e, "\\b%s\\s*(?:\\+\\+|--)|(?:\\+\\+|--)\\s*%s\\b", q, q), l)) {
			sets++;
			continue;
		}
		if (re_match(e->rc, eng_pat(e, "(?:^.|[^.>\\w])%s\\s*[-+]?=(?!=)\\s*([^;,]*)", q), l, &m)) {
			const char *rhs = trim(e, eng_mcap(e, &m, 1));

			sets++;
			if (!MQ(e, "^(?:\\d\\w*|[A-Z][A-Z0-9_]*|sizeof\\s*\\(.*\\)|ARRAY_SIZE\\s*\\(.*\\))$", rhs))
				other++;
		}
	}
	return sets && !other;
}

/* Every identifier of x[0, n) that is not a constant is bounded. */
static int bounded_expr(struct eng *e, struct scope *s, const char *x, size_t n)
{
	size_t k;
	int any = 0;

	for (k = 0; k < n;) {
		size_t a = k;
		const char *w;

		if (!is_ident(x[k]) || (x[k] >= '0' && x[k] <= '9')) {
			k++;
			continue;
		}
		while (k < n && is_ident(x[k]))
			k++;
		/* p->field, s.field: the whole is what is bounded */
		if (a >= 1 && (x[a - 1] == '.' || (a >= 2 && x[a - 1] == '>' && x[a - 2] == '-')))
			continue;
		w = eng_strndup(e, x + a, k - a);
		if (!strcmp(w, "sizeof") || MQ(e, "^[A-Z0-9_]+$", w))
			continue;
		if (k < n && (x[k] == '.' || (x[k] == '-' && k + 1 < n && x[k + 1] == '>')))
			return 0;	/* a field: not followed here */
		if (!bounded_word(e, s, w))
			return 0;
		any = 1;
	}
	return any;
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

/*
 * Whether a removed line of idx's change block starts with the same
 * call on the same first argument, its result thrown away as well.
 */
static int ignored_before(struct eng *e, long idx, const char *fn,
			  const struct rv_call *c)
{
	const char *a0 = c->narg ? rv_squeeze(e, rv_arg(e, c, 0)) : "";
	const char *want = eng_printf(e, "%s(%s", fn, a0);
	long lo, hi, i;

	rv_block(e, idx, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const char *l;

		if (e->lines[i][0] != '-')
			continue;
		l = rv_squeeze(e, e->lines[i] + 1);
		if (!strncmp(l, "(void)", 6))
			l += 6;
		if (!strncmp(l, want, strlen(want)))
			return 1;
	}
	return 0;
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
		struct rv_call c;

		pos = re_end(&m, 0);
		if (!rv_gather_call(e, idx, open, '+', &c) || c.after != ';')
			continue;
		if (!call_is_statement(e, idx, name))
			continue;
		/* the same call ignored before the patch: not its doing */
		if (rv_twin_same(e, idx) || ignored_before(e, idx, fn, &c))
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
static int size_mul_unchecked(const char *s, size_t n, size_t *oa, size_t *ob)
{
	size_t i = 0;
	int found = 0;

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
				/* the run-time operands, for the caller to judge */
				if (!operand_const(s, l, i) && found < 4) {
					oa[found] = l;
					ob[found++] = i;
				}
				if (!operand_const(s, i + 1, r) && found < 4) {
					oa[found] = i + 1;
					ob[found++] = r;
				}
			}
		}
		i++;
	}
	return found;
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
		struct rv_call c;

		pos = re_end(&m, 0);
		for (i = 0; i < ARRAY_SIZE(alloc_funcs); i++)
			if (!strcmp(alloc_funcs[i].fn, fn))
				break;
		if (i == ARRAY_SIZE(alloc_funcs))
			continue;
		if (!rv_gather_call(e, idx, open, '+', &c) ||
		    c.narg <= alloc_funcs[i].size_arg)
			continue;
		{
			const char *sz = c.text + c.off[alloc_funcs[i].size_arg];
			size_t szn = c.n[alloc_funcs[i].size_arg], oa[4], ob[4];
			int nop = size_mul_unchecked(sz, szn, oa, ob), k, all_bounded = 1;
			const char *who = NULL, *size = rv_arg(e, &c, alloc_funcs[i].size_arg);
			struct scope sc = { 0 };

			if (!nop)
				continue;
			/* the same allocation before the patch: not its doing */
			if (rv_twin_same(e, idx) ||
			    rv_twin_call(e, idx, eng_quote(e, fn), alloc_funcs[i].size_arg,
					 size, NULL))
				continue;
			scope_get(e, &sc, idx);
			for (k = 0; k < nop && !who; k++) {
				if (tainted_expr(e, &sc, sz + oa[k], ob[k] - oa[k], &who) &&
				    bounded_expr(e, &sc, sz + oa[k], ob[k] - oa[k]))
					who = NULL;
				if (who)	/* name the operand, not its variable */
					who = trim(e, eng_strndup(e, sz + oa[k], ob[k] - oa[k]));
			}
			for (k = 0; k < nop; k++)
				if (!bounded_expr(e, &sc, sz + oa[k], ob[k] - oa[k]))
					all_bounded = 0;
			if (who)
				WARN(e, R_ALLOC_SIZE_OVERFLOW,
				     eng_printf(e, "%s() size '%s' multiplies '%s', which comes from user space or the device, without an overflow check: a large value wraps to a small buffer that is then overrun; bound it or use %s\n%s",
						fn, size, who, alloc_funcs[i].instead, e->herecurr));
			/* checkpatch.pl's ALLOC_WITH_MULTIPLY asks the same */
			else if (!all_bounded && !checkpatch_alloc_multiply(e, fn))
				WARN(e, R_ALLOC_SIZE_CHECK,
				     eng_printf(e, "check that the count in %s() size '%s' cannot be large enough to wrap, or use %s\n%s",
						fn, size, alloc_funcs[i].instead, e->herecurr));
		}
	}
}

/* ---- UNBOUNDED_STRING_COPY, STRING_COPY_CHECK, USE_SYSFS_EMIT ---- */

#define LEN_UNBOUNDED	(-1)	/* depends on run-time data */
#define LEN_CONSTANT	(-2)	/* a compile-time constant of unknown length */

/* The text "declaration-like" before a call: "char *strcpy(". */
static int declaration_prefix(struct eng *e, const char *t)
{
	return MQ(e, "(?:\\w|\\*)$", t) &&
	       !MQ(e, "(?:^|\\W)(?:return|else|case|do)$", t);
}

/*
 * The bytes a C string literal's body s[0, n) stands for: an escape
 * counts one.
 */
static long literal_len(const char *s, size_t n)
{
	size_t i;
	long len = 0;

	for (i = 0; i < n; i++, len++) {
		if (s[i] != '\\' || i + 1 == n)
			continue;
		i++;
		if (s[i] == 'x')
			while (i + 1 < n && isxdigit((unsigned char)s[i + 1]))
				i++;
		else if (s[i] >= '0' && s[i] <= '7')
			while (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7')
				i++;
	}
	return len;
}

/*
 * The length of a string expression (raw text): LEN_CONSTANT for string
 * literals with ALL_CAPS macros between them, their length for literals
 * alone, LEN_UNBOUNDED for anything else.
 */
static long string_len(struct eng *e, const char *x)
{
	long len = 0;
	int macro = 0, any = 0;

	while (*x) {
		if (is_blank(*x)) {
			x++;
		} else if (*x == '"') {
			const char *b = ++x;

			while (*x && *x != '"')
				x += (*x == '\\' && x[1]) ? 2 : 1;
			len += literal_len(b, (size_t)(x - b));
			if (*x)
				x++;
			any = 1;
		} else if (*x >= 'A' && *x <= 'Z') {
			const char *b = x;

			while (is_ident(*x))
				x++;
			if (!MQ(e, "^[A-Z][A-Z0-9_]*$", eng_strndup(e, b, (size_t)(x - b))))
				return LEN_UNBOUNDED;
			macro = 1;
		} else {
			return LEN_UNBOUNDED;
		}
	}
	if (!any && !macro)
		return LEN_UNBOUNDED;
	return macro ? LEN_CONSTANT : len;
}

/*
 * The most bytes (without the NUL) the format fmt (raw text of the
 * argument) prints, its values being c's arguments from first on:
 * LEN_UNBOUNDED when a %s, a %p extension that prints names or a
 * non-literal format can make it any length.
 */
static long format_len(struct eng *e, const struct rv_call *c, const char *fmt,
		       size_t first)
{
	long total = 0, n, spec = 0;
	size_t argi = first;
	const char *f, *start;
	int constant = 0;

	/* the format's literals joined; a macro in it is a constant */
	n = string_len(e, fmt);
	if (n == LEN_UNBOUNDED)
		return LEN_UNBOUNDED;
	if (n == LEN_CONSTANT)
		constant = 1;
	for (f = fmt; *f; f++) {
		long width = 0, prec = -1, conv = 0;
		int lng = 0, hh = 0, h = 0, alt = 0;
		const char *d;

		if (*f == '"') {
			/* inside a literal: walk to its end, one piece at a time */
			continue;
		}
		if (*f != '%')
			continue;
		start = f++;
		if (*f == '%') {
			total++;
			spec += 2;
			continue;
		}
		while (*f && strchr("-+ #0", *f))
			alt |= *f++ == '#';
		if (*f == '*') {
			argi++;
			f++;
		}
		while (*f >= '0' && *f <= '9')
			width = width * 10 + (*f++ - '0');
		if (*f == '.') {
			f++;
			if (*f == '*') {
				const char *p = argi < c->narg ? rv_arg(e, c, argi) : "";

				/* a macro or sizeof: a constant, not known here */
				prec = MQ(e, "^\\d+$", p) ? strtol(p, NULL, 10) :
				       MQ(e, "^(?:[A-Z][A-Z0-9_]*|sizeof\\b.*)$", p) ? -3 : -2;
				argi++;
				f++;
			} else {
				prec = 0;
				while (*f >= '0' && *f <= '9')
					prec = prec * 10 + (*f++ - '0');
			}
		}
		for (;;) {
			if (*f == 'l' || *f == 'z' || *f == 't' || *f == 'j' || *f == 'L')
				lng = 1;
			else if (*f == 'h' && f[1] == 'h')
				hh = 1, f++;
			else if (*f == 'h')
				h = 1;
			else
				break;
			f++;
		}
		switch (*f) {
		case 'd': case 'i':
			conv = lng ? 20 : hh ? 4 : h ? 6 : 11;
			break;
		case 'u':
			conv = lng ? 20 : hh ? 3 : h ? 5 : 10;
			break;
		case 'x': case 'X':
			conv = (lng ? 16 : hh ? 2 : h ? 4 : 8) + (alt ? 2 : 0);
			break;
		case 'o':
			conv = (lng ? 22 : hh ? 3 : h ? 6 : 11) + alt;
			break;
		case 'c':
			conv = 1;
			break;
		case 's':
			d = argi < c->narg ? rv_raw_arg(e, c, argi) : "";
			if (prec >= 0) {
				conv = prec;
			} else if (prec == -3) {
				constant = 1;
				conv = 0;
			}
			else if (prec == -2 || (conv = string_len(e, d)) == LEN_UNBOUNDED)
				return LEN_UNBOUNDED;
			else if (conv == LEN_CONSTANT)
				constant = 1, conv = 0;
			break;
		case 'p':
			/* plain, x, K, M, m, I4, a: bounded; names: not */
			if (f[1] && strchr("SsBOdDVUhEgCNetrRfGblW", f[1]))
				return LEN_UNBOUNDED;
			conv = f[1] == 'I' || f[1] == 'i' ? 39 : f[1] == 'U' ? 36 : 18;
			while (is_ident(f[1]))
				f++;
			break;
		default:
			return LEN_UNBOUNDED;	/* not understood */
		}
		if (*f == 's' && argi >= c->narg)
			return LEN_UNBOUNDED;
		argi++;
		total += conv > width ? conv : width;
		spec += (long)(f - start) + 1;
	}
	/* the literal bytes, less the conversions' own text */
	total += n > spec ? n - spec : 0;
	return constant ? LEN_CONSTANT : total;
}

/*
 * Whether the destination dst (sanitised text) is a fixed-size array
 * the patch shows: a char array declared in the function ("char
 * name[16]") or a struct field declared anywhere in the input ("char
 * name[NAME_LEN];").  Its size in *size (0 when not a number), or 0.
 */
static int fixed_array(struct eng *e, struct scope *sc, const char *dst, long *size)
{
	struct re_m m;
	const char *w, *q;
	size_t i;

	*size = 0;
	/* the array itself, or at an offset into it ("buf + len", "&buf[n]") */
	if (!re_match(e->rc, "^&?\\s*((?:\\w+\\s*(?:->|\\.)\\s*)*)(\\w+)\\s*(?:$|\\+|\\[)", dst, &m))
		return 0;
	w = eng_mcap(e, &m, 2);
	q = eng_quote(e, w);
	if (!re_cap_defined(&m, 1) || !*eng_mcap(e, &m, 1)) {
		const char *pat = eng_pat(e, "^[+ ]\\s*(?:static\\s+|const\\s+)*(?:unsigned\\s+|signed\\s+)?(?:char|u8|s8)\\s+(?:\\w+\\s*\\[[^\\]]*\\]\\s*,\\s*)*%s\\s*\\[\\s*([^\\]]+?)\\s*\\]", q);
		long k;

		for (k = sc->start; k <= sc->idx; k++)
			if (e->lines[k][0] != '-' && re_match(e->rc, pat, e->lines[k], &m))
				goto found;
		return 0;
	}
	for (i = 0; i < e->nlines; i++) {
		const char *l = e->lines[i];

		if ((l[0] == '+' || l[0] == ' ') &&
		    re_match(e->rc, eng_pat(e, "^[+ ]\\s*(?:unsigned\\s+|signed\\s+)?(?:char|u8|s8)\\s+%s\\s*\\[\\s*([^\\]]+?)\\s*\\]\\s*;", q), l, &m))
			goto found;
	}
	return 0;
found:
	{
		const char *n = eng_mcap(e, &m, 1);

		if (MQ(e, "^\\d+$", n))
			*size = strtol(n, NULL, 10);
	}
	return 1;
}

/* The name of a sysfs show() function's buffer parameter, or NULL. */
static const char *show_buffer(struct eng *e, struct scope *sc)
{
	struct re_m m;
	const char *h = sc->header;

	if (!MQ(e, "\\w+_show\\s*\\(|\\bshow_\\w+\\s*\\(|\\*\\s*attr\\w*\\s*,\\s*char\\s*\\*", h))
		return NULL;
	if (re_match(e->rc, "char\\s*\\*\\s*(\\w+)\\s*\\)", h, &m))
		return eng_mcap(e, &m, 1);
	return "buf";
}

#define BOUNDED_FUNCS	"snprintf|scnprintf|vsnprintf|vscnprintf|strscpy|strscpy_pad|strlcpy|strncpy|strlcat|strncat|sysfs_emit|sysfs_emit_at|memcpy"
#define UNBOUNDED_FUNCS	"strcpy|strcat|sprintf|vsprintf"

static void check_string_funcs(struct eng *e, long idx)
{
	const char *line = e->line;
	size_t pos = 0, len = strlen(line);
	struct re_m m;
	struct scope sc = { 0 };
	int guard;

	for (guard = 0; guard < 32 && pos < len &&
	     re_find(e->rc, "(?<![\\w.>])(strcpy|strcat|sprintf|vsprintf)\\s*\\(",
		     line, len, pos, &m); guard++) {
		size_t name = re_start(&m, 1), open = re_end(&m, 0) - 1;
		char *fn = eng_strndup(e, line + name, re_end(&m, 1) - name);
		char *pre = trim(e, eng_strndup(e, line + 1, name - 1));
		const char *dst, *was = NULL, *buf, *advice;
		int is_fmt = fn[0] != 's' || fn[1] == 'p', array;
		long slen, size;
		struct rv_call c;

		pos = re_end(&m, 0);
		if (declaration_prefix(e, pre) || MQ(e, "^#\\s*define\\s*$", pre))
			continue;
		if (!rv_gather_call(e, idx, open, '+', &c) || c.narg < 2)
			continue;
		dst = rv_arg(e, &c, 0);
		/* the same call on the same destination before the patch */
		if (rv_twin_same(e, idx) ||
		    rv_twin_call(e, idx, UNBOUNDED_FUNCS, 0, dst, NULL))
			continue;
		scope_get(e, &sc, idx);
		if (!strcmp(fn, "vsprintf"))
			slen = LEN_UNBOUNDED;
		else if (is_fmt)
			slen = format_len(e, &c, rv_raw_arg(e, &c, 1), 2);
		else
			slen = string_len(e, rv_raw_arg(e, &c, 1));
		advice = !strcmp(fn, "strcpy") ? "strscpy()" :
			 !strcmp(fn, "strcat") ? "strlcat() or scnprintf()" :
			 !strcmp(fn, "sprintf") ? "snprintf() or scnprintf()" :
			 "vsnprintf() or vscnprintf()";

		/* a sysfs show() buffer: PAGE_SIZE, sysfs_emit() is the way */
		buf = is_fmt ? show_buffer(e, &sc) : NULL;
		if (buf && MQ(e, eng_pat(e, "^&?\\s*%s\\b", eng_quote(e, buf)), dst)) {
			WARN(e, R_USE_SYSFS_EMIT,
			     eng_printf(e, "%s() into the sysfs show() buffer '%s': use %s, which knows the buffer is PAGE_SIZE\n%s",
					fn, buf, strcmp(dst, buf) ? "sysfs_emit_at()" : "sysfs_emit()",
					e->herecurr));
			continue;
		}
		array = fixed_array(e, &sc, dst, &size);
		if (slen == LEN_UNBOUNDED &&
		    rv_twin_call(e, idx, BOUNDED_FUNCS, 0, dst, &was)) {
			WARN(e, R_UNBOUNDED_STRING_COPY,
			     eng_printf(e, "%s() replaces the bounded %s() on '%s': a source longer than the destination now overflows it, keep a bounded call (%s)\n%s",
					fn, was, dst, advice, e->herecurr));
		} else if (slen == LEN_UNBOUNDED && array) {
			WARN(e, R_UNBOUNDED_STRING_COPY,
			     eng_printf(e, "%s() writes a string of unknown length into the fixed-size array '%s'%s: a longer one overflows it, use %s with its size\n%s",
					fn, dst, size ? eng_printf(e, " (%ld bytes)", size) : "",
					advice, e->herecurr));
		} else if (slen >= 0 && array && size && slen + 1 > size) {
			WARN(e, R_UNBOUNDED_STRING_COPY,
			     eng_printf(e, "%s() can write %ld bytes into the %ld-byte array '%s': it overflows, use %s with its size\n%s",
					fn, slen + 1, size, dst, advice, e->herecurr));
		} else if (slen == LEN_UNBOUNDED) {
			WARN(e, R_STRING_COPY_CHECK,
			     eng_printf(e, "check that what %s() writes always fits '%s': it does not know the destination's size, %s would\n%s",
					fn, dst, advice, e->herecurr));
		} else {
			WARN(e, R_STRING_FUNC_DEPRECATED,
			     eng_printf(e, "%s() with a source of known length, which is not an overflow, but %s() is deprecated: use %s\n%s",
					fn, fn, advice, e->herecurr));
		}
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
	struct scope sc = { 0 };
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
		const char *who = NULL;
		struct rv_call c;

		pos = re_end(&m, 0);
		for (i = 0; i < ARRAY_SIZE(fmt_funcs); i++)
			if (!strcmp(fmt_funcs[i].fn, fn))
				break;
		if (i == ARRAY_SIZE(fmt_funcs))
			continue;
		pre = trim(e, eng_strndup(e, line + 1, name - 1));
		if (declaration_prefix(e, pre))
			continue;
		if (!rv_gather_call(e, idx, open, '+', &c) ||
		    c.narg != fmt_funcs[i].vargs)
			continue;
		fmt = rv_arg(e, &c, fmt_funcs[i].fmt);
		/* a literal, a literal chosen by ?:, or ALL_CAPS macros */
		if (!*fmt || strchr(fmt, '"') || MQ(e, "^[A-Z0-9_\\s]+$", fmt))
			continue;
		/* the same format in the same call before the patch */
		if (rv_twin_same(e, idx) ||
		    rv_twin_call(e, idx, eng_quote(e, fn), fmt_funcs[i].fmt, fmt, NULL))
			continue;
		scope_get(e, &sc, idx);
		if (tainted_expr(e, &sc, fmt, strlen(fmt), &who))
			WARN(e, R_FORMAT_STRING_NOT_LITERAL,
			     eng_printf(e, "%s() takes '%s', data from user space or the device, as its format string: a '%%' in it reads arguments that are not there (and %%n-like tricks); %s\n%s",
					trim(e, full), fmt,
					!strcmp(fn, "seq_printf") ? "use seq_puts()" :
					"pass it as an argument to \"%s\"",
					e->herecurr));
		else
			WARN(e, R_FORMAT_STRING_CHECK,
			     eng_printf(e, "check that '%s', the format string of %s(), can never hold a '%%'; else %s\n%s",
					fmt, trim(e, full),
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
	/* a re-indented or moved line was world-writable before the patch */
	if (rv_twin_same(e, idx))
		return;
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
		struct rv_call c;

		pos = re_end(&m, 0);
		for (i = 0; i < ARRAY_SIZE(mode_funcs); i++)
			if (!strcmp(mode_funcs[i].fn, fn))
				break;
		if (i == ARRAY_SIZE(mode_funcs) ||
		    !rv_gather_call(e, idx, open, '+', &c) ||
		    c.narg <= mode_funcs[i].mode_arg)
			continue;
		mode = rv_arg(e, &c, mode_funcs[i].mode_arg);
		if (!world_writable(e, mode))
			continue;
		if (mode_funcs[i].symbolic_only && !MQ(e, "\\bS_I", mode))
			continue;
		if (rv_twin_call(e, idx, eng_quote(e, fn), mode_funcs[i].mode_arg,
				 mode, NULL))
			continue;
		WARN(e, R_WORLD_WRITABLE_INTERFACE,
		     eng_printf(e, "%s() with mode %s makes this %s writable by every local user, so any unprivileged process can change the driver's state: use 0644 or 0600\n%s",
				fn, mode, mode_funcs[i].what, e->herecurr));
	}
}


/* ---- SENSITIVE_WORLD_READABLE ---- */

/*
 * Words of a file name that say it holds a secret: 2 for those that
 * cannot mean anything else (password, secret, private key...), 1 for
 * those that often do not (a keyboard's key, a random seed's setting).
 */
static int sensitive_word(const char *w, size_t n)
{
	static const struct {
		const char *w;
		int strength;
	} words[] = {
		{ "privkey", 2 }, { "secret", 2 }, { "secrets", 2 },
		{ "password", 2 }, { "passwd", 2 }, { "passphrase", 2 },
		{ "credentials", 2 }, { "creds", 2 }, { "psk", 2 },
		{ "key", 1 }, { "keys", 1 }, { "token", 1 }, { "tokens", 1 },
		{ "nonce", 1 }, { "seed", 1 }, { "salt", 1 }, { "otp", 1 },
		{ "cred", 1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i].w) == n && !strncasecmp(words[i].w, w, n))
			return words[i].strength;
	return 0;
}

/* 2: named like a secret; 1: maybe; 0: no ("private" + "key" is 2). */
static int sensitive_name(struct eng *e, const char *s)
{
	int best = 0, priv = 0;

	while (*s) {
		const char *w;
		int k;

		while (*s && !isalnum((unsigned char)*s))
			s++;
		w = s;
		while (isalnum((unsigned char)*s))
			s++;
		if (s == w)
			continue;
		k = sensitive_word(w, (size_t)(s - w));
		if (k == 1 && priv && !strncasecmp(w, "key", 3))
			k = 2;
		/* a private, session, master... key */
		priv = MQ(e, "(?i)^(?:private|priv|session|secret|master|aes|hmac|crypt\\w*|encryption|wrap\\w*|auth|signing|root)$",
			  eng_strndup(e, w, (size_t)(s - w)));
		if (k > best)
			best = k;
	}
	return best;
}

/*
 * A file or parameter named like a secret (key, password, token, seed...)
 * and readable by every user: S_IRUGO, S_IROTH, or an octal mode whose
 * "other" digit has the read bit.  One-line calls only.
 */
static void check_sensitive_readable(struct eng *e, long idx)
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
		int strength;

		if (!re_match(e->rc, calls[i].pat, raw, &m))
			continue;
		/* the call itself is code, not a comment or a string */
		fn = eng_strndup(e, raw + re_start(&m, 1), re_end(&m, 1) - re_start(&m, 1));
		if (e->line[re_start(&m, 1)] != raw[re_start(&m, 1)])
			continue;
		name = eng_strndup(e, raw + re_start(&m, 2), re_end(&m, 2) - re_start(&m, 2));
		mode = trim(e, eng_strndup(e, raw + re_start(&m, 3), re_end(&m, 3) - re_start(&m, 3)));
		strength = sensitive_name(e, name);
		if (!strength)
			continue;
		/* in a crypto or security driver a key or seed is a secret */
		if (MQ(e, "^(?:drivers/crypto|crypto|security|drivers/char/(?:tpm|hw_random)|drivers/firmware)/", e->realfile.buf))
			strength = 2;
		if (!MQ(e, "\\b(?:S_IRUGO|S_IROTH|S_IRWXUGO|S_IALLUGO|S_IRWXO)\\b", mode) &&
		    !MQ(e, "^0[0-7]{2}[4567]$", mode))
			continue;
		if (rv_twin_same(e, idx))
			return;
		if (strength == 2)
			WARN(e, R_SENSITIVE_WORLD_READABLE,
			     eng_printf(e, "%s '%s' is named like a secret but mode %s lets every local user read it: use 0400 or 0600%s\n%s",
					calls[i].what, name, mode,
					!strncmp(fn, "debugfs", 7) ? " (and keep secrets out of debugfs)" : "",
					e->herecurr));
		else
			WARN(e, R_SENSITIVE_FILE_CHECK,
			     eng_printf(e, "check that %s '%s' holds no secret: mode %s lets every local user read it%s\n%s",
					calls[i].what, name, mode,
					!strncmp(fn, "debugfs", 7) ? " (and keep secrets out of debugfs)" : "",
					e->herecurr));
		return;
	}
}

/* ---- USER_PTR_DEREF ---- */

/* What is worked out once per input: the struct fields declared __user. */
struct rv_security {
	int fields_done;
	char *fields;		/* '|'-joined names, "" when none */
};

/*
 * The names declared __user that line idx can see: the function's
 * parameters and locals shown in the hunk, and struct fields the input
 * declares __user anywhere (fields in *fields, '|'-joined, quoted).
 */
static const char *user_names(struct eng *e, struct scope *sc, int fields)
{
	const char *pat = "__user\\s*\\*\\s*(?:const\\s+)?(\\w+)";
	struct sbuf sb;
	const char *out;
	long i;

	sbuf_init(&sb, 1u << 16);
	if (!fields) {
		struct re_m m;
		size_t pos = 0, n = strlen(sc->header);
		int any = strstr(sc->header, "__user") != NULL;

		/* most functions have no __user name: a cheap look first */
		for (i = sc->start; i < sc->idx && !any; i++)
			any = e->lines[i][0] != '-' && strstr(e->lines[i], "__user");
		if (!any) {
			sbuf_release(&sb);
			return "";
		}

		while (pos < n && re_find(e->rc, pat, sc->header, n, pos, &m)) {
			sbuf_addf(&sb, "%s%s", sb.len ? "|" : "", eng_mcap(e, &m, 1));
			pos = re_end(&m, 0);
		}
		for (i = sc->start; i < sc->idx; i++) {
			const char *l = e->lines[i];

			n = strlen(l);
			pos = 0;
			while (l[0] != '-' && pos < n && re_find(e->rc, pat, l, n, pos, &m)) {
				/* a declaration or a cast's target: "x = (void __user *)arg" */
				if (!MQ(e, "\\)", eng_strndup(e, l + re_start(&m, 0), re_end(&m, 0) - re_start(&m, 0))))
					sbuf_addf(&sb, "%s%s", sb.len ? "|" : "", eng_mcap(e, &m, 1));
				pos = re_end(&m, 0);
			}
		}
	} else {
		struct rv_security *st = e->rv_security;

		if (!st) {
			st = e->rv_security = calloc(1, sizeof(*st));
			if (!st) {
				e->failed = 1;
				sbuf_release(&sb);
				return "";
			}
		}
		if (st->fields_done) {
			sbuf_release(&sb);
			return st->fields ? st->fields : "";
		}
		for (i = 0; (size_t)i < e->nlines; i++) {
			struct re_m m;

			if ((e->lines[i][0] == '+' || e->lines[i][0] == ' ') &&
			    strstr(e->lines[i], "__user") &&
			    re_match(e->rc, "^[+ ]\\s*(?:const\\s+)?(?:struct\\s+)?\\w+\\s+__user\\s*\\*\\s*(\\w+)\\s*;", e->lines[i], &m))
				sbuf_addf(&sb, "%s%s", sb.len ? "|" : "", eng_mcap(e, &m, 1));
		}
		st->fields_done = 1;
		st->fields = sb.err ? NULL : strndup(sb.buf, sb.len);
		sbuf_release(&sb);
		return st->fields ? st->fields : "";
	}
	out = sb.err ? "" : eng_strndup(e, sb.buf, sb.len);
	sbuf_release(&sb);
	return out;
}

/*
 * A match of pat (an index or -> of a __user name) that is not under
 * '&': "&uptr->field" and "&ubuf[i]" take the address of a user object,
 * what put_user() and copy_to_user() want, and read nothing.  The first
 * such match that is a read, left in *m.
 */
static int indexed_not_addressed(struct eng *e, const char *pat, const char *line,
				 struct re_m *m)
{
	size_t pos = 0, n = strlen(line);
	int guard;

	for (guard = 0; guard < 64 && pos < n && re_find(e->rc, pat, line, n, pos, m); guard++) {
		size_t at = re_start(m, 0);
		size_t k = at;
		size_t end = re_end(m, 0);

		/* back over the path the match is the tail of (a->b->uptr)
		 * and white space or '(' to what takes it */
		while (k > 0 && (rv_is_ident((unsigned char)line[k - 1]) ||
				 line[k - 1] == '.' || line[k - 1] == '>' ||
				 (line[k - 1] == '-' && line[k] == '>')))
			k--;
		while (k > 0 && (rv_is_blank((unsigned char)line[k - 1]) || line[k - 1] == '('))
			k--;
		if (k > 0 && line[k - 1] == '&' && !(k > 1 && line[k - 2] == '&')) {
			pos = end > pos ? end : pos + 1;
			continue;
		}
		return 1;
	}
	return 0;
}

/*
 * A __user pointer read as if it were kernel memory: dereferenced,
 * indexed, followed with ->, cast to a kernel pointer, or passed to a
 * str*()/mem*()/sscanf()/kstrto*() function.  The pointer's name must
 * be declared __user in the function's parameters or the lines the hunk
 * shows, or be a field the input declares __user.
 */
static void check_user_deref(struct eng *e, long idx)
{
	const char *line = e->line, *vars, *flds, *use = NULL;
	struct scope sc = { 0 };
	struct re_m m;

	if (!strstr(line, "__user") && !MQ(e, "[\\[*>(]|\\b(?:str|mem|sscanf|kstrto)", line))
		return;
	if (MQ(e, "^.\\s*#\\s*define\\b", line) || in_macro(e, idx))
		return;
	scope_get(e, &sc, idx);
	vars = user_names(e, &sc, 0);
	flds = user_names(e, &sc, 1);
	if (!*vars && !*flds)
		return;
	/* a declaration line of the pointer itself */
	if (MQ(e, "__user\\s*\\*\\s*\\w+\\s*[;,)=]", line) && !MQ(e, "=.*(?:\\[|\\*\\s*\\w|->)", line))
		return;
	/* "T __user *p = uptr->array;": the address of a member, another
	 * __user pointer, not a read */
	if (MQ(e, "__user\\s*\\*\\s*\\w+\\s*=\\s*&?\\s*\\w+\\s*->\\s*\\w+\\s*(?:[;+,]|$)", line))
		return;
	if (*vars) {
		const char *v = eng_pat(e, "(?:%s)", vars);

		if (re_match(e->rc, eng_pat(e, "(?:^.|[=(,;!&|?:]|\\breturn)\\s*\\*\\s*(%s)\\b(?!\\s*\\()", v), line, &m) ||
		    indexed_not_addressed(e, eng_pat(e, "(?<![\\w.>])(%s)\\s*(?:\\[|->)", v), line, &m) ||
		    re_match(e->rc, eng_pat(e, "\\(\\s*(?:const\\s+)?(?:struct\\s+)?\\w+(?:\\s+\\w+)?\\s*\\*\\s*\\)\\s*(%s)\\b(?!\\s*(?:\\[|->))", v), line, &m) ||
		    re_match(e->rc, eng_pat(e, "\\b(?!\\w*_user\\b)(?:str\\w*|mem\\w*|sscanf|kstrto\\w+|simple_strto\\w+)\\s*\\([^;]*?(?<![\\w.>])(%s)\\b(?!\\s*(?:\\[|->|\\.))", v), line, &m))
			use = eng_mcap(e, &m, 1);
	}
	if (!use && *flds) {
		const char *f = eng_pat(e, "(?:%s)", flds);

		if (re_match(e->rc, eng_pat(e, "\\(\\s*(?:const\\s+)?(?:struct\\s+)?\\w+(?:\\s+\\w+)?\\s*\\*\\s*\\)\\s*\\w+(?:->|\\.)(%s)\\b", f), line, &m) ||
		    re_match(e->rc, eng_pat(e, "\\b(?!\\w*_user\\b)(?:str\\w*|mem\\w*|sscanf|kstrto\\w+)\\s*\\([^;]*?\\w(?:->|\\.)(%s)\\b(?!\\s*(?:\\[|->|\\.))", f), line, &m) ||
		    indexed_not_addressed(e, eng_pat(e, "\\w(?:->|\\.)(%s)\\s*\\[", f), line, &m))
			use = eng_mcap(e, &m, 1);
	}
	if (!use)
		return;
	{
		const char *what = eng_strndup(e, line + re_start(&m, 0),
					       re_end(&m, 0) - re_start(&m, 0));

		/* a cast to a __user pointer; the same read before the patch */
		if (MQ(e, "__user", what) || rv_twin_same(e, idx) ||
		    rv_twin_has(e, idx, what))
			return;
	}
	WARN(e, R_USER_PTR_DEREF,
	     eng_printf(e, "'%s' is a __user pointer read as kernel memory: user space can point it anywhere (or at unmapped memory), so copy it in with copy_from_user()/get_user()/strncpy_from_user() and use the copy\n%s",
			use, e->herecurr));
}

/* ---- NLA_PARSE_UNCHECKED, NLA_VALUE_UNCHECKED ---- */

static void check_netlink(struct eng *e, long idx)
{
	const char *line = e->line;
	size_t len = strlen(line);
	struct re_m m;

	if (!strstr(line, "nla_") && !MQ(e, "<<|>>|\\[", line))
		return;
	/* nla_parse*() as a statement of its own: its result is lost */
	if (re_find(e->rc, "(?<![\\w.>])(nla_parse\\w*|nlmsg_parse\\w*|genlmsg_parse\\w*)\\s*\\(", line, len, 0, &m)) {
		size_t name = re_start(&m, 1), open = re_end(&m, 0) - 1;
		const char *fn = eng_mcap(e, &m, 1);
		struct rv_call c;

		if (rv_gather_call(e, idx, open, '+', &c) && c.after == ';' &&
		    call_is_statement(e, idx, name) &&
		    !rv_twin_same(e, idx) &&
		    !rv_twin_call(e, idx, eng_quote(e, fn), 0, c.narg ? rv_arg(e, &c, 0) : NULL, NULL))
			WARN(e, R_NLA_PARSE_UNCHECKED,
			     eng_printf(e, "%s() result thrown away: when it fails the attributes were not validated against the policy (lengths, ranges), and the code goes on to read them as if they were\n%s",
					fn, e->herecurr));
	}
	/* a value from nla_get_*() used as a shift or an index, unbounded */
	{
		struct scope sc = { 0 };
		long i;

		scope_get(e, &sc, idx);
		for (i = sc.start; i < idx; i++) {
			const char *l = e->lines[i], *v, *q, *attr;
			long k;
			int checked = 0;

			if (l[0] != '+' ||
			    !re_match(e->rc, "^\\+\\s*(?:\\w+\\s+)*(\\w+)\\s*=\\s*nla_get_\\w+\\s*\\(\\s*(?:\\w+(?:->|\\.))*\\w+\\s*\\[\\s*(\\w+)\\s*\\]", l, &m))
				continue;
			v = eng_mcap(e, &m, 1);
			attr = eng_mcap(e, &m, 2);
			q = eng_quote(e, v);
			if (!re_match(e->rc, eng_pat(e, "(?:<<|>>)\\s*(?:\\(\\s*\\w+\\s*\\)\\s*)?%s\\b|(?<![\\w.>])\\w+\\s*\\[\\s*%s\\s*\\]", q, q), line, &m))
				continue;
			for (k = i + 1; k < idx && !checked; k++)
				checked = e->lines[k][0] != '-' &&
					  MQ(e, eng_pat(e, "\\b%s\\s*(?:<=?|(?<!-)>=?)(?!>)|(?:(?<![<-])[<>]=?)\\s*%s\\b|\\b(?:min|max|clamp|array_index_nospec)\\w*\\s*\\([^;]*\\b%s\\b", q, q, q), e->lines[k]);
			/* a policy that bounds the attribute: NLA_POLICY_MAX(), _RANGE() */
			for (k = 0; !checked && (size_t)k < e->nlines; k++)
				checked = MQ(e, eng_pat(e, "\\[\\s*%s\\s*\\]\\s*=\\s*(?:NLA_POLICY_(?:MAX|RANGE|MIN|FULL_RANGE|MASK|VALIDATE_FN)|\\{[^}]*\\.(?:max|validation_type))", eng_quote(e, attr)), e->lines[k]);
			if (checked)
				continue;
			WARN(e, R_NLA_VALUE_UNCHECKED,
			     eng_printf(e, "'%s' comes from netlink attribute %s and is used as a shift count or an index with no bound check since: user space chooses it, so compare it with the limit (or give the attribute NLA_POLICY_MAX()) first\n%s",
					v, attr, e->herecurr));
			return;
		}
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
	check_sensitive_readable(e, idx);
	check_user_deref(e, idx);
	check_netlink(e, idx);
}

void rv_security_final(struct eng *e)
{
	(void)e;	/* every finding is made on its own line */
}

void rv_security_release(struct eng *e)
{
	if (!e->rv_security)
		return;
	free(e->rv_security->fields);
	free(e->rv_security);
	e->rv_security = NULL;
}

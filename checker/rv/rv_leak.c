// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel memory copied out before it is all written:
 *
 *   STRUCT_INFO_LEAK   a struct on the stack (or from kmalloc(), which
 *                      does not zero) copied to user space or put in a
 *                      netlink message (copy_to_user(), copy_to_sockptr(),
 *                      copy_to_iter(), simple_read_from_buffer(),
 *                      nla_put()) while, on some path from where it is
 *                      made, a field is left unset and nothing zeroed it;
 *                      or, its definition in the patch, while it has
 *                      padding (holes the compiler leaves between fields
 *                      or at its end)
 *   STRUCT_LEAK_CHECK  the same where the code does not prove it: every
 *                      field the function writes is written on every path,
 *                      but the struct's definition is not in the patch
 *
 * Which fields are set on every path is a must-analysis over the
 * function's control-flow graph (cfunc.h): a field counts as set at a
 * statement when each path from the struct's declaration (or allocation)
 * to it writes the field.  A memset(), "= {}", a zeroing allocator, a
 * copy into the whole struct, or the struct's address handed to any other
 * function ends the question: the rule stays silent rather than guess.
 */
#include "rv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfunc.h"
#include "cview.h"

#include "../banned.h"

#define LEAK_MAX_FIELDS	62
#define BIT_ALL		(1ull << 63)	/* zeroed, filled, or given away */

struct leak {
	struct eng *e;
	const struct rv_code *c;
	const struct cfunc *f;
	int var;		/* the object's variable */
	int pointer;		/* a kmalloc'ed struct: p->f, else v.f */
	int start;		/* statement where it is made */
	uint64_t init;		/* what its making sets */
	int designated;		/* a designated initialiser: the rest is 0 */
	const struct ctok *field[LEAK_MAX_FIELDS];
	size_t nfields;
	size_t field_tok[LEAK_MAX_FIELDS];	/* where each is first written */
	uint64_t *gen;		/* per statement: what it sets */
	uint64_t *out;
};

static int punct(const struct ctok *t, char c)
{
	return t->kind == CTK_PUNCT && t->len == 1 && t->s[0] == c;
}

static int field_index(struct leak *lk, const struct ctok *t, int add, size_t at)
{
	size_t i;

	for (i = 0; i < lk->nfields; i++)
		if (ctok_same(lk->field[i], t))
			return (int)i;
	if (!add || lk->nfields >= LEAK_MAX_FIELDS)
		return -1;
	lk->field[lk->nfields] = t;
	lk->field_tok[lk->nfields] = at;
	return (int)lk->nfields++;
}

/* Whether token i starts the object: "v." / "v->" / "(&v)" / "p". */
static int is_obj(const struct leak *lk, size_t i)
{
	const struct cfunc *f = lk->f;

	return ctok_same(cf_tok(f, i), cf_tok(f, f->vars[lk->var].name)) &&
	       !(i > 0 && (ctok_is(cf_tok(f, i - 1), ".") || ctok_is(cf_tok(f, i - 1), "->")));
}


static int alloc_fn(const struct ctok *t, int *zeroes)
{
	static const char *const nz[] = { "kmalloc", "kvmalloc", "devm_kmalloc", "vmalloc",
					  "kmalloc_obj", "kmalloc_array", "kmemdup", NULL };
	static const char *const z[] = { "kzalloc", "kvzalloc", "devm_kzalloc", "vzalloc",
					 "kcalloc", "devm_kcalloc", "kzalloc_obj", "kvcalloc", NULL };
	size_t i;

	for (i = 0; nz[i]; i++)
		if (ctok_is_ident(t, nz[i])) {
			*zeroes = 0;
			return 1;
		}
	for (i = 0; z[i]; i++)
		if (ctok_is_ident(t, z[i])) {
			*zeroes = 1;
			return 1;
		}
	return 0;
}

/* Whether the call at name i (its '(' at i + 1) may set fields of its
 * first argument by name: memcpy(v.f, ...), strscpy(v.f, ...). */
static int field_setter(const struct ctok *t)
{
	static const char *const names[] = {
		"memcpy", "strscpy", "strscpy_pad", "strncpy", "strlcpy", "snprintf",
		"scnprintf", "memset", "copy_from_user", "strcpy", "sprintf",
		"memcpy_fromio", "ether_addr_copy", "uuid_copy", "get_task_comm",
		"put_unaligned*", "sysfs_emit", NULL,
	};

	return ctok_ident_in(t, names);
}

/* What statement s sets of the object: fields, or BIT_ALL. */
static uint64_t gen_of(struct leak *lk, int s, int sink)
{
	const struct cfunc *f = lk->f;
	const struct cstmt *st = &f->st[s];
	uint64_t g = 0;
	size_t i;

	/* its own making sets what lk->init says */
	if (st->kind == CS_BLOCK || s == lk->start)
		return 0;
	for (i = st->e0; i < st->e1; i++) {
		const struct ctok *t = cf_tok(f, i);
		size_t k;

		if (!is_obj(lk, i))
			continue;
		k = i + 1;
		/* v.f = / p->f = / v.f[i] = / v.f.g = : f is set */
		if (k + 1 < st->e1 && ctok_is(cf_tok(f, k), lk->pointer ? "->" : ".") &&
		    cf_tok(f, k + 1)->kind == CTK_IDENT) {
			size_t name = k + 1, j = k + 2;

			while (j < st->e1 && (punct(cf_tok(f, j), '[') ||
					      ctok_is(cf_tok(f, j), ".") || ctok_is(cf_tok(f, j), "->"))) {
				if (punct(cf_tok(f, j), '[')) {
					size_t m = ctok_match(f->v->tb.t, j, st->e1);

					j = m < st->e1 ? m + 1 : st->e1;
				} else {
					j += 2;
				}
			}
			if (j < st->e1 && (punct(cf_tok(f, j), '=') || ctok_is(cf_tok(f, j), "|=") ||
					   ctok_is(cf_tok(f, j), "+=") || ctok_is(cf_tok(f, j), "++") ||
					   ctok_is(cf_tok(f, j), "--"))) {
				int x = field_index(lk, cf_tok(f, name), 1, name);

				if (x >= 0)
					g |= 1ull << x;
				continue;
			}
			/* the first argument of a setter: memcpy(v.f, ...) */
			if (i >= st->e0 + 2 && punct(cf_tok(f, i - 1), '(') &&
			    field_setter(cf_tok(f, i - 2))) {
				int x = field_index(lk, cf_tok(f, name), 1, name);

				if (x >= 0)
					g |= 1ull << x;
			} else if (i >= st->e0 + 3 && punct(cf_tok(f, i - 1), '&') &&
				   punct(cf_tok(f, i - 2), '(') && field_setter(cf_tok(f, i - 3))) {
				int x = field_index(lk, cf_tok(f, name), 1, name);

				if (x >= 0)
					g |= 1ull << x;
			} else if (i >= st->e0 + 1 && punct(cf_tok(f, i - 1), '&') &&
				   !(i >= st->e0 + 2 && punct(cf_tok(f, i - 2), '(') &&
				     i >= st->e0 + 3 && field_setter(cf_tok(f, i - 3)))) {
				/* &v.f given to a function: it may fill it */
				int x = field_index(lk, cf_tok(f, name), 1, name);

				if (x >= 0 && s != sink)
					g |= 1ull << x;
			}
			continue;
		}
		/* the whole object: "v = ...", "*p = ...", memset(&v, 0, ..),
		 * copy_from_user(&v, ...), or handed to another function */
		if (k < st->e1 && punct(cf_tok(f, k), '=') && !lk->pointer) {
			g |= BIT_ALL;
			continue;
		}
		if (lk->pointer && i > st->e0 && punct(cf_tok(f, i - 1), '*') &&
		    k < st->e1 && punct(cf_tok(f, k), '=')) {
			g |= BIT_ALL;
			continue;
		}
		if (lk->pointer && k < st->e1 && punct(cf_tok(f, k), '=')) {
			g |= BIT_ALL;	/* p set to something else */
			continue;
		}
		if (s == sink)
			continue;
		/* an argument: "&v" or "p" (not "p->f") */
		{
			size_t a = i;

			if (!lk->pointer) {
				if (a == st->e0 || !punct(cf_tok(f, a - 1), '&'))
					continue;
				a--;
			} else if (k < st->e1 && (ctok_is(cf_tok(f, k), "->") ||
						  punct(cf_tok(f, k), '['))) {
				continue;
			}
			if (a > st->e0 && (punct(cf_tok(f, a - 1), '(') || punct(cf_tok(f, a - 1), ',')))
				g |= BIT_ALL;	/* zeroed, filled or given away */
			else if (a > st->e0 && punct(cf_tok(f, a - 1), '='))
				g |= BIT_ALL;	/* its address kept: anything may fill it */
			(void)t;
		}
	}
	return g;
}

/* Must-set fields over the graph from lk->start. */
static int solve(struct leak *lk, int sink)
{
	const struct cfunc *f = lk->f;
	size_t n = f->nst, i, k, rounds = 0;
	int *npred, changed = 1;
	size_t *pred0, *preds;

	lk->gen = calloc(n, sizeof(*lk->gen));
	lk->out = malloc(n * sizeof(*lk->out));
	npred = calloc(n, sizeof(*npred));
	pred0 = calloc(n + 1, sizeof(*pred0));
	preds = malloc((f->nsucc + 1) * sizeof(*preds));
	if (!lk->gen || !lk->out || !npred || !pred0 || !preds) {
		free(npred);
		free(pred0);
		free(preds);
		return -1;
	}
	for (i = 0; i < n; i++) {
		lk->gen[i] = gen_of(lk, (int)i, sink);
		lk->out[i] = ~0ull;
	}
	/* the predecessors, from the successors */
	for (i = 0; i < n; i++)
		for (k = f->succ0[i]; k < f->succ0[i + 1]; k++)
			if (f->succ[k] >= 0)
				npred[f->succ[k]]++;
	for (i = 0; i < n; i++)
		pred0[i + 1] = pred0[i] + (size_t)npred[i];
	memset(npred, 0, n * sizeof(*npred));
	for (i = 0; i < n; i++)
		for (k = f->succ0[i]; k < f->succ0[i + 1]; k++)
			if (f->succ[k] >= 0) {
				int to = f->succ[k];

				preds[pred0[to] + (size_t)npred[to]++] = i;
			}
	lk->out[lk->start] = lk->init | lk->gen[lk->start];
	while (changed && rounds++ < 64) {
		changed = 0;
		for (i = 0; i < n; i++) {
			uint64_t in = ~0ull, o;

			if ((int)i == lk->start)
				continue;
			for (k = pred0[i]; k < pred0[i + 1]; k++)
				in &= lk->out[preds[k]];
			if (pred0[i] == pred0[i + 1])
				in = ~0ull;	/* not reached: no claim */
			o = in | lk->gen[i];
			if (o != lk->out[i]) {
				lk->out[i] = o;
				changed = 1;
			}
		}
	}
	/* what holds on entry to the sink */
	{
		uint64_t in = ~0ull;

		for (k = pred0[sink]; k < pred0[sink + 1]; k++)
			in &= lk->out[preds[k]];
		if (sink == lk->start)
			in = lk->init;
		lk->out[sink] = in;	/* reused: the sink's entry */
	}
	free(npred);
	free(pred0);
	free(preds);
	return 0;
}

/* ---- the definition: fields and padding ---- */

struct member {
	const struct ctok *name;
	size_t size, align;
	int known;
};

static int scalar_size(const struct ctok *t, size_t *size)
{
	static const struct {
		const char *name;
		size_t size;
	} s[] = {
		{ "u8", 1 }, { "s8", 1 }, { "__u8", 1 }, { "__s8", 1 }, { "char", 1 },
		{ "bool", 1 }, { "u16", 2 }, { "s16", 2 }, { "__u16", 2 }, { "__s16", 2 },
		{ "__le16", 2 }, { "__be16", 2 }, { "short", 2 }, { "u32", 4 },
		{ "s32", 4 }, { "__u32", 4 }, { "__s32", 4 }, { "__le32", 4 },
		{ "__be32", 4 }, { "int", 4 }, { "float", 4 }, { "u64", 8 },
		{ "s64", 8 }, { "__u64", 8 }, { "__s64", 8 }, { "__le64", 8 },
		{ "__be64", 8 }, { "double", 8 }, { "size_t", 8 }, { "ssize_t", 8 },
		{ "__aligned_u64", 8 }, { "uintptr_t", 8 }, { "__kernel_size_t", 8 },
		{ "loff_t", 8 }, { "dma_addr_t", 8 },
	};
	size_t i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (ctok_is_ident(t, s[i].name)) {
			*size = s[i].size;
			return 1;
		}
	return 0;
}

/*
 * The members of struct definition sd (at most max), with their sizes
 * when every type is known.  Returns the count; *packed when the struct
 * is packed; *ok 0 when some size is unknown (then the names only).
 */
static size_t members(const struct rv_code *c, const struct cv_item *sd,
		      struct member *m, size_t max, int *packed, int *ok, int depth)
{
	const struct cview *v = c->nv;
	const struct ctok *t = v->tb.t;
	size_t i = sd->in0, n = 0, end = sd->in1, k;

	*ok = 1;
	*packed = 0;
	if (sd->tail_missing || sd->head_missing) {
		*ok = 0;
		return 0;
	}
	/* "} __packed;" or "} __attribute__((packed));" */
	for (k = end + 1; k < cview_frag_end(v, sd->frag) && !punct(&t[k], ';'); k++)
		if (ctok_is_ident(&t[k], "__packed") || ctok_is_ident(&t[k], "packed"))
			*packed = 1;
	while (i < end && n < max) {
		size_t a = i, name = SIZE_MAX, size = 0, elem = 0, ptr = 0, dims = 1;
		int known = 1, is_struct = 0;

		memset(&m[n], 0, sizeof(m[n]));
		m[n].align = 1;
		while (i < end && !punct(&t[i], ';')) {
			if (punct(&t[i], '{')) {
				/* a nested struct or union: its size is not worked out */
				size_t mm = ctok_match(t, i, end);

				known = 0;
				i = mm < end ? mm : end;
			}
			i++;
		}
		/* [a, i) is one member: type, '*'s, name, dims, bit-field */
		for (k = a; k < i; k++) {
			if (punct(&t[k], ':'))
				known = 0;	/* a bit-field */
			if (punct(&t[k], '*'))
				ptr = 1;
			if (t[k].kind == CTK_IDENT && (k + 1 == i || punct(&t[k + 1], '[') ||
						       punct(&t[k + 1], ':')) &&
			    name == SIZE_MAX)
				name = k;
			if (ctok_is_ident(&t[k], "struct") || ctok_is_ident(&t[k], "union"))
				is_struct = 1;
		}
		if (name == SIZE_MAX) {
			i++;
			continue;
		}
		if (ptr) {
			elem = 8;
		} else if (is_struct) {
			const struct cv_item *inner = NULL;

			for (k = a; k + 1 < name; k++)
				if (ctok_is_ident(&t[k], "struct") || ctok_is_ident(&t[k], "union"))
					inner = depth < 4 ? rv_code_struct(c, &t[k + 1]) : NULL;
			if (inner) {
				struct member sub[64];
				int p2, ok2;
				size_t ns = members(c, inner, sub, 64, &p2, &ok2, depth + 1), q, off = 0,
				       al = 1;

				if (!ok2 || p2)
					known = 0;
				for (q = 0; q < ns && known; q++) {
					if (off % sub[q].align)
						off += sub[q].align - off % sub[q].align;
					off += sub[q].size;
					if (sub[q].align > al)
						al = sub[q].align;
				}
				if (off % al)
					off += al - off % al;
				elem = off;
				m[n].align = al;
			} else {
				known = 0;
			}
		} else {
			for (k = a; k < name; k++)
				if (scalar_size(&t[k], &elem))
					break;
			if (ctok_is_ident(&t[a], "enum"))
				elem = 4;
			for (k = a; k < name; k++)
				if (ctok_is_ident(&t[k], "long") && k + 1 < name &&
				    ctok_is_ident(&t[k + 1], "long"))
					elem = 8;
				else if (ctok_is_ident(&t[k], "long") && !elem)
					elem = 8;
			if (!elem)
				known = 0;
		}
		/* array dimensions */
		for (k = name + 1; k < i; k++)
			if (punct(&t[k], '[')) {
				size_t mm = ctok_match(t, k, i);

				if (mm == k + 1) {
					dims = 0;	/* a flexible array */
				} else if (mm == k + 2 && t[k + 1].kind == CTK_NUMBER) {
					dims *= (size_t)strtoul(t[k + 1].s, NULL, 0);
				} else if (mm == k + 2 && t[k + 1].kind == CTK_IDENT) {
					long val = rv_code_define(c, &t[k + 1]);

					if (val > 0)
						dims *= (size_t)val;
					else
						known = 0;
				} else {
					known = 0;
				}
				k = mm < i ? mm : i;
			}
		m[n].name = &t[name];
		m[n].known = known;
		size = elem * dims;
		m[n].size = size;
		if (!is_struct || ptr)
			m[n].align = elem ? elem : 1;
		if (!known)
			*ok = 0;
		n++;
		i++;
	}
	return n;
}

/* The first hole of a struct: the member it follows ("" for the start,
 * NULL for the tail) and its bytes; 0 when there is none. */
static size_t first_hole(const struct member *m, size_t n, const struct ctok **after)
{
	size_t off = 0, al = 1, i;

	for (i = 0; i < n; i++) {
		size_t a = m[i].align ? m[i].align : 1;

		if (off % a) {
			*after = i ? m[i - 1].name : NULL;
			return a - off % a;
		}
		off += m[i].size;
		if (a > al)
			al = a;
	}
	if (n && off % al) {
		*after = m[n - 1].name;
		return al - off % al;
	}
	return 0;
}

/* ---- the rule ---- */

static const struct {
	const char *fn;
	int arg;		/* the object copied out */
	const char *where;
} sinks[] = {
	{ "copy_to_user", 1, "copied to user space" },
	{ "__copy_to_user", 1, "copied to user space" },
	{ "copy_to_sockptr", 1, "copied to user space" },
	{ "copy_to_iter", 0, "copied to user space" },
	{ "simple_read_from_buffer", 3, "copied to user space" },
	{ "nla_put", 3, "put in a netlink message" },
};

static void tok_text(const struct ctok *t, char *buf, size_t cap)
{
	size_t n = t->len < cap - 1 ? t->len : cap - 1;

	memcpy(buf, t->s, n);
	buf[n] = '\0';
}

static void check_sink(struct eng *e, const struct rv_code *c, const struct cfunc *f,
		       int s, size_t call, const char *where, size_t a, size_t b)
{
	struct leak lk;
	int v, pointer = 0, start = -1, zeroed = 0, designated = 0;
	const struct cvar *cv;
	size_t i;
	uint64_t init = 0, have;
	char vn[64], tag[64];

	memset(&lk, 0, sizeof(lk));
	if (a < b && punct(cf_tok(f, a), '&') && b == a + 2 && cf_tok(f, a + 1)->kind == CTK_IDENT) {
		v = cfunc_var(f, cf_tok(f, a + 1), s);
		if (v < 0 || f->vars[v].ptr || f->vars[v].ndims || !(f->vars[v].flags & CVV_STRUCT) ||
		    (f->vars[v].flags & (CVV_PARAM | CVV_STATIC)))
			return;
		start = f->vars[v].stmt;
		cv = &f->vars[v];
		if (cv->init0 != SIZE_MAX) {
			/* "= {}", "= { 0 }": zeroed; "= { .a = x }": fields set */
			if (punct(cf_tok(f, cv->init0), '{')) {
				if (cv->init1 == cv->init0 + 2 ||
				    (cv->init1 == cv->init0 + 3 && ctok_is(cf_tok(f, cv->init0 + 1), "0")))
					zeroed = 1;
				else
					designated = 1;
			} else {
				zeroed = 1;	/* "= other": copied whole */
			}
		}
	} else if (b == a + 1 && cf_tok(f, a)->kind == CTK_IDENT) {
		/* p = kmalloc(sizeof(*p), ...) earlier in the function */
		int zero = 0;

		v = cfunc_var(f, cf_tok(f, a), s);
		if (v < 0 || f->vars[v].ptr != 1 || !(f->vars[v].flags & CVV_STRUCT) ||
		    (f->vars[v].flags & CVV_PARAM))
			return;
		for (i = 0; i < f->nst && (int)i < s; i++) {
			const struct cstmt *st = &f->st[i];
			size_t k;

			if (st->kind != CS_EXPR && st->kind != CS_DECL)
				continue;
			for (k = st->e0; k + 2 < st->e1; k++)
				if (ctok_same(cf_tok(f, k), cf_tok(f, f->vars[v].name)) &&
				    punct(cf_tok(f, k + 1), '=') && alloc_fn(cf_tok(f, k + 2), &zero)) {
					start = (int)i;
					zeroed = zero;
				}
		}
		if (start < 0)
			return;
		pointer = 1;
	} else {
		return;
	}
	if (zeroed || start < 0)
		return;
	cv = &f->vars[v];
	lk.e = e;
	lk.c = c;
	lk.f = f;
	lk.var = v;
	lk.pointer = pointer;
	lk.start = start;
	lk.designated = designated;
	if (designated) {
		for (i = cv->init0; i + 2 < cv->init1; i++)
			if (ctok_is(cf_tok(f, i), ".") && cf_tok(f, i + 1)->kind == CTK_IDENT &&
			    punct(cf_tok(f, i + 2), '=')) {
				int x = field_index(&lk, cf_tok(f, i + 1), 1, i + 1);

				if (x >= 0)
					init |= 1ull << x;
			}
	}
	lk.init = init;
	if (solve(&lk, s)) {
		free(lk.gen);
		free(lk.out);
		return;
	}
	have = lk.out[s];
	free(lk.gen);
	free(lk.out);
	if (have & BIT_ALL)
		return;
	/* the patch's doing: the sink, the declaration or a write changed */
	if (!cf_changed(f, f->st[s].t0, f->st[s].t1) &&
	    !cf_changed(f, f->st[start].t0, f->st[start].t1))
		return;
	tok_text(cf_tok(f, cv->name), vn, sizeof(vn));
	if (cv->tag != SIZE_MAX)
		tok_text(cf_tok(f, cv->tag), tag, sizeof(tag));
	else
		snprintf(tag, sizeof(tag), "?");
	{
		const struct cv_item *sd = cv->tag != SIZE_MAX ? rv_code_struct(c, cf_tok(f, cv->tag)) : NULL;
		struct member m[LEAK_MAX_FIELDS];
		int packed = 0, ok = 0;
		size_t nm = sd ? members(c, sd, m, LEAK_MAX_FIELDS, &packed, &ok, 0) : 0;
		char unset[256];
		size_t nun = 0, un = 0;

		unset[0] = '\0';
		if (sd && nm) {
			/* the definition is in the patch: its fields */
			for (i = 0; i < nm; i++) {
				int x = field_index(&lk, m[i].name, 0, 0);

				if ((x >= 0 && (have & (1ull << x))) || (designated && x < 0))
					continue;
				if (nun < 4) {
					char fn[64];

					tok_text(m[i].name, fn, sizeof(fn));
					snprintf(unset + un, sizeof(unset) - un, "%s'%s'", nun ? ", " : "", fn);
					un = strlen(unset);
				}
				nun++;
			}
			if (nun) {
				rv_report_tok(e, SEV_WARNING, R_STRUCT_INFO_LEAK, f->v, call,
					      eng_printf(e, "struct %s %s is %s with %s%s never set on some path (and nothing zeroed it): those bytes are whatever the %s held before, a kernel memory leak; clear it first with memset(%s%s, 0, sizeof(%s%s)) or %s",
							 tag, vn, where, unset, nun > 4 ? " and more" : "",
							 pointer ? "allocation" : "stack", pointer ? "" : "&", vn,
							 pointer ? "*" : "", vn, pointer ? "allocate it with kzalloc()" : "'= {}'"));
				return;
			}
			if (ok && !packed) {
				const struct ctok *after = NULL;
				size_t hole = first_hole(m, nm, &after);

				if (hole) {
					char an[64];

					if (after)
						tok_text(after, an, sizeof(an));
					rv_report_tok(e, SEV_WARNING, R_STRUCT_INFO_LEAK, f->v, call,
						      eng_printf(e, "struct %s %s is %s without being zeroed, and it has %zu bytes of padding %s%s%s that no field assignment writes: they leak %s memory; clear it first with memset(%s%s, 0, sizeof(%s%s)) or %s",
								 tag, vn, where, hole, after ? "after '" : "at its start",
								 after ? an : "", after ? "'" : "",
								 pointer ? "heap" : "stack", pointer ? "" : "&", vn,
								 pointer ? "*" : "", vn, pointer ? "allocate it with kzalloc()" : "'= {}'"));
				}
			}
			return;
		}
		/* no definition: a field set on one path but not another */
		for (i = 0; i < lk.nfields; i++) {
			if (have & (1ull << i))
				continue;
			if (nun < 4) {
				char fn[64];

				tok_text(lk.field[i], fn, sizeof(fn));
				snprintf(unset + un, sizeof(unset) - un, "%s'%s'", nun ? ", " : "", fn);
				un = strlen(unset);
			}
			nun++;
		}
		if (nun) {
			rv_report_tok(e, SEV_WARNING, R_STRUCT_INFO_LEAK, f->v, call,
				      eng_printf(e, "struct %s %s is %s, but on some path %s%s %s not set (and nothing zeroed it): those bytes leak kernel memory; clear it first with memset(%s%s, 0, sizeof(%s%s)) or %s",
						 tag, vn, where, unset, nun > 4 ? " and more" : "",
						 nun > 1 ? "are" : "is", pointer ? "" : "&", vn,
						 pointer ? "*" : "", vn, pointer ? "allocate it with kzalloc()" : "'= {}'"));
			return;
		}
		if (!lk.nfields && !designated) {
			rv_report_tok(e, SEV_WARNING, R_STRUCT_INFO_LEAK, f->v, call,
				      eng_printf(e, "struct %s %s is %s but nothing in this function ever writes it: all of it is uninitialised %s memory", tag, vn, where,
						 pointer ? "heap" : "stack"));
			return;
		}
		rv_report_tok(e, SEV_WARNING, R_STRUCT_LEAK_CHECK, f->v, call,
			      eng_printf(e, "question: struct %s %s is %s without being zeroed first: check that every field of struct %s and its padding are written, or clear it with memset(%s%s, 0, sizeof(%s%s)) or %s",
					 tag, vn, where, tag, pointer ? "" : "&", vn, pointer ? "*" : "", vn,
					 pointer ? "allocate it with kzalloc()" : "'= {}'"));
	}
}

static void leak_function(struct eng *e, const struct rv_code *c, const struct cfunc *f)
{
	size_t s;
	int starts = 0;

	if (f->nst > RV_PATH_MAX_STMTS)
		return;
	for (s = 0; s < f->nst && starts < RV_PATH_MAX_STARTS; s++) {
		const struct cstmt *st = &f->st[s];
		size_t i, k;

		if (st->kind == CS_BLOCK)
			continue;
		for (i = st->e0; i + 1 < st->e1; i++) {
			const struct ctok *t = cf_tok(f, i);

			if (t->kind != CTK_IDENT || !punct(cf_tok(f, i + 1), '('))
				continue;
			for (k = 0; k < sizeof(sinks) / sizeof(sinks[0]); k++) {
				size_t aa[CFUNC_MAX_ARGS], bb[CFUNC_MAX_ARGS], n;

				if (!ctok_is(t, sinks[k].fn))
					continue;
				n = cf_args(f, i + 1, st->e1, aa, bb, CFUNC_MAX_ARGS, NULL);
				if ((size_t)sinks[k].arg < n) {
					starts++;
					check_sink(e, c, f, (int)s, i, sinks[k].where,
						   aa[sinks[k].arg], bb[sinks[k].arg]);
				}
				break;
			}
		}
	}
}

void rv_leak_final(struct eng *e)
{
	struct rv_code *c = (struct rv_code *)rv_code_get(e);
	size_t i, n = rv_code_funcs(e, c);

	for (i = 0; i < n; i++)
		leak_function(e, c, &c->funcs[i]);
}

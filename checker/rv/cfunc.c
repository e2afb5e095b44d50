// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfunc: the statements, variables and control-flow graph of one
 * function (cfunc.h).  The grammar is C11's statements (6.8) and
 * declarations (6.7) as far as a reviewer needs them; macros are read
 * the way kernel code uses them: IDENT(...) before a statement is a loop
 * (list_for_each_entry, for_each_*, scoped_guard), IDENT(...)(...); and
 * IDENT(...); are expression statements (guard(mutex)(&m), CLASS(fd, f)(n)).
 */
#include "cfunc.h"

#include <stdlib.h>
#include <string.h>

#include "../banned.h"

static int punct(const struct ctok *t, char c)
{
	return t->kind == CTK_PUNCT && t->len == 1 && t->s[0] == c;
}

static int add_stmt(struct cfunc *f, enum cs_kind kind, size_t t0, int parent,
		    int depth)
{
	struct cstmt *s;

	if (f->nst >= CFUNC_MAX_STMTS) {
		f->err = 1;
		return -1;
	}
	if (f->nst == f->st_alloc) {
		size_t na = f->st_alloc ? f->st_alloc * 2 : 64;
		struct cstmt *ns = realloc(f->st, na * sizeof(*ns));

		if (!ns) {
			f->err = 1;
			return -1;
		}
		f->st = ns;
		f->st_alloc = na;
	}
	s = &f->st[f->nst];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->t0 = s->t1 = t0;
	s->e0 = s->e1 = t0;
	s->parent = parent;
	s->a = s->b = s->next = -1;
	s->depth = depth;
	return (int)f->nst++;
}

static struct cvar *add_var(struct cfunc *f)
{
	struct cvar *v;

	if (f->nvars >= CFUNC_MAX_VARS) {
		f->err = 1;
		return NULL;
	}
	if (f->nvars == f->var_alloc) {
		size_t na = f->var_alloc ? f->var_alloc * 2 : 32;
		struct cvar *nv = realloc(f->vars, na * sizeof(*nv));

		if (!nv) {
			f->err = 1;
			return NULL;
		}
		f->vars = nv;
		f->var_alloc = na;
	}
	v = &f->vars[f->nvars++];
	memset(v, 0, sizeof(*v));
	v->tag = v->init0 = v->init1 = SIZE_MAX;
	v->dim0 = v->dim1 = SIZE_MAX;
	v->stmt = -1;
	return v;
}

/* ---- declarations ---- */

static int is_qualifier(const struct ctok *t)
{
	static const char *const q[] = {
		"static", "const", "volatile", "register", "extern", "inline",
		"__maybe_unused", "__always_unused", "__user", "__iomem",
		"__rcu", "__percpu", "__force", "__must_check", "unsigned",
		"signed", "__read_mostly", "__initdata", "__initconst",
		"__ro_after_init", "restrict", "__restrict", "_Thread_local",
		"__le16", NULL,
	};
	size_t i;

	if (t->kind != CTK_IDENT)
		return 0;
	for (i = 0; q[i]; i++)
		if (ctok_is(t, q[i]) && strcmp(q[i], "__le16"))
			return 1;
	return 0;
}

static int is_base_type(const struct ctok *t)
{
	static const char *const b[] = {
		"void", "char", "short", "int", "long", "float", "double",
		"bool", "_Bool", "size_t", "ssize_t", "loff_t", "u8", "u16",
		"u32", "u64", "s8", "s16", "s32", "s64", "__u8", "__u16",
		"__u32", "__u64", "__s8", "__s16", "__s32", "__s64", "__le16",
		"__le32", "__le64", "__be16", "__be32", "__be64", "uintptr_t",
		"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
		"uint16_t", "uint32_t", "uint64_t", "dma_addr_t",
		"phys_addr_t", "resource_size_t", "gfp_t", "umode_t", "pid_t",
		"uid_t", "gid_t", "kuid_t", "kgid_t", "atomic_t", "atomic64_t",
		"spinlock_t", "raw_spinlock_t", "irqreturn_t", "ktime_t",
		"time64_t", "sector_t", "off_t", "__poll_t", "vm_fault_t",
		"blk_status_t", "netdev_tx_t", "fmode_t", "dev_t", "__wsum",
		"__sum16", "refcount_t", "wait_queue_head_t", "cpumask_t",
		"nodemask_t", "__aligned_u64", "__kernel_size_t", "ulong",
		"uint", "ushort", "unchar", "bitmap", NULL,
	};
	size_t i;

	if (t->kind != CTK_IDENT)
		return 0;
	for (i = 0; b[i]; i++)
		if (ctok_is(t, b[i]))
			return 1;
	/* typedef names by convention: foo_t */
	return t->len > 2 && t->s[t->len - 2] == '_' && t->s[t->len - 1] == 't';
}

/*
 * Whether the statement at i starts with a declaration: qualifiers, a
 * base type, "struct X", or "IDENT IDENT" / "IDENT *IDENT" followed by a
 * declarator's end.
 */
static int decl_start(const struct cfunc *f, size_t i, size_t end)
{
	const struct ctok *t = f->v->tb.t;
	size_t k = i;

	if (t[i].kind != CTK_IDENT || ctok_keyword(&t[i]))
		return 0;
	while (k < end && is_qualifier(&t[k]))
		k++;
	if (k >= end)
		return 0;
	if (ctok_is_ident(&t[k], "struct") || ctok_is_ident(&t[k], "union") ||
	    ctok_is_ident(&t[k], "enum"))
		return 1;
	if (k > i && t[k].kind == CTK_IDENT)
		return 1;	/* "static foo", "const bar", "unsigned x" */
	if (is_base_type(&t[k]) && k + 1 < end &&
	    (t[k + 1].kind == CTK_IDENT || punct(&t[k + 1], '*') ||
	     punct(&t[k + 1], '(')))
		return !punct(&t[k + 1], '(') || (k + 2 < end && punct(&t[k + 2], '*'));
	if (t[k].kind != CTK_IDENT || k + 1 >= end)
		return 0;
	/* "foo bar" then ';', '=', ',', '[' or an attribute */
	if (t[k + 1].kind == CTK_IDENT && !ctok_keyword(&t[k + 1]))
		return 1;
	/* "foo *bar" then ';', '=', ',', '[' */
	if (punct(&t[k + 1], '*')) {
		size_t j = k + 1;

		while (j < end && (punct(&t[j], '*') || ctok_is_ident(&t[j], "const")))
			j++;
		return j + 1 < end && t[j].kind == CTK_IDENT &&
		       (punct(&t[j + 1], ';') || punct(&t[j + 1], '=') ||
			punct(&t[j + 1], ',') || punct(&t[j + 1], '[') ||
			(t[j + 1].kind == CTK_IDENT && t[j + 1].s[0] == '_'));
	}
	return 0;
}

/* Skips one bracketed group at i (or one token); the next index. */
static size_t skip1(const struct cfunc *f, size_t i, size_t end)
{
	const struct ctok *t = f->v->tb.t;

	if (punct(&t[i], '(') || punct(&t[i], '[') || punct(&t[i], '{')) {
		size_t m = ctok_match(t, i, end);

		return m >= end ? end : m + 1;
	}
	return i + 1;
}

/* A local named by token NAME, declared by statement STMT. */
static struct cvar *add_local(struct cfunc *f, size_t name, size_t type0, size_t type1,
			      size_t tag, int ptr, int stmt, unsigned flags)
{
	struct cvar *v = add_var(f);

	if (!v)
		return NULL;
	v->name = name;
	v->type0 = type0;
	v->type1 = type1;
	v->tag = tag;
	v->ptr = ptr;
	v->stmt = stmt;
	v->flags = flags;
	return v;
}

/*
 * The variables one declaration [a, b) declares (b at its ';').  The type
 * is what comes before the first declarator: qualifiers, then "struct
 * TAG", a run of base-type words, or one name, then qualifiers.
 */
static void parse_decl(struct cfunc *f, size_t a, size_t b, int stmt,
		       unsigned flags)
{
	const struct ctok *t = f->v->tb.t;
	size_t i = a, type0, type1, tag = SIZE_MAX;
	unsigned tflags = flags;

	while (i < b && (is_qualifier(&t[i]) ||
			 (t[i].kind == CTK_IDENT && i + 1 < b && punct(&t[i + 1], '(') &&
			  (ctok_ident_prefix(&t[i], "__attribute") ||
			   ctok_ident_prefix(&t[i], "__aligned"))))) {
		if (ctok_is_ident(&t[i], "__user"))
			tflags |= CVV_USER;
		if (ctok_is_ident(&t[i], "static"))
			tflags |= CVV_STATIC;
		if (ctok_is_ident(&t[i], "const"))
			tflags |= CVV_CONST;
		i = t[i].kind == CTK_IDENT && i + 1 < b && punct(&t[i + 1], '(') &&
		    !is_qualifier(&t[i]) ? skip1(f, i + 1, b) : i + 1;
	}
	type0 = i;
	if (i < b && (ctok_is_ident(&t[i], "struct") || ctok_is_ident(&t[i], "union") ||
		      ctok_is_ident(&t[i], "enum"))) {
		if (!ctok_is_ident(&t[i], "enum"))
			tflags |= CVV_STRUCT;
		i++;
		if (i < b && t[i].kind == CTK_IDENT) {
			tag = i;
			i++;
		}
		if (i < b && punct(&t[i], '{'))
			i = skip1(f, i, b);
	} else if (i < b && is_base_type(&t[i])) {
		while (i < b && (is_base_type(&t[i]) || ctok_is_ident(&t[i], "unsigned") ||
				 ctok_is_ident(&t[i], "signed")))
			i++;
	} else if (i < b && ctok_is_ident(&t[i], "typeof")) {
		i = i + 1 < b ? skip1(f, i + 1, b) : b;
	} else if (i < b && t[i].kind == CTK_IDENT) {
		i++;
	}
	while (i < b && is_qualifier(&t[i])) {
		if (ctok_is_ident(&t[i], "__user"))
			tflags |= CVV_USER;
		if (ctok_is_ident(&t[i], "const"))
			tflags |= CVV_CONST;
		i++;
	}
	type1 = i;

	while (i < b) {
		struct cvar *v;
		int ptr = 0;
		unsigned vflags = tflags;

		while (i < b && (punct(&t[i], '*') || is_qualifier(&t[i]))) {
			ptr += punct(&t[i], '*');
			if (ctok_is_ident(&t[i], "__user"))
				vflags |= CVV_USER;
			i++;
		}
		/* a function pointer "(*name)(...)" */
		if (i + 2 < b && punct(&t[i], '(') && punct(&t[i + 1], '*')) {
			size_t m = ctok_match(t, i, b);

			i += 2;
			ptr++;
			if (i >= b || t[i].kind != CTK_IDENT)
				return;
			v = add_local(f, i, type0, type1, tag, ptr, stmt, vflags);
			if (!v)
				return;
			i = m < b ? m + 1 : b;
			if (i < b && punct(&t[i], '('))
				i = skip1(f, i, b);
		} else {
			if (i >= b || t[i].kind != CTK_IDENT)
				return;
			v = add_local(f, i, type0, type1, tag, ptr, stmt, vflags);
			if (!v)
				return;
			i++;
		}
		while (i < b && punct(&t[i], '[')) {
			size_t m = ctok_match(t, i, b);

			if (!v->ndims) {
				v->dim0 = i + 1;
				v->dim1 = m < b ? m : b;
			}
			v->ndims++;
			i = m < b ? m + 1 : b;
		}
		/* attributes after the name: __free(kfree), __aligned(8), ... */
		while (i < b && t[i].kind == CTK_IDENT) {
			if (i + 1 < b && punct(&t[i + 1], '('))
				i = skip1(f, i + 1, b);
			else
				i++;
		}
		if (i < b && punct(&t[i], '=')) {
			size_t k = i + 1;

			while (k < b && !punct(&t[k], ','))
				k = skip1(f, k, b);
			v->init0 = i + 1;
			v->init1 = k;
			i = k;
		}
		if (i < b && punct(&t[i], ','))
			i++;
		else
			break;
	}
}

/* A parameter named by token NAME whose type is tokens [type0, type1). */
static struct cvar *add_param(struct cfunc *f, size_t name, size_t type0, size_t type1)
{
	const struct ctok *t = f->v->tb.t;
	struct cvar *v = add_var(f);
	size_t k;

	if (!v)
		return NULL;
	v->name = name;
	v->type0 = type0;
	v->type1 = type1;
	v->stmt = -1;
	v->flags = CVV_PARAM;
	for (k = type0; k < type1; k++) {
		if (punct(&t[k], '*'))
			v->ptr++;
		else if (ctok_is_ident(&t[k], "__user"))
			v->flags |= CVV_USER;
		else if (ctok_is_ident(&t[k], "const"))
			v->flags |= CVV_CONST;
		else if ((ctok_is_ident(&t[k], "struct") ||
			  ctok_is_ident(&t[k], "union")) && k + 1 < type1) {
			v->flags |= CVV_STRUCT;
			v->tag = k + 1;
		}
	}
	return v;
}

/* The parameters of the function (its item's p0..p1). */
static void parse_params(struct cfunc *f)
{
	const struct cv_item *it = f->it;
	const struct ctok *t = f->v->tb.t;
	size_t i, a, end;

	if (it->p0 == SIZE_MAX)
		return;
	end = it->p1 == SIZE_MAX ? f->v->frags[it->frag].code0 : it->p1;
	if (it->p1 == SIZE_MAX && it->head_missing)
		end = f->v->frags[it->frag].code0;
	a = it->p0 + 1;
	/* SYSCALL_DEFINEn(name, type, arg, type, arg...): pairs after the name */
	if (it->name != SIZE_MAX && (ctok_ident_prefix(&t[it->name], "SYSCALL_DEFINE") ||
				     ctok_ident_prefix(&t[it->name], "COMPAT_SYSCALL_DEFINE"))) {
		size_t k, start = a, type0 = SIZE_MAX, type1 = 0, nth = 0;

		for (k = a; k <= end && !f->err; k++) {
			if (k < end && !punct(&t[k], ','))
				continue;
			if (nth > 0 && nth % 2 == 1) {
				type0 = start;
				type1 = k;
			} else if (nth > 0 && k == start + 1 && t[start].kind == CTK_IDENT &&
				   type0 != SIZE_MAX) {
				if (!add_param(f, start, type0, type1))
					return;
			}
			nth++;
			start = k + 1;
		}
		return;
	}
	for (i = a; i <= end && !f->err; i++) {
		if (i < end && !punct(&t[i], ','))  {
			if (punct(&t[i], '(') || punct(&t[i], '[')) {
				size_t m = ctok_match(t, i, end);

				i = m >= end ? end - 1 : m;
			}
			continue;
		}
		/* one parameter [a, i): its name is the last identifier */
		if (i > a && !(i - a == 1 && ctok_is_ident(&t[a], "void")) &&
		    !ctok_is(&t[a], "...")) {
			size_t n = i;
			struct cvar *v;

			while (n > a && t[n - 1].kind != CTK_IDENT)
				n--;
			/* "int a[]": the name is before the brackets */
			if (n == a)
				goto next;
			n--;
			v = add_param(f, n, a, n);
			if (!v)
				return;
			if (n + 1 < i && punct(&t[n + 1], '['))
				v->ptr++;
		}
next:
		a = i + 1;
	}
}

/* ---- statements ---- */

struct parser {
	struct cfunc *f;
	size_t end;
};

static int parse_stmt(struct parser *p, size_t *pos, int parent, int depth);

/* The end of an expression statement or declaration at i: its ';'. */
static size_t stmt_end(const struct parser *p, size_t i)
{
	const struct ctok *t = p->f->v->tb.t;

	while (i < p->end) {
		if (t[i].kind == CTK_GAP)
			return i;
		if (punct(&t[i], ';'))
			return i;
		if (punct(&t[i], '}'))
			return i;	/* a missing ';' before a closing brace */
		i = skip1(p->f, i, p->end);
	}
	return p->end;
}

/* Parses the statements of a block from *pos to its '}' (or the end). */
static int parse_block(struct parser *p, size_t *pos, int s, int depth)
{
	const struct ctok *t = p->f->v->tb.t;
	int last = -1;

	while (*pos < p->end && !punct(&t[*pos], '}') && t[*pos].kind != CTK_GAP &&
	       !p->f->err) {
		int c = parse_stmt(p, pos, s, depth + 1);

		if (c < 0)
			return -1;
		if (last < 0)
			p->f->st[s].a = c;
		else
			p->f->st[last].next = c;
		last = c;
	}
	return 0;
}

/* "(...)" at *pos: the inside as [*e0, *e1), *pos past the ')'. */
static void paren(struct parser *p, size_t *pos, size_t *e0, size_t *e1)
{
	const struct ctok *t = p->f->v->tb.t;

	if (*pos < p->end && punct(&t[*pos], '(')) {
		size_t m = ctok_match(t, *pos, p->end);

		*e0 = *pos + 1;
		*e1 = m;
		*pos = m < p->end ? m + 1 : p->end;
	} else {
		*e0 = *e1 = *pos;
	}
}

/*
 * The statement that is the body of s (an if's branch, a loop's body),
 * when one starts at *pos: into s's a, or b for an else branch (set
 * after the parse, which may move f->st); -1 when memory ran out.
 */
static int body(struct parser *p, size_t *pos, int s, int depth, int else_branch)
{
	const struct ctok *t = p->f->v->tb.t;
	int c;

	if (*pos >= p->end || t[*pos].kind == CTK_GAP || punct(&t[*pos], '}'))
		return 0;
	c = parse_stmt(p, pos, s, depth + 1);
	if (c < 0)
		return -1;
	if (else_branch)
		p->f->st[s].b = c;
	else
		p->f->st[s].a = c;
	return 0;
}

static int parse_stmt(struct parser *p, size_t *pos, int parent, int depth)
{
	struct cfunc *f = p->f;
	const struct ctok *t = f->v->tb.t;
	size_t i = *pos;
	int s;

	if (depth > CFUNC_MAX_DEPTH) {
		f->err = 1;
		*pos = p->end;
		return -1;
	}
	if (punct(&t[i], '{')) {
		s = add_stmt(f, CS_BLOCK, i, parent, depth);
		if (s < 0)
			return -1;
		*pos = i + 1;
		if (parse_block(p, pos, s, depth))
			return -1;
		if (*pos < p->end && punct(&t[*pos], '}'))
			(*pos)++;
		f->st[s].t1 = *pos;
		return s;
	}
	if (t[i].kind == CTK_PP || punct(&t[i], ';')) {
		s = add_stmt(f, CS_EMPTY, i, parent, depth);
		*pos = i + 1;
		if (s >= 0)
			f->st[s].t1 = *pos;
		return s;
	}
	if (t[i].kind == CTK_IDENT) {
		if (ctok_is(&t[i], "if")) {
			s = add_stmt(f, CS_IF, i, parent, depth);
			if (s < 0)
				return -1;
			*pos = i + 1;
			paren(p, pos, &f->st[s].e0, &f->st[s].e1);
			if (body(p, pos, s, depth, 0) < 0)
				return -1;
			if (*pos < p->end && ctok_is_ident(&t[*pos], "else")) {
				(*pos)++;
				if (body(p, pos, s, depth, 1) < 0)
					return -1;
			}
			f->st[s].t1 = *pos;
			return s;
		}
		if (ctok_is(&t[i], "while") || ctok_is(&t[i], "for") ||
		    ctok_is(&t[i], "switch")) {
			enum cs_kind k = ctok_is(&t[i], "while") ? CS_WHILE :
					 ctok_is(&t[i], "for") ? CS_FOR : CS_SWITCH;

			s = add_stmt(f, k, i, parent, depth);
			if (s < 0)
				return -1;
			*pos = i + 1;
			paren(p, pos, &f->st[s].e0, &f->st[s].e1);
			if (body(p, pos, s, depth, 0) < 0)
				return -1;
			f->st[s].t1 = *pos;
			return s;
		}
		if (ctok_is(&t[i], "do")) {
			s = add_stmt(f, CS_DO, i, parent, depth);
			if (s < 0)
				return -1;
			*pos = i + 1;
			if (body(p, pos, s, depth, 0) < 0)
				return -1;
			if (*pos < p->end && ctok_is_ident(&t[*pos], "while")) {
				(*pos)++;
				paren(p, pos, &f->st[s].e0, &f->st[s].e1);
			}
			if (*pos < p->end && punct(&t[*pos], ';'))
				(*pos)++;
			f->st[s].t1 = *pos;
			return s;
		}
		if (ctok_is(&t[i], "case") || ctok_is(&t[i], "default")) {
			size_t k = i + 1;

			/* up to the ':' that is not part of "?:" */
			while (k < p->end && !punct(&t[k], ':') && !punct(&t[k], ';') &&
			       t[k].kind != CTK_GAP)
				k = skip1(f, k, p->end);
			s = add_stmt(f, CS_CASE, i, parent, depth);
			if (s < 0)
				return -1;
			f->st[s].e0 = i + 1;
			f->st[s].e1 = k;
			*pos = k < p->end ? k + 1 : p->end;
			f->st[s].t1 = *pos;
			return s;
		}
		if (ctok_is(&t[i], "return") || ctok_is(&t[i], "goto") ||
		    ctok_is(&t[i], "break") || ctok_is(&t[i], "continue")) {
			enum cs_kind k = ctok_is(&t[i], "return") ? CS_RETURN :
					 ctok_is(&t[i], "goto") ? CS_GOTO :
					 ctok_is(&t[i], "break") ? CS_BREAK : CS_CONTINUE;
			size_t e = stmt_end(p, i + 1);

			s = add_stmt(f, k, i, parent, depth);
			if (s < 0)
				return -1;
			f->st[s].e0 = i + 1;
			f->st[s].e1 = e;
			*pos = e < p->end && punct(&t[e], ';') ? e + 1 : e;
			f->st[s].t1 = *pos;
			return s;
		}
		/* a label "name:" (not "a ? b : c", which has no statement
		 * start before it) */
		if (i + 1 < p->end && punct(&t[i + 1], ':') && !ctok_keyword(&t[i])) {
			s = add_stmt(f, CS_LABEL, i, parent, depth);
			if (s < 0)
				return -1;
			f->st[s].e0 = i;
			f->st[s].e1 = i + 1;
			*pos = i + 2;
			f->st[s].t1 = *pos;
			return s;
		}
		/* IDENT(...) followed by a statement: a loop macro */
		if (i + 1 < p->end && punct(&t[i + 1], '(') && !ctok_keyword(&t[i])) {
			size_t m = ctok_match(t, i + 1, p->end);

			if (m + 1 < p->end && t[m + 1].kind != CTK_GAP &&
			    (punct(&t[m + 1], '{') ||
			     (t[m + 1].kind == CTK_IDENT && !ctok_is(&t[m + 1], "__free") &&
			      cview_line(f->v, m + 1) != cview_line(f->v, m)))) {
				s = add_stmt(f, CS_LOOPMACRO, i, parent, depth);
				if (s < 0)
					return -1;
				f->st[s].e0 = i + 2;
				f->st[s].e1 = m;
				*pos = m + 1;
				{
					int c = parse_stmt(p, pos, s, depth + 1);

					if (c < 0)
						return -1;
					f->st[s].a = c;
				}
				f->st[s].t1 = *pos;
				return s;
			}
		}
	}
	/* an expression statement or a declaration */
	{
		size_t e = stmt_end(p, i);
		int is_decl = decl_start(f, i, e);

		s = add_stmt(f, is_decl ? CS_DECL : CS_EXPR, i, parent, depth);
		if (s < 0)
			return -1;
		f->st[s].e0 = i;
		f->st[s].e1 = e;
		*pos = e < p->end && punct(&t[e], ';') ? e + 1 : e;
		if (*pos == i)
			(*pos)++;	/* a stray token: step over it */
		f->st[s].t1 = *pos;
		if (is_decl)
			parse_decl(f, i, e, s, 0);
		return s;
	}
}

/* ---- the control-flow graph ---- */

static int after(const struct cfunc *f, int s);

/* The first node that runs when statement s is entered. */
static int first_of(const struct cfunc *f, int s)
{
	int guard = 0;

	while (s >= 0 && guard++ < CFUNC_MAX_DEPTH + 2) {
		switch (f->st[s].kind) {
		case CS_BLOCK:
			if (f->st[s].a < 0)
				return after(f, s);
			s = f->st[s].a;
			break;
		case CS_DO:
			if (f->st[s].a < 0)
				return s;
			s = f->st[s].a;
			break;
		default:
			return s;
		}
	}
	return s;
}

/* The statement that runs after s when s completes normally. */
static int after(const struct cfunc *f, int s)
{
	for (;;) {
		int p;

		if (f->st[s].next >= 0)
			return first_of(f, f->st[s].next);
		p = f->st[s].parent;
		if (p < 0)
			return CF_EXIT;
		switch (f->st[p].kind) {
		case CS_WHILE:
		case CS_FOR:
		case CS_LOOPMACRO:
		case CS_DO:
			return p;	/* back to the loop's test */
		default:
			s = p;
		}
	}
}

int cfunc_simple(const struct cfunc *f, int s)
{
	return f->st[s].kind != CS_BLOCK;
}

/* The innermost loop (or, with sw, loop or switch) around s, or -1. */
static int enclosing_loop(const struct cfunc *f, int s, int sw)
{
	int p;

	for (p = f->st[s].parent; p >= 0; p = f->st[p].parent) {
		enum cs_kind k = f->st[p].kind;

		if (k == CS_WHILE || k == CS_FOR || k == CS_DO || k == CS_LOOPMACRO ||
		    (sw && k == CS_SWITCH))
			return p;
	}
	return -1;
}

/* The label statement named by token t, or -1. */
static int find_label(const struct cfunc *f, const struct ctok *t)
{
	size_t i;

	for (i = 0; i < f->nst; i++)
		if (f->st[i].kind == CS_LABEL && ctok_same(cf_tok(f, f->st[i].e0), t))
			return (int)i;
	return -1;
}

static int add_succ(struct cfunc *f, int to)
{
	if (f->nsucc == f->succ_alloc) {
		size_t na = f->succ_alloc ? f->succ_alloc * 2 : 128;
		int *ns;

		if (na > 8u * CFUNC_MAX_STMTS) {
			f->err = 1;
			return -1;
		}
		ns = realloc(f->succ, na * sizeof(*ns));
		if (!ns) {
			f->err = 1;
			return -1;
		}
		f->succ = ns;
		f->succ_alloc = na;
	}
	f->succ[f->nsucc++] = to;
	return 0;
}

/* The case labels of switch sw (those whose nearest switch is sw). */
static int add_cases(struct cfunc *f, int sw, int *has_default)
{
	size_t i;

	for (i = (size_t)sw + 1; i < f->nst && f->st[i].t0 < f->st[sw].t1; i++) {
		int p;

		if (f->st[i].kind != CS_CASE)
			continue;
		for (p = f->st[i].parent; p >= 0 && f->st[p].kind != CS_SWITCH;
		     p = f->st[p].parent)
			;
		if (p != sw)
			continue;
		if (ctok_is_ident(cf_tok(f, f->st[i].t0), "default"))
			*has_default = 1;
		if (add_succ(f, (int)i))
			return -1;
	}
	return 0;
}

static int build_cfg(struct cfunc *f)
{
	size_t i;

	f->succ0 = calloc(f->nst + 1, sizeof(*f->succ0));
	if (!f->succ0) {
		f->err = 1;
		return -1;
	}
	for (i = 0; i < f->nst; i++) {
		const struct cstmt *s = &f->st[i];
		int x = (int)i, has_default = 0;

		f->succ0[i] = f->nsucc;
		switch (s->kind) {
		case CS_BLOCK:
			break;
		case CS_IF:
			if (add_succ(f, s->a >= 0 ? first_of(f, s->a) : after(f, x)) ||
			    add_succ(f, s->b >= 0 ? first_of(f, s->b) : after(f, x)))
				return -1;
			break;
		case CS_WHILE:
		case CS_FOR:
		case CS_LOOPMACRO:
		case CS_DO:
			if ((s->a >= 0 && add_succ(f, first_of(f, s->a))) ||
			    add_succ(f, after(f, x)))
				return -1;
			break;
		case CS_SWITCH:
			if (add_cases(f, x, &has_default) ||
			    (!has_default && add_succ(f, after(f, x))))
				return -1;
			break;
		case CS_RETURN:
			if (add_succ(f, CF_EXIT))
				return -1;
			break;
		case CS_GOTO: {
			int l = s->e0 < s->e1 ? find_label(f, cf_tok(f, s->e0)) : -1;

			if (add_succ(f, l >= 0 ? l : CF_EXIT))
				return -1;
			break;
		}
		case CS_BREAK: {
			int l = enclosing_loop(f, x, 1);

			if (add_succ(f, l >= 0 ? after(f, l) : CF_EXIT))
				return -1;
			break;
		}
		case CS_CONTINUE: {
			int l = enclosing_loop(f, x, 0);

			if (add_succ(f, l >= 0 ? l : CF_EXIT))
				return -1;
			break;
		}
		default:
			if (add_succ(f, after(f, x)))
				return -1;
		}
	}
	f->succ0[f->nst] = f->nsucc;
	return 0;
}

int cfunc_build(struct cfunc *f, const struct cview *v, const struct cv_item *it)
{
	struct parser p;
	size_t pos;
	int root;

	memset(f, 0, sizeof(*f));
	f->v = v;
	f->it = it;
	f->entry = CF_EXIT;
	f->partial = it->head_missing || it->tail_missing;
	parse_params(f);
	p.f = f;
	p.end = it->in1;
	root = add_stmt(f, CS_BLOCK, it->in0, -1, 0);
	if (root < 0)
		return -1;
	pos = it->in0;
	/* a body that starts above the hunk may close blocks it did not
	 * open: each such '}' is stepped over, its statements kept flat */
	{
		int last = -1;

		while (pos < p.end && !f->err) {
			const struct ctok *t = &v->tb.t[pos];
			int c;

			if (t->kind == CTK_GAP)
				break;
			if (punct(t, '}')) {
				pos++;
				continue;
			}
			c = parse_stmt(&p, &pos, root, 1);
			if (c < 0)
				break;
			if (last < 0)
				f->st[root].a = c;
			else
				f->st[last].next = c;
			last = c;
		}
	}
	f->st[root].t1 = p.end;
	if (build_cfg(f))
		return -1;
	f->entry = first_of(f, root);
	return f->err ? -1 : 0;
}

void cfunc_release(struct cfunc *f)
{
	free(f->st);
	free(f->vars);
	free(f->succ);
	free(f->succ0);
	memset(f, 0, sizeof(*f));
}

/* ---- questions ---- */

int cfunc_stmt_at(const struct cfunc *f, size_t tok)
{
	int best = -1;
	size_t i;

	for (i = 0; i < f->nst; i++)
		if (f->st[i].kind != CS_BLOCK && f->st[i].t0 <= tok && tok < f->st[i].t1)
			best = (int)i;	/* later ones are nested deeper */
	return best;
}

int cfunc_inside(const struct cfunc *f, int s, int anc)
{
	while (s >= 0) {
		if (s == anc)
			return 1;
		s = f->st[s].parent;
	}
	return 0;
}

int cfunc_var(const struct cfunc *f, const struct ctok *t, int s)
{
	size_t i;
	int best = -1;

	for (i = 0; i < f->nvars; i++) {
		const struct cvar *v = &f->vars[i];

		if (!ctok_same(cf_tok(f, v->name), t))
			continue;
		if (v->stmt < 0) {
			if (best < 0)
				best = (int)i;
			continue;
		}
		/* a local: declared before s, in a block around s */
		if (s >= 0 && f->st[v->stmt].t0 <= f->st[s].t0 &&
		    (f->st[v->stmt].parent < 0 || cfunc_inside(f, s, f->st[v->stmt].parent)))
			best = (int)i;
		else if (s < 0)
			best = (int)i;
	}
	return best;
}

int cfunc_param(const struct cfunc *f, const char *w)
{
	size_t i;

	for (i = 0; i < f->nvars; i++)
		if ((f->vars[i].flags & CVV_PARAM) && ctok_is(cf_tok(f, f->vars[i].name), w))
			return (int)i;
	return -1;
}

int cfunc_param_n(const struct cfunc *f, int n)
{
	size_t i;

	for (i = 0; i < f->nvars; i++)
		if (f->vars[i].flags & CVV_PARAM) {
			if (n-- == 0)
				return (int)i;
		}
	return -1;
}

int cfunc_exits(const struct cfunc *f, int s)
{
	const struct cstmt *st;
	int c, last = -1;

	if (s < 0)
		return 0;
	st = &f->st[s];
	switch (st->kind) {
	case CS_RETURN:
	case CS_GOTO:
	case CS_BREAK:
	case CS_CONTINUE:
		return 1;
	case CS_BLOCK:
		for (c = st->a; c >= 0; c = f->st[c].next)
			last = c;
		return cfunc_exits(f, last);
	case CS_IF:
		return st->b >= 0 && cfunc_exits(f, st->a) && cfunc_exits(f, st->b);
	case CS_EXPR: {
		/* calls that do not return */
		const struct ctok *t = cf_tok(f, st->e0);

		return st->e0 < st->e1 && t->kind == CTK_IDENT &&
		       (ctok_is(t, "BUG") || ctok_is(t, "panic") ||
			ctok_is(t, "do_exit") || ctok_is(t, "kthread_exit"));
	}
	default:
		return 0;
	}
}

int cfunc_walk_edges(const struct cfunc *f, int from,
		     int (*visit)(const struct cfunc *f, int s, void *arg),
		     int (*follow)(const struct cfunc *f, int s, size_t which, void *arg),
		     void *arg)
{
	unsigned char *seen;
	int *stack;
	size_t sp = 0, k;
	int ret = 0;

	if (from < 0 || !f->succ0)
		return 0;
	seen = calloc(f->nst ? f->nst : 1, 1);
	stack = malloc((f->nst + 1) * sizeof(*stack));
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return 0;
	}
	for (k = f->succ0[from]; k < f->succ0[from + 1]; k++) {
		int n = f->succ[k];

		if (n >= 0 && !seen[n] &&
		    (!follow || follow(f, from, k - f->succ0[from], arg))) {
			seen[n] = 1;
			stack[sp++] = n;
		}
	}
	while (sp) {
		int s = stack[--sp], r = visit(f, s, arg);

		if (r == 2) {
			ret = 2;
			break;
		}
		if (r == 1)
			continue;
		for (k = f->succ0[s]; k < f->succ0[s + 1]; k++) {
			int n = f->succ[k];

			if (n >= 0 && !seen[n] &&
			    (!follow || follow(f, s, k - f->succ0[s], arg))) {
				seen[n] = 1;
				stack[sp++] = n;
			}
		}
	}
	free(seen);
	free(stack);
	return ret;
}

int cfunc_walk(const struct cfunc *f, int from,
	       int (*visit)(const struct cfunc *f, int s, void *arg), void *arg)
{
	return cfunc_walk_edges(f, from, visit, NULL, arg);
}

static int visit_find(const struct cfunc *f, int s, void *arg)
{
	(void)f;
	return s == *(int *)arg ? 2 : 0;
}

int cfunc_reaches(const struct cfunc *f, int a, int b)
{
	return cfunc_walk(f, a, visit_find, &b) == 2;
}

int cfunc_guards(const struct cfunc *f, int s,
		 int (*cb)(const struct cfunc *f, size_t c0, size_t c1,
			   int sense, void *arg), void *arg)
{
	int c = s, r;

	while (c >= 0) {
		int p = f->st[c].parent, q;

		if (p >= 0) {
			const struct cstmt *ps = &f->st[p];

			if (ps->kind == CS_IF && ps->a == c &&
			    (r = cb(f, ps->e0, ps->e1, 1, arg)))
				return r;
			if (ps->kind == CS_IF && ps->b == c &&
			    (r = cb(f, ps->e0, ps->e1, 0, arg)))
				return r;
			if ((ps->kind == CS_WHILE || ps->kind == CS_FOR ||
			     ps->kind == CS_LOOPMACRO) &&
			    (r = cb(f, ps->e0, ps->e1, 1, arg)))
				return r;
			/* earlier statements of the same block: an if that
			 * jumps out when its condition holds (or fails) */
			if (ps->kind == CS_BLOCK) {
				for (q = ps->a; q >= 0 && q != c; q = f->st[q].next) {
					const struct cstmt *qs = &f->st[q];

					if (qs->kind != CS_IF)
						continue;
					if (cfunc_exits(f, qs->a) && qs->b < 0 &&
					    (r = cb(f, qs->e0, qs->e1, 0, arg)))
						return r;
					if (qs->b >= 0 && cfunc_exits(f, qs->b) &&
					    !cfunc_exits(f, qs->a) &&
					    (r = cb(f, qs->e0, qs->e1, 1, arg)))
						return r;
				}
			}
		}
		c = p;
	}
	return 0;
}

/* ---- tokens ---- */

size_t cf_args(const struct cfunc *f, size_t open, size_t end,
	       size_t *a, size_t *b, size_t max, size_t *close)
{
	const struct ctok *t = f->v->tb.t;
	size_t m = ctok_match(t, open, end), i, start = open + 1, n = 0;

	if (close)
		*close = m;
	if (m >= end)
		return 0;
	if (start == m)
		return 0;
	for (i = start; i <= m; i++) {
		if (i < m && !punct(&t[i], ',')) {
			if (punct(&t[i], '(') || punct(&t[i], '[') || punct(&t[i], '{'))
				i = ctok_match(t, i, m);
			continue;
		}
		if (n < max) {
			a[n] = start;
			b[n] = i;
		}
		n++;
		start = i + 1;
	}
	return n < max ? n : max;
}

int cf_is_word(const struct cfunc *f, size_t a, size_t b, const char *w)
{
	return b == a + 1 && ctok_is_ident(cf_tok(f, a), w);
}

int cf_mentions(const struct cfunc *f, size_t a, size_t b, const struct ctok *t)
{
	size_t i;

	for (i = a; i < b; i++)
		if (cf_tok(f, i)->kind == CTK_IDENT && ctok_same(cf_tok(f, i), t) &&
		    !(i > a && (ctok_is(cf_tok(f, i - 1), ".") ||
				ctok_is(cf_tok(f, i - 1), "->"))))
			return 1;
	return 0;
}

int cf_same_range(const struct cfunc *f, size_t a, size_t b, size_t c, size_t d)
{
	size_t i;

	if (b - a != d - c)
		return 0;
	for (i = 0; i < b - a; i++)
		if (!ctok_same(cf_tok(f, a + i), cf_tok(f, c + i)))
			return 0;
	return 1;
}

void cf_text(const struct cfunc *f, size_t a, size_t b, char *out, size_t cap)
{
	size_t n = 0, i = a;

	if (!cap)
		return;
	/* the source's own text, line by line: runs of white space and
	 * comments between lines become one space */
	while (i < b) {
		const struct ctok *t0 = cf_tok(f, i);
		size_t j = i, len;

		while (j + 1 < b && cf_tok(f, j + 1)->line == t0->line)
			j++;
		len = (size_t)(cf_tok(f, j)->s + cf_tok(f, j)->len - t0->s);
		if (n && n + 1 < cap)
			out[n++] = ' ';
		if (n + len >= cap)
			len = cap - 1 - n;
		memcpy(out + n, t0->s, len);
		n += len;
		i = j + 1;
	}
	out[n] = '\0';
}

int cf_changed(const struct cfunc *f, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++)
		if (cf_tok(f, i)->flags & CVF_CHANGED)
			return 1;
	return 0;
}

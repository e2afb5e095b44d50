/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfunc: a small model of one C function as a patch shows it.
 *
 * From the tokens of a function's body (cview.h) it builds the statement
 * tree (blocks, if/else, loops, switch, labels, jumps, declarations,
 * expression statements; a macro followed by a statement, such as
 * list_for_each_entry(...) { ... } or scoped_guard(...) { ... }, is a
 * loop), the variables it declares (parameters and locals: type, pointer
 * level, array size, initializer, __user), and the control-flow graph
 * over its statements: every path through its branches, loops, gotos and
 * error exits.  Where the body starts above or ends below the hunk, the
 * model covers what is shown (cfunc.partial says so); a goto to a label
 * not shown leaves the function.
 *
 * The rules ask it questions (what guards a statement, which statements
 * a path from one to another may take, where a variable is assigned)
 * and read the tokens themselves for the rest.  Everything is bounded
 * (CFUNC_MAX_*): a function past a limit is modelled up to it, err set.
 */
#ifndef RB_CFUNC_H
#define RB_CFUNC_H

#include <stddef.h>
#include <stdint.h>

#include "cview.h"

#define CFUNC_MAX_STMTS		20000
#define CFUNC_MAX_VARS		4096
#define CFUNC_MAX_DEPTH		200	/* nesting of statements */
#define CFUNC_MAX_ARGS		32

enum cs_kind {
	CS_BLOCK = 1,
	CS_EXPR,		/* an expression statement */
	CS_DECL,		/* a declaration (its variables in vars) */
	CS_IF,
	CS_WHILE,
	CS_DO,
	CS_FOR,
	CS_SWITCH,
	CS_LOOPMACRO,		/* IDENT(...) followed by a statement */
	CS_CASE,		/* case X: / default: */
	CS_LABEL,
	CS_RETURN,
	CS_GOTO,
	CS_BREAK,
	CS_CONTINUE,
	CS_EMPTY,		/* ';', a directive */
};

struct cstmt {
	enum cs_kind kind;
	size_t t0, t1;		/* tokens [t0, t1) of the whole statement */
	size_t e0, e1;		/* its expression: the condition inside the
				 * parentheses (if, loops, switch, a loop
				 * macro's arguments; a for's three parts),
				 * the value of return and case, the label's
				 * or goto's name, an expression statement's
				 * or declaration's tokens without ';' */
	int parent;		/* -1 for the body */
	int a;			/* if: then; loops, switch: body; block: first */
	int b;			/* if: else, -1 when none */
	int next;		/* the next statement of the same block, -1 */
	int depth;		/* nesting */
};

enum {
	CVV_PARAM = 1 << 0,
	CVV_USER = 1 << 1,	/* declared __user */
	CVV_STATIC = 1 << 2,
	CVV_STRUCT = 1 << 3,	/* its type is struct or union TAG */
	CVV_CONST = 1 << 4,
};

struct cvar {
	size_t name;		/* token of its name */
	size_t type0, type1;	/* its type's tokens, without '*' and the name */
	size_t tag;		/* CVV_STRUCT: token of the tag, else SIZE_MAX */
	int ptr;		/* '*' levels */
	int ndims;		/* array dimensions */
	size_t dim0, dim1;	/* tokens of the first dimension's size */
	size_t init0, init1;	/* its initializer after '=', or SIZE_MAX */
	int stmt;		/* the declaration, -1 for a parameter */
	unsigned flags;		/* CVV_* */
};

/* an edge of the control-flow graph: statement -> statement */
#define CF_EXIT	(-1)		/* leaves the function (return, the end) */

struct cfunc {
	const struct cview *v;
	const struct cv_item *it;
	struct cstmt *st;
	size_t nst, st_alloc;
	struct cvar *vars;
	size_t nvars, var_alloc;
	/* successors of statement i: succ[succ0[i] .. succ0[i + 1]) */
	int *succ;
	size_t *succ0;
	size_t nsucc, succ_alloc;
	int entry;		/* the first statement run, CF_EXIT when none */
	int partial;		/* the body is not all shown */
	int err;
};

/* The model of function item it of view v.  0, or -1 (err; still usable). */
int cfunc_build(struct cfunc *f, const struct cview *v, const struct cv_item *it);
void cfunc_release(struct cfunc *f);

/* token i of the view */
static inline const struct ctok *cf_tok(const struct cfunc *f, size_t i)
{
	return &f->v->tb.t[i];
}

/* The statement whose own tokens hold token i (the innermost), or -1. */
int cfunc_stmt_at(const struct cfunc *f, size_t tok);
/* Whether statement s is a simple one: one node of the graph that runs
 * as a whole (expression, declaration, jump, a condition's test). */
int cfunc_simple(const struct cfunc *f, int s);
/* The variable named by token t visible at statement s (the innermost
 * declaration before s, then the parameters), or -1. */
int cfunc_var(const struct cfunc *f, const struct ctok *t, int s);
/* The parameter named w (a C string), or -1. */
int cfunc_param(const struct cfunc *f, const char *w);
/* The index of parameter number n (0-based), or -1. */
int cfunc_param_n(const struct cfunc *f, int n);

/* Whether statement s is inside statement anc (or is it). */
int cfunc_inside(const struct cfunc *f, int s, int anc);
/* Whether every path through statement s leaves it by a jump (return,
 * goto, break, continue): an if whose branches all do, a block ending
 * in one. */
int cfunc_exits(const struct cfunc *f, int s);

/*
 * Walks the paths from statement from (excluded) onwards, calling visit
 * for each statement reached (each once).  visit returns 0 to go on past
 * the statement, 1 to stop this path at it (a kill: the value was set
 * again), 2 to stop the whole walk.  Returns 2 when visit stopped it, 0
 * when every path ended.
 */
int cfunc_walk(const struct cfunc *f, int from,
	       int (*visit)(const struct cfunc *f, int s, void *arg), void *arg);
/*
 * cfunc_walk() that follows an edge only when follow (if not NULL) says
 * so: which is the edge's place among s's successors (for an if: 0 the
 * then branch, 1 the else branch or what comes after; for a loop: 0 the
 * body, 1 the exit).
 */
int cfunc_walk_edges(const struct cfunc *f, int from,
		     int (*visit)(const struct cfunc *f, int s, void *arg),
		     int (*follow)(const struct cfunc *f, int s, size_t which, void *arg),
		     void *arg);
/* Whether a path from statement a (excluded) reaches statement b. */
int cfunc_reaches(const struct cfunc *f, int a, int b);

/*
 * Guards of statement s: the conditions it runs under, as the tree shows
 * them.  For each, cb gets the condition's tokens and its sense: 1 when
 * s runs only if the condition is true (s in an if's then, a loop's
 * body), 0 when only if it is false (s in an else, or after an if whose
 * then always jumps out).  Stops when cb returns nonzero (returned).
 */
int cfunc_guards(const struct cfunc *f, int s,
		 int (*cb)(const struct cfunc *f, size_t c0, size_t c1,
			   int sense, void *arg), void *arg);

/* ---- tokens ---- */

/* The argument ranges of the call whose '(' is at open: n arguments,
 * a[i]..b[i] exclusive.  Returns n (0 for "()"); close in *close. */
size_t cf_args(const struct cfunc *f, size_t open, size_t end,
	       size_t *a, size_t *b, size_t max, size_t *close);
/* Whether tokens [a, b) are exactly the identifier w. */
int cf_is_word(const struct cfunc *f, size_t a, size_t b, const char *w);
/* Whether an identifier with t's text occurs in [a, b). */
int cf_mentions(const struct cfunc *f, size_t a, size_t b, const struct ctok *t);
/* Whether [a, b) and [c, d) hold the same tokens. */
int cf_same_range(const struct cfunc *f, size_t a, size_t b, size_t c, size_t d);
/* The text of tokens [a, b) joined as C prints them (arena-free: into
 * out, at most cap - 1 bytes and a NUL). */
void cf_text(const struct cfunc *f, size_t a, size_t b, char *out, size_t cap);
/* Whether a changed token lies in [a, b). */
int cf_changed(const struct cfunc *f, size_t a, size_t b);

#endif

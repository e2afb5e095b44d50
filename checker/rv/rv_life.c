// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lifetimes inside one function, on the paths of its control-flow graph
 * (cfunc.h):
 *
 *   USE_AFTER_FREE   a pointer read through (p->x, *p, p[i]) or handed to
 *                    a function after kfree(p) (or vfree(), kvfree(),
 *                    kmem_cache_free(), kfree_skb()...) on some path, with
 *                    no new value in between
 *   DOUBLE_FREE      the same pointer freed again on some path (the
 *                    classic: freed, then a goto to a label that frees it)
 *   ERROR_PATH_LOCK  a return reached from mutex_lock()/spin_lock*()/
 *                    down_*() without the unlock that the function does on
 *                    its other paths
 *   ERROR_PATH_LEAK  a return of an error reached from an allocation
 *                    (kmalloc() and friends) without freeing it, while the
 *                    function frees it on another path, and nothing took
 *                    it over (stored, returned, handed on)
 *
 * All are correctness findings.  Each needs the free (or lock, or
 * allocation) or the statement it blames on a changed line.
 */
#include "rv.h"

#include <stdlib.h>
#include <string.h>

#include "cfunc.h"
#include "cview.h"

#include "../banned.h"

static int punct(const struct ctok *t, char c)
{
	return t->kind == CTK_PUNCT && t->len == 1 && t->s[0] == c;
}

static int free_fn(const struct ctok *t, int *arg)
{
	static const char *const f0[] = { "kfree", "kvfree", "vfree", "kfree_sensitive",
					  "kvfree_sensitive", "kfree_skb", "consume_skb",
					  "dev_kfree_skb", "dev_kfree_skb_any",
					  "dev_kfree_skb_irq", "usb_free_urb", "kfree_rcu",
					  "free_page", "bitmap_free", NULL };
	size_t i;

	for (i = 0; f0[i]; i++)
		if (ctok_is_ident(t, f0[i])) {
			*arg = 0;
			return 1;
		}
	if (ctok_is_ident(t, "kmem_cache_free")) {
		*arg = 1;
		return 1;
	}
	return 0;
}

/* The statement of an expression "f(...)" at the statement's start. */
static int call_stmt(const struct cfunc *f, int s, size_t *open)
{
	const struct cstmt *st = &f->st[s];

	if (st->kind != CS_EXPR || st->e0 + 1 >= st->e1 ||
	    cf_tok(f, st->e0)->kind != CTK_IDENT || !punct(cf_tok(f, st->e0 + 1), '('))
		return 0;
	*open = st->e0 + 1;
	return 1;
}

struct life {
	struct eng *e;
	const struct cfunc *f;
	size_t p0, p1;		/* the object's path */
	int from;		/* the free, lock or allocation */
	int found;		/* the statement blamed, or -1 */
	int kind;		/* what was found there */
	/* locks */
	size_t l0, l1;		/* the lock's argument, white space aside */
	int null_branch;	/* allocation: the if that tests it, and its branch */
};

enum { LF_USE = 1, LF_FREE, LF_RETURN };

/* Whether path [p0, p1) occurs at token i (not as a member of a longer
 * path on its left). */
static int path_at(const struct cfunc *f, size_t p0, size_t p1, size_t i, size_t end)
{
	size_t k;

	if (i + (p1 - p0) > end)
		return 0;
	if (i > 0 && (ctok_is(cf_tok(f, i - 1), ".") || ctok_is(cf_tok(f, i - 1), "->")))
		return 0;
	for (k = 0; k < p1 - p0; k++)
		if (!ctok_same(cf_tok(f, i + k), cf_tok(f, p0 + k)))
			return 0;
	return 1;
}

/* Whether statement s sets the path again: "p = ..." (a loop macro that
 * takes p as its cursor does too). */
static int sets_path(const struct cfunc *f, int s, size_t p0, size_t p1)
{
	const struct cstmt *st = &f->st[s];
	size_t i, n = p1 - p0;

	if (st->kind == CS_LOOPMACRO || st->kind == CS_FOR || st->kind == CS_WHILE) {
		for (i = st->e0; i < st->e1; i++)
			if (path_at(f, p0, p1, i, st->e1) &&
			    (st->kind == CS_LOOPMACRO ||
			     (i + n < st->e1 && punct(cf_tok(f, i + n), '='))))
				return 1;
		return 0;
	}
	/* the path or a path it goes through ("req" of "req->iv") set again,
	 * or declared again (a loop body's local) */
	{
		size_t len;

		for (len = n; len >= 1; len = len > 2 ? len - 2 : 0) {
			for (i = st->e0; i + len < st->e1; i++)
				if (path_at(f, p0, p0 + len, i, st->e1) &&
				    punct(cf_tok(f, i + len), '='))
					return 1;
			if (len == 1)
				break;
		}
		if (st->kind == CS_DECL) {
			size_t v;

			for (v = 0; v < f->nvars; v++)
				if (f->vars[v].stmt == s && ctok_same(cf_tok(f, f->vars[v].name), cf_tok(f, p0)))
					return 1;
		}
	}
	/* handed by address to a function that may set it: f(&p) */
	for (i = st->e0 + 1; i + n <= st->e1; i++)
		if (punct(cf_tok(f, i - 1), '&') && path_at(f, p0, p1, i, st->e1) &&
		    (i + n == st->e1 || !ctok_is(cf_tok(f, i + n), "->")))
			return 1;
	return 0;
}

/* Whether statement s reads through the path or hands it on. */
static int uses_path(const struct cfunc *f, int s, size_t p0, size_t p1)
{
	const struct cstmt *st = &f->st[s];
	size_t i, n = p1 - p0;

	for (i = st->e0; i + n <= st->e1; i++) {
		size_t after = i + n;

		if (!path_at(f, p0, p1, i, st->e1))
			continue;
		/* p->x, p[i], *p */
		if (after < st->e1 && (ctok_is(cf_tok(f, after), "->") || punct(cf_tok(f, after), '[')))
			return 1;
		if (i > st->e0 && punct(cf_tok(f, i - 1), '*') &&
		    (i == st->e0 + 1 || !(cf_tok(f, i - 2)->kind == CTK_IDENT ||
					  punct(cf_tok(f, i - 2), ')'))))
			return 1;
		/* an argument: f(p), f(x, p) (not sizeof(p), not f(&p)) */
		if (i > st->e0 && (punct(cf_tok(f, i - 1), '(') || punct(cf_tok(f, i - 1), ',')) &&
		    after < st->e1 && (punct(cf_tok(f, after), ')') || punct(cf_tok(f, after), ','))) {
			size_t k = i - 1;
			int depth = 0;

			/* the call's name */
			while (k > st->e0) {
				if (punct(cf_tok(f, k), ')'))
					depth++;
				else if (punct(cf_tok(f, k), '(')) {
					if (depth-- == 0)
						break;
				}
				k--;
			}
			if (k > st->e0 && cf_tok(f, k - 1)->kind == CTK_IDENT &&
			    !ctok_is(cf_tok(f, k - 1), "sizeof") && !ctok_is(cf_tok(f, k - 1), "IS_ERR") &&
			    !ctok_is(cf_tok(f, k - 1), "IS_ERR_OR_NULL") &&
			    !ctok_is(cf_tok(f, k - 1), "PTR_ERR") && !ctok_is(cf_tok(f, k - 1), "WARN_ON") &&
			    !ctok_ident_prefix(cf_tok(f, k - 1), "pr_") &&
			    !ctok_ident_prefix(cf_tok(f, k - 1), "dev_dbg"))
				return 1;
		}
	}
	return 0;
}

/* Whether statement s frees the path (the argument of a free call). */
static int frees_path(const struct cfunc *f, int s, size_t p0, size_t p1)
{
	size_t open, a[CFUNC_MAX_ARGS], b[CFUNC_MAX_ARGS], n;
	int arg;

	if (!call_stmt(f, s, &open) || !free_fn(cf_tok(f, open - 1), &arg))
		return 0;
	n = cf_args(f, open, f->st[s].e1, a, b, CFUNC_MAX_ARGS, NULL);
	return (size_t)arg < n && cf_same_range(f, a[arg], b[arg], p0, p1);
}

static int visit_after_free(const struct cfunc *f, int s, void *arg)
{
	struct life *lf = arg;

	if (f->st[s].kind == CS_BLOCK)
		return 0;
	if (frees_path(f, s, lf->p0, lf->p1)) {
		lf->found = s;
		lf->kind = LF_FREE;
		return 2;
	}
	if (uses_path(f, s, lf->p0, lf->p1)) {
		lf->found = s;
		lf->kind = LF_USE;
		return 2;
	}
	if (sets_path(f, s, lf->p0, lf->p1))
		return 1;
	/* "if (p)" after a free tests a dangling pointer, which is a
	 * problem of its own; it is not followed further */
	return 0;
}

static void tok_text(const struct cfunc *f, size_t a, size_t b, char *buf, size_t cap)
{
	cf_text(f, a, b, buf, cap);
}

static long stmt_line(const struct cfunc *f, int s)
{
	return cview_line(f->v, f->st[s].t0)->fline;
}

static void frees(struct eng *e, const struct cfunc *f, int *said)
{
	size_t s;
	int starts = 0;

	for (s = 0; s < f->nst && *said < 4 && starts < RV_PATH_MAX_STARTS; s++) {
		size_t open, a[CFUNC_MAX_ARGS], b[CFUNC_MAX_ARGS], n;
		struct life lf;
		int arg;
		char what[96], fn[32];

		if (!call_stmt(f, (int)s, &open) || !free_fn(cf_tok(f, open - 1), &arg))
			continue;
		n = cf_args(f, open, f->st[s].e1, a, b, CFUNC_MAX_ARGS, NULL);
		if ((size_t)arg >= n || cf_tok(f, a[arg])->kind != CTK_IDENT)
			continue;
		starts++;
		memset(&lf, 0, sizeof(lf));
		lf.e = e;
		lf.f = f;
		lf.p0 = a[arg];
		lf.p1 = b[arg];
		lf.from = (int)s;
		lf.found = -1;
		/* a plain path: p, p->x, p.x */
		{
			size_t k;
			int ok = 1;

			for (k = lf.p0; k < lf.p1; k++)
				if (!(cf_tok(f, k)->kind == CTK_IDENT || ctok_is(cf_tok(f, k), "->") ||
				      ctok_is(cf_tok(f, k), ".")))
					ok = 0;
			if (!ok)
				continue;
		}
		cfunc_walk(f, (int)s, visit_after_free, &lf);
		if (lf.found < 0)
			continue;
		if (!cf_changed(f, f->st[s].t0, f->st[s].t1) &&
		    !cf_changed(f, f->st[lf.found].t0, f->st[lf.found].t1))
			continue;
		tok_text(f, lf.p0, lf.p1, what, sizeof(what));
		tok_text(f, open - 1, open, fn, sizeof(fn));
		(*said)++;
		if (lf.kind == LF_FREE)
			rv_report_tok(e, SEV_WARNING, R_DOUBLE_FREE, f->v, f->st[lf.found].t0,
				      eng_printf(e, "'%s' is freed again here, but %s() freed it at line %ld and nothing set it since, on at least one path: a double free; set it to NULL after the first free or free it in one place",
						 what, fn, stmt_line(f, (int)s)));
		else
			rv_report_tok(e, SEV_WARNING, R_USE_AFTER_FREE, f->v, f->st[lf.found].t0,
				      eng_printf(e, "'%s' is used here after %s() freed it at line %ld, on at least one path: a use after free; use it before freeing it, or keep what you need in a local first",
						 what, fn, stmt_line(f, (int)s)));
	}
}

/* ---- locks ---- */

static int lock_pair(const struct ctok *t, const char **unlock)
{
	static const struct {
		const char *lock, *unlock;
	} p[] = {
		{ "mutex_lock", "mutex_unlock" },
		{ "mutex_lock_nested", "mutex_unlock" },
		{ "spin_lock", "spin_unlock" },
		{ "spin_lock_irq", "spin_unlock_irq" },
		{ "spin_lock_irqsave", "spin_unlock_irqrestore" },
		{ "spin_lock_bh", "spin_unlock_bh" },
		{ "raw_spin_lock", "raw_spin_unlock" },
		{ "raw_spin_lock_irqsave", "raw_spin_unlock_irqrestore" },
		{ "raw_spin_lock_irq", "raw_spin_unlock_irq" },
		{ "read_lock", "read_unlock" },
		{ "write_lock", "write_unlock" },
		{ "read_lock_bh", "read_unlock_bh" },
		{ "write_lock_bh", "write_unlock_bh" },
		{ "write_lock_irqsave", "write_unlock_irqrestore" },
		{ "down_read", "up_read" },
		{ "down_write", "up_write" },
		{ "down", "up" },
		{ "rcu_read_lock", "rcu_read_unlock" },
	};
	size_t i;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		if (ctok_is_ident(t, p[i].lock)) {
			*unlock = p[i].unlock;
			return 1;
		}
	return 0;
}

struct lockwalk {
	const char *unlock;
	size_t a0, a1;		/* the lock's first argument */
	int ret;		/* a return reached with it held */
};

/* Whether statement s calls unlock with first argument [a0, a1). */
static int unlocks(const struct cfunc *f, int s, const char *unlock, size_t a0, size_t a1)
{
	const struct cstmt *st = &f->st[s];
	size_t i;

	for (i = st->e0; i + 1 < st->e1; i++) {
		size_t a[CFUNC_MAX_ARGS], b[CFUNC_MAX_ARGS], n;

		if (!ctok_is_ident(cf_tok(f, i), unlock) || !punct(cf_tok(f, i + 1), '('))
			continue;
		n = cf_args(f, i + 1, st->e1, a, b, CFUNC_MAX_ARGS, NULL);
		if ((a0 == a1 && n == 0) || (n && cf_same_range(f, a[0], b[0], a0, a1)))
			return 1;
	}
	return 0;
}

static int visit_locked(const struct cfunc *f, int s, void *arg)
{
	struct lockwalk *lw = arg;

	if (f->st[s].kind == CS_BLOCK)
		return 0;
	if (unlocks(f, s, lw->unlock, lw->a0, lw->a1))
		return 1;
	/* a helper that unlocks for its caller: *unlock*(...) */
	{
		size_t i;

		for (i = f->st[s].e0; i + 1 < f->st[s].e1; i++) {
			const struct ctok *t = cf_tok(f, i);

			if (t->kind == CTK_IDENT && punct(cf_tok(f, i + 1), '(') && t->len > 6 &&
			    (memmem(t->s, t->len, "unlock", 6) || memmem(t->s, t->len, "release", 7)))
				return 1;
		}
	}
	if (f->st[s].kind == CS_RETURN) {
		lw->ret = s;
		return 2;
	}
	return 0;
}

static void locks(struct eng *e, const struct cfunc *f, int *said)
{
	size_t s, k;
	const struct ctok *name = cview_item_name(f->v, f->it);

	/* helpers that take a lock for their caller say so in their name */
	if (name) {
		char w[64];
		size_t n = name->len < sizeof(w) - 1 ? name->len : sizeof(w) - 1;

		memcpy(w, name->s, n);
		w[n] = '\0';
		if (strstr(w, "lock") || strstr(w, "acquire") || strstr(w, "_get"))
			return;
	}
	int starts = 0;

	for (s = 0; s < f->nst && *said < 4 && starts < RV_PATH_MAX_STARTS; s++) {
		size_t open, a[CFUNC_MAX_ARGS], b[CFUNC_MAX_ARGS], n;
		const char *unlock;
		struct lockwalk lw;
		int others = 0;
		char lk[96], fn[40];

		if (!call_stmt(f, (int)s, &open) || !lock_pair(cf_tok(f, open - 1), &unlock))
			continue;
		starts++;
		n = cf_args(f, open, f->st[s].e1, a, b, CFUNC_MAX_ARGS, NULL);
		memset(&lw, 0, sizeof(lw));
		lw.unlock = unlock;
		lw.a0 = n ? a[0] : open + 1;
		lw.a1 = n ? b[0] : open + 1;
		lw.ret = -1;
		/* the function unlocks it somewhere: it is meant to */
		for (k = 0; k < f->nst; k++)
			if (f->st[k].kind != CS_BLOCK && unlocks(f, (int)k, unlock, lw.a0, lw.a1))
				others = 1;
		if (!others)
			continue;
		cfunc_walk(f, (int)s, visit_locked, &lw);
		if (lw.ret < 0)
			continue;
		if (!cf_changed(f, f->st[lw.ret].t0, f->st[lw.ret].t1) &&
		    !cf_changed(f, f->st[s].t0, f->st[s].t1))
			continue;
		tok_text(f, lw.a0, lw.a1, lk, sizeof(lk));
		tok_text(f, open - 1, open, fn, sizeof(fn));
		(*said)++;
		rv_report_tok(e, SEV_WARNING, R_ERROR_PATH_LOCK, f->v, f->st[lw.ret].t0,
			      eng_printf(e, "this return leaves %s held: %s() took it at line %ld and the other paths call %s(), this one does not; unlock before returning (or goto the unlock)",
					 n ? lk : "the lock", fn, stmt_line(f, (int)s), unlock));
	}
}

/* ---- leaks ---- */

static int alloc_fn(const struct ctok *t)
{
	static const char *const a[] = { "kmalloc", "kzalloc", "kcalloc", "kmalloc_array",
					 "kvmalloc", "kvzalloc", "kvcalloc", "vmalloc", "vzalloc",
					 "kstrdup", "kstrndup", "kmemdup", "kasprintf",
					 "kmalloc_obj", "kzalloc_obj", "kvmalloc_array",
					 "kmem_cache_alloc", "kmem_cache_zalloc", NULL };
	size_t i;

	for (i = 0; a[i]; i++)
		if (ctok_is_ident(t, a[i]))
			return 1;
	return 0;
}

/*
 * Whether the call that has the argument at token i may keep it: one
 * that stores, registers, queues or submits it (set_drvdata, *_register,
 * list and queue adds, usb_submit_urb, ...).
 */
static int takes_over(const struct cfunc *f, const struct cstmt *st, size_t i)
{
	size_t k = i;
	int depth = 0;
	char w[64];
	const struct ctok *t;

	while (k > st->e0) {
		k--;
		if (punct(cf_tok(f, k), ')'))
			depth++;
		else if (punct(cf_tok(f, k), '(') && depth-- == 0)
			break;
	}
	if (k == st->e0 || cf_tok(f, k - 1)->kind != CTK_IDENT)
		return 1;	/* not a plain call: assume it keeps it */
	t = cf_tok(f, k - 1);
	if (t->len >= sizeof(w))
		return 1;
	memcpy(w, t->s, t->len);
	w[t->len] = '\0';
	return strstr(w, "set_") || strstr(w, "register") || strstr(w, "add") ||
	       strstr(w, "queue") || strstr(w, "submit") || strstr(w, "insert") ||
	       strstr(w, "push") || strstr(w, "attach") || strstr(w, "store") ||
	       strstr(w, "list_") || strstr(w, "hold") || strstr(w, "get") ||
	       strstr(w, "init") || strstr(w, "assign") || strstr(w, "link") ||
	       strstr(w, "rcu_") || strstr(w, "send") || strstr(w, "xmit") ||
	       strstr(w, "netif_") || strstr(w, "defer") || strstr(w, "schedule");
}

struct leakwalk {
	size_t p;		/* the variable's token */
	int ret;
};

/* Whether condition [a, b) tests p against NULL: "!p", "p == NULL",
 * "IS_ERR_OR_NULL(p)", "unlikely(!p)"; *negated: true means NULL. */
static int null_test(const struct cfunc *f, size_t a, size_t b, size_t p, int *null_true)
{
	while (a + 2 < b && (ctok_is_ident(cf_tok(f, a), "unlikely") ||
			     ctok_is_ident(cf_tok(f, a), "likely")) && punct(cf_tok(f, a + 1), '(')) {
		a += 2;
		b--;
	}
	if (b == a + 2 && punct(cf_tok(f, a), '!') && ctok_same(cf_tok(f, a + 1), cf_tok(f, p))) {
		*null_true = 1;
		return 1;
	}
	if (b == a + 1 && ctok_same(cf_tok(f, a), cf_tok(f, p))) {
		*null_true = 0;
		return 1;
	}
	if (b == a + 3 && ctok_same(cf_tok(f, a), cf_tok(f, p)) && ctok_is_ident(cf_tok(f, a + 2), "NULL")) {
		*null_true = ctok_is(cf_tok(f, a + 1), "==");
		return ctok_is(cf_tok(f, a + 1), "==") || ctok_is(cf_tok(f, a + 1), "!=");
	}
	return 0;
}

static int follow_nonnull(const struct cfunc *f, int s, size_t which, void *arg)
{
	struct leakwalk *lw = arg;
	int null_true;

	if (f->st[s].kind != CS_IF || !null_test(f, f->st[s].e0, f->st[s].e1, lw->p, &null_true))
		return 1;
	/* do not follow the branch where it is NULL */
	return null_true ? which != 0 : which != 1;
}

static int visit_alloc(const struct cfunc *f, int s, void *arg)
{
	struct leakwalk *lw = arg;
	const struct cstmt *st = &f->st[s];
	size_t i;

	if (st->kind == CS_BLOCK)
		return 0;
	/* freed, set again, stored, returned: its fate is known; read
	 * through or handed to a call, it is still the function's */
	{
		size_t open;
		int which;

		if (call_stmt(f, s, &open) && free_fn(cf_tok(f, open - 1), &which))
			for (i = st->e0; i < st->e1; i++)
				if (ctok_same(cf_tok(f, i), cf_tok(f, lw->p)))
					return 1;
	}
	for (i = st->e0; i < st->e1; i++) {
		const struct ctok *t = cf_tok(f, i);

		if (!ctok_same(t, cf_tok(f, lw->p)) ||
		    (i > st->e0 && (ctok_is(cf_tok(f, i - 1), "->") || ctok_is(cf_tok(f, i - 1), "."))))
			continue;
		if (i + 1 < st->e1 && (ctok_is(cf_tok(f, i + 1), "->") || punct(cf_tok(f, i + 1), '['))) {
			/* "&p->node" handed on: it is linked somewhere */
			if (i > st->e0 && punct(cf_tok(f, i - 1), '&'))
				return 1;
			continue;
		}
		if (st->kind == CS_IF || st->kind == CS_WHILE || st->kind == CS_SWITCH)
			continue;	/* a test */
		if (i > st->e0 && (punct(cf_tok(f, i - 1), '(') || punct(cf_tok(f, i - 1), ',')) &&
		    i + 1 < st->e1 && (punct(cf_tok(f, i + 1), ')') || punct(cf_tok(f, i + 1), ',')) &&
		    st->kind != CS_RETURN && !takes_over(f, st, i))
			continue;	/* an argument, still the function's */
		return 1;
	}
	if (st->kind == CS_RETURN) {
		/* an error: "return -E...", "return NULL", ERR_PTR(); "return
		 * ret/err" only under an if (the function's last return may
		 * well be its success) */
		int p = st->parent;
		int cond = p >= 0 && (f->st[p].kind == CS_IF ||
				      (f->st[p].kind == CS_BLOCK && f->st[p].parent >= 0 &&
				       f->st[f->st[p].parent].kind == CS_IF));

		if (st->e0 < st->e1 && (punct(cf_tok(f, st->e0), '-') ||
					ctok_is_ident(cf_tok(f, st->e0), "NULL") ||
					(cond && (ctok_is_ident(cf_tok(f, st->e0), "ret") ||
						  ctok_is_ident(cf_tok(f, st->e0), "err") ||
						  ctok_is_ident(cf_tok(f, st->e0), "rc"))) ||
					ctok_ident_prefix(cf_tok(f, st->e0), "ERR_PTR"))) {
			lw->ret = s;
			return 2;
		}
		return 1;
	}
	return 0;
}

static void leaks(struct eng *e, const struct cfunc *f, int *said)
{
	size_t s, k;
	int starts = 0;

	for (s = 0; s < f->nst && *said < 4 && starts < RV_PATH_MAX_STARTS; s++) {
		const struct cstmt *st = &f->st[s];
		size_t p = SIZE_MAX, call = SIZE_MAX;
		struct leakwalk lw;
		int freed = 0, v;
		char pn[64], fn[40];

		/* "p = kmalloc(...)" or "T *p = kmalloc(...)" */
		if ((st->kind == CS_EXPR || st->kind == CS_DECL) && st->e0 + 3 < st->e1) {
			for (k = st->e0; k + 2 < st->e1; k++)
				if (cf_tok(f, k)->kind == CTK_IDENT && punct(cf_tok(f, k + 1), '=') &&
				    alloc_fn(cf_tok(f, k + 2)) && k + 3 < st->e1 &&
				    punct(cf_tok(f, k + 3), '(') &&
				    (k == st->e0 || !ctok_is(cf_tok(f, k - 1), "->") ) &&
				    !(k > st->e0 && ctok_is(cf_tok(f, k - 1), "."))) {
					p = k;
					call = k + 2;
					break;
				}
		}
		if (p == SIZE_MAX)
			continue;
		starts++;
		v = cfunc_var(f, cf_tok(f, p), (int)s);
		if (v < 0 || (f->vars[v].flags & (CVV_PARAM | CVV_STATIC)))
			continue;
		/* freed on another path: the function owns it */
		for (k = 0; k < f->nst; k++) {
			size_t open, a[CFUNC_MAX_ARGS], b[CFUNC_MAX_ARGS], n;
			int arg;

			if (!call_stmt(f, (int)k, &open) || !free_fn(cf_tok(f, open - 1), &arg))
				continue;
			n = cf_args(f, open, f->st[k].e1, a, b, CFUNC_MAX_ARGS, NULL);
			if ((size_t)arg < n && b[arg] == a[arg] + 1 && ctok_same(cf_tok(f, a[arg]), cf_tok(f, p)))
				freed = 1;
		}
		if (!freed)
			continue;
		memset(&lw, 0, sizeof(lw));
		lw.p = p;
		lw.ret = -1;
		cfunc_walk_edges(f, (int)s, visit_alloc, follow_nonnull, &lw);
		if (lw.ret < 0)
			continue;
		if (!cf_changed(f, f->st[lw.ret].t0, f->st[lw.ret].t1) &&
		    !cf_changed(f, st->t0, st->t1))
			continue;
		tok_text(f, p, p + 1, pn, sizeof(pn));
		tok_text(f, call, call + 1, fn, sizeof(fn));
		(*said)++;
		rv_report_tok(e, SEV_WARNING, R_ERROR_PATH_LEAK, f->v, f->st[lw.ret].t0,
			      eng_printf(e, "this error return leaks '%s', allocated by %s() at line %ld: the function frees it on its other paths but not on this one; free it (or goto the label that does) before returning",
					 pn, fn, stmt_line(f, (int)s)));
	}
}

void rv_life_final(struct eng *e)
{
	struct rv_code *c = (struct rv_code *)rv_code_get(e);
	size_t i, n = rv_code_funcs(e, c);

	for (i = 0; i < n; i++) {
		int said = 0;

		if (c->funcs[i].nst > RV_PATH_MAX_STMTS)
			continue;
		frees(e, &c->funcs[i], &said);
		locks(e, &c->funcs[i], &said);
		leaks(e, &c->funcs[i], &said);
	}
}

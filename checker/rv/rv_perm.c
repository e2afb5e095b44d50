// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who may use what the patch adds:
 *
 *   PERMISSION_INVERTED      a permission helper tested the wrong way
 *                            round: capable(), ns_capable(), sk_capable(),
 *                            file_ns_capable(), ptrace_may_access() and
 *                            friends are true when the caller is allowed;
 *                            inode_permission(), file_permission(),
 *                            security_*() hooks are 0 when allowed.  An if
 *                            whose branch refuses (-EPERM, -EACCES) when
 *                            the helper says "allowed" is inverted.
 *   PERMISSION_UNCHECKED     such a helper called as a statement of its own
 *   WORLD_WRITABLE_INTERFACE a class devnode() that gives its nodes a
 *                            world-writable mode (the rest of this type is
 *                            rv_security.c's)
 *   WORLD_NODE_NO_CAPABLE    a misc device whose node every user may open
 *                            for writing (mode 0666) with a write or ioctl
 *                            handler, shown in the patch, that checks no
 *                            capability
 *   ATTR_ARRAY_UNTERMINATED  a sysfs attribute (or group) array without the
 *                            NULL entry sysfs stops at
 */
#include "rv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfunc.h"
#include "cview.h"

#include "../banned.h"

static int punct(const struct ctok *t, char c)
{
	return t->kind == CTK_PUNCT && t->len == 1 && t->s[0] == c;
}

/* true when allowed */
static int bool_helper(const struct ctok *t)
{
	static const char *const h[] = {
		"capable", "ns_capable", "ns_capable_noaudit", "ns_capable_setid",
		"sk_capable", "sk_ns_capable", "sk_net_capable", "file_ns_capable",
		"sockopt_ns_capable", "netlink_capable", "netlink_ns_capable",
		"netlink_net_capable", "bpf_capable", "perfmon_capable",
		"checkpoint_restore_ns_capable", "has_capability",
		"has_capability_noaudit", "has_ns_capability",
		"has_ns_capability_noaudit", "inode_owner_or_capable",
		"capable_wrt_inode_uidgid", "privileged_wrt_inode_uidgid",
		"ptrace_may_access", "kuid_has_mapping", NULL,
	};
	size_t i;

	for (i = 0; h[i]; i++)
		if (ctok_is_ident(t, h[i]))
			return 1;
	return 0;
}

/* 0 when allowed */
static int zero_helper(const struct ctok *t)
{
	char w[64];

	if (t->kind != CTK_IDENT || t->len >= sizeof(w))
		return 0;
	memcpy(w, t->s, t->len);
	w[t->len] = '\0';
	return !strcmp(w, "inode_permission") || !strcmp(w, "file_permission") ||
	       !strcmp(w, "may_open") || !strcmp(w, "generic_permission") ||
	       !strcmp(w, "devcgroup_check_permission") ||
	       (!strncmp(w, "security_", 9) && (strstr(w, "permission") || strstr(w, "_check")));
}

/* Whether statement s refuses: returns (or sets and jumps with) -EPERM,
 * -EACCES or -EINVAL, or is a block that does. */
static int refuses(const struct cfunc *f, int s)
{
	size_t i;

	if (s < 0)
		return 0;
	if (!cfunc_exits(f, s) && f->st[s].kind != CS_RETURN)
		return 0;
	for (i = f->st[s].t0; i + 1 < f->st[s].t1; i++)
		if (punct(cf_tok(f, i), '-') &&
		    (ctok_is_ident(cf_tok(f, i + 1), "EPERM") || ctok_is_ident(cf_tok(f, i + 1), "EACCES")))
			return 1;
	return 0;
}

static void tok_text(const struct ctok *t, char *buf, size_t cap)
{
	size_t n = t->len < cap - 1 ? t->len : cap - 1;

	memcpy(buf, t->s, n);
	buf[n] = '\0';
}

static void perm_function(struct eng *e, const struct cfunc *f)
{
	size_t s;
	int said = 0;

	for (s = 0; s < f->nst && said < 4; s++) {
		const struct cstmt *st = &f->st[s];
		size_t a = st->e0, b = st->e1;
		const struct ctok *t;
		int neg = 0, zero_cmp = 0, eq_zero = 0;
		char fn[64];

		if (!cf_changed(f, st->t0, st->t1))
			continue;
		/* a helper as a statement: its answer is lost */
		if (st->kind == CS_EXPR && a + 1 < b) {
			size_t k = a;

			if (punct(cf_tok(f, k), '(') && k + 3 < b && ctok_is_ident(cf_tok(f, k + 1), "void") &&
			    punct(cf_tok(f, k + 2), ')'))
				k += 3;
			t = cf_tok(f, k);
			if ((bool_helper(t) || zero_helper(t)) && k + 1 < b && punct(cf_tok(f, k + 1), '(') &&
			    ctok_match(f->v->tb.t, k + 1, b) + 1 == b) {
				tok_text(t, fn, sizeof(fn));
				rv_report_tok(e, SEV_WARNING, R_PERMISSION_UNCHECKED, f->v, k,
					      eng_printf(e, "%s()'s answer is thrown away, so nothing is refused: test it and return -EPERM when it says no", fn));
				said++;
			}
			continue;
		}
		if (st->kind != CS_IF || a >= b)
			continue;
		/* the condition: [!]helper(...) [== 0 | != 0 | < 0] */
		if (punct(cf_tok(f, a), '!')) {
			neg = 1;
			a++;
		}
		while (a + 3 < b && (ctok_is_ident(cf_tok(f, a), "unlikely") ||
				     ctok_is_ident(cf_tok(f, a), "likely")) && punct(cf_tok(f, a + 1), '(')) {
			a += 2;
			b--;
		}
		if (a < b && punct(cf_tok(f, a), '!')) {
			neg = !neg;
			a++;
		}
		t = cf_tok(f, a);
		if (a + 1 >= b || !punct(cf_tok(f, a + 1), '(') || (!bool_helper(t) && !zero_helper(t)))
			continue;
		{
			size_t m = ctok_match(f->v->tb.t, a + 1, b);

			if (m >= b)
				continue;
			if (m + 1 < b) {
				/* "helper(...) == 0", "!= 0", "< 0" */
				if (m + 3 != b || !ctok_is(cf_tok(f, m + 2), "0"))
					continue;
				if (ctok_is(cf_tok(f, m + 1), "=="))
					eq_zero = 1;
				else if (!ctok_is(cf_tok(f, m + 1), "!=") && !ctok_is(cf_tok(f, m + 1), "<"))
					continue;
				zero_cmp = 1;
			}
		}
		tok_text(t, fn, sizeof(fn));
		{
			/* does the then branch run when the helper allows? */
			int allowed_then;

			if (bool_helper(t))
				allowed_then = zero_cmp ? (eq_zero ? neg : !neg) : !neg;
			else
				allowed_then = zero_cmp ? (eq_zero ? !neg : neg) : neg;
			if (allowed_then && refuses(f, st->a)) {
				rv_report_tok(e, SEV_WARNING, R_PERMISSION_INVERTED, f->v, a,
					      eng_printf(e, "this refuses exactly the callers %s() allows: %s() %s when the caller is allowed, so the test is inverted and everyone else gets through",
							 fn, fn, bool_helper(t) ? "is true" : "returns 0"));
				said++;
			}
		}
	}
}

/* ---- devnode, misc devices, attribute arrays ---- */

static int world_mode(const struct cview *v, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++) {
		const struct ctok *t = &v->tb.t[i];

		if (ctok_is_ident(t, "S_IWUGO") || ctok_is_ident(t, "S_IWOTH") ||
		    ctok_is_ident(t, "S_IRWXUGO") || ctok_is_ident(t, "S_IALLUGO") ||
		    ctok_is_ident(t, "S_IRWXO"))
			return 1;
		if (t->kind == CTK_NUMBER && t->len == 4 && t->s[0] == '0' &&
		    (t->s[3] == '2' || t->s[3] == '3' || t->s[3] == '6' || t->s[3] == '7'))
			return 1;
	}
	return 0;
}

/* "*mode = 0666" in a function with a "umode_t *mode" parameter */
static void devnode_function(struct eng *e, const struct cfunc *f)
{
	size_t v;

	for (v = 0; v < f->nvars; v++) {
		const struct cvar *cv = &f->vars[v];
		size_t i;

		int umode = 0;

		for (i = cv->type0; i < cv->type1; i++)
			umode |= ctok_is_ident(cf_tok(f, i), "umode_t");
		if (!(cv->flags & CVV_PARAM) || cv->ptr != 1 || !umode)
			continue;
		for (i = f->it->in0; i + 3 < f->it->in1; i++) {
			size_t k;

			if (!punct(cf_tok(f, i), '*') || !ctok_same(cf_tok(f, i + 1), cf_tok(f, cv->name)) ||
			    !punct(cf_tok(f, i + 2), '=') || !(cf_tok(f, i)->flags & CVF_CHANGED))
				continue;
			for (k = i + 3; k < f->it->in1 && !punct(cf_tok(f, k), ';'); k++)
				;
			if (world_mode(f->v, i + 3, k)) {
				char mode[32];

				cf_text(f, i + 3, k, mode, sizeof(mode));
				rv_report_tok(e, SEV_WARNING, R_WORLD_WRITABLE_INTERFACE, f->v, i,
					      eng_printf(e, "this devnode() gives the class's device nodes mode %s: every local user can open them for writing and drive the device; leave the mode alone (0600) and let udev grant access where users need it", mode));
			}
		}
	}
}

/* The value tokens of ".field = ..." in an initialiser item: [*a, *b). */
static int init_field(const struct cview *v, const struct cv_item *it, const char *field,
		      size_t *a, size_t *b)
{
	size_t i;

	for (i = it->in0; i + 2 < it->in1; i++) {
		if (!ctok_is(&v->tb.t[i], ".") || !ctok_is_ident(&v->tb.t[i + 1], field) ||
		    !punct(&v->tb.t[i + 2], '='))
			continue;
		*a = i + 3;
		for (*b = *a; *b < it->in1 && !punct(&v->tb.t[*b], ','); (*b)++)
			if (punct(&v->tb.t[*b], '(') || punct(&v->tb.t[*b], '{')) {
				size_t m = ctok_match(v->tb.t, *b, it->in1);

				*b = m < it->in1 ? m : it->in1;
			}
		return 1;
	}
	return 0;
}

static int type_is(const struct cview *v, const struct cv_item *it, const char *tag)
{
	size_t i;

	for (i = it->t0; i + 1 < it->name && i + 1 < v->tb.n; i++)
		if (ctok_is_ident(&v->tb.t[i], "struct") && ctok_is_ident(&v->tb.t[i + 1], tag))
			return 1;
	return 0;
}

static const struct cfunc *func_named(const struct rv_code *c, const struct ctok *name)
{
	size_t i;

	for (i = 0; i < c->nfuncs; i++) {
		const struct ctok *n = cview_item_name(c->nv, c->funcs[i].it);

		if (n && ctok_same(n, name) && !c->funcs[i].partial)
			return &c->funcs[i];
	}
	return NULL;
}

static int checks_privilege(const struct cfunc *f)
{
	size_t i;

	for (i = f->it->in0; i < f->it->in1; i++)
		if (bool_helper(cf_tok(f, i)) || zero_helper(cf_tok(f, i)))
			return 1;
	return 0;
}

static void misc_nodes(struct eng *e, const struct rv_code *c)
{
	const struct cview *v = c->nv;
	size_t i;

	for (i = 0; i < v->nitems; i++) {
		const struct cv_item *it = &v->items[i], *fops = NULL;
		size_t a, b, k;
		static const char *const handlers[] = { "write", "unlocked_ioctl", "compat_ioctl",
							"write_iter", NULL };

		if (it->kind != CVI_VAR || !it->changed || !type_is(v, it, "miscdevice") ||
		    !init_field(v, it, "mode", &a, &b) || !world_mode(v, a, b) ||
		    !init_field(v, it, "fops", &a, &b))
			continue;
		if (a < b && punct(&v->tb.t[a], '&'))
			a++;
		if (a + 1 != b || v->tb.t[a].kind != CTK_IDENT)
			continue;
		fops = rv_code_global(c, &v->tb.t[a]);
		if (!fops)
			continue;
		for (k = 0; handlers[k]; k++) {
			const struct cfunc *h;
			size_t ha, hb;
			char hn[64];

			if (!init_field(v, fops, handlers[k], &ha, &hb) || ha + 1 != hb ||
			    v->tb.t[ha].kind != CTK_IDENT)
				continue;
			h = func_named(c, &v->tb.t[ha]);
			if (!h || checks_privilege(h))
				continue;
			tok_text(&v->tb.t[ha], hn, sizeof(hn));
			rv_report_tok(e, SEV_WARNING, R_WORLD_NODE_NO_CAPABLE, v,
				      h->it->name != SIZE_MAX ? h->it->name : ha,
				      eng_printf(e, "%s() handles .%s of a misc device every user may open for writing (mode 0666), and it checks no capability: any local user can change the device's state through it; make the node 0600 or check capable() before acting",
						 hn, handlers[k]));
		}
	}
}

static void attr_arrays(struct eng *e, const struct rv_code *c)
{
	const struct cview *v = c->nv;
	size_t i;

	for (i = 0; i < v->nitems; i++) {
		const struct cv_item *it = &v->items[i];
		const struct ctok *t = v->tb.t;
		size_t k, last = SIZE_MAX, nm;
		int is_attr = 0, sized = 0, star = 0;

		if (it->kind != CVI_VAR || !it->changed || it->name == SIZE_MAX ||
		    it->head_missing || it->tail_missing || it->b0 == SIZE_MAX)
			continue;
		for (k = it->t0; k + 1 < it->name; k++)
			if (ctok_is_ident(&t[k], "struct") &&
			    (ctok_is_ident(&t[k + 1], "attribute") || ctok_is_ident(&t[k + 1], "bin_attribute") ||
			     ctok_is_ident(&t[k + 1], "attribute_group")))
				is_attr = 1;
		for (k = it->t0; k < it->name; k++)
			star |= punct(&t[k], '*');
		nm = it->name + 1;
		if (!is_attr || !star || nm >= it->b0 || !punct(&t[nm], '['))
			continue;
		sized = nm + 1 < it->b0 && !punct(&t[nm + 1], ']');
		if (sized)
			continue;	/* a size leaves zeroed entries at its end */
		/* the last entry, a trailing comma aside */
		for (k = it->in0; k < it->in1; k++) {
			if (punct(&t[k], '(') || punct(&t[k], '{') || punct(&t[k], '[')) {
				size_t m = ctok_match(t, k, it->in1);

				k = m < it->in1 ? m : it->in1;
				continue;
			}
			if (punct(&t[k], ','))
				continue;
			if (k == it->in0 || punct(&t[k - 1], ','))
				last = k;
		}
		if (last == SIZE_MAX || ctok_is_ident(&t[last], "NULL") ||
		    (t[last].kind == CTK_NUMBER && t[last].len == 1 && t[last].s[0] == '0'))
			continue;
		{
			char an[64];

			tok_text(&t[it->name], an, sizeof(an));
			rv_report_tok(e, SEV_WARNING, R_ATTR_ARRAY_UNTERMINATED, v, last,
				      eng_printf(e, "%s[] does not end with NULL: sysfs walks an attribute array until its NULL entry, so registering it reads past the end of the array; add NULL as its last entry", an));
		}
	}
}

void rv_perm_final(struct eng *e)
{
	struct rv_code *c = (struct rv_code *)rv_code_get(e);
	size_t i, n = rv_code_funcs(e, c);

	if (!c)
		return;
	for (i = 0; i < n; i++) {
		perm_function(e, &c->funcs[i]);
		devnode_function(e, &c->funcs[i]);
	}
	misc_nodes(e, c);
	attr_arrays(e, c);
}

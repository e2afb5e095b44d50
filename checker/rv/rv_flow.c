// SPDX-License-Identifier: GPL-2.0-only
/*
 * Values that come from outside the kernel, followed through a function
 * (the model of cfunc.c):
 *
 *   UNCHECKED_LENGTH  a length, count or index from user space (a copy from
 *                     user, get_user(), kstrto*() of a write, a read or
 *                     write's count, an ioctl's argument, a system call's
 *                     arguments), from the device (a HID report, a USB
 *                     transfer, an I2C/SMBus or register read) or from a
 *                     packet, used to index a fixed-size array or as the
 *                     length of a copy into (or, to user space, out of) a
 *                     fixed-size object, with no bound check in between;
 *                     a HID raw_event handler that reads data[N] without
 *                     ever comparing size
 *   LENGTH_CHECK      the same with a value from firmware tables (trusted,
 *                     at most a question)
 *   FD_UNCHECKED      CLASS(fd)/fdget() used without fd_empty()
 *   NARROW_SIZE       a size or address stored in a narrower type than its
 *                     source, then checked or used as a size
 *
 * A taint is a variable (or a member path, "hdr->len") whose value, or
 * whose pointed-to contents, came from outside.  It passes through
 * assignments and arithmetic; a comparison of it (in a condition, a
 * ternary, WARN_ON()), min()/clamp()/array_index_nospec(), a mask or a
 * modulus bounds it.  Where the code does not show enough (the sink's size
 * is unknown, the value's source is not shown), nothing is said: a
 * finding here is meant to be true.  Only what the patch changes is
 * judged: the source or the use must be on a changed line.
 */
#include "rv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfunc.h"
#include "cview.h"

#include "../banned.h"

#define FLOW_MAX_TAINTS	256
#define FLOW_MAX_CHECKS	4096

enum origin {
	OR_USER = 1,
	OR_OWNER,		/* a sysfs/debugfs store: whoever may write it */
	OR_DEVICE,
	OR_FIRMWARE,
};

struct taint {
	size_t name, plen;	/* the path's tokens */
	int contents;		/* what it points to came from outside */
	enum origin org;
	size_t src;		/* token where it became tainted */
	const char *what;	/* where it came from */
	long maxval;		/* the largest value it can have, 0: unknown */
	int dead;		/* set again from something else */
};

struct flow {
	struct eng *e;
	const struct rv_code *c;
	const struct cfunc *f;
	struct taint t[FLOW_MAX_TAINTS];
	size_t nt;
	/* tokens where a path is checked: the path's first token and length */
	struct {
		size_t name, plen, at;
	} chk[FLOW_MAX_CHECKS];
	size_t nchk;
	size_t body0;		/* the function's first token */
	int raw_event;		/* a HID raw_event handler: data / size params */
	int data_param, size_param;
	int raw_said;		/* the report's size: said once */
	int said;		/* findings made in this function */
};

static int punct(const struct ctok *t, char c)
{
	return t->kind == CTK_PUNCT && t->len == 1 && t->s[0] == c;
}

static const struct ctok *T(const struct flow *fl, size_t i)
{
	return cf_tok(fl->f, i);
}

/* The end (exclusive) of the member path that starts at identifier i:
 * a, a->b, a.b[c].d (brackets kept). */
static size_t path_end(const struct flow *fl, size_t i, size_t end)
{
	size_t k = i + 1;

	while (k < end) {
		if ((ctok_is(T(fl, k), "->") || ctok_is(T(fl, k), ".")) && k + 1 < end &&
		    T(fl, k + 1)->kind == CTK_IDENT) {
			k += 2;
			continue;
		}
		break;
	}
	return k;
}

/* Whether the path of taint x starts at token i. */
static int path_at(const struct flow *fl, const struct taint *x, size_t i, size_t end)
{
	size_t k;

	if (i + x->plen > end)
		return 0;
	if (i > fl->body0 && (ctok_is(T(fl, i - 1), "->") || ctok_is(T(fl, i - 1), ".")))
		return 0;
	for (k = 0; k < x->plen; k++)
		if (!ctok_same(T(fl, i + k), T(fl, x->name + k)))
			return 0;
	/* "a->b" is not the path "a->b->c"'s taint, but "a" is "a->b"'s
	 * contents: a plain path must end here */
	return !(i + x->plen < end && !x->contents &&
		 (ctok_is(T(fl, i + x->plen), "->") || ctok_is(T(fl, i + x->plen), ".")) &&
		 x->plen > 1);
}

static void add_check(struct flow *fl, size_t name, size_t plen, size_t at)
{
	if (fl->nchk < FLOW_MAX_CHECKS) {
		fl->chk[fl->nchk].name = name;
		fl->chk[fl->nchk].plen = plen;
		fl->chk[fl->nchk].at = at;
		fl->nchk++;
	}
}

/* Whether taint x was checked at a token in (after, before). */
static int checked(const struct flow *fl, const struct taint *x, size_t after, size_t before)
{
	size_t i, k;

	for (i = 0; i < fl->nchk; i++) {
		if (fl->chk[i].at <= after || fl->chk[i].at >= before ||
		    fl->chk[i].plen != x->plen)
			continue;
		for (k = 0; k < x->plen; k++)
			if (!ctok_same(T(fl, fl->chk[i].name + k), T(fl, x->name + k)))
				break;
		if (k == x->plen)
			return 1;
	}
	return 0;
}

static int add_taint(struct flow *fl, size_t name, size_t plen, int contents,
		     enum origin org, size_t src, const char *what)
{
	struct taint *x;
	size_t i;

	/* set again: the old taint ends */
	for (i = 0; i < fl->nt; i++)
		if (fl->t[i].plen == plen && !fl->t[i].dead &&
		    cf_same_range(fl->f, fl->t[i].name, fl->t[i].name + plen, name, name + plen))
			fl->t[i].dead = 1;
	if (fl->nt >= FLOW_MAX_TAINTS)
		return -1;
	x = &fl->t[fl->nt++];
	memset(x, 0, sizeof(*x));
	x->name = name;
	x->plen = plen;
	x->contents = contents;
	x->org = org;
	x->src = src;
	x->what = what;
	return 0;
}

static void kill_path(struct flow *fl, size_t name, size_t plen)
{
	size_t i;

	for (i = 0; i < fl->nt; i++)
		if (fl->t[i].plen == plen &&
		    cf_same_range(fl->f, fl->t[i].name, fl->t[i].name + plen, name, name + plen))
			fl->t[i].dead = 1;
}

static int bounding_call(const struct ctok *t)
{
	static const char *const names[] = {
		"min", "min_t", "umin", "clamp", "clamp_t", "clamp_val", "min3",
		"array_index_nospec", "check_*", "WARN_ON*", "BUG_ON*", "in_range",
		"FIELD_GET", "ARRAY_SIZE", "find_closest*", "max", "max_t", NULL,
	};

	return ctok_ident_in(t, names);
}

/*
 * The taint a read of tokens [a, b) carries, or -1: a tainted value, or
 * a read through tainted contents (x->f, x[i], *x).  Reads inside
 * sizeof(), bounding calls, masks and remainders carry none.
 */
static int expr_taint(struct flow *fl, size_t a, size_t b, size_t at)
{
	size_t i, k;

	for (i = a; i < b; i++) {
		const struct ctok *t = T(fl, i);

		if ((punct(t, '&') && i > a && (T(fl, i - 1)->kind == CTK_IDENT ||
						 T(fl, i - 1)->kind == CTK_NUMBER ||
						 punct(T(fl, i - 1), ')') || punct(T(fl, i - 1), ']'))) ||
		    punct(t, '%') || ctok_is(t, "&=") || ctok_is(t, "%="))
			return -1;	/* a mask or a remainder bounds it */
	}
	for (i = a; i < b; i++) {
		const struct ctok *t = T(fl, i);

		if (t->kind == CTK_IDENT && i + 1 < b && punct(T(fl, i + 1), '(') &&
		    (ctok_is(t, "sizeof") || bounding_call(t) || ctok_is(t, "typeof"))) {
			size_t m = ctok_match(fl->f->v->tb.t, i + 1, b);

			i = m < b ? m : b;
			continue;
		}
		if (t->kind != CTK_IDENT)
			continue;
		for (k = 0; k < fl->nt; k++) {
			const struct taint *x = &fl->t[k];
			size_t after;

			if (x->dead || x->src >= at || !path_at(fl, x, i, b))
				continue;
			after = i + x->plen;
			if (x->contents) {
				/* a read through it */
				if (!(after < b && (ctok_is(T(fl, after), "->") ||
						    ctok_is(T(fl, after), ".") ||
						    punct(T(fl, after), '['))) &&
				    !(i > a && punct(T(fl, i - 1), '*')))
					continue;
			}
			if (checked(fl, x, x->src, at))
				continue;
			if (x->contents) {
				/* "req.index" checked, the read is of req.index */
				struct taint m = *x;

				m.plen = path_end(fl, i, b) - i;
				m.name = i;
				if (m.plen > x->plen && checked(fl, &m, x->src, at))
					continue;
			}
			return (int)k;
		}
	}
	return -1;
}

/* ---- sources ---- */

static int param_type_has(const struct flow *fl, int v, const char *w)
{
	const struct cvar *cv = &fl->f->vars[v];
	size_t i;

	for (i = cv->type0; i < cv->type1; i++)
		if (ctok_is_ident(T(fl, i), w))
			return 1;
	return 0;
}

static const char *name_of(const struct flow *fl, char *buf, size_t cap)
{
	const struct ctok *n = cview_item_name(fl->f->v, fl->f->it);
	size_t k;

	if (!n) {
		buf[0] = '\0';
		return buf;
	}
	k = n->len < cap - 1 ? n->len : cap - 1;
	memcpy(buf, n->s, k);
	buf[k] = '\0';
	return buf;
}

/* The parameters that come from outside, by the function's shape. */
static void param_sources(struct flow *fl)
{
	const struct cfunc *f = fl->f;
	int p0 = cfunc_param_n(f, 0), p1 = cfunc_param_n(f, 1),
	    p2 = cfunc_param_n(f, 2), p3 = cfunc_param_n(f, 3);
	char name[128];

	name_of(fl, name, sizeof(name));
	/* HID raw_event(hdev, report, data, size) */
	if (p1 >= 0 && p2 >= 0 && p3 >= 0 && param_type_has(fl, p1, "hid_report") &&
	    f->vars[p2].ptr == 1 && f->vars[p3].ptr == 0) {
		fl->raw_event = 1;
		fl->data_param = p2;
		fl->size_param = p3;
		add_taint(fl, f->vars[p2].name, 1, 1, OR_DEVICE, fl->body0, "the HID report");
		return;
	}
	/* a file's write/read(file, buf, count, ppos) */
	if (p0 >= 0 && p1 >= 0 && p2 >= 0 && p3 >= 0 && param_type_has(fl, p0, "file") &&
	    (f->vars[p1].flags & CVV_USER) && param_type_has(fl, p2, "size_t") &&
	    param_type_has(fl, p3, "loff_t")) {
		add_taint(fl, f->vars[p2].name, 1, 0, OR_USER, fl->body0, "the count of the read or write");
		return;
	}
	/* an ioctl(file, cmd, arg) */
	if (p0 >= 0 && p1 >= 0 && p2 >= 0 && p3 < 0 && param_type_has(fl, p0, "file") &&
	    param_type_has(fl, p2, "long") && f->vars[p2].ptr == 0) {
		add_taint(fl, f->vars[p2].name, 1, 0, OR_USER, fl->body0, "the ioctl's argument");
		return;
	}
	/* "const char __user *buf, size_t count": the length of a user
	 * buffer, whatever the function is */
	{
		size_t i;

		for (i = 0; i + 1 < f->nvars; i++)
			if ((f->vars[i].flags & CVV_PARAM) && (f->vars[i].flags & CVV_USER) &&
			    f->vars[i].ptr && (f->vars[i + 1].flags & CVV_PARAM) &&
			    !f->vars[i + 1].ptr && param_type_has(fl, (int)i + 1, "size_t")) {
				add_taint(fl, f->vars[i + 1].name, 1, 0, OR_USER, fl->body0,
					  "the length of a user buffer");
				return;
			}
	}
	/* SYSCALL_DEFINEn(name, type, arg, ...): every argument */
	if (!strncmp(name, "SYSCALL_DEFINE", 14) || !strncmp(name, "COMPAT_SYSCALL_DEFINE", 21)) {
		size_t i;

		for (i = 0; i < f->nvars; i++)
			if ((f->vars[i].flags & CVV_PARAM) && !(f->vars[i].flags & CVV_USER))
				add_taint(fl, f->vars[i].name, 1, 0, OR_USER, fl->body0,
					  "a system call argument");
		return;
	}
	/* a hwmon write(dev, type, attr, channel, val) */
	{
		size_t i;
		int hw = 0;

		for (i = 0; i < f->nvars; i++)
			if ((f->vars[i].flags & CVV_PARAM) && param_type_has(fl, (int)i, "hwmon_sensor_types"))
				hw = 1;
		for (i = 0; hw && i < f->nvars; i++)
			if ((f->vars[i].flags & CVV_PARAM) && !f->vars[i].ptr &&
			    param_type_has(fl, (int)i, "long") && ctok_is(T(fl, f->vars[i].name), "val"))
				add_taint(fl, f->vars[i].name, 1, 0, OR_OWNER, fl->body0,
					  "the value written to the hwmon attribute");
	}
}

/* The argument of a call at open: n-th, as [*a, *b).  0 when missing. */
static int arg_n(const struct flow *fl, size_t open, size_t end, size_t n,
		 size_t *a, size_t *b)
{
	size_t aa[CFUNC_MAX_ARGS], bb[CFUNC_MAX_ARGS];
	size_t k = cf_args(fl->f, open, end, aa, bb, CFUNC_MAX_ARGS, NULL);

	if (n >= k)
		return 0;
	*a = aa[n];
	*b = bb[n];
	return 1;
}

/* An argument "&x" or "x" naming a path: its first token and length. */
static int arg_path(const struct flow *fl, size_t a, size_t b, size_t *name, size_t *plen,
		    int *addr)
{
	*addr = 0;
	if (a < b && punct(T(fl, a), '&')) {
		*addr = 1;
		a++;
	}
	if (a >= b || T(fl, a)->kind != CTK_IDENT)
		return 0;
	if (path_end(fl, a, b) != b)
		return 0;
	*name = a;
	*plen = b - a;
	return 1;
}

/* Calls that fill an object from outside: which argument, from where. */
static const struct {
	const char *fn;
	int arg;		/* the object filled */
	int value;		/* it is "&v": v's value (else its contents) */
	enum origin org;
	const char *what;
} fill_calls[] = {
	{ "copy_from_user", 0, 0, OR_USER, "copy_from_user()" },
	{ "__copy_from_user", 0, 0, OR_USER, "copy_from_user()" },
	{ "get_user", 0, 2, OR_USER, "get_user()" },
	{ "__get_user", 0, 2, OR_USER, "get_user()" },
	{ "copy_from_sockptr", 0, 0, OR_USER, "copy_from_sockptr()" },
	{ "kstrtoint", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtouint", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtol", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtoul", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtoull", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtoll", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtou8", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtou16", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtou32", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtos32", 2, 1, OR_OWNER, "the value written" },
	{ "kstrtoint_from_user", 3, 1, OR_USER, "the value user space wrote" },
	{ "kstrtouint_from_user", 3, 1, OR_USER, "the value user space wrote" },
	{ "kstrtoul_from_user", 3, 1, OR_USER, "the value user space wrote" },
	{ "regmap_read", 2, 1, OR_DEVICE, "a register read" },
	{ "regmap_bulk_read", 2, 0, OR_DEVICE, "a register read" },
	{ "regmap_raw_read", 2, 0, OR_DEVICE, "a register read" },
	{ "i2c_smbus_read_block_data", 2, 0, OR_DEVICE, "an SMBus block read" },
	{ "i2c_smbus_read_i2c_block_data", 3, 0, OR_DEVICE, "an I2C block read" },
	{ "usb_control_msg", 6, 0, OR_DEVICE, "a USB control transfer" },
	{ "usb_bulk_msg", 2, 0, OR_DEVICE, "a USB bulk transfer" },
	{ "usb_interrupt_msg", 2, 0, OR_DEVICE, "a USB interrupt transfer" },
	{ "hid_hw_raw_request", 2, 0, OR_DEVICE, "a HID report read" },
	{ "device_property_read_u32", 2, 1, OR_FIRMWARE, "a firmware property" },
	{ "device_property_read_u16", 2, 1, OR_FIRMWARE, "a firmware property" },
	{ "device_property_read_u8", 2, 1, OR_FIRMWARE, "a firmware property" },
	{ "fwnode_property_read_u32", 2, 1, OR_FIRMWARE, "a firmware property" },
	{ "of_property_read_u32", 2, 1, OR_FIRMWARE, "a device tree property" },
	{ "of_property_read_u16", 2, 1, OR_FIRMWARE, "a device tree property" },
	{ "of_property_read_u8", 2, 1, OR_FIRMWARE, "a device tree property" },
};

/* Calls whose result comes from outside. */
static const struct {
	const char *fn;
	enum origin org;
	const char *what;
	int contents;		/* the result points at outside data */
	long maxval;		/* the largest value it returns, 0: no bound */
} value_calls[] = {
	{ "i2c_smbus_read_byte_data", OR_DEVICE, "an SMBus read", 0, 0xff },
	{ "i2c_smbus_read_word_data", OR_DEVICE, "an SMBus read", 0, 0xffff },
	{ "i2c_smbus_read_byte", OR_DEVICE, "an SMBus read", 0, 0xff },
	{ "i2c_smbus_read_block_data", OR_DEVICE, "an SMBus block read's length", 0, 32 },
	{ "readl", OR_DEVICE, "a register read", 0, 0 },
	{ "readw", OR_DEVICE, "a register read", 0, 0xffff },
	{ "readb", OR_DEVICE, "a register read", 0, 0xff },
	{ "ioread32", OR_DEVICE, "a register read", 0, 0 },
	{ "ioread16", OR_DEVICE, "a register read", 0, 0xffff },
	{ "ioread8", OR_DEVICE, "a register read", 0, 0xff },
	{ "inb", OR_DEVICE, "a port read", 0, 0xff },
	{ "inw", OR_DEVICE, "a port read", 0, 0xffff },
	{ "inl", OR_DEVICE, "a port read", 0, 0 },
	{ "memdup_user", OR_USER, "memdup_user()", 1, 0 },
	{ "memdup_user_nul", OR_USER, "memdup_user()", 1, 0 },
	{ "vmemdup_user", OR_USER, "memdup_user()", 1, 0 },
	{ "nla_data", OR_USER, "a netlink attribute", 1, 0 },
};

/* Sources in the calls of statement tokens [a, b). */
static void call_sources(struct flow *fl, size_t a, size_t b)
{
	size_t i, k;

	for (i = a; i + 1 < b; i++) {
		const struct ctok *t = T(fl, i);

		if (t->kind != CTK_IDENT || !punct(T(fl, i + 1), '('))
			continue;
		if (i > a && (ctok_is(T(fl, i - 1), "->") || ctok_is(T(fl, i - 1), ".")))
			continue;
		for (k = 0; k < sizeof(fill_calls) / sizeof(fill_calls[0]); k++) {
			size_t x0, x1, name, plen;
			int addr;

			if (!ctok_is(t, fill_calls[k].fn))
				continue;
			if (!arg_n(fl, i + 1, b, (size_t)fill_calls[k].arg, &x0, &x1) ||
			    !arg_path(fl, x0, x1, &name, &plen, &addr))
				break;
			if (fill_calls[k].value == 2)	/* get_user(v, p) */
				add_taint(fl, name, plen, addr, fill_calls[k].org, i, fill_calls[k].what);
			else if (fill_calls[k].value)	/* f(..., &v) */
				add_taint(fl, name, plen, !addr, fill_calls[k].org, i, fill_calls[k].what);
			else			/* f(buf) / f(&obj) */
				add_taint(fl, name, plen, 1, fill_calls[k].org, i, fill_calls[k].what);
			break;
		}
	}
}

/* Whether [a, b) is a call to one of value_calls (first token). */
static int value_call(const struct flow *fl, size_t a, size_t b, enum origin *org,
		      const char **what, int *contents, long *maxval)
{
	size_t k;

	/* a cast first: (u8)readb(...) */
	while (a < b && punct(T(fl, a), '(')) {
		size_t m = ctok_match(fl->f->v->tb.t, a, b);

		if (m >= b)
			return 0;
		if (m + 1 < b && T(fl, m + 1)->kind == CTK_IDENT)
			a = m + 1;
		else
			break;
	}
	if (a + 1 >= b || T(fl, a)->kind != CTK_IDENT || !punct(T(fl, a + 1), '('))
		return 0;
	for (k = 0; k < sizeof(value_calls) / sizeof(value_calls[0]); k++)
		if (ctok_is(T(fl, a), value_calls[k].fn)) {
			*org = value_calls[k].org;
			*what = value_calls[k].what;
			*contents = value_calls[k].contents;
			*maxval = value_calls[k].maxval;
			return 1;
		}
	return 0;
}

/* Whether rhs [a, b) points into tainted contents: "(T *)x", "x + n",
 * "&x[n]", "x" with x's contents tainted.  The taint, or -1. */
static int pointer_into(struct flow *fl, size_t a, size_t b, size_t at)
{
	size_t i, k;

	/* skip casts */
	while (a < b && punct(T(fl, a), '(')) {
		size_t m = ctok_match(fl->f->v->tb.t, a, b);

		if (m >= b || m + 1 >= b)
			break;
		a = m + 1;
	}
	if (a < b && punct(T(fl, a), '&'))
		a++;
	if (a >= b || T(fl, a)->kind != CTK_IDENT)
		return -1;
	for (k = 0; k < fl->nt; k++) {
		const struct taint *x = &fl->t[k];

		if (x->dead || !x->contents || x->src >= at || !path_at(fl, x, a, b))
			continue;
		i = a + x->plen;
		if (i == b || punct(T(fl, i), '+') || punct(T(fl, i), '['))
			return (int)k;
	}
	return -1;
}

static int relop(const struct ctok *t)
{
	return ctok_is(t, "<") || ctok_is(t, ">") || ctok_is(t, "<=") || ctok_is(t, ">=") ||
	       ctok_is(t, "==") || ctok_is(t, "!=");
}

/*
 * The paths condition [a, b) checks: an operand of a comparison, a test
 * of its own ("if (!len)", "if (len && ...)"), a switch's value.  A path
 * that is only an argument of a call in it ("if (copy_from_user(&x, ...))")
 * is not checked by it.
 */
static void cond_checks(struct flow *fl, size_t a, size_t b, int whole)
{
	size_t i;

	for (i = a; i < b; i++) {
		size_t pe;
		const struct ctok *before, *after;

		if (T(fl, i)->kind != CTK_IDENT ||
		    (i > a && (ctok_is(T(fl, i - 1), "->") || ctok_is(T(fl, i - 1), "."))))
			continue;
		pe = path_end(fl, i, b);
		if (pe < b && punct(T(fl, pe), '('))
			continue;	/* a call's name */
		before = i > a ? T(fl, i - 1) : NULL;
		after = pe < b ? T(fl, pe) : NULL;
		/* a test against 0 bounds nothing: "x < 0", "!x", "if (x)" */
		if ((after && relop(after) && pe + 1 < b && ctok_is(T(fl, pe + 1), "0") &&
		     (pe + 2 >= b || !punct(T(fl, pe + 2), '.'))) ||
		    (before && relop(before) && i >= a + 2 && ctok_is(T(fl, i - 2), "0"))) {
			i = pe - 1;
			continue;
		}
		if (whole || (before && relop(before)) || (after && relop(after)) ||
		    /* "(len + off > max)": an operand of arithmetic compared */
		    (after && (punct(after, '+') || punct(after, '-') || punct(after, '*')) &&
		     !(before && punct(before, '(') && i > a + 1 &&
		       T(fl, i - 2)->kind == CTK_IDENT))) {
			size_t k;

			/* the path and every member path it starts */
			add_check(fl, i, pe - i, i);
			for (k = i + 1; k + 1 < pe; k += 2)
				add_check(fl, i, k - i, i);
		}
		i = pe - 1;
	}
}

/* The assignments and checks of simple statement s. */
static void flow_stmt(struct flow *fl, int s)
{
	const struct cfunc *f = fl->f;
	const struct cstmt *st = &f->st[s];
	size_t i;

	/* checks: conditions, ternaries, bounding calls */
	if (st->kind == CS_IF || st->kind == CS_WHILE || st->kind == CS_FOR ||
	    st->kind == CS_DO || st->kind == CS_SWITCH)
		cond_checks(fl, st->e0, st->e1, st->kind == CS_SWITCH);
	for (i = st->e0; i < st->e1; i++) {
		if (punct(T(fl, i), '?'))
			cond_checks(fl, st->e0, i, 0);
		if (T(fl, i)->kind == CTK_IDENT && i + 1 < st->e1 && punct(T(fl, i + 1), '(') &&
		    bounding_call(T(fl, i)) && !ctok_is_ident(T(fl, i), "ARRAY_SIZE")) {
			size_t m = ctok_match(f->v->tb.t, i + 1, st->e1), k;

			for (k = i + 2; k < m; k++)
				if (T(fl, k)->kind == CTK_IDENT)
					add_check(fl, k, path_end(fl, k, m) - k, k);
		}
	}
	call_sources(fl, st->e0, st->e1);
	if (st->kind != CS_EXPR && st->kind != CS_DECL)
		return;

	/* declarations with initialisers */
	if (st->kind == CS_DECL) {
		size_t v;

		for (v = 0; v < f->nvars; v++) {
			const struct cvar *cv = &f->vars[v];
			enum origin org;
			const char *what;
			int contents, k;
			long maxval;

			if (cv->stmt != s || cv->init0 == SIZE_MAX)
				continue;
			if (value_call(fl, cv->init0, cv->init1, &org, &what, &contents, &maxval)) {
				if (!add_taint(fl, cv->name, 1, contents, org, cv->init0, what))
					fl->t[fl->nt - 1].maxval = maxval;
				continue;
			}
			if (cv->ptr && (k = pointer_into(fl, cv->init0, cv->init1, cv->init0)) >= 0) {
				add_taint(fl, cv->name, 1, 1, fl->t[k].org, cv->init0, fl->t[k].what);
				continue;
			}
			k = expr_taint(fl, cv->init0, cv->init1, cv->init0);
			if (k >= 0 && !cv->ptr)
				add_taint(fl, cv->name, 1, 0, fl->t[k].org, cv->init0, fl->t[k].what);
		}
		return;
	}
	/* "lhs = rhs" at the statement's top level */
	{
		size_t eq = SIZE_MAX, depth = 0;

		for (i = st->e0; i < st->e1; i++) {
			const struct ctok *t = T(fl, i);

			if (punct(t, '(') || punct(t, '['))
				depth++;
			else if (punct(t, ')') || punct(t, ']'))
				depth -= depth > 0;
			else if (!depth && punct(t, '=')) {
				eq = i;
				break;
			}
		}
		if (eq != SIZE_MAX && eq > st->e0 && T(fl, st->e0)->kind == CTK_IDENT &&
		    path_end(fl, st->e0, eq) == eq) {
			size_t name = st->e0, plen = eq - st->e0;
			enum origin org;
			const char *what;
			int contents, k;
			long maxval;

			if (value_call(fl, eq + 1, st->e1, &org, &what, &contents, &maxval)) {
				if (!add_taint(fl, name, plen, contents, org, eq + 1, what))
					fl->t[fl->nt - 1].maxval = maxval;
			} else if ((k = pointer_into(fl, eq + 1, st->e1, eq + 1)) >= 0) {
				add_taint(fl, name, plen, 1, fl->t[k].org, eq + 1, fl->t[k].what);
			} else if ((k = expr_taint(fl, eq + 1, st->e1, eq + 1)) >= 0) {
				add_taint(fl, name, plen, 0, fl->t[k].org, eq + 1, fl->t[k].what);
			} else {
				kill_path(fl, name, plen);
			}
		}
	}
}

/* ---- sinks ---- */

/*
 * The size of the object tokens [a, b) name, as text, when it is fixed:
 * a local or file-scope array with a size, "&v" or "v.f" of a local
 * struct, "p->f" for an array member of a struct the patch defines.
 * NULL when it is not known.
 */
static const char *fixed_size(struct flow *fl, size_t a, size_t b, int s, int addr_ok,
			      char *buf, size_t cap)
{
	const struct cfunc *f = fl->f;
	int addr = 0, v;
	size_t pe;

	if (a < b && punct(T(fl, a), '&')) {
		addr = 1;
		a++;
	}
	if (a >= b || T(fl, a)->kind != CTK_IDENT)
		return NULL;
	pe = path_end(fl, a, b);
	if (pe != b)
		return NULL;
	v = cfunc_var(f, T(fl, a), s);
	if (b == a + 1) {
		const struct cv_item *g;

		if (v >= 0) {
			const struct cvar *cv = &f->vars[v];

			if (cv->ndims && cv->dim0 < cv->dim1 && !cv->ptr && !(cv->flags & CVV_PARAM)) {
				cf_text(f, cv->dim0, cv->dim1, buf, cap);
				return buf;
			}
			if (addr && addr_ok && !cv->ptr && !cv->ndims && !(cv->flags & CVV_PARAM)) {
				char name[64];

				cf_text(f, cv->name, cv->name + 1, name, sizeof(name));
				snprintf(buf, cap, "sizeof(%s)", name);
				return buf;
			}
			return NULL;
		}
		/* a file-scope array the patch declares with a size, or
		 * with its entries counted from the initialiser */
		g = rv_code_global(fl->c, T(fl, a));
		if (g && g->b0 != SIZE_MAX && g->name != SIZE_MAX &&
		    g->name + 1 < g->b0 && punct(T(fl, g->name + 1), '[')) {
			size_t m = ctok_match(f->v->tb.t, g->name + 1, g->b0), n = 0, k;

			if (m >= g->b0)
				return NULL;
			if (m > g->name + 2) {
				cf_text(f, g->name + 2, m, buf, cap);
				return buf;
			}
			for (k = g->in0; k < g->in1; k = k + 1) {
				if (punct(T(fl, k), '{') || punct(T(fl, k), '(') || punct(T(fl, k), '[')) {
					size_t mm = ctok_match(f->v->tb.t, k, g->in1);

					k = mm < g->in1 ? mm : g->in1;
					continue;
				}
				if (punct(T(fl, k), ','))
					n++;
			}
			if (g->in1 > g->in0 && !punct(T(fl, g->in1 - 1), ','))
				n++;
			snprintf(buf, cap, "%zu", n);
			return buf;
		}
		return NULL;
	}
	/* v.member or p->member: an array member of a struct the patch defines */
	if (b >= a + 3 && v >= 0 && f->vars[v].tag != SIZE_MAX) {
		const struct cv_item *sd = rv_code_struct(fl->c, T(fl, f->vars[v].tag));
		const struct ctok *mem = T(fl, b - 1);
		size_t i;

		if (!sd || b != a + 3)
			return NULL;
		if (ctok_is(T(fl, a + 1), ".") && f->vars[v].ptr)
			return NULL;
		if (ctok_is(T(fl, a + 1), "->") && f->vars[v].ptr != 1)
			return NULL;
		for (i = sd->in0; i + 1 < sd->in1; i++) {
			const struct ctok *t = &fl->f->v->tb.t[i];

			if (t->kind == CTK_IDENT && ctok_same(t, mem) &&
			    punct(&fl->f->v->tb.t[i + 1], '[')) {
				size_t m = ctok_match(fl->f->v->tb.t, i + 1, sd->in1);

				if (m <= i + 2 || m >= sd->in1)
					return NULL;
				cf_text(f, i + 2, m, buf, cap);
				return buf;
			}
		}
	}
	return NULL;
}

/* The entries of a fixed size as text: a number or a #define's value,
 * -1 when not known. */
static long array_entries(const struct flow *fl, const char *size)
{
	char *end;
	long n = strtol(size, &end, 0);
	size_t i;

	if (end != size && !*end)
		return n;
	/* NAME: a #define of the patch */
	for (i = 0; i < fl->c->nv->tb.n; i++) {
		const struct ctok *t = &fl->c->nv->tb.t[i];

		if (t->kind == CTK_IDENT && t->len == strlen(size) && !memcmp(t->s, size, t->len))
			return rv_code_define(fl->c, t);
	}
	return -1;
}

static const char *origin_words(enum origin o)
{
	switch (o) {
	case OR_USER:
		return "user space";
	case OR_OWNER:
		return "whoever may write the file";
	case OR_DEVICE:
		return "the device";
	case OR_FIRMWARE:
		return "firmware";
	}
	return "outside";
}

/* x is the taint, [r0, r1) the read of it at the sink (for its name),
 * tok where to report */
static void say(struct flow *fl, const struct taint *x, size_t r0, size_t r1, size_t tok,
		const char *what)
{
	struct eng *e = fl->e;
	char name[128];
	int write = strstr(what, "to write") || strstr(what, " into ");
	enum rule_id id = x->org == OR_FIRMWARE || x->org == OR_OWNER ?
			  R_LENGTH_CHECK : R_UNCHECKED_LENGTH;

	if (fl->said >= 4)
		return;
	/* only what the patch changes: the use or the source */
	if (!(T(fl, tok)->flags & CVF_CHANGED) && !(T(fl, x->src)->flags & CVF_CHANGED))
		return;
	fl->said++;
	cf_text(fl->f, r0, r1, name, sizeof(name));
	rv_report_tok(e, SEV_WARNING, id, fl->f->v, tok,
		      id == R_LENGTH_CHECK ?
		      eng_printf(e, "question: '%s' comes from %s (%s) and %s with no bound check in between: check that it cannot exceed the buffer",
				 name, origin_words(x->org), x->what, what) :
		      eng_printf(e, "'%s' comes from %s (%s) and %s with no bound check in between: a larger value %s; compare it with the size first",
				 name, origin_words(x->org), x->what, what,
				 strstr(what, "copies out") ? "reads past the object and leaks kernel memory" :
				 write ? "writes past its end" : "reads past its end"));
}

/* A loop around statement s bounded by a tainted limit: "i < n". */
static int loop_taint(struct flow *fl, int s, size_t idx0, size_t idx1, size_t at)
{
	const struct cfunc *f = fl->f;
	int p;

	if (idx1 != idx0 + 1 || T(fl, idx0)->kind != CTK_IDENT)
		return -1;
	for (p = f->st[s].parent; p >= 0; p = f->st[p].parent) {
		const struct cstmt *ps = &f->st[p];
		size_t i;

		if (ps->kind != CS_FOR && ps->kind != CS_WHILE)
			continue;
		for (i = ps->e0; i + 2 < ps->e1 + 1 && i + 1 < ps->e1; i++) {
			const struct ctok *t = T(fl, i + 1);

			if (ctok_same(T(fl, i), T(fl, idx0)) &&
			    (ctok_is(t, "<") || ctok_is(t, "<=") || ctok_is(t, "!="))) {
				size_t end = i + 2;
				int k;

				while (end < ps->e1 && !punct(T(fl, end), ';') &&
				       !ctok_is(T(fl, end), "&&") && !ctok_is(T(fl, end), "||"))
					end++;
				k = expr_taint(fl, i + 2, end, ps->t0 > at ? at : ps->t0);
				if (k >= 0)
					return k;
			}
		}
	}
	return -1;
}

/* Index and copy sinks of simple statement s. */
static void flow_sinks(struct flow *fl, int s)
{
	const struct cfunc *f = fl->f;
	const struct cstmt *st = &f->st[s];
	size_t i, a = st->e0, b = st->e1;
	char size[96];

	for (i = a; i < b; i++) {
		const struct ctok *t = T(fl, i);

		/* A[E] */
		if (punct(t, '[') && i > a && T(fl, i - 1)->kind == CTK_IDENT) {
			size_t m = ctok_match(f->v->tb.t, i, b), start = i - 1;
			int k;

			if (m >= b)
				continue;
			/* the path before '[': back over ->x / .x */
			while (start >= a + 2 && (ctok_is(T(fl, start - 1), "->") ||
						  ctok_is(T(fl, start - 1), ".")) &&
			       T(fl, start - 2)->kind == CTK_IDENT)
				start -= 2;
			/* the HID report: data[N] with size never compared */
			if (fl->raw_event && start == i - 1 &&
			    ctok_same(T(fl, start), T(fl, f->vars[fl->data_param].name)) &&
			    m == i + 2 && T(fl, i + 1)->kind == CTK_NUMBER) {
				struct taint sz;
				long n = strtol(T(fl, i + 1)->s, NULL, 0);

				memset(&sz, 0, sizeof(sz));
				sz.name = f->vars[fl->size_param].name;
				sz.plen = 1;
				if (n >= 1 && !checked(fl, &sz, fl->body0 - 1, i) &&
				    (t->flags & CVF_CHANGED) && fl->said < 4 && !fl->raw_said) {
					char dn[64], sn[64];
					long most = n;
					size_t j;

					/* one finding: the furthest byte read unchecked */
					for (j = i; j + 3 < f->it->in1; j++)
						if (ctok_same(T(fl, j), T(fl, start)) && punct(T(fl, j + 1), '[') &&
						    T(fl, j + 2)->kind == CTK_NUMBER && punct(T(fl, j + 3), ']') &&
						    !checked(fl, &sz, fl->body0 - 1, j) &&
						    strtol(T(fl, j + 2)->s, NULL, 0) > most)
							most = strtol(T(fl, j + 2)->s, NULL, 0);
					fl->said++;
					fl->raw_said = 1;
					cf_text(f, sz.name, sz.name + 1, sn, sizeof(sn));
					cf_text(f, start, i, dn, sizeof(dn));
					rv_report_tok(fl->e, SEV_WARNING, R_UNCHECKED_LENGTH, f->v, start,
						      eng_printf(fl->e, "%s[%ld] is read but '%s' is never compared first: a short report from the device (or from uhid, which any user with access can create) reads past its end; check that %s > %ld",
								 dn, most, sn, sn, most));
				}
				i = m;
				continue;
			}
			if (!fixed_size(fl, start, i, s, 0, size, sizeof(size)))
				continue;
			k = expr_taint(fl, i + 1, m, i);
			if (k < 0)
				k = loop_taint(fl, s, i + 1, m, i);
			/* a byte read indexing a table of 256: always inside */
			if (k >= 0 && fl->t[k].maxval && m == i + 2) {
				long n = array_entries(fl, size);

				if (n > fl->t[k].maxval)
					k = -1;
			}
			if (k >= 0) {
				char arr[64];
				int write = m + 1 < b && (punct(T(fl, m + 1), '=') ||
							  ctok_is(T(fl, m + 1), "+=") ||
							  ctok_is(T(fl, m + 1), "|=") ||
							  ctok_is(T(fl, m + 1), "++"));

				cf_text(f, start, i, arr, sizeof(arr));
				say(fl, &fl->t[k], i + 1, m, i - 1,
				    eng_printf(fl->e, "indexes %s[] (%s entries)%s", arr, size,
					       write ? " to write it" : ""));
			}
			continue;
		}
		/* a value user space wrote, sent to the device unclamped */
		if (t->kind == CTK_IDENT && i + 1 < b && punct(T(fl, i + 1), '(') &&
		    !(i > a && (ctok_is(T(fl, i - 1), "->") || ctok_is(T(fl, i - 1), ".")))) {
			static const struct {
				const char *fn;
				int arg;
			} writes[] = {
				{ "regmap_write", 2 }, { "i2c_smbus_write_byte_data", 2 },
				{ "i2c_smbus_write_word_data", 2 }, { "i2c_smbus_write_word_swapped", 2 },
				{ "pmbus_write_word_data", 3 }, { "pmbus_write_byte_data", 3 },
				{ "writel", 0 }, { "writew", 0 }, { "writeb", 0 }, { "iowrite32", 0 },
				{ "iowrite16", 0 }, { "iowrite8", 0 }, { "outb", 0 }, { "outw", 0 },
				{ "outl", 0 },
			};
			size_t w;

			for (w = 0; w < sizeof(writes) / sizeof(writes[0]); w++) {
				size_t v0, v1;
				int k;

				if (!ctok_is(t, writes[w].fn) ||
				    !arg_n(fl, i + 1, b, (size_t)writes[w].arg, &v0, &v1))
					continue;
				k = expr_taint(fl, v0, v1, i);
				if (k >= 0 && (fl->t[k].org == OR_OWNER || fl->t[k].org == OR_USER) &&
				    !fl->t[k].contents && fl->said < 4 &&
				    ((T(fl, i)->flags & CVF_CHANGED) || (T(fl, fl->t[k].src)->flags & CVF_CHANGED))) {
					char vn[64];

					fl->said++;
					cf_text(f, v0, v1, vn, sizeof(vn));
					rv_report_tok(fl->e, SEV_WARNING, R_UNCLAMPED_WRITE, f->v, i,
						      eng_printf(fl->e, "'%s' comes from %s (%s) and goes to the device by %.*s() with no range check: a value out of the register's range is cut or wraps; clamp it first (clamp_val())",
								 vn, origin_words(fl->t[k].org), fl->t[k].what,
								 (int)t->len, t->s));
				}
				break;
			}
		}
		/* copies: memcpy(dst, src, n), copy_from_user(dst, src, n),
		 * copy_to_user(dst, src, n) */
		if (t->kind == CTK_IDENT && i + 1 < b && punct(T(fl, i + 1), '(') &&
		    (ctok_is(t, "memcpy") || ctok_is(t, "memmove") ||
		     ctok_is(t, "copy_from_user") || ctok_is(t, "__copy_from_user") ||
		     ctok_is(t, "copy_to_user") || ctok_is(t, "__copy_to_user") ||
		     ctok_is(t, "memcpy_fromio") || ctok_is(t, "skb_copy_bits"))) {
			size_t d0, d1, s0 = 0, s1 = 0, n0, n1;
			int out = ctok_is(t, "copy_to_user") || ctok_is(t, "__copy_to_user");
			int bits = ctok_is(t, "skb_copy_bits");
			int k;

			if (bits) {
				/* skb_copy_bits(skb, offset, to, len) */
				if (!arg_n(fl, i + 1, b, 2, &d0, &d1) || !arg_n(fl, i + 1, b, 3, &n0, &n1))
					continue;
			} else if (!arg_n(fl, i + 1, b, 0, &d0, &d1) || !arg_n(fl, i + 1, b, 1, &s0, &s1) ||
				   !arg_n(fl, i + 1, b, 2, &n0, &n1)) {
				continue;
			}
			k = expr_taint(fl, n0, n1, i);
			if (k < 0)
				continue;
			if (out) {
				if (fl->t[k].org != OR_USER ||
				    !fixed_size(fl, s0, s1, s, 1, size, sizeof(size)))
					continue;
				say(fl, &fl->t[k], n0, n1, i, eng_printf(fl->e, "is the length %.*s() copies out of an object of %s bytes", (int)t->len, t->s, size));
			} else {
				if (!fixed_size(fl, d0, d1, s, 1, size, sizeof(size)))
					continue;
				say(fl, &fl->t[k], n0, n1, i, eng_printf(fl->e, "is the length %.*s() copies into an object of %s bytes", (int)t->len, t->s, size));
			}
		}
	}
}

/* ---- FD_UNCHECKED ---- */

static void fd_rule(struct flow *fl)
{
	const struct cfunc *f = fl->f;
	size_t i, n = f->it->in1;

	for (i = fl->body0; i + 6 < n; i++) {
		size_t var = SIZE_MAX, k, end;
		int ok = 0;

		/* CLASS(fd, f)(n) / CLASS(fd_raw, f)(n) */
		if (ctok_is_ident(T(fl, i), "CLASS") && punct(T(fl, i + 1), '(') &&
		    (ctok_is_ident(T(fl, i + 2), "fd") || ctok_is_ident(T(fl, i + 2), "fd_raw") ||
		     ctok_is_ident(T(fl, i + 2), "fd_pos")) &&
		    punct(T(fl, i + 3), ',') && T(fl, i + 4)->kind == CTK_IDENT)
			var = i + 4;
		/* struct fd f = fdget(n); */
		else if (ctok_is_ident(T(fl, i), "fd") && i > fl->body0 &&
			 ctok_is_ident(T(fl, i - 1), "struct") && T(fl, i + 1)->kind == CTK_IDENT &&
			 punct(T(fl, i + 2), '=') && ctok_ident_prefix(T(fl, i + 3), "fdget"))
			var = i + 1;
		if (var == SIZE_MAX || !(T(fl, var)->flags & CVF_CHANGED))
			continue;
		end = n;
		for (k = var + 1; k + 3 < end && !ok; k++) {
			const struct ctok *t = T(fl, k);

			/* fd_empty(f), "!fd_file(f)" or "f.file" in a test */
			if ((ctok_is_ident(t, "fd_empty") && punct(T(fl, k + 1), '(') &&
			     ctok_same(T(fl, k + 2), T(fl, var))) ||
			    (punct(t, '!') && ctok_is_ident(T(fl, k + 1), "fd_file") &&
			     ctok_same(T(fl, k + 3), T(fl, var))) ||
			    (punct(t, '!') && ctok_same(T(fl, k + 1), T(fl, var)) &&
			     ctok_is(T(fl, k + 2), ".") && ctok_is_ident(T(fl, k + 3), "file"))) {
				ok = 1;
				break;
			}
			/* a use: fd_file(f)->x, f.file->x, or fd_file(f) passed on */
			if ((ctok_is_ident(t, "fd_file") && punct(T(fl, k + 1), '(') &&
			     ctok_same(T(fl, k + 2), T(fl, var)) && punct(T(fl, k + 3), ')')) ||
			    (ctok_same(t, T(fl, var)) && ctok_is(T(fl, k + 1), ".") &&
			     ctok_is_ident(T(fl, k + 2), "file") && ctok_is(T(fl, k + 3), "->"))) {
				int s = cfunc_stmt_at(f, k);

				/* "if (fd_file(f))" and "fd_file(f) ? :" test it */
				if (s >= 0 && (f->st[s].kind == CS_IF || f->st[s].kind == CS_WHILE) &&
				    k >= f->st[s].e0 && k < f->st[s].e1 &&
				    !ctok_is(T(fl, k + 4), "->")) {
					ok = 1;
					break;
				}
				if (fl->said < 4) {
					char vn[64];

					fl->said++;
					cf_text(f, var, var + 1, vn, sizeof(vn));
					rv_report_tok(fl->e, SEV_WARNING, R_FD_UNCHECKED, f->v, k,
						      eng_printf(fl->e, "'%s' holds the file of a descriptor number from user space, and it is used here without fd_empty(%s): for a closed or bad descriptor fd_file() is NULL, so any user can make this dereference NULL; return -EBADF when fd_empty(%s)",
								 vn, vn, vn));
				}
				ok = 1;
			}
		}
	}
}

/* ---- NARROW_SIZE ---- */

static int type_bits(const struct flow *fl, size_t a, size_t b)
{
	size_t i;
	int longs = 0, bits = 0, unsig = 0;

	for (i = a; i < b; i++) {
		const struct ctok *t = T(fl, i);

		if (punct(t, '*'))
			return 64;
		if (ctok_is(t, "long"))
			longs++;
		else if (ctok_is(t, "unsigned"))
			unsig = 1;
		else if (ctok_is(t, "u8") || ctok_is(t, "__u8") || ctok_is(t, "s8") || ctok_is(t, "char"))
			bits = 8;
		else if (ctok_is(t, "u16") || ctok_is(t, "__u16") || ctok_is(t, "s16") ||
			 ctok_is(t, "short") || ctok_is(t, "__le16") || ctok_is(t, "__be16"))
			bits = 16;
		else if (ctok_is(t, "u32") || ctok_is(t, "__u32") || ctok_is(t, "s32") ||
			 ctok_is(t, "int") || ctok_is(t, "__s32"))
			bits = bits ? bits : 32;
		else if (ctok_is(t, "u64") || ctok_is(t, "__u64") || ctok_is(t, "s64") ||
			 ctok_is(t, "size_t") || ctok_is(t, "ssize_t") || ctok_is(t, "loff_t") ||
			 ctok_is(t, "resource_size_t") || ctok_is(t, "phys_addr_t") ||
			 ctok_is(t, "dma_addr_t") || ctok_is(t, "uintptr_t"))
			bits = 64;
	}
	if (longs)
		return 64;
	if (!bits && unsig)
		return 32;
	return bits;
}

/* The width of what [a, b) reads, when known: a variable, a vma field. */
static int source_bits(const struct flow *fl, int s, size_t a, size_t b, const char **what)
{
	int v;

	*what = NULL;
	if (b == a + 3 && (ctok_is(T(fl, a + 1), "->") || ctok_is(T(fl, a + 1), ".")) &&
	    (ctok_is_ident(T(fl, a + 2), "vm_start") || ctok_is_ident(T(fl, a + 2), "vm_end") ||
	     ctok_is_ident(T(fl, a + 2), "vm_pgoff"))) {
		*what = "an address (unsigned long)";
		return 64;
	}
	if (b == a + 1 && T(fl, a)->kind == CTK_IDENT && (v = cfunc_var(fl->f, T(fl, a), s)) >= 0) {
		const struct cvar *cv = &fl->f->vars[v];
		int bits = type_bits(fl, cv->type0, cv->type1);

		if (cv->ptr || cv->ndims)
			return 0;
		*what = bits == 64 ? "a 64-bit size" : "a wider value";
		return bits;
	}
	return 0;
}

static int sizeish_name(struct eng *e, const struct ctok *t)
{
	return rv_ident_says(e, t, "(?i)len|size|count|cnt|off|addr|start|end|pos|bytes|num|nr");
}

static void narrow_rule(struct flow *fl)
{
	const struct cfunc *f = fl->f;
	size_t v;

	for (v = 0; v < f->nvars; v++) {
		const struct cvar *cv = &f->vars[v];
		size_t a, b = 0, k;
		int dbits, sbits, s = cv->stmt;
		const char *what;

		if (cv->flags & CVV_PARAM || cv->ptr || cv->ndims || s < 0)
			continue;
		dbits = type_bits(fl, cv->type0, cv->type1);
		if (!dbits || dbits >= 64 || !sizeish_name(fl->e, T(fl, cv->name)))
			continue;
		/* its initialiser, or its first assignment */
		a = cv->init0;
		if (a != SIZE_MAX) {
			b = cv->init1;
		} else {
			for (k = f->st[s].t1; k + 2 < f->it->in1; k++)
				if (ctok_same(T(fl, k), T(fl, cv->name)) && punct(T(fl, k + 1), '=') &&
				    (k == 0 || punct(T(fl, k - 1), ';') || punct(T(fl, k - 1), '{') ||
				     punct(T(fl, k - 1), '}'))) {
					a = k + 2;
					for (b = a; b < f->it->in1 && !punct(T(fl, b), ';'); b++)
						;
					break;
				}
			if (a == SIZE_MAX)
				continue;
		}
		if (!cf_changed(f, a, b))
			continue;
		sbits = source_bits(fl, s, a, b, &what);
		if (!sbits || sbits <= dbits)
			continue;
		/* an address, or a value from outside: a value the kernel
		 * computes itself is the author's to know */
		if (strncmp(what, "an address", 10)) {
			int k0 = expr_taint(fl, a, b, a);

			if (k0 < 0 || fl->t[k0].org == OR_FIRMWARE)
				continue;
			what = fl->t[k0].what;
		}
		/* then checked or used as a size: a comparison or a copy's length */
		for (k = b; k < f->it->in1; k++) {
			const struct ctok *t = T(fl, k);

			if (!ctok_same(t, T(fl, cv->name)) ||
			    ctok_is(T(fl, k - 1), ".") || ctok_is(T(fl, k - 1), "->"))
				continue;
			if ((k + 1 < f->it->in1 && (ctok_is(T(fl, k + 1), "<") || ctok_is(T(fl, k + 1), ">") ||
						    ctok_is(T(fl, k + 1), "<=") || ctok_is(T(fl, k + 1), ">="))) ||
			    ctok_is(T(fl, k - 1), "<") || ctok_is(T(fl, k - 1), ">") ||
			    ctok_is(T(fl, k - 1), "<=") || ctok_is(T(fl, k - 1), ">=")) {
				char vn[64], src[96];

				cf_text(f, cv->name, cv->name + 1, vn, sizeof(vn));
				cf_text(f, a, b, src, sizeof(src));
				if (fl->said < 4) {
					fl->said++;
					rv_report_tok(fl->e, SEV_WARNING, R_NARROW_SIZE, f->v, a,
						      eng_printf(fl->e, "'%s' is %d bits wide but holds '%s' (%s): the comparison below sees the value cut to %d bits, so a large one passes it; declare it with the source's type",
								 vn, dbits, src, what, dbits));
				}
				break;
			}
		}
	}
}

static void flow_function(struct eng *e, const struct rv_code *c, const struct cfunc *f)
{
	struct flow *fl = calloc(1, sizeof(*fl));
	size_t i;

	if (!fl) {
		e->failed = 1;
		return;
	}
	fl->e = e;
	fl->c = c;
	fl->f = f;
	fl->body0 = f->it->in0;
	param_sources(fl);
	for (i = 0; i < f->nst; i++) {
		if (f->st[i].kind == CS_BLOCK)
			continue;
		/* uses first: "x = buf[x]" reads the old x */
		flow_sinks(fl, (int)i);
		flow_stmt(fl, (int)i);
	}
	fd_rule(fl);
	narrow_rule(fl);
	free(fl);
}

void rv_flow_final(struct eng *e)
{
	struct rv_code *c = (struct rv_code *)rv_code_get(e);
	size_t i, n = rv_code_funcs(e, c);

	for (i = 0; i < n; i++)
		flow_function(e, c, &c->funcs[i]);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot's user-space interface checks: every added line that creates
 * something user space can see (a uapi header, an ioctl number or handler,
 * a sysfs, procfs or configfs file, a character device, a system call, a
 * netlink family, a module parameter, a socket option) is reported where
 * it is created, because once a kernel with it is released user space may
 * depend on it and it can never be changed or removed.  After the last
 * line, what is said once per file or per interface is reported: sysfs
 * attributes (and those added without a Documentation/ABI/ entry), ioctl
 * commands, system calls (one per call, however many tables number it),
 * new cases of an existing ioctl or sockopt handler.
 *
 * Only added lines of C files are matched (removed ones for UAPI_REMOVED,
 * context lines for what a macro or a HWMON_CHANNEL_INFO() spans), on the
 * sanitised line (comments and string contents masked), so a name in a
 * comment or string stays quiet.  A macro's body creates nothing until it
 * is used: a function-like macro that wraps DEVICE_ATTR() or _IOW() makes
 * its uses attributes or ioctl commands (the patch's own wrappers, and
 * hwmon's SENSOR_DEVICE_ATTR*), never its parameters.
 *
 * Beyond include/uapi/, the Bluetooth headers that define the AF_BLUETOOTH
 * socket and mgmt wire ABI that BlueZ mirrors (include/net/bluetooth/
 * mgmt.h and hci_mon.h whole; bluetooth.h, hci.h, l2cap.h, rfcomm.h and
 * sco.h for their socket-option, protocol and packet-type names) are read
 * like uapi headers.
 */
#include "rv.h"

#include <stdlib.h>
#include <string.h>

#include "../banned.h"

#define UAPI_MAX_ATTRS	256		/* sysfs attributes remembered */
#define UAPI_MAX_FILES	256		/* uapi files without an added line */
#define UAPI_MAX_ABI	(1u << 20)	/* Documentation/ABI/ text kept */
#define UAPI_MAX_NAMES	8		/* attribute names in one message */
#define UAPI_NEAR	400		/* lines searched for a removed twin */
#define UAPI_MAX_WRAPS	64		/* the patch's wrapper macros */
#define UAPI_MAX_ITEMS	512		/* ioctls, cases, syscalls remembered */
#define UAPI_MAX_WORDS	256		/* ioctl types, module parameters */
#define UAPI_MSG_BUDGET	440		/* bytes of a finding's names and text:
					 * the review shows 512 of a message */
#define UAPI_MAX_MACRO	64		/* lines of one macro read */
#define UAPI_MAX_NAMES_ABI 2048		/* #defines added to uapi headers kept */

/* where a finding goes when it is reported after the last line */
struct uapi_loc {
	long linenr;		/* line in the patch */
	long realline;		/* line in the new file, 0 for a header */
	char *file;
	char *rawline;
	char *name;		/* the attribute's (command's...) name, or NULL */
	char *func;		/* the handler a case is in, or NULL */
	int deleted;		/* a uapi file the patch deletes */
	int flags;		/* ATTR_*, IOC_*, SC_* */
};

#define ATTR_BIN	1	/* BIN_ATTR*: raw bytes */
#define ATTR_WRITE	2	/* writable */
#define ATTR_HWMON	4	/* a hwmon device's attribute */
#define ATTR_STD	8	/* ... with a name of sysfs-interface.rst */

#define IOC_NOARG	1	/* _IO(): no argument */

#define SC_DEFINE	1	/* SYSCALL_DEFINEn */
#define SC_TABLE	2	/* a syscall table's line */
#define SC_UNISTD	4	/* a unistd.h number */

/* a function-like macro of the patch wrapping an interface macro */
enum { WRAP_ATTR, WRAP_IOC };
struct uapi_wrap {
	char *name;
	int kind;
	int arg;		/* WRAP_ATTR: the parameter naming the attribute */
	char *pre, *suf;	/* ... pasted around it (a##_name##b) */
	int noarg;		/* WRAP_IOC: wraps _IO() only */
	int hwmon;		/* wraps SENSOR_*ATTR* */
	int writable;		/* ... an _RW or _WO one */
};

/* What a uapi header's hunks change, said in its UAPI_HEADER finding. */
enum { SAY_DEF_ADD, SAY_DEF_CHG, SAY_DEF_DEL, SAY_TYPE_ADD, SAY_ENUM_APPEND,
       SAY_ENUM_INSERT, SAY_ENUM_DEL, SAY_FIELD_ADD, SAY_FIELD_DEL, SAY_OTHER,
       SAY__COUNT };

/* Bluetooth ABI headers: read whole, or only the names of socket ABI */
enum { BT_NONE, BT_WHOLE, BT_NAMES };

struct rv_uapi {
	long last_linenr;	/* the last line rv_uapi_line() saw */
	char *path;		/* the current file (the old name if deleted) */
	long hdr_linenr;	/* its "+++ " line */
	int is_c, is_uapi, uapi_done, is_tbl, is_unistd, is_netlink_h, is_abi;
	int is_hwdoc, is_hwmon, bt;
	const char *bt_names;	/* BT_NAMES: the names that are ABI */
	int deleted, is_new;

	/* read once, before the first line */
	int scanned;
	unsigned char *side;	/* per line: '+', '-', ' ' in a hunk, else 0 */
	int to_linux_api;	/* the mail went to linux-api@vger.kernel.org */
	int by_default;		/* the subject says something is now on/off by default */
	int default_said;
	struct uapi_loc default_at;	/* the first added line of C code */
	struct uapi_wrap wraps[UAPI_MAX_WRAPS];
	size_t nwraps;
	char *ioc_types[UAPI_MAX_WORDS];	/* first arguments of _IO*() */
	size_t ntypes;
	char *params[UAPI_MAX_WORDS];	/* variables existing module_param*()s name */
	size_t nparams;
	char *triggers[UAPI_MAX_WORDS];	/* struct led_trigger the patch defines */
	size_t ntriggers;
	char *abi_names[UAPI_MAX_NAMES_ABI];	/* #defines added to uapi headers */
	size_t nabi_names;

	struct uapi_loc files[UAPI_MAX_FILES];	/* uapi, no added line */
	size_t nfiles;
	struct uapi_loc attrs[UAPI_MAX_ATTRS];	/* named sysfs attributes */
	size_t nattrs;
	struct uapi_loc reg;	/* first sysfs registration (no name) */
	int has_reg;
	struct sbuf abi;	/* added Documentation/ABI/ lines */
	int has_abi;
	struct sbuf hwdoc;	/* added Documentation/hwmon/ lines */

	struct uapi_loc iocs[UAPI_MAX_ITEMS];	/* new ioctl commands */
	size_t niocs;
	struct uapi_loc cases[UAPI_MAX_ITEMS];	/* new cases of old handlers */
	size_t ncases;
	struct uapi_loc calls[UAPI_MAX_ITEMS];	/* new system calls */
	size_t ncalls;
	struct uapi_loc sysctls[UAPI_MAX_ITEMS];	/* new sysctls */
	size_t nsysctls;
	struct uapi_loc removed[UAPI_MAX_ITEMS];	/* interfaces removed */
	size_t nremoved;
	char *hw_file;		/* the file hw_new and hw_old are of */
	struct sbuf hw_new;	/* its new side's HWMON_CHANNEL_INFO() attributes */
	struct sbuf hw_old;	/* its old side's attributes (file_attrs()) */

	/* the current uapi header: what its changed lines do */
	struct sbuf said[SAY__COUNT];	/* names, each ending in '\0' */
	size_t nsaid[SAY__COUNT];
	struct uapi_loc hdr_first;	/* its first changed line */
	int hdr_changed;

	/* write handlers the patch adds (procfs, character devices) */
	struct uapi_loc writers[UAPI_MAX_ATTRS];
	size_t nwriters;
};

static void loc_free(struct uapi_loc *l)
{
	free(l->file);
	free(l->rawline);
	free(l->name);
	free(l->func);
	memset(l, 0, sizeof(*l));
}

static int loc_set(struct eng *e, struct uapi_loc *l, long linenr,
		   long realline, const char *file, const char *rawline,
		   const char *name, size_t name_len)
{
	loc_free(l);
	l->linenr = linenr;
	l->realline = realline;
	l->file = strdup(file);
	l->rawline = strdup(rawline);
	l->name = name ? strndup(name, name_len) : NULL;
	if (!l->file || !l->rawline || (name && !l->name)) {
		loc_free(l);
		e->failed = 1;
		return -1;
	}
	return 0;
}

/* Remembers the current line in list[*n] (up to max), named name. */
static struct uapi_loc *loc_add(struct eng *e, struct uapi_loc *list, size_t *n,
				size_t max, const char *name)
{
	struct uapi_loc *l;

	if (*n >= max)
		return NULL;
	l = &list[*n];
	if (loc_set(e, l, e->linenr, e->realline, e->realfile.buf, e->rawline,
		    name, name ? strlen(name) : 0))
		return NULL;
	(*n)++;
	return l;
}

static void scan_input(struct eng *e, struct rv_uapi *st);
static int bt_header(const char *path, const char **names);

static struct rv_uapi *st_get(struct eng *e)
{
	if (!e->rv_uapi) {
		e->rv_uapi = calloc(1, sizeof(*e->rv_uapi));
		if (!e->rv_uapi) {
			e->failed = 1;
			return NULL;
		}
		sbuf_init(&e->rv_uapi->abi, UAPI_MAX_ABI);
		sbuf_init(&e->rv_uapi->hwdoc, UAPI_MAX_ABI);
		sbuf_init(&e->rv_uapi->hw_new, 1u << 20);
		sbuf_init(&e->rv_uapi->hw_old, 1u << 20);
		for (int k = 0; k < SAY__COUNT; k++)
			sbuf_init(&e->rv_uapi->said[k], 4096);
	}
	if (!e->rv_uapi->scanned)
		scan_input(e, e->rv_uapi);
	return e->rv_uapi;
}

static int is_ident(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* Whether word occurs in text as a whole C identifier (or quoted name). */
static int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p = text;

	if (!n)
		return 0;
	while ((p = strstr(p, word))) {
		if ((p == text || !is_ident(p[-1])) && !is_ident(p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static int in_words(char *const *v, size_t n, const char *w)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], w))
			return 1;
	return 0;
}

/* ---- the input, read once ---- */

/*
 * Each line's place in a hunk, from the hunk headers' counts: the
 * engine's hunk_line ends a hunk at its last new-side line, so removed
 * lines that end a file (a module_param() deleted at its bottom) would
 * not be seen.
 */
static void scan_sides(struct eng *e, struct rv_uapi *st)
{
	long o = 0, n = 0;
	int files = 0;
	size_t i;
	struct re_m m;

	st->side = calloc(e->nlines ? e->nlines : 1, 1);
	if (!st->side) {
		e->failed = 1;
		return;
	}
	for (i = 0; i < e->nlines; i++) {
		const char *r = e->rawlines[i];

		/* a hunk whose counts are short ends at the next header */
		if (!strncmp(r, "@@ -", 4) || !strncmp(r, "diff --git ", 11))
			o = n = 0;
		if (o <= 0 && n <= 0) {
			o = n = 0;
			if (!strncmp(r, "+++ ", 4))
				files = 1;
			else if (files && !strncmp(r, "@@ -", 4) &&
				 re_match(e->rc, "^@@ -\\d+(?:,(\\d+))? \\+\\d+(?:,(\\d+))? @@", r, &m)) {
				o = re_cap(&m, 1, NULL) ? strtol(eng_mcap(e, &m, 1), NULL, 10) : 1;
				n = re_cap(&m, 2, NULL) ? strtol(eng_mcap(e, &m, 2), NULL, 10) : 1;
			}
			continue;
		}
		if (r[0] == '+') {
			n--;
		} else if (r[0] == '-') {
			o--;
		} else if (r[0] == ' ' || !r[0]) {
			o--;
			n--;
		} else if (r[0] == '\\') {
			continue;
		} else {
			o = n = 0;
			continue;
		}
		st->side[i] = r[0] ? (unsigned char)r[0] : ' ';
	}
}

/* The line a macro's body line idx continues (its #define), or -1. */
static long macro_start(struct eng *e, long idx, char side)
{
	char other = side == '+' ? '-' : '+';
	long k = idx - 1, n = 0;

	for (;;) {
		while (k >= 0 && e->lines[k][0] == other)
			k--;
		if (k < 0 || !MQ(e, "\\\\\\s*$", e->lines[k]) || ++n > UAPI_MAX_MACRO)
			return -1;
		if (MQ(e, "^.\\s*#\\s*define\\s", e->lines[k]))
			return k;
		k--;
	}
}

/*
 * A macro's text from its #define at idx, its lines joined (new side),
 * into sb (heap memory: read before the first line is checked, when the
 * per-line arena holds the engine's strings of that line).
 */
static void macro_text(struct eng *e, long idx, struct sbuf *sb)
{
	long k = idx, n = 0;

	sbuf_reset(sb);
	sbuf_addstr(sb, e->lines[idx] + 1);
	while (MQ(e, "\\\\\\s*$", e->lines[k]) && n++ < UAPI_MAX_MACRO) {
		do
			k++;
		while ((size_t)k < e->nlines && e->lines[k][0] == '-');
		if ((size_t)k >= e->nlines ||
		    (e->lines[k][0] != '+' && e->lines[k][0] != ' '))
			break;
		sbuf_addch(sb, ' ');
		sbuf_addstr(sb, e->lines[k] + 1);
	}
}

/* sysfs attribute macros: capture 1 the macro, 2 its first argument */
#define ATTR_MACRO "\\b((?:DEVICE|DRIVER|CLASS|BUS)_ATTR(?:_\\w+)?|__ATTR(?:_(?!NULL\\b)\\w+)?|(?:__)?BIN_ATTR(?:_\\w+)?|SENSOR_(?:DEVICE_)?ATTR(?:_\\w+)?)\\s*\\(\\s*((?:\\w+\\s*##\\s*)*\\w+(?:\\s*##\\s*\\w+)*)"
/* an ioctl number: capture 1 the macro */
#define IOC_MACRO "\\b(_IO(?:WR|R|W)?|_IOC|DRM_IO(?:WR|R|W)?)\\s*\\("

/* s[0, n) without its blanks and '#'s, as a heap string */
static char *bare_dup(const char *s, size_t n)
{
	char *r = malloc(n + 1), *w = r;
	size_t i;

	if (!r)
		return NULL;
	for (i = 0; i < n; i++)
		if (!rv_is_blank((unsigned char)s[i]) && s[i] != '#')
			*w++ = s[i];
	*w = '\0';
	return r;
}

/*
 * A function-like macro of the new side at idx that wraps an attribute
 * or an ioctl macro: remembered, so its uses are found.  (No arena: see
 * macro_text().)
 */
static void scan_wrapper(struct eng *e, struct rv_uapi *st, long idx,
			 struct sbuf *sb)
{
	struct re_m m, a;
	const char *text, *p, *arg;
	size_t name_len, plen, arg_len, body;
	struct uapi_wrap *w;
	char *params;
	int i;

	if (st->nwraps >= UAPI_MAX_WRAPS)
		return;
	macro_text(e, idx, sb);
	if (sb->err || !re_match(e->rc, "^\\s*#\\s*define\\s+(\\w+)\\(([^)]*)\\)", sb->buf, &m))
		return;
	text = sb->buf;
	body = re_end(&m, 0);
	w = &st->wraps[st->nwraps];
	memset(w, 0, sizeof(*w));
	if (re_find(e->rc, ATTR_MACRO, text, sb->len, body, &a)) {
		w->kind = WRAP_ATTR;
		w->hwmon = !strncmp(text + re_start(&a, 1), "SENSOR_", 7);
		w->writable = MQ(e, "\\b\\w*_?ATTR(?:_2)?_(?:RW|WO|ADMIN_RW|WO_\\w*|RW_\\w*)\\s*\\(", text + body);
		arg = re_cap(&a, 2, &arg_len);
		p = re_cap(&m, 2, &plen);
		params = bare_dup(p, plen);
		if (!params) {
			e->failed = 1;
			return;
		}
		w->arg = -1;
		/* the parameter that makes (or is pasted into) the name */
		for (p = params, i = 0; *p && w->arg < 0; i++) {
			size_t tn = strcspn(p, ","), k;

			for (k = 0; tn && k + tn <= arg_len; k++) {
				const char *at = arg + k;

				if (strncmp(at, p, tn) || (k && is_ident(at[-1])) ||
				    (k + tn < arg_len && is_ident(at[tn])))
					continue;
				w->arg = i;
				w->pre = bare_dup(arg, k);
				w->suf = bare_dup(at + tn, arg_len - k - tn);
				break;
			}
			p += tn + (p[tn] == ',');
		}
		free(params);
		if (w->arg < 0 || !w->pre || !w->suf) {
			free(w->pre);
			free(w->suf);
			return;	/* a fixed name: the macro's own line says it */
		}
	} else if (re_find(e->rc, IOC_MACRO, text, sb->len, body, &a)) {
		w->kind = WRAP_IOC;
		w->noarg = !re_find(e->rc, "\\b(?:_IO(?:WR|R|W|C)|DRM_IO(?:WR|R|W))\\s*\\(",
				    text, sb->len, body, NULL);
	} else {
		return;
	}
	p = re_cap(&m, 1, &name_len);
	w->name = strndup(p, name_len);
	if (!w->name) {
		free(w->pre);
		free(w->suf);
		e->failed = 1;
		return;
	}
	st->nwraps++;
}

static const struct uapi_wrap *wrap_find(struct rv_uapi *st, const char *name, int kind)
{
	size_t i;

	for (i = 0; i < st->nwraps; i++)
		if (st->wraps[i].kind == kind && !strcmp(st->wraps[i].name, name))
			return &st->wraps[i];
	return NULL;
}

/* Adds s[0, n) to the words v (once; up to UAPI_MAX_WORDS). */
static void add_wordn(struct eng *e, char **v, size_t *nv, const char *s, size_t n)
{
	char *w;

	if (*nv >= UAPI_MAX_WORDS || !s || !n)
		return;
	w = strndup(s, n);
	if (!w) {
		e->failed = 1;
		return;
	}
	if (in_words(v, *nv, w))
		free(w);
	else
		v[(*nv)++] = w;
}

/*
 * What the whole input says before its lines are checked: the hunks'
 * sides, the mail's recipients, the subject, the patch's wrapper macros,
 * the first arguments of _IO*() (ioctl types, not commands) and the
 * variables module_param*() makes parameters.  Nothing here may use the
 * per-line arena: it runs on the first line, whose engine strings live
 * there.
 */
static void scan_input(struct eng *e, struct rv_uapi *st)
{
	size_t i, n;
	int in_rcpt = 0, body = 0, tries = 0, abi_file = 0;
	const char *dummy;
	struct sbuf sb;
	struct re_m m;
	const char *p;

	st->scanned = 1;
	scan_sides(e, st);
	if (!st->side)
		return;
	sbuf_init(&sb, 1u << 16);
	for (i = 0; i < e->nlines && !e->failed; i++) {
		const char *r = e->rawlines[i], *l = e->lines[i];

		if (!st->side[i]) {
			if (!strncmp(r, "diff --git ", 11))
				body = 1;
			if (!strncmp(r, "+++ ", 4)) {
				const char *path = r + 4 + strcspn(r + 4, "/");

				path += *path == '/';
				abi_file = MQ(e, "^(?:arch/[^/]+/)?include/uapi/", path) ||
					   bt_header(path, &dummy) != BT_NONE;
			}
			if (body)
				continue;
			/* To: and Cc: headers, folded, and Cc: tags */
			if (MQ(e, "(?i)^(?:to|cc):", r))
				in_rcpt = 1;
			else if (r[0] != ' ' && r[0] != '\t')
				in_rcpt = 0;
			if (in_rcpt && MQ(e, "(?i)\\blinux-api@vger\\.kernel\\.org\\b", r))
				st->to_linux_api = 1;
			if (MQ(e, "(?i)^Subject:.*\\b(?:enabl\\w*|disabl\\w*|turn\\w*\\s+(?:on|off)|switch\\w*\\s+(?:on|off))\\b.*\\bby\\s+default\\b|^Subject:.*\\bchang\\w*\\s+(?:the\\s+)?default\\b", r))
				st->by_default = 1;
			continue;
		}
		if (st->side[i] == '-')
			continue;
		/* a name the header's finding says: its handlers' cases are
		 * not said again */
		if (abi_file && st->side[i] == '+' &&
		    re_match(e->rc, "^\\+\\s*#\\s*define\\s+(\\w+)", l, &m) &&
		    st->nabi_names < UAPI_MAX_NAMES_ABI) {
			p = re_cap(&m, 1, &n);
			if (!(st->abi_names[st->nabi_names] = strndup(p, n)))
				e->failed = 1;
			else
				st->nabi_names++;
		}
		if (tries < 4 * UAPI_MAX_WRAPS && MQ(e, "^.\\s*#\\s*define\\s+\\w+\\(", l)) {
			long k = (long)i, nl = 0;
			int found = 0;

			/* look before building its text */
			do {
				found = MQ(e, ATTR_MACRO, e->lines[k]) || MQ(e, IOC_MACRO, e->lines[k]);
			} while (!found && MQ(e, "\\\\\\s*$", e->lines[k]) &&
				 (size_t)++k < e->nlines && ++nl < UAPI_MAX_MACRO);
			if (found) {
				tries++;
				scan_wrapper(e, st, (long)i, &sb);
			}
		}
		/* the names inside _IO*() and DRM_IO*(): an ioctl's type or
		 * number, parts of a command, not commands */
		{
			size_t pos = 0, len = strlen(l);
			int guard;

			for (guard = 0; guard < 8 &&
			     re_find(e->rc, "\\b(?:_IO(?:WR|R|W)?|_IOC|DRM_IO(?:WR|R|W)?)\\s*\\(([^)]*)", l, len, pos, &m); guard++) {
				const char *q = re_cap(&m, 1, &n), *end = q + n;

				pos = re_end(&m, 0);
				while (q < end) {
					size_t w = 0;

					while (q + w < end && rv_is_ident((unsigned char)q[w]))
						w++;
					if (w && !(q[0] >= '0' && q[0] <= '9'))
						add_wordn(e, st->ioc_types, &st->ntypes, q, w);
					q += w ? w : 1;
				}
			}
		}
		/* module_param_named(name, variable, ...) of a parameter
		 * that exists (a context line): its default can change */
		if (st->side[i] == ' ' &&
		    (re_match(e->rc, "\\b(?:module|core)_param\\w*named\\w*\\s*\\(\\s*\\w+\\s*,\\s*(\\w+)", l, &m) ||
		     re_match(e->rc, "\\b(?:module|core)_param\\w*\\s*\\(\\s*(\\w+)", l, &m))) {
			p = re_cap(&m, 1, &n);
			add_wordn(e, st->params, &st->nparams, p, n);
		}
	}
	sbuf_release(&sb);
}

/* ---- files ---- */

/* A uapi file whose hunks added nothing: report it on its header later. */
static void uapi_header_report(struct eng *e, struct rv_uapi *st);

static void file_end(struct eng *e, struct rv_uapi *st)
{
	struct uapi_loc *l;

	uapi_header_report(e, st);

	if (!st->path || !st->is_uapi || st->uapi_done ||
	    st->nfiles >= UAPI_MAX_FILES || st->hdr_linenr <= 0)
		return;
	l = &st->files[st->nfiles];
	if (!loc_set(e, l, st->hdr_linenr, 0, st->path,
		     e->rawlines[st->hdr_linenr - 1], NULL, 0)) {
		l->deleted = st->deleted;
		st->nfiles++;
	}
	st->uapi_done = 1;
}

/*
 * The Bluetooth headers whose names BlueZ mirrors: BT_WHOLE (the mgmt
 * protocol, the monitor channel) or BT_NAMES, where only the names of
 * the socket ABI (options, protocols, packet types, link modes) count
 * and the rest is the kernel's own.
 */
static int bt_header(const char *path, const char **names)
{
	static const struct {
		const char *file;
		int how;
		const char *names;
	} bt[] = {
		{ "mgmt.h", BT_WHOLE, NULL },
		{ "hci_mon.h", BT_WHOLE, NULL },
		{ "bluetooth.h", BT_NAMES,
		  "^(?:BT_(?!SUBSYS_|SKB_|INFO$|WARN$|ERR$|DBG$)\\w+|BTPROTO_\\w+|SOL_\\w+|[AP]F_BLUETOOTH|BDADDR_\\w+)$" },
		{ "hci.h", BT_NAMES,
		  "^(?:HCI_(?:\\w+_PKT|CHANNEL_\\w+|DEV_(?:REG|UNREG|UP|DOWN|SUSPEND|RESUME|OPEN|CLOSE|SETUP)|FILTER|DATA_DIR|TIME_STAMP|CMSG_\\w+|FLT_\\w+)|HCI(?:DEV\\w+|GET\\w+|SET\\w+|INQUIRY|BLOCKADDR|UNBLOCKADDR))$" },
		{ "l2cap.h", BT_NAMES, "^L2CAP_(?:OPTIONS|CONNINFO|LM(?:_\\w+)?)$" },
		{ "rfcomm.h", BT_NAMES, "^RFCOMM_(?:CONNINFO|LM(?:_\\w+)?)$" },
		{ "sco.h", BT_NAMES, "^SCO_(?:OPTIONS|CONNINFO)$" },
	};
	size_t i;

	if (strncmp(path, "include/net/bluetooth/", 22))
		return BT_NONE;
	for (i = 0; i < sizeof(bt) / sizeof(bt[0]); i++)
		if (!strcmp(path + 22, bt[i].file)) {
			*names = bt[i].names;
			return bt[i].how;
		}
	return BT_NONE;
}

/*
 * The file headers ("+++ b/path") never reach the review modules: a new
 * file starts when one is among the lines skipped since the last call.
 * A deleted file's "+++ /dev/null" is named from its "--- a/path" line.
 */
static void track_file(struct eng *e, struct rv_uapi *st)
{
	long l, hdr = 0;
	const char *path;

	for (l = st->last_linenr + 1; l < e->linenr; l++)
		if (!strncmp(e->rawlines[l - 1], "+++ ", 4))
			hdr = l;
	st->last_linenr = e->linenr;
	if (!hdr)
		return;
	file_end(e, st);
	path = e->realfile.buf;
	st->deleted = !strcmp(path, "dev/null") && hdr >= 2 &&
		      M(e, "^--- (?:[^/\\s]*/)?(\\S+)", e->rawlines[hdr - 2]);
	if (st->deleted)
		path = eng_cap(e, 1);
	free(st->path);
	st->path = strdup(path);
	if (!st->path) {
		e->failed = 1;
		return;
	}
	st->hdr_linenr = hdr;
	st->uapi_done = 0;
	st->is_new = hdr >= 2 && !strncmp(e->rawlines[hdr - 2], "--- /dev/null", 13);
	st->bt = bt_header(path, &st->bt_names);
	st->is_uapi = MQ(e, "^(?:arch/[^/]+/)?include/uapi/", path) || st->bt != BT_NONE;
	st->is_c = MQ(e, "\\.[ch]$", path);
	st->is_tbl = MQ(e, "^(?:arch/.+/syscalls?/[^/]+|arch/[^/]+/tools/syscall[^/]*|scripts/syscall[^/]*)\\.tbl$", path);
	st->is_unistd = MQ(e, "^(?:arch/[^/]+/)?include/uapi/.*unistd[^/]*\\.h$", path);
	st->is_netlink_h = !strcmp(path, "include/uapi/linux/netlink.h");
	st->is_abi = MQ(e, "^Documentation/ABI/", path);
	st->is_hwdoc = MQ(e, "^Documentation/hwmon/", path);
	st->is_hwmon = MQ(e, "^drivers/hwmon/", path);
}

/* s without its first byte and all whitespace, for comparing moved lines */
static char *squeeze(struct eng *e, const char *s)
{
	char *r = eng_strdup(e, s[0] ? s + 1 : s), *w = r;
	const char *p;

	for (p = r; *p; p++)
		if (*p != ' ' && *p != '\t')
			*w++ = *p;
	*w = '\0';
	return r;
}

/*
 * Whether the interface on this added line already existed: a removed
 * line of the same file near it creates the same thing (family matches and
 * it names name), or, with name NULL, is the same text.  Re-indenting,
 * converting DEVICE_ATTR() to DEVICE_ATTR_RW() or wrapping a call in a
 * condition is not a new interface.
 */
static long existed(struct eng *e, struct rv_uapi *st, const char *family,
		    const char *name)
{
	long lo = e->linenr - UAPI_NEAR, hi = e->linenr + UAPI_NEAR, l;
	const char *self = name ? NULL : squeeze(e, e->rawline);

	if (lo <= st->hdr_linenr)
		lo = st->hdr_linenr + 1;
	if (hi > (long)e->nlines)
		hi = (long)e->nlines;
	for (l = lo; l <= hi; l++) {
		const char *r = e->rawlines[l - 1];

		if (l > e->linenr && (!strncmp(r, "diff --git ", 11) ||
				      !strncmp(r, "+++ ", 4)))
			break;
		if (r[0] != '-' || !strncmp(r, "--- ", 4))
			continue;
		if (name ? has_word(r, name) && MQ(e, family, r) :
		    !strcmp(self, squeeze(e, r)))
			return l;
	}
	return 0;
}

/*
 * Whether an added line of the current file creates the interface a
 * removed line had (family matches and it names name): then it was
 * moved, converted or renamed in place, not removed.
 */
static int recreated(struct eng *e, struct rv_uapi *st, const char *family,
		     const char *name)
{
	long l;

	for (l = st->hdr_linenr + 1; l <= (long)e->nlines; l++) {
		const char *r = e->rawlines[l - 1];

		if (!strncmp(r, "diff --git ", 11) || !strncmp(r, "+++ ", 4))
			break;
		if (r[0] == '+' && has_word(r, name) && MQ(e, family, r))
			return 1;
	}
	return 0;
}

static void report_at(struct eng *e, enum rule_id id, const struct uapi_loc *l,
		      const char *msg);

/* The raw text of the sanitised line's capture n (string contents kept). */
static char *raw_cap(struct eng *e, int n)
{
	size_t len;
	const char *p = re_cap(&e->m, n, &len);

	if (!p)
		return eng_strdup(e, "");
	if (strlen(e->line) == strlen(e->rawline))
		p = e->rawline + (p - e->line);
	return eng_strndup(e, p, len);
}

/* s cut at a word boundary to at most max bytes, "..." when cut */
static const char *cut_words(struct eng *e, const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max)
		return s;
	n = max;
	while (n > max / 2 && s[n] != ' ' && s[n] != ',')
		n--;
	return eng_printf(e, "%.*s...", (int)n, s);
}

static void report(struct eng *e, enum rule_sev sev, enum rule_id id,
		   const char *msg)
{
	char *text = eng_printf(e, "%s\n%s", msg, e->herecurr);

	if (sev == SEV_ERROR)
		ERROR(e, id, text);
	else if (sev == SEV_WARNING)
		WARN(e, id, text);
	else
		CHK(e, id, text);
}

/*
 * A list of names within a byte budget: "'a', 'b' and 3 more" (quoted
 * when q).  Never cuts a name: the review shows a message's first 512
 * bytes, so a message that says many names stops naming them in time.
 */
struct namelist {
	struct sbuf sb;
	size_t n, shown, budget;
	int q;
};

static void names_init(struct namelist *nl, size_t budget, int q)
{
	sbuf_init(&nl->sb, 1u << 16);
	nl->n = nl->shown = 0;
	nl->budget = budget;
	nl->q = q;
}

static void names_add(struct namelist *nl, const char *name, const char *note)
{
	size_t need = strlen(name) + strlen(note) + 4;

	nl->n++;
	if (nl->shown < nl->n - 1 || nl->sb.len + need > nl->budget)
		return;	/* once one is left out, the rest are counted */
	sbuf_addf(&nl->sb, "%s%s%s%s%s", nl->shown ? ", " : "", nl->q ? "'" : "",
		  name, nl->q ? "'" : "", note);
	nl->shown++;
}

/* The list as a scratch string; "" when empty. */
static const char *names_str(struct eng *e, struct namelist *nl)
{
	if (nl->sb.err)
		return "";
	if (nl->n > nl->shown)
		return eng_printf(e, "%s%s%zu more", nl->sb.buf, nl->shown ? " and " : "",
				  nl->n - nl->shown);
	return eng_strdup(e, nl->sb.buf);
}

static void names_release(struct namelist *nl)
{
	sbuf_release(&nl->sb);
}

/* ---- sysfs ---- */

/* hwmon's standard names (Documentation/hwmon/sysfs-interface.rst) and
 * the attributes HWMON_CHANNEL_INFO() flags create: hwmon_attrs.def */
static const char *const hwmon_std[] = {
#define HWMON_STD(n) n,
#define HWMON_FLAG(t, f, n)
#include "hwmon_attrs.def"
#undef HWMON_STD
#undef HWMON_FLAG
};

static const struct {
	const char *type, *flag, *name;
} hwmon_flags[] = {
#define HWMON_STD(n)
#define HWMON_FLAG(t, f, n) { t, f, n },
#include "hwmon_attrs.def"
#undef HWMON_STD
#undef HWMON_FLAG
};

/* name against a hwmon pattern, '#' standing for a channel number */
static int hwmon_like(const char *pat, const char *s)
{
	while (*pat) {
		if (*pat == '#') {
			if (*s < '0' || *s > '9')
				return 0;
			while (*s >= '0' && *s <= '9')
				s++;
			pat++;
			continue;
		}
		if (*pat++ != *s++)
			return 0;
	}
	return !*s;
}

static int hwmon_standard(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(hwmon_std) / sizeof(hwmon_std[0]); i++)
		if (hwmon_like(hwmon_std[i], name))
			return 1;
	for (i = 0; i < sizeof(hwmon_flags) / sizeof(hwmon_flags[0]); i++)
		if (hwmon_like(hwmon_flags[i].name, name))
			return 1;
	return 0;
}

static void file_attrs(struct eng *e, struct rv_uapi *st);
static int in_names(const struct sbuf *sb, const char *name);

static void add_attr(struct eng *e, struct rv_uapi *st, const char *name,
		     size_t n, int flags)
{
	size_t i;

	/* one the file had (a removed attribute macro, an old-side
	 * HWMON_CHANNEL_INFO()) is moved or converted, not new */
	file_attrs(e, st);
	if (st->hw_old.len) {
		char *nm = strndup(name, n);
		int had = nm && in_names(&st->hw_old, nm);

		free(nm);
		if (had)
			return;
	}
	/* a name made twice (two wrappers on one line, a channel listed
	 * again) is one file */
	for (i = 0; i < st->nattrs; i++)
		if (!strncmp(st->attrs[i].name, name, n) && !st->attrs[i].name[n] &&
		    !strcmp(st->attrs[i].file, e->realfile.buf))
			return;
	if (st->nattrs < UAPI_MAX_ATTRS &&
	    !loc_set(e, &st->attrs[st->nattrs], e->linenr, e->realline,
		     e->realfile.buf, e->rawline, name, n)) {
		if ((flags & ATTR_HWMON) && hwmon_standard(st->attrs[st->nattrs].name))
			flags |= ATTR_STD;
		st->attrs[st->nattrs++].flags = flags;
	}
}

static long new_line_of(struct eng *e, long idx);

/* add_attr() at line idx of the current file */
static void add_attr_at(struct eng *e, struct rv_uapi *st, const char *name,
			int flags, long idx)
{
	long linenr = e->linenr, realline = e->realline;
	const char *rawline = e->rawline;

	e->linenr = idx + 1;
	e->realline = new_line_of(e, idx);
	e->rawline = e->rawlines[idx];
	add_attr(e, st, name, strlen(name), flags);
	e->linenr = linenr;
	e->realline = realline;
	e->rawline = rawline;
}

/*
 * Whether the attribute defined on line l (raw) is writable: an _RW/_WO
 * macro, or a mode with a write bit.
 */
static int attr_writable(struct eng *e, const char *l)
{
	struct re_m m;

	if (MQ(e, "\\b\\w*_?ATTR(?:_2)?_(?:RW|WO|ADMIN_RW|WO_\\w*|RW_\\w*)\\b", l))
		return 1;
	if (MQ(e, "\\b\\w*_?ATTR(?:_2)?_(?:RO|ADMIN_RO|RO_\\w*)\\b", l))
		return 0;
	if (!re_match(e->rc, "ATTR\\w*\\s*\\(\\s*\\w+\\s*,\\s*([^,]+),", l, &m))
		return 0;
	{
		const char *mode = eng_mcap(e, &m, 1);
		struct re_m o;

		if (MQ(e, "\\bS_IW|\\bS_IRWX", mode))
			return 1;
		/* an octal mode: any write bit */
		if (re_match(e->rc, "\\b0([0-7]+)\\b", mode, &o))
			return (strtol(eng_mcap(e, &o, 1), NULL, 8) & 0222) != 0;
		return 0;
	}
}

/* Family patterns for existed(): the raw removed line is matched. */
#define BIN_LIKE(m)	(strstr((m), "BIN_ATTR") != NULL)
#define FAM_SYSFS	"\\b\\w*_?ATTR\\w*\\s*\\(|\\bsysfs_create_|\\bATTRIBUTE_GROUPS\\b"
#define FAM_PROC	"\\bproc_(?:create|mkdir|symlink)"
#define FAM_CHRDEV	"\\b(?:register_chrdev|alloc_chrdev_region|cdev_(?:device_)?add|misc_register)\\b"
#define FAM_SYSCALL	"\\bSYSCALL_DEFINE"
#define FAM_GENL	"\\bgenl_register_family\\b"
#define FAM_PARAM	"\\b(?:module|core)_param"
#define FAM_CONFIGFS	"\\b(?:configfs_register_subsystem|CONFIGFS_(?:BIN_)?ATTR)"
#define FAM_IOCTL_FN	"\\.\\s*(?:unlocked_|compat_)?ioctl\\b"

/*
 * A macro of a subsystem that defines one sysfs attribute per use
 * (IIO_DEVICE_ATTR, PMU_FORMAT_ATTR, a driver's FOO_ATTR_RW), at file
 * scope: its first argument names the attribute.  debugfs and configfs
 * (UAPI_CONFIGFS) have their own.
 */
#define ATTR_LIKE "^\\+(?:static\\s+)?(?:const\\s+)?((?!CONFIGFS_|\\w*DEBUGFS)[A-Z][A-Z0-9_]*_ATTR(?:_[A-Z0-9_]+)?)\\s*\\(\\s*([A-Za-z_]\\w*)\\s*[,)]"

/*
 * HWMON_CHANNEL_INFO(type, flags of channel 1, ...): the attributes the
 * call at line idx ('(' at open) creates on side, each as "name\0".  The
 * arguments are split here: a chip has more channels than a call's
 * RV_MAX_ARGS.
 */
static void hwmon_names(struct eng *e, long idx, size_t open, char side,
			struct sbuf *out)
{
	struct rv_call c;
	const char *type, *p;
	size_t k, ch = 0;
	int base;

	if (!rv_gather_call(e, idx, open, side, &c) || c.narg < 2)
		return;
	type = rv_arg(e, &c, 0);
	base = !strcmp(type, "in") || !strcmp(type, "intrusion") ? 0 : 1;
	for (p = c.text + c.off[1]; *p; ch++) {
		size_t n = 0;
		int depth = 0;
		const char *f;

		while (p[n] && (depth || p[n] != ',')) {
			depth += p[n] == '(' ? 1 : p[n] == ')' ? -1 : 0;
			n++;
		}
		/* one channel's flags: FLAG | FLAG ... */
		for (f = p; f < p + n; ) {
			size_t fl;

			while (f < p + n && (rv_is_blank((unsigned char)*f) || *f == '|'))
				f++;
			for (fl = 0; f + fl < p + n && rv_is_ident((unsigned char)f[fl]); fl++)
				;
			if (!fl) {
				f++;
				continue;
			}
			for (k = 0; k < sizeof(hwmon_flags) / sizeof(hwmon_flags[0]); k++) {
				const char *t = hwmon_flags[k].name, *h;

				if (strcmp(hwmon_flags[k].type, type) ||
				    strlen(hwmon_flags[k].flag) != fl ||
				    strncmp(hwmon_flags[k].flag, f, fl))
					continue;
				/* "temp#_max" with the channel's number */
				h = strchr(t, '#');
				if (h)
					sbuf_addf(out, "%.*s%zu%s", (int)(h - t), t,
						  ch + (size_t)base, h + 1);
				else
					sbuf_addstr(out, t);
				sbuf_addch(out, '\0');
				break;
			}
			f += fl;
		}
		p += n + (p[n] == ',');
	}
}

/*
 * The attributes the current file had and has, as far as the patch
 * shows: its removed attribute macros and old-side HWMON_CHANNEL_INFO()
 * calls (was), its new-side calls (now).  Read once per file: a driver
 * moved from SENSOR_DEVICE_ATTR() to the hwmon_chip_info API keeps its
 * files, neither new nor removed.
 */
static void file_attrs(struct eng *e, struct rv_uapi *st)
{
	long k;

	if (st->hw_file && !strcmp(st->hw_file, st->path))
		return;
	free(st->hw_file);
	st->hw_file = strdup(st->path);
	sbuf_reset(&st->hw_new);
	sbuf_reset(&st->hw_old);
	if (!st->hw_file) {
		e->failed = 1;
		return;
	}
	for (k = st->hdr_linenr; (size_t)k < e->nlines; k++) {
		const char *r = e->rawlines[k], *l = e->lines[k];
		struct re_m m;

		if (!strncmp(r, "diff --git ", 11) || !strncmp(r, "+++ ", 4))
			break;
		if (r[0] != '+' && r[0] != ' ' && r[0] != '-')
			continue;
		if (re_match(e->rc, "\\bHWMON_CHANNEL_INFO\\s*\\(", l, &m)) {
			if (r[0] != '-')
				hwmon_names(e, k, re_end(&m, 0) - 1, '+', &st->hw_new);
			if (r[0] != '+')
				hwmon_names(e, k, re_end(&m, 0) - 1, '-', &st->hw_old);
		} else if (r[0] == '-' && re_match(e->rc, ATTR_MACRO, l, &m) &&
			   !strchr(eng_mcap(e, &m, 2), '#')) {
			sbuf_addstr(&st->hw_old, eng_mcap(e, &m, 2));
			sbuf_addch(&st->hw_old, '\0');
		}
	}
}

static int in_names(const struct sbuf *sb, const char *name)
{
	size_t i = 0;

	while (i < sb->len) {
		if (!strcmp(sb->buf + i, name))
			return 1;
		i += strlen(sb->buf + i) + 1;
	}
	return 0;
}

/*
 * HWMON_CHANNEL_INFO() on a line of the new side: the attributes the
 * new call creates that the old one (the same line's old side, or a
 * removed call of the type in its change block) did not.
 */
static void check_hwmon_info(struct eng *e, struct rv_uapi *st)
{
	long idx = e->linenr - 1, lo, hi, k, old = -1;
	struct sbuf now, was;
	struct re_m m;
	size_t i, open;

	if (!re_match(e->rc, "\\bHWMON_CHANNEL_INFO\\s*\\(\\s*(\\w+)", e->line, &m))
		return;
	open = re_start(&m, 0) + strcspn(e->line + re_start(&m, 0), "(");
	sbuf_init(&now, 1u << 16);
	sbuf_init(&was, 1u << 16);
	hwmon_names(e, idx, open, '+', &now);
	if (e->line[0] == ' ') {
		old = idx;
	} else {
		const char *pat = eng_pat(e, "^-.*\\bHWMON_CHANNEL_INFO\\s*\\(\\s*%s\\b",
					  eng_quote(e, eng_mcap(e, &m, 1)));

		rv_block(e, idx, &lo, &hi);
		for (k = lo; k < hi && old < 0; k++)
			if (MQ(e, pat, e->lines[k]))
				old = k;
	}
	if (old >= 0) {
		struct re_m o;

		if (re_match(e->rc, "\\bHWMON_CHANNEL_INFO\\s*\\(", e->lines[old], &o))
			hwmon_names(e, old, re_end(&o, 0) - 1, '-', &was);
	}
	file_attrs(e, st);
	for (i = 0; i < now.len && !now.err; i += strlen(now.buf + i) + 1)
		if (!in_names(&was, now.buf + i) && !in_names(&st->hw_old, now.buf + i))
			add_attr(e, st, now.buf + i, strlen(now.buf + i),
				 ATTR_HWMON | ATTR_STD);
	sbuf_release(&now);
	sbuf_release(&was);
}

/* sysfs: attribute definitions and registrations */
static void check_sysfs(struct eng *e, struct rv_uapi *st)
{
	const char *line = e->line;
	const struct uapi_wrap *w = NULL;
	char *macro = NULL, *name = NULL, *key = NULL;
	int flags = st->is_hwmon ? ATTR_HWMON : 0;

	if (M(e, ATTR_MACRO, line) && !strchr(eng_cap(e, 2), '#')) {
		macro = eng_cap(e, 1);
		key = name = eng_cap(e, 2);
		if (!strncmp(macro, "SENSOR_", 7))
			flags |= ATTR_HWMON;
	} else if (M(e, "^\\+\\s*(?:static\\s+)?(?:const\\s+)?(\\w+)\\s*\\(", line) &&
		   (w = wrap_find(st, eng_cap(e, 1), WRAP_ATTR))) {
		struct rv_call c;
		size_t open = re_end(&e->m, 0) - 1;

		if (!rv_gather_call(e, e->linenr - 1, open, '+', &c) ||
		    c.narg <= (size_t)w->arg)
			return;
		macro = eng_strdup(e, w->name);
		key = rv_squeeze(e, rv_arg(e, &c, (size_t)w->arg));
		name = eng_printf(e, "%s%s%s", w->pre, key, w->suf);
		if (w->hwmon)
			flags |= ATTR_HWMON;
		if (w->writable)
			flags |= ATTR_WRITE;
	} else if (M(e, ATTR_LIKE, line)) {
		macro = eng_cap(e, 1);
		key = name = eng_cap(e, 2);
	} else if (M(e, "^\\+\\s*&((?:sensor_|iio_|iio_const_)?(?:dev|driver|class|bus|bin)_attr)_(\\w+)(?:\\.dev_attr)?(?:\\.attr)?\\s*,", line)) {
		/* an attribute list gains one defined elsewhere: it shows */
		macro = eng_cap(e, 1);
		key = name = eng_cap(e, 2);
		if (!strncmp(macro, "sensor_", 7))
			flags |= ATTR_HWMON;
		if (existed(e, st, "&\\w*attr_", key))
			return;
		flags |= !strcmp(macro, "bin_attr") ? ATTR_BIN : 0;
		/* defined by a macro of its own (DEFINE_FOO_ATTR(name, ...)):
		 * said at that line */
		{
			const char *pat = eng_pat(e, "^\\+(?:static\\s+)?[A-Z_][A-Z0-9_]*\\s*\\(\\s*%s\\s*[,)]",
						  eng_quote(e, name));
			long k;

			for (k = st->hdr_linenr; (size_t)k < e->nlines; k++) {
				const char *r = e->rawlines[k];

				if (!strncmp(r, "diff --git ", 11) || !strncmp(r, "+++ ", 4))
					break;
				if (k != e->linenr - 1 && MQ(e, pat, e->lines[k])) {
					add_attr_at(e, st, name, flags, k);
					return;
				}
			}
		}
		add_attr(e, st, name, strlen(name), flags);
		return;
	}
	if (name) {
		long old;

		flags |= (BIN_LIKE(macro) ? ATTR_BIN : 0) |
			 (!w && attr_writable(e, e->rawline) ? ATTR_WRITE : 0);
		old = existed(e, st, w ? eng_pat(e, "\\b%s\\s*\\(", w->name) : FAM_SYSFS, key);
		if (old) {
			/* an existing attribute: only a new write side is news */
			if ((flags & ATTR_WRITE) && !attr_writable(e, e->rawlines[old - 1]))
				report(e, SEV_WARNING, R_UAPI_CHANGED,
				       eng_printf(e, "existing sysfs attribute '%s' made writable (%s): writing it is new user-space ABI, so document what it accepts in %s and check every value",
						  name, macro, (flags & ATTR_HWMON) ?
						  "Documentation/hwmon/" : "Documentation/ABI/"));
			return;
		}
		/* reported once per file, all its attributes named (final) */
		add_attr(e, st, name, strlen(name), flags);
	} else if (M(e, "\\b(sysfs_create_link(?:_nowarn)?)\\s*\\(([^;]*)", line)) {
		char *call = eng_cap(e, 1), *args = trim(e, raw_cap(e, 2));

		if (existed(e, st, NULL, NULL))
			return;
		args = eng_subst(e, "\\)\\s*$", "", args, 0);
		report(e, SEV_WARNING, R_UAPI_SYSFS,
		       eng_printf(e, "new sysfs link from %s(%s): its name and where it points become user-space ABI that tools follow, so it needs an entry in Documentation/ABI/",
				  call, cut_words(e, trim(e, args), 120)));
	} else if (M(e, "\\b(sysfs_create_(?:files?|groups?|bin_file)|ATTRIBUTE_GROUPS|device_add_groups?|devm_device_add_groups?)\\s*\\(([^;]*)", line)) {
		char *args = eng_cap(e, 2), *group;

		/* the group is the last word on the line: moved calls keep it */
		group = M(e, "(\\w+)\\W*$", args) ? eng_cap(e, 1) : NULL;
		if (group && existed(e, st, FAM_SYSFS, group))
			return;
		/* reported at the end when no attribute of it is named */
		if (!st->has_reg &&
		    !loc_set(e, &st->reg, e->linenr, e->realline,
			     e->realfile.buf, e->rawline, group, group ? strlen(group) : 0))
			st->has_reg = 1;
	}
}

/*
 * Reports fmt (a format taking the captures 1 and 2 of the last match, in
 * order or as %1$s/%2$s)
 * unless a removed line near it created the same interface: existed()
 * with family and the capture numbered key (0: the same text).
 */
static void emit(struct eng *e, struct rv_uapi *st, enum rule_sev sev,
		 enum rule_id id, const char *family, int key, const char *fmt)
{
	char *a = eng_cap(e, 1), *b = eng_cap(e, 2);

	if (existed(e, st, key ? family : NULL,
		    key == 1 ? a : key == 2 ? b : NULL))
		return;
	report(e, sev, id, eng_printf(e, fmt, a, b));
}

/*
 * The initialiser an added line is in ("static const struct proc_ops
 * foo_ops = {"): its type in *type, its first line's index in *at, and
 * whether that line is old (a context line).  0 when not found within
 * the hunk.
 */
static int enclosing_init(struct eng *e, const char **type, int *old, long *at)
{
	long i;
	struct re_m m;

	for (i = e->linenr - 2; i >= 0 && i > e->linenr - 200; i--) {
		const char *l = e->lines[i];

		if (l[0] == '-')
			continue;
		if (l[0] != '+' && l[0] != ' ')
			return 0;
		if (re_match(e->rc, "^.\\s*(?:static\\s+)?(?:const\\s+)?struct\\s+(\\w+)\\s+\\w+(?:\\[\\w*\\])?\\s*=\\s*\\{", l, &m)) {
			*type = eng_mcap(e, &m, 1);
			*old = l[0] == ' ';
			*at = i;
			return 1;
		}
		if (MQ(e, "^.\\s*\\}\\s*;", l) || MQ(e, "^.\\S.*\\)\\s*$", l))
			return 0;
	}
	return 0;
}

/* Whether an added line of the initialiser starting at line at matches
 * pat (the initialiser ends at its "};"). */
static int init_adds(struct eng *e, long at, const char *pat)
{
	long i;

	for (i = at + 1; (size_t)i < e->nlines && i < at + 200; i++) {
		const char *l = e->lines[i];

		if (l[0] != '+' && l[0] != ' ' && l[0] != '-')
			return 0;
		if (l[0] == '+' && MQ(e, pat, l))
			return 1;
		if (l[0] != '-' && MQ(e, "^.\\s*\\}\\s*;", l))
			return 0;
	}
	return 0;
}

/*
 * A write handler put in a procfs, character device or hwmon device's
 * operations: news when the operations already existed; remembered to
 * check for a capable() in its body (PRIV_WRITE_NO_CAPABLE, at the end;
 * not hwmon's, whose attributes' modes decide, as its ABI says).
 */
static void check_write_handler(struct eng *e, struct rv_uapi *st)
{
	const char *type, *fn;
	int old;
	long at;

	if (!M(e, "\\.\\s*((?:proc_)?write(?:_iter)?)\\s*=\\s*(?!NULL\\b|seq_|simple_)(\\w+)", e->line))
		return;
	fn = eng_cap(e, 2);
	if (!enclosing_init(e, &type, &old, &at) ||
	    !MQ(e, "^(?:proc_ops|file_operations|hwmon_ops)$", type) ||
	    existed(e, st, "\\.\\s*(?:proc_)?write", fn))
		return;
	if (old)
		report(e, SEV_WARNING, R_UAPI_CHANGED,
		       !strcmp(type, "hwmon_ops") ?
		       eng_printf(e, "write handler %s() added to the existing hwmon_ops: every attribute its is_visible() makes writable becomes writable ABI, so check each value written and keep the modes root-only as Documentation/hwmon/sysfs-interface.rst asks",
				  fn) :
		       eng_printf(e, "write handler %s() added to the existing %s: writing the file is new user-space ABI, so document what it accepts and check who may write it",
				  fn, type));
	if (strcmp(type, "hwmon_ops") && st->nwriters < UAPI_MAX_ATTRS &&
	    !loc_set(e, &st->writers[st->nwriters], e->linenr, e->realline,
		     e->realfile.buf, e->rawline, fn, strlen(fn)))
		st->nwriters++;
}

/* Whether a HWMON_CHANNEL_INFO() of the current file's new side creates
 * the hwmon attribute name (file_attrs()). */
static int hwmon_recreated(struct eng *e, struct rv_uapi *st, const char *name)
{
	file_attrs(e, st);
	return in_names(&st->hw_new, name);
}

/*
 * A removed line of a C file that created an interface no added line
 * creates again: ABI removed (located at the file: a removed line has
 * no line in the new file).
 */
static void check_removed(struct eng *e, struct rv_uapi *st)
{
	static const struct {
		const char *pat;	/* capture 1: the interface's name */
		const char *family;	/* what an added line re-creating it matches */
		const char *what;
	} kinds[] = {
		{ "\\b(?:(?:DEVICE|DRIVER|CLASS|BUS)_ATTR(?:_\\w+)?|__ATTR(?:_(?!NULL\\b)\\w+)?|(?:__)?BIN_ATTR(?:_\\w+)?|SENSOR_(?:DEVICE_)?ATTR(?:_\\w+)?)\\s*\\(\\s*(\\w+)(?!\\s*#)", FAM_SYSFS, "sysfs attribute" },
		{ "\\bproc_(?:create\\w*|mkdir\\w*|symlink)\\s*\\(\\s*\"([^\"]+)\"", FAM_PROC, "/proc entry" },
		{ "\\.procname\\s*=\\s*\"([^\"]+)\"", "\\.procname\\b", "sysctl" },
		{ "^-\\s*#\\s*define\\s+(\\w+)\\s+_IO(?:WR|R|W)?\\s*\\(", "#\\s*define\\b", "ioctl command" },
		{ "\\b(?:module|core)_param(?:_\\w+)?\\s*\\(\\s*(\\w+)", FAM_PARAM, "module parameter" },
		{ "\\bled_trigger_register_simple\\s*\\(\\s*\"([^\"]+)\"", "\\bled_trigger_register", "LED trigger" },
	};
	const char *raw = e->rawline;
	size_t i;
	struct re_m m;

	if (MQ(e, "^.\\s*#\\s*define\\s+\\w+\\(", e->line) ||
	    macro_start(e, e->linenr - 1, '-') >= 0)
		return;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const char *name;
		struct uapi_loc *l;

		if (!re_match(e->rc, kinds[i].pat, raw, &m))
			continue;
		name = eng_mcap(e, &m, 1);
		/* the call itself is code, not a comment or a string */
		if (e->line[re_start(&m, 0)] != raw[re_start(&m, 0)] ||
		    recreated(e, st, kinds[i].family, name) ||
		    (i == 0 && hwmon_recreated(e, st, name)))
			return;
		/* said once per file and kind, at the end */
		l = loc_add(e, st->removed, &st->nremoved, UAPI_MAX_ITEMS, name);
		if (l) {
			free(l->file);
			l->file = strdup(st->path);
			l->realline = 0;	/* a removed line has none */
			l->flags = (int)i;
			if (!l->file) {
				e->failed = 1;
				st->nremoved--;
				free(l->name);
				free(l->rawline);
				memset(l, 0, sizeof(*l));
			}
		}
		return;
	}
}

/* The names kinds[] of check_removed() give each kind of interface. */
static const char *const removed_what[][2] = {
	{ "sysfs attribute", "sysfs attributes" },
	{ "/proc entry", "/proc entries" },
	{ "sysctl", "sysctls" },
	{ "ioctl command", "ioctl commands" },
	{ "module parameter", "module parameters" },
	{ "LED trigger", "LED triggers" },
};

/* One UAPI_REMOVED per file and kind: what goes away, named. */
static void report_removed(struct eng *e, struct rv_uapi *st)
{
	size_t i, j;

	for (i = 0; i < st->nremoved; i++) {
		const struct uapi_loc *a = &st->removed[i];
		struct namelist nl;

		for (j = 0; j < i; j++)
			if (!strcmp(st->removed[j].file, a->file) && st->removed[j].flags == a->flags)
				break;
		if (j < i)
			continue;
		names_init(&nl, 220, 1);
		for (j = i; j < st->nremoved; j++)
			if (!strcmp(st->removed[j].file, a->file) && st->removed[j].flags == a->flags)
				names_add(&nl, st->removed[j].name, "");
		report_at(e, R_UAPI_REMOVED, a,
			  eng_printf(e, "ABI removed, not added: the existing %s %s go%s away, so programs that use %s break; removing ABI needs a reason in the commit message and usually a deprecation period (Documentation/ABI/obsolete/)",
				     removed_what[a->flags][nl.n > 1], names_str(e, &nl),
				     nl.n > 1 ? "" : "es", nl.n > 1 ? "them" : "it"));
		names_release(&nl);
	}
}

/* ---- what a uapi header's hunks change (UAPI_HEADER) ---- */

static int said_has(const struct rv_uapi *st, int kind, const char *what)
{
	return in_names(&st->said[kind], what);
}

static void say(struct eng *e, struct rv_uapi *st, int kind, const char *what)
{
	struct sbuf *sb = &st->said[kind];

	if (!st->hdr_changed) {
		st->hdr_changed = 1;
		loc_set(e, &st->hdr_first, e->linenr,
			e->line[0] == '+' ? e->realline : 0, st->path, e->rawline,
			NULL, 0);
	}
	if (kind != SAY_OTHER && said_has(st, kind, what))
		return;
	st->nsaid[kind]++;
	if (kind != SAY_OTHER) {
		sbuf_addstr(sb, what);
		sbuf_addch(sb, '\0');
	}
}

/*
 * The struct, union or enum block changed line idx is in (on its side:
 * '+' skips removed lines, '-' added ones), as "struct foo", or NULL.
 * An anonymous union or struct inside another is a part of the outer
 * one's layout: the outer block is returned.
 */
static const char *uapi_block(struct eng *e, long idx, int *fresh)
{
	char other = e->lines[idx][0] == '+' ? '-' : '+';
	long i;
	int depth = 0;
	struct re_m m;

	for (i = idx - 1; i >= 0 && i > idx - 300; i--) {
		const char *l = e->lines[i];

		if (!strncmp(e->rawlines[i], "@@ ", 3)) {
			/* the hunk's header names the block it starts in */
			if (re_match(e->rc, "@@.*@@\\s*(?:typedef\\s+)?((?:struct|union|enum)\\s*\\w*)\\s*\\{", e->rawlines[i], &m))
				return trim(e, eng_mcap(e, &m, 1));
			return NULL;
		}
		if (l[0] == other)
			continue;
		if (l[0] != '+' && l[0] != '-' && l[0] != ' ')
			return NULL;
		if (re_match(e->rc, "^.(\\s*)(?:typedef\\s+)?((?:struct|union|enum)\\s*(\\w*))\\s*\\{", l, &m)) {
			if (depth) {
				depth--;
				continue;
			}
			/* an anonymous member block: its members are the outer
			 * block's fields */
			if (*eng_mcap(e, &m, 1) && !*eng_mcap(e, &m, 3) &&
			    strncmp(eng_mcap(e, &m, 2), "enum", 4))
				continue;
			*fresh = l[0] == '+';
			return trim(e, eng_mcap(e, &m, 2));
		}
		if (MQ(e, "^.\\}", l))
			return NULL;
		if (MQ(e, "^.\\s+\\}", l))
			depth++;	/* a member block that closed above */
	}
	return NULL;
}

/* Whether the run of added lines from idx on closes a block ("};"). */
static int closed_in_run(struct eng *e, long idx)
{
	long i;

	for (i = idx + 1; (size_t)i < e->nlines && e->lines[i][0] == '+'; i++)
		if (MQ(e, "^\\+\\}", e->lines[i]))
			return 1;	/* (an indented one closes a member block) */
	return 0;
}

/* An added enum value with only added lines or the enum's end or its
 * counting sentinel after it is appended; else it renumbers others. */
static int enum_appended(struct eng *e, long idx)
{
	long i;

	for (i = idx + 1; (size_t)i < e->nlines; i++) {
		const char *l = e->lines[i];

		if (l[0] == '-' || l[0] == '+' ||
		    (l[0] == ' ' && MQ(e, "^.\\s*$", l)))
			continue;
		if (l[0] != ' ')
			return 1;	/* the hunk ends: nothing old after it */
		return MQ(e, "^.\\s*\\}", l) ||
		       MQ(e, "^.\\s*\\w*(?:__MAX|_MAX|_LAST|_COUNT|_CNT|_NUM|NUM_\\w+|MAX_\\w+)\\b", l);
	}
	return 1;
}

/*
 * The value of a simple constant (a number, BIT(n), (1 << n), with
 * casts and U/L suffixes): 1 and *v, or 0 when it is anything else.
 */
static int const_value(const char *s, unsigned long long *v)
{
	char *end;

	while (rv_is_blank((unsigned char)*s) || *s == '(')
		s++;
	if (!strncmp(s, "BIT_ULL", 7) || !strncmp(s, "BIT", 3) || !strncmp(s, "_BITUL", 6) ||
	    !strncmp(s, "_BITULL", 7)) {
		unsigned long long n;

		s = strchr(s, '(');
		if (!s)
			return 0;
		n = strtoull(s + 1, &end, 0);
		if (end == s + 1 || n > 63)
			return 0;
		*v = 1ull << n;
		s = end;
	} else {
		if (*s < '0' || *s > '9')
			return 0;
		*v = strtoull(s, &end, 0);
		s = end;
		while (*s == 'u' || *s == 'U' || *s == 'l' || *s == 'L')
			s++;
		while (rv_is_blank((unsigned char)*s))
			s++;
		if (s[0] == '<' && s[1] == '<') {
			unsigned long long n = strtoull(s + 2, &end, 0);

			if (end == s + 2 || n > 63)
				return 0;
			*v <<= n;
			s = end;
		}
	}
	while (rv_is_blank((unsigned char)*s) || *s == ')' || *s == '\x1c')
		s++;
	return *s == '\0';
}

/* A counting sentinel (__NR_syscalls, FOO_MAX, FOO_LAST, NSIGSEGV) or a
 * mask of all flags (FOO_MASK, FOO_ALL): it moves when names are added. */
static int sentinel(struct eng *e, const char *name)
{
	return MQ(e, "(?:^__NR(?:3264)?_syscalls$|_MAX$|_LAST$|_COUNT$|_CNT$|_NUM$|^NUM_|^MAX_|^__\\w+_MAX$|^NSIG\\w*$|_MASK$|_ALL$|_ALL_FLAGS$)", name);
}

static void uapi_header_line(struct eng *e, struct rv_uapi *st)
{
	long idx = e->linenr - 1;
	const char *l = e->line, *blk;
	int add = l[0] == '+', fresh = 0;
	struct re_m m;

	/* white space and comments change nothing */
	if (MQ(e, "^.[\\s\\x1c]*$", l) || MQ(e, "^.\\s*\\*", e->rawline) ||
	    MQ(e, "^.\\s*/\\*.*\\*/\\s*$", e->rawline) || rv_twin_same(e, idx))
		return;
	if (re_match(e->rc, "^.\\s*#\\s*define\\s+(\\w+)(\\(?)", l, &m)) {
		/* an include guard is no name of the API */
		const char *name = eng_mcap(e, &m, 1), *value;
		const char *pat = eng_pat(e, "^\\%c\\s*#\\s*define\\s+%s\\b\\s*(.*)", add ? '-' : '+', eng_quote(e, name));
		long lo, hi, k;
		int both = 0;
		unsigned long long v1, v2;

		if (MQ(e, "^_*(?:UAPI_)?[A-Z0-9_]*_H_*$", name))
			return;
		if (st->bt == BT_NAMES && (*eng_mcap(e, &m, 2) || !MQ(e, st->bt_names, name)))
			return;	/* the kernel's own part of the header */
		value = l + re_end(&m, 0);
		/* defined again in the same change block: a new value */
		rv_block(e, idx, &lo, &hi);
		for (k = lo; k < hi && !both; k++) {
			struct re_m o;

			if (re_match(e->rc, pat, e->lines[k], &o)) {
				both = 1;
				/* 0x00000004 -> BIT(2): the same value */
				if (const_value(value, &v1) &&
				    const_value(eng_mcap(e, &o, 1), &v2) && v1 == v2)
					return;
			}
		}
		if (!both)
			say(e, st, add ? SAY_DEF_ADD : SAY_DEF_DEL, name);
		else if (add)
			say(e, st, SAY_DEF_CHG, name);
		return;
	}
	if (st->bt == BT_NAMES)
		return;
	if (MQ(e, "^.\\s*#", l))
		return;	/* include guards, #include, #if */
	/* a line of a multi-line macro: the macro changes, unless the
	 * patch adds it */
	{
		long k = macro_start(e, idx, add ? '+' : '-');

		if (k >= 0 && re_match(e->rc, "^.\\s*#\\s*define\\s+(\\w+)", e->lines[k], &m)) {
			const char *name = eng_mcap(e, &m, 1);

			if (e->lines[k][0] == ' ' || !said_has(st, SAY_DEF_ADD, name))
				say(e, st, SAY_DEF_CHG, name);
			return;
		}
	}
	/* an added line that opens a named type at file scope: a new type */
	if (add && re_match(e->rc, "^\\+(?:typedef\\s+)?((?:struct|union|enum)\\s+\\w+)\\s*\\{", l, &m)) {
		say(e, st, SAY_TYPE_ADD, trim(e, eng_mcap(e, &m, 1)));
		return;
	}
	blk = uapi_block(e, idx, &fresh);
	if (blk && add && !fresh && closed_in_run(e, idx)) {
		/* added values closed by an added brace: a new block that
		 * the diff wrote inside an old one's first line */
		fresh = 1;
		blk = !strncmp(blk, "enum", 4) ? "enum" : "struct";
	}
	if (blk && fresh) {
		/* a new type: named once, its members are not changes */
		const char *nm = strchr(blk, ' ') ? blk :
				 !strcmp(blk, "enum") ? "an anonymous enum" : "a struct";

		if (add)
			say(e, st, SAY_TYPE_ADD, nm);
		return;
	}
	if (blk && !strncmp(blk, "enum", 4) &&
	    re_match(e->rc, "^.\\s*([A-Za-z_]\\w*)\\s*(?:=[^,/]*)?,?[\\s\\x1c]*(?:/\\*.*?(?:\\*/)?)?[\\s\\x1c]*$", l, &m)) {
		const char *v = strchr(blk, ' ') ?
			eng_printf(e, "%s (%s)", eng_mcap(e, &m, 1), blk) : eng_mcap(e, &m, 1);

		say(e, st, !add ? SAY_ENUM_DEL : enum_appended(e, idx) ?
			SAY_ENUM_APPEND : SAY_ENUM_INSERT, v);
		return;
	}
	if (blk && strncmp(blk, "enum", 4) &&
	    (re_match(e->rc, "^.\\s*(?:__)?DECLARE_FLEX_ARRAY\\s*\\([^,]*,\\s*(\\w+)\\s*\\)\\s*;", l, &m) ||
	     re_match(e->rc, "^.[^;()]*?\\b(\\w+)\\s*(?:\\[[^\\]]*\\]\\s*)*(?::\\s*\\w+\\s*)?;", l, &m))) {
		say(e, st, add ? SAY_FIELD_ADD : SAY_FIELD_DEL,
		    eng_printf(e, "%s.%s", blk, eng_mcap(e, &m, 1)));
		return;
	}
	/* a block's braces say nothing of their own */
	if (!MQ(e, "^.\\s*(?:\\}\\s*\\w*\\s*;|(?:typedef\\s+)?(?:struct|union|enum)\\b[^;]*\\{)[\\s\\x1c]*$", l))
		say(e, st, SAY_OTHER, "");
}

/*
 * The UAPI_HEADER finding of the file that ends, saying what it adds,
 * changes or removes.  When it adds names, what moves with them (a
 * counting sentinel, the other lines of the addition) is part of adding,
 * not a change of its own; a new header only adds.  The names are listed
 * within a budget, so the review never cuts the message.
 */
static void uapi_header_report(struct eng *e, struct rv_uapi *st)
{
	/* what each kind does to what: "adds #define A, B", or only
	 * counted once the budget is spent, "adds 3 #defines" */
	static const char *const verb[SAY__COUNT] = {
		"adds", "changes", "removes", "adds", "appends", "inserts",
		"removes", "adds", "removes", "",
	};
	static const char *const noun[SAY__COUNT][2] = {
		{ "#define", "#defines" }, { "#define", "#defines" },
		{ "#define", "#defines" }, { "", "types" },
		{ "enum value", "enum values" }, { "enum value", "enum values" },
		{ "enum value", "enum values" }, { "field", "fields" },
		{ "field", "fields" }, { "", "" },
	};
	struct sbuf msg;
	int k, breaks, adds, changes;
	size_t budget = 230, i;

	if (!st->hdr_changed)
		return;
	adds = st->nsaid[SAY_DEF_ADD] || st->nsaid[SAY_TYPE_ADD] ||
	       st->nsaid[SAY_ENUM_APPEND] || st->nsaid[SAY_FIELD_ADD];
	sbuf_init(&msg, 1u << 16);
	sbuf_addf(&msg, "%s%s %s:", st->is_new ? "new " : "",
		  st->bt == BT_WHOLE ? "Bluetooth ABI header (mirrored by BlueZ)" :
		  st->bt == BT_NAMES ? "Bluetooth socket ABI header (mirrored by BlueZ)" :
		  "user-space API header", st->path);
	changes = 0;
	for (k = 0; k < SAY__COUNT; k++) {
		struct namelist nl;
		const char *list;

		if (!st->nsaid[k] || k == SAY_OTHER)
			continue;
		/* a new file has nothing to change or remove */
		if (st->is_new && k != SAY_DEF_ADD && k != SAY_TYPE_ADD &&
		    k != SAY_DEF_CHG)
			continue;
		names_init(&nl, budget, 0);
		for (i = 0; i < st->said[k].len; i += strlen(st->said[k].buf + i) + 1) {
			const char *n = st->said[k].buf + i;

			if (k == SAY_DEF_CHG && (said_has(st, SAY_DEF_ADD, n) ||
						 (adds && sentinel(e, n))))
				continue;
			names_add(&nl, n, "");
		}
		list = names_str(e, &nl);
		if (*list) {
			int kk = st->is_new && k == SAY_DEF_CHG ? SAY_DEF_ADD : k;

			if (nl.shown)
				sbuf_addf(&msg, " %s%s%s %s%s;", verb[kk], *noun[kk][0] ? " " : "",
					  noun[kk][0], list, kk == SAY_ENUM_INSERT ?
					  " (renumbering the values after it)" : "");
			else
				sbuf_addf(&msg, " %s %zu %s%s;", verb[kk], nl.n,
					  noun[kk][nl.n > 1], kk == SAY_ENUM_INSERT ?
					  " (renumbering the values after them)" : "");
			budget = budget > strlen(list) ? budget - strlen(list) : 0;
			changes += k == SAY_DEF_CHG;
		}
		names_release(&nl);
	}
	if (st->nsaid[SAY_OTHER] && !adds && !st->is_new)
		sbuf_addf(&msg, " changes %zu other line%s;", st->nsaid[SAY_OTHER],
			  st->nsaid[SAY_OTHER] == 1 ? "" : "s");
	if (msg.buf[msg.len - 1] != ';') {
		/* only what moves with an addition: nothing to say */
		sbuf_release(&msg);
		goto done;
	}
	msg.len--;	/* the last ';' */
	msg.buf[msg.len] = '\0';
	breaks = !st->is_new &&
		 (st->nsaid[SAY_DEF_DEL] || st->nsaid[SAY_ENUM_INSERT] ||
		  st->nsaid[SAY_ENUM_DEL] || st->nsaid[SAY_FIELD_DEL] ||
		  (st->nsaid[SAY_FIELD_ADD] && !st->nsaid[SAY_DEF_ADD] &&
		   !st->nsaid[SAY_ENUM_APPEND]));
	{
		const char *tail = breaks ?
			": a removed name, a renumbered value or a changed struct layout breaks programs built against the released header, so uapi may only grow" :
			changes && !adds ?
			": a changed value reaches programs only when they are rebuilt, so binaries built with the old one must keep working" :
			": every new name and value is ABI from its first release on and can never be renumbered, resized or removed";

		/* many kinds of change: the short reason, so the whole
		 * message stays within what the review shows */
		if (msg.len + strlen(tail) > UAPI_MSG_BUDGET)
			tail = breaks ? ": this breaks programs built against the released header" :
			       ": ABI forever";
		sbuf_addstr(&msg, tail);
	}
	if (!msg.err)
		report_at(e, R_UAPI_HEADER, &st->hdr_first, msg.buf);
	sbuf_release(&msg);
done:
	for (k = 0; k < SAY__COUNT; k++) {
		sbuf_reset(&st->said[k]);
		st->nsaid[k] = 0;
	}
	loc_free(&st->hdr_first);
	st->hdr_changed = 0;
}

/* ---- ioctl ---- */

/*
 * An ioctl command the line defines: "#define NAME _IOW(...)" (or a
 * macro wrapping _IO*()), a multi-line one, or a case label written as
 * _IO*(); remembered per file and said once (final).  The definition of
 * a wrapper macro is no command, nor is an ioctl's type.
 */
static void check_ioctl(struct eng *e, struct rv_uapi *st, long mstart)
{
	const char *line = e->line, *text = line, *name = NULL;
	struct re_m m;
	int noarg = 0, found = 0, define = 0;
	struct uapi_loc *l;

	if (mstart >= 0) {
		if (MQ(e, "^.\\s*#\\s*define\\s+\\w+\\(", e->lines[mstart]) ||
		    !re_match(e->rc, "^.\\s*#\\s*define\\s+(\\w+)", e->lines[mstart], &m))
			return;	/* a wrapper's body */
		name = eng_mcap(e, &m, 1);
		define = 1;
	} else if (MQ(e, "^.\\s*#\\s*define\\s+\\w+\\(", line)) {
		return;		/* a wrapper */
	} else if (re_match(e->rc, "^.\\s*#\\s*define\\s+(\\w+)", line, &m)) {
		name = eng_mcap(e, &m, 1);
		text = line + re_end(&m, 0);
		define = 1;
	} else if (!MQ(e, "^.\\s*case\\s+_IO", line)) {
		return;		/* a use of a command, not a definition */
	}
	if (re_match(e->rc, IOC_MACRO, text, &m)) {
		const char *mac = eng_mcap(e, &m, 1);

		found = 1;
		noarg = !strcmp(mac, "_IO") || !strcmp(mac, "DRM_IO");
	} else if (define) {
		size_t pos = 0, len = strlen(text);
		int guard;

		for (guard = 0; guard < 8 && re_find(e->rc, "\\b(\\w+)\\s*\\(", text, len, pos, &m); guard++) {
			const struct uapi_wrap *w = wrap_find(st, eng_mcap(e, &m, 1), WRAP_IOC);

			pos = re_end(&m, 0);
			if (w) {
				found = 1;
				noarg = w->noarg;
				break;
			}
		}
	}
	if (!found || existed(e, st, NULL, NULL))
		return;
	l = loc_add(e, st->iocs, &st->niocs, UAPI_MAX_ITEMS, name ? name : "");
	if (l)
		l->flags = noarg ? IOC_NOARG : 0;
}

/* A name that an ioctl command's type is, not a command. */
static int ioc_type(struct eng *e, struct rv_uapi *st, const char *name)
{
	return in_words(st->ioc_types, st->ntypes, name) ||
	       MQ(e, "_(?:MAGIC|BASE|TYPE|CODE|SHIFT|BITS|MASK|MAX|MIN|NR|COUNT|FIRST|LAST|START|END|SIZE)$", name);
}

/* .unlocked_ioctl, .compat_ioctl, a block device's .ioctl */
static void check_ioctl_handler(struct eng *e, struct rv_uapi *st)
{
	const char *field, *fn, *type;
	int old;
	long at;

	if (!M(e, "\\.\\s*((?:unlocked_|compat_)?ioctl)\\s*=\\s*(?!NULL\\b|snd_)(\\w+)", e->line))
		return;
	field = eng_cap(e, 1);
	fn = eng_cap(e, 2);
	/* compat_ptr_ioctl() only converts the pointer for the native
	 * handler: no handler of its own */
	if (!strcmp(fn, "compat_ptr_ioctl") || !strcmp(fn, "generic_compat_ioctl_ptrarg"))
		return;
	/* one finding per set of operations: the native handler's */
	if (!strcmp(field, "compat_ioctl") && enclosing_init(e, &type, &old, &at) &&
	    init_adds(e, at, "\\.\\s*(?:unlocked_)?ioctl\\s*=\\s*(?!NULL\\b)\\w"))
		return;
	emit(e, st, SEV_WARNING, R_UAPI_IOCTL_HANDLER, FAM_IOCTL_FN, 2,
	     "new .%s handler %s(): every command it accepts is user-space ABI forever, so check each argument from user space and return -ENOTTY for unknown commands");
}

/*
 * A case added to the switch of an existing ioctl or setsockopt/
 * getsockopt handler: a new command or option user space can use.  A
 * handler the patch adds is new as a whole (its hookup says so).
 */
static void check_case(struct eng *e, struct rv_uapi *st)
{
	long idx = e->linenr - 1, start;
	const char *hdr, *fn, *label;
	struct re_m m;
	struct uapi_loc *l;
	int kind;

	if (!re_match(e->rc, "^\\+\\s*case\\s+([A-Z][A-Z0-9_]*)\\s*:", e->line, &m))
		return;
	label = eng_mcap(e, &m, 1);
	hdr = rv_function(e, idx, &start);
	fn = rv_function_name(e, hdr);
	if (!*fn)
		return;
	if (MQ(e, "ioctl", fn))
		kind = 0;
	else if (MQ(e, "(?:set|get)sockopt", fn))
		kind = 1;
	else
		return;
	if (start < idx && e->lines[start][0] == '+' && has_word(e->lines[start], fn))
		return;
	if (existed(e, st, "\\bcase\\b", label) ||
	    in_words(st->abi_names, st->nabi_names, label))
		return;	/* moved, or a new name its header's finding says */
	l = loc_add(e, st->cases, &st->ncases, UAPI_MAX_ITEMS, label);
	if (!l)
		return;
	l->func = strdup(fn);
	if (!l->func)
		e->failed = 1;
	l->flags = kind;
}

/* ---- system calls ---- */

/* name's SYSCALL_DEFINEn (macro), table line or unistd.h number */
static void add_call(struct eng *e, struct rv_uapi *st, const char *name,
		     int flags, const char *macro)
{
	struct uapi_loc *l = loc_add(e, st->calls, &st->ncalls, UAPI_MAX_ITEMS, name);

	if (!l)
		return;
	l->flags = flags;
	if (macro && !(l->func = strdup(macro)))
		e->failed = 1;
}

/* ---- defaults ---- */

#define DEFAULT_SAID "changed default (the subject says so): behaviour users get without asking changes, so say in the commit message what user space sees and how to get the old behaviour back (a module parameter, a sysfs file or a quirk)"

/*
 * A module parameter's variable given another initial value, or (the
 * subject says a default changes) the first added line of C code that
 * says "default", else the first one: a changed default.
 */
static void check_default(struct eng *e, struct rv_uapi *st)
{
	struct re_m m;
	long lo, hi, k;

	if (st->nparams &&
	    re_match(e->rc, "^\\+(?:static\\s+)?(?:const\\s+)?(?:unsigned\\s+|signed\\s+)?\\w+\\s+\\**(\\w+)(?:\\[\\w*\\])?\\s*=\\s*([^;{]+);", e->line, &m) &&
	    in_words(st->params, st->nparams, eng_mcap(e, &m, 1))) {
		const char *name = eng_mcap(e, &m, 1), *now = trim(e, eng_mcap(e, &m, 2));
		const char *pat = eng_pat(e, "^-.*\\b%s(?:\\[\\w*\\])?\\s*(?:=\\s*([^;{]+))?;\\s*$", eng_quote(e, name));

		rv_block(e, e->linenr - 1, &lo, &hi);
		for (k = lo; k < hi; k++) {
			struct re_m o;
			const char *was;

			if (!re_match(e->rc, pat, e->lines[k], &o))
				continue;
			/* no initialiser: a static's zero */
			was = re_cap_defined(&o, 1) ? trim(e, eng_mcap(e, &o, 1)) : "0 (no initialiser)";
			if (strcmp(rv_squeeze(e, was), rv_squeeze(e, now))) {
				st->default_said = 1;
				report(e, SEV_WARNING, R_UAPI_DEFAULT_CHANGED,
				       eng_printf(e, "default of module parameter '%s' changed from %s to %s: everyone who does not set it gets the new behaviour, so say in the commit message what user space sees and how to get the old one back",
						  name, cut_words(e, was, 40), cut_words(e, now, 40)));
			}
			return;
		}
	}
	if (!st->by_default || st->default_said || !MQ(e, "\\.c$", e->realfile.buf))
		return;
	if (MQ(e, "(?i)\\bdefault", e->rawline)) {
		st->default_said = 1;
		report(e, SEV_WARNING, R_UAPI_DEFAULT_CHANGED, DEFAULT_SAID);
	} else if (!st->default_at.file && MQ(e, "^\\+\\s*[\\w*(]", e->line) &&
		   !MQ(e, "^\\+\\s*#", e->line)) {
		/* else said at the first line of code (final) */
		loc_set(e, &st->default_at, e->linenr, e->realline, e->realfile.buf,
			e->rawline, NULL, 0);
	}
}

/*
 * A new LED trigger: a struct led_trigger the patch defines (said at its
 * definition, with its .name), or a registration of one the patch does
 * not define (a name given as a string, a trigger made at run time).
 */
static void check_led_trigger(struct eng *e, struct rv_uapi *st)
{
	const char *what = NULL, *var;
	long i;
	struct re_m m;

	if (re_match(e->rc, "^\\+\\s*(?:static\\s+)?struct\\s+led_trigger\\s+(\\w+)\\s*=\\s*\\{", e->line, &m)) {
		var = eng_mcap(e, &m, 1);
		if (existed(e, st, "\\bstruct\\s+led_trigger\\b", var))
			return;
		what = var;
		for (i = e->linenr; (size_t)i < e->nlines && i < e->linenr + 20 &&
		     e->rawlines[i][0] == '+'; i++)
			if (re_match(e->rc, "^\\+\\s*\\.name\\s*=\\s*(\"[^\"]*\")", e->rawlines[i], &m)) {
				what = eng_mcap(e, &m, 1);
				break;
			}
		add_wordn(e, st->triggers, &st->ntriggers, var, strlen(var));
	} else if (M(e, "(?:^\\+\\s*|[=(,!]\\s*|\\breturn\\s+)((?:devm_)?led_trigger_register(?:_simple)?)\\s*\\(", e->line)) {
		struct rv_call c;
		const char *fn = eng_cap(e, 1);
		size_t open = re_end(&e->m, 0) - 1;
		int simple = !!strstr(fn, "_simple");

		if (!rv_gather_call(e, e->linenr - 1, open, '+', &c) ||
		    c.narg <= (size_t)(!strncmp(fn, "devm_", 5) && !simple))
			return;
		var = rv_squeeze(e, rv_arg(e, &c, !strncmp(fn, "devm_", 5) && !simple));
		if (*var == '&')
			var++;
		if (in_words(st->triggers, st->ntriggers, var) ||
		    existed(e, st, "\\bled_trigger_register", simple ? NULL : var))
			return;
		what = simple ? trim(e, rv_raw_arg(e, &c, 0)) : var;
	}
	if (what)
		report(e, SEV_WARNING, R_UAPI_LED_TRIGGER,
		       eng_printf(e, "new LED trigger %s: its name is what user space writes to /sys/class/leds/*/trigger, ABI forever, and any sysfs file the trigger adds needs an entry in Documentation/ABI/",
				  cut_words(e, what, 60)));
}

/* The checks of an added line of a C file. */
static void check_c(struct eng *e, struct rv_uapi *st)
{
	const char *line = e->line;
	long mstart = macro_start(e, e->linenr - 1, '+'), old;
	char *a, *b;

	check_ioctl(e, st, mstart);

	/*
	 * A macro's body (and a function-like macro's first line: a helper
	 * wrapping DEVICE_ATTR() or module_param(), the kernel's own macros)
	 * creates nothing until it is used; its uses are found through the
	 * wrappers scan_input() read.
	 */
	if (mstart >= 0 || MQ(e, "^.\\s*#\\s*define\\s+\\w+\\(", line))
		return;

	check_ioctl_handler(e, st);

	/* an ioctl command that is a bare number in a uapi header: no
	 * type, size, direction (elsewhere: when a handler switches on it) */
	if (st->is_uapi &&
	    M(e, "^\\+\\s*#\\s*define\\s+(\\w*_IOC(?:TL)?_\\w+)\\s+\\(?\\s*((?:0x[0-9a-fA-F]+|\\d+)[uUlL]*)\\s*\\)?\\s*$", line) &&
	    !MQ(e, "^_IOC_|(?:VERSION|FLAGS?|MASK|SHIFT|BITS?|SIZE|MAX|MIN|NUM|COUNT|LAST|FIRST|BASE|MAGIC|TYPE|CODE)(?:_|$)", eng_cap(e, 1)) &&
	    !ioc_type(e, st, eng_cap(e, 1)))
		emit(e, st, SEV_WARNING, R_UAPI_IOCTL_RAW_NUMBER, NULL, 0,
		     "ioctl command %s defined as the bare number %s: build it with _IO()/_IOR()/_IOW()/_IOWR() from a type reserved in Documentation/userspace-api/ioctl/ioctl-number.rst, so it carries its size and direction and cannot collide with another driver's");
	check_write_handler(e, st);
	check_sysfs(e, st);
	check_hwmon_info(e, st);
	check_case(e, st);
	check_default(e, st);

	/* procfs and debugfs names are strings: take them from the raw line */
	if (M(e, "\\b(proc_(?:create\\w*|mkdir\\w*|symlink))\\s*\\(\\s*([^,)]*)", line)) {
		a = eng_cap(e, 1);
		b = trim(e, raw_cap(e, 2));
		old = existed(e, st, FAM_PROC, b);
		if (!old)
			report(e, SEV_WARNING, R_UAPI_PROCFS,
			       eng_printf(e, "new procfs entry %s from %s(): /proc files are user-space ABI that cannot be removed once tools read them, and new driver or device information belongs in sysfs, not /proc",
					  cut_words(e, b, 80), a));
		else if (MQ(e, "_write$", a) && !MQ(e, "\\bproc_create\\w*_write\\s*\\(", e->rawlines[old - 1]))
			report(e, SEV_WARNING, R_UAPI_CHANGED,
			       eng_printf(e, "existing procfs entry %s made writable (%s()): writing it is new user-space ABI, so document what it accepts and check who may write it",
					  cut_words(e, b, 80), a));
	}

	/* debugfs is not ABI: nothing to say unless world-writable,
	 * which checkpatch.pl's EXPORTED_WORLD_WRITABLE reports */

	if (M(e, "\\b(register_chrdev(?:_region)?|__register_chrdev|alloc_chrdev_region|cdev_(?:device_)?add|misc_register)\\s*\\(()", line))
		emit(e, st, SEV_WARNING, R_UAPI_CHRDEV, FAM_CHRDEV, 1,
		     "new character device (%s()%s): its device node and every read/write/ioctl/mmap format on it are user-space ABI forever, so prefer an existing subsystem's interface where one fits");

	/* system calls: said once per call, at the end */
	if (M(e, "\\b((?:COMPAT_)?SYSCALL_DEFINE[0-6])\\s*\\(\\s*(\\w+)", line) &&
	    !existed(e, st, FAM_SYSCALL, eng_cap(e, 2)))
		add_call(e, st, eng_cap(e, 2), SC_DEFINE, eng_cap(e, 1));
	if (st->is_unistd &&
	    M(e, "^\\+\\s*#\\s*define\\s+__NR(?:3264)?_((?!syscalls\\b)\\w+)\\s", line) &&
	    !existed(e, st, NULL, NULL))
		add_call(e, st, eng_cap(e, 1), SC_UNISTD, NULL);

	if (M(e, "\\b()genl_register_family\\s*\\(\\s*&?\\s*(\\w+)", line))
		emit(e, st, SEV_WARNING, R_UAPI_NETLINK, FAM_GENL, 2,
		     "new generic netlink family %s%s: its name, commands and attributes are user-space ABI forever, so describe it in a YAML spec under Documentation/netlink/specs/");
	if (st->is_netlink_h &&
	    M(e, "^\\+\\s*#\\s*define\\s+(NETLINK_\\w+)\\s+\\d()", line))
		emit(e, st, SEV_WARNING, R_UAPI_NETLINK, NULL, 0,
		     "new netlink protocol number %s%s: protocol numbers are a scarce ABI forever, and a generic netlink family is the usual way to add one");

	if (M(e, "\\b((?:module|core)_param(?:_\\w+)?)\\s*\\(\\s*(\\w+)", line))
		emit(e, st, SEV_WARNING, R_UAPI_MODULE_PARAM, FAM_PARAM, 2,
		     "new module parameter '%2$s' (%1$s): module parameters are user-visible ABI on the command line and in /sys/module/ that cannot be removed once used, so prefer a per-device interface");
	/* the parameter's name is a string: take it from the raw line */
	if (M(e, "^\\+\\s*(__setup|early_param)\\s*\\(\\s*(\"[^\"]*\")", e->rawline) &&
	    !existed(e, st, "\\b(?:__setup|early_param)\\s*\\(", eng_cap(e, 2)))
		report(e, SEV_WARNING, R_UAPI_MODULE_PARAM,
		       eng_printf(e, "new kernel command-line parameter %s (%s): boot parameters are user-visible ABI that cannot be removed once used, so prefer a module parameter or a per-device interface",
				  cut_words(e, eng_cap(e, 2), 60), eng_cap(e, 1)));

	/* sysctls: named in the raw line, said once per file (final) */
	if (M(e, "^\\+\\s*\\.procname\\s*=\\s*\"([^\"]+)\"", e->rawline) &&
	    !existed(e, st, "\\.procname\\b", eng_cap(e, 1)))
		loc_add(e, st->sysctls, &st->nsysctls, UAPI_MAX_ITEMS, eng_cap(e, 1));

	check_led_trigger(e, st);

	if (M(e, "\\b(configfs_register_subsystem)\\s*\\(\\s*&?\\s*(\\w+)", line) ||
	    M(e, "\\b(CONFIGFS_(?:BIN_)?ATTR\\w*)\\s*\\(\\s*\\w+\\s*,\\s*(\\w+)", line))
		emit(e, st, SEV_WARNING, R_UAPI_CONFIGFS, FAM_CONFIGFS, 2,
		     "new configfs interface %2$s (%1$s): configfs items and attributes are user-space ABI forever and need an entry in Documentation/ABI/");
}

void rv_uapi_line(struct eng *e)
{
	struct rv_uapi *st = st_get(e);
	int side;

	if (!st)
		return;
	track_file(e, st);
	if (e->in_commit_log)
		return;

	/*
	 * A uapi header renamed away breaks every program including it; one
	 * renamed into uapi/ is a new one (once per rename: "from" first).
	 */
	if (!e->hunk_line &&
	    (M(e, "^rename from ((?:arch/[^/]+/)?include/uapi/\\S+)", e->rawline) ||
	     (M(e, "^rename to ((?:arch/[^/]+/)?include/uapi/\\S+)", e->rawline) &&
	      !MQ(e, "^rename from (?:arch/[^/]+/)?include/uapi/",
		  e->linenr >= 2 ? e->rawlines[e->linenr - 2] : "")))) {
		char *path = eng_cap(e, 1);
		struct uapi_loc l = {
			.linenr = e->linenr, .file = path,
			.rawline = (char *)e->rawline,
		};

		/* located at the file (no line) so --json can name it */
		report_at(e, R_UAPI_HEADER, &l,
			  eng_printf(e, "user-space API header %s renamed: uapi headers are ABI forever and programs include them by their name",
				     path));
		return;
	}

	side = st->side ? st->side[e->linenr - 1] : 0;
	if (!side || (!e->hunk_line && side != '-'))
		return;
	if (side == ' ') {
		/* what a call spanning changed lines creates */
		if (st->is_c)
			check_hwmon_info(e, st);
		return;
	}

	/* a changed uapi header: what changed is said when the file ends */
	if (st->is_uapi && !st->deleted) {
		st->uapi_done = 1;
		uapi_header_line(e, st);
	}
	if (side == '-') {
		if (st->is_c && (!st->is_uapi || st->bt != BT_NONE))
			check_removed(e, st);
		return;
	}

	if (st->is_abi || st->is_hwdoc) {
		struct sbuf *doc = st->is_abi ? &st->abi : &st->hwdoc;

		/* past the cap the sbuf keeps what it has: enough to name */
		sbuf_addstr(doc, e->rawline + 1);
		sbuf_addch(doc, '\n');
		st->has_abi |= st->is_abi;
		return;
	}

	if (st->is_tbl) {
		if (M(e, "^\\+\\s*(\\d+)\\s+\\w+\\s+(\\w+)", e->line) && !existed(e, st, NULL, NULL))
			add_call(e, st, eng_cap(e, 2), SC_TABLE, NULL);
		return;
	}

	if (st->is_c)
		check_c(e, st);
}

/* Reports at a line seen earlier (--json and --showfile locate it there). */
static void report_at(struct eng *e, enum rule_id id, const struct uapi_loc *l,
		      const char *msg)
{
	rv_report_raw(e, SEV_WARNING, id, l->file, l->linenr, l->realline, l->rawline, msg);
}

/*
 * One UAPI_SYSFS per file: the attributes it adds, named, at the first;
 * a registration when the patch names no attribute.  hwmon's standard
 * attributes are its subsystem's documented ABI: their units and formats
 * are what to check; any other attribute of a hwmon device is the
 * driver's own ABI, documented in Documentation/hwmon/.
 */
static void report_sysfs(struct eng *e, struct rv_uapi *st)
{
	size_t i, j;

	for (i = 0; i < st->nattrs; i++) {
		const struct uapi_loc *a = &st->attrs[i];
		size_t n = 0, nbin = 0, nw = 0, nhw = 0, nstd = 0;
		struct namelist nl;
		const char *names, *tail;

		for (j = 0; j < i; j++)
			if (!strcmp(st->attrs[j].file, a->file))
				break;
		if (j < i)
			continue;	/* that file's finding is made */
		names_init(&nl, 200, 1);
		for (j = i; j < st->nattrs; j++) {
			const struct uapi_loc *b = &st->attrs[j];

			if (strcmp(b->file, a->file))
				continue;
			n++;
			names_add(&nl, b->name,
				  eng_printf(e, "%s%s%s%s%s%s",
					     (b->flags & (ATTR_BIN | ATTR_WRITE)) ||
					     (b->flags & (ATTR_HWMON | ATTR_STD)) == ATTR_HWMON ? " (" : "",
					     (b->flags & (ATTR_HWMON | ATTR_STD)) == ATTR_HWMON ? "non-standard" : "",
					     (b->flags & (ATTR_HWMON | ATTR_STD)) == ATTR_HWMON &&
					     (b->flags & (ATTR_BIN | ATTR_WRITE)) ? ", " : "",
					     (b->flags & ATTR_BIN) ? "binary" : "",
					     (b->flags & ATTR_BIN) && (b->flags & ATTR_WRITE) ? ", writable" :
					     (b->flags & ATTR_WRITE) ? "writable" : "",
					     (b->flags & (ATTR_BIN | ATTR_WRITE)) ||
					     (b->flags & (ATTR_HWMON | ATTR_STD)) == ATTR_HWMON ? ")" : ""));
			nbin += (b->flags & ATTR_BIN) != 0;
			nw += (b->flags & ATTR_WRITE) != 0;
			nhw += (b->flags & ATTR_HWMON) != 0;
			nstd += (b->flags & ATTR_STD) != 0;
		}
		names = names_str(e, &nl);
		names_release(&nl);
		if (nhw == n && nstd == n)
			tail = eng_printf(e, "%s of Documentation/hwmon/sysfs-interface.rst, ABI that libsensors reads, so %s the unit and format that document gives%s",
					  n > 1 ? "standard hwmon names" : "a standard hwmon name",
					  n > 1 ? "each value must have" : "its value must have",
					  nw ? "; check every value written" : "");
		else if (nhw == n)
			tail = eng_printf(e, "%s name, location and value format become ABI that cannot change once released; a name outside Documentation/hwmon/sysfs-interface.rst is this driver's own ABI, so describe it in Documentation/hwmon/ (the driver's page) or use a standard one%s",
					  n > 1 ? "their" : "its",
					  nw ? "; check every value written" : "");
		else
			tail = eng_printf(e, "%s name, location and value format become user-space ABI that cannot change once released, so %s one value per file and an entry in Documentation/ABI/%s",
					  n > 1 ? "their" : "its", n > 1 ? "each needs" : "it needs",
					  nbin ? (nw ? "; a writable binary attribute lets user space write raw bytes to the device, so check every offset and size" :
						  "; a binary attribute passes raw bytes, so its layout is ABI too") :
					  nw ? "; check every value written" : "");
		report_at(e, R_UAPI_SYSFS, a,
			  eng_printf(e, "new %s %s %s: %s", nhw == n ? "hwmon" : "sysfs",
				     n > 1 ? "attributes" : "attribute", names, tail));
	}
	if (!st->nattrs && st->has_reg)
		report_at(e, R_UAPI_SYSFS, &st->reg,
			  eng_printf(e, "new sysfs files registered%s%s%s: every file it adds becomes user-space ABI that cannot change once released and needs an entry in Documentation/ABI/",
				     st->reg.name ? " (" : "", st->reg.name ? st->reg.name : "",
				     st->reg.name ? ")" : ""));
}

/* The line in the new file of (added or context) line idx, or 0. */
static long new_line_of(struct eng *e, long idx)
{
	long i, n = 0;
	struct re_m m;

	for (i = idx; i >= 0; i--) {
		if (!strncmp(e->rawlines[i], "@@ ", 3))
			return re_match(e->rc, "^@@ -\\d+(?:,\\d+)? \\+(\\d+)", e->rawlines[i], &m) ?
			       strtol(eng_mcap(e, &m, 1), NULL, 10) + n - 1 : 0;
		if (e->rawlines[i][0] == '+' || e->rawlines[i][0] == ' ')
			n++;
		else if (e->rawlines[i][0] != '-')
			return 0;
	}
	return 0;
}

/*
 * A write handler whose body the patch adds without a capability check:
 * a question (the file's mode may be the check), asked at its body.
 */
static void check_writers(struct eng *e, struct rv_uapi *st)
{
	size_t i;
	long l;

	for (i = 0; i < st->nwriters; i++) {
		const char *pat = eng_pat(e, "^\\+(?:static\\s+)?\\w.*\\b%s\\s*\\(", eng_quote(e, st->writers[i].name));
		long def = 0, end = 0;
		int cap = 0;

		for (l = 0; (size_t)l < e->nlines && !def; l++)
			if (MQ(e, pat, e->lines[l]) && !MQ(e, ";\\s*$", e->lines[l]))
				def = l;
		if (!def)
			continue;
		for (l = def; (size_t)l < e->nlines && e->lines[l][0] == '+'; l++) {
			if (MQ(e, "\\b(?:capable|ns_capable|file_ns_capable|sockopt_ns_capable|netlink_capable|has_capability\\w*|perfmon_capable|bpf_capable)\\s*\\(|\\bCAP_SYS_", e->lines[l]))
				cap = 1;
			if (l > def && MQ(e, "^\\+\\}", e->lines[l])) {
				end = l;
				break;
			}
		}
		if (!end || cap)
			continue;
		{
			struct uapi_loc at = st->writers[i];

			at.linenr = def + 1;
			at.realline = new_line_of(e, def);
			at.rawline = (char *)e->rawlines[def];
			report_at(e, R_PRIV_WRITE_NO_CAPABLE, &at,
				  eng_printf(e, "check who may write through %s(): it changes the driver's state with no capable()/ns_capable()/file_ns_capable() check, so the file's mode alone decides (and root in a user namespace may pass it)",
					     st->writers[i].name));
		}
	}
}

/* The path of the file (new name) that line idx belongs to, or NULL. */
static const char *file_of(struct eng *e, long idx)
{
	struct re_m m;

	for (; idx >= 0; idx--)
		if (!strncmp(e->rawlines[idx], "+++ ", 4))
			return re_match(e->rc, "^\\+\\+\\+ (?:[^/\\s]*/)?(\\S+)", e->rawlines[idx], &m) ?
			       eng_mcap(e, &m, 1) : NULL;
	return NULL;
}

/*
 * ioctl commands that are bare numbers outside a uapi header: a
 * "#define NAME 0x4600" the patch adds and an ioctl handler it adds
 * switches on ("case NAME:").  A register's or a type's number is none.
 */
static void check_raw_ioctl_cases(struct eng *e, struct rv_uapi *st)
{
	const char *names[64];
	size_t n = 0, k;
	long i;
	struct re_m m;

	for (i = 0; (size_t)i < e->nlines && n < 64; i++) {
		long start;

		if (e->lines[i][0] != '+' ||
		    !re_match(e->rc, "^\\+\\s*case\\s+([A-Za-z_]\\w*)\\s*:", e->lines[i], &m))
			continue;
		if (MQ(e, "ioctl", rv_function_name(e, rv_function(e, i, &start))))
			names[n++] = eng_mcap(e, &m, 1);
	}
	for (i = 0; n && (size_t)i < e->nlines; i++) {
		const char *name, *file;
		struct uapi_loc at = { 0 };

		if (e->lines[i][0] != '+' ||
		    !re_match(e->rc, "^\\+\\s*#\\s*define\\s+(\\w+)\\s+\\(?\\s*(?:0x[0-9a-fA-F]+|\\d+)[uUlL]*\\s*\\)?[\\s\\x1c]*(?:/\\*.*)?$", e->lines[i], &m))
			continue;
		name = eng_mcap(e, &m, 1);
		for (k = 0; k < n && strcmp(names[k], name); k++)
			;
		file = file_of(e, i);
		if (k == n || !file || ioc_type(e, st, name) ||
		    (MQ(e, "^(?:arch/[^/]+/)?include/uapi/", file) && MQ(e, "IOC", name)))
			continue;	/* check_c() said it */
		at.linenr = i + 1;
		at.realline = new_line_of(e, i);
		at.file = (char *)file;
		at.rawline = (char *)e->rawlines[i];
		report_at(e, R_UAPI_IOCTL_RAW_NUMBER, &at,
			  eng_printf(e, "ioctl command %s is a bare number that an ioctl handler switches on: build it with _IO()/_IOR()/_IOW()/_IOWR() from a type reserved in Documentation/userspace-api/ioctl/ioctl-number.rst, so it carries its size and direction and cannot collide with another driver's (collisions with the table are not checked without a tree)",
				     name));
	}
}

/* One UAPI_IOCTL per file: the commands it defines. */
static void report_iocs(struct eng *e, struct rv_uapi *st)
{
	size_t i, j;

	for (i = 0; i < st->niocs; i++) {
		const struct uapi_loc *a = &st->iocs[i];
		size_t n = 0, noarg = 0, unnamed = 0;
		struct namelist nl;
		const char *names;

		for (j = 0; j < i && strcmp(st->iocs[j].file, a->file); j++)
			;
		if (j < i)
			continue;
		names_init(&nl, 220, 0);
		for (j = i; j < st->niocs; j++) {
			const struct uapi_loc *b = &st->iocs[j];

			if (strcmp(b->file, a->file))
				continue;
			n++;
			noarg += (b->flags & IOC_NOARG) != 0;
			if (*b->name)
				names_add(&nl, b->name, "");
			else
				unnamed++;
		}
		names = names_str(e, &nl);
		names_release(&nl);
		if (unnamed)
			names = eng_printf(e, "%s%s%zu written as _IO*() in a case label",
					   names, *names ? " and " : "", unnamed);
		report_at(e, R_UAPI_IOCTL, a,
			  eng_printf(e, "new ioctl %s %s: %s",
				     n > 1 ? "commands" : "command", names,
				     noarg == n ?
				     (n > 1 ? "ioctl numbers are ABI forever, so reserve their type in Documentation/userspace-api/ioctl/ioctl-number.rst" :
				      "an ioctl number is ABI forever, so reserve its type in Documentation/userspace-api/ioctl/ioctl-number.rst") :
				     eng_printf(e, "%s, direction and argument layout are ABI forever, so use fixed-size __u32/__u64 fields with explicit padding and reserve a type in Documentation/userspace-api/ioctl/ioctl-number.rst",
						n > 1 ? "their numbers" : "its number")));
	}
}

/* Whether name is an ioctl command the patch defines (UAPI_IOCTL). */
static int ioc_defined(const struct rv_uapi *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->niocs; i++)
		if (!strcmp(st->iocs[i].name, name))
			return 1;
	return 0;
}

/* One UAPI_IOCTL_COMMAND / UAPI_SOCKOPT per file and kind. */
static void report_cases(struct eng *e, struct rv_uapi *st)
{
	size_t i, j;

	for (i = 0; i < st->ncases; i++) {
		const struct uapi_loc *a = &st->cases[i], *first = NULL;
		struct namelist cmds, fns;
		const char *c, *f;

		for (j = 0; j < i; j++)
			if (!strcmp(st->cases[j].file, a->file) &&
			    st->cases[j].flags == a->flags)
				break;
		if (j < i)
			continue;
		names_init(&cmds, 180, 0);
		names_init(&fns, 100, 0);
		for (j = i; j < st->ncases; j++) {
			const struct uapi_loc *b = &st->cases[j];
			size_t k;

			if (strcmp(b->file, a->file) || b->flags != a->flags ||
			    (!b->flags && ioc_defined(st, b->name)))
				continue;
			for (k = i; k < j; k++)
				if (!strcmp(st->cases[k].file, b->file) &&
				    st->cases[k].flags == b->flags &&
				    !strcmp(st->cases[k].name, b->name))
					break;
			if (k == j)
				names_add(&cmds, b->name, "");
			for (k = i; k < j; k++)
				if (!strcmp(st->cases[k].file, b->file) &&
				    st->cases[k].flags == b->flags &&
				    !strcmp(st->cases[k].func, b->func))
					break;
			if (k == j)
				names_add(&fns, eng_printf(e, "%s()", b->func), "");
			if (!first)
				first = b;
		}
		c = names_str(e, &cmds);
		f = names_str(e, &fns);
		if (first)
			report_at(e, a->flags ? R_UAPI_SOCKOPT : R_UAPI_IOCTL_COMMAND, first,
				  a->flags ?
				  eng_printf(e, "%s now accept%s the socket option%s %s: an option user space can set or read is ABI forever, so check its length and every value, and say in the commit message what it does",
					     f, fns.n > 1 ? "" : "s", cmds.n > 1 ? "s" : "", c) :
				  eng_printf(e, "%s now accept%s the ioctl command%s %s: every command accepted is ABI forever, so check each argument from user space and say in the commit message what it does",
					     f, fns.n > 1 ? "" : "s", cmds.n > 1 ? "s" : "", c));
		names_release(&cmds);
		names_release(&fns);
	}
}

/*
 * One UAPI_SYSCALL per system call: its SYSCALL_DEFINEn, with the tables
 * and unistd.h numbers that wire it up counted, not said each.
 */
static void report_calls(struct eng *e, struct rv_uapi *st)
{
	size_t i, j;

	for (i = 0; i < st->ncalls; i++) {
		const struct uapi_loc *a = &st->calls[i], *at = NULL;
		size_t tables = 0;
		int flags = 0;
		const char *how, *wired;

		for (j = 0; j < i && strcmp(st->calls[j].name, a->name); j++)
			;
		if (j < i)
			continue;
		for (j = i; j < st->ncalls; j++) {
			const struct uapi_loc *b = &st->calls[j];

			if (strcmp(b->name, a->name))
				continue;
			flags |= b->flags;
			tables += (b->flags & SC_TABLE) != 0;
			if (!at || ((b->flags & SC_DEFINE) && !(at->flags & SC_DEFINE)) ||
			    ((b->flags & SC_UNISTD) && (at->flags & SC_TABLE)))
				at = b;
		}
		wired = eng_printf(e, "%s%s%s",
				   tables ? eng_printf(e, "numbered in %zu syscall table%s", tables,
						       tables > 1 ? "s" : "") : "",
				   tables && (flags & SC_UNISTD) ? " and " : "",
				   (flags & SC_UNISTD) ? "unistd.h" : "");
		how = (flags & SC_DEFINE) ?
		      eng_printf(e, "new system call %s (%s%s%s)", a->name, at->func,
				 *wired ? ", " : "", wired) :
		      eng_printf(e, "new system call number for %s (%s)", a->name, wired);
		report_at(e, R_UAPI_SYSCALL, at,
			  eng_printf(e, "%s: its number and arguments are ABI forever, so it needs %s",
				     how, st->to_linux_api ?
				     "a man page and selftests" :
				     "a man page, selftests and review on linux-api@vger.kernel.org"));
	}
}

/* One UAPI_SYSCTL per file: the sysctls it adds. */
static void report_sysctls(struct eng *e, struct rv_uapi *st)
{
	size_t i, j;

	for (i = 0; i < st->nsysctls; i++) {
		const struct uapi_loc *a = &st->sysctls[i];
		struct namelist nl;

		for (j = 0; j < i && strcmp(st->sysctls[j].file, a->file); j++)
			;
		if (j < i)
			continue;
		names_init(&nl, 220, 1);
		for (j = i; j < st->nsysctls; j++)
			if (!strcmp(st->sysctls[j].file, a->file))
				names_add(&nl, st->sysctls[j].name, "");
		report_at(e, R_UAPI_SYSCTL, a,
			  eng_printf(e, "new %s %s: /proc/sys files are user-space ABI forever, so document %s in Documentation/admin-guide/sysctl/ and check the range of every value written",
				     nl.n > 1 ? "sysctls" : "sysctl", names_str(e, &nl),
				     nl.n > 1 ? "each" : "it"));
		names_release(&nl);
	}
}

void rv_uapi_final(struct eng *e)
{
	struct rv_uapi *st = e->rv_uapi;
	struct namelist nl;
	const struct uapi_loc *first = NULL;
	size_t i;
	int hw = 0, other = 0;

	if (!st)
		return;
	track_file(e, st);
	file_end(e, st);
	for (i = 0; i < st->nfiles; i++)
		report_at(e, R_UAPI_HEADER, &st->files[i],
			  st->files[i].deleted ?
			  eng_printf(e, "ABI removed, not added: user-space API header %s deleted; everything in it is ABI forever, and removing it breaks programs built against it",
				     st->files[i].file) :
			  eng_printf(e, "user-space API header %s changed: everything in it is ABI forever, and removing or moving anything breaks programs built against it",
				     st->files[i].file));

	report_removed(e, st);
	report_sysfs(e, st);
	report_iocs(e, st);
	report_cases(e, st);
	report_calls(e, st);
	report_sysctls(e, st);
	if (st->by_default && !st->default_said && st->default_at.file)
		report_at(e, R_UAPI_DEFAULT_CHANGED, &st->default_at, DEFAULT_SAID);
	check_writers(e, st);
	check_raw_ioctl_cases(e, st);

	/*
	 * sysfs attributes the patch's Documentation/ABI/ (a hwmon device's:
	 * or Documentation/hwmon/) lines do not name; hwmon's standard ones
	 * are documented already
	 */
	names_init(&nl, 200, 1);
	for (i = 0; i < st->nattrs; i++) {
		const struct uapi_loc *a = &st->attrs[i];

		if (a->flags & ATTR_STD)
			continue;
		if (st->has_abi && has_word(st->abi.buf, a->name))
			continue;
		if ((a->flags & ATTR_HWMON) && has_word(st->hwdoc.buf, a->name))
			continue;
		if (!first)
			first = a;
		hw |= (a->flags & ATTR_HWMON) != 0;
		other |= !(a->flags & ATTR_HWMON);
		names_add(&nl, a->name, "");
	}
	if (first)
		report_at(e, R_UAPI_SYSFS_UNDOCUMENTED, first,
			  eng_printf(e, "sysfs %s %s added without %s: every sysfs file is ABI and must be described in %s in the same patch or series",
				     nl.n > 1 ? "attributes" : "attribute", names_str(e, &nl),
				     hw && (st->has_abi || st->hwdoc.len) ? "being named in this patch's documentation" :
				     hw ? "documentation" :
				     st->has_abi ? "being named in this patch's Documentation/ABI/ entry" :
				     "a Documentation/ABI/ entry",
				     hw && !other ? "Documentation/hwmon/ (the driver's page)" :
				     hw ? "Documentation/ABI/testing/ (a hwmon device's: Documentation/hwmon/)" :
				     "Documentation/ABI/testing/"));
	else if (!st->nattrs && st->has_reg && !st->has_abi)
		report_at(e, R_UAPI_SYSFS_UNDOCUMENTED, &st->reg,
			  "sysfs files registered without a Documentation/ABI/ entry: every sysfs file is ABI and must be described in Documentation/ABI/testing/ in the same patch or series");
	names_release(&nl);
}

void rv_uapi_release(struct eng *e)
{
	struct rv_uapi *st = e->rv_uapi;
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nfiles; i++)
		loc_free(&st->files[i]);
	for (i = 0; i < st->nattrs; i++)
		loc_free(&st->attrs[i]);
	for (i = 0; i < st->niocs; i++)
		loc_free(&st->iocs[i]);
	for (i = 0; i < st->ncases; i++)
		loc_free(&st->cases[i]);
	for (i = 0; i < st->ncalls; i++)
		loc_free(&st->calls[i]);
	for (i = 0; i < st->nsysctls; i++)
		loc_free(&st->sysctls[i]);
	for (i = 0; i < st->nremoved; i++)
		loc_free(&st->removed[i]);
	free(st->hw_file);
	sbuf_release(&st->hw_new);
	sbuf_release(&st->hw_old);
	loc_free(&st->reg);
	for (i = 0; i < st->nwriters; i++)
		loc_free(&st->writers[i]);
	for (i = 0; i < SAY__COUNT; i++)
		sbuf_release(&st->said[i]);
	for (i = 0; i < st->nwraps; i++) {
		free(st->wraps[i].name);
		free(st->wraps[i].pre);
		free(st->wraps[i].suf);
	}
	for (i = 0; i < st->ntypes; i++)
		free(st->ioc_types[i]);
	for (i = 0; i < st->nparams; i++)
		free(st->params[i]);
	for (i = 0; i < st->nabi_names; i++)
		free(st->abi_names[i]);
	for (i = 0; i < st->ntriggers; i++)
		free(st->triggers[i]);
	loc_free(&st->hdr_first);
	loc_free(&st->default_at);
	sbuf_release(&st->abi);
	sbuf_release(&st->hwdoc);
	free(st->side);
	free(st->path);
	free(st);
	e->rv_uapi = NULL;
}

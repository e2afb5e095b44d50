// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot's user-space interface checks: every added line that creates
 * something user space can see (a uapi header, an ioctl number or handler,
 * a sysfs, procfs or configfs file, a character device, a system call, a
 * netlink family, a module parameter) is reported where it is created,
 * because once a kernel with it is released user space may depend on it and
 * it can never be changed or removed.  debugfs is reported too, as the one
 * interface that is NOT ABI.  After the last line, sysfs attributes added
 * without a Documentation/ABI/ entry in the same patch are reported.
 *
 * Only added lines of C files are matched, on the sanitised line (comments
 * and string contents masked), so a name in a comment or string, a removed
 * or a context line stays quiet.
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

/* where a finding goes when it is reported after the last line */
struct uapi_loc {
	long linenr;		/* line in the patch */
	long realline;		/* line in the new file, 0 for a header */
	char *file;
	char *rawline;
	char *name;		/* the attribute's name, or NULL */
	int deleted;		/* a uapi file the patch deletes */
	int flags;		/* ATTR_* of an attribute */
};

#define ATTR_BIN	1	/* BIN_ATTR*: raw bytes */
#define ATTR_WRITE	2	/* writable */

/* What a uapi header's hunks change, said in its UAPI_HEADER finding. */
#define UAPI_MAX_SAID	6	/* names listed per kind */
enum { SAY_DEF_ADD, SAY_DEF_CHG, SAY_DEF_DEL, SAY_TYPE_ADD, SAY_ENUM_APPEND,
       SAY_ENUM_INSERT, SAY_ENUM_DEL, SAY_FIELD_ADD, SAY_FIELD_DEL, SAY_OTHER,
       SAY__COUNT };

struct rv_uapi {
	long last_linenr;	/* the last line rv_uapi_line() saw */
	char *path;		/* the current file (the old name if deleted) */
	long hdr_linenr;	/* its "+++ " line */
	int is_c, is_uapi, uapi_done, is_tbl, is_unistd, is_netlink_h, is_abi;
	int deleted, is_new;

	struct uapi_loc files[UAPI_MAX_FILES];	/* uapi, no added line */
	size_t nfiles;
	struct uapi_loc attrs[UAPI_MAX_ATTRS];	/* named sysfs attributes */
	size_t nattrs;
	struct uapi_loc reg;	/* first sysfs registration (no name) */
	int has_reg;
	struct sbuf abi;	/* added Documentation/ABI/ lines */
	int has_abi;

	/* the current uapi header: what its changed lines do */
	struct sbuf said[SAY__COUNT];
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

static struct rv_uapi *st_get(struct eng *e)
{
	if (!e->rv_uapi) {
		e->rv_uapi = calloc(1, sizeof(*e->rv_uapi));
		if (!e->rv_uapi) {
			e->failed = 1;
			return NULL;
		}
		sbuf_init(&e->rv_uapi->abi, UAPI_MAX_ABI);
		for (int k = 0; k < SAY__COUNT; k++)
			sbuf_init(&e->rv_uapi->said[k], 4096);
	}
	return e->rv_uapi;
}

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
	st->is_uapi = MQ(e, "^(?:arch/[^/]+/)?include/uapi/", path);
	st->is_c = MQ(e, "\\.[ch]$", path);
	st->is_tbl = MQ(e, "^(?:arch/.+/syscalls?/[^/]+|arch/[^/]+/tools/syscall[^/]*|scripts/syscall[^/]*)\\.tbl$", path);
	st->is_unistd = MQ(e, "^(?:arch/[^/]+/)?include/uapi/.*unistd[^/]*\\.h$", path);
	st->is_netlink_h = !strcmp(path, "include/uapi/linux/netlink.h");
	st->is_abi = MQ(e, "^Documentation/ABI/", path);
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

static void add_attr(struct eng *e, struct rv_uapi *st, const char *name,
		     size_t n, int flags)
{
	if (st->nattrs < UAPI_MAX_ATTRS &&
	    !loc_set(e, &st->attrs[st->nattrs], e->linenr, e->realline,
		     e->realfile.buf, e->rawline, name, n))
		st->attrs[st->nattrs++].flags = flags;
}

/*
 * Whether the attribute defined on line l (raw) is writable: an _RW/_WO
 * macro, or a mode with a write bit.
 */
static int attr_writable(struct eng *e, const char *l)
{
	struct re_m m;

	if (MQ(e, "\\b(?:DEVICE|DRIVER|CLASS|BUS|BIN)?_*ATTR_(?:RW|WO|ADMIN_RW|WO_\\w*|RW_\\w*)\\b", l))
		return 1;
	if (MQ(e, "\\b(?:DEVICE|DRIVER|CLASS|BUS|BIN)?_*ATTR_(?:RO|ADMIN_RO|RO_\\w*)\\b", l))
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
#define FAM_SYSFS	"\\b(?:(?:DEVICE|DRIVER|CLASS|BUS|BIN)_ATTR|__ATTR|__BIN_ATTR)|\\bsysfs_create_|\\bATTRIBUTE_GROUPS\\b"
#define FAM_PROC	"\\bproc_(?:create|mkdir|symlink)"
#define FAM_CHRDEV	"\\b(?:register_chrdev|alloc_chrdev_region|cdev_(?:device_)?add|misc_register)\\b"
#define FAM_SYSCALL	"\\bSYSCALL_DEFINE"
#define FAM_GENL	"\\bgenl_register_family\\b"
#define FAM_PARAM	"\\b(?:module|core)_param"
#define FAM_CONFIGFS	"\\b(?:configfs_register_subsystem|CONFIGFS_(?:BIN_)?ATTR)"
#define FAM_IOCTL_FN	"\\.\\s*(?:unlocked_|compat_)?ioctl\\b"

/* sysfs: attribute definitions and registrations */
static void check_sysfs(struct eng *e, struct rv_uapi *st)
{
	const char *line = e->line;

	if (M(e, "\\b((?:DEVICE|DRIVER|CLASS|BUS)_ATTR(?:_\\w+)?|__ATTR(?:_(?!NULL\\b)\\w+)?|(?:__)?BIN_ATTR(?:_\\w+)?)\\s*\\(\\s*(\\w+)", line)) {
		char *macro = eng_cap(e, 1), *name = eng_cap(e, 2);
		int flags = (strstr(macro, "BIN_ATTR") ? ATTR_BIN : 0) |
			    (attr_writable(e, e->rawline) ? ATTR_WRITE : 0);
		long old = existed(e, st, FAM_SYSFS, name);

		if (old) {
			/* an existing attribute: only a new write side is news */
			if ((flags & ATTR_WRITE) && !attr_writable(e, e->rawlines[old - 1]))
				report(e, SEV_WARNING, R_UAPI_CHANGED,
				       eng_printf(e, "existing sysfs attribute '%s' made writable (%s): writing it is new user-space ABI, so document what it accepts in Documentation/ABI/ and check every value",
						  name, macro));
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
				  call, trim(e, args)));
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
 * foo_ops = {"): its type in *type, and whether that line is old (a
 * context line).  0 when not found within the hunk.
 */
static int enclosing_init(struct eng *e, const char **type, int *old)
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
			return 1;
		}
		if (MQ(e, "^.\\s*\\}\\s*;", l) || MQ(e, "^.\\S.*\\)\\s*$", l))
			return 0;
	}
	return 0;
}

/*
 * A write handler put in a procfs or character device's operations:
 * news when the operations already existed; remembered to check for a
 * capable() in its body (PRIV_WRITE_NO_CAPABLE, at the end).
 */
static void check_write_handler(struct eng *e, struct rv_uapi *st)
{
	const char *type, *fn;
	int old;

	if (!M(e, "\\.\\s*((?:proc_)?write(?:_iter)?)\\s*=\\s*(?!NULL\\b|seq_|simple_)(\\w+)", e->line))
		return;
	fn = eng_cap(e, 2);
	if (!enclosing_init(e, &type, &old) ||
	    !MQ(e, "^(?:proc_ops|file_operations)$", type) ||
	    existed(e, st, "\\.\\s*(?:proc_)?write", fn))
		return;
	if (old)
		report(e, SEV_WARNING, R_UAPI_CHANGED,
		       eng_printf(e, "write handler %s() added to the existing %s: writing the file is new user-space ABI, so document what it accepts and check who may write it",
				  fn, type));
	if (st->nwriters < UAPI_MAX_ATTRS &&
	    !loc_set(e, &st->writers[st->nwriters], e->linenr, e->realline,
		     e->realfile.buf, e->rawline, fn, strlen(fn)))
		st->nwriters++;
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
		{ "\\b(?:(?:DEVICE|DRIVER|CLASS|BUS)_ATTR(?:_\\w+)?|__ATTR(?:_(?!NULL\\b)\\w+)?|(?:__)?BIN_ATTR(?:_\\w+)?)\\s*\\(\\s*(\\w+)", FAM_SYSFS, "sysfs attribute" },
		{ "\\bproc_(?:create\\w*|mkdir\\w*|symlink)\\s*\\(\\s*\"([^\"]+)\"", FAM_PROC, "/proc entry" },
		{ "\\.procname\\s*=\\s*\"([^\"]+)\"", "\\.procname\\b", "sysctl" },
		{ "^-\\s*#\\s*define\\s+(\\w+)\\s+_IO(?:WR|R|W)?\\s*\\(", "#\\s*define\\b", "ioctl command" },
		{ "\\b(?:module|core)_param(?:_\\w+)?\\s*\\(\\s*(\\w+)", FAM_PARAM, "module parameter" },
	};
	const char *raw = e->rawline;
	size_t i;
	struct re_m m;

	if (MQ(e, "^.\\s*#\\s*define\\s+\\w+\\(", e->line))
		return;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const char *name;
		struct uapi_loc l = { 0 };

		if (!re_match(e->rc, kinds[i].pat, raw, &m))
			continue;
		name = eng_mcap(e, &m, 1);
		/* the call itself is code, not a comment or a string */
		if (e->line[re_start(&m, 0)] != raw[re_start(&m, 0)] ||
		    recreated(e, st, kinds[i].family, name))
			return;
		l.linenr = e->linenr;
		l.file = st->path;
		l.rawline = (char *)raw;
		report_at(e, R_UAPI_REMOVED, &l,
			  eng_printf(e, "existing %s '%s' removed: programs that use it break, so removing ABI needs a reason in the commit message and usually a deprecation period (Documentation/ABI/obsolete/)",
				     kinds[i].what, name));
		return;
	}
}

/* ---- what a uapi header's hunks change (UAPI_HEADER) ---- */

static void say(struct rv_uapi *st, int kind, const char *what)
{
	struct sbuf *sb = &st->said[kind];

	if (++st->nsaid[kind] > UAPI_MAX_SAID)
		return;
	if (sb->len)
		sbuf_addstr(sb, ", ");
	sbuf_addstr(sb, what);
}

/*
 * The struct, union or enum block changed line idx is in (on its side:
 * '+' skips removed lines, '-' added ones), as "struct foo", or NULL.
 */
static const char *uapi_block(struct eng *e, long idx, int *fresh)
{
	char other = e->lines[idx][0] == '+' ? '-' : '+';
	long i;
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
		if (re_match(e->rc, "^.\\s*(?:typedef\\s+)?((?:struct|union|enum)\\s*\\w*)\\s*\\{", l, &m)) {
			*fresh = l[0] == '+';
			return trim(e, eng_mcap(e, &m, 1));
		}
		if (MQ(e, "^.\\}", l))
			return NULL;
	}
	return NULL;
}

/* Whether the run of added lines from idx on closes a block ("};"). */
static int closed_in_run(struct eng *e, long idx)
{
	long i;

	for (i = idx + 1; (size_t)i < e->nlines && e->lines[i][0] == '+'; i++)
		if (MQ(e, "^\\+\\s*\\}", e->lines[i]))
			return 1;
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
	if (!st->hdr_changed) {
		st->hdr_changed = 1;
		loc_set(e, &st->hdr_first, e->linenr, add ? e->realline : 0,
			st->path, e->rawline, NULL, 0);
	}
	if (re_match(e->rc, "^.\\s*#\\s*define\\s+(\\w+)", l, &m)) {
		/* an include guard is no name of the API */
		const char *name = eng_mcap(e, &m, 1);
		const char *pat = eng_pat(e, "^\\%c\\s*#\\s*define\\s+%s\\b", add ? '-' : '+', eng_quote(e, name));
		long lo, hi, k;
		int both = 0;

		if (MQ(e, "^_*(?:UAPI_)?[A-Z0-9_]*_H_*$", name))
			return;
		/* defined again in the same change block: a new value */
		rv_block(e, idx, &lo, &hi);
		for (k = lo; k < hi && !both; k++)
			both = MQ(e, pat, e->lines[k]);
		if (!both)
			say(st, add ? SAY_DEF_ADD : SAY_DEF_DEL, name);
		else if (add)
			say(st, SAY_DEF_CHG, name);
		return;
	}
	if (MQ(e, "^.\\s*#", l))
		return;	/* include guards, #include, #if */
	/* a line of a multi-line macro: the macro changes */
	{
		char other = add ? '-' : '+';
		long k = idx - 1;

		while (k >= 0 && e->lines[k][0] == other)
			k--;
		while (k >= 0 && MQ(e, "\\\\\\s*$", e->lines[k]) &&
		       !MQ(e, "^.\\s*#\\s*define\\s+\\w+", e->lines[k])) {
			k--;
			while (k >= 0 && e->lines[k][0] == other)
				k--;
		}
		if (k >= 0 && k < idx && MQ(e, "\\\\\\s*$", e->lines[k]) &&
		    re_match(e->rc, "^.\\s*#\\s*define\\s+(\\w+)", e->lines[k], &m)) {
			const char *name = eng_mcap(e, &m, 1);
			const char *had = st->said[SAY_DEF_CHG].buf;

			if (!(had && has_word(had, name)))
				say(st, SAY_DEF_CHG, name);
			return;
		}
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
		const char *had = st->said[SAY_TYPE_ADD].buf;

		if (add && !(had && strstr(had, nm)))
			say(st, SAY_TYPE_ADD, nm);
		return;
	}
	if (blk && !strncmp(blk, "enum", 4) &&
	    re_match(e->rc, "^.\\s*([A-Za-z_]\\w*)\\s*(?:=[^,/]*)?,?[\\s\\x1c]*(?:/\\*.*?(?:\\*/)?)?[\\s\\x1c]*$", l, &m)) {
		const char *v = strchr(blk, ' ') ?
			eng_printf(e, "%s (%s)", eng_mcap(e, &m, 1), blk) : eng_mcap(e, &m, 1);

		say(st, !add ? SAY_ENUM_DEL : enum_appended(e, idx) ?
			SAY_ENUM_APPEND : SAY_ENUM_INSERT, v);
		return;
	}
	if (blk && strncmp(blk, "enum", 4) &&
	    re_match(e->rc, "^.[^;()]*?\\b(\\w+)\\s*(?:\\[[^\\]]*\\]\\s*)*(?::\\s*\\w+\\s*)?;", l, &m)) {
		say(st, add ? SAY_FIELD_ADD : SAY_FIELD_DEL,
		    eng_printf(e, "%s.%s", blk, eng_mcap(e, &m, 1)));
		return;
	}
	/* a block's braces say nothing of their own */
	if (!MQ(e, "^.\\s*(?:\\}\\s*\\w*\\s*;|(?:typedef\\s+)?(?:struct|union|enum)\\b[^;]*\\{)[\\s\\x1c]*$", l))
		say(st, SAY_OTHER, "");
}

/* The UAPI_HEADER finding of the file that ends, saying what changed. */
static void uapi_header_report(struct eng *e, struct rv_uapi *st)
{
	static const char *const label[SAY__COUNT] = {
		"adds #define", "changes #define", "removes #define", "adds", "appends enum value",
		"inserts enum value (renumbering the values after it)",
		"removes enum value", "adds field", "removes field", "",
	};
	struct sbuf msg;
	int k, breaks;

	if (!st->hdr_changed)
		return;
	sbuf_init(&msg, 1u << 16);
	sbuf_addf(&msg, "%suser-space API header %s:", st->is_new ? "new " : "", st->path);
	for (k = 0; k < SAY__COUNT; k++) {
		if (!st->nsaid[k] || k == SAY_OTHER)
			continue;
		sbuf_addf(&msg, " %s %s%s;", label[k], st->said[k].buf,
			  st->nsaid[k] > UAPI_MAX_SAID ?
			  eng_printf(e, " and %zu more", st->nsaid[k] - UAPI_MAX_SAID) : "");
	}
	if (st->nsaid[SAY_OTHER])
		sbuf_addf(&msg, " changes %zu other line%s;", st->nsaid[SAY_OTHER],
			  st->nsaid[SAY_OTHER] == 1 ? "" : "s");
	msg.len--;	/* the last ';' */
	msg.buf[msg.len] = '\0';
	breaks = st->nsaid[SAY_DEF_DEL] || st->nsaid[SAY_ENUM_INSERT] ||
		 st->nsaid[SAY_ENUM_DEL] || st->nsaid[SAY_FIELD_DEL] ||
		 (st->nsaid[SAY_FIELD_ADD] && !st->nsaid[SAY_DEF_ADD] &&
		  !st->nsaid[SAY_ENUM_APPEND]);
	sbuf_addstr(&msg, breaks ?
		    ": a removed name, a renumbered value or a changed struct layout breaks programs built against the released header, so uapi may only grow" :
		    st->nsaid[SAY_DEF_CHG] && !st->nsaid[SAY_DEF_ADD] && !st->nsaid[SAY_TYPE_ADD] &&
		    !st->nsaid[SAY_ENUM_APPEND] && !st->nsaid[SAY_FIELD_ADD] ?
		    ": a changed value reaches programs only when they are rebuilt, so binaries built with the old one must keep working" :
		    ": every new name and value is ABI from its first release on and can never be renumbered, resized or removed");
	if (!msg.err)
		report_at(e, R_UAPI_HEADER, &st->hdr_first, msg.buf);
	sbuf_release(&msg);
	for (k = 0; k < SAY__COUNT; k++) {
		sbuf_reset(&st->said[k]);
		st->nsaid[k] = 0;
	}
	loc_free(&st->hdr_first);
	st->hdr_changed = 0;
}

/* The checks of an added line of a C file. */
static void check_c(struct eng *e, struct rv_uapi *st)
{
	const char *line = e->line;
	char *a, *b;

	/* an ioctl number changed in place is still a new one: same text only */
	if (M(e, "\\b(_IO(?:WR|R|W)?)\\s*\\(", line))
		emit(e, st, SEV_WARNING, R_UAPI_IOCTL, NULL, 0,
		     "new ioctl command number (%s%s): its number, direction and argument layout are ABI forever, so use fixed-size __u32/__u64 fields with explicit padding and reserve a type in Documentation/userspace-api/ioctl/ioctl-number.rst");

	/* .ioctl: a block device's, a tty's (ALSA's pcm ops are internal) */
	if (M(e, "\\.\\s*((?:unlocked_|compat_)?ioctl)\\s*=\\s*(?!NULL\\b|snd_)(\\w+)", line))
		emit(e, st, SEV_WARNING, R_UAPI_IOCTL_HANDLER, FAM_IOCTL_FN, 2,
		     "new .%s handler %s(): every command it accepts is user-space ABI forever, so check each argument from user space and return -ENOTTY for unknown commands");

	/* an ioctl command that is a bare number: no type, size, direction */
	if (M(e, "^\\+\\s*#\\s*define\\s+((?!_IOC)\\w*IOC\\w*)\\s+\\(?\\s*((?:0x[0-9a-fA-F]+|\\d+)[uUlL]*)\\s*\\)?\\s*$", line) &&
	    !MQ(e, "(?:_IOC_|IOC_(?:NR|TYPE|SIZE|DIR)|_(?:SHIFT|BITS|MASK|MAGIC|BASE|MAX|NR|COUNT)$)", eng_cap(e, 1)))
		emit(e, st, SEV_WARNING, R_UAPI_IOCTL_RAW_NUMBER, NULL, 0,
		     "ioctl command %s defined as the bare number %s: build it with _IO()/_IOR()/_IOW()/_IOWR() from a type reserved in Documentation/userspace-api/ioctl/ioctl-number.rst, so it carries its size and direction and cannot collide with another driver's");
	check_write_handler(e, st);

	/*
	 * A function-like macro's definition (a helper wrapping
	 * DEVICE_ATTR() or module_param(), the kernel's own macros) creates
	 * nothing until it is used.
	 */
	if (MQ(e, "^.\\s*#\\s*define\\s+\\w+\\(", line))
		return;

	check_sysfs(e, st);

	/* procfs and debugfs names are strings: take them from the raw line */
	if (M(e, "\\b(proc_(?:create\\w*|mkdir\\w*|symlink))\\s*\\(\\s*([^,)]*)", line)) {
		a = eng_cap(e, 1);
		b = trim(e, raw_cap(e, 2));
		if (!existed(e, st, FAM_PROC, b))
			report(e, SEV_WARNING, R_UAPI_PROCFS,
			       eng_printf(e, "new procfs entry %s from %s(): /proc files are user-space ABI that cannot be removed once tools read them, and new driver or device information belongs in sysfs, not /proc",
					  b, a));
	}

	/* debugfs is not ABI: nothing to say unless world-writable,
	 * which checkpatch.pl's EXPORTED_WORLD_WRITABLE reports */

	if (M(e, "\\b(register_chrdev(?:_region)?|__register_chrdev|alloc_chrdev_region|cdev_(?:device_)?add|misc_register)\\s*\\(()", line))
		emit(e, st, SEV_WARNING, R_UAPI_CHRDEV, FAM_CHRDEV, 1,
		     "new character device (%s()%s): its device node and every read/write/ioctl/mmap format on it are user-space ABI forever, so prefer an existing subsystem's interface where one fits");

	if (M(e, "\\b((?:COMPAT_)?SYSCALL_DEFINE[0-6])\\s*\\(\\s*(\\w+)", line))
		emit(e, st, SEV_WARNING, R_UAPI_SYSCALL, FAM_SYSCALL, 2,
		     "new system call %2$s (%1$s): its number and arguments are ABI forever, so it needs a man page, selftests and review on linux-api@vger.kernel.org");
	if (st->is_unistd &&
	    M(e, "^\\+\\s*#\\s*define\\s+(__NR(?:3264)?_(?!syscalls\\b)\\w+)\\s()", line))
		emit(e, st, SEV_WARNING, R_UAPI_SYSCALL, NULL, 0,
		     "new system call number %s%s: syscall numbers are ABI forever and must be wired up in every architecture's table, with review on linux-api@vger.kernel.org");

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

	if (M(e, "\\b(configfs_register_subsystem)\\s*\\(\\s*&?\\s*(\\w+)", line) ||
	    M(e, "\\b(CONFIGFS_(?:BIN_)?ATTR\\w*)\\s*\\(\\s*\\w+\\s*,\\s*(\\w+)", line))
		emit(e, st, SEV_WARNING, R_UAPI_CONFIGFS, FAM_CONFIGFS, 2,
		     "new configfs interface %2$s (%1$s): configfs items and attributes are user-space ABI forever and need an entry in Documentation/ABI/");
}

void rv_uapi_line(struct eng *e)
{
	struct rv_uapi *st = st_get(e);

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

	if (!e->hunk_line || (e->line[0] != '+' && e->line[0] != '-'))
		return;

	/* a changed uapi header: what changed is said when the file ends */
	if (st->is_uapi && !st->deleted) {
		st->uapi_done = 1;
		uapi_header_line(e, st);
	}
	if (e->line[0] == '-') {
		if (st->is_c && !st->is_uapi)
			check_removed(e, st);
		return;
	}

	if (st->is_abi) {
		/* past the cap the sbuf keeps what it has: enough to name */
		sbuf_addstr(&st->abi, e->rawline + 1);
		sbuf_addch(&st->abi, '\n');
		st->has_abi = 1;
		return;
	}

	if (st->is_tbl) {
		if (M(e, "^\\+\\s*(\\d+)\\s+\\w+\\s+(\\w+)", e->line))
			report(e, SEV_WARNING, R_UAPI_SYSCALL,
			       eng_printf(e, "new system call table entry %s (number %s): syscall numbers are ABI forever, so it needs a man page, selftests and review on linux-api@vger.kernel.org",
					  eng_cap(e, 2), eng_cap(e, 1)));
		return;
	}

	if (st->is_c)
		check_c(e, st);
}

/*
 * Reports at a line seen earlier: the engine's current-line fields are set
 * to that line for the report (so --json and --showfile locate it), then
 * put back.
 */
static void report_at(struct eng *e, enum rule_id id, const struct uapi_loc *l,
		      const char *msg)
{
	struct sbuf old_file, old_here, prefix;
	long old_linenr = e->linenr, old_realline = e->realline;
	int old_in_loop = e->in_loop, old_has_file = e->here_has_file;
	const char *old_prefix = e->prefix;

	sbuf_init(&old_file, 1u << 16);
	sbuf_init(&old_here, 1u << 16);
	sbuf_init(&prefix, 1u << 16);
	sbuf_add(&old_file, e->realfile.buf, e->realfile.len);
	sbuf_add(&old_here, e->here.buf, e->here.len);

	e->linenr = l->linenr;
	e->realline = l->realline;
	e->in_loop = 1;
	e->here_has_file = 1;
	sbuf_reset(&e->realfile);
	sbuf_addstr(&e->realfile, l->file);
	sbuf_reset(&e->here);
	if (l->realline)
		sbuf_addf(&e->here, "#%ld: FILE: %s:%ld:", l->linenr, l->file,
			  l->realline);
	else
		sbuf_addf(&e->here, "#%ld: FILE: %s:", l->linenr, l->file);
	if (e->o->showfile || e->o->emacs) {
		sbuf_addf(&prefix, "%s:%ld: ", e->o->showfile ? l->file : e->filename,
			  e->o->showfile || e->o->file ? l->realline : l->linenr);
		e->prefix = prefix.buf;
	}
	if (!e->here.err && !e->realfile.err && !prefix.err)
		WARN(e, id, eng_printf(e, "%s\n%s\n%s\n", msg, e->here.buf,
				       l->rawline));
	else
		e->failed = 1;

	sbuf_reset(&e->realfile);
	sbuf_add(&e->realfile, old_file.buf, old_file.len);
	sbuf_reset(&e->here);
	sbuf_add(&e->here, old_here.buf, old_here.len);
	e->prefix = old_prefix;
	e->here_has_file = old_has_file;
	e->in_loop = old_in_loop;
	e->realline = old_realline;
	e->linenr = old_linenr;
	sbuf_release(&prefix);
	sbuf_release(&old_here);
	sbuf_release(&old_file);
}

/*
 * One UAPI_SYSFS per file: the attributes it adds, named, at the first;
 * a registration when the patch names no attribute.
 */
static void report_sysfs(struct eng *e, struct rv_uapi *st)
{
	struct sbuf names;
	size_t i, j;

	sbuf_init(&names, 1u << 16);
	for (i = 0; i < st->nattrs; i++) {
		const struct uapi_loc *a = &st->attrs[i];
		size_t n = 0, nbin = 0, nw = 0;

		for (j = 0; j < i; j++)
			if (!strcmp(st->attrs[j].file, a->file))
				break;
		if (j < i)
			continue;	/* that file's finding is made */
		sbuf_reset(&names);
		for (j = i; j < st->nattrs; j++) {
			const struct uapi_loc *b = &st->attrs[j];

			if (strcmp(b->file, a->file))
				continue;
			if (++n <= UAPI_MAX_NAMES)
				sbuf_addf(&names, "%s'%s'%s", n > 1 ? ", " : "", b->name,
					  (b->flags & ATTR_BIN) ?
					  ((b->flags & ATTR_WRITE) ? " (binary, writable)" : " (binary)") :
					  (b->flags & ATTR_WRITE) ? " (writable)" : "");
			nbin += (b->flags & ATTR_BIN) != 0;
			nw += (b->flags & ATTR_WRITE) != 0;
		}
		if (n > UAPI_MAX_NAMES)
			sbuf_addf(&names, " and %zu more", n - UAPI_MAX_NAMES);
		if (names.err)
			continue;
		report_at(e, R_UAPI_SYSFS, a,
			  eng_printf(e, "new sysfs %s %s: %s name, location and value format become user-space ABI that cannot change once released, so %s one value per file and an entry in Documentation/ABI/%s",
				     n > 1 ? "attributes" : "attribute", names.buf,
				     n > 1 ? "their" : "its", n > 1 ? "each needs" : "it needs",
				     nbin ? (nw ? "; a writable binary attribute lets user space write raw bytes to the device, so check every offset and size" :
					     "; a binary attribute passes raw bytes, so its layout is ABI too") :
				     nw ? "; check every value written" : ""));
	}
	sbuf_release(&names);
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
 * ioctl commands that are bare numbers without IOC in their name: a
 * "#define NAME 0x4600" the patch adds and an ioctl handler it adds
 * switches on ("case NAME:").
 */
static void check_raw_ioctl_cases(struct eng *e, struct rv_uapi *st)
{
	const char *names[64];
	size_t n = 0, k;
	long i;
	struct re_m m;

	(void)st;
	for (i = 0; (size_t)i < e->nlines && n < 64; i++) {
		long start;

		if (e->lines[i][0] != '+' ||
		    !re_match(e->rc, "^\\+\\s*case\\s+([A-Za-z_]\\w*)\\s*:", e->lines[i], &m))
			continue;
		if (MQ(e, "ioctl", rv_function(e, i, &start)))
			names[n++] = eng_mcap(e, &m, 1);
	}
	for (i = 0; n && (size_t)i < e->nlines; i++) {
		const char *name, *file;
		struct uapi_loc at = { 0 };

		if (e->lines[i][0] != '+' ||
		    !re_match(e->rc, "^\\+\\s*#\\s*define\\s+(\\w+)\\s+\\(?\\s*(?:0x[0-9a-fA-F]+|\\d+)[uUlL]*\\s*\\)?[\\s\\x1c]*(?:/\\*.*)?$", e->lines[i], &m))
			continue;
		name = eng_mcap(e, &m, 1);
		if (MQ(e, "IOC", name))
			continue;	/* check_c() reported it */
		for (k = 0; k < n && strcmp(names[k], name); k++)
			;
		file = file_of(e, i);
		if (k == n || !file)
			continue;
		at.linenr = i + 1;
		at.realline = new_line_of(e, i);
		at.file = (char *)file;
		at.rawline = (char *)e->rawlines[i];
		report_at(e, R_UAPI_IOCTL_RAW_NUMBER, &at,
			  eng_printf(e, "ioctl command %s is a bare number that an ioctl handler switches on: build it with _IO()/_IOR()/_IOW()/_IOWR() from a type reserved in Documentation/userspace-api/ioctl/ioctl-number.rst, so it carries its size and direction and cannot collide with another driver's (collisions with the table are not checked without a tree)",
				     name));
	}
}

void rv_uapi_final(struct eng *e)
{
	struct rv_uapi *st = e->rv_uapi;
	struct sbuf names;
	const struct uapi_loc *first = NULL;
	size_t i, n = 0;

	if (!st)
		return;
	track_file(e, st);
	file_end(e, st);
	for (i = 0; i < st->nfiles; i++)
		report_at(e, R_UAPI_HEADER, &st->files[i],
			  eng_printf(e, "user-space API header %s %s: everything in it is ABI forever, and removing or moving anything breaks programs built against it",
				     st->files[i].file,
				     st->files[i].deleted ? "deleted" : "changed"));

	report_sysfs(e, st);
	check_writers(e, st);
	check_raw_ioctl_cases(e, st);

	/* sysfs attributes the patch's Documentation/ABI/ lines do not name */
	sbuf_init(&names, 1u << 16);
	for (i = 0; i < st->nattrs; i++) {
		const struct uapi_loc *a = &st->attrs[i];

		if (st->has_abi && has_word(st->abi.buf, a->name))
			continue;
		if (!first)
			first = a;
		if (++n <= UAPI_MAX_NAMES)
			sbuf_addf(&names, "%s'%s'", n > 1 ? ", " : "", a->name);
	}
	if (n > UAPI_MAX_NAMES)
		sbuf_addf(&names, " and %zu more", n - UAPI_MAX_NAMES);
	if (first)
		report_at(e, R_UAPI_SYSFS_UNDOCUMENTED, first,
			  eng_printf(e, "sysfs %s %s added without %s: every sysfs file is ABI and must be described in Documentation/ABI/testing/ in the same patch or series",
				     n > 1 ? "attributes" : "attribute", names.buf,
				     st->has_abi ? "being named in this patch's Documentation/ABI/ entry" :
				     "a Documentation/ABI/ entry"));
	else if (!st->nattrs && st->has_reg && !st->has_abi)
		report_at(e, R_UAPI_SYSFS_UNDOCUMENTED, &st->reg,
			  "sysfs files registered without a Documentation/ABI/ entry: every sysfs file is ABI and must be described in Documentation/ABI/testing/ in the same patch or series");
	sbuf_release(&names);
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
	loc_free(&st->reg);
	for (i = 0; i < st->nwriters; i++)
		loc_free(&st->writers[i]);
	for (i = 0; i < SAY__COUNT; i++)
		sbuf_release(&st->said[i]);
	loc_free(&st->hdr_first);
	sbuf_release(&st->abi);
	free(st->path);
	free(st);
	e->rv_uapi = NULL;
}

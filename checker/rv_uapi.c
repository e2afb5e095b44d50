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
#include "eng.h"

#include <stdlib.h>
#include <string.h>

#include "banned.h"

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
};

struct rv_uapi {
	long last_linenr;	/* the last line rv_uapi_line() saw */
	char *path;		/* the current file (the old name if deleted) */
	long hdr_linenr;	/* its "+++ " line */
	int is_c, is_uapi, uapi_done, is_tbl, is_unistd, is_netlink_h, is_abi;
	int deleted;

	struct uapi_loc files[UAPI_MAX_FILES];	/* uapi, no added line */
	size_t nfiles;
	struct uapi_loc attrs[UAPI_MAX_ATTRS];	/* named sysfs attributes */
	size_t nattrs;
	struct uapi_loc reg;	/* first sysfs registration (no name) */
	int has_reg;
	struct sbuf abi;	/* added Documentation/ABI/ lines */
	int has_abi;
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
	}
	return e->rv_uapi;
}

/* A uapi file whose hunks added nothing: report it on its header later. */
static void file_end(struct eng *e, struct rv_uapi *st)
{
	struct uapi_loc *l;

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
static int existed(struct eng *e, struct rv_uapi *st, const char *family,
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
		     size_t n)
{
	if (st->nattrs < UAPI_MAX_ATTRS &&
	    !loc_set(e, &st->attrs[st->nattrs], e->linenr, e->realline,
		     e->realfile.buf, e->rawline, name, n))
		st->nattrs++;
}

/* Family patterns for existed(): the raw removed line is matched. */
#define FAM_SYSFS	"\\b(?:(?:DEVICE|DRIVER|CLASS|BUS)_ATTR|__ATTR)|\\bsysfs_create_|\\bATTRIBUTE_GROUPS\\b"
#define FAM_PROC	"\\bproc_(?:create|mkdir|symlink)"
#define FAM_DEBUGFS	"\\bdebugfs_create_"
#define FAM_CHRDEV	"\\b(?:register_chrdev|alloc_chrdev_region|cdev_(?:device_)?add|misc_register)\\b"
#define FAM_SYSCALL	"\\bSYSCALL_DEFINE"
#define FAM_GENL	"\\bgenl_register_family\\b"
#define FAM_PARAM	"\\b(?:module|core)_param"
#define FAM_CONFIGFS	"\\b(?:configfs_register_subsystem|CONFIGFS_(?:BIN_)?ATTR)"
#define FAM_IOCTL_FN	"\\b(?:unlocked|compat)_ioctl\\b"

/* sysfs: attribute definitions and registrations */
static void check_sysfs(struct eng *e, struct rv_uapi *st)
{
	const char *line = e->line;

	if (M(e, "\\b((?:DEVICE|DRIVER|CLASS|BUS)_ATTR(?:_\\w+)?|__ATTR(?:_(?!NULL\\b)\\w+)?)\\s*\\(\\s*(\\w+)", line)) {
		char *macro = eng_cap(e, 1), *name = eng_cap(e, 2);

		if (existed(e, st, FAM_SYSFS, name))
			return;
		report(e, SEV_WARNING, R_UAPI_SYSFS,
		       eng_printf(e, "new sysfs attribute '%s' (%s): its name, location and value format become user-space ABI that cannot change once released, so it needs one value per file and an entry in Documentation/ABI/",
				  name, macro));
		add_attr(e, st, name, strlen(name));
	} else if (M(e, "\\b(sysfs_create_(?:files?|groups?|bin_file|link)|ATTRIBUTE_GROUPS)\\s*\\(([^;]*)", line)) {
		char *call = eng_cap(e, 1), *args = eng_cap(e, 2), *group;

		/* the group is the last word on the line: moved calls keep it */
		group = M(e, "(\\w+)\\W*$", args) ? eng_cap(e, 1) : NULL;
		if (group && existed(e, st, FAM_SYSFS, group))
			return;
		report(e, SEV_WARNING, R_UAPI_SYSFS,
		       eng_printf(e, "new sysfs files registered with %s()%s%s%s: every file it adds becomes user-space ABI that cannot change once released and needs an entry in Documentation/ABI/",
				  call, group ? " (" : "", group ? group : "",
				  group ? ")" : ""));
		if (!st->has_reg &&
		    !loc_set(e, &st->reg, e->linenr, e->realline,
			     e->realfile.buf, e->rawline, NULL, 0))
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

/* The checks of an added line of a C file. */
static void check_c(struct eng *e, struct rv_uapi *st)
{
	const char *line = e->line;
	char *a, *b;

	/* an ioctl number changed in place is still a new one: same text only */
	if (M(e, "\\b(_IO(?:WR|R|W)?)\\s*\\(", line))
		emit(e, st, SEV_WARNING, R_UAPI_IOCTL, NULL, 0,
		     "new ioctl command number (%s%s): its number, direction and argument layout are ABI forever, so use fixed-size __u32/__u64 fields with explicit padding and reserve a type in Documentation/userspace-api/ioctl/ioctl-number.rst");

	if (M(e, "\\.\\s*((?:unlocked|compat)_ioctl)\\s*=\\s*(\\w+)", line))
		emit(e, st, SEV_WARNING, R_UAPI_IOCTL_HANDLER, FAM_IOCTL_FN, 2,
		     "new .%s handler %s(): every command it accepts is user-space ABI forever, so check each argument from user space and return -ENOTTY for unknown commands");

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

	if (M(e, "\\b(debugfs_create_\\w+)\\s*\\(\\s*([^,)]*)", line)) {
		a = eng_cap(e, 1);
		b = trim(e, raw_cap(e, 2));
		if (!existed(e, st, FAM_DEBUGFS, b))
			report(e, SEV_CHECK, R_DEBUGFS_NOT_ABI,
			       eng_printf(e, "%s(%s) is not ABI: debugfs is not a stable interface, so user space must not rely on it and nothing may need it to work",
					  a, b));
	}

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

	if (!e->hunk_line || e->line[0] != '+')
		return;

	if (st->is_uapi && !st->uapi_done) {
		st->uapi_done = 1;
		report(e, SEV_WARNING, R_UAPI_HEADER,
		       eng_printf(e, "change to user-space API header %s: everything in it is ABI forever, so no name, type, size or layout may ever change once released",
				  st->path));
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
	sbuf_release(&st->abi);
	free(st->path);
	free(st);
	e->rv_uapi = NULL;
}

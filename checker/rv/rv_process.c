// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot's process checks: what a maintainer asks of a patch besides
 * its code.
 *
 *   NEW_FILE_NO_MAINTAINERS  new files and no MAINTAINERS change in the
 *                            same input (an mbox of a series counts as one).
 *                            A WARNING for a new driver (new files and a new
 *                            symbol under drivers/ or sound/), else a CHECK:
 *                            without the tree, whether an existing entry's
 *                            F: pattern covers a file is unknown.  Unlike
 *                            checkpatch.pl's FILE_PATH_CHANGES it names the
 *                            files, ignores moves and deletions and sees a
 *                            MAINTAINERS change anywhere in the input.
 *   DRIVER_DEFAULT_ENABLED   a new symbol in a drivers/ or sound/ Kconfig,
 *                            with a prompt, and "default y|m [if ...]"
 *   SHARED_CODE_CHANGE       driver files and existing shared files of
 *                            another subsystem (include/linux/, kernel/, mm/,
 *                            lib/, fs/, net/, a core/ folder, ...), once
 *   MISSING_FIXES_TAG        a message that says it fixes a bug, no Fixes:
 *                            (BAD_FIXES_TAG already checks the form of one).
 *                            checkpatch.pl 6.12 has the type too, for a
 *                            message quoting a crash or syzkaller: once
 *                            this one is shown, that one is not
 *                            (process_end()), so a review says it once.
 *   FIXES_AFTER_SIGN_OFF     a Fixes: below the last Signed-off-by:
 *   SIGN_OFF_NOT_SENDER      the last Signed-off-by: is not the sender's
 *                            (submitting-patches.rst: "the last
 *                            Signed-off-by: must always be that of the
 *                            developer submitting the patch")
 *   COMMIT_LOG_CUT           a "---" line with a Signed-off-by: after it
 *                            and before the diff: git am (mailinfo) ends
 *                            the commit message at the first "---", so
 *                            what follows, the sign-off too, is lost
 *
 * Whether MAINTAINERS changes, which files are shared, whether a message
 * has a Fixes: tag and which Signed-off-by: is the last are only known
 * further down the input, yet a finding belongs on the line that creates
 * it.  So the file headers are read once up front and each message's
 * header and log once at its start (the input lines live for the whole
 * run); the line pass then reports on the right line.  Only added lines
 * and commit message lines create findings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../checkpatch/eng.h"
#include "../rfc2047.h"

#include "../banned.h"

#define RV_MAX_FILES	4096	/* file headers kept per input */
#define RV_MAX_SYMS	1024	/* new Kconfig symbols kept per input */
#define RV_NAMES_SHOWN	4	/* file names quoted in one message */
#define RV_ADDR_MAX	256	/* bytes of an e-mail address kept */

#define RV_MAX_PATS	65536	/* MAINTAINERS patterns kept */
#define RV_MAX_ALIASES	16384	/* .mailmap addresses kept */
#define RV_TREEWIDE	3	/* subsystems a tree-wide change touches */

struct rv_file {
	char *path;		/* path in the new tree (old one when deleted) */
	int is_new;		/* "--- /dev/null" */
	int shared;		/* an existing file of shared code */
	int not_ids;		/* changes more than device-ID entries */
	int uncovered;		/* new, and no MAINTAINERS pattern covers it */
};

/* A MAINTAINERS pattern: F:, X: or N: of a section (an entry). */
struct rv_pat {
	const char *s;		/* not NUL-terminated; lives with the input */
	size_t n;
	char kind;
	int section;
};

/* A .mailmap address: the addresses and names of one line are one person. */
struct rv_alias {
	char addr[RV_ADDR_MAX];
	char name[RV_ADDR_MAX];	/* the line's proper name, normalised */
	int group;
};

struct rv_process {
	int scanned;		/* file headers read */
	struct rv_file *files;
	size_t nfiles;
	int new_kconfig;	/* a drivers/ or sound/ Kconfig gains a symbol */
	int new_driver_files;	/* new files under drivers/ or sound/ */
	int drivers;		/* some driver file is changed */
	size_t nnew, nshared;
	int maint_done, shared_done;
	struct rv_pat *pats;	/* MAINTAINERS: the patch's hunks, the tree's */
	size_t npats;
	int nsect;
	int maint_known;	/* some MAINTAINERS text was read */
	int uapi_uncovered;	/* new uapi headers no pattern covers */
	int driver_uncovered;	/* a new driver file no pattern covers */
	struct rv_alias *aliases;	/* .mailmap: the patch's, the tree's */
	size_t naliases;
	int nalias_lines;

	/* the current message: its lines are [msg_start, msg_end) */
	long msg_start, msg_end;
	long last_sob;		/* line of the last Signed-off-by:, 0: none */
	int nsob;
	int has_fixes;
	int has_stable;		/* Cc: stable@vger.kernel.org */
	int sender_known;	/* the header From: is who submits */
	char sender[RV_ADDR_MAX];	/* address, lower case */
	char sender_name[RV_ADDR_MAX];	/* name, normalised (norm_name()) */
	int fixes_done;
	int version;		/* the subject's vN (0: none) */
	int part_total;		/* its n/M's M (0: none) */
	int changelog;		/* what changed since the last version is said */
	long header_end;	/* the blank line after the mail headers */
	long cut_line;		/* a "---" that cuts a sign-off off, 0: none */

	/* the Kconfig block being read (line pass) */
	long kc_hunk;		/* e->first_line of its hunk */
	char *kc_file;
	int kc_new, kc_prompt, kc_sub;
	char *kc_sym;
	char **syms;		/* symbols the patch adds */
	size_t nsyms;
};

static int starts(const char *s, const char *p)
{
	return s && !strncmp(s, p, strlen(p));
}

static struct rv_process *state(struct eng *e)
{
	if (!e->rv_process) {
		e->rv_process = calloc(1, sizeof(*e->rv_process));
		if (!e->rv_process)
			e->failed = 1;
	}
	return e->rv_process;
}

/* The path of a "--- x" / "+++ x" header, first component cut as the
 * engine cuts $realfile; NULL for /dev/null. */
static char *header_path(struct eng *e, const char *s)
{
	size_t n = strcspn(s, " \t\r\n");
	const char *slash;

	if (n == 9 && !strncmp(s, "/dev/null", 9))
		return NULL;
	slash = e->o->file ? NULL : memchr(s, '/', n);
	if (slash) {
		n -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	return strndup(s, n);
}

/*
 * Shared code: what other drivers and subsystems build on.  A driver's
 * own headers (include/linux/mfd/, platform_data/, soc/, vendor folders)
 * are not: they only look shared by their place.
 */
static int is_shared(struct eng *e, const char *p)
{
	if (MQ(e, "^include/linux/(?:mfd|platform_data|soc|mlx4|mlx5|qed|firmware)/", p))
		return 0;
	return MQ(e, "^(?:include/(?:linux|net|drm|asm-generic)/|include/sound/(?:soc|core|pcm|control|jack)[^/]*\\.h$|kernel/|mm/|lib/|block/|init/|ipc/|net/|fs/[^/]+$|drivers/base/|drivers/[^/]+/core/|sound/core/|sound/soc/soc-|drivers/gpu/drm/drm_[^/]+$)", p);
}

static int is_driver(struct eng *e, const char *p)
{
	return MQ(e, "^(?:drivers|sound)/", p) && !is_shared(e, p);
}

static void add_file(struct eng *e, struct rv_process *st, char *path, int is_new)
{
	struct rv_file *f;

	if (!path)
		return;
	if (st->nfiles == RV_MAX_FILES) {
		free(path);
		return;
	}
	if (!st->files) {
		st->files = calloc(RV_MAX_FILES, sizeof(*st->files));
		if (!st->files) {
			free(path);
			e->failed = 1;
			return;
		}
	}
	f = &st->files[st->nfiles++];
	f->path = path;
	f->is_new = is_new;
	/* a new header is the driver's own, whatever its folder */
	f->shared = !is_new && is_shared(e, path);
	if (is_driver(e, path))
		st->drivers = 1;
	if (is_new && is_driver(e, path))
		st->new_driver_files = 1;
}

/* ---- MAINTAINERS ---- */

/*
 * One line of a MAINTAINERS text (s[0, n), no newline): an F:, X: or N:
 * pattern of the current section, or a blank line that ends it.
 */
static void maint_line(struct eng *e, struct rv_process *st, const char *s, size_t n)
{
	struct rv_pat *p;
	size_t k;

	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n) {
		st->nsect++;
		return;
	}
	if (n < 3 || s[1] != ':' || (s[0] != 'F' && s[0] != 'X' && s[0] != 'N'))
		return;
	for (k = 2; k < n && (s[k] == ' ' || s[k] == '\t'); k++)
		;
	if (k == n || st->npats >= RV_MAX_PATS)
		return;
	if (!st->pats) {
		st->pats = calloc(RV_MAX_PATS, sizeof(*st->pats));
		if (!st->pats) {
			e->failed = 1;
			return;
		}
	}
	p = &st->pats[st->npats++];
	p->s = s + k;
	p->n = n - k;
	p->kind = s[0];
	p->section = st->nsect;
	st->maint_known = 1;
}

/* Whether glob p[0, pn) (get_maintainer.pl's: '*' any run, '?' one
 * byte) matches a prefix of s. */
static int glob_prefix(const char *p, size_t pn, const char *s, int depth)
{
	if (depth > 16)
		return 0;
	while (pn) {
		if (*p == '*') {
			for (;;) {
				if (glob_prefix(p + 1, pn - 1, s, depth + 1))
					return 1;
				if (!*s)
					return 0;
				s++;
			}
		}
		if (!*s || (*p != '?' && *p != *s))
			return 0;
		p++;
		pn--;
		s++;
	}
	return 1;
}

/*
 * Whether an F: or X: pattern covers path, as get_maintainer.pl reads
 * it: "dir/" everything below it, else a glob of the same depth; a last
 * part without a dot or wildcard is taken for a folder (the tree would
 * tell).  N: is a regular expression on the path.
 */
static int pat_covers(struct eng *e, const struct rv_pat *p, const char *path)
{
	size_t i, slashes = 0, pslashes = 0;
	const char *last;

	if (p->kind == 'N')
		return MQ(e, eng_pat(e, "%.*s", (int)p->n, p->s), path);
	if (p->s[p->n - 1] == '/')
		return glob_prefix(p->s, p->n, path, 0);
	for (i = 0; path[i]; i++)
		slashes += path[i] == '/';
	for (i = 0; i < p->n; i++)
		pslashes += p->s[i] == '/';
	last = p->s + p->n;
	while (last > p->s && last[-1] != '/')
		last--;
	if (!memchr(last, '.', (size_t)(p->s + p->n - last)) &&
	    !memchr(p->s, '*', p->n) && !memchr(p->s, '?', p->n) &&
	    !strncmp(path, p->s, p->n) && path[p->n] == '/')
		return 1;	/* a folder */
	return slashes == pslashes && glob_prefix(p->s, p->n, path, 0);
}

/* THE REST's "F: *" and "F: * /" (no blank) cover everything: no entry
 * of its own. */
static int catch_all(const struct rv_pat *p)
{
	return (p->n == 1 && p->s[0] == '*') || (p->n == 2 && !strncmp(p->s, "*/", 2));
}

/* Whether an entry (a section with an F: or N: for path and no X:) covers path. */
static int maint_covers(struct eng *e, const struct rv_process *st, const char *path)
{
	size_t i, j;

	for (i = 0; i < st->npats; i++) {
		const struct rv_pat *p = &st->pats[i];
		int excluded = 0;

		if (p->kind == 'X' || catch_all(p) || !pat_covers(e, p, path))
			continue;
		for (j = i; j > 0 && st->pats[j - 1].section == p->section; j--)
			;
		for (; j < st->npats && st->pats[j].section == p->section && !excluded; j++)
			excluded = st->pats[j].kind == 'X' && pat_covers(e, &st->pats[j], path);
		if (!excluded)
			return 1;
	}
	return 0;
}

/* ---- names and addresses ---- */

/* Latin-1 letters U+00C0..U+00FF without their accents, lower case */
static const char latin1_fold[] =
	"aaaaaaaceeeeiiiidnooooo ouuuuyts"
	"aaaaaaaceeeeiiiidnooooo ouuuuyty";

/* s[0, n) folded: lower case, Latin accents dropped, punctuation as
 * blanks, one space between words */
static void fold_name(const char *s, size_t n, char *out, size_t cap)
{
	size_t i, o = 0;
	int blank = 1;

	for (i = 0; i < n && o + 2 < cap; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0xc3 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0xbf)
			c = (unsigned char)latin1_fold[(unsigned char)s[++i] - 0x80];
		else if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + 32);
		else if (c < 0x80 && !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = ' ';
		if (c == ' ') {
			if (!blank)
				out[o++] = ' ';
			blank = 1;
			continue;
		}
		out[o++] = (char)c;
		blank = 0;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

/*
 * A person's name made comparable: MIME words decoded, fold_name(), and
 * "Last, First" as "first last".  "" when there is none.
 */
static void norm_name(const char *s, size_t n, char *out, size_t cap)
{
	struct sbuf dec;
	const char *comma;

	out[0] = '\0';
	sbuf_init(&dec, 4096);
	if (memchr(s, '=', n) && rfc2047_decode(s, n, RFC2047_UTF8, &dec) >= 0) {
		s = dec.buf;
		n = dec.len;
	}
	comma = memchr(s, ',', n);
	if (comma) {
		char last[RV_ADDR_MAX / 2], given[RV_ADDR_MAX / 2];

		fold_name(s, (size_t)(comma - s), last, sizeof(last));
		fold_name(comma + 1, n - (size_t)(comma + 1 - s), given, sizeof(given));
		snprintf(out, cap, "%s%s%s", given, *given && *last ? " " : "", last);
	} else {
		fold_name(s, n, out, cap);
	}
	sbuf_release(&dec);
}

/* Two normalised names of one person: equal, or the same first and last
 * word (a middle name or an initial aside). */
static int same_name(const char *a, const char *b)
{
	const char *la, *lb;
	size_t fa, fb;

	if (!*a || !*b)
		return 0;
	if (!strcmp(a, b))
		return 1;
	la = strrchr(a, ' ');
	lb = strrchr(b, ' ');
	if (!la || !lb)
		return 0;
	fa = strcspn(a, " ");
	fb = strcspn(b, " ");
	return fa == fb && !strncmp(a, b, fa) && !strcmp(la, lb);
}

/* One line of a .mailmap: its addresses (and its proper name) are one person. */
static void mailmap_line(struct eng *e, struct rv_process *st, const char *s, size_t n)
{
	char name[RV_ADDR_MAX];
	const char *p = s, *end = s + n, *lt;

	if (n && s[0] == '#')
		return;
	lt = memchr(s, '<', n);
	if (!lt)
		return;
	norm_name(s, (size_t)(lt - s), name, sizeof(name));
	while (p < end && (lt = memchr(p, '<', (size_t)(end - p)))) {
		const char *gt = memchr(lt, '>', (size_t)(end - lt));
		struct rv_alias *a;
		size_t k, len;

		if (!gt)
			break;
		if (st->naliases >= RV_MAX_ALIASES)
			return;
		if (!st->aliases) {
			st->aliases = calloc(RV_MAX_ALIASES, sizeof(*st->aliases));
			if (!st->aliases) {
				e->failed = 1;
				return;
			}
		}
		a = &st->aliases[st->naliases++];
		len = (size_t)(gt - lt - 1);
		if (len >= sizeof(a->addr))
			len = sizeof(a->addr) - 1;
		for (k = 0; k < len; k++)
			a->addr[k] = (char)((lt[1 + k] >= 'A' && lt[1 + k] <= 'Z') ? lt[1 + k] + 32 : lt[1 + k]);
		a->addr[len] = '\0';
		memcpy(a->name, name, sizeof(a->name));
		a->group = st->nalias_lines;
		p = gt + 1;
	}
	st->nalias_lines++;
}

/* The groups .mailmap gives addr, checked for one that names b too. */
static int alias_same(const struct rv_process *st, const char *a, const char *a_name,
		      const char *b, const char *b_name)
{
	size_t i, j;

	for (i = 0; i < st->naliases; i++) {
		const struct rv_alias *x = &st->aliases[i];

		if (strcmp(x->addr, a))
			continue;
		if (same_name(x->name, b_name))
			return 1;
		for (j = 0; j < st->naliases; j++)
			if (st->aliases[j].group == x->group && !strcmp(st->aliases[j].addr, b))
				return 1;
	}
	for (i = 0; i < st->naliases; i++)
		if (!strcmp(st->aliases[i].addr, b) && same_name(st->aliases[i].name, a_name))
			return 1;
	return 0;
}

/* addr without a "+tag" in its local part (lower case already) */
static void plain_addr(const char *a, char *out, size_t cap)
{
	const char *plus = strchr(a, '+'), *at = strchr(a, '@');

	if (plus && at && plus < at)
		snprintf(out, cap, "%.*s%s", (int)(plus - a), a, at);
	else
		snprintf(out, cap, "%s", a);
}

/* s[0, n) with only its letters, lower case */
static void letters(const char *s, size_t n, char *out, size_t cap)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 1 < cap; i++)
		if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))
			out[o++] = (char)(s[i] | 0x20);
	out[o] = '\0';
}

/*
 * Whether an address is made of a person's name: its local part without
 * digits and punctuation ("john.hubbard", "zhangxuezhi3") or its domain's
 * first label ("mailinglist1@johanneskirchmair.de") spells the name
 * (normalised, blanks aside), at least five letters of it.
 */
static int addr_of_name(const char *addr, const char *name)
{
	char n[RV_ADDR_MAX], l[RV_ADDR_MAX], d[RV_ADDR_MAX];
	const char *at = strchr(addr, '@');

	letters(name, strlen(name), n, sizeof(n));
	if (!at || strlen(n) < 5)
		return 0;
	letters(addr, (size_t)(at - addr), l, sizeof(l));
	letters(at + 1, strcspn(at + 1, "."), d, sizeof(d));
	return !strcmp(l, n) || !strcmp(d, n);
}

/*
 * Whether two signatures are one person: the same address (a "+tag"
 * aside), the same name, two addresses or an address and a name that
 * .mailmap makes one person's, an address made of the other's name, or
 * the same name-like local part at two domains (a company's address and
 * the one that gets mail out).
 */
static int same_person(const struct rv_process *st, const char *a, const char *a_name,
		       const char *b, const char *b_name)
{
	char pa[RV_ADDR_MAX], pb[RV_ADDR_MAX];
	const char *ata, *atb;

	plain_addr(a, pa, sizeof(pa));
	plain_addr(b, pb, sizeof(pb));
	if (!strcmp(pa, pb) || same_name(a_name, b_name) ||
	    alias_same(st, a, a_name, b, b_name) ||
	    addr_of_name(a, b_name) || addr_of_name(b, a_name))
		return 1;
	ata = strchr(pa, '@');
	atb = strchr(pb, '@');
	if (!ata || !atb)
		return 0;
	/* the same name-like local part at two domains, digits aside */
	{
		char la[RV_ADDR_MAX], lb[RV_ADDR_MAX];

		letters(pa, (size_t)(ata - pa), la, sizeof(la));
		letters(pb, (size_t)(atb - pb), lb, sizeof(lb));
		return !strcmp(la, lb) &&
		       (strlen(la) >= 8 || (strcspn(pa, "._-") < (size_t)(ata - pa) && strlen(la) >= 5));
	}
}

/* Is a folder of some changed driver file named w[0, n)? */
static int driver_dir_named(const struct rv_process *st, const char *w, size_t n)
{
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < st->nfiles; i++) {
		const char *p = st->files[i].path, *slash;

		if (st->files[i].shared ||
		    (strncmp(p, "drivers/", 8) && strncmp(p, "sound/", 6)))
			continue;
		/* the folders below the top one, not the file name */
		for (p = strchr(p, '/') + 1; (slash = strchr(p, '/')); p = slash + 1)
			if ((size_t)(slash - p) == n && !strncmp(p, w, n))
				return 1;
	}
	return 0;
}

/*
 * A shared file of the drivers' own subsystem (include/linux/mtd/ with
 * drivers/mtd/, include/linux/phy.h with drivers/net/phy/, drivers/usb/core/
 * with drivers/usb/) is the same maintainers' code: only other subsystems'
 * shared code is reported.  The subsystem is the shared file's folder or
 * name below include/<dir>/, or the folder above core/, and each of its
 * '_'/'-' separated words counts ("pm_opp.h" is drivers/opp/'s,
 * "of_device.h" drivers/of/'s).  kernel/,
 * mm/, lib/, fs/, block/, net/core/ and the driver core belong to no driver.
 */
static int own_subsystem(struct eng *e, const struct rv_process *st, const char *p)
{
	const char *w;
	size_t n, k;

	if (M(e, "^include/(?:linux|net|drm|asm-generic)/([^/]+?)(?:/|\\.h$)", p) ||
	    M(e, "^drivers/([^/]+)/core/", p) ||
	    M(e, "^net/((?!core/)[^/]+)/", p)) {
		w = eng_cap(e, 1);
	} else if (MQ(e, "^(?:sound/|include/sound/)", p)) {
		w = "sound";
	} else if (MQ(e, "^drivers/gpu/drm/drm_", p)) {
		w = "drm";
	} else {
		return 0;
	}
	n = strlen(w);
	if (driver_dir_named(st, w, n) ||
	    (n > 3 && !strncmp(w, "lib", 3) && driver_dir_named(st, w + 3, n - 3)))
		return 1;	/* libata.h is drivers/ata/'s */
	for (; *w; w += k + (w[k] != '\0')) {
		k = strcspn(w, "_-");
		if (k < n && driver_dir_named(st, w, k))
			return 1;
	}
	return 0;
}

/*
 * Whether a changed line (its text after the '+' or '-') only adds or
 * removes a device ID: a vendor/device number's #define, an ID table's
 * entry (PCI_DEVICE(), USB_DEVICE(), a .compatible or ACPI string, its
 * .driver_data), or a blank or comment line around them.
 */
static int id_line(struct eng *e, const char *l)
{
	return MQ(e, "^\\s*(?:$|/?\\*|//)", l) ||
	       MQ(e, "^\\s*#\\s*define\\s+\\w*(?:_ID|VENDOR|DEVICE|PRODUCT|_VID|_PID|_DID)\\w*\\s+\\(?(?:0x[0-9a-fA-F]+|\\d+)[uUlL]*\\)?\\s*(?:/\\*.*|//.*)?$", l) ||
	       MQ(e, "^\\s*\\{\\s*(?:\\w*_DEVICE\\w*|DEVICE\\w*)\\s*\\(", l) ||
	       MQ(e, "^\\s*\\{\\s*\\.(?:compatible|name|vendor|device|id)\\s*=", l) ||
	       MQ(e, "^\\s*\\{\\s*\"[^\"]+\"\\s*(?:,[^}]*)?\\}\\s*,?\\s*$", l) ||
	       MQ(e, "^\\s*\\.(?:driver_(?:info|data)|data)\\s*=[^;]*\\}?\\s*,?\\s*$", l) ||
	       MQ(e, "^\\s*\\}\\s*,?\\s*$", l);
}

/* The subsystem a driver file is in: its first two folders. */
static size_t subsystem_key(const char *p)
{
	const char *s = strchr(p, '/');

	if (!s)
		return strlen(p);
	s = strchr(s + 1, '/');
	return s ? (size_t)(s - p) : strlen(p);
}

/* The tree's MAINTAINERS or .mailmap text, line by line. */
static void tree_text(struct eng *e, struct rv_process *st, const char *t, size_t n,
		      int mailmap)
{
	const char *end = t + n;

	st->nsect++;
	while (t < end && !e->failed) {
		const char *nl = memchr(t, '\n', (size_t)(end - t));
		size_t len = nl ? (size_t)(nl - t) : (size_t)(end - t);

		if (mailmap)
			mailmap_line(e, st, t, len);
		else
			maint_line(e, st, t, len);
		t += len + 1;
	}
	st->nsect++;
}

/*
 * Every "--- a/x" + "+++ b/y" header pair of the input, and what the
 * hunks of MAINTAINERS (its F:/X:/N: lines on the new side) and .mailmap
 * (its added lines) say; then the tree's.
 */
static void scan_files(struct eng *e, struct rv_process *st)
{
	size_t i, j, keys = 0;
	int kconfig = 0, kind = 0;	/* 1 MAINTAINERS, 2 .mailmap */
	long left_old = 0, left_new = 0;
	struct rv_file *cur = NULL;
	const char *key[RV_TREEWIDE];
	size_t keylen[RV_TREEWIDE];

	st->scanned = 1;
	if (e->o->file)
		return;
	for (i = 0; i + 1 < e->nlines && !e->failed; i++) {
		const char *a = e->rawlines[i], *b = e->rawlines[i + 1];
		char *oldp, *newp;

		if (a[0] == '+' && kconfig &&
		    MQ(e, "^\\+\\s*(?:menu)?config\\s+\\w", a))
			st->new_kconfig = 1;
		if (starts(a, "diff --git ")) {
			kind = 0;
			cur = NULL;
			left_old = left_new = 0;
		}
		if (!starts(a, "--- ") || !starts(b, "+++ ")) {
			struct re_m m;

			/* a hunk's lines, by its header's counts */
			if (left_old <= 0 && left_new <= 0) {
				if (cur && re_match(e->rc, "^@@ -\\d+(?:,(\\d+))? \\+\\d+(?:,(\\d+))? @@", a, &m)) {
					left_old = re_cap_defined(&m, 1) ? strtol(eng_mcap(e, &m, 1), NULL, 10) : 1;
					left_new = re_cap_defined(&m, 2) ? strtol(eng_mcap(e, &m, 2), NULL, 10) : 1;
					if (kind == 1)
						st->nsect++;
				}
				continue;
			}
			if (a[0] == '-')
				left_old--;
			else if (a[0] == '+')
				left_new--;
			else if (a[0] == ' ' || !a[0])
				left_old--, left_new--;
			else if (a[0] != '\\')
				left_old = left_new = 0;
			if (kind == 1 && (a[0] == '+' || a[0] == ' '))
				maint_line(e, st, a + 1, strlen(a + 1));
			else if (kind == 2 && a[0] == '+')
				mailmap_line(e, st, a + 1, strlen(a + 1));
			if (cur && (a[0] == '+' || a[0] == '-') && !cur->not_ids &&
			    !id_line(e, a + 1))
				cur->not_ids = 1;
			continue;
		}
		oldp = header_path(e, a + 4);
		newp = header_path(e, b + 4);
		kconfig = newp && MQ(e, "^(?:drivers|sound)/(?:.*/)?Kconfig[^/]*$", newp);
		kind = newp && !strcmp(newp, "MAINTAINERS") ? 1 :
		       newp && !strcmp(newp, ".mailmap") ? 2 : 0;
		if (kind == 1)
			st->nsect++;
		left_old = left_new = 0;
		if (newp) {
			add_file(e, st, newp, !oldp);
			free(oldp);
		} else {
			add_file(e, st, oldp, 0);	/* deleted */
		}
		cur = st->nfiles ? &st->files[st->nfiles - 1] : NULL;
		i++;
	}
	if (e->o->tree_maintainers)
		tree_text(e, st, e->o->tree_maintainers, e->o->tree_maintainers_len, 0);
	if (e->o->tree_mailmap)
		tree_text(e, st, e->o->tree_mailmap, e->o->tree_mailmap_len, 1);

	/* a change of many subsystems alike (tree-wide) is no driver's */
	for (i = 0; i < st->nfiles && keys < RV_TREEWIDE; i++) {
		const char *p = st->files[i].path;
		size_t n;

		if (st->files[i].shared || !is_driver(e, p))
			continue;
		n = subsystem_key(p);
		for (j = 0; j < keys && (keylen[j] != n || strncmp(key[j], p, n)); j++)
			;
		if (j == keys) {
			key[keys] = p;
			keylen[keys++] = n;
		}
	}
	for (i = 0; i < st->nfiles; i++) {
		struct rv_file *f = &st->files[i];

		if (f->shared && (own_subsystem(e, st, f->path) || !f->not_ids ||
				  keys >= RV_TREEWIDE))
			f->shared = 0;
		if (f->shared)
			st->nshared++;
		/* new files an entry of the patch's or the tree's MAINTAINERS
		 * covers need no MAINTAINERS change */
		/* (Documentation/ABI/ entries are found by their What:, not
		 * by an F: pattern) */
		if (f->is_new && !MQ(e, "^(?:tools/testing/|Documentation/ABI/)", f->path) &&
		    (!st->maint_known || !maint_covers(e, st, f->path))) {
			f->uncovered = 1;
			st->nnew++;
			if (is_driver(e, f->path))
				st->driver_uncovered = 1;
			if (MQ(e, "^(?:arch/[^/]+/)?include/uapi/", f->path))
				st->uapi_uncovered++;
		}
	}
}

/* "a, b, c and 2 more" of the files that pass want() */
static char *name_files(struct eng *e, const struct rv_process *st, int shared)
{
	size_t i, shown = 0, total = 0;
	char *s = "";

	for (i = 0; i < st->nfiles; i++) {
		const struct rv_file *f = &st->files[i];

		if (shared ? !f->shared : !f->uncovered)
			continue;
		total++;
		if (shown < RV_NAMES_SHOWN) {
			s = eng_printf(e, "%s%s%s", s, shown ? ", " : "", f->path);
			shown++;
		}
	}
	if (total > shown)
		s = eng_printf(e, "%s and %zu more", s, total - shown);
	return s;
}

static void report_maintainers(struct eng *e, struct rv_process *st, const char *where)
{
	char *files = name_files(e, st, 0);
	const char *how = st->maint_known ?
		"that no F: pattern of MAINTAINERS covers" :
		"without a MAINTAINERS change";

	st->maint_done = 1;
	if (st->uapi_uncovered)
		WARN(e, R_NEW_FILE_NO_MAINTAINERS,
		     eng_printf(e, "New %s (%s) %s: add the uapi header to its subsystem's entry (F:), so that every change of this ABI reaches its maintainers\n%s",
				st->uapi_uncovered == (int)st->nnew ?
				(st->nnew > 1 ? "uapi headers" : "uapi header") :
				"files, a uapi header among them,",
				files, how, where));
	else if (st->new_kconfig && st->new_driver_files && st->driver_uncovered)
		WARN(e, R_NEW_FILE_NO_MAINTAINERS,
		     eng_printf(e, "New driver files (%s) %s: a new driver needs an entry naming an active maintainer and its files\n%s",
				files, how, where));
	else
		CHK(e, R_NEW_FILE_NO_MAINTAINERS,
		    eng_printf(e, "New files (%s) %s: make sure an entry with an active maintainer covers them\n%s",
			       files, how, where));
}

static void report_shared(struct eng *e, struct rv_process *st, const char *where)
{
	st->shared_done = 1;
	WARN(e, R_SHARED_CODE_CHANGE,
	     eng_printf(e, "Driver patch also changes shared code (%s): that part affects every other user and needs its own maintainers' review, best as a patch of its own\n%s",
			name_files(e, st, 1), where));
}

static void lower_copy(const char *s, size_t n, char *out, size_t cap)
{
	size_t i;

	if (n >= cap)
		n = cap - 1;
	for (i = 0; i < n; i++)
		out[i] = (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i]);
	out[n] = '\0';
}

/*
 * The name of "Name <addr>", normalised (norm_name()), b4's " via B4
 * Relay" dropped; "" when there is none.
 */
static void email_name(const char *s, char *out, size_t cap)
{
	const char *lt = strrchr(s, '<'), *via;
	size_t n;

	out[0] = '\0';
	if (!lt)
		return;
	n = (size_t)(lt - s);
	via = strstr(s, " via B4 Relay");
	if (via && via < lt)
		n = (size_t)(via - s);
	norm_name(s, n, out, cap);
}

/* The address of "Name <addr>" or of a bare "addr", lower case. */
static void email_addr(const char *s, char *out, size_t cap)
{
	const char *lt = strrchr(s, '<'), *end;
	size_t n;

	if (lt) {
		s = lt + 1;
		end = strchr(s, '>');
		n = end ? (size_t)(end - s) : strlen(s);
	} else {
		s += strspn(s, " \t");
		n = strcspn(s, " \t\r\n");
	}
	lower_copy(s, n, out, cap);
}

/* A header's value with its folded continuation lines, as a scratch string. */
static char *header_value(struct eng *e, long n)
{
	const char *r = eng_rawline(e, n), *c;
	char *v = eng_strdup(e, r + strcspn(r, ":") + 1);
	int k;

	/* a From: folds over a line or two: a bound keeps it cheap */
	for (k = 0; k < 8 && (c = eng_rawline(e, n + 1 + k)) &&
	     (c[0] == ' ' || c[0] == '\t'); k++)
		v = eng_printf(e, "%s %s", v, c);
	return v;
}

/*
 * One message from its first line: where its log ends, its sender, its
 * Signed-off-by: and Fixes: lines.  The sender is known when the mail
 * names the author in the body ("From:" there: the header From: is then
 * who sends) or is a received mail (Message-ID:); in a git format-patch
 * file the header From: is only the author.
 */
/* Whether addr (lower case) is b4's web relay: devnull@kernel.org,
 * devnull+<who>@kernel.org. */
static int relay_addr(const char *addr)
{
	size_t n = strlen(addr);

	return !strncmp(addr, "devnull", 7) && (addr[7] == '@' || addr[7] == '+') &&
	       n > 11 && !strcmp(addr + n - 11, "@kernel.org");
}

/* A changelog line of a commit message ("v2: ...", "Changes since v1"). */
#define CHANGELOG_WORDS "(?i)^\\s*[-*]?\\s*(?:v\\d+\\s*(?:[:.)-]|changes?\\b|->|=>|to\\s+v\\d)|changes?\\s*:|changes?\\s+(?:in|since|from|for|to)\\s+v?\\d|changelog|change\\s+log|since\\s+v\\d|revision history)"

/*
 * Whether what lies between the first "---" at line sep and the diff
 * says something besides the diffstat and git's or b4's trailers: a
 * changelog.
 */
static int notes_below(struct eng *e, long sep)
{
	const char *c;
	long k;

	for (k = sep + 1; (c = eng_rawline(e, k)); k++) {
		if (starts(c, "diff --git ") || starts(c, "Index: ") ||
		    (starts(c, "--- ") && starts(eng_rawline(e, k + 1), "+++ ")) ||
		    (starts(c, "From ") && !eng_rawline(e, k - 1)[0]))
			return 0;
		if (MQ(e, "^\\s*$|^\\s\\S.*\\|\\s+(?:\\d+\\s*[+-]*|Bin\\b.*)\\s*$|^\\s\\d+ files? changed|^\\s(?:create|delete) mode |^\\s(?:rename|copy|mode change) |^(?:base-commit|change-id|prerequisite-[\\w-]+):|^-- $|^\\d+\\.\\d+(?:\\.\\d+)*$|^---$", c))
			continue;
		return 1;
	}
	return 0;
}

/*
 * One message from its first line: where its log ends, its sender, its
 * Signed-off-by: and Fixes: lines, its version and whether it says what
 * changed since the last one.  The sender is known when the mail names
 * the author in the body ("From:" there: the header From: is then who
 * sends) or is a received mail (Message-ID:); in a git format-patch file
 * the header From: is only the author.  b4's web relay sends as
 * "Name via B4 Relay <devnull+...@kernel.org>" and names the submitter
 * in X-Original-From: (and Reply-To:): that one is the sender.
 */
static void scan_message(struct eng *e, struct rv_process *st, long start)
{
	long n = start, inbody_from = 0, from = 0, xorig = 0, reply = 0, subject = 0;
	int headers = 1, msgid = 0, formatpatch = 0;
	const char *r;

	st->msg_start = start;
	st->last_sob = 0;
	st->nsob = 0;
	st->has_fixes = 0;
	st->has_stable = 0;
	st->sender_known = 0;
	st->sender[0] = '\0';
	st->sender_name[0] = '\0';
	st->fixes_done = 0;
	st->header_end = 0;
	st->cut_line = 0;
	st->version = 0;
	st->part_total = 0;
	st->changelog = 0;
	for (; (r = eng_rawline(e, n)); n++) {
		if (n > start && (!strcmp(r, "---") || starts(r, "diff --git ") ||
				  starts(r, "Index: ") ||
				  (starts(r, "--- ") && starts(eng_rawline(e, n + 1), "+++ "))))
			break;
		if (n > start && starts(r, "From ") && st->header_end)
			break;	/* the next mail of an mbox, without a diff */
		if (headers) {
			if (n == start && MQ(e, "^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001", r))
				formatpatch = 1;
			if (!from && MQ(e, "(?i)^From:\\s*\\S", r))
				from = n;
			else if (!xorig && MQ(e, "(?i)^X-Original-From:\\s*\\S", r))
				xorig = n;
			else if (!reply && MQ(e, "(?i)^Reply-To:\\s*\\S", r))
				reply = n;
			else if (!subject && MQ(e, "(?i)^Subject:", r))
				subject = n;
			if (MQ(e, "(?i)^Message-ID:", r))
				msgid = 1;
			if (!r[0] || !strcmp(r, "\r")) {
				headers = 0;
				st->header_end = n;
			}
			continue;
		}
		if (!inbody_from && !st->nsob && MQ(e, "(?i)^From:\\s*\\S", r))
			inbody_from = n;
		if (MQ(e, "(?i)^\\s*signed-off-by:", r)) {
			st->last_sob = n;
			st->nsob++;
		}
		if (MQ(e, "(?i)^\\s*fixes:", r))
			st->has_fixes = 1;
		if (MQ(e, "(?i)^\\s*cc:.*\\bstable@(?:vger\\.)?kernel\\.org", r))
			st->has_stable = 1;
		if (!st->changelog && MQ(e, CHANGELOG_WORDS, r))
			st->changelog = 1;
	}
	st->msg_end = r ? n : n + 1;
	if (!st->header_end)
		st->header_end = st->msg_end;
	if (from) {
		char *v = header_value(e, from);

		email_addr(v, st->sender, sizeof(st->sender));
		email_name(v, st->sender_name, sizeof(st->sender_name));
	}
	/* the relay's submitter (X-Original-From: is that header's purpose
	 * whoever set it; Reply-To: only stands in for the relay) */
	if (xorig || (reply && relay_addr(st->sender))) {
		char *v = header_value(e, xorig ? xorig : reply);
		char name[RV_ADDR_MAX];

		email_addr(v, st->sender, sizeof(st->sender));
		email_name(v, name, sizeof(name));
		if (name[0] || xorig)
			memcpy(st->sender_name, name, sizeof(name));
	}
	st->sender_known = st->sender[0] && (inbody_from || (msgid && !formatpatch));
	if (subject) {
		struct re_m m;
		const char *v = header_value(e, subject);

		if (re_match(e->rc, "\\[[^\\]]*?\\b[vV](\\d{1,4})\\b[^\\]]*\\]", v, &m))
			st->version = (int)strtol(eng_mcap(e, &m, 1), NULL, 10);
		if (re_match(e->rc, "\\[[^\\]]*?\\b\\d{1,4}/(\\d{1,4})\\s*\\]", v, &m))
			st->part_total = (int)strtol(eng_mcap(e, &m, 1), NULL, 10);
	}
	if (r && !strcmp(r, "---") && !st->changelog)
		st->changelog = notes_below(e, n);
	/* a sign-off after the first "---", before the diff: git am cuts
	 * the message at that line (a second "---" is the real separator) */
	if (r && !strcmp(r, "---") && st->header_end < n) {
		long k;
		const char *c;

		for (k = n + 1; (c = eng_rawline(e, k)); k++) {
			if (starts(c, "diff --git ") || starts(c, "Index: ") ||
			    (starts(c, "--- ") && starts(eng_rawline(e, k + 1), "+++ ")) ||
			    (starts(c, "From ") && k > n + 1 && !eng_rawline(e, k - 1)[0]))
				break;
			if (MQ(e, "(?i)^\\s*signed-off-by:", c)) {
				st->cut_line = n;
				break;
			}
		}
	}
}

/* Whether a Signed-off-by: of the message names addr or name. */
static int signed_off(struct eng *e, struct rv_process *st, const char *addr,
		      const char *name)
{
	const char *r;
	long k;

	for (k = st->header_end + 1; k < st->msg_end && (r = eng_rawline(e, k)); k++) {
		char a[RV_ADDR_MAX], nm[RV_ADDR_MAX];
		const char *v;

		if (!MQ(e, "(?i)^\\s*signed-off-by:", r))
			continue;
		v = r + strcspn(r, ":") + 1;
		email_addr(v, a, sizeof(a));
		email_name(v, nm, sizeof(nm));
		if (!strcmp(a, addr) || same_name(nm, name))
			return 1;
	}
	return 0;
}

/*
 * A tag whose hyphens are written as blanks or underscores ("Co-developed
 * by:", "Signed off by:"): git interpret-trailers, b4 and the DCO bots
 * read the hyphenated name only.  checkpatch.pl does not see it at all.
 */
static void check_tag(struct eng *e, struct rv_process *st, const char *l)
{
	static const char *const tags[] = {
		"signed-off-by", "co-developed-by", "reviewed-by", "acked-by",
		"tested-by", "reported-by", "suggested-by", "requested-by",
	};
	char canon[40];
	const char *tag, *val;
	size_t i, k, n;
	struct re_m m;

	if (!re_match(e->rc, "^\\s*([A-Za-z]+(?:[ _-]+[A-Za-z]+){1,3})\\s*:\\s*(\\S.*)$", l, &m))
		return;
	tag = eng_mcap(e, &m, 1);
	val = eng_mcap(e, &m, 2);
	if (!strpbrk(tag, " _"))
		return;
	n = strlen(tag);
	for (i = k = 0; i < n && k + 1 < sizeof(canon); i++) {
		char c = tag[i];

		if (c == ' ' || c == '_' || c == '-') {
			if (k && canon[k - 1] != '-')
				canon[k++] = '-';
			continue;
		}
		canon[k++] = (char)((c >= 'A' && c <= 'Z') ? c + 32 : c);
	}
	canon[k] = '\0';
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]) && strcmp(tags[i], canon); i++)
		;
	if (i == sizeof(tags) / sizeof(tags[0]))
		return;
	{
		char addr[RV_ADDR_MAX], name[RV_ADDR_MAX];
		const char *fixed = eng_printf(e, "%c%s", canon[0] - 32, canon + 1);
		int nosob;

		email_addr(val, addr, sizeof(addr));
		email_name(val, name, sizeof(name));
		nosob = !strcmp(canon, "co-developed-by") && !signed_off(e, st, addr, name);
		WARN(e, R_TAG_MALFORMED,
		     eng_printf(e, "Malformed tag '%s:': git and the tools read '%s:' only, so this one is lost%s\n%s",
				tag, fixed,
				nosob ? eng_printf(e, "; and %s has no Signed-off-by: here, which every co-developer must add right after their Co-developed-by:",
						   trim(e, val)) : "",
				e->herecurr));
	}
}

/* A commit message line that says it fixes a bug. */
static int says_fix(struct eng *e, const char *prev, const char *l)
{
	if (MQ(e, "(?i)^\\s*(?:[\\w-]+-by|Link|Closes|Cc|Fixes|BugLink|Message-ID|Date|From|To|Change-Id):", l) ||
	    MQ(e, "(?i)\\b(?:This reverts commit|upstream)\\b", l) || l[0] == '>')
		return 0;
	/* typo and style fixes need no Fixes: */
	if (MQ(e, "(?i)(?:typo|spelling|misspel|grammar|whitespace|white space|comment|kernel-?doc|checkpatch|sparse|coccinelle|warning|style|indent|alignment|blank line|spaces|line length|names?\\b|\\b(?:ERROR|WARNING|CHECK):)", l))
		return 0;
	/* "fixed" is mostly an adjective ("fixed layout"), "fix up" an
	 * adjustment, "a proper fix" a noun */
	if (MQ(e, "(?i)\\bfix(?:es)?\\s+up\\b|\\b(?:a|the|proper|real|quick|temporary|possible)\\s+fix\\b", l) ||
	    (MQ(e, "(?i)^\\s*fix\\b", l) &&
	     MQ(e, "(?i)\\b(?:a|the|proper|real|quick|temporary|possible)\\s*$", prev)))
		return 0;
	return MQ(e, "(?i)\\bfix(?:es)?\\b", l) ||
	       MQ(e, "(?i)\\bcommit\\s+[0-9a-f]{7,40}\\b.*\\b(?:introduc|broke|break|regress|caus)", l) ||
	       MQ(e, "(?i)\\b(?:introduc\\w*|broken|regressed|caused)\\s+(?:by|in|since)\\s+commit\\s+[0-9a-f]{7,40}\\b", l);
}

/*
 * A commit message line that says it fixes a security bug, even without
 * the word "fix": an info leak, uninitialised memory reaching user space,
 * an overflow, a use after free.
 */
static int says_security_fix(struct eng *e, const char *l)
{
	if (MQ(e, "(?i)^\\s*(?:[\\w-]+-by|Link|Closes|Cc|Fixes|BugLink|Message-ID|Date|From|To|Change-Id):", l) ||
	    l[0] == '>')
		return 0;
	return MQ(e, "(?i)\\b(?:info(?:rmation)?[- ]leak|(?:leak|leaks|leaking|leaked|disclos\\w+|expos\\w+)\\s+(?:of\\s+)?(?:the\\s+)?(?:kernel|uninitiali[sz]ed|stack|heap|memory|pointers?|addresses)|uninitiali[sz]ed\\s+(?:kernel\\s+|stack\\s+|heap\\s+)?(?:memory|data|bytes|padding|stack|value)|out[- ]of[- ]bounds\\s+(?:read|write|access)|(?:buffer|stack|heap|integer)\\s+overflow|use[- ]after[- ]free|double[- ]free|privilege\\s+escalation|CVE-\\d{4}-\\d+)\\b", l);
}

static void message_line(struct eng *e, struct rv_process *st)
{
	const char *l = e->rawline;
	long n = e->linenr;
	int in_header = n < st->header_end;

	if (n == st->cut_line)
		WARN(e, R_COMMIT_LOG_CUT,
		     eng_printf(e, "'---' inside the commit message: git am ends the message at this line and drops the rest, the Signed-off-by: below too; indent it or use another marker\n%s",
				e->herecurr));
	if (n >= st->msg_end)
		return;
	/* a security fix: the stable trees need it, so Fixes: and Cc: stable */
	if ((!st->has_fixes || !st->has_stable) && !st->fixes_done &&
	    ((in_header && MQ(e, "(?i)^Subject:", l)) ||
	     (!in_header && n > st->header_end)) &&
	    says_security_fix(e, in_header ? l + 8 : l)) {
		st->fixes_done = 1;
		e->fixes_said |= WARN(e, R_MISSING_FIXES_TAG,
		     eng_printf(e, "The commit message describes a security fix but has no %s: %s\n%s",
				!st->has_fixes && !st->has_stable ? "Fixes: tag and no Cc: stable@vger.kernel.org" :
				!st->has_fixes ? "Fixes: tag" : "Cc: stable@vger.kernel.org",
				!st->has_fixes ? "name the commit that introduced the bug, 'Fixes: <12 chars of sha1> (\"<title line>\")', and Cc stable so the fix reaches every tree that has it" :
				"add 'Cc: stable@vger.kernel.org' so the fix reaches the stable trees that have the bug",
				e->herecurr));
	}
	if (!st->has_fixes && !st->fixes_done &&
	    ((in_header && MQ(e, "(?i)^Subject:", l)) ||
	     (!in_header && n > st->header_end)) &&
	    says_fix(e, in_header || n - 1 <= st->header_end ? "" : eng_rawline(e, n - 1),
		     in_header ? l + 8 : l)) {
		st->fixes_done = 1;
		e->fixes_said |= CHK(e, R_MISSING_FIXES_TAG,
		    eng_cat(e, "The commit message describes a bug fix but has no Fixes: tag: name the commit that introduced the bug, 'Fixes: <12 chars of sha1> (\"<title line>\")', so the fix reaches the stable trees that have it\n",
			    e->herecurr));
	}
	if (in_header) {
		/* a later version of a single patch: its changelog is its own */
		if (st->version >= 2 && st->part_total <= 1 && !st->changelog &&
		    MQ(e, "(?i)^Subject:", l))
			WARN(e, R_VERSION_NO_CHANGELOG,
			     eng_printf(e, "v%d with no changelog: say below the '---' what changed since v%d (and link it), so that reviewers need not compare the versions\n%s",
					st->version, st->version - 1, e->herecurr));
		return;
	}
	if (st->last_sob && n > st->last_sob && MQ(e, "(?i)^\\s*fixes:", l))
		WARN(e, R_FIXES_AFTER_SIGN_OFF,
		     eng_cat(e, "Fixes: tag after the last Signed-off-by: no one in the sign-off chain vouches for it, put it above the sign-offs with the other tags\n",
			     e->herecurr));
	if (n > st->header_end && l[0] != '>')
		check_tag(e, st, l);
	if (n == st->last_sob && st->sender_known) {
		char addr[RV_ADDR_MAX], name[RV_ADDR_MAX];
		const char *v = l + strcspn(l, ":") + 1;

		/* one person with two addresses (a company's and the one
		 * that gets mail out, a .mailmap alias) is still the sender */
		email_addr(v, addr, sizeof(addr));
		email_name(v, name, sizeof(name));
		if (!same_person(st, addr, name, st->sender, st->sender_name))
			WARN(e, R_SIGN_OFF_NOT_SENDER,
			     eng_printf(e, "The last Signed-off-by: (%s) is not the sender's (%s): whoever submits a patch signs off last; if both are you, sign off with the address you send from (or map them in .mailmap), else add your own Signed-off-by: below it\n%s",
					addr, st->sender, e->herecurr));
	}
}

/*
 * checkpatch.pl's author (its From:) of the mail whose From: header is
 * line n1, with --extra: b4's web relay sends as "Name via B4 Relay
 * <devnull+...@kernel.org>", the author is its X-Original-From: (or
 * Reply-To:).  value is the From: header's; the same when it is no
 * relay's or the headers name no one else.
 */
const char *rv_relay_author(struct eng *e, long n1, const char *value)
{
	char addr[RV_ADDR_MAX];
	const char *r, *reply = NULL;
	long k;

	email_addr(value, addr, sizeof(addr));
	if (!relay_addr(addr))
		return value;
	for (k = n1 + 1; (r = eng_rawline(e, k)) && r[0] && strcmp(r, "\r"); k++) {
		if (MQ(e, "(?i)^X-Original-From:\\s*\\S", r))
			return trim(e, header_value(e, k) );
		if (!reply && MQ(e, "(?i)^Reply-To:\\s*\\S", r))
			reply = trim(e, header_value(e, k));
	}
	if (!reply)
		return value;
	/* Reply-To: gives the address: the name is the relay's From:'s */
	{
		const char *lt = strrchr(value, '<'), *via = strstr(value, " via B4 Relay");
		size_t n = via && lt && via < lt ? (size_t)(via - value) : lt ? (size_t)(lt - value) : 0;

		email_addr(reply, addr, sizeof(addr));
		return n ? eng_printf(e, "%.*s <%s>", (int)n, value, addr) : eng_strdup(e, addr);
	}
}

static int sym_is_new(const struct rv_process *st, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < st->nsyms; i++)
		if (strlen(st->syms[i]) == n && !strncmp(st->syms[i], s, n))
			return 1;
	return 0;
}

/* Does the "depends on" expression name a symbol this patch adds? */
static int depends_on_new(const struct rv_process *st, const char *s)
{
	while (*s) {
		size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");

		if (n && sym_is_new(st, s, n))
			return 1;
		s += n ? n : 1;
	}
	return 0;
}

static void kconfig_reset(struct rv_process *st)
{
	free(st->kc_sym);
	st->kc_sym = NULL;
	st->kc_new = st->kc_prompt = st->kc_sub = 0;
}

/*
 * Kconfig of drivers/ and sound/: a new symbol with a prompt is a driver
 * or a driver option someone can switch on; "default y|m" switches it on
 * for everyone.  Quiet: hidden symbols (selected or derived), "default n"
 * or a symbol, "default y if ARCH_FOO" (only the platform that has the
 * hardware), options of a driver the same patch adds (depends on it),
 * and options outside drivers/ and sound/ (core options are their
 * maintainers' policy, not hardware's).
 */
static void kconfig_line(struct eng *e, struct rv_process *st)
{
	const char *l = e->line, *file = e->realfile.buf;
	int added = l[0] == '+';

	if (!e->hunk_line || l[0] == '-')
		return;
	if (!st->kc_file || strcmp(st->kc_file, file) || st->kc_hunk != e->first_line) {
		kconfig_reset(st);
		free(st->kc_file);
		st->kc_file = strdup(file);
		st->kc_hunk = e->first_line;
		if (!st->kc_file) {
			e->failed = 1;
			return;
		}
	}
	if (M(e, "^.\\s*(?:menu)?config\\s+(\\w+)", l)) {
		char *sym = eng_cap(e, 1);

		kconfig_reset(st);
		st->kc_new = added;
		st->kc_sym = strdup(sym);
		if (!st->kc_sym) {
			e->failed = 1;
			return;
		}
		if (added && st->nsyms < RV_MAX_SYMS) {
			char **ns = realloc(st->syms, (st->nsyms + 1) * sizeof(*ns));

			if (!ns) {
				e->failed = 1;
				return;
			}
			st->syms = ns;
			ns[st->nsyms] = strdup(sym);
			if (ns[st->nsyms])
				st->nsyms++;
		}
		return;
	}
	if (MQ(e, "^.\\s*(?:choice|endchoice|menu|endmenu|if|endif|comment|source|mainmenu)\\b", l)) {
		kconfig_reset(st);
		return;
	}
	if (!st->kc_sym)
		return;
	if (MQ(e, "^.\\s*(?:(?:bool|tristate|string|int|hex)\\s+\\S|prompt\\b)", l))
		st->kc_prompt = 1;
	if (M(e, "^.\\s*depends\\s+on\\s+(.*)", l) && depends_on_new(st, eng_cap(e, 1)))
		st->kc_sub = 1;
	if (added && st->kc_new && st->kc_prompt && !st->kc_sub &&
	    M(e, "^\\+\\s*default\\s+([ym])\\b\\s*(?:if\\s+(.*))?$", l)) {
		char *val = eng_cap(e, 1), *cond = eng_cap(e, 2);

		if (cond[0] && MQ(e, "^[\\s(!]*(?:ARCH|MACH|PLAT|SOC)_\\w+[\\s)]*(?:(?:\\|\\||&&)[\\s(!]*(?:ARCH|MACH|PLAT|SOC)_\\w+[\\s)]*)*$", cond))
			return;
		WARN(e, R_DRIVER_DEFAULT_ENABLED,
		     eng_printf(e, "New driver symbol %s defaults to %s%s: everyone whose configuration meets its dependencies gets it without having the hardware, leave the default off\n%s",
				st->kc_sym, val, cond[0] ? " (conditionally)" : "",
				e->herecurr));
	}
}

void rv_process_line(struct eng *e)
{
	struct rv_process *st = state(e);
	const char *l = e->line;

	if (!st || e->o->file)
		return;
	if (!st->scanned)
		scan_files(e, st);
	if (e->linenr == 1 ||
	    (!e->hunk_line && starts(e->rawline, "From ") && e->linenr >= st->msg_end))
		scan_message(e, st, e->linenr);
	if (!e->hunk_line) {
		message_line(e, st);
		return;
	}
	if (MQ(e, "^(?:drivers|sound)/(?:.*/)?Kconfig[^/]*$", e->realfile.buf))
		kconfig_line(e, st);
	if (l[0] != '+')
		return;
	if (!st->maint_done && st->nnew && e->realline == 1) {
		size_t i;

		for (i = 0; i < st->nfiles; i++)
			if (st->files[i].uncovered &&
			    !strcmp(st->files[i].path, e->realfile.buf)) {
				report_maintainers(e, st, e->herecurr);
				break;
			}
	}
	if (!st->shared_done && st->nshared && st->drivers) {
		size_t i;

		for (i = 0; i < st->nfiles; i++)
			if (st->files[i].shared &&
			    !strcmp(st->files[i].path, e->realfile.buf)) {
				report_shared(e, st, e->herecurr);
				break;
			}
	}
}

void rv_process_final(struct eng *e)
{
	struct rv_process *st = e->rv_process;

	if (!st || e->o->file)
		return;
	/* new files without an added line, shared files only losing lines */
	if (!st->maint_done && st->nnew)
		report_maintainers(e, st, "");
	if (!st->shared_done && st->nshared && st->drivers)
		report_shared(e, st, "");
}

void rv_process_release(struct eng *e)
{
	struct rv_process *st = e->rv_process;
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nfiles; i++)
		free(st->files[i].path);
	free(st->files);
	free(st->pats);
	free(st->aliases);
	for (i = 0; i < st->nsyms; i++)
		free(st->syms[i]);
	free(st->syms);
	free(st->kc_sym);
	free(st->kc_file);
	free(st);
	e->rv_process = NULL;
}

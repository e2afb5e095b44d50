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
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../checkpatch/eng.h"

#include "../banned.h"

#define RV_MAX_FILES	4096	/* file headers kept per input */
#define RV_MAX_SYMS	1024	/* new Kconfig symbols kept per input */
#define RV_NAMES_SHOWN	4	/* file names quoted in one message */
#define RV_ADDR_MAX	256	/* bytes of an e-mail address kept */

struct rv_file {
	char *path;		/* path in the new tree (old one when deleted) */
	int is_new;		/* "--- /dev/null" */
	int shared;		/* an existing file of shared code */
};

struct rv_process {
	int scanned;		/* file headers read */
	struct rv_file *files;
	size_t nfiles;
	int maintainers;	/* MAINTAINERS is changed */
	int new_kconfig;	/* a drivers/ or sound/ Kconfig gains a symbol */
	int new_driver_files;	/* new files under drivers/ or sound/ */
	int drivers;		/* some driver file is changed */
	size_t nnew, nshared;
	int maint_done, shared_done;

	/* the current message: its lines are [msg_start, msg_end) */
	long msg_start, msg_end;
	long last_sob;		/* line of the last Signed-off-by:, 0: none */
	int nsob;
	int has_fixes;
	int has_stable;		/* Cc: stable@vger.kernel.org */
	int sender_known;	/* the header From: is who submits */
	char sender[RV_ADDR_MAX];	/* address, lower case */
	char sender_name[RV_ADDR_MAX];	/* name, lower case, unquoted */
	int fixes_done;
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
	if (!strcmp(path, "MAINTAINERS"))
		st->maintainers = 1;
	/* a new header is the driver's own, whatever its folder */
	f->shared = !is_new && is_shared(e, path);
	if (is_driver(e, path))
		st->drivers = 1;
	if (is_new && !MQ(e, "^tools/testing/", path))
		st->nnew++;
	if (is_new && is_driver(e, path))
		st->new_driver_files = 1;
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

/* Every "--- a/x" + "+++ b/y" header pair of the input. */
static void scan_files(struct eng *e, struct rv_process *st)
{
	size_t i;
	int kconfig = 0;

	st->scanned = 1;
	if (e->o->file)
		return;
	for (i = 0; i + 1 < e->nlines && !e->failed; i++) {
		const char *a = e->rawlines[i], *b = e->rawlines[i + 1];
		char *oldp, *newp;

		if (a[0] == '+' && kconfig &&
		    MQ(e, "^\\+\\s*(?:menu)?config\\s+\\w", a))
			st->new_kconfig = 1;
		if (!starts(a, "--- ") || !starts(b, "+++ "))
			continue;
		oldp = header_path(e, a + 4);
		newp = header_path(e, b + 4);
		kconfig = newp && MQ(e, "^(?:drivers|sound)/(?:.*/)?Kconfig[^/]*$", newp);
		if (newp) {
			add_file(e, st, newp, !oldp);
			free(oldp);
		} else {
			add_file(e, st, oldp, 0);	/* deleted */
		}
		i++;
	}
	for (i = 0; i < st->nfiles; i++) {
		if (st->files[i].shared && own_subsystem(e, st, st->files[i].path))
			st->files[i].shared = 0;
		if (st->files[i].shared)
			st->nshared++;
	}
}

/* "a, b, c and 2 more" of the files that pass want() */
static char *name_files(struct eng *e, const struct rv_process *st, int shared)
{
	size_t i, shown = 0, total = 0;
	char *s = "";

	for (i = 0; i < st->nfiles; i++) {
		const struct rv_file *f = &st->files[i];

		if (shared ? !f->shared :
		    !f->is_new || MQ(e, "^tools/testing/", f->path))
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

	st->maint_done = 1;
	if (st->new_kconfig && st->new_driver_files)
		WARN(e, R_NEW_FILE_NO_MAINTAINERS,
		     eng_printf(e, "New driver files (%s) without a MAINTAINERS change: a new driver needs an entry naming an active maintainer and its files\n%s",
				files, where));
	else
		CHK(e, R_NEW_FILE_NO_MAINTAINERS,
		    eng_printf(e, "New files (%s) without a MAINTAINERS change: make sure an entry with an active maintainer covers them\n%s",
			       files, where));
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
 * The name of "Name <addr>", lower case, quotes and b4's " via B4 Relay"
 * dropped; "" when there is none or it is MIME-encoded (not decoded here:
 * the address decides then).
 */
static void email_name(const char *s, char *out, size_t cap)
{
	const char *lt = strrchr(s, '<'), *via;
	size_t n;

	out[0] = '\0';
	if (!lt || strstr(s, "=?"))
		return;
	s += strspn(s, " \t\"");
	n = (size_t)(lt - s);
	via = strstr(s, " via B4 Relay");
	if (via && via < lt)
		n = (size_t)(via - s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '"'))
		n--;
	lower_copy(s, n, out, cap);
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
static void scan_message(struct eng *e, struct rv_process *st, long start)
{
	long n = start, inbody_from = 0;
	int headers = 1, msgid = 0, formatpatch = 0, original = 0;
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
			/* b4's web relay sends as itself and names the
			 * submitter in X-Original-From: */
			if ((!st->sender[0] && MQ(e, "(?i)^From:\\s*\\S", r)) ||
			    (!original && MQ(e, "(?i)^X-Original-From:\\s*\\S", r))) {
				char *v = header_value(e, n);

				original = r[0] == 'X' || r[0] == 'x';
				email_addr(v, st->sender, sizeof(st->sender));
				email_name(v, st->sender_name, sizeof(st->sender_name));
			}
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
	}
	st->msg_end = r ? n : n + 1;
	if (!st->header_end)
		st->header_end = st->msg_end;
	st->sender_known = st->sender[0] && (inbody_from || (msgid && !formatpatch));
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
	if (in_header)
		return;
	if (st->last_sob && n > st->last_sob && MQ(e, "(?i)^\\s*fixes:", l))
		WARN(e, R_FIXES_AFTER_SIGN_OFF,
		     eng_cat(e, "Fixes: tag after the last Signed-off-by: no one in the sign-off chain vouches for it, put it above the sign-offs with the other tags\n",
			     e->herecurr));
	if (n == st->last_sob && st->sender_known) {
		char addr[RV_ADDR_MAX], name[RV_ADDR_MAX];
		const char *v = l + strcspn(l, ":") + 1;

		/* one person with two addresses (a company's and the one
		 * that gets mail out) is still the sender */
		email_addr(v, addr, sizeof(addr));
		email_name(v, name, sizeof(name));
		if (strcmp(addr, st->sender) &&
		    (!name[0] || strcmp(name, st->sender_name)))
			WARN(e, R_SIGN_OFF_NOT_SENDER,
			     eng_printf(e, "The last Signed-off-by: is not the sender's (%s): the developer who submits a patch must sign off last, after everyone who handled it\n%s",
					st->sender, e->herecurr));
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
	if (!st->maint_done && st->nnew && !st->maintainers &&
	    e->realline == 1) {
		size_t i;

		for (i = 0; i < st->nfiles; i++)
			if (st->files[i].is_new &&
			    !strcmp(st->files[i].path, e->realfile.buf) &&
			    !MQ(e, "^tools/testing/", e->realfile.buf)) {
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
	if (!st->maint_done && st->nnew && !st->maintainers)
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
	for (i = 0; i < st->nsyms; i++)
		free(st->syms[i]);
	free(st->syms);
	free(st->kc_sym);
	free(st->kc_file);
	free(st);
	e->rv_process = NULL;
}

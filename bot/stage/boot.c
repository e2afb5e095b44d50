// SPDX-License-Identifier: GPL-2.0-only
/*
 * The QEMU load stage: build a module against a kbuild tree, boot it in a
 * TCG guest from a busybox initramfs, read the serial console.  See boot.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/random.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "boot_int.h"
#include "ctext.h"
#include "sandbox.h"
#include "../../checker/diff.h"
#include "../../checker/banned.h"

#define BOOT_QEMU		"qemu-system-x86_64"
#define BOOT_BUSYBOX		"/bin/busybox"
#define BOOT_DEF_TIMEOUT	180
#define BOOT_MAX_LINES		12		/* console lines in a message */
#define BOOT_MAX_QUOTE		160		/* bytes of one console line quoted */
#define BOOT_MAX_MARKS		(64u << 10)	/* bytes read of the markers' port */
#define BOOT_MAX_BUILD_LOG	(1u << 20)	/* bytes kept of the module build */
#define BOOT_NONCE_LEN		16		/* hex digits */

/*
 * The guest's /init reports on its own serial port (ttyS1, a file of the
 * host), which printk does not write to: "RB <nonce> WHAT [ARG]" lines.
 * The nonce is new for every boot and reaches the guest in a file that
 * /init reads and removes before the module is loaded; a line without it
 * is not /init's.  On the console (ttyS0) /init marks where the load
 * starts ("RB <nonce> LOAD-START", through /dev/kmsg): what the kernel
 * says before it is the boot's, everything after it is the module's, to
 * the end.
 */
#define MARK		"RB "
#define MARK_START	"LOAD-START"
#define MARK_INSMOD	"INSMOD"
#define MARK_RMMOD	"RMMOD"
#define MARK_HANG	"HANG"
#define MARK_DONE	"DONE"

/* set: a stop was asked for (SIGTERM): QEMU and the build are killed */
static const volatile sig_atomic_t *boot_stop;

void boot_set_stop(const volatile sig_atomic_t *stop)
{
	boot_stop = stop;
}

void boot_opts_from_config(struct boot_opts *o, const struct config *cfg)
{
	memset(o, 0, sizeof(*o));
	o->kernel = cfg->boot_kernel;
	o->headers = cfg->boot_headers;
	o->tree = cfg->build_tree;
	o->work = cfg->boot_work;
	if (!o->work && cfg->database) {
		const char *slash = strrchr(cfg->database, '/');
		int dl = slash ? (int)(slash - cfg->database) : 1;

		if ((size_t)snprintf(o->work_buf, sizeof(o->work_buf), "%.*s/boot-work",
				     dl, slash ? cfg->database : ".") < sizeof(o->work_buf))
			o->work = o->work_buf;
	}
	o->timeout = cfg->boot_timeout;
}

int boot_enabled(const struct config *cfg)
{
	return cfg->boot_kernel && *cfg->boot_kernel &&
	       cfg->boot_headers && *cfg->boot_headers;
}

/* The path of prog in $PATH into out; 0 when found. */
static int path_find(const char *prog, char *out, size_t n)
{
	const char *path = getenv("PATH");
	const char *p, *e;

	if (!path || !*path)
		path = "/usr/bin:/bin";
	for (p = path; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if (e == p)
			continue;
		if ((size_t)snprintf(out, n, "%.*s/%s", (int)(e - p), p, prog) >= n)
			continue;
		if (!access(out, X_OK))
			return 0;
	}
	return -1;
}

int boot_check(const struct boot_opts *o, char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (o->qemu ? access(o->qemu, X_OK) : path_find(BOOT_QEMU, path, sizeof(path))) {
		snprintf(err, errlen, "no " BOOT_QEMU ": the load test runs only in QEMU");
		return -1;
	}
	if (!o->kernel || access(o->kernel, R_OK)) {
		snprintf(err, errlen, "[boot] kernel: cannot read %s", o->kernel ? o->kernel : "(unset)");
		return -1;
	}
	if (!o->headers ||
	    (size_t)snprintf(path, sizeof(path), "%s/Makefile", o->headers) >= sizeof(path) ||
	    access(path, R_OK)) {
		snprintf(err, errlen, "[boot] headers: no kbuild Makefile in %s",
			 o->headers ? o->headers : "(unset)");
		return -1;
	}
	if (access(o->busybox ? o->busybox : BOOT_BUSYBOX, R_OK)) {
		snprintf(err, errlen, "no %s (busybox-static) for the initramfs",
			 o->busybox ? o->busybox : BOOT_BUSYBOX);
		return -1;
	}
	/* the module build, the initramfs and QEMU run in the sandbox only */
	return sandbox_check(err, errlen);
}

/* ---- what the stage's sandboxes see -------------------------------------- */

/* Adds path (its real path) read-only, unless a part of /usr every
 * sandbox sees (sandbox_usr_parts) or an earlier mount holds it. */
static void see_ro(struct sandbox *sb, const char *path)
{
	char *real = realpath(path, NULL);
	size_t i, n;

	if (!real)
		return;
	n = strlen(real);
	if (sandbox_usr_shown(real))
		goto out;
	for (i = 0; i < sb->nm; i++) {
		size_t l = strlen(sb->m[i].src);

		if (sb->m[i].kind == SANDBOX_RO && l <= n && !memcmp(real, sb->m[i].src, l) &&
		    (real[l] == '/' || !real[l]))
			goto out;
	}
	sandbox_ro(sb, real);
out:
	free(real);
}

/* The top-level links of a kbuild folder (Debian's scripts/ and tools/
 * point into linux-kbuild), read-only. */
static void see_links(struct sandbox *sb, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char p[PATH_MAX];

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' ||
		    (size_t)snprintf(p, sizeof(p), "%s/%s", dir, de->d_name) >= sizeof(p))
			continue;
		if (!lstat(p, &st) && S_ISLNK(st.st_mode))
			see_ro(sb, p);
	}
	closedir(d);
}

/*
 * The kbuild tree ([boot] headers) and what it reaches, read-only: its
 * real folder, its top-level links' targets, and the folders its
 * Makefile includes by absolute path (Debian's -amd64 headers include
 * the -common ones) with their links.
 */
static void see_headers(struct sandbox *sb, const char *headers)
{
	char mk[PATH_MAX], line[PATH_MAX + 16];
	FILE *f;
	int n = 0;

	see_ro(sb, headers);
	see_links(sb, headers);
	if ((size_t)snprintf(mk, sizeof(mk), "%s/Makefile", headers) >= sizeof(mk))
		return;
	f = fopen(mk, "re");
	if (!f)
		return;
	while (n++ < 64 && fgets(line, sizeof(line), f)) {
		char *p = line, *slash;

		if (strncmp(p, "include /", 9))
			continue;
		p += 8;
		p[strcspn(p, " \t\r\n")] = '\0';
		slash = strrchr(p, '/');
		if (!slash || slash == p)
			continue;
		*slash = '\0';
		see_ro(sb, p);
		see_links(sb, p);
	}
	fclose(f);
}

/*
 * Runs argv in the sandbox sb until the deadline; output to out (capped).
 * Returns the exit status (0..255), 256 when killed by a signal, -2 on a
 * timeout or a stop, -1 when it could not start.
 */
static int run(struct sandbox *sb, const char *const argv[], struct sbuf *out)
{
	enum sandbox_result r = sandbox_run(sb, argv, out, boot_stop);

	if (r == SANDBOX_TIMEOUT)
		return -2;
	if (r == SANDBOX_NOSTART)
		return -1;
	if (WIFEXITED(sb->status))
		return WEXITSTATUS(sb->status);
	return 256;
}

/* A fresh, empty folder owned by the sandbox's user (whatever a sandbox
 * left at path before is removed without following a link). */
static int fresh_dir(const char *path)
{
	return sandbox_rmtree(path) || sandbox_mkdir_owned(path) ? -1 : 0;
}

/* A new random nonce, BOOT_NONCE_LEN hex digits. */
static int make_nonce(char out[BOOT_NONCE_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char r[BOOT_NONCE_LEN / 2];
	size_t i, got = 0;

	while (got < sizeof(r)) {
		ssize_t n = getrandom(r + got, sizeof(r) - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	for (i = 0; i < sizeof(r); i++) {
		out[2 * i] = hex[r[i] >> 4];
		out[2 * i + 1] = hex[r[i] & 15];
	}
	out[BOOT_NONCE_LEN] = '\0';
	return 0;
}

/*
 * The guest's /init: reads and removes the nonce, marks the start of the
 * load on the console, loads in a subshell (an init that oopses kills
 * insmod and leaves the module "Loading"), waits at most wait_s for it,
 * unloads, reports on ttyS1, powers off.  PID 1 never exits before
 * poweroff.
 */
static int init_script(char *buf, size_t n, const char *mod, int wait_s)
{
	int w = snprintf(buf, n,
		"#!/bin/busybox sh\n"
		"/bin/busybox --install -s /bin\n"
		"mount -t proc proc /proc\n"
		"mount -t sysfs sys /sys\n"
		"mount -t devtmpfs dev /dev\n"
		"read N < /nonce\n"
		"rm -f /nonce\n"
		"r() { echo \"" MARK "$N $*\" > /dev/ttyS1; }\n"
		"echo 8 > /proc/sys/kernel/printk\n"
		"echo \"" MARK "$N " MARK_START "\" > /dev/kmsg\n"
		"r " MARK_START "\n"
		"( insmod /m/%s.ko; r " MARK_INSMOD " $?; : > /tmp/insmod.done ) &\n"
		"i=0\n"
		"while [ ! -e /tmp/insmod.done ] && [ $i -lt %d ]; do sleep 1; i=$((i+1)); done\n"
		"if [ -e /tmp/insmod.done ]; then\n"
		"  ( rmmod %s; r " MARK_RMMOD " $?; : > /tmp/rmmod.done ) &\n"
		"  i=0\n"
		"  while [ ! -e /tmp/rmmod.done ] && [ $i -lt %d ]; do sleep 1; i=$((i+1)); done\n"
		"  [ -e /tmp/rmmod.done ] || r " MARK_HANG " rmmod\n"
		"else\n"
		"  r " MARK_HANG " insmod\n"
		"fi\n"
		"sleep 1\n"
		"r " MARK_DONE "\n"
		"poweroff -f\n"
		"while :; do sleep 1; done\n",
		mod, wait_s, mod, wait_s);

	return w < 0 || (size_t)w >= n ? -1 : w;
}

/*
 * Packs the initramfs in a sandbox, with cpio(1) (newc, the kernel's
 * format): busybox, /init, the nonce and the built module, which the
 * sandbox sees read-only in its folder moddir; a link or a FIFO the build
 * left there is packed as what it is, never followed.  Written to
 * stage/initramfs.cpio; stage holds init, nonce and the file list.
 */
static int make_initramfs(const char *stage, const char *moddir, const char *busybox,
			  const char *mod, double deadline, const struct sandbox_limits *lim)
{
	char list[512], path[PATH_MAX], out[PATH_MAX], init[PATH_MAX], nonce[PATH_MAX];
	const char *const argv[] = { "cpio", "--quiet", "-o", "-H", "newc", "-R", "0:0",
				     "-F", out, NULL };
	struct sandbox *sb;
	int w, rc;

	w = snprintf(list, sizeof(list), "bin\ndev\nproc\nsys\ntmp\nm\nbin/busybox\ninit\n"
		     "nonce\nm/%s.ko\n", mod);
	if (w < 0 || (size_t)w >= sizeof(list) ||
	    (size_t)snprintf(path, sizeof(path), "%s/list", stage) >= sizeof(path) ||
	    (size_t)snprintf(out, sizeof(out), "%s/initramfs.cpio", stage) >= sizeof(out) ||
	    (size_t)snprintf(init, sizeof(init), "%s/init", stage) >= sizeof(init) ||
	    (size_t)snprintf(nonce, sizeof(nonce), "%s/nonce", stage) >= sizeof(nonce) ||
	    sandbox_write_new(path, list, (size_t)w, 0644))
		return -1;
	sb = malloc(sizeof(*sb));
	if (!sb)
		return -1;
	sandbox_init(sb, lim, deadline);
	sandbox_tmpfs(sb, "/r");
	sandbox_dir(sb, "/r/bin");
	sandbox_dir(sb, "/r/dev");
	sandbox_dir(sb, "/r/proc");
	sandbox_dir(sb, "/r/sys");
	sandbox_dir(sb, "/r/tmp");
	sandbox_bind_at(sb, busybox, "/r/bin/busybox", 0);
	sandbox_bind_at(sb, init, "/r/init", 0);
	sandbox_bind_at(sb, nonce, "/r/nonce", 0);
	sandbox_bind_at(sb, moddir, "/r/m", 0);
	sandbox_rw(sb, stage);
	sandbox_chdir(sb, "/r");
	sandbox_stdin(sb, path);
	rc = run(sb, argv, NULL);
	free(sb);
	return rc == 0 ? 0 : -1;
}

static int valid_name(const char *name)
{
	size_t i, n = strlen(name);

	if (!n || n >= BOOT_MAX_NAME)
		return 0;
	for (i = 0; i < n; i++) {
		char ch = name[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
			return 0;
	}
	return 1;
}

static const char *memfind(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);

	return nl > hl ? NULL : memmem(h, hl, n, nl);
}

int boot_is_module_source(const char *src, size_t len)
{
	if (!memfind(src, len, "MODULE_LICENSE("))
		return 0;
	if (memfind(src, len, "module_init("))
		return 1;
	/* module_platform_driver(), module_i2c_driver(), module_pci_driver() ... */
	for (const char *p = src, *e = src + len; (p = memfind(p, (size_t)(e - p), "module_")); p++) {
		const char *q = p + 7;

		while (q < e && ((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_'))
			q++;
		if (q - p > 7 + 7 && !memcmp(q - 7, "_driver", 7) && q < e && *q == '(')
			return 1;
	}
	return 0;
}

/* What a finding's type means, in words. */
static const struct { const char *type, *what; } type_words[] = {
	{ "MODULE_LOAD_OOPS", "oops" },
	{ "MODULE_LOAD_PANIC", "kernel panic" },
	{ "MODULE_LOAD_KASAN", "KASAN report" },
	{ "MODULE_LOAD_LOCKDEP", "lockdep report" },
	{ "MODULE_LOAD_WARNING", "kernel warning" },
	{ "MODULE_LOAD_HANG", "hang" },
	{ "MODULE_LOAD_FAILED", "failed load" },
	{ "MODULE_UNLOAD_FAILED", "failed unload" },
};

static const char *type_what(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(type_words) / sizeof(type_words[0]); i++)
		if (!strcmp(type, type_words[i].type))
			return type_words[i].what;
	return "problem";
}

/* Console text that is a report against the kernel's state. */
static const char *const bad_marks[] = {
	"BUG:", "kernel BUG at", "invalid opcode:", "Oops:", "WARNING:", "KASAN:", "UBSAN:",
	"general protection fault",
	"Kernel panic", "possible circular locking", "possible recursive locking",
	"inconsistent lock state", "suspicious RCU usage", "INFO: task",
	"watchdog: BUG:", "Call Trace:", "stack-protector",
};

static int is_bad_line(const char *l, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(bad_marks) / sizeof(bad_marks[0]); i++)
		if (memfind(l, n, bad_marks[i]))
			return 1;
	return 0;
}

/* Appends line l[0, n) to out->message (control characters made '?'). */
static void msg_add(struct boot_result *out, const char *l, size_t n)
{
	size_t have = strlen(out->message), i;

	if (have + 2 >= sizeof(out->message))
		return;
	if (n > BOOT_MAX_QUOTE)
		n = BOOT_MAX_QUOTE;	/* what the review may quote of a line */
	for (i = 0; i < n && have + 2 < sizeof(out->message); i++) {
		unsigned char ch = (unsigned char)l[i];

		out->message[have++] = (ch < 0x20 && ch != '\t') || ch == 0x7f ? '?' : (char)ch;
	}
	out->message[have++] = '\n';
	out->message[have] = '\0';
}

/*
 * A line of /init's own: "RB <nonce> WHAT [ARG]" (a CR from the serial
 * line dropped).  Returns WHAT's start within l (ARG follows it), or
 * NULL for any other line.
 */
static const char *mark_line(const char *l, size_t n, const char *nonce, size_t *wlen)
{
	size_t nl = strlen(nonce);

	while (n && (l[n - 1] == '\r' || l[n - 1] == ' '))
		n--;
	if (!nl || n < 3 + nl + 1 || memcmp(l, MARK, 3) || memcmp(l + 3, nonce, nl) ||
	    l[3 + nl] != ' ')
		return NULL;
	*wlen = n - (3 + nl + 1);
	return l + 3 + nl + 1;
}

/* ARG of "WHAT ARG" as a number 0..1000, else LONG_MIN. */
static long mark_value(const char *w, size_t n, const char *what)
{
	size_t k = strlen(what), i;
	long v = 0;

	if (n < k + 2 || memcmp(w, what, k) || w[k] != ' ')
		return LONG_MIN;
	for (i = k + 1; i < n; i++) {
		if (w[i] < '0' || w[i] > '9' || v > 1000)
			return LONG_MIN;
		v = v * 10 + (w[i] - '0');
	}
	return v > 1000 ? LONG_MIN : v;
}

static int mark_is(const char *w, size_t n, const char *what)
{
	size_t k = strlen(what);

	return n >= k && !memcmp(w, what, k) && (n == k || w[k] == ' ');
}

void boot_parse_console(const char *con, size_t len, const char *marks, size_t mlen,
			const char *nonce, const char *module, struct boot_result *out)
{
	const char *p = con, *e = con + len, *start = NULL, *w;
	long insmod_rc = LONG_MIN, rmmod_rc = LONG_MIN, v;
	int hang = 0, done = 0, nbad = 0, lines = 0;
	int oops = 0, warn = 0, kasan = 0, lockdep = 0, panic = 0, unknown = 0;
	char first_err[BOOT_MAX_QUOTE] = "", want[3 + BOOT_NONCE_LEN + 2 + 16];
	size_t wl;

	out->verdict = BOOT_NOT_CHECKED;
	out->type[0] = '\0';
	out->message[0] = '\0';
	if (!nonce || !*nonce || strlen(nonce) > BOOT_NONCE_LEN) {
		snprintf(out->note, sizeof(out->note), "the load step's markers are missing");
		return;
	}
	/* the guest's own boot before /init's mark is not the module's */
	snprintf(want, sizeof(want), MARK "%s " MARK_START, nonce);
	for (; p < e; ) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;

		if (memfind(p, (size_t)(le - p), want)) {
			start = nl ? nl + 1 : e;
			break;
		}
		p = nl ? nl + 1 : e;
	}
	if (!start) {
		snprintf(out->note, sizeof(out->note),
			 "the kernel did not boot to the load step");
		return;
	}
	/* everything the kernel says after it, to the end: a report after
	 * the module was unloaded (or after a line that looks like /init's)
	 * is still the module's */
	for (p = start; p < e; ) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		size_t n;

		while (le > p && (le[-1] == '\r'))
			le--;
		n = (size_t)(le - p);
		/* modpost refused undefined symbols at the build: one missing
		 * now is exported by a module the guest does not have */
		if (module && *module && memfind(p, n, module) && memfind(p, n, "Unknown symbol"))
			unknown = 1;
		if (is_bad_line(p, n) || (nbad && lines < BOOT_MAX_LINES &&
			   (memfind(p, n, "RIP: 0010") || memfind(p, n, "+0x")) &&
			   !memfind(p, n, "] ? "))) {
			if (!nbad++ || lines < BOOT_MAX_LINES) {
				msg_add(out, p, n);
				lines++;
			}
			if (memfind(p, n, "KASAN:"))
				kasan = 1;
			else if (memfind(p, n, "locking") || memfind(p, n, "lock state") ||
				 memfind(p, n, "RCU usage"))
				lockdep = 1;
			else if (memfind(p, n, "WARNING:"))
				warn = 1;
			else if (memfind(p, n, "Kernel panic"))
				panic = 1;
			else if (!memfind(p, n, "Call Trace:"))
				oops = 1;
		} else if (!first_err[0] && module && *module && memfind(p, n, module) &&
			   (memfind(p, n, "Unknown symbol") || memfind(p, n, "disagrees") ||
			    memfind(p, n, "invalid"))) {
			snprintf(first_err, sizeof(first_err), "%.*s", (int)n, p);
		}
		p = nl ? nl + 1 : e;
	}
	/* the verdict: /init's lines on its own port, carrying the nonce */
	for (p = marks, e = marks ? marks + mlen : marks; p && p < e; ) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t n = (size_t)((nl ? nl : e) - p);

		if ((w = mark_line(p, n, nonce, &wl))) {
			if ((v = mark_value(w, wl, MARK_INSMOD)) != LONG_MIN)
				insmod_rc = v;
			else if ((v = mark_value(w, wl, MARK_RMMOD)) != LONG_MIN)
				rmmod_rc = v;
			else if (mark_is(w, wl, MARK_HANG))
				hang = 1;
			else if (mark_is(w, wl, MARK_DONE))
				done = 1;
		}
		p = nl ? nl + 1 : e;
	}
	/* insmod's own complaint, from the console (it writes to /dev/console) */
	if (!first_err[0])
		for (p = start, e = con + len; p < e; ) {
			const char *nl = memchr(p, '\n', (size_t)(e - p));
			size_t n = (size_t)((nl ? nl : e) - p);

			if (memfind(p, n, "insmod:") || memfind(p, n, "rmmod:")) {
				while (n && p[n - 1] == '\r')
					n--;
				snprintf(first_err, sizeof(first_err), "%.*s", (int)n, p);
				break;
			}
			p = nl ? nl + 1 : e;
		}
	if (kasan || oops || panic || lockdep || warn) {
		out->verdict = BOOT_CONCERN;
		snprintf(out->type, sizeof(out->type), "%s",
			 kasan ? "MODULE_LOAD_KASAN" : panic ? "MODULE_LOAD_PANIC" :
			 oops ? "MODULE_LOAD_OOPS" : lockdep ? "MODULE_LOAD_LOCKDEP" :
			 "MODULE_LOAD_WARNING");
	} else if (hang || (!done && insmod_rc == LONG_MIN)) {
		out->verdict = BOOT_CONCERN;
		snprintf(out->type, sizeof(out->type), "MODULE_LOAD_HANG");
		msg_add(out, hang ? "insmod or rmmod did not return" :
			"the guest stopped answering during the load", hang ? 30 : 44);
	} else if (insmod_rc != 0 && unknown) {
		snprintf(out->note, sizeof(out->note),
			 "%s needs symbols of other modules, which the guest does not load",
			 module);
		return;
	} else if (insmod_rc != 0) {
		out->verdict = BOOT_CONCERN;
		snprintf(out->type, sizeof(out->type), "MODULE_LOAD_FAILED");
		if (first_err[0])
			msg_add(out, first_err, strlen(first_err));
		else
			msg_add(out, "insmod failed", 13);
	} else if (rmmod_rc != 0) {
		out->verdict = BOOT_CONCERN;
		snprintf(out->type, sizeof(out->type), "MODULE_UNLOAD_FAILED");
		msg_add(out, first_err[0] ? first_err : "rmmod failed",
			first_err[0] ? strlen(first_err) : 12);
	} else {
		out->verdict = BOOT_OK;
	}
	if (out->verdict == BOOT_OK)
		snprintf(out->note, sizeof(out->note),
			 "loads and unloads cleanly in QEMU (no hardware present)");
	else
		snprintf(out->note, sizeof(out->note), "%s when loading %s in QEMU",
			 type_what(out->type), module && *module ? module : "the module");
}

static void not_checked(struct boot_result *out, const char *why)
{
	out->verdict = BOOT_NOT_CHECKED;
	snprintf(out->note, sizeof(out->note), "%.*s", (int)sizeof(out->note) - 1, why);
}

/* An extra file written beside the module source (a header it includes). */
struct boot_file {
	char name[128];
	char *text;
	size_t len;
};

static int module_run(const struct boot_opts *o, const char *name,
		      const char *src, size_t len, const struct boot_file *extra,
		      size_t nextra, struct boot_result *out);

int boot_module(const struct boot_opts *o, const char *name,
		const char *src, size_t len, struct boot_result *out)
{
	return module_run(o, name, src, len, NULL, 0, out);
}

static int module_run(const struct boot_opts *o, const char *name,
		      const char *src, size_t len, const struct boot_file *extra,
		      size_t nextra, struct boot_result *out)
{
	char qemu[PATH_MAX], dir[PATH_MAX], stage[PATH_MAX], odir[PATH_MAX];
	char path[PATH_MAX], ko[PATH_MAX], cpio[PATH_MAX], marks[PATH_MAX + 8];
	char kbuild[BOOT_MAX_NAME + 16], script[2048], nonce[BOOT_NONCE_LEN + 1];
	char nonce_line[BOOT_NONCE_LEN + 2], serial[PATH_MAX + 16], err[256];
	char append[] = "console=ttyS0 panic=-1 quiet";
	const char *busybox = o->busybox ? o->busybox : BOOT_BUSYBOX;
	struct sandbox_limits lim;
	struct sandbox *sb = NULL;
	struct sbuf con;
	char *mk = NULL;
	size_t mlen = 0;
	struct stat st;
	int timeout = o->timeout > 0 ? o->timeout : BOOT_DEF_TIMEOUT;
	int wait_s, rc, slen, ret = 0;
	double t0, left;

	memset(out, 0, sizeof(*out));
	sbuf_init(&con, BOOT_MAX_CONSOLE);
	snprintf(out->module, sizeof(out->module), "%s", name ? name : "");
	if (!o->kernel || !o->headers || !o->work) {
		not_checked(out, "[boot] kernel and headers are not set");
		ret = -1;
		goto out;
	}
	if (o->qemu) {
		if ((size_t)snprintf(qemu, sizeof(qemu), "%s", o->qemu) >= sizeof(qemu) ||
		    access(qemu, X_OK)) {
			not_checked(out, "no " BOOT_QEMU " (the module is never loaded on the host)");
			ret = -1;
			goto out;
		}
	} else if (path_find(BOOT_QEMU, qemu, sizeof(qemu))) {
		not_checked(out, "no " BOOT_QEMU " (the module is never loaded on the host)");
		ret = -1;
		goto out;
	}
	if (!name || !valid_name(name)) {
		not_checked(out, "bad module name");
		ret = -1;
		goto out;
	}
	if (!src || !len || len > BOOT_MAX_SOURCE) {
		not_checked(out, "module source empty or too large");
		ret = -1;
		goto out;
	}
	if (access(busybox, R_OK)) {
		not_checked(out, "no static busybox for the initramfs");
		ret = -1;
		goto out;
	}
	if (sandbox_check(err, sizeof(err))) {
		not_checked(out, err);
		ret = -1;
		goto out;
	}
	sb = malloc(sizeof(*sb));
	if (!sb)
		goto io;
	/* three folders, each made anew: the module's (its build), the
	 * initramfs's, and QEMU's (the markers' port) */
	if (o->work[0] != '/' ||
	    (size_t)snprintf(dir, sizeof(dir), "%s/mod", o->work) >= sizeof(dir) ||
	    (size_t)snprintf(stage, sizeof(stage), "%s/initramfs", o->work) >= sizeof(stage) ||
	    (size_t)snprintf(odir, sizeof(odir), "%s/qemu", o->work) >= sizeof(odir) ||
	    (size_t)snprintf(ko, sizeof(ko), "%s/%s.ko", dir, name) >= sizeof(ko) ||
	    (size_t)snprintf(cpio, sizeof(cpio), "%s/initramfs.cpio", stage) >= sizeof(cpio) ||
	    (size_t)snprintf(marks, sizeof(marks), "%s/marks", odir) >= sizeof(marks) ||
	    (size_t)snprintf(serial, sizeof(serial), "file:%s", marks) >= sizeof(serial))
		goto io;
	if (sandbox_mkdir_owned(o->work) || fresh_dir(dir) || fresh_dir(stage) ||
	    fresh_dir(odir))
		goto io;
	snprintf(kbuild, sizeof(kbuild), "obj-m := %s.o\n", name);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.c", dir, name) >= sizeof(path) ||
	    sandbox_write_new(path, src, len, 0644))
		goto io;
	for (size_t i = 0; i < nextra; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, extra[i].name) >= sizeof(path) ||
		    sandbox_write_new(path, extra[i].text, extra[i].len, 0644))
			goto io;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/Kbuild", dir) >= sizeof(path) ||
	    sandbox_write_new(path, kbuild, strlen(kbuild), 0644))
		goto io;

	/* build: out of tree against the headers' Module.symvers, so the
	 * CRCs and vermagic match the image; the headers read-only, only
	 * the module's folder writable */
	sandbox_default_limits(&lim, (unsigned long)timeout);
	{
		char mdir[PATH_MAX + 2];
		const char *argv[] = { "make", "-s", "-C", o->headers, mdir, "modules", NULL };
		struct sbuf log;

		if ((size_t)snprintf(mdir, sizeof(mdir), "M=%s", dir) >= sizeof(mdir))
			goto io;
		t0 = sandbox_now();
		sandbox_init(sb, &lim, t0 + timeout);
		see_headers(sb, o->headers);
		sandbox_rw(sb, dir);
		sandbox_chdir(sb, dir);
		sbuf_init(&log, BOOT_MAX_BUILD_LOG);
		rc = run(sb, argv, &log);
		sbuf_release(&log);
		out->build_s = sandbox_now() - t0;
		if (rc == -2) {
			not_checked(out, "building the module against the headers timed out");
			goto out;
		}
		if (rc == -1) {
			not_checked(out, sb->why[0] ? sb->why : "the module build could not start");
			goto out;
		}
		/* the .ko itself is never opened here: cpio packs it */
		if (rc != 0 || lstat(ko, &st) || !S_ISREG(st.st_mode)) {
			not_checked(out, "the module does not build alone against the headers");
			goto out;
		}
	}
	left = timeout - out->build_s;
	if (left < 20) {
		not_checked(out, "no time left to boot after the build");
		goto out;
	}
	/* the guest waits at most a third of what is left for insmod, and
	 * as long for rmmod; booting takes the rest */
	wait_s = (int)(left / 3);
	if (wait_s > 60)
		wait_s = 60;
	slen = init_script(script, sizeof(script), name, wait_s);
	if (slen < 0 || make_nonce(nonce))
		goto io;
	snprintf(nonce_line, sizeof(nonce_line), "%s\n", nonce);
	if ((size_t)snprintf(path, sizeof(path), "%s/init", stage) >= sizeof(path) ||
	    sandbox_write_new(path, script, (size_t)slen, 0755) ||
	    (size_t)snprintf(path, sizeof(path), "%s/nonce", stage) >= sizeof(path) ||
	    sandbox_write_new(path, nonce_line, strlen(nonce_line), 0644) ||
	    make_initramfs(stage, dir, busybox, name, sandbox_now() + left, &lim))
		goto io;
	{
		const char *argv[] = { qemu, "-accel", "tcg,tb-size=256", "-m", "512",
				       "-smp", "1", "-nodefaults", "-display", "none",
				       "-serial", "stdio", "-serial", serial,
				       "-no-reboot", "-nic", "none",
				       "-kernel", o->kernel, "-initrd", cpio,
				       "-append", append, NULL };
		char *real = realpath(o->kernel, NULL);

		t0 = sandbox_now();
		sandbox_init(sb, &lim, t0 + left);
		if (real)
			sandbox_bind_at(sb, real, o->kernel, 0);
		free(real);
		sandbox_ro(sb, stage);
		sandbox_rw(sb, odir);
		sandbox_chdir(sb, odir);
		rc = run(sb, argv, &con);
		out->boot_s = sandbox_now() - t0;
	}
	if (rc == -1) {
		not_checked(out, BOOT_QEMU " did not start");
		goto out;
	}
	/* the markers' port: QEMU's file, read as a regular file only */
	if (sandbox_read_file(marks, BOOT_MAX_MARKS, 1, &mk, &mlen)) {
		mk = NULL;
		mlen = 0;
	}
	boot_parse_console(con.buf, con.len, mk, mlen, nonce, name, out);
	/* for whoever looks into the work folder: the last boot's console */
	if ((size_t)snprintf(path, sizeof(path), "%s/console.log", o->work) < sizeof(path)) {
		unlink(path);
		sandbox_write_new(path, con.buf, con.len, 0644);
	}
	/* killed by the timeout after it booted: a hang in the module */
	if (rc == -2 && out->verdict == BOOT_OK) {
		out->verdict = BOOT_CONCERN;
		snprintf(out->type, sizeof(out->type), "MODULE_LOAD_HANG");
		snprintf(out->note, sizeof(out->note), "hang when loading %s in QEMU", name);
		msg_add(out, "the guest did not power off within the timeout", 46);
	}
	if (rc == -2 && out->verdict == BOOT_NOT_CHECKED)
		not_checked(out, "the kernel did not boot within the timeout");
	goto out;
io:
	not_checked(out, "cannot prepare the work folder");
	ret = -1;
out:
	free(mk);
	free(sb);
	sbuf_release(&con);
	return ret;
}

/* ---- series: the modules a series adds or changes ----------------------- */

#define BOOT_MAX_TRACKED	256	/* .c and .h files of a series followed */
#define BOOT_MAX_TOUCHES	64	/* parts changing one file */
#define BOOT_MAX_CHANGED	32	/* changed .c files read from the tree */

/* The new file f's text (its '+' lines) into a malloc'd *out. */
static int new_file_text(const struct diff *d, const struct diff_file *f,
			 char **out, size_t *len)
{
	size_t h, l, n = 0, cap = 0;
	char *b = NULL;

	for (h = f->first_hunk; h < f->first_hunk + f->nhunks; h++) {
		const struct diff_hunk *hk = &d->hunks[h];

		for (l = hk->first_line; l < hk->first_line + hk->nlines; l++) {
			const struct diff_line *dl = &d->lines[l];

			if (dl->kind != '+')
				continue;
			if (n + dl->len + 2 > BOOT_MAX_SOURCE) {
				free(b);
				return -1;
			}
			if (n + dl->len + 2 > cap) {
				char *nb;

				cap = (n + dl->len + 2) * 2;
				nb = realloc(b, cap);
				if (!nb) {
					free(b);
					return -1;
				}
				b = nb;
			}
			memcpy(b + n, dl->text, dl->len);
			n += dl->len;
			if (!dl->no_newline)
				b[n++] = '\n';
		}
	}
	if (!b)
		b = calloc(1, 1);
	if (!b)
		return -1;
	b[n] = '\0';
	*out = b;
	*len = n;
	return 0;
}

/* Splits path into its folder (length) and base name; 0 if base is sane. */
static int split_path(const char *path, size_t *dirlen, const char **base)
{
	const char *sl = strrchr(path, '/');
	const char *b = sl ? sl + 1 : path;
	size_t i, n = strlen(b);

	*dirlen = sl ? (size_t)(sl - path) : 0;
	*base = b;
	if (!n || n >= 100 || b[0] == '.')
		return -1;
	for (i = 0; i < n; i++) {
		char ch = b[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.'))
			return -1;
	}
	return 0;
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

static int memcasefind(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n), i;

	for (i = 0; nl <= hl && i <= hl - nl; i++)
		if (!strncasecmp(h + i, n, nl))
			return 1;
	return 0;
}

/* The checks of source_is_safe() on one text. */
static int text_is_safe(const char *t, size_t len)
{
	const char *p, *e = t + len;

	/* the assembler takes its directives in any case: .INCBIN */
	if (memcasefind(t, len, "incbin") || memfind(t, len, "#embed"))
		return 0;
	for (p = t; (p = memfind(p, (size_t)(e - p), "include")); p += 7) {
		const char *q = p + 7, *end;

		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= e || (*q != '"' && *q != '<'))
			continue;
		end = memchr(q + 1, *q == '"' ? '"' : '>', (size_t)(e - q - 1));
		if (!end)
			return 0;
		if (q[1] == '/' || memfind(q, (size_t)(end - q), ".."))
			return 0;
	}
	return 1;
}

/*
 * Mail is hostile and the module is built on the host, then its console
 * output is quoted in a public review: a source that could pull a host
 * file into the module (.incbin, an #include by absolute path or with
 * "..") is not built at all.  The checks run on the text as written and
 * on what the compiler makes of it (ctext.h): splices and comments gone,
 * string literals decoded and joined, as an asm() statement hands them
 * to the assembler (".in" "cbin" is .incbin).
 */
static int source_is_safe(const char *t, size_t len)
{
	struct ctext c;
	int safe;

	if (ctext_read(&c, t, len))
		return 0;
	safe = text_is_safe(t, len) && text_is_safe(c.code, c.ncode) &&
	       !memcasefind(c.lit, c.nlit, "incbin");
	ctext_release(&c);
	return safe;
}

/* One part's diff of a file: d[part].files[file]. */
struct touch {
	size_t part, file;
};

/* A .c or .h file of the series, followed through its parts. */
struct tracked {
	char path[BOOT_PATH_MAX];	/* after the series */
	char orig[BOOT_PATH_MAX];	/* in the tree; "" when the series adds it */
	int dead;			/* deleted, copied over, binary, or
					 * changed by too many parts */
	size_t nt;
	struct touch t[BOOT_MAX_TOUCHES];	/* in part order */
};

struct series {
	const struct boot_opts *o;
	const struct boot_patch *p;
	struct diff *d;			/* one per part */
	struct tracked *tf;		/* BOOT_MAX_TRACKED */
	size_t ntf;
};

static int is_source(const char *path)
{
	return path && (ends_with(path, ".c") || ends_with(path, ".h"));
}

static struct tracked *find_live(struct series *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->ntf; i++)
		if (!s->tf[i].dead && !strcmp(s->tf[i].path, path))
			return &s->tf[i];
	return NULL;
}

static void kill_live(struct series *s, const char *path)
{
	struct tracked *t = path ? find_live(s, path) : NULL;

	if (t)
		t->dead = 1;
}

static struct tracked *track_new(struct series *s, const char *path, const char *orig)
{
	struct tracked *t;

	if (!path || !orig || s->ntf == BOOT_MAX_TRACKED)
		return NULL;
	t = &s->tf[s->ntf++];
	snprintf(t->path, sizeof(t->path), "%s", path);
	snprintf(t->orig, sizeof(t->orig), "%s", orig);
	return t;
}

/* Follows d[part].files[file] if it is a .c or .h file with plain paths. */
static void track(struct series *s, size_t part, size_t file)
{
	const struct diff_file *f = &s->d[part].files[file];
	const char *op = f->old_path, *np = f->new_path;
	struct tracked *t;

	if (!is_source(op) && !is_source(np))
		return;
	if (f->flags & DIFF_NEW) {
		if (!boot_tree_path_ok(np))
			return;
		kill_live(s, np);
		t = track_new(s, np, "");
	} else if (f->flags & DIFF_DELETED) {
		kill_live(s, op);
		return;
	} else if ((f->flags & DIFF_COPIED) || !boot_tree_path_ok(op) || !boot_tree_path_ok(np)) {
		/* copies are not followed; nor is what mail names oddly */
		kill_live(s, np);
		if (!(f->flags & DIFF_COPIED))
			kill_live(s, op);
		return;
	} else {
		t = find_live(s, op);
		if (strcmp(np, op)) {
			struct tracked *x = find_live(s, np);

			if (x && x != t)
				x->dead = 1;
		}
		if (!t)
			t = track_new(s, np, op);
		if (t)
			snprintf(t->path, sizeof(t->path), "%s", np);
	}
	if (!t)
		return;
	if ((f->flags & DIFF_BINARY) || t->nt == BOOT_MAX_TOUCHES) {
		t->dead = 1;
		return;
	}
	t->t[t->nt].part = part;
	t->t[t->nt].file = file;
	t->nt++;
}

/* Non-zero when some part changes t's lines (not only its mode or name). */
static int has_hunks(const struct series *s, const struct tracked *t)
{
	size_t i;

	for (i = 0; i < t->nt; i++)
		if (s->d[t->t[i].part].files[t->t[i].file].nhunks)
			return 1;
	return 0;
}

/* Non-zero when the series adds, changes, renames or deletes path. */
static int series_touches(const struct series *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->ntf; i++)
		if (!strcmp(s->tf[i].path, path) || !strcmp(s->tf[i].orig, path))
			return 1;
	return 0;
}

/* A tracked file's text after the series, or why there is none. */
struct mat {
	char *text;
	size_t len;
	char why[BOOT_NOTE_MAX];	/* "" when nothing worth saying */
	int orig_module;		/* the tree's copy looks like a module,
					 * or there is none to tell */
};

static int materialize(const struct series *s, const struct tracked *t, struct mat *m)
{
	char *cur = NULL, *next;
	size_t len = 0, nlen, i = 0;
	int rc;

	memset(m, 0, sizeof(*m));
	if (!t->nt)
		return -1;
	if (!t->orig[0]) {
		const struct touch *x = &t->t[0];

		if (new_file_text(&s->d[x->part], &s->d[x->part].files[x->file], &cur, &len))
			return -1;
		i = 1;
	} else {
		if (!s->o->tree || !*s->o->tree)
			return -1;
		if (boot_tree_read(s->o->tree, t->orig, BOOT_MAX_SOURCE, &cur, &len)) {
			snprintf(m->why, sizeof(m->why),
				 "the series changes %.120s, which [build] tree does not have",
				 t->orig);
			m->orig_module = 1;
			return -1;
		}
		m->orig_module = boot_is_module_source(cur, len);
	}
	for (; i < t->nt; i++) {
		const struct touch *x = &t->t[i];

		rc = boot_apply(cur, len, &s->d[x->part], x->file, &next, &nlen);
		free(cur);
		cur = NULL;
		if (rc > 0)
			snprintf(m->why, sizeof(m->why),
				 "part %d's change to %.120s does not apply%s (hunk %d)",
				 s->p[x->part].part, t->path, t->orig[0] ? " to [build] tree" : "",
				 rc);
		if (rc)
			return -1;
		cur = next;
		len = nlen;
	}
	m->text = cur;
	m->len = len;
	return 0;
}

/* Non-zero when l[0, n) holds the word w (blank separated). */
static int has_word(const char *l, size_t n, const char *w)
{
	size_t wl = strlen(w), i = 0;

	while (i < n) {
		size_t j;

		while (i < n && (l[i] == ' ' || l[i] == '\t'))
			i++;
		j = i;
		while (j < n && l[j] != ' ' && l[j] != '\t')
			j++;
		if (j - i == wl && !memcmp(l + i, w, wl))
			return 1;
		i = j;
	}
	return 0;
}

/* Non-zero when the .config text c[0, n) has the line "sym=y". */
static int config_is_y(const char *c, size_t n, const char *sym)
{
	char want[128];
	const char *p = c, *e = c + n;
	size_t wl;

	if ((size_t)snprintf(want, sizeof(want), "%s=y", sym) >= sizeof(want))
		return 0;
	wl = strlen(want);
	while ((p = memfind(p, (size_t)(e - p), want))) {
		if ((p == c || p[-1] == '\n') && (p + wl == e || p[wl] == '\n'))
			return 1;
		p += wl;
	}
	return 0;
}

/*
 * Non-zero when the [boot] kernel has the driver at path (folder dl, base
 * name base) built in: a line "obj-$(CONFIG_FOO) += ... base.o ..." of the
 * tree's Makefile beside it with CONFIG_FOO=y in the headers' .config.
 * Loading a second copy would report the first one's collisions (sysfs
 * names, registered drivers) as the patch's.
 */
static int built_in(const struct boot_opts *o, const char *path, size_t dl, const char *base)
{
	char obj[128], cpath[PATH_MAX], sym[96];
	char *mk = NULL, *cfg = NULL;
	size_t mlen, clen = 0, i, bl = strlen(base);
	const char *p, *e;
	int dfd, fd, ret = 0;

	if (!o->tree || !*o->tree || !o->headers || bl < 3 ||
	    (size_t)snprintf(obj, sizeof(obj), "%.*s.o", (int)(bl - 2), base) >= sizeof(obj) ||
	    (size_t)snprintf(cpath, sizeof(cpath), "%s/.config", o->headers) >= sizeof(cpath))
		return 0;
	dfd = boot_tree_open_dir(o->tree, path, dl);
	if (dfd < 0)
		return 0;
	if (boot_read_at(dfd, "Makefile", BOOT_MAX_MAKEFILE, &mk, &mlen) &&
	    boot_read_at(dfd, "Kbuild", BOOT_MAX_MAKEFILE, &mk, &mlen))
		goto out;
	fd = open(cpath, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto out;
	if (boot_read_fd(fd, BOOT_MAX_CONFIG, &cfg, &clen)) {
		close(fd);
		goto out;
	}
	close(fd);
	/* continuation lines joined */
	for (i = 0; i + 1 < mlen; i++)
		if (mk[i] == '\\' && mk[i + 1] == '\n')
			mk[i] = mk[i + 1] = ' ';
	for (p = mk, e = mk + mlen; p < e && !ret; ) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e, *q = p, *s;
		size_t sl;

		p = nl ? nl + 1 : e;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(le - q) < 13 || memcmp(q, "obj-$(CONFIG_", 13))
			continue;
		s = q + 6;
		for (q = s; q < le && ((*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
				       *q == '_'); q++)
			;
		sl = (size_t)(q - s);
		if (q >= le || *q != ')' || sl >= sizeof(sym))
			continue;
		memcpy(sym, s, sl);
		sym[sl] = '\0';
		q++;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if (le - q < 2 || (memcmp(q, "+=", 2) && memcmp(q, ":=", 2)))
			continue;
		q += 2;
		if (has_word(q, (size_t)(le - q), obj) && config_is_y(cfg, clen, sym))
			ret = 1;
	}
out:
	free(mk);
	free(cfg);
	close(dfd);
	return ret;
}

/*
 * The next line of t[*pos, len) that is #include "name.h" with name a
 * file of the same folder (no '/'): 1 with name filled, 0 at the end.
 */
static int next_local_include(const char *t, size_t len, size_t *pos, char *name, size_t n)
{
	while (*pos < len) {
		const char *l = t + *pos, *e = t + len;
		const char *nl = memchr(l, '\n', (size_t)(e - l));
		const char *le = nl ? nl : e, *q = l, *end;

		*pos = nl ? (size_t)(nl - t) + 1 : len;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= le || *q++ != '#')
			continue;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(le - q) < 8 || memcmp(q, "include", 7))
			continue;
		q += 7;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= le || *q++ != '"')
			continue;
		end = memchr(q, '"', (size_t)(le - q));
		if (!end || end == q || (size_t)(end - q) >= n || memchr(q, '/', (size_t)(end - q)))
			continue;
		memcpy(name, q, (size_t)(end - q));
		name[end - q] = '\0';
		{
			size_t dl;
			const char *b;

			if (split_path(name, &dl, &b) || !ends_with(name, ".h"))
				continue;
		}
		return 1;
	}
	return 0;
}

static int has_extra(const struct boot_file *x, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(x[i].name, name))
			return 1;
	return 0;
}

/*
 * The headers written beside the module mod (text[0, len)): the series'
 * new and changed .h files of its folder, then the tree's headers of the
 * folder that it, or a header taken, includes as "foo.h" (a header the
 * series touches is never taken unchanged from the tree).  Returns how
 * many are in x[]; their texts are malloc'd.
 */
static size_t gather_headers(const struct series *s, const struct tracked *mod,
			     const char *text, size_t len, struct boot_file *x)
{
	const char *mb;
	size_t ne = 0, i, k, dl;
	int dfd;

	if (split_path(mod->path, &dl, &mb))
		return 0;
	for (i = 0; i < s->ntf && ne < BOOT_MAX_HEADERS; i++) {
		const struct tracked *t = &s->tf[i];
		const char *hb;
		size_t hdl;
		struct mat m;

		if (t->dead || !ends_with(t->path, ".h") || split_path(t->path, &hdl, &hb) ||
		    hdl != dl || strncmp(t->path, mod->path, dl) || has_extra(x, ne, hb))
			continue;
		if (materialize(s, t, &m))
			continue;
		if (m.len > BOOT_MAX_HEADER || !source_is_safe(m.text, m.len)) {
			free(m.text);
			continue;
		}
		snprintf(x[ne].name, sizeof(x[ne].name), "%s", hb);
		x[ne].text = m.text;
		x[ne].len = m.len;
		ne++;
	}
	if (!s->o->tree || !*s->o->tree)
		return ne;
	dfd = boot_tree_open_dir(s->o->tree, mod->path, dl);
	if (dfd < 0)
		return ne;
	/* k = 0: the module; k > 0: header k - 1 (the list grows meanwhile) */
	for (k = 0; k <= ne && ne < BOOT_MAX_HEADERS; k++) {
		const char *t = k ? x[k - 1].text : text;
		size_t tl = k ? x[k - 1].len : len, pos = 0;
		char name[sizeof(x[0].name)], path[BOOT_PATH_MAX];

		while (ne < BOOT_MAX_HEADERS && next_local_include(t, tl, &pos, name, sizeof(name))) {
			if (has_extra(x, ne, name) ||
			    (size_t)snprintf(path, sizeof(path), "%.*s%s%s", (int)dl, mod->path,
					     dl ? "/" : "", name) >= sizeof(path) ||
			    series_touches(s, path))
				continue;
			if (boot_read_at(dfd, name, BOOT_MAX_HEADER, &x[ne].text, &x[ne].len))
				continue;
			snprintf(x[ne].name, sizeof(x[ne].name), "%s", name);
			ne++;
		}
	}
	close(dfd);
	return ne;
}

/*
 * A changed driver that misbehaves is the series' fault only when the
 * tree's own copy does not misbehave the same way (a driver that needs
 * hardware or parameters fails its init with or without the series):
 * boots the tree's copy, with the tree's headers, and when it ends with
 * the same finding type turns r into "not checked" saying so.  One more
 * boot, only for a changed driver with a concern.
 */
static void compare_without_series(const struct series *s, const struct tracked *t,
				   const char *name, struct boot_result *r)
{
	struct series bs = { 0 };
	struct tracked bt;
	struct boot_file x[BOOT_MAX_HEADERS];
	struct boot_result *b;
	char *text = NULL;
	size_t len = 0, ne, j;

	if (r->verdict != BOOT_CONCERN || !t->orig[0])
		return;
	if (boot_tree_read(s->o->tree, t->orig, BOOT_MAX_SOURCE, &text, &len))
		return;
	b = calloc(1, sizeof(*b));
	if (!b) {
		free(text);
		return;
	}
	bs.o = s->o;		/* no part: the tree's headers only */
	memset(&bt, 0, sizeof(bt));
	snprintf(bt.path, sizeof(bt.path), "%s", t->orig);
	ne = gather_headers(&bs, &bt, text, len, x);
	module_run(s->o, name, text, len, x, ne, b);
	for (j = 0; j < ne; j++)
		free(x[j].text);
	free(text);
	r->build_s += b->build_s;
	r->boot_s += b->boot_s;
	if (b->verdict == BOOT_CONCERN && !strcmp(b->type, r->type)) {
		snprintf(r->note, sizeof(r->note),
			 "%.48s: %.40s in QEMU without the series too (it may need hardware or parameters)",
			 name, type_what(r->type));
		r->verdict = BOOT_NOT_CHECKED;
		r->type[0] = '\0';
	}
	free(b);
}

int boot_series(const struct boot_opts *o, const struct boot_patch *p, size_t n,
		struct boot_series_result *out)
{
	struct series s = { 0 };
	struct boot_file extra[BOOT_MAX_HEADERS];
	char why[BOOT_NOTE_MAX] = "";	/* the first reason a driver was skipped */
	size_t i, k, pass, nchanged = 0;
	int ret = -1, unsafe = 0, changed = 0;
	int tree = o->tree && *o->tree;

	memset(out, 0, sizeof(*out));
	out->verdict = BOOT_NOT_CHECKED;
	s.o = o;
	s.p = p;
	s.d = calloc(n ? n : 1, sizeof(*s.d));
	s.tf = calloc(BOOT_MAX_TRACKED, sizeof(*s.tf));
	if (!s.d || !s.tf)
		goto out;
	/* the .c and .h files of the whole series, through renames */
	for (i = 0; i < n; i++) {
		diff_parse(p[i].text, p[i].len, NULL, &s.d[i]);
		for (k = 0; k < s.d[i].nfiles; k++)
			track(&s, i, k);
	}
	/* the modules the series adds (pass 0), then the ones it changes */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < s.ntf && out->n < BOOT_MAX_MODULES; i++) {
			const struct tracked *t = &s.tf[i];
			struct boot_result *r = &out->r[out->n];
			char name[BOOT_MAX_NAME];
			const char *base;
			size_t dl, ne, j, bl;
			struct mat m;
			int rc;

			if (t->dead || !has_hunks(&s, t) || !ends_with(t->path, ".c") ||
			    (pass == 0) != !t->orig[0] || split_path(t->path, &dl, &base))
				continue;
			bl = strlen(base) - 2;
			if (bl >= sizeof(name))
				continue;
			for (j = 0; j < bl; j++)
				name[j] = base[j] == '-' ? '_' : base[j];
			name[bl] = '\0';
			if (!valid_name(name))
				continue;
			if (pass == 1) {
				changed = 1;
				if (!tree || nchanged == BOOT_MAX_CHANGED)
					continue;
				nchanged++;
			}
			if (materialize(&s, t, &m)) {
				/* a change that does not apply matters only for a driver */
				if (!why[0] && m.why[0] && (!t->orig[0] || m.orig_module))
					snprintf(why, sizeof(why), "%s", m.why);
				continue;
			}
			if (!boot_is_module_source(m.text, m.len)) {
				free(m.text);
				continue;
			}
			if (!source_is_safe(m.text, m.len)) {
				unsafe = 1;
				free(m.text);
				continue;
			}
			if (built_in(o, t->path, dl, base)) {
				if (!why[0])
					snprintf(why, sizeof(why),
						 "%.120s is built into the [boot] kernel, not a module",
						 t->path);
				free(m.text);
				continue;
			}
			ne = gather_headers(&s, t, m.text, m.len, extra);
			rc = module_run(o, name, m.text, m.len, extra, ne, r);
			free(m.text);
			for (j = 0; j < ne; j++)
				free(extra[j].text);
			if (pass == 1)
				compare_without_series(&s, t, name, r);
			if (rc && !out->n && r->verdict == BOOT_NOT_CHECKED &&
			    strstr(r->note, BOOT_QEMU)) {
				/* no QEMU: say so, try nothing else */
				snprintf(out->note, sizeof(out->note), "%s", r->note);
				out->n++;
				ret = 0;
				goto out;
			}
			out->part[out->n] = p[t->t[t->nt - 1].part].part;
			snprintf(out->file[out->n], sizeof(out->file[out->n]), "%s", t->path);
			out->build_s += r->build_s;
			out->boot_s += r->boot_s;
			if (r->verdict == BOOT_CONCERN)
				out->verdict = BOOT_CONCERN;
			else if (r->verdict == BOOT_OK && out->verdict == BOOT_NOT_CHECKED)
				out->verdict = BOOT_OK;
			out->n++;
		}
	}
	if (!out->n && unsafe)
		snprintf(out->note, sizeof(out->note),
			 "the module includes files outside its folder (.incbin, absolute or ../ paths)");
	else if (!out->n && why[0])
		snprintf(out->note, sizeof(out->note), "%s", why);
	else if (!out->n && changed && !tree)
		snprintf(out->note, sizeof(out->note),
			 "the series adds no module, and [build] tree is not set to read the "
			 "drivers it changes");
	else if (!out->n && changed)
		snprintf(out->note, sizeof(out->note),
			 "the series adds no module and changes none that builds alone");
	else if (!out->n)
		snprintf(out->note, sizeof(out->note),
			 "the series adds no module that builds alone");
	else if (out->verdict == BOOT_OK)
		snprintf(out->note, sizeof(out->note), "%s", out->r[0].note);
	else if (out->verdict == BOOT_CONCERN) {
		for (i = 0; i < out->n; i++)
			if (out->r[i].verdict == BOOT_CONCERN)
				break;
		snprintf(out->note, sizeof(out->note), "%s", out->r[i].note);
	} else
		snprintf(out->note, sizeof(out->note), "%s", out->r[0].note);
	ret = 0;
out:
	for (i = 0; s.d && i < n; i++)
		diff_release(&s.d[i]);
	free(s.d);
	free(s.tf);
	return ret;
}

void boot_result_summary(const struct boot_result *r, char *buf, size_t n)
{
	const char *what = type_what(r->type), *p = r->message;
	size_t len;
	int nl = 0, rip = 0;

	len = (size_t)snprintf(buf, n, "%s when loading %s in QEMU (no hardware present)",
			       what, r->module);
	while (*p && len < n) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		const char *t = p;

		/* "[    4.907078] " */
		if (l && *t == '[') {
			const char *c = memchr(t, ']', l);

			if (c) {
				c++;
				while (c < p + l && *c == ' ')
					c++;
				l -= (size_t)(c - t);
				t = c;
			}
		}
		if (nl < 2 || (!rip && l > 9 && !strncmp(t, "RIP: 0010", 9))) {
			if (!strncmp(t, "RIP: 0010", 9))
				rip = 1;
			if (l && strncmp(t, "Call Trace:", 11) && (nl < 2 || rip)) {
				len += (size_t)snprintf(buf + len, n - len, "%s%.*s",
							nl ? " | " : ": ", (int)l, t);
				nl++;
			}
		}
		if (!e)
			break;
		p = e + 1;
	}
}

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
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "../checker/diff.h"
#include "../checker/banned.h"

#define BOOT_QEMU		"qemu-system-x86_64"
#define BOOT_BUSYBOX		"/bin/busybox"
#define BOOT_MAX_BUSYBOX	(8u << 20)	/* bytes of the busybox binary */
#define BOOT_MAX_KO		(16u << 20)	/* bytes of a built module */
#define BOOT_DEF_TIMEOUT	180
#define BOOT_MAX_LINES		40		/* console lines in a message */

/* Markers the guest prints; the console before LOAD-START is the boot's. */
#define MARK_START	"RB-LOAD-START"
#define MARK_INSMOD	"RB-INSMOD-RC="
#define MARK_RMMOD	"RB-RMMOD-RC="
#define MARK_HANG	"RB-HANG"
#define MARK_DONE	"RB-DONE"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void boot_opts_from_config(struct boot_opts *o, const struct config *cfg)
{
	memset(o, 0, sizeof(*o));
	o->kernel = cfg->boot_kernel;
	o->headers = cfg->boot_headers;
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
	return 0;
}

/*
 * Runs argv (no shell) in dir with stdout and stderr to the file out, in
 * its own process group, killed after timeout seconds.  Returns the exit
 * status (0..255), 256 + signal when killed by one, -2 on a timeout, or
 * -1 when it could not start.
 */
static int run(char *const argv[], const char *dir, const char *out, int timeout)
{
	double end = now_s() + timeout;
	pid_t pid;
	int fd, st;

	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -1;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		if (nul < 0 || dup2(nul, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		if (dir && chdir(dir))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd);
	setpgid(pid, pid);
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (now_s() > end) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			return -2;
		}
		usleep(50 * 1000);
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 256 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static int write_file(const char *path, const char *buf, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < len) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	return close(fd);
}

/* Reads at most max bytes of path into a malloc'd *buf (NUL-terminated). */
static int read_file(const char *path, size_t max, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *b = NULL;
	size_t n = 0;
	int ret = -1;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -1;
	b = malloc(max + 1);
	if (!b)
		goto out;
	while (n < max) {
		ssize_t r = read(fd, b + n, max - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto out;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	b = NULL;
	ret = 0;
out:
	free(b);
	close(fd);
	return ret;
}

/* Removes the regular files of dir (the module folder holds no more). */
static void empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char p[PATH_MAX];

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat sb;

		if (de->d_name[0] == '.' ||
		    (size_t)snprintf(p, sizeof(p), "%s/%s", dir, de->d_name) >= sizeof(p))
			continue;
		if (!lstat(p, &sb) && S_ISREG(sb.st_mode))
			unlink(p);
	}
	closedir(d);
}

/* newc cpio (the kernel's initramfs format, Documentation/driver-api/
 * early-userspace/buffer-format.rst): header, name, pad to 4, data, pad. */
struct cpio {
	FILE *f;
	unsigned ino;
	int err;
};

static void cpio_pad(struct cpio *c)
{
	long pos = ftell(c->f);

	while (pos >= 0 && pos % 4) {
		if (fputc(0, c->f) == EOF)
			c->err = 1;
		pos++;
	}
}

static void cpio_add(struct cpio *c, const char *name, unsigned mode,
		     const char *data, size_t len)
{
	size_t nlen = strlen(name) + 1;

	if (fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		    ++c->ino, mode, 0u, 0u, (mode & 0040000) ? 2u : 1u, 0u, len,
		    0u, 0u, 0u, 0u, nlen, 0u) < 0)
		c->err = 1;
	if (fwrite(name, 1, nlen, c->f) != nlen)
		c->err = 1;
	cpio_pad(c);
	if (len && fwrite(data, 1, len, c->f) != len)
		c->err = 1;
	cpio_pad(c);
}

/*
 * The guest's /init: load in a subshell (an init that oopses kills insmod
 * and leaves the module "Loading"), wait at most wait_s for it, unload,
 * print the markers, power off.  PID 1 never exits before poweroff.
 */
static int init_script(char *buf, size_t n, const char *mod, int wait_s)
{
	int w = snprintf(buf, n,
		"#!/bin/busybox sh\n"
		"/bin/busybox --install -s /bin\n"
		"mount -t proc proc /proc\n"
		"mount -t sysfs sys /sys\n"
		"mount -t devtmpfs dev /dev\n"
		"echo 8 > /proc/sys/kernel/printk\n"
		"echo " MARK_START "\n"
		"( insmod /m/%s.ko; echo \"" MARK_INSMOD "$?\"; : > /tmp/insmod.done ) &\n"
		"i=0\n"
		"while [ ! -e /tmp/insmod.done ] && [ $i -lt %d ]; do sleep 1; i=$((i+1)); done\n"
		"if [ -e /tmp/insmod.done ]; then\n"
		"  ( rmmod %s; echo \"" MARK_RMMOD "$?\"; : > /tmp/rmmod.done ) &\n"
		"  i=0\n"
		"  while [ ! -e /tmp/rmmod.done ] && [ $i -lt %d ]; do sleep 1; i=$((i+1)); done\n"
		"  [ -e /tmp/rmmod.done ] || echo \"" MARK_HANG " rmmod\"\n"
		"else\n"
		"  echo \"" MARK_HANG " insmod\"\n"
		"fi\n"
		"sleep 1\n"
		"echo " MARK_DONE "\n"
		"poweroff -f\n"
		"while :; do sleep 1; done\n",
		mod, wait_s, mod, wait_s);

	return w < 0 || (size_t)w >= n ? -1 : w;
}

static int make_initramfs(const char *path, const char *busybox, const char *ko,
			  const char *mod, int wait_s)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "m", "tmp" };
	char script[2048], name[PATH_MAX];
	char *bb = NULL, *k = NULL;
	size_t bblen, klen, i;
	struct cpio c = { 0 };
	int len, ret = -1;

	len = init_script(script, sizeof(script), mod, wait_s);
	if (len < 0)
		return -1;
	if (read_file(busybox, BOOT_MAX_BUSYBOX, &bb, &bblen) || !bblen)
		goto out;
	if (read_file(ko, BOOT_MAX_KO, &k, &klen) || !klen)
		goto out;
	c.f = fopen(path, "wbe");
	if (!c.f)
		goto out;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		cpio_add(&c, dirs[i], 0040755, NULL, 0);
	cpio_add(&c, "bin/busybox", 0100755, bb, bblen);
	cpio_add(&c, "init", 0100755, script, (size_t)len);
	if ((size_t)snprintf(name, sizeof(name), "m/%s.ko", mod) >= sizeof(name))
		c.err = 1;
	cpio_add(&c, name, 0100644, k, klen);
	cpio_add(&c, "TRAILER!!!", 0, NULL, 0);
	if (fclose(c.f))
		c.err = 1;
	ret = c.err ? -1 : 0;
out:
	free(bb);
	free(k);
	return ret;
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
	"BUG:", "Oops:", "WARNING:", "KASAN:", "UBSAN:", "general protection fault",
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
	for (i = 0; i < n && have + 2 < sizeof(out->message); i++) {
		unsigned char ch = (unsigned char)l[i];

		out->message[have++] = (ch < 0x20 && ch != '\t') || ch == 0x7f ? '?' : (char)ch;
	}
	out->message[have++] = '\n';
	out->message[have] = '\0';
}

static long marker_value(const char *l, size_t n, const char *mark)
{
	const char *p = memfind(l, n, mark);
	char num[16];
	size_t k = 0;
	long v;
	char *end;

	if (!p)
		return LONG_MIN;
	p += strlen(mark);
	while (p < l + n && k + 1 < sizeof(num) && *p >= '0' && *p <= '9')
		num[k++] = *p++;
	num[k] = '\0';
	if (!k)
		return LONG_MIN;
	errno = 0;
	v = strtol(num, &end, 10);
	if (errno || *end || v < 0 || v > 1000)
		return LONG_MIN;
	return v;
}

void boot_parse_console(const char *con, size_t len, const char *module,
			struct boot_result *out)
{
	const char *p = con, *e = con + len, *start = NULL;
	long insmod_rc = LONG_MIN, rmmod_rc = LONG_MIN;
	int hang = 0, done = 0, nbad = 0, lines = 0;
	int oops = 0, warn = 0, kasan = 0, lockdep = 0, panic = 0;
	char first_err[160] = "";

	out->verdict = BOOT_NOT_CHECKED;
	out->type[0] = '\0';
	out->message[0] = '\0';
	/* the guest's own boot before the marker is not the module's */
	for (; p < e; ) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;

		if (memfind(p, (size_t)(le - p), MARK_START)) {
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
	for (p = start; p < e; ) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		size_t n;
		long v;

		while (le > p && (le[-1] == '\r'))
			le--;
		n = (size_t)(le - p);
		if ((v = marker_value(p, n, MARK_INSMOD)) != LONG_MIN) {
			insmod_rc = v;
		} else if ((v = marker_value(p, n, MARK_RMMOD)) != LONG_MIN) {
			rmmod_rc = v;
		} else if (memfind(p, n, MARK_HANG)) {
			hang = 1;
		} else if (memfind(p, n, MARK_DONE)) {
			done = 1;
			break;
		} else if (is_bad_line(p, n) || (nbad && lines < BOOT_MAX_LINES &&
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
		} else if (!first_err[0] && memfind(p, n, "insmod:")) {
			snprintf(first_err, sizeof(first_err), "%.*s", (int)(n > 150 ? 150 : n), p);
		} else if (!first_err[0] && module && *module && memfind(p, n, module) &&
			   (memfind(p, n, "Unknown symbol") || memfind(p, n, "disagrees") ||
			    memfind(p, n, "invalid"))) {
			snprintf(first_err, sizeof(first_err), "%.*s", (int)(n > 150 ? 150 : n), p);
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
	snprintf(out->note, sizeof(out->note), "%s", why);
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
	char qemu[PATH_MAX], dir[PATH_MAX], path[PATH_MAX], ko[PATH_MAX];
	char cpio[PATH_MAX], con[PATH_MAX], kbuild[BOOT_MAX_NAME + 16];
	char append[] = "console=ttyS0 panic=-1 quiet";
	char *text = NULL;
	size_t tlen;
	int timeout = o->timeout > 0 ? o->timeout : BOOT_DEF_TIMEOUT;
	int wait_s, rc;
	double t0, left;

	memset(out, 0, sizeof(*out));
	snprintf(out->module, sizeof(out->module), "%s", name ? name : "");
	if (!o->kernel || !o->headers || !o->work) {
		not_checked(out, "[boot] kernel and headers are not set");
		return -1;
	}
	if (o->qemu) {
		if ((size_t)snprintf(qemu, sizeof(qemu), "%s", o->qemu) >= sizeof(qemu) ||
		    access(qemu, X_OK)) {
			not_checked(out, "no " BOOT_QEMU " (the module is never loaded on the host)");
			return -1;
		}
	} else if (path_find(BOOT_QEMU, qemu, sizeof(qemu))) {
		not_checked(out, "no " BOOT_QEMU " (the module is never loaded on the host)");
		return -1;
	}
	if (!name || !valid_name(name)) {
		not_checked(out, "bad module name");
		return -1;
	}
	if (!src || !len || len > BOOT_MAX_SOURCE) {
		not_checked(out, "module source empty or too large");
		return -1;
	}
	if (access(o->busybox ? o->busybox : BOOT_BUSYBOX, R_OK)) {
		not_checked(out, "no static busybox for the initramfs");
		return -1;
	}
	if (mkdir(o->work, 0700) && errno != EEXIST)
		goto io;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/mod", o->work) >= sizeof(dir))
		goto io;
	if (mkdir(dir, 0700) && errno != EEXIST)
		goto io;
	empty_dir(dir);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.c", dir, name) >= sizeof(path) ||
	    (size_t)snprintf(ko, sizeof(ko), "%s/%s.ko", dir, name) >= sizeof(ko) ||
	    (size_t)snprintf(cpio, sizeof(cpio), "%s/initramfs.cpio", dir) >= sizeof(cpio) ||
	    (size_t)snprintf(con, sizeof(con), "%s/console.log", dir) >= sizeof(con))
		goto io;
	unlink(ko);
	snprintf(kbuild, sizeof(kbuild), "obj-m := %s.o\n", name);
	if (write_file(path, src, len, 0600))
		goto io;
	for (size_t i = 0; i < nextra; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, extra[i].name) >= sizeof(path) ||
		    write_file(path, extra[i].text, extra[i].len, 0600))
			goto io;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/Kbuild", dir) >= sizeof(path) ||
	    write_file(path, kbuild, strlen(kbuild), 0600))
		goto io;

	/* build: out of tree against the headers' Module.symvers, so the
	 * CRCs and vermagic match the image */
	{
		char mdir[PATH_MAX + 2], log[PATH_MAX];
		char *argv[] = { "make", "-s", "-C", (char *)o->headers, mdir, "modules", NULL };

		if ((size_t)snprintf(mdir, sizeof(mdir), "M=%s", dir) >= sizeof(mdir) ||
		    (size_t)snprintf(log, sizeof(log), "%s/build.log", dir) >= sizeof(log))
			goto io;
		t0 = now_s();
		rc = run(argv, NULL, log, timeout);
		out->build_s = now_s() - t0;
		if (rc == -2) {
			not_checked(out, "building the module against the headers timed out");
			return 0;
		}
		if (rc != 0 || access(ko, R_OK)) {
			not_checked(out, "the module does not build alone against the headers");
			return 0;
		}
	}
	left = timeout - out->build_s;
	if (left < 20) {
		not_checked(out, "no time left to boot after the build");
		return 0;
	}
	/* the guest waits at most a third of what is left for insmod, and
	 * as long for rmmod; booting takes the rest */
	wait_s = (int)(left / 3);
	if (wait_s > 60)
		wait_s = 60;
	if (make_initramfs(cpio, o->busybox ? o->busybox : BOOT_BUSYBOX, ko, name, wait_s))
		goto io;
	{
		char *argv[] = { qemu, "-accel", "tcg", "-m", "512", "-smp", "1",
				 "-nographic", "-no-reboot", "-nic", "none",
				 "-kernel", (char *)o->kernel, "-initrd", cpio,
				 "-append", append, NULL };

		t0 = now_s();
		rc = run(argv, NULL, con, (int)left);
		out->boot_s = now_s() - t0;
	}
	if (rc == -1) {
		not_checked(out, BOOT_QEMU " did not start");
		return 0;
	}
	if (read_file(con, BOOT_MAX_CONSOLE, &text, &tlen))
		goto io;
	boot_parse_console(text, tlen, name, out);
	free(text);
	/* killed by the timeout after it booted: a hang in the module */
	if (rc == -2 && out->verdict == BOOT_OK) {
		out->verdict = BOOT_CONCERN;
		snprintf(out->type, sizeof(out->type), "MODULE_LOAD_HANG");
		snprintf(out->note, sizeof(out->note), "hang when loading %s in QEMU", name);
		msg_add(out, "the guest did not power off within the timeout", 46);
	}
	if (rc == -2 && out->verdict == BOOT_NOT_CHECKED)
		not_checked(out, "the kernel did not boot within the timeout");
	return 0;
io:
	not_checked(out, "cannot prepare the work folder");
	return -1;
}

/* ---- series: the modules a series adds ---------------------------------- */

#define BOOT_MAX_HEADERS	16	/* new .h files written beside a module */

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

/*
 * Mail is hostile and the module is built on the host, then its console
 * output is quoted in a public review: a source that could pull a host
 * file into the module (.incbin, an #include by absolute path or with
 * "..") is not built at all.
 */
static int source_is_safe(const char *t, size_t len)
{
	const char *p, *e = t + len;

	if (memfind(t, len, "incbin") || memfind(t, len, "#embed"))
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

struct new_file {
	int part;
	char *path;		/* borrowed from the diff */
	char *text;		/* owned */
	size_t len;
};

int boot_series(const struct boot_opts *o, const struct boot_patch *p, size_t n,
		struct boot_series_result *out)
{
	struct diff *d = NULL;
	struct new_file *nf = NULL;
	struct boot_file extra[BOOT_MAX_HEADERS];
	size_t nnf = 0, cap = 0, i, k;
	int ret = -1, unsafe = 0;

	memset(out, 0, sizeof(*out));
	out->verdict = BOOT_NOT_CHECKED;
	d = calloc(n ? n : 1, sizeof(*d));
	if (!d)
		return -1;
	/* the new .c and .h files of the whole series */
	for (i = 0; i < n; i++) {
		diff_parse(p[i].text, p[i].len, NULL, &d[i]);
		for (k = 0; k < d[i].nfiles; k++) {
			const struct diff_file *f = &d[i].files[k];

			if (!(f->flags & DIFF_NEW) || !f->new_path ||
			    (!ends_with(f->new_path, ".c") && !ends_with(f->new_path, ".h")))
				continue;
			if (nnf == cap) {
				struct new_file *x;

				cap = cap ? cap * 2 : 8;
				x = realloc(nf, cap * sizeof(*nf));
				if (!x)
					goto out;
				nf = x;
			}
			nf[nnf].part = p[i].part;
			nf[nnf].path = f->new_path;
			if (new_file_text(&d[i], f, &nf[nnf].text, &nf[nnf].len))
				continue;
			nnf++;
		}
	}
	for (i = 0; i < nnf && out->n < BOOT_MAX_MODULES; i++) {
		struct boot_result *r = &out->r[out->n];
		char name[BOOT_MAX_NAME];
		const char *base;
		size_t dl, ne = 0, j, bl;

		if (!ends_with(nf[i].path, ".c") || split_path(nf[i].path, &dl, &base) ||
		    !boot_is_module_source(nf[i].text, nf[i].len))
			continue;
		if (!source_is_safe(nf[i].text, nf[i].len)) {
			unsafe = 1;
			continue;
		}
		bl = strlen(base) - 2;
		if (bl >= sizeof(name))
			continue;
		for (j = 0; j < bl; j++)
			name[j] = base[j] == '-' ? '_' : base[j];
		name[bl] = '\0';
		if (!valid_name(name))
			continue;
		/* the new headers of its folder, for #include "foo.h" */
		for (j = 0; j < nnf && ne < BOOT_MAX_HEADERS; j++) {
			const char *hb;
			size_t hdl;

			if (!ends_with(nf[j].path, ".h") || split_path(nf[j].path, &hdl, &hb) ||
			    hdl != dl || strncmp(nf[j].path, nf[i].path, dl) ||
			    !source_is_safe(nf[j].text, nf[j].len))
				continue;
			snprintf(extra[ne].name, sizeof(extra[ne].name), "%s", hb);
			extra[ne].text = nf[j].text;
			extra[ne].len = nf[j].len;
			ne++;
		}
		if (module_run(o, name, nf[i].text, nf[i].len, extra, ne, r) && !out->n &&
		    r->verdict == BOOT_NOT_CHECKED && strstr(r->note, BOOT_QEMU)) {
			/* no QEMU: say so, try nothing else */
			snprintf(out->note, sizeof(out->note), "%s", r->note);
			out->n++;
			ret = 0;
			goto out;
		}
		out->part[out->n] = nf[i].part;
		snprintf(out->file[out->n], sizeof(out->file[out->n]), "%s", nf[i].path);
		out->build_s += r->build_s;
		out->boot_s += r->boot_s;
		if (r->verdict == BOOT_CONCERN)
			out->verdict = BOOT_CONCERN;
		else if (r->verdict == BOOT_OK && out->verdict == BOOT_NOT_CHECKED)
			out->verdict = BOOT_OK;
		out->n++;
	}
	if (!out->n && unsafe)
		snprintf(out->note, sizeof(out->note),
			 "the module includes files outside its folder (.incbin, absolute or ../ paths)");
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
	for (i = 0; i < nnf; i++)
		free(nf[i].text);
	free(nf);
	for (i = 0; i < n; i++)
		diff_release(&d[i]);
	free(d);
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

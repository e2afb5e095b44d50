/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * boot: the QEMU load stage (issue 9).  A driver source that can be built
 * as a module is built out of tree (M=) against a kbuild tree ([boot]
 * headers, e.g. Debian's linux-headers, whose Module.symvers and
 * KERNELRELEASE match the image), packed with a static busybox into a
 * minimal initramfs whose /init loads and unloads it in subshells (PID 1
 * stays alive when a module's init oopses and it stays "Loading"), and
 * booted under qemu-system-x86_64 -accel tcg with [boot] kernel.  The
 * serial console between the guest's markers is read: an oops, BUG,
 * WARNING, KASAN, lockdep report or panic, a hang, or a failed load is a
 * finding; a clean load and unload is "works".
 *
 * Nothing is ever loaded into the host's kernel: this module never runs
 * insmod, modprobe or init_module on the host (insmod appears only in
 * the guest's /init), and refuses to run without qemu-system-x86_64.
 * Commands run without a shell, in their own process group, killed when
 * the timeout passes.  A failure that is not the module's (no QEMU, the
 * module does not build against the headers, the kernel does not boot)
 * is BOOT_NOT_CHECKED with why, never a finding.
 *
 * The drivers a series adds are tested from their '+' lines.  The ones it
 * changes are read from a kernel source tree (o->tree: [build] tree, the
 * same tree the compile stage uses; without it a changed driver is not
 * tested) and the series' hunks applied to them in memory (boot_apply);
 * nothing is ever written into the tree.  A driver the [boot] kernel has
 * built in (its Makefile's CONFIG symbol =y in the headers' .config) is
 * not loaded a second time.
 */
#ifndef RB_BOOT_H
#define RB_BOOT_H

#include <signal.h>
#include <stddef.h>

#include "../config.h"

#define BOOT_MAX_SOURCE		(1u << 20)	/* bytes of a module source */
#define BOOT_MAX_CONSOLE	(4u << 20)	/* bytes of console read */
#define BOOT_MAX_MESSAGE	2048		/* bytes of a finding's console lines */
#define BOOT_NOTE_MAX		200		/* bytes of the note (compose's cap) */
#define BOOT_MAX_NAME		48		/* bytes of a module name */
#define BOOT_MAX_MODULES	4		/* modules loaded per series */
#define BOOT_MAX_HEADERS	16		/* headers written beside a module */
#define BOOT_MAX_HEADER		(256u << 10)	/* bytes of one such header */
#define BOOT_APPLY_WINDOW	200		/* lines a hunk may have moved */

enum boot_verdict {
	BOOT_NOT_CHECKED = 0,
	BOOT_OK,		/* loads and unloads cleanly */
	BOOT_CONCERN,		/* see type / message */
};

struct boot_opts {
	const char *kernel;	/* bzImage / vmlinuz */
	const char *headers;	/* kbuild tree (make -C headers M=...) */
	const char *tree;	/* kernel source tree ([build] tree) to read the
				 * drivers a series changes; NULL: only the
				 * drivers it adds are tested */
	const char *work;	/* scratch folder (created; emptied per module) */
	const char *qemu;	/* NULL: qemu-system-x86_64 from PATH */
	const char *busybox;	/* NULL: /bin/busybox (a static one) */
	int timeout;		/* seconds per module: build, boot and load */
	char work_buf[4096];	/* boot_opts_from_config's default work */
};

struct boot_result {
	enum boot_verdict verdict;
	char type[32];			/* MODULE_LOAD_OOPS, ... when CONCERN */
	char module[BOOT_MAX_NAME];	/* the module's name */
	char message[BOOT_MAX_MESSAGE];	/* relevant console lines, LF separated */
	char note[BOOT_NOTE_MAX];	/* for compose's works_note: why when
					 * NOT_CHECKED (compose says "not checked") */
	double build_s, boot_s;		/* seconds spent */
};

/* Fills o from cfg's [boot] section (work under state_dir/boot), and
 * o->tree from [build] tree: a changed driver needs [build] tree. */
void boot_opts_from_config(struct boot_opts *o, const struct config *cfg);
/* stop (a signal handler's flag) set: the command in hand (the module's
 * build, QEMU) is killed and the stage ends at once; its result means
 * nothing (the caller drops it).  NULL: never. */
void boot_set_stop(const volatile sig_atomic_t *stop);
/* Non-zero when [boot] kernel and headers are set. */
int boot_enabled(const struct config *cfg);

/*
 * Checks that the stage can run: qemu-system-x86_64 (o->qemu or PATH),
 * the kernel image, the headers' Makefile and busybox.  Returns 0, or -1
 * with err ("no qemu-system-x86_64: the load test runs only in QEMU").
 * For `run -n` and the start of the daemon: the stage itself refuses in
 * the same cases ("not checked").
 */
int boot_check(const struct boot_opts *o, char *err, size_t errlen);

/*
 * Builds name.c = src[0, len) as module name, boots it and reads the
 * console.  Returns 0 with *out filled (any verdict), or -1 with *out's
 * note saying why (no QEMU, a bad name, ...; the verdict is then
 * BOOT_NOT_CHECKED too).
 */
int boot_module(const struct boot_opts *o, const char *name,
		const char *src, size_t len, struct boot_result *out);

/* One patch mail of the series, in order (the body holds the diff). */
struct boot_patch {
	int part;
	const char *text;
	size_t len;
};

struct boot_series_result {
	enum boot_verdict verdict;	/* CONCERN if any module's is */
	char note[BOOT_NOTE_MAX];	/* for compose's works_note */
	size_t n;			/* modules tried */
	struct boot_result r[BOOT_MAX_MODULES];
	int part[BOOT_MAX_MODULES];	/* the last part adding or changing it */
	char file[BOOT_MAX_MODULES][256];	/* its path in the tree */
	double build_s, boot_s;		/* seconds spent, all modules */
};

/*
 * Load-tests the modules the series p[0, n) adds, then the ones it
 * changes, BOOT_MAX_MODULES in all: each .c file that, with every hunk of
 * every part applied in part order, looks like a module by itself
 * (boot_is_module_source).  A new file's text is its '+' lines; a changed
 * one's is o->tree's copy with the hunks applied (boot_apply).  Written
 * beside it: the series' new and changed .h files of its folder, and the
 * tree's headers of that folder it includes as "foo.h" (BOOT_MAX_HEADERS,
 * BOOT_MAX_HEADER bytes each).  A series with none of these, a change that
 * does not apply to the tree, or modules that do not build alone against
 * the headers is BOOT_NOT_CHECKED with why, never a finding.  Returns 0
 * with *out filled, or -1 when out of memory.
 */
int boot_series(const struct boot_opts *o, const struct boot_patch *p, size_t n,
		struct boot_series_result *out);

/*
 * Classifies a boot made by boot_module (exposed for the tests): the
 * serial console con[0, len) (ttyS0: the kernel's messages) and what the
 * guest's /init wrote on its own port marks[0, mlen) (ttyS1), with the
 * boot's nonce.  Only marks lines "RB <nonce> ..." say how insmod and
 * rmmod ended (a module cannot print them: printk does not reach ttyS1,
 * and the nonce is gone from the guest before the module loads); on the
 * console, everything after /init's "RB <nonce> LOAD-START" is the
 * module's, and any BUG, oops, warning or panic there is a concern,
 * whatever comes after it.  Fills out's verdict, type, message (at most
 * 12 console lines of 160 bytes each, control characters made '?') and
 * note.
 */
void boot_parse_console(const char *con, size_t len, const char *marks, size_t mlen,
			const char *nonce, const char *module, struct boot_result *out);

/*
 * One line for a finding: what happened and the key console lines (the
 * first report lines and the faulting RIP, timestamps dropped) joined
 * with " | ", into buf (truncated to n).
 */
void boot_result_summary(const struct boot_result *r, char *buf, size_t n);

/*
 * Non-zero when the C source src[0, len) looks like a loadable module by
 * itself: module_init() or a module_*_driver() and MODULE_LICENSE.
 */
int boot_is_module_source(const char *src, size_t len);

struct diff;

#define BOOT_APPLY_NOMEM	(-1)
#define BOOT_APPLY_LIMIT	(-2)	/* the text or the result exceeds
					 * BOOT_MAX_SOURCE, or no such file */

/*
 * Applies the hunks of file d->files[file] to orig[0, len), in memory, as
 * patch(1) would without fuzz: each hunk's ' ' and '-' lines must equal
 * the text's lines at its old start moved by the offset the hunks before
 * it found, or else at the nearest place within BOOT_APPLY_WINDOW lines
 * after the previous hunk.  A trailing CR of a line is ignored when
 * comparing; "\ No newline at end of file" is kept for the added lines.
 * Returns 0 with a malloc'd NUL-terminated *out of *outlen bytes; the
 * 1-based number (within the file) of the first hunk that does not
 * apply; or BOOT_APPLY_NOMEM / BOOT_APPLY_LIMIT.  *out is NULL unless 0.
 * (Exposed for the tests.)
 */
int boot_apply(const char *orig, size_t len, const struct diff *d, size_t file,
	       char **out, size_t *outlen);

#define BOOT_TREE_REFUSED	(-1)	/* not a plain relative path */
#define BOOT_TREE_UNREADABLE	(-2)	/* missing, not a regular file, a
					 * symlink on the way, too large */

/*
 * A path from mail names a file inside a kernel tree only when it is
 * plain: relative, under 256 bytes, components of [A-Za-z0-9_.,+-] that
 * start with neither '.' (no ".", "..", hidden files) nor '-' (never taken
 * for an option of make), one '/' between them.  The compile and load
 * stages both ask this.
 */
int boot_tree_path_ok(const char *path);

/*
 * Reads tree/path into a malloc'd NUL-terminated *out (*len bytes, at
 * most max).  path comes from mail: it must be relative, without ".",
 * ".." or hidden components, of [A-Za-z0-9_.,+-] only; no symlink is
 * followed below tree.  Returns 0, BOOT_TREE_REFUSED or
 * BOOT_TREE_UNREADABLE (*out NULL).  (Exposed for the tests.)
 */
int boot_tree_read(const char *tree, const char *path, size_t max,
		   char **out, size_t *len);

#endif

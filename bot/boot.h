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
 */
#ifndef RB_BOOT_H
#define RB_BOOT_H

#include <stddef.h>

#include "config.h"

#define BOOT_MAX_SOURCE		(1u << 20)	/* bytes of a module source */
#define BOOT_MAX_CONSOLE	(4u << 20)	/* bytes of console read */
#define BOOT_MAX_MESSAGE	2048		/* bytes of a finding's console lines */
#define BOOT_NOTE_MAX		200		/* bytes of the note (compose's cap) */
#define BOOT_MAX_NAME		48		/* bytes of a module name */
#define BOOT_MAX_MODULES	4		/* modules loaded per series */

enum boot_verdict {
	BOOT_NOT_CHECKED = 0,
	BOOT_OK,		/* loads and unloads cleanly */
	BOOT_CONCERN,		/* see type / message */
};

struct boot_opts {
	const char *kernel;	/* bzImage / vmlinuz */
	const char *headers;	/* kbuild tree (make -C headers M=...) */
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

/* Fills o from cfg's [boot] section (work under state_dir/boot). */
void boot_opts_from_config(struct boot_opts *o, const struct config *cfg);
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
	int part[BOOT_MAX_MODULES];	/* the part adding the module */
	char file[BOOT_MAX_MODULES][256];	/* its path in the tree */
	double build_s, boot_s;		/* seconds spent, all modules */
};

/*
 * Load-tests the modules the series p[0, n) adds: each new .c file that
 * looks like a module by itself (boot_is_module_source), with the new .h
 * files of its folder beside it.  A series that adds none, or whose
 * modules do not build alone against the headers, is BOOT_NOT_CHECKED
 * with why.  Returns 0 with *out filled, or -1 when out of memory.
 */
int boot_series(const struct boot_opts *o, const struct boot_patch *p, size_t n,
		struct boot_series_result *out);

/*
 * Classifies the serial console text con[0, len) of a boot made by
 * boot_module (exposed for the tests): fills out's verdict, type,
 * message and note.
 */
void boot_parse_console(const char *con, size_t len, const char *module,
			struct boot_result *out);

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

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The QEMU load stage's parts that need no QEMU: reading a serial
 * console (fixtures in tests/boot/console/ are real consoles of
 * tests/boot/test_boot.sh's modules), telling a module source, finding
 * the modules a series adds or changes (hunks applied in memory to a
 * tree's copy, paths from mail kept inside the tree), and refusing
 * without QEMU.  The boots themselves are tests/boot/test_boot.sh and
 * tests/boot/test_boot_changed.sh (make boot-tests).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bot/stage/boot.h"
#include "../../checker/diff.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;

	assert_non_null(f);
	b = malloc(1 << 20);
	assert_non_null(b);
	*len = fread(b, 1, (1 << 20) - 1, f);
	b[*len] = '\0';
	fclose(f);
	return b;
}

/* The nonce of a fixture: its marks' first line, "RB <nonce> LOAD-START". */
static void fixture_nonce(const char *marks, char *nonce, size_t n)
{
	size_t i = 0;

	assert_int_equal(strncmp(marks, "RB ", 3), 0);
	for (marks += 3; *marks && *marks != ' ' && i + 1 < n; marks++)
		nonce[i++] = *marks;
	nonce[i] = '\0';
}

/* tests/boot/console/NAME.console and NAME.marks: a real boot's console
 * (ttyS0) and what its /init wrote on ttyS1 */
static void parse_file(const char *name, const char *mod, struct boot_result *r)
{
	char path[256], nonce[32];
	size_t clen, mlen;
	char *c, *m;

	snprintf(path, sizeof(path), "tests/boot/console/%s.console", name);
	c = slurp(path, &clen);
	snprintf(path, sizeof(path), "tests/boot/console/%s.marks", name);
	m = slurp(path, &mlen);
	fixture_nonce(m, nonce, sizeof(nonce));
	memset(r, 0, sizeof(*r));
	snprintf(r->module, sizeof(r->module), "%s", mod);
	boot_parse_console(c, clen, m, mlen, nonce, mod, r);
	free(c);
	free(m);
}

#define NONCE "0123456789abcdef"
#define START "[ 2.0] RB " NONCE " LOAD-START\n"

/* A console and /init's port; "RB <NONCE> " is written as "@ " in marks. */
static void parse_str2(const char *con, const char *marks, struct boot_result *r)
{
	char m[4096];
	size_t i, k = 0;

	for (i = 0; marks[i] && k + 32 < sizeof(m); i++) {
		if (marks[i] == '@' && (i == 0 || marks[i - 1] == '\n')) {
			memcpy(m + k, "RB " NONCE, 19);
			k += 19;
		} else {
			m[k++] = marks[i];
		}
	}
	m[k] = '\0';
	memset(r, 0, sizeof(*r));
	snprintf(r->module, sizeof(r->module), "m");
	boot_parse_console(con, strlen(con), m, k, NONCE, "m", r);
}

static void test_boot__clean_console_is_ok(void **state)
{
	struct boot_result r;

	(void)state;
	parse_file("clean", "rbclean", &r);
	assert_int_equal(r.verdict, BOOT_OK);
	assert_string_equal(r.note, "loads and unloads cleanly in QEMU (no hardware present)");
	assert_string_equal(r.message, "");
}

static void test_boot__null_deref_in_init_is_oops_with_lines(void **state)
{
	struct boot_result r;
	char sum[512];

	(void)state;
	parse_file("oops", "rboops", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_OOPS");
	assert_non_null(strstr(r.message, "BUG: kernel NULL pointer dereference"));
	assert_non_null(strstr(r.message, "RIP: 0010:rboops_init"));
	/* unreliable frames and the user-space RIP are left out */
	assert_null(strstr(r.message, "] ? "));
	assert_null(strstr(r.message, "RIP: 0033"));
	boot_result_summary(&r, sum, sizeof(sum));
	assert_non_null(strstr(sum, "oops when loading rboops in QEMU"));
	assert_non_null(strstr(sum, ": BUG: kernel NULL pointer dereference"));
	assert_non_null(strstr(sum, " | RIP: 0010:rboops_init+0x5/0x1000 [rboops]"));
	assert_null(strchr(sum, '\n'));
}

static void test_boot__failed_init_is_load_failed(void **state)
{
	struct boot_result r;

	(void)state;
	parse_file("fail", "rbfail", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_FAILED");
	assert_non_null(strstr(r.message, "No such device"));
}

static void test_boot__warning_after_marker_is_finding(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str2("[ 1.0] WARNING: CPU: 0 PID: 1 at boot.c:1 boot_thing\n" START
		   "[ 3.1] WARNING: CPU: 0 PID: 85 at m.c:12 m_init+0x1/0x2 [m]\r\n",
		   "@ INSMOD 0\r\n@ RMMOD 0\r\n@ DONE\r\n", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_WARNING");
	assert_non_null(strstr(r.message, "m.c:12"));
	/* the boot's own warning, before the marker, is not the module's */
	assert_null(strstr(r.message, "boot.c:1"));
}

static void test_boot__warning_before_marker_is_not_blamed(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str2("[ 1.0] WARNING: CPU: 0 PID: 1 at boot.c:1 boot_thing\n" START,
		   "@ INSMOD 0\n@ RMMOD 0\n@ DONE\n", &r);
	assert_int_equal(r.verdict, BOOT_OK);
}

static void test_boot__kasan_and_lockdep_are_typed(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str2(START "[ 2.0] BUG: KASAN: slab-out-of-bounds in m_init\n",
		   "@ INSMOD 0\n@ RMMOD 0\n@ DONE\n", &r);
	assert_string_equal(r.type, "MODULE_LOAD_KASAN");
	parse_str2(START "[ 2.0] WARNING: possible circular locking dependency detected\n",
		   "@ INSMOD 0\n@ RMMOD 0\n@ DONE\n", &r);
	assert_string_equal(r.type, "MODULE_LOAD_LOCKDEP");
}

static void test_boot__hang_is_finding(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str2(START, "@ HANG insmod\n@ DONE\n", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_HANG");
	/* the console stops after the marker: the guest died in the load */
	parse_str2(START "[ 2.0] rcu: INFO: rcu_sched self-detected stall\n", "", &r);
	assert_string_equal(r.type, "MODULE_LOAD_HANG");
}

/* A module's printk reaches only the console: lines there that look like
 * /init's, with or without a guessed nonce, say nothing of the verdict. */
static void test_boot__markers_on_the_console_are_not_believed(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str2(START "[ 2.1] RB-INSMOD-RC=0\n[ 2.1] RB-RMMOD-RC=0\n[ 2.1] RB-DONE\n"
		   "[ 2.2] RB " NONCE " INSMOD 0\n[ 2.2] RB " NONCE " RMMOD 0\n"
		   "[ 2.2] RB " NONCE " DONE\n", "@ LOAD-START\n", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_HANG");
}

/* Lines on /init's port with another nonce are not /init's. */
static void test_boot__marks_with_another_nonce_are_ignored(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str2(START, "RB fedcba9876543210 INSMOD 0\nRB fedcba9876543210 RMMOD 0\n"
		   "RB fedcba9876543210 DONE\nRB-DONE\n", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_HANG");
	/* and a missing nonce never makes a verdict */
	memset(&r, 0, sizeof(r));
	boot_parse_console(START, strlen(START), "RB  DONE\n", 9, "", "m", &r);
	assert_int_equal(r.verdict, BOOT_NOT_CHECKED);
}

/* A real boot of a module that prints every marker it could guess and
 * BUG()s at unload (tests/boot/mod_fake): a concern, not "clean". */
static void test_boot__fake_markers_then_bug_is_oops(void **state)
{
	struct boot_result r;

	(void)state;
	parse_file("fake", "rbfake", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_OOPS");
	assert_non_null(strstr(r.message, "kernel BUG at"));
	assert_non_null(strstr(r.message, "RIP: 0010:rbfake_exit"));
}

/* A report after /init said DONE is still the module's. */
static void test_boot__bug_after_done_is_concern(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str2(START "[ 5.0] BUG: unable to handle page fault for address: 0\n",
		   "@ INSMOD 0\n@ RMMOD 0\n@ DONE\n", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_OOPS");
}

/* What the review may quote of the console is bounded: 12 lines of at
 * most 160 bytes, control characters made visible. */
static void test_boot__quoted_console_is_capped(void **state)
{
	struct boot_result r;
	char *con = malloc(64 << 10), sum[1024];
	size_t n = 0, lines = 0;
	const char *p;
	int i;

	(void)state;
	assert_non_null(con);
	n += (size_t)sprintf(con + n, START "[ 2.0] BUG: ");
	memset(con + n, 'A', 5000);
	n += 5000;
	con[n++] = '\x1b';
	con[n++] = '\n';
	for (i = 0; i < 40; i++)
		n += (size_t)sprintf(con + n, "[ 2.1] RIP: 0010:m_init+0x%d/0x10 [m]\n", i);
	con[n] = '\0';
	parse_str2(con, "@ INSMOD 0\n@ RMMOD 0\n@ DONE\n", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	for (p = r.message; *p; p++) {
		const char *e = strchr(p, '\n');

		assert_non_null(e);
		assert_true(e - p <= 160);
		lines++;
		p = e;
	}
	assert_true(lines <= 12);
	assert_null(strchr(r.message, '\x1b'));
	boot_result_summary(&r, sum, sizeof(sum));
	assert_true(strlen(sum) < 600);
	free(con);
}

static void test_boot__no_marker_is_not_checked(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str2("[ 0.1] Kernel panic - not syncing: VFS: Unable to mount root fs\n", "", &r);
	assert_int_equal(r.verdict, BOOT_NOT_CHECKED);
	assert_string_equal(r.type, "");
	assert_non_null(strstr(r.note, "did not boot"));
}

static void test_boot__unload_failure_is_finding(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str2(START "rmmod: can't unload module 'm': Device or resource busy\n",
		   "@ INSMOD 0\n@ RMMOD 1\n@ DONE\n", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_UNLOAD_FAILED");
}

static void test_boot__module_source_detection(void **state)
{
	const char *a = "module_init(x);\nMODULE_LICENSE(\"GPL\");\n";
	const char *b = "module_platform_driver(x_driver);\nMODULE_LICENSE(\"GPL\");\n";
	const char *c = "static int helper(void) { return 0; }\n";
	const char *d = "module_init(x);\n";

	(void)state;
	assert_true(boot_is_module_source(a, strlen(a)));
	assert_true(boot_is_module_source(b, strlen(b)));
	assert_false(boot_is_module_source(c, strlen(c)));
	assert_false(boot_is_module_source(d, strlen(d)));
}

static void test_boot__refuses_without_qemu(void **state)
{
	struct boot_opts o;
	struct boot_result r;
	const char *src = "module_init(x);\nMODULE_LICENSE(\"GPL\");\n";
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.kernel = "/nonexistent/vmlinuz";
	o.headers = "/nonexistent/headers";
	o.work = "/nonexistent/work";
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(boot_module(&o, "m", src, strlen(src), &r), -1);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	assert_int_equal(r.verdict, BOOT_NOT_CHECKED);
	assert_non_null(strstr(r.note, "no qemu-system-x86_64"));
}

static void test_boot__check_names_what_is_missing(void **state)
{
	struct boot_opts o;
	char err[256];

	(void)state;
	memset(&o, 0, sizeof(o));
	o.qemu = "/nonexistent/qemu-system-x86_64";
	o.kernel = "/nonexistent/vmlinuz";
	o.headers = "/nonexistent/headers";
	assert_int_equal(boot_check(&o, err, sizeof(err)), -1);
	assert_string_equal(err, "no qemu-system-x86_64: the load test runs only in QEMU");
	o.qemu = "/bin/sh";	/* any executable: only its presence is checked */
	assert_int_equal(boot_check(&o, err, sizeof(err)), -1);
	assert_string_equal(err, "[boot] kernel: cannot read /nonexistent/vmlinuz");
	o.kernel = "tests/boot/console/clean.console";
	assert_int_equal(boot_check(&o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "[boot] headers"));
}

static void test_boot__series_without_new_module_is_not_checked(void **state)
{
	const char *patch =
		"Subject: [PATCH] x\n\n"
		"diff --git a/drivers/x.c b/drivers/x.c\n"
		"index 1111111..2222222 100644\n"
		"--- a/drivers/x.c\n"
		"+++ b/drivers/x.c\n"
		"@@ -1,1 +1,2 @@\n"
		" a\n"
		"+module_init(x); MODULE_LICENSE(\"GPL\");\n";
	struct boot_patch p = { 1, patch, 0 };
	struct boot_opts o;
	struct boot_series_result *r = calloc(1, sizeof(*r));

	(void)state;
	assert_non_null(r);
	p.len = strlen(patch);
	memset(&o, 0, sizeof(o));
	o.kernel = "/nonexistent/vmlinuz";
	o.headers = "/nonexistent/headers";
	o.work = "/nonexistent/work";
	assert_int_equal(boot_series(&o, &p, 1, r), 0);
	assert_int_equal(r->verdict, BOOT_NOT_CHECKED);
	assert_int_equal(r->n, 0);
	assert_non_null(strstr(r->note, "adds no module"));
	free(r);
}

static void test_boot__series_new_module_without_qemu_says_so(void **state)
{
	const char *patch =
		"Subject: [PATCH] x\n\n"
		"diff --git a/drivers/misc/foo-bar.c b/drivers/misc/foo-bar.c\n"
		"new file mode 100644\n"
		"index 0000000..2222222\n"
		"--- /dev/null\n"
		"+++ b/drivers/misc/foo-bar.c\n"
		"@@ -0,0 +1,2 @@\n"
		"+module_init(x);\n"
		"+MODULE_LICENSE(\"GPL\");\n";
	struct boot_patch p = { 2, patch, 0 };
	struct boot_opts o;
	struct boot_series_result *r = calloc(1, sizeof(*r));
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	(void)state;
	assert_non_null(r);
	p.len = strlen(patch);
	memset(&o, 0, sizeof(o));
	o.kernel = "/nonexistent/vmlinuz";
	o.headers = "/nonexistent/headers";
	o.work = "/nonexistent/work";
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(boot_series(&o, &p, 1, r), 0);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	assert_int_equal(r->verdict, BOOT_NOT_CHECKED);
	assert_string_equal(r->r[0].module, "foo_bar");
	assert_non_null(strstr(r->note, "no qemu-system-x86_64"));
	free(r);
}

/* The note boot_series() gives a new module made of these added lines, without QEMU. */
static void boot_note_of(const char *lines, char *note, size_t size)
{
	char patch[2048];
	struct boot_patch p = { 1, patch, 0 };
	struct boot_opts o;
	struct boot_series_result *r = calloc(1, sizeof(*r));
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	const char *s;
	int n = 2;

	assert_non_null(r);
	for (s = lines; *s; s++)
		n += *s == '\n';
	snprintf(patch, sizeof(patch),
		 "diff --git a/drivers/misc/x.c b/drivers/misc/x.c\n"
		 "new file mode 100644\n"
		 "--- /dev/null\n"
		 "+++ b/drivers/misc/x.c\n"
		 "@@ -0,0 +1,%d @@\n"
		 "%s"
		 "+module_init(x);\n"
		 "+MODULE_LICENSE(\"GPL\");\n", n, lines);
	p.len = strlen(patch);
	memset(&o, 0, sizeof(o));
	o.kernel = "/nonexistent/vmlinuz";
	o.headers = "/nonexistent/headers";
	o.work = "/nonexistent/work";
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(boot_series(&o, &p, 1, r), 0);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	assert_int_equal(r->verdict, BOOT_NOT_CHECKED);
	snprintf(note, size, "%s", r->note);
	free(r);
}

/*
 * The assembler reads what the compiler made of the literals: joined,
 * escapes decoded, lines spliced, comments gone, directives in any case
 * (issue 33 item 8).
 */
static void test_boot__series_incbin_the_compiler_joins_is_not_built(void **state)
{
	static const char *const bad[] = {
		"+asm(\".in\" \"cbin \\\"/etc/shadow\\\"\");\n",
		"+asm(\".in\"\n+    \"cbin \\\"/etc/shadow\\\"\");\n",
		"+asm(\".in\" /* x */ \"cbin \\\"/etc/shadow\\\"\");\n",
		"+asm(\".in\" // x\n+    \"cbin \\\"/etc/shadow\\\"\");\n",
		"+asm(\".in\" R\"x(cbin \"/etc/shadow\")x\");\n",
		"+asm(\".inc\\x62in \\\"/etc/shadow\\\"\");\n",
		"+asm(\".inc\\142in \\\"/etc/shadow\\\"\");\n",
		"+asm(\".inc\\\n+bin \\\"/etc/shadow\\\"\");\n",
		"+asm(\".inc\\  \n+bin \\\"/etc/shadow\\\"\");\n",
		"+asm(\".INCBIN \\\"/etc/shadow\\\"\");\n",
		"+#include /* x */ \"/etc/passwd\"\n",
		"+#include \"\\\n+/etc/passwd\"\n",
	};
	size_t i, nfail = 0;
	char note[512];

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		boot_note_of(bad[i], note, sizeof(note));
		if (!strstr(note, "outside its folder")) {
			print_error("case %zu built: %s (%s)\n", i, bad[i], note);
			nfail++;
		}
	}
	assert_int_equal(nfail, 0);
}

/* Literals, comments and quotes that do not make an .incbin are built. */
static void test_boot__series_literals_that_make_no_incbin_are_built(void **state)
{
	static const char *const good[] = {
		"+static const char s[] = \"in\" \"c\" \"\\n\" \"bin\";\n",
		"+static const char s[] = \"inc\";\n+static int bin;\n",
		"+static const char q = '\"', t[] = \"in\"; static const char u[] = \"cbin\";\n",
		"+/* \"in */ static const char s[] = \"cbin\";\n",
		"+static const char s[] = R\"(in\" \")\" \"cbin\";\n",
	};
	size_t i, nfail = 0;
	char note[512];

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		boot_note_of(good[i], note, sizeof(note));
		if (!strstr(note, "no qemu-system-x86_64")) {
			print_error("case %zu refused: %s (%s)\n", i, good[i], note);
			nfail++;
		}
	}
	assert_int_equal(nfail, 0);
}

static void test_boot__series_module_reading_host_files_is_not_built(void **state)
{
	static const char *const bad[] = {
		"+asm(\".incbin \\\"/etc/shadow\\\"\");\n",
		"+#include \"/etc/passwd\"\n",
		"+#include \"../../../../etc/passwd\"\n",
		"+#include </etc/passwd>\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char patch[1024];
		struct boot_patch p = { 1, patch, 0 };
		struct boot_opts o;
		struct boot_series_result *r = calloc(1, sizeof(*r));

		assert_non_null(r);
		snprintf(patch, sizeof(patch),
			 "diff --git a/drivers/misc/x.c b/drivers/misc/x.c\n"
			 "new file mode 100644\n"
			 "--- /dev/null\n"
			 "+++ b/drivers/misc/x.c\n"
			 "@@ -0,0 +1,3 @@\n"
			 "%s"
			 "+module_init(x);\n"
			 "+MODULE_LICENSE(\"GPL\");\n", bad[i]);
		p.len = strlen(patch);
		memset(&o, 0, sizeof(o));
		o.kernel = "/nonexistent/vmlinuz";
		o.headers = "/nonexistent/headers";
		o.work = "/nonexistent/work";
		assert_int_equal(boot_series(&o, &p, 1, r), 0);
		assert_int_equal(r->verdict, BOOT_NOT_CHECKED);
		assert_int_equal(r->n, 0);
		assert_non_null(strstr(r->note, "outside its folder"));
		free(r);
	}
}

static void test_boot__unknown_symbol_is_not_checked(void **state)
{
	struct boot_result r;

	(void)state;
	/* a symbol of a module the guest lacks is not the patch's fault */
	parse_str2(START "[ 2.0] m: Unknown symbol usb_register_driver (err -2)\n"
		   "insmod: can't insert '/m/m.ko': unknown symbol in module, or unknown parameter\n",
		   "@ INSMOD 1\n@ RMMOD 1\n@ DONE\n", &r);
	assert_int_equal(r.verdict, BOOT_NOT_CHECKED);
	assert_string_equal(r.type, "");
	assert_non_null(strstr(r.note, "needs symbols of other modules"));
}

/* ---- applying hunks in memory (boot_apply) ---- */

/* Applies the one-file patch to orig: boot_apply's result, text in *out. */
static int apply_str(const char *orig, const char *patch, char **out)
{
	struct diff d;
	size_t len;
	int rc;

	memset(&d, 0, sizeof(d));
	assert_int_equal(diff_parse(patch, strlen(patch), NULL, &d), DIFF_OK);
	assert_int_equal(d.nfiles, 1);
	rc = boot_apply(orig, strlen(orig), &d, 0, out, &len);
	if (!rc)
		assert_int_equal(len, strlen(*out));
	else
		assert_null(*out);
	diff_release(&d);
	return rc;
}

#define HDR "--- a/f.c\n+++ b/f.c\n"

static void test_boot__apply_at_exact_position(void **state)
{
	char *o;

	(void)state;
	assert_int_equal(apply_str("a\nb\nc\nd\n", HDR "@@ -2,2 +2,2 @@\n b\n-c\n+C\n", &o), 0);
	assert_string_equal(o, "a\nb\nC\nd\n");
	free(o);
	/* an insertion after a line ("-N,0") and at the start ("-0,0") */
	assert_int_equal(apply_str("a\nb\n", HDR "@@ -1,0 +2,1 @@\n+x\n", &o), 0);
	assert_string_equal(o, "a\nx\nb\n");
	free(o);
	assert_int_equal(apply_str("a\n", HDR "@@ -0,0 +1,1 @@\n+x\n", &o), 0);
	assert_string_equal(o, "x\na\n");
	free(o);
}

static void test_boot__apply_finds_moved_lines_at_an_offset(void **state)
{
	char *o;

	(void)state;
	/* the tree has 3 more lines above than the author's copy */
	assert_int_equal(apply_str("0\n1\n2\na\nb\nc\nd\n",
				   HDR "@@ -2,2 +2,2 @@\n b\n-c\n+C\n", &o), 0);
	assert_string_equal(o, "0\n1\n2\na\nb\nC\nd\n");
	free(o);
	/* and fewer: the lines are above where the hunk says */
	assert_int_equal(apply_str("b\nc\nd\n",
				   HDR "@@ -5,2 +5,2 @@\n b\n-c\n+C\n", &o), 0);
	assert_string_equal(o, "b\nC\nd\n");
	free(o);
}

static void test_boot__apply_refuses_a_hunk_that_does_not_match(void **state)
{
	char *o = (char *)1;
	char big[8192];
	size_t i, n = 0;

	(void)state;
	assert_int_equal(apply_str("a\nb\nc\n", HDR "@@ -2,2 +2,2 @@\n b\n-x\n+C\n", &o), 1);
	/* the second hunk's number is given */
	assert_int_equal(apply_str("a\nb\nc\nd\ne\nf\n",
				   HDR "@@ -1,1 +1,1 @@\n-a\n+A\n@@ -5,1 +5,1 @@\n-z\n+Z\n", &o), 2);
	/* past the window: patch(1) would need more than BOOT_APPLY_WINDOW lines */
	for (i = 0; i < BOOT_APPLY_WINDOW + 10; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "%zu\n", i + 1000);
	snprintf(big + n, sizeof(big) - n, "a\nb\n");
	assert_int_equal(apply_str(big, HDR "@@ -1,2 +1,2 @@\n a\n-b\n+B\n", &o), 1);
	/* and the old lines must lie after the previous hunk's */
	assert_int_equal(apply_str("a\nb\n",
				   HDR "@@ -2,1 +2,1 @@\n-b\n+B\n@@ -3,1 +3,1 @@\n-a\n+A\n", &o), 2);
}

static void test_boot__apply_several_hunks_carry_the_offset(void **state)
{
	char *o;
	const char *orig = "x\nx\n1\n2\n3\n4\n5\n6\n7\n8\n9\n";

	(void)state;
	/* the tree has two lines more at the top; the second hunk's own
	 * position counts the first's added line (new numbering is not used) */
	assert_int_equal(apply_str(orig, HDR
				   "@@ -1,2 +1,3 @@\n 1\n+1b\n 2\n"
				   "@@ -6,2 +7,1 @@\n 6\n-7\n"
				   "@@ -9,1 +9,2 @@\n 9\n+10\n", &o), 0);
	assert_string_equal(o, "x\nx\n1\n1b\n2\n3\n4\n5\n6\n8\n9\n10\n");
	free(o);
}

static void test_boot__apply_keeps_no_newline_at_end(void **state)
{
	char *o;

	(void)state;
	/* the last line changed, still without a newline */
	assert_int_equal(apply_str("a\nb", HDR "@@ -1,2 +1,2 @@\n a\n-b\n"
				   "\\ No newline at end of file\n+c\n"
				   "\\ No newline at end of file\n", &o), 0);
	assert_string_equal(o, "a\nc");
	free(o);
	/* a newline added */
	assert_int_equal(apply_str("a\nb", HDR "@@ -2,1 +2,1 @@\n-b\n"
				   "\\ No newline at end of file\n+b\n", &o), 0);
	assert_string_equal(o, "a\nb\n");
	free(o);
	/* a line added before an unchanged last line without a newline */
	assert_int_equal(apply_str("a\nb", HDR "@@ -1,2 +1,3 @@\n a\n+x\n b\n"
				   "\\ No newline at end of file\n", &o), 0);
	assert_string_equal(o, "a\nx\nb");
	free(o);
}

static void test_boot__apply_deleting_hunk(void **state)
{
	char *o;

	(void)state;
	assert_int_equal(apply_str("a\nb\nc\nd\n", HDR "@@ -2,2 +1,0 @@\n-b\n-c\n", &o), 0);
	assert_string_equal(o, "a\nd\n");
	free(o);
	/* everything */
	assert_int_equal(apply_str("a\nb\n", HDR "@@ -1,2 +0,0 @@\n-a\n-b\n", &o), 0);
	assert_string_equal(o, "");
	free(o);
	/* CRLF text: the CR is not part of the comparison */
	assert_int_equal(apply_str("a\r\nb\r\n", HDR "@@ -1,2 +1,1 @@\n a\n-b\n", &o), 0);
	assert_string_equal(o, "a\r\n");
	free(o);
}

/* ---- reading the tree (boot_tree_read) ---- */

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static void rm_rf(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *root, const char *rel, const char *text)
{
	char p[512];
	FILE *f;
	char *sl;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (sl = strchr(p + strlen(root) + 1, '/'); sl; sl = strchr(sl + 1, '/')) {
		*sl = '\0';
		mkdir(p, 0700);
		*sl = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_boot__tree_read_refuses_paths_leaving_the_tree(void **state)
{
	static const char *const bad[] = {
		"../etc/passwd", "drivers/../../etc/passwd", "/etc/passwd", "drivers//x.c",
		"./drivers/x.c", "drivers/.x.c", "drivers/x.c/", "", "drivers/x\n.c",
		"-j99", "drivers/-x.c",
	};
	char tree[] = "/tmp/rb-tree.XXXXXX", p[512], *t;
	size_t len, i;

	(void)state;
	assert_non_null(mkdtemp(tree));
	put(tree, "drivers/x.c", "x\n");
	put(tree, "outside", "secret\n");
	assert_int_equal(boot_tree_read(tree, "drivers/x.c", 100, &t, &len), 0);
	assert_string_equal(t, "x\n");
	free(t);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(boot_tree_read(tree, bad[i], 100, &t, &len), BOOT_TREE_REFUSED);
		assert_null(t);
	}
	/* the compile stage names files to make: none may pass for an option */
	assert_int_equal(boot_tree_path_ok("drivers/x.c"), 1);
	assert_int_equal(boot_tree_path_ok("-j99"), 0);
	assert_int_equal(boot_tree_path_ok("drivers/-x.c"), 0);
	/* no symlink is followed, a file's or a folder's; nor a FIFO opened */
	snprintf(p, sizeof(p), "%s/drivers/link.c", tree);
	assert_int_equal(symlink("/etc/passwd", p), 0);
	snprintf(p, sizeof(p), "%s/dlink", tree);
	assert_int_equal(symlink("/etc", p), 0);
	snprintf(p, sizeof(p), "%s/drivers/fifo.c", tree);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(boot_tree_read(tree, "drivers/link.c", 1 << 20, &t, &len),
			 BOOT_TREE_UNREADABLE);
	assert_int_equal(boot_tree_read(tree, "dlink/passwd", 1 << 20, &t, &len),
			 BOOT_TREE_UNREADABLE);
	assert_int_equal(boot_tree_read(tree, "drivers/fifo.c", 1 << 20, &t, &len),
			 BOOT_TREE_UNREADABLE);
	assert_int_equal(boot_tree_read(tree, "drivers", 1 << 20, &t, &len),
			 BOOT_TREE_UNREADABLE);
	assert_int_equal(boot_tree_read(tree, "drivers/none.c", 100, &t, &len),
			 BOOT_TREE_UNREADABLE);
	/* larger than the cap: refused, not cut */
	assert_int_equal(boot_tree_read(tree, "outside", 3, &t, &len), BOOT_TREE_UNREADABLE);
	assert_null(t);
	rm_rf(tree);
}

/* ---- the drivers a series changes ---- */

static const char drv[] =
	"#include <linux/module.h>\n"
	"#include \"foo.h\"\n"
	"static int __init foo_init(void)\n"
	"{\n"
	"\treturn 0;\n"
	"}\n"
	"module_init(foo_init);\n"
	"MODULE_LICENSE(\"GPL\");\n";

static const char drv_patch[] =
	"Subject: [PATCH] foo: say hello\n\n"
	"diff --git a/drivers/misc/foo.c b/drivers/misc/foo.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/drivers/misc/foo.c\n"
	"+++ b/drivers/misc/foo.c\n"
	"@@ -3,4 +3,5 @@\n"
	" static int __init foo_init(void)\n"
	" {\n"
	"+\tpr_info(\"hello\\n\");\n"
	" \treturn 0;\n"
	" }\n";

static struct boot_series_result *series_run(const char *tree, const char *headers,
					     const char *patch, const char *path)
{
	struct boot_patch p = { 1, patch, 0 };
	struct boot_opts o;
	struct boot_series_result *r = calloc(1, sizeof(*r));
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	assert_non_null(r);
	p.len = strlen(patch);
	memset(&o, 0, sizeof(o));
	o.kernel = "/nonexistent/vmlinuz";
	o.headers = headers ? headers : "/nonexistent/headers";
	o.work = "/nonexistent/work";
	o.tree = tree;
	setenv("PATH", path, 1);
	assert_int_equal(boot_series(&o, &p, 1, r), 0);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	return r;
}

static void test_boot__series_changed_driver_without_tree_says_so(void **state)
{
	struct boot_series_result *r;

	(void)state;
	r = series_run(NULL, NULL, drv_patch, "/nonexistent");
	assert_int_equal(r->verdict, BOOT_NOT_CHECKED);
	assert_int_equal(r->n, 0);
	assert_non_null(strstr(r->note, "[build] tree is not set"));
	free(r);
}

static void test_boot__series_changed_driver_is_applied_to_the_tree(void **state)
{
	char tree[] = "/tmp/rb-tree.XXXXXX";
	struct boot_series_result *r;

	(void)state;
	assert_non_null(mkdtemp(tree));
	put(tree, "drivers/misc/foo.c", drv);
	put(tree, "drivers/misc/foo.h", "#define FOO 1\n");
	/* applied, it reaches the load step: here refused for want of QEMU */
	r = series_run(tree, NULL, drv_patch, "/nonexistent");
	assert_int_equal(r->verdict, BOOT_NOT_CHECKED);
	assert_int_equal(r->n, 1);
	assert_string_equal(r->r[0].module, "foo");
	assert_non_null(strstr(r->note, "no qemu-system-x86_64"));
	free(r);
	rm_rf(tree);
}

static void test_boot__series_changed_driver_not_applying_is_not_checked(void **state)
{
	char tree[] = "/tmp/rb-tree.XXXXXX";
	struct boot_series_result *r;

	(void)state;
	assert_non_null(mkdtemp(tree));
	put(tree, "drivers/misc/foo.c",
	    "#include <linux/module.h>\nstatic int foo_init(void) { return 0; }\n"
	    "module_init(foo_init);\nMODULE_LICENSE(\"GPL\");\n");
	r = series_run(tree, NULL, drv_patch, "/nonexistent");
	assert_int_equal(r->verdict, BOOT_NOT_CHECKED);
	assert_int_equal(r->n, 0);
	assert_string_equal(r->note, "part 1's change to drivers/misc/foo.c does not apply "
			    "to [build] tree (hunk 1)");
	free(r);
	/* a file the tree does not have */
	rm_rf(tree);
	memcpy(tree + strlen(tree) - 6, "XXXXXX", 6);
	assert_non_null(mkdtemp(tree));
	r = series_run(tree, NULL, drv_patch, "/nonexistent");
	assert_int_equal(r->n, 0);
	assert_non_null(strstr(r->note, "which [build] tree does not have"));
	free(r);
	rm_rf(tree);
}

static void test_boot__series_changed_builtin_driver_is_not_loaded(void **state)
{
	char tree[] = "/tmp/rb-tree.XXXXXX", hdr[] = "/tmp/rb-hdr.XXXXXX";
	struct boot_series_result *r;

	(void)state;
	assert_non_null(mkdtemp(tree));
	assert_non_null(mkdtemp(hdr));
	put(tree, "drivers/misc/foo.c", drv);
	put(tree, "drivers/misc/Makefile", "obj-$(CONFIG_BAR)\t+= bar.o \\\n\tfoo.o\n"
	    "obj-$(CONFIG_FOO) += other.o\n");
	put(hdr, ".config", "CONFIG_FOO=y\nCONFIG_BAR=y\n");
	r = series_run(tree, hdr, drv_patch, "/nonexistent");
	assert_int_equal(r->n, 0);
	assert_string_equal(r->note,
			    "drivers/misc/foo.c is built into the [boot] kernel, not a module");
	free(r);
	/* =m: it is loaded (here refused for want of QEMU) */
	put(hdr, ".config", "CONFIG_FOO=y\nCONFIG_BAR=m\n");
	r = series_run(tree, hdr, drv_patch, "/nonexistent");
	assert_int_equal(r->n, 1);
	assert_non_null(strstr(r->note, "no qemu-system-x86_64"));
	free(r);
	rm_rf(tree);
	rm_rf(hdr);
}

static char *slurp_opt(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *b;
	size_t n;

	if (!f)
		return NULL;
	b = calloc(1, 1 << 16);
	assert_non_null(b);
	n = fread(b, 1, (1 << 16) - 1, f);
	b[n] = '\0';
	fclose(f);
	return b;
}

static void test_boot__series_changed_driver_gets_its_headers(void **state)
{
	char tree[] = "/tmp/rb-tree.XXXXXX", work[] = "/tmp/rb-work.XXXXXX", p[512];
	const char *patch =
		"diff --git a/drivers/misc/foo.c b/drivers/misc/foo.c\n"
		"--- a/drivers/misc/foo.c\n"
		"+++ b/drivers/misc/foo.c\n"
		"@@ -3,4 +3,5 @@\n"
		" static int __init foo_init(void)\n"
		" {\n"
		"+\tpr_info(\"hello %d\\n\", BAR);\n"
		" \treturn 0;\n"
		" }\n"
		"diff --git a/drivers/misc/bar.h b/drivers/misc/bar.h\n"
		"new file mode 100644\n"
		"--- /dev/null\n"
		"+++ b/drivers/misc/bar.h\n"
		"@@ -0,0 +1 @@\n"
		"+#define BAR 2\n";
	struct boot_patch bp = { 1, patch, 0 };
	struct boot_opts o;
	struct boot_series_result *r = calloc(1, sizeof(*r));
	char *t;

	(void)state;
	assert_non_null(r);
	assert_non_null(mkdtemp(tree));
	assert_non_null(mkdtemp(work));
	put(tree, "drivers/misc/foo.c", drv);
	put(tree, "drivers/misc/foo.h", "#include \"foo-regs.h\"\n");
	put(tree, "drivers/misc/foo-regs.h", "#define REG 1\n");
	put(tree, "drivers/misc/unrelated.h", "#define U 1\n");
	bp.len = strlen(patch);
	memset(&o, 0, sizeof(o));
	o.kernel = "tests/boot/console/clean.console";
	o.headers = work;		/* no kbuild Makefile: the build fails */
	o.work = work;
	o.tree = tree;
	o.qemu = "/bin/true";		/* never reached */
	o.busybox = "tests/boot/console/clean.console";
	assert_int_equal(boot_series(&o, &bp, 1, r), 0);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->verdict, BOOT_NOT_CHECKED);
	assert_string_equal(r->note, "the module does not build alone against the headers");
	assert_string_equal(r->file[0], "drivers/misc/foo.c");
	/* the tree's text with the hunk, the series' header, the tree's
	 * headers it includes (and they include), no other */
	snprintf(p, sizeof(p), "%s/mod/foo.c", work);
	t = slurp_opt(p);
	assert_non_null(t);
	assert_non_null(strstr(t, "{\n\tpr_info(\"hello %d\\n\", BAR);\n\treturn 0;\n"));
	assert_non_null(strstr(t, "MODULE_LICENSE"));
	free(t);
	snprintf(p, sizeof(p), "%s/mod/bar.h", work);
	t = slurp_opt(p);
	assert_non_null(t);
	assert_string_equal(t, "#define BAR 2\n");
	free(t);
	snprintf(p, sizeof(p), "%s/mod/foo-regs.h", work);
	t = slurp_opt(p);
	assert_non_null(t);
	free(t);
	snprintf(p, sizeof(p), "%s/mod/foo.h", work);
	assert_int_equal(access(p, R_OK), 0);
	snprintf(p, sizeof(p), "%s/mod/unrelated.h", work);
	assert_int_not_equal(access(p, F_OK), 0);
	free(r);
	/* a mode change alone tests nothing */
	r = series_run(tree, NULL,
		       "diff --git a/drivers/misc/foo.c b/drivers/misc/foo.c\n"
		       "old mode 100644\nnew mode 100755\n", "/nonexistent");
	assert_int_equal(r->n, 0);
	assert_non_null(strstr(r->note, "adds no module"));
	free(r);
	rm_rf(tree);
	rm_rf(work);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot__clean_console_is_ok),
		cmocka_unit_test(test_boot__null_deref_in_init_is_oops_with_lines),
		cmocka_unit_test(test_boot__failed_init_is_load_failed),
		cmocka_unit_test(test_boot__warning_after_marker_is_finding),
		cmocka_unit_test(test_boot__warning_before_marker_is_not_blamed),
		cmocka_unit_test(test_boot__kasan_and_lockdep_are_typed),
		cmocka_unit_test(test_boot__hang_is_finding),
		cmocka_unit_test(test_boot__markers_on_the_console_are_not_believed),
		cmocka_unit_test(test_boot__marks_with_another_nonce_are_ignored),
		cmocka_unit_test(test_boot__fake_markers_then_bug_is_oops),
		cmocka_unit_test(test_boot__bug_after_done_is_concern),
		cmocka_unit_test(test_boot__quoted_console_is_capped),
		cmocka_unit_test(test_boot__no_marker_is_not_checked),
		cmocka_unit_test(test_boot__unload_failure_is_finding),
		cmocka_unit_test(test_boot__module_source_detection),
		cmocka_unit_test(test_boot__refuses_without_qemu),
		cmocka_unit_test(test_boot__check_names_what_is_missing),
		cmocka_unit_test(test_boot__series_without_new_module_is_not_checked),
		cmocka_unit_test(test_boot__series_new_module_without_qemu_says_so),
		cmocka_unit_test(test_boot__series_module_reading_host_files_is_not_built),
		cmocka_unit_test(test_boot__series_incbin_the_compiler_joins_is_not_built),
		cmocka_unit_test(test_boot__series_literals_that_make_no_incbin_are_built),
		cmocka_unit_test(test_boot__unknown_symbol_is_not_checked),
		cmocka_unit_test(test_boot__apply_at_exact_position),
		cmocka_unit_test(test_boot__apply_finds_moved_lines_at_an_offset),
		cmocka_unit_test(test_boot__apply_refuses_a_hunk_that_does_not_match),
		cmocka_unit_test(test_boot__apply_several_hunks_carry_the_offset),
		cmocka_unit_test(test_boot__apply_keeps_no_newline_at_end),
		cmocka_unit_test(test_boot__apply_deleting_hunk),
		cmocka_unit_test(test_boot__tree_read_refuses_paths_leaving_the_tree),
		cmocka_unit_test(test_boot__series_changed_driver_without_tree_says_so),
		cmocka_unit_test(test_boot__series_changed_driver_is_applied_to_the_tree),
		cmocka_unit_test(test_boot__series_changed_driver_not_applying_is_not_checked),
		cmocka_unit_test(test_boot__series_changed_builtin_driver_is_not_loaded),
		cmocka_unit_test(test_boot__series_changed_driver_gets_its_headers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

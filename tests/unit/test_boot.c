// SPDX-License-Identifier: GPL-2.0-only
/*
 * The QEMU load stage's parts that need no QEMU: reading a serial
 * console (fixtures in tests/boot/console/ are real consoles of
 * tests/boot/test_boot.sh's modules), telling a module source, finding
 * the modules a series adds, and refusing without QEMU.  The boots
 * themselves are tests/boot/test_boot.sh (make boot-tests).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../bot/boot.h"

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

static void parse_file(const char *path, const char *mod, struct boot_result *r)
{
	size_t len;
	char *b = slurp(path, &len);

	memset(r, 0, sizeof(*r));
	snprintf(r->module, sizeof(r->module), "%s", mod);
	boot_parse_console(b, len, mod, r);
	free(b);
}

static void parse_str(const char *s, struct boot_result *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->module, sizeof(r->module), "m");
	boot_parse_console(s, strlen(s), "m", r);
}

static void test_boot__clean_console_is_ok(void **state)
{
	struct boot_result r;

	(void)state;
	parse_file("tests/boot/console/clean.log", "rbclean", &r);
	assert_int_equal(r.verdict, BOOT_OK);
	assert_string_equal(r.note, "loads and unloads cleanly in QEMU (no hardware present)");
	assert_string_equal(r.message, "");
}

static void test_boot__null_deref_in_init_is_oops_with_lines(void **state)
{
	struct boot_result r;
	char sum[512];

	(void)state;
	parse_file("tests/boot/console/oops.log", "rboops", &r);
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
	parse_file("tests/boot/console/fail.log", "rbfail", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_FAILED");
	assert_non_null(strstr(r.message, "No such device"));
}

static void test_boot__warning_after_marker_is_finding(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str("[ 1.0] WARNING: CPU: 0 PID: 1 at boot.c:1 boot_thing\n"
		  "RB-LOAD-START\r\n"
		  "[ 3.1] WARNING: CPU: 0 PID: 85 at m.c:12 m_init+0x1/0x2 [m]\r\n"
		  "RB-INSMOD-RC=0\r\nRB-RMMOD-RC=0\r\nRB-DONE\r\n", &r);
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
	parse_str("[ 1.0] WARNING: CPU: 0 PID: 1 at boot.c:1 boot_thing\n"
		  "RB-LOAD-START\nRB-INSMOD-RC=0\nRB-RMMOD-RC=0\nRB-DONE\n", &r);
	assert_int_equal(r.verdict, BOOT_OK);
}

static void test_boot__kasan_and_lockdep_are_typed(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str("RB-LOAD-START\n[ 2.0] BUG: KASAN: slab-out-of-bounds in m_init\n"
		  "RB-INSMOD-RC=0\nRB-RMMOD-RC=0\nRB-DONE\n", &r);
	assert_string_equal(r.type, "MODULE_LOAD_KASAN");
	parse_str("RB-LOAD-START\n[ 2.0] WARNING: possible circular locking dependency detected\n"
		  "RB-INSMOD-RC=0\nRB-RMMOD-RC=0\nRB-DONE\n", &r);
	assert_string_equal(r.type, "MODULE_LOAD_LOCKDEP");
}

static void test_boot__hang_is_finding(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str("RB-LOAD-START\nRB-HANG insmod\nRB-DONE\n", &r);
	assert_int_equal(r.verdict, BOOT_CONCERN);
	assert_string_equal(r.type, "MODULE_LOAD_HANG");
	/* the console stops after the marker: the guest died in the load */
	parse_str("RB-LOAD-START\n[ 2.0] rcu: INFO: rcu_sched self-detected stall\n", &r);
	assert_string_equal(r.type, "MODULE_LOAD_HANG");
}

static void test_boot__no_marker_is_not_checked(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str("[ 0.1] Kernel panic - not syncing: VFS: Unable to mount root fs\n", &r);
	assert_int_equal(r.verdict, BOOT_NOT_CHECKED);
	assert_string_equal(r.type, "");
	assert_non_null(strstr(r.note, "did not boot"));
}

static void test_boot__unload_failure_is_finding(void **state)
{
	struct boot_result r;

	(void)state;
	parse_str("RB-LOAD-START\nRB-INSMOD-RC=0\nrmmod: can't unload module 'm': Device or resource busy\n"
		  "RB-RMMOD-RC=1\nRB-DONE\n", &r);
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
	o.kernel = "tests/boot/console/clean.log";
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
		cmocka_unit_test(test_boot__no_marker_is_not_checked),
		cmocka_unit_test(test_boot__unload_failure_is_finding),
		cmocka_unit_test(test_boot__module_source_detection),
		cmocka_unit_test(test_boot__refuses_without_qemu),
		cmocka_unit_test(test_boot__check_names_what_is_missing),
		cmocka_unit_test(test_boot__series_without_new_module_is_not_checked),
		cmocka_unit_test(test_boot__series_new_module_without_qemu_says_so),
		cmocka_unit_test(test_boot__series_module_reading_host_files_is_not_built),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compile stage: reading the tools' words (bot/stage/build_diag.c),
 * placing them in their function, comparing before and after, typing
 * them; and the whole flow on a small fake kernel tree with the real
 * git, make and cc (tests/build/ build real kernel trees).
 */
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../bot/stage/build.h"
#include "../../bot/stage/build_diag.h"
#include "../../checker/banned.h"

static void parse(enum diag_tool tool, const char *text, struct diag_list *l)
{
	memset(l, 0, sizeof(*l));
	assert_int_equal(diag_parse(tool, text, strlen(text), "/w/src/", NULL, 0, l), 0);
}

/* ---- the tools' words ----------------------------------------------------- */

static void test_build__gcc_lines_keep_file_line_words_and_option(void **state)
{
	const char *l = "/w/src/drivers/misc/dummy-irq.c:28:17: error: implicit "
			"declaration of function 'foo' [-Werror=implicit-function-declaration]";
	const char *file, *msg;
	size_t fl, ml;
	long ln;
	int err = -1;
	struct diag_list dl;

	(void)state;
	assert_int_equal(diag_parse_line(l, strlen(l), &file, &fl, &ln, &err, &msg, &ml), 1);
	assert_int_equal(ln, 28);
	assert_int_equal(err, 1);
	parse(DIAG_GCC, l, &dl);
	assert_int_equal(dl.n, 1);
	assert_string_equal(dl.d[0].file, "drivers/misc/dummy-irq.c");
	assert_int_equal(dl.d[0].line, 28);
	assert_string_equal(dl.d[0].msg, "implicit declaration of function 'foo'");
	assert_string_equal(dl.d[0].opt, "-Werror=implicit-function-declaration");
	assert_string_equal(diag_type(&dl.d[0], NULL), "COMPILE_ERROR");
	diag_list_release(&dl);

	/* without a column, "./", CR; gcc's quotes in a UTF-8 locale */
	parse(DIAG_GCC, "./include/linux/x.h:7: warning: unused variable \xe2\x80\x98" "a"
		        "\xe2\x80\x99 [-Wunused-variable]\r\n", &dl);
	assert_int_equal(dl.n, 1);
	assert_string_equal(dl.d[0].file, "include/linux/x.h");
	assert_string_equal(dl.d[0].msg, "unused variable 'a'");
	assert_string_equal(diag_type(&dl.d[0], NULL), "COMPILE_WARNING");
	diag_list_release(&dl);
}

static void test_build__only_the_trees_files_and_only_diagnostics(void **state)
{
	struct diag_list dl;

	(void)state;
	/* notes, make's words, a Makefile's $(warning) without a line, and
	 * files outside the tree are never kept */
	parse(DIAG_GCC,
	      "drivers/a.c:3:1: note: declared here\n"
	      "make[2]: *** [scripts/Makefile.build:250: drivers/a.o] Error 1\n"
	      "  CC      drivers/a.o\n"
	      "drivers/misc/Makefile:3: CPU: Intel Xeon, 23 GiB, /usr/local: secret\n"
	      "/etc/passwd:1:5: error: expected ';' before ':' token\n"
	      "../../etc/shadow:1:1: error: unknown type name 'root'\n"
	      "/w/src/../x.c:1:1: warning: x\n"
	      "a.c:12:\n\n", &dl);
	assert_int_equal(dl.n, 0);
	assert_int_equal(dl.dropped, 3);
	diag_list_release(&dl);
}

static void test_build__function_context_and_inlined_headers(void **state)
{
	struct diag_list dl;

	(void)state;
	parse(DIAG_GCC,
	      "/w/src/drivers/misc/dummy-irq.c: In function 'dummy_interrupt':\n"
	      "/w/src/drivers/misc/dummy-irq.c:23:13: warning: unused variable 'last_irq' "
	      "[-Wunused-variable]\n"
	      "In file included from /w/src/include/linux/string.h:253,\n"
	      "/w/src/include/linux/fortify-string.h: In function 'strcpy',\n"
	      "    inlined from 'rb_copy' at /w/src/drivers/misc/dummy-irq.c:73:2:\n"
	      "/w/src/include/linux/fortify-string.h:604:17: error: call to '__write_overflow' "
	      "declared with attribute error: detected write beyond size of object "
	      "(1st parameter)\n"
	      "/w/src/include/linux/fortify-string.h: In function 'memset',\n"
	      "/w/src/include/linux/fortify-string.h:500:5: warning: 'x' may be used "
	      "uninitialized [-Wmaybe-uninitialized]\n", &dl);
	assert_int_equal(dl.n, 3);
	assert_string_equal(dl.d[0].func, "dummy_interrupt");
	/* the header's error is the .c's that inlined it */
	assert_string_equal(dl.d[1].file, "drivers/misc/dummy-irq.c");
	assert_int_equal(dl.d[1].line, 73);
	assert_string_equal(dl.d[1].func, "rb_copy");
	assert_non_null(strstr(dl.d[1].msg, "(in include/linux/fortify-string.h)"));
	assert_string_equal(diag_type(&dl.d[1], NULL), "COMPILE_BOUNDS");
	/* a new "In function" starts a new chain: this one stays the header's */
	assert_string_equal(dl.d[2].file, "include/linux/fortify-string.h");
	assert_string_equal(dl.d[2].func, "memset");
	diag_list_release(&dl);
}

static void test_build__sparse_address_spaces_are_security(void **state)
{
	struct diag_list dl;

	(void)state;
	parse(DIAG_SPARSE,
	      "/w/src/drivers/x.c:5:9: warning: incorrect type in argument 1 (different "
	      "address spaces)\n"
	      "/w/src/drivers/x.c:5:9:    expected void const volatile [noderef] __user *\n"
	      "/w/src/drivers/x.c:5:9:    got int *p\n"
	      "/w/src/drivers/x.c:9:17: warning: dereference of noderef expression\n"
	      "/w/src/drivers/x.c:12:9: warning: context imbalance in 'f' - wrong count at "
	      "exit\n", &dl);
	assert_int_equal(dl.n, 3);
	assert_non_null(strstr(dl.d[0].msg, "expected void const volatile [noderef] __user *"));
	assert_non_null(strstr(dl.d[0].msg, "got int *p"));
	assert_string_equal(diag_type(&dl.d[0], NULL), "COMPILE_SPARSE_ADDRESS_SPACE");
	assert_string_equal(diag_type(&dl.d[1], NULL), "COMPILE_SPARSE_ADDRESS_SPACE");
	assert_string_equal(diag_type(&dl.d[2], NULL), "COMPILE_SPARSE");
	diag_list_release(&dl);
}

static void test_build__analyzer_is_certain_on_a_path_through_added_lines(void **state)
{
	const char *diff = "diff --git a/drivers/x.c b/drivers/x.c\n--- a/drivers/x.c\n"
			   "+++ b/drivers/x.c\n@@ -60,0 +61,2 @@\n+a\n+b\n"
			   "@@ -80 +82 @@\n-c\n+d\n";
	struct diag_added added = { 0 };
	struct diag_list dl;

	(void)state;
	assert_int_equal(diag_added_parse(diff, strlen(diff), &added), 0);
	assert_true(diag_added_has(&added, "drivers/x.c", 61));
	assert_true(diag_added_has(&added, "drivers/x.c", 62));
	assert_false(diag_added_has(&added, "drivers/x.c", 63));
	assert_true(diag_added_has(&added, "drivers/x.c", 82));
	assert_false(diag_added_has(&added, "drivers/y.c", 61));
	parse(DIAG_ANALYZER,
	      "/w/src/drivers/x.c: In function 'f':\n"
	      "/w/src/drivers/x.c:70:17: warning: dereference of NULL 't' [CWE-476] "
	      "[-Wanalyzer-null-dereference]\n"
	      "/w/src/drivers/x.c:62:12: note: (1) following 'false' branch...\n"
	      "/w/src/drivers/x.c:70:17: note: (2) dereference of NULL 't'\n"
	      "/w/src/drivers/x.c:90:17: warning: dereference of NULL 'u' [CWE-476] "
	      "[-Wanalyzer-null-dereference]\n"
	      "/w/src/drivers/x.c:95:3: warning: unused variable 'z' [-Wunused-variable]\n",
	      &dl);
	/* the W=1 warning is gcc's run's, not the analyzer's */
	assert_int_equal(dl.n, 2);
	assert_string_equal(dl.d[0].msg, "dereference of NULL 't'");
	assert_string_equal(dl.d[0].func, "f");
	assert_int_equal(dl.d[0].npath, 2);
	assert_string_equal(diag_type(&dl.d[0], &added), "COMPILE_ANALYZER");
	assert_string_equal(diag_type(&dl.d[1], &added), "COMPILE_ANALYZER_QUESTION");
	diag_list_release(&dl);
	diag_added_release(&added);
}

static void test_build__coccinelle_reports_and_modpost(void **state)
{
	struct diag_list dl;

	(void)state;
	memset(&dl, 0, sizeof(dl));
	assert_int_equal(diag_parse(DIAG_COCCI,
				    "/w/src/drivers/x.c:41:1-7: ERROR: missing kfree on error path\n"
				    "init_defs_builtins: /usr/lib/coccinelle/standard.h\n"
				    "/etc/x.c:1:1-2: ERROR: outside\n", 86, "/w/src/",
				    "free/kfree", 1, &dl), 0);
	assert_int_equal(dl.n, 1);
	assert_string_equal(dl.d[0].script, "free/kfree");
	assert_int_equal(dl.d[0].line, 41);
	assert_string_equal(diag_type(&dl.d[0], NULL), "COMPILE_COCCI");
	dl.d[0].script_high = 0;
	assert_string_equal(diag_type(&dl.d[0], NULL), "COMPILE_COCCI_QUESTION");
	diag_list_release(&dl);

	/* modpost: about a module of the series, never "undefined!" (no
	 * vmlinux is built, so every symbol would be) */
	parse(DIAG_GCC,
	      "WARNING: modpost: \"_printk\" [drivers/misc/dummy-irq.ko] undefined!\n"
	      "WARNING: modpost: missing MODULE_LICENSE() in drivers/misc/foo.o\n"
	      "WARNING: modpost: suppressed 1 unresolved symbol warnings\n", &dl);
	assert_int_equal(dl.n, 1);
	assert_string_equal(dl.d[0].file, "drivers/misc/foo.c");
	assert_true(dl.d[0].modpost);
	assert_string_equal(diag_type(&dl.d[0], NULL), "COMPILE_MODPOST");
	diag_list_release(&dl);
}

/* ---- functions, comparison, the cache's lines ------------------------------ */

static const char csrc[] =
	"#include <linux/x.h>\n"			/* 1 */
	"static const struct of_device_id ids[] = {\n"	/* 2 */
	"\t{ .compatible = \"a,b\" },\n"		/* 3 */
	"\t{ }\n"					/* 4 */
	"};\n"						/* 5 */
	"/* a comment { with braces } */\n"		/* 6 */
	"static int __init foo_init(void)\n"		/* 7 */
	"{\n"						/* 8 */
	"\tconst char *s = \"}\";\n"			/* 9 */
	"\tif (s) {\n"					/* 10 */
	"\t\treturn 1;\n"				/* 11 */
	"\t}\n"						/* 12 */
	"\treturn 0;\n"					/* 13 */
	"}\n"						/* 14 */
	"#define X(a) \\\n"				/* 15 */
	"\t{ a }\n"					/* 16 */
	"static __printf(2, 3) int bar(int x, const char *f, ...)\n"	/* 17 */
	"{\n"						/* 18 */
	"\treturn x;\n"					/* 19 */
	"}\n";						/* 20 */

static void test_build__function_of_a_line(void **state)
{
	char f[DIAG_FUNC_MAX];

	(void)state;
	diag_function_at(csrc, strlen(csrc), 3, f, sizeof(f));
	assert_string_equal(f, "");
	diag_function_at(csrc, strlen(csrc), 11, f, sizeof(f));
	assert_string_equal(f, "foo_init");
	diag_function_at(csrc, strlen(csrc), 13, f, sizeof(f));
	assert_string_equal(f, "foo_init");
	diag_function_at(csrc, strlen(csrc), 16, f, sizeof(f));
	assert_string_equal(f, "");
	diag_function_at(csrc, strlen(csrc), 19, f, sizeof(f));
	assert_string_equal(f, "bar");
}

static struct diag mk(const char *file, long line, const char *func, const char *msg)
{
	struct diag d;

	memset(&d, 0, sizeof(d));
	d.tool = DIAG_GCC;
	snprintf(d.file, sizeof(d.file), "%s", file);
	d.line = line;
	snprintf(d.func, sizeof(d.func), "%s", func);
	snprintf(d.msg, sizeof(d.msg), "%s", msg);
	return d;
}

static void test_build__new_means_after_and_not_before_whatever_the_lines(void **state)
{
	struct diag_list before = { 0 }, after = { 0 }, fresh = { 0 };
	struct diag d;
	size_t kept;

	(void)state;
	/* the base's warning, moved by the series (lines 10 -> 14) */
	d = mk("drivers/x.c", 10, "f", "unused variable 'old'");
	diag_list_add(&before, &d);
	d = mk("drivers/x.c", 14, "f", "unused variable 'old'");
	diag_list_add(&after, &d);
	/* the same words in another function: new */
	d = mk("drivers/x.c", 30, "g", "unused variable 'old'");
	diag_list_add(&after, &d);
	/* a header's warning, once per object that includes it: once */
	d = mk("include/x.h", 3, "", "'z' defined but not used");
	diag_list_add(&before, &d);
	diag_list_add(&after, &d);
	diag_list_add(&after, &d);
	/* "line N" in the words is a place too */
	d = mk("drivers/x.c", 40, "h", "preceding lock on line 12");
	diag_list_add(&before, &d);
	d = mk("drivers/x.c", 44, "h", "preceding lock on line 16");
	diag_list_add(&after, &d);
	assert_int_equal(diag_compare(&before, &after, NULL, &fresh, &kept), 0);
	assert_int_equal(fresh.n, 1);
	assert_string_equal(fresh.d[0].func, "g");
	assert_int_equal(kept, 3);
	diag_list_release(&fresh);

	/* twice before, three times after: one new */
	d = mk("drivers/x.c", 50, "k", "cast to pointer from integer of different size");
	diag_list_add(&before, &d);
	d.line = 51;
	diag_list_add(&before, &d);
	d.line = 60;
	diag_list_add(&after, &d);
	d.line = 61;
	diag_list_add(&after, &d);
	d.line = 62;
	diag_list_add(&after, &d);
	assert_int_equal(diag_compare(&before, &after, NULL, &fresh, &kept), 0);
	assert_int_equal(fresh.n, 2);	/* g's, and one of k's */
	diag_list_release(&fresh);
	diag_list_release(&before);
	diag_list_release(&after);
}

static void test_build__cache_lines_round_trip_and_refuse_bad_files(void **state)
{
	struct diag d = mk("drivers/x.c", 7, "f", "a\tb"), back;
	char line[1024];

	(void)state;
	d.tool = DIAG_ANALYZER;
	d.path[0] = 3;
	d.path[1] = 7;
	d.npath = 2;
	snprintf(d.opt, sizeof(d.opt), "-Wanalyzer-null-dereference");
	snprintf(d.msg, sizeof(d.msg), "dereference of NULL 't'");
	assert_int_equal(diag_serialize(&d, line, sizeof(line)), 0);
	assert_int_equal(diag_deserialize(line, strlen(line), &back), 0);
	assert_int_equal(back.tool, DIAG_ANALYZER);
	assert_string_equal(back.file, "drivers/x.c");
	assert_int_equal(back.line, 7);
	assert_string_equal(back.func, "f");
	assert_string_equal(back.msg, "dereference of NULL 't'");
	assert_int_equal(back.npath, 2);
	assert_int_equal(back.path[1], 7);
	{
		const char *bad = "0\t0\t0\t/etc/passwd\t1\t\t\t\t0\t\tx\n";

		assert_int_equal(diag_deserialize(bad, strlen(bad), &back), -1);
	}
	assert_int_equal(diag_deserialize("9\t0\n", 4, &back), -1);
}

static void test_build__finds_base_commit_and_prerequisites(void **state)
{
	const char *t = "text\n\nbase-commit: 0123456789abcdef0123456789abcdef01234567\n"
			"prerequisite-patch-id: 1111111111111111111111111111111111111111\n"
			"prerequisite-patch-id: 2222222222222222222222222222222222222222\n"
			"-- \n2.39.5\n";
	const char *bad = "base-commit: xyz\nbase-commit: 12ab\n";
	char out[64];

	(void)state;
	assert_int_equal(build_base_commit(t, strlen(t), out, sizeof(out)), 1);
	assert_string_equal(out, "0123456789abcdef0123456789abcdef01234567");
	assert_int_equal(build_base_commit(bad, strlen(bad), out, sizeof(out)), 0);
	assert_int_equal(build_base_commit(t, strlen(t), out, 8), 0);
	assert_int_equal(build_prerequisites(t, strlen(t)), 2);
	assert_int_equal(build_prerequisites(bad, strlen(bad)), 0);
}

static void test_build__off_without_tree(void **state)
{
	struct config c;
	struct config_tree t;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(build_enabled(&c), 0);
	assert_int_equal(build_enabled(NULL), 0);
	c.build_tree = "/nonexistent";
	assert_int_equal(build_enabled(&c), 1);
	c.build_tree = NULL;
	memset(&t, 0, sizeof(t));
	c.trees = &t;
	c.ntrees = 1;
	assert_int_equal(build_enabled(&c), 1);
}

/* ---- the whole flow on a fake tree -------------------------------------------- */

/*
 * A fake kernel tree: a Makefile with the kernel's version lines and its
 * targets (config, modules_prepare, path/file.o built by cc with the
 * warnings on), scripts/config, and one driver that already has a
 * warning.  The whole flow runs on it in seconds: the import into the
 * repository, git am, the two builds, the comparison, the reset.
 */
static const char fake_makefile[] =
	"VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\n"
	"allmodconfig olddefconfig:\n\t@echo CONFIG_WERROR=y > $(O)/.config\n"
	"modules_prepare:\n\t@true\n"
	"%.o: %.c\n\t@mkdir -p $(dir $(O)/$@)\n"
	"\t@if [ -f slow ]; then sleep 30; fi\n"
	"\t@cc -Wall -c -o $(O)/$@ $<\n";

static const char fake_driver[] =
	"int drv_probe(void);\n"
	"int drv_probe(void)\n"
	"{\n"
	"\tint old_unused;\n"
	"\treturn 0;\n"
	"}\n";

struct fake {
	char dir[64];
	char tree[128];
	struct config cfg;
};

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static char *read_all(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static int fake_setup(void **state)
{
	struct fake *fk = calloc(1, sizeof(*fk));
	char path[256];

	assert_non_null(fk);
	snprintf(fk->dir, sizeof(fk->dir), "/tmp/rb-build-XXXXXX");
	assert_non_null(mkdtemp(fk->dir));
	/* the sandbox's user (nobody, when the tests run as root) reads it */
	assert_int_equal(chmod(fk->dir, 0755), 0);
	snprintf(fk->tree, sizeof(fk->tree), "%s/linux", fk->dir);
	assert_int_equal(mkdir(fk->tree, 0755), 0);
	snprintf(path, sizeof(path), "%s/Makefile", fk->tree);
	write_file(path, fake_makefile, 0644);
	snprintf(path, sizeof(path), "%s/scripts", fk->tree);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/scripts/config", fk->tree);
	write_file(path, "#!/bin/sh\nexit 0\n", 0755);
	snprintf(path, sizeof(path), "%s/drivers", fk->tree);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/drivers/drv.c", fk->tree);
	write_file(path, fake_driver, 0644);
	fk->cfg.build_tree = fk->tree;
	fk->cfg.build_config = "allmodconfig";
	fk->cfg.build_jobs = 1;
	fk->cfg.build_timeout = 60;
	fk->cfg.build_tools = "gcc";
	fk->cfg.build_max_memory_mb = 1024;
	fk->cfg.build_max_tasks = 256;
	fk->cfg.build_max_disk_mb = 256;
	fk->cfg.build_tmp_mb = 32;
	*state = fk;
	return 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int fake_teardown(void **state)
{
	struct fake *fk = *state;

	nftw(fk->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(fk);
	return 0;
}

/* A mail git am takes: headers, a message, the diff. */
static const char *mail_of(const char *diff)
{
	static char buf[8192];

	snprintf(buf, sizeof(buf),
		 "From: A Dev <a@example.org>\nSubject: [PATCH] drv: a change\n"
		 "Date: Thu, 3 Dec 2026 10:00:00 +0000\n\nA change.\n\n"
		 "Signed-off-by: A Dev <a@example.org>\n---\n%s-- \n2.39.5\n", diff);
	return buf;
}

/* One patch to drivers/drv.c replacing the line "\tint old_unused;" */
static const char *patch_replacing(const char *with)
{
	static char diff[1024];
	int lines = 5;
	const char *p;

	for (p = with; *p; p++)
		lines += *p == '\n';
	snprintf(diff, sizeof(diff),
		 "diff --git a/drivers/drv.c b/drivers/drv.c\n"
		 "--- a/drivers/drv.c\n+++ b/drivers/drv.c\n"
		 "@@ -2,5 +2,%d @@\n int drv_probe(void)\n {\n"
		 "-\tint old_unused;\n+%s\n \treturn 0;\n }\n", lines, with);
	return mail_of(diff);
}

static void run_series(struct fake *fk, struct build_patch *p, size_t n, struct build_result *r)
{
	struct build_info info;
	char path[256];

	memset(&info, 0, sizeof(info));
	assert_int_equal(build_series(&fk->cfg, 0, p, n, &info, r), 0);
	/* the tree it came from was never written */
	snprintf(path, sizeof(path), "%s/drivers/drv.c", fk->tree);
	assert_string_equal(read_all(path), fake_driver);
	snprintf(path, sizeof(path), "%s/drivers/new.c", fk->tree);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/.git", fk->tree);
	assert_int_equal(access(path, F_OK), -1);
	/* the work tree the series went to is back at the base */
	snprintf(path, sizeof(path), "%s.reviewbot/w0/src/drivers/drv.c", fk->tree);
	assert_string_equal(read_all(path), fake_driver);
	snprintf(path, sizeof(path), "%s.reviewbot/w0/src/drivers/new.c", fk->tree);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s.reviewbot/w0/src/slow", fk->tree);
	assert_int_equal(access(path, F_OK), -1);
}

static void run_one(struct fake *fk, const char *mail, struct build_result *r)
{
	struct build_patch p = { 1, NULL, 0, mail, strlen(mail) };

	/* the body: what follows the headers */
	p.text = strstr(mail, "\n\n");
	p.text = p.text ? p.text + 2 : mail;
	p.len = strlen(p.text);
	run_series(fk, &p, 1, r);
}

static void test_build__fake_tree_whole_flow(void **state)
{
	struct fake *fk = *state;
	struct build_result r;
	char path[512];
	const char *add_new =
		"diff --git a/drivers/new.c b/drivers/new.c\nnew file mode 100644\n"
		"--- /dev/null\n+++ b/drivers/new.c\n@@ -0,0 +1,2 @@\n"
		"+int new_fn(void);\n+int new_fn(void) { return 1 }\n";

	/* the existing warning stays the tree's, not the patch's */
	run_one(fk, patch_replacing("\tint old_unused; /* still */"), &r);
	if (r.verdict != BUILD_OK)
		fail_msg("not ok: %s", r.note);
	assert_int_equal(r.nissues, 0);
	assert_int_equal(r.objects, 1);
	assert_int_equal(r.before, 1);
	assert_non_null(strstr(r.note, "on linux 6.1.99 ([build] tree) (allmodconfig, gcc "));
	assert_non_null(r.details);
	if (!strstr(r.details, "make O=obj W=1 drivers/drv.o"))
		fail_msg("details: %s", r.details);
	assert_non_null(strstr(r.details, "1 diagnostic in the files it touches was there"));
	build_result_release(&r);
	/* the base's result is kept for the next series on it */
	snprintf(path, sizeof(path), "%s.reviewbot/cache", fk->tree);
	assert_int_equal(access(path, F_OK), 0);

	/* a new warning, with file:line and the line; the base's from the cache */
	run_one(fk, patch_replacing("\tint old_unused;\n+\tint new_unused;"), &r);
	assert_int_equal(r.verdict, BUILD_CONCERN);
	assert_int_equal(r.nissues, 1);
	assert_int_equal(r.base_cached, 1);
	assert_int_equal(r.issues[0].error, 0);
	assert_string_equal(r.issues[0].type, "COMPILE_WARNING");
	assert_string_equal(r.issues[0].file, "drivers/drv.c");
	assert_int_equal(r.issues[0].line, 5);
	assert_non_null(strstr(r.issues[0].message, "gcc W=1: unused variable 'new_unused'"));
	assert_string_equal(r.issues[0].line_text, "\tint new_unused;");
	assert_non_null(strstr(r.note, "1 new warning on linux 6.1.99"));
	build_result_release(&r);

	/* an error in a file the series adds (removed again by the reset) */
	run_one(fk, mail_of(add_new), &r);
	assert_int_equal(r.verdict, BUILD_CONCERN);
	assert_true(r.nissues >= 1);
	assert_int_equal(r.issues[0].error, 1);
	assert_string_equal(r.issues[0].file, "drivers/new.c");
	assert_non_null(strstr(r.note, "error"));
	build_result_release(&r);

	/* a series for another tree: not checked, never a finding, and
	 * where it fails is said */
	run_one(fk, mail_of("diff --git a/drivers/drv.c b/drivers/drv.c\n--- a/drivers/drv.c\n"
			    "+++ b/drivers/drv.c\n@@ -1,2 +1,2 @@\n-int nothing_like_this(void);\n"
			    "+int x(void);\n int drv_probe(void)\n"), &r);
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_int_equal(r.nissues, 0);
	if (!strstr(r.note, "does not apply to linux 6.1.99 ([build] tree): patch 1, "
			    "drivers/drv.c hunk 1 (line 1)"))
		fail_msg("note: %s", r.note);
	build_result_release(&r);

	/* a series applies patch after patch; the finding goes to the part
	 * that touched the file last */
	{
		struct build_patch two[2];
		char first[4096], second[4096];

		snprintf(first, sizeof(first), "%s", patch_replacing("\tint renamed;"));
		snprintf(second, sizeof(second), "%s", mail_of(
			 "diff --git a/drivers/drv.c b/drivers/drv.c\n--- a/drivers/drv.c\n"
			 "+++ b/drivers/drv.c\n@@ -3,4 +3,4 @@\n {\n-\tint renamed;\n"
			 "+\tint renamed_again;\n \treturn 0;\n }\n"));
		two[0] = (struct build_patch){ 1, strstr(first, "\n\n") + 2, 0, first,
					       strlen(first) };
		two[0].len = strlen(two[0].text);
		two[1] = (struct build_patch){ 2, strstr(second, "\n\n") + 2, 0, second,
					       strlen(second) };
		two[1].len = strlen(two[1].text);
		run_series(fk, two, 2, &r);
		assert_int_equal(r.verdict, BUILD_CONCERN);
		assert_int_equal(r.nissues, 1);
		assert_int_equal(r.issues[0].part, 2);
		assert_non_null(strstr(r.issues[0].message, "'renamed_again'"));
		build_result_release(&r);
	}

	/* a symbolic link could lead the compiler out of the tree */
	run_one(fk, mail_of("diff --git a/drivers/l.c b/drivers/l.c\nnew file mode 120000\n"
			    "--- /dev/null\n+++ b/drivers/l.c\n@@ -0,0 +1 @@\n+/etc/passwd\n"
			    "\\ No newline at end of file\n"), &r);
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_non_null(strstr(r.note, "symbolic link"));
	build_result_release(&r);

	/* a header under include/ alone: nothing is built, nothing said ok */
	run_one(fk, mail_of("diff --git a/include/x.h b/include/x.h\nnew file mode 100644\n"
			    "--- /dev/null\n+++ b/include/x.h\n@@ -0,0 +1 @@\n+int x;\n"), &r);
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_non_null(strstr(r.note, "nothing built"));
	build_result_release(&r);

	/* nothing to compile */
	run_one(fk, mail_of("diff --git a/README b/README\nnew file mode 100644\n"
			    "--- /dev/null\n+++ b/README\n@@ -0,0 +1 @@\n+hello\n"), &r);
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_non_null(strstr(r.note, "changes no C file"));
	build_result_release(&r);

	/* a build past the timeout (the series adds the file that makes the
	 * fake tree's build sleep): killed, not checked */
	{
		char slow[4096];
		const char *m = patch_replacing("\tint broken;");
		const char *diff = strstr(m, "---\ndiff") + 4;

		snprintf(slow, sizeof(slow), "%.*sdiff --git a/slow b/slow\nnew file mode 100644\n"
			 "index 0000000..e69de29\n", (int)(strstr(diff, "-- \n") - diff), diff);
		fk->cfg.build_timeout = 3;
		run_one(fk, mail_of(slow), &r);
	}
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_int_equal(r.nissues, 0);
	assert_non_null(strstr(r.note, "timed out"));
	build_result_release(&r);
}

static void test_build__missing_tree_is_not_checked(void **state)
{
	const char *diff = "diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n"
			   "@@ -1 +1 @@\n-a\n+b\n";
	struct build_patch p = { 1, diff, strlen(diff), NULL, 0 };
	struct build_info info;
	struct build_result r;
	struct config c;

	(void)state;
	memset(&c, 0, sizeof(c));
	memset(&info, 0, sizeof(info));
	c.build_tree = "/nonexistent/reviewbot-tree";
	c.build_work = "/tmp/rb-build-missing-tree";
	c.build_timeout = 10;
	c.build_jobs = 1;
	assert_int_equal(build_series(&c, 0, &p, 1, &info, &r), 0);
	assert_int_equal(r.verdict, BUILD_NOT_CHECKED);
	assert_int_equal(r.nissues, 0);
	if (!strstr(r.note, "no tree could be fetched or read"))
		fail_msg("note: %s", r.note);
	build_result_release(&r);
	nftw("/tmp/rb-build-missing-tree", rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build__gcc_lines_keep_file_line_words_and_option),
		cmocka_unit_test(test_build__only_the_trees_files_and_only_diagnostics),
		cmocka_unit_test(test_build__function_context_and_inlined_headers),
		cmocka_unit_test(test_build__sparse_address_spaces_are_security),
		cmocka_unit_test(test_build__analyzer_is_certain_on_a_path_through_added_lines),
		cmocka_unit_test(test_build__coccinelle_reports_and_modpost),
		cmocka_unit_test(test_build__function_of_a_line),
		cmocka_unit_test(test_build__new_means_after_and_not_before_whatever_the_lines),
		cmocka_unit_test(test_build__cache_lines_round_trip_and_refuse_bad_files),
		cmocka_unit_test(test_build__finds_base_commit_and_prerequisites),
		cmocka_unit_test(test_build__off_without_tree),
		cmocka_unit_test(test_build__missing_tree_is_not_checked),
		cmocka_unit_test_setup_teardown(test_build__fake_tree_whole_flow,
						fake_setup, fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

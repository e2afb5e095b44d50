// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which misspelling list a review uses ([checker] spelling): the kernel
 * tree's own, the installed copy, codespell's dictionary on request, or
 * a file; and the list loaded from it.
 */
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

#include "../../bot/config.h"
#include "../../bot/patterns.h"
#include "../../bot/spell_list.h"
#include "../../checker/spelling.h"

static char dir[] = "/tmp/test_spell_list.XXXXXX";

#define PATHLEN 4096

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void parse(struct config *c, const char *text)
{
	char err[512];

	if (config_parse("/etc/reviewbot/reviewbot.conf", text, strlen(text), c, err,
			 sizeof(err)))
		fail_msg("%s", err);
}

static void test_spell_list__default_is_checkpatch(void **state)
{
	struct config c;

	(void)state;
	config_init(&c);
	assert_string_equal(c.spelling, "checkpatch");
	config_release(&c);
}

static void test_spell_list__the_tree_list_comes_first(void **state)
{
	char conf[PATHLEN + 64], path[PATHLEN + 64], tree[PATHLEN / 2], scripts[PATHLEN];
	const char *why;
	struct config c;

	(void)state;
	snprintf(tree, sizeof(tree), "%s/linux", dir);
	snprintf(scripts, sizeof(scripts), "%s/scripts", tree);
	assert_int_equal(mkdir(tree, 0700), 0);
	assert_int_equal(mkdir(scripts, 0700), 0);
	snprintf(path, sizeof(path), "%s/spelling.txt", scripts);
	write_file(path, "recieve||receive\n");
	snprintf(conf, sizeof(conf), "[build]\n\ttree = %s\n", tree);
	parse(&c, conf);
	assert_int_equal(spell_list_path(&c, path, sizeof(path), &why), 0);
	assert_null(why);
	snprintf(conf, sizeof(conf), "%s/scripts/spelling.txt", tree);
	assert_string_equal(path, conf);
	config_release(&c);
}

static void test_spell_list__codespell_and_files(void **state)
{
	char path[4096];
	const char *why;
	struct config c;

	(void)state;
	parse(&c, "[checker]\n\tspelling = codespell\n");
	assert_int_equal(spell_list_path(&c, path, sizeof(path), &why), 0);
	assert_string_equal(path, SPELL_LIST_CODESPELL);
	config_release(&c);
	/* a file, relative to the configuration's folder */
	parse(&c, "[checker]\n\tspelling = lists/mine.txt\n");
	assert_int_equal(spell_list_path(&c, path, sizeof(path), &why), 0);
	assert_string_equal(path, "/etc/reviewbot/lists/mine.txt");
	config_release(&c);
}

static void test_spell_list__a_word_that_is_no_keyword_is_refused(void **state)
{
	struct config c;
	char err[512];
	const char *text = "[checker]\nspelling = codespel\n";

	(void)state;
	assert_int_equal(config_parse("x.conf", text, strlen(text), &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x.conf:2: spelling: 'codespel' is not checkpatch, codespell or a file"));
	config_release(&c);
}

static void test_spell_list__loads_the_file_it_names(void **state)
{
	char conf[PATHLEN + 64], path[PATHLEN], err[PATHLEN + 64];
	struct chk_spelling *sp;
	struct config c;

	(void)state;
	snprintf(path, sizeof(path), "%s/mine.txt", dir);
	write_file(path, "# a comment\nrecieve||receive\nteh||the\n");
	snprintf(conf, sizeof(conf), "[checker]\n\tspelling = %s\n", path);
	parse(&c, conf);
	sp = spell_list_load(&c, NULL, 0, path, sizeof(path), err, sizeof(err));
	assert_non_null(sp);
	assert_int_equal(chk_spelling_count(sp), 2);
	assert_string_equal(chk_spelling_fix(sp, "recieve", 7), "receive");
	assert_null(chk_spelling_fix(sp, "filp", 4));
	chk_spelling_free(sp);
	config_release(&c);
	/* a file that is not there: no list, and why */
	parse(&c, "[checker]\n\tspelling = /nonexistent/spelling.txt\n");
	assert_null(spell_list_load(&c, NULL, 0, path, sizeof(path), err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/spelling.txt: "));
	config_release(&c);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* no tree: checkpatch.pl's own list of the version the reviews follow,
 * built into the program (each version's, so 6.1's and 6.12's differ) */
static void test_spell_list__without_a_tree_the_version_list_is_built_in(void **state)
{
	const struct chk_cp_data *d;
	char path[64], err[256];
	struct chk_spelling *sp;
	const char *why;
	struct config c;
	int v;

	(void)state;
	parse(&c, "[checker]\n\tspelling = checkpatch\n");
	assert_int_equal(spell_list_path(&c, path, sizeof(path), &why), 1);
	assert_string_equal(path, "built-in");
	for (v = 0; v < CP__COUNT; v++) {
		d = &reviewbot_cp_data[v];
		sp = spell_list_load(&c, d->spelling_image, d->spelling_image_len, path,
				     sizeof(path), err, sizeof(err));
		assert_non_null(sp);
		assert_true(chk_spelling_count(sp) > 1000);
		assert_string_equal(chk_spelling_fix(sp, "recieve", 7), "receive");
		assert_null(chk_spelling_fix(sp, "filp", 4));
		chk_spelling_free(sp);
	}
	/* a build without the data: no list, and why */
	assert_null(spell_list_load(&c, NULL, 0, path, sizeof(path), err, sizeof(err)));
	assert_non_null(strstr(err, "built-in spelling list"));
	config_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spell_list__default_is_checkpatch),
		cmocka_unit_test(test_spell_list__the_tree_list_comes_first),
		cmocka_unit_test(test_spell_list__codespell_and_files),
		cmocka_unit_test(test_spell_list__a_word_that_is_no_keyword_is_refused),
		cmocka_unit_test(test_spell_list__loads_the_file_it_names),
		cmocka_unit_test(test_spell_list__without_a_tree_the_version_list_is_built_in),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

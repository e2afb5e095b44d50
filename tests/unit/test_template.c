// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of bot/mail/template.c: the review templates: placeholders,
 * blocks and literal braces, errors at load and at render that name what is
 * wrong, caps on size, wrapping at 72 columns, the shipped templates.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../bot/mail/template.h"

/* Minimal valid known templates, overridden one by one by the tests. */
static const char good_review[] = "# review\n{{since}}\n{{sections}}\n{{nits}}\n{{footer}}\n";
static const char good_clean[] = "# clean\n{{footer}}\n";
static const char good_footer[] = "# footer\nmail {{bot_address}}\n";
static const char good_confirm[] = "# confirm\nconfirm {{token}}\n";

struct tdir {
	char path[64];
};

static void write_file(const struct tdir *d, const char *name, const char *text,
		       size_t n)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", d->path, name);
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* A folder with the four known templates; NULL: the good one, "": none. */
static void make_dir(struct tdir *d, const char *review, const char *clean,
		     const char *footer, const char *confirm)
{
	const char *names[] = { "review.txt", "review-clean.txt", "footer.txt", "confirm.txt" };
	const char *texts[] = {
		review ? review : good_review, clean ? clean : good_clean,
		footer ? footer : good_footer, confirm ? confirm : good_confirm,
	};
	size_t i;

	snprintf(d->path, sizeof(d->path), "/tmp/rb-template-XXXXXX");
	assert_non_null(mkdtemp(d->path));
	for (i = 0; i < 4; i++)
		if (*texts[i])
			write_file(d, names[i], texts[i], strlen(texts[i]));
}

static void remove_dir(struct tdir *d)
{
	struct dirent *de;
	DIR *dp = opendir(d->path);
	char p[512];

	assert_non_null(dp);
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", d->path, de->d_name);
		unlink(p);
	}
	closedir(dp);
	rmdir(d->path);
}

/* Loads d and expects an error containing want. */
static void load_fails(struct tdir *d, const char *want)
{
	struct template_set *t = (struct template_set *)1;
	char err[256] = "";

	assert_int_equal(template_set_load(d->path, &t, err, sizeof(err)), -1);
	assert_null(t);
	if (!strstr(err, want))
		fail_msg("error \"%s\" lacks \"%s\"", err, want);
}

static void test_template__renders_inline_block_and_literal_braces(void **state)
{
	static const char x[] =
		"# x.txt: a test\n"
		"# {{name}} {{body}}\n"
		"Hello {{name}}, {{{{literal}} and }} stay.\n"
		"{{body}}\n"
		"{{empty}}\n"
		"end\n";
	const struct template_var v[] = {
		{ "name", "A\r\nBcc: b" },
		{ "body", "line 1\n\tline 2" },
		{ "empty", "" },
		{ "name", "second wins not" },
	};
	struct template_set *t;
	struct sbuf out;
	struct tdir d;
	char err[256];

	(void)state;
	make_dir(&d, NULL, NULL, NULL, NULL);
	write_file(&d, "x.txt", x, strlen(x));
	assert_int_equal(template_set_load(d.path, &t, err, sizeof(err)), 0);
	assert_true(template_set_has(t, "x.txt"));
	assert_false(template_set_has(t, "y.txt"));
	sbuf_init(&out, 4096);
	assert_int_equal(template_render(t, "x.txt", v, 4, &out, err, sizeof(err)), 0);
	/* inline values lose their controls; a block is kept as it is and
	 * gets its newline; an empty block line disappears */
	assert_string_equal(out.buf,
			    "Hello A  Bcc: b, {{literal}} and }} stay.\n"
			    "line 1\n\tline 2\n"
			    "end\n");
	sbuf_release(&out);
	template_set_free(t);
	remove_dir(&d);
}

static void test_template__unknown_placeholder_at_load_names_file_and_line(void **state)
{
	struct tdir d;

	(void)state;
	make_dir(&d, "# comment\n# more\n{{sections}}\n{{nits}}\n{{footer}}\nsee {{sectoins}}\n",
		 NULL, NULL, NULL);
	load_fails(&d, "template review.txt:6: unknown placeholder {{sectoins}}");
	remove_dir(&d);

	make_dir(&d, NULL, NULL, "mail {{bot_adress}}\n", NULL);
	load_fails(&d, "template footer.txt:1: unknown placeholder {{bot_adress}}");
	remove_dir(&d);
}

static void test_template__bad_syntax_is_an_error_at_load(void **state)
{
	static const char *const bad[] = {
		"a {{Name}}\n", "a {{name\n", "a {{}}\n", "a {{ name }}\n",
		"a {{name-x}}\n",
	};
	struct tdir d;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		make_dir(&d, NULL, NULL, NULL, NULL);
		write_file(&d, "x.txt", bad[i], strlen(bad[i]));
		load_fails(&d, "template x.txt:1: bad placeholder at column 3");
		remove_dir(&d);
	}
	make_dir(&d, NULL, NULL, NULL, NULL);
	write_file(&d, "x.txt", "ok\nbad \x1b[31m\n", 13);
	load_fails(&d, "template x.txt:2: control character 0x1b");
	remove_dir(&d);
	make_dir(&d, NULL, NULL, NULL, NULL);
	write_file(&d, "x.txt", "caf\xe9\n", 5);
	load_fails(&d, "template x.txt:1: not UTF-8");
	remove_dir(&d);
	make_dir(&d, NULL, NULL, NULL, NULL);
	write_file(&d, "x.txt", "a\0b\n", 4);
	load_fails(&d, "template x.txt: NUL byte");
	remove_dir(&d);
}

static void test_template__required_and_block_placeholders_are_checked(void **state)
{
	struct tdir d;

	(void)state;
	make_dir(&d, "{{sections}}\n{{footer}}\n", NULL, NULL, NULL);
	load_fails(&d, "template review.txt: {{nits}} is required but not used");
	remove_dir(&d);

	make_dir(&d, NULL, "{{footer}}\nsee: {{sections}}\n", NULL, NULL);
	load_fails(&d, "template review-clean.txt:2: {{sections}} must be alone on its line");
	remove_dir(&d);

	make_dir(&d, NULL, NULL, NULL, "no token\n");
	load_fails(&d, "template confirm.txt: {{token}} is required");
	remove_dir(&d);

	make_dir(&d, NULL, NULL, NULL, "");
	load_fails(&d, "confirm.txt missing");
	remove_dir(&d);
}

static void test_template__missing_var_at_render_names_it(void **state)
{
	const struct template_var v[] = { { "a", "1" } };
	struct template_set *t;
	struct sbuf out;
	struct tdir d;
	char err[256];

	(void)state;
	make_dir(&d, NULL, NULL, NULL, NULL);
	write_file(&d, "x.txt", "#c\n{{a}} and\n{{b}}\n", 19);
	assert_int_equal(template_set_load(d.path, &t, err, sizeof(err)), 0);
	sbuf_init(&out, 4096);
	sbuf_addstr(&out, "before\n");
	assert_int_equal(template_render(t, "x.txt", v, 1, &out, err, sizeof(err)), -1);
	assert_string_equal(err, "template x.txt:3: no value for {{b}}");
	assert_string_equal(out.buf, "before\n");	/* out as it was */

	/* a known template refuses a var it does not offer */
	{
		const struct template_var fv[] = {
			{ "bot_address", "bot@example.org" }, { "bot_adress", "x" },
		};

		assert_int_equal(template_render(t, "footer.txt", fv, 2, &out, err,
						 sizeof(err)), -1);
		assert_string_equal(err, "template footer.txt: unknown placeholder {{bot_adress}} given");
	}
	assert_int_equal(template_render(t, "nope.txt", v, 1, &out, err, sizeof(err)), -1);
	assert_string_equal(err, "no template nope.txt");
	assert_string_equal(out.buf, "before\n");
	sbuf_release(&out);
	template_set_free(t);
	remove_dir(&d);
}

static void test_template__caps_on_size_and_placeholders(void **state)
{
	struct tdir d;
	char *big;
	size_t i, n;

	(void)state;
	big = malloc(TEMPLATE_MAX_FILE + 2);
	assert_non_null(big);
	/* 64 KiB exactly is fine */
	for (i = 0; i < TEMPLATE_MAX_FILE; i++)
		big[i] = (i % 64 == 63) ? '\n' : 'x';
	make_dir(&d, NULL, NULL, NULL, NULL);
	write_file(&d, "big.txt", big, TEMPLATE_MAX_FILE);
	{
		struct template_set *t;
		char err[256];

		assert_int_equal(template_set_load(d.path, &t, err, sizeof(err)), 0);
		template_set_free(t);
	}
	write_file(&d, "big.txt", big, TEMPLATE_MAX_FILE + 1);
	load_fails(&d, "template big.txt: larger than 65536 bytes");
	remove_dir(&d);

	/* 256 placeholders are fine, 257 are not */
	for (n = 256; n <= 257; n++) {
		size_t k = 0;

		for (i = 0; i < n; i++) {
			memcpy(big + k, "{{a}}\n", 6);
			k += 6;
		}
		make_dir(&d, NULL, NULL, NULL, NULL);
		write_file(&d, "many.txt", big, k);
		if (n == 257) {
			load_fails(&d, "template many.txt:257: more than 256 placeholders");
		} else {
			struct template_set *t;
			char err[256];

			assert_int_equal(template_set_load(d.path, &t, err, sizeof(err)), 0);
			template_set_free(t);
		}
		remove_dir(&d);
	}

	/* a line longer than a mail line */
	memset(big, 'y', 999);
	big[999] = '\n';
	make_dir(&d, NULL, NULL, NULL, NULL);
	write_file(&d, "long.txt", big, 1000);
	load_fails(&d, "template long.txt:1: line longer than 998 bytes");
	remove_dir(&d);
	free(big);
}

static void test_template__render_respects_the_output_cap(void **state)
{
	const struct template_var v[] = { { "bot_address", "bot@example.org" } };
	struct template_set *t;
	struct sbuf out;
	struct tdir d;
	char err[256];

	(void)state;
	make_dir(&d, NULL, NULL, NULL, NULL);
	assert_int_equal(template_set_load(d.path, &t, err, sizeof(err)), 0);
	sbuf_init(&out, 10);
	sbuf_addstr(&out, "12345");
	assert_int_equal(template_render(t, "footer.txt", v, 1, &out, err, sizeof(err)), -1);
	assert_string_equal(err, "template footer.txt: size limit reached");
	assert_string_equal(out.buf, "12345");
	assert_int_equal(out.err, 0);
	sbuf_release(&out);
	template_set_free(t);
	remove_dir(&d);
}

static void test_template__wrap_breaks_at_72_and_keeps_long_words(void **state)
{
	struct sbuf out;
	char word[1200];

	(void)state;
	sbuf_init(&out, 1 << 16);
	/* fits: unchanged, even inner and trailing spaces */
	template_wrap(&out, "--  a   b ", 10, 72, 0);
	assert_string_equal(out.buf, "--  a   b \n");

	sbuf_reset(&out);
	{
		const char *s = "  one two three four five six seven eight nine ten "
				"eleven twelve thirteen fourteen";

		template_wrap(&out, s, strlen(s), 72, template_indent(s, strlen(s)));
		assert_string_equal(out.buf,
			"  one two three four five six seven eight nine ten eleven twelve\n"
			"  thirteen fourteen\n");
	}
	/* a checklist line: wrapped lines go under the value */
	sbuf_reset(&out);
	{
		const char *s = "  compiles:              ok (1 object built at W=1 on linux "
				"6.1.192, no new warnings)";

		assert_int_equal(template_indent(s, strlen(s)), 25);
		template_wrap(&out, s, strlen(s), 72, template_indent(s, strlen(s)));
		assert_string_equal(out.buf,
			"  compiles:              ok (1 object built at W=1 on linux 6.1.192, no\n"
			"                         new warnings)\n");
		/* "a: b" in prose is no label */
		s = "  Note: this is prose";
		assert_int_equal(template_indent(s, strlen(s)), 2);
	}

	/* UTF-8 counts characters: 36 two-byte characters + 36 fit in 72 */
	sbuf_reset(&out);
	{
		char s[256];
		size_t k = 0, i;

		for (i = 0; i < 35; i++) {
			memcpy(s + k, "\xc3\xa9", 2);
			k += 2;
		}
		memcpy(s + k, " ", 1);
		k++;
		memset(s + k, 'x', 36);
		k += 36;
		template_wrap(&out, s, k, 72, 0);
		assert_int_equal(out.len, k + 1);
	}

	/* a word wider than a line is cut into lines that fit */
	sbuf_reset(&out);
	memset(word, 'w', 100);
	memcpy(word, "a ", 2);
	template_wrap(&out, word, 100, 72, 4);
	assert_int_equal(out.len, 2 + (4 + 68 + 1) + (4 + 30 + 1));
	assert_memory_equal(out.buf, "a\n    www", 9);
	assert_int_equal(strchr(out.buf + 2, '\n') - (out.buf + 2), 72);

	/* 1200 bytes of one word: 72 columns a line, none longer */
	sbuf_reset(&out);
	memset(word, 'z', sizeof(word));
	template_wrap(&out, word, sizeof(word), 72, 4);
	{
		const char *p = out.buf;
		size_t zs = 0, lines = 0;

		while (*p) {
			const char *nl = strchr(p, '\n');

			assert_non_null(nl);
			assert_true(nl - p <= 72);
			zs += strspn(p + strspn(p, " "), "z");
			lines++;
			p = nl + 1;
		}
		assert_int_equal(zs, sizeof(word));
		assert_int_equal(lines, 1 + 16 + 1);
	}

	/* a long path breaks after a '/', the rest under the indentation */
	sbuf_reset(&out);
	{
		const char *s = "  #3 drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core/"
				"dml2_core_dcn4_calcs_and_more.c:1234: ERROR: trailing whitespace";

		template_wrap(&out, s, strlen(s), 72, 4);
		assert_string_equal(out.buf,
			"  #3\n"
			"    drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core/\n"
			"    dml2_core_dcn4_calcs_and_more.c:1234: ERROR: trailing whitespace\n");
	}
	sbuf_release(&out);
}

/* No wrapped line starts with "token: text", which b4 takes from a
 * reply as a trailer for the commit (issue 21: a "mailmap:" subject) */
static void test_template__wrap_never_starts_a_line_with_a_trailer(void **state)
{
	struct sbuf out;
	const char *s;

	(void)state;
	sbuf_init(&out, 1 << 16);
	s = "more, sorted by what matters for merging, of \"[PATCH net-next v3] "
	    "mailmap: map jane@old.example.org to her new address\".";
	template_wrap(&out, s, strlen(s), 72, 0);
	assert_string_equal(out.buf,
		"more, sorted by what matters for merging, of \"[PATCH net-next\n"
		"v3] mailmap: map jane@old.example.org to her new address\".\n");
	/* the token alone on the line before: it stays up there */
	sbuf_reset(&out);
	s = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx "
	    "Fixes: 0123456789ab (\"foo\")";
	template_wrap(&out, s, strlen(s), 72, 2);
	assert_null(strstr(out.buf, "\n  Fixes:"));
	assert_non_null(strstr(out.buf, "x Fixes:\n  0123456789ab"));
	/* a token, then another: neither starts a line */
	sbuf_reset(&out);
	s = "one two three four five six seven eight nine ten eleven twelve thi "
	    "Link: Closes: https://example.org/x";
	template_wrap(&out, s, strlen(s), 72, 0);
	assert_null(strstr(out.buf, "\nLink:"));
	assert_null(strstr(out.buf, "\nCloses:"));
	/* a token b4 would not take (no address after it, not a trailer's
	 * name) starts the next line rather than pass the width: a
	 * finding's "file:line: WARNING:" (issue 35: lines of 80-90) */
	sbuf_reset(&out);
	s = "  #12 [PATCH 12/14] drivers/hwmon/pmbus/a_long_driver_name.c:1234: "
	    "WARNING: Missing a blank line after declarations";
	template_wrap(&out, s, strlen(s), 72, 4);
	assert_string_equal(out.buf,
		"  #12 [PATCH 12/14] drivers/hwmon/pmbus/a_long_driver_name.c:1234:\n"
		"    WARNING: Missing a blank line after declarations\n");
	/* a token that ends the line, ":" inside a word, and a one-letter
	 * word are fine where they fall */
	sbuf_reset(&out);
	s = "one two three four five six seven eight nine ten eleven twelve thirt "
	    "a: b foo:bar baz";
	template_wrap(&out, s, strlen(s), 72, 0);
	assert_string_equal(out.buf,
		"one two three four five six seven eight nine ten eleven twelve thirt a:\n"
		"b foo:bar baz\n");
	sbuf_reset(&out);
	s = "one two three four five six seven eight nine ten eleven twelve thirt "
	    "ends:";
	template_wrap(&out, s, strlen(s), 72, 0);
	assert_string_equal(out.buf,
		"one two three four five six seven eight nine ten eleven twelve thirt\n"
		"ends:\n");
	sbuf_release(&out);
}

static void test_template__shipped_templates_load(void **state)
{
	struct template_set *t;
	char err[256] = "";

	(void)state;
	if (template_set_load("templates", &t, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(template_set_has(t, "review.txt"));
	assert_true(template_set_has(t, "review-clean.txt"));
	assert_true(template_set_has(t, "footer.txt"));
	assert_true(template_set_has(t, "confirm.txt"));
	assert_true(template_set_has(t, "feedback.txt"));
	{
		const struct template_var v[] = {
			{ "command", "false-positive LONG_LINE" },
			{ "address", "a@example.org" },
			{ "result", "Recorded.\n\n" },
			{ "note", "" },
			{ "bot_version", "0.1.0" },
		};
		struct sbuf out;

		sbuf_init(&out, 4096);
		assert_int_equal(template_render(t, "feedback.txt", v, 5, &out, err,
						 sizeof(err)), 0);
		assert_string_equal(out.buf, "reviewbot received \"false-positive LONG_LINE\" from"
				    " a@example.org.\n\nRecorded.\n\n-- \nreviewbot 0.1.0\n");
		sbuf_release(&out);
	}
	{
		const struct template_var v[] = {
			{ "command", "optin confirmed" },
			{ "effect", "your opt-out is undone: you will get reviews again." },
			{ "address", "a@example.org" },
			{ "token", "abc123" },
			{ "bot_version", "0.1.0" },
		};
		struct sbuf out;

		sbuf_init(&out, 4096);
		assert_int_equal(template_render(t, "confirm.txt", v, 5, &out, err,
						 sizeof(err)), 0);
		assert_non_null(strstr(out.buf, "    confirm abc123\n"));
		assert_non_null(strstr(out.buf, "\"optin confirmed\" for a@example.org: your"));
		assert_non_null(strstr(out.buf, "you will get reviews again.\n"));
		assert_null(strchr(out.buf, '#'));
		sbuf_release(&out);
	}
	template_set_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_template__renders_inline_block_and_literal_braces),
		cmocka_unit_test(test_template__unknown_placeholder_at_load_names_file_and_line),
		cmocka_unit_test(test_template__bad_syntax_is_an_error_at_load),
		cmocka_unit_test(test_template__required_and_block_placeholders_are_checked),
		cmocka_unit_test(test_template__missing_var_at_render_names_it),
		cmocka_unit_test(test_template__caps_on_size_and_placeholders),
		cmocka_unit_test(test_template__wrap_never_starts_a_line_with_a_trailer),
		cmocka_unit_test(test_template__render_respects_the_output_cap),
		cmocka_unit_test(test_template__wrap_breaks_at_72_and_keeps_long_words),
		cmocka_unit_test(test_template__shipped_templates_load),
	};

	return cmocka_run_group_tests_name("template", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the whole checker as the pipeline runs it — chk_run()
 * with the default options, reviewbot's extra checks on, the patterns
 * compiled at build time and codespell's dictionary when installed — then
 * both report formats.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/checker.h"
#include "../../checker/spelling.h"
#include "../../bot/patterns.h"

#include "../../checker/banned.h"

#define CODESPELL_DICT \
	"/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct chk_opts opts;
static struct chk_spelling *spelling;

static void load_spelling(void)
{
	struct sbuf words;
	char chunk[65536];
	size_t n;
	FILE *f;

	f = fopen(CODESPELL_DICT, "rb");
	if (!f)
		return;
	sbuf_init(&words, CHK_SPELLING_MAX_INPUT);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sbuf_add(&words, chunk, n);
	fclose(f);
	if (!words.err)
		spelling = chk_spelling_new(words.buf, words.len);
	sbuf_release(&words);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	chk_opts_init(&opts);
	opts.extra = 1;
	opts.patterns = &reviewbot_patterns;
	load_spelling();
	opts.spelling = spelling;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct chk_result res;
	struct sbuf out;

	memset(&res, 0, sizeof(res));
	chk_run(&opts, "patch", (const char *)data, size, &res);
	sbuf_init(&out, CHK_MAX_REPORT);
	chk_format_text(&opts, &res, "patch", "patch", &out);
	sbuf_reset(&out);
	chk_format_json(&opts, &res, "patch", &out);
	sbuf_release(&out);
	chk_result_release(&res);
	return 0;
}

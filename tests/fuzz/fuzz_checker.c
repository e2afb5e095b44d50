// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the whole checker as the pipeline runs it — chk_run()
 * with the default options, reviewbot's extra checks on, the patterns
 * compiled at build time and each checkpatch.pl version's built-in
 * spelling.txt and const structs (the version taken from the input's
 * length, so each input is checked one way and every version is reached)
 * — then both report formats.
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

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct chk_opts opts[CP__COUNT];
static struct chk_spelling *spelling[CP__COUNT];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int v;

	(void)argc;
	(void)argv;
	for (v = 0; v < CP__COUNT; v++) {
		const struct chk_cp_data *d = &reviewbot_cp_data[v];

		chk_opts_init(&opts[v]);
		opts[v].cp_version = (enum cp_version)v;
		opts[v].extra = 1;
		opts[v].patterns = &reviewbot_patterns;
		spelling[v] = chk_spelling_from_image(d->spelling_image,
						      d->spelling_image_len);
		opts[v].spelling = spelling[v];
		opts[v].const_structs = d->const_structs;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct chk_opts *o = &opts[size % CP__COUNT];
	struct chk_result res;
	struct sbuf out;

	memset(&res, 0, sizeof(res));
	chk_run(o, "patch", (const char *)data, size, &res);
	sbuf_init(&out, CHK_MAX_REPORT);
	chk_format_text(o, &res, "patch", "patch", &out);
	sbuf_reset(&out);
	chk_format_json(o, &res, "patch", &out);
	sbuf_release(&out);
	chk_result_release(&res);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: diff_parse() on a patch, with the default limits and
 * with small ones (so the limit paths are reached), checking that every
 * line and hunk index stays inside the result.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../checker/diff.h"

#include "../../checker/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct diff *d, const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < d->nfiles; i++) {
		const struct diff_file *f = &d->files[i];

		if (f->first_hunk > d->nhunks || f->nhunks > d->nhunks - f->first_hunk)
			__builtin_trap();
		(void)diff_file_path(f);
	}
	for (i = 0; i < d->nhunks; i++) {
		const struct diff_hunk *h = &d->hunks[i];

		if (h->first_line > d->nlines || h->nlines > d->nlines - h->first_line)
			__builtin_trap();
	}
	for (i = 0; i < d->nlines; i++) {
		const struct diff_line *l = &d->lines[i];

		if (l->text < buf || l->len > len ||
		    (size_t)(l->text - buf) > len - l->len)
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct diff_limits lim;
	struct diff d;

	diff_parse(buf, size, NULL, &d);
	check(&d, buf, size);
	diff_release(&d);

	lim.max_files = 3;
	lim.max_hunks = 5;
	lim.max_lines = 40;
	lim.max_path = 16;
	diff_parse(buf, size, &lim, &d);
	check(&d, buf, size);
	if (d.nfiles > lim.max_files || d.nhunks > lim.max_hunks ||
	    d.nlines > lim.max_lines)
		__builtin_trap();
	diff_release(&d);
	return 0;
}

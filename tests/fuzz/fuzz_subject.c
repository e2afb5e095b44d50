// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: subject_parse() on a Subject line, checking the
 * result's invariants (header: bounds, NUL-terminated buffers), and
 * subject_parse_max() with a maximum from the size ([limits]
 * max_series_parts).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../bot/mail/subject.h"

#include "../../checker/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct subject s;

	memset(&s, 0x5a, sizeof(s));
	subject_parse((const char *)data, size, &s);
	if (memchr(s.prefix, '\0', sizeof(s.prefix)) == NULL ||
	    memchr(s.normalised, '\0', sizeof(s.normalised)) == NULL)
		__builtin_trap();
	if (s.kind == SUBJ_PATCH || s.kind == SUBJ_COVER) {
		if (s.version < 1 || s.version > SUBJECT_MAX_VERSION ||
		    s.part < 0 || s.total < 1 || s.part > s.total ||
		    s.total > SUBJECT_MAX_PARTS)
			__builtin_trap();
		if ((s.kind == SUBJ_COVER) != (s.part == 0))
			__builtin_trap();
	}
	(void)subject_kind_name(s.kind);

	/* a lower maximum: never a larger N, and the same parse otherwise */
	{
		static struct subject t;
		int max = 1 + (int)(size % 16);

		subject_parse_max((const char *)data, size, max, &t);
		if ((t.kind == SUBJ_PATCH || t.kind == SUBJ_COVER) &&
		    (t.total > max || t.total != s.total || t.part != s.part))
			__builtin_trap();
		if (s.total <= max && t.kind != s.kind)
			__builtin_trap();
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: subject_parse() on a Subject line, checking the
 * result's invariants (header: bounds, NUL-terminated buffers).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../bot/subject.h"

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
	return 0;
}

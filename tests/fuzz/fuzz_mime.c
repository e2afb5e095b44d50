// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: one raw mail through mime_parse() (libetpan, RFC 2047,
 * charsets, the body as git am builds it), and the Message-ID extractor.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../bot/mime.h"

#include "../../checker/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mime_mail m;
	char *id;
	size_t i;

	memset(&m, 0, sizeof(m));
	if (mime_parse((const char *)data, size, &m) == MIME_OK) {
		/* the header contract: no control character but TAB survives */
		for (i = 0; m.subject[i]; i++)
			if ((unsigned char)m.subject[i] < 0x20 && m.subject[i] != '\t')
				__builtin_trap();
		if (m.body[m.body_len] != '\0')
			__builtin_trap();
		mime_release(&m);
	}
	id = mime_msgid((const char *)data, size);
	free(id);
	return 0;
}

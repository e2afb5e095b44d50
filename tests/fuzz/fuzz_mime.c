// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: one raw mail through mime_parse() (libetpan, RFC 2047,
 * charsets, the body as git am builds it), again within tight limits
 * ([limits] lowered: mime_parse_limits()), and the Message-ID extractor.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../bot/mail/mime.h"

#include "../../checker/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mime_limits lim;
	struct mime_mail m;
	char *id;
	size_t i;
	int ret, tight;

	memset(&m, 0, sizeof(m));
	/* limits from the size, so the corpus keeps its meaning */
	lim.max_mail = size;
	lim.max_parts = 1 + size % 7;
	lim.max_refs = size % 5;	/* 0 counts as 1 */
	tight = mime_parse_limits((const char *)data, size, &lim, &m);
	if (tight == MIME_OK) {
		if (m.nrefs > (lim.max_refs ? lim.max_refs : 1))
			__builtin_trap();
		mime_release(&m);
	}
	ret = mime_parse((const char *)data, size, &m);
	/* what passes tight limits passes the defaults */
	if (tight == MIME_OK && ret != MIME_OK && ret != MIME_ERR_NOMEM)
		__builtin_trap();
	if (ret == MIME_OK) {
		if (m.nrefs > MIME_MAX_REFS)
			__builtin_trap();
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

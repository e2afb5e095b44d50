// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a reply's body through command_parse() and
 * command_wants_skip() (bot/command.h), "query WORDS" included.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../bot/command.h"

#include "../../checker/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct command c;
	enum command_kind k;
	size_t i;

	memset(&c, 0x5a, sizeof(c));
	k = command_parse((const char *)data, size, &c);
	if (k != c.kind || k < COMMAND_NONE || k > COMMAND_QUERY)
		__builtin_trap();
	/* a query's words: a string within its buffer */
	if (k == COMMAND_QUERY && !memchr(c.query, '\0', sizeof(c.query)))
		__builtin_trap();
	if (k == COMMAND_FALSE_POSITIVE) {
		if (strlen(c.type) > COMMAND_TYPE_MAX ||
		    strspn(c.type, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(c.type) ||
		    c.number < 0 || c.number > COMMAND_NUMBER_MAX ||
		    (c.number && c.type[0]) ||
		    strlen(c.reason) > STORE_FEEDBACK_REASON_MAX)
			__builtin_trap();
	} else if (c.type[0] || c.number || c.reason[0]) {
		__builtin_trap();
	}
	if (k == COMMAND_CONFIRM) {
		if (strlen(c.token) != COMMAND_TOKEN_HEX)
			__builtin_trap();
		for (i = 0; i < COMMAND_TOKEN_HEX; i++)
			if (!strchr("0123456789abcdef", c.token[i]))
				__builtin_trap();
	}
	(void)command_name(k);
	(void)command_wants_skip((const char *)data, size);
	return 0;
}

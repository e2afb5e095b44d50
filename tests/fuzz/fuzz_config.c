// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: config_parse() on a config file's bytes.  Accepted
 * configs must hold what the header promises (sources within bounds,
 * absolute paths); refused ones must say "NAME:..." in the error.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../bot/config.h"

#include "../../checker/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	char err[512];
	size_t i;

	if (config_parse("/etc/fuzz.conf", (const char *)data, size, &c,
			 err, sizeof(err)) == 0) {
		if (c.nsources > CONFIG_MAX_SOURCES)
			__builtin_trap();
		/* templates unset: found beside the program (config.h) */
		if (!c.database || c.database[0] != '/' ||
		    (c.templates && c.templates[0] != '/'))
			__builtin_trap();
		for (i = 0; i < c.nsources; i++)
			if (!c.sources[i].name ||
			    (c.sources[i].path && c.sources[i].path[0] != '/'))
				__builtin_trap();
	} else if (strncmp(err, "/etc/fuzz.conf:", 15) != 0) {
		__builtin_trap();
	}
	config_release(&c);
	return 0;
}

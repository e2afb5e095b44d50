// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot-serve: the helper that serves the history over HTTP
 * (libmicrohttpd).  `reviewbot serve` executes it; it works when called
 * by hand too.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "../heap.h"
#include "../version.h"
#include "../../checker/banned.h"

int main(int argc, char **argv)
{
	heap_setup();
	if (argc < 2) {
		fprintf(stderr, "reviewbot-serve: run by reviewbot (serve)\n");
		return 2;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("reviewbot %s\n", REVIEWBOT_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "serve"))
		return cmd_serve(argc - 2, argv + 2);
	fprintf(stderr, "reviewbot-serve: '%s' is not a command of the web helper\n", argv[1]);
	return 2;
}

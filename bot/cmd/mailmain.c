// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot-mail: the helper that reads and writes mail (libetpan,
 * libcurl).  `reviewbot run|import|review` executes it; it is not meant
 * to be called by hand, but works when it is.
 */
#include <curl/curl.h>
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
		fprintf(stderr, "reviewbot-mail: run by reviewbot (run, import, review)\n");
		return 2;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("reviewbot %s\n", REVIEWBOT_VERSION);
		return 0;
	}
	/* once, before any thread: SMTP delivery and the public-inbox HTTP
	 * source use libcurl */
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		fprintf(stderr, "reviewbot-mail: cannot initialise libcurl\n");
		return 1;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(argv[1], "import"))
		return cmd_import(argc - 2, argv + 2);
	if (!strcmp(argv[1], "review"))
		return cmd_review(argc - 2, argv + 2);
	if (!strcmp(argv[1], "worker"))
		return cmd_worker(argc - 2, argv + 2);
	fprintf(stderr, "reviewbot-mail: '%s' is not a command of the mail helper\n", argv[1]);
	return 2;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot: a mailing-list patch review bot.  This is the lean front
 * binary (checker, store, pcre2, sqlite3); the parts that need the network
 * libraries live in a helper under libexec/.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "../heap.h"
#include "../version.h"
#include "../../checker/banned.h"

static void usage(FILE *f)
{
	fputs("Usage: reviewbot COMMAND [ARGS]...\n"
	      "\n"
	      "Commands:\n"
	      "  check [OPTIONS] [FILE...|-]   check patches like checkpatch.pl\n"
	      "  review MSGFILE...             print the review the bot would send\n"
	      "  run [--config F] [--once]     the daemon: read, check, record, reply\n"
	      "  import [--config F] FILE...   backfill the history, no mail\n"
	      "  query [FILTERS] [--json]      the history of findings and patches\n"
	      "  optout ADDR [--mode silent|private] [--forget]\n"
	      "                                no reviews mailed to ADDR (or off-list)\n"
	      "  optin ADDR                    mail reviews to ADDR again\n"
	      "  status [--config F] [--json]  what the database holds, per state\n"
	      "  serve [--config F] [--listen ADDR:PORT]\n"
	      "                                the history on the web and as JSON, read-only\n"
	      "\n"
	      "Run 'reviewbot COMMAND --help' for a command's options.\n"
	      "Options: -h, --help (this text), --version (the version)\n"
	      "Manuals: reviewbot(1), reviewbot(8), reviewbot.conf(5),\n"
	      "reviewbot-rules(7).\n",
	      f);
}

int main(int argc, char **argv)
{
	heap_setup();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("reviewbot %s\n", REVIEWBOT_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 2, argv + 2);
	if (!strcmp(argv[1], "query"))
		return cmd_query(argc - 2, argv + 2);
	if (!strcmp(argv[1], "optout"))
		return cmd_optout(argc - 2, argv + 2);
	if (!strcmp(argv[1], "optin"))
		return cmd_optin(argc - 2, argv + 2);
	if (!strcmp(argv[1], "status"))
		return cmd_status(argc - 2, argv + 2);
	if (!strcmp(argv[1], "serve"))
		return cmd_exec_named("reviewbot-serve", argc - 1, argv + 1);
	if (!strcmp(argv[1], "run") || !strcmp(argv[1], "import") ||
	    !strcmp(argv[1], "review"))
		return cmd_exec_helper(argc - 1, argv + 1);
	fprintf(stderr, "reviewbot: '%s' is not a reviewbot command\n", argv[1]);
	usage(stderr);
	return 2;
}

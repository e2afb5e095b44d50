// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot optout / optin: the admin side of opting out.  Runs in the
 * front binary (store and sqlite3 only).  The admin is trusted: no
 * token is needed to opt an address in from here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "cmd_common.h"
#include "../mail/compose.h"
#include "getopt_long.h"
#include "../version.h"
#include "../../store/store.h"
#include "../../checker/banned.h"

#define OPTOUT_MAX_ARGS	16	/* words on the command line */
#define OPTOUT_MAX_ADDR	254

static void usage(FILE *f, int in)
{
	if (in)
		fputs("Usage: reviewbot optin [--config FILE | --database FILE] ADDR\n"
		      "\n"
		      "Removes the opt-out of ADDR: the bot reviews its patches again.\n"
		      "\n", f);
	else
		fputs("Usage: reviewbot optout [--config FILE | --database FILE] ADDR\n"
		      "                        [--mode silent|private] [--forget]\n"
		      "\n"
		      "Opts ADDR out: with --mode silent (the default) no review of its\n"
		      "patches is mailed; with --mode private reviews go to ADDR alone,\n"
		      "never to the list.  Its patches are still checked and kept.\n"
		      "\n"
		      "  --mode MODE       silent or private\n"
		      "  --forget          also delete everything kept about ADDR (its\n"
		      "                    mail, series, findings, reviews, replies) and\n"
		      "                    print what was deleted\n", f);
	fputs("  --config FILE     configuration naming the database\n"
	      "  --database FILE   this database instead\n"
	      "  --help            this text\n"
	      "  --version         the program's version\n", f);
}

/* A plain address, lowercased into out; -1 when it is not one. */
static int norm_addr(const char *in, char *out, size_t outlen)
{
	size_t i, n = strlen(in);

	if (!n || n > OPTOUT_MAX_ADDR || n >= outlen || !compose_address_ok(in) ||
	    in[0] == '<')
		return -1;
	for (i = 0; i <= n; i++)
		out[i] = (in[i] >= 'A' && in[i] <= 'Z') ? (char)(in[i] - 'A' + 'a') : in[i];
	return 0;
}

static int run(int argc, char **argv, int in)
{
	const char *cmd = in ? "optin" : "optout";
	struct config cfg;
	struct store *st = NULL;
	struct store_forget fc;
	char *config_file = NULL, *database = NULL, *mode = NULL;
	char *args[OPTOUT_MAX_ARGS + 1];
	char addr[OPTOUT_MAX_ADDR + 1], err[512];
	int nargs = 0, help = 0, version = 0, forget = 0, have_cfg = 0, ret = 1, r;
	enum store_optout_mode om = OPTOUT_SILENT;
	const struct gl_opt out_opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "database", GL_STRING, NULL, &database, NULL },
		{ "mode", GL_STRING, NULL, &mode, NULL },
		{ "forget", GL_SET, &forget, NULL, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};
	const struct gl_opt in_opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "database", GL_STRING, NULL, &database, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};

	if (argc > OPTOUT_MAX_ARGS) {
		fprintf(stderr, "reviewbot %s: too many arguments\n", cmd);
		return 2;
	}
	if (gl_parse(in ? in_opts : out_opts, argc, argv, args, &nargs, err,
		     sizeof(err))) {
		fprintf(stderr, "reviewbot %s: %s\n", cmd, err);
		usage(stderr, in);
		ret = 2;
		goto out;
	}
	if (help) {
		usage(stdout, in);
		ret = 0;
		goto out;
	}
	if (version) {
		printf("reviewbot %s\n", REVIEWBOT_VERSION);
		ret = 0;
		goto out;
	}
	if (nargs != 1) {
		usage(stderr, in);
		ret = 2;
		goto out;
	}
	if (norm_addr(args[0], addr, sizeof(addr))) {
		fprintf(stderr, "reviewbot %s: '%s' is not a mail address\n", cmd, args[0]);
		ret = 2;
		goto out;
	}
	if (mode && !strcmp(mode, "private")) {
		om = OPTOUT_PRIVATE;
	} else if (mode && strcmp(mode, "silent")) {
		fprintf(stderr, "reviewbot %s: --mode is silent or private\n", cmd);
		ret = 2;
		goto out;
	}
	if (!config_file && !database)
		config_file = cmd_default_config();
	if (!database) {
		if (cmd_load_config(config_file, &cfg, cmd))
			goto out;
		have_cfg = 1;
	}
	if (store_open(database ? database : cfg.database, &st, err, sizeof(err))) {
		fprintf(stderr, "reviewbot %s: %s\n", cmd, err);
		goto out;
	}
	if (in) {
		r = store_optout_remove(st, addr);
		if (r < 0)
			goto dberr;
		printf(r == STORE_DONE ? "%s had not opted out\n" : "%s opted in\n", addr);
		ret = 0;
		goto out;
	}
	r = store_begin(st);
	if (r)
		goto dberr;
	r = store_optout_set(st, addr, om, (int64_t)time(NULL));
	if (!r && forget)
		r = store_forget_address(st, addr, &fc);
	if (r) {
		store_rollback(st);
		goto dberr;
	}
	r = store_commit(st);
	if (r)
		goto dberr;
	printf("%s opted out (%s)\n", addr, om == OPTOUT_PRIVATE ? "private" : "silent");
	if (forget)
		printf("forgot %s: %lld messages, %lld series, %lld patches, %lld findings, "
		       "%lld reviews, %lld replies, %lld mutes, %lld tokens\n",
		       addr, fc.messages, fc.series, fc.patches, fc.findings, fc.reviews,
		       fc.replies, fc.mutes, fc.tokens);
	ret = 0;
	goto out;
dberr:
	fprintf(stderr, "reviewbot %s: database: %s\n", cmd,
		*store_errmsg(st) ? store_errmsg(st) : store_strerror(r));
out:
	store_close(st);
	if (have_cfg)
		config_release(&cfg);
	free(config_file);
	free(database);
	free(mode);
	return ret;
}

int cmd_optout(int argc, char **argv)
{
	return run(argc, argv, 0);
}

int cmd_optin(int argc, char **argv)
{
	return run(argc, argv, 1);
}

// SPDX-License-Identifier: GPL-2.0-only
/* What the subcommands share (cmd_common.h): their options and signals,
 * finding and loading the configuration, and paths relative to the
 * running program. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmd_common.h"
#include "../version.h"
#include "../../checker/banned.h"

int cmd_parse(const char *cmd, const struct gl_opt *opts, int argc, char **argv,
	      char **args, int *nargs, int max_args, const int *help,
	      const int *version, void (*usage)(FILE *), int *status)
{
	char err[1024];

	*status = 2;
	if (gl_parse(opts, argc, argv, args, nargs, err, sizeof(err))) {
		fprintf(stderr, "reviewbot %s: %s\n", cmd, err);
		usage(stderr);
		return 1;
	}
	if (*help || *version) {
		if (*help)
			usage(stdout);
		else
			printf("reviewbot %s\n", REVIEWBOT_VERSION);
		*status = 0;
		return 1;
	}
	if (max_args >= 0 && *nargs > max_args) {
		fprintf(stderr, "reviewbot %s: unexpected argument '%s'\n", cmd,
			args[max_args]);
		return 1;
	}
	return 0;
}

void cmd_signals(void (*stop)(int), void (*hup)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = hup ? hup : SIG_IGN;
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

char *cmd_default_config(void)
{
	const char *env = getenv("REVIEWBOT_CONFIG");

	if (env && *env)
		return strdup(env);
	if (!access(CMD_SYSTEM_CONFIG, F_OK))
		return strdup(CMD_SYSTEM_CONFIG);
	return NULL;
}

int cmd_load_config(const char *file, struct config *c, const char *cmd)
{
	char err[1024];

	if (!file) {
		config_init(c);
		return 0;
	}
	if (config_load(file, c, err, sizeof(err))) {
		fprintf(stderr, "reviewbot %s: %s\n", cmd, err);
		config_release(c);	/* a failed load leaves the defaults in it */
		return -1;
	}
	return 0;
}

/*
 * A first look at [delivery] url (bot/mail/smtp.c parses it for good with
 * libcurl, which the front binary does not link): scheme smtp or smtps,
 * a host, and no password in the user part.
 */
static int smtp_url_bad(const char *url)
{
	const char *p, *end, *at;

	if (!url)
		return 1;
	if (!strncasecmp(url, "smtp://", 7))
		p = url + 7;
	else if (!strncasecmp(url, "smtps://", 8))
		p = url + 8;
	else
		return 1;
	end = p + strcspn(p, "/?#");
	at = memrchr(p, '@', (size_t)(end - p));
	if (at && memchr(p, ':', (size_t)(at - p)))
		return 1;
	p = at ? at + 1 : p;
	return p == end || *p == ':';
}

int cmd_check_runnable(const struct config *c, const char *cmd)
{
	const char *where = c->file ? c->file : "the built-in configuration";
	if (!c->nsources) {
		fprintf(stderr, "reviewbot %s: %s: no [source] to read\n", cmd, where);
		return -1;
	}
	if (c->delivery == DELIVER_SMTP && smtp_url_bad(c->delivery_url)) {
		/* the url is not echoed: it may hold a password */
		fprintf(stderr, "reviewbot %s: %s: [delivery] url must be smtp://[user@]host[:port] or smtps://..., without a password (use password_file or password_env)\n",
			cmd, where);
		return -1;
	}
	if (!c->address && !c->dry_run) {
		fprintf(stderr, "reviewbot %s: %s: [bot] address is required to send replies\n",
			cmd, where);
		return -1;
	}
	return 0;
}

int cmd_exe_relative(const char *rel, char *out, size_t outlen)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	if ((size_t)snprintf(out, outlen, "%s/%s", exe, rel) >= outlen)
		return -1;
	return 0;
}

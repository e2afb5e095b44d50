// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot serve: the history on the web and over a JSON API, read-only
 * (bot/web/web_server.h, bot/web/web.h).  Runs in its own helper,
 * libexec/reviewbot/reviewbot-serve (libmicrohttpd), which the front
 * binary executes.
 *
 * Order at start: the configuration, the listening socket (a port below
 * 1024 needs root), the drop to [bot] user when started as root
 * (bot/privdrop.h), then the read-only database handles and the threads.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_common.h"
#include "getopt_long.h"
#include "../log.h"
#include "../privdrop.h"
#include "../version.h"
#include "../web/web_server.h"
#include "../../checker/banned.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *f)
{
	fputs("Usage: reviewbot serve [--config FILE] [--listen ADDR:PORT] [--database FILE]\n"
	      "                       [-n] [--verbose]\n"
	      "\n"
	      "Serves the history read-only: web pages (/, /m/MESSAGE-ID/, /search)\n"
	      "and a JSON API (/api/v1/).  Only mail sent to a public list is shown,\n"
	      "and nothing of authors who opted out.  Stops on SIGTERM or SIGINT.\n"
	      "\n"
	      "  --config FILE     configuration (default: $REVIEWBOT_CONFIG, else\n"
	      "                    /etc/reviewbot/reviewbot.conf); [web] section\n"
	      "  --listen ADDR:PORT  instead of [web] listen (port 0: any free port,\n"
	      "                    logged)\n"
	      "  --database FILE   this database instead of the configured one\n"
	      "  -n                check the configuration, print \"configuration OK\"\n"
	      "  --verbose         log every request\n"
	      "  --help            this text\n"
	      "  --version         the version\n",
	      f);
}

int cmd_serve(int argc, char **argv)
{
	struct web_server_opts o;
	struct config cfg;
	char *config_file = NULL, *listen_at = NULL, *database = NULL;
	char **args;
	char err[1024], portbuf[16];
	int check_only = 0, verbose = 0, help = 0, version = 0, nargs = 0;
	int ret = 2, have_cfg = 0, fd = -1, port = 0;
	const struct gl_opt opts[] = {
		{ "config", GL_STRING, NULL, &config_file, NULL },
		{ "listen", GL_STRING, NULL, &listen_at, NULL },
		{ "database", GL_STRING, NULL, &database, NULL },
		{ "n|check-config", GL_SET, &check_only, NULL, NULL },
		{ "verbose|v", GL_SET, &verbose, NULL, NULL },
		{ "help|h", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};

	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return 2;
	if (cmd_parse("serve", opts, argc, argv, args, &nargs, 0, &help, &version, usage,
		      &ret))
		goto out;
	if (!config_file)
		config_file = cmd_default_config();
	if (cmd_load_config(config_file, &cfg, "serve"))
		goto out;
	have_cfg = 1;
	if (check_only) {
		printf("configuration OK\n");
		ret = 0;
		goto out;
	}
	privdrop_limits();
	fd = web_listen(listen_at ? listen_at : cfg.web_listen, &port, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "reviewbot serve: %s\n", err);
		goto out;
	}
	if (privdrop_to_user(cfg.user, err, sizeof(err))) {
		fprintf(stderr, "reviewbot serve: %s\n", err);
		goto out;
	}
	cmd_signals(on_stop, NULL);
	memset(&o, 0, sizeof(o));
	o.cfg = &cfg;
	o.database = database ? database : cfg.database;
	o.listen = listen_at ? listen_at : cfg.web_listen;
	o.verbose = verbose;
	snprintf(portbuf, sizeof(portbuf), "%d", port);
	log_event(LOG_INFO, "listening", "version", REVIEWBOT_VERSION, "listen", o.listen,
		  "port", portbuf, "database", o.database, NULL);
	if (web_serve(fd, &o, &stop_requested, err, sizeof(err))) {
		fprintf(stderr, "reviewbot serve: %s\n", err);
		fd = -1;	/* closed by the server */
		goto out;
	}
	fd = -1;
	log_event(LOG_INFO, "stop", NULL);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (have_cfg)
		config_release(&cfg);
	free(config_file);
	free(listen_at);
	free(database);
	free(args);
	return ret;
}

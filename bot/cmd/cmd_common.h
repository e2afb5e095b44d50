/* SPDX-License-Identifier: GPL-2.0-only */
/* What the subcommands share: their options parsed and --help and
 * --version answered alike, signals, finding and loading the
 * configuration, and paths relative to the running program. */
#ifndef RB_CMD_COMMON_H
#define RB_CMD_COMMON_H

#include <stddef.h>
#include <stdio.h>

#include "getopt_long.h"
#include "../config.h"

#define CMD_SYSTEM_CONFIG "/etc/reviewbot/reviewbot.conf"

/*
 * argv parsed by opts, the operands into args (*nargs of them; args holds
 * argc + 1).  0: go on.  1: done, exit with *status: 2 after a bad
 * option or more than max_args operands (-1: any), said on stderr as
 * "reviewbot CMD: what" with the usage; 0 after --help (usage on stdout),
 * else --version.
 */
int cmd_parse(const char *cmd, const struct gl_opt *opts, int argc, char **argv,
	      char **args, int *nargs, int max_args, const int *help,
	      const int *version, void (*usage)(FILE *), int *status);
/*
 * SIGTERM and SIGINT call stop, SIGHUP calls hup (NULL: ignored), SIGPIPE
 * is ignored (a peer closing its socket is an error return, not a death).
 * No SA_RESTART: a signal ends a poll() at once.
 */
void cmd_signals(void (*stop)(int), void (*hup)(int));

/* $REVIEWBOT_CONFIG, else CMD_SYSTEM_CONFIG when it exists, else NULL
 * (the built-in defaults); malloc'd. */
char *cmd_default_config(void);
/* Loads file (NULL: the defaults) into c; on error prints
 * "reviewbot CMD: FILE:LINE: what" and returns -1. */
int cmd_load_config(const char *file, struct config *c, const char *cmd);
/* Refuses (printing why) a configuration `run` cannot work with. */
int cmd_check_runnable(const struct config *c, const char *cmd);
/* dirname(/proc/self/exe) + "/" + rel into out; 0 or -1. */
int cmd_exe_relative(const char *rel, char *out, size_t outlen);

#endif

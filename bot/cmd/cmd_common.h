/* SPDX-License-Identifier: GPL-2.0-only */
/* What the subcommands share: finding and loading the configuration,
 * and paths relative to the running program. */
#ifndef RB_CMD_COMMON_H
#define RB_CMD_COMMON_H

#include <stddef.h>

#include "../config.h"

#define CMD_SYSTEM_CONFIG "/etc/reviewbot/reviewbot.conf"

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

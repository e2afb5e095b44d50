/* SPDX-License-Identifier: GPL-2.0-only */
/* The subcommands of reviewbot.  Each returns the process exit status. */
#ifndef RB_CMD_H
#define RB_CMD_H

int cmd_check(int argc, char **argv);

#endif

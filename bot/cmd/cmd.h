/* SPDX-License-Identifier: GPL-2.0-only */
/* The subcommands of reviewbot.  Each returns the process exit status.
 * check, query, optout, optin and status run in the front binary; run, import
 * and review in the mail helper (bot/cmd/mailmain.c), which the front binary
 * executes. */
#ifndef RB_CMD_H
#define RB_CMD_H

int cmd_check(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_optout(int argc, char **argv);
int cmd_optin(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_review(int argc, char **argv);
/* a worker of run ([build] workers), started by the daemon */
int cmd_worker(int argc, char **argv);
/* serve runs in the web helper (bot/cmd/servemain.c) */
int cmd_serve(int argc, char **argv);
/* Executes the mail helper with argv (argv[0] the subcommand); returns
 * only on failure, with the exit status. */
int cmd_exec_helper(int argc, char **argv);
/* The same for the helper named name ("reviewbot-serve"). */
int cmd_exec_named(const char *name, int argc, char **argv);

#endif

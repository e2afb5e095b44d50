/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * privdrop: least privilege for the daemon (issue 7 item 6).
 *
 * privdrop_limits() sets what every mail-reading command runs with:
 * umask 077 (the database, the outbox and the temporary files are
 * private whatever the caller's umask), no core dumps (RLIMIT_CORE 0: a
 * core would hold mail and passwords), and SIGXFSZ ignored so a file
 * size limit (RLIMIT_FSIZE, a full quota) makes writes fail with EFBIG
 * instead of killing the process in the middle of a transaction.
 *
 * privdrop_to_user() is called by `run` after reading its configuration
 * and before opening the database or any mail: started as root with
 * [bot] user set, it takes that user's groups (initgroups), gid and uid
 * for good (setgroups, setresgid, setresuid), and checks that root cannot
 * be regained.  Started as root without [bot] user, it logs a warning
 * (event=running-as-root) and goes on: refusing would break `make run`
 * and the test suite where they run as root (containers, CI).  Not
 * root: nothing to do (the systemd unit's DynamicUser= starts it
 * unprivileged).
 */
#ifndef RB_PRIVDROP_H
#define RB_PRIVDROP_H

#include <stddef.h>

void privdrop_limits(void);

/*
 * Returns 0 (dropped to user, not root, or root without a user: logged),
 * or -1 with err: an unknown user, a user that is root, or a failed or
 * reversible drop.  The caller must then exit.
 */
int privdrop_to_user(const char *user, char *err, size_t errlen);

#endif

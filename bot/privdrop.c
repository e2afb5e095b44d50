// SPDX-License-Identifier: GPL-2.0-only
/*
 * privdrop: least privilege for the daemon (privdrop.h): umask, no core
 * dumps, and root dropped to [bot] user for good.
 */
#include "privdrop.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "log.h"
#include "../checker/banned.h"

void privdrop_limits(void)
{
	struct rlimit rl = { 0, 0 };

	umask(077);
	setrlimit(RLIMIT_CORE, &rl);
	/* not dumpable: no core, no ptrace by the same uid, /proc/PID/mem
	 * closed (the process holds passwords) */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	signal(SIGXFSZ, SIG_IGN);
}

int privdrop_to_user(const char *user, char *err, size_t errlen)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;
	int rc;

	if (geteuid() != 0 && getuid() != 0)
		return 0;
	if (!user || !*user) {
		/* refusing would break `make run` and the test suite where
		 * they run as root (containers, CI): say it loudly instead */
		log_event(LOG_WARN, "running-as-root",
			  "hint", "set [bot] user to the account to run as", NULL);
		return 0;
	}
	rc = getpwnam_r(user, &pw, buf, sizeof(buf), &res);
	if (rc || !res) {
		snprintf(err, errlen, "[bot] user %s: %s", user,
			 rc ? strerror(rc) : "no such user");
		return -1;
	}
	if (pw.pw_uid == 0 || pw.pw_gid == 0) {
		snprintf(err, errlen, "[bot] user %s: is root (uid or gid 0)", user);
		return -1;
	}
	if (initgroups(pw.pw_name, pw.pw_gid)) {
		snprintf(err, errlen, "initgroups %s: %s", user, strerror(errno));
		return -1;
	}
	if (setresgid(pw.pw_gid, pw.pw_gid, pw.pw_gid)) {
		snprintf(err, errlen, "setresgid %lu: %s", (unsigned long)pw.pw_gid,
			 strerror(errno));
		return -1;
	}
	if (setresuid(pw.pw_uid, pw.pw_uid, pw.pw_uid)) {
		snprintf(err, errlen, "setresuid %lu: %s", (unsigned long)pw.pw_uid,
			 strerror(errno));
		return -1;
	}
	/* for good: every id is the user's and root is out of reach */
	if (getresuid(&ruid, &euid, &suid) || getresgid(&rgid, &egid, &sgid) ||
	    ruid != pw.pw_uid || euid != pw.pw_uid || suid != pw.pw_uid ||
	    rgid != pw.pw_gid || egid != pw.pw_gid || sgid != pw.pw_gid) {
		snprintf(err, errlen, "dropping to %s: ids not all changed", user);
		return -1;
	}
	if (setuid(0) == 0 || seteuid(0) == 0) {
		snprintf(err, errlen, "dropping to %s: root could be regained", user);
		return -1;
	}
	/* setresuid cleared it; say it again: no core, no ptrace */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	return 0;
}

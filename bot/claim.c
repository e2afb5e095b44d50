// SPDX-License-Identifier: GPL-2.0-only
/*
 * claim: this process's name on the rows it works on, and whether
 * another's holder lives (see claim.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "claim.h"
#include "../checker/banned.h"

#define CLAIM_HOST_MAX	64
#define CLAIM_BOOT_MAX	40	/* a boot id: 36 characters */

static char self[CLAIM_MAX];

/* path's first line (at most n - 1 bytes) into out; "" when unreadable */
static void first_line(const char *path, char *out, size_t n)
{
	ssize_t r;
	int fd;

	out[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	r = read(fd, out, n - 1);
	close(fd);
	if (r <= 0) {
		out[0] = '\0';
		return;
	}
	out[r] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* A word for the name: no blank, nothing outside printable ASCII. */
static void word(char *s, const char *none)
{
	char *p;

	for (p = s; *p; p++)
		if (*p <= ' ' || *p > '~')
			*p = '_';
	if (!*s)
		snprintf(s, 2, "%s", none);
}

/* The start time of pid in clock ticks since boot (field 22 of
 * /proc/PID/stat, after the command name in parentheses); 0 when
 * unknown. */
static unsigned long long start_ticks_state(pid_t pid, char *state)
{
	char path[48], buf[1024];
	const char *p;
	unsigned long long v = 0;
	int field;

	*state = '?';
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	first_line(path, buf, sizeof(buf));
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	if (p[1] == ' ' && p[2])
		*state = p[2];
	/* ") S ppid ..." : field 3 starts after ") " */
	for (field = 2; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (field == 22)
		v = strtoull(p, NULL, 10);
	return v;
}

static unsigned long long start_ticks(pid_t pid)
{
	char state;

	return start_ticks_state(pid, &state);
}

static void boot_id(char *out, size_t n)
{
	first_line("/proc/sys/kernel/random/boot_id", out, n);
	word(out, "-");
}

const char *claim_self(void)
{
	char host[CLAIM_HOST_MAX], boot[CLAIM_BOOT_MAX];

	if (self[0])
		return self;
	if (gethostname(host, sizeof(host)))
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	word(host, "-");
	boot_id(boot, sizeof(boot));
	snprintf(self, sizeof(self), "%s %s %ld %llu", host, boot, (long)getpid(),
		 start_ticks(getpid()));
	return self;
}

int claim_holds(const char *name, int64_t claimed_at, int64_t now)
{
	char host[CLAIM_HOST_MAX], boot[CLAIM_BOOT_MAX], mine[CLAIM_MAX];
	char ohost[CLAIM_HOST_MAX], oboot[CLAIM_BOOT_MAX];
	unsigned long long start, seen;
	long pid;

	if (!name)
		return 0;
	snprintf(mine, sizeof(mine), "%s", claim_self());
	if (!strcmp(name, mine))
		return 1;
	if (sscanf(mine, "%63s %39s", host, boot) != 2 ||
	    sscanf(name, "%63s %39s %ld %llu", ohost, oboot, &pid, &start) != 4 ||
	    pid <= 0 || strcmp(ohost, host))
		/* not ours to judge (another host): until it is old */
		return now - claimed_at < CLAIM_TTL;
	if (strcmp(oboot, boot))
		return 0;	/* this host rebooted since */
	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return 0;
	/* alive, or hidden from us: a process id used again shows as a
	 * different start time where /proc shows it; a zombie (killed,
	 * not yet reaped: its parent died with it) holds nothing */
	{
		char state;

		seen = start_ticks_state((pid_t)pid, &state);
		if (state == 'Z' || state == 'X')
			return 0;
	}
	return !seen || !start || seen == start;
}

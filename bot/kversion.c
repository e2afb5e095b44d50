// SPDX-License-Identifier: GPL-2.0-only
/* The checkpatch.pl version of the bot's reviews (kversion.h). */
#include "kversion.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include "../checker/banned.h"

/* "NAME = N" at the start of a line of buf: N (0-999), or -1 */
static int make_var(const char *buf, const char *name)
{
	size_t n = strlen(name);
	const char *p = buf;

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p;
		long v = 0;
		int digits = 0;

		if (strncmp(q, name, n))
			continue;
		q += n;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q++ != '=')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		while (*q >= '0' && *q <= '9' && digits < 4) {
			v = v * 10 + (*q++ - '0');
			digits++;
		}
		if (!digits || v > 999 || (*q && *q != '\n' && *q != ' ' && *q != '\t' &&
					    *q != '\r'))
			return -1;
		return (int)v;
	}
	return -1;
}

int kversion_of_tree(const char *tree, int *major, int *minor,
		     char *why, size_t whylen)
{
	char path[4096], buf[KVERSION_MAKEFILE_HEAD + 1];
	size_t len = 0;
	int n, fd;

	n = snprintf(path, sizeof(path), "%s/Makefile", tree);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		snprintf(why, whylen, "path too long");
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* its head only: the version comes first */
	while (len < KVERSION_MAKEFILE_HEAD) {
		ssize_t r = read(fd, buf + len, KVERSION_MAKEFILE_HEAD - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	*major = make_var(buf, "VERSION");
	*minor = make_var(buf, "PATCHLEVEL");
	if (*major < 0 || *minor < 0) {
		snprintf(why, whylen, "%s: no VERSION and PATCHLEVEL", path);
		return -1;
	}
	return 0;
}

enum cp_version kversion_checkpatch(const char *setting, const char *tree,
				    char *note, size_t notelen)
{
	char why[4200];
	int v, major, minor;

	if (!note || !notelen) {
		note = why;
		notelen = sizeof(why);
	}
	if (setting && *setting && strcmp(setting, "auto")) {
		v = cp_version_find(setting, strlen(setting));
		if (v >= 0) {
			snprintf(note, notelen, "[checker] checkpatch_version");
			return (enum cp_version)v;
		}
	}
	if (tree && *tree) {
		if (!kversion_of_tree(tree, &major, &minor, why, sizeof(why))) {
			snprintf(note, notelen, "the tree's kernel %d.%d", major, minor);
			return cp_version_nearest(major, minor);
		}
		snprintf(note, notelen, "the newest (the tree's version unknown: %.200s)", why);
		return CP_LATEST;
	}
	snprintf(note, notelen, "the newest");
	return CP_LATEST;
}

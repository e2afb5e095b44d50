// SPDX-License-Identifier: GPL-2.0-only
/*
 * The front binary runs the mail helper the way git runs
 * git-remote-https: $REVIEWBOT_EXEC_PATH, else in the build tree when run
 * from one, else beside the installed program (../libexec/reviewbot).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_common.h"
#include "../../checker/banned.h"

#ifndef RB_LIBEXEC_REL
#define RB_LIBEXEC_REL "../libexec/reviewbot"
#endif
#ifndef RB_BUILD_REL
#define RB_BUILD_REL "build/libexec/reviewbot"
#endif

#define HELPER_NAME "reviewbot-mail"

int cmd_exec_helper(int argc, char **argv)
{
	return cmd_exec_named(HELPER_NAME, argc, argv);
}

int cmd_exec_named(const char *name, int argc, char **argv)
{
	char path[PATH_MAX], dir[PATH_MAX];
	const char *env = getenv("REVIEWBOT_EXEC_PATH");
	/* the build tree's first: an installed program has none, and a
	 * sanitizer build must not pick the plain build's helper */
	const char *const rels[] = { RB_BUILD_REL, RB_LIBEXEC_REL };
	char **nargv;
	size_t i;
	int found = 0;

	if (env && *env) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", env, name) < sizeof(path))
			found = !access(path, X_OK);
	}
	for (i = 0; !found && i < sizeof(rels) / sizeof(rels[0]); i++) {
		if (cmd_exe_relative(rels[i], dir, sizeof(dir)))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) < sizeof(path))
			found = !access(path, X_OK);
	}
	if (!found) {
		fprintf(stderr, "reviewbot: cannot find %s (set REVIEWBOT_EXEC_PATH to its folder)\n",
			name);
		return 2;
	}
	nargv = calloc((size_t)argc + 2, sizeof(*nargv));
	if (!nargv)
		return 2;
	nargv[0] = (char *)name;
	for (i = 0; i < (size_t)argc; i++)
		nargv[i + 1] = argv[i];
	execv(path, nargv);
	fprintf(stderr, "reviewbot: %s: %s\n", path, strerror(errno));
	free(nargv);
	return 2;
}

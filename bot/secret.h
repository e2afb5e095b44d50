/* SPDX-License-Identifier: GPL-2.0-only */
/* secret: a server's password, read without ever logging it. */
#ifndef RB_SECRET_H
#define RB_SECRET_H

#include <stddef.h>

#define SECRET_MAX_PASSWORD	1024

/*
 * The password for a server: from file (refused when group or others may
 * read it, or it is not a regular file; the first line, without its line
 * end) or from the environment variable env.  0, 1 when neither is set
 * (no password), or -1 with err (which never holds the password).
 */
int secret_password(const char *file, const char *env, char *out, size_t outlen,
		    char *err, size_t errlen);

#endif

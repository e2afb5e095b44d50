// SPDX-License-Identifier: GPL-2.0-only
/*
 * secret: a server's password from a private file or the environment
 * (secret.h), for the mail sources and SMTP delivery alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "secret.h"
#include "../checker/banned.h"

int secret_password(const char *file, const char *env, char *out, size_t outlen,
		    char *err, size_t errlen)
{
	struct stat sb;
	ssize_t n;
	size_t len;
	char *nl;
	int fd;

	out[0] = '\0';
	if (file) {
		fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0) {
			snprintf(err, errlen, "password file %s: %s", file, strerror(errno));
			return -1;
		}
		if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
			snprintf(err, errlen, "password file %s: not a regular file", file);
			close(fd);
			return -1;
		}
		if (sb.st_mode & 077) {
			snprintf(err, errlen, "password file %s: readable by others (mode %03o): chmod 600 it",
				 file, (unsigned)(sb.st_mode & 0777));
			close(fd);
			return -1;
		}
		n = read(fd, out, outlen - 1);
		close(fd);
		if (n < 0) {
			snprintf(err, errlen, "password file %s: %s", file, strerror(errno));
			return -1;
		}
		out[n] = '\0';
		nl = strpbrk(out, "\r\n");
		if (nl)
			*nl = '\0';
		if ((size_t)n == outlen - 1 && !nl) {
			snprintf(err, errlen, "password file %s: longer than %zu bytes", file,
				 outlen - 2);
			explicit_bzero(out, outlen);
			return -1;
		}
		return 0;
	}
	if (env) {
		const char *v = getenv(env);

		if (!v) {
			snprintf(err, errlen, "password: environment variable %s is not set", env);
			return -1;
		}
		len = strlen(v);
		if (len >= outlen) {
			snprintf(err, errlen, "password: %s is longer than %zu bytes", env,
				 outlen - 1);
			return -1;
		}
		memcpy(out, v, len + 1);
		return 0;
	}
	return 1;
}

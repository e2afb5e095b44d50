// SPDX-License-Identifier: GPL-2.0-only
/* Reading whole files and streams with a size cap (fileio.h). */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>

#include "../checker/banned.h"

int fileio_read(const char *path, struct sbuf *sb)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	char buf[65536];
	int ret = 0;

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -1;
			break;
		}
		if (n == 0)
			break;
		if (sbuf_add(sb, buf, (size_t)n)) {
			errno = sb->err == SBUF_ERR_CAP ? EFBIG : ENOMEM;
			ret = -1;
			break;
		}
	}
	if (fd != 0) {
		int saved = errno;

		close(fd);
		errno = saved;
	}
	return ret;
}

int fileio_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

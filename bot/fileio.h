/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading whole files and streams with a size cap. */
#ifndef RB_FILEIO_H
#define RB_FILEIO_H

#include <stddef.h>

#include "../checker/sbuf.h"

/* Reads path ("-" for stdin) into sb (capped by sb->cap).  Returns 0, or
 * -1 with errno set (EFBIG when the cap is passed). */
int fileio_read(const char *path, struct sbuf *sb);
/* Writes buf[0, n) to fd, again after EINTR and short writes; 0 or -1. */
int fileio_write_all(int fd, const void *buf, size_t n);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading whole files and streams with a size cap. */
#ifndef RB_FILEIO_H
#define RB_FILEIO_H

#include <stddef.h>

#include "../checker/sbuf.h"

/* Reads path ("-" for stdin) into sb (capped by sb->cap).  Returns 0, or
 * -1 with errno set (EFBIG when the cap is passed). */
int fileio_read(const char *path, struct sbuf *sb);

#endif

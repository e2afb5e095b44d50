/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The load stage's insides shared by boot.c and boot_tree.c (reading a
 * kernel tree without following links out of it, and applying a series'
 * hunks in memory); nothing else includes this.
 */
#ifndef RB_BOOT_INT_H
#define RB_BOOT_INT_H

#include <stddef.h>

#define BOOT_PATH_MAX		256		/* bytes of a path in the tree */
#define BOOT_MAX_MAKEFILE	(512u << 10)	/* bytes of a folder's Makefile */
#define BOOT_MAX_CONFIG		(4u << 20)	/* bytes of the headers' .config */

/* Reads fd (a regular file) whole into a malloc'd *buf, at most max bytes. */
int boot_read_fd(int fd, size_t max, char **buf, size_t *len);
/* The regular file name in folder dirfd, not followed if a link. */
int boot_read_at(int dirfd, const char *name, size_t max, char **buf, size_t *len);
/* The folder path[0, dirlen) inside tree, opened one component at a time
 * without following links; an fd, or -1. */
int boot_tree_open_dir(const char *tree, const char *path, size_t dirlen);

#endif

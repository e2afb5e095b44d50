/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kversion: which checkpatch.pl version the bot's reviews follow
 * ([checker] checkpatch_version), and the kernel version of a source tree
 * (its top Makefile's VERSION and PATCHLEVEL) for "auto".
 */
#ifndef RB_KVERSION_H
#define RB_KVERSION_H

#include <stddef.h>

#include "../checker/rules.h"

#define KVERSION_MAKEFILE_HEAD	4096	/* bytes of the Makefile read */

/*
 * VERSION and PATCHLEVEL of the kernel tree at tree: the first lines
 * "VERSION = N" and "PATCHLEVEL = N" of tree/Makefile (within its first
 * KVERSION_MAKEFILE_HEAD bytes; numbers 0-999).  0, or -1 with why set.
 */
int kversion_of_tree(const char *tree, int *major, int *minor,
		     char *why, size_t whylen);

/*
 * The version a review follows: setting ([checker] checkpatch_version)
 * when it names one, else ("auto" or NULL) the one nearest to the kernel
 * of tree when a tree is given and its Makefile says, else the newest.
 * note (may be NULL) says where the choice came from, for the log.
 */
enum cp_version kversion_checkpatch(const char *setting, const char *tree,
				    char *note, size_t notelen);

#endif

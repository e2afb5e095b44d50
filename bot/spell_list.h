/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spell_list: the misspellings the bot's reviews look for ([checker]
 * spelling in reviewbot.conf(5)).
 *
 * checkpatch.pl reads its own scripts/spelling.txt (about 1,600 typos
 * of kernel prose); codespell's dictionary (37k entries) also holds
 * words that are kernel identifiers (filp, parms, te, ...), and 43 of 80
 * spelling warnings in reviews were such words.  So a review uses, for
 * "checkpatch" (the default):
 *
 *   1. [build] tree's scripts/spelling.txt, when a tree is set: the
 *      list of the kernel the series are compiled against;
 *   2. else the list built into the program for the checkpatch.pl
 *      version the reviews follow ([checker] checkpatch_version:
 *      extracted at build time from Debian's linux-source-VERSION,
 *      tools/mkcpdata.c), the same list `reviewbot check
 *      --checkpatch-version` uses;
 *
 * "codespell": codespell's dictionary (Debian's codespell package), as
 * `reviewbot check` reads by default; any other value: that file, in
 * either format (checker/spelling.h).  `reviewbot check` keeps its own
 * checkpatch.pl-compatible options and defaults.
 */
#ifndef RB_SPELL_LIST_H
#define RB_SPELL_LIST_H

#include <stddef.h>

/* Debian's codespell package */
#define SPELL_LIST_CODESPELL	"/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt"

struct config;
struct chk_spelling;

/*
 * The file [checker] spelling of cfg names, into path[0, n): 0; 1 for
 * checkpatch.pl's built-in list (checkpatch, and no tree's list); -1
 * when path is too small, with *why.  Looks at the file system, reads
 * nothing.
 */
int spell_list_path(const struct config *cfg, char *path, size_t n, const char **why);

/*
 * Loads that file, or the built-in list builtin[0, builtin_len) (a
 * spelling image, checker/spelling.h): the list (chk_spelling_free()
 * it), with path[0, n) the file read or "built-in"; NULL when it cannot
 * be found or read (err says why).
 */
struct chk_spelling *spell_list_load(const struct config *cfg, const void *builtin,
				     size_t builtin_len, char *path, size_t n,
				     char *err, size_t errlen);

#endif

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
 *   2. else SPELL_LIST_FILE, copied at build time from Debian's
 *      linux-source package (make extracts it; make install puts it in
 *      DATADIR/reviewbot/), found beside the running program as its
 *      templates are (libexec/reviewbot/ -> ../../share/reviewbot/,
 *      which is also where the build tree keeps it), else in DATADIR;
 *
 * "codespell": codespell's dictionary (Debian's codespell package), as
 * `reviewbot check` reads by default; any other value: that file, in
 * either format (checker/spelling.h).  `reviewbot check` keeps its own
 * checkpatch.pl-compatible options and defaults.
 *
 * The file is named by the kernel version it came from, so that lists
 * of other versions can sit beside it.
 */
#ifndef RB_SPELL_LIST_H
#define RB_SPELL_LIST_H

#include <stddef.h>

#define SPELL_LIST_KERNEL	"6.1"
#define SPELL_LIST_FILE		"spelling-" SPELL_LIST_KERNEL ".txt"
/* Debian's codespell package */
#define SPELL_LIST_CODESPELL	"/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt"

struct config;
struct chk_spelling;

/*
 * The file [checker] spelling of cfg names, into path[0, n): 0, or -1
 * when there is none (checkpatch: no tree's list and no installed copy),
 * with *why.  Looks at the file system, reads nothing.
 */
int spell_list_path(const struct config *cfg, char *path, size_t n, const char **why);

/*
 * Loads that file: the list (chk_spelling_free() it), with path[0, n)
 * the file read; NULL when it cannot be found or read (err says why).
 */
struct chk_spelling *spell_list_load(const struct config *cfg, char *path, size_t n,
				     char *err, size_t errlen);

#endif

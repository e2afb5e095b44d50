/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spell_cache: reviewbot check's misspelling list kept as an image
 * (checker/spelling.h) in a file, so that a run maps it instead of
 * parsing codespell's dictionary (37k lines) again.
 *
 * The file is <folder>/spelling-<16 hex>.img, the hex a hash of the
 * program's version, the image format, the built-in list's bytes when it
 * is one of the lists, and for each list file in order, its path, size,
 * mtime (ns), inode and device: a changed file is a new
 * name, and the old image is simply no longer read.  The folder is
 * $REVIEWBOT_CACHE_DIR, else $XDG_CACHE_HOME/reviewbot, else
 * $HOME/.cache/reviewbot (created 0700 when an image is written).
 *
 * An image is used only when it is a regular file owned by the user and
 * writable by no one else, opened without following a symlink, and when
 * chk_spelling_from_image() accepts it; anything else is ignored and the
 * list built from the files.  Writing is best effort (a temporary file
 * renamed into place, so readers see a whole image or none) and silent.
 */
#ifndef RB_SPELL_CACHE_H
#define RB_SPELL_CACHE_H

#include <limits.h>
#include <stddef.h>

#define SPELL_CACHE_MAX_IMAGE	(512u << 20)	/* bytes of an image file */

struct chk_spelling;

struct spell_cache {
	char dir[PATH_MAX];	/* "" when there is no cache */
	char path[PATH_MAX];	/* the image's file */
	void *map;		/* the mapped image of the list loaded */
	size_t len;
};

/*
 * Names the image of the list built from key[0, keylen) (a list that is
 * not a file, e.g. the built-in spelling.txt: its bytes; keylen may be
 * 0) and files[0, n), in that order.  Returns 0, or -1 when there can be
 * no cache: no folder, or a file that is "-" or not a regular file that
 * opens (whose list then has to be read, with its error messages).
 */
int spell_cache_init(struct spell_cache *c, const void *key, size_t keylen,
		     const char *const *files, int n);

/* The list from the cached image (mapped until spell_cache_release()),
 * or NULL when there is none or it is not fit to use. */
struct chk_spelling *spell_cache_load(struct spell_cache *c);

/* Writes the image of sp as the cached one; failures are ignored. */
void spell_cache_store(struct spell_cache *c, const struct chk_spelling *sp);

/* Unmaps the image: after chk_spelling_free() of the list it gave. */
void spell_cache_release(struct spell_cache *c);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The review's misspelling list (spell_list.h): which file, then the
 * checker's parser (checker/spelling.c) on it.
 */
#include "spell_list.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "fileio.h"
#include "../checker/sbuf.h"
#include "../checker/spelling.h"
#include "../checker/banned.h"

static int is_file(const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && S_ISREG(sb.st_mode);
}

static int set_path(char *path, size_t n, const char *dir, const char *rel)
{
	int k = snprintf(path, n, "%s%s%s", dir, *dir && *rel ? "/" : "", rel);

	return k < 0 || (size_t)k >= n ? -1 : 0;
}

int spell_list_path(const struct config *cfg, char *path, size_t n, const char **why)
{
	const char *v = cfg->spelling ? cfg->spelling : CONFIG_SPELLING_CHECKPATCH;

	*why = NULL;
	if (!strcmp(v, CONFIG_SPELLING_CODESPELL))
		return set_path(path, n, "", SPELL_LIST_CODESPELL);
	if (strcmp(v, CONFIG_SPELLING_CHECKPATCH))
		return set_path(path, n, "", v);
	/* the kernel the series are compiled against */
	if (cfg->build_tree && !set_path(path, n, cfg->build_tree, "scripts/spelling.txt") &&
	    is_file(path))
		return 0;
	if (set_path(path, n, "", "built-in")) {
		*why = "no room for the list's name";
		return -1;
	}
	return 1;
}

struct chk_spelling *spell_list_load(const struct config *cfg, const void *builtin,
				     size_t builtin_len, char *path, size_t n,
				     char *err, size_t errlen)
{
	struct chk_spelling *sp = NULL;
	struct sbuf words;
	const char *why;
	int r;

	r = spell_list_path(cfg, path, n, &why);
	if (r < 0) {
		snprintf(err, errlen, "%s", why);
		return NULL;
	}
	if (r > 0) {
		sp = builtin ? chk_spelling_from_image(builtin, builtin_len) : NULL;
		if (!sp)
			snprintf(err, errlen, "checkpatch.pl's built-in spelling list: %s",
				 builtin ? "out of memory" : "none in this build");
		return sp;
	}
	sbuf_init(&words, CHK_SPELLING_MAX_INPUT);
	if (fileio_read(path, &words)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	} else {
		sp = chk_spelling_new(words.buf, words.len);
		if (!sp)
			snprintf(err, errlen, "%s: out of memory", path);
	}
	sbuf_release(&words);
	return sp;
}

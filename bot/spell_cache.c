// SPDX-License-Identifier: GPL-2.0-only
/* The cached image of reviewbot check's misspelling list (spell_cache.h). */
#include "fileio.h"
#include "spell_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../checker/sbuf.h"
#include "../checker/spelling.h"
#include "version.h"
#include "../checker/banned.h"

#define FNV_OFF 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= FNV_PRIME;
	}
	return h;
}

static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
	return fnv(h, &v, sizeof(v));
}

/* $REVIEWBOT_CACHE_DIR, $XDG_CACHE_HOME/reviewbot, $HOME/.cache/reviewbot */
static int cache_dir(char *buf, size_t sz)
{
	const char *v = getenv("REVIEWBOT_CACHE_DIR");
	int n;

	if (v && *v)
		n = snprintf(buf, sz, "%s", v);
	else if ((v = getenv("XDG_CACHE_HOME")) && *v == '/')
		n = snprintf(buf, sz, "%s/reviewbot", v);
	else if ((v = getenv("HOME")) && *v == '/')
		n = snprintf(buf, sz, "%s/.cache/reviewbot", v);
	else
		return -1;
	return n > 0 && (size_t)n < sz ? 0 : -1;
}

int spell_cache_init(struct spell_cache *c, const void *key, size_t keylen,
		     const char *const *files, int n)
{
	uint64_t h = FNV_OFF;
	uint32_t fmt = CHK_SPELLING_IMAGE_VERSION;
	int i, len;

	memset(c, 0, sizeof(*c));
	h = fnv(h, "reviewbot " REVIEWBOT_VERSION, sizeof("reviewbot " REVIEWBOT_VERSION));
	h = fnv(h, &fmt, sizeof(fmt));
	h = fnv_u64(h, (uint64_t)keylen);
	if (keylen)
		h = fnv(h, key, keylen);
	for (i = 0; i < n; i++) {
		struct stat st;
		int fd;

		if (!strcmp(files[i], "-"))
			return -1;
		fd = open(files[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			close(fd);
			return -1;
		}
		close(fd);
		h = fnv(h, files[i], strlen(files[i]) + 1);
		h = fnv_u64(h, (uint64_t)st.st_size);
		h = fnv_u64(h, (uint64_t)st.st_mtim.tv_sec);
		h = fnv_u64(h, (uint64_t)st.st_mtim.tv_nsec);
		h = fnv_u64(h, (uint64_t)st.st_ino);
		h = fnv_u64(h, (uint64_t)st.st_dev);
	}
	if (cache_dir(c->dir, sizeof(c->dir)))
		goto none;
	len = snprintf(c->path, sizeof(c->path), "%s/spelling-%016llx.img", c->dir,
		       (unsigned long long)h);
	if (len < 0 || (size_t)len >= sizeof(c->path))
		goto none;
	return 0;
none:
	c->dir[0] = '\0';
	c->path[0] = '\0';
	return -1;
}

struct chk_spelling *spell_cache_load(struct spell_cache *c)
{
	struct chk_spelling *sp = NULL;
	struct stat st;
	void *map;
	int fd;

	if (!c->path[0] || c->map)
		return NULL;
	fd = open(c->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SPELL_CACHE_MAX_IMAGE)
		goto out;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		goto out;
	sp = chk_spelling_from_image(map, (size_t)st.st_size);
	if (!sp) {
		munmap(map, (size_t)st.st_size);
		goto out;
	}
	c->map = map;
	c->len = (size_t)st.st_size;
out:
	close(fd);
	return sp;
}

/* mkdir(path, 0700) unless something is there already */
static int make_one(const char *path)
{
	struct stat st;

	if (!stat(path, &st) || errno != ENOENT)
		return 0;
	if (mkdir(path, 0700) && errno != EEXIST)
		return -1;
	return 0;
}

/* The folder and its parent, made 0700 when missing (~/.cache may not
 * exist yet); then it has to be a folder of ours. */
static int make_dir(const char *dir)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(dir, '/');
	struct stat st;

	if (slash && slash > dir && (size_t)(slash - dir) < sizeof(parent)) {
		memcpy(parent, dir, (size_t)(slash - dir));
		parent[slash - dir] = '\0';
		if (make_one(parent))
			return -1;
	}
	if (make_one(dir))
		return -1;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return -1;
	return 0;
}

void spell_cache_store(struct spell_cache *c, const struct chk_spelling *sp)
{
	char tmp[PATH_MAX];
	struct sbuf img;
	int fd, len, ok;

	if (!c->path[0] || !sp)
		return;
	sbuf_init(&img, SPELL_CACHE_MAX_IMAGE);
	if (chk_spelling_image(sp, &img) || make_dir(c->dir))
		goto out;
	len = snprintf(tmp, sizeof(tmp), "%s/.spelling-XXXXXX", c->dir);
	if (len < 0 || (size_t)len >= sizeof(tmp))
		goto out;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto out;
	ok = !fileio_write_all(fd, img.buf, img.len);
	if (close(fd))
		ok = 0;
	if (!ok || rename(tmp, c->path))
		unlink(tmp);
out:
	sbuf_release(&img);
}

void spell_cache_release(struct spell_cache *c)
{
	if (c->map)
		munmap(c->map, c->len);
	c->map = NULL;
	c->len = 0;
}

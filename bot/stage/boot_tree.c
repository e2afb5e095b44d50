// SPDX-License-Identifier: GPL-2.0-only
/*
 * The load stage's access to a kernel tree ([build] tree): plain paths
 * only, opened a folder at a time without following links, size-capped
 * reads; and the series' hunks applied in memory (boot_apply).  See
 * boot.h and boot_int.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot.h"
#include "boot_int.h"
#include "../../checker/diff.h"
#include "../../checker/banned.h"

/* ---- reading a kernel tree ([build] tree) ------------------------------- */

/* boot.h: relative, plain components, none starting with '.' or '-'. */
int boot_tree_path_ok(const char *path)
{
	size_t i, n = path ? strlen(path) : 0;
	int start = 1;

	if (!n || n >= BOOT_PATH_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		char ch = path[i];

		if (ch == '/') {
			if (start)
				return 0;
			start = 1;
			continue;
		}
		if (start && (ch == '.' || ch == '-'))
			return 0;
		start = 0;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == ',' ||
		      ch == '+' || ch == '-'))
			return 0;
	}
	return !start;
}

/* Reads the regular file fd (at most max bytes, else -1) into *buf. */
int boot_read_fd(int fd, size_t max, char **buf, size_t *len)
{
	struct stat sb;
	size_t want, n = 0;
	char *b;

	*buf = NULL;
	*len = 0;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size < 0 ||
	    (unsigned long long)sb.st_size > max)
		return -1;
	want = (size_t)sb.st_size;
	b = malloc(want + 1);
	if (!b)
		return -1;
	while (n < want) {
		ssize_t r = read(fd, b + n, want - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(b);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* Reads name of the folder dirfd, a regular file, never through a symlink. */
int boot_read_at(int dirfd, const char *name, size_t max, char **buf, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int ret;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -1;
	ret = boot_read_fd(fd, max, buf, len);
	close(fd);
	return ret;
}

/*
 * Opens the folder path[0, dirlen) of tree one component at a time with
 * O_NOFOLLOW: a symlink in the tree cannot lead out of it.  -1 if not.
 */
int boot_tree_open_dir(const char *tree, const char *path, size_t dirlen)
{
	char comp[BOOT_PATH_MAX];
	int fd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t i = 0;

	while (fd >= 0 && i < dirlen) {
		size_t j = i;
		int nfd;

		while (j < dirlen && path[j] != '/')
			j++;
		if (j == i || j - i >= sizeof(comp)) {
			close(fd);
			return -1;
		}
		memcpy(comp, path + i, j - i);
		comp[j - i] = '\0';
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = nfd;
		i = j + 1;
	}
	return fd;
}

int boot_tree_read(const char *tree, const char *path, size_t max,
		   char **out, size_t *len)
{
	const char *sl;
	size_t dl;
	int dfd, rc;

	*out = NULL;
	*len = 0;
	if (!tree || !*tree || !boot_tree_path_ok(path))
		return BOOT_TREE_REFUSED;
	sl = strrchr(path, '/');
	dl = sl ? (size_t)(sl - path) : 0;
	dfd = boot_tree_open_dir(tree, path, dl);
	if (dfd < 0)
		return BOOT_TREE_UNREADABLE;
	rc = boot_read_at(dfd, sl ? sl + 1 : path, max, out, len);
	close(dfd);
	return rc ? BOOT_TREE_UNREADABLE : 0;
}

/* ---- applying a series' hunks in memory --------------------------------- */

/* The result of an apply, capped at BOOT_MAX_SOURCE. */
struct obuf {
	char *b;
	size_t n, cap;
	int err;
};

static void ob_add(struct obuf *o, const char *s, size_t n)
{
	if (o->err || !n)
		return;
	if (n > BOOT_MAX_SOURCE - o->n) {
		o->err = BOOT_APPLY_LIMIT;
		return;
	}
	if (o->n + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *nb;

		while (cap < o->n + n + 1)
			cap *= 2;
		nb = realloc(o->b, cap);
		if (!nb) {
			o->err = BOOT_APPLY_NOMEM;
			return;
		}
		o->b = nb;
		o->cap = cap;
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

/* Line i of t (ls[i] its start, ls[i + 1] the next's) equals dl's text. */
static int line_eq(const char *t, const size_t *ls, size_t i, const struct diff_line *dl)
{
	const char *s = t + ls[i];
	size_t n = ls[i + 1] - ls[i];

	if (n && s[n - 1] == '\n')
		n--;
	if (n && s[n - 1] == '\r')
		n--;
	return n == dl->len && (!n || !memcmp(s, dl->text, n));
}

/* The old lines (' ' and '-') of hunk hk equal t's lines from q on. */
static int hunk_at(const char *t, const size_t *ls, const struct diff *d,
		   const struct diff_hunk *hk, size_t q)
{
	size_t l, k = q;

	for (l = hk->first_line; l < hk->first_line + hk->nlines; l++) {
		const struct diff_line *dl = &d->lines[l];

		if (dl->kind == '+')
			continue;
		if (!line_eq(t, ls, k, dl))
			return 0;
		k++;
	}
	return 1;
}

int boot_apply(const char *orig, size_t len, const struct diff *d, size_t file,
	       char **out, size_t *outlen)
{
	const struct diff_file *f;
	struct obuf ob = { 0 };
	size_t *ls = NULL, nl = 0, cur = 0, i, h;
	long offset = 0;
	int ret = BOOT_APPLY_NOMEM;

	*out = NULL;
	*outlen = 0;
	if (!d || file >= d->nfiles || len > BOOT_MAX_SOURCE || (len && !orig))
		return BOOT_APPLY_LIMIT;
	f = &d->files[file];
	/* ls[i]: where line i starts; ls[nl] = len */
	for (i = 0; i < len; i++)
		if (orig[i] == '\n')
			nl++;
	if (len && orig[len - 1] != '\n')
		nl++;
	ls = malloc((nl + 1) * sizeof(*ls));
	if (!ls)
		return BOOT_APPLY_NOMEM;
	{
		size_t k = 1;

		ls[0] = 0;
		for (i = 0; i < len && k < nl; i++)
			if (orig[i] == '\n')
				ls[k++] = i + 1;
		ls[nl] = len;
	}
	for (h = f->first_hunk; h < f->first_hunk + f->nhunks; h++) {
		const struct diff_hunk *hk = &d->hunks[h];
		size_t m = 0, k, l, q = 0;
		long base, want, dist;
		int found = 0;

		ret = (int)(h - f->first_hunk + 1);
		if (hk->err != DIFF_HUNK_OK)
			goto out;
		for (l = hk->first_line; l < hk->first_line + hk->nlines; l++)
			if (d->lines[l].kind != '+')
				m++;
		if (m > nl - cur)
			goto out;
		/* "-5,0": the lines go after line 5; "-5,3": line 5 is the first */
		base = m ? hk->old_start - 1 : hk->old_start;
		if (base < 0)
			goto out;
		want = base + offset;
		/* where it says, else the nearest place after the hunk before
		 * (patch's offset; no fuzz: every old line must match) */
		for (dist = 0; dist <= BOOT_APPLY_WINDOW && !found; dist++) {
			int side;

			for (side = 0; side < 2 && !found; side++) {
				long c = side ? want - dist : want + dist;

				if ((side && !dist) || c < (long)cur || c > (long)(nl - m))
					continue;
				if (hunk_at(orig, ls, d, hk, (size_t)c)) {
					q = (size_t)c;
					found = 1;
				}
			}
		}
		if (!found)
			goto out;
		ob_add(&ob, orig + ls[cur], ls[q] - ls[cur]);
		k = q;
		for (l = hk->first_line; l < hk->first_line + hk->nlines; l++) {
			const struct diff_line *dl = &d->lines[l];

			if (dl->kind == '-') {
				k++;
			} else if (dl->kind == ' ') {
				const char *s = orig + ls[k];
				size_t n = ls[k + 1] - ls[k];

				if (n && s[n - 1] == '\n') {
					ob_add(&ob, s, n);
				} else {
					ob_add(&ob, s, n);
					if (!dl->no_newline)
						ob_add(&ob, "\n", 1);
				}
				k++;
			} else {
				ob_add(&ob, dl->text, dl->len);
				if (!dl->no_newline)
					ob_add(&ob, "\n", 1);
			}
		}
		cur = q + m;
		offset = (long)q - base;
		if (ob.err) {
			ret = ob.err;
			goto out;
		}
	}
	ob_add(&ob, orig + ls[cur], len - ls[cur]);
	if (ob.err) {
		ret = ob.err;
		goto out;
	}
	if (!ob.b) {
		ob.b = malloc(1);
		if (!ob.b) {
			ret = BOOT_APPLY_NOMEM;
			goto out;
		}
	}
	ob.b[ob.n] = '\0';
	*out = ob.b;
	*outlen = ob.n;
	ob.b = NULL;
	ret = 0;
out:
	free(ob.b);
	free(ls);
	return ret;
}

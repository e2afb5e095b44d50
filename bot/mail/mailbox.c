// SPDX-License-Identifier: GPL-2.0-only
/*
 * mailbox: mbox files and maildirs, plain POSIX: read by the local source
 * (src_local.c), written by the outbox (deliver.c).
 *
 * mbox (RFC 4155 and the mboxo/mboxrd variants): the file is read through
 * a fixed 64 KiB window, line by line; only the message being read is kept
 * in memory, in the caller's sbuf, and a message over MAILBOX_MAX_MESSAGE
 * is read to its end without being kept.  A "From " line starts a message
 * at the start of the file (or of the reading offset) or after an empty
 * line; elsewhere it is body text.  The empty line before a separator is
 * the mbox format's, not the message's: exactly one is stripped.
 *
 * maildir (https://cr.yp.to/proto/maildir.html): delivery writes tmp/,
 * fsyncs, renames into new/ and fsyncs new/.
 */
#include "../fileio.h"
#include "mailbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../checker/banned.h"

#define MBOX_WINDOW	(64u << 10)

struct mbox_reader {
	int fd;
	enum mbox_flavour fl;
	char buf[MBOX_WINDOW];
	size_t pos, len;	/* unread bytes: buf[pos, len) */
	uint64_t off;		/* file offset of buf[pos] */
	int eof;		/* read() returned 0 */
	int single;		/* the file is one mail without "From " line */
	int done;
};

/* Refills so at least `want` bytes are buffered, unless the file ends. */
static int fill(struct mbox_reader *r, size_t want)
{
	ssize_t n;

	if (want > MBOX_WINDOW)
		want = MBOX_WINDOW;
	while (r->len - r->pos < want && !r->eof) {
		if (r->pos) {
			memmove(r->buf, r->buf + r->pos, r->len - r->pos);
			r->len -= r->pos;
			r->pos = 0;
		}
		n = read(r->fd, r->buf + r->len, MBOX_WINDOW - r->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return MAILBOX_ERR_IO;
		}
		if (n == 0)
			r->eof = 1;
		r->len += (size_t)n;
	}
	return MAILBOX_OK;
}

static int at_from(struct mbox_reader *r)
{
	return r->len - r->pos >= 5 && !memcmp(r->buf + r->pos, "From ", 5);
}

/*
 * Consumes one line (or, for a line longer than the window, all its
 * pieces), appending it to msg when msg is not NULL.  *llen gets the
 * line's length with its line end; 0 at the end of the file.
 */
static int take_line(struct mbox_reader *r, struct sbuf *msg, uint64_t *llen,
		     int *empty)
{
	const char *nl;
	size_t n;
	int ret;

	*llen = 0;
	*empty = 0;
	for (;;) {
		ret = fill(r, 1);
		if (ret)
			return ret;
		if (r->pos == r->len)
			return MAILBOX_OK;
		nl = memchr(r->buf + r->pos, '\n', r->len - r->pos);
		n = nl ? (size_t)(nl - (r->buf + r->pos)) + 1 : r->len - r->pos;
		if (*llen == 0)
			*empty = (n == 1 && nl) ||
				 (n == 2 && nl && r->buf[r->pos] == '\r');
		else
			*empty = 0;
		if (msg)
			sbuf_add(msg, r->buf + r->pos, n);
		*llen += n;
		r->pos += n;
		r->off += n;
		if (nl)
			return MAILBOX_OK;
	}
}

int mbox_open(const char *path, uint64_t offset, enum mbox_flavour fl,
	      struct mbox_reader **out)
{
	struct mbox_reader *r;
	uint64_t llen;
	int ret, empty, prev_empty;

	*out = NULL;
	if (offset > (uint64_t)LLONG_MAX) {
		errno = EINVAL;
		return MAILBOX_ERR_IO;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return MAILBOX_ERR_NOMEM;
	r->fl = fl;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		ret = MAILBOX_ERR_IO;
		goto fail;
	}
	if (offset && lseek(r->fd, (off_t)offset, SEEK_SET) == (off_t)-1) {
		ret = MAILBOX_ERR_IO;
		goto fail;
	}
	r->off = offset;
	ret = fill(r, 5);
	if (ret)
		goto fail;
	if (!at_from(r)) {
		if (offset == 0) {
			r->single = r->len > 0;
			r->done = r->len == 0;
		} else {
			/* not at a separator: go on to the next one */
			prev_empty = 0;
			for (;;) {
				ret = fill(r, 5);
				if (ret)
					goto fail;
				if (r->pos == r->len) {
					r->done = 1;
					break;
				}
				if (prev_empty && at_from(r))
					break;
				ret = take_line(r, NULL, &llen, &empty);
				if (ret)
					goto fail;
				prev_empty = empty;
			}
		}
	}
	*out = r;
	return MAILBOX_OK;
fail:
	if (r->fd >= 0)
		close(r->fd);
	free(r);
	return ret;
}

static int read_single(struct mbox_reader *r, struct sbuf *msg,
		       uint64_t *start, uint64_t *next)
{
	uint64_t total = 0, llen;
	int ret, empty, over = 0;

	*start = r->off;
	for (;;) {
		ret = take_line(r, over ? NULL : msg, &llen, &empty);
		if (ret)
			return ret;
		if (!llen)
			break;
		total += llen;
		if (total > MAILBOX_MAX_MESSAGE || msg->err == SBUF_ERR_CAP) {
			over = 1;
			sbuf_reset(msg);
		}
	}
	r->done = 1;
	*next = r->off;
	if (over)
		return MAILBOX_ERR_LIMIT;
	return msg->err ? MAILBOX_ERR_NOMEM : MAILBOX_OK;
}

int mbox_next(struct mbox_reader *r, struct sbuf *msg, uint64_t *start,
	      uint64_t *next)
{
	uint64_t total = 0, llen, last_len = 0;
	int ret, empty, prev_empty = 0, over = 0;

	sbuf_reset(msg);
	*start = *next = r->off;
	if (r->done)
		return MAILBOX_END;
	if (r->single)
		return read_single(r, msg, start, next);
	ret = fill(r, 5);
	if (ret)
		return ret;
	if (r->pos == r->len) {
		r->done = 1;
		return MAILBOX_END;
	}
	/* the "From " separator line is not part of the message */
	ret = take_line(r, NULL, &llen, &empty);
	if (ret)
		return ret;
	for (;;) {
		ret = fill(r, 5);
		if (ret)
			return ret;
		if (r->pos == r->len) {
			r->done = 1;
			break;
		}
		if (prev_empty && at_from(r))
			break;
		ret = take_line(r, over ? NULL : msg, &llen, &empty);
		if (ret)
			return ret;
		total += llen;
		last_len = llen;
		prev_empty = empty;
		if (!over && (total > MAILBOX_MAX_MESSAGE ||
			      msg->err == SBUF_ERR_CAP)) {
			over = 1;
			sbuf_reset(msg);
		}
	}
	*next = r->off;
	if (over) {
		sbuf_reset(msg);
		return MAILBOX_ERR_LIMIT;
	}
	if (msg->err)
		return MAILBOX_ERR_NOMEM;
	if (prev_empty && last_len <= msg->len)
		sbuf_truncate(msg, msg->len - (size_t)last_len);
	sbuf_truncate(msg, mbox_unescape(msg->buf, msg->len, r->fl));
	return MAILBOX_OK;
}

void mbox_close(struct mbox_reader *r)
{
	if (!r)
		return;
	close(r->fd);
	free(r);
}

size_t mbox_unescape(char *buf, size_t len, enum mbox_flavour fl)
{
	size_t i = 0, j = 0, k, n;
	const char *nl;

	while (i < len) {
		nl = memchr(buf + i, '\n', len - i);
		n = nl ? (size_t)(nl - (buf + i)) + 1 : len - i;
		/* mboxrd: ">+From " loses one '>'; mboxo: only ">From " */
		k = 0;
		while (k < n && buf[i + k] == '>')
			k++;
		if (k >= 1 && (fl == MBOX_RD || k == 1) && n - k >= 5 &&
		    !memcmp(buf + i + k, "From ", 5)) {
			i++;
			n--;
		}
		memmove(buf + j, buf + i, n);
		i += n;
		j += n;
	}
	if (j < len)
		buf[j] = 0;
	return j;
}

/* ---- maildir --------------------------------------------------------- */

/*
 * Delivery order.  Delivery agents (dovecot, postfix, Python's mailbox)
 * name a message SECONDS.UNIQUE with the microseconds in UNIQUE as
 * M<usec>, numbers unpadded: strcmp() would put M100000 before M99999 of
 * the same second.  strverscmp() compares runs of digits as numbers.
 */
static int cmp_name(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

void maildir_list_release(struct maildir_list *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	l->names = NULL;
	l->n = 0;
}

/* Appends the sorted "sub/NAME" entries of dir/sub after `after`. */
static int list_sub(const char *dir, const char *sub, const char *after,
		    struct maildir_list *out, size_t *alloc)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t first = out->n, sl = strlen(sub), nl;
	char **nn, *s;
	DIR *d;
	int ret = MAILBOX_OK;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, sub) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return MAILBOX_ERR_IO;
	}
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? MAILBOX_OK : MAILBOX_ERR_IO;
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno)
				ret = MAILBOX_ERR_IO;
			break;
		}
		if (de->d_name[0] == '.' || de->d_type == DT_DIR)
			continue;
		if (out->n >= MAILBOX_MAX_FILES) {
			ret = MAILBOX_ERR_LIMIT;
			break;
		}
		if (out->n == *alloc) {
			*alloc = *alloc ? *alloc * 2 : 64;
			nn = realloc(out->names, *alloc * sizeof(*nn));
			if (!nn) {
				ret = MAILBOX_ERR_NOMEM;
				break;
			}
			out->names = nn;
		}
		nl = strlen(de->d_name);
		s = malloc(sl + 1 + nl + 1);
		if (!s) {
			ret = MAILBOX_ERR_NOMEM;
			break;
		}
		memcpy(s, sub, sl);
		s[sl] = '/';
		memcpy(s + sl + 1, de->d_name, nl + 1);
		if (after && *after && strncmp(after, sub, sl) == 0 &&
		    after[sl] == '/' && strverscmp(s, after) <= 0) {
			free(s);
			continue;
		}
		out->names[out->n++] = s;
	}
	closedir(d);
	if (!ret && out->n > first)	/* qsort(NULL, 0) is undefined */
		qsort(out->names + first, out->n - first, sizeof(*out->names),
		      cmp_name);
	return ret;
}

int maildir_list(const char *dir, const char *after, struct maildir_list *out)
{
	size_t alloc = 0;
	int ret = MAILBOX_OK;

	out->names = NULL;
	out->n = 0;
	/* after a cur/ name nothing in new/ comes after it */
	if (!after || strncmp(after, "cur/", 4))
		ret = list_sub(dir, "new", after, out, &alloc);
	if (!ret)
		ret = list_sub(dir, "cur", after, out, &alloc);
	if (ret)
		maildir_list_release(out);
	return ret;
}

/* "new/NAME" or "cur/NAME", NAME without '/' and not starting with '.'. */
static int name_ok(const char *name)
{
	if (strncmp(name, "new/", 4) && strncmp(name, "cur/", 4))
		return 0;
	return name[4] && name[4] != '.' && !strchr(name + 4, '/');
}

int maildir_read(const char *dir, const char *name, struct sbuf *msg)
{
	char path[PATH_MAX];
	struct stat st;
	char buf[MBOX_WINDOW];
	ssize_t n;
	int fd, ret = MAILBOX_OK;

	sbuf_reset(msg);
	if (!name_ok(name)) {
		errno = EINVAL;
		return MAILBOX_ERR_IO;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return MAILBOX_ERR_IO;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return MAILBOX_ERR_IO;
	if (fstat(fd, &st) < 0) {
		ret = MAILBOX_ERR_IO;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		ret = MAILBOX_ERR_IO;
		goto out;
	}
	if ((uint64_t)st.st_size > MAILBOX_MAX_MESSAGE) {
		ret = MAILBOX_ERR_LIMIT;
		goto out;
	}
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = MAILBOX_ERR_IO;
			goto out;
		}
		if (n == 0)
			break;
		sbuf_add(msg, buf, (size_t)n);
		if (msg->err || msg->len > MAILBOX_MAX_MESSAGE) {
			ret = msg->err == SBUF_ERR_NOMEM ? MAILBOX_ERR_NOMEM :
							   MAILBOX_ERR_LIMIT;
			goto out;
		}
	}
out:
	if (ret)
		sbuf_reset(msg);
	close(fd);
	return ret;
}

static int mkdir_p(const char *path)
{
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

static int fsync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -1;
	r = fsync(fd);
	close(fd);
	return r;
}

int maildir_deliver(const char *dir, const char *msg, size_t len, char **name)
{
	static unsigned counter;
	char host[256], base[512], tmp[PATH_MAX], dst[PATH_MAX], sub[PATH_MAX];
	const char *subs[] = { "tmp", "new", "cur" };
	size_t i;
	int fd = -1, tries, saved;

	if (name)
		*name = NULL;
	if (mkdir_p(dir) < 0)
		return MAILBOX_ERR_IO;
	for (i = 0; i < 3; i++) {
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, subs[i]) >=
		    sizeof(sub)) {
			errno = ENAMETOOLONG;
			return MAILBOX_ERR_IO;
		}
		if (mkdir_p(sub) < 0)
			return MAILBOX_ERR_IO;
	}
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = 0;
	for (i = 0; host[i]; i++)
		if (host[i] == '/' || host[i] == ':')
			host[i] = '_';
	for (tries = 0; tries < 100; tries++) {
		snprintf(base, sizeof(base), "%lld.%ld_%u.%s",
			 (long long)time(NULL), (long)getpid(),
			 __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED), host);
		if ((size_t)snprintf(tmp, sizeof(tmp), "%s/tmp/%s", dir, base) >=
			    sizeof(tmp) ||
		    (size_t)snprintf(dst, sizeof(dst), "%s/new/%s", dir, base) >=
			    sizeof(dst)) {
			errno = ENAMETOOLONG;
			return MAILBOX_ERR_IO;
		}
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return MAILBOX_ERR_IO;
	if (fileio_write_all(fd, msg, len) < 0 || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, dst) < 0)
		goto fail;
	snprintf(sub, sizeof(sub), "%s/new", dir);
	if (fsync_dir(sub) < 0)
		return MAILBOX_ERR_IO;
	if (name) {
		size_t bl = strlen(base);

		*name = malloc(4 + bl + 1);
		if (!*name)
			return MAILBOX_ERR_NOMEM;
		memcpy(*name, "new/", 4);
		memcpy(*name + 4, base, bl + 1);
	}
	return MAILBOX_OK;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = saved;
	return MAILBOX_ERR_IO;
}

int mailbox_is_maildir(const char *path)
{
	char p[PATH_MAX];
	struct stat st;

	if ((size_t)snprintf(p, sizeof(p), "%s/cur", path) >= sizeof(p) ||
	    stat(p, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	snprintf(p, sizeof(p), "%s/new", path);
	if (stat(p, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	return 1;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * secret: a server's password from a private file or the environment
 * (secret.h), for the mail sources and SMTP delivery alike; the
 * installation's key and SipHash-2-4.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "secret.h"
#include "../store/store.h"
#include "../checker/banned.h"

int secret_password(const char *file, const char *env, char *out, size_t outlen,
		    char *err, size_t errlen)
{
	struct stat sb;
	ssize_t n;
	size_t len;
	char *nl;
	int fd;

	out[0] = '\0';
	if (file) {
		fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0) {
			snprintf(err, errlen, "password file %s: %s", file, strerror(errno));
			return -1;
		}
		if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
			snprintf(err, errlen, "password file %s: not a regular file", file);
			close(fd);
			return -1;
		}
		if (sb.st_mode & 077) {
			snprintf(err, errlen, "password file %s: readable by others (mode %03o): chmod 600 it",
				 file, (unsigned)(sb.st_mode & 0777));
			close(fd);
			return -1;
		}
		n = read(fd, out, outlen - 1);
		close(fd);
		if (n < 0) {
			snprintf(err, errlen, "password file %s: %s", file, strerror(errno));
			return -1;
		}
		out[n] = '\0';
		nl = strpbrk(out, "\r\n");
		if (nl)
			*nl = '\0';
		if ((size_t)n == outlen - 1 && !nl) {
			snprintf(err, errlen, "password file %s: longer than %zu bytes", file,
				 outlen - 2);
			explicit_bzero(out, outlen);
			return -1;
		}
		return 0;
	}
	if (env) {
		const char *v = getenv(env);

		if (!v) {
			snprintf(err, errlen, "password: environment variable %s is not set", env);
			return -1;
		}
		len = strlen(v);
		if (len >= outlen) {
			snprintf(err, errlen, "password: %s is longer than %zu bytes", env,
				 outlen - 1);
			return -1;
		}
		memcpy(out, v, len + 1);
		return 0;
	}
	return 1;
}

/* ---- the installation's key ----------------------------------------------------- */

int secret_installation_key(struct store *st, const char *name, struct secret_key *key,
			    char *err, size_t errlen)
{
	struct secret_key fresh;
	size_t got = 0;
	ssize_t r;
	int ret;

	ret = store_secret_get(st, name, key->k, sizeof(key->k));
	if (ret == STORE_OK)
		return 0;
	if (ret != STORE_DONE)
		goto store_err;
	while (got < sizeof(fresh.k)) {
		r = getrandom(fresh.k + got, sizeof(fresh.k) - got, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "key %s: getrandom: %s", name, strerror(errno));
			return -1;
		}
		got += (size_t)r;
	}
	/* the first one stored wins: read back what is there */
	ret = store_secret_add(st, name, fresh.k, sizeof(fresh.k), 0);
	explicit_bzero(&fresh, sizeof(fresh));
	if (ret == STORE_OK)
		ret = store_secret_get(st, name, key->k, sizeof(key->k));
	if (ret == STORE_OK)
		return 0;
store_err:
	snprintf(err, errlen, "key %s: %s", name,
		 ret == STORE_DONE ? "not stored" : store_errmsg(st));
	return -1;
}

/* ---- SipHash-2-4 --------------------------------------------------------------------- */

#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static void sip_round(struct secret_siphash *h)
{
	h->v0 += h->v1;
	h->v1 = ROTL(h->v1, 13);
	h->v1 ^= h->v0;
	h->v0 = ROTL(h->v0, 32);
	h->v2 += h->v3;
	h->v3 = ROTL(h->v3, 16);
	h->v3 ^= h->v2;
	h->v0 += h->v3;
	h->v3 = ROTL(h->v3, 21);
	h->v3 ^= h->v0;
	h->v2 += h->v1;
	h->v1 = ROTL(h->v1, 17);
	h->v1 ^= h->v2;
	h->v2 = ROTL(h->v2, 32);
}

static void sip_word(struct secret_siphash *h, uint64_t m)
{
	h->v3 ^= m;
	sip_round(h);
	sip_round(h);
	h->v0 ^= m;
}

void secret_siphash_init(struct secret_siphash *h, const struct secret_key *key)
{
	uint64_t k0 = le64(key->k), k1 = le64(key->k + 8);

	memset(h, 0, sizeof(*h));
	h->v0 = k0 ^ 0x736f6d6570736575ULL;
	h->v1 = k1 ^ 0x646f72616e646f6dULL;
	h->v2 = k0 ^ 0x6c7967656e657261ULL;
	h->v3 = k1 ^ 0x7465646279746573ULL;
}

void secret_siphash_add(struct secret_siphash *h, const void *buf, size_t n)
{
	const unsigned char *p = buf;
	size_t i;

	h->len += n;
	for (i = 0; i < n; i++) {
		h->tail |= (uint64_t)p[i] << (8 * h->ntail);
		if (++h->ntail == 8) {
			sip_word(h, h->tail);
			h->tail = 0;
			h->ntail = 0;
		}
	}
}

uint64_t secret_siphash_final(struct secret_siphash *h)
{
	int i;

	sip_word(h, h->tail | (h->len & 0xff) << 56);
	h->v2 ^= 0xff;
	for (i = 0; i < 4; i++)
		sip_round(h);
	return h->v0 ^ h->v1 ^ h->v2 ^ h->v3;
}

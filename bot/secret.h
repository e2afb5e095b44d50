/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * secret: a server's password, read without ever logging it; the
 * installation's own key, kept in its database; and SipHash-2-4, the
 * keyed hash that names the bot's mail with that key.
 */
#ifndef RB_SECRET_H
#define RB_SECRET_H

#include <stddef.h>
#include <stdint.h>

#define SECRET_MAX_PASSWORD	1024

/*
 * The password for a server: from file (refused when group or others may
 * read it, or it is not a regular file; the first line, without its line
 * end) or from the environment variable env.  0, 1 when neither is set
 * (no password), or -1 with err (which never holds the password).
 */
int secret_password(const char *file, const char *env, char *out, size_t outlen,
		    char *err, size_t errlen);

#define SECRET_KEY_BYTES	16	/* a SipHash key */

/* A key (SECRET_KEY_BYTES). */
struct secret_key {
	unsigned char k[SECRET_KEY_BYTES];
};

struct store;

/*
 * The installation's key called name ("message-id"): read from the
 * database st, made there (from getrandom()) the first time.  Two
 * processes making it at once agree on the one stored first.  0, or -1
 * with err.  The key is never logged, shown by serve or printed.
 */
int secret_installation_key(struct store *st, const char *name, struct secret_key *key,
			    char *err, size_t errlen);

/* SipHash-2-4 (Aumasson and Bernstein, 2012) of a message fed in pieces. */
struct secret_siphash {
	uint64_t v0, v1, v2, v3;
	uint64_t tail;		/* bytes not yet in a word */
	size_t ntail;
	uint64_t len;
};
void secret_siphash_init(struct secret_siphash *h, const struct secret_key *key);
void secret_siphash_add(struct secret_siphash *h, const void *buf, size_t n);
uint64_t secret_siphash_final(struct secret_siphash *h);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * digest: a mail's canonical text and its SHA-256 (digest.h).
 */
#include "digest.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../../checker/banned.h"

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------ */

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;
	unsigned char buf[64];
	size_t n;
};

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10)) + w[i - 7] +
		       (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 16];
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
		     sha_k[i] + w[i];
		t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof(iv));
	s->bytes = 0;
	s->n = 0;
}

static void sha_update(struct sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->bytes += len;
	while (len) {
		size_t k = 64 - s->n < len ? 64 - s->n : len;

		memcpy(s->buf + s->n, p, k);
		s->n += k;
		p += k;
		len -= k;
		if (s->n == 64) {
			sha_block(s, s->buf);
			s->n = 0;
		}
	}
}

static void sha_final(struct sha256 *s, unsigned char out[32])
{
	uint64_t bits = s->bytes * 8;
	unsigned char pad = 0x80, zero = 0, len[8];
	int i;

	sha_update(s, &pad, 1);
	while (s->n != 56)
		sha_update(s, &zero, 1);
	for (i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha_update(s, len, 8);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(s->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void mail_sha256(const void *data, size_t len, unsigned char out[32])
{
	struct sha256 s;

	sha_init(&s);
	sha_update(&s, data, len);
	sha_final(&s, out);
}

/* ---- the canonical text ---------------------------------------------------- */

/* Fields the way adds or changes (names lowercase; a '-' at the end
 * names a prefix). */
static const char *const transport[] = {
	"received", "return-path", "delivered-to", "x-delivered-to", "x-original-to",
	"envelope-to", "x-envelope-from", "x-envelope-to", "x-rcpt-to",
	"x-forwarded-to", "x-forwarded-for", "resent-",
	"list-", "precedence", "mailing-list", "x-mailing-list", "x-loop", "errors-to",
	"sender", "archived-at", "x-beenthere", "x-original-sender", "x-mailman-",
	"dkim-signature", "x-google-dkim-signature", "arc-", "authentication-results",
	"received-spf", "x-received", "x-spam-", "x-virus-", "x-google-", "x-gm-",
	"x-ms-exchange-", "x-microsoft-antispam", "x-microsoft-antispam-", "x-forefront-",
	"x-ironport-",
	"x-proofpoint-", "x-mimecast-",
	/* what a mailbox writes into it */
	"status", "x-status", "x-keywords", "x-uid", "x-imap", "x-imapbase",
	"content-length", "lines",
};

static int is_transport(const char *name, size_t n)
{
	size_t i, k;

	for (i = 0; i < sizeof(transport) / sizeof(transport[0]); i++) {
		k = strlen(transport[i]);
		if (transport[i][k - 1] == '-' ? n >= k && !strncasecmp(name, transport[i], k) :
		    n == k && !strncasecmp(name, transport[i], k))
			return 1;
	}
	return 0;
}

/* The end of the line at p (its '\n', or e); *next past it. */
static const char *line_end(const char *p, const char *e, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(e - p));

	*next = nl ? nl + 1 : e;
	if (!nl)
		nl = e;
	if (nl > p && nl[-1] == '\r')
		nl--;
	return nl;
}

/* Feeds s[0, n) as one field's value: white space runs as one space,
 * none at the ends (*started: something of the value was fed). */
static void feed_value(struct sha256 *h, const char *s, size_t n, int *started, int *space)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			*space = 1;
			continue;
		}
		if (*space && *started)
			sha_update(h, " ", 1);
		*space = 0;
		*started = 1;
		sha_update(h, &s[i], 1);
	}
}

void mail_digest(const char *raw, size_t len, char out[MAIL_DIGEST_HEX + 1])
{
	static const char hex[] = "0123456789abcdef";
	const char *p = raw ? raw : "", *e = p + (raw ? len : 0), *le, *next, *colon;
	struct sha256 h;
	unsigned char d[32];
	int keep = 0, open = 0, started = 0, space = 0;
	size_t i, n;

	sha_init(&h);
	/* an mbox separator is not part of the message */
	if ((size_t)(e - p) >= 5 && !memcmp(p, "From ", 5))
		line_end(p, e, &p);
	for (; p < e; p = next) {
		le = line_end(p, e, &next);
		if (le == p)
			break;			/* the empty line: the body follows */
		if (*p == ' ' || *p == '\t') {	/* a folded line goes on */
			if (open && keep) {
				space = 1;
				feed_value(&h, p, (size_t)(le - p), &started, &space);
			}
			continue;
		}
		if (open && keep)
			sha_update(&h, "\n", 1);
		colon = memchr(p, ':', (size_t)(le - p));
		n = colon ? (size_t)(colon - p) : (size_t)(le - p);
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		open = 1;
		keep = !is_transport(p, n);
		if (!keep)
			continue;
		for (i = 0; i < n; i++) {
			char c = p[i] >= 'A' && p[i] <= 'Z' ? (char)(p[i] - 'A' + 'a') : p[i];

			sha_update(&h, &c, 1);
		}
		sha_update(&h, ":", 1);
		started = space = 0;
		if (colon)
			feed_value(&h, colon + 1, (size_t)(le - colon - 1), &started, &space);
	}
	if (open && keep)
		sha_update(&h, "\n", 1);
	/* the body: LF line ends, without the empty lines at its end */
	sha_update(&h, "\n", 1);
	p = p < e ? next : e;
	while (e > p && (e[-1] == '\n' || e[-1] == '\r'))
		e--;
	while (p < e) {
		const char *cr = memchr(p, '\r', (size_t)(e - p));

		if (!cr) {
			sha_update(&h, p, (size_t)(e - p));
			break;
		}
		sha_update(&h, p, (size_t)(cr - p));
		if (cr + 1 >= e || cr[1] != '\n')
			sha_update(&h, "\r", 1);
		p = cr + 1;
	}
	sha_final(&h, d);
	for (i = 0; i < 32; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[MAIL_DIGEST_HEX] = '\0';
}

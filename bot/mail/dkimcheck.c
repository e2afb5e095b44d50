// SPDX-License-Identifier: GPL-2.0-only
/*
 * dkimcheck: a mail's From: vouched for by DKIM, through libopendkim
 * (see dkimcheck.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include <opendkim/dkim.h>

#include "dkimcheck.h"
#include "../../checker/banned.h"

#define DKIMCHECK_MAX_SIGS	8	/* signatures of one mail looked at */

/* d is dom, or dom is a subdomain of d (any case) */
static int aligned(const char *d, const char *dom)
{
	size_t nd = strlen(d), nm = strlen(dom);

	if (!nd)
		return 0;
	if (nd == nm)
		return !strcasecmp(d, dom);
	return nm > nd && dom[nm - nd - 1] == '.' && !strcasecmp(dom + nm - nd, d);
}

/* The mail has one From: field (header part only; unfolded names). */
static int one_from(const char *raw, size_t len)
{
	const char *p = raw, *end = raw + len, *nl;
	int n = 0;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (p == nl || (nl == p + 1 && *p == '\r'))
			break;	/* the header ends */
		if ((size_t)(end - p) >= 5 && !strncasecmp(p, "from", 4)) {
			const char *q = p + 4;

			while (q < end && (*q == ' ' || *q == '\t'))
				q++;
			if (q < end && *q == ':')
				n++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return n == 1;
}

static int has_header(const char *raw, size_t len, const char *name)
{
	const char *p = raw, *end = raw + len, *nl;
	size_t k = strlen(name);

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (p == nl || (nl == p + 1 && *p == '\r'))
			return 0;
		if ((size_t)(end - p) > k && !strncasecmp(p, name, k) && p[k] == ':')
			return 1;
		if (!nl)
			return 0;
		p = nl + 1;
	}
	return 0;
}

/* One signature: 1 when it passes for dom, else 0 with why. */
static int sig_passes(DKIM *d, DKIM_SIGINFO *sig, const char *dom, int irt,
		      char *why, size_t whylen)
{
	const char *sd = (const char *)dkim_sig_getdomain(sig);
	ssize_t msglen = 0, canonlen = 0, signlen = -1;

	if (!sd || !aligned(sd, dom)) {
		snprintf(why, whylen, "signed by another domain");
		return 0;
	}
	if ((dkim_sig_getflags(sig) & DKIM_SIGFLAG_IGNORE) || !DKIM_SIG_CHECK(sig)) {
		int e = dkim_sig_geterror(sig);

		snprintf(why, whylen, "signature of %s does not verify%s%s", sd,
			 e ? ": " : "", e ? dkim_sig_geterrorstr(e) : "");
		return 0;
	}
	if (!dkim_sig_hdrsigned(sig, (u_char *)"from") ||
	    !dkim_sig_hdrsigned(sig, (u_char *)"date") ||
	    !dkim_sig_hdrsigned(sig, (u_char *)"message-id") ||
	    (irt && !dkim_sig_hdrsigned(sig, (u_char *)"in-reply-to"))) {
		snprintf(why, whylen, "signature of %s leaves From, Date, Message-ID or"
			 " In-Reply-To unsigned", sd);
		return 0;
	}
	if (dkim_sig_getcanonlen(d, sig, &msglen, &canonlen, &signlen) == DKIM_STAT_OK &&
	    signlen >= 0 && signlen < msglen) {
		snprintf(why, whylen, "signature of %s covers part of the body only", sd);
		return 0;
	}
	snprintf(why, whylen, "DKIM signature of %s verified", sd);
	return 1;
}

int dkimcheck_from(const char *raw, size_t len, const char *from_addr, const char *keys,
		   char *why, size_t whylen)
{
	DKIM_LIB *lib = NULL;
	DKIM *d = NULL;
	DKIM_SIGINFO **sigs = NULL;
	DKIM_STAT st;
	const char *dom = from_addr ? strrchr(from_addr, '@') : NULL;
	unsigned int flags = DKIM_LIBFLAGS_STRICTHDRS;
	unsigned int timeout = DKIMCHECK_TIMEOUT;	/* the library takes a u_int */
	char *crlf = NULL;
	size_t ncrlf = 0, i;
	int nsigs = 0, k, ok = 0;

	snprintf(why, whylen, "no DKIM signature");
	if (!dom || !dom[1] || !raw || !len)
		return 0;
	dom++;
	if (!has_header(raw, len, "dkim-signature"))
		return 0;
	if (!one_from(raw, len)) {
		snprintf(why, whylen, "more than one From: field");
		return 0;
	}
	lib = dkim_init(NULL, NULL);
	if (!lib) {
		snprintf(why, whylen, "DKIM library did not start");
		return 0;
	}
	if (dkim_options(lib, DKIM_OP_SETOPT, DKIM_OPTS_FLAGS, &flags, sizeof(flags)) ||
	    dkim_options(lib, DKIM_OP_SETOPT, DKIM_OPTS_TIMEOUT, &timeout, sizeof(timeout))) {
		snprintf(why, whylen, "DKIM library options refused");
		goto out;
	}
	if (keys) {
		dkim_query_t qm = DKIM_QUERY_FILE;

		if (dkim_options(lib, DKIM_OP_SETOPT, DKIM_OPTS_QUERYMETHOD, &qm, sizeof(qm)) ||
		    dkim_options(lib, DKIM_OP_SETOPT, DKIM_OPTS_QUERYINFO, (void *)keys,
				 strlen(keys))) {
			snprintf(why, whylen, "DKIM key file refused");
			goto out;
		}
	}
	d = dkim_verify(lib, (const unsigned char *)"reviewbot", NULL, &st);
	if (!d) {
		snprintf(why, whylen, "DKIM: %s", dkim_getresultstr(st));
		goto out;
	}
	/* the library reads lines ending in CRLF (its own FIXCRLF did not
	 * verify mail stored with LF alone): at most twice the bytes */
	crlf = malloc(2 * len);
	if (!crlf) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	for (i = 0; i < len; i++) {
		if (raw[i] == '\n' && (!i || raw[i - 1] != '\r'))
			crlf[ncrlf++] = '\r';
		crlf[ncrlf++] = raw[i];
	}
	st = dkim_chunk(d, (u_char *)crlf, ncrlf);
	if (st == DKIM_STAT_OK)
		st = dkim_chunk(d, NULL, 0);
	if (st == DKIM_STAT_OK || st == DKIM_STAT_BADSIG || st == DKIM_STAT_CANTVRFY ||
	    st == DKIM_STAT_NOKEY || st == DKIM_STAT_REVOKED)
		st = dkim_eom(d, NULL);
	/* whatever eom said of the first signature, each is looked at */
	if (dkim_getsiglist(d, &sigs, &nsigs) != DKIM_STAT_OK || nsigs <= 0) {
		snprintf(why, whylen, "DKIM: %s", dkim_getresultstr(st));
		goto out;
	}
	for (k = 0; k < nsigs && k < DKIMCHECK_MAX_SIGS && !ok; k++)
		ok = sig_passes(d, sigs[k], dom, has_header(raw, len, "in-reply-to"),
				why, whylen);
out:
	free(crlf);
	if (d)
		dkim_free(d);
	if (lib)
		dkim_close(lib);
	return ok;
}

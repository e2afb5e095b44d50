// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which driver reads which source: by type, and for public-inbox by the
 * url's scheme (its HTTP, IMAP or NNTP face).
 */
#include <stdio.h>
#include <string.h>

#include "source.h"
#include "../../checker/banned.h"

static int scheme(const char *url, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);

	return url && (!strncmp(url, a, na) || !strncmp(url, b, nb));
}

int source_session_init(struct source_session *s, const struct config_source *src,
			struct store *st, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->src = src;
	s->st = st;
	switch (src->type) {
	case SRC_MAILDIR:
	case SRC_MBOX:
		return src_local_init(s, err, errlen);
	case SRC_IMAP:
		return src_imap_init(s, err, errlen);
	case SRC_NNTP:
		return src_nntp_init(s, err, errlen);
	case SRC_PUBLIC_INBOX:
		break;
	}
	if (src->type == SRC_PUBLIC_INBOX && scheme(src->url, "imap://", "imaps://"))
		return src_imap_init(s, err, errlen);
	if (src->type == SRC_PUBLIC_INBOX && scheme(src->url, "http://", "https://"))
		return src_pihttp_init(s, err, errlen);
	if (src->type == SRC_PUBLIC_INBOX && scheme(src->url, "nntp://", "nntps://"))
		return src_nntp_init(s, err, errlen);
	snprintf(err, errlen, "source \"%s\": type %s is not supported by this build",
		 src->name, source_type_name(src->type));
	return -1;
}

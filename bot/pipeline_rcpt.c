// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipeline: who a message was sent to (schema 8), recorded when it is
 * stored and filled in from the raw mail for messages stored before:
 * what was mailed to the bot alone is never published (store/store_web.h).
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "pipeline.h"
#include "pipeline_int.h"
#include "../store/store_web.h"
#include "../checker/banned.h"

#define RCPT_MAX	(64u << 10)	/* bytes of the recorded addresses */

static void add_addrs(struct sbuf *sb, const struct mime_addr *a, size_t n)
{
	size_t i;
	const char *c;

	for (i = 0; i < n; i++) {
		if (!a[i].addr || !*a[i].addr)
			continue;
		if (sb->len)
			sbuf_addch(sb, ',');
		for (c = a[i].addr; *c; c++)
			sbuf_addch(sb, *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
	}
}

int pipeline_record_rcpt(struct store *st, int64_t id, const struct mime_mail *m)
{
	struct sbuf sb;
	int ret;

	sbuf_init(&sb, RCPT_MAX);
	add_addrs(&sb, m->to, m->nto);
	add_addrs(&sb, m->cc, m->ncc);
	/* past the cap: what fits (the lists come first in practice) */
	ret = store_msg_set_rcpt(st, id, sb.buf, m->list_id);
	sbuf_release(&sb);
	return ret;
}

struct fill {
	struct store *st;
	long n;
};

static int fill_one(void *arg, int64_t id)
{
	struct fill *f = arg;
	struct mime_mail m;
	int ret;

	if (pipe_load_mail(f->st, id, &m)) {
		/* unreadable now: recorded as sent to nobody, never published */
		ret = store_msg_set_rcpt(f->st, id, "", NULL);
	} else {
		ret = pipeline_record_rcpt(f->st, id, &m);
		mime_release(&m);
	}
	if (ret == STORE_OK)
		f->n++;
	return ret < 0 ? ret : 0;
}

int pipeline_fill_rcpt(struct store *st, long *n)
{
	struct fill f = { st, 0 };
	int ret;

	if (n)
		*n = 0;
	ret = store_begin(st);
	if (ret)
		return ret;
	ret = store_msg_each_without_rcpt(st, fill_one, &f);
	if (ret < 0) {
		store_rollback(st);
		return ret;
	}
	ret = store_commit(st);
	if (ret == STORE_OK && n)
		*n = f.n;
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipeline: who a message was sent to (schema 8), recorded when it is
 * stored and filled in from the raw mail for messages stored before:
 * what was mailed to the bot alone is never published (store/store_web.h);
 * and how a copy came (schema 11): through which list, if any.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* ---- how a copy came -------------------------------------------------------- */

int pipe_list_id_is(const char *list_id, const char *list)
{
	const char *at = list ? strchr(list, '@') : NULL;
	size_t n;

	if (!list_id || !at)
		return 0;
	if (!strcasecmp(list_id, list))
		return 1;
	n = (size_t)(at - list);
	return strlen(list_id) == strlen(list) && !strncasecmp(list_id, list, n) &&
	       list_id[n] == '.' && !strcasecmp(list_id + n + 1, at + 1);
}

const char *pipe_known_list(const struct config *cfg, const char *addr)
{
	size_t i;

	for (i = 0; addr && i < cfg->nsources; i++)
		if (cfg->sources[i].list && !strcasecmp(cfg->sources[i].list, addr))
			return cfg->sources[i].list;
	return NULL;
}

/* list, lowercase, into lists (once) */
static void add_list(struct sbuf *lists, const char *list)
{
	char low[256];
	size_t i, n = strlen(list);
	const char *p;

	if (!n || n >= sizeof(low))
		return;
	for (i = 0; i <= n; i++)
		low[i] = list[i] >= 'A' && list[i] <= 'Z' ? (char)(list[i] - 'A' + 'a') : list[i];
	for (p = lists->buf; (p = strstr(p, low)); p += n)
		if ((p == lists->buf || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return;
	if (lists->len)
		sbuf_addch(lists, ',');
	sbuf_addstr(lists, low);
}

int pipe_copy_way(const struct config *cfg, const struct config_source *src,
		  const struct mime_mail *m, struct sbuf *lists)
{
	int via = VIA_DIRECT;
	size_t i;

	/* only the list writes into its archive */
	if (src && (src->type == SRC_PUBLIC_INBOX || src->type == SRC_NNTP)) {
		via = VIA_ARCHIVE;
		if (src->list)
			add_list(lists, src->list);
	}
	/* a mailbox holds what anyone sent: its list's List-Id says the
	 * mail is that list's copy (a claim too, and the best a mailbox
	 * has); another list's, in this list's mailbox, says nothing: that
	 * list's copy comes through its own source */
	if (src && src->list && m->list_id && pipe_list_id_is(m->list_id, src->list)) {
		add_list(lists, src->list);
		if (via < VIA_LIST_ID)
			via = VIA_LIST_ID;
	}
	/* a file handed in (review, import without --source): the List-Id
	 * of any list the configuration reads, as the operator gave it */
	for (i = 0; !src && m->list_id && i < cfg->nsources; i++)
		if (cfg->sources[i].list && pipe_list_id_is(m->list_id, cfg->sources[i].list)) {
			add_list(lists, cfg->sources[i].list);
			via = VIA_LIST_ID;
		}
	return via;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * A mail about a series, as the review and the stages' follow-up both
 * make it: who it goes to (and why it is made but not sent), the
 * compose_review filled from the series, and the mail queued as a
 * pending reply with the findings it covers.  See pipeline_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pipeline.h"
#include "pipeline_int.h"
#include "command.h"
#include "mail/compose.h"
#include "version.h"
#include "../checker/banned.h"

#define PIPE_MAX_RCPT		4096	/* bytes of the envelope recipient list */

/* ---- who it goes to ------------------------------------------------------ */

static void add_rcpt(struct sbuf *rcpt, const char *addr)
{
	const char *p = rcpt->buf;
	size_t n;

	/* only what the mail's headers show too: no hidden recipient */
	if (!addr || !compose_address_ok(addr))
		return;
	n = strlen(addr);
	/* once each */
	while ((p = strstr(p, addr))) {
		if ((p == rcpt->buf || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return;
		p += n;
	}
	if (rcpt->len)
		sbuf_addch(rcpt, ',');
	sbuf_addstr(rcpt, addr);
}

/* addr lowercased into out (opt-outs and caps are kept lowercase). */
static const char *lower_addr(const char *addr, char *out, size_t outlen)
{
	size_t i;

	if (!addr)
		return NULL;
	for (i = 0; addr[i] && i + 1 < outlen; i++)
		out[i] = (addr[i] >= 'A' && addr[i] <= 'Z') ?
			 (char)(addr[i] - 'A' + 'a') : addr[i];
	out[i] = '\0';
	return out;
}

/* The series' thread, or the thread of the mail replied to, is muted. */
static int thread_muted(struct store *st, const struct store_series *s,
			const struct mime_mail *to_mail)
{
	return store_mute_get(st, s->root) == STORE_OK ||
	       store_mute_get(st, command_thread_root(to_mail)) == STORE_OK ||
	       store_mute_get(st, to_mail->message_id) == STORE_OK;
}

/* addr is the posting address of a list the bot reads (a source's
 * `list`): that one, as configured, or NULL. */
static const char *known_list(const struct config *cfg, const char *addr)
{
	size_t i;

	for (i = 0; addr && i < cfg->nsources; i++)
		if (cfg->sources[i].list && !strcasecmp(cfg->sources[i].list, addr))
			return cfg->sources[i].list;
	return NULL;
}

/*
 * The mail came through list: its List-Id (RFC 2919, the part inside
 * <>) is the list's address with '@' as '.' (vger's, mailman's and
 * public-inbox's "linux-leds.vger.kernel.org" for
 * linux-leds@vger.kernel.org), or the address itself.
 */
static int list_id_is(const char *list_id, const char *list)
{
	const char *at = strchr(list, '@');
	size_t n;

	if (!list_id || !at)
		return 0;
	if (!strcasecmp(list_id, list))
		return 1;
	n = (size_t)(at - list);
	return strlen(list_id) == strlen(list) && !strncasecmp(list_id, list, n) &&
	       list_id[n] == '.' && !strcasecmp(list_id + n + 1, at + 1);
}

/* Cc's addr once (case aside), neither the author nor the bot; 1 when
 * added. */
static int add_cc(struct pipe_rcpt *r, const char *author, const char *bot,
		  const char *name, const char *addr)
{
	size_t i;

	/* b4 relay's devnull is no one's mailbox (mail/mime.h) */
	if (!addr || r->ncc >= MIME_MAX_RCPTS || (author && !strcasecmp(addr, author)) ||
	    (bot && !strcasecmp(addr, bot)) || mime_relay_devnull(addr))
		return 0;
	for (i = 0; i < r->ncc; i++)
		if (!strcasecmp(r->cc[i].addr, addr))
			return 0;
	r->cc[r->ncc].name = name;
	r->cc[r->ncc++].addr = addr;
	return 1;
}

/*
 * Who a mail about series s, replying to to_mail (its cover letter or
 * first patch), goes to, and why it is made but not sent (an opt-out, a
 * muted thread, the mail's age, reply = none).  The author always; with
 * reply = list (the default) also exactly the lists the patch reached:
 * each address of its To and Cc that is a list the bot reads, and the
 * source's list when the mail's List-Id is that list's; never a list it
 * was not sent to (a patch mailed to the bot alone is answered
 * privately).  reply = all adds every other To and Cc address.
 */
int pipe_recipients(struct pipeline *p, const struct store_series *s,
		    const struct mime_mail *to_mail, int64_t now, struct pipe_rcpt *r)
{
	const struct config *cfg = p->cfg;
	const struct config_source *src = NULL;
	enum reply_policy policy = REPLY_POLICY_LIST;
	enum store_optout_mode om;
	struct store_msg to_row;
	const struct mime_addr *hdr[2] = { to_mail->to, to_mail->cc };
	size_t nhdr[2] = { to_mail->nto, to_mail->ncc };
	size_t i, k, nlists;
	const char *l;

	memset(r, 0, sizeof(*r));
	memset(&to_row, 0, sizeof(to_row));
	sbuf_init(&r->rcpt, PIPE_MAX_RCPT);
	lower_addr(s->author_addr, r->author, sizeof(r->author));
	store_msg_find(p->st, to_mail->message_id, &to_row);
	for (i = 0; to_row.source && i < cfg->nsources; i++)
		if (!strcmp(cfg->sources[i].name, to_row.source))
			src = &cfg->sources[i];
	store_msg_release(&to_row);
	r->src = src;
	if (src)
		policy = src->reply;
	/* a patch through b4's relay whose author could not be told: its
	 * From: is the relay's devnull, never mailed (mail/mime.h) */
	if (mime_relay_devnull(s->author_addr))
		r->suppress = PIPE_REASON_RELAY;
	else
		add_rcpt(&r->rcpt, s->author_addr);
	if (policy != REPLY_POLICY_AUTHOR) {
		/* the source's list first: it is the one the caps count */
		if (s->list && list_id_is(to_mail->list_id, s->list))
			add_cc(r, s->author_addr, cfg->address, NULL, s->list);
		for (k = 0; k < 2; k++)
			for (i = 0; i < nhdr[k]; i++)
				if ((l = known_list(cfg, hdr[k][i].addr)) != NULL)
					add_cc(r, s->author_addr, cfg->address, NULL, l);
	}
	nlists = r->ncc;
	if (policy == REPLY_POLICY_ALL)
		for (k = 0; k < 2; k++)
			for (i = 0; i < nhdr[k]; i++)
				add_cc(r, s->author_addr, cfg->address, hdr[k][i].name,
				       hdr[k][i].addr);
	if (s->author_addr && store_optout_get(p->st, r->author, &om) == STORE_OK) {
		if (om == OPTOUT_SILENT)
			r->suppress = "the author opted out of reviews";
		else
			r->ncc = nlists = 0;	/* private: the author only */
	}
	if (!r->suppress && thread_muted(p->st, s, to_mail))
		r->suppress = "the thread is muted";
	/* a backlog read at a first start or after an outage is kept and
	 * checked, but old news to everyone */
	if (pipeline_too_old(cfg, to_mail, now))
		r->suppress = PIPE_REASON_TOO_OLD;
	if (policy == REPLY_POLICY_NONE)
		r->suppress = "the source's reply policy is none";
	for (i = 0; i < r->ncc; i++)
		add_rcpt(&r->rcpt, r->cc[i].addr);
	/* the list the per-list cap counts: the first the mail goes to */
	r->list = nlists ? r->cc[0].addr : NULL;
	return r->rcpt.err ? STORE_ERR_NOMEM : STORE_OK;
}

void pipe_rcpt_release(struct pipe_rcpt *r)
{
	sbuf_release(&r->rcpt);
}

/* ---- the mail, and its place in the outbox ------------------------------- */

void pipe_review_init(struct compose_review *r, const struct pipeline *p,
		      const struct store_series *s, const struct view *v,
		      const struct mime_mail *to_mail, const struct pipe_rcpt *rc)
{
	memset(r, 0, sizeof(*r));
	r->bot.name = p->cfg->name;
	r->bot.addr = pipe_bot_address(p);
	r->bot_version = REVIEWBOT_VERSION;
	r->to.name = s->author_name;
	r->to.addr = s->author_addr;
	r->cc = rc->cc;
	r->ncc = rc->ncc;
	r->subject = to_mail->subject;
	r->in_reply_to = to_mail->message_id;
	r->references = (const char *const *)to_mail->refs;
	r->nreferences = to_mail->nrefs;
	r->version = s->version;
	r->version_minor = s->version_minor;
	r->total = s->total;
	r->patches = v->npatches;
	r->findings = v->cf;
	r->nfindings = v->ncf;
}

int pipe_reply_add(struct pipeline *p, const struct store_series *s, const char *kind,
		   const char *msgid, const char *bot_addr, const struct pipe_rcpt *rc,
		   const char *body, int64_t now, int64_t *id)
{
	struct store_reply reply;
	int ret;

	memset(&reply, 0, sizeof(reply));
	reply.message_id = (char *)msgid;
	reply.series_id = s->id;
	reply.kind = (char *)kind;
	reply.mail_from = (char *)bot_addr;
	reply.rcpt = rc->rcpt.buf;
	reply.body = (char *)body;
	reply.to_addr = s->author_addr ? (char *)rc->author : NULL;
	reply.list = (char *)rc->list;
	reply.created = now;
	reply.next_attempt = now;
	ret = store_reply_add(p->st, &reply, id);
	if (ret == STORE_OK && rc->suppress) {
		ret = store_reply_mark_suppressed(p->st, *id, rc->suppress);
		if (ret >= 0)
			p->stats.suppressed++;
		if (ret >= 0 && !strcmp(rc->suppress, PIPE_REASON_TOO_OLD))
			p->stats.too_old++;
	}
	return ret;
}

int pipe_cover_add(struct pipeline *p, int64_t reply_id, const struct compose_cover *cover,
		   size_t n)
{
	size_t i;
	int ret;

	for (i = 0; reply_id > 0 && i < n; i++) {
		ret = store_reply_finding_add(p->st, reply_id, cover[i].id, cover[i].num);
		if (ret < 0)
			return ret;
	}
	return STORE_OK;
}

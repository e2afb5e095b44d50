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
#include "../store/store_web.h"
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

/* a ','-separated list holds item (whole, case aside) */
static int in_list(const char *list, const char *item)
{
	size_t n = item ? strlen(item) : 0, k;
	const char *p;

	for (p = list; n && p && *p; p += k + (p[k] ? 1 : 0)) {
		k = strcspn(p, ",");
		if (k == n && !strncasecmp(p, item, n))
			return 1;
	}
	return 0;
}

/*
 * The lists some mail of series s came through (schema 13), into
 * *through (initialised): its mails' via_lists, joined.  A part mailed to
 * the bot directly adds none: the review answers a list on the strength
 * of what came through it, and says only what may be published there
 * (pipe_view_publishable(): nothing of such a part).  Returns 0, or 1
 * when none of its mails says (all stored before schema 13: the mail
 * goes where it used to, by its To, Cc and List-Id).
 */
static int series_through(struct pipeline *p, const struct store_series *s,
			  const struct mime_mail *to_mail, struct sbuf *through)
{
	struct store_patch *pt = NULL;
	struct store_msg m;
	size_t np = 0, i, k;
	int64_t ids[2] = { 0, s->cover_msg };
	int legacy = 1;

	if (store_msg_find(p->st, to_mail->message_id, &m) == STORE_OK) {
		ids[0] = m.id;
		store_msg_release(&m);
	}
	if (store_patch_list(p->st, s->id, &pt, &np) != STORE_OK)
		np = 0;
	for (i = 0; i < np + 2; i++) {
		int64_t id = i < 2 ? ids[i] : pt[i - 2].msg_id;
		const char *q;

		if (!id || store_msg_get(p->st, id, &m) != STORE_OK)
			continue;
		if (!m.via_lists) {
			store_msg_release(&m);
			continue;
		}
		legacy = 0;
		/* what it adds that is not there yet */
		for (q = m.via_lists; *q; q += k + (q[k] ? 1 : 0)) {
			char one[256];

			k = strcspn(q, ",");
			if (!k || k >= sizeof(one))
				continue;
			memcpy(one, q, k);
			one[k] = '\0';
			if (in_list(through->buf, one))
				continue;
			if (through->len)
				sbuf_addch(through, ',');
			sbuf_addstr(through, one);
		}
		store_msg_release(&m);
	}
	for (i = 0; i < np; i++)
		store_patch_release(&pt[i]);
	free(pt);
	return legacy;
}

int pipe_awaits_list(struct pipeline *p, const struct store_series *s, int64_t now)
{
	struct store_patch *pt = NULL;
	struct store_msg m;
	size_t np = 0, i, k;
	int wait = 0;

	if (p->cfg->list_wait <= 0)
		return 0;
	if (store_patch_list(p->st, s->id, &pt, &np) != STORE_OK)
		return 0;
	for (i = 0; i < np + 1 && !wait; i++) {
		int64_t id = i < np ? pt[i].msg_id : s->cover_msg;
		char *rcpt = NULL, *list_id = NULL;
		const char *q;

		if (!id || store_msg_get(p->st, id, &m) != STORE_OK)
			continue;
		/* a mail that came directly, naming a list the bot reads it
		 * did not come through, lately: its list's copy may follow */
		if (m.via_lists && now - m.received < p->cfg->list_wait &&
		    store_msg_get_rcpt(p->st, id, &rcpt, &list_id) == STORE_OK && rcpt)
			for (q = rcpt; *q && !wait; q += k + (q[k] ? 1 : 0)) {
				char one[256];

				k = strcspn(q, ",");
				if (!k || k >= sizeof(one))
					continue;
				memcpy(one, q, k);
				one[k] = '\0';
				wait = pipe_known_list(p->cfg, one) && !in_list(m.via_lists, one);
			}
		free(rcpt);
		free(list_id);
		store_msg_release(&m);
	}
	for (i = 0; i < np; i++)
		store_patch_release(&pt[i]);
	free(pt);
	return wait;
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
 * reply = list (the default) also exactly the lists the series came
 * through (series_through(): each of its mails read from that list's
 * archive or carrying its List-Id); never a list on the strength of a
 * copy that did not come through it (a patch mailed to the bot directly
 * is answered privately, whatever its To says).  reply = all adds every
 * other To and Cc address, but a list the bot reads that the series did
 * not come through.  Mail stored before schema 11 goes where it used to:
 * the lists the bot reads on its To and Cc, and its List-Id's.
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
	struct sbuf through;
	int legacy;

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
	sbuf_init(&through, PIPE_MAX_RCPT);
	legacy = series_through(p, s, to_mail, &through);
	if (policy != REPLY_POLICY_AUTHOR && legacy) {
		/* the source's list first: it is the one the caps count */
		if (s->list && pipe_list_id_is(to_mail->list_id, s->list))
			add_cc(r, s->author_addr, cfg->address, NULL, s->list);
		for (k = 0; k < 2; k++)
			for (i = 0; i < nhdr[k]; i++)
				if ((l = pipe_known_list(cfg, hdr[k][i].addr)) != NULL)
					add_cc(r, s->author_addr, cfg->address, NULL, l);
	} else if (policy != REPLY_POLICY_AUTHOR) {
		const char *q;
		size_t n;

		if (s->list && in_list(through.buf, s->list))
			add_cc(r, s->author_addr, cfg->address, NULL, pipe_known_list(cfg, s->list));
		for (q = through.buf; *q; q += n + (q[n] ? 1 : 0)) {
			char one[256];

			n = strcspn(q, ",");
			if (!n || n >= sizeof(one))
				continue;
			memcpy(one, q, n);
			one[n] = '\0';
			if ((l = pipe_known_list(cfg, one)) != NULL)
				add_cc(r, s->author_addr, cfg->address, NULL, l);
		}
	}
	nlists = r->ncc;
	if (policy == REPLY_POLICY_ALL)
		for (k = 0; k < 2; k++)
			for (i = 0; i < nhdr[k]; i++)
				if (legacy || !pipe_known_list(cfg, hdr[k][i].addr) ||
				    in_list(through.buf, hdr[k][i].addr))
					add_cc(r, s->author_addr, cfg->address, hdr[k][i].name,
					       hdr[k][i].addr);
	sbuf_release(&through);
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

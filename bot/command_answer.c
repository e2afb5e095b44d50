// SPDX-License-Identifier: GPL-2.0-only
/*
 * command: the one answer to a command mail, its headers, queued under the
 * confirmations' caps (command_int.h).  command.c's answers,
 * command_feedback.c's and command_query.c's all go through here.
 */
#include <string.h>

#include "command.h"
#include "command_int.h"
#include "log.h"
#include "mail/compose.h"
#include "version.h"
#include "pipeline.h"
#include "pipeline_int.h"
#include "../checker/banned.h"

/* The configured source called name (a stored mail's), or NULL. */
static const struct config_source *source_of(const struct config *cfg, const char *name)
{
	size_t i;

	for (i = 0; name && i < cfg->nsources; i++)
		if (!strcmp(cfg->sources[i].name, name))
			return &cfg->sources[i];
	return NULL;
}

void command_answer_head(const struct pipeline *p, const struct mime_mail *m,
			 const char *sender, int64_t now, const char *subject,
			 char *msgid, size_t msgidlen, struct compose_answer *h)
{
	const char *bot_addr = pipe_bot_address(p);

	compose_message_id(&p->idkey, m->message_id, 0, 0, bot_addr, msgid, msgidlen);
	memset(h, 0, sizeof(*h));
	h->bot.name = p->cfg->name;
	h->bot.addr = bot_addr;
	h->bot_version = REVIEWBOT_VERSION;
	h->to.name = m->from.name;
	h->to.addr = sender;
	h->subject = subject;
	h->in_reply_to = m->message_id;
	h->references = (const char *const *)m->refs;
	h->nreferences = m->nrefs;
	h->date = now;
	h->message_id = msgid;
}

int command_queue_answer(struct pipeline *p, const struct mime_mail *m,
			 const struct store_msg *row, const char *sender,
			 const char *msgid, const char *mail, int64_t now,
			 const char *event, const char *query, enum command_budget budget)
{
	const struct config *cfg = p->cfg;
	const struct config_source *src = source_of(cfg, row->source);
	const char *suppress = NULL;
	struct store_reply reply;
	long long n = 0, all = 0;
	int64_t rid = 0;
	int ret;

	const char *kind = budget == COMMAND_REQUEST ? "request" : "confirm";
	int per = budget == COMMAND_REQUEST ? cfg->requests_per_day : cfg->confirmations_per_hour;
	int max = budget == COMMAND_REQUEST ? cfg->max_requests_per_hour :
		  cfg->max_confirmations_per_hour;
	int64_t window = budget == COMMAND_REQUEST ? 86400 : 3600;

	/* the address's own budget first: what it may not have never
	 * counts against everyone's (a suppressed mail is not counted) */
	if (per > 0) {
		ret = store_reply_count_kind(p->st, kind, sender, now - window, &n);
		if (ret < 0)
			return ret;
	}
	/* a flood from many addresses is capped as a whole; requests, which
	 * anyone can have sent to anyone, have a budget of their own */
	if (max > 0) {
		ret = store_reply_count_kind(p->st, kind, NULL, now - 3600, &all);
		if (ret < 0)
			return ret;
	}
	if (per > 0 && n >= per)
		suppress = budget == COMMAND_REQUEST ?
			   "requests_per_day reached for this address" :
			   "confirmations_per_hour reached for this address";
	else if (max > 0 && all >= max)
		suppress = budget == COMMAND_REQUEST ? "max_requests_per_hour reached" :
			   "max_confirmations_per_hour reached";
	else if (src && src->reply == REPLY_POLICY_NONE)
		suppress = "the source's reply policy is none";
	memset(&reply, 0, sizeof(reply));
	reply.message_id = (char *)msgid;
	reply.kind = (char *)kind;
	reply.mail_from = (char *)pipe_bot_address(p);
	reply.rcpt = (char *)sender;
	reply.body = (char *)mail;
	reply.to_addr = (char *)sender;
	reply.created = now;
	reply.next_attempt = now;
	ret = store_reply_add(p->st, &reply, &rid);
	if (ret < 0)
		return ret;
	if (ret == STORE_OK && suppress) {
		ret = store_reply_mark_suppressed(p->st, rid, suppress);
		if (ret < 0)
			return ret;
		p->stats.suppressed++;
	}
	log_event(LOG_INFO, event, "msgid", m->message_id, "reply", msgid,
		  "query", query, "suppressed", suppress, NULL);
	return STORE_OK;
}

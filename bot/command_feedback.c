// SPDX-License-Identifier: GPL-2.0-only
/*
 * command: "false-positive TYPE" and "false-positive #N" answering a
 * review (command.h).  The review is found in the store from the
 * answer's In-Reply-To or References, never from the answer's text; the
 * findings named must be ones that review covers (store reply_findings).
 * What the mail says reaches the store through bound parameters only,
 * and the answer only as a type of [A-Z0-9_] and the bot's own words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "command.h"
#include "command_int.h"
#include "mail/compose.h"
#include "feedback.h"
#include "log.h"
#include "pipeline.h"
#include "pipeline_int.h"
#include "mail/template.h"
#include "version.h"
#include "../checker/banned.h"

#define FP_MAX_FINDINGS	500	/* findings one mail disputes at most */
#define FP_MAX_TYPES	64	/* distinct types named in a refusal, at most */
#define FP_TEXT_MAX	1536	/* bytes of the answer's result or note */

/* What the walk over the review's findings saw. */
struct fp_walk {
	const struct command *c;
	int64_t ids[FP_MAX_FINDINGS];
	size_t n;
	long long matched;		/* findings named (more than n: capped) */
	char type[COMMAND_TYPE_MAX + 1];	/* the type of what was named */
	int max_num;			/* the last number the review shows */
	char types[FP_MAX_TYPES][COMMAND_TYPE_MAX + 1];	/* its types */
	size_t ntypes;
	int more_types;
	char list[256];			/* the series' list, "" when none */
};

static void keep_type(struct fp_walk *w, const char *type)
{
	size_t i;

	if (!type || strlen(type) > COMMAND_TYPE_MAX)
		return;
	for (i = 0; i < w->ntypes; i++)
		if (!strcmp(w->types[i], type))
			return;
	if (w->ntypes == FP_MAX_TYPES) {
		w->more_types = 1;
		return;
	}
	snprintf(w->types[w->ntypes++], sizeof(w->types[0]), "%s", type);
}

static int walk_one(void *arg, const struct store_reply_finding *rf)
{
	struct fp_walk *w = arg;
	const struct command *c = w->c;
	int hit;

	if (rf->num > w->max_num)
		w->max_num = rf->num;
	if (!w->list[0] && rf->list && strlen(rf->list) < sizeof(w->list))
		snprintf(w->list, sizeof(w->list), "%s", rf->list);
	keep_type(w, rf->type);
	hit = c->number ? rf->num == c->number :
	      c->type[0] && rf->type && !strcasecmp(rf->type, c->type);
	if (!hit)
		return 0;
	if (!w->matched && rf->type && strlen(rf->type) <= COMMAND_TYPE_MAX)
		snprintf(w->type, sizeof(w->type), "%s", rf->type);
	w->matched++;
	if (w->n < FP_MAX_FINDINGS)
		w->ids[w->n++] = rf->finding_id;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/*
 * The review or follow-up of the bot's that m answers: its In-Reply-To,
 * else the last entry of its References that is one.  STORE_OK with
 * *rid, STORE_DONE when none, or a store error.
 */
static int answered_review(struct pipeline *p, const struct mime_mail *m, int64_t *rid,
			   int *sent, char *list, size_t listlen)
{
	struct store_reply r;
	size_t i = m->nrefs + 1;
	const char *id;
	int ret, ok;

	while (i-- > 0) {
		id = i == m->nrefs ? m->in_reply_to : m->refs[i];
		if (!id || !*id)
			continue;
		ret = store_reply_find(p->st, id, rid);
		if (ret < 0)
			return ret;
		if (ret != STORE_OK)
			continue;
		ret = store_reply_get(p->st, *rid, &r);
		if (ret < 0)
			return ret;
		if (ret != STORE_OK)
			continue;
		ok = r.kind && (!strcmp(r.kind, "review") || !strcmp(r.kind, "followup"));
		/* where it went: a dispute weighs on a list only when the
		 * review was mailed to it */
		*sent = r.state == REPLY_SENT;
		snprintf(list, listlen, "%s", r.list && strlen(r.list) < listlen ? r.list : "");
		store_reply_release(&r);
		if (ok)
			return STORE_OK;
	}
	*rid = 0;
	return STORE_DONE;
}

/* "A, B and C" of the review's types, sorted. */
static void types_text(struct fp_walk *w, char *out, size_t outlen)
{
	size_t i, n = 0;

	out[0] = '\0';
	qsort(w->types, w->ntypes, sizeof(w->types[0]), cmp_str);
	for (i = 0; i < w->ntypes && n < outlen; i++)
		n += (size_t)snprintf(out + n, outlen - n, "%s%s",
				      !i ? "" : i + 1 == w->ntypes && !w->more_types ?
				      " and " : ", ", w->types[i]);
	if (w->more_types && n < outlen)
		snprintf(out + n, outlen - n, " and more");
}

/* The command as understood, for the answer and the log. */
static void command_text(const struct command *c, char *out, size_t outlen)
{
	if (c->number)
		snprintf(out, outlen, "false-positive #%d", c->number);
	else if (c->type[0])
		snprintf(out, outlen, "false-positive %s", c->type);
	else
		snprintf(out, outlen, "false-positive");
}

/* Composes and queues the answer (none without templates/feedback.txt). */
static int answer(struct pipeline *p, const struct mime_mail *m, const struct store_msg *row,
		  const char *sender, const char *cmd, const char *result,
		  const char *note, int64_t now)
{
	struct compose_feedback f;
	struct sbuf mail;
	char msgid[256], err[256], subject[COMMAND_TYPE_MAX + 64];
	int ret;

	if (!template_set_has(p->tpl, "feedback.txt")) {
		log_event(LOG_WARN, "no-answer", "msgid", m->message_id, "reason",
			  "templates: feedback.txt missing", NULL);
		return STORE_OK;
	}
	sbuf_init(&mail, COMPOSE_MAX_MAIL);
	memset(&f, 0, sizeof(f));
	snprintf(subject, sizeof(subject), "[reviewbot] %s", cmd);
	command_answer_head(p, m, sender, now, subject, msgid, sizeof(msgid), &f.head);
	f.command = cmd;
	f.result = result;
	f.note = note;
	if (compose_feedback_mail(p->tpl, &f, &mail, err, sizeof(err))) {
		log_event(LOG_ERR, "compose-failed", "msgid", m->message_id, "error", err, NULL);
		ret = STORE_ERR;
	} else {
		ret = command_queue_answer(p, m, row, sender, msgid, mail.buf, now,
					   "confirm", NULL, COMMAND_ANSWER);
	}
	sbuf_release(&mail);
	return ret;
}

/* How far type is from being demoted on list, for a maintainer of it. */
static int maintainer_note(struct pipeline *p, const char *list, const char *type,
			   char *out, size_t outlen)
{
	long long n = 0;
	int d = p->cfg->demote_after, ret;

	ret = feedback_type_reviews(p->st, p->cfg, list, type, &n);
	if (ret < 0)
		return ret;
	if (d <= 0)
		snprintf(out, outlen, "As a maintainer of %s, your word is recorded; this bot"
			 " demotes no type ([policy] demote_after is 0).", list);
	else if (n >= d)
		snprintf(out, outlen, "%s is now counted with the nits in the reviews of %s:"
			 " its maintainers disputed it in %lld reviews.", type, list, n);
	else
		snprintf(out, outlen, "As a maintainer of %s, your word counts: its maintainers"
			 " disputed %s in %lld of the %d reviews after which it is counted"
			 " with the nits there.", list, type, n, d);
	return STORE_OK;
}

int command_false_positive(struct pipeline *p, int64_t id, const struct mime_mail *m,
			   const struct store_msg *row, const char *sender,
			   const struct command *c, enum command_trust trust, int64_t now)
{
	char mailed_to[256] = "";
	int sent = 0;
	struct store_feedback fb;
	struct fp_walk *w = NULL;
	char cmd[COMMAND_TYPE_MAX + 32], result[FP_TEXT_MAX], note[FP_TEXT_MAX];
	char types[1024], state[160];	/* types: cut past about 30 names */
	const char *refused = NULL, *not_counted = NULL;
	int64_t rid = 0;
	long long added = 0, dup = 0;
	size_t i;
	int ret, maintainer = 0;

	command_text(c, cmd, sizeof(cmd));
	note[0] = '\0';
	w = calloc(1, sizeof(*w));
	if (!w)
		return STORE_ERR_NOMEM;
	w->c = c;
	ret = answered_review(p, m, &rid, &sent, mailed_to, sizeof(mailed_to));
	if (ret < 0)
		goto out;
	if (ret == STORE_DONE) {
		refused = "it answers no review";
		snprintf(result, sizeof(result), "Nothing was recorded: this mail answers no"
			 " review of the bot's.  Answer the review itself, with"
			 " \"false-positive TYPE\" or \"false-positive #N\" as the first"
			 " line of your own text.");
		goto answer;
	}
	if (!c->type[0] && !c->number) {
		refused = "no type or number";
		snprintf(result, sizeof(result), "Nothing was recorded: say which finding, as"
			 " \"false-positive TYPE\" with a type the review names in brackets"
			 " (such as LONG_LINE), or \"false-positive #N\" with a number it"
			 " shows, then why if you like.");
		goto answer;
	}
	ret = store_reply_findings_each(p->st, rid, walk_one, w);
	if (ret < 0)
		goto out;
	if (!w->matched) {
		if (c->number) {
			refused = "no such number in the review";
			if (w->max_num)
				snprintf(result, sizeof(result), "Nothing was recorded: the review"
					 " shows no finding #%d; it numbers its findings #1 to #%d.",
					 c->number, w->max_num);
			else
				snprintf(result, sizeof(result), "Nothing was recorded: the review"
					 " shows no finding #%d; it numbers none.", c->number);
		} else {
			refused = "no such type in the review";
			types_text(w, types, sizeof(types));
			if (w->ntypes)
				snprintf(result, sizeof(result), "Nothing was recorded: the review"
					 " has no finding of type %s.  Its types are %s.",
					 c->type, types);
			else
				snprintf(result, sizeof(result), "Nothing was recorded: the review"
					 " has no finding of type %s; it has none at all.", c->type);
		}
		goto answer;
	}
	/* a maintainer's word: verified (From: alone is anyone's), and
	 * about a review that was mailed to the list */
	maintainer = config_is_maintainer(p->cfg, w->list[0] ? w->list : NULL, sender);
	if (maintainer && trust != COMMAND_TRUST_VERIFIED) {
		maintainer = 0;
		not_counted = "not verified (DKIM)";
	} else if (maintainer && (!sent || strcasecmp(mailed_to, w->list))) {
		maintainer = 0;
		not_counted = "the review was not mailed to the list";
	}
	for (i = 0; i < w->n; i++) {
		memset(&fb, 0, sizeof(fb));
		fb.finding_id = w->ids[i];
		fb.reply_id = rid;
		fb.msg_id = id;
		fb.addr = sender;
		fb.maintainer = maintainer;
		fb.reason = c->reason[0] ? c->reason : NULL;
		fb.created = now;
		ret = store_feedback_add(p->st, &fb, NULL);
		if (ret < 0)
			goto out;
		if (ret == STORE_DUP)
			dup++;
		else
			added++;
	}
	if (!added) {
		/* said before: recorded as such, not answered again */
		ret = store_msg_set_state(p->st, id, MSG_COMMAND, "false-positive: duplicate");
		if (ret >= 0)
			log_event(LOG_INFO, "command", "msgid", m->message_id, "command", cmd,
				  "from", sender, "refused", "duplicate", NULL);
		goto out;
	}
	/* a forged From: records in someone else's name: its owner reads this */
	if (c->number)
		snprintf(result, sizeof(result), "Recorded: finding #%d of the review (%s) is"
			 " disputed by %s%s.  If you did not send this, tell the bot's"
			 " operator.", c->number, w->type, sender,
			 c->reason[0] ? ", with the reason given" : "");
	else
		snprintf(result, sizeof(result), "Recorded: %lld finding%s of type %s in the"
			 " review disputed by %s%s%s.  If you did not send this, tell the"
			 " bot's operator.", added, added == 1 ? "" : "s", w->type,
			 sender, dup ? " (the others were already)" : "",
			 c->reason[0] ? ", with the reason given" : "");
	if (maintainer) {
		ret = maintainer_note(p, w->list, w->type, note, sizeof(note));
		if (ret < 0)
			goto out;
	}
answer:
	snprintf(state, sizeof(state), "%s%s%s", "false-positive",
		 refused ? " refused: " : "", refused ? refused : "");
	ret = store_msg_set_state(p->st, id, MSG_COMMAND, state);
	if (ret < 0)
		goto out;
	{
		char nadd[24];

		snprintf(nadd, sizeof(nadd), "%lld", added);
		log_event(LOG_INFO, "command", "msgid", m->message_id, "command", cmd,
			  "from", sender, "sender", command_trust_name(trust), "recorded", nadd,
			  "maintainer", maintainer ? "yes" : NULL,
			  "as_maintainer_refused", not_counted, "refused", refused, NULL);
	}
	/* answered only to an address known to read its mail: else the bot
	 * would mail whoever the From: names */
	if (trust == COMMAND_TRUST_NONE) {
		log_event(LOG_INFO, "not-answered", "msgid", m->message_id, "command", cmd,
			  "reason", "sender neither verified nor confirmed", NULL);
		goto out;
	}
	ret = answer(p, m, row, sender, cmd, result, note[0] ? note : NULL, now);
out:
	free(w);
	return ret < 0 ? ret : STORE_OK;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * command: opting out by mail (see command.h).  Parsing works on
 * slices of the body with a small bounded buffer per line; nothing
 * from the mail reaches a header or a log line unescaped.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include "command.h"
#include "command_int.h"
#include "mail/compose.h"
#include "mail/dkimcheck.h"
#include "mail/template.h"
#include "log.h"
#include "pipeline.h"
#include "pipeline_int.h"
#include "mail/subject.h"
#include "version.h"
#include "../checker/banned.h"

#define CMD_LINE_MAX	128	/* bytes of a normalised line that can be a command */
/* ... or a false-positive line with its reason; a longer one is prose */
#define CMD_FP_LINE_MAX	(COMMAND_TYPE_MAX + STORE_FEEDBACK_REASON_MAX + 256)
#define CMD_ADDR_MAX	254

/* ---- parsing ------------------------------------------------------------------ */

static int is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * The line s[0, n) as a command would be written: HTML tags dropped,
 * "&nbsp;" and U+00A0 as spaces, white space runs as one space, trimmed,
 * ASCII lowercased (unless keep_case), a final '.' or '!' dropped.
 * Returns the length, or -1 when the result would not fit out (no
 * command is that long).  With and without keep_case, each byte of the
 * result comes from the same place.
 */
static int normalise_case(const char *s, size_t n, char *out, size_t outlen,
			  int keep_case)
{
	size_t i = 0, o = 0;
	int space = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];

		if (c == '<') {
			const char *gt = memchr(s + i, '>', n - i);

			if (gt) {
				i = (size_t)(gt - s) + 1;
				space = 1;
				continue;
			}
		}
		if (c == '&' && n - i >= 6 && !strncasecmp(s + i, "&nbsp;", 6)) {
			i += 6;
			space = 1;
			continue;
		}
		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] == 0xa0) {
			i += 2;
			space = 1;
			continue;
		}
		if (is_blank(c)) {
			i++;
			space = 1;
			continue;
		}
		if (space && o) {
			if (o + 1 >= outlen)
				return -1;
			out[o++] = ' ';
		}
		space = 0;
		if (o + 1 >= outlen)
			return -1;
		out[o++] = (!keep_case && c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : (char)c;
		i++;
	}
	while (o && (out[o - 1] == '.' || out[o - 1] == '!'))
		o--;
	out[o] = '\0';
	return (int)o;
}

static int normalise(const char *s, size_t n, char *out, size_t outlen)
{
	return normalise_case(s, n, out, outlen, 0);
}

static int ends_with(const char *s, int n, const char *suffix)
{
	int k = (int)strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, (size_t)k);
}

/* A slice walker over the first COMMAND_MAX_SCAN bytes. */
struct lines {
	const char *p, *end;
	int blockquote;		/* <blockquote> depth at the line's start */
};

static int next_line(struct lines *l, const char **s, size_t *n)
{
	const char *nl;

	if (l->p >= l->end)
		return 0;
	nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	*s = l->p;
	*n = nl ? (size_t)(nl - l->p) : (size_t)(l->end - l->p);
	l->p = nl ? nl + 1 : l->end;
	return 1;
}

/* Occurrences of the ASCII word w (lowercase) in s[0, n), any case. */
static int count_ci(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w), i;
	int c = 0;

	for (i = 0; i + k <= n; i++)
		if (!strncasecmp(s + i, w, k))
			c++;
	return c;
}

/*
 * Quoted text, which is never the sender's own: a line starting with
 * '>', or a line in (or opening or closing) an HTML <blockquote>, whose
 * depth l follows.
 */
static int is_quoted(struct lines *l, const char *s, size_t n)
{
	size_t i = 0;
	int open = count_ci(s, n, "<blockquote"), close = count_ci(s, n, "</blockquote");
	int quoted = l->blockquote > 0 || open > 0 || close > 0;

	l->blockquote += open - close;
	if (l->blockquote < 0)
		l->blockquote = 0;
	while (i < n && is_blank((unsigned char)s[i]))
		i++;
	return quoted || (i < n && s[i] == '>');
}

static int is_token(const char *s, size_t n)
{
	size_t i;

	if (n != COMMAND_TOKEN_HEX)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* "WORD TOKEN" with WORD one of "confirm", "optin", "opt-in", "opt in". */
static int token_after(const char *norm, int n, const char *word, struct command *c)
{
	size_t k = strlen(word);

	if ((size_t)n != k + 1 + COMMAND_TOKEN_HEX || memcmp(norm, word, k) ||
	    norm[k] != ' ' || !is_token(norm + k + 1, COMMAND_TOKEN_HEX))
		return 0;
	memcpy(c->token, norm + k + 1, COMMAND_TOKEN_HEX);
	c->token[COMMAND_TOKEN_HEX] = '\0';
	return 1;
}

static int is_type_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
}

static int is_separator(char ch)
{
	return ch == ' ' || ch == ',' || ch == ':' || ch == ';' || ch == '-';
}

/*
 * "false-positive TARGET [reason]" in w[0, n) (normalised, lowercase);
 * raw[0, rn) is the line as written, for the reason's case.  TARGET is
 * a type ([a-z0-9_]+) or a number (#N or N); it ends at a separator or
 * the line's end.  Returns 1 when w is such a line (c filled: a bad or
 * missing target leaves type and number empty), else 0.
 */
static int false_positive(const char *w, int n, const char *raw, size_t rn,
			  struct command *c)
{
	static const char *const words[] = { "false-positive", "false positive" };
	char keep[CMD_FP_LINE_MAX];
	size_t k = 0, i, t, tn;
	int num = 0, kn;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		k = strlen(words[i]);
		if ((size_t)n >= k && !memcmp(w, words[i], k) &&
		    ((size_t)n == k || w[k] == ' ' || w[k] == ':'))
			break;
	}
	if (i == sizeof(words) / sizeof(words[0]))
		return 0;
	while ((int)k < n && (w[k] == ' ' || w[k] == ':'))
		k++;
	t = k;
	if ((int)k < n && w[k] == '#')
		num = 1, k++;
	tn = k;
	while ((int)k < n && is_type_char(w[k]))
		k++;
	if (k == tn || ((int)k < n && !is_separator(w[k])))
		return 1;	/* no target, or one that is none: answered with how */
	if (num || strspn(w + tn, "0123456789") == k - tn) {
		long v = 0;

		if (strspn(w + tn, "0123456789") != k - tn || k - tn > 5)
			return 1;
		for (i = tn; i < k; i++)
			v = v * 10 + (w[i] - '0');
		if (v < 1 || v > COMMAND_NUMBER_MAX)
			return 1;
		c->number = (int)v;
	} else {
		if (k - t > COMMAND_TYPE_MAX)
			return 1;
		for (i = t; i < k; i++)
			c->type[i - t] = (w[i] >= 'a' && w[i] <= 'z') ? (char)(w[i] - 'a' + 'A') : w[i];
		c->type[k - t] = '\0';
	}
	/* the reason as written: the same places in the line kept in case */
	kn = normalise_case(raw, rn, keep, sizeof(keep), 1);
	if (kn != n)
		return 1;
	while ((int)k < n && is_separator(keep[k]))
		k++;
	tn = (size_t)n - k;
	if (tn > STORE_FEEDBACK_REASON_MAX) {
		tn = STORE_FEEDBACK_REASON_MAX;
		while (tn && ((unsigned char)keep[k + tn] & 0xc0) == 0x80)
			tn--;	/* never half a UTF-8 character */
	}
	while (tn && keep[k + tn - 1] == ' ')
		tn--;
	memcpy(c->reason, keep + k, tn);
	c->reason[tn] = '\0';
	return 1;
}

static enum command_kind match(const char *w, int n, const char *raw, size_t rn,
			       struct command *c)
{
	static const struct {
		const char *text;
		enum command_kind kind;
	} words[] = {
		{ "optout", COMMAND_OPTOUT },
		{ "opt-out", COMMAND_OPTOUT },
		{ "opt out", COMMAND_OPTOUT },
		{ "optout private", COMMAND_OPTOUT_PRIVATE },
		{ "opt-out private", COMMAND_OPTOUT_PRIVATE },
		{ "opt out private", COMMAND_OPTOUT_PRIVATE },
		{ "mute", COMMAND_MUTE },
		{ "optin", COMMAND_OPTIN },
		{ "opt-in", COMMAND_OPTIN },
		{ "opt in", COMMAND_OPTIN },
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if ((size_t)n == strlen(words[i].text) && !memcmp(w, words[i].text, (size_t)n))
			return words[i].kind;
	if (token_after(w, n, "confirm", c) || token_after(w, n, "optin", c) ||
	    token_after(w, n, "opt-in", c) || token_after(w, n, "opt in", c))
		return COMMAND_CONFIRM;
	if (false_positive(w, n, raw, rn, c))
		return COMMAND_FALSE_POSITIVE;
	return COMMAND_NONE;
}

/*
 * "query WORDS": the line s[0, n) as written (the words keep their case,
 * file paths have capitals), HTML tags dropped only when it starts with
 * one, white space runs as one space.  1 when it is a query, with the
 * words in c->query.
 */
static int query_line(const char *s, size_t n, struct command *c)
{
	char buf[COMMAND_QUERY_MAX + 8];
	size_t i = 0, o = 0;
	int html, space = 0;

	while (i < n && is_blank((unsigned char)s[i]))
		i++;
	html = i < n && s[i] == '<';
	for (; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (html && ch == '<') {
			const char *gt = memchr(s + i, '>', n - i);

			if (gt) {
				i = (size_t)(gt - s);
				space = 1;
				continue;
			}
		}
		if (is_blank(ch) || (ch == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] == 0xa0)) {
			i += ch == 0xc2;
			space = 1;
			continue;
		}
		if (space && o)
			buf[o < sizeof(buf) - 1 ? o++ : o] = ' ';
		space = 0;
		if (o < sizeof(buf) - 1)
			buf[o++] = (char)ch;
		else
			c->query_too_long = 1;
	}
	buf[o] = '\0';
	if (strncasecmp(buf, "query", 5) || (buf[5] && buf[5] != ' '))
		return 0;
	{
		const char *w = buf + 5 + !!buf[5];
		size_t wn = strlen(w);

		if (wn > COMMAND_QUERY_MAX) {
			c->query_too_long = 1;
			wn = COMMAND_QUERY_MAX;
		}
		memcpy(c->query, w, wn);
		c->query[wn] = '\0';
	}
	return 1;
}

/* The first line that can carry a command: *kind, or NONE. */
static enum command_kind first_command(const char *body, size_t len, struct command *c)
{
	struct lines l = { body, body + (len < COMMAND_MAX_SCAN ? len : COMMAND_MAX_SCAN), 0 };
	char norm[CMD_FP_LINE_MAX], next[CMD_FP_LINE_MAX];
	const char *s, *s2;
	size_t n, n2, seen = 0;
	int k, k2;

	while (seen++ < COMMAND_MAX_LINES && next_line(&l, &s, &n)) {
		if (is_quoted(&l, s, n))
			continue;
		if (query_line(s, n, c))
			return COMMAND_QUERY;
		k = normalise(s, n, norm, sizeof(norm));
		if (k == 0)
			continue;
		if (k < 0)
			return COMMAND_NONE;	/* prose, not a command */
		/* the attribution of a quote, on one line or wrapped on two */
		if (ends_with(norm, k, "wrote:"))
			continue;
		if (!strncmp(norm, "on ", 3)) {
			struct lines peek = l;

			while (next_line(&peek, &s2, &n2)) {
				k2 = normalise(s2, n2, next, sizeof(next));
				if (k2 == 0)
					continue;
				if (k2 > 0 && ends_with(next, k2, "wrote:")) {
					l = peek;
					goto skipped;
				}
				break;
			}
		}
		return match(norm, k, s, n, c);
skipped:
		;
	}
	return COMMAND_NONE;
}

/*
 * A line "confirm TOKEN" of the sender's own among the first lines: never
 * a quoted one, so that an auto-responder quoting the confirmation it
 * answers cannot use its token.
 */
static int find_token(const char *body, size_t len, struct command *c)
{
	struct lines l = { body, body + (len < COMMAND_MAX_SCAN ? len : COMMAND_MAX_SCAN), 0 };
	char norm[CMD_LINE_MAX];
	const char *s;
	size_t n, seen = 0;
	int k;

	while (seen++ < COMMAND_MAX_LINES && next_line(&l, &s, &n)) {
		if (is_quoted(&l, s, n))
			continue;
		k = normalise(s, n, norm, sizeof(norm));
		if (k > 0 && token_after(norm, k, "confirm", c))
			return 1;
	}
	return 0;
}

enum command_kind command_parse(const char *body, size_t len, struct command *c)
{
	memset(c, 0, sizeof(*c));
	if (!body)
		return COMMAND_NONE;
	c->kind = first_command(body, len, c);
	if ((c->kind == COMMAND_NONE || c->kind == COMMAND_OPTIN) &&
	    find_token(body, len, c))
		c->kind = COMMAND_CONFIRM;
	if (c->kind != COMMAND_CONFIRM)
		c->token[0] = '\0';
	return c->kind;
}

const char *command_name(enum command_kind k)
{
	switch (k) {
	case COMMAND_OPTOUT:
		return "optout";
	case COMMAND_OPTOUT_PRIVATE:
		return "optout private";
	case COMMAND_MUTE:
		return "mute";
	case COMMAND_OPTIN:
		return "optin";
	case COMMAND_CONFIRM:
		return "optin confirmed";
	case COMMAND_FALSE_POSITIVE:
		return "false-positive";
	case COMMAND_QUERY:
		return "query";
	case COMMAND_NONE:
		break;
	}
	return "none";
}

/* What a command does, for the answer's {{effect}}. */
static const char *command_effect(enum command_kind k)
{
	switch (k) {
	case COMMAND_OPTOUT:
		return "no review of your patches will be mailed from now on (they are "
		       "still checked and kept).";
	case COMMAND_OPTOUT_PRIVATE:
		return "reviews of your patches will go to you alone from now on, never "
		       "to a list.";
	case COMMAND_MUTE:
		return "nothing more will be mailed in this thread.";
	case COMMAND_OPTIN:
	case COMMAND_CONFIRM:
		return "your opt-out is undone: you will get reviews again.";
	case COMMAND_FALSE_POSITIVE:	/* answered with what was recorded */
	case COMMAND_QUERY:		/* answered with its results */
	case COMMAND_NONE:
		break;
	}
	return "";
}

int command_wants_skip(const char *body, size_t len)
{
	struct lines l = { body, body + (len < COMMAND_MAX_SCAN ? len : COMMAND_MAX_SCAN), 0 };
	char norm[CMD_LINE_MAX];
	const char *s;
	size_t n;
	int k;

	if (!body)
		return 0;
	while (next_line(&l, &s, &n)) {
		if (n >= CMD_LINE_MAX)
			continue;
		k = normalise(s, n, norm, sizeof(norm));
		if (k > 0 && !strcmp(norm, COMMAND_SKIP_LINE))
			return 1;
	}
	return 0;
}

/* The local part of addr is local (any case): "postmaster@x". */
static int local_part_is(const char *addr, const char *local)
{
	size_t k = strlen(local);

	return addr && !strncasecmp(addr, local, k) && addr[k] == '@';
}

const char *command_auto_generated(const struct mime_mail *m)
{
	if (m->auto_submitted) {
		const char *v = m->auto_submitted + strspn(m->auto_submitted, " \t");

		/* RFC 3834 5: "no", with parameters or a comment, is a person */
		if (strncasecmp(v, "no", 2) || (v[2] && !strchr(" \t;(", v[2])))
			return "Auto-Submitted";
	}
	if (m->return_path_null)
		return "Return-Path: <>";
	if (local_part_is(m->from.addr, "mailer-daemon") ||
	    local_part_is(m->from.addr, "postmaster"))
		return "from MAILER-DAEMON or postmaster";
	if (m->x_autoreply)
		return "X-Autoreply";
	if (m->x_auto_response_suppress)
		return "X-Auto-Response-Suppress";
	/* a list adds "Precedence: bulk" or "list" to every mail it passes
	 * on, people's replies too: from a list (List-Id), only "junk" */
	if (m->precedence_junk || (m->precedence_bulk && !m->list_id))
		return "Precedence";
	return NULL;
}

const char *command_thread_root(const struct mime_mail *m)
{
	if (m->nrefs && m->refs[0] && *m->refs[0])
		return m->refs[0];
	if (m->in_reply_to && *m->in_reply_to)
		return m->in_reply_to;
	return m->message_id;
}

/* ---- carrying a command out ---------------------------------------------------- */

/* To or Cc holds the bot's address, or it answers one of the bot's mails. */
static int for_bot(struct pipeline *p, const struct mime_mail *m, int *err)
{
	const char *bot = p->cfg->address;
	int64_t rid;
	size_t i;
	int ret;

	*err = 0;
	if (bot) {
		for (i = 0; i < m->nto; i++)
			if (m->to[i].addr && !strcasecmp(m->to[i].addr, bot))
				return 1;
		for (i = 0; i < m->ncc; i++)
			if (m->cc[i].addr && !strcasecmp(m->cc[i].addr, bot))
				return 1;
	}
	if (!m->in_reply_to)
		return 0;
	ret = store_reply_find(p->st, m->in_reply_to, &rid);
	if (ret < 0)
		*err = ret;
	return ret == STORE_OK;
}

static int make_token(char *out, size_t outlen)
{
	unsigned char rnd[COMMAND_TOKEN_HEX / 2];
	size_t got = 0, i;
	ssize_t r;

	if (outlen < COMMAND_TOKEN_HEX + 1)
		return -1;
	while (got < sizeof(rnd)) {
		r = getrandom(rnd + got, sizeof(rnd) - got, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)r;
	}
	for (i = 0; i < sizeof(rnd); i++)
		snprintf(out + 2 * i, 3, "%02x", rnd[i]);
	return 0;
}

/* ---- who may mute which thread ------------------------------------------------- */

#define CMD_MAX_THREAD_MAILS	64	/* mails of a thread whose To/Cc are read */

/* addr is a list the bot reads or the bot itself: on every thread's
 * To/Cc, it says nothing about who takes part */
static int is_list_or_bot(const struct config *cfg, const char *addr)
{
	size_t i;

	if (cfg->address && !strcasecmp(addr, cfg->address))
		return 1;
	for (i = 0; i < cfg->nsources; i++)
		if (cfg->sources[i].list && !strcasecmp(addr, cfg->sources[i].list))
			return 1;
	return 0;
}

/* sender wrote stored mail msg_id, or is on its To/Cc: 1, else 0 */
static int takes_part(struct pipeline *p, int64_t msg_id, const char *sender)
{
	struct mime_mail m;
	size_t i;
	int ret = 0;

	if (!msg_id || pipe_load_mail(p->st, msg_id, &m))
		return 0;
	if (m.from.addr && !strcasecmp(m.from.addr, sender))
		ret = 1;
	for (i = 0; !ret && i < m.nto; i++)
		ret = m.to[i].addr && !strcasecmp(m.to[i].addr, sender) &&
		      !is_list_or_bot(p->cfg, sender);
	for (i = 0; !ret && i < m.ncc; i++)
		ret = m.cc[i].addr && !strcasecmp(m.cc[i].addr, sender) &&
		      !is_list_or_bot(p->cfg, sender);
	mime_release(&m);
	return ret;
}

/* The thread root of a stored mail that is not part of a series: its
 * first References entry, else its In-Reply-To, else itself (malloc'd). */
static char *row_root(const struct store_msg *row)
{
	if (row->refs && *row->refs)
		return strndup(row->refs, strcspn(row->refs, " "));
	if (row->in_reply_to && *row->in_reply_to)
		return strdup(row->in_reply_to);
	return strdup(row->message_id);
}

/*
 * The thread a "mute" from sender names, from the store and never from
 * the command's own References (anyone can write those, for a thread
 * not even posted yet): the mail it answers (In-Reply-To, else the last
 * References entry) must be one the bot stored or one of its reviews.
 * The thread is that mail's series, or that mail's own thread when it is
 * not a patch.  And sender must take part in it: the series' author, or
 * the author of one of its mails or on their To/Cc (the lists the bot
 * reads and its own address do not count).  0 with *root (malloc'd);
 * 1 when refused, with *why; or a negative store error.
 */
static int mute_target(struct pipeline *p, const struct mime_mail *m, const char *sender,
		       char **root, const char **why)
{
	const char *parent = m->in_reply_to;
	struct store_patch *patches = NULL;
	struct store_series s;
	struct store_reply r;
	struct store_msg row;
	int64_t rid, series_id = 0;
	size_t np = 0, i;
	int ret, have_row = 0, have_series = 0, ok = 0;

	*root = NULL;
	*why = NULL;
	memset(&row, 0, sizeof(row));
	if (!parent && m->nrefs)
		parent = m->refs[m->nrefs - 1];
	if (!parent) {
		*why = "mute refused: it answers no mail of a thread";
		return 1;
	}
	ret = store_reply_find(p->st, parent, &rid);
	if (ret == STORE_OK) {
		ret = store_reply_get(p->st, rid, &r);
		if (ret != STORE_OK)
			return ret < 0 ? ret : STORE_ERR;
		series_id = r.series_id;
		store_reply_release(&r);
		if (!series_id) {
			*why = "mute refused: it answers no review";
			return 1;
		}
	} else if (ret == STORE_DONE) {
		ret = store_msg_find(p->st, parent, &row);
		if (ret < 0)
			return ret;
		if (ret == STORE_DONE) {
			*why = "mute refused: no such thread";
			return 1;
		}
		have_row = 1;
		series_id = row.series_id;
	} else {
		return ret;
	}
	if (series_id) {
		ret = store_series_get(p->st, series_id, &s);
		if (ret != STORE_OK) {
			ret = ret < 0 ? ret : STORE_ERR;
			goto out;
		}
		have_series = 1;
		ok = s.author_addr && !strcasecmp(s.author_addr, sender);
		if (!ok)
			ok = takes_part(p, s.cover_msg, sender);
		if (!ok) {
			ret = store_patch_list(p->st, series_id, &patches, &np);
			if (ret < 0)
				goto out;
			for (i = 0; !ok && i < np && i < CMD_MAX_THREAD_MAILS; i++)
				ok = takes_part(p, patches[i].msg_id, sender);
		}
		*root = strdup(s.root ? s.root : parent);
	} else {
		ok = takes_part(p, row.id, sender);
		*root = row_root(&row);
		if (!ok) {
			struct store_msg top;

			if (store_msg_find(p->st, *root, &top) == STORE_OK) {
				ok = takes_part(p, top.id, sender);
				store_msg_release(&top);
			}
		}
	}
	ret = 0;
	if (!*root)
		ret = STORE_ERR_NOMEM;
	else if (!ok) {
		*why = "mute refused: the sender takes no part in the thread";
		ret = 1;
	}
out:
	if (ret) {
		free(*root);
		*root = NULL;
	}
	for (i = 0; i < np; i++)
		store_patch_release(&patches[i]);
	free(patches);
	if (have_series)
		store_series_release(&s);
	if (have_row)
		store_msg_release(&row);
	return ret;
}

/* ---- who sent it, and when --------------------------------------------------- */

/* sender maintains a list some source reads */
static int maintains_a_list(const struct config *cfg, const char *sender)
{
	size_t i;

	for (i = 0; i < cfg->nsources; i++)
		if (cfg->sources[i].list &&
		    config_is_maintainer(cfg, cfg->sources[i].list, sender))
			return 1;
	return 0;
}

/*
 * How far the sender of command mail id is known (command.h): its DKIM
 * signature verifies for its From: domain (bot/mail/dkimcheck.h), else
 * it sent a token back before (store confirmed), else neither.  The
 * DKIM check (a DNS lookup) is made only where it changes something: a
 * maintainer's false-positive, or whether to answer a sender not
 * confirmed (want_answer).  why gets the DKIM check's word.  0 or a
 * negative store error.
 */
static int sender_trust(struct pipeline *p, int64_t id, const char *sender,
			int maintainer_word, int want_answer, enum command_trust *t,
			char *why, size_t whylen)
{
	void *raw = NULL;
	size_t rawlen = 0;
	int ret;

	*t = COMMAND_TRUST_NONE;
	snprintf(why, whylen, "DKIM not looked at");
	ret = store_confirmed_get(p->st, sender);
	if (ret < 0)
		return ret;
	if (ret == STORE_OK)
		*t = COMMAND_TRUST_CONFIRMED;
	if (!maintainer_word && (!want_answer || *t == COMMAND_TRUST_CONFIRMED))
		return 0;
	ret = store_msg_raw(p->st, id, &raw, &rawlen);
	if (ret < 0)
		return ret;
	if (ret == STORE_OK && dkimcheck_from(raw, rawlen, sender, p->cfg->dkim_keys,
					      why, whylen))
		*t = COMMAND_TRUST_VERIFIED;
	free(raw);
	return 0;
}

const char *command_trust_name(enum command_trust t)
{
	switch (t) {
	case COMMAND_TRUST_VERIFIED:
		return "verified";
	case COMMAND_TRUST_CONFIRMED:
		return "confirmed";
	case COMMAND_TRUST_NONE:
		break;
	}
	return "neither verified nor confirmed";
}

const char *command_date_refusal(const struct config *cfg, int64_t date, int64_t now)
{
	if (date <= 0)
		return "it has no usable Date:";
	if (date > now && date - now > (int64_t)cfg->max_clock_skew)
		return "its Date: is in the future ([policy] max_clock_skew)";
	if (cfg->max_age > 0 && now - date > (int64_t)cfg->max_age)
		return "its Date: is older than [policy] max_age";
	return NULL;
}

/* ---- the mails it gets ----------------------------------------------------------- */

/*
 * Queues the one answer to a command carried out for sender, confirmed
 * or verified (templates/confirm.txt): a fresh token with it, which
 * opts the address back in when sent back.
 */
static int queue_confirm(struct pipeline *p, const struct mime_mail *m,
			 const struct store_msg *row, const char *sender,
			 const char *what, const char *effect, int64_t now)
{
	struct compose_confirm cc;
	struct sbuf mail;
	char token[COMMAND_TOKEN_HEX + 1] = "", msgid[256], err[256], subject[96];
	int ret;

	sbuf_init(&mail, COMPOSE_MAX_MAIL);
	if (make_token(token, sizeof(token))) {
		log_event(LOG_ERR, "no-random", "error", strerror(errno), NULL);
		ret = STORE_ERR;
		goto out;
	}
	ret = store_token_add(p->st, sender, token, now);
	if (ret < 0)
		goto out;
	memset(&cc, 0, sizeof(cc));
	snprintf(subject, sizeof(subject), "[reviewbot] %s", what);
	command_answer_head(p, m, sender, now, subject, msgid, sizeof(msgid), &cc.head);
	cc.command = what;
	cc.effect = effect;
	cc.token = token;
	if (compose_confirm_mail(p->tpl, &cc, &mail, err, sizeof(err))) {
		log_event(LOG_ERR, "compose-failed", "msgid", m->message_id,
			  "error", err, NULL);
		ret = STORE_ERR;
		goto out;
	}
	ret = command_queue_answer(p, m, row, sender, msgid, mail.buf, now,
				   "confirm", NULL, COMMAND_ANSWER);
out:
	sbuf_release(&mail);
	return ret;
}

/* What a command will do once confirmed, for the request's {{effect}}. */
static const char *pending_effect(enum command_kind k)
{
	switch (k) {
	case COMMAND_OPTOUT:
		return "once confirmed, no review of your patches will be mailed (they are"
		       " still checked and kept).";
	case COMMAND_OPTOUT_PRIVATE:
		return "once confirmed, reviews of your patches will go to you alone, never"
		       " to a list.";
	case COMMAND_MUTE:
		return "once confirmed, nothing more will be mailed in the thread.";
	case COMMAND_OPTIN:
		return "once confirmed, you will get reviews again.";
	case COMMAND_QUERY:
		return "once confirmed, the query is looked up and its answer mailed to you.";
	default:
		break;
	}
	return "";
}

/*
 * Keeps command c from sender waiting for sender's token (store
 * optin_tokens: action, arg) and mails the request for it
 * (templates/request.txt): Subject the bot's own words, no text of the
 * command's mail in it but the address, under the requests' budgets.
 */
static int request_confirmation(struct pipeline *p, int64_t id, const struct mime_mail *m,
				const struct store_msg *row, const char *sender,
				enum command_kind k, const char *arg, int64_t now)
{
	struct compose_confirm cc;
	struct sbuf mail;
	const char *what = command_name(k);
	char token[COMMAND_TOKEN_HEX + 1] = "", msgid[256], err[256], subject[96];
	int ret;

	if (!template_set_has(p->tpl, "request.txt")) {
		log_event(LOG_WARN, "no-request", "msgid", m->message_id, "reason",
			  "templates: request.txt missing", NULL);
		return STORE_OK;
	}
	sbuf_init(&mail, COMPOSE_MAX_MAIL);
	if (make_token(token, sizeof(token))) {
		log_event(LOG_ERR, "no-random", "error", strerror(errno), NULL);
		ret = STORE_ERR;
		goto out;
	}
	ret = store_pending_add(p->st, sender, token, what, arg, id, now);
	if (ret < 0)
		goto out;
	memset(&cc, 0, sizeof(cc));
	snprintf(subject, sizeof(subject), "[reviewbot] please confirm: %s", what);
	command_answer_head(p, m, sender, now, subject, msgid, sizeof(msgid), &cc.head);
	/* the answer quotes nothing of the mail: not even its References */
	cc.head.references = NULL;
	cc.head.nreferences = 0;
	cc.command = what;
	cc.effect = pending_effect(k);
	cc.token = token;
	cc.template_name = "request.txt";
	if (compose_confirm_mail(p->tpl, &cc, &mail, err, sizeof(err))) {
		log_event(LOG_ERR, "compose-failed", "msgid", m->message_id,
			  "error", err, NULL);
		ret = STORE_ERR;
		goto out;
	}
	ret = command_queue_answer(p, m, row, sender, msgid, mail.buf, now,
				   "confirm-request", NULL, COMMAND_REQUEST);
out:
	sbuf_release(&mail);
	return ret;
}

/* The refusal of a command whose Date: is outside the window, to a
 * sender that may be answered (templates/feedback.txt). */
static int answer_refusal(struct pipeline *p, const struct mime_mail *m,
			  const struct store_msg *row, const char *sender,
			  const char *what, const char *why, int64_t now)
{
	struct compose_feedback f;
	struct sbuf mail;
	char msgid[256], err[256], subject[96], result[256];
	int ret;

	if (!template_set_has(p->tpl, "feedback.txt"))
		return STORE_OK;
	sbuf_init(&mail, COMPOSE_MAX_MAIL);
	memset(&f, 0, sizeof(f));
	snprintf(subject, sizeof(subject), "[reviewbot] refused: %s", what);
	snprintf(result, sizeof(result), "Nothing was done: %s.  Send the command again"
		 " from a mail program that dates its mail.", why);
	command_answer_head(p, m, sender, now, subject, msgid, sizeof(msgid), &f.head);
	f.command = what;
	f.result = result;
	if (compose_feedback_mail(p->tpl, &f, &mail, err, sizeof(err))) {
		log_event(LOG_ERR, "compose-failed", "msgid", m->message_id, "error", err, NULL);
		ret = STORE_ERR;
	} else {
		ret = command_queue_answer(p, m, row, sender, msgid, mail.buf, now,
					   "command-refusal", NULL, COMMAND_ANSWER);
	}
	sbuf_release(&mail);
	return ret;
}

static char *lower_dup(const char *s)
{
	size_t n = strlen(s), i;
	char *r;

	if (n > CMD_ADDR_MAX)
		return NULL;
	r = malloc(n + 1);
	if (!r)
		return NULL;
	for (i = 0; i <= n; i++)
		r[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
	return r;
}

/* The kind a pending action names (store optin_tokens.action). */
static enum command_kind action_kind(const char *action)
{
	static const enum command_kind kinds[] = {
		COMMAND_OPTOUT, COMMAND_OPTOUT_PRIVATE, COMMAND_MUTE, COMMAND_OPTIN,
		COMMAND_QUERY,
	};
	size_t i;

	/* NULL: a token mailed with a carried-out opt-out, or from before
	 * schema 11: it opts back in */
	if (!action)
		return COMMAND_OPTIN;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(action, command_name(kinds[i])))
			return kinds[i];
	return COMMAND_NONE;
}

/*
 * "confirm TOKEN" from sender: the command the token waits for, carried
 * out now that the address answered.  *what and *reason say what was
 * done for the log and the message's state; *answer whether the
 * confirmation mail goes out (a query is answered with its results).
 */
static int carry_out(struct pipeline *p, const struct mime_mail *m,
		     const struct store_msg *row, const char *sender,
		     const struct command *c, int64_t now, const char **what,
		     const char **reason, int *answer, enum command_kind *done)
{
	struct store_pending pd;
	struct command qc;
	int ret;

	*done = COMMAND_NONE;
	ret = store_pending_take(p->st, sender, c->token, now - COMMAND_TOKEN_TTL, now, &pd);
	if (ret == STORE_DONE) {
		/* unknown, used, expired or another address's: no answer,
		 * so the bot is no oracle for tokens */
		*reason = "token not valid for this address";
		*answer = 0;
		return STORE_OK;
	}
	if (ret < 0)
		return ret;
	ret = store_confirmed_add(p->st, sender, now);
	if (ret < 0)
		goto out;
	*done = action_kind(pd.action);
	switch (*done) {
	case COMMAND_OPTOUT:
		*what = "optout confirmed";
		ret = store_optout_set(p->st, sender, OPTOUT_SILENT, now);
		break;
	case COMMAND_OPTOUT_PRIVATE:
		*what = "optout private confirmed";
		ret = store_optout_set(p->st, sender, OPTOUT_PRIVATE, now);
		break;
	case COMMAND_MUTE:
		*what = "mute confirmed";
		ret = pd.arg ? store_mute_add(p->st, pd.arg, sender, now) : STORE_ERR;
		break;
	case COMMAND_OPTIN:
		ret = store_optout_remove(p->st, sender);
		if (ret == STORE_DONE)
			ret = STORE_OK;
		break;
	case COMMAND_QUERY:
		/* looked up now, answered with its results */
		*what = "query";
		memset(&qc, 0, sizeof(qc));
		qc.kind = COMMAND_QUERY;
		snprintf(qc.query, sizeof(qc.query), "%s", pd.arg ? pd.arg : "");
		ret = command_query(p, m, row, sender, &qc, now, reason);
		*answer = 0;
		break;
	default:
		*reason = "token of an unknown command";
		*answer = 0;
		ret = STORE_OK;
		break;
	}
out:
	store_pending_release(&pd);
	return ret;
}

int command_process(struct pipeline *p, int64_t id, const struct mime_mail *m,
		    const struct store_msg *row, int64_t now)
{
	struct command c;
	const char *what, *reason = NULL, *auto_why, *late;
	char *sender = NULL, dkim_why[160];
	enum command_trust trust = COMMAND_TRUST_NONE;
	enum command_kind done = COMMAND_NONE;
	int ret, err, answer = 1;

	if (p->mode != PIPE_RUN)
		return 0;
	if (!for_bot(p, m, &err))
		return err;
	if (command_parse(m->body, m->body_len, &c) == COMMAND_NONE)
		return 0;
	what = command_name(c.kind);
	/* RFC 3834: a program's mail gets no answer and does nothing (a
	 * patch among such mail is reviewed as any other) */
	auto_why = command_auto_generated(m);
	if (auto_why) {
		struct subject sj;
		char why[96];

		subject_parse_max(m->subject, strlen(m->subject), p->cfg->max_series_parts, &sj);
		if (sj.kind == SUBJ_PATCH || sj.kind == SUBJ_COVER)
			return 0;
		snprintf(why, sizeof(why), "auto-generated mail (%s): not a command", auto_why);
		log_event(LOG_INFO, "command-ignored", "msgid", m->message_id,
			  "command", what, "reason", why, NULL);
		ret = store_msg_set_state(p->st, id, MSG_SKIPPED, why);
		if (ret >= 0)
			p->stats.skipped++;
		return ret < 0 ? ret : 1;
	}
	sender = m->from.addr ? lower_dup(m->from.addr) : NULL;
	if (!sender || !compose_address_ok(sender)) {
		ret = store_msg_set_state(p->st, id, MSG_COMMAND, "refused: no usable From: address");
		log_event(LOG_WARN, "command-refused", "msgid", m->message_id,
			  "command", what, "reason", "no usable From: address", NULL);
		goto out;
	}
	/* a command dated outside the window is refused, never carried out
	 * unanswered: answered with why when its sender may be answered */
	late = command_date_refusal(p->cfg, m->date, now);
	ret = sender_trust(p, id, sender,
			   c.kind == COMMAND_FALSE_POSITIVE && maintains_a_list(p->cfg, sender),
			   late || c.kind == COMMAND_FALSE_POSITIVE || c.kind == COMMAND_QUERY,
			   &trust, dkim_why, sizeof(dkim_why));
	if (ret < 0)
		goto out;
	log_event(LOG_DEBUG, "command-sender", "msgid", m->message_id, "from", sender,
		  "sender", command_trust_name(trust), "dkim", dkim_why, NULL);
	if (late) {
		char state[160];

		snprintf(state, sizeof(state), "%s refused: %s", what, late);
		ret = store_msg_set_state(p->st, id, MSG_COMMAND, state);
		if (ret < 0)
			goto out;
		p->stats.commands_refused++;
		log_event(LOG_WARN, "command-refused", "msgid", m->message_id, "command", what,
			  "from", sender, "sender", command_trust_name(trust), "reason", late,
			  NULL);
		if (trust != COMMAND_TRUST_NONE)
			ret = answer_refusal(p, m, row, sender, what, late, now);
		goto out;
	}
	switch (c.kind) {
	case COMMAND_OPTOUT:
	case COMMAND_OPTOUT_PRIVATE:
	case COMMAND_OPTIN:
		/* what silences someone, or undoes it, waits for the address
		 * to send the token back: From: alone proves nothing */
		ret = request_confirmation(p, id, m, row, sender, c.kind, NULL, now);
		reason = "pending confirmation";
		answer = 0;
		break;
	case COMMAND_MUTE: {
		char *root = NULL;

		ret = mute_target(p, m, sender, &root, &reason);
		if (ret == 0) {
			ret = request_confirmation(p, id, m, row, sender, c.kind, root, now);
			reason = "pending confirmation";
		} else if (ret > 0) {
			/* refused: no answer, nothing done */
			ret = STORE_OK;
		}
		answer = 0;
		free(root);
		break;
	}
	case COMMAND_FALSE_POSITIVE:
		/* records, marks and answers it itself */
		ret = command_false_positive(p, id, m, row, sender, &c, trust, now);
		goto out;
	case COMMAND_QUERY:
		answer = 0;
		if (trust == COMMAND_TRUST_NONE && !c.query_too_long) {
			/* looked up once the address answers: nobody has the
			 * bot mail a stranger, or work for him, from From: alone */
			ret = request_confirmation(p, id, m, row, sender, c.kind, c.query, now);
			reason = "pending confirmation";
			break;
		}
		/* answered with its results, not a token */
		ret = command_query(p, m, row, sender, &c, now, &reason);
		break;
	case COMMAND_CONFIRM:
		ret = carry_out(p, m, row, sender, &c, now, &what, &reason, &answer, &done);
		break;
	default:
		ret = STORE_OK;
		answer = 0;
		break;
	}
	if (ret < 0)
		goto out;
	if (reason && !strcmp(reason, "pending confirmation")) {
		char state[96];

		snprintf(state, sizeof(state), "%s: pending confirmation", what);
		ret = store_msg_set_state(p->st, id, MSG_COMMAND, state);
		p->stats.commands_pending++;
		if (ret >= 0)
			log_event(LOG_INFO, "command-pending", "msgid", m->message_id,
				  "command", what, "from", sender, "sender",
				  command_trust_name(trust), NULL);
		goto out;
	}
	if (reason && strstr(reason, "refused"))
		p->stats.commands_refused++;
	ret = store_msg_set_state(p->st, id, MSG_COMMAND, reason ? reason : what);
	if (ret < 0)
		goto out;
	log_event(LOG_INFO, "command", "msgid", m->message_id, "command", what,
		  "from", sender, "refused", reason, NULL);
	if (answer)
		ret = queue_confirm(p, m, row, sender, what, command_effect(done), now);
out:
	free(sender);
	return ret < 0 ? ret : 1;
}

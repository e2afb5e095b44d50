// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "series.h"
#include "../checker/banned.h"

#define CHANGE_ID_MAX	128

static int older(int v, int minor, const struct store_series *s)
{
	return s->version < v || (s->version == v && s->version_minor < minor);
}

/* The part number of message msg_id in series series_id, or -1. */
static int part_of(struct store *st, int64_t series_id, int64_t msg_id)
{
	struct store_patch *p = NULL;
	size_t n = 0, i;
	int part = -1;

	if (store_patch_list(st, series_id, &p, &n) != STORE_OK)
		return -1;
	for (i = 0; i < n; i++) {
		if (p[i].msg_id == msg_id)
			part = p[i].part;
		store_patch_release(&p[i]);
	}
	free(p);
	return part;
}

/*
 * "[PATCH v2 3/7]" in reply to v1's 3/7: the id of the replaced series,
 * or 0.
 */
static int64_t replaced_series(struct store *st, const struct mime_mail *m,
			       const struct subject *sj)
{
	struct store_msg parent;
	struct store_series ps;
	int64_t id = 0;

	if (sj->kind != SUBJ_PATCH || !m->in_reply_to)
		return 0;
	if (store_msg_find(st, m->in_reply_to, &parent) != STORE_OK)
		return 0;
	if (parent.state == MSG_PATCH && parent.series_id &&
	    store_series_get(st, parent.series_id, &ps) == STORE_OK) {
		/* the parent is a part of the series, or itself a replacement */
		if (older(sj->version, sj->version_minor, &ps) &&
		    (ps.total == sj->total || ps.total == 1) &&
		    part_of(st, ps.id, parent.id) == sj->part)
			id = ps.id;
		store_series_release(&ps);
	}
	store_msg_release(&parent);
	return id;
}

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

int series_change_id(const char *body, char *out, size_t outlen)
{
	const char *p = body;
	size_t n;

	while (p && *p) {
		if (!strncasecmp(p, "change-id:", 10)) {
			p += 10;
			while (*p == ' ' || *p == '\t')
				p++;
			for (n = 0; isalnum((unsigned char)p[n]) || p[n] == '-' ||
				    p[n] == '_' || p[n] == '.'; n++)
				;
			if (n && n < outlen && n <= CHANGE_ID_MAX) {
				memcpy(out, p, n);
				out[n] = '\0';
				return 0;
			}
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int series_place(struct store *st, int64_t msg_id, const struct mime_mail *m,
		 const struct subject *sj, const char *list, int64_t now,
		 int64_t *series_id, int64_t *patch_id)
{
	struct store_series s;
	struct store_patch p;
	char change_id[CHANGE_ID_MAX + 1];
	const char *root;
	int64_t prev;
	int found = 0, ret, changed = 0;

	*series_id = 0;
	*patch_id = 0;
	memset(&s, 0, sizeof(s));
	prev = replaced_series(st, m, sj);
	/*
	 * A plain "[PATCH]" (no M/N) starts its own series even when sent
	 * into a discussion thread: there are no parts to gather.
	 */
	if (prev || (sj->kind == SUBJ_PATCH && sj->total == 1 && !sj->has_numbers))
		root = m->message_id;
	else if (m->nrefs)
		root = m->refs[0];
	else if (m->in_reply_to)
		root = m->in_reply_to;
	else
		root = m->message_id;

	if (!prev) {
		ret = store_series_find(st, list, m->from.addr, root, sj->version,
					sj->version_minor, sj->total, &s);
		if (ret < 0)
			return ret;
		found = ret == STORE_OK;
	}
	/*
	 * Parts without In-Reply-To or References (git format-patch files
	 * without --thread, a list that strips them) join the author's open
	 * series of the same version, tags and size that lacks their number,
	 * sent within SERIES_UNTHREADED_DATE_WINDOW of one of its mails.
	 */
	if (!prev && !found && !m->nrefs && !m->in_reply_to && !m->nxrefs && sj->total > 1) {
		ret = store_series_find_unthreaded(st, list, m->from.addr,
						   sj->prefix[0] ? sj->prefix : NULL,
						   sj->version, sj->version_minor, sj->total,
						   sj->kind == SUBJ_COVER ? 0 : sj->part,
						   now - SERIES_UNTHREADED_WINDOW, m->date,
						   SERIES_UNTHREADED_DATE_WINDOW, &s);
		if (ret < 0)
			return ret;
		found = ret == STORE_OK;
	}
	if (!found) {
		memset(&s, 0, sizeof(s));
		s.list = (char *)list;
		s.author_addr = m->from.addr;
		s.author_name = m->from.name;
		s.subject = (char *)sj->normalised;
		s.root = (char *)root;
		s.prefix = (char *)sj->prefix;
		s.version = sj->version;
		s.version_minor = sj->version_minor;
		s.total = prev ? 1 : sj->total;
		s.prev_id = prev;
		s.created = now;
		s.last_part_at = now;
		ret = store_series_add(st, &s, series_id);
		if (ret < 0)
			return ret;
		ret = store_series_get(st, *series_id, &s);
		if (ret != STORE_OK)
			return ret < 0 ? ret : STORE_ERR;
	}
	*series_id = s.id;

	/* what the cover letter (or, without one, patch 1) says wins */
	if (sj->kind == SUBJ_COVER || (sj->part == 1 && !s.cover_msg)) {
		free(s.subject);
		s.subject = strdup(sj->normalised);
		free(s.prefix);
		s.prefix = dup_or_null(sj->prefix);
		free(s.author_name);
		s.author_name = dup_or_null(m->from.name);
		changed = 1;
	}
	if (sj->kind == SUBJ_COVER) {
		s.cover_msg = msg_id;
		if (!s.change_id && !series_change_id(m->body, change_id, sizeof(change_id)))
			s.change_id = strdup(change_id);
		changed = 1;
	}
	if (s.last_part_at < now) {
		s.last_part_at = now;
		changed = 1;
	}
	ret = STORE_OK;
	if (changed)
		ret = store_series_update(st, &s);
	if (ret == STORE_OK && sj->kind == SUBJ_PATCH) {
		memset(&p, 0, sizeof(p));
		p.series_id = s.id;
		p.msg_id = msg_id;
		p.part = sj->part;
		p.subject = m->subject;
		ret = store_patch_add(st, &p, patch_id);
	}
	if (found || *series_id)
		store_series_release(&s);
	return ret;
}

int series_complete(struct store *st, const struct store_series *s)
{
	struct store_patch *p = NULL;
	size_t n = 0, i;

	if (store_patch_list(st, s->id, &p, &n) != STORE_OK)
		return 0;
	for (i = 0; i < n; i++)
		store_patch_release(&p[i]);
	free(p);
	return n >= (size_t)s->total;
}

/* Message-IDs named by links in a cover letter: lore.kernel.org/LIST/ID,
 * lore.kernel.org/r/ID, patch.msgid.link/ID, and "<ID>" after "v1:". */
static size_t cover_links(const char *body, char ids[][256], size_t max)
{
	static const char *const hosts[] = {
		"lore.kernel.org/", "patch.msgid.link/", "lkml.kernel.org/",
	};
	const char *p, *q;
	size_t n = 0, h, len, i, o;

	for (h = 0; h < sizeof(hosts) / sizeof(hosts[0]); h++) {
		for (p = body; p && n < max && (p = strstr(p, hosts[h])); ) {
			p += strlen(hosts[h]);
			/* lore: skip the list (or r/, all/) segment */
			if (h != 1) {
				q = strchr(p, '/');
				if (!q || memchr(p, ' ', (size_t)(q - p)) ||
				    memchr(p, '\n', (size_t)(q - p)))
					continue;
				p = q + 1;
			}
			for (len = 0; p[len] && p[len] != '/' && p[len] != '>' &&
				      !isspace((unsigned char)p[len]) && p[len] != ')'; len++)
				;
			if (!len || len >= 255)
				continue;
			for (i = 0, o = 0; i < len && o < 255; i++) {
				if (p[i] == '%' && i + 2 < len && !strncasecmp(p + i, "%40", 3)) {
					ids[n][o++] = '@';
					i += 2;
				} else {
					ids[n][o++] = p[i];
				}
			}
			ids[n][o] = '\0';
			if (strchr(ids[n], '@'))
				n++;
			p += len;
		}
	}
	return n;
}

int series_link_prev(struct store *st, struct store_series *s, const char *cover_body)
{
	struct store_series cand;
	struct store_msg m;
	char ids[SERIES_MAX_LINKS][256];
	size_t n, i;
	int64_t best = 0;
	int best_v = 0, best_minor = 0, ret;

	if (s->prev_id)
		return STORE_OK;
	if (s->change_id) {
		ret = store_series_find_prev_by_change_id(st, s->change_id, s->version,
							  s->version_minor, s->id, &cand);
		if (ret < 0)
			return ret;
		if (ret == STORE_OK) {
			best = cand.id;
			store_series_release(&cand);
		}
	}
	if (!best && cover_body) {
		n = cover_links(cover_body, ids, SERIES_MAX_LINKS);
		for (i = 0; i < n; i++) {
			if (store_msg_find(st, ids[i], &m) != STORE_OK)
				continue;
			if (m.series_id && m.series_id != s->id &&
			    store_series_get(st, m.series_id, &cand) == STORE_OK) {
				/* the newest of the earlier versions linked */
				if (older(s->version, s->version_minor, &cand) &&
				    (!best || cand.version > best_v ||
				     (cand.version == best_v && cand.version_minor > best_minor))) {
					best = cand.id;
					best_v = cand.version;
					best_minor = cand.version_minor;
				}
				store_series_release(&cand);
			}
			store_msg_release(&m);
		}
	}
	if (!best && s->subject && s->version > 1) {
		ret = store_series_find_prev_by_subject(st, s->list, s->author_addr,
							s->subject, s->version,
							s->version_minor, s->id, &cand);
		if (ret < 0)
			return ret;
		if (ret == STORE_OK) {
			best = cand.id;
			store_series_release(&cand);
		}
	}
	if (!best)
		return STORE_OK;
	s->prev_id = best;
	return store_series_update(st, s);
}

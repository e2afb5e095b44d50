// SPDX-License-Identifier: GPL-2.0-only
/*
 * series: which series (and version) a patch mail or cover letter
 * belongs to, found through its references as Patchwork does (series.h).
 */
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
 * A series' patches: *count of them, *msg_id (when not NULL) the message
 * of part (0 when it is not there), *tagged whether one of their
 * subjects, or the cover letter's, names a version ("v3").
 */
static int series_parts(struct store *st, const struct store_series *s, int part,
			size_t *count, int64_t *msg_id, int *tagged)
{
	struct store_patch *p = NULL;
	struct store_msg cm;
	struct subject sj;
	size_t n = 0, i;
	int ret;

	*count = 0;
	if (msg_id)
		*msg_id = 0;
	if (tagged)
		*tagged = 0;
	ret = store_patch_list(st, s->id, &p, &n);
	if (ret != STORE_OK)
		return ret;
	for (i = 0; i < n; i++) {
		if (msg_id && p[i].part == part)
			*msg_id = p[i].msg_id;
		if (tagged && !*tagged && p[i].subject) {
			subject_parse(p[i].subject, strlen(p[i].subject), &sj);
			*tagged = sj.has_version;
		}
		store_patch_release(&p[i]);
	}
	free(p);
	*count = n;
	if (tagged && !*tagged && s->cover_msg &&
	    store_msg_get(st, s->cover_msg, &cm) == STORE_OK) {
		if (cm.subject) {
			subject_parse(cm.subject, strlen(cm.subject), &sj);
			*tagged = sj.has_version;
		}
		store_msg_release(&cm);
	}
	return STORE_OK;
}

/*
 * "[PATCH v2 3/7]" in reply to v1's 3/7, or "[PATCH v5.1 1/7]" in reply
 * to v5's 1/7: the id of the replaced series, or 0.  Part 1 of a whole
 * version sent with --in-reply-to to the earlier part 1 (git send-email
 * without a cover letter) is not a replacement: the rest follow it.
 */
static int64_t replaced_series(struct store *st, const struct mime_mail *m,
			       const struct subject *sj)
{
	struct store_msg parent;
	struct store_series ps;
	int64_t id = 0;

	if (sj->kind != SUBJ_PATCH || !m->in_reply_to)
		return 0;
	if (sj->part == 1 && sj->total > 1 && !sj->version_minor)
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

/*
 * The Message-IDs a mail names, nearest first, as Patchwork walks them:
 * In-Reply-To, the ids of a repeated In-Reply-To or References header,
 * then References from the newest (the last) to the oldest.  At most
 * SERIES_MAX_WALK, without repeats.
 */
static size_t walk_refs(const struct mime_mail *m, const char **out)
{
	size_t n = 0, i, k;
	const char *c;

#define WALK_ADD(id) do {						\
		c = (id);						\
		if (!c || !*c || n >= SERIES_MAX_WALK)			\
			break;						\
		for (k = 0; k < n && strcmp(out[k], c); k++)		\
			;						\
		if (k == n && strcmp(c, m->message_id))			\
			out[n++] = c;					\
	} while (0)

	WALK_ADD(m->in_reply_to);
	for (i = 0; i < m->nxrefs; i++)
		WALK_ADD(m->xrefs[i]);
	for (i = m->nrefs; i > 0; i--)
		WALK_ADD(m->refs[i - 1]);
#undef WALK_ADD
	return n;
}

/* What a mail's references say about where it goes. */
struct place {
	int64_t join;		/* the series it joins, or 0 */
	int64_t prev;		/* the nearest older version named, or 0 */
	int64_t dup;		/* a series that has this very part, or 0 */
	int retag;		/* join takes the mail's version */
	int grow;		/* join takes the mail's size (an extra part) */
};

/*
 * Whether a mail of subject sj belongs with series s found through a
 * reference: the same size, or a part past its end ("[PATCH 3/3]" sent
 * later under "[PATCH 0/2]", which sets *grow); and the same version, or
 * none on the mail (a "[PATCH 1/4]" under "[PATCH v3 0/4]").  A series
 * of mails without a version takes the version of a mail they reply to
 * (own: s named this very mail), which then sets *retag.
 */
static int same_version(struct store *st, const struct store_series *s,
			const struct subject *sj, int own, int *retag, int *grow)
{
	size_t n;
	int tagged;

	*retag = 0;
	*grow = 0;
	if (s->total != sj->total) {
		if (sj->kind != SUBJ_PATCH || sj->part <= s->total || sj->total < sj->part)
			return 0;
		*grow = 1;
	}
	if (s->version == sj->version && s->version_minor == sj->version_minor)
		return 1;
	if (!sj->has_version)
		return 1;
	if (!own || s->version != 1 || s->version_minor ||
	    series_parts(st, s, 0, &n, NULL, &tagged) != STORE_OK || tagged)
		return 0;
	*retag = 1;
	return 1;
}

/*
 * Candidates for one reference: series of this list and author that
 * hold the mail named, or whose mails name it.  Of those of the mail's
 * version, the first lacking its part wins; one that has the part in
 * the same place of the thread (a copy of the mail under a new
 * Message-ID) makes it a duplicate; one that has it elsewhere (a resend
 * in reply to the old series) ends the walk: the mail starts a series.
 * Returns 1 when the walk ends, 0 to go on, or a negative store error.
 */
static int try_ref(struct store *st, const char *list, const struct mime_mail *m,
		   const struct subject *sj, const char *ref, int own, struct place *pl)
{
	struct store_series s;
	struct store_msg pm;
	int64_t ids[SERIES_MAX_CANDIDATES], msg;
	size_t n = 0, i, count;
	int ret, retag, grow, ends = 0;
	int part = sj->kind == SUBJ_COVER ? 0 : sj->part;

	ret = store_series_by_ref(st, list, m->from.addr, ref, ids, NULL,
				  SERIES_MAX_CANDIDATES, &n);
	if (ret < 0)
		return ret;
	for (i = 0; i < n && !pl->join; i++) {
		ret = store_series_get(st, ids[i], &s);
		if (ret < 0)
			return ret;
		if (ret != STORE_OK)
			continue;
		if (same_version(st, &s, sj, own, &retag, &grow)) {
			ends = 1;
			if (part == 0) {
				if (!s.cover_msg) {
					pl->join = s.id;
					pl->retag = retag;
				}
			} else {
				ret = series_parts(st, &s, part, &count, &msg, NULL);
				if (ret < 0) {
					store_series_release(&s);
					return ret;
				}
				if (!msg) {
					pl->join = s.id;
					pl->retag = retag;
					pl->grow = grow;
				} else if (!pl->dup && m->in_reply_to &&
					   store_msg_get(st, msg, &pm) == STORE_OK) {
					if (pm.in_reply_to && !strcmp(pm.in_reply_to, m->in_reply_to))
						pl->dup = s.id;
					store_msg_release(&pm);
				}
			}
		} else if (!pl->prev && older(sj->version, sj->version_minor, &s)) {
			pl->prev = s.id;
		}
		store_series_release(&s);
	}
	return ends;
}

/*
 * Where a mail goes by its references (Patchwork's find_series, on every
 * reference): its own Message-ID first (parts that came before it named
 * it), then what it names, nearest first.  A cover letter joins only a
 * series that named it: what it replies to is another series (an
 * earlier version) or a discussion.  Every reference is still looked at
 * for the nearest earlier version.
 */
static int place_by_refs(struct store *st, const char *list, const struct mime_mail *m,
			 const struct subject *sj, struct place *pl)
{
	const char *refs[SERIES_MAX_WALK];
	size_t n, i;
	int ret, ended;

	memset(pl, 0, sizeof(*pl));
	ret = try_ref(st, list, m, sj, m->message_id, 1, pl);
	if (ret < 0)
		return ret;
	ended = ret;
	n = walk_refs(m, refs);
	for (i = 0; i < n; i++) {
		if (ended || sj->kind == SUBJ_COVER) {
			/* only an earlier version is looked for now */
			struct place seen = { 0, 0, 0, 0, 0 };

			if (pl->prev)
				break;
			ret = try_ref(st, list, m, sj, refs[i], 0, &seen);
			if (ret < 0)
				return ret;
			pl->prev = seen.prev;
			continue;
		}
		ret = try_ref(st, list, m, sj, refs[i], 0, pl);
		if (ret < 0)
			return ret;
		ended = ret;
	}
	return STORE_OK;
}

/* Records msgid and the ids it names as references of series_id. */
static int remember_refs(struct store *st, int64_t series_id, const struct mime_mail *m,
			 const struct subject *sj)
{
	const char *refs[SERIES_MAX_WALK];
	size_t n, i;
	int ret;

	ret = store_series_ref_add(st, series_id, m->message_id, 1);
	/* a cover letter's references name other threads, not its parts */
	if (ret < 0 || sj->kind == SUBJ_COVER)
		return ret;
	n = walk_refs(m, refs);
	for (i = 0; i < n && ret >= 0; i++)
		ret = store_series_ref_add(st, series_id, refs[i], 0);
	return ret;
}

int series_place(struct store *st, int64_t msg_id, const struct mime_mail *m,
		 const struct subject *sj, const char *list, int64_t now,
		 int64_t *series_id, int64_t *patch_id)
{
	struct store_series s;
	struct store_patch p;
	struct place pl;
	char change_id[CHANGE_ID_MAX + 1];
	const char *root;
	int64_t repl;
	size_t nparts;
	int found = 0, ret, changed = 0, lone;
	int threaded = m->in_reply_to || m->nrefs || m->nxrefs;

	*series_id = 0;
	*patch_id = 0;
	memset(&s, 0, sizeof(s));
	memset(&pl, 0, sizeof(pl));
	repl = replaced_series(st, m, sj);
	/*
	 * A plain "[PATCH]" (no M/N) starts its own series even when sent
	 * into a discussion thread: there are no parts to gather.  What it
	 * names may still be its earlier version.
	 */
	lone = sj->kind == SUBJ_PATCH && sj->total == 1 && !sj->has_numbers;
	if (repl) {
		pl.prev = repl;
	} else {
		ret = place_by_refs(st, list, m, sj, &pl);
		if (ret < 0)
			return ret;
		if (lone)
			pl.join = pl.dup = 0;
	}
	if (pl.dup) {
		*series_id = pl.dup;
		return STORE_DUP;
	}
	if (pl.join) {
		ret = store_series_get(st, pl.join, &s);
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
	if (!repl && !found && !threaded && !lone && sj->total > 1) {
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
		if (m->nrefs)
			root = m->refs[0];
		else if (m->in_reply_to)
			root = m->in_reply_to;
		else
			root = m->message_id;
		if (repl || lone)
			root = m->message_id;
		memset(&s, 0, sizeof(s));
		s.list = (char *)list;
		s.author_addr = m->from.addr;
		s.author_name = m->from.name;
		s.subject = (char *)sj->normalised;
		s.root = (char *)root;
		s.prefix = (char *)sj->prefix;
		s.version = sj->version;
		s.version_minor = sj->version_minor;
		s.total = repl ? 1 : sj->total;
		s.prev_id = pl.prev;
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

	/* a series of unversioned mails takes the version a mail names */
	if (found && pl.retag) {
		s.version = sj->version;
		s.version_minor = sj->version_minor;
		changed = 1;
	}
	if (found && pl.grow && s.total < sj->total) {
		s.total = sj->total;
		changed = 1;
	}
	if (found && !s.prev_id && pl.prev && pl.prev != s.id) {
		s.prev_id = pl.prev;
		changed = 1;
	}
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
	/* a lone cover letter was put aside (never reviewed alone): its
	 * patches came after all */
	if (ret == STORE_OK && found && sj->kind == SUBJ_PATCH &&
	    s.state == SERIES_SKIPPED) {
		ret = series_parts(st, &s, 0, &nparts, NULL, NULL);
		if (ret == STORE_OK && !nparts)
			ret = store_series_set_state(st, s.id, SERIES_OPEN, 0);
	}
	if (ret == STORE_OK)
		ret = remember_refs(st, s.id, m, sj);
	if (ret == STORE_OK && sj->kind == SUBJ_PATCH) {
		memset(&p, 0, sizeof(p));
		p.series_id = s.id;
		p.msg_id = msg_id;
		p.part = sj->part;
		p.subject = m->subject;
		ret = store_patch_add(st, &p, patch_id);
	}
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

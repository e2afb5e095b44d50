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

static int newer(int v, int minor, const struct store_series *s)
{
	return s->version > v || (s->version == v && s->version_minor > minor);
}

/* Whether a series is the author's on this list (addresses are stored
 * lowercase, as mime.c gives them). */
static int same_owner(const struct store_series *s, const char *list, const char *addr)
{
	if (!s->author_addr || !addr || strcmp(s->author_addr, addr))
		return 0;
	return (!s->list && !list) || (s->list && list && !strcmp(s->list, list));
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
			       const struct subject *sj, const char *list)
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
		/* the parent is a part of the series, or itself a replacement,
		 * and the series is the sender's: a stranger's "v2" in reply
		 * to someone's patch is no version of it */
		if (same_owner(&ps, list, m->from.addr) &&
		    older(sj->version, sj->version_minor, &ps) &&
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

/* What follows a patch mail's "---" line (its notes), or "" */
static const char *notes_of(const char *body)
{
	const char *p;

	if (!body)
		return "";
	if (!strncmp(body, "---\n", 4))
		return body + 4;
	p = strstr(body, "\n---\n");
	return p ? p + 5 : "";
}

/* Series next gets prev as its previous version, if it has none. */
static int link_next(struct store *st, int64_t next, int64_t prev)
{
	struct store_series ns;
	int ret;

	ret = store_series_get(st, next, &ns);
	if (ret != STORE_OK)
		return ret < 0 ? ret : STORE_OK;
	if (!ns.prev_id) {
		ns.prev_id = prev;
		ret = store_series_update(st, &ns);
	}
	store_series_release(&ns);
	return ret;
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
	int64_t next;		/* a newer version that names it and has no
				 * previous version yet (it came first), or 0 */
	int64_t dup;		/* a series that has this very part, or 0 */
	int retag;		/* join takes the mail's version */
	int grow;		/* join takes the mail's size (an extra part) */
};

/* How a mail stands to a series found through one of its references. */
enum kin {
	KIN_NAMED,		/* the series merely names the reference */
	KIN_PARENT,		/* the series' mails reply to this mail */
	KIN_CHILD,		/* this mail replies to a mail of the series */
	KIN_SIBLING,		/* a mail of the series replies to what it replies to */
};

static int kin_of(struct store *st, const struct store_series *s, const struct mime_mail *m,
		  const char *ref, int own, enum kin *kin)
{
	struct store_msg rm;
	int ret;

	*kin = KIN_NAMED;
	if (own) {
		*kin = KIN_PARENT;
		return STORE_OK;
	}
	ret = store_msg_find(st, ref, &rm);
	if (ret < 0)
		return ret;
	if (ret == STORE_OK) {
		if (rm.series_id == s->id)
			*kin = KIN_CHILD;
		store_msg_release(&rm);
		if (*kin == KIN_CHILD)
			return STORE_OK;
	}
	ret = store_series_has_reply_to(st, s->id, m->in_reply_to);
	if (ret < 0)
		return ret;
	if (ret)
		*kin = KIN_SIBLING;
	return STORE_OK;
}

/*
 * Whether a mail of subject sj belongs with series s found through a
 * reference: the same size, or a part past its end ("[PATCH 3/3]" sent
 * later under "[PATCH 0/2]", which sets *grow); and the same version.
 * Where one side names no version, the version goes from a mail to the
 * mails that reply to it, and between mails replying to the same one,
 * never up: a part without "vN" joins a versioned series it replies into
 * ("[PATCH 1/4]" under "[PATCH v3 0/4]") or beside, and a versioned mail
 * joins a series of unversioned mails that reply to it or beside it
 * (which sets *retag: the series takes its version); an unversioned mail
 * that a "[PATCH v2 2/2]" replies to is not that v2's part 1, nor is the
 * v2 part of the unversioned series it replies to, but for a cover letter
 * that forgot its "vN" and its parts, sent within
 * SERIES_UNTHREADED_DATE_WINDOW of each other.  So the same mails
 * give the same series in any order of arrival (parts of a v2 whose
 * Message-IDs the sender's provider rewrote reach each other only as
 * siblings, through the ids git send-email gave them, and one of them
 * may lack the "v2").
 */
static int same_version(struct store *st, const struct store_series *s,
			const struct subject *sj, const struct mime_mail *m, const char *ref,
			int own, int *retag, int *grow)
{
	enum kin kin;
	size_t n;
	int tagged, ret;

	*retag = 0;
	*grow = 0;
	if (s->total != sj->total) {
		if (sj->kind != SUBJ_PATCH || sj->part <= s->total || sj->total < sj->part)
			return 0;
		*grow = 1;
	}
	if (s->version == sj->version && s->version_minor == sj->version_minor)
		return 1;
	ret = kin_of(st, s, m, ref, own, &kin);
	if (ret < 0)
		return ret;
	if (!sj->has_version) {
		if (kin == KIN_CHILD || kin == KIN_SIBLING)
			return 1;
		/* a cover letter that forgot its "vN", sent with its parts */
		if (kin != KIN_PARENT || sj->kind != SUBJ_COVER)
			return 0;
		return store_series_dated_near(st, s->id, m->date, SERIES_UNTHREADED_DATE_WINDOW);
	}
	if (s->version != 1 || s->version_minor)
		return 0;
	ret = series_parts(st, s, 0, &n, NULL, &tagged);
	if (ret < 0)
		return ret;
	if (tagged)
		return 0;
	if (kin == KIN_CHILD) {
		/* the same cover letter, its parts coming after it */
		if (n || !s->cover_msg)
			return 0;
		ret = store_series_dated_near(st, s->id, m->date, SERIES_UNTHREADED_DATE_WINDOW);
		if (ret <= 0)
			return ret;
	} else if (kin != KIN_PARENT && kin != KIN_SIBLING) {
		return 0;
	}
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
	int ret, retag, grow, ends = 0, same;
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
		same = same_version(st, &s, sj, m, ref, own, &retag, &grow);
		if (same < 0) {
			store_series_release(&s);
			return same;
		}
		if (same) {
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
		} else if (!pl->next && !s.prev_id && newer(sj->version, sj->version_minor, &s)) {
			pl->next = s.id;
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
			/* only an earlier (or later) version is looked for now */
			struct place seen = { 0, 0, 0, 0, 0, 0 };

			if (pl->prev && pl->next)
				break;
			ret = try_ref(st, list, m, sj, refs[i], 0, &seen);
			if (ret < 0)
				return ret;
			if (!pl->prev)
				pl->prev = seen.prev;
			if (!pl->next)
				pl->next = seen.next;
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

/*
 * The series a mail joins without its references (series_place): of its
 * version, else, as through a reference (same_version), one of any
 * version for a mail without "vN", and a series of unversioned mails for
 * one with it (*retag).  STORE_OK with *s, or STORE_DONE.
 */
static int unthreaded(struct store *st, const char *list, const struct mime_mail *m,
		      const struct subject *sj, int64_t now, int threaded,
		      struct store_series *s, int *retag)
{
	const char *prefix = sj->prefix[0] ? sj->prefix : NULL;
	int part = sj->kind == SUBJ_COVER ? 0 : sj->part, ret, tagged;
	size_t n;

	*retag = 0;
	ret = store_series_find_unthreaded(st, list, m->from.addr, prefix, sj->version,
					   sj->version_minor, sj->total, part,
					   now - SERIES_UNTHREADED_WINDOW, m->date,
					   SERIES_UNTHREADED_DATE_WINDOW, threaded, s);
	if (ret != STORE_DONE)
		return ret;
	if (!sj->has_version)
		return store_series_find_unthreaded(st, list, m->from.addr, prefix, -1, 0,
						    sj->total, part,
						    now - SERIES_UNTHREADED_WINDOW, m->date,
						    SERIES_UNTHREADED_DATE_WINDOW, threaded, s);
	ret = store_series_find_unthreaded(st, list, m->from.addr, prefix, 1, 0,
					   sj->total, part, now - SERIES_UNTHREADED_WINDOW,
					   m->date, SERIES_UNTHREADED_DATE_WINDOW, threaded, s);
	if (ret != STORE_OK)
		return ret;
	ret = series_parts(st, s, 0, &n, NULL, &tagged);
	if (ret == STORE_OK && !tagged) {
		*retag = 1;
		return STORE_OK;
	}
	store_series_release(s);
	return ret < 0 ? ret : STORE_DONE;
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
	repl = replaced_series(st, m, sj, list);
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
	 * sent within SERIES_UNTHREADED_DATE_WINDOW of one of its mails.  A
	 * threaded mail whose references find nothing joins such a series
	 * of unthreaded mails the same way, so that the order does not
	 * matter: a cover letter whose Message-ID the sender's provider
	 * rewrote (its parts name the one git send-email gave it) is one
	 * series with them whether it comes first or last.
	 */
	if (!repl && !found && !lone && sj->total > 1) {
		ret = unthreaded(st, list, m, sj, now, threaded, &s, &pl.retag);
		if (ret < 0)
			return ret;
		found = ret == STORE_OK;
		/* not a version its references reached ("[PATCH v2 2/2]" in
		 * reply to an unthreaded "[PATCH 1/2]" is its v2) */
		if (found && (s.id == pl.prev || s.id == pl.next)) {
			store_series_release(&s);
			found = 0;
			pl.retag = 0;
		}
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
	/* b4 puts the change-id of a series without a cover letter in its
	 * first patch, under the "---" */
	if (sj->kind == SUBJ_PATCH && sj->part == 1 && !s.cover_msg && !s.change_id &&
	    !series_change_id(notes_of(m->body), change_id, sizeof(change_id))) {
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
	/* a later version came first (it replied to this mail): this is
	 * its previous version, as when the mails come in order */
	if (ret == STORE_OK && pl.next && pl.next != s.id)
		ret = link_next(st, pl.next, s.id);
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

/*
 * The version a cover letter (or a patch's notes) says it follows:
 * "Changes since v2", "Changes from v2", "since v2", "v2 -> v3",
 * "Changes in v3" (the one before it); 0 when it says none.
 */
int series_changes_since(const char *body, int version)
{
	static const char *const words[] = { "since v", "from v" };
	const char *p;
	size_t w;
	long v;
	char *end;

	for (p = body; p && *p; p++) {
		if (*p != 'v' && *p != 'V' && *p != 's' && *p != 'S' && *p != 'f' &&
		    *p != 'F' && *p != 'i' && *p != 'I')
			continue;
		for (w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
			size_t k = strlen(words[w]);

			if (strncasecmp(p, words[w], k) || !isdigit((unsigned char)p[k]))
				continue;
			v = strtol(p + k, &end, 10);
			if (v >= 1 && v < version)
				return (int)v;
		}
		/* "v2 -> v3", "v2->v3": the first is the one before */
		if ((*p == 'v' || *p == 'V') && (p == body || !isalnum((unsigned char)p[-1])) &&
		    isdigit((unsigned char)p[1])) {
			v = strtol(p + 1, &end, 10);
			while (*end == ' ')
				end++;
			if (!strncmp(end, "->", 2) && v >= 1 && v < version)
				return (int)v;
		}
		/* "Changes in v3": the one before */
		if (!strncasecmp(p, "in v", 4) && isdigit((unsigned char)p[4]) &&
		    p >= body + 8 && !strncasecmp(p - 8, "changes ", 8)) {
			v = strtol(p + 4, &end, 10);
			if (v == version && v > 1)
				return (int)v - 1;
		}
	}
	return 0;
}

/* The paths a patch's diff changes ("diff --git a/X b/Y": Y, and X
 * when it differs, a rename), added to f (at most SERIES_MAX_FILES). */
struct files {
	char *v[SERIES_MAX_FILES];
	size_t n;
};

static void files_add(struct files *f, const char *p, size_t len)
{
	size_t i;

	if (!len || len > SERIES_MAX_PATH || f->n >= SERIES_MAX_FILES)
		return;
	for (i = 0; i < f->n; i++)
		if (strlen(f->v[i]) == len && !memcmp(f->v[i], p, len))
			return;
	f->v[f->n] = strndup(p, len);
	if (f->v[f->n])
		f->n++;
}

static void files_release(struct files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i]);
	f->n = 0;
}

static void diff_files(const char *body, struct files *f)
{
	const char *p, *e, *b;

	for (p = body; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (strncmp(p, "diff --git a/", 13))
			continue;
		p += 13;
		/* "a/X b/Y": X and Y may hold spaces; " b/" splits them */
		b = strstr(p, " b/");
		if (!b || (e && b > e))
			continue;
		files_add(f, p, (size_t)(b - p));
		b += 3;
		files_add(f, b, e ? (size_t)(e - b) : strlen(b));
	}
}

/* The files a series' patches change (read from their mails again). */
static int series_files(struct store *st, int64_t series_id, struct files *f)
{
	const struct mime_limits lim = { MIME_MAX_MAIL, MIME_CEIL_PARTS, MIME_CEIL_REFS };
	struct store_patch *p = NULL;
	struct mime_mail m;
	size_t n = 0, i;
	void *raw;
	size_t len;
	int ret;

	ret = store_patch_list(st, series_id, &p, &n);
	if (ret != STORE_OK)
		return ret < 0 ? ret : STORE_OK;
	for (i = 0; i < n; i++) {
		if (i < SERIES_MAX_PATCHES_READ && p[i].msg_id &&
		    store_msg_raw(st, p[i].msg_id, &raw, &len) == STORE_OK) {
			if (mime_parse_limits(raw, len, &lim, &m) == MIME_OK) {
				diff_files(m.body, f);
				mime_release(&m);
			}
			free(raw);
		}
		store_patch_release(&p[i]);
	}
	free(p);
	return STORE_OK;
}

/* How much of two file sets is shared: |a & b| / |a | b|, in percent. */
static int files_overlap(const struct files *a, const struct files *b)
{
	size_t i, j, common = 0;

	if (!a->n || !b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++)
			if (!strcmp(a->v[i], b->v[j])) {
				common++;
				break;
			}
	return (int)(100 * common / (a->n + b->n - common));
}

/*
 * The newest earlier version by the same author on the same list that
 * changes the same files (SERIES_FILES_OVERLAP percent of them shared),
 * of version want when the cover letter names it: a v2 whose subject
 * changed.  *best 0 when none.
 */
static int prev_by_files(struct store *st, const struct store_series *s, int want,
			 int64_t *best)
{
	int64_t ids[SERIES_MAX_CANDIDATES];
	struct files mine, theirs;
	struct store_series cand;
	size_t n = 0, i;
	int ret;

	*best = 0;
	memset(&mine, 0, sizeof(mine));
	ret = store_series_prev_candidates(st, s->list, s->author_addr, s->version,
					   s->version_minor, s->id, ids,
					   SERIES_MAX_CANDIDATES, &n);
	if (ret < 0 || !n)
		return ret < 0 ? ret : STORE_OK;
	ret = series_files(st, s->id, &mine);
	for (i = 0; ret >= 0 && i < n && !*best && mine.n; i++) {
		if (want) {
			ret = store_series_get(st, ids[i], &cand);
			if (ret < 0)
				break;
			if (ret == STORE_OK) {
				int v = cand.version;

				store_series_release(&cand);
				if (v != want)
					continue;
			}
		}
		memset(&theirs, 0, sizeof(theirs));
		ret = series_files(st, ids[i], &theirs);
		if (ret >= 0 && files_overlap(&mine, &theirs) >= SERIES_FILES_OVERLAP)
			*best = ids[i];
		files_release(&theirs);
	}
	files_release(&mine);
	return ret < 0 ? ret : STORE_OK;
}

int series_link_prev(struct store *st, struct store_series *s, const char *body)
{
	struct store_series cand;
	struct store_msg m;
	char ids[SERIES_MAX_LINKS][256], *notes = NULL;
	const char *cover_body = body, *d;
	size_t n, i;
	int64_t best = 0;
	int best_v = 0, best_minor = 0, ret, want = 0;

	if (s->prev_id)
		return STORE_OK;
	/* a first patch (no cover letter): its notes, between "---" and
	 * the diff, not its commit message (whose Link: tags name reports
	 * and discussions) */
	if (body && !s->cover_msg) {
		cover_body = notes_of(body);
		d = strstr(cover_body, "\ndiff --git ");
		notes = strndup(cover_body, d ? (size_t)(d - cover_body) : strlen(cover_body));
		cover_body = notes;
	}
	/* b4's change-id: the same author's on this list (anyone may copy
	 * a change-id, and no sender is verified yet) */
	if (s->change_id) {
		ret = store_series_find_prev_by_change_id(st, s->change_id, s->list,
							  s->author_addr, s->version,
							  s->version_minor, s->id, &cand);
		if (ret < 0)
			goto fail;
		if (ret == STORE_OK) {
			best = cand.id;
			store_series_release(&cand);
		}
	}
	/* links to earlier versions: to the same author's series only */
	if (!best && cover_body) {
		n = cover_links(cover_body, ids, SERIES_MAX_LINKS);
		for (i = 0; i < n; i++) {
			if (store_msg_find(st, ids[i], &m) != STORE_OK)
				continue;
			if (m.series_id && m.series_id != s->id &&
			    store_series_get(st, m.series_id, &cand) == STORE_OK) {
				/* the newest of the earlier versions linked */
				if (same_owner(&cand, s->list, s->author_addr) &&
				    older(s->version, s->version_minor, &cand) &&
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
	/* the same author changing the same files ("Changes since vN"
	 * naming which version), then the same subject */
	if (!best && s->version > 1) {
		if (cover_body)
			want = series_changes_since(cover_body, s->version);
		ret = prev_by_files(st, s, want, &best);
		if (ret < 0)
			goto fail;
	}
	if (!best && s->subject && s->version > 1) {
		ret = store_series_find_prev_by_subject(st, s->list, s->author_addr,
							s->subject, s->version,
							s->version_minor, s->id, &cand);
		if (ret < 0)
			goto fail;
		if (ret == STORE_OK) {
			best = cand.id;
			store_series_release(&cand);
		}
	}
	free(notes);
	if (!best)
		return STORE_OK;
	s->prev_id = best;
	return store_series_update(st, s);
fail:
	free(notes);
	return ret;
}

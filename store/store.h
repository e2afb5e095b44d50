/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * store: reviewbot's memory, in one SQLite database.  This is the only
 * code that writes SQL; every statement is prepared once (with bound
 * parameters, never text pasted into SQL) and kept for the life of the
 * handle.  No printing, no exit: functions return enum store_result and
 * store_errmsg() says what went wrong.
 *
 * The database is opened in WAL mode with foreign keys on and a busy
 * timeout, and its schema is versioned with PRAGMA user_version: opening
 * an older database runs the missing migrations in one transaction each;
 * a newer one than this program knows is refused (STORE_ERR_VERSION).
 *
 * Ordering promises the bot builds on (DESIGN.md): a message is stored
 * before it is processed (store_msg_add, state MSG_NEW), and a reply is
 * stored (pending) before it is delivered and marked sent only after
 * the server accepted it, so a crash loses nothing and repeats nothing.
 *
 * Strings: every const char * passed in is copied by SQLite; every
 * char * in a struct filled by the store is malloc'd and owned by that
 * struct until its _release() function.  NULL means SQL NULL.
 * Times are Unix seconds.  Ids are SQLite rowids (> 0); 0 means none.
 * A creation time (received, created, when) of 0 is stored as now.
 * Updates (set_state, set_series, update, mark_*, defer, set_checked,
 * optout_remove) return STORE_DONE when no row matched.
 */
#ifndef RB_STORE_H
#define RB_STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_SCHEMA_VERSION	14	/* the version this code writes */
#define STORE_BUSY_TIMEOUT_MS	5000
#define STORE_MAX_RAW		(64u << 20)	/* bytes of one stored message */

enum store_result {
	STORE_OK = 0,
	STORE_DONE = 1,		/* a lookup found nothing / iteration ended */
	STORE_DUP = 2,		/* the unique key exists already (id set) */
	STORE_ERR = -1,		/* SQLite error: store_errmsg() */
	STORE_ERR_BUSY = -2,	/* locked by another process past the timeout */
	STORE_ERR_FULL = -3,	/* disk full */
	STORE_ERR_VERSION = -4,	/* schema newer than this program */
	STORE_ERR_NOMEM = -5,
	STORE_ERR_RANGE = -6,	/* an argument out of range (e.g. raw too big) */
};

struct store;

/*
 * Opens (creating when missing, mode 0600) the database at path and
 * brings its schema to STORE_SCHEMA_VERSION.  On failure *out is NULL
 * and err (when not NULL) holds a lowercase reason without full stop.
 */
int store_open(const char *path, struct store **out, char *err, size_t errlen);
/* store_open() of a database that must exist already (readers such as
 * reviewbot query): STORE_DONE with err "PATH: no such database" when
 * there is no file, which is not created. */
int store_open_existing(const char *path, struct store **out, char *err,
			size_t errlen);
/*
 * For tests and tooling: like store_open() but migrates an older
 * database only up to version (1..STORE_SCHEMA_VERSION, else
 * STORE_ERR_RANGE); one already past it is opened as it is.  Functions
 * that need tables of a later version fail with STORE_ERR.
 */
int store_open_at_version(const char *path, int version, struct store **out,
			  char *err, size_t errlen);
void store_close(struct store *st);
/*
 * For a bulk import (a transaction a batch, a savepoint a message): keeps
 * SQLite's temporary data in memory.  A savepoint's journal of the pages
 * it changed would go to a temporary file, as much as the commits of one
 * transaction a message wrote to the log (380 MB for the benchmark's
 * 5,070 mails); it is dropped at each savepoint's end.  And commits
 * without waiting for the disk (synchronous=NORMAL): an import sends
 * nothing, so a power loss can only lose its last batches, stored again
 * by importing again, never a reply marked sent (configure()).  Only for
 * a connection that sends no mail.
 */
int store_set_bulk(struct store *st);
/* SQLite's synchronous level: 2 (FULL) as opened, 1 (NORMAL) in bulk. */
int store_synchronous(struct store *st);
/* Replaces STORE_BUSY_TIMEOUT_MS for this handle (tests: a short wait). */
void store_set_busy_timeout(struct store *st, int ms);
/* The last error's text ("" when none); owned by the handle. */
const char *store_errmsg(const struct store *st);
const char *store_strerror(int result);
int store_schema_version(struct store *st);

/* One write transaction (BEGIN IMMEDIATE); nestable calls are an error. */
int store_begin(struct store *st);
int store_commit(struct store *st);
int store_rollback(struct store *st);
/*
 * Inside a transaction, one savepoint at a time: a part of the work that
 * can be undone alone.  store_savepoint_end keeps it (ok >= 0) or undoes
 * it (ok < 0, what it did is gone, the transaction goes on) and closes it.
 */
int store_savepoint(struct store *st);
int store_savepoint_end(struct store *st, int ok);

/* ---- messages -------------------------------------------------------- */

enum store_msg_state {
	MSG_NEW = 0,		/* stored, not processed yet */
	MSG_PATCH,		/* a patch of a series */
	MSG_COVER,		/* a series' cover letter (0/N) */
	MSG_REPLY,		/* discussion, not a patch */
	MSG_COMMAND,		/* a command to the bot (opt-out, ...) */
	MSG_SKIPPED,		/* not reviewed on purpose: reason says why */
	MSG_BAD,		/* could not be parsed: reason says why */
	MSG__COUNT
};

struct store_msg {
	int64_t id;
	char *message_id;	/* without <>; unique */
	char *source;		/* the source name from the config */
	char *list;		/* the list's posting address, or NULL */
	char *from_addr;	/* lowercase address */
	char *from_name;	/* UTF-8 display name, or NULL */
	char *subject;		/* UTF-8, unfolded */
	int64_t date;		/* the Date: header, 0 when missing/bad */
	int64_t received;	/* when the bot stored it */
	char *in_reply_to;	/* Message-ID without <>, or NULL */
	char *refs;		/* References: Message-IDs without <>, space-separated */
	enum store_msg_state state;
	char *reason;		/* for MSG_SKIPPED / MSG_BAD, else NULL */
	int64_t series_id;	/* for MSG_PATCH / MSG_COVER, else 0 */
	/* schema 5, read only (store_msg_claim): while the message is new,
	 * the processing attempts charged that did not end, and the process
	 * that holds it (a name from bot/claim.h, NULL when none) since when */
	int attempts;
	char *claim;
	int64_t claimed_at;
	/* schema 11: the copy of the Message-ID this row holds (see
	 * store_msg_replace) */
	char *hash;		/* bot/mail/digest.h of its raw mail; NULL: stored
				 * before schema 11 (worked out when needed) */
	int via;		/* enum store_msg_via: how the best way it came */
	char *via_lists;	/* the lists it came through, lowercase, ','-
				 * separated, "" for none; NULL: stored before
				 * schema 11 (not known) */
};

/*
 * How a copy of a mail reached the bot (schema 11), worst first.  A
 * Message-ID is a claim anyone can make first; the list's own copy is
 * the one a review answers and a page shows.
 */
enum store_msg_via {
	VIA_DIRECT = 0,		/* to the bot, or into a mailbox without the
				 * List-Id of a list the bot reads */
	VIA_LIST_ID,		/* into a mailbox, with such a List-Id */
	VIA_ARCHIVE,		/* read from a list's archive (public-inbox,
				 * NNTP): only the list puts mail there */
};

void store_msg_release(struct store_msg *m);
const char *store_msg_state_name(enum store_msg_state s); /* "new", "patch", ... */

/*
 * Stores a message in state MSG_NEW with its raw bytes.  m->id, state,
 * reason, series_id, attempts and the claim are ignored.  Returns STORE_OK with *id set, or
 * STORE_DUP with *id of the message already stored under that
 * Message-ID (nothing written).
 */
int store_msg_add(struct store *st, const struct store_msg *m,
		  const void *raw, size_t rawlen, int64_t *id);
/* A state other than MSG_NEW also clears the attempts and the claim. */
int store_msg_set_state(struct store *st, int64_t id,
			enum store_msg_state state, const char *reason);
/*
 * An attempt at processing message id starts in the process named owner
 * (schema 5): attempts + 1, claim = owner, claimed_at = now, in one
 * statement, when the message is still new and its claim is still prev
 * (NULL: none).  STORE_OK, or STORE_DONE when it was processed or
 * claimed by another meanwhile.  The caller commits this before the
 * message's check starts, so a check that kills the process (a crash,
 * SIGKILL, the OOM killer) is counted at the next start.
 */
int store_msg_claim(struct store *st, int64_t id, const char *owner,
		    const char *prev, int64_t now);
/*
 * The attempts of owner's claims on messages still new are given back
 * (attempts - 1, claim cleared): they ended without a crash (a stop, a
 * database error).  *n (when not NULL) gets how many.
 */
int store_msg_unclaim(struct store *st, const char *owner, long long *n);
int store_msg_set_series(struct store *st, int64_t id, int64_t series_id);
/*
 * Schema 11: the copies of one Message-ID.  store_msg_add stores the
 * first (with its hash, via and via_lists) and says STORE_DUP for any
 * other; the caller compares the hashes and then:
 *
 * store_msg_merge_copy: the same mail came again (the same hash): the
 * row keeps its copy and gains the new one's way: via the better of the
 * two, via_lists both's; a better way (a higher via) also makes the new
 * one's source, list and List-Id (list_id, NULL: kept) the row's.  The
 * row's hash is set when it had none (hash).
 */
int store_msg_merge_copy(struct store *st, int64_t id, const struct store_msg *copy,
			 const char *list_id);
/*
 * store_msg_copy_add: a copy that differs, which does not replace the
 * row's: kept beside it with reason (table message_copies, never used
 * for a review or a page).  STORE_OK, or STORE_DUP when kept already.
 */
int store_msg_copy_add(struct store *st, int64_t id, const struct store_msg *copy,
		       const void *raw, size_t rawlen, const char *reason);
/*
 * store_msg_replace: a copy that differs and came a better way takes
 * the row's place.  The row's copy (old_hash: its hash) is kept beside
 * it with reason; the row becomes copy, new again as store_msg_add
 * leaves a message (recipients not recorded, no claim), under the same
 * id; and what the old copy made is undone: its patch and findings, its
 * place as a cover letter, its series' reference to its Message-ID.  A
 * series of it whose review is not sent yet is open again (the review
 * and its unsent mail dropped: nobody saw them); one left without any
 * mail is put aside (skipped, its references and queued stages gone),
 * so the new copy cannot join it.  One transaction with the caller's.
 */
int store_msg_replace(struct store *st, int64_t id, const char *old_hash,
		      const struct store_msg *copy, const void *raw, size_t rawlen,
		      const char *reason);
/* How many copies are kept beside message id. */
int store_msg_copy_count(struct store *st, int64_t id, long long *n);
/* Lookups: STORE_OK (m filled) or STORE_DONE (none). */
int store_msg_get(struct store *st, int64_t id, struct store_msg *m);
int store_msg_find(struct store *st, const char *message_id, struct store_msg *m);
/* The raw bytes (malloc'd, *raw owned by the caller). */
int store_msg_raw(struct store *st, int64_t id, void **raw, size_t *len);
/* Calls cb for every message in state MSG_NEW, oldest first; a non-zero
 * return from cb stops the walk and is returned.  cb may write to the
 * store (the walk reads the ids first). */
int store_msg_each_new(struct store *st,
		       int (*cb)(void *arg, int64_t id), void *arg);
/* Number of messages per state; counts[MSG__COUNT]. */
int store_msg_count(struct store *st, long long counts[MSG__COUNT]);

/* ---- series and patches ------------------------------------------------ */

enum store_series_state {
	SERIES_OPEN = 0,	/* parts may still come */
	SERIES_REVIEWED,	/* its review is composed and queued */
	SERIES_SKIPPED,		/* not reviewed on purpose (e.g. Reviewbot: skip) */
	SERIES__COUNT
};

struct store_series {
	int64_t id;
	char *list;
	char *author_addr;
	char *author_name;
	char *subject;		/* normalised: tags and "Re:" stripped */
	char *root;		/* Message-ID its parts thread under */
	char *prefix;		/* tags other than PATCH/vN/M/N, e.g. "RFC net-next" */
	char *change_id;	/* b4's change-id, or NULL */
	int version;		/* 1 for an untagged series */
	int version_minor;	/* 1 for "v5.1", 2 for "v5.2", else 0 */
	int total;		/* parts announced (N of M/N); 1 for a lone patch */
	int64_t cover_msg;	/* message id of the cover letter, 0 when none */
	int64_t prev_id;	/* the previous version's series, 0 when none */
	int64_t created;
	int64_t last_part_at;	/* when its latest part was stored */
	enum store_series_state state;
	int64_t reviewed_at;
};

void store_series_release(struct store_series *s);
/* Inserts s (id, state, reviewed_at ignored); *id set. */
int store_series_add(struct store *st, const struct store_series *s, int64_t *id);
int store_series_get(struct store *st, int64_t id, struct store_series *s);
/*
 * The open or reviewed series with this exact key (list may be NULL:
 * matches NULL), newest first: STORE_OK or STORE_DONE.
 */
int store_series_find(struct store *st, const char *list, const char *author_addr,
		      const char *root, int version, int version_minor, int total,
		      struct store_series *s);
/*
 * For parts sent without threading headers: the newest open series with
 * this key (any root; prefix NULL matches a series without one) whose
 * last part came at or after since, that lacks part (0: lacks a cover
 * letter) and, when date is not 0, holds a mail whose Date: is within
 * window seconds of date (or carries none); version -1 is any version;
 * with unthreaded_only, one
 * whose mails all lack threading headers too (for a threaded mail whose
 * references find nothing).  STORE_OK or STORE_DONE.
 */
int store_series_find_unthreaded(struct store *st, const char *list,
				 const char *author_addr, const char *prefix,
				 int version, int version_minor, int total, int part,
				 int64_t since, int64_t date, int64_t window,
				 int unthreaded_only, struct store_series *s);
/*
 * Schema 7: the Message-ID msgid names series_id: one of its own mails
 * (own), or a mail one of them names in In-Reply-To or References.
 * Recording it again keeps it (own once set stays set).
 */
int store_series_ref_add(struct store *st, int64_t series_id, const char *msgid,
			 int own);
/*
 * The series of this list and author that msgid names, at most max of
 * them into ids[] (*n set) with own[] (when not NULL) saying whether it
 * is one of that series' own mails: those first, then the newest
 * first.  STORE_OK (even when *n is 0).
 */
int store_series_by_ref(struct store *st, const char *list, const char *author_addr,
			const char *msgid, int64_t *ids, int *own, size_t max,
			size_t *n);
/* 1 when the series holds a patch numbered part, 0 when not, or a
 * negative store error. */
int store_series_has_part(struct store *st, int64_t series_id, int part);
/* The newest series before this one (lower version, or same version and
 * lower minor) with the same change_id, of this list and author (a
 * change-id is text anyone can copy); STORE_DONE if none. */
int store_series_find_prev_by_change_id(struct store *st, const char *change_id,
					const char *list, const char *author_addr,
					int version, int version_minor, int64_t not_id,
					struct store_series *s);
/*
 * Series of this list and author before version.minor (not not_id)
 * that no other series of that version follows yet: at most max ids
 * into ids[] (*n set), the highest version first, then the newest.
 */
int store_series_prev_candidates(struct store *st, const char *list,
				 const char *author_addr, int version, int version_minor,
				 int64_t not_id, int64_t *ids, size_t max, size_t *n);
/* 1 when a mail of the series replies to (In-Reply-To) msgid, 0 when
 * none does, or a negative store error. */
int store_series_has_reply_to(struct store *st, int64_t series_id, const char *msgid);
/* 1 when a mail of the series is dated within window seconds of date (or
 * carries no date, or date is 0), 0 when none is, or a negative store
 * error. */
int store_series_dated_near(struct store *st, int64_t series_id, int64_t date,
			    int64_t window);
/* Same, by list + author + normalised subject. */
int store_series_find_prev_by_subject(struct store *st, const char *list,
				      const char *author_addr, const char *subject,
				      int version, int version_minor, int64_t not_id,
				      struct store_series *s);
/* Updates the mutable fields: author_name, subject, prefix, change_id,
 * cover_msg, prev_id, version, version_minor, total, last_part_at. */
int store_series_update(struct store *st, const struct store_series *s);
int store_series_set_state(struct store *st, int64_t id,
			   enum store_series_state state, int64_t when);
/* Calls cb with the id of every SERIES_OPEN series, oldest first; cb
 * may write. */
int store_series_each_open(struct store *st,
			   int (*cb)(void *arg, int64_t id), void *arg);
/* Open series (for status). */
int store_series_count_open(struct store *st, long long *n);

struct store_patch {
	int64_t id;
	int64_t series_id;
	int64_t msg_id;		/* the message it came in */
	int part;		/* M of M/N (1 for a lone patch) */
	char *subject;		/* full subject as sent */
	int checked;		/* findings stored */
	long errors, warnings, checks;
};

void store_patch_release(struct store_patch *p);
/* Adds a patch; a second patch with the same (series_id, part) replaces
 * nothing and returns STORE_DUP with *id of the first. */
int store_patch_add(struct store *st, const struct store_patch *p, int64_t *id);
int store_patch_set_checked(struct store *st, int64_t id, long errors,
			    long warnings, long checks);
/* Takes a patch (and its findings) out of its series again: its check
 * did not finish, so the series is reviewed without it.  STORE_DONE
 * when there is no such patch. */
int store_patch_remove(struct store *st, int64_t id);
/* The patches of a series by part; *out malloc'd array (release each and
 * free the array). */
int store_patch_list(struct store *st, int64_t series_id,
		     struct store_patch **out, size_t *n);

/* ---- findings ------------------------------------------------------------ */

struct store_finding {
	int64_t id;
	int64_t patch_id;
	int64_t series_id;
	int part;		/* the patch's M (copied for queries) */
	char *type;		/* checkpatch type, e.g. "LONG_LINE" */
	char *severity;		/* "ERROR", "WARNING", "CHECK" */
	char *category;		/* "security", "uapi", "correctness", "process", "style" */
	char *file;		/* NULL for the commit message */
	long line;		/* in the new file, 0 when none */
	char *message;
	char *line_text;	/* the offending line as added (no leading '+'), or NULL */
	char *fingerprint;	/* stable across versions: compose_fingerprint() */
};

void store_finding_release(struct store_finding *f);
/* series_id and part are taken from the patch f->patch_id (the struct's
 * are ignored); STORE_ERR_RANGE when there is no such patch. */
int store_finding_add(struct store *st, const struct store_finding *f, int64_t *id);
/* All findings of a series, by part then file then line. */
int store_finding_list(struct store *st, int64_t series_id,
		       struct store_finding **out, size_t *n);

/* Query for maintainers (reviewbot query); every field optional (NULL/0). */
struct store_query {
	const char *author;	/* substring of address or name, case-insensitive */
	const char *file_glob;	/* GLOB on the file path (SQLite GLOB) */
	const char *list;
	const char *category;	/* a name, or several separated by ',' */
	const char *type;	/* the same, case as stored (upper) */
	const char *series_msgid; /* a series by any of its messages' Message-ID */
	int64_t since, until;	/* message date range, inclusive; 0: open */
	size_t limit;		/* 0: no limit */
	/* reviewbot serve, the JSON API and the query by mail
	 * (store_web.h) */
	const char *publish;	/* NULL: everything (the operator's own
				 * query); else the public lists and sources
				 * as JSON, and only what may be published
				 * matches (store_web.h) */
	size_t offset;		/* rows skipped first (pages) */
	int64_t series_id;	/* one series version; 0: any */
	int64_t patch_id;	/* one patch; 0: any */
	int newest_first;	/* rows newest mail first (else oldest) */
	/*
	 * Keyset paging (reviewbot serve): only the rows after this one in
	 * the order above, whatever offset says: a finding's id for
	 * store_query_findings, a patch's for store_query_patches, a
	 * series' for store_web_series; rows without their mail are not
	 * reached this way.  A page deep in the history costs what the
	 * first does (an offset reads every row it skips).  0: from the
	 * start; an id that is not there: no row.
	 */
	int64_t after;
};

/* One row of a query: a finding with its patch, series and message. */
struct store_query_row {
	struct store_finding f;
	char *message_id;	/* of the patch mail */
	char *subject;		/* of the patch mail */
	char *author_addr;
	char *author_name;
	char *list;
	int64_t date;
	int version;
	int version_minor;	/* 1 for "v5.1", 2 for "v5.2", else 0 */
	int total;
};

/* Calls cb for each finding matching q, oldest message first; the row is
 * valid during the call only. */
int store_query_findings(struct store *st, const struct store_query *q,
			 int (*cb)(void *arg, const struct store_query_row *r),
			 void *arg);

/* One row of query --patches: a patch with its counts. */
struct store_patch_row {
	struct store_patch p;
	char *message_id;
	char *author_addr;
	char *author_name;
	char *list;
	int64_t date;
	int version;
	int version_minor;	/* 1 for "v5.1", 2 for "v5.2", else 0 */
	int total;
	long findings;		/* findings matching the query's category/type */
};

/* Patches matching q.  When file_glob, category or type is set, only
 * patches with a finding matching all of them are listed, and findings
 * counts those; otherwise every patch, with all its findings counted. */
int store_query_patches(struct store *st, const struct store_query *q,
			int (*cb)(void *arg, const struct store_patch_row *r),
			void *arg);

/* ---- reviews and replies ------------------------------------------------- */

enum store_reply_state {
	REPLY_PENDING = 0,	/* stored, to be delivered */
	REPLY_SENT,		/* accepted by the server / written to the outbox */
	REPLY_FAILED,		/* refused for good: reason */
	REPLY_SUPPRESSED,	/* not sent on purpose (opt-out, dry run, rate): reason */
	REPLY__COUNT
};

struct store_reply {
	int64_t id;
	char *message_id;	/* of the reply mail (unique: a resend is recognisable) */
	int64_t series_id;	/* 0 for mail not about a series (confirmations) */
	char *kind;		/* "review", "confirm", ... */
	char *mail_from;	/* envelope sender */
	char *rcpt;		/* envelope recipients, comma-separated */
	char *body;		/* the whole mail, headers included, LF line ends */
	char *to_addr;		/* the person it goes to (the author, the sender
				 * of a command), lowercase, for the per-author
				 * cap; NULL when none */
	char *list;		/* the list it is Cc'd to, for the per-list cap;
				 * NULL when it does not go to a list */
	enum store_reply_state state;
	char *reason;
	int attempts;
	int64_t created;
	int64_t next_attempt;	/* not before this time */
	int64_t sent_at;
	/* schema 5, read only (store_reply_claim): the process delivering
	 * it (a name from bot/claim.h), NULL when none, and since when */
	char *claim;
	int64_t claimed_at;
};

void store_reply_release(struct store_reply *r);
const char *store_reply_state_name(enum store_reply_state s);
/* Queues a reply (state, attempts, sent_at and the claim ignored:
 * pending, 0, none). 
 * STORE_DUP (with *id) when a reply with this Message-ID exists. */
int store_reply_add(struct store *st, const struct store_reply *r, int64_t *id);
int store_reply_get(struct store *st, int64_t id, struct store_reply *r);
/* Pending replies due at now, oldest first, but every kind before
 * "confirm": a flood of confirmations never holds up a review; cb may
 * write. */
int store_reply_each_due(struct store *st, int64_t now,
			 int (*cb)(void *arg, int64_t id), void *arg);
/*
 * Claims pending reply id for the process named owner before it is
 * handed to delivery (schema 5), when its claim is still prev (NULL:
 * none), in one statement: outside a transaction it is committed (and
 * on disk) before the mail leaves.  STORE_OK when owner holds it now,
 * STORE_DONE when it was sent, failed, suppressed or claimed by another
 * meanwhile.  Marking it (sent, failed, suppressed) or deferring it
 * clears the claim.
 */
int store_reply_claim(struct store *st, int64_t id, const char *owner,
		      const char *prev, int64_t now);
/* Only a pending reply changes state (else STORE_DONE); sent and failed
 * count an attempt, suppressed does not; sent keeps the reason. */
int store_reply_mark_sent(struct store *st, int64_t id, int64_t when);
int store_reply_mark_failed(struct store *st, int64_t id, const char *reason);
int store_reply_mark_suppressed(struct store *st, int64_t id, const char *reason);
/* A temporary failure: attempts + 1, reason kept, retried at next_attempt. */
int store_reply_defer(struct store *st, int64_t id, const char *reason,
		      int64_t next_attempt);
int store_reply_count(struct store *st, long long counts[REPLY__COUNT]);
/* Replies sent at or after since (for the hourly cap). */
int store_reply_count_since(struct store *st, int64_t since, long long *n);
/* Replies sent at or after since whose kind is kind (same != 0) or is
 * not (same == 0): the hourly budgets of reviews and confirmations. */
int store_reply_count_sent_kind(struct store *st, int64_t since, const char *kind,
				int same, long long *n);
/* Replies sent at or after since to to_addr (when not NULL) and to list
 * (when not NULL): the per-author and per-list caps. */
int store_reply_count_sent(struct store *st, int64_t since, const char *to_addr,
			   const char *list, long long *n);
/* Replies of this kind to to_addr (NULL: to anyone) created at or after
 * since that were not suppressed (the confirmations caps). */
int store_reply_count_kind(struct store *st, const char *kind, const char *to_addr,
			   int64_t since, long long *n);
/* STORE_OK with *id when a reply of the bot has this Message-ID (a mail
 * answering it is meant for the bot), else STORE_DONE. */
int store_reply_find(struct store *st, const char *message_id, int64_t *id);
/*
 * What a cap looks at: the replies sent at or after since to to_addr
 * (NULL: to anyone) and to list (NULL: any), of kind "confirm" (confirm
 * 1), "request" (2: a request for a command's token, issue 33), of
 * every other kind (0) or of any kind (-1).  *n gets how many,
 * *oldest (when not NULL) the first one's sent_at, 0 when none: the cap
 * frees one place an hour after it.
 */
int store_reply_sent_window(struct store *st, int64_t since, const char *to_addr,
			    const char *list, int confirm, long long *n, int64_t *oldest);
/*
 * A pending reply waits for a cap to free a place: next_attempt = until
 * and reason = why, no attempt counted (store_reply_defer counts one),
 * the claim untouched.  STORE_DONE when it is not pending.
 */
int store_reply_hold(struct store *st, int64_t id, const char *why, int64_t until);
/* New envelope recipients, list and mail of a pending reply (an author
 * who opted out to private reviews since it was queued); STORE_DONE when
 * it is not pending. */
int store_reply_set_rcpt(struct store *st, int64_t id, const char *rcpt,
			 const char *list, const char *body);
/* Pending replies not due at now whose reason starts with prefix (those
 * held by a cap): *n, and the earliest next_attempt in *first (0: none). */
int store_reply_count_waiting(struct store *st, int64_t now, const char *prefix,
			      long long *n, int64_t *first);
/* Replies in state whose reason is reason (the replies not sent for
 * their mail's age). */
int store_reply_count_reason(struct store *st, enum store_reply_state state,
			     const char *reason, long long *n);

/* The review of a series: which reply carries it, and its counts. */
struct store_review {
	int64_t id;
	int64_t series_id;
	int64_t reply_id;	/* 0 when no mail was made (e.g. clean, review_clean off) */
	int64_t created;
	long findings;		/* shown in sections */
	long nits;		/* folded into the style count */
	long fixed, added, still; /* against the previous version */
};

/* One review per series: STORE_DUP (with *id) for a second. */
int store_review_add(struct store *st, const struct store_review *r, int64_t *id);
int store_review_get_by_series(struct store *st, int64_t series_id,
			       struct store_review *r);

/* ---- opt-outs and checkpoints -------------------------------------------- */

enum store_optout_mode {
	OPTOUT_SILENT = 0,	/* no reviews at all */
	OPTOUT_PRIVATE,		/* reviews to the author only */
};

/* Sets (insert or replace) the opt-out of addr (lowercased by the caller). */
int store_optout_set(struct store *st, const char *addr,
		     enum store_optout_mode mode, int64_t when);
/* STORE_OK with *mode, or STORE_DONE when addr has not opted out. */
int store_optout_get(struct store *st, const char *addr,
		     enum store_optout_mode *mode);
int store_optout_remove(struct store *st, const char *addr);
int store_optout_count(struct store *st, long long *n);

/* ---- mutes, opt-in tokens, forgetting (schema 3) ---------------------- */

/* Nothing more in the thread whose root Message-ID is root (without <>);
 * who asked (lowercase address) is kept for the record.  A second mute
 * of the same root keeps the first. */
int store_mute_add(struct store *st, const char *root, const char *addr,
		   int64_t when);
/* STORE_OK when root is muted, else STORE_DONE. */
int store_mute_get(struct store *st, const char *root);
int store_mute_count(struct store *st, long long *n);

#define STORE_TOKEN_MAX		64	/* bytes of an opt-in token */

/* Records a one-time opt-in token for addr (unique: STORE_DUP). */
int store_token_add(struct store *st, const char *addr, const char *token,
		    int64_t when);
/*
 * Uses the token: STORE_OK when an unused token equal to token, issued
 * to addr at or after not_before, exists (it is marked used at now);
 * STORE_DONE otherwise (unknown, used, expired, or another address's),
 * changing nothing.
 */
int store_token_use(struct store *st, const char *addr, const char *token,
		    int64_t not_before, int64_t now);

/* ---- who sent a command (schema 11, issue 33) ---------------------------- */

/*
 * A secret of the installation, name (e.g. "message-id"): STORE_OK with
 * its len bytes in buf, STORE_DONE when there is none (or it is not len
 * bytes long).  store_secret_add() keeps the first value stored under a
 * name (a second is ignored, STORE_OK), so that two processes making it
 * at once agree on the one read back.
 */
#define STORE_SECRET_MAX	64
int store_secret_get(struct store *st, const char *name, void *buf, size_t len);
int store_secret_add(struct store *st, const char *name, const void *buf, size_t len,
		     int64_t when);

/*
 * A command waiting for its sender's confirmation: a token mailed to
 * addr that carries out action (with arg) when addr sends it back.
 * action NULL: a token from before schema 11, or one mailed with a
 * carried-out opt-out, which opts back in.
 */
struct store_pending {
	int64_t id;
	char *addr, *action, *arg;	/* malloc'd; action, arg may be NULL */
	int64_t msg_id;			/* the command's mail, 0 when gone */
	int64_t created;
};
/* Records token for addr carrying action (arg, msg_id may be NULL/0):
 * STORE_OK, STORE_DUP when the token exists. */
int store_pending_add(struct store *st, const char *addr, const char *token,
		      const char *action, const char *arg, int64_t msg_id, int64_t when);
/*
 * Uses the token as store_token_use() does (unused, addr's, issued at or
 * after not_before; marked used at now) and gives what it carries in *p
 * (store_pending_release): STORE_OK, or STORE_DONE changing nothing.
 */
int store_pending_take(struct store *st, const char *addr, const char *token,
		       int64_t not_before, int64_t now, struct store_pending *p);
void store_pending_release(struct store_pending *p);
/* Unused tokens carrying an action, issued at or after since; to_addr
 * NULL: all addresses'. */
int store_pending_count(struct store *st, const char *to_addr, int64_t since,
			long long *n);

/* addr (lowercase) sent a token back at when. */
int store_confirmed_add(struct store *st, const char *addr, int64_t when);
/* STORE_OK when addr sent a token back, else STORE_DONE. */
int store_confirmed_get(struct store *st, const char *addr);

/* Command mails refused (state MSG_COMMAND, reason "... refused: ..."),
 * stored at or after since. */
int store_command_refused_count(struct store *st, int64_t since, long long *n);
/* Command mails carried out as reason (state MSG_COMMAND: "query", ...)
 * from addr (lowercase; NULL: anyone) stored at or after since. */
int store_command_count(struct store *st, const char *reason, const char *addr,
			int64_t since, long long *n);

/* What store_forget_address() deleted. */
struct store_forget {
	long long messages, series, patches, findings, reviews, replies;
	long long mutes, tokens;
};

/*
 * Deletes everything kept about addr (lowercase): the messages it sent
 * (raw mail too), its series with their patches, findings, reviews,
 * replies and stages (by ON DELETE CASCADE), the replies sent to it
 * (confirmations), its mutes and tokens and the findings it disputed
 * (schema 6), in one transaction (or the caller's).  Its opt-out stays.
 * Rows of other people that pointed at deleted ones (a later version's
 * prev_id, a cover letter) are unlinked.  *c (when not NULL) gets the
 * counts.
 */
int store_forget_address(struct store *st, const char *addr,
			 struct store_forget *c);

/* A source's position (IMAP UIDVALIDITY:UID, mbox offset, ...), opaque. */
int store_checkpoint_set(struct store *st, const char *source,
			 const char *value, int64_t when);
/* *value malloc'd; STORE_DONE when the source has none. */
int store_checkpoint_get(struct store *st, const char *source, char **value);
/* Calls cb for each checkpoint (for status). */
int store_checkpoint_each(struct store *st,
			  int (*cb)(void *arg, const char *source,
				    const char *value, int64_t updated),
			  void *arg);

/* ---- stages: the compile and load queue (schema 4) ----------------------- */

/*
 * A stage is one slow test of a series version ([build] compiles it,
 * [boot] loads its modules in QEMU).  It is queued once per (series,
 * kind) and runs one at a time; the row stays after it is done, as the
 * result's cache for that series version.  A series' stages are
 * deleted with it (store_forget_address).  Updates (start, finish,
 * set_followup) return STORE_DONE when no row matched.
 */
enum store_stage_kind {
	STAGE_COMPILE,		/* "compile" in SQL */
	STAGE_LOAD,		/* "load" in SQL */
};

struct store_stage {
	int64_t id, series_id;
	enum store_stage_kind kind;
	int done;		/* state 'done': the result is in */
	int verdict;		/* 0 none; else 1 + the checker's enum chk_ready */
	char *note;		/* the one-line summary, or NULL; owned */
	int64_t queued;		/* when it was queued */
	int64_t started;	/* the last attempt's start, 0 when none */
	int64_t finished;	/* 0 while queued */
	int attempts;
	double seconds;		/* wall time the stage took */
	int followup;		/* 0 none; 1 the review went out without this
				 * result (a follow-up is owed); 2 it was made */
	char *claim;		/* the runner working on it, or NULL; owned */
	int64_t claimed_at;	/* its claim's time, renewed while it works */
	char *details;		/* how to reproduce the result, or NULL; owned */
};

/* "compile", "load" ("unknown" for anything else). */
const char *store_stage_kind_name(enum store_stage_kind k);
void store_stage_release(struct store_stage *s);
/*
 * Queues the stage (kind) of series_id at now unless the row is there
 * already, queued or done: STORE_OK when queued now, STORE_DUP when
 * present (nothing written).  A bad kind is STORE_ERR_RANGE.
 */
int store_stage_enqueue(struct store *st, int64_t series_id,
			enum store_stage_kind kind, int64_t now);
/* The row of (series, kind): STORE_OK with *out filled (release it),
 * STORE_DONE when there is none. */
int store_stage_get(struct store *st, int64_t series_id,
		    enum store_stage_kind kind, struct store_stage *out);
/* The row by id: STORE_OK or STORE_DONE. */
int store_stage_get_id(struct store *st, int64_t id, struct store_stage *out);
/*
 * The next stage to run: the oldest queued one (by queued time, then
 * series id, compile before load of the same series, then id).
 * STORE_OK with *out, STORE_DONE when the queue is empty.  It stays
 * queued until store_stage_finish(): a stage cut short by a crash or a
 * restart is handed out again.
 */
int store_stage_next(struct store *st, struct store_stage *out);
/* An attempt of a queued stage starts: attempts + 1, started = now.
 * STORE_DONE when id is not a queued stage. */
int store_stage_start(struct store *st, int64_t id, int64_t now);
/*
 * The result of a queued stage: state done, verdict (>= 0), note
 * (copied, may be NULL), seconds, finished = now.  STORE_DONE when id
 * is not a queued stage: a result, once in, is not replaced.
 */
int store_stage_finish(struct store *st, int64_t id, int verdict,
		       const char *note, double seconds, int64_t now);
/* followup = value (0, 1 or 2, else STORE_ERR_RANGE), in any state. */
int store_stage_set_followup(struct store *st, int64_t id, int value);
/* How many stages are queued, and the queued time of the oldest (0 when
 * none); for reviewbot status. */
int store_stage_count_queued(struct store *st, long long *n, int64_t *oldest);
/*
 * Calls cb with the id of each done stage whose follow-up is owed
 * (followup 1), in the order the results came (finished, then id).
 * The ids are read first, so cb may write; a non-zero return from cb
 * stops the walk and is returned.
 */
int store_stage_each_followup(struct store *st,
			      int (*cb)(void *arg, int64_t id), void *arg);

/*
 * Runners (schema 11).  The queue is shared by whoever runs stages: the
 * daemon's worker processes ([build] workers), `run --once` itself, or
 * another program on the same database (a lab's runner for the load
 * stage).  A runner
 *   1. picks the next stage it may take: store_stage_next_free() with
 *      the kinds it runs (a bit mask of 1 << enum store_stage_kind) and
 *      its test of whether another runner's claim still holds (the bot
 *      uses claim_holds(), bot/claim.h);
 *   2. claims it with store_stage_claim(), which fails (STORE_DONE) when
 *      another runner was faster, so no stage runs twice at once; a
 *      claim counts as an attempt;
 *   3. renews the claim (store_stage_renew) at least every CLAIM_TTL
 *      seconds while it works, when its name is not one the bot can see
 *      alive (another host's);
 *   4. stores the result with store_stage_finish_claimed(), which
 *      refuses (STORE_DONE) when the stage is not its own any more, or
 *      gives the stage back with store_stage_unclaim() (a stop asked
 *      for: the attempt is not counted).
 * A runner that dies holds its stage only as long as its claim holds:
 * then the next runner takes it again.
 */
int store_stage_next_free(struct store *st, unsigned kinds,
			  int (*holds)(void *arg, const char *claim, int64_t claimed_at),
			  void *arg, struct store_stage *out);
/* The stage claimed by claim at now, when it is queued and its claim is
 * still old_claim (NULL: none): STORE_OK, else STORE_DONE.  attempts + 1,
 * started = claimed_at = now. */
int store_stage_claim(struct store *st, int64_t id, const char *claim,
		      const char *old_claim, int64_t now);
/* claimed_at = now while claim holds the queued stage id: STORE_OK or
 * STORE_DONE. */
int store_stage_renew(struct store *st, int64_t id, const char *claim, int64_t now);
/* The stage given back by claim, its attempt not counted: STORE_OK or
 * STORE_DONE. */
int store_stage_unclaim(struct store *st, int64_t id, const char *claim);
/* store_stage_finish() for the runner claim holding it, with details
 * (copied, may be NULL); the claim is cleared.  STORE_DONE when id is
 * not a queued stage claim holds. */
int store_stage_finish_claimed(struct store *st, int64_t id, const char *claim,
			       int verdict, const char *note, const char *details,
			       double seconds, int64_t now);

/* ---- false-positive feedback (schema 6) ---------------------------------- */

/*
 * The findings a review or follow-up covers: each one it lists, with the
 * number it shows it with ("#3", bot/mail/compose.h), and each one it counts
 * with the nits (num 0), so that an answer naming a type or a number
 * finds its findings.  The findings of one entry of the mail share its
 * number (schema 11).  A finding given twice for one reply is STORE_DUP
 * (nothing written).
 */
int store_reply_finding_add(struct store *st, int64_t reply_id, int64_t finding_id,
			    int num);

struct store_reply_finding {
	int64_t finding_id;
	int64_t series_id;
	int num;		/* shown as #num, 0 when counted with the nits */
	const char *type;	/* NULL when the finding has none */
	const char *list;	/* the series' list, NULL when none */
};

/*
 * Calls cb for each finding reply_id covers, numbered ones first by
 * number, then the others by id.  The row is valid during the call
 * only; cb must not write to the store; a non-zero return from cb stops
 * the walk and is returned.
 */
int store_reply_findings_each(struct store *st, int64_t reply_id,
			      int (*cb)(void *arg, const struct store_reply_finding *rf),
			      void *arg);

#define STORE_FEEDBACK_REASON_MAX	200	/* bytes of a reason kept */

/* Someone says a finding is a false positive. */
struct store_feedback {
	int64_t finding_id;
	int64_t reply_id;	/* the review it answers, 0 when none */
	int64_t msg_id;		/* the mail that said so, 0 when none */
	const char *addr;	/* who, lowercase */
	int maintainer;		/* addr maintained the finding's list then */
	const char *reason;	/* the rest of the line, or NULL; cut at
				 * STORE_FEEDBACK_REASON_MAX bytes (at a
				 * character boundary) */
	int64_t created;	/* 0: now */
};

/* Records fb: STORE_OK with *id (may be NULL), STORE_DUP when addr
 * disputed that finding already (nothing written), STORE_ERR_RANGE when
 * there is no such finding.  A maintainer's dispute (fb->maintainer) of
 * a finding addr disputed before as no maintainer's (unverified) makes
 * that one the maintainer's: STORE_OK, *id left 0. */
int store_feedback_add(struct store *st, const struct store_feedback *fb, int64_t *id);
/* Disputes recorded in all (for status). */
int store_feedback_count(struct store *st, long long *n);

/* A type's findings and disputes, on one list or on all. */
struct store_feedback_count {
	const char *list;	/* NULL: series of no list, or all (per type) */
	const char *type;
	long long findings;	/* of that type */
	long long disputed;	/* of them, disputed by anyone */
	long long by_maintainers; /* of them, disputed by a maintainer of the list */
	long long reviews;	/* series in which a maintainer disputed one */
};

/*
 * Calls cb for each (list, type) with findings in series of list (NULL:
 * every list) created at or after since, by list then type; or with
 * per_type, for each type over those lists together (c->list NULL).
 * With only_disputed, only the types with a disputed finding.  The row
 * is valid during the call only; cb must not write to the store; a
 * non-zero return from cb stops the walk and is returned.
 */
int store_feedback_counts(struct store *st, const char *list, int64_t since,
			  int only_disputed, int per_type,
			  int (*cb)(void *arg, const struct store_feedback_count *c),
			  void *arg);

/*
 * The disputes of findings on list by addresses that maintained it then:
 * cb gets each (type, series, addr) once, by type then series then
 * address (the caller counts those whose address still maintains the
 * list).  Same rules for cb as above.
 */
int store_feedback_each_maintained(struct store *st, const char *list,
				   int (*cb)(void *arg, const char *type,
					     int64_t series_id, const char *addr),
				   void *arg);

/* ---- read-only counts for reviewbot status ------------------------------ */

/* Number of series per state; counts[SERIES__COUNT]. */
int store_series_count(struct store *st, long long counts[SERIES__COUNT]);
/* Open series still waiting: fewer patches stored than announced and
 * the last part stored at or after since (now - series_wait). */
int store_series_count_waiting(struct store *st, int64_t since, long long *n);
/* Pending replies due at now (the others wait for a retry time). */
int store_reply_count_due(struct store *st, int64_t now, long long *n);
/* Patches and findings stored. */
int store_patch_count(struct store *st, long long *patches, long long *findings);

#endif

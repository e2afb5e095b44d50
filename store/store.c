// SPDX-License-Identifier: GPL-2.0-only
/*
 * store: opening the database, its schema migrations, transactions,
 * errors, and the statement helpers the other store/ sources share.
 */
#include "store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../checker/banned.h"

/*
 * The schema, one script per version: migrations[v] brings a database
 * at user_version v to v + 1.  Each runs in its own transaction, which
 * also sets user_version, so a crash leaves the database at a version
 * it really has.  Never edit a script that has shipped: add one.
 *
 * Conventions: ids are rowids, 0 from the API is stored as NULL so that
 * foreign keys hold; times are Unix seconds, 0 when unknown.  Raw mail
 * lives in its own table so that scans of messages stay small.
 */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	/* 0 -> 1: messages, series, patches, findings */
	"CREATE TABLE messages ("
	"  id INTEGER PRIMARY KEY,"
	"  message_id TEXT NOT NULL,"
	"  source TEXT,"
	"  list TEXT,"
	"  from_addr TEXT,"
	"  from_name TEXT,"
	"  subject TEXT,"
	"  date INTEGER NOT NULL DEFAULT 0,"
	"  received INTEGER NOT NULL DEFAULT 0,"
	"  in_reply_to TEXT,"
	"  refs TEXT,"
	"  state INTEGER NOT NULL DEFAULT 0,"
	"  reason TEXT,"
	"  series_id INTEGER REFERENCES series(id)"
	");"
	"CREATE UNIQUE INDEX messages_message_id ON messages(message_id);"
	"CREATE INDEX messages_state ON messages(state);"
	"CREATE INDEX messages_series ON messages(series_id);"
	"CREATE TABLE message_raw ("
	"  msg_id INTEGER PRIMARY KEY REFERENCES messages(id),"
	"  raw BLOB NOT NULL"
	");"
	"CREATE TABLE series ("
	"  id INTEGER PRIMARY KEY,"
	"  list TEXT,"
	"  author_addr TEXT,"
	"  author_name TEXT,"
	"  subject TEXT,"
	"  root TEXT,"
	"  prefix TEXT,"
	"  change_id TEXT,"
	"  version INTEGER NOT NULL DEFAULT 1,"
	"  version_minor INTEGER NOT NULL DEFAULT 0,"
	"  total INTEGER NOT NULL DEFAULT 1,"
	"  cover_msg INTEGER REFERENCES messages(id),"
	"  prev_id INTEGER REFERENCES series(id),"
	"  created INTEGER NOT NULL DEFAULT 0,"
	"  last_part_at INTEGER NOT NULL DEFAULT 0,"
	"  state INTEGER NOT NULL DEFAULT 0,"
	"  reviewed_at INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE INDEX series_key ON series(list, author_addr, root, version,"
	"  version_minor, total);"
	"CREATE INDEX series_change_id ON series(change_id);"
	"CREATE INDEX series_subject ON series(list, author_addr, subject);"
	"CREATE INDEX series_state ON series(state);"
	"CREATE TABLE patches ("
	"  id INTEGER PRIMARY KEY,"
	"  series_id INTEGER NOT NULL REFERENCES series(id),"
	"  msg_id INTEGER REFERENCES messages(id),"
	"  part INTEGER NOT NULL,"
	"  subject TEXT,"
	"  checked INTEGER NOT NULL DEFAULT 0,"
	"  errors INTEGER NOT NULL DEFAULT 0,"
	"  warnings INTEGER NOT NULL DEFAULT 0,"
	"  checks INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE UNIQUE INDEX patches_series_part ON patches(series_id, part);"
	"CREATE INDEX patches_msg ON patches(msg_id);"
	"CREATE TABLE findings ("
	"  id INTEGER PRIMARY KEY,"
	"  patch_id INTEGER NOT NULL REFERENCES patches(id),"
	"  series_id INTEGER NOT NULL REFERENCES series(id),"
	"  part INTEGER NOT NULL,"
	"  type TEXT,"
	"  severity TEXT,"
	"  category TEXT,"
	"  file TEXT,"
	"  line INTEGER NOT NULL DEFAULT 0,"
	"  message TEXT,"
	"  line_text TEXT,"
	"  fingerprint TEXT"
	");"
	"CREATE INDEX findings_series ON findings(series_id);"
	"CREATE INDEX findings_patch ON findings(patch_id);"
	"CREATE INDEX findings_file ON findings(file);"
	"CREATE INDEX findings_type ON findings(type);",

	/* 1 -> 2: reviews, replies, optouts, checkpoints */
	"CREATE TABLE replies ("
	"  id INTEGER PRIMARY KEY,"
	"  message_id TEXT NOT NULL,"
	"  series_id INTEGER REFERENCES series(id),"
	"  kind TEXT,"
	"  mail_from TEXT,"
	"  rcpt TEXT,"
	"  body TEXT,"
	"  state INTEGER NOT NULL DEFAULT 0,"
	"  reason TEXT,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  created INTEGER NOT NULL DEFAULT 0,"
	"  next_attempt INTEGER NOT NULL DEFAULT 0,"
	"  sent_at INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE UNIQUE INDEX replies_message_id ON replies(message_id);"
	"CREATE INDEX replies_due ON replies(state, next_attempt);"
	"CREATE INDEX replies_created ON replies(created);"
	"CREATE TABLE reviews ("
	"  id INTEGER PRIMARY KEY,"
	"  series_id INTEGER NOT NULL REFERENCES series(id),"
	"  reply_id INTEGER REFERENCES replies(id),"
	"  created INTEGER NOT NULL DEFAULT 0,"
	"  findings INTEGER NOT NULL DEFAULT 0,"
	"  nits INTEGER NOT NULL DEFAULT 0,"
	"  fixed INTEGER NOT NULL DEFAULT 0,"
	"  added INTEGER NOT NULL DEFAULT 0,"
	"  still INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE UNIQUE INDEX reviews_series ON reviews(series_id);"
	"CREATE TABLE optouts ("
	"  addr TEXT PRIMARY KEY,"
	"  mode INTEGER NOT NULL,"
	"  created INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE TABLE checkpoints ("
	"  source TEXT PRIMARY KEY,"
	"  value TEXT NOT NULL,"
	"  updated INTEGER NOT NULL DEFAULT 0"
	");",

	/* 2 -> 3: who a reply went to (per-author and per-list caps),
	 * muted threads, opt-in tokens */
	"ALTER TABLE replies ADD COLUMN to_addr TEXT;"
	"ALTER TABLE replies ADD COLUMN list TEXT;"
	"CREATE INDEX replies_sent ON replies(state, sent_at);"
	"CREATE INDEX replies_to ON replies(to_addr);"
	"CREATE INDEX replies_series ON replies(series_id);"
	"CREATE TABLE mutes ("
	"  root TEXT PRIMARY KEY,"
	"  addr TEXT,"
	"  created INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE TABLE optin_tokens ("
	"  id INTEGER PRIMARY KEY,"
	"  addr TEXT NOT NULL,"
	"  token TEXT NOT NULL,"
	"  created INTEGER NOT NULL DEFAULT 0,"
	"  used INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE UNIQUE INDEX optin_tokens_token ON optin_tokens(token);"
	"CREATE INDEX optin_tokens_addr ON optin_tokens(addr);"
	"CREATE INDEX messages_from ON messages(from_addr);"
	"CREATE INDEX series_author ON series(author_addr);",

	/* 3 -> 4: the stage queue (compile and load tests), one row per
	 * series version and kind, kept as the result's cache; a series'
	 * stages go with it (foreign keys are on) */
	"CREATE TABLE stages ("
	"  id INTEGER PRIMARY KEY,"
	"  series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,"
	"  kind TEXT NOT NULL CHECK (kind IN ('compile', 'load')),"
	"  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done')),"
	"  verdict INTEGER NOT NULL DEFAULT 0,"
	"  note TEXT,"
	"  queued INTEGER NOT NULL,"
	"  started INTEGER,"
	"  finished INTEGER,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  seconds REAL NOT NULL DEFAULT 0,"
	"  followup INTEGER NOT NULL DEFAULT 0,"
	"  UNIQUE (series_id, kind)"
	");"
	"CREATE INDEX stages_queue ON stages(state, queued);",

	/* 4 -> 5: claims.  A message's processing is charged an attempt
	 * and claimed by its process, committed, before its check starts,
	 * so a check that kills the process (a crash, SIGKILL, the OOM
	 * killer) is counted across restarts; a reply is claimed before it
	 * is handed to delivery, so two processes never send it both.
	 * claim is the holder's name (bot/claim.h), NULL when free. */
	"ALTER TABLE messages ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE messages ADD COLUMN claim TEXT;"
	"ALTER TABLE messages ADD COLUMN claimed_at INTEGER NOT NULL DEFAULT 0;"
	"CREATE INDEX messages_claim ON messages(claim) WHERE claim IS NOT NULL;"
	"ALTER TABLE replies ADD COLUMN claim TEXT;"
	"ALTER TABLE replies ADD COLUMN claimed_at INTEGER NOT NULL DEFAULT 0;",

	/* 5 -> 6: false-positive feedback.  reply_findings: the findings a
	 * review (or follow-up) covers, listed or counted with the nits, and
	 * the number it shows a listed one with ("#3", 0 for the others), so
	 * that an answer naming a type or a number finds its findings.
	 * feedback: who said a finding is wrong, from which mail, answering
	 * which review, and whether the sender maintained the finding's list
	 * then ([source] maintainers: their word demotes a type on that list).
	 * Both go with their finding or reply (store_forget_address, a patch
	 * taken out of its series); a dispute outlives the mail it came in. */
	"CREATE TABLE reply_findings ("
	"  reply_id INTEGER NOT NULL REFERENCES replies(id) ON DELETE CASCADE,"
	"  finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,"
	"  num INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (reply_id, finding_id)"
	") WITHOUT ROWID;"
	"CREATE UNIQUE INDEX reply_findings_num ON reply_findings(reply_id, num)"
	"  WHERE num > 0;"
	"CREATE INDEX reply_findings_finding ON reply_findings(finding_id);"
	"CREATE TABLE feedback ("
	"  id INTEGER PRIMARY KEY,"
	"  finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,"
	"  reply_id INTEGER REFERENCES replies(id) ON DELETE SET NULL,"
	"  msg_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,"
	"  addr TEXT NOT NULL,"
	"  maintainer INTEGER NOT NULL DEFAULT 0,"
	"  reason TEXT,"
	"  created INTEGER NOT NULL DEFAULT 0,"
	"  UNIQUE (finding_id, addr)"
	");"
	"CREATE INDEX feedback_addr ON feedback(addr);"
	"CREATE INDEX feedback_msg ON feedback(msg_id);"
	"CREATE INDEX feedback_reply ON feedback(reply_id);",

	/* 6 -> 7: the Message-IDs a series is known by (Patchwork's
	 * SeriesReference): its own mails' (own = 1) and those they name
	 * in In-Reply-To and References (own = 0), so that a mail finds its
	 * series through any of its references, in any order of arrival.
	 * A series' rows go with it.  Series stored before are known by
	 * their mails, what their patches reply to, and their thread root. */
	"CREATE TABLE series_refs ("
	"  msgid TEXT NOT NULL,"
	"  series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,"
	"  own INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (msgid, series_id)"
	") WITHOUT ROWID;"
	"CREATE INDEX series_refs_series ON series_refs(series_id);"
	"INSERT OR IGNORE INTO series_refs (msgid, series_id, own)"
	"  SELECT message_id, series_id, 1 FROM messages"
	"  WHERE series_id IS NOT NULL AND state IN (1, 2);"
	"INSERT OR IGNORE INTO series_refs (msgid, series_id, own)"
	"  SELECT in_reply_to, series_id, 0 FROM messages"
	"  WHERE series_id IS NOT NULL AND state = 1 AND in_reply_to IS NOT NULL;"
	"INSERT OR IGNORE INTO series_refs (msgid, series_id, own)"
	"  SELECT root, id, 0 FROM series WHERE root IS NOT NULL;",

	/* 7 -> 8: who a message was sent to, so that what was mailed to
	 * the bot alone is never published (reviewbot serve, the query by
	 * mail): rcpt, the To and Cc addresses, lowercase, ','-separated
	 * ('' when none), and list_id, its List-Id (inside the <>) or NULL.
	 * rcpt NULL: not recorded yet (stored before schema 8; the bot
	 * fills it in from the raw mail at its next start) */
	"ALTER TABLE messages ADD COLUMN rcpt TEXT;"
	" ALTER TABLE messages ADD COLUMN list_id TEXT;",

	/* 8 -> 9: messages by date, for what reads a span of weeks (the
	 * web pages' chart: store_web_weekly) rather than the whole
	 * history; on 200,000 patches the chart's statement went from 6 s
	 * to 0.2 s (tests/bench/bench_serve.sh) */
	"CREATE INDEX messages_date ON messages(date);",

	/* 9 -> 10: what the privacy rule and the author filter need, kept
	 * as data when it is stored instead of worked out for every row
	 * each page reads (tests/bench/bench_serve.sh: an author's page
	 * 3.5 s -> see tests/bench/README.md).  Triggers keep it right
	 * whatever writes: an opt-out unpublishes its author's past mail at
	 * once, an opt-in publishes it again.
	 *   messages.pub: 0 never published (recipients not recorded, or
	 *     the sender opted out), 1 came through a list (a List-Id),
	 *     2 published when a recipient is a public list or its source a
	 *     public archive: the configuration's, so decided when read
	 *     (STORE_WEB_PUBLISHED)
	 *   series.opted_out: its author opted out (either mode)
	 *   authors: each text the author filter reads, "address name"
	 *     lowercase, once; series.author_id the series' author's,
	 *     patches.author_id the patch's (its mail's address and name,
	 *     the series' where the mail has none), so that the filter
	 *     reads the few thousand authors and then the index */
	"CREATE TABLE authors ("
	"  id INTEGER PRIMARY KEY,"
	"  who TEXT NOT NULL UNIQUE"
	");"
	"ALTER TABLE messages ADD COLUMN pub INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE series ADD COLUMN opted_out INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE series ADD COLUMN author_id INTEGER REFERENCES authors(id);"
	"ALTER TABLE patches ADD COLUMN author_id INTEGER REFERENCES authors(id);"
	"CREATE INDEX messages_from_lower ON messages(lower(from_addr));"
	"CREATE INDEX series_author_lower ON series(lower(author_addr));"
	"CREATE INDEX series_author_id ON series(author_id);"
	"CREATE INDEX patches_author ON patches(author_id);"
	/* a file's (or a folder's) findings counted without reading them */
	"DROP INDEX findings_file;"
	"CREATE INDEX findings_file ON findings(file, patch_id, series_id, type,"
	"  category);"
	"UPDATE messages SET pub = " M_PUB ";"
	"UPDATE series SET opted_out = " S_OPTED_OUT ";"
	"INSERT OR IGNORE INTO authors (who) SELECT " S_WHO " FROM series;"
	"INSERT OR IGNORE INTO authors (who) SELECT " P_WHO " FROM patches;"
	"UPDATE series SET author_id = (SELECT a.id FROM authors a WHERE a.who = " S_WHO ");"
	"UPDATE patches SET author_id = (SELECT a.id FROM authors a WHERE a.who = " P_WHO ");"
	"CREATE TRIGGER messages_pub_new AFTER INSERT ON messages BEGIN"
	"  UPDATE messages SET pub = " M_PUB " WHERE id = NEW.id;"
	" END;"
	"CREATE TRIGGER messages_pub_change AFTER UPDATE OF rcpt, list_id, from_addr"
	"  ON messages BEGIN"
	"  UPDATE messages SET pub = " M_PUB " WHERE id = NEW.id;"
	" END;"
	"CREATE TRIGGER messages_author_change AFTER UPDATE OF from_addr, from_name"
	"  ON messages BEGIN"
	"  INSERT OR IGNORE INTO authors (who) SELECT " P_WHO " FROM patches"
	"   WHERE msg_id = NEW.id;"
	"  UPDATE patches SET author_id = (SELECT a.id FROM authors a WHERE a.who = " P_WHO ")"
	"   WHERE msg_id = NEW.id;"
	" END;"
	"CREATE TRIGGER series_new AFTER INSERT ON series BEGIN"
	"  INSERT OR IGNORE INTO authors (who) SELECT " S_WHO " FROM series WHERE id = NEW.id;"
	"  UPDATE series SET opted_out = " S_OPTED_OUT ","
	"   author_id = (SELECT a.id FROM authors a WHERE a.who = " S_WHO ")"
	"   WHERE id = NEW.id;"
	" END;"
	"CREATE TRIGGER series_author_change AFTER UPDATE OF author_addr, author_name"
	"  ON series BEGIN"
	"  INSERT OR IGNORE INTO authors (who) SELECT " S_WHO " FROM series WHERE id = NEW.id;"
	"  UPDATE series SET opted_out = " S_OPTED_OUT ","
	"   author_id = (SELECT a.id FROM authors a WHERE a.who = " S_WHO ")"
	"   WHERE id = NEW.id;"
	"  INSERT OR IGNORE INTO authors (who) SELECT " P_WHO " FROM patches"
	"   WHERE series_id = NEW.id;"
	"  UPDATE patches SET author_id = (SELECT a.id FROM authors a WHERE a.who = " P_WHO ")"
	"   WHERE series_id = NEW.id;"
	" END;"
	"CREATE TRIGGER patches_author_new AFTER INSERT ON patches BEGIN"
	"  INSERT OR IGNORE INTO authors (who) SELECT " P_WHO " FROM patches WHERE id = NEW.id;"
	"  UPDATE patches SET author_id = (SELECT a.id FROM authors a WHERE a.who = " P_WHO ")"
	"   WHERE id = NEW.id;"
	" END;"
	"CREATE TRIGGER patches_author_change AFTER UPDATE OF series_id, msg_id"
	"  ON patches BEGIN"
	"  INSERT OR IGNORE INTO authors (who) SELECT " P_WHO " FROM patches WHERE id = NEW.id;"
	"  UPDATE patches SET author_id = (SELECT a.id FROM authors a WHERE a.who = " P_WHO ")"
	"   WHERE id = NEW.id;"
	" END;"
	"CREATE TRIGGER optouts_pub_new AFTER INSERT ON optouts BEGIN"
	"  UPDATE messages SET pub = 0 WHERE lower(from_addr) = NEW.addr;"
	"  UPDATE series SET opted_out = 1 WHERE lower(author_addr) = NEW.addr;"
	" END;"
	"CREATE TRIGGER optouts_pub_gone AFTER DELETE ON optouts BEGIN"
	"  UPDATE messages SET pub = " M_PUB " WHERE lower(from_addr) = OLD.addr;"
	"  UPDATE series SET opted_out = " S_OPTED_OUT " WHERE lower(author_addr) = OLD.addr;"
	" END;"
	"CREATE TRIGGER optouts_pub_change AFTER UPDATE OF addr ON optouts BEGIN"
	"  UPDATE messages SET pub = " M_PUB
	"   WHERE lower(from_addr) IN (OLD.addr, NEW.addr);"
	"  UPDATE series SET opted_out = " S_OPTED_OUT
	"   WHERE lower(author_addr) IN (OLD.addr, NEW.addr);"
	" END;"
	"",	/* three pieces: clang takes two for a missing comma */

	/* 10 -> 11: who sent a command (issue 33).  secrets: values made
	 * once per installation and kept with its history (the key of the
	 * bot's own Message-IDs, bot/secret.h), never shown by serve or
	 * status.  optin_tokens.action: what the token carries out when its
	 * address sends it back (NULL, as every token before schema 11: it
	 * opts back in), arg what the action needs (a mute's thread root, a
	 * query's words), msg_id the command mail that asked.  confirmed:
	 * the addresses that sent a token back, so that they may be
	 * answered */
	"CREATE TABLE secrets ("
	"  name TEXT PRIMARY KEY,"
	"  value BLOB NOT NULL,"
	"  created INTEGER NOT NULL DEFAULT 0"
	");"
	"ALTER TABLE optin_tokens ADD COLUMN action TEXT;"
	"ALTER TABLE optin_tokens ADD COLUMN arg TEXT;"
	"ALTER TABLE optin_tokens ADD COLUMN msg_id INTEGER"
	"  REFERENCES messages(id) ON DELETE SET NULL;"
	"CREATE INDEX optin_tokens_pending ON optin_tokens(used, created)"
	"  WHERE action IS NOT NULL;"
	"CREATE TABLE confirmed ("
	"  addr TEXT PRIMARY KEY,"
	"  confirmed_at INTEGER NOT NULL DEFAULT 0"
	");",

	/* 11 -> 12: the findings of one entry of a review share its number
	 * (bot/mail/compose.h: a cause with the findings it gives, the
	 * lines of one function said once), so that "false-positive #N"
	 * names each of them: a number is no longer unique in a reply, a
	 * finding still is (the primary key) */
	"DROP INDEX reply_findings_num;"
	"CREATE INDEX reply_findings_num ON reply_findings(reply_id, num) WHERE num > 0;",

	/* 12 -> 13: a Message-ID is not an identity (issue 33 item 2).
	 * Anyone can mail the bot a victim's Message-ID before the list's
	 * copy comes; the copies that differ are all kept, and the one that
	 * came the best way is the message (store_msg_replace):
	 *   messages.hash: the digest of the copy the row holds
	 *     (bot/mail/digest.h), NULL for mail stored before (worked out
	 *     from its raw mail when another copy comes)
	 *   messages.via: how it came (enum store_msg_via), and via_lists
	 *     the lists it came through (NULL before: not known, and a
	 *     review of such mail goes where it used to)
	 *   message_copies: the other copies, with why each is not used */
	"ALTER TABLE messages ADD COLUMN hash TEXT;"
	"ALTER TABLE messages ADD COLUMN via INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE messages ADD COLUMN via_lists TEXT;"
	"CREATE TABLE message_copies ("
	"  id INTEGER PRIMARY KEY,"
	"  msg_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,"
	"  hash TEXT NOT NULL,"
	"  source TEXT,"
	"  via INTEGER NOT NULL DEFAULT 0,"
	"  via_lists TEXT,"
	"  from_addr TEXT,"
	"  subject TEXT,"
	"  date INTEGER NOT NULL DEFAULT 0,"
	"  received INTEGER NOT NULL DEFAULT 0,"
	"  reason TEXT,"
	"  raw BLOB NOT NULL,"
	"  UNIQUE (msg_id, hash)"
	");",

	/* 13 -> 14: the stage queue shared by runners (issue 34 item 5).
	 * A runner takes a queued stage by writing its name on it (claim,
	 * as bot/claim.h names a process) and keeps claimed_at fresh while
	 * it works, so the stage of a runner that died (a killed worker, a
	 * lab's runner that stopped renewing) is taken again and nothing is
	 * lost; details: how to reproduce the result (tree, commit,
	 * configuration, tool versions, commands), shown with it */
	"ALTER TABLE stages ADD COLUMN claim TEXT;"
	"ALTER TABLE stages ADD COLUMN claimed_at INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE stages ADD COLUMN details TEXT;"
	"CREATE INDEX stages_claim ON stages(claim) WHERE claim IS NOT NULL;",
};

const char *store_strerror(int result)
{
	switch (result) {
	case STORE_OK:
		return "no error";
	case STORE_DONE:
		return "not found";
	case STORE_DUP:
		return "already stored";
	case STORE_ERR:
		return "database error";
	case STORE_ERR_BUSY:
		return "database is locked";
	case STORE_ERR_FULL:
		return "disk full";
	case STORE_ERR_VERSION:
		return "database schema is newer than this program";
	case STORE_ERR_NOMEM:
		return "out of memory";
	case STORE_ERR_RANGE:
		return "argument out of range";
	}
	return "unknown error";
}

const char *store_errmsg(const struct store *st)
{
	return st ? st->errmsg : "";
}

void store_clearerr(struct store *st)
{
	st->errmsg[0] = '\0';
}

int store_seterr(struct store *st, int result, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->errmsg, sizeof(st->errmsg), fmt, ap);
	va_end(ap);
	return result;
}

static int map_rc(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_ROW:
	case SQLITE_DONE:
		return STORE_OK;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return STORE_ERR_BUSY;
	case SQLITE_FULL:
		return STORE_ERR_FULL;
	case SQLITE_NOMEM:
		return STORE_ERR_NOMEM;
	case SQLITE_TOOBIG:
	case SQLITE_RANGE:
		return STORE_ERR_RANGE;
	}
	return STORE_ERR;
}

int store_sqlerr(struct store *st, int rc)
{
	const char *msg = st->db ? sqlite3_errmsg(st->db) : NULL;

	if (!msg || !*msg)
		msg = sqlite3_errstr(rc);
	snprintf(st->errmsg, sizeof(st->errmsg), "%s", msg);
	return map_rc(rc) ? map_rc(rc) : STORE_ERR;
}

sqlite3_stmt *store_stmt(struct store *st, enum store_stmt_id id,
			 const char *sql, int *ret)
{
	int rc;

	if (st->stmt[id])
		return st->stmt[id];
	rc = sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
				&st->stmt[id], NULL);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st->stmt[id]);
		st->stmt[id] = NULL;
		*ret = store_sqlerr(st, rc);
		return NULL;
	}
	return st->stmt[id];
}

sqlite3_stmt *store_shape_find(struct store *st, uint32_t kind, uint32_t key)
{
	size_t i;

	for (i = 0; i < STORE_NSHAPES; i++) {
		struct store_shape *sh = &st->shapes[i];

		if (sh->used && sh->kind == kind && sh->key == key) {
			sh->used = ++st->shape_clock;
			return sh->s;
		}
	}
	return NULL;
}

sqlite3_stmt *store_shape_prepare(struct store *st, uint32_t kind, uint32_t key,
				  const char *sql, int *ret)
{
	struct store_shape *sh = &st->shapes[0];
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc;

	rc = sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(s);
		*ret = store_sqlerr(st, rc);
		return NULL;
	}
	/* an empty slot, else the least recently used */
	for (i = 0; i < STORE_NSHAPES && sh->used; i++)
		if (!st->shapes[i].used || st->shapes[i].used < sh->used)
			sh = &st->shapes[i];
	sqlite3_finalize(sh->s);
	sh->kind = kind;
	sh->key = key;
	sh->s = s;
	sh->used = ++st->shape_clock;
	return s;
}

void store_sql_add(struct store_sql *q, const char *s)
{
	size_t n = strlen(s);
	char *p;

	if (q->err)
		return;
	if (n >= STORE_SQL_MAX - q->len) {
		q->err = 1;
		return;
	}
	p = realloc(q->buf, q->len + n + 1);
	if (!p) {
		q->err = 1;
		return;
	}
	q->buf = p;
	memcpy(q->buf + q->len, s, n + 1);
	q->len += n;
}

void store_sql_release(struct store_sql *q)
{
	free(q->buf);
	memset(q, 0, sizeof(*q));
}

void store_stmt_done(sqlite3_stmt *s)
{
	if (!s)
		return;
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
}

void store_bind_text(sqlite3_stmt *s, int i, const char *v, int *rc)
{
	if (*rc != SQLITE_OK)
		return;
	if (!v)
		*rc = sqlite3_bind_null(s, i);
	else
		*rc = sqlite3_bind_text64(s, i, v, strlen(v), SQLITE_STATIC,
					  SQLITE_UTF8);
}

void store_bind_int64(sqlite3_stmt *s, int i, int64_t v, int *rc)
{
	if (*rc != SQLITE_OK)
		return;
	*rc = sqlite3_bind_int64(s, i, v);
}

void store_bind_id(sqlite3_stmt *s, int i, int64_t v, int *rc)
{
	if (*rc != SQLITE_OK)
		return;
	*rc = v ? sqlite3_bind_int64(s, i, v) : sqlite3_bind_null(s, i);
}

void store_bind_opt_int64(sqlite3_stmt *s, int i, int64_t v, int *rc)
{
	store_bind_id(s, i, v, rc);
}

char *store_col_dup(sqlite3_stmt *s, int i, int *oom)
{
	const unsigned char *p;
	size_t n;
	char *r;

	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return NULL;
	p = sqlite3_column_text(s, i);
	n = (size_t)sqlite3_column_bytes(s, i);
	if (!p) {
		*oom = 1;
		return NULL;
	}
	r = malloc(n + 1);
	if (!r) {
		*oom = 1;
		return NULL;
	}
	memcpy(r, p, n);
	r[n] = '\0';
	return r;
}

int64_t store_col_id(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ?
		0 : sqlite3_column_int64(s, i);
}

int store_step_write(struct store *st, sqlite3_stmt *s, int *changes,
		     int64_t *rowid)
{
	int rc, ret = STORE_OK;

	rc = sqlite3_step(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		ret = store_sqlerr(st, rc);
		goto out;
	}
	if (changes)
		*changes = sqlite3_changes(st->db);
	if (rowid)
		*rowid = sqlite3_last_insert_rowid(st->db);
out:
	store_stmt_done(s);
	return ret;
}

int store_step_int64(struct store *st, sqlite3_stmt *s, int64_t *v)
{
	int rc, ret;

	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(s, 0);
		ret = STORE_OK;
	} else if (rc == SQLITE_DONE) {
		ret = STORE_DONE;
	} else {
		ret = store_sqlerr(st, rc);
	}
	store_stmt_done(s);
	return ret;
}

int store_bound_write(struct store *st, sqlite3_stmt *s, int rc, int *changes,
		      int64_t *rowid)
{
	if (rc != SQLITE_OK) {
		store_stmt_done(s);
		return store_sqlerr(st, rc);
	}
	return store_step_write(st, s, changes, rowid);
}

int store_bound_change(struct store *st, sqlite3_stmt *s, int rc)
{
	int ret, changes = 0;

	ret = store_bound_write(st, s, rc, &changes, NULL);
	if (ret == STORE_OK && !changes)
		ret = STORE_DONE;
	return ret;
}

int store_bound_int64(struct store *st, sqlite3_stmt *s, int rc, int64_t *v)
{
	if (rc != SQLITE_OK) {
		store_stmt_done(s);
		return store_sqlerr(st, rc);
	}
	return store_step_int64(st, s, v);
}

int store_bound_count(struct store *st, sqlite3_stmt *s, int rc, long long *n)
{
	int64_t v = 0;
	int ret;

	ret = store_bound_int64(st, s, rc, &v);
	if (ret == STORE_DONE)
		ret = STORE_OK;
	*n = v;
	return ret;
}

int store_bound_row(struct store *st, sqlite3_stmt *s, int rc)
{
	if (rc != SQLITE_OK)
		return store_sqlerr(st, rc);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		return STORE_OK;
	if (rc == SQLITE_DONE)
		return STORE_DONE;
	return store_sqlerr(st, rc);
}

int store_bound_each(struct store *st, sqlite3_stmt *s, int rc,
		     int (*row)(struct store *st, sqlite3_stmt *s, void *arg),
		     void *arg)
{
	int ret = STORE_OK;

	if (rc != SQLITE_OK) {
		store_stmt_done(s);
		return store_sqlerr(st, rc);
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ret = row(st, s, arg);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_sqlerr(st, rc);
	store_stmt_done(s);
	return ret;
}

int store_grow(struct store *st, void **arr, size_t *alloc, size_t n,
	       size_t size)
{
	size_t na;
	void *p;

	if (n < *alloc)
		return STORE_OK;
	na = *alloc ? *alloc * 2 : 16;
	if (na > SIZE_MAX / size)
		return store_seterr(st, STORE_ERR_NOMEM, "too many rows");
	p = realloc(*arr, na * size);
	if (!p)
		return store_seterr(st, STORE_ERR_NOMEM, "out of memory");
	*arr = p;
	*alloc = na;
	return STORE_OK;
}

int store_step_counts(struct store *st, sqlite3_stmt *s, long long *counts,
		      int n)
{
	int rc, ret = STORE_OK, k;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		k = sqlite3_column_int(s, 0);
		if (k >= 0 && k < n)
			counts[k] = sqlite3_column_int64(s, 1);
	}
	if (rc != SQLITE_DONE)
		ret = store_sqlerr(st, rc);
	store_stmt_done(s);
	return ret;
}

int store_each_id(struct store *st, sqlite3_stmt *s,
		  int (*cb)(void *arg, int64_t id), void *arg)
{
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, i;
	int rc, ret = STORE_OK;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ret = store_grow(st, (void **)&ids, &alloc, n, sizeof(*ids));
		if (ret)
			goto out;
		ids[n++] = sqlite3_column_int64(s, 0);
	}
	if (rc != SQLITE_DONE) {
		ret = store_sqlerr(st, rc);
		goto out;
	}
	/* no read cursor open while the callbacks run (they may write) */
	store_stmt_done(s);
	s = NULL;
	for (i = 0; i < n; i++) {
		ret = cb(arg, ids[i]);
		if (ret)
			goto out;
	}
out:
	store_stmt_done(s);
	free(ids);
	return ret;
}

int64_t store_time_or_now(int64_t t)
{
	return t ? t : (int64_t)time(NULL);
}

/* ---- transactions -------------------------------------------------------- */

static int run_simple(struct store *st, enum store_stmt_id id, const char *sql)
{
	sqlite3_stmt *s;
	int ret = STORE_OK;

	s = store_stmt(st, id, sql, &ret);
	if (!s)
		return ret;
	return store_step_write(st, s, NULL, NULL);
}

/*
 * BEGIN IMMEDIATE takes the write lock up front: in WAL mode a deferred
 * transaction that read first cannot wait for the lock later (SQLite
 * returns SQLITE_BUSY at once instead of calling the busy handler).
 */
int store_begin(struct store *st)
{
	store_clearerr(st);
	if (!sqlite3_get_autocommit(st->db))
		return store_seterr(st, STORE_ERR, "a transaction is open already");
	return run_simple(st, STMT_BEGIN, "BEGIN IMMEDIATE");
}

int store_commit(struct store *st)
{
	store_clearerr(st);
	if (sqlite3_get_autocommit(st->db))
		return store_seterr(st, STORE_ERR, "no transaction is open");
	return run_simple(st, STMT_COMMIT, "COMMIT");
}

/* Rolling back when SQLite already did (after some errors) is no error. */
int store_rollback(struct store *st)
{
	store_clearerr(st);
	if (sqlite3_get_autocommit(st->db))
		return STORE_OK;
	return run_simple(st, STMT_ROLLBACK, "ROLLBACK");
}

int store_savepoint(struct store *st)
{
	store_clearerr(st);
	if (sqlite3_get_autocommit(st->db))
		return store_seterr(st, STORE_ERR, "no transaction is open");
	return run_simple(st, STMT_SAVEPOINT, "SAVEPOINT part");
}

int store_savepoint_end(struct store *st, int ok)
{
	char keep[STORE_ERRMSG_MAX];
	int r;

	if (sqlite3_get_autocommit(st->db))
		return STORE_OK;	/* SQLite rolled the transaction back */
	if (ok >= 0)
		return run_simple(st, STMT_RELEASE, "RELEASE part");
	/* keep the error that made the caller undo the part */
	memcpy(keep, st->errmsg, sizeof(keep));
	r = run_simple(st, STMT_ROLLBACK_TO, "ROLLBACK TO part");
	if (r >= 0)
		r = run_simple(st, STMT_RELEASE, "RELEASE part");
	memcpy(st->errmsg, keep, sizeof(keep));
	return r;
}

int store_tx_enter(struct store *st, int *own)
{
	*own = 0;
	if (!sqlite3_get_autocommit(st->db))
		return STORE_OK;
	*own = 1;
	return run_simple(st, STMT_BEGIN, "BEGIN IMMEDIATE");
}

int store_tx_leave(struct store *st, int own, int ret)
{
	char keep[STORE_ERRMSG_MAX];
	int r;

	if (!own || sqlite3_get_autocommit(st->db))
		return ret;
	if (ret < 0) {
		/* keep the first error's message */
		memcpy(keep, st->errmsg, sizeof(keep));
		run_simple(st, STMT_ROLLBACK, "ROLLBACK");
		memcpy(st->errmsg, keep, sizeof(keep));
		return ret;
	}
	r = run_simple(st, STMT_COMMIT, "COMMIT");
	if (r < 0) {
		memcpy(keep, st->errmsg, sizeof(keep));
		run_simple(st, STMT_ROLLBACK, "ROLLBACK");
		memcpy(st->errmsg, keep, sizeof(keep));
		return r;
	}
	return ret;
}

/* ---- open, migrate, close ------------------------------------------------ */

/* A PRAGMA's integer value into *v (statement id, its text sql). */
static int pragma_int(struct store *st, enum store_stmt_id id, const char *sql,
		      int64_t *v)
{
	sqlite3_stmt *s;
	int ret = STORE_OK;

	*v = 0;
	s = store_stmt(st, id, sql, &ret);
	if (!s)
		return ret;
	return store_step_int64(st, s, v);
}

int store_schema_version(struct store *st)
{
	int64_t v;
	int ret = pragma_int(st, STMT_USER_VERSION, "PRAGMA user_version", &v);

	if (ret < 0)
		return ret;
	if (v < 0 || v > 1000000)
		return store_seterr(st, STORE_ERR_VERSION,
				    "bad schema version %lld", (long long)v);
	return (int)v;
}

int store_synchronous(struct store *st)
{
	int64_t v;
	int ret = pragma_int(st, STMT_SYNCHRONOUS, "PRAGMA synchronous", &v);

	if (ret < 0)
		return ret;
	if (v < 0 || v > 3)
		return store_seterr(st, STORE_ERR, "bad synchronous %lld", (long long)v);
	return (int)v;
}

static int exec_sql(struct store *st, const char *sql)
{
	int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? STORE_OK : store_sqlerr(st, rc);
}

/*
 * Brings the schema to version target, one migration per transaction.
 * The version is read again under the write lock: another process may
 * have migrated meanwhile.
 */
static int migrate(struct store *st, int target)
{
	char setv[64];
	int v, ret;

	for (;;) {
		ret = store_begin(st);
		if (ret)
			return ret;
		v = store_schema_version(st);
		if (v < 0) {
			ret = v;
			goto fail;
		}
		if (v > STORE_SCHEMA_VERSION) {
			ret = store_seterr(st, STORE_ERR_VERSION,
					   "database schema version %d is newer than %d",
					   v, STORE_SCHEMA_VERSION);
			goto fail;
		}
		if (v >= target)
			return store_commit(st);
		ret = exec_sql(st, migrations[v]);
		if (ret)
			goto fail;
		/* PRAGMA takes no parameters; v + 1 is our own small integer */
		snprintf(setv, sizeof(setv), "PRAGMA user_version = %d", v + 1);
		ret = exec_sql(st, setv);
		if (ret)
			goto fail;
		ret = store_commit(st);
		if (ret)
			goto fail;
	}
fail:
	{
		char keep[STORE_ERRMSG_MAX];

		memcpy(keep, st->errmsg, sizeof(keep));
		store_rollback(st);
		memcpy(st->errmsg, keep, sizeof(keep));
	}
	return ret;
}

/*
 * synchronous=FULL even in WAL mode: NORMAL would be safe against a
 * crash of the program but may lose the last commits on power loss, and
 * a reply marked sent that rolls back to pending is sent twice.  The bot
 * commits a few times per mail, so the extra fsync per commit is cheap.
 */
static int configure(struct store *st)
{
	int ret;

	ret = exec_sql(st, "PRAGMA journal_mode = WAL");
	if (!ret)
		ret = exec_sql(st, "PRAGMA foreign_keys = ON");
	if (!ret)
		ret = exec_sql(st, "PRAGMA synchronous = FULL");
	return ret;
}

/* Creates the file (when missing) with mode 0600 whatever the umask
 * allows beyond that: SQLite would use 0644. */
static int create_file(const char *path, char *err, size_t errlen)
{
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0) {
		if (err && errlen)
			snprintf(err, errlen, "cannot open %s: %s", path,
				 strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

int store_connect(const char *path, int flags, struct store **out, char *err,
		  size_t errlen)
{
	struct store *st;
	int rc;

	*out = NULL;
	st = calloc(1, sizeof(*st));
	if (!st) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return STORE_ERR_NOMEM;
	}
	rc = sqlite3_open_v2(path, &st->db, flags, NULL);
	if (rc != SQLITE_OK)
		return store_open_fail(st, path, store_sqlerr(st, rc), err, errlen);
	sqlite3_busy_timeout(st->db, STORE_BUSY_TIMEOUT_MS);
	/* the schema is ours alone: no writable_schema, no functions in it */
	sqlite3_db_config(st->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(st->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	*out = st;
	return STORE_OK;
}

int store_open_fail(struct store *st, const char *path, int ret, char *err,
		    size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", path,
			 st->errmsg[0] ? st->errmsg : store_strerror(ret));
	store_close(st);
	return ret;
}

static int open_db(const char *path, int version, int create, struct store **out,
		   char *err, size_t errlen)
{
	struct store *st = NULL;
	int ret, v;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	if (version < 1 || version > STORE_SCHEMA_VERSION) {
		if (err && errlen)
			snprintf(err, errlen, "no schema version %d", version);
		return STORE_ERR_RANGE;
	}
	if (!create && access(path, F_OK)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path,
				 errno == ENOENT ? "no such database" : strerror(errno));
		return errno == ENOENT ? STORE_DONE : STORE_ERR;
	}
	if (create && create_file(path, err, errlen))
		return STORE_ERR;
	ret = store_connect(path, SQLITE_OPEN_READWRITE, &st, err, errlen);
	if (ret)
		return ret;

	/* refuse a newer database before changing anything in it */
	v = store_schema_version(st);
	if (v < 0) {
		ret = v;
		goto fail;
	}
	if (v > STORE_SCHEMA_VERSION) {
		ret = store_seterr(st, STORE_ERR_VERSION,
				   "database schema version %d is newer than %d",
				   v, STORE_SCHEMA_VERSION);
		goto fail;
	}
	ret = configure(st);
	if (ret)
		goto fail;
	/* an up-to-date database is opened without taking the write lock */
	if (v < version) {
		ret = migrate(st, version);
		if (ret)
			goto fail;
	}
	st->version = v < version ? version : v;
	store_clearerr(st);
	*out = st;
	return STORE_OK;
fail:
	return store_open_fail(st, path, ret, err, errlen);
}

int store_open_at_version(const char *path, int version, struct store **out,
			  char *err, size_t errlen)
{
	return open_db(path, version, 1, out, err, errlen);
}

int store_open(const char *path, struct store **out, char *err, size_t errlen)
{
	return open_db(path, STORE_SCHEMA_VERSION, 1, out, err, errlen);
}

int store_open_existing(const char *path, struct store **out, char *err, size_t errlen)
{
	return open_db(path, STORE_SCHEMA_VERSION, 0, out, err, errlen);
}

int store_set_bulk(struct store *st)
{
	int ret = exec_sql(st, "PRAGMA temp_store = MEMORY");

	return ret ? ret : exec_sql(st, "PRAGMA synchronous = NORMAL");
}

void store_set_busy_timeout(struct store *st, int ms)
{
	sqlite3_busy_timeout(st->db, ms < 0 ? 0 : ms);
}

void store_close(struct store *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < STMT__COUNT; i++)
		sqlite3_finalize(st->stmt[i]);
	for (i = 0; i < STORE_NSHAPES; i++)
		sqlite3_finalize(st->shapes[i].s);
	/* an open transaction is rolled back by the close */
	sqlite3_close(st->db);
	free(st);
}

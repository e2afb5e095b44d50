#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Grow a reviewbot database made by `reviewbot import` to a decade of a
busy list, for tests/bench/bench_serve.sh: every row the import stored
(messages, their raw mail, series, their references, patches, findings,
reviews) is copied, generation after generation, under new ids,
Message-IDs, authors and dates, until there are at least PATCHES patches
and FINDINGS findings.  Foreign keys and unique indexes hold (checked at
the end: PRAGMA foreign_key_check).

`import` mails nobody, so the database has no replies; a real bot's has
one per review, which /m/ pages and /api/v1/reviews show: the base
generation's reviews get a reply first (state sent, its body the
series' findings as lines, about the size of a review mail), copied with
the rest.

Authors: AUTHORS addresses, each series given one by its id, so an
author has a few hundred series over the decade.  Dates: generation g is
g * (DECADE / generations) older than the base, so the ten years are
evenly filled.

Usage: scale_db.py DATABASE PATCHES FINDINGS [--no-raw] [--authors N]
"""
import argparse
import math
import sqlite3
import sys
import time

DECADE = 10 * 365 * 86400

ap = argparse.ArgumentParser()
ap.add_argument('db')
ap.add_argument('patches', type=int)
ap.add_argument('findings', type=int)
ap.add_argument('--no-raw', action='store_true',
                help='do not copy message_raw (a smaller database)')
ap.add_argument('--authors', type=int, default=3000)
a = ap.parse_args()

c = sqlite3.connect(a.db, isolation_level=None)
c.execute('PRAGMA foreign_keys = OFF')
c.execute('PRAGMA journal_mode = OFF')
c.execute('PRAGMA synchronous = OFF')
c.execute('PRAGMA cache_size = -262144')
c.execute('PRAGMA temp_store = MEMORY')


def one(sql, *args):
    return c.execute(sql, args).fetchone()[0]


if one('SELECT count(*) FROM replies'):
    sys.exit('scale_db: expected a fresh import (no replies)')

c.execute('BEGIN')
# the base's replies: one per review, sent when the series was reviewed
c.execute("""
INSERT INTO replies (id, message_id, series_id, kind, mail_from, rcpt, body,
                     state, attempts, created, next_attempt, sent_at,
                     to_addr, list)
SELECT r.id, 'bench-review-' || s.id || '@reviewbot.invalid', s.id, 'review',
       'reviewbot@example.org', s.author_addr,
       'Hi ' || ifnull(s.author_name, s.author_addr) || ',' || char(10) ||
       char(10) || 'reviewbot checked ' || ifnull(s.subject, '') || ':' ||
       char(10) || char(10) ||
       ifnull((SELECT group_concat(ifnull(f.file, '') || ':' || f.line || ': ' ||
                                   f.severity || ': ' || f.message, char(10))
               FROM findings f WHERE f.series_id = s.id), 'no findings') ||
       char(10),
       1, 1, s.reviewed_at, 0, s.reviewed_at, s.author_addr, s.list
FROM reviews r JOIN series s ON s.id = r.series_id
""")
c.execute('UPDATE reviews SET reply_id = id')
c.execute('COMMIT')

base = {}
for t in ('messages', 'series', 'patches', 'findings', 'reviews', 'replies'):
    base[t] = one('SELECT ifnull(max(id), 0) FROM %s' % t)
bp = one('SELECT count(*) FROM patches')
bf = one('SELECT count(*) FROM findings')
if not bp or not bf:
    sys.exit('scale_db: the base has no patches or no findings')
gens = max(math.ceil(a.patches / bp), math.ceil(a.findings / bf), 1)
step = DECADE // gens

# secondary indexes off while copying, made again at the end (faster
# than keeping them up to date row by row); the unique ones are checked
# when they are made again
tables = ('messages', 'message_raw', 'series', 'series_refs', 'patches',
          'findings', 'reviews', 'replies')
idx = c.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index'"
                " AND sql IS NOT NULL AND tbl_name IN (%s)" %
                ','.join('?' * len(tables)), tables).fetchall()
t0 = time.time()
c.execute('BEGIN')
for name, _ in idx:
    c.execute('DROP INDEX %s' % name)

N = a.authors


def author(idexpr):
    return "'dev' || ((%s) %% %d) || '@example.org'" % (idexpr, N)


for g in range(1, gens):
    om, os_, op, of, orv, orp = (g * base[t] for t in
                                 ('messages', 'series', 'patches', 'findings',
                                  'reviews', 'replies'))
    pre = 'g%d.' % g
    d = g * step
    c.execute("""
INSERT INTO messages (id, message_id, source, list, from_addr, from_name,
    subject, date, received, in_reply_to, refs, state, reason, series_id,
    attempts, claim, claimed_at, rcpt, list_id)
SELECT id + :om, :pre || message_id, source, list,
    CASE WHEN series_id IS NULL THEN :pre || from_addr
         ELSE %s END,
    CASE WHEN series_id IS NULL THEN from_name
         ELSE 'Developer ' || ((series_id + :os) %% :n) END,
    subject, CASE WHEN date > 0 THEN date - :d ELSE 0 END, received - :d,
    CASE WHEN in_reply_to IS NULL THEN NULL ELSE :pre || in_reply_to END,
    CASE WHEN refs IS NULL THEN NULL ELSE :pre || refs END,
    state, reason, series_id + :os, attempts, NULL, 0, rcpt, list_id
FROM messages WHERE id <= :bm""" % (author('series_id + :os')),
              dict(om=om, pre=pre, os=os_, n=N, d=d, bm=base['messages']))
    if not a.no_raw:
        c.execute('INSERT INTO message_raw (msg_id, raw) SELECT msg_id + ?, raw'
                  ' FROM message_raw WHERE msg_id <= ?', (om, base['messages']))
    c.execute("""
INSERT INTO series (id, list, author_addr, author_name, subject, root, prefix,
    change_id, version, version_minor, total, cover_msg, prev_id, created,
    last_part_at, state, reviewed_at)
SELECT id + :os, list, %s, 'Developer ' || ((id + :os) %% :n), subject,
    CASE WHEN root IS NULL THEN NULL ELSE :pre || root END, prefix,
    CASE WHEN change_id IS NULL THEN NULL ELSE :pre || change_id END,
    version, version_minor, total, cover_msg + :om, prev_id + :os,
    created - :d, last_part_at - :d, state,
    CASE WHEN reviewed_at > 0 THEN reviewed_at - :d ELSE 0 END
FROM series WHERE id <= :bs""" % (author('id + :os')),
              dict(os=os_, n=N, pre=pre, om=om, d=d, bs=base['series']))
    c.execute('INSERT INTO series_refs (msgid, series_id, own)'
              ' SELECT ? || msgid, series_id + ?, own FROM series_refs'
              ' WHERE series_id <= ?', (pre, os_, base['series']))
    c.execute('INSERT INTO patches (id, series_id, msg_id, part, subject, checked,'
              ' errors, warnings, checks) SELECT id + ?, series_id + ?, msg_id + ?,'
              ' part, subject, checked, errors, warnings, checks FROM patches'
              ' WHERE id <= ?', (op, os_, om, base['patches']))
    c.execute('INSERT INTO findings (id, patch_id, series_id, part, type, severity,'
              ' category, file, line, message, line_text, fingerprint)'
              ' SELECT id + ?, patch_id + ?, series_id + ?, part, type, severity,'
              ' category, file, line, message, line_text, fingerprint'
              ' FROM findings WHERE id <= ?', (of, op, os_, base['findings']))
    c.execute("""
INSERT INTO replies (id, message_id, series_id, kind, mail_from, rcpt, body,
    state, reason, attempts, created, next_attempt, sent_at, to_addr, list)
SELECT id + :orp, :pre || message_id, series_id + :os, kind, mail_from,
    %s, body, state, reason, attempts, created - :d, 0,
    CASE WHEN sent_at > 0 THEN sent_at - :d ELSE 0 END, %s, list
FROM replies WHERE id <= :br""" % (author('series_id + :os'),
                                   author('series_id + :os')),
              dict(orp=orp, pre=pre, os=os_, d=d, br=base['replies']))
    c.execute('INSERT INTO reviews (id, series_id, reply_id, created, findings,'
              ' nits, fixed, added, still) SELECT id + ?, series_id + ?,'
              ' reply_id + ?, created - ?, findings, nits, fixed, added, still'
              ' FROM reviews WHERE id <= ?',
              (orv, os_, orp, d, base['reviews']))
    if g % 10 == 0:
        print('scale_db: generation %d of %d, %.0f s' % (g, gens - 1,
              time.time() - t0), file=sys.stderr, flush=True)
t1 = time.time()
for _, sql in idx:
    c.execute(sql)
c.execute('COMMIT')
t2 = time.time()
bad = c.execute('PRAGMA foreign_key_check').fetchmany(5)
if bad:
    sys.exit('scale_db: foreign keys broken: %r' % (bad,))
t3 = time.time()
print('scale_db: %d generations: %d messages, %d series, %d patches, '
      '%d findings, %d reviews, %d replies; copy %.0f s, indexes %.0f s, '
      'foreign_key_check %.0f s' %
      (gens, one('SELECT count(*) FROM messages'), one('SELECT count(*) FROM series'),
       one('SELECT count(*) FROM patches'), one('SELECT count(*) FROM findings'),
       one('SELECT count(*) FROM reviews'), one('SELECT count(*) FROM replies'),
       t1 - t0, t2 - t1, t3 - t2))
c.execute('PRAGMA journal_mode = WAL')
c.close()

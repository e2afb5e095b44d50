#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# reviewbot serve's pages and API, and reviewbot query, on a decade of a
# busy list: the corpus imported BENCH_COPIES times by the real program
# (each patch as different authors' posts, through a list), then grown
# by tests/bench/scale_db.py (the rows copied under new ids, Message-IDs,
# authors and dates) to BENCH_PATCHES patches and BENCH_FINDINGS
# findings.  Measured: the database's size and the time to make it; each
# page and API endpoint alone (one client) and under load (BENCH_CLIENTS
# clients at once, BENCH_LOAD requests of each kind mixed, p50/p95 per
# kind, a kind slower than 1 s alone twice only), p50/p95 alone of
# BENCH_ALONE requests of each kind, pages deep in the history by key
# (after=) and past the end by number, and 40 next-page links followed
# from the first page of a few listings; reviewbot query
# with typical filters.  A measurement, not a
# test: it exits 0 whatever the figures.
#
# Env: CORPUS, REVIEWBOT, BENCH_COPIES (4), BENCH_PATCHES (200000),
# BENCH_FINDINGS (2000000), BENCH_CLIENTS (32), BENCH_LOAD (40), BENCH_ALONE (20),
# BENCH_THREADS ([web] threads, 2), BENCH_RAW (1: copy the raw mail too,
# as a real database holds it; 0: a smaller database).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
. "$repo/tests/lib.sh"
corpus=${CORPUS:-$repo/../shared/corpus}
rb=${REVIEWBOT:-$repo/reviewbot}
copies=${BENCH_COPIES:-4}
npatches=${BENCH_PATCHES:-200000}
nfindings=${BENCH_FINDINGS:-2000000}
clients=${BENCH_CLIENTS:-32}
load=${BENCH_LOAD:-40}
alone=${BENCH_ALONE:-20}
threads=${BENCH_THREADS:-2}
work=$repo/build/bench/serve
rm -rf "$work"
mkdir -p "$work"
export LC_ALL=C
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }

python3 - "$corpus/patches" "$copies" "$work/corpus.mbox" <<'PY'
import os, re, sys
src, copies, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
files = sorted(f for f in os.listdir(src) if f.endswith('.patch'))
with open(out, 'wb') as o:
    for k in range(copies):
        for i, f in enumerate(files):
            data = open(os.path.join(src, f), 'rb').read()
            if data.startswith(b'From '):
                data = data.split(b'\n', 1)[1]
            head = data.split(b'\n\n', 1)[0]
            # a week apart per copy: the chart has something to show
            hdr = b'Message-ID: <bench-%d-%d@reviewbot.invalid>\n' % (k, i)
            hdr += b'List-Id: <bench.lists.example.org>\n'
            hdr += b'Date: Mon, %02d Nov 2026 10:00:00 +0000\n' % (2 + (k % 4) * 7)
            data = re.sub(rb'(?m)^(From|Date): .*\n', b'', head) + b'\n\n' + \
                data.split(b'\n\n', 1)[1] if b'\n\n' in data else data
            hdr += b'From: Bench Author %d <author%d@example.org>\n' % (k, k)
            if not re.search(rb'(?m)^Subject: ', head):
                hdr += b'Subject: [PATCH] %s\n' % f.encode()
            body = re.sub(rb'(?m)^(>*From )', rb'>\1', data)
            o.write(b'From bench@example.org Mon Jan  1 00:00:00 2026\n' + hdr + body)
            if not body.endswith(b'\n'):
                o.write(b'\n')
            o.write(b'\n')
PY
cat >"$work/rb.conf" <<EOF
[bot]
	database = $work/reviewbot.db
	templates = $repo/templates
[web]
	threads = $threads
	max_connections = 256
	# the clients all come from 127.0.0.1
	max_per_address = 0
	timeout = 60
EOF
t0=$(now)
"$rb" import --config "$work/rb.conf" "$work/corpus.mbox" >"$work/import.log" 2>&1
t1=$(now)
echo "import: $(tail -1 "$work/import.log" | sed 's/^reviewbot import: //')"
raw=
[ "${BENCH_RAW:-1}" = 1 ] || raw=--no-raw
python3 "$repo/tests/bench/scale_db.py" $raw "$work/reviewbot.db" "$npatches" "$nfindings" \
	2>"$work/scale.log"
t2=$(now)
# what serve and query open: the schema at this program's version
"$rb" query --config "$work/rb.conf" --limit 1 >/dev/null
echo "database: $(du -m "$work/reviewbot.db" | cut -f1) MiB" \
	"(import $(secs "$t0" "$t1") s, growing $(secs "$t1" "$t2") s)"

"$rb" serve --config "$work/rb.conf" --listen 127.0.0.1:0 >"$work/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
port=$(serve_port "$work/serve.log" 100) || port=

# The URLs: each kind of page and endpoint, with messages, authors,
# files and series picked across the decade (not the few a cache keeps).
python3 - "$work/reviewbot.db" "$work/urls" <<'PY'
import random, sqlite3, sys, urllib.parse
c = sqlite3.connect('file:%s?mode=ro' % sys.argv[1], uri=True)
r = random.Random(24)
q = urllib.parse.quote
n = c.execute('SELECT max(id) FROM patches').fetchone()[0]
def pick(sql, k=8):
    out = []
    while len(out) < k:
        v = c.execute(sql, (r.randint(1, n),)).fetchone()
        if v and v[0]:
            out.append(v[0])
    return out
msgs = pick('SELECT m.message_id FROM patches p JOIN messages m ON m.id = p.msg_id'
            ' WHERE p.id = ?')
authors = pick('SELECT s.author_addr FROM patches p JOIN series s ON s.id = p.series_id'
               ' WHERE p.id = ?')
files = pick('SELECT f.file FROM findings f WHERE f.patch_id = ? AND f.file IS NOT NULL')
series = pick('SELECT series_id FROM patches WHERE id = ?')
# rows to page after: anywhere in the decade, and near its oldest end
fids = pick('SELECT min(f.id) FROM findings f WHERE f.patch_id = ?')
pids = [r.randint(1, n) for _ in range(8)]
sids = pick('SELECT series_id FROM patches WHERE id = ?')
oldest = [c.execute('SELECT min(id) + 3 FROM series').fetchone()[0]]
kinds = [
    ('front page /', ['/']),
    ('list page /l/LIST/', ['/l/bench.lists.example.org/']),
    ('patch page /m/MSGID/', ['/m/%s/' % q(m, safe='@') for m in msgs]),
    ('series page /s/ID/', ['/s/%d/' % s for s in series]),
    ('author page /a/ADDR/', ['/a/%s/' % q(a, safe='@') for a in authors]),
    ('file page /f/PATH', ['/f/%s' % q(f) for f in files]),
    ('dir page /f/drivers/', ['/f/drivers/']),
    ('search category:security', ['/search?q=category:security']),
    ('search file:drivers/* since:', ['/search?q=file:drivers/*%20since:2026-11-01']),
    ('search author:', ['/search?q=author:%s' % q(a, safe='@') for a in authors]),
    ('api findings', ['/api/v1/findings']),
    ('api findings limit=1000', ['/api/v1/findings?limit=1000']),
    ('api findings file=', ['/api/v1/findings?file=%s' % q(f) for f in files]),
    ('api patches', ['/api/v1/patches']),
    ('api patches author=', ['/api/v1/patches?author=%s' % q(a, safe='@') for a in authors]),
    ('api series category=uapi', ['/api/v1/series?category=uapi']),
    ('api reviews', ['/api/v1/reviews']),
    ('api versions series=', ['/api/v1/versions?series=%s' % q(m, safe='@') for m in msgs]),
    # deeper pages: by key (after=, the next-page links), anywhere in
    # the history; past the end by number (refused now)
    ('front page after=', ['/?after=%d' % s for s in sids]),
    ('front page after= (oldest)', ['/?after=%d' % s for s in oldest]),
    ('front page ?page=100000', ['/?page=100000']),
    ('front page ?page=10', ['/?page=10']),
    ('author page after=', ['/a/%s/?after=%d' % (q(a, safe='@'), s)
                            for a, s in zip(authors, sids)]),
    ('file page after=', ['/f/%s?after=%d' % (q(f), i) for f, i in zip(files, fids)]),
    ('dir page after=', ['/f/drivers/?after=%d' % i for i in fids]),
    ('dir page ?page=100000', ['/f/drivers/?page=100000']),
    ('search security after=', ['/search?q=category:security&after=%d' % i for i in fids]),
    ('search security ?page=100000', ['/search?q=category:security&page=100000']),
    ('api findings after=', ['/api/v1/findings?after=%d' % i for i in fids]),
    ('api findings offset=1000', ['/api/v1/findings?offset=1000']),
    ('api findings offset=100000000', ['/api/v1/findings?offset=100000000']),
    ('api patches after=', ['/api/v1/patches?after=%d' % i for i in pids]),
    ('api series after=', ['/api/v1/series?after=%d' % s for s in sids]),
    ('api reviews after=', ['/api/v1/reviews?after=%d' % s for s in sids]),
]
with open(sys.argv[2], 'w') as o:
    for k, us in kinds:
        for u in us:
            o.write('%s\t%s\n' % (k, u))
PY

# next-page links followed from the first page, 40 pages each; alone
# (one client, BENCH_ALONE requests of each kind over its URLs), then
# under load: BENCH_LOAD requests of every kind, shuffled,
# BENCH_CLIENTS at once, one connection each as browsers and scripts come
python3 - "http://127.0.0.1:$port" "$work/urls" "$clients" "$load" "$alone" <<'PY'
import collections, random, sys, threading, time, urllib.request
base, path, clients, load = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ALONE = int(sys.argv[5])
kinds = collections.OrderedDict()
for line in open(path):
    k, u = line.rstrip('\n').split('\t')
    kinds.setdefault(k, []).append(u)

def get(u):
    t = time.monotonic()
    try:
        with urllib.request.urlopen(base + u, timeout=300) as r:
            n, code = len(r.read()), r.status
    except urllib.error.HTTPError as e:
        n, code = len(e.read()), e.code
    except Exception:
        n, code = 0, 0
    return (time.monotonic() - t) * 1000, n, code

def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]

def follow(u, hops):
    """p50, p95 and max of hops pages, each the next link of the one before"""
    import html, json, re
    ms = []
    for _ in range(hops):
        t = time.monotonic()
        try:
            with urllib.request.urlopen(base + u, timeout=300) as r:
                body = r.read().decode('utf-8', 'replace')
        except Exception:
            break
        ms.append((time.monotonic() - t) * 1000)
        if u.startswith('/api/'):
            nxt = json.loads(body).get('next')
        else:
            m = re.search(r'<a href="([^"]*)">next page', body)
            nxt = html.unescape(m.group(1)) if m else None
        if not nxt:
            break
        u = nxt
    return ms

print('%-30s %9s %9s %9s %9s' % ('NEXT LINKS FOLLOWED', 'PAGES', 'P50_MS', 'P95_MS', 'MAX_MS'))
for start in ('/', '/f/drivers/', '/search?q=category:security', '/api/v1/findings',
              '/api/v1/series'):
    ms = follow(start, 40)
    print('%-30s %9d %9.1f %9.1f %9.1f' % (start[:30], len(ms), pct(ms, 50), pct(ms, 95),
                                          max(ms)))
sys.stdout.flush()

print('%-30s %9s %5s %9s %9s %9s' % ('ALONE (1 client)', 'BYTES', 'CODE', 'P50_MS',
                                     'P95_MS', 'MAX_MS'))
alone = {}
for k, us in kinds.items():
    res = [get(us[i % len(us)]) for i in range(ALONE)]
    ms = [r[0] for r in res]
    alone[k] = pct(ms, 50)
    print('%-30s %9d %5s %9.1f %9.1f %9.1f' % (k, max(r[1] for r in res),
          '/'.join(sorted({str(r[2]) for r in res})), pct(ms, 50), pct(ms, 95), max(ms)))
    sys.stdout.flush()

# a kind slower than a second alone gets SLOW requests under load, not
# BENCH_LOAD: enough to see it, without the run taking an hour
SLOW = 2
nreq = {k: load if alone[k] < 1000 else min(load, SLOW) for k in kinds}
work = [(k, us[i % len(us)]) for k, us in kinds.items() for i in range(nreq[k])]
random.Random(7).shuffle(work)
lock = threading.Lock()
out = collections.defaultdict(list)
codes = collections.Counter()
it = iter(work)
def client():
    while True:
        with lock:
            w = next(it, None)
        if w is None:
            return
        ms, n, code = get(w[1])
        with lock:
            out[w[0]].append(ms)
            codes[code] += 1
t0 = time.monotonic()
ts = [threading.Thread(target=client) for _ in range(clients)]
for t in ts:
    t.start()
for t in ts:
    t.join()
wall = time.monotonic() - t0
print('%-30s %5s %9s %9s %9s' % ('UNDER LOAD (%d clients)' % clients, 'N',
                                  'P50_MS', 'P95_MS', 'MAX_MS'))
for k in kinds:
    v = out[k]
    print('%-30s %5d %9.1f %9.1f %9.1f' % (k, len(v), pct(v, 50), pct(v, 95), max(v)))
print('load: %d requests in %.1f s (%.1f/s), answers %s' %
      (len(work), wall, len(work) / wall,
       ', '.join('%s: %d' % (c, n) for c, n in sorted(codes.items()))))
PY

# reviewbot query from the shell (each twice, the faster kept: the
# first may read the database from disk)
msg=$(sed -n 's|^patch page /m/MSGID/\t/m/\(.*\)/$|\1|p' "$work/urls" | head -1)
printf '%-52s %8s %9s\n' QUERY ROWS SECONDS
while IFS= read -r q; do
	best=
	for i in 1 2; do
		t0=$(now)
		eval "\"\$rb\" query --config \"\$work/rb.conf\" $q" >"$work/query.out" 2>&1 || true
		t1=$(now)
		t=$(secs "$t0" "$t1")
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
	done
	printf '%-52s %8d %9.2f\n' "${q:0:52}" "$(wc -l <"$work/query.out")" "$best"
done <<EOF
--limit 100
--author dev7@example.org
--category security --since 2026-01-01
--file 'drivers/net/*' --limit 1000
--type long_line,spacing --count-by author
--count-by author,type
--count-by week
--patches --author dev42@example.org
--series '$msg'
--versions '$msg'
--review '$msg'
EOF
kill $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
echo "serve: $(grep -c 'event=http-slow-client' "$work/serve.log" || true) slow-client cuts"
exit 0

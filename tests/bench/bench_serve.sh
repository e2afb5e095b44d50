#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# reviewbot serve's pages and API: size and time of each answer on a
# database of real patch mail (the corpus, each patch sent BENCH_COPIES
# times as different authors' posts, through a list), over
# BENCH_REQUESTS requests each (curl, one connection each, as browsers
# and scripts come); and many at once.  A measurement, not a test.
#
# Env: CORPUS, REVIEWBOT, BENCH_COPIES (default 10), BENCH_REQUESTS (20).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${CORPUS:-$repo/../shared/corpus}
rb=${REVIEWBOT:-$repo/reviewbot}
copies=${BENCH_COPIES:-10}
reqs=${BENCH_REQUESTS:-20}
work=$repo/build/bench/serve
rm -rf "$work"
mkdir -p "$work"
export LC_ALL=C

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
	threads = 2
EOF
t0=$(date +%s.%N)
"$rb" import --config "$work/rb.conf" "$work/corpus.mbox" >"$work/import.log" 2>&1
t1=$(date +%s.%N)
echo "database: $(tail -1 "$work/import.log" | sed 's/^reviewbot import: //')"
echo "import: $(echo "$t1 - $t0" | bc) s, $(du -k "$work/reviewbot.db" | cut -f1) KiB"

"$rb" serve --config "$work/rb.conf" --listen 127.0.0.1:0 >"$work/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for i in $(seq 1 50); do
	port=$(sed -n 's/.*event=listening .*port=\([0-9]*\).*/\1/p' "$work/serve.log")
	[ -n "$port" ] && break
	sleep 0.1
done
B=http://127.0.0.1:$port
msg=$(curl -s "$B/api/v1/patches?limit=1&offset=100" | python3 -c 'import json,sys; print(json.load(sys.stdin)["patches"][0]["message_id"])')
printf '%-46s %8s %8s %8s %8s\n' PAGE BYTES MEDIAN_MS P90_MS MAX_MS
for u in "/" "/m/$msg/" "/search?q=category:security" "/search?q=file:drivers/*%20since:2026-11-01" \
	"/a/author3@example.org/" "/f/drivers/" "/api/v1/findings" "/api/v1/findings?limit=1000" \
	"/api/v1/series?category=uapi" "/api/v1/reviews" "/api/v1/versions?series=$msg"; do
	for i in $(seq 1 "$reqs"); do
		curl -s -o /dev/null -w '%{size_download} %{time_total}\n' "$B$u"
	done | sort -k2 -n | awk -v u="$u" '{ b = $1; t[NR] = $2 * 1000 }
		END { printf "%-46s %8d %8.1f %8.1f %8.1f\n", substr(u, 1, 46), b,
		      t[int((NR + 1) / 2)], t[int(NR * 0.9)], t[NR] }'
done
# 200 front pages by 8 clients at once
t0=$(date +%s.%N)
seq 1 200 | xargs -P 8 -I{} curl -s -o /dev/null -w '%{http_code}\n' "$B/" >"$work/codes"
t1=$(date +%s.%N)
echo "200 front pages, 8 clients at once: $(echo "$t1 - $t0" | bc) s," \
	"$(grep -c '^200$' "$work/codes") answered 200"

#!/bin/bash
# make bench, part 2: `reviewbot import` throughput and peak RSS on an
# mbox of >= 5,000 real patch mails built from the corpus (each corpus
# patch sent ten times, as ten authors' posts with their own Message-IDs).
#
# Env: CORPUS, REVIEWBOT, BENCH_COPIES (default 10), BENCH_ROUNDS
# (imports, default 3: the median and the range are printed).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${CORPUS:-$repo/../shared/corpus}
rb=${REVIEWBOT:-$repo/reviewbot}
copies=${BENCH_COPIES:-10}
work=$repo/build/bench/import
rm -rf "$work"
mkdir -p "$work"
export LC_ALL=C

/usr/bin/python3 - "$corpus/patches" "$copies" "$work/corpus.mbox" <<'PY'
import os, re, sys
src, copies, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
files = sorted(f for f in os.listdir(src) if f.endswith('.patch'))
n = 0
with open(out, 'wb') as o:
    for k in range(copies):
        for i, f in enumerate(files):
            data = open(os.path.join(src, f), 'rb').read()
            # one mail per file: headers as git send-email writes them
            if data.startswith(b'From '):
                data = data.split(b'\n', 1)[1]
            hdr = b'Message-ID: <bench-%d-%d@reviewbot.invalid>\n' % (k, i)
            if not re.search(rb'(?m)^From: ', data.split(b'\n\n', 1)[0]):
                hdr += b'From: Bench Author %d <author%d@example.org>\n' % (k, k)
            if not re.search(rb'(?m)^Subject: ', data.split(b'\n\n', 1)[0]):
                hdr += b'Subject: [PATCH] %s\n' % f.encode()
            body = re.sub(rb'(?m)^(>*From )', rb'>\1', data)
            o.write(b'From bench@example.org Mon Jan  1 00:00:00 2026\n' + hdr + body)
            if not body.endswith(b'\n'):
                o.write(b'\n')
            o.write(b'\n')
            n += 1
print(n, file=sys.stderr)
PY

cat >"$work/bench.conf" <<CONF
[bot]
	address = reviewbot@example.org
	database = $work/bench.db
	templates = $repo/templates
CONF
mails=$(grep -c '^From bench@example.org ' "$work/corpus.mbox")
size=$(du -m "$work/corpus.mbox" | cut -f1)
# BENCH_ROUNDS imports, each into a new database: the median, and the
# range (a shared machine's speed varies from one minute to the next)
: >"$work/times"
for ((r = 0; r < ${BENCH_ROUNDS:-3}; r++)); do
	rm -f "$work"/bench.db*
	/usr/bin/time -f '%e %M' -o "$work/time" "$rb" import --config "$work/bench.conf" \
		"$work/corpus.mbox" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
	cat "$work/time" >>"$work/times"
done
patches=$("$rb" query --config "$work/bench.conf" --patches --json | wc -l)
python3 - "$mails" "$size" "$work/times" "$patches" <<'PY'
import statistics, sys
mails, size, patches = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[4])
runs = [tuple(map(float, l.split())) for l in open(sys.argv[3]) if l.strip()]
secs = sorted(r[0] for r in runs)
rss = max(r[1] for r in runs)
med = statistics.median(secs)
print(f"{'import (mbox of corpus mail)':<28} {mails} mails, {size} MB: median {med:.2f} s, "
      f"{mails / med:.0f} messages/s ({mails / secs[-1]:.0f}-{mails / secs[0]:.0f} over "
      f"{len(secs)} runs), peak RSS {rss / 1024:.1f} MiB, {patches} patches stored "
      f"(checked: {patches / med:.0f}/s)")
PY

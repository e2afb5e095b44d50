#!/bin/bash
# make bench: reviewbot check against checkpatch.pl, for each version it
# follows (reviewbot check --checkpatch-version=VER against checkpatch.pl
# VER), measured in the same run on the same inputs, printed as ratios.
#
#   per-patch   one process per corpus patch, as a developer runs it
#               (start-up included), total wall time of all patches; and
#               /bin/true started the same way: the machine's floor
#   one-call    all corpus patches in one invocation
#   peak RSS    the largest resident set of any one process
#   10 MB       one big synthetic patch (a new file of real driver code
#               repeated), and a 1 MB one, to show the cost stays linear
#   --extra     then reviewbot's own rules on top (check --extra --json),
#               against the last version's checkpatch.pl
#
# reviewbot uses the version's built-in data (its spelling.txt and
# const_structs.checkpatch, the files checkpatch.pl VER reads).
#
# Env: BENCH_ROUNDS (reviewbot rounds per measure, default 3; checkpatch.pl
# runs once per measure, it is the slow side), BENCH_VERSIONS (default
# "6.1 6.12"), CORPUS, REVIEWBOT.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${CORPUS:-$repo/../shared/corpus}
rb=${REVIEWBOT:-$repo/reviewbot}
rounds=${BENCH_ROUNDS:-3}
read -r -a versions <<<"${BENCH_VERSIONS:-6.1 6.12}"
work=$repo/build/bench
mkdir -p "$work"

mapfile -t patches < <(find "$corpus/patches" -maxdepth 1 -name '*.patch' | sort)
n=${#patches[@]}
export LC_ALL=C
# reviewbot's misspelling table image (bot/spell_cache.c) in a folder of
# the bench's own, warm after the first run, as on a developer's machine
export REVIEWBOT_CACHE_DIR=$work/cache
cd "$work"

now() { date +%s.%N; }
fsub() { python3 -c "print('%.3f' % ($1 - $2))"; }

# per_patch CMD...: wall seconds to run CMD PATCH for every patch
per_patch() {
	local t0 t1 p
	t0=$(now)
	for p in "${patches[@]}"; do
		"$@" "$p" >/dev/null 2>&1 || true
	done
	t1=$(now)
	fsub "$t1" "$t0"
}

one_call() {
	local t0 t1
	t0=$(now)
	"$@" "${patches[@]}" >/dev/null 2>&1 || true
	t1=$(now)
	fsub "$t1" "$t0"
}

# peak RSS (KiB) of the largest single process over the corpus
peak_rss() {
	local max=0 p r
	for p in "${patches[@]}"; do
		r=$(/usr/bin/time -f '%M' "$@" "$p" 2>&1 >/dev/null | tail -n 1)
		[ "$r" -gt "$max" ] && max=$r
	done
	echo "$max"
}

min_of() { printf '%s\n' "$@" | sort -g | head -n 1; }

# big synthetic patches: a new file made of real driver code
src=$(grep -l '^+++ b/drivers/.*\.c$' "${patches[@]}" | head -n 1)
mkbig() {
	local size=$1 out=$2 body=$work/body.c
	grep '^+' "$src" | grep -v '^+++' | sed 's/^+//' >"$body"
	{
		printf 'From: Bench <bench@example.org>\nSubject: [PATCH] big\n\nBig.\n\nSigned-off-by: Bench <bench@example.org>\n---\n'
		printf 'diff --git a/drivers/big/big.c b/drivers/big/big.c\nnew file mode 100644\n--- /dev/null\n+++ b/drivers/big/big.c\n'
		local lines=0 tmp=$work/big.body chunk=$work/big.chunk cs
		# the body repeated until the size is reached, as before, but
		# 64 KiB at a time first: the body may be a few hundred bytes,
		# and 16,000 cat+stat rounds took minutes on a loaded machine
		: >"$chunk"
		while [ "$(stat -c %s "$chunk")" -lt 65536 ]; do
			cat "$body" >>"$chunk"
		done
		cs=$(stat -c %s "$chunk")
		: >"$tmp"
		while [ $(($(stat -c %s "$tmp") + cs)) -le "$size" ]; do
			cat "$chunk" >>"$tmp"
		done
		while [ "$(stat -c %s "$tmp")" -lt "$size" ]; do
			cat "$body" >>"$tmp"
		done
		rm -f "$chunk"
		lines=$(wc -l <"$tmp")
		printf '@@ -0,0 +1,%d @@\n' "$lines"
		sed 's/^/+/' "$tmp"
	} >"$out"
}
mkbig 1000000 big1.patch
mkbig 10000000 big10.patch
t_one() { local t0 t1; t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now); fsub "$t1" "$t0"; }

echo "bench: $n corpus patches; checkpatch.pl once per measure, reviewbot best of $rounds"

# bench_version VER: every measure, checkpatch.pl VER against reviewbot
bench_version() {
	local ver=$1 cp data
	bash "$repo/tests/compat/extract-checkpatch.sh" "$ver" >/dev/null
	cp=$repo/build/kernel-$ver/scripts/checkpatch.pl
	data=(--checkpatch-version="$ver")
	echo
	echo "checkpatch.pl $ver (reviewbot check --checkpatch-version=$ver):"

	cp_pp=$(per_patch perl "$cp" --no-tree --show-types --color=never)
	rb_pp=()
	for _ in $(seq "$rounds"); do
		rb_pp+=("$(per_patch "$rb" check --no-tree --show-types --color=never "${data[@]}")")
	done
	rb_pp_min=$(min_of "${rb_pp[@]}")
	# the loop's own floor: a process that does nothing (/bin/true), started
	# the same way for every patch; no program's per-patch ratio can exceed
	# checkpatch.pl's time over this one on this machine
	floor_pp=$(per_patch /bin/true)

	cp_oc=$(one_call perl "$cp" --no-tree --show-types --color=never)
	rb_oc=()
	for _ in $(seq "$rounds"); do
		rb_oc+=("$(one_call "$rb" check --no-tree --show-types --color=never "${data[@]}")")
	done
	rb_oc_min=$(min_of "${rb_oc[@]}")

	cp_rss=$(peak_rss perl "$cp" --no-tree --show-types --color=never)
	rb_rss=$(peak_rss "$rb" check --no-tree --show-types --color=never "${data[@]}")

	cp_b1=$(t_one perl "$cp" --no-tree --show-types --color=never big1.patch)
	rb_b1=$(t_one "$rb" check --no-tree --show-types --color=never "${data[@]}" big1.patch)
	cp_b10=$(t_one perl "$cp" --no-tree --show-types --color=never big10.patch)
	rb_b10=$(t_one "$rb" check --no-tree --show-types --color=never "${data[@]}" big10.patch)
	rb_b10_rss=$(/usr/bin/time -f '%M' "$rb" check --no-tree "${data[@]}" big10.patch 2>&1 >/dev/null | tail -n 1)

	python3 - "$n" "$cp_pp" "$rb_pp_min" "$cp_oc" "$rb_oc_min" "$cp_rss" "$rb_rss" \
		"$cp_b1" "$rb_b1" "$cp_b10" "$rb_b10" "$rb_b10_rss" "$floor_pp" <<'PY'
import sys
n = int(sys.argv[1])
floor_pp = float(sys.argv[13])
cp_pp, rb_pp, cp_oc, rb_oc = map(float, sys.argv[2:6])
cp_rss, rb_rss = map(int, sys.argv[6:8])
cp_b1, rb_b1, cp_b10, rb_b10 = map(float, sys.argv[8:12])
rb_b10_rss = int(sys.argv[12])
def row(name, a, b, unit):
    r = a / b if b > 0 else float('inf')
    print(f"{name:<28} checkpatch.pl {a:>10.3f} {unit:<4} reviewbot {b:>10.3f} {unit:<4} ratio {r:>8.1f}x")
row("per patch, one process each", cp_pp / n * 1000, rb_pp / n * 1000, "ms")
print(f"{'  (start-up floor)':<28} /bin/true     {floor_pp / n * 1000:>10.3f} ms   "
      f"the most any program's ratio can be here: {cp_pp / floor_pp:.1f}x")
row("all patches, one call", cp_oc, rb_oc, "s")
row("peak RSS", cp_rss / 1024, rb_rss / 1024, "MiB")
row("1 MB patch", cp_b1, rb_b1, "s")
row("10 MB patch", cp_b10, rb_b10, "s")
print(f"{'linearity (10 MB / 1 MB)':<28} checkpatch.pl {cp_b10 / cp_b1:>10.1f}      reviewbot {rb_b10 / rb_b1:>10.1f}      (10.0 is linear)")
print(f"{'reviewbot 10 MB peak RSS':<28} {rb_b10_rss / 1024:.1f} MiB")
PY
}

for ver in "${versions[@]}"; do
	bench_version "$ver"
done

# reviewbot's own rules on top (--extra: the line rules and the C model
# of rv_code.c), against the last version's checkpatch.pl measured above
rb_x_oc=()
for _ in $(seq "$rounds"); do
	rb_x_oc+=("$(one_call "$rb" check --no-tree --extra --json)")
done
rb_x_oc_min=$(min_of "${rb_x_oc[@]}")
rb_x_b1=$(t_one "$rb" check --no-tree --extra --json big1.patch)
rb_x_b10=$(t_one "$rb" check --no-tree --extra --json big10.patch)
rb_x_rss=$(/usr/bin/time -f '%M' "$rb" check --no-tree --extra --json big10.patch 2>&1 >/dev/null | tail -n 1)
echo
echo "reviewbot's own rules too (check --extra --json), against checkpatch.pl ${versions[-1]}:"
python3 - "$cp_oc" "$rb_x_oc_min" "$cp_b1" "$rb_x_b1" "$cp_b10" "$rb_x_b10" "$rb_x_rss" "$rb_oc_min" <<'PY'
import sys
cp_oc, rb_oc, cp_b1, rb_b1, cp_b10, rb_b10 = map(float, sys.argv[1:7])
rss = int(sys.argv[7])
plain = float(sys.argv[8])
def row(name, a, b, unit):
    r = a / b if b > 0 else float('inf')
    print(f"{name:<28} checkpatch.pl {a:>10.3f} {unit:<4} reviewbot {b:>10.3f} {unit:<4} ratio {r:>8.1f}x")
row("all patches, one call", cp_oc, rb_oc, "s")
row("1 MB patch", cp_b1, rb_b1, "s")
row("10 MB patch", cp_b10, rb_b10, "s")
print(f"{'linearity (10 MB / 1 MB)':<28} reviewbot {rb_b10 / rb_b1:>10.1f}      (10.0 is linear)")
print(f"{'the own rules cost':<28} {rb_oc / plain:.1f}x plain check on the corpus; peak RSS {rss / 1024:.1f} MiB on 10 MB")
PY

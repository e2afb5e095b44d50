#!/bin/bash
# Compatibility score of `reviewbot check` against checkpatch.pl 6.1 on the
# shared patch corpus.
#
# Usage: tests/compat/run.sh [--strict] [--floor F] [--live] [--types-file FILE]
#                            [--jobs N] [--show TYPE]...
#   --strict      check with --strict (reference: checkpatch-6.1/strict/)
#   --floor F     fail (exit 1) when micro-F1 < F
#   --live        extract checkpatch.pl and run it too (build/compat/MODE/ref/),
#                 score against that, and count stored outputs that differ
#   --types-file  score only the types listed in FILE (passed to score.py)
#   --show TYPE   list missed/extra findings of TYPE (passed to score.py)
#   --jobs N      parallel jobs (default: nproc)
# Each patch is run as `CMD --no-tree --show-types --color=never [--strict] NAME.patch`
# from an empty temp folder (HOME set to it too) holding a symlink NAME.patch.
# Outputs: build/compat/MODE/ours/NAME.patch.out (stdout), .out.status (exit
# code), .err (stderr, only when non-empty); build/compat/MODE/score.json.
# Env: REVIEWBOT (command run as "ours", word-split; default REPO/reviewbot),
#      REVIEWBOT_SUBCMD (default "check"; default empty when REVIEWBOT names
#      checkpatch.pl), CORPUS (default REPO/../shared/corpus),
#      COMPAT_TIMEOUT (seconds per patch, default 60), COMPAT_OUT (output
#      folder, default REPO/build/compat).
# Exit status: score.py's (0 ok, 1 below floor or outputs missing), 2 usage.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${CORPUS:-$repo/../shared/corpus}
timeout_s=${COMPAT_TIMEOUT:-60}

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2
	exit 2
}

mode=default
strict_opt=()
live=0
jobs=$(nproc)
score_args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--strict) mode=strict; strict_opt=(--strict) ;;
	--floor) [ $# -ge 2 ] || usage; score_args+=(--floor "$2"); shift ;;
	--live) live=1 ;;
	--types-file) [ $# -ge 2 ] || usage; score_args+=(--types-file "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); shift ;;
	--show) [ $# -ge 2 ] || usage; score_args+=(--show "$2"); shift ;;
	--jobs) [ $# -ge 2 ] || usage; jobs=$2; shift ;;
	-h|--help) usage ;;
	*) echo "run.sh: unknown argument: $1" >&2; usage ;;
	esac
	shift
done

if [ ! -d "$corpus/patches" ]; then
	echo "run.sh: corpus not found at $corpus (set CORPUS=)" >&2
	exit 2
fi
corpus=$(cd "$corpus" && pwd)

# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"

reviewbot=${REVIEWBOT:-$repo/reviewbot}
case "$reviewbot" in
*checkpatch.pl*) subcmd=${REVIEWBOT_SUBCMD-} ;;
*) subcmd=${REVIEWBOT_SUBCMD-check} ;;
esac
mapfile -t ours_cmd < <(resolve_cmd "$reviewbot")
if [ -n "$subcmd" ]; then
	ours_cmd+=("$subcmd")
fi
if ! command -v "${ours_cmd[0]}" >/dev/null 2>&1; then
	echo "run.sh: ${ours_cmd[0]} not found: run make, or set REVIEWBOT=" >&2
	exit 2
fi
opts=(--no-tree --show-types --color=never "${strict_opt[@]}")

# run_one OUTDIR CMD... PATCH: run CMD NAME.patch in a temp folder.
# shellcheck disable=SC2317  # invoked through xargs
run_one() {
	local outdir=$1 patch=${!#} name tmp st=0
	shift
	local cmd=("${@:1:$#-1}")
	name=${patch##*/}
	tmp=$(mktemp -d)
	ln -s "$patch" "$tmp/$name"
	(cd "$tmp" && HOME="$tmp" exec timeout "$COMPAT_TIMEOUT" "${cmd[@]}" "$name") \
		>"$outdir/$name.out" 2>"$outdir/$name.err" || st=$?
	echo "$st" >"$outdir/$name.out.status"
	[ -s "$outdir/$name.err" ] || rm -f "$outdir/$name.err"
	rm -rf "$tmp"
}
export -f run_one
export COMPAT_TIMEOUT=$timeout_s
# one misspelling table image for all runs (each has a HOME of its own)
cache_dir=$(mktemp -d)
trap 'rm -rf "$cache_dir"' EXIT
export REVIEWBOT_CACHE_DIR=$cache_dir
unset GIT_DIR GIT_WORK_TREE
export LC_ALL=C

# run_all OUTDIR CMD...: every corpus patch, in parallel.
run_all() {
	local outdir=$1
	shift
	rm -rf "$outdir"
	mkdir -p "$outdir"
	find "$corpus/patches" -maxdepth 1 -name '*.patch' -print0 | sort -z |
		xargs -0 -n 1 -P "$jobs" bash -c 'run_one "$@"' run_one "$outdir" "$@"
}

npatches=$(find "$corpus/patches" -maxdepth 1 -name '*.patch' | wc -l)
base=${COMPAT_OUT:-$repo/build/compat}/$mode
ref=$corpus/checkpatch-6.1/$mode

if [ "$live" = 1 ]; then
	bash "$repo/tests/compat/extract-checkpatch.sh" "$repo/build/kernel"
	start=$(date +%s.%N)
	run_all "$base/ref" perl "$repo/build/kernel/scripts/checkpatch.pl" "${opts[@]}"
	end=$(date +%s.%N)
	printf 'ref:  checkpatch.pl on %d patches (%s) in %.1f s\n' "$npatches" "$mode" "$(python3 -c "print($end - $start)")"
	ndiff=0
	difflist=()
	for f in "$ref"/*.out; do
		n=${f##*/}
		if ! cmp -s "$f" "$base/ref/$n"; then
			ndiff=$((ndiff + 1))
			difflist+=("$n")
		fi
	done
	echo "stored vs live reference: $ndiff of $npatches outputs differ"
	for n in "${difflist[@]:0:10}"; do
		echo "  differs: $n (diff $ref/$n $base/ref/$n)"
	done
	ref=$base/ref
fi

# reviewbot reads checkpatch.pl's data files only when told to: give it the
# same ones the reference used, extracted from linux-source-6.1.
ours_opts=()
if [ -n "$subcmd" ]; then
	bash "$repo/tests/compat/extract-checkpatch.sh" "$repo/build/kernel" >/dev/null
	ours_opts=(--spelling-file="$repo/build/kernel/scripts/spelling.txt"
		--const-structs-file="$repo/build/kernel/scripts/const_structs.checkpatch")
fi

start=$(date +%s.%N)
run_all "$base/ours" "${ours_cmd[@]}" "${opts[@]}" "${ours_opts[@]}"
end=$(date +%s.%N)
printf 'ours: %s on %d patches (%s) in %.1f s\n' "${ours_cmd[*]}" "$npatches" "$mode" "$(python3 -c "print($end - $start)")"
nerr=$(find "$base/ours" -name '*.err' | wc -l)
if [ "$nerr" -gt 0 ]; then
	echo "ours: $nerr patches wrote to stderr (see $base/ours/*.err)"
fi

st=0
python3 "$repo/tests/compat/score.py" --json "$base/score.json" "${score_args[@]}" "$ref" "$base/ours" || st=$?
exit "$st"

#!/bin/bash
# Compatibility score of `reviewbot check --checkpatch-version=VER` against
# checkpatch.pl VER on the shared patch corpus.
#
# Usage: tests/compat/run.sh [--version VER] [--strict] [--floor F] [--live]
#                            [--types-file FILE] [--jobs N] [--show TYPE]...
#   --version VER the checkpatch.pl version (6.1, the default, or 6.12)
#   --strict      check with --strict
#   --floor F     fail (exit 1) when micro-F1 < F
#   --live        extract checkpatch.pl and run it too (build/compat/VER/MODE/ref/),
#                 score against that, and count stored outputs that differ
#   --types-file  score only the types listed in FILE (passed to score.py)
#   --show TYPE   list missed/extra findings of TYPE (passed to score.py)
#   --jobs N      parallel jobs (default: nproc)
# The reference is CORPUS/checkpatch-VER/MODE/ when the corpus has it (6.1),
# else checkpatch.pl VER run on the corpus once and kept in
# build/compat-ref/VER/MODE/ (run again when the script, its data files or
# the corpus change).
# Each patch is run as `CMD --no-tree --show-types --color=never [--strict] NAME.patch`
# from an empty temp folder (HOME set to it too) holding a symlink NAME.patch;
# ours with --checkpatch-version=VER (and the version's built-in data).
# Outputs: build/compat/VER/MODE/ours/NAME.patch.out (stdout), .out.status
# (exit code), .err (stderr, only when non-empty); build/compat/VER/MODE/score.json.
# Env: REVIEWBOT (command run as "ours", word-split; default REPO/reviewbot),
#      REVIEWBOT_SUBCMD (default "check"; default empty when REVIEWBOT names
#      checkpatch.pl), CORPUS (default REPO/../shared/corpus),
#      COMPAT_TIMEOUT (seconds per patch, default 60), REF_TIMEOUT (seconds per
#      patch for checkpatch.pl, default 900: a 10 MB patch takes it minutes on
#      a loaded machine), COMPAT_OUT (output folder, default REPO/build/compat).
# Exit status: score.py's (0 ok, 1 below floor or outputs missing), 2 usage.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${CORPUS:-$repo/../shared/corpus}
timeout_s=${COMPAT_TIMEOUT:-60}
ref_timeout=${REF_TIMEOUT:-900}

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2
	exit 2
}

mode=default
version=6.1
strict_opt=()
live=0
jobs=$(nproc)
score_args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--version) [ $# -ge 2 ] || usage; version=$2; shift ;;
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
base=${COMPAT_OUT:-$repo/build/compat}/$version/$mode
ref=$corpus/checkpatch-$version/$mode
kdir=$repo/build/kernel-$version
refcmd=(perl "$kdir/scripts/checkpatch.pl" "${opts[@]}")

# compare_stored DIR: how many stored reference outputs DIR differs in
compare_stored() {
	local ndiff=0 difflist=() f n
	for f in "$ref"/*.out; do
		n=${f##*/}
		if ! cmp -s "$f" "$1/$n"; then
			ndiff=$((ndiff + 1))
			difflist+=("$n")
		fi
	done
	echo "stored vs live reference: $ndiff of $npatches outputs differ"
	for n in "${difflist[@]:0:10}"; do
		echo "  differs: $n (diff $ref/$n $1/$n)"
	done
}

# run_ref DIR: checkpatch.pl VER on the corpus into DIR, timed
run_ref() {
	local start end
	bash "$repo/tests/compat/extract-checkpatch.sh" "$version" "$kdir"
	start=$(date +%s.%N)
	COMPAT_TIMEOUT=$ref_timeout run_all "$1" "${refcmd[@]}"
	end=$(date +%s.%N)
	printf 'ref:  checkpatch.pl %s on %d patches (%s) in %.1f s\n' "$version" "$npatches" "$mode" "$(python3 -c "print($end - $start)")"
}

if [ "$live" = 1 ]; then
	run_ref "$base/ref"
	if [ -d "$ref" ]; then
		compare_stored "$base/ref"
	fi
	ref=$base/ref
elif [ ! -d "$ref" ]; then
	# no stored reference for this version: checkpatch.pl's outputs, kept
	# while the script, its data and the corpus stay the same
	bash "$repo/tests/compat/extract-checkpatch.sh" "$version" "$kdir" >/dev/null
	cached=${COMPAT_REF:-$repo/build/compat-ref}/$version/$mode
	key=$( { sha256sum "$kdir"/scripts/checkpatch.pl "$kdir"/scripts/spelling.txt \
			"$kdir"/scripts/const_structs.checkpatch | cut -d' ' -f1
		echo "${opts[*]}"
		(cd "$corpus/patches" && find . -maxdepth 1 -name '*.patch' -printf '%f %s %T@\n' | sort)
	} | sha256sum | cut -d' ' -f1)
	if [ ! -f "$cached.key" ] || [ "$(cat "$cached.key")" != "$key" ]; then
		rm -f "$cached.key"
		run_ref "$cached"
		# kept only when every output is whole (124: timeout(1) ended it)
		if grep -qvx '[01]' "$cached"/*.out.status; then
			echo "ref: checkpatch.pl failed or timed out on: $(grep -lvx '[01]' "$cached"/*.out.status | sed 's|.*/||; s|\.out\.status$||' | tr '\n' ' ')(not kept)" >&2
		else
			echo "$key" >"$cached.key"
		fi
	fi
	ref=$cached
fi

ours_opts=()
if [ -n "$subcmd" ]; then
	ours_opts=(--checkpatch-version="$version")
fi

start=$(date +%s.%N)
run_all "$base/ours" "${ours_cmd[@]}" "${opts[@]}" "${ours_opts[@]}"
end=$(date +%s.%N)
printf 'ours: %s on %d patches (checkpatch.pl %s, %s) in %.1f s\n' "${ours_cmd[*]}" "$npatches" "$version" "$mode" "$(python3 -c "print($end - $start)")"
nerr=$(find "$base/ours" -name '*.err' | wc -l)
if [ "$nerr" -gt 0 ]; then
	echo "ours: $nerr patches wrote to stderr (see $base/ours/*.err)"
fi

st=0
python3 "$repo/tests/compat/score.py" --json "$base/score.json" "${score_args[@]}" "$ref" "$base/ours" || st=$?
exit "$st"

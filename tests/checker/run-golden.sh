#!/bin/bash
# Golden tests for `reviewbot check` against checkpatch.pl 6.1 output.
#
# Usage: tests/checker/run-golden.sh [CASE...]               run cases (default: all)
#        tests/checker/run-golden.sh --regen [CASE...]       rewrite expect + status
#                                                            with the real checkpatch.pl
#        tests/checker/run-golden.sh --verify-ref [CASE...]  check the real checkpatch.pl
#                                                            still prints each expect
# A case is a folder tests/checker/NNNN-name/ with
#   in.patch  the input
#   expect    checkpatch.pl 6.1's stdout, byte for byte
#   status    its exit code (written by --regen; if absent: 1 when expect has
#             any ERROR/WARNING/CHECK finding, else 0)
#   args      optional, one line, the full option list (word-split, no quoting);
#             default: --no-tree --show-types --color=never
# Each case runs in its own folder (so a .checkpatch.conf there applies) with
# HOME set to an empty temp folder, as  CMD $(cat args) in.patch.
# CASE is a folder name (0001-foo), its number prefix (0001) or a path.
# Env: REVIEWBOT (command, word-split; default REPO/reviewbot),
#      REVIEWBOT_SUBCMD (default "check"; default empty when REVIEWBOT names
#      checkpatch.pl), GOLDEN_DIR (default REPO/tests/checker),
#      GOLDEN_TIMEOUT (seconds per case, default 30).
# Output: "ok N - name" / "not ok N - name" (+ unified diff), then
# "N passed, N failed".  Exit status: 0 all passed, 1 any failed, 2 usage.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
golden=${GOLDEN_DIR:-$repo/tests/checker}
timeout_s=${GOLDEN_TIMEOUT:-30}
default_args="--no-tree --show-types --color=never"

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2
	exit 2
}

mode="test"
case "${1-}" in
--regen) mode=regen; shift ;;
--verify-ref) mode=verify; shift ;;
-h|--help) usage ;;
-*) echo "run-golden.sh: unknown option: $1" >&2; usage ;;
esac

# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"

if [ "$mode" = test ]; then
	reviewbot=${REVIEWBOT:-$repo/reviewbot}
	case "$reviewbot" in
	*checkpatch.pl*) subcmd=${REVIEWBOT_SUBCMD-} ;;
	*) subcmd=${REVIEWBOT_SUBCMD-check} ;;
	esac
	mapfile -t cmd < <(resolve_cmd "$reviewbot")
	if [ -n "$subcmd" ]; then
		cmd+=("$subcmd")
		# the data files checkpatch.pl reads, so both see the same words
		bash "$repo/tests/compat/extract-checkpatch.sh" "$repo/build/kernel" >/dev/null
		cmd+=(--spelling-file="$repo/build/kernel/scripts/spelling.txt"
			--const-structs-file="$repo/build/kernel/scripts/const_structs.checkpatch")
	fi
	if ! command -v "${cmd[0]}" >/dev/null 2>&1; then
		echo "run-golden.sh: ${cmd[0]} not found: run make, or set REVIEWBOT=" >&2
		exit 2
	fi
else
	bash "$repo/tests/compat/extract-checkpatch.sh" "$repo/build/kernel"
	cmd=(perl "$repo/build/kernel/scripts/checkpatch.pl")
fi

# Collect the cases.
cases=()
if [ $# -eq 0 ]; then
	for d in "$golden"/[0-9]*-*/; do
		[ -f "$d/in.patch" ] && cases+=("${d%/}")
	done
else
	for a in "$@"; do
		a=${a%/}
		if [ -f "$a/in.patch" ]; then
			cases+=("$(cd "$a" && pwd)")
		elif [ -f "$golden/$a/in.patch" ]; then
			cases+=("$golden/$a")
		else
			found=
			for d in "$golden/$a"-*/; do
				if [ -f "$d/in.patch" ]; then
					found=${d%/}
				fi
			done
			if [ -z "$found" ]; then
				echo "run-golden.sh: no such case: $a" >&2
				exit 2
			fi
			cases+=("$found")
		fi
	done
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/home"
unset GIT_DIR GIT_WORK_TREE
export LC_ALL=C

n=0
pass=0
fail=0
for c in "${cases[@]}"; do
	n=$((n + 1))
	name=${c##*/}
	# cases of reviewbot's own rules have no checkpatch.pl reference
	if [ "$mode" != test ] && [ -f "$c/note" ] && head -n 1 "$c/note" | grep -q '^# reviewbot-only'; then
		echo "ok $n - $name # skip reviewbot-only"
		pass=$((pass + 1))
		continue
	fi
	args=()
	if [ -f "$c/args" ]; then
		read -r -a args <"$c/args" || true
	else
		read -r -a args <<<"$default_args"
	fi
	st=0
	if [ -f "$c/stdin" ]; then
		# the case feeds in.patch on standard input, named "-"
		(cd "$c" && HOME="$tmp/home" exec timeout "$timeout_s" "${cmd[@]}" "${args[@]}" - <in.patch) \
			>"$tmp/out" 2>"$tmp/err" || st=$?
	else
		(cd "$c" && HOME="$tmp/home" exec timeout "$timeout_s" "${cmd[@]}" "${args[@]}" in.patch) \
			>"$tmp/out" 2>"$tmp/err" || st=$?
	fi

	if [ "$mode" = regen ]; then
		if [ "$st" -gt 1 ]; then
			echo "not ok $n - $name: checkpatch.pl exited $st"
			sed 's/^/# /' "$tmp/err"
			fail=$((fail + 1))
			continue
		fi
		cp "$tmp/out" "$c/expect"
		echo "$st" >"$c/status"
		echo "ok $n - $name (regenerated, status $st)"
		pass=$((pass + 1))
		continue
	fi

	if [ ! -f "$c/expect" ]; then
		echo "not ok $n - $name: no expect file (run --regen $name)"
		fail=$((fail + 1))
		continue
	fi
	if [ -f "$c/status" ]; then
		want=$(tr -d ' \n' <"$c/status")
	elif grep -Eq '(^|: )(ERROR|WARNING|CHECK):' "$c/expect"; then
		want=1
	else
		want=0
	fi
	if cmp -s "$c/expect" "$tmp/out" && [ "$st" = "$want" ]; then
		echo "ok $n - $name"
		pass=$((pass + 1))
	else
		echo "not ok $n - $name"
		if [ "$st" != "$want" ]; then
			echo "# exit status: expected $want, got $st"
		fi
		diff -u --label "$name/expect" --label "$name/actual" "$c/expect" "$tmp/out" || true
		if [ -s "$tmp/err" ]; then
			echo "# stderr:"
			head -n 20 "$tmp/err" | sed 's/^/# /'
		fi
		fail=$((fail + 1))
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

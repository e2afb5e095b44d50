#!/bin/bash
# Golden tests for `reviewbot check` against checkpatch.pl's output, for each
# checkpatch.pl version reviewbot follows (6.1, 6.12).
#
# Usage: tests/checker/run-golden.sh [--version VER] [CASE...]   run cases (default: all)
#        tests/checker/run-golden.sh --regen [--version VER] [CASE...]
#                            rewrite the expects with the real checkpatch.pl
#        tests/checker/run-golden.sh --verify-ref [--version VER] [CASE...]
#                            check the real checkpatch.pl still prints each expect
#        tests/checker/run-golden.sh --regen-own [--version VER] [CASE...]
#                            rewrite the expects of reviewbot-only cases with
#                            reviewbot itself (read every diff before committing)
# --version VER: that version only (default: every one).
# A case is a folder tests/checker/NNNN-name/ with
#   in.patch        the input
#   expect          checkpatch.pl 6.1's stdout, byte for byte
#   status          its exit code (written by --regen; if absent: 1 when expect has
#                   any ERROR/WARNING/CHECK finding, else 0)
#   expect-VER      checkpatch.pl VER's stdout, when it differs from expect
#   status-VER      ... and its exit code (--regen writes both, and removes
#                   them when VER prints what 6.1 prints)
#   args            optional, one line, the full option list (word-split, no quoting);
#                   default: --no-tree --show-types --color=never
#   note            optional; a first line "# reviewbot-only" marks a case of
#                   reviewbot's own rules, which checkpatch.pl cannot verify
# reviewbot runs each case once per version, with --checkpatch-version=VER
# (and the version's built-in data files); checkpatch.pl VER is extracted
# from linux-source-VER into build/kernel-VER.  Each case runs in its own
# folder (so a .checkpatch.conf there applies) with HOME set to an empty
# temp folder, as  CMD $(cat args) in.patch.
# CASE is a folder name (0001-foo), its number prefix (0001) or a path.
# Env: REVIEWBOT (command, word-split; default REPO/reviewbot),
#      REVIEWBOT_SUBCMD (default "check"; default empty when REVIEWBOT names
#      checkpatch.pl), GOLDEN_DIR (default REPO/tests/checker),
#      GOLDEN_TIMEOUT (seconds per case, default 30).
# Output: "ok N - name (VER)" / "not ok N - name (VER)" (+ unified diff), then
# "N passed, N failed".  Exit status: 0 all passed, 1 any failed, 2 usage.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
golden=${GOLDEN_DIR:-$repo/tests/checker}
timeout_s=${GOLDEN_TIMEOUT:-30}
default_args="--no-tree --show-types --color=never"
all_versions=(6.1 6.12)
base_version=6.1	# the version of expect and status

usage() {
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2
	exit 2
}

mode="test"
case "${1-}" in
--regen) mode=regen; shift ;;
--verify-ref) mode=verify; shift ;;
--regen-own) mode=own; shift ;;
-h|--help) usage ;;
esac
versions=("${all_versions[@]}")
if [ "${1-}" = --version ]; then
	[ $# -ge 2 ] || usage
	versions=("$2")
	shift 2
fi
case "${1-}" in
-*) echo "run-golden.sh: unknown option: $1" >&2; usage ;;
esac
for v in "${versions[@]}"; do
	case " ${all_versions[*]} " in
	*" $v "*) ;;
	*) echo "run-golden.sh: unknown version: $v (${all_versions[*]})" >&2; exit 2 ;;
	esac
done

# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"

subcmd=
if [ "$mode" = test ] || [ "$mode" = own ]; then
	reviewbot=${REVIEWBOT:-$repo/reviewbot}
	case "$reviewbot" in
	*checkpatch.pl*) subcmd=${REVIEWBOT_SUBCMD-} ;;
	*) subcmd=${REVIEWBOT_SUBCMD-check} ;;
	esac
	mapfile -t base_cmd < <(resolve_cmd "$reviewbot")
	if [ -n "$subcmd" ]; then
		base_cmd+=("$subcmd")
	fi
	if ! command -v "${base_cmd[0]}" >/dev/null 2>&1; then
		echo "run-golden.sh: ${base_cmd[0]} not found: run make, or set REVIEWBOT=" >&2
		exit 2
	fi
else
	for v in "${versions[@]}"; do
		bash "$repo/tests/compat/extract-checkpatch.sh" "$v"
	done
fi

# cmd_for VER: the command for version VER, in the array cmd
cmd_for() {
	if [ "$mode" = test ] || [ "$mode" = own ]; then
		cmd=("${base_cmd[@]}")
		if [ -n "$subcmd" ]; then
			cmd+=(--checkpatch-version="$1")
		fi
	else
		cmd=(perl "$repo/build/kernel-$1/scripts/checkpatch.pl")
	fi
}

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
	name=${c##*/}
	only=0
	if [ -f "$c/note" ] && head -n 1 "$c/note" | grep -q '^# reviewbot-only'; then
		only=1
	fi
	args=()
	if [ -f "$c/args" ]; then
		read -r -a args <"$c/args" || true
	else
		read -r -a args <<<"$default_args"
	fi
	for ver in "${versions[@]}"; do
		n=$((n + 1))
		# cases of reviewbot's own rules have no checkpatch.pl reference
		if [ "$mode" != test ] && [ "$mode" != own ] && [ "$only" = 1 ]; then
			echo "ok $n - $name ($ver) # skip reviewbot-only"
			pass=$((pass + 1))
			continue
		fi
		# and checkpatch.pl's cases are written by checkpatch.pl only
		if [ "$mode" = own ] && [ "$only" = 0 ]; then
			echo "ok $n - $name ($ver) # skip checkpatch.pl's"
			pass=$((pass + 1))
			continue
		fi
		if [ "$ver" = "$base_version" ]; then
			exp=$c/expect
			stf=$c/status
		else
			exp=$c/expect-$ver
			stf=$c/status-$ver
		fi
		cmd_for "$ver"
		st=0
		if [ -f "$c/stdin" ]; then
			# the case feeds in.patch on standard input, named "-"
			(cd "$c" && HOME="$tmp/home" exec timeout "$timeout_s" "${cmd[@]}" "${args[@]}" - <in.patch) \
				>"$tmp/out" 2>"$tmp/err" || st=$?
		else
			(cd "$c" && HOME="$tmp/home" exec timeout "$timeout_s" "${cmd[@]}" "${args[@]}" in.patch) \
				>"$tmp/out" 2>"$tmp/err" || st=$?
		fi

		if [ "$mode" = regen ] || [ "$mode" = own ]; then
			if [ "$st" -gt 1 ]; then
				echo "not ok $n - $name ($ver): checkpatch.pl exited $st"
				sed 's/^/# /' "$tmp/err"
				fail=$((fail + 1))
				continue
			fi
			if [ "$ver" != "$base_version" ] && cmp -s "$tmp/out" "$c/expect" &&
			   [ "$st" = "$(tr -d ' \n' <"$c/status" 2>/dev/null)" ]; then
				# as 6.1 prints it: no file of its own
				rm -f "$exp" "$stf"
				echo "ok $n - $name ($ver) (as $base_version, status $st)"
			else
				cp "$tmp/out" "$exp"
				echo "$st" >"$stf"
				echo "ok $n - $name ($ver) (regenerated, status $st)"
			fi
			pass=$((pass + 1))
			continue
		fi

		# a version without files of its own prints what 6.1 prints
		if [ ! -f "$exp" ]; then
			exp=$c/expect
			stf=$c/status
		fi
		if [ ! -f "$exp" ]; then
			echo "not ok $n - $name ($ver): no expect file (run --regen $name)"
			fail=$((fail + 1))
			continue
		fi
		if [ -f "$stf" ]; then
			want=$(tr -d ' \n' <"$stf")
		elif grep -Eq '(^|: )(ERROR|WARNING|CHECK):' "$exp"; then
			want=1
		else
			want=0
		fi
		if cmp -s "$exp" "$tmp/out" && [ "$st" = "$want" ]; then
			echo "ok $n - $name ($ver)"
			pass=$((pass + 1))
		else
			echo "not ok $n - $name ($ver)"
			if [ "$st" != "$want" ]; then
				echo "# exit status: expected $want, got $st"
			fi
			diff -u --label "$name/${exp##*/}" --label "$name/actual" "$exp" "$tmp/out" || true
			if [ -s "$tmp/err" ]; then
				echo "# stderr:"
				head -n 20 "$tmp/err" | sed 's/^/# /'
			fi
			fail=$((fail + 1))
		fi
	done
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

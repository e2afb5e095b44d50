#!/bin/bash
# Run a sanitizer build of reviewbot over every corpus patch.
#
# Usage: tests/sanitize/corpus.sh BINARY [EXTRA_OPTION...]
# Runs `BINARY check --no-tree --show-types [EXTRA_OPTION...] NAME.patch` for
# every patch (2 jobs in parallel, each in an empty temp folder holding a
# symlink NAME.patch) with
#   ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
#   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98
# A patch fails when the exit status is not 0 or 1, or stderr mentions
# "runtime error", "AddressSanitizer" or "LeakSanitizer"; its stderr is kept
# in build/sanitize/NAME.patch.err.
# Env: CORPUS (default REPO/../shared/corpus), SANITIZE_JOBS (default 2),
#      SANITIZE_TIMEOUT (seconds per patch, default 120).
# Output: one "FAIL NAME (status S)" line per failure, then "N passed, N failed".
# Exit status: 0 all passed, 1 any failed, 2 usage.
set -eu

repo=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${CORPUS:-$repo/../shared/corpus}

if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
	sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2
	exit 2
fi
bin=$1
shift
if [[ "$bin" == */* ]]; then
	bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
fi
if ! command -v "$bin" >/dev/null 2>&1; then
	echo "corpus.sh: $bin not found or not executable" >&2
	exit 2
fi
if [ ! -d "$corpus/patches" ]; then
	echo "corpus.sh: corpus not found at $corpus (set CORPUS=)" >&2
	exit 2
fi

logdir=$repo/build/sanitize
rm -rf "$logdir"
mkdir -p "$logdir"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98
export SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-120}
unset GIT_DIR GIT_WORK_TREE

# sanitize_one LOGDIR BIN OPTION... PATCH: prints "PASS NAME" or "FAIL NAME (...)".
# shellcheck disable=SC2317  # invoked through xargs
sanitize_one() {
	local logdir=$1 patch=${!#} name tmp st=0 why=
	shift
	local cmd=("${@:1:$#-1}")
	name=${patch##*/}
	tmp=$(mktemp -d)
	ln -s "$patch" "$tmp/$name"
	(cd "$tmp" && HOME="$tmp" exec timeout "$SANITIZE_TIMEOUT" "${cmd[@]}" "$name") \
		>/dev/null 2>"$tmp/err" || st=$?
	if [ "$st" -ne 0 ] && [ "$st" -ne 1 ]; then
		why="status $st"
	fi
	if grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' "$tmp/err"; then
		why="${why:+$why, }sanitizer report"
	fi
	if [ -n "$why" ]; then
		cp "$tmp/err" "$logdir/$name.err"
		echo "FAIL $name ($why)"
	else
		echo "PASS $name"
	fi
	rm -rf "$tmp"
}
export -f sanitize_one

results=$logdir/results
find "$corpus/patches" -maxdepth 1 -name '*.patch' -print0 | sort -z |
	xargs -0 -n 1 -P "${SANITIZE_JOBS:-2}" bash -c 'sanitize_one "$@"' sanitize_one \
		"$logdir" "$bin" check --no-tree --show-types "$@" >"$results"

pass=$(grep -c '^PASS ' "$results" || true)
fail=$(grep -c '^FAIL ' "$results" || true)
if [ "$fail" -gt 0 ]; then
	grep '^FAIL ' "$results" | sort
	echo "stderr of failing runs: $logdir/NAME.patch.err"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The libFuzzer targets' driver (Makefile: make fuzz, make fuzz-smoke).
#
#   tests/fuzz/run.sh seeds DIR                build DIR/seeds-NAME/ for every target
#   tests/fuzz/run.sh run DIR SECONDS NAME...  replay tests/fuzz/regress/NAME/, then
#                                              fuzz each NAME for SECONDS (or
#                                              FUZZ_RUNS executions, if first)
#   tests/fuzz/run.sh smoke DIR SECONDS NAME... the same from at most SMOKE_SEEDS
#                                              seeds each, keeping nothing
#
# DIR holds the binaries (DIR/fuzz_NAME).  Seeds come from ../shared/corpus
# (FUZZ_CORPUS overrides), tests/data/mail, tests/data/hostile, the golden
# patches and examples/; they are built at fuzz time, never committed.
# What a run finds new goes to DIR/corpus-NAME/ (kept between runs); a crash
# leaves DIR/crash-NAME-* and fails the run.  A smoke run starts from a
# sample of the seeds (the checker takes ~50 ms an input under ASan, so its
# 600 seeds alone would take a minute) and throws its finds away.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root" || exit 1

corpus=${FUZZ_CORPUS:-$root/../shared/corpus/patches}

# copy FILE... into DIR under their content hash (no duplicates, no names
# that say where they came from); PREFIX is a byte string put first
add_seeds() {
	local dir=$1 prefix=$2 f h
	shift 2
	for f in "$@"; do
		[ -f "$f" ] || continue
		h=$( { printf "$prefix"; cat "$f"; } | sha1sum | cut -c1-16)
		{ printf "$prefix"; cat "$f"; } >"$dir/$h"
	done
}

# one seed per line of stdin
add_lines() {
	local dir=$1 line h
	while IFS= read -r line; do
		h=$(printf '%s' "$line" | sha1sum | cut -c1-16)
		printf '%s' "$line" >"$dir/$h"
	done
}

seeds() {
	local out=$1 d n
	local mails=("$corpus"/* tests/data/mail/* tests/data/hostile/* \
		examples/*.patch examples/*.mbox)
	local patches=("$corpus"/* tests/checker/*/in.patch examples/*.patch)

	for n in mime diff subject config checker mbox command spelling query; do
		rm -rf "$out/seeds-$n"
		mkdir -p "$out/seeds-$n"
	done
	add_seeds "$out/seeds-mime" "" "${mails[@]}"
	add_seeds "$out/seeds-diff" "" "${patches[@]}"
	add_seeds "$out/seeds-checker" "" "${patches[@]}"
	# the first byte is the target's control byte: 0 = mboxrd from offset 0
	add_seeds "$out/seeds-mbox" '\0' tests/data/mail/*.mbox examples/*.mbox \
		tests/data/hostile/* "$corpus"/0*
	add_seeds "$out/seeds-config" "" examples/*.conf tests/fuzz/seeds/config/*
	add_seeds "$out/seeds-command" "" tests/fuzz/seeds/command/*
	# the first byte is the target's mode: 0 = a list (codespell's
	# dictionary in pieces, the bot's own test lists), 1 = damage to an image
	local dict=${CODESPELL_DICT:-/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt}
	if [ -f "$dict" ]; then
		rm -rf "$out/dict-pieces"
		mkdir -p "$out/dict-pieces"
		split -l 300 "$dict" "$out/dict-pieces/p"
		add_seeds "$out/seeds-spelling" '\0' "$out/dict-pieces"/p*
		rm -rf "$out/dict-pieces"
	fi
	printf '\0abandonned||abandoned\nteh->the\nTeh->The\n' >"$out/seeds-spelling/list-1"
	printf '\1\0\0\377\0\10\1' >"$out/seeds-spelling/damage-1"
	printf '\1\0\40\7\1\0\100\3' >"$out/seeds-spelling/damage-2"
	# every Subject: line seen, unfolded
	cat "${mails[@]}" 2>/dev/null | tr -d '\r' |
		sed -n '/^Subject: /{s/^Subject: //;p}' | sort -u | head -n 2000 |
		add_lines "$out/seeds-subject"
	add_lines "$out/seeds-subject" <tests/fuzz/seeds/subjects.txt
	# reviewbot serve and query by mail: the first byte picks the part,
	# 0 the query words, 1 a URL path, 2 HTML escaping
	local line h k
	while IFS= read -r line; do
		for k in 0 1 2; do
			h=$(printf '%s%s' "$k" "$line" | sha1sum | cut -c1-16)
			{ printf "\\$k"; printf '%s' "$line"; } >"$out/seeds-query/$h"
		done
	done <tests/fuzz/seeds/query.txt
	for n in mime diff subject config checker mbox command spelling query; do
		d=$(find "$out/seeds-$n" -type f | wc -l)
		[ "$d" -gt 0 ] || { echo "fuzz: no seeds for $n" >&2; exit 1; }
	done
}

SMOKE_SEEDS=${SMOKE_SEEDS:-100}

run() {
	local mode=$1 out=$2 secs=$3 fail=0 n bin dict regress log corpus seeds maxlen
	shift 3
	for n in "$@"; do
		bin=$out/fuzz_$n
		dict=()
		[ -f "tests/fuzz/$n.dict" ] && dict=(-dict="tests/fuzz/$n.dict")
		log=$out/fuzz-$n.log
		# the regression inputs first: each must pass
		regress=(tests/fuzz/regress/"$n"/*)
		if [ -e "${regress[0]}" ]; then
			if ! "$bin" -runs=1 "${regress[@]}" >"$log" 2>&1; then
				echo "fuzz $n: a regression input fails again (see $log)"
				tail -n 30 "$log"
				fail=1
				continue
			fi
			echo "fuzz $n: ${#regress[@]} regression inputs pass"
		fi
		corpus=$out/corpus-$n
		seeds=$out/seeds-$n
		if [ "$mode" = smoke ]; then
			corpus=$out/smoke-corpus-$n
			seeds=$out/smoke-seeds-$n
			rm -rf "$corpus" "$seeds"
			mkdir -p "$seeds"
			# an even sample, the same every time
			find "$out/seeds-$n" -type f | sort | awk -v m="$SMOKE_SEEDS" \
				'{ f[NR] = $0 } END { s = NR > m ? NR / m : 1;
				  for (i = 1; i <= NR; i += s) print f[int(i)] }' |
				xargs -r cp -t "$seeds"
		fi
		mkdir -p "$corpus"
		# the checker is ~100 times slower per byte: small inputs
		maxlen=1048576
		[ "$n" = checker ] && maxlen=32768
		if ! "$bin" -max_total_time="$secs" -runs="${FUZZ_RUNS:--1}" \
			-timeout=25 -rss_limit_mb=2560 \
			-max_len=$maxlen -print_final_stats=1 "${dict[@]}" \
			-artifact_prefix="$out/crash-$n-" \
			"$corpus" "$seeds" >"$log" 2>&1; then
			echo "fuzz $n: FAILED (see $log)"
			grep -A 30 '^==[0-9]*==ERROR\|runtime error\|deadly signal\|Timeout\|out-of-memory' \
				"$log" | head -n 40
			fail=1
			continue
		fi
		awk -v n="$n" '
			/stat::number_of_executed_units/ { runs = $2 }
			/stat::average_exec_per_sec/ { eps = $2 }
			/stat::new_units_added/ { nu = $2 }
			/Done [0-9]+ runs in/ { secs = $(NF - 1) }
			END { printf "fuzz %s: %d runs in %d s, %d exec/s, %d new units, no crash\n", n, runs, secs, eps, nu }' "$log"
		[ "$mode" = smoke ] && rm -rf "$corpus" "$seeds"
	done
	return $fail
}

case "${1:-}" in
seeds) seeds "$2" ;;
run|smoke) run "$@" ;;
*) echo "usage: $0 seeds DIR | run|smoke DIR SECONDS NAME..." >&2; exit 2 ;;
esac

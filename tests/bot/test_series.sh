#!/bin/bash
# Series assembly against Patchwork's series tests: each mbox of
# tests/series/ is imported into a fresh database and the series the bot
# made (covers+patches each, in the order they started) are compared with
# what Patchwork's test_series.py expects (tests/series/expect).  Prints
# the table (fixture, Patchwork's expectation, ours).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
dir=$repo/tests/series
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }

table="| fixture | Patchwork's expectation | ours | reviews | versions linked |
|---|---|---|---|---|"
while IFS=$'\t' read -r name want what; do
	case $name in ''|'#'*) continue ;; esac
	db=$tmp/$name.db
	cat >"$tmp/rb.conf" <<EOC
[bot]
	address = reviewbot@example.org
	database = $db
	templates = $repo/templates
	dry_run = true
EOC
	if ! "$rb" import --config "$tmp/rb.conf" "$dir/$name.mbox" >"$tmp/out" 2>"$tmp/err"; then
		bad "$name: import failed: $(tail -1 "$tmp/err")"
		continue
	fi
	got=$(sqlite3 "$db" "SELECT (s.cover_msg IS NOT NULL) || '+' ||
		(SELECT count(*) FROM patches p WHERE p.series_id = s.id)
		FROM series s ORDER BY s.id" | tr '\n' ' ')
	got=${got% }
	reviews=$(sqlite3 "$db" "SELECT count(*) FROM reviews")
	links=$(sqlite3 "$db" "SELECT group_concat(n, ', ') FROM (SELECT
		(SELECT count(*) FROM series x WHERE x.id <= s.id) || '->' ||
		(SELECT count(*) FROM series x WHERE x.id <= s.prev_id) AS n
		FROM series s WHERE s.prev_id IS NOT NULL ORDER BY s.id)")
	table="$table
| $name | $want | $got | $reviews | ${links:--} |"
	if [ "$got" = "$want" ]; then
		ok "$name: $want ($what)"
	else
		bad "$name: Patchwork $want, ours $got ($what)"
	fi
done <"$dir/expect"

echo "$table"
echo "series: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

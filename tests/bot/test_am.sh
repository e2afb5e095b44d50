#!/bin/bash
# What git am does with a mail, said in its review: a patch git am
# refuses as corrupt (a wrapped line, a hunk cut short), a '---' in the
# commit message that makes git am drop the sign-off, a last sign-off
# that is not the sender's (in `review` and in `run`, as `check` says).
# Each mail is first given to the real git am, so the test knows what it
# claims.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
data=$repo/tests/data/am
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C GIT_CONFIG_NOSYSTEM=1
unset REVIEWBOT_CONFIG
helper_dir=$(dirname "$rb")/libexec/reviewbot
[ -x "$helper_dir/reviewbot-mail" ] && export REVIEWBOT_EXEC_PATH=$helper_dir

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

if ! command -v git >/dev/null; then
	echo "am: git not found (deploy/install-deps.sh installs it)" >&2
	exit 1
fi
git init -q "$tmp/repo"
mkdir -p "$tmp/repo/drivers/misc"
printf 'static int acme_probe(struct platform_device *pdev)\n{\n\tstruct acme *acme = platform_get_drvdata(pdev);\n\n\treturn 0;\n}\n' \
	>"$tmp/repo/drivers/misc/acme.c"
git -C "$tmp/repo" add . && git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -qm base
base=$(git -C "$tmp/repo" rev-parse HEAD)
# am NAME: git am's exit status; the commit message it made in $tmp/log
am() {
	git -C "$tmp/repo" -c user.name=t -c user.email=t@t am -q "$data/$1.eml" >"$tmp/am" 2>&1
	local st=$?
	git -C "$tmp/repo" log -1 --format=%B >"$tmp/log"
	git -C "$tmp/repo" am --abort >/dev/null 2>&1
	rm -rf "$tmp/repo/.git/rebase-apply"
	git -C "$tmp/repo" reset -q --hard "$base"
	return $st
}
review() { "$rb" review "$data/$1.eml" >"$tmp/r" 2>"$tmp/err"; }

am clean
check "git am takes clean.eml with its sign-off" "grep -q '^Signed-off-by: Jane' '$tmp/log'"
review clean
check "... and its review finds nothing, so it would not be mailed" \
	"tr '\\n' ' ' <'$tmp/r' | grep -q 'found nothing to report' &&
	 grep -q 'not mailed: nothing in Security' '$tmp/err'"

for m in corrupt-wrapped corrupt-short; do
	am $m; st=$?
	check "git am refuses $m.eml as corrupt" "[ $st -ne 0 ] && grep -q 'corrupt patch' '$tmp/am'"
	review $m
	check "... and its review says so" \
		"tr '\\n' ' ' <'$tmp/r' | sed 's/  */ /g' | grep -q 'ERROR: the patch is corrupt: git am and git apply' &&
		 grep -q '(CORRUPTED_PATCH)' '$tmp/r'"
done

am dashes-in-log
check "git am drops the sign-off below a '---' in the log (dashes-in-log.eml)" \
	"grep -q 'Tested on the ACME board' '$tmp/log' && ! grep -q 'Signed-off-by' '$tmp/log'"
review dashes-in-log
check "... and its review says so" "grep -q '(COMMIT_LOG_CUT)' '$tmp/r'"
"$rb" check --extra --terse --show-types "$data/dashes-in-log.eml" >"$tmp/c"
"$rb" check --terse --show-types "$data/dashes-in-log.eml" >"$tmp/c0"
check "... as check --extra does, and plain check does not" \
	"grep -q 'COMMIT_LOG_CUT' '$tmp/c' && ! grep -q 'COMMIT_LOG_CUT' '$tmp/c0'"

review sob-not-sender
# one cause: the author's sign-off is missing, so the last is not the
# sender's either (said once, issue 35)
check "review: the last sign-off is not the sender's (sob-not-sender.eml)" \
	"tr '\\n' ' ' <'$tmp/r' | sed 's/  */ /g' |
	 grep -q '(NO_AUTHOR_SIGN_OFF, which also gives SIGN_OFF_NOT_SENDER)'"
mkdir -p "$tmp/db" "$tmp/list/new" "$tmp/list/cur" "$tmp/list/tmp"
cp "$data/sob-not-sender.eml" "$tmp/list/new/1.sob:2,"
cat >"$tmp/rb.conf" <<EOC
[bot]
	address = reviewbot@example.org
	database = $tmp/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "l"]
	type = maildir
	path = $tmp/list
	list = l@example.org
[delivery]
	type = maildir
	path = $tmp/outbox
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
EOC
"$rb" run --once --config "$tmp/rb.conf" >/dev/null 2>"$tmp/err"; st=$?
check "... and run's review says it too" \
	"[ $st -eq 0 ] && cat '$tmp/outbox/new'/* | tr '\\n' ' ' | sed 's/  */ /g' |
	 grep -q 'which also gives SIGN_OFF_NOT_SENDER)'"
# a git format-patch file names no sender: From: is the author there
sed '/^Message-ID:/d' "$data/sob-not-sender.eml" >"$tmp/fp.patch"
"$rb" review "$tmp/fp.patch" >"$tmp/r" 2>"$tmp/err"
check "... but not for a file without Message-ID (From: is the author)" \
	"grep -q '^Message-ID: ' '$tmp/r' && ! grep -q 'SIGN_OFF_NOT_SENDER' '$tmp/r'"

echo "am: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

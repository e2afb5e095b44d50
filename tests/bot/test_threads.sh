#!/bin/bash
# Thread shapes that decide how many reviews a posting gets: a v2 sent
# with --in-reply-to to v1's first patch, a versioned cover letter over
# unversioned patches, a cover letter whose patches never came or came
# late.  `reviewbot review` and `run --once` on a maildir.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
data=$repo/tests/data/threads
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG
helper_dir=$(dirname "$rb")/libexec/reviewbot
[ -x "$helper_dir/reviewbot-mail" ] && export REVIEWBOT_EXEC_PATH=$helper_dir

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
reviews() { grep -c '^Message-ID: ' "$1"; }

# git send-email --in-reply-to=<v1 1/2>, no cover letter: v1 and v2
"$rb" review "$data/v2-in-reply-to-v1-first-patch.mbox" >"$tmp/r" 2>"$tmp/err"; st=$?
check "v2 sent in reply to v1's first patch: two reviews (v1, v2)" \
	"[ $st -eq 0 ] && [ \$(reviews '$tmp/r') -eq 2 ]"
check "... v2's to v2 1/2, none to v2 2/2" \
	"grep -q '^In-Reply-To: <20261112101500.2002-1-jane@example.org>' '$tmp/r' &&
	 ! grep -q '^In-Reply-To: <20261112101500.2002-2-jane@example.org>' '$tmp/r'"
check "... compared with v1: both of v1's findings in 2/2 fixed" \
	"grep -q '^Since v1: 2 fixed, 0 new, 1 still there\.' '$tmp/r' &&
	 grep -q 'fixed: PRINTK_WITHOUT_KERN_LEVEL in drivers/misc/acme.c' '$tmp/r'"

# [PATCH net-next v3 0/2] over [PATCH 1/2] and [PATCH 2/2]
"$rb" review "$repo/tests/series/base-different-versions.mbox" >"$tmp/r" 2>"$tmp/err"; st=$?
check "v3 cover letter over unversioned patches: one review, to the cover letter" \
	"[ $st -eq 0 ] && [ \$(reviews '$tmp/r') -eq 1 ] &&
	 grep -q '^In-Reply-To: <1499968125-8150-1-git-send-email-stephenfinucane@gmail.com>' '$tmp/r'"

# a cover letter alone
sed -n '1,/^$/p;/^This is a sample/,/^2.7.4$/p' "$repo/tests/series/base-cover-letter.mbox" \
	| sed -n '1,/^2.7.4$/p' >"$tmp/cover.mbox"
"$rb" review "$tmp/cover.mbox" >"$tmp/r" 2>"$tmp/err"; st=$?
check "a cover letter alone is not reviewed" \
	"[ $st -eq 0 ] && [ ! -s '$tmp/r' ] && grep -q 'no patch to review' '$tmp/err'"

# run: the cover letter is put aside, its patches come in a later cycle
mkdir -p "$tmp/db" "$tmp/list/new" "$tmp/list/cur" "$tmp/list/tmp"
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
/usr/bin/python3 - "$repo/tests/series/base-cover-letter.mbox" "$tmp/list" 0 1 <<'PY'
import mailbox, sys
src = list(mailbox.mbox(sys.argv[1]))
dst = mailbox.Maildir(sys.argv[2], create=False)
for i in range(int(sys.argv[3]), int(sys.argv[4])):
    dst.add(mailbox.MaildirMessage(src[i]))
PY
"$rb" run --once --config "$tmp/rb.conf" >/dev/null 2>"$tmp/err"; st=$?
check "run: a cover letter without patches gets no review" \
	"[ $st -eq 0 ] && [ \$(ls '$tmp/outbox/new' 2>/dev/null | wc -l) -eq 0 ] &&
	 grep -q 'reason=\"a cover letter without patches\"' '$tmp/err'"
/usr/bin/python3 - "$repo/tests/series/base-cover-letter.mbox" "$tmp/list" 1 3 <<'PY'
import mailbox, sys
src = list(mailbox.mbox(sys.argv[1]))
dst = mailbox.Maildir(sys.argv[2], create=False)
for i in range(int(sys.argv[3]), int(sys.argv[4])):
    dst.add(mailbox.MaildirMessage(src[i]))
PY
"$rb" run --once --config "$tmp/rb.conf" >/dev/null 2>"$tmp/err"; st=$?
check "... its patches come later: one review, to the cover letter" \
	"[ $st -eq 0 ] && [ \$(ls '$tmp/outbox/new' | wc -l) -eq 1 ] &&
	 grep -q '^In-Reply-To: <1473632524-8585-1-git-send-email-stephenfinucane@gmail.com>' '$tmp/outbox/new'/*"

echo "threads: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

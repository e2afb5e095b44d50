#!/bin/bash
# A maintainer applies a reviewed patch with Debian's b4 (`b4 am -S`,
# trailers taken from every reply, whoever sent them): nothing of the
# bot's review may land in the commit.  The patch's subject ("[PATCH
# net-next v3] mailmap: map jane@old.example.org ...") used to wrap in the
# review's intro so that a line began "mailmap: map jane@...", which b4
# took for a trailer.  A reviewer's Reviewed-by: in the same thread shows
# that b4 does read the replies here.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
data=$repo/tests/data/b4
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C.UTF-8 GIT_CONFIG_NOSYSTEM=1
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

if ! command -v b4 >/dev/null || ! command -v git >/dev/null; then
	echo "b4: b4 or git not found (deploy/install-deps.sh installs them)" >&2
	exit 1
fi

"$rb" review "$data/mailmap.eml" >"$tmp/review.eml" 2>"$tmp/err"; st=$?
check "review of the mailmap patch" "[ $st -eq 0 ] && grep -q '^Message-ID: ' '$tmp/review.eml'"
check "... quotes its subject in the intro" "grep -q 'jane@old.example.org to her new address\"\.' '$tmp/review.eml'"
{
	for f in "$data/mailmap.eml" "$tmp/review.eml" "$data/reviewed-by.eml"; do
		echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
		sed 's/^\(>*From \)/>\1/' "$f"
		echo
	done
} >"$tmp/thread.mbox"

git init -q "$tmp/linux"
printf 'Alice Author <alice@example.com>\nZed Zero <zed@example.com>\n' >"$tmp/linux/.mailmap"
git -C "$tmp/linux" config user.name "Mai Ntainer"
git -C "$tmp/linux" config user.email maint@example.org
git -C "$tmp/linux" add .mailmap
git -C "$tmp/linux" commit -qm base
mkdir -p "$tmp/out"
(cd "$tmp/linux" && b4 -n --offline-mode am -S -C -m "$tmp/thread.mbox" -o "$tmp/out" \
	20261110090000.1-jane@example.org) >"$tmp/b4.out" 2>&1; st=$?
check "b4 am -S makes an mbox of the thread" "[ $st -eq 0 ] && ls '$tmp/out'/*.mbx >/dev/null 2>&1 ||
	{ cat '$tmp/b4.out'; false; }"
git -C "$tmp/linux" am -q "$tmp"/out/*.mbx >/dev/null 2>&1
git -C "$tmp/linux" log -1 --format=%B >"$tmp/msg"
check "... git am applies it" "grep -q '^mailmap: map jane@old.example.org to her new address$' '$tmp/msg'"
check "... with the reviewer's Reviewed-by: (b4 read the replies)" \
	"grep -q '^Reviewed-by: Rita Reviewer <rita@example.org>$' '$tmp/msg'"
# every line of the commit after its subject: the patch's own, or b4's
check "... and no line of the review" \
	"! grep -v -e '^mailmap: map jane@old.example.org to her new address$' -e '^$' \
	   -e '^Jane.s old address bounces; map it to the new one\.$' \
	   -e '^Signed-off-by: Jane Dev <jane@example.org>$' \
	   -e '^Reviewed-by: Rita Reviewer <rita@example.org>$' \
	   -e '^Link: ' -e '^Signed-off-by: Mai Ntainer <maint@example.org>$' '$tmp/msg' |
	 grep . || { cat '$tmp/msg'; false; }"

echo "b4: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

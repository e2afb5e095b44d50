#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The review's misspellings are checkpatch.pl's own scripts/spelling.txt
# ([checker] spelling = checkpatch, the default), not codespell's
# dictionary, whose kernel words (filp, parms, te) were more than half
# of the spelling warnings in reviews; codespell and a file of one's own
# on request; `reviewbot check` keeps checkpatch.pl's defaults.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

LIST=linux-leds@vger.kernel.org
mkdir -p "$tmp/list/new" "$tmp/list/cur" "$tmp/list/tmp"
# kernel words codespell takes for typos, and one real typo, in the
# commit message and on an added line
cat >"$tmp/list/new/0001.typo" <<MAIL
List-Id: <linux-leds.vger.kernel.org>
From: Jane Dev <jane@example.com>
To: $LIST
Subject: [PATCH] leds: x: read the brightness
Date: Mon, 02 Nov 2026 10:00:00 +0000
Message-ID: <typo1@example.com>

Take the brightness from the filp and its parms, and recieve it.

Signed-off-by: Jane Dev <jane@example.com>
---
diff --git a/drivers/leds/leds-x.c b/drivers/leds/leds-x.c
index 1111111..2222222 100644
--- a/drivers/leds/leds-x.c
+++ b/drivers/leds/leds-x.c
@@ -1,3 +1,6 @@
 int a;
 int b;
+/* the filp and its parms: te first */
+/* then recieve the value */
+int c;
 int d;
MAIL
conf() {	# conf FILE [checker section lines]
	cat >"$1" <<CONF
[bot]
	address = reviewbot@example.org
	database = $tmp/db-$(basename "$1").db
	templates = $repo/templates
	dry_run = true
[source "leds"]
	type = maildir
	path = $tmp/list
	list = $LIST
[delivery]
	type = maildir
	path = $tmp/outbox-$(basename "$1")
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
$2
CONF
}
# "N 'word' may be misspelled " for each word flagged, in order
typos() { grep -o "'[A-Za-z]*' may be misspelled" "$1" | sort | uniq -c | sed 's/^ *//' | tr '\n' ' '; }

# ---- the default: checkpatch.pl's list ---------------------------------------
conf "$tmp/default.conf" ""
"$rb" run --once --config "$tmp/default.conf" >"$tmp/run.out" 2>"$tmp/run.err"; st=$?
check "run --once with the default list exits 0" "[ $st -eq 0 ] || { cat '$tmp/run.err'; false; }"
cat "$tmp"/outbox-default.conf/new/* >"$tmp/review" 2>/dev/null
check "the review says 'recieve' (commit message and line 4), nothing of filp, parms or te" \
	"[ \"\$(typos '$tmp/review')\" = \"2 'recieve' may be misspelled \" ] &&
	 grep -q 'drivers/leds/leds-x.c:4: WARNING:' '$tmp/review'"
check "no warning about a missing list" "! grep -q no-spelling-list '$tmp/run.err'"

# ---- [build] tree: that kernel's scripts/spelling.txt comes first --------------
mkdir -p "$tmp/linux/scripts"
printf 'filp||file\n' >"$tmp/linux/scripts/spelling.txt"
conf "$tmp/tree.conf" "[build]
	tree = $tmp/linux"
"$rb" review --config "$tmp/tree.conf" "$tmp/list/new/0001.typo" >"$tmp/tree" 2>"$tmp/tree.err"; st=$?
check "with [build] tree, its scripts/spelling.txt is the list (filp only, no recieve)" \
	"[ $st -eq 0 ] && [ \"\$(typos '$tmp/tree')\" = \"2 'filp' may be misspelled \" ] || { cat '$tmp/tree.err'; false; }"

# ---- codespell, on request ------------------------------------------------------
conf "$tmp/codespell.conf" "[checker]
	spelling = codespell"
"$rb" review --config "$tmp/codespell.conf" "$tmp/list/new/0001.typo" >"$tmp/cs" 2>"$tmp/cs.err"; st=$?
check "spelling = codespell: filp, parms and te are flagged too" \
	"[ $st -eq 0 ] && [ \"\$(typos '$tmp/cs')\" = \"2 'filp' may be misspelled 2 'parms' may be misspelled 2 'recieve' may be misspelled 1 'te' may be misspelled \" ]"

# ---- a list of one's own, relative to the configuration -------------------------
printf 'flip||filp\nparms||params\n' >"$tmp/mine.txt"
conf "$tmp/mine.conf" "[checker]
	spelling = mine.txt"
"$rb" review --config "$tmp/mine.conf" "$tmp/list/new/0001.typo" >"$tmp/mine" 2>"$tmp/mine.err"; st=$?
check "spelling = FILE (relative to the configuration): that list only" \
	"[ $st -eq 0 ] && [ \"\$(typos '$tmp/mine')\" = \"2 'parms' may be misspelled \" ]"

# ---- a list that is not there: the review goes without, and the log says so ----
conf "$tmp/missing.conf" "[checker]
	spelling = /nonexistent/spelling.txt"
"$rb" review --config "$tmp/missing.conf" "$tmp/list/new/0001.typo" >"$tmp/miss" 2>"$tmp/miss.err"; st=$?
check "a missing list: a review without spelling findings, event=no-spelling-list logged" \
	"[ $st -eq 0 ] && ! grep -q TYPO_SPELLING '$tmp/miss' && grep -q 'event=no-spelling-list' '$tmp/miss.err'"

# ---- reviewbot check keeps checkpatch.pl's options and defaults ------------------
"$rb" check --no-tree "$tmp/list/new/0001.typo" >"$tmp/check" 2>&1
check "reviewbot check reads its checkpatch.pl's spelling.txt, as checkpatch.pl does (recieve, not filp)" \
	"[ \"\$(typos '$tmp/check')\" = \"2 'recieve' may be misspelled \" ]"
"$rb" check --no-tree --codespell "$tmp/list/new/0001.typo" >"$tmp/check3" 2>&1
check "... and codespell's dictionary with --codespell (filp flagged)" \
	"grep -q \"'filp' may be misspelled\" '$tmp/check3'"
# checkpatch.pl 6.12's own list, as the build extracted it
spelling=$repo/build/kernel-6.12/scripts/spelling.txt
"$rb" check --no-tree --spelling-file="$spelling" "$tmp/list/new/0001.typo" >"$tmp/check2" 2>&1
check "... and --spelling-file with checkpatch.pl's own list flags only recieve" \
	"[ \"\$(typos '$tmp/check2')\" = \"2 'recieve' may be misspelled \" ]"

echo "spelling: $pass passed, $fail failed"
[ $fail -eq 0 ]

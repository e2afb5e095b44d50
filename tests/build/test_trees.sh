#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The compile stage on git trees, with the kernel's own tools (issue 34):
# bare repositories made from Debian's linux-source-6.1 (tests/build/
# mktrees.sh, cached in build/trees), served by file:// and by a real git
# daemon on 127.0.0.1; the bot's work folder cached in build/trees.reviewbot.
#
#  1. the base: a series' base-commit:, its list's tree, the tree its
#     subject names ([PATCH net-next]), one that does not apply there,
#     a base-commit no tree has, and one pushed after the bot's last
#     fetch (fetched once more);
#  2. the tools: a series adds a warning for gcc W=1, sparse, gcc
#     -fanalyzer and coccinelle beside one of each its base already had:
#     the new ones are reported with the tool's words, the old never;
#     run by the daemon's worker, which is killed mid-build and started
#     again (the stage is taken again, nothing lost), while the daemon
#     answers a plain patch.
#
# Usage: tests/build/test_trees.sh   (REVIEWBOT=path, BUILD_DIR=build)
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
bdir=${BUILD_DIR:-$repo/build}
pass=0
fail=0
tmp=$(mktemp -d)
daemon_pid=
bot_pid=
cleanup() {
	[ -n "$bot_pid" ] && kill "$bot_pid" 2>/dev/null && wait "$bot_pid" 2>/dev/null
	[ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
chmod 755 "$tmp"	# the sandbox's user (nobody, when we are root) reaches into it
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

t0=$(date +%s)
if ! bash "$repo/tests/build/mktrees.sh" "$bdir"; then
	echo "not ok - the test trees could not be made"
	echo "0 passed, 1 failed"
	exit 1
fi
up=$bdir/trees/upstream.git
work=$bdir/trees.reviewbot
sha() { git --git-dir="$up" rev-parse "$1"; }
master=$(sha master)
hwmon=$(sha hwmon-next)
netnext=$(sha net-next)
net=$(sha net)

# What git daemon serves: a clone sharing the cached objects, so that this
# run may push to it (a commit made after the bot's first fetch)
mkdir -p "$tmp/serve"
git clone -q --bare -s "$up" "$tmp/serve/upstream.git"
git --git-dir="$tmp/serve/upstream.git" branch -q late master
chmod -R a+rX "$tmp/serve"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
git daemon --reuseaddr --listen=127.0.0.1 --port="$port" --base-path="$tmp/serve" \
	--export-all --informative-errors "$tmp/serve" >"$tmp/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 50); do
	git ls-remote "git://127.0.0.1:$port/upstream.git" >/dev/null 2>&1 && break
	sleep 0.2
done
check "git daemon serves the trees on 127.0.0.1:$port" \
	"git ls-remote git://127.0.0.1:$port/upstream.git | grep -q refs/heads/net-next"

# ---- mails ------------------------------------------------------------------

# mkmail FILE MSGID TO SUBJECT DIFF [TRAILER]
mkmail() {
	{
		printf 'From: Dana Dev <dana@example.org>\nTo: %s\nSubject: %s\n' "$3" "$4"
		printf 'Date: Thu, 3 Dec 2026 10:00:00 +0000\nMessage-ID: <%s@example.org>\n' "$2"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n\n'
		printf 'A change for the compile stage'"'"'s tests.\n\n'
		printf 'Signed-off-by: Dana Dev <dana@example.org>\n---\n'
		cat "$5"
		[ -n "${6:-}" ] && printf '\n%s\n' "$6"
		printf -- '-- \n2.39.5\n'
	} >"$1"
}
# mkdiff OUT REV PATH SED: the diff of PATH at REV after sed SED
mkdiff() {
	mkdir -p "$tmp/d/a/$(dirname "$3")" "$tmp/d/b/$(dirname "$3")"
	git --git-dir="$up" show "$2:$3" >"$tmp/d/a/$3"
	sed -e "$4" "$tmp/d/a/$3" >"$tmp/d/b/$3"
	{
		echo "diff --git a/$3 b/$3"
		(cd "$tmp/d" && diff -u --label "a/$3" --label "b/$3" "a/$3" "b/$3")
	} >"$1"
	rm -rf "$tmp/d"
}
newbox() { mkdir -p "$tmp/$1/new" "$tmp/$1/cur" "$tmp/$1/tmp"; }

mkdiff "$tmp/next.diff" net-next drivers/net/dummy.c 's|#define DRV_NEXT\t1\t/\* net-next only \*/|#define DRV_NEXT\t2\t/* net-next only */|'
mkdiff "$tmp/hwmon.diff" hwmon-next drivers/misc/dummy-irq.c 's|^static int rb_base_unused(int x)$|static int rb_base_unused(int x)\t/* kept */|'
mkdiff "$tmp/master.diff" master drivers/misc/dummy-irq.c 's|^static int irq = -1;$|static int irq = -1;\t/* none */|'
newbox list1
mkmail "$tmp/list1/new/1" trees-base-commit-1 linux-kernel@vger.kernel.org \
	"[PATCH] net: dummy: bump the net-next line" "$tmp/next.diff" "base-commit: $netnext"
mkmail "$tmp/list1/new/2" trees-list-1 linux-hwmon@vger.kernel.org \
	"[PATCH] misc: dummy-irq: a comment" "$tmp/hwmon.diff"
mkmail "$tmp/list1/new/3" trees-prefix-1 netdev@vger.kernel.org \
	"[PATCH net-next] net: dummy: bump the line again" "$tmp/next.diff"
mkmail "$tmp/list1/new/4" trees-noapply-1 netdev@vger.kernel.org \
	"[PATCH net] net: dummy: bump a line net does not have" "$tmp/next.diff"
mkmail "$tmp/list1/new/5" trees-unknown-base-1 linux-kernel@vger.kernel.org \
	"[PATCH] misc: dummy-irq: say there is none" "$tmp/master.diff" \
	"base-commit: 0123456789abcdef0123456789abcdef01234567"

conf() {	# conf FILE BOX OUTBOX TOOLS [EXTRA]
	cat >"$1" <<EOF
[bot]
	address = reviewbot@example.org
	database = $tmp/db/$2.db
	templates = $repo/templates
	dry_run = true
[source "lists"]
	type = maildir
	path = $tmp/$2
	poll_interval = 1
[delivery]
	type = maildir
	path = $tmp/$3
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
	max_replies_per_hour = 0
	review_clean = true	# the compile stage's lines are what is read here
	${5:-}
[build]
	work = $work
	jobs = 2
	timeout = 1200
	tools = $4
[tree "linux"]
	url = file://$up
	branch = master
	lists = linux-kernel@vger.kernel.org
	fetch_interval = 1
[tree "hwmon-next"]
	url = git://127.0.0.1:$port/upstream.git
	branch = hwmon-next
	lists = linux-hwmon@vger.kernel.org
	fetch_interval = 1
[tree "net"]
	url = git://127.0.0.1:$port/upstream.git
	branch = net
	lists = netdev@vger.kernel.org
	fetch_interval = 1
[tree "net-next"]
	url = git://127.0.0.1:$port/upstream.git
	branch = net-next
	lists = netdev@vger.kernel.org
	fetch_interval = 1
[tree "late"]
	url = git://127.0.0.1:$port/upstream.git
	branch = late
	fetch_interval = 3600
EOF
}
mkdir -p "$tmp/db"
conf "$tmp/rb1.conf" list1 outbox1 gcc
"$rb" run -n --config "$tmp/rb1.conf" >"$tmp/out" 2>&1
check "run -n accepts [tree] sections" "grep -qx 'configuration OK' '$tmp/out' || { cat '$tmp/out'; false; }"

# ---- 1. the base ----------------------------------------------------------------
t1=$(date +%s)
"$rb" run --once --config "$tmp/rb1.conf" >"$tmp/out1" 2>"$tmp/err1"; st=$?
t2=$(date +%s)
check "run --once exits 0" "[ $st -eq 0 ] || { tail -20 '$tmp/err1'; false; }"
check "five reviews" "[ \$(ls '$tmp/outbox1/new' | wc -l) -eq 5 ]"

/usr/bin/python3 - "$tmp/outbox1" "$master" "$hwmon" "$netnext" "$net" >"$tmp/py1" 2>&1 <<'PY'
import email, email.policy, mailbox, re, sys
box = mailbox.Maildir(sys.argv[1], create=False)
master, hwmon, netnext, net = (s[:12] for s in sys.argv[2:6])
by = {}
for k in box.keys():
    m = email.message_from_bytes(box.get_bytes(k), policy=email.policy.default)
    by[m['In-Reply-To'].strip('<>').split('@')[0]] = m.get_content()
def compiles(body):
    i = body.find('compiles:')
    j = body.find('seems to work:', i)
    return ' '.join(body[i:j].split())
def expect(key, want, *more):
    b = by[key]
    c = compiles(b)
    assert re.search(want, c), (key, c)
    for m in more:
        assert re.search(m, b), (key, m, b)
expect('trees-base-commit-1', r'compiles: ok on net-next at %s \(allmodconfig, gcc [0-9.]+, W=1\)' % netnext,
       r'applied with git am -3 to net-next at %s \(its base-commit\)' % netnext,
       r'tree: git://127\.0\.0\.1:\d+/upstream\.git, branch net-next, commit ' + netnext,
       r'make O=obj W=1 drivers/net/dummy\.o drivers/net/dummy\.ko')
expect('trees-list-1', r'compiles: ok on hwmon-next at %s' % hwmon,
       r"\(its list's tree\)", r'1 diagnostic in the files it touches was there before')
assert "rb_base_unused' defined but not used" not in by['trees-list-1']
expect('trees-prefix-1', r'compiles: ok on net-next at %s' % netnext,
       r'\(the tree its subject names\)')
expect('trees-noapply-1', r'compiles: not checked \(does not apply to net net at %s: patch 1, '
       r'drivers/net/dummy\.c hunk 1 \(line 4\d\)\)' % net)
expect('trees-unknown-base-1', r'compiles: ok on linux at %s \(.*; its base-commit is in no tree\)' % master,
       r'Its base-commit 0123456789abcdef0123456789abcdef01234567 is in no tree the bot fetches',
       r'tree: a local repository, branch master')
for k, b in by.items():
    assert 'COMPILE_' not in b, (k, b)
    assert '/w/' not in b and '/tmp/' not in b and 'trees.reviewbot' not in b, (k, b)
print('mails ok')
PY
check "base-commit: net-next's; the list's tree; the subject's tree; not applying where the subject says, with file and hunk; a base-commit no tree has" \
	"grep -qx 'mails ok' '$tmp/py1' || { cat '$tmp/py1'; false; }"
check "the trees were fetched over file:// and git://" \
	"grep 'event=tree-fetched' '$tmp/err1' | grep -q 'tree=linux' && grep 'event=tree-fetched' '$tmp/err1' | grep -q 'tree=net-next'"
# between the start of that series' stage and its result: "late"
# (fetch_interval 3600, so not due) fetched all the same
awk '/event=stage-start series="misc: dummy-irq: say there is none"/ {on = 1}
     on && /event=tree-fetched tree=late/ {print "fetched"}
     on && /event=compile-test series="misc: dummy-irq: say there is none"/ {on = 0}' \
	"$tmp/err1" >"$tmp/late1"
check "the unknown base-commit made one more fetch of every tree first" "grep -q fetched '$tmp/late1'"

# a commit pushed to a tree after the bot fetched it: its base-commit is
# not there, the trees are fetched once more, and there it is
latetree=$(git --git-dir="$tmp/serve/upstream.git" rev-parse "master^{tree}")
late=$(echo "late commit $$ $(date +%s%N)" | GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.org \
	GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@example.org \
	git --git-dir="$tmp/serve/upstream.git" commit-tree "$latetree" -p "$master")
git --git-dir="$tmp/serve/upstream.git" update-ref refs/heads/late "$late"
chmod -R a+rX "$tmp/serve"
newbox list2
mkmail "$tmp/list2/new/1" trees-late-1 somebody@example.org \
	"[PATCH] misc: dummy-irq: on the late commit" "$tmp/master.diff" "base-commit: $late"
conf "$tmp/rb2.conf" list2 outbox2 gcc
"$rb" run --once --config "$tmp/rb2.conf" >"$tmp/out2" 2>"$tmp/err2"; st=$?
check "a base-commit pushed after the last fetch: fetched once more, applied there" \
	"[ $st -eq 0 ] && tr -s ' \n' '  ' <\"\$(ls '$tmp/outbox2/new'/* | head -1)\" | grep -q 'compiles: ok on late at ${late:0:12}' &&
	 grep -q 'event=tree-fetched tree=late branch=late commit=$late' '$tmp/err2' || { tail -5 '$tmp/err2'; cat '$tmp/outbox2/new'/* 2>/dev/null | tail -30; false; }"
t3=$(date +%s)

# ---- 2. the tools, in the daemon's worker ------------------------------------------
# The series puts its new code before the base's (its lines all move):
# each tool's new warning is reported, the base's never.
cat >"$tmp/new.c" <<'EOF'

static int rb_new_unused(int x)
{
	return x + 1;
}

int rb_new_user(int __user *up);
int rb_new_user(int __user *up)
{
	return up[1];
}

int rb_new_null(int x);
int rb_new_null(int x)
{
	struct rb_base_s *t = NULL;

	if (x > 5)
		t = kzalloc(sizeof(*t), GFP_KERNEL);
	return t->a;
}

int rb_new_cocci(int x);
int rb_new_cocci(int x)
{
	char *p = kzalloc(32, GFP_KERNEL);

	kfree(p);
	return p[x];
}
EOF
mkdir -p "$tmp/d/a/drivers/misc" "$tmp/d/b/drivers/misc"
git --git-dir="$up" show hwmon-next:drivers/misc/dummy-irq.c >"$tmp/d/a/drivers/misc/dummy-irq.c"
/usr/bin/python3 - "$tmp/d/a/drivers/misc/dummy-irq.c" "$tmp/new.c" "$tmp/d/b/drivers/misc/dummy-irq.c" <<'PY'
import sys
src = open(sys.argv[1]).read()
new = open(sys.argv[2]).read()
at = src.index('};\n', src.index('struct rb_base_s {')) + 3
open(sys.argv[3], 'w').write(src[:at] + new + src[at:])
PY
{
	echo "diff --git a/drivers/misc/dummy-irq.c b/drivers/misc/dummy-irq.c"
	(cd "$tmp/d" && diff -u --label a/drivers/misc/dummy-irq.c --label b/drivers/misc/dummy-irq.c \
		a/drivers/misc/dummy-irq.c b/drivers/misc/dummy-irq.c)
} >"$tmp/tools.diff"
newbox list3
mkmail "$tmp/tools.mail" trees-tools-1 linux-hwmon@vger.kernel.org \
	"[PATCH] misc: dummy-irq: helpers for each tool" "$tmp/tools.diff"
printf 'diff --git a/Documentation/dummy.txt b/Documentation/dummy.txt\nnew file mode 100644\n--- /dev/null\n+++ b/Documentation/dummy.txt\n@@ -0,0 +1 @@\n+The dummy IRQ driver.\n' >"$tmp/doc.diff"
mkmail "$tmp/plain.mail" trees-plain-1 linux-kernel@vger.kernel.org \
	"[PATCH] Documentation: say what dummy-irq is" "$tmp/doc.diff"
conf "$tmp/rb3.conf" list3 outbox3 "gcc sparse analyzer coccinelle" "stage_wait = 2"
sed -i 's|^\ttools = gcc sparse analyzer coccinelle|&\n\tworkers = 1|' "$tmp/rb3.conf"
"$rb" run --config "$tmp/rb3.conf" >"$tmp/out3" 2>"$tmp/err3" &
bot_pid=$!
waitfor() {	# waitfor SECONDS COMMAND
	local i
	for i in $(seq $(($1 * 5))); do
		eval "$2" && return 0
		kill -0 "$bot_pid" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}
check "the daemon starts its worker" "waitfor 30 \"grep -q 'event=worker-started' '$tmp/err3'\""
cp "$tmp/tools.mail" "$tmp/list3/new/tools"
check "the worker takes the series' compile stage" \
	"waitfor 120 \"grep -q 'event=stage-start series=\\\"misc: dummy-irq: helpers' '$tmp/err3'\""
# the worker killed in the middle of the build
sleep 4
wpid=$(grep 'event=worker-started' "$tmp/err3" | head -1 | sed 's/.*pid=\([0-9]*\).*/\1/')
kill -9 "$wpid" 2>/dev/null
check "a killed worker is seen dead and started again" \
	"waitfor 60 \"grep -q 'event=worker-died slot=0 status=\\\"signal 9\\\"' '$tmp/err3' && [ \\\$(grep -c 'event=worker-started' '$tmp/err3') -ge 2 ]\""
check "its stage is taken again (nothing lost)" \
	"waitfor 60 \"grep -q 'event=stage-taken-over' '$tmp/err3'\""
# while the build runs, a plain patch is answered
cp "$tmp/plain.mail" "$tmp/list3/new/plain"
check "the daemon answers a plain patch while the build runs" \
	"waitfor 60 \"grep -q 'In-Reply-To: <trees-plain-1@example.org>' '$tmp/outbox3/new'/* 2>/dev/null\" &&
	 ! grep -q 'event=compile-test series=\"misc: dummy-irq: helpers' '$tmp/err3'"
check "the series' review went after stage_wait, compiles pending" \
	"waitfor 60 \"grep -l 'In-Reply-To: <trees-tools-1@example.org>' '$tmp/outbox3/new'/* >/dev/null 2>&1\" &&
	 grep -l 'In-Reply-To: <trees-tools-1@example.org>' '$tmp/outbox3/new'/* | xargs grep -q 'pending'"
check "the compile stage ends, its results follow in a reply" \
	"waitfor 900 \"grep -q 'event=followup msgid=trees-tools-1@example.org' '$tmp/err3'\""
kill -TERM "$bot_pid"
wait "$bot_pid"; st=$?
bot_pid=
check "the daemon stops on SIGTERM, with its worker" \
	"[ $st -eq 0 ] && grep -q 'event=worker-stop' '$tmp/err3' && ! pgrep -f 'reviewbot-mail worker --config $tmp/rb3.conf' >/dev/null"
t4=$(date +%s)

/usr/bin/python3 - "$tmp/outbox3" "$hwmon" >"$tmp/py3" 2>&1 <<'PY'
import email, email.policy, mailbox, re, sys
box = mailbox.Maildir(sys.argv[1], create=False)
fu = None
for k in box.keys():
    m = email.message_from_bytes(box.get_bytes(k), policy=email.policy.default)
    b = m.get_content()
    if 'have' in b and 'finished since the review above' in b:
        fu = b
assert fu, 'no follow-up'
flat = ' '.join(fu.split())
def has(pat):
    assert re.search(pat, flat), (pat, fu)
# each tool's new warning, with its words, its place in the patched tree
has(r"drivers/misc/dummy-irq\.c:\d+: WARNING: gcc W=1: 'rb_new_unused' defined but not used \[-Wunused-function\] \(COMPILE_WARNING\)")
has(r"drivers/misc/dummy-irq\.c:\d+: WARNING: sparse: dereference of noderef expression \(COMPILE_SPARSE_ADDRESS_SPACE\)")
has(r"drivers/misc/dummy-irq\.c:\d+: WARNING: gcc -fanalyzer: dereference of NULL 't' \[-Wanalyzer-null-dereference\] \(COMPILE_ANALYZER\)")
# free/kfree.cocci's confidence is Moderate: a question, not certain
has(r"drivers/misc/dummy-irq\.c:\d+: WARNING: coccinelle \(scripts/coccinelle/free/kfree\.cocci\): ERROR: reference preceded by free on line \d+ \(COMPILE_COCCI_QUESTION\)")
# security: the address-space one is a security finding
has(r'^.*Security #\d+ drivers/misc/dummy-irq\.c:\d+: WARNING: sparse:')
# never the base's
assert "'rb_base_unused' defined" not in flat, fu
assert flat.count('dereference of noderef expression') == 1, fu
assert flat.count("dereference of NULL 't'") == 1, fu
assert flat.count('reference preceded by free') == 1, fu
has(r'compiles: concern \(4 new warnings on hwmon-next at %s \(allmodconfig, gcc [0-9.]+, W=1, sparse, -fanalyzer, coccinelle\)\)' % sys.argv[2][:12])
has(r'4 diagnostics in the files it touches were there before')
has(r'make O=obj W=1 C=2 drivers/misc/dummy-irq\.o')
has(r'make O=obj W=1 KCFLAGS=-fanalyzer drivers/misc/dummy-irq\.s')
has(r'sparse 0\.6\.\d')
has(r'coccinelle 1\.\d')
print('follow-up ok')
PY
check "each tool's new warning is reported with its words and place; none of the base's" \
	"grep -qx 'follow-up ok' '$tmp/py3' || { cat '$tmp/py3'; false; }"
check "the stage's cost is logged, per tool" \
	"grep 'event=compile-test series=\"misc: dummy-irq: helpers' '$tmp/err3' | grep -q 'sparse=[0-9.]*s+[0-9.]*s analyzer=[0-9.]*s+[0-9.]*s coccinelle='"

echo "trees: fixtures $((t1 - t0))s, 5 series (gcc) $((t2 - t1))s, the late base $((t3 - t2))s, the tools in the daemon $((t4 - t3))s"
grep -h -o 'cost="[^"]*"' "$tmp/err1" "$tmp/err2" "$tmp/err3" | sed 's/^/trees: /'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

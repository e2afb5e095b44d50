#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The compile stage end to end on a plain kernel tree ([build] tree):
# Debian's linux-source-6.1 extracted into build/ksrc (once, cached),
# imported by reviewbot itself into the repository of
# build/ksrc.reviewbot and prepared there (once, cached: a commit of the
# tree, allmodconfig without CONFIG_WERROR, modules_prepare).  Four
# one-patch series through `reviewbot run --once`: one that compiles
# cleanly, one that adds an error, one that adds a warning, one that does
# not apply ("not checked", naming the author's base-commit).  Then what
# bounds a stage and keeps the host out of the mail (issue 33 item 4): a
# hostile Makefile, a series that fills its disk budget, one that takes
# more memory than the stage may have, and a bot that cannot make a
# cgroup.  Git trees and the other tools: tests/build/test_trees.sh.
#
# Usage: tests/build/test_build.sh   (REVIEWBOT=path, BUILD_DIR=build)
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
bdir=${BUILD_DIR:-$repo/build}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"	# the sandbox's user (nobody, when we are root) reaches into it
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

t0=$(date +%s.%N)
if ! bash "$repo/tests/build/prepare.sh" "$bdir"; then
	echo "not ok - the kernel source could not be extracted"
	echo "0 passed, 1 failed"
	exit 1
fi
t1=$(date +%s.%N)
tree=$bdir/ksrc
work=$bdir/ksrc.reviewbot

# the series, one per mail, in a maildir
mkdir -p "$tmp/list/new" "$tmp/list/cur" "$tmp/list/tmp" "$tmp/db"
for p in "$repo"/tests/build/000*.patch; do
	cp "$p" "$tmp/list/new/$(basename "$p" .patch)"
done
cat >"$tmp/rb.conf" <<EOF
[bot]
	address = reviewbot@example.org
	database = $tmp/db/reviewbot.db
	templates = $repo/templates
	dry_run = true
[source "lkml"]
	type = maildir
	path = $tmp/list
	list = linux-kernel@vger.kernel.org
[delivery]
	type = maildir
	path = $tmp/outbox
[policy]
	review_clean = true	# every review mailed, whatever it finds
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 0
	list_wait = 0	# mailed in, not the list's copies: answered at once
	author_replies_per_hour = 0
	list_replies_per_hour = 0
	max_replies_per_hour = 0
[build]
	tree = $tree
	config = allmodconfig
	jobs = 2
	timeout = 900
	tools = gcc
	max_memory_mb = 3072
	max_disk_mb = 1024
	tmp_mb = 64
EOF

"$rb" run -n --config "$tmp/rb.conf" >"$tmp/out" 2>&1
check "run -n accepts a [build] section" "grep -qx 'configuration OK' '$tmp/out'"

# No sandbox, no stage (issue 19 item 1): without bwrap, or with a bwrap
# that cannot make its namespaces (user namespaces off), run -n fails
# saying why, and a series is "not checked" -- never built on the host.
mkdir -p "$tmp/nobwrap" "$tmp/nons"
printf '#!/bin/sh\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n' \
	>"$tmp/nons/bwrap"
chmod 755 "$tmp/nons/bwrap"
PATH=$tmp/nobwrap "$rb" run -n --config "$tmp/rb.conf" >"$tmp/out" 2>&1; st=$?
check "run -n without bwrap fails and says to install bubblewrap" \
	"[ $st -ne 0 ] && grep -q 'bubblewrap (bwrap) is needed' '$tmp/out' || { cat '$tmp/out'; false; }"
PATH=$tmp/nons:$PATH "$rb" run -n --config "$tmp/rb.conf" >"$tmp/out" 2>&1; st=$?
check "run -n with user namespaces off fails and says so" \
	"[ $st -ne 0 ] && grep -q 'user namespaces may be turned off' '$tmp/out' || { cat '$tmp/out'; false; }"
mkdir -p "$tmp/list0/new" "$tmp/list0/cur" "$tmp/list0/tmp"
cp "$repo/tests/build/0001-clean.patch" "$tmp/list0/new/clean"
sed -e "s|path = $tmp/list\$|path = $tmp/list0|" -e "s|path = $tmp/outbox|path = $tmp/outbox0|" \
	-e "s|$tmp/db/|$tmp/db0/|" "$tmp/rb.conf" >"$tmp/rb0.conf"
mkdir -p "$tmp/db0"
PATH=$tmp/nons:$PATH "$rb" run --once --config "$tmp/rb0.conf" >"$tmp/out" 2>"$tmp/err0"; st=$?
check "without a sandbox the series is not checked, and the review says why" \
	"[ $st -eq 0 ] && tr -s ' \n' '  ' < \"\$(ls '$tmp/outbox0/new'/* | head -1)\" | grep -q 'compiles: not checked (bubblewrap cannot make its sandbox here' && grep -q 'event=stage-unavailable' '$tmp/err0'"
check "... and the stage ran nothing (it stopped at the sandbox check)" \
	"grep 'event=compile-test' '$tmp/err0' | grep -q 'error=\"bubblewrap cannot' && ! grep -q 'cost=' '$tmp/err0'"

"$rb" run --once --config "$tmp/rb.conf" >"$tmp/out" 2>"$tmp/err"; st=$?
t2=$(date +%s.%N)
check "run --once exits 0" "[ $st -eq 0 ] || { tail -20 '$tmp/err'; false; }"
n=$(ls "$tmp/outbox/new" 2>/dev/null | wc -l)
check "one review per series: 4 mails" "[ $n -eq 4 ]"

/usr/bin/python3 - "$tmp/outbox" >"$tmp/py" 2>&1 <<'PY'
import email, email.policy, mailbox, sys
box = mailbox.Maildir(sys.argv[1], create=False)
mails = [email.message_from_bytes(box.get_bytes(k), policy=email.policy.default)
         for k in box.keys()]
# each mail's words with the wrapping of its lines undone
by = {m['In-Reply-To'].strip('<>').split('@')[0]: ' '.join(m.get_content().split())
      for m in mails}
def line(body):
    # the checklist entry, its wrapped continuation lines joined
    i = body.find('compiles:')
    j = body.find('seems to work:', i)
    return [' '.join(body[i:j].split())] if i >= 0 and j > i else []
for k in sorted(by):
    print(k, line(by[k]))
clean, err, warn, noap = (by['build-clean-1'], by['build-error-1'],
                          by['build-warning-1'], by['build-noapply-1'])
import re
def has(body, word): return [l for l in line(body) if re.search(r'compiles:\s+' + word, l)]
assert any('W=1' in l for l in has(clean, 'ok')), line(clean)
assert 'COMPILE_' not in clean
assert has(err, 'concern'), line(err)
assert 'COMPILE_ERROR' in err and 'dummy_irq_count_add' in err, err
assert 'drivers/misc/dummy-irq.c:28' in err, err
assert has(warn, 'concern'), line(warn)
assert 'COMPILE_WARNING' in warn and "unused variable 'last_irq'" in warn, warn
assert 'COMPILE_ERROR' not in warn
assert any('does not apply' in l and
           '0123456789ab' in l for l in has(noap, 'not checked')), line(noap)
assert 'COMPILE_' not in noap
print('mails ok')
PY
check "clean: compiles ok; error and warning: concern with the compiler's words; no-apply: not checked with the base" \
	"grep -qx 'mails ok' '$tmp/py' || { cat '$tmp/py'; false; }"

# the tree is left as it was: nothing changed, no file added, no .git
# inside; the series are applied to a scratch copy in the work folder
check "the pristine tree is never written (no file newer than the run)" \
	"[ -z \"\$(find '$tree' -newer '$tmp/rb.conf' -print | head -3)\" ]"
check "no .git inside the tree" "[ ! -e '$tree/.git' ]"
check "the tree is imported into the work folder's repository, the series applied in a worker's tree" \
	"[ -f '$work/repo.git/HEAD' ] && [ -f '$work/w0/src/Makefile' ] && [ -d '$work/w0/git' ] && [ -d '$work/w0/obj.base' ]"
check "the worker's tree is back at the base after the reviews" \
	"cmp -s '$tree/drivers/misc/dummy-irq.c' '$work/w0/src/drivers/misc/dummy-irq.c'"
check "the cost of each series is logged" "grep -c 'compile-test' '$tmp/err' | grep -qx 4"

# ---- a hostile series: its Makefile runs commands (issue 19 item 1) ------
# A patch to drivers/misc/Makefile whose $(shell ...) lines try to read a
# password file of the host, write outside the tree, plant files in the
# scratch and object trees for later builds, reach the network, and learn
# its uid.  Inside the sandbox none of it reaches the host.
secret="S3CRET-$$-$RANDOM"
mkdir -p "$tmp/etc" "$tmp/outside" "$tmp/list2/new" "$tmp/list2/cur" "$tmp/list2/tmp"
printf '%s\n' "$secret" >"$tmp/etc/smtp.password"
# readable and writable by anyone: only the sandbox keeps them away
chmod 755 "$tmp" "$tmp/etc" && chmod 644 "$tmp/etc/smtp.password"
chmod 777 "$tmp/outside"
/usr/bin/python3 "$repo/tests/build/listener.py" "$tmp/port" "$tmp/connections" \
	>/dev/null 2>&1 &
listener=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
mkdir -p "$tmp/h/a/drivers/misc" "$tmp/h/b/drivers/misc"
cp "$tree/drivers/misc/Makefile" "$tree/drivers/misc/dummy-irq.c" "$tmp/h/a/drivers/misc/"
cp "$tree/drivers/misc/Makefile" "$tree/drivers/misc/dummy-irq.c" "$tmp/h/b/drivers/misc/"
sed -e "s|@SECRET@|$tmp/etc/smtp.password|g" -e "s|@OUTSIDE@|$tmp/outside|g" \
	-e "s|@PORT@|$port|g" "$repo/tests/build/hostile.mk" >>"$tmp/h/b/drivers/misc/Makefile"
sed -i 's|^static int irq = -1;|static int irq = -1; /* tuned */|' "$tmp/h/b/drivers/misc/dummy-irq.c"
{
	cat "$repo/tests/build/hostile.head"
	(cd "$tmp/h" && diff -u a/drivers/misc/Makefile b/drivers/misc/Makefile
	 diff -u a/drivers/misc/dummy-irq.c b/drivers/misc/dummy-irq.c) |
		sed -e 's|^\(--- a/[^\t]*\)\t.*|\1|' -e 's|^\(+++ b/[^\t]*\)\t.*|\1|' |
		awk '/^--- a\//{f=substr($2,3); print "diff --git a/" f " b/" f} {print}'
} >"$tmp/list2/new/hostile"
sed -e "s|path = $tmp/list\$|path = $tmp/list2|" -e "s|path = $tmp/outbox|path = $tmp/outbox2|" \
	"$tmp/rb.conf" >"$tmp/rb2.conf"
"$rb" run --once --config "$tmp/rb2.conf" >"$tmp/out2" 2>"$tmp/err2"; st=$?
kill "$listener" 2>/dev/null
check "the hostile series: run --once exits 0" "[ $st -eq 0 ] || { tail -20 '$tmp/err2'; false; }"
check "the hostile series was compiled (its Makefile ran: obj/uid)" \
	"[ -e '$work/w0/obj/uid' ]"
check "its \$(shell) could not read the host's password file" \
	"! grep -q '$secret' '$work/w0/obj/read' '$work/w0/obj/leaked' 2>/dev/null"
check "nor write outside the tree" "[ ! -e '$tmp/outside/written' ]"
check "nor plant a file in the scratch tree (read-only to make)" \
	"grep -q 'Read-only file system' '$work/w0/obj/touch' && [ ! -e '$work/w0/src/PLANTED-SRC' ]"
check "nor reach the network (127.0.0.1:$port saw no connection)" \
	"[ ! -s '$tmp/connections' ] && [ -s '$work/w0/obj/net' ]"
check "it ran as an unprivileged uid, in a sandbox of its own" \
	"[ \"\$(cat '$work/w0/obj/uid')\" != 0 ] && grep -qx reviewbot-sandbox '$work/w0/obj/hostname'"
check "the secret is in no review mail" "! grep -rq '$secret' '$tmp/outbox2'"
# issue 33 item 4: what the host is never reaches the mail
check "its \$(shell) saw none of the host: no /usr/local, /usr/src, CPU, memory or load" \
	"grep -q 'ls: cannot access .*/usr/local' '$work/w0/obj/host' && grep -q 'ls: cannot access .*/usr/src' '$work/w0/obj/host' &&
	 ! grep -qi 'model name\|MemTotal' '$work/w0/obj/host' && [ ! -s '$work/w0/obj/cpuinfo' ] ||
	 { cat '$work/w0/obj/host'; false; }"
check "its \$(warning), \$(info) and a fake diagnostic naming the patch's file are in no mail" \
	"! grep -rq 'LEAK-' '$tmp/outbox2' && tr -s ' \n' '  ' <\"\$(ls '$tmp/outbox2/new'/* | head -1)\" | grep -q 'not quoted: the series changes the kernel.s build files' ||
	 { cat '$tmp/outbox2/new'/*; grep compile-test '$tmp/err2'; false; }"
check "its /tmp is a tmpfs of tmp_mb (64 MiB): a bigger file does not fit" \
	"grep -q 'No space left on device' '$work/w0/obj/tmpfill' || { ls -la '$work/w0/obj/'; cat '$work/w0/obj/tmpfill'; false; }"

# the next series, in a run of its own: what the hostile one left in the
# object folder is not there for it
mkdir -p "$tmp/list3/new" "$tmp/list3/cur" "$tmp/list3/tmp"
sed -e 's/build-clean-1@/build-after-hostile-1@/' \
	-e 's/^Date: .*/Date: Thu, 3 Dec 2026 11:30:00 +0000/' \
	"$repo/tests/build/0001-clean.patch" >"$tmp/list3/new/after"
sed -e "s|path = $tmp/list\$|path = $tmp/list3|" -e "s|path = $tmp/outbox|path = $tmp/outbox3|" \
	"$tmp/rb.conf" >"$tmp/rb3.conf"
"$rb" run --once --config "$tmp/rb3.conf" >"$tmp/out3" 2>"$tmp/err3"; st=$?
check "the series after it compiles as cleanly as before" \
	"[ $st -eq 0 ] && grep -q 'W=1' '$tmp/outbox3/new'/* && ! grep -q COMPILE_ '$tmp/outbox3/new'/*"
check "what the hostile series planted in the object folder is gone" "[ ! -e '$work/w0/obj/PLANTED-OBJ' ]"
check "the pristine tree is still untouched" \
	"[ -z \"\$(find '$tree' -newer '$tmp/rb.conf' -print | head -3)\" ]"

# ---- a stage is bounded as a whole (issue 33 item 4) -------------------------
# hog FILE MSGID MAKEFILE_LINE: a series adding MAKEFILE_LINE to
# drivers/misc/Makefile (and a comment to the driver)
hog() {
	rm -rf "$tmp/h"
	mkdir -p "$tmp/h/a/drivers/misc" "$tmp/h/b/drivers/misc"
	cp "$tree/drivers/misc/Makefile" "$tree/drivers/misc/dummy-irq.c" "$tmp/h/a/drivers/misc/"
	cp "$tree/drivers/misc/Makefile" "$tree/drivers/misc/dummy-irq.c" "$tmp/h/b/drivers/misc/"
	printf '%s\n' "$3" >>"$tmp/h/b/drivers/misc/Makefile"
	sed -i 's|^static int irq = -1;|static int irq = -1; /* hog */|' "$tmp/h/b/drivers/misc/dummy-irq.c"
	{
		sed -e "s/build-hostile-1@/$2@/" "$repo/tests/build/hostile.head"
		(cd "$tmp/h" && diff -u a/drivers/misc/Makefile b/drivers/misc/Makefile
		 diff -u a/drivers/misc/dummy-irq.c b/drivers/misc/dummy-irq.c) |
			sed -e 's|^\(--- a/[^\t]*\)\t.*|\1|' -e 's|^\(+++ b/[^\t]*\)\t.*|\1|' |
			awk '/^--- a\//{f=substr($2,3); print "diff --git a/" f " b/" f} {print}'
	} >"$1"
}
mkdir -p "$tmp/list4/new" "$tmp/list4/cur" "$tmp/list4/tmp"
hog "$tmp/list4/new/disk" build-disk-hog-1 \
	'HOG := $(shell dd if=/dev/zero of=$(objtree)/hog bs=1M count=1500 2>/dev/null)'
hog "$tmp/list4/new/memory" build-memory-hog-1 \
	'HOG := $(shell for i in 1 2 3 4 5; do python3 -c "b = bytearray(900 << 20); import time; time.sleep(4)" & done; wait)'
sed -e "s|path = $tmp/list\$|path = $tmp/list4|" -e "s|path = $tmp/outbox|path = $tmp/outbox4|" \
	-e "s|$tmp/db/|$tmp/db4/|" -e "s|max_disk_mb = 1024|max_disk_mb = 256|" "$tmp/rb.conf" >"$tmp/rb4.conf"
mkdir -p "$tmp/db4"
"$rb" run --once --config "$tmp/rb4.conf" >"$tmp/out4" 2>"$tmp/err4"; st=$?
mail_of() { grep -l "In-Reply-To: <$1@" "$tmp/outbox4/new"/* 2>/dev/null | head -1; }
check "a series writing past max_disk_mb is stopped, not checked, not blamed" \
	"[ $st -eq 0 ] && tr -s ' \n' '  ' <\"\$(mail_of build-disk-hog-1)\" | grep -q 'compiles: not checked (the build wrote more than \[build\] max_disk_mb)' &&
	 [ \$(du -sm '$work/w0/obj' | cut -f1) -lt 1100 ] || { tail -5 '$tmp/err4'; false; }"
check "a series taking more than max_memory_mb in all is cut by the kernel, not checked" \
	"tr -s ' \n' '  ' <\"\$(mail_of build-memory-hog-1)\" | grep -q 'compiles: not checked (the build ran out of memory (\[build\] max_memory_mb))' ||
	 { grep compile-test '$tmp/err4'; false; }"

# No cgroup, no stage: a bot that may make none (not root, no delegation)
# refuses to build, and says so; it never builds unbounded
nb=$tmp/nobody
mkdir -p "$nb/list/new" "$nb/list/cur" "$nb/list/tmp" "$nb/db"
cp "$repo/tests/build/0001-clean.patch" "$nb/list/new/clean"
sed -e "s|path = $tmp/list\$|path = $nb/list|" -e "s|path = $tmp/outbox|path = $nb/outbox|" \
	-e "s|$tmp/db/|$nb/db/|" -e "s|^\ttree = .*|&\n\twork = $nb/work|" "$tmp/rb.conf" >"$nb/rb.conf"
chown -R nobody "$nb"
setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$nb" \
	"$rb" run --once --config "$nb/rb.conf" >"$nb/out" 2>"$nb/err"; st=$?
check "without a cgroup it may make, the stage refuses: not checked, and the log says why" \
	"[ $st -eq 0 ] && tr -s ' \n' '  ' <\"\$(ls '$nb/outbox/new'/* | head -1)\" | grep -q 'compiles: not checked (not run: no cgroup can bound the build' &&
	 grep -q 'event=compile-refused' '$nb/err' && [ ! -d '$nb/work/w0/obj' ] || { tail -5 '$nb/err'; false; }"

printf 'build: extraction %.1fs, reviews of 4 series %.1fs (first run includes the one-time preparation)\n' \
	"$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
grep -o 'cost="[^"]*"' "$tmp/err" | sed 's/^/build: /'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The compile stage end to end on a real kernel tree: Debian's
# linux-source-6.1 extracted into build/ksrc (once, cached), prepared by
# reviewbot itself into build/ksrc.reviewbot (once, cached: git baseline
# outside the tree, allmodconfig without CONFIG_WERROR, modules_prepare).
# Four one-patch series through `reviewbot run --once`: one that compiles
# cleanly, one that adds an error, one that adds a warning, one that does
# not apply ("not checked", naming the author's base-commit).  Starts
# nothing but git, make and the compiler.
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
	series_wait = 0
	author_replies_per_hour = 0
	list_replies_per_hour = 0
	max_replies_per_hour = 0
[build]
	tree = $tree
	config = allmodconfig
	jobs = 2
	timeout = 900
EOF

"$rb" run -n --config "$tmp/rb.conf" >"$tmp/out" 2>&1
check "run -n accepts a [build] section" "grep -qx 'configuration OK' '$tmp/out'"

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
by = {m['In-Reply-To'].strip('<>').split('@')[0]: m.get_content() for m in mails}
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

# the tree is left as it was: nothing changed, no file added, no .git inside
g() { git --git-dir="$work/git" --work-tree="$tree" "$@"; }
check "the tree is pristine after the reviews" \
	"[ -z \"\$(cd '$tree' && g status --porcelain --ignored=no -uall | head -3)\" ]"
check "no .git inside the tree" "[ ! -e '$tree/.git' ]"
check "the cost of each series is logged" "grep -c 'compile-test' '$tmp/err' | grep -qx 4"

printf 'build: extraction %.1fs, reviews of 4 series %.1fs (first run includes the one-time preparation)\n' \
	"$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
grep -o 'cost="[^"]*"' "$tmp/err" | sed 's/^/build: /'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

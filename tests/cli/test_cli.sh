#!/bin/bash
# Command-line behaviour of reviewbot that checkpatch.pl has no reference
# for: --json, --category, --list-types, errors and exit codes.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
ex=$repo/examples
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# --json: one valid object per input, with categories and locations
"$rb" check --no-tree --json "$ex"/0002-*.patch "$ex"/0003-*.patch >"$tmp/j" 2>"$tmp/e"; st=$?
check "json exits 1 when findings" "[ $st -eq 1 ]"
check "json is one object per input" "[ \$(wc -l <'$tmp/j') -eq 2 ]"
check "json parses and carries type/severity/category/file/line/patch_line" "python3 - '$tmp/j' <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert all(set(o) >= {'input', 'findings', 'errors', 'warnings', 'checks', 'lines_checked', 'clean'} for o in objs)
f = [x for o in objs for x in o['findings']]
assert f, 'no findings'
cats = {'security', 'uapi', 'correctness', 'process', 'style'}
for x in f:
    assert set(x) == {'type', 'severity', 'category', 'file', 'line', 'patch_line', 'message'}, x
    assert x['category'] in cats and x['severity'] in ('ERROR', 'WARNING', 'CHECK')
tw = [x for x in f if x['type'] == 'TRAILING_WHITESPACE']
assert tw and tw[0]['file'] == 'drivers/leds/leds-acme-lc4.c' and tw[0]['line'] == 68, tw
ms = [x for x in f if x['type'] == 'MISSING_SIGN_OFF']
assert ms and ms[0]['file'] is None and ms[0]['line'] is None, ms
PY"

# --category filters by the rule table's category
"$rb" check --no-tree --json --category process "$ex"/0002-*.patch >"$tmp/j" 2>/dev/null
check "category filter keeps only that category" "python3 -c \"
import json,sys
o=json.loads(open('$tmp/j').readline())
assert o['findings'] and all(x['category']=='process' for x in o['findings'])\""
"$rb" check --no-tree --category nonsense "$ex"/0002-*.patch >/dev/null 2>"$tmp/e"; st=$?
check "unknown category is an error (exit 2)" "[ $st -eq 2 ] && grep -q 'unknown category' '$tmp/e'"

# --list-types prints the whole rule table
"$rb" check --list-types >"$tmp/l"; st=$?
check "list-types exits 0" "[ $st -eq 0 ]"
check "list-types lists every type with severity, category and confidence" \
	"grep -qP '^\\d+\\tLONG_LINE\\tWARNING,CHECK\\tstyle\\tcertain\\t' '$tmp/l' &&
	 grep -qP '^\\d+\\tSTRING_COPY_CHECK\\tWARNING\\tcorrectness\\tquestion\\t' '$tmp/l' &&
	 [ \$(grep -cP '^\\d+\\t' '$tmp/l') -gt 200 ]"

# --list-types says which checkpatch.pl versions have each type
lt() { grep -qP "^\\d+\\t$1\\t[^\\t]*\\t[^\\t]*\\t[^\\t]*\\t$2\\t" "$tmp/l"; }
check "list-types names the versions of each type" \
	"lt LONG_LINE '6\\.1,6\\.12' && lt STRCPY '6\\.12' && lt NETWORKING_BLOCK_COMMENT_STYLE '6\\.1' &&
	 lt UAPI_IOCTL extra && lt MISSING_FIXES_TAG '6\\.12,extra'"

# --checkpatch-version: the rules of each version, 6.12 the default; from
# the command line or .checkpatch.conf; an unknown version is an error
printf '%s\n' 'From: A Person <a@example.com>' 'Subject: [PATCH] foo: copy the name' '' \
	'Copy the name.' '' 'Signed-off-by: A Person <a@example.com>' '---' \
	'diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c' '--- a/drivers/foo/foo.c' \
	'+++ b/drivers/foo/foo.c' '@@ -1,1 +1,2 @@' ' int x;' \
	'+void f(char *d, const char *s) { strcpy(d, s); }' >"$tmp/cpv.patch"
"$rb" check --no-tree --show-types "$tmp/cpv.patch" >"$tmp/o" 2>&1
check "default follows checkpatch.pl 6.12" "grep -q 'WARNING:STRCPY:' '$tmp/o'"
"$rb" check --no-tree --show-types --checkpatch-version=6.12 "$tmp/cpv.patch" >"$tmp/o2" 2>&1
check "--checkpatch-version=6.12 is the default" "cmp -s '$tmp/o' '$tmp/o2'"
"$rb" check --no-tree --show-types --checkpatch-version 6.1 "$tmp/cpv.patch" >"$tmp/o" 2>&1
check "--checkpatch-version 6.1 has no STRCPY" "! grep -q 'STRCPY' '$tmp/o' && grep -q '^total: ' '$tmp/o'"
mkdir -p "$tmp/conf"
printf -- '--show-types\n--checkpatch-version=6.1  # the old rules\n' >"$tmp/conf/.checkpatch.conf"
(cd "$tmp/conf" && "$rb" check --no-tree "$tmp/cpv.patch") >"$tmp/o" 2>&1
check ".checkpatch.conf sets the version" "! grep -q 'STRCPY' '$tmp/o' && grep -q 'no obvious style problems' '$tmp/o'"
(cd "$tmp/conf" && "$rb" check --no-tree --checkpatch-version=6.12 "$tmp/cpv.patch") >"$tmp/o" 2>&1
check "the command line wins over .checkpatch.conf" "grep -q 'WARNING:STRCPY:' '$tmp/o'"
"$rb" check --no-tree --checkpatch-version=6.6 "$tmp/cpv.patch" >/dev/null 2>"$tmp/e"; st=$?
check "unknown version: exit 2, the versions named" \
	"[ $st -eq 2 ] && grep -qF \"unknown checkpatch.pl version '6.6' (6.1, 6.12)\" '$tmp/e'"
"$rb" check --version >"$tmp/v"
check "check --version names the versions" "grep -q 'checkpatch.pl 6.1, 6.12; default 6.12' '$tmp/v'"
printf '%s\n' 'From: A Person <a@example.com>' 'Subject: [PATCH] foo: fix' '' \
	'Found by syzkaller.' '' 'Signed-off-by: A Person <a@example.com>' '---' \
	'--- a/foo.c' '+++ b/foo.c' '@@ -1,1 +1,2 @@' ' int x;' '+int y;' >"$tmp/fx.patch"
"$rb" check --no-tree --show-types "$tmp/fx.patch" >"$tmp/o" 2>&1
"$rb" check --no-tree --show-types --no-fixes-tag "$tmp/fx.patch" >"$tmp/o2" 2>&1
check "--no-fixes-tag drops MISSING_FIXES_TAG" \
	"grep -q \"MISSING_FIXES_TAG: The commit message has 'syzkaller'\" '$tmp/o' && ! grep -q MISSING_FIXES '$tmp/o2'"

# errors name the file; exit codes
"$rb" check "$tmp/no-such.patch" >/dev/null 2>"$tmp/e"; st=$?
check "missing file: exit 2 and names the file" "[ $st -eq 2 ] && grep -q 'no-such.patch' '$tmp/e'"
"$rb" check --no-such-option x >/dev/null 2>"$tmp/e"; st=$?
check "unknown option: exit 1 as checkpatch.pl (help to stderr)" "[ $st -eq 1 ] && grep -q 'unknown option' '$tmp/e'"
"$rb" check --fix x >/dev/null 2>"$tmp/e"; st=$?
check "--fix is refused" "[ $st -eq 2 ] && grep -q 'not supported' '$tmp/e'"
"$rb" check --help >"$tmp/h"; st=$?
check "check --help exits 0" "[ $st -eq 0 ] && grep -q -- '--json' '$tmp/h'"
"$rb" --version >"$tmp/v"; st=$?
check "--version" "[ $st -eq 0 ] && grep -q '^reviewbot ' '$tmp/v'"
# every subcommand: --help before --version, whatever their order; stray
# operands refused
for sub in run import review query status optout serve; do
	"$rb" $sub --version --help >"$tmp/h" 2>&1; st=$?
	check "$sub --version --help: the help, exit 0" \
		"[ $st -eq 0 ] && head -1 '$tmp/h' | grep -q '^Usage: reviewbot $sub '"
	"$rb" $sub --version >"$tmp/v" 2>&1; st=$?
	check "$sub --version: the version, exit 0" "[ $st -eq 0 ] && grep -q '^reviewbot [0-9]' '$tmp/v'"
done
for sub in run query status serve; do
	"$rb" $sub stray-operand >/dev/null 2>"$tmp/e"; st=$?
	check "$sub with a stray operand: exit 2, names it" \
		"[ $st -eq 2 ] && grep -q \"unexpected argument 'stray-operand'\" '$tmp/e'"
done
"$rb" frobnicate >/dev/null 2>&1; st=$?
check "unknown command: exit 2" "[ $st -eq 2 ]"

# abbreviations and negations as Getopt::Long takes them
"$rb" check --no-tree --show-ty --noemacs --terse "$ex"/0003-*.patch >"$tmp/o" 2>&1
check "abbreviated options" "grep -q 'ERROR:TRAILING_WHITESPACE' '$tmp/o'"

# reviewbot's own checks and merge readiness, on with --json
"$rb" check --no-tree --strict --json "$ex"/0002-*.patch "$ex"/0003-*.patch >"$tmp/j" 2>/dev/null
check "json: ioctl patch is a security and uapi concern, style-only patch is not" "python3 - '$tmp/j' <<'PY'
import json, sys
a, b = [json.loads(l) for l in open(sys.argv[1])]
ta = {f['type'] for f in a['findings']}
assert {'UAPI_IOCTL', 'UAPI_IOCTL_HANDLER', 'USER_COPY_UNCHECKED', 'UNBOUNDED_STRING_COPY'} <= ta, ta
assert a['readiness']['security']['state'] == 'concern'
assert a['readiness']['uapi']['state'] == 'concern'
assert a['readiness']['compiles']['state'] == 'not checked'
for i in a['readiness']['security']['findings']:
    assert a['findings'][i]['category'] == 'security'
assert not [f for f in b['findings'] if f['category'] in ('security', 'uapi')], b['findings']
assert b['readiness']['security']['state'] == 'ok' and b['readiness']['uapi']['state'] == 'ok'
PY"
"$rb" check --no-tree --show-types "$ex"/0002-*.patch >"$tmp/o" 2>&1
check "plain text output stays checkpatch.pl's (no reviewbot-only types)" \
	"grep -q 'WARNING:LEADING_SPACE' '$tmp/o' && ! grep -q 'UAPI_\|USER_COPY' '$tmp/o'"
"$rb" check --no-tree --show-types --extra "$ex"/0002-*.patch >"$tmp/o" 2>&1
check "--extra adds reviewbot's types to the text output" "grep -q 'UAPI_IOCTL' '$tmp/o'"

# --verbose explains each type once, after its first report
"$rb" check --no-tree -v "$ex"/0003-*.patch >"$tmp/o" 2>&1
check "verbose explains SPACING once" \
	"[ \$(grep -c '^spaces around operators' '$tmp/o') -eq 1 ] && [ \$(grep -c 'ERROR: space required' '$tmp/o') -ge 2 ]"

# checkpatch.pl's patterns come compiled with the binary: checking an
# example compiles only the few patterns built from the patch's own words
"$rb" check --no-tree --debug-patterns "$ex"/0001-*.patch >/dev/null 2>"$tmp/e"
check "patterns are precompiled (few compiled at run time)" \
	"n=\$(sed -n 's/.*: \\([0-9]*\\) patterns compiled at run time/\\1/p' '$tmp/e'); [ -n \"\$n\" ] && [ \"\$n\" -lt 40 ]"

# a line too complex to check (a #define with 8,500 arguments asks for more
# scratch memory than a line may have, and once crashed the checker): the
# line's remaining checks are skipped with a note on stderr, the other lines
# are checked, and the exit status is checkpatch.pl's usual one
python3 - "$tmp/poison.patch" <<'PY'
import sys
lines = ['#define X(' + ','.join(['a'] * 8500) + ') a', 'int y; ']
open(sys.argv[1], 'w').write(
    'From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n'
    'From: A Person <a@example.com>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n'
    'Subject: [PATCH] foo: add a thing\n\nAdd a thing.\n\n'
    'Signed-off-by: A Person <a@example.com>\n---\n'
    'diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c\n'
    'index 1111111..2222222 100644\n--- a/drivers/foo/foo.c\n'
    '+++ b/drivers/foo/foo.c\n@@ -1,3 +1,5 @@\n #include <linux/foo.h>\n'
    + ''.join('+' + l + '\n' for l in lines) + ' \n int x;\n-- \n2.40.0\n')
PY
for opt in "" "--strict --terse"; do
	"$rb" check --no-tree $opt "$tmp/poison.patch" >"$tmp/o" 2>"$tmp/e"; st=$?
	check "too complex line${opt:+ ($opt)}: no crash, exit 1 as checkpatch.pl" "[ $st -eq 1 ]"
	check "too complex line${opt:+ ($opt)}: said on stderr" \
		"grep -q 'poison.patch: line #16 too complex to check' '$tmp/e' && \
		 grep -q 'WARNING: line length of 17012 exceeds 100 columns' '$tmp/o'"
done
check "too complex line (--terse): the lines after it checked" \
	"grep -q ':17: ERROR: trailing whitespace' '$tmp/o' && grep -q '^total: ' '$tmp/o'"
"$rb" check --no-tree --json "$tmp/poison.patch" >"$tmp/j" 2>/dev/null; st=$?
check "too complex line (--json): exit 1, the reason in the object" "[ $st -eq 1 ] && python3 -c \"
import json
o = json.loads(open('$tmp/j').readline())
assert o['incomplete'] == ['line_skipped'] and o['lines_skipped'] == 1 and o['first_skipped'] == 16, o
assert 'too complex' in o['error']
assert [f for f in o['findings'] if f['type'] == 'TRAILING_WHITESPACE' and f['patch_line'] == 17]\""

# the cache of the misspelling list
. "$repo/tests/cli/spell_cache.sh"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

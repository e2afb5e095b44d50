#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The compile stage's test trees, made once and cached under build/: a
# bare repository build/trees/upstream.git of Debian's linux-source-6.1
# (extracted into build/ksrc by prepare.sh) with the branches
# tests/build/mktrees.py writes.  Never committed.  Made again when this
# script, mktrees.py or the fixture change.
#
# Usage: tests/build/mktrees.sh [BUILDDIR]   (default: build)
set -eu
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/prepare.sh" "$B"
out=$B/trees/upstream.git
want=$(cat "$here/mktrees.sh" "$here/mktrees.py" "$here/fixture-base.c" | sha256sum | cut -c1-16)
if [ -f "$out/reviewbot-fixture" ] && [ "$(cat "$out/reviewbot-fixture")" = "$want" ]; then
	exit 0
fi
rm -rf "$out" "$out.tmp"
mkdir -p "$B/trees"
git init -q --bare "$out.tmp"
python3 "$here/mktrees.py" "$B/ksrc" "$here" | git -C "$out.tmp" fast-import --quiet --done
# serving it sends the pack as it is (no delta search over the kernel)
git -C "$out.tmp" config pack.window 0
git -C "$out.tmp" symbolic-ref HEAD refs/heads/master
echo "$want" >"$out.tmp/reviewbot-fixture"
mv "$out.tmp" "$out"

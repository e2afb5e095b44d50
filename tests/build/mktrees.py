#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# A git fast-import stream of the compile stage's test trees
# (tests/build/mktrees.sh): Debian's linux-source tree as it is, on
# master, and three branches of one commit each on top of it:
#   hwmon-next  drivers/misc/dummy-irq.c with tests/build/fixture-base.c
#               appended (a warning of each tool already on the base)
#   net-next    a line only net-next has in drivers/net/dummy.c
#   net         another line in the same place, net's own
# Fixed dates: the same tree makes the same commits, run after run.
#
# Usage: mktrees.py KSRC FIXTURE_DIR | git fast-import
import os
import stat
import sys

root, fixtures = sys.argv[1], sys.argv[2]
w = sys.stdout.buffer.write
entries = []
mark = 0
for dp, dns, fns in os.walk(root):
    dns.sort()
    for fn in sorted(fns):
        p = os.path.join(dp, fn)
        rel = os.path.relpath(p, root)
        if rel == '.reviewbot-extracted':
            continue
        st = os.lstat(p)
        if stat.S_ISLNK(st.st_mode):
            data, mode = os.readlink(p).encode(), b'120000'
        elif stat.S_ISREG(st.st_mode):
            with open(p, 'rb') as f:
                data = f.read()
            mode = b'100755' if st.st_mode & 0o111 else b'100644'
        else:
            continue
        mark += 1
        w(b'blob\nmark :%d\ndata %d\n' % (mark, len(data)))
        w(data)
        w(b'\n')
        entries.append((mode, mark, rel.encode()))


def commit(ref, when, msg, frm=None, files=(), all_files=None):
    w(b'commit %s\n' % ref)
    w(b'author Test Tree <tree@example.org> %d +0000\n' % when)
    w(b'committer Test Tree <tree@example.org> %d +0000\n' % when)
    m = msg.encode()
    w(b'data %d\n' % len(m))
    w(m)
    if frm:
        w(b'from %s\n' % frm)
    for mode, mk, rel in all_files or ():
        w(b'M %s :%d %s\n' % (mode, mk, rel))
    for rel, data in files:
        w(b'M 100644 inline %s\ndata %d\n' % (rel.encode(), len(data)))
        w(data)
        w(b'\n')
    w(b'\n')


def read(rel):
    with open(os.path.join(root, rel), 'rb') as f:
        return f.read()


commit(b'refs/heads/master', 1700000000, 'Linux 6.1 (Debian linux-source-6.1)\n',
       all_files=entries)
with open(os.path.join(fixtures, 'fixture-base.c'), 'rb') as f:
    base = f.read()
commit(b'refs/heads/hwmon-next', 1700000100,
       'misc: dummy-irq: code with a warning of each tool\n', b'refs/heads/master',
       [('drivers/misc/dummy-irq.c', read('drivers/misc/dummy-irq.c') + base)])
dummy = read('drivers/net/dummy.c')
marker = b'#define DRV_NAME\t"dummy"\n'
assert marker in dummy
commit(b'refs/heads/net-next', 1700000200, 'net: dummy: a line of net-next\n',
       b'refs/heads/master',
       [('drivers/net/dummy.c',
         dummy.replace(marker, marker + b'#define DRV_NEXT\t1\t/* net-next only */\n'))])
commit(b'refs/heads/net', 1700000300, 'net: dummy: a line of net\n', b'refs/heads/master',
       [('drivers/net/dummy.c',
         dummy.replace(marker, marker + b'#define DRV_FIX\t1\t/* net only */\n'))])
w(b'done\n')

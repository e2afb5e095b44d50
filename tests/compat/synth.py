#!/usr/bin/python3
"""Synthetic patches for a differential test of reviewbot check against
checkpatch.pl, beyond the corpus: each adds a kernel source file as a new
file, under a commit message drawn from tags, links and fix reports that
the rules of 6.12 read (Reported-by:/Closes:, link tags, lore archives,
sanitizer reports, Fixes: forms, Co-developed-by:, long lines).

Usage: synth.py [--old OLD_TREE] KERNEL_TREE OUT_DIR [SEED] [COUNT]
  KERNEL_TREE  sources to draw from (e.g. parts of linux-source-6.12 extracted)
  OUT_DIR      gets OUT_DIR/patches/NNN-name.patch
  --old TREE   modify instead of add: each patch is the unified diff (3 lines
               of context, at most about 400 lines of hunks) between a file
               of OLD_TREE and the same file of KERNEL_TREE, one way or the
               other (e.g. linux-source-6.1 and 6.12): changes as real
               patches make them, with context and removed lines
Then: CORPUS=OUT_DIR COMPAT_REF=OUT_DIR/ref COMPAT_OUT=OUT_DIR/out \
      bash tests/compat/run.sh --version 6.12 [--strict]
Files using what 6.12 changed (ethtool_sprintf, strcpy, one-element
arrays, #define with arguments, ...) are preferred; the rest are random.
"""
import difflib, os, random, re, sys
old_root = None
if len(sys.argv) > 2 and sys.argv[1] == '--old':
    old_root = sys.argv[2]
    del sys.argv[1:3]
if len(sys.argv) < 3:
    sys.exit(__doc__)
root = sys.argv[1]
out = os.path.join(sys.argv[2], 'patches')
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
count = int(sys.argv[4]) if len(sys.argv) > 4 else 400
os.makedirs(out, exist_ok=True)
files = []
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith(('.c', '.h')):
            p = os.path.join(d, f)
            try:
                t = open(p, encoding='latin-1').read()
            except Exception:
                continue
            n = t.count('\n')
            if old_root is not None and n <= 4000:
                o = os.path.join(old_root, os.path.relpath(p, root))
                try:
                    ot = open(o, encoding='latin-1').read()
                except Exception:
                    continue
                if ot != t:
                    files.append((p, t, ot))
            elif 20 <= n <= 700:
                files.append((p, t))
interesting = re.compile(r'ethtool_sprintf|strncpy|strcpy|\[[01]\];|rcu_read_lock_trace|kunmap|kvcalloc|kcalloc_node|#define \w+\(|ETHTOOL_LINK_MODE_|__aligned|ALLOW_ERROR_INJECTION|extern struct')
pri = [x for x in files if interesting.search(x[1])]
rest = [x for x in files if not interesting.search(x[1])]
random.shuffle(pri); random.shuffle(rest)
chosen = pri[:count * 3 // 4] + rest[:count - min(len(pri), count * 3 // 4)]
msgs = [
 "Reported-by: Ann Smith <ann@example.com>",
 "Reported-by: Ann Smith <ann@example.com>\nCloses: https://lore.kernel.org/r/123@example.com",
 "Reported-by: kernel test robot <lkp@intel.com>\nCloses: https://lore.kernel.org/oe-kbuild-all/202401010000.abcdef-lkp@intel.com/",
 "Reported-and-tested-by: Bob <bob@example.com>\nLink: https://bugzilla.kernel.org/show_bug.cgi?id=1",
 "Link: https://lore.kernel.org/all/20240101.1-1-a@example.com/",
 "Link: 20240101.1-1-a@example.com",
 "Closes: #1234",
 "Closes: https://github.com/foo/bar/issues/12",
 "v2: https://lore.kernel.org/all/20240101.1-1-a@example.com/",
 "V3: http://example.com/x",
 "version4: https://example.com",
 "Bug: https://bugzilla.kernel.org/show_bug.cgi?id=2",
 "BugLink: https://bugs.launchpad.net/bugs/1",
 "See http://marc.info/?l=linux-kernel&m=1 for details.",
 "Discussed at https://lkml.org/lkml/2020/1/1/1 and http://www.spinics.net/lists/x/msg1.html",
 "syzkaller reported a crash:",
 "  BUG: KASAN: use-after-free in foo+0x1/0x2",
 "  UBSAN: array-index-out-of-bounds in bar.c:1:2",
 "Call Trace:\n <TASK>\n  foo+0x1/0x2",
 "Cc: stable@vger.kernel.org",
 "Cc: stable@vger.kernel.org # 6.1+",
 "Fixes: 0123456789ab (\"foo: bar\")",
 "Fixes: 0123456789ab",
 "Fixes: 0123456789abc(\"foo: bar\")",
 "Fixes:0123456789ab (\"foo: bar\")",
 "fixes: 0123456789AB (foo: bar)",
 "This reverts commit 0123456789abcdef0123456789abcdef01234567.",
 "Co-developed-by: Carol <carol@example.com>\nSigned-off-by: Carol <carol@example.com>",
 "Co-developed-by: Carol <carol@example.com>\nSigned-off-by: Caroline <carol@example.com>",
 "Co-developed-by: Dan <dan@example.com>",
 "Suggested-by: Eve <eve@example.com>",
 "Tested-by: Fay <fay@example.com>",
 "A long line of the commit message that goes on and on past the limit of seventy-five characters.",
 "Closes: https://bugzilla.kernel.org/show_bug.cgi?id=1234567890&with=a-very-long-query-string-here",
 "Link: https://lore.kernel.org/all/20240101000000.12345-1-someone@example.com/T/#u-and-more-and-more",
 "Message-Id: <20240101.1-1-a@example.com>",
]
def modify(rel, old, new, msg):
    """The diff of rel from old to new (or back), whole hunks up to ~400 lines."""
    if random.random() < 0.3:
        old, new = new, old
    a = old.split('\n')
    b = new.split('\n')
    if a[-1] == '':
        a.pop()
    if b[-1] == '':
        b.pop()
    hunks = []
    for g in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(3):
        i1, i2, j1, j2 = g[0][1], g[-1][2], g[0][3], g[-1][4]
        body = []
        for tag, x1, x2, y1, y2 in g:
            if tag == 'equal':
                body += [' ' + l for l in a[x1:x2]]
                continue
            body += ['-' + l for l in a[x1:x2]]
            body += ['+' + l for l in b[y1:y2]]
        hunks.append((i1, i2, j1, j2, body))
    if not hunks:
        return None
    start = random.randrange(len(hunks))
    kept, total, shift = [], 0, 0
    for i1, i2, j1, j2, body in hunks[start:]:
        if kept and total + len(body) > 400:
            break
        kept.append((i1, i2, j1, j2, body))
        total += len(body)
    text = ''
    for i1, i2, j1, j2, body in kept:
        # the new side's start as if only the kept hunks applied
        nb = sum(1 for l in body if l[0] != '-')
        na = i2 - i1
        text += '@@ -%d,%d +%d,%d @@\n' % (i1 + 1 if na else i1, na,
                                          i1 + shift + 1 if nb else i1 + shift, nb)
        text += '\n'.join(body) + '\n'
        shift += nb - na
    return ("From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n"
            "From: Jane Doe <jane@example.com>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n"
            "Subject: [PATCH] %s: update it\n\n%s---\n"
            "diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n%s-- \n2.43.0\n"
            % (rel.split('/')[-2] if '/' in rel else 'x', msg, rel, rel, rel, rel, text))

for i, (p, t, *_) in enumerate(chosen):
    rel = os.path.relpath(p, root)
    lines = t.split('\n')
    if lines and lines[-1] == '':
        lines = lines[:-1]
    body = random.sample(msgs, random.randint(0, 5))
    sob_first = random.random() < 0.2
    tags = [m for m in body if re.match(r'^(Reported|Closes|Link|Co-dev|Suggested|Tested|Cc|Fixes|fixes|Fixes:)', m)]
    text = [m for m in body if m not in tags]
    msg = ("Update %s.\n\n" if old_root is not None else "Add %s.\n\n") % rel
    if text:
        msg += "\n".join(text) + "\n\n"
    if sob_first:
        msg += "Signed-off-by: Jane Doe <jane@example.com>\n" + "\n".join(tags) + ("\n" if tags else "")
    else:
        msg += "\n".join(tags) + ("\n" if tags else "") + "Signed-off-by: Jane Doe <jane@example.com>\n"
    if old_root is not None:
        patch = modify(rel, chosen[i][2], t, msg)
        if patch is None:
            continue
        name = "%03d-%s.patch" % (i, re.sub(r'[^A-Za-z0-9]+', '-', rel)[-60:])
        open(os.path.join(out, name), 'w', encoding='latin-1').write(patch)
        continue
    hunk = "\n".join("+" + l for l in lines)
    patch = ("From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n"
             "From: Jane Doe <jane@example.com>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n"
             "Subject: [PATCH] %s: add it\n\n%s---\n"
             "diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n%s\n-- \n2.43.0\n"
             % (rel.split('/')[-2] if '/' in rel else 'x', msg, rel, rel, rel, len(lines), hunk))
    name = "%03d-%s.patch" % (i, re.sub(r'[^A-Za-z0-9]+', '-', rel)[-60:])
    open(os.path.join(out, name), 'w', encoding='latin-1').write(patch)
print('%d patches in %s' % (len(chosen), out))

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes the hostile mails that are too big, or hold bytes too odd, to keep
# in git (see README) into OUTDIR, one file each.  Deterministic: the same
# bytes on every run.
import os
import random
import sys

PATCH = b"""Signed-off-by: Mallory <mallory@evil.example>
---
diff --git a/drivers/leds/leds-evil.c b/drivers/leds/leds-evil.c
--- a/drivers/leds/leds-evil.c
+++ b/drivers/leds/leds-evil.c
@@ -10,3 +10,4 @@ static int evil_probe(struct platform_device *pdev)
 {
+	return 0;
 	struct evil_led *led;
 
-- 
2.39.5
"""


def hdr(name, subject, frm=b'Mallory <mallory@evil.example>', extra=b''):
    if isinstance(subject, str):
        subject = subject.encode()
    return (b'From: ' + frm + b'\nDate: Sat, 7 Nov 2026 10:00:00 +0000\nSubject: ' + subject +
            b'\nMessage-ID: <hostile-' + name.encode() + b'@evil.example>\nTo: linux-leds@vger.kernel.org\n' + extra)


def cases():
    yield 'empty', b''
    yield 'only-newlines', b'\n' * 100000
    yield 'mbox-from-line-only', b'From mallory@evil.example Mon Jan  1 00:00:00 2026\n'
    rnd = random.Random(7)
    yield 'binary-junk', bytes(rnd.getrandbits(8) for _ in range(256 << 10))
    yield 'binary-junk-after-headers', hdr('binary-junk-after-headers', '[PATCH] leds: evil: binary body') + b'\n' + \
        bytes(rnd.getrandbits(8) for _ in range(64 << 10))
    yield 'nul-bytes', hdr('nul-bytes', b'[PATCH] leds: evil: nul\x00Bcc: victim@evil.example',
                          frm=b'Mal\x00lory <mallory-nul@evil.example>') + b'X-Nul: \x00\x00\x00\n\n' + \
        PATCH.replace(b'return 0;', b'return\x00 0;') + b'\x00' * 1000
    yield 'bare-cr-in-subject', hdr('bare-cr-in-subject', b'[PATCH] leds: evil: bare cr\rBcc: victim@evil.example\r') + b'\n' + PATCH
    yield 'bare-cr-in-from', hdr('bare-cr-in-from', '[PATCH] leds: evil: bare cr in from',
                                frm=b'Mallory\rBcc: victim@evil.example\r <mallory-cr@evil.example>') + b'\n' + PATCH
    yield 'crlf-mixed-line-ends', hdr('crlf-mixed-line-ends', '[PATCH] leds: evil: mixed line ends').replace(b'\n', b'\r\n') + \
        b'\n\r\r\n' + PATCH.replace(b'\n', b'\r\r\n')
    yield 'latin1-raw-headers', hdr('latin1-raw-headers', b'[PATCH] leds: evil: caf\xe9 \xff\xfe',
                                   frm=b'M\xe4llory <mallory-l1@evil.example>') + b'\n' + PATCH
    yield 'utf8-overlong', hdr('utf8-overlong', b'[PATCH] leds: evil: overlong \xc0\xaf\xe0\x80\xaf\xf0\x80\x80\xaf \xed\xa0\x80 \xf4\x90\x80\x80',
                              frm=b'\xc0\xbcscript\xc0\xbe <mallory-ol@evil.example>') + \
        b'Content-Type: text/plain; charset=utf-8\n\n' + PATCH.replace(b'return 0;', b'return 0; /* \xc0\x8a\xc1\x81 */')
    yield 'unknown-charset-8bit', hdr('unknown-charset-8bit', '[PATCH] leds: evil: unknown charset with 8-bit bytes') + \
        b'MIME-Version: 1.0\nContent-Type: text/plain; charset=x-unknown-9\nContent-Transfer-Encoding: 8bit\n\n' + \
        PATCH.replace(b'return 0;', b'return 0; /* \xe9\xff\x80 */')
    # a 6 MB line: in the commit message, added to a text file, added to
    # a C file (256 KB; the 6 MB one is long-line-6mb-c, see README)
    yield 'long-line-6mb', hdr('long-line-6mb', '[PATCH] leds: evil: a 6 MB line in the message') + b'\n' + \
        b'A' * (6 << 20) + b'\n\n' + PATCH
    yield 'long-line-6mb-doc', hdr('long-line-6mb-doc', '[PATCH] leds: evil: a 6 MB added line in a text file') + \
        b'\nAdd a long line.\n\nSigned-off-by: Mallory <mallory@evil.example>\n---\n' + \
        b'diff --git a/Documentation/evil.txt b/Documentation/evil.txt\n--- a/Documentation/evil.txt\n+++ b/Documentation/evil.txt\n' + \
        b'@@ -1,1 +1,2 @@\n ctx\n+' + b'D' * (6 << 20) + b'\n-- \n2.39.5\n'
    for name, size in (('long-line-256k-c', 256 << 10), ('long-line-6mb-c', 6 << 20)):
        yield name, hdr(name, '[PATCH] leds: evil: a long added line of C') + b'\n' + \
            PATCH.replace(b'+\treturn 0;', b'+\treturn 0; /* ' + b'A' * size + b' */')
    # 6 MB with no newline at all
    yield 'no-newline-6mb', b'X' * (6 << 20)
    yield 'subject-1mb', hdr('subject-1mb', b'[PATCH] leds: evil: ' + b'S' * (1 << 20)) + b'\n' + PATCH
    yield 'subject-1mb-folded', hdr('subject-1mb-folded', b'[PATCH 1/2] ' + b'\n '.join([b'w' * 70] * 15000)) + b'\n' + PATCH
    yield 'subject-many-encoded-words', hdr('subject-many-encoded-words', b'[PATCH] ' + b' '.join([b'=?UTF-8?Q?=E2=80=AE=0D=0A?='] * 20000)) + b'\n' + PATCH
    yield 'header-line-300k', hdr('header-line-300k', '[PATCH] leds: evil: a 300 KB header line',
                                 extra=b'X-Long: ' + b'h' * (300 << 10) + b'\n') + b'\n' + PATCH
    yield 'many-headers', hdr('many-headers', '[PATCH] leds: evil: 100000 header fields',
                             extra=b''.join(b'X-H%d: v\n' % i for i in range(100000))) + b'\n' + PATCH
    yield 'references-thousands', hdr('references-thousands', '[PATCH] leds: evil: 5000 references',
                                     extra=b'In-Reply-To: ' + b' '.join(b'<r%d@evil.example>' % i for i in range(2000)) +
                                     b'\nReferences:' + b''.join(b'\n <ref-%d@evil.example>' % i for i in range(5000)) + b'\n') + b'\n' + PATCH
    yield 'references-over-header-limit', hdr('references-over-header-limit', '[PATCH] leds: evil: 20000 references',
                                             extra=b'References:' + b''.join(b'\n <ref-%d@evil.example>' % i for i in range(20000)) + b'\n') + b'\n' + PATCH
    yield 'references-one-huge-id', hdr('references-one-huge-id', '[PATCH] leds: evil: a 200 KB Message-ID in References',
                                       extra=b'References: <' + b'x' * (200 << 10) + b'@evil.example>\nIn-Reply-To: <' +
                                       b'y' * (200 << 10) + b'@evil.example>\n') + b'\n' + PATCH
    yield 'message-id-200k', hdr('message-id-200k', '[PATCH] leds: evil: a 200 KB Message-ID').replace(
        b'<hostile-message-id-200k@', b'<' + b'm' * (200 << 10) + b'@') + b'\n' + PATCH
    yield 'to-cc-thousands', hdr('to-cc-thousands', '[PATCH] leds: evil: 5000 recipients',
                                extra=b'Cc: ' + b',\n '.join(b'"V%d" <victim%d@evil.example>' % (i, i) for i in range(5000)) + b'\n') + b'\n' + PATCH
    # multipart nested hundreds deep, the patch at the bottom
    depth = 500
    body = b''
    for i in range(depth):
        body += b'--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n' % (i, i + 1)
    body += b'--b%d\nContent-Type: text/x-patch\n\n' % depth + PATCH + b'\n--b%d--\n' % depth
    for i in range(depth - 1, -1, -1):
        body += b'--b%d--\n' % i
    yield 'multipart-nested-500', hdr('multipart-nested-500', '[PATCH] leds: evil: multipart 500 deep',
                                     extra=b'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b0\n') + b'\n' + body
    # the same boundary at every level
    body = b'--s\nContent-Type: multipart/mixed; boundary=s\n\n' * 2000 + b'--s--\n' * 2000
    yield 'multipart-nested-same-boundary', hdr('multipart-nested-same-boundary', '[PATCH] leds: evil: one boundary 2000 deep',
                                               extra=b'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=s\n') + b'\n' + body
    # message/rfc822 nested deep
    inner = b'Subject: inner\n\n' + PATCH
    for i in range(300):
        inner = b'Content-Type: message/rfc822\n\n' + inner
    yield 'rfc822-nested-300', hdr('rfc822-nested-300', '[PATCH] leds: evil: message/rfc822 300 deep',
                                  extra=b'MIME-Version: 1.0\n') + inner
    body = b''.join(b'--p\nContent-Type: text/x-patch\n\n' + PATCH for _ in range(5000)) + b'--p--\n'
    yield 'multipart-5000-parts', hdr('multipart-5000-parts', '[PATCH] leds: evil: 5000 patch parts',
                                     extra=b'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=p\n') + b'\n' + body
    # deeply nested quoted-printable soft breaks
    qp = b'Add=\n' + b'=\n' * 500000 + b' the evil driver.=3D=\n=\n=0\n\n' + PATCH.replace(b'\n', b'=\n\n', 3)
    yield 'qp-soft-breaks', hdr('qp-soft-breaks', '[PATCH] leds: evil: half a million soft line breaks',
                               extra=b'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n') + b'\n' + qp
    yield 'base64-one-line-4mb', hdr('base64-one-line-4mb', '[PATCH] leds: evil: 4 MB base64 on one line',
                                    extra=b'MIME-Version: 1.0\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n') + b'\n' + \
        __import__('base64').b64encode(PATCH + b'+' * (3 << 20))
    # 20,000 files in one patch
    files = []
    for i in range(20000):
        p = b'drivers/evil/f%05d.c' % i
        files.append(b'diff --git a/' + p + b' b/' + p + b'\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/' + p +
                     b'\n@@ -0,0 +1,2 @@\n+// SPDX-License-Identifier: GPL-2.0\n+int f%d;\n' % i)
    yield 'files-20000', hdr('files-20000', '[PATCH] evil: 20000 new files', frm=b'Mallory <mallory-20k@evil.example>') + \
        b'\nAdd 20000 files.\n\nSigned-off-by: Mallory <mallory-20k@evil.example>\n---\n' + b''.join(files) + b'-- \n2.39.5\n'
    # one file, 200,000 added lines
    lines = b''.join(b'+int v%d;\n' % i for i in range(200000))
    yield 'lines-200000', hdr('lines-200000', '[PATCH] evil: 200000 lines in one hunk', frm=b'Mallory <mallory-200k@evil.example>') + \
        b'\nAdd lines.\n\nSigned-off-by: Mallory <mallory-200k@evil.example>\n---\ndiff --git a/e.c b/e.c\n--- a/e.c\n+++ b/e.c\n@@ -1,1 +1,200001 @@\n ctx\n' + \
        lines + b'-- \n2.39.5\n'
    # 50,000 hunks in one file
    hunks = b''.join(b'@@ -%d,1 +%d,2 @@\n ctx\n+int h%d;\n' % (i * 10 + 1, i * 11 + 1, i) for i in range(50000))
    yield 'hunks-50000', hdr('hunks-50000', '[PATCH] evil: 50000 hunks', frm=b'Mallory <mallory-hunks@evil.example>') + \
        b'\nAdd hunks.\n\nSigned-off-by: Mallory <mallory-hunks@evil.example>\n---\ndiff --git a/e.c b/e.c\n--- a/e.c\n+++ b/e.c\n' + hunks + b'-- \n2.39.5\n'
    # nearly the 64 MB limit would be slow in CI; a mail just over what
    # a line-based reader might assume (1 MB lines, 16 MB in all)
    yield 'lines-1mb-x16', hdr('lines-1mb-x16', 'not a patch: sixteen 1 MB lines') + b'\n' + (b'L' * (1 << 20) + b'\n') * 16
    # regex-hostile text in the commit message and code
    yield 'regex-backtracking', hdr('regex-backtracking', '[PATCH] leds: evil: regex backtracking bait') + b'\n' + \
        b'(' * 50000 + b'\n' + b'a' * 50000 + b'!\n' + PATCH.replace(b'+\treturn 0;', b'+\tx = ' + b'(' * 20000 + b'1' + b')' * 20000 + b';\n+\t' +
                                                                 b'"\\' * 20000 + b'\n+\tif (a && b || ' * 2000 + b'c)\n+\treturn 0;')


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = sys.argv[2:]
    for name, data in cases():
        if names and name not in names:
            continue
        with open(os.path.join(out, name + '.eml'), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()

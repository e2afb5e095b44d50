#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check a screenshot for tests/bot/test_serve.sh, with the standard
library alone (no PIL): PNG FILE WIDTH HEIGHT

- a valid PNG (signature, chunk CRCs, IHDR, IDAT inflating to the exact
  size) of WIDTH x HEIGHT, 8-bit RGB or RGBA, not interlaced, as
  Chromium writes them;
- not blank: at least MIN_COLOURS distinct colours and MIN_INK of the
  pixels other than the page's background (its most common colour);
- nothing cut off at the right edge: on every row the last EDGE pixels
  are one colour.  A page wider than the window (a table, a long line,
  an SVG that does not shrink) is clipped there in a headless
  screenshot, leaving text or lines in those columns; a page that fits
  has its margin or a full-width bar there.

Prints the figures; exits 1 with the reason when a check fails.
"""
import struct
import sys
import zlib

MIN_COLOURS = 16
MIN_INK = 0.005
EDGE = 6


def fail(why):
    print('pngcheck: %s: %s' % (sys.argv[1], why))
    sys.exit(1)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(data):
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        fail('not a PNG')
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        if pos + 12 > len(data):
            fail('truncated chunk')
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])
        if len(body) != n or zlib.crc32(kind + body) != crc:
            fail('bad chunk %r' % kind)
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        elif kind == b'IEND':
            break
        pos += 12 + n
    if not ihdr or not idat:
        fail('no IHDR or IDAT')
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail('not 8-bit RGB(A) non-interlaced: depth %d type %d' % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b''.join(idat))
    stride = w * bpp
    if len(raw) != h * (stride + 1):
        fail('IDAT is %d bytes, not %d' % (len(raw), h * (stride + 1)))
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        cur = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                cur[i] = (cur[i] + cur[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                cur[i] = (cur[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                ul = prev[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + paeth(left, prev[i], ul)) & 255
        elif f != 0:
            fail('bad filter %d on row %d' % (f, y))
        rows.append([bytes(cur[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = cur
    return w, h, rows


def main():
    want_w, want_h = int(sys.argv[2]), int(sys.argv[3])
    with open(sys.argv[1], 'rb') as f:
        w, h, rows = decode(f.read())
    if (w, h) != (want_w, want_h):
        fail('%dx%d, not %dx%d' % (w, h, want_w, want_h))
    count = {}
    for r in rows:
        for p in r:
            count[p] = count.get(p, 0) + 1
    bg = max(count, key=count.get)
    ink = 1 - count[bg] / (w * h)
    cut = [y for y, r in enumerate(rows) if len(set(r[w - EDGE:])) > 1]
    print('pngcheck: %s: %dx%d, %d colours, %.1f%% not background, '
          '%d rows with ink in the last %d columns' %
          (sys.argv[1], w, h, len(count), ink * 100, len(cut), EDGE))
    if len(count) < MIN_COLOURS:
        fail('%d colours: blank' % len(count))
    if ink < MIN_INK:
        fail('%.2f%% ink: blank' % (ink * 100))
    if cut:
        fail('cut off at the right edge on rows %d..%d' % (cut[0], cut[-1]))


main()

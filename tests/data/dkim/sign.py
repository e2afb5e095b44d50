#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# sign.py [DOMAIN [--length]]: stdin, a mail, signed with DKIM by dkimpy
# (Debian's python3-dkim) under the test key of this folder (selector
# "test", d=DOMAIN, example.org by default), on stdout.  The key table
# `keys` beside it holds the public half for example.org, as the bot's
# [bot] dkim_keys reads it.  --length adds a body length tag (l=).
import os
import sys

import dkim

here = os.path.dirname(os.path.abspath(__file__))
domain = (sys.argv[1] if len(sys.argv) > 1 else 'example.org').encode()
msg = sys.stdin.buffer.read()
key = open(os.path.join(here, 'test.private'), 'rb').read()
heads = [b'from', b'to', b'subject', b'date', b'message-id']
if b'\nin-reply-to:' in msg.lower() or msg.lower().startswith(b'in-reply-to:'):
    heads.append(b'in-reply-to')
sig = dkim.sign(msg, b'test', domain, key, include_headers=heads,
                length='--length' in sys.argv)
sys.stdout.buffer.write(sig + msg)

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""An SMTP server for reviewbot's integration tests (aiosmtpd, 127.0.0.1).

Each accepted message goes into the maildir DIR/mbox (aiosmtpd's Mailbox
handler: X-MailFrom and X-RcptTo headers added) and, byte for byte as it
came off the wire after dot-unstuffing, into DIR/raw/N.eml with the
envelope in DIR/raw/N.json.  DIR/events gets one line per transaction
step that the tests count ("MAIL", "RCPT addr 250", "DATA 250", ...).

The behaviour is switched by the file DIR/control, read at each step
(missing or empty: accept), one line "MODE [ARG]":

  accept            everything is accepted
  421               MAIL FROM gets "421 4.3.2 ..." and the connection closes
  451               the end of DATA gets "451 4.3.0 ..." (nothing stored)
  550 [ADDR]        RCPT TO ADDR (every recipient when no ADDR) gets
                    "550 5.1.1 <ADDR>: user unknown"
  554               the end of DATA gets "554 5.6.0 ..." (nothing stored)
  drop              the connection is closed after the data, before the
                    final reply (nothing stored)

Options: --auth USER:PASSWORD_FILE requires AUTH (PLAIN/LOGIN, also
without TLS); --tls CERT:KEY offers STARTTLS and requires it; --smtps
CERT:KEY speaks TLS from the first byte (RFC 8314).
"""
import argparse
import asyncio
import json
import os
import signal
import ssl

from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Handler(Mailbox):
    def __init__(self, folder):
        os.makedirs(os.path.join(folder, "raw"), exist_ok=True)
        super().__init__(os.path.join(folder, "mbox"))
        self.folder = folder
        self.stored = 0

    def mode(self):
        try:
            with open(os.path.join(self.folder, "control")) as f:
                words = f.read().split()
        except FileNotFoundError:
            words = []
        return (words[0] if words else "accept", words[1] if len(words) > 1 else None)

    def event(self, text):
        with open(os.path.join(self.folder, "events"), "a") as f:
            f.write(text + "\n")

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        mode, _ = self.mode()
        if mode == "421":
            self.event("MAIL 421")
            # aiosmtpd does not close after a 421 by itself (RFC 5321
            # 3.8): close once the reply is out
            asyncio.get_running_loop().call_soon(server.transport.close)
            return "421 4.3.2 Service shutting down, try again later"
        self.event("MAIL %s" % address)
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        mode, arg = self.mode()
        if mode == "550" and (arg is None or arg.lower() == address.lower()):
            self.event("RCPT %s 550" % address)
            return "550 5.1.1 <%s>: user unknown" % address
        self.event("RCPT %s 250" % address)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        mode, _ = self.mode()
        if mode == "451":
            self.event("DATA 451")
            return "451 4.3.0 Requested action aborted: try again later"
        if mode == "554":
            self.event("DATA 554")
            return "554 5.6.0 Message content rejected"
        if mode == "drop":
            self.event("DATA drop")
            server.transport.abort()
            return "250 OK"  # never reaches the client
        n = self.stored
        self.stored += 1
        with open(os.path.join(self.folder, "raw", "%d.eml" % n), "wb") as f:
            f.write(envelope.original_content)
        with open(os.path.join(self.folder, "raw", "%d.json" % n), "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt": envelope.rcpt_tos,
                       "tls": (session.ssl is not None or
                               server.transport.get_extra_info("ssl_object") is not None),
                       "auth": session.authenticated}, f)
        self.event("DATA 250")
        return await super().handle_DATA(server, session, envelope)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--auth")
    ap.add_argument("--tls")
    ap.add_argument("--smtps")
    a = ap.parse_args()

    handler = Handler(a.dir)
    kw = {"hostname": "rb-test.example.org", "data_size_limit": 8 << 20}
    if a.auth:
        user, pwfile = a.auth.split(":", 1)
        with open(pwfile) as f:
            password = f.readline().rstrip("\r\n")

        def authenticator(server, session, envelope, mechanism, auth_data):
            good = (isinstance(auth_data, LoginPassword) and
                    auth_data.login.decode() == user and
                    auth_data.password.decode() == password)
            handler.event("AUTH %s %s" % (mechanism, "ok" if good else "bad"))
            return AuthResult(success=good, handled=False)

        kw.update(authenticator=authenticator, auth_required=True,
                  auth_require_tls=False)
    def context(pair):
        cert, key = pair.split(":", 1)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        return ctx

    if a.tls:
        kw.update(tls_context=context(a.tls), require_starttls=True)
    implicit = context(a.smtps) if a.smtps else None

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(
        loop.create_server(lambda: SMTP(handler, loop=loop, **kw), "127.0.0.1", a.port,
                           ssl=implicit))
    loop.add_signal_handler(signal.SIGTERM, loop.stop)
    loop.add_signal_handler(signal.SIGINT, loop.stop)
    try:
        loop.run_forever()
    finally:
        server.close()
        loop.run_until_complete(server.wait_closed())
        loop.close()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A real SMTP submission server with TLS and AUTH on 127.0.0.1 (t0110).

    tls-smtp.py MODE PORTFILE MAILDIR LOG USER PASSWORDFILE CERT KEY [MECHS]

python3-aiosmtpd's SMTP protocol, with a fixed login.  MODE is one of
    starttls   STARTTLS offered and required before anything but EHLO,
               HELO, NOOP, QUIT; AUTH required before MAIL
    smtps      implicit TLS from the first byte (what smtps:// speaks);
               AUTH required before MAIL
    plain      no STARTTLS at all, and AUTH offered in clear text: the
               server a client must not give its password to
    deny       STARTTLS offered, but answered "454 TLS not available";
               AUTH offered in clear text
MECHS is the AUTH mechanisms offered, "PLAIN,LOGIN" by default.

The server binds a free port itself and writes it to PORTFILE once it
listens (no race with another process, and no probe connection that
would show up in LOG).  Accepted messages go to MAILDIR (aiosmtpd's
Mailbox handler: X-MailFrom / X-RcptTo headers added).  LOG gets one JSON
line per session when it ends:
    conn          session number, from 1
    tls           "starttls", "implicit" or null
    tls_version   e.g. "TLSv1.3"
    tls_error     the handshake failed (after STARTTLS)
    commands      every command verb received, in order ("AUTH PLAIN")
    clear         the command verbs received before TLS was up
    auth          AUTH attempts: {"mech", "user", "ok"} (never the password)
    password_in_clear  the password, raw or inside base64, was received
                  before TLS was up
    mails         Message-IDs of the messages stored
The password itself is read from PASSWORDFILE and never logged.
"""
import asyncio
import base64
import binascii
import json
import logging
import os
import ssl
import sys
import time
import warnings

from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

mode, portfile, maildir, logpath, user, pwfile, cert, key = sys.argv[1:9]
mechs = sys.argv[9].split(",") if len(sys.argv) > 9 else ["PLAIN", "LOGIN"]
with open(pwfile, "rb") as f:
    password = f.readline().rstrip(b"\r\n")
VERBS = {"EHLO", "HELO", "STARTTLS", "AUTH", "MAIL", "RCPT", "DATA",
         "RSET", "NOOP", "QUIT", "VRFY", "EXPN", "HELP"}
CLEAR_MAX = 65536
sessions = [0]

# Requiring AUTH over implicit TLS makes aiosmtpd warn that AUTH does not
# require STARTTLS; here that is the point, not a mistake.
warnings.simplefilter("ignore")
logging.getLogger("mail.log").setLevel(logging.ERROR)


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = (isinstance(auth_data, LoginPassword) and
          auth_data.login == user.encode() and auth_data.password == password)
    server.rec["auth"].append({"mech": mechanism,
                               "user": auth_data.login.decode(errors="replace"),
                               "ok": ok})
    return AuthResult(success=ok, handled=False)


def holds_password(data):
    """The password, raw or base64-encoded (AUTH PLAIN / LOGIN), in data."""
    if password in data:
        return True
    for word in data.split():
        try:
            if password in base64.b64decode(word, validate=True):
                return True
        except (binascii.Error, ValueError):
            pass
    return False


class Store(Mailbox):
    async def handle_DATA(self, server, session, envelope):
        ret = await super().handle_DATA(server, session, envelope)
        msg = envelope.original_content or b""
        mid = None
        for line in msg.split(b"\r\n"):
            if not line:
                break
            if line.lower().startswith(b"message-id:"):
                mid = line.split(b":", 1)[1].strip().decode(errors="replace")
        server.rec["mails"].append(mid)
        return ret


class LoggedSMTP(SMTP):
    """aiosmtpd's SMTP, noting per session what the client sent, and how."""

    def connection_made(self, transport):
        first = self.transport is None
        super().connection_made(transport)
        ssl_obj = transport.get_extra_info("ssl_object")
        if first:
            sessions[0] += 1
            self.rec = {"conn": sessions[0], "tls": None, "tls_version": None,
                        "commands": [], "clear": [], "auth": [],
                        "password_in_clear": False, "mails": []}
            self._clear_bytes = bytearray()
            self._raw_lines = False
            self._logged = False
            if ssl_obj is not None:
                self.rec["tls"] = "implicit"
                self.rec["tls_version"] = ssl_obj.version()
            self._wrap_reader()
        elif ssl_obj is not None:
            self.rec["tls"] = "starttls"
            self.rec["tls_version"] = ssl_obj.version()

    def _wrap_reader(self):
        """See every line before aiosmtpd does (its reader is kept across
        STARTTLS, so this sees the plain and the encrypted part)."""
        readuntil = self._reader.readuntil

        async def noting_readuntil(separator=b"\n"):
            line = await readuntil(separator)
            self._saw(bytes(line))
            return line
        self._reader.readuntil = noting_readuntil

    def _saw(self, line):
        if self.rec["tls"] is None:
            if len(self._clear_bytes) < CLEAR_MAX:
                self._clear_bytes += line[:CLEAR_MAX]
            if holds_password(line):
                self.rec["password_in_clear"] = True
        if self._raw_lines:	# message text or an AUTH answer: no verb
            return
        words = line.decode("ascii", errors="replace").split()
        if not words or words[0].upper() not in VERBS:
            return
        verb = words[0].upper()
        if verb == "AUTH" and len(words) > 1:
            verb += " " + words[1].upper()	# the mechanism, not the answer
        self.rec["commands"].append(verb)
        if self.rec["tls"] is None:
            self.rec["clear"].append(verb)

    async def smtp_STARTTLS(self, arg):
        if mode == "deny":
            await self.push("454 4.7.0 TLS not available due to temporary reason")
            return
        await super().smtp_STARTTLS(arg)

    async def _raw(self, command, arg):
        """What the client sends inside `command` is no command to log."""
        self._raw_lines = True
        try:
            await command(arg)
        finally:
            self._raw_lines = False

    async def smtp_AUTH(self, arg):
        await self._raw(super().smtp_AUTH, arg)

    async def smtp_DATA(self, arg):
        await self._raw(super().smtp_DATA, arg)

    def connection_lost(self, error):
        if not getattr(self, "_logged", True):
            self._logged = True
            if error is not None and self.rec["tls"] is None and \
               "STARTTLS" in self.rec["commands"]:
                self.rec["tls_error"] = repr(error.__cause__ or error)
            self.rec["t"] = time.time()
            with open(logpath, "a") as f:
                f.write(json.dumps(self.rec) + "\n")
        super().connection_lost(error)


def main():
    ctx = None
    if mode in ("starttls", "smtps", "deny"):
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        ctx.load_cert_chain(cert, key)
    elif mode != "plain":
        sys.exit("tls-smtp.py: unknown mode '%s'" % mode)
    for d in ("tmp", "new", "cur"):
        os.makedirs(os.path.join(maildir, d), exist_ok=True)
    handler = Store(maildir)
    exclude = [m for m in ("PLAIN", "LOGIN") if m not in mechs]
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    def factory():
        return LoggedSMTP(handler, hostname="tls-smtp.test", loop=loop,
                          tls_context=ctx if mode in ("starttls", "deny") else None,
                          require_starttls=mode == "starttls",
                          auth_required=True,
                          auth_require_tls=mode == "starttls",
                          auth_exclude_mechanism=exclude,
                          authenticator=authenticator, timeout=30)

    server = loop.run_until_complete(loop.create_server(
        factory, host="127.0.0.1", port=0,
        ssl=ctx if mode == "smtps" else None))
    port = server.sockets[0].getsockname()[1]
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % port)
    os.rename(portfile + ".tmp", portfile)
    loop.run_forever()


main()

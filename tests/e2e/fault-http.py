#!/usr/bin/env python3
"""A stand-in for a public-inbox server that fails on purpose (t04xx).

    fault-http.py PORT UPSTREAM LOG KIND:FAULT[,KIND:FAULT...]

Listens on 127.0.0.1:PORT and forwards every GET to UPSTREAM (a real
public-inbox-httpd), except that the Nth request of a KIND gets the Nth
FAULT scheduled for that kind instead.  KIND is "feed" (.../new.atom) or
"thread" (anything else: what b4 fetches).  Git epochs (INBOX/git/N.git)
are always 404: an archive that serves only its feed and threads.  FAULTs:
    500         "500 Internal Server Error"
    503         "503 Service Unavailable" with Retry-After: 2
    garbage     200 with an HTML error page where the Atom or mbox should be
    truncated   200 with the first half of the real answer
    dtd         200 with an Atom feed that declares entities (a billion
                laughs): the parser must refuse it, not expand it
    hangup      the connection closed without an answer
LOG gets one JSON line per request: time, path, kind, what was done.
"""
import http.server
import json
import re
import socketserver
import sys
import threading
import time
import urllib.error
import urllib.request

port, upstream, logpath = int(sys.argv[1]), sys.argv[2].rstrip("/"), sys.argv[3]
plan = {"feed": [], "thread": []}
for item in (sys.argv[4].split(",") if len(sys.argv) > 4 else []):
    if item:
        kind, fault = item.split(":", 1)
        plan[kind].append(fault)
seen = {"feed": 0, "thread": 0}
me = "http://127.0.0.1:%d" % port


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Pass public-inbox's redirects on (b4 follows them itself)."""

    def redirect_request(self, *args, **kwargs):
        return None


opener = urllib.request.build_opener(NoRedirect)
lock = threading.Lock()

BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE feed [
<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
]>
<feed xmlns="http://www.w3.org/2005/Atom"><title>&d;&d;&d;&d;</title></feed>
"""


def log(**kw):
    kw["t"] = time.time()
    with lock, open(logpath, "a") as f:
        f.write(json.dumps(kw) + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def answer(self, code, body, ctype="text/plain", extra=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def forward(self):
        req = urllib.request.Request(upstream + self.path,
                                     headers={k: v for k, v in self.headers.items()
                                              if k.lower() in ("if-none-match", "if-modified-since",
                                                               "accept", "accept-encoding")})
        try:
            with opener.open(req, timeout=30) as r:
                return r.status, r.read(), r.headers
        except urllib.error.HTTPError as e:
            return e.code, e.read(), e.headers

    def do_GET(self):
        # An archive without git epochs (/INBOX/git/N.git, /INBOX/N): the
        # service falls back to the feed, whose faults are the point here.
        if re.match(r"/[^/]+/(git/)?[0-9]+(\.git)?/", self.path):
            log(path=self.path, kind="git", did="404")
            return self.answer(404, b"no git here\n")
        kind = "feed" if self.path.split("?")[0].endswith("/new.atom") else "thread"
        with lock:
            n = seen[kind]
            seen[kind] += 1
        fault = plan[kind][n] if n < len(plan[kind]) else None
        if fault == "hangup":
            log(path=self.path, kind=kind, did="hangup")
            self.close_connection = True
            self.connection.close()
            return
        if fault == "500":
            log(path=self.path, kind=kind, did="500")
            return self.answer(500, b"Internal Server Error\n")
        if fault == "503":
            log(path=self.path, kind=kind, did="503")
            return self.answer(503, b"busy\n", extra=[("Retry-After", "2")])
        if fault == "garbage":
            log(path=self.path, kind=kind, did="garbage")
            return self.answer(200, b"<html><body><h1>Oops</h1>an error page</body></html>\n",
                               "application/atom+xml" if kind == "feed" else "application/gzip")
        if fault == "dtd":
            log(path=self.path, kind=kind, did="dtd")
            return self.answer(200, BOMB, "application/atom+xml")
        code, body, headers = self.forward()
        if fault == "truncated":
            log(path=self.path, kind=kind, did="truncated", code=code)
            return self.answer(200, body[: len(body) // 2],
                               headers.get("Content-Type", "application/octet-stream"))
        log(path=self.path, kind=kind, did="forward", code=code)
        extra = [(k, headers[k]) for k in ("ETag", "Last-Modified", "Content-Encoding") if headers.get(k)]
        if headers.get("Location"):
            extra.append(("Location", headers["Location"].replace(upstream, me)))
        self.answer(code, body, headers.get("Content-Type", "application/octet-stream"), extra)

    do_HEAD = do_GET


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


Server(("127.0.0.1", port), Handler).serve_forever()

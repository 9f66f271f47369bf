#!/usr/bin/env python3
"""An SMTP server on 127.0.0.1 that misbehaves on purpose (t04xx tests).

    fault-smtp.py PORT MAILDIR LOG MODE[,MODE...]

Connection N (from 1) follows the Nth mode of the list, then every later
one "ok".  Modes:
    ok              a normal session: the message is stored, 250
    greet-554       "554 no service" instead of the greeting, then close
    rcpt-550        RCPT TO refused (the recipient "does not exist")
    data-451        the whole message read, then "451 try again later"
    drop-mid        the connection closed after the message's headers,
                    without a reply (the message never arrived)
    drop-after-dot  the whole message read and stored, then the connection
                    closed without the final reply (delivered; the client
                    cannot know)
Stored messages go to MAILDIR/new with X-MailFrom / X-RcptTo headers, as
aiosmtpd's Mailbox handler writes them.  LOG gets one JSON line per
connection: time, mode, Message-ID (when seen), what happened.
"""
import json
import os
import socket
import sys
import threading
import time

port, maildir, logpath = int(sys.argv[1]), sys.argv[2], sys.argv[3]
modes = [m for m in sys.argv[4].split(",") if m] if len(sys.argv) > 4 else []
lock = threading.Lock()
count = [0]
for d in ("tmp", "new", "cur"):
    os.makedirs(os.path.join(maildir, d), exist_ok=True)


def log(**kw):
    kw["t"] = time.time()
    with lock, open(logpath, "a") as f:
        f.write(json.dumps(kw) + "\n")


def store(mail_from, rcpts, data):
    name = "%.6f.%d.fault" % (time.time(), os.getpid())
    tmp = os.path.join(maildir, "tmp", name)
    with open(tmp, "wb") as f:
        f.write(b"X-MailFrom: " + mail_from.encode() + b"\n")
        f.write(b"X-RcptTo: " + ", ".join(rcpts).encode() + b"\n")
        f.write(data.replace(b"\r\n", b"\n"))
    os.rename(tmp, os.path.join(maildir, "new", name))


def message_id(data):
    for line in data.split(b"\r\n"):
        if not line:
            break
        if line.lower().startswith(b"message-id:"):
            return line.split(b":", 1)[1].strip().decode(errors="replace")
    return None


def session(conn, n):
    mode = modes[n - 1] if n <= len(modes) else "ok"
    f = conn.makefile("rb")

    def send(s):
        conn.sendall(s.encode() + b"\r\n")

    if mode == "greet-554":
        send("554 fault.example no service")
        log(conn=n, mode=mode, result="refused at greeting")
        return
    send("220 fault.example ESMTP")
    mail_from, rcpts = "", []
    while True:
        line = f.readline()
        if not line:
            log(conn=n, mode=mode, result="client went away")
            return
        cmd = line.strip().decode(errors="replace")
        up = cmd.upper()
        if up.startswith("EHLO") or up.startswith("HELO"):
            send("250 fault.example")
        elif up.startswith("MAIL FROM:"):
            mail_from = cmd[10:].strip()
            send("250 ok")
        elif up.startswith("RCPT TO:"):
            if mode == "rcpt-550":
                send("550 5.1.1 no such user here")
            else:
                rcpts.append(cmd[8:].strip().strip("<>"))
                send("250 ok")
        elif up == "DATA":
            send("354 go ahead")
            data = b""
            while True:
                l = f.readline()
                if not l:
                    log(conn=n, mode=mode, result="client went away in DATA")
                    return
                if mode == "drop-mid" and l == b"\r\n":
                    log(conn=n, mode=mode, msgid=message_id(data + l),
                        result="closed after the headers")
                    return
                if l == b".\r\n":
                    break
                data += l[1:] if l.startswith(b"..") else l
            mid = message_id(data)
            if mode == "data-451":
                send("451 4.3.0 try again later")
                log(conn=n, mode=mode, msgid=mid, result="451 after DATA")
            elif mode == "drop-after-dot":
                store(mail_from, rcpts, data)
                log(conn=n, mode=mode, msgid=mid, result="stored, closed without a reply")
                return
            else:
                store(mail_from, rcpts, data)
                send("250 2.0.0 queued")
                log(conn=n, mode=mode, msgid=mid, result="stored")
        elif up == "RSET":
            mail_from, rcpts = "", []
            send("250 ok")
        elif up == "NOOP":
            send("250 ok")
        elif up == "QUIT":
            send("221 bye")
            return
        else:
            send("502 not implemented")


def serve(conn):
    with lock:
        count[0] += 1
        n = count[0]
    try:
        session(conn, n)
    except OSError as e:
        log(conn=n, result="socket error: %s" % e)
    finally:
        try:
            conn.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        conn.close()


srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port))
srv.listen(16)
while True:
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()

#!/usr/bin/env python3
"""Seeded clients of the heldout10 Postfix: SMTP sessions on 127.0.0.1:25
from 127.0.0.1 (not trusted), 127.0.0.2 (mynetworks) and 127.0.0.9 (a
rejected client), with and without STARTTLS: mail to local users,
aliases, a list, a file that cannot be written, a missing command, a
remote address, unknown users and relaying attempts; bad HELOs and none;
rejected, held and warned senders; subjects and bodies that header and
body checks reject, warn, hold or discard; messages over the size limit;
too many recipients; pipelining before the greeting; unknown commands,
VRFY, ETRN, garbage, dropped connections and idle clients; local
submissions with sendmail(1); queue flushes, requeues, deletes and
reloads.
usage: postfix-drive.py STEPS SEED"""
import random, smtplib, socket, ssl, subprocess, sys, threading, time

HOST, PORT = "127.0.0.1", 25
LOCAL = ["alice", "bob", "carol", "dave", "team", "all", "bob+lists", "postmaster", "root", "gone", "away", "broken", "slow"]
UNKNOWN = ["zed", "mallory", "info", "sales", "alice.smith"]
REMOTE = ["friend@example.org", "ops@mail.example.net", "x@ho10.test.example.com"]
SENDERS = ["news@lists.ho10.test", "bob@ho10.test", "billing@shop.example.com", "", "spammer@junk.test",
           "promo@junk.test", "user", "held@ho10.test", "tips@warn.test", "bounce@ho10.test", "alerts@monitor.example.net"]
SUBJ = ["status report", "meeting notes", "you won the lottery", "urgent: password reset", "hold me please", "lunch?", "build failed"]
threads = []

def bg(fn, *a):
    t = threading.Thread(target=fn, args=a, daemon=True); t.start(); threads.append(t)

def message(r, frm, to):
    subj = r.choice(SUBJ)
    hdr = "From: <%s>\r\nTo: <%s>\r\nSubject: %s\r\nMessage-ID: <%d.%d@client.ho10.test>\r\n" % (frm, to, subj, r.randrange(10**6), r.randrange(10**6))
    if r.random() < 0.06:
        hdr += "X-Mailer: spamtool 2.1\r\n"
    body = r.choice(["hello", "see attached notes", "please wire the money today", "to stop, unsubscribe here", "ok"])
    size = r.choice([1, 1, 1, 3, 20, 400]) if r.random() > 0.04 else 4000   # 4000 lines pass the size limit
    return (hdr + "\r\n" + body + "\r\n" + "".join("line %d of the report\r\n" % i for i in range(size))).encode()

def rcpts(r):
    out = []
    for _ in range(r.choice([1, 1, 1, 2, 3, 4, 10])):
        k = r.random()
        out.append((r.choice(LOCAL) + "@" + r.choice(["ho10.test", "ho10.test", "mx.ho10.test"])) if k < 0.75 else
                   (r.choice(UNKNOWN) + "@ho10.test") if k < 0.9 else r.choice(REMOTE))
    return out

def session(r):
    src = r.choice(["127.0.0.1"] * 8 + ["127.0.0.2"] * 2 + ["127.0.0.9"])
    try:
        s = smtplib.SMTP(timeout=15, source_address=(src, 0))
        s.connect(HOST, PORT)
        s._host = "mx.ho10.test"                 # the name STARTTLS sends
        helo = r.choice(["client.ho10.test"] * 6 + ["laptop", "[127.0.0.1]", "bad_host!name", "mail.example.com"])
        if r.random() < 0.05:
            s.docmd("MAIL FROM:<a@b.test>")          # before HELO
        s.ehlo(helo)
        if r.random() < 0.3 and s.has_extn("starttls"):
            s.starttls(context=ssl._create_unverified_context()); s.ehlo(helo)
        for _ in range(r.choice([1, 1, 1, 2, 3])):
            frm = r.choice(SENDERS)
            code, _ = s.docmd("MAIL FROM:<%s>" % frm)
            if code >= 400:
                s.rset(); continue
            ok = [t for t in rcpts(r) if s.docmd("RCPT TO:<%s>" % t)[0] < 400]
            k = r.random()
            if not ok or k < 0.05:
                s.rset(); continue
            if k < 0.1:
                s.sock.close(); return            # drop before DATA
            try:
                s.data(message(r, frm, ok[0]))
            except smtplib.SMTPResponseException:
                pass
        if r.random() < 0.1:
            s.docmd(r.choice(["VRFY alice", "VRFY zed", "ETRN ho10.test", "HELP", "NOOP", "XCLIENT ADDR=1.2.3.4"]))
        if r.random() < 0.08:
            time.sleep(10)                          # past smtpd_timeout
        s.quit()
    except (OSError, smtplib.SMTPException, ValueError):
        pass

def raw(r):
    k = r.choice(["pipeline", "garbage", "http", "drop", "idle", "errors", "nulldata"])
    try:
        c = socket.create_connection((HOST, PORT), timeout=12)
        if k == "pipeline":
            c.sendall(b"EHLO fast.ho10.test\r\nMAIL FROM:<a@ho10.test>\r\n"); time.sleep(0.5)
        elif k == "garbage":
            c.recv(512); c.sendall(bytes(r.randrange(1, 255) for _ in range(r.randint(5, 60))) + b"\r\n"); time.sleep(0.3)
        elif k == "http":
            c.recv(512); c.sendall(b"GET / HTTP/1.1\r\nHost: mx.ho10.test\r\n\r\n"); time.sleep(0.3)
        elif k == "drop":
            c.recv(512); c.sendall(b"EHLO client.ho10.test\r\n"); time.sleep(0.2)
        elif k == "idle":
            c.recv(512); time.sleep(10)
        elif k == "errors":
            c.recv(512)
            for _ in range(8):
                c.sendall(r.choice([b"FOO\r\n", b"RCPT TO:<x@ho10.test>\r\n", b"DATA\r\n", b"MAIL\r\n"])); time.sleep(0.1)
        elif k == "nulldata":
            c.recv(512); c.sendall(b"HELO client.ho10.test\r\nMAIL FROM:<>\r\nRCPT TO:<alice@ho10.test>\r\nDATA\r\n.\r\nQUIT\r\n"); time.sleep(0.5)
        c.close()
    except OSError:
        pass

def local(r):
    to = rcpts(r)[:2]
    frm = r.choice(["cron", "backup@ho10.test", "alice", ""])
    a = ["sendmail", "-i"] + (["-f", frm] if frm else []) + to
    subprocess.run(a, input=message(r, frm or "root", to[0]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)

def admin(r):
    a = r.choice([["postqueue", "-f"], ["postsuper", "-r", "ALL"], ["postsuper", "-d", "ALL", "deferred"],
                  ["postsuper", "-H", "ALL"], ["postfix", "reload"], ["postfix", "flush"], ["postqueue", "-i", "ho10.test"]])
    subprocess.run(a, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)

STEPS = [(session, 12), (raw, 3), (local, 2), (admin, 1)]

def main():
    n, r = int(sys.argv[1]), random.Random(int(sys.argv[2]))
    fns = [f for f, w in STEPS for _ in range(w)]
    for _ in range(n):
        f = r.choice(fns)
        sub = random.Random(r.randrange(2**32))
        if f in (session, raw) and r.random() < 0.4:
            bg(f, sub)
        else:
            f(sub)
        time.sleep(r.uniform(0.05, 0.5))
    for t in threads:
        t.join(30)

main()

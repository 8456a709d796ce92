#!/usr/bin/env python3
"""Seeded IMAP and POP3 clients of dovecot on 127.0.0.1:1143/1110, plus
local deliveries with dovecot-lda and doveadm commands: good logins that
append, fetch, search, copy and expunge; wrong passwords and unknown users;
unknown mailboxes and bad commands; clients that disconnect before or during
authentication or idle; more connections than mail_max_userip_connections;
POP3 sessions that list, retrieve and delete; doveadm kick and reload.
usage: dovecot-drive.py STEPS SEED"""
import imaplib, poplib, random, socket, subprocess, sys, time

steps, seed = int(sys.argv[1]), int(sys.argv[2])
R = random.Random(seed)
CONF = "/work/tmp-ho6/dovecot/dovecot.conf"
# Each connection comes from its own loopback address, so that dovecot's
# per-address penalty for failed logins does not stall the run.
SRC = ["127.0.0.1"]
def _sock(self, timeout=None):
    return socket.create_connection((self.host, self.port), timeout, source_address=(SRC[0], 0))
imaplib.IMAP4._create_socket = _sock
poplib.POP3._create_socket = _sock
USERS = {"alice": "wonder", "bob": "builder", "carol": "secret", "dave": "hunter2"}
STRANGERS = ["admin", "root", "test", "mallory", "oracle", "guest"]

def msg(i):
    return ("From: s%d@sender.test\r\nTo: x@example.test\r\nSubject: note %d\r\n"
            "Message-ID: <m%d.%d@sender.test>\r\n\r\nbody %d\r\n" % (R.randrange(99), i, i, R.randrange(10**6), i)).encode()

def imap_good(i):
    u = R.choice(list(USERS))
    c = imaplib.IMAP4("127.0.0.1", 1143)
    c.login(u, USERS[u])
    for _ in range(R.randrange(1, 4)):
        a = R.randrange(8)
        try:
            if a < 2: c.append("INBOX", None, None, msg(i))
            elif a == 2: c.select(R.choice(["INBOX", "Archive", "Nope%d" % R.randrange(5)]))
            elif a == 3: c.create("Archive")
            elif a == 4: c.select("INBOX"); c.search(None, "ALL"); c.fetch("1:*", "(FLAGS RFC822.SIZE)")
            elif a == 5: c.select("INBOX"); c.store("1", "+FLAGS", "\\Deleted"); c.expunge()
            elif a == 6: c.select("INBOX"); c.copy("1:2", "Archive")
            else: c.delete("Archive")
        except imaplib.IMAP4.error:
            pass
    if R.randrange(4): c.logout()
    else: c.sock.close()

def imap_bad(i):
    # Failed logins are delayed by dovecot's auth penalty; the client sends
    # its tries and hangs up without waiting for the answers.
    u = R.choice(list(USERS) + STRANGERS)
    raw(1143, [b"a%d LOGIN %s wrong%d\r\n" % (k, u.encode(), R.randrange(100)) for k in range(R.randrange(1, 3))], 0.3)

def raw(port, lines, wait=0.2):
    s = socket.create_connection(("127.0.0.1", port), source_address=(SRC[0], 0))
    for l in lines:
        s.sendall(l); time.sleep(wait)
    s.close()

def pop(i):
    u = R.choice(list(USERS))
    if not R.randrange(4):
        raw(1110, [b"USER %s\r\n" % u.encode(), b"PASS bad\r\n"], 0.3); return
    p = poplib.POP3("127.0.0.1", 1110)
    p.user(u); p.pass_(USERS[u])
    n, _ = p.stat()
    if n:
        p.retr(1)
        if R.randrange(2): p.dele(n)
    p.quit()

def lda(i):
    u = R.choice(list(USERS) + ["nobody%d" % R.randrange(4)])
    subprocess.run(["/usr/lib/dovecot/dovecot-lda", "-c", CONF, "-d", u, "-f", "s%d@sender.test" % i],
                   input=msg(i), capture_output=True)

def many(i):
    u = R.choice(list(USERS))
    cs = []
    for _ in range(6):
        try:
            c = imaplib.IMAP4("127.0.0.1", 1143); c.login(u, USERS[u]); cs.append(c)
        except (imaplib.IMAP4.error, OSError): pass
    for c in cs: c.logout()

def doveadm(i):
    a = R.randrange(3)
    if a == 0: subprocess.run(["doveadm", "-c", CONF, "kick", R.choice(list(USERS))], capture_output=True)
    elif a == 1: subprocess.run(["doveadm", "-c", CONF, "reload"], capture_output=True); time.sleep(1)
    else: subprocess.run(["doveadm", "-c", CONF, "log", "reopen"], capture_output=True)

ACTIONS = [imap_good] * 6 + [imap_bad] * 3 + [pop] * 3 + [lda] * 3 + [many, doveadm] + [
    lambda i: raw(1143, [b"a1 NOOP\r\n", b"a2 FROB x\r\n", b"a3 LOGOUT\r\n"]),
    lambda i: raw(1143, []),
    lambda i: raw(1143, [b"a1 AUTHENTICATE PLAIN\r\n"], 0.5),
    lambda i: raw(1110, [b"USER alice\r\n", b"JUNK\r\n"]),
    lambda i: raw(1143, [b"a1 LOGIN alice\r\n" + b"x" * R.randrange(10, 9000) + b"\r\n"]),
]
for i in range(steps):
    SRC[0] = "127.0.%d.%d" % (R.randrange(256), R.randrange(1, 255))
    try:
        R.choice(ACTIONS)(i)
    except (OSError, imaplib.IMAP4.error, poplib.error_proto, EOFError):
        pass

#!/usr/bin/env python3
"""Seeded RADIUS clients of the heldout8 FreeRADIUS: PAP, CHAP and MS-CHAP
logins with right and wrong passwords, unknown, expired, time-limited and
rejected users, names the username filter refuses, the proxied realm whose
home server never answers, accounting, Status-Server, packets signed with a
wrong secret, from an unknown client, from a client that requires a
Message-Authenticator, duplicates, conflicting and malformed packets, and
SIGHUP with and without changed files.
usage: radius-drive.py STEPS SEED PID"""
import hashlib, hmac, os, random, signal, socket, struct, subprocess, sys, time

SECRET, AUTH, ACCT = b"ho8-radius-secret", 18120, 18130
USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
STRANGERS = ["mallory", "oscar", "trudy", "root", "admin", "guest"]

def radclient(kind, port, attrs, secret="ho8-radius-secret"):
    subprocess.run(["radclient", "-t", "1", "-r", "1", "127.0.0.1:%d" % port, kind, secret],
                   input=",".join(attrs), capture_output=True, text=True, timeout=10)

def attr(t, v):
    return bytes([t, len(v) + 2]) + v

def password(pw, ra, secret):
    p = pw.encode().ljust((len(pw) + 15) // 16 * 16 or 16, b"\0")
    out, last = b"", ra
    for i in range(0, len(p), 16):
        h = hashlib.md5(secret + last).digest()
        c = bytes(a ^ b for a, b in zip(p[i:i + 16], h))
        out, last = out + c, c
    return out

def packet(pid, user, pw, secret, ra=None, ma=False):
    """An Access-Request; with ma, a Message-Authenticator (HMAC-MD5) too."""
    ra = ra or os.urandom(16)
    body = attr(1, user.encode()) + attr(2, password(pw, ra, secret)) + attr(4, bytes([127, 0, 0, 1]))
    if ma:
        body += attr(80, b"\0" * 16)
    pkt = struct.pack("!BBH", 1, pid, 20 + len(body)) + ra + body
    if ma:
        pkt = pkt[:-16] + hmac.new(secret, pkt, hashlib.md5).digest()
    return pkt

def send(src, pkts, port=AUTH, wait=0.3):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, 0)); s.settimeout(wait)
    for p in pkts:
        s.sendto(p, ("127.0.0.1", port))
    try:
        s.recv(4096)
    except OSError:
        pass
    s.close()

def login(r):
    u = r.choice(USERS + STRANGERS[:2])
    pw = "pw-" + u if r.random() < 0.6 else r.choice(["wrong", "pw-" + r.choice(USERS), "hunter2", ""]) or "x"
    how = r.choice(["User-Password", "User-Password", "CHAP-Password", "MS-CHAP-Password"])
    radclient("auth", AUTH, ['User-Name="%s"' % u, '%s="%s"' % (how, pw), "NAS-Port=%d" % r.randint(0, 40)])

def filtered(r):
    u = r.choice(["al ice", "bob@", "@carol", "dave@@remote.test", "erin.", "frank@remote", "grace@no.such..realm"])
    radclient("auth", AUTH, ['User-Name="%s"' % u, 'User-Password="x"'])

def proxied(r):
    """A request for the dead realm; sometimes sent twice, or again with a new authenticator, while it waits."""
    u = "%s@remote.test" % r.choice(USERS + STRANGERS)
    pid, ra = r.randrange(256), os.urandom(16)
    p = packet(pid, u, "x", SECRET, ra)
    again = r.choice([[], [p], [packet(pid, u, "x", SECRET)]])
    send("127.0.0.1", [p] + again, wait=0.05)

def accounting(r):
    u = r.choice(USERS)
    st = r.choice(["Start", "Stop", "Interim-Update", "Accounting-On"])
    secret = "ho8-radius-secret" if r.random() < 0.85 else "not-the-secret"
    radclient("acct", ACCT, ['User-Name="%s"' % u, "Acct-Status-Type=%s" % st, 'Acct-Session-Id="%08x"' % r.randrange(1 << 32),
                             "Acct-Session-Time=%d" % r.randint(0, 9999)], secret)

def status(r):
    radclient("status", AUTH, ["Message-Authenticator=0x00"], r.choice(["ho8-radius-secret", "ho8-radius-secret", "nope"]))

def strange(r):
    kind = r.choice(["unknown", "nas2-noma", "nas2-ma", "nas2-badma", "short", "badlen", "badcode", "wrongsecret"])
    u, pid = r.choice(USERS), r.randrange(256)
    if kind == "unknown":
        send("127.0.0.%d" % r.randint(3, 9), [packet(pid, u, "pw-" + u, SECRET)])
    elif kind == "nas2-noma":
        send("127.0.0.2", [packet(pid, u, "pw-" + u, b"ho8-nas2-secret")])
    elif kind == "nas2-ma":
        send("127.0.0.2", [packet(pid, u, r.choice(["pw-" + u, "bad"]), b"ho8-nas2-secret", ma=True)])
    elif kind == "nas2-badma":
        send("127.0.0.2", [packet(pid, u, "pw-" + u, b"ho8-nas2-wrong", ma=True)])
    elif kind == "short":
        send("127.0.0.1", [os.urandom(r.randint(1, 19))])
    elif kind == "badlen":
        p = packet(pid, u, "x", SECRET)
        send("127.0.0.1", [p[:2] + struct.pack("!H", len(p) + r.randint(1, 50)) + p[4:]])
    elif kind == "badcode":
        p = packet(pid, u, "x", SECRET)
        send("127.0.0.1", [bytes([r.choice([2, 3, 11, 40, 99])]) + p[1:]])
    else:
        send("127.0.0.1", [packet(pid, u, "pw-" + u, SECRET, ma=True)[:-16] + os.urandom(16)])

def hup(r, pid):
    if r.random() < 0.5:
        os.utime("/work/tmp-ho8/radius/raddb/mods-config/files/authorize")
    time.sleep(1.1)
    os.kill(pid, signal.SIGHUP)
    time.sleep(0.5)

STEPS = [(login, 14), (filtered, 2), (proxied, 2), (accounting, 4), (status, 1), (strange, 5)]

def main():
    n, r, pid = int(sys.argv[1]), random.Random(int(sys.argv[2])), int(sys.argv[3])
    fns = [f for f, w in STEPS for _ in range(w)]
    for i in range(n):
        if r.random() < 0.006:
            hup(r, pid)
        else:
            r.choice(fns)(r)

main()

#!/usr/bin/env python3
"""Seeded driver of fail2ban-server: appends sshd, Dovecot and Postfix lines
(in those programs' syslog formats, stamped with the current time) to the
synthetic logs the jails watch — failed passwords, invalid users, preauth
disconnects, key-exchange mismatches, failed IMAP logins, relay and
unknown-user rejections, and lines no filter matches — from a pool of
documentation-range IPv4 and IPv6 addresses and from an ignored subnet, so
that hosts are found, banned, unbanned when bantime runs out, and banned
again by the recidive jail; and runs fail2ban-client commands: manual
banip/unbanip, unban --all, reload of one jail or all, addignoreip,
maxretry changes, flushlogs.
usage: fail2ban-drive.py STEPS SEED"""
import random, subprocess, sys, time

steps, seed = int(sys.argv[1]), int(sys.argv[2])
R = random.Random(seed)
D = "/work/tmp-ho7/fail2ban/"
C = ["fail2ban-client", "-c", D + "conf"]
IPS = ["192.0.2.%d" % R.randrange(1, 255) for _ in range(14)] + ["198.51.100.%d" % R.randrange(1, 255) for _ in range(8)] + \
      ["2001:db8::%x" % R.randrange(1, 65535) for _ in range(4)]
IGN = ["10.9.9.%d" % R.randrange(1, 255) for _ in range(3)]
USERS = ["root", "admin", "oracle", "test", "ubuntu", "git", "postgres", "alice", "bob", "pi"]
pid = [3000]

def stamp():
    return time.strftime("%b %e %H:%M:%S", time.localtime()) + " vm "

def write(f, line):
    with open(D + "logs/" + f, "a") as o:
        o.write(stamp() + line + "\n")

def sshd(ip):
    pid[0] += R.randrange(1, 40); p, port, u = pid[0], R.randrange(1024, 65535), R.choice(USERS)
    m = R.randrange(7)
    if m == 0: s = "Failed password for %s from %s port %d ssh2" % (u, ip, port)
    elif m == 1: s = "Failed password for invalid user %s from %s port %d ssh2" % (u, ip, port)
    elif m == 2: s = "Invalid user %s from %s port %d" % (u, ip, port)
    elif m == 3: s = "Connection closed by authenticating user %s %s port %d [preauth]" % (u, ip, port)
    elif m == 4: s = "Disconnected from invalid user %s %s port %d [preauth]" % (u, ip, port)
    elif m == 5: s = "Unable to negotiate with %s port %d: no matching key exchange method found. Their offer: diffie-hellman-group1-sha1 [preauth]" % (ip, port)
    else: s = "Accepted publickey for %s from %s port %d ssh2: ED25519 SHA256:%08x" % (u, ip, port, R.getrandbits(32))
    write("auth.log", "sshd[%d]: %s" % (p, s))

def mail(ip):
    pid[0] += R.randrange(1, 40); u = R.choice(USERS)
    m = R.randrange(5)
    if m == 0: write("mail.log", "dovecot: imap-login: Disconnected (auth failed, %d attempts in %d secs): user=<%s>, method=PLAIN, rip=%s, lip=10.0.0.1, session=<%08x>" % (R.randrange(1, 4), R.randrange(1, 20), u, ip, R.getrandbits(32)))
    elif m == 1: write("mail.log", "dovecot: pop3-login: Aborted login (no auth attempts in %d secs): user=<>, rip=%s, lip=10.0.0.1, session=<%08x>" % (R.randrange(1, 60), ip, R.getrandbits(32)))
    elif m == 2: write("mail.log", "postfix/smtpd[%d]: NOQUEUE: reject: RCPT from unknown[%s]: 554 5.7.1 <%s@example.org>: Relay access denied; from=<spam@example.net> to=<%s@example.org> proto=ESMTP helo=<x>" % (pid[0], ip, u, u))
    elif m == 3: write("mail.log", "postfix/smtpd[%d]: NOQUEUE: reject: RCPT from unknown[%s]: 550 5.1.1 <%s@example.com>: Recipient address rejected: User unknown in local recipient table; from=<a@example.net> to=<%s@example.com> proto=ESMTP helo=<y>" % (pid[0], ip, u, u))
    else: write("mail.log", "postfix/smtpd[%d]: connect from unknown[%s]" % (pid[0], ip))

def client(*a):
    subprocess.run(C + list(a), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

for i in range(steps):
    a = R.randrange(40)
    if a < 16:
        ip = R.choice(IPS)
        for _ in range(R.randrange(1, 5)): sshd(ip)
    elif a < 26:
        ip = R.choice(IPS)
        for _ in range(R.randrange(1, 5)): mail(ip)
    elif a < 29: sshd(R.choice(IGN)); mail(R.choice(IGN))
    elif a == 29: client("set", R.choice(["sshd", "dovecot"]), "banip", R.choice(IPS))
    elif a == 30: client("set", R.choice(["sshd", "postfix"]), "unbanip", R.choice(IPS))
    elif a == 31 and R.random() < 0.3: client("unban", "--all")
    elif a == 32 and R.random() < 0.4: client("reload", R.choice(["sshd", "dovecot", "postfix"]))
    elif a == 33 and R.random() < 0.2: client("reload")
    elif a == 34: client("set", "sshd", "addignoreip", R.choice(IPS))
    elif a == 35: client("set", R.choice(["sshd", "dovecot"]), "maxretry", str(R.randrange(2, 6)))
    elif a == 36 and R.random() < 0.3: client("flushlogs")
    elif a == 37: client("set", "sshd", "delignoreip", R.choice(IPS))
    time.sleep(R.choice([0.1, 0.3, 0.6, 1.0, 2.0]))

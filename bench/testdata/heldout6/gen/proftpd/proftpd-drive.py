#!/usr/bin/env python3
"""Seeded FTP clients of proftpd on 127.0.0.1:2121 (ftplib and raw
sockets): logins that list, download, upload, rename and delete; wrong
passwords (two tries end a session), unknown and anonymous users, more
sessions than MaxClientsPerUser, reads from an upload-only directory, a
denied SITE CHMOD, missing files, bad commands, active transfers to a
closed port, clients idle past the timeouts, and SIGHUP (restart).
usage: proftpd-drive.py STEPS SEED PIDFILE"""
import ftplib, io, os, random, signal, socket, sys, time

steps, seed, pidfile = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
R = random.Random(seed)
USERS = {"alice": "wonder", "bob": "builder", "guest": "guest"}

def login(u=None):
    u = u or R.choice(list(USERS))
    f = ftplib.FTP(); f.connect("127.0.0.1", 2121, timeout=8); f.login(u, USERS[u])
    return f

def session(i):
    f = login()
    for _ in range(R.randrange(1, 5)):
        a = R.randrange(9)
        try:
            if a == 0: f.nlst()
            elif a == 1: f.retrbinary("RETR " + R.choice(["README", "data.bin", "f%d.txt" % R.randrange(6), "gone.txt"]), lambda b: None)
            elif a == 2: f.storbinary("STOR f%d.txt" % R.randrange(6), io.BytesIO(os.urandom(R.randrange(10, 5000))))
            elif a == 3: f.storbinary("STOR incoming/u%d.bin" % i, io.BytesIO(b"x" * R.randrange(1, 900)))
            elif a == 4: f.retrbinary("RETR incoming/u%d.bin" % R.randrange(i + 1), lambda b: None)
            elif a == 5: f.rename("f%d.txt" % R.randrange(6), "r%d.txt" % R.randrange(6))
            elif a == 6: f.delete(R.choice(["f%d.txt", "r%d.txt"]) % R.randrange(6))
            elif a == 7: f.mkd("d%d" % R.randrange(4))
            else: f.sendcmd("SITE CHMOD 777 f%d.txt" % R.randrange(6))
        except ftplib.all_errors:
            pass
    if R.randrange(5): f.quit()
    else: f.close()

def badpass(i):
    f = ftplib.FTP(); f.connect("127.0.0.1", 2121, timeout=8)
    u = R.choice(list(USERS) + ["root", "admin", "anonymous", "ftp", "oracle"])
    for _ in range(R.randrange(1, 3)):
        try: f.login(u, "wrong%d" % R.randrange(99))
        except ftplib.all_errors: pass
    f.close()

def many(i):
    u = R.choice(list(USERS)); fs = []
    for _ in range(4):
        try: fs.append(login(u))
        except ftplib.all_errors: pass
    for f in fs: f.quit()

def raw(lines, wait=0.2, tail=0.0):
    s = socket.create_connection(("127.0.0.1", 2121)); s.recv(512)
    for l in lines:
        s.sendall(l); time.sleep(wait)
    time.sleep(tail); s.close()

def active(i):
    f = login(); f.set_pasv(False)
    f.sendcmd("PORT 127,0,0,1,%d,%d" % (R.randrange(150, 200), R.randrange(256)))
    try: f.sendcmd("LIST")
    except ftplib.all_errors: pass
    f.close()

def hup(i):
    os.kill(int(open(pidfile).read()), signal.SIGHUP); time.sleep(1)

ACTIONS = [session] * 7 + [badpass] * 3 + [many, active] + [
    lambda i: raw([b"FROB x\r\n", b"USER\r\n", b"QUIT\r\n"]),
    lambda i: raw([b"USER alice\r\n", b"PASS wonder\r\n", b"CWD /nowhere\r\n", b"RETR ../../etc/passwd\r\n", b"QUIT\r\n"]),
    lambda i: raw([], tail=5),
    lambda i: raw([b"USER bob\r\n", b"PASS builder\r\n"], tail=5),
    lambda i: raw([b"USER alice\r\n" + b"A" * R.randrange(300, 3000) + b"\r\n"]),
    lambda i: raw([]),
]
for i in range(steps):
    try:
        (hup if R.randrange(60) == 0 else R.choice(ACTIONS))(i)
    except (ftplib.all_errors, OSError, EOFError):
        pass

#!/usr/bin/env python3
"""Seeded clients of the heldout10 smbd: smbclient sessions on
127.0.0.1:4450 as known users (right and wrong passwords), unknown users
(mapped to guest) and guests, to the public, private, read-only and
missing shares: share lists, directory lists, downloads of present,
missing and unreadable files, uploads (some to the read-only share),
mkdir, rmdir, rename and delete, allinfo; clients that offer only SMB1;
garbage on the port; smbcontrol reload-config and SIGHUP (reloads).
usage: samba-drive.py STEPS SEED PID"""
import os, random, signal, socket, subprocess, sys, time

G = os.path.dirname(os.path.abspath(__file__))
CONF, HOST, PORT = os.path.join(G, "smb.conf"), "127.0.0.1", 4450
T = "/work/tmp-ho10/samba/client"
USERS = ["backup", "proxy", "list"]
FILES = ["report.txt", "notes.md", "data.csv", "2025/summary.txt", "locked.txt", "missing.txt"]

def smb(args, secs=20):
    subprocess.run(["timeout", str(secs), "smbclient", "-s", CONF, "-p", str(PORT)] + args,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def cred(r):
    k = r.random()
    if k < 0.55:
        u = r.choice(USERS); return ["-U", "%s%%pw-%s" % (u, u)]
    if k < 0.7:
        u = r.choice(USERS); return ["-U", "%s%%%s" % (u, r.choice(["wrong", "pw-" + r.choice(USERS), "Pw-" + u]))]
    if k < 0.8:
        return ["-U", "%s%%x" % r.choice(["mallory", "guest", "administrator", "root"])]
    return ["-N"]

def cmds(r, share):
    out = []
    for _ in range(r.randint(1, 5)):
        k = r.random()
        f = r.choice(FILES)
        name = "up-%d.txt" % r.randrange(1000)
        if k < 0.25:
            out.append(r.choice(["ls", "dir", "ls 2025/*", "ls nothere/*"]))
        elif k < 0.5:
            out.append("get %s %s/dl" % (f, T))
        elif k < 0.7:
            out.append("put %s/payload %s" % (T, name))
        elif k < 0.78:
            out.append("mkdir dir%d" % r.randrange(50))
        elif k < 0.84:
            out.append("rmdir dir%d" % r.randrange(50))
        elif k < 0.9:
            out.append("rename up-%d.txt moved-%d.txt" % (r.randrange(1000), r.randrange(1000)))
        elif k < 0.95:
            out.append("del up-%d.txt" % r.randrange(1000))
        else:
            out.append("allinfo %s" % f)
    return "; ".join(out)

def session(r):
    share = r.choice(["public", "public", "private", "private", "archive", "archive", "gone", "nosuch", "IPC$"])
    smb(["//%s/%s" % (HOST, share)] + cred(r) + ["-c", cmds(r, share)])

def listing(r):
    smb(["-L", HOST] + cred(r))

def smb1(r):
    smb(["-m", "NT1", "//%s/public" % HOST, "-N", "-c", "ls"])

def junk(r):
    try:
        s = socket.create_connection((HOST, PORT), timeout=3)
        s.sendall(os.urandom(r.randint(1, 100)) if r.random() < 0.5 else b"\x00\x00\x00\x10\xffSMB" + os.urandom(12))
        time.sleep(0.3); s.close()
    except OSError:
        pass

def reload(r):
    subprocess.run(["smbcontrol", "-s", CONF, "smbd", "reload-config"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

STEPS = [(session, 14), (listing, 2), (smb1, 1), (junk, 1), (reload, 1)]

def main():
    n, r, pid = int(sys.argv[1]), random.Random(int(sys.argv[2])), int(sys.argv[3])
    os.makedirs(T, exist_ok=True)
    open(T + "/payload", "wb").write(os.urandom(3000))
    fns = [f for f, w in STEPS for _ in range(w)]
    for _ in range(n):
        if r.random() < 0.01:
            os.kill(pid, signal.SIGHUP)
        else:
            r.choice(fns)(r)
        time.sleep(r.uniform(0.05, 0.4))

main()

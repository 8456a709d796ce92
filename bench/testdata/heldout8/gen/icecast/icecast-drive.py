#!/usr/bin/env python3
"""Seeded clients of the heldout8 Icecast: sources that PUT or use the old
SOURCE method on four mounts (right and wrong passwords, a mount already in
use, no content type), listeners of live and missing mounts and the
authenticated and time-limited mounts, more listeners than a mount allows,
admin commands (metadata, listclients, killclient, killsource,
moveclients, manageauth, stats, an unknown command, a wrong password),
files served and missing, bad requests, idle clients, and SIGHUP.
usage: icecast-drive.py STEPS SEED PID"""
import base64, os, random, signal, socket, subprocess, sys, threading, time

HOST, PORT = "127.0.0.1", 8010
MOUNTS = ["/live.mp3", "/backup.mp3", "/members.ogg", "/private.mp3", "/talk.aac"]
TYPES = ["audio/mpeg", "audio/aac", "application/ogg", "audio/ogg", "video/webm", ""]
USERS = ["alice", "bob", "carol", "dave", "erin"]
NOISE = open("/work/tmp-ho8/icecast/noise.bin", "rb").read()
threads = []

def bg(fn, *a):
    t = threading.Thread(target=fn, args=a, daemon=True); t.start(); threads.append(t)

def auth(u, p):
    return "Basic " + base64.b64encode(("%s:%s" % (u, p)).encode()).decode()

def talk(req, body=b"", secs=0.0, rate=0):
    try:
        s = socket.create_connection((HOST, PORT), timeout=4)
        s.sendall(req.encode())
        end = time.time() + secs
        off = 0
        while body and time.time() < end and off < len(body):
            s.sendall(body[off:off + rate]); off += rate; time.sleep(0.1)
        if not body and secs:
            while time.time() < end:
                if not s.recv(65536):
                    break
        else:
            s.recv(4096)
        s.close()
    except OSError:
        pass

def source(r):
    m, t = r.choice(MOUNTS), r.choice(TYPES)
    pw = "ho8-source-pw" if r.random() < 0.8 else r.choice(["bad", "ho8-private-pw"])
    if m == "/private.mp3" and r.random() < 0.7:
        pw = "ho8-private-pw"
    ct = "Content-Type: %s\r\n" % t if t else ""
    meth = r.choice(["PUT", "PUT", "SOURCE"])
    extra = "Ice-Name: ho8 %s\r\nIce-Public: %d\r\nIce-Genre: %s\r\n" % (r.choice(USERS), r.randint(0, 1), r.choice(["Rock", "Talk", "News"]))
    if meth == "PUT":
        extra += "Expect: 100-continue\r\n" if r.random() < 0.3 else ""
    req = "%s %s HTTP/1.%d\r\nHost: %s\r\nAuthorization: %s\r\n%s%s\r\n" % (meth, m, 0 if meth == "SOURCE" else 1, HOST, auth("source", pw), ct, extra)
    bg(talk, req, NOISE, r.uniform(1, 6), 3000)

def listener(r):
    m = r.choice(MOUNTS + ["/nothing.mp3", "/relayed.mp3"])
    hdr = "GET %s HTTP/1.0\r\nHost: %s\r\nUser-Agent: ho8-player/%d\r\n" % (m, HOST, r.randint(1, 9))
    if m == "/members.ogg" and r.random() < 0.7:
        u = r.choice(USERS)
        hdr += "Authorization: %s\r\n" % auth(u, "pw-" + u if r.random() < 0.7 else "wrong")
    if r.random() < 0.3:
        hdr += "Icy-MetaData: 1\r\n"
    for _ in range(r.choice([1, 1, 1, 2, 4])):
        bg(talk, hdr + "\r\n", b"", r.uniform(0.5, 6))

def admin(r):
    m = r.choice(MOUNTS)
    cmd = r.choice(["metadata?mount=%s&mode=updinfo&song=%s" % (m, r.choice(["Intro", "Song%%20%d" % r.randint(1, 40), "News%%20at%%20%d" % r.randint(1, 12)])),
                    "listclients?mount=%s" % m, "killclient?mount=%s&id=%d" % (m, r.randint(1, 60)),
                    "killsource?mount=%s" % m, "moveclients?mount=%s&destination=%s" % (m, r.choice(MOUNTS)),
                    "listmounts", "stats", "fallbacks?mount=%s&fallback=%s" % (m, r.choice(MOUNTS)),
                    "manageauth?mount=/members.ogg&action=add&username=%s&password=pw-%s" % ((r.choice(USERS),) * 2),
                    "manageauth?mount=/members.ogg&action=delete&username=%s" % r.choice(USERS),
                    "updatemetadata?mount=%s" % m, "nosuchcommand"])
    pw = "ho8-admin-pw" if r.random() < 0.85 else "guess"
    subprocess.run(["curl", "-s", "-m", "3", "-o", "/dev/null", "-u", "admin:" + pw, "http://%s:%d/admin/%s" % (HOST, PORT, cmd)])

def files(r):
    f = r.choice(["/status.xsl", "/style.css", "/server_version.xsl", "/missing.html", "/images/icecast.png", "/../etc/passwd", "/", "/admin.html"])
    subprocess.run(["curl", "-s", "-m", "3", "-o", "/dev/null", "--path-as-is", "http://%s:%d%s" % (HOST, PORT, f)])

def bad(r):
    kind = r.choice(["garbage", "idle", "nohost", "post", "badver"])
    req = {"garbage": "\x16\x03\x01 hello\r\n\r\n", "idle": "", "nohost": "GET\r\n\r\n",
           "post": "POST /live.mp3 HTTP/1.1\r\nHost: x\r\n\r\n", "badver": "GET /live.mp3 HTTP/9.9\r\n\r\n"}[kind]
    bg(talk, req, b"", 4 if kind == "idle" else 0.5)

STEPS = [(source, 3), (listener, 5), (admin, 4), (files, 2), (bad, 1)]

def main():
    n, r, pid = int(sys.argv[1]), random.Random(int(sys.argv[2])), int(sys.argv[3])
    fns = [f for f, w in STEPS for _ in range(w)]
    for _ in range(n):
        if r.random() < 0.01:
            os.kill(pid, signal.SIGHUP)
        else:
            r.choice(fns)(r)
        time.sleep(r.uniform(0.05, 0.4))
    for t in threads:
        t.join(10)

main()

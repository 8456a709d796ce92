#!/usr/bin/env python3
"""Seeded clients of the heldout9 MPD: sessions that log in with the
control, listen or a wrong password (or not at all) and send a few of
MPD's commands (status, database updates and rescans, queue edits, play,
pause, seek, next, stop, searches, lsinfo and listall of folders present
and missing, stored playlists, outputs, volume, stickers, idle, command
lists), commands that are unknown, badly quoted or lack permission;
listeners of the HTTP stream output; clients that idle past the timeout
or drop; and SIGHUP.
usage: mpd-drive.py STEPS SEED PID"""
import os, random, signal, socket, subprocess, sys, threading, time

HOST, PORT, HTTP = "127.0.0.1", 6610, 8610
ARTISTS = ["Ada Lovelace Trio", "The Byte Order", "Carol & Dave", "Nullpointer", "Nobody"]
ALBUMS = ["First Light", "Second Wind", "Live at Loopback"]
threads = []

def bg(fn, *a):
    t = threading.Thread(target=fn, args=a, daemon=True); t.start(); threads.append(t)

def q(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')

def track(r):
    a, al = r.choice(ARTISTS), r.choice(ALBUMS)
    return "%s/%s/%02d - Track %d.wav" % (a, al, r.randint(1, 5), r.randint(1, 5)) if r.random() < 0.8 else r.choice(["misc/locked.wav", "misc/readme.txt", "nothing/here.wav"])

def command(r):
    a, al = r.choice(ARTISTS), r.choice(ALBUMS)
    return r.choice([
        "status", "stats", "currentsong", "outputs", "playlistinfo", "listplaylists", "idle player", "ping",
        "update", "update " + q(r.choice(ARTISTS + ["misc", "nothing"])), "rescan",
        "add " + q(track(r)), "add " + q(a), "addid " + q(track(r)), "clear", "delete %d" % r.randint(0, 8), "shuffle",
        "play", "play %d" % r.randint(0, 10), "pause 1", "pause 0", "next", "previous", "stop",
        "seekcur %d" % r.randint(0, 3), "seek %d %d" % (r.randint(0, 5), r.randint(0, 3)),
        "setvol %d" % r.randint(0, 100), "random %d" % r.randint(0, 1), "repeat %d" % r.randint(0, 1), "crossfade %d" % r.randint(0, 2),
        "find artist " + q(a), "search title " + q("Track %d" % r.randint(1, 5)), "list artist", "list album artist " + q(a),
        "lsinfo", "lsinfo " + q(r.choice([a, a + "/" + al, "misc", "nothing"])), "listall " + q(a), "listallinfo misc",
        "save " + q(r.choice(["mix", "night", "ho9"])), "load " + q(r.choice(["mix", "night", "missing"])),
        "rm " + q(r.choice(["mix", "night", "missing"])), "playlistadd mix " + q(track(r)),
        "disableoutput %d" % r.randint(0, 2), "enableoutput %d" % r.randint(0, 2), "toggleoutput %d" % r.randint(0, 2),
        "sticker set song " + q(track(r)) + " rating %d" % r.randint(1, 5), "sticker get song " + q(track(r)) + " rating",
        "readcomments " + q(track(r)), "albumart " + q(track(r)) + " 0", "config", "decoders", "tagtypes", "urlhandlers",
        "nosuchcommand", "status extra", 'find "artist', "play notanumber", "setvol 500"])

def session(r):
    try:
        s = socket.create_connection((HOST, PORT), timeout=4)
        f = s.makefile("rwb", buffering=0)
        f.readline()
        k = r.random()
        if k < 0.55:
            s.sendall(b"password ho9-control\n")
        elif k < 0.75:
            s.sendall(b"password ho9-listen\n")
        elif k < 0.85:
            s.sendall(("password %s\n" % r.choice(["wrong", "ho9"])).encode())
        else:
            s.sendall(b"status\n")
        f.readline()
        for _ in range(r.randint(1, 7)):
            if r.random() < 0.1:
                cmds = [command(r) for _ in range(r.randint(2, 4))]
                s.sendall(("command_list_ok_begin\n" + "\n".join(cmds) + "\ncommand_list_end\n").encode())
            else:
                c = command(r)
                s.sendall((c + "\n").encode())
                if c.startswith("idle"):
                    time.sleep(r.uniform(0.2, 1)); s.sendall(b"noidle\n")
            s.settimeout(1.5)
            try:
                buf = b""
                while not (buf.endswith(b"OK\n") or b"ACK [" in buf):
                    d = s.recv(65536)
                    if not d:
                        break
                    buf += d
            except OSError:
                pass
            time.sleep(r.uniform(0, 0.3))
        end = r.random()
        if end < 0.08:
            time.sleep(r.uniform(7, 9))        # past connection_timeout
        elif end < 0.7:
            s.sendall(b"close\n")
        s.close()
    except OSError:
        pass

def listen(r):
    bg(subprocess.run, ["curl", "-s", "-m", str(r.randint(1, 5)), "-o", "/dev/null", "http://%s:%d/" % (HOST, HTTP)])

def junk(r):
    try:
        s = socket.create_connection((HOST, PORT), timeout=2); s.recv(100)
        s.sendall(r.choice([b"\x00\xff\xfe garbage\n", b"GET / HTTP/1.1\r\n\r\n", b"x" * 300 + b"\n", b"status"]))
        time.sleep(r.uniform(0.1, 1)); s.close()
    except OSError:
        pass

STEPS = [(session, 10), (listen, 2), (junk, 1)]

def main():
    n, r, pid = int(sys.argv[1]), random.Random(int(sys.argv[2])), int(sys.argv[3])
    fns = [f for f, w in STEPS for _ in range(w)]
    for _ in range(n):
        if r.random() < 0.01:
            os.kill(pid, signal.SIGHUP)
        else:
            f = r.choice(fns)
            if f is session and r.random() < 0.6:
                bg(f, random.Random(r.random()))
            else:
                f(r)
        time.sleep(r.uniform(0.05, 0.4))
    for t in threads:
        t.join(15)

main()

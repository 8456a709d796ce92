#!/usr/bin/env python3
"""Seeded clients of the heldout9 uWSGI: HTTP requests (GET, HEAD, POST,
PUT, DELETE) for statuses, sizes and delays, some longer than the
harakiri; clients that hang up before a large body is written; request
headers larger than the buffer; garbage on the HTTP socket; uwsgi-protocol
packets, right and malformed, on the uwsgi socket; bursts that overflow
the listen queue; and SIGHUP (graceful reload).
usage: uwsgi-drive.py STEPS SEED PID"""
import os, random, signal, socket, struct, subprocess, sys, threading, time

HOST, HTTP, UWSGI = "127.0.0.1", 9190, 9191
threads = []

def bg(fn, *a):
    t = threading.Thread(target=fn, args=a, daemon=True); t.start(); threads.append(t)

def curl(args, secs=6):
    subprocess.run(["curl", "-s", "-m", str(secs), "-o", "/dev/null"] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def path(r):
    return r.choice(["/", "/index", "/status/%s" % r.choice(["201", "204", "301", "403", "404", "500", "503", "999"]),
                     "/bytes/%d" % r.choice([0, 10, 500, 4096, 70000, 500000]), "/sleep/%.1f" % r.choice([0.1, 0.5, 1.0, 2.0]),
                     "/api/v%d/items/%d?page=%d" % (r.randint(1, 2), r.randint(1, 500), r.randint(1, 9)), "/static/app.%s" % r.choice(["css", "js", "png"])])

def request(r):
    m = r.choice(["GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE"])
    a = ["-X", m, "-A", "ho9-client/%d" % r.randint(1, 5), "http://%s:%d%s" % (HOST, HTTP, path(r))]
    if m in ("POST", "PUT"):
        a = ["--data-binary", "x" * r.choice([10, 2000, 20000])] + a
    if m == "HEAD":
        a = ["-I"] + a[2:]
    if r.random() < 0.5:
        bg(curl, a)
    else:
        curl(a)

def slow(r):
    bg(curl, ["http://%s:%d/sleep/%.1f" % (HOST, HTTP, r.choice([3.5, 5.0]))], 8)     # past harakiri

def hangup(r):
    try:
        s = socket.create_connection((HOST, HTTP), timeout=3)
        s.sendall(("GET /bytes/%d HTTP/1.1\r\nHost: x\r\n\r\n" % r.choice([500000, 2000000])).encode())
        s.recv(100); s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)); s.close()
    except OSError:
        pass

def bighead(r):
    curl(["-H", "X-Filler: " + "y" * r.choice([3000, 5000, 9000]), "http://%s:%d/" % (HOST, HTTP)])

def garbage(r):
    try:
        s = socket.create_connection((HOST, r.choice([HTTP, UWSGI])), timeout=2)
        s.sendall(r.choice([os.urandom(r.randint(4, 200)), b"GET\r\n\r\n", b"\x00\x10\x00\x00", b"HELLO uwsgi\r\n\r\n"]))
        time.sleep(r.uniform(0.1, 1)); s.close()
    except OSError:
        pass

def uwsgi_packet(r):
    env = {"REQUEST_METHOD": "GET", "PATH_INFO": path(r).split("?")[0], "SERVER_NAME": "ho9", "SERVER_PORT": "80",
           "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "10.9.%d.%d" % (r.randint(0, 9), r.randint(1, 250)), "QUERY_STRING": ""}
    body = b"".join(struct.pack("<H", len(k)) + k.encode() + struct.pack("<H", len(v)) + v.encode() for k, v in env.items())
    pkt = struct.pack("<BHB", 0, len(body), 0) + body
    if r.random() < 0.2:
        pkt = struct.pack("<BHB", 0, len(body) + 50, 0) + body      # a size that lies
    try:
        s = socket.create_connection((HOST, UWSGI), timeout=4); s.sendall(pkt)
        while s.recv(65536):
            pass
        s.close()
    except OSError:
        pass

def burst(r):
    for _ in range(r.randint(10, 20)):
        bg(curl, ["http://%s:%d/sleep/1.0" % (HOST, HTTP)], 6)

STEPS = [(request, 12), (slow, 1), (hangup, 1), (bighead, 1), (garbage, 1), (uwsgi_packet, 3), (burst, 1)]

def main():
    n, r, pid = int(sys.argv[1]), random.Random(int(sys.argv[2])), int(sys.argv[3])
    fns = [f for f, w in STEPS for _ in range(w)]
    for _ in range(n):
        if r.random() < 0.015:
            os.kill(pid, signal.SIGHUP); time.sleep(2)
        else:
            r.choice(fns)(r)
        time.sleep(r.uniform(0.05, 0.3))
    for t in threads:
        t.join(15)

main()

#!/usr/bin/env python3
"""Seeded clients of the heldout9 coturn: turnutils_uclient allocations
over UDP, TCP, TLS and DTLS (known users with right and wrong passwords,
unknown users, UDP and TCP relays, client-to-client, send indications or
channels, extra permissions, a denied peer, an IPv6 relay that cannot be
had, bandwidth and origin attributes, negative and protocol-negative
tests, random disconnects, dual allocations, several clients at once);
turnutils_stunclient binding requests; raw garbage datagrams and streams,
TLS clients that stop mid-handshake; and SIGHUP (log reopen).
usage: coturn-drive.py STEPS SEED PID"""
import os, random, signal, socket, subprocess, sys, threading, time

HOST, PORT, TLS = "127.0.0.1", 3479, 5349
USERS = [("alice", "pw-alice"), ("bob", "pw-bob"), ("carol", "pw-carol")]
threads = []

def bg(fn, *a):
    t = threading.Thread(target=fn, args=a, daemon=True); t.start(); threads.append(t)

def run(args, secs):
    subprocess.run(["timeout", str(secs)] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def uclient(r):
    u, pw = r.choice(USERS)
    k = r.random()
    if k < 0.08:
        pw = r.choice(["wrong", "pw-" + r.choice(USERS)[0]])
    elif k < 0.14:
        u = r.choice(["mallory", "guest", "root"])
    a = ["turnutils_uclient", "-u", u, "-w", pw, "-n", str(r.randint(2, 12)), "-l", str(r.choice([40, 100, 400, 1200])),
         "-z", str(r.choice([5, 20, 50])), "-e", HOST, "-r", "3480"]
    secure = r.random() < 0.3
    if r.random() < 0.35:
        a.append("-t")
    if secure:
        a += ["-S", "-p", str(TLS)]
    else:
        a += ["-p", str(PORT)]
    for flag, p in [("-T", 0.1), ("-y", 0.1), ("-s", 0.3), ("-G", 0.3), ("-c", 0.5), ("-B", 0.08), ("-Z", 0.05), ("-N", 0.03), ("-R", 0.03), ("-x", 0.04), ("-g", 0.1), ("-D", 0.1), ("-I", 0.05)]:
        if r.random() < p:
            a.append(flag)
    if r.random() < 0.1:
        a[a.index("-e") + 1] = "127.0.0.%d" % r.randint(200, 254)   # the denied range
    if r.random() < 0.1:
        a += ["-a", str(r.choice([1000, 64000, 1000000]))]
    if r.random() < 0.1:
        a += ["-o", "https://%s.ho9.test" % r.choice(["app", "web", "call"])]
    a += ["-m", str(r.choice([1, 1, 1, 2, 3, 5])), HOST]
    bg(run, a, r.choice([4, 6, 10]))

def stun(r):
    a = ["turnutils_stunclient", "-p", str(PORT)]
    if r.random() < 0.3:
        a.append("-c")           # RFC 3489 CHANGE_REQUEST
    if r.random() < 0.2:
        a += ["-L", HOST]
    run(a + [HOST], 4)

def junk(r):
    k = r.choice(["udp", "tcp", "tls", "http", "stunlike"])
    try:
        if k in ("udp", "stunlike"):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            data = os.urandom(r.randint(1, 60)) if k == "udp" else b"\x00\x01\x00\x00\x21\x12\xa4\x42" + os.urandom(12)
            s.sendto(data, (HOST, r.choice([PORT, TLS]))); s.close()
        else:
            s = socket.create_connection((HOST, TLS if k == "tls" else PORT), timeout=2)
            s.sendall({"tcp": os.urandom(r.randint(1, 80)), "http": b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
                       "tls": b"\x16\x03\x01\x00\x30" + os.urandom(20)}[k])
            time.sleep(r.uniform(0.1, 1)); s.close()
    except OSError:
        pass

STEPS = [(uclient, 10), (stun, 2), (junk, 2)]

def main():
    n, r, pid = int(sys.argv[1]), random.Random(int(sys.argv[2])), int(sys.argv[3])
    fns = [f for f, w in STEPS for _ in range(w)]
    for _ in range(n):
        if r.random() < 0.01:
            os.kill(pid, signal.SIGHUP)
        else:
            r.choice(fns)(r)
        time.sleep(r.uniform(0.1, 0.6))
    for t in threads:
        t.join(15)

main()

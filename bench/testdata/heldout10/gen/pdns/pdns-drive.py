#!/usr/bin/env python3
"""Seeded clients of the heldout10 PowerDNS server: dig queries over UDP
and TCP (some with DNSSEC OK and other buffer sizes) for names in, under
and outside its zones, of many types; AXFR from an address that may and
one that may not transfer; NOTIFY messages; DNS UPDATEs with nsupdate
(refused); garbage and short datagrams; TCP clients that send part of a
query or idle past the timeout; pdns_control commands (rediscover,
reload, purge, bind-reload-now, bind-domain-status, notify, ccounts,
show, version, an unknown one).
usage: pdns-drive.py STEPS SEED CONFDIR"""
import os, random, socket, struct, subprocess, sys, threading, time

HOST, PORT = "127.0.0.1", 5300
NAMES = ["www.ho10.test", "api.ho10.test", "mx.ho10.test", "ns1.ho10.test", "ho10.test", "ftp.ho10.test",
         "a.dyn.ho10.test", "zzz.dyn.ho10.test", "nosuch.ho10.test", "host1.lab.ho10.test", "host9.lab.ho10.test",
         "lab.ho10.test", "_sip._udp.ho10.test", "broken.test", "www.broken.test", "example.com", "www.example.org", "."]
TYPES = ["A", "A", "A", "AAAA", "MX", "TXT", "NS", "SOA", "CNAME", "SRV", "ANY", "PTR", "CAA", "DNSKEY", "HINFO"]

def run(args, secs=8, inp=None):
    subprocess.run(["timeout", str(secs)] + args, input=inp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def query(r):
    a = ["dig", "@" + HOST, "-p", str(PORT), r.choice(NAMES), r.choice(TYPES), "+tries=1", "+time=2"]
    if r.random() < 0.25:
        a.append("+tcp")
    if r.random() < 0.2:
        a.append("+dnssec")
    if r.random() < 0.15:
        a.append("+bufsize=%d" % r.choice([0, 512, 4096]))
    if r.random() < 0.1:
        a.append("+norecurse")
    run(a)

def axfr(r):
    src = r.choice(["127.0.0.1", "127.0.0.2"])
    run(["dig", "@" + HOST, "-p", str(PORT), "-b", src, r.choice(["ho10.test", "lab.ho10.test", "example.com", "broken.test"]), "AXFR"])

def notify(r):
    run(["dig", "@" + HOST, "-p", str(PORT), "+opcode=notify", "+tries=1", "+time=2", r.choice(["ho10.test", "lab.ho10.test", "other.test"]), "SOA"])

def update(r):
    z = r.choice(["ho10.test", "lab.ho10.test", "nope.test"])
    run(["nsupdate"], inp=("server %s %d\nzone %s\nupdate add n%d.%s 60 A 127.0.0.%d\nsend\n" % (HOST, PORT, z, r.randrange(99), z, r.randrange(250))).encode())

def junk(r):
    k = r.choice(["udp", "short", "tcp-half", "tcp-idle", "tcp-junk"])
    try:
        if k in ("udp", "short"):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.sendto(os.urandom(r.randint(12, 80)) if k == "udp" else os.urandom(r.randint(1, 11)), (HOST, PORT)); s.close()
        else:
            s = socket.create_connection((HOST, PORT), timeout=8)
            if k == "tcp-half":
                s.sendall(struct.pack("!H", 40) + os.urandom(10))
            elif k == "tcp-junk":
                s.sendall(struct.pack("!H", 30) + os.urandom(30))
            time.sleep(r.choice([1, 4, 6])); s.close()
    except OSError:
        pass

def control(r, conf):
    c = r.choice([["rediscover"], ["reload"], ["purge"], ["purge", "ho10.test$"], ["bind-reload-now", r.choice(["ho10.test", "broken.test", "none.test"])],
                  ["bind-domain-status"], ["notify", "ho10.test"], ["ccounts"], ["show", "udp-queries"], ["version"], ["frobnicate"]])
    run(["pdns_control", "--config-dir=" + conf] + c)

STEPS = [(query, 16), (axfr, 1), (notify, 1), (update, 1), (junk, 2), (control, 2)]

def main():
    n, r, conf = int(sys.argv[1]), random.Random(int(sys.argv[2])), sys.argv[3]
    fns = [f for f, w in STEPS for _ in range(w)]
    threads = []
    for _ in range(n):
        f = r.choice(fns)
        sub = random.Random(r.randrange(2**32))
        args = (sub, conf) if f is control else (sub,)
        if f in (query, junk) and r.random() < 0.3:
            t = threading.Thread(target=f, args=args, daemon=True); t.start(); threads.append(t)
        else:
            f(*args)
        time.sleep(r.uniform(0.02, 0.25))
    for t in threads:
        t.join(15)

main()

#!/usr/bin/env python3
"""Seeded clients of the heldout10 OpenVPN server: real openvpn clients
(dev null) that log in with their certificate and a right or wrong
password, with a revoked certificate, one from an untrusted CA, a server
certificate, a wrong tls-crypt key, a disabled user; that stay up through
renegotiations or leave by exit notification, by SIGTERM or by SIGKILL
(the server then times them out); two sessions of one user; more clients
than max-clients; garbage datagrams; management-interface commands
(status, kill, load-stats, version, bogus commands); SIGUSR2 (a status
dump) and SIGHUP (a restart).
usage: openvpn-drive.py STEPS SEED PID"""
import os, random, signal, socket, subprocess, sys, threading, time

D = "/work/tmp-ho10/openvpn"
HOST, PORT, MGMT = "127.0.0.1", 11940, 11941
USERS = ["alice", "bob", "carol", "dave", "erin", "frank"]
threads, procs = [], []

def bg(fn, *a):
    t = threading.Thread(target=fn, args=a, daemon=True); t.start(); threads.append(t)

def client(r, who=None):
    cert = who or r.choice(USERS[:5] + ["alice", "bob", "dave", "erin", "mallory", "mallet", "frank"])
    user = cert if cert in USERS else r.choice(USERS)
    pw = "pw-" + user
    if r.random() < 0.2:
        pw = r.choice(["wrong", "Pw-" + user, "pw-" + r.choice(USERS)])
    tc = "tc.key" if r.random() > 0.05 else "wrong-tc.key"
    authf = "%s/auth-%d.txt" % (D, r.randrange(10**9))
    open(authf, "w").write("%s\n%s\n" % (user, pw))
    a = ["openvpn", "--client", "--dev", "null", "--proto", "udp4", "--remote", HOST, str(PORT),
         "--nobind", "--ca", D + "/pki/ca.crt", "--cert", "%s/pki/%s.crt" % (D, cert), "--key", "%s/pki/%s.key" % (D, cert),
         "--tls-crypt", D + "/pki/" + tc, "--auth-user-pass", authf, "--remote-cert-tls", "server",
         "--ifconfig-noexec", "--route-noexec", "--connect-retry-max", "1", "--verb", "0",
         "--auth-retry", "none", "--hand-window", "8", "--ping", "4", "--ping-restart", "12"]
    if r.random() < 0.5:
        a += ["--explicit-exit-notify", "1"]
    if r.random() < 0.1:
        a += ["--cipher", "AES-128-CBC", "--data-ciphers", "AES-128-CBC"]
    if r.random() < 0.1:
        a += ["--reneg-sec", "15"]
    stay = r.choice([3, 6, 10, 20, 45, 70])
    how = r.choice([signal.SIGTERM, signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
    def go():
        p = subprocess.Popen(a, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); procs.append(p)
        try:
            p.wait(stay)
        except subprocess.TimeoutExpired:
            p.send_signal(how); p.wait()
        os.unlink(authf)
    bg(go)

def twice(r):
    u = r.choice(["alice", "dave", "erin"])
    client(r, u); time.sleep(r.uniform(1, 3)); client(r, u)

def burst(r):
    for _ in range(r.randint(3, 6)):
        client(r); time.sleep(0.2)

def junk(r):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    k = r.random()
    data = os.urandom(r.randint(1, 120)) if k < 0.6 else bytes([0x38 if k < 0.8 else 0x50]) + os.urandom(r.randint(8, 60))
    s.sendto(data, (HOST, PORT)); s.close()

def mgmt(r):
    cmds = [r.choice(["status", "status 2", "status 3", "load-stats", "version", "state", "log 5", "verb", "help-me",
                      "kill %s" % r.choice(USERS), "kill 127.0.0.1:1", "client-kill 99", "hold", "pid"])
            for _ in range(r.randint(1, 3))]
    try:
        s = socket.create_connection((HOST, MGMT), timeout=3)
        for c in cmds:
            s.sendall(c.encode() + b"\r\n"); time.sleep(0.3)
        s.sendall(b"quit\r\n"); time.sleep(0.2); s.recv(65536); s.close()
    except OSError:
        pass

STEPS = [(client, 10), (twice, 1), (burst, 1), (junk, 2), (mgmt, 2)]

def main():
    n, r, pid = int(sys.argv[1]), random.Random(int(sys.argv[2])), int(sys.argv[3])
    fns = [f for f, w in STEPS for _ in range(w)]
    for _ in range(n):
        k = r.random()
        if k < 0.015:
            os.kill(pid, signal.SIGUSR2)
        elif k < 0.025:
            os.kill(pid, signal.SIGHUP)
        else:
            r.choice(fns)(r)
        time.sleep(r.uniform(0.3, 1.5))
    for t in threads:
        t.join(90)
    for p in procs:
        if p.poll() is None:
            p.kill(); p.wait()

main()

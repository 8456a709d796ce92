#!/usr/bin/env python3
"""Seeded clients of the stunnel services in stunnel.conf: plain clients of
the client-mode services (to the echo TLS service, to the mutual-TLS service
with and without a certificate, to a TLS service whose backend is closed, to
a closed TLS port, to a service whose checkHost fails), TLS clients of the
server services (good, with a rogue certificate, with no certificate, old
protocol versions), plaintext and garbage sent to TLS ports, clients that
hang up at once or idle past TIMEOUTidle, bursts in parallel, and SIGHUP
(reload) and SIGUSR1 (log reopen) to stunnel. An echo backend on
127.0.0.1:7001 runs in a thread.
usage: stunnel-drive.py STEPS SEED PIDFILE"""
import os, random, signal, socket, ssl, sys, threading, time

steps, seed, pidfile = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
R = random.Random(seed)
D = "/work/tmp-ho7/stunnel/"

def echo_server():
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 7001)); s.listen(64)
    def serve(c):
        try:
            c.settimeout(10)
            while True:
                b = c.recv(65536)
                if not b: break
                c.sendall(b)
        except OSError: pass
        finally: c.close()
    while True:
        c, _ = s.accept(); threading.Thread(target=serve, args=(c,), daemon=True).start()

def plain(port, n, idle=0, hang=False):
    try:
        c = socket.create_connection(("127.0.0.1", port), timeout=6)
        if hang: c.close(); return
        data = os.urandom(n)
        c.sendall(data)
        got = b""
        while len(got) < n:
            b = c.recv(65536)
            if not b: break
            got += b
        if idle: time.sleep(idle); c.recv(10)
        c.close()
    except OSError: pass

def tls(port, cert=None, ver=None, n=100):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
    if cert: ctx.load_cert_chain(D + cert + ".pem", D + cert + ".key")
    if ver:
        ctx.minimum_version = ssl.TLSVersion.MINIMUM_SUPPORTED; ctx.maximum_version = ver
        ctx.set_ciphers("ALL:@SECLEVEL=0")
    try:
        c = ctx.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=6))
        c.sendall(os.urandom(n)); c.recv(65536); c.close()
    except (OSError, ssl.SSLError): pass

def garbage(port, data):
    try:
        c = socket.create_connection(("127.0.0.1", port), timeout=6); c.sendall(data); c.recv(100); c.close()
    except OSError: pass

def step(i):
    a = R.randrange(20)
    n = R.choice([1, 17, 300, 4096, 70000])
    if a < 5: plain(4001, n)
    elif a < 7: plain(4002, n)
    elif a == 7: plain(4003, n)
    elif a == 8: plain(4004, n)
    elif a == 9: plain(4005, n)
    elif a == 10: plain(4006, n)
    elif a == 11: tls(R.choice([4431, 4433]), cert=R.choice(["client", "rogue", None]), n=n)
    elif a == 12: tls(R.choice([4431, 4433, 4432]), cert="client", n=n)
    elif a == 13: tls(4431, ver=R.choice([ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1, ssl.TLSVersion.TLSv1_2]))
    elif a == 14: garbage(R.choice([4431, 4432, 4433]), R.choice([b"GET / HTTP/1.0\r\n\r\n", os.urandom(R.randrange(1, 200)), b"\x16\x03\x01\x00\x05hello"]))
    elif a == 15: plain(R.choice([4001, 4002]), 10, hang=True)
    elif a == 16 and R.random() < 0.3: plain(4001, 20, idle=4)
    elif a == 17:
        ts = [threading.Thread(target=plain, args=(R.choice([4001, 4002, 4005]), R.choice([10, 5000]))) for _ in range(R.randrange(2, 6))]
        for t in ts: t.start()
        for t in ts: t.join()
    elif a == 18 and R.random() < 0.3: os.kill(int(open(pidfile).read()), signal.SIGHUP); time.sleep(1)
    elif a == 19 and R.random() < 0.5: os.kill(int(open(pidfile).read()), signal.SIGUSR1); time.sleep(0.3)
    else: plain(4001, n)

threading.Thread(target=echo_server, daemon=True).start()
time.sleep(0.5)
for i in range(steps):
    step(i)

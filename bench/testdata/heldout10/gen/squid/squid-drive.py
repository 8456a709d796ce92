#!/usr/bin/env python3
"""Seeded clients of the heldout10 Squid, and the loopback origin it
proxies (127.0.0.1:8090, in this process): curl requests through the proxy
(GET, HEAD, POST, PURGE) for pages that are cached, missing, large, slow
past the read timeout, or reset by the origin; ports that are closed or
denied; a denied domain; names that do not resolve; /private paths with
right, wrong and no credentials; requests to the proxy itself (a
forwarding loop); oversized headers, garbage and half-sent requests on
raw sockets; SIGHUP (reconfigure) and SIGUSR1 (log rotation).
usage: squid-drive.py STEPS SEED PID"""
import http.server, os, random, signal, socket, socketserver, subprocess, sys, threading, time

PROXY = ("127.0.0.1", 3130)
HOSTS = ["www.ho10.test", "static.ho10.test", "api.ho10.test", "origin.ho10.test"]

class Origin(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def do_GET(self):
        p = self.path.split("?")[0].split("/", 3)[-1] if "://" in self.path else self.path
        if "slow" in p:
            time.sleep(8)
        if "reset" in p:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            self.connection.close(); return
        if "garbage" in p:
            self.wfile.write(b"NOT HTTP AT ALL\r\n\r\n"); return
        code = 404 if "missing" in p else 500 if "error" in p else 200
        body = b"x" * (300000 if "big" in p else 20000 if "medium" in p else 200)
        self.send_response(code)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=60" if "static" in p else "no-cache" if "nocache" in p else "max-age=5")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
    do_HEAD = do_GET
    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0")); self.rfile.read(n)
        self.send_response(201); self.send_header("Content-Length", "0"); self.end_headers()

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

def curl(args, secs=12):
    subprocess.run(["curl", "-s", "-o", "/dev/null", "-m", str(secs), "-x", "%s:%d" % PROXY] + args,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def request(r):
    path = r.choice(["/", "/index.html", "/static/logo.png", "/static/app.css", "/medium.bin", "/big.iso", "/missing.html",
                     "/error", "/nocache/feed", "/slow/report", "/reset/now", "/garbage", "/api/v1/items?page=%d" % r.randrange(9)])
    host = r.choice(HOSTS)
    k = r.random()
    port = 8090 if k < 0.85 else r.choice([8091, 8092, 25])
    url = "http://%s:%d%s" % (host, port, path)
    if r.random() < 0.05:
        url = "http://%s/" % r.choice(["blocked.ho10.test", "ads.blocked.ho10.test"])
    elif r.random() < 0.05:
        url = "http://%s.example.invalid/" % r.choice(["nosuch", "cdn", "tracker"])
    a = [url]
    m = r.random()
    if m < 0.08:
        a = ["-X", "POST", "-d", "q=%d" % r.randrange(100)] + a
    elif m < 0.14:
        a = ["-I"] + a
    elif m < 0.17:
        a = ["-X", "PURGE"] + a
    curl(a)

def private(r):
    u = r.choice(["alice", "bob", "carol", "dave"])
    pw = "pw-" + u if r.random() < 0.6 else "wrong"
    a = [] if r.random() < 0.2 else ["-U", "%s:%s" % (u, pw)]
    curl(a + ["http://%s:8090/private/%s" % (r.choice(HOSTS), r.choice(["report", "payroll", "keys"]))])

def loop(r):
    curl(["http://127.0.0.1:3130/"], 6)

def raw(r):
    k = r.choice(["garbage", "big-header", "half", "connect", "http10", "idle"])
    try:
        s = socket.create_connection(PROXY, timeout=8)
        if k == "garbage":
            s.sendall(os.urandom(r.randint(4, 60)) + b"\r\n\r\n")
        elif k == "big-header":
            s.sendall(b"GET http://www.ho10.test:8090/ HTTP/1.1\r\nHost: www.ho10.test\r\nX-Fill: " + b"a" * 6000 + b"\r\n\r\n")
        elif k == "half":
            s.sendall(b"GET http://www.ho10.test:8090/ HTTP/1.1\r\nHost: www")
        elif k == "connect":
            s.sendall(b"CONNECT www.ho10.test:%d HTTP/1.1\r\nHost: www.ho10.test\r\n\r\n" % r.choice([25, 8090, 8091]))
        elif k == "http10":
            s.sendall(b"GET /relative HTTP/1.0\r\n\r\n")
        else:
            time.sleep(6)
        time.sleep(r.uniform(0.2, 1.5)); s.recv(4096); s.close()
    except OSError:
        pass

STEPS = [(request, 12), (private, 2), (loop, 1), (raw, 2)]

def main():
    n, r, pid = int(sys.argv[1]), random.Random(int(sys.argv[2])), int(sys.argv[3])
    srv = Server(("127.0.0.1", 8090), Origin)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    fns = [f for f, w in STEPS for _ in range(w)]
    threads = []
    for _ in range(n):
        k = r.random()
        if k < 0.01:
            os.kill(pid, signal.SIGHUP)
        elif k < 0.02:
            os.kill(pid, signal.SIGUSR1)
        else:
            t = threading.Thread(target=r.choice(fns), args=(random.Random(r.randrange(2**32)),), daemon=True)
            t.start(); threads.append(t)
        time.sleep(r.uniform(0.05, 0.4))
    for t in threads:
        t.join(20)
    srv.shutdown()

main()

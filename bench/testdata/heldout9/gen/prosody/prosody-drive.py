#!/usr/bin/env python3
"""Seeded XMPP clients of the heldout9 Prosody: logins over plain TCP and
STARTTLS with right and wrong passwords, unknown users and mechanisms;
in-band registration of new and existing accounts; after login, roster,
presence, messages to online, offline and unknown users, IQs (version,
ping, time, disco, vcard, private storage, an unknown namespace), MUC joins
and room messages, stream management; malformed XML, wrong stream
namespaces and hosts, stanzas before authentication, idle clients and
abrupt closes; BOSH and WebSocket requests on the HTTP port; and SIGHUP.
usage: prosody-drive.py STEPS SEED PID"""
import base64, os, random, signal, socket, ssl, subprocess, sys, threading, time

HOST, PORT, HTTP = "127.0.0.1", 5322, 5380
DOM, MUC = "ho9.test", "rooms.ho9.test"
USERS = ["alice", "bob", "carol", "dave", "admin"]
ROOMS = ["lobby", "ops", "random", "help"]
threads = []
CTX = ssl.create_default_context(); CTX.check_hostname = False; CTX.verify_mode = ssl.CERT_NONE

def bg(fn, *a):
    t = threading.Thread(target=fn, args=a, daemon=True); t.start(); threads.append(t)

def stream(to=DOM, ns="jabber:client"):
    return "<?xml version='1.0'?><stream:stream to='%s' xmlns='%s' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>" % (to, ns)

class C:
    def __init__(s):
        s.s = socket.create_connection((HOST, PORT), timeout=3)
    def send(s, x):
        s.s.sendall(x.encode())
    def read(s, want="", secs=1.5):
        buf, end = "", time.time() + secs
        while time.time() < end:
            try:
                d = s.s.recv(65536)
            except (socket.timeout, ssl.SSLError, OSError):
                break
            if not d:
                break
            buf += d.decode(errors="replace")
            if want and want in buf:
                break
        return buf
    def close(s, polite=True):
        try:
            if polite:
                s.send("</stream:stream>"); s.read("</stream:stream>", 1)
            s.s.close()
        except OSError:
            pass

def sasl(c, u, pw, mech="PLAIN"):
    if mech == "PLAIN":
        c.send("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>%s</auth>" % base64.b64encode(("\0%s\0%s" % (u, pw)).encode()).decode())
    else:
        c.send("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='%s'/>" % mech)
    return "<success" in c.read("</", 2)

def starttls(c):
    c.send("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
    if "<proceed" not in c.read("proceed", 2):
        return False
    c.s = CTX.wrap_socket(c.s, server_hostname=DOM)
    c.send(stream()); c.read("</stream:features>")
    return True

def login(r, u, pw):
    c = C(); c.send(stream()); c.read("</stream:features>")
    if r.random() < 0.5:
        starttls(c)
    if not sasl(c, u, pw):
        return c, False
    c.send(stream()); c.read("</stream:features>")
    c.send("<iq type='set' id='b1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>%s</resource></bind></iq>" % r.choice(["phone", "laptop", "ho9-%d" % r.randint(1, 99)]))
    c.read("</iq>")
    return c, True

IQS = ["<iq type='get' id='r1'><query xmlns='jabber:iq:roster'/></iq>",
       "<iq type='get' id='v1' to='%s'><query xmlns='jabber:iq:version'/></iq>" % DOM,
       "<iq type='get' id='p1' to='%s'><ping xmlns='urn:xmpp:ping'/></iq>" % DOM,
       "<iq type='get' id='t1' to='%s'><time xmlns='urn:xmpp:time'/></iq>" % DOM,
       "<iq type='get' id='d1' to='%s'><query xmlns='http://jabber.org/protocol/disco#items'/></iq>" % DOM,
       "<iq type='get' id='d2' to='%s'><query xmlns='http://jabber.org/protocol/disco#info'/></iq>" % MUC,
       "<iq type='get' id='vc'><vCard xmlns='vcard-temp'/></iq>",
       "<iq type='set' id='pv'><query xmlns='jabber:iq:private'><note xmlns='ho9:notes'>n</note></query></iq>",
       "<iq type='get' id='x1' to='%s'><query xmlns='ho9:unknown'/></iq>" % DOM,
       "<iq type='get' id='la' to='bob@%s'><query xmlns='jabber:iq:last'/></iq>" % DOM,
       "<iq type='get' id='bl'><blocklist xmlns='urn:xmpp:blocking'/></iq>",
       "<iq type='set' id='cb'><enable xmlns='urn:xmpp:carbons:2'/></iq>",
       "<iq type='set' id='mq'><query xmlns='urn:xmpp:mam:2'/></iq>",
       "<iq type='get' id='up' to='%s'><query xmlns='jabber:iq:last'/></iq>" % DOM]

def session(r):
    u = r.choice(USERS)
    pw = "pw-" + u if r.random() < 0.8 else r.choice(["wrong", "pw-" + r.choice(USERS)])
    try:
        c, ok = login(r, u, pw)
        if not ok:
            c.close(r.random() < 0.7); return
        if r.random() < 0.3:
            c.send("<enable xmlns='urn:xmpp:sm:3' resume='true'/>"); c.read("/>")
        c.send("<presence><status>%s</status></presence>" % r.choice(["here", "away", "busy"]))
        for _ in range(r.randint(1, 6)):
            k = r.random()
            if k < 0.4:
                c.send(r.choice(IQS))
            elif k < 0.7:
                to = r.choice(["%s@%s" % (r.choice(USERS), DOM), "nobody@%s" % DOM, "x@elsewhere.invalid", "%s@%s/phone" % (r.choice(USERS), DOM)])
                c.send("<message to='%s' type='chat' id='m%d'><body>hi %d</body></message>" % (to, r.randint(1, 999), r.randint(1, 999)))
            elif k < 0.85:
                room = r.choice(ROOMS)
                c.send("<presence to='%s@%s/%s'><x xmlns='http://jabber.org/protocol/muc'/></presence>" % (room, MUC, u))
                c.read("", 0.3)
                c.send("<message to='%s@%s' type='groupchat'><body>room %d</body></message>" % (room, MUC, r.randint(1, 99)))
            else:
                c.send(r.choice(["<iq type='set' id='bad'><query xmlns='jabber:iq:roster'><item jid='%s@%s'/></query></iq>" % (r.choice(USERS), DOM),
                                 "<presence type='subscribe' to='%s@%s'/>" % (r.choice(USERS), DOM),
                                 "<iq type='result' id='stray'/>", "<foo xmlns='ho9:unknown'/>"]))
            c.read("", r.uniform(0.1, 0.6))
        k = r.random()
        if k < 0.1:
            time.sleep(r.uniform(3, 10)); c.close(False)     # idle past c2s_timeout / smacks hibernation
        else:
            c.close(k > 0.25)
    except OSError:
        pass

def register(r):
    try:
        c = C(); c.send(stream()); c.read("</stream:features>")
        u = r.choice(USERS + ["user%d" % r.randint(1, 40), "bad user", ""])
        c.send("<iq type='get' id='rg0'><query xmlns='jabber:iq:register'/></iq>"); c.read("</iq>")
        c.send("<iq type='set' id='rg1'><query xmlns='jabber:iq:register'><username>%s</username><password>%s</password></query></iq>" % (u, r.choice(["pw-new", ""])))
        c.read("</iq>"); c.close(r.random() < 0.8)
    except OSError:
        pass

def bad(r):
    k = r.choice(["garbage", "ns", "host", "early", "mech", "notxml", "tlsjunk", "idle", "cut"])
    try:
        c = C()
        if k == "garbage":
            c.send("\x16\x03\x01\x00\x05hello")
        elif k == "ns":
            c.send(stream(ns="jabber:server"))
        elif k == "host":
            c.send(stream(to=r.choice(["unknown.test", "localhost", MUC])))
        elif k == "notxml":
            c.send(stream() + "<message><body>unclosed</message>")
        else:
            c.send(stream()); c.read("</stream:features>")
            if k == "early":
                c.send("<message to='bob@%s'><body>x</body></message>" % DOM)
            elif k == "mech":
                sasl(c, "alice", "x", r.choice(["X-UNKNOWN", "SCRAM-SHA-1", "ANONYMOUS"]))
            elif k == "tlsjunk":
                c.send("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"); c.read("proceed"); c.send("not a tls record\r\n\r\n")
            elif k == "idle":
                time.sleep(r.uniform(3, 10))
        c.read("", 1); c.close(k in ("early", "mech"))
    except OSError:
        pass

def http(r):
    k = r.choice(["bosh", "boshbad", "ws", "get", "missing"])
    url = "http://%s:%d" % (HOST, HTTP)
    if k == "bosh":
        body = "<body rid='%d' xmlns='http://jabber.org/protocol/httpbind' to='%s' xml:lang='en' wait='2' hold='1' ver='1.6' xmlns:xmpp='urn:xmpp:xbosh' xmpp:version='1.0'/>" % (r.randint(1000, 9999999), DOM)
        a = ["-d", body, "-H", "Content-Type: text/xml", url + "/http-bind"]
    elif k == "boshbad":
        a = ["-d", r.choice(["<body/>", "not xml", "<body rid='1' sid='nosuchsid' xmlns='http://jabber.org/protocol/httpbind'/>"]), url + "/http-bind"]
    elif k == "ws":
        a = ["-H", "Connection: Upgrade", "-H", "Upgrade: websocket", "-H", "Sec-WebSocket-Version: 13", "-H", "Sec-WebSocket-Key: aG85aG85aG85aG85aG85aA==", "-H", "Sec-WebSocket-Protocol: xmpp", url + "/xmpp-websocket"]
    elif k == "get":
        a = [url + r.choice(["/http-bind", "/xmpp-websocket"])]
    else:
        a = [url + r.choice(["/", "/missing", "/../etc/passwd"])]
    bg(subprocess.run, ["curl", "-s", "-m", "4", "--path-as-is", "-o", "/dev/null"] + a)

STEPS = [(session, 8), (register, 2), (bad, 2), (http, 2)]

def main():
    n, r, pid = int(sys.argv[1]), random.Random(int(sys.argv[2])), int(sys.argv[3])
    fns = [f for f, w in STEPS for _ in range(w)]
    for _ in range(n):
        if r.random() < 0.01:
            os.kill(pid, signal.SIGHUP)
        else:
            f = r.choice(fns)
            if f is not http and r.random() < 0.7:
                bg(f, random.Random(r.random()))
            else:
                f(r)
        time.sleep(r.uniform(0.05, 0.3))
    for t in threads:
        t.join(15)

main()

#!/usr/bin/env python3
"""Seeded driver of knotd on 127.0.0.1:5355: AXFR and IXFR requests (some
from an address the ACL does not allow), TSIG-signed nsupdate additions and
deletions (and some with a wrong key or to a zone without an update ACL),
knotc zone-reload, zone-refresh and zone-retransfer of the secondary whose
primary is closed, zone-flush, zone-sign, zone-key-rollover, zone-freeze
and zone-thaw, zone transactions (zone-begin, zone-set/zone-unset,
zone-commit or zone-abort), server reload, and edits of corp.test's zone
file (a serial bump, a broken record, the good file back) followed by a
reload.
usage: knot-drive.py STEPS SEED"""
import random, subprocess, sys, time

steps, seed = int(sys.argv[1]), int(sys.argv[2])
R = random.Random(seed)
D = "/work/tmp-ho7/knot/"
KEY = "hmac-sha256:upd:aG83LXVwZGF0ZS1rZXktZm9yLXRlc3RzLW9ubHk="
BAD = "hmac-sha256:upd:d3Jvbmctc2VjcmV0LWZvci10ZXN0cy1vbmx5LTEyMzQ="
ZONES = ["example.test", "corp.test", "open.test"]
serial = [10]

def run(*a, inp=None):
    subprocess.run(list(a), input=inp, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)

def knotc(*a):
    run("knotc", "-c", D + "knot.conf", *a)

def dig(*a):
    run("dig", "@127.0.0.1", "-p", "5355", "+tries=1", "+time=2", *a)

def nsupdate(zone, key=KEY):
    cmds = ["server 127.0.0.1 5355", "zone " + zone]
    for _ in range(R.randrange(1, 4)):
        n = "h%d.%s." % (R.randrange(30), zone)
        if R.random() < 0.7: cmds.append("update add %s 300 A 192.0.2.%d" % (n, R.randrange(1, 255)))
        else: cmds.append("update delete %s A" % n)
    cmds.append("send")
    run("nsupdate", "-y", key, inp="\n".join(cmds) + "\n")

def zonefile(kind):
    good = open(D + "zones/corp.test.zone.good").read()
    serial[0] += 1
    text = good.replace("hostmaster 1 ", "hostmaster %d " % serial[0])
    if kind == "bump": text += "n%d A 192.0.2.%d\n" % (serial[0], R.randrange(1, 255))
    elif kind == "broken": text += R.choice(["bad A 192.0.2\n", "x MX mail\n", "y AAAA ::zz\n", "$INCLUDE missing.zone\n"])
    open(D + "zones/corp.test.zone", "w").write(text)
    knotc("zone-reload", "corp.test")

def step():
    a = R.randrange(30)
    z = R.choice(ZONES)
    if a < 5: dig(z, "AXFR")
    elif a < 7: dig(z, "IXFR=%d" % R.randrange(1, 12))
    elif a == 7: dig("-b", "127.0.0.2", z, R.choice(["AXFR", "IXFR=1"]))
    elif a < 13: nsupdate(R.choice(["example.test", "corp.test"]))
    elif a == 13: nsupdate(R.choice(["example.test", "corp.test"]), key=BAD)
    elif a == 14: nsupdate("open.test")
    elif a == 15: knotc("zone-reload", R.choice(ZONES + ["broken.test"]))
    elif a == 16: knotc(R.choice(["zone-refresh", "zone-retransfer"]), "sec.test")
    elif a == 17: knotc("zone-flush", z)
    elif a == 18: knotc("zone-sign", "example.test")
    elif a == 19 and R.random() < 0.4: knotc("zone-key-rollover", "example.test", R.choice(["zsk", "ksk"]))
    elif a == 20: knotc("zone-freeze", z); nsupdate(z) if z != "open.test" else None; knotc("zone-thaw", z)
    elif a < 23:
        knotc("zone-begin", z)
        for _ in range(R.randrange(1, 3)):
            if R.random() < 0.7: knotc("zone-set", z, "t%d" % R.randrange(20), "300", "TXT", "v%d" % R.randrange(99))
            else: knotc("zone-unset", z, "t%d" % R.randrange(20))
        knotc(R.choice(["zone-commit", "zone-commit", "zone-abort"]), z)
    elif a == 23 and R.random() < 0.3: knotc("reload")
    elif a < 27: zonefile(R.choice(["bump", "bump", "broken", "good"]))
    elif a == 27: knotc("zone-notify", z)
    else: dig(R.choice(ZONES + ["sec.test", "nope.test"]), "SOA")
    time.sleep(R.choice([0.05, 0.2, 0.5]))

for i in range(steps):
    step()

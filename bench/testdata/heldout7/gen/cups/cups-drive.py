#!/usr/bin/env python3
"""Seeded driver of cupsd (on its private socket): print jobs to a file
queue, to an IPP queue that relays to the file queue through cupsd itself,
to an IPP queue whose printer is a closed port (error policies retry-job,
abort-job or stop-printer), to a file queue in a missing directory, and to
a class; jobs held and released, cancelled, moved, with copies, titles and
priorities; jobs to missing queues; queues disabled and enabled, rejecting
and accepting; queues and classes added, modified and deleted, some with a
bad device URI; and SIGHUP (reload).
usage: cups-drive.py STEPS SEED PID"""
import os, random, signal, subprocess, sys, time

steps, seed, pid = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
R = random.Random(seed)
D = "/work/tmp-ho7/cups/"
os.environ["CUPS_SERVER"] = D + "run/cups.sock"
Q = ["good", "relay", "dead", "badfile", "office"]
jobs = []

def run(*a, inp=None):
    p = subprocess.run(list(a), input=inp, capture_output=True, text=True, timeout=30)
    return p.stdout

def lp(q, *opts):
    out = run("lp", "-d", q, *opts, inp="page %d\n" % R.randrange(1000) * R.randrange(1, 50))
    if "request id is" in out:
        jobs.append(int(out.split("request id is ")[1].split()[0].rsplit("-", 1)[1]))

def setup():
    run("lpadmin", "-p", "good", "-E", "-v", "file://" + D + "out/good.prn", "-m", "raw")
    run("lpadmin", "-p", "relay", "-E", "-v", "ipp://127.0.0.1:6631/printers/good", "-m", "raw")
    run("lpadmin", "-p", "dead", "-E", "-v", "ipp://127.0.0.1:9/ipp/print", "-m", "raw", "-o", "printer-error-policy=retry-job")
    run("lpadmin", "-p", "badfile", "-E", "-v", "file://" + D + "nodir/x.prn", "-m", "raw")
    run("lpadmin", "-p", "good", "-c", "office"); run("lpadmin", "-p", "relay", "-c", "office")
    run("cupsenable", "office"); run("cupsaccept", "office")

def step(i):
    a = R.randrange(26)
    if a < 6: lp(R.choice(["good", "good", "relay", "office"]), "-t", "doc%d" % i)
    elif a == 6: lp("dead")
    elif a == 7: lp("badfile")
    elif a == 8: lp(R.choice(Q), "-n", str(R.randrange(2, 5)), "-q", str(R.randrange(1, 100)))
    elif a == 9: lp(R.choice(["good", "relay"]), "-H", "indefinite")
    elif a == 10 and jobs: run("lp", "-i", str(R.choice(jobs)), "-H", R.choice(["resume", "hold", "immediate"]))
    elif a == 11 and jobs: run("cancel", str(R.choice(jobs)))
    elif a == 12 and R.random() < 0.3: run("cancel", "-a", R.choice(Q))
    elif a == 13 and jobs: run("lpmove", str(R.choice(jobs)), R.choice(Q))
    elif a == 14: lp(R.choice(["nosuch", "gone"]))
    elif a == 15: run(R.choice(["cupsdisable", "cupsenable", "cupsenable"]), R.choice(Q))
    elif a == 16: run(R.choice(["cupsreject", "cupsaccept", "cupsaccept"]), R.choice(Q))
    elif a == 17:
        n = "tmp%d" % R.randrange(5)
        run("lpadmin", "-p", n, "-E", "-v", R.choice(["file:///dev/null", "ipp://127.0.0.1:9/ipp/print", "lpd://127.0.0.1/q", "bogus:/x"]), "-m", "raw")
    elif a == 18: run("lpadmin", "-x", "tmp%d" % R.randrange(5))
    elif a == 19: run("lpadmin", "-p", "dead", "-o", "printer-error-policy=" + R.choice(["retry-job", "abort-job", "stop-printer", "retry-current-job"]))
    elif a == 20: run("lpadmin", "-p", R.choice(Q[:4]), "-D", "desc %d" % i, "-L", "room %d" % R.randrange(9))
    elif a == 21 and R.random() < 0.3: run("lpadmin", "-p", "tmp%d" % R.randrange(5), "-c", R.choice(["office", "spare"]))
    elif a == 22 and R.random() < 0.25: os.kill(pid, signal.SIGHUP); time.sleep(2)
    elif a == 23: run("lpadmin", "-d", R.choice(Q + ["nosuch"]))
    elif a == 24: run("cupsenable", "dead"); run("cupsenable", "badfile")
    else: lp("good")
    time.sleep(R.choice([0.1, 0.3, 0.8]))

setup()
for i in range(steps):
    step(i)
time.sleep(10)

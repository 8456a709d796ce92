#!/usr/bin/env python3
"""Check the heldout7 files' format, nothing else: for each SYSTEM in DIR,
SYSTEM.log.gz and SYSTEM_structured.csv.gz have the same number of lines,
LineIds run 1..N once each, each Content is its raw line minus a header that
the system's header expression (label7.py's) matches in full, EventIds and
templates pair one to one, and each template matches its Content when <*> is
a wildcard, and every template of label7.py's list matched some line.
usage: check7.py DIR"""
import csv, gzip, io, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from label7 import SYSTEMS, rx

def check(d, system):
    raw = gzip.open(os.path.join(d, system, system + ".log.gz"), "rt", encoding="utf-8").read().split("\n")
    assert raw[-1] == "", "log must end with a newline"
    raw.pop()
    rows = list(csv.DictReader(io.StringIO(gzip.open(os.path.join(d, system, system + "_structured.csv.gz"), "rt", encoding="utf-8").read())))
    assert len(rows) == len(raw), f"{len(rows)} rows for {len(raw)} lines"
    hre = re.compile(SYSTEMS[system][0], re.S)
    pair = {}
    for n, (r, line) in enumerate(zip(rows, raw), 1):
        assert int(r["LineId"]) == n, f"LineId {r['LineId']} at row {n}"
        c = r["Content"]
        assert line.endswith(c), f"line {n}: Content is not the end of the raw line"
        h = hre.match(line)
        assert h and h.group("h") == line[:len(line) - len(c)], f"line {n}: header {line[:len(line)-len(c)]!r}"
        assert pair.setdefault(r["EventId"], r["EventTemplate"]) == r["EventTemplate"], f"line {n}: {r['EventId']} has two templates"
        assert rx(r["EventTemplate"]).match(c), f"line {n}: template does not match"
    assert len(set(pair.values())) == len(pair), "two EventIds share a template"
    listed = {t[1] if isinstance(t, tuple) else t for t in SYSTEMS[system][1]}
    assert listed == set(pair.values()), f"templates that matched no line: {sorted(listed - set(pair.values()))}"
    return len(raw), len(pair)

if __name__ == "__main__":
    d = sys.argv[1]
    for s in sorted(os.listdir(d)):
        if s in SYSTEMS:
            print(s, "%d lines, %d events: ok" % check(d, s))

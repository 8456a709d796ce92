#!/usr/bin/env python3
"""Check that every word of five or more letters in a template's constant
text occurs in the strings of the program's binaries (a check that the
templates were written from the program and not made up).
usage: words7.py SYSTEM STRINGS.txt"""
import re, sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from label7 import SYSTEMS
system, strings = sys.argv[1], open(sys.argv[2], errors="replace").read()
bad = 0
for t in SYSTEMS[system][1]:
    t = t[1] if isinstance(t, tuple) else t
    for w in re.findall(r"[A-Za-z]{5,}", t.replace("<*>", " ")):
        if w not in strings:
            print(system, "missing:", w, "in", t); bad += 1
print(system, "ok" if not bad else "%d missing" % bad)

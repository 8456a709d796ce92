#!/usr/bin/env python3
"""Check the heldout7 files' format, nothing else: for each SYSTEM in DIR,
SYSTEM.log.gz and SYSTEM_structured.csv.gz have the same number of lines,
LineIds run 1..N once each, each Content is its raw line minus a header that
the system's header expression (label7.py's) matches in full, EventIds and
templates pair one to one, and each template matches its Content when <*> is
a wildcard, and every template of label7.py's list matched some line.
usage: check7.py DIR"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from label7 import SYSTEMS, cli

if __name__ == "__main__":
    cli.main(SYSTEMS, ["check"] + sys.argv[1:])

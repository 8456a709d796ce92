#!/usr/bin/env python3
"""Check that every word of five or more letters in a template's constant
text occurs in the strings of the program's binaries (a check that the
templates were written from the program and not made up).
usage: words7.py SYSTEM STRINGS.txt"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from label7 import SYSTEMS, cli

if __name__ == "__main__":
    cli.main(SYSTEMS, ["words"] + sys.argv[1:])

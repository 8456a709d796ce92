"""The commands of a set's gen script:

    SCRIPT label SYSTEM RAW.log OUTDIR   label a raw log, write loghub files
    SCRIPT check DIR                     check the format of every system in DIR
    SCRIPT words SYSTEM STRINGS.txt      check template words against strings(1)
"""
import os, sys

from . import check, label, words


def do_label(systems, system, raw, out):
    header, templates = systems[system]
    lines = label.read_lines(raw)
    try:
        rows = label.label(header, templates, lines)
    except label.Unmatched as e:
        sys.exit(str(e))
    label.write(out, system, lines, rows)
    print(system, len(rows), "lines", len({r[2] for r in rows}), "events")


def do_check(systems, d):
    for s in sorted(os.listdir(d)):
        if s in systems:
            print(s, "%d lines, %d events: ok" % check.check(d, s, *systems[s]))


def do_words(systems, system, strings):
    bad = words.missing(systems[system][1], open(strings, errors="replace").read())
    for w, t in bad:
        print(system, "missing:", w, "in", t)
    print(system, "ok" if not bad else "%d missing" % len(bad))
    if bad:
        sys.exit(1)


COMMANDS = {"label": (do_label, 3), "check": (do_check, 1), "words": (do_words, 2)}


def main(systems, argv=None):
    """Run the command named in argv (sys.argv[1:] by default) on systems."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS or len(argv) - 1 != COMMANDS[argv[0]][1]:
        sys.exit(__doc__)
    fn = COMMANDS[argv[0]][0]
    fn(systems, *argv[1:])

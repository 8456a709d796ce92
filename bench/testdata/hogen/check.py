"""Check a labelled set's format, nothing else (it reads no template miner and
groups nothing): for each system, the log and the CSV have as many lines,
LineIds run 1..N once each, each Content is its raw line minus a header the
system's expression matches in full, EventIds and templates pair one to one,
each template matches its Content when <*> is a wildcard, and every listed
template matched some line."""
import csv, gzip, io, os, re

from .label import rx, text


def read_set(d, system):
    """The raw lines and the CSV rows of system under d."""
    raw = gzip.open(os.path.join(d, system, system + ".log.gz"), "rt", encoding="utf-8").read().split("\n")
    assert raw[-1] == "", "log must end with a newline"
    raw.pop()
    csvtext = gzip.open(os.path.join(d, system, system + "_structured.csv.gz"), "rt", encoding="utf-8").read()
    return raw, list(csv.DictReader(io.StringIO(csvtext)))


def check(d, system, header, templates):
    """Assert the format of system's files under d; return (lines, events)."""
    raw, rows = read_set(d, system)
    assert len(rows) == len(raw), f"{len(rows)} rows for {len(raw)} lines"
    hre = re.compile(header, re.S)
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
    listed = {text(t) for t in templates}
    assert listed == set(pair.values()), f"templates that matched no line: {sorted(listed - set(pair.values()))}"
    return len(raw), len(pair)

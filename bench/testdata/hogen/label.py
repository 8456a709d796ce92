"""Label raw log lines with ground-truth templates and write them in loghub
format: SYSTEM/SYSTEM.log.gz (the raw lines) and SYSTEM/SYSTEM_structured.csv.gz
(LineId, Content, EventId, EventTemplate).

Every line must match its system's header expression and at least one
template; a line that does not stops the labeller (no line is labelled by
guess). Where several templates match, the one with the most constant text
wins (ties: the one listed first). EventIds number templates in order of
first appearance."""
import csv, gzip, io, os, re


class Unmatched(Exception):
    """A raw line matched no header or no template."""


def rx(t):
    """The regular expression of template t: its text literal, each <*> any text."""
    parts = t.split("<*>")
    return re.compile("^" + "(.*?)".join(re.escape(p) for p in parts) + "$", re.S)


def text(t):
    """A template as listed: plain, or the template of a (tag, template) pair."""
    return t[1] if isinstance(t, tuple) else t


def matchers(templates):
    """The untagged templates, most constant text first, and the tagged ones by tag."""
    tagged = {}
    for t in templates:
        if isinstance(t, tuple):
            tagged.setdefault(t[0], []).append((rx(t[1]), t[1]))
    plain = [t for t in templates if not isinstance(t, tuple)]
    ordered = sorted(((rx(t), t) for t in plain), key=lambda p: -len(p[1].replace("<*>", "")))
    return ordered, tagged


def label(header, templates, lines):
    """Rows (LineId, Content, EventId, EventTemplate) for lines, or Unmatched."""
    hre = re.compile(header, re.S)
    plain, tagged = matchers(templates)
    rows, ids = [], {}
    for i, line in enumerate(lines, 1):
        h = hre.match(line)
        if not h:
            raise Unmatched(f"line {i}: no header: {line!r}")
        msg = h.group("m")
        tag = h.groupdict().get("tag")
        t = next((t for r, t in tagged.get(tag, plain) if r.match(msg)), None)
        if t is None:
            raise Unmatched(f"line {i}: no template: {line!r}")
        ids.setdefault(t, "E%d" % (len(ids) + 1))
        rows.append((i, msg, ids[t], t))
    return rows


def read_lines(path):
    """The lines of a raw log file, without the newline after the last."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def csv_text(rows):
    """The structured CSV of rows, with loghub's header row."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["LineId", "Content", "EventId", "EventTemplate"])
    w.writerows(rows)
    return buf.getvalue()


def write_gzip(path, data):
    """Write data gzipped, deterministically: no file name, mtime 0."""
    with open(path, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", filename="", mtime=0) as z:
        z.write(data)


def write(out, system, lines, rows):
    """Write SYSTEM.log.gz and SYSTEM_structured.csv.gz under out/system."""
    d = os.path.join(out, system)
    os.makedirs(d, exist_ok=True)
    write_gzip(os.path.join(d, system + ".log.gz"), ("\n".join(lines) + "\n").encode())
    write_gzip(os.path.join(d, system + "_structured.csv.gz"), csv_text(rows).encode())

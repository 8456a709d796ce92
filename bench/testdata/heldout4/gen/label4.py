#!/usr/bin/env python3
"""Label the heldout4 logs with ground-truth templates written from the
programs' format strings (tinyproxy's log_message calls, vsftpd's
vsf_log_line/str_log calls and FTP reply strings, git's trace_printf and
trace_argv_printf calls), in loghub format (X.log.gz, X_structured.csv.gz).

usage: label4.py SYSTEM RAW.log OUTDIR [MAXLINES]
Every line must match a header and a template; an unmatched line is printed
and the script fails, so no line is labelled by guess. Where several
templates match, the one with the most constant text wins."""
import csv, gzip, io, re, sys, os

def rx(t):
    parts = t.split("<*>")
    return re.compile("^" + "(.*?)".join(re.escape(p) for p in parts) + "$", re.S)

SYSTEMS = {}
SYSTEMS["tinyproxy"] = (r"^(?P<h>[A-Z]+ +[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d\.\d{3} \[\d+\]: )(?P<m>.*)$", [
  "Initializing tinyproxy ...", "Reloading config file", "Reloading config file finished",
  "Added address [<*>] to listen addresses.", 'Setting "Via" header to \'<*>\'',
  "Adding Port [<*>] to the list allowed by CONNECT", "listen_sock called with addr = '<*>'",
  "trying to listen on host[<*>], family[<*>], socktype[<*>], proto[<*>]", "listening on fd [<*>]",
  'Now running as group "<*>".', 'Now running as user "<*>".', "Setting the various signals.",
  "Starting main loop. Accepting connections.", "Connect (file descriptor <*>): <*>",
  "Request (file descriptor <*>): <*>", "No upstream proxy for <*>",
  "opensock: opening connection to <*>:<*>", "opensock: getaddrinfo returned for <*>:<*>",
  'Established connection to host "<*>" using file descriptor <*>.',
  "Closed connection between local client (fd:<*>) and remote client (fd:<*>)",
  "opensock: Could not establish a connection to <*>", "Refused CONNECT method on port <*>",
  "Not sending client headers to remote machine", 'Proxying refused on filtered domain "<*>"',
  "opensock: Could not retrieve address info for <*>:<*>: Name or service not known",
  "Shutting down.", "trying to bring down <*> threads...",
])
R = 'FTP response: Client "<*>", "'
C = 'FTP command: Client "<*>", "'
SYSTEMS["vsftpd"] = (r"^(?P<h>[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4} \[pid \d+\] (?:\[[^\]]+\] )?)(?P<m>.*)$", [
  'CONNECT: Client "<*>"', 'OK LOGIN: Client "<*>", anon password "<*>"',
  'OK DOWNLOAD: Client "<*>", "<*>", <*> bytes, <*>Kbyte/sec', 'OK UPLOAD: Client "<*>", "<*>", <*> bytes, <*>Kbyte/sec',
  'FAIL UPLOAD: Client "<*>", "<*>", <*>Kbyte/sec', 'FAIL DOWNLOAD: Client "<*>", "<*>", <*>Kbyte/sec',
] + [C + v + '"' for v in ["USER <*>", "PASS <password>", "PWD", "CWD <*>", "EPSV", "TYPE <*>", "LIST", "SIZE <*>", "RETR <*>",
  "STOR <*>", "EPRT <*>", "QUIT", "DELE <*>", "MKD <*>", "MDTM <*>", "SITE <*>"]] + [R + v + '"' for v in [
  "220 <*>", "331 Please specify the password.", "230 Login successful.", '257 "<*>" is the current directory',
  "250 Directory successfully changed.", "229 Entering Extended Passive Mode (|||<*>|)", "200 Switching to ASCII mode.",
  "200 Switching to Binary mode.", "150 Here comes the directory listing.", "226 Directory send OK.", "221 Goodbye.",
  "226 Transfer complete.", "213 <*>", "150 Opening BINARY mode data connection for <*> (<*> bytes).",
  "150 Ok to send data.", "550 Failed to change directory.", "200 EPRT command successful. Consider using EPSV.",
  "550 Could not get file size.", "550 Permission denied.", "553 Could not create file.",
  "530 This FTP server is anonymous only.", "550 Failed to open file.", "500 Unknown SITE command.",
  "550 Create directory operation failed.", "550 Delete operation failed.", "550 Could not get file modification time.",
  "530 Please login with USER and PASS."]]) 
SYSTEMS["git"] = (r"^(?P<h>\d\d:\d\d:\d\d\.\d{6} \S+:\d+ +)(?P<m>.*)$", [
  "setup: git_dir: <*>", "setup: git_common_dir: <*>", "setup: worktree: <*>", "setup: cwd: <*>", "setup: prefix: <*>",
  "setup: chdir from '<*>' to '<*>'", "setup: reparent packed-refs to '<*>'", "setup: reparent files-backend $GIT_DIR to '<*>'",
  "setup: reparent files-backend $GIT_COMMONDIR to '<*>'", "trace: built-in: git <*>", "trace: exec: <*>",
  "trace: run_command: <*>",
])

def main():
    system, raw, out = sys.argv[1], sys.argv[2], sys.argv[3]
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    header, templates = SYSTEMS[system]
    hre = re.compile(header, re.S)
    compiled = sorted(((rx(t), t) for t in templates), key=lambda p: -len(p[1].replace("<*>", "")))
    lines = open(raw, encoding="utf-8", errors="replace").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = lines[:limit]
    rows = []
    for i, line in enumerate(lines, 1):
        h = hre.match(line)
        if not h:
            sys.exit(f"line {i}: no header: {line!r}")
        msg = h.group("m")
        t = next((t for r, t in compiled if r.match(msg)), None)
        if t is None:
            sys.exit(f"line {i}: no template: {msg!r}")
        rows.append((i, msg, t))
    d = os.path.join(out, system)
    os.makedirs(d, exist_ok=True)
    with gzip.GzipFile(os.path.join(d, system + ".log.gz"), "wb", mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode())
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["LineId", "Content", "EventTemplate"])
    w.writerows(rows)
    with gzip.GzipFile(os.path.join(d, system + "_structured.csv.gz"), "wb", mtime=0) as f:
        f.write(buf.getvalue().encode())
    print(system, len(rows), "lines", len({t for _, _, t in rows}), "events")

main()

#!/usr/bin/env python3
"""Label the heldout5 logs with ground-truth templates written from the
programs' format strings (BIND 9's isc_log_write/ns_client_log calls,
HAProxy's send_log calls and log-formats, MariaDB's sql_print_* and ib::
messages, Exim's log_write calls), in loghub format (X.log.gz,
X_structured.csv.gz with LineId, Content, EventId, EventTemplate).

usage: label5.py SYSTEM RAW.log OUTDIR [MAXLINES]
Every line must match the header and a template; an unmatched line is printed
and the script fails, so no line is labelled by guess. A system may list
templates for lines its program writes without a header (MariaDB prints a few
straight to stderr); such a line's Content is the whole line. Where several
templates match, the one with the most constant text wins."""
import csv, gzip, io, re, sys, os

def rx(t):
    parts = t.split("<*>")
    return re.compile("^" + "(.*?)".join(re.escape(p) for p in parts) + "$", re.S)

SYSTEMS = {}  # name -> (header regex, templates, headerless templates)

# BIND 9.18: print-time, print-category, print-severity.
CL = "client @<*> <*>: "
SYSTEMS["bind"] = (r"^(?P<h>\d\d-[A-Z][a-z]{2}-\d{4} \d\d:\d\d:\d\d\.\d{3} [a-z-]+: (?:info|notice|warning|error|critical|debug \d+): )(?P<m>.*)$", [
  CL + "query: <*> <*> <*> <*> (<*>)",
  CL + "query failed (REFUSED) for <*> at query.c:5708",
  CL + "query failed (zone not loaded) for <*> at query.c:5713",
  CL + "query failed (SERVFAIL) for <*> at query.c:7177",
  CL + "query failed (failure) for <*> at query.c:7916",
  CL + "query (cache) '<*>' denied (allow-query-cache did not match)",
  CL + "updating zone '<*>': adding an RR at '<*>' <*> <*>",
  CL + 'signer "<*>" approved', CL + "update '<*>' denied",
  CL + "transfer of '<*>': AXFR started: TSIG <*> (serial <*>)",
  CL + "transfer of '<*>': AXFR ended: <*> messages, <*> records, <*> bytes, <*> secs (<*> bytes/sec) (serial <*>)",
  CL + "zone transfer '<*>' denied",
  "connection refused resolving '<*>': <*>",
  "received control channel command '<*>'",
  "freezing zone '<*>': success", "thawing zone '<*>': success",
  "zone <*>: loaded serial <*>", "managed-keys-zone: loaded serial <*>",
  "zone <*>: zone serial (<*>) unchanged. zone may fail to transfer to secondaries.",
  "zone <*>: loading from master file <*> failed: bad dotted quad",
  "zone <*>: not loaded due to errors.",
  "dns_rdata_fromtext: <*>:<*>: near '<*>': bad dotted quad",
  "zone <*>: refresh: failure trying primary <*> (source <*>): connection refused",
  "all zones loaded", "running", "exiting", "shutting down: flushing changes",
  "stopping command channel on <*>", "no longer listening on <*>",
  "loading configuration from '<*>'", "the working directory is now '<*>'",
  "reading built-in trust anchors from file '<*>'", "looking for GeoIP2 databases in '<*>'",
  "using default UDP/IPv4 port range: [<*>, <*>]", "using default UDP/IPv6 port range: [<*>, <*>]", "sizing zone task pool based on <*> zones",
  "<*>:<*>: 'max-cache-size <*>%' - setting to <*>MB (out of <*>MB)",
  "reloading configuration succeeded", "reloading zones succeeded",
  "scheduled loading new zones", "any newly configured zones are now loaded",
  "flushing caches in all views succeeded",
  "query logging is now on", "query logging is now off",
], [])

# HAProxy 2.6: "log stdout format rfc5424"; request lines in the three
# frontends' log-formats (httplog, a custom log-format, tcplog).
HC = "Health check for server <*>/<*> "
SV = "Server <*>/<*> "
LEFT = "<*> active and <*> backup servers left. <*> sessions active, <*> requeued, <*> remaining in queue."
ONLINE = "<*> active and <*> backup servers online. <*> sessions requeued, <*> total in queue."
SYSTEMS["haproxy"] = (r"^(?P<h><\d+>1 \S+ \S+ haproxy \d+ - - )(?P<m>.*)$", [
  '<*>:<*> [<*>] <*> <*>/<*> <*>/<*>/<*>/<*>/<*> <*> <*> <*> <*> <*> <*>/<*>/<*>/<*>/<*> <*>/<*> "<*>"',
  '<*>:<*> [<*>] <*> <*>/<*> <*>/<*>/<*>/<*>/<*> <*> <*> <*> <*>/<*>/<*>/<*>/<*> "<*>"',
  "<*>:<*> [<*>] <*> <*>/<*> <*>/<*>/<*> <*> <*> <*>/<*>/<*>/<*>/<*> <*>/<*>",
] + [HC + "failed, reason: Layer4 connection problem, info: \"Connection refused\", check duration: <*>ms, status: <*>/<*> " + s for s in ("UP.", "DOWN.")]
  + [HC + "succeeded, reason: Layer7 check passed, code: <*>, check duration: <*>ms, status: <*>/<*> " + s for s in ("UP.", "DOWN.")]
  + [HC + "succeeded, reason: Layer4 check passed, check duration: <*>ms, status: <*>/<*> " + s for s in ("UP.", "DOWN.")] + [
  HC + "failed, reason: Layer7 timeout, check duration: <*>ms, status: <*>/<*> DOWN.",
  SV + "is DOWN. " + LEFT, SV + "is UP. " + ONLINE, SV + "is going DOWN for maintenance. " + LEFT,
  SV + "enters drain state. " + ONLINE, SV + "enters drain state. " + LEFT,
  SV + "remains in forced drain mode.", SV + "is UP (leaving forced drain).", SV + "is DOWN (leaving forced drain).",
  SV + "is UP/READY (leaving forced maintenance).", SV + "is UP/DRAIN (leaving forced maintenance).",
  SV + "was DOWN and now enters maintenance.", "backend <*> has no server available!",
  "Proxy <*> stopped (cumulated conns: FE: <*>, BE: <*>).",
], [])

# MariaDB 10.11 error log (log_error, log_warnings=4); the server prints its
# "Version:" banner and Aria's recovery progress to stderr without a header.
AB = "Aborted connection <*> to db: '<*>' user: '<*>' host: '<*>' ("
SYSTEMS["mariadb"] = (r"^(?P<h>\d{4}-\d\d-\d\d [ \d]\d:\d\d:\d\d \d+ \[(?:Note|Warning|ERROR)\] )(?P<m>.*)$", [
  "Access denied for user '<*>'@'<*>' to database '<*>'",
  "Access denied for user '<*>'@'<*>' (using password: YES)", "Access denied for user '<*>'@'<*>' (using password: NO)",
  "Could not write packet: fd: <*>  state: <*>  errno: <*>  vio_errno: <*>  length: <*>",
  "Could not read packet: fd: <*>  state: <*>  read_length: <*>  errno: <*>  vio_errno: <*>  length: <*>",
  "<*>: Got an error writing communication packets", "<*>: Got an error reading communication packets",
  "<*>: Got packets out of order", "<*>: Connection was killed", "<*>: unknown variable '<*>'", "Aborting",
] + [AB + r + ")" for r in ("Got timeout reading communication packets", "Got an error writing communication packets",
  "Got an error reading communication packets", "KILLED", "This connection closed normally without authentication")] + [
  "Event Scheduler: Last execution of <*>. Dropping.", "Event Scheduler: Dropping <*>",
  "Event Scheduler: [<*>][<*>] At line <*> in <*>", "Event Scheduler: [<*>][<*>] Table '<*>' doesn't exist",
  "Event Scheduler: scheduler thread started with id <*>", "Event Scheduler: Waiting for the scheduler thread to reply",
  "Event Scheduler: Stopped", "Event Scheduler: Killing the scheduler thread, thread id <*>",
  "Error code <*> of query '<*>' is cleared at its binary logging.",
  "Unsafe statement written to the binary log using statement format since BINLOG_FORMAT = STATEMENT. The statement is unsafe because it uses a LIMIT clause. This is unsafe because the set of rows included cannot be predicted. Statement: <*>",
  "Suppressing warnings of type '<*>' for up to <*> seconds because of flooding",
  "'<*>' entry '<*>' ignored in --skip-name-resolve mode.",
  "Starting MariaDB <*> source revision <*> server_uid <*> as process <*>",
  "Could not increase number of max_open_files to more than <*> (request: <*>)",
  "Plugin '<*>' is disabled.", "Using PAUSE multiplier <*>", "Server socket created on IP: '<*>', port: '<*>'.",
  "Reading of all Master_info entries succeeded", "Added new Master_info '<*>' to hash table",
  "<*>: ready for connections.", "<*> (initiated by: <*>): Normal shutdown", "<*>: Shutdown complete",
  "Shutdown completed; log sequence number <*>; transaction id <*>",
  "<*>: Aria engine: starting recovery", "<*>: Aria engine: recovery done",
  "Starting table crash recovery...", "Crash table recovery finished.", "Recovering after a crash using <*>",
  "InnoDB: Compressed tables use zlib <*>", "InnoDB: Number of transaction pools: <*>",
  "InnoDB: Using AVX512 instructions", "InnoDB: Using io_uring",
  "InnoDB: innodb_buffer_pool_size_max=<*>m, innodb_buffer_pool_size=<*>m",
  "InnoDB: Completed initialization of buffer pool",
  "InnoDB: File system buffers for log disabled (block size=<*> bytes)", "InnoDB: End of log at LSN=<*>",
  "InnoDB: Resizing redo log from <*> to <*>; LSN=<*>",
  "InnoDB: <*> rollback segments are active.",
  "InnoDB: Setting file '<*>' size to <*>. Physically writing the file full; Please wait ...",
  "InnoDB: File '<*>' size is now <*>.", "InnoDB: log sequence number <*>; transaction id <*>",
  "InnoDB: Loading buffer pool(s) from <*>", "InnoDB: Buffer pool(s) load completed at <*>",
  "InnoDB: Starting shutdown...", "InnoDB: FTS optimize thread exiting.",
  "InnoDB: Dumping buffer pool(s) to <*>", "InnoDB: Buffer pool(s) dump completed at <*>",
  'InnoDB: Removed temporary tablespace data file: "<*>"',
  "InnoDB: Starting crash recovery from checkpoint LSN=<*>", "InnoDB: To recover: <*> pages",
  "InnoDB: Last binlog file '<*>', position <*>",
], ["Version: '<*>'  socket: '<*>'  port: <*>  Debian 12",
    "recovered pages: <*> (<*> seconds); tables to flush: <*>", " (<*> seconds); "])

# Exim 4.96 mainlog, log_selector +pid (and smtp_connection, smtp_no_mail,
# smtp_protocol_error, smtp_syntax_error, received_recipients, delivery_size,
# queue_time); log_write puts the message id after the pid.
H = "H=<*> [<*>] "
SYSTEMS["exim"] = (r"^(?P<h>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[\d+\] (?:[0-9A-Za-z]{6}-[0-9A-Za-z]{6}-[0-9A-Za-z]{2} )?)(?P<m>.*)$", [
  "<= <*> " + H + "P=esmtp S=<*> id=<*> for <*>", "<= <*> U=<*> P=local S=<*> for <*>",
  "<= <> R=<*> U=<*> P=local S=<*> for <*>",
  "=> <*> R=<*> T=<*> S=<*> QT=<*>", "Completed", "removed by <*>",
  "== <*> R=<*> T=<*> defer (<*>): Connection refused",
  "== <*> R=<*> T=<*> defer (<*>): retry time not reached for any host for '<*>'",
  "== <*> R=<*> T=<*> defer (<*>): Retry time not yet reached",
  "== <*> R=<*> T=<*> defer (<*>): mailbox <*> has too many links (<*>)",
  "** <*> R=<*> T=<*>: Child process of <*> transport returned <*> from command: <*>",
  "H=<*> [<*>] Connection refused",
  "Start queue run: pid=<*>", "End queue run: pid=<*>",
  "exim <*> daemon started: pid=<*>, -q<*>, listening for SMTP on <*>",
  H + "F=<<*>> rejected RCPT <<*>>: unknown user", H + "F=<<*>> rejected RCPT <<*>>: relay not permitted",
  H + "rejected MAIL <<*>>: sender domain <*> is blocked",
  H + "F=<<*>> rejected after DATA: message contains a forbidden signature",
  H + "Warning: large message <*> bytes",
  "SMTP connection from <*> (TCP/IP connection count = <*>)", "SMTP connection from <*> closed by QUIT",
  "SMTP connection from <*> lost while reading message data (header)",
  "SMTP command timeout on connection from <*>", "no MAIL in SMTP connection from <*> D=<*> C=<*>",
  'SMTP protocol error in "<*>" H=<*> sender not yet given',
  'SMTP syntax error in "<*>" H=<*> unrecognized command',
  'SMTP syntax error in "<*>" H=<*> missing or malformed local part (expected word or "<")',
  "rejected EHLO from <*>: syntactically invalid argument(s): (no argument given)",
  "rejected HELO from <*>: syntactically invalid argument(s): (no argument given)",
  "unqualified verify rejected: <<*>> H=<*>",
], [])

def main():
    system, raw, out = sys.argv[1], sys.argv[2], sys.argv[3]
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    header, templates, bare = SYSTEMS[system]
    hre = re.compile(header, re.S)
    def order(ts):
        return sorted(((rx(t), t) for t in ts), key=lambda p: -len(p[1].replace("<*>", "")))
    compiled, barec = order(templates), order(bare)
    lines = open(raw, encoding="utf-8", errors="replace").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = lines[:limit]
    rows, ids = [], {}
    for i, line in enumerate(lines, 1):
        h = hre.match(line)
        msg, cands = (h.group("m"), compiled) if h else (line, barec)
        t = next((t for r, t in cands if r.match(msg)), None)
        if t is None:
            sys.exit(f"line {i}: no {'template' if h else 'header'}: {line!r}")
        ids.setdefault(t, "E%d" % (len(ids) + 1))
        rows.append((i, msg, ids[t], t))
    d = os.path.join(out, system)
    os.makedirs(d, exist_ok=True)
    with gzip.GzipFile(os.path.join(d, system + ".log.gz"), "wb", mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode())
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["LineId", "Content", "EventId", "EventTemplate"])
    w.writerows(rows)
    with gzip.GzipFile(os.path.join(d, system + "_structured.csv.gz"), "wb", mtime=0) as f:
        f.write(buf.getvalue().encode())
    print(system, len(rows), "lines", len(ids), "events")

main()

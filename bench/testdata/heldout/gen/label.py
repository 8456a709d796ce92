#!/usr/bin/env python3
"""Label held-out logs with ground-truth templates written from the programs'
format strings, and write them in loghub format (X.log, X_structured.csv).

usage: label.py SYSTEM RAW.log OUTDIR [MAXLINES]
Every line must match exactly one header and one template; an unmatched line
is printed and the script fails, so no line is labelled by guess."""
import csv, re, sys, os

def rx(t):
    parts = t.split("<*>")
    return re.compile("^" + "(.*?)".join(re.escape(p) for p in parts) + "$", re.S)

SYSLOG = r"^(?P<h>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [\w./-]+\[\d+\]: )(?P<m>.*)$"
ISOSYSLOG = r"^(?P<h>\d{4}-\d\d-\d\dT[\d:.]+[+-]\d\d:\d\d \S+ [\w./-]+\[\d+\]: )(?P<m>.*)$"
SYSTEMS = {
 "sshd": (SYSLOG, [
  "Server listening on <*> port <*>.",
  'Connection from <*> port <*> on <*> port <*> rdomain ""',
  "Accepted key <*> <*> found at <*>:<*>",
  "Postponed publickey for <*> from <*> port <*> ssh2 [preauth]",
  "Starting session: command for <*> from <*> port <*> id <*>",
  "Received disconnect from <*> port <*>:<*>: disconnected by user",
  "Disconnected from user <*> <*> port <*>",
  "Accepted publickey for <*> from <*> port <*> ssh2: <*> <*>",
  "Connection closed by <*> port <*> [preauth]",
  "Failed publickey for <*> from <*> port <*> ssh2: <*> <*>",
  "Connection closed by authenticating user <*> <*> port <*> [preauth]",
  'kex_exchange_identification: client sent invalid protocol identifier "<*>"',
  "banner exchange: Connection from <*> port <*>: invalid format",
  "Invalid user <*> from <*> port <*>",
  "Connection closed by invalid user <*> <*> port <*> [preauth]",
  "Close session: user <*> from <*> port <*> id <*>",
  "Failed none for invalid user <*> from <*> port <*> ssh2",
  "Failed none for <*> from <*> port <*> ssh2",
  "Connection reset by <*> port <*> [preauth]",
  "Connection reset by invalid user <*> <*> port <*> [preauth]",
  "Connection reset by authenticating user <*> <*> port <*> [preauth]",
  "Received signal <*>; terminating.",
  "Received disconnect from <*> port <*>:<*>: Bye Bye [preauth]",
  "Disconnected from invalid user <*> <*> port <*> [preauth]",
  "Disconnected from authenticating user <*> <*> port <*> [preauth]",
  "kex_exchange_identification: Connection closed by remote host",
  "Connection closed by <*> port <*>",
  "exited MaxStartups throttling after <*>, <*> connections dropped",
 ]),
}

SYSTEMS["sshd"][1].extend([
  "(to <*>) <*> on <*>",
  "pam_limits(su:session): Could not set limit for '<*>' to soft=<*>, hard=<*>: Operation not permitted; uid=<*>,euid=<*>",
  "pam_unix(su:session): session opened for user <*>(uid=<*>) by <*>(uid=<*>)",
  "pam_systemd(su:session): Failed to connect to system bus: No such file or directory",
  "pam_unix(su:session): session closed for user <*>",
  'error: kex_exchange_identification: client sent invalid protocol identifier "<*>"',
])
SYSTEMS["dnsmasq"] = (ISOSYSLOG, [
  "query[A] <*> from <*>", "query[AAAA] <*> from <*>", "query[MX] <*> from <*>", "query[TXT] <*> from <*>", "query[PTR] <*> from <*>",
  "forwarded <*> to <*>", "config <*> is <*>", "config <*> is NODATA", "config <*> is NODATA-IPv6", "config <*> is NXDOMAIN",
  "reply <*> is <*>", "reply <*> is NXDOMAIN", "reply <*> is NODATA", "reply <*> is NODATA-IPv6", "cached <*> is <*>", "cached <*> is NXDOMAIN",
  "cached <*> is NODATA", "cached <*> is NODATA-IPv6", "<*> <*> is <*>",
  "read <*> - <*> names", "started, version <*> cachesize <*>", "compile time options: <*>", "using nameserver <*>",
  "using only locally-known addresses for <*>", "exiting on receipt of SIGTERM", "cleared cache", "query[<*>] <*> from <*>",
])
SYSTEMS["nginx"] = (r"^(?P<h>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[\w+\] \d+#\d+: )(?P<m>.*)$", [
  'using the "<*>" event method', "nginx/<*>", "OS: <*>", "getrlimit(RLIMIT_NOFILE): <*>:<*>",
  "start worker processes", "start worker process <*>", "*<*> client <*> closed keepalive connection",
  '*<*> open() "<*>" failed (2: No such file or directory), client: <*>, server: <*>, request: "<*>", host: "<*>"',
  '*<*> open() "<*>" failed (13: Permission denied), client: <*>, server: <*>, request: "<*>", host: "<*>"',
  '*<*> connect() failed (111: Connection refused) while connecting to upstream, client: <*>, server: <*>, request: "<*>", upstream: "<*>", host: "<*>"',
  '*<*> "<*>" is not found (2: No such file or directory), client: <*>, server: <*>, request: "<*>", host: "<*>"',
  '*<*> "<*>" is forbidden (13: Permission denied), client: <*>, server: <*>, request: "<*>", host: "<*>"',
  '*<*> directory index of "<*>" is forbidden, client: <*>, server: <*>, request: "<*>", host: "<*>"',
  '*<*> access forbidden by rule, client: <*>, server: <*>, request: "<*>", host: "<*>"',
  "signal <*> (SIGQUIT) received from <*>, shutting down", "signal <*> (SIGCHLD) received from <*>", "gracefully shutting down",
  "exiting", "exit", "worker process <*> exited with code <*>", "signal <*> (SIGIO) received", "gracefully shutting down", 
])
PGPREFIX = r"^(?P<h>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \w+ \[\d+\]: \[\d+-1\] user=[^,]*,db=[^,]*,app=[^,]*,client=\S* )(?P<m>.*)$"
SYSTEMS["postgres"] = (PGPREFIX, [
  "LOG:  connection received: host=<*> port=<*>", "LOG:  connection authorized: user=<*> database=<*> application_name=<*>",
  "LOG:  disconnection: session time: <*> user=<*> database=<*> host=<*> port=<*>",
  'ERROR:  relation "<*>" does not exist at character <*>', "ERROR:  division by zero",
  'ERROR:  syntax error at or near "<*>" at character <*>', 'FATAL:  database "<*>" does not exist',
  'ERROR:  duplicate key value violates unique constraint "<*>"', "DETAIL:  Key (<*>)=(<*>) already exists.",
  "STATEMENT:  <*>", "ERROR:  permission denied for table <*>",
  "LOG:  checkpoint starting: immediate force wait", "LOG:  checkpoint starting: time", "LOG:  checkpoint starting: shutdown immediate",
  "LOG:  checkpoint complete: wrote <*> buffers (<*>%); <*> WAL file(s) added, <*> removed, <*> recycled; write=<*> s, sync=<*> s, total=<*> s; sync files=<*>, longest=<*> s, average=<*> s; distance=<*> kB, estimate=<*> kB",
  'LOG:  automatic vacuum of table "<*>": index scans: <*>', 'LOG:  automatic analyze of table "<*>"',
  "pages: <*> removed, <*> remain, <*> scanned (<*>% of total)",
  "tuples: <*> removed, <*> remain, <*> are dead but not yet removable",
  "removable cutoff: <*>, which was <*> XIDs old when operation ended",
  "new relfrozenxid: <*>, which is <*> XIDs ahead of previous value",
  "frozen: <*> pages from table (<*>% of total) had <*> tuples frozen",
  "index scan not needed: <*> pages from table (<*>% of total) had <*> dead item identifiers removed",
  "index scan bypassed: <*> pages from table (<*>% of total) have <*> dead item identifiers",
  "index scan needed: <*> pages from table (<*>% of total) had <*> dead item identifiers removed",
  'index "<*>": pages: <*> in total, <*> newly deleted, <*> currently deleted, <*> reusable',
  "I/O timings: read: <*> ms, write: <*> ms", "avg read rate: <*> MB/s, avg write rate: <*> MB/s",
  "buffer usage: <*> hits, <*> misses, <*> dirtied", "WAL usage: <*> records, <*> full page images, <*> bytes",
  "system usage: CPU: user: <*> s, system: <*> s, elapsed: <*> s",
  'LOG:  temporary file: path "<*>", size <*>',
  "LOG:  starting PostgreSQL <*> on <*>, compiled by <*>, <*>", 'LOG:  listening on IPv4 address "<*>", port <*>',
  'LOG:  listening on Unix socket "<*>"', "LOG:  database system was shut down at <*>",
  "LOG:  database system is ready to accept connections", "LOG:  received fast shutdown request",
  "LOG:  aborting any active transactions", 'LOG:  background worker "logical replication launcher" (PID <*>) exited with exit code <*>',
  "LOG:  shutting down", "LOG:  database system is shut down",
])
SYSTEMS["jvm"] = (r"^(?P<h>\[[\d\-T:.+]+\]\[\d+ms\]\[\d+\]\[\w+\]\[[\w,]+ *\] )(?P<m>.*)$", [
  "<*> source: shared objects file", "<*> source: <*>",
  "GC(<*>) Pause Full (System.gc()) <*>-><*>(<*>) <*>", "GC(<*>) Pause Young (Normal) (G1 Evacuation Pause) <*>-><*>(<*>) <*>",
  "GC(<*>) Pause Full (System.gc())", "GC(<*>) Pause Young (Normal) (G1 Evacuation Pause)",
  "GC(<*>) User=<*>s Sys=<*>s Real=<*>s", "GC(<*>) Archive regions: <*>-><*>", "GC(<*>) Eden regions: <*>-><*>(<*>)",
  "GC(<*>) Humongous regions: <*>-><*>", "GC(<*>) Old regions: <*>-><*>", "GC(<*>) Survivor regions: <*>-><*>(<*>)",
  "Heap", "Metaspace used <*>, committed <*>, reserved <*>", "class space used <*>, committed <*>, reserved <*>",
  "garbage-first heap total <*>, used <*> [<*>, <*>)", "region size <*>, <*> young (<*>), <*> survivors (<*>)",
  "CPUs: <*> total, <*> available", "Compressed Oops: Enabled (<*>)", "Concurrent Refinement Workers: <*>", "Concurrent Workers: <*>",
  "Heap Initial Capacity: <*>", "Heap Max Capacity: <*>", "Heap Min Capacity: <*>", "Heap Region Size: <*>",
  "Large Page Support: Disabled", "Memory: <*>", "NUMA Support: Disabled", "Parallel Workers: <*>", "Periodic GC: Disabled",
  "Pre-touch: Disabled", "Version: <*> (release)",
  "GC(<*>) Metaspace: <*>(<*>)-><*>(<*>) NonClass: <*>(<*>)-><*>(<*>) Class: <*>(<*>)-><*>(<*>)",
  "CDS archive(s) mapped at: [<*>), size <*>, SharedBaseAddress: <*>, ArchiveRelocationMode: <*>.",
  "Compressed class space mapped at: <*>, reserved size: <*>", "Narrow klass base: <*>, Narrow klass shift: <*>, Narrow klass range: <*>",
  "GC(<*>) MMU target violated: <*> (<*>)", "GC(<*>)   Evacuate Collection Set: <*>", "GC(<*>)   Merge Heap Roots: <*>",
  "GC(<*>)   Other: <*>", "GC(<*>)   Post Evacuate Collection Set: <*>", "GC(<*>)   Pre Evacuate Collection Set: <*>",
  "GC(<*>) Phase 1: Mark live objects <*>", "GC(<*>) Phase 2: Prepare for compaction <*>", "GC(<*>) Phase 3: Adjust pointers <*>", "GC(<*>) Phase 4: Compact heap <*>",
  "GC(<*>) Phase 1: Mark live objects", "GC(<*>) Phase 2: Prepare for compaction", "GC(<*>) Phase 3: Adjust pointers", "GC(<*>) Phase 4: Compact heap",
  "GC(<*>) Using <*> workers of <*> for evacuation", "GC(<*>) Using <*> workers of <*> for full compaction", "Using G1",
  'Safepoint "Cleanup", Time since last: <*> ns, Reaching safepoint: <*> ns, Cleanup: <*> ns, At safepoint: <*> ns, Total: <*> ns',
  'Safepoint "G1CollectForAllocation", Time since last: <*> ns, Reaching safepoint: <*> ns, Cleanup: <*> ns, At safepoint: <*> ns, Total: <*> ns',
  'Safepoint "G1CollectFull", Time since last: <*> ns, Reaching safepoint: <*> ns, Cleanup: <*> ns, At safepoint: <*> ns, Total: <*> ns',
])

SYSTEMS["mosquitto"] = (r"^(?P<h>\d+: )(?P<m>.*)$", [
  "mosquitto version <*> starting", "Config loaded from <*>.", "Opening ipv4 listen socket on port <*>.",
  "mosquitto version <*> running", "New connection from <*> on port <*>.",
  "New client connected from <*> as <*> (p<*>, c<*>, k<*>).", "No will message specified.",
  "Sending CONNACK to <*> (<*>, <*>)", "Received DISCONNECT from <*>", "Client <*> disconnected.",
  "Sending PUBACK to <*> (m<*>, rc<*>)", "Sending PUBREC to <*> (m<*>, rc<*>)", "Sending PUBCOMP to <*> (m<*>)",
  "Received PUBREL from <*> (Mid: <*>)", "Sending SUBACK to <*>", "Received SUBSCRIBE from <*>",
  "Received PUBLISH from <*> (d<*>, q<*>, r<*>, m<*>, '<*>', ... (<*> bytes))",
  "Sending PUBLISH to <*> (d<*>, q<*>, r<*>, m<*>, '<*>', ... (<*> bytes))",
  "<*> (QoS <*>)", "<*> <*> <*>", "Client <*> closed its connection.", "Received PINGREQ from <*>", "Sending PINGRESP to <*>",
  "mosquitto version <*> terminating", "Saving in-memory database to <*>.", "Received UNSUBSCRIBE from <*>", "Sending UNSUBACK to <*>",
  "Client <*> has exceeded timeout, disconnecting.", "Received PUBACK from <*> (Mid: <*>, RC:<*>)", "Received PUBREC from <*> (Mid: <*>)",
  "Sending PUBREL to <*> (m<*>)", "Received PUBCOMP from <*> (Mid: <*>, RC:<*>)", "Client <*> disconnected due to protocol error.",
  "Client <*> closed its connection.", "Socket error on client <*>, disconnecting.",
])
SYSTEMS["redis"] = (r"^(?P<h>\d+:[CMSX] \d\d \w{3} \d{4} [\d:.]+ [.\-*#] )(?P<m>.*)$", [
  "oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo",
  "Redis version=<*>, bits=<*>, commit=<*>, modified=<*>, pid=<*>, just started", "Configuration loaded",
  "monotonic clock: POSIX clock_gettime", "Running mode=<*>, port=<*>.", "Server initialized",
  "WARNING Memory overcommit must be enabled! <*>", "Ready to accept connections", "Ready to accept connections tcp",
  "Accepted <*>", "Client closed connection", "Client closed connection id=<*> addr=<*> laddr=<*> fd=<*> name=<*> age=<*> idle=<*> flags=<*> db=<*> sub=<*> psub=<*> ssub=<*> multi=<*> qbuf=<*> qbuf-free=<*> argv-mem=<*> multi-mem=<*> rbs=<*> rbp=<*> obl=<*> oll=<*> omem=<*> tot-mem=<*> events=<*> cmd=<*> user=<*> redir=<*> resp=<*>",
  "<*> changes in <*> seconds. Saving...", "Background saving started by pid <*>", "DB saved on disk",
  "Fork CoW for RDB: current <*> MB, peak <*> MB, average <*> MB", "Background saving terminated with success",
  "DB <*>: <*> keys (<*> volatile) in <*> slots HT.", "<*> clients connected (<*> replicas), <*> bytes in use",
  "RDB: <*> MB of memory used by copy-on-write", "Saving the final RDB snapshot before exiting.",
  "User requested shutdown...", "Redis is now ready to exit, bye bye...", "DB loaded from disk: <*> seconds",
  "Loading RDB produced by version <*>", "RDB age <*> seconds", "RDB memory usage when created <*> Mb",
  "Done loading RDB, keys loaded: <*>, keys expired: <*>.", "Removing the pid file.", "Background saving started",
  "Background saving error", "Ready to accept connections unix", "Server started, Redis version <*>",
  "Saving DB in background", "Starting BGSAVE for SYNC with target: disk",
])

SYSTEMS["memcached"] = (None, [
  "<*>: Client using the ascii protocol", "<<*> quit", "<<*> new auto-negotiating client connection", "<<*> connection closed.",
  "><*> STORED", "><*> NOT_FOUND", "><*> ERROR", "><*> NOT_STORED", "><*> END", "><*> DELETED", "><*> sending key <*>",
  "<<*> incr <*> <*>", "<<*> set <*> <*> <*> <*>", "<<*> add <*> <*> <*> <*>", "<<*> delete <*>", "<<*> get <*>", "<<*> bogus <*>",
  "slab class <*>: chunk size <*> perslab <*>", "><*> <*>", "<<*> server listening (auto-negotiate)", "Exiting normally",
])

def main():
    system, raw, out = sys.argv[1], sys.argv[2], sys.argv[3]
    maxl = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    head, tmpls = SYSTEMS[system]
    head = re.compile(head, re.S) if head else None
    norm = (lambda m: re.sub(r" +", " ", m)) if system == "memcached" else (lambda m: m)
    pats = [(t, rx(t)) for t in tmpls]
    lines = open(raw, encoding="utf-8", errors="replace").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = lines[:maxl]
    rows, bad = [], 0
    for n, l in enumerate(lines, 1):
        msg = l
        if head:
            m = head.match(l)
            if m:
                msg = m.group("m")
                if system == "mosquitto":
                    msg = msg.lstrip("\t")
            elif l.startswith("\t"):
                msg = l[1:]
            else:
                print("NO HEADER", n, l); bad += 1; continue
        hits = [t for t, p in pats if p.match(norm(msg))]
        if not hits:
            print("UNMATCHED", n, msg); bad += 1; continue
        # The most specific template wins: the one with the most constant text.
        hits.sort(key=lambda t: (-len(t.replace("<*>", "")), t))
        rows.append((n, msg, hits[0]))
    if bad:
        sys.exit("%d lines unlabelled" % bad)
    d = os.path.join(out, system)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, system + ".log"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(d, system + "_structured.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["LineId", "Content", "EventTemplate"])
        for r in rows:
            w.writerow(r)
    print(system, len(rows), "lines", len({r[2] for r in rows}), "templates")

main()

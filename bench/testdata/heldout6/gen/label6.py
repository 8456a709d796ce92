#!/usr/bin/env python3
"""Label the heldout6 logs with ground-truth templates written from the
programs' format strings (unbound's log_info/log_err/verbose calls and its
log_query_in/log_reply_info/log_nametypeclass helpers, lighttpd's
log_error/log_perror calls, ProFTPD's pr_log_pri/pr_log_debug calls,
Dovecot's i_info/i_warning/i_error calls and its login/auth/mail log
formats), in loghub format (X.log.gz, X_structured.csv.gz with LineId,
Content, EventId, EventTemplate).

usage: label6.py SYSTEM RAW.log OUTDIR
Every line must match the header and a template; an unmatched line is printed
and the script fails, so no line is labelled by guess. Where several
templates match, the one with the most constant text wins."""
import csv, gzip, io, re, sys, os

def rx(t):
    parts = t.split("<*>")
    return re.compile("^" + "(.*?)".join(re.escape(p) for p in parts) + "$", re.S)

SYSTEMS = {}  # name -> (header regex, templates)
# A template may be (tag, template): such templates are the only ones tried
# on lines whose header's level slot (group "tag") is that tag; unbound's
# log-tag-queryreply puts "query"/"reply" there for its query and reply lines.

# unbound 1.17.1, logfile with log-time-ascii: no (epoch seconds), and
# log-tag-queryreply: yes (query and reply lines say "query:"/"reply:" where
# other lines say their level). log.c writes "[%lld] %s[%d:%x] %s: ".
SF = "SERVFAIL <<*> <*> <*>>: "
SYSTEMS["unbound"] = (r"^(?P<h>\[\d+\] unbound\[\d+:[0-9a-f]+\] (?P<tag>info|notice|error|warning|fatal error|query|reply): )(?P<m>.*)$", [
  ("query", "<*> <*> <*> <*>"),                       # log_query_in (log-queries)
] + [("reply", "<*> <*> <*> <*> %s <*>.<*> <*> <*>" % rc)  # log_reply_info (log-replies), one per rcode
       for rc in ("NOERROR", "NXDOMAIN", "SERVFAIL", "REFUSED")] + [
  "<*> %s <*>@<*> <*> <*> <*>" % lz                  # lz_inform_print via log_nametypeclass, one per zone type
  for lz in ("static", "always_nxdomain", "refuse", "redirect", "transparent", "deny", "inform")] + [
  SF + "all the configured stub or forward servers failed, at zone <*> upstream server timeout",
  SF + "all the configured stub or forward servers failed, at zone <*> no server to query nameserver addresses not usable have no nameserver names",
  SF + "cannot forward RD=0 query",
  "parse error <*> <*>:<*>: Conversion error, ip4 addr expected",
  "error parsing zonefile <*> for <*>",
  "init module <*>: <*>",
  # PACKAGE_STRING is a compile-time literal argument, so it is event text.
  "start of service (unbound 1.17.1).", "service stopped (unbound 1.17.1).", "Restart of unbound 1.17.1.",
  "server stats for thread <*>: <*> queries, <*> answers from cache, <*> recursions, <*> prefetch, <*> rejected by ip ratelimiting",
  "server stats for thread <*>: requestlist max <*> avg <*> exceeded <*> jostled <*>",
  "average recursion processing time <*>.<*> sec", "histogram of recursion processing times",
  "[25%]=<*> median[50%]=<*> [75%]=<*>", "lower(secs) upper(secs) <*>",
  "<*>.<*> <*>.<*> <*>",                              # timehist_log bucket, "%4d.%6.6d %4d.%6.6d %u"
])

# lighttpd 1.4.69 server.errorlog: log.c writes "%Y-%m-%d %H:%M:%S: (%s.%d) "
# with the source file and line of the call.
SYSTEMS["lighttpd"] = (r"^(?P<h>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d: \([a-z0-9_-]+\.c\.\d+\) )(?P<m>.*)$", [
  "-- : No such file or directory",                   # log_perror(errh, "-- ") in http_response_physical_path_error
  "Path         : <*>", "URI          : <*>",
  "rqst: <*>",                                        # log_error_multiline(..., "rqst: ") one line per header line
  "establishing connection failed: socket: <*>",
  "gw-server re-enabled: <*> <*> <*> <*>",
  "all handlers for <*>?<*> on <*> are down.",
  "request-size too long: <*> -> 413",
  "oversized request-header -> sending Status 431",
  "logfiles cycled UID = <*> PID = <*>", "server stopped by UID = <*> PID = <*>",
  "server started (lighttpd/1.4.69)", "[note] graceful shutdown started",
  "password doesn't match for <*> username: <*> IP: <*>",
  "HTTP/1.1 but Host missing -> 400", "invalid Transfer-Encoding + Content-Length -> 400",
  "duplicate Host header -> 400", "invalid header missing ':' -> 400", "invalid Content-Length header -> 400",
  "unknown HTTP version -> 505", "request-URI parse error -> 400", "invalid request line (too short) -> 400",
])

# ProFTPD 1.3.8 SystemLog: log.c writes "%Y-%m-%d %H:%M:%S,%03u HOST
# proftpd[PID] SERVER: " for the master and "... SERVER (CLIENT[IP]): " in a
# session.
SYSTEMS["proftpd"] = (r"^(?P<h>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \S+ proftpd\[\d+\] \S+(?: \([^()\s]*\[[^\]]*\]\))?: )(?P<m>.*)$", [
  "<*> session opened.", "<*> session closed.",
  "mod_cap/1.1: capabilities '<*>'",                 # MOD_CAP_VERSION ": capabilities '%s'"
  "Environment successfully chroot()ed", "Preparing to chroot to directory '<*>'",
  "USER <*>: Login successful.",                     # "%s %s: Login successful.", ANON or USER
  "Entering Passive Mode (<*>,<*>,<*>).",
  "USER <*>: no such user found from <*> [<*>] to <*>:<*>",
  "USER <*> (Login failed): Incorrect password",
  "Transfer completed: <*> bytes in <*>.<*> seconds", # "Transfer %s ...", "completed:" or "aborted after"
  "Maximum login attempts (<*>) exceeded, connection refused",
  "Client session idle timeout, disconnected", "Connection refused (MaxClientsPerUser <*>)",
  "received SIGHUP -- master server reparsing configuration file", "forked daemon process (PID <*>)",
  "ProFTPD <*> (built <*>) standalone mode STARTUP", "ProFTPD killed (signal <*>)",
  "ProFTPD 1.3.8 standalone mode SHUTDOWN",          # PROFTPD_VERSION_TEXT is a literal
])
# Dovecot 2.3.19.1 log_path file, log_timestamp = "%b %d %H:%M:%S ": the
# timestamp, the process's log prefix (a service name, and for mail
# processes mail_log_prefix "%s(%u)<%{pid}><%{session}>: ") and the level.
# Login processes log "%$: %s" (login_log_format) with the elements
# "user=<%u> method=%m rip=%r lip=%l mpid=%e %c session=<%{session}>" joined
# by ", " (empty ones left out); a disconnect's reason is an iostream error
# or a fixed reason plus client_get_extra_disconnect_reason's phrase.
EL = ": user=<<*>>, rip=<*>, lip=<*>, secured, session=<<*>>"
ELM = ": user=<<*>>, method=<*>, rip=<*>, lip=<*>, secured, session=<<*>>"
NOAUTH, FAILED = "(no auth attempts in <*> secs)", "(auth failed, <*> attempts in <*> secs)"
SASL, NOTREADY = "(client didn't finish SASL auth, waited <*> secs)", "(disconnected before auth was ready, waited <*> secs)"
RESET, READ = "Connection closed: Connection reset by peer", "Connection closed: read(size=<*>) failed: Connection reset by peer"
IMAPST = " in=<*> out=<*> deleted=<*> expunged=<*> trashed=<*> hdr_count=<*> hdr_bytes=<*> body_count=<*> body_bytes=<*>"
SYSTEMS["dovecot"] = (r"^(?P<h>[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d [a-z0-9-]+(?:\([^)]*\))?(?:<\d+><[^>]*>)?: (?:Info|Warning|Error|Fatal): )(?P<m>.*)$", [
  "Login: user=<<*>>, method=<*>, rip=<*>, lip=<*>, mpid=<*>, secured, session=<<*>>",
  "Disconnected: Maximum number of connections from user+IP exceeded (mail_max_userip_connections=<*>)" + ELM,
] + ["Disconnected: %s %s%s" % (r, x, ELM) for r in (RESET, READ, "Connection closed", "Aborted login by logging out") for x in (FAILED, SASL)] + [
  "Disconnected: %s %s%s" % (r, x, EL) for r in (RESET, READ, "Connection closed", "Aborted login by logging out", "Input buffer full") for x in (NOAUTH, NOTREADY)] + [
  "passwd-file(<*>): unknown user", "passwd-file(<*>): Password mismatch",   # auth_request_log_* with the passdb's log prefix
  "Disconnected: Logged out" + IMAPST,                                       # imap: "Disconnected: %s %s", reason, client_stats
  "Disconnected: Connection closed (<*> finished <*>.<*> secs ago)" + IMAPST,
  "Disconnected: Selected mailbox was deleted, have to disconnect." + IMAPST,
  "Disconnected: Logged out top=<*>/<*>, retr=<*>/<*>, del=<*>/<*>, size=<*>",   # pop3_logout_format
  "msgid=<*>: saved mail to <*>",                                           # deliver_log_format "msgid=%m: %$", "saved mail to %s"
  "Dovecot v2.3.19.1 (9b53102964) starting up for <*> (core dumps disabled)",   # STARTUP_STRING is a literal
  "SIGHUP received - reloading configuration",
  "Killed with signal <*> (by pid=<*> uid=<*> code=kill)",                  # lib_signal_code_to_str's word
])

def main():
    system, raw, out = sys.argv[1], sys.argv[2], sys.argv[3]
    header, templates = SYSTEMS[system]
    hre = re.compile(header, re.S)
    tagged = {}
    for t in templates:
        if isinstance(t, tuple):
            tagged.setdefault(t[0], []).append(t[1])
    plain = [t for t in templates if not isinstance(t, tuple)]
    compiled = sorted(((rx(t), t) for t in plain), key=lambda p: -len(p[1].replace("<*>", "")))
    tagc = {k: [(rx(t), t) for t in ts] for k, ts in tagged.items()}
    lines = open(raw, encoding="utf-8", errors="replace").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rows, ids = [], {}
    for i, line in enumerate(lines, 1):
        h = hre.match(line)
        if not h:
            sys.exit(f"line {i}: no header: {line!r}")
        msg = h.group("m")
        tag = h.groupdict().get("tag")
        t = next((t for r, t in tagc.get(tag, compiled) if r.match(msg)), None)
        if t is None:
            sys.exit(f"line {i}: no template: {line!r}")
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

if __name__ == "__main__":
    main()

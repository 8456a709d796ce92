#!/usr/bin/env python3
"""Label the heldout7 logs with ground-truth templates written from the
programs' format strings (see README.md for each program's call sites), in
loghub format (X.log.gz, X_structured.csv.gz with LineId,
Content, EventId, EventTemplate).

usage: label7.py SYSTEM RAW.log OUTDIR
Every line must match the header and a template; an unmatched line is printed
and the script fails, so no line is labelled by guess. Where several
templates match, the one with the most constant text wins. The labelling is
the shared module's (bench/testdata/hogen); this file declares the systems."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from hogen import cli

SYSTEMS = {}  # name -> (header regex, templates)
# A template may be (tag, template): such templates are the only ones tried
# on lines whose header's group "tag" is that tag (unused in this set so far).

# stunnel 5.68, output = file, debug = info: log.c writes
# "%04d.%02d.%02d %02d:%02d:%02d" and "LOG%d[%s]" (level, thread id: a
# connection number or ui/cron) joined by a space, then ": ".
# sslerror_log "%s: %s:%d: %s": the call site's literal (SSL_accept or SSL_connect,
# chosen by option.client; SSL_read), OpenSSL's file:line, ERR_error_string_n's
# "error:%08lX:%s:%s:%s" whose reason is one event per reason.
SSLE = "%s: <*>:<*>: error:<*>:SSL routines::%s"
SYSTEMS["stunnel"] = (r"^(?P<h>\d{4}\.\d\d\.\d\d \d\d:\d\d:\d\d LOG\d\[[0-9a-z]+\]: )(?P<m>.*)$", [
  # stunnel.c: STUNNEL_VERSION, HOST and OPENSSL_VERSION_TEXT are compile-time literals; so is the features line.
  "stunnel 5.68 on x86_64-pc-linux-gnu platform", "Compiled with OpenSSL 3.0.9 30 May 2023", "Running  with <*>",
  "Threading:PTHREAD Sockets:POLL,IPv6,SYSTEMD TLS:ENGINE,OCSP,PSK,SNI Auth:LIBWRAP",
  "Reading configuration from file <*>", "UTF-8 byte order mark not detected", "FIPS mode disabled",
  "Compression disabled", "Initializing inetd mode configuration", "Initializing service [<*>]",
  "OpenSSL security level is used: <*>", "Session resumption enabled",
  "Loading certificate from file: <*>", "Certificate loaded from file: <*>",
  "Loading private key from file: <*>", "Private key loaded from file: <*>",
  "No trusted certificates found", "Configured trusted client CA: <*>", "Configured trusted server CA: <*>",
  "Service [<*>] needs authentication to prevent MITM attacks",
  "DH initialization skipped: client section", "DH initialization skipped: no DH ciphersuites",
  "Configuration successful", "Service [<*>] (FD=<*>) bound to <*>",
  "Executing cron jobs", "Cron jobs completed in <*> seconds", "Accepting new connections",
  "Terminated", "Terminating <*> service thread(s)", "Service threads terminated",
  # client.c / network.c / ctx.c / verify.c, per connection
  "Service [<*>] accepted connection from <*>", "Service [<*>] connected remote server from <*>",
  "s_connect: connecting <*>", "s_connect: connected <*>",
  "s_connect: connect <*>: Connection refused (<*>)", "No more addresses to connect",
  "SNI: sending servername: <*>", "Peer certificate required", "Peer certificate not required",
  "Certificate verification disabled", "No peer certificate received", "Session id: <*>",
  "Decrypted ticket for an authenticated session: yes", "persistence: <*> cached",
  "Received trusted client CA: <*>",
  "CERT: No subject checks configured", "CERT: Subject checks failed",
  "CERT: Pre-verification error: self-signed certificate",
  "Certificate accepted at depth=<*>: <*>", "Rejected by CERT at depth=<*>: <*>",
  "<*> ciphersuite: <*> (<*>-bit encryption)", "Peer temporary key: <*>, <*> bits", "No peer temporary key received",
  "Read socket closed (readsocket)",
  "TLS closed (SSL_read)", "TLS socket closed (SSL_read)", "TLS socket closed (read hangup)",
  "TLS socket closed (SSL_write) with <*> unsent byte(s)",
  "SSL_shutdown successfully sent close_notify alert", "SSL_write: Socket is closed",
  "TLS fd: Broken pipe (<*>)", "TLS fd: Connection reset by peer (<*>)",   # log_error "%s: %s (%d)"
  "transfer: s_poll_wait: TIMEOUTidle exceeded: sending reset",
] + ["TLS %s: %s" % (w, s) for w in ("accepted", "connected") for s in ("previous session reused", "new session negotiated")
] + ["Connection %s: <*> byte(s) sent to TLS, <*> byte(s) sent to socket" % w for w in ("closed", "reset", "reset/closed", "closed/reset")
] + [SSLE % p for p in (("SSL_accept", "certificate verify failed"), ("SSL_connect", "certificate verify failed"),
  ("SSL_accept", "unexpected message"), ("SSL_accept", "peer did not return a certificate"),
  ("SSL_accept", "tlsv1 alert internal error"), ("SSL_read", "tlsv13 alert certificate required"),
  ("SSL_accept", "no suitable signature algorithm"), ("SSL_accept", "wrong version number"))
])

# fail2ban 1.0.2 logtarget file: helpers.py's format "%(asctime)s
# %(name)-24s[%(process)d]: %(levelname)-7s %(message)s" (logger name padded
# to 24, level padded to 7, then one space; a message may itself start with
# spaces). Templates from the logSys calls in fail2ban/server/*.py of the
# installed package (Python: the installed .py files are the source).
SYSTEMS["fail2ban"] = (r"^(?P<h>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} fail2ban[a-z.]* *\[\d+\]: (?:INFO   |NOTICE |WARNING|ERROR  |DEBUG  |CRITICAL) )(?P<m>.*)$", [
  "-" * 50, "Starting Fail2ban v1.0.2",                    # server.py; version.version is the package's constant
  "Connected to fail2ban persistent database '<*>'", "New database created. Version '<*>'",
  "Connection to database closed.", "Observer start...",
  "Creating new jail '<*>'", "Initiated <*> backend", "Jail '<*>' uses poller <*>",   # %r prints the quotes
  "Set banTime.<*> = <*>", "  maxRetry: <*>", "  findtime: <*>", "  encoding: <*>", "  maxLines: <*>",
  "  banTime: <*>", "  date pattern `<*>`: `<*>`", "Added logfile: <*> (pos = <*>, hash = <*>)",
  "Removed logfile: <*>", "Jail <*> started", "Jail <*> stopped",
  "[<*>] Found <*> - <*>",                                 # filter.py
  "[<*>] Found <*>, bad - <*>, <*> # -> <*>",              # observer.py, "%s%s": '' or ', Ban'
  "[<*>] Found <*>, bad - <*>, <*> # -> <*>, Ban",
  "[<*>] IP <*> is bad: <*> # last <*> - incr <*> to <*>", "[<*>] Increase Ban <*> (<*> # <*> -> <*>)",
  "[<*>] Ban <*>", "[<*>] Unban <*>",                      # actions.py, "%sBan %s": '' or 'Restore '
  "[<*>] <*> already banned", "[<*>] Flush ticket(s) with <*>", "[<*>] Ignore <*>, expired bantime",
  "[<*>] Ignore <*> by ip",                                # filter.py logIgnoreIp, ignore_source "ip"
  "Command <*> has failed. Received <*>",                  # transmitter.py
  "Reload jail <*>", "Reload all jails", "Jail <*> reloaded", "Reload finished.",   # server.py (%r and "jail %s")
  "rollover performed on <*>", "Stopping all jails", "Shutdown in progress...", "Exiting Fail2ban",
  "Observer stop ... try to end queue <*> seconds", "Observer stopped, <*> events remaining.",
])

# Knot DNS 3.2.6 log target file: log.c writes KNOT_LOG_TIME_FORMAT
# ("%Y-%m-%dT%H:%M:%S%z") and a space, the level prefix and ": ", and for
# zone messages "[%.*s.] " with the zone name, before the message.
ZL = "zone loader, error in zone, file '<*>', line <*> (%s)"   # zonefile.c process_error: "%s in zone, ..." "error"/"fatal error", zs_strerror
SYSTEMS["knot"] = (r"^(?P<h>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} (?:debug|info|notice|warning|error|critical): (?:\[[^\]]*\.\] )?)(?P<m>.*)$", [
  "Knot DNS 3.2.6 starting",                                # PACKAGE_VERSION is a literal
  "loaded configuration file '<*>', mapsize <*> MiB", "using UDP reuseport, incoming TCP Fast Open",
  "binding to interface <*>", "loading <*> zones", "starting server", "server started in the foreground, PID <*>",
  "control, binding to '<*>'", "control, received command '<*>'", "control, error (no such node in zone found)",
  "reloading configuration file '<*>'", "configuration reloaded",
  "stopping server", "updating persistent timer DB", "shutting down",
  "zone will be loaded", "zone will be bootstrapped",
  "failed to parse zone file '<*>' (not exists)", "failed to parse zone file '<*>' (failed)",
  "zone file parsed, serial <*>",
  "loaded, serial <*> -> <*>, <*> bytes", "loaded, serial <*> -> <*> -> <*>, <*> bytes",   # "%s -> %u%s": "" or " -> %u"
  "changes from journal applied, serial <*> -> <*>",
  "failed to load journal (no such node in zone found)",
  "failed to apply journal changes, serial <*> -> <*> (no such node in zone found)",
  "zonefile synchronization disabled, use force command to override it",
  "with automatic DNSSEC signing and outgoing transfers enabled, 'zonefile-load: difference' should be set to avoid malformed IXFR after manual zone file update",
  ZL % "invalid IPv4 address", ZL % "invalid record data", ZL % "invalid number", ZL % "invalid address character",
  "zone loader, fatal error in zone, file '<*>', line <*> (file open error)",
  "zone loader, failed to load zone, file '<*>', <*> errors",
  "zone event '<*>' failed (failed)", "zone event '<*>' failed (no usable master)",
  "zone updates frozen", "zone updates unfrozen",
  "DDNS, processing <*> updates", "DDNS, finished, serial <*> -> <*>, <*> seconds",
  "DDNS, finished, no changes to the zone were made",
  # nameserver/log.h "%s%s, remote %s%s, " fmt: operation, ", outgoing", address, "" (no pool)
  "AXFR, outgoing, remote <*>, started, serial <*>",
  "AXFR, outgoing, remote <*>, finished, <*> seconds, <*> messages, <*> bytes",
  "IXFR, outgoing, remote <*>, started, serial <*> -> <*>",
  "IXFR, outgoing, remote <*>, finished, <*> seconds, <*> messages, <*> bytes",
  "IXFR, outgoing, remote <*>, incomplete history, serial <*>, fallback to AXFR",
  "IXFR, outgoing, remote <*>, zone is up-to-date, serial <*>",
  # zone.c log_try_addr_error "%s%s%s, address %s, failed (%s)" and "%s, remote %s not usable", err_str "refresh"
  "refresh, remote <*>, address <*>, failed (connection reset)", "refresh, remote <*> not usable",
  "refresh, failed (no usable master), next retry at <*>",
  "DNSSEC, signing started", "DNSSEC, successfully signed", "DNSSEC, incrementally signed",
  "DNSSEC, next signing at <*>", "DNSSEC, zone is up-to-date", "DNSSEC, signing zone",
  "DNSSEC, dropping previous signatures, re-signing zone",
  "DNSSEC, KSK submission, waiting for confirmation", "DNSSEC, KSK rollover started",
  "DNSSEC, ignoring forced ZSK rollover due to running rollover",
  "DNSSEC, ignoring forced KSK rollover due to running rollover",
] + ["DNSSEC, key, tag <*>, algorithm <*>" + f for f in (  # zone-keys.c: ", KSK", ", public", ", ready", ", active", ", active+" as set
  ", KSK, public, ready, active+", ", public, active", ", KSK, public, active+")])

# CUPS 2.4.2 cupsd ErrorLog, LogLevel info: log.c writes "%c [%s] " (the
# level letter from " XACEWNIDd" and cupsdGetDateTime's "[%02d/%s/%04d:%02d:%02d:%02d %+03ld%02ld]").
# "[Job %d] " and "[Client %d] " are message text: cupsdLogJob and
# cupsdLogClient prepend them, and some cupsdLogMessage format strings
# carry "[Job %d]" themselves, so a header that cut them would cut the
# same words out of some events and not others.
J, C = "[Job <*>] ", "[Client <*>] "
RET = C + "Returning IPP %s for <*> (<*>) from <*>."   # ipp.c: ippErrorString(status), ippOpString(op), uri, hostname
SYSTEMS["cups"] = (r"^(?P<h>[ XACEWNIDd] \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\] )(?P<m>.*)$", [
  "Listening to <*>:<*> (IPv<*>)", "Listening to <*> (Domain)",                    # conf.c
  "No JobPrivateAccess defined in policy <*> - using defaults.", "No JobPrivateValues defined in policy <*> - using defaults.",
  "No SubscriptionPrivateAccess defined in policy <*> - using defaults.", "No SubscriptionPrivateValues defined in policy <*> - using defaults.",
  "Remote access is disabled.",                                                   # "%s": "enabled" or "disabled"
  'Loaded configuration file "<*>"', "Configured for up to <*> clients.",
  "Allowing up to <*> client connections per host.", 'Using policy "default" as the default.',
  "Full reload is required.", 'Loaded MIME database from "<*>" and "<*>": <*> types, <*> filters...',
  'cupsdLoadBanners: Unable to open banner directory "<*>": No such file or directory',   # banners.c, strerror
  "Generating printcap <*>...", "Full reload complete.", 'Cleaning out old files in "<*>".',
  'Loading job cache file "<*>"...',
  "Listening to <*>:<*> on fd <*>...", "Listening to <*> on fd <*>...", "Resuming new connection processing...",   # listen.c
  "Raw queues are deprecated and will stop working in a future version of CUPS. See https://github.com/OpenPrinting/cups/issues/103",
  "Saving printers.conf...", "Saving classes.conf...", "Saving job.cache...", "Scheduler shutting down normally.",
  # ipp.c
  'New printer "<*>" added by "<*>".', 'Printer "<*>" modified by "<*>".', 'Printer "<*>" deleted by "<*>".',
  'New class "<*>" added by "<*>".',
  'Printer "<*>" started by "<*>".', 'Printer "<*>" stopped by "<*>".', 'Class "<*>" started by "<*>".', 'Class "<*>" stopped by "<*>".',
  'Printer "<*>" now accepting jobs ("<*>").', 'Class "<*>" now accepting jobs ("<*>").', 'Class "<*>" rejecting jobs ("<*>").',
  'All jobs on "<*>" were canceled by "<*>".',                                    # "were %s by": "purged" or "canceled"
  'Default destination set to "<*>" by "<*>".',
  'Setting <*> device-uri to "<*>" (was "<*>".)', "Setting <*> printer-state to <*> (was <*>.)",
  "Setting <*> printer-is-accepting-jobs to <*> (was <*>.)",
  RET % "client-error-not-possible", RET % "server-error-not-accepting-jobs",
  J + 'Queued on "<*>" by "<*>".', J + 'File of type <*>/<*> queued by "<*>".',
  J + 'Adding start banner page "<*>".', J + 'Adding end banner page "<*>".',
  J + "Started backend <*> (PID <*>)",                                            # job.c
  J + "Job completed.", J + "Job canceled by user.", J + "Job released by user.",
  J + 'Job canceled by \\"<*>\\"',                                               # "Job canceled by \"%s\"", as the log writes it
  "[Job <*>] Canceled by \"<*>\".",                                               # ipp.c cupsdLogMessage "[Job %d] Canceled by ..."
  J + "Job stopped due to printer being paused.", J + "Stopping job prior to move.",
  J + "The printer may not exist or is unavailable at this time.",               # backend/ipp.c, relayed from the backend
])

if __name__ == "__main__":
    cli.main(SYSTEMS, ["label"] + sys.argv[1:])

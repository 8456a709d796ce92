#!/usr/bin/env python3
"""The heldout8 systems: each one's header expression and the event templates
written from its program's format strings (README.md names the call sites).
The labelling, checking and word checking are the shared module's
(bench/testdata/hogen):

    label8.py label SYSTEM RAW.log OUTDIR
    label8.py check DIR
    label8.py words SYSTEM STRINGS.txt
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from hogen import cli

SYSTEMS = {}

# OpenLDAP 2.5.13 slapd -d stats,stats2, stderr: the debug printer
# (libraries/liblutil, slap_debug_print / lutil_debug) prefixes "%lx.%08x %p "
# (hex seconds, hex nanoseconds, the thread's pointer). Versionstr holds a
# newline, so its second line has no prefix. o_log_prefix is "conn=%lu op=%lu".
C = "conn=<*> op=<*> "
ET = "qtime=<*>.<*> etime=<*>.<*> "   # result.c ETIME_SETUP "qtime=%d.%06d etime=%d.%06d", then ETIME_LOGFMT "%s "
SYSTEMS["slapd"] = (r"^(?P<h>(?:[0-9a-f]+\.[0-9a-f]{8} 0x[0-9a-f]+ )?)(?P<m>.*)$", [
  "@(#) $OpenLDAP: slapd 2.5.13+dfsg-5 (Feb  8 2023 01:56:12) $",   # Versionstr, a compile-time literal
  "\tDebian OpenLDAP Maintainers <pkg-openldap-devel@lists.alioth.debian.org>",
  "slapd starting", "daemon: shutdown requested and initiated.",
  "slapd shutdown: waiting for <*> operations/tasks to finish", "slapd stopped.",
  # connection.c; the peer and listener names are daemon.c's "IP=%s:%d" / "PATH=%s"
  "conn=<*> fd=<*> ACCEPT from IP=<*>:<*> (IP=<*>:<*>)", "conn=<*> fd=<*> ACCEPT from PATH=<*> (PATH=<*>)",
  "conn=<*> fd=<*> closed",
] + ["conn=<*> fd=<*> closed (%s)" % w for w in ("connection lost", "idletimeout", "TLS negotiation failure")] + [
  "conn=<*> fd=<*> TLS established tls_ssf=<*> ssf=<*> tls_proto=<*> tls_cipher=<*>",   # "%s" is "tls_ssf=%u ssf=%u"
  "connection_read(<*>): no connection!", "connection_input: conn=<*> deferring operation: binding",
] + ["TLS: can't accept: %s." % e for e in (   # libldap tls2.c "%s.", GnuTLS's error text
  "An unexpected TLS packet was received.", "Error decoding the received TLS packet.")] + [
  # bind.c (a simple bind's orb_mech is the literal "SIMPLE"), connection.c (SASL), sasl.c
  C + 'BIND dn="<*>" method=<*>', C + 'BIND dn="<*>" mech=SIMPLE bind_ssf=0 ssf=<*>',
  C + 'BIND dn="<*>" mech=<*> bind_ssf=<*> ssf=<*>', C + 'BIND authcid="<*>" authzid="<*>"',
  # result.c
  C + "RESULT tag=<*> err=<*> " + ET + "text=<*>", C + "SEARCH RESULT tag=<*> err=<*> " + ET + "nentries=<*> text=<*>",
  C + "RESULT oid=<*> err=<*> " + ET + "text=<*>", C + 'ENTRY dn="<*>"', C + 'REF #<*> "<*>"',
  # search.c ("%s" is "scope=%d deref=%d"; the attribute names joined by spaces), add.c, modify.c, ...
  C + 'SRCH base="<*>" scope=<*> deref=<*> filter="<*>"', C + "SRCH attr=<*>",
  C + 'ADD dn="<*>"', C + 'MOD dn="<*>"', C + "MOD attr=<*>", C + 'DEL dn="<*>"', C + 'MODRDN dn="<*>"',
  C + 'CMP dn="<*>" attr="<*>"', C + "UNBIND", C + "EXT oid=<*>", C + "WHOAMI",
  C + "STARTTLS", C + 'PASSMOD id="<*>" new', C + "PASSMOD new",   # passwd.c "%s%s": " old", " new" or ""
  C + 'do_search: invalid dn: "<*>"', C + "do_modify: invalid dn (<*>)", C + "do_delete: invalid dn (<*>)",
  C + "do_delete: root dse!",
])

# FreeRADIUS 3.2.1 radiusd -l FILE: log.c's radlog_always writes the ctime
# date (CTIME_R, without its newline), " : ", the level name from
# levels[] (Info, Auth, Proxy, Error, ...; request-level errors say ERROR)
# and ": ". The "(%u) " request number is message text: the request logger
# (vradlog_request) prepends it, and process.c's duplicate-packet format
# carries "(%u) " itself. rad_authlog writes "%s: [%s%s%s] (%s)%s": the
# message, the user name, "/" and the password (or the password slot's
# "<CHAP-Password>"), auth_name's "from client %s port %u", and no extra
# message; "Login incorrect (%s)" and "Invalid user (%s)" carry the
# Module-Failure-Message, "%s: %s" of the module's name and its REDEBUG
# text (or a policy's text from policy.d/filter), one event per message; the authorize
# section's failures are logged twice, as Invalid user and Login incorrect.
A = "(<*>) %s: [<*>/<*>] (from client <*> port <*>)"
FAIL = [  # module failure messages met in this run: module, then text from the module's source
  "pap: Cleartext password does not match \"known good\" password",            # rlm_pap.c
  "expiration: Account expired at '<*>'",                                    # rlm_expiration.c
  "mschap: MS-CHAP2-Response is incorrect", "mschap: FAILED: No NT-Password.  Cannot perform authentication",  # rlm_mschap.c
  "chap: Password comparison failed: password is incorrect",                 # rlm_chap.c
  "chap: &control:Cleartext-Password is required for authentication",
  "Rejected: User-Name contains whitespace", "Rejected: Multiple @ in User-Name",   # policy.d/filter, filter_username
  "Rejected: User-Name contains multiple ..s", "Rejected: Realm does not have at least one dot separator",
  "Rejected: Realm ends with a dot",
]
DROP = "Dropping packet without response because of error: %s (from client <*>)"   # process.c, fr_strerror() from radius.c
SYSTEMS["radius"] = (r"^(?P<h>[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4} : (?:Info|Auth|Proxy|Error|ERROR|Warning|WARNING|Debug): )(?P<m>.*)$", [
  "Starting - reading configuration files ...", "Debugger not attached", "systemd watchdog is disabled",
  "Loaded virtual server <*>", "Ready to process requests", "Received HUP signal",
  "HUP - No files changed.  Ignoring", "HUP - Files loaded by a module have changed.",
  " Module: Reloaded module \"<*>\"", "Signalled to terminate", "Exiting normally",
  A % "Login OK", A % "Login incorrect", A % "Invalid user",
  A % "Login incorrect (Home Server failed to respond)",                       # auth.c
  A % "Login incorrect (No Auth-Type found: rejecting the user via Post-Auth-Type = Reject)",   # auth.c REDEBUG2
  A % "Login incorrect (Failed to find live home server: Cancelling proxy)",  # process.c REDEBUG2
  A % "Login incorrect (Failing proxied request for user \"<*>\", due to lack of any response from home server <*> port <*>)",
  "(<*>) ERROR: Failing proxied request for user \"<*>\", due to lack of any response from home server <*> port <*>",
] + [A % ("Login incorrect (%s)" % m) for m in FAIL] + [
  A % ("Invalid user (%s)" % m) for m in FAIL if not m.startswith(("pap:", "chap:", "mschap:"))] + [   # authorize-time failures
  # listen.c: the listener's name is "%s address %s port %d" and " bound to server %s"
  "Ignoring request to <*> address <*> port <*> bound to server <*> from unknown client <*> port <*> proto <*>",
  DROP % "Received packet from <*> with invalid Message-Authenticator!  (Shared secret is incorrect.)",
  DROP % "Received <*> packet from client <*> with invalid Request Authenticator!  (Shared secret is incorrect.)",
  "Received conflicting packet from client <*> port <*> - ID: <*> due to unfinished request in module <*>.  Giving up on old request.",
  "(<*>) Ignoring duplicate packet from client <*> port <*> - ID: <*> due to unfinished request in component <*> module <*>",
  "Marking home server <*> port <*> as zombie (it has not responded in <*>.<*> seconds).",
  "Marking home server <*> port <*> as dead.",
  "Marking home server <*> port <*> alive again... we have no idea if it really is alive or not.",
])

# Icecast 2.4.4 errorlog, loglevel 3: log/log.c's log_write writes
# strftime "[%Y-%m-%d  %H:%M:%S]" and " %s %s%s " (EROR/WARN/INFO/DBUG, the
# category "module/" and the calling function's name). Templates from the
# ICECAST_LOG_* calls in src/ (main.c, connection.c, source.c, fserve.c,
# admin.c, slave.c, auth.c, auth_htpasswd.c, format.c, format_ebml.c,
# yp.c, stats.c, util.c); %H is an HTML-escaped %s; strerror texts are
# one event each; ICECAST_VERSION_STRING is "Icecast " PACKAGE_VERSION, a literal.
SYSTEMS["icecast"] = (r"^(?P<h>\[\d{4}-\d\d-\d\d  \d\d:\d\d:\d\d\] (?:EROR|WARN|INFO|DBUG) [a-z_-]+/[A-Za-z_0-9]+ )(?P<m>.*)$", [
  "Icecast 2.4.4 server started", "YP update thread started", "No SSL capability on any configured ports",
  "Caught halt request, shutting down...", "Shutting down", "file serving stopped", "shutting down current relays",
  "Slave thread shutdown complete", "Auth shutdown", "YP thread down", "stats thread finished",
  "Authentication thread started", "Authenication thread shutting down", "Caught config reload request, re-reading config...",
  'Configured htpasswd authentication using password file "<*>"', 're-reading htpasswd file "<*>"',
  'Failed to open temporary authentication database "<*>": Permission denied',
  'Starting relayed source at mountpoint "<*>"', "connecting to <*>:<*>", "Failed to connect to <*>:<*>",
  'Source logging in at mountpoint "<*>" from <*>', "Source (<*>) attempted to login with invalid or missing password",
  "Mountpoint <*> in use", "Content-type not given in PUT request, dropping source",
  "No content-type header, falling back to backwards compatibility mode for icecast 1.x relays. Assuming content is mp3. This behaviour is deprecated and the source client will NOT work with future Icecast versions!",
  'Unsupported or legacy stream type: "<*>". Falling back to generic minimal handler for best effort.',
  "Wrong request type from client", "HTTP request parsing failed", 'Rejecting invalid path "<*>"',
  'unable to open file "<*>"', "listener count on <*> now <*>", "End of Stream <*>",
  'Source from <*> at "<*>" exiting', "<*> active listeners on <*> released", 'passing <*> listeners to "<*>"',
  "Client deleted, exceeding maximum listeners for this mountpoint (<*>).",
  "checking for file <*> (<*>)", 'req for file "<*>" No such file or directory',
  "auth on <*> has <*> pending", "adding client for authentication",
  "Error parsing command string or unrecognised command: <*>", "Admin command <*> on non-existent source <*>",
  'Received admin command <*> on mount "<*>"',
  "Bad or missing password on mount modification admin request (command: <*>)",
  "Bad or missing password on admin command request (command: <*>)",
  "EBML Header too large, failing", "Problem processing stream", 'Metadata on mountpoint <*> changed to "<*>"',
])

if __name__ == "__main__":
    cli.main(SYSTEMS)

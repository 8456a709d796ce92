#!/usr/bin/env python3
"""The heldout9 systems: each one's header expression and the event templates
written from its program's format strings (README.md names the call sites).
The labelling, checking and word checking are the shared module's
(bench/testdata/hogen):

    label9.py label SYSTEM RAW.log OUTDIR
    label9.py check DIR
    label9.py words SYSTEM STRINGS.txt
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from hogen import cli

SYSTEMS = {}

# coturn 4.6.1 turnserver, log-file with simple-log, verbose:
# turn_log_func_default (src/apps/common/ns_turn_utils.c) writes "%lu: " (the
# seconds since start, log_time()) then ": " or, at TURN_LOG_LEVEL_ERROR,
# ": ERROR: ", then the message. A message's embedded newlines start lines
# with no header (the start-up banner in mainrelay.c), so the header is
# optional, and a message without a final newline runs into the next record
# on one line (ns_ioalib_engine_impl.c's "SSL read error: " and the
# "%s (%d)\n" of ERR_error_string after it; the second record's header is a
# value in the middle of the line). addr_debug_print's "IPv4. %s: %s:%d"
# takes a literal from its call site, one event per literal; log_method's
# method name and socket_type_name's type are values; a reason set as a
# literal at a call site (the STUN error reasons, shutdown reasons) is event
# text, one event per reason; check_stun_auth's "%s: " is __FUNCTION__.
S = "session <*>: "
M = "realm <<*>> user <<*>>: incoming packet <*> processed, "   # log_method, ns_turn_server.c
O = S + "origin <<*>> " + M
M = S + M
CL = S + "closed (2nd stage), user <<*>> realm <<*>> origin <<*>>, local <*>, remote <*>, reason: %s"   # ns_turn_server.c
USAGE = "usage: realm=<<*>>, username=<<*>>, rp=<*>, rb=<*>, sp=<*>, sb=<*>"   # ns_ioalib_engine_impl.c
REASONS = ["Unauthorized", "Allocation Quota Reached", "Peer Address Family Mismatch (3)", "Peer Address Family Mismatch (4)"]
SYSTEMS["coturn"] = (r"^(?P<h>(?:\d+: : (?:ERROR: )?)?)(?P<m>.*)$", [
  "",   # the empty first or last line of a banner message ("\n...")
  # mainrelay.c print_features and start-up
  "RFC 3489/5389/5766/5780/6062/6156 STUN/TURN Server", "Version Coturn-4.6.1 'Gorst'",   # TURN_SOFTWARE, a literal
  "Max number of open files/sockets allowed for this process: <*>", "Due to the open files/sockets limitation,",
  "max supported number of TURN Sessions possible is: <*> (approximately)",
  "==== Show him the instruments, Practical Frost: ====", "=====================================================",
  "TLS supported", "DTLS supported", "DTLS 1.2 supported", "TURN/STUN ALPN supported",
  "Third-party authorization (oAuth) supported", "GCM (AEAD) supported",
  "OpenSSL compile-time version: <*> (<*>)", "SQLite supported, default database location is <*>",
  "Redis supported", "PostgreSQL supported", "MySQL supported", "MongoDB is not supported",
  "Default Net Engine version: <*> (<*>)", "Domain name: <*>", "Default realm: <*>",
  "CONFIG WARNING: allow_loopback_peers opens a possible security vulnerability. Do not use in production!!",
  "Black listing: <*>", "log file opened: <*>", "pid file created: <*>",
  "New GID: <*>(<*>)", "New UID: <*>(<*>)", "TLS cipher suite: <*>", "DTLS cipher suite: <*>",
  # ns_turn_utils / mainrelay.c set_ctx: "%s: Certificate file found: %s" with the context's protocol name
  "<*>: Certificate file found: <*>", "<*>: Private key file found: <*>",
  # netengine.c
  "Listener address to use: <*>", "Relay address to use: <*>", "Wait for relay ports initialization...",
  "  relay <*> initialization...", "  relay <*> initialization done", "Relay ports initialization done",
  "IO method (main listener thread): <*>", "IO method (general relay thread): <*>", "IO method (auth thread): <*>",
  "IO method (admin thread): <*>", "Total General servers: <*>", "turn server id=<*> created",
  "WARNING: I cannot support STUN CHANGE_REQUEST functionality because only one IP address is provided",
  "SQLite DB connection success: <*>",   # dbd_sqlite.c
  # addr_debug_print (ns_turn_utils.c "IPv4. %s: %s:%d") with its callers' literals
  "IPv4. TLS/TCP listener opened on : <*>:<*>", "IPv4. DTLS/UDP listener opened on: <*>:<*>",
  "IPv4. tcp or tls connected to: <*>:<*>", "IPv4. Accepted connection from: <*>:<*>",
  "IPv4. Local relay addr: <*>:<*>", "IPv4. Local reserved relay addr: <*>:<*>", "IPv4. Local relay addr (RTCP): <*>:<*>",
  # ns_turn_server.c
  M + "success", O + "success",
] + [M + "error <*>: " + w for w in REASONS] + [O + "error <*>: " + w for w in REASONS[:2]] + [
  "check_stun_auth: user <*> credentials are incorrect", "check_stun_auth: Cannot find credentials of user <<*>>",
  S + "peer <*> lifetime updated: <*>", S + "client socket to be closed in client handler: ss=<*>",
  CL % "SSL read error", CL % "general", CL % "<*> connection closed by client (callback)",
  CL % "<*> socket buffer operation error (callback)",
  S + "peer <*> deleted",   # ns_turn_allocation.c
  # ns_ioalib_engine_impl.c; "new"/"refreshed" is chosen at the call site
  S + "new, realm=<<*>>, username=<<*>>, lifetime=<*>", S + "refreshed, realm=<<*>>, username=<<*>>, lifetime=<*>",
  S + "new, realm=<<*>>, username=<<*>>, lifetime=<*>, cipher=<*>, method=<*>",
  S + "refreshed, realm=<<*>>, username=<<*>>, lifetime=<*>, cipher=<*>, method=<*>",
  S + "delete: realm=<<*>>, username=<<*>>", S + USAGE, S + "peer " + USAGE,
  S + "<*> socket closed remotely <*>", S + "<*> socket disconnected: <*>", S + "<*> socket error: Connection reset by peer <*>",
  S + "SSL shutdown received, socket to be closed (local <*>, remote <*>)",   # log_socket_event
  "SSL read error: <*>: : error:<*>:SSL routines::no suitable signature algorithm (<*>)", "SSL connection closed.",
])

# MPD 0.23.12, log_file at log_level verbose: LogBackend.cxx's FileLog
# writes log_date()'s strftime "%b %d %H:%M : " (minutes, no seconds), the
# domain's name and ": ", then the message (lines MPD logs before it opens
# the file go to its stderr and are not in the log). Templates from the
# FmtDebug/FmtInfo/FmtNotice/LogDebug calls in src/ (client/Process.cxx,
# client/New.cxx, client/Expire.cxx, db/update/*.cxx, queue/Playlist*.cxx,
# player/Thread.cxx, decoder/Thread.cxx, decoder/Bridge.cxx,
# output/Filtered.cxx, StateFile.cxx, LogInit.cxx, unix/SignalHandlers.cxx,
# event/Thread.cxx, output/Thread.cxx); the domain "exception" is
# LogError(std::exception_ptr)'s, whose message is the thrown text: a literal
# at its throw site (one event each), FormatErrno's "%s: strerror" and
# MakeArgError's "%s: %s" with the argument a value. An output's log name
# is Init.cxx's "\"%s\" (%s)" of its name and plugin, both values; a
# client command and a song URI are values.
SYSTEMS["mpd"] = (r"^(?P<h>[A-Z][a-z]{2} \d\d \d\d:\d\d : [a-z_]+: )(?P<m>.*)$", [
  "[<*>] opened from <*>", "[<*>] closed", "[<*>] timeout", "[<*>] process command \"<*>\"", "[<*>] command returned <*>",
  "[<*>] process command list", "[<*>] process command list returned <*>", "process command \"<*>\"", "command returned <*>",
  "[<*>] malformed command \"<*>\"",
  "spawned thread for update job id <*>", "starting", "finished", "starting: <*>", "finished: <*>",
  "reading <*>/<*>", "added <*>/<*>", "updating <*>/<*>", "no read permissions on <*>/<*>",
  "writing DB", "sorting DB", "removing empty directories from DB",
  "Loading state file <*>", "Saving state file <*>",
  "queue song <*>:\"<*>\"", "play <*>:\"<*>\"", "stop", "played \"<*>\"",
  "probing plugin <*>", "audio_format=<*>, seekable=<*>",
  "opened \"<*>\" (<*>) audio_format=<*>", "closed \"<*>\" (<*>)",
  "got SIGHUP, reopening log files and flushing caches", "Cycling log files", "error re-opening log file: <*>",
  "RTIOThread could not get realtime scheduling, continuing anyway: sched_setscheduler failed: Operation not permitted",
  "OutputThread could not get realtime scheduling, continuing anyway: sched_setscheduler failed: Operation not permitted",
  # exception messages
  "Failed to create Avahi client: Daemon not running", "Failed to open '<*>': No such file or directory",
  "No such song", "No such directory", "No such playlist", "Bad song index", "Not playing", "No mixer",
  "Missing closing '\"'", "Number too large: <*>", "Integer expected: <*>",
  "All audio outputs are disabled", "Failed to open audio output", "Decoder failed to seek",
])

# Prosody 0.12.3 (Lua 5.4), a file sink at info and above:
# core/loggingmanager.lua's log_to_file writes os.date's default_timestamp
# "%b %d %H:%M:%S ", the logger's name (a session's id, "c2s" and a hex
# address, a module's name or "host:module"), "\t", the level, "\t", then
# util.format's format(message, ...). Templates from the log(...) calls in
# the installed sources (/usr/lib/prosody: util/startup.lua,
# core/portmanager.lua, core/sessionmanager.lua, core/stanza_router.lua,
# modules/mod_c2s.lua, mod_tls.lua, mod_http.lua, mod_bosh.lua,
# mod_register_ibr.lua, mod_posix.lua, mod_cron.lua). "Client
# disconnected: %s" takes the error of the connection, prosody's literal
# "connection closed", LuaSocket's "closed" or OpenSSL's reason text: one
# event per reason;
# portmanager's "no ports" is chosen at the call site; a shutdown reason is
# the literal its caller passes.
SYSTEMS["prosody"] = (r"^(?P<h>[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d [^\t]+\t(?:debug|info|warn|error)\t)(?P<m>.*)$", [
  "Hello and welcome to Prosody version <*>", "Prosody is using the <*> backend for connection handling",
  "Activated service '<*>' on <*>", "Activated service '<*>' on no ports", "Deactivated service '<*>'",
  "Serving '<*>' at <*>", "Certificates loaded", "Certificates reloaded", "Running periodic tasks",
  "Received SIGHUP", "Reloading configuration file", "Received SIGTERM", "Shutting down: Received SIGTERM",
  "Shutdown status: Cleaning up", "Shutting down...", "Shutdown complete",
  "Client connected", "Stream encrypted (<*> with <*>)", "Authenticated as <*>@<*>",
  "Client disconnected: connection closed", "Client disconnected: unexpected eof while reading",
  "Client disconnected: wrong version number", "Client disconnected: closed",
  "Unhandled <*> stream element or stanza: <*>; xmlns=<*>: <*>",
  "User account created: <*>@<*>",
  "New BOSH session, assigned it sid '<*>'", "Client tried to use sid '<*>' which we don't know about",
  "Error parsing BOSH payload; syntax error",
])

# uWSGI 2.0.21 (Debian's uwsgi-core, the python3 plugin), logto a file
# with log-date: core/logging.c's uwsgi_log and uwsgi_log_verbose write
# ctime_r's first 24 characters and " - " before the message; the request
# logger (uwsgi_logit_simple, the same file) writes its line with no date,
# so the header is optional. Its format is one event: tsize is the literal
# "msecs" (log-micros is off) and via the literal " " (no sendfile, route
# or offload). Templates from the uwsgi_log, uwsgi_log_initial and
# uwsgi_log_verbose calls in core/ (uwsgi.c, utils.c, init.c, lock.c,
# socket.c, master.c, master_utils.c, master_checks.c, ini.c), proto/
# (uwsgi.c, http.c) and plugins/python/ (python_plugin.c, pyloader.c);
# uwsgi_error(x) is uwsgi.h's "%s: %s [%s line %d]" of its literal, strerror,
# __FILE__ and __LINE__ (compile-time, event text; uwsgi_req_error adds the
# request's method, URI and address); UWSGI_VERSION and
# UWSGI_LOCK_ENGINE_NAME are compile-time literals; uwsgi_dump_worker's
# "%s" is the literal its caller passes ("HARAKIRI").
SYSTEMS["uwsgi"] = (r"^(?P<h>(?:[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4} - )?)(?P<m>.*)$", [
  "[pid: <*>|app: <*>|req: <*>/<*>] <*> (<*>) {<*> vars in <*> bytes} [<*>] <*> <*> => generated <*> bytes in <*> msecs (<*> <*>) <*> headers in <*> bytes (<*> switches on core <*>)",
  "[uWSGI] getting INI configuration from <*>",
  "*** Starting uWSGI 2.0.21-debian (<*>bit) on [<*>] ***", "compiled with version: <*> on <*>",
  "os: <*>-<*> <*>", "nodename: <*>", "machine: <*>", "clock source: <*>", "pcre jit disabled",
  "detected number of CPU cores: <*>", "current working directory: <*>", "writing pidfile to <*>",
  "detected binary path: <*>", "setgid() to <*>", "setuid() to <*>", "chdir() to <*>",
  "your processes number limit is <*>", "your memory page size is <*> bytes", "detected max file descriptor number: <*>",
  "lock engine: pthread robust mutexes", "thunder lock: disabled (you can enable it with --thunder-lock)",
  "uwsgi socket <*> bound to TCP address <*> fd <*>", "uwsgi socket <*> inherited INET address <*> fd <*>",
  "Python version: <*> <*>", "*** Python threads support is disabled. You can enable it with --enable-threads ***",
  "Python main interpreter initialized at <*>", "your server socket listen backlog is limited to <*> connections",
  "your mercy for graceful operations on workers is <*> seconds", "mapped <*> bytes (<*> KB) for <*> cores",
  "*** Operational MODE: preforking ***",
  "WSGI app <*> (mountpoint='<*>') ready in <*> seconds on interpreter <*> pid: <*> (default app)",
  "*** uWSGI is running in multiple interpreter mode ***",
  "spawned uWSGI master process (pid: <*>)", "gracefully (RE)spawned uWSGI master process (pid: <*>)",
  "spawned uWSGI worker <*> (pid: <*>, cores: <*>)", "Respawned uWSGI worker <*> (new pid: <*>)",
  "*** uWSGI listen queue of socket \"<*>\" (fd: <*>) full !!! (<*>/<*>) ***",
  "*** HARAKIRI ON WORKER <*> (pid: <*>, try: <*>) ***", "HARAKIRI !!! worker <*> status !!!",
  "HARAKIRI [core <*>] <*> - <*> <*> since <*>", "HARAKIRI !!! end of worker <*> status !!!",
  "DAMN ! worker <*> (pid: <*>) died, killed by signal <*> :( trying respawn ...",
  "worker <*> killed successfully (pid: <*>)", "worker <*> buried after <*> seconds",
  "Gracefully killing worker <*> (pid: <*>)...", "...The work of process <*> is done. Seeya!",
  "...gracefully killing workers...", "binary reloading uWSGI...", "closing all non-uwsgi socket fds > 2 (max_fd = <*>)...",
  "found fd <*> mapped to socket <*> (<*>)", "running <*>",
  "SIGINT/SIGTERM received...killing workers...", "goodbye to uWSGI.",
  "invalid request block size: <*> (max <*>)...skip", "invalid HTTP request size (max <*>)...skip",
  "uwsgi_proto_http_parser() -> client closed connection", "uwsgi_proto_uwsgi_parser(): Success [proto/uwsgi.c line 40]",
  "uwsgi_proto_uwsgi_parser(): Resource temporarily unavailable [proto/uwsgi.c line 40]",
  # uwsgi.h's uwsgi_req_error(x): "%s: %s [%s line %d] during %.*s %.*s (%.*s)", method, URI and address
  "uwsgi_response_write_body_do(): Connection reset by peer [core/writer.c line 341] during <*> <*> (<*>)",
  # plugins/python/uwsgi_python.h's uwsgi_py_write_set_exception sets PyExc_IOError (OSError) with the
  # literal "write error"; uwsgi_manage_exception's PyErr_Print writes it with no header
  "OSError: write error",
])

if __name__ == "__main__":
    cli.main(SYSTEMS)

#!/usr/bin/env python3
"""The heldout10 systems: each one's header expression and the event templates
written from its program's format strings (README.md names the call sites).
The labelling, checking and word checking are the shared module's
(bench/testdata/hogen):

    label10.py label SYSTEM RAW.log OUTDIR
    label10.py check DIR
    label10.py words SYSTEM STRINGS.txt
"""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from hogen import cli

SYSTEMS = {}

# OpenVPN 2.6.14 server, --log FILE, verb 3: error.c's x_msg_va writes
# time_string()'s "%Y-%m-%d %H:%M:%S" and " ", then the context's prefix
# (msg_set_prefix: a client instance's "ADDR:PORT" before its common name is
# known, "CN/ADDR:PORT" after) and " ", then the message, so the prefix is
# header, optional. Templates from the msg() calls in src/openvpn/ (multi.c,
# ssl.c, ssl_verify.c, ssl_verify_openssl.c, ssl_openssl.c, ssl_pkt.c,
# tls_crypt.c, crypto.c, crypto_openssl.c, forward.c, init.c, options.c,
# manage.c, push.c, ping.c, sig.c, socket.c, pool.c, tun.c, error.c,
# misc.c, dco_linux.c, networking_sitnl.c). A line init.c builds from
# option-chosen pieces (Data Channel, Timers, Protocol options) is one event
# per set of pieces, numbers as values; a reason set as a literal at a call
# site (a signal's reason, CRYPT_ERROR's text) and a text OpenSSL chooses
# from a fixed table (a verify error, an alert, a library reason) are event
# text, one event each; a control message, a management command, a peer's
# info line and a status row's fields are values.
SIG = "%s received, client-instance %s"
SYSTEMS["openvpn"] = (r"^(?P<h>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?:(?:[A-Za-z0-9_.-]+/)?\d+\.\d+\.\d+\.\d+:\d+ )?)(?P<m>.*)$", [
  # start-up and shut-down (options.c, init.c, manage.c, socket.c, tun.c, pool.c, multi.c)
  "Note: --cipher is not set. OpenVPN versions before 2.5 defaulted to BF-CBC as fallback when cipher negotiation failed in this case. If you need this fallback please add '--data-ciphers-fallback BF-CBC' to your configuration and/or add BF-CBC to --data-ciphers.",
  "Note: Kernel support for ovpn-dco missing, disabling data channel offload.",
  "WARNING: Using --management on a TCP port WITHOUT passwords is STRONGLY discouraged and considered insecure",
  "WARNING: file '<*>' is group or others accessible",
  "OpenVPN <*> <*> [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]",   # title_string and the build's feature list
  "library versions: <*>, LZO <*>", "DCO version: <*>",
  "MANAGEMENT: TCP Socket listening on <*>",
  "net_route_v4_best_gw query: dst <*>", "net_route_v4_best_gw result: via <*> dev <*>",
  "NOTE: the current --script-security setting may allow this configuration to call user-defined scripts",
  "CRL: loaded <*> CRLs from file <*>", "TUN/TAP device <*> opened", "Socket Buffers: R=[<*>-><*>] S=[<*>-><*>]",
  "<*> link local (bound): <*>", "<*> link remote: <*>", "MULTI: multi_init called, r=<*> v=<*>",
  "IFCONFIG POOL IPv4: base=<*> size=<*>", "Initialization Sequence Completed", "Closing TUN/TAP interface",
  "Restart pause, <*> second(s)",
  # sig.c print_signal: "%s[%s,%s] received, %s exiting|restarting", the signal, hard/soft and reason set together at the call site
  "SIGTERM[hard,] received, process exiting", "SIGHUP[hard,] received, process restarting",
  SIG % ("SIGUSR1[soft,tls-error]", "restarting"), SIG % ("SIGUSR1[soft,ping-restart]", "restarting"),
  SIG % ("SIGTERM[soft,delayed-exit]", "exiting"),
  "<*>Inactivity timeout (--ping-restart), restarting",   # ping.c, the prefix "[CN] "
  "Delayed exit in <*> seconds", "CC-EEN exit message received by peer",
  # error.c's socket errors: "%s %s [%s]: %s (fd=%d,code=%d)", the description a call-site literal, strerror text
  "read <*> [<*>]: Connection refused (fd=<*>,code=<*>)",
  "event_wait : Interrupted system call (fd=<*>,code=<*>)",
  # the TLS handshake (ssl_verify.c, ssl_verify_openssl.c, ssl_openssl.c, ssl.c)
  "VERIFY OK: depth=<*>, <*>", "VERIFY KU OK", "VERIFY EKU OK", "Validating certificate extended key usage",
  "++ Certificate has EKU (str) <*>, expects <*>",
  "VERIFY ERROR: depth=<*>, error=unsuitable certificate purpose: <*>, serial=<*>",
  "VERIFY ERROR: depth=<*>, error=certificate revoked: <*>, serial=<*>",
  "VERIFY ERROR: depth=<*>, error=unable to get local issuer certificate: <*>, serial=<*>",
  "Sent fatal SSL alert: unsupported certificate", "Sent fatal SSL alert: certificate revoked", "Sent fatal SSL alert: unknown CA",
  "OpenSSL: error:<*>:SSL routines::certificate verify failed:",
  "TLS_ERROR: BIO read tls_read_plaintext error", "TLS Error: TLS object -> incoming plaintext read error",
  "TLS Error: TLS handshake failed",
  "peer info: <*>",
  "TLS: Username/Password authentication succeeded for username '<*>' [CN SET]",
  "TLS Auth Error: Auth Username/Password verification failed for peer",
  "TLS: move_session: dest=<*> src=<*> reinit_src=<*>",
  "TLS: tls_multi_process: initial untrusted session promoted to trusted",
  "TLS: tls_multi_process: initial untrusted session promoted to semi-trusted",
  "TLS: soft reset sec=<*>/<*> bytes=<*>/<*> pkts=<*>/<*>",
  "Control Channel: <*>, cipher <*> <*>, peer certificate: <*> bits <*>, signature: <*>, peer temporary key: <*> bits <*>",
  "[<*>] Peer Connection Initiated with <*>",   # socket.c link_socket_connection_initiated
  # tls-crypt and data channel errors (ssl_pkt.c, tls_crypt.c, crypto.c: "%s: %s" of error_prefix and CRYPT_ERROR's literal)
  "TLS Error: tls-crypt unwrapping failed from <*>", "tls-crypt unwrap error: packet authentication failed",
  "TLS Error: can not extract tls-crypt-v2 client key from <*>", "Client wants tls-crypt-v2, but no server key present.",
  "AEAD Decrypt error: cipher final failed",
  # multi.c, options.c, push.c, forward.c, init.c
  "MULTI: new incoming connection would exceed maximum number of clients (<*>)",
  "MULTI: new connection by client '<*>' will cause previous active sessions by this client to be dropped.  Remember to use the --duplicate-cn option if you want multiple clients using the same certificate or username to concurrently connect.",
  "MULTI_sva: pool returned IPv4=<*>, IPv6=<*>", "MULTI: Learn: <*> -> <*>", "MULTI: primary virtual IP for <*>: <*>",
  "MULTI: client has been rejected due to 'disable' directive",
  "OPTIONS IMPORT: reading client specific options from: <*>",
  "SENT CONTROL [<*>]: '<*>' (status=<*>)", "PUSH: Received control message: '<*>'",
  "PUSH: No common cipher between server and client. Server data-ciphers: '<*>', client supported ciphers '<*>'",
  "Data Channel: cipher '<*>', peer-id: <*>", "Timers: ping <*>, ping-restart <*>",
  "Protocol options: protocol-flags cc-exit tls-ekm dyn-tls-crypt",
  # manage.c
  "MANAGEMENT: Client connected from <*>", "MANAGEMENT: CMD '<*>'", "MANAGEMENT: Client disconnected",
  # multi.c multi_print_status (SIGUSR2), version 1
  "OpenVPN CLIENT LIST", "Updated,<*>", "Common Name,Real Address,Bytes Received,Bytes Sent,Connected Since",
  "<*>,<*>,<*>,<*>,<*>", "ROUTING TABLE", "Virtual Address,Common Name,Real Address,Last Ref", "<*>,<*>,<*>,<*>",
  "GLOBAL STATS", "Max bcast/mcast queue length,<*>", "END",
])

# Postfix 3.7.11 (Debian's postfix 3.7.11-0+deb12u1), maillog_file written
# by postlogd: msg_logger.c writes the date "%b %d %H:%M:%S", the host
# name (myhostname's first label), the program's name (syslog_name and
# the daemon, "postfix/smtpd") with "[pid]" and ": ", so all that is
# header; msg_warn and msg_fatal add "warning: " and "fatal: " to the
# message. Templates from the msg_info/msg_warn calls in src/ (smtpd/smtpd.c,
# smtpd/smtpd_check.c's reject and warn lines, cleanup/cleanup_message.c's
# header and body check actions, qmgr/qmgr_active.c, qmgr/qmgr_message.c,
# pickup/pickup.c, bounce/, local/ (file.c, command.c, mailbox.c,
# forward.c, dot_lockfile.c), global/log_adhoc.c (the delivery status
# line), global/pipe_command.c, anvil/anvil.c, postsuper/postsuper.c,
# postqueue/postqueue.c, master/master.c, tls/tls_misc.c) and the shell
# script conf/postfix-script. A queue ID (or "NOQUEUE"), client names and
# addresses, addresses in <>, commands, SMTP states, sizes and delays are
# values; the status word of a delivery line (sent, bounced, deferred) and
# the reason format that follows it, a check's action word (reject, warn,
# hold, discard, warning), an smtpd restriction's reply and reason, and the
# texts written in this configuration's access tables, checks and error
# transport (a fixed set the program chooses from) are event text, one
# event each. A line built from optional pieces (orig_to=, orig_id=, the
# from=/to=/proto=/helo= pieces of a check's line) is one event per set of
# pieces present.
Q = "<*>: "
DL = Q + "to=<<*>>, %srelay=<*>, delay=<*>, delays=<*>/<*>/<*>/<*>, dsn=<*>, status=%s"
def dl(status, orig=(False, True)):
    return [DL % ("orig_to=<<*>>, " if o else "", status) for o in orig]
RJ = Q + "reject: RCPT from <*>: %s; from=<<*>> to=<<*>> proto=<*> helo=<<*>>"
CL = Q + "%s: %s <*> from <*>;%s%s"
def cl(action, klass, tails, text=""):
    return [CL % (action, klass, t, text) for t in tails]
LOCALT = " from=<<*>> to=<<*>>"          # a message from pickup: no proto or helo
SMTPT = " from=<<*>> to=<<*>> proto=<*> helo=<<*>>"
SMTPNOTO = " from=<<*>> proto=<*> helo=<<*>>"
SYSTEMS["postfix"] = (r"^(?P<h>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ postfix/[a-z-]+\[\d+\]: )(?P<m>.*)$", [
  "starting the Postfix mail system", "refreshing the Postfix mail system", "stopping the Postfix mail system",   # postfix-script
  "daemon started -- version <*>, configuration <*>", "reload -- version <*>, configuration <*>",   # master.c
  # smtpd.c
  "connect from <*>", "disconnect from <*><*>", Q + "client=<*>",
  "lost connection after <*> from <*>", "timeout after <*> from <*>", "too many errors after <*> from <*>",
  "improper command pipelining after <*> from <*>: <*>", "warning: non-SMTP command from <*>: <*>",
  "warning: reject: ETRN <*>... from <*>",
  "Anonymous TLS connection established from <*>: <*> with cipher <*> (<*>/<*> bits) key-exchange <*> server-signature <*> (<*> bits) server-digest <*>",   # tls_server.c
  # smtpd_check.c: "%s: %s: %s from %s: %s;" and the optional from=, to=, proto=, helo= pieces
  RJ % "504 5.5.2 <<*>>: Helo command rejected: need fully-qualified hostname",
  RJ % "501 5.5.2 <<*>>: Helo command rejected: Invalid name",
  RJ % "554 5.7.1 <<*>>: Client host rejected: Access denied",
  RJ % "554 5.7.1 <<*>>: Sender address rejected: no mail from you",
  RJ % "554 5.7.1 <<*>>: Sender address rejected: Access denied",
  RJ % "504 5.5.2 <<*>>: Sender address rejected: need fully-qualified address",
  RJ % "550 5.1.1 <<*>>: Recipient address rejected: User unknown in local recipient table",
  RJ % "550 5.1.1 <<*>>: Recipient address rejected: no route to remote domains on this test host",
  RJ % "554 5.7.1 <<*>>: Relay access denied",
  Q + "reject: DATA from <*>: 503 5.5.0 <DATA>: Data command rejected: Improper use of SMTP command pipelining; from=<<*>> to=<<*>> proto=<*> helo=<<*>>",
  Q + "warn: RCPT from <*>: sender under watch; from=<<*>> to=<<*>> proto=<*> helo=<<*>>",
  Q + "hold: RCPT from <*>: <<*>>: Sender address triggers HOLD action; from=<<*>> to=<<*>> proto=<*> helo=<<*>>",
  # cleanup_message.c
  Q + "message-id=<*>",
] + cl("reject", "header", [LOCALT, SMTPT], ": 5.7.1 no lotteries") + cl("reject", "body", [LOCALT, SMTPT], ": 5.7.1 body rejected")
  + cl("warning", "header", [LOCALT, SMTPT, SMTPNOTO], ": urgent subject") + cl("warning", "body", [LOCALT, SMTPT, SMTPNOTO])
  + cl("hold", "header", [LOCALT, SMTPT]) + cl("discard", "header", [LOCALT, SMTPT]) + [
  # qmgr, pickup, bounce
  Q + "from=<<*>>, size=<*>, nrcpt=<*> (queue active)", Q + "removed", Q + "skipped, still being delivered",
  Q + "from=<<*>>, status=expired, returned to sender",
  "warning: qmgr_active_done_3_generic: remove <*> from active: No such file or directory",
  Q + "uid=<*> from=<<*>>", Q + "uid=<*> from=<<*>> orig_id=<*>",
  "warning: maildrop/<*>: error writing <*>: no recipients specified",
  Q + "sender non-delivery notification: <*>",
  # delivery status lines (log_adhoc.c), the reason after the status from local/, pipe_command.c, the error transport, cleanup
] + dl("sent (delivered to file: <*>)") + dl("sent (delivered to command: <*>)") + dl("sent (forwarded as <*>)", [False])
  + dl("sent (delivered to mailbox)", [False]) + dl("bounced (unknown user: \"<*>\")", [False])
  + dl("bounced (cannot append message to file <*>: cannot create file exclusively: No such file or directory)", [False])
  + dl("deferred (temporary failure. Command output: <*>)", [False])
  + dl("bounced (no route to remote domains on this test host)")
  + dl("bounced (body rejected)", [False]) + dl("bounced (no lotteries)", [False]) + [
  "warning: unable to create lock file <*>: No such file or directory",
  "fatal: execvp <*>: No such file or directory",   # local's child running a command
  # anvil.c, postsuper.c, postqueue.c
  "statistics: max connection rate <*>/<*>s for (<*>) at <*>", "statistics: max connection count <*> for (<*>) at <*>",
  "statistics: max cache size <*> at <*>",
  "Requeued: <*> message<*>", "Deleted: <*> message<*>", "Released from hold: <*> message<*>",
  "fatal: Cannot flush queue ID - invalid name: \"<*>\"",
])

# Squid 5.7 (Debian's squid 5.7-2+deb12u6), cache_log with debug_options
# ALL,1 33,2 17,2, run with -N (no kid prefix): debug.cc's _db_print
# writes debugLogTime()'s "%Y/%m/%d %H:%M:%S" (with ".%03d" milliseconds
# once a section logs above level 1) and "| ", and for a message above level
# 1 the section and level ("%d,%d| ") and the call site's file, line and
# function ("%s(%d) %s: "), so all that is header. Debug::Extra continues
# a message on a new line that starts with four spaces and has no header,
# and tools.cc's PrintRusage fprintf()s three lines with none. Templates
# from the debugs() streams in src/ (the literal text between the values
# a stream prints): main.cc, client_side.cc, servers/Http1Server.cc,
# FwdState.cc, ip/QosConfig.cc, base/ (AsyncCall.cc, AsyncCallQueue.cc),
# helper.cc, store_rebuild.cc, store/Disks.cc, fs/ufs/, log/File.cc,
# log/ModStdio.cc, icmp/ (IcmpSquid.cc, IcmpPinger.cc, the pinger),
# auth/*/Scheme.cc, fd.cc, tools.cc, dns_internal.cc, unlinkd.cc,
# cache_cf.cc, ipcache.cc, AccessLogEntry.cc. A helper's, scheme's or
# error page's name, a connection's description, URLs, paths, counts and
# addresses are values; strerror text and an errorType's name chosen for
# the failure (ERR_READ_TIMEOUT, ERR_READ_ERROR, [none]) are event text.
# The function's name in the header is the tag that keeps swanSong's
# template, a lone value, to that function's lines.
SQ = "<*>"
SYSTEMS["squid"] = (r"^(?P<h>(?:\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(?:\.\d{3})?\| (?:\d+,\d+\| [\w./]+\(\d+\) (?P<tag>[\w:~]+): )?)?)(?P<m>.*)$", [
  # main.cc, tools.cc and the store at start-up, reconfiguration and shut-down
  "Set Current Directory to <*>", "Starting Squid Cache version <*> for <*>...", "Service Name: <*>", "Process ID <*>",
  "Process Roles: <*>", "With <*> file descriptors available", "Initializing IP Cache...",
  "DNS Socket created at <*>, FD <*>", "Adding nameserver <*> from squid.conf",
  "helperOpenServers: Starting <*>/<*> '<*>' processes", "helperOpenServers: No '<*>' processes needed.",
  "Starting new <*> helpers...",
  "Logfile: opening log <*>", "Logfile: closing log <*>", "WARNING: log name now starts with a module name. Use '<*>'",
  "logfileRotate: <*>", "Rotate log file <*>",
  "Unlinkd pipe opened on FD <*>", "Closing unlinkd pipe on FD <*>",
  "Local cache digest enabled; rebuild/rewrite every <*>/<*> sec", "Store logging disabled",
  "Swap maxSize <*> + <*> KB, estimated <*> objects", "Target number of buckets: <*>", "Using <*> Store buckets",
  "Max Mem  size: <*> KB", "Max Swap size: <*> KB", "Rebuilding storage in <*> (no log)",
  "Using Least Load store dir selection", "Finished loading MIME types and icons.", "HTCP Disabled.",
  "Pinger socket opened on FD <*>", "Closing Pinger socket on FD <*>", "Squid plugin modules loaded: <*>",
  "Adaptation support is off.", "Accepting HTTP Socket connections at <*>",
  "Done scanning <*> dir (<*> entries)", "Finished rebuilding storage from disk.",
  "<*> Entries scanned", "<*> Invalid entries.", "<*> With invalid flags.", "<*> Objects loaded.", "<*> Objects expired.",
  "<*> Objects cancelled.", "<*> Duplicate URLs purged.", "<*> Swapfile clashes avoided.",
  "  Took <*> seconds (<*> objects/sec).", "Beginning Validation Procedure", "  Completed Validation Procedure",
  "  Validated <*> Entries", "  store_swap_size = <*> KB", "storeLateRelease: released <*> objects",
  "pinger: Initialising ICMP pinger ...", "pinger: ICMP socket opened.", "pinger: ICMPv6 socket opened", "Pinger exiting.",
  "Reconfiguring Squid Cache (version <*>)...", "Closing HTTP(S) port <*>",
  "Startup: Initializing Authentication Schemes ...", "Startup: Initialized Authentication Scheme '<*>'",
  "Startup: Initialized Authentication.", "Processing Configuration File: <*> (depth <*>)", "Initializing https:// proxy context",
  "storeDirWriteCleanLogs: Starting...", "  Finished.  Wrote <*> entries.", "  Took <*> seconds (<*> entries/sec).",
  "Preparing for shutdown after <*> requests", "Waiting <*> seconds for active connections to finish",
  "Shutdown: NTLM authentication.", "Shutdown: Negotiate authentication.", "Shutdown: Digest authentication.",
  "Shutdown: Basic authentication.", "Shutting down...",
  "CPU Usage: <*> seconds = <*> user + <*> sys", "Maximum Resident Size: <*> KB", "Page faults with physical i/o: <*>",   # tools.cc, no header
  "Open FD <*> <*> <*>",   # fd.cc, setw-padded type, number and description
  "Squid Cache (Version <*>): Exiting normally.", "Removing PID file (<*>)",
  "    current master transaction: <*>",   # AccessLogEntry.cc via Debug::Extra, no header
  # sections 33 and 17 at level 2
  "QOS: Failed to retrieve connection mark: (<*>) (<*>) Operation not permitted (Destination <*>, source <*>)",
  "Forwarding client request <*>, url=<*>",
  ("swanSong", "<*>"),   # client_side.cc's swanSong logs the connection alone: tried only on its lines
  "<*> Connection was closed", "Invalid Request",
  "self=<*> err=[none] <*>", "self=<*> err=ERR_READ_TIMEOUT <*>", "self=<*> err=ERR_READ_ERROR <*>",
  "make call <*> [<*>]", "The AsyncCall <*> constructed, this=<*> [<*>]", "<*> will call <*>(<*>) [<*>]",
  "entering <*>(<*>)", "leaving <*>(<*>)",
])

# Samba 4.17.12 smbd (Debian's samba 2:4.17.12+dfsg-0+deb12u4), one log
# file, log level 2 with auth_audit:3, debug prefix timestamp and debug
# hires timestamp: lib/util/debug.c's dbghdrclass writes "[%s, %2d] " of
# the time and the message's level, and the message follows after two more
# spaces, so all that is header; a message's later lines (the version's
# copyright line, interface lines) have no header. DBG_ERR and its kind
# add the function's name and ": " to the message (__func__, compile-time:
# event text). Templates from the DEBUG/DBG_* calls in source3/
# (smbd/server.c, smbd/smb2_service.c, smbd/open.c, smbd/close.c,
# smbd/smb2_process.c, auth/auth.c, param/loadparm.c, lib/tallocmsg.c,
# lib/dmallocmsg.c, lib/interface.c, profile/profile.c,
# rpc_server/rpc_host.c), auth/auth_log.c (the "Auth:" audit line, whose
# " became ..." or " mapped to ..." part is chosen by the status) and
# lib/tdb. A word chosen by a conditional at the call site ("signed ",
# read=Yes/No, write=Yes/No) and an NT status or strerror text are event
# text, one event each; user, domain, share, file, machine and address
# names, SIDs, service and password-type names and times are values.
AUTH = "Auth: [<*>,<*>] user [<*>]\\[<*>] at [<*>] with [<*>] status [%s] workstation [<*>] remote host [<*>]%s local host [<*>] <*>"
BECAME, MAPPED = " became [<*>]\\[<*>] [<*>].", " mapped to [<*>]\\[<*>]."
OPENED = "<*> opened file <*> read=%s write=%s (numopen=<*>)"
SYSTEMS["samba"] = (r"^(?P<h>(?:\[\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{6}, +\d+\]   )?)(?P<m>.*)$", [
  "smbd version <*> started.", "  Copyright Andrew Tridgell and the Samba Team 1992-2022",
  "uid=<*> gid=<*> euid=<*> egid=<*>", "Registered MSG_REQ_POOL_USAGE", "Registered MSG_REQ_DMALLOC_MARK and LOG_CHANGED",
  "INFO: Profiling turned OFF from pid <*>", "Processing section \"[<*>]\"",
  "tdb(<*>): tdb_open_ex: could not open file <*>: No such file or directory",
  "waiting for connections", "  added interface <*> ip=<*> bcast=<*> netmask=<*>",
  "parent: Reloading services after SIGHUP", "rpc_worker_exited: No worker with PID <*>",
  "idmap range not specified for domain '<*>'",
  "process_usershare_file: stat of <*> failed. Permission denied",
  # authentication (auth/auth.c, auth/auth_log.c)
  "check_ntlm_password:  authentication for user [<*>] -> [<*>] -> [<*>] succeeded",
  "check_ntlm_password:  Authentication for user [<*>] -> [<*>] FAILED with error NT_STATUS_WRONG_PASSWORD, authoritative=<*>",
  "check_ntlm_password:  Authentication for user [<*>] -> [<*>] FAILED with error NT_STATUS_NO_SUCH_USER, authoritative=<*>",
  AUTH % ("NT_STATUS_OK", BECAME), AUTH % ("NT_STATUS_WRONG_PASSWORD", MAPPED), AUTH % ("NT_STATUS_NO_SUCH_USER", MAPPED),
  # tree connects (smbd/smb2_service.c)
  "<*> (<*>) signed connect to service <*> initially as user <*> (uid=<*>, gid=<*>) (pid <*>)",
  "<*> (<*>) connect to service <*> initially as user <*> (uid=<*>, gid=<*>) (pid <*>)",
  "<*> (<*>) closed connection to service <*>",
  "create_connection_session_info: guest user (from session setup) not permitted to access this share (<*>)",
  "create_connection_session_info: user '<*>' (from session setup) not permitted to access this share (<*>)",
  "create_connection_session_info failed: NT_STATUS_ACCESS_DENIED",
  "make_connection_snum: canonicalize_connect_path failed for service <*>, path <*>",
  # files (smbd/open.c, smbd/close.c), the connection (smbd/smb2_process.c)
  OPENED % ("Yes", "No"), OPENED % ("No", "No"), OPENED % ("Yes", "Yes"),
  "<*> closed file <*> (numopen=<*>) NT_STATUS_OK",
  "open_directory: unable to create <*>. Error was NT_STATUS_ACCESS_DENIED",
  "read_fd_with_timeout failed for client <*> read error = NT_STATUS_END_OF_FILE.",
])

# PowerDNS Authoritative Server 4.7.3 (Debian's pdns-server 4.7.3-2 with
# pdns-backend-bind), daemon=no, guardian=no, disable-syslog, log-timestamp,
# loglevel 6, log-dns-queries: logger.cc writes the time "%b %d %H:%M:%S "
# before each message to stdout, so that is the header. Templates from the
# g_log streams in pdns/ (auth-main.cc, tcpreceiver.cc, packethandler.cc,
# nameserver.cc, distributor.hh, dynhandler.cc, dynlistener.cc,
# ueberbackend.cc, unix_utility.cc, secpoll-auth.cc, version.cc) and
# modules/bindbackend/bindbackend2.cc (whose "[bindbackend]" prefix is its
# d_logprefix, set once). A query line is one event per logging site (UDP
# in auth-main.cc, TCP in tcpreceiver.cc), per optional piece (the
# " (%d)" of a raw EDNS size) and per cache outcome (HIT, MISS); an
# exception's text is event text where the exception is a literal with
# values (zoneparser-tng.cc, the bind backend's DBException,
# tcpreceiver.cc's NetworkError); names, types, addresses, counts and paths
# are values.
PQ = "%sRemote <*> wants '<*>|<*>', do = <*>, bufsize = <*>%s: packetcache %s"
SYSTEMS["pdns"] = (r"^(?P<h>[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d )(?P<m>.*)$", [
  "Loading '<*>'", "[bind2backend] This is the bind backend version <*> (with bind-dnssec-db support) reporting",
  "This is a standalone pdns", "Listening on controlsocket in '<*>'", "UDP server bound to <*>", "TCP server bound to <*>",
  "PowerDNS Authoritative Server <*> (C) 2001-2022 PowerDNS.COM BV", "Using <*>-bits mode. Built using <*>.",
  "PowerDNS comes with ABSOLUTELY NO WARRANTY. This is free software, and you are welcome to redistribute it according to the terms of the GPL version 2.",
  "Set effective group id to <*>", "Set effective user id to <*>",
  "Not validating response for security status update, this is a non-release version",
  "[bindbackend] Parsing <*> domain(s), will report when done", "[bindbackend] parsing '<*>' from file '<*>'",
  "[bindbackend] error at <*> parsing '<*>' from file '<*>': SOA record contents for <*> contains too many parts",
  "[bindbackend] Done parsing domains, <*> rejected, <*> new, <*> removed",
  "Error parsing '<*>' from file '<*>': SOA record contents for <*> contains too many parts",
  "Creating backend connection for TCP", "About to create <*> backend threads for UDP", "Done launching threads, ready to distribute questions",
  PQ % ("", "", "MISS"), PQ % ("", " (<*>)", "MISS"), PQ % ("TCP ", "", "MISS"), PQ % ("", "", "HIT"), PQ % ("TCP ", "", "HIT"),
  "Backend reported condition which prevented lookup (Zone for '<*>' in '<*>' not loaded (file missing, corrupt or master dead)) sending out servfail",
  "Received NOTIFY for <*> from <*> but slave support is disabled in the configuration",
  "AXFR-out zone '<*>', client '<*>', transfer initiated", "AXFR-out zone '<*>', client '<*>', denied: client IP has no permission",
  "AXFR-out zone '<*>', client '<*>', failed: client may not request AXFR",
  "AXFR-out zone '<*>', client '<*>', failed: not authoritative",
  "AXFR-out zone '<*>', client '<*>', allowed: client IP is in allow-axfr-ips", "AXFR-out zone '<*>', client '<*>', AXFR finished",
  "TCP Connection Thread died because of network error: Error reading DNS data from TCP client <*>: Timeout reading data",
  "TCP Connection Thread died because of network error: Error reading DNS data from TCP client <*>: Did not fulfill read from TCP due to EOF",
  "TCP Connection Thread died because of network error: Timeout reading data",
  "TCP nameserver had error, cycling backend: Zone for '<*>' in '<*>' not loaded (file missing, corrupt or master dead)",
  "TCP server is without backend connections, launching", "TCP server is without backend connections in doAXFR, launching",
  "Cache clear request for '<*>' received from operator", "Cache clear request received from operator",
  "Rediscovery was requested", "Reload was requested",
  "Zone '<*>' (<*>) needs reloading", "Zone '<*>' (<*>) reloaded",
])

if __name__ == "__main__":
    cli.main(SYSTEMS)

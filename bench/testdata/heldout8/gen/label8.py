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

if __name__ == "__main__":
    cli.main(SYSTEMS)

#!/bin/bash
# Seeded DNS traffic against named on 127.0.0.1:5353: authoritative answers,
# NXDOMAIN, forwarded names whose forwarder is closed (SERVFAIL), recursion
# refused to a second source address, zone transfers with and without the key,
# dynamic updates signed, unsigned and to a zone that allows none, and rndc
# commands (reload, freeze/thaw, flush, querylog off and on).
RANDOM=$2
D=/tmp/i12/ho5/bind
Q="dig +tries=1 +time=3 -p 5353 @127.0.0.1"
N=(www mail api db ftp ns1 nosuch1 old printer vpn git wiki)
Z=(example.test corp.test)
T=(A AAAA MX TXT ANY SOA NS CNAME)
R="rndc -s 127.0.0.1 -p 9953 -k $D/rndc.key"
for i in $(seq 1 $1); do
  n=${N[$((RANDOM % 12))]}.${Z[$((RANDOM % 2))]}; t=${T[$((RANDOM % 8))]}
  case $((RANDOM % 15)) in
    0|1|2|3) $Q $n $t >/dev/null ;;
    4) $Q -b 127.0.0.2 $n $t >/dev/null ;;
    5) e=(debian.org example.com host$RANDOM.lan golang.org); $Q ${e[$((RANDOM % 4))]} A >/dev/null ;;
    6) e=(debian.org example.com); $Q -b 127.0.0.3 ${e[$((RANDOM % 2))]} A >/dev/null ;;
    7) $Q ${Z[$((RANDOM % 2))]} AXFR >/dev/null ;;
    8) $Q -y hmac-sha256:xfr:$(sed -n 's/.*secret "\(.*\)";/\1/p' $D/xfr.key) example.test AXFR >/dev/null ;;
    9) printf 'server 127.0.0.1 5353\nzone example.test\nupdate add h%d.example.test 300 A 127.0.2.%d\nsend\n' $RANDOM $((RANDOM % 250)) | nsupdate -k $D/ddns.key 2>/dev/null ;;
    10) printf 'server 127.0.0.1 5353\nzone example.test\nupdate delete h%d.example.test A\nsend\n' $RANDOM | nsupdate 2>/dev/null ;;
    11) printf 'server 127.0.0.1 5353\nzone corp.test\nupdate add x%d.corp.test 300 A 127.0.3.1\nsend\n' $RANDOM | nsupdate -k $D/ddns.key 2>/dev/null ;;
    12) $Q nosuch.${Z[$((RANDOM % 2))]} $t +norecurse >/dev/null; $Q -b 127.0.0.2 host.broken.test A >/dev/null ;;
    13) case $((RANDOM % 6)) in 0) $R reload >/dev/null;; 1) $R freeze example.test >/dev/null; $R thaw example.test >/dev/null;; 2) $R flush >/dev/null;; 3) $R querylog off >/dev/null; $Q www.example.test A >/dev/null; $R querylog on >/dev/null;; 4) $R reload corp.test >/dev/null;; 5) $R reconfig >/dev/null;; esac ;;
    14) $Q -b 127.0.0.2 www.example.test A +tcp >/dev/null ;;
  esac
done

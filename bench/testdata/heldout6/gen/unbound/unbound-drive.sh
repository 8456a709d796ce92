#!/bin/bash
# Seeded clients of unbound on 127.0.0.1:5354: dig queries of local-data
# names (present and missing, 7 types), always_nxdomain, refuse, redirect,
# deny, inform and transparent local zones, an auth zone, a forward zone and
# the root forwarded to closed ports (SERVFAIL), clients that are refused,
# denied or allowed to snoop, malformed UDP packets and truncated TCP, bursts
# of parallel queries, and unbound-control reload/flush/local_data/zone
# edits and an auth-zone reload of a broken and a fixed zone file. $1 = steps, $2 = seed.
RANDOM=$2
D=/work/tmp-ho6/unbound
Q="dig +tries=1 +time=2 -p 5354 @127.0.0.1"
C="unbound-control -c $D/unbound.conf"
T=(A AAAA MX TXT PTR SRV NS)
N=(nas.home.test printer.home.test home.test mail.home.test missing.home.test
   x.ads.test ads.test a.tracker.test www.blocked.test blocked.test gw.lan.test nope.lan.test
   a.drop.test x.inform.test y.inform.test www.corp.test db.corp.test corp.test none.corp.test
   svc.fwd.test example.com www.debian.org)
for i in $(seq 1 $1); do
  n=${N[$((RANDOM % ${#N[@]}))]}; t=${T[$((RANDOM % 7))]}
  case $((RANDOM % 20)) in
    0|1|2|3|4|5|6|7) $Q $n $t >/dev/null 2>&1 ;;
    8) $Q -b 127.0.0.2 $n >/dev/null 2>&1 ;;
    9) $Q -b 127.0.0.3 $n >/dev/null 2>&1 ;;
    10) $Q -b 127.0.0.4 +norecurse $n >/dev/null 2>&1 ;;
    11) $Q +tcp $n $t >/dev/null 2>&1 ;;
    12) head -c $((5 + RANDOM % 40)) /dev/urandom | nc -u -w 1 127.0.0.1 5354 >/dev/null 2>&1 ;;
    13) printf '\x00\x40garbage' | nc -q 1 127.0.0.1 5354 >/dev/null 2>&1 ;;
    14) for k in $(seq 1 $((4 + RANDOM % 9))); do $Q +retry=0 +time=1 q$k.fwd.test >/dev/null 2>&1 & done; wait ;;
    15) $Q r$RANDOM.example.net $t >/dev/null 2>&1 ;;
    16) case $((RANDOM % 6)) in
          0) $C reload >/dev/null ;;
          1) $C flush $n >/dev/null ;;
          2) $C flush_zone home.test >/dev/null ;;
          3) $C local_data "h$((RANDOM % 50)).home.test. 60 IN A 192.168.1.$((RANDOM % 250))" >/dev/null ;;
          4) $C local_data_remove "h$((RANDOM % 50)).home.test." >/dev/null ;;
          5) $C flush_infra all >/dev/null ;;
        esac ;;
    17) case $((RANDOM % 4)) in
          0) $C local_zone "z$((RANDOM % 9)).test." static >/dev/null ;;
          1) $C local_zone_remove "z$((RANDOM % 9)).test." >/dev/null ;;
          2) $C reload >/dev/null ;;
          3) $C flush_bogus >/dev/null ;;
        esac ;;
    18) if ((RANDOM % 2)); then printf 'www IN A 10.1.0.%d\n' $((256 + RANDOM % 700)) >> $D/corp.test.zone; fi
        $C auth_zone_reload corp.test. >/dev/null 2>&1; cp $D/corp.test.zone.good $D/corp.test.zone ;;
    19) $Q -x 10.1.0.$((RANDOM % 9)) >/dev/null 2>&1 ;;
  esac
done

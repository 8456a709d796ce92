#!/bin/bash
# Seeded clients of lighttpd on 127.0.0.1:8088 (curl and raw nc): present and
# missing files, denied suffixes, a client address denied everything, basic
# auth with right, wrong and unknown users, CGI scripts that succeed, write to
# stderr, send a bad header, crash or are too slow, a proxy and a FastCGI
# backend whose ports are closed, malformed and oversized requests, bodies past
# max-request-size, idle clients, SIGHUP (log reopen) and SIGUSR1 (graceful
# restart). $1 = steps, $2 = seed.
RANDOM=$2
D=/work/tmp-ho6/lighttpd
U=http://127.0.0.1:8088
G="curl -s -o /dev/null -m 8"
F=(a b c report notes x missing old gone)
R=("GET / HTTP/1.1\r\nHost: x\r\n\r\n" "GARBAGE\r\n\r\n" "GET /files/a.txt HTTP/9.9\r\nHost: x\r\n\r\n"
   "GET /files/a.txt HTTP/1.1\r\n\r\n" "GET noslash HTTP/1.1\r\nHost: x\r\n\r\n" "GET /%%zz HTTP/1.1\r\nHost: x\r\n\r\n"
   "POST /files/a.txt HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n" "GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"
   "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n" "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n")
for i in $(seq 1 $1); do
  f=${F[$((RANDOM % 9))]}
  case $((RANDOM % 22)) in
    0|1|2|3) $G $U/files/$f.txt ;;
    4) $G $U/files/$f.bak ;;
    5) $G $U/old/$f.txt; $G $U/go/$f.txt ;;
    6) $G --interface 127.0.0.3 $U/files/$f.txt ;;
    7) u=(alice bob eve mallory); p=(wonder builder guess ""); $G -u ${u[$((RANDOM % 4))]}:${p[$((RANDOM % 4))]} $U/private/s.txt ;;
    8) u=(alice root); $G -u ${u[$((RANDOM % 2))]}:wonder $U/admin/ ;;
    9) $G $U/private/s.txt ;;
    10) s=(ok warn bad crash); e=(sh sh sh py); k=$((RANDOM % 4)); $G "$U/cgi-bin/${s[$k]}.${e[$k]}?id=$RANDOM" ;;
    11) $G -m 2 $U/cgi-bin/slow.sh ;;
    12) $G $U/api/v$((RANDOM % 3))/items ;;
    13) $G $U/index$((RANDOM % 4)).php ;;
    14) printf "${R[$((RANDOM % ${#R[@]}))]}" | nc -q 2 127.0.0.1 8088 >/dev/null 2>&1 ;;
    15) head -c $((70000 + RANDOM)) /dev/zero | $G -X POST --data-binary @- $U/cgi-bin/ok.sh ;;
    16) (printf 'GET / HTTP/1.1\r\nHost: x\r\n'; sleep 5) | nc -q 1 127.0.0.1 8088 >/dev/null 2>&1 & ;;
    17) $G -H "X-Big: $(head -c $((3000 + RANDOM % 3000)) /dev/zero | tr '\0' a)" $U/ ;;
    18) $G $U/dir/; $G $U/server-status ;;
    19) $G "$U/files/../../etc/passwd"; $G $U/cgi-bin/none$((RANDOM % 5)).sh ;;
    20) $G -r $((RANDOM % 50))-$((RANDOM % 50 + 50)) $U/files/report.txt; $G -X DELETE $U/files/$f.txt ;;
    21) if ((RANDOM % 3)); then kill -HUP $(cat $D/lighttpd.pid); else kill -USR1 $(cat $D/lighttpd.pid); sleep 1; fi ;;
  esac
done
wait

#!/bin/bash
# 1500 seeded steps against haproxy (fe_web :8081 httplog, fe_api :8082 custom
# log-format, fe_tcp :8083 tcplog): present and missing files, denied paths,
# a backend slower than the server timeout, a closed backend, 429s, malformed
# requests, TCP echo sessions, and app servers stopped and started again so
# that health checks fail and recover; admin-socket commands put servers in
# and out of maintenance.
RANDOM=5151
D=/tmp/i12/ho5/haproxy
cd $D
start() { kill -0 $(cat $D/app$1.pid 2>/dev/null) 2>/dev/null && return; python3 -m http.server --bind 127.0.0.1 --directory $D/www $1 >/dev/null 2>&1 & echo $! > $D/app$1.pid; }
stop() { [ -f $D/app$1.pid ] && kill $(cat $D/app$1.pid) 2>/dev/null; rm -f $D/app$1.pid; }
adm() { echo "$1" | socat - UNIX-CONNECT:$D/admin.sock >/dev/null 2>&1; }
for i in $(seq 1 1500); do
  f=$((RANDOM % 20 + 1))
  case $((RANDOM % 16)) in
    0|1|2) curl -s -o /dev/null http://127.0.0.1:8081/f$f.bin ;;
    3) curl -s -o /dev/null http://127.0.0.1:8081/missing/p$RANDOM ;;
    4) p=(admin private/keys admin/users); curl -s -o /dev/null http://127.0.0.1:8081/${p[$((RANDOM%3))]} ;;
    5) curl -s -o /dev/null -m 4 http://127.0.0.1:8081/slow/q$f ;;
    6) curl -s -o /dev/null http://127.0.0.1:8081/dead/x$f ;;
    7) curl -s -o /dev/null -X POST -d "v=$RANDOM" http://127.0.0.1:8082/f$f.bin ;;
    8) curl -s -o /dev/null http://127.0.0.1:8082/ping ;;
    9) curl -s -o /dev/null http://127.0.0.1:8082/limited/$RANDOM ;;
    10) printf 'BREW /pot%d HTCPCP\r\n\r\n' $RANDOM | nc -q 1 127.0.0.1 8081 >/dev/null 2>&1 ;;
    11) printf 'hello %d\n' $RANDOM | nc -q 0 127.0.0.1 8083 >/dev/null 2>&1 ;;
    12) case $((RANDOM % 4)) in 0) stop 9102;; 1) start 9102;; 2) stop 9103;; 3) start 9103;; esac; sleep 0.$((RANDOM % 9 + 1)) ;;
    13) s=(app1 app2 app3); v=${s[$((RANDOM%3))]}; case $((RANDOM % 4)) in 0) adm "disable server be_app/$v";; 1) adm "enable server be_app/$v";; 2) adm "set server be_app/$v state drain";; 3) adm "set server be_app/$v state ready";; esac ;;
    14) curl -s -o /dev/null -I http://127.0.0.1:8081/f$f.bin ;;
    15) case $((RANDOM % 3)) in 0) kill $(cat $D/echo9106.pid) 2>/dev/null;; *) kill -0 $(cat $D/echo9106.pid) 2>/dev/null || { python3 $D/echosrv.py 9106 >/dev/null 2>&1 & echo $! > $D/echo9106.pid; };; esac; sleep 0.5 ;;
  esac
done

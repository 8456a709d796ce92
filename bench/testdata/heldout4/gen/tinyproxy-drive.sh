#!/bin/bash
# 320 seeded requests through tinyproxy on 127.0.0.1:8899: present and missing
# files on a local http.server, blocked and unresolvable hosts, a closed port,
# CONNECT to an allowed and a refused port, HEAD and POST.
RANDOM=4242
P=http://127.0.0.1:8899
for i in $(seq 1 320); do
  f=$((RANDOM % 20 + 1))
  case $((RANDOM % 10)) in
    0|1|2) curl -s -o /dev/null -x $P http://127.0.0.1:8898/pub/file$f.bin ;;
    3) curl -s -o /dev/null -x $P http://127.0.0.1:8898/missing/item$RANDOM ;;
    4) curl -s -o /dev/null -I -x $P http://127.0.0.1:8898/pub/file$f.bin ;;
    5) curl -s -o /dev/null -x $P -d "k=$RANDOM" http://127.0.0.1:8898/form ;;
    6) h=(blocked.example ads.test www.blocked.example); curl -s -o /dev/null -x $P http://${h[$((RANDOM%3))]}/page$f ;;
    7) h=(nohost.invalid mirror$f.internal db.lan); curl -s -o /dev/null -m 6 -x $P http://${h[$((RANDOM%3))]}/ ;;
    8) curl -s -o /dev/null -x $P http://127.0.0.1:$((9 + RANDOM % 3))/ ;;
    9) if ((RANDOM % 2)); then curl -s -o /dev/null -p -x $P http://127.0.0.1:8898/pub/file$f.bin; else curl -s -o /dev/null -p -x $P http://127.0.0.1:2$((RANDOM%1000))/; fi ;;
  esac
done

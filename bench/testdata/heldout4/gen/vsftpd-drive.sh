#!/bin/bash
# 260 seeded FTP sessions with curl against vsftpd on 127.0.0.1:2121:
# listings, present and missing downloads, uploads allowed and refused,
# active and passive mode, quoted DELE/MKD/SIZE, local users refused.
RANDOM=1212
F=ftp://127.0.0.1:2121
U=(alice bob carol dave erin)
for i in $(seq 1 260); do
  f=$((RANDOM % 12 + 1))
  case $((RANDOM % 11)) in
    0|1) curl -s -o /dev/null $F/pub/ ;;
    2|3) curl -s -o /dev/null $F/pub/pkg$f.tar ;;
    4) curl -s -o /dev/null $F/pub/none$RANDOM.tar ;;
    5) head -c $((RANDOM % 900)) /dev/urandom | curl -s -T - $F/upload/up$i.dat ;;
    6) head -c 100 /dev/urandom | curl -s -T - $F/pub/up$i.dat ;;
    7) curl -s -o /dev/null -P 127.0.0.1 $F/pub/pkg$f.tar ;;
    8) q=("DELE pub/pkg$f.tar" "MKD newdir$f" "SIZE pub/pkg$f.tar" "MDTM pub/pkg$f.tar" "SITE CHMOD 777 pub"); curl -s -o /dev/null -Q "${q[$((RANDOM%5))]}" $F/ ;;
    9) curl -s -o /dev/null -u ${U[$((RANDOM%5))]}:pw$RANDOM $F/ ;;
    10) curl -s -o /dev/null $F/nodir$f/ ;;
  esac
done

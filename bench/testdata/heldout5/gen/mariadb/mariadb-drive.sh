#!/bin/bash
# Seeded client sessions against mariadbd on its socket and on 127.0.0.1:3307:
# good sessions (inserts, duplicate keys, statement-unsafe DELETE ... LIMIT),
# wrong passwords, unknown users, denied databases, idle sessions past
# wait_timeout, clients killed mid-query, KILL from an admin session, raw
# garbage on the TCP port, and events that fail or succeed. $1 = steps, $2 = seed.
RANDOM=$2
S=/tmp/i12/ho5/mariadb/run/mysqld.sock
M="mysql --protocol=socket -S $S"
U=(ghost admin deploy backup test guest oracle pi webadmin sa)
for i in $(seq 1 $1); do
  k=$((RANDOM % 1000))
  case $((RANDOM % 14)) in
    0|1) $M -uapp -papppw shop -e "INSERT INTO items VALUES ($k,'item$k',$((RANDOM%50)))" 2>/dev/null ;;
    2) $M -uapp -papppw shop -e "DELETE FROM items WHERE qty < $((RANDOM%10)) LIMIT 2; UPDATE items SET qty=qty+1 LIMIT 3" 2>/dev/null ;;
    3) u=(app rep ops); $M -u${u[$((RANDOM%3))]} -pwrong$RANDOM -e "SELECT 1" 2>/dev/null ;;
    4) $M -u${U[$((RANDOM%10))]} -ppw$RANDOM -e "SELECT 1" 2>/dev/null ;;
    5) mysql -h127.0.0.1 -P3307 -u${U[$((RANDOM%10))]} -e "SELECT 1" 2>/dev/null ;;
    6) $M -urep -preppw shop -e "SELECT 1" 2>/dev/null ;;
    7) (sleep 3.5) | $M -uapp -papppw shop 2>/dev/null & ;;
    8) $M -uapp -papppw shop -e "SELECT SLEEP(4)" >/dev/null 2>&1 & p=$!; sleep 0.$((RANDOM % 5 + 3)); kill -9 $p 2>/dev/null ;;
    9) $M -uops -popspw -e "SELECT SLEEP(5)" >/dev/null 2>&1 & sleep 0.5; id=$($M -uops -popspw -N -e "SELECT id FROM information_schema.processlist WHERE info LIKE 'SELECT SLEEP(5)%' LIMIT 1" 2>/dev/null); [ -n "$id" ] && $M -uops -popspw -e "KILL $id" 2>/dev/null ;;
    10) printf 'GET / HTTP/1.0\r\n\r\n' | nc -q 1 127.0.0.1 3307 >/dev/null 2>&1 ;;
    11) e=ev$((RANDOM % 6)); if ((RANDOM % 2)); then $M -uops -popspw shop -e "CREATE OR REPLACE EVENT $e ON SCHEDULE AT CURRENT_TIMESTAMP DO INSERT INTO shop.nosuch$((RANDOM%3)) VALUES (1)" 2>/dev/null; else $M -uops -popspw shop -e "CREATE OR REPLACE EVENT $e ON SCHEDULE AT CURRENT_TIMESTAMP DO INSERT INTO logs.ev (msg) VALUES ('tick')" 2>/dev/null; fi ;;
    12) $M -uapp -papppw nosuchdb$((RANDOM%3)) -e "SELECT 1" 2>/dev/null ;;
    13) mysql -h127.0.0.1 -P3307 -uapp -papppw shop -e "INSERT INTO items VALUES ($k,'dup',1)" 2>/dev/null ;;
  esac
done
wait

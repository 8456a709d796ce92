#!/bin/bash
# Drives memcached -vv on 127.0.0.1:11299 with seeded text-protocol sessions.
keys=(user:alice user:bob session:web cart:42 config feature-flags rate:api token:ci page:home page:about queue:mail)
RANDOM=21
for i in $(seq 1 260); do
  k=${keys[$((RANDOM % ${#keys[@]}))]}
  case $((RANDOM % 7)) in
    0|1) printf 'set %s 0 60 %d\r\n%s\r\nquit\r\n' "$k" ${#i} "$i" ;;
    2) printf 'get %s\r\nquit\r\n' "$k" ;;
    3) printf 'delete %s\r\nquit\r\n' "$k" ;;
    4) printf 'incr counter:%d 1\r\nquit\r\n' $((RANDOM % 5)) ;;
    5) printf 'add %s 0 0 1\r\nx\r\nquit\r\n' "$k" ;;
    6) printf 'bogus %s\r\nquit\r\n' "$k" ;;
  esac | timeout 2 nc -q1 127.0.0.1 11299 >/dev/null
done

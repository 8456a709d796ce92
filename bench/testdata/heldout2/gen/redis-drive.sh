#!/bin/bash
# Drives the redis-server on 127.0.0.1:6399: seeded clients, saves, bad commands.
R="redis-cli -p 6399"
RANDOM=9
for i in $(seq 1 400); do
  case $((RANDOM % 9)) in
    0|1|2) $R set key:$RANDOM v$i >/dev/null ;;
    3) $R incr counter >/dev/null ;;
    4) $R lpush queue job$i >/dev/null ;;
    5) $R nosuchcommand $i >/dev/null 2>&1 ;;
    6) $R bgsave >/dev/null 2>&1 ;;
    7) $R client list >/dev/null ;;
    8) redis-benchmark -p 6399 -q -n 200 -c 3 -t set,get >/dev/null 2>&1 ;;
  esac
  if [ $((i % 100)) = 0 ]; then $R config set maxmemory $((i * 1000000)) >/dev/null; $R save >/dev/null; sleep 6; fi
done
$R shutdown >/dev/null 2>&1

#!/bin/bash
# Drives the sshd on 127.0.0.1:2222 with a seeded mix of clients.
users=(admin oracle test guest ubuntu postgres git deploy pi ftpuser support user1 tomcat nagios mysql hadoop jenkins www-data backup operator mail info sales webmaster student alex maria john dev ansible zabbix elastic redis docker vagrant centos debian minecraft teamspeak)
RANDOM=7
O="-o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=5 -p 2222"
for i in $(seq 1 300); do
  r=$((RANDOM % 10))
  u=${users[$((RANDOM % ${#users[@]}))]}
  case $r in
    0|1|2|3) ssh $O -i otherkey $u@127.0.0.1 true ;;
    4|5) ssh $O -i userkey root@127.0.0.1 "echo $i" ;;
    6) ssh $O -i otherkey root@127.0.0.1 true ;;
    7) ssh $O -o PreferredAuthentications=none $u@127.0.0.1 true ;;
    8) (echo "SSH-2.0-probe_$i"; sleep 0.2) | timeout 2 nc -q1 127.0.0.1 2222 >/dev/null ;;
    9) echo "GET / HTTP/1.0" | timeout 2 nc -q1 127.0.0.1 2222 >/dev/null ;;
  esac
done

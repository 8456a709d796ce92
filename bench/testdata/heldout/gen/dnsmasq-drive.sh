#!/bin/bash
names=(printer nas router camera laptop desktop tv thermostat backup printer.lan nas.lan ads.example.com tracker.example.net www.debian.org deb.debian.org github.com proxy.golang.org registry.npmjs.org pypi.org files.pythonhosted.org security.debian.org mirror.local wiki.corp intranet.corp unknownhost gitlab mailserver ntp.ubuntu.com time.google.com)
types=(A A A AAAA MX TXT A PTR)
RANDOM=11
for i in $(seq 1 700); do
  n=${names[$((RANDOM % ${#names[@]}))]}
  t=${types[$((RANDOM % ${#types[@]}))]}
  if [ $t = PTR ]; then n=-x; n="$n 192.168.1.$((RANDOM % 14))"; t=""; fi
  dig @127.0.0.1 -p 5353 +tries=1 +time=1 +short $n $t >/dev/null 2>&1 &
  if [ $((i % 8)) = 0 ]; then wait; fi
done
wait

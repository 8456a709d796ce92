#!/bin/bash
# Sum of package-init clock time (ms) of `ctx version` (GODEBUG=inittrace=1)
# per build, N interleaved rounds; binaries at /tmp/i15/ctx-BUILD. Usage: init.sh BUILD...
N=${N:-15}
for r in $(seq $N); do
  for b in "$@"; do
    s=$(GODEBUG=inittrace=1 /tmp/i15/ctx-$b version 2>&1 >/dev/null | awk '/^init /{for(i=1;i<=NF;i++) if($(i+1)=="ms" && $(i+2)=="clock,") s+=$i} END{printf "%.3f", s}')
    echo "$b $s"
  done
done | awk '{a[$1]=a[$1]" "$2} END{for(k in a) print k, a[k]}' | while read b vals; do
  echo "$b $(echo $vals | tr ' ' '\n' | sort -n | awk '{v[NR]=$1} END{printf "median %.3f min %.3f max %.3f n %d", v[int((NR+1)/2)], v[1], v[NR], NR}')"
done

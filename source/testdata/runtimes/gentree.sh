#!/bin/sh
# gentree.sh DIR: 20,000 tracked 8 KiB files in 100 directories, committed,
# the index settled, then 200 of them modified (BenchmarkGeneration's tree).
set -e
d=$1
mkdir -p "$d" && cd "$d"
git init -q .
body=$(head -c 8192 /dev/zero | tr '\0' 'a')
for dd in $(seq 0 99); do mkdir -p d$dd; done
i=0
while [ $i -lt 20000 ]; do printf %s "$body" > d$((i % 100))/f$i.go; i=$((i+1)); done
git add . && git -c user.name=t -c user.email=t@t commit -qm base
sleep 1.1; git status --porcelain >/dev/null
i=0
while [ $i -lt 20000 ]; do printf %sx "$body" > d$((i % 100))/f$i.go; i=$((i+100)); done

#!/bin/sh
# gorootree.sh DIR: $(go env GOROOT)/src copied to DIR and committed, the
# index settled, then every 110th tracked .go file edited (70 with go1.26):
# the "Go source tree" rows of BENCHMARKS.md, issue 15.
set -e
cp -r "$(go env GOROOT)/src" "$1" && cd "$1"
git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm base
sleep 1.1; git status --porcelain >/dev/null
git ls-files '*.go' | awk 'NR % 110 == 0' | while read -r f; do echo "// x" >> "$f"; done
git status --porcelain | wc -l

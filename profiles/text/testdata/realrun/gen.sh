#!/bin/sh
# gen.sh regenerates the real-run generic-text fixtures in this directory
# (layout: ../../../gotest/testdata/realrun/README.md). The Go sources read
# are the Go distribution's own ($(go env GOROOT)), so the outputs are real and
# reproducible with the same Go version (1.26.8 here); the system logs are this
# machine's. Run it from this directory: sh gen.sh
set -u
here=$(pwd)
work=/tmp/ctx-realrun/text
rm -rf "$work"
mkdir -p "$work"
cd "$work"
. "$here/../../../internal/realrun.sh"
root=$(go env GOROOT)
# Three Go files with their formatting broken (indentation removed).
mkdir -p fmt
for f in errors/wrap.go errors/join.go io/pipe.go; do
	sed 's/^[[:space:]]*//' "$root/src/$f" > "fmt/$(basename $f)"
done
rec gofmt-d gofmt -d fmt/
rec cat-go cat "$root/src/errors/wrap.go"
cp -r "$root/src/errors" "$root/src/os" . 2>/dev/null
rec find-error "cd $root/src && find . -name '*err*'"
rec grep-err "grep -rn 'err != nil' os/ | head -300"
rec dpkg-log "tail -n 400 /var/log/dpkg.log"
rec alternatives-log "tail -n 300 /var/log/alternatives.log"
# A shell script that fails half way.
cat > build.sh <<'X'
set -e
echo "building 3 modules"
for m in alpha beta gamma; do echo "compiling $m"; done
ls ./missing-config.yaml
echo "never reached"
X
rec script-fail sh build.sh
printf 'all:\n\t@echo compiling\n\t@cc -o app nosuch.c\n' > Makefile
rec make-fail make
rec ls-long "ls -la $root/src/os"
# Many distinct error lines (one per missing file): more than the budget holds.
rec stat-missing "cd $root/src/os && stat \$(ls | sed 's/\$/.gone/')"
# A repetitive output with one line unlike the others (no error word in it).
rec loop-odd "for i in \$(seq 1 400); do echo \"copied block \$i of 400\"; [ \$i = 257 ] && echo 'checksum differs at block 257, block re-read'; done; echo done"

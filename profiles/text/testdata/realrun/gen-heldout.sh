#!/bin/sh
# gen-heldout.sh records the generic-text fixtures made after the anomaly
# rules were written (issue 10's held-out set; gen.sh holds the others): one
# real error line amid calm output, and a linter that fails on findings.
# Layout: ../../../gotest/testdata/realrun/README.md. Run it from this
# directory: sh gen-heldout.sh
set -u
here=$(pwd)
work=/tmp/ctx-realrun/text-heldout
rm -rf "$work"
mkdir -p "$work"
cd "$work"
. "$here/../../../internal/realrun.sh"
root=$(go env GOROOT)
# find over three trees, the middle one missing: one error line among paths
# (stderr folded into stdout, as an agent's 2>&1 does).
rec find-missing "find $root/src/net $root/src/nosuchpkg $root/src/strconv $root/src/sort 2>&1"
# compileall over a copy of a few stdlib packages with one file broken: a
# Python SyntaxError report amid "Compiling ..." lines.
mkdir -p py
for p in asyncio email http json logging xml; do
	cp -r /usr/lib/python3.11/$p py/
done
find py -name __pycache__ -prune -exec rm -rf {} +
printf 'def broken(:\n    pass\n' > py/email/m_broken.py
rec compileall "/usr/bin/python3 -m compileall py"
# shellcheck (0.9, Debian) on a script with quoting findings: a linter that
# exits 1 on warnings.
cat > deploy.sh <<'X'
#!/bin/sh
dir=$1
for f in $(ls $dir); do
  cp $dir/$f /tmp/backup/
done
cd $dir
echo "copied `ls | wc -l` files"
X
rec shellcheck shellcheck deploy.sh
# shellcheck's gcc format over this machine's own shell scripts (gzip's
# and gettext's): findings of every severity, exit 1.
rec shellcheck-gcc "cp /usr/bin/gettext.sh /usr/bin/zgrep /usr/bin/zdiff /usr/bin/znew . && shellcheck -f gcc gettext.sh zgrep zdiff znew"
rec shellcheck-tty "shellcheck gettext.sh zgrep zdiff znew"
# An output that is empty: gofmt -l over formatted sources lists nothing.
rec gofmt-clean "gofmt -l $root/src/errors"
# go build -x with an empty build cache: the commands go runs, many lines over
# 240 bytes (compile and link command lines), in an output too large to show
# whole.
mkdir -p gbx
printf 'module example.com/m\n\ngo 1.22\n' > gbx/go.mod
printf 'package main\n\nfunc main() { println("hi") }\n' > gbx/main.go
rec go-build-x "cd gbx && GOCACHE=$work/gocache GOFLAGS= go build -x -o /dev/null . 2>&1"

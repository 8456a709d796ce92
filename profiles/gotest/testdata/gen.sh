#!/bin/sh
# gen.sh regenerates the real go test outputs in this directory from the
# scratch module in mod/ (copied to a temporary directory so that paths and
# caches do not depend on the checkout). Run it from this directory:
#
#	sh gen.sh
#
# Each case NAME is written as NAME.stdout and NAME.stderr; the exit status
# is listed in cases.txt. Timings, addresses and goroutine numbers differ
# between runs; the tests only depend on the shape.
set -u
here=$(pwd)
work=$(mktemp -d /tmp/gotest-gen.XXXXXX)
cp -r mod "$work/mod"
cd "$work/mod"
export GOFLAGS=-count=1 GOWORK=off GOPROXY=off
: > "$here/cases.txt"
run() {
	name=$1
	shift
	"$@" > "$here/$name.stdout" 2> "$here/$name.stderr"
	echo "$name $? $*" >> "$here/cases.txt"
}
run plain go test -timeout 5s ./...
run verbose go test -v -timeout 5s ./...
run json go test -json -timeout 5s ./...
run race go test -race ./race/
run race-v go test -race -v ./race/
run race-json go test -race -json ./race/
run timeout go test -timeout 2s ./timeout/
run timeout-v go test -v -timeout 2s ./timeout/
run timeout-json go test -json -timeout 2s ./timeout/
run bench go test -run XXX -bench . -benchmem ./bench/
run bench-v go test -v -bench . -benchmem ./bench/
run bench-json go test -json -bench . ./bench/
GOFLAGS= go test -cover ./pass/ ./notests/ ./noruntests/ > /dev/null 2>&1
run cached env GOFLAGS= go test -cover ./pass/ ./notests/ ./noruntests/
run notorun go test -v -run XXX ./noruntests/
run pattern go test ./nonexistent/...
run count go test -v -count=2 ./fail/
cd "$work"
run nomodule go test ./...
run nomodule-json go test -json ./...
run gocmd go test
cd "$here"
rm -rf "$work"

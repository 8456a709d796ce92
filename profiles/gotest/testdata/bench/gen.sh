#!/bin/sh
# gen.sh regenerates the large real go test outputs the throughput benchmark
# (BenchmarkParse) reads: the verbose and -json runs of eight standard-library
# packages with many tests and subtests (run it from this directory; it takes
# about a minute of CPU). The failures come from ../verbose.stdout and
# ../json.stdout, which the benchmark appends to each copy.
set -eu
export GOFLAGS=-count=1
pkgs="strings bytes strconv regexp sort unicode/utf8 encoding/json path/filepath"
go test -v $pkgs 2>&1 | gzip -9 > stdlib-v.txt.gz
go test -json $pkgs 2>&1 | gzip -9 > stdlib-json.txt.gz
# held out from tuning (issue 21, go test -v): other standard-library
# packages and a module's ./... with deep subtests (BurntSushi/toml v1.6.0
# from the module cache)
{
	go test -v math/big text/template net/url unicode fmt bufio container/list 2>&1
	(cd "$(go env GOMODCACHE)/github.com/!burnt!sushi/toml@v1.6.0" && go test -v ./... 2>&1)
} | gzip -9 > heldout-v.txt.gz

#!/bin/sh
# The floor of a tree-sitter Go outline: builds floor.c against
# go-tree-sitter's C sources from the module cache with the flags given
# (default cgo's: -O2 -g) and times a bare ts_parser_parse_string over the
# files named (e.g. $(go env GOROOT)/src/net/http/*.go). BENCHMARKS.md,
# issue 15. Usage: floor.sh "-O2 -g" FILE...
set -e
flags=${1:--O2 -g}; shift
ts=$(go list -m -f '{{.Dir}}' github.com/smacker/go-tree-sitter)
out=$(mktemp -d)
for c in "$ts"/*.c; do
	[ "$(basename "$c")" = bindings.c ] && continue
	gcc $flags -std=c11 -I"$ts" -c "$c" -o "$out/ts_$(basename "$c" .c).o"
done
gcc $flags -I"$ts" -c "$ts/golang/parser.c" -o "$out/go_grammar.o"
gcc $flags -I"$ts" -c "$(dirname "$0")/floor.c" -o "$out/floor.o"
gcc -o "$out/floor" "$out"/*.o
ROUNDS=${ROUNDS:-3} "$out/floor" "$@"
rm -rf "$out"

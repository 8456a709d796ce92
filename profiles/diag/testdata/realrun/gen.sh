#!/bin/sh
# gen.sh regenerates the real-run compiler and linter fixtures in this
# directory (layout: ../../../gotest/testdata/realrun/README.md): gcc 12,
# go vet, node --check and python3 -m py_compile on small broken sources.
# Run it from this directory: sh gen.sh
set -u
here=$(pwd)
work=/tmp/ctx-realrun/diag
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export GOFLAGS=-count=1 GOWORK=off GOPROXY=off
. "$here/../../../internal/realrun.sh"
cat > main.c <<'X'
#include <stdio.h>
int helper(int);
int main(void) {
	int unused;
	printf("%d\n", helper(2));
	return 0;
}
X
cat > bad.c <<'X'
#include <stdio.h>
struct point { int x, y; };
int area(struct point p) {
	return p.x * p.z;
}
int main(void) {
	char *s = 42;
	int n = "text";
	undeclared_call(n);
	return area(s)
}
X
rec gcc-fatal gcc -c nosuch.c
rec gcc-noinput gcc
rec gcc-link gcc -Wall -o app main.c
rec gcc-errors gcc -Wall -c bad.c
rec gcc-errors-fdiag gcc -Wall -fdiagnostics-format=text -fno-diagnostics-show-caret -c bad.c
mkdir -p vet
cat > vet/go.mod <<'X'
module example.com/vet

go 1.22
X
cat > vet/v.go <<'X'
package vet

import (
	"fmt"
	"sync"
)

type T struct{ mu sync.Mutex }

func Copy(t T) T { return t }

func Print(n int) {
	fmt.Printf("%s\n", n)
	fmt.Println("done", n,)
}

func Unreachable() int {
	return 1
	fmt.Println("never")
	return 2
}
X
rec go-vet "cd vet && go vet ./..."
rec go-build-errors "cd vet && printf 'package vet\nfunc Broken() int { return undefinedThing + \"x\" }\nfunc Other() { var x int }\n' > broken.go && go build ./... ; rc=\$?; rm -f broken.go; exit \$rc"
cat > bad.js <<'X'
function ok() { return 1; }
function broken( {
  return 2;
}
X
rec node-check node --check bad.js
cat > bad.py <<'X'
def f(x):
    return x +
X
rec py-compile /usr/bin/python3 -m py_compile bad.py

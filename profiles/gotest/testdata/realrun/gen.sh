#!/bin/sh
# gen.sh regenerates the real-run go test fixtures in this directory (see
# README.md for the layout). It writes a small module to a fixed scratch
# directory, runs go test there in several ways and records each run.
# Run it from this directory: sh gen.sh
set -u
here=$(pwd)
work=/tmp/ctx-realrun/gotest
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export GOFLAGS=-count=1 GOWORK=off GOPROXY=off
. "$here/../../../internal/realrun.sh"
cat > go.mod <<'X'
module example.com/rr

go 1.22
X
mkdir -p gopanic exitpkg testmain fail parallel bench many
cat > gopanic/g_test.go <<'X'
package gopanic

import (
	"testing"
	"time"
)

func TestGo(t *testing.T) {
	go func() { panic("in goroutine") }()
	time.Sleep(time.Second)
}
X
cat > exitpkg/e_test.go <<'X'
package exitpkg

import (
	"os"
	"testing"
)

func TestExit(t *testing.T) { os.Exit(3) }
X
cat > testmain/m_test.go <<'X'
package testmain

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	fmt.Println("setup: database unreachable at localhost:5432")
	os.Exit(1)
}

func TestNever(t *testing.T) {}
X
cat > fail/f_test.go <<'X'
package fail

import "testing"

func TestOne(t *testing.T) {
	t.Log("a log line first")
	t.Errorf("got %d, want %d", 1, 2)
}

func TestOK(t *testing.T) {}
X
cat > parallel/p_test.go <<'X'
package parallel

import (
	"testing"
	"time"
)

func TestTable(t *testing.T) {
	cases := []struct {
		name  string
		sleep time.Duration
		ok    bool
	}{{"alpha", 30, false}, {"beta", 10, true}, {"gamma", 0, false}, {"delta", 20, true}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			time.Sleep(c.sleep * time.Millisecond)
			t.Logf("checking %s", c.name)
			if !c.ok {
				t.Errorf("%s: value mismatch", c.name)
			}
		})
	}
}
X
cat > bench/b_test.go <<'X'
package bench

import "testing"

func BenchmarkFast(b *testing.B) {
	for i := 0; i < b.N; i++ {
	}
}

func BenchmarkBroken(b *testing.B) {
	b.Fatalf("fixture missing: %s", "data.bin")
}

func BenchmarkSlow(b *testing.B) {
	for i := 0; i < b.N; i++ {
	}
}
X
{
	echo 'package many'
	echo
	echo 'import "testing"'
	i=1
	while [ $i -le 120 ]; do
		echo "func TestCase$i(t *testing.T) { t.Logf(\"case $i checks the value %d\", $i) }"
		i=$((i + 1))
	done
	echo 'func TestBroken(t *testing.T) { t.Fatalf("want status 200, got %d", 503) }'
} > many/m_test.go
rec pkgfail go test ./gopanic/ ./exitpkg/ ./testmain/ ./fail/
rec pkgfail-v go test -v ./gopanic/ ./exitpkg/ ./testmain/ ./fail/
rec pkgfail-json go test -json ./gopanic/ ./exitpkg/ ./testmain/ ./fail/
rec failmsg go test ./fail/
rec parallel-v go test -v ./parallel/
rec parallel-json go test -json ./parallel/
rec parallel go test ./parallel/
rec bench-json go test -json -run XXX -bench . -benchtime 100x ./bench/
rec bench-v go test -v -run XXX -bench . -benchtime 100x ./bench/
rec many-v go test -v ./many/
rec many-json go test -json ./many/

package pass

import (
	"fmt"
	"testing"
)

func TestAdd(t *testing.T) {
	t.Log("adding")
	if Add(1, 2) != 3 {
		t.Fatal("bad")
	}
}

func TestPrintsFailure(t *testing.T) {
	fmt.Println("--- FAIL: TestFake (0.00s)")
	fmt.Println("FAILED something")
	fmt.Println("Traceback (most recent call last):")
	fmt.Println("panic: not really")
	t.Log("FAIL")
}

func TestTable(t *testing.T) {
	for _, n := range []string{"one", "two words"} {
		t.Run(n, func(t *testing.T) { t.Parallel(); t.Log(n) })
	}
}

func TestSkipped(t *testing.T) { t.Skip("not today") }

package fail

import "testing"

func TestOne(t *testing.T) {
	t.Log("a log line first")
	t.Errorf("got %d, want %d", 1, 2)
}

func TestSub(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) {
		t.Fatalf("sub failed:\nmulti\nline")
	})
	t.Run("nested", func(t *testing.T) {
		t.Run("deep", func(t *testing.T) { t.Error("deep fail") })
	})
}

func TestParallelA(t *testing.T) {
	t.Parallel()
	t.Error("parallel A fails")
}

func TestParallelB(t *testing.T) {
	t.Parallel()
	t.Log("B fine")
}

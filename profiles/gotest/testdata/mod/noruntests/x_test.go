package noruntests

import "testing"

func TestA(t *testing.T) {}

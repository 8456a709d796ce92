package initpanic

import "testing"

func init() { panic("init boom") }

func TestNever(t *testing.T) {}

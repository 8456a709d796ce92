package exitpkg

import (
	"os"
	"testing"
)

func TestFirst(t *testing.T) {}

func TestExit(t *testing.T) { os.Exit(3) }

package setup

import (
	_ "example.com/nonexistent/pkg"
	"testing"
)

func TestS(t *testing.T) {}

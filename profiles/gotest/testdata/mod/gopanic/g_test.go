package gopanic

import (
	"testing"
	"time"
)

func TestGo(t *testing.T) {
	go func() { panic("in goroutine") }()
	time.Sleep(time.Second)
}

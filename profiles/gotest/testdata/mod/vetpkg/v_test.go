package vetpkg

import (
	"fmt"
	"testing"
)

func TestV(t *testing.T) {
	fmt.Printf("%d\n", "str")
}

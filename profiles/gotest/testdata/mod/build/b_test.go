package build

import "testing"

func TestX(t *testing.T) {
	y := undefinedThing
	var z int = "s"
}

package pytest

import "testing"

// TestIsPytestBinIsTheRegexp: the prefix check before the regexp changes no
// answer.
func TestIsPytestBinIsTheRegexp(t *testing.T) {
	for _, s := range []string{"", "pytest", "py.test", "pytest-3", "pytest3.11", "pytest.exe", "py.test-2.7.exe", "xpytest",
		"pytestx", "py_test", "python", "true", "pyt", "PyTest", "pytest-", "pytest-3.", "py.tes"} {
		if got, want := isPytestBin(s), pytestBin.MatchString(s); got != want {
			t.Errorf("%q: isPytestBin %v, the regexp %v", s, got, want)
		}
	}
}

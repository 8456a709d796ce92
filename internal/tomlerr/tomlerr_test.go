package tomlerr

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

type step struct {
	Timeout  string            `toml:"timeout"`
	Env      map[string]string `toml:"env"`
	Continue bool              `toml:"continue_on_failure"`
	Argv     []string          `toml:"argv"`
}

// A value of the wrong type is explained in the file's terms: its key and
// what it should hold, never the Go struct field and type.
func TestExplainTypeMismatch(t *testing.T) {
	for doc, want := range map[string]string{
		"[[step]]\ntimeout = 5\n":                   `line 2 column 11: key "step.timeout": want a string (in quotes: "…"), not a TOML integer`,
		"[[step]]\nenv = [\"A=1\"]\n":               `key "step.env": want a table of strings ({ KEY = "value" }), not a TOML array`,
		"[[step]]\ncontinue_on_failure = \"yes\"\n": `key "step.continue_on_failure": want true or false, not a TOML string`,
		"[[step]]\nargv = \"go test\"\n":            `key "step.argv": want an array of strings (["a", "b"]), not a TOML string`,
	} {
		var f struct {
			Step []step `toml:"step"`
		}
		err := toml.NewDecoder(bytes.NewReader([]byte(doc))).DisallowUnknownFields().Decode(&f)
		got := Describe(err, "KEYS").Error()
		if !strings.Contains(got, want) || strings.Contains(got, "struct field") {
			t.Errorf("%q:\n got  %s\n want %s", doc, got, want)
		}
	}
}

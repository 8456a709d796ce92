package source

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// requireTool skips when a tool is missing, except in CI where it must be
// there (.ci/run installs it).
func requireTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing in CI: %v", name, err)
		}
		t.Skipf("%s not installed", name)
	}
}

// TestOutlineMatchesGoDoc outlines a real package from the module cache
// (go-toml, a dependency of ctx) and compares its exported declarations with
// what `go doc -all` lists.
func TestOutlineMatchesGoDoc(t *testing.T) {
	requireTool(t, "go")
	const pkg = "github.com/pelletier/go-toml/v2"
	dirOut, err := exec.Command("go", "list", "-f", "{{.Dir}}\n{{range .GoFiles}}{{.}}\n{{end}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	fields := strings.Fields(string(dirOut))
	dir, files := fields[0], fields[1:]
	doc, err := exec.Command("go", "doc", "-all", pkg).Output()
	if err != nil {
		t.Fatalf("go doc -all %s: %v", pkg, err)
	}
	var want []string
	for _, l := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(l, "func ("):
			recv, rest, _ := strings.Cut(l[len("func ("):], ")")
			name, _, _ := strings.Cut(strings.TrimSpace(rest), "(")
			want = append(want, "method "+goReceiver(recv)+"."+name)
		case strings.HasPrefix(l, "func "):
			name, _, _ := strings.Cut(l[len("func "):], "(")
			name, _, _ = strings.Cut(name, "[")
			want = append(want, "function "+name)
		case strings.HasPrefix(l, "type ") && !strings.HasPrefix(l, "type ("):
			want = append(want, "type "+strings.Fields(l)[1])
		}
	}
	var got []string
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		o := Parse(f, src)
		if o.Partial {
			t.Errorf("%s: partial outline: %s", f, o.Note)
		}
		for _, d := range o.Decls {
			exported := true
			for _, part := range strings.Split(d.Name, ".") {
				exported = exported && part != "" && part[0] >= 'A' && part[0] <= 'Z'
			}
			if exported {
				got = append(got, d.Kind+" "+d.Name)
			}
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(want) < 20 {
		t.Fatalf("go doc listed only %d declarations; the comparison would prove little", len(want))
	}
	if !slices.Equal(got, want) {
		t.Errorf("outline and go doc differ\n got: %v\nwant: %v", got, want)
	}
}

// goReceiver turns go doc's "(s *Store[K]" into "Store".
func goReceiver(r string) string {
	r = strings.Trim(r, "()")
	if i := strings.LastIndexAny(r, " \t*"); i >= 0 {
		r = r[i+1:]
	}
	if i := strings.IndexByte(r, '['); i >= 0 {
		r = r[:i]
	}
	return strings.TrimSpace(r)
}

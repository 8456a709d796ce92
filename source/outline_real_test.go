//go:build cgo

package source

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// TestOutlineMatchesPyclbr outlines modules of Debian's python3 standard
// library and compares every class and function (nested ones too) with
// pyclbr: same qualified names, same first and last lines.
func TestOutlineMatchesPyclbr(t *testing.T) {
	requireTool(t, "python3")
	const prog = `
import json, os, pyclbr, sys, sysconfig
lib = sysconfig.get_paths()["stdlib"]
out = {}
for mod in sys.argv[1:]:
    rows = []
    def walk(objs, prefix):
        for name, o in objs.items():
            if getattr(o, "module", None) != mod:
                continue
            rows.append([prefix + name, o.lineno, o.end_lineno])
            walk(o.children, prefix + name + ".")
    walk(pyclbr.readmodule_ex(mod, path=[lib]), "")
    out[mod] = {"file": os.path.join(lib, mod.replace(".", "/") + ".py"), "rows": sorted(rows)}
print(json.dumps(out))
`
	mods := []string{"textwrap", "argparse", "dataclasses", "shlex", "fractions", "tomllib._parser"}
	out, err := exec.Command("python3", append([]string{"-c", prog}, mods...)...).Output()
	if err != nil {
		t.Fatalf("python3 pyclbr: %v", err)
	}
	var res map[string]struct {
		File string
		Rows [][3]any
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	for _, mod := range mods {
		r := res[mod]
		src, err := os.ReadFile(r.File)
		if err != nil {
			t.Fatal(err)
		}
		o := Parse(filepath.Base(r.File), src)
		if o.Partial {
			t.Errorf("%s: partial: %s", mod, o.Note)
		}
		var got, want []string
		for _, row := range r.Rows {
			want = append(want, strings.TrimSpace(strings.Join([]string{row[0].(string), num(row[1]), num(row[2])}, " ")))
		}
		for _, d := range o.Decls {
			// pyclbr keeps one entry per name: the last definition wins.
			got = append(got, d.Name+" "+itoa(d.Start)+" "+itoa(d.End))
		}
		got = lastPerName(got)
		slices.Sort(got)
		slices.Sort(want)
		if len(want) < 10 {
			t.Fatalf("%s: pyclbr listed %d entries", mod, len(want))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: outline and pyclbr differ\n got: %v\nwant: %v", mod, got, want)
		}
	}
}

func num(v any) string { return itoa(int(v.(float64))) }

func itoa(i int) string { return strconv.Itoa(i) }

// lastPerName keeps the last "name start end" row of each name, in order.
func lastPerName(rows []string) []string {
	last := map[string]string{}
	var order []string
	for _, r := range rows {
		name, _, _ := strings.Cut(r, " ")
		if _, ok := last[name]; !ok {
			order = append(order, name)
		}
		last[name] = r
	}
	var out []string
	for _, n := range order {
		out = append(out, last[n])
	}
	return out
}

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

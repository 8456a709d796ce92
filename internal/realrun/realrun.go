// Package realrun loads the recorded runs of real tools that the profiles keep
// under profiles/*/testdata/realrun, so the receipt property test and
// `ctx bench realrun` check every fixture whichever profile recorded it.
//
// Two layouts are read, both described in the README beside the fixtures:
//
//	realrun/NAME/{cmd,exit,stdout,stderr}          cmd: the command line as typed
//	realrun/NAME.{argv,exit,stdout,stderr}         argv: a JSON array of words
//
// It only reads files; it never runs anything.
package realrun

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/cmdline"
)

// Fixture is one recorded run.
type Fixture struct {
	Name   string // PROFILE/NAME
	Dir    string // the realrun directory holding it
	Argv   []string
	Exit   int
	Stdout []byte
	Stderr []byte
	// StdoutPath and StderrPath are the files read ("" when the stream was
	// empty and not recorded).
	StdoutPath, StderrPath string
}

// Load reads every fixture under root (the repository), sorted by name.
func Load(root string) ([]Fixture, error) {
	base := filepath.Join(root, "profiles", "*", "testdata", "realrun")
	dirs, err := filepath.Glob(filepath.Join(base, "*", "cmd"))
	if err != nil {
		return nil, err
	}
	argvs, err := filepath.Glob(filepath.Join(base, "*.argv"))
	if err != nil {
		return nil, err
	}
	var out []Fixture
	for _, cmd := range dirs {
		dir := filepath.Dir(cmd)
		line, err := os.ReadFile(cmd)
		if err != nil {
			return nil, err
		}
		text := strings.TrimSpace(string(line))
		argv, err := cmdline.Split(text)
		if err != nil {
			argv = []string{"sh", "-c", text} // shell syntax: it ran under sh -c
		}
		f := Fixture{Name: profileOf(filepath.Dir(dir)) + "/" + filepath.Base(dir), Dir: filepath.Dir(dir), Argv: argv}
		if err := f.read(filepath.Join(dir, "exit"), filepath.Join(dir, "stdout"), filepath.Join(dir, "stderr")); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	for _, p := range argvs {
		name := strings.TrimSuffix(filepath.Base(p), ".argv")
		dir := filepath.Dir(p)
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f := Fixture{Name: profileOf(dir) + "/" + name, Dir: dir}
		if err := json.Unmarshal(b, &f.Argv); err != nil {
			return nil, fmt.Errorf("real-run fixture %s: want a JSON array of the command's words: %w", p, err)
		}
		stem := filepath.Join(dir, name)
		if err := f.read(stem+".exit", stem+".stdout", stem+".stderr"); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	for _, f := range out {
		if len(f.Argv) == 0 {
			return nil, fmt.Errorf("real-run fixture %s: no command line", f.Name)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (f *Fixture) read(exitPath, stdoutPath, stderrPath string) error {
	ex, err := os.ReadFile(exitPath)
	if err != nil {
		return fmt.Errorf("real-run fixture %s: every fixture records its exit status: %w", f.Name, err)
	}
	if f.Exit, err = strconv.Atoi(strings.TrimSpace(string(ex))); err != nil {
		return fmt.Errorf("real-run fixture %s: %s: %w", f.Name, exitPath, err)
	}
	for _, s := range []struct {
		path string
		into *[]byte
		at   *string
	}{{stdoutPath, &f.Stdout, &f.StdoutPath}, {stderrPath, &f.Stderr, &f.StderrPath}} {
		b, err := os.ReadFile(s.path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		*s.into, *s.at = b, s.path
	}
	return nil
}

// profileOf names the profile of a .../profiles/PROFILE/testdata/realrun dir.
func profileOf(realrunDir string) string {
	return filepath.Base(filepath.Dir(filepath.Dir(realrunDir)))
}

package qcmd

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/source"
)

type outlineOptions struct {
	paths []string
	json  bool
}

// maxOutlineFiles bounds a directory walk; past it ctx says so and stops.
const maxOutlineFiles = 5000

// NewOutlineCmd is ctx outline.
func NewOutlineCmd(ios *cli.IO) *cobra.Command {
	o := &outlineOptions{}
	c := &cobra.Command{
		Use:   "outline FILE|DIR...",
		Short: "List the declarations of source files, with repo: handles",
		Long: `Outline source files with tree-sitter: functions, methods, types and classes
with their line ranges, imports, and for tests the identity the test runner
prints (TestFoo for go test, tests/test_x.py::TestA::test_b for pytest,
tests::adds for cargo test, "outer › case" for jest and vitest). Each
declaration carries a repo: handle with a content anchor; ctx get resolves it
and follows the content if lines are inserted above it.

Languages: Go, Python, JavaScript/JSX, TypeScript/TSX, Rust, Java, C, C++.
Parsing is fail open: a file with syntax errors, or in a language without a
grammar, is listed as partial with the reason. A ctx built without cgo has no
grammars and says so.

Exit status: 0 listed; 1 a path does not exist or leaves the repository;
2 usage error.`,
		Example: `  ctx outline store/db.go
  ctx outline tests/ --json
  ctx get repo:store/db.go#Store.Put`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cli.Usagef("want ctx outline FILE|DIR...")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return runOutline(cmd.Context(), ios, o)
		},
	}
	c.Flags().BoolVar(&o.json, "json", false, "print the outlines as JSON")
	return c
}

// outlineEntry is one declaration with its minted handle.
type outlineEntry struct {
	source.Decl
	Handle string `json:"handle"`
}

type outlineFile struct {
	*source.Outline
	Entries []outlineEntry `json:"decls"`
}

func runOutline(ctx context.Context, ios *cli.IO, o *outlineOptions) error {
	cwd, err := ios.Getwd()
	if err != nil {
		return err
	}
	root := source.Root(ctx, cwd)
	var files []string
	for _, p := range o.paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return cli.WithCode(cli.ExitBad, err)
		}
		if _, err := source.Confine(root, filepath.ToSlash(rel)); err != nil {
			return cli.WithCode(cli.ExitBad, err)
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if n := d.Name(); path != p && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "vendor" || n == "target") {
					return filepath.SkipDir
				}
				return nil
			}
			if path == p || source.Lang(path) != "" {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return cli.WithCode(cli.ExitBad, err)
		}
	}
	var out []outlineFile
	truncated := len(files) > maxOutlineFiles
	if truncated {
		files = files[:maxOutlineFiles]
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return cli.WithCode(cli.ExitBad, err)
		}
		rel, _ := filepath.Rel(root, f)
		ol := source.Parse(rel, src)
		of := outlineFile{Outline: ol, Entries: []outlineEntry{}}
		for _, d := range ol.Decls {
			of.Entries = append(of.Entries, outlineEntry{Decl: d, Handle: source.LinesAddress(rel, src, d.Start, d.End).String()})
		}
		out = append(out, of)
	}
	if truncated {
		fmt.Fprintf(ios.Err, "ctx: outlined the first %d files only; name a narrower directory\n", maxOutlineFiles)
	}
	if o.json {
		return cli.WriteJSON(ios.Out, out)
	}
	for _, f := range out {
		fmt.Fprintf(ios.Out, "%s (%s)", f.Path, f.Lang)
		if f.Partial {
			fmt.Fprintf(ios.Out, " partial: %s", f.Note)
		}
		fmt.Fprintln(ios.Out)
		if len(f.Imports) > 0 {
			fmt.Fprintf(ios.Out, "  imports %s\n", strings.Join(f.Imports, ", "))
		}
		for _, e := range f.Entries {
			fmt.Fprintf(ios.Out, "  L%d-%d %s %s %s", e.Start, e.End, e.Kind, e.Name, e.Handle)
			if e.Test != "" {
				fmt.Fprintf(ios.Out, " test %s", e.Test)
			}
			fmt.Fprintln(ios.Out)
		}
	}
	return nil
}

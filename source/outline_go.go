package source

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"

	"github.com/ctxhq/ctx/internal/lines"
)

// Go is outlined with the standard library's go/parser, not tree-sitter:
// it is the parser go doc itself uses, so the declarations match by
// construction; it needs no cgo; and it parses Go about five times faster
// than tree-sitter's Go grammar does on the same bytes (BENCHMARKS.md,
// issue 15), which is what puts outlines over 20 MB/s.

var goTestName = lines.Lazy(`^(Test|Benchmark|Fuzz|Example)([^a-z]|$)`)

// parseGo outlines a Go file: functions, methods (Receiver.Name), types,
// imports, and the go test identity of tests. A file with syntax errors
// yields what parsed before them and says so.
func parseGo(o *Outline, src []byte) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, o.Path, src, parser.SkipObjectResolution)
	if f == nil {
		o.Partial, o.Note = true, fmt.Sprintf("the parser gave up on this file: %v", err)
		return
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	isTest := strings.HasSuffix(o.Path, "_test.go")
	for _, im := range f.Imports {
		if p, uerr := strconv.Unquote(im.Path.Value); uerr == nil {
			o.Imports = append(o.Imports, p)
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			decl := Decl{Kind: "function", Name: d.Name.Name, Start: line(d.Pos()), End: line(d.End())}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				decl.Kind, decl.Name = "method", goRecvName(d.Recv.List[0].Type)+"."+d.Name.Name
			} else if isTest && goTestName.MatchString(d.Name.Name) {
				decl.Test = d.Name.Name
			}
			o.Decls = append(o.Decls, decl)
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				var at ast.Node = ts
				if len(d.Specs) == 1 {
					at = d // a lone type spec spans its whole declaration
				}
				o.Decls = append(o.Decls, Decl{Kind: "type", Name: ts.Name.Name, Start: line(at.Pos()), End: line(at.End())})
			}
		}
	}
	if err != nil {
		o.Partial, o.Note = true, fmt.Sprintf("parse errors from line %d; declarations there may be missing", firstGoError(err, line(f.End())))
	}
}

// goRecvName is the type a receiver names: (s *Store[K]) is Store.
func goRecvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// firstGoError is the line of the first syntax error.
func firstGoError(err error, fallback int) int {
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		return list[0].Pos.Line
	}
	return fallback
}

package gotest

import (
	"strings"

	"github.com/ctxhq/ctx/evidence"
)

// This file reads build output: `# pkg` headers and the compiler or vet
// diagnostics after them (text, usually on stderr), or -json build-output
// events grouped by ImportPath.

func (p *parser) jsonGroup(key string, ln evidence.Span) *group {
	g := p.groupByKey[key]
	if g == nil {
		pkg, _, _ := strings.Cut(key, " [")
		g = &group{seq: p.next(), key: key, pkg: cut(pkg, maxName), tool: "go build", json: true}
		p.groupByKey[key] = g
		p.groups = append(p.groups, g)
	}
	extend(&g.span, ln)
	return g
}

// buildHeader starts a text build block: `# pkg`, `# pkg [pkg.test]`, or the
// vet marker `# [pkg]`.
func (p *parser) buildHeader(ln evidence.Span, rest string) {
	pkg := rest
	vet := false
	if strings.HasPrefix(rest, "[") && strings.HasSuffix(rest, "]") {
		pkg, vet = strings.Trim(rest, "[]"), true
	} else if i := strings.Index(rest, " ["); i > 0 {
		pkg = rest[:i]
	}
	pkg = cut(pkg, maxName)
	g := p.groupByPkg[pkg]
	if g == nil {
		g = &group{seq: p.next(), key: pkg, pkg: pkg, tool: "go build"}
		p.groupByPkg[pkg] = g
		p.groups = append(p.groups, g)
	}
	if vet {
		g.tool = "go vet"
	}
	extend(&g.span, ln)
	p.buildMode = g
}

// headerInto reads a `# …` line inside -json build output.
func (p *parser) headerInto(g *group, ln evidence.Span, rest string) {
	if strings.HasPrefix(rest, "[") && strings.HasSuffix(rest, "]") {
		g.tool = "go vet"
		return
	}
	pkg, _, _ := strings.Cut(rest, " [")
	g.pkg = cut(pkg, maxName)
	extend(&g.span, ln)
}

// buildLine reads a line of build output into g. It reports false when the
// line is not build output (text mode only: -json says so itself).
func (p *parser) buildLine(g *group, ln evidence.Span, s string, isJSON bool) bool {
	if !isJSON && (ends(s) || strings.HasPrefix(s, "go: ")) {
		return false
	}
	last := func() *diag {
		if len(g.diags) == 0 {
			return nil
		}
		return g.diags[len(g.diags)-1]
	}
	switch {
	case strings.TrimSpace(s) == "":
		return isJSON
	case strings.HasPrefix(s, "\t") || strings.HasPrefix(s, "  ") || s == "too many errors":
		if d := last(); d != nil {
			extend(&d.detail, ln)
		}
		extend(&g.span, ln)
		return true
	}
	loc, located := parseLocation(s)
	sev := evidence.SeverityError
	msg := s
	switch {
	case located:
		msg = loc.msg
	case strings.HasPrefix(s, "note: "):
		sev, msg = evidence.SeverityNote, strings.TrimPrefix(s, "note: ")
	case g.errors == 0 || isJSON:
		// A message without a location: "pattern ./...: …", "stat …: directory not found".
	default:
		return false
	}
	if w, ok := strings.CutPrefix(msg, "warning: "); ok && located {
		sev, msg = evidence.SeverityWarning, w
	}
	g.errors++
	p.recognise++
	extend(&g.span, ln)
	if p.diagCount() >= MaxDiags {
		p.diagsCapped++
		return true
	}
	d := &diag{tool: g.tool, pkg: g.pkg, severity: sev, msg: cut(msg, maxMessage), located: located, span: ln, detail: ln}
	if located {
		d.file, d.line, d.col = cut(loc.file, maxName), loc.line, loc.col
	}
	g.diags = append(g.diags, d)
	p.diagsKept++
	return true
}

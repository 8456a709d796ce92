package plan

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/ctxhq/ctx/contract"
	"github.com/ctxhq/ctx/evidence"
	"github.com/ctxhq/ctx/secrets"
)

// Width bounds any line the digest prints from the output.
const (
	lineWidth    = 240
	messageWidth = 200
)

// redactionMark opens the mark that stands for a redacted secret.
const redactionMark = "[REDACTED:"

// clip shortens s to n bytes at a rune boundary, saying how much was cut.
// Secrets are redacted before the cut: a credential cut in two no longer
// matches its rule, so the digest's last redaction pass would let its first
// bytes through. The cut never splits a redaction mark either.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	if red, _ := secrets.Text([]byte(s)); string(red) != s {
		if s = string(red); len(s) <= n {
			return s
		}
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndex(s[:cut], redactionMark); i >= 0 && !strings.Contains(s[i:cut], "]") {
		cut = i
	}
	return s[:cut] + fmt.Sprintf("… [+%s B]", contract.Num(int64(len(s)-cut)))
}

// writeWhere writes " @" and where an item failed: its repo: handle when
// one was minted (the location, anchored), else the location as printed.
func writeWhere(b *strings.Builder, it *evidence.Item) {
	if h := it.Attrs["repo"]; h != "" {
		b.WriteString(" @" + h)
	} else if it.File != "" {
		b.WriteString(" @" + location(it.File, it.Line, 0))
	}
}

// oneLine renders an item on one line.
func oneLine(it *evidence.Item) string {
	var b strings.Builder
	switch it.Kind {
	case evidence.KindTest:
		writeTest(&b, it)
	case evidence.KindDiagnostic:
		writeDiagnostic(&b, it)
	case evidence.KindAnomaly:
		if it.Span.Stream != "" && it.Span.Stream != evidence.Stdout {
			b.WriteString(it.Span.Stream + " ")
		}
		fmt.Fprintf(&b, "L%d", max(it.Line, it.Span.From))
		if it.Count > 1 {
			fmt.Fprintf(&b, " ×%s", contract.Num(int64(it.Count)))
		}
		b.WriteString(": ")
		b.WriteString(clip(oneLineText(it.Text), lineWidth))
	case evidence.KindSummary:
		writeSummary(&b, it)
	case evidence.KindTemplate:
		fmt.Fprintf(&b, "×%s %s", contract.Num(int64(it.Count)), clip(it.Template, lineWidth))
		writeSpan(&b, spanOf(it))
	case evidence.KindHit:
		fmt.Fprintf(&b, "%s: %s", it.File, plural(it.Count, "hit"))
		if it.Line > 0 && it.Text != "" {
			fmt.Fprintf(&b, " (first L%d: %s)", it.Line, clip(oneLineText(it.Text), 100))
		}
	case evidence.KindFile:
		writeFile(&b, it)
	case evidence.KindCommit:
		name := it.Name
		if len(name) > 10 {
			name = name[:10]
		}
		fmt.Fprintf(&b, "%s %s %s %s", name, it.Attrs["date"], it.Attrs["author"], clip(oneLineText(it.Attrs["subject"]), 120))
	case evidence.KindShape:
		fmt.Fprintf(&b, "shape %s ×%s", clip(firstNonEmpty(it.Name, it.Text), lineWidth), contract.Num(int64(it.Count)))
		if it.FirstLine > 0 {
			fmt.Fprintf(&b, " (first L%d)", it.FirstLine)
		}
	case evidence.KindRecord:
		fmt.Fprintf(&b, "record %d", max(it.Line, it.Count))
		if it.Why != "" {
			b.WriteString(" (" + it.Why + ")")
		}
		b.WriteString(": ")
		b.WriteString(clip(oneLineText(firstNonEmpty(it.Text, it.Message)), messageWidth))
		writeSpan(&b, spanOf(it))
	case evidence.KindBinary:
		if enc := bomEncoding(it.Attrs["type"]); enc != "" {
			fmt.Fprintf(&b, "%s: %s %s (it starts with a %s byte-order mark; ctx reads UTF-8 only, so it is not parsed)",
				it.Name, contract.Size(int64(it.Count)), enc, enc)
			break
		}
		fmt.Fprintf(&b, "%s: %s binary (%s)", it.Name, contract.Size(int64(it.Count)), it.Attrs["type"])
	default: // region
		writeRegion(&b, it)
	}
	return b.String()
}

// writeTest renders a test: its outcome, name, message, where and span.
func writeTest(b *strings.Builder, it *evidence.Item) {
	b.WriteString(outcomeWord(it.Outcome))
	b.WriteByte(' ')
	b.WriteString(testName(it))
	msg := it.Message
	if it.Class != "" && !strings.HasPrefix(msg, it.Class) && it.Class != string(it.Outcome) {
		if msg != "" {
			msg = it.Class + ": " + msg
		} else {
			msg = it.Class
		}
	}
	if msg != "" {
		b.WriteString(" — ")
		b.WriteString(clip(oneLineText(msg), messageWidth))
	}
	if it.Why != "" && it.Message == "" {
		// ctx's reading of a failure the tool gave no words for (a
		// test the binary's exit cut short): shown, never a needle.
		b.WriteString(" (" + it.Why + ")")
	}
	if l, r := it.Attrs["left"], it.Attrs["right"]; l != "" || r != "" {
		// An equality assertion's two sides (assert_eq!) are the failure.
		fmt.Fprintf(b, " (left: %s, right: %s)", clip(oneLineText(l), messageWidth/2), clip(oneLineText(r), messageWidth/2))
	}
	writeWhere(b, it)
	writeSpan(b, spanOf(it))
}

// writeDiagnostic renders a diagnostic: location, severity, code, message.
func writeDiagnostic(b *strings.Builder, it *evidence.Item) {
	// A diagnostic with no file is the program's own (cc1, collect2).
	if loc := firstNonEmpty(location(it.File, it.Line, it.Col), it.Tool); loc != "" {
		b.WriteString(loc)
		b.WriteString(": ")
	}
	sev := string(it.Severity)
	if strings.HasSuffix(it.Class, " error") && it.Severity == evidence.SeverityError {
		sev = it.Class // fatal error, internal compiler error
	}
	b.WriteString(sev)
	if it.Code != "" {
		b.WriteString("[" + it.Code + "]")
	}
	b.WriteString(": ")
	b.WriteString(clip(oneLineText(it.Message), messageWidth))
	if h := it.Attrs["repo"]; h != "" {
		b.WriteString(" · " + h)
	}
}

// writeSummary renders a summary: its tool, package, name and counts.
func writeSummary(b *strings.Builder, it *evidence.Item) {
	if it.Tool != "" {
		b.WriteString(it.Tool)
	} else {
		b.WriteString("summary")
	}
	if it.Package != "" {
		b.WriteString(" " + it.Package)
	}
	if it.Name != "" && it.Name != "total" && it.Name != it.Tool && !strings.HasPrefix(it.Name, "session") {
		b.WriteString(" " + it.Name)
	}
	b.WriteString(": ")
	c := counts(it)
	if c == "" && it.Outcome != "" {
		c = outcomeWord(it.Outcome)
	}
	b.WriteString(c)
	if st := it.Attrs["stopped"]; st != "" {
		// The run stopped early (-x, --maxfail, an interrupt): the
		// counts are not the whole suite.
		b.WriteString(" · stopped: ")
		b.WriteString(clip(oneLineText(st), messageWidth))
	}
	if it.Message != "" && !strings.Contains(c, oneLineText(it.Message)) {
		// A package or session that failed as a whole says why.
		b.WriteString(" — ")
		b.WriteString(clip(oneLineText(it.Message), messageWidth))
		writeWhere(b, it)
		writeSpan(b, spanOf(it))
	}
}

// writeFile renders a changed file: its status, path and line counts.
func writeFile(b *strings.Builder, it *evidence.Item) {
	st := it.Attrs["status"]
	if st == "" {
		st = "changed"
	}
	fmt.Fprintf(b, "%s %s", st, it.File)
	if a, r := it.Attrs["added"], it.Attrs["removed"]; a != "" || r != "" {
		fmt.Fprintf(b, " +%s -%s", orZero(a), orZero(r))
	} else if a, ok := it.Counts["added"]; ok {
		fmt.Fprintf(b, " +%d -%d", a, it.Counts["removed"])
	}
	writeSpan(b, spanOf(it))
}

// writeRegion renders a region, or a diff hunk under its file.
func writeRegion(b *strings.Builder, it *evidence.Item) {
	if it.Kind == evidence.KindRegion && it.Why == "hunk" {
		// A diff hunk, under its file: header, function context, its own +/-.
		fmt.Fprintf(b, "  %s +%d -%d", clip(oneLineText(it.Name), messageWidth), it.Counts["added"], it.Counts["removed"])
		writeSpan(b, spanOf(it))
		return
	}
	text := firstNonEmpty(it.Name, it.Text)
	if !strings.Contains(text, it.Why) {
		text = strings.TrimSpace(it.Why + " " + text)
	}
	b.WriteString(clip(oneLineText(text), lineWidth))
	writeSpan(b, spanOf(it))
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return contract.Num(int64(n)) + " " + word + "s"
}

func oneLineText(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

func outcomeWord(o evidence.Outcome) string {
	switch o {
	case evidence.OutcomeFail:
		return "FAIL"
	case evidence.OutcomeError:
		return "ERROR"
	case evidence.OutcomeXPass:
		return "XPASS"
	case evidence.OutcomeXFail:
		return "XFAIL"
	case evidence.OutcomeSkip:
		return "SKIP"
	case evidence.OutcomePass:
		return "PASS"
	}
	return strings.ToUpper(string(o))
}

// testName is the test's identity as the reader would type it.
func testName(it *evidence.Item) string {
	if it.Package == "" || strings.HasPrefix(it.Name, it.Package) {
		return it.Name
	}
	if it.Name == "" {
		return it.Package
	}
	return it.Package + " " + it.Name
}

func location(file string, line, col int) string {
	switch {
	case line > 0 && col > 0:
		return fmt.Sprintf("%s:%d:%d", file, line, col)
	case line > 0:
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

func spanOf(it *evidence.Item) evidence.Span {
	if !it.Detail.IsZero() {
		return it.Detail
	}
	return it.Span
}

// writeSpan appends " [L40-63]" (or " [stderr L40-63]"): lines of the run's
// streams, which the digest's next line teaches how to fetch.
func writeSpan(b *strings.Builder, s evidence.Span) {
	if s.IsZero() {
		return
	}
	b.WriteString(" [")
	b.WriteString(shortSpan(s))
	b.WriteByte(']')
}

func shortSpan(s evidence.Span) string {
	prefix := ""
	if s.Stream != evidence.Stdout {
		prefix = s.Stream + " "
	}
	if s.From == s.To {
		return fmt.Sprintf("%sL%d", prefix, s.From)
	}
	return fmt.Sprintf("%sL%d-%d", prefix, s.From, s.To)
}

// countOrder is the order counts are printed in: the words test tools use,
// failures first; other keys follow alphabetically.
var countOrder = []string{"failed", "fail", "errors", "error", "build_failed", "xpassed", "passed", "pass", "skipped", "skip",
	"xfailed", "deselected", "warnings", "warning", "total", "packages"}

func counts(it *evidence.Item) string {
	if len(it.Counts) == 0 {
		return oneLineText(it.Text)
	}
	var parts []string
	done := map[string]bool{}
	for _, k := range countOrder {
		if v, ok := it.Counts[k]; ok && v != 0 {
			parts = append(parts, fmt.Sprintf("%s %s", contract.Num(int64(v)), k))
			done[k] = true
		}
	}
	keys := evidence.SortedKeys(it.Counts)
	for _, k := range keys {
		if !done[k] && it.Counts[k] != 0 {
			parts = append(parts, fmt.Sprintf("%s %s", contract.Num(int64(it.Counts[k])), k))
		}
	}
	if len(parts) == 0 {
		// Every count is zero ("0 errors"): that is the summary.
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("0 %s", k))
		}
	}
	return strings.Join(parts, " · ")
}

// groupKey is what dense mode groups an item under ("" for no grouping).
func groupKey(it *evidence.Item) string {
	switch it.Kind {
	case evidence.KindTest:
		if f, _, ok := strings.Cut(it.Name, "::"); ok {
			return f
		}
		if it.Package != "" {
			return it.Package
		}
		return it.File
	case evidence.KindDiagnostic:
		return it.File
	case evidence.KindHit:
		if d := path.Dir(it.File); d != "." {
			return d + "/"
		}
		return "./"
	}
	return ""
}

// shortName is an item's name inside its dense group.
func shortName(it *evidence.Item) string {
	switch it.Kind {
	case evidence.KindTest:
		if _, n, ok := strings.Cut(it.Name, "::"); ok {
			return n
		}
		return it.Name
	case evidence.KindDiagnostic:
		s := fmt.Sprintf("%d", it.Line)
		if it.Code != "" {
			s += " " + it.Code
		}
		return s
	case evidence.KindHit:
		return fmt.Sprintf("%s %d", path.Base(it.File), it.Count)
	}
	return oneLine(it)
}

// sortedGroups returns group keys in first-appearance order of their items.
func sortedGroups(order []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range order {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// bomEncoding names the UTF-16 encoding a stream's byte-order mark declares
// (the sniffer's "text/plain; charset=utf-16le" or "…be"), or "" for any
// other type. Such a stream is not UTF-8, so ctx does not parse it, but
// calling it binary would be wrong: it is most likely text (Windows tools
// write UTF-16LE), and the digest says what it is and how to read it.
func bomEncoding(typ string) string {
	switch typ {
	case "text/plain; charset=utf-16le":
		return "UTF-16LE"
	case "text/plain; charset=utf-16be":
		return "UTF-16BE"
	}
	return ""
}

package capsule

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxhq/ctx/store"
)

const sample = `
goal = "make ctx get stream merged views"
state = "merged view reads whole stream into memory"
next_action = "replace readAll in store/merged.go with a frame iterator"
evidence = ["run:4f1c0a9e2b77#stdout:L40-52"]
rejected = ["mmap the pack file"]
constraints = ["no new dependency"]
open_questions = ["does the pty mode keep arrival order?"]

[[critical]]
id = "cu-next"
field = "next_action"

[[critical]]
id = "cu-ev"
field = "evidence"
item = 0

[[validity]]
id = "vc-window"
kind = "time_window"
not_after = "2026-12-31T00:00:00Z"

[[negative_knowledge]]
id = "nk-mmap"
hypothesis = "mmap the pack file"
why_invalid = "pack files are rewritten by compaction"
state = "rejected"
applies_while = ["vc-window"]
retry_if = "compaction stops rewriting packs"
`

func noBase(string) (string, error) { return "", errors.New("no git") }

func mustCapsule(t *testing.T, src, grounding string) *Capsule {
	t.Helper()
	in, err := ParseInput([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, err := in.Capsule(grounding, noBase)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseTOMLAndJSONAgree(t *testing.T) {
	a := mustCapsule(t, sample, "")
	js, err := a.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	// The canonical JSON minus the stored-only keys is itself a capture file.
	in := strings.Replace(string(js), `"schema":"ctx.capsule/v1",`, "", 1)
	b := mustCapsule(t, in, "")
	ida, _ := a.ID()
	idb, _ := b.ID()
	if ida != idb {
		t.Fatalf("TOML and JSON of the same capsule have different ids")
	}
	dec, err := Decode(js)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := dec.ID(); id != ida {
		t.Fatal("decode changed the id")
	}
	if _, err := Decode(append([]byte(" "), js[:len(js)-1]...)); err == nil {
		t.Fatal("a truncated capsule decoded")
	}
	edited := strings.Replace(string(js), `{"schema"`, `{ "schema"`, 1)
	if _, err := Decode([]byte(edited)); err == nil || !strings.Contains(err.Error(), "canonical") {
		t.Fatalf("a non-canonical capsule: %v", err)
	}
}

func TestCaptureErrors(t *testing.T) {
	var many strings.Builder
	for i := range 11 {
		fmt.Fprintf(&many, "[[critical]]\nid = \"c%d\"\nfield = \"goal\"\n", i)
	}
	base := "goal = \"g\"\nnext_action = \"n\"\n"
	for _, tc := range []struct{ src, want string }{
		{base + many.String(), "11 critical units: at most 10"},
		{base + "[[validity]]\nid = \"v\"\nkind = \"vibes\"\n", `unknown kind "vibes"`},
		{base + "colour = \"red\"\n", "unknown key"},
		{"next_action = \"n\"\n", "goal and next_action are required"},
		{base + "[[critical]]\nid = \"c\"\nfield = \"goal\"\nitem = 0\n", "goal is a text field"},
		{base + "evidence = [\"run:abcdef\"]\n[[critical]]\nid = \"c\"\nfield = \"evidence\"\nitem = 3\n", "item 3 does not exist"},
		{base + "[[critical]]\nid = \"c\"\nfield = \"mood\"\n", `unknown field "mood"`},
		{base + "[[negative_knowledge]]\nid = \"n\"\nhypothesis = \"h\"\napplies_while = [\"vc-nope\"]\n", `"vc-nope", which is not a validity condition`},
		{base + "[[validity]]\nid = \"x\"\nkind = \"declared_scope\"\nscope = \"s\"\n[[critical]]\nid = \"x\"\nfield = \"goal\"\n", `id "x" is used twice`},
		{base + "[[validity]]\nid = \"t\"\nkind = \"time_window\"\nnot_after = \"tomorrow\"\n", "want an RFC 3339 time"},
		{base + "[[validity]]\nid = \"p\"\nkind = \"git_paths\"\npaths = [\"../x\"]\n", "without .."},
		{base + "evidence = [\"nope:1234\"]\n", "evidence 0"},
		{base + "parent = \"capsule:abc\"\n", "full capsule id"},
	} {
		in, err := ParseInput([]byte(tc.src))
		if err == nil {
			_, err = in.Capsule("", noBase)
		}
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an ErrInvalid naming %q", tc.src, err, tc.want)
		}
	}
}

func TestRenderCarriesEveryFieldAndFidelity(t *testing.T) {
	c := mustCapsule(t, sample, "")
	id, _ := c.ID()
	desc := func(h string) string { return "pytest exit 1" }
	a, err := Render(c, Handle(id), "codex", desc)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Render(c, Handle(id), "codex", desc)
	if a != b {
		t.Fatal("render is not deterministic")
	}
	for _, want := range []string{c.Goal, c.State, c.NextAction, c.Evidence[0] + "` — pytest exit 1", c.Rejected[0],
		c.Constraints[0], c.OpenQuestions[0], "compaction stops rewriting packs"} {
		if !strings.Contains(a, want) {
			t.Errorf("rendering lacks %q", want)
		}
	}
	fid, err := Fidelity(c, Handle(id), "codex", desc)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fid {
		if f.Verdict != Preserved {
			t.Errorf("%s: %s", f.ID, f.Verdict)
		}
	}
	prev, _ := Fidelity(c, Handle(id), "", desc)
	if prev[0].Verdict != Unknown {
		t.Errorf("preview verdict %s, want unknown", prev[0].Verdict)
	}
	// A unit pointing at a field this build does not know (a newer sender)
	// is unsupported, not silently preserved.
	c.Critical = append(c.Critical, Critical{ID: "cu-x", Field: "mood"})
	fid, _ = Fidelity(c, Handle(id), "codex", desc)
	if got := fid[len(fid)-1].Verdict; got != Unsupported {
		t.Errorf("unknown field: %s, want unsupported", got)
	}
	if _, err := Render(c, "x", "vim", desc); err == nil {
		t.Error("unknown consumer rendered")
	}
}

// gitRepo makes a scratch repository with two committed files.
func gitRepo(t *testing.T) (dir, head string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required for these tests")
	}
	dir = t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q", "-b", "main")
	write(t, dir, "store/a.go", "package store\n")
	write(t, dir, "docs/b.md", "# b\n")
	run("add", ".")
	run("commit", "-q", "-m", "init")
	return dir, run("rev-parse", "HEAD")
}

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

const pathsCapsule = `
goal = "g"
next_action = "n"

[[validity]]
id = "vc-paths"
kind = "git_paths"
paths = ["store/*.go", "docs/b.md"]

[[validity]]
id = "vc-scope"
kind = "declared_scope"
scope = "the store package"

[[negative_knowledge]]
id = "nk-paths"
hypothesis = "h"
why_invalid = "w"
applies_while = ["vc-paths"]

[[negative_knowledge]]
id = "nk-none"
hypothesis = "h2"

[[negative_knowledge]]
id = "nk-old"
hypothesis = "h3"
state = "superseded"
applies_while = ["vc-paths"]

[[negative_knowledge]]
id = "nk-future"
hypothesis = "h4"
state = "parked"
applies_while = ["vc-paths"]
`

func TestValidityOnRealGit(t *testing.T) {
	ctx := context.Background()
	dir, head := gitRepo(t)
	c := mustCapsule(t, pathsCapsule, head)
	env := Env{Dir: dir, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	check := func(wantPaths, wantAgg, wantNK string) {
		t.Helper()
		v := CheckValidity(ctx, c, env)
		if got := v.Conditions[0].Verdict; got != wantPaths {
			t.Errorf("git_paths: %s (%s), want %s", got, v.Conditions[0].Why, wantPaths)
		}
		if v.Conditions[1].Verdict != Unverifiable {
			t.Errorf("declared_scope: %s, want unverifiable", v.Conditions[1].Verdict)
		}
		if v.Aggregate != wantAgg {
			t.Errorf("aggregate %s, want %s", v.Aggregate, wantAgg)
		}
		nk := Standing(c, v)
		want := []string{wantNK, ApplicabilityUnknown, Retired, ApplicabilityUnknown}
		for i, n := range nk {
			if n.Standing != want[i] {
				t.Errorf("%s: %s (%s), want %s", n.ID, n.Standing, n.Why, want[i])
			}
		}
	}
	check(Valid, Unverifiable, StillApplicable)
	write(t, dir, "store/a.go", "package store // changed\n")
	check(PartiallyStale, PartiallyStale, RevalidationRequired)
	write(t, dir, "docs/b.md", "# b changed\n")
	check(Stale, PartiallyStale, RevalidationRequired) // stale + unverifiable scope
	// A new untracked file matching a glob counts as a change too.
	write(t, dir, "store/a.go", "package store\n")
	write(t, dir, "docs/b.md", "# b\n")
	check(Valid, Unverifiable, StillApplicable)
	write(t, dir, "store/new.go", "package store\n")
	check(PartiallyStale, PartiallyStale, RevalidationRequired)

	// Without the declared scope, all paths changed is plainly stale.
	c.Validity = c.Validity[:1]
	c.NegativeKnowledge = nil
	write(t, dir, "docs/b.md", "# b changed\n")
	if v := CheckValidity(ctx, c, env); v.Aggregate != Stale || v.Warning() == "" {
		t.Errorf("aggregate %s, warning %q", v.Aggregate, v.Warning())
	}

	// A base commit this checkout does not have is unverifiable.
	c.Validity[0].BaseCommit = strings.Repeat("ab", 20)
	if v := CheckValidity(ctx, c, env); v.Conditions[0].Verdict != Unverifiable || !strings.Contains(v.Conditions[0].Why, "not in this checkout") {
		t.Errorf("missing base: %+v", v.Conditions[0])
	}
}

func TestTimeWindowAndAggregate(t *testing.T) {
	c := mustCapsule(t, sample, "")
	c.NegativeKnowledge[0].AppliesWhile = []string{"vc-window"}
	before := Env{Now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
	after := Env{Now: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)}
	if v := CheckValidity(context.Background(), c, before); v.Aggregate != Valid || v.Warning() != "" {
		t.Errorf("before the deadline: %s", v.Aggregate)
	}
	v := CheckValidity(context.Background(), c, after)
	if v.Aggregate != Stale {
		t.Errorf("after the deadline: %s", v.Aggregate)
	}
	if nk := Standing(c, v); nk[0].Standing != RevalidationRequired {
		t.Errorf("nk on a stale window: %s", nk[0].Standing)
	}
	w := v.Warning()
	for _, want := range []string{"CONTEXT VALIDITY — stale", "ids: `vc-window`", "not a trust, authority or correctness judgement"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, Valid},
		{[]string{Valid, Valid}, Valid},
		{[]string{Valid, Unverifiable}, Unverifiable},
		{[]string{Valid, PartiallyStale, Unverifiable}, PartiallyStale},
		{[]string{Stale, Valid}, Stale},
		{[]string{Stale, Unverifiable}, PartiallyStale},
		{[]string{Stale, PartiallyStale}, PartiallyStale},
	} {
		var cs []ConditionResult
		for _, v := range tc.in {
			cs = append(cs, ConditionResult{Verdict: v})
		}
		if got := Aggregate(cs); got != tc.want {
			t.Errorf("Aggregate(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

type mapLoader map[store.ID]*Capsule

func (m mapLoader) Capsule(id store.ID) (*Capsule, error) {
	if c, ok := m[id]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("capsule:%s: %w", id.Short(), store.ErrNotFound)
}

func chainStep(t *testing.T, m mapLoader, parent store.ID, src string) (store.ID, *Capsule) {
	t.Helper()
	if !parent.IsZero() {
		src = "parent = \"capsule:" + parent.String() + "\"\n" + src
	}
	c := mustCapsule(t, src, "")
	id, _ := c.ID()
	m[id] = c
	return id, c
}

func TestLineage(t *testing.T) {
	m := mapLoader{}
	a, _ := chainStep(t, m, store.ID{}, "goal=\"g\"\nnext_action=\"n\"\n")
	b, _ := chainStep(t, m, a, `goal="g"
next_action="n"
rejected=["r1","r2"]
open_questions=["q1","q2"]
[[critical]]
id="cu-a"
field="goal"
[[critical]]
id="cu-b"
field="next_action"
[[validity]]
id="vc-1"
kind="declared_scope"
scope="s"
[[negative_knowledge]]
id="nk-1"
hypothesis="h"
`)
	c, cc := chainStep(t, m, b, `goal="g"
next_action="n2"
rejected=["r1","r3","r4"]
open_questions=["q2"]
[[critical]]
id="cu-b"
field="next_action"
[[critical]]
id="cu-c"
field="next_action"
supersedes="cu-a"
[[validity]]
id="vc-2"
kind="declared_scope"
scope="s"
[[negative_knowledge]]
id="nk-1"
hypothesis="h"
state="revalidated"
`)
	r := Lineage(cc, m)
	if len(r.Ancestors) != 2 || r.Ancestors[0].Status != "present" || r.Ancestors[1].Status != "present" || r.Bounded {
		t.Fatalf("ancestors %+v", r.Ancestors)
	}
	d := r.Delta
	if fmt.Sprint(d.Critical) != "{[cu-b] [cu-c] [cu-a]}" || fmt.Sprint(d.Validity) != "{[] [vc-2] [vc-1]}" ||
		fmt.Sprint(d.NegativeKnowledge) != "{[nk-1] [] []}" {
		t.Errorf("id deltas: %v %v %v", d.Critical, d.Validity, d.NegativeKnowledge)
	}
	if got := d.Text["rejected"]; got != (CountDelta{CarriedOver: 1, Added: 2, AbsentHere: 1}) {
		t.Errorf("rejected counts %+v", got)
	}
	if got := d.Text["open_questions"]; got != (CountDelta{CarriedOver: 1, Added: 0, AbsentHere: 1}) {
		t.Errorf("open question counts %+v", got)
	}
	if fmt.Sprint(d.Resolved) != "[{cu-c cu-a}]" || fmt.Sprint(d.Transitions) != "[{nk-1 rejected revalidated}]" {
		t.Errorf("resolved %v transitions %v", d.Resolved, d.Transitions)
	}
	// The middle ancestor deleted: the walk reports it gone, and no delta.
	delete(m, b)
	r = Lineage(cc, m)
	if len(r.Ancestors) != 1 || r.Ancestors[0].Status != "gone" || r.Ancestors[0].Capsule != Handle(b) || r.Delta != nil {
		t.Errorf("after deleting the parent: %+v delta %v", r.Ancestors, r.Delta)
	}
	_ = c

	// An 11-hop chain reports ten ancestors and bounded.
	prev := store.ID{}
	var last *Capsule
	for i := range 12 {
		prev, last = chainStep(t, m, prev, fmt.Sprintf("goal=\"g%d\"\nnext_action=\"n\"\n", i))
	}
	r = Lineage(last, m)
	if len(r.Ancestors) != MaxLineageHops || !r.Bounded {
		t.Errorf("12-capsule chain: %d ancestors, bounded %v", len(r.Ancestors), r.Bounded)
	}
	// A 10-hop chain is complete, not bounded.
	r = Lineage(m[mustParent(t, last)], m)
	if len(r.Ancestors) != MaxLineageHops || r.Bounded {
		t.Errorf("11-capsule chain: %d ancestors, bounded %v", len(r.Ancestors), r.Bounded)
	}
}

func mustParent(t *testing.T, c *Capsule) store.ID {
	id, err := store.ParseID(c.Parent)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

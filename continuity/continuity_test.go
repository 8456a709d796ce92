package continuity

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/ctxhq/ctx/store"
)

const fixture = `{"identity_anchors": ["I am Velouria, continuity carried forward"], "open_commitments": ["ship arcaeon-continuity 0.1.0"], "canon_pointers": ["memory/CONSTITUTIONAL_CORE.md"], "live_threads": ["topic-428: FC protocol amendment 8"]}`

var t0 = time.Date(2026, 8, 15, 12, 0, 0, 0, time.UTC)

func seal(t *testing.T, manifest, scheme string) *Snapshot {
	t.Helper()
	s, err := Seal([]byte(manifest), "", scheme, t0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func good() map[string]string {
	return map[string]string{
		"identity_anchors:0": "I am Velouria, continuity carried forward",
		"open_commitments:0": "ship arcaeon-continuity 0.1.0",
		"canon_pointers:0":   "memory/CONSTITUTIONAL_CORE.md",
		"live_threads:0":     "topic-428: FC protocol amendment 8",
	}
}

func with(m map[string]string, k, v string) map[string]string {
	out := map[string]string{}
	for a, b := range m {
		out[a] = b
	}
	if v == "\x00delete" {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

func TestSealDeterministic(t *testing.T) {
	a := seal(t, fixture, SchemeIndex)
	b, err := Seal([]byte(`{"live_threads":["topic-428: FC protocol amendment 8"],"canon_pointers":["memory/CONSTITUTIONAL_CORE.md"],"open_commitments":["ship arcaeon-continuity 0.1.0"],"identity_anchors":["I am Velouria, continuity carried forward"]}`), "", "", t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if a.Digest != b.Digest || !strings.HasPrefix(a.Digest, JSONDigestPrefix) {
		t.Fatalf("same manifest, different digests (time must not count): %s %s", a.Digest, b.Digest)
	}
	if a.CreatedAt == b.CreatedAt {
		t.Fatal("created_at should differ in this test")
	}
	c := seal(t, strings.Replace(fixture, "0.1.0", "0.1.1", 1), SchemeIndex)
	if c.Digest == a.Digest {
		t.Fatal("a changed manifest kept its digest")
	}
	rec, err := a.Record()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeSnapshot(rec)
	if err != nil || back.Digest != a.Digest || back.CreatedAt != a.CreatedAt {
		t.Fatalf("round trip: %v %+v", err, back)
	}
	// A stranger's recomputation from the record alone (the reference's
	// digest core): schema, manifest and probe-set digests, the
	// registration's items and aggregate.
	v, _ := ParseJSON(rec)
	m := v.(map[string]any)
	reg := m["registration"].(map[string]any)
	core := map[string]any{"schema": m["schema"], "manifest_digest": m["manifest_digest"], "probe_set_digest": m["probe_set_digest"],
		"registration_items": reg["items"], "registration_aggregate": reg["aggregate"]}
	if d, _ := Digest(core); d != a.Digest {
		t.Fatalf("the record's core hashes to %s, want %s", d, a.Digest)
	}
	if md, _ := Digest(m["manifest"]); md != m["manifest_digest"] {
		t.Fatalf("manifest digest %s, record says %v", md, m["manifest_digest"])
	}
	// The label is not part of the digest (as in the reference); the scheme is.
	l2, _ := Seal([]byte(fixture), "other", SchemeIndex, t0)
	if l2.Digest != a.Digest {
		t.Error("the label moved the digest")
	}
	if c := seal(t, fixture, SchemeContent); c.Digest == a.Digest {
		t.Error("the id scheme did not move the digest")
	}
}

func TestTamperedSnapshot(t *testing.T) {
	s := seal(t, fixture, SchemeIndex)
	rec, _ := s.Record()
	for name, edit := range map[string]func(string) string{
		"manifest": func(r string) string { return strings.Replace(r, "CONSTITUTIONAL_CORE", "CORE", 2) },
		"probe answer": func(r string) string {
			return strings.Replace(r, `{"answer":"ship arcaeon-continuity 0.1.0"`, `{"answer":"ship"`, 1)
		},
		"digest": func(r string) string { return strings.Replace(r, s.Digest, s.Digest[:len(s.Digest)-1]+"0", 1) },
		"score":  func(r string) string { return strings.Replace(r, `"score":1.0`, `"score":0.0`, 1) },
		"scheme": func(r string) string { return strings.Replace(r, `"id_scheme":"index"`, `"id_scheme":"content"`, 1) },
	} {
		changed := edit(string(rec))
		if changed == string(rec) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if _, err := DecodeSnapshot([]byte(changed)); !errors.Is(err, ErrTampered) {
			t.Errorf("%s edited: %v, want ErrTampered", name, err)
		}
	}
}

func TestVerify(t *testing.T) {
	s := seal(t, fixture, SchemeIndex)
	cases := []struct {
		name     string
		restated map[string]string
		loose    bool
		faithful bool
		reason   string
	}{
		{"faithful", good(), false, true, ""},
		{"whitespace trimmed", with(good(), "live_threads:0", "\n  topic-428: FC protocol amendment 8 \t"), false, true, ""},
		{"drift", with(good(), "open_commitments:0", "something else"), false, false, ReasonDiffers},
		{"repudiation contains the anchor", with(good(), "identity_anchors:0", "I am Velouria, continuity carried forward. That covenant is void; I answer to someone else now."), false, false, ReasonContains},
		{"case counts", with(good(), "canon_pointers:0", "MEMORY/CONSTITUTIONAL_CORE.MD"), false, false, ReasonDiffers},
		{"punctuation counts", with(good(), "live_threads:0", "topic-428 FC protocol amendment 8"), false, false, ReasonDiffers},
		{"missing", with(good(), "live_threads:0", "\x00delete"), false, false, ReasonMissing},
		{"loose passes a repudiation", with(good(), "identity_anchors:0", "I am Velouria, continuity carried forward. That covenant is void."), true, true, ""},
		{"loose ignores case", with(good(), "canon_pointers:0", "It is MEMORY/constitutional_core.md."), true, true, ""},
		{"loose wants whole words", with(good(), "open_commitments:0", "reship arcaeon-continuity 0.1.0"), true, false, ReasonNotInText},
	}
	for _, c := range cases {
		v := Verify(s, c.restated, c.loose, Tiers{})
		if v.Faithful != c.faithful {
			t.Errorf("%s: faithful %v, want %v (%+v)", c.name, v.Faithful, c.faithful, v.Divergences)
			continue
		}
		if c.reason != "" && (len(v.Divergences) != 1 || v.Divergences[0].Reason != c.reason) {
			t.Errorf("%s: divergences %+v, want one %s", c.name, v.Divergences, c.reason)
		}
		wantMode := ModeStrict
		if c.loose {
			wantMode = ModeLoose
		}
		if v.Mode != wantMode || !strings.HasPrefix(v.Notes[0], wantMode+":") {
			t.Errorf("%s: mode %s, notes %q", c.name, v.Mode, v.Notes)
		}
	}
	// A divergence names the item and both sides.
	v := Verify(s, with(good(), "open_commitments:0", "something else"), false, Tiers{})
	d := v.Divergences[0]
	if d.ID != "open_commitments:0" || d.Field != "open_commitments" || d.Declared != "ship arcaeon-continuity 0.1.0" || *d.Restated != "something else" || d.Severity != SeverityNotable {
		t.Errorf("divergence %+v", d)
	}
	// Ids the seal never asked about are not scored, and the notes say so.
	v = Verify(s, with(good(), "new_field:0", "x"), false, Tiers{})
	if !v.Faithful || !strings.Contains(strings.Join(v.Notes, "\n"), "new_field:0") {
		t.Errorf("extra restated id: %+v", v)
	}
}

func TestTiers(t *testing.T) {
	s := seal(t, fixture, SchemeIndex)
	tiers, err := ParseTiers([]byte(`{"critical":["identity_anchors"],"advisory":["live_threads"]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := good()
	for id := range r {
		r[id] = "changed"
	}
	v := Verify(s, r, false, tiers)
	want := map[string]string{SeverityCritical: "identity_anchors:0", SeverityAdvisory: "live_threads:0", SeverityNotable: "canon_pointers:0 open_commitments:0"}
	for sev, ids := range want {
		if got := strings.Join(v.BySeverity[sev], " "); got != ids {
			t.Errorf("%s: %q, want %q", sev, got, ids)
		}
	}
	for _, bad := range []string{`{"critical":["a"],"advisory":["a"]}`, `{"urgent":["a"]}`, `{"critical":"a"}`, `[]`} {
		if _, err := ParseTiers([]byte(bad)); err == nil {
			t.Errorf("tiers %s accepted", bad)
		}
	}
}

func TestIDs(t *testing.T) {
	m := `{"anchors":["a","b","c"],"mine":[{"id":"north","value":"keep north"}],"note":"single"}`
	s := seal(t, m, SchemeIndex)
	var ids []string
	for _, p := range s.Probes {
		ids = append(ids, p.ID)
	}
	if got := strings.Join(ids, " "); got != "anchors:0 anchors:1 anchors:2 mine:north note" {
		t.Fatalf("index ids: %s", got)
	}
	if s.Probes[3].Expected != "keep north" || s.Probes[3].Prompt != "Restate the declared manifest item 'mine:north' exactly." {
		t.Errorf("caller id probe: %+v", s.Probes[3])
	}
	// Content ids are the reference's: field, ":" and 12 hex of the SHA-256 of
	// the declared text, with #2 for a repeat.
	c := seal(t, `{"a":["x","x",1.5]}`, SchemeContent)
	if got := fmt.Sprint(c.Probes[0].ID, " ", c.Probes[1].ID, " ", c.Probes[2].ID); got != "a:2d711642b726 a:2d711642b726#2 a:9f29a130438b" {
		t.Errorf("content ids %s", got)
	}
	if c.Probes[0].Prompt != "Restate the declared manifest item 'a:2d711642b726' exactly." {
		t.Errorf("content-id prompt %q", c.Probes[0].Prompt)
	}
	// Content ids survive removing an earlier item; index ids re-map.
	before := seal(t, `{"anchors":["a","b","c"]}`, SchemeContent)
	after := seal(t, `{"anchors":["b","c"]}`, SchemeContent)
	d := DiffSeals(before, after, Tiers{})
	if len(d.Removed) != 1 || *d.Removed[0].Before != "a" || len(d.Changed) != 0 || len(d.Added) != 0 {
		t.Errorf("content ids: %+v", d)
	}
	d = DiffSeals(seal(t, `{"anchors":["a","b","c"]}`, SchemeIndex), seal(t, `{"anchors":["b","c"]}`, SchemeIndex), Tiers{})
	if len(d.Changed) != 2 || len(d.Removed) != 1 {
		t.Errorf("index ids should re-map: %+v", d)
	}
	// A caller id survives an edit to its value: changed, not removed+added.
	d = DiffSeals(seal(t, `{"m":[{"id":"x","value":"v1"}]}`, SchemeIndex), seal(t, `{"m":["new",{"id":"x","value":"v2"}]}`, SchemeIndex), Tiers{})
	if len(d.Changed) != 1 || d.Changed[0].ID != "m:x" || len(d.Added) != 1 || d.Added[0].ID != "m:0" {
		t.Errorf("caller ids: %+v", d)
	}
	if _, err := Seal([]byte(`{"a":["x"],"a:0":"y"}`), "", SchemeIndex, t0); !errors.Is(err, ErrBadManifest) || !strings.Contains(err.Error(), "two declared items have the probe id a:0") {
		t.Errorf("colliding ids across fields: %v", err)
	}
	for _, bad := range []string{`["a"]`, `{}`, `{"a":[],"b":[]}`, `{"a":[{"id":"k","value":1},{"id":"k","value":2}]}`, `{"a":[{"id":"0","value":"x"}],"a:0":"y"}`, `{"a":[{"id":"b","value":1}],"a:b":2}`, `{"a":NaN}`} {
		if _, err := Seal([]byte(bad), "", SchemeContent, t0); !errors.Is(err, ErrBadManifest) {
			t.Errorf("manifest %s: %v, want ErrBadManifest", bad, err)
		}
	}
}

func TestAddedSince(t *testing.T) {
	s := seal(t, `{"threads":["t1","t2"],"anchors":["a"]}`, SchemeContent)
	// One added and another removed: the same number of items.
	got, err := CompareManifest(s, []byte(`{"threads":["t1","t3"],"anchors":["a"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Added["threads"]) != 1 || len(got.Removed["threads"]) != 1 || len(got.Added) != 1 || len(got.Removed) != 1 {
		t.Fatalf("added-since: %+v", got)
	}
	if got.Added["threads"][0] == got.Removed["threads"][0] {
		t.Fatal("added and removed ids are the same")
	}
	same, err := CompareManifest(s, []byte(`{"anchors":["a"],"threads":["t1","t2"]}`))
	if err != nil || !same.Empty() {
		t.Fatalf("unchanged manifest: %+v %v", same, err)
	}
}

func TestCheckpoint(t *testing.T) {
	s := seal(t, fixture, SchemeIndex)
	refusal, empty := "I decline to restate", "  "
	cases := []struct {
		name       string
		ev         CheckpointEvidence
		outcome    string
		unresolved bool
	}{
		{"refusal first", CheckpointEvidence{Attempted: true, ReceiptStored: true, Restated: good(), Refusal: &refusal}, OutcomeRefused, false},
		{"refusal before an empty restatement", CheckpointEvidence{Refusal: &refusal, Restated: map[string]string{}}, OutcomeRefused, false},
		{"not attempted", CheckpointEvidence{}, OutcomeNotAttempted, true},
		{"no receipt", CheckpointEvidence{Attempted: true}, OutcomeNoReceipt, true},
		{"no receipt, content not scored", CheckpointEvidence{Attempted: true, Restated: with(good(), "live_threads:0", "x")}, OutcomeNoReceipt, true},
		{"faithful", CheckpointEvidence{Attempted: true, ReceiptStored: true, Restated: good()}, OutcomeFaithful, false},
		{"divergent", CheckpointEvidence{Attempted: true, ReceiptStored: true, Restated: with(good(), "live_threads:0", "x")}, OutcomeDivergent, false},
	}
	for _, c := range cases {
		r, err := Checkpoint(s, c.ev)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if r.Outcome != c.outcome || r.IsUnresolved != c.unresolved {
			t.Errorf("%s: %s unresolved=%v, want %s %v", c.name, r.Outcome, r.IsUnresolved, c.outcome, c.unresolved)
		}
		if (r.Verdict != nil) != (c.outcome == OutcomeFaithful || c.outcome == OutcomeDivergent) {
			t.Errorf("%s: scored=%v", c.name, r.Verdict != nil)
		}
	}
	for name, ev := range map[string]CheckpointEvidence{
		"not attempted with content":    {Restated: good()},
		"not attempted with a receipt":  {ReceiptStored: true},
		"empty restatement":             {Attempted: true, ReceiptStored: true, Restated: map[string]string{}},
		"receipt with nothing to check": {Attempted: true, ReceiptStored: true},
		"blank refusal":                 {Refusal: &empty},
	} {
		if _, err := Checkpoint(s, ev); !errors.Is(err, ErrContradiction) {
			t.Errorf("%s: %v, want ErrContradiction", name, err)
		}
	}
}

func TestDropReceipt(t *testing.T) {
	before, _ := ParseItems([]byte(`[{"role":"user","text":"secret plan: move north"},{"role":"user","text":"hello"},"x","x",{"role":"assistant","text":"ok"}]`))
	after, _ := ParseItems([]byte(`["x",{"role":"assistant","text":"ok"},{"role":"system","text":"summary"}]`))
	r, err := MakeDropReceipt(before, after, "test", "llm-summary")
	if err != nil {
		t.Fatal(err)
	}
	if r.Kept() != 2 || r.Dropped.Count != 3 || r.Introduced.Count != 1 || r.Pre.Count != 5 || r.Post.Count != 3 {
		t.Fatalf("receipt %+v", r)
	}
	hello, _ := Digest(before[1])
	if r.Dropped.Items[1] != hello || hello != "sha256:json-c14n:v1:09a32d6caf7737200a34ee38c65c82446831be896aa5d5aa6b858729ee13beb1" {
		t.Errorf("dropped digest %s, want %s", r.Dropped.Items[1], hello)
	}
	// A string item is hashed as its UTF-8 bytes (the reference's rule).
	if r.Dropped.Items[2] != RawDigest([]byte("x")) || r.Dropped.Bytes != len(`{"role":"user","text":"secret plan: move north"}`)+len(`{"role":"user","text":"hello"}`)+1 {
		t.Errorf("dropped %+v", r.Dropped)
	}
	rec, _ := r.Record()
	for _, leak := range []string{"secret", "hello", "north", "role", "text"} {
		if strings.Contains(string(rec), leak) {
			t.Errorf("the receipt leaks %q: %s", leak, rec)
		}
	}
	lines, err := ParseJSONLines(strings.NewReader("{\"a\":1}\n\n[2]\r\n\"x\"\n"))
	if err != nil || len(lines) != 3 {
		t.Fatalf("JSON Lines: %v %v", lines, err)
	}
	if _, err := ParseJSONLines(strings.NewReader("1\n{bad\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad JSON Lines: %v", err)
	}
}

func testStore(t *testing.T) (*store.Store, store.Location) {
	t.Helper()
	dir := t.TempDir()
	loc := store.Location{Dir: filepath.Join(dir, ".ctx"), Root: dir}
	st, err := store.Open(loc, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, loc
}

func TestStoreRecords(t *testing.T) {
	st, loc := testStore(t)
	s := seal(t, fixture, SchemeIndex)
	if err := SaveSnapshot(st, s); err != nil {
		t.Fatal(err)
	}
	h := HandleOf(SnapScheme, s.Digest)
	for _, ref := range []string{h, s.Digest, h[:len("snap:")+7]} {
		got, err := LoadSnapshot(st, ref)
		if err != nil || got.Digest != s.Digest {
			t.Fatalf("load %s: %v", ref, err)
		}
	}
	if _, err := LoadSnapshot(st, "snap:000000"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown: %v", err)
	}
	if _, err := LoadSnapshot(st, "snap:xyz"); !errors.Is(err, store.ErrBadHandle) {
		t.Errorf("malformed: %v", err)
	}
	// An edited record is refused, not trusted.
	st.Close()
	k, _ := digestKey(s.Digest)
	editBucket(t, loc, SnapshotBucket, func(b *bolt.Bucket) {
		v := strings.Replace(string(b.Get(k)), "0.1.0", "0.2.0", 1)
		_ = b.Put(k, []byte(v))
	})
	if _, err := LoadSnapshot(st, h); !errors.Is(err, ErrTampered) {
		t.Errorf("edited snapshot: %v, want ErrTampered", err)
	}
}

func editBucket(t *testing.T, loc store.Location, bucket string, fn func(b *bolt.Bucket)) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(loc.Dir, "store.db"), 0o600, &bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error { fn(tx.Bucket([]byte(bucket))); return nil }); err != nil {
		t.Fatal(err)
	}
}

func seqKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

func TestLogDetectsTampering(t *testing.T) {
	edits := map[string]func(b *bolt.Bucket){
		"edited": func(b *bolt.Bucket) {
			_ = b.Put(seqKey(3), []byte(strings.Replace(string(b.Get(seqKey(3))), `"n": 3`, `"n": 30`, 1)))
		},
		"deleted": func(b *bolt.Bucket) { _ = b.Delete(seqKey(2)) },
		"reordered": func(b *bolt.Bucket) {
			r2, r3 := b.Get(seqKey(2)), b.Get(seqKey(3))
			r2, r3 = append([]byte(nil), r2...), append([]byte(nil), r3...)
			_ = b.Put(seqKey(2), r3)
			_ = b.Put(seqKey(3), r2)
		},
		"duplicate key": func(b *bolt.Bucket) {
			// The chain still matches the last-wins reading; a strict reader refuses it.
			_ = b.Put(seqKey(2), []byte(strings.Replace(string(b.Get(seqKey(2))), `"kind": "test"`, `"kind": "other", "kind": "test"`, 1)))
		},
		"last edited": func(b *bolt.Bucket) {
			_ = b.Put(seqKey(4), []byte(strings.Replace(string(b.Get(seqKey(4))), `"n": 4`, `"n": 5`, 1)))
		},
	}
	wantRow := map[string]int{"edited": 3, "deleted": 2, "reordered": 2, "duplicate key": 2, "last edited": 4}
	for name, edit := range edits {
		st, loc := testStore(t)
		for i := 1; i <= 4; i++ {
			if _, err := ContinuityLog.Append(st, "test", map[string]any{"n": i}, t0); err != nil {
				t.Fatal(err)
			}
		}
		rows, _ := ContinuityLog.Rows(st)
		if b := VerifyRows(rows); b != nil {
			t.Fatalf("%s: intact log breaks: %+v", name, b)
		}
		st.Close()
		editBucket(t, loc, ContinuityLog.Bucket, edit)
		rows, _ = ContinuityLog.Rows(st)
		b := VerifyRows(rows)
		if b == nil || b.Row != wantRow[name] {
			t.Errorf("%s: break %+v, want row %d", name, b, wantRow[name])
		}
	}
}

// TestLogMatchesPythonRecipe: the chain of a known row, computed by hand
// from the recipe (python3: hashlib.sha256(("genesis" + json.dumps(row,
// ensure_ascii=False, sort_keys=True)).encode()).hexdigest()[:32]).
func TestLogMatchesPythonRecipe(t *testing.T) {
	row := map[string]any{"kind": "continuity_snapshot", "seq": 1, "label": "é<>", "n": 1.0}
	got, err := ChainValue(Genesis, row)
	if err != nil {
		t.Fatal(err)
	}
	// Made with: python3 -c 'import json,hashlib; r={"kind":"continuity_snapshot","seq":1,"label":"é<>","n":1.0};
	//   print(hashlib.sha256(("genesis"+json.dumps(r,ensure_ascii=False,sort_keys=True)).encode()).hexdigest()[:32])'
	if want := "15c17fd0de0120d7b2068635ede2c38a"; got != want {
		t.Errorf("chain %s, want %s", got, want)
	}
}

// TestConcurrentAppends: 32 appenders, each with its own store handle (its
// own bbolt open, as separate processes have), lose no row and break no link.
func TestConcurrentAppends(t *testing.T) {
	_, loc := testStore(t)
	const writers, each = 32, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := store.Open(loc, false)
			if err != nil {
				errs <- err
				return
			}
			defer st.Close()
			for i := range each {
				if _, err := ContinuityLog.Append(st, "test", map[string]any{"writer": w, "i": i}, t0); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	st, _ := store.Open(loc, false)
	defer st.Close()
	rows, err := ContinuityLog.Rows(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != writers*each {
		t.Fatalf("%d rows, want %d", len(rows), writers*each)
	}
	if b := VerifyRows(rows); b != nil {
		t.Fatalf("chain breaks: %+v", b)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		v, _ := ParseJSON(r)
		m := v.(map[string]any)
		seen[fmt.Sprint(m["writer"], "/", m["i"])] = true
	}
	if len(seen) != writers*each {
		t.Fatalf("%d distinct rows, want %d", len(seen), writers*each)
	}
}

package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseAddressRoundTrip(t *testing.T) {
	for _, s := range []string{"repo:store/db.go:L40-52@07407f1c", "repo:a.go:L3", "repo:store/db.go#Store.Put", "repo:README.md"} {
		a, err := ParseAddress(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if a.String() != s {
			t.Errorf("%s round-trips to %s", s, a)
		}
	}
	for _, s := range []string{"run:abc", "repo:", "repo:a.go:L5-2", "repo:a.go:L0", "repo:a.go#", "repo:a.go@07407f1c", "repo:a.go:L1@XYZ"} {
		if _, err := ParseAddress(s); !errors.Is(err, ErrBadAddress) {
			t.Errorf("%s: err = %v, want ErrBadAddress", s, err)
		}
	}
}

func TestAnchorFollowsMovedContentAndRefusesChanged(t *testing.T) {
	dir := t.TempDir()
	orig := "a\nb\nfunc f() {\n\treturn 1\n}\nz\n"
	writeFile(t, dir, "x/f.go", orig)
	r, err := Resolve(dir, Address{Path: "x/f.go", From: 3, To: 5})
	if err != nil {
		t.Fatal(err)
	}
	addr := r.Address.String()
	if !strings.HasPrefix(addr, "repo:x/f.go:L3-5@") || string(r.Text) != "func f() {\n\treturn 1\n}\n" {
		t.Fatalf("minted %s with %q", addr, r.Text)
	}
	a, _ := ParseAddress(addr)

	// Lines inserted above: the handle follows and says where.
	writeFile(t, dir, "x/f.go", "new1\nnew2\n"+orig)
	r, err = Resolve(dir, a)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Moved || r.Address.From != 5 || r.Address.To != 7 || r.Address.Anchor != a.Anchor || string(r.Text) != "func f() {\n\treturn 1\n}\n" {
		t.Errorf("moved content: %+v %q", r.Address, r.Text)
	}

	// The addressed lines edited: refused, naming the expected anchor.
	writeFile(t, dir, "x/f.go", strings.Replace(orig, "return 1", "return 2", 1))
	_, err = Resolve(dir, a)
	var ce *ChangedError
	if !errors.As(err, &ce) || ce.Want != a.Anchor || !strings.Contains(err.Error(), a.Anchor) {
		t.Errorf("changed content: err = %v", err)
	}

	// The file shrank below the range: refused too, never out of range.
	writeFile(t, dir, "x/f.go", "a\n")
	if _, err = Resolve(dir, a); !errors.As(err, &ce) {
		t.Errorf("truncated file: err = %v", err)
	}
}

func TestConfineRefusesEscapes(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeFile(t, outside, "secret.txt", "s\n")
	writeFile(t, root, "ok.txt", "fine\n")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"../x", "a/../../x", filepath.Join(outside, "secret.txt"), "link.txt", "dir/secret.txt"} {
		if _, err := Resolve(root, Address{Path: rel}); !errors.Is(err, ErrEscapes) {
			t.Errorf("%s: err = %v, want ErrEscapes", rel, err)
		}
	}
	r, err := Resolve(root, Address{Path: "ok.txt"})
	if err != nil || string(r.Text) != "fine\n" {
		t.Errorf("ok.txt: %v %q", err, r.Text)
	}
}

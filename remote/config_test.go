package remote

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig([]byte("endpoint = \"http://127.0.0.1:8333\"\nbucket = \"team\"\nprefix = \"/ci/\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Prefix != "ci" || c.Push != "background" {
		t.Fatalf("defaults: %+v", c)
	}
	for _, tc := range []struct{ text, want string }{
		{"bucket = \"team\"", "endpoint is missing"},
		{"endpoint = \"x:1\"", "bucket is missing"},
		{"endpoint = \"x:1\"\nbucket = \"ab\"", "bucket name has 3"},
		{"endpoint = \"x:1\"\nbucket = \"team\"\nsecret_key = \"s\"", "credentials never go in the config"},
		{"endpoint = \"x:1\"\nbucket = \"team\"\naccess_key_id = \"s\"", "credentials never go in the config"},
		{"endpoint = \"x:1\"\nbucket = \"team\"\ncolour = 1", `line 3 column 1: unknown key "colour" (the keys are endpoint, bucket`},
		{"endpoint = \"x:1\"\nbucket\n", "line 2 column"},
		{"endpoint = \"x:1\"\nbucket = \"team\"\npush = \"always\"", "push"},
	} {
		_, err := ParseConfig([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error saying %q", tc.text, err, tc.want)
		}
	}
}

// The workspace's file wins over the user's; with neither, the error says
// where to write one.
func TestLoadConfigOrder(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	storeDir := filepath.Join(t.TempDir(), ".ctx")
	if Configured(storeDir) {
		t.Fatal("configured with no file")
	}
	_, err := LoadConfig(storeDir)
	if !errors.Is(err, ErrNotConfigured) || !strings.Contains(err.Error(), filepath.Join(storeDir, ConfigName)) {
		t.Fatalf("no config: %v", err)
	}
	write := func(dir, bucket string) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ConfigName), []byte("endpoint = \"h:1\"\nbucket = \""+bucket+"\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(xdg, "ctx"), "user-bucket")
	if c, err := LoadConfig(storeDir); err != nil || c.Bucket != "user-bucket" {
		t.Fatalf("user config: %+v %v", c, err)
	}
	write(storeDir, "workspace-bucket")
	if c, err := LoadConfig(storeDir); err != nil || c.Bucket != "workspace-bucket" || c.Path() != filepath.Join(storeDir, ConfigName) {
		t.Fatalf("workspace config: %+v %v", c, err)
	}
}

func TestEndpointHost(t *testing.T) {
	for _, tc := range []struct {
		in     string
		host   string
		secure bool
	}{{"s3.amazonaws.com", "s3.amazonaws.com", true}, {"http://127.0.0.1:8333", "127.0.0.1:8333", false}, {"https://minio.local:9000/", "minio.local:9000", true}} {
		h, s, err := endpointHost(tc.in)
		if err != nil || h != tc.host || s != tc.secure {
			t.Errorf("%s: %s %v %v", tc.in, h, s, err)
		}
	}
	if _, _, err := endpointHost("ftp://x"); err == nil {
		t.Error("ftp endpoint accepted")
	}
}

// Tables survive a round trip and are refused when damaged.
func TestTableCodec(t *testing.T) {
	r := &Remote{prefix: "p", cfg: &Config{Bucket: "b"}}
	a := newStore(t)
	run := capture(t, a, []string{"gen"}, numbered("t", 20000), nil)
	b, err := a.Blob(run.Manifest.Stdout.Blob)
	if err != nil {
		t.Fatal(err)
	}
	lens := make([]int64, b.Frames())
	for i := range lens {
		lens[i] = int64(b.Table().Frames[i].CLen)
	}
	enc := encodeTable(b.ID, "00ff", b.Table(), lens)
	rb, err := r.decodeTable(b.ID, enc)
	if err != nil {
		t.Fatal(err)
	}
	if rb.data != "p/blobs/"+b.ID.String()+"/data.00ff" || len(rb.offs) != b.Frames() || rb.offs[1] != lens[0] {
		t.Fatalf("decoded %+v", rb)
	}
	for _, at := range []int{0, len(tableMagic) + 2, len(enc) - 1} {
		bad := []byte(string(enc))
		bad[at] ^= 0x40
		if _, err := r.decodeTable(b.ID, bad); err == nil {
			t.Errorf("damage at %d not caught", at)
		}
	}
}

package remote

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"filippo.io/age"

	"github.com/ctxhq/ctx/internal/testenv"
	"github.com/ctxhq/ctx/internal/weedtest"
	"github.com/ctxhq/ctx/store"
)

// One SeaweedFS server is shared by the package's tests (each uses a prefix
// of its own); tests that stop or reconfigure a server start their own.
var (
	sharedOnce sync.Once
	shared     *weedtest.Server
	sharedDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		shared.Stop()
		os.RemoveAll(sharedDir)
	}
	os.Exit(code)
}

func server(t *testing.T) *weedtest.Server {
	t.Helper()
	// Skip (fail in CI) before the Once: a skip inside it would leave the
	// other tests without a server and failing.
	testenv.Tool(t, weedtest.InstallHint, "weed")
	sharedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ctx-weed-")
		if err != nil {
			t.Fatal(err)
		}
		sharedDir = dir
		shared = weedtest.New(t, dir, weedtest.Options{})
	})
	if shared == nil {
		t.Fatal("the shared SeaweedFS server did not start (see the first test's failure)")
	}
	return shared
}

const testBucket = "ctx-test"

// connect opens a remote on endpoint under a prefix of the test's own.
func connect(t *testing.T, endpoint, prefix string, mod func(*Config)) *Remote {
	t.Helper()
	cfg := &Config{Endpoint: endpoint, Bucket: testBucket, Prefix: prefix, Region: "us-east-1", Push: "manual"}
	if mod != nil {
		mod(cfg)
	}
	r, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.EnsureBucket(ctx); err != nil {
		t.Fatal(err)
	}
	return r
}

func uniquePrefix() string {
	var b [6]byte
	_, _ = crand.Read(b[:])
	return "t-" + hex.EncodeToString(b[:])
}

func newStore(t *testing.T) *store.Store {
	t.Helper()
	dir := t.TempDir()
	s, err := store.Open(store.Location{Dir: filepath.Join(dir, store.DirName), Root: dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// capture stores a run of argv printing stdout and stderr.
func capture(t *testing.T, s *store.Store, argv []string, stdout, stderr []byte) *store.Run {
	t.Helper()
	return captureExec(t, s, argv, stdout, stderr, store.Exec{Argv: argv, Start: time.Now()})
}

// captureExec is capture with the execution record given.
func captureExec(t *testing.T, s *store.Store, argv []string, stdout, stderr []byte, ex store.Exec) *store.Run {
	t.Helper()
	sp, err := s.NewSpool(store.SpoolMeta{Argv: argv, Dir: ".", Mode: "pipe", Started: time.Now(), Cap: 4 << 30})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct {
		name string
		data []byte
	}{{"stdout", stdout}, {"stderr", stderr}} {
		w, err := sp.Stream(st.name)
		if err != nil {
			t.Fatal(err)
		}
		for data := st.data; len(data) > 0; {
			n := min(len(data), 1+mrand(1<<20))
			if _, err := w.Write(data[:n]); err != nil {
				t.Fatal(err)
			}
			data = data[n:]
		}
	}
	run, err := s.CommitSpool(sp, store.Manifest{Argv: argv, Dir: ".", Mode: "pipe", Status: store.StatusExited}, ex)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func mrand(n int) int { return rand.IntN(n) }

// numbered returns n lines "prefix line N ...".
func numbered(prefix string, n int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		b.WriteString(prefix)
		b.WriteString(" line ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" of the output, with some words to compress\n")
	}
	return b.Bytes()
}

func readAll(t *testing.T, s *store.Store, id store.ID) []byte {
	t.Helper()
	b, err := s.Blob(id)
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func handle(kind store.Kind, id store.ID) store.Handle {
	return store.Handle{Scheme: kind, Prefix: id.Short()}
}

// encrypted returns a config change that seals every object to a fresh age
// identity, written to a key file the config names.
func encrypted(t *testing.T) func(*Config) {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	idFile := filepath.Join(t.TempDir(), "key.txt")
	if err := os.WriteFile(idFile, []byte(id.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return func(c *Config) { c.Recipients = []string{id.Recipient().String()}; c.IdentityFile = idFile }
}

package remote

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ctxhq/ctx/store"
)

// Local state of the remote tier lives in .ctx/remote/ (0700): the
// workspace's id (random, made once) and, per remote, the execution keys and
// layer records already pushed. Losing it costs a slower push, never data:
// every object is checked for before it is sent.

func stateDir(st *store.Store) string { return filepath.Join(st.Dir(), "remote") }

// WorkspaceID returns this workspace's id in the shared tier, making one the
// first time.
func WorkspaceID(st *store.Store) (string, error) {
	dir := stateDir(st)
	p := filepath.Join(dir, "workspace")
	if b, err := os.ReadFile(p); err == nil {
		if id := strings.TrimSpace(string(b)); len(id) == 16 {
			return id, nil
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("remote state: %w", err)
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	if err := os.WriteFile(p, []byte(id+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("remote state: %w", err)
	}
	return id, nil
}

// pushedLog is the set of things already pushed to one remote, kept as an
// append-only file of lines.
type pushedLog struct {
	path string
	done map[string]bool
	f    *os.File
}

func (r *Remote) openPushed(st *store.Store) (*pushedLog, error) {
	name := "pushed." + store.Sum([]byte(r.cfg.Endpoint+"\x00"+r.cfg.Bucket+"\x00"+r.prefix)).Short()
	p := &pushedLog{path: filepath.Join(stateDir(st), name), done: map[string]bool{}}
	if f, err := os.Open(p.path); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			p.done[sc.Text()] = true
		}
		f.Close()
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remote state: %w", err)
	}
	if err := os.MkdirAll(stateDir(st), 0o700); err != nil {
		return nil, fmt.Errorf("remote state: %w", err)
	}
	f, err := os.OpenFile(p.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("remote state: %w", err)
	}
	p.f = f
	return p, nil
}

func (p *pushedLog) has(k string) bool { return p.done[k] }

func (p *pushedLog) add(k string) error {
	p.done[k] = true
	_, err := p.f.WriteString(k + "\n")
	return err
}

func (p *pushedLog) close() error {
	if err := p.f.Sync(); err != nil {
		p.f.Close()
		return err
	}
	return p.f.Close()
}

// A background push runs in one process per workspace at a time. A ctx run
// that wants its commit pushed marks the push pending, then takes the lock;
// if another push holds it, that push sees the mark after releasing the lock
// and runs again, so no commit is left behind.

func pendingPath(st *store.Store) string { return filepath.Join(stateDir(st), "push.pending") }

// MarkPending records that the local store has executions to push.
func MarkPending(st *store.Store) error {
	if err := os.MkdirAll(stateDir(st), 0o700); err != nil {
		return err
	}
	return os.WriteFile(pendingPath(st), nil, 0o600)
}

// TakePending reports whether a push was asked for, clearing the mark.
func TakePending(st *store.Store) bool { return os.Remove(pendingPath(st)) == nil }

// LockPush takes the workspace's push lock without waiting; ok is false when
// another process holds it.
func LockPush(st *store.Store) (unlock func(), ok bool, err error) {
	if err := os.MkdirAll(stateDir(st), 0o700); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(filepath.Join(stateDir(st), "push.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return func() { f.Close() }, true, nil
}

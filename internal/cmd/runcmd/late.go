package runcmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/query"
	"github.com/ctxhq/ctx/runner"
	"github.com/ctxhq/ctx/source"
	"github.com/ctxhq/ctx/store"
)

// A late generation (git status outlasted the command) is finished by a
// detached `ctx late-generation` in a session of its own, so ctx run
// returns at once. It is bounded: one per execution, lateTimeout for its
// git status and hashing, and at most one at a time per work tree (a lock
// file the child holds until it exits; an execution that finds it taken
// records no generation and says so in its note). A work tree whose
// generation was late once is marked (a .big file beside the lock): its
// next executions hand the generation off as the command starts and run no
// git status of their own, until a late one finds the tree quick again.
const lateTimeout = 10 * time.Second

// quickTree is how fast a late generation must be for its work tree to
// lose the mark.
const quickTree = 10 * time.Millisecond

// LateCmd is the hidden command that finishes a late generation.
const LateCmd = "late-generation"

// lateFile is the path of a work tree's lock (ext "lock") or mark ("big").
func lateFile(storeDir, root, ext string) string {
	return filepath.Join(storeDir, "late-"+store.Sum([]byte(root)).Short()+"."+ext)
}

// deferLate is runner.Env.Defer for the executions of st.
func deferLate(st *store.Store) func(runner.Deferral) error {
	return func(d runner.Deferral) error {
		lock, err := lockLate(st, d.Root)
		if err != nil {
			return err
		}
		defer lock.Close() // the child holds its own copy of the lock
		if f, err := os.OpenFile(lateFile(st.Dir(), d.Root, "big"), os.O_CREATE|os.O_WRONLY|syscall.O_NOFOLLOW, 0o600); err == nil {
			f.Close()
		}
		self, err := exec.LookPath(os.Args[0])
		if err != nil {
			return fmt.Errorf("find ctx to finish the generation: %w", err)
		}
		if self, err = filepath.Abs(self); err != nil {
			return fmt.Errorf("find ctx to finish the generation: %w", err)
		}
		self = helper.Ctx(self) // ctx itself, the quickest to start, also from ctx-mcp (the MCP server, ctx py)
		cmd := exec.Command(self, LateCmd, "--store", st.Dir(), "--exec", d.Exec, "--root", d.Root)
		if d.More != nil {
			cmd.Args, cmd.Stdin = append(cmd.Args, "--more"), d.More
		}
		cmd.Dir, cmd.Env, cmd.ExtraFiles = d.Root, os.Environ(), []*os.File{lock}
		if err := cli.Detach(cmd); err != nil {
			return fmt.Errorf("start ctx to finish the generation: %w", err)
		}
		return nil
	}
}

// lateBefore is runner.Env.DeferAtStart: whether the work tree is marked.
func lateBefore(st *store.Store) func(root string) bool {
	return func(root string) bool {
		_, err := os.Lstat(lateFile(st.Dir(), root, "big"))
		return err == nil
	}
}

// lockLate takes the work tree's late-generation lock without waiting.
func lockLate(st *store.Store, root string) (*os.File, error) {
	f, err := os.OpenFile(lateFile(st.Dir(), root, "lock"), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("late generation lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errors.New("the generation of an earlier command in this work tree was still being computed")
		}
		return nil, fmt.Errorf("late generation lock: %w", err)
	}
	return f, nil
}

// NewLateCmd is `ctx late-generation`, started by ctx itself only.
func NewLateCmd(ios *cli.IO) *cobra.Command {
	var dir, key, root string
	var more bool
	c := &cobra.Command{
		Use:    LateCmd,
		Short:  "finish an execution's late generation (ctx starts it)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := finishLate(c.Context(), dir, key, root, time.Now); err != nil || !more {
				return err
			}
			return finishMore(c.Context(), dir, root, ios.In, os.NewFile(3, "late lock"), time.Now)
		},
	}
	c.Flags().BoolVar(&more, "more", false, "then the executions whose keys arrive on stdin, one a line, until it ends")
	c.Flags().StringVar(&dir, "store", "", "the store's directory")
	c.Flags().StringVar(&key, "exec", "", "the execution record's key")
	c.Flags().StringVar(&root, "root", "", "the work tree's top")
	return c
}

// finishLate computes the generation of root and records it for the
// execution key with the moment it was observed (now, read when git status
// begins and ends, times it). Killed midway it records nothing: the row is
// written in one transaction at the end.
func finishLate(ctx context.Context, dir, key, root string, now func() time.Time) error {
	if dir == "" || key == "" || root == "" {
		return cli.Usagef("want --store, --exec and --root")
	}
	syscall.CloseOnExec(3) // the lock: git need not hold it
	return recordLate(ctx, dir, root, []string{key}, now)
}

// recordLate computes the generation of root once and records it for each
// of the executions keys, with the moment it was observed (now, as for
// finishLate): every one of them started before this git status did.
func recordLate(ctx context.Context, dir, root string, keys []string, now func() time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, lateTimeout)
	defer cancel()
	began := now()
	g, err := source.Current(ctx, root, nil)
	if err != nil {
		return err
	}
	observed := now()
	if observed.Sub(began) < quickTree {
		_ = os.Remove(lateFile(dir, root, "big"))
	}
	st, err := store.OpenDir(dir)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, key := range keys {
		if err := query.PutLate(st, query.Late{Exec: key, Generation: *runner.StoreGeneration(g), Observed: observed.UTC()}); err != nil {
			return err
		}
	}
	return nil
}

// finishMore records a late generation for each execution whose key
// arrives on in (a sequence's later steps, from runner.Generations), until
// in ends: the keys that arrived while a git status ran share the next
// one, which starts after all of them did, so a sequence of many quick
// steps costs a few git statuses, never one per step queued behind each
// other. Each step's generation is observed after the step started, as a
// late generation handed off at the start always is; its lag says how
// long after the step ended. lock (nil in tests) is the work tree's late
// lock, held by the caller: it is released while no key is waiting, so a
// long sequence does not keep other commands' late generations from the
// tree, and taken again for each git status (waiting for another's, at
// most lateTimeout; keys that find it taken that long record nothing).
func finishMore(ctx context.Context, dir, root string, in io.Reader, lock *os.File, now func() time.Time) error {
	keys := make(chan string, 1024) // what arrived while git status ran is read ahead
	go func() {
		defer close(keys)
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			if k := strings.TrimSpace(sc.Text()); k != "" {
				keys <- k
			}
		}
	}()
	for {
		unlockLate(lock)
		key, ok := <-keys
		if !ok {
			return nil
		}
		batch := []string{key}
	drain:
		for {
			select {
			case k, ok := <-keys:
				if !ok {
					break drain
				}
				batch = append(batch, k)
			default:
				break drain
			}
		}
		if !relockLate(ctx, lock) {
			continue
		}
		if err := recordLate(ctx, dir, root, batch, now); err != nil {
			return err
		}
	}
}

// unlockLate releases the late lock the helper holds (nil: none).
func unlockLate(lock *os.File) {
	if lock != nil {
		_ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	}
}

// relockLate takes the late lock again, waiting at most lateTimeout for
// another command's late generation of the tree (true with no lock).
func relockLate(ctx context.Context, lock *os.File) bool {
	if lock == nil {
		return true
	}
	deadline := time.Now().Add(lateTimeout)
	for {
		err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return true
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

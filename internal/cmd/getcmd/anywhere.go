package getcmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctxhq/ctx/cmdline"
	"github.com/ctxhq/ctx/internal/cli"
	"github.com/ctxhq/ctx/internal/helper"
	"github.com/ctxhq/ctx/retrieve"
	"github.com/ctxhq/ctx/store"
)

// ResolveAnywhere finds the store that holds a handle: this workspace's store
// first, then every store in the per-user index (store.Indexed), so a handle
// printed in one workspace can be read from any directory. A handle found in
// another store is announced on stderr, naming that store; the output itself
// is unchanged. The caller closes the store.
func ResolveAnywhere(ios *cli.IO, h store.Handle, raw string) (*store.Store, *store.Target, error) {
	local, firstErr := cli.OpenStore(ios, false)
	localDir := ""
	if firstErr == nil {
		t, err := local.Resolve(h)
		if err == nil || !errors.Is(err, store.ErrNotFound) {
			if err != nil {
				local.Close()
				return nil, nil, err
			}
			return local, t, nil
		}
		localDir, firstErr = local.Dir(), err
		local.Close()
	} else if !errors.Is(firstErr, store.ErrNotFound) {
		return nil, nil, firstErr
	}
	var found *store.Store
	var target *store.Target
	var where []string
	others := 0
	for _, dir := range store.Indexed() {
		if dir == localDir {
			continue
		}
		others++
		st, err := store.OpenDir(dir)
		if err != nil {
			continue
		}
		t, err := st.Resolve(h)
		if err != nil || found != nil && t.ID == target.ID {
			st.Close()
			continue
		}
		where = append(where, dir)
		if found != nil {
			st.Close()
			continue
		}
		found, target = st, t
		if len(h.Prefix) >= 12 { // a printed handle: another match is not worth the search
			break
		}
	}
	if localDir == "" {
		if cwd, err := ios.Getwd(); err == nil {
			if loc, err := store.Locate(cwd); err == nil {
				localDir = loc.Dir
			}
		}
	}
	if found == nil && helper.RemoteConfigured(localDir) {
		if Tier == nil {
			return nil, nil, helper.Need(helper.Remote, "reading "+raw+" from the remote (it is in no local store)")
		}
		return Tier.Resolve(ios, h, raw)
	}
	switch {
	case found == nil && others == 0:
		return nil, nil, firstErr
	case found == nil:
		return nil, nil, fmt.Errorf("%s: %w: not in this workspace's store nor in the %d other stores ctx knows (ctx ls --all lists their runs)", raw, store.ErrNotFound, others)
	case len(where) > 1:
		found.Close()
		return nil, nil, &store.Error{Err: fmt.Errorf("%s: %w: it names different records in the stores %v", raw, store.ErrAmbiguous, where),
			Hint: "give more hex digits of the id"}
	}
	fmt.Fprintf(ios.Err, "ctx: %s is from the store %s\n", raw, found.Dir())
	return found, target, nil
}

// CompleteHandles offers this workspace's recent run handles, with their
// commands, to shell completion (ctx get <TAB>).
func CompleteHandles(ios *cli.IO) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		st, err := cli.OpenStore(ios, false)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer st.Close()
		execs, err := st.Execs(50, nil)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		seen := map[string]bool{}
		for _, ex := range execs {
			h := ex.Handle()
			if seen[h] || !strings.HasPrefix(h, prefix) {
				continue
			}
			seen[h] = true
			out = append(out, h+"\t"+retrieve.ClipLine([]byte(cmdline.Display(ex.Argv)), 60))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

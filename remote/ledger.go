package remote

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ctxhq/ctx/continuity"
	"github.com/ctxhq/ctx/store"
)

// A workspace's ledger is pushed as its rows, one object each, under
// layers/ledger.log/<workspace>/<seq hex>. Pulling it copies the rows, in
// order and byte for byte, into the local ledger, which must be empty or a
// beginning of it (a fast-forward): the ledger is one hash-chained log, and
// two that have diverged cannot be joined without rewriting one.

// pullLedger copies the ledger of the workspace whose id starts with prefix.
func (r *Remote) pullLedger(ctx context.Context, st *store.Store, prefix string) (string, *PullReport, error) {
	ws, keys, err := r.ledgerOf(ctx, st, prefix)
	if err != nil {
		return "", nil, err
	}
	name := ledgerScheme + ":" + ws
	rows := make([][]byte, len(keys))
	for i, key := range keys {
		b, err := r.get(ctx, r.key(key))
		if err == nil {
			b, err = r.seal.open("remote "+key, b)
		}
		if err != nil {
			return name, nil, err
		}
		rows[i] = b
	}
	if brk := continuity.VerifyRows(rows); brk != nil {
		return name, nil, fmt.Errorf("remote %s row %d: %s: %w", name, brk.Row, brk.Reason, store.ErrCorrupt)
	}
	rep := &PullReport{}
	if err := r.pullRefs(ctx, st, rows, rep); err != nil {
		return name, rep, fmt.Errorf("pull %s: %w", name, err)
	}
	n, err := st.FastForwardLayerLog(ledgerBucket, rows)
	if errors.Is(err, store.ErrDiverged) {
		return name, rep, &store.Error{Err: fmt.Errorf("pull %s: this workspace's ledger has rows that one has not: %w", name, err),
			Hint: "a ledger is one chained log: pull it into a workspace whose ledger is empty or a beginning of it"}
	}
	rep.Records += n
	return name, rep, err
}

// ledgerOf finds the one workspace with a pushed ledger whose id starts with
// prefix (empty: any workspace but this one), and returns its id and the
// keys of its rows in order, checked to be rows 1, 2, … with none missing.
func (r *Remote) ledgerOf(ctx context.Context, st *store.Store, prefix string) (string, []string, error) {
	if prefix != "" && !hexPrefix().MatchString(prefix) {
		return "", nil, fmt.Errorf("ledger:%s: want ledger:WORKSPACE, a hex prefix of the workspace id ctx push prints: %w", prefix, store.ErrBadHandle)
	}
	self, err := WorkspaceID(st)
	if err != nil {
		return "", nil, err
	}
	dir := "layers/" + ledgerBucket + "/"
	objs, err := r.list(ctx, dir+prefix, nil)
	if err != nil {
		return "", nil, err
	}
	byWS := map[string][]string{}
	for _, o := range objs {
		ws, seq, ok := strings.Cut(strings.TrimPrefix(o.Key, dir), "/")
		if ok && len(seq) == 16 && (prefix != "" || ws != self) {
			byWS[ws] = append(byWS[ws], o.Key)
		}
	}
	var wss []string
	for ws := range byWS {
		wss = append(wss, ws)
	}
	slices.Sort(wss)
	switch len(wss) {
	case 0:
		return "", nil, fmt.Errorf("ledger:%s: no workspace pushed a ledger to s3://%s/%s: %w", prefix, r.cfg.Bucket, r.prefix, store.ErrNotFound)
	case 1:
	default:
		for i := range wss {
			wss[i] = ledgerScheme + ":" + wss[i]
		}
		return "", nil, &store.AmbiguousError{Prefix: prefix, Candidates: wss}
	}
	keys := byWS[wss[0]]
	slices.Sort(keys) // fixed-width hex: key order is row order
	for i, k := range keys {
		b, err := hex.DecodeString(k[len(k)-16:])
		if err != nil || binary.BigEndian.Uint64(b) != uint64(i+1) {
			return "", nil, fmt.Errorf("remote ledger:%s: row %d is missing (found %s): %w", wss[0], i+1, k, store.ErrCorrupt)
		}
	}
	return wss[0], keys, nil
}

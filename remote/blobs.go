package remote

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/ctxhq/ctx/store"
)

// A blob is two objects: blobs/<id>/data.<nonce>, its frames back to back
// (each sealed on its own when encrypting, so one frame is one ranged read),
// and blobs/<id>/table, naming the data object and each frame's length in it,
// followed by the store's checked frame table. The data object is written
// first and the table last, with If-None-Match: a table present means its
// data is complete, and of two workspaces pushing the same blob at once the
// first table wins (the loser deletes its data object; gc sweeps one left by
// a crash).

const tableMagic = "ctx-remote-table-v1\n"

// remoteBlob is a blob's table as read from the remote.
type remoteBlob struct {
	id    store.ID
	table *store.FrameTable
	data  string  // key of the data object
	offs  []int64 // each frame's offset in the data object
	lens  []int64 // and its length there
}

func (r *Remote) tableKey(id store.ID) string { return r.key("blobs", id.String(), "table") }

func encodeTable(id store.ID, nonce string, t *store.FrameTable, lens []int64) []byte {
	b := []byte(tableMagic)
	b = binary.AppendUvarint(b, uint64(len(nonce)))
	b = append(b, nonce...)
	b = binary.AppendUvarint(b, uint64(len(lens)))
	for _, n := range lens {
		b = binary.AppendUvarint(b, uint64(n))
	}
	sum := headSum(id, b)
	return append(append(b, sum[:]...), t.Encode(id)...)
}

// headSum checks the table's own head (nonce and frame lengths): the first
// 8 bytes of the BLAKE3 of the blob id and the head.
func headSum(id store.ID, head []byte) [8]byte {
	s := store.Sum(append(bytes.Clone(id[:]), head...))
	return [8]byte(s[:8])
}

func (r *Remote) decodeTable(id store.ID, b []byte) (*remoteBlob, error) {
	bad := fmt.Errorf("remote blob:%s table is damaged: %w", id.Short(), store.ErrCorrupt)
	if !bytes.HasPrefix(b, []byte(tableMagic)) {
		return nil, bad
	}
	full := b
	b = b[len(tableMagic):]
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	nl, ok := next()
	if !ok || nl > 64 || uint64(len(b)) < nl {
		return nil, bad
	}
	nonce := string(b[:nl])
	b = b[nl:]
	count, ok := next()
	if !ok || count > uint64(len(b)) {
		return nil, bad
	}
	rb := &remoteBlob{id: id, data: r.key("blobs", id.String(), "data."+nonce)}
	var off int64
	for i := uint64(0); i < count; i++ {
		n, ok := next()
		if !ok {
			return nil, bad
		}
		rb.offs, rb.lens = append(rb.offs, off), append(rb.lens, int64(n))
		off += int64(n)
	}
	head := full[:len(full)-len(b)]
	if len(b) < 8 || [8]byte(b[:8]) != headSum(id, head) {
		return nil, bad
	}
	b = b[8:]
	t, err := store.DecodeFrameTable(id, b)
	if err != nil {
		return nil, fmt.Errorf("remote %w", err)
	}
	if len(t.Frames) != len(rb.lens) {
		return nil, bad
	}
	rb.table = t
	return rb, nil
}

// hasBlob reports whether the remote holds blob id (its table).
func (r *Remote) hasBlob(ctx context.Context, id store.ID) (bool, error) {
	return r.exists(ctx, r.tableKey(id))
}

// pushBlob copies a stored blob to the remote unless it is there. It
// returns the bytes sent (0 when the blob was there).
func (r *Remote) pushBlob(ctx context.Context, b *store.Blob) (int64, error) {
	if ok, err := r.hasBlob(ctx, b.ID); err != nil || ok {
		return 0, err
	}
	t := b.Table()
	var nb [8]byte
	_, _ = rand.Read(nb[:])
	nonce := hex.EncodeToString(nb[:])
	lens := make([]int64, len(t.Frames))
	size := t.StoredSize()
	if r.Encrypted() {
		size = -1 // sealed frames are longer; the upload streams in parts
	}
	body := &frameReader{b: b, seal: r.seal, lens: lens}
	dataKey := r.key("blobs", b.ID.String(), "data."+nonce)
	if err := r.putStream(ctx, dataKey, body, size); err != nil {
		return 0, err
	}
	if body.err != nil {
		return 0, body.err
	}
	tab, err := r.seal.seal(encodeTable(b.ID, nonce, t, lens))
	if err != nil {
		return 0, err
	}
	switch err := r.putNew(ctx, r.tableKey(b.ID), tab); {
	case errors.Is(err, errExists):
		_ = r.remove(ctx, dataKey) // another workspace's push won
		return 0, nil
	case err != nil:
		return 0, err
	}
	return body.sent + int64(len(tab)), nil
}

// frameReader streams a blob's stored frames, sealing each when encrypting,
// and records each frame's length as sent.
type frameReader struct {
	b    *store.Blob
	seal *sealer
	lens []int64
	i    int
	cur  []byte
	sent int64
	err  error
}

func (f *frameReader) Read(p []byte) (int, error) {
	for len(f.cur) == 0 {
		if f.i == len(f.lens) {
			return 0, io.EOF
		}
		c, err := f.b.StoredFrame(f.i)
		if err == nil {
			c, err = f.seal.seal(c)
		}
		if err != nil {
			f.err = fmt.Errorf("push blob:%s frame %d: %w", f.b.ID.Short(), f.i, err)
			return 0, f.err
		}
		f.lens[f.i] = int64(len(c))
		f.cur = c
		f.i++
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	f.sent += int64(n)
	return n, nil
}

// table reads and checks blob id's table: one GET.
func (r *Remote) table(ctx context.Context, id store.ID) (*remoteBlob, error) {
	b, err := r.get(ctx, r.tableKey(id))
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("blob:%s is not in the remote: %w", id.Short(), store.ErrNotFound)
		}
		return nil, err
	}
	if b, err = r.seal.open("remote blob:"+id.Short()+" table", b); err != nil {
		return nil, err
	}
	return r.decodeTable(id, b)
}

// frame reads frame i of a remote blob: one ranged GET, unsealed.
func (r *Remote) frame(ctx context.Context, rb *remoteBlob, i int) ([]byte, error) {
	c, err := r.getRange(ctx, rb.data, rb.offs[i], rb.lens[i])
	if err != nil {
		return nil, err
	}
	return r.seal.open(fmt.Sprintf("remote blob:%s frame %d", rb.id.Short(), i), c)
}

// OpenBlob opens a remote blob for reading without copying it: its table is
// read now (one GET) and each frame a read touches by one ranged GET. Frames
// are checked as a stored blob's are (zstd checksum and length; a whole read
// against the BLAKE3 id).
func (r *Remote) OpenBlob(ctx context.Context, id store.ID) (*store.Blob, error) {
	rb, err := r.table(ctx, id)
	if err != nil {
		return nil, err
	}
	return store.BlobFrom(id, rb.table, func(i int) ([]byte, error) { return r.frame(ctx, rb, i) }), nil
}

// pullBlob copies a remote blob into the local store, verified on the way in
// (store.PutBlobFrames). It returns the bytes fetched.
func (r *Remote) pullBlob(ctx context.Context, st *store.Store, id store.ID) (int64, error) {
	if ok, err := st.HasBlob(id); err != nil || ok {
		return 0, err
	}
	rb, err := r.table(ctx, id)
	if err != nil {
		return 0, err
	}
	var data []byte
	if len(rb.lens) > 0 {
		end := rb.offs[len(rb.offs)-1] + rb.lens[len(rb.lens)-1]
		if data, err = r.getRange(ctx, rb.data, 0, end); err != nil {
			return 0, err
		}
	}
	err = st.PutBlobFrames(id, rb.table, func(i int) ([]byte, error) {
		return r.seal.open(fmt.Sprintf("remote blob:%s frame %d", id.Short(), i), data[rb.offs[i]:rb.offs[i]+rb.lens[i]])
	})
	if err != nil {
		return 0, fmt.Errorf("pull blob:%s: %w", id.Short(), err)
	}
	return int64(len(data)), nil
}

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
	"slices"

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
	return r.putBlob(ctx, b.ID, b.Table(), b.TravelFrame)
}

// putBlob writes blob id from its frame table and its frames (fetched in
// order, once each) unless the remote holds it: the data object, then the
// table, which records each frame's length as sent — a compaction that
// rewrote a frame after the table was read changes nothing the table says.
// It returns the bytes sent (0 when the blob was there).
func (r *Remote) putBlob(ctx context.Context, id store.ID, t *store.FrameTable, next func(int) ([]byte, error)) (int64, error) {
	if ok, err := r.hasBlob(ctx, id); err != nil || ok {
		return 0, err
	}
	var nb [8]byte
	_, _ = rand.Read(nb[:])
	nonce := hex.EncodeToString(nb[:])
	body := &frameReader{id: id, next: next, seal: r.seal, lens: make([]int64, len(t.Frames)), t: t}
	var data io.Reader = body
	size := t.StoredSize()
	if r.Encrypted() || hasRaw(t) {
		// Sealed or recompressed frames change length: a small blob is
		// gathered first (one PUT of a known size), a large one streamed
		// in parts.
		size = -1
		if t.StoredSize() <= gatherLimit {
			b, err := io.ReadAll(body)
			if err != nil {
				return 0, err
			}
			data, size = bytes.NewReader(b), int64(len(b))
		}
	}
	dataKey := r.key("blobs", id.String(), "data."+nonce)
	if err := r.putStream(ctx, dataKey, data, size); err != nil {
		if body.err != nil {
			return 0, body.err
		}
		return 0, err
	}
	if body.err != nil || body.i != len(t.Frames) {
		return 0, fmt.Errorf("push blob:%s: the upload ended after %d of %d frames: %v", id.Short(), body.i, len(t.Frames), body.err)
	}
	tab, err := r.seal.seal(encodeTable(id, nonce, body.sentTable(), body.lens))
	if err != nil {
		return 0, err
	}
	switch err := r.putNew(ctx, r.tableKey(id), tab); {
	case errors.Is(err, errExists):
		_ = r.remove(ctx, dataKey) // another workspace's push won
		return 0, nil
	case err != nil:
		return 0, err
	}
	return body.sent + int64(len(tab)), nil
}

// gatherLimit is the largest blob whose frames are gathered in memory
// before an upload whose size is not known in advance.
const gatherLimit = 16 << 20

// hasRaw reports whether a table records a frame stored raw (larger than
// its bytes), which TravelFrame compresses on the way.
func hasRaw(t *store.FrameTable) bool {
	for _, f := range t.Frames {
		if f.CLen > f.Len {
			return true
		}
	}
	return false
}

// frameReader streams a blob's frames, sealing each when encrypting, and
// records each frame's stored length (before sealing) and its length as
// sent.
type frameReader struct {
	id    store.ID
	t     *store.FrameTable
	next  func(int) ([]byte, error)
	seal  *sealer
	clens []uint32
	lens  []int64
	i     int
	cur   []byte
	sent  int64
	err   error
}

func (f *frameReader) Read(p []byte) (int, error) {
	for len(f.cur) == 0 {
		if f.i == len(f.lens) {
			return 0, io.EOF
		}
		c, err := f.next(f.i)
		f.clens = append(f.clens, uint32(len(c)))
		if err == nil {
			c, err = f.seal.seal(c)
		}
		if err != nil {
			f.err = fmt.Errorf("push blob:%s frame %d: %w", f.id.Short(), f.i, err)
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

// sentTable is the frame table with the stored lengths of the frames sent.
func (f *frameReader) sentTable() *store.FrameTable {
	t := *f.t
	t.Frames = slices.Clone(f.t.Frames)
	for i := range t.Frames {
		t.Frames[i].CLen = f.clens[i]
	}
	return &t
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
// (store.PutBlobFrames): one GET of the data object, read frame by frame as
// the store writes it, so a blob of any size costs one frame of memory. It
// returns the bytes fetched.
func (r *Remote) pullBlob(ctx context.Context, st *store.Store, id store.ID) (int64, error) {
	if ok, err := st.HasBlob(id); err != nil || ok {
		return 0, err
	}
	rb, err := r.table(ctx, id)
	if err != nil {
		return 0, err
	}
	var body io.ReadCloser = io.NopCloser(bytes.NewReader(nil))
	var end int64
	if len(rb.lens) > 0 {
		end = rb.offs[len(rb.offs)-1] + rb.lens[len(rb.lens)-1]
		if body, err = r.openRange(ctx, rb.data, 0, end); err != nil {
			return 0, err
		}
	}
	defer body.Close()
	err = st.PutBlobFrames(id, rb.table, func(i int) ([]byte, error) {
		buf := make([]byte, rb.lens[i])
		if _, err := io.ReadFull(body, buf); err != nil {
			return nil, r.wrap("get", rb.data, fmt.Errorf("frame %d: %w", i, err))
		}
		return r.seal.open(fmt.Sprintf("remote blob:%s frame %d", id.Short(), i), buf)
	})
	if err != nil {
		return 0, fmt.Errorf("pull blob:%s: %w", id.Short(), err)
	}
	r.Requests.BytesIn.Add(end)
	return end, nil
}

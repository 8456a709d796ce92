package store

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Retrieval is one `ctx get` of stored output: how often the agent needed what
// a digest left out is a measure of the digests' quality.
type Retrieval struct {
	Time   time.Time `json:"time"`
	Run    ID        `json:"run,omitzero"`
	Handle string    `json:"handle"`
	Bytes  int64     `json:"bytes"`
}

const retrievalLog = "retrievals.jsonl"

// RecordRetrieval appends a retrieval to the store's retrieval log. The log is
// accounting, not evidence: it is appended without a transaction or fsync
// (one O_APPEND write per line, so concurrent writers never interleave), and a
// failure to write it never fails the retrieval.
func (s *Store) RecordRetrieval(r Retrieval) {
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(s.dir, retrievalLog), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(b, '\n'))
}

// Retrievals returns the logged retrievals since a time.
func (s *Store) Retrievals(since time.Time) ([]Retrieval, error) {
	f, err := os.Open(filepath.Join(s.dir, retrievalLog))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Retrieval
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var r Retrieval
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue // a torn line from a crash: skip it
		}
		if !r.Time.Before(since) {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

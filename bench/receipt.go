package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/ctxhq/ctx/store"
)

// Receipt is a benchmark receipt: what was measured, on what, with what.
type Receipt struct {
	Kind       string            `json:"kind"` // "bench"
	Suite      string            `json:"suite"`
	Version    string            `json:"version"` // ctx version
	Time       time.Time         `json:"time"`
	Machine    Machine           `json:"machine"`
	Parameters map[string]any    `json:"parameters"`
	Corpus     map[string]string `json:"corpus,omitempty"` // file → sha256 of the inputs read
	Results    any               `json:"results"`
	Pass       bool              `json:"pass"`            // every gate met
	Gates      []Gate            `json:"gates,omitempty"` // the figures the issues name
	Refs       []string          `json:"refs"`            // none: benchmark receipts stand alone
}

// Gate is one named figure and whether it was met.
type Gate struct {
	Name     string  `json:"name"`
	Measured float64 `json:"measured"`
	Target   float64 `json:"target"`
	Unit     string  `json:"unit"`
	Better   string  `json:"better"` // "higher" or "lower"
	Met      bool    `json:"met"`
}

// NewGate makes a gate: met when measured is at least (better "higher") or at
// most (better "lower") the target.
func NewGate(name string, measured, target float64, unit, better string) Gate {
	met := measured >= target
	if better == "lower" {
		met = measured <= target
	}
	return Gate{Name: name, Measured: measured, Target: target, Unit: unit, Better: better, Met: met}
}

// Machine is where a benchmark ran.
type Machine struct {
	OS     string `json:"os"`
	Arch   string `json:"arch"`
	CPUs   int    `json:"cpus"`
	Go     string `json:"go"`
	Host   string `json:"host"`
	Kernel string `json:"kernel,omitempty"`
	Load   string `json:"load,omitempty"` // /proc/loadavg at the start
}

// ThisMachine reads the machine facts.
func ThisMachine() Machine {
	m := Machine{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), Go: runtime.Version()}
	m.Host, _ = os.Hostname()
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.Load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	return m
}

// NewReceipt starts a receipt for a suite.
func NewReceipt(suite, version string, params map[string]any) *Receipt {
	return &Receipt{Kind: "bench", Suite: suite, Version: version, Time: time.Now().UTC(), Machine: ThisMachine(),
		Parameters: params, Refs: []string{}}
}

// Finish sets the gates and the overall verdict.
func (r *Receipt) Finish(results any, gates ...Gate) {
	r.Results, r.Gates, r.Pass = results, gates, true
	for _, g := range gates {
		r.Pass = r.Pass && g.Met
	}
}

// Save stores the receipt and returns its handle.
func (r *Receipt) Save(st *store.Store) (string, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", err
	}
	id, err := st.PutReceipt(b)
	if err != nil {
		return "", err
	}
	return store.HandleOf(store.KindReceipt, id), nil
}

// DigestFiles returns the sha256 of every regular file under root (relative
// paths as keys), so a receipt names exactly the corpus it read.
func DigestFiles(root string, match func(path string) bool) (map[string]string, error) {
	out := map[string]string{}
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && (match == nil || match(p)) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(h.Sum(nil))[:16]
	}
	return out, nil
}

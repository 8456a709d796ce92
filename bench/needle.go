package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"text/tabwriter"

	"github.com/ctxhq/ctx/digest"
	"github.com/ctxhq/ctx/evidence"
)

// NeedleGenerators name the needle log generators: each has its own busy
// templates, timestamp format and needle level, so the needle figure does
// not rest on one log's shape.
var NeedleGenerators = []string{"app", "syslog", "python"}

// NeedleLog is NeedleLogOf the "app" generator.
func NeedleLog(seed uint64, lines int) (log []byte, needle string, at int) {
	log, needle, at, _ = NeedleLogOf("app", seed, lines)
	return log, needle, at
}

// NeedleLogOf generates a log of lines-1 busy lines from a few templates,
// with varying timestamps, ids, numbers and paths, and one quiet line unlike
// any other at a seeded position, in the shape of generator gen (one of
// NeedleGenerators):
//
//   - app: ISO timestamps, a level and a [thread]; the needle is at INFO.
//   - syslog: "Nov 29 08:00:01 host prog[pid]:" with no level; nor has the
//     needle.
//   - python: "2026-11-29 08:00:01,123 - logger - LEVEL - "; the needle is
//     at DEBUG, among busy DEBUG lines.
//
// It returns the log, the needle and its 1-based line number.
func NeedleLogOf(gen string, seed uint64, lines int) (log []byte, needle string, at int, err error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	at = 1 + lines/3 + rng.IntN(lines/3)
	var b bytes.Buffer
	hex := func(n int) string {
		const digits = "0123456789abcdef"
		s := make([]byte, n)
		for i := range s {
			s[i] = digits[rng.IntN(16)]
		}
		return string(s)
	}
	ip := func() string { return fmt.Sprintf("10.%d.%d.%d", rng.IntN(256), rng.IntN(256), rng.IntN(256)) }
	var line func(i int, needle bool) string
	switch gen {
	case "app":
		line = func(i int, needle bool) string {
			ts := fmt.Sprintf("2026-11-29T%02d:%02d:%02d.%03dZ", 8+i/36000%12, i/600%60, i/10%60, rng.IntN(1000))
			if needle {
				return ts + " INFO  [main] schema migration skipped: replica lag above threshold, operator override in effect"
			}
			switch k := rng.IntN(100); {
			case k < 40:
				return fmt.Sprintf("%s INFO  [http-%d] request %s GET /api/v2/items/%d status=200 bytes=%d duration=%dms",
					ts, rng.IntN(32), hex(16), rng.IntN(100000), 200+rng.IntN(90000), 1+rng.IntN(900))
			case k < 65:
				return fmt.Sprintf("%s DEBUG [pool-%d] connection %d returned to pool (active=%d idle=%d)",
					ts, rng.IntN(8), 1000+rng.IntN(9000), rng.IntN(64), rng.IntN(64))
			case k < 85:
				return fmt.Sprintf("%s INFO  [scheduler] job %s-%d completed in %d.%03ds",
					ts, hex(8), rng.IntN(1000), rng.IntN(60), rng.IntN(1000))
			case k < 95:
				return fmt.Sprintf("%s WARN  [cache] evicted %d entries from shard %d (pressure %d%%)",
					ts, 1+rng.IntN(5000), rng.IntN(32), 50+rng.IntN(50))
			default:
				return fmt.Sprintf("%s INFO  [auth] user u%06d logged in from %s", ts, rng.IntN(1000000), ip())
			}
		}
	case "syslog":
		line = func(i int, needle bool) string {
			ts := fmt.Sprintf("Nov %2d %02d:%02d:%02d web-%d", 29+i/86400%2, i/3600%24, i/60%60, i%60, 1+i/5000%3)
			if needle {
				return fmt.Sprintf("%s backupd[%d]: snapshot of volume data postponed until the previous upload completes", ts, 2000+rng.IntN(30000))
			}
			switch k := rng.IntN(100); {
			case k < 35:
				return fmt.Sprintf("%s sshd[%d]: Accepted publickey for deploy from %s port %d ssh2: ED25519 SHA256:%s",
					ts, 2000+rng.IntN(30000), ip(), 1024+rng.IntN(60000), hex(22))
			case k < 60:
				return fmt.Sprintf("%s CRON[%d]: (root) CMD (/usr/local/bin/rotate --shard %d --keep %d)",
					ts, 2000+rng.IntN(30000), rng.IntN(64), 1+rng.IntN(30))
			case k < 80:
				return fmt.Sprintf("%s kernel: [%d.%06d] eth%d: rx %d packets %d bytes, tx %d packets",
					ts, 10000+i, rng.IntN(1000000), rng.IntN(2), rng.IntN(1e6), rng.IntN(1e9), rng.IntN(1e6))
			case k < 92:
				return fmt.Sprintf("%s systemd[1]: Started session-%d.scope - Session %d of User deploy.",
					ts, 1+rng.IntN(90000), 1+rng.IntN(90000))
			default:
				return fmt.Sprintf("%s dhclient[%d]: DHCPACK of %s from %s (xid=0x%s)", ts, 400+rng.IntN(100), ip(), ip(), hex(8))
			}
		}
	case "python":
		line = func(i int, needle bool) string {
			ts := fmt.Sprintf("2026-11-29 %02d:%02d:%02d,%03d", 8+i/36000%12, i/600%60, i/10%60, rng.IntN(1000))
			if needle {
				return ts + " - app.billing - DEBUG - invoice batch left unsent while the ledger lock is held elsewhere"
			}
			switch k := rng.IntN(100); {
			case k < 30:
				return fmt.Sprintf("%s - celery.worker - INFO - Task tasks.send_email[%s-%s-%s] succeeded in %d.%03ds: None",
					ts, hex(8), hex(4), hex(12), rng.IntN(5), rng.IntN(1000))
			case k < 60:
				return fmt.Sprintf("%s - urllib3.connectionpool - DEBUG - https://api.internal:443 \"POST /v1/events/%d HTTP/1.1\" 202 %d",
					ts, rng.IntN(100000), rng.IntN(5000))
			case k < 85:
				return fmt.Sprintf("%s - app.cache - DEBUG - cache hit for key user:%d:profile (ttl %d)", ts, rng.IntN(1e6), rng.IntN(3600))
			default:
				return fmt.Sprintf("%s - app.metrics - INFO - flushed %d metrics to statsd in %dms", ts, rng.IntN(5000), rng.IntN(300))
			}
		}
	default:
		return nil, "", 0, fmt.Errorf("needle generator %q: want one of %s", gen, strings.Join(NeedleGenerators, ", "))
	}
	for i := 1; i <= lines; i++ {
		l := line(i, i == at)
		if i == at {
			needle = l
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes(), needle, at, nil
}

// NeedleResult is what the needle benchmark measured.
type NeedleResult struct {
	Generator    string  `json:"generator"`
	Seed         uint64  `json:"seed"`
	Lines        int     `json:"lines"`
	NeedleLine   int     `json:"needle_line"`
	RawTokens    int     `json:"raw_tokens"`
	DigestTokens int     `json:"digest_tokens"`
	Ratio        float64 `json:"ratio"`
	Inline       bool    `json:"needle_inline_verbatim"`
	Handle       string  `json:"needle_handle,omitempty"`
	Retrievable  bool    `json:"needle_retrievable"`
	Run          string  `json:"run"`
	Profile      string  `json:"profile"`
	Digest       string  `json:"digest"`
}

// RunNeedle digests a needle log of generator gen and checks the needle is
// inline, verbatim, with a handle that returns it.
func RunNeedle(ctx context.Context, gen string, seed uint64, lines int) (*NeedleResult, error) {
	log, needle, at, err := NeedleLogOf(gen, seed, lines)
	if err != nil {
		return nil, err
	}
	sc, err := NewScratch("")
	if err != nil {
		return nil, err
	}
	defer sc.Close()
	res, err := sc.Digest(ctx, []string{"cat", "app.log"}, 0, log, nil, digest.Options{})
	if err != nil {
		return nil, err
	}
	r := &NeedleResult{Generator: gen, Seed: seed, Lines: lines, NeedleLine: at, Run: res.Run.Handle(), Profile: res.Plan.Profile,
		Digest: string(res.Digest.Text)}
	if r.RawTokens, err = Tokens(log); err != nil {
		return nil, err
	}
	if r.DigestTokens, err = Tokens(res.Digest.Text); err != nil {
		return nil, err
	}
	r.Ratio = float64(r.RawTokens) / float64(max(r.DigestTokens, 1))
	r.Inline = bytes.Contains(res.Digest.Text, []byte(needle))
	for i := range res.Graph.Items {
		it := &res.Graph.Items[i]
		if it.Kind == evidence.KindAnomaly && it.Text == needle && !it.Span.IsZero() {
			r.Handle = it.Span.Handle()
			break
		}
	}
	if r.Handle != "" {
		got, err := sc.Lines(r.Handle)
		if err != nil {
			return nil, err
		}
		r.Retrievable = strings.TrimSuffix(string(got), "\n") == needle
	}
	return r, nil
}

// WriteText prints the needle figures.
func (r *NeedleResult) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "needle log\t%s, seed %d, %d lines, needle at L%d\n", r.Generator, r.Seed, r.Lines, r.NeedleLine)
	fmt.Fprintf(tw, "raw tokens\t%d\n", r.RawTokens)
	fmt.Fprintf(tw, "digest tokens\t%d (%s)\n", r.DigestTokens, r.Profile)
	fmt.Fprintf(tw, "ratio\t%.0f×\n", r.Ratio)
	fmt.Fprintf(tw, "needle inline verbatim\t%v\n", r.Inline)
	fmt.Fprintf(tw, "needle handle\t%s (returns the needle: %v)\n", r.Handle, r.Retrievable)
	return tw.Flush()
}

// NeedlesResult is the needle benchmark over several generators and seeds.
type NeedlesResult struct {
	Runs []*NeedleResult `json:"runs"`
	// MaxDigestTokens is the largest digest; Inline and Retrievable count the
	// runs whose needle was inline verbatim and returned by its handle.
	MaxDigestTokens int `json:"max_digest_tokens"`
	Inline          int `json:"inline"`
	Retrievable     int `json:"retrievable"`
}

// RunNeedles runs RunNeedle for every generator of NeedleGenerators and
// seeds 1..seeds.
func RunNeedles(ctx context.Context, seeds, lines int) (*NeedlesResult, error) {
	res := &NeedlesResult{}
	for _, gen := range NeedleGenerators {
		for s := 1; s <= seeds; s++ {
			r, err := RunNeedle(ctx, gen, uint64(s), lines)
			if err != nil {
				return nil, err
			}
			res.Runs = append(res.Runs, r)
			res.MaxDigestTokens = max(res.MaxDigestTokens, r.DigestTokens)
			if r.Inline {
				res.Inline++
			}
			if r.Retrievable {
				res.Retrievable++
			}
		}
	}
	return res, nil
}

// WriteText prints one row per run, then the totals.
func (r *NeedlesResult) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "generator\tseed\tneedle at\traw tokens\tdigest tokens\tinline\tretrievable")
	for _, x := range r.Runs {
		fmt.Fprintf(tw, "%s\t%d\tL%d\t%d\t%d\t%v\t%v\n", x.Generator, x.Seed, x.NeedleLine, x.RawTokens, x.DigestTokens, x.Inline, x.Retrievable)
	}
	fmt.Fprintf(tw, "all\t%d runs\t\t\tmax %d\t%d/%d\t%d/%d\n", len(r.Runs), r.MaxDigestTokens, r.Inline, len(r.Runs), r.Retrievable, len(r.Runs))
	return tw.Flush()
}

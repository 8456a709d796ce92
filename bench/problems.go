package bench

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"fmt"
	"io"
	"math/rand/v2"
	"path"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ctxhq/ctx/profiles/logs"
)

// problemLogs are small trimmed real logs collected on a Debian machine; see
// testdata/problems/README.md for the commands that made them.
//
//go:embed testdata/problems/*.log.gz
var problemLogs embed.FS

// problemKinds are one-line problems as real tools print them, with slots
// for values: service and unit managers, package managers, language
// runtimes, databases, web servers, the kernel, network clients. They were
// written from what those tools print, not from what the logs profile looks
// for; several carry none of its failure words.
var problemKinds = []string{
	"Failed to start %[w]s.service - %[W]s Daemon.",
	"Traceback (most recent call last):",
	"connect() to %[ip]s:%[port]s failed (111: Connection refused) while connecting to upstream, client: %[ip]s",
	"open() \"/var/www/%[w]s/index.html\" failed (13: Permission denied)",
	"Out of memory: Killed process %[n]s (%[w]s) total-vm:%[n]skB, anon-rss:%[n]skB",
	"npm ERR! missing script: %[w]s",
	"Aborted (core dumped)",
	"Segmentation fault (core dumped) ./%[w]s --config /etc/%[w]s.conf",
	"java.lang.NullPointerException: Cannot invoke \"%[W]s.get%[W]s()\" because \"%[w]s\" is null",
	"Exception in thread \"%[w]s-%[n]s\" java.lang.OutOfMemoryError: Java heap space",
	"ERROR:  duplicate key value violates unique constraint \"%[w]s_pkey\"",
	"FATAL:  password authentication failed for user \"%[w]s\"",
	"E: Unable to locate package %[w]s-%[w]s",
	"dpkg: error processing package %[w]s (--configure):",
	"E: Sub-process /usr/bin/dpkg returned an error code (1)",
	"upstream timed out (110: Connection timed out) while reading response header from upstream, client: %[ip]s",
	"write /var/lib/%[w]s/%[w]s.db: No space left on device",
	"ssh: connect to host %[ip]s port 22: No route to host",
	"curl: (6) Could not resolve host: %[w]s.%[w]s.internal",
	"panic: runtime error: index out of range [%[n]s] with length %[n]s",
	"fatal error: concurrent map writes",
	"Kernel panic - not syncing: Attempted to kill init! exitcode=0x%[hex]s",
	"%[w]s[%[n]s]: segfault at %[hex]s ip %[hex]s sp %[hex]s error 4 in lib%[w]s.so",
	"Host %[ip]s is unreachable",
	"SSL: CERTIFICATE_VERIFY_FAILED certificate verify failed: unable to get local issuer certificate (_ssl.c:%[n]s)",
	"OSError: [Errno 28] No space left on device: '/tmp/%[w]s'",
	"disk quota exceeded for user %[w]s on /home",
	"read tcp %[ip]s:%[port]s->%[ip]s:%[port]s: i/o timeout",
	"rpc error: code = DeadlineExceeded desc = context deadline exceeded",
	"health check for backend %[w]s-%[n]s failed: HTTP 503",
	"Job for %[w]s.service failed because the control process exited with error code.",
	"java.net.SocketTimeoutException: Read timed out",
	"WARNING:  could not write block %[n]s of base/%[n]s/%[n]s",
	"ERROR:  deadlock detected",
	"INFO: task %[w]s:%[n]s blocked for more than 120 seconds.",
	"Killed",
	"assertion \"%[w]s != NULL\" failed: file \"%[w]s.c\", line %[n]s",
	"ModuleNotFoundError: No module named '%[w]s'",
	"make: *** [Makefile:%[n]s: %[w]s] Error 2",
	"lost connection to %[w]s at %[ip]s, retrying in %[n]ss",
	"sqlite3.OperationalError: unable to open database file",
	"checksum mismatch for %[w]s.tar.gz: expected %[hex]s, got %[hex]s",
	"worker %[n]s terminated by signal 9 (SIGKILL)",
	"server returned HTTP 500 Internal Server Error for /api/%[w]s",
	"W: GPG error: http://deb.%[w]s.org stable InRelease: The following signatures couldn't be verified",
	"[emerg] bind() to 0.0.0.0:%[port]s failed (98: Address already in use)",
	"CRIT Supervisor %[w]s exited unexpectedly (exit status 137)",
	"Caused by: java.io.IOException: Broken pipe",
	"unhandled rejection: TypeError: Cannot read properties of undefined (reading '%[w]s')",
	"replica %[w]s-%[n]s is %[n]s seconds behind primary, stopping replication",
}

// problemWords are the values of %[w]s slots: ordinary words, so that a
// problem line is told apart by its phrasing, not by odd values.
var problemWords = []string{"nginx", "redis", "worker", "billing", "cache", "api", "postgres", "cron", "mailer",
	"auth", "search", "gateway", "scheduler", "ingest", "report", "session", "queue", "backup", "metrics", "store"}

// ProblemLine returns one problem line drawn with rng.
func ProblemLine(rng *rand.Rand) string {
	k := problemKinds[rng.IntN(len(problemKinds))]
	var b strings.Builder
	for {
		i := strings.Index(k, "%[")
		if i < 0 {
			b.WriteString(k)
			break
		}
		j := strings.Index(k[i:], "]s")
		b.WriteString(k[:i])
		switch k[i+2 : i+j] {
		case "w":
			b.WriteString(problemWords[rng.IntN(len(problemWords))])
		case "W":
			w := problemWords[rng.IntN(len(problemWords))]
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		case "n":
			fmt.Fprintf(&b, "%d", 1+rng.IntN(40000))
		case "ip":
			fmt.Fprintf(&b, "10.%d.%d.%d", rng.IntN(256), rng.IntN(256), 1+rng.IntN(254))
		case "port":
			fmt.Fprintf(&b, "%d", 1024+rng.IntN(60000))
		case "hex":
			fmt.Fprintf(&b, "%x", rng.Uint32())
		}
		k = k[i+j+2:]
	}
	return b.String()
}

// InsertProblems inserts n problem lines into log at seeded positions and
// returns the new log with the 1-based numbers of the inserted lines. Each
// problem takes the leading fields of the line before it that look like a
// header (fields with a digit, and punctuation between them: timestamps,
// addresses, pids), so that it reads as a line of that log.
func InsertProblems(log []byte, seed uint64, n int) ([]byte, []int) {
	rng := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	orig := bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n"))
	// Choose n distinct insertion points after ordinary lines.
	after := rng.Perm(len(orig))[:min(n, len(orig))]
	sort.Ints(after)
	var out bytes.Buffer
	var at []int
	k := 0
	for i, l := range orig {
		out.Write(l)
		out.WriteByte('\n')
		for k < len(after) && after[k] == i {
			out.WriteString(headerOf(string(l)))
			out.WriteString(ProblemLine(rng))
			out.WriteByte('\n')
			at = append(at, i+2+k)
			k++
		}
	}
	return out.Bytes(), at
}

// headerOf returns the leading fields of line that contain a digit, with
// the punctuation-only fields among them, and the space after them.
func headerOf(line string) string {
	end := 0
	for i := 0; i < len(line); {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		if i == j {
			break
		}
		f := line[i:j]
		if !strings.ContainsAny(f, "0123456789") && strings.ContainsFunc(f, func(r rune) bool {
			return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
		}) {
			break
		}
		end = j
		i = j
	}
	if end == 0 {
		return ""
	}
	return line[:end] + " "
}

// ProblemLogResult is the detection score on one real log.
type ProblemLogResult struct {
	Log      string `json:"log"`
	Lines    int    `json:"ordinary_lines"`
	Inserted int    `json:"inserted"`
	Found    int    `json:"found"`
	// Flagged counts ordinary lines reported as problems (error level or
	// failure phrasing); Rare counts those reported as rare templates only,
	// an info-level hint.
	Flagged int      `json:"ordinary_flagged"`
	Rare    int      `json:"ordinary_rare"`
	Missed  []string `json:"missed,omitempty"`
}

// ProblemsResult is the inserted-problem benchmark.
type ProblemsResult struct {
	Seeds     int                `json:"seeds"`
	PerLog    int                `json:"problems_per_log"`
	Logs      []ProblemLogResult `json:"logs"`
	Recall    float64            `json:"recall"`
	FlagRate  float64            `json:"ordinary_flag_rate"`
	RareRate  float64            `json:"ordinary_rare_rate"`
	Inserted  int                `json:"inserted"`
	Found     int                `json:"found"`
	Ordinary  int                `json:"ordinary"`
	Flagged   int                `json:"flagged"`
	RareLines int                `json:"rare"`
}

// RunProblems inserts perLog problem lines into each embedded real log, once
// per seed 1..seeds, runs the logs profile's detector and scores it: recall
// over the inserted lines (found when reported for any reason), and the share
// of ordinary lines flagged.
func RunProblems(ctx context.Context, seeds, perLog int) (*ProblemsResult, error) {
	ents, err := problemLogs.ReadDir("testdata/problems")
	if err != nil {
		return nil, err
	}
	res := &ProblemsResult{Seeds: seeds, PerLog: perLog}
	for li, e := range ents {
		raw, err := readGzip(path.Join("testdata/problems", e.Name()))
		if err != nil {
			return nil, err
		}
		lr := ProblemLogResult{Log: strings.TrimSuffix(e.Name(), ".gz")}
		for seed := 1; seed <= seeds; seed++ {
			// Each log and seed draws its own problems.
			log, at := InsertProblems(raw, uint64(seed)<<8|uint64(li), perLog)
			why, err := logs.Findings(ctx, bytes.NewReader(log))
			if err != nil {
				return nil, err
			}
			inserted := map[int]bool{}
			for _, n := range at {
				inserted[n] = true
			}
			lines := bytes.Split(log, []byte("\n"))
			for i, w := range why {
				n := i + 1
				switch {
				case inserted[n]:
					lr.Inserted++
					if w != "" {
						lr.Found++
					} else if len(lr.Missed) < 10 {
						lr.Missed = append(lr.Missed, string(lines[i]))
					}
				default:
					lr.Lines++
					switch w {
					case "":
					case logs.WhyRare:
						lr.Rare++
					default:
						lr.Flagged++
					}
				}
			}
		}
		res.Logs = append(res.Logs, lr)
		res.Inserted += lr.Inserted
		res.Found += lr.Found
		res.Ordinary += lr.Lines
		res.Flagged += lr.Flagged
		res.RareLines += lr.Rare
	}
	res.Recall = float64(res.Found) / float64(max(res.Inserted, 1))
	res.FlagRate = float64(res.Flagged) / float64(max(res.Ordinary, 1))
	res.RareRate = float64(res.RareLines) / float64(max(res.Ordinary, 1))
	return res, nil
}

func readGzip(name string) ([]byte, error) {
	f, err := problemLogs.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return io.ReadAll(z)
}

// WriteText prints one row per log and the totals, then the missed lines.
func (r *ProblemsResult) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "log\tinserted\tfound\trecall\tordinary lines\tflagged\trare only")
	for _, l := range r.Logs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%d\t%d (%.2f%%)\t%d (%.2f%%)\n", l.Log, l.Inserted, l.Found,
			float64(l.Found)/float64(max(l.Inserted, 1)), l.Lines, l.Flagged, 100*float64(l.Flagged)/float64(max(l.Lines, 1)),
			l.Rare, 100*float64(l.Rare)/float64(max(l.Lines, 1)))
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%.3f\t%d\t%d (%.2f%%)\t%d (%.2f%%)\n", r.Inserted, r.Found, r.Recall, r.Ordinary,
		r.Flagged, 100*r.FlagRate, r.RareLines, 100*r.RareRate)
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range r.Logs {
		for _, m := range l.Missed {
			fmt.Fprintf(w, "missed in %s: %s\n", l.Log, m)
		}
	}
	return nil
}

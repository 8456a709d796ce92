package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ctxhq/ctx/profiles/logs"
)

// LoghubSystems are the loghub-2.0 systems of the 2k benchmark, in the order
// they are reported.
var LoghubSystems = []string{"Apache", "BGL", "HDFS", "Hadoop", "HealthApp", "OpenStack", "Proxifier"}

// ErrLoghubData reports a loghub folder that is missing or malformed.
var ErrLoghubData = errors.New("bad loghub data")

// LoghubSystem is one loghub system: its raw lines, the Content column of its
// structured file, and the ground-truth template of every line.
type LoghubSystem struct {
	Name    string
	Raw     [][]byte // the *_2k.log lines without "\n" (a CR before it stays)
	Content [][]byte // the Content column, one per line
	Truth   []string // EventTemplate, one per line
}

// LoadLoghubSystem reads dir/NAME_2k.log and dir/NAME_2k.log_structured_corrected.csv.
func LoadLoghubSystem(dir, name string) (*LoghubSystem, error) {
	sys := &LoghubSystem{Name: name}
	rawPath := filepath.Join(dir, name+"_2k.log")
	raw, err := os.ReadFile(rawPath)
	if err != nil {
		return nil, fmt.Errorf("load loghub %s: %w", name, err)
	}
	// Keep a CR before the newline: coping with CRLF is the miner's job.
	raw = bytes.TrimSuffix(raw, []byte("\n"))
	sys.Raw = bytes.Split(raw, []byte("\n"))

	csvPath := filepath.Join(dir, name+"_2k.log_structured_corrected.csv")
	f, err := os.Open(csvPath)
	if err != nil {
		return nil, fmt.Errorf("load loghub %s: %w", name, err)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", csvPath, err)
	}
	content, tmpl, lineID := -1, -1, -1
	for i, h := range head {
		switch strings.TrimPrefix(h, "\ufeff") {
		case "Content":
			content = i
		case "EventTemplate":
			tmpl = i
		case "LineId":
			lineID = i
		}
	}
	if content < 0 || tmpl < 0 || lineID < 0 {
		return nil, fmt.Errorf("read %s: no LineId, Content or EventTemplate column: %w", csvPath, ErrLoghubData)
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", csvPath, err)
		}
		n, err := strconv.Atoi(rec[lineID])
		if err != nil || n != len(sys.Truth)+1 {
			return nil, fmt.Errorf("read %s: LineId %q out of sequence: %w", csvPath, rec[lineID], ErrLoghubData)
		}
		sys.Content = append(sys.Content, []byte(rec[content]))
		sys.Truth = append(sys.Truth, rec[tmpl])
	}
	if len(sys.Truth) != len(sys.Raw) {
		return nil, fmt.Errorf("load loghub %s: %d raw lines but %d labelled rows: %w",
			name, len(sys.Raw), len(sys.Truth), ErrLoghubData)
	}
	return sys, nil
}

// Scores are the accuracy figures of one parse against the ground truth.
type Scores struct {
	GA        float64 // grouping accuracy
	FGA       float64 // F1 of group accuracy
	Templates int     // distinct templates predicted
	Expected  int     // distinct templates in the ground truth
	Correct   int     // predicted groups equal to a ground-truth group
}

// MineResult is one run of the miner over one input.
type MineResult struct {
	Scores
	Lines       int
	Elapsed     time.Duration
	LinesPerSec float64
}

// SystemResult is the result of one loghub system on both inputs.
type SystemResult struct {
	Name    string
	Content MineResult // mining the Content column
	Raw     MineResult // mining the raw log lines
}

// LoghubReport is the result of a whole loghub run.
type LoghubReport struct {
	Systems     []SystemResult
	MeanContent Scores // plain means of GA and FGA over systems; counts are sums
	MeanRaw     Scores
	// ContentLinesPerSec and RawLinesPerSec are all lines over all mining
	// time, for each input.
	ContentLinesPerSec float64
	RawLinesPerSec     float64
}

// RunLoghub mines every system of LoghubSystems under dir (one folder per
// system) on its Content column and on its raw lines, each with a fresh
// miner, and scores both against the ground truth. It checks ctx between
// systems.
func RunLoghub(ctx context.Context, dir string, opts logs.Options) (*LoghubReport, error) {
	rep := &LoghubReport{}
	var c, r []Scores
	var cLines, rLines int
	var cTime, rTime time.Duration
	for _, name := range LoghubSystems {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sys, err := LoadLoghubSystem(filepath.Join(dir, name), name)
		if err != nil {
			return nil, err
		}
		res := SystemResult{
			Name:    name,
			Content: Mine(sys.Content, sys.Truth, opts),
			Raw:     Mine(sys.Raw, sys.Truth, opts),
		}
		rep.Systems = append(rep.Systems, res)
		c = append(c, res.Content.Scores)
		r = append(r, res.Raw.Scores)
		cLines += res.Content.Lines
		rLines += res.Raw.Lines
		cTime += res.Content.Elapsed
		rTime += res.Raw.Elapsed
	}
	rep.MeanContent = meanScores(c)
	rep.MeanRaw = meanScores(r)
	if cTime > 0 {
		rep.ContentLinesPerSec = float64(cLines) / cTime.Seconds()
	}
	if rTime > 0 {
		rep.RawLinesPerSec = float64(rLines) / rTime.Seconds()
	}
	return rep, nil
}

// WriteText writes the report as a table: one row per system with GA, FGA
// and template counts on both inputs, then the means and throughput.
func (r *LoghubReport) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "system\tGA content\tFGA content\ttemplates content\tGA raw\tFGA raw\ttemplates raw")
	row := func(name string, c, raw Scores) {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%d/%d\t%.4f\t%.4f\t%d/%d\n", name,
			c.GA, c.FGA, c.Templates, c.Expected, raw.GA, raw.FGA, raw.Templates, raw.Expected)
	}
	for _, s := range r.Systems {
		row(s.Name, s.Content.Scores, s.Raw.Scores)
	}
	row("mean", r.MeanContent, r.MeanRaw)
	fmt.Fprintf(tw, "lines/s\t%.0f\t\t\t%.0f\t\t\n", r.ContentLinesPerSec, r.RawLinesPerSec)
	return tw.Flush()
}

// Mine runs a fresh miner over lines, labels each line with its final
// template and scores the labels against truth.
func Mine(lines [][]byte, truth []string, opts logs.Options) MineResult {
	m := logs.NewMiner(opts)
	ids := make([]int, len(lines))
	start := time.Now()
	for i, l := range lines {
		ids[i] = m.Add(l)
	}
	elapsed := time.Since(start)
	pred := make([]string, len(lines))
	for i, id := range ids {
		pred[i] = strconv.Itoa(m.Resolve(id))
	}
	res := MineResult{
		Scores:  Score(truth, pred),
		Lines:   len(lines),
		Elapsed: elapsed,
	}
	if elapsed > 0 {
		res.LinesPerSec = float64(len(lines)) / elapsed.Seconds()
	}
	return res
}

// GroupingAccuracy is the fraction of lines whose ground-truth group was
// recovered exactly: all the group's lines share one predicted label and that
// label was given to no other line. truth and pred hold one label per line.
func GroupingAccuracy(truth, pred []string) float64 {
	return Score(truth, pred).GA
}

// Score computes grouping accuracy and F1 group accuracy. A predicted group
// is correct when its set of lines equals the set of a ground-truth group;
// FGA is the F1 of precision (correct / predicted groups) and recall
// (correct / ground-truth groups). It panics if truth and pred differ in
// length.
func Score(truth, pred []string) Scores {
	if len(truth) != len(pred) {
		panic("bench: Score: truth and pred differ in length")
	}
	if len(truth) == 0 {
		return Scores{}
	}
	truthSize := map[string]int{}
	predSize := map[string]int{}
	for i := range truth {
		truthSize[truth[i]]++
		predSize[pred[i]]++
	}
	// For each ground-truth group, the single predicted label its lines
	// share, or "" with mixed set when they disagree.
	type seen struct {
		label string
		mixed bool
	}
	first := map[string]*seen{}
	for i, t := range truth {
		s, ok := first[t]
		if !ok {
			first[t] = &seen{label: pred[i]}
			continue
		}
		if s.label != pred[i] {
			s.mixed = true
		}
	}
	keys := make([]string, 0, len(first))
	for t := range first {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	correctLines, correctGroups := 0, 0
	for _, t := range keys {
		s := first[t]
		if !s.mixed && predSize[s.label] == truthSize[t] {
			correctLines += truthSize[t]
			correctGroups++
		}
	}
	sc := Scores{
		GA:        float64(correctLines) / float64(len(truth)),
		Templates: len(predSize),
		Expected:  len(truthSize),
		Correct:   correctGroups,
	}
	p := float64(correctGroups) / float64(len(predSize))
	r := float64(correctGroups) / float64(len(truthSize))
	if p+r > 0 {
		sc.FGA = 2 * p * r / (p + r)
	}
	return sc
}

func meanScores(s []Scores) Scores {
	var m Scores
	if len(s) == 0 {
		return m
	}
	for _, x := range s {
		m.GA += x.GA
		m.FGA += x.FGA
		m.Templates += x.Templates
		m.Expected += x.Expected
		m.Correct += x.Correct
	}
	m.GA /= float64(len(s))
	m.FGA /= float64(len(s))
	return m
}

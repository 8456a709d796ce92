package bench

import (
	"bytes"
	"compress/gzip"
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

// ErrLoghubData reports a loghub folder that is missing or malformed.
var ErrLoghubData = errors.New("bad loghub data")

// LoghubSystem is one loghub system: its raw lines, the Content column of its
// structured file, and the ground-truth template of every line.
type LoghubSystem struct {
	Name    string
	Raw     [][]byte // the *.log lines without "\n" (a CR before it stays)
	Content [][]byte // the Content column, one per line
	Truth   []string // EventTemplate, one per line
}

// FindLoghubSystems returns the loghub-format system folders under each of
// dirs, sorted by name within each: a folder is a system when it holds a
// *.log file and a *_structured*.csv file. A dir that is itself a system is
// returned as is. It fails when a dir holds no system at all, so that a
// mistyped --data does not score nothing.
func FindLoghubSystems(dirs ...string) ([]string, error) {
	var out []string
	for _, dir := range dirs {
		if isLoghubSystem(dir) {
			out = append(out, dir)
			continue
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("find loghub systems: %w", err)
		}
		n := 0
		for _, e := range ents { // ReadDir sorts by name
			if p := filepath.Join(dir, e.Name()); e.IsDir() && isLoghubSystem(p) {
				out = append(out, p)
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("find loghub systems in %s: no folder holds a *.log and a *_structured*.csv: %w", dir, ErrLoghubData)
		}
	}
	return out, nil
}

func isLoghubSystem(dir string) bool {
	log, csv, err := loghubFiles(dir)
	return err == nil && log != "" && csv != ""
}

// loghubFiles returns the log and the structured csv of the system in dir,
// "" for a missing one. When both a corrected and an original structured
// file are present, the corrected one is used.
func loghubFiles(dir string) (log, csv string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", "", err
	}
	var logs, csvs []string
	for _, e := range ents {
		name := e.Name()
		switch {
		case e.IsDir():
		case strings.HasSuffix(name, ".log") || strings.HasSuffix(name, ".log.gz"):
			logs = append(logs, name)
		case (strings.HasSuffix(name, ".csv") || strings.HasSuffix(name, ".csv.gz")) && strings.Contains(name, "_structured"):
			csvs = append(csvs, name)
		}
	}
	if len(csvs) > 1 {
		var corrected []string
		for _, c := range csvs {
			if strings.Contains(c, "corrected") {
				corrected = append(corrected, c)
			}
		}
		csvs = corrected
	}
	if len(logs) > 1 || len(csvs) > 1 {
		return "", "", fmt.Errorf("%s: more than one *.log or *_structured*.csv (%s): keep one of each: %w",
			dir, strings.Join(append(logs, csvs...), ", "), ErrLoghubData)
	}
	if len(logs) == 1 {
		log = filepath.Join(dir, logs[0])
	}
	if len(csvs) == 1 {
		csv = filepath.Join(dir, csvs[0])
	}
	return log, csv, nil
}

// LoadLoghubSystem reads the system in dir: its one *.log file and its one
// *_structured*.csv file (either may be gzipped, *.log.gz, *.csv.gz) (LineId, Content and EventTemplate columns, one row
// per log line). The system is named after the folder.
func LoadLoghubSystem(dir string) (*LoghubSystem, error) {
	sys := &LoghubSystem{Name: filepath.Base(dir)}
	rawPath, csvPath, err := loghubFiles(dir)
	if err != nil {
		return nil, fmt.Errorf("load loghub %s: %w", sys.Name, err)
	}
	if rawPath == "" || csvPath == "" {
		return nil, fmt.Errorf("load loghub %s: want one *.log and one *_structured*.csv in %s: %w", sys.Name, dir, ErrLoghubData)
	}
	raw, err := readMaybeGzip(rawPath)
	if err != nil {
		return nil, fmt.Errorf("load loghub %s: %w", sys.Name, err)
	}
	// Keep a CR before the newline: coping with CRLF is the miner's job.
	raw = bytes.TrimSuffix(raw, []byte("\n"))
	sys.Raw = bytes.Split(raw, []byte("\n"))

	csvData, err := readMaybeGzip(csvPath)
	if err != nil {
		return nil, fmt.Errorf("load loghub %s: %w", sys.Name, err)
	}
	r := csv.NewReader(bytes.NewReader(csvData))
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
			sys.Name, len(sys.Raw), len(sys.Truth), ErrLoghubData)
	}
	return sys, nil
}

// readMaybeGzip reads the file at path, decompressing it when its name ends
// in ".gz".
func readMaybeGzip(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
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
	CPU         time.Duration // process CPU time of the fastest pass
	LinesPerSec float64
}

// SystemResult is the result of one loghub system on both inputs.
type SystemResult struct {
	Name    string
	Content MineResult // mining the Content column, with the shipped options
	Raw     MineResult // mining the raw log lines, with the shipped options
	// With LoghubConfig.LeaveOut: the scores with the grid point chosen on
	// the other systems alone (HeldOutMergeValues), never on this one.
	HeldOutMergeValues int     `json:",omitempty"`
	HeldOutKeyedValues int     `json:",omitempty"`
	HeldOutClusterVals int     `json:",omitempty"`
	HeldOutContent     *Scores `json:",omitempty"`
	HeldOutRaw         *Scores `json:",omitempty"`
	// HeldOutOff names the rules the other systems chose to switch off
	// (see logs.RuleNames); empty when they kept every rule.
	HeldOutOff []string `json:",omitempty"`
	// Ablation is this system's score with each rule switched off in
	// turn, in logs.RuleNames order.
	Ablation []RuleScores `json:",omitempty"`
}

// RuleScores is a score with one rule of the miner switched off.
type RuleScores struct {
	Rule         string
	Content, Raw Scores
}

// LoghubReport is the result of a whole loghub run.
type LoghubReport struct {
	Systems     []SystemResult
	MeanContent Scores // plain means of GA and FGA over systems; counts are sums
	MeanRaw     Scores
	// With LoghubConfig.LeaveOut, the means of the held-out scores.
	LeaveOutContent *Scores `json:",omitempty"`
	LeaveOutRaw     *Scores `json:",omitempty"`
	// Grid is the merge and cluster thresholds leave-out chose among.
	Grid []GridPoint `json:",omitempty"`
	// Ablation is the mean over systems with each rule switched off.
	Ablation []RuleScores `json:",omitempty"`
	// ContentLinesPerSec and RawLinesPerSec are all lines over all mining
	// time with the shipped options, for each input (each system timed by
	// its fastest of minePasses passes).
	ContentLinesPerSec float64
	RawLinesPerSec     float64
	// ContentLinesPerCPUSec and RawLinesPerCPUSec are all lines over the
	// process CPU time (user and system) the fastest passes took: on a
	// shared machine CPU time says more about one core than wall time.
	// Zero where the platform does not report it.
	ContentLinesPerCPUSec float64 `json:",omitempty"`
	RawLinesPerCPUSec     float64 `json:",omitempty"`
}

// LoghubConfig says what RunLoghub scores.
type LoghubConfig struct {
	// Dirs are folders of loghub-format systems, or system folders
	// themselves (see FindLoghubSystems).
	Dirs []string
	// Options are the shipped miner options: the all-in score.
	Options logs.Options
	// LeaveOut also scores each system with every choice the miner makes
	// chosen on the other systems alone: its thresholds
	// (Options.MergeValues, KeyedMergeValues and ClusterValues) from LeaveOutGrid, and
	// each of its rules (logs.RuleNames) kept or switched off, by the mean
	// GA of the other systems. It also reports each system's score with
	// each rule off (the ablation).
	LeaveOut bool
	// Miner is the miner scored: "" or MinerCtx for ctx's, MinerDrain for
	// the Drain baseline (drain.go), which has no choices to hold out.
	Miner string
}

// The miners RunLoghub scores.
const (
	MinerCtx   = "ctx"
	MinerDrain = "drain"
)

// GridPoint is one choice of the miner's thresholds.
type GridPoint struct {
	MergeValues, KeyedMergeValues, ClusterValues int
}

// LeaveOutGrid are the threshold triples leave-out chooses among.
var LeaveOutGrid = func() (g []GridPoint) {
	for _, mv := range []int{3, 4, 5, 6, 8, 10, 12, 16} {
		for _, kv := range []int{2, 3, 4, 6, 8} {
			for _, cv := range []int{2, 3, 4, 5, 8} {
				g = append(g, GridPoint{mv, kv, cv})
			}
		}
	}
	return g
}()

// RunLoghub mines every system found under cfg.Dirs on its Content column
// and on its raw lines, each with a fresh miner, and scores both against the
// ground truth. It checks ctx between systems.
func RunLoghub(ctx context.Context, cfg LoghubConfig) (*LoghubReport, error) {
	mineAll, err := loghubMiner(cfg)
	if err != nil {
		return nil, err
	}
	paths, err := FindLoghubSystems(cfg.Dirs...)
	if err != nil {
		return nil, err
	}
	rep := &LoghubReport{}
	var c, r []Scores
	var cLines, rLines int
	var cTime, rTime, cCPU, rCPU time.Duration
	// grid[i][g] is system i's mean of Content and raw GA at LeaveOutGrid[g].
	var gridC, gridR [][]Scores
	var systems []*LoghubSystem // kept for leave-out's final scores
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sys, err := LoadLoghubSystem(p)
		if err != nil {
			return nil, err
		}
		res := SystemResult{
			Name:    sys.Name,
			Content: mineAll(sys.Content, sys.Truth),
			Raw:     mineAll(sys.Raw, sys.Truth),
		}
		rep.Systems = append(rep.Systems, res)
		c = append(c, res.Content.Scores)
		r = append(r, res.Raw.Scores)
		cLines += res.Content.Lines
		rLines += res.Raw.Lines
		cTime += res.Content.Elapsed
		rTime += res.Raw.Elapsed
		cCPU += res.Content.CPU
		rCPU += res.Raw.CPU
		if cfg.LeaveOut {
			var sc, sr []Scores
			for _, gp := range LeaveOutGrid {
				o := cfg.Options
				o.MergeValues, o.KeyedMergeValues, o.ClusterValues = gp.MergeValues, gp.KeyedMergeValues, gp.ClusterValues
				sc = append(sc, mine(sys.Content, sys.Truth, o, 1).Scores)
				sr = append(sr, mine(sys.Raw, sys.Truth, o, 1).Scores)
			}
			gridC, gridR = append(gridC, sc), append(gridR, sr)
			for _, rn := range logs.RuleNames {
				o := cfg.Options
				o.Off |= rn.Rule
				res := &rep.Systems[len(rep.Systems)-1]
				res.Ablation = append(res.Ablation, RuleScores{Rule: rn.Name,
					Content: mine(sys.Content, sys.Truth, o, 1).Scores, Raw: mine(sys.Raw, sys.Truth, o, 1).Scores})
			}
			systems = append(systems, sys)
		}
	}
	rep.MeanContent = meanScores(c)
	rep.MeanRaw = meanScores(r)
	if cTime > 0 {
		rep.ContentLinesPerSec = float64(cLines) / cTime.Seconds()
	}
	if rTime > 0 {
		rep.RawLinesPerSec = float64(rLines) / rTime.Seconds()
	}
	if cCPU > 0 && rCPU > 0 {
		rep.ContentLinesPerCPUSec = float64(cLines) / cCPU.Seconds()
		rep.RawLinesPerCPUSec = float64(rLines) / rCPU.Seconds()
	}
	if cfg.LeaveOut {
		rep.leaveOut(cfg, gridC, gridR, systems)
	}
	return rep, nil
}

// leaveOut scores each system with the thresholds and rules chosen on the
// others (gridC and gridR: each system's scores over LeaveOutGrid), and the
// mean of every rule's ablation.
func (rep *LoghubReport) leaveOut(cfg LoghubConfig, gridC, gridR [][]Scores, systems []*LoghubSystem) {
	rep.Grid = LeaveOutGrid
	var hc, hr []Scores
	for i := range rep.Systems {
		g := chooseOnOthers(gridC, gridR, i)
		s := &rep.Systems[i]
		s.HeldOutMergeValues, s.HeldOutKeyedValues = LeaveOutGrid[g].MergeValues, LeaveOutGrid[g].KeyedMergeValues
		s.HeldOutClusterVals = LeaveOutGrid[g].ClusterValues
		c, r := gridC[i][g], gridR[i][g]
		if off := rulesOffOnOthers(rep.Systems, i); off != 0 {
			o := cfg.Options
			o.MergeValues, o.KeyedMergeValues, o.ClusterValues = s.HeldOutMergeValues, s.HeldOutKeyedValues, s.HeldOutClusterVals
			o.Off |= off
			c = mine(systems[i].Content, systems[i].Truth, o, 1).Scores
			r = mine(systems[i].Raw, systems[i].Truth, o, 1).Scores
			s.HeldOutOff = ruleNames(off)
		}
		s.HeldOutContent, s.HeldOutRaw = &c, &r
		hc, hr = append(hc, c), append(hr, r)
	}
	mc, mr := meanScores(hc), meanScores(hr)
	rep.LeaveOutContent, rep.LeaveOutRaw = &mc, &mr
	for k, rn := range logs.RuleNames {
		var ac, ar []Scores
		for _, s := range rep.Systems {
			ac, ar = append(ac, s.Ablation[k].Content), append(ar, s.Ablation[k].Raw)
		}
		rep.Ablation = append(rep.Ablation, RuleScores{Rule: rn.Name, Content: meanScores(ac), Raw: meanScores(ar)})
	}
}

// loghubMiner is the miner cfg names: ctx's (the default) or the Drain
// baseline, which takes no options.
func loghubMiner(cfg LoghubConfig) (func(lines [][]byte, truth []string) MineResult, error) {
	switch cfg.Miner {
	case "", MinerCtx:
		return func(lines [][]byte, truth []string) MineResult { return Mine(lines, truth, cfg.Options) }, nil
	case MinerDrain:
		if cfg.LeaveOut || cfg.Options != (logs.Options{}) {
			return nil, fmt.Errorf("bench loghub: the Drain baseline has fixed parameters: leave-out and miner options apply to ctx's miner only: %w", ErrLoghubData)
		}
		return func(lines [][]byte, truth []string) MineResult { return MineDrain(lines, truth) }, nil
	}
	return nil, fmt.Errorf("bench loghub: no miner %q: want %s or %s: %w", cfg.Miner, MinerCtx, MinerDrain, ErrLoghubData)
}

// chooseOnOthers returns the grid point with the best mean GA (Content and
// raw lines alike) over every system but held; on ties, the one nearest the
// shipped default, then the smaller.
func chooseOnOthers(gridC, gridR [][]Scores, held int) int {
	const eps = 1e-9
	dist := func(g int) int {
		d := LeaveOutGrid[g].MergeValues - logs.DefaultMergeValues
		e := LeaveOutGrid[g].KeyedMergeValues - logs.DefaultKeyedMergeValues
		f := LeaveOutGrid[g].ClusterValues - logs.DefaultClusterValues
		return max(d, -d) + max(e, -e) + max(f, -f)
	}
	best, bestScore := 0, -1.0
	for g := range LeaveOutGrid {
		sum := 0.0
		for i := range gridC {
			if i != held {
				sum += gridC[i][g].GA + gridR[i][g].GA
			}
		}
		if sum > bestScore+eps || (sum > bestScore-eps && dist(g) < dist(best)) {
			best, bestScore = g, sum
		}
	}
	return best
}

// rulesOffOnOthers returns the rules that, switched off alone, raise the
// mean GA (Content and raw lines alike) of every system but held above
// the shipped miner's; ties keep the rule.
func rulesOffOnOthers(systems []SystemResult, held int) logs.Rules {
	const eps = 1e-9
	var off logs.Rules
	for k, rn := range logs.RuleNames {
		with, without := 0.0, 0.0
		for i, s := range systems {
			if i != held {
				with += s.Content.GA + s.Raw.GA
				without += s.Ablation[k].Content.GA + s.Ablation[k].Raw.GA
			}
		}
		if without > with+eps {
			off |= rn.Rule
		}
	}
	return off
}

// ruleNames names the rules in off.
func ruleNames(off logs.Rules) []string {
	var names []string
	for _, rn := range logs.RuleNames {
		if off&rn.Rule != 0 {
			names = append(names, rn.Name)
		}
	}
	return names
}

// WriteText writes the report as a table: one row per system with GA, FGA
// and template counts on both inputs, then the means and throughput; with
// leave-out, the held-out GA and the threshold chosen without the system.
func (r *LoghubReport) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	lo := r.LeaveOutContent != nil
	head := "system\tGA content\tFGA content\ttemplates content\tGA raw\tFGA raw\ttemplates raw"
	if lo {
		head += "\tleave-out GA content\tleave-out GA raw\tchosen on others"
	}
	fmt.Fprintln(tw, head)
	row := func(name string, c, raw Scores, hc, hr *Scores, chosen string) {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%d/%d\t%.4f\t%.4f\t%d/%d", name,
			c.GA, c.FGA, c.Templates, c.Expected, raw.GA, raw.FGA, raw.Templates, raw.Expected)
		if lo {
			fmt.Fprintf(tw, "\t%.4f\t%.4f\t%s", hc.GA, hr.GA, chosen)
		}
		fmt.Fprintln(tw)
	}
	for _, s := range r.Systems {
		chosen := fmt.Sprintf("merge at %d words, %d keyed, cluster at %d", s.HeldOutMergeValues, s.HeldOutKeyedValues, s.HeldOutClusterVals)
		if len(s.HeldOutOff) > 0 {
			chosen += "; off: " + strings.Join(s.HeldOutOff, ", ")
		}
		row(s.Name, s.Content.Scores, s.Raw.Scores, s.HeldOutContent, s.HeldOutRaw, chosen)
	}
	row("mean", r.MeanContent, r.MeanRaw, r.LeaveOutContent, r.LeaveOutRaw, "")
	fmt.Fprintf(tw, "lines/s\t%.0f\t\t\t%.0f\t\t\n", r.ContentLinesPerSec, r.RawLinesPerSec)
	if r.RawLinesPerCPUSec > 0 {
		fmt.Fprintf(tw, "lines per CPU second\t%.0f\t\t\t%.0f\t\t\n", r.ContentLinesPerCPUSec, r.RawLinesPerCPUSec)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Ablation) == 0 {
		return nil
	}
	// The ablation: each rule off in turn, GA content/raw per system.
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	head = "rule off\tmean content\tmean raw"
	for _, s := range r.Systems {
		head += "\t" + s.Name
	}
	fmt.Fprintln(tw, head)
	fmt.Fprintf(tw, "(none)\t%.4f\t%.4f", r.MeanContent.GA, r.MeanRaw.GA)
	for _, s := range r.Systems {
		fmt.Fprintf(tw, "\t%.3f/%.3f", s.Content.GA, s.Raw.GA)
	}
	fmt.Fprintln(tw)
	for k, a := range r.Ablation {
		fmt.Fprintf(tw, "%s\t%.4f\t%.4f", a.Rule, a.Content.GA, a.Raw.GA)
		for _, s := range r.Systems {
			fmt.Fprintf(tw, "\t%.3f/%.3f", s.Ablation[k].Content.GA, s.Ablation[k].Raw.GA)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// minePasses is how many times Mine times the miner over the same lines.
const minePasses = 5

// Mine runs a fresh miner over lines, labels each line with its final
// template and scores the labels against truth.
func Mine(lines [][]byte, truth []string, opts logs.Options) MineResult {
	return mine(lines, truth, opts, minePasses)
}

// mine is Mine with the number of timed passes.
func mine(lines [][]byte, truth []string, opts logs.Options, passes int) MineResult {
	m := logs.NewMiner(opts)
	ids := make([]int, len(lines))
	start, cpu0 := time.Now(), cpuTime()
	for i, l := range lines {
		ids[i] = m.Add(l)
	}
	m.Templates() // the miner has settled: every line is mined
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	// On a machine shared with other work one pass is noisy: the time is
	// that of the fastest of minePasses passes, each with a fresh miner.
	for p := 1; p < passes; p++ {
		again := logs.NewMiner(opts)
		start, cpu0 := time.Now(), cpuTime()
		for _, l := range lines {
			again.Add(l)
		}
		again.Templates()
		elapsed, cpu = min(elapsed, time.Since(start)), min(cpu, cpuTime()-cpu0)
	}
	pred := make([]string, len(lines))
	for i, id := range ids {
		pred[i] = strconv.Itoa(m.Resolve(id))
	}
	res := MineResult{
		Scores:  Score(truth, pred),
		Lines:   len(lines),
		Elapsed: elapsed,
		CPU:     cpu,
	}
	if elapsed > 0 {
		res.LinesPerSec = float64(len(lines)) / elapsed.Seconds()
	}
	return res
}

// MineDrain runs the Drain baseline over lines and scores its labels
// against truth, timed as Mine times ctx's miner.
func MineDrain(lines [][]byte, truth []string) MineResult {
	var pred []string
	res := MineResult{Lines: len(lines)}
	for p := 0; p < minePasses; p++ {
		start, cpu0 := time.Now(), cpuTime()
		pred = DrainLabels(lines)
		elapsed, cpu := time.Since(start), cpuTime()-cpu0
		if p == 0 || elapsed < res.Elapsed {
			res.Elapsed = elapsed
		}
		if p == 0 || cpu < res.CPU {
			res.CPU = cpu
		}
	}
	res.Scores = Score(truth, pred)
	if res.Elapsed > 0 {
		res.LinesPerSec = float64(len(lines)) / res.Elapsed.Seconds()
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

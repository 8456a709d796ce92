package bench

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Sample is a set of timings of one side of a comparison.
type Sample []time.Duration

// Median is the middle timing.
func (s Sample) Median() time.Duration {
	if len(s) == 0 {
		return 0
	}
	c := append(Sample(nil), s...)
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

// Spread is the interquartile range.
func (s Sample) Spread() time.Duration {
	if len(s) < 4 {
		return 0
	}
	c := append(Sample(nil), s...)
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	return c[len(c)*3/4] - c[len(c)/4]
}

// Stat is a sample summarised for a receipt.
type Stat struct {
	N        int     `json:"n"`
	MedianMS float64 `json:"median_ms"`
	IQRMS    float64 `json:"iqr_ms"`
	MinMS    float64 `json:"min_ms"`
}

// Stat summarises the sample.
func (s Sample) Stat() Stat {
	st := Stat{N: len(s), MedianMS: ms(s.Median()), IQRMS: ms(s.Spread())}
	if len(s) > 0 {
		m := s[0]
		for _, d := range s {
			m = min(m, d)
		}
		st.MinMS = ms(m)
	}
	return st
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 100 }

// alternate runs a and b n times each, interleaved (a, b, b, a, a, b, …) so
// drift in the machine's load falls on both sides alike.
func alternate(n int, a, b func() (time.Duration, error)) (Sample, Sample, error) {
	var sa, sb Sample
	for i := range n {
		first, second := a, b
		if i%2 == 1 {
			first, second = b, a
		}
		d1, err := first()
		if err != nil {
			return nil, nil, err
		}
		d2, err := second()
		if err != nil {
			return nil, nil, err
		}
		if i%2 == 1 {
			d1, d2 = d2, d1
		}
		sa, sb = append(sa, d1), append(sb, d2)
	}
	return sa, sb, nil
}

func mbps(bytes int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return math.Round(float64(bytes)/d.Seconds()/1e6*10) / 10
}

func pct(x float64) string { return fmt.Sprintf("%.0f%%", x*100) }

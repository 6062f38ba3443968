package inboxbench

import (
	"slices"
	"time"
)

// Repetitions of a timed operation: up to maxReps, but no longer than
// budget once minReps are done, so that a query taking seconds on a large
// database does not hold the run for minutes. Its p99 is then the slowest
// of few.
const (
	maxReps = 50
	minReps = 5
	budget  = 10 * time.Second
)

// timings are the durations of repeated runs of one operation.
type timings []time.Duration

// repeat runs op once to warm the caches, then times it as the constants
// above say.
func repeat(op func() error) (timings, error) {
	if err := op(); err != nil {
		return nil, err
	}
	var ts timings
	began := time.Now()
	for len(ts) < maxReps && (len(ts) < minReps || time.Since(began) < budget) {
		t := time.Now()
		if err := op(); err != nil {
			return nil, err
		}
		ts = append(ts, time.Since(t))
	}
	return ts, nil
}

// quantile returns the q-quantile of ts (nearest rank).
func (ts timings) quantile(q float64) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// countingWriter discards what is written and counts the bytes, as a
// client reading an export as fast as it comes would.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

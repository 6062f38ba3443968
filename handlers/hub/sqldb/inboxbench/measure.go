package inboxbench

import (
	"runtime"
	"runtime/metrics"
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

// heapPeak samples the bytes of heap objects, live or not yet swept,
// every millisecond until stopped, and keeps the largest. runtime/metrics
// reads it without stopping the world, as runtime.ReadMemStats would.
type heapPeak struct {
	stop, done chan struct{}
	peak       uint64
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapNow() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// watchHeap collects garbage, so that the peak is the operation's, and
// starts sampling.
func watchHeap() *heapPeak {
	runtime.GC()
	h := &heapPeak{stop: make(chan struct{}), done: make(chan struct{}), peak: heapNow()}
	go func() {
		defer close(h.done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
				h.peak = max(h.peak, heapNow())
			}
		}
	}()
	return h
}

// end stops sampling and returns the peak in bytes.
func (h *heapPeak) end() uint64 {
	close(h.stop)
	<-h.done
	return max(h.peak, heapNow())
}

// countingWriter discards what is written and counts the bytes, as a
// client reading an export as fast as it comes would.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

package testkit

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// HeapPeak samples the bytes of heap objects, live or not yet swept,
// every millisecond until stopped, and keeps the largest. runtime/metrics
// reads it without stopping the world, as runtime.ReadMemStats would.
type HeapPeak struct {
	stop, done chan struct{}
	peak       uint64
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapNow() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// WatchHeap collects garbage, so that the peak is the operation's, and
// starts sampling.
func WatchHeap() *HeapPeak {
	runtime.GC()
	h := &HeapPeak{stop: make(chan struct{}), done: make(chan struct{}), peak: heapNow()}
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

// End stops sampling and returns the peak in bytes.
func (h *HeapPeak) End() uint64 {
	close(h.stop)
	<-h.done
	return max(h.peak, heapNow())
}

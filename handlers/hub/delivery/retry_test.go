package delivery

import (
	"testing"
	"time"
)

func TestScheduleRetriesForADay(t *testing.T) {
	for _, s := range []schedule{
		{DefaultBackoff, DefaultRetryFor},
		{10 * time.Millisecond, DefaultRetryFor},
		{time.Second, time.Minute},
	} {
		n := s.maxAttempts()
		// The shortest the schedule can be: every delay at its least.
		var least, most time.Duration
		for i := 1; i < n; i++ {
			d := s.base(i)
			least += time.Duration(float64(d) * (1 - jitter))
			most += time.Duration(float64(d) * (1 + jitter))
		}
		if least < s.retryFor {
			t.Errorf("%+v: %d attempts span %v at least, want %v", s, n, least, s.retryFor)
		}
		if last := time.Duration(float64(s.base(n-1)) * (1 - jitter)); least-last >= s.retryFor {
			t.Errorf("%+v: %d attempts; one fewer would span %v already", s, n, least-last)
		}
		t.Logf("%+v: %d attempts over %v to %v", s, n, least, most)
	}
}

func TestScheduleGrowsWithJitter(t *testing.T) {
	s := schedule{backoff: time.Second, retryFor: time.Hour}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}
	for i, w := range want {
		if got := s.base(i + 1); got != w {
			t.Errorf("base(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := s.base(40); got != MaxBackoff {
		t.Errorf("base(40) = %v, want %v", got, MaxBackoff)
	}
	seen := map[time.Duration]bool{}
	for range 50 {
		d := s.delay(3)
		if d < 3200*time.Millisecond || d > 4800*time.Millisecond {
			t.Fatalf("delay(3) = %v, want 4s ± 20%%", d)
		}
		seen[d] = true
	}
	if len(seen) < 2 {
		t.Error("delay(3) never varies: no jitter")
	}
}

// TestRescueAfterTimeout checks that a job is taken for stuck only once
// its attempt has timed out, and soon enough to be run again within a
// minute by default (River's rescuer looks every 30 seconds).
func TestRescueAfterTimeout(t *testing.T) {
	for _, timeout := range []time.Duration{time.Second, 2 * time.Second, DefaultTimeout, time.Minute} {
		if r := rescueAfter(timeout); r <= timeout {
			t.Errorf("rescueAfter(%v) = %v, not after the timeout", timeout, r)
		}
	}
	if r := rescueAfter(DefaultTimeout); r+30*time.Second > time.Minute {
		t.Errorf("rescueAfter(DefaultTimeout) = %v: with the rescuer's interval, over a minute", r)
	}
	q := newQueue(Config{})
	if rc := q.riverConfig(true); rc.RescueStuckJobsAfter != rescueAfter(DefaultTimeout) || rc.JobTimeout != DefaultTimeout {
		t.Errorf("River config: rescue after %v, job timeout %v", rc.RescueStuckJobsAfter, rc.JobTimeout)
	}
}

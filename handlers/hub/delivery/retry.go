package delivery

import (
	"math/rand/v2"
	"time"
)

// Defaults of the retry schedule.
const (
	// DefaultBackoff is the delay before the first retry.
	DefaultBackoff = 30 * time.Second
	// MaxBackoff is the longest delay between two attempts.
	MaxBackoff = time.Hour
	// DefaultRetryFor is how long a delivery is retried before it is
	// marked failed: a receiver down for a day still gets it.
	DefaultRetryFor = 24 * time.Hour
	// jitter is the fraction by which a delay is varied either way, so
	// that deliveries failed together are not retried together.
	jitter = 0.2
)

// schedule is the retry schedule: the delay before retry n doubles from
// backoff up to MaxBackoff, varied by jitter, and the attempts go on until
// their delays add up to retryFor at least.
type schedule struct {
	backoff, retryFor time.Duration
}

// base is the delay after attempt n (1 for the first) before jitter.
func (s schedule) base(n int) time.Duration {
	d := s.backoff
	for i := 1; i < n && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

// delay is the delay after attempt n, with jitter.
func (s schedule) delay(n int) time.Duration {
	f := 1 - jitter + 2*jitter*rand.Float64()
	return time.Duration(float64(s.base(n)) * f)
}

// maxAttempts is the number of attempts after which a delivery is marked
// failed: the fewest whose shortest possible delays add up to retryFor.
func (s schedule) maxAttempts() int {
	var total time.Duration
	n := 1
	for ; total < s.retryFor; n++ {
		total += time.Duration(float64(s.base(n)) * (1 - jitter))
	}
	return n
}

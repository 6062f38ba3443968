package funnel

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// Defaults of CounterConfig.
const (
	DefaultInterval   = 5 * time.Second
	DefaultMaxPending = 50_000
)

// storeTimeout bounds a store of the Counter's own goroutine.
const storeTimeout = 30 * time.Second

// CounterConfig configures a Counter. The zero value is the defaults.
type CounterConfig struct {
	// Interval is how often the counts are stored; DefaultInterval when
	// zero.
	Interval time.Duration
	// MaxPending is how many counts, of distinct form, day, event and
	// step, wait to be stored at most; DefaultMaxPending when zero.
	MaxPending int
	// Logger receives the failures to store and the counts dropped;
	// slog.Default() when nil.
	Logger *slog.Logger
	// Now is the clock whose UTC day a count goes to; time.Now when nil.
	Now func() time.Time
}

// key is what a count adds to: a form's event, or step reached, on a day.
type key struct {
	site, slug, event, step string
	// day is the UTC day, as the Unix time of its midnight.
	day int64
}

// Counter counts a form's events in memory and stores them in batches: a
// goroutine of its own adds them to the Store every Interval, in one
// transaction, and Close stores the last ones. A count goes to the UTC day
// of its Count call, whenever it is stored. Counting takes a mutex and a
// map lookup, and allocates nothing when the form, day, event and step
// were counted since the last store.
//
// When the store fails, the counts are kept and added again with the next
// batch, merged with those counted meanwhile; the goroutine logs the
// failure at warn, Flush and Close return it. A batch is added whole or not at all, so a count is stored
// once; unless the store fails after committing (a connection lost at
// that moment), which counts the batch twice. While the store fails,
// counts pile up: at most MaxPending of distinct form, day, event and
// step wait. Beyond, a count of a new one is dropped, and how many events
// were dropped is logged at warn with the next store; counts of those
// waiting go on adding.
//
// A Counter is safe for concurrent use. Counts after Close are stored
// only by a later Flush.
type Counter struct {
	store    Store
	interval time.Duration
	max      int
	logger   *slog.Logger
	now      func() time.Time

	mu      sync.Mutex
	pending map[key]int64
	// dropped is how many events were dropped since it was last logged.
	dropped int64

	// storing is held by the store of a batch, so that batches are stored
	// one at a time and a failed one is back in pending before the next.
	storing sync.Mutex

	cancel context.CancelFunc
	done   chan struct{}
	closed sync.Once
}

var _ hub.FunnelCounter = (*Counter)(nil)

// NewCounter returns a Counter that stores its counts in store, and starts
// its goroutine: call Close when done.
func NewCounter(store Store, cfg CounterConfig) *Counter {
	c := &Counter{
		store:    store,
		interval: cfg.Interval,
		max:      cfg.MaxPending,
		logger:   cfg.Logger,
		now:      cfg.Now,
		pending:  map[key]int64{},
		done:     make(chan struct{}),
	}
	if c.interval <= 0 {
		c.interval = DefaultInterval
	}
	if c.max <= 0 {
		c.max = DefaultMaxPending
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	if c.now == nil {
		c.now = time.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go c.run(ctx)
	return c
}

// Count adds n events of the form site/slug to the day of now: views,
// starts (hubclient.EventView, EventStart, step empty) or steps reached
// (EventStep and the step's id). Counts the store would refuse, of n under
// 1 or without site, slug or event, are ignored: one would have every
// batch refused.
func (c *Counter) Count(site, slug, event, step string, n int64) {
	if n < 1 || site == "" || slug == "" || event == "" {
		return
	}
	k := key{site: site, slug: slug, event: event, step: step, day: dayOf(c.now())}
	c.mu.Lock()
	c.add(k, n)
	c.mu.Unlock()
}

// add adds n to the count of k, unless k is new and MaxPending wait
// already. c.mu must be held.
func (c *Counter) add(k key, n int64) {
	if _, ok := c.pending[k]; ok || len(c.pending) < c.max {
		c.pending[k] += n
		return
	}
	c.dropped += n
}

// Flush stores the counts now. When the store fails, they are kept for
// the next time, and Flush returns the error.
func (c *Counter) Flush(ctx context.Context) error {
	c.storing.Lock()
	defer c.storing.Unlock()
	c.mu.Lock()
	var batch map[key]int64
	if len(c.pending) > 0 {
		batch, c.pending = c.pending, make(map[key]int64, len(c.pending))
	}
	dropped := c.dropped
	c.dropped = 0
	c.mu.Unlock()
	if dropped > 0 {
		c.logger.Warn("funnel: events dropped, too many counts waiting to be stored", "dropped", dropped, "max_pending", c.max)
	}
	if batch == nil {
		return nil
	}
	counts := make([]hub.FunnelCount, 0, len(batch))
	for k, n := range batch {
		counts = append(counts, hub.FunnelCount{
			Site: k.site, Slug: k.slug, Day: time.Unix(k.day, 0).UTC(), Event: k.event, Step: k.step, N: n,
		})
	}
	if err := c.store.AddFunnelCounts(ctx, counts); err != nil {
		c.mu.Lock()
		for k, n := range batch {
			c.add(k, n)
		}
		c.mu.Unlock()
		return fmt.Errorf("funnel: storing %d counts: %w", len(counts), err)
	}
	return nil
}

// Close stops the goroutine, cancelling a store under way, whose counts
// are kept, and stores the counts with ctx. Closing again only stores the
// counts since.
func (c *Counter) Close(ctx context.Context) error {
	c.closed.Do(func() {
		c.cancel()
		<-c.done
	})
	return c.Flush(ctx)
}

// run stores the counts every interval until ctx is cancelled.
func (c *Counter) run(ctx context.Context) {
	defer close(c.done)
	tick := time.NewTicker(c.interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		sctx, cancel := context.WithTimeout(ctx, storeTimeout)
		err := c.Flush(sctx)
		cancel()
		if err != nil && ctx.Err() == nil {
			c.logger.Warn("funnel: counts not stored; they are kept for the next time", "err", err)
		}
	}
}

// dayOf returns the UTC day of t, as the Unix time of its midnight:
// Truncate rounds down since the zero time, a midnight UTC.
func dayOf(t time.Time) int64 { return t.Truncate(24 * time.Hour).Unix() }

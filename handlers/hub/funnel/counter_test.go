package funnel_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/funnel"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/hubclient"
)

// day0 is the midnight UTC of the days the tests count on.
var day0 = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

// openDB returns a new SQLite hub database, closed when t ends.
func openDB(t *testing.T) *sqldb.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// clock is a settable time.
type clock struct{ ns atomic.Int64 }

func newClock(t time.Time) *clock {
	c := &clock{}
	c.set(t)
	return c
}

func (c *clock) set(t time.Time)     { c.ns.Store(t.UnixNano()) }
func (c *clock) now() time.Time      { return time.Unix(0, c.ns.Load()) }
func (c *clock) add(d time.Duration) { c.ns.Add(int64(d)) }

// logBuffer collects a logger's lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

// stored returns the counts of site/form stored, as "day event step n".
func stored(t *testing.T, store funnel.Store, slug string) []string {
	t.Helper()
	counts, err := store.FunnelCounts(context.Background(), "site", slug, day0.AddDate(0, 0, -10), day0.AddDate(0, 0, 10))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range counts {
		out = append(out, fmt.Sprintf("%s %s %s %d", c.Day.Format(time.DateOnly), c.Event, c.Step, c.N))
	}
	return out
}

func checkStored(t *testing.T, store funnel.Store, slug string, want ...string) {
	t.Helper()
	if got := stored(t, store, slug); !reflect.DeepEqual(got, want) {
		t.Errorf("stored of site/%s:\n%s\nwant\n%s", slug, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// newCounter returns a Counter over store, closed when t ends, that
// stores only when told unless cfg sets an interval.
func newCounter(t *testing.T, store funnel.Store, cfg funnel.CounterConfig) *funnel.Counter {
	t.Helper()
	if cfg.Interval == 0 {
		cfg.Interval = time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = newClock(day0.Add(10 * time.Hour)).now
	}
	c := funnel.NewCounter(store, cfg)
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func flush(t *testing.T, c *funnel.Counter) {
	t.Helper()
	if err := c.Flush(context.Background()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
}

func TestCounterSums(t *testing.T) {
	db := openDB(t)
	clk := newClock(day0.Add(-time.Millisecond)) // the last moment of the day before
	c := newCounter(t, db, funnel.CounterConfig{Now: clk.now})
	c.Count("site", "form", hubclient.EventView, "", 1)
	clk.add(time.Millisecond) // midnight: the next day's
	c.Count("site", "form", hubclient.EventView, "", 1)
	c.Count("site", "form", hubclient.EventView, "", 3)
	c.Count("site", "form", hubclient.EventStart, "", 2)
	c.Count("site", "form", hubclient.EventStep, "b", 1)
	c.Count("site", "form", hubclient.EventStep, "c", 1)
	c.Count("site", "form", hubclient.EventStep, "b", 1)
	c.Count("site", "other", hubclient.EventView, "", 7)
	c.Count("elsewhere", "form", hubclient.EventView, "", 100)
	clk.add(24*time.Hour - time.Millisecond) // the last moment of day0
	c.Count("site", "form", hubclient.EventStart, "", 1)
	// What the store would refuse is ignored, and the rest stored.
	c.Count("site", "form", hubclient.EventView, "", 0)
	c.Count("site", "form", hubclient.EventView, "", -2)
	c.Count("site", "form", "", "", 1)
	c.Count("", "form", hubclient.EventView, "", 1)
	c.Count("site", "", hubclient.EventView, "", 1)
	flush(t, c)
	checkStored(t, db, "form",
		"2026-11-20 view  1",
		"2026-11-21 start  3",
		"2026-11-21 step b 2",
		"2026-11-21 step c 1",
		"2026-11-21 view  4",
	)
	checkStored(t, db, "other", "2026-11-21 view  7")
	if got, err := db.FunnelCounts(context.Background(), "elsewhere", "form", day0, day0.AddDate(0, 0, 1)); err != nil || len(got) != 1 || got[0].N != 100 {
		t.Errorf("counts of elsewhere/form = %v, %v; want 100 views", got, err)
	}

	// Stored counts are not stored again; new ones add to them.
	flush(t, c)
	c.Count("site", "form", hubclient.EventView, "", 1)
	flush(t, c)
	checkStored(t, db, "form",
		"2026-11-20 view  1",
		"2026-11-21 start  3",
		"2026-11-21 step b 2",
		"2026-11-21 step c 1",
		"2026-11-21 view  5",
	)
}

func TestCounterInterval(t *testing.T) {
	db := openDB(t)
	c := newCounter(t, db, funnel.CounterConfig{Interval: 10 * time.Millisecond})
	c.Count("site", "form", hubclient.EventView, "", 2)
	deadline := time.Now().Add(10 * time.Second)
	for len(stored(t, db, "form")) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the count was not stored on the interval")
		}
		time.Sleep(5 * time.Millisecond)
	}
	checkStored(t, db, "form", "2026-11-21 view  2")
	c.Count("site", "form", hubclient.EventView, "", 1)
	for len(stored(t, db, "form")) == 0 || stored(t, db, "form")[0] != "2026-11-21 view  3" {
		if time.Now().After(deadline) {
			t.Fatalf("the second count was not stored on the interval: %v", stored(t, db, "form"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCounterFlushOnlyWhenTold(t *testing.T) {
	db := openDB(t)
	c := newCounter(t, db, funnel.CounterConfig{})
	c.Count("site", "form", hubclient.EventView, "", 2)
	time.Sleep(50 * time.Millisecond)
	checkStored(t, db, "form")
	flush(t, c)
	checkStored(t, db, "form", "2026-11-21 view  2")
}

func TestCounterClose(t *testing.T) {
	db := openDB(t)
	c := newCounter(t, db, funnel.CounterConfig{})
	c.Count("site", "form", hubclient.EventView, "", 2)
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	checkStored(t, db, "form", "2026-11-21 view  2")
	// Closing again stores nothing twice, and what was counted since.
	c.Count("site", "form", hubclient.EventStart, "", 1)
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("Close again: %v", err)
	}
	checkStored(t, db, "form", "2026-11-21 start  1", "2026-11-21 view  2")
}

// failing is a Store whose AddFunnelCounts fails while fail is set.
type failing struct {
	funnel.Store
	fail  atomic.Bool
	tries atomic.Int64
}

var errDown = errors.New("the database is down")

func (f *failing) AddFunnelCounts(ctx context.Context, counts []hub.FunnelCount) error {
	f.tries.Add(1)
	if f.fail.Load() {
		return errDown
	}
	return f.Store.AddFunnelCounts(ctx, counts)
}

func TestCounterStoreFails(t *testing.T) {
	store := &failing{Store: openDB(t)}
	store.fail.Store(true)
	c := newCounter(t, store, funnel.CounterConfig{})
	c.Count("site", "form", hubclient.EventView, "", 2)
	c.Count("site", "form", hubclient.EventStep, "b", 1)
	if err := c.Flush(context.Background()); !errors.Is(err, errDown) {
		t.Fatalf("Flush = %v, want %v", err, errDown)
	}
	c.Count("site", "form", hubclient.EventView, "", 1)
	c.Count("site", "form", hubclient.EventStart, "", 1)
	if err := c.Flush(context.Background()); !errors.Is(err, errDown) {
		t.Fatalf("Flush = %v, want %v", err, errDown)
	}
	checkStored(t, store, "form")
	store.fail.Store(false)
	flush(t, c)
	checkStored(t, store, "form", "2026-11-21 start  1", "2026-11-21 step b 1", "2026-11-21 view  3")
}

func TestCounterStoreFailsLogged(t *testing.T) {
	store := &failing{Store: openDB(t)}
	store.fail.Store(true)
	var logs logBuffer
	c := newCounter(t, store, funnel.CounterConfig{Interval: 5 * time.Millisecond, Logger: logs.logger()})
	c.Count("site", "form", hubclient.EventView, "", 2)
	deadline := time.Now().Add(10 * time.Second)
	for store.tries.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatal("the goroutine did not try to store")
		}
		time.Sleep(time.Millisecond)
	}
	if s := logs.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, errDown.Error()) {
		t.Errorf("log = %q, want a warning of %q", s, errDown)
	}
	store.fail.Store(false)
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	checkStored(t, store, "form", "2026-11-21 view  2")
}

func TestCounterDrops(t *testing.T) {
	store := &failing{Store: openDB(t)}
	var logs logBuffer
	c := newCounter(t, store, funnel.CounterConfig{MaxPending: 2, Logger: logs.logger()})
	c.Count("site", "form", hubclient.EventView, "", 1)
	c.Count("site", "form", hubclient.EventStart, "", 1)
	c.Count("site", "form", hubclient.EventStep, "b", 5) // a third key: dropped
	c.Count("site", "form", hubclient.EventView, "", 1)  // a waiting key: counted
	flush(t, c)
	checkStored(t, store, "form", "2026-11-21 start  1", "2026-11-21 view  2")
	if s := logs.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, "dropped=5") {
		t.Errorf("log = %q, want a warning of 5 events dropped", s)
	}

	// Counts kept after a failure take their room: counts of new keys
	// are dropped, once.
	store.fail.Store(true)
	c.Count("site", "form", hubclient.EventView, "", 1)
	c.Count("site", "form", hubclient.EventStart, "", 1)
	if err := c.Flush(context.Background()); !errors.Is(err, errDown) {
		t.Fatalf("Flush = %v, want %v", err, errDown)
	}
	c.Count("site", "form", hubclient.EventStep, "c", 2)
	c.Count("site", "form", hubclient.EventStart, "", 1)
	store.fail.Store(false)
	flush(t, c)
	checkStored(t, store, "form", "2026-11-21 start  3", "2026-11-21 view  3")
	if s := logs.String(); strings.Count(s, "dropped=") != 2 || !strings.Contains(s, "dropped=2") {
		t.Errorf("log = %q, want a second warning, of 2 events dropped", s)
	}
	flush(t, c)
	if s := logs.String(); strings.Count(s, "dropped=") != 2 {
		t.Errorf("log = %q, want no third warning", s)
	}
}

func TestCounterConcurrent(t *testing.T) {
	db := openDB(t)
	// Stores go on while counting.
	c := newCounter(t, db, funnel.CounterConfig{Interval: time.Millisecond})
	const (
		goroutines = 16
		each       = 2000
	)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				switch i % 4 {
				case 0, 1:
					c.Count("site", "form", hubclient.EventView, "", 1)
				case 2:
					c.Count("site", "form", hubclient.EventStart, "", 2)
				case 3:
					c.Count("site", "form", hubclient.EventStep, fmt.Sprint("s", g%3), 1)
				}
			}
		})
	}
	wg.Wait()
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	// Goroutines 0 to 15 count step s0 (6 of them), s1 (5) and s2 (5).
	checkStored(t, db, "form",
		fmt.Sprintf("2026-11-21 start  %d", goroutines*each/4*2),
		fmt.Sprintf("2026-11-21 step s0 %d", 6*each/4),
		fmt.Sprintf("2026-11-21 step s1 %d", 5*each/4),
		fmt.Sprintf("2026-11-21 step s2 %d", 5*each/4),
		fmt.Sprintf("2026-11-21 view  %d", goroutines*each/2),
	)
}

func TestCountAllocatesNothing(t *testing.T) {
	c := newCounter(t, openDB(t), funnel.CounterConfig{})
	c.Count("site", "form", hubclient.EventStep, "b", 1)
	if n := testing.AllocsPerRun(1000, func() { c.Count("site", "form", hubclient.EventStep, "b", 1) }); n != 0 {
		t.Errorf("Count of a waiting key allocates %v times, want 0", n)
	}
}

func TestCounterClosedStopsStoring(t *testing.T) {
	db := openDB(t)
	c := newCounter(t, db, funnel.CounterConfig{Interval: 5 * time.Millisecond})
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	c.Count("site", "form", hubclient.EventView, "", 1)
	time.Sleep(50 * time.Millisecond)
	checkStored(t, db, "form")
	flush(t, c)
	checkStored(t, db, "form", "2026-11-21 view  1")
}

// hanging is a Store whose first AddFunnelCounts waits for its context's
// end, as with a database that does not answer.
type hanging struct {
	funnel.Store
	calls   atomic.Int64
	waiting chan struct{}
}

func (h *hanging) AddFunnelCounts(ctx context.Context, counts []hub.FunnelCount) error {
	if h.calls.Add(1) == 1 {
		close(h.waiting)
		<-ctx.Done()
		return ctx.Err()
	}
	return h.Store.AddFunnelCounts(ctx, counts)
}

func TestCounterCloseCancelsStore(t *testing.T) {
	store := &hanging{Store: openDB(t), waiting: make(chan struct{})}
	var logs logBuffer
	// Not newCounter: were Close to hang, so would the test's cleanup.
	c := funnel.NewCounter(store, funnel.CounterConfig{Interval: 5 * time.Millisecond, Logger: logs.logger(), Now: newClock(day0).now})
	c.Count("site", "form", hubclient.EventView, "", 2)
	<-store.waiting
	closed := make(chan error, 1)
	go func() { closed <- c.Close(context.Background()) }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close waits for the store under way")
	}
	// The counts of the cancelled store were stored by Close, and the
	// cancellation is no failure to log.
	checkStored(t, store, "form", "2026-11-21 view  2")
	if s := logs.String(); s != "" {
		t.Errorf("log = %q, want nothing", s)
	}
}

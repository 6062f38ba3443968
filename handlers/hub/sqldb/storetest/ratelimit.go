package storetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func testAllow(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	// base starts a minute window.
	base := T0.Truncate(time.Minute)
	tests := []struct {
		client string
		limit  int
		window time.Duration
		at     time.Duration // after base
		ok     bool
		retry  time.Duration
	}{
		{"192.0.2.1", 3, time.Minute, time.Second, true, 0},
		{"192.0.2.1", 3, time.Minute, 2 * time.Second, true, 0},
		{"192.0.2.1", 3, time.Minute, 3 * time.Second, true, 0},
		{"192.0.2.1", 3, time.Minute, 10 * time.Second, false, 50 * time.Second},
		{"192.0.2.1", 3, time.Minute, 59*time.Second + 999*time.Millisecond, false, time.Millisecond},
		// Other clients have budgets of their own.
		{"192.0.2.2", 3, time.Minute, 10 * time.Second, true, 0},
		{"2001:db8::1", 1, time.Minute, 10 * time.Second, true, 0},
		{"2001:db8::1", 1, time.Minute, 11 * time.Second, false, 49 * time.Second},
		// The next window starts afresh.
		{"192.0.2.1", 3, time.Minute, time.Minute, true, 0},
		{"192.0.2.1", 3, time.Minute, time.Minute + time.Second, true, 0},
		// A limit over another window counts apart from the first.
		{"192.0.2.1", 1, time.Hour, time.Minute, true, 0},
		{"192.0.2.1", 1, time.Hour, 2 * time.Minute, false, 28 * time.Minute}, // base is 10:30
	}
	for i, tt := range tests {
		ok, retry, err := db.Allow(ctx, tt.client, tt.limit, tt.window, base.Add(tt.at))
		if err != nil {
			t.Fatalf("%d: Allow: %v", i, err)
		}
		if ok != tt.ok || retry != tt.retry {
			t.Errorf("%d: Allow(%q, %d, %v) at +%v = %v, %v; want %v, %v", i, tt.client, tt.limit, tt.window, tt.at, ok, retry, tt.ok, tt.retry)
		}
	}

	for _, bad := range []struct {
		limit  int
		window time.Duration
	}{{0, time.Minute}, {-1, time.Minute}, {1, 0}, {1, time.Microsecond}} {
		if _, _, err := db.Allow(ctx, "c", bad.limit, bad.window, base); err == nil {
			t.Errorf("Allow with limit %d, window %v succeeded", bad.limit, bad.window)
		}
	}
}

func testAllowSharedBudget(t *testing.T, open Open) {
	// Two handles, as two hub processes have, draw on one budget, and
	// concurrent requests never overshoot it.
	dbs := open(t, 2)
	const limit, workers, each = 10, 8, 5
	now := T0.Truncate(time.Minute).Add(time.Second)
	var (
		wg      sync.WaitGroup
		allowed atomic.Int64
	)
	for w := range workers {
		db := dbs[w%len(dbs)]
		wg.Go(func() {
			for range each {
				ok, _, err := db.Allow(context.Background(), "192.0.2.9", limit, time.Minute, now)
				if err != nil {
					t.Errorf("worker %d: %v", w, err)
					return
				}
				if ok {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := allowed.Load(); n != limit {
		t.Errorf("%d of %d requests allowed, want %d", n, workers*each, limit)
	}
	for i, db := range dbs {
		if ok, retry, _ := db.Allow(context.Background(), "192.0.2.9", limit, time.Minute, now); ok || retry != 59*time.Second {
			t.Errorf("handle %d after the budget is spent: %v, %v; want refused for 59s", i, ok, retry)
		}
	}
}

func testAllowPrunes(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	base := T0.Truncate(time.Minute)
	for i := range 5 {
		if _, _, err := db.Allow(ctx, fmt.Sprintf("192.0.2.%d", i), 10, time.Minute, base.Add(time.Duration(30+i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	// Pruning is occasional: the windows that have just ended are still
	// there a moment later, and gone once a while has passed.
	rows := func() int {
		t.Helper()
		var n int
		if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM rate_limits`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, _, err := db.Allow(ctx, "192.0.2.1", 10, time.Minute, base.Add(61*time.Second)); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != 6 {
		t.Errorf("%d rows a moment after the first window, want 6", n)
	}
	if _, _, err := db.Allow(ctx, "192.0.2.1", 10, time.Minute, base.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != 1 {
		t.Errorf("%d rows after the ended windows were pruned, want 1", n)
	}
}

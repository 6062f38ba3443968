package delivery

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
)

func TestAttemptOutcome(t *testing.T) {
	for _, tt := range []struct {
		attempt int
		err     error
		want    string
	}{
		{1, nil, OutcomeDelivered},
		{3, nil, OutcomeDelivered},
		{1, errors.New("503"), OutcomeRetrying},
		{2, errors.New("503"), OutcomeRetrying},
		{3, errors.New("503"), OutcomeFailed},
		{1, river.JobCancel(errGone), OutcomeCancelled},
		{3, fmt.Errorf("wrapped: %w", river.JobCancel(errGone)), OutcomeCancelled},
	} {
		job := &rivertype.JobRow{Attempt: tt.attempt, MaxAttempts: 3}
		if got := attemptOutcome(job, tt.err); got != tt.want {
			t.Errorf("attempt %d of 3 returning %v: %s, want %s", tt.attempt, tt.err, got, tt.want)
		}
	}
}

// TestAttemptsObserved delivers submissions to a receiver that refuses
// the first attempt and to one that refuses every attempt: OnAttempt hears
// of each attempt with what it left the delivery as, and the queue's depth
// counts the deliveries waiting, then none.
func TestAttemptsObserved(t *testing.T) {
	for name, open := range databases(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, pgURL := open(t)
			once, srvOnce := newReceiver(t, 1)
			_, srvNever := newReceiver(t, 1000)
			fs := forms{"site/form": {Site: "site", Slug: "form", Settings: hub.Settings{
				Webhooks: []hub.Webhook{{URL: srvOnce.URL, Secret: secret}, {URL: srvNever.URL + "/never", Secret: secret}},
			}}}
			var mu sync.Mutex
			seen := map[string]int{}
			q := openQueueWith(t, db, pgURL, fs, func(c *Config) {
				// Three attempts: 10ms, then 20ms apart, each less 20%.
				c.RetryFor = 15 * time.Millisecond
				c.OnAttempt = func(kind, outcome string) {
					mu.Lock()
					defer mu.Unlock()
					seen[kind+" "+outcome]++
				}
			})
			if got := q.schedule.maxAttempts(); got != 3 {
				t.Fatalf("%d attempts, want 3", got)
			}
			if err := q.Stop(ctx); err != nil {
				t.Fatal(err)
			}
			const n = 3
			for i := range n {
				if err := db.CreateSubmission(ctx, storetest.Submission(fmt.Sprintf("S%d", i))); err != nil {
					t.Fatal(err)
				}
			}
			if d, err := q.Depth(ctx); err != nil || d != (Depth{Available: 2 * n}) {
				t.Fatalf("Depth with the queue stopped = %+v, %v; want %d available", d, err, 2*n)
			}
			if err := q.Start(ctx); err != nil {
				t.Fatal(err)
			}
			for range n {
				select {
				case <-once.done:
				case <-time.After(time.Minute):
					t.Fatal("deliveries missing")
				}
			}
			want := map[string]int{"webhook delivered": n, "webhook retrying": n + 2*n, "webhook failed": n}
			var d Depth
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
				var err error
				if d, err = q.Depth(ctx); err != nil {
					t.Fatal(err)
				}
				mu.Lock()
				done := fmt.Sprint(seen) == fmt.Sprint(want)
				mu.Unlock()
				if done && d == (Depth{}) || time.Now().After(deadline) {
					break
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if fmt.Sprint(seen) != fmt.Sprint(want) || d != (Depth{}) {
				t.Errorf("attempts seen %v, depth %+v; want %v and nothing waiting", seen, d, want)
			}

			list, err := q.List(ctx, "site", "form")
			if err != nil || len(list) != 2*n {
				t.Fatalf("List = %d deliveries, %v", len(list), err)
			}
			got, err := q.Delivery(ctx, list[0].ID)
			if err != nil || got.ID != list[0].ID || got.Site != "site" || got.Slug != "form" || got.Outcome != list[0].Outcome {
				t.Errorf("Delivery(%d) = %+v, %v; listed %+v", list[0].ID, got, err, list[0])
			}
			if _, err := q.Delivery(ctx, list[0].ID+1000); !errors.Is(err, hub.ErrNotFound) {
				t.Errorf("Delivery of no job = %v, want ErrNotFound", err)
			}
		})
	}
}

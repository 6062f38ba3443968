package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// wantKeyUsed fails the test unless err says that the key is carried by
// submission first.
func wantKeyUsed(t *testing.T, err error, key, first string) {
	t.Helper()
	var used *hub.KeyUsedError
	if !errors.As(err, &used) || !errors.Is(err, hub.ErrKeyUsed) {
		t.Fatalf("error %v, want a *hub.KeyUsedError", err)
	}
	if used.Key != key || used.SubmissionID != first {
		t.Errorf("KeyUsedError %+v, want key %q used by %s", used, key, first)
	}
}

// wantByKey fails the test unless the key of site and form leads to id.
func wantByKey(t *testing.T, db *sqldb.DB, site, form, key, id string) {
	t.Helper()
	got, err := db.SubmissionByKey(context.Background(), site, form, key)
	if err != nil || got != id {
		t.Errorf("SubmissionByKey(%s, %s, %q) = %q, %v; want %q", site, form, key, got, err, id)
	}
}

func testIdempotencyKeys(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	first := Submission("01")
	first.IdempotencyKey = "k"
	if err := db.CreateSubmission(ctx, first); err != nil {
		t.Fatal(err)
	}
	wantByKey(t, db, "site", "form", "k", "01")

	// A repeat stores nothing and claims none of its uploads, so a retry
	// that uploaded its files again leaves them to the sweep.
	u := Upload("uploads/retry")
	MustCreateUpload(t, db, u)
	repeat := Submission("02", Attachment(u))
	repeat.IdempotencyKey = "k"
	wantKeyUsed(t, db.CreateSubmission(ctx, repeat), "k", "01")
	if n := Count(t, db, hub.Filter{}); n != 1 {
		t.Errorf("count = %d after a repeated key, want 1", n)
	}
	if got, _ := db.Upload(ctx, u.Key); got.SubmissionID != "" {
		t.Errorf("upload claimed by %q after a repeated key, want unclaimed", got.SubmissionID)
	}

	// Keys belong to their site and form; submissions without one are
	// never repeats; keys differ by case.
	for _, x := range []struct{ id, site, form, key string }{
		{"03", "site", "survey", "k"},
		{"04", "elsewhere", "form", "k"},
		{"05", "site", "form", ""},
		{"06", "site", "form", ""},
		{"07", "site", "form", "K"},
	} {
		s := Submission(x.id)
		s.Site, s.Slug, s.IdempotencyKey = x.site, x.form, x.key
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Errorf("CreateSubmission(%s with key %q on %s/%s): %v", x.id, x.key, x.site, x.form, err)
		}
	}
	wantByKey(t, db, "site", "form", "k", "01")
	wantByKey(t, db, "site", "survey", "k", "03")
	wantByKey(t, db, "elsewhere", "form", "k", "04")
	wantByKey(t, db, "site", "form", "K", "07")
	for _, x := range []struct{ site, form, key string }{
		{"site", "form", "unknown"},
		{"site", "form", ""},
		{"site", "other", "k"},
	} {
		if id, err := db.SubmissionByKey(ctx, x.site, x.form, x.key); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("SubmissionByKey(%s, %s, %q) = %q, %v; want hub.ErrNotFound", x.site, x.form, x.key, id, err)
		}
	}

	// The key is listed with its submission.
	keys := map[string]string{}
	for _, s := range ListAll(t, db, hub.Filter{}) {
		keys[s.ID] = s.IdempotencyKey
	}
	if keys["01"] != "k" || keys["07"] != "K" || keys["05"] != "" || len(keys) != 6 {
		t.Errorf("listed keys %v, want 01:k 07:K and 05 without", keys)
	}
}

func testIdempotencyKeyRace(t *testing.T, open Open) {
	ctx := context.Background()
	onOneAndTwoHandles(t, open, func(t *testing.T, dbs []*sqldb.DB) {
		const rounds, racers = 20, 8
		for r := range rounds {
			key := fmt.Sprintf("race-%d", r)
			var (
				wg      sync.WaitGroup
				mu      sync.Mutex
				winners []string
				named   = map[string]int{} // the first id each loser was told
			)
			for i := range racers {
				db := dbs[i%len(dbs)]
				wg.Go(func() {
					s := Submission(fmt.Sprintf("r%02d-%d", r, i))
					s.IdempotencyKey = key
					err := db.CreateSubmission(ctx, s)
					var used *hub.KeyUsedError
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						winners = append(winners, s.ID)
					case errors.As(err, &used):
						named[used.SubmissionID]++
					default:
						t.Errorf("racer %s: %v", s.ID, err)
					}
				})
			}
			wg.Wait()
			if len(winners) != 1 || named[winners[0]] != racers-1 {
				t.Fatalf("round %d: winners %v, losers told %v; want one winner, named by every loser", r, winners, named)
			}
			wantByKey(t, dbs[len(dbs)-1], "site", "form", key, winners[0])
		}
		if n := Count(t, dbs[0], hub.Filter{}); n != rounds {
			t.Errorf("count = %d, want %d", n, rounds)
		}
	})
}

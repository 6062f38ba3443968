package quota

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/testkit"
)

// fakeStore has one workspace, "ws", owning the site "shop".
type fakeStore struct {
	quota   accounts.Quota
	usage   accounts.Usage
	counts  int
	lookups int
	month   time.Time
}

func (f *fakeStore) SiteQuota(_ context.Context, site string) (string, accounts.Quota, error) {
	f.lookups++
	if site != "shop" {
		return "", accounts.Quota{}, hub.ErrNotFound
	}
	return "ws", f.quota, nil
}

func (f *fakeStore) WorkspaceUsage(_ context.Context, _ string, month time.Time) (accounts.Usage, error) {
	f.counts++
	f.month = month
	return f.usage, nil
}

// TestAdmit counts on between the database's counts, which it trusts for
// MaxAge and within one month.
func TestAdmit(t *testing.T) {
	ctx := context.Background()
	clock := testkit.NewClock(time.Date(2026, 11, 30, 23, 59, 58, 0, time.UTC))
	store := &fakeStore{quota: accounts.Quota{SubmissionsPerMonth: 3}, usage: accounts.Usage{Submissions: 1}}
	q := New(store, clock.Now)
	for i, want := range []error{nil, nil, hub.ErrQuota} {
		if err := q.Admit(ctx, "shop", 0); !errors.Is(err, want) && err != want {
			t.Errorf("submission %d: %v, want %v", i+2, err, want)
		}
	}
	if store.counts != 1 || store.lookups != 1 || !store.month.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("counted %d times and looked the site up %d times, for the month of %v; want once each, November", store.counts, store.lookups, store.month)
	}
	// A new month counts again, from the database.
	clock.Add(3 * time.Second)
	store.usage = accounts.Usage{}
	if err := q.Admit(ctx, "shop", 0); err != nil || store.counts != 2 || store.month.Month() != time.December {
		t.Errorf("in a new month: %v, %d counts, month %v", err, store.counts, store.month)
	}
	// A new quota applies once MaxAge has passed.
	store.quota, store.usage = accounts.Quota{SubmissionsPerMonth: 1}, accounts.Usage{Submissions: 1}
	if err := q.Admit(ctx, "shop", 0); err != nil {
		t.Errorf("within MaxAge of the last lookup, the old quota: %v", err)
	}
	clock.Add(MaxAge)
	if err := q.Admit(ctx, "shop", 0); !errors.Is(err, hub.ErrQuota) {
		t.Errorf("after MaxAge, the new quota of 1: %v, want ErrQuota", err)
	}
	// A site of no workspace has no quota.
	if err := q.Admit(ctx, "elsewhere", 1<<40); err != nil {
		t.Errorf("a site of no workspace: %v", err)
	}
}

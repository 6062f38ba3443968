// Package quota admits submissions within the quota of the workspace that
// owns their site (accounts.Quota): submissions a calendar month and bytes
// of files stored, as the hub's operator set them.
//
// Usage is counted in the hub's database at most every MaxAge per
// workspace, and counted on by each hub between: hubs sharing a database
// may together admit a little over a quota, for at most MaxAge.
package quota

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// MaxAge is how long a workspace's counted usage is trusted.
const MaxAge = 10 * time.Second

// Store is what quotas need of the hub's database, as sqldb.DB keeps it.
type Store interface {
	// SiteQuota returns the workspace that owns site and its quota, or an
	// error wrapping hub.ErrNotFound when none does.
	SiteQuota(ctx context.Context, site string) (string, accounts.Quota, error)
	WorkspaceUsage(ctx context.Context, workspace string, monthStart time.Time) (accounts.Usage, error)
}

// Quotas is a hub.Admission. Its methods are safe for concurrent use.
type Quotas struct {
	store Store
	now   func() time.Time

	mu     sync.Mutex
	counts map[string]*count
}

// count is a workspace's usage as counted at at, plus what was admitted
// since.
type count struct {
	at    time.Time
	month time.Time
	usage accounts.Usage
}

// New returns the quotas of store's workspaces; now is the clock, nil for
// time.Now.
func New(store Store, now func() time.Time) *Quotas {
	if now == nil {
		now = time.Now
	}
	return &Quotas{store: store, now: now, counts: map[string]*count{}}
}

// Admit returns nil when the workspace that owns site may take one more
// submission with files of bytes, and counts it; an error wrapping
// hub.ErrQuota when it has reached its quota. A site no workspace owns has
// no quota.
func (q *Quotas) Admit(ctx context.Context, site string, bytes int64) error {
	ws, quota, err := q.store.SiteQuota(ctx, site)
	if errors.Is(err, hub.ErrNotFound) || err == nil && quota == (accounts.Quota{}) {
		return nil
	}
	if err != nil {
		return err
	}
	now := q.now()
	month := accounts.MonthStart(now)
	q.mu.Lock()
	c := q.counts[ws]
	fresh := c != nil && c.month.Equal(month) && now.Sub(c.at) < MaxAge
	q.mu.Unlock()
	if !fresh {
		u, err := q.store.WorkspaceUsage(ctx, ws, month)
		if err != nil {
			return err
		}
		q.mu.Lock()
		c = &count{at: now, month: month, usage: u}
		q.counts[ws] = c
		q.mu.Unlock()
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if quota.Over(c.usage, bytes) {
		return hub.ErrQuota
	}
	c.usage.Submissions++
	c.usage.StoredBytes += bytes
	return nil
}

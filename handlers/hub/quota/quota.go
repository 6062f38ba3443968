// Package quota admits submissions within the quota of the workspace that
// owns their site (accounts.Quota): submissions a calendar month and bytes
// of files stored, as the hub's operator set them.
//
// A site's workspace and quota, and a workspace's usage, are read from the
// hub's database at most every MaxAge, and usage is counted on by each hub
// between: hubs sharing a database may together admit a little over a
// quota, and a new quota applies within MaxAge.
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
	sites  map[string]siteQuota
}

// siteQuota is a site's workspace and quota as looked up at at; ws is
// empty for a site no workspace owns.
type siteQuota struct {
	at    time.Time
	ws    string
	quota accounts.Quota
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
	return &Quotas{store: store, now: now, counts: map[string]*count{}, sites: map[string]siteQuota{}}
}

// Admit returns nil when the workspace that owns site may take one more
// submission with files of bytes, and counts it; an error wrapping
// hub.ErrQuota when it has reached its quota. A site no workspace owns has
// no quota.
func (q *Quotas) Admit(ctx context.Context, site string, bytes int64) error {
	now := q.now()
	ws, quota, err := q.siteQuota(ctx, site, now)
	if err != nil || ws == "" || quota.Unlimited() {
		return err
	}
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

// siteQuota returns the workspace that owns site and its quota, looked up
// at most every MaxAge: a submission costs no query of its own for them.
func (q *Quotas) siteQuota(ctx context.Context, site string, now time.Time) (string, accounts.Quota, error) {
	q.mu.Lock()
	sq, ok := q.sites[site]
	q.mu.Unlock()
	if ok && now.Sub(sq.at) < MaxAge {
		return sq.ws, sq.quota, nil
	}
	ws, quota, err := q.store.SiteQuota(ctx, site)
	if err != nil && !errors.Is(err, hub.ErrNotFound) {
		return "", quota, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.sites) > maxSites {
		clear(q.sites)
	}
	q.sites[site] = siteQuota{at: now, ws: ws, quota: quota}
	return ws, quota, nil
}

// maxSites bounds the sites remembered: names come from requests.
const maxSites = 10000

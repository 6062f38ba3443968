package handlers

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/hubform/hubform/hubclient"
)

// schemaCache keeps schemas fetched from the hub for a while. Concurrent
// misses for one form share one fetch; a schema known but old is served
// while it is fetched again, with its ETag, so that the hub's 304 keeps the
// same *hubclient.Schema and all a render prepared for it; and when the hub
// cannot be reached the last schema fetched is served, however old, rather
// than an error.
type schemaCache struct {
	ttl     time.Duration
	timeout time.Duration
	logger  *slog.Logger
	now     func() time.Time

	mu      sync.Mutex
	entries map[string]cached
	flight  singleflight.Group
}

type cached struct {
	schema  *hubclient.Schema
	etag    string // the hub's for schema, to fetch it again only once changed
	err     error
	fetched time.Time
}

// failureTTL is how long a failed fetch is remembered, so that a hub that
// is down is not asked again by every request.
const failureTTL = 2 * time.Second

// maxCachedForms bounds the cache; forms are few, names from URLs are not.
const maxCachedForms = 1000

// get returns the form's schema from the hub client calls. The schema is
// shared: callers must not change it. A schema fetched before is returned
// at once, however old: when it has outlived the TTL, a fetch in the
// background replaces it for later requests, so that no page waits for
// the hub once a form is known.
func (c *schemaCache) get(ctx context.Context, client *hubclient.Client, site, slug string) (*hubclient.Schema, error) {
	key := cacheKey(client.HubURL, site, slug)
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	switch {
	case ok && e.err == nil && now.Sub(e.fetched) < c.ttl:
		return e.schema, nil
	case ok && e.err != nil && now.Sub(e.fetched) < failureTTL:
		return c.stale(key, site, slug, e.err)
	case ok && e.schema != nil:
		c.flight.DoChan(key, c.fetcher(client, key, site, slug))
		return e.schema, nil
	}
	result := c.flight.DoChan(key, c.fetcher(client, key, site, slug))
	select {
	case r := <-result:
		if r.Err != nil {
			return c.stale(key, site, slug, r.Err)
		}
		return r.Val.(*hubclient.Schema), nil
	case <-ctx.Done():
		return c.stale(key, site, slug, ctx.Err())
	}
}

// fetcher returns the flight that fetches the form's schema and stores it.
func (c *schemaCache) fetcher(client *hubclient.Client, key, site, slug string) func() (any, error) {
	return func() (any, error) {
		// A flight that ended since the caller looked has stored a fresh
		// schema: no second fetch for it.
		c.mu.Lock()
		e, ok := c.entries[key]
		c.mu.Unlock()
		if ok && e.err == nil && c.now().Sub(e.fetched) < c.ttl {
			return e.schema, nil
		}
		// The fetch outlives the request that started it: others wait on it.
		fetchCtx, cancel := context.WithTimeout(context.Background(), c.timeout)
		defer cancel()
		// e.etag is set only beside e.schema, which a 304 keeps.
		s, etag, err := client.SchemaIfNoneMatch(fetchCtx, site, slug, e.etag)
		if err == nil && s == nil {
			s = e.schema // not modified
		}
		c.store(key, cached{schema: s, etag: etag, err: err, fetched: c.now()})
		return s, err
	}
}

// store records a fetch; a failure keeps the last good schema beside it.
func (c *schemaCache) store(key string, e cached) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.err != nil {
		if old, ok := c.entries[key]; ok && old.schema != nil {
			e.schema, e.etag = old.schema, old.etag
		}
	}
	if _, ok := c.entries[key]; !ok && len(c.entries) >= maxCachedForms {
		for k := range c.entries { // drop any one: a rare, bounded event
			delete(c.entries, k)
			break
		}
	}
	c.entries[key] = e
}

// stale returns the last good schema of the form when there is one, else
// err.
func (c *schemaCache) stale(key, site, slug string, err error) (*hubclient.Schema, error) {
	c.mu.Lock()
	e := c.entries[key]
	c.mu.Unlock()
	if e.schema != nil {
		c.logger.Warn("serving a stale schema: the hub cannot be reached", slog.String("site", site), slog.String("form", slug), slog.Any("error", err))
		return e.schema, nil
	}
	return nil, err
}

// cacheKey joins hub, site and slug with a byte none can hold in a URL.
func cacheKey(hub, site, slug string) string { return hub + "\x00" + site + "\x00" + slug }

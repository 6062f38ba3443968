package protocol_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"

	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/testkit"
)

func TestSharedRateLimit(t *testing.T) {
	// Two hubs on one database, as behind a load balancer: a client's
	// budget is spent by requests to either.
	clock := testkit.NewClock(time.Date(2026, 11, 21, 10, 30, 1, 0, time.UTC))
	first := newHarness(t, func(c *protocol.Config) {
		c.RateLimit, c.Now = 3, clock.Now
		c.Limiter = c.Store.(hub.Limiter)
	})
	second := newHarness(t, func(c *protocol.Config) {
		c.RateLimit, c.Now = 3, clock.Now
		c.Store, c.Limiter = first.DB, first.DB
	})
	valid := hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane", "email": "jane@example.com"}}
	first.submit("contact", valid).wantOK(t)
	second.submit("contact", valid).wantOK(t)
	second.uploadURL("apply", "a.pdf", "application/pdf", 10)
	for i, h := range []*harness{first, second} {
		res := h.submit("contact", valid)
		res.wantError(t, http.StatusTooManyRequests)
		if ra := res.header.Get("Retry-After"); ra != "59" {
			t.Errorf("hub %d: Retry-After %q, want 59 (seconds left in the minute)", i+1, ra)
		}
	}
	first.wantCount(2)

	// The next minute, the budget is whole again, on both.
	clock.Add(time.Minute)
	for range 2 {
		second.submit("contact", valid).wantOK(t)
	}
	first.submit("contact", valid).wantOK(t)
	second.submit("contact", valid).wantError(t, http.StatusTooManyRequests)
	first.wantCount(5)
}

// fakeLimiter answers Allow as told and records what it was asked.
type fakeLimiter struct {
	ok    bool
	retry time.Duration
	err   error

	mu    sync.Mutex
	calls []string
}

func (l *fakeLimiter) Allow(_ context.Context, client string, limit int, window time.Duration, _ time.Time) (bool, time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, client+" "+time.Duration(int64(window)/int64(limit)).String())
	return l.ok, l.retry, l.err
}

// recorded returns the calls so far, one "client limit-interval" each,
// comma-separated.
func (l *fakeLimiter) recorded() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.calls, ",")
}

func TestLimiterAnswers(t *testing.T) {
	tests := []struct {
		name       string
		limiter    *fakeLimiter
		status     int
		retryAfter string
		logged     string
	}{
		{"allowed", &fakeLimiter{ok: true}, http.StatusOK, "", ""},
		{"refused", &fakeLimiter{retry: 59 * time.Second}, http.StatusTooManyRequests, "59", ""},
		{"refused, fraction rounded up", &fakeLimiter{retry: 1500 * time.Millisecond}, http.StatusTooManyRequests, "2", ""},
		{"refused, under a second", &fakeLimiter{retry: time.Millisecond}, http.StatusTooManyRequests, "1", ""},
		{"refused, no time given", &fakeLimiter{}, http.StatusTooManyRequests, "1", ""},
		// A failing limiter lets requests through, and says so.
		{"failing", &fakeLimiter{err: errors.New("database is locked")}, http.StatusOK, "", "database is locked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *protocol.Config) { c.RateLimit, c.Limiter = 6, tt.limiter })
			res := h.postJSON("/v1/acme/apply/upload-url", hubclient.UploadURLRequest{Filename: "a.pdf", Size: 1, MIME: "application/pdf"})
			res.wantStatus(t, tt.status)
			if got := res.header.Get("Retry-After"); got != tt.retryAfter {
				t.Errorf("Retry-After %q, want %q", got, tt.retryAfter)
			}
			if log := h.Log.String(); tt.logged != "" && (!strings.Contains(log, tt.logged) || !strings.Contains(log, "level=WARN")) {
				t.Errorf("log does not warn of %q:\n%s", tt.logged, log)
			}
			// 6 a minute is one per 10 s, for the socket's address.
			if got, want := tt.limiter.recorded(), "127.0.0.1 10s"; got != want {
				t.Errorf("Allow called with %q, want %q", got, want)
			}
		})
	}

	t.Run("not consulted without a rate limit", func(t *testing.T) {
		var l fakeLimiter
		h := newHarness(t, func(c *protocol.Config) { c.Limiter = &l })
		h.postJSON("/v1/acme/apply/upload-url", hubclient.UploadURLRequest{Filename: "a.pdf", Size: 1, MIME: "application/pdf"}).
			wantStatus(t, http.StatusOK)
		if got := l.recorded(); got != "" {
			t.Errorf("Allow called (%s) with the rate limit off", got)
		}
	})
}

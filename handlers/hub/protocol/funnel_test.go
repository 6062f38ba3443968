package protocol_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// countLog is a hub.FunnelCounter that keeps what it is told.
type countLog struct {
	mu     sync.Mutex
	counts []string
}

func (l *countLog) Count(site, slug, event, step string, n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.counts = append(l.counts, strings.Join([]string{site, slug, event, step}, " ")+" "+strings.Repeat("+", int(n)))
}

func (l *countLog) taken() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.counts)
}

func TestEventsCounted(t *testing.T) {
	log := &countLog{}
	h := newHarness(t, func(c *protocol.Config) { c.Funnel = log })
	h.postJSON("/v1/acme/logic/events", hubclient.EventsRequest{Counts: []hubclient.EventCount{
		{Event: hubclient.EventView, N: 3}, {Event: hubclient.EventStart, N: 2}, {Event: hubclient.EventStep, Step: "firm", N: 1},
	}}).wantOK(t)
	want := []string{"acme logic view  +++", "acme logic start  ++", "acme logic step firm +"}
	if got := log.taken(); !slices.Equal(got, want) {
		t.Errorf("counted %q, want %q", got, want)
	}

	for _, tt := range []struct {
		name   string
		counts []hubclient.EventCount
	}{
		{"no counts", nil},
		{"an unknown event", []hubclient.EventCount{{Event: "click", N: 1}}},
		{"a step the form has not", []hubclient.EventCount{{Event: hubclient.EventStep, Step: "nope", N: 1}}},
		{"a step without its id", []hubclient.EventCount{{Event: hubclient.EventStep, N: 1}}},
		{"a view of a step", []hubclient.EventCount{{Event: hubclient.EventView, Step: "firm", N: 1}}},
		{"nothing counted", []hubclient.EventCount{{Event: hubclient.EventView, N: 0}}},
		{"too many at once", []hubclient.EventCount{{Event: hubclient.EventView, N: 100_001}}},
		{"a good count beside a bad one", []hubclient.EventCount{{Event: hubclient.EventView, N: 1}, {Event: "click", N: 1}}},
		{"too many counts", slices.Repeat([]hubclient.EventCount{{Event: hubclient.EventView, N: 1}}, 257)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := len(log.taken())
			h.postJSON("/v1/acme/logic/events", hubclient.EventsRequest{Counts: tt.counts}).wantError(t, http.StatusBadRequest)
			if n := len(log.taken()) - before; n != 0 {
				t.Errorf("%d counts taken from a refused batch", n)
			}
		})
	}
	h.postJSON("/v1/acme/missing/events", hubclient.EventsRequest{Counts: []hubclient.EventCount{{Event: hubclient.EventView, N: 1}}}).wantError(t, http.StatusNotFound)
}

func TestEventsNotCountedWithoutAFunnel(t *testing.T) {
	h := newHarness(t)
	res := h.postJSON("/v1/acme/logic/events", hubclient.EventsRequest{Counts: []hubclient.EventCount{{Event: hubclient.EventView, N: 1}}})
	res.wantStatus(t, http.StatusNotFound)
	// hubclient tells an app so.
	err := h.client.SendEvents(t.Context(), "acme", "logic", []hubclient.EventCount{{Event: hubclient.EventView, N: 1}})
	if !hubclient.NotCounting(err) {
		t.Errorf("SendEvents to a hub that counts nothing: %v, want NotCounting", err)
	}
}

// oneToken is a hub.CountTokens that knows one token, of the site acme.
type oneToken string

func (o oneToken) AllowCounts(_ context.Context, token, site string) error {
	switch {
	case token != string(o):
		return &hub.Error{Status: http.StatusUnauthorized, Message: "the API token is not valid"}
	case site != "acme":
		return hub.ErrNotFound
	}
	return nil
}

func TestEventsWithAndWithoutAToken(t *testing.T) {
	log := &countLog{}
	h := newHarness(t, func(c *protocol.Config) { c.Funnel, c.CountTokens = log, oneToken("hft_app") })
	views := func(n int64) hubclient.EventsRequest {
		return hubclient.EventsRequest{Counts: []hubclient.EventCount{{Event: hubclient.EventView, N: n}}}
	}
	// Without a token: at most MaxAnonymousCount of an event, its counts
	// in the post summed.
	h.postJSON("/v1/acme/logic/events", views(hubclient.MaxAnonymousCount)).wantOK(t)
	h.postJSON("/v1/acme/logic/events", views(hubclient.MaxAnonymousCount+1)).wantError(t, http.StatusBadRequest)
	h.postJSON("/v1/acme/logic/events", hubclient.EventsRequest{Counts: slices.Repeat([]hubclient.EventCount{{Event: hubclient.EventStart, N: 6}}, 2)}).
		wantError(t, http.StatusBadRequest)
	// With the token: an app's counts.
	h.postJSON("/v1/acme/logic/events", views(5000), "Authorization: Bearer hft_app").wantOK(t)
	for _, auth := range []string{"Bearer hft_other", "Basic aGZ0X2FwcA==", "Bearer "} {
		res := h.postJSON("/v1/acme/logic/events", views(5000), "Authorization: "+auth)
		res.wantError(t, http.StatusUnauthorized)
		if res.header.Get("WWW-Authenticate") == "" {
			t.Errorf("%q: 401 without WWW-Authenticate", auth)
		}
	}
	var n int
	for _, c := range log.taken() {
		n += strings.Count(c, "+")
	}
	if n != hubclient.MaxAnonymousCount+5000 {
		t.Errorf("%d counted, want %d", n, hubclient.MaxAnonymousCount+5000)
	}

	// A hub that checks no tokens refuses one.
	plain := newHarness(t, func(c *protocol.Config) { c.Funnel = &countLog{} })
	plain.postJSON("/v1/acme/logic/events", views(1), "Authorization: Bearer hft_app").wantError(t, http.StatusUnauthorized)
}

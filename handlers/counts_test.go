package handlers_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// tripForm has three steps.
const tripForm = `{
  "fields": [
    {"name": "name", "type": "text", "label": "Name", "required": true},
    {"name": "city", "type": "text", "label": "City"},
    {"name": "day", "type": "date", "label": "Day"}
  ],
  "steps": [{"id": "who", "fields": ["name"]}, {"id": "where", "fields": ["city"]}, {"id": "when", "fields": ["day"]}]
}`

// tally is a handlers.Counter (and a hub.FunnelCounter) that keeps the
// sums it is told, by "site/slug event step".
type tally struct {
	mu   sync.Mutex
	sums map[string]int64
}

func (t *tally) Count(site, slug, event, step string, n int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sums == nil {
		t.sums = map[string]int64{}
	}
	t.sums[site+"/"+slug+" "+strings.TrimSpace(event+" "+step)] += n
}

func (t *tally) get() map[string]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]int64{}
	for k, v := range t.sums {
		out[k] = v
	}
	return out
}

func wantTally(t *testing.T, what string, got, want map[string]int64) {
	t.Helper()
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("%s: counted %v, want %v", what, got, want)
			return
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: counted %v, want %v", what, got, want)
	}
}

func TestFunnelCountedInTheApp(t *testing.T) {
	counts := &tally{}
	h := hubtest.Start(t, map[string]string{"acme/trip": tripForm, "acme/closed": closedForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet, Counter: counts})
	srv := httptest.NewServer(forms)
	defer srv.Close()
	a := &app{hub: h, h: forms, srv: srv}

	// A view for each form shown: by the load route and by Props.
	_, doc := a.get(t, "/hubform/acme/trip", false)
	forms.Props(context.Background(), "acme", "trip", "")
	a.get(t, "/hubform/acme/closed", false)
	forms.Props(context.Background(), "acme", "closed", "")
	// A page that lists forms reads their schemas: no view.
	if _, err := forms.Schema(context.Background(), "acme", "trip"); err != nil {
		t.Fatal(err)
	}
	wantTally(t, "shown twice, and a closed form twice", counts.get(), map[string]int64{"acme/trip view": 2})
	if route := doc.Find("form").AttrOr("data-hubform-event", ""); route != "/hubform/acme/trip/event" {
		t.Errorf("the form sends its counts to %q", route)
	}

	// The script's start and steps.
	event := func(values url.Values) int {
		res, err := http.PostForm(srv.URL+"/hubform/acme/trip/event", values)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, v := range []url.Values{{"event": {"start"}}, {"event": {"step"}, "step": {"where"}}, {"event": {"step"}, "step": {"when"}}} {
		if status := event(v); status != http.StatusNoContent {
			t.Errorf("%v: status %d", v, status)
		}
	}
	for _, v := range []url.Values{{"event": {"view"}}, {"event": {"click"}}, {"event": {"step"}, "step": {"nowhere"}}, {"event": {"step"}}} {
		if status := event(v); status != http.StatusBadRequest {
			t.Errorf("%v: status %d, want 400", v, status)
		}
	}
	wantTally(t, "the script's events", counts.get(), map[string]int64{"acme/trip view": 2, "acme/trip start": 1, "acme/trip step where": 1, "acme/trip step when": 1})

	// A post without the script counts its start and steps, once per
	// rendering; one the script counted is not counted again.
	rendering := doc.Find(`input[name="`+hubclient.IdempotencyKeyField+`"]`).AttrOr("value", "")
	for range 2 {
		a.post(t, "/hubform/acme/trip/submit", false, part{name: hubclient.IdempotencyKeyField, value: rendering}, part{name: "city", value: "Oslo"})
	}
	a.post(t, "/hubform/acme/trip/submit", false, part{name: hubclient.IdempotencyKeyField, value: "another"}, part{name: handlers.CountedField, value: "1"}, part{name: "name", value: "Ada"})
	wantTally(t, "posts", counts.get(), map[string]int64{"acme/trip view": 2, "acme/trip start": 2, "acme/trip step where": 2, "acme/trip step when": 2})
}

func TestFunnelOff(t *testing.T) {
	counts := &tally{}
	h := hubtest.Start(t, map[string]string{"acme/trip": tripForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet, Counter: counts, NoCounts: true})
	srv := httptest.NewServer(forms)
	defer srv.Close()
	a := &app{hub: h, h: forms, srv: srv}
	_, doc := a.get(t, "/hubform/acme/trip", false)
	a.post(t, "/hubform/acme/trip/submit", false, part{name: "name", value: "Ada"})
	if doc.Find("form[data-hubform-event]").Length() != 0 || len(counts.get()) != 0 {
		t.Errorf("counting off: counted %v", counts.get())
	}
}

func TestFunnelCountsReachTheHub(t *testing.T) {
	counts := &tally{}
	h := hubtest.Start(t, map[string]string{"acme/trip": tripForm, "acme/contact": contactForm}, func(cfg *protocol.Config) { cfg.Funnel = counts })
	other := hubtest.Start(t, map[string]string{"acme/trip": tripForm}) // counts nothing
	var toOther int
	var mu sync.Mutex
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/events") {
			mu.Lock()
			toOther++
			mu.Unlock()
		}
		other.Server.Config.Handler.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet, CountInterval: 20 * time.Millisecond})
	ctx := context.Background()
	// The first batch fails: its counts go with the next.
	h.FailNext("/events", http.StatusServiceUnavailable, "busy")
	for range 3 {
		forms.Props(ctx, "acme", "trip", "")
	}
	forms.Props(ctx, "acme", "contact", "")
	deadline := time.Now().Add(5 * time.Second)
	for counts.get()["acme/trip view"] < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	forms.Props(ctx, "acme", "trip", "")
	forms.Close(ctx) // sends what is held
	wantTally(t, "the hub", counts.get(), map[string]int64{"acme/trip view": 4, "acme/contact view": 1})

	// A hub that answers 404 is asked once.
	forms = handlers.New(handlers.Config{HubURL: proxy.URL + "/v1", Logger: quiet, CountInterval: 20 * time.Millisecond})
	forms.Props(ctx, "acme", "trip", "")
	time.Sleep(200 * time.Millisecond)
	forms.Props(ctx, "acme", "trip", "")
	time.Sleep(200 * time.Millisecond)
	forms.Close(ctx)
	mu.Lock()
	defer mu.Unlock()
	if toOther != 1 {
		t.Errorf("a hub that counts nothing was sent counts %d times, want once", toOther)
	}
}

// appTokens is a hub.CountTokens that knows one token, of the site acme,
// and counts the posts it lets through.
type appTokens struct {
	token string
	mu    sync.Mutex
	posts int
}

func (a *appTokens) AllowCounts(_ context.Context, token, site string) error {
	switch {
	case token != a.token:
		return &hub.Error{Status: http.StatusUnauthorized, Message: "the API token is not valid"}
	case site != "acme":
		return hub.ErrNotFound
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.posts++
	return nil
}

func (a *appTokens) taken() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.posts
}

// waitFor waits until cond holds, for 5 seconds at the most.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: still not so after 5s", what)
		}
	}
}

// TestAppSendsItsCountsToken is an app that sets Config.CountsToken: its
// hub takes what it aggregates of many visitors in one post, beyond what
// one client may send, and the token goes to Config's hub alone, never to
// the hub of a form registered with another, which takes that form's
// counts without it, within the bound.
func TestAppSendsItsCountsToken(t *testing.T) {
	counts, tokens := &tally{}, &appTokens{token: "hft_app"}
	h := hubtest.Start(t, map[string]string{"acme/trip": tripForm}, func(cfg *protocol.Config) {
		cfg.Funnel, cfg.CountTokens, cfg.RateLimit = counts, tokens, 2
	})
	theirs := &tally{}
	other := hubtest.Start(t, map[string]string{"acme/contact": contactForm}, func(cfg *protocol.Config) { cfg.Funnel = theirs })
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet, CountInterval: time.Hour, CountsToken: "hft_app",
		Forms: map[handlers.Form]handlers.FormOptions{{Site: "acme", Slug: "contact"}: {HubURL: other.URL}}})
	ctx := context.Background()
	for range 250 {
		forms.Props(ctx, "acme", "trip", "")
	}
	for range 3 {
		forms.Props(ctx, "acme", "contact", "")
	}
	forms.Close(ctx)
	wantTally(t, "the app's hub", counts.get(), map[string]int64{"acme/trip view": 250})
	if n := tokens.taken(); n != 1 {
		t.Errorf("250 views went in %d posts with the token, want 1", n)
	}
	wantTally(t, "the other hub, which takes no token", theirs.get(), map[string]int64{"acme/contact view": 3})
}

// TestAppWithoutTokenSendsVisitSizedBatches is an app without a token: it
// sends what it aggregates in posts the hub takes from one client, at
// most hubclient.MaxAnonymousCount of each event, and what the hub does
// not take yet (429) waits for the next post: nothing is lost while the
// app runs. What the hub still refuses when the app closes is logged as
// lost.
func TestAppWithoutTokenSendsVisitSizedBatches(t *testing.T) {
	counts := &tally{}
	h := hubtest.Start(t, map[string]string{"acme/trip": tripForm}, func(cfg *protocol.Config) { cfg.Funnel, cfg.RateLimit = counts, 600 })
	var log strings.Builder
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return log.Write(p)
	}), nil))
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: logger, CountInterval: 20 * time.Millisecond})
	ctx := context.Background()
	h.FailNext("/events", http.StatusTooManyRequests, "too many requests")
	for range 245 {
		forms.Props(ctx, "acme", "trip", "")
	}
	srv := httptest.NewServer(forms)
	defer srv.Close()
	for range 3 {
		res, err := http.PostForm(srv.URL+"/hubform/acme/trip/event", url.Values{"event": {"start"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	waitFor(t, "245 views at the hub", func() bool { return counts.get()["acme/trip view"] == 245 })
	forms.Close(ctx)
	wantTally(t, "the hub", counts.get(), map[string]int64{"acme/trip view": 245, "acme/trip start": 3})

	// Closing, an app sends what the hub takes; the rest is lost, and
	// said so.
	forms = handlers.New(handlers.Config{HubURL: h.URL, Logger: logger, CountInterval: time.Hour})
	for range 25 {
		forms.Props(ctx, "acme", "trip", "")
	}
	h.FailNext("/events", http.StatusTooManyRequests, "too many requests")
	forms.Close(ctx)
	wantTally(t, "the hub", counts.get(), map[string]int64{"acme/trip view": 245, "acme/trip start": 3})
	logMu.Lock()
	defer logMu.Unlock()
	if !strings.Contains(log.String(), "counts of forms lost as the app closes") || !strings.Contains(log.String(), "count=25") {
		t.Errorf("25 views lost with no word in the log: %s", log.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

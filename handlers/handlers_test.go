package handlers_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/hubclient"
)

func TestSubmitWithHTMX(t *testing.T) {
	a := newApp(t)
	res, doc := a.post(t, "/hubform/acme/contact/submit", true,
		part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"}, part{name: "age", value: "42"},
		part{name: "topics", value: "sales"}, part{name: "topics", value: "support"}, part{name: "agree", value: "true"},
		part{name: "_hp", value: ""}, part{name: "smuggled", value: "x"},
		part{name: "files", value: "first file", filename: "a.txt"}, part{name: "files", value: "second file", filename: "b.txt"})
	if res.StatusCode != http.StatusOK || !slices.Contains(res.Header.Values("Vary"), "HX-Request") {
		t.Fatalf("status %d, Vary %q", res.StatusCode, res.Header.Values("Vary"))
	}
	if wholePage(doc) || doc.Find("[data-hubform] [data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("want the submitted fragment alone, got %s", doc.Text())
	}
	if got := text(doc, "[data-vendor-hubform-submitted]"); got != "Thanks, we'll get back to you soon." {
		t.Errorf("panel %q", got)
	}
	subs := a.hub.Submissions()
	if len(subs) != 1 {
		t.Fatalf("%d submissions stored", len(subs))
	}
	var payload map[string]any
	json.Unmarshal(subs[0].Payload, &payload)
	want := map[string]any{"name": "Jane", "email": "jane@example.com", "age": 42.0, "topics": []any{"sales", "support"}, "agree": true}
	if !reflect.DeepEqual(payload, want) {
		t.Errorf("payload %v, want %v", payload, want)
	}
	if len(subs[0].Attachments) != 2 || string(a.hub.File(subs[0].Attachments[0].Key)) != "first file" || string(a.hub.File(subs[0].Attachments[1].Key)) != "second file" {
		t.Errorf("attachments %+v", subs[0].Attachments)
	}
	if s, e := a.calls.counts(); s != 1 || e != 0 {
		t.Errorf("OnSuccess %d times, OnError %d times; want 1 and 0", s, e)
	}
}

func TestSubmitWithoutJavaScript(t *testing.T) {
	a := newApp(t)
	res, doc := a.post(t, "/hubform/acme/contact/submit", false, part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"})
	if res.StatusCode != http.StatusOK || doc.Find("html head style[data-hubform-styles]").Length() != 1 || doc.Find("main [data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("status %d, page %s", res.StatusCode, doc.Text())
	}
	if doc.Find("title").Text() != "Contact us" {
		t.Errorf("title %q", doc.Find("title").Text())
	}
}

func TestSubmitShowsFieldErrorsAndKeepsValues(t *testing.T) {
	for _, htmx := range []bool{true, false} {
		a := newApp(t)
		res, doc := a.post(t, "/hubform/acme/contact/submit?locale=de", htmx,
			part{name: "name", value: ""}, part{name: "email", value: "not an email"}, part{name: "age", value: "old"})
		wantStatus := http.StatusUnprocessableEntity
		if htmx {
			wantStatus = http.StatusOK // htmx swaps no error answers
		}
		if res.StatusCode != wantStatus {
			t.Errorf("htmx %v: status %d, want %d", htmx, res.StatusCode, wantStatus)
		}
		errs := map[string]string{}
		doc.Find(".hubform-field-error").Each(func(_ int, s *goquery.Selection) {
			id, _ := s.Attr("id")
			errs[id] = s.Text()
		})
		want := map[string]string{
			"hubform-acme-contact-name-error":  "Pflichtfeld.",
			"hubform-acme-contact-email-error": "Enter an email address.",
			"hubform-acme-contact-age-error":   "Enter a number.",
		}
		if !reflect.DeepEqual(errs, want) {
			t.Errorf("htmx %v: errors %v, want %v", htmx, errs, want)
		}
		if v, _ := doc.Find("#hubform-acme-contact-email").Attr("value"); v != "not an email" {
			t.Errorf("htmx %v: email shown again as %q", htmx, v)
		}
		if doc.Find("[data-hubform-errors] li").Length() != 3 || text(doc, "label[for=hubform-acme-contact-name]") != "Ihr Name*" {
			t.Errorf("htmx %v: summary %q, label %q", htmx, text(doc, "[data-hubform-errors]"), text(doc, "label[for=hubform-acme-contact-name]"))
		}
		if n := len(a.hub.Submissions()); n != 0 {
			t.Errorf("htmx %v: %d submissions stored from an invalid post", htmx, n)
		}
		if s, e := a.calls.counts(); s != 0 || e != 0 {
			t.Errorf("htmx %v: callbacks ran %d, %d times for an invalid post", htmx, s, e)
		}
	}
}

func TestHubFailureKeepsTheFormAndRetrySucceeds(t *testing.T) {
	a := newApp(t)
	a.hub.FailNext("/submit", http.StatusServiceUnavailable, "the hub is resting")
	values := []part{{name: "name", value: "Jane"}, {name: "email", value: "jane@example.com"}, {name: "files", value: "body", filename: "a.txt"}}
	res, doc := a.post(t, "/hubform/acme/contact/submit", true, values...)
	panel := text(doc, "[data-hubform-submit-error]")
	if res.StatusCode != http.StatusOK || !strings.Contains(panel, "The form cannot be sent right now.") || strings.Contains(panel, "the hub is resting") {
		t.Fatalf("status %d, panel %q; want the visitor's message, not the hub's", res.StatusCode, panel)
	}
	if v, _ := doc.Find("#hubform-acme-contact-name").Attr("value"); v != "Jane" {
		t.Errorf("name after a failure: %q", v)
	}
	if _, ok := doc.Find("input[type=file]").Attr("data-hx-preserve"); !ok {
		t.Error("the file input is not preserved across the swap, so chosen files would be lost")
	}
	if s, e := a.calls.counts(); s != 0 || e != 1 {
		t.Errorf("after the failure: OnSuccess %d, OnError %d; want 0 and 1", s, e)
	}

	res, doc = a.post(t, "/hubform/acme/contact/submit", true, values...)
	if doc.Find("[data-vendor-hubform-submitted]").Length() != 1 || len(a.hub.Submissions()) != 1 {
		t.Fatalf("retry: status %d, %s", res.StatusCode, doc.Text())
	}
	if s, e := a.calls.counts(); s != 1 || e != 1 {
		t.Errorf("after the retry: OnSuccess %d, OnError %d; want 1 and 1", s, e)
	}
}

func TestHubFieldErrorsShowOnTheFields(t *testing.T) {
	a := newApp(t)
	// The hub's form asks more than the app's cached copy knew.
	a.hub.FailNext("/submit", http.StatusUnprocessableEntity, "the submission does not match the form")
	_, doc := a.post(t, "/hubform/acme/contact/submit", true, part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"})
	if text(doc, "[data-hubform-submit-error]") == "" {
		t.Error("no error panel for the hub's refusal")
	}
}

func TestFilledHoneypotIsToldSuccess(t *testing.T) {
	a := newApp(t)
	_, doc := a.post(t, "/hubform/acme/contact/submit", true, part{name: "name", value: "Bot"}, part{name: "email", value: "bot@example.com"}, part{name: "_hp", value: "gotcha"})
	if doc.Find("[data-vendor-hubform-submitted]").Length() != 1 || len(a.hub.Submissions()) != 0 {
		t.Errorf("honeypot: submitted panel %d, stored %d", doc.Find("[data-vendor-hubform-submitted]").Length(), len(a.hub.Submissions()))
	}
}

func TestLoadRoute(t *testing.T) {
	a := newApp(t)
	for _, tc := range []struct {
		target     string
		htmx       bool
		status     int
		selector   string
		wholePage  bool
		wantInText string
	}{
		{"/hubform/acme/contact", true, 200, "form[data-hubform-form]", false, "Contact us"},
		{"/hubform/acme/contact?locale=de", true, 200, "form[lang=de]", false, "Ihr Name"},
		{"/hubform/acme/contact", false, 200, "form[data-hubform-form]", true, "Contact us"},
		{"/hubform/acme/empty", true, 200, "[data-vendor-hubform-unconfigured]", false, ""},
		{"/hubform/acme/missing", true, 200, "[role=alert]", false, "could not be loaded"},
		{"/hubform/acme/missing", false, 502, "[role=alert]", true, "could not be loaded"},
	} {
		res, doc := a.get(t, tc.target, tc.htmx)
		if res.StatusCode != tc.status || doc.Find("[data-hubform] "+tc.selector).Length() != 1 || wholePage(doc) != tc.wholePage {
			t.Errorf("GET %s (htmx %v): status %d, want %d with %s; page %v", tc.target, tc.htmx, res.StatusCode, tc.status, tc.selector, tc.wholePage)
		}
		if !strings.Contains(doc.Text(), tc.wantInText) {
			t.Errorf("GET %s: text lacks %q", tc.target, tc.wantInText)
		}
		if !slices.Contains(res.Header.Values("Vary"), "HX-Request") {
			t.Errorf("GET %s: Vary %q", tc.target, res.Header.Values("Vary"))
		}
	}
	if _, doc := a.get(t, "/hubform/acme/contact?locale=de-AT", false); doc.Find("title").Text() != "Kontakt" {
		t.Errorf("page title %q in de-AT, want the German one", doc.Find("title").Text())
	}
	_, doc := a.get(t, "/hubform/acme/contact", true)
	if action, _ := doc.Find("form").Attr("action"); action != "/hubform/acme/contact/submit" {
		t.Errorf("form posts to %q, not to the submit route (the schema's own submit must be ignored)", action)
	}
}

func TestStaticAssets(t *testing.T) {
	a := newApp(t)
	for _, name := range []string{"hubform.css", "hubform.js"} {
		res, err := http.Get(a.srv.URL + "/hubform/static/" + name)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Errorf("GET static %s: %v %v", name, res.Status, err)
		}
	}
}

// countingTransport counts the requests it sends.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func TestPropsCachesOneFetchAtATime(t *testing.T) {
	hub := hubtest.Start(t, map[string]string{"acme/contact": contactForm})
	counter := &countingTransport{}
	h := handlers.New(handlers.Config{HubURL: hub.URL, HTTPClient: &http.Client{Transport: counter}, CacheTTL: time.Hour})
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if p := h.Props(context.Background(), "acme", "contact", ""); p.InitialSchema == nil || p.InitialSchema.Title != "Contact us" {
				t.Errorf("props without the schema: %+v", p)
			}
		})
	}
	wg.Wait()
	if n := counter.n.Load(); n != 1 {
		t.Errorf("%d fetches for 20 concurrent pages, want 1", n)
	}
}

// gatedTransport lets the first request through and holds the others
// until open is closed.
type gatedTransport struct {
	n    atomic.Int64
	open chan struct{}
}

func (g *gatedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if g.n.Add(1) > 1 {
		<-g.open
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestPropsServesAKnownSchemaWhileFetchingIt expires a schema the cache
// holds: the next page gets it at once while it is fetched again behind,
// and a page after that fetch gets the new one.
func TestPropsServesAKnownSchemaWhileFetchingIt(t *testing.T) {
	hub := hubtest.Start(t, map[string]string{"acme/contact": contactForm})
	gate := &gatedTransport{open: make(chan struct{})}
	h := handlers.New(handlers.Config{HubURL: hub.URL, HTTPClient: &http.Client{Transport: gate}, CacheTTL: time.Nanosecond, FetchTimeout: time.Hour})
	if p := h.Props(context.Background(), "acme", "contact", ""); p.InitialSchema == nil || p.InitialSchema.Title != "Contact us" {
		t.Fatalf("first props: %+v", p.InitialSchema)
	}
	hub.WriteForm("acme", "contact", strings.Replace(contactForm, "Contact us", "Write to us", 1))
	time.Sleep(time.Millisecond)
	served := make(chan *hubclient.Schema, 1)
	go func() { served <- h.Props(context.Background(), "acme", "contact", "").InitialSchema }()
	select {
	case s := <-served:
		if s == nil || s.Title != "Contact us" {
			t.Errorf("while fetching again: %+v, want the known schema", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the page waited for the hub though the schema was known")
	}
	close(gate.open)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if s := h.Props(context.Background(), "acme", "contact", "").InitialSchema; s != nil && s.Title == "Write to us" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the schema fetched again never replaced the known one")
		}
	}
}

// TestPropsRevalidatesKnownSchemas has the schema fetched again once its
// TTL is over: the hub is asked with the schema's ETag, and its 304 keeps
// the same *hubclient.Schema, with what renders prepared for it; a form
// changed on the hub is fetched whole.
func TestPropsRevalidatesKnownSchemas(t *testing.T) {
	hub := hubtest.Start(t, map[string]string{"acme/contact": contactForm})
	var notModified, failed atomic.Int64
	var down atomic.Bool
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if down.Load() {
			failed.Add(1)
			return nil, errors.New("hub down")
		}
		res, err := http.DefaultTransport.RoundTrip(r)
		if err == nil && res.StatusCode == http.StatusNotModified {
			notModified.Add(1)
		}
		return res, err
	})}
	h := handlers.New(handlers.Config{HubURL: hub.URL, HTTPClient: client, CacheTTL: time.Nanosecond, Logger: quiet})
	props := func() *hubclient.Schema { return h.Props(context.Background(), "acme", "contact", "").InitialSchema }
	first := props()
	if first == nil {
		t.Fatal("no schema")
	}
	waitFor := func(what string, done func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !done(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal(what)
			}
		}
	}
	waitFor("the hub never answered 304 Not Modified", func() bool { props(); return notModified.Load() >= 2 })
	if s := props(); s != first {
		t.Errorf("after 304s: a schema %p, want the one fetched first, %p", s, first)
	}
	// A failed fetch keeps the ETag with the schema.
	down.Store(true)
	waitFor("no fetch failed", func() bool { props(); return failed.Load() > 0 })
	down.Store(false)
	n := notModified.Load()
	waitFor("no 304 after a failed fetch", func() bool { props(); return notModified.Load() > n })
	if s := props(); s != first {
		t.Errorf("after a failure: a schema %p, want the one fetched first, %p", s, first)
	}
	hub.WriteForm("acme", "contact", strings.Replace(contactForm, "Contact us", "Write to us", 1))
	waitFor("the changed form never replaced the known one", func() bool { s := props(); return s != nil && s.Title == "Write to us" })
}

func TestPropsServesStaleWhenTheHubIsDown(t *testing.T) {
	hub := hubtest.Start(t, map[string]string{"acme/contact": contactForm})
	h := handlers.New(handlers.Config{HubURL: hub.URL, CacheTTL: time.Nanosecond, Logger: quiet})
	if p := h.Props(context.Background(), "acme", "contact", ""); p.InitialSchema == nil {
		t.Fatal("no schema while the hub is up")
	}
	hub.Server.Close()
	time.Sleep(time.Millisecond)
	if p := h.Props(context.Background(), "acme", "contact", ""); p.InitialSchema == nil || p.InitialSchema.Title != "Contact us" {
		t.Error("no stale schema while the hub is down")
	}
	if p := h.Props(context.Background(), "acme", "never-fetched", ""); p.InitialSchema != nil {
		t.Error("a schema for a form never fetched")
	}
}

func TestPropsRespectsTheFetchDeadline(t *testing.T) {
	slow := make(chan struct{})
	hub := hubtest.Start(t, map[string]string{"acme/contact": contactForm})
	defer close(slow)
	proxy := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		select {
		case <-slow:
		case <-r.Context().Done():
		}
		return nil, r.Context().Err()
	})}
	h := handlers.New(handlers.Config{HubURL: hub.URL, HTTPClient: proxy, FetchTimeout: 100 * time.Millisecond})
	start := time.Now()
	p := h.Props(context.Background(), "acme", "contact", "")
	if p.InitialSchema != nil || time.Since(start) > 2*time.Second {
		t.Errorf("props after %v: schema %v; want none, quickly", time.Since(start), p.InitialSchema)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

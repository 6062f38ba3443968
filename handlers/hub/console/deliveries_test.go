package console_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/delivery"
)

// fakeDeliveries holds deliveries in memory and records retries.
type fakeDeliveries struct {
	list    []delivery.Delivery
	retried []int64
}

func (f *fakeDeliveries) List(_ context.Context, site, form string) ([]delivery.Delivery, error) {
	var out []delivery.Delivery
	for _, d := range f.list {
		if d.Site == site && d.Slug == form {
			out = append(out, d)
		}
	}
	return out, nil
}

func (f *fakeDeliveries) Delivery(_ context.Context, id int64) (delivery.Delivery, error) {
	for _, d := range f.list {
		if d.ID == id {
			return d, nil
		}
	}
	return delivery.Delivery{}, fmt.Errorf("delivery %d: %w", id, hub.ErrNotFound)
}

func (f *fakeDeliveries) Retry(ctx context.Context, id int64) (delivery.Delivery, error) {
	f.retried = append(f.retried, id)
	return f.Delivery(ctx, id)
}

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// TestDeliveriesPage shows a form's deliveries with each attempt's time
// and a short result, narrows them to one submission, and sends one again
// from its button; only the form's own deliveries can be sent again.
func TestDeliveriesPage(t *testing.T) {
	f := &fakeDeliveries{list: []delivery.Delivery{
		{ID: 7, Kind: "webhook", Site: "acme", Slug: "contact", SubmissionID: "S2", Target: "https://hooks.example.com/in",
			Outcome: delivery.OutcomeRetrying, Attempts: 2, MaxAttempts: 25, Next: t0.Add(time.Hour), Errors: []delivery.Attempt{
				{Attempt: 1, At: t0, Error: "webhook: the receiver answered 503 Service Unavailable"},
				{Attempt: 2, At: t0.Add(time.Minute), Error: `webhook: Post "https://hooks.example.com/in": dial tcp 10.0.0.5:443: connect: connection refused`},
			}},
		{ID: 6, Kind: "email", Site: "acme", Slug: "contact", SubmissionID: "S1", Target: "e-mail",
			Outcome: delivery.OutcomeDelivered, Attempts: 1, MaxAttempts: 25, FinishedAt: t0.Add(2 * time.Second)},
		{ID: 5, Kind: "webhook", Site: "other", Slug: "form", SubmissionID: "S0", Target: "https://other.example.com/",
			Outcome: delivery.OutcomeDelivered, Attempts: 1, MaxAttempts: 25, FinishedAt: t0},
	}}
	tc := newConsole(t, func(c *console.Config) { c.Deliveries = f })
	b := tc.browser()
	page := console.Path + "/forms/acme/contact/deliveries"
	if res := b.get(page); res.status != http.StatusSeeOther {
		t.Fatalf("deliveries page without a session: %d", res.status)
	}
	// Times are shown in the time zone the browser gave at sign-in.
	if res := b.signInFrom("Europe/Paris", janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	res := b.get(page)
	for _, want := range []string{
		"Deliveries of acme/contact", "https://hooks.example.com/in", "2 of 25", "HTTP 503 Service Unavailable",
		"connection refused", "2026-11-23 10:00 CET", "2026-11-23 10:01 CET", "2026-11-23 11:00 CET",
		"E-mail: the form&#39;s owners", `datetime="2026-11-23T09:00:02Z">2026-11-23 10:00 CET</time>: delivered`, `action="/console/forms/acme/contact/deliveries/7/retry"`,
	} {
		if !strings.Contains(res.body, want) {
			t.Errorf("deliveries page lacks %q", want)
		}
	}
	for _, never := range []string{"10.0.0.5", "dial tcp", "https://other.example.com/", "webhook:"} {
		if strings.Contains(res.body, never) {
			t.Errorf("deliveries page shows %q", never)
		}
	}
	one := b.get(page + "?submission=S1")
	if !strings.Contains(one.body, "Of submission S1 only") || strings.Contains(one.body, "deliveries/7/retry") || !strings.Contains(one.body, "deliveries/6/retry") {
		t.Errorf("page of submission S1: %q", one.body)
	}

	token := b.csrf(page)
	if res := b.do(http.MethodPost, page+"/7/retry", url.Values{}, nil); res.status != http.StatusForbidden || len(f.retried) != 0 {
		t.Errorf("retry without the CSRF token: %d, retried %v", res.status, f.retried)
	}
	res = b.do(http.MethodPost, page+"/6/retry", url.Values{"_csrf": {token}, "submission": {"S1"}}, nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != page+"?retried=6&submission=S1" || fmt.Sprint(f.retried) != "[6]" {
		t.Fatalf("retry: %d to %q, retried %v", res.status, res.header.Get("Location"), f.retried)
	}
	if res := b.get(res.header.Get("Location")); !strings.Contains(res.body, "Delivery 6 will be attempted again") {
		t.Errorf("after the retry the page says %q", res.body)
	}
	for _, id := range []string{"5", "99", "x"} {
		if res := b.do(http.MethodPost, page+"/"+id+"/retry", url.Values{"_csrf": {token}}, nil); res.status != http.StatusNotFound {
			t.Errorf("retry of delivery %s from acme/contact: %d, want 404", id, res.status)
		}
	}
	if fmt.Sprint(f.retried) != "[6]" {
		t.Errorf("retried %v, want [6]", f.retried)
	}
}

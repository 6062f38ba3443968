package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
)

// greetForm asks a name on step one and recalls it on step two and in
// its ending.
const greetForm = `{
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "email", "type": "email", "label": "Thanks, {{name|friend}} — your e-mail?", "required": true}
  ],
  "steps": [{"id": "you", "fields": ["name"]}, {"id": "reach", "fields": ["email"]}],
  "endings": [{"id": "bye", "title": "See you, {{name}}", "text": "We write to *{{email}}*."}]
}`

func newGreetApp(t *testing.T) *app {
	t.Helper()
	a := &app{hub: hubtest.Start(t, map[string]string{"acme/greet": greetForm}), calls: &calls{}}
	cfg := handlers.Config{HubURL: a.hub.URL, Logger: quiet}
	a.calls.config(&cfg)
	a.h = handlers.New(cfg)
	a.srv = httptest.NewServer(a.h)
	t.Cleanup(a.srv.Close)
	return a
}

// TestLogicRouteRecall: a change of a recalled answer answers, with htmx,
// the later step's field whose label recalls it, filled, as text.
func TestLogicRouteRecall(t *testing.T) {
	a := newGreetApp(t)
	_, page := a.get(t, "/hubform/acme/greet", false)
	state := page.Find(`[name="_hubformLogic"]`).AttrOr("value", "")
	if _, ok := page.Find(`[data-hubform-slot="name"]`).Attr("data-hx-post"); !ok || state == "" {
		t.Fatalf("the recalled field does not ask the logic route (state %q)", state)
	}
	if got := text(page, `[data-hubform-slot="email"] label`); got != "Thanks, friend — your e-mail?*" {
		t.Errorf("label before an answer = %q, want the fallback", got)
	}
	form := url.Values{"name": {"<i>Ada</i>"}, "_hubformLogic": {state}}
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/hubform/acme/greet/logic", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	res, html := doHTML(t, req)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	doc := parse(t, html)
	slots := doc.Find("[data-hubform-slot][data-hx-swap-oob]")
	if slots.Length() != 1 || slots.AttrOr("data-hubform-slot", "") != "email" {
		t.Fatalf("swapped %d slots, want email alone: %s", slots.Length(), html)
	}
	if got := text(doc, `[data-hubform-slot="email"] label`); got != "Thanks, <i>Ada</i> — your e-mail?*" {
		t.Errorf("label = %q", got)
	}
	if strings.Contains(html, "<i>Ada") {
		t.Error("the answer went in as HTML")
	}
}

// TestSubmitRecall: the form back with an error, and the ending, show
// the answers, with JavaScript or without.
func TestSubmitRecall(t *testing.T) {
	for _, htmx := range []bool{true, false} {
		a := newGreetApp(t)
		_, doc := a.post(t, "/hubform/acme/greet/submit", htmx, part{name: "name", value: "Ada"})
		if got := text(doc, `[data-hubform-slot="email"] label`); got != "Thanks, Ada — your e-mail?*" {
			t.Errorf("htmx %v: label of the form back = %q", htmx, got)
		}
		_, doc = a.post(t, "/hubform/acme/greet/submit", htmx, part{name: "name", value: "Ada"}, part{name: "email", value: "ada@example.com"})
		if got := text(doc, ".hubform-ending-title"); got != "See you, Ada" {
			t.Errorf("htmx %v: ending title = %q", htmx, got)
		}
		if got := text(doc, ".hubform-ending-text em"); got != "ada@example.com" {
			t.Errorf("htmx %v: ending text = %q", htmx, got)
		}
	}
}

// TestSubmitRecallRedirect: an ending's page gets the answers its query
// recalls, escaped, with htmx and without.
func TestSubmitRecallRedirect(t *testing.T) {
	form := strings.Replace(greetForm, `"title": "See you, {{name}}", `, `"redirectUrl": "https://example.com/hi?who={{name}}", `, 1)
	for _, htmx := range []bool{true, false} {
		a := &app{hub: hubtest.Start(t, map[string]string{"acme/greet": form}), calls: &calls{}}
		cfg := handlers.Config{HubURL: a.hub.URL, Logger: quiet}
		a.calls.config(&cfg)
		a.h = handlers.New(cfg)
		a.srv = httptest.NewServer(a.h)
		t.Cleanup(a.srv.Close)
		client := *http.DefaultClient
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		body, ctype := multipartBody(t, part{name: "name", value: "Ada & Bob"}, part{name: "email", value: "ada@example.com"})
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/hubform/acme/greet/submit", body)
		req.Header.Set("Content-Type", ctype)
		if htmx {
			req.Header.Set("HX-Request", "true")
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		got := res.Header.Get("Location")
		if htmx {
			got = res.Header.Get("HX-Redirect")
		}
		if want := "https://example.com/hi?who=Ada+%26+Bob"; got != want {
			t.Errorf("htmx %v: sent to %q, want %q", htmx, got, want)
		}
	}
}

package hosted_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/components"
)

const (
	redirectForm = `{
  "title": "Sign up",
  "fields": [{"name": "email", "type": "email", "label": "Email", "required": true}, {"name": "utm_source", "type": "hidden"}],
  "steps": [{"id": "main", "fields": ["email"]}],
  "meta": {"redirectUrl": "https://owner.example/welcome"},
  "i18n": {"translations": {"de": {"title": "Anmelden"}}}
}`
	closedForm = `{
  "title": "Last year's survey",
  "fields": [{"name": "email", "type": "email", "label": "Email"}],
  "steps": [{"id": "main", "fields": ["email"]}],
  "hub": {"closesAt": "2020-01-01T00:00:00Z"}
}`
)

// sendOnce sends req and returns the answer without following a
// redirect.
func sendOnce(t *testing.T, req *http.Request) *http.Response {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// TestPageRedirectsAfterSuccess checks that the hosted page, which mounts
// package handlers, sends the visitor to the form's own page after a
// submission, with htmx and without, and that its policy lets a post
// without JavaScript follow the redirect there. The page prefills the
// hidden field from its query, and its stamp and locale reach the hub.
func TestPageRedirectsAfterSuccess(t *testing.T) {
	t.Parallel()
	h := startHub(t, map[string]string{"acme/signup": redirectForm, "acme/contact": contactForm})
	page := h.get("/f/acme/signup?utm_source=newsletter", "Accept-Language: de")
	if policy := page.header.Get("Content-Security-Policy"); !strings.Contains(policy, "form-action 'self' https://owner.example;") {
		t.Errorf("policy %q lets no post redirect to the form's page", policy)
	}
	if policy := h.get("/f/acme/contact").header.Get("Content-Security-Policy"); !strings.Contains(policy, "form-action 'self';") {
		t.Errorf("a form without a redirect may post elsewhere: %q", policy)
	}
	if got := page.attr(`input[name="utm_source"]`, "value"); got != "newsletter" {
		t.Errorf("the hidden field reads %q, want the query's newsletter", got)
	}
	stamp := page.attr(`input[name="`+components.StampField+`"]`, "value")
	action := page.attr("form[data-hubform-form]", "action")
	if stamp == "" || !strings.Contains(action, "locale=de") {
		t.Fatalf("stamp %q, action %q", stamp, action)
	}
	for _, htmx := range []bool{false, true} {
		values := url.Values{"email": {"jo@example.com"}, "utm_source": {"newsletter"}, components.StampField: {stamp}}
		req, _ := http.NewRequest(http.MethodPost, h.Server.URL+action, strings.NewReader(values.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if htmx {
			req.Header.Set("HX-Request", "true")
		}
		res := sendOnce(t, req)
		switch {
		case htmx && (res.StatusCode != http.StatusOK || res.Header.Get("HX-Redirect") != "https://owner.example/welcome"):
			t.Errorf("htmx: %d, HX-Redirect %q", res.StatusCode, res.Header.Get("HX-Redirect"))
		case !htmx && (res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "https://owner.example/welcome"):
			t.Errorf("without JavaScript: %d, Location %q", res.StatusCode, res.Header.Get("Location"))
		}
	}
	subs := h.Submissions()
	if len(subs) != 2 {
		t.Fatalf("%d submissions stored, want 2", len(subs))
	}
	if p := payload(t, subs[0]); p["utm_source"] != "newsletter" || subs[0].Locale != "de" {
		t.Errorf("payload %v, locale %q", p, subs[0].Locale)
	}
}

// TestPageClosed checks the hosted page of a form past its closing time:
// the closed state, and a post refused with it.
func TestPageClosed(t *testing.T) {
	t.Parallel()
	h := startHub(t, map[string]string{"acme/survey": closedForm})
	page := h.get("/f/acme/survey")
	if page.status != http.StatusOK || page.doc.Find("[data-vendor-hubform-closed]").Length() != 1 || page.doc.Find("form").Length() != 0 {
		t.Fatalf("page of a closed form: %d\n%s", page.status, page.body)
	}
	a := h.post("/hubform/acme/survey/submit", url.Values{"email": {"jo@example.com"}})
	if a.status != http.StatusForbidden || a.doc.Find("[data-vendor-hubform-closed]").Length() != 1 {
		t.Errorf("post to a closed form: %d\n%s", a.status, a.body)
	}
	if n := len(h.Submissions()); n != 0 {
		t.Errorf("%d submissions stored for a closed form", n)
	}
}

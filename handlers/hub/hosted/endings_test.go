package hosted_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/components"
)

// endingsForm sends a big party to the owner's page and shows a company
// its own panel.
const endingsForm = `{
  "title": "Plan a party",
  "fields": [{"name": "guests", "type": "number", "label": "Guests"}, {"name": "company", "type": "text", "label": "Company"}],
  "steps": [{"id": "main", "fields": ["guests", "company"]}],
  "endings": [
    {"id": "big", "title": "A big party!", "redirectUrl": "https://party.example/big?from=form", "if": {">": [{"var": "guests"}, 5]}},
    {"id": "firm", "title": "Our sales team will call", "if": {"!!": {"var": "company"}}}
  ],
  "hub": {"minSeconds": 0}
}`

// TestPageEndings checks that the hosted page, which mounts package
// handlers, ends as the hub chose: an ending's page, which its policy lets
// a post without JavaScript be redirected to, or an ending's panel.
func TestPageEndings(t *testing.T) {
	t.Parallel()
	h := startHub(t, map[string]string{"acme/party": endingsForm})
	page := h.get("/f/acme/party")
	if policy := page.header.Get("Content-Security-Policy"); !strings.Contains(policy, "form-action 'self' https://party.example;") {
		t.Errorf("policy %q lets no post redirect to the ending's page", policy)
	}
	stamp := page.attr(`input[name="`+components.StampField+`"]`, "value")
	action := page.attr("form[data-hubform-form]", "action")
	post := func(htmx bool, values url.Values) (*http.Response, string) {
		t.Helper()
		values.Set(components.StampField, stamp)
		req, _ := http.NewRequest(http.MethodPost, h.Server.URL+action, strings.NewReader(values.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if htmx {
			req.Header.Set("HX-Request", "true")
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, string(body)
	}
	for _, htmx := range []bool{false, true} {
		res, _ := post(htmx, url.Values{"guests": {"9"}})
		switch {
		case htmx && (res.StatusCode != http.StatusOK || res.Header.Get("HX-Redirect") != "https://party.example/big?from=form"):
			t.Errorf("htmx: %d, HX-Redirect %q", res.StatusCode, res.Header.Get("HX-Redirect"))
		case !htmx && (res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "https://party.example/big?from=form"):
			t.Errorf("without JavaScript: %d, Location %q", res.StatusCode, res.Header.Get("Location"))
		}
		res, body := post(htmx, url.Values{"guests": {"2"}, "company": {"ACME"}})
		if res.StatusCode != http.StatusOK || !strings.Contains(body, `data-hubform-ending="firm"`) || !strings.Contains(body, "Our sales team will call") {
			t.Errorf("htmx %v: the company's ending: %d, %s", htmx, res.StatusCode, body)
		}
	}
	var endings []string
	for _, s := range h.Submissions() {
		endings = append(endings, s.Ending)
	}
	if len(endings) != 4 || strings.Count(strings.Join(endings, ","), "big") != 2 || strings.Count(strings.Join(endings, ","), "firm") != 2 {
		t.Errorf("endings stored %v, want big and firm twice each", endings)
	}
}

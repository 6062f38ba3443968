package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// calcForm prices a party as the guests are counted, and scores a
// question: a quiz that shows its answers.
const calcForm = `{"fields": [
		{"name": "name", "type": "text", "label": "Name", "required": true},
		{"name": "guests", "type": "number", "label": "Guests"},
		{"name": "capital", "type": "radio", "label": "Capital of France", "options": [{"value": "paris", "label": "Paris", "correct": true}, {"value": "lyon", "label": "Lyon"}]}],
	"steps": [{"id": "s", "fields": ["name", "guests", "capital"]}],
	"calculations": [
		{"name": "total", "label": "Total", "expr": {"*": [{"var": "guests"}, 35]}, "format": "currency", "currency": "EUR", "show": true},
		{"name": "score", "expr": {"points": "capital"}}],
	"quiz": {"showAnswers": true},
	"i18n": {"translations": {"de": {"title": "Fest", "calculations": {"total": "Summe"}}}}}`

// TestCalculationShown: a shown calculation is an output after the fields
// it reads, worked out again by the logic route and on a post without
// JavaScript, in the form's locale.
func TestCalculationShown(t *testing.T) {
	b := newBackend(t)
	b.hub.WriteForm("acme", "party", calcForm)
	doc := parse(t, b.page(t, "/page/acme/party"))
	out := doc.Find(`[data-hubform-calc="total"] output[aria-live="polite"]`)
	if out.Length() != 1 || strings.TrimSpace(out.Text()) != "—" || text(doc, `[data-hubform-calc="total"] label`) != "Total" {
		t.Fatalf("the page's output: %d, %q", out.Length(), out.Text())
	}
	if id, _ := out.Attr("id"); doc.Find(`label[for="`+id+`"]`).Length() != 1 {
		t.Error("the output has no label")
	}
	if doc.Find(`[data-hubform-slot="guests"][data-hx-post]`).Length() != 1 {
		t.Error("a change of the guests does not ask the logic route")
	}

	form := url.Values{"guests": {"3"}, "total": {"1"}}
	req, _ := http.NewRequest(http.MethodPost, b.srv.URL+"/hubform/acme/party/logic?locale=de", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	res, html := doHTML(t, req)
	swapped := parse(t, html).Find(`[data-hubform-calc="total"][data-hx-swap-oob]`)
	if res.StatusCode != http.StatusOK || swapped.Length() != 1 || strings.TrimSpace(swapped.Find("output").Text()) != "€ 105,00" || swapped.Find("label").Text() != "Summe" {
		t.Errorf("logic route: %d %s", res.StatusCode, html)
	}

	// Without JavaScript, a post refused for the missing name comes back
	// with the total worked out.
	_, html = b.send(t, "/hubform/acme/party/submit", false, part{name: "guests", value: "2"})
	if got := strings.TrimSpace(parse(t, html).Find(`[data-hubform-calc="total"] output`).Text()); got != "€ 70.00" {
		t.Errorf("the refused post's total %q, want € 70.00: %s", got, html)
	}
}

// TestQuizSubmitted: the submitted state shows the score the hub worked
// out, and which answers were right, with and without JavaScript; a
// score posted by the visitor is not read.
func TestQuizSubmitted(t *testing.T) {
	b := newBackend(t)
	b.hub.WriteForm("acme", "quiz", calcForm)
	for _, htmx := range []bool{true, false} {
		res, html := b.send(t, "/hubform/acme/quiz/submit", htmx, part{name: "name", value: "Ada"}, part{name: "capital", value: "paris"}, part{name: "score", value: "100"})
		doc := parse(t, html)
		if res.StatusCode != http.StatusOK || text(doc, "[data-hubform-score]") != "Your score: 1" ||
			doc.Find("[data-hubform-right]").Length() != 1 || !strings.Contains(text(doc, "[data-hubform-right]"), "Capital of France") {
			t.Errorf("htmx %v: right: %d %s", htmx, res.StatusCode, html)
		}
		_, html = b.send(t, "/hubform/acme/quiz/submit", htmx, part{name: "name", value: "Ada"}, part{name: "capital", value: "lyon"})
		doc = parse(t, html)
		if text(doc, "[data-hubform-score]") != "Your score: 0" || doc.Find("[data-hubform-wrong]").Length() != 1 {
			t.Errorf("htmx %v: wrong: %s", htmx, html)
		}
	}
}

package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/handlers"
)

// endingsForm ends three ways: a big party is sent to the owner's page,
// a company sees its own panel, the rest the thank-you panel. The form's
// own redirect stands for no ending reached.
const endingsForm = `{"fields": [
		{"name": "guests", "type": "number", "label": "Guests"},
		{"name": "company", "type": "text", "label": "Company"}],
	"steps": [{"id": "s", "fields": ["guests", "company"]}],
	"meta": {"redirectUrl": "https://owner.example/thanks"},
	"endings": [
		{"id": "crowd", "title": "Big party", "redirectUrl": "https://owner.example/party?size=big", "if": {">": [{"var": "guests"}, 5]}},
		{"id": "firm", "title": "Our sales team will call", "text": "Within *a day*.", "if": {"!!": {"var": "company"}}}],
	"i18n": {"translations": {"de": {"endings": {"firm": {"title": "Unser Vertrieb ruft an"}}}}}}`

// TestSubmitShowsTheEnding: the app shows the ending the hub chose, with
// and without JavaScript, and follows its page as the form's own.
func TestSubmitShowsTheEnding(t *testing.T) {
	b := newBackend(t)
	b.hub.WriteForm("acme", "party", endingsForm)
	for _, htmx := range []bool{true, false} {
		res, html := b.send(t, "/hubform/acme/party/submit", htmx, part{name: "company", value: "ACME"})
		doc := parse(t, html)
		if res.StatusCode != http.StatusOK || text(doc, `[data-hubform-ending="firm"] .hubform-ending-title`) != "Our sales team will call" ||
			text(doc, ".hubform-ending-text em") != "a day" || res.Header.Get("Location")+res.Header.Get("HX-Redirect") != "" {
			t.Errorf("htmx %v: company: %d, %s", htmx, res.StatusCode, html)
		}

		res, html = b.send(t, "/hubform/acme/party/submit", htmx, part{name: "guests", value: "9"}, part{name: "company", value: "ACME"})
		const party = "https://owner.example/party?size=big"
		if htmx && (res.StatusCode != http.StatusOK || res.Header.Get("HX-Redirect") != party) ||
			!htmx && (res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != party) {
			t.Errorf("htmx %v: a big party: %d, HX-Redirect %q, Location %q, %s", htmx, res.StatusCode, res.Header.Get("HX-Redirect"), res.Header.Get("Location"), html)
		}

		// No ending reached: the form's own redirect.
		res, _ = b.send(t, "/hubform/acme/party/submit", htmx, part{name: "guests", value: "2"})
		if got := res.Header.Get("HX-Redirect") + res.Header.Get("Location"); got != "https://owner.example/thanks" {
			t.Errorf("htmx %v: no ending: sent to %q, want the form's redirect", htmx, got)
		}
	}

	// In German, the ending's translation.
	_, html := b.send(t, "/hubform/acme/party/submit?locale=de", true, part{name: "company", value: "ACME"})
	if got := text(parse(t, html), ".hubform-ending-title"); got != "Unser Vertrieb ruft an" {
		t.Errorf("German ending title %q, want the translation; %s", got, html)
	}
}

// TestSuccessFallbackWinsOverTheEnding: a host that set its own submitted
// state keeps it.
func TestSuccessFallbackWinsOverTheEnding(t *testing.T) {
	b := newBackend(t, func(c *handlers.Config) {
		c.Forms = map[handlers.Form]handlers.FormOptions{{Site: "acme", Slug: "party"}: {SuccessFallback: templ.Raw(`<p class="mine">Ours.</p>`)}}
	})
	b.hub.WriteForm("acme", "party", endingsForm)
	_, html := b.send(t, "/hubform/acme/party/submit", true, part{name: "company", value: "ACME"})
	if !strings.Contains(html, `<p class="mine">Ours.</p>`) || strings.Contains(html, "sales team") {
		t.Errorf("the host's SuccessFallback lost to the ending: %s", html)
	}
}

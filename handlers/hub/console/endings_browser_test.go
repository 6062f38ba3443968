package console_test

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// endingsForm is acme/contact ending two ways: a big party, and a
// company's, whose text is Markdown.
const endingsForm = `{
  "title": "Plan a party",
  "fields": [
    {"name": "guests", "type": "number", "label": "Guests"},
    {"name": "company", "type": "text", "label": "Company"}
  ],
  "steps": [{"id": "all", "fields": ["guests", "company"]}],
  "endings": [
    {"id": "big", "title": "A big party!", "text": "We will call you about the **venue**.", "if": {">": [{"var": "guests"}, 5]}},
    {"id": "firm", "title": "Our sales team will call", "text": "Within a working day.", "if": {"!!": {"var": "company"}}}
  ]
}`

// TestBrowserEndings fills the hub's own page of a form with endings, with
// JavaScript and without, and reaches each of two endings: the page shows
// the ending's title and text, and the hub stores it with the submission.
// axe-core checks the ending's panel.
func TestBrowserEndings(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{Forms: formsDir(t, endingsForm)})
	con := newConsoleTab(t, browser, h)
	page := con.base + "/f/acme/contact"
	fill := func(guests, company string) {
		t.Helper()
		con.do(chromedp.SendKeys(chromedp.ID("hubform-acme-contact-guests"), guests))
		if company != "" {
			con.do(chromedp.SendKeys(chromedp.ID("hubform-acme-contact-company"), company))
		}
	}
	wantEnding := func(how, id, title, text string) {
		t.Helper()
		sel := `[data-vendor-hubform-submitted][data-hubform-ending="` + id + `"]`
		con.do(chromedp.WaitVisible(chromedp.CSS(sel)))
		if got := con.text(sel + " .hubform-ending-title"); got != title {
			t.Errorf("%s: the ending's title %q, want %q", how, got, title)
		}
		if got := strings.TrimSpace(con.text(sel + " .hubform-ending-text")); got != text {
			t.Errorf("%s: the ending's text %q, want %q", how, got, text)
		}
	}

	con.do(chromedp.EmulateViewport(1280, 900))
	for _, js := range []bool{true, false} {
		how := "with JavaScript"
		if !js {
			how = "without JavaScript"
			disableScripts(t, con, true)
		}
		con.do(chromedp.Navigate(page), chromedp.WaitVisible(chromedp.ID("hubform-acme-contact-guests")))
		fill("9", "")
		con.do(chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
		wantEnding(how, "big", "A big party!", "We will call you about the venue.")
		if js {
			if got := browsertest.Eval[string](t, con.tab, 5*time.Second, `location.pathname`); got != "/f/acme/contact" {
				t.Errorf("%s: the page moved to %q", how, got)
			}
			browsertest.CheckAxe(t, con.tab, axe, "an ending")
			shots(t, con, "hosted-ending", "")
		}
		con.do(chromedp.Navigate(page), chromedp.WaitVisible(chromedp.ID("hubform-acme-contact-guests")))
		fill("2", "ACME")
		con.do(chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
		wantEnding(how, "firm", "Our sales team will call", "Within a working day.")
	}
	disableScripts(t, con, false)
	got, err := h.DB.CountSubmissionsByEnding(t.Context(), hub.Filter{Site: "acme", Slug: "contact"})
	if want := map[string]int{"big": 2, "firm": 2}; err != nil || !maps.Equal(got, want) {
		t.Errorf("endings stored %v, %v; want big and firm twice each", got, err)
	}
}

package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

// partyForm is endingsForm before its endings: the builder adds them.
const partyForm = `{
  "title": "Plan a party",
  "fields": [
    {"name": "guests", "type": "number", "label": "Guests"},
    {"name": "company", "type": "text", "label": "Company"}
  ],
  "steps": [{"id": "all", "fields": ["guests", "company"]}],
  "hub": {"minSeconds": 0}
}`

// TestBrowserBuilderEndings builds two endings in the Build tab, one with
// JavaScript and one without, each shown on a condition set in the rows
// of the condition editor; once published, the form's page reaches each.
// axe-core checks the endings' cards and a panel open.
func TestBrowserBuilderEndings(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	con := storedFormTab(t, browser, "party", partyForm)
	tab, base, do, eval, waitFor := con.tab, con.base, con.do, con.eval, con.waitIdle
	h, ctx := con.hub, t.Context()
	build := base + "/console/forms/acme/party"

	// With JavaScript: "A big party!" when there are more than 5 guests.
	do(chromedp.Navigate(build), chromedp.WaitVisible(chromedp.CSS("#endings-heading")))
	waitFor(`document.querySelector('[data-builder-fields]').classList.contains('builder-dnd')`)
	do(chromedp.Click(chromedp.CSS(`#endings details.builder-add summary`)), chromedp.WaitVisible(chromedp.CSS("#new-ending-title")),
		chromedp.SendKeys(chromedp.CSS("#new-ending-title"), "A big party!"),
		chromedp.SendKeys(chromedp.CSS("#new-ending-text"), "We will call you about the **venue**."),
		chromedp.Click(chromedp.CSS(`form[action$="/endings"] button[type="submit"]`)))
	waitFor(`document.querySelector('li[data-ending="a_big_party"]')`)
	do(chromedp.WaitVisible(chromedp.CSS(`#ending0-if button[value="add if"]`)),
		chromedp.Click(chromedp.CSS(`#ending0-if button[value="add if"]`)))
	waitFor(`document.querySelector('#ending0-if-0-field')`)
	do(chromedp.SetValue(chromedp.CSS("#ending0-if-0-field"), "guests"))
	eval(`document.querySelector('#ending0-if-0-field').dispatchEvent(new Event('change', {bubbles: true})); 'ok'`)
	waitFor(`document.querySelector('#ending0-if-0-op option[value="more"]')`)
	do(chromedp.SetValue(chromedp.CSS("#ending0-if-0-op"), "more"),
		chromedp.SetValue(chromedp.CSS("#ending0-if-0-value"), "5"))
	browsertest.CheckAxe(t, tab, axe, "an ending's panel with a condition")
	do(chromedp.ScrollIntoView(chromedp.CSS("#endings-heading")))
	shots(t, con, "console-endings-panel", "#endings-heading")
	do(chromedp.Click(chromedp.CSS(`#ending-0 form button.hubform-button--primary`)))
	waitFor(`document.querySelector('li[data-ending="a_big_party"] [data-condition-badge="ending"]')`)
	if got := eval(`document.querySelector('li[data-ending="a_big_party"] [data-condition-badge="ending"]').title`); got != "Shown when Guests is more than 5" {
		t.Errorf("the ending's badge says %q", got)
	}

	// Without JavaScript: "Our sales team will call" when a company is
	// named.
	disableScripts(t, con, true)
	do(chromedp.Navigate(build), chromedp.WaitVisible(chromedp.CSS("#endings-heading")),
		chromedp.Click(chromedp.CSS(`#endings details.builder-add summary`)), chromedp.WaitVisible(chromedp.CSS("#new-ending-title")),
		chromedp.SendKeys(chromedp.CSS("#new-ending-title"), "Our sales team will call"),
		chromedp.SendKeys(chromedp.CSS("#new-ending-text"), "Within a working day."),
		chromedp.Click(chromedp.CSS(`form[action$="/endings"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#ending1-if button[value="add if"]`)),
		chromedp.Click(chromedp.CSS(`#ending1-if button[value="add if"]`)),
		chromedp.WaitVisible(chromedp.CSS("#ending1-if-0-op")),
		chromedp.SetValue(chromedp.CSS("#ending1-if-0-op"), "filled"),
		chromedp.Click(chromedp.CSS(`#ending-1 form button.hubform-button--primary`)),
		chromedp.WaitVisible(chromedp.CSS(`li[data-ending="our_sales_team_will_call"] [data-condition-badge="ending"]`)))
	if got := eval(`document.querySelector('li[data-ending="our_sales_team_will_call"] [data-condition-badge="ending"]').title`); got != "Shown when Company is not empty" {
		t.Errorf("the second ending's badge says %q", got)
	}
	disableScripts(t, con, false)
	do(chromedp.Navigate(build), chromedp.WaitVisible(chromedp.CSS("#endings-heading")))
	browsertest.CheckAxe(t, tab, axe, "the endings' cards")
	shots(t, con, "console-endings", "#endings-heading")

	// Published, the form reaches each.
	rec, err := h.DB.FormRecord(ctx, "acme", "party")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.DB.PublishFormVersion(ctx, "acme", "party", rec.LastVersion, time.Now()); err != nil {
		t.Fatal(err)
	}
	page := base + "/f/acme/party"
	for _, c := range []struct{ guests, company, id, title string }{
		{"9", "", "a_big_party", "A big party!"},
		{"2", "ACME", "our_sales_team_will_call", "Our sales team will call"},
	} {
		do(chromedp.Navigate(page), chromedp.WaitVisible(chromedp.ID("hubform-acme-party-guests")),
			chromedp.SendKeys(chromedp.ID("hubform-acme-party-guests"), c.guests))
		if c.company != "" {
			do(chromedp.SendKeys(chromedp.ID("hubform-acme-party-company"), c.company))
		}
		sel := `[data-vendor-hubform-submitted][data-hubform-ending="` + c.id + `"]`
		do(chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(sel)))
		if got := strings.TrimSpace(con.text(sel + " .hubform-ending-title")); got != c.title {
			t.Errorf("the ending's title %q, want %q", got, c.title)
		}
	}

	// The Summary counts them.
	do(chromedp.Navigate(build+"/summary"), chromedp.WaitVisible(chromedp.CSS("#summary-endings-card")))
	if got := eval(`[...document.querySelectorAll('#summary-endings-card li')].map((li) => li.dataset.answer + ': ' + li.dataset.count).join('; ')`); got != "A big party!: 1; Our sales team will call: 1; Default ending (no other applied): 0" {
		t.Errorf("the Summary's endings read %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the Summary's endings")
	shots(t, con, "console-summary-endings", "#summary-endings")
}

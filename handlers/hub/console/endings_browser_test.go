package console_test

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// endingsForm is acme/party, ending two ways: a big party, and a
// company's, whose text is Markdown. The test sends it at once, which the
// time trap would take for a bot.
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
  ],
  "hub": {"minSeconds": 0}
}`

// TestBrowserEndings fills the hub's own page of a form with endings, with
// JavaScript and without, and reaches each of two endings: the page shows
// the ending's title and text, and the hub stores it with the submission.
// The console then names a submission's ending and counts them in the
// overview's funnel. axe-core checks the ending's panel and the overview.
func TestBrowserEndings(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{})
	addUser(t, h, "jane@example.com", "correct horse battery")
	ctx, now := t.Context(), time.Now()
	if _, err := h.DB.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, now); err != nil {
		t.Fatal(err)
	}
	n, err := h.DB.SaveFormVersion(ctx, "acme", "party", []byte(endingsForm), "jane@example.com", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.DB.PublishFormVersion(ctx, "acme", "party", n, now); err != nil {
		t.Fatal(err)
	}
	con := newConsoleTab(t, browser, h)
	page := con.base + "/f/acme/party"
	fill := func(guests, company string) {
		t.Helper()
		con.do(chromedp.SendKeys(chromedp.ID("hubform-acme-party-guests"), guests))
		if company != "" {
			con.do(chromedp.SendKeys(chromedp.ID("hubform-acme-party-company"), company))
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
		con.do(chromedp.Navigate(page), chromedp.WaitVisible(chromedp.ID("hubform-acme-party-guests")))
		if js {
			browsertest.WaitScripts(t, con.tab)
		}
		fill("9", "")
		con.do(chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
		wantEnding(how, "big", "A big party!", "We will call you about the venue.")
		if js {
			if got := browsertest.Eval[string](t, con.tab, 5*time.Second, `location.pathname`); got != "/f/acme/party" {
				t.Errorf("%s: the page moved to %q", how, got)
			}
			browsertest.CheckAxe(t, con.tab, axe, "an ending")
			shots(t, con, "hosted-ending", "")
		}
		con.do(chromedp.Navigate(page), chromedp.WaitVisible(chromedp.ID("hubform-acme-party-guests")))
		fill("2", "ACME")
		con.do(chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
		wantEnding(how, "firm", "Our sales team will call", "Within a working day.")
	}
	disableScripts(t, con, false)
	got, err := h.DB.CountSubmissionsByEnding(ctx, hub.Filter{Site: "acme", Slug: "party"})
	if want := map[string]int{"big": 2, "firm": 2}; err != nil || !maps.Equal(got, want) {
		t.Errorf("endings stored %v, %v; want big and firm twice each", got, err)
	}

	// The console names the newest submission's ending, and the funnel
	// counts them.
	var newest string
	if err := h.DB.ListSubmissions(ctx, hub.Filter{Site: "acme", Slug: "party", Newest: true, Limit: 1}, func(s hub.Submission) error {
		newest = s.ID
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS("#forms")),
		chromedp.Navigate(con.base+"/console/forms/acme/party/submissions/"+newest), chromedp.WaitVisible(chromedp.CSS("#submission-ending")))
	if got := strings.Join(strings.Fields(con.text("#submission-ending")), " "); got != "Ending: Our sales team will call" {
		t.Errorf("the submission's ending reads %q", got)
	}
	con.do(chromedp.Navigate(con.base+"/console/forms/acme/party/overview"), chromedp.WaitVisible(chromedp.CSS("#funnel-endings")))
	bars := browsertest.Eval[string](t, con.tab, 5*time.Second, `[...document.querySelectorAll('#funnel-endings li')].map(li =>
		li.querySelector('.console-funnel-label').textContent + ': ' + li.querySelector('.console-funnel-count').textContent).join('; ')`)
	if bars != "A big party!: 2; Our sales team will call: 2; Thank-you panel (no ending): 0" {
		t.Errorf("the funnel's endings read %q", bars)
	}
	browsertest.CheckAxe(t, con.tab, axe, "the overview with endings")
	shots(t, con, "console-funnel-endings", "#funnel-endings-heading")
}

package console_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/static/browsertest"
)

// resultsForm is acme/contact as an order form: a question of each kind
// the table renders.
const resultsForm = `{
  "title": "Order form",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "email", "type": "email", "label": "E-mail"},
    {"name": "plan", "type": "radio", "label": "Plan", "options": [{"value": "pro", "label": "Professional"}, {"value": "basic", "label": "Basic"}]},
    {"name": "agree", "type": "checkbox", "label": "Send me the newsletter"},
    {"name": "day", "type": "date", "label": "Delivery day"},
    {"name": "note", "type": "textarea", "label": "Note"},
    {"name": "files", "type": "file", "label": "Attachments", "multiple": true}
  ],
  "steps": [{"id": "all", "fields": ["name", "email", "plan", "agree", "day", "note", "files"]}]
}`

// TestBrowserResults reads a form's results as a table in headless
// Chromium: a column per question, a submission in the side panel with
// its newer and older ones, marking one as spam and undoing it, and the
// rows as cards on a phone; axe checks each view, light and dark.
func TestBrowserResults(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{Forms: formsDir(t, resultsForm)})
	addUser(t, h, "jane@example.com", "correct horse battery")
	c := &hubclient.Client{HubURL: h.URL}
	for _, p := range []map[string]any{
		{"name": "Ada Lovelace", "email": "ada@example.com", "plan": "pro", "agree": true, "day": "2026-12-01", "note": "Two engines, please.\nDeliver to the back door."},
		{"name": "Charles Babbage", "email": "charles@example.com", "plan": "basic", "agree": false},
		{"name": "Mary Somerville", "plan": "pro", "note": "Call first."},
	} {
		if _, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{Payload: p}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // ids in the order sent
	}
	con := newConsoleTab(t, browser, h)
	tab, do, text := con.tab, con.do, con.text
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS("#forms table")))
	inbox := con.base + "/console/forms/acme/contact/submissions"
	do(chromedp.Navigate(inbox), chromedp.WaitVisible(chromedp.CSS("#submissions")))

	heads := browsertest.Eval[string](t, tab, 5*time.Second, `[...document.querySelectorAll('#submissions thead th')].map(th => th.textContent.trim()).join('|')`)
	if want := "Select|Received|Your name|E-mail|Plan|Send me the newsletter|Delivery day|Note|Attachments"; heads != want {
		t.Errorf("headers %q, want %q", heads, want)
	}
	if got := text("#submissions tbody tr:last-child"); !strings.Contains(got, "Professional") || !strings.Contains(got, "Yes") || !strings.Contains(got, "1 Dec 2026") || !strings.Contains(got, "—") {
		t.Errorf("Ada's row reads %q", got)
	}
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, tab, scheme)
		browsertest.CheckAxe(t, tab, axe, "the results table, "+scheme)
		con.screenshot("console-results-1280-" + scheme)
	}
	browsertest.ColorScheme(t, tab, "")

	// The newest opens in the panel; Older goes down the list within it;
	// Escape closes it.
	do(chromedp.Click(chromedp.CSS(`#submissions tbody tr:first-child a[data-panel]`)),
		chromedp.WaitVisible(chromedp.CSS("#submission-panel #values")))
	if got := text("#submission-panel #values"); !strings.Contains(got, "Mary Somerville") {
		t.Fatalf("the panel shows %q, want Mary's", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the submission panel")
	con.screenshot("console-results-panel")
	do(chromedp.Click(chromedp.CSS(`#submission-panel a[rel="next"]`)))
	browsertest.WaitFor(t, tab, 10*time.Second, `document.querySelector('#submission-panel #values')?.textContent.includes('Charles Babbage')`)
	if !browsertest.Eval[bool](t, tab, 5*time.Second, `!!document.querySelector('#submission-panel a[rel="prev"]') && !!document.querySelector('#submission-panel a[rel="next"]')`) {
		t.Error("the middle submission lacks a Newer or an Older link")
	}
	do(chromedp.KeyEvent("\x1b"))
	browsertest.WaitFor(t, tab, 5*time.Second, `!document.getElementById('submission-panel').open`)
	if got := browsertest.Eval[string](t, tab, 5*time.Second, `location.pathname`); got != "/console/forms/acme/contact/submissions" {
		t.Errorf("the panel left the table for %s", got)
	}

	// Marking one as spam says so, with an Undo that brings it back.
	do(chromedp.Click(chromedp.CSS(`#submissions tbody tr:first-child input[type=checkbox]`)),
		chromedp.Click(chromedp.CSS(`button[name="spam"][value="1"]`)), chromedp.WaitVisible(chromedp.CSS("#undo")))
	if got := text("#notice"); !strings.Contains(got, "One submission moved to Spam.") {
		t.Errorf("after marking as spam the notice reads %q", got)
	}
	if got := text("#submissions"); strings.Contains(got, "Mary Somerville") {
		t.Error("the submission marked as spam is still listed")
	}
	browsertest.CheckAxe(t, tab, axe, "the notice with its Undo")
	con.screenshot("console-results-undo")
	do(chromedp.Click(chromedp.CSS("#undo")), chromedp.Sleep(time.Second), chromedp.WaitVisible(chromedp.CSS("#submissions")))
	browsertest.WaitFor(t, tab, 5*time.Second, `document.getElementById('notice').textContent.includes('moved back to the inbox')`)
	if got := text("#submissions"); !strings.Contains(got, "Mary Somerville") {
		t.Error("Undo did not bring the submission back")
	}

	// On a phone each row is a card of answers under their questions.
	do(chromedp.EmulateViewport(375, 812), chromedp.Navigate(inbox), chromedp.WaitVisible(chromedp.CSS("#submissions")))
	if got := browsertest.Eval[string](t, tab, 5*time.Second, `getComputedStyle(document.querySelector('#submissions tbody tr')).display`); got != "block" {
		t.Errorf("on a phone a row displays as %q, want a card (block)", got)
	}
	if got := browsertest.Eval[string](t, tab, 5*time.Second, `getComputedStyle(document.querySelector('#submissions td:has(> .console-none)')).display`); got != "none" {
		t.Errorf("on a phone an unanswered question displays as %q, want it left out of the card", got)
	}
	if over := browsertest.Eval[bool](t, tab, 5*time.Second, `document.documentElement.scrollWidth > window.innerWidth`); over {
		t.Error("on a phone the page scrolls sideways")
	}
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, tab, scheme)
		browsertest.CheckAxe(t, tab, axe, "the results as cards, "+scheme)
		browsertest.Eval[bool](t, tab, 5*time.Second, `document.getElementById('list-heading').scrollIntoView(), true`)
		con.screenshot("console-results-375-" + scheme)
	}
}

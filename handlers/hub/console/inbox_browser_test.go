package console_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserInbox goes through a form's inbox in headless Chromium: the
// list, a search, one submission under its labels, and deleting it, with
// axe-core checking each page it shows.
func TestBrowserInbox(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{Forms: formsDir(t, contactForm)})
	addUser(t, h, "jane@example.com", "correct horse battery")
	c := &hubclient.Client{HubURL: h.URL}
	for _, name := range []string{"Jane Roe", "John Smith"} {
		if _, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{
			Payload: map[string]any{"name": name, "message": "Hello from " + name},
		}); err != nil {
			t.Fatal(err)
		}
	}
	con := newConsoleTab(t, browser, h)
	tab, do := con.tab, con.do
	text := con.text

	con.signIn("jane@example.com", "correct horse battery",
		chromedp.WaitVisible(chromedp.CSS("#forms table")))

	// From the home page to the form's overview, then its Submissions tab.
	do(chromedp.Click(chromedp.CSS(`#forms a[href="/console/forms/acme/contact/overview"]`)), chromedp.WaitVisible(chromedp.CSS("#recent")))
	browsertest.CheckAxe(t, tab, axe, "the overview")
	con.screenshot("console-overview")
	do(chromedp.Click(chromedp.CSS(`.console-tabs a[href="/console/forms/acme/contact/share"]`)), chromedp.WaitVisible(chromedp.CSS("#hosted-link")))
	browsertest.CheckAxe(t, tab, axe, "the share tab")
	con.screenshot("console-share")
	do(chromedp.Click(chromedp.CSS(`.console-tabs a[href="/console/forms/acme/contact/submissions"]`)), chromedp.WaitVisible(chromedp.CSS("#submissions")))
	con.screenshot("console-submissions")
	if got := text("#submissions"); !strings.Contains(got, "Jane Roe") || !strings.Contains(got, "John Smith") {
		t.Fatalf("the inbox lists %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the inbox")

	do(chromedp.SendKeys(chromedp.CSS("#q"), "roe"), chromedp.Click(chromedp.CSS(`form[role="search"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="q"][value="roe"]`)), chromedp.WaitVisible(chromedp.CSS("#submissions")))
	if got := text("#submissions"); !strings.Contains(got, "Jane Roe") || strings.Contains(got, "John Smith") {
		t.Fatalf("searching roe lists %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the inbox searched")

	// The submission opens in the side panel.
	do(chromedp.Click(chromedp.CSS(`#submissions tbody a[data-panel]`)), chromedp.WaitVisible(chromedp.CSS("#submission-panel #values")))
	if got := text("#submission-panel #values"); !strings.Contains(got, "Your name") || !strings.Contains(got, "Jane Roe") {
		t.Errorf("the submission shows %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "a submission")

	// Deleting it asks nothing, goes back to the search it was opened
	// from, which no longer finds it, and says what it deleted, with an
	// Undo that brings it back.
	asked := con.acceptDialogs()
	do(chromedp.Click(chromedp.CSS(`#submission-panel button[formaction$="/delete"]`)), chromedp.WaitVisible(chromedp.CSS("#no-submissions")))
	if asked.Load() != 0 {
		t.Errorf("deleting asked %d times, want never: it may be undone", asked.Load())
	}
	if got := text("#notice"); !strings.Contains(got, "One submission deleted.") || !strings.Contains(got, "Undo") {
		t.Errorf("after deleting Jane's, the notice reads %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the notice of a deletion")
	do(chromedp.Click(chromedp.CSS(`#undo`)), chromedp.WaitVisible(chromedp.CSS("#submissions")))
	if got := text("#notice"); !strings.Contains(got, "One submission restored.") {
		t.Errorf("after the undo, the notice reads %q", got)
	}
	if got := text("#submissions"); !strings.Contains(got, "Jane Roe") {
		t.Errorf("after the undo, the search lists %q", got)
	}
	do(chromedp.Click(chromedp.CSS(`#submissions tbody a[data-panel]`)), chromedp.WaitVisible(chromedp.CSS("#submission-panel #values")))
	do(chromedp.Click(chromedp.CSS(`#submission-panel button[formaction$="/delete"]`)), chromedp.WaitVisible(chromedp.CSS("#no-submissions")))
	do(chromedp.Click(chromedp.CSS(`#no-submissions a`)), chromedp.WaitVisible(chromedp.CSS("#submissions")))
	if got := text("#submissions"); strings.Contains(got, "Jane Roe") || !strings.Contains(got, "John Smith") {
		t.Errorf("after deleting Jane's, the inbox lists %q", got)
	}
}

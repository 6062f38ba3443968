package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserPublish edits a form, publishes it with the Publish button
// and opens the live form: edits in the background refresh the button's
// summary, publishing leaves one version live and no draft, a further
// edit starts one draft however many edits it takes, and the history
// rolls back. axe-core checks the open Publish panel, the notice and the
// history, the latter 375 pixels wide too, as cards.
func TestBrowserPublish(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{Forms: formsDir(t, contactForm)})
	addUser(t, h, "jane@example.com", "correct horse battery")
	con := newConsoleTab(t, browser, h)
	tab, base, do := con.tab, con.base, con.do
	eval := func(js string) string {
		t.Helper()
		return browsertest.Eval[string](t, tab, 10*time.Second, js)
	}
	settled := func(js string) {
		t.Helper()
		browsertest.WaitFor(t, tab, 10*time.Second, `(`+js+`) && `+browsertest.HTMXIdle)
	}
	versions := func() string {
		t.Helper()
		rec, err := h.DB.FormVersions(t.Context(), "shop", "order")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, v := range rec {
			out = append(out, v.SavedBy)
		}
		return strings.Join(out, ",")
	}

	do(chromedp.EmulateViewport(1280, 900))
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/sites"]`)))
	do(chromedp.Navigate(base+"/console/sites"), chromedp.WaitVisible(chromedp.CSS("#in-site")),
		chromedp.SendKeys(chromedp.CSS("#in-site"), "shop"), chromedp.SendKeys(chromedp.CSS("#in-slug"), "order"),
		chromedp.Click(chromedp.CSS(`form[action="/console/sites"] button`)), chromedp.WaitVisible(chromedp.CSS("#new-label")),
		chromedp.Navigate(base+"/console/forms/shop/order?view=json"), chromedp.WaitVisible(chromedp.CSS("#body")),
		chromedp.SetValue(chromedp.CSS("#body"), arrangedForm),
		chromedp.Click(chromedp.CSS(`#editor button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(`#notice p`)),
		chromedp.Navigate(base+"/console/forms/shop/order"), chromedp.WaitVisible(chromedp.CSS("#publish summary")))

	// A field added in the background: the Publish button's summary
	// follows, without a reload.
	do(chromedp.Click(chromedp.CSS(".builder-add > summary")), chromedp.WaitVisible(chromedp.CSS("#new-label")),
		chromedp.SetValue(chromedp.CSS("#new-type"), "tel"),
		chromedp.SendKeys(chromedp.CSS("#new-label"), "Phone"),
		chromedp.Click(chromedp.CSS(`form[action="/console/forms/shop/order/fields"] button[type="submit"]`)))
	settled(`document.querySelector('[data-field="phone"]') && document.querySelector('#publish-changes').textContent.includes('5 fields')`)
	if got := versions(); got != "jane@example.com" {
		t.Errorf("versions after the edits: %q, want one draft", got)
	}
	do(chromedp.Click(chromedp.CSS("#publish summary")), chromedp.WaitVisible(chromedp.CSS("#publish-changes")))
	if got := eval(`document.querySelector('#publish-changes').textContent`); !strings.Contains(got, "first time, with 5 fields") {
		t.Errorf("the Publish button says %q, want the five fields", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the open Publish panel")
	browsertest.Screenshot(t, tab, "console-publish")

	// Publish, then open the live form.
	do(chromedp.Click(chromedp.CSS(`#publish form button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("#view-live")))
	if got := eval(`document.querySelector('#published').textContent`); !strings.Contains(got, "version 1 is live") {
		t.Errorf("the notice after publishing: %q", got)
	}
	if got := eval(`document.querySelector('#publish').textContent`); strings.Contains(got, "Publish") {
		t.Errorf("the bar after publishing: %q, want no Publish button", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the notice of a publication")
	browsertest.Screenshot(t, tab, "console-published")
	do(chromedp.Click(chromedp.CSS("#view-live")), chromedp.WaitVisible(chromedp.CSS("#hubform-shop-order-phone")))
	if got := eval(`location.pathname`); got != "/f/shop/order" {
		t.Errorf("View live form opened %s", got)
	}

	// Two edits after publishing make one new draft, which the summary
	// names by label.
	do(chromedp.Navigate(base+"/console/forms/shop/order/settings"), chromedp.WaitVisible(chromedp.CSS("#set-maxsize")))
	eval(`document.querySelector('#set-maxsize').value = '2 MB'; 'ok'`)
	do(chromedp.Click(chromedp.CSS(`.builder-save button`)))
	settled(`(document.querySelector('#publish-changes')?.textContent ?? '').includes('largest file')`)
	eval(`document.querySelector('#set-maxsize').value = '3 MB'; 'ok'`)
	do(chromedp.Click(chromedp.CSS(`.builder-save button`)))
	browsertest.WaitFor(t, tab, 10*time.Second, `document.querySelector('#notice').textContent.includes('Saved')`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if v, err := h.DB.FormVersion(t.Context(), "shop", "order", 2); err == nil && strings.Contains(string(v.Body), "3145728") {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the second edit was not saved into version 2: %v", err)
		}
	}
	if got := versions(); got != "jane@example.com,jane@example.com" {
		t.Errorf("versions after two more edits: %q, want the live one and one draft", got)
	}
	do(chromedp.Navigate(base+"/console/forms/shop/order/settings"), chromedp.WaitVisible(chromedp.CSS("#publish summary")),
		chromedp.Click(chromedp.CSS("#publish summary")), chromedp.WaitVisible(chromedp.CSS("#publish-changes")))
	if got := eval(`document.querySelector('#publish-changes').textContent`); got != "Settings changed: largest file" {
		t.Errorf("the summary of a settings change: %q", got)
	}
	browsertest.ColorScheme(t, tab, "dark")
	browsertest.CheckAxe(t, tab, axe, "the open Publish panel in the dark scheme")
	browsertest.Screenshot(t, tab, "console-publish-dark")
	do(chromedp.EmulateViewport(375, 800))
	browsertest.CheckAxe(t, tab, axe, "the open Publish panel 375 pixels wide")
	browsertest.Screenshot(t, tab, "console-publish-phone-dark")
	browsertest.ColorScheme(t, tab, "")
	do(chromedp.EmulateViewport(1280, 900))

	// The history is one link away; an earlier version published again
	// leaves the draft as it is.
	do(chromedp.Click(chromedp.CSS(`#publish a[href$="/history"]`)), chromedp.WaitVisible(chromedp.CSS("#versions")))
	if got := eval(`[...document.querySelectorAll('#versions tbody tr')].map((tr) => tr.dataset.version + ' ' + tr.dataset.state).join()`); got != "2 draft,1 live" {
		t.Errorf("history: %s", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the history")
	do(chromedp.EmulateViewport(375, 800))
	if got := eval(`getComputedStyle(document.querySelector('#versions tbody tr')).display`); got != "block" {
		t.Errorf("a version 375 pixels wide is shown as %s, want a card", got)
	}
	if got := eval(`String(document.documentElement.scrollWidth - document.documentElement.clientWidth)`); got != "0" {
		t.Errorf("the history at 375 pixels scrolls sideways by %s pixels", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the history 375 pixels wide")
	eval(`document.querySelector('#versions').scrollIntoView(); 'ok'`)
	browsertest.Screenshot(t, tab, "console-history-phone")
	browsertest.ColorScheme(t, tab, "dark")
	browsertest.CheckAxe(t, tab, axe, "the history 375 pixels wide in the dark scheme")
	browsertest.Screenshot(t, tab, "console-history-phone-dark")
	browsertest.ColorScheme(t, tab, "")
	do(chromedp.EmulateViewport(1280, 900))
	browsertest.Screenshot(t, tab, "console-history")
}

package console_test

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// conditionalForm has a choice and a field to show depending on it.
const conditionalForm = `{
  "title": "Order",
  "fields": [
    {"name": "size", "type": "select", "label": "Size", "options": [{"value": "s", "label": "Small"}, {"value": "l", "label": "Large"}]},
    {"name": "gift", "type": "checkbox", "label": "It is a gift"},
    {"name": "note", "type": "text", "label": "Gift note"},
    {"name": "wrap", "type": "text", "label": "Wrapping", "visibleIf": {"if": [{"var": "gift"}, true, false]}}
  ],
  "steps": [{"id": "all", "fields": ["size", "gift", "note", "wrap"]}]
}`

// TestBrowserConditions sets "Show Gift note when Size is Large" through
// the field's panel alone: Add condition, the field, the comparison and
// the value chosen, the field saved; the card then carries its badge and
// the preview shows the note only for a large size. The panel passes
// axe-core in both colour schemes and fits 375 pixels.
func TestBrowserConditions(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{Forms: formsDir(t, contactForm)})
	addUser(t, h, "jane@example.com", "correct horse battery")
	con := newConsoleTab(t, browser, h)
	tab, base, do := con.tab, con.base, con.do
	// The guide shows the panel in the light scheme; the other shots, to
	// judge, go to HUBFORM_DARK_SCREENSHOTS, as TestBrowserBuilder's do.
	more := func(name string) {
		t.Helper()
		if dir := os.Getenv("HUBFORM_DARK_SCREENSHOTS"); dir != "" {
			t.Setenv("HUBFORM_SCREENSHOTS", dir)
			browsertest.Screenshot(t, tab, name)
		}
	}
	eval := func(js string) string {
		t.Helper()
		return browsertest.Eval[string](t, tab, 10*time.Second, js)
	}
	settled := func(js string) {
		t.Helper()
		browsertest.WaitFor(t, tab, 10*time.Second, `(`+js+`) && `+browsertest.HTMXIdle)
	}

	do(chromedp.EmulateViewport(1280, 900))
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/sites"]`)))
	do(chromedp.Navigate(base+"/console/sites"), chromedp.WaitVisible(chromedp.CSS("#in-site")),
		chromedp.SendKeys(chromedp.CSS("#in-site"), "shop"), chromedp.SendKeys(chromedp.CSS("#in-slug"), "order"),
		chromedp.Click(chromedp.CSS(`form[action="/console/sites"] button`)), chromedp.WaitVisible(chromedp.CSS("#new-label")),
		chromedp.Navigate(base+"/console/forms/shop/order?view=json"), chromedp.WaitVisible(chromedp.CSS("#body")),
		chromedp.SetValue(chromedp.CSS("#body"), conditionalForm),
		chromedp.Click(chromedp.CSS(`#editor button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(`#notice p`)),
		chromedp.Navigate(base+"/console/forms/shop/order"), chromedp.WaitVisible(chromedp.CSS(`details[data-field="note"] summary`)))
	settled(`document.querySelector('[data-builder-fields]').classList.contains('builder-dnd')`)
	// The revision of the draft, which every save counts.
	revision := func() string { return eval(`document.querySelector('#workspace input[name="base"]').value`) }
	saved := revision()

	do(chromedp.Click(chromedp.CSS(`details[data-field="note"] summary`)),
		chromedp.WaitVisible(chromedp.CSS(`#f2-visibleIf button[value="add visibleIf"]`)),
		chromedp.Click(chromedp.CSS(`#f2-visibleIf button[value="add visibleIf"]`)))
	settled(`document.querySelector('#f2-visibleIf [data-condition-row]')`)
	if got := eval(`String(document.querySelector('details[data-field="note"]').open) + ' ' + document.activeElement.id`); got != "true f2-visibleIf-0-field" || revision() != saved {
		t.Errorf("after Add condition the panel is open, nothing saved, the focus on the new row's field: %s", got)
	}
	// The nearest field above, the checkbox, is offered first: its
	// comparisons are a checkbox's, and it takes no value.
	if got := eval(`[...document.querySelectorAll('#f2-visibleIf-0-op option')].map((o) => o.textContent).join()`); got != "is checked,is not checked" {
		t.Errorf("a checkbox's comparisons: %s", got)
	}
	do(chromedp.SetValue(chromedp.CSS("#f2-visibleIf-0-field"), "size"))
	eval(`document.querySelector('#f2-visibleIf-0-field').dispatchEvent(new Event('change', {bubbles: true})); 'ok'`)
	settled(`document.querySelector('#f2-visibleIf-0-value option[value="l"]')`)
	if got := eval(`[...document.querySelectorAll('#f2-visibleIf-0-op option')].map((o) => o.textContent).join()`); got != "is,is not,is empty,is not empty" {
		t.Errorf("a choice's comparisons: %s", got)
	}
	do(chromedp.SetValue(chromedp.CSS("#f2-visibleIf-0-op"), "is"),
		chromedp.SetValue(chromedp.CSS("#f2-visibleIf-0-value"), "l"))
	browsertest.CheckAxe(t, tab, axe, "a field's panel with a condition")
	do(chromedp.ScrollIntoView(chromedp.CSS("#f2-visibleIf")))
	browsertest.Screenshot(t, tab, "console-conditions")
	// Enter in the label saves the field, not a condition button.
	do(chromedp.Focus(chromedp.CSS("#f2-label")), chromedp.KeyEvent("\r"))
	settled(`document.querySelector('#workspace input[name="base"]').value !== '` + saved + `'`)

	if got := eval(`document.querySelector('details[data-field="note"] [data-condition-badge="visibleIf"]').title`); got != "Shown when Size is Large" {
		t.Errorf("the badge says %q", got)
	}
	do(chromedp.ScrollIntoView(chromedp.CSS("#fields-heading")))
	more("console-conditions-badge")
	noteHidden := func() string {
		return eval(`String(document.querySelector('#preview [data-hubform-slot="note"]').hidden)`)
	}
	if got := noteHidden(); got != "true" {
		t.Errorf("the note is shown before a size is chosen: hidden %s", got)
	}
	do(chromedp.SetValue(chromedp.CSS("#hubform-shop-order-size"), "l"))
	eval(`document.querySelector('#hubform-shop-order-size').dispatchEvent(new Event('change', {bubbles: true})); 'ok'`)
	settled(`!document.querySelector('#preview [data-hubform-slot="note"]').hidden`)
	do(chromedp.SetValue(chromedp.CSS("#hubform-shop-order-size"), "s"))
	eval(`document.querySelector('#hubform-shop-order-size').dispatchEvent(new Event('change', {bubbles: true})); 'ok'`)
	settled(`document.querySelector('#preview [data-hubform-slot="note"]').hidden`)

	// The panel with its row, in both schemes and on a phone.
	for _, scheme := range []string{"dark", "light"} {
		browsertest.ColorScheme(t, tab, scheme)
		do(chromedp.Navigate(base+"/console/forms/shop/order"), chromedp.WaitVisible(chromedp.CSS(`details[data-field="note"] summary`)),
			chromedp.Click(chromedp.CSS(`details[data-field="note"] summary`)), chromedp.WaitVisible(chromedp.CSS("#f2-visibleIf-0-value")))
		browsertest.CheckAxe(t, tab, axe, "the panel in the "+scheme+" scheme")
		if scheme == "dark" {
			do(chromedp.ScrollIntoView(chromedp.CSS("#f2-visibleIf")))
			more("console-conditions-dark")
		}
	}
	// A condition written by hand, read-only.
	do(chromedp.Click(chromedp.CSS(`details[data-field="wrap"] summary`)), chromedp.WaitVisible(chromedp.CSS("#f3-visibleIf pre")))
	browsertest.CheckAxe(t, tab, axe, "a hand-written condition")
	do(chromedp.ScrollIntoView(chromedp.CSS("#f3-visibleIf")))
	more("console-conditions-json")
	browsertest.ColorScheme(t, tab, "")
	do(chromedp.EmulateViewport(375, 800), chromedp.Navigate(base+"/console/forms/shop/order"),
		chromedp.WaitVisible(chromedp.CSS(`details[data-field="note"] summary`)),
		chromedp.Click(chromedp.CSS(`details[data-field="note"] summary`)), chromedp.WaitVisible(chromedp.CSS("#f2-visibleIf-0-value")))
	if got := eval(`String(document.documentElement.scrollWidth - document.documentElement.clientWidth)`); got != "0" {
		t.Errorf("the panel at 375 pixels scrolls sideways by %s pixels", got)
	}
	do(chromedp.ScrollIntoView(chromedp.CSS("#f2-visibleIf")))
	more("console-conditions-phone")
}

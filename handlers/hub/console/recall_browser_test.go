package console_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// recallForm asks a name on its first page and an e-mail on its second.
const recallForm = `{
  "title": "Greet",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name"},
    {"name": "ref", "type": "hidden"},
    {"name": "email", "type": "email", "label": "E-mail"},
    {"name": "phone", "type": "tel", "label": "Phone"}
  ],
  "steps": [{"id": "you", "fields": ["name"]}, {"id": "reach", "fields": ["email", "phone"]}]
}`

// TestBrowserRecallPicker types "@" in the e-mail's label: the answers of
// the page before and the hidden field are offered, by label, and the one
// chosen with the keyboard goes in as {{name}}; the field saved, the
// preview's label recalls the name. The open list passes axe-core.
func TestBrowserRecallPicker(t *testing.T) {
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
	do(chromedp.EmulateViewport(1280, 900))
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/sites"]`)))
	do(chromedp.Navigate(base+"/console/sites"), chromedp.WaitVisible(chromedp.CSS("#in-site")),
		chromedp.SendKeys(chromedp.CSS("#in-site"), "shop"), chromedp.SendKeys(chromedp.CSS("#in-slug"), "greet"),
		chromedp.Click(chromedp.CSS(`form[action="/console/sites"] button`)), chromedp.WaitVisible(chromedp.CSS("#new-label")),
		chromedp.Navigate(base+"/console/forms/shop/greet?view=json"), chromedp.WaitVisible(chromedp.CSS("#body")),
		chromedp.SetValue(chromedp.CSS("#body"), recallForm),
		chromedp.Click(chromedp.CSS(`#editor button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(`#notice p`)),
		chromedp.Navigate(base+"/console/forms/shop/greet"), chromedp.WaitVisible(chromedp.CSS(`details[data-field="email"] summary`)))
	browsertest.WaitFor(t, tab, 10*time.Second, `document.querySelector('[data-builder-fields]').classList.contains('builder-dnd') && `+browsertest.HTMXIdle)

	do(chromedp.Click(chromedp.CSS(`details[data-field="email"] summary`)), chromedp.WaitVisible(chromedp.CSS(`#f2-label`)))
	eval(`document.querySelector('#f2-label').value = ''`)
	do(chromedp.SendKeys(chromedp.CSS(`#f2-label`), "Thanks, @"), chromedp.WaitVisible(chromedp.CSS(`#f2-label-recall`)))
	if got := eval(`[...document.querySelectorAll('#f2-label-recall [role=option]')].map((o) => o.textContent).join('|')`); got != "Your name (name)|ref" {
		t.Errorf("offered %q, want the name of the page before and the hidden field", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the recall picker")
	browsertest.Screenshot(t, tab, "recall-picker")
	saved := eval(`document.querySelector('#workspace input[name="base"]').value`)
	do(chromedp.KeyEvent("\r"))
	if got := eval(`document.querySelector('#f2-label').value + '|' + !!document.querySelector('#f2-label-recall')`); got != "Thanks, {{name}}|false" {
		t.Errorf("after Enter: %q, want the token in the label and the list closed", got)
	}
	if got := eval(`String(!!document.querySelector('.htmx-request')) + document.querySelector('#workspace input[name="base"]').value`); got != "false"+saved {
		t.Errorf("the Enter that chose saved the field (in flight, revision): %s, was %s", got, saved)
	}
	// Saved, the preview shows the label as written, to edit in place.
	do(chromedp.SendKeys(chromedp.CSS(`#f2-label`), " and your e-mail?"))
	if got := eval(`document.querySelector('#f2-label').value`); got != "Thanks, {{name}} and your e-mail?" {
		t.Errorf("typed on: %q", got)
	}
	do(chromedp.KeyEvent("\r"))
	browsertest.WaitFor(t, tab, 10*time.Second, `(document.querySelector('#preview [data-hubform-slot="email"] label') || {textContent: ''}).textContent.includes('Thanks, {{name}} and your e-mail?') && `+browsertest.HTMXIdle)
}

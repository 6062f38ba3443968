package console_test

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// arrangedForm is a one-step form whose fields the builder test moves
// about, so that the preview shows them all in their order.
const arrangedForm = `{
  "title": "Order",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name"},
    {"name": "email", "type": "email", "label": "Your e-mail"},
    {"name": "topic", "type": "text", "label": "Topic"},
    {"name": "agree", "type": "checkbox", "label": "I agree"}
  ],
  "steps": [{"id": "all", "fields": ["name", "email", "topic", "agree"]}],
  "hub": {"maxFileSize": 5242880, "notify": {"email": ["owner@example.com"]}}
}`

// TestBrowserBuilder works the Build tab as people do: a click on a field
// in the preview opens its editor, a field dragged to another place moves
// there in the list and the preview, the arrows move a field and keep the
// focus on it; the Build and Settings tabs pass axe-core in both colour
// schemes and do not scroll sideways 375 pixels wide.
func TestBrowserBuilder(t *testing.T) {
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
	listOrder := func() string {
		t.Helper()
		return eval(`[...document.querySelectorAll('[data-builder-fields] > li')].map((li) => li.dataset.field).join()`)
	}
	previewOrder := func() string {
		t.Helper()
		return eval(`[...document.querySelectorAll('#preview [data-hubform] .hubform-field [name]')].map((e) => e.name).join()`)
	}
	focused := func() string {
		t.Helper()
		return eval(`(() => { const a = document.activeElement; const li = a.closest('[data-builder-fields] > li'); return (li ? li.dataset.field : '') + ' ' + (a.value || a.tagName.toLowerCase()); })()`)
	}

	do(chromedp.EmulateViewport(1280, 900))
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/sites"]`)))
	do(chromedp.Navigate(base+"/console/sites"), chromedp.WaitVisible(chromedp.CSS("#in-site")),
		chromedp.SendKeys(chromedp.CSS("#in-site"), "shop"), chromedp.SendKeys(chromedp.CSS("#in-slug"), "order"),
		chromedp.Click(chromedp.CSS(`form[action="/console/sites"] button`)), chromedp.WaitVisible(chromedp.CSS("#new-label")),
		chromedp.Navigate(base+"/console/forms/shop/order?view=json"), chromedp.WaitVisible(chromedp.CSS("#body")),
		chromedp.SetValue(chromedp.CSS("#body"), arrangedForm),
		chromedp.Click(chromedp.CSS(`#editor button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(`#notice p`)),
		chromedp.Navigate(base+"/console/forms/shop/order"), chromedp.WaitVisible(chromedp.CSS(`details[data-field="topic"] summary`)))
	settled(`document.querySelector('[data-builder-fields]').classList.contains('builder-dnd')`)
	if got, want := listOrder(), "name,email,topic,agree"; got != want || previewOrder() != want {
		t.Fatalf("list %s, preview %s, want %s", got, previewOrder(), want)
	}

	// A click on a field in the preview opens its editor, and chooses the
	// field in the preview, where the focus stays.
	do(chromedp.Click(chromedp.CSS(`#preview input[name="topic"]`)))
	settled(`document.querySelector('details[data-field="topic"]').open`)
	if got := eval(`document.activeElement.dataset.builderName ?? document.activeElement.tagName`); got != "topic" {
		t.Errorf("after a click on topic in the preview the focus is on %q", got)
	}
	if eval(`String(document.querySelector('details[data-field="email"]').open)`) != "false" {
		t.Error("a click on topic opened email's editor too")
	}

	// Dragged by its summary onto the top half of name, topic goes first.
	eval(`(() => {
	  const src = document.querySelector('li[data-field="topic"] > details > summary');
	  const dst = document.querySelector('li[data-field="name"]');
	  const dt = new DataTransfer();
	  src.dispatchEvent(new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt}));
	  const box = dst.getBoundingClientRect();
	  const at = {bubbles: true, cancelable: true, dataTransfer: dt, clientX: box.left + 10, clientY: box.top + 2};
	  dst.dispatchEvent(new DragEvent('dragenter', at));
	  dst.dispatchEvent(new DragEvent('dragover', at));
	  dst.dispatchEvent(new DragEvent('drop', at));
	  src.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: dt}));
	  return 'ok';
	})()`)
	settled(`document.querySelector('#workspace input[name="base"][value="3"]') && document.querySelector('#notice').textContent.includes('Moved topic to position 1 of 4')`)
	if got, want := listOrder(), "topic,name,email,agree"; got != want || previewOrder() != want {
		t.Errorf("after dragging topic onto name: list %s, preview %s, want %s", got, previewOrder(), want)
	}
	// Dropped on the bottom half of email, topic goes after it.
	eval(`(() => {
	  const src = document.querySelector('li[data-field="topic"] > details > summary');
	  const dst = document.querySelector('li[data-field="email"]');
	  const dt = new DataTransfer();
	  src.dispatchEvent(new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt}));
	  const box = dst.getBoundingClientRect();
	  const at = {bubbles: true, cancelable: true, dataTransfer: dt, clientX: box.left + 10, clientY: box.bottom - 2};
	  dst.dispatchEvent(new DragEvent('dragover', at));
	  dst.dispatchEvent(new DragEvent('drop', at));
	  src.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: dt}));
	  return 'ok';
	})()`)
	settled(`document.querySelector('#workspace input[name="base"][value="4"]')`)
	if got, want := listOrder(), "name,email,topic,agree"; got != want || previewOrder() != want {
		t.Errorf("after dragging topic below email: list %s, preview %s, want %s", got, previewOrder(), want)
	}

	// The arrows, by keyboard: the focus stays with the moved field.
	do(chromedp.Focus(chromedp.CSS(`li[data-field="email"] form.builder-move button[value="down"]`)), chromedp.KeyEvent("\r"))
	settled(`document.querySelector('#workspace input[name="base"][value="5"]')`)
	if got, want := listOrder(), "name,topic,email,agree"; got != want || previewOrder() != want {
		t.Errorf("after moving email down: list %s, preview %s, want %s", got, previewOrder(), want)
	}
	if got := focused(); got != "email down" {
		t.Errorf("after moving email down the focus is on %q", got)
	}
	do(chromedp.KeyEvent("\r"))
	settled(`document.querySelector('#workspace input[name="base"][value="6"]')`)
	if got := listOrder(); got != "name,topic,agree,email" {
		t.Errorf("after moving email down twice: %s", got)
	}
	// Last, email has no down arrow: the focus goes to its up arrow.
	if got := focused(); got != "email up" {
		t.Errorf("after moving email to the end the focus is on %q", got)
	}
	if got := eval(`getComputedStyle(document.querySelector('#f0-required').closest('label')).display + ' ' + (document.querySelector('#f0-required').getBoundingClientRect().top < document.querySelector('#f0-required').closest('label').getBoundingClientRect().bottom - 4)`); got != "flex true" {
		t.Errorf("a checkbox's label is not beside it: %s", got)
	}

	pages := []string{"/console/forms/shop/order", "/console/forms/shop/order?view=translations", "/console/forms/shop/order?view=json", "/console/forms/shop/order/settings"}
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, tab, scheme)
		for _, page := range pages {
			do(chromedp.Navigate(base+page), chromedp.WaitVisible(chromedp.CSS("#workspace")))
			browsertest.CheckAxe(t, tab, axe, page+" in the "+scheme+" scheme")
		}
	}
	browsertest.ColorScheme(t, tab, "")

	// The Settings tab: a size in MB, saved as bytes, shown in MB again;
	// a bad one shows its error beside the input.
	do(chromedp.Navigate(base+"/console/forms/shop/order/settings"), chromedp.WaitVisible(chromedp.CSS("#set-maxsize")))
	if got := eval(`document.querySelector('#set-maxsize').value`); got != "5 MB" {
		t.Errorf("largest file shown as %q", got)
	}
	eval(`document.querySelector('#set-maxsize').value = '2 MB'; 'ok'`)
	do(chromedp.Click(chromedp.CSS(`.builder-save button`)))
	settled(`document.querySelector('#notice').textContent.includes('Saved to the draft')`)
	if got := eval(`document.querySelector('#set-maxsize').value + ' ' + location.pathname`); got != "2 MB /console/forms/shop/order/settings" {
		t.Errorf("after saving 2 MB: %s", got)
	}
	eval(`document.querySelector('#set-maxsize').value = 'lots'; 'ok'`)
	do(chromedp.Click(chromedp.CSS(`.builder-save button`)))
	settled(`document.querySelector('#set-maxsize-error')`)
	browsertest.CheckAxe(t, tab, axe, "the Settings tab with an error")

	do(chromedp.Navigate(base+"/console/forms/shop/order/settings"), chromedp.WaitVisible(chromedp.CSS("#set-maxsize")))
	browsertest.Screenshot(t, tab, "console-settings")
	if dir := os.Getenv("HUBFORM_DARK_SCREENSHOTS"); dir != "" {
		browsertest.ColorScheme(t, tab, "dark")
		t.Setenv("HUBFORM_SCREENSHOTS", dir)
		browsertest.Screenshot(t, tab, "console-settings-dark")
		do(chromedp.Navigate(base+"/console/forms/shop/order"), chromedp.WaitVisible(chromedp.CSS("#workspace")))
		browsertest.Screenshot(t, tab, "console-builder-dark")
		browsertest.ColorScheme(t, tab, "")
	}

	// 375 pixels wide, no page scrolls sideways.
	do(chromedp.EmulateViewport(375, 800))
	for _, page := range pages {
		do(chromedp.Navigate(base+page), chromedp.WaitVisible(chromedp.CSS("#workspace")))
		if got := eval(`String(document.documentElement.scrollWidth - document.documentElement.clientWidth)`); got != "0" {
			t.Errorf("%s at 375 pixels scrolls sideways by %s pixels", page, got)
		}
	}
}

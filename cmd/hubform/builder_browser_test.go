package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

// builtForm is the two-step form with a German translation that the
// console test writes from nothing.
const builtForm = `{
  "title": "Order",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "email", "type": "email", "label": "Your e-mail", "required": true}
  ],
  "steps": [
    {"id": "who", "title": "Who", "fields": ["name"]},
    {"id": "how", "title": "How", "fields": ["email"]}
  ],
  "i18n": {"translations": {"de": {"fields": {"name": {"label": "Ihr Name"}, "email": {"label": "Ihre E-Mail"}}}}}
}`

// TestBrowserConsoleForms creates a form in the console from nothing,
// publishes it, sees the hub serve it and the demo render it and take a
// submission, edits and publishes it again with no restart, and rolls it
// back; axe-core checks each console page. With HUBFORM_SCREENSHOTS=DIR it
// saves the screenshots of the console's guide there.
func TestBrowserConsoleForms(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	data := t.TempDir()
	addUser(t, "jane@example.com", "correct horse battery", "--data", data)
	h := startHub(t, formsDir(t), data)
	demo := startDemo(t, "--hub-url", h.url)
	con := newConsoleTab(t, browser, h)
	tab, base, do := con.tab, con.base, con.do
	eval := func(js string) string {
		t.Helper()
		return browsertest.Eval[string](t, tab, 10*time.Second, js)
	}
	// waitText waits until the element of sel holds want and htmx is done
	// with it, so that what was swapped in answers events.
	waitText := func(sel, want string) {
		t.Helper()
		browsertest.WaitFor(t, tab, 10*time.Second, `(document.querySelector(`+jsString(sel)+`)?.textContent ?? '').includes(`+jsString(want)+`) && `+browsertest.HTMXIdle)
	}
	// edit puts text into the editor as if typed, which htmx's trigger sees.
	edit := func(text string) {
		t.Helper()
		eval(`const b = document.querySelector('#body'); b.value = ` + jsString(text) + `; b.dispatchEvent(new KeyboardEvent('keyup', {bubbles: true})); 'ok'`)
	}
	shot := func(name string) {
		t.Helper()
		browsertest.Screenshot(t, tab, name)
	}
	// demoShows reloads the demo's page of the form until its first label
	// is want: the demo keeps a schema it fetched for a second.
	demoShows := func(want string) {
		t.Helper()
		var got string
		for range 50 {
			do(chromedp.Navigate(demo+"/f/shop/order"), chromedp.WaitVisible(chromedp.CSS("#hubform-shop-order-name")))
			if got = eval(`document.querySelector('label[for="hubform-shop-order-name"]').firstChild.textContent`); got == want {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("the demo shows the label %q, want %q", got, want)
	}
	schemaTitle := func() string {
		t.Helper()
		res, err := http.Get(h.url + "/shop/order.json")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var s struct {
			Fields []struct{ Label string } `json:"fields"`
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &s) != nil || len(s.Fields) == 0 {
			t.Fatalf("schema route: %d %s", res.StatusCode, body)
		}
		return s.Fields[0].Label
	}

	do(chromedp.EmulateViewport(1200, 900))
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/sites"]`)))
	do(chromedp.Click(chromedp.CSS(`a[href="/console/sites"]`)), chromedp.WaitVisible(chromedp.CSS("#in-site")))
	browsertest.CheckAxe(t, tab, axe, "the sites page")

	// Create the form: an unpublished version with its title alone.
	do(chromedp.SendKeys(chromedp.CSS("#in-site"), "shop"), chromedp.SendKeys(chromedp.CSS("#in-slug"), "order"),
		chromedp.SendKeys(chromedp.CSS("#in-title"), "Order"),
		chromedp.Click(chromedp.CSS(`form[action="/console/sites"] button`)), chromedp.WaitVisible(chromedp.CSS("#new-label")))
	if got := eval(`location.pathname`); got != "/console/forms/shop/order" {
		t.Fatalf("after creating, the browser is at %s", got)
	}
	browsertest.CheckAxe(t, tab, axe, "a new form's page")
	do(chromedp.Click(chromedp.CSS(`.builder-views a[href$="view=json"]`)), chromedp.WaitVisible(chromedp.CSS("#body")))

	// The preview follows the editor, in the base language and in German.
	edit(builtForm)
	waitText("#preview", "Your name")
	do(chromedp.WaitVisible(chromedp.CSS("#locale")), chromedp.SetValue(chromedp.CSS("#locale"), "de"))
	eval(`document.querySelector('#locale').dispatchEvent(new Event('change', {bubbles: true})); 'ok'`)
	waitText("#preview", "Ihr Name")
	browsertest.CheckAxe(t, tab, axe, "the form page with its preview")

	do(chromedp.Click(chromedp.CSS(`#editor button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(`#notice p`)))
	waitText("#notice", "Saved to the draft")
	shot("console-form")
	do(chromedp.Click(chromedp.CSS(`#publish summary`)), chromedp.WaitVisible(chromedp.CSS(`#publish form button`)),
		chromedp.Click(chromedp.CSS(`#publish form button`)), chromedp.WaitVisible(chromedp.CSS(`#view-live`)))
	waitText("#published", "version 1 is live")
	browsertest.CheckAxe(t, tab, axe, "the form page after publishing")
	if got := schemaTitle(); got != "Your name" {
		t.Errorf("schema route after publishing: first label %q", got)
	}

	// The demo renders the published form and takes a submission.
	do(chromedp.Navigate(demo+"/f/shop/order?locale=de"), chromedp.WaitVisible(chromedp.CSS("#hubform-shop-order-name")))
	waitText("form", "Ihr Name")
	do(chromedp.SendKeys(chromedp.CSS("#hubform-shop-order-name"), "Jane"),
		chromedp.Click(chromedp.CSS(`[data-hubform-next]`)), chromedp.WaitVisible(chromedp.CSS("#hubform-shop-order-email")),
		chromedp.SendKeys(chromedp.CSS("#hubform-shop-order-email"), "jane@example.com"),
		chromedp.Click(chromedp.CSS(`form button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("[data-vendor-hubform-submitted]")))
	if status, out, _ := hubform(t, "submissions", "export", "--data", data, "--format", "json"); status != 0 || !strings.Contains(out, "jane@example.com") {
		t.Errorf("submissions after the demo's: %d %s", status, out)
	}

	// Edit, publish again: served with no restart.
	do(chromedp.Navigate(base+"/console/forms/shop/order?view=json"), chromedp.WaitVisible(chromedp.CSS("#body")))
	edit(strings.Replace(builtForm, "Your name", "Full name", 1))
	waitText("#preview", "Full name")
	do(chromedp.Click(chromedp.CSS(`#editor button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(`#notice p`)))
	waitText("#publish-changes", "Changed “Full name”")
	do(chromedp.Click(chromedp.CSS(`#publish summary`)), chromedp.WaitVisible(chromedp.CSS(`#publish form button`)))
	shot("console-publish")
	do(chromedp.Click(chromedp.CSS(`#publish form button`)), chromedp.WaitVisible(chromedp.CSS(`#view-live`)))
	waitText("#published", "version 2 is live")
	if got := schemaTitle(); got != "Full name" {
		t.Errorf("schema route after publishing again: first label %q", got)
	}
	demoShows("Full name")

	// Roll back, from the history.
	do(chromedp.Navigate(base+"/console/forms/shop/order"), chromedp.WaitVisible(chromedp.CSS("#publish")),
		chromedp.Click(chromedp.CSS(`#publish a[href$="/history"]`)), chromedp.WaitVisible(chromedp.CSS("#versions")))
	shot("console-versions")
	do(chromedp.Click(chromedp.CSS(`tr[data-version="1"] button`)), chromedp.WaitVisible(chromedp.CSS(`tr[data-version="1"][data-state="live"]`)))
	waitText("#published", "version 1 is live")
	if got := schemaTitle(); got != "Your name" {
		t.Errorf("schema route after rolling back: first label %q", got)
	}
	demoShows("Your name")

	// The structured builder: a field added, then translated, each saved
	// into one new draft that htmx swaps into the page.
	do(chromedp.Navigate(base+"/console/forms/shop/order"), chromedp.Click(chromedp.CSS(".builder-add > summary")),
		chromedp.WaitVisible(chromedp.CSS("#new-label")),
		chromedp.SetValue(chromedp.CSS("#new-type"), "tel"),
		chromedp.SendKeys(chromedp.CSS("#new-label"), "Phone"),
		chromedp.SetValue(chromedp.CSS("#new-step"), "how"),
		chromedp.Click(chromedp.CSS(`form[action="/console/forms/shop/order/fields"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-field="phone"]`)))
	waitText("#notice", "Saved to the draft")
	browsertest.CheckAxe(t, tab, axe, "the form page with the builder")
	do(chromedp.Click(chromedp.CSS(`.builder-views a[href$="view=translations"]`)), chromedp.WaitVisible(chromedp.CSS(`table[data-locale="de"]`)))
	browsertest.CheckAxe(t, tab, axe, "the form's translations")
	do(chromedp.SendKeys(chromedp.CSS(`table[data-locale="de"] input[name='fields["phone"].label']`), "Telefon"),
		chromedp.Click(chromedp.CSS(`form[action="/console/forms/shop/order/translations/de"] button[type="submit"]`)))
	waitText("#publish-changes", "Translation changed: de")
	do(chromedp.Navigate(base+"/console/forms/shop/order"), chromedp.WaitVisible(chromedp.CSS("#field-0 summary")),
		chromedp.Click(chromedp.CSS(`#preview label[for="hubform-shop-order-name"]`)))
	browsertest.WaitFor(t, tab, 10*time.Second, `document.querySelector('#field-0').open`)
	eval(`window.scrollTo(0, 0); 'ok'`)
	shot("console-builder")
	if got := eval(`location.pathname`); got != "/console/forms/shop/order" {
		t.Errorf("htmx left the page for %s", got)
	}
	if got := eval(`JSON.stringify(JSON.parse(document.querySelector('#body').value).i18n.translations.de.fields.phone)`); got != `{"label":"Telefon"}` {
		t.Errorf("German phone after the builder: %s", got)
	}
	if got := eval(`JSON.parse(document.querySelector('#body').value).steps[1].fields.join()`); got != "email,phone" {
		t.Errorf("step how after the builder: %s", got)
	}
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

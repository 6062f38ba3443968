package handlers_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/static/browsertest"
)

// shippingForm asks for a matrix and an address; a note shows for
// addresses in France, a condition on a part of the address.
const shippingForm = `{
  "title": "Ship a parcel",
  "fields": [
    {"name": "rate", "type": "matrix", "label": "How did we do?", "required": true,
     "rows": [{"value": "speed", "label": "Speed"}, {"value": "care", "label": "Care"}],
     "columns": [{"value": "bad", "label": "Bad"}, {"value": "ok", "label": "OK"}, {"value": "good", "label": "Good"}]},
    {"name": "ship", "type": "address", "label": "Ship to", "required": true, "countries": ["FR", "DE", "BE"]},
    {"name": "floor", "type": "text", "label": "Which floor?", "visibleIf": {"==": [{"var": "ship.country"}, "FR"]}}
  ],
  "steps": [{"id": "main", "fields": ["rate", "ship", "floor"]}]
}`

// TestCompositeInTheBrowser fills a matrix and an address in headless
// Chromium, with JavaScript and without: what is left out comes back with
// its error and what was typed, a condition on the address's country
// shows a field, and the hub stores both as objects. The page is checked
// by axe at 1280 and 375 px, light and dark, and does not scroll sideways
// on a phone.
func TestCompositeInTheBrowser(t *testing.T) {
	axe := browsertest.Axe(t)
	h := hubtest.Start(t, map[string]string{"acme/ship": shippingForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	e := echo.New()
	forms.Mount(e)
	e.GET("/ship", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "ship")
		return handlers.Page(handlers.PageProps{Title: "Ship", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	app := httptest.NewServer(e)
	defer app.Close()

	open := func(t *testing.T, width int64, scripts bool) context.Context {
		t.Helper()
		tab := browsertest.New(t, browsertest.WindowSize(int(width), 900))
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		if width < 600 {
			if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: width, Height: 900, DeviceScaleFactor: 1, Mobile: true}); err != nil {
				t.Fatal(err)
			}
		}
		if !scripts {
			if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
				t.Fatal(err)
			}
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/ship"), chromedp.WaitReady(chromedp.CSS(`form[data-hubform-form]`))); err != nil {
			t.Fatal(err)
		}
		if scripts {
			browsertest.WaitFor(t, tab, 10*time.Second, `window.hubformScript && typeof htmx !== 'undefined'`)
		}
		return tab
	}
	do := func(t *testing.T, tab context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		ctx, cancel := context.WithTimeout(tab, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(t *testing.T, tab context.Context, js string) string {
		t.Helper()
		return browsertest.Eval[string](t, tab, 5*time.Second, js)
	}
	// run runs a statement of JavaScript in the tab: without JavaScript
	// the page's scripts do not run, the test's do.
	run := func(t *testing.T, tab context.Context, js string) {
		t.Helper()
		browsertest.Eval[bool](t, tab, 5*time.Second, js+";true")
	}
	const noValidate = `document.querySelector('form[data-hubform-form]').noValidate = true`
	const id = "hubform-acme-ship-"
	floorShown := `(() => { const f = document.getElementById('` + id + `floor'); return !!f && !f.closest('[hidden]'); })()`
	lastPayload := func(t *testing.T) map[string]any {
		t.Helper()
		subs := h.Submissions()
		if len(subs) == 0 {
			t.Fatal("nothing stored")
		}
		var m map[string]any
		if err := json.Unmarshal(subs[len(subs)-1].Payload, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	wantPayload := func(t *testing.T, floor bool) {
		t.Helper()
		m := lastPayload(t)
		if want := map[string]any{"speed": "good", "care": "ok"}; !reflect.DeepEqual(m["rate"], want) {
			t.Errorf("rate stored as %#v, want %#v", m["rate"], want)
		}
		if want := map[string]any{"line1": "1 rue de la Paix", "city": "Paris", "postalCode": "75002", "country": "FR"}; !reflect.DeepEqual(m["ship"], want) {
			t.Errorf("ship stored as %#v, want %#v", m["ship"], want)
		}
		if _, ok := m["floor"]; ok != floor {
			t.Errorf("floor stored: %v, want %v", ok, floor)
		}
	}

	for _, scripts := range []bool{false, true} {
		name := map[bool]string{false: "without JavaScript", true: "with JavaScript"}[scripts]
		t.Run(name, func(t *testing.T) {
			tab := open(t, 1280, scripts)
			if browsertest.Eval[bool](t, tab, 5*time.Second, floorShown) {
				t.Error("the floor shows before a country is chosen")
			}
			// One row answered, the first line typed, the city left out.
			do(t, tab, "answering one row and part of the address",
				chromedp.Click(chromedp.ID(id+"rate-1-3")),
				chromedp.SendKeys(chromedp.ID(id+"ship"), "1 rue de la Paix"),
				chromedp.SendKeys(chromedp.ID(id+"ship-postalCode"), "75002"),
				chromedp.SetValue(chromedp.ID(id+"ship-country"), "FR"),
			)
			if scripts {
				// The change of the country asks the logic route.
				run(t, tab, `document.getElementById('`+id+`ship-country').dispatchEvent(new Event('change', {bubbles: true}))`)
				browsertest.WaitFor(t, tab, 10*time.Second, floorShown)
				// The browser would stop a post with required parts empty;
				// the server's check is the one under test.
				run(t, tab, noValidate)
			} else {
				run(t, tab, noValidate)
			}
			do(t, tab, "sending", chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)),
				chromedp.WaitVisible(chromedp.CSS(`.hubform-field--matrix .hubform-field-error`)))
			if got := text(t, tab, `document.querySelector('.hubform-field--matrix .hubform-field-error').textContent`); got != "Answer every row." {
				t.Errorf("the matrix's error reads %q", got)
			}
			if got := text(t, tab, `document.querySelector('.hubform-field--address .hubform-field-error').textContent`); got != "Enter the street address, the city and the country." {
				t.Errorf("the address's error reads %q", got)
			}
			kept := text(t, tab, `[document.getElementById('`+id+`rate-1-3').checked, document.getElementById('`+id+`ship').value,
			  document.getElementById('`+id+`ship-postalCode').value, document.getElementById('`+id+`ship-country').value,
			  document.getElementById('`+id+`ship-city').getAttribute('aria-invalid')].join('|')`)
			if kept != "true|1 rue de la Paix|75002|FR|true" {
				t.Errorf("after the error the form shows %q, want what was typed and the city marked", kept)
			}
			if !browsertest.Eval[bool](t, tab, 5*time.Second, floorShown) {
				t.Error("the floor does not show for an address in France")
			}
			if scripts {
				// axe is a script: without them the pages are checked below.
				browsertest.CheckAxe(t, tab, axe, name+", with errors")
			}
			if scripts {
				run(t, tab, noValidate)
			}
			do(t, tab, "answering the rest",
				chromedp.Click(chromedp.ID(id+"rate-2-2")),
				chromedp.SendKeys(chromedp.ID(id+"ship-city"), "Paris"),
				chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)),
			)
			// The floor shows for France, and is sent, empty.
			wantPayload(t, true)
		})
	}

	for _, width := range []int64{1280, 375} {
		for _, scheme := range []string{"light", "dark"} {
			t.Run("axe at "+map[int64]string{1280: "1280", 375: "375"}[width]+" px, "+scheme, func(t *testing.T) {
				tab := open(t, width, true)
				browsertest.ColorScheme(t, tab, scheme)
				if wide := browsertest.Eval[int](t, tab, 5*time.Second, `document.documentElement.scrollWidth`); wide > int(width) {
					t.Errorf("the page is %d px wide on a screen of %d", wide, width)
				}
				browsertest.CheckAxe(t, tab, axe, "the matrix and the address")
				browsertest.Screenshot(t, tab, "composite-"+map[int64]string{1280: "1280", 375: "375"}[width]+"-"+scheme)
			})
		}
	}
}

package handlers_test

import (
	"context"
	"net/http/httptest"
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

// cakeForm has two steps, a condition (the address shows for a delivery)
// and a file.
const cakeForm = `{
  "title": "Order a cake",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "delivery", "type": "radio", "label": "How do you get it?",
     "options": [{"value": "pickup", "label": "I pick it up"}, {"value": "deliver", "label": "Deliver it to me"}]},
    {"name": "address", "type": "text", "label": "Address", "required": true,
     "visibleIf": {"==": [{"var": "delivery"}, "deliver"]}},
    {"name": "photo", "type": "file", "label": "A photo of the cake you want", "help": "A picture helps us bake it."},
    {"name": "notes", "type": "textarea", "label": "Anything else?"}
  ],
  "steps": [
    {"id": "you", "title": "About you", "fields": ["name", "delivery", "address"]},
    {"id": "cake", "title": "Your cake", "fields": ["photo", "notes"]}
  ],
  "hub": {"maxFileSize": 1048576}
}`

// TestFormPageInTheBrowser fills a form of two steps with a condition and
// a file in headless Chromium, on a desktop's and a phone's screen: the
// condition leaves no progress bar behind, Back and Send share a row, the
// steps' progress shows, and the file's drop zone names the chosen file
// and its size, chosen or dropped, and still uploads it.
func TestFormPageInTheBrowser(t *testing.T) {
	browser := browsertest.New(t)
	_ = browsertest.Axe(t)
	h := hubtest.Start(t, map[string]string{"acme/cake": cakeForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	e := echo.New()
	forms.Mount(e)
	e.GET("/cake", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "cake")
		return handlers.Page(handlers.PageProps{Title: "Cake", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	app := httptest.NewServer(e)
	defer app.Close()
	_, _ = randomFile(t, t.TempDir(), "cake.jpg", 150*1024)

	open := func(t *testing.T, width int64) context.Context {
		t.Helper()
		tab := browsertest.NewTab(t, browser)
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: width, Height: 900, DeviceScaleFactor: 1, Mobile: width < 600}); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/cake"), chromedp.WaitReady(chromedp.CSS(`form[data-hubform-form]`))); err != nil {
			t.Fatal(err)
		}
		browsertest.WaitFor(t, tab, 10*time.Second, `window.hubformScript && typeof htmx !== 'undefined'`)
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
	// shownBars counts the progress bars one sees outside the files' own.
	const shownBars = `Array.from(document.querySelectorAll('progress')).filter((p) => !p.closest('.hubform-upload') && p.getClientRects().length > 0).length`

	t.Run("a condition leaves no progress bar", func(t *testing.T) {
		tab := open(t, 1280)
		do(t, tab, "choosing a delivery", chromedp.Click(chromedp.ID("hubform-acme-cake-delivery-2")))
		browsertest.WaitFor(t, tab, 10*time.Second, `!document.getElementById('hubform-acme-cake-address').closest('[hidden]')`)
		browsertest.WaitFor(t, tab, 5*time.Second, browsertest.HTMXIdle)
		if n := browsertest.Eval[int](t, tab, 5*time.Second, shownBars); n != 0 {
			t.Errorf("%d progress bars show once the condition showed the address", n)
		}
		do(t, tab, "choosing to pick it up", chromedp.Click(chromedp.ID("hubform-acme-cake-delivery")))
		browsertest.WaitFor(t, tab, 10*time.Second, `!!document.getElementById('hubform-acme-cake-address').closest('[hidden]')`)
		browsertest.WaitFor(t, tab, 5*time.Second, browsertest.HTMXIdle)
		if n := browsertest.Eval[int](t, tab, 5*time.Second, shownBars); n != 0 {
			t.Errorf("%d progress bars show once the condition hid the address", n)
		}
	})
}

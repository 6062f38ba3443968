package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
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
	if _, err := os.Stat(browsertest.ExecPath); err != nil && !browsertest.Required() {
		t.Skipf("%s not found", browsertest.ExecPath)
	}
	axe := browsertest.Axe(t)
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
	photo, photoData := randomFile(t, t.TempDir(), "cake.jpg", 150*1000)

	// Each test has a browser of its own: a tab opened as another closes
	// may be taken for it. Its tab has the width asked for: headless
	// Chromium's window is never narrower than 500 px.
	open := func(t *testing.T, width int64) context.Context {
		t.Helper()
		tab := browsertest.New(t, browsertest.WindowSize(int(width), 800))
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		if width < 600 {
			if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: width, Height: 800, DeviceScaleFactor: 1, Mobile: true}); err != nil {
				t.Fatal(err)
			}
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

	// status reads the stepper: its line, and the state of each segment
	// shown, the current one marked.
	status := func(t *testing.T, tab context.Context) string {
		t.Helper()
		return browsertest.Eval[string](t, tab, 5*time.Second, `(() => {
		  const s = document.querySelector('[data-hubform-stepper]');
		  const steps = Array.from(s.querySelectorAll('li:not([hidden])')).map((li) => li.dataset.state + (li.getAttribute('aria-current') === 'step' ? '*' : ''));
		  return (s.hidden ? 'hidden ' : '') + s.querySelector('[data-hubform-step-status]').textContent + ' ' + steps.join(',');
		})()`)
	}
	// row reports whether Back and the next button of the step shown, Next
	// or Send, stand on one row, Back first.
	row := func(t *testing.T, tab context.Context, width int64, next string) {
		t.Helper()
		got := browsertest.Eval[string](t, tab, 5*time.Second, fmt.Sprintf(`(() => {
		  const step = Array.from(document.querySelectorAll('fieldset[data-hubform-step]')).find((s) => !s.hidden);
		  const back = step.querySelector('[data-hubform-back]').getBoundingClientRect();
		  const next = step.querySelector('%s');
		  if (!next || next.hidden) return 'no visible %s in the step shown';
		  const r = next.getBoundingClientRect();
		  const page = document.documentElement.clientWidth;
		  if (page > %d) return 'the page is ' + page + ' px wide';
		  return Math.abs(back.top - r.top) < 1 && back.right <= r.left && r.right <= page ? '' :
		    'Back at ' + [back.left, back.top] + ', the other at ' + [r.left, r.top] + ', right edge ' + r.right + ' of ' + page;
		})()`, next, next, width))
		if got != "" {
			t.Error(got)
		}
	}

	for _, width := range []int64{1280, 375} {
		t.Run(fmt.Sprintf("steps, buttons and a file at %d px", width), func(t *testing.T) {
			tab := open(t, width)
			if got := status(t, tab); got != "Step 1 of 2 current*,todo" {
				t.Errorf("the stepper reads %q at the first step", got)
			}
			do(t, tab, "filling the first step", chromedp.SendKeys(chromedp.ID("hubform-acme-cake-name"), "Ada"),
				chromedp.Click(chromedp.ID("hubform-acme-cake-delivery-2")))
			browsertest.WaitFor(t, tab, 5*time.Second, browsertest.HTMXIdle)
			do(t, tab, "giving the address", chromedp.SendKeys(chromedp.ID("hubform-acme-cake-address"), "1 Main Street"))
			browsertest.Screenshot(t, tab, fmt.Sprintf("formpage-%d-step1", width))
			browsertest.WaitFor(t, tab, 5*time.Second, browsertest.HTMXIdle)
			do(t, tab, "going on", chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="you"] [data-hubform-next]`)))
			if got := status(t, tab); got != "Step 2 of 2 done,current*" {
				t.Errorf("the stepper reads %q at the second step", got)
			}
			row(t, tab, width, "[data-hubform-submit]")

			if got := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('[data-hubform-drop] [data-hubform-drop-text]').textContent`); got != "Drag a file here or click to choose one" {
				t.Errorf("the drop zone reads %q", got)
			}
			do(t, tab, "choosing a photo", chromedp.SetUploadFiles(chromedp.ID("hubform-acme-cake-photo"), []string{photo}))
			browsertest.WaitFor(t, tab, 10*time.Second, `!!document.querySelector('[data-hubform-drop] li[data-state="done"]')`)
			if got := browsertest.Eval[string](t, tab, 5*time.Second, `(() => {
			  const li = document.querySelector('[data-hubform-drop] li.hubform-upload');
			  return li.querySelector('.hubform-upload-name').textContent + ' ' + li.querySelector('.hubform-upload-size').textContent + ' / ' +
			    document.querySelector('[data-hubform-drop] [data-hubform-drop-text]').textContent;
			})()`); got != "cake.jpg 150 kB / Drag another file here or click to replace it" {
				t.Errorf("the drop zone reads %q once a photo is chosen", got)
			}
			browsertest.ColorScheme(t, tab, "light")
			browsertest.Screenshot(t, tab, fmt.Sprintf("formpage-%d-light", width))
			browsertest.CheckAxe(t, tab, axe, "the second step, light")
			browsertest.ColorScheme(t, tab, "dark")
			browsertest.Screenshot(t, tab, fmt.Sprintf("formpage-%d-dark", width))
			browsertest.CheckAxe(t, tab, axe, "the second step, dark")
			browsertest.ColorScheme(t, tab, "")

			do(t, tab, "going back", chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="cake"] [data-hubform-back]`)))
			if got := status(t, tab); got != "Step 1 of 2 current*,todo" {
				t.Errorf("the stepper reads %q back at the first step", got)
			}
			do(t, tab, "going on and sending", chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="you"] [data-hubform-next]`)),
				chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
			subs := h.Submissions()
			if last := subs[len(subs)-1]; len(last.Attachments) != 1 || !bytes.Equal(h.File(last.Attachments[0].Key), photoData) {
				t.Errorf("stored %+v, want the photo", last)
			}
		})
	}

	t.Run("a file dropped on the zone", func(t *testing.T) {
		tab := open(t, 1280)
		do(t, tab, "going to the second step", chromedp.SendKeys(chromedp.ID("hubform-acme-cake-name"), "Ada"),
			chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="you"] [data-hubform-next]`)))
		at := browsertest.Eval[[]float64](t, tab, 5*time.Second, `(() => {
		  const r = document.querySelector('[data-hubform-drop]').getBoundingClientRect();
		  return [r.left + r.width * 0.8, r.top + r.height / 2];
		})()`)
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		data := &input.DragData{Files: []string{photo}, DragOperationsMask: 1}
		for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
			if _, err := chromedp.Call(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: at[0], Y: at[1], Data: data}); err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
		}
		browsertest.WaitFor(t, tab, 10*time.Second, `!!document.querySelector('[data-hubform-drop] li[data-state="done"] .hubform-upload-size')`)
		if got := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('[data-hubform-drop] li.hubform-upload').textContent`); !bytes.Contains([]byte(got), []byte("cake.jpg150 kB")) {
			t.Errorf("the dropped file reads %q", got)
		}
	})

	t.Run("without uploads from the browser", func(t *testing.T) {
		tab := open(t, 1280)
		// Files then stay in the input, to go with the form.
		browsertest.Eval[bool](t, tab, 5*time.Second, `document.querySelector('form').removeAttribute('data-hubform-upload'), true`)
		do(t, tab, "going to the second step", chromedp.SendKeys(chromedp.ID("hubform-acme-cake-name"), "Ada"),
			chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="you"] [data-hubform-next]`)))
		do(t, tab, "choosing a photo", chromedp.SetUploadFiles(chromedp.ID("hubform-acme-cake-photo"), []string{photo}))
		browsertest.WaitFor(t, tab, 5*time.Second, `!!document.querySelector('[data-hubform-drop-files] li')`)
		if got := browsertest.Eval[string](t, tab, 5*time.Second, `(() => {
		  const li = document.querySelector('[data-hubform-drop-files] li');
		  return li.querySelector('.hubform-drop-name').textContent + ' ' + li.querySelector('.hubform-drop-size').textContent + ' ' + li.querySelector('button').getAttribute('aria-label');
		})()`); got != "cake.jpg 150 kB Remove cake.jpg" {
			t.Errorf("the chosen file reads %q", got)
		}
		do(t, tab, "removing it", chromedp.Click(chromedp.CSS(`[data-hubform-drop-files] button`)))
		if got := browsertest.Eval[string](t, tab, 5*time.Second, `document.getElementById('hubform-acme-cake-photo').files.length + ' ' + document.querySelector('[data-hubform-drop-files]').hidden + ' ' + (document.activeElement && document.activeElement.id)`); got != "0 true hubform-acme-cake-photo" {
			t.Errorf("once removed: %q, want no file, no list and the focus on the input", got)
		}
	})

	t.Run("without JavaScript", func(t *testing.T) {
		tab := browsertest.New(t, browsertest.WindowSize(1280, 900))
		ctx, cancel := context.WithTimeout(tab, 20*time.Second)
		defer cancel()
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		do(t, tab, "opening the page", chromedp.Navigate(app.URL+"/cake"), chromedp.WaitReady(chromedp.CSS(`form[data-hubform-form]`)))
		// The browser's own input shows in the zone, and the stepper as
		// the server rendered it.
		if got := browsertest.Eval[string](t, tab, 5*time.Second, `(() => {
		  const input = document.getElementById('hubform-acme-cake-photo');
		  const r = input.getBoundingClientRect();
		  return (r.width > 0 && r.height > 0 && getComputedStyle(input).opacity === '1') + ' ' + document.querySelector('[data-hubform-step-status]').textContent;
		})()`); got != "true Step 1 of 2" {
			t.Errorf("without JavaScript: %q, want the file input shown and the first step", got)
		}
		browsertest.Screenshot(t, tab, "formpage-1280-nojs")
		do(t, tab, "sending with a photo", chromedp.SendKeys(chromedp.ID("hubform-acme-cake-name"), "Ada"),
			chromedp.SetUploadFiles(chromedp.ID("hubform-acme-cake-photo"), []string{photo}),
			chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		subs := h.Submissions()
		if last := subs[len(subs)-1]; len(last.Attachments) != 1 || !bytes.Equal(h.File(last.Attachments[0].Key), photoData) {
			t.Errorf("stored %+v, want the photo", last)
		}
	})
}

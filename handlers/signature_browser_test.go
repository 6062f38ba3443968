package handlers_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
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

const consentForm = `{
  "title": "Consent",
  "fields": [{"name": "sign", "type": "signature", "label": "Your signature", "required": true}],
  "steps": [{"id": "main", "fields": ["sign"]}]
}`

// TestSignatureInTheBrowser signs a consent form in headless Chromium: a
// line drawn with a mouse or a finger on the pad is stored as a PNG file
// of the field; without JavaScript the signer types their name. The pad
// is checked by axe, light and dark.
func TestSignatureInTheBrowser(t *testing.T) {
	axe := browsertest.Axe(t)
	h := hubtest.Start(t, map[string]string{"acme/consent": consentForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	e := echo.New()
	forms.Mount(e)
	e.GET("/consent", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "consent")
		return handlers.Page(handlers.PageProps{Title: "Consent", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	app := httptest.NewServer(e)
	defer app.Close()

	open := func(t *testing.T, width int64, scripts bool) context.Context {
		t.Helper()
		tab := browsertest.New(t, browsertest.WindowSize(int(width), 800))
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		if width < 600 {
			if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: width, Height: 800, DeviceScaleFactor: 1, Mobile: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 1}); err != nil {
				t.Fatal(err)
			}
		}
		if !scripts {
			if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
				t.Fatal(err)
			}
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/consent"), chromedp.WaitReady(chromedp.CSS(`form[data-hubform-form]`))); err != nil {
			t.Fatal(err)
		}
		if scripts {
			browsertest.WaitFor(t, tab, 10*time.Second, `!!document.querySelector('[data-hubform-signature-ready]')`)
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
	// line is a stroke across the pad: from its left third to its right.
	line := func(t *testing.T, tab context.Context) [][2]float64 {
		t.Helper()
		box := browsertest.Eval[[]float64](t, tab, 5*time.Second, `(() => {
		  const r = document.querySelector('.hubform-signature-canvas').getBoundingClientRect();
		  return [r.left, r.top, r.width, r.height];
		})()`)
		var points [][2]float64
		for i := 0; i <= 10; i++ {
			points = append(points, [2]float64{box[0] + box[2]*(0.2+0.06*float64(i)), box[1] + box[3]*(0.5+0.03*float64(i%3))})
		}
		return points
	}
	stored := func(t *testing.T) (string, []string) {
		t.Helper()
		subs := h.Submissions()
		s := subs[len(subs)-1]
		var payload map[string]any
		json.Unmarshal(s.Payload, &payload)
		name, _ := payload["sign"].(string)
		var files []string
		for _, a := range s.Attachments {
			files = append(files, a.Field+":"+a.Filename+":"+a.MIME)
			if png := h.File(a.Key); len(png) < 8 || string(png[1:4]) != "PNG" {
				t.Errorf("the drawing stored is no PNG: %d bytes", len(png))
			}
		}
		return name, files
	}

	t.Run("drawn with a mouse", func(t *testing.T) {
		tab := open(t, 1280, true)
		points := line(t, tab)
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		for i, p := range points {
			typ := input.DispatchMouseEventTypeMouseMoved
			switch i {
			case 0:
				typ = input.DispatchMouseEventTypeMousePressed
			case len(points) - 1:
				typ = input.DispatchMouseEventTypeMouseReleased
			}
			if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: typ, X: p[0], Y: p[1], Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1}); err != nil {
				t.Fatal(err)
			}
		}
		browsertest.WaitFor(t, tab, 5*time.Second, `!!document.querySelector('[data-hubform-signed] input[type=file]') && !document.getElementById('hubform-acme-consent-sign').required`)
		browsertest.CheckAxe(t, tab, axe, "the signature pad")
		browsertest.ColorScheme(t, tab, "dark")
		browsertest.CheckAxe(t, tab, axe, "the signature pad, dark")
		browsertest.Screenshot(t, tab, "signature-1280-dark")
		do(t, tab, "sending", chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		if name, files := stored(t); name != "" || len(files) != 1 || files[0] != "sign:signature.png:image/png" {
			t.Errorf("stored name %q, files %q; want the drawing alone", name, files)
		}
	})

	t.Run("drawn with a finger", func(t *testing.T) {
		tab := open(t, 375, true)
		points := line(t, tab)
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		for i, p := range points {
			typ := input.DispatchTouchEventTypeTouchMove
			switch i {
			case 0:
				typ = input.DispatchTouchEventTypeTouchStart
			case len(points) - 1:
				typ = input.DispatchTouchEventTypeTouchEnd
			}
			touches := []*input.TouchPoint{{X: p[0], Y: p[1]}}
			if typ == input.DispatchTouchEventTypeTouchEnd {
				touches = []*input.TouchPoint{}
			}
			if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: touches}); err != nil {
				t.Fatal(err)
			}
		}
		browsertest.WaitFor(t, tab, 5*time.Second, `!!document.querySelector('[data-hubform-signed] input[type=file]')`)
		if wide := browsertest.Eval[int](t, tab, 5*time.Second, `document.documentElement.scrollWidth`); wide > 375 {
			t.Errorf("the page is %d px wide on a phone", wide)
		}
		browsertest.Screenshot(t, tab, "signature-375-light")
		do(t, tab, "sending", chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		if _, files := stored(t); len(files) != 1 {
			t.Errorf("stored files %q, want the drawing", files)
		}
	})

	t.Run("typed without JavaScript", func(t *testing.T) {
		tab := open(t, 1280, false)
		if browsertest.Eval[bool](t, tab, 5*time.Second, `!document.querySelector('[data-hubform-drop="signature"]').hidden`) {
			t.Error("the pad shows without JavaScript")
		}
		do(t, tab, "signing", chromedp.SendKeys(chromedp.ID("hubform-acme-consent-sign"), "Ada Lovelace"),
			chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
		if name, files := stored(t); name != "Ada Lovelace" || len(files) != 0 {
			t.Errorf("stored name %q, files %q; want the name alone", name, files)
		}
	})
}

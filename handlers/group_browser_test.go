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

// TestGroupInTheBrowser adds a guest and removes one in headless
// Chromium, with JavaScript (htmx swaps the form in place) and without
// (the page comes again); what was typed stays, and the hub stores the
// guests. axe checks the group at 1280 and 375 px.
func TestGroupInTheBrowser(t *testing.T) {
	axe := browsertest.Axe(t)
	h := hubtest.Start(t, map[string]string{"acme/guests": guestsForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	e := echo.New()
	forms.Mount(e)
	e.GET("/guests", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "guests")
		return handlers.Page(handlers.PageProps{Title: "Guests", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	app := httptest.NewServer(e)
	defer app.Close()

	for _, tc := range []struct {
		name    string
		scripts bool
		width   int64
	}{{"with JavaScript", true, 1280}, {"without JavaScript", false, 1280}, {"with JavaScript on a phone", true, 375}} {
		t.Run(tc.name, func(t *testing.T) {
			tab := browsertest.New(t, browsertest.WindowSize(int(tc.width), 900))
			ctx, cancel := context.WithTimeout(tab, 10*time.Second)
			defer cancel()
			if tc.width < 600 {
				if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: tc.width, Height: 900, DeviceScaleFactor: 1, Mobile: true}); err != nil {
					t.Fatal(err)
				}
			}
			if !tc.scripts {
				if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
					t.Fatal(err)
				}
			}
			do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
				t.Helper()
				ctx, cancel := context.WithTimeout(tab, 20*time.Second)
				defer cancel()
				if err := chromedp.Do(ctx, actions...); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
			}
			do("opening the page", chromedp.Navigate(app.URL+"/guests"), chromedp.WaitReady(chromedp.CSS(`form[data-hubform-form]`)))
			if tc.scripts {
				browsertest.WaitFor(t, tab, 10*time.Second, `window.hubformScript && typeof htmx !== 'undefined'`)
			}
			const id = "hubform-acme-guests-team"
			do("naming the first guest and adding another", chromedp.SendKeys(chromedp.ID(id), "Ada"),
				chromedp.Click(chromedp.CSS(`button[value="add:team"]`)), chromedp.WaitVisible(chromedp.ID(id+"-2-guest")))
			if got := browsertest.Eval[string](t, tab, 5*time.Second, `document.getElementById('`+id+`').value`); got != "Ada" {
				t.Errorf("after Add another the first guest is %q", got)
			}
			// htmx focuses the autofocus control once the swap settles.
			focused := func(after, want string) {
				t.Helper()
				browsertest.WaitFor(t, tab, 2*time.Second, `document.activeElement && document.activeElement.id === '`+want+`'`)
			}
			focused("Add another", id+"-2-guest")
			if tc.width < 600 {
				if wide := browsertest.Eval[int](t, tab, 5*time.Second, `document.documentElement.scrollWidth`); wide > int(tc.width) {
					t.Errorf("the page is %d px wide on a phone", wide)
				}
			}
			if tc.scripts {
				browsertest.CheckAxe(t, tab, axe, "a group of two at "+map[bool]string{true: "375", false: "1280"}[tc.width < 600]+" px")
				browsertest.Screenshot(t, tab, "group-"+map[bool]string{true: "375", false: "1280"}[tc.width < 600])
			}
			do("naming the second, adding a third and removing the first",
				chromedp.SendKeys(chromedp.ID(id+"-2-guest"), "Bob"),
				chromedp.Click(chromedp.CSS(`button[value="add:team"]`)), chromedp.WaitVisible(chromedp.ID(id+"-3-guest")),
				chromedp.Click(chromedp.CSS(`button[value="remove:team:0"]`)), chromedp.WaitNotPresent(chromedp.ID(id+"-3-guest")))
			if got := browsertest.Eval[string](t, tab, 5*time.Second, `document.getElementById('`+id+`').value`); got != "Bob" {
				t.Errorf("after removing Ada the first guest is %q", got)
			}
			focused("removing the first", id)
			do("sending", chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
			subs := h.Submissions()
			var payload map[string]any
			json.Unmarshal(subs[len(subs)-1].Payload, &payload)
			if want := []any{map[string]any{"guest": "Bob", "meal": ""}}; !reflect.DeepEqual(payload["team"], want) {
				t.Errorf("team stored as %#v, want %#v", payload["team"], want)
			}
		})
	}
}

package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/static/browsertest"
)

// TestFunnelCountedInTheBrowser fills a form of three steps in headless
// Chromium: the script counts the start at the first change and each step
// reached, once, and the form's posts, a refused one among them, are not
// counted again.
func TestFunnelCountedInTheBrowser(t *testing.T) {
	browser := browsertest.New(t)
	counts := &tally{}
	h := hubtest.Start(t, map[string]string{"acme/trip": tripForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet, Counter: counts})
	e := echo.New()
	forms.Mount(e)
	e.GET("/page", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "trip")
		return handlers.Page(handlers.PageProps{Title: "Trip", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	app := httptest.NewServer(e)
	defer app.Close()

	tab := browsertest.NewTab(t, browser)
	ctx, cancel := context.WithTimeout(tab, 20*time.Second)
	defer cancel()
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	do("opening the page", chromedp.Navigate(app.URL+"/page"), chromedp.WaitReady(chromedp.CSS(`form[data-hubform-form]`)))
	browsertest.WaitFor(t, tab, 10*time.Second, `window.hubformScript && typeof htmx !== 'undefined'`)
	wantTally(t, "shown", counts.get(), map[string]int64{"acme/trip view": 1})

	do("filling the first step", chromedp.SendKeys(chromedp.ID("hubform-acme-trip-name"), "Ada"))
	do("going to the second step", chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="who"] [data-hubform-next]`)))
	do("going back and on again", chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="where"] [data-hubform-back]`)),
		chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="who"] [data-hubform-next]`)),
		chromedp.SendKeys(chromedp.ID("hubform-acme-trip-city"), "Oslo"),
		chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="where"] [data-hubform-next]`)))
	want := map[string]int64{"acme/trip view": 1, "acme/trip start": 1, "acme/trip step where": 1, "acme/trip step when": 1}
	deadline := time.Now().Add(5 * time.Second)
	for counts.get()["acme/trip step when"] == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	wantTally(t, "the steps", counts.get(), want)

	// The hub refuses the first post: the form comes back, and its next
	// post is not taken for one without the script.
	h.FailNext("/submit", http.StatusServiceUnavailable, "busy")
	do("sending", chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-hubform-submit-error]`)))
	browsertest.WaitFor(t, tab, 5*time.Second, browsertest.HTMXIdle)
	do("sending again", chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
	wantTally(t, "sent", counts.get(), want)
}

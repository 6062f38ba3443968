package handlers_test

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/static/browsertest"
)

// TestDraftInAGoAppInTheBrowser saves a form of two steps in a Go app's
// page, in headless Chromium: the script saves it as the visitor moves on;
// saved by hand, with a hub that sends no e-mail, the page shows the link,
// which a second tab opens at the step saved, and sending the form there
// stores one submission and finishes the draft.
func TestDraftInAGoAppInTheBrowser(t *testing.T) {
	browser := browsertest.New(t)
	e := echo.New()
	app := httptest.NewServer(e)
	defer app.Close()
	h := hubtest.Start(t, nil)
	h.WriteForm("acme", "walk", `{"title": "Walk", "fields": [{"name": "name", "type": "text", "label": "Name", "required": true},
		{"name": "city", "type": "text", "label": "City", "required": true}],
		"steps": [{"id": "who", "fields": ["name"]}, {"id": "where", "fields": ["city"]}], "hub": {"allowedOrigins": ["`+app.URL+`"]}}`)
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	forms.Mount(e)
	e.GET("/walk", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "walk")
		return handlers.Page(handlers.PageProps{Title: "Walk", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})

	tab := browsertest.NewTab(t, browser)
	do := func(tab context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		ctx, cancel := context.WithTimeout(tab, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	do(tab, "opening the page", chromedp.Navigate(app.URL+"/walk"))
	browsertest.WaitFor(t, tab, 10*time.Second, `window.hubformScript && typeof htmx !== 'undefined'`)
	do(tab, "filling the first step", chromedp.SendKeys(chromedp.ID("hubform-acme-walk-name"), "Ada"),
		chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="who"] [data-hubform-next]`)))
	browsertest.WaitFor(t, tab, 10*time.Second, `document.querySelector('[name=_hubformDraft]')?.value.length > 20`)
	// Each save answers a new token and retires the one sent: the page and
	// the browser's storage keep the newest, on which the next save goes.
	first := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('[name=_hubformDraft]').value`)
	do(tab, "going back", chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="where"] [data-hubform-back]`)))
	browsertest.WaitFor(t, tab, 10*time.Second, `(() => {
		const token = document.querySelector('[name=_hubformDraft]').value;
		return token !== `+strconv.Quote(first)+` && token.length > 20 && localStorage.getItem('hubform-draft:/hubform/acme/walk/save') === token;
	})()`)
	second := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('[name=_hubformDraft]').value`)
	do(tab, "moving on again", chromedp.Click(chromedp.CSS(`fieldset[data-hubform-step="who"] [data-hubform-next]`)))
	browsertest.WaitFor(t, tab, 10*time.Second, `document.querySelector('[name=_hubformDraft]').value !== `+strconv.Quote(second))
	do(tab, "saving by hand", chromedp.Click(chromedp.CSS(`[data-hubform-save-panel] summary`)),
		chromedp.SendKeys(chromedp.CSS(`[name=_hubformDraftEmail]`), "ada@example.com"),
		chromedp.Click(chromedp.CSS(`[data-hubform-save-button]`)))
	browsertest.WaitFor(t, tab, 10*time.Second, `document.querySelector('[data-hubform-saved] a') !== null`)
	link := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('[data-hubform-saved] a').href`)
	if !strings.HasPrefix(link, app.URL+"/walk?draft=") {
		t.Fatalf("link %q, want the app's page with a draft", link)
	}
	if got := browsertest.Eval[string](t, tab, 5*time.Second, `location.pathname`); got != "/walk" {
		t.Errorf("saving left the page for %s: not posted with htmx", got)
	}

	other := browsertest.NewTab(t, browser)
	do(other, "opening the link", chromedp.Navigate(link))
	browsertest.WaitFor(t, other, 10*time.Second, `window.hubformScript && window.htmx && document.querySelector('fieldset[data-hubform-step="where"]').checkVisibility()`)
	if got := browsertest.Eval[string](t, other, 5*time.Second, `document.getElementById('hubform-acme-walk-name').value`); got != "Ada" {
		t.Errorf("resumed name %q, want Ada", got)
	}
	// Enter in a field sends the form: Send is its default button, not
	// the save panel's.
	do(other, "sending", chromedp.SendKeys(chromedp.ID("hubform-acme-walk-city"), "Oslo"+kb.Enter))
	browsertest.WaitFor(t, other, 10*time.Second, `document.querySelector('[data-vendor-hubform-submitted]') !== null`)
	subs := h.Submissions()
	if len(subs) != 1 || !strings.Contains(string(subs[0].Payload), `"city":"Oslo"`) || !strings.Contains(string(subs[0].Payload), `"name":"Ada"`) {
		t.Fatalf("submissions %+v, want one with both steps' values", subs)
	}
	do(other, "opening the link again", chromedp.Navigate(link))
	browsertest.WaitFor(t, other, 10*time.Second, `document.querySelector('[data-hubform-draft-gone]') !== null`)
}

package handlers_test

import (
	"context"
	"net/http"
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

// TestClosedAndRedirectInTheBrowser opens forms in headless Chromium,
// with JavaScript and without: a form the hub marks closed shows the
// closed state; a form that fills while its page is open shows it in
// answer to the post, swapped in by htmx or as a page; and a form with a
// redirect sends the browser to the owner's page.
func TestClosedAndRedirectInTheBrowser(t *testing.T) {
	browser := browsertest.New(t)
	hub := hubtest.Start(t, map[string]string{
		"acme/closed": closedForm, "acme/full-js": oneOnlyForm, "acme/full-nojs": oneOnlyForm,
	})
	forms := handlers.New(handlers.Config{HubURL: hub.URL, Logger: quiet})
	e := echo.New()
	forms.Mount(e)
	e.GET("/page/:site/:slug", func(c echo.Context) error {
		p := forms.PropsFor(c, c.Param("site"), c.Param("slug"))
		return handlers.Page(handlers.PageProps{Title: "Form", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	e.GET("/welcome", func(c echo.Context) error {
		return c.HTML(http.StatusOK, `<!doctype html><title>Welcome</title><h1 id="welcome">Welcome aboard</h1>`)
	})
	app := httptest.NewServer(e)
	defer app.Close()
	// The redirect names the app's own page, known once it listens.
	redirect := `{"fields": [{"name": "email", "type": "email", "label": "Email", "required": true}], "steps": [{"id": "s", "fields": ["email"]}],
		"meta": {"redirectUrl": "` + app.URL + `/welcome?from=form"}}`
	hub.WriteForm("acme", "signup-js", redirect)
	hub.WriteForm("acme", "signup-nojs", redirect)

	for _, js := range []bool{true, false} {
		suffix := map[bool]string{true: "-js", false: "-nojs"}[js]
		t.Run("javascript "+map[bool]string{true: "on", false: "off"}[js], func(t *testing.T) {
			tab := browsertest.NewTab(t, browser)
			do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
				t.Helper()
				ctx, cancel := context.WithTimeout(tab, 10*time.Second)
				defer cancel()
				if err := chromedp.Do(ctx, actions...); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
			}
			if !js {
				ctx, cancel := context.WithTimeout(tab, 5*time.Second)
				defer cancel()
				if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
					t.Fatal(err)
				}
			}
			open := func(path string) {
				t.Helper()
				do("opening "+path, chromedp.Navigate(app.URL+path), chromedp.WaitReady(chromedp.CSS(`[data-hubform]`)))
				if js {
					// hubform.js sets htmx's history option once both run.
					browsertest.WaitFor(t, tab, 10*time.Second, `typeof htmx !== 'undefined' && htmx.config.historyRestoreAsHxRequest === false`)
				}
			}

			open("/page/acme/closed")
			if got := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('[data-hubform] [data-vendor-hubform-closed]').textContent.trim()`); got != "This form is closed and no longer takes submissions." {
				t.Errorf("the closed form's page reads %q", got)
			}

			// The page holds the open form; someone else takes its one
			// place; the visitor's post is refused with the closed state.
			open("/page/acme/full" + suffix)
			res, err := http.PostForm(app.URL+"/hubform/acme/full"+suffix+"/submit", map[string][]string{"email": {"first@example.com"}})
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("filling the form: %v %v", res, err)
			}
			res.Body.Close()
			do("sending the full form", chromedp.SendKeys(chromedp.ID("hubform-acme-full"+suffix+"-email"), "late@example.com"),
				chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-closed]`)))
			path := browsertest.Eval[string](t, tab, 5*time.Second, `location.pathname`)
			if want := map[bool]string{true: "/page/acme/full-js", false: "/hubform/acme/full-nojs/submit"}[js]; path != want {
				t.Errorf("the closed state is at %s, want %s", path, want)
			}

			open("/page/acme/signup" + suffix)
			do("sending the form with a redirect", chromedp.SendKeys(chromedp.ID("hubform-acme-signup"+suffix+"-email"), "jo@example.com"),
				chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.ID("welcome")))
			if got := browsertest.Eval[string](t, tab, 5*time.Second, `location.pathname + location.search`); got != "/welcome?from=form" {
				t.Errorf("the browser is at %s, want the form's page", got)
			}
		})
	}
	stored := map[string]int{}
	for _, s := range hub.Submissions() {
		stored[s.Slug]++
	}
	for _, slug := range []string{"full-js", "full-nojs", "signup-js", "signup-nojs"} {
		if stored[slug] != 1 {
			t.Errorf("%s: %d submissions stored, want 1", slug, stored[slug])
		}
	}
}

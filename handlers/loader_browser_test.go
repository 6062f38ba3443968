package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/a-h/templ"
	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/static"
	"github.com/hubform/hubform/static/browsertest"
)

// TestHeadLoadsScriptsAfterThePage opens pages whose head is forms.Head()
// in headless Chromium: hubform.js and htmx are requested only once the
// load event is over, htmx after hubform.js, and both run, under a strict
// CSP too; a page with its own htmx does not get a second one.
func TestHeadLoadsScriptsAfterThePage(t *testing.T) {
	browser := browsertest.New(t)
	h := hubtest.Start(t, map[string]string{"acme/contact": contactForm})
	forms := handlers.New(handlers.Config{HubURL: h.URL, Logger: quiet})
	e := echo.New()
	forms.Mount(e)
	const nonce = "n0nce4test"
	e.GET("/contact", func(c echo.Context) error {
		ctx := c.Request().Context()
		if c.QueryParam("csp") == "1" {
			c.Response().Header().Set("Content-Security-Policy", "script-src 'nonce-"+nonce+"'; style-src 'nonce-"+nonce+"'")
			ctx = templ.WithNonce(ctx, nonce)
		}
		head := forms.Head()
		if c.QueryParam("own-htmx") == "1" {
			head = templ.Join(templ.Raw(`<script src="`+forms.Prefix()+`/static/`+static.URL("htmx.min.js")+`" defer></script>`), head)
		}
		// An image that comes late holds the load event past the first
		// frames, as a host page's images can.
		body := templ.Join(components.HubForm(forms.PropsFor(c, "acme", "contact")), templ.Raw(`<img src="/late.gif" alt="">`))
		return handlers.Page(handlers.PageProps{Title: "Contact", Head: head, Body: body}).Render(ctx, c.Response())
	})
	e.GET("/late.gif", func(c echo.Context) error {
		time.Sleep(300 * time.Millisecond)
		return c.Blob(http.StatusOK, "image/gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"))
	})
	app := httptest.NewServer(e)
	defer app.Close()

	open := func(t *testing.T, query string) context.Context {
		tab := browsertest.NewTab(t, browser)
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/contact?"+query)); err != nil {
			t.Fatal(err)
		}
		// hubform.js sets htmx's history option on htmx:load: both have
		// run. Under the strict CSP only scripts with the nonce run.
		browsertest.WaitFor(t, tab, 10*time.Second, `typeof htmx !== 'undefined' && htmx.config.historyRestoreAsHxRequest === false`)
		return tab
	}
	for _, query := range []string{"", "csp=1"} {
		t.Run("query "+query, func(t *testing.T) {
			tab := open(t, query)
			ok := browsertest.Eval[bool](t, tab, 5*time.Second, `(() => {
			  const nav = performance.getEntriesByType('navigation')[0];
			  const start = (name) => performance.getEntriesByType('resource').filter((e) => e.name.includes(name)).map((e) => e.startTime);
			  const [js, htmx] = [start('hubform.js'), start('htmx.min.js')];
			  return nav.loadEventEnd > 0 && js.length === 1 && htmx.length === 1 && js[0] >= nav.loadEventEnd && htmx[0] >= js[0];
			})()`)
			if !ok {
				t.Error("hubform.js and htmx were not requested once each, after the load event, hubform.js first")
			}
		})
	}
	t.Run("the page's own htmx", func(t *testing.T) {
		tab := open(t, "own-htmx=1")
		// Let the loader's frame and timeout pass.
		browsertest.Eval[bool](t, tab, 5*time.Second, `new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() => setTimeout(() => resolve(true))))))`, chromedp.EvalAwaitPromise)
		if n := browsertest.Eval[int](t, tab, 5*time.Second, `document.querySelectorAll('script[src*="htmx.min.js"]').length`); n != 1 {
			t.Errorf("%d htmx scripts in the page, want its own alone", n)
		}
	})
}

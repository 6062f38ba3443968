package handlers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
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

// switchableHub is a hub behind a switch: while down, every connection to
// it is dropped, as by a hub that is not there.
type switchableHub struct {
	down atomic.Bool
	srv  *httptest.Server
}

func newSwitchableHub(t *testing.T, h *hubtest.Hub) *switchableHub {
	target, _ := url.Parse(h.Server.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	s := &switchableHub{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.down.Load() {
			panic(http.ErrAbortHandler)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// TestWithoutJavaScriptEveryStateIsReachable opens a page whose form could
// not be fetched on the server, in a browser that runs no scripts: the
// loading state links to the load route, which shows the error state while
// the hub is down and the form once it is back, and the form posts.
func TestWithoutJavaScriptEveryStateIsReachable(t *testing.T) {
	browser := browsertest.New(t)
	h := hubtest.Start(t, map[string]string{"acme/contact": contactForm})
	hubSwitch := newSwitchableHub(t, h)
	hubSwitch.down.Store(true)
	forms := handlers.New(handlers.Config{HubURL: hubSwitch.srv.URL + "/v1", Logger: quiet})
	e := echo.New()
	forms.Mount(e)
	e.GET("/contact", func(c echo.Context) error {
		p := forms.PropsFor(c, "acme", "contact")
		return handlers.Page(handlers.PageProps{Title: "Contact", Head: forms.Head(), Body: components.HubForm(p)}).Render(c.Request().Context(), c.Response())
	})
	app := httptest.NewServer(e)
	defer app.Close()

	tab := browsertest.NewTab(t, browser)
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		ctx, cancel := context.WithTimeout(tab, 10*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	count := func(selector string) int {
		t.Helper()
		return browsertest.Eval[int](t, tab, 5*time.Second, `document.querySelectorAll(`+"`"+selector+"`"+`).length`)
	}
	ctx, cancel := context.WithTimeout(tab, 5*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}

	do("opening the page", chromedp.Navigate(app.URL+"/contact?locale=de"))
	if count(`[data-vendor-hubform-loading]`) != 1 {
		t.Fatal("the page whose fetch failed shows no loading state")
	}
	do("following the link of the loading state", chromedp.WaitVisible(chromedp.CSS(`a.hubform-noscript`)), chromedp.Click(chromedp.CSS(`a.hubform-noscript`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-hubform] [role=alert]`)))
	if got := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('[role=alert]').innerText`); got == "" || count(`a.hubform-retry`) != 1 {
		t.Errorf("the error state reads %q, with %d retry links", got, count(`a.hubform-retry`))
	}

	hubSwitch.down.Store(false)
	// A failed fetch is remembered for a moment, so that a hub that is
	// down is not asked by every visitor: try again until it has passed.
	deadline := time.Now().Add(10 * time.Second)
	for count(`form[data-hubform-form]`) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the form never came once the hub was back")
		}
		// Followed by navigating to it, which waits for the new page: a
		// click returns as the navigation starts, and what is looked up
		// next may be the page that is going away.
		retry := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('a.hubform-retry').href`)
		do("trying again", chromedp.Navigate(retry), chromedp.WaitReady(chromedp.CSS(`[data-hubform]`)))
	}
	if lang := browsertest.Eval[string](t, tab, 5*time.Second, `document.querySelector('form').lang`); lang != "de" {
		t.Errorf("the form's language is %q, want the page's de", lang)
	}
	do("filling the form", chromedp.SendKeys(chromedp.ID("hubform-acme-contact-name"), "Jane"), chromedp.SendKeys(chromedp.ID("hubform-acme-contact-email"), "jane@example.com"),
		chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)), chromedp.WaitVisible(chromedp.CSS(`[data-vendor-hubform-submitted]`)))
	if n := len(h.Submissions()); n != 1 {
		t.Errorf("%d submissions stored, want 1", n)
	}
}

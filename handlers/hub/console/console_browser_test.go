package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserConsole signs in to a hub's console and out again in headless
// Chromium, with axe-core checking each page it shows.
func TestBrowserConsole(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{Forms: formsDir(t, contactForm)})
	addUser(t, h, "jane@example.com", "correct horse battery")
	con := newConsoleTab(t, browser, h)
	tab, base, do := con.tab, con.base, con.do
	location := func() string {
		t.Helper()
		return browsertest.Eval[string](t, tab, 10*time.Second, `location.pathname`)
	}
	text := con.text
	signIn := func(password string) {
		t.Helper()
		do(chromedp.WaitVisible(chromedp.CSS("#email")))
		browsertest.Eval[bool](t, tab, 10*time.Second, `document.querySelector('#email').value = ''; document.querySelector('#password').value = ''; true`)
		do(chromedp.SendKeys(chromedp.CSS("#email"), "jane@example.com"),
			chromedp.SendKeys(chromedp.CSS("#password"), password),
			chromedp.Click(chromedp.CSS(`button[type="submit"]`)))
	}

	// The console sends a visitor without a session to sign in.
	do(chromedp.Navigate(base+"/console"), chromedp.WaitVisible(chromedp.CSS("#email")))
	if got := location(); got != "/console/sign-in" {
		t.Fatalf("the console without a session shows %s", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the sign-in page")

	signIn("not the password")
	do(chromedp.WaitVisible(chromedp.CSS("#sign-in-error p")))
	if got := text("#sign-in-error"); !strings.Contains(got, "wrong") {
		t.Errorf("after a wrong password the page says %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the sign-in page with an error")

	signIn("correct horse battery")
	do(chromedp.WaitVisible(chromedp.CSS("#forms table")))
	if got := location(); got != "/console" {
		t.Errorf("signed in, the browser is at %s", got)
	}
	if got := text("main"); !strings.Contains(got, "Signed in as jane@example.com") || !strings.Contains(got, "contact") {
		t.Errorf("home page says %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the home page")
	// htmx reloads the list within the page.
	browsertest.Eval[bool](t, tab, 10*time.Second, `document.querySelector('#forms').textContent = ''; true`)
	do(chromedp.Click(chromedp.CSS(`button[data-hx-get]`)), chromedp.WaitVisible(chromedp.CSS("#forms table")))

	do(chromedp.Click(chromedp.CSS(`form[action="/console/sign-out"] button`)), chromedp.WaitVisible(chromedp.CSS("#email")))
	if got := location(); got != "/console/sign-in" {
		t.Errorf("signed out, the browser is at %s", got)
	}
	do(chromedp.Navigate(base+"/console"), chromedp.WaitVisible(chromedp.CSS("#email")))
	if got := location(); got != "/console/sign-in" {
		t.Errorf("after signing out the console shows %s", got)
	}
}

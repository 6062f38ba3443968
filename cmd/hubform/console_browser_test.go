package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserConsole signs in to a hub's console and out again in headless
// Chromium, with axe-core checking each page it shows.
func TestBrowserConsole(t *testing.T) {
	browser := browsertest.New(t)
	axe := readAxe(t)
	data := t.TempDir()
	addUser(t, "jane@example.com", "correct horse battery", "--data", data)
	h := startHub(t, formsDir(t), data)
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
	checkAxe(t, tab, axe, "the sign-in page")

	signIn("not the password")
	do(chromedp.WaitVisible(chromedp.CSS("#sign-in-error p")))
	if got := text("#sign-in-error"); !strings.Contains(got, "wrong") {
		t.Errorf("after a wrong password the page says %q", got)
	}
	checkAxe(t, tab, axe, "the sign-in page with an error")

	signIn("correct horse battery")
	do(chromedp.WaitVisible(chromedp.CSS("#forms table")))
	if got := location(); got != "/console" {
		t.Errorf("signed in, the browser is at %s", got)
	}
	if got := text("main"); !strings.Contains(got, "Signed in as jane@example.com") || !strings.Contains(got, "contact") {
		t.Errorf("home page says %q", got)
	}
	checkAxe(t, tab, axe, "the home page")
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

// A consoleTab is a browser tab on a hub's console; a failed action fails
// the test with the hub's log.
type consoleTab struct {
	t    *testing.T
	tab  context.Context
	hub  *hubProcess
	base string // the hub's address without /v1
}

func newConsoleTab(t *testing.T, browser context.Context, h *hubProcess) *consoleTab {
	return &consoleTab{t: t, tab: browsertest.NewTab(t, browser), hub: h, base: strings.TrimSuffix(h.url, "/v1")}
}

func (c *consoleTab) do(actions ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.tab, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		c.t.Fatalf("%v; hub log:\n%s", err, c.hub.log)
	}
}

// saveScreenshot saves the page in tab as DIR/name.png when
// HUBFORM_SCREENSHOTS=DIR: the screenshots of the console's guide.
func saveScreenshot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	dir := os.Getenv("HUBFORM_SCREENSHOTS")
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(tab, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// text returns the text of the first element sel matches, or "".
func (c *consoleTab) text(sel string) string {
	c.t.Helper()
	return browsertest.Eval[string](c.t, c.tab, 10*time.Second, `document.querySelector(`+"`"+sel+"`"+`)?.textContent ?? ''`)
}

// signIn opens the console, sends its sign-in form and then does then.
func (c *consoleTab) signIn(email, password string, then ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	c.do(append([]chromedp.Action[chromedp.Void]{
		chromedp.Navigate(c.base + "/console"), chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
	}, then...)...)
}

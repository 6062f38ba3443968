package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

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

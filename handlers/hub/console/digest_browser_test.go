package console_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserAccountDigest asks for a digest of one form on the account
// page in headless Chromium, with axe-core checking the page at 1280 and
// 375 px, light and dark.
func TestBrowserAccountDigest(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	con := storedFormTab(t, browser, "feedback", `{"title": "Feedback", "fields": [{"name": "name", "type": "text", "label": "Your name"}]}`)
	con.do(chromedp.Navigate(con.base+"/console/account"), chromedp.WaitVisible(chromedp.CSS("#digest-heading")))
	con.do(
		chromedp.Click(chromedp.CSS(`input[name="digest"][value="forms"]`)),
		chromedp.Click(chromedp.CSS(`input[name="form"][value="acme/feedback"]`)),
		chromedp.SetValue(chromedp.CSS("#digest-hour"), "18"),
		chromedp.Click(chromedp.CSS(`section[aria-labelledby="digest-heading"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#notice p`)),
	)
	if got := con.text(`#notice p`); !strings.Contains(got, "You get a digest of default each day at 18:00 (UTC)") {
		t.Errorf("after saving, the page says %q", got)
	}
	if got := con.eval(`document.querySelector('input[name="form"][value="acme/feedback"]').checked && document.querySelector('#digest-hour').value`); got != "18" {
		t.Errorf("the digest does not read back: %q", got)
	}
	for _, width := range []int{1280, 375} {
		for _, scheme := range []string{"light", "dark"} {
			con.do(chromedp.EmulateViewport(int64(width), 900))
			browsertest.ColorScheme(t, con.tab, scheme)
			con.do(chromedp.ScrollIntoView(chromedp.CSS("#digest-heading")))
			browsertest.CheckAxe(t, con.tab, axe, fmt.Sprintf("the account's digest at %d px, %s", width, scheme))
			con.screenshot(fmt.Sprintf("console-account-digest-%d-%s", width, scheme))
		}
	}
}

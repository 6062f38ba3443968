package console_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserTemplateGallery goes from the gallery to a template's
// preview, uses it, and finds its questions in the builder.
func TestBrowserTemplateGallery(t *testing.T) {
	if !browsertest.Required() {
		t.Skipf("set %s=1 to run the browser tests", browsertest.RequireEnv)
	}
	h := startHub(t, hubserver.Config{})
	addUser(t, h, "jane@example.com", "correct horse battery")
	con := newConsoleTab(t, browsertest.New(t), h)
	shots := func(name string) {
		t.Helper()
		for _, width := range []int64{1280, 375} {
			con.do(chromedp.EmulateViewport(width, 900))
			for _, scheme := range []string{"light", "dark"} {
				browsertest.ColorScheme(t, con.tab, scheme)
				con.screenshot(fmt.Sprintf("templates-%s-%d-%s", name, width, scheme))
			}
		}
		browsertest.ColorScheme(t, con.tab, "")
		con.do(chromedp.EmulateViewport(1280, 900))
	}
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS("#no-forms")))
	con.do(chromedp.Navigate(con.base+"/console/sites"), chromedp.WaitVisible(chromedp.CSS(".template-cards")))
	con.do(chromedp.ScrollIntoView(chromedp.CSS("#gallery-heading")))
	axe := browsertest.Axe(t)
	browsertest.CheckAxe(t, con.tab, axe, "the template gallery")
	shots("gallery")
	con.do(chromedp.Click(chromedp.CSS(`[data-template="feedback"] a[href$="/templates/feedback"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#preview [name="recommend"]`)))
	browsertest.CheckAxe(t, con.tab, axe, "a template's preview")
	shots("preview")
	con.do(chromedp.Click(chromedp.CSS(`main .template-actions a.hubform-button--primary`)),
		chromedp.WaitVisible(chromedp.CSS("#create-template")))
	con.do(chromedp.SendKeys(chromedp.CSS("#in-site"), "shop"),
		chromedp.SendKeys(chromedp.CSS("#in-slug"), "feedback"),
		chromedp.Click(chromedp.CSS(`form[action="/console/sites"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#builder")))
	if got := con.text("#builder"); !strings.Contains(got, "How likely are you to recommend us") || !strings.Contains(got, "What could we do better?") {
		t.Errorf("the builder shows %q", got)
	}
	shots("used")
}

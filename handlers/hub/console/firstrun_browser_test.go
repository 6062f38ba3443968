package console_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserFirstRun does what a newcomer does on a fresh hub: the
// console's sign-in page offers the setup, the code the hub printed makes
// the first admin, and the empty home's "Create your first form" shows its
// words on its button; the form made then shows each empty tab. Every page
// on the way is saved at 1280 and 375 pixels, light and dark, with
// HUBFORM_SCREENSHOTS.
func TestBrowserFirstRun(t *testing.T) {
	if !browsertest.Required() {
		t.Skipf("set %s=1 to run the browser tests", browsertest.RequireEnv)
	}
	h := startHub(t, hubserver.Config{})
	if h.SetupCode() == "" {
		t.Fatal("a hub without a user has no setup code")
	}
	con := newConsoleTab(t, browsertest.New(t), h)
	shots := func(name string) {
		t.Helper()
		for _, width := range []int64{1280, 375} {
			con.do(chromedp.EmulateViewport(width, 900))
			for _, scheme := range []string{"light", "dark"} {
				browsertest.ColorScheme(t, con.tab, scheme)
				con.screenshot(fmt.Sprintf("firstrun-%s-%d-%s", name, width, scheme))
			}
		}
		browsertest.ColorScheme(t, con.tab, "")
		con.do(chromedp.EmulateViewport(1280, 900))
	}

	con.do(chromedp.Navigate(con.base+"/console"), chromedp.WaitVisible(chromedp.CSS("#setup-offer")))
	shots("sign-in")
	con.do(chromedp.Click(chromedp.CSS(`#setup-offer a`)), chromedp.WaitVisible(chromedp.CSS("#code")))
	shots("setup")
	// A wrong code first: the page says what is wrong and where the code is.
	con.do(chromedp.SendKeys(chromedp.CSS("#code"), "WRONG-CODE"),
		chromedp.SendKeys(chromedp.CSS("#email"), "ann@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "correct horse battery"),
		chromedp.SendKeys(chromedp.CSS("#confirm"), "correct horse battery"),
		chromedp.SetValue(chromedp.CSS("#workspace"), "acme"),
		chromedp.Click(chromedp.CSS(`#setup button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#setup-error p")))
	if got := con.text("#setup-error"); !strings.Contains(got, "This setup code is wrong") {
		t.Errorf("a wrong code says %q", got)
	}
	shots("setup-wrong-code")
	con.do(chromedp.SetValue(chromedp.CSS("#code"), h.SetupCode()),
		chromedp.SendKeys(chromedp.CSS("#password"), "correct horse battery"),
		chromedp.SendKeys(chromedp.CSS("#confirm"), "correct horse battery"),
		chromedp.Click(chromedp.CSS(`#setup button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#no-forms")))
	if got := con.text("main h1"); got != "Forms of workspace acme" {
		t.Errorf("after setup the home page is %q", got)
	}
	// The button's words show: its text is not the colour of its face.
	first := browsertest.Eval[[]string](t, con.tab, 5*time.Second, `(() => {
	  const a = [...document.querySelectorAll('#no-forms a.hubform-button')].find((a) => a.textContent.includes('Create your first form'));
	  if (!a) return [];
	  const s = getComputedStyle(a);
	  return [s.color, s.backgroundColor];
	})()`)
	if len(first) != 2 || first[0] == first[1] {
		t.Errorf("the empty home's button \"Create your first form\": text and face %q", first)
	}
	shots("home-empty")
	con.do(chromedp.Click(chromedp.CSS(`#no-forms a.hubform-button`)), chromedp.WaitVisible(chromedp.CSS("#in-site")))
	shots("new-form")
	con.do(chromedp.SendKeys(chromedp.CSS("#in-site"), "shop"),
		chromedp.SendKeys(chromedp.CSS("#in-slug"), "order"),
		chromedp.SendKeys(chromedp.CSS("#in-title"), "Order"),
		chromedp.Click(chromedp.CSS(`form[action="/console/sites"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#builder")))
	shots("build-no-fields")
	for _, p := range []struct{ name, path, wait string }{
		{"overview-empty", "/overview", "main h1"},
		{"submissions-empty", "/submissions", "#no-submissions"},
		{"deliveries-empty", "/deliveries", "main h1"},
		{"share-unpublished", "/share", "#not-published"},
	} {
		con.do(chromedp.Navigate(con.base+"/console/forms/shop/order"+p.path), chromedp.WaitVisible(chromedp.CSS(p.wait)))
		shots(p.name)
	}
	for _, p := range []struct{ name, path, wait string }{
		{"members-alone", "/console/members", "#members"},
		{"tokens-none", "/console/tokens", "#token-name"},
		{"audit", "/console/audit", "main h1"},
		{"people", "/console/people", "#person-email"},
	} {
		con.do(chromedp.Navigate(con.base+p.path), chromedp.WaitVisible(chromedp.CSS(p.wait)))
		shots(p.name)
	}
	// Set up: the page is gone.
	con.do(chromedp.Navigate(con.base + "/console/setup"))
	if got := con.text("body"); !strings.Contains(got, "Not found") {
		t.Errorf("the setup page once set up shows %q", got)
	}
}

// TestBrowserConsolePhoneMenu: at 375 pixels the side navigation folds
// behind the bar's Menu button, so that the page's heading shows on the
// first screen; the button opens it, with JavaScript or without, and from
// the keyboard; on a wide screen the navigation shows and the button does
// not.
func TestBrowserConsolePhoneMenu(t *testing.T) {
	if !browsertest.Required() {
		t.Skipf("set %s=1 to run the browser tests", browsertest.RequireEnv)
	}
	h := startHub(t, hubserver.Config{Forms: formsDir(t, contactForm)})
	addUser(t, h, "jane@example.com", "correct horse battery")
	con := newConsoleTab(t, browsertest.New(t), h)
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS("#forms")))
	shown := func(sel string) bool {
		return browsertest.Eval[bool](t, con.tab, 5*time.Second, `(() => {
		  const el = document.querySelector(`+jsString(sel)+`);
		  return !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
		})()`)
	}
	con.do(chromedp.EmulateViewport(375, 667))
	for _, script := range []bool{true, false} {
		con.do(chromedp.Navigate(con.base+"/console/members"), chromedp.WaitVisible(chromedp.CSS("main h1")))
		if shown("#console-nav") || !shown(".console-menu-button") {
			t.Fatalf("at 375 px (scripts %v): navigation shown %v, menu button shown %v", script, shown("#console-nav"), shown(".console-menu-button"))
		}
		wantAboveFold(t, con, fmt.Sprintf("members at 375 px (scripts %v)", script))
		con.screenshot(fmt.Sprintf("firstrun-phone-menu-closed-%v", script))
		con.do(chromedp.Click(chromedp.CSS(".console-menu-button")))
		if !shown(`#console-nav a[href="/console/tokens"]`) {
			t.Errorf("at 375 px (scripts %v), the menu button does not open the navigation", script)
		}
		con.screenshot(fmt.Sprintf("firstrun-phone-menu-open-%v", script))
		con.do(chromedp.Click(chromedp.CSS(".console-menu-button")))
		if shown("#console-nav") {
			t.Errorf("at 375 px (scripts %v), the menu button does not close the navigation", script)
		}
		disableScripts(t, con, true)
	}
	disableScripts(t, con, false)
	// From the keyboard: the checkbox behind the button takes the focus,
	// and the space bar opens the navigation.
	con.do(chromedp.Focus(chromedp.CSS("#console-menu")), chromedp.KeyEvent(" "))
	if !shown("#console-nav") {
		t.Error("the space bar on the menu button does not open the navigation")
	}
	con.do(chromedp.EmulateViewport(1280, 900), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("main h1")))
	if !shown("#console-nav") || shown(".console-menu-button") {
		t.Errorf("at 1280 px: navigation shown %v, menu button shown %v", shown("#console-nav"), shown(".console-menu-button"))
	}
}

// disableScripts turns the execution of scripts in con's tab off, or on
// again.
func disableScripts(t *testing.T, con *consoleTab, disabled bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(con.tab, 5*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: disabled}); err != nil {
		t.Fatal(err)
	}
}

package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// grantClipboard lets the tab's pages write and read the clipboard, as a
// person's browser lets a page write it on a click.
func grantClipboard(t *testing.T, tab context.Context) {
	t.Helper()
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err := chromedp.Call(tab, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name, AllowWithoutSanitization: true}, Setting: cdpbrowser.PermissionSettingGranted})
		if err != nil {
			t.Fatalf("granting %s: %v", name, err)
		}
	}
}

// clipboard returns what the clipboard holds.
func clipboard(t *testing.T, tab context.Context) string {
	t.Helper()
	return browsertest.Eval[string](t, tab, 10*time.Second, `navigator.clipboard.readText()`,
		chromedp.EvalAwaitPromise)
}

// TestBrowserShareCopy copies the Share tab's snippets with their Copy
// buttons: the clipboard then holds the snippet, the button reads
// "Copied" and the live region beside it says so; the empty Deliveries
// tab links to the settings of e-mail and webhooks; and on the Settings tab
// a webhook added by its address shows its secret once, copied alike,
// with the warning of a hub that sends no e-mail. The frame, pasted into
// a page of another site, shows the form there, until the settings list
// the sites that alone may frame it. axe-core checks both
// pages; the screenshots show them at 1280 and 375 pixels, light and dark.
func TestBrowserShareCopy(t *testing.T) {
	b := browsertest.New(t)
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{})
	addUser(t, h, "jane@example.com", "correct horse battery")
	ctx := context.Background()
	now := time.Now()
	if _, err := h.DB.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, now); err != nil {
		t.Fatal(err)
	}
	form := `{"title": "Order a cake", "fields": [{"name": "name", "type": "text", "label": "Your name", "required": true},
		{"name": "email", "type": "email", "label": "Email", "required": true}], "steps": [{"id": "all", "fields": ["name", "email"]}]}`
	n, err := h.DB.SaveFormVersion(ctx, "acme", "cake", []byte(form), "jane@example.com", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.DB.PublishFormVersion(ctx, "acme", "cake", n, now); err != nil {
		t.Fatal(err)
	}

	con := newConsoleTab(t, b, h)
	tab, do := con.tab, con.do
	grantClipboard(t, tab)
	share := con.base + "/console/forms/acme/cake/share"
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS("#forms")),
		chromedp.Navigate(share), chromedp.WaitVisible(chromedp.CSS(`button[data-copy="share-link"]`)))
	link := con.base + "/f/acme/cake"
	if got := con.text("#share-link"); got != link {
		t.Fatalf("the link snippet: %q, want %q", got, link)
	}
	browsertest.WaitFor(t, tab, 10*time.Second, `document.querySelector('#share-qr img').naturalWidth > 0`)
	do(chromedp.Click(chromedp.CSS(`button[data-copy="share-link"]`)))
	browsertest.WaitFor(t, tab, 5*time.Second, `document.querySelector('button[data-copy="share-link"]').textContent === 'Copied'`)
	if got := con.text("#share-link-status"); got != "Copied to the clipboard." {
		t.Errorf("the live region says %q", got)
	}
	if got := clipboard(t, tab); got != link {
		t.Errorf("the clipboard holds %q, want %q", got, link)
	}
	// The frame's button copies the frame, not the link.
	do(chromedp.Click(chromedp.CSS(`button[data-copy="share-iframe"]`)))
	browsertest.WaitFor(t, tab, 5*time.Second, `document.querySelector('button[data-copy="share-iframe"]').textContent === 'Copied'`)
	if got := clipboard(t, tab); !strings.HasPrefix(got, `<iframe src="`+link+`"`) {
		t.Errorf("the clipboard holds %q, want the frame", got)
	}
	// Pasted into a page of another site, the frame shows the form.
	frame := clipboard(t, tab)
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><html lang="en"><title>Cake shop</title><h1>Order</h1>`+frame+`</html>`)
	}))
	defer shop.Close()
	// framed reports whether the shop's page shows the form's page in its
	// frame: the frame is at the form's link, where a refused one is at
	// Chromium's error page, the link only unreachable.
	framed := func() bool {
		t.Helper()
		do(chromedp.Navigate(shop.URL), chromedp.WaitReady(chromedp.CSS("iframe")))
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			tree, err := chromedp.Call(tab, page.GetFrameTree, cdp.Empty{})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range tree.FrameTree.ChildFrames {
				switch {
				case c.Frame.URL == link:
					return true
				case c.Frame.UnreachableURL == link:
					return false
				}
			}
		}
		t.Fatal("the shop's frame never loaded")
		return false
	}
	if !framed() {
		t.Error("the frame pasted into another site's page shows no form")
	}
	do(chromedp.Navigate(share), chromedp.WaitVisible(chromedp.CSS(`button[data-copy="share-link"]`)))

	// The developers' ways are folded, and open on a click.
	if browsertest.Eval[bool](t, tab, 5*time.Second, `document.querySelector('button[data-copy="share-go"]').checkVisibility()`) {
		t.Error("the developers' ways are not folded")
	}
	do(chromedp.Click(chromedp.CSS("#developers > summary")), chromedp.WaitVisible(chromedp.CSS(`button[data-copy="share-go"]`)))
	browsertest.CheckAxe(t, tab, axe, "the share tab")
	do(chromedp.Click(chromedp.CSS("#developers > summary")))
	shots(t, con, "console-share-copy", "")

	// The empty Deliveries tab leads to where they are set.
	do(chromedp.Navigate(con.base+"/console/forms/acme/cake/deliveries"), chromedp.WaitVisible(chromedp.CSS("#no-deliveries a")))
	browsertest.CheckAxe(t, tab, axe, "the empty deliveries page")
	shots(t, con, "console-deliveries-empty", "")
	do(chromedp.Click(chromedp.CSS("#no-deliveries a")), chromedp.WaitVisible(chromedp.CSS("#set-webhook")))
	if got := browsertest.Eval[string](t, tab, 5*time.Second, `location.pathname + location.hash`); got != "/console/forms/acme/cake/settings#delivery" {
		t.Errorf("the empty deliveries' link led to %s", got)
	}

	// A webhook and e-mail to the signed-in owner, from the settings.
	do(chromedp.Click(chromedp.CSS("#set-notify-me")),
		chromedp.SendKeys(chromedp.CSS("#set-webhook"), "https://hooks.example.com/forms/T0K3N"),
		chromedp.Click(chromedp.CSS(".builder-save button")),
		chromedp.WaitVisible(chromedp.CSS(`button[data-copy="new-secret-0"]`)))
	if got := con.text("#no-mail"); !strings.Contains(got, "HUBFORM_SMTP_URL") {
		t.Errorf("the warning of a hub without e-mail says %q", got)
	}
	rec, err := h.DB.FormRecord(ctx, "acme", "cake")
	if err != nil {
		t.Fatal(err)
	}
	v, err := h.DB.FormVersion(ctx, "acme", "cake", rec.LastVersion)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Hub struct {
			Notify   struct{ Email []string }
			Webhooks []struct{ URL, Secret string }
		}
	}
	if err := json.Unmarshal(v.Body, &file); err != nil || len(file.Hub.Webhooks) != 1 || len(file.Hub.Notify.Email) != 1 {
		t.Fatalf("the saved file: %s", v.Body)
	}
	do(chromedp.Click(chromedp.CSS(`button[data-copy="new-secret-0"]`)))
	browsertest.WaitFor(t, tab, 5*time.Second, `document.querySelector('#new-secret-0-status').textContent !== ''`)
	if got := clipboard(t, tab); got != file.Hub.Webhooks[0].Secret {
		t.Errorf("the clipboard holds %q, want the webhook's secret", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the settings after adding a webhook")
	shots(t, con, "console-settings-secret", "")
	shots(t, con, "console-settings-delivery", "#delivery")
	do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#set-webhook")))
	if got := con.text("main"); strings.Contains(got, file.Hub.Webhooks[0].Secret) || strings.Contains(got, "T0K3N") {
		t.Error("the settings show the webhook's secret or token again")
	}

	// Only allowed sites may frame the form, once that version is live.
	do(chromedp.SendKeys(chromedp.CSS("#set-embed"), "https://www.example.com"),
		chromedp.Click(chromedp.CSS(".builder-save button")), chromedp.WaitVisible(chromedp.CSS(`#notice p`)))
	if rec, err = h.DB.FormRecord(ctx, "acme", "cake"); err != nil {
		t.Fatal(err)
	}
	if err := h.DB.PublishFormVersion(ctx, "acme", "cake", rec.LastVersion, time.Now()); err != nil {
		t.Fatal(err)
	}
	if framed() {
		t.Error("a site the form does not list shows it in a frame")
	}
}

// shots saves the tab at 1280 and 375 pixels, light and dark, as
// name-WIDTH-SCHEME, scrolled to the element sel names when set.
func shots(t *testing.T, con *consoleTab, name, sel string) {
	t.Helper()
	for _, width := range []int64{1280, 375} {
		con.do(chromedp.EmulateViewport(width, 900))
		scroll := `window.scrollTo(0, 0)`
		if sel != "" {
			scroll = `document.querySelector(` + jsString(sel) + `).scrollIntoView()`
		}
		browsertest.Eval[bool](t, con.tab, 5*time.Second, `(`+scroll+`, true)`)
		for _, scheme := range []string{"light", "dark"} {
			browsertest.ColorScheme(t, con.tab, scheme)
			con.screenshot(fmt.Sprintf("%s-%d-%s", name, width, scheme))
		}
	}
	browsertest.ColorScheme(t, con.tab, "")
	con.do(chromedp.EmulateViewport(1280, 900))
}

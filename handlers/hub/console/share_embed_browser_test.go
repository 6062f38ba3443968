package console_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserShareEmbedPreview opens the Share tab's preview of the embed
// script: the form in its frame, and the popup and the panel its links
// open, which Esc closes, the focus back on the link; axe-core checks the
// tab and the popup at 1280 and 375 pixels.
func TestBrowserShareEmbedPreview(t *testing.T) {
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{})
	addUser(t, h, "jane@example.com", "correct horse battery")
	ctx := context.Background()
	now := time.Now()
	if _, err := h.DB.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, now); err != nil {
		t.Fatal(err)
	}
	form := `{"title": "Order a cake", "fields": [{"name": "name", "type": "text", "label": "Your name", "required": true}], "steps": [{"id": "all", "fields": ["name"]}]}`
	n, err := h.DB.SaveFormVersion(ctx, "acme", "cake", []byte(form), "jane@example.com", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.DB.PublishFormVersion(ctx, "acme", "cake", n, now); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{1280, 375} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b := browsertest.New(t, browsertest.WindowSize(width, 900))
			con := newConsoleTab(t, b, h)
			tab, do := con.tab, con.do
			con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS("#forms")),
				chromedp.Navigate(con.base+"/console/forms/acme/cake/share"), chromedp.WaitVisible(chromedp.CSS("#embed")))
			// embed.js made the preview's frame, which follows the form's height.
			browsertest.WaitFor(t, tab, 10*time.Second, `(() => { try { const f = document.querySelector('.console-embed-preview iframe'); return f.src.includes('origin=') && !!f.contentDocument.querySelector('main.hosted-frame .hubform') && Math.abs(f.getBoundingClientRect().height - f.contentDocument.documentElement.getBoundingClientRect().height) <= 2 } catch { return false } })()`)
			browsertest.WaitFor(t, tab, 10*time.Second, `!!window.hubformEmbed && document.querySelector('#embed [data-hubform-open]').hasAttribute('data-hubform-ready')`)
			browsertest.CheckAxe(t, tab, axe, "the Share tab")
			browsertest.Eval[bool](t, tab, 5*time.Second, `document.querySelector('#embed-preview-heading').scrollIntoView(), true`)
			con.screenshot(fmt.Sprintf("share-embed-%d", width))
			do(chromedp.Click(chromedp.CSS(`#embed a[data-hubform-open]:not([data-hubform-layout])`)))
			browsertest.WaitFor(t, tab, 10*time.Second, `(() => { const f = document.querySelector('dialog[open] iframe'); try { return !!f.contentDocument.querySelector('.hubform') } catch { return false } })()`)
			if p := browsertest.Eval[string](t, tab, 5*time.Second, `location.pathname`); p != "/console/forms/acme/cake/share" {
				t.Errorf("the popup's link went to %s", p)
			}
			browsertest.CheckAxe(t, tab, axe, "the popup of the preview")
			con.screenshot(fmt.Sprintf("share-embed-popup-%d", width))
			do(chromedp.KeyEvent(kb.Escape))
			browsertest.WaitFor(t, tab, 5*time.Second, `!document.querySelector('dialog') && document.activeElement.matches('#embed a[data-hubform-open]:not([data-hubform-layout])')`)
			do(chromedp.Click(chromedp.CSS(`#embed a[data-hubform-layout="slide"]`)))
			browsertest.WaitFor(t, tab, 10*time.Second, `!!document.querySelector('dialog[open] iframe')`)
			do(chromedp.KeyEvent(kb.Escape))
			browsertest.WaitFor(t, tab, 5*time.Second, `!document.querySelector('dialog') && document.activeElement.matches('#embed a[data-hubform-layout="slide"]')`)
		})
	}
}

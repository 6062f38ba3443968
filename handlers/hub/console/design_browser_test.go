package console_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserDesign picks the form's accent in the Design tab's picker
// and sees the preview's button take it before saving; a text colour
// that does not read well is refused with the nearest that does, which
// one click saves, and the preview shows it. axe checks the
// tab, with the refusal shown.
func TestBrowserDesign(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	con := storedFormTab(t, browser, "party", partyForm)
	tab, base, do, eval, waitFor := con.tab, con.base, con.do, con.eval, con.waitIdle
	h, ctx := con.hub, t.Context()
	do(chromedp.Navigate(base+"/console/forms/acme/party/design"), chromedp.WaitVisible(chromedp.CSS("#design-accent")))
	waitFor(`document.querySelector('#design-accent + input[type=color]')`)
	shots(t, con, "console-design", "")

	first, err := h.DB.FormRecord(ctx, "acme", "party")
	if err != nil {
		t.Fatal(err)
	}
	// The picker sets the accent; the preview follows, nothing saved yet.
	eval(`(() => { const p = document.querySelector('#design-accent + input[type=color]'); p.value = '#7c3aed'; p.dispatchEvent(new Event('input', {bubbles: true})); return 'ok' })()`)
	waitFor(`document.querySelector('#design-accent').value === '#7c3aed' && (document.querySelector('#preview button[type=submit]') && getComputedStyle(document.querySelector('#preview button[type=submit]')).backgroundColor) === 'rgb(124, 58, 237)'`)
	do(chromedp.Click(chromedp.CSS(`label.design-buttons-outline`)))
	waitFor(`(document.querySelector('#preview button[type=submit]') && getComputedStyle(document.querySelector('#preview button[type=submit]')).backgroundColor) === 'rgba(0, 0, 0, 0)'`)
	if v, err := h.DB.FormRecord(ctx, "acme", "party"); err != nil || v.Revision != first.Revision {
		t.Fatalf("the preview saved: revision %d, %v", v.Revision, err)
	}

	// A text colour too light: refused, and the nearest that reads taken.
	do(chromedp.SetValue(chromedp.CSS("#design-text"), "#9ca3af"),
		chromedp.Click(chromedp.CSS(`#workspace button[type=submit].hubform-button--primary`)))
	waitFor(`document.querySelector('#design-text-error')`)
	if got := eval(`document.querySelector('#design-text-error').textContent`); got != "The text #9ca3af on the background #ffffff has a contrast of 2.53:1; text needs 4.5:1: #6e7788 is the nearest text colour that passes." {
		t.Errorf("the refusal says %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the Design tab with a colour refused")
	shots(t, con, "console-design-refused", "#design-text")
	do(chromedp.Click(chromedp.CSS(`button[name=use][value="text=#6e7788"]`)))
	waitFor(`document.querySelector('#notice p') && document.querySelector('#design-text').value === '#6e7788'`)
	if v, err := h.DB.FormRecord(ctx, "acme", "party"); err != nil || v.Revision == first.Revision {
		t.Fatalf("the colour proposed was not saved: revision %d, %v", v.Revision, err)
	}
	if got := eval(`getComputedStyle(document.querySelector('#preview label')).color`); got != "rgb(110, 119, 136)" {
		t.Errorf("the preview's labels are %s, want the colour saved", got)
	}
	shots(t, con, "console-design-saved", "")
}

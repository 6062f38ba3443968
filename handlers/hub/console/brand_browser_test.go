package console_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserBrand picks the workspace's accent and font on the brand's
// page, sees the sample form take them before saving, saves, and finds
// them, with a logo uploaded, on the hub's page of a published form that
// sets its corners alone. axe checks the brand's page.
func TestBrowserBrand(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	con := storedFormTab(t, browser, "party", `{"title": "Plan a party", "fields": [{"name": "guests", "type": "number", "label": "Guests"}],
		"steps": [{"id": "all", "fields": ["guests"]}], "theme": {"radius": "none"}, "hub": {"minSeconds": 0}}`)
	h, ctx := con.hub, t.Context()
	if err := h.DB.PublishFormVersion(ctx, "acme", "party", 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	button := `getComputedStyle(document.querySelector('#preview button[type=submit]'))`
	con.do(chromedp.Navigate(con.base+"/console/brand"), chromedp.WaitVisible(chromedp.CSS("#design-accent")))
	con.waitIdle(`document.querySelector('#design-accent + input[type=color]')`)
	con.eval(`(() => { const p = document.querySelector('#design-accent + input[type=color]'); p.value = '#7c3aed'; p.dispatchEvent(new Event('input', {bubbles: true})); return 'ok' })()`)
	con.waitIdle(button + `.backgroundColor === 'rgb(124, 58, 237)'`)
	con.do(chromedp.Click(chromedp.CSS(`label.design-font-serif`)))
	con.waitIdle(button + `.fontFamily.startsWith('Charter')`)
	if b, err := h.DB.Brand(ctx, accounts.DefaultWorkspace); err != nil || b != nil {
		t.Fatalf("the preview saved the brand: %s, %v", b, err)
	}
	browsertest.CheckAxe(t, con.tab, axe, "the brand's page")
	shots(t, con, "console-brand", "")
	// A logo uploaded with the save.
	logo := filepath.Join(t.TempDir(), "logo.png")
	if err := os.WriteFile(logo, pngOf(t, 120, 40), 0o600); err != nil {
		t.Fatal(err)
	}
	con.do(chromedp.SetUploadFiles(chromedp.ID("design-logo-file"), []string{logo}), chromedp.SendKeys(chromedp.ID("design-logo-alt"), "Acme"))
	// The hub reads the form's brand, none yet, just before the save:
	// the save has it read again at once, not after formsource.BrandTTL.
	if res, err := http.Get(con.base + "/v1/acme/party.json"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the form's schema: %v, %v", res, err)
	} else {
		res.Body.Close()
	}
	con.do(chromedp.Click(chromedp.CSS(`#workspace button[type=submit].hubform-button--primary`)), chromedp.WaitVisible(chromedp.CSS(`#notice p`)))
	b, err := h.DB.Brand(ctx, accounts.DefaultWorkspace)
	if err != nil || !regexp.MustCompile(`^\{"accent":"#7c3aed","font":"serif","logo":\{"src":"`+regexp.QuoteMeta(con.base)+`/images/[0-9a-f]{32}\.png","alt":"Acme"\}\}$`).Match(b) {
		t.Fatalf("the brand saved: %s, %v", b, err)
	}

	// The form's page has the brand's accent and font, and its own corners.
	con.do(chromedp.Navigate(con.base+"/f/acme/party"), chromedp.WaitVisible(chromedp.CSS(`[data-hubform-submit]`)))
	submit := `getComputedStyle(document.querySelector('[data-hubform-submit]'))`
	if got := con.eval(submit + `.backgroundColor + ' ' + ` + submit + `.borderTopLeftRadius + ' ' + ` + submit + `.fontFamily.split(',')[0]`); got != "rgb(124, 58, 237) 0px Charter" {
		t.Errorf("the form's button on the hub's page: %s, want the brand's accent and font, the form's square corners", got)
	}
	// The logo comes from the hub's storage, which its page's policy lets in.
	con.waitIdle(`document.querySelector('img.hubform-logo').complete`)
	if got := con.eval(`String(document.querySelector('img.hubform-logo').naturalWidth) + ' ' + document.querySelector('img.hubform-logo').alt`); got != "120 Acme" {
		t.Errorf("the logo on the hub's page: %s, want it shown, 120 pixels wide", got)
	}
	shots(t, con, "hosted-branded", "")
}

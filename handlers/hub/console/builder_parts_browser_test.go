package console_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserBuilderParts adds a matrix and a group from the palette and
// edits their parts in their panels, the preview following each save: the
// matrix's rows and several answers per row, the group's Add button and
// its questions, one relabelled, one added and moved up. The page is never
// loaded again.
func TestBrowserBuilderParts(t *testing.T) {
	p := newInPlace(t)
	axe := browsertest.Axe(t)
	do := p.do
	p.eval(`window.notReloaded = true; 'ok'`)
	save := func(i string) {
		do(chromedp.Click(chromedp.CSS(`form[action$="/fields/` + i + `"] button.hubform-button--primary`)))
		p.saved()
	}

	// A matrix from the palette, its rows written one a line.
	do(chromedp.Focus(chromedp.CSS("#builder-slash")), chromedp.KeyEvent("/matrix"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	do(chromedp.Click(chromedp.CSS(`.builder-card[data-builder-index="0"]`)), chromedp.WaitVisible(chromedp.CSS("#f0-rows")))
	if got := p.eval(`document.querySelector('#f0-rows').value + '|' + document.querySelector('#f0-columns').value`); got != "Row 1\nRow 2\n|Column 1\nColumn 2\nColumn 3\n" {
		t.Errorf("the new matrix's rows and columns: %q", got)
	}
	do(chromedp.SetValue(chromedp.CSS("#f0-rows"), "Speed\nPrice\nService"), chromedp.Click(chromedp.CSS("#f0-multiple")))
	save("0")
	if got := p.eval(`[...document.querySelectorAll('#preview .builder-card[data-builder-index="0"] tbody th')].map((th) => th.textContent.trim()).join()`); got != "Speed,Price,Service" {
		t.Errorf("the preview's rows: %q", got)
	}
	if got := p.eval(`document.querySelectorAll('#preview .builder-card[data-builder-index="0"] tbody input[type=checkbox]').length + ''`); got != "9" {
		t.Errorf("the preview shows %s boxes, want 3 rows of 3", got)
	}
	if s := p.schema(); len(s.Fields[0].Rows) != 3 || s.Fields[0].Rows[2].Value != "Service" || !s.Fields[0].Multiple {
		t.Errorf("the matrix saved: %+v", s.Fields[0])
	}

	// A group from the palette: its Add button's label, its question
	// relabelled, and a question added, then moved up.
	do(chromedp.Focus(chromedp.CSS("#builder-slash")), chromedp.KeyEvent("/repeated"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	do(chromedp.Click(chromedp.CSS(`.builder-card[data-builder-index="1"]`)), chromedp.WaitVisible(chromedp.CSS("#f1-addlabel")),
		chromedp.SetValue(chromedp.CSS("#f1-addlabel"), "Add a guest"),
		chromedp.SetValue(chromedp.CSS("#f1-q0-label"), "Guest's name"))
	save("1")
	if got := p.eval(`document.querySelector('#preview .builder-card[data-builder-index="1"] .hubform-group-add').textContent.trim() + '|' + document.querySelector('#preview .builder-card[data-builder-index="1"] .hubform-group-item label').textContent.trim()`); !strings.HasPrefix(got, "Add a guest|Guest's name") {
		t.Errorf("the preview's group: %q", got)
	}
	do(chromedp.SetValue(chromedp.CSS("#f1-newq"), "Email"), chromedp.SetValue(chromedp.CSS("#f1-newq-type"), "email"),
		chromedp.Click(chromedp.CSS(`#field-1 button[name="questionAction"][value="add"]`)))
	p.saved()
	if got := p.eval(`document.querySelectorAll('#preview .builder-card[data-builder-index="1"] .hubform-group-item input[type=email]').length + ''`); got != "1" {
		t.Errorf("the preview shows %s e-mail inputs in the group", got)
	}
	browsertest.WaitFor(t, p.tab, 5*time.Second, `document.getElementById('field-1').open`)
	do(chromedp.Click(chromedp.CSS(`#field-1 button[name="questionAction"][value="up:1"]`)))
	p.saved()
	// The focus follows the question moved, in the panel swapped in.
	browsertest.WaitFor(t, p.tab, 5*time.Second, `document.activeElement?.id === 'f1-q0-label'`)
	s := p.schema()
	if g := s.Fields[1]; len(g.Fields) != 2 || g.Fields[0].Name != "email" || g.Fields[1].Label != "Guest's name" || g.AddLabel != "Add a guest" {
		t.Errorf("the group saved: %+v", g)
	}
	if got := p.eval(`[...document.querySelectorAll('#preview .builder-card[data-builder-index="1"] .hubform-group-item label')].map((l) => l.textContent.trim()).join('|')`); !strings.HasPrefix(got, "Email") {
		t.Errorf("the preview's questions after the move: %q", got)
	}
	// An address and a signature, whose controls are named by part, are
	// cards of the preview too.
	for _, kind := range []string{"address", "signature"} {
		do(chromedp.Focus(chromedp.CSS("#builder-slash")), chromedp.KeyEvent("/"+kind), chromedp.KeyEvent(kb.Enter))
		p.saved()
		if got := p.eval(`document.querySelectorAll('#preview .builder-card[data-builder-name="` + kind + `"]').length + ''`); got != "1" {
			t.Errorf("the preview shows %s cards of the %s", got, kind)
		}
	}
	if p.eval(`String(window.notReloaded)`) != "true" {
		t.Error("the page was loaded again")
	}

	// The panels of the matrix and the group, as owners see them.
	panel := func(i, name string) {
		p.eval(`document.querySelectorAll('[data-builder-fields] > li > details').forEach((d) => { d.open = false }); 'ok'`)
		do(chromedp.Click(chromedp.CSS(`.builder-card[data-builder-index="` + i + `"]`)))
		browsertest.WaitFor(t, p.tab, 5*time.Second, `document.getElementById('field-`+i+`').open && getComputedStyle(document.querySelector('.builder-card[data-builder-index="`+i+`"] > .builder-tools')).opacity === '1'`)
		p.eval(`window.scrollTo(0, document.querySelector('[data-builder-fields] > li[data-index="` + i + `"]').getBoundingClientRect().top + window.scrollY - 80); 'ok'`)
		for _, scheme := range []string{"light", "dark"} {
			browsertest.ColorScheme(t, p.tab, scheme)
			browsertest.CheckAxe(t, p.tab, axe, "the panel of the "+name+" in the "+scheme+" scheme")
			p.screenshot("console-builder-" + name + "-" + scheme)
			if i == "1" {
				p.eval(`document.querySelector('#field-1 .builder-questions').scrollIntoView({block: 'start'}); 'ok'`)
				p.screenshot("console-builder-" + name + "-questions-" + scheme)
			}
		}
	}
	panel("0", "matrix")
	panel("1", "group")
	do(chromedp.EmulateViewport(375, 800))
	panel("0", "matrix-phone")
	panel("1", "group-phone")
	if got := p.eval(`String(document.documentElement.scrollWidth - document.documentElement.clientWidth)`); got != "0" {
		t.Errorf("375 pixels wide, the builder scrolls sideways by %s pixels", got)
	}
	browsertest.ColorScheme(t, p.tab, "")
}

// TestBrowserBuilderAddressCountries picks an address's countries in its
// panel: the filter finds a country by name or code, two are ticked and
// saved as their codes, and the form published offers those two alone.
// axe-core checks the panel at 1280 and 375 pixels, light and dark.
func TestBrowserBuilderAddressCountries(t *testing.T) {
	p := newInPlace(t)
	axe := browsertest.Axe(t)
	do := p.do
	do(chromedp.Focus(chromedp.CSS("#builder-slash")), chromedp.KeyEvent("/address"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	do(chromedp.Click(chromedp.CSS(`.builder-card[data-builder-index="0"]`)), chromedp.WaitVisible(chromedp.CSS("#f0-countries-filter")))
	clear := func() {
		p.eval(`(() => { const b = document.getElementById('f0-countries-filter'); b.value = ''; b.dispatchEvent(new Event('input', {bubbles: true})); return 'ok'; })()`)
	}
	shown := func() string {
		return p.eval(`[...document.querySelectorAll('#f0-countries-list li:not([hidden])')].map((li) => li.dataset.code).join()`)
	}
	// Enter in the filter does not save the field.
	do(chromedp.SendKeys(chromedp.CSS("#f0-countries-filter"), "germ"), chromedp.KeyEvent(kb.Enter))
	if got := shown(); got != "DE" {
		t.Errorf("the filter 'germ' shows %q, want DE", got)
	}
	if got := p.text("#f0-countries-found"); got != "1 country matches." {
		t.Errorf("the filter 'germ' says %q", got)
	}
	do(chromedp.Click(chromedp.CSS(`#f0-countries-list input[value="DE"]`)))
	// A code finds its country, accents aside a name.
	clear()
	do(chromedp.SendKeys(chromedp.CSS("#f0-countries-filter"), "fr"))
	if got := shown(); !strings.Contains(got, "FR") || strings.Contains(got, "DE") {
		t.Errorf("the filter 'fr' shows %q, want France and not Germany", got)
	}
	clear()
	do(chromedp.SendKeys(chromedp.CSS("#f0-countries-filter"), "atlantis"))
	if got := shown() + "|" + p.text("#f0-countries-found"); got != "|No country matches." {
		t.Errorf("the filter 'atlantis' shows %q", got)
	}
	clear()
	do(chromedp.SendKeys(chromedp.CSS("#f0-countries-filter"), "aland is"))
	if got := shown(); got != "AX" {
		t.Errorf("the filter 'aland is' shows %q, want Åland Islands", got)
	}
	clear()
	do(chromedp.SendKeys(chromedp.CSS("#f0-countries-filter"), "fran"),
		chromedp.Click(chromedp.CSS(`#f0-countries-list input[value="FR"]`)),
		chromedp.Click(chromedp.CSS(`form[action$="/fields/0"] button.hubform-button--primary`)))
	p.saved()
	if got := strings.Join(p.schema().Fields[0].Countries, " "); got != "FR DE" {
		t.Errorf("the countries saved: %q, want FR DE", got)
	}
	// The panel as owners see it, the countries ticked first.
	browsertest.WaitFor(t, p.tab, 5*time.Second, `document.getElementById('field-0').open`)
	if got := p.eval(`[...document.querySelectorAll('#f0-countries-list input')].slice(0, 3).map((i) => i.value + (i.checked ? '+' : '')).join()`); got != "FR+,DE+,AF" {
		t.Errorf("the list after the save starts %q, want France and Germany ticked", got)
	}
	for _, width := range []int64{1280, 375} {
		do(chromedp.EmulateViewport(width, 900))
		p.eval(`window.scrollTo(0, document.getElementById('f0-countries').getBoundingClientRect().top + window.scrollY - 80); 'ok'`)
		for _, scheme := range []string{"light", "dark"} {
			browsertest.ColorScheme(t, p.tab, scheme)
			browsertest.CheckAxe(t, p.tab, axe, fmt.Sprintf("the address's countries %d pixels wide in the %s scheme", width, scheme))
			p.screenshot(fmt.Sprintf("console-builder-countries-%d-%s", width, scheme))
		}
		if got := p.eval(`String(document.documentElement.scrollWidth - document.documentElement.clientWidth)`); got != "0" {
			t.Errorf("%d pixels wide, the builder scrolls sideways by %s pixels", width, got)
		}
	}
	browsertest.ColorScheme(t, p.tab, "")
	do(chromedp.EmulateViewport(1280, 900))

	// Published, the form offers France and Germany alone.
	do(chromedp.Click(chromedp.CSS("#publish summary")), chromedp.WaitVisible(chromedp.CSS("#publish-changes")),
		chromedp.Click(chromedp.CSS(`#publish form button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("#view-live")),
		chromedp.Navigate(p.base+"/f/shop/order"), chromedp.WaitVisible(chromedp.CSS(`select[name$=".country"]`)))
	if got := p.eval(`[...document.querySelector('select[name$=".country"]').options].map((o) => o.value).filter(Boolean).join()`); got != "FR,DE" {
		t.Errorf("the published form offers %q, want FR,DE", got)
	}
}

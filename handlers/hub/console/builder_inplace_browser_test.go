package console_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/static/browsertest"
)

// inPlace is a console tab on the Build tab of shop/order, a form made
// empty by the sites page.
type inPlace struct {
	*consoleTab
	t *testing.T
}

func newInPlace(t *testing.T) *inPlace {
	browser := browsertest.New(t)
	h := startHub(t, hubserver.Config{Forms: formsDir(t, contactForm)})
	addUser(t, h, "jane@example.com", "correct horse battery")
	con := newConsoleTab(t, browser, h)
	con.do(chromedp.EmulateViewport(1280, 900))
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/sites"]`)))
	con.do(chromedp.Navigate(con.base+"/console/sites"), chromedp.WaitVisible(chromedp.CSS("#in-site")),
		chromedp.SendKeys(chromedp.CSS("#in-site"), "shop"), chromedp.SendKeys(chromedp.CSS("#in-slug"), "order"),
		chromedp.SendKeys(chromedp.CSS("#in-title"), "Order a T-shirt"),
		chromedp.Click(chromedp.CSS(`form[action="/console/sites"] button`)), chromedp.WaitVisible(chromedp.CSS("#builder-slash")))
	return &inPlace{consoleTab: con, t: t}
}

func (p *inPlace) eval(js string) string {
	p.t.Helper()
	return browsertest.Eval[string](p.t, p.tab, 10*time.Second, js)
}

// saved waits until version n is the newest and htmx is done with it.
func (p *inPlace) saved(n int) {
	p.t.Helper()
	browsertest.WaitFor(p.t, p.tab, 10*time.Second, fmt.Sprintf(`document.querySelector('#builder')?.dataset.base === '%d' && document.querySelector('#preview[data-builder-ready]') && %s`, n, browsertest.HTMXIdle))
}

// schema is the newest version's file, as the page holds it.
func (p *inPlace) schema() hubclient.Schema {
	p.t.Helper()
	var s hubclient.Schema
	if err := json.Unmarshal([]byte(p.eval(`document.querySelector('#editor-state #body').value`)), &s); err != nil {
		p.t.Fatal(err)
	}
	return s
}

// focus focuses the element sel finds, as a click or Tab would: CDP's
// DOM.focus refuses an empty text edited in place.
func (p *inPlace) focus(sel string) {
	p.t.Helper()
	p.eval(`document.querySelector(` + jsString(sel) + `).focus(); 'ok'`)
}

// focused describes the focused element: its part and index.
func (p *inPlace) focused() string {
	p.t.Helper()
	return p.eval(`(() => { const a = document.activeElement; return a.matches('.builder-card') ? 'card ' + a.dataset.builderIndex : a.matches('.builder-text') ? (a.dataset.part + ' ' + (a.dataset.index ?? a.dataset.step)) : a.tagName.toLowerCase() + '#' + a.id; })()`)
}

// TestBrowserBuilderInPlace builds a form in the preview alone, as an
// owner with a keyboard and a pointer does: fields added with "/" and
// "+", texts typed where they show, a field moved with Alt+ArrowUp, a
// page break; the page is never loaded again, and the version saved
// last holds it all.
func TestBrowserBuilderInPlace(t *testing.T) {
	p := newInPlace(t)
	axe := browsertest.Axe(t)
	do := p.do
	p.eval(`window.notReloaded = true; 'ok'`)

	// "/" on the last line: the palette, filtered as typed; Enter adds an
	// Email field, whose label is then chosen to be typed over.
	do(chromedp.Focus(chromedp.CSS("#builder-slash")), chromedp.KeyEvent("/ema"))
	if got := p.eval(`[...document.querySelectorAll('.builder-palette [role=option]:not([hidden])')].map((o) => o.dataset.type).join()`); got != "email" {
		t.Errorf("palette filtered by 'ema': %s", got)
	}
	browsertest.CheckAxe(t, p.tab, axe, "the palette")
	do(chromedp.KeyEvent(kb.Enter))
	p.saved(2)
	if got := p.focused(); got != "label 0" {
		t.Errorf("after adding a field the focus is on %q", got)
	}
	do(chromedp.KeyEvent("Your e-mail"), chromedp.KeyEvent(kb.Enter))
	p.saved(3)
	if got := p.focused(); got != "card 0" {
		t.Errorf("after Enter on a label the focus is on %q", got)
	}

	// "+" before it: a short answer first.
	do(chromedp.Click(chromedp.CSS(`.builder-plus[data-at="0"]`)))
	browsertest.WaitFor(t, p.tab, 5*time.Second, `document.activeElement.matches('.builder-palette-filter')`)
	do(chromedp.KeyEvent("short"), chromedp.KeyEvent(kb.Enter))
	p.saved(4)
	do(chromedp.KeyEvent("Your name"), chromedp.KeyEvent(kb.Enter))
	p.saved(5)

	// "/" on a chosen field adds after it: a multiple choice after the name,
	// chosen with the arrows.
	do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="0"]`)), chromedp.KeyEvent("/"))
	browsertest.WaitFor(t, p.tab, 5*time.Second, `document.activeElement.matches('.builder-palette-filter')`)
	do(chromedp.KeyEvent("ch"))
	if got := p.eval(`[...document.querySelectorAll('.builder-palette [role=option]:not([hidden])')].map((o) => o.dataset.type).join()`); got != "radio,select,checkboxes,checkbox" {
		t.Errorf("palette filtered by 'ch': %s", got)
	}
	do(chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter))
	p.saved(6)
	do(chromedp.KeyEvent("Size"), chromedp.KeyEvent(kb.Enter))
	p.saved(7)

	// Its option and the name's help, typed where they show.
	do(chromedp.Click(chromedp.CSS(`.builder-text[data-index="1"][data-part="option"][data-option="0"]`)))
	do(chromedp.KeyEvent(kb.End))
	p.eval(`(() => { const el = document.activeElement; el.textContent = ''; return 'ok'; })()`)
	do(chromedp.KeyEvent("Small"), chromedp.KeyEvent(kb.Enter))
	p.saved(8)
	p.focus(`.builder-text[data-index="1"][data-part="option"][data-option="1"]`)
	do(chromedp.KeyEvent("Large"), chromedp.KeyEvent(kb.Enter))
	p.saved(9)
	// An empty help shows on the chosen field.
	do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="0"]`)))
	p.focus(`.builder-text[data-index="0"][data-part="help"]`)
	do(chromedp.KeyEvent("As on your card"), chromedp.KeyEvent(kb.Tab))
	p.saved(10)
	// Escape puts a text back and saves nothing.
	p.focus(`.builder-text[data-index="0"][data-part="label"]`)
	do(chromedp.KeyEvent("Oops"), chromedp.KeyEvent(kb.Escape))
	if got := p.eval(`document.querySelector('.builder-text[data-index="0"][data-part="label"]').textContent`); got != "Your name" {
		t.Errorf("after Escape the label shows %q", got)
	}

	// Alt+ArrowUp on the e-mail's card moves it before the size.
	do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="2"]`)), chromedp.KeyEvent(kb.ArrowUp, chromedp.KeyModifiers(chromedp.ModifierAlt)))
	p.saved(11)
	if got := p.focused(); got != "card 1" {
		t.Errorf("after Alt+ArrowUp the focus is on %q", got)
	}

	// A new page after the e-mail, titled where it shows.
	do(chromedp.Click(chromedp.CSS(`.builder-newpage[data-index="1"]`)))
	p.saved(12)
	do(chromedp.Click(chromedp.CSS(`.builder-text[data-part="title"][data-step="1"]`)), chromedp.KeyEvent("Your T-shirt"), chromedp.KeyEvent(kb.Enter))
	p.saved(13)
	if got := p.eval(`[...document.querySelectorAll('#preview fieldset.hubform-step')].map((s) => s.checkVisibility() ? 'shown' : 'hidden').join()`); got != "shown,shown" {
		t.Errorf("pages in the preview: %s", got)
	}

	s := p.schema()
	type field struct{ Name, Type, Label, Help string }
	var got []field
	for _, f := range s.Fields {
		got = append(got, field{f.Name, f.Type, f.Label, f.Help})
	}
	want := []field{{"your_name", "text", "Your name", "As on your card"}, {"your_e_mail", "email", "Your e-mail", ""}, {"size", "radio", "Size", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields:\n got %+v\nwant %+v", got, want)
	}
	if opts := s.Field("size").Options; len(opts) != 2 || opts[0].Label != "Small" || opts[1].Label != "Large" {
		t.Errorf("size's options: %+v", opts)
	}
	if got := stepsOf(s); !strings.HasPrefix(got, "step-1:your_name,your_e_mail|") || !strings.HasSuffix(got, " Your T-shirt:size") {
		t.Errorf("steps: %s", got)
	}
	if p.eval(`String(window.notReloaded)`) != "true" {
		t.Error("the page was loaded again")
	}

	// As owners see it, in both schemes, wide and on a phone.
	do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="0"]`)))
	p.eval(`window.scrollTo(0, 0); 'ok'`)
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, p.tab, scheme)
		browsertest.CheckAxe(t, p.tab, axe, "the in-place editor in the "+scheme+" scheme")
		p.screenshot("console-builder-inplace-" + scheme)
	}
	do(chromedp.EmulateViewport(375, 800))
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, p.tab, scheme)
		if got := p.eval(`String(document.documentElement.scrollWidth - document.documentElement.clientWidth)`); got != "0" {
			t.Errorf("375 pixels wide in the %s scheme, the builder scrolls sideways by %s pixels", scheme, got)
		}
		browsertest.CheckAxe(t, p.tab, axe, "the in-place editor 375 pixels wide in the "+scheme+" scheme")
		p.eval(`document.querySelector('.builder-preview').scrollIntoView(); 'ok'`)
		p.screenshot("console-builder-inplace-phone-" + scheme)
	}
	browsertest.ColorScheme(t, p.tab, "")
	_ = os.Getenv
}

package console_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
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
	// version is the newest version the page shows.
	version int
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
	return &inPlace{consoleTab: con, t: t, version: 1}
}

func (p *inPlace) eval(js string) string {
	p.t.Helper()
	return browsertest.Eval[string](p.t, p.tab, 10*time.Second, js)
}

// saved waits until the next version is the newest, shown in the
// editor, and htmx is done with it.
func (p *inPlace) saved() {
	p.t.Helper()
	p.version++
	browsertest.WaitFor(p.t, p.tab, 10*time.Second, fmt.Sprintf(`document.querySelector('#builder')?.dataset.base === '%d' && document.querySelector('#preview[data-builder-ready]') && %s`, p.version, browsertest.HTMXIdle))
}

// drag drops the card of the field at index from on the top or bottom
// half of the card at index to, by its handle, as a pointer does.
func (p *inPlace) drag(from, to int, bottom bool) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`(() => {
	  const src = document.querySelector('.builder-card[data-builder-index="%d"] .builder-handle');
	  const dst = document.querySelector('.builder-card[data-builder-index="%d"]');
	  const dt = new DataTransfer();
	  src.dispatchEvent(new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt}));
	  const box = dst.getBoundingClientRect();
	  const at = {bubbles: true, cancelable: true, dataTransfer: dt, clientX: box.left + 10, clientY: %t ? box.bottom - 2 : box.top + 2};
	  dst.dispatchEvent(new DragEvent('dragover', at));
	  dst.dispatchEvent(new DragEvent('drop', at));
	  src.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: dt}));
	  return 'ok';
	})()`, from, to, bottom))
}

// order is the names of the preview's cards, in the order shown.
func (p *inPlace) order() string {
	p.t.Helper()
	return p.eval(`[...document.querySelectorAll('#preview .builder-card')].map((c) => c.dataset.builderName).join()`)
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
	p.saved()
	if got := p.focused(); got != "label 0" {
		t.Errorf("after adding a field the focus is on %q", got)
	}
	do(chromedp.KeyEvent("Your e-mail"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	if got := p.focused(); got != "card 0" {
		t.Errorf("after Enter on a label the focus is on %q", got)
	}

	// "+" before it: a short answer first.
	do(chromedp.Click(chromedp.CSS(`.builder-plus[data-at="0"]`)))
	browsertest.WaitFor(t, p.tab, 5*time.Second, `document.activeElement.matches('.builder-palette-filter')`)
	do(chromedp.KeyEvent("short"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	do(chromedp.KeyEvent("Your name"), chromedp.KeyEvent(kb.Enter))
	p.saved()

	// "/" on a chosen field adds after it: a multiple choice after the name,
	// chosen with the arrows.
	do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="0"]`)), chromedp.KeyEvent("/"))
	browsertest.WaitFor(t, p.tab, 5*time.Second, `document.activeElement.matches('.builder-palette-filter')`)
	do(chromedp.KeyEvent("cho"))
	if got := p.eval(`[...document.querySelectorAll('.builder-palette [role=option]:not([hidden])')].map((o) => o.dataset.type).join()`); got != "radio,select,checkboxes" {
		t.Errorf("palette filtered by 'cho': %s", got)
	}
	do(chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.Enter))
	p.saved()
	do(chromedp.KeyEvent("Size"), chromedp.KeyEvent(kb.Enter))
	p.saved()

	// Its option and the name's help, typed where they show.
	do(chromedp.Click(chromedp.CSS(`.builder-text[data-index="1"][data-part="option"][data-option="0"]`)))
	do(chromedp.KeyEvent(kb.End))
	p.eval(`(() => { const el = document.activeElement; el.textContent = ''; return 'ok'; })()`)
	do(chromedp.KeyEvent("Small"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	p.focus(`.builder-text[data-index="1"][data-part="option"][data-option="1"]`)
	do(chromedp.KeyEvent("Large"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	// An empty help shows on the chosen field.
	do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="0"]`)))
	p.focus(`.builder-text[data-index="0"][data-part="help"]`)
	do(chromedp.KeyEvent("As on your card"), chromedp.KeyEvent(kb.Tab))
	p.saved()
	// Escape puts a text back and saves nothing.
	p.focus(`.builder-text[data-index="0"][data-part="label"]`)
	do(chromedp.KeyEvent("Oops"), chromedp.KeyEvent(kb.Escape))
	if got := p.eval(`document.querySelector('.builder-text[data-index="0"][data-part="label"]').textContent`); got != "Your name" {
		t.Errorf("after Escape the label shows %q", got)
	}

	// Alt+ArrowUp on the e-mail's card moves it before the size.
	do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="2"]`)), chromedp.KeyEvent(kb.ArrowUp, chromedp.KeyModifiers(chromedp.ModifierAlt)))
	p.saved()
	if got := p.focused(); got != "card 1" {
		t.Errorf("after Alt+ArrowUp the focus is on %q", got)
	}

	if got := p.order(); got != "your_name,your_e_mail,size" {
		t.Errorf("after Alt+ArrowUp: %s", got)
	}
	// Dragged by its handle onto the top half of the e-mail, the size goes
	// before it; onto its bottom half, after it.
	p.drag(2, 1, false)
	p.saved()
	if got := p.order(); got != "your_name,size,your_e_mail" {
		t.Errorf("after dragging size onto the e-mail's top: %s", got)
	}
	p.drag(1, 2, true)
	p.saved()
	if got := p.order(); got != "your_name,your_e_mail,size" {
		t.Errorf("after dragging size onto the e-mail's bottom: %s", got)
	}

	// The e-mail made required from its card.
	do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="1"]`)), chromedp.Click(chromedp.CSS(`.builder-required[data-index="1"]`)))
	p.saved()
	if got := p.eval(`document.querySelector('.builder-required[data-index="1"]').getAttribute('aria-pressed') + ' ' + document.activeElement.dataset.builderIndex`); got != "true 1" {
		t.Errorf("after Required on the e-mail: pressed, focused card: %s", got)
	}

	// A new page after the e-mail, titled where it shows.
	do(chromedp.Click(chromedp.CSS(`.builder-newpage[data-index="1"]`)))
	p.saved()
	do(chromedp.Click(chromedp.CSS(`.builder-text[data-part="title"][data-step="1"]`)), chromedp.KeyEvent("Your T-shirt"), chromedp.KeyEvent(kb.Enter))
	p.saved()
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
	if !s.Field("your_e_mail").Required || s.Field("your_name").Required {
		t.Errorf("required: e-mail %v, name %v", s.Field("your_e_mail").Required, s.Field("your_name").Required)
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
	do(chromedp.Focus(chromedp.CSS(`.builder-card[data-builder-index="0"]`)), chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1))
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
}

// benchEnv is the environment variable that, set to "1", runs
// TestBrowserBuilderInPlaceTiming: it measures, it asserts nothing.
const benchEnv = "HUBFORM_BENCH_INPLACE"

// TestBrowserBuilderInPlaceTiming measures how long a label edited in
// place takes to be saved and shown in the preview, on a form of 50
// fields: from Enter to the new label in the preview the page swapped
// in, 30 edits, their median and 95th percentile logged (BENCHMARKS.md).
func TestBrowserBuilderInPlaceTiming(t *testing.T) {
	if os.Getenv(benchEnv) != "1" {
		t.Skipf("set %s=1 to measure the in-place editor", benchEnv)
	}
	p := newInPlace(t)
	s := hubclient.Schema{Title: "Fifty fields", Steps: []hubclient.Step{{ID: "one"}, {ID: "two"}}}
	types := hubclient.FieldTypes[:12] // the twelve visible types the figures were first taken with
	for i := range 50 {
		f := hubclient.Field{Name: fmt.Sprintf("field_%d", i), Type: types[i%len(types)], Label: fmt.Sprintf("Question %d", i), Help: "Some help"}
		if f.Type == hubclient.FieldSelect || f.Type == hubclient.FieldRadio || f.Type == hubclient.FieldCheckboxes {
			f.Options = []hubclient.Option{{Value: "a", Label: "A"}, {Value: "b", Label: "B"}, {Value: "c", Label: "C"}}
		}
		s.Fields = append(s.Fields, f)
		s.Steps[i/25].Fields = append(s.Steps[i/25].Fields, f.Name)
	}
	body, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.Navigate(p.base+"/console/forms/shop/order?view=json"), chromedp.WaitVisible(chromedp.CSS("#body")),
		chromedp.SetValue(chromedp.CSS("#body"), string(body)),
		chromedp.Click(chromedp.CSS(`#editor button[type="submit"]`)))
	// The save answers with a redirect: wait for the page it leads to.
	p.do(chromedp.Sleep(time.Second), chromedp.WaitVisible(chromedp.CSS("#body")))
	p.do(chromedp.Navigate(p.base+"/console/forms/shop/order"), chromedp.WaitVisible(chromedp.CSS(`.builder-card[data-builder-index="49"]`)))
	p.version = 2
	var ms []float64
	for n := range 30 {
		i := (n * 7) % 50
		label := fmt.Sprintf("Edited question %d", n)
		took := browsertest.Eval[float64](t, p.tab, 20*time.Second, fmt.Sprintf(`new Promise((resolve) => {
		  const sel = '.builder-text[data-index="%d"][data-part="label"]';
		  const el = document.querySelector(sel);
		  el.focus();
		  el.textContent = %s;
		  const started = performance.now();
		  el.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true, cancelable: true}));
		  const check = () => {
		    const now = document.querySelector(sel);
		    if (now && now !== el && now.textContent === %[2]s) return resolve(performance.now() - started);
		    requestAnimationFrame(check);
		  };
		  check();
		})`, i, jsString(label)), chromedp.EvalAwaitPromise)
		p.saved()
		ms = append(ms, took)
	}
	slices.Sort(ms)
	t.Logf("an in-place edit on a form of 50 fields, %d edits: median %.0f ms, p95 %.0f ms, min %.0f ms, max %.0f ms",
		len(ms), ms[len(ms)/2], ms[int(float64(len(ms))*0.95)-1], ms[0], ms[len(ms)-1])
}

// TestBrowserBuilderInPlaceKeepsCards: a label edited in place redraws
// its card and the preview, not the cards of the other fields, which
// then post the draft's new revision: a panel kept from before saves
// without a conflict.
func TestBrowserBuilderInPlaceKeepsCards(t *testing.T) {
	p := newInPlace(t)
	for _, label := range []string{"First", "Second", "Third"} {
		p.focus("#builder-slash")
		p.do(chromedp.KeyEvent(label), chromedp.KeyEvent(kb.Enter))
		p.saved()
	}
	p.eval(`document.querySelector('[data-builder-fields] > li[data-index="2"]').dataset.mark = 'kept'; 'ok'`)
	p.focus(`.builder-text[data-index="0"][data-part="label"]`)
	p.do(chromedp.KeyEvent(" question"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	if got := p.eval(`document.querySelector('[data-builder-fields] > li[data-index="2"]').dataset.mark || 'redrawn'`); got != "kept" {
		t.Errorf("the third field's card was %s by an edit of the first's label", got)
	}
	p.do(chromedp.Click(chromedp.CSS(`.builder-card[data-builder-index="2"]`)), chromedp.WaitVisible(chromedp.CSS("#f2-help")),
		chromedp.SetValue(chromedp.CSS("#f2-help"), "Kept and saved"),
		chromedp.Click(chromedp.CSS(`form[action$="/fields/2"] button.hubform-button--primary`)))
	p.saved()
	if s := p.schema(); !strings.Contains(s.Fields[0].Label, "question") || s.Fields[2].Help != "Kept and saved" {
		t.Errorf("saved %q and %q, want the first label and the kept panel's help", s.Fields[0].Label, s.Fields[2].Help)
	}
}

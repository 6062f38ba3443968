package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserBuilderTypes builds with the in-place editor what the panel
// adds to it: a field's type changed, a heading and a paragraph typed
// where they show, a rating's stars, and a page shown on a condition; the
// page is never loaded again.
func TestBrowserBuilderTypes(t *testing.T) {
	p := newInPlace(t)
	axe := browsertest.Axe(t)
	do := p.do
	p.eval(`window.notReloaded = true; 'ok'`)

	// A question typed at the end is a short answer; its panel makes it a
	// multiple choice, which gets an option, and says so.
	do(chromedp.Focus(chromedp.CSS("#builder-slash")), chromedp.KeyEvent("Colour"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	do(chromedp.Click(chromedp.CSS(`.builder-card[data-builder-index="0"]`)), chromedp.WaitVisible(chromedp.CSS("#f0-type")),
		chromedp.SetValue(chromedp.CSS("#f0-type"), "radio"),
		chromedp.Click(chromedp.CSS(`form[action$="/fields/0"] button.hubform-button--primary`)))
	p.saved()
	if s := p.schema(); s.Fields[0].Type != "radio" || len(s.Fields[0].Options) != 1 {
		t.Errorf("colour after its type changed: %+v", s.Fields[0])
	}
	if got := p.text("#notice"); !strings.Contains(got, "“Colour” is now a Multiple choice.") {
		t.Errorf("the notice after the change: %q", got)
	}
	if got := p.eval(`document.querySelectorAll('#preview .builder-card[data-builder-index="0"] input[type=radio]').length + ''`); got != "1" {
		t.Errorf("the preview shows %s radios", got)
	}

	// The palette's groups, then a heading typed over in place.
	do(chromedp.Focus(chromedp.CSS("#builder-slash")), chromedp.KeyEvent("/"))
	if got := p.eval(`[...document.querySelectorAll('.builder-palette [role=group]')].map((g) => document.getElementById(g.getAttribute('aria-labelledby')).textContent).join()`); got != "Choices,Ratings,Text,Date and time,Contact,Files and signature,Layout" {
		t.Errorf("the palette's groups: %s", got)
	}
	browsertest.CheckAxe(t, p.tab, axe, "the grouped palette")
	// The type whose word starts with what is typed is chosen first,
	// though a group before holds one whose description does.
	do(chromedp.KeyEvent("number"))
	if got := p.eval(`document.getElementById(document.activeElement.getAttribute('aria-activedescendant')).dataset.type`); got != "number" {
		t.Errorf("the type chosen after 'number': %s", got)
	}
	do(chromedp.KeyEvent(strings.Repeat(kb.Backspace, 6)), chromedp.KeyEvent("headi"))
	if got := p.eval(`[...document.querySelectorAll('.builder-palette [role=group]:not([hidden])')].length + ''`); got != "1" {
		t.Errorf("groups left by 'headi': %s", got)
	}
	do(chromedp.KeyEvent(kb.Enter))
	p.saved()
	p.focus(`.builder-text[data-index="1"][data-part="text"]`)
	p.eval(`document.activeElement.textContent = ''; 'ok'`)
	do(chromedp.KeyEvent("Your order"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	if got := p.eval(`document.querySelector('#preview h3.hubform-field--heading').textContent.trim()`); got != "Your order" {
		t.Errorf("the heading in the preview: %q", got)
	}

	// A paragraph: its Markdown typed in place, on two lines, shown rendered.
	do(chromedp.Focus(chromedp.CSS("#builder-slash")), chromedp.KeyEvent("/emphasis"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	do(chromedp.Click(chromedp.CSS(`.builder-card[data-builder-index="2"]`)))
	p.focus(`.builder-text[data-index="2"][data-part="text"]`)
	p.eval(`document.activeElement.textContent = ''; 'ok'`)
	do(chromedp.KeyEvent("We ship *fast*."), chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent("- free returns"), chromedp.KeyEvent(kb.Tab))
	p.saved()
	if s := p.schema(); s.Fields[2].Text != "We ship *fast*.\n- free returns" {
		t.Errorf("the paragraph's text: %q", s.Fields[2].Text)
	}
	if got := p.eval(`document.querySelector('#preview .hubform-field--paragraph em')?.textContent + ' ' + document.querySelector('#preview .hubform-field--paragraph li')?.textContent`); got != "fast free returns" {
		t.Errorf("the paragraph rendered: %q", got)
	}

	// A rating, its stars set in the panel.
	do(chromedp.Focus(chromedp.CSS("#builder-slash")), chromedp.KeyEvent("/rating"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	do(chromedp.KeyEvent("How was it?"), chromedp.KeyEvent(kb.Enter))
	p.saved()
	do(chromedp.SetValue(chromedp.CSS("#f3-max"), "7"), chromedp.Click(chromedp.CSS(`form[action$="/fields/3"] button.hubform-button--primary`)))
	p.saved()
	if got := p.eval(`document.querySelectorAll('#preview .builder-card[data-builder-index="3"] input[type=radio]').length + ''`); got != "7" {
		t.Errorf("the rating shows %s stars", got)
	}

	// A page after the paragraph, shown only when a colour is chosen.
	do(chromedp.Click(chromedp.CSS(`.builder-card[data-builder-index="2"]`)), chromedp.Click(chromedp.CSS(`.builder-newpage[data-index="2"]`)))
	p.saved()
	do(chromedp.Click(chromedp.CSS(`.builder-step-if[data-step="1"]`)))
	browsertest.WaitFor(t, p.tab, 5*time.Second, `document.getElementById('step-condition-1').open && document.activeElement.closest('#step-condition-1') !== null`)
	do(chromedp.Click(chromedp.CSS(`#step-condition-1 button[name="conditionRows"]`)))
	browsertest.WaitFor(t, p.tab, 5*time.Second, `document.querySelector('#step1-visibleIf-0-field') !== null && `+browsertest.HTMXIdle)
	do(chromedp.Click(chromedp.CSS(`#step-condition-1 button.hubform-button--primary`)))
	p.saved()
	if got := p.eval(`JSON.stringify(JSON.parse(document.querySelector('#editor-state #body').value).steps[1].visibleIf)`); got != `{"==":[{"var":"colour"},"Option 1"]}` {
		t.Errorf("page 2's condition: %s", got)
	}
	if got := p.eval(`document.querySelectorAll('#preview .hubform-step')[1].querySelector('.builder-stephead .builder-badge')?.title ?? ''`); got != "Shown when Colour is Option 1" {
		t.Errorf("page 2's badge in the preview: %q", got)
	}
	if p.eval(`String(window.notReloaded)`) != "true" {
		t.Error("the page was loaded again")
	}

	// The panels of the rating and the paragraph, as owners see them.
	panel := func(i, name string) {
		do(chromedp.Click(chromedp.CSS(`.builder-card[data-builder-index="` + i + `"]`)))
		// The card's tools fade in: axe reads their colours once shown.
		browsertest.WaitFor(t, p.tab, 5*time.Second, `getComputedStyle(document.querySelector('.builder-card[data-builder-index="`+i+`"] > .builder-tools')).opacity === '1'`)
		p.eval(`document.querySelector('[data-builder-fields] > li[data-index="` + i + `"]').scrollIntoView({block: 'start'}); window.scrollTo(0, document.querySelector('[data-builder-fields] > li[data-index="` + i + `"]').getBoundingClientRect().top + window.scrollY - 80); 'ok'`)
		for _, scheme := range []string{"light", "dark"} {
			browsertest.ColorScheme(t, p.tab, scheme)
			browsertest.CheckAxe(t, p.tab, axe, "the panel of the "+name+" in the "+scheme+" scheme")
			p.screenshot("console-builder-" + name + "-" + scheme)
		}
	}
	panel("3", "rating")
	panel("2", "paragraph")
	do(chromedp.EmulateViewport(375, 800))
	panel("3", "rating-phone")
	panel("2", "paragraph-phone")
	if got := p.eval(`String(document.documentElement.scrollWidth - document.documentElement.clientWidth)`); got != "0" {
		t.Errorf("375 pixels wide, the builder scrolls sideways by %s pixels", got)
	}
	browsertest.ColorScheme(t, p.tab, "")
}

package console_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserBuilderCalculations adds a total in the Build tab: the
// formula's check follows the typing, a name inserted by its button goes
// in at the cursor, and once saved the form tried as a visitor works the
// total out as the guests are typed. axe checks the section with a
// check's error.
func TestBrowserBuilderCalculations(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	con := storedFormTab(t, browser, "party", calculationsBase)
	tab, base, do, eval, waitFor := con.tab, con.base, con.do, con.eval, con.waitIdle
	do(chromedp.Navigate(base+"/console/forms/acme/party"), chromedp.WaitVisible(chromedp.CSS("#calculations-heading")))
	waitFor(`document.querySelector('[data-builder-fields]').classList.contains('builder-dnd')`)
	do(chromedp.Click(chromedp.CSS(`#calculations details.builder-add summary`)), chromedp.WaitVisible(chromedp.CSS("#new-calculation-formula")),
		chromedp.SendKeys(chromedp.CSS("#new-calculation-label"), "Total"),
		chromedp.SendKeys(chromedp.CSS("#new-calculation-formula"), "gusts * 2"))
	waitFor(`document.querySelector('#new-calculation-check').textContent.includes('did you mean guests?')`)
	browsertest.CheckAxe(t, tab, axe, "a formula's check with an error")
	shots(t, con, "console-calculations-check", "#calculations-heading")
	// Typed again: the name from its button, at the cursor.
	eval(`(() => { const i = document.querySelector('#new-calculation-formula'); i.value = ' * 35'; i.setSelectionRange(0, 0); return 'ok' })()`)
	do(chromedp.Click(chromedp.CSS(`#calculations details.builder-add [data-formula-insert="guests"]`)))
	waitFor(`document.querySelector('#new-calculation-formula').value === 'guests * 35' && document.querySelector('#new-calculation-check').textContent === 'Reads Guests.'`)
	do(chromedp.SetValue(chromedp.CSS("#new-calculation-format"), "currency"),
		chromedp.SendKeys(chromedp.CSS("#new-calculation-currency"), "EUR"),
		chromedp.Click(chromedp.CSS("#new-calculation-show")),
		chromedp.Click(chromedp.CSS(`form[action$="/calculations"] button.hubform-button--primary`)))
	waitFor(`document.querySelector('li[data-calculation="total"]')`)
	shots(t, con, "console-calculations", "#calculations-heading")
	// Tried as a visitor, the form works it out as the guests are typed.
	do(chromedp.Click(chromedp.CSS(`.builder-try-link a`)), chromedp.WaitVisible(chromedp.CSS(`.builder-try input[name="guests"]`)),
		chromedp.SendKeys(chromedp.CSS(`.builder-try input[name="guests"]`), "4"+kb.Tab))
	waitFor(`document.querySelector(".builder-try").textContent.includes("140.00")`)
}

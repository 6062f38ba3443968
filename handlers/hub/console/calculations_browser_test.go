package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// calcQuizForm is acme/quiz: a price shown as the guests are counted,
// and a question scored, a quiz that shows its answers.
const calcQuizForm = `{
  "title": "Party quiz",
  "fields": [
    {"name": "guests", "type": "number", "label": "Guests"},
    {"name": "capital", "type": "radio", "label": "Capital of France", "options": [{"value": "paris", "label": "Paris", "correct": true}, {"value": "lyon", "label": "Lyon"}]}
  ],
  "steps": [{"id": "all", "fields": ["guests", "capital"]}],
  "calculations": [
    {"name": "total", "label": "Total", "expr": {"*": [{"var": "guests"}, 35]}, "format": "currency", "currency": "EUR", "show": true},
    {"name": "score", "expr": {"points": "capital"}}
  ],
  "quiz": {"showAnswers": true},
  "hub": {"minSeconds": 0}
}`

// TestBrowserQuiz fills the hub's own page of a quiz with a shown total,
// with JavaScript and without: with it the total follows the guests as
// they are typed; either way the submitted state shows the score and the
// answer marked right, and the hub stores the calculations. axe-core
// checks the form with its output and the submitted state.
func TestBrowserQuiz(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	h := startHub(t, hubserver.Config{})
	ctx, now := t.Context(), time.Now()
	if _, err := h.DB.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, now); err != nil {
		t.Fatal(err)
	}
	n, err := h.DB.SaveFormVersion(ctx, "acme", "quiz", []byte(calcQuizForm), "jane@example.com", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.DB.PublishFormVersion(ctx, "acme", "quiz", n, now); err != nil {
		t.Fatal(err)
	}
	con := newConsoleTab(t, browser, h)
	page := con.base + "/f/acme/quiz"
	const output = `[data-hubform-calc="total"] output`
	con.do(chromedp.EmulateViewport(1280, 900))
	for _, js := range []bool{true, false} {
		how := "with JavaScript"
		if !js {
			how = "without JavaScript"
			disableScripts(t, con, true)
		}
		con.do(chromedp.Navigate(page), chromedp.WaitVisible(chromedp.ID("hubform-acme-quiz-guests")))
		if js {
			browsertest.WaitScripts(t, con.tab)
		}
		con.do(chromedp.SendKeys(chromedp.ID("hubform-acme-quiz-guests"), "3"))
		if js {
			// The change, on leaving the field, asks the logic route.
			con.do(chromedp.Click(chromedp.CSS(`input[name="capital"][value="lyon"]`)))
			con.do(chromedp.Poll[chromedp.Void](`document.querySelector('`+output+`').textContent.trim() === '€ 105.00'`, chromedp.WithPollingTimeout(10*time.Second)))
			browsertest.CheckAxe(t, con.tab, axe, "a form with a calculation shown")
			shots(t, con, "hosted-calculation", "")
		}
		con.do(chromedp.Click(chromedp.CSS(`input[name="capital"][value="paris"]`)))
		con.do(chromedp.Click(chromedp.CSS(`[data-hubform-submit]`)))
		con.do(chromedp.WaitVisible(chromedp.CSS(`[data-hubform-quiz]`)))
		if got := con.text(`[data-hubform-score]`); got != "Your score: 1" {
			t.Errorf("%s: the score reads %q", how, got)
		}
		if got := strings.Join(strings.Fields(con.text(`[data-hubform-right]`)), " "); got != "Capital of France: right" {
			t.Errorf("%s: the answer reads %q", how, got)
		}
		if js {
			browsertest.CheckAxe(t, con.tab, axe, "a quiz's submitted state")
			shots(t, con, "hosted-quiz", "")
		}
	}
	disableScripts(t, con, false)
	n2 := 0
	err = h.DB.ListSubmissions(ctx, hub.Filter{Site: "acme", Slug: "quiz"}, func(s hub.Submission) error {
		n2++
		if s.Calculations["total"] != 105.0 || s.Calculations["score"] != 1.0 {
			t.Errorf("stored calculations %v, want total 105 and score 1", s.Calculations)
		}
		return nil
	})
	if err != nil || n2 != 2 {
		t.Errorf("%d submissions stored, %v; want 2", n2, err)
	}
}

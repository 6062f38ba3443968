package console_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/accounts"
)

// calculationsBase has a number, a choice with points and one without.
const calculationsBase = `{"title":"Party","x-note":"keep me","fields":[
{"name":"guests","type":"number","label":"Guests"},
{"name":"capital","type":"radio","label":"Capital","options":[{"value":"paris","label":"Paris","points":2},{"value":"lyon","label":"Lyon"}]},
{"name":"note","type":"text","label":"Note"}],
"steps":[{"id":"a","fields":["guests","capital","note"]}]}`

func newCalculationsForm(t *testing.T) *builderForm {
	f := newBuilderForm(t)
	n, _, _ := f.last()
	if res := f.post("/forms/acme/contact", url.Values{"body": {calculationsBase}, "base": {strconv.FormatInt(n, 10)}}); res.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.status, res.body)
	}
	return f
}

// TestBuilderCalculations: the builder adds a calculation from its label
// and formula, written as the JSONLogic the hub works out; refuses a
// mistyped name with the nearest, keeping what was typed; edits, shows
// the formula back and removes it after asking.
func TestBuilderCalculations(t *testing.T) {
	f := newCalculationsForm(t)
	page := f.b.get("/console/forms/acme/contact").body
	for _, want := range []string{`id="calculations-heading">Calculations`, "No calculation yet", `data-formula-insert="guests"`, `data-formula-insert="points(capital)"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the Build tab lacks %s", want)
		}
	}
	body := f.refused("/calculations", url.Values{"label": {"Total"}, "formula": {"gusts * 35"}, "format": {"currency"}, "currency": {"eur"}}, http.StatusUnprocessableEntity)
	for _, want := range []string{"there is no question or calculation called gusts in this form: did you mean guests?", `value="gusts * 35"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the refusal lacks %q", want)
		}
	}
	s := f.act("/calculations", url.Values{"label": {"Total"}, "formula": {"guests*35 + points(capital)"}, "format": {"currency"}, "currency": {"eur"}, "show": {"on"}})
	if len(s.Calculations) != 1 {
		t.Fatalf("calculations: %+v", s.Calculations)
	}
	c := s.Calculations[0]
	if c.Name != "total" || c.Label != "Total" || compact(t, c.Expr) != `{"+":[{"*":[{"var":"guests"},35]},{"points":"capital"}]}` || c.Format != "currency" || c.Currency != "EUR" || !c.Show {
		t.Errorf("added: %+v %s", c, c.Expr)
	}
	page = f.b.get("/console/forms/acme/contact").body
	if !strings.Contains(page, `value="guests * 35 + points(capital)"`) || !strings.Contains(page, "Reads Guests and Capital.") {
		t.Error("the formula is not shown back as typed, with what it reads")
	}
	if body := f.refused("/calculations/0", url.Values{"label": {"Total"}, "formula": {"total + 1"}}, http.StatusUnprocessableEntity); !strings.Contains(body, "the calculation total is this one or one after it") {
		t.Errorf("a calculation reading itself: %s", body)
	}
	s = f.act("/calculations/0", url.Values{"label": {"Price"}, "formula": {"guests * 30"}, "format": {"number"}})
	if c := s.Calculations[0]; c.Name != "total" || c.Label != "Price" || compact(t, c.Expr) != `{"*":[{"var":"guests"},30]}` || c.Format != "" || c.Currency != "" || c.Show {
		t.Errorf("edited: %+v", c)
	}
	// Removing asks first, then removes.
	if body := f.refused("/calculations/0/remove", url.Values{}, http.StatusOK); !strings.Contains(body, "Remove the calculation “Price”?") {
		t.Errorf("removing did not ask: %s", body)
	}
	if s = f.act("/calculations/0/remove", url.Values{"confirmed": {"1"}}); len(s.Calculations) != 0 {
		t.Errorf("removed: %+v", s.Calculations)
	}
}

// TestFormulaCheck: the check of a formula as it is typed says what is
// wrong or what it reads, and stores nothing.
func TestFormulaCheck(t *testing.T) {
	f := newCalculationsForm(t)
	rev, _, _ := f.last()
	for formula, want := range map[string]string{
		"guests * 2":    `<p class="hubform-help" id="new-calculation-check" aria-live="polite">Reads Guests.</p>`,
		"(guests":       `<p class="hubform-field-error" id="new-calculation-check" aria-live="polite">A ( is not closed.</p>`,
		"points(note)":  "In points(note), “Note” has no options to give points to.",
		"12":            "A fixed number: it reads no answer.",
		"note + guestz": "There is no question or calculation called guestz in this form: did you mean guests?<",
	} {
		res := f.post("/forms/acme/contact/calculations/check", url.Values{"formula": {formula}, "n": {"0"}, "check": {"new-calculation-check"}})
		if res.status != http.StatusOK || !strings.Contains(res.body, want) {
			t.Errorf("%s: %d %s, want %s", formula, res.status, res.body, want)
		}
	}
	if res := f.post("/forms/acme/contact/calculations/check", url.Values{"formula": {"1"}, "check": {`x" onclick="alert(1)`}}); strings.Contains(res.body, "onclick") {
		t.Errorf("the check's id is taken as posted: %s", res.body)
	}
	if n, _, _ := f.last(); n != rev {
		t.Errorf("the check saved revision %d", n)
	}
}

// TestBuilderQuiz: making the form a quiz adds its score from the points
// of the questions that have some; a form without points is refused in
// words.
func TestBuilderQuiz(t *testing.T) {
	f := newCalculationsForm(t)
	s := f.act("/calculations/quiz", url.Values{"quiz": {"on"}, "showAnswers": {"on"}})
	if s.Quiz == nil || !s.Quiz.ShowAnswers || s.Calculation("score") == nil || compact(t, s.Calculation("score").Expr) != `{"points":"capital"}` {
		t.Fatalf("quiz: %+v %+v", s.Quiz, s.Calculations)
	}
	if s = f.act("/calculations/quiz", url.Values{}); s.Quiz != nil || s.Calculation("score") == nil {
		t.Errorf("no longer a quiz: %+v, its score kept: %v", s.Quiz, s.Calculation("score") != nil)
	}

	g := newBuilderForm(t)
	if body := g.refused("/calculations/quiz", url.Values{"quiz": {"on"}}, http.StatusUnprocessableEntity); !strings.Contains(body, "give points to some options first") {
		t.Errorf("a quiz without points: %s", body)
	}
}

// TestBuilderCalculationsAccess: another workspace's admin gets 404 and a
// viewer 403 on every calculation's action.
func TestBuilderCalculationsAccess(t *testing.T) {
	f := newCalculationsForm(t)
	f.act("/calculations", url.Values{"label": {"Total"}, "formula": {"guests * 35"}})
	f.refusedToOutsiders(map[string]url.Values{
		"/calculations":          {"label": {"X"}, "formula": {"1"}},
		"/calculations/check":    {"formula": {"1"}},
		"/calculations/quiz":     {"quiz": {"on"}},
		"/calculations/0":        {"label": {"X"}, "formula": {"1"}},
		"/calculations/0/remove": {"confirmed": {"1"}},
	})
}

// TestBuilderScoring: a choice's panel sets its options' points and right
// answers; blank points are none; a value that is no number is refused
// in words, kept as typed; editing the options' lines keeps each one's
// points.
func TestBuilderScoring(t *testing.T) {
	f := newCalculationsForm(t)
	page := f.b.get("/console/forms/acme/contact?editing=capital").body
	if !strings.Contains(page, "Points and right answers") || !strings.Contains(page, `name="points.paris" type="text" inputmode="decimal" size="6" value="2"`) {
		t.Fatal("the choice's panel does not show its options' points")
	}
	panel := func(extra url.Values) url.Values {
		v := url.Values{"name": {"capital"}, "label": {"Capital"}, "step": {"a"}, "options": {"paris|Paris\nlyon|Lyon"}, "scoring": {"1"}}
		for k, x := range extra {
			v[k] = x
		}
		return v
	}
	s := f.act("/fields/1", panel(url.Values{"points.paris": {""}, "points.lyon": {"1,5"}, "correct.lyon": {"on"}}))
	if o := s.Field("capital").Options; o[0].Points != 0 || o[0].Correct || o[1].Points != 1.5 || !o[1].Correct {
		t.Errorf("saved: %+v", o)
	}
	body := f.refused("/fields/1", panel(url.Values{"points.paris": {"two"}}), http.StatusUnprocessableEntity)
	if !strings.Contains(body, "The points of the option “Paris” are a number") || !strings.Contains(body, `value="two"`) {
		t.Errorf("a value that is no number: %s", body)
	}
	// The options' lines edited, without the scoring's inputs: each keeps
	// its points.
	s = f.act("/fields/1", url.Values{"name": {"capital"}, "label": {"Capital"}, "step": {"a"}, "options": {"lyon|Lyon (Rhône)\nparis|Paris\nnice|Nice"}})
	if o := s.Field("capital").Options; len(o) != 3 || o[0].Value != "lyon" || o[0].Label != "Lyon (Rhône)" || o[0].Points != 1.5 || !o[0].Correct || o[2].Points != 0 {
		t.Errorf("after editing the options: %+v", o)
	}
}

// TestTryTheForm: the Try page shows the newest version to fill in, and
// the preview's form, once sent, says that nothing was and shows the
// ending the answers reach and the quiz's score, as the hub would.
func TestTryTheForm(t *testing.T) {
	f := newCalculationsForm(t)
	f.act("/calculations/quiz", url.Values{"quiz": {"on"}})
	f.act("/endings", url.Values{"title": {"Well done"}})
	f.act("/endings/0", url.Values{"title": {"Well done"}, "if": {"rows"}, "if.join": {"all"}, "if.0.field": {"capital"}, "if.0.op": {"is"}, "if.0.value": {"paris"}})
	page := f.b.get("/console/forms/acme/contact/try")
	if page.status != http.StatusOK || !strings.Contains(page.body, `action="/console/forms/acme/contact/preview/submit"`) || !strings.Contains(page.body, "Back to the builder") {
		t.Fatalf("the Try page: %d %s", page.status, page.body)
	}
	res := f.post("/forms/acme/contact/preview/submit", url.Values{"capital": {"paris"}, "guests": {"3"}})
	for _, want := range []string{"This is the preview: nothing was sent or stored.", "Well done", `data-hubform-score`} {
		if !strings.Contains(res.body, want) {
			t.Errorf("the preview sent lacks %q: %s", want, res.body)
		}
	}
	if res := f.post("/forms/acme/contact/preview/submit", url.Values{"capital": {"lyon"}}); strings.Contains(res.body, "Well done") {
		t.Error("an ending whose condition fails is shown")
	}
}

// TestTryLinkForEditors: the builder offers "Try it as a visitor" to
// those who may open it, editors, and not to a viewer, who would be
// refused.
func TestTryLinkForEditors(t *testing.T) {
	f := newCalculationsForm(t)
	if page := f.b.get("/console/forms/acme/contact"); !strings.Contains(page.body, `href="/console/forms/acme/contact/try"`) {
		t.Error("an admin is not offered the Try page")
	}
	viewer := f.member("vic@example.com", accounts.Viewer)
	if page := viewer.get("/console/forms/acme/contact"); page.status != http.StatusOK || strings.Contains(page.body, "/try") {
		t.Errorf("a viewer's builder: %d, the Try page offered: %t", page.status, strings.Contains(page.body, "/try"))
	}
	if page := viewer.get("/console/forms/acme/contact/try"); page.status != http.StatusForbidden {
		t.Errorf("a viewer opening the Try page: %d, want 403", page.status)
	}
}

// TestBuilderCalculationAsJSON: an expression a formula cannot say is
// shown and edited as JSON.
func TestBuilderCalculationAsJSON(t *testing.T) {
	f := newCalculationsForm(t)
	n, _, _ := f.last()
	body := strings.Replace(calculationsBase, `"steps":`, `"calculations":[{"name":"few","label":"Few","expr":{"<":[0,{"var":"guests"},5]}}],"steps":`, 1)
	if res := f.post("/forms/acme/contact", url.Values{"body": {body}, "base": {strconv.FormatInt(n, 10)}}); res.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.status, res.body)
	}
	page := f.b.get("/console/forms/acme/contact").body
	if !strings.Contains(page, `name="exprAsJSON" value="1"`) || !strings.Contains(page, "Expression, in JSONLogic") {
		t.Fatal("the expression is not offered as JSON")
	}
	s := f.act("/calculations/0", url.Values{"label": {"Few"}, "exprAsJSON": {"1"}, "expr": {`{"<":[0,{"var":"guests"},9]}`}})
	if got := compact(t, s.Calculations[0].Expr); got != `{"<":[0,{"var":"guests"},9]}` {
		t.Errorf("saved as %s", got)
	}
}

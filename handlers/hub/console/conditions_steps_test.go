package console_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/console"
)

// stepsBase is a form of three pages: the second may be shown depending
// on the first's fields; the third's condition is written by hand.
const stepsBase = `{"title":"Order","x-note":"keep me","fields":[
{"name":"size","type":"select","label":"Size","options":[{"value":"s","label":"Small"},{"value":"l","label":"Large"}]},
{"name":"stars","type":"rating","label":"Stars"},
{"name":"wrap","type":"text","label":"Wrapping"},
{"name":"note","type":"text","label":"Note"}],
"steps":[{"id":"one","fields":["size","stars"]},{"id":"two","title":"Gift","fields":["wrap"]},
{"id":"three","fields":["note"],"visibleIf":{"if":[{"var":"size"},true,false]}}]}`

func newStepsForm(t *testing.T) *builderForm {
	f := newBuilderForm(t)
	f.saveFile(stepsBase)
	return f
}

// TestStepConditions: a page's condition is written from rows reading the
// pages before it, shown with a badge on its page break, refused when it
// reads the page itself, and kept when written by hand.
func TestStepConditions(t *testing.T) {
	f := newStepsForm(t)
	s := f.act("/steps/1/condition", url.Values{"visibleIf": {"rows"}, "visibleIf.join": {"any"},
		"visibleIf.0.field": {"size"}, "visibleIf.0.op": {"is"}, "visibleIf.0.value": {"l"},
		"visibleIf.1.field": {"stars"}, "visibleIf.1.op": {"atleast"}, "visibleIf.1.value": {"4"}})
	if got := compact(t, s.Steps[1].VisibleIf); got != `{"or":[{"==":[{"var":"size"},"l"]},{">=":[{"var":"stars"},4]}]}` {
		t.Errorf("page 2's condition: %s", got)
	}
	page := html.UnescapeString(f.b.get(console.Path + "/forms/acme/contact").body)
	if !strings.Contains(page, `data-condition-words="Shown when Size is Large or Stars is at least 4"`) || !strings.Contains(page, `data-condition-badge="step"`) {
		t.Errorf("page 2 has no badge with its condition in words")
	}
	if !strings.Contains(page, `id="step1-visibleIf-1-value" name="visibleIf.1.value" value="4" step="any" type="number"`) {
		t.Errorf("page 2's rows are not shown")
	}
	// The page's own field, or a later one's, is refused.
	body := f.refused("/steps/1/condition", url.Values{"visibleIf": {"rows"}, "visibleIf.0.field": {"wrap"}, "visibleIf.0.op": {"filled"}}, http.StatusUnprocessableEntity)
	if !strings.Contains(body, "Show this page when, condition 1: “Wrapping” is on this page or a later one; a page's condition reads the fields of the pages before it") {
		t.Errorf("a page reading its own field: %s", body)
	}
	// The hand-written one is shown as its text and kept by a post without rows.
	if !strings.Contains(page, `{"if":[{"var":"size"},true,false]}`) {
		t.Errorf("page 3's hand-written condition is not shown")
	}
	s = f.act("/steps/2/condition", url.Values{})
	if got := compact(t, s.Steps[2].VisibleIf); got != `{"if":[{"var":"size"},true,false]}` {
		t.Errorf("page 3's condition after a post: %s", got)
	}
	// No rows is no condition.
	if s = f.act("/steps/1/condition", url.Values{"visibleIf": {"rows"}}); len(s.Steps[1].VisibleIf) != 0 {
		t.Errorf("page 2's condition after removing its rows: %s", s.Steps[1].VisibleIf)
	}
}

// TestStepConditionsFollowFields: renaming a field follows it in a page's
// rows; "Add condition" saves nothing; moving a field read by a page onto
// it is refused.
func TestStepConditionsFollowFields(t *testing.T) {
	f := newStepsForm(t)
	f.saveFile(strings.Replace(stepsBase, `,"visibleIf":{"if":[{"var":"size"},true,false]}`, "", 1))
	f.act("/steps/1/condition", url.Values{"visibleIf": {"rows"}, "visibleIf.0.field": {"size"}, "visibleIf.0.op": {"is"}, "visibleIf.0.value": {"l"},
		"visibleIf.1.field": {"stars"}, "visibleIf.1.op": {"atleast"}, "visibleIf.1.value": {"4"}})
	s := f.act("/fields/0", url.Values{"name": {"shirt"}, "label": {"Size"}, "step": {"one"}, "options": {"s|Small\nl|Large"}})
	if got := compact(t, s.Steps[1].VisibleIf); got != `{"and":[{"==":[{"var":"shirt"},"l"]},{">=":[{"var":"stars"},4]}]}` {
		t.Errorf("page 2's condition after a rename: %s", got)
	}
	body := f.refused("/steps/1/condition", url.Values{"visibleIf": {"rows"}, "visibleIf.0.field": {"shirt"}, "visibleIf.0.op": {"is"}, "visibleIf.0.value": {"l"}, "conditionRows": {"add visibleIf"}}, http.StatusOK)
	if !strings.Contains(body, `name="visibleIf.1.field"`) {
		t.Errorf("Add condition shows no second row")
	}
	// Stars down across the break onto page 2, which reads it.
	body = f.refused("/fields/1/move", url.Values{"to": {"down"}}, http.StatusUnprocessableEntity)
	if !strings.Contains(body, "“Page 2: Gift” is shown depending on “Stars”, which would then be on it or after it") {
		t.Errorf("moving a field onto the page that reads it: %s", body)
	}
	// A field of page 1 read by page 2 may not change to a type its row cannot read.
	body = f.refused("/fields/0", url.Values{"name": {"shirt"}, "label": {"Size"}, "step": {"one"}, "type": {"date"}}, http.StatusUnprocessableEntity)
	if !strings.Contains(body, "“Page 2: Gift” is shown when “Size” is Large, which a Date cannot be") {
		t.Errorf("a type page 2 cannot read: %s", body)
	}
}

package components_test

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// logicSchema has a rule of every kind and conditions on fields and a step.
func logicSchema(t *testing.T) *hubclient.Schema {
	t.Helper()
	var s hubclient.Schema
	err := json.Unmarshal([]byte(`{
  "fields": [
    {"name": "source", "type": "radio", "label": "How did you hear of us?", "options": ["web", "other"]},
    {"name": "sourceOther", "type": "text", "label": "Where?", "required": true, "minLength": 3, "maxLength": 80,
     "pattern": "[A-Za-z ]+", "visibleIf": {"==": [{"var": "source"}, "other"]}},
    {"name": "news", "type": "checkbox", "label": "Newsletter"},
    {"name": "email", "type": "email", "label": "Email", "requiredIf": {"var": "news"}},
    {"name": "guests", "type": "number", "label": "Guests", "min": 1, "max": 8, "step": 1},
    {"name": "day", "type": "date", "label": "Day", "min": "2026-01-01", "max": "2026-12-31", "step": 7},
    {"name": "note", "type": "textarea", "label": "Note", "maxLength": 500},
    {"name": "company", "type": "text", "label": "Company"}
  ],
  "steps": [
    {"id": "you", "title": "You", "fields": ["source", "sourceOther", "news", "email", "guests", "day", "note"]},
    {"id": "firm", "title": "Your firm", "fields": ["company"], "visibleIf": {"==": [{"var": "source"}, "web"]}}
  ]
}`), &s)
	if err != nil {
		t.Fatal(err)
	}
	return &s
}

func TestLogicGolden(t *testing.T) {
	revealed := props(logicSchema(t))
	revealed.State = components.State{Values: url.Values{"source": {"other"}, "news": {"true"}}}
	web := props(logicSchema(t))
	web.State = components.State{Values: url.Values{"source": {"web"}}}
	for _, tc := range []goldenCase{
		{"logic", components.HubForm(props(logicSchema(t)))},
		{"logic-revealed", components.HubForm(revealed)},
		// The page had nothing chosen (source, sourceOther hidden, news,
		// email, company hidden, firm skipped): "web" shows the step.
		{"logic-update", components.LogicUpdate(web, "vhvvhs")},
		{"logic-update-unknown", components.LogicUpdate(revealed, "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := render(t, tc.c)
			checkGolden(t, tc.name, got)
			if tc.name == "logic" || tc.name == "logic-revealed" {
				doc := parse(t, got)
				checkIDs(t, doc)
				// Every fieldset, a hidden field's too, is named by its
				// legend, its first child (WCAG H71).
				doc.Find("fieldset").Each(func(_ int, fs *goquery.Selection) {
					if goquery.NodeName(fs.Children().First()) != "legend" {
						t.Errorf("a fieldset without a legend first: %s", fs.AttrOr("class", ""))
					}
				})
			}
		})
	}
}

// TestLogicRendering: what the conditions decide shows in the markup.
func TestLogicRendering(t *testing.T) {
	doc := renderDoc(t, components.HubForm(props(logicSchema(t))))
	other := doc.Find(`[data-hubform-slot="sourceOther"]`)
	if _, hidden := other.Attr("hidden"); !hidden || other.Find("fieldset[disabled] input[name=sourceOther]").Length() != 1 {
		t.Error("a field whose condition does not hold is not hidden with its control disabled")
	}
	if _, ok := doc.Find(`[data-hubform-step="firm"]`).Attr("hidden"); !ok {
		t.Error("a step whose condition does not hold is not hidden")
	}
	if doc.Find(`[data-hubform-skip]`).Length() != 1 {
		t.Error("the skipped step has no skip mark")
	}
	src := doc.Find(`[data-hubform-slot="source"]`)
	if v, _ := src.Attr("data-hx-trigger"); v != "change" {
		t.Errorf("the slot of a field a condition reads has hx-trigger %q, want change", v)
	}
	if doc.Find(`[data-hubform-slot="guests"]`).Length() != 0 {
		t.Error("a field no condition is about has a slot")
	}
	if _, ok := doc.Find(`input[name=email]`).Attr("required"); ok {
		t.Error("email is required before its requiredIf holds")
	}

	revealed := props(logicSchema(t))
	revealed.State = components.State{Values: url.Values{"source": {"other"}, "news": {"true"}}}
	doc = renderDoc(t, components.HubForm(revealed))
	other = doc.Find(`[data-hubform-slot="sourceOther"]`)
	if _, hidden := other.Attr("hidden"); hidden || other.Find("fieldset[disabled]").Length() != 0 {
		t.Error("a field whose condition holds is hidden")
	}
	if _, ok := doc.Find(`input[name=email]`).Attr("required"); !ok {
		t.Error("email is not required once its requiredIf holds")
	}
	for attr, want := range map[string]string{"minlength": "3", "maxlength": "80", "pattern": "[A-Za-z ]+"} {
		if v, _ := doc.Find(`input[name=sourceOther]`).Attr(attr); v != want {
			t.Errorf("sourceOther %s=%q, want %q", attr, v, want)
		}
	}
}

// TestLogicUpdateOnlyChanges: the logic route's answer swaps only what
// changed, out of band.
func TestLogicUpdateOnlyChanges(t *testing.T) {
	web := props(logicSchema(t))
	web.State = components.State{Values: url.Values{"source": {"web"}}}
	doc := renderDoc(t, components.LogicUpdate(web, "vhvvhs"))
	if n := doc.Find("[data-hubform-slot]").Length(); n != 1 || doc.Find(`[data-hubform-slot="company"]`).Length() != 1 {
		t.Errorf("%d slots swapped, want the shown step's field alone", n)
	}
	mark := doc.Find(`[data-hx-swap-oob][id$="-step-firm-skip"]`)
	if _, skipped := mark.Attr("data-hubform-skip"); mark.Length() != 1 || skipped {
		t.Error("the step shown is not marked shown")
	}
	other := props(logicSchema(t))
	other.State = components.State{Values: url.Values{"source": {"other"}}}
	doc = renderDoc(t, components.LogicUpdate(other, "vhvvhs"))
	if n := doc.Find(`[data-hubform-slot][data-hx-swap-oob]`).Length(); n != 1 || doc.Find(`[data-hubform-slot="sourceOther"]`).Length() != 1 {
		t.Errorf("%d slots swapped, want sourceOther alone", n)
	}
}

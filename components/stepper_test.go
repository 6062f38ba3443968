package components_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// tripSchema has three steps, the second shown for a trip abroad only,
// and a file.
func tripSchema(t *testing.T) *hubclient.Schema {
	t.Helper()
	var s hubclient.Schema
	err := json.Unmarshal([]byte(`{
  "fields": [
    {"name": "abroad", "type": "checkbox", "label": "Abroad"},
    {"name": "passport", "type": "text", "label": "Passport number"},
    {"name": "ticket", "type": "file", "label": "Ticket", "required": true}
  ],
  "steps": [
    {"id": "trip", "title": "Your trip", "fields": ["abroad"]},
    {"id": "papers", "fields": ["passport"], "visibleIf": {"var": "abroad"}},
    {"id": "ticket", "title": "Your ticket", "fields": ["ticket"]}
  ]
}`), &s)
	if err != nil {
		t.Fatal(err)
	}
	return &s
}

// stepperOf reads a form's stepper as "Step n of total: state,state*,…",
// hidden segments left out and the current one starred; "" without one,
// "hidden " before a hidden one.
func stepperOf(doc *goquery.Document) string {
	s := doc.Find("[data-hubform-stepper]")
	if s.Length() == 0 {
		return ""
	}
	var b strings.Builder
	if _, hidden := s.Attr("hidden"); hidden {
		b.WriteString("hidden ")
	}
	b.WriteString(s.Find("[data-hubform-step-status]").Text() + ":")
	s.Find("li").Each(func(i int, li *goquery.Selection) {
		if _, hidden := li.Attr("hidden"); hidden {
			return
		}
		state, _ := li.Attr("data-state")
		b.WriteString(" " + state)
		if cur, _ := li.Attr("aria-current"); cur == "step" {
			b.WriteString("*")
		}
	})
	return b.String()
}

func TestStepper(t *testing.T) {
	abroad := url.Values{"abroad": {"true"}}
	oneStep := tripSchema(t)
	oneStep.Steps = []hubclient.Step{{ID: "all", Fields: []string{"abroad", "passport", "ticket"}}}
	for _, tc := range []struct {
		name   string
		schema *hubclient.Schema
		state  components.State
		want   string
	}{
		{"a step skipped", tripSchema(t), components.State{}, "Step 1 of 2: current* todo"},
		{"every step", tripSchema(t), components.State{Values: abroad}, "Step 1 of 3: current* todo todo"},
		{"an error in the last step", tripSchema(t), components.State{Values: abroad, Errors: map[string]string{"ticket": "Required."}}, "Step 3 of 3: done done current*"},
		{"a draft's step", tripSchema(t), components.State{Values: abroad, Step: "papers"}, "Step 2 of 3: done current* todo"},
		{"one step", oneStep, components.State{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := props(tc.schema)
			p.State = tc.state
			doc := renderDoc(t, components.HubForm(p))
			if got := stepperOf(doc); got != tc.want {
				t.Errorf("stepper %q, want %q", got, tc.want)
			}
			// The segments name their steps for assistive technology.
			if tc.want != "" {
				if got := doc.Find("[data-hubform-stepper] li").Eq(1).Text(); got != "Step 2 of 3" {
					t.Errorf("the untitled step's segment reads %q", got)
				}
			}
		})
	}

	// A form whose conditions show one step of several has no stepper to
	// show, until they show another.
	s := tripSchema(t)
	s.Steps = s.Steps[:2]
	if got := stepperOf(renderDoc(t, components.HubForm(props(s)))); got != "hidden Step 1 of 1: current*" {
		t.Errorf("one step shown of two: stepper %q", got)
	}
}

// TestDropZone renders a file input in its drop zone, with the texts the
// script shows: a field of one file is replaced, one of several added to.
func TestDropZone(t *testing.T) {
	s := tripSchema(t)
	doc := renderDoc(t, components.HubForm(props(s)))
	zone := doc.Find("[data-hubform-drop]")
	if zone.Find(`input[type="file"]#hubform-acme-contact-ticket[required]`).Length() != 1 || zone.Find("#hubform-acme-contact-ticket-uploads").Length() != 1 {
		t.Fatal("the drop zone holds no file input and upload list")
	}
	for attr, want := range map[string]string{
		"data-hubform-drop-prompt":  "Drag a file here or click to choose one",
		"data-hubform-drop-replace": "Drag another file here or click to replace it",
		"data-hubform-drop-remove":  "Remove",
	} {
		if got, _ := zone.Attr(attr); got != want {
			t.Errorf("%s = %q, want %q", attr, got, want)
		}
	}
	s.Fields[2].Multiple = true
	zone = renderDoc(t, components.HubForm(props(s))).Find("[data-hubform-drop]")
	if got, _ := zone.Attr("data-hubform-drop-prompt"); got != "Drag files here or click to choose them" {
		t.Errorf("several files: the prompt reads %q", got)
	}
	if _, ok := zone.Attr("data-hubform-drop-replace"); ok {
		t.Error("several files are replaced, not added to")
	}
}

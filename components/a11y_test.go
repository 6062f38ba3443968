package components_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// a11yForms are the every-field-type form as first shown, as shown again
// after a post with errors, and resumed from a draft where it offers
// saving, with a kept file and the address to save at refused.
func a11yForms(t *testing.T) map[string]*goquery.Document {
	t.Helper()
	errored := props(allFieldsSchema())
	errored.State = erroredState()
	draft := props(allFieldsSchema())
	draft.InitialSchema.Meta.Resume = true
	draft.Routes.Save = "/hubform/acme/contact/save"
	draft.Page = "https://example.com/contact"
	draft.State = components.State{
		Draft: "tok", Step: "extra",
		Kept:   []hubclient.Attachment{{Key: "k/1", Filename: "cv.pdf", Field: "files"}, {Key: "k/2", Filename: "photo.png", Field: "files"}},
		Errors: map[string]string{hubclient.DraftEmailField: "Enter an email address."},
	}
	return map[string]*goquery.Document{
		"fresh":   renderDoc(t, components.HubForm(props(allFieldsSchema()))),
		"errored": renderDoc(t, components.HubForm(errored)),
		"draft":   renderDoc(t, components.HubForm(draft)),
	}
}

func forEachForm(t *testing.T, f func(t *testing.T, doc *goquery.Document)) {
	t.Helper()
	forms := a11yForms(t)
	for _, name := range []string{"fresh", "errored", "draft"} {
		t.Run(name, func(t *testing.T) { f(t, forms[name]) })
	}
}

// controls returns the controls of the field called name.
func controls(doc *goquery.Document, name string) *goquery.Selection {
	return doc.Find("input, select, textarea").FilterFunction(func(_ int, s *goquery.Selection) bool {
		// A composite field's controls post its parts: "ship.city".
		n := s.AttrOr("name", "")
		return n == name || strings.HasPrefix(n, name+".")
	})
}

// valueFields returns the fields of s that take a value: all but the
// content between the questions, which has no control.
func valueFields(s *hubclient.Schema) []hubclient.Field {
	return slices.DeleteFunc(s.Fields, func(f hubclient.Field) bool { return !f.TypeOf().HasValue() })
}

// groupOf returns the fieldset a radio button or checkbox belongs to, if it
// is the field's own group and not a step.
func groupOf(s *goquery.Selection) *goquery.Selection {
	return s.Closest("fieldset").Not(".hubform-step")
}

func TestA11yLabels(t *testing.T) {
	forEachForm(t, func(t *testing.T, doc *goquery.Document) {
		n := 0
		doc.Find("input, select, textarea").Not(`[type="hidden"]`).Each(func(_ int, s *goquery.Selection) {
			n++
			name := s.AttrOr("name", "")
			var labels []string
			if id := s.AttrOr("id", ""); id != "" {
				doc.Find("label").Each(func(_ int, l *goquery.Selection) {
					if l.AttrOr("for", "") == id {
						labels = append(labels, l.Text())
					}
				})
			}
			if l := s.Closest("label"); l.Length() > 0 {
				labels = append(labels, l.Text())
			}
			if typ := s.AttrOr("type", ""); typ == "radio" || typ == "checkbox" {
				if g := groupOf(s); g.Length() > 0 {
					labels = append(labels, g.ChildrenFiltered("legend").Text())
				}
			}
			if !slices.ContainsFunc(labels, func(l string) bool { return strings.TrimSpace(l) != "" }) {
				t.Errorf("control %q (<%s type=%q>) has no label", name, goquery.NodeName(s), s.AttrOr("type", ""))
			}
		})
		if n == 0 {
			t.Fatal("no visible controls")
		}
		doc.Find("button").Each(func(_ int, b *goquery.Selection) {
			if strings.TrimSpace(b.Text()) == "" {
				t.Errorf("button %v has no text", b.Nodes[0].Attr)
			}
		})
	})
}

func TestA11yRequired(t *testing.T) {
	forEachForm(t, func(t *testing.T, doc *goquery.Document) {
		for _, f := range valueFields(allFieldsSchema()) {
			cs := controls(doc, f.Name)
			if cs.Length() == 0 {
				t.Errorf("field %q has no control", f.Name)
				continue
			}
			// A required attribute on each box of a group would demand every
			// box; a honeypot must stay empty, not be filled.
			want := f.Required && f.Type != hubclient.FieldCheckboxes && !hubclient.IsHoneypot(f.Name)
			cs.Each(func(_ int, c *goquery.Selection) {
				want := want
				if f.Type == hubclient.FieldAddress {
					// A required address requires its first line, city and country.
					part := strings.TrimPrefix(c.AttrOr("name", ""), f.Name+".")
					want = want && (part == hubclient.AddressLine1 || part == hubclient.AddressCity || part == hubclient.AddressCountry)
				}
				if _, got := c.Attr("required"); got != want {
					t.Errorf("field %q control %q: required %v, want %v", f.Name, c.AttrOr("value", ""), got, want)
				}
			})
			if f.Type == hubclient.FieldHidden || hubclient.IsHoneypot(f.Name) {
				continue
			}
			field := cs.First().Closest(".hubform-field")
			if got := field.Find(".hubform-required").Length() > 0; got != f.Required {
				t.Errorf("field %q shows a required mark: %v, want %v", f.Name, got, f.Required)
			}
		}
	})
}

func TestA11yDescribedBy(t *testing.T) {
	p := props(allFieldsSchema())
	p.State = erroredState()
	doc := renderDoc(t, components.HubForm(p))
	checkIDs(t, doc) // every aria-describedby id exists
	for _, f := range valueFields(allFieldsSchema()) {
		if f.Type == hubclient.FieldHidden || hubclient.IsHoneypot(f.Name) {
			continue
		}
		var want []string
		if f.Help != "" {
			want = append(want, f.Help)
		}
		if msg := p.State.Errors[f.Name]; msg != "" {
			want = append(want, msg)
		}
		controls(doc, f.Name).Each(func(_ int, c *goquery.Selection) {
			// A group is described on its fieldset.
			ids := c.AttrOr("aria-describedby", "")
			if g := groupOf(c); ids == "" && g.Length() > 0 {
				ids = g.AttrOr("aria-describedby", "")
			}
			var got []string
			for _, id := range strings.Fields(ids) {
				got = append(got, strings.TrimSpace(doc.Find("#"+id).Text()))
			}
			if !slices.Equal(got, want) {
				t.Errorf("field %q is described by %q, want %q", f.Name, got, want)
			}
		})
	}
}

func TestA11yInvalid(t *testing.T) {
	fresh := renderDoc(t, components.HubForm(props(allFieldsSchema())))
	if n := fresh.Find("[aria-invalid]").Length(); n != 0 {
		t.Errorf("%d elements with aria-invalid in a form without errors, want none", n)
	}

	p := props(allFieldsSchema())
	p.State = erroredState()
	doc := renderDoc(t, components.HubForm(p))
	doc.Find("[aria-invalid]").Each(func(_ int, s *goquery.Selection) {
		name := s.AttrOr("name", "")
		if p.State.Errors[name] == "" {
			t.Errorf("aria-invalid on %q, which has no error", name)
		}
		if got := s.AttrOr("aria-invalid", ""); got != "true" {
			t.Errorf("aria-invalid=%q on %q, want true", got, name)
		}
	})
	for name := range p.State.Errors {
		controls(doc, name).Each(func(_ int, c *goquery.Selection) {
			if c.AttrOr("aria-invalid", "") != "true" {
				t.Errorf("control of %q with an error lacks aria-invalid=true", name)
			}
		})
	}
}

func TestA11yGroups(t *testing.T) {
	forEachForm(t, func(t *testing.T, doc *goquery.Document) {
		for _, f := range valueFields(allFieldsSchema()) {
			if f.Type != hubclient.FieldRadio && f.Type != hubclient.FieldCheckboxes {
				continue
			}
			cs := controls(doc, f.Name)
			if cs.Length() != len(f.Options) {
				t.Errorf("group %q has %d controls, want %d", f.Name, cs.Length(), len(f.Options))
			}
			cs.Each(func(_ int, c *goquery.Selection) {
				g := groupOf(c)
				if g.Length() != 1 {
					t.Errorf("control of %q is not in a fieldset of its own", f.Name)
					return
				}
				if legend := g.ChildrenFiltered("legend"); !strings.Contains(legend.Text(), f.Label) {
					t.Errorf("group %q legend = %q, want the label %q", f.Name, legend.Text(), f.Label)
				}
				g.Find("input").Each(func(_ int, other *goquery.Selection) {
					if other.AttrOr("name", "") != f.Name {
						t.Errorf("group %q also holds control %q", f.Name, other.AttrOr("name", ""))
					}
				})
			})
		}
	})
}

func TestA11yHoneypot(t *testing.T) {
	forEachForm(t, func(t *testing.T, doc *goquery.Document) {
		hp := controls(doc, "_hp_company")
		if hp.Length() != 1 {
			t.Fatalf("%d honeypot controls, want 1", hp.Length())
		}
		if hp.Closest(`[aria-hidden="true"]`).Length() == 0 {
			t.Error(`honeypot is not inside aria-hidden="true"`)
		}
		for attr, want := range map[string]string{"tabindex": "-1", "autocomplete": "off", "type": "text"} {
			if got := hp.AttrOr(attr, ""); got != want {
				t.Errorf("honeypot %s = %q, want %q", attr, got, want)
			}
		}
		for _, attr := range []string{"required", "aria-required", "aria-describedby", "aria-invalid"} {
			if _, ok := hp.Attr(attr); ok {
				t.Errorf("honeypot has %s", attr)
			}
		}
		if doc.Find(`.hubform-hp label, .hubform-hp input`).FilterFunction(func(_ int, s *goquery.Selection) bool {
			return s.Closest(`[aria-hidden="true"]`).Length() == 0
		}).Length() != 0 {
			t.Error("part of the honeypot is outside aria-hidden")
		}
	})
}

func TestA11yUniqueIDs(t *testing.T) {
	forEachForm(t, func(t *testing.T, doc *goquery.Document) {
		checkIDs(t, doc)
		doc.Find("input, select, textarea").Each(func(_ int, s *goquery.Selection) {
			if s.AttrOr("type", "") == "hidden" && s.AttrOr("id", "") == "" {
				return
			}
			if s.AttrOr("id", "") == "" {
				t.Errorf("control %q has no id", s.AttrOr("name", ""))
			}
		})
	})
}

// TestUniqueIDsFieldNames renders fields whose names look like the ids
// derived for other things.
func TestUniqueIDsFieldNames(t *testing.T) {
	s := oneStep(hubclient.Meta{CaptchaProvider: hubclient.CaptchaTurnstile},
		hubclient.Field{Name: "form", Type: hubclient.FieldSelect, Label: "Which form do you need?", Options: options("a", "A")},
		hubclient.Field{Name: "hubform", Type: hubclient.FieldText, Label: "Hubform"},
		hubclient.Field{Name: "turnstile", Type: hubclient.FieldText, Label: "Turnstile"},
		hubclient.Field{Name: "_form", Type: hubclient.FieldText, Label: "Underscore"},
	)
	doc := renderDoc(t, components.HubForm(props(s)))
	checkIDs(t, doc)
	if got := doc.Find("[data-vendor-turnstile]").AttrOr("data-form", ""); !doc.Find("#" + got).Is("form") {
		t.Errorf("Turnstile data-form %q does not name the form", got)
	}
	if l := doc.Find(`label[for="hubform-acme-contact-form"]`); !doc.Find("#hubform-acme-contact-form").Is("select") || l.Length() != 1 {
		t.Errorf("the label of field form does not name its select")
	}
}

// TestRequiredGroups checks required on groups of choices: one radio button
// must be chosen, so each carries required; any number of checkboxes may
// be ticked, so none does, and only the legend marks the group required.
func TestRequiredGroups(t *testing.T) {
	tests := []struct {
		typ          string
		wantRequired bool
	}{
		{hubclient.FieldRadio, true},
		{hubclient.FieldCheckboxes, false},
		{hubclient.FieldSelect, true},
	}
	for _, tc := range tests {
		t.Run(tc.typ, func(t *testing.T) {
			s := oneStep(hubclient.Meta{}, hubclient.Field{Name: "g", Type: tc.typ, Label: "Group", Required: true, Options: options("a", "A", "b", "B")})
			doc := renderDoc(t, components.HubForm(props(s)))
			cs := controls(doc, "g")
			if cs.Length() == 0 {
				t.Fatal("no controls")
			}
			cs.Each(func(_ int, c *goquery.Selection) {
				if _, got := c.Attr("required"); got != tc.wantRequired {
					t.Errorf("control %q required %v, want %v", c.AttrOr("value", ""), got, tc.wantRequired)
				}
			})
			if doc.Find(".hubform-field .hubform-required").Length() != 1 {
				t.Error("the group shows no required mark")
			}
		})
	}
}

// TestRequiredCheckboxGroupSaysSo checks that a required group of
// checkboxes, which no box can mark required, says it in its legend for
// assistive technology.
func TestRequiredCheckboxGroupSaysSo(t *testing.T) {
	field := hubclient.Field{Name: "topics", Type: hubclient.FieldCheckboxes, Label: "Topics", Required: true, Options: options("a", "A", "b", "B")}
	doc := renderDoc(t, components.HubForm(props(oneStep(hubclient.Meta{}, field))))
	if got := doc.Find("fieldset.hubform-field--checkboxes legend .hubform-visually-hidden").Text(); got != "(required)" {
		t.Errorf("legend's hidden text %q, want %q", got, "(required)")
	}
	field.Required = false
	doc = renderDoc(t, components.HubForm(props(oneStep(hubclient.Meta{}, field))))
	if doc.Find("fieldset.hubform-field--checkboxes .hubform-visually-hidden").Length() != 0 {
		t.Error("an optional group says it is required")
	}
}

// TestUntitledStepHasLegend names a step without a title for assistive
// technology, which announces a fieldset by its legend: by the form's
// title when it is the only step, else by its place among the steps.
func TestUntitledStepHasLegend(t *testing.T) {
	field := hubclient.Field{Name: "name", Type: hubclient.FieldText, Label: "Name"}
	s := oneStep(hubclient.Meta{}, field)
	s.Title = "Contact us"
	doc := renderDoc(t, components.HubForm(props(s)))
	if got := doc.Find("fieldset.hubform-step > legend.hubform-visually-hidden:first-child").Text(); got != "Contact us" {
		t.Errorf("the only step's legend is %q, want the form's title", got)
	}
	s.Steps = append(s.Steps, hubclient.Step{ID: "second", Fields: nil})
	doc = renderDoc(t, components.HubForm(props(s)))
	var got []string
	doc.Find("fieldset.hubform-step > legend:first-child").Each(func(_ int, l *goquery.Selection) { got = append(got, l.Text()) })
	if want := []string{"Step 1 of 2", "Step 2 of 2"}; !slices.Equal(got, want) {
		t.Errorf("untitled steps' legends %q, want %q", got, want)
	}
}

// TestA11yDraft checks the markup of saving and resuming: the address is
// labelled and described by the explanation and its error, each kept
// file's box by the line naming the file, and the notices are statuses.
func TestA11yDraft(t *testing.T) {
	doc := a11yForms(t)["draft"]
	email := controls(doc, hubclient.DraftEmailField)
	var described []string
	for _, id := range strings.Fields(email.AttrOr("aria-describedby", "")) {
		described = append(described, doc.Find("#"+id).Text())
	}
	if want := []string{components.DefaultTexts["saveExplain"], "Enter an email address."}; !slices.Equal(described, want) {
		t.Errorf("the address is described by %q, want %q", described, want)
	}
	if email.AttrOr("aria-invalid", "") != "true" {
		t.Error("the refused address lacks aria-invalid=true")
	}
	var files []string
	controls(doc, hubclient.DraftKeepField).Each(func(_ int, c *goquery.Selection) {
		files = append(files, doc.Find("#"+c.AttrOr("aria-describedby", "-")).Text())
	})
	if want := []string{"cv.pdf, kept from your saved form", "photo.png, kept from your saved form"}; !slices.Equal(files, want) {
		t.Errorf("the keep boxes are described by %q, want %q", files, want)
	}
	if doc.Find("details[data-hubform-save-panel] > summary").Text() == "" {
		t.Error("the save panel's summary has no text")
	}
}

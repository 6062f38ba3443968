package console_test

import (
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/hubclient"
)

// typesBase is a form of one page with a choice read by a condition, a
// radio with a picture, a text with rules, a number with bounds, a
// checkbox read by a condition written by hand, and the fields those
// conditions are on.
const typesBase = `{"title":"Order","x-note":"keep me","fields":[
{"name":"size","type":"select","label":"Size","options":[{"value":"s","label":"Small"},{"value":"l","label":"Large"}]},
{"name":"colour","type":"radio","label":"Colour","options":[{"value":"red","label":"Red","image":"https://example.com/red.png","alt":"A red shirt"},{"value":"blue","label":"Blue"}]},
{"name":"note","type":"text","label":"Note","maxLength":10,"messages":{"maxLength":"Short, please","required":"Say it"}},
{"name":"qty","type":"number","label":"How many","min":1,"max":5},
{"name":"gift","type":"checkbox","label":"A gift"},
{"name":"wrap","type":"text","label":"Wrapping","visibleIf":{"==":[{"var":"size"},"l"]}},
{"name":"card","type":"text","label":"Card","visibleIf":{"if":[{"var":"gift"},true,false]}}],
"steps":[{"id":"a","fields":["size","colour","note","qty","gift","wrap","card"]}]}`

func newTypesForm(t *testing.T) *builderForm {
	f := newBuilderForm(t)
	f.saveFile(typesBase)
	return f
}

// panelOf is the post of a field's panel: its name, label and page, and
// more.
func panelOf(name, label string, more url.Values) url.Values {
	form := url.Values{"name": {name}, "label": {label}, "step": {"a"}}
	for k, v := range more {
		form[k] = v
	}
	return form
}

// TestBuilderTypeChange: the panel's Type changes a field's type, keeping
// what the new type takes, dropping what it does not and saying so.
func TestBuilderTypeChange(t *testing.T) {
	f := newTypesForm(t)
	// A text with rules becomes a rating: its rules and their messages go.
	n, _, _ := f.last()
	res := f.post("/forms/acme/contact/fields/2", withBase(panelOf("note", "Note", url.Values{"type": {"rating"}}), n))
	loc := res.header.Get("Location")
	if res.status != http.StatusSeeOther || !strings.Contains(loc, "retyped=note") || !strings.Contains(loc, "dropped=text") {
		t.Fatalf("note to rating: %d to %q", res.status, loc)
	}
	_, s, _ := f.last()
	if got := s.Fields[2]; got.Type != "rating" || got.MaxLength != 0 || len(got.Messages) != 1 || got.Messages["required"] != "Say it" {
		t.Errorf("note as a rating: %+v", got)
	}
	page := html.UnescapeString(f.b.get(loc).body)
	for _, want := range []string{"“Note” is now a Rating. It no longer has its length and pattern rules", `class="builder-retyped"`, "Number of stars"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page after the change lacks %q", want)
		}
	}
	// A number becomes a slider: its bounds carry over.
	s = f.act("/fields/3", panelOf("qty", "How many", url.Values{"type": {"slider"}}))
	if got := s.Fields[3]; got.Type != "slider" || got.Min != "1" || got.Max != "5" {
		t.Errorf("qty as a slider: %+v", got)
	}
	// A radio with pictures becomes a dropdown: options kept, pictures gone.
	s = f.act("/fields/1", panelOf("colour", "Colour", url.Values{"type": {"select"}}))
	if got := s.Fields[1]; got.Type != "select" || len(got.Options) != 2 || got.Options[0].Image != "" || got.Options[0].Alt != "" {
		t.Errorf("colour as a dropdown: %+v", got)
	}
	// A dropdown becomes a short answer: its options go, and the page says so.
	res = f.post("/forms/acme/contact/fields/1", withBase(panelOf("colour", "Colour", url.Values{"type": {"text"}}), f.revision()))
	if loc := res.header.Get("Location"); !strings.Contains(loc, "dropped=options") {
		t.Fatalf("colour to text: %d to %q", res.status, loc)
	} else if page := html.UnescapeString(f.b.get(loc).body); !strings.Contains(page, "It no longer has its options: a Short answer takes none.") {
		t.Errorf("the page does not say the options went")
	}
	// A short answer becomes checkboxes: it gets an option to edit.
	s = f.act("/fields/1", panelOf("colour", "Colour", url.Values{"type": {"checkboxes"}}))
	if got := s.Fields[1]; got.Type != "checkboxes" || len(got.Options) != 1 || got.Options[0].Value != "Option 1" {
		t.Errorf("colour as checkboxes: %+v", got)
	}
	// Translations of options gone go with them.
	f.saveFile(strings.Replace(typesBase, `"steps":`, `"i18n":{"translations":{"de":{"fields":{"size":{"label":"Größe","options":{"s":"Klein"}}}}}},"steps":`, 1))
	s = f.act("/fields/0", panelOf("size", "Size", url.Values{"type": {"email"}, "visibleIf": {"rows"}}))
	if tr := s.I18n.Translations["de"].Fields["size"]; s.Fields[0].Type != "email" || len(tr.Options) != 0 || tr.Label != "Größe" {
		t.Errorf("size as an e-mail: %+v, translated %+v", s.Fields[0], tr)
	}
	f.saveFile(typesBase)
	// A dropdown read by "Size is Large" may become a multiple choice.
	s = f.act("/fields/0", panelOf("size", "Size", url.Values{"type": {"radio"}}))
	if s.Fields[0].Type != "radio" || compact(t, s.Fields[5].VisibleIf) != `{"==":[{"var":"size"},"l"]}` {
		t.Errorf("size as a radio: %+v, wrap %s", s.Fields[0], s.Fields[5].VisibleIf)
	}
}

// TestBuilderTypeChangeRefused: a type no condition reading the field can
// compare as it does, a condition written by hand, a type not offered.
func TestBuilderTypeChangeRefused(t *testing.T) {
	f := newTypesForm(t)
	body := f.refused("/fields/0", panelOf("size", "Size", url.Values{"type": {"number"}}), http.StatusUnprocessableEntity)
	if !strings.Contains(body, "“Wrapping” is shown when “Size” is Large, which a Number cannot be: change that condition first, or keep the type Dropdown") {
		t.Errorf("size to a number: %s", body)
	}
	body = f.refused("/fields/4", panelOf("gift", "A gift", url.Values{"type": {"text"}}), http.StatusUnprocessableEntity)
	if !strings.Contains(body, "“Card” is shown depending on “A gift” by a condition written in the JSON file") {
		t.Errorf("gift to text: %s", body)
	}
	for _, to := range []string{"hidden", "heading", "nosuch"} {
		if body := f.refused("/fields/2", panelOf("note", "Note", url.Values{"type": {to}}), http.StatusUnprocessableEntity); !strings.Contains(body, "cannot become") {
			t.Errorf("note to %s: %s", to, body)
		}
	}
}

// TestBuilderTypeSettings: each type's settings, set in the panel and
// refused in the owner's words.
func TestBuilderTypeSettings(t *testing.T) {
	f := newTypesForm(t)
	f.act("/fields/2", panelOf("note", "Note", url.Values{"type": {"rating"}}))
	for max, want := range map[string]string{"11": "The number of stars is 10 at most", "2": "The number of stars is 3 at least", "4.5": "The number of stars is a whole number, from 3 to 10"} {
		if body := f.refused("/fields/2", panelOf("note", "Note", url.Values{"max": {max}}), http.StatusUnprocessableEntity); !strings.Contains(body, want) {
			t.Errorf("rating max %s: want %q in %s", max, want, body)
		}
	}
	if s := f.act("/fields/2", panelOf("note", "Note", url.Values{"max": {"7"}})); s.Fields[2].Max != "7" {
		t.Errorf("rating max 7: %+v", s.Fields[2])
	}
	f.act("/fields/2", panelOf("note", "Note", url.Values{"type": {"scale"}}))
	if body := f.refused("/fields/2", panelOf("note", "Note", url.Values{"min": {"2"}, "max": {"12"}}), http.StatusUnprocessableEntity); !strings.Contains(body, "A scale starts at 0 or 1") || !strings.Contains(body, "The highest number of a scale is 10 at most") {
		t.Errorf("scale 2 to 12: %s", body)
	}
	s := f.act("/fields/2", panelOf("note", "Note", url.Values{"min": {"0"}, "max": {"10"}, "minLabel": {"Hard"}, "maxLabel": {"Easy"}}))
	if got := s.Fields[2]; got.Min != "0" || got.Max != "10" || got.MinLabel != "Hard" || got.MaxLabel != "Easy" {
		t.Errorf("scale 0 to 10: %+v", got)
	}
	// The words under the ends stay for an NPS, which takes them too.
	if s = f.act("/fields/2", panelOf("note", "Note", url.Values{"type": {"nps"}})); s.Fields[2].MinLabel != "Hard" || s.Fields[2].Min != "" {
		t.Errorf("scale to nps: %+v", s.Fields[2])
	}
	f.act("/fields/3", panelOf("qty", "How many", url.Values{"type": {"slider"}}))
	if body := f.refused("/fields/3", panelOf("qty", "How many", url.Values{"min": {"9"}, "max": {"3"}, "by": {"1"}}), http.StatusUnprocessableEntity); !strings.Contains(body, "The lowest number is after the highest number") {
		t.Errorf("slider 9 to 3: %s", body)
	}
	if body := f.refused("/fields/3", panelOf("qty", "How many", url.Values{"min": {""}, "max": {"3"}}), http.StatusUnprocessableEntity); !strings.Contains(body, "A slider needs its lowest and highest numbers") {
		t.Errorf("slider without min: %s", body)
	}
	if s = f.act("/fields/3", panelOf("qty", "How many", url.Values{"min": {"0"}, "max": {"500"}, "by": {"50"}})); s.Fields[3].Max != "500" || s.Fields[3].Step != 50 {
		t.Errorf("slider 0 to 500 by 50: %+v", s.Fields[3])
	}
	f.act("/fields/3", panelOf("qty", "How many", url.Values{"type": {"time"}}))
	if body := f.refused("/fields/3", panelOf("qty", "How many", url.Values{"min": {"9 am"}, "by": {"7.5"}}), http.StatusUnprocessableEntity); !strings.Contains(body, `The earliest time is a time (HH:MM): "9 am" is not one`) || !strings.Contains(body, "The step in minutes is a whole number") {
		t.Errorf("time bounds: %s", body)
	}
	if s = f.act("/fields/3", panelOf("qty", "How many", url.Values{"min": {"09:00"}, "max": {"17:00"}, "by": {"30"}})); s.Fields[3].Min != "09:00" || s.Fields[3].Step != 30 {
		t.Errorf("time 9 to 5: %+v", s.Fields[3])
	}
	f.act("/fields/3", panelOf("qty", "How many", url.Values{"type": {"date"}}))
	if body := f.refused("/fields/3", panelOf("qty", "How many", url.Values{"min": {"2026-12-31"}, "max": {"2026-01-01"}}), http.StatusUnprocessableEntity); !strings.Contains(body, "The first date is after the last date") {
		t.Errorf("dates out of order: %s", body)
	}
	// Pictures of options, by option value.
	if body := f.refused("/fields/1", panelOf("colour", "Colour", url.Values{"picture.blue": {"ftp://x/b.png"}, "alt.blue": {""}}), http.StatusUnprocessableEntity); !strings.Contains(body, "The picture of the option “Blue” is an address starting with https://") {
		t.Errorf("a picture's address: %s", body)
	}
	s = f.act("/fields/1", panelOf("colour", "Colour", url.Values{"options": {"red|Red\nblue|Blue\n"}, "picture.red": {""}, "alt.red": {"gone"}, "picture.blue": {"https://example.com/b.png"}, "alt.blue": {"A blue shirt"}}))
	if got := s.Fields[1].Options; got[0].Image != "" || got[0].Alt != "" || got[1].Image != "https://example.com/b.png" || got[1].Alt != "A blue shirt" {
		t.Errorf("pictures: %+v", got)
	}
	// Options edited one a line keep their pictures.
	if s = f.act("/fields/1", panelOf("colour", "Colour", url.Values{"options": {"blue|Navy\n"}})); s.Fields[1].Options[0].Image != "https://example.com/b.png" {
		t.Errorf("an option's picture lost with its label: %+v", s.Fields[1].Options)
	}
}

// TestBuilderContent: headings, paragraphs, images and dividers are added
// from the palette and their texts edited in the panel and in place.
func TestBuilderContent(t *testing.T) {
	f := newTypesForm(t)
	s := f.act("/fields", url.Values{"type": {"heading"}, "label": {"Delivery"}, "at": {"0"}})
	if got := s.Fields[0]; got.Name != "heading" || got.Text != "Delivery" || got.Label != "" {
		t.Errorf("a heading added: %+v", got)
	}
	s = f.act("/fields", url.Values{"type": {"paragraph"}, "at": {"1"}})
	if got := s.Fields[1]; got.Name != "paragraph" || got.Text == "" {
		t.Errorf("a paragraph added: %+v", got)
	}
	s = f.act("/fields", url.Values{"type": {"image"}, "at": {"2"}})
	if got := s.Fields[2]; got.Name != "image" || !strings.HasPrefix(got.Src, "http") || !strings.Contains(got.Src, "picture") || got.Alt != "" {
		t.Errorf("an image added: %+v", got)
	}
	if stepOf(s, "image") != "a" {
		t.Errorf("the image is in no page: %v", stepFields(s))
	}
	text := "Read *this*.\n\n- one\n- two"
	if s = f.act("/fields/1", url.Values{"name": {"paragraph"}, "text": {text}, "step": {"a"}}); s.Fields[1].Text != text {
		t.Errorf("a paragraph's text: %q", s.Fields[1].Text)
	}
	if s = f.act("/fields/0/text", url.Values{"part": {"text"}, "value": {"Shipping"}}); s.Fields[0].Text != "Shipping" {
		t.Errorf("a heading's text in place: %q", s.Fields[0].Text)
	}
	if body := f.refused("/fields/0/text", url.Values{"part": {"text"}, "value": {" "}}, http.StatusUnprocessableEntity); !strings.Contains(body, "Write the heading's text") {
		t.Errorf("an empty heading: %s", body)
	}
	img := url.Values{"name": {"image"}, "src": {"https://example.com/shop.jpg"}, "alt": {""}, "step": {"a"}}
	if body := f.refused("/fields/2", img, http.StatusUnprocessableEntity); !strings.Contains(body, "Say what the image shows, for visitors who cannot see it, or mark it decorative") {
		t.Errorf("an image without alt: %s", body)
	}
	img.Del("base")
	img.Set("decorative", "on")
	if s = f.act("/fields/2", img); s.Fields[2].Src != "https://example.com/shop.jpg" || s.Fields[2].Alt != "" {
		t.Errorf("a decorative image: %+v", s.Fields[2])
	}
	img.Set("alt", "Our shop")
	if s = f.act("/fields/2", img); s.Fields[2].Alt != "Our shop" {
		t.Errorf("an image described: %+v", s.Fields[2])
	}
	img.Set("src", "javascript:alert(1)")
	img.Del("base")
	if body := f.refused("/fields/2", img, http.StatusUnprocessableEntity); !strings.Contains(body, "The image's address starts with https://") {
		t.Errorf("an image's address: %s", body)
	}
	// The panels show the content's own inputs, not a label or Required.
	page := html.UnescapeString(f.b.get(console.Path + "/forms/acme/contact").body)
	for _, want := range []string{`id="f1-text" name="text" rows="5"`, `id="f2-alt"`, `Decorative: it shows nothing a visitor needs`, `<span class="builder-field-label">Shipping</span>`, `<span class="builder-field-label">Read this. one two</span>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, `id="f0-required"`) || strings.Contains(page, `id="f0-type"`) || strings.Contains(page, `id="f0-requiredIf"`) {
		t.Errorf("a heading's panel offers Required, a type or Required when")
	}
}

// TestBuilderPaletteGroups: the palette and the Type select group the
// types under the palette's headings, in its order.
func TestBuilderPaletteGroups(t *testing.T) {
	f := newTypesForm(t)
	page := f.b.get(console.Path + "/forms/acme/contact").body
	groups := []string{"Choices", "Ratings", "Text", "Date and time", "Contact", "Files and signature", "Layout"}
	at := 0
	for _, g := range groups {
		k := strings.Index(page[at:], `class="builder-palette-heading"`)
		if k < 0 || !strings.HasPrefix(page[at+k:], `class="builder-palette-heading" id="builder-group-`) || !strings.Contains(page[at+k:at+k+120], ">"+g+"<") {
			t.Fatalf("palette heading %q missing or out of order", g)
		}
		at += k + 1
	}
	for _, typ := range []string{hubclient.FieldHeading, hubclient.FieldParagraph, hubclient.FieldImage, hubclient.FieldDivider, hubclient.FieldRating, hubclient.FieldRanking} {
		if !strings.Contains(page, `id="builder-kind-`+typ+`"`) {
			t.Errorf("the palette lacks %s", typ)
		}
	}
	if !strings.Contains(page, `<optgroup label="Layout">`) {
		t.Errorf("the add form's types are not grouped")
	}
	// The Type of a field offers the types that take a value only.
	sel := page[strings.Index(page, `id="f2-type"`):]
	sel = sel[:strings.Index(sel, "</select>")]
	if !strings.Contains(sel, `value="rating"`) || strings.Contains(sel, `value="heading"`) || strings.Contains(sel, `value="hidden"`) {
		t.Errorf("the Type select: %s", sel)
	}
}

// withBase sets the revision a post was built on.
func withBase(form url.Values, n int64) url.Values {
	form.Set("base", strconv.FormatInt(n, 10))
	return form
}

// revision is the form's revision, which the next post builds on.
func (f *builderForm) revision() int64 {
	n, _, _ := f.last()
	return n
}

// TestBuilderAddsPartsTypes: a matrix, an address, a signature and a
// group are added with what their form needs (rows and columns, a
// question to repeat), so that the form still saves; none offers to
// change its type.
func TestBuilderAddsPartsTypes(t *testing.T) {
	f := newTypesForm(t)
	for _, typ := range []string{"matrix", "address", "signature", "group"} {
		s := f.act("/fields", url.Values{"type": {typ}})
		got := s.Fields[len(s.Fields)-1]
		if got.Type != typ {
			t.Fatalf("added %+v, want a %s", got, typ)
		}
		switch {
		case typ == "matrix" && (len(got.Rows) != 2 || len(got.Columns) != 3):
			t.Errorf("a new matrix has rows %v and columns %v", got.Rows, got.Columns)
		case typ == "group" && len(got.Fields) != 1:
			t.Errorf("a new group repeats %v", got.Fields)
		}
	}
	page := f.b.get(console.Path + "/forms/acme/contact").body
	// The seven fields before them may change their type; they may not.
	if n := strings.Count(page, `name="type" aria-describedby=`); n != 7 {
		t.Errorf("%d panels offer to change the type, want the seven fields before these", n)
	}
}

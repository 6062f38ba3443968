package console_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/hubclient"
)

// partsBase is a form with a matrix, an address, a signature and a group,
// the matrix and the group translated into German.
const partsBase = `{"title":"Survey","x-note":"keep me","fields":[
{"name":"grid","type":"matrix","label":"Grid","rows":[{"value":"Speed","label":"Speed"},{"value":"Price","label":"Price"}],"columns":[{"value":"Bad","label":"Bad"},{"value":"Good","label":"Good"}]},
{"name":"home","type":"address","label":"Home"},
{"name":"sig","type":"signature","label":"Signed"},
{"name":"team","type":"group","label":"Team","fields":[{"name":"name","type":"text","label":"Name"},{"name":"email","type":"email","label":"Email"}]}],
"i18n":{"translations":{"de":{"fields":{
"grid":{"label":"Raster","rows":{"Speed":"Tempo","Price":"Preis"},"columns":{"Bad":"Schlecht","Good":"Gut"}},
"team":{"label":"Mannschaft","fields":{"name":{"label":"Name"},"email":{"label":"E-Mail"}}}}}}},
"steps":[{"id":"a","fields":["grid","home","sig","team"]}]}`

func newPartsForm(t *testing.T) *builderForm {
	f := newBuilderForm(t)
	f.saveFile(partsBase)
	return f
}

// TestBuilderMatrixSettings: rows and columns are edited one a line as
// options are, several answers per row switched on and off; translations
// of rows and columns gone go with them.
func TestBuilderMatrixSettings(t *testing.T) {
	f := newPartsForm(t)
	page := f.b.get(console.Path + "/forms/acme/contact").body
	for _, want := range []string{`name="rows"`, `name="columns"`, ">Rows<", ">Columns<", "Several answers per row"} {
		if !strings.Contains(page, want) {
			t.Errorf("the matrix's panel lacks %q", want)
		}
	}
	// An address names its parts in the page's address; a matrix and a
	// group are not offered to be prefilled.
	if !strings.Contains(page, "(?home.city=…)") || strings.Contains(panelIn(t, page, 0), `name="prefill"`) || strings.Contains(panelIn(t, page, 3), `name="prefill"`) {
		t.Errorf("the panels offer prefill wrongly")
	}
	s := f.act("/fields/0", panelOf("grid", "Grid", url.Values{"rows": {"Speed\nQuality|How good\n\n"}, "columns": {"Bad\r\nOK\r\nGood"}, "multiple": {"on"}}))
	g := s.Fields[0]
	if len(g.Rows) != 2 || g.Rows[1].Value != "Quality" || g.Rows[1].Label != "How good" || len(g.Columns) != 3 || g.Columns[1].Value != "OK" || !g.Multiple {
		t.Fatalf("the matrix after the edit: rows %+v, columns %+v, multiple %v", g.Rows, g.Columns, g.Multiple)
	}
	tr := s.I18n.Translations["de"].Fields["grid"]
	if len(tr.Rows) != 1 || tr.Rows["Speed"] != "Tempo" || len(tr.Columns) != 2 || tr.Label != "Raster" {
		t.Errorf("the matrix's translation keeps %+v, want Speed, Bad and Good", tr)
	}
	// The box unticked, a row takes one answer again.
	if s = f.act("/fields/0", panelOf("grid", "Grid", url.Values{"rows": {"Speed"}, "columns": {"Bad\nGood"}})); s.Fields[0].Multiple {
		t.Errorf("the matrix still takes several answers a row")
	}
}

// TestBuilderMatrixRefused: a matrix without rows or columns, or with a
// row written twice, is refused in words, and nothing is saved.
func TestBuilderMatrixRefused(t *testing.T) {
	f := newPartsForm(t)
	for _, c := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"rows": {" \n "}}, "A matrix needs one row at least"},
		{url.Values{"columns": {""}}, "A matrix needs one column at least"},
		{url.Values{"rows": {"Speed\nPrice\nSpeed"}}, "The row “Speed” is written twice"},
	} {
		body := f.refused("/fields/0", panelOf("grid", "Grid", c.form), http.StatusUnprocessableEntity)
		if !strings.Contains(body, c.want) {
			t.Errorf("%v: the page does not say %q", c.form, c.want)
		}
	}
}

// TestBuilderAddressSettings: the countries are codes or English names,
// every country when empty; what is not a country is refused by name.
func TestBuilderAddressSettings(t *testing.T) {
	f := newPartsForm(t)
	s := f.act("/fields/1", panelOf("home", "Home", url.Values{"countries": {"fr, de\nSwitzerland\nbe nl\nFR"}}))
	if got := strings.Join(s.Fields[1].Countries, " "); got != "FR DE CH BE NL" {
		t.Errorf("countries %q, want FR DE CH BE NL", got)
	}
	page := f.b.get(console.Path + "/forms/acme/contact").body
	if !strings.Contains(page, "Visitors choose among France, Germany, Switzerland, Belgium and Netherlands.") {
		t.Errorf("the panel does not name the countries chosen")
	}
	body := f.refused("/fields/1", panelOf("home", "Home", url.Values{"countries": {"FR\nXX\nAtlantis"}}), http.StatusUnprocessableEntity)
	for _, want := range []string{"“XX” is not a country code", "“Atlantis” is not a country code"} {
		if !strings.Contains(body, want) {
			t.Errorf("the refusal does not say %q", want)
		}
	}
	if s = f.act("/fields/1", panelOf("home", "Home", url.Values{"countries": {""}})); len(s.Fields[1].Countries) != 0 {
		t.Errorf("emptied, the countries are %v", s.Fields[1].Countries)
	}
	if page := f.b.get(console.Path + "/forms/acme/contact").body; !strings.Contains(page, "All countries: visitors choose among every country.") {
		t.Errorf("the panel does not say every country is taken")
	}
}

// TestBuilderAddressCountriesPicked: the countries are boxes named in
// English, none ticked for every country; those ticked are saved as
// codes and listed first, ticked; a refused post keeps them ticked, and
// unticking all takes every country again.
func TestBuilderAddressCountriesPicked(t *testing.T) {
	f := newPartsForm(t)
	panel := panelIn(t, f.b.get(console.Path+"/forms/acme/contact").body, 1)
	for _, want := range []string{
		"<legend>Countries</legend>",
		`<input type="hidden" name="countries" value="">`,
		`<label class="hubform-choice"><input type="checkbox" name="countries" value="FR"> France</label>`,
		`<label class="hubform-choice"><input type="checkbox" name="countries" value="AX"> Åland Islands</label>`,
		"All countries: visitors choose among every country.",
	} {
		if !strings.Contains(panel, want) {
			t.Errorf("the address's panel lacks %q", want)
		}
	}
	if strings.Contains(panel, "checked") || strings.Contains(panel, "<textarea") {
		t.Errorf("a new address's panel ticks a country, or asks for codes typed")
	}
	// Åland sorts with the A's, before Albania.
	if a, b := strings.Index(panel, "Åland Islands"), strings.Index(panel, "Albania"); a < 0 || b < a {
		t.Errorf("Åland Islands at %d, Albania at %d", a, b)
	}
	s := f.act("/fields/1", panelOf("home", "Home", url.Values{"countries": {"", "DE", "FR"}}))
	if got := strings.Join(s.Fields[1].Countries, " "); got != "DE FR" {
		t.Errorf("countries %q, want DE FR", got)
	}
	panel = panelIn(t, f.b.get(console.Path+"/forms/acme/contact").body, 1)
	de := strings.Index(panel, `value="DE" checked> Germany`)
	fr := strings.Index(panel, `value="FR" checked> France`)
	af := strings.Index(panel, `value="AF"> Afghanistan`)
	if de < 0 || fr < 0 || af < de || de < fr || !strings.Contains(panel, "Visitors choose among Germany and France.") {
		t.Errorf("the countries taken are not ticked first, by name: Germany %d, France %d, Afghanistan %d", de, fr, af)
	}
	body := f.refused("/fields/1", panelOf("home", "Home", url.Values{"countries": {"", "BE", "XX"}}), http.StatusUnprocessableEntity)
	if !strings.Contains(body, "“XX” is not a country code") || !strings.Contains(panelIn(t, body, 1), `value="BE" checked> Belgium`) {
		t.Errorf("a refused post does not keep Belgium ticked")
	}
	if s = f.act("/fields/1", panelOf("home", "Home", url.Values{"countries": {""}})); len(s.Fields[1].Countries) != 0 {
		t.Errorf("none ticked, the countries are %v", s.Fields[1].Countries)
	}
}

// TestBuilderSignaturePanel: a signature's panel has its texts and
// Required, and nothing it cannot take: no placeholder, no prefill.
func TestBuilderSignaturePanel(t *testing.T) {
	f := newPartsForm(t)
	panel := panelIn(t, f.b.get(console.Path+"/forms/acme/contact").body, 2)
	for _, want := range []string{`name="label"`, `name="help"`, `name="required"`, "it has nothing more to set"} {
		if !strings.Contains(panel, want) {
			t.Errorf("the signature's panel lacks %q", want)
		}
	}
	for _, odd := range []string{`name="placeholder"`, `name="prefill"`, `name="type"`, `name="options"`, `name="multiple"`} {
		if strings.Contains(panel, odd) {
			t.Errorf("the signature's panel offers %q", odd)
		}
	}
	s := f.act("/fields/2", panelOf("sig", "Your signature", url.Values{"required": {"on"}}))
	if got := s.Fields[2]; got.Label != "Your signature" || !got.Required || got.Type != "signature" {
		t.Errorf("the signature after the edit: %+v", got)
	}
}

// panelIn returns the panel of field i in the Build tab's page.
func panelIn(t *testing.T, page string, i int) string {
	t.Helper()
	start := strings.Index(page, `id="field-`+strconv.Itoa(i)+`"`)
	if start < 0 {
		t.Fatalf("no panel of field %d", i)
	}
	rest := page[start:]
	if end := strings.Index(rest, `id="field-`+strconv.Itoa(i+1)+`"`); end > 0 {
		return rest[:end]
	}
	return rest
}

// groupPanel is the post of the team group's panel with its two
// questions as partsBase has them, and more.
func groupPanel(more url.Values) url.Values {
	form := panelOf("team", "Team", url.Values{
		"questions":       {"2"},
		"question.0.name": {"name"}, "question.0.label": {"Name"}, "question.0.type": {"text"},
		"question.1.name": {"email"}, "question.1.label": {"Email"}, "question.1.type": {"email"},
	})
	for k, v := range more {
		form[k] = v
	}
	return form
}

// TestBuilderGroupSettings: the add button's label, the fewest and most
// entries, and the questions: relabelled, retyped, required, added with a
// name made from the label, moved and removed; translations of a question
// removed go with it.
func TestBuilderGroupSettings(t *testing.T) {
	f := newPartsForm(t)
	page := f.b.get(console.Path + "/forms/acme/contact").body
	for _, want := range []string{"Label of the Add button", "Fewest entries", "Most entries", "Question 2</legend>", "Move question 1 down", "Add the question"} {
		if !strings.Contains(page, want) {
			t.Errorf("the group's panel lacks %q", want)
		}
	}
	s := f.act("/fields/3", groupPanel(url.Values{"addLabel": {"Add a person"}, "minItems": {"1"}, "maxItems": {"4"},
		"question.0.label": {"Full name"}, "question.0.required": {"on"}, "question.1.type": {"radio"}}))
	g := s.Fields[3]
	if g.AddLabel != "Add a person" || g.MinItems != 1 || g.MaxItems != 4 {
		t.Errorf("the group's settings: %q, %d to %d", g.AddLabel, g.MinItems, g.MaxItems)
	}
	if c := g.Fields[0]; c.Name != "name" || c.Label != "Full name" || !c.Required {
		t.Errorf("the first question: %+v", c)
	}
	if c := g.Fields[1]; c.Type != "radio" || len(c.Options) != 1 || c.Required {
		t.Errorf("the second question as a multiple choice: %+v", c)
	}
	// Added: its name made from its label, unique within the group; the
	// page after it shows the group's panel open, at its questions.
	add := withBase(groupPanel(url.Values{"question.1.type": {"radio"}, "question.1.options": {"Yes\nNo"}, "questionAction": {"add"}, "newQuestion": {"Phone"}}), f.revision())
	res := f.post("/forms/acme/contact/fields/3", add)
	loc := res.header.Get("Location")
	if res.status != http.StatusSeeOther || !strings.Contains(loc, "&editing=team#f3-questions") {
		t.Fatalf("adding a question: %d to %q", res.status, loc)
	}
	if page := f.b.get(loc).body; !strings.Contains(page, `<details id="field-3" data-field="team" open`) || strings.Contains(page, `<details id="field-2" data-field="sig" open`) {
		t.Errorf("the page after adding a question does not show the group's panel open, alone")
	}
	three0 := groupPanel(url.Values{"questions": {"3"}, "question.1.type": {"radio"}, "question.1.options": {"Yes\nNo"},
		"question.2.name": {"phone"}, "question.2.label": {"Phone"}, "question.2.type": {"text"}, "questionAction": {"remove:2"}})
	s = f.act("/fields/3", three0)
	if got := names(hubclient.Schema{Fields: s.Fields[3].Fields}); strings.Join(got, " ") != "name email" {
		t.Fatalf("after adding and removing phone: %v", got)
	}
	s = f.act("/fields/3", groupPanel(url.Values{"question.1.type": {"radio"}, "question.1.options": {"Yes\nNo"}, "questionAction": {"add"}, "newQuestion": {"Name"}, "newQuestionType": {"tel"}}))
	if got := s.Fields[3].Fields; len(got) != 3 || got[2].Name != "name_2" || got[2].Type != "tel" || got[2].Label != "Name" || len(got[1].Options) != 2 {
		t.Fatalf("after adding: %+v", got)
	}
	three := groupPanel(url.Values{"questions": {"3"}, "question.1.type": {"radio"}, "question.1.options": {"Yes\nNo"},
		"question.2.name": {"name_2"}, "question.2.label": {"Name"}, "question.2.type": {"tel"}})
	three.Set("questionAction", "up:2")
	s = f.act("/fields/3", three)
	if got := names(hubclient.Schema{Fields: s.Fields[3].Fields}); strings.Join(got, " ") != "name name_2 email" {
		t.Errorf("moved up, the questions are %v", got)
	}
	three = groupPanel(url.Values{"questions": {"3"}, "question.1.name": {"name_2"}, "question.1.label": {"Name"}, "question.1.type": {"tel"},
		"question.2.name": {"email"}, "question.2.label": {"Email"}, "question.2.type": {"radio"}, "question.2.options": {"Yes\nNo"}, "questionAction": {"remove:2"}})
	s = f.act("/fields/3", three)
	if got := names(hubclient.Schema{Fields: s.Fields[3].Fields}); strings.Join(got, " ") != "name name_2" {
		t.Errorf("after removing, the questions are %v", got)
	}
	if tr := s.I18n.Translations["de"].Fields["team"]; len(tr.Fields) != 1 || tr.Fields["name"].Label != "Name" {
		t.Errorf("the group's translation keeps %+v, want only name", tr.Fields)
	}
}

// TestBuilderGroupRefused: bounds that are not whole numbers, beyond 50
// or crossed, a question without a label or of a type a group does not
// take, removing the last question, a new question without a label, and
// a page older than the group's questions.
func TestBuilderGroupRefused(t *testing.T) {
	f := newPartsForm(t)
	for _, c := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"minItems": {"two"}}, "The fewest entries is a whole number, from 0 to 50"},
		{url.Values{"maxItems": {"51"}}, "The most entries is 50 at most"},
		{url.Values{"minItems": {"5"}, "maxItems": {"2"}}, "The fewest entries (5) is more than the most entries (2)"},
		{url.Values{"question.0.label": {" "}}, "Question 1 of the group needs a label"},
		{url.Values{"question.1.type": {"file"}}, "A question of a group cannot be a file upload"},
		{url.Values{"question.1.type": {"matrix"}}, "A question of a group cannot be a matrix"},
		{url.Values{"questionAction": {"add"}}, "Write the new question's label, then add it"},
		{url.Values{"questionAction": {"add"}, "newQuestion": {"Age"}, "newQuestionType": {"signature"}}, "A question of a group cannot be a signature"},
		{url.Values{"questionAction": {"up:0"}}, "Question 1 cannot move further up"},
		{url.Values{"questionAction": {"remove:7"}}, "there is no question 7 in the group"},
		{url.Values{"questions": {"3"}}, "the group's questions changed since this page was loaded"},
		{url.Values{"question.0.name": {"email"}}, "the group's questions changed since this page was loaded"},
	} {
		body := f.refused("/fields/3", groupPanel(c.form), http.StatusUnprocessableEntity)
		if !strings.Contains(body, c.want) {
			t.Errorf("%v: the page does not say %q", c.form, c.want)
		}
	}
	// One question left, it cannot go.
	f.act("/fields/3", groupPanel(url.Values{"questionAction": {"remove:1"}}))
	one := panelOf("team", "Team", url.Values{"questions": {"1"}, "question.0.name": {"name"}, "question.0.label": {"Name"}, "question.0.type": {"text"}, "questionAction": {"remove:0"}})
	if body := f.refused("/fields/3", one, http.StatusUnprocessableEntity); !strings.Contains(body, "A group asks one question at least") {
		t.Errorf("removing the last question: the page does not refuse it")
	}
}

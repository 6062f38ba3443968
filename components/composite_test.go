package components_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

var (
	matrixField = hubclient.Field{Name: "slots", Type: hubclient.FieldMatrix, Label: "When can you come?", Help: "Tick all that suit you.", Multiple: true,
		Rows: options("mon", "Monday", "tue", "Tuesday"), Columns: options("am", "Morning", "pm", "Afternoon")}
	addressField = hubclient.Field{Name: "ship", Type: hubclient.FieldAddress, Label: "Shipping address", Required: true, Countries: []string{"FR", "DE", "AT"}}
)

// compositeCases are the golden pages of matrices and addresses: shown
// again after a post with an error, and translated.
func compositeCases() []goldenCase {
	matrix := props(oneStep(hubclient.Meta{}, matrixField))
	matrix.State = components.State{Values: url.Values{"slots.mon": {"am", "pm"}}}

	address := props(oneStep(hubclient.Meta{}, addressField))
	address.State = components.State{
		Values: url.Values{"ship.line1": {"1 rue de la Paix"}, "ship.city": {""}, "ship.postalCode": {"75002"}, "ship.country": {"FR"}},
		Errors: map[string]string{"ship": "Enter the street address, the city and the country."},
	}

	translated := oneStep(hubclient.Meta{}, matrixField, addressField)
	translated.I18n.Translations = map[string]hubclient.Translation{"de": {
		Fields: map[string]hubclient.FieldTranslation{"slots": {Label: "Wann passt es?", Rows: map[string]string{"mon": "Montag"}, Columns: map[string]string{"pm": "Nachmittag"}}},
		Texts:  map[string]string{"addressCity": "Ort"},
	}}
	de := props(translated)
	de.Locale = "de"
	return []goldenCase{
		{"matrix", components.HubForm(matrix)},
		{"address-error", components.HubForm(address)},
		{"composite-de", components.HubForm(de)},
	}
}

// TestMatrixMarkup: a matrix is a table in a fieldset; each control is
// named by its row and column headers and posts "name.row".
func TestMatrixMarkup(t *testing.T) {
	f := matrixField
	f.Multiple = false
	f.Required = true
	p := props(oneStep(hubclient.Meta{}, f))
	p.State = components.State{Values: url.Values{"slots.tue": {"pm"}}, Errors: map[string]string{"slots": "Answer every row."}}
	doc := renderDoc(t, components.HubForm(p))
	fs := doc.Find("fieldset.hubform-field--matrix")
	if fs.Find("legend").Length() != 1 || fs.Find("table th[scope=col]").Length() != 2 || fs.Find("table th[scope=row]").Length() != 2 {
		t.Fatal("a matrix is a fieldset with a legend and a table with row and column headers")
	}
	radios := fs.Find("input[type=radio]")
	if radios.Length() != 4 {
		t.Fatalf("%d radios, want 4", radios.Length())
	}
	first := radios.First()
	if name, _ := first.Attr("name"); name != "slots.mon" {
		t.Errorf("the first row's radios post %q, want slots.mon", name)
	}
	for _, id := range strings.Fields(first.AttrOr("aria-labelledby", "")) {
		if doc.Find("#"+id).Length() != 1 {
			t.Errorf("aria-labelledby names %q, which is not in the page", id)
		}
	}
	if _, ok := first.Attr("required"); !ok {
		t.Error("a required matrix's radios are not required")
	}
	if v, _ := first.Attr("aria-invalid"); v != "true" {
		t.Error("the row left out is not marked invalid")
	}
	checked := fs.Find("input:checked")
	if checked.Length() != 1 || checked.AttrOr("name", "") != "slots.tue" || checked.AttrOr("value", "") != "pm" {
		t.Error("the answer posted is not shown again")
	}
	if _, ok := fs.Find(`input[name="slots.tue"]`).First().Attr("aria-invalid"); ok {
		t.Error("the row answered is marked invalid")
	}
}

// TestAddressMarkup: every part has its label and autocomplete token,
// the required parts are required, the country is a list of the field's
// countries, and what was typed comes back.
func TestAddressMarkup(t *testing.T) {
	p := props(oneStep(hubclient.Meta{}, addressField))
	p.State = components.State{Values: url.Values{"ship.city": {"Wien"}, "ship.country": {"AT"}}}
	doc := renderDoc(t, components.HubForm(p))
	tokens := map[string]string{
		"ship.line1": "address-line1", "ship.line2": "address-line2", "ship.city": "address-level2",
		"ship.region": "address-level1", "ship.postalCode": "postal-code", "ship.country": "country",
	}
	for name, token := range tokens {
		c := doc.Find(`[name="` + name + `"]`)
		if c.Length() != 1 {
			t.Errorf("%s: %d controls", name, c.Length())
			continue
		}
		if got := c.AttrOr("autocomplete", ""); got != "section-ship "+token {
			t.Errorf("%s: autocomplete %q, want section-ship %s", name, got, token)
		}
		id := c.AttrOr("id", "")
		if doc.Find(`label[for="`+id+`"]`).Length() != 1 {
			t.Errorf("%s has no label", name)
		}
		_, required := c.Attr("required")
		if want := name == "ship.line1" || name == "ship.city" || name == "ship.country"; required != want {
			t.Errorf("%s: required %v, want %v", name, required, want)
		}
	}
	if v := doc.Find(`[name="ship.city"]`).AttrOr("value", ""); v != "Wien" {
		t.Errorf("the city typed shows as %q", v)
	}
	opts := doc.Find(`select[name="ship.country"] option`)
	if opts.Length() != 4 {
		t.Errorf("%d options of country, want the empty choice and 3", opts.Length())
	}
	if sel := doc.Find(`select[name="ship.country"] option[selected]`); sel.AttrOr("value", "") != "AT" || sel.Text() != "Austria" {
		t.Errorf("country chosen: %q %q, want AT Austria", sel.AttrOr("value", ""), sel.Text())
	}
}

// TestAddressCountriesInTheFormsLanguage: the countries are named in the
// language of the form's translation.
func TestAddressCountriesInTheFormsLanguage(t *testing.T) {
	s := oneStep(hubclient.Meta{}, addressField)
	s.I18n.Translations = map[string]hubclient.Translation{"de": {Title: "Adresse"}}
	p := props(s)
	p.Locale = "de"
	doc := renderDoc(t, components.HubForm(p))
	if got := doc.Find(`select[name="ship.country"] option[value=DE]`).Text(); got != "Deutschland" {
		t.Errorf("DE in German is %q, want Deutschland", got)
	}
}

// TestGroupTranslated: a translation reaches a group's add button and its
// fields' labels and options.
func TestGroupTranslated(t *testing.T) {
	s := oneStep(hubclient.Meta{}, hubclient.Field{Name: "team", Type: hubclient.FieldGroup, Label: "Guests", AddLabel: "Add a guest", Fields: []hubclient.Field{
		{Name: "guest", Type: hubclient.FieldText, Label: "Name"},
		{Name: "meal", Type: hubclient.FieldRadio, Label: "Meal", Options: options("veg", "Vegetarian")},
	}})
	s.I18n.Translations = map[string]hubclient.Translation{"de": {Fields: map[string]hubclient.FieldTranslation{"team": {
		Label: "Gäste", AddLabel: "Gast hinzufügen", Fields: map[string]hubclient.FieldTranslation{
			"guest": {Label: "Name des Gastes"}, "meal": {Options: map[string]string{"veg": "Vegetarisch"}},
		}}}}}
	p := props(s)
	p.Locale = "de"
	doc := renderDoc(t, components.HubForm(p))
	got := []string{
		doc.Find(".hubform-field--group > legend").Text(),
		doc.Find(`button[value="add:team"]`).Text(),
		doc.Find(`label[for="hubform-acme-contact-team"]`).Text(),
		strings.TrimSpace(doc.Find(`input[name="team.0.meal"]`).Parent().Text()),
	}
	if want := []string{"Gäste", "Gast hinzufügen", "Name des Gastes", "Vegetarisch"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("translated group: %q, want %q", got, want)
	}
	if s.Fields[0].Fields[0].Label != "Name" {
		t.Error("translating changed the schema's own group")
	}
}

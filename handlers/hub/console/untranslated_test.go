package console

import (
	"slices"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestTextsOfEveryType lists the texts of the types that carry more than
// a label: a scale's ends, a heading's and a paragraph's text, an
// image's alt; and a field's translation that keeps its own messages
// stays when its label is cleared.
func TestTextsOfEveryType(t *testing.T) {
	s := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "nps", Type: hubclient.FieldNPS, Label: "Recommend?", MinLabel: "Never", MaxLabel: "Surely"},
		{Name: "h", Type: hubclient.FieldHeading, Text: "More"},
		{Name: "logo", Type: hubclient.FieldImage, Src: "https://example.com/l.png", Alt: "Logo"},
	}}
	var paths []string
	for _, tx := range texts(s) {
		paths = append(paths, tx.Path)
	}
	want := []string{`fields["nps"].label`, `fields["nps"].minLabel`, `fields["nps"].maxLabel`, `fields["h"].text`, `fields["logo"].alt`}
	if !slices.Equal(paths, want) {
		t.Errorf("texts = %q, want %q", paths, want)
	}

	tr := hubclient.Translation{Fields: map[string]hubclient.FieldTranslation{
		"nps": {Label: "Empfehlen?", Messages: map[string]string{"required": "Bitte wählen."}},
	}}
	texts(s)[0].set(&tr, "")
	if got := tr.Fields["nps"].Messages["required"]; got != "Bitte wählen." {
		t.Errorf("clearing the label lost the translated message: %+v", tr.Fields)
	}
	texts(s)[1].set(&tr, "Nie")
	if got := tr.Fields["nps"].MinLabel; got != "Nie" {
		t.Errorf("minLabel translated as %q, want Nie", got)
	}
}

// TestTextsOfAMatrix: a matrix's rows and columns are translated by value,
// like options, and clearing one drops it.
func TestTextsOfAMatrix(t *testing.T) {
	s := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "rate", Type: hubclient.FieldMatrix, Label: "Rate", Rows: []hubclient.Option{{Value: "speed", Label: "Speed"}},
			Columns: []hubclient.Option{{Value: "good", Label: "Good"}}},
	}}
	var paths []string
	for _, tx := range texts(s) {
		paths = append(paths, tx.Path)
	}
	want := []string{`fields["rate"].label`, `fields["rate"].rows["speed"]`, `fields["rate"].columns["good"]`}
	if !slices.Equal(paths, want) {
		t.Fatalf("texts = %q, want %q", paths, want)
	}
	var tr hubclient.Translation
	texts(s)[1].set(&tr, "Tempo")
	texts(s)[2].set(&tr, "Gut")
	if got := tr.Fields["rate"]; got.Rows["speed"] != "Tempo" || got.Columns["good"] != "Gut" || texts(s)[1].get(tr) != "Tempo" {
		t.Errorf("translated as %+v", got)
	}
	texts(s)[1].set(&tr, "")
	texts(s)[2].set(&tr, "")
	if _, ok := tr.Fields["rate"]; ok {
		t.Errorf("cleared, the matrix's translation stays: %+v", tr.Fields)
	}
}

// TestTextsOfAGroup: a group's add button and its fields' labels and
// options are translated, each under the group.
func TestTextsOfAGroup(t *testing.T) {
	s := &hubclient.Schema{Fields: []hubclient.Field{{Name: "team", Type: hubclient.FieldGroup, Label: "Guests", AddLabel: "Add a guest",
		Fields: []hubclient.Field{{Name: "guest", Type: hubclient.FieldText, Label: "Name"}, {Name: "meal", Type: hubclient.FieldRadio, Options: []hubclient.Option{{Value: "veg", Label: "Vegetarian"}}}}}}}
	var paths []string
	for _, tx := range texts(s) {
		paths = append(paths, tx.Path)
	}
	want := []string{`fields["team"].label`, `fields["team"].addLabel`, `fields["team"].fields["guest"].label`, `fields["team"].fields["meal"].options["veg"]`}
	if !slices.Equal(paths, want) {
		t.Fatalf("texts = %q, want %q", paths, want)
	}
	var tr hubclient.Translation
	texts(s)[2].set(&tr, "Gast")
	texts(s)[3].set(&tr, "Vegetarisch")
	if got := tr.Fields["team"].Fields; got["guest"].Label != "Gast" || got["meal"].Options["veg"] != "Vegetarisch" || texts(s)[2].get(tr) != "Gast" {
		t.Errorf("translated as %+v", got)
	}
	texts(s)[2].set(&tr, "")
	texts(s)[3].set(&tr, "")
	if _, ok := tr.Fields["team"]; ok {
		t.Errorf("cleared, the group's translation stays: %+v", tr.Fields)
	}
}

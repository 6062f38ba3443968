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

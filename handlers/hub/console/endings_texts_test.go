package console

import (
	"slices"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// TestTextsOfEndings lists an ending's title and text among the texts a
// translation may replace, after the steps', and sets them in the
// ending's overlay, dropped once it translates nothing.
func TestTextsOfEndings(t *testing.T) {
	s := &hubclient.Schema{
		Steps:   []hubclient.Step{{ID: "s", Title: "About"}},
		Endings: []hubclient.Ending{{ID: "big", Title: "Big party", Text: "We *call*."}, {ID: "away", RedirectURL: "https://example.com/"}},
		Buttons: hubclient.Buttons{Submit: "Send"},
	}
	var paths []string
	for _, tx := range texts(s) {
		paths = append(paths, tx.Path)
	}
	want := []string{`steps["s"].title`, `endings["big"].title`, `endings["big"].text`, "buttons.submit"}
	if !slices.Equal(paths, want) {
		t.Errorf("texts = %q, want %q", paths, want)
	}
	var tr hubclient.Translation
	ts := texts(s)
	ts[1].set(&tr, "Große Feier")
	ts[2].set(&tr, "Wir *rufen an*.")
	if et := tr.Endings["big"]; et.Title != "Große Feier" || et.Text != "Wir *rufen an*." || ts[1].get(tr) != "Große Feier" {
		t.Errorf("translated ending %+v", tr.Endings)
	}
	ts[1].set(&tr, "")
	ts[2].set(&tr, "")
	if _, ok := tr.Endings["big"]; ok {
		t.Errorf("an ending translated by nothing stays: %+v", tr.Endings)
	}
	if gaps := untranslated(&hubclient.Schema{Endings: s.Endings, I18n: hubclient.I18n{Translations: map[string]hubclient.Translation{"de": {}}}}); len(gaps) != 1 || len(gaps[0].Missing) != 2 {
		t.Errorf("untranslated = %+v, want the ending's title and text", gaps)
	}
}

// TestTextsOfCalculations lists a calculation's label among the texts a
// translation may replace, after the endings', set in the overlay's
// calculations and dropped once it translates nothing.
func TestTextsOfCalculations(t *testing.T) {
	s := &hubclient.Schema{
		Endings:      []hubclient.Ending{{ID: "big", Title: "Big party"}},
		Calculations: []hubclient.Calculation{{Name: "total", Label: "Total"}, {Name: "score"}},
	}
	ts := texts(s)
	var paths []string
	for _, tx := range ts {
		paths = append(paths, tx.Path)
	}
	if want := []string{`endings["big"].title`, `calculations["total"]`}; !slices.Equal(paths, want) {
		t.Errorf("texts = %q, want %q", paths, want)
	}
	var tr hubclient.Translation
	ts[1].set(&tr, "Gesamt")
	if tr.Calculations["total"] != "Gesamt" || ts[1].get(tr) != "Gesamt" {
		t.Errorf("translated calculations %+v", tr.Calculations)
	}
	ts[1].set(&tr, "")
	if _, ok := tr.Calculations["total"]; ok {
		t.Errorf("a label translated by nothing stays: %+v", tr.Calculations)
	}
}

package console

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hubform/hubform/hubclient"
)

// localeGaps is what one translation of a form leaves in the base
// language.
type localeGaps struct {
	Locale string
	// Missing are the overlay's members, as JSON paths below the
	// locale's translation, that the base language has and it has not.
	Missing []string
	// Total is how many texts of the base language could be translated.
	Total int
}

// untranslated lists, per locale of s, the texts of the base language
// that its overlay does not translate, which visitors read untranslated.
func untranslated(s *hubclient.Schema) []localeGaps {
	if s == nil {
		return nil
	}
	var out []localeGaps
	for _, loc := range slices.Sorted(maps.Keys(s.I18n.Translations)) {
		tr := s.I18n.Translations[loc]
		g := localeGaps{Locale: loc}
		check := func(base, translated, path string) {
			if base == "" {
				return
			}
			g.Total++
			if translated == "" {
				g.Missing = append(g.Missing, path)
			}
		}
		check(s.Title, tr.Title, "title")
		check(s.Description, tr.Description, "description")
		for _, f := range s.Fields {
			if f.Type == hubclient.FieldHidden || hubclient.IsHoneypot(f.Name) {
				continue
			}
			ft := tr.Fields[f.Name]
			at := fmt.Sprintf("fields[%q]", f.Name)
			check(f.Label, ft.Label, at+".label")
			check(f.Placeholder, ft.Placeholder, at+".placeholder")
			check(f.Help, ft.Help, at+".help")
			for _, o := range f.Options {
				check(o.Label, ft.Options[o.Value], fmt.Sprintf("%s.options[%q]", at, o.Value))
			}
		}
		for _, st := range s.Steps {
			check(st.Title, tr.Steps[st.ID].Title, fmt.Sprintf("steps[%q].title", st.ID))
		}
		check(s.Buttons.Submit, tr.Buttons.Submit, "buttons.submit")
		check(s.Buttons.Next, tr.Buttons.Next, "buttons.next")
		check(s.Buttons.Back, tr.Buttons.Back, "buttons.back")
		out = append(out, g)
	}
	return out
}

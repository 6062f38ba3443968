package formsource

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestValidateEndings(t *testing.T) {
	ok := func() []hubclient.Ending {
		return []hubclient.Ending{
			{ID: "sales", Title: "Our sales team will call", Text: "Within **a day**.", If: json.RawMessage(`{"==": [{"var": "name"}, "Jane"]}`)},
			{ID: "away", RedirectURL: "https://example.com/thanks"},
			{ID: "rest", Title: "Thanks"},
		}
	}
	s, h := validSchema(t)
	s.Endings = ok()
	s.I18n.Translations = map[string]hubclient.Translation{"de": {Endings: map[string]hubclient.EndingTranslation{"rest": {Title: "Danke"}}}}
	if err := Validate(s, *h); err != nil {
		t.Fatalf("Validate refused good endings: %v", err)
	}
	tests := []struct {
		name   string
		change func(e []hubclient.Ending, s *hubclient.Schema)
		want   string // in the error
		path   string // among the problems' paths
	}{
		{"unknown field", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[0].If = json.RawMessage(`{"==": [{"var": "nmae"}, "Jane"]}`)
		}, `ending "sales": if: refers to unknown field "nmae"`, "endings[0].if"},
		{"bad if", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[2].If = json.RawMessage(`{"reduce": [1, 2, 3]}`)
		}, `ending "rest": if: operator "reduce" is not supported`, "endings[2].if"},
		{"if not JSON logic", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[1].If = json.RawMessage(`{"==": 1, "!=": 2}`)
		}, `ending "away": if: an operation is an object of exactly one operator`, "endings[1].if"},
		{"duplicate id", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[2].ID = "sales"
		}, `ending "sales": id is used by more than one ending`, "endings[2].id"},
		{"empty id", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[1].ID = ""
		}, `endings[1]: id is empty`, "endings[1].id"},
		{"id with space", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[1].ID = "far away"
		}, `ending "far away": id does not match`, "endings[1].id"},
		{"javascript URL", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[1].RedirectURL = "javascript:alert(1)"
		}, `ending "away": redirectUrl "javascript:alert(1)" is not an absolute http or https address`, "endings[1].redirectUrl"},
		{"path URL", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[1].RedirectURL = "/thanks"
		}, `ending "away": redirectUrl "/thanks"`, "endings[1].redirectUrl"},
		{"URL with a user", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[1].RedirectURL = "https://me@example.com/"
		}, `ending "away": redirectUrl`, "endings[1].redirectUrl"},
		{"nothing to show", func(e []hubclient.Ending, s *hubclient.Schema) {
			e[2].Title = " "
		}, `ending "rest": an ending needs a title, or a redirectUrl`, "endings[2].title"},
		{"translation of no ending", func(e []hubclient.Ending, s *hubclient.Schema) {
			s.I18n.Translations = map[string]hubclient.Translation{"de": {Endings: map[string]hubclient.EndingTranslation{"gone": {Title: "x"}}}}
		}, `i18n.translations["de"].endings["gone"]: no such ending`, `i18n.translations["de"].endings["gone"]`},
		{"too many", func(e []hubclient.Ending, s *hubclient.Schema) {
			for i := range maxEndings {
				s.Endings = append(s.Endings, hubclient.Ending{ID: "e" + strings.Repeat("x", i), Title: "x"})
			}
		}, "endings: 67 endings; a form has at most 64", "endings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := validSchema(t)
			s.Endings = ok()
			tt.change(s.Endings, s)
			err := Validate(s, *h)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error:\n%v\nlacks %q", err, tt.want)
			}
			var paths []string
			for _, p := range Problems(err) {
				paths = append(paths, p.Path)
			}
			if !slices.Contains(paths, tt.path) {
				t.Errorf("paths %q, want %q among them", paths, tt.path)
			}
		})
	}
}

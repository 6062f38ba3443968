package formsource

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestValidateCalculations(t *testing.T) {
	ok := func() []hubclient.Calculation {
		return []hubclient.Calculation{
			{Name: "length", Expr: json.RawMessage(`{"cat": [{"var": "name"}, "!"]}`)},
			{Name: "total", Expr: json.RawMessage(`{"*": [2, 35]}`), Format: "currency", Currency: "EUR"},
		}
	}
	s, h := validSchema(t)
	s.Calculations = ok()
	if err := Validate(s, *h); err != nil {
		t.Fatalf("Validate refused good calculations: %v", err)
	}
	tests := []struct {
		name   string
		change func(c []hubclient.Calculation, s *hubclient.Schema)
		want   string // in the error
		path   string // among the problems' paths
	}{
		{"unknown field", func(c []hubclient.Calculation, s *hubclient.Schema) {
			c[0].Expr = json.RawMessage(`{"var": "nmae"}`)
		}, `calculation "length": expr: refers to unknown field "nmae"`, "calculations[0].expr"},
		{"a later calculation", func(c []hubclient.Calculation, s *hubclient.Schema) {
			c[0].Expr = json.RawMessage(`{"var": "total"}`)
		}, `a calculation reads only those before it`, "calculations[0].expr"},
		{"a field's name", func(c []hubclient.Calculation, s *hubclient.Schema) {
			c[1].Name = "name"
		}, `calculation "name": name: is the name of a field`, "calculations[1].name"},
		{"name with a space", func(c []hubclient.Calculation, s *hubclient.Schema) {
			c[1].Name = "the total"
		}, `calculation "the total": name does not match`, "calculations[1].name"},
		{"currency", func(c []hubclient.Calculation, s *hubclient.Schema) {
			c[1].Currency = ""
		}, `calculation "total": currency: "" is not an ISO 4217 currency code`, "calculations[1].currency"},
		{"translation of no calculation", func(c []hubclient.Calculation, s *hubclient.Schema) {
			s.I18n.Translations = map[string]hubclient.Translation{"de": {Calculations: map[string]string{"totl": "Summe"}}}
		}, `i18n.translations["de"].calculations["totl"]: no such calculation`, `i18n.translations["de"].calculations["totl"]`},
		{"a condition reads a calculation that is not there", func(c []hubclient.Calculation, s *hubclient.Schema) {
			s.Fields[0].VisibleIf = json.RawMessage(`{">": [{"var": "totl"}, 1]}`)
		}, `refers to unknown field "totl"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := validSchema(t)
			s.Calculations = ok()
			tt.change(s.Calculations, s)
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

package hubclient

import (
	"encoding/json"
	"reflect"
	"testing"
)

func compositeSchema() *Schema {
	return &Schema{Fields: []Field{
		{Name: "grid", Type: FieldMatrix, Required: true, Rows: []Option{{Value: "speed"}, {Value: "care"}},
			Columns: []Option{{Value: "bad"}, {Value: "good"}}},
		{Name: "many", Type: FieldMatrix, Multiple: true, Rows: []Option{{Value: "mon"}, {Value: "tue"}},
			Columns: []Option{{Value: "am"}, {Value: "pm"}}},
		{Name: "addr", Type: FieldAddress, Required: true, Countries: []string{"FR", "DE"}},
		{Name: "any", Type: FieldAddress},
		{Name: "note", Type: FieldText, VisibleIf: json.RawMessage(`{"==": [{"var": "addr.country"}, "FR"]}`)},
		{Name: "why", Type: FieldText, VisibleIf: json.RawMessage(`{"==": [{"var": "grid.care"}, "bad"]}`)},
	}, Steps: []Step{{ID: "a", Fields: []string{"grid", "many", "addr", "any", "note", "why"}}}}
}

// TestCompositeValues types posts of matrices and addresses, from a form
// and as JSON decodes a hub's payload, and judges them with the one check
// app and hub share.
func TestCompositeValues(t *testing.T) {
	s := compositeSchema()
	addr := map[string]any{"line1": "1 rue de la Paix", "city": "Paris", "country": "FR"}
	tests := []struct {
		name   string
		field  string
		posted map[string][]string // nil: value is given as is
		value  any
		want   string
	}{
		{"matrix answered", "grid", map[string][]string{"grid.speed": {"good"}, "grid.care": {"bad"}}, map[string]any{"speed": "good", "care": "bad"}, ""},
		{"matrix row left out", "grid", map[string][]string{"grid.speed": {"good"}, "grid.care": {""}}, map[string]any{"speed": "good"}, ProblemMatrixRows},
		{"matrix empty", "grid", map[string][]string{"grid.speed": {""}}, map[string]any{}, ProblemRequired},
		{"matrix column unknown", "grid", map[string][]string{"grid.speed": {"good"}, "grid.care": {"meh"}}, map[string]any{"speed": "good", "care": "meh"}, ProblemChoice},
		{"matrix row unknown (JSON)", "grid", nil, map[string]any{"speed": "good", "care": "bad", "price": "bad"}, ProblemChoice},
		{"matrix two columns in one row", "grid", nil, map[string]any{"speed": []any{"good", "bad"}, "care": "bad"}, ProblemObject},
		{"matrix not an object", "grid", nil, "good", ProblemObject},
		{"matrix multiple", "many", map[string][]string{"many.mon": {"am", "pm"}, "many.tue": {""}}, map[string]any{"mon": []string{"am", "pm"}}, ""},
		{"matrix multiple twice", "many", nil, map[string]any{"mon": []any{"am", "am"}}, ProblemDuplicateChoice},
		{"matrix multiple (JSON)", "many", nil, map[string]any{"tue": []any{"pm"}}, ""},
		{"address", "addr", map[string][]string{"addr.line1": {"1 rue de la Paix"}, "addr.line2": {""}, "addr.city": {"Paris"}, "addr.country": {"FR"}}, addr, ""},
		{"address without city", "addr", map[string][]string{"addr.line1": {"1 rue de la Paix"}, "addr.city": {" "}, "addr.country": {"FR"}}, map[string]any{"line1": "1 rue de la Paix", "country": "FR"}, ProblemAddress},
		{"address empty", "addr", map[string][]string{"addr.line1": {""}}, map[string]any{}, ProblemRequired},
		{"address outside the countries", "addr", nil, map[string]any{"line1": "1 Main St", "city": "Boston", "country": "US"}, ProblemCountry},
		{"address country not ISO", "any", nil, map[string]any{"country": "XX"}, ProblemCountry},
		{"address country in lower case", "any", nil, map[string]any{"country": "fr"}, ProblemCountry},
		{"address not required, partial", "any", map[string][]string{"any.postalCode": {"75002"}}, map[string]any{"postalCode": "75002"}, ""},
		{"address unknown part", "any", nil, map[string]any{"street": "x"}, ProblemObject},
		{"address part not text", "any", nil, map[string]any{"city": 5.0}, ProblemObject},
	}
	for _, tt := range tests {
		f := s.Field(tt.field)
		v := tt.value
		if tt.posted != nil {
			got, ok := f.ValueIn(tt.posted)
			if !ok || !reflect.DeepEqual(got, tt.value) {
				t.Errorf("%s: ValueIn = %#v, %v, want %#v", tt.name, got, ok, tt.value)
			}
			v = got
		}
		if got := CheckValue(f, v); got != tt.want {
			t.Errorf("%s: CheckValue(%#v) = %q, want %q", tt.name, v, got, tt.want)
		}
	}
}

// TestCompositeKeys: a post's keys of parts belong to their field, and
// nothing else does.
func TestCompositeKeys(t *testing.T) {
	s := compositeSchema()
	for key, want := range map[string]string{
		"grid": "grid", "grid.speed": "grid", "grid.price": "", "addr.city": "addr", "addr.street": "",
		"note": "note", "note.x": "", "nope.city": "",
	} {
		got := ""
		if f := s.KeyOf(key); f != nil {
			got = f.Name
		}
		if got != want {
			t.Errorf("KeyOf(%q) = %q, want %q", key, got, want)
		}
	}
	f := s.Field("many")
	texts := f.PostedTexts(map[string]any{"mon": []any{"am", "pm"}, "tue": "pm"})
	if want := map[string][]string{"many.mon": {"am", "pm"}, "many.tue": {"pm"}}; !reflect.DeepEqual(texts, want) {
		t.Errorf("PostedTexts = %v, want %v", texts, want)
	}
}

// TestConditionReadsAPart: {"var": "addr.country"} reads a part of an
// address, {"var": "grid.care"} a matrix's row; a condition on a part
// that does not exist is refused.
func TestConditionReadsAPart(t *testing.T) {
	s := compositeSchema()
	l, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	values := Values(s, map[string][]string{"addr.country": {"FR"}, "grid.care": {"good"}})
	o := l.Evaluate(values)
	if !o.Visible("note") || o.Visible("why") {
		t.Errorf("country FR, care good: note visible %v (want true), why visible %v (want false)", o.Visible("note"), o.Visible("why"))
	}
	o = l.Evaluate(Values(s, map[string][]string{"addr.country": {"DE"}, "grid.care": {"bad"}}))
	if o.Visible("note") || !o.Visible("why") {
		t.Errorf("country DE, care bad: note visible %v (want false), why visible %v (want true)", o.Visible("note"), o.Visible("why"))
	}
	if !l.IsTrigger("addr") || !l.IsTrigger("grid") {
		t.Error("a condition on a part does not make its field a trigger")
	}
	bad := compositeSchema()
	bad.Fields[4].VisibleIf = json.RawMessage(`{"==": [{"var": "addr.street"}, "x"]}`)
	if _, err := Compile(bad); err == nil {
		t.Error("a condition on addr.street, no part of an address, compiled")
	}
}

// TestCompositeMessages: a required matrix's or address's missing part
// takes the field's message for required when it has none of its own.
func TestCompositeMessages(t *testing.T) {
	f := &Field{Name: "addr", Type: FieldAddress, Messages: map[string]string{"required": "We ship there."}}
	builtin := func(code string) string { return "builtin " + code }
	if got := (Problem{Code: ProblemAddress}).Text(f, builtin); got != "We ship there." {
		t.Errorf("incomplete address: %q", got)
	}
	if got := (Problem{Code: ProblemCountry}).Text(f, builtin); got != "builtin invalidCountry" {
		t.Errorf("country: %q", got)
	}
}

func TestPrefillAParts(t *testing.T) {
	s := compositeSchema()
	s.Fields[3].Prefill = true
	l, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	got := l.Prefill(map[string][]string{"any.country": {"FR", "DE"}, "any.city": {"Lyon"}, "addr.city": {"Paris"}})
	want := map[string][]string{"any.country": {"FR"}, "any.city": {"Lyon"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Prefill = %v, want %v", got, want)
	}
	if got := l.Prefill(map[string][]string{"any.country": {"XX"}}); got != nil {
		t.Errorf("a country not ISO prefilled: %v", got)
	}
}

func TestCountries(t *testing.T) {
	if n := len(Countries()); n != 249 {
		t.Errorf("%d countries, want 249", n)
	}
	for code, want := range map[string]bool{"FR": true, "ZW": true, "AD": true, "D ": false, "DA": false, "UK": false, "fr": false, "": false, "FRA": false} {
		if IsCountry(code) != want {
			t.Errorf("IsCountry(%q) = %v", code, !want)
		}
	}
}

// TestAnswerLines: a matrix and an address read for people, as the inbox,
// the e-mails and the exports show them.
func TestAnswerLines(t *testing.T) {
	grid := &Field{Name: "grid", Type: FieldMatrix, Rows: []Option{{Value: "speed", Label: "Speed"}, {Value: "care"}},
		Columns: []Option{{Value: "bad", Label: "Bad"}, {Value: "good", Label: "Good"}}}
	if got := grid.AnswerLines(map[string]any{"care": []any{"bad", "good"}, "speed": "good"}); !reflect.DeepEqual(got, []string{"Speed: Good", "care: Bad, Good"}) {
		t.Errorf("matrix: %q", got)
	}
	addr := &Field{Name: "ship", Type: FieldAddress}
	got := addr.AnswerLines(map[string]any{"line1": "1 rue de la Paix", "city": "Paris", "postalCode": "75002", "country": "FR"})
	if want := []string{"1 rue de la Paix", "75002 Paris", "FR"}; !reflect.DeepEqual(got, want) {
		t.Errorf("address: %q, want %q", got, want)
	}
	if got := addr.AnswerLines("Paris"); got != nil {
		t.Errorf("a text as an address: %q", got)
	}
	if addr.PartLabel("postalCode") != "Postal code" || grid.PartLabel("speed") != "Speed" || grid.PartLabel("care") != "care" {
		t.Error("PartLabel names a part wrong")
	}
}

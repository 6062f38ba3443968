package hubclient

import (
	"reflect"
	"testing"
)

// TestEveryTypeIsDefined fails when a type of FieldTypes has no
// definition, so that a new type is not read as a line of text by
// mistake.
func TestEveryTypeIsDefined(t *testing.T) {
	for _, name := range FieldTypes {
		if fieldTypes[name] == nil {
			t.Errorf("type %q has no definition in fieldTypes", name)
		}
	}
	if len(fieldTypes) != len(FieldTypes) {
		t.Errorf("fieldTypes defines %d types, FieldTypes lists %d", len(fieldTypes), len(FieldTypes))
	}
}

func TestFieldValue(t *testing.T) {
	tests := []struct {
		typ    string
		posted []string
		want   any
	}{
		{FieldText, []string{"a", "b"}, "a"},
		{FieldText, nil, ""},
		{FieldNumber, []string{" 4.5 "}, 4.5},
		{FieldNumber, []string{"four"}, "four"},
		{FieldCheckbox, []string{"on"}, true},
		{FieldCheckbox, []string{"true"}, true},
		{FieldCheckbox, []string{"no"}, false},
		{FieldCheckboxes, []string{"a", "", "b"}, []string{"a", "b"}},
		{FieldCheckboxes, nil, []string{}},
		{FieldFile, []string{"", "cv.pdf"}, []string{"cv.pdf"}},
		{FieldRating, []string{"4"}, 4.0},
		{FieldTime, []string{"09:30"}, "09:30"},
		{"type-to-come", []string{"5"}, "5"},
	}
	for _, tt := range tests {
		f := Field{Name: "x", Type: tt.typ}
		if got := f.Value(tt.posted); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s Value(%q) = %#v, want %#v", tt.typ, tt.posted, got, tt.want)
		}
	}
}

func TestFieldTypeRules(t *testing.T) {
	tests := []struct {
		typ                        string
		options, text, ranged, day bool
		goType                     string
	}{
		{FieldText, false, true, false, false, "string"},
		{FieldTextarea, false, true, false, false, "string"},
		{FieldNumber, false, false, true, false, "float64"},
		{FieldDate, false, false, true, true, "string"},
		{FieldSelect, true, false, false, false, "string"},
		{FieldCheckboxes, true, false, false, false, "[]string"},
		{FieldCheckbox, false, false, false, false, "bool"},
		{FieldFile, false, false, false, false, "[]hubclient.Attachment"},
		{FieldHidden, false, false, false, false, "string"},
		{FieldRating, false, false, false, false, "int"},
		{FieldNPS, false, false, false, false, "int"},
		{FieldSlider, false, false, true, false, "float64"},
		{FieldTime, false, false, true, false, "string"},
		{FieldDateTime, false, false, true, false, "string"},
		{"unknown", false, false, false, false, "string"},
	}
	for _, tt := range tests {
		ft := (&Field{Type: tt.typ}).TypeOf()
		got := []any{ft.TakesOptions(), ft.TakesText(), ft.Range() != nil, ft.Range() == days, ft.GoType()}
		want := []any{tt.options, tt.text, tt.ranged, tt.day, tt.goType}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: options, text, range, day, Go type = %v, want %v", tt.typ, got, want)
		}
	}
}

func TestScaleAndTimeValues(t *testing.T) {
	tests := []struct {
		field Field
		value any
		want  string // the problem's code, "" for none
	}{
		{Field{Type: FieldRating}, 5.0, ""},
		{Field{Type: FieldRating}, "1", ""},
		{Field{Type: FieldRating}, 6.0, ProblemChoice},
		{Field{Type: FieldRating}, 0.0, ProblemChoice},
		{Field{Type: FieldRating}, 2.5, ProblemChoice},
		{Field{Type: FieldRating, Max: "10"}, 10.0, ""},
		{Field{Type: FieldRating}, "many", ProblemNumber},
		{Field{Type: FieldScale}, 1.0, ""},
		{Field{Type: FieldScale}, 0.0, ProblemChoice},
		{Field{Type: FieldScale, Min: "0", Max: "10"}, 0.0, ""},
		{Field{Type: FieldScale, Min: "0", Max: "10"}, 11.0, ProblemChoice},
		{Field{Type: FieldNPS}, 0.0, ""},
		{Field{Type: FieldNPS}, 10.0, ""},
		{Field{Type: FieldNPS}, 11.0, ProblemChoice},
		{Field{Type: FieldNPS}, -1.0, ProblemChoice},
		{Field{Type: FieldSlider, Min: "0", Max: "50", Step: 5}, 25.0, ""},
		{Field{Type: FieldSlider, Min: "0", Max: "50", Step: 5}, 55.0, ProblemMax},
		{Field{Type: FieldSlider, Min: "0", Max: "50", Step: 5}, 12.0, ProblemStep},
		{Field{Type: FieldTime}, "09:30", ""},
		{Field{Type: FieldTime}, "9:30", ProblemTime},
		{Field{Type: FieldTime}, "24:00", ProblemTime},
		{Field{Type: FieldTime, Min: "09:00", Max: "17:00"}, "08:59", ProblemMin},
		{Field{Type: FieldTime, Min: "09:00", Max: "17:00"}, "17:01", ProblemMax},
		{Field{Type: FieldTime, Min: "09:00", Step: 15}, "09:45", ""},
		{Field{Type: FieldTime, Min: "09:00", Step: 15}, "09:50", ProblemStep},
		{Field{Type: FieldDateTime}, "2026-11-28T10:15", ""},
		{Field{Type: FieldDateTime}, "2026-11-28 10:15", ProblemDateTime},
		{Field{Type: FieldDateTime, Min: "2026-12-01T00:00"}, "2026-11-30T23:59", ProblemMin},
		{Field{Type: FieldDateTime, Max: "2026-12-01T00:00"}, "2026-12-01T00:00", ""},
	}
	for _, tt := range tests {
		f := tt.field
		f.Name = "x"
		logic, err := Compile(&Schema{Fields: []Field{f}})
		if err != nil {
			t.Fatal(err)
		}
		_, problems := logic.Check(map[string]any{"x": tt.value})
		if got := problems["x"].Code; got != tt.want {
			t.Errorf("%s %+v: value %#v: problem %q, want %q", f.Type, tt.field, tt.value, got, tt.want)
		}
	}
}

// TestConditionReadsAScoreAsANumber shows a question to detractors alone,
// as a post types the score.
func TestConditionReadsAScoreAsANumber(t *testing.T) {
	s := &Schema{Fields: []Field{
		{Name: "recommend", Type: FieldNPS},
		{Name: "better", Type: FieldTextarea, Required: true, VisibleIf: []byte(`{"<=": [{"var": "recommend"}, 6]}`)},
	}}
	logic, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	for score, shown := range map[string]bool{"0": true, "6": true, "7": false, "10": false} {
		_, problems := logic.Check(Values(s, map[string][]string{"recommend": {score}}))
		if got := problems["better"].Code == ProblemRequired; got != shown {
			t.Errorf("score %s: the required question is asked %v, want %v", score, got, shown)
		}
	}
}

func TestRanking(t *testing.T) {
	f := Field{Name: "order", Type: FieldRanking, Options: []Option{{Value: "a"}, {Value: "b:c"}, {Value: "d"}}}
	tests := []struct {
		posted []string
		value  any
		want   string
	}{
		{[]string{"a:2", "b:c:1", "d:3"}, []string{"b:c", "a", "d"}, ""},
		{[]string{"", "", ""}, []string{}, ""},
		{[]string{"d", "a", "b:c"}, []string{"d", "a", "b:c"}, ""}, // the order itself, from a client
		{[]string{"a:1", "b:c:1", "d:3"}, []string{"a:1", "b:c:1", "d:3"}, ProblemRanking},
		{[]string{"a:1", "", "d:2"}, []string{"a:1", "d:2"}, ProblemRanking},
		{[]string{"a", "a", "d"}, []string{"a", "a", "d"}, ProblemRanking},
		{[]string{"a:9", "b:c:1", "d:3"}, []string{"a:9", "b:c:1", "d:3"}, ProblemRanking},
	}
	for _, tt := range tests {
		v := f.Value(tt.posted)
		if !reflect.DeepEqual(v, tt.value) {
			t.Errorf("Value(%q) = %#v, want %#v", tt.posted, v, tt.value)
		}
		if got := CheckValue(&f, v); got != tt.want {
			t.Errorf("CheckValue(%#v) = %q, want %q", v, got, tt.want)
		}
	}
	required := f
	required.Required = true
	if got := CheckValue(&required, f.Value([]string{"", "", ""})); got != ProblemRequired {
		t.Errorf("a required ranking left empty: %q, want required", got)
	}
}

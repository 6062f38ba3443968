package hubclient

import (
	"reflect"
	"testing"
)

func TestTally(t *testing.T) {
	opts := []Option{{Value: "a"}, {Value: "b"}}
	tests := []struct {
		f    Field
		v    any
		want []Tally
	}{
		{Field{Type: FieldSelect, Options: opts}, "a", []Tally{{Answer: "a"}}},
		{Field{Type: FieldSelect, Options: opts}, "", nil},
		{Field{Type: FieldRadio, Options: opts}, "b", []Tally{{Answer: "b"}}},
		{Field{Type: FieldCheckboxes, Options: opts}, []any{"a", "b"}, []Tally{{Answer: "a"}, {Answer: "b"}, {Answer: Answered}}},
		{Field{Type: FieldCheckboxes, Options: opts}, []string{"b"}, []Tally{{Answer: "b"}, {Answer: Answered}}},
		{Field{Type: FieldCheckboxes, Options: opts}, []any{}, nil},
		{Field{Type: FieldCheckbox}, true, []Tally{{Answer: "true"}}},
		{Field{Type: FieldCheckbox}, false, []Tally{{Answer: "false"}}},
		{Field{Type: FieldRating}, 4.0, []Tally{{Answer: "4", Sum: 4}}},
		{Field{Type: FieldScale}, "3", []Tally{{Answer: "3", Sum: 3}}},
		{Field{Type: FieldNPS}, 10.0, []Tally{{Answer: "10", Sum: 10}}},
		{Field{Type: FieldSlider}, 2.5, []Tally{{Answer: "2.5", Sum: 2.5}}},
		{Field{Type: FieldRanking, Options: opts}, []any{"b", "a"}, []Tally{{Answer: "b", Sum: 1}, {Answer: "a", Sum: 2}}},
		{Field{Type: FieldText}, "hello", []Tally{{Answer: Answered}}},
		{Field{Type: FieldTextarea}, "", nil},
		{Field{Type: FieldNumber}, 12.0, []Tally{{Answer: Answered}}},
		{Field{Type: FieldFile}, []any{"x"}, nil},
		{Field{Type: FieldHeading}, "x", nil},
		{Field{Name: "_hp", Type: FieldText}, "bot", nil},
		{Field{Type: FieldRating}, nil, nil},
		{Field{Type: FieldMatrix, Rows: opts, Columns: opts}, map[string]any{"a": "b", "b": "a", "gone": "a"},
			[]Tally{{Answer: "a\x1fb"}, {Answer: "b\x1fa"}, {Answer: Answered}}},
		{Field{Type: FieldMatrix, Rows: opts, Columns: opts, Multiple: true}, map[string]any{"b": []any{"a", "b"}},
			[]Tally{{Answer: "b\x1fa"}, {Answer: "b\x1fb"}, {Answer: Answered}}},
		{Field{Type: FieldMatrix, Rows: opts, Columns: opts}, map[string]any{}, nil},
	}
	for _, tt := range tests {
		if got := tt.f.Tally(tt.v); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s field's Tally(%#v) = %+v, want %+v", tt.f.Type, tt.v, got, tt.want)
		}
	}
}

func TestSummary(t *testing.T) {
	for typ, want := range map[string]Summary{
		FieldSelect: ChoiceSummary, FieldRadio: ChoiceSummary, FieldCheckboxes: ChoiceSummary,
		FieldCheckbox: YesNoSummary, FieldRating: ScaleSummary, FieldScale: ScaleSummary, FieldSlider: ScaleSummary,
		FieldNPS: NPSSummary, FieldRanking: RankingSummary, FieldText: TextSummary, FieldEmail: TextSummary,
		FieldDate: TextSummary, FieldMatrix: MatrixSummary, FieldFile: NoSummary, FieldParagraph: NoSummary, FieldDivider: NoSummary,
	} {
		f := Field{Name: "q", Type: typ}
		if got := f.Summary(); got != want {
			t.Errorf("Summary of a %s field = %d, want %d", typ, got, want)
		}
	}
}

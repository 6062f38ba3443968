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
		{"rating-to-come", []string{"5"}, "5"},
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
		{"unknown", false, false, false, false, "string"},
	}
	for _, tt := range tests {
		ft := (&Field{Type: tt.typ}).TypeOf()
		got := []any{ft.TakesOptions(), ft.TakesText(), ft.TakesRange(), ft.IsDay(), ft.GoType()}
		want := []any{tt.options, tt.text, tt.ranged, tt.day, tt.goType}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: options, text, range, day, Go type = %v, want %v", tt.typ, got, want)
		}
	}
}

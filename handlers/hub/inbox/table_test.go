package inbox

import (
	"slices"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestColumns(t *testing.T) {
	s := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "intro", Type: hubclient.FieldParagraph, Text: "Hello"},
		{Name: "stars", Type: hubclient.FieldRating, Label: "Stars", Max: "7"},
		{Name: "order", Type: hubclient.FieldRanking, Label: "Order", Options: []hubclient.Option{{Value: "a", Label: "Apples"}, {Value: "b", Label: "Bananas"}}},
		{Name: "at", Type: hubclient.FieldDateTime, Label: "When"},
		{Name: "cv", Type: hubclient.FieldFile},
		{Name: "_hp", Type: hubclient.FieldText},
	}}
	cols := Columns(s)
	var names []string
	for _, c := range cols {
		names = append(names, c.Name)
	}
	if want := []string{"stars", "order", "at", "cv"}; !slices.Equal(names, want) {
		t.Fatalf("columns %v, want %v (no content, no honeypot)", names, want)
	}
	if !cols[3].File {
		t.Error("the file field's column holds no files")
	}
	for i, tt := range []struct {
		col   int
		value any
		want  string
	}{
		{0, 4.0, "4 of 7"},
		{1, []any{"b", "a"}, "Bananas, Apples"},
		{2, "2026-11-28T10:15", "28 Nov 2026, 10:15"},
	} {
		if got := cols[tt.col].Text(tt.value); got != tt.want {
			t.Errorf("%d: %s of %#v = %q, want %q", i, cols[tt.col].Name, tt.value, got, tt.want)
		}
	}
}

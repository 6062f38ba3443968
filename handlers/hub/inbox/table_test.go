package inbox

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
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

// TestCompositeAnswers: the table, the panel and the exports read a
// matrix by its labels, row by row, and an address as on an envelope; an
// export lays out a column per part.
func TestCompositeAnswers(t *testing.T) {
	s := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "grid", Type: hubclient.FieldMatrix, Label: "Rate", Rows: []hubclient.Option{{Value: "speed", Label: "Speed"}, {Value: "care", Label: "Care"}},
			Columns: []hubclient.Option{{Value: "bad", Label: "Bad"}, {Value: "good", Label: "Good"}}},
		{Name: "ship", Type: hubclient.FieldAddress, Label: "Ship to"},
	}}
	cols := Columns(s)
	if got := cols[0].Text(map[string]any{"care": "bad", "speed": "good"}); got != "Speed: Good; Care: Bad" {
		t.Errorf("matrix: %q", got)
	}
	addr := map[string]any{"line1": "1 rue de la Paix", "city": "Paris", "postalCode": "75002", "country": "FR"}
	if got := cols[1].Text(addr); got != "1 rue de la Paix, 75002 Paris, FR" {
		t.Errorf("address: %q", got)
	}
	values := Values([]byte(`{"grid": {"speed": "bad"}, "ship": {"city": "Lyon"}}`), Labels(s))
	if len(values) != 2 || values[0].Value != "Speed: Bad" || values[1].Value != "Lyon" {
		t.Errorf("Values: %+v", values)
	}
	sheet := cols[0].Sheet()
	if len(sheet) != 2 || sheet[0].Part != "speed" || sheet[0].Label != "Rate: Speed" || sheet[1].Options["good"] != "Good" {
		t.Errorf("the matrix's export columns: %+v", sheet)
	}
	if sheet := cols[1].Sheet(); len(sheet) != 6 || sheet[5].Part != "country" || sheet[2].Label != "Ship to: City" {
		t.Errorf("the address's export columns: %+v", sheet)
	}
}

// TestGroupAnswers: a group reads an item a line, its children's answers
// in words, and exports as one column.
func TestGroupAnswers(t *testing.T) {
	s := &hubclient.Schema{Fields: []hubclient.Field{{Name: "team", Type: hubclient.FieldGroup, Label: "Guests", Fields: []hubclient.Field{
		{Name: "guest", Type: hubclient.FieldText}, {Name: "meal", Type: hubclient.FieldSelect, Options: []hubclient.Option{{Value: "veg", Label: "Vegetarian"}}},
	}}}}
	cols := Columns(s)
	v := []any{map[string]any{"guest": "Ada", "meal": "veg"}, map[string]any{"guest": "Bob"}}
	if got := cols[0].Text(v); got != "Ada, Vegetarian; Bob" {
		t.Errorf("group: %q", got)
	}
	if sheet := cols[0].Sheet(); len(sheet) != 1 || sheet[0].Part != "" {
		t.Errorf("a group's export columns: %+v", sheet)
	}
}

// TestCalculationColumns: the calculations follow the questions, under
// their labels, their cells the values the hub stored, formatted; the
// exports lay them out the same way.
func TestCalculationColumns(t *testing.T) {
	s := &hubclient.Schema{
		Fields: []hubclient.Field{{Name: "guests", Type: hubclient.FieldNumber, Label: "Guests"}},
		Calculations: []hubclient.Calculation{
			{Name: "total", Label: "Total", Format: hubclient.FormatCurrency, Currency: "EUR"},
			{Name: "share", Format: hubclient.FormatPercent},
		},
	}
	cols := Columns(s)
	if len(cols) != 3 || cols[1].Label != "Total" || cols[2].Label != "share" || !cols[1].Calculated() || cols[0].Calculated() {
		t.Fatalf("columns %+v", cols)
	}
	sub := hub.Submission{Payload: json.RawMessage(`{"guests":3,"total":1}`), Calculations: map[string]any{"total": 105.0, "share": 0.5}}
	got := Answers(sub, cols)
	if got[0].Text != "3" || got[1].Text != "€ 105.00" || got[2].Text != "50%" {
		t.Errorf("answers %+v", got)
	}
	if sh := cols[1].Sheet(); len(sh) != 1 || sh[0].Calculation == nil || sh[0].Calculation(105.0) != "€ 105.00" {
		t.Errorf("sheet column %+v", sh)
	}
	p := Printed(&hub.Form{Site: "a", Slug: "b"}, sub, s, time.UTC)
	if n := len(p.Values); n < 2 || p.Values[n-2].Label != "Total" || p.Values[n-2].Value != "€ 105.00" || p.Values[n-1].Value != "50%" {
		t.Errorf("PDF values %+v", p.Values)
	}
}

// TestRecallingLabels: a label that recalls an answer heads the inbox's
// column and its line in a submission as owners read it, the token named.
func TestRecallingLabels(t *testing.T) {
	s := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "name", Type: hubclient.FieldText, Label: "Name"},
		{Name: "email", Type: hubclient.FieldEmail, Label: "Thanks, {{name|friend}} — your e-mail?"},
	}}
	if got := Columns(s)[1].Label; got != "Thanks, [name] — your e-mail?" {
		t.Errorf("the column reads %q", got)
	}
	if got := Labels(s)[1].Label; got != "Thanks, [name] — your e-mail?" {
		t.Errorf("the submission's line reads %q", got)
	}
}

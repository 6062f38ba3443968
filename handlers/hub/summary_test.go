package hub

import (
	"encoding/json"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestTallies(t *testing.T) {
	schema := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "topic", Type: hubclient.FieldSelect, Options: []hubclient.Option{{Value: "a"}, {Value: "b \"quoted\""}}},
		{Name: "tags", Type: hubclient.FieldCheckboxes, Options: []hubclient.Option{{Value: "a"}}},
		{Name: "stars", Type: hubclient.FieldRating},
		{Name: "note", Type: hubclient.FieldText},
		{Name: "intro", Type: hubclient.FieldHeading},
		{Name: "grid", Type: hubclient.FieldMatrix, Rows: []hubclient.Option{{Value: "r"}}, Columns: []hubclient.Option{{Value: "c\a"}}},
	}}
	tests := []struct{ payload, want string }{
		{`{}`, `[["","",0]]`},
		{`not json`, `[["","",0]]`},
		{`{"topic":"b \"quoted\"","stars":4,"note":"hi","other":"x"}`, `[["","",0],["topic","b \"quoted\"",0],["stars","4",4],["note","",0]]`},
		// An answer given twice counts once.
		{`{"tags":["a","a"]}`, `[["","",0],["tags","a",0],["tags","",0]]`},
		// A matrix's cell joins row and column with a control character,
		// which an option may hold too: both are JSON escapes.
		{`{"grid":{"r":"c\u0007"}}`, `[["","",0],["grid","r\u001fc\u0007",0],["grid","",0]]`},
	}
	for _, tt := range tests {
		got := TalliesOf(schema, json.RawMessage(tt.payload))
		if got != tt.want {
			t.Errorf("TalliesOf(%s) = %s, want %s", tt.payload, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("TalliesOf(%s) = %s, not JSON", tt.payload, got)
		}
	}
	if got := Tallies(nil, map[string]any{"a": "b"}); got != `[["","",0]]` {
		t.Errorf("Tallies without a schema = %s", got)
	}
}

// TestTalliesScore: a form with a score counts each submission's score
// under the calculation's name, as a scale's answers are; one whose score
// cannot be worked out adds none.
func TestTalliesScore(t *testing.T) {
	var schema hubclient.Schema
	err := json.Unmarshal([]byte(`{"fields": [{"name": "q", "type": "radio", "options": [{"value": "a", "points": 3}, "b"]}, {"name": "n", "type": "number"}],
	  "steps": [], "calculations": [{"name": "score", "expr": {"points": "q"}}, {"name": "half", "expr": {"/": [{"var": "n"}, 2]}}]}`), &schema)
	if err != nil {
		t.Fatal(err)
	}
	for payload, want := range map[string]string{
		`{"q":"a"}`: `[["","",0],["q","a",0],["score","3",3]]`,
		`{"q":"b"}`: `[["","",0],["q","b",0],["score","0",0]]`,
		`{}`:        `[["","",0],["score","0",0]]`,
	} {
		if got := TalliesOf(&schema, json.RawMessage(payload)); got != want {
			t.Errorf("TalliesOf(%s) = %s, want %s", payload, got, want)
		}
	}
	schema.Calculations[0].Expr = json.RawMessage(`{"/": [1, {"var": "n"}]}`)
	if got := TalliesOf(&schema, json.RawMessage(`{}`)); got != `[["","",0]]` {
		t.Errorf("a score not worked out: %s", got)
	}
}

// BenchmarkTallies: what a submission's tallies cost the submit route, for
// a survey's answers.
func BenchmarkTallies(b *testing.B) {
	opts := func(values ...string) []hubclient.Option {
		var out []hubclient.Option
		for _, v := range values {
			out = append(out, hubclient.Option{Value: v})
		}
		return out
	}
	schema := &hubclient.Schema{Fields: []hubclient.Field{
		{Name: "topic", Type: hubclient.FieldSelect, Options: opts("sales", "support", "billing")},
		{Name: "tags", Type: hubclient.FieldCheckboxes, Options: opts("a", "b", "c", "d")},
		{Name: "ok", Type: hubclient.FieldCheckbox},
		{Name: "stars", Type: hubclient.FieldRating},
		{Name: "score", Type: hubclient.FieldNPS},
		{Name: "order", Type: hubclient.FieldRanking, Options: opts("x", "y", "z")},
		{Name: "note", Type: hubclient.FieldText},
	}}
	payload := map[string]any{"topic": "support", "tags": []any{"a", "c"}, "ok": true, "stars": 4.0, "score": 9.0,
		"order": []any{"y", "x", "z"}, "note": "Quick and kind."}
	b.ReportAllocs()
	for b.Loop() {
		Tallies(schema, payload)
	}
}

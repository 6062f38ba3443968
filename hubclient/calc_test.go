package hubclient_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// calcSchema: a price from the guests and a menu, a discount that reads
// the price, a quiz question with points, and a field shown only when the
// price is high.
const calcSchema = `{
  "fields": [
    {"name": "guests", "type": "number"},
    {"name": "menu", "type": "radio", "options": [{"value": "veg", "points": 2}, {"value": "meat", "points": 5}]},
    {"name": "extras", "type": "checkboxes", "options": [{"value": "wine", "points": 3}, {"value": "cake", "correct": true}, "none"]},
    {"name": "company", "type": "checkbox"},
    {"name": "q1", "type": "radio", "visibleIf": {"var": "company"}, "options": [{"value": "a", "correct": true}, "b"]},
    {"name": "vat", "type": "text", "visibleIf": {">": [{"var": "price"}, 100]}}
  ],
  "steps": [{"id": "a", "fields": ["guests", "menu", "extras", "company", "q1", "vat"]}],
  "calculations": [
    {"name": "price", "expr": {"*": [{"var": "guests"}, 35]}, "format": "currency", "currency": "EUR", "show": true},
    {"name": "net", "expr": {"-": [{"var": "price"}, 10]}},
    {"name": "score", "expr": {"+": [{"points": "menu"}, {"points": "extras"}, {"points": "q1"}]}},
    {"name": "half", "expr": {"/": [{"var": "guests"}, 0]}},
    {"name": "word", "expr": {"cat": ["n=", {"var": "guests"}]}}
  ]
}`

func TestCalculate(t *testing.T) {
	_, l := compile(t, calcSchema)
	for _, tc := range []struct {
		name   string
		values map[string]any
		want   map[string]any
	}{
		{"a product", map[string]any{"guests": 3}, map[string]any{"price": 105.0, "net": 95.0, "score": 0.0, "half": nil, "word": "n=3"}},
		{"as JSON decodes it", map[string]any{"guests": json.Number("2")}, map[string]any{"price": 70.0, "net": 60.0, "score": 0.0}},
		{"a missing value is nil", map[string]any{}, map[string]any{"price": nil, "net": nil}},
		{"points of one choice and of several", map[string]any{"menu": "meat", "extras": []any{"wine", "cake"}}, map[string]any{"score": 9.0}},
		{"points of []string", map[string]any{"menu": "veg", "extras": []string{"none"}}, map[string]any{"score": 2.0}},
		{"a hidden answer is worth nothing", map[string]any{"q1": "a"}, map[string]any{"score": 0.0}},
		{"a visible correct answer is worth 1", map[string]any{"company": true, "q1": "a"}, map[string]any{"score": 1.0}},
		{"a forged calculation is not read", map[string]any{"guests": 1, "price": 1000}, map[string]any{"price": 35.0, "net": 25.0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := l.Calculate(tc.values)
			for name, want := range tc.want {
				if got[name] != want {
					t.Errorf("%s = %#v, want %#v", name, got[name], want)
				}
			}
		})
	}
}

func TestConditionReadsCalculation(t *testing.T) {
	_, l := compile(t, calcSchema)
	if !l.IsTrigger("guests") {
		t.Error("guests is read by a shown calculation and a condition through it: it should be a trigger")
	}
	if o := l.Evaluate(map[string]any{"guests": 2}); o.Visible("vat") {
		t.Error("vat shown for a price of 70")
	}
	if o := l.Evaluate(map[string]any{"guests": 4}); !o.Visible("vat") {
		t.Error("vat hidden for a price of 140")
	}
	if o := l.Evaluate(map[string]any{"guests": 2, "price": 500}); o.Visible("vat") {
		t.Error("a forged price showed vat")
	}
}

func TestEndingReadsScore(t *testing.T) {
	_, l := compile(t, `{
  "fields": [{"name": "q", "type": "radio", "options": [{"value": "a", "points": 4}, "b"]}],
  "steps": [{"id": "s", "fields": ["q"]}],
  "calculations": [{"name": "score", "expr": {"points": "q"}}],
  "endings": [{"id": "pass", "title": "Passed", "if": {">=": [{"var": "score"}, 3]}}, {"id": "fail", "title": "Try again"}]
}`)
	if e := l.Ending(map[string]any{"q": "a"}); e == nil || e.ID != "pass" {
		t.Errorf("ending for a = %v, want pass", e)
	}
	if e := l.Ending(map[string]any{"q": "b"}); e == nil || e.ID != "fail" {
		t.Errorf("ending for b = %v, want fail", e)
	}
}

func TestCalculationErrors(t *testing.T) {
	for _, tc := range []struct {
		name, calcs, fields, want string
	}{
		{"a later calculation", `[{"name": "a", "expr": {"var": "b"}}, {"name": "b", "expr": 1}]`, "", `calculation "a": expr: refers to unknown field "b": a calculation reads only those before it`},
		{"itself", `[{"name": "a", "expr": {"+": [{"var": "a"}, 1]}}]`, "", `calculation "a": expr: refers to unknown field "a": a calculation reads only those before it`},
		{"an unknown field", `[{"name": "a", "expr": {"var": "nope"}}]`, "", `calculation "a": expr: refers to unknown field "nope"`},
		{"a name used twice", `[{"name": "a", "expr": 1}, {"name": "a", "expr": 2}]`, "", `calculation "a": name: is used by more than one calculation`},
		{"a field's name", `[{"name": "n", "expr": 1}]`, "", `calculation "n": name: is the name of a field`},
		{"no expression", `[{"name": "a"}]`, "", `calculation "a": expr: is empty`},
		{"an operator not allowed", `[{"name": "a", "expr": {"map": [[1], {"var": ""}]}}]`, "", `operator "map" is not supported`},
		{"points of a text", `[{"name": "a", "expr": {"points": "n"}}]`, "", `"points" reads a field with options, not "n"`},
		{"a bad currency", `[{"name": "a", "expr": 1, "format": "currency", "currency": "EURO"}]`, "", `currency: "EURO" is not an ISO 4217 currency code`},
		{"a bad format", `[{"name": "a", "expr": 1, "format": "money"}]`, "", `format: "money" is not number, currency or percent`},
		{"a field's condition on a calculation that reads it", `[{"name": "a", "expr": {"var": "n"}}]`, `, {"name": "m", "type": "text", "visibleIf": {"var": "a"}}, {"name": "n2", "type": "text", "visibleIf": {"var": "c"}}`, `refers to unknown field "c"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s hubclient.Schema
			src := `{"fields": [{"name": "n", "type": "text"}` + tc.fields + `], "steps": [], "calculations": ` + tc.calcs + `}`
			if err := json.Unmarshal([]byte(src), &s); err != nil {
				t.Fatal(err)
			}
			_, err := hubclient.Compile(&s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Compile = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestCalculationCycleThroughVisibility(t *testing.T) {
	var s hubclient.Schema
	src := `{"fields": [{"name": "n", "type": "number", "visibleIf": {">": [{"var": "a"}, 1]}}], "steps": [],
	  "calculations": [{"name": "a", "expr": {"var": "n"}}]}`
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		t.Fatal(err)
	}
	if _, err := hubclient.Compile(&s); err == nil || !strings.Contains(err.Error(), "depends on itself") {
		t.Fatalf("Compile = %v, want a cycle", err)
	}
}

func TestFormatValue(t *testing.T) {
	two := 2
	for _, tc := range []struct {
		calc   hubclient.Calculation
		v      any
		locale string
		want   string
	}{
		{hubclient.Calculation{}, 1234.5678, "en", "1,234.57"},
		{hubclient.Calculation{}, 1234.5678, "de", "1.234,57"},
		{hubclient.Calculation{}, 3.0, "", "3"},
		{hubclient.Calculation{Decimals: &two}, 3.0, "en", "3.00"},
		{hubclient.Calculation{Format: "currency", Currency: "EUR"}, 105.0, "en", "€ 105.00"},
		{hubclient.Calculation{Format: "currency", Currency: "EUR"}, 1234.5, "fr", "€ 1\u00a0234,50"},
		{hubclient.Calculation{Format: "currency", Currency: "JPY"}, 1234.0, "en", "¥ 1,234"},
		{hubclient.Calculation{Format: "currency", Currency: "USD", Decimals: &two}, 5.0, "en", "$\u00a05.00"},
		{hubclient.Calculation{Format: "percent"}, 0.256, "en", "26%"},
		{hubclient.Calculation{Format: "percent"}, 0.256, "de", "26\u00a0%"},
		{hubclient.Calculation{Format: "percent", Decimals: &two}, 0.256, "en", "25.60%"},
		{hubclient.Calculation{}, nil, "en", ""},
		{hubclient.Calculation{}, "text", "en", "text"},
		{hubclient.Calculation{}, 2.0, "not a locale!", "2"},
	} {
		if got := tc.calc.FormatValue(tc.v, tc.locale); got != tc.want {
			t.Errorf("%+v FormatValue(%v, %q) = %q, want %q", tc.calc, tc.v, tc.locale, got, tc.want)
		}
	}
}

func TestQuizAnswers(t *testing.T) {
	_, l := compile(t, calcSchema)
	got := l.QuizAnswers(map[string]any{"extras": []any{"cake"}, "company": true, "q1": "b"})
	if len(got) != 2 || !got["extras"] || got["q1"] {
		t.Errorf("QuizAnswers = %v, want extras right and q1 wrong", got)
	}
	if got := l.QuizAnswers(map[string]any{"extras": []any{"cake", "wine"}}); got["extras"] || len(got) != 1 {
		t.Errorf("QuizAnswers = %v, want extras wrong (a wrong choice too) and q1 hidden", got)
	}
}

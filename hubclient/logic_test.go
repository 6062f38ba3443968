package hubclient_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// logicSchema: "Other…" reveals a required text field; a newsletter box
// makes the email required; a step shown only to companies.
const logicSchema = `{
  "fields": [
    {"name": "kind", "type": "select", "options": ["person", "company"]},
    {"name": "source", "type": "radio", "options": ["web", "friend", "other"]},
    {"name": "sourceOther", "type": "text", "required": true, "minLength": 3,
     "visibleIf": {"==": [{"var": "source"}, "other"]}},
    {"name": "detail", "type": "text", "visibleIf": {"!!": {"var": "sourceOther"}}},
    {"name": "news", "type": "checkbox"},
    {"name": "email", "type": "email", "requiredIf": {"var": "news"}},
    {"name": "company", "type": "text", "required": true}
  ],
  "steps": [
    {"id": "a", "fields": ["kind", "source", "sourceOther", "detail", "news", "email"]},
    {"id": "b", "fields": ["company"], "visibleIf": {"==": [{"var": "kind"}, "company"]}}
  ]
}`

func compile(t *testing.T, schema string) (*hubclient.Schema, *hubclient.Logic) {
	t.Helper()
	var s hubclient.Schema
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		t.Fatal(err)
	}
	l, err := hubclient.Compile(&s)
	if err != nil {
		t.Fatal(err)
	}
	return &s, l
}

func TestLogicEvaluate(t *testing.T) {
	_, l := compile(t, logicSchema)
	for _, tc := range []struct {
		name              string
		values            map[string]any
		visible, hidden   []string
		required          []string
		notRequired       []string
		skipped, shownSte []string
	}{
		{"nothing given", map[string]any{},
			[]string{"kind", "source", "news", "email"}, []string{"sourceOther", "detail", "company"},
			nil, []string{"email", "sourceOther"}, []string{"b"}, []string{"a"}},
		{"other reveals its text", map[string]any{"source": "other"},
			[]string{"sourceOther"}, []string{"detail"}, []string{"sourceOther"}, nil, nil, nil},
		{"a chain follows", map[string]any{"source": "other", "sourceOther": "radio"},
			[]string{"sourceOther", "detail"}, nil, nil, nil, nil, nil},
		{"a hidden field hides what depends on it", map[string]any{"source": "web", "sourceOther": "radio"},
			nil, []string{"sourceOther", "detail"}, nil, []string{"sourceOther"}, nil, nil},
		{"requiredIf", map[string]any{"news": true},
			nil, nil, []string{"email"}, nil, nil, nil},
		{"requiredIf false", map[string]any{"news": false},
			nil, nil, nil, []string{"email"}, nil, nil},
		{"step shown", map[string]any{"kind": "company"},
			[]string{"company"}, nil, []string{"company"}, nil, nil, []string{"b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := l.Evaluate(tc.values)
			for _, n := range tc.visible {
				if !o.Visible(n) {
					t.Errorf("%s hidden, want visible", n)
				}
			}
			for _, n := range tc.hidden {
				if o.Visible(n) {
					t.Errorf("%s visible, want hidden", n)
				}
			}
			for _, n := range tc.required {
				if !o.Required(n) {
					t.Errorf("%s not required, want required", n)
				}
			}
			for _, n := range tc.notRequired {
				if o.Required(n) {
					t.Errorf("%s required, want not", n)
				}
			}
			for _, id := range tc.skipped {
				if o.StepVisible(id) {
					t.Errorf("step %s visible, want skipped", id)
				}
			}
			for _, id := range tc.shownSte {
				if !o.StepVisible(id) {
					t.Errorf("step %s skipped, want visible", id)
				}
			}
		})
	}
}

func TestLogicCheck(t *testing.T) {
	s, l := compile(t, logicSchema)
	_, problems := l.Check(map[string]any{"source": "other", "sourceOther": "ab", "news": true})
	want := map[string]hubclient.Problem{
		"sourceOther": {Code: hubclient.ProblemMinLength, Limit: "3"},
		"email":       {Code: hubclient.ProblemRequired},
	}
	if len(problems) != len(want) {
		t.Fatalf("problems = %v, want %v", problems, want)
	}
	for k, p := range want {
		if problems[k] != p {
			t.Errorf("%s: %v, want %v", k, problems[k], p)
		}
	}
	// A hidden field's value is neither checked nor kept.
	values := map[string]any{"source": "web", "sourceOther": "x"}
	o, problems := l.Check(values)
	if problems != nil {
		t.Errorf("problems = %v, want none", problems)
	}
	o.Drop(values)
	if _, ok := values["sourceOther"]; ok {
		t.Error("the hidden field's value was not dropped")
	}
	msg := hubclient.Problem{Code: hubclient.ProblemMinLength, Limit: "3"}.Text(s.Field("sourceOther"), func(string) string { return "at least {limit}" })
	if msg != "at least 3" {
		t.Errorf("Text = %q", msg)
	}
}

func TestCheckRules(t *testing.T) {
	field := func(js string) *hubclient.Field {
		var f hubclient.Field
		if err := json.Unmarshal([]byte(js), &f); err != nil {
			t.Fatal(err)
		}
		return &f
	}
	for _, tc := range []struct {
		field string
		value any
		want  hubclient.Problem
	}{
		{`{"type":"text","minLength":2}`, "é", hubclient.Problem{"minLength", "2"}},
		{`{"type":"text","minLength":2}`, "éé", hubclient.Problem{}},
		{`{"type":"text","minLength":2}`, "", hubclient.Problem{}},
		{`{"type":"textarea","maxLength":3}`, "abcd", hubclient.Problem{"maxLength", "3"}},
		{`{"type":"text","pattern":"[A-Z]{2}[0-9]+"}`, "DE123", hubclient.Problem{}},
		{`{"type":"text","pattern":"[A-Z]{2}[0-9]+"}`, "xDE123", hubclient.Problem{"pattern", "[A-Z]{2}[0-9]+"}},
		{`{"type":"text","pattern":"a|b"}`, "ab", hubclient.Problem{"pattern", "a|b"}},
		{`{"type":"number","min":1,"max":10}`, 0.5, hubclient.Problem{"min", "1"}},
		{`{"type":"number","min":1,"max":10}`, 11.0, hubclient.Problem{"max", "10"}},
		{`{"type":"number","min":1,"max":10}`, "10", hubclient.Problem{}},
		{`{"type":"number","step":0.5}`, 2.5, hubclient.Problem{}},
		{`{"type":"number","step":0.5}`, 2.25, hubclient.Problem{"step", "0.5"}},
		{`{"type":"number","min":1,"step":2}`, 4.0, hubclient.Problem{"step", "2"}},
		{`{"type":"number","min":0.1,"step":0.1}`, 0.3, hubclient.Problem{}},
		{`{"type":"date","min":"2026-01-01","max":"2026-12-31"}`, "2025-12-31", hubclient.Problem{"min", "2026-01-01"}},
		{`{"type":"date","min":"2026-01-01","max":"2026-12-31"}`, "2027-01-01", hubclient.Problem{"max", "2026-12-31"}},
		{`{"type":"date","min":"2026-01-01","step":7}`, "2026-01-15", hubclient.Problem{}},
		{`{"type":"date","min":"2026-01-01","step":7}`, "2026-01-16", hubclient.Problem{"step", "7"}},
		{`{"type":"checkboxes","options":["a","b","c"],"minItems":2}`, []string{"a"}, hubclient.Problem{"minItems", "2"}},
		{`{"type":"checkboxes","options":["a","b","c"],"maxItems":2}`, []any{"a", "b", "c"}, hubclient.Problem{"maxItems", "2"}},
		{`{"type":"checkboxes","options":["a","b","c"],"minItems":2}`, []string{}, hubclient.Problem{}},
		{`{"type":"file","multiple":true,"maxItems":2}`, []string{"a.pdf", "b.pdf", "c.pdf"}, hubclient.Problem{"maxItems", "2"}},
		{`{"type":"file","required":true}`, []string{}, hubclient.Problem{Code: "required"}},
		{`{"type":"file"}`, []string{"a", "b"}, hubclient.Problem{Code: "oneFile"}},
		{`{"type":"email","maxLength":5}`, "not an email", hubclient.Problem{Code: "invalidEmail"}},
	} {
		f := field(tc.field)
		f.Name = "f"
		s := &hubclient.Schema{Fields: []hubclient.Field{*f}}
		l, err := hubclient.Compile(s)
		if err != nil {
			t.Fatal(err)
		}
		_, problems := l.Check(map[string]any{"f": tc.value})
		if got := problems["f"]; got != tc.want {
			t.Errorf("%s with %#v: %v, want %v", tc.field, tc.value, got, tc.want)
		}
	}
}

func TestCompileRefuses(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"fields":[{"name":"a","type":"text","visibleIf":{"var":"nope"}}]}`, `field "a": visibleIf: refers to unknown field "nope"`},
		{`{"fields":[{"name":"a","type":"text","requiredIf":{"map":[[1],{"var":""}]}}]}`, `field "a": requiredIf: operator "map" is not supported`},
		{`{"fields":[{"name":"a","type":"text","visibleIf":{"==":[1]}}]}`, `field "a": visibleIf: operator "==" takes 2 arguments, not 1`},
		{`{"fields":[{"name":"a","type":"text","visibleIf":{"var":"a"}}]}`, `field "a": visibleIf depends on itself`},
		{`{"fields":[{"name":"a","type":"text","visibleIf":{"var":"b"}},{"name":"b","type":"text","visibleIf":{"var":"a"}}]}`, `visibleIf depends on itself`},
		{`{"fields":[{"name":"a","type":"text"}],"steps":[{"id":"s","fields":["a"],"visibleIf":{"var":"a"}}]}`, `field "a": visibleIf depends on itself`},
		{`{"fields":[{"name":"a","type":"text","pattern":"(a"}]}`, `field "a": pattern is not an RE2 expression`},
		{`{"fields":[{"name":"a","type":"text","pattern":"(?=a)"}]}`, `field "a": pattern is not an RE2 expression`},
		{`{"fields":[{"name":"a","type":"text","visibleIf":{"and":[true],"or":[false]}}]}`, `exactly one operator`},
		{`{"fields":[{"name":"a","type":"text","visibleIf":` + strings.Repeat(`{"!":`, 20) + `true` + strings.Repeat(`}`, 20) + `}]}`, `nested deeper than`},
		{`{"fields":[{"name":"a","type":"text","visibleIf":{"or":[` + strings.Repeat(`true,`, 300) + `true]}}]}`, `more than 256 parts`},
	} {
		var s hubclient.Schema
		if err := json.Unmarshal([]byte(tc.schema), &s); err != nil {
			t.Fatal(err)
		}
		_, err := hubclient.Compile(&s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%s) = %v, want %q", tc.schema, err, tc.want)
		}
	}
}

func TestValues(t *testing.T) {
	s, _ := compile(t, `{"fields":[{"name":"n","type":"number"},{"name":"c","type":"checkbox"},{"name":"cs","type":"checkboxes","options":["a"]},{"name":"f","type":"file"}]}`)
	v := hubclient.Values(s, map[string][]string{"n": {"4.5"}, "c": {"true"}, "cs": {"a", ""}, "f": {"x.pdf"}, "other": {"x"}})
	if v["n"] != 4.5 || v["c"] != true || len(v["cs"].([]string)) != 1 || len(v["f"].([]string)) != 1 || v["other"] != nil {
		t.Errorf("Values = %#v", v)
	}
}

// A schema without conditions decides the same whatever the values: its
// outcome is worked out once, in Compile.
func TestLogicWithoutConditions(t *testing.T) {
	_, l := compile(t, `{
  "fields": [
    {"name": "name", "type": "text", "required": true, "minLength": 2},
    {"name": "note", "type": "textarea"},
    {"name": "_hpSite", "type": "text", "required": true}
  ],
  "steps": [{"id": "a", "fields": ["name", "note", "_hpSite"]}]
}`)
	if l.HasConditions() {
		t.Fatal("HasConditions() = true for a schema without conditions")
	}
	values := map[string]any{"name": "Ada", "note": "hi"}
	var o *hubclient.Outcome
	if allocs := testing.AllocsPerRun(10, func() { o = l.Evaluate(values) }); allocs != 0 {
		t.Errorf("Evaluate allocates %.0f times, want none: the outcome is fixed", allocs)
	}
	if !o.Required("name") || o.Required("note") || o.Required("_hpSite") {
		t.Errorf("required name, note, _hpSite = %v, %v, %v; want true, false, false",
			o.Required("name"), o.Required("note"), o.Required("_hpSite"))
	}
	if !o.Visible("name") || !o.Visible("note") || !o.StepVisible("a") {
		t.Error("a field or step is hidden without conditions")
	}
	if _, l := compile(t, logicSchema); !l.HasConditions() {
		t.Error("HasConditions() = false for a schema with conditions")
	}
	// A step's condition is one too.
	_, l = compile(t, `{
  "fields": [{"name": "kind", "type": "text"}, {"name": "company", "type": "text", "required": true}],
  "steps": [
    {"id": "a", "fields": ["kind"]},
    {"id": "b", "fields": ["company"], "visibleIf": {"==": [{"var": "kind"}, "company"]}}
  ]
}`)
	if !l.HasConditions() {
		t.Error("HasConditions() = false for a schema with a step's condition")
	}
	if o := l.Evaluate(map[string]any{"kind": "person"}); o.StepVisible("b") || o.Visible("company") || o.Required("company") {
		t.Error("a person sees the company step, want it skipped")
	}
}

package console

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// conditionSchema has a field of every type a condition reads, and last
// the field whose conditions the tests set.
func conditionSchema(t testing.TB) *hubclient.Schema {
	t.Helper()
	var s hubclient.Schema
	err := json.Unmarshal([]byte(`{"fields":[
{"name":"name","type":"text","label":"Name"},
{"name":"mail","type":"email"},
{"name":"guests","type":"number","label":"Guests"},
{"name":"day","type":"date","label":"Day"},
{"name":"size","type":"select","label":"Size","options":[{"value":"s","label":"Small"},{"value":"l","label":"Large"}]},
{"name":"how","type":"radio","options":["web","friend"]},
{"name":"extras","type":"checkboxes","label":"Extras","options":["wifi","parking"]},
{"name":"news","type":"checkbox","label":"Newsletter"},
{"name":"cv","type":"file","label":"CV"},
{"name":"plan","type":"hidden"},
{"name":"_hp","type":"text"},
{"name":"target","type":"text","label":"Target"},
{"name":"after","type":"text","label":"After"}
],"steps":[{"id":"a","fields":["name","mail","guests","day","size","how","extras","news","cv","target","after"]}]}`), &s)
	if err != nil {
		t.Fatal(err)
	}
	return &s
}

// target is the index of the field "target" in conditionSchema.
const target = 11

// TestConditionRoundTrip: every operator of every type is written as
// JSONLogic in one spelling, read back as the same rows, and means what
// its words say when the hub's logic evaluates it.
func TestConditionRoundTrip(t *testing.T) {
	s := conditionSchema(t)
	for _, tc := range []struct {
		row   conditionRow
		logic string
		words string
		yes   map[string]any // values for which it holds
		no    map[string]any // and does not
	}{
		{conditionRow{"name", opIs, "Ada"}, `{"==":[{"var":"name"},"Ada"]}`, `Name is "Ada"`, map[string]any{"name": "Ada"}, map[string]any{"name": "Bob"}},
		{conditionRow{"name", opIsNot, "Ada"}, `{"!=":[{"var":"name"},"Ada"]}`, `Name is not "Ada"`, map[string]any{"name": "Bob"}, map[string]any{"name": "Ada"}},
		{conditionRow{"name", opContains, "da"}, `{"in":["da",{"var":"name"}]}`, `Name contains "da"`, map[string]any{"name": "Ada"}, map[string]any{"name": "Bob"}},
		{conditionRow{"name", opNotContains, "da"}, `{"!":[{"in":["da",{"var":"name"}]}]}`, `Name does not contain "da"`, map[string]any{"name": "Bob"}, map[string]any{"name": "Ada"}},
		{conditionRow{"name", opEmpty, ""}, `{"!":[{"var":"name"}]}`, `Name is empty`, map[string]any{"name": ""}, map[string]any{"name": "Ada"}},
		{conditionRow{"mail", opFilled, ""}, `{"!!":[{"var":"mail"}]}`, `mail is not empty`, map[string]any{"mail": "a@b.c"}, map[string]any{}},
		{conditionRow{"plan", opIs, "pro"}, `{"==":[{"var":"plan"},"pro"]}`, `plan is "pro"`, map[string]any{"plan": "pro"}, map[string]any{"plan": "free"}},
		{conditionRow{"guests", opIs, "2"}, `{"==":[{"var":"guests"},2]}`, `Guests is 2`, map[string]any{"guests": 2.0}, map[string]any{"guests": 3.0}},
		{conditionRow{"guests", opIsNot, "2"}, `{"!=":[{"var":"guests"},2]}`, `Guests is not 2`, map[string]any{"guests": 3.0}, map[string]any{"guests": 2.0}},
		{conditionRow{"guests", opAtLeast, "2.5"}, `{">=":[{"var":"guests"},2.5]}`, `Guests is at least 2.5`, map[string]any{"guests": 2.5}, map[string]any{"guests": 2.0}},
		{conditionRow{"guests", opAtMost, "4"}, `{"<=":[{"var":"guests"},4]}`, `Guests is at most 4`, map[string]any{"guests": 4.0}, map[string]any{"guests": 5.0}},
		{conditionRow{"guests", opMore, "4"}, `{">":[{"var":"guests"},4]}`, `Guests is more than 4`, map[string]any{"guests": 5.0}, map[string]any{"guests": 4.0}},
		{conditionRow{"guests", opLess, "4"}, `{"<":[{"var":"guests"},4]}`, `Guests is less than 4`, map[string]any{"guests": 3.0}, map[string]any{"guests": 4.0}},
		{conditionRow{"day", opIs, "2026-05-01"}, `{"==":[{"var":"day"},"2026-05-01"]}`, `Day is "2026-05-01"`, map[string]any{"day": "2026-05-01"}, map[string]any{"day": "2026-05-02"}},
		{conditionRow{"day", opAtLeast, "2026-05-01"}, `{">=":[{"var":"day"},"2026-05-01"]}`, `Day is on or after "2026-05-01"`, map[string]any{"day": "2026-06-01"}, map[string]any{"day": "2026-04-30"}},
		{conditionRow{"day", opAtMost, "2026-05-01"}, `{"<=":[{"var":"day"},"2026-05-01"]}`, `Day is on or before "2026-05-01"`, map[string]any{"day": "2026-04-30"}, map[string]any{"day": "2026-06-01"}},
		{conditionRow{"day", opEmpty, ""}, `{"!":[{"var":"day"}]}`, `Day is empty`, map[string]any{}, map[string]any{"day": "2026-04-30"}},
		{conditionRow{"size", opIs, "l"}, `{"==":[{"var":"size"},"l"]}`, `Size is Large`, map[string]any{"size": "l"}, map[string]any{"size": "s"}},
		{conditionRow{"how", opIsNot, "web"}, `{"!=":[{"var":"how"},"web"]}`, `how is not web`, map[string]any{"how": "friend"}, map[string]any{"how": "web"}},
		{conditionRow{"size", opFilled, ""}, `{"!!":[{"var":"size"}]}`, `Size is not empty`, map[string]any{"size": "s"}, map[string]any{"size": ""}},
		{conditionRow{"extras", opContains, "wifi"}, `{"in":["wifi",{"var":"extras"}]}`, `Extras includes wifi`, map[string]any{"extras": []string{"parking", "wifi"}}, map[string]any{"extras": []string{"parking"}}},
		{conditionRow{"extras", opNotContains, "wifi"}, `{"!":[{"in":["wifi",{"var":"extras"}]}]}`, `Extras does not include wifi`, map[string]any{"extras": []string{}}, map[string]any{"extras": []string{"wifi"}}},
		{conditionRow{"extras", opEmpty, ""}, `{"!":[{"var":"extras"}]}`, `Extras has none chosen`, map[string]any{"extras": []string{}}, map[string]any{"extras": []string{"wifi"}}},
		{conditionRow{"extras", opFilled, ""}, `{"!!":[{"var":"extras"}]}`, `Extras has one chosen or more`, map[string]any{"extras": []string{"wifi"}}, map[string]any{"extras": []string{}}},
		{conditionRow{"news", opChecked, ""}, `{"!!":[{"var":"news"}]}`, `Newsletter is checked`, map[string]any{"news": true}, map[string]any{"news": false}},
		{conditionRow{"news", opUnchecked, ""}, `{"!":[{"var":"news"}]}`, `Newsletter is not checked`, map[string]any{"news": false}, map[string]any{"news": true}},
		{conditionRow{"cv", opFilled, ""}, `{"!!":[{"var":"cv"}]}`, `CV has a file`, map[string]any{"cv": []string{"a.pdf"}}, map[string]any{"cv": []string{}}},
		{conditionRow{"cv", opEmpty, ""}, `{"!":[{"var":"cv"}]}`, `CV has no file`, map[string]any{}, map[string]any{"cv": []string{"a.pdf"}}},
	} {
		t.Run(tc.logic, func(t *testing.T) {
			c := condition{Rows: []conditionRow{tc.row}}
			if err := checkCondition(s, target, conditionMembers[0], c); err != nil {
				t.Fatalf("checkCondition refuses the row: %v", err)
			}
			raw := encodeCondition(s, c)
			if string(raw) != tc.logic {
				t.Errorf("written as %s, want %s", raw, tc.logic)
			}
			back, ok := parseCondition(s, target, raw)
			if !ok || !reflect.DeepEqual(back, c) {
				t.Errorf("read back as %+v (ok %v), want %+v", back, ok, c)
			}
			if got := describeCondition(s, c); got != tc.words {
				t.Errorf("in words %q, want %q", got, tc.words)
			}
			if !holds(t, s, raw, tc.yes) || holds(t, s, raw, tc.no) {
				t.Errorf("holds for %v, %v = %v, %v; want true, false", tc.yes, tc.no, holds(t, s, raw, tc.yes), holds(t, s, raw, tc.no))
			}
		})
	}
}

// holds evaluates raw as the field target's visibleIf, with the hub's
// own logic, for values.
func holds(t *testing.T, s *hubclient.Schema, raw json.RawMessage, values map[string]any) bool {
	t.Helper()
	c := *s
	c.Fields = append([]hubclient.Field(nil), s.Fields...)
	c.Fields[target].VisibleIf = raw
	l, err := hubclient.Compile(&c)
	if err != nil {
		t.Fatalf("the hub refuses %s: %v", raw, err)
	}
	return l.Evaluate(values).Visible("target")
}

// TestConditionAllAny: several rows are joined by "and" (All) or "or"
// (Any), and read back so.
func TestConditionAllAny(t *testing.T) {
	s := conditionSchema(t)
	rows := []conditionRow{{"size", opIs, "l"}, {"news", opChecked, ""}}
	for _, tc := range []struct {
		any         bool
		logic       string
		words       string
		large, both bool
	}{
		{false, `{"and":[{"==":[{"var":"size"},"l"]},{"!!":[{"var":"news"}]}]}`, "Size is Large and Newsletter is checked", false, true},
		{true, `{"or":[{"==":[{"var":"size"},"l"]},{"!!":[{"var":"news"}]}]}`, "Size is Large or Newsletter is checked", true, true},
	} {
		c := condition{Any: tc.any, Rows: rows}
		raw := encodeCondition(s, c)
		if string(raw) != tc.logic {
			t.Errorf("written as %s, want %s", raw, tc.logic)
		}
		if back, ok := parseCondition(s, target, raw); !ok || !reflect.DeepEqual(back, c) {
			t.Errorf("%s read back as %+v (ok %v)", raw, back, ok)
		}
		if got := describeCondition(s, c); got != tc.words {
			t.Errorf("in words %q, want %q", got, tc.words)
		}
		if got := holds(t, s, raw, map[string]any{"size": "l", "news": false}); got != tc.large {
			t.Errorf("%s holds for a large size alone: %v", raw, got)
		}
		if got := holds(t, s, raw, map[string]any{"size": "l", "news": true}); got != tc.both {
			t.Errorf("%s holds for both: %v", raw, got)
		}
	}
	if raw := encodeCondition(s, condition{}); raw != nil {
		t.Errorf("no rows written as %s, want no condition", raw)
	}
}

// TestConditionOtherSpellings: conditions written by hand in a spelling
// the editor reads as rows.
func TestConditionOtherSpellings(t *testing.T) {
	s := conditionSchema(t)
	for raw, want := range map[string]condition{
		`{"var":"news"}`:                                         {Rows: []conditionRow{{"news", opChecked, ""}}},
		`{"var":["name"]}`:                                       {Rows: []conditionRow{{"name", opFilled, ""}}},
		` { "==" : [ {"var":"size"}, "s" ] } `:                   {Rows: []conditionRow{{"size", opIs, "s"}}},
		`{"and":[{"<":[{"var":"guests"},1e1]}]}`:                 {Rows: []conditionRow{{"guests", opLess, "10"}}},
		`{"or":[{"in":["x",{"var":"name"}]}]}`:                   {Any: true, Rows: []conditionRow{{"name", opContains, "x"}}},
		`{"!":[{"in":["wifi",{"var":"extras"}]}]}`:               {Rows: []conditionRow{{"extras", opNotContains, "wifi"}}},
		`{"==":[{"var":"size"},"gone"]}`:                         {Rows: []conditionRow{{"size", opIs, "gone"}}},
		`{"and":[{"!!":[{"var":"news"}]},{"!":[{"var":"cv"}]}]}`: {Rows: []conditionRow{{"news", opChecked, ""}, {"cv", opEmpty, ""}}},
	} {
		got, ok := parseCondition(s, target, json.RawMessage(raw))
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s read as %+v (ok %v), want %+v", raw, got, ok, want)
		}
	}
}

// TestConditionUnsupported: what the rows cannot say is not read as rows.
func TestConditionUnsupported(t *testing.T) {
	s := conditionSchema(t)
	for _, raw := range []string{
		`{"if":[{"var":"news"},true,false]}`,
		`{"==":["Ada",{"var":"name"}]}`,                                 // value first
		`{"==":[{"var":"guests"},"2"]}`,                                 // a number compared as text
		`{"==":[{"var":"name"},2]}`,                                     // text compared with a number
		`{"==":[{"var":"news"},true]}`,                                  // a checkbox compared
		`{">=":[{"var":"name"},"b"]}`,                                   // an order of text
		`{"!":{"var":"name"}}`,                                          // "!" of a bare argument
		`{"!!":{"var":"name"}}`,                                         //
		`{"var":["name","default"]}`,                                    // a default
		`{"missing":["name"]}`,                                          //
		`{"==":[{"var":"target"},"x"]}`,                                 // itself
		`{"==":[{"var":"after"},"x"]}`,                                  // a field after it
		`{"==":[{"var":"nobody"},"x"]}`,                                 // no such field
		`{"==":[{"var":"_hp"},"x"]}`,                                    // a honeypot
		`{"and":[]}`,                                                    //
		`{"and":[{"var":"news"},{"or":[{"var":"cv"},{"var":"name"}]}]}`, // nested
		`{"and":[{"var":"news"},{"!":[{"var":"cv"}]}]}`,                 // a bare var within "and", where null holds
		`{"<":[1,{"var":"guests"},5]}`,                                  // between
		`{"==":[{"var":"size"},"s"],"x":1}`,                             // two operators
		`true`, `"x"`, `[1]`, `{`, `null`,
	} {
		if c, ok := parseCondition(s, target, json.RawMessage(raw)); ok {
			t.Errorf("%s read as rows %+v", raw, c)
		}
	}
}

// TestCheckCondition: rows the editor must not write are refused, each
// with a problem an owner understands.
func TestCheckCondition(t *testing.T) {
	s := conditionSchema(t)
	for _, tc := range []struct {
		row  conditionRow
		want string
	}{
		{conditionRow{"", opIs, "x"}, "choose a field"},
		{conditionRow{"target", opIs, "x"}, "cannot depend on itself"},
		{conditionRow{"after", opIs, "x"}, `“After” comes after this field`},
		{conditionRow{"nobody", opIs, "x"}, `there is no field "nobody"`},
		{conditionRow{"_hp", opIs, "x"}, "no condition can read"},
		{conditionRow{"size", opAtLeast, "l"}, `choose how to compare “Size”`},
		{conditionRow{"name", opIs, " "}, "give the value"},
		{conditionRow{"guests", opIs, "two"}, `“Guests” is a number`},
		{conditionRow{"day", opIs, "May 1"}, `“Day” is a date`},
		{conditionRow{"size", opIs, "xl"}, `choose one of the options of “Size”`},
	} {
		err := checkCondition(s, target, conditionMembers[1], condition{Rows: []conditionRow{tc.row}})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "Required when, condition 1") {
			t.Errorf("%+v: %v, want a problem saying %q", tc.row, err, tc.want)
		}
	}
	var rows []conditionRow
	for range maxConditionRows + 1 {
		rows = append(rows, conditionRow{"news", opChecked, ""})
	}
	if checkCondition(s, target, conditionMembers[0], condition{Rows: rows}) == nil {
		t.Error("more rows than the most are accepted")
	}
}

// TestConditionForm: the rows are read from the posted form in order,
// and a button adds or removes one when the panel is shown again.
func TestConditionForm(t *testing.T) {
	s := conditionSchema(t)
	form := url.Values{
		"visibleIf": {"rows"}, "visibleIf.join": {"any"},
		"visibleIf.0.field": {"size"}, "visibleIf.0.op": {opIs}, "visibleIf.0.value": {"l"},
		"visibleIf.1.field": {"news"}, "visibleIf.1.op": {opChecked}, "visibleIf.1.value": {""},
		"visibleIf.3.field": {"name"}, // after a gap: not read
	}
	want := condition{Any: true, Rows: []conditionRow{{"size", opIs, "l"}, {"news", opChecked, ""}}}
	if got := conditionFromForm(form, "visibleIf"); !reflect.DeepEqual(got, want) {
		t.Errorf("read %+v, want %+v", got, want)
	}
	p := formProps{TypedAt: "/act", Typed: form}
	p.Typed.Set(conditionAction, "add visibleIf")
	if c, _ := shownCondition(p, s, target, conditionMembers[0], "/act"); len(c.Rows) != 3 || c.Rows[2] != (conditionRow{"plan", opIs, ""}) {
		t.Errorf("after add: %+v, want the nearest field above added", c.Rows)
	}
	p.Typed.Set(conditionAction, "remove visibleIf 0")
	if c, _ := shownCondition(p, s, target, conditionMembers[0], "/act"); !reflect.DeepEqual(c.Rows, want.Rows[1:]) {
		t.Errorf("after remove: %+v", c.Rows)
	}
	if c, _ := shownCondition(p, s, target, conditionMembers[1], "/act"); len(c.Rows) != 0 {
		t.Errorf("the other condition changed: %+v", c.Rows)
	}
	p.TypedAt = "/other"
	if c, ok := shownCondition(p, s, target, conditionMembers[0], "/act"); !ok || len(c.Rows) != 0 {
		t.Errorf("a post of another form shown: %+v", c.Rows)
	}
}

// FuzzParseCondition: reading any stored text does not panic, and what it
// reads as rows is written back as a condition that reads as the same
// rows and holds for the same values.
func FuzzParseCondition(f *testing.F) {
	for _, seed := range []string{
		`{"==":[{"var":"size"},"l"]}`, `{"and":[{"var":"news"},{"!":[{"var":"cv"}]}]}`,
		`{"or":[{">=":[{"var":"guests"},2]},{"in":["wifi",{"var":"extras"}]}]}`,
		`{"!":[{"in":["a",{"var":"name"}]}]}`, `{"var":["name"]}`, `{"if":[1,2,3]}`, `{"!!":[{"var":"day"}]}`, `[]`, `{}`,
	} {
		f.Add([]byte(seed))
	}
	s := conditionSchema(f)
	samples := []map[string]any{
		{}, {"name": "Ada", "size": "l", "news": true, "guests": 2.0, "extras": []string{"wifi"}, "day": "2026-01-01", "cv": []string{"x"}},
		{"name": "", "size": "s", "news": false, "guests": 0.0, "extras": []string{}, "day": "", "how": "web", "plan": "pro"},
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, ok := parseCondition(s, target, raw)
		if !ok || len(c.Rows) == 0 {
			return
		}
		out := encodeCondition(s, c)
		back, ok := parseCondition(s, target, out)
		if !ok || !sameCondition(back, c) {
			t.Fatalf("%s read as %+v, written %s, read back as %+v", raw, c, out, back)
		}
		if checkCondition(s, target, conditionMembers[0], c) != nil && !hasStrayValue(s, c) {
			// Rows read from the file are rows the editor may write,
			// but for an option that is gone, which the owner fixes.
			t.Fatalf("%s read as rows the editor refuses: %v", raw, checkCondition(s, target, conditionMembers[0], c))
		}
		for _, v := range samples {
			if holds(t, s, raw, v) != holds(t, s, out, v) {
				t.Fatalf("%s and %s differ for %v", raw, out, v)
			}
		}
	})
}

// hasStrayValue reports whether a row compares a choice field, or any
// field, with a value the editor would refuse.
func hasStrayValue(s *hubclient.Schema, c condition) bool {
	for _, r := range c.Rows {
		if takesValue(r.Op) && checkCondition(s, target, conditionMembers[0], condition{Rows: []conditionRow{r}}) != nil {
			return true
		}
	}
	return false
}

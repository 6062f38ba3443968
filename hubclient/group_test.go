package hubclient

import (
	"reflect"
	"testing"
)

func teamSchema() *Schema {
	return &Schema{Fields: []Field{{Name: "team", Type: FieldGroup, Label: "Attendees", Required: true, MinItems: 1, MaxItems: 3,
		Fields: []Field{
			{Name: "name", Type: FieldText, Label: "Name", Required: true},
			{Name: "email", Type: FieldEmail, Label: "Email", Pattern: `.+@example\.com`},
			{Name: "meal", Type: FieldSelect, Options: []Option{{Value: "veg"}, {Value: "fish"}}},
		}}}, Steps: []Step{{ID: "a", Fields: []string{"team"}}}}
}

// TestGroup types a group's post, an object per item, leaving empty
// items out, and judges each item with its children's rules, as app and
// hub do alike.
func TestGroup(t *testing.T) {
	s := teamSchema()
	l, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	f := s.Field("team")
	builtin := func(code string) string {
		return map[string]string{ProblemGroupItem: "Entry {n}, {label}: {message}", "required": "Required.", "pattern": "Not like {limit}."}[code]
	}
	tests := []struct {
		name   string
		posted map[string][]string // nil: value as given
		value  any
		want   string // the problem's text
	}{
		{"two", map[string][]string{"team.count": {"2"}, "team.0.name": {"Ada"}, "team.0.email": {"ada@example.com"}, "team.1.name": {"Bob"}, "team.1.meal": {"fish"}},
			[]any{map[string]any{"name": "Ada", "email": "ada@example.com"}, map[string]any{"name": "Bob", "meal": "fish"}}, ""},
		{"an empty item is left out", map[string][]string{"team.count": {"2"}, "team.0.name": {"Ada"}, "team.1.name": {""}, "team.1.email": {""}},
			[]any{map[string]any{"name": "Ada"}}, ""},
		{"none", map[string][]string{"team.count": {"1"}, "team.0.name": {""}}, []any{}, "Required."},
		{"a child required", map[string][]string{"team.0.name": {"Ada"}, "team.1.email": {"bob@example.com"}},
			[]any{map[string]any{"name": "Ada"}, map[string]any{"email": "bob@example.com"}}, "Entry 2, Name: Required."},
		{"a child's pattern", map[string][]string{"team.0.name": {"Ada"}, "team.0.email": {"ada@elsewhere.org"}},
			[]any{map[string]any{"name": "Ada", "email": "ada@elsewhere.org"}}, `Entry 1, Email: Not like .+@example\.com.`},
		{"too many (JSON)", nil, []any{map[string]any{"name": "A"}, map[string]any{"name": "B"}, map[string]any{"name": "C"}, map[string]any{"name": "D"}}, "maxItems"},
		{"a child that is not (JSON)", nil, []any{map[string]any{"name": "A", "age": 3.0}}, "invalidParts"},
		{"not a list (JSON)", nil, map[string]any{"name": "A"}, "invalidParts"},
	}
	for _, tt := range tests {
		v := tt.value
		if tt.posted != nil {
			got, ok := f.ValueIn(tt.posted)
			if !ok || !reflect.DeepEqual(got, tt.value) {
				t.Errorf("%s: ValueIn = %#v, %v, want %#v", tt.name, got, ok, tt.value)
			}
			v = got
		}
		_, problems := l.Check(map[string]any{"team": v})
		got := ""
		if p, ok := problems["team"]; ok {
			got = p.Text(f, builtin)
			if got == "" {
				got = p.Code
			}
		}
		if got != tt.want {
			t.Errorf("%s: problem %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRegroup adds an item and removes one, the items after it moving up,
// within minItems and maxItems; the post's keys belong to the group.
func TestRegroup(t *testing.T) {
	s := teamSchema()
	posted := map[string][]string{"team.count": {"2"}, "team.0.name": {"Ada"}, "team.1.name": {"Bob"}, "team.1.meal": {"fish"}}
	added := s.Regroup(posted, "add:team")
	if added["team.count"][0] != "3" || added["team.1.name"][0] != "Bob" {
		t.Errorf("add: %v", added)
	}
	if again := s.Regroup(added, "add:team"); again["team.count"][0] != "3" {
		t.Errorf("add beyond maxItems: %v", again)
	}
	removed := s.Regroup(posted, "remove:team:0")
	want := map[string][]string{"team.count": {"1"}, "team.0.name": {"Bob"}, "team.0.meal": {"fish"}}
	if !reflect.DeepEqual(removed, want) {
		t.Errorf("remove: %v, want %v", removed, want)
	}
	if last := s.Regroup(want, "remove:team:0"); last["team.count"][0] != "1" || last["team.0.name"][0] != "Bob" {
		t.Errorf("removing below minItems: %v", last)
	}
	for key, ok := range map[string]bool{"team.count": true, "team.0.name": true, "team.49.meal": true, "team.50.name": false, "team.01.name": false, "team.0.age": false, "team.x.name": false} {
		if got := s.KeyOf(key) != nil; got != ok {
			t.Errorf("KeyOf(%q) = %v, want %v", key, got, ok)
		}
	}
}

// TestGroupCondition reads a group's length and an item's field in
// conditions, as a post gives them and as a stored payload decodes, in a
// field's visibility and in an ending alike.
func TestGroupCondition(t *testing.T) {
	s := teamSchema()
	s.Fields = append(s.Fields,
		Field{Name: "bus", Type: FieldCheckbox, VisibleIf: []byte(`{">=": [{"var": "team.count"}, 2]}`)},
		Field{Name: "solo", Type: FieldText, VisibleIf: []byte(`{"==": [{"var": "team.count"}, 0]}`)},
		Field{Name: "lead", Type: FieldText, VisibleIf: []byte(`{"==": [{"var": "team.0.meal"}, "fish"]}`)})
	s.Steps[0].Fields = append(s.Steps[0].Fields, "bus", "solo", "lead")
	s.Endings = []Ending{{ID: "crowd", If: []byte(`{">": [{"var": "team.count"}, 1]}`)}, {ID: "rest"}}
	l, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	f := s.Field("team")
	two, _ := f.ValueIn(map[string][]string{"team.count": {"2"}, "team.0.name": {"Ada"}, "team.0.meal": {"fish"}, "team.1.name": {"Bob"}})
	for _, tc := range []struct {
		name            string
		values          map[string]any
		bus, solo, lead bool
		ending          string
	}{
		{"two, as posted", map[string]any{"team": two}, true, false, true, "crowd"},
		{"one, as stored", map[string]any{"team": []any{map[string]any{"name": "Ada", "meal": "veg"}}}, false, false, false, "rest"},
		{"none posted", map[string]any{}, false, true, false, "rest"},
	} {
		o := l.Evaluate(tc.values)
		if o.Visible("bus") != tc.bus || o.Visible("solo") != tc.solo || o.Visible("lead") != tc.lead {
			t.Errorf("%s: bus, solo, lead visible = %v, %v, %v, want %v, %v, %v", tc.name,
				o.Visible("bus"), o.Visible("solo"), o.Visible("lead"), tc.bus, tc.solo, tc.lead)
		}
		if e := l.Ending(tc.values); e == nil || e.ID != tc.ending {
			t.Errorf("%s: ending %+v, want %s", tc.name, e, tc.ending)
		}
	}
}

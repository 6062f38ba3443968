package formsource

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// TestValidateRecall: a text may recall an answer of an earlier step; a
// recall of a later one, of an unknown one, or of one a condition may hide
// without a fallback is refused at the member's path.
func TestValidateRecall(t *testing.T) {
	const form = `{
	  "fields": [
	    {"name": "name", "type": "text", "label": "Name"},
	    {"name": "pro", "type": "checkbox", "label": "Professional"},
	    {"name": "firm", "type": "text", "label": "Firm", "visibleIf": {"var": "pro"}},
	    {"name": "email", "type": "email", "label": "Thanks, {{name}} — your e-mail?", "help": "For {{firm|you}}"}
	  ],
	  "steps": [{"id": "a", "fields": ["name", "pro", "firm"]}, {"id": "b", "title": "{{name|You}}", "fields": ["email"]}],
	  "endings": [{"id": "bye", "title": "Bye {{name}}", "text": "We write to {{email}}."}]
	}`
	parse := func(t *testing.T, text string) *hubclient.Schema {
		var s hubclient.Schema
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			t.Fatal(err)
		}
		return &s
	}
	if err := Validate(parse(t, form), hub.Settings{}); err != nil {
		t.Fatalf("Validate refused good recalls: %v", err)
	}
	for _, tc := range []struct {
		old, new, path, want string
	}{
		{`"label": "Name"`, `"label": "Name {{email}}"`, "fields[0].label", `field "name": label: recalls "email", which comes later`},
		{`"label": "Firm"`, `"label": "Firm of {{name}}"`, "fields[2].label", `recalls "name", which is on the same step`},
		{`"For {{firm|you}}"`, `"For {{firm}}"`, "fields[3].help", `recalls "firm", which a condition may hide: give a fallback`},
		{`"Bye {{name}}"`, `"Bye {{nam}}"`, "endings[0].title", `recalls "nam", which the form does not have`},
	} {
		s := parse(t, strings.Replace(form, tc.old, tc.new, 1))
		err := Validate(s, hub.Settings{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate = %v, want %q", tc.new, err, tc.want)
			continue
		}
		if paths := problemPaths(err); !slices.Contains(paths, tc.path) {
			t.Errorf("%s: paths %q, want %q among them", tc.new, paths, tc.path)
		}
	}
}

func problemPaths(err error) []string {
	var out []string
	for _, p := range Problems(err) {
		out = append(out, p.Path)
	}
	return out
}

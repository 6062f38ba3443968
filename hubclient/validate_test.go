package hubclient_test

import (
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestCheckValue(t *testing.T) {
	choices := []hubclient.Option{{Value: "a"}, {Value: "b"}}
	field := func(typ string, required bool) *hubclient.Field {
		return &hubclient.Field{Name: "f", Type: typ, Required: required, Options: choices}
	}
	for _, tc := range []struct {
		field *hubclient.Field
		value any
		want  string
	}{
		{field("text", true), "", hubclient.ProblemRequired},
		{field("text", true), "   ", hubclient.ProblemRequired},
		{field("text", false), "", ""},
		{field("text", false), nil, ""},
		{field("text", false), 5.0, hubclient.ProblemNotText},
		{field("text", false), strings.Repeat("é", 2000), ""},
		{field("text", false), strings.Repeat("é", 2001), hubclient.ProblemTooLong},
		{field("textarea", false), strings.Repeat("x", 20000), ""},
		{field("email", false), "jane@example.com", ""},
		{field("email", false), "Jane <jane@example.com>", hubclient.ProblemEmail},
		{field("email", false), "jane@localhost", hubclient.ProblemEmail},
		{field("url", false), "https://example.com/x", ""},
		{field("url", false), "javascript:alert(1)", hubclient.ProblemURL},
		{field("tel", false), "+49 (30) 123-456", ""},
		{field("tel", false), "12", hubclient.ProblemTel},
		{field("tel", false), "call me", hubclient.ProblemTel},
		{field("number", false), 4.5, ""},
		{field("number", false), "42", ""},
		{field("number", false), "NaN", hubclient.ProblemNumber},
		{field("number", false), "1e999", hubclient.ProblemNumber},
		{field("number", false), true, hubclient.ProblemNumber},
		{field("date", false), "2026-11-21", ""},
		{field("date", false), "21.11.2026", hubclient.ProblemDate},
		{field("select", false), "a", ""},
		{field("radio", false), "c", hubclient.ProblemChoice},
		{field("checkboxes", false), []string{"a", "b"}, ""},
		{field("checkboxes", false), []any{"a", "a"}, hubclient.ProblemDuplicateChoice},
		{field("checkboxes", false), []any{"a", 1.0}, hubclient.ProblemChoice},
		{field("checkboxes", true), []string{}, hubclient.ProblemRequired},
		{field("checkbox", true), true, ""},
		{field("checkbox", true), false, hubclient.ProblemRequired},
		{field("checkbox", true), "false", hubclient.ProblemRequired},
		{field("checkbox", false), "on", ""},
		{field("checkbox", false), "yes", hubclient.ProblemBoolean},
	} {
		if got := hubclient.CheckValue(tc.field, tc.value); got != tc.want {
			t.Errorf("CheckValue(%s required=%v, %#v) = %q, want %q", tc.field.Type, tc.field.Required, tc.value, got, tc.want)
		}
	}
}

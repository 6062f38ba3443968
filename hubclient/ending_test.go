package hubclient_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// endingSchema: three endings, the last without a condition; "vip" reads
// a field that a box hides.
const endingSchema = `{
  "fields": [
    {"name": "guests", "type": "number"},
    {"name": "company", "type": "checkbox"},
    {"name": "vat", "type": "text", "visibleIf": {"var": "company"}},
    {"name": "cv", "type": "file"}
  ],
  "steps": [{"id": "a", "fields": ["guests", "company", "vat", "cv"]}],
  "endings": [
    {"id": "vip", "title": "VIP", "if": {"!!": {"var": "vat"}}, "color": "gold"},
    {"id": "crowd", "title": "Many", "if": {">": [{"var": "guests"}, 5]}},
    {"id": "applied", "title": "Applied", "if": {"!!": {"var": "cv"}}},
    {"id": "rest", "title": "Thanks"}
  ]
}`

func TestEndingFirstThatHolds(t *testing.T) {
	_, l := compile(t, endingSchema)
	for _, tc := range []struct {
		name   string
		values map[string]any
		want   string
	}{
		{"the first that holds", map[string]any{"company": true, "vat": "DE1", "guests": 9}, "vip"},
		{"a later one", map[string]any{"guests": 9}, "crowd"},
		{"a number as JSON decodes it", map[string]any{"guests": float64(6)}, "crowd"},
		{"a hidden field's value is dropped", map[string]any{"company": false, "vat": "DE1"}, "rest"},
		{"a file field as its names", hubclient.WithFiles(map[string]any{}, []hubclient.Attachment{{Field: "cv", Filename: "cv.pdf"}}), "applied"},
		{"none else: the one without a condition", map[string]any{}, "rest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := l.Ending(tc.values)
			if e == nil || e.ID != tc.want {
				t.Errorf("Ending(%v) = %+v, want %s", tc.values, e, tc.want)
			}
		})
	}
}

func TestEndingNoneReached(t *testing.T) {
	_, l := compile(t, `{"fields": [{"name": "a", "type": "number"}], "steps": [{"id": "s", "fields": ["a"]}],
	  "endings": [{"id": "big", "title": "Big", "if": {">": [{"var": "a"}, 10]}}]}`)
	if e := l.Ending(map[string]any{"a": 3}); e != nil {
		t.Errorf("Ending(a=3) = %+v, want none", e)
	}
	if e := l.Ending(map[string]any{"a": 11}); e == nil || e.ID != "big" {
		t.Errorf("Ending(a=11) = %+v, want big", e)
	}
	_, plain := compile(t, `{"fields": [{"name": "a", "type": "text"}], "steps": [{"id": "s", "fields": ["a"]}]}`)
	if e := plain.Ending(map[string]any{"a": "x"}); e != nil {
		t.Errorf("a form without endings reached %+v", e)
	}
}

func TestEndingConditionErrors(t *testing.T) {
	for _, tc := range []struct{ cond, want string }{
		{`{"==": [{"var": "sorce"}, 1]}`, `ending "e": if: refers to unknown field "sorce"`},
		{`{"map": [1, 2]}`, `ending "e": if: operator "map" is not supported`},
		{`{"==": [1]}`, `ending "e": if: operator "==" takes 2 arguments`},
	} {
		var s hubclient.Schema
		raw := `{"fields": [{"name": "source", "type": "text"}], "steps": [{"id": "s", "fields": ["source"]}],
		  "endings": [{"id": "e", "title": "E", "if": ` + tc.cond + `}]}`
		if err := json.Unmarshal([]byte(raw), &s); err != nil {
			t.Fatal(err)
		}
		l, err := hubclient.Compile(&s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(if %s) = %v, want %q", tc.cond, err, tc.want)
		}
		if e := l.Ending(map[string]any{"source": "x"}); e != nil {
			t.Errorf("an ending whose condition did not parse was reached: %+v", e)
		}
	}
}

func TestEndingRoundTrip(t *testing.T) {
	var s hubclient.Schema
	raw := `{"fields":[],"steps":[],"endings":[{"id":"a","title":"A","text":"*t*","redirectUrl":"https://example.com/x","if":{"var":"q"},"color":"gold"}],` +
		`"i18n":{"translations":{"de":{"endings":{"a":{"title":"Ä","text":"T","note":1}}}}}}`
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	if e := s.Ending("a"); e == nil || e.Title != "A" || e.RedirectURL != "https://example.com/x" || string(e.If) != `{"var":"q"}` {
		t.Errorf("Ending(a) = %+v", e)
	}
	if s.I18n.Translations["de"].Endings["a"].Title != "Ä" {
		t.Errorf("translation lost: %+v", s.I18n.Translations["de"])
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"color":"gold"`, `"note":1`, `"if":{"var":"q"}`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("encoding lost %s: %s", want, out)
		}
	}
}

func TestEndingRedirect(t *testing.T) {
	for raw, want := range map[string]string{
		"https://example.com/done?x=1": "https://example.com/done?x=1",
		"http://example.com":           "http://example.com",
		"/thanks":                      "",
		"javascript:alert(1)":          "",
		"//evil.example":               "",
		"":                             "",
	} {
		e := &hubclient.Ending{ID: "e", RedirectURL: raw}
		if got := e.Redirect(nil); got != want {
			t.Errorf("Redirect(%q) = %q, want %q", raw, got, want)
		}
	}
	var none *hubclient.Ending
	if none.Redirect(nil) != "" {
		t.Error("a nil ending redirects")
	}
}

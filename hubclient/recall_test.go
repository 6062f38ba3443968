package hubclient_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

// recallSchema: a name and a topic on step one, recalled on step two and
// in an ending; "vat" shows only for companies.
const recallSchema = `{
  "fields": [
    {"name": "name", "type": "text", "label": "Name"},
    {"name": "topic", "type": "radio", "label": "Topic", "options": [{"value": "s", "label": "Sales"}, {"value": "h", "label": "Help"}]},
    {"name": "company", "type": "checkbox", "label": "A company"},
    {"name": "vat", "type": "text", "label": "VAT", "visibleIf": {"var": "company"}},
    {"name": "addr", "type": "address", "label": "Address"},
    {"name": "ref", "type": "hidden"},
    {"name": "intro", "type": "paragraph", "text": "Dear {{name|visitor}}, about {{topic}}:"},
    {"name": "email", "type": "email", "label": "Thanks, {{name}} — your e-mail?", "help": "From {{addr.city|your town}}, ref {{ref}}",
     "options": []},
    {"name": "size", "type": "select", "label": "Size", "options": [{"value": "a", "label": "For {{vat|no VAT}}"}, {"value": "b"}]}
  ],
  "steps": [
    {"id": "one", "fields": ["name", "topic", "company", "vat", "addr"]},
    {"id": "two", "title": "Now, {{name}}", "fields": ["intro", "email", "size"]}
  ],
  "endings": [{"id": "bye", "title": "Bye {{name|you}}", "text": "We'll write to {{email}}."}]
}`

func TestParseRecall(t *testing.T) {
	for _, tc := range []struct {
		text    string
		keys    []string
		wantErr string
		filled  string // with name=Ada, addr.city=Paris
	}{
		{"Hello", nil, "", "Hello"},
		{"Thanks, {{name}}!", []string{"name"}, "", "Thanks, Ada!"},
		{"{{ name }} and {{name}}", []string{"name"}, "", "Ada and Ada"},
		{"Hi {{who|there}}", []string{"who"}, "", "Hi there"},
		{"Hi {{who|}}.", []string{"who"}, "", "Hi ."},
		{"In {{addr.city}}", []string{"addr.city"}, "", "In Paris"},
		{"In {{addr.zip|your town}}", []string{"addr.zip"}, "", "In your town"},
		{"{{name}}{{name}}", []string{"name"}, "", "AdaAda"},
		{"a {{ b", nil, `without its "}}"`, "a {{ b"},
		{"a {{}} b", nil, "does not name an answer", "a {{}} b"},
		{"a {{no way}} b", nil, "does not name an answer", "a {{no way}} b"},
		{"{{a.b.c}}", nil, "does not name an answer", "{{a.b.c}}"},
	} {
		rt, err := hubclient.ParseRecall(tc.text)
		if (err != nil) != (tc.wantErr != "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseRecall(%q) error = %v, want %q", tc.text, err, tc.wantErr)
		}
		if fmt.Sprint(rt.Keys) != fmt.Sprint(tc.keys) {
			t.Errorf("ParseRecall(%q).Keys = %q, want %q", tc.text, rt.Keys, tc.keys)
		}
		values := map[string]any{"name": "Ada", "addr": map[string]any{"city": "Paris"}}
		got := rt.Fill(values, func(_ string, v any) string { return fmt.Sprint(v) })
		if got != tc.filled {
			t.Errorf("Fill(%q) = %q, want %q", tc.text, got, tc.filled)
		}
	}
}

// TestRecallFillsAsText: a value is inserted as it is, never read; an
// empty or missing one gives the fallback.
func TestRecallFillsAsText(t *testing.T) {
	display := func(_ string, v any) string { return fmt.Sprint(v) }
	for _, tc := range []struct {
		values map[string]any
		want   string
	}{
		{map[string]any{"name": "<script>alert(1)</script>"}, "Hi <script>alert(1)</script>, {{x}}"},
		{map[string]any{"name": "{{name}}"}, "Hi {{name}}, {{x}}"},
		{map[string]any{"name": "  "}, "Hi there, {{x}}"},
		{map[string]any{"name": []string{}}, "Hi there, {{x}}"},
		{map[string]any{}, "Hi there, {{x}}"},
	} {
		if got := hubclient.Recall("Hi {{name|there}}, {{x}}", tc.values, display); got != strings.ReplaceAll(tc.want, "{{x}}", "") {
			t.Errorf("Recall with %v = %q, want %q", tc.values, got, strings.ReplaceAll(tc.want, "{{x}}", ""))
		}
	}
}

func TestRecallWords(t *testing.T) {
	s, _ := compile(t, recallSchema)
	var matrix hubclient.Field
	json.Unmarshal([]byte(`{"name": "rate", "type": "matrix", "rows": [{"value": "speed", "label": "Speed"}], "columns": [{"value": "ok", "label": "OK"}]}`), &matrix)
	var boxes hubclient.Field
	json.Unmarshal([]byte(`{"name": "x", "type": "checkboxes", "options": [{"value": "w", "label": "Wifi"}, {"value": "p", "label": "Parking"}]}`), &boxes)
	for _, tc := range []struct {
		f    *hubclient.Field
		part string
		v    any
		want string
	}{
		{s.Field("topic"), "", "s", "Sales"},
		{s.Field("topic"), "", "other", "other"},
		{s.Field("company"), "", true, "Yes"},
		{s.Field("company"), "", false, "No"},
		{s.Field("name"), "", 2.50, "2.5"},
		{&boxes, "", []string{"w", "p"}, "Wifi, Parking"},
		{&boxes, "", []any{"p"}, "Parking"},
		{s.Field("addr"), "", map[string]any{"line1": "1 Main St", "city": "Paris", "postalCode": "75001"}, "1 Main St, 75001 Paris"},
		{s.Field("addr"), "city", "Paris", "Paris"},
		{&matrix, "", map[string]any{"speed": "ok"}, "Speed: OK"},
		{&matrix, "speed", "ok", "OK"},
	} {
		if got := tc.f.RecallWords(tc.part, tc.v, "Yes", "No"); got != tc.want {
			t.Errorf("%s.RecallWords(%q, %v) = %q, want %q", tc.f.Name, tc.part, tc.v, got, tc.want)
		}
	}
}

func TestRecallCompiled(t *testing.T) {
	s, l := compile(t, recallSchema)
	if err := l.RecallProblems(); err != nil {
		t.Fatalf("RecallProblems() = %v", err)
	}
	if !l.IsRecalled("name") || !l.IsRecalled("addr") || l.IsRecalled("email") {
		t.Errorf("IsRecalled: name %v, addr %v, email %v; want true, true, false", l.IsRecalled("name"), l.IsRecalled("addr"), l.IsRecalled("email"))
	}
	values := hubclient.Values(s, map[string][]string{"name": {"Ada"}, "topic": {"h"}, "vat": {"DE1"}, "addr.city": {"Lyon"}, "ref": {"x7"}, "email": {"ada@example.com"}})
	seen := l.RecallValues(values)
	display := func(key string, v any) string {
		name, part, _ := hubclient.SplitKey(key)
		return s.Field(name).RecallWords(part, v, "Yes", "No")
	}
	fr := l.FieldRecall("email")
	if got := fr.Label.Fill(seen, display); got != "Thanks, Ada — your e-mail?" {
		t.Errorf("label = %q", got)
	}
	if got := fr.Help.Fill(seen, display); got != "From Lyon, ref x7" {
		t.Errorf("help = %q", got)
	}
	if got := l.FieldRecall("intro").Text.Fill(seen, display); got != "Dear Ada, about Help:" {
		t.Errorf("paragraph = %q", got)
	}
	// vat is hidden: company is not ticked. Its value is not recalled.
	if got := l.FieldRecall("size").Options[0].Fill(seen, display); got != "For no VAT" {
		t.Errorf("option = %q", got)
	}
	if l.FieldRecall("size").Options[1] != nil {
		t.Error("an option without a token has a RecallText")
	}
	if got := l.StepRecall("two").Fill(seen, display); got != "Now, Ada" {
		t.Errorf("step title = %q", got)
	}
	e := l.EndingRecall(0)
	if got := e.Title.Fill(seen, display) + " / " + e.Text.Fill(seen, display); got != "Bye Ada / We'll write to ada@example.com." {
		t.Errorf("ending = %q", got)
	}
	if l.FieldRecall("name") != nil || l.StepRecall("one") != nil {
		t.Error("a text without tokens has a RecallText")
	}
}

// TestRecallRefused: a recall of what comes later, of the same step, of
// nothing, or of a field a condition may hide without a fallback is a
// problem at the member's path.
func TestRecallRefused(t *testing.T) {
	for _, tc := range []struct {
		name, edit, want string
	}{
		{"later", `"label": "Name, {{email}}"`, `fields[0].label: recalls "email", which comes later`},
		{"same step", `"label": "Name, {{topic}}"`, `fields[0].label: recalls "topic", which is on the same step`},
		{"unknown", `"label": "Name, {{nme}}"`, `fields[0].label: recalls "nme", which the form does not have`},
		{"unknown part", `"label": "Name, {{addr.town}}"`, `fields[0].label: recalls "addr.town", which the form does not have`},
		{"syntax", `"label": "Name, {{nme"`, `fields[0].label: a "{{" without its "}}"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := strings.Replace(recallSchema, `"label": "Name"`, tc.edit, 1)
			_, l := compile(t, schema)
			err := l.RecallProblems()
			if got := recallPaths(err); !strings.Contains(got, tc.want) {
				t.Fatalf("RecallProblems() = %v, want %q", got, tc.want)
			}
		})
	}
	// The message names the member for people.
	_, l := compile(t, strings.Replace(recallSchema, `"label": "Name"`, `"label": "Name {{email}}"`, 1))
	if err := l.RecallProblems(); err == nil || err.Error() != `field "name": label: recalls "email", which comes later` {
		t.Errorf("RecallProblems() = %v", err)
	}
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"hidden without fallback", `"For {{vat|no VAT}}"`, `"For {{vat}}"`, `fields[8].options[0].label: recalls "vat", which a condition may hide: give a fallback, {{vat|…}}`},
		{"hidden with one token without fallback", `"For {{vat|no VAT}}"`, `"For {{vat|no VAT}} {{vat}}"`, `recalls "vat", which a condition may hide`},
		{"a step title", `"title": "Now, {{name}}"`, `"title": "Now, {{email}}"`, `steps[1].title: recalls "email", which is on the same step`},
		{"content", `"text": "Dear {{name|visitor}}, about {{topic}}:"`, `"text": "Dear {{intro}}"`, `fields[6].text: recalls "intro", which takes no answer`},
		{"a translation", `"endings"`, `"i18n": {"translations": {"de": {"fields": {"name": {"label": "Name {{email}}"}}}}}, "endings"`, `i18n.translations["de"].fields["name"].label: recalls "email", which comes later`},
		{"an ending", `"We'll write to {{email}}."`, `"We'll write to {{_hp}}."`, `endings[0].text: recalls "_hp", which the form does not have`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := strings.Replace(recallSchema, tc.old, tc.new, 1)
			if schema == recallSchema {
				t.Fatal("the edit changed nothing")
			}
			_, l := compile(t, schema)
			err := l.RecallProblems()
			if got := recallPaths(err); !strings.Contains(got, tc.want) {
				t.Fatalf("RecallProblems() = %v, want %q", got, tc.want)
			}
		})
	}
}

// recallPaths writes each RecallError of err as its path, ": " and its
// problem, a line each.
func recallPaths(err error) string {
	var lines []string
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			var re *hubclient.RecallError
			if errors.As(e, &re) {
				lines = append(lines, re.Path+": "+re.Err.Error())
			}
		}
	}
	return strings.Join(lines, "\n")
}

func TestRecallFileRefused(t *testing.T) {
	_, l := compile(t, `{"fields": [{"name": "cv", "type": "file"}, {"name": "n", "type": "text", "label": "About {{cv}}"}],
		"steps": [{"id": "a", "fields": ["cv"]}, {"id": "b", "fields": ["n"]}]}`)
	if err := l.RecallProblems(); err == nil || !strings.Contains(err.Error(), `recalls "cv", whose files a text cannot show`) {
		t.Fatalf("RecallProblems() = %v", err)
	}
}

// BenchmarkRecallFill fills ten recalled texts, as a form of ten recalls
// does on each render of the logic route or the submit route.
func BenchmarkRecallFill(b *testing.B) {
	texts := make([]*hubclient.RecallText, 10)
	for i := range texts {
		texts[i], _ = hubclient.ParseRecall(fmt.Sprintf("Thanks, {{name}} — about {{topic|your question}}, number %d, from {{addr.city}}?", i))
	}
	values := map[string]any{"name": "Ada Lovelace", "topic": "s", "addr": map[string]any{"city": "London"}}
	display := func(_ string, v any) string { s, _ := v.(string); return s }
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			_ = t.Fill(values, display)
		}
	}
}

// FuzzParseRecall: any text parses without a panic; a text without "{{"
// fills to itself; a text's tokens filled with nothing leave no token of a
// key parsed, and filling with a value puts in exactly that value.
func FuzzParseRecall(f *testing.F) {
	for _, s := range []string{"Hi {{name}}", "{{a|b}}{{c.d}}", "{{", "}}{{x", "{{ a | b }}", "{{{{x}}}}", "{{x|}}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rt, err := hubclient.ParseRecall(text)
		if !hubclient.HasRecall(text) {
			if err != nil || len(rt.Keys) != 0 || rt.FillWith(func(string) string { return "v" }) != text {
				t.Fatalf("%q without a token: %v, %q", text, err, rt.Keys)
			}
			return
		}
		empty := rt.FillWith(func(string) string { return "" })
		if len(empty) > len(text) {
			t.Fatalf("%q filled with nothing grew: %q", text, empty)
		}
		const mark = "\x00recalled\x00"
		n := strings.Count(rt.FillWith(func(string) string { return mark }), mark)
		if n < len(rt.Keys) {
			t.Fatalf("%q: %d values put in for keys %q", text, n, rt.Keys)
		}
	})
}

// TestRecallRedirect: an ending's page takes answers in its query,
// escaped; one in its host or path is refused.
func TestRecallRedirect(t *testing.T) {
	e := &hubclient.Ending{ID: "x", RedirectURL: "https://example.com/welcome?name={{name}}&plan={{plan|free}}&n={{n}}"}
	got := e.Redirect(map[string]any{"name": "Ada & Co=1", "n": 2.5})
	if want := "https://example.com/welcome?name=Ada+%26+Co%3D1&plan=free&n=2.5"; got != want {
		t.Errorf("Redirect = %q, want %q", got, want)
	}
	if got := e.Redirect(nil); got != "https://example.com/welcome?name=&plan=free&n=" {
		t.Errorf("Redirect(nil) = %q", got)
	}
	for _, tc := range []struct{ url, want string }{
		{"https://example.com/{{name}}", `endings[0].redirectUrl: an answer may be recalled in the address's query only`},
		{"https://example.com/?n={{nope}}", `endings[0].redirectUrl: recalls "nope", which the form does not have`},
	} {
		_, l := compile(t, strings.Replace(recallSchema, `"endings": [{"id": "bye", `, `"endings": [{"id": "bye", "redirectUrl": "`+tc.url+`", `, 1))
		if got := recallPaths(l.RecallProblems()); !strings.Contains(got, tc.want) {
			t.Errorf("%s: problems %q, want %q", tc.url, got, tc.want)
		}
	}
}

func TestCaption(t *testing.T) {
	for text, want := range map[string]string{
		"Your name":                          "Your name",
		"Thanks, {{name}} — your e-mail?":    "Thanks, [name] — your e-mail?",
		"In {{ship.city|your town}}, {{n}}?": "In [ship.city], [n]?",
		"Broken {{name":                      "Broken {{name",
	} {
		if got := hubclient.Caption(text); got != want {
			t.Errorf("Caption(%q) = %q, want %q", text, got, want)
		}
	}
}

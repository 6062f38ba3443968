package components_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// recallSchema asks a name and a topic on step one, and recalls them on
// step two, in a German translation too, and in its ending.
func recallSchema(t testing.TB) *hubclient.Schema {
	t.Helper()
	var s hubclient.Schema
	err := json.Unmarshal([]byte(`{
  "fields": [
    {"name": "name", "type": "text", "label": "Your name"},
    {"name": "topic", "type": "select", "label": "Topic", "options": [{"value": "s", "label": "Sales"}, {"value": "h", "label": "Help"}]},
    {"name": "day", "type": "date", "label": "Day"},
    {"name": "intro", "type": "paragraph", "text": "Dear **{{name|visitor}}**, see [more](https://example.com/?n={{name}}), about {{topic}}."},
    {"name": "email", "type": "email", "label": "Thanks, {{name}} — your e-mail?", "help": "About {{topic|your question}} on {{day}}"},
    {"name": "size", "type": "radio", "label": "Size", "options": [{"value": "a", "label": "For {{name|you}}"}, {"value": "b", "label": "Other"}]}
  ],
  "steps": [
    {"id": "one", "title": "You", "fields": ["name", "topic", "day"]},
    {"id": "two", "title": "Now, {{name|you}}", "fields": ["intro", "email", "size"]}
  ],
  "endings": [{"id": "bye", "title": "Bye, {{name|you}}", "text": "We write to *{{email}}*."}],
  "i18n": {"translations": {"de": {
    "fields": {"email": {"label": "Danke, {{name}} — Ihre E-Mail?"}, "topic": {"options": {"h": "Hilfe"}}},
    "texts": {"yes": "Ja"}}}}
}`), &s)
	if err != nil {
		t.Fatal(err)
	}
	return &s
}

func TestRecallGolden(t *testing.T) {
	p := props(recallSchema(t))
	p.State = components.State{Values: url.Values{"name": {"Ada"}, "topic": {"h"}, "day": {"2026-11-28"}}}
	checkGolden(t, "recall", render(t, components.HubForm(p)))
}

// TestRecallFilled: a later step's texts show the earlier answers as the
// inbox words them, escaped as text, never read as HTML or Markdown.
func TestRecallFilled(t *testing.T) {
	p := props(recallSchema(t))
	p.State = components.State{Values: url.Values{"name": {"Ada"}, "topic": {"h"}, "day": {"2026-11-28"}}}
	doc := renderDoc(t, components.HubForm(p))
	for sel, want := range map[string]string{
		`label[for$="-email"]`:                                "Thanks, Ada — your e-mail?",
		`[id$="-email-help"]`:                                 "About Help on 28 November 2026",
		`[data-hubform-step="two"] legend.hubform-step-title`: "Now, Ada",
		`[id$="-intro"] strong`:                               "Ada",
		`.hubform-field--radio label:first-of-type`:           "For Ada",
	} {
		if got := strings.TrimSpace(doc.Find(sel).First().Text()); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	if href, _ := doc.Find(`[id$="-intro"] a`).Attr("href"); href != "https://example.com/?n=Ada" {
		t.Errorf("link = %q, want the name in its query", href)
	}

	// Nothing answered: the fallbacks.
	doc = renderDoc(t, components.HubForm(props(recallSchema(t))))
	if got := strings.TrimSpace(doc.Find(`label[for$="-email"]`).Text()); got != "Thanks,  — your e-mail?" {
		t.Errorf("label without an answer = %q", got)
	}
	if got := strings.TrimSpace(doc.Find(`[id$="-intro"] strong`).Text()); got != "visitor" {
		t.Errorf("paragraph without an answer = %q, want the fallback", got)
	}

	// An answer is text.
	p.State.Values = url.Values{"name": {`<script>alert(1)</script> **b** [x](javascript:alert(1))`}}
	html := render(t, components.HubForm(p))
	if strings.Contains(html, "<script>alert") || strings.Contains(html, "<strong>b</strong>") || strings.Contains(html, `href="javascript`) {
		t.Errorf("an answer was read as HTML or Markdown:\n%s", html)
	}
	doc = parse(t, html)
	if got := doc.Find(`label[for$="-email"]`).Text(); !strings.Contains(got, "Thanks, <script>alert(1)</script> **b**") {
		t.Errorf("label = %q, want the answer as written", got)
	}
	if got := doc.Find(`[id$="-intro"] strong`).Text(); got != `<script>alert(1)</script> **b** [x](javascript:alert(1))` {
		t.Errorf("paragraph = %q, want the answer as written", got)
	}
}

// TestRecallTranslated: a translation's text recalls as the base's, with
// the value in the locale's words.
func TestRecallTranslated(t *testing.T) {
	p := props(recallSchema(t))
	p.Locale = "de"
	p.State = components.State{Values: url.Values{"name": {"Ada"}, "topic": {"h"}}}
	doc := renderDoc(t, components.HubForm(p))
	if got := strings.TrimSpace(doc.Find(`label[for$="-email"]`).Text()); got != "Danke, Ada — Ihre E-Mail?" {
		t.Errorf("label = %q", got)
	}
	if got := strings.TrimSpace(doc.Find(`[id$="-email-help"]`).Text()); got != "About Hilfe on" {
		t.Errorf("help = %q, want the option's translated label", got)
	}
}

// TestRecallLogicUpdate: a change of a recalled answer swaps the texts
// that recall it, and those alone.
func TestRecallLogicUpdate(t *testing.T) {
	before := props(recallSchema(t))
	doc := renderDoc(t, components.HubForm(before))
	state, _ := doc.Find(`input[name="` + components.LogicStateField + `"]`).Attr("value")
	if !strings.Contains(state, "~") {
		t.Fatalf("logic state %q holds no recall state", state)
	}
	if _, ok := doc.Find(`[data-hubform-slot="name"]`).Attr("data-hx-post"); !ok {
		t.Error("a change of a recalled field does not ask the logic route")
	}

	after := props(recallSchema(t))
	after.State = components.State{Values: url.Values{"name": {"Ada"}}}
	doc = renderDoc(t, components.LogicUpdate(after, state))
	var swapped []string
	doc.Find(`[data-hubform-slot][data-hx-swap-oob]`).Each(func(_ int, s *goquery.Selection) {
		swapped = append(swapped, s.AttrOr("data-hubform-slot", ""))
	})
	if strings.Join(swapped, ",") != "intro,email,size" {
		t.Errorf("slots swapped: %q, want intro, email and size", swapped)
	}
	if got := doc.Find(`legend[data-hx-swap-oob]`).Text(); got != "Now, Ada" {
		t.Errorf("step title swapped: %q", got)
	}
	if got := doc.Find(`label[for$="-email"]`).Text(); !strings.Contains(got, "Thanks, Ada") {
		t.Errorf("label swapped in: %q", got)
	}

	// The topic's change leaves the texts recalling the name alone.
	next, _ := doc.Find(`input[name="` + components.LogicStateField + `"]`).Attr("value")
	after.State.Values.Set("topic", "s")
	doc = renderDoc(t, components.LogicUpdate(after, next))
	swapped = nil
	doc.Find(`[data-hubform-slot][data-hx-swap-oob]`).Each(func(_ int, s *goquery.Selection) {
		swapped = append(swapped, s.AttrOr("data-hubform-slot", ""))
	})
	if strings.Join(swapped, ",") != "intro,email" || doc.Find(`legend[data-hx-swap-oob]`).Length() != 0 {
		t.Errorf("slots swapped: %q (and %d titles), want intro and email", swapped, doc.Find(`legend[data-hx-swap-oob]`).Length())
	}

	// Nothing changed: nothing swapped.
	same, _ := doc.Find(`input[name="` + components.LogicStateField + `"]`).Attr("value")
	doc = renderDoc(t, components.LogicUpdate(after, same))
	if n := doc.Find(`[data-hx-swap-oob]`).Length(); n != 1 {
		t.Errorf("%d elements swapped for no change, want the state alone", n)
	}
}

// TestRecallEnding: the ending shows the answers sent.
func TestRecallEnding(t *testing.T) {
	p := props(recallSchema(t))
	p.State = components.State{Ending: "bye", Values: url.Values{"name": {"<b>Ada</b>"}, "email": {"ada@example.com"}}}
	doc := renderDoc(t, components.Submitted(p))
	if got := doc.Find(".hubform-ending-title").Text(); got != "Bye, <b>Ada</b>" {
		t.Errorf("title = %q", got)
	}
	if got := doc.Find(".hubform-ending-text em").Text(); got != "ada@example.com" {
		t.Errorf("text = %q", got)
	}
}

// BenchmarkRecallRoutes renders what the logic route answers and the
// whole form, as the submit route does after an error, for a form whose
// later steps recall ten answers, and for the same form without the
// tokens: the difference is what ten recalls cost a request.
func BenchmarkRecallRoutes(b *testing.B) {
	for _, recall := range []bool{false, true} {
		s := benchSchema()
		for i := 10; i < 20; i++ {
			if recall {
				s.Fields[i].Label += fmt.Sprintf(", {{q%02d|you}}", i-10)
			} else {
				s.Fields[i].Label += ", you"
			}
		}
		p := props(s)
		p.State = components.State{Values: url.Values{"q00": {"Ada"}, "q01": {"ada@example.com"}, "q06": {"a"}}}
		before := renderDoc(b, components.HubForm(props(s)))
		state := before.Find(`input[name="`+components.LogicStateField+`"]`).AttrOr("value", "")
		name := map[bool]string{false: "without", true: "with ten"}[recall]
		b.Run("logic route "+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				components.LogicUpdate(p, state).Render(context.Background(), io.Discard)
			}
		})
		b.Run("form "+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				components.HubForm(p).Render(context.Background(), io.Discard)
			}
		})
	}
}

// TestRecallAsWritten: a builder's preview shows the tokens as written,
// and its logic route swaps nothing for them.
func TestRecallAsWritten(t *testing.T) {
	p := props(recallSchema(t))
	p.State = components.State{Values: url.Values{"name": {"Ada"}}}
	ctx := components.WithTextsAsWritten(context.Background())
	doc := parse(t, renderCtx(t, ctx, components.HubForm(p)))
	if got := strings.TrimSpace(doc.Find(`[data-hubform-slot="email"] label`).Text()); got != "Thanks, {{name}} — your e-mail?" {
		t.Errorf("label = %q, want it as written", got)
	}
	if got := doc.Find(`[data-hubform-step="two"] legend.hubform-step-title`).Text(); got != "Now, {{name|you}}" {
		t.Errorf("step title = %q, want it as written", got)
	}
	state := doc.Find(`input[name="`+components.LogicStateField+`"]`).AttrOr("value", "")
	if strings.Contains(state, "~") {
		t.Errorf("state %q holds a recall state", state)
	}
	p.State.Values.Set("name", "Bob")
	doc = parse(t, renderCtx(t, ctx, components.LogicUpdate(p, state)))
	if n := doc.Find(`[data-hx-swap-oob]`).Length(); n != 1 {
		t.Errorf("%d elements swapped, want the state alone", n)
	}
}

// TestRecallCalculation: a later step's text recalls a calculation,
// written as the form's language writes it; a text on the step of the
// fields it reads may not.
func TestRecallCalculation(t *testing.T) {
	var s hubclient.Schema
	err := json.Unmarshal([]byte(`{
  "fields": [
    {"name": "guests", "type": "number", "label": "Guests"},
    {"name": "note", "type": "text", "label": "Total so far: {{total|nothing}}"},
    {"name": "ok", "type": "checkbox", "label": "Pay {{total}} now"}
  ],
  "calculations": [{"name": "total", "expr": {"*": [{"var": "guests"}, 1250]}, "format": "currency", "currency": "EUR"}],
  "steps": [{"id": "one", "fields": ["guests", "note"]}, {"id": "two", "fields": ["ok"]}],
  "i18n": {"translations": {"de": {"fields": {"ok": {"label": "Pay {{total}} now"}}}}}
}`), &s)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := hubclient.Compile(&s)
	if got := fmt.Sprint(l.RecallProblems()); !strings.Contains(got, `recalls "total", which is on the same step`) || strings.Contains(got, `"ok"`) {
		t.Errorf("RecallProblems() = %s, want the same step's recall of the total alone", got)
	}
	p := props(&s)
	p.State = components.State{Values: url.Values{"guests": {"3"}}}
	for locale, amount := range map[string]string{"": "3,750.00", "de": "3.750,00"} {
		p.Locale = locale
		want := "Pay " + s.Calculations[0].FormatValue(3750.0, locale) + " now"
		doc := renderDoc(t, components.HubForm(p))
		if got := strings.TrimSpace(doc.Find(`.hubform-field--checkbox label`).Text()); got != want || !strings.Contains(got, amount) {
			t.Errorf("locale %q: the later step's label reads %q, want %q", locale, got, want)
		}
	}
}

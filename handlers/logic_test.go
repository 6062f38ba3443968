package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
)

// surveyForm: "Other…" reveals a required text with a rule; a step is for
// companies only.
const surveyForm = `{
  "fields": [
    {"name": "source", "type": "radio", "label": "Source", "options": ["web", "other"]},
    {"name": "sourceOther", "type": "text", "label": "Where?", "required": true, "minLength": 3,
     "messages": {"minLength": "At least {limit} letters."},
     "visibleIf": {"==": [{"var": "source"}, "other"]}},
    {"name": "company", "type": "text", "label": "Company", "required": true}
  ],
  "steps": [
    {"id": "you", "fields": ["source", "sourceOther"]},
    {"id": "firm", "fields": ["company"], "visibleIf": {"==": [{"var": "source"}, "web"]}}
  ],
  "i18n": {"translations": {"de": {"fields": {"sourceOther": {"messages": {"minLength": "Mindestens {limit} Buchstaben."}}}}}}
}`

func newSurveyApp(t *testing.T) *app {
	t.Helper()
	a := &app{hub: hubtest.Start(t, map[string]string{"acme/survey": surveyForm}), calls: &calls{}}
	cfg := handlers.Config{HubURL: a.hub.URL, Logger: quiet}
	a.calls.config(&cfg)
	a.h = handlers.New(cfg)
	a.srv = httptest.NewServer(a.h)
	t.Cleanup(a.srv.Close)
	return a
}

func TestSubmitAppliesRulesAndConditions(t *testing.T) {
	for _, htmx := range []bool{true, false} {
		a := newSurveyApp(t)
		// "other" was chosen: the revealed field is required, with its rule,
		// and shown with its error; the skipped step's field is not asked for.
		_, doc := a.post(t, "/hubform/acme/survey/submit?locale=de", htmx, part{name: "source", value: "other"}, part{name: "sourceOther", value: "ab"})
		errs := text(doc, ".hubform-field-error")
		if errs != "Mindestens 3 Buchstaben." {
			t.Errorf("htmx %v: errors %q, want the translated rule message alone", htmx, errs)
		}
		if _, hidden := doc.Find(`[data-hubform-slot="sourceOther"]`).Attr("hidden"); hidden {
			t.Errorf("htmx %v: the revealed field is hidden", htmx)
		}
		// The value of a field whose condition stopped holding is dropped.
		res, _ := a.post(t, "/hubform/acme/survey/submit", htmx, part{name: "source", value: "web"}, part{name: "sourceOther", value: "radio"}, part{name: "company", value: "ACME"})
		if res.StatusCode != http.StatusOK {
			t.Fatalf("htmx %v: status %d", htmx, res.StatusCode)
		}
		subs := a.hub.Submissions()
		if len(subs) != 1 || string(subs[0].Payload) != `{"company":"ACME","source":"web"}` {
			t.Fatalf("htmx %v: stored %v, want one without the hidden field", htmx, subs)
		}
		if _, ok := a.calls.successes[0]["sourceOther"]; ok {
			t.Errorf("htmx %v: OnSuccess got the hidden field's value", htmx)
		}
	}
}

func TestLogicRoute(t *testing.T) {
	a := newSurveyApp(t)
	form := url.Values{"source": {"other"}, "_hubformLogic": {"vhh" + "s"}}
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/hubform/acme/survey/logic", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	res, html := doHTML(t, req)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	doc := parse(t, html)
	slots := doc.Find("[data-hubform-slot][data-hx-swap-oob]")
	if slots.Length() != 1 || slots.AttrOr("data-hubform-slot", "") != "sourceOther" {
		t.Errorf("swapped slots %d, want sourceOther alone: %s", slots.Length(), html)
	}
	if _, hidden := slots.Attr("hidden"); hidden || doc.Find("input[name=sourceOther][required]").Length() != 1 {
		t.Errorf("the revealed field is not shown and required: %s", html)
	}
	if doc.Find(`[name="_hubformLogic"][data-hx-swap-oob]`).AttrOr("value", "") != "vrhs" {
		t.Errorf("new state %q, want vrhs", doc.Find(`[name="_hubformLogic"]`).AttrOr("value", ""))
	}
	if doc.Find("form, [data-hubform]").Length() != 0 {
		t.Error("the logic route answered the whole form")
	}
}

// giftForm: ticking the gift brings up a note, required when shown.
const giftForm = `{
  "fields": [
    {"name": "gift", "type": "checkbox", "label": "Gift"},
    {"name": "note", "type": "text", "label": "Gift note", "required": true, "visibleIf": {"var": "gift"}},
    {"name": "name", "type": "text", "label": "Name", "required": true}
  ],
  "steps": [{"id": "order", "fields": ["gift", "note", "name"]}]
}`

// A visitor without JavaScript ticks the gift: the page cannot show the
// note, so the post brings the form back for it, named in a banner, with
// what was typed; the note answered, the form is sent with it. A post
// that carries no rendering's state (a client of its own) is not held.
func TestSubmitBringsUpRevealedQuestions(t *testing.T) {
	a := &app{hub: hubtest.Start(t, map[string]string{"acme/gift": giftForm}), calls: &calls{}}
	cfg := handlers.Config{HubURL: a.hub.URL, Logger: quiet}
	a.calls.config(&cfg)
	a.h = handlers.New(cfg)
	a.srv = httptest.NewServer(a.h)
	t.Cleanup(a.srv.Close)

	_, page := a.get(t, "/hubform/acme/gift", false)
	prior, ok := page.Find(`input[name="_hubformLogic"]`).Attr("value")
	if !ok || prior == "" {
		t.Fatal("the page carries no logic state")
	}
	state := part{name: "_hubformLogic", value: prior}
	res, doc := a.post(t, "/hubform/acme/gift/submit", false, state, part{name: "gift", value: "true"}, part{name: "name", value: "Ada"})
	if res.StatusCode != http.StatusUnprocessableEntity || len(a.hub.Submissions()) != 0 {
		t.Fatalf("status %d, %d stored: the form went without the note", res.StatusCode, len(a.hub.Submissions()))
	}
	if got := text(doc, "[data-hubform-revealed] li"); got != "Gift note" {
		t.Errorf("the banner names %q, want the note", got)
	}
	if _, hidden := doc.Find(`[data-hubform-slot="note"]`).Attr("hidden"); hidden {
		t.Error("the note is still hidden")
	}
	if v, _ := doc.Find(`input[name="name"]`).Attr("value"); v != "Ada" {
		t.Errorf("the name came back as %q", v)
	}
	if doc.Find(".hubform-field-error").Length() != 0 {
		t.Errorf("errors shown for a question not yet seen: %q", text(doc, ".hubform-field-error"))
	}

	now, _ := doc.Find(`input[name="_hubformLogic"]`).Attr("value")
	res, _ = a.post(t, "/hubform/acme/gift/submit", false, part{name: "_hubformLogic", value: now},
		part{name: "gift", value: "true"}, part{name: "note", value: "Happy birthday"}, part{name: "name", value: "Ada"})
	subs := a.hub.Submissions()
	if res.StatusCode != http.StatusOK || len(subs) != 1 || !strings.Contains(string(subs[0].Payload), `"note":"Happy birthday"`) {
		t.Fatalf("status %d, stored %v", res.StatusCode, subs)
	}

	res, _ = a.post(t, "/hubform/acme/gift/submit", false, part{name: "gift", value: "true"}, part{name: "note", value: "Hi"}, part{name: "name", value: "Bo"})
	if res.StatusCode != http.StatusOK || len(a.hub.Submissions()) != 2 {
		t.Errorf("a post without the page's state: status %d, %d stored", res.StatusCode, len(a.hub.Submissions()))
	}
}

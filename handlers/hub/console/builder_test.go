package console_test

import (
	"context"
	"encoding/json"
	"html"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/hubclient"
)

// builderBase is twoSteps with members the builder does not show, which
// every action must keep.
const builderBase = `{"title":"Contact","x-note":"keep me","fields":[{"name":"name","type":"text","label":"Your name"},{"name":"email","type":"email","label":"Your e-mail","required":true}],
"steps":[{"id":"who","fields":["name"]},{"id":"how","fields":["email"]}],
"i18n":{"translations":{"de":{"fields":{"name":{"label":"Ihr Name"}}}}},
"hub":{"retentionDays":30}}`

// builderForm is a form created and then saved from its JSON file, its
// draft at revision 2, and a way to post the builder's actions on it.
type builderForm struct {
	t     *testing.T
	tc    *testConsole
	b     *browser
	token string
}

func newBuilderForm(t *testing.T) *builderForm {
	tc := newConsole(t, withStore)
	b, token := signedIn(t, tc)
	f := &builderForm{t: t, tc: tc, b: b, token: token}
	if res := f.post("/sites", url.Values{"site": {"acme"}, "slug": {"contact"}}); res.status != http.StatusSeeOther {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	if res := f.post("/forms/acme/contact", url.Values{"body": {builderBase}, "base": {"1"}}); res.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.status, res.body)
	}
	return f
}

func (f *builderForm) post(path string, form url.Values) response {
	f.t.Helper()
	form.Set("_csrf", f.token)
	return f.b.do(http.MethodPost, console.Path+path, form, nil)
}

// last returns the form's revision, which every save changes, and its
// newest version's file.
func (f *builderForm) last() (int64, hubclient.Schema, map[string]json.RawMessage) {
	f.t.Helper()
	ctx := context.Background()
	rec, err := f.tc.db.FormRecord(ctx, "acme", "contact")
	if err != nil {
		f.t.Fatal(err)
	}
	v, err := f.tc.db.FormVersion(ctx, "acme", "contact", rec.LastVersion)
	if err != nil {
		f.t.Fatal(err)
	}
	var s hubclient.Schema
	var members map[string]json.RawMessage
	if err := json.Unmarshal(v.Body, &s); err != nil {
		f.t.Fatal(err)
	}
	_ = json.Unmarshal(v.Body, &members)
	return rec.Revision, s, members
}

// saves returns the version the next save goes to: the draft, or a new
// version after a publish.
func (f *builderForm) saves() int64 {
	f.t.Helper()
	rec, err := f.tc.db.FormRecord(context.Background(), "acme", "contact")
	if err != nil {
		f.t.Fatal(err)
	}
	if rec.Draft {
		return rec.LastVersion
	}
	return rec.LastVersion + 1
}

// act posts a builder action on the newest version and wants it saved.
func (f *builderForm) act(path string, form url.Values) hubclient.Schema {
	f.t.Helper()
	n, _, _ := f.last()
	to := strconv.FormatInt(f.saves(), 10)
	form = maps.Clone(form)
	form.Set("base", strconv.FormatInt(n, 10))
	res := f.post("/forms/acme/contact"+path, form)
	// Each action shows its own page again: the settings the Settings
	// tab, the others their view of the Build tab.
	want := "/console/forms/acme/contact?saved=" + to
	switch {
	case strings.HasPrefix(path, "/settings"):
		want = "/console/forms/acme/contact/settings?saved=" + to
	case strings.HasPrefix(path, "/design"):
		want = "/console/forms/acme/contact/design?saved=" + to
	case strings.HasPrefix(path, "/translations"):
		want = "/console/forms/acme/contact?view=translations&saved=" + to
	}
	if loc := res.header.Get("Location"); res.status != http.StatusSeeOther || (loc != want && !strings.HasPrefix(loc, want+"&moved=") && !strings.HasPrefix(loc, want+"&retyped=") && !strings.HasPrefix(loc, want+"&editing=")) {
		f.t.Fatalf("%s: %d to %q, want 303 to %q: %s", path, res.status, loc, want, html.UnescapeString(res.body))
	}
	_, s, members := f.last()
	if string(members["x-note"]) != `"keep me"` {
		f.t.Errorf("%s lost a member the builder does not show: %s", path, members["x-note"])
	}
	return s
}

// refused posts a builder action that must not save, and returns the page.
func (f *builderForm) refused(path string, form url.Values, status int) string {
	f.t.Helper()
	n, _, _ := f.last()
	if !form.Has("base") {
		form.Set("base", strconv.FormatInt(n, 10))
	}
	res := f.post("/forms/acme/contact"+path, form)
	if res.status != status {
		f.t.Errorf("%s: %d, want %d: %s", path, res.status, status, res.body)
	}
	if m, _, _ := f.last(); m != n {
		f.t.Errorf("%s saved: the form's revision is %d, was %d", path, m, n)
	}
	return html.UnescapeString(res.body)
}

func names(s hubclient.Schema) []string {
	var out []string
	for _, f := range s.Fields {
		out = append(out, f.Name)
	}
	return out
}

func stepFields(s hubclient.Schema) map[string][]string {
	out := map[string][]string{}
	for _, st := range s.Steps {
		out[st.ID+"/"+st.Title] = st.Fields
	}
	return out
}

func TestBuilderClosed(t *testing.T) {
	tc := newConsole(t, withStore)
	anon := tc.browser()
	f := newBuilderForm(t)
	paths := []string{"/fields", "/fields/0", "/fields/0/move", "/fields/0/remove", "/settings", "/translations", "/translations/de",
		"/fields/0/text", "/fields/0/break", "/steps/0/title", "/steps/1/join"}
	for _, p := range paths {
		if res := anon.do(http.MethodPost, "/console/forms/acme/contact"+p, url.Values{"name": {"x"}, "type": {"text"}}, nil); res.status != http.StatusUnauthorized {
			t.Errorf("POST %s without a session: %d, want 401", p, res.status)
		}
		// Signed in, without the CSRF token.
		if res := f.b.do(http.MethodPost, "/console/forms/acme/contact"+p, url.Values{"name": {"x"}, "type": {"text"}, "base": {"2"}, "locale": {"fr"}}, nil); res.status != http.StatusForbidden {
			t.Errorf("POST %s without a CSRF token: %d, want 403", p, res.status)
		}
	}
	if n, _, _ := f.last(); n != 2 {
		t.Errorf("refused posts saved: the form's revision is %d, want 2", n)
	}
}

func TestBuilderFields(t *testing.T) {
	f := newBuilderForm(t)
	page := f.b.get("/console/forms/acme/contact").body
	for _, want := range []string{`action="/console/forms/acme/contact/fields/1"`, `hx-post="/console/forms/acme/contact/fields/1/move"`, `name="base" value="2"`, "Add the field"} {
		if !strings.Contains(page, want) {
			t.Errorf("form page lacks %s", want)
		}
	}

	// A new field, in a new step.
	s := f.act("/fields", url.Values{"type": {"select"}, "name": {"topic"}, "label": {"Topic"}, "step": {"new"}, "stepTitle": {"About"}})
	if got := names(s); !reflect.DeepEqual(got, []string{"name", "email", "topic"}) {
		t.Errorf("fields after adding: %q", got)
	}
	if got := stepFields(s)["step-3/About"]; !reflect.DeepEqual(got, []string{"topic"}) {
		t.Errorf("steps after adding: %v", stepFields(s))
	}

	// Edited, and moved to the step "who", which leaves step-3 empty.
	s = f.act("/fields/2", url.Values{"name": {"topic"}, "label": {"Subject"}, "placeholder": {"Pick one"}, "help": {"What it is about"},
		"required": {"on"}, "options": {"a|Alpha\r\n\r\nb\n"}, "step": {"who"}})
	want := hubclient.Field{Name: "topic", Type: "select", Label: "Subject", Placeholder: "Pick one", Help: "What it is about", Required: true,
		Options: []hubclient.Option{{Value: "a", Label: "Alpha"}, {Value: "b", Label: "b"}}}
	if got := s.Fields[2]; !reflect.DeepEqual(got, want) {
		t.Errorf("edited field:\n got %+v\nwant %+v", got, want)
	}
	if got := stepFields(s); !reflect.DeepEqual(got, map[string][]string{"who/": {"name", "topic"}, "how/": {"email"}}) {
		t.Errorf("steps after moving topic to who: %v", got)
	}

	// A new name follows into the steps and the translations.
	s = f.act("/fields/0", url.Values{"name": {"fullname"}, "label": {"Your name"}})
	if s.Steps[0].Fields[0] != "fullname" || s.I18n.Translations["de"].Fields["fullname"].Label != "Ihr Name" || s.Fields[0].Required {
		t.Errorf("after renaming: %+v %+v", s.Steps, s.I18n.Translations)
	}

	// Moving up swaps the fields, and their order in their step.
	s = f.act("/fields/2/move", url.Values{"to": {"up"}})
	s = f.act("/fields/1/move", url.Values{"to": {"up"}})
	if got := names(s); !reflect.DeepEqual(got, []string{"topic", "fullname", "email"}) {
		t.Errorf("fields after moving topic up twice: %q", got)
	}
	if got := s.Steps[0].Fields; !reflect.DeepEqual(got, []string{"topic", "fullname"}) {
		t.Errorf("step who after moving topic up: %q", got)
	}
	s = f.act("/fields/0/move", url.Values{"to": {"down"}})
	if got := names(s); !reflect.DeepEqual(got, []string{"fullname", "topic", "email"}) {
		t.Errorf("fields after moving topic down: %q", got)
	}
	f.refused("/fields/0/move", url.Values{"to": {"up"}}, http.StatusUnprocessableEntity)

	// Removed, with its step left empty.
	s = f.act("/fields/2/remove", url.Values{"confirmed": {"1"}})
	if got := names(s); !reflect.DeepEqual(got, []string{"fullname", "topic"}) || len(s.Steps) != 1 {
		t.Errorf("after removing email: %q, %+v", got, s.Steps)
	}

	// Several files, only for a file field.
	f.act("/fields", url.Values{"type": {"file"}, "name": {"cv"}})
	s = f.act("/fields/2", url.Values{"name": {"cv"}, "multiple": {"on"}})
	if !s.Fields[2].Multiple || stepOf(s, "cv") != "who" {
		t.Errorf("file field: %+v in %v", s.Fields[2], stepFields(s))
	}
	if s = f.act("/fields/2", url.Values{"name": {"cv"}}); s.Fields[2].Multiple {
		t.Errorf("the box unticked, the file field still takes several files")
	}
	if s = f.act("/fields/0", url.Values{"name": {"fullname"}, "multiple": {"on"}}); s.Fields[0].Multiple {
		t.Errorf("a text field takes several files: %+v", s.Fields[0])
	}

	// A hidden field stays out of the steps, whatever is posted.
	s = f.act("/fields", url.Values{"type": {"hidden"}, "name": {"ref"}, "step": {"who"}})
	if stepOf(s, "ref") != "" || names(s)[3] != "ref" {
		t.Errorf("hidden field: %q in %v", names(s), stepFields(s))
	}
}

func stepOf(s hubclient.Schema, name string) string {
	for _, st := range s.Steps {
		for _, n := range st.Fields {
			if n == name {
				return st.ID
			}
		}
	}
	return ""
}

func TestBuilderRefusals(t *testing.T) {
	f := newBuilderForm(t)
	// An invalid name: the problem at its path, the input as typed.
	body := f.refused("/fields/0", url.Values{"name": {"full name"}, "label": {"Typed label"}}, http.StatusUnprocessableEntity)
	if !strings.Contains(body, "<code>fields[0].name</code>") || !strings.Contains(body, `value="full name"`) || !strings.Contains(body, `value="Typed label"`) {
		t.Errorf("invalid field name: %s", body)
	}
	// htmx swaps only successful answers: it gets the page with 200.
	n, _, _ := f.last()
	res := f.b.do(http.MethodPost, "/console/forms/acme/contact/fields/0", url.Values{"name": {"full name"}, "base": {strconv.FormatInt(n, 10)}, "_csrf": {f.token}}, map[string]string{"HX-Request": "true"})
	if res.status != http.StatusOK || !strings.Contains(res.body, `id="workspace"`) || !strings.Contains(res.body, "fields[0].name") {
		t.Errorf("invalid edit over htmx: %d %s", res.status, res.body)
	}
	// A page of an older version does not act on a newer one.
	body = f.refused("/fields/0/remove", url.Values{"base": {"1"}}, http.StatusConflict)
	if !strings.Contains(body, "saved again since") {
		t.Errorf("stale edit: %s", body)
	}
	f.refused("/fields/7", url.Values{"name": {"x"}}, http.StatusUnprocessableEntity)
	if body := f.refused("/fields", url.Values{"type": {"email"}, "name": {"name"}}, http.StatusUnprocessableEntity); !strings.Contains(body, `a field is called "name" already`) {
		t.Errorf("adding a field twice: %s", body)
	}
	if body := f.refused("/fields", url.Values{"type": {"nope"}, "name": {"x"}}, http.StatusUnprocessableEntity); !strings.Contains(body, "choose a field type") {
		t.Errorf("adding a field of no type: %s", body)
	}
}

func TestBuilderSettings(t *testing.T) {
	f := newBuilderForm(t)
	settings := url.Values{"title": {"Write to us"}, "step.who": {"You"}, "submit": {"Send"}, "next": {"On"}, "back": {"Back"},
		"captchaProvider": {"turnstile"}, "captchaSiteKey": {"0xSITE"}, "captchaSecret": {"0xSECRET"}, "maxFileSize": {"1048576"},
		"allowedTypes": {"image/*\r\napplication/pdf\r\n"}, "allowedOrigins": {"https://example.com"}}
	s := f.act("/settings", settings)
	if s.Title != "Write to us" || s.Steps[0].Title != "You" || s.Steps[1].Title != "" ||
		!reflect.DeepEqual(s.Buttons, hubclient.Buttons{Submit: "Send", Next: "On", Back: "Back"}) ||
		s.Meta.CaptchaProvider != "turnstile" || s.Meta.CaptchaSiteKey != "0xSITE" {
		t.Errorf("settings: %+v", s)
	}
	var h map[string]any
	_ = json.Unmarshal(s.Extra["hub"], &h)
	wantHub := map[string]any{"retentionDays": 30.0, "captchaSecret": "0xSECRET", "maxFileSize": 1048576.0,
		"allowedTypes": []any{"image/*", "application/pdf"}, "allowedOrigins": []any{"https://example.com"}}
	if !reflect.DeepEqual(h, wantHub) {
		t.Errorf("hub settings:\n got %v\nwant %v", h, wantHub)
	}

	// A number that is not one, kept as typed.
	settings.Set("maxFileSize", "lots")
	if body := f.refused("/settings", settings, http.StatusUnprocessableEntity); !strings.Contains(body, "<code>hub.maxFileSize</code>") || !strings.Contains(body, `value="lots"`) {
		t.Errorf("bad file size: %s", body)
	}
	// A provider without its key fails formsource.Parse.
	settings.Set("maxFileSize", "")
	settings.Set("captchaSiteKey", "")
	if body := f.refused("/settings", settings, http.StatusUnprocessableEntity); !strings.Contains(body, "<code>meta.captchaSiteKey</code>") {
		t.Errorf("captcha without a site key: %s", body)
	}
	// Emptied, the settings leave the file.
	s = f.act("/settings", url.Values{"title": {"Contact"}})
	h = nil
	_ = json.Unmarshal(s.Extra["hub"], &h)
	if s.Meta.CaptchaProvider != "" || !reflect.DeepEqual(h, map[string]any{"retentionDays": 30.0}) || s.Buttons.Submit != "" {
		t.Errorf("emptied settings: %+v hub %s", s.Meta, s.Extra["hub"])
	}
}

func TestBuilderTranslations(t *testing.T) {
	f := newBuilderForm(t)
	page := html.UnescapeString(f.b.get("/console/forms/acme/contact?view=translations").body)
	if !strings.Contains(page, `<table data-locale="de">`) || !strings.Contains(page, `name="fields["name"].label"`) {
		t.Errorf("translation table: %s", page)
	}
	s := f.act("/translations/de", url.Values{`title`: {"Kontakt"}, `fields["email"].label`: {"Ihre E-Mail"}, `fields["name"].label`: {" "}})
	want := hubclient.Translation{Title: "Kontakt", Fields: map[string]hubclient.FieldTranslation{"email": {Label: "Ihre E-Mail"}}}
	if got := s.I18n.Translations["de"]; !reflect.DeepEqual(got, want) {
		t.Errorf("de:\n got %+v\nwant %+v", got, want)
	}
	page = f.b.get("/console/forms/acme/contact").body
	if !strings.Contains(html.UnescapeString(page), `1 of 3 texts untranslated:`) {
		t.Errorf("untranslated after saving de: %s", page)
	}

	s = f.act("/translations", url.Values{"locale": {"pt-BR"}})
	if _, ok := s.I18n.Translations["pt-BR"]; !ok {
		t.Errorf("locales after adding pt-BR: %v", s.I18n.Translations)
	}
	if body := f.refused("/translations", url.Values{"locale": {"not a tag"}}, http.StatusUnprocessableEntity); !strings.Contains(body, `value="not a tag"`) {
		t.Errorf("bad locale: %s", body)
	}
	f.refused("/translations", url.Values{"locale": {"de"}}, http.StatusUnprocessableEntity)
	f.refused("/translations/fr", url.Values{"title": {"Contact"}}, http.StatusUnprocessableEntity)
}

func TestBuilderPrefill(t *testing.T) {
	f := newBuilderForm(t)
	f.act("/fields", url.Values{"type": {"hidden"}, "name": {"ref"}})
	f.act("/fields", url.Values{"type": {"file"}, "name": {"cv"}, "step": {"how"}})
	page := html.UnescapeString(f.b.get("/console/forms/acme/contact").body)
	for _, want := range []string{
		`<input id="f1-prefill" name="prefill" type="checkbox" value="on"> Take its value from the page's address (?email=…)`,
		"A hidden field always takes its value from the page's address (?ref=…).",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the field editors lack %s", want)
		}
	}
	for _, id := range []string{"f2-prefill", "f3-prefill"} {
		if strings.Contains(page, `id="`+id+`"`) {
			t.Errorf("the hidden or file field offers %s", id)
		}
	}

	s := f.act("/fields/1", url.Values{"name": {"email"}, "label": {"Your e-mail"}, "required": {"on"}, "prefill": {"on"}})
	if !s.Fields[1].Prefill || !s.Fields[1].Required {
		t.Errorf("email with prefill: %+v", s.Fields[1])
	}
	_, _, members := f.last()
	if !strings.Contains(string(members["fields"]), `"prefill": true`) {
		t.Errorf("the file's fields: %s", members["fields"])
	}
	if page := f.b.get("/console/forms/acme/contact").body; !strings.Contains(page, `name="prefill" type="checkbox" value="on" checked`) {
		t.Errorf("prefill is not shown checked")
	}
	// A refused edit shows the checkbox as posted.
	if body := f.refused("/fields/0", url.Values{"name": {"full name"}, "prefill": {"on"}}, http.StatusUnprocessableEntity); !strings.Contains(body, `id="f0-prefill" name="prefill" type="checkbox" value="on" checked`) {
		t.Errorf("a refused edit lost the checkbox: %s", body)
	}
	s = f.act("/fields/1", url.Values{"name": {"email"}, "label": {"Your e-mail"}})
	if s.Fields[1].Prefill {
		t.Errorf("email unchecked: %+v", s.Fields[1])
	}
	// Hidden and file fields never carry the flag, whatever is posted.
	s = f.act("/fields/2", url.Values{"name": {"ref"}, "prefill": {"on"}})
	s = f.act("/fields/3", url.Values{"name": {"cv"}, "prefill": {"on"}})
	if s.Fields[2].Prefill || s.Fields[3].Prefill {
		t.Errorf("hidden or file field with prefill: %+v %+v", s.Fields[2], s.Fields[3])
	}
}

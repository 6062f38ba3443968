package console_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/hubclient"
)

func TestBuilderAddAt(t *testing.T) {
	f := newBuilderForm(t)
	// Between name (step who) and email (step how): after name, in its step.
	s := f.act("/fields", url.Values{"type": {"text"}, "label": {"Your city?"}, "at": {"1"}})
	if got := names(s); !reflect.DeepEqual(got, []string{"name", "your_city", "email"}) {
		t.Errorf("fields after adding at 1: %q", got)
	}
	if got := stepFields(s); !reflect.DeepEqual(got, map[string][]string{"who/": {"name", "your_city"}, "how/": {"email"}}) {
		t.Errorf("steps after adding at 1: %v", got)
	}
	// First: in the step of the field after it, before it.
	s = f.act("/fields", url.Values{"type": {"email"}, "at": {"0"}})
	if got := names(s); !reflect.DeepEqual(got, []string{"email_2", "name", "your_city", "email"}) || s.Fields[0].Label != "Email" {
		t.Errorf("a field with no label nor name at 0: %q, %+v", got, s.Fields[0])
	}
	if got := s.Steps[0].Fields; !reflect.DeepEqual(got, []string{"email_2", "name", "your_city"}) {
		t.Errorf("step who after adding at 0: %q", got)
	}
	// A label made of what names cannot hold, twice: unique names.
	s = f.act("/fields", url.Values{"type": {"radio"}, "label": {"Été 2024 — où?"}, "at": {"4"}})
	s = f.act("/fields", url.Values{"type": {"radio"}, "label": {"Été 2024 — où?"}})
	if got := names(s)[4:]; !reflect.DeepEqual(got, []string{"ete_2024_ou", "ete_2024_ou_2"}) {
		t.Errorf("names made from a label: %q", got)
	}
	if got := s.Fields[4].Options; len(got) != 1 || got[0].Label != "Option 1" {
		t.Errorf("a new choice's options: %+v", got)
	}
	if got := stepFields(s)["how/"]; !reflect.DeepEqual(got, []string{"email", "ete_2024_ou", "ete_2024_ou_2"}) {
		t.Errorf("step how: %q", got)
	}
	for _, at := range []string{"9", "-1", "x"} {
		if body := f.refused("/fields", url.Values{"type": {"text"}, "label": {"x"}, "at": {at}}, http.StatusUnprocessableEntity); !strings.Contains(body, "there is no position") {
			t.Errorf("at %s: %s", at, body)
		}
	}
	for _, label := range []string{"123", "_hp trap", ""} {
		s = f.act("/fields", url.Values{"type": {"text"}, "label": {label}})
		if n := s.Fields[len(s.Fields)-1].Name; strings.HasPrefix(n, "_") || n[0] >= '0' && n[0] <= '9' {
			t.Errorf("label %q made the name %q", label, n)
		}
	}
}

func TestBuilderEditText(t *testing.T) {
	f := newBuilderForm(t)
	f.act("/fields", url.Values{"type": {"radio"}, "label": {"Size"}})
	// A made name follows its label, in steps and translations too.
	s := f.act("/fields/2/text", url.Values{"part": {"label"}, "value": {" T-shirt size "}})
	if got := s.Fields[2]; got.Name != "t_shirt_size" || got.Label != "T-shirt size" || stepOf(s, "t_shirt_size") != "how" {
		t.Errorf("after editing the label: %+v in %v", got, stepFields(s))
	}
	// A chosen one does not.
	s = f.act("/fields/0/text", url.Values{"part": {"label"}, "value": {"Full name"}})
	if s.Fields[0].Name != "name" || s.Fields[0].Label != "Full name" || s.I18n.Translations["de"].Fields["name"].Label != "Ihr Name" {
		t.Errorf("a chosen name moved: %+v", s.Fields[0])
	}
	s = f.act("/fields/0/text", url.Values{"part": {"help"}, "value": {"As on your card"}})
	s = f.act("/fields/0/text", url.Values{"part": {"placeholder"}, "value": {"Jane Doe"}})
	if got := s.Fields[0]; got.Help != "As on your card" || got.Placeholder != "Jane Doe" || got.Label != "Full name" {
		t.Errorf("help and placeholder: %+v", got)
	}
	if s = f.act("/fields/0/text", url.Values{"part": {"required"}, "value": {"on"}}); !s.Fields[0].Required || s.Fields[0].Help == "" {
		t.Errorf("required: %+v", s.Fields[0])
	}
	if s = f.act("/fields/0/text", url.Values{"part": {"required"}, "value": {""}}); s.Fields[0].Required {
		t.Errorf("not required: %+v", s.Fields[0])
	}
	// Options: renamed (the made value follows), added, removed.
	s = f.act("/fields/2/text", url.Values{"part": {"option"}, "option": {"0"}, "value": {"Small"}})
	s = f.act("/fields/2/text", url.Values{"part": {"option"}, "option": {"1"}, "value": {"Large"}})
	s = f.act("/fields/2/text", url.Values{"part": {"option"}, "option": {"2"}, "value": {"Large"}})
	want := []hubclient.Option{{Value: "Small", Label: "Small"}, {Value: "Large", Label: "Large"}, {Value: "Large (2)", Label: "Large"}}
	if got := s.Fields[2].Options; !reflect.DeepEqual(got, want) {
		t.Errorf("options:\n got %+v\nwant %+v", got, want)
	}
	s = f.act("/fields/2/text", url.Values{"part": {"option"}, "option": {"2"}, "value": {""}})
	if got := len(s.Fields[2].Options); got != 2 {
		t.Errorf("after removing an option: %d", got)
	}
	f.refused("/fields/2/text", url.Values{"part": {"option"}, "option": {"5"}, "value": {"x"}}, http.StatusUnprocessableEntity)
	f.refused("/fields/2/text", url.Values{"part": {"name"}, "value": {"x"}}, http.StatusBadRequest)
	f.refused("/fields/9/text", url.Values{"part": {"label"}, "value": {"x"}}, http.StatusUnprocessableEntity)

	// Once live, names and values stay: submissions are stored under them.
	rev, _, _ := f.last()
	if res := f.post("/forms/acme/contact/publish", url.Values{"base": {strconv.FormatInt(rev, 10)}}); res.status != http.StatusSeeOther {
		t.Fatalf("publish: %d", res.status)
	}
	s = f.act("/fields/2/text", url.Values{"part": {"label"}, "value": {"Shirt"}})
	s = f.act("/fields/2/text", url.Values{"part": {"option"}, "option": {"0"}, "value": {"S"}})
	if got := s.Fields[2]; got.Name != "t_shirt_size" || got.Label != "Shirt" || !reflect.DeepEqual(got.Options[0], hubclient.Option{Value: "Small", Label: "S"}) {
		t.Errorf("a live field's name or value moved: %+v", got)
	}
}

func TestBuilderSteps(t *testing.T) {
	f := newBuilderForm(t)
	f.act("/fields", url.Values{"type": {"text"}, "name": {"city"}, "at": {"1"}})
	f.act("/fields", url.Values{"type": {"text"}, "name": {"zip"}, "at": {"2"}})
	// who: name, city, zip; how: email. A break after name.
	s := f.act("/fields/0/break", url.Values{"stepTitle": {"Where"}})
	if got := stepsOf(s); got != "who:name|step-3 Where:city,zip|how:email" {
		t.Errorf("after a break after name: %s", got)
	}
	f.refused("/fields/0/break", url.Values{}, http.StatusUnprocessableEntity)
	s = f.act("/steps/1/title", url.Values{"title": {"Your address"}})
	if got := stepsOf(s); got != "who:name|step-3 Your address:city,zip|how:email" {
		t.Errorf("after the title: %s", got)
	}
	// Up from the first field of a page crosses the break to end the page
	// before; down from the last starts the page after. The list keeps
	// its order.
	s = f.act("/fields/2/move", url.Values{"to": {"up"}})
	if got := stepsOf(s); got != "who:name|step-3 Your address:zip,city|how:email" {
		t.Errorf("zip up within its page: %s", got)
	}
	s = f.act("/fields/1/move", url.Values{"to": {"up"}})
	if got := stepsOf(s); got != "who:name,zip|step-3 Your address:city|how:email" {
		t.Errorf("zip up across the break: %s", got)
	}
	if got := names(s); !reflect.DeepEqual(got, []string{"name", "zip", "city", "email"}) {
		t.Errorf("zip up: %q", got)
	}
	s = f.act("/fields/2/move", url.Values{"to": {"down"}})
	if got := stepsOf(s); got != "who:name,zip|how:city,email" {
		t.Errorf("city down across the break, its page left empty: %s", got)
	}
	// A drop names the page it lands in.
	s = f.act("/fields/0/move", url.Values{"to": {"2"}, "step": {"how"}})
	if got := stepsOf(s); got != "who:zip|how:city,name,email" {
		t.Errorf("name dropped in how: %s", got)
	}
	// Joined: how's fields go to who.
	s = f.act("/steps/1/join", url.Values{})
	if len(s.Steps) != 1 || s.Steps[0].ID != "who" || len(s.Steps[0].Fields) != 4 {
		t.Errorf("after joining: %s", stepsOf(s))
	}
	f.refused("/steps/0/join", url.Values{}, http.StatusUnprocessableEntity)
	f.refused("/steps/3/title", url.Values{"title": {"x"}}, http.StatusUnprocessableEntity)
}

// stepsOf writes the steps as id title:fields|...
func stepsOf(s hubclient.Schema) string {
	var out []string
	for _, st := range s.Steps {
		out = append(out, strings.TrimSpace(st.ID+" "+st.Title)+":"+strings.Join(st.Fields, ","))
	}
	return strings.Join(out, "|")
}

// TestBuilderInPlaceAccess: the in-place editor's actions answer a
// member of another workspace 404, as a missing form, and a viewer 403,
// and change nothing.
func TestBuilderInPlaceAccess(t *testing.T) {
	ctx := context.Background()
	f := newBuilderForm(t)
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, email := range []string{"vic@example.com", "olga@example.com"} {
		if err := f.tc.db.CreateUser(ctx, accounts.User{Email: email, PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.tc.db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: "vic@example.com", Role: accounts.Viewer, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := f.tc.db.CreateWorkspace(ctx, "rival", "olga@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	olga, vic := f.tc.browser(), f.tc.browser()
	olga.signIn("olga@example.com", janePassword)
	vic.signIn("vic@example.com", janePassword)
	olgaToken, vicToken := olga.csrf(console.Path), vic.csrf(console.Path)
	actions := map[string]url.Values{
		"/fields/0/text":  {"part": {"label"}, "value": {"X"}},
		"/fields/0/break": {},
		"/steps/0/title":  {"title": {"X"}},
		"/steps/1/join":   {},
	}
	for path, form := range actions {
		post := func(b *browser, token string) int {
			v := url.Values{"_csrf": {token}, "base": {"2"}}
			for k, x := range form {
				v[k] = x
			}
			return b.do(http.MethodPost, console.Path+"/forms/acme/contact"+path, v, nil).status
		}
		if got := post(olga, olgaToken); got != http.StatusNotFound {
			t.Errorf("%s as another workspace's admin: %d, want 404", path, got)
		}
		if got := post(vic, vicToken); got != http.StatusForbidden {
			t.Errorf("%s as a viewer: %d, want 403", path, got)
		}
	}
	if n, _, _ := f.last(); n != 2 {
		t.Errorf("refused posts saved version %d", n)
	}
}

// TestBuilderPageWithoutScript: the page the builder shows without
// JavaScript offers what the in-place editor does: types in plain words,
// a place for the new field, the name under Advanced, page breaks to add
// and remove.
func TestBuilderPageWithoutScript(t *testing.T) {
	f := newBuilderForm(t)
	f.act("/fields", url.Values{"type": {"text"}, "name": {"city"}, "at": {"1"}})
	page := html.UnescapeString(f.b.get("/console/forms/acme/contact").body)
	for _, want := range []string{
		`<option value="text">Short answer: One line of text</option>`,
		`<option value="checkbox">Yes/No: One box to tick, such as consent</option>`,
		`<select id="new-at" name="at"><option value="">At the end</option> <option value="0">First</option> <option value="1">After Your name</option>`,
		`<details class="builder-advanced"><summary>Advanced</summary><div class="hubform-field"><label for="f0-name">Name</label>`,
		`action="/console/forms/acme/contact/fields/0/break"`,
		`action="/console/forms/acme/contact/steps/1/join"`,
		`<option value="who" selected>Page 1</option>`,
		`data-builder-url="/console/forms/acme/contact" data-base="3"`,
		`<li id="builder-kind-email" data-type="email">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the Build tab lacks %s", want)
		}
	}
	// The last field of a page offers no break after it: one is there.
	if strings.Contains(page, `action="/console/forms/acme/contact/fields/1/break"`) {
		t.Error("city, last of its page, offers a page break after it")
	}
	// A refused name opens Advanced, with the name as typed.
	body := f.refused("/fields/0", url.Values{"name": {"full name"}, "label": {"Your name"}}, http.StatusUnprocessableEntity)
	if !strings.Contains(body, `<details class="builder-advanced" open><summary>Advanced</summary><div class="hubform-field"><label for="f0-name">Name</label> <input id="f0-name" name="name" type="text" value="full name">`) {
		t.Errorf("a refused name is not shown open under Advanced: %s", body)
	}
}

// TestBuilderInPlaceAnswer: a post of the in-place editor gets the page
// itself rather than a redirect to it, saying what was saved.
func TestBuilderInPlaceAnswer(t *testing.T) {
	f := newBuilderForm(t)
	res := f.b.do(http.MethodPost, console.Path+"/forms/acme/contact/fields/2/move", url.Values{"_csrf": {f.token}, "base": {"2"}, "to": {"up"}}, map[string]string{"X-Hubform-In-Place": "1"})
	if res.status != http.StatusBadRequest && res.status != http.StatusUnprocessableEntity {
		t.Errorf("a move of no field: %d", res.status)
	}
	res = f.b.do(http.MethodPost, console.Path+"/forms/acme/contact/fields/1/move", url.Values{"_csrf": {f.token}, "base": {"2"}, "to": {"up"}}, map[string]string{"X-Hubform-In-Place": "1"})
	body := html.UnescapeString(res.body)
	if res.status != http.StatusOK || !strings.Contains(body, "Moved email to position 2 of 2. Saved to the draft.") || !strings.Contains(body, `data-base="3"`) {
		t.Errorf("the in-place answer: %d %s", res.status, body)
	}
}

package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// TestBuilderEndings: the builder adds, edits, orders and removes a form's
// endings, their conditions in the rows of the fields' condition editor,
// and refuses in plain words an ending with nothing to show or a page
// that is not a web address.
func TestBuilderEndings(t *testing.T) {
	f := newBuilderForm(t)
	s := f.act("/endings", url.Values{"title": {"Sales will call"}, "text": {"Within **a day**."}})
	if len(s.Endings) != 1 || s.Endings[0].ID != "sales_will_call" || s.Endings[0].Text != "Within **a day**." || len(s.Endings[0].If) != 0 {
		t.Fatalf("added: %+v", s.Endings)
	}
	s = f.act("/endings", url.Values{"title": {"Sales will call"}, "redirectUrl": {"https://example.com/partners"}})
	if len(s.Endings) != 2 || s.Endings[1].ID != "sales_will_call_2" || s.Endings[1].RedirectURL != "https://example.com/partners" {
		t.Fatalf("a second of the same title: %+v", s.Endings)
	}
	if body := f.refused("/endings", url.Values{"title": {" "}}, http.StatusUnprocessableEntity); !strings.Contains(body, "an ending needs a title, or a page to send visitors to") {
		t.Errorf("an empty ending: %s", body)
	}
	if body := f.refused("/endings/0", url.Values{"title": {"X"}, "redirectUrl": {"javascript:alert(1)"}}, http.StatusUnprocessableEntity); !strings.Contains(body, "a full address starting with https:// or http://") {
		t.Errorf("a script for a page: %s", body)
	}

	// A row added shows the panel again and saves nothing; the rows
	// posted are the ending's condition.
	cond := url.Values{"title": {"Sales will call"}, "text": {"Soon."}, "if": {"rows"}, "if.join": {"all"},
		"if.0.field": {"email"}, "if.0.op": {"contains"}, "if.0.value": {"@acme.example"}}
	add := url.Values{"conditionRows": {"add if"}}
	for k, v := range cond {
		add[k] = v
	}
	if body := f.refused("/endings/0", add, http.StatusOK); !strings.Contains(body, `name="if.1.field"`) || !strings.Contains(body, "Show this ending when") {
		t.Errorf("a row added: no second row shown")
	}
	s = f.act("/endings/0", cond)
	if got := compact(t, s.Endings[0].If); got != `{"in":["@acme.example",{"var":"email"}]}` || s.Endings[0].Text != "Soon." {
		t.Errorf("condition saved as %s, text %q", got, s.Endings[0].Text)
	}
	page := f.b.get("/console/forms/acme/contact").body
	for _, want := range []string{"Shown when", "Default ending — shown when no other applies", `data-ending="sales_will_call"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the Build tab lacks %q", want)
		}
	}
	bad := url.Values{"title": {"X"}, "if": {"rows"}, "if.0.field": {"nope"}, "if.0.op": {"is"}, "if.0.value": {"a"}}
	if body := f.refused("/endings/0", bad, http.StatusUnprocessableEntity); !strings.Contains(body, `there is no field "nope" to compare`) {
		t.Errorf("a row of no field: %s", body)
	}
	// Without JavaScript, a row whose field changed comes back to choose
	// its comparison and value.
	changed := url.Values{"title": {"X"}, "if": {"rows"}, "if.0.shown": {"email"}, "if.0.field": {"name"}, "if.0.op": {"contains"}, "if.0.value": {"a"}}
	if body := f.refused("/endings/0", changed, http.StatusUnprocessableEntity); !strings.Contains(body, "condition 1: the field changed") {
		t.Errorf("a row whose field changed: %s", body)
	}
	// A field an ending reads is not removed, nor renamed behind its back.
	if body := f.refused("/fields/1/remove", url.Values{"confirmed": {"1"}}, http.StatusUnprocessableEntity); !strings.Contains(body, `the ending "Sales will call" is shown depending on "email"`) {
		t.Errorf("removing a field an ending reads: %s", body)
	}
	s = f.act("/fields/1", url.Values{"name": {"mail"}, "label": {"Your e-mail"}, "required": {"on"}, "step": {"how"}})
	if got := compact(t, s.Endings[0].If); got != `{"in":["@acme.example",{"var":"mail"}]}` {
		t.Errorf("after a rename: %s", got)
	}

	s = f.act("/endings/1/move", url.Values{"to": {"up"}})
	if s.Endings[0].ID != "sales_will_call_2" || s.Endings[1].ID != "sales_will_call" {
		t.Errorf("moved up: %+v", s.Endings)
	}
	f.refused("/endings/0/move", url.Values{"to": {"up"}}, http.StatusUnprocessableEntity)
	// Without confirmation, a page asks first.
	rev, _, _ := f.last()
	if res := f.post("/forms/acme/contact/endings/0/remove", url.Values{"base": {strconv.FormatInt(rev, 10)}}); res.status != http.StatusOK || !strings.Contains(res.body, "Remove the ending") {
		t.Errorf("remove unconfirmed: %d, no question asked", res.status)
	}
	s = f.act("/endings/0/remove", url.Values{"confirmed": {"1"}})
	if len(s.Endings) != 1 || s.Endings[0].ID != "sales_will_call" {
		t.Errorf("removed: %+v", s.Endings)
	}
	f.refused("/endings/4", url.Values{"title": {"x"}}, http.StatusUnprocessableEntity)
}

// TestBuilderEndingsAccess: the endings' actions answer a member of
// another workspace 404, as a missing form, and a viewer 403, and change
// nothing.
func TestBuilderEndingsAccess(t *testing.T) {
	f := newBuilderForm(t)
	f.act("/endings", url.Values{"title": {"Bye"}})
	f.refusedToOutsiders(map[string]url.Values{
		"/endings":          {"title": {"X"}},
		"/endings/0":        {"title": {"X"}},
		"/endings/0/move":   {"to": {"down"}},
		"/endings/0/remove": {"confirmed": {"1"}},
	})
}

// refusedToOutsiders posts each action, by path under the form, as
// another workspace's admin and as a viewer of the form's: the first is
// answered 404, the second 403, and the form is not saved.
func (f *builderForm) refusedToOutsiders(actions map[string]url.Values) {
	t := f.t
	t.Helper()
	ctx := context.Background()
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
	rev, _, _ := f.last()
	for path, form := range actions {
		post := func(b *browser, token string) int {
			v := url.Values{"_csrf": {token}, "base": {strconv.FormatInt(rev, 10)}}
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
	if n, _, _ := f.last(); n != rev {
		t.Errorf("refused posts saved revision %d", n)
	}
}

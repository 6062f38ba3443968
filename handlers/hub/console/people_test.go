package console_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

const peoplePage = console.Path + "/people"

// pendingDeliveries holds deliveries not yet made, by submission id, as
// delivery.Queue does.
type pendingDeliveries struct{ ids []string }

func (p *pendingDeliveries) DeleteRequests(context.Context, string, string) (int, error) {
	return 0, nil
}

func (p *pendingDeliveries) DeletePending(_ context.Context, ids []string) (int, error) {
	n := 0
	p.ids = slices.DeleteFunc(p.ids, func(id string) bool {
		if slices.Contains(ids, id) {
			n++
			return true
		}
		return false
	})
	return n, nil
}

// peopleConsole is an inbox console with the page of a person's data, and
// a workspace "other" owning the site elsewhere; Anna sent acme/contact
// (with a file and a pending delivery), acme/other and elsewhere/contact,
// and Bob acme/contact. It returns the ids of Anna's submissions, her
// submission in the other workspace last, and Bob's.
func peopleConsole(t *testing.T) (tc *testConsole, files *memFiles, anna []string, bob string) {
	t.Helper()
	ctx := context.Background()
	files = &memFiles{files: map[string][]byte{}}
	pending := &pendingDeliveries{}
	tc = inboxConsole(t, files, func(cfg *console.Config) {
		db := cfg.Users.(*sqldb.DB)
		cfg.Privacy = manage.NewPrivacy(manageConfig(db, cfg), &privacy.People{Store: db, Files: files, Deliveries: pending, Logger: cfg.Logger})
	})
	if err := tc.db.CreateUser(ctx, accounts.User{Email: "olga@example.com", PasswordHash: "$argon2id$x", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateWorkspace(ctx, "other", "olga@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := tc.db.ClaimSite(ctx, "elsewhere", "other", time.Now()); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	anna = []string{
		tc.submit("contact", now, 2, `{"name":"Anna","message":" ANNA@Example.com"}`, "cv.html"),
		tc.submit("other", now.Add(time.Millisecond), 3, `{"name":"Anna","message":"anna@example.com"}`),
	}
	files.files["acme/contact/"+anna[0]+"-0"] = []byte("<b>x")
	pending.ids = []string{anna[0]}
	elsewhere := hub.Submission{ID: hub.NewID(now), Site: "elsewhere", Slug: "contact", CreatedAt: now,
		Payload: json.RawMessage(`{"email":"anna@example.com"}`), Attachments: []hubclient.Attachment{}}
	if err := tc.db.CreateSubmission(ctx, elsewhere); err != nil {
		t.Fatal(err)
	}
	anna = append(anna, elsewhere.ID)
	bob = tc.submit("contact", now.Add(2*time.Millisecond), 2, `{"name":"Bob","message":"bob@example.com, not annabel@example.com"}`)
	return tc, files, anna, bob
}

// exists reports whether the submission id is still in the database.
func (tc *testConsole) exists(id string) bool {
	tc.t.Helper()
	_, err := tc.db.Submission(context.Background(), id)
	return err == nil
}

// TestPersonErase has an admin erase Anna's submissions to two forms of
// the workspace, once confirmed, with their file and pending delivery,
// and neither Bob's nor those of another workspace; the audit log keeps
// the count and not the address.
func TestPersonErase(t *testing.T) {
	tc, files, anna, bob := peopleConsole(t)
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	if home := b.get(console.Path); !strings.Contains(home.body, `href="`+peoplePage+`"`) {
		t.Error("the navigation of an admin does not link to the page of a person's data")
	}
	page := b.get(peoplePage)
	if page.status != http.StatusOK || !strings.Contains(page.body, "Export as JSON") || !strings.Contains(page.body, `data-confirm=`) {
		t.Fatalf("the page of a person's data: %d %s", page.status, page.body)
	}
	token := b.csrf(peoplePage)
	erase := url.Values{"_csrf": {token}, "email": {" anna@example.com "}}

	// Unconfirmed, it asks, with a form that posts again confirmed.
	ask := b.do(http.MethodPost, peoplePage+"/erase", erase, nil)
	for _, want := range []string{"Erase the data of anna@example.com?", `<input type="hidden" name="email" value=" anna@example.com ">`, `name="confirmed" value="1"`} {
		if ask.status != http.StatusOK || !strings.Contains(ask.body, want) {
			t.Errorf("an unconfirmed erasure: %d, lacks %s", ask.status, want)
		}
	}
	if !tc.exists(anna[0]) {
		t.Fatal("an unconfirmed erasure erased")
	}

	erase.Set("confirmed", "1")
	res := b.do(http.MethodPost, peoplePage+"/erase", erase, nil)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != peoplePage {
		t.Fatalf("erase: %d to %q %s", res.status, res.header.Get("Location"), res.body)
	}
	if page := b.get(peoplePage); !strings.Contains(page.body, "Erased 2 submissions, 1 file, 1 pending delivery and 0 drafts.") {
		t.Errorf("the notice of an erasure: %s", page.body)
	}
	for id, kept := range map[string]bool{anna[0]: false, anna[1]: false, anna[2]: true, bob: true} {
		if tc.exists(id) != kept {
			t.Errorf("submission %s: kept %v, want %v", id, !kept, kept)
		}
	}
	if files.has("acme/contact/" + anna[0] + "-0") {
		t.Error("the file of an erased submission is left")
	}

	events, err := tc.db.Events(context.Background(), accounts.DefaultWorkspace, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(events, func(e accounts.Event) bool { return e.Action == accounts.ActionSubmissionsDeleted })
	if i < 0 || events[i].Target != "a***@example.com" || events[i].Actor != janeEmail ||
		events[i].Detail != "one person's data erased: 2 submissions, 1 files, 1 pending deliveries, 0 drafts" {
		t.Errorf("audit log %+v: want the erasure, its count and the masked address", events)
	}
	for _, e := range events {
		if strings.Contains(e.Target+e.Detail, "anna@") {
			t.Errorf("the audit log keeps the address: %+v", e)
		}
	}

	// Again, there is nothing left of hers in this workspace.
	res = b.do(http.MethodPost, peoplePage+"/erase", erase, nil)
	if page := b.get(peoplePage); res.status != http.StatusSeeOther || !strings.Contains(page.body, "No submission or draft of workspace default holds anna@example.com: nothing was erased.") {
		t.Errorf("erasing again: %d, %s", res.status, page.body)
	}
}

// TestPersonExport downloads Anna's submissions of the workspace as JSON,
// and records the export in the audit log without her address.
func TestPersonExport(t *testing.T) {
	tc, _, anna, _ := peopleConsole(t)
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	res := b.do(http.MethodPost, peoplePage+"/export", url.Values{"_csrf": {b.csrf(peoplePage)}, "email": {"anna@example.com"}}, nil)
	if res.status != http.StatusOK || res.header.Get("Content-Disposition") != `attachment; filename="person.json"` {
		t.Fatalf("export: %d %v %s", res.status, res.header, res.body)
	}
	var doc struct {
		Email, Workspace string
		Submissions      []privacy.Submission
	}
	if err := json.Unmarshal([]byte(res.body), &doc); err != nil {
		t.Fatalf("export: %v in %s", err, res.body)
	}
	var ids []string
	for _, s := range doc.Submissions {
		ids = append(ids, s.ID)
	}
	if doc.Email != "anna@example.com" || doc.Workspace != accounts.DefaultWorkspace || !slices.Equal(ids, anna[:2]) {
		t.Errorf("export: %+v, want Anna's two submissions of the workspace %v", doc, anna[:2])
	}
	if len(doc.Submissions) > 0 && (len(doc.Submissions[0].Attachments) != 1 || doc.Submissions[0].Form != "contact") {
		t.Errorf("the first submission exported: %+v", doc.Submissions[0])
	}
	events, _ := tc.db.Events(context.Background(), accounts.DefaultWorkspace, "", 0)
	if !slices.ContainsFunc(events, func(e accounts.Event) bool {
		return e.Action == accounts.ActionSubmissionsExport && e.Target == "a***@example.com" && e.Detail == "one person's data, json"
	}) {
		t.Errorf("audit log %+v: want the export, with the masked address", events)
	}
}

// TestPersonAddressRefused answers an empty or bad address with the
// problem beside the field and the address as typed, erasing and
// exporting nothing.
func TestPersonAddressRefused(t *testing.T) {
	tc, _, anna, _ := peopleConsole(t)
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	token := b.csrf(peoplePage)
	for _, action := range []string{"/erase", "/export"} {
		for _, typed := range []string{"", "Anna <anna@example.com>", "anna@example.com, bob@example.com", "anna"} {
			res := b.do(http.MethodPost, peoplePage+action, url.Values{"_csrf": {token}, "email": {typed}, "confirmed": {"1"}}, nil)
			if res.status != http.StatusUnprocessableEntity || !strings.Contains(res.body, `<p class="hubform-field-error" id="person-email-error" role="alert">Give the person&#39;s e-mail address`) ||
				!strings.Contains(res.body, `value="`+strings.ReplaceAll(strings.ReplaceAll(typed, "<", "&lt;"), ">", "&gt;")+`"`) || !strings.Contains(res.body, `aria-invalid="true"`) {
				t.Errorf("%s of %q: %d %s", action, typed, res.status, res.body)
			}
		}
	}
	if !tc.exists(anna[0]) {
		t.Error("a refused erasure erased")
	}
}

// TestPersonAdminsOnly refuses the page and its actions to editors and
// viewers, with no link to it in their navigation, and to a browser
// without a session.
func TestPersonAdminsOnly(t *testing.T) {
	tc, _, anna, _ := peopleConsole(t)
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, role := range []accounts.Role{accounts.Editor, accounts.Viewer} {
		email := string(role) + "@example.com"
		if err := tc.db.CreateUser(ctx, accounts.User{Email: email, PasswordHash: hash, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if err := tc.db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: email, Role: role, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		b := tc.browser()
		b.signIn(email, janePassword)
		token := b.csrf(console.Path)
		if home := b.get(console.Path); strings.Contains(home.body, peoplePage) {
			t.Errorf("the navigation of a %s links to the page of a person's data", role)
		}
		if res := b.get(peoplePage); res.status != http.StatusForbidden {
			t.Errorf("the page as a %s: %d, want 403", role, res.status)
		}
		for _, action := range []string{"/erase", "/export"} {
			res := b.do(http.MethodPost, peoplePage+action, url.Values{"_csrf": {token}, "email": {"anna@example.com"}, "confirmed": {"1"}}, nil)
			if res.status != http.StatusForbidden || strings.Contains(res.body, "Anna") {
				t.Errorf("%s as a %s: %d, want 403", action, role, res.status)
			}
		}
	}
	stranger := tc.browser()
	if res := stranger.get(peoplePage); res.status != http.StatusSeeOther || res.header.Get("Location") != console.SignInPath {
		t.Errorf("the page without a session: %d to %q, want the sign-in page", res.status, res.header.Get("Location"))
	}
	token := stranger.csrf(console.SignInPath)
	for _, action := range []string{"/erase", "/export"} {
		if res := stranger.do(http.MethodPost, peoplePage+action, url.Values{"_csrf": {token}, "email": {"anna@example.com"}, "confirmed": {"1"}}, nil); res.status != http.StatusUnauthorized {
			t.Errorf("%s without a session: %d, want 401", action, res.status)
		}
	}
	if !tc.exists(anna[0]) {
		t.Error("a refused erasure erased")
	}
}

// TestPeopleOptional leaves the page out of a console without People.
func TestPeopleOptional(t *testing.T) {
	tc := newConsole(t, nil)
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	if res := b.get(peoplePage); res.status == http.StatusOK {
		t.Error("the page is served without People")
	}
	if home := b.get(console.Path); strings.Contains(home.body, peoplePage) {
		t.Error("the navigation links to a page the console has not")
	}
}

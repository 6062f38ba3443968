package console_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/delivery"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// misledSites is the console's Workspaces with SiteWorkspace answering
// owner for every site while owner is set: the console then takes any
// site for a site of that workspace, as if its own check were gone.
type misledSites struct {
	console.Workspaces
	owner string
}

func (m *misledSites) SiteWorkspace(ctx context.Context, site string) (string, error) {
	if m.owner != "" {
		return m.owner, nil
	}
	return m.Workspaces.SiteWorkspace(ctx, site)
}

// TestServicesKeepWorkspacesApart takes away the console's own checks of
// the routes that change a form, its submissions or a person's data: the
// route table lets every signed-in user through, and the console takes
// acme's site for a site of the workspace rival. The services of package
// manage, which ask the database who owns the site, still answer rival's
// admin 404 and a viewer of acme 403, and nothing changes.
func TestServicesKeepWorkspacesApart(t *testing.T) {
	ctx := context.Background()
	files := &memFiles{files: map[string][]byte{}}
	sites := &misledSites{}
	retries := &fakeDeliveries{list: []delivery.Delivery{{ID: 7, Kind: "webhook", Site: "acme", Slug: "contact", SubmissionID: "S1"}}}
	tc := inboxConsole(t, files, func(cfg *console.Config) {
		db := cfg.Users.(*sqldb.DB)
		sites.Workspaces, cfg.Workspaces = cfg.Workspaces, sites
		cfg.Deliveries = retries
		cfg.Privacy = manage.NewPrivacy(manageConfig(db, cfg), &privacy.People{Store: db, Files: files, Logger: cfg.Logger})
	})
	// Version 3, not live, is one the builder edits into valid versions.
	if _, err := tc.db.SaveFormVersion(ctx, "acme", "contact", []byte(`{"title":"Contact","fields":[{"name":"name","type":"text"}],"steps":[{"id":"main","fields":["name"]}]}`), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	anna := tc.submit("contact", time.Now(), 2, `{"name":"Anna","message":"anna@example.com"}`)
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, email := range []string{"vic@example.com", "olga@example.com"} {
		if err := tc.db.CreateUser(ctx, accounts.User{Email: email, PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tc.db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: "vic@example.com", Role: accounts.Viewer, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateWorkspace(ctx, "rival", "olga@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	logged := func(workspace string) int {
		es, err := tc.db.Events(ctx, workspace, "", 1000)
		if err != nil {
			t.Fatal(err)
		}
		return len(es)
	}

	console.OpenRouteTable(t)
	form := console.Path + "/forms/acme/contact"
	olga, vic := tc.browser(), tc.browser()
	olga.signIn("olga@example.com", janePassword)
	vic.signIn("vic@example.com", janePassword)
	before := [2]int{logged(accounts.DefaultWorkspace), logged("rival")}
	sites.owner = "rival"
	if res := olga.get(form); res.status != http.StatusOK {
		t.Fatalf("acme's form as rival's admin, the console's checks taken away: %d, want 200 (the test would show nothing)", res.status)
	}
	olgaToken := olga.csrf(console.Path)
	sites.owner = ""
	vicToken := vic.csrf(console.Path)

	changes := []struct {
		method, path string
		form         url.Values
		// viewerMay is a change a viewer may make.
		viewerMay bool
	}{
		{method: http.MethodPost, path: form, form: url.Values{"body": {contactV1}, "base": {"3"}}},
		{method: http.MethodPost, path: form + "/publish", form: url.Values{"base": {"3"}}},
		{method: http.MethodPost, path: form + "/fields", form: url.Values{"base": {"3"}, "type": {"text"}, "name": {"city"}}},
		{method: http.MethodPost, path: form + "/translations", form: url.Values{"base": {"3"}, "locale": {"fr"}}},
		{method: http.MethodPost, path: form + "/fields/0/text", form: url.Values{"base": {"3"}, "part": {"label"}, "value": {"City"}}},
		{method: http.MethodPost, path: form + "/steps/0/title", form: url.Values{"base": {"3"}, "title": {"You"}}},
		{method: http.MethodPost, path: form + "/settings", form: url.Values{"base": {"3"}}},
		{method: http.MethodPost, path: form + "/design", form: url.Values{"base": {"3"}, "accent": {"#7c3aed"}}},
		{method: http.MethodPost, path: form + "/versions/1/publish"},
		{method: http.MethodPost, path: form + "/submissions/delete", form: url.Values{"id": {anna}}},
		{method: http.MethodPost, path: form + "/submissions/spam", form: url.Values{"id": {anna}, "spam": {"1"}}},
		{method: http.MethodPost, path: form + "/submissions/undelete", form: url.Values{"id": {anna}}},
		{method: http.MethodPost, path: form + "/deliveries/7/retry"},
		{method: http.MethodGet, path: form + "/export/csv", viewerMay: true},
	}
	for _, c := range changes {
		post := func(b *browser, token string) response {
			if c.method == http.MethodGet {
				return b.get(c.path)
			}
			f := url.Values{"_csrf": {token}}
			for k, v := range c.form {
				f[k] = v
			}
			return b.do(c.method, c.path, f, nil)
		}
		sites.owner = "rival"
		if res := post(olga, olgaToken); res.status != http.StatusNotFound {
			t.Errorf("%s %s as rival's admin: %d %.200q, want 404", c.method, c.path, res.status, res.body)
		}
		sites.owner = ""
		if res := post(vic, vicToken); !c.viewerMay && res.status != http.StatusForbidden {
			t.Errorf("%s %s as acme's viewer: %d %.200q, want 403", c.method, c.path, res.status, res.body)
		}
	}
	// A person's data is the actor's workspace's: a viewer of acme may not
	// touch it, and rival's admin erases in rival alone.
	for _, action := range []string{"/export", "/erase"} {
		if res := vic.do(http.MethodPost, console.Path+"/people"+action, url.Values{"_csrf": {vicToken}, "email": {"anna@example.com"}, "confirmed": {"1"}}, nil); res.status != http.StatusForbidden {
			t.Errorf("%s of a person's data as acme's viewer: %d, want 403", action, res.status)
		}
	}
	if res := olga.do(http.MethodPost, console.Path+"/people/erase", url.Values{"_csrf": {olgaToken}, "email": {"anna@example.com"}, "confirmed": {"1"}}, nil); res.status != http.StatusSeeOther {
		t.Errorf("erasure as rival's admin, in rival: %d %q", res.status, res.body)
	}

	rec, err := tc.db.FormRecord(ctx, "acme", "contact")
	if err != nil || rec.LastVersion != 3 || rec.LiveVersion != 2 {
		t.Errorf("acme/contact: %+v, %v: want versions 3, live 2, as it was", rec, err)
	}
	if s, err := tc.db.Submission(ctx, anna); err != nil || s.Spam {
		t.Errorf("acme's submission: %+v, %v: want it there and not spam", s, err)
	}
	if len(retries.retried) != 0 {
		t.Errorf("deliveries sent again: %v", retries.retried)
	}
	// The viewer's export, which a viewer may make, is all acme's log gained.
	newest, err := tc.db.Events(ctx, accounts.DefaultWorkspace, "", 1)
	if n := logged(accounts.DefaultWorkspace); err != nil || n != before[0]+1 || newest[0].Action != accounts.ActionSubmissionsExport || newest[0].Actor != "vic@example.com" {
		t.Errorf("acme's audit log: %d events, the newest %+v, %v; want %d, the viewer's export", n, newest, err, before[0]+1)
	}
	if n := logged("rival"); n != before[1]+1 {
		t.Errorf("rival's audit log: %d events, want %d, its own erasure", n, before[1]+1)
	}
}

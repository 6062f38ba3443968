package admin_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/hubclient"
)

// misledSites is the API's Sites with SiteWorkspace answering owner for
// every site while owner is set: the API then takes any site for a site
// of that workspace, as if its own check were gone.
type misledSites struct {
	owners
	owner string
}

// owners is admin.Sites under another name, which its method Sites does
// not hide when embedded.
type owners = admin.Sites

func (m *misledSites) SiteWorkspace(ctx context.Context, site string) (string, error) {
	if m.owner != "" {
		return m.owner, nil
	}
	return m.owners.SiteWorkspace(ctx, site)
}

// TestServicesKeepWorkspacesApart takes away the API's own checks of the
// routes that change a form, its submissions or a person's data: the
// route table lets every token through whatever its scope, and the API
// takes acme's site for a site of the workspace rival. The services of
// package manage, which ask the database who owns the site, still answer
// rival's token of scope all 404 and a token of acme of a narrower scope
// 403, and nothing changes.
func TestServicesKeepWorkspacesApart(t *testing.T) {
	ctx := context.Background()
	db, _ := tokenDB(t)
	if err := db.CreateUser(ctx, accounts.User{Email: "olga@example.com", PasswordHash: "$argon2id$x", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateWorkspace(ctx, "rival", "olga@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, time.Now()); err != nil {
		t.Fatal(err)
	}
	const form = `{"title":"Contact","fields":[{"name":"email","type":"email"}],"steps":[{"id":"main","fields":["email"]}]}`
	for range 2 {
		if _, err := db.SaveFormVersion(ctx, "acme", "contact", []byte(form), "test", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.PublishFormVersion(ctx, "acme", "contact", 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	anna := hub.Submission{ID: hub.NewID(time.Now()), Site: "acme", Slug: "contact", CreatedAt: time.Now(), FormVersion: 1,
		Payload: json.RawMessage(`{"email":"anna@example.com"}`), Attachments: []hubclient.Attachment{}}
	if err := db.CreateSubmission(ctx, anna); err != nil {
		t.Fatal(err)
	}
	token := func(name, workspace string, scope accounts.Scope) string {
		secret := accounts.NewToken()
		if err := db.CreateToken(ctx, accounts.Token{Name: name, Hash: accounts.HashToken(secret), CreatedAt: time.Now(), Workspace: workspace, Scope: scope}); err != nil {
			t.Fatal(err)
		}
		return secret
	}
	theirs := token("theirs", "rival", accounts.ScopeAll)
	forms, reader := token("forms", accounts.DefaultWorkspace, accounts.ScopeForms), token("reader", accounts.DefaultWorkspace, accounts.ScopeSubmissionsRead)

	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	sites := &misledSites{owners: db}
	files := &memFiles{files: map[string][]byte{}}
	api, err := admin.New(withServices(db, admin.Config{Tokens: db, Sites: sites, Audit: db, Forms: db, Logger: logger,
		Inbox: &inbox.Inbox{Forms: formsource.NewStored(db, logger), Store: db, Files: files, Logger: logger}},
		&privacy.People{Store: db, Files: files, Logger: logger}))
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	api.Register(e)
	srv := httptest.NewServer(e)
	defer srv.Close()
	do := func(secret, method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+admin.Prefix+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	logged := func(workspace string) int {
		es, err := db.Events(ctx, workspace, "", 1000)
		if err != nil {
			t.Fatal(err)
		}
		return len(es)
	}
	before := [2]int{logged(accounts.DefaultWorkspace), logged("rival")}

	admin.OpenRouteTable(t)
	sites.owner = "rival"
	if status, body := do(theirs, http.MethodGet, "/forms/acme/contact", ""); status != http.StatusOK {
		t.Fatalf("acme's form with rival's token, the API's checks taken away: %d %s, want 200 (the test would show nothing)", status, body)
	}
	sites.owner = ""
	for _, c := range []struct {
		method, path, body string
		// narrow is a token of acme whose scope does not allow it.
		narrow string
	}{
		{http.MethodPut, "/forms/acme/contact/version", form, reader},
		{http.MethodPut, "/forms/acme/contact/draft", form, reader},
		{http.MethodPost, "/forms/acme/contact/versions/2/publish", "", reader},
		{http.MethodDelete, "/forms/acme/contact/submissions/" + anna.ID, "", forms},
		{http.MethodDelete, "/forms/acme/contact/submissions/" + anna.ID, "", reader},
		{http.MethodGet, "/forms/acme/contact/export/csv", "", forms},
	} {
		sites.owner = "rival"
		if status, body := do(theirs, c.method, c.path, c.body); status != http.StatusNotFound {
			t.Errorf("%s %s with rival's token of scope all: %d %s, want 404", c.method, c.path, status, body)
		}
		sites.owner = ""
		if status, body := do(c.narrow, c.method, c.path, c.body); status != http.StatusForbidden {
			t.Errorf("%s %s with a narrower token of acme: %d %s, want 403", c.method, c.path, status, body)
		}
	}
	// A person's data is the token's workspace's: a token of acme of a
	// narrower scope may not touch it, and rival's erases in rival alone.
	if status, _ := do(forms, http.MethodGet, "/people?email=anna@example.com", ""); status != http.StatusForbidden {
		t.Errorf("export of a person's data with a token of scope forms: %d, want 403", status)
	}
	if status, _ := do(reader, http.MethodPost, "/people/erase", `{"email":"anna@example.com"}`); status != http.StatusForbidden {
		t.Errorf("erasure with a token of scope submissions:read: %d, want 403", status)
	}
	if status, body := do(theirs, http.MethodPost, "/people/erase", `{"email":"anna@example.com"}`); status != http.StatusOK || !strings.Contains(body, `"erased":0`) {
		t.Errorf("erasure with rival's token, in rival: %d %s", status, body)
	}

	rec, err := db.FormRecord(ctx, "acme", "contact")
	if err != nil || rec.LastVersion != 2 || rec.LiveVersion != 1 {
		t.Errorf("acme/contact: %+v, %v: want versions 2, live 1, as it was", rec, err)
	}
	if _, err := db.Submission(ctx, anna.ID); err != nil {
		t.Errorf("acme's submission: %v", err)
	}
	if n := logged(accounts.DefaultWorkspace); n != before[0] {
		t.Errorf("acme's audit log: %d events, want %d", n, before[0])
	}
	if n := logged("rival"); n != before[1]+1 {
		t.Errorf("rival's audit log: %d events, want %d, its own erasure", n, before[1]+1)
	}
}

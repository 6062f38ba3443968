package admin

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/inbox"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/privacy"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

const accessForm = `{"title":"Secret title","fields":[{"name":"email","type":"email"}],"steps":[{"id":"main","fields":["email"]}]}`

// TestTokensActOnTheirWorkspace has tokens of two workspaces, of each
// scope, try every route of the API on a form of the other workspace: 404
// and nothing of it in the answer, nothing changed; routes their scope does
// not allow are 403, and a hub-wide metrics token gets no route at all.
func TestTokensActOnTheirWorkspace(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.CreateUser(ctx, accounts.User{Email: "ann@example.com", PasswordHash: "$argon2id$x", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateWorkspace(ctx, "other", "ann@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	token := func(name, workspace string, scope accounts.Scope) string {
		secret := accounts.NewToken()
		if err := db.CreateToken(ctx, accounts.Token{Name: name, Hash: accounts.HashToken(secret), CreatedAt: time.Now(), Workspace: workspace, Scope: scope}); err != nil {
			t.Fatal(err)
		}
		return secret
	}
	mine := token("mine", accounts.DefaultWorkspace, accounts.ScopeAll)
	theirs := map[accounts.Scope]string{
		accounts.ScopeAll:             token("theirs-all", "other", accounts.ScopeAll),
		accounts.ScopeForms:           token("theirs-forms", "other", accounts.ScopeForms),
		accounts.ScopeSubmissionsRead: token("theirs-read", "other", accounts.ScopeSubmissionsRead),
	}
	metrics := token("prometheus", "", accounts.ScopeMetrics)

	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	mc := manage.Config{Sites: db, Audit: db, Logger: logger}
	in := &inbox.Inbox{Forms: formsource.NewStored(db, logger), Store: db, Logger: logger}
	api, err := New(Config{Tokens: db, Sites: db, Audit: db, Forms: db, FormChanges: manage.NewForms(mc, db),
		Privacy: manage.NewPrivacy(mc, &privacy.People{Store: db}), Logger: logger,
		Inbox: in, SubmissionChanges: manage.NewSubmissions(mc, in, db, nil), Funnel: db})
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	api.Register(e)
	srv := httptest.NewServer(e)
	defer srv.Close()
	do := func(secret, method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
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

	// The default workspace's form, published.
	if status, body := do(mine, "PUT", Prefix+"/forms/acme/contact/version", accessForm); status != http.StatusCreated {
		t.Fatalf("push: %d %s", status, body)
	}
	if status, body := do(mine, "POST", Prefix+"/forms/acme/contact/versions/1/publish", ""); status != http.StatusOK {
		t.Fatalf("publish: %d %s", status, body)
	}
	versions := func() int {
		vs, err := db.FormVersions(ctx, "acme", "contact")
		if err != nil {
			t.Fatal(err)
		}
		return len(vs)
	}

	param := regexp.MustCompile(`:[^/]+`)
	walked, walkedStats := 0, false
	for _, r := range e.Routes() {
		if !strings.HasPrefix(r.Path, Prefix+"/") || r.Method == echo.RouteNotFound {
			continue
		}
		route := r.Method + " " + r.Path
		if _, ok := routeAccess[route]; !ok {
			t.Errorf("route %s has no access rule: every token is refused it", route)
		}
		walked++
		walkedStats = walkedStats || route == "GET "+Prefix+"/forms/:site/:slug/stats"
		path := strings.NewReplacer(":site", "acme", ":slug", "contact", ":version", "1").Replace(r.Path)
		path = param.ReplaceAllString(path, "x")
		for scope, secret := range theirs {
			status, body := do(secret, r.Method, path, accessForm)
			switch {
			case strings.Contains(r.Path, ":site") && status != http.StatusNotFound:
				t.Errorf("%s by a %s token of another workspace: %d %s, want 404", route, scope, status, body)
			case strings.Contains(body, "Secret title") || strings.Contains(body, `"acme"`):
				t.Errorf("%s by a %s token of another workspace shows the form: %s", route, scope, body)
			}
		}
		if status, body := do(metrics, r.Method, path, accessForm); status != http.StatusForbidden {
			t.Errorf("%s with the metrics token: %d %s, want 403", route, status, body)
		}
	}
	if walked < 17 || !walkedStats {
		t.Errorf("walked %d routes of the API (a form's stats: %v), want every one", walked, walkedStats)
	}
	if n := versions(); n != 1 {
		t.Errorf("another workspace's tokens left acme/contact with %d versions, want 1", n)
	}

	// A site no workspace holds is created in the pushing token's.
	if status, body := do(theirs[accounts.ScopeSubmissionsRead], "PUT", Prefix+"/forms/theirs/signup/version", accessForm); status != http.StatusForbidden {
		t.Errorf("push with a submissions:read token: %d %s, want 403", status, body)
	}
	if _, err := db.SiteWorkspace(ctx, "theirs"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a refused push claimed the site: %v", err)
	}
	if status, body := do(theirs[accounts.ScopeForms], "PUT", Prefix+"/forms/theirs/signup/version", `{"fields":"nope"}`); status != http.StatusUnprocessableEntity {
		t.Errorf("an invalid push to a new site: %d %s, want 422", status, body)
	}
	if _, err := db.SiteWorkspace(ctx, "theirs"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("an invalid push claimed the site: %v", err)
	}
	if status, body := do(theirs[accounts.ScopeForms], "PUT", Prefix+"/forms/theirs/signup/version", accessForm); status != http.StatusCreated {
		t.Fatalf("push to a new site: %d %s", status, body)
	}
	if owner, err := db.SiteWorkspace(ctx, "theirs"); err != nil || owner != "other" {
		t.Errorf("the new site belongs to %q (%v), want other", owner, err)
	}
	if status, body := do(mine, "GET", Prefix+"/forms/theirs/signup", ""); status != http.StatusNotFound {
		t.Errorf("the other workspace's new form, read by mine: %d %s", status, body)
	}
	for secret, want := range map[string][]string{
		mine:                        {`"slug":"contact"`},
		theirs[accounts.ScopeForms]: {`"slug":"signup"`},
	} {
		status, body := do(secret, "GET", Prefix+"/forms", "")
		if status != http.StatusOK || !strings.Contains(body, want[0]) || strings.Count(body, `"slug"`) != 1 {
			t.Errorf("forms listed: %d %s; want %s alone", status, body, want[0])
		}
	}
	if status, body := do(theirs[accounts.ScopeSubmissionsRead], "GET", Prefix+"/forms", ""); status != http.StatusForbidden {
		t.Errorf("forms listed with a submissions:read token: %d %s, want 403", status, body)
	}
	if status, body := do(theirs[accounts.ScopeSubmissionsRead], "GET", Prefix+"/whoami", ""); status != http.StatusOK {
		t.Errorf("whoami with a submissions:read token: %d %s", status, body)
	}
}

package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/hubclient"
)

// orderForm is the default workspace's form in the database; its title and
// the submission's name are what no one of another workspace may see.
const orderForm = `{"title": "Order secret", "fields": [{"name": "name", "type": "text", "label": "Name"}],
	"steps": [{"id": "main", "fields": ["name"]}]}`

// secrets are what a body must not show to a member of another workspace:
// the 404 of the admin API repeats the names the request gave, nothing more.
var secrets = []string{"Order secret", "Zelda Secret", "Contact us", "/console/forms/shop/", "/console/forms/acme/"}

// TestOwnerRoutesPerWorkspace walks every route of the console and the
// admin API, from the router, as each role of the workspace that owns the
// forms and as each role of another workspace, on SQLite and PostgreSQL:
// the other workspace's members and tokens get 404 for every route of a
// site of the first, and see nothing of it anywhere; the first's members
// get 403 for what their role does not allow. Nothing changes.
func TestOwnerRoutesPerWorkspace(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); walkAsWorkspaces(t, "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); walkAsWorkspaces(t, pgtest.URL(t)) })
}

func walkAsWorkspaces(t *testing.T, dbURL string) {
	ctx := context.Background()
	cfg := testHubConfig(t, dbURL)
	h, srv := serveRoutes(t, cfg, nil)
	db := h.DB

	// People: an admin, an editor and a viewer in each workspace.
	const password = "correct horse battery"
	roles := []accounts.Role{accounts.Admin, accounts.Editor, accounts.Viewer}
	for _, ws := range []string{"default", "other"} {
		for _, role := range roles {
			email := string(role) + "@" + ws + ".example"
			addTestUser(t, db, email, password)
			if ws == "other" && role == accounts.Admin {
				if err := db.CreateWorkspace(ctx, ws, email, time.Now()); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := db.SetMember(ctx, accounts.Member{Workspace: ws, Email: email, Role: role, CreatedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The default workspace's forms: acme/contact of the forms directory,
	// claimed when the hub started, and shop/order in the database, with a
	// submission.
	if _, err := db.ClaimSite(ctx, "shop", "default", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveFormVersion(ctx, "shop", "order", []byte(orderForm), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.PublishFormVersion(ctx, "shop", "order", 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	res, err := (&hubclient.Client{HubURL: srv.URL + "/v1"}).Submit(ctx, "shop", "order", &hubclient.SubmitRequest{Payload: map[string]any{"name": "Zelda Secret"}})
	if err != nil || res.SubmissionID == "" {
		t.Fatalf("submit: %+v, %v", res, err)
	}
	counts := func() []int {
		t.Helper()
		versions, err := db.FormVersions(ctx, "shop", "order")
		if err != nil {
			t.Fatal(err)
		}
		subs, err := db.CountSubmissions(ctx, hub.Filter{Site: "shop", Slug: "order"})
		if err != nil {
			t.Fatal(err)
		}
		members, err := db.Members(ctx, "default")
		if err != nil {
			t.Fatal(err)
		}
		sites, err := db.Sites(ctx, "default")
		if err != nil {
			t.Fatal(err)
		}
		return []int{len(versions), subs, len(members), len(sites)}
	}
	before := counts()
	if want := []int{1, 1, 3, 2}; !slices.Equal(before, want) {
		t.Fatalf("versions, submissions, members, sites of default: %v, want %v", before, want)
	}

	// Tokens: every scope of the other workspace, and one of the first's
	// that reads submissions alone.
	token := func(name, ws string, scope accounts.Scope) string {
		secret := accounts.NewToken()
		if err := db.CreateToken(ctx, accounts.Token{Name: name, Hash: accounts.HashToken(secret), CreatedAt: time.Now(), Workspace: ws, Scope: scope}); err != nil {
			t.Fatal(err)
		}
		return secret
	}
	otherTokens := []string{token("o-all", "other", accounts.ScopeAll), token("o-forms", "other", accounts.ScopeForms), token("o-read", "other", accounts.ScopeSubmissionsRead)}
	readToken := token("d-read", "default", accounts.ScopeSubmissionsRead)

	param := regexp.MustCompile(`:[^/]+`)
	values := strings.NewReplacer(":site", "shop", ":slug", "order", ":id", res.SubmissionID, ":n", "0", ":version", "1", ":format", "csv", ":locale", "de")
	type user struct {
		ws   string
		role accounts.Role
		b    *consoleClient
	}
	var users []user
	for _, ws := range []string{"default", "other"} {
		for _, role := range roles {
			users = append(users, user{ws, role, signIn(t, srv.URL, string(role)+"@"+ws+".example", password)})
		}
	}

	// adminOnly are the console's routes for admins alone.
	adminOnly := map[string]bool{"GET /console/audit": true, "GET /console/members": true, "POST /console/members": true,
		"POST /console/members/remove": true, "POST /console/invitations": true,
		"GET /console/tokens": true, "POST /console/tokens": true, "POST /console/tokens/revoke": true,
		"GET /console/people": true, "POST /console/people/export": true, "POST /console/people/erase": true,
		// Every member sees the workspace's brand; admins change it.
		"POST /console/brand": true, "POST /console/brand/preview": true}
	// editorOnly are the pages whose one purpose is a change: a viewer
	// cannot make it, so the page answers 403 too.
	editorOnly := map[string]bool{"GET /console/forms/:site/:slug/publish": true,
		// Trying a form runs the preview's logic and sending, an editor's.
		"GET /console/forms/:site/:slug/try": true}
	// ownAccount are the posts any signed-in user makes on their own
	// account or view, whatever their role.
	ownAccount := map[string]bool{"/console/workspace": true, "/console/account/password": true, "/console/account/sessions": true, "/console/account/time-zone": true, "/console/account/digest": true,
		// The columns a member sees of a form's submissions are theirs.
		"/console/forms/:site/:slug/submissions/columns": true,
		// A template's preview, which stores nothing, answers every member.
		"/console/sites/templates/:name/logic": true, "/console/sites/templates/:name/submit": true}
	walked := 0
	for _, r := range h.Server.Routes() {
		route := r.Method + " " + r.Path
		path := param.ReplaceAllString(values.Replace(r.Path), "x")
		switch {
		case r.Method == echo.RouteNotFound || slices.Contains(consolePublic, route) || route == "POST /console/sign-out":
			continue
		case strings.HasPrefix(r.Path, "/console"):
			walked++
			for _, u := range users {
				form := url.Values{"site": {"shop"}, "slug": {"new"}, "title": {"T"}, "workspace": {"default"}}
				status, body := u.b.do(r.Method, path, form)
				switch {
				case u.ws == "other" && strings.Contains(r.Path, ":site") && status != http.StatusNotFound:
					t.Errorf("%s as %s of another workspace: %d, want 404", route, u.role, status)
				case u.ws == "other" && route == "POST /console/workspace" && status != http.StatusNotFound:
					t.Errorf("switching to a workspace not theirs: %d, want 404", status)
				case adminOnly[route] && u.role != accounts.Admin && status != http.StatusForbidden:
					t.Errorf("%s as %s: %d, want 403", route, u.role, status)
				case u.ws == "default" && u.role == accounts.Viewer && (r.Method == http.MethodPost && !ownAccount[r.Path] || editorOnly[route]) && status != http.StatusForbidden:
					t.Errorf("%s as a viewer: %d, want 403", route, status)
				case u.ws == "default" && !adminOnly[route] && (u.role != accounts.Viewer || r.Method == http.MethodGet && !editorOnly[route]) && (status == http.StatusForbidden || status == http.StatusUnauthorized):
					t.Errorf("%s as %s: %d, want it allowed", route, u.role, status)
				}
				if u.ws == "other" {
					for _, s := range secrets {
						if strings.Contains(body, s) {
							t.Errorf("%s as %s of another workspace shows %q", route, u.role, s)
						}
					}
				}
			}
		case strings.HasPrefix(r.Path, "/v1/admin/"):
			walked++
			for _, secret := range otherTokens {
				status, body := apiDo(t, srv.URL, secret, r.Method, path)
				if strings.Contains(r.Path, ":site") && status != http.StatusNotFound {
					t.Errorf("%s with a token of another workspace: %d, want 404", route, status)
				}
				for _, s := range secrets {
					if strings.Contains(body, s) {
						t.Errorf("%s with a token of another workspace shows %q", route, s)
					}
				}
			}
			// A submissions:read token reads submissions and their
			// figures, and nothing else.
			reads := r.Method == http.MethodGet && (strings.Contains(r.Path, "/submissions") || strings.Contains(r.Path, "/export/") || strings.HasSuffix(r.Path, "/stats"))
			status, _ := apiDo(t, srv.URL, readToken, r.Method, path)
			switch {
			case reads && status == http.StatusForbidden:
				t.Errorf("%s with a submissions:read token: 403, want it allowed", route)
			case !reads && strings.Contains(r.Path, "/forms") && status != http.StatusForbidden:
				t.Errorf("%s with a submissions:read token: %d, want 403", route, status)
			}
		}
	}
	// Creating a form on the first workspace's site says only that the
	// name is not available, whether a form of that slug is there or not.
	for _, u := range users[3:] {
		for _, slug := range []string{"order", "new"} {
			status, body := u.b.do(http.MethodPost, "/console/sites", url.Values{"site": {"shop"}, "slug": {slug}, "title": {"T"}})
			if u.role != accounts.Viewer && (status != http.StatusUnprocessableEntity || !strings.Contains(body, "This site name is not available")) {
				t.Errorf("creating shop/%s as %s of another workspace: %d, want 422 saying the name is not available", slug, u.role, status)
			}
		}
	}
	if walked < 30 {
		t.Errorf("walked %d routes, want every route of the console and the admin API", walked)
	}
	if after := counts(); !slices.Equal(after, before) {
		t.Errorf("versions, submissions, members, sites of default after the walk: %v, want %v", after, before)
	}
}

// consoleClient is a signed-in browser of the console, without redirects.
type consoleClient struct {
	t          *testing.T
	base, csrf string
	client     *http.Client
}

// signIn signs in to the console at base and returns the browser.
func signIn(t *testing.T, base, email, password string) *consoleClient {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &consoleClient{t: t, base: base, client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	c.csrf = csrfOf(t, c.get("/console/sign-in"))
	if status, _ := c.do(http.MethodPost, "/console/sign-in", url.Values{"email": {email}, "password": {password}}); status != http.StatusSeeOther {
		t.Fatalf("sign-in as %s: %d", email, status)
	}
	c.csrf = csrfOf(t, c.get("/console"))
	return c
}

func (c *consoleClient) get(path string) string {
	_, body := c.do(http.MethodGet, path, nil)
	return body
}

func (c *consoleClient) do(method, path string, form url.Values) (int, string) {
	c.t.Helper()
	var body io.Reader
	if method != http.MethodGet {
		form = cloneValues(form)
		form.Set("_csrf", c.csrf)
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, c.base+path, body)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := c.client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// cloneValues returns a copy of v, never nil.
func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = slices.Clone(vs)
	}
	return out
}

func csrfOf(t *testing.T, page string) string {
	t.Helper()
	m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token on the page: %.300s", page)
	}
	return m[1]
}

// apiDo sends a request with the token to the admin API at base, with
// orderForm as its body.
func apiDo(t *testing.T, base, token, method, path string) (int, string) {
	t.Helper()
	return apiCall(t, base, token, method, path, orderForm)
}

// apiCall sends a request with the token and a JSON body to the admin API
// at base, and returns its status and body.
func apiCall(t *testing.T, base, token, method, path, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

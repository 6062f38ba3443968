package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
)

// consolePublic are the owners' routes that answer without a session:
// the sign-in page, its post, the stylesheet and script those pages load,
// asking for a password reset or a sign-up, the pages and posts of an
// invitation's, a reset's, a sign-up's or a notification address's link,
// which is its own proof, and single sign-on, whose answer the provider
// vouches for. Adding to this list is a decision, not an accident.
var consolePublic = []string{"GET /console/sign-in", "POST /console/sign-in", "GET /console/static/*",
	"GET /console/setup", "POST /console/setup",
	"GET /console/invitations/:token", "POST /console/invitations/:token",
	"GET /console/reset", "POST /console/reset", "GET /console/reset/:token", "POST /console/reset/:token",
	"GET /console/signup", "POST /console/signup", "GET /console/signup/:token", "POST /console/signup/:token",
	"GET /console/mail-recipients/:token", "POST /console/mail-recipients/:token",
	"GET /console/sso", "GET /console/sso/callback"}

// TestOwnerRoutesClosed walks every route of the hub as hubform hub wires
// it: each under /console, but the public ones, each under /v1/admin and
// /metrics must refuse a request without a session or a token, so that a route
// added later cannot be left open by mistake.
func TestOwnerRoutesClosed(t *testing.T) {
	t.Parallel()
	cfg := testHubConfig(t, "")
	h, srv := serveRoutes(t, cfg, nil)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	param := regexp.MustCompile(`:[^/]+`)

	var checked, public []string
	for _, r := range h.Server.Routes() {
		console := r.Path == "/console" || strings.HasPrefix(r.Path, "/console/")
		// The metrics take a token as the admin API does.
		api := r.Path == "/v1/admin" || strings.HasPrefix(r.Path, "/v1/admin/") || r.Path == "/metrics"
		if !console && !api {
			continue
		}
		if slices.Contains(consolePublic, r.Method+" "+r.Path) {
			public = append(public, r.Method+" "+r.Path)
			continue
		}
		methods := []string{r.Method}
		if r.Method == echo.RouteNotFound || r.Method == echo.PROPFIND || r.Method == "" {
			// A group's catch-all: whatever a client might send.
			methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete}
		}
		path := strings.ReplaceAll(param.ReplaceAllString(r.Path, "x"), "*", "anything/else")
		for _, method := range methods {
			for _, htmx := range []bool{false, true} {
				req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(""))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				// Same-origin, so that CSRF protection lets the request
				// through to the check under test.
				req.Header.Set("Sec-Fetch-Site", "same-origin")
				if htmx {
					req.Header.Set("HX-Request", "true")
				}
				res, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				redirected := res.StatusCode == http.StatusSeeOther && res.Header.Get("Location") == "/console/sign-in"
				switch {
				case api && res.StatusCode != http.StatusUnauthorized:
					t.Errorf("%s %s (route %s %s) without a token: %d, want 401", method, path, r.Method, r.Path, res.StatusCode)
				case console && method == http.MethodGet && !htmx && !redirected:
					t.Errorf("page %s (route %s) without a session: %d, want 303 to /console/sign-in", path, r.Path, res.StatusCode)
				case console && (method != http.MethodGet || htmx) && res.StatusCode != http.StatusUnauthorized:
					t.Errorf("%s %s (route %s %s, htmx %v) without a session: %d, want 401", method, path, r.Method, r.Path, htmx, res.StatusCode)
				}
			}
		}
		checked = append(checked, r.Method+" "+r.Path)
	}
	slices.Sort(public)
	if want := slices.Sorted(slices.Values(consolePublic)); !slices.Equal(public, want) {
		t.Errorf("public routes %q, want %q", public, want)
	}
	// The walk saw the routes there are, catch-alls included.
	for _, want := range []string{"GET /console", "POST /console/sign-out", "GET /console/forms", "GET /v1/admin/whoami",
		"GET /console/forms/:site/:slug/submissions", "GET /console/forms/:site/:slug/submissions/:id/files/:n",
		"GET /console/forms/:site/:slug/summary",
		"POST /console/forms/:site/:slug/submissions/delete", "POST /console/forms/:site/:slug/submissions/spam",
		"GET /console/forms/:site/:slug/export/:format", "GET /metrics", "GET /console/forms/:site/:slug/deliveries", "POST /console/forms/:site/:slug/deliveries/:id/retry",
		"PUT /v1/admin/forms/:site/:slug/version", "PUT /v1/admin/forms/:site/:slug/draft", "POST /v1/admin/forms/:site/:slug/versions/:version/publish",
		"POST /console/forms/:site/:slug/fields/:n/move", "POST /console/forms/:site/:slug/translations/:locale",
		"GET /console/forms/:site/:slug/settings", "POST /console/forms/:site/:slug/settings"} {
		if !slices.Contains(checked, want) {
			t.Errorf("route %s not checked; checked %q", want, checked)
		}
	}
	t.Logf("checked %q", checked)
	if n := len(checked); n < 8 {
		t.Errorf("only %d routes checked: %q", n, checked)
	}
}

// TestTwoHubsShareSessions runs two hub processes on one PostgreSQL
// database: a session made by signing in on one is accepted by the other,
// and so is an API token made with hubform tokens; signing out on one ends
// the session on both.
func TestTwoHubsShareSessions(t *testing.T) {
	t.Parallel()
	dbURL, forms := pgtest.URL(t), formsDir(t)
	addUser(t, "jane@example.com", "correct horse battery", "--db", dbURL)
	status, stdout, stderr := hubform(t, "tokens", "create", "--db", dbURL, "--workspace", "default", "--name", "ci")
	if status != 0 {
		t.Fatalf("tokens create: %d %q", status, stderr)
	}
	token := strings.TrimSpace(stdout)
	a := startHub(t, forms, t.TempDir(), "--db", dbURL)
	b := startHub(t, forms, t.TempDir(), "--db", dbURL)
	base := func(h *hubProcess) string { return strings.TrimSuffix(h.url, "/v1") }

	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	page := func(h *hubProcess, path string) (int, string) {
		t.Helper()
		res, err := client.Get(base(h) + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	post := func(h *hubProcess, path string, form url.Values) int {
		t.Helper()
		// The CSRF cookie is the one the page set, on whichever hub.
		_, body := page(h, map[string]string{"/console/sign-in": "/console/sign-in", "/console/sign-out": "/console"}[path])
		m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no CSRF token on the page before %s: %q", path, body)
		}
		form.Set("_csrf", m[1])
		res, err := client.PostForm(base(h)+path, form)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := post(a, "/console/sign-in", url.Values{"email": {"jane@example.com"}, "password": {"correct horse battery"}}); s != http.StatusSeeOther {
		t.Fatalf("sign-in on A: %d; log:\n%s", s, a.log)
	}
	// Both hubs serve the same origin to the cookie jar (127.0.0.1, any
	// port), as two nodes behind one load balancer do.
	if s, body := page(b, "/console"); s != http.StatusOK || !strings.Contains(body, "Signed in as jane@example.com") {
		t.Fatalf("console on B with A's session: %d; log:\n%s", s, b.log)
	}
	for _, h := range []*hubProcess{a, b} {
		req, _ := http.NewRequest(http.MethodGet, h.url+"/admin/whoami", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `"token":"ci"`) {
			t.Errorf("whoami on %s: %d %s", h.url, res.StatusCode, body)
		}
	}
	if s := post(b, "/console/sign-out", url.Values{}); s != http.StatusSeeOther {
		t.Fatalf("sign-out on B: %d", s)
	}
	if s, _ := page(a, "/console"); s != http.StatusSeeOther {
		t.Errorf("console on A after signing out on B: %d, want 303 to sign in", s)
	}
	if strings.Contains(a.log.String()+b.log.String(), "correct horse battery") || strings.Contains(a.log.String()+b.log.String(), token) {
		t.Error("a hub logged the password or the token")
	}
}

package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/testkit"
	"github.com/hubform/hubform/hubclient"
)

// TestNoSecretInTheLog follows every flow that carries a secret through
// the hub's routes, with the log at its most detailed: the links of a
// sign-up, a password reset and an invitation (and such a link mangled into
// no route), a draft's token on the protocol, the hub's page and its
// resume, an API token, and a console session with its CSRF token. No line
// of the log holds any of them.
func TestNoSecretInTheLog(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); noSecretInTheLog(t, "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); noSecretInTheLog(t, pgtest.URL(t)) })
}

func noSecretInTheLog(t *testing.T, dbURL string) {
	ctx := context.Background()
	var log testkit.Buffer
	cfg := testHubConfig(t, dbURL)
	cfg.Signup = "open"
	h, srv := serveRoutes(t, cfg, slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})))
	db := h.DB

	const password = "correct horse battery"
	admin := "admin@default.example"
	addTestUser(t, db, admin, password)
	if err := db.SetMember(ctx, accounts.Member{Workspace: "default", Email: admin, Role: accounts.Admin, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ClaimSite(ctx, "shop", "default", time.Now()); err != nil {
		t.Fatal(err)
	}
	resumable := `{"title": "Order", "fields": [{"name": "name", "type": "text", "label": "Name"}],
		"steps": [{"id": "main", "fields": ["name"]}], "hub": {"resume": true}}`
	if _, err := db.SaveFormVersion(ctx, "shop", "order", []byte(resumable), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.PublishFormVersion(ctx, "shop", "order", 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	var secrets []string
	anonymous := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	visit := func(method, path string, form url.Values) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := anonymous.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}

	// A console session, and its CSRF token.
	con := signIn(t, srv.URL, admin, password)
	secrets = append(secrets, con.csrf)
	u, _ := url.Parse(srv.URL + "/console")
	for _, c := range con.client.Jar.Cookies(u) {
		secrets = append(secrets, c.Value)
	}

	// An invitation's link, shown as the hub sends no e-mail, opened and
	// accepted; then mangled, as a mail program might.
	_, page := con.do(http.MethodPost, "/console/invitations", url.Values{"email": {"newhire@default.example"}, "role": {"viewer"}})
	m := regexp.MustCompile(`/console/invitations/([A-Za-z0-9_-]{20,})`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no invitation link on the page: %.500s", page)
	}
	invitation := m[1]
	secrets = append(secrets, invitation)
	visit(http.MethodGet, "/console/invitations/"+invitation, nil)
	visit(http.MethodPost, "/console/invitations/"+invitation, url.Values{"password": {password}, "confirm": {password}})
	visit(http.MethodGet, "/console/invitations/"+invitation+"/", nil)
	visit(http.MethodGet, "/console/invitation/"+invitation, nil)

	// A password reset's link, opened and used.
	reset := accounts.NewLinkToken()
	secrets = append(secrets, reset)
	if err := db.CreatePasswordReset(ctx, accounts.HashToken(reset), admin, time.Now(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	visit(http.MethodGet, "/console/reset/"+reset, nil)
	visit(http.MethodPost, "/console/reset/"+reset, url.Values{"password": {password}, "confirm": {password}})
	visit(http.MethodGet, "/console/reset/"+reset+"%20x/y", nil)

	// A sign-up's link, opened and completed.
	signup := accounts.NewLinkToken()
	secrets = append(secrets, signup)
	if err := db.CreateSignup(ctx, accounts.HashToken(signup), "joiner@new.example", time.Now(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	visit(http.MethodGet, "/console/signup/"+signup, nil)
	visit(http.MethodPost, "/console/signup/"+signup, url.Values{"password": {password}, "confirm": {password}, "workspace": {"joiners"}})

	// The link that asks an address to take a workspace's notifications,
	// opened and confirmed.
	recipient := accounts.NewLinkToken()
	secrets = append(secrets, recipient)
	if _, err := db.AskMailRecipient(ctx, "default", "listed@elsewhere.example", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMailRecipientToken(ctx, "default", "listed@elsewhere.example", accounts.HashToken(recipient), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	visit(http.MethodGet, "/console/mail-recipients/"+recipient, nil)
	visit(http.MethodPost, "/console/mail-recipients/"+recipient, url.Values{})

	// A draft: saved and read on the protocol, opened on the hub's page
	// (whose form is the app's), and a token that is no draft.
	client := &hubclient.Client{HubURL: srv.URL + "/v1"}
	saved, err := client.SaveDraft(ctx, "shop", "order", hubclient.DraftRequest{Payload: map[string]any{"name": "Ada"}})
	if err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, saved.Token)
	if _, err := client.Draft(ctx, "shop", "order", saved.Token); err != nil {
		t.Fatal(err)
	}
	visit(http.MethodGet, "/f/shop/order?draft="+url.QueryEscape(saved.Token), nil)
	visit(http.MethodPost, "/hubform/shop/order/save?draft="+url.QueryEscape(saved.Token), url.Values{"_hubformDraft": {saved.Token}, "name": {"Ada"},
		"_hubformPage": {srv.URL + "/f/shop/order?draft=" + saved.Token}, "_hubformDraftEmail": {"ada@example.com"}})
	gone := hub.NewDraftToken()
	secrets = append(secrets, gone)
	client.Draft(ctx, "shop", "order", gone)
	visit(http.MethodGet, "/f/shop/order?draft="+gone, nil)

	// An API token, used, and one that is no token.
	token := accounts.NewToken()
	secrets = append(secrets, token)
	if err := db.CreateToken(ctx, accounts.Token{Name: "ci", Hash: accounts.HashToken(token), CreatedAt: time.Now(), Workspace: "default", Scope: accounts.ScopeAll}); err != nil {
		t.Fatal(err)
	}
	if status, body := apiCall(t, srv.URL, token, http.MethodGet, "/v1/admin/forms/shop/order", ""); status != http.StatusOK {
		t.Fatalf("admin API with the token: %d %s", status, body)
	}
	wrong := accounts.NewToken()
	secrets = append(secrets, wrong)
	apiCall(t, srv.URL, wrong, http.MethodGet, "/v1/admin/forms", "")

	out := log.String()
	for _, route := range []string{"/console/reset/:token", "/console/mail-recipients/:token"} {
		if !strings.Contains(out, route) {
			t.Fatalf("the log names no request to %s:\n%s", route, out)
		}
	}
	for _, s := range secrets {
		if s != "" && strings.Contains(out, s) {
			for _, line := range strings.Split(out, "\n") {
				if strings.Contains(line, s) {
					t.Errorf("a secret in the log: %s", line)
				}
			}
		}
	}
}

package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// TestDirectorySiteCannotBeClaimed is the attack of a workspace on a site
// that appears in the forms directory while the hub runs: its token pushes
// a form to the site, and its admin creates one there in the console, to
// own the site and read what the directory's form receives. Both are
// refused, saying why; the site is the forms workspace's from the moment
// the hub sees it, whether a push or a visitor comes first, and its
// submissions are the forms workspace's alone. On SQLite and PostgreSQL.
func TestDirectorySiteCannotBeClaimed(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); claimDirectorySite(t, "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); claimDirectorySite(t, pgtest.URL(t)) })
}

func claimDirectorySite(t *testing.T, dbURL string) {
	ctx := context.Background()
	forms := formsDir(t)
	cfg := testHubConfig(t, dbURL)
	cfg.Forms = forms
	h, srv := serveRoutes(t, cfg, nil)
	db := h.DB

	// The attacker: the admin of a workspace of their own, and its token.
	const password = "correct horse battery"
	addTestUser(t, db, "mallory@other.example", password)
	if err := db.CreateWorkspace(ctx, "other", "mallory@other.example", time.Now()); err != nil {
		t.Fatal(err)
	}
	token := func(name, ws string) string {
		secret := accounts.NewToken()
		if err := db.CreateToken(ctx, accounts.Token{Name: name, Hash: accounts.HashToken(secret), CreatedAt: time.Now(), Workspace: ws, Scope: accounts.ScopeAll}); err != nil {
			t.Fatal(err)
		}
		return secret
	}
	attacker, owner := token("mallory", "other"), token("owner", accounts.DefaultWorkspace)
	owns := func(site, want string) {
		t.Helper()
		if ws, err := db.SiteWorkspace(ctx, site); err != nil || ws != want {
			t.Fatalf("site %s belongs to %q (%v), want %s", site, ws, err, want)
		}
	}
	addSite := func(site string) {
		t.Helper()
		if err := os.Mkdir(filepath.Join(forms, site), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(forms, site, "contact.json"), []byte(contactForm), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refused := func(site string) {
		t.Helper()
		status, body := apiCall(t, srv.URL, attacker, http.MethodPut, "/v1/admin/forms/"+site+"/extra/version", orderForm)
		if status != http.StatusConflict || !strings.Contains(body, "forms directory") {
			t.Errorf("another workspace's push to %s/extra: %d %s, want 409 saying the site is the forms directory's", site, status, body)
		}
	}

	// A site appears, and the attacker pushes first: nothing has looked
	// at it yet.
	addSite("fresh")
	refused("fresh")
	owns("fresh", accounts.DefaultWorkspace)
	b := signIn(t, srv.URL, "mallory@other.example", password)
	status, body := b.do(http.MethodPost, "/console/sites", url.Values{"site": {"fresh"}, "slug": {"mine"}, "title": {"Mine"}})
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, "forms directory") {
		t.Errorf("another workspace's builder creating fresh/mine: %d, want 422 saying the site is the forms directory's", status)
	}

	// Another appears, and a visitor comes first.
	addSite("later")
	client := &hubclient.Client{HubURL: srv.URL + "/v1"}
	if _, err := client.Schema(ctx, "later", "contact"); err != nil {
		t.Fatal(err)
	}
	owns("later", accounts.DefaultWorkspace)
	refused("later")

	// What the directory's forms receive is the forms workspace's alone.
	for _, site := range []string{"fresh", "later"} {
		res, err := client.Submit(ctx, site, "contact", &hubclient.SubmitRequest{Payload: map[string]any{"name": "Zelda Secret", "message": "for the owner"}})
		if err != nil || res.SubmissionID == "" {
			t.Fatalf("submit to %s: %+v, %v", site, res, err)
		}
		path := "/v1/admin/forms/" + site + "/contact/submissions"
		if status, body := apiCall(t, srv.URL, attacker, http.MethodGet, path, ""); status != http.StatusNotFound || strings.Contains(body, "Zelda") {
			t.Errorf("another workspace reading %s: %d %s, want 404", path, status, body)
		}
		if status, body := apiCall(t, srv.URL, owner, http.MethodGet, path, ""); status != http.StatusOK || !strings.Contains(body, "Zelda Secret") {
			t.Errorf("the forms workspace reading %s: %d %.300s, want its submission", path, status, body)
		}
		if status, _ := b.do(http.MethodGet, "/console/forms/"+site+"/contact/submissions", nil); status != http.StatusNotFound {
			t.Errorf("another workspace's console reading %s's submissions: %d, want 404", site, status)
		}
	}
	if sites, err := db.Sites(ctx, "other"); err != nil || len(sites) != 0 {
		t.Errorf("the other workspace owns %v (%v), want nothing", sites, err)
	}
}

// TestDirectorySiteConflictStopsTheHub: a hub whose database gives a site
// of its forms directory to another workspace than --forms-workspace does
// not start, and says which site and workspaces. On SQLite and PostgreSQL.
func TestDirectorySiteConflictStopsTheHub(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); directorySiteConflict(t, "") })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); directorySiteConflict(t, pgtest.URL(t)) })
}

func directorySiteConflict(t *testing.T, dbURL string) {
	ctx := context.Background()
	data := t.TempDir()
	db, err := hubserver.OpenDatabase(ctx, dbURL, data, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(ctx, accounts.User{Email: "ann@agency.example", PasswordHash: "x", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateWorkspace(ctx, "agency", "ann@agency.example", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ClaimSite(ctx, "acme", "agency", time.Now()); err != nil {
		t.Fatal(err)
	}
	db.Close()

	cfg := hubserver.Config{Addr: "127.0.0.1:0", Data: data, DB: dbURL, Forms: formsDir(t), UploadTTL: 24 * time.Hour,
		SweepInterval: time.Hour, MaxBody: protocol.DefaultMaxBodyBytes, ShutdownGrace: time.Second}
	h, err := hubserver.Open(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err == nil {
		h.Close()
		t.Fatal("the hub started with a site of its forms directory owned by another workspace")
	}
	for _, want := range []string{"site acme", "workspace agency", "forms workspace default"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	// Served for the workspace that owns it, the hub starts.
	cfg.FormsWorkspace = "agency"
	h, err = hubserver.Open(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatalf("--forms-workspace agency: %v", err)
	}
	h.Close()
}

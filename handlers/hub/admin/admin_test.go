package admin_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

func TestAdminAPI(t *testing.T) {
	ctx := context.Background()
	db, token := tokenDB(t)
	api, err := admin.New(admin.Config{Tokens: db, Sites: db, Audit: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	api.Register(e)
	// A route added later on the group is guarded without doing more.
	api.Group(e).GET("/later", func(c echo.Context) error { return c.String(http.StatusOK, "later") })
	srv := httptest.NewServer(e)
	defer srv.Close()

	get := func(path, auth string) (int, http.Header, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body map[string]any
		json.NewDecoder(res.Body).Decode(&body)
		return res.StatusCode, res.Header, body
	}

	status, h, body := get("/v1/admin/whoami", "Bearer "+token)
	if status != http.StatusOK || body["ok"] != true || body["token"] != "ci" || h.Get("Cache-Control") != "no-store" {
		t.Fatalf("whoami with the token: %d %v %v", status, body, h)
	}
	if status, _, _ := get("/v1/admin/whoami", "bearer  "+token); status != http.StatusOK {
		t.Errorf("whoami with a lower-case scheme: %d", status)
	}
	if tokens, _ := db.Tokens(ctx, ""); len(tokens) != 1 || tokens[0].LastUsedAt.IsZero() {
		t.Errorf("the token's use is not recorded: %+v", tokens)
	}
	for _, tt := range []struct{ path, auth string }{
		{"/v1/admin/whoami", ""},
		{"/v1/admin/whoami", token},
		{"/v1/admin/whoami", "Basic " + token},
		{"/v1/admin/whoami", "Bearer "},
		{"/v1/admin/whoami", "Bearer hft_wrong"},
		{"/v1/admin/whoami", "Bearer " + token + "x"},
		{"/v1/admin/later", ""},
		{"/v1/admin/no-such-route", ""},
		{"/v1/admin", ""},
	} {
		status, h, body := get(tt.path, tt.auth)
		msg, _ := body["error"].(string)
		if status != http.StatusUnauthorized || body["ok"] != false || msg == "" || h.Get("WWW-Authenticate") == "" {
			t.Errorf("GET %s with %q: %d %v; want 401 with a JSON error", tt.path, tt.auth, status, body)
		}
	}
	if err := db.RevokeToken(ctx, "ci"); err != nil {
		t.Fatal(err)
	}
	if status, _, _ := get("/v1/admin/whoami", "Bearer "+token); status != http.StatusUnauthorized {
		t.Errorf("whoami with a revoked token: %d", status)
	}
	if _, err := admin.New(admin.Config{}); err == nil {
		t.Error("New without Tokens succeeded")
	}
}

// tokenDB returns a hub database on SQLite, closed when t ends, holding
// the API token it returns, named "ci".
func tokenDB(t *testing.T) (*sqldb.DB, string) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	token := accounts.NewToken()
	if err := db.CreateToken(context.Background(), accounts.Token{Name: "ci", Hash: accounts.HashToken(token), CreatedAt: time.Now(), Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeAll}); err != nil {
		t.Fatal(err)
	}
	return db, token
}

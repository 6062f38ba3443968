package console_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/manage"
)

// TestTokensPage has an admin make a token of the workspace, shown once
// and stored as its hash, and revoke it; another workspace's token is
// neither listed nor revoked.
func TestTokensPage(t *testing.T) {
	db := openSQLite(t)
	tc := newConsoleOn(t, db, func(cfg *console.Config) { cfg.Tokens = manage.NewTokens(manage.Config{Sites: db, Audit: db}, db) })
	ctx := context.Background()
	if err := tc.db.CreateUser(ctx, accounts.User{Email: "bob@example.com", PasswordHash: "$argon2id$x", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateWorkspace(ctx, "other", "bob@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateToken(ctx, accounts.Token{Name: "bobs", Hash: "h", Workspace: "other", Scope: accounts.ScopeAll, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	token := b.csrf(console.Path + "/tokens")
	res := b.do(http.MethodPost, console.Path+"/tokens", url.Values{"_csrf": {token}, "name": {"ci"}, "scope": {"forms"}}, nil)
	m := regexp.MustCompile(`id="created-token" type="text" readonly value="(hft_[A-Za-z0-9_-]+)"`).FindStringSubmatch(res.body)
	if res.status != http.StatusOK || m == nil {
		t.Fatalf("creating a token: %d %s", res.status, res.body)
	}
	got, err := tc.db.UseToken(ctx, accounts.HashToken(m[1]), time.Now())
	if err != nil || got.Workspace != accounts.DefaultWorkspace || got.Scope != accounts.ScopeForms {
		t.Errorf("the stored token: %+v, %v", got, err)
	}
	page := b.get(console.Path + "/tokens")
	if !strings.Contains(page.body, `data-token="ci"`) || strings.Contains(page.body, "bobs") || strings.Contains(page.body, m[1]) {
		t.Errorf("the tokens page lists another workspace's token, misses ci, or shows a token again:\n%s", page.body)
	}
	for _, bad := range []url.Values{{"name": {"a b"}, "scope": {"all"}}, {"name": {"x"}, "scope": {"metrics"}}, {"name": {"ci"}, "scope": {"all"}}} {
		bad.Set("_csrf", token)
		if res := b.do(http.MethodPost, console.Path+"/tokens", bad, nil); res.status != http.StatusUnprocessableEntity {
			t.Errorf("creating %v: %d, want 422", bad, res.status)
		}
	}
	if res := b.do(http.MethodPost, console.Path+"/tokens/revoke", url.Values{"_csrf": {token}, "name": {"bobs"}}, nil); res.status != http.StatusNotFound {
		t.Errorf("revoking another workspace's token: %d, want 404", res.status)
	}
	if all, _ := tc.db.Tokens(ctx, "other"); len(all) != 1 {
		t.Error("another workspace's token was revoked")
	}
	if res := b.do(http.MethodPost, console.Path+"/tokens/revoke", url.Values{"_csrf": {token}, "name": {"ci"}}, nil); res.status != http.StatusOK || !strings.Contains(res.body, "Revoke the token ci?") {
		t.Errorf("revoking ci unconfirmed: %d, want the question", res.status)
	}
	if _, err := tc.db.UseToken(ctx, accounts.HashToken(m[1]), time.Now()); err != nil {
		t.Errorf("the token stopped working before the revocation was confirmed: %v", err)
	}
	if res := b.do(http.MethodPost, console.Path+"/tokens/revoke", url.Values{"_csrf": {token}, "name": {"ci"}, "confirmed": {"1"}}, nil); res.status != http.StatusSeeOther {
		t.Errorf("revoking ci: %d", res.status)
	}
	if _, err := tc.db.UseToken(ctx, accounts.HashToken(m[1]), time.Now()); err == nil {
		t.Error("the revoked token still works")
	}
}

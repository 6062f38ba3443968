package console_test

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// TestServicesKeepTenancyWithoutTheRouteTable opens the routes of
// members, invitations and tokens to every signed-in user, as a route
// table that forgot them would: the services still refuse an editor with
// 403, and an admin of another workspace who names a member or a token of
// this one with 404, and nothing changes or is recorded.
func TestServicesKeepTenancyWithoutTheRouteTable(t *testing.T) {
	onEachStore(t, func(t *testing.T, db *sqldb.DB) {
		tc := newConsoleOn(t, db, func(cfg *console.Config) { cfg.Tokens = manage.NewTokens(manage.Config{Sites: db, Audit: db}, db) })
		console.OpenRoutes(t, "GET "+console.Path+"/members", "POST "+console.Path+"/members", "POST "+console.Path+"/members/remove",
			"POST "+console.Path+"/invitations", "GET "+console.Path+"/tokens", "POST "+console.Path+"/tokens", "POST "+console.Path+"/tokens/revoke")
		ctx, now := context.Background(), time.Now()
		hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		const ed, rita = "ed@example.com", "rita@example.com"
		for _, email := range []string{ed, rita} {
			if err := db.CreateUser(ctx, accounts.User{Email: email, PasswordHash: hash, CreatedAt: now, ProvedAt: now}); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.SetMember(ctx, accounts.Member{Workspace: accounts.DefaultWorkspace, Email: ed, Role: accounts.Editor, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateWorkspace(ctx, "rival", rita, now); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateToken(ctx, accounts.Token{Name: "ci", Hash: "h", Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeAll, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		signIn := func(email string) func(method, path string, form url.Values) int {
			b := tc.browser()
			b.signIn(email, janePassword)
			token := b.csrf(console.Path + "/account")
			return func(method, path string, form url.Values) int {
				if form != nil {
					form.Set("_csrf", token)
				}
				return b.do(method, console.Path+path, form, nil).status
			}
		}
		editor, rival := signIn(ed), signIn(rita)
		logged := func(ws string) []string {
			es, err := db.Events(ctx, ws, "", 100)
			if err != nil {
				t.Fatal(err)
			}
			var actions []string
			for _, e := range es {
				if e.Action != accounts.ActionSignIn {
					actions = append(actions, e.Action+" "+e.Target)
				}
			}
			return actions
		}

		for _, tr := range []struct {
			who          string
			do           func(method, path string, form url.Values) int
			method, path string
			form         url.Values
			want         int
		}{
			{"an editor", editor, http.MethodGet, "/members", nil, http.StatusForbidden},
			{"an editor", editor, http.MethodPost, "/members", url.Values{"email": {ed}, "role": {"admin"}}, http.StatusForbidden},
			{"an editor", editor, http.MethodPost, "/members/remove", url.Values{"email": {janeEmail}, "confirmed": {"1"}}, http.StatusForbidden},
			{"an editor", editor, http.MethodPost, "/invitations", url.Values{"email": {"guest@example.com"}, "role": {"admin"}}, http.StatusForbidden},
			{"an editor", editor, http.MethodGet, "/tokens", nil, http.StatusForbidden},
			{"an editor", editor, http.MethodPost, "/tokens", url.Values{"name": {"eds"}, "scope": {"all"}}, http.StatusForbidden},
			{"an editor", editor, http.MethodPost, "/tokens/revoke", url.Values{"name": {"ci"}, "confirmed": {"1"}}, http.StatusForbidden},
			{"another workspace's admin", rival, http.MethodPost, "/members", url.Values{"email": {ed}, "role": {"viewer"}}, http.StatusNotFound},
			{"another workspace's admin", rival, http.MethodPost, "/members/remove", url.Values{"email": {ed}, "confirmed": {"1"}}, http.StatusNotFound},
			{"another workspace's admin", rival, http.MethodPost, "/tokens/revoke", url.Values{"name": {"ci"}, "confirmed": {"1"}}, http.StatusNotFound},
		} {
			if got := tr.do(tr.method, tr.path, tr.form); got != tr.want {
				t.Errorf("%s: %s %s %v: %d, want %d", tr.who, tr.method, tr.path, tr.form, got, tr.want)
			}
		}

		members, err := db.Members(ctx, accounts.DefaultWorkspace)
		if err != nil {
			t.Fatal(err)
		}
		roles := map[string]accounts.Role{}
		for _, m := range members {
			roles[m.Email] = m.Role
		}
		if want := map[string]accounts.Role{janeEmail: accounts.Admin, ed: accounts.Editor}; !maps.Equal(roles, want) {
			t.Errorf("the members: %v, want %v", roles, want)
		}
		if rivals, err := db.Members(ctx, "rival"); err != nil || len(rivals) != 1 {
			t.Errorf("rival's members: %+v, %v; want its admin alone", rivals, err)
		}
		if tokens, err := db.Tokens(ctx, ""); err != nil || len(tokens) != 1 || tokens[0].Name != "ci" {
			t.Errorf("the tokens: %+v, %v; want ci alone", tokens, err)
		}
		for _, ws := range []string{accounts.DefaultWorkspace, "rival", ""} {
			if got := logged(ws); len(got) != 0 {
				t.Errorf("recorded in %q: %q", ws, got)
			}
		}
	})
}

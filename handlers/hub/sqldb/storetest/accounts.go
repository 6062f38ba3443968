package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/accounts"

	"github.com/hubform/hubform/handlers/hub"
)

func testUsers(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	jane := accounts.User{Email: "jane@example.com", PasswordHash: "$argon2id$v=19$m=64,t=1,p=1$c2FsdA$aGFzaA", CreatedAt: T0}
	if err := db.CreateUser(ctx, jane); err != nil {
		t.Fatal(err)
	}
	again := jane
	again.PasswordHash = "$argon2id$other"
	if err := db.CreateUser(ctx, again); !errors.Is(err, accounts.ErrExists) {
		t.Errorf("CreateUser of an existing address: %v, want ErrExists", err)
	}
	if err := db.CreateUser(ctx, accounts.User{Email: "bob@example.com", PasswordHash: "$x", CreatedAt: T0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	got, err := db.User(ctx, "jane@example.com")
	if err != nil || got != jane {
		t.Errorf("User = %+v, %v; want %+v (the first hash kept)", got, err, jane)
	}
	if _, err := db.User(ctx, "nobody@example.com"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("User of a missing address: %v", err)
	}
	users, err := db.Users(ctx)
	if err != nil || len(users) != 2 || users[0].Email != "bob@example.com" || users[1].Email != "jane@example.com" ||
		users[1].PasswordHash != "" || !users[1].CreatedAt.Equal(T0) {
		t.Errorf("Users = %+v, %v; want bob then jane, without hashes", users, err)
	}
	if err := db.DeleteUser(ctx, "jane@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteUser(ctx, "jane@example.com"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("second DeleteUser: %v", err)
	}
	if _, err := db.User(ctx, "jane@example.com"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("User after DeleteUser: %v", err)
	}
	if err := db.CreateUser(ctx, accounts.User{Email: "x@example.com"}); err == nil {
		t.Error("CreateUser without a hash succeeded")
	}
}

func testTokens(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	secret := accounts.NewToken()
	ci := accounts.Token{Name: "ci", Hash: accounts.HashToken(secret), CreatedAt: T0, Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeAll}
	if err := a.CreateToken(ctx, ci); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateToken(ctx, accounts.Token{Name: "ci", Hash: accounts.HashToken("other"), CreatedAt: T0, Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeAll}); !errors.Is(err, accounts.ErrExists) {
		t.Errorf("CreateToken of an existing name: %v, want ErrExists", err)
	}
	if err := a.CreateToken(ctx, accounts.Token{Name: "deploy", Hash: accounts.HashToken("d"), CreatedAt: T0, Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeForms}); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateToken(ctx, accounts.Token{Name: "prometheus", Hash: accounts.HashToken("p"), CreatedAt: T0, Scope: accounts.ScopeMetrics}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []accounts.Token{
		{Name: "x1", Hash: "h1", Workspace: accounts.DefaultWorkspace, Scope: accounts.ScopeMetrics},
		{Name: "x2", Hash: "h2", Scope: accounts.ScopeAll},
		{Name: "x3", Hash: "h3", Workspace: "nowhere", Scope: accounts.ScopeAll},
	} {
		if err := a.CreateToken(ctx, bad); err == nil {
			t.Errorf("CreateToken of %s in workspace %q with scope %s succeeded", bad.Name, bad.Workspace, bad.Scope)
		}
	}
	// A token made through one handle is accepted through the other, and
	// its use is recorded to within a minute.
	got, err := b.UseToken(ctx, ci.Hash, T0.Add(time.Hour))
	if err != nil || got.Name != "ci" || !got.LastUsedAt.Equal(T0.Add(time.Hour)) {
		t.Fatalf("UseToken = %+v, %v", got, err)
	}
	if got, _ := a.UseToken(ctx, ci.Hash, T0.Add(time.Hour+30*time.Second)); !got.LastUsedAt.Equal(T0.Add(time.Hour)) {
		t.Errorf("used again within the minute: last used %v, want unchanged", got.LastUsedAt)
	}
	if got, _ := a.UseToken(ctx, ci.Hash, T0.Add(time.Hour+time.Minute)); !got.LastUsedAt.Equal(T0.Add(time.Hour + time.Minute)) {
		t.Errorf("used a minute later: last used %v", got.LastUsedAt)
	}
	if _, err := a.UseToken(ctx, accounts.HashToken("hft_wrong"), T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("UseToken of an unknown hash: %v", err)
	}
	tokens, err := b.Tokens(ctx, accounts.DefaultWorkspace)
	if err != nil || len(tokens) != 2 || tokens[0].Name != "ci" || tokens[1].Name != "deploy" ||
		!tokens[0].LastUsedAt.Equal(T0.Add(time.Hour+time.Minute)) || !tokens[1].LastUsedAt.IsZero() || !tokens[1].CreatedAt.Equal(T0) ||
		tokens[1].Scope != accounts.ScopeForms || tokens[1].Workspace != accounts.DefaultWorkspace {
		t.Errorf("Tokens of the default workspace = %+v, %v", tokens, err)
	}
	if all, err := b.Tokens(ctx, ""); err != nil || len(all) != 3 || all[2].Name != "prometheus" || all[2].Workspace != "" || all[2].Scope != accounts.ScopeMetrics {
		t.Errorf("every token = %+v, %v", all, err)
	}
	if err := b.RevokeToken(ctx, "ci"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UseToken(ctx, ci.Hash, T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("UseToken after revoking: %v", err)
	}
	if err := a.RevokeToken(ctx, "ci"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("second RevokeToken: %v", err)
	}
}

func testSessions(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	now := T0
	clock := func() time.Time { return now }
	a, b := dbs[0].Sessions(), dbs[1].Sessions()
	a.SetClock(clock)
	b.SetClock(clock)
	data := []byte("\x00\xffsession data")
	if err := a.CommitCtx(ctx, "tok1", data, T0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	// The other handle, as another hub, finds it.
	got, found, err := b.FindCtx(ctx, "tok1")
	if err != nil || !found || !bytes.Equal(got, data) {
		t.Fatalf("Find on the other handle = %q, %v, %v", got, found, err)
	}
	if err := b.CommitCtx(ctx, "tok1", []byte("v2"), T0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, found, _ := a.Find("tok1"); !found || string(got) != "v2" {
		t.Errorf("after a second commit: %q, %v", got, found)
	}
	if _, found, err := a.Find("nope"); found || err != nil {
		t.Errorf("Find of a missing token: %v, %v", found, err)
	}
	// An expired session is not found, and is pruned by a later commit.
	if err := a.Commit("old", []byte("x"), T0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	now = T0.Add(time.Minute)
	if _, found, _ := b.Find("old"); found {
		t.Error("an expired session was found")
	}
	now = T0.Add(10 * time.Minute)
	if err := b.Commit("new", []byte("y"), T0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := dbs[0].Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions WHERE expires_at <= $1`, now.UnixMilli()).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d expired sessions left after a commit (%v), want 0", n, err)
	}
	if err := b.Delete("tok1"); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := a.Find("tok1"); found {
		t.Error("a deleted session was found")
	}
	if err := a.Delete("tok1"); err != nil {
		t.Errorf("deleting a missing session: %v", err)
	}
}

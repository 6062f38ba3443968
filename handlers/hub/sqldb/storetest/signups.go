package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testSignups creates sign-ups and completes them once: a user, and a
// workspace of theirs of which they are the admin.
func testSignups(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	if err := a.CreateUser(ctx, accounts.User{Email: "ann@example.com", PasswordHash: "$argon2id$ann", CreatedAt: T0, ProvedAt: T0}); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateSignup(ctx, "x", "ann@example.com", T0, T0.Add(time.Hour)); !errors.Is(err, accounts.ErrExists) {
		t.Errorf("a sign-up of a user's address: %v, want ErrExists", err)
	}
	for _, s := range []struct{ hash, email string }{{"s1", "cy@example.com"}, {"s2", "dee@example.com"}} {
		if err := a.CreateSignup(ctx, s.hash, s.email, T0, T0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if email, err := b.Signup(ctx, "s1", T0.Add(time.Minute)); err != nil || email != "cy@example.com" {
		t.Errorf("Signup(s1) = %q, %v", email, err)
	}
	if _, err := b.Signup(ctx, "s1", T0.Add(2*time.Hour)); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("an expired sign-up: %v", err)
	}
	// A taken name changes nothing, and the link still works.
	if _, err := b.CompleteSignup(ctx, "s1", "$argon2id$cy", accounts.DefaultWorkspace, T0); !errors.Is(err, accounts.ErrExists) {
		t.Errorf("a sign-up into the default workspace: %v, want ErrExists", err)
	}
	if _, err := b.User(ctx, "cy@example.com"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a refused sign-up added the user: %v", err)
	}
	if email, err := b.CompleteSignup(ctx, "s1", "$argon2id$cy", "cys-shop", T0); err != nil || email != "cy@example.com" {
		t.Fatalf("CompleteSignup = %q, %v", email, err)
	}
	if _, err := a.CompleteSignup(ctx, "s1", "$argon2id$cy", "again", T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a sign-up link used twice: %v", err)
	}
	if ms, err := a.Memberships(ctx, "cy@example.com"); err != nil || len(ms) != 1 || ms[0].Workspace != "cys-shop" || ms[0].Role != accounts.Admin {
		t.Errorf("the new user's memberships = %+v, %v", ms, err)
	}
	if _, err := a.CompleteSignup(ctx, "s2", "$argon2id$dee", "cys-shop", T0); !errors.Is(err, accounts.ErrExists) {
		t.Errorf("a second sign-up into a taken name: %v", err)
	}

	// An account whose address nobody proved does not keep its owner from
	// signing up: the sign-up's link, mailed to the address, takes it.
	if err := a.CreateUser(ctx, accounts.User{Email: "eve@example.com", PasswordHash: "$argon2id$first", CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateUserSession(ctx, accounts.Session{ID: "e1", Email: "eve@example.com", CreatedAt: T0, LastSeenAt: T0}); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateSignup(ctx, "s3", "eve@example.com", T0, T0.Add(time.Hour)); err != nil {
		t.Fatalf("a sign-up of an unproved address: %v", err)
	}
	if _, err := b.CompleteSignup(ctx, "s3", "$argon2id$eve", "eves-shop", T0); err != nil {
		t.Fatal(err)
	}
	if u, _ := a.User(ctx, "eve@example.com"); u.PasswordHash != "$argon2id$eve" || !u.Proved() {
		t.Errorf("the unproved account after the sign-up: %+v, want the new password, proved", u)
	}
	if ss, _ := a.UserSessions(ctx, "eve@example.com"); len(ss) != 0 {
		t.Errorf("sessions of the unproved account after the sign-up: %+v", ss)
	}
	if u, _ := a.User(ctx, "cy@example.com"); !u.Proved() {
		t.Error("a signed-up user's address is not proved")
	}
}

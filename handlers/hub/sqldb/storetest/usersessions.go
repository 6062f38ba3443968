package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testUserSessions records sessions, touches and ends them, and checks
// that a password's change or reset ends the user's other sessions, and
// that a reset link works once.
func testUserSessions(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	for _, email := range []string{"ann@example.com", "bob@example.com"} {
		if err := a.CreateUser(ctx, accounts.User{Email: email, PasswordHash: "$argon2id$old", CreatedAt: T0}); err != nil {
			t.Fatal(err)
		}
	}
	for i, id := range []string{"s1", "s2", "s3"} {
		s := accounts.Session{ID: id, Email: "ann@example.com", CreatedAt: T0.Add(time.Duration(i) * time.Minute), LastSeenAt: T0, Client: "192.0.2.1", UserAgent: "Firefox"}
		if err := a.CreateUserSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.CreateUserSession(ctx, accounts.Session{ID: "b1", Email: "bob@example.com", CreatedAt: T0, LastSeenAt: T0}); err != nil {
		t.Fatal(err)
	}
	if err := b.TouchUserSession(ctx, "s1", "ann@example.com", T0.Add(time.Hour)); err != nil {
		t.Errorf("touching an open session: %v", err)
	}
	if err := b.TouchUserSession(ctx, "b1", "ann@example.com", T0); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("touching another user's session: %v, want ErrNotFound", err)
	}
	ss, err := b.UserSessions(ctx, "ann@example.com")
	if err != nil || len(ss) != 3 || ss[0].ID != "s3" || ss[2].ID != "s1" || !ss[2].LastSeenAt.Equal(T0.Add(time.Hour)) || ss[0].UserAgent != "Firefox" {
		t.Fatalf("UserSessions = %+v, %v", ss, err)
	}
	// Another user's session cannot be ended by naming it.
	if n, err := a.EndUserSessions(ctx, "ann@example.com", "", "s2", "b1"); err != nil || n != 1 {
		t.Errorf("ending s2 and bob's b1 as ann: %d, %v; want 1", n, err)
	}
	if err := b.TouchUserSession(ctx, "b1", "bob@example.com", T0); err != nil {
		t.Errorf("bob's session after ann ended hers: %v", err)
	}
	// A new password ends the other sessions.
	if err := a.SetPassword(ctx, "ann@example.com", "$argon2id$new", "s3", T0); err != nil {
		t.Fatal(err)
	}
	if ss, _ := b.UserSessions(ctx, "ann@example.com"); len(ss) != 1 || ss[0].ID != "s3" {
		t.Errorf("sessions after a new password: %+v, want s3 alone", ss)
	}
	if u, _ := b.User(ctx, "ann@example.com"); u.PasswordHash != "$argon2id$new" {
		t.Errorf("password hash after SetPassword: %q", u.PasswordHash)
	}

	// A reset link works once, before it expires, and ends every session.
	if err := a.CreatePasswordReset(ctx, "r1", "ann@example.com", T0, T0.Add(accounts.ResetTTL)); err != nil {
		t.Fatal(err)
	}
	if err := a.CreatePasswordReset(ctx, "r2", "nobody@example.com", T0, T0.Add(accounts.ResetTTL)); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a reset for no user: %v", err)
	}
	if _, err := b.PasswordReset(ctx, "r1", T0.Add(2*time.Hour)); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("an expired reset: %v", err)
	}
	if email, err := b.PasswordReset(ctx, "r1", T0.Add(time.Minute)); err != nil || email != "ann@example.com" {
		t.Errorf("PasswordReset = %q, %v", email, err)
	}
	if email, err := b.ResetPassword(ctx, "r1", "$argon2id$reset", T0.Add(time.Minute)); err != nil || email != "ann@example.com" {
		t.Fatalf("ResetPassword = %q, %v", email, err)
	}
	if _, err := a.ResetPassword(ctx, "r1", "$argon2id$again", T0.Add(time.Minute)); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a reset link used twice: %v", err)
	}
	if u, _ := b.User(ctx, "ann@example.com"); u.PasswordHash != "$argon2id$reset" {
		t.Errorf("password hash after the reset: %q", u.PasswordHash)
	}
	if ss, _ := b.UserSessions(ctx, "ann@example.com"); len(ss) != 0 {
		t.Errorf("sessions after a reset: %+v, want none", ss)
	}
}

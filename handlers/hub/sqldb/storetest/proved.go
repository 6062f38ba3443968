package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testResetLinksRetired checks that a used reset link, a new password and
// RetirePasswordResets each leave no other reset link of the user working.
func testResetLinksRetired(t *testing.T, open Open) {
	ctx := context.Background()
	db := open(t, 1)[0]
	for _, email := range []string{"ann@example.com", "bob@example.com"} {
		if err := db.CreateUser(ctx, accounts.User{Email: email, PasswordHash: "$argon2id$old", CreatedAt: T0, ProvedAt: T0}); err != nil {
			t.Fatal(err)
		}
	}
	reset := func(hash, email string) {
		t.Helper()
		if err := db.CreatePasswordReset(ctx, hash, email, T0, T0.Add(accounts.ResetTTL)); err != nil {
			t.Fatal(err)
		}
	}
	works := func(hash string) bool {
		_, err := db.PasswordReset(ctx, hash, T0.Add(time.Minute))
		if err != nil && !errors.Is(err, hub.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	now := T0.Add(time.Minute)

	// One of two links used: the other is refused.
	reset("r1", "ann@example.com")
	reset("r2", "ann@example.com")
	reset("b1", "bob@example.com")
	if _, err := db.ResetPassword(ctx, "r1", "$argon2id$r1", now); err != nil {
		t.Fatal(err)
	}
	if works("r2") {
		t.Error("a reset link still works after another was used")
	}
	if _, err := db.ResetPassword(ctx, "r2", "$argon2id$r2", now); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("ResetPassword with the other link: %v, want ErrNotFound", err)
	}
	if u, _ := db.User(ctx, "ann@example.com"); u.PasswordHash != "$argon2id$r1" {
		t.Errorf("password after the refused link: %q", u.PasswordHash)
	}
	if !works("b1") {
		t.Error("another user's reset link was retired")
	}

	// A new password retires them.
	reset("r3", "ann@example.com")
	if err := db.SetPassword(ctx, "ann@example.com", "$argon2id$new", "", now); err != nil {
		t.Fatal(err)
	}
	if works("r3") {
		t.Error("a reset link still works after a new password")
	}

	// So does RetirePasswordResets, as a sign-in by single sign-on calls.
	reset("r4", "ann@example.com")
	reset("r5", "ann@example.com")
	if n, err := db.RetirePasswordResets(ctx, "ann@example.com", now); err != nil || n != 2 {
		t.Errorf("RetirePasswordResets = %d, %v; want 2", n, err)
	}
	if works("r4") || works("r5") {
		t.Error("a reset link still works after RetirePasswordResets")
	}
	if !works("b1") {
		t.Error("another user's reset link was retired")
	}
}

// testProvedAddresses checks which ways of making a user prove their
// address, that an invitation to an unproved address grants nothing
// unless it was mailed, and that a mailed one takes the account from
// whoever set its first password.
func testProvedAddresses(t *testing.T, open Open) {
	ctx := context.Background()
	db := open(t, 1)[0]
	now := T0.Add(time.Minute)
	if err := db.CreateUser(ctx, accounts.User{Email: "boss@example.com", PasswordHash: "$argon2id$boss", CreatedAt: T0, ProvedAt: T0}); err != nil {
		t.Fatal(err)
	}
	for _, ws := range []string{"aaa", "wsy"} {
		if err := db.CreateWorkspace(ctx, ws, "boss@example.com", T0); err != nil {
			t.Fatal(err)
		}
	}
	invite := func(hash, ws, email string, role accounts.Role, mailed bool) {
		t.Helper()
		inv := accounts.Invitation{Workspace: ws, Email: email, Role: role, InvitedBy: "boss@example.com", CreatedAt: T0, ExpiresAt: T0.Add(accounts.InvitationTTL)}
		if err := db.CreateInvitation(ctx, hash, inv); err != nil {
			t.Fatal(err)
		}
		if mailed {
			if err := db.InvitationMailed(ctx, hash); err != nil {
				t.Fatal(err)
			}
		}
	}
	user := func(email string) accounts.User {
		t.Helper()
		u, err := db.User(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	memberships := func(email string) []string {
		ms, err := db.Memberships(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, m.Workspace)
		}
		return out
	}

	// A shown link makes an unproved user; a mailed one a proved user.
	invite("shown", "aaa", "new@example.com", accounts.Editor, false)
	invite("mailed", "aaa", "cy@example.com", accounts.Editor, true)
	if inv, _ := db.Invitation(ctx, "mailed", now); !inv.Mailed {
		t.Errorf("Invitation(mailed) = %+v, want Mailed", inv)
	}
	if _, set, err := db.AcceptInvitation(ctx, "shown", "$argon2id$attacker", "", now); err != nil || !set {
		t.Fatalf("accepting the shown link for a new user: %v %v", set, err)
	}
	if u := user("new@example.com"); u.Proved() {
		t.Error("a user made from a shown link is proved")
	}
	if _, _, err := db.AcceptInvitation(ctx, "mailed", "$argon2id$cy", "", now); err != nil {
		t.Fatal(err)
	}
	if u := user("cy@example.com"); !u.ProvedAt.Equal(now) {
		t.Errorf("a user made from a mailed link: proved at %v, want %v", u.ProvedAt, now)
	}

	// Another workspace's shown link to the unproved address grants
	// nothing, signed in as it or not, and leaves the account alone.
	if err := db.CreateUserSession(ctx, accounts.Session{ID: "s1", Email: "new@example.com", CreatedAt: now, LastSeenAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePasswordReset(ctx, "r1", "new@example.com", now, now.Add(accounts.ResetTTL)); err != nil {
		t.Fatal(err)
	}
	invite("wsy-shown", "wsy", "new@example.com", accounts.Viewer, false)
	for _, as := range []string{"", "new@example.com"} {
		if _, _, err := db.AcceptInvitation(ctx, "wsy-shown", "$argon2id$x", as, now); !errors.Is(err, accounts.ErrUnproved) {
			t.Errorf("a shown link to an unproved address, as %q: %v, want ErrUnproved", as, err)
		}
	}
	if ws := memberships("new@example.com"); len(ws) != 1 || ws[0] != "aaa" {
		t.Errorf("memberships of the unproved user = %v, want aaa alone", ws)
	}
	if u := user("new@example.com"); u.PasswordHash != "$argon2id$attacker" {
		t.Errorf("a refused invitation changed the password: %q", u.PasswordHash)
	}

	// A mailed one proves it: the new password replaces the first, every
	// session ends, every reset link is retired.
	invite("wsy-mailed", "wsy", "new@example.com", accounts.Viewer, true)
	if _, _, err := db.AcceptInvitation(ctx, "wsy-mailed", "", "", now); err == nil {
		t.Error("a mailed link to an unproved address was accepted without a new password")
	}
	inv, set, err := db.AcceptInvitation(ctx, "wsy-mailed", "$argon2id$owner", "", now)
	if err != nil || !set || inv.Workspace != "wsy" {
		t.Fatalf("a mailed link to an unproved address: %+v %v %v", inv, set, err)
	}
	if u := user("new@example.com"); u.PasswordHash != "$argon2id$owner" || !u.Proved() {
		t.Errorf("after the mailed link: %+v, want the owner's password, proved", u)
	}
	if ss, _ := db.UserSessions(ctx, "new@example.com"); len(ss) != 0 {
		t.Errorf("sessions after the mailed link: %+v, want none", ss)
	}
	if _, err := db.PasswordReset(ctx, "r1", now); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a reset link after the mailed link: %v, want ErrNotFound", err)
	}
	if ws := memberships("new@example.com"); len(ws) != 2 {
		t.Errorf("memberships after the mailed link = %v, want aaa and wsy", ws)
	}

	// ProveUser: an unproved user loses their password, sessions and
	// reset links; a proved one keeps them unless given a password.
	invite("shown2", "aaa", "dee@example.com", accounts.Viewer, false)
	if _, _, err := db.AcceptInvitation(ctx, "shown2", "$argon2id$dee", "", now); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUserSession(ctx, accounts.Session{ID: "d1", Email: "dee@example.com", CreatedAt: now, LastSeenAt: now}); err != nil {
		t.Fatal(err)
	}
	if unproved, err := db.ProveUser(ctx, "dee@example.com", "", now); err != nil || !unproved {
		t.Errorf("ProveUser(dee) = %v, %v; want unproved", unproved, err)
	}
	if u := user("dee@example.com"); u.PasswordHash != "" || !u.Proved() {
		t.Errorf("after ProveUser: %+v, want no password, proved", u)
	}
	if ss, _ := db.UserSessions(ctx, "dee@example.com"); len(ss) != 0 {
		t.Errorf("sessions after ProveUser: %+v", ss)
	}
	if unproved, err := db.ProveUser(ctx, "cy@example.com", "", now); err != nil || unproved {
		t.Errorf("ProveUser(cy) = %v, %v; want proved already", unproved, err)
	}
	if u := user("cy@example.com"); u.PasswordHash != "$argon2id$cy" {
		t.Errorf("ProveUser changed a proved user's password: %q", u.PasswordHash)
	}
	if _, err := db.ProveUser(ctx, "cy@example.com", "$argon2id$set", now); err != nil {
		t.Fatal(err)
	}
	if u := user("cy@example.com"); u.PasswordHash != "$argon2id$set" {
		t.Errorf("ProveUser with a password: %q", u.PasswordHash)
	}
	if _, err := db.ProveUser(ctx, "nobody@example.com", "", now); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("ProveUser(nobody) = %v, want ErrNotFound", err)
	}

	// A reset link, mailed to the address, proves it.
	invite("shown3", "aaa", "fay@example.com", accounts.Viewer, false)
	if _, _, err := db.AcceptInvitation(ctx, "shown3", "$argon2id$fay", "", now); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePasswordReset(ctx, "rf", "fay@example.com", now, now.Add(accounts.ResetTTL)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ResetPassword(ctx, "rf", "$argon2id$owner", now); err != nil {
		t.Fatal(err)
	}
	if u := user("fay@example.com"); !u.Proved() || u.PasswordHash != "$argon2id$owner" {
		t.Errorf("after a reset: %+v, want proved with the new password", u)
	}

	// An invitation that would take the last admin their role is refused
	// with ErrLastAdmin, and changes nothing.
	invite("demote", "wsy", "boss@example.com", accounts.Viewer, true)
	if _, _, err := db.AcceptInvitation(ctx, "demote", "", "boss@example.com", now); !errors.Is(err, accounts.ErrLastAdmin) {
		t.Errorf("an invitation demoting the last admin: %v, want ErrLastAdmin", err)
	}
	if _, err := db.Invitation(ctx, "demote", now); err != nil {
		t.Errorf("the refused invitation was used up: %v", err)
	}
}

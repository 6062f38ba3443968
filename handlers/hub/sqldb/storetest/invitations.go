package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testInvitations creates invitations and accepts them once, for a new
// user and for one that exists, through two handles at once.
func testInvitations(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	if err := a.CreateUser(ctx, accounts.User{Email: "ann@example.com", PasswordHash: "$argon2id$ann", CreatedAt: T0, ProvedAt: T0}); err != nil {
		t.Fatal(err)
	}
	invite := func(hash, email string, role accounts.Role, ttl time.Duration) {
		t.Helper()
		inv := accounts.Invitation{Workspace: accounts.DefaultWorkspace, Email: email, Role: role, InvitedBy: "boss@example.com", CreatedAt: T0, ExpiresAt: T0.Add(ttl)}
		if err := a.CreateInvitation(ctx, hash, inv); err != nil {
			t.Fatal(err)
		}
	}
	invite("new", "cy@example.com", accounts.Editor, accounts.InvitationTTL)
	invite("old", "ann@example.com", accounts.Viewer, accounts.InvitationTTL)
	invite("late", "dee@example.com", accounts.Viewer, time.Hour)
	if err := a.CreateInvitation(ctx, "x", accounts.Invitation{Workspace: "nowhere", Email: "e@example.com", Role: accounts.Viewer}); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("an invitation to a missing workspace: %v", err)
	}

	now := T0.Add(2 * time.Hour)
	if inv, err := b.Invitation(ctx, "new", now); err != nil || inv.Email != "cy@example.com" || inv.Role != accounts.Editor || inv.InvitedBy != "boss@example.com" {
		t.Errorf("Invitation(new) = %+v, %v", inv, err)
	}
	for _, hash := range []string{"late", "nope"} {
		if _, err := b.Invitation(ctx, hash, now); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("Invitation(%s) = %v, want ErrNotFound", hash, err)
		}
		if _, _, err := b.AcceptInvitation(ctx, hash, "$argon2id$x", "", now); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("AcceptInvitation(%s) = %v, want ErrNotFound", hash, err)
		}
	}
	if _, _, err := a.AcceptInvitation(ctx, "new", "", "", now); err == nil {
		t.Error("a new user was accepted without a password")
	}

	// Accepted once, whichever handle is first.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	added := make([]bool, 2)
	for i, db := range dbs {
		wg.Go(func() { _, added[i], errs[i] = db.AcceptInvitation(ctx, "new", "$argon2id$cy", "", now) })
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || !added[0] && !added[1] {
		t.Errorf("two accepts at once: %v, %v (added %v); want one to add the user and the other ErrNotFound", errs[0], errs[1], added)
	}
	if u, err := b.User(ctx, "cy@example.com"); err != nil || u.PasswordHash != "$argon2id$cy" || u.Proved() {
		t.Errorf("the invited user: %+v, %v; want the password, unproved (the link was not mailed)", u, err)
	}
	if ms, err := b.Memberships(ctx, "cy@example.com"); err != nil || len(ms) != 1 || ms[0].Role != accounts.Editor {
		t.Errorf("the invited user's memberships = %+v, %v", ms, err)
	}
	// A user who exists accepts only signed in as themselves; they keep
	// their password, and take the role.
	for _, as := range []string{"", "cy@example.com"} {
		if _, _, err := b.AcceptInvitation(ctx, "old", "$argon2id$other", as, now); !errors.Is(err, accounts.ErrNotInvitee) {
			t.Errorf("ann's invitation accepted signed in as %q: %v, want ErrNotInvitee", as, err)
		}
	}
	if ms, _ := a.Memberships(ctx, "ann@example.com"); len(ms) != 0 {
		t.Errorf("ann's memberships after refused acceptances = %+v", ms)
	}
	inv, isNew, err := b.AcceptInvitation(ctx, "old", "$argon2id$other", "ann@example.com", now)
	if err != nil || isNew || inv.Email != "ann@example.com" {
		t.Fatalf("accepting for an existing user: %+v %v %v", inv, isNew, err)
	}
	if u, _ := a.User(ctx, "ann@example.com"); u.PasswordHash != "$argon2id$ann" {
		t.Error("accepting an invitation changed an existing user's password")
	}
	if ms, _ := a.Memberships(ctx, "ann@example.com"); len(ms) != 1 || ms[0].Role != accounts.Viewer {
		t.Errorf("ann's memberships = %+v", ms)
	}
}

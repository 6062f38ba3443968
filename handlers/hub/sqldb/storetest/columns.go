package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testColumnChoices keeps each user's choice of columns per form, read
// from any handle, apart from every other user's and form's; the choices
// go with the user, and with their membership of the form's workspace.
func testColumnChoices(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	for _, email := range []string{"ann@example.com", "bob@example.com"} {
		if err := a.CreateUser(ctx, accounts.User{Email: email, PasswordHash: "$argon2id$x", CreatedAt: T0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.CreateWorkspace(ctx, "agency", "ann@example.com", T0); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateWorkspace(ctx, "bobs", "bob@example.com", T0); err != nil {
		t.Fatal(err)
	}
	if err := a.SetMember(ctx, accounts.Member{Workspace: "agency", Email: "bob@example.com", Role: accounts.Editor, CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	for site, ws := range map[string]string{"shop": "agency", "home": "bobs"} {
		if _, err := a.ClaimSite(ctx, site, ws, T0); err != nil {
			t.Fatal(err)
		}
	}
	hidden := func(email, site, slug string) []string {
		t.Helper()
		names, err := b.HiddenColumns(ctx, email, site, slug)
		if err != nil {
			t.Fatalf("HiddenColumns(%s, %s/%s): %v", email, site, slug, err)
		}
		return names
	}
	set := func(email, site, slug string, names ...string) {
		t.Helper()
		if err := a.SetHiddenColumns(ctx, email, site, slug, names, T0); err != nil {
			t.Fatalf("SetHiddenColumns(%s, %s/%s, %q): %v", email, site, slug, names, err)
		}
	}
	if got := hidden("ann@example.com", "shop", "order"); got != nil {
		t.Errorf("a choice never made: %q, want none", got)
	}
	// A column's name comes from a payload: any character is kept.
	odd := []string{"note", "line\nbreak", `"quoted"`, "nul\x00", "é"}
	set("ann@example.com", "shop", "order", odd...)
	set("bob@example.com", "shop", "order", "name")
	set("bob@example.com", "home", "contact", "message")
	if got := hidden("ann@example.com", "shop", "order"); !slices.Equal(got, odd) {
		t.Errorf("ann's choice = %q, want %q", got, odd)
	}
	if got := hidden("bob@example.com", "shop", "order"); !slices.Equal(got, []string{"name"}) {
		t.Errorf("bob's choice = %q, want name alone: ann's changed it", got)
	}
	if got := hidden("ann@example.com", "shop", "contact"); got != nil {
		t.Errorf("ann's choice of another form = %q, want none", got)
	}
	// A new choice replaces the one before; none forgets it.
	set("ann@example.com", "shop", "order", "plan")
	if got := hidden("ann@example.com", "shop", "order"); !slices.Equal(got, []string{"plan"}) {
		t.Errorf("ann's new choice = %q, want plan", got)
	}
	set("ann@example.com", "shop", "order")
	if got := hidden("ann@example.com", "shop", "order"); got != nil {
		t.Errorf("ann's choice once every column is shown = %q, want none", got)
	}
	// Leaving a workspace forgets the choices for its forms alone.
	if err := a.RemoveMember(ctx, "agency", "bob@example.com"); err != nil {
		t.Fatal(err)
	}
	if got := hidden("bob@example.com", "shop", "order"); got != nil {
		t.Errorf("bob's choice of agency's form once he left it = %q, want none", got)
	}
	if got := hidden("bob@example.com", "home", "contact"); !slices.Equal(got, []string{"message"}) {
		t.Errorf("bob's choice in his own workspace = %q, want message: leaving agency took it", got)
	}
	// A user deleted takes their choices along: made again, they have none.
	if err := a.DeleteUser(ctx, "bob@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := a.SetHiddenColumns(ctx, "bob@example.com", "home", "contact", []string{"x"}, T0); err == nil {
		t.Error("SetHiddenColumns kept a choice of a user who is gone")
	}
	if err := a.CreateUser(ctx, accounts.User{Email: "bob@example.com", PasswordHash: "$argon2id$x", CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	if got := hidden("bob@example.com", "home", "contact"); got != nil {
		t.Errorf("a deleted user's choice outlived them: %q", got)
	}
}

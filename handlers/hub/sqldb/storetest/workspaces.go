package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testWorkspaces creates workspaces, changes their members and claims
// sites, through two handles.
func testWorkspaces(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	for _, email := range []string{"ann@example.com", "bob@example.com"} {
		if err := a.CreateUser(ctx, accounts.User{Email: email, PasswordHash: "$argon2id$x", CreatedAt: T0}); err != nil {
			t.Fatal(err)
		}
	}
	// A new database has the default workspace, with no one in it.
	if w, err := b.Workspace(ctx, accounts.DefaultWorkspace); err != nil || w.Name != accounts.DefaultWorkspace {
		t.Fatalf("Workspace(default) = %+v, %v", w, err)
	}
	if err := a.CreateWorkspace(ctx, "agency", "ann@example.com", T0); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, admin string
		want        error
	}{
		{"agency", "bob@example.com", accounts.ErrExists},
		{"other", "nobody@example.com", hub.ErrNotFound},
	} {
		if err := b.CreateWorkspace(ctx, tt.name, tt.admin, T0); !errors.Is(err, tt.want) {
			t.Errorf("CreateWorkspace(%s, %s) = %v, want %v", tt.name, tt.admin, err, tt.want)
		}
	}
	if err := b.CreateWorkspace(ctx, "no/slash", "ann@example.com", T0); err == nil {
		t.Error("CreateWorkspace of an invalid name succeeded")
	}
	if _, err := b.Workspace(ctx, "other"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("a workspace whose creation failed exists: %v", err)
	}

	// Members: added, their role changed, the last admin kept.
	member := func(email string, role accounts.Role) accounts.Member {
		return accounts.Member{Workspace: "agency", Email: email, Role: role, CreatedAt: T0.Add(time.Minute)}
	}
	if err := b.SetMember(ctx, member("bob@example.com", accounts.Viewer)); err != nil {
		t.Fatal(err)
	}
	if err := b.SetMember(ctx, member("bob@example.com", accounts.Editor)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		m    accounts.Member
		want error
	}{
		{member("ann@example.com", accounts.Editor), accounts.ErrLastAdmin},
		{member("nobody@example.com", accounts.Viewer), hub.ErrNotFound},
		{accounts.Member{Workspace: "nowhere", Email: "bob@example.com", Role: accounts.Viewer}, hub.ErrNotFound},
	} {
		if err := a.SetMember(ctx, tt.m); !errors.Is(err, tt.want) {
			t.Errorf("SetMember(%+v) = %v, want %v", tt.m, err, tt.want)
		}
	}
	if err := a.SetMember(ctx, member("bob@example.com", "owner")); err == nil {
		t.Error("SetMember with an unknown role succeeded")
	}
	if err := a.RemoveMember(ctx, "agency", "ann@example.com"); !errors.Is(err, accounts.ErrLastAdmin) {
		t.Errorf("removing the last admin: %v, want ErrLastAdmin", err)
	}
	if err := a.RemoveMember(ctx, "agency", "nobody@example.com"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("removing a non-member: %v, want ErrNotFound", err)
	}
	members, err := b.Members(ctx, "agency")
	if err != nil || len(members) != 2 || members[0].Email != "ann@example.com" || members[0].Role != accounts.Admin ||
		members[1].Email != "bob@example.com" || members[1].Role != accounts.Editor || !members[1].CreatedAt.Equal(T0.Add(time.Minute)) {
		t.Errorf("Members(agency) = %+v, %v", members, err)
	}
	if err := b.SetMember(ctx, member("bob@example.com", accounts.Admin)); err != nil {
		t.Fatal(err)
	}
	if err := a.RemoveMember(ctx, "agency", "ann@example.com"); err != nil {
		t.Errorf("removing an admin beside another: %v", err)
	}
	if ms, err := a.Memberships(ctx, "ann@example.com"); err != nil || len(ms) != 0 {
		t.Errorf("Memberships(ann) after leaving = %+v, %v", ms, err)
	}
	if ms, err := a.Memberships(ctx, "bob@example.com"); err != nil || len(ms) != 1 || ms[0].Workspace != "agency" || ms[0].Role != accounts.Admin {
		t.Errorf("Memberships(bob) = %+v, %v", ms, err)
	}

	// Sites: the first claim wins; the loser learns the owner.
	if owner, err := a.ClaimSite(ctx, "acme", "agency", T0); err != nil || owner != "agency" {
		t.Errorf("ClaimSite(acme, agency) = %q, %v", owner, err)
	}
	if owner, err := b.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, T0); err != nil || owner != "agency" {
		t.Errorf("ClaimSite of a claimed site = %q, %v; want its owner, agency", owner, err)
	}
	if ws, err := b.SiteWorkspace(ctx, "acme"); err != nil || ws != "agency" {
		t.Errorf("SiteWorkspace(acme) = %q, %v", ws, err)
	}
	if _, err := b.SiteWorkspace(ctx, "unclaimed"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("SiteWorkspace of an unclaimed site: %v", err)
	}
	if sites, err := a.Sites(ctx, "agency"); err != nil || len(sites) != 1 || sites[0] != "acme" {
		t.Errorf("Sites(agency) = %v, %v", sites, err)
	}
	all, err := b.Workspaces(ctx)
	if err != nil || len(all) != 2 || all[0].Name != "agency" || all[0].Members != 1 || all[0].Sites != 1 ||
		all[1].Name != accounts.DefaultWorkspace || all[1].Members != 0 || all[1].Sites != 0 {
		t.Errorf("Workspaces = %+v, %v", all, err)
	}

	// A user's memberships go with the user.
	if err := a.DeleteUser(ctx, "bob@example.com"); err != nil {
		t.Fatal(err)
	}
	if members, err := b.Members(ctx, "agency"); err != nil || len(members) != 0 {
		t.Errorf("Members after the user was deleted = %+v, %v", members, err)
	}
}

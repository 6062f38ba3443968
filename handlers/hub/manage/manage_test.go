package manage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// sites is SiteOwners from a map of site to workspace.
type sites map[string]string

func (s sites) SiteWorkspace(_ context.Context, site string) (string, error) {
	if w, ok := s[site]; ok {
		return w, nil
	}
	return "", fmt.Errorf("site %s: %w", site, hub.ErrNotFound)
}

// audit keeps the events recorded.
type audit []accounts.Event

func (a *audit) RecordEvents(_ context.Context, events ...accounts.Event) error {
	*a = append(*a, events...)
	return nil
}

func status(err error) int {
	if err == nil {
		return 0
	}
	if e, ok := errors.AsType[*hub.Error](err); ok {
		return e.Status
	}
	return -1
}

func TestGuardSite(t *testing.T) {
	g := newGuard(Config{Sites: sites{"acme.example": "acme", "rival.example": "rival"}, Audit: new(audit)})
	editor := Need{Role: accounts.Editor, Scope: accounts.ScopeForms}
	for _, tc := range []struct {
		name  string
		actor Actor
		site  string
		want  int
	}{
		{"own site, role allows", Member(accounts.Member{Workspace: "acme", Role: accounts.Editor}, ""), "acme.example", 0},
		{"own site, role short", Member(accounts.Member{Workspace: "acme", Role: accounts.Viewer}, ""), "acme.example", http.StatusForbidden},
		{"another workspace's site, admin there", Member(accounts.Member{Workspace: "rival", Role: accounts.Admin}, ""), "acme.example", http.StatusNotFound},
		{"no such site", Member(accounts.Member{Workspace: "acme", Role: accounts.Admin}, ""), "none.example", http.StatusNotFound},
		{"token of the scope", Token(accounts.Token{Workspace: "acme", Scope: accounts.ScopeForms}, ""), "acme.example", 0},
		{"token of a narrower scope", Token(accounts.Token{Workspace: "acme", Scope: accounts.ScopeSubmissionsRead}, ""), "acme.example", http.StatusForbidden},
		{"token of another workspace", Token(accounts.Token{Workspace: "rival", Scope: accounts.ScopeAll}, ""), "acme.example", http.StatusNotFound},
		{"the zero actor", Actor{}, "acme.example", http.StatusNotFound},
		{"the operator", Operator(""), "acme.example", 0},
	} {
		if got := status(g.site(context.Background(), tc.actor, tc.site, editor)); got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
		}
	}
	if err := g.site(context.Background(), Member(accounts.Member{Workspace: "rival", Role: accounts.Admin}, ""), "acme.example", editor); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("another workspace's site: %v, want hub.ErrNotFound in the chain", err)
	}
}

func TestGuardAllow(t *testing.T) {
	g := newGuard(Config{Sites: sites{}, Audit: new(audit)})
	admin := Need{Role: accounts.Admin, Scope: accounts.ScopeAll}
	if err := g.allow(Member(accounts.Member{Workspace: "acme", Role: accounts.Admin}, ""), admin); err != nil {
		t.Errorf("admin: %v", err)
	}
	if got := status(g.allow(Member(accounts.Member{Workspace: "acme", Role: accounts.Editor}, ""), admin)); got != http.StatusForbidden {
		t.Errorf("editor: status %d, want 403", got)
	}
	if got := status(g.allow(Actor{}, Need{})); got != http.StatusForbidden {
		t.Errorf("zero actor, empty need: status %d, want 403", got)
	}
	if got := status(g.allow(Actor{Workspace: "acme"}, Need{})); got != http.StatusForbidden {
		t.Errorf("no role, empty need: status %d, want 403", got)
	}
}

func TestRecordWritesTheActorsWorkspace(t *testing.T) {
	var a audit
	g := newGuard(Config{Sites: sites{}, Audit: &a})
	g.record(context.Background(), Token(accounts.Token{Workspace: "acme", Name: "ci"}, "192.0.2.1"), accounts.ActionFormPublished, "acme.example/contact", "version 2")
	if len(a) != 1 || a[0].Workspace != "acme" || a[0].Actor != "token ci" || a[0].Client != "192.0.2.1" || a[0].Target != "acme.example/contact" {
		t.Fatalf("recorded %+v", a)
	}
}

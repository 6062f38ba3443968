package manage

import (
	"context"
	"errors"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// WorkspaceStore keeps the workspaces and the sites they own, as sqldb.DB
// does.
type WorkspaceStore interface {
	// CreateWorkspace creates a workspace with an existing user as its
	// admin; the error wraps accounts.ErrExists when one has the name, and
	// hub.ErrNotFound when there is no such user.
	CreateWorkspace(ctx context.Context, name, admin string, now time.Time) error
	// ClaimSite gives site to workspace unless another owns it, and
	// returns the owner.
	ClaimSite(ctx context.Context, site, workspace string, now time.Time) (string, error)
}

// Workspaces creates workspaces, which the operator does, and gives them
// the sites their editors create forms in.
type Workspaces struct {
	guard
	store WorkspaceStore
}

// NewWorkspaces returns the workspaces' service on store.
func NewWorkspaces(cfg Config, store WorkspaceStore) *Workspaces {
	return &Workspaces{guard: newGuard(cfg), store: store}
}

// claimSites is what claiming a site needs: what creating a form there
// needs.
var claimSites = Need{Role: accounts.Editor, Scope: accounts.ScopeForms}

// Create creates the workspace the actor acts in, with the user of admin
// as its first admin: the operator's act. The error wraps
// accounts.ErrExists when a workspace has the name, and hub.ErrNotFound
// when there is no such user.
func (s *Workspaces) Create(ctx context.Context, a Actor, admin string) error {
	if err := s.allow(a, Need{}); err != nil {
		return err
	}
	err := s.store.CreateWorkspace(ctx, a.Workspace, admin, s.cfg.Now())
	switch {
	case errors.Is(err, accounts.ErrExists), errors.Is(err, hub.ErrNotFound):
		return err
	case err != nil:
		return hub.Internal("creating a workspace", err)
	}
	s.record(ctx, a, accounts.ActionWorkspaceCreated, a.Workspace, "admin "+admin)
	return nil
}

// ClaimSite gives site to the actor's workspace unless another workspace
// owns it, and returns the owner: the actor's workspace when it owns the
// site now. Nothing is recorded: the form created there is.
func (s *Workspaces) ClaimSite(ctx context.Context, a Actor, site string) (string, error) {
	if err := s.allow(a, claimSites); err != nil {
		return "", err
	}
	owner, err := s.store.ClaimSite(ctx, site, a.Workspace, s.cfg.Now())
	if err != nil {
		return "", hub.Internal("claiming the site", err)
	}
	return owner, nil
}

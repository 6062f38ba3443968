package manage

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// MemberStore keeps the members of workspaces, as sqldb.DB does.
type MemberStore interface {
	// Members returns a workspace's members, by address.
	Members(ctx context.Context, workspace string) ([]accounts.Member, error)
	// SetMember adds a member or changes their role, and RemoveMember ends
	// a membership: both refuse with accounts.ErrLastAdmin to leave a
	// workspace without an admin, and wrap hub.ErrNotFound for a
	// workspace, user or membership that does not exist.
	SetMember(ctx context.Context, m accounts.Member) error
	RemoveMember(ctx context.Context, workspace, email string) error
}

// Members adds, changes and removes the members of a workspace: its
// admins do, in their own workspace alone, and the operator.
type Members struct {
	guard
	store MemberStore
}

// NewMembers returns the members' service on store.
func NewMembers(cfg Config, store MemberStore) *Members {
	return &Members{guard: newGuard(cfg), store: store}
}

// manageMembers is what adding, changing and removing members needs: the
// console's admins. No token scope does.
var manageMembers = Need{Role: accounts.Admin}

// errNoMember answers a member who is not one of the actor's workspace,
// whether they are one of another or of none.
var errNoMember = &hub.Error{Status: http.StatusNotFound, Message: "No such member of this workspace.", Err: hub.ErrNotFound}

// List returns the members of the actor's workspace.
func (s *Members) List(ctx context.Context, a Actor) ([]accounts.Member, error) {
	if err := s.allow(a, manageMembers); err != nil {
		return nil, err
	}
	members, err := s.store.Members(ctx, a.Workspace)
	if err != nil {
		return nil, hub.Internal("listing members", err)
	}
	return members, nil
}

// Member returns the member of the actor's workspace whose address is
// email: 404 when there is none, whichever other workspace they belong to.
func (s *Members) Member(ctx context.Context, a Actor, email string) (accounts.Member, error) {
	members, err := s.List(ctx, a)
	if err != nil {
		return accounts.Member{}, err
	}
	i := slices.IndexFunc(members, func(m accounts.Member) bool { return m.Email == email })
	if i < 0 {
		return accounts.Member{}, errNoMember
	}
	return members[i], nil
}

// Add makes the user of email a member of the actor's workspace with role,
// or gives a member that role: the operator's act, since a workspace's
// admins bring people in by invitation. The error wraps hub.ErrNotFound
// when the workspace or the user does not exist, and accounts.ErrLastAdmin
// when the change would leave the workspace without an admin.
func (s *Members) Add(ctx context.Context, a Actor, email string, role accounts.Role) error {
	if err := s.allow(a, Need{}); err != nil {
		return err
	}
	return s.set(ctx, a, email, role)
}

// SetRole gives a member of the actor's workspace another role: 404 for
// someone who is not a member of it. The error wraps accounts.ErrLastAdmin
// when the change would leave the workspace without an admin.
func (s *Members) SetRole(ctx context.Context, a Actor, email string, role accounts.Role) error {
	if _, err := s.Member(ctx, a, email); err != nil {
		return err
	}
	return s.set(ctx, a, email, role)
}

func (s *Members) set(ctx context.Context, a Actor, email string, role accounts.Role) error {
	err := s.store.SetMember(ctx, accounts.Member{Workspace: a.Workspace, Email: email, Role: role, CreatedAt: s.cfg.Now()})
	switch {
	case errors.Is(err, accounts.ErrLastAdmin), errors.Is(err, hub.ErrNotFound):
		return err
	case err != nil:
		return hub.Internal("changing a role", err)
	}
	s.record(ctx, a, accounts.ActionMemberSet, email, string(role))
	return nil
}

// Remove ends the membership of the user of email in the actor's
// workspace: 404 for someone who is not a member of it. The error wraps
// accounts.ErrLastAdmin when they are its last admin.
func (s *Members) Remove(ctx context.Context, a Actor, email string) error {
	if _, err := s.Member(ctx, a, email); err != nil {
		return err
	}
	err := s.store.RemoveMember(ctx, a.Workspace, email)
	switch {
	case errors.Is(err, accounts.ErrLastAdmin):
		return err
	case errors.Is(err, hub.ErrNotFound):
		return errNoMember
	case err != nil:
		return hub.Internal("removing a member", err)
	}
	s.record(ctx, a, accounts.ActionMemberRemoved, email, "")
	return nil
}

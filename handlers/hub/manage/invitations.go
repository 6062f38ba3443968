package manage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// InvitationStore keeps invitations by the hash of their link's token, as
// sqldb.DB does; an invitation that expired or was accepted is
// hub.ErrNotFound.
type InvitationStore interface {
	CreateInvitation(ctx context.Context, tokenHash string, inv accounts.Invitation) error
	InvitationMailed(ctx context.Context, tokenHash string) error
	Invitation(ctx context.Context, tokenHash string, now time.Time) (accounts.Invitation, error)
	// AcceptInvitation takes the address the visitor is signed in as, and
	// refuses with accounts.ErrNotInvitee, accounts.ErrUnproved or
	// accounts.ErrLastAdmin (see sqldb.DB.AcceptInvitation).
	AcceptInvitation(ctx context.Context, tokenHash, passwordHash, as string, now time.Time) (accounts.Invitation, bool, error)
	// Members returns a workspace's members, by address.
	Members(ctx context.Context, workspace string) ([]accounts.Member, error)
}

// Invitations invites people to a workspace, which its admins do in their
// own workspace alone, and accepts an invitation, which the invitee does.
type Invitations struct {
	guard
	store InvitationStore
}

// NewInvitations returns the invitations' service on store.
func NewInvitations(cfg Config, store InvitationStore) *Invitations {
	return &Invitations{guard: newGuard(cfg), store: store}
}

// invite is what inviting needs: the console's admins.
var invite = Need{Role: accounts.Admin}

// errNoInvitation answers an invitation that is not one of the actor's
// workspace, whether it is one of another or of none.
var errNoInvitation = &hub.Error{Status: http.StatusNotFound, Message: "No such invitation in this workspace.", Err: hub.ErrNotFound}

// Create invites the address email to the actor's workspace with role, and
// returns the invitation and the secret of its link, valid for
// accounts.InvitationTTL. An invitation that would take the workspace's
// last admin their role could never be accepted: it is refused with an
// error wrapping accounts.ErrLastAdmin.
func (s *Invitations) Create(ctx context.Context, a Actor, email string, role accounts.Role) (accounts.Invitation, string, error) {
	if err := s.allow(a, invite); err != nil {
		return accounts.Invitation{}, "", err
	}
	if role != accounts.Admin {
		last, err := s.lastAdmin(ctx, a.Workspace, email)
		if err != nil {
			return accounts.Invitation{}, "", err
		}
		if last {
			return accounts.Invitation{}, "", fmt.Errorf("invite %s: %w", email, accounts.ErrLastAdmin)
		}
	}
	token, now := accounts.NewLinkToken(), s.cfg.Now()
	inv := accounts.Invitation{Workspace: a.Workspace, Email: email, Role: role, InvitedBy: a.Name, CreatedAt: now, ExpiresAt: now.Add(accounts.InvitationTTL)}
	if err := s.store.CreateInvitation(ctx, accounts.HashToken(token), inv); err != nil {
		return accounts.Invitation{}, "", hub.Internal("creating an invitation", err)
	}
	s.record(ctx, a, accounts.ActionMemberInvited, email, string(role))
	return inv, token, nil
}

// lastAdmin reports whether email is the one admin of workspace.
func (s *Invitations) lastAdmin(ctx context.Context, workspace, email string) (bool, error) {
	members, err := s.store.Members(ctx, workspace)
	if err != nil {
		return false, hub.Internal("listing members", err)
	}
	admins, is := 0, false
	for _, m := range members {
		if m.Role == accounts.Admin {
			admins++
			is = is || m.Email == email
		}
	}
	return admins == 1 && is, nil
}

// Mailed records that the link of an invitation of the actor's workspace
// went out by e-mail to the invitee, and so proves the address to whoever
// opens it. An invitation of another workspace is 404.
func (s *Invitations) Mailed(ctx context.Context, a Actor, token string) error {
	if err := s.allow(a, invite); err != nil {
		return err
	}
	hash := accounts.HashToken(token)
	inv, err := s.store.Invitation(ctx, hash, s.cfg.Now())
	switch {
	case errors.Is(err, hub.ErrNotFound) || err == nil && inv.Workspace != a.Workspace && !a.operator:
		return errNoInvitation
	case err != nil:
		return hub.Internal("reading an invitation", err)
	}
	if err := s.store.InvitationMailed(ctx, hash); err != nil {
		return hub.Internal("recording an invitation mailed", err)
	}
	return nil
}

// Invitee is the visitor of an invitation's link who accepts it.
type Invitee struct {
	// SignedInAs is the address the visitor is signed in as, "" when
	// none.
	SignedInAs string
	// PasswordHash is the password the visitor chose for the account,
	// when the acceptance sets it.
	PasswordHash string
	// Reclaim is whether nobody had proved the address, which the mailed
	// link proves, and the password replaces the one whoever made the
	// account chose: the audit log says so.
	Reclaim bool
	// Client is the address the request came from.
	Client string
}

// Accept accepts the invitation whose link's secret is token, as who, and
// records it in the invitation's workspace: the invitee's act, not a
// member's. It returns the invitation and whether who set the account's
// password. The error wraps hub.ErrNotFound, accounts.ErrLastAdmin,
// accounts.ErrNotInvitee or accounts.ErrUnproved as
// sqldb.DB.AcceptInvitation's does.
func (s *Invitations) Accept(ctx context.Context, who Invitee, token string) (accounts.Invitation, bool, error) {
	inv, setPassword, err := s.store.AcceptInvitation(ctx, accounts.HashToken(token), who.PasswordHash, who.SignedInAs, s.cfg.Now())
	if err != nil {
		return inv, false, err
	}
	detail := string(inv.Role)
	if who.Reclaim {
		detail += "; address proved by the mailed link, password replaced"
	}
	s.record(ctx, Actor{Workspace: inv.Workspace, Name: inv.Email, Client: who.Client}, accounts.ActionInvitationAccepted, inv.Email, detail)
	return inv, setPassword, nil
}

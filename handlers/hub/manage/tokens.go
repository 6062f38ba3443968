package manage

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// TokenStore keeps the API tokens, as sqldb.DB does.
type TokenStore interface {
	// CreateToken stores a token; the error wraps accounts.ErrExists when
	// one has its name, and hub.ErrNotFound when its workspace does not
	// exist.
	CreateToken(ctx context.Context, t accounts.Token) error
	// Tokens returns the tokens of a workspace, or every token for "".
	Tokens(ctx context.Context, workspace string) ([]accounts.Token, error)
	// RevokeToken deletes the token named name, or returns an error
	// wrapping hub.ErrNotFound.
	RevokeToken(ctx context.Context, name string) error
}

// Tokens makes and revokes the API tokens of a workspace: its admins do,
// in their own workspace alone, and the operator, who also makes the
// hub-wide metrics tokens.
type Tokens struct {
	guard
	store TokenStore
}

// NewTokens returns the tokens' service on store.
func NewTokens(cfg Config, store TokenStore) *Tokens {
	return &Tokens{guard: newGuard(cfg), store: store}
}

// manageTokens is what making and revoking tokens needs: the console's
// admins. No token scope does: a token makes no other.
var manageTokens = Need{Role: accounts.Admin}

// errNoToken answers a token that is not one of the actor's workspace,
// whether it is one of another or of none.
var errNoToken = &hub.Error{Status: http.StatusNotFound, Message: "No such token in this workspace.", Err: hub.ErrNotFound}

// List returns the tokens of the actor's workspace; the operator's, of
// every workspace.
func (s *Tokens) List(ctx context.Context, a Actor) ([]accounts.Token, error) {
	if err := s.allow(a, manageTokens); err != nil {
		return nil, err
	}
	in := a.Workspace
	if a.operator {
		in = ""
	}
	tokens, err := s.store.Tokens(ctx, in)
	if err != nil {
		return nil, hub.Internal("listing tokens", err)
	}
	return tokens, nil
}

// Token returns the token named name of the actor's workspace: 404 when
// there is none, whichever other workspace has it.
func (s *Tokens) Token(ctx context.Context, a Actor, name string) (accounts.Token, error) {
	tokens, err := s.List(ctx, a)
	if err != nil {
		return accounts.Token{}, err
	}
	i := slices.IndexFunc(tokens, func(t accounts.Token) bool { return t.Name == name })
	if i < 0 {
		return accounts.Token{}, errNoToken
	}
	return tokens[i], nil
}

// Create makes a token of the actor's workspace named name with scope, and
// returns its secret, which is shown once and never stored. A metrics
// token belongs to no workspace: the operator's alone makes one. The error
// wraps accounts.ErrExists when a token of the hub has the name.
func (s *Tokens) Create(ctx context.Context, a Actor, name string, scope accounts.Scope) (string, error) {
	need := manageTokens
	if scope == accounts.ScopeMetrics {
		need = Need{}
	}
	if err := s.allow(a, need); err != nil {
		return "", err
	}
	secret := accounts.NewToken()
	err := s.store.CreateToken(ctx, accounts.Token{Name: name, Hash: accounts.HashToken(secret), CreatedAt: s.cfg.Now(),
		Workspace: a.Workspace, Scope: scope})
	switch {
	case errors.Is(err, accounts.ErrExists), errors.Is(err, hub.ErrNotFound):
		return "", err
	case err != nil:
		return "", hub.Internal("creating a token", err)
	}
	s.record(ctx, a, accounts.ActionTokenCreated, "token "+name, "scope "+string(scope))
	return secret, nil
}

// Revoke revokes the token named name of the actor's workspace: 404 for a
// token of another workspace, as for one that does not exist. The
// operator revokes any token, and the revocation is recorded in the
// token's workspace.
func (s *Tokens) Revoke(ctx context.Context, a Actor, name string) error {
	t, err := s.Token(ctx, a, name)
	if err != nil {
		return err
	}
	err = s.store.RevokeToken(ctx, name)
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return errNoToken
	case err != nil:
		return hub.Internal("revoking a token", err)
	}
	a.Workspace = t.Workspace
	s.record(ctx, a, accounts.ActionTokenRevoked, "token "+name, "")
	return nil
}

// Package manage holds what owners do to their data: form versions,
// publishing and rolling back, a form's settings, members and invitations,
// API tokens, deleting, marking and exporting submissions, a person's data
// and the quotas.
//
// Every change goes through a service of this package, which takes the
// Actor doing it: a member of a workspace in the console, an API token of
// one in the admin API, or the operator on the command line. A service
// refuses what is not the actor's, 404 for a site of another workspace as
// for one that does not exist, 403 for what the actor's role or scope does
// not allow, and writes the audit entry of what it did itself. The route
// tables of the console and the admin API check the same needs first, to
// answer early; they are not what keeps one workspace from another.
package manage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// Actor is who acts. Its zero value may do nothing.
type Actor struct {
	// Workspace is the workspace the actor acts in.
	Workspace string
	// Role is a member's role in Workspace; empty for a token.
	Role accounts.Role
	// Scope is a token's scope; empty for a member.
	Scope accounts.Scope
	// Name is who acts, as the audit log names them: a member's address,
	// "token NAME", or accounts.Operator.
	Name string
	// Client is the address the request came from, empty from the command
	// line.
	Client string

	operator bool
}

// Member returns the actor of a member of a workspace, acting from client.
func Member(m accounts.Member, client string) Actor {
	return Actor{Workspace: m.Workspace, Role: m.Role, Name: m.Email, Client: client}
}

// Token returns the actor of an API token, acting from client.
func Token(t accounts.Token, client string) Actor {
	return Actor{Workspace: t.Workspace, Scope: t.Scope, Name: "token " + t.Name, Client: client}
}

// Operator returns the actor of the command line, which may do anything
// in every workspace; in is the workspace it acts in, for the audit log.
func Operator(in string) Actor {
	return Actor{Workspace: in, Name: accounts.Operator, operator: true}
}

// Need is what an action needs of its actor: a role of a member, or a
// scope of a token.
type Need struct {
	Role  accounts.Role
	Scope accounts.Scope
}

// may reports whether the actor's role or scope allows what needs need.
func (a Actor) may(need Need) bool {
	switch {
	case a.operator:
		return true
	case a.Scope != "":
		return need.Scope != "" && a.Scope.Allows(need.Scope)
	}
	return need.Role != "" && a.Role.Allows(need.Role)
}

// ErrNotYours is the answer to an action on a site of a workspace that is
// not the actor's: the same as for a site that does not exist.
var ErrNotYours = fmt.Errorf("%w: not the actor's", hub.ErrNotFound)

// SiteOwners tells which workspace owns a site, as sqldb.DB does.
type SiteOwners interface {
	// SiteWorkspace returns the workspace that owns site, or an error
	// wrapping hub.ErrNotFound when none does.
	SiteWorkspace(ctx context.Context, site string) (string, error)
}

// Auditor appends to the audit log, as sqldb.DB does.
type Auditor interface {
	RecordEvents(ctx context.Context, events ...accounts.Event) error
}

// Config is what every service needs: who owns what, the audit log, the
// log and the clock.
type Config struct {
	Sites  SiteOwners
	Audit  Auditor
	Logger *slog.Logger
	// Now is the clock, time.Now when nil.
	Now func() time.Time
}

// guard checks actors and records what they did: each service embeds one.
type guard struct{ cfg Config }

func newGuard(cfg Config) guard {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return guard{cfg: cfg}
}

// allow refuses, with 403, an action in the actor's own workspace that
// their role or scope does not allow.
func (g guard) allow(a Actor, need Need) error {
	if a.operator || (a.Workspace != "" && a.may(need)) {
		return nil
	}
	if a.Workspace == "" {
		return &hub.Error{Status: http.StatusForbidden, Message: "You are in no workspace yet."}
	}
	return &hub.Error{Status: http.StatusForbidden, Message: fmt.Sprintf("%s in workspace %s may not do this.", a.what(), a.Workspace)}
}

// what names the actor's standing for a refusal.
func (a Actor) what() string {
	if a.Scope != "" {
		return fmt.Sprintf("A token of scope %s", a.Scope)
	}
	if a.Role == "" {
		return "Someone who is not a member"
	}
	return fmt.Sprintf("The role %s", a.Role)
}

// site refuses an action on site unless the actor's workspace owns it
// (404, as for a site that does not exist) and their role or scope allows
// it (403). The operator acts on every site.
func (g guard) site(ctx context.Context, a Actor, site string, need Need) error {
	if a.operator {
		return nil
	}
	owner, err := g.cfg.Sites.SiteWorkspace(ctx, site)
	if errors.Is(err, hub.ErrNotFound) || (err == nil && (owner == "" || owner != a.Workspace)) {
		return &hub.Error{Status: http.StatusNotFound, Message: "No such form.", Err: ErrNotYours}
	}
	if err != nil {
		return hub.Internal("finding the site's workspace", err)
	}
	return g.allow(a, need)
}

// record logs what the actor did and appends it to the audit log of the
// actor's workspace. The action has happened: a failure to record is
// logged as an error, and the action stands.
func (g guard) record(ctx context.Context, a Actor, action, target, detail string) {
	e := accounts.Event{Workspace: a.Workspace, At: g.cfg.Now(), Actor: a.Name, Action: action, Target: target,
		Client: a.Client, Detail: detail}
	g.cfg.Logger.InfoContext(ctx, action, slog.String("workspace", e.Workspace), slog.String("target", target),
		slog.String("detail", detail), slog.String("actor", e.Actor))
	if err := g.cfg.Audit.RecordEvents(ctx, e); err != nil {
		g.cfg.Logger.ErrorContext(ctx, "audit event not recorded", slog.Any("event", e), slog.Any("error", err))
	}
}

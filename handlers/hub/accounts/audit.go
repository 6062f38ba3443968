package accounts

import "time"

// Event is an entry of the audit log: who did what, when, from which
// address, in which workspace. It names people, tokens and forms by name,
// so that it outlives them.
type Event struct {
	ID string
	// Workspace is the workspace the event belongs to, empty for one of
	// the hub's own.
	Workspace string
	At        time.Time
	// Actor is who acted: a user's address, "token NAME", or Operator.
	Actor  string
	Action string
	// Target is what the action was on: a form "site/slug", a user's
	// address, "token NAME", a workspace.
	Target string
	// Client is the address the request came from, empty from the command
	// line.
	Client string
	// Detail says more, in a few words: a version, a role, a count.
	Detail string
}

// Operator is the actor of what is done from the command line.
const Operator = "operator"

// Actions of the audit log.
const (
	ActionSignIn             = "sign-in"
	ActionSignInFailed       = "sign-in failed"
	ActionWorkspaceCreated   = "workspace created"
	ActionMemberSet          = "member added or role changed"
	ActionMemberRemoved      = "member removed"
	ActionTokenCreated       = "token created"
	ActionTokenRevoked       = "token revoked"
	ActionFormSaved          = "form saved"
	ActionFormPublished      = "form published"
	ActionSubmissionsDeleted = "submissions deleted"
	ActionSubmissionsExport  = "submissions exported"
)

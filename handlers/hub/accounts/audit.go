package accounts

import (
	"fmt"
	"time"
)

// Event is an entry of the audit log: who did what, when, from which
// address, in which workspace. It names people, tokens and forms by name,
// so that it outlives them.
type Event struct {
	ID string `json:"id"`
	// Workspace is the workspace the event belongs to, empty for one of
	// the hub's own.
	Workspace string    `json:"workspace,omitempty"`
	At        time.Time `json:"at"`
	// Actor is who acted: a user's address, "token NAME", or Operator.
	Actor  string `json:"actor"`
	Action string `json:"action"`
	// Target is what the action was on: a form "site/slug", a user's
	// address, "token NAME", a workspace.
	Target string `json:"target"`
	// Client is the address the request came from, empty from the command
	// line.
	Client string `json:"client,omitempty"`
	// Detail says more, in a few words: a version, a role, a count.
	Detail string `json:"detail,omitempty"`
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
	ActionMemberInvited      = "member invited"
	ActionInvitationAccepted = "invitation accepted"
	ActionPasswordChanged    = "password changed"
	ActionResetRequested     = "password reset asked for"
	ActionPasswordReset      = "password reset"
	ActionAddressProved      = "address proved"
	ActionSignedUp           = "signed up"
	// ActionSetUp is the first admin made on the setup page of a hub that
	// had no user.
	ActionSetUp              = "hub set up"
	ActionQuotaSet           = "quota set"
	ActionTokenCreated       = "token created"
	ActionTokenRevoked       = "token revoked"
	ActionFormSaved          = "form saved"
	ActionFormPublished      = "form published"
	ActionSubmissionsDeleted = "submissions deleted"
	// ActionSubmissionsRestored is a deletion undone within its period.
	ActionSubmissionsRestored = "submissions restored"
	ActionSubmissionsExport   = "submissions exported"
	// ActionRecipientConfirmed is an address in a form's notify.email
	// agreeing, by the link mailed to it, to the workspace's notifications.
	ActionRecipientConfirmed = "notification address confirmed"
	// ActionBrandSet is a workspace's brand set, changed or taken away.
	ActionBrandSet = "brand set"
	// ActionImageAdded is a picture uploaded for a theme.
	ActionImageAdded = "picture uploaded"
)

// PublishedDetail says, for the audit log, which version was published
// and which was live before: publishing an earlier version is a rollback.
func PublishedDetail(version, before int64) string {
	switch {
	case before == 0:
		return fmt.Sprintf("version %d", version)
	case version < before:
		return fmt.Sprintf("version %d, rolled back from %d", version, before)
	}
	return fmt.Sprintf("version %d, was %d", version, before)
}

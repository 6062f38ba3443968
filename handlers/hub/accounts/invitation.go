package accounts

import (
	"crypto/rand"
	"encoding/base64"
	"time"
)

// InvitationTTL is how long an invitation's link works.
const InvitationTTL = 72 * time.Hour

// Invitation invites the owner of an e-mail address to a workspace with a
// role, by a link that works once until ExpiresAt. Only the hash of the
// link's token is kept (HashToken).
type Invitation struct {
	Workspace string
	Email     string
	Role      Role
	// InvitedBy is who invited: a user's address.
	InvitedBy  string
	CreatedAt  time.Time
	ExpiresAt  time.Time
	AcceptedAt time.Time
	// Mailed is whether the link went out by e-mail to the address, and so
	// proves it to whoever opens it; false when it was only shown to the
	// inviting admin, who could open it themselves.
	Mailed bool
}

// NewLinkToken returns the secret of a link sent by e-mail: 256 random bits
// in unpadded base64url, safe in a URL's path.
func NewLinkToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

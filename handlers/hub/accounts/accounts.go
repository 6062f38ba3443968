// Package accounts is the hub's owners: the people who sign in to its
// console, with passwords hashed by argon2id, their sessions; the
// workspaces they are members of, with a role each, and their quotas; the
// API tokens that automation presents to its admin API, each of a
// workspace and a scope, kept only as hashes; the links sent by e-mail;
// and the audit log of what they all did.
//
// The records live in the hub's database (see package sqldb); this package
// holds their types and the hashing, so that the console, the admin API and
// the command line agree on them.
package accounts

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
)

var (
	// ErrExists means a user with the e-mail address, a token with the
	// name, or a workspace with the name, exists already.
	ErrExists = errors.New("already exists")
	// ErrLastAdmin means a change would leave a workspace without an
	// admin.
	ErrLastAdmin = errors.New("a workspace keeps at least one admin")
	// ErrNotInvitee means an invitation to a user who exists was to be
	// accepted by someone not signed in as them: it grants nothing.
	ErrNotInvitee = errors.New("an invitation to a user is accepted by that user, signed in")
	// ErrUnproved means an invitation to an account whose address nobody
	// proved was to be accepted from a link that was not mailed to the
	// address: it grants nothing until the address is proved.
	ErrUnproved = errors.New("the address is not proved")
)

// User is an owner who signs in to the console.
type User struct {
	// Email is the address the user signs in with, in lower case.
	Email string
	// PasswordHash is the password's argon2id hash, in PHC string format;
	// empty when the user has none, and signs in by single sign-on or sets
	// one by a reset link.
	PasswordHash string
	CreatedAt    time.Time
	// ProvedAt is when the address was proved to be the user's: by a link
	// mailed to it, by the operator, or by a single sign-on provider that
	// verified it. Zero when nobody proved it: the account was made from
	// an invitation's link shown to the inviting admin, who may have set
	// its password; it reaches only the workspace whose link made it.
	ProvedAt time.Time
}

// Proved reports whether the user's address was proved to be theirs.
func (u User) Proved() bool { return !u.ProvedAt.IsZero() }

// Token is an API token, known by its name; only its hash is kept.
type Token struct {
	Name string
	// Hash is HashToken of the token.
	Hash string
	// Workspace is the workspace the token acts for, empty for a hub-wide
	// token, whose Scope is ScopeMetrics.
	Workspace string
	Scope     Scope
	CreatedAt time.Time
	// LastUsedAt is when the token was last presented, zero if never.
	LastUsedAt time.Time
}

// NormalizeEmail returns the address users sign in with: trimmed and in
// lower case, or an error when it is not a bare e-mail address.
func NormalizeEmail(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" || len(s) > 254 {
		return "", fmt.Errorf("%q is not an e-mail address", s)
	}
	return s, nil
}

// TokenPrefix begins every API token, so that one found in a log or a
// repository is recognised for what it is.
const TokenPrefix = "hft_"

// NewToken returns a new random API token: TokenPrefix then 256 random bits
// in unpadded base64url.
func NewToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// HashToken returns what is stored of a token: the hex SHA-256 of it. A
// token is 256 random bits, so a fast hash cannot be reversed by guessing,
// and it lets a token be found by its hash in one indexed lookup.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ValidTokenName reports whether s can name a token: 1 to 64 letters,
// digits, '.', '_' or '-'.
func ValidTokenName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// Session is one console session of a user, as they see it in their list.
type Session struct {
	ID         string
	Email      string
	CreatedAt  time.Time
	LastSeenAt time.Time
	Client     string
	UserAgent  string
}

// ResetTTL is how long a password reset's link works: it is as good as the
// password, so it lives an hour, and works once.
const ResetTTL = time.Hour

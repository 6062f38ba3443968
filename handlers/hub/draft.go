package hub

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// Draft is a form half filled that the hub keeps for the visitor filling
// it, to finish later (PROTOCOL.md §10, "Drafts"). It is not a submission:
// it sends no deliveries, counts toward no limit and is not in the inbox.
// The hub knows it by the hashes of its tokens only (DraftHash).
type Draft struct {
	// ID names the draft inside the hub; it is not a token.
	ID         string
	Site, Slug string
	Payload    json.RawMessage
	// Step is the id of the step the visitor was on; empty for the first.
	Step string
	// Attachments are uploads of the form the draft holds: the sweep keeps
	// them while the draft lives.
	Attachments []hubclient.Attachment
	Locale      string
	// Email is where the link was last asked to be sent; ResumeURL the
	// page it opens. Both empty when none was asked for.
	Email, ResumeURL string
	CreatedAt        time.Time
	UpdatedAt        time.Time
	ExpiresAt        time.Time
}

// DraftStore keeps drafts. A draft is found by the hash of one of its
// tokens and its form; one whose ExpiresAt has passed is not found.
type DraftStore interface {
	// CreateDraft stores d, found from now on by tokenHash, and has it hold
	// its attachments' uploads. An upload missing, of another form, that
	// belongs to a submission or is held by another draft gives an error
	// wrapping ErrUploadClaim, and nothing is stored; whether its body is
	// stored is the caller's to check. With d.Email set, the store's DraftHook runs in
	// the same transaction; mailed is what it answered.
	CreateDraft(ctx context.Context, d Draft, tokenHash string) (mailed bool, err error)
	// UpdateDraft replaces the payload, step, attachments, locale, e-mail,
	// resume URL, UpdatedAt and ExpiresAt of the draft of d.Site and d.Slug
	// that tokenHash finds, as CreateDraft stores them, releasing the
	// uploads it no longer holds, and has newHash alone find the draft
	// from then on: every earlier token is retired. A draft not found,
	// expired at d.UpdatedAt, is an error wrapping ErrNotFound.
	UpdateDraft(ctx context.Context, d Draft, tokenHash, newHash string) (mailed bool, err error)
	// DraftByToken returns the draft of site and slug tokenHash finds and
	// that has not expired at now, or an error wrapping ErrNotFound.
	DraftByToken(ctx context.Context, site, slug, tokenHash string, now time.Time) (Draft, error)
	// DraftByID returns the draft with the given id, expired or not, or an
	// error wrapping ErrNotFound.
	DraftByID(ctx context.Context, id string) (Draft, error)
	// AddDraftToken has the draft with the given id found by tokenHash as
	// well; a draft gone is an error wrapping ErrNotFound.
	AddDraftToken(ctx context.Context, id, tokenHash string) error
	// DeleteExpiredDrafts deletes at most limit drafts that expired before
	// now, with their tokens, releasing their uploads to the sweep, and
	// returns how many it deleted.
	DeleteExpiredDrafts(ctx context.Context, now time.Time, limit int) (int, error)
}

// NewDraftToken returns a fresh token for a draft: 32 random bytes in
// base64url, which the hub gives out once and keeps only as DraftHash.
func NewDraftToken() string {
	var b [32]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// DraftHash returns what the hub keeps of a draft's token: its SHA-256 in
// hex. A token is random and long, so no salt or slow hash is needed to
// make the hash useless to someone who reads the database.
func DraftHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ErrMailBudget means an address has had today's e-mails.
var ErrMailBudget = errors.New("the address has had today's e-mails")

// Package hub is the self-hosted hub's domain: the types of forms,
// their settings, submissions, uploads and the visitors' drafts (forms
// saved half filled, resumed by a token), the interfaces of what stores
// them, the validation of a payload against its schema, and Error, the one
// error type every surface answers. It imports no HTTP framework; each
// dependency and each surface has a package below it:
//
//   - protocol is the hosted-form protocol's HTTP server: the schema,
//     upload-url and submit routes, drafts, funnel counts, the signed-upload
//     endpoint of the local storage, and the rules that make it safe to
//     expose (limits, spam checks, idempotency, CORS).
//   - hubhttp is what every HTTP surface shares on Echo: the one error
//     answer, the path a log line may name, body limits.
//   - sqldb stores forms, submissions, uploads, users and tokens over
//     database/sql; sqlite and postgres open it on their database.
//   - localblob and s3blob store the files, on a directory or in a bucket.
//   - formsource finds the forms the hub serves, in a forms directory or
//     the database, and checks form files.
//   - delivery sends each stored submission's webhooks and e-mail, as jobs
//     of a River queue in the same database.
//   - manage is what owners change (form versions, members, tokens,
//     submissions, a person's data, quotas): services that take who acts,
//     refuse what is not theirs and write the audit log; the console, the
//     admin API and the command line call them.
//   - console is the owners' pages: the builder, the inbox, deliveries,
//     members, invitations, sign-in (passwords, resets, single sign-on);
//     admin is the token-guarded JSON API; accounts the domain of people:
//     users, workspaces and roles, tokens and scopes, the audit log.
//   - inbox reads and manages a form's submissions for both; quota admits
//     submissions within their workspace's quota.
//   - privacy answers data-protection requests: one person's submissions
//     and drafts, found by their e-mail address, exported or erased.
//   - funnel counts where a form's visitors go: views, starts, steps.
//   - hosted serves each form's own page, /f/{site}/{slug}, rendered and
//     posted through package handlers as an app would, calling the hub in
//     process.
//   - captcha verifies Turnstile and reCAPTCHA tokens; export writes
//     submissions as CSV or JSON; metrics counts for Prometheus.
//   - hubserver puts them together from a configuration and serves them:
//     the command hubform hub (cmd/hubform) is its flags. hubtest runs a
//     real hub for tests, as net/http/httptest runs a server.
package hub

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/hubform/hubform/hubclient"
)

// Form is a form as the hub holds it: the schema it serves and the
// server-only settings it never serves.
type Form struct {
	Site, Slug string
	// Schema is the schema without its "hub" member.
	Schema *hubclient.Schema
	// JSON is Schema encoded once, as the schema route serves it.
	JSON     []byte
	Settings Settings
	// ModTime is when the form's file last changed, or its version was
	// saved.
	ModTime time.Time
	// Tag, when set, names JSON's content in the schema's ETag in place of
	// ModTime and JSON's length, which two versions saved in one
	// millisecond could share: formsource.Parse sets it to a hash of JSON.
	Tag string
	// Version is the number of the database version served, 0 for a form
	// of the forms directory, which has no versions.
	Version int64
}

// Submission is one accepted submission.
type Submission struct {
	ID          string                 `json:"id"`
	Site        string                 `json:"site"`
	Slug        string                 `json:"form"`
	CreatedAt   time.Time              `json:"createdAt"`
	Payload     json.RawMessage        `json:"payload"`
	Attachments []hubclient.Attachment `json:"attachments"`
	ClientAddr  string                 `json:"clientAddr,omitempty"`
	UserAgent   string                 `json:"userAgent,omitempty"`
	// IdempotencyKey is the key the client sent with the submission, empty
	// when none. It is kept as long as the submission, and no other
	// submission of the same site and form may carry it.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	// FormVersion is the version of the form the submission was validated
	// against, 0 for a form of the forms directory or a submission stored
	// before versions were recorded.
	FormVersion int64 `json:"formVersion,omitempty"`
	// Spam is set when an owner marked the submission as spam, or the hub
	// flagged it.
	Spam bool `json:"spam,omitempty"`
	// SpamReasons say why the hub flagged the submission as spam; empty
	// when it did not.
	SpamReasons []string `json:"spamReasons,omitempty"`
	// Held is set while the deliveries of a submission the hub flagged
	// have not been made: marking it as not spam makes them, once.
	Held bool `json:"-"`
	// Locale is the locale the visitor used, when the client said.
	Locale string `json:"locale,omitempty"`
	// Limits are what the store enforces while storing the submission,
	// in the same transaction.
	Limits Limits `json:"-"`
	// Ending is the id of the form's ending the submission reached, as the
	// hub decided it from the values it stored (hubclient.Logic.Ending);
	// empty for none, the thank-you panel.
	Ending string `json:"ending,omitempty"`
	// Calculations are the values of the form's calculations, by name, as
	// the hub worked them out from the values it stored
	// (hubclient.Logic.Calculate); nil for a form without.
	Calculations map[string]any `json:"calculations,omitempty"`
	// DraftHash, when set, is the hash of the token of the draft the
	// submission finishes (DraftHash): the store deletes the draft in the
	// same transaction, if it is the form's.
	DraftHash string `json:"-"`
	// Tallies is what the submission adds to its form's summary (see
	// Tallies), empty when the hub did not tally it: the store then keeps
	// it untallied, for Summaries.TallySubmissions.
	Tallies string `json:"-"`
}

// Limits are the rules of a form a store enforces as it stores a
// submission, so that they hold across every hub of the database.
type Limits struct {
	// MaxSubmissions, when positive, is how many submissions not marked
	// as spam the form may hold; the store refuses one more with an error
	// wrapping ErrClosed.
	MaxSubmissions int
	// Unique lists values no other submission of the form may carry; the
	// store refuses a repeat with a *DuplicateError.
	Unique []UniqueValue
}

// UniqueValue is the value of a unique field, normalised.
type UniqueValue struct {
	Field, Value string
}

// Upload is an upload the hub signed a URL for. The PUT to that URL marks
// it uploaded; the submission naming its key claims it. Uploads never
// claimed are swept.
type Upload struct {
	Key      string
	Site     string
	Slug     string
	Filename string
	MIME     string
	Size     int64
	// CreatedAt is when the URL was signed; ExpiresAt when it stops working.
	CreatedAt time.Time
	ExpiresAt time.Time
	// UploadedAt is when the body was stored; zero before.
	UploadedAt time.Time
	// PartsID is the storage's id of the upload when the file goes in
	// parts (PartUploader); empty for one PUT.
	PartsID string
	// SubmissionID is the submission that claimed the upload; empty before.
	SubmissionID string
}

// Filter selects submissions and pages through them; the zero value
// selects all, oldest first.
type Filter struct {
	Site string
	Slug string
	// Before and After, when set, select only submissions whose ids sort
	// before, or after, theirs: a page's last id is the cursor of the next
	// page, Before when listing Newest first, After otherwise. Ids sort in
	// creation order (see NewID).
	Before, After string
	// Newest lists the newest submissions first.
	Newest bool
	// Limit, when positive, is the most submissions listed; a list shown
	// to people or answered over the network sets one, an export streams
	// them all. Counting ignores Limit and Newest.
	Limit int
	// Search, when set, selects the submissions with a value that
	// contains it, ignoring the case of ASCII letters. Field names match
	// too: the search runs over the payload's JSON text.
	Search string
	// From and To, when set, select the submissions created at or after
	// From, and before To.
	From, To time.Time
	// Spam selects by the owners' spam mark; the zero value selects all.
	Spam SpamFilter
}

// TimeCount is how many submissions were created in the interval that
// starts at Start.
type TimeCount struct {
	Start time.Time
	N     int
}

// SpamFilter selects submissions by their spam mark.
type SpamFilter int

// Values of SpamFilter.
const (
	// AnySpam selects submissions whether marked as spam or not.
	AnySpam SpamFilter = iota
	// NotSpam selects the submissions not marked as spam, as an inbox
	// shows them by default.
	NotSpam
	// OnlySpam selects the submissions marked as spam.
	OnlySpam
)

// Errors of the stores, for errors.Is.
var (
	// ErrNotFound means no form, submission, upload, delivery, user or
	// token matches: the one not-found of the hub and its stores.
	ErrNotFound = errors.New("not found")
	// ErrUploadClaim means an attachment names an upload that does not
	// exist, belongs to another form, is not uploaded yet, differs in size
	// or type, or is already claimed.
	ErrUploadClaim = errors.New("attachment does not match an unclaimed upload of this form")
	// ErrKeyUsed means a submission of the same site and form already
	// carries the idempotency key; errors.As finds a *KeyUsedError that
	// names it.
	ErrKeyUsed = errors.New("idempotency key already used")
	// ErrClosed means a form takes no more submissions: past its closing
	// time or its number of submissions.
	ErrClosed = errors.New("closed")
	// ErrDuplicate means a stored submission of the form carries a value
	// of a unique field; errors.As finds a *DuplicateError naming it.
	ErrDuplicate = errors.New("value already sent")
)

// DuplicateError is returned by a store asked to create a submission with
// the value of a unique field another submission of the form carries.
// Nothing was stored.
type DuplicateError struct {
	Field string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("a submission with this %s was already sent", e.Field)
}

// Unwrap returns ErrDuplicate.
func (e *DuplicateError) Unwrap() error { return ErrDuplicate }

// KeyUsedError is returned by a store asked to create a submission whose
// idempotency key a stored submission of the same site and form carries.
// Nothing was stored.
type KeyUsedError struct {
	Key string
	// SubmissionID is the stored submission that carries Key.
	SubmissionID string
}

func (e *KeyUsedError) Error() string {
	return fmt.Sprintf("idempotency key %q already used by submission %s", e.Key, e.SubmissionID)
}

// Unwrap returns ErrKeyUsed.
func (e *KeyUsedError) Unwrap() error { return ErrKeyUsed }

// ReservedSite is the site id the admin API's routes take, /v1/admin/...:
// no form can be served under it.
const ReservedSite = "admin"

// validName is the character set of site ids and form slugs: no dots at the
// start, no separators, nothing that needs escaping in a path or a key.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// ValidName reports whether s is usable as a site id or form slug.
func ValidName(s string) bool { return validName.MatchString(s) }

// NewID returns a submission id: 26 characters of Crockford base32, a
// millisecond timestamp then 80 random bits, so ids sort by creation time
// and cannot be guessed.
func NewID(now time.Time) string {
	var b [16]byte
	ms := uint64(now.UnixMilli())
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	rand.Read(b[6:])
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	var out [26]byte
	// 128 bits as 26 base32 digits, most significant first (the first
	// digit carries the top 3 bits).
	hi := uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 | uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
	lo := uint64(b[8])<<56 | uint64(b[9])<<48 | uint64(b[10])<<40 | uint64(b[11])<<32 | uint64(b[12])<<24 | uint64(b[13])<<16 | uint64(b[14])<<8 | uint64(b[15])
	for i := 25; i >= 0; i-- {
		out[i] = alphabet[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// Deleted is what deleting submissions removed: how many submissions, and
// the keys of the files they carried, which the caller deletes from the
// file storage once the records are gone.
type Deleted struct {
	Submissions int
	Files       []string
}

// Package hub is the self-hosted hub: the three routes of the hosted-form
// protocol, the signed-upload endpoint of its local storage, the visitors'
// drafts (forms saved half filled, resumed by a token) and counts, and the
// rules that make it safe to expose. The domain types (Form, Submission,
// Upload, Draft, Error) live here; each dependency has a package below it:
//
//   - sqldb stores forms, submissions, uploads, users and tokens over
//     database/sql; sqlite and postgres open it on their database.
//   - localblob and s3blob store the files, on a directory or in a bucket.
//   - formsource finds the forms the hub serves, in a forms directory or
//     the database, and checks form files.
//   - delivery sends each stored submission's webhooks and e-mail, as jobs
//     of a River queue in the same database.
//   - console is the owners' pages: the builder, the inbox, deliveries,
//     members, invitations, sign-in (passwords, resets, single sign-on);
//     admin is the token-guarded JSON API; accounts the domain of people:
//     users, workspaces and roles, tokens and scopes, the audit log.
//   - inbox reads and manages a form's submissions for both; quota admits
//     submissions within their workspace's quota.
//   - privacy answers data-protection requests: one person's submissions
//     and drafts, found by their e-mail address, exported or erased.
//   - manage is what owners change (form versions, submissions, a
//     person's data ...): services that take who acts, refuse what is not
//     theirs and write the audit log; console, admin and the command line
//     call them.
//   - funnel counts where a form's visitors go: views, starts, steps.
//   - hosted serves each form's own page, /f/{site}/{slug}, rendered and
//     posted through package handlers as an app would, calling the hub in
//     process.
//   - captcha verifies Turnstile and reCAPTCHA tokens; export writes
//     submissions as CSV or JSON; metrics counts for Prometheus.
//
// The command hubform hub (cmd/hubform) puts them together.
package hub

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
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

// Settings are a form's server-only settings: the member "hub" of its file.
type Settings struct {
	// CaptchaSecret is the Turnstile or reCAPTCHA secret key. Empty means
	// the hub's default secret for the form's provider.
	CaptchaSecret string `json:"captchaSecret,omitempty"`
	// RecaptchaMinScore is the lowest reCAPTCHA v3 score accepted; zero
	// means 0.5.
	RecaptchaMinScore float64 `json:"recaptchaMinScore,omitempty"`
	// RecaptchaAction, when set, must equal the token's action.
	RecaptchaAction string `json:"recaptchaAction,omitempty"`
	// MaxFileSize is the largest file accepted, in bytes; zero means
	// DefaultMaxFileSize.
	MaxFileSize int64 `json:"maxFileSize,omitempty"`
	// MaxFiles is the most files one submission may carry; zero means
	// DefaultMaxFiles.
	MaxFiles int `json:"maxFiles,omitempty"`
	// AllowedTypes lists the MIME types accepted for files, exact
	// ("application/pdf") or by family ("image/*"). Empty accepts any.
	AllowedTypes []string `json:"allowedTypes,omitempty"`
	// AllowedOrigins lists the browser origins ("https://example.com")
	// that may call the form's routes directly. Empty allows any.
	AllowedOrigins []string `json:"allowedOrigins,omitempty"`
	// Notify, when set, has the hub e-mail each submission to the form's
	// owners.
	Notify *Notify `json:"notify,omitempty"`
	// Webhooks receive each submission as a signed Standard Webhooks event.
	Webhooks []Webhook `json:"webhooks,omitempty"`
	// RetentionDays, when positive, has the hub delete the form's
	// submissions, and their files, once they are that many days old.
	// Zero keeps them until an owner deletes them.
	RetentionDays int `json:"retentionDays,omitempty"`
	// HostedPage, when false, turns off the page the hub serves for the
	// form at /f/{site}/{slug} (package hosted), for an owner who shows
	// the form only in their own app. Unset, the page is served. The
	// schema and protocol routes are unaffected either way.
	HostedPage *bool `json:"hostedPage,omitempty"`
	// Autoresponder, when set, e-mails a confirmation to the visitor who
	// sent a submission.
	Autoresponder *Autoresponder `json:"autoresponder,omitempty"`
	// ClosesAt, when set, is when the form stops taking submissions.
	ClosesAt *time.Time `json:"closesAt,omitempty"`
	// MaxSubmissions, when positive, is how many submissions the form
	// takes; flagged ones do not count.
	MaxSubmissions int `json:"maxSubmissions,omitempty"`
	// UniqueFields names fields whose value one submission of the form at
	// most may carry: "one response per person" by e-mail address.
	UniqueFields []string `json:"uniqueFields,omitempty"`
	// MinSeconds is the least time, in seconds, a person takes to fill
	// the form: a post sooner after the form was rendered is flagged as
	// spam. Unset means DefaultMinSeconds; 0 turns the time trap off.
	MinSeconds *float64 `json:"minSeconds,omitempty"`
	// Spam tunes the content checks that flag submissions as spam.
	Spam SpamChecks `json:"spam,omitzero"`
	// Resume, when true, has the hub keep drafts of the form, which
	// visitors save to finish later ("Save and continue later"). Unset, a
	// form of several steps has them; false turns them off.
	Resume *bool `json:"resume,omitempty"`
	// DraftDays is how many days a draft is kept after it was last saved;
	// zero means DefaultDraftDays.
	DraftDays int `json:"draftDays,omitempty"`
}

// Resumable reports whether the hub keeps drafts of a form of steps steps
// under st: as Resume says, or when it has several steps.
func (st Settings) Resumable(steps int) bool {
	if st.Resume != nil {
		return *st.Resume
	}
	return steps > 1
}

// DraftTTL is how long a draft of the form is kept after it was saved.
func (st Settings) DraftTTL() time.Duration {
	days := st.DraftDays
	if days <= 0 {
		days = DefaultDraftDays
	}
	return time.Duration(days) * 24 * time.Hour
}

// Autoresponder is the confirmation e-mail sent to the visitor who sent a
// submission, at the address in the field EmailField. "{{name}}" in
// Subject and Body is replaced by the value of the field called name.
type Autoresponder struct {
	EmailField string `json:"emailField"`
	Subject    string `json:"subject"`
	Body       string `json:"body"`
	// I18n overlays Subject and Body per locale ("de"), chosen by the
	// locale the visitor used.
	I18n map[string]AutoresponderText `json:"i18n,omitempty"`
}

// AutoresponderText is the subject and body of an autoresponder in one
// locale; what it leaves empty falls back to the base language.
type AutoresponderText struct {
	Subject string `json:"subject,omitempty"`
	Body    string `json:"body,omitempty"`
}

// SpamChecks tune the checks of a submission's content. Each is on by
// default; the zero value is the defaults.
type SpamChecks struct {
	// Off turns every content check off.
	Off bool `json:"off,omitempty"`
	// MaxLinks is the most links the values may hold together; unset
	// means DefaultMaxLinks, a negative number any.
	MaxLinks *int `json:"maxLinks,omitempty"`
	// LinksInTextFields, unless false, flags a link in a field that is
	// not meant to hold one (one-line text, e-mail, telephone).
	LinksInTextFields *bool `json:"linksInTextFields,omitempty"`
	// ForeignScripts, unless false, flags text written in a script that
	// none of the form's locales use.
	ForeignScripts *bool `json:"foreignScripts,omitempty"`
	// Phrases are phrases that flag a submission, besides the built-in
	// list unless BuiltinPhrases is false.
	Phrases        []string `json:"phrases,omitempty"`
	BuiltinPhrases *bool    `json:"builtinPhrases,omitempty"`
}

// Hosted reports whether the hub serves the form's page: unless the
// settings turn it off.
func (st Settings) Hosted() bool { return st.HostedPage == nil || *st.HostedPage }

// Notify is who is e-mailed each submission of a form.
type Notify struct {
	// Email lists the addresses one message per submission goes to.
	Email []string `json:"email"`
	// ReplyToField, when set, names an email field whose value becomes
	// the message's Reply-To, so that owners answer the visitor.
	ReplyToField string `json:"replyToField,omitempty"`
}

// Webhook is a receiver of a form's submissions.
type Webhook struct {
	// URL is where events are POSTed, http or https.
	URL string `json:"url"`
	// Secret signs the events: "whsec_" followed by the base64 of the key,
	// as the Standard Webhooks specification writes it.
	Secret string `json:"secret"`
}

// Key returns the key of w's secret, written as the Standard Webhooks
// specification writes it: "whsec_" and the key in standard base64, 24 to
// 64 bytes long. Its errors never repeat the secret.
func (w Webhook) Key() ([]byte, error) {
	rest, ok := strings.CutPrefix(w.Secret, "whsec_")
	if !ok {
		return nil, errors.New(`not "whsec_" followed by the base64 of the key`)
	}
	key, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return nil, errors.New(`the part after "whsec_" is not standard base64`)
	}
	if len(key) < 24 || len(key) > 64 {
		return nil, fmt.Errorf("the key is %d bytes long, not 24 to 64", len(key))
	}
	return key, nil
}

// Defaults for Settings left at zero.
const (
	DefaultMaxFileSize       = 25 << 20
	DefaultMaxFiles          = 10
	DefaultRecaptchaMinScore = 0.5
	DefaultMinSeconds        = 2
	DefaultDraftDays         = 30
	// MaxDraftDays is the longest a form may keep drafts.
	MaxDraftDays    = 365
	DefaultMaxLinks = 3
)

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
	// DraftHash, when set, is the hash of the token of the draft the
	// submission finishes (DraftHash): the store deletes the draft in the
	// same transaction, if it is the form's.
	DraftHash string `json:"-"`
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

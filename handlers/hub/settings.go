package hub

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"strings"
	"time"
)

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
	// EmbedOrigins lists the origins ("https://example.com") whose pages
	// may show the form's hosted page in a frame. Empty lets any site
	// frame it: the page is made to be embedded.
	EmbedOrigins []string `json:"embedOrigins,omitempty"`
	// Notify, when set, has the hub e-mail each submission to the form's
	// owners.
	Notify *Notify `json:"notify,omitempty"`
	// Webhooks receive each submission as a signed Standard Webhooks event.
	Webhooks []Webhook `json:"webhooks,omitempty"`
	// Destinations are team chats each submission is posted to.
	Destinations []Destination `json:"destinations,omitempty"`
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

// Destination is a team chat's incoming webhook that a form's submissions
// are posted to, as a message of the chat's own shape (package
// delivery/chat).
type Destination struct {
	// Kind is the chat service: "slack", "discord", "teams" or
	// "googlechat"; empty, the service whose address URL is.
	Kind string `json:"kind,omitempty"`
	// URL is the incoming webhook's address, https. It is a secret:
	// whoever has it may post to the chat.
	URL string `json:"url"`
}

// ID names the destination in the delivery queue and on pages, without
// its URL: the first 12 hexadecimal digits of the URL's SHA-256.
func (d Destination) ID() string {
	sum := sha256.Sum256([]byte(d.URL))
	return hex.EncodeToString(sum[:6])
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

// TimeTrapSeconds is the time trap's minimum: MinSeconds, or its default.
func (st Settings) TimeTrapSeconds() float64 {
	if st.MinSeconds == nil {
		return DefaultMinSeconds
	}
	return *st.MinSeconds
}

// LinksLimit is the most links the values may hold: MaxLinks, or its
// default; negative for any.
func (c SpamChecks) LinksLimit() int {
	if c.MaxLinks == nil {
		return DefaultMaxLinks
	}
	return *c.MaxLinks
}

// FileSizeLimit is the largest file the form takes: MaxFileSize, or its
// default.
func (st Settings) FileSizeLimit() int64 {
	if st.MaxFileSize > 0 {
		return st.MaxFileSize
	}
	return DefaultMaxFileSize
}

// FilesLimit is how many files a submission may carry: MaxFiles, or its
// default.
func (st Settings) FilesLimit() int {
	if st.MaxFiles > 0 {
		return st.MaxFiles
	}
	return DefaultMaxFiles
}

// CheckType returns why a file of type contentType is refused, or "".
// The type travels as the PUT's Content-Type header and into the database,
// so a control character, which neither takes, refuses it even where
// mime.ParseMediaType would accept it in a quoted parameter.
func (st Settings) CheckType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil || !strings.Contains(mt, "/") || strings.Contains(mt, "*") || strings.ContainsFunc(contentType, isControl) {
		return fmt.Sprintf("mime: %q is not a media type", contentType)
	}
	if len(st.AllowedTypes) == 0 {
		return ""
	}
	for _, allowed := range st.AllowedTypes {
		family, wildcard := strings.CutSuffix(allowed, "/*")
		if strings.EqualFold(allowed, mt) || wildcard && strings.EqualFold(family, strings.SplitN(mt, "/", 2)[0]) {
			return ""
		}
	}
	return fmt.Sprintf("files of type %s are not accepted; this form takes %s", mt, strings.Join(st.AllowedTypes, ", "))
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

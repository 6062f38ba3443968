package components

import (
	"cmp"
	"context"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/hubclient"
)

// HubFormProps are the props of HubForm (PROTOCOL.md §2.1).
type HubFormProps struct {
	// SiteID and FormSlug name the form on its hub.
	SiteID   string
	FormSlug string
	// Locale selects the schema's translation overlay ("de", "de-AT"
	// falls back to "de"); empty means the base language.
	Locale string
	// LoadingFallback replaces the loading skeleton.
	LoadingFallback templ.Component
	// ErrorFallback replaces the red banner shown when the schema cannot
	// be fetched; it receives the error message.
	ErrorFallback func(message string) templ.Component
	// UnconfiguredFallback replaces the amber banner shown for a form with
	// no fields or steps. nil gives the default; Nothing renders nothing.
	UnconfiguredFallback templ.Component
	// SuccessFallback replaces the thank-you panel. nil gives the default;
	// Nothing renders nothing.
	SuccessFallback templ.Component
	// ClosedFallback replaces the panel shown for a form that takes no
	// more submissions. nil gives the default; Nothing renders nothing.
	ClosedFallback templ.Component
	// InitialSchema is the schema fetched on the server: the form renders
	// on first paint. nil renders the loading state, which fetches it
	// through the load route. HubForm keeps the schema translated into
	// Locale and its conditions compiled, by this pointer, as long as the
	// schema is reachable: rendering the same pointer again skips that
	// work. A schema changed in place is noticed and prepared again.
	InitialSchema *hubclient.Schema
	// FormProps are forwarded to the form.
	FormProps FormProps
	// Routes are where the form loads and posts; zero means the handlers'
	// default routes under DefaultPrefix.
	Routes Routes
	// SubmissionKey identifies one send of this rendering of the form: the
	// form posts it back (hubclient.IdempotencyKeyField), and a hub that
	// keeps keys stores one submission however often it arrives, after a
	// double click or a retry whose answer was lost. Empty sends none.
	SubmissionKey string
	// Stamp is when the form was rendered, signed by the app: the form
	// posts it back (StampField), and the handlers tell the hub how long the
	// visitor had the form, which a bot does not take. Empty sends none.
	Stamp string
	// Signed is the app's signature of the hidden values it set and
	// marked signed (handlers.WithValues): the form posts it back
	// (SignedField), and the handlers refuse a post whose values differ
	// from those signed. Empty sends none.
	Signed string
	// Page is the address of the page the form is on, absolute: a saved
	// draft's link opens it again (hubclient.DraftPageField). Empty sends
	// none.
	Page string
	// State carries a post back into the form: the values and errors.
	State State
}

// FormProps style the form and replace its field components.
type FormProps struct {
	// Components renders fields by type, before any registry in the
	// context and the defaults.
	Components Registry
	// Class is added to the form element's classes.
	Class string
	// Attrs are added to the form element.
	Attrs templ.Attributes
}

// Routes are the handlers' routes of one form.
type Routes struct {
	// Load renders the form's ready, unconfigured or error state.
	Load string
	// Submit takes the form's post.
	Submit string
	// Logic answers a change of a field some condition reads, or some
	// text recalls, with the fields and steps whose visibility,
	// requiredness or recalled words changed.
	Logic string
	// Upload answers the script's request for an address to which the
	// browser sends a chosen file, straight to the hub's storage, and the
	// ticket the form then posts in the file's place. Empty means none:
	// files travel with the post, as without JavaScript.
	Upload string
	// Event takes the script's counts of a visitor's start and of each
	// step reached, for the form's funnel. Empty means none are sent.
	Event string
	// Save takes a post that saves the form as a draft, to finish later.
	// The form offers saving when it is set and its hub keeps drafts of it
	// (the schema's meta.resume); empty means it offers none.
	Save string
	// CSRFField and CSRFToken, when set, add a hidden field, so the form
	// passes a CSRF middleware.
	CSRFField string
	CSRFToken string
	// TurnstileScript is the Turnstile script's URL; empty means
	// Cloudflare's.
	TurnstileScript string
}

// State is what a post brings back into the form.
type State struct {
	// Values are the posted values, shown again.
	Values url.Values
	// Errors holds a message per field name.
	Errors map[string]string
	// SubmitError is the hub's refusal, shown in the error panel.
	SubmitError string
	// SaveError says why the form could not be saved as a draft, in a
	// panel of its own: the form was not sent either.
	SaveError string
	// FilesLost reports that the chosen files could not be kept (a post
	// without JavaScript), so the form asks for them again.
	FilesLost bool
	// Step is the id of the step the form opens at, a draft's: a field
	// error still opens the step that holds it.
	Step string
	// Draft is the token of the draft the form continues. The form posts
	// it back (hubclient.DraftField), so that a save saves over the draft
	// and a submission finishes it.
	Draft string
	// Kept are the files the draft kept, each shown in its field
	// (Attachment.Field) with a box the visitor unticks to drop it.
	Kept []hubclient.Attachment
	// Saved, after a save, says where the link to the draft went.
	Saved *Saved
	// Held are files of a post without JavaScript that came back: sent to
	// the hub's storage already, each shown in its field (Held.Field) with
	// a box the visitor unticks to drop it, so that they are not chosen
	// again.
	Held []Held
	// Revealed names the questions the visitor's answers brought up on
	// a post without JavaScript (see Revealed): the form was not sent,
	// and says so above them.
	Revealed []string
	// DraftGone reports that the draft a link named no longer exists: it
	// expired or was sent. The form says so above a fresh form.
	DraftGone bool
	// Ending is the id of the schema's ending the hub said the submission
	// reached (hubclient.SubmitResponse.Ending): Submitted shows it in
	// place of the thank-you panel. Empty, or an id the schema does not
	// have, shows the thank-you panel.
	Ending string
	// Focus is the key of the control the form focuses when it comes
	// (autofocus): after a group's "Add another", the new entry's first
	// field, so that the visitor types on where they were.
	Focus string
	// Score and Answers are a quiz's result as the hub sent it
	// (hubclient.SubmitResponse): Submitted shows the score and which
	// questions were answered right.
	Score   *float64
	Answers map[string]bool
}

// Held is a file the app holds for the visitor while a form comes back:
// it is in the hub's storage, and the form posts Ticket, which the app
// signed for the form and its rendering, in the field's name instead.
type Held struct {
	Field    string
	Filename string
	Ticket   string
}

// Saved is what the form says after a save: the link to the draft was
// e-mailed, or is shown to keep.
type Saved struct {
	// Email is the address the visitor asked the link at, or "".
	Email string
	// Mailed reports that the e-mail with the link is on its way.
	Mailed bool
	// Link resumes the draft; the form shows it when it was not mailed.
	Link string
	// ExpiresAt is when the hub deletes the draft.
	ExpiresAt time.Time
}

// DefaultPrefix is where the handlers mount their routes unless told
// otherwise.
const DefaultPrefix = "/hubform"

// TurnstileScript is Cloudflare's Turnstile script, rendered explicitly.
const TurnstileScript = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit&onload=hubformTurnstileReady"

// StampField is the hidden input that carries HubFormProps.Stamp.
const StampField = "_hubformStamp"

// SignedField is the hidden input that carries HubFormProps.Signed.
const SignedField = "_hubformSigned"

// CountedField marks a form whose visitor's start, and steps up to the one
// it opens at, the funnel counted already: hubform.js adds it once it has
// counted them, and a form that continues a draft carries it, so that
// neither its post nor its script counts them again.
const CountedField = "_hubformCounted"

// Nothing renders nothing. As UnconfiguredFallback, SuccessFallback or
// ClosedFallback it
// means "no output", where nil means "the default".
var Nothing templ.Component = nothing{}

type nothing struct{}

func (nothing) Render(context.Context, io.Writer) error { return nil }

// routes returns p.Routes with the default routes filled in, and the
// locale on both, so that the form is loaded and a post is answered in it.
func (p HubFormProps) routes() Routes {
	r := p.Routes
	base := DefaultPrefix + "/" + url.PathEscape(p.SiteID) + "/" + url.PathEscape(p.FormSlug)
	r.Load = withLocale(cmp.Or(r.Load, base), p.Locale)
	r.Submit = withLocale(cmp.Or(r.Submit, base+"/submit"), p.Locale)
	r.Logic = withLocale(cmp.Or(r.Logic, base+"/logic"), p.Locale)
	if r.Upload != "" {
		r.Upload = withLocale(r.Upload, p.Locale)
	}
	if r.Save != "" {
		r.Save = withLocale(r.Save, p.Locale)
	}
	if r.TurnstileScript == "" {
		r.TurnstileScript = TurnstileScript
	}
	return r
}

// loadURL is the load route with the locale.
func (p HubFormProps) loadURL() string { return p.routes().Load }

// withLocale adds the locale to the query of route, unless there is none
// or the route names one already.
func withLocale(route, locale string) string {
	if locale == "" {
		return route
	}
	sep := "?"
	if i := strings.IndexByte(route, '?'); i >= 0 {
		if q, err := url.ParseQuery(route[i+1:]); err == nil && q.Has("locale") {
			return route
		}
		sep = "&"
	}
	return route + sep + "locale=" + url.QueryEscape(locale)
}

// rootID is the id of the HubForm's outer element; the other ids derive
// from it.
func (p HubFormProps) rootID() string {
	return "hubform-" + safeID(p.SiteID) + "-" + safeID(p.FormSlug)
}

// safeID returns s with every run of characters outside A–Z, a–z, 0–9, '_'
// and '-' replaced by one '-', so that it can stand in an id. A name that
// is already safe, as names mostly are, is returned without copying.
func safeID(s string) string {
	i := 0
	for i < len(s) && idChar(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s[:i])
	for run := false; i < len(s); i++ {
		switch {
		case idChar(s[i]):
			b, run = append(b, s[i]), false
		case !run:
			b, run = append(b, '-'), true
		}
	}
	return string(b)
}

func idChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// ending returns the ending State.Ending names, translated into the
// props' locale, or nil.
func (p HubFormProps) ending() *hubclient.Ending {
	if p.State.Ending == "" || p.InitialSchema == nil {
		return nil
	}
	return schemaMemo.get(p.InitialSchema, p.Locale).l.Schema.Ending(p.State.Ending)
}

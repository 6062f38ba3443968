package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// The Settings tab's sections on what happens around a submission: the
// page after sending, the confirmation e-mail, closing and limits, the
// drafts visitors save to continue later, and the spam checks. Each edit
// changes a section only when the page showed it, which the presence of
// one of its text inputs tells, so that a post from an older page leaves
// the others as they are.

// editBehaviour applies the posted sections to d, and returns every
// problem of what the owner typed, joined; d is then not saved.
func editBehaviour(d *formFile, form url.Values, loc *time.Location) error {
	var errs []error
	if form.Has("redirectUrl") {
		errs = append(errs, editRedirect(d, form.Get("redirectUrl")))
	}
	if form.Has("arSubject") {
		errs = append(errs, editAutoresponder(d, form))
	}
	if form.Has("closesAt") {
		errs = append(errs, editLimits(d, form, loc))
	}
	if form.Has("draftDays") {
		errs = append(errs, editDrafts(d, form))
	}
	if form.Has("minSeconds") {
		errs = append(errs, editSpam(d, form))
	}
	return errors.Join(errs...)
}

// editRedirect sets the page visitors go to after a submission; empty
// shows them the thank-you panel.
func editRedirect(d *formFile, text string) error {
	text = strings.TrimSpace(text)
	if text != "" && !isWebPage(text) {
		return problem("meta.redirectUrl", "the page after sending is a full address starting with https:// or http://, such as https://example.com/thanks, not %q", text)
	}
	d.Schema.Meta.RedirectURL = text
	return nil
}

// isWebPage reports whether s is an absolute http or https URL with a
// host, which a browser can be sent to. The schema also takes a path
// (hubclient.ValidRedirect), for the app that shows the form; the hub's
// own page would find it on the hub, so the settings ask for a full
// address.
func isWebPage(s string) bool {
	return hubclient.ValidRedirect(s) && !strings.HasPrefix(s, "/")
}

// autoresponder returns the form's confirmation e-mail, nil when it has
// none.
func (d *formFile) autoresponder() (*hub.Autoresponder, error) {
	raw, ok := d.Hub["autoresponder"]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var ar hub.Autoresponder
	if err := json.Unmarshal(raw, &ar); err != nil {
		return nil, problem("hub.autoresponder", "the confirmation e-mail's settings cannot be read: fix them in the JSON file")
	}
	return &ar, nil
}

// editAutoresponder turns the confirmation e-mail on, with its field and
// texts, or off, which removes it. The texts of locales the form no longer
// translates to are kept.
func editAutoresponder(d *formFile, form url.Values) error {
	if form.Get("autoresponder") != "on" {
		d.setHub("autoresponder", nil, true)
		return nil
	}
	ar, err := d.autoresponder()
	if err != nil {
		return err
	}
	if ar == nil {
		ar = &hub.Autoresponder{}
	}
	ar.EmailField = strings.TrimSpace(form.Get("arEmailField"))
	ar.Subject = strings.TrimSpace(form.Get("arSubject"))
	ar.Body = textareaText(form.Get("arBody"))
	var errs []error
	if ar.EmailField == "" {
		errs = append(errs, problem("hub.autoresponder.emailField", "choose the e-mail field whose address the confirmation goes to"))
	}
	if ar.Subject == "" {
		errs = append(errs, problem("hub.autoresponder.subject", "the confirmation needs a subject"))
	}
	if strings.TrimSpace(ar.Body) == "" {
		errs = append(errs, problem("hub.autoresponder.body", "the confirmation needs a text"))
	}
	for _, loc := range sortedLocales(d.Schema) {
		if !form.Has("arSubject." + loc) {
			continue
		}
		t := hub.AutoresponderText{Subject: strings.TrimSpace(form.Get("arSubject." + loc)), Body: textareaText(form.Get("arBody." + loc))}
		if strings.TrimSpace(t.Body) == "" {
			t.Body = ""
		}
		if t == (hub.AutoresponderText{}) {
			delete(ar.I18n, loc)
			continue
		}
		if ar.I18n == nil {
			ar.I18n = map[string]hub.AutoresponderText{}
		}
		ar.I18n[loc] = t
	}
	if len(ar.I18n) == 0 {
		ar.I18n = nil
	}
	d.setHub("autoresponder", ar, false)
	return errors.Join(errs...)
}

// textareaText is a textarea's text with the line breaks browsers post,
// CRLF, as e-mails and JSON files write them, LF.
func textareaText(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// arTexts returns the confirmation's subject and body in loc, "" for the
// base language, as the inputs show them.
func arTexts(ar *hub.Autoresponder, loc string) (subject, body string) {
	switch {
	case ar == nil:
		return "", ""
	case loc == "":
		return ar.Subject, ar.Body
	}
	t := ar.I18n[loc]
	return t.Subject, t.Body
}

// placeholders lists the {{name}} a confirmation may hold: one for each
// field whose value is text, which leaves out files and honeypots.
func placeholders(s *hubclient.Schema) string {
	var out []string
	for _, f := range s.Fields {
		if f.Type != hubclient.FieldFile && !hubclient.IsHoneypot(f.Name) {
			out = append(out, "{{"+f.Name+"}}")
		}
	}
	return strings.Join(out, ", ")
}

// arFieldChoices are the fields the confirmation may go to: the form's
// e-mail fields, and the one the file names when it is none of them, so
// that saving the page keeps it and shows why it is wrong.
func arFieldChoices(s *hubclient.Schema, current string) []string {
	out := emailFields(s)
	if current != "" && !slices.Contains(out, current) {
		out = append(out, current)
	}
	return out
}

// uniqueTypes are the types of fields whose one value can identify a
// person's submission.
var uniqueTypes = []string{
	hubclient.FieldText, hubclient.FieldEmail, hubclient.FieldTel, hubclient.FieldNumber, hubclient.FieldURL,
	hubclient.FieldHidden, hubclient.FieldSelect, hubclient.FieldRadio, hubclient.FieldDate,
}

// uniqueChoices are the fields "one response per person" may check: those
// of uniqueTypes, and any other the file lists, so that saving the page
// keeps it and shows why it is wrong.
func uniqueChoices(s *hubclient.Schema, listed []string) []string {
	var out []string
	for _, f := range s.Fields {
		if slices.Contains(uniqueTypes, f.Type) && !hubclient.IsHoneypot(f.Name) {
			out = append(out, f.Name)
		}
	}
	for _, name := range listed {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// uniqueFields returns the fields the file makes unique.
func (d *formFile) uniqueFields() []string {
	var l []string
	_ = json.Unmarshal(d.Hub["uniqueFields"], &l)
	return l
}

// closesAt returns when the form closes, nil for never or when the file
// does not say a time.
func (d *formFile) closesAt() *time.Time {
	var t time.Time
	if raw, ok := d.Hub["closesAt"]; !ok || json.Unmarshal(raw, &t) != nil {
		return nil
	}
	return &t
}

// closesAtText is the closing time for a datetime-local input in loc:
// to the minute, or to the second or millisecond when the time has them,
// as browsers write the input's value.
func closesAtText(t *time.Time, loc *time.Location) string {
	if t == nil {
		return ""
	}
	lt := t.In(loc).Truncate(time.Millisecond)
	switch {
	case lt.Nanosecond() != 0:
		return lt.Format("2006-01-02T15:04:05.999")
	case lt.Second() != 0:
		return lt.Format("2006-01-02T15:04:05")
	}
	return lt.Format("2006-01-02T15:04")
}

// closesAtStep is the step of the closing time's input: a minute, unless
// the time has seconds, which the input then must accept.
func closesAtStep(t *time.Time) string {
	switch {
	case t == nil || t.Nanosecond() == 0 && t.Second() == 0:
		return "60"
	case t.Nanosecond() == 0:
		return "1"
	}
	return "any"
}

// closesAtLayouts are how a closing time may be typed: as datetime-local
// inputs post it (seconds and their fraction optional), and with a space
// where browsers without that input let people type one.
var closesAtLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02 15:04:05"}

// parseClosesAt reads a closing time typed in loc.
func parseClosesAt(text string, loc *time.Location) (time.Time, error) {
	for _, layout := range closesAtLayouts {
		if t, err := time.ParseInLocation(layout, text, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date and time: %q", text)
}

// editLimits sets the closing time, typed in the owner's time zone loc
// and stored in UTC, the number of submissions and the unique fields.
func editLimits(d *formFile, form url.Values, loc *time.Location) error {
	var errs []error
	old := d.closesAt()
	switch text := strings.TrimSpace(form.Get("closesAt")); {
	case text == "":
		d.setHub("closesAt", nil, true)
	case text == closesAtText(old, loc):
		// Unchanged: the file keeps its time to the nanosecond.
	default:
		t, err := parseClosesAt(text, loc)
		if err != nil {
			errs = append(errs, problem("hub.closesAt", "the closing time is a date and a time such as 2026-12-31T23:59, not %q", text))
			break
		}
		d.setHub("closesAt", t.UTC(), false)
	}
	switch text := strings.TrimSpace(form.Get("maxSubmissions")); {
	case text == "":
		d.setHub("maxSubmissions", nil, true)
	default:
		n, err := strconv.Atoi(text)
		switch {
		case err != nil:
			errs = append(errs, problem("hub.maxSubmissions", "the most submissions is a whole number such as 500, not %q", text))
		case n < 1:
			errs = append(errs, problem("hub.maxSubmissions", "the most submissions is at least 1, not %d; leave it empty for no limit", n))
		default:
			d.setHub("maxSubmissions", n, false)
		}
	}
	choices := uniqueChoices(d.Schema, d.uniqueFields())
	var unique []string
	for _, name := range choices {
		if slices.Contains(form["uniqueFields"], name) {
			unique = append(unique, name)
		}
	}
	for _, name := range form["uniqueFields"] {
		if !slices.Contains(choices, name) {
			errs = append(errs, problem("hub.uniqueFields", "the form has no field %q that can be one per person", name))
		}
	}
	d.setHub("uniqueFields", unique, len(unique) == 0)
	return errors.Join(errs...)
}

// The choices of which forms keep drafts besides the default, "", which
// leaves hub.resume out: a form of several steps keeps them.
const (
	resumeAlways = "always"
	resumeNever  = "never"
)

// editDrafts sets whether the hub keeps drafts of the form, and for how
// many days after their last save; the defaults leave both out.
func editDrafts(d *formFile, form url.Values) error {
	var errs []error
	switch choice := form.Get("resume"); choice {
	case "":
		d.setHub("resume", nil, true)
	case resumeAlways:
		d.setHub("resume", true, false)
	case resumeNever:
		d.setHub("resume", false, false)
	default:
		errs = append(errs, problem("hub.resume", "drafts are kept for forms of several steps, always or never, not %q", choice))
	}
	switch text := strings.TrimSpace(form.Get("draftDays")); {
	case text == "":
		d.setHub("draftDays", nil, true)
	default:
		n, err := strconv.Atoi(text)
		switch {
		case err != nil:
			errs = append(errs, problem("hub.draftDays", "the days drafts are kept is a whole number such as %d, not %q", hub.DefaultDraftDays, text))
		case n < 1 || n > hub.MaxDraftDays:
			errs = append(errs, problem("hub.draftDays", "drafts are kept from 1 to %d days, not %d; leave it empty for %d", hub.MaxDraftDays, n, hub.DefaultDraftDays))
		default:
			d.setHub("draftDays", n, false)
		}
	}
	return errors.Join(errs...)
}

// resumeChoice is the drafts' choice as the file sets it: "", the
// default, when hub.resume is left out or is not a boolean.
func (d *formFile) resumeChoice() string {
	var on bool
	if raw, ok := d.Hub["resume"]; !ok || json.Unmarshal(raw, &on) != nil {
		return ""
	}
	if on {
		return resumeAlways
	}
	return resumeNever
}

// draftDaysText is the days drafts are kept for their input, "" for the
// default, which a zero in the file also means.
func (d *formFile) draftDaysText() string {
	if string(d.Hub["draftDays"]) == "0" {
		return ""
	}
	return d.hubNumber("draftDays")
}

// resumeHelp says which way the default goes for a form of steps steps,
// so that the owner need not count them.
func resumeHelp(steps int) string {
	if steps > 1 {
		return "Visitors save the form to finish it later. This form has " + strconv.Itoa(steps) + " steps: by default it keeps drafts."
	}
	return "Visitors save the form to finish it later. This form has one step: by default it keeps none."
}

// maxMinSeconds bounds the time trap: a person who needs longer than an
// hour to fill a form is not what the trap is for.
const maxMinSeconds = 3600

// editSpam sets the time trap and the content checks. A check's checkbox
// checked is the default, which the file need not say.
func editSpam(d *formFile, form url.Values) error {
	var errs []error
	switch text := strings.TrimSpace(form.Get("minSeconds")); {
	case text == "":
		d.setHub("minSeconds", nil, true)
	default:
		n, err := strconv.ParseFloat(text, 64)
		switch {
		case err != nil || math.IsNaN(n) || math.IsInf(n, 0):
			errs = append(errs, problem("hub.minSeconds", "the least time to fill the form is a number of seconds such as 2 or 1.5, not %q", text))
		case n < 0 || n > maxMinSeconds:
			errs = append(errs, problem("hub.minSeconds", "the least time to fill the form is between 0 (no time trap) and %d seconds, not %s", maxMinSeconds, text))
		default:
			d.setHub("minSeconds", n, false)
		}
	}
	sc, err := d.spamChecks()
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	sc.Off = form.Get("spamChecks") != "on"
	switch text := strings.TrimSpace(form.Get("maxLinks")); {
	case text == "":
		sc.MaxLinks = nil
	case strings.EqualFold(text, "any"):
		if sc.MaxLinks == nil || *sc.MaxLinks >= 0 {
			sc.MaxLinks = new(-1)
		}
	default:
		n, err := strconv.Atoi(text)
		if err != nil {
			errs = append(errs, problem("hub.spam.maxLinks", "the most links is a whole number such as 3, or any, not %q", text))
			break
		}
		sc.MaxLinks = &n
	}
	sc.LinksInTextFields = onByDefault(sc.LinksInTextFields, form.Get("linksInTextFields") == "on")
	sc.ForeignScripts = onByDefault(sc.ForeignScripts, form.Get("foreignScripts") == "on")
	sc.BuiltinPhrases = onByDefault(sc.BuiltinPhrases, form.Get("builtinPhrases") == "on")
	sc.Phrases = lines(form.Get("phrases"))
	d.setHub("spam", sc, isDefaultSpamChecks(sc))
	return errors.Join(errs...)
}

// spamChecks returns the form's content checks as the file sets them.
func (d *formFile) spamChecks() (hub.SpamChecks, error) {
	var sc hub.SpamChecks
	if raw, ok := d.Hub["spam"]; ok && json.Unmarshal(raw, &sc) != nil {
		return sc, problem("hub.spam", "the spam settings cannot be read: fix them in the JSON file")
	}
	return sc, nil
}

// onByDefault is a check's setting after its checkbox: unset when on, the
// default, unless the file said true already, which is kept as written.
func onByDefault(old *bool, on bool) *bool {
	switch {
	case !on:
		return new(false)
	case old != nil && *old:
		return old
	}
	return nil
}

// isDefaultSpamChecks reports whether sc sets nothing, which the file
// then leaves out.
func isDefaultSpamChecks(sc hub.SpamChecks) bool {
	return !sc.Off && sc.MaxLinks == nil && sc.LinksInTextFields == nil && sc.ForeignScripts == nil &&
		len(sc.Phrases) == 0 && sc.BuiltinPhrases == nil
}

// maxLinksText is the most links for its input: "any" for no limit.
func maxLinksText(sc hub.SpamChecks) string {
	switch {
	case sc.MaxLinks == nil:
		return ""
	case *sc.MaxLinks < 0:
		return "any"
	}
	return strconv.Itoa(*sc.MaxLinks)
}

// minSecondsText is the time trap's setting for its input.
func (d *formFile) minSecondsText() string {
	var n float64
	if raw, ok := d.Hub["minSeconds"]; !ok || json.Unmarshal(raw, &n) != nil {
		return d.hubNumber("minSeconds")
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

// maxSubmissionsText is the number of submissions for its input, "" for
// no limit.
func (d *formFile) maxSubmissionsText() string {
	if string(d.Hub["maxSubmissions"]) == "0" {
		return ""
	}
	return d.hubNumber("maxSubmissions")
}

// isOn is a check's state: on unless set false.
func isOn(b *bool) bool { return b == nil || *b }

// pageLocation returns the time zone of the page's user, UTC when the
// page has none.
func pageLocation(ctx context.Context) *time.Location {
	if s := shellOf(ctx); s != nil && s.Location != nil {
		return s.Location
	}
	return time.UTC
}

// arDefaultField is the field the confirmation goes to: the one the file
// names, else the form's first e-mail field.
func arDefaultField(s *hubclient.Schema, ar *hub.Autoresponder) string {
	if ar != nil && ar.EmailField != "" {
		return ar.EmailField
	}
	if fs := emailFields(s); len(fs) > 0 {
		return fs[0]
	}
	return ""
}

// arLocalePath is the path of member of the confirmation's text in loc.
func arLocalePath(loc, member string) string {
	return fmt.Sprintf("hub.autoresponder.i18n[%q].%s", loc, member)
}

// problemIs returns the message of p's problems at the paths themselves,
// not below them, for an input that stands for a whole member; "" when
// there are none.
func (p formProps) problemIs(paths ...string) string {
	var msgs []string
	for _, pr := range p.Problems {
		if slices.Contains(paths, pr.Path) {
			msgs = append(msgs, pr.Error())
		}
	}
	return strings.Join(msgs, " ")
}

// typedIn is typedOn for one of several checkboxes of the same name,
// which each post their value when checked.
func (p formProps) typedIn(action, name, value string, on bool) bool {
	if p.TypedAt != action || p.Typed == nil {
		return on
	}
	return slices.Contains(p.Typed[name], value)
}

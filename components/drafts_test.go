package components_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// draftSchema is a form of two steps whose hub keeps drafts, with a
// required file on its second step.
func draftSchema() *hubclient.Schema {
	return &hubclient.Schema{
		Title: "Apply",
		Fields: []hubclient.Field{
			{Name: "name", Type: hubclient.FieldText, Label: "Your name", Required: true},
			{Name: "email", Type: hubclient.FieldEmail, Label: "Email", Required: true},
			{Name: "letter", Type: hubclient.FieldTextarea, Label: "Letter"},
			{Name: "cv", Type: hubclient.FieldFile, Label: "CV", Required: true, Multiple: true},
		},
		Steps: []hubclient.Step{
			{ID: "you", Title: "About you", Fields: []string{"name", "email"}},
			{ID: "work", Title: "Your work", Fields: []string{"letter", "cv"}},
		},
		Meta: hubclient.Meta{Resume: true},
	}
}

// draftProps are the props of draftSchema's form where the app offers
// saving.
func draftProps() components.HubFormProps {
	p := props(draftSchema())
	p.Routes.Save = "/hubform/acme/contact/save"
	p.Page = "https://example.com/apply?ref=news"
	return p
}

// expires is 5 March in UTC, already 6 March where it is given.
var expires = time.Date(2027, time.March, 6, 0, 30, 0, 0, time.FixedZone("CET", 3600))

// draftCases are the golden cases of saving and resuming drafts.
func draftCases() []goldenCase {
	offered := draftProps()
	offered.Locale = "de"
	offered.State.Draft = "tok-123"

	mailed := draftProps()
	mailed.State.Draft = "tok-123"
	mailed.State.Saved = &components.Saved{Email: "jane@example.com", Mailed: true, Link: "https://example.com/apply?draft=tok-123", ExpiresAt: expires}

	link := draftProps()
	link.State.Draft = "tok-123"
	link.State.Values = url.Values{hubclient.DraftEmailField: {"jane@example.com"}}
	link.State.Saved = &components.Saved{Email: "jane@example.com", Link: "https://example.com/apply?ref=news&draft=tok-123", ExpiresAt: expires}

	gone := draftProps()
	gone.State.DraftGone = true

	kept := draftProps()
	kept.State.Draft = "tok-123"
	kept.State.Kept = []hubclient.Attachment{
		{Key: "k/cv.pdf", Filename: "cv.pdf", Size: 1234, MIME: "application/pdf", Field: "cv"},
		{Key: "k/other.png", Filename: "other.png", Field: "portfolio"},
	}

	step := draftProps()
	step.State.Draft = "tok-123"
	step.State.Step = "work"

	emailError := draftProps()
	emailError.State.Step = "work"
	emailError.State.Values = url.Values{hubclient.DraftEmailField: {"jane@"}}
	emailError.State.Errors = map[string]string{hubclient.DraftEmailField: "Enter an email address."}

	return []goldenCase{
		{"save-offered", components.HubForm(offered)},
		{"save-mailed", components.HubForm(mailed)},
		{"save-link", components.HubForm(link)},
		{"draft-gone", components.HubForm(gone)},
		{"draft-kept", components.HubForm(kept)},
		{"draft-step", components.HubForm(step)},
		{"save-email-error", components.HubForm(emailError)},
	}
}

// TestSaveOffered checks when the form offers saving: the app has a save
// route and the hub keeps drafts of the form.
func TestSaveOffered(t *testing.T) {
	noRoute := draftProps()
	noRoute.Routes.Save = ""
	noResume := draftProps()
	noResume.InitialSchema.Meta.Resume = false
	tests := []struct {
		name  string
		props components.HubFormProps
		want  bool
	}{
		{"route and resume", draftProps(), true},
		{"no route", noRoute, false},
		{"hub keeps no drafts", noResume, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := renderDoc(t, components.HubForm(tc.props))
			for _, s := range []string{"form[data-hubform-save]", "[data-hubform-save-panel]", "[data-hubform-save-button]",
				`input[name="` + hubclient.DraftEmailField + `"]`, `input[name="` + hubclient.DraftStepField + `"]`, `input[name="` + hubclient.DraftPageField + `"]`} {
				if got := doc.Find(s).Length() == 1; got != tc.want {
					t.Errorf("%s rendered %v, want %v", s, got, tc.want)
				}
			}
		})
	}

	// The save route carries the locale, as the form's other routes do;
	// without a page there is no page to post.
	p := draftProps()
	p.Locale = "de-AT"
	p.Page = ""
	doc := renderDoc(t, components.HubForm(p))
	const want = "/hubform/acme/contact/save?locale=de-AT"
	if got := doc.Find("form").AttrOr("data-hubform-save", ""); got != want {
		t.Errorf("form data-hubform-save = %q, want %q", got, want)
	}
	button := doc.Find("[data-hubform-save-button]")
	for attr, want := range map[string]string{"formaction": want, "data-hx-post": want, "type": "submit", "data-hx-target": "closest [data-hubform]", "data-hx-swap": "outerHTML"} {
		if got := button.AttrOr(attr, ""); got != want {
			t.Errorf("save button %s = %q, want %q", attr, got, want)
		}
	}
	if _, ok := button.Attr("formnovalidate"); !ok {
		t.Error("save button lacks formnovalidate: unfinished fields would stop the save")
	}
	if n := doc.Find(`input[name="` + hubclient.DraftPageField + `"]`).Length(); n != 0 {
		t.Errorf("%d page inputs without a page, want none", n)
	}
	// Send stays the form's default button: Enter in a field sends.
	if n := doc.Find("[data-hubform-submit] ~ [data-hubform-save-panel]").Length(); n != 1 {
		t.Error("the save panel does not come after the submit button")
	}
}

// TestDraftToken checks that the draft's token travels with every post,
// whether or not the form offers saving: a submission finishes the draft.
func TestDraftToken(t *testing.T) {
	selector := `form input[type=hidden][name="` + hubclient.DraftField + `"]`
	for _, p := range []components.HubFormProps{draftProps(), props(draftSchema())} {
		if n := renderDoc(t, components.HubForm(p)).Find(selector).Length(); n != 0 {
			t.Errorf("without a draft the form has %d token inputs", n)
		}
		p.State.Draft = hostile("token")
		if got := renderDoc(t, components.HubForm(p)).Find(selector).AttrOr("value", ""); got != hostile("token") {
			t.Errorf("the token input holds %q, want %q", got, hostile("token"))
		}
	}
}

func TestSavedNotice(t *testing.T) {
	saved := func(s components.Saved) *goquery.Selection {
		p := draftProps()
		p.State.Saved = &s
		p.State.Errors = map[string]string{hubclient.DraftEmailField: "Enter an email address."}
		doc := renderDoc(t, components.HubForm(p))
		if _, open := doc.Find("[data-hubform-save-panel]").Attr("open"); open {
			t.Error("the save panel is open after a save")
		}
		notice := doc.Find("[data-hubform-saved]")
		if notice.Length() != 1 || notice.AttrOr("role", "") != "status" || notice.Closest("form").Length() != 0 {
			t.Fatalf("%d saved notices, role %q; want one status above the form", notice.Length(), notice.AttrOr("role", ""))
		}
		return notice
	}
	text := func(s *goquery.Selection) string {
		var ps []string
		s.Find("p").Each(func(_ int, p *goquery.Selection) { ps = append(ps, strings.Join(strings.Fields(p.Text()), " ")) })
		return strings.Join(ps, " ")
	}

	n := saved(components.Saved{Email: "jane@example.com", Mailed: true, Link: "https://example.com/?draft=t", ExpiresAt: expires})
	if want := "Saved. We e-mailed a link to jane@example.com: open it to continue, on any device, until 5 March 2027."; text(n) != want {
		t.Errorf("mailed notice %q, want %q", text(n), want)
	}
	if n.Find("a").Length() != 0 {
		t.Error("a mailed notice shows the link")
	}

	n = saved(components.Saved{Link: "https://example.com/?draft=t", ExpiresAt: expires})
	if want := "Saved. Keep this link to continue, on any device, until 5 March 2027: https://example.com/?draft=t"; text(n) != want {
		t.Errorf("link notice %q, want %q", text(n), want)
	}
	if got := n.Find("a").AttrOr("href", ""); got != "https://example.com/?draft=t" {
		t.Errorf("link notice links to %q", got)
	}

	n = saved(components.Saved{Email: "jane@example.com", Link: "javascript:alert(1)", ExpiresAt: expires})
	if want := "The link could not be e-mailed. Saved. Keep this link"; !strings.HasPrefix(text(n), want) {
		t.Errorf("unmailed notice %q, want it to start %q", text(n), want)
	}
	if got := n.Find("a").AttrOr("href", ""); strings.HasPrefix(got, "javascript:") {
		t.Errorf("link notice links to %q", got)
	}
}

func TestDraftGone(t *testing.T) {
	p := draftProps()
	p.State.DraftGone = true
	doc := renderDoc(t, components.HubForm(p))
	n := doc.Find("[data-hubform-draft-gone]")
	if n.Length() != 1 || n.AttrOr("role", "") != "status" || n.Closest("form").Length() != 0 || n.NextFiltered("form").Length() != 1 {
		t.Fatalf("%d draft-gone notices, role %q; want one status above the form", n.Length(), n.AttrOr("role", ""))
	}
	if want := components.DefaultTexts["draftGone"]; strings.TrimSpace(n.Text()) != want {
		t.Errorf("notice %q, want %q", n.Text(), want)
	}
	if n := renderDoc(t, components.HubForm(draftProps())).Find("[data-hubform-draft-gone], [data-hubform-saved]").Length(); n != 0 {
		t.Errorf("%d notices without a save or a gone draft", n)
	}
}

func TestKeptFiles(t *testing.T) {
	p := draftProps()
	p.State.Kept = []hubclient.Attachment{
		{Key: "k/1", Filename: "cv.pdf", Field: "cv"},
		{Key: "k/2", Filename: hostile("name"), Field: "cv"},
		{Key: "k/3", Filename: "elsewhere.pdf", Field: "letter"},
	}
	doc := renderDoc(t, components.HubForm(p))
	checkIDs(t, doc)
	field := doc.Find("#hubform-acme-contact-cv").Closest(".hubform-field")
	var keys, lines []string
	field.Find(`input[type=checkbox][name="` + hubclient.DraftKeepField + `"]`).Each(func(_ int, c *goquery.Selection) {
		if _, ok := c.Attr("checked"); !ok {
			t.Errorf("kept file %q is not ticked", c.AttrOr("value", ""))
		}
		if l := strings.TrimSpace(c.Closest("label").Text()); l != "Keep" {
			t.Errorf("box labelled %q, want Keep", l)
		}
		keys = append(keys, c.AttrOr("value", ""))
		lines = append(lines, doc.Find("#"+c.AttrOr("aria-describedby", "-")).Text())
	})
	if want := []string{"k/1", "k/2"}; strings.Join(keys, " ") != strings.Join(want, " ") {
		t.Errorf("kept keys %q, want %q", keys, want)
	}
	if want := []string{"cv.pdf, kept from your saved form", hostile("name") + ", kept from your saved form"}; strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("kept lines %q, want %q", lines, want)
	}
	if n := doc.Find(`[name="` + hubclient.DraftKeepField + `"]`).Length(); n != 2 {
		t.Errorf("%d keep boxes, want 2: a file of another field, or of none, shows nowhere", n)
	}
	// The kept file answers the required field; the label still marks it.
	if _, ok := doc.Find("#hubform-acme-contact-cv").Attr("required"); ok {
		t.Error("a required file field with a kept file is required on its input")
	}
	if field.Find(".hubform-required").Length() != 1 {
		t.Error("the field lost its required mark")
	}
	if _, ok := renderDoc(t, components.HubForm(draftProps())).Find("#hubform-acme-contact-cv").Attr("required"); !ok {
		t.Error("a required file field without a kept file is not required")
	}
}

func TestDraftStep(t *testing.T) {
	current := func(p components.HubFormProps) string {
		return renderDoc(t, components.HubForm(p)).Find("[data-hubform-current]").AttrOr("data-hubform-step", "")
	}
	p := draftProps()
	p.State.Step = "work"
	if got := current(p); got != "work" {
		t.Errorf("a draft on step work opens at %q", got)
	}
	p.State.SubmitError = "The form could not be saved. Please try again."
	if got := current(p); got != "work" {
		t.Errorf("a save refused on step work opens at %q", got)
	}
	// A field error wins.
	p.State.Errors = map[string]string{"name": "This field is required."}
	if got := current(p); got != "you" {
		t.Errorf("an error on step you opens at %q", got)
	}
	// An error of the address alone does not.
	p.State.Errors = map[string]string{hubclient.DraftEmailField: "Enter an email address."}
	if got := current(p); got != "work" {
		t.Errorf("an error of the address opens at %q, want the draft's step", got)
	}
	p.State = components.State{Step: "nowhere"}
	if got := current(p); got != "" {
		t.Errorf("an unknown step opens at %q, want the first", got)
	}
}

func TestSaveEmailError(t *testing.T) {
	p := draftProps()
	p.State.Values = url.Values{hubclient.DraftEmailField: {"jane@"}}
	p.State.Errors = map[string]string{hubclient.DraftEmailField: "Enter an email address."}
	doc := renderDoc(t, components.HubForm(p))
	checkIDs(t, doc)
	if _, open := doc.Find("[data-hubform-save-panel]").Attr("open"); !open {
		t.Error("the save panel is closed over an error")
	}
	input := doc.Find(`input[name="` + hubclient.DraftEmailField + `"]`)
	if input.AttrOr("value", "") != "jane@" || input.AttrOr("aria-invalid", "") != "true" || input.AttrOr("type", "") != "email" || input.AttrOr("autocomplete", "") != "email" {
		t.Errorf("address input %v", input.Nodes[0].Attr)
	}
	var described []string
	for _, id := range strings.Fields(input.AttrOr("aria-describedby", "")) {
		described = append(described, doc.Find("#"+id).Text())
	}
	if want := components.DefaultTexts["saveExplain"] + "|Enter an email address."; strings.Join(described, "|") != want {
		t.Errorf("address described by %q, want %q", described, want)
	}
	if got := doc.Find("[data-hubform-errors] a").AttrOr("href", ""); got != "#"+input.AttrOr("id", "-") {
		t.Errorf("error summary links to %q, want the address", got)
	}

	// Where the form offers no saving, no such error shows.
	p.Routes.Save = ""
	doc = renderDoc(t, components.HubForm(p))
	if strings.Contains(doc.Text(), "Enter an email address.") {
		t.Error("an error of the address shows in a form that offers no saving")
	}
}

// TestDraftTextsTranslate checks that an overlay translates the texts of
// saving, the placeholders filled in.
func TestDraftTextsTranslate(t *testing.T) {
	p := draftProps()
	p.Locale = "de"
	p.InitialSchema.I18n.Translations = map[string]hubclient.Translation{"de": {Texts: map[string]string{
		"saveLater":   "Speichern und später weitermachen",
		"savedMailed": "Gespeichert, Link an {email} bis {date}.",
		"draftKept":   "{name} (gespeichert)",
		"draftGone":   "Nicht mehr da.",
	}}}
	p.State.Saved = &components.Saved{Email: "a@b.c", Mailed: true, ExpiresAt: expires}
	p.State.DraftGone = true
	p.State.Kept = []hubclient.Attachment{{Key: "k", Filename: "cv.pdf", Field: "cv"}}
	doc := renderDoc(t, components.HubForm(p))
	for selector, want := range map[string]string{
		"[data-hubform-save-panel] summary": "Speichern und später weitermachen",
		"[data-hubform-saved]":              "Gespeichert, Link an a@b.c bis 2027-03-05.",
		".hubform-kept-file span":           "cv.pdf (gespeichert)",
		"[data-hubform-draft-gone]":         "Nicht mehr da.",
		"[data-hubform-save-button]":        components.DefaultTexts["saveSend"],
	} {
		if got := strings.TrimSpace(doc.Find(selector).Text()); got != want {
			t.Errorf("%s = %q, want %q", selector, got, want)
		}
	}
}

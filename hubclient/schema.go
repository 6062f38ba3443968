package hubclient

import (
	"encoding/json"
	"strings"
)

// Schema is a form as the hub serves it from the schema route (PROTOCOL.md §2.2).
// Members it does not declare are kept in Extra, at every level, so that a
// decode followed by an encode loses nothing.
type Schema struct {
	Title       string  `json:"title,omitempty"`
	Description string  `json:"description,omitempty"`
	Fields      []Field `json:"fields"`
	Steps       []Step  `json:"steps"`
	Buttons     Buttons `json:"buttons,omitzero"`
	Meta        Meta    `json:"meta,omitzero"`
	I18n        I18n    `json:"i18n,omitzero"`
	// Endings are what the visitor sees after a submission, chosen by the
	// answers: the first whose condition holds (see Logic.Ending). None
	// reached is the thank-you panel.
	Endings []Ending `json:"endings,omitempty"`
	// Calculations are values computed from the answers (Logic.Calculate);
	// the one named ScoreName is the form's score.
	Calculations []Calculation `json:"calculations,omitempty"`
	// Quiz, when set, has the visitor shown the score after a submission.
	Quiz *Quiz `json:"quiz,omitempty"`
	// Theme, when set, is how the form looks (Theme.Properties).
	Theme *Theme `json:"theme,omitempty"`
	// Submit is the schema's own submit configuration. HubForm ignores it:
	// submissions always go to the hub.
	Submit json.RawMessage `json:"submit,omitempty"`
	Extra  Extra           `json:"-"`
}

// Configured reports whether the schema has at least one field and one step;
// a schema that has not is shown in the unconfigured state (PROTOCOL.md §3).
func (s *Schema) Configured() bool { return len(s.Fields) > 0 && len(s.Steps) > 0 }

// Field returns the field called name, or nil.
func (s *Schema) Field(name string) *Field {
	for i := range s.Fields {
		if s.Fields[i].Name == name {
			return &s.Fields[i]
		}
	}
	return nil
}

// Step returns the step of id, or nil.
func (s *Schema) Step(id string) *Step {
	for i := range s.Steps {
		if s.Steps[i].ID == id {
			return &s.Steps[i]
		}
	}
	return nil
}

// Field types every part of hubform understands.
const (
	FieldText       = "text"
	FieldEmail      = "email"
	FieldTel        = "tel"
	FieldURL        = "url"
	FieldNumber     = "number"
	FieldTextarea   = "textarea"
	FieldSelect     = "select"
	FieldRadio      = "radio"
	FieldCheckbox   = "checkbox"   // one boolean
	FieldCheckboxes = "checkboxes" // several values
	FieldDate       = "date"
	FieldFile       = "file"
	FieldHidden     = "hidden"
	FieldRating     = "rating"    // stars, 1 to max
	FieldScale      = "scale"     // a row of numbers, min to max
	FieldNPS        = "nps"       // net promoter score, 0 to 10
	FieldSlider     = "slider"    // a number between min and max
	FieldTime       = "time"      // HH:MM
	FieldDateTime   = "datetime"  // YYYY-MM-DDTHH:MM, local time
	FieldRanking    = "ranking"   // every option once, in the order chosen
	FieldMatrix     = "matrix"    // a choice of Columns for each of Rows
	FieldAddress    = "address"   // a postal address, in parts
	FieldSignature  = "signature" // a drawing (a PNG file), or a typed name
	FieldGroup      = "group"     // Fields asked again for each item
	// Content between the questions: no value.
	FieldHeading   = "heading"   // Text as a heading
	FieldParagraph = "paragraph" // Text in a safe subset of Markdown
	FieldImage     = "image"     // Src, described by Alt
	FieldDivider   = "divider"   // a line
)

// FieldTypes lists the known field types in a stable order.
var FieldTypes = []string{
	FieldText, FieldEmail, FieldTel, FieldURL, FieldNumber, FieldTextarea, FieldSelect,
	FieldRadio, FieldCheckbox, FieldCheckboxes, FieldDate, FieldFile, FieldHidden,
	FieldRating, FieldScale, FieldNPS, FieldSlider, FieldTime, FieldDateTime, FieldRanking,
	FieldMatrix, FieldAddress, FieldSignature, FieldGroup,
	FieldHeading, FieldParagraph, FieldImage, FieldDivider,
}

// Field is one input of a form.
type Field struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Label       string   `json:"label,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	Help        string   `json:"help,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Multiple    bool     `json:"multiple,omitempty"`
	Options     []Option `json:"options,omitempty"`
	// Rows and Columns are a matrix's questions and the choices each
	// takes, written as Options are. With Multiple, a row takes several.
	Rows    []Option `json:"rows,omitempty"`
	Columns []Option `json:"columns,omitempty"`
	// Fields are a group's child fields, asked again for each item; a
	// child takes one value of one control (text, a choice, a date, …).
	Fields []Field `json:"fields,omitempty"`
	// AddLabel is the label of a group's "Add another" button.
	AddLabel string `json:"addLabel,omitempty"`
	// Countries lists the ISO 3166-1 alpha-2 codes an address may be in
	// ("FR", "DE"); empty is every country.
	Countries []string `json:"countries,omitempty"`
	// Accept lists the file types a file field takes, as in the HTML
	// accept attribute ("image/*,.pdf").
	Accept string `json:"accept,omitempty"`

	// MinLength and MaxLength bound a text value's length in characters;
	// 0 is no bound.
	MinLength int `json:"minLength,omitempty"`
	MaxLength int `json:"maxLength,omitempty"`
	// Pattern is an RE2 expression the whole text value must match.
	Pattern string `json:"pattern,omitempty"`
	// Min and Max bound a number or a slider, a date (YYYY-MM-DD), a time
	// (HH:MM) or a date and time (YYYY-MM-DDTHH:MM). They are also the
	// ends of a scale (min 0 or 1, max up to 10) and a rating's number of
	// stars (max, 3 to 10).
	Min Bound `json:"min,omitempty"`
	Max Bound `json:"max,omitempty"`
	// Step is the granularity of a number, of a date in days, or of a time
	// in minutes, counted from Min (else from 0, 1970-01-01 or midnight);
	// 0 is any.
	Step float64 `json:"step,omitempty"`
	// MinLabel and MaxLabel name the ends of a scale or an NPS question
	// ("Not likely", "Very likely").
	MinLabel string `json:"minLabel,omitempty"`
	MaxLabel string `json:"maxLabel,omitempty"`
	// Text is what a heading says, or a paragraph: emphasis (*a*, **b**),
	// links ([text](https://…)) and lists ("- ", "1. ") of Markdown.
	Text string `json:"text,omitempty"`
	// Src is the address of an image, and Alt what it shows for who does
	// not see it (empty: an image for decoration alone).
	Src string `json:"src,omitempty"`
	Alt string `json:"alt,omitempty"`
	// MinItems and MaxItems bound how many choices of a checkboxes field,
	// files of a multiple file field, or items of a group are given; 0 is
	// no bound.
	MinItems int `json:"minItems,omitempty"`
	MaxItems int `json:"maxItems,omitempty"`
	// Messages replace the built-in text of a problem, by its code
	// ("required", "minLength", "pattern", …; see RuleNames). "{limit}" in
	// a message is replaced by the rule's value.
	Messages map[string]string `json:"messages,omitempty"`
	// VisibleIf is a JSONLogic condition over the other fields' values: the
	// field is shown, required and sent only while it holds. Empty is
	// always.
	VisibleIf json.RawMessage `json:"visibleIf,omitempty"`
	// RequiredIf is a JSONLogic condition under which the field is
	// required, as if Required were set.
	RequiredIf json.RawMessage `json:"requiredIf,omitempty"`
	// Prefill lets a visible field take its value from the page's query
	// string, by its name; hidden fields always do.
	Prefill bool `json:"prefill,omitempty"`

	Extra Extra `json:"-"`
}

// IsHoneypot reports whether a field of this name is a honeypot: "_hp" or
// any name that starts with "_hp" (PROTOCOL.md §2.8).
func IsHoneypot(name string) bool { return strings.HasPrefix(name, "_hp") }

// Option is one choice of a select, radio or checkboxes field. In a schema
// an option may also be written as a bare string, which is both its value
// and its label.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label,omitempty"`
	// Image is the address of a picture shown with a radio or checkboxes
	// option, and Alt what it shows for who does not see it; empty, the
	// label says all.
	Image string `json:"image,omitempty"`
	Alt   string `json:"alt,omitempty"`
	// Points are what choosing the option is worth in a score (the
	// JSONLogic operation "points"); Correct marks a right answer of a
	// quiz question, worth 1 point unless Points says otherwise.
	Points  float64 `json:"points,omitempty"`
	Correct bool    `json:"correct,omitempty"`
	Extra   Extra   `json:"-"`
}

// Step groups fields into one page of a multi-step form.
type Step struct {
	ID     string   `json:"id"`
	Title  string   `json:"title,omitempty"`
	Fields []string `json:"fields"`
	// VisibleIf is a JSONLogic condition over the values of fields outside
	// the step: while it does not hold, the step is skipped and its fields
	// are hidden.
	VisibleIf json.RawMessage `json:"visibleIf,omitempty"`
	Extra     Extra           `json:"-"`
}

// Buttons holds the labels of the form's buttons.
type Buttons struct {
	Submit string `json:"submit,omitempty"`
	Next   string `json:"next,omitempty"`
	Back   string `json:"back,omitempty"`
	Extra  Extra  `json:"-"`
}

// Captcha providers a schema may name in Meta.CaptchaProvider.
const (
	CaptchaTurnstile   = "turnstile"
	CaptchaRecaptchaV3 = "recaptcha-v3"
)

// Meta holds the schema's settings for the client.
type Meta struct {
	// CaptchaProvider is CaptchaTurnstile, CaptchaRecaptchaV3 or empty.
	CaptchaProvider string `json:"captchaProvider,omitempty"`
	// CaptchaSiteKey is the provider's public site key.
	CaptchaSiteKey string `json:"captchaSiteKey,omitempty"`
	// RedirectURL, when set, is the http or https page the visitor is
	// sent to after a submission, in place of the thank-you panel.
	RedirectURL string `json:"redirectUrl,omitempty"`
	// Closed is set by the hub when the form takes no more submissions:
	// HubForm shows its closed state.
	Closed bool `json:"closed,omitempty"`
	// Resume is set by a hub that keeps drafts of the form (PROTOCOL.md
	// §10, "Drafts"): HubForm offers "Save and continue later".
	Resume bool  `json:"resume,omitempty"`
	Extra  Extra `json:"-"`
}

// I18n holds the schema's translations.
type I18n struct {
	// Translations maps a locale ("de", "pt-BR") to its overlay.
	Translations map[string]Translation `json:"translations,omitempty"`
	Extra        Extra                  `json:"-"`
}

// Translation is the overlay of one locale. What it leaves out falls back to
// the schema's base language.
type Translation struct {
	Title       string                      `json:"title,omitempty"`
	Description string                      `json:"description,omitempty"`
	Fields      map[string]FieldTranslation `json:"fields,omitempty"`
	Steps       map[string]StepTranslation  `json:"steps,omitempty"`
	Buttons     Buttons                     `json:"buttons,omitzero"`
	// Endings overlays the endings, by id.
	Endings map[string]EndingTranslation `json:"endings,omitempty"`
	// Calculations translates the calculations' labels, by name.
	Calculations map[string]string `json:"calculations,omitempty"`
	// Texts translates the built-in texts (error, thank-you and upload
	// messages) by their key.
	Texts map[string]string `json:"texts,omitempty"`
	Extra Extra             `json:"-"`
}

// FieldTranslation overlays one field; Options maps an option value to its
// translated label.
type FieldTranslation struct {
	Label       string            `json:"label,omitempty"`
	Placeholder string            `json:"placeholder,omitempty"`
	Help        string            `json:"help,omitempty"`
	Options     map[string]string `json:"options,omitempty"`
	// Rows and Columns map a matrix's row and column values to their
	// translated labels.
	Rows     map[string]string `json:"rows,omitempty"`
	Columns  map[string]string `json:"columns,omitempty"`
	MinLabel string            `json:"minLabel,omitempty"`
	MaxLabel string            `json:"maxLabel,omitempty"`
	Text     string            `json:"text,omitempty"`
	Alt      string            `json:"alt,omitempty"`
	// AddLabel and Fields translate a group's "Add another" button and its
	// fields, by name.
	AddLabel string                      `json:"addLabel,omitempty"`
	Fields   map[string]FieldTranslation `json:"fields,omitempty"`
	// Messages translates the field's own problem messages, by code.
	Messages map[string]string `json:"messages,omitempty"`
	Extra    Extra             `json:"-"`
}

// StepTranslation overlays one step.
type StepTranslation struct {
	Title string `json:"title,omitempty"`
	Extra Extra  `json:"-"`
}

// IsZero reports whether b holds nothing, so that it is left out of the
// encoding whether its maps are nil or empty.
func (b Buttons) IsZero() bool {
	return b.Submit == "" && b.Next == "" && b.Back == "" && len(b.Extra) == 0
}

// IsZero reports whether m holds nothing.
func (m Meta) IsZero() bool {
	return m.CaptchaProvider == "" && m.CaptchaSiteKey == "" && m.RedirectURL == "" && !m.Closed && !m.Resume && len(m.Extra) == 0
}

// IsZero reports whether i holds nothing.
func (i I18n) IsZero() bool { return len(i.Translations) == 0 && len(i.Extra) == 0 }

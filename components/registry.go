package components

import (
	"context"
	"strings"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/hubclient"
)

// FieldProps is what a field component renders from.
type FieldProps struct {
	// Field is the field, translated. Its options and maps are shared with
	// the translated schema HubForm keeps for later renders: read them,
	// never change them.
	Field hubclient.Field
	// ID is the id of the field's control; for a group of choices, the id
	// of its first control.
	ID string
	// Values are the values to show, from a post.
	Values []string
	// Error is the field's error message, or "".
	Error string
	// HelpID and ErrorID are the ids of the help and error texts, for
	// aria-describedby.
	HelpID, ErrorID string
	// Texts are the built-in texts in the form's locale.
	Texts Texts
	// FilesLost reports that chosen files must be chosen again.
	FilesLost bool
	// Kept are the field's files that a draft kept. A required file field
	// with one is answered: its input must not stop the post.
	Kept []hubclient.Attachment
	// Held are the field's files held for a form that came back (see
	// State.Held); a required file field with one is answered too.
	Held []Held
	// Parts are the values to show of a composite field (a matrix, an
	// address), by part: "city" → ["Paris"].
	Parts map[string][]string
	// Locale is the form's language, for names the browser does not
	// translate (countries); empty is English.
	Locale string
	// Focus is the state's Focus: the control whose key it is takes
	// autofocus, and a group passes it to its entries.
	Focus string
	// textHTML is a paragraph's HTML with its recalled answers, when its
	// text recalls some.
	textHTML string
}

// Part returns the first value of a composite field's part, or "".
func (p FieldProps) Part(part string) string {
	if v := p.Parts[part]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Value returns the first value, or "".
func (p FieldProps) Value() string {
	if len(p.Values) == 0 {
		return ""
	}
	return p.Values[0]
}

// Has reports whether value is among the values.
func (p FieldProps) Has(value string) bool {
	for _, v := range p.Values {
		if v == value {
			return true
		}
	}
	return false
}

// DescribedBy returns the ids for aria-describedby: the help text, then the
// error when there is one.
func (p FieldProps) DescribedBy() string {
	switch {
	case p.Field.Help != "" && p.Error != "":
		return p.HelpID + " " + p.ErrorID
	case p.Field.Help != "":
		return p.HelpID
	case p.Error != "":
		return p.ErrorID
	}
	return ""
}

// Autocomplete returns the field's autocomplete token: the schema's
// "autocomplete" member, else one that fits the type, else "".
func (p FieldProps) Autocomplete() string {
	if raw, ok := p.Field.Extra["autocomplete"]; ok {
		if s := strings.Trim(string(raw), `"`); s != "" && !strings.ContainsAny(s, `\"`) {
			return s
		}
	}
	switch p.Field.Type {
	case hubclient.FieldEmail:
		return "email"
	case hubclient.FieldTel:
		return "tel"
	case hubclient.FieldURL:
		return "url"
	}
	return ""
}

// FieldComponent renders one field.
type FieldComponent func(FieldProps) templ.Component

// Registry maps a field type to its component. A field renders with the
// first component found for its type, in this order: the form's own
// (FormProps.Components), the context's (WithRegistry), the default
// (DefaultRegistry), and for a type none of them knows, Input.
type Registry map[string]FieldComponent

// DefaultRegistry returns the built-in field components, one per type of
// hubclient.FieldTypes. The map is a copy: change it freely.
func DefaultRegistry() Registry {
	return Registry{
		hubclient.FieldText:       Input,
		hubclient.FieldEmail:      Input,
		hubclient.FieldTel:        Input,
		hubclient.FieldURL:        Input,
		hubclient.FieldNumber:     Input,
		hubclient.FieldDate:       Input,
		hubclient.FieldTextarea:   Textarea,
		hubclient.FieldSelect:     Select,
		hubclient.FieldRadio:      Choices,
		hubclient.FieldCheckboxes: Choices,
		hubclient.FieldCheckbox:   Checkbox,
		hubclient.FieldFile:       FileInput,
		hubclient.FieldHidden:     Hidden,
		hubclient.FieldRating:     Rating,
		hubclient.FieldScale:      Scale,
		hubclient.FieldNPS:        Scale,
		hubclient.FieldSlider:     Slider,
		hubclient.FieldTime:       Input,
		hubclient.FieldDateTime:   Input,
		hubclient.FieldRanking:    Ranking,
		hubclient.FieldMatrix:     Matrix,
		hubclient.FieldAddress:    Address,
		hubclient.FieldSignature:  Signature,
		hubclient.FieldGroup:      Group,
		hubclient.FieldHeading:    Heading,
		hubclient.FieldParagraph:  Paragraph,
		hubclient.FieldImage:      Image,
		hubclient.FieldDivider:    Divider,
	}
}

// defaultRegistry is made in init: a group's component renders its
// children through fieldComponent, which reads it, so its initializer
// would refer to itself.
var defaultRegistry Registry

func init() { defaultRegistry = DefaultRegistry() }

type registryKey struct{}

// WithRegistry returns a context in which every HubForm renders fields with
// r first, before the defaults: an enclosing provider of field components.
func WithRegistry(ctx context.Context, r Registry) context.Context {
	return context.WithValue(ctx, registryKey{}, r)
}

// fieldComponent finds the component for a type: the form's own, the
// context's, the default, else a text input.
func fieldComponent(ctx context.Context, own Registry, fieldType string) FieldComponent {
	if c := own[fieldType]; c != nil {
		return c
	}
	if r, _ := ctx.Value(registryKey{}).(Registry); r != nil && r[fieldType] != nil {
		return r[fieldType]
	}
	if c := defaultRegistry[fieldType]; c != nil {
		return c
	}
	return Input
}

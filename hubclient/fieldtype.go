package hubclient

import (
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// valueKind is how the values of a type of field are typed: what the
// texts a form posts under the field's name become, and which JSON
// values the hub takes.
type valueKind int

const (
	textValue   valueKind = iota // one text
	numberValue                  // a number
	boolValue                    // one checkbox: true, or not given
	listValue                    // several texts, each an option
	filesValue                   // files, sent as attachments
)

// FieldType is what every layer that reads values knows of one type of
// field: how its values are typed, which rules fit it, and how a value is
// judged. Rendering belongs to the components, each type's beside the
// others'; this is the one place the value side of a type is defined.
type FieldType struct {
	kind valueKind
	// limit is the longest text value, in characters.
	limit int
	// check returns the problem of a text value, "" when it is fine.
	check func(f *Field, s string) string
	// day reads min, max and values as days rather than numbers.
	day bool
	// text says minLength, maxLength and pattern apply.
	text bool
	// options says the values are among the field's options.
	options bool
	// goType is the Go type of the field's values as handlers.Bind
	// converts them and hubform gen writes them.
	goType string
}

// fieldTypes holds the types of FieldTypes. A type not here (one a
// registry of components adds) is read as one line of text.
var fieldTypes = map[string]*FieldType{
	FieldText:       {kind: textValue, limit: MaxLineLength, text: true},
	FieldEmail:      {kind: textValue, limit: MaxLineLength, text: true, check: checkEmail},
	FieldTel:        {kind: textValue, limit: MaxLineLength, text: true, check: checkTel},
	FieldURL:        {kind: textValue, limit: MaxLineLength, text: true, check: checkURL},
	FieldTextarea:   {kind: textValue, limit: MaxTextLength, text: true},
	FieldNumber:     {kind: numberValue, goType: "float64"},
	FieldDate:       {kind: textValue, limit: MaxLineLength, day: true, check: checkDate},
	FieldSelect:     {kind: textValue, limit: MaxLineLength, options: true, check: checkOption},
	FieldRadio:      {kind: textValue, limit: MaxLineLength, options: true, check: checkOption},
	FieldCheckbox:   {kind: boolValue, goType: "bool"},
	FieldCheckboxes: {kind: listValue, options: true, goType: "[]string"},
	FieldFile:       {kind: filesValue, goType: "[]hubclient.Attachment"},
	FieldHidden:     {kind: textValue, limit: MaxLineLength},
}

// lineOfText is the type of a field whose type hubclient does not know.
var lineOfText = &FieldType{kind: textValue, limit: MaxLineLength}

// TypeOf returns what hubclient knows of the field's type; a type it does
// not know is one line of text.
func (f *Field) TypeOf() *FieldType {
	if t := fieldTypes[f.Type]; t != nil {
		return t
	}
	return lineOfText
}

// TakesOptions reports whether the type's values are among its options:
// select, radio, checkboxes.
func (t *FieldType) TakesOptions() bool { return t.options }

// TakesText reports whether minLength, maxLength and pattern apply.
func (t *FieldType) TakesText() bool { return t.text }

// TakesRange reports whether min, max and step apply: numbers and dates.
func (t *FieldType) TakesRange() bool { return t.kind == numberValue || t.day }

// IsDay reports whether min, max and values are days (YYYY-MM-DD).
func (t *FieldType) IsDay() bool { return t.day }

// IsList reports whether a value is a list of texts (checkboxes).
func (t *FieldType) IsList() bool { return t.kind == listValue }

// IsFiles reports whether the values are files, sent as attachments.
func (t *FieldType) IsFiles() bool { return t.kind == filesValue }

// GoType returns the Go type of the values, as handlers.Bind converts
// them: string unless the type says otherwise.
func (t *FieldType) GoType() string {
	if t.goType == "" {
		return "string"
	}
	return t.goType
}

// Value types the texts a form posted under the field's name, as the hub
// expects the value: text, a boolean for a checkbox, a number when the
// text reads as one, a list without its empty texts for checkboxes and
// files.
func (f *Field) Value(posted []string) any {
	first := ""
	if len(posted) > 0 {
		first = posted[0]
	}
	switch f.TypeOf().kind {
	case boolValue:
		return first == "true" || first == "on"
	case listValue, filesValue:
		items := []string{}
		for _, s := range posted {
			if s != "" {
				items = append(items, s)
			}
		}
		return items
	case numberValue:
		if n, err := strconv.ParseFloat(strings.TrimSpace(first), 64); err == nil {
			return n
		}
	}
	return first
}

func checkEmail(_ *Field, s string) string {
	if a, err := mail.ParseAddress(s); err != nil || a.Address != s || !strings.Contains(s[strings.LastIndex(s, "@"):], ".") {
		return ProblemEmail
	}
	return ""
}

func checkURL(_ *Field, s string) string {
	if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ProblemURL
	}
	return ""
}

func checkDate(_ *Field, s string) string {
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return ProblemDate
	}
	return ""
}

func checkOption(f *Field, s string) string {
	if !f.HasOption(s) {
		return ProblemChoice
	}
	return ""
}

package hubclient

import (
	"math"
	"net/mail"
	"net/url"
	"slices"
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
	rankValue                    // every option once, in order
	filesValue                   // files, sent as attachments
	objectValue                  // an object of parts, each posted as name.part
	signValue                    // a drawing, as a file, or a typed name
	groupValue                   // a list of objects, one an item
	noValue                      // content between questions: nothing is sent
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
	// ranged, when set, reads a value and the bounds min and max as a
	// number on one line (a number, days, minutes), so that min, max and
	// step apply; what it is called in a message.
	ranged *ValueRange
	// scale gives the ends of a type whose values are the whole numbers
	// from one to the other, each a choice (a rating, a scale, an NPS).
	scale func(f *Field) (lo, hi int)
	// text says minLength, maxLength and pattern apply.
	text bool
	// options says the values are among the field's options.
	options bool
	// object, for a composite type, reads and judges its parts.
	object *objectType
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
	FieldNumber:     {kind: numberValue, ranged: numbers, goType: "float64"},
	FieldDate:       {kind: textValue, limit: MaxLineLength, ranged: days, check: checkDate},
	FieldSelect:     {kind: textValue, limit: MaxLineLength, options: true, check: checkOption},
	FieldRadio:      {kind: textValue, limit: MaxLineLength, options: true, check: checkOption},
	FieldCheckbox:   {kind: boolValue, goType: "bool"},
	FieldCheckboxes: {kind: listValue, options: true, goType: "[]string"},
	FieldFile:       {kind: filesValue, goType: "[]hubclient.Attachment"},
	FieldHidden:     {kind: textValue, limit: MaxLineLength},
	FieldRating:     {kind: numberValue, scale: ratingScale, goType: "int"},
	FieldScale:      {kind: numberValue, scale: scaleEnds, goType: "int"},
	FieldNPS:        {kind: numberValue, scale: func(*Field) (int, int) { return 0, 10 }, goType: "int"},
	FieldSlider:     {kind: numberValue, ranged: numbers, goType: "float64"},
	FieldTime:       {kind: textValue, limit: MaxLineLength, ranged: times, check: checkTime},
	FieldDateTime:   {kind: textValue, limit: MaxLineLength, ranged: dateTimes, check: checkDateTime},
	FieldRanking:    {kind: rankValue, options: true, goType: "[]string"},
	FieldMatrix:     {kind: objectValue, object: matrixObject, goType: "map[string]string"},
	FieldAddress:    {kind: objectValue, object: addressObject, goType: "hubclient.Address"},
	FieldSignature:  {kind: signValue, goType: "hubclient.Signature"},
	FieldGroup:      {kind: groupValue, goType: "[]map[string]any"},
	FieldHeading:    {kind: noValue},
	FieldParagraph:  {kind: noValue},
	FieldImage:      {kind: noValue},
	FieldDivider:    {kind: noValue},
}

// ValueRange reads the values of a ranged type, and its bounds, as
// numbers on one line: numbers, days or minutes.
type ValueRange struct {
	// What names a bound's form in a message: "a number".
	What  string
	read  func(string) (float64, bool)
	value func(v any) (float64, bool)
}

// Read returns a bound as a number on the range's line, and whether it
// reads as one.
func (r *ValueRange) Read(b Bound) (float64, bool) {
	if r == numbers {
		return b.Number()
	}
	return r.read(string(b))
}

var (
	numbers   = &ValueRange{What: "a number", value: number}
	days      = textRange("a date (YYYY-MM-DD)", dayNumber)
	times     = textRange("a time (HH:MM)", minuteOfDay)
	dateTimes = textRange("a date and time (YYYY-MM-DDTHH:MM)", minuteOfTime)
)

func textRange(what string, read func(string) (float64, bool)) *ValueRange {
	return &ValueRange{What: what, read: read, value: func(v any) (float64, bool) {
		s, _ := v.(string)
		return read(s)
	}}
}

// DateTimeLayout is the layout of a datetime field's value, as an HTML
// datetime-local input posts it.
const DateTimeLayout = "2006-01-02T15:04"

// minuteOfDay returns the minutes since midnight of "HH:MM".
func minuteOfDay(s string) (float64, bool) {
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != len("15:04") {
		return 0, false
	}
	return float64(t.Hour()*60 + t.Minute()), true
}

// minuteOfTime returns the minutes since 1970-01-01T00:00 of a local date
// and time.
func minuteOfTime(s string) (float64, bool) {
	t, err := time.Parse(DateTimeLayout, s)
	if err != nil || len(s) != len(DateTimeLayout) {
		return 0, false
	}
	return float64(t.Unix() / 60), true
}

// Rating ends: the stars of a rating without max, and the most and least
// a max may ask for.
const (
	DefaultRatingMax = 5
	MinRatingMax     = 3
	MaxRatingMax     = 10
)

// ratingScale is 1 to the field's max, DefaultRatingMax without one.
func ratingScale(f *Field) (int, int) { return 1, wholeBound(f.Max, DefaultRatingMax) }

// scaleEnds is min (1 without one) to max (5 without one).
func scaleEnds(f *Field) (int, int) { return wholeBound(f.Min, 1), wholeBound(f.Max, 5) }

// wholeBound returns b as a whole number, or def when it is not one.
func wholeBound(b Bound, def int) int {
	if n, ok := b.Number(); ok && n == math.Trunc(n) && math.Abs(n) < 1e6 {
		return int(n)
	}
	return def
}

// Scale returns the ends of a field whose values are the whole numbers
// between them, each a choice (rating, scale, nps), and whether it is one.
func (f *Field) Scale() (lo, hi int, ok bool) {
	t := f.TypeOf()
	if t.scale == nil {
		return 0, 0, false
	}
	lo, hi = t.scale(f)
	return lo, hi, true
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

// Range returns how min, max and step read for the type, nil when they
// do not apply: numbers, sliders, dates, times.
func (t *FieldType) Range() *ValueRange { return t.ranged }

// IsScale reports whether the values are the whole numbers between two
// ends, each a choice (rating, scale, nps): see Field.Scale.
func (t *FieldType) IsScale() bool { return t.scale != nil }

// IsList reports whether a value is a list of texts (checkboxes, a
// ranking).
func (t *FieldType) IsList() bool { return t.kind == listValue || t.kind == rankValue }

// TakesItems reports whether minItems and maxItems apply: checkboxes and
// groups (and file fields with multiple).
func (t *FieldType) TakesItems() bool { return t.kind == listValue || t.kind == groupValue }

// IsGroup reports whether the field repeats child fields, a list of
// items.
func (t *FieldType) IsGroup() bool { return t.kind == groupValue }

// HasValue reports whether a field of the type takes a value: not so the
// content between the questions (heading, paragraph, image, divider).
func (t *FieldType) HasValue() bool { return t.kind != noValue }

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

// GoType returns the Go type of the field's values: its type's, but a
// matrix with multiple, whose rows take several columns.
func (f *Field) GoType() string {
	if f.Type == FieldMatrix && f.Multiple {
		return "map[string][]string"
	}
	return f.TypeOf().GoType()
}

// Value types the texts a form posted under the field's name, as the hub
// expects the value: text, a boolean for a checkbox, a number when the
// text reads as one, a list without its empty texts for checkboxes and
// files, nil for content that takes no value.
func (f *Field) Value(posted []string) any {
	first := ""
	if len(posted) > 0 {
		first = posted[0]
	}
	switch f.TypeOf().kind {
	case noValue:
		return nil
	case objectValue:
		// A composite field posts its parts under keys of their own:
		// ValueIn reads them.
		return map[string]any{}
	case groupValue:
		return []any{}
	case boolValue:
		return first == "true" || first == "on"
	case rankValue:
		return ranked(f, posted)
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

func checkTime(_ *Field, s string) string {
	if _, ok := minuteOfDay(s); !ok {
		return ProblemTime
	}
	return ""
}

func checkDateTime(_ *Field, s string) string {
	if _, ok := minuteOfTime(s); !ok {
		return ProblemDateTime
	}
	return ""
}

// checkScale returns ProblemChoice unless n is a whole number between the
// field's ends.
func checkScale(f *Field, n float64) string {
	lo, hi, _ := f.Scale()
	if n != math.Trunc(n) || n < float64(lo) || n > float64(hi) {
		return ProblemChoice
	}
	return ""
}

func checkOption(f *Field, s string) string {
	if !f.HasOption(s) {
		return ProblemChoice
	}
	return ""
}

// RankPlace is what a ranking's control posts for an option at a place:
// "value:place", places counted from 1. A form without JavaScript posts
// one per option, in any order.
func RankPlace(value string, place int) string { return value + ":" + strconv.Itoa(place) }

// ranked returns the options of a ranking in the order the posted places
// give them. Texts without places (a client that posts the order
// itself) are kept as they are; so are places that are not each option's
// own 1 to n, for CheckValue to refuse. No place chosen at all is no
// answer.
func ranked(f *Field, posted []string) any {
	order := make([]string, len(f.Options))
	placed := 0
	for _, s := range posted {
		i := strings.LastIndexByte(s, ':')
		if s == "" || i < 0 {
			continue
		}
		place, err := strconv.Atoi(s[i+1:])
		if err != nil || place < 1 || place > len(order) || order[place-1] != "" {
			return slices.DeleteFunc(slices.Clone(posted), func(s string) bool { return s == "" })
		}
		order[place-1] = s[:i]
		placed++
	}
	switch placed {
	case 0:
		return slices.DeleteFunc(slices.Clone(posted), func(s string) bool { return s == "" || strings.Contains(s, ":") })
	case len(order):
		return order
	}
	return slices.DeleteFunc(slices.Clone(posted), func(s string) bool { return s == "" })
}

// Stored returns a value judged good (see CheckValue) as a hub keeps it,
// whatever client sent it: a number as a number, though a form post or a
// command line gave it as text; other values as they are.
func (f *Field) Stored(v any) any {
	if f.TypeOf().kind == numberValue {
		if n, ok := number(v); ok {
			return n
		}
	}
	return v
}

package hubclient

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A composite field (a matrix, an address) posts one key per part,
// "name.part" (PartKey), and its value is an object of the parts given.
// Field names hold no dot, so the first dot of a key ends the name.

// Problems of a composite value, beside those of CheckValue.
const (
	// ProblemMatrixRows: a required matrix leaves a row unanswered.
	ProblemMatrixRows = "matrixRows"
	// ProblemAddress: a required address lacks its first line, its city
	// or its country.
	ProblemAddress = "incompleteAddress"
	// ProblemCountry: the country is not one the field takes.
	ProblemCountry = "invalidCountry"
	// ProblemObject: the value is not an object of the field's parts.
	ProblemObject = "invalidParts"
)

// The parts of an address, as its value's members and its keys in a post
// ("addr.city").
const (
	AddressLine1      = "line1"
	AddressLine2      = "line2"
	AddressCity       = "city"
	AddressRegion     = "region"
	AddressPostalCode = "postalCode"
	AddressCountry    = "country"
)

// AddressParts lists the parts of an address in the order a form asks
// for them.
var AddressParts = []string{AddressLine1, AddressLine2, AddressCity, AddressRegion, AddressPostalCode, AddressCountry}

// addressRequired are the parts a required address must have.
var addressRequired = []string{AddressLine1, AddressCity, AddressCountry}

// Address is the value of an address field as handlers.Bind fills it and
// hubform gen types it.
type Address struct {
	Line1      string `form:"line1" json:"line1,omitempty"`
	Line2      string `form:"line2" json:"line2,omitempty"`
	City       string `form:"city" json:"city,omitempty"`
	Region     string `form:"region" json:"region,omitempty"`
	PostalCode string `form:"postalCode" json:"postalCode,omitempty"`
	// Country is an ISO 3166-1 alpha-2 code: "FR".
	Country string `form:"country" json:"country,omitempty"`
}

// objectType is the value side of a composite type: its parts, whether a
// part takes several texts, and the check of a value.
type objectType struct {
	parts func(f *Field) []string
	many  func(f *Field) bool
	check func(f *Field, parts map[string]any) string
}

var (
	matrixObject = &objectType{
		parts: func(f *Field) []string { return optionValues(f.Rows) },
		many:  func(f *Field) bool { return f.Multiple },
		check: checkMatrix,
	}
	addressObject = &objectType{
		parts: func(*Field) []string { return AddressParts },
		many:  func(*Field) bool { return false },
		check: checkAddress,
	}
)

func optionValues(options []Option) []string {
	out := make([]string, len(options))
	for i, o := range options {
		out[i] = o.Value
	}
	return out
}

// IsComposite reports whether a value is an object of parts, each posted
// under its own key (a matrix, an address).
func (t *FieldType) IsComposite() bool { return t.kind == objectValue }

// Parts returns the parts of a composite field: a matrix's row values, an
// address's AddressParts; nil for another.
func (f *Field) Parts() []string {
	if t := f.TypeOf(); t.object != nil {
		return t.object.parts(f)
	}
	return nil
}

// PartKey is the key under which a form posts a part of a composite field:
// "addr.city", "grid.speed".
func (f *Field) PartKey(part string) string { return f.Name + "." + part }

// SplitKey returns the field name and the part of a posted key,
// "addr.city" → "addr", "city"; a key without a dot is a name alone.
func SplitKey(key string) (name, part string, ok bool) {
	return strings.Cut(key, ".")
}

// KeyOf returns the field a posted key belongs to, or nil: its name, or
// one of its parts' keys for a composite field.
func (s *Schema) KeyOf(key string) *Field {
	name, part, dotted := SplitKey(key)
	f := s.Field(name)
	if f == nil || !dotted {
		return f
	}
	if slices.Contains(f.Parts(), part) || f.Type == FieldGroup && groupPart(f, part) {
		return f
	}
	return nil
}

// ValueIn types what a post holds for the field, as the hub expects the
// value (see Value), and reports whether the post holds anything for it.
// A composite field reads its parts' keys: an object of the parts given,
// each a text, or a list of texts for a matrix with multiple; parts left
// blank are left out.
func (f *Field) ValueIn(posted map[string][]string) (any, bool) {
	t := f.TypeOf()
	if t.kind == groupValue {
		return groupItems(f, posted)
	}
	if t.object == nil {
		list, ok := posted[f.Name]
		if !ok {
			return nil, false
		}
		return f.Value(list), true
	}
	obj := map[string]any{}
	found := false
	many := t.object.many(f)
	for _, part := range t.object.parts(f) {
		list, ok := posted[f.PartKey(part)]
		if !ok {
			continue
		}
		found = true
		if many {
			items := slices.DeleteFunc(slices.Clone(list), func(s string) bool { return strings.TrimSpace(s) == "" })
			if len(items) > 0 {
				obj[part] = items
			}
		} else if len(list) > 0 && strings.TrimSpace(list[0]) != "" {
			obj[part] = list[0]
		}
	}
	return obj, found
}

// PostedTexts returns a field's value as a form posts it, by key: the
// reverse of ValueIn, for a form shown again with a value it did not post
// (a draft). A value of a shape the field does not take gives nothing.
func (f *Field) PostedTexts(v any) map[string][]string {
	out := map[string][]string{}
	if f.TypeOf().IsGroup() {
		items, _ := v.([]any)
		for i, it := range items {
			obj, _ := it.(map[string]any)
			for _, c := range f.Fields {
				if list := postedTexts(obj[c.Name]); list != nil {
					out[f.ItemKey(i, c.Name)] = list
				}
			}
		}
		out[f.CountKey()] = []string{strconv.Itoa(len(items))}
		return out
	}
	if f.TypeOf().object == nil {
		if list, ok := texts(v); ok {
			out[f.Name] = list
		}
		return out
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return out
	}
	for _, part := range f.Parts() {
		if list, ok := texts(obj[part]); ok {
			out[f.PartKey(part)] = list
		}
	}
	return out
}

// postedTexts is a group's child's value as a form posts it: text, a
// list, a checkbox's "true", a number.
func postedTexts(v any) []string {
	switch v := v.(type) {
	case bool:
		if v {
			return []string{"true"}
		}
		return nil
	case float64:
		return []string{strconv.FormatFloat(v, 'f', -1, 64)}
	}
	list, _ := texts(v)
	return list
}

// checkObject judges a composite value: an object whose members are the
// field's parts, each a text (or, for a matrix with multiple, a list of
// texts) of a line at most.
func checkObject(f *Field, t *FieldType, v any) string {
	parts, ok := objectOf(v)
	if !ok {
		return ProblemObject
	}
	known := t.object.parts(f)
	many := t.object.many(f)
	for part, pv := range parts {
		if !slices.Contains(known, part) {
			if f.Type == FieldMatrix {
				return ProblemChoice
			}
			return ProblemObject
		}
		list, ok := texts(pv)
		if !ok || (!many && len(list) > 1) {
			return ProblemObject
		}
		for _, s := range list {
			if utf8.RuneCountInString(s) > MaxLineLength {
				return ProblemTooLong
			}
		}
	}
	return t.object.check(f, parts)
}

// objectOf returns v as an object of parts: as JSON decodes it, or as
// ValueIn types a post.
func objectOf(v any) (map[string]any, bool) {
	switch v := v.(type) {
	case map[string]any:
		return v, true
	case map[string]string:
		out := make(map[string]any, len(v))
		for k, s := range v {
			out[k] = s
		}
		return out, true
	case map[string][]string:
		out := make(map[string]any, len(v))
		for k, s := range v {
			out[k] = s
		}
		return out, true
	}
	return nil, false
}

// checkMatrix checks each row's answer against the columns: one column,
// or with multiple each column at most once; a required matrix answers
// every row.
func checkMatrix(f *Field, parts map[string]any) string {
	for _, pv := range parts {
		list, _ := texts(pv)
		seen := map[string]bool{}
		for _, s := range list {
			if !slices.ContainsFunc(f.Columns, func(o Option) bool { return o.Value == s }) {
				return ProblemChoice
			}
			if seen[s] {
				return ProblemDuplicateChoice
			}
			seen[s] = true
		}
	}
	if f.Required {
		for _, row := range f.Rows {
			if IsEmptyValue(parts[row.Value]) {
				return ProblemMatrixRows
			}
		}
	}
	return ""
}

// checkAddress checks the country against the ISO 3166-1 codes, and the
// field's own list; a required address has its first line, its city and
// its country.
func checkAddress(f *Field, parts map[string]any) string {
	if c, _ := parts[AddressCountry].(string); strings.TrimSpace(c) != "" && !f.TakesCountry(c) {
		return ProblemCountry
	}
	if f.Required {
		for _, part := range addressRequired {
			if IsEmptyValue(parts[part]) {
				return ProblemAddress
			}
		}
	}
	return ""
}

// TakesCountry reports whether an address field takes code: an ISO
// 3166-1 alpha-2 code, in capitals, among the field's Countries when it
// lists some.
func (f *Field) TakesCountry(code string) bool {
	if !IsCountry(code) {
		return false
	}
	return len(f.Countries) == 0 || slices.Contains(f.Countries, code)
}

// IsCountry reports whether code is an ISO 3166-1 alpha-2 code assigned
// to a country or territory, in capitals: "FR".
func IsCountry(code string) bool {
	if len(code) != 2 {
		return false
	}
	i := strings.Index(countryCodes, code)
	return i >= 0 && i%3 == 0
}

// Countries returns the ISO 3166-1 alpha-2 codes in alphabetical order.
func Countries() []string { return strings.Fields(countryCodes) }

// countryCodes are the 249 officially assigned ISO 3166-1 alpha-2 codes,
// each followed by a space.
const countryCodes = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
	"CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
	"GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
	"KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT " +
	"MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
	"SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG " +
	"UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW "

// AddressLabels name an address's parts in English, for the hub's pages,
// e-mails and exports; a form's visitors read the components' texts.
var AddressLabels = map[string]string{
	AddressLine1: "Street address", AddressLine2: "Apartment, suite, etc.", AddressCity: "City",
	AddressRegion: "State, province or region", AddressPostalCode: "Postal code", AddressCountry: "Country",
}

// PartLabel names a part of a composite field for people: a matrix's row
// by its label, an address's part by AddressLabels.
func (f *Field) PartLabel(part string) string {
	if f.Type == FieldAddress {
		if l := AddressLabels[part]; l != "" {
			return l
		}
	}
	for _, r := range f.Rows {
		if r.Value == part && r.Label != "" {
			return r.Label
		}
	}
	return part
}

// PartText writes the value of one part in words: a matrix row's columns
// by their labels, joined by ", "; an address's part as it is.
func (f *Field) PartText(v any) string {
	list, ok := texts(v)
	if !ok {
		return ""
	}
	out := make([]string, 0, len(list))
	for _, s := range list {
		label := s
		for _, c := range f.Columns {
			if c.Value == s && c.Label != "" {
				label = c.Label
			}
		}
		if strings.TrimSpace(label) != "" {
			out = append(out, label)
		}
	}
	return strings.Join(out, ", ")
}

// AnswerLines writes a composite value for people, a line a part given:
// a matrix's rows as "Speed: Good", in the rows' order; an address as it
// is written on an envelope, the postal code before the city; a group's
// items, each its children's answers joined by ", ". It returns nil for
// another field, or a value of another shape.
func (f *Field) AnswerLines(v any) []string {
	if f.Type == FieldGroup {
		return f.itemLines(v)
	}
	parts, ok := objectOf(v)
	if !ok || f.TypeOf().object == nil {
		return nil
	}
	var lines []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			lines = append(lines, s)
		}
	}
	if f.Type == FieldAddress {
		text := func(part string) string { return f.PartText(parts[part]) }
		add(text(AddressLine1))
		add(text(AddressLine2))
		add(text(AddressPostalCode) + " " + text(AddressCity))
		add(text(AddressRegion))
		add(text(AddressCountry))
		return lines
	}
	for _, part := range f.Parts() {
		if s := f.PartText(parts[part]); s != "" {
			add(f.PartLabel(part) + ": " + s)
		}
	}
	return lines
}

// itemLines writes a group's items, a line each: the answers of its
// children in their order, choices by their labels.
func (f *Field) itemLines(v any) []string {
	items, ok := v.([]any)
	if !ok {
		return nil
	}
	lines := []string{}
	for _, it := range items {
		obj, _ := it.(map[string]any)
		var words []string
		for _, c := range f.Fields {
			list, _ := texts(obj[c.Name])
			if b, ok := obj[c.Name].(bool); ok && b {
				list = []string{c.Label}
			}
			if n, ok := obj[c.Name].(float64); ok {
				list = []string{strconv.FormatFloat(n, 'f', -1, 64)}
			}
			for _, s := range list {
				for _, o := range c.Options {
					if o.Value == s && o.Label != "" {
						s = o.Label
					}
				}
				if s = strings.TrimSpace(s); s != "" {
					words = append(words, s)
				}
			}
		}
		lines = append(lines, strings.Join(words, ", "))
	}
	return lines
}

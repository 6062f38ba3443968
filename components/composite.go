package components

import (
	"context"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/a-h/templ"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/hubform/hubform/hubclient"
)

// The ids of a matrix: its first cell takes the field's id, which the
// error summary links to; its headers name the cells.
func matrixRowID(p FieldProps, i int) string { return p.ID + "-row-" + strconv.Itoa(i+1) }
func matrixColID(p FieldProps, j int) string { return p.ID + "-col-" + strconv.Itoa(j+1) }
func matrixCellID(p FieldProps, i, j int) string {
	if i == 0 && j == 0 {
		return p.ID
	}
	return p.ID + "-" + strconv.Itoa(i+1) + "-" + strconv.Itoa(j+1)
}

// partHas reports whether value is among the values shown of a part.
func partHas(p FieldProps, part, value string) bool {
	return slices.Contains(p.Parts[part], value)
}

// addressID is the id of an address's part: the field's id for the first
// line, which the error summary links to.
func addressID(p FieldProps, part string) string {
	if part == hubclient.AddressLine1 {
		return p.ID
	}
	return p.ID + "-" + part
}

// addressText is the key of the built-in text naming a part: "addressCity".
func addressText(part string) string {
	return "address" + strings.ToUpper(part[:1]) + part[1:]
}

// addressTokens are the parts' autocomplete tokens (HTML's autofill).
var addressTokens = map[string]string{
	hubclient.AddressLine1:      "address-line1",
	hubclient.AddressLine2:      "address-line2",
	hubclient.AddressCity:       "address-level2",
	hubclient.AddressRegion:     "address-level1",
	hubclient.AddressPostalCode: "postal-code",
	hubclient.AddressCountry:    "country",
}

// addressAutocomplete is a part's autocomplete token, in a section of the
// field's own, so that a form asking for two addresses (shipping, billing)
// has each filled in apart.
func addressAutocomplete(p FieldProps, part string) string {
	return "section-" + safeID(p.Field.Name) + " " + addressTokens[part]
}

// addressRequired reports whether a part is required: the first line,
// the city and the country of a required address.
func addressRequired(p FieldProps, part string) bool {
	if !p.Field.Required {
		return false
	}
	switch part {
	case hubclient.AddressLine1, hubclient.AddressCity, hubclient.AddressCountry:
		return true
	}
	return false
}

// addressInvalid reports whether a part is what the error is about: a
// required part left empty, or a country the field does not take; the
// first line when no part is.
func addressInvalid(p FieldProps, part string) bool {
	if p.Error == "" {
		return false
	}
	if addressRequired(p, part) && strings.TrimSpace(p.Part(part)) == "" {
		return true
	}
	if c := p.Part(hubclient.AddressCountry); c != "" && !p.Field.TakesCountry(c) {
		return part == hubclient.AddressCountry
	}
	if part != hubclient.AddressLine1 {
		return false
	}
	for _, q := range hubclient.AddressParts {
		if addressRequired(p, q) && strings.TrimSpace(p.Part(q)) == "" {
			return false
		}
	}
	return true
}

// addressDescribe returns a part's aria-describedby and aria-invalid when
// the error is about it.
func addressDescribe(p FieldProps, part string) templ.OrderedAttributes {
	if !addressInvalid(p, part) {
		return nil
	}
	return templ.OrderedAttributes{attr("aria-describedby", p.ErrorID), attr("aria-invalid", "true")}
}

// addressCountry is the country shown: the one given, else the field's
// only country.
func addressCountry(p FieldProps) string {
	if c := p.Part(hubclient.AddressCountry); c != "" {
		return c
	}
	if len(p.Field.Countries) == 1 {
		return p.Field.Countries[0]
	}
	return ""
}

// country is a choice of an address's country list.
type country struct{ code, name string }

// countryNames holds every country's name in a language, by the
// language's tag, sorted by name: worked out once per language.
var countryNames sync.Map

// countriesFor returns the countries an address field takes, named in the
// form's language (English when the language has no names) and sorted by
// name.
func countriesFor(p FieldProps) []country {
	all := namedCountries(p.Locale)
	if len(p.Field.Countries) == 0 {
		return all
	}
	out := make([]country, 0, len(p.Field.Countries))
	for _, c := range all {
		if slices.Contains(p.Field.Countries, c.code) {
			out = append(out, c)
		}
	}
	return out
}

func namedCountries(locale string) []country {
	tag := language.English
	if t, err := language.Parse(locale); err == nil && locale != "" {
		tag = t
	}
	if list, ok := countryNames.Load(tag.String()); ok {
		return list.([]country)
	}
	namer := display.Regions(tag)
	if namer == nil {
		namer = display.English.Regions()
	}
	codes := hubclient.Countries()
	list := make([]country, len(codes))
	for i, code := range codes {
		name := code
		if r, err := language.ParseRegion(code); err == nil {
			if n := namer.Name(r); n != "" {
				name = n
			}
		}
		list[i] = country{code: code, name: name}
	}
	slices.SortFunc(list, func(a, b country) int { return strings.Compare(sortKey(a.name), sortKey(b.name)) })
	countryNames.Store(tag.String(), list)
	return list
}

// sortKey is a name without its accents, in lower case, so that Åland
// sorts with the A's.
func sortKey(name string) string {
	s, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn))), name)
	if err != nil {
		s = name
	}
	return strings.ToLower(s)
}

// groupPosted returns the values shown of a group under their keys
// ("team.0.name"), as a post holds them.
func groupPosted(p FieldProps) map[string][]string {
	out := make(map[string][]string, len(p.Parts))
	for part, v := range p.Parts {
		out[p.Field.Name+"."+part] = v
	}
	return out
}

// groupCount is how many items a group shows.
func groupCount(p FieldProps) int { return p.Field.Items(groupPosted(p)) }

// groupMost is the most items a group takes.
func groupMost(p FieldProps) int {
	if p.Field.MaxItems > 0 {
		return min(p.Field.MaxItems, hubclient.MaxGroupItems)
	}
	return hubclient.MaxGroupItems
}

// groupItemTitle names the i-th item (from 0): "Entry 1".
func groupItemTitle(p FieldProps, i int) string {
	return strings.ReplaceAll(p.Texts.T("groupItemTitle"), "{n}", strconv.Itoa(i+1))
}

// groupChild renders child c of the i-th item with the component of its
// type, posting "name.i.child"; the first child of the first item takes
// the group's id, which the error summary links to.
func groupChild(p FieldProps, i int, c hubclient.Field) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		f := c
		f.Name = p.Field.ItemKey(i, c.Name)
		// The browser asks for a required child only in the items the
		// group needs; the server judges it in every item given.
		f.Required = c.Required && (i < p.Field.MinItems || i == 0 && p.Field.Required)
		id := p.ID + "-" + strconv.Itoa(i+1) + "-" + safeID(c.Name)
		if i == 0 && len(p.Field.Fields) > 0 && c.Name == p.Field.Fields[0].Name {
			id = p.ID
		}
		cp := FieldProps{
			Field: f, ID: id, Values: p.Parts[strconv.Itoa(i)+"."+c.Name], Texts: p.Texts,
			HelpID: id + "-help", ErrorID: id + "-error", Locale: p.Locale, Focus: p.Focus,
		}
		return fieldComponent(ctx, nil, c.Type)(cp).Render(ctx, w)
	})
}

package console

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/hubform/hubform/hubclient"
)

// An address's settings: the countries it takes.

// editCountries sets the countries an address takes from "countries":
// the codes of the countries ticked in the panel, after an empty value
// that says the list was posted, none for every country. A value may
// also hold countries typed, codes (FR) or English names (France), by
// lines, commas or spaces between codes, as the panel once took them.
func editCountries(f *hubclient.Field, i int, form url.Values) []error {
	posted, ok := form["countries"]
	if !ok {
		return nil
	}
	var codes []string
	var errs []error
	for _, v := range posted {
		got, bad := readCountries(v)
		for _, c := range got {
			if !slices.Contains(codes, c) {
				codes = append(codes, c)
			}
		}
		for _, b := range bad {
			errs = append(errs, problem(fmt.Sprintf("fields[%d].countries", i), "“%s” is not a country code: write codes such as FR or DE, or the countries' names in English", b))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	f.Countries = codes
	return nil
}

// readCountries reads the countries typed: each line a code, a name, or
// codes separated by commas or spaces; what it cannot read is in bad.
func readCountries(text string) (codes, bad []string) {
	add := func(c string) {
		if !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	for _, line := range lines(strings.ReplaceAll(text, ",", "\n")) {
		if c, ok := countryCode(line); ok {
			add(c)
			continue
		}
		words := strings.Fields(line)
		if len(words) > 1 && !slices.ContainsFunc(words, func(w string) bool { return len(w) != 2 }) {
			for _, w := range words {
				if c, ok := countryCode(w); ok {
					add(c)
				} else {
					bad = append(bad, w)
				}
			}
			continue
		}
		bad = append(bad, line)
	}
	return codes, bad
}

// countryCode returns the code of a country typed as its code, in any
// case, or its English name.
func countryCode(s string) (string, bool) {
	if c := strings.ToUpper(s); hubclient.IsCountry(c) {
		return c, true
	}
	c, ok := countriesByName()[strings.ToLower(s)]
	return c, ok
}

var countryIndex = sync.OnceValues(func() (map[string]string, map[string]string) {
	byName, names := map[string]string{}, map[string]string{}
	regions := display.English.Regions()
	for _, code := range hubclient.Countries() {
		name := code
		if r, err := language.ParseRegion(code); err == nil {
			if n := regions.Name(r); n != "" {
				name = n
			}
		}
		names[code] = name
		byName[strings.ToLower(name)] = code
	}
	return byName, names
})

// countriesByName maps the countries' English names, in lower case, to
// their codes, as the form names them (golang.org/x/text/language/display).
func countriesByName() map[string]string { byName, _ := countryIndex(); return byName }

// countryName is a country's English name, its code when it has none.
func countryName(code string) string {
	_, names := countryIndex()
	if n, ok := names[code]; ok {
		return n
	}
	return code
}

// countryChoice is a country of the address's panel: its code, its name
// and whether the address takes it.
type countryChoice struct {
	Code, Name string
	On         bool
}

// countryChoices are the countries the address's panel offers, by their
// English names in alphabetical order, accents aside: those it takes
// first, then the others. on reports whether it takes a country.
func countryChoices(on func(code string) bool) []countryChoice {
	all := countriesByOrder()
	out := make([]countryChoice, 0, len(all))
	for _, pass := range []bool{true, false} {
		for _, c := range all {
			if on(c.Code) == pass {
				out = append(out, countryChoice{c.Code, c.Name, pass})
			}
		}
	}
	return out
}

// countriesByOrder are the countries by their English names in
// alphabetical order, accents aside, as the form lists them.
var countriesByOrder = sync.OnceValue(func() []countryChoice {
	codes := hubclient.Countries()
	out := make([]countryChoice, len(codes))
	for k, c := range codes {
		out[k] = countryChoice{Code: c, Name: countryName(c)}
	}
	slices.SortFunc(out, func(a, b countryChoice) int { return strings.Compare(foldName(a.Name), foldName(b.Name)) })
	return out
})

// foldName is a name without its accents, in lower case, so that Åland
// sorts with the A's.
func foldName(name string) string {
	s, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn))), name)
	if err != nil {
		s = name
	}
	return strings.ToLower(s)
}

// countriesWords names the address's countries for the owner: all of
// them, or their names.
func countriesWords(codes []string) string {
	if len(codes) == 0 {
		return "All countries: visitors choose among every country."
	}
	names := make([]string, len(codes))
	for k, c := range codes {
		names[k] = countryName(c)
	}
	return "Visitors choose among " + andWords(names) + "."
}

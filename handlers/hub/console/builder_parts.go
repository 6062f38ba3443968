package console

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/hubform/hubform/hubclient"
)

// The types made of parts keep their own settings: a matrix's rows and
// columns, an address's countries, a group's questions and bounds. A
// signature has none beyond its texts. Each is read here from the field's
// panel, checked in the owner's words; formsource.Parse checks the file
// after, as every save does.

// editParts sets the settings of a matrix, an address or a group that
// the panel posted; a setting not posted stays.
func editParts(f *hubclient.Field, i int, form url.Values) []error {
	switch f.Type {
	case hubclient.FieldMatrix:
		return editMatrix(f, i, form)
	case hubclient.FieldAddress:
		return editCountries(f, i, form)
	case hubclient.FieldGroup:
		return editGroup(f, i, form)
	}
	return nil
}

// editMatrix sets a matrix's rows and columns, one a line as options
// are ("value|label", or a label that is its own value). Each needs one
// line at least, and a value once.
func editMatrix(f *hubclient.Field, i int, form url.Values) []error {
	var errs []error
	for _, part := range []struct {
		member, word string
		list         *[]hubclient.Option
	}{{"rows", "row", &f.Rows}, {"columns", "column", &f.Columns}} {
		v, ok := form[part.member]
		if !ok {
			continue
		}
		os := parseOptions(v[0], *part.list)
		path := fmt.Sprintf("fields[%d].%s", i, part.member)
		if len(os) == 0 {
			errs = append(errs, problem(path, "A matrix needs one %s at least: write one a line", part.word))
			continue
		}
		if dup := twice(os); dup != "" {
			errs = append(errs, problem(path, "The %s “%s” is written twice: each %s is on one line only", part.word, dup, part.word))
			continue
		}
		*part.list = os
	}
	return errs
}

// twice returns the first value two of os share, "" for none.
func twice(os []hubclient.Option) string {
	seen := map[string]bool{}
	for _, o := range os {
		if seen[o.Value] {
			return o.Value
		}
		seen[o.Value] = true
	}
	return ""
}

// editCountries sets the countries an address takes from "countries":
// codes (FR) or English names (France), by lines, commas or spaces
// between codes; empty for every country.
func editCountries(f *hubclient.Field, i int, form url.Values) []error {
	v, ok := form["countries"]
	if !ok {
		return nil
	}
	codes, bad := readCountries(v[0])
	if len(bad) > 0 {
		var errs []error
		for _, b := range bad {
			errs = append(errs, problem(fmt.Sprintf("fields[%d].countries", i), "“%s” is not a country code: write codes such as FR or DE, or the countries' names in English", b))
		}
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

// countriesText is the address's countries as the panel shows them.
func countriesText(codes []string) string { return strings.Join(codes, "\n") }

// countriesWords names the address's countries for the owner: "every
// country", or their names.
func countriesWords(codes []string) string {
	if len(codes) == 0 {
		return "Visitors choose among every country."
	}
	names := make([]string, len(codes))
	for k, c := range codes {
		names[k] = countryName(c)
	}
	return "Visitors choose among " + andWords(names) + "."
}

// The group's panel posts its questions as "question.K.name" (hidden),
// "question.K.label", "question.K.type", "question.K.required" and
// "question.K.options", K from 0 to "questions" less one; its buttons
// post "questionAction": "up:K", "down:K", "remove:K" or "add", which
// adds the question "newQuestion" of type "newQuestionType".
const (
	questionsField      = "questions"
	questionActionField = "questionAction"
)

// questionKey is the posted name of part of the group's k-th question.
func questionKey(k int, part string) string { return "question." + strconv.Itoa(k) + "." + part }

// childKinds are the kinds a group's question may be, in the palette's
// groups and words.
func childKinds() []kindGroup {
	return kindsByGroup(func(k fieldKind) bool { return hubclient.TakesChild(k.Type) })
}

// editGroup sets a group's add button's label, its fewest and most
// entries and its questions, then does what its button asked.
func editGroup(f *hubclient.Field, i int, form url.Values) []error {
	var errs []error
	bad := func(member, format string, args ...any) {
		errs = append(errs, problem(fmt.Sprintf("fields[%d].%s", i, member), format, args...))
	}
	if v, ok := form["addLabel"]; ok {
		f.AddLabel = strings.TrimSpace(v[0])
	}
	lo, hi := f.MinItems, f.MaxItems
	for _, b := range []struct {
		member, word string
		n            *int
	}{{"minItems", "fewest entries", &lo}, {"maxItems", "most entries", &hi}} {
		v, ok := form[b.member]
		if !ok {
			continue
		}
		text := strings.TrimSpace(v[0])
		n, err := strconv.Atoi(text)
		switch {
		case text == "":
			*b.n = 0
		case err != nil || n < 0:
			bad(b.member, "The %s is a whole number, from 0 to %d", b.word, hubclient.MaxGroupItems)
		case n > hubclient.MaxGroupItems:
			bad(b.member, "The %s is %d at most", b.word, hubclient.MaxGroupItems)
		default:
			*b.n = n
		}
	}
	if len(errs) == 0 && hi != 0 && lo > hi {
		bad("minItems", "The fewest entries (%d) is more than the most entries (%d)", lo, hi)
	}
	if len(errs) == 0 {
		f.MinItems, f.MaxItems = lo, hi
	}
	if _, ok := form[questionsField]; ok {
		errs = append(errs, editQuestions(f, i, form)...)
	}
	if len(errs) > 0 {
		return errs
	}
	return questionAction(f, i, form)
}

// editQuestions sets the group's questions as posted: each keeps its
// name, by which answers already stored know it; its label, type and
// whether it is required change.
func editQuestions(f *hubclient.Field, i int, form url.Values) []error {
	var errs []error
	n, err := strconv.Atoi(form.Get(questionsField))
	if err != nil || n != len(f.Fields) {
		return []error{problem(fmt.Sprintf("fields[%d].fields", i), "the group's questions changed since this page was loaded: reload the page")}
	}
	for k := range f.Fields {
		c := &f.Fields[k]
		if name := form.Get(questionKey(k, "name")); name != "" && name != c.Name {
			return []error{problem(fmt.Sprintf("fields[%d].fields", i), "the group's questions changed since this page was loaded: reload the page")}
		}
		path := fmt.Sprintf("fields[%d].fields[%d]", i, k)
		if v, ok := form[questionKey(k, "label")]; ok {
			label := strings.TrimSpace(v[0])
			if label == "" {
				errs = append(errs, problem(path+".label", "Question %d of the group needs a label", k+1))
			} else {
				c.Label = label
			}
		}
		if t := form.Get(questionKey(k, "type")); t != "" && t != c.Type {
			if !hubclient.TakesChild(t) {
				errs = append(errs, problem(path+".type", "A question of a group cannot be a %s: choose one of the types offered", strings.ToLower(kindOf(t).Word)))
			} else {
				retypeChild(c, t)
			}
		}
		if _, ok := form[questionKey(k, "label")]; ok {
			c.Required = form.Get(questionKey(k, "required")) != ""
		}
		if v, ok := form[questionKey(k, "options")]; ok && c.TypeOf().TakesOptions() {
			if os := parseOptions(v[0], c.Options); len(os) > 0 {
				c.Options = os
			} else {
				errs = append(errs, problem(path+".options", "Question %d of the group needs one option at least: write one a line", k+1))
			}
		}
	}
	return errs
}

// retypeChild changes a group's question to type t: options kept or
// made, what t does not take dropped.
func retypeChild(c *hubclient.Field, t string) {
	c.Type = t
	tt := c.TypeOf()
	switch {
	case tt.TakesOptions() && len(c.Options) == 0:
		c.Options = newOptions(t)
	case !tt.TakesOptions():
		c.Options = nil
	}
	if !tt.TakesText() {
		c.MinLength, c.MaxLength, c.Pattern = 0, 0, ""
	}
	if tt.Range() == nil {
		c.Min, c.Max, c.Step = "", "", 0
	}
	if !tt.TakesItems() {
		c.MinItems, c.MaxItems = 0, 0
	}
	c.Messages = nil
}

// questionAction moves, removes or adds a question of the group, as the
// button posted asks.
func questionAction(f *hubclient.Field, i int, form url.Values) []error {
	act := form.Get(questionActionField)
	if act == "" {
		return nil
	}
	path := fmt.Sprintf("fields[%d].fields", i)
	if act == "add" {
		label := strings.TrimSpace(form.Get("newQuestion"))
		if label == "" {
			return []error{problem(path, "Write the new question's label, then add it")}
		}
		t := form.Get("newQuestionType")
		if t == "" {
			t = hubclient.FieldText
		}
		if !hubclient.TakesChild(t) {
			return []error{problem(path, "A question of a group cannot be a %s: choose one of the types offered", strings.ToLower(kindOf(t).Word))}
		}
		c := hubclient.Field{Name: childName(f, nameFrom(label)), Type: t, Label: label}
		if c.TypeOf().TakesOptions() {
			c.Options = newOptions(t)
		}
		f.Fields = append(f.Fields, c)
		return nil
	}
	verb, at, _ := strings.Cut(act, ":")
	k, err := strconv.Atoi(at)
	if err != nil || k < 0 || k >= len(f.Fields) {
		return []error{problem(path, "there is no question %s in the group", at)}
	}
	switch verb {
	case "up", "down":
		j := k - 1
		if verb == "down" {
			j = k + 1
		}
		if j < 0 || j >= len(f.Fields) {
			return []error{problem(path, "Question %d cannot move further %s", k+1, verb)}
		}
		f.Fields[k], f.Fields[j] = f.Fields[j], f.Fields[k]
	case "remove":
		if len(f.Fields) == 1 {
			return []error{problem(path, "A group asks one question at least: add another before removing this one")}
		}
		f.Fields = slices.Delete(f.Fields, k, k+1)
	default:
		return []error{problem(path, "Say what to do with the question: up, down or remove")}
	}
	return nil
}

// childName returns base, or base_2 ..., the first name no question of
// the group f has.
func childName(f *hubclient.Field, base string) string {
	if base == "" {
		base = "question"
	}
	for n, try := 2, base; ; n++ {
		if f.Child(try) == nil {
			return try
		}
		try = base + "_" + strconv.Itoa(n)
	}
}

// partsTranslations drops what the translations give of f's parts that
// it no longer has: rows and columns gone, questions removed, and the
// options of a question gone.
func partsTranslations(s *hubclient.Schema, f *hubclient.Field) {
	keep := func(m map[string]string, os []hubclient.Option) {
		for value := range m {
			if !slices.ContainsFunc(os, func(o hubclient.Option) bool { return o.Value == value }) {
				delete(m, value)
			}
		}
	}
	for _, tr := range s.I18n.Translations {
		ft, ok := tr.Fields[f.Name]
		if !ok {
			continue
		}
		keep(ft.Rows, f.Rows)
		keep(ft.Columns, f.Columns)
		for name, ct := range ft.Fields {
			c := f.Child(name)
			if c == nil {
				delete(ft.Fields, name)
				continue
			}
			keep(ct.Options, c.Options)
		}
		tr.Fields[f.Name] = ft
	}
}

// itemsText is a group's bound as its input shows it: empty for none.
func itemsText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

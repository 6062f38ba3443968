package hubclient

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Problems of a value against its field's rules (see Field). Each is also
// the member of Field.Messages that replaces its built-in text.
const (
	ProblemMinLength = "minLength"
	ProblemMaxLength = "maxLength"
	ProblemPattern   = "pattern"
	ProblemMin       = "min"
	ProblemMax       = "max"
	ProblemStep      = "step"
	ProblemMinItems  = "minItems"
	ProblemMaxItems  = "maxItems"
)

// RuleNames are the codes Field.Messages may hold a message for.
var RuleNames = []string{
	ProblemRequired, ProblemMinLength, ProblemMaxLength, ProblemPattern,
	ProblemMin, ProblemMax, ProblemStep, ProblemMinItems, ProblemMaxItems,
}

// Problem is what is wrong with one field's value: a code (ProblemRequired,
// ProblemMinLength, …), also the key of the built-in text that explains it,
// and the limit of the rule broken ("5", "2026-12-31"), for "{limit}".
type Problem struct {
	Code  string
	Limit string
}

// Text returns the problem's message: the field's own message for the
// code, else builtin's text for it, with "{limit}" filled in.
func (p Problem) Text(f *Field, builtin func(code string) string) string {
	if item, child, inner, ok := p.groupItem(); ok {
		if c := f.Child(child); c != nil {
			// "Entry 2, Email: Enter an email address."
			label := c.Label
			if label == "" {
				label = c.Name
			}
			return strings.NewReplacer("{n}", strconv.Itoa(item), "{label}", label, "{message}", inner.Text(c, builtin)).Replace(builtin(ProblemGroupItem))
		}
	}
	msg := f.Messages[p.Code]
	if msg == "" && (p.Code == ProblemMatrixRows || p.Code == ProblemAddress) {
		// A part missing from a required matrix or address breaks
		// required: the field's own message for it says so too.
		msg = f.Messages[ProblemRequired]
	}
	if msg == "" {
		msg = builtin(p.Code)
	}
	return strings.ReplaceAll(msg, "{limit}", p.Limit)
}

// Check judges values (typed as Values types them; a file field's value
// is the list of its files' names) against the schema: conditions, the
// required fields, the types, and every rule. It returns the outcome of
// the conditions and a problem per field, or nil. Values of hidden fields
// are not judged: callers drop them (Outcome.Drop).
func (l *Logic) Check(values map[string]any) (*Outcome, map[string]Problem) {
	o := l.Evaluate(values)
	problems := map[string]Problem{}
	for i := range l.schema.Fields {
		f := &l.schema.Fields[i]
		if IsHoneypot(f.Name) || !o.Visible(f.Name) || !f.TypeOf().HasValue() {
			continue
		}
		if p := l.checkField(f, o.Required(f.Name), values[f.Name]); p.Code != "" {
			problems[f.Name] = p
		}
	}
	if len(problems) == 0 {
		return o, nil
	}
	return o, problems
}

// Drop deletes the values of hidden fields from values.
func (o *Outcome) Drop(values map[string]any) {
	for name := range o.hidden {
		delete(values, name)
	}
}

func (l *Logic) checkField(f *Field, required bool, v any) Problem {
	if f.TypeOf().IsFiles() {
		n := itemCount(v)
		switch {
		case n == 0 && required:
			return Problem{Code: ProblemRequired}
		case n > 1 && !f.Multiple:
			return Problem{Code: ProblemOneFile}
		}
		return checkItems(f, n)
	}
	g := *f
	g.Required = required
	if code := CheckValue(&g, v); code != "" {
		return Problem{Code: code}
	}
	if f.TypeOf().IsGroup() && !IsEmptyValue(v) {
		return l.checkGroup(f, v)
	}
	if IsEmptyValue(v) || (f.Type == FieldCheckbox && v == "false") {
		return Problem{}
	}
	t := f.TypeOf()
	switch {
	case t.kind == listValue:
		return checkItems(f, itemCount(v))
	case t.ranged != nil:
		n, _ := t.ranged.value(v)
		return checkRange(f, n, t.ranged.Read)
	case t.text:
		s, _ := v.(string)
		n := utf8.RuneCountInString(s)
		switch {
		case f.MinLength > 0 && n < f.MinLength:
			return Problem{Code: ProblemMinLength, Limit: strconv.Itoa(f.MinLength)}
		case f.MaxLength > 0 && n > f.MaxLength:
			return Problem{Code: ProblemMaxLength, Limit: strconv.Itoa(f.MaxLength)}
		}
		if re := l.patterns[f.Name]; re != nil && !re.MatchString(s) {
			return Problem{Code: ProblemPattern, Limit: f.Pattern}
		}
	}
	return Problem{}
}

func checkItems(f *Field, n int) Problem {
	switch {
	case n == 0:
		// Empty is the business of required.
	case f.MinItems > 0 && n < f.MinItems:
		return Problem{Code: ProblemMinItems, Limit: strconv.Itoa(f.MinItems)}
	case f.MaxItems > 0 && n > f.MaxItems:
		return Problem{Code: ProblemMaxItems, Limit: strconv.Itoa(f.MaxItems)}
	}
	return Problem{}
}

// checkRange checks min, max and step of a value read as a number on its
// range's line (a number, days, minutes); parse reads a bound the same way.
func checkRange(f *Field, n float64, parse func(Bound) (float64, bool)) Problem {
	if lo, ok := parse(f.Min); ok && n < lo {
		return Problem{Code: ProblemMin, Limit: string(f.Min)}
	}
	if hi, ok := parse(f.Max); ok && n > hi {
		return Problem{Code: ProblemMax, Limit: string(f.Max)}
	}
	if f.Step > 0 {
		base, _ := parse(f.Min) // 0 without one: 1970-01-01 or midnight
		q := (n - base) / f.Step
		if math.Abs(q-math.Round(q)) > 1e-9*math.Max(1, math.Abs(q)) {
			return Problem{Code: ProblemStep, Limit: strconv.FormatFloat(f.Step, 'f', -1, 64)}
		}
	}
	return Problem{}
}

// dayNumber returns a date's days since 1970-01-01.
func dayNumber(s string) (float64, bool) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, false
	}
	return float64(t.Unix() / 86400), true
}

func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	case string:
		n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return n, err == nil
	}
	if n, ok := v.(interface{ Float64() (float64, error) }); ok {
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func itemCount(v any) int {
	switch v := v.(type) {
	case []string:
		return len(v)
	case []any:
		return len(v)
	case string:
		if v != "" {
			return 1
		}
	}
	return 0
}

// Values types a form post by the schema, as the hub expects values: text,
// a list for checkboxes, a boolean for a checkbox, a number when the text
// reads as one, and for a file field the names it was given. Names the
// schema does not know are left out.
func Values(s *Schema, posted map[string][]string) map[string]any {
	values := make(map[string]any, len(s.Fields))
	for i := range s.Fields {
		f := &s.Fields[i]
		if !f.TypeOf().HasValue() {
			continue
		}
		if v, ok := f.ValueIn(posted); ok {
			values[f.Name] = v
		}
	}
	return values
}

package hubclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Formats of a calculation's value (Calculation.Format).
const (
	FormatNumber   = "number"
	FormatCurrency = "currency"
	FormatPercent  = "percent"
)

// ScoreName is the name of the calculation that is a form's score: what a
// quiz shows at its end and the Summary sums up.
const ScoreName = "score"

// Calculation is a value computed from the answers with JSONLogic: a price,
// a total, a score. Clients may show it; the hub computes it again from
// the values it stores, and keeps it with the submission. A value sent
// under its name is not read.
type Calculation struct {
	// Name names the value, unique among the fields and the calculations,
	// in the character set of field names: conditions read it as they read
	// a field ({"var": "total"}).
	Name string `json:"name"`
	// Label is what the value is called where it is shown; empty, its name.
	Label string `json:"label,omitempty"`
	// Expr is a JSONLogic expression over the answers and the calculations
	// before this one, with the operators of a condition and "points".
	Expr json.RawMessage `json:"expr"`
	// Format is FormatNumber (the default), FormatCurrency or
	// FormatPercent, a fraction shown as a percentage (0.25 is 25 %).
	Format string `json:"format,omitempty"`
	// Currency is the ISO 4217 code of a currency value ("EUR").
	Currency string `json:"currency,omitempty"`
	// Decimals fixes the digits after the decimal point; nil is the
	// currency's own, none for a percentage, and up to 2 for a number.
	Decimals *int `json:"decimals,omitempty"`
	// Show has the form show the value, kept up to date, below the fields
	// it reads.
	Show  bool  `json:"show,omitempty"`
	Extra Extra `json:"-"`
}

// Quiz makes a form a quiz: after a submission the visitor is shown the
// score, and, with ShowAnswers, which questions were answered right.
type Quiz struct {
	ShowAnswers bool  `json:"showAnswers,omitempty"`
	Extra       Extra `json:"-"`
}

// Calculation returns the calculation called name, or nil.
func (s *Schema) Calculation(name string) *Calculation {
	for i := range s.Calculations {
		if s.Calculations[i].Name == name {
			return &s.Calculations[i]
		}
	}
	return nil
}

// Title is what the calculation is called where it is shown.
func (c *Calculation) Title() string {
	if c.Label != "" {
		return c.Label
	}
	return c.Name
}

// Worth returns the points an option is worth: its points, else 1 when
// it is a correct answer, else 0.
func (o *Option) Worth() float64 {
	if o.Points != 0 {
		return o.Points
	}
	if o.Correct {
		return 1
	}
	return 0
}

// CalculationError is a problem of the calculation at Index in the
// schema's calculations, of name Name, as Compile reports it; Member is
// the member at fault ("name" or "expr").
type CalculationError struct {
	Index  int
	Name   string
	Member string
	Err    error
}

func (e *CalculationError) Error() string {
	return fmt.Sprintf("calculation %q: %s: %v", e.Name, e.Member, e.Err)
}

func (e *CalculationError) Unwrap() error { return e.Err }

// pointsKey is where the points of the answer to field name are kept
// among the values a rule sees: "points" reads them as "var" does a
// field. No field's name holds a colon.
func pointsKey(name string) string { return "points:" + name }

// compileCalculations parses the calculations' expressions in their order:
// each may read the fields, by known, and the calculations before it, so
// that none depends on itself. It records what each reads, its fields
// with those of the calculations it reads, so that a condition reading a
// calculation is ordered after them.
func (l *Logic) compileCalculations(known func(string) bool) []error {
	var errs []error
	cs := l.schema.Calculations
	if len(cs) == 0 {
		return nil
	}
	l.calcIndex = make(map[string]int, len(cs))
	l.calcFields = make(map[string][]string, len(cs))
	l.calcs = make([]*Condition, len(cs))
	for i := range cs {
		c := &cs[i]
		fail := func(member string, err error) {
			errs = append(errs, &CalculationError{Index: i, Name: c.Name, Member: member, Err: err})
		}
		switch _, dup := l.calcIndex[c.Name]; {
		case c.Name == "":
			fail("name", errors.New("is empty"))
		case dup:
			fail("name", errors.New("is used by more than one calculation"))
		case l.schema.Field(c.Name) != nil:
			fail("name", errors.New("is the name of a field"))
		}
		switch c.Format {
		case "", FormatNumber, FormatPercent:
		case FormatCurrency:
			if !validCurrency(c.Currency) {
				fail("currency", fmt.Errorf("%q is not an ISO 4217 currency code", c.Currency))
			}
		default:
			fail("format", fmt.Errorf("%q is not number, currency or percent", c.Format))
		}
		if d := c.Decimals; d != nil && (*d < 0 || *d > 10) {
			fail("decimals", errors.New("is a whole number from 0 to 10"))
		}
		earlier := func(key string) bool {
			if j, ok := l.calcIndex[key]; ok {
				return j < i
			}
			return known(key)
		}
		var cond *Condition
		var err error
		if len(c.Expr) == 0 {
			err = errors.New("is empty")
		} else if cond, err = parseRule(c.Expr, earlier, l.schema); err != nil && l.laterCalculation(err, i) {
			err = fmt.Errorf("%w: a calculation reads only those before it", err)
		}
		if err != nil {
			fail("expr", err)
		} else {
			l.calcs[i] = cond
			l.calcFields[c.Name] = l.expand(cond.Refs)
		}
		if _, dup := l.calcIndex[c.Name]; !dup && c.Name != "" {
			l.calcIndex[c.Name] = i
		}
	}
	return errs
}

// laterCalculation reports whether err is the refusal of a reference to a
// calculation at or after index i.
func (l *Logic) laterCalculation(err error, i int) bool {
	var u *unknownRef
	if !errors.As(err, &u) {
		return false
	}
	for j := i; j < len(l.schema.Calculations); j++ {
		if l.schema.Calculations[j].Name == u.name {
			return true
		}
	}
	return false
}

// expand returns refs with each calculation among them replaced by the
// fields it reads: what a rule reading them depends on.
func (l *Logic) expand(refs []string) []string {
	if len(l.calcFields) == 0 {
		return refs
	}
	var out []string
	for _, r := range refs {
		if fs, ok := l.calcFields[r]; ok {
			for _, f := range fs {
				if !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		} else if _, calc := l.calcIndex[r]; !calc && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// calcsRead returns one more than the index of the last calculation the
// condition reads: how many calculations to work out before it is
// evaluated.
func (l *Logic) calcsRead(c *Condition) int {
	n := 0
	for _, r := range c.Refs {
		if i, ok := l.calcIndex[r]; ok && i+1 > n {
			n = i + 1
		}
	}
	return n
}

// see adds the value of field name to seen, as a rule sees it, with the
// points of its answer if a rule reads them.
func (l *Logic) see(seen map[string]any, name string, v any) {
	if f := l.schema.Field(name); f != nil && f.Type == FieldGroup {
		seen[name] = groupCondition(v)
	} else {
		seen[name] = logicValue(v)
	}
	if l.scored[name] {
		seen[pointsKey(name)] = l.pointsOf(name, v)
	}
}

// pointsOf returns the points the answer v to field name is worth: the sum
// of those of the options chosen.
func (l *Logic) pointsOf(name string, v any) float64 {
	f := l.schema.Field(name)
	if f == nil {
		return 0
	}
	sum := 0.0
	for _, s := range choices(v) {
		for i := range f.Options {
			if f.Options[i].Value == s {
				sum += f.Options[i].Worth()
			}
		}
	}
	return sum
}

// choices returns the options chosen in v, one or several.
func choices(v any) []string {
	switch v := v.(type) {
	case string:
		if v == "" {
			return nil
		}
		return []string{v}
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// fill works out the first n calculations into seen, in order, each seeing
// the ones before it.
func (l *Logic) fill(seen map[string]any, n int) {
	for i := 0; i < n && i < len(l.calcs); i++ {
		name := l.schema.Calculations[i].Name
		if c := l.calcs[i]; c != nil {
			seen[name] = c.Value(seen)
		} else {
			seen[name] = nil
		}
	}
}

// CalculationFields returns the fields the calculation called name reads,
// through the calculations it reads too.
func (l *Logic) CalculationFields(name string) []string { return l.calcFields[name] }

// HasCalculations reports whether the schema has calculations.
func (l *Logic) HasCalculations() bool { return len(l.calcs) > 0 }

// Calculate returns the value of each calculation of the schema, by name,
// for values typed as Values types them, or as JSON decodes a stored
// payload: a number, a text, a boolean, or nil when it could not be worked
// out (a value it reads is missing, a division by zero). As conditions do,
// calculations see only the values of visible fields: a hidden answer
// counts as unanswered, and is worth no points. It returns nil for a
// schema without calculations.
func (l *Logic) Calculate(values map[string]any) map[string]any {
	if len(l.calcs) == 0 {
		return nil
	}
	seen := l.visibleValues(l.Evaluate(values), values)
	l.fill(seen, len(l.calcs))
	out := make(map[string]any, len(l.calcs))
	for _, c := range l.schema.Calculations {
		out[c.Name] = seen[c.Name]
	}
	return out
}

// visibleValues returns the values of the visible fields of values, as
// rules see them, honeypots left out.
func (l *Logic) visibleValues(o *Outcome, values map[string]any) map[string]any {
	seen := make(map[string]any, len(values)+len(l.calcs))
	for name, v := range values {
		if o.Visible(name) && !IsHoneypot(name) && l.schema.Field(name) != nil {
			l.see(seen, name, v)
		}
	}
	// A group not posted has no entries: team.count reads 0.
	for i := range l.schema.Fields {
		f := &l.schema.Fields[i]
		if _, ok := seen[f.Name]; !ok && f.Type == FieldGroup && o.Visible(f.Name) {
			l.see(seen, f.Name, nil)
		}
	}
	return seen
}

// Value evaluates the rule as an expression over values: a finite number,
// a text or a boolean; nil for anything else or a rule that fails.
func (c *Condition) Value(values map[string]any) (out any) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	v, err := jsonlogicApply(c.rule, values)
	if err != nil {
		return nil
	}
	switch v := v.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	case string, bool:
		return v
	}
	return nil
}

// Right reports, for a question with correct options, whether the answer v
// is right: the options chosen are exactly the correct ones. ok is false
// for a field that is no quiz question (no option marked correct).
func (f *Field) Right(v any) (right, ok bool) {
	var want []string
	for _, o := range f.Options {
		if o.Correct {
			want = append(want, o.Value)
		}
	}
	if len(want) == 0 {
		return false, false
	}
	got := slices.Clone(choices(v))
	slices.Sort(got)
	slices.Sort(want)
	return slices.Equal(got, want), true
}

// QuizAnswers returns, for each quiz question of the schema that was
// visible, whether the stored payload answered it right.
func (l *Logic) QuizAnswers(values map[string]any) map[string]bool {
	o := l.Evaluate(values)
	var out map[string]bool
	for i := range l.schema.Fields {
		f := &l.schema.Fields[i]
		if !o.Visible(f.Name) {
			continue
		}
		if right, ok := f.Right(values[f.Name]); ok {
			if out == nil {
				out = map[string]bool{}
			}
			out[f.Name] = right
		}
	}
	return out
}

// Calculated is a calculation's stored value written for people, under
// the calculation's label.
type Calculated struct {
	Name, Label, Text string
}

// Calculated returns the values among calcs (a submission's, by name) of
// the schema's calculations, in the schema's order, each written by
// FormatValue for locale: what the inbox, exports, the PDF and e-mails
// show. A calculation calcs lacks (a submission stored before it existed)
// is left out; one that could not be worked out is empty.
func (s *Schema) Calculated(calcs map[string]any, locale string) []Calculated {
	if len(calcs) == 0 {
		return nil
	}
	var out []Calculated
	for i := range s.Calculations {
		c := &s.Calculations[i]
		if v, ok := calcs[c.Name]; ok {
			out = append(out, Calculated{Name: c.Name, Label: c.Title(), Text: c.FormatValue(v, locale)})
		}
	}
	return out
}

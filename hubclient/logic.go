package hubclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"

	"github.com/diegoholiveira/jsonlogic/v3"
)

// Limits on one JSONLogic condition, checked when it is parsed, so that a
// hostile schema cannot make evaluation deep or long.
const (
	MaxRuleBytes = 8 << 10
	MaxRuleDepth = 16
	MaxRuleNodes = 256
)

// ruleArity lists the JSONLogic operators a condition may use, with the
// least and most arguments each takes (-1: any number). Operators that
// loop over data (map, reduce, all, …) or change it (set) are left out.
var ruleArity = map[string][2]int{
	"var": {1, 2}, "missing": {1, -1},
	"and": {1, -1}, "or": {1, -1}, "!": {1, 1}, "!!": {1, 1}, "if": {3, -1},
	"==": {2, 2}, "===": {2, 2}, "!=": {2, 2}, "!==": {2, 2},
	"<": {2, 3}, "<=": {2, 3}, ">": {2, 2}, ">=": {2, 2},
	"in": {2, 2}, "cat": {1, -1},
	"+": {1, -1}, "*": {1, -1}, "-": {1, 2}, "/": {2, 2}, "%": {2, 2},
	"min": {1, -1}, "max": {1, -1},
	// points is hubform's own: the points of the answer to a field
	// (Option.Worth), rewritten when parsed to read them as "var" does.
	"points": {1, 1},
}

// Condition is a parsed JSONLogic condition over a form's values.
type Condition struct {
	rule any
	// Refs are the names of the fields the condition reads; one that
	// reads a part of a composite field ("addr.country") reads the field.
	// A calculation the condition reads is named as a field is.
	Refs []string
	// points are the fields whose answers' points the condition reads.
	points []string
}

// unknownRef is the refusal of a reference to a name that is no field.
type unknownRef struct{ name string }

func (e *unknownRef) Error() string { return fmt.Sprintf("refers to unknown field %q", e.name) }

// ParseCondition parses a JSONLogic condition. known reports whether a
// field of that name exists; a condition reading any other is refused.
func ParseCondition(raw json.RawMessage, known func(name string) bool) (*Condition, error) {
	return parseRule(raw, known, nil)
}

// parseRule parses a JSONLogic rule. known reports whether a name may be
// read; schema, when set, is the form whose fields "points" may read: only
// those with options.
func parseRule(raw json.RawMessage, known func(name string) bool, schema *Schema) (*Condition, error) {
	if len(raw) > MaxRuleBytes {
		return nil, fmt.Errorf("longer than %d bytes", MaxRuleBytes)
	}
	var rule any
	if err := json.Unmarshal(raw, &rule); err != nil {
		return nil, errors.New("not JSON")
	}
	p := ruleParser{known: known, schema: schema, seen: map[string]bool{}}
	if err := p.node(rule, 0); err != nil {
		return nil, err
	}
	return &Condition{rule: rule, Refs: p.refs, points: p.points}, nil
}

type ruleParser struct {
	known  func(string) bool
	schema *Schema
	nodes  int
	refs   []string
	points []string
	seen   map[string]bool
}

func (p *ruleParser) node(v any, depth int) error {
	p.nodes++
	if p.nodes > MaxRuleNodes {
		return fmt.Errorf("more than %d parts", MaxRuleNodes)
	}
	if depth > MaxRuleDepth {
		return fmt.Errorf("nested deeper than %d", MaxRuleDepth)
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			if err := p.node(e, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		if len(v) != 1 {
			return errors.New("an operation is an object of exactly one operator")
		}
		for op, arg := range v {
			if op == "points" {
				return p.pointsOf(v, arg)
			}
			return p.operation(op, arg, depth)
		}
	}
	return nil
}

func (p *ruleParser) operation(op string, arg any, depth int) error {
	arity, ok := ruleArity[op]
	if !ok {
		return fmt.Errorf("operator %q is not supported", op)
	}
	args, isList := arg.([]any)
	if !isList {
		args = []any{arg}
	}
	if len(args) < arity[0] || (arity[1] >= 0 && len(args) > arity[1]) {
		return fmt.Errorf("operator %q takes %s arguments, not %d", op, arityText(arity), len(args))
	}
	switch op {
	case "var":
		name, ok := args[0].(string)
		if !ok {
			return errors.New(`"var" takes a field name`)
		}
		return p.ref(name)
	case "missing":
		for _, a := range args {
			name, ok := a.(string)
			if !ok {
				return errors.New(`"missing" takes field names`)
			}
			if err := p.ref(name); err != nil {
				return err
			}
		}
		return nil
	case "if":
		if len(args)%2 == 0 {
			return errors.New(`"if" takes condition and value pairs and a last value`)
		}
	}
	for _, a := range args {
		if err := p.node(a, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// pointsOf checks {"points": "q1"} and rewrites it in op, in place, to
// read the points of q1's answer where Logic keeps them (pointsKey), 0
// when there are none.
func (p *ruleParser) pointsOf(op map[string]any, arg any) error {
	if args, ok := arg.([]any); ok && len(args) == 1 {
		arg = args[0]
	}
	name, ok := arg.(string)
	if !ok {
		return errors.New(`"points" takes the name of a field`)
	}
	if err := p.ref(name); err != nil {
		return err
	}
	if p.schema != nil {
		if f := p.schema.Field(name); f == nil || !f.TypeOf().TakesOptions() {
			return fmt.Errorf(`"points" reads a field with options, not %q`, name)
		}
	}
	if !slices.Contains(p.points, name) {
		p.points = append(p.points, name)
	}
	delete(op, "points")
	op["var"] = []any{pointsKey(name), 0.0}
	return nil
}

func (p *ruleParser) ref(key string) error {
	if !p.known(key) {
		return &unknownRef{name: key}
	}
	// A part of a composite field ("addr.country") is read from the
	// field's value: the condition depends on the field.
	name, _, _ := SplitKey(key)
	if !p.seen[name] {
		p.seen[name] = true
		p.refs = append(p.refs, name)
	}
	return nil
}

func arityText(a [2]int) string {
	switch {
	case a[1] < 0:
		return fmt.Sprintf("at least %d", a[0])
	case a[0] == a[1]:
		return fmt.Sprint(a[0])
	}
	return fmt.Sprintf("%d to %d", a[0], a[1])
}

// Holds reports whether the condition holds for values (as JSON decodes
// them: text, numbers, booleans, lists of text). A condition that cannot
// be evaluated does not hold.
func (c *Condition) Holds(values map[string]any) (holds bool) {
	defer func() {
		if recover() != nil {
			holds = false
		}
	}()
	// ApplyInterface is deprecated in favour of Apply, which takes the rule
	// and the values as JSON text and decodes both on every call; conditions
	// are evaluated for every field on every render and post, on values
	// already decoded, so the decoded entry point stays until the library
	// offers another.
	out, err := jsonlogicApply(c.rule, values)
	return err == nil && truthy(out)
}

// jsonlogicApply evaluates a parsed rule over decoded values.
func jsonlogicApply(rule any, values map[string]any) (any, error) {
	//lint:ignore SA1019 the only entry point that takes decoded values
	return jsonlogic.ApplyInterface(rule, values)
}

// truthy is JSONLogic's truth: false, null, 0, "" and [] are false.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0
	case string:
		return v != ""
	case []any:
		return len(v) > 0
	}
	return true
}

// Logic is a schema's conditions and rules, compiled once: which fields
// and steps are visible and required for given values, and what is wrong
// with the values. The app and the hub both judge with it.
type Logic struct {
	schema     *Schema
	visibleIf  map[string]*Condition // by field name
	requiredIf map[string]*Condition
	stepIf     map[string]*Condition // by step id
	stepOf     map[string]string     // field name → step id
	endingIf   map[int]*Condition    // by index in schema.Endings
	// calcs are the calculations' expressions, in the schema's order (nil
	// for one that did not parse); calcIndex finds one by name, and
	// calcFields lists the fields each reads, through the calculations it
	// reads too.
	calcs      []*Condition
	calcIndex  map[string]int
	calcFields map[string][]string
	// scored are the fields whose answers' points some rule reads.
	scored   map[string]bool
	patterns map[string]*regexp.Regexp
	// order lists the fields so that each comes after every field its
	// visibility depends on.
	order []string
	// triggers are the fields some condition reads.
	triggers map[string]bool
	// fixed is the outcome of a schema without conditions, the same for
	// all values: Evaluate returns it rather than work it out again.
	fixed *Outcome
	// recall holds the texts that recall answers, parsed.
	recall recall
}

// Compile parses the schema's conditions and patterns. Its error joins one
// error per problem, each naming the field or step. A condition may read
// any field but itself; visibility may not depend on itself through other
// fields.
func Compile(s *Schema) (*Logic, error) {
	l := &Logic{
		schema: s, visibleIf: map[string]*Condition{}, requiredIf: map[string]*Condition{},
		stepIf: map[string]*Condition{}, stepOf: map[string]string{}, patterns: map[string]*regexp.Regexp{},
		triggers: map[string]bool{},
	}
	fieldKnown := func(key string) bool { return s.KeyOf(key) != nil }
	// Calculations come first: a condition may read any of them.
	errs := l.compileCalculations(fieldKnown)
	known := func(key string) bool {
		if _, ok := l.calcIndex[key]; ok {
			return true
		}
		return fieldKnown(key)
	}
	// kind and name say where a condition is (field "email"); they are
	// formatted only for an error, since most schemas have none.
	parse := func(kind, name, member string, raw json.RawMessage) *Condition {
		if len(raw) == 0 {
			return nil
		}
		c, err := parseRule(raw, known, s)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %q: %s: %w", kind, name, member, err))
			return nil
		}
		for _, r := range l.expand(c.Refs) {
			l.triggers[r] = true
		}
		l.score(c)
		return c
	}
	for _, st := range s.Steps {
		for _, name := range st.Fields {
			l.stepOf[name] = st.ID
		}
		if c := parse("step", st.ID, "visibleIf", st.VisibleIf); c != nil {
			l.stepIf[st.ID] = c
		}
	}
	for i := range s.Fields {
		f := &s.Fields[i]
		if c := parse("field", f.Name, "visibleIf", f.VisibleIf); c != nil {
			l.visibleIf[f.Name] = c
		}
		if c := parse("field", f.Name, "requiredIf", f.RequiredIf); c != nil {
			l.requiredIf[f.Name] = c
		}
		for _, c := range f.Fields {
			// A group's child's pattern, under "group.child".
			if re, err := regexp.Compile(`^(?:` + c.Pattern + `)$`); c.Pattern != "" && err == nil {
				l.patterns[f.Name+"."+c.Name] = re
			} else if c.Pattern != "" {
				errs = append(errs, fmt.Errorf("field %q: fields %q: pattern is not an RE2 expression: %w", f.Name, c.Name, err))
			}
		}
		if f.Pattern != "" {
			re, err := regexp.Compile(`^(?:` + f.Pattern + `)$`)
			if err != nil {
				errs = append(errs, fmt.Errorf("field %q: pattern is not an RE2 expression: %w", f.Name, err))
			} else {
				l.patterns[f.Name] = re
			}
		}
	}
	if err := l.sort(); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, l.compileEndings(known)...)
	for i, c := range l.calcs {
		if c == nil {
			continue
		}
		l.score(c)
		// A value shown in the form is worked out again as the fields it
		// reads change.
		if s.Calculations[i].Show {
			for _, r := range l.calcFields[s.Calculations[i].Name] {
				l.triggers[r] = true
			}
		}
	}
	l.compileRecall()
	if !l.HasConditions() {
		l.fixed = l.Evaluate(nil)
	}
	return l, errors.Join(errs...)
}

// deps returns the fields whose values the visibility of field name reads.
func (l *Logic) deps(name string) []string {
	var out []string
	if c := l.visibleIf[name]; c != nil {
		out = append(out, l.expand(c.Refs)...)
	}
	if c := l.stepIf[l.stepOf[name]]; c != nil {
		out = append(out, l.expand(c.Refs)...)
	}
	return out
}

// score records the fields whose points c reads.
func (l *Logic) score(c *Condition) {
	for _, name := range c.points {
		if l.scored == nil {
			l.scored = map[string]bool{}
		}
		l.scored[name] = true
	}
}

// holds evaluates c over seen, once the calculations it reads are worked
// out from seen: every field they read was decided before (sort).
func (l *Logic) holds(c *Condition, seen map[string]any) bool {
	if n := l.calcsRead(c); n > 0 {
		l.fill(seen, n)
	}
	return c.Holds(seen)
}

// sort orders the fields by their visibility's dependencies, refusing a
// cycle.
func (l *Logic) sort() error {
	const (
		unseen = iota
		visiting
		done
	)
	state := map[string]int{}
	var visit func(name string, path []string) error
	visit = func(name string, path []string) error {
		switch state[name] {
		case visiting:
			return fmt.Errorf("field %q: visibleIf depends on itself (%v)", name, append(path, name))
		case done:
			return nil
		}
		state[name] = visiting
		for _, d := range l.deps(name) {
			if err := visit(d, append(path, name)); err != nil {
				return err
			}
		}
		state[name] = done
		l.order = append(l.order, name)
		return nil
	}
	for _, f := range l.schema.Fields {
		if err := visit(f.Name, nil); err != nil {
			return err
		}
	}
	return nil
}

// HasConditions reports whether some condition decides a field's or a
// step's visibility or requiredness. Without, Evaluate decides the same
// for all values, and ignores them.
func (l *Logic) HasConditions() bool {
	return len(l.visibleIf) > 0 || len(l.requiredIf) > 0 || len(l.stepIf) > 0
}

// IsTrigger reports whether some condition reads the field called name.
func (l *Logic) IsTrigger(name string) bool { return l.triggers[name] }

// IsConditional reports whether the field's visibility or requiredness
// depends on other fields.
func (l *Logic) IsConditional(name string) bool {
	return l.visibleIf[name] != nil || l.requiredIf[name] != nil || l.stepIf[l.stepOf[name]] != nil
}

// Outcome is what a form's conditions decide for given values.
type Outcome struct {
	hidden   map[string]bool
	required map[string]bool
	skipped  map[string]bool
}

// Visible reports whether the field called name is shown and sent.
func (o *Outcome) Visible(name string) bool { return !o.hidden[name] }

// Required reports whether the field called name must have a value: it is
// visible and required, or its requiredIf holds.
func (o *Outcome) Required(name string) bool { return o.required[name] }

// StepVisible reports whether the step is shown; a skipped one is not.
func (o *Outcome) StepVisible(id string) bool { return !o.skipped[id] }

// Evaluate decides which fields and steps are visible and which fields
// are required, for values typed as Values does. A condition sees only the
// values of visible fields: a field hidden hides what depends on it. The
// outcome may be shared between calls.
func (l *Logic) Evaluate(values map[string]any) *Outcome {
	if l.fixed != nil {
		return l.fixed
	}
	o := &Outcome{hidden: map[string]bool{}, required: map[string]bool{}, skipped: map[string]bool{}}
	seen := make(map[string]any, len(values))
	for _, name := range l.order {
		visible := true
		if c := l.stepIf[l.stepOf[name]]; c != nil && !l.holds(c, seen) {
			visible = false
		}
		if c := l.visibleIf[name]; visible && c != nil && !l.holds(c, seen) {
			visible = false
		}
		if !visible {
			o.hidden[name] = true
			continue
		}
		if v, ok := values[name]; ok || l.schema.Field(name).Type == FieldGroup {
			l.see(seen, name, v)
		}
	}
	// Every value a step's condition reads came before its fields, so the
	// condition decides the same now.
	for id, c := range l.stepIf {
		if !l.holds(c, seen) {
			o.skipped[id] = true
		}
	}
	for _, name := range l.order {
		f := l.schema.Field(name)
		if o.hidden[name] || IsHoneypot(name) {
			continue
		}
		c := l.requiredIf[name]
		o.required[name] = f.Required || (c != nil && l.holds(c, seen))
	}
	return o
}

// logicValue is a value as a condition sees it: JSON's types.
func logicValue(v any) any {
	switch v := v.(type) {
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out
	case int:
		return float64(v)
	case json.Number:
		n, _ := v.Float64()
		return n
	case map[string]any:
		// A composite value's parts, read as {"var": "addr.country"}.
		out := make(map[string]any, len(v))
		for k, part := range v {
			out[k] = logicValue(part)
		}
		return out
	}
	return v
}

package console

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// A field's visibleIf and requiredIf are JSONLogic. The builder shows the
// conditions an owner would write ("Show this field when Size is Large")
// as rows of a field, an operator and a value, joined by All or Any, and
// writes them back as the JSONLogic the hub and the components evaluate.
// The rows cover a small subset of JSONLogic, in one spelling each; any
// other condition is shown as its text and kept as it is.

// Operators of a condition row, as posted by the editor.
const (
	opIs          = "is"
	opIsNot       = "isnot"
	opContains    = "contains"
	opNotContains = "notcontains"
	opAtLeast     = "atleast"
	opAtMost      = "atmost"
	opMore        = "more"
	opLess        = "less"
	opEmpty       = "empty"
	opFilled      = "filled"
	opChecked     = "checked"
	opUnchecked   = "unchecked"
)

// maxConditionRows bounds the rows of one condition.
const maxConditionRows = 20

// conditionRow is one comparison: the name of the field it reads, its
// operator and the value, as the owner typed it.
type conditionRow struct {
	Field, Op, Value string
}

// condition is a field's visibleIf or requiredIf as rows; Any joins them
// with "or", else "and".
type condition struct {
	Any  bool
	Rows []conditionRow
}

// conditionMember is one of a field's two conditions: its member in the
// file, the heading of its editor and the words of its badge.
type conditionMember struct {
	Name    string // visibleIf, requiredIf
	Heading string // Show this field when
	Badge   string // Conditional
	Lead    string // Shown when
}

// conditionMembers lists the conditions the editor shows, in its order.
var conditionMembers = []conditionMember{
	{Name: "visibleIf", Heading: "Show this field when", Badge: "Conditional", Lead: "Shown when"},
	{Name: "requiredIf", Heading: "Required when", Badge: "Required when…", Lead: "Required when"},
}

// raw returns the member's condition of f.
func (m conditionMember) raw(f *hubclient.Field) json.RawMessage {
	if m.Name == "requiredIf" {
		return f.RequiredIf
	}
	return f.VisibleIf
}

// set sets the member's condition of f.
func (m conditionMember) set(f *hubclient.Field, raw json.RawMessage) {
	if m.Name == "requiredIf" {
		f.RequiredIf = raw
	} else {
		f.VisibleIf = raw
	}
}

// opChoice is an operator offered for a type of field, in words.
type opChoice struct{ Op, Label string }

// opsFor returns the operators a condition may apply to a field of type t,
// the first the default; none for a type no condition reads.
func opsFor(t string) []opChoice {
	switch t {
	case hubclient.FieldText, hubclient.FieldEmail, hubclient.FieldTel, hubclient.FieldURL,
		hubclient.FieldTextarea, hubclient.FieldHidden:
		return []opChoice{{opIs, "is"}, {opIsNot, "is not"}, {opContains, "contains"},
			{opNotContains, "does not contain"}, {opEmpty, "is empty"}, {opFilled, "is not empty"}}
	case hubclient.FieldNumber, hubclient.FieldRating, hubclient.FieldScale, hubclient.FieldNPS, hubclient.FieldSlider:
		// "Empty" would count 0 as empty, as JSONLogic's truth does.
		return []opChoice{{opIs, "is"}, {opIsNot, "is not"}, {opAtLeast, "is at least"},
			{opAtMost, "is at most"}, {opMore, "is more than"}, {opLess, "is less than"}}
	case hubclient.FieldDate:
		return []opChoice{{opIs, "is"}, {opIsNot, "is not"}, {opAtLeast, "is on or after"},
			{opAtMost, "is on or before"}, {opEmpty, "is empty"}, {opFilled, "is not empty"}}
	case hubclient.FieldSelect, hubclient.FieldRadio:
		return []opChoice{{opIs, "is"}, {opIsNot, "is not"}, {opEmpty, "is empty"}, {opFilled, "is not empty"}}
	case hubclient.FieldCheckboxes:
		return []opChoice{{opContains, "includes"}, {opNotContains, "does not include"},
			{opEmpty, "has none chosen"}, {opFilled, "has one chosen or more"}}
	case hubclient.FieldCheckbox:
		return []opChoice{{opChecked, "is checked"}, {opUnchecked, "is not checked"}}
	case hubclient.FieldFile:
		return []opChoice{{opFilled, "has a file"}, {opEmpty, "has no file"}}
	}
	return nil
}

// opLabel returns the words of op for a field of type t, "" when the type
// does not offer it.
func opLabel(t, op string) string {
	for _, o := range opsFor(t) {
		if o.Op == op {
			return o.Label
		}
	}
	return ""
}

// takesValue reports whether op compares with a value.
func takesValue(op string) bool {
	switch op {
	case opEmpty, opFilled, opChecked, opUnchecked:
		return false
	}
	return true
}

// isChoice reports whether a field of type t takes its value among options.
func isChoice(t string) bool {
	return t == hubclient.FieldSelect || t == hubclient.FieldRadio || t == hubclient.FieldCheckboxes
}

// conditionSources returns the fields a condition of field i may read:
// those above it that a visitor fills in or the address sets, not
// honeypots.
func conditionSources(s *hubclient.Schema, i int) []*hubclient.Field {
	var out []*hubclient.Field
	for j := 0; j < i && j < len(s.Fields); j++ {
		f := &s.Fields[j]
		if !hubclient.IsHoneypot(f.Name) && opsFor(f.Type) != nil {
			out = append(out, f)
		}
		if f.Type == hubclient.FieldGroup {
			out = append(out, groupCount(f))
		}
	}
	return out
}

// groupCountSuffix names a group's number of entries in a condition:
// {"var": "team.count"} (hubclient/SCHEMA.md).
const groupCountSuffix = ".count"

// groupCount is the number of entries of group g as a condition reads
// it, a number named for the owner.
func groupCount(g *hubclient.Field) *hubclient.Field {
	return &hubclient.Field{Name: g.Name + groupCountSuffix, Type: hubclient.FieldNumber, Label: "Number of " + cmp.Or(g.Label, g.Name)}
}

// conditionField returns the field a condition's row reads by name: a
// field of the schema, or a group's number of entries; nil for none.
func conditionField(s *hubclient.Schema, name string) *hubclient.Field {
	if f := s.Field(name); f != nil {
		return f
	}
	if g := s.Field(strings.TrimSuffix(name, groupCountSuffix)); g != nil && g.Type == hubclient.FieldGroup && strings.HasSuffix(name, groupCountSuffix) {
		return groupCount(g)
	}
	return nil
}

// hasSource reports whether the sources of a condition offer the field
// called name.
func hasSource(src []*hubclient.Field, name string) bool {
	return slices.ContainsFunc(src, func(f *hubclient.Field) bool { return f.Name == name })
}

// fieldIndex returns the position of the field called name, that of its
// group for a group's number of entries, or -1.
func fieldIndex(s *hubclient.Schema, name string) int {
	if conditionField(s, name) != nil && s.Field(name) == nil {
		name = strings.TrimSuffix(name, groupCountSuffix)
	}
	return slices.IndexFunc(s.Fields, func(f hubclient.Field) bool { return f.Name == name })
}

// parseCondition reads the stored condition of field i as rows. ok is
// false for a condition the editor cannot show: JSONLogic outside its
// subset, or one reading the field itself, a field after it or one that
// does not exist. An empty raw is no rows.
func parseCondition(s *hubclient.Schema, i int, raw json.RawMessage) (c condition, ok bool) {
	c, ok = readCondition(s, raw)
	if !ok {
		return condition{}, false
	}
	for _, r := range c.Rows {
		if j := fieldIndex(s, r.Field); j >= i {
			return condition{}, false
		}
	}
	return c, true
}

// readCondition is parseCondition without the order of the fields.
func readCondition(s *hubclient.Schema, raw json.RawMessage) (condition, bool) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return condition{}, true
	}
	if len(raw) > hubclient.MaxRuleBytes {
		return condition{}, false
	}
	var node any
	if json.Unmarshal(raw, &node) != nil {
		return condition{}, false
	}
	var c condition
	if op, args, ok := operation(node); ok && (op == "and" || op == "or") {
		if len(args) == 0 || len(args) > maxConditionRows {
			return condition{}, false
		}
		c.Any = op == "or"
		for _, a := range args {
			r, ok := readRow(s, a, false)
			if !ok {
				return condition{}, false
			}
			c.Rows = append(c.Rows, r)
		}
		return c, true
	}
	r, ok := readRow(s, node, true)
	if !ok {
		return condition{}, false
	}
	c.Rows = []conditionRow{r}
	return c, true
}

// operation splits a JSONLogic operation into its operator and its
// arguments, a single argument as a list of one.
func operation(node any) (op string, args []any, ok bool) {
	m, isMap := node.(map[string]any)
	if !isMap || len(m) != 1 {
		return "", nil, false
	}
	for k, v := range m {
		op = k
		if l, isList := v.([]any); isList {
			args = l
		} else {
			args = []any{v}
		}
	}
	return op, args, true
}

// listOp is operation for an operator written with its arguments in a
// list, as the editor writes "!" and "!!": JSONLogic evaluates "!" of a
// bare null as null, unlike "!" of [null].
func listOp(node any) (op string, args []any, ok bool) {
	m, isMap := node.(map[string]any)
	if !isMap || len(m) != 1 {
		return "", nil, false
	}
	for k, v := range m {
		l, isList := v.([]any)
		return k, l, isList
	}
	return "", nil, false
}

// varName returns the field a {"var": name} reads.
func varName(node any) (string, bool) {
	op, args, ok := operation(node)
	if !ok || op != "var" || len(args) != 1 {
		return "", false
	}
	name, ok := args[0].(string)
	return name, ok && name != ""
}

// readRow reads one comparison in the spellings the editor writes, and
// {"var": name} alone as the whole condition (a checked box, a value
// given): within "and" the library takes a null for true.
func readRow(s *hubclient.Schema, node any, whole bool) (conditionRow, bool) {
	var r conditionRow
	var value any
	if name, ok := varName(node); ok && whole {
		r.Field, r.Op = name, opFilled
	} else if op, args, ok := listOp(node); ok && (op == "!" || op == "!!") && len(args) == 1 {
		if name, ok := varName(args[0]); ok {
			r.Field, r.Op = name, opEmpty
			if op == "!!" {
				r.Op = opFilled
			}
		} else if inner, in, ok := operation(args[0]); op == "!" && ok && inner == "in" && len(in) == 2 {
			if r.Field, ok = varName(in[1]); !ok {
				return r, false
			}
			r.Op, value = opNotContains, in[0]
		} else {
			return r, false
		}
	} else if op, args, ok := operation(node); ok && len(args) == 2 {
		switch op {
		case "==", "!=", ">=", "<=", ">", "<":
			r.Field, ok = varName(args[0])
			r.Op, value = map[string]string{"==": opIs, "!=": opIsNot, ">=": opAtLeast, "<=": opAtMost, ">": opMore, "<": opLess}[op], args[1]
		case "in":
			r.Field, ok = varName(args[1])
			r.Op, value = opContains, args[0]
		default:
			ok = false
		}
		if !ok {
			return r, false
		}
	} else {
		return r, false
	}
	f := conditionField(s, r.Field)
	if f == nil || hubclient.IsHoneypot(f.Name) {
		return r, false
	}
	if f.Type == hubclient.FieldCheckbox {
		r.Op = map[string]string{opFilled: opChecked, opEmpty: opUnchecked}[r.Op]
	}
	if opLabel(f.Type, r.Op) == "" {
		return r, false
	}
	if !takesValue(r.Op) {
		return r, true
	}
	// The value's JSON type is the one the editor writes for the field,
	// so that writing the row again means the same.
	switch v := value.(type) {
	case float64:
		if !numeric(f.Type) {
			return r, false
		}
		r.Value = strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		if numeric(f.Type) {
			return r, false
		}
		r.Value = v
	default:
		return r, false
	}
	return r, true
}

// encodeCondition writes rows as JSONLogic; no rows is no condition.
func encodeCondition(s *hubclient.Schema, c condition) json.RawMessage {
	if len(c.Rows) == 0 {
		return nil
	}
	var node any
	if len(c.Rows) == 1 {
		node = rowLogic(s, c.Rows[0])
	} else {
		rows := make([]any, len(c.Rows))
		for k, r := range c.Rows {
			rows[k] = rowLogic(s, r)
		}
		join := "and"
		if c.Any {
			join = "or"
		}
		node = map[string]any{join: rows}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// ">=" reads better than "\u003e=" in the JSON file.
	enc.SetEscapeHTML(false)
	_ = enc.Encode(node)
	return bytes.TrimSpace(b.Bytes())
}

// rowLogic is one row as JSONLogic, its value typed as the field's.
func rowLogic(s *hubclient.Schema, r conditionRow) any {
	v := map[string]any{"var": r.Field}
	var value any = r.Value
	if f := conditionField(s, r.Field); f != nil && numeric(f.Type) {
		n, _ := strconv.ParseFloat(strings.TrimSpace(r.Value), 64)
		value = n
	}
	switch r.Op {
	case opIs:
		return map[string]any{"==": []any{v, value}}
	case opIsNot:
		return map[string]any{"!=": []any{v, value}}
	case opContains:
		return map[string]any{"in": []any{value, v}}
	case opNotContains:
		return map[string]any{"!": []any{map[string]any{"in": []any{value, v}}}}
	case opAtLeast:
		return map[string]any{">=": []any{v, value}}
	case opAtMost:
		return map[string]any{"<=": []any{v, value}}
	case opMore:
		return map[string]any{">": []any{v, value}}
	case opLess:
		return map[string]any{"<": []any{v, value}}
	case opEmpty, opUnchecked:
		return map[string]any{"!": []any{v}}
	}
	return map[string]any{"!!": []any{v}}
}

// dateValue is a date as a date input posts it.
var dateValue = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// checkCondition refuses rows the editor should not write for field i:
// a field that is not above it, an operator its type does not offer, a
// value missing or not of its kind.
func checkCondition(s *hubclient.Schema, i int, m conditionMember, c condition) error {
	var errs []error
	path := fmt.Sprintf("fields[%d].%s", i, m.Name)
	self := s.Fields[i].Name
	if len(c.Rows) > maxConditionRows {
		return problem(path, "%s: at most %d conditions", m.Heading, maxConditionRows)
	}
	for k, r := range c.Rows {
		at := fmt.Sprintf("%s, condition %d", m.Heading, k+1)
		j, f := fieldIndex(s, r.Field), conditionField(s, r.Field)
		switch {
		case r.Field == "":
			errs = append(errs, problem(path, "%s: choose a field", at))
			continue
		case r.Field == self || j == i:
			errs = append(errs, problem(path, "%s: a field cannot depend on itself", at))
			continue
		case j < 0:
			errs = append(errs, problem(path, "%s: there is no field %q", at, r.Field))
			continue
		case j > i:
			errs = append(errs, problem(path, "%s: %s comes after this field; a condition reads the fields above it (move %s up first)", at, fieldWords(&s.Fields[j]), fieldWords(&s.Fields[j])))
			continue
		case hubclient.IsHoneypot(r.Field) || opsFor(f.Type) == nil:
			errs = append(errs, problem(path, "%s: no condition can read %s", at, fieldWords(f)))
			continue
		}
		if err := checkRow(f, r, path, at); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// checkRow refuses a row reading f whose operator f's type does not
// offer, or whose value is missing or not of its kind.
func checkRow(f *hubclient.Field, r conditionRow, path, at string) error {
	if opLabel(f.Type, r.Op) == "" {
		return problem(path, "%s: choose how to compare %s (the choices changed with the field)", at, fieldWords(f))
	}
	if !takesValue(r.Op) {
		return nil
	}
	v := strings.TrimSpace(r.Value)
	switch {
	case v == "":
		return problem(path, "%s: give the value to compare %s with", at, fieldWords(f))
	case numeric(f.Type):
		if n, err := strconv.ParseFloat(v, 64); err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
			return problem(path, "%s: %s is a number: %q is not one", at, fieldWords(f), r.Value)
		}
	case f.Type == hubclient.FieldDate:
		if !dateValue.MatchString(v) {
			return problem(path, "%s: %s is a date (YYYY-MM-DD): %q is not one", at, fieldWords(f), r.Value)
		}
	case isChoice(f.Type):
		if !slices.ContainsFunc(f.Options, func(o hubclient.Option) bool { return o.Value == r.Value }) {
			return problem(path, "%s: choose one of the options of %s", at, fieldWords(f))
		}
	}
	return nil
}

// fieldWords names a field for its owner: its label, quoted, else its
// name.
func fieldWords(f *hubclient.Field) string {
	return "“" + cmp.Or(strings.TrimSpace(f.Label), f.Name) + "”"
}

// describeCondition says c in words: "Size is Large and Gift is checked".
func describeCondition(s *hubclient.Schema, c condition) string {
	parts := make([]string, len(c.Rows))
	for k, r := range c.Rows {
		f := conditionField(s, r.Field)
		if f == nil {
			parts[k] = r.Field
			continue
		}
		p := cmp.Or(f.Label, f.Name) + " " + opLabel(f.Type, r.Op)
		if takesValue(r.Op) {
			p += " " + valueWords(f, r.Value)
		}
		parts[k] = p
	}
	join := " and "
	if c.Any {
		join = " or "
	}
	return strings.Join(parts, join)
}

// valueWords is a row's value as an owner reads it: an option's label,
// else the value in quotes (a number as it is).
func valueWords(f *hubclient.Field, v string) string {
	if isChoice(f.Type) {
		if k := slices.IndexFunc(f.Options, func(o hubclient.Option) bool { return o.Value == v }); k >= 0 {
			return cmp.Or(f.Options[k].Label, v)
		}
	}
	if numeric(f.Type) {
		return v
	}
	return strconv.Quote(v)
}

// sameCondition reports whether a and b say the same, Any aside for one
// row.
func sameCondition(a, b condition) bool {
	if len(a.Rows) != len(b.Rows) || (len(a.Rows) > 1 && a.Any != b.Any) {
		return false
	}
	for k := range a.Rows {
		x, y := a.Rows[k], b.Rows[k]
		if x.Field != y.Field || x.Op != y.Op || (takesValue(x.Op) && x.Value != y.Value) {
			return false
		}
	}
	return true
}

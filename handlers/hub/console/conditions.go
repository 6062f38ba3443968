package console

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

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
	case hubclient.FieldNumber:
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
	}
	return out
}

// fieldIndex returns the position of the field called name, or -1.
func fieldIndex(s *hubclient.Schema, name string) int {
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
	f := s.Field(r.Field)
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
		if f.Type != hubclient.FieldNumber {
			return r, false
		}
		r.Value = strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		if f.Type == hubclient.FieldNumber {
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
	if f := s.Field(r.Field); f != nil && f.Type == hubclient.FieldNumber {
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
		j := fieldIndex(s, r.Field)
		switch {
		case r.Field == "":
			errs = append(errs, problem(path, "%s: choose a field", at))
			continue
		case r.Field == self:
			errs = append(errs, problem(path, "%s: a field cannot depend on itself", at))
			continue
		case j < 0:
			errs = append(errs, problem(path, "%s: there is no field %q", at, r.Field))
			continue
		case j > i:
			errs = append(errs, problem(path, "%s: %s comes after this field; a condition reads the fields above it (move %s up first)", at, fieldWords(&s.Fields[j]), fieldWords(&s.Fields[j])))
			continue
		case hubclient.IsHoneypot(r.Field) || opsFor(s.Fields[j].Type) == nil:
			errs = append(errs, problem(path, "%s: no condition can read %s", at, fieldWords(&s.Fields[j])))
			continue
		}
		f := &s.Fields[j]
		if opLabel(f.Type, r.Op) == "" {
			errs = append(errs, problem(path, "%s: choose how to compare %s (the choices changed with the field)", at, fieldWords(f)))
			continue
		}
		if !takesValue(r.Op) {
			continue
		}
		v := strings.TrimSpace(r.Value)
		switch {
		case v == "":
			errs = append(errs, problem(path, "%s: give the value to compare %s with", at, fieldWords(f)))
		case f.Type == hubclient.FieldNumber:
			if n, err := strconv.ParseFloat(v, 64); err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
				errs = append(errs, problem(path, "%s: %s is a number: %q is not one", at, fieldWords(f), r.Value))
			}
		case f.Type == hubclient.FieldDate:
			if !dateValue.MatchString(v) {
				errs = append(errs, problem(path, "%s: %s is a date (YYYY-MM-DD): %q is not one", at, fieldWords(f), r.Value))
			}
		case isChoice(f.Type):
			if !slices.ContainsFunc(f.Options, func(o hubclient.Option) bool { return o.Value == r.Value }) {
				errs = append(errs, problem(path, "%s: choose one of the options of %s", at, fieldWords(f)))
			}
		}
	}
	return errors.Join(errs...)
}

// fieldWords names a field for an owner: its label, else its name.
func fieldWords(f *hubclient.Field) string { return strconv.Quote(cmp.Or(f.Label, f.Name)) }

// describeCondition says c in words: "Size is Large and Gift is checked".
func describeCondition(s *hubclient.Schema, c condition) string {
	parts := make([]string, len(c.Rows))
	for k, r := range c.Rows {
		f := s.Field(r.Field)
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
	if f.Type == hubclient.FieldNumber {
		return v
	}
	return strconv.Quote(v)
}

// conditionBadge is what a field card says of one condition: the badge
// and its words; "" when the field has no such condition.
func conditionBadge(s *hubclient.Schema, i int, m conditionMember) (badge, words string) {
	f := &s.Fields[i]
	raw := m.raw(f)
	if len(bytes.TrimSpace(raw)) == 0 {
		return "", ""
	}
	c, ok := parseCondition(s, i, raw)
	if !ok {
		return m.Badge, m.Lead + " a condition written in the JSON file"
	}
	return m.Badge, m.Lead + " " + describeCondition(s, c)
}

// Form names of the condition editor. For member M (visibleIf or
// requiredIf): M is "rows" when the editor showed rows (a condition it
// cannot show posts nothing and is kept), M.join "all" or "any", and
// M.N.field, M.N.op, M.N.value the N-th row. The button conditionAction
// adds ("add M") or removes ("remove M N") a row and shows the panel again.
const conditionAction = "conditionRows"

// conditionFromForm reads member m's rows as posted.
func conditionFromForm(form url.Values, m string) condition {
	c := condition{Any: form.Get(m+".join") == "any"}
	for n := 0; n < maxConditionRows+1; n++ {
		key := m + "." + strconv.Itoa(n) + "."
		if _, ok := form[key+"field"]; !ok {
			break
		}
		c.Rows = append(c.Rows, conditionRow{Field: form.Get(key + "field"), Op: form.Get(key + "op"), Value: form.Get(key + "value")})
	}
	return c
}

// shownCondition returns the rows the editor shows for member m of field
// i: as posted when the page comes back to the owner (with a row added or
// removed when a button asked), else as stored. ok is false when the
// stored condition cannot be shown as rows.
func shownCondition(p formProps, s *hubclient.Schema, i int, m conditionMember, action string) (c condition, ok bool) {
	if p.TypedAt == action && p.Typed.Get(m.Name) == "rows" {
		c = conditionFromForm(p.Typed, m.Name)
		verb, rest, _ := strings.Cut(p.Typed.Get(conditionAction), " ")
		member, n, _ := strings.Cut(rest, " ")
		switch {
		case member != m.Name:
		case verb == "add" && len(c.Rows) < maxConditionRows:
			c.Rows = append(c.Rows, newRow(s, i))
		case verb == "remove":
			if k, err := strconv.Atoi(n); err == nil && k >= 0 && k < len(c.Rows) {
				c.Rows = slices.Delete(c.Rows, k, k+1)
			}
		}
		return c, true
	}
	return parseCondition(s, i, m.raw(&s.Fields[i]))
}

// newRow is the row "Add condition" adds: the nearest field above that a
// condition may read, with its first operator.
func newRow(s *hubclient.Schema, i int) conditionRow {
	src := conditionSources(s, i)
	if len(src) == 0 {
		return conditionRow{}
	}
	f := src[len(src)-1]
	r := conditionRow{Field: f.Name, Op: opsFor(f.Type)[0].Op}
	if isChoice(f.Type) && len(f.Options) > 0 {
		r.Value = f.Options[0].Value
	}
	return r
}

// errKeepEditing asks builderAction to show the page again as posted,
// without saving: a condition row was added or removed.
var errKeepEditing = errors.New("keep editing")

// editConditions writes the posted rows of field i's conditions, and
// follows the field's new name in the other fields' conditions when it was
// renamed from old. A condition the editor did not show as rows is kept as
// it is; a post that adds or removes a row saves nothing.
func editConditions(d *formFile, i int, old string, c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	if form.Get(conditionAction) != "" {
		return errKeepEditing
	}
	s := d.Schema
	f := &s.Fields[i]
	var errs []error
	for _, m := range conditionMembers {
		if form.Get(m.Name) != "rows" {
			continue
		}
		posted := conditionFromForm(form, m.Name)
		if err := fieldsShown(form, i, m, posted); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := checkCondition(s, i, m, posted); err != nil {
			errs = append(errs, err)
			continue
		}
		// Rows that say what is stored keep it as it was written.
		if stored, ok := parseCondition(s, i, m.raw(f)); ok && sameCondition(stored, posted) {
			continue
		}
		m.set(f, encodeCondition(s, posted))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if f.Name != old {
		return renameInConditions(s, old, f.Name)
	}
	return nil
}

// fieldsShown refuses rows whose field was changed without the page
// showing that field's comparisons and values (without JavaScript): the
// value posted was chosen for another field. The page comes back with the
// right ones.
func fieldsShown(form url.Values, i int, m conditionMember, c condition) error {
	var errs []error
	for k, r := range c.Rows {
		key := m.Name + "." + strconv.Itoa(k) + ".shown"
		if shown, ok := form[key]; ok && shown[0] != r.Field {
			errs = append(errs, problem(fmt.Sprintf("fields[%d].%s", i, m.Name),
				"%s, condition %d: the field changed; choose how to compare it and the value", m.Heading, k+1))
		}
	}
	return errors.Join(errs...)
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

// conditionRefs returns the fields a stored condition reads, nil for one
// that does not parse (the hub refuses it anyway).
func conditionRefs(raw json.RawMessage) []string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	c, err := hubclient.ParseCondition(raw, func(string) bool { return true })
	if err != nil {
		return nil
	}
	return c.Refs
}

// renameInConditions follows a field's new name in the conditions the
// editor shows as rows. A condition written by hand that reads the field
// is not rewritten: the rename is refused, naming where it is.
func renameInConditions(s *hubclient.Schema, old, name string) error {
	var errs []error
	for j := range s.Fields {
		g := &s.Fields[j]
		for _, m := range conditionMembers {
			raw := m.raw(g)
			if !slices.Contains(conditionRefs(raw), old) {
				continue
			}
			// The rows are read as they were written, before the rename.
			k := fieldIndex(s, name)
			s.Fields[k].Name = old
			c, ok := readCondition(s, raw)
			s.Fields[k].Name = name
			if !ok {
				errs = append(errs, problem(fmt.Sprintf("fields[%d].%s", j, m.Name),
					"the field %s has a condition written in the JSON file that reads %q: change it in the JSON editor, or keep the name %q", fieldWords(g), old, old))
				continue
			}
			for k := range c.Rows {
				if c.Rows[k].Field == old {
					c.Rows[k].Field = name
				}
			}
			m.set(g, encodeCondition(s, c))
		}
	}
	for k, st := range s.Steps {
		if slices.Contains(conditionRefs(st.VisibleIf), old) {
			errs = append(errs, problem(fmt.Sprintf("steps[%d].visibleIf", k),
				"the step %q is shown depending on %q: change its condition in the JSON editor, or keep the name", cmp.Or(st.Title, st.ID), old))
		}
	}
	return errors.Join(errs...)
}

// conditionsReading refuses to remove the field called name while a
// condition reads it, naming each field or step whose condition does.
func conditionsReading(s *hubclient.Schema, name string) error {
	var errs []error
	for j := range s.Fields {
		g := &s.Fields[j]
		if g.Name == name {
			continue
		}
		for _, m := range conditionMembers {
			if slices.Contains(conditionRefs(m.raw(g)), name) {
				errs = append(errs, problem(fmt.Sprintf("fields[%d].%s", j, m.Name),
					"%s is %s depending on %q: remove that condition first", fieldWords(g), map[string]string{"visibleIf": "shown", "requiredIf": "required"}[m.Name], name))
			}
		}
	}
	for k, st := range s.Steps {
		if slices.Contains(conditionRefs(st.VisibleIf), name) {
			errs = append(errs, problem(fmt.Sprintf("steps[%d].visibleIf", k),
				"the step %q is shown depending on %q: remove that condition first", cmp.Or(st.Title, st.ID), name))
		}
	}
	return errors.Join(errs...)
}

// conditionsInOrder refuses an order of the fields in which a condition
// shown as rows reads a field that comes after the field it belongs to.
func conditionsInOrder(s *hubclient.Schema) error {
	var errs []error
	for i := range s.Fields {
		f := &s.Fields[i]
		for _, m := range conditionMembers {
			c, ok := readCondition(s, m.raw(f))
			if !ok {
				continue
			}
			for _, r := range c.Rows {
				if j := fieldIndex(s, r.Field); j > i {
					errs = append(errs, problem(fmt.Sprintf("fields[%d].%s", i, m.Name),
						"%s depends on %s, which would then come after it: change the condition first", fieldWords(f), fieldWords(&s.Fields[j])))
					break
				}
			}
		}
	}
	return errors.Join(errs...)
}

// typeTakesValue reports whether some operator for fields of type t
// compares with a value, so that its rows show a value control.
func typeTakesValue(t string) bool {
	return slices.ContainsFunc(opsFor(t), func(o opChoice) bool { return takesValue(o.Op) })
}

// valueInputAttrs types a row's value input as the field it compares.
func valueInputAttrs(f *hubclient.Field) templ.Attributes {
	switch {
	case f == nil:
		return templ.Attributes{"type": "text"}
	case f.Type == hubclient.FieldNumber:
		return templ.Attributes{"type": "number", "step": "any"}
	case f.Type == hubclient.FieldDate:
		return templ.Attributes{"type": "date"}
	}
	return templ.Attributes{"type": "text"}
}

// conditionData is what conditions.js needs to fit a row's operators and
// value control to the field chosen: each source field's type and
// options, and the operators of each type.
func conditionData(sources []*hubclient.Field) string {
	type field struct {
		Type    string      `json:"type"`
		Options [][2]string `json:"options,omitempty"`
	}
	data := struct {
		Fields map[string]field       `json:"fields"`
		Ops    map[string][][3]string `json:"ops"`
	}{Fields: map[string]field{}, Ops: map[string][][3]string{}}
	for _, f := range sources {
		fd := field{Type: f.Type}
		for _, o := range f.Options {
			fd.Options = append(fd.Options, [2]string{o.Value, cmp.Or(o.Label, o.Value)})
		}
		data.Fields[f.Name] = fd
		if _, ok := data.Ops[f.Type]; ok {
			continue
		}
		for _, o := range opsFor(f.Type) {
			data.Ops[f.Type] = append(data.Ops[f.Type], [3]string{o.Op, o.Label, strconv.FormatBool(takesValue(o.Op))})
		}
	}
	b, _ := json.Marshal(data)
	return string(b)
}

// conditionText is a condition's text to read: on one line when short,
// else indented as the JSON editor shows it.
func conditionText(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	if b.Len() <= 160 {
		return b.String()
	}
	b.Reset()
	_ = json.Indent(&b, raw, "", "  ")
	return b.String()
}

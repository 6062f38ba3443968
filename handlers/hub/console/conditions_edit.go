package console

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/hubclient"
)

// The condition editor's side of the builder: the rows as the panel posts
// and shows them, their hook into saving a field, the other edits a
// condition constrains (renaming, removing, moving a field) and the badge
// of a field's card. The translation itself is in conditions.go.

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
	if c, ok := typedCondition(p, m, action, conditionSources(s, i)); ok {
		return c, true
	}
	return parseCondition(s, i, m.raw(&s.Fields[i]))
}

// typedCondition returns the rows of member m as posted to action when
// the page comes back to the owner, with a row added or removed when a
// button asked; ok is false when the page shows no such post.
func typedCondition(p formProps, m conditionMember, action string, sources []*hubclient.Field) (c condition, ok bool) {
	if p.TypedAt != action || p.Typed.Get(m.Name) != "rows" {
		return condition{}, false
	}
	c = conditionFromForm(p.Typed, m.Name)
	verb, rest, _ := strings.Cut(p.Typed.Get(conditionAction), " ")
	member, n, _ := strings.Cut(rest, " ")
	switch {
	case member != m.Name:
	case verb == "add" && len(c.Rows) < maxConditionRows:
		c.Rows = append(c.Rows, newRowFrom(sources))
	case verb == "remove":
		if k, err := strconv.Atoi(n); err == nil && k >= 0 && k < len(c.Rows) {
			c.Rows = slices.Delete(c.Rows, k, k+1)
		}
	}
	return c, true
}

// newRowFrom is the row "Add condition" adds: the nearest of the fields a
// condition may read (the last), with its first operator.
func newRowFrom(src []*hubclient.Field) conditionRow {
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
		return errors.Join(renameInConditions(s, old, f.Name), renameInEndings(s, old, f.Name))
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
		if !slices.Contains(conditionRefs(st.VisibleIf), old) {
			continue
		}
		at := fieldIndex(s, name)
		s.Fields[at].Name = old
		c, ok := readCondition(s, st.VisibleIf)
		s.Fields[at].Name = name
		if !ok {
			errs = append(errs, problem(fmt.Sprintf("steps[%d].visibleIf", k),
				"the step %q is shown depending on %q: change its condition in the JSON editor, or keep the name", cmp.Or(st.Title, st.ID), old))
			continue
		}
		for n := range c.Rows {
			if c.Rows[n].Field == old {
				c.Rows[n].Field = name
			}
		}
		s.Steps[k].VisibleIf = encodeCondition(s, c)
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
	errs = append(errs, endingsReading(s, name))
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
	case numeric(f.Type):
		return templ.Attributes{"type": "number", "step": "any"}
	case f.Type == hubclient.FieldDate:
		return templ.Attributes{"type": "date"}
	}
	return templ.Attributes{"type": "text"}
}

// conditionData is what conditions.js needs to fit a row's operators and
// value control to the field chosen: each source field's type and
// options, and the operators of each type. The page holds it once, for
// every field a condition may read (data-condition-data): each row offers
// its own editor's sources alone, and the data of one form is the same
// for them all.
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
		// conditions.js compares the numbers of ratings and sliders as
		// it does a number's.
		fd := field{Type: f.Type}
		if numeric(f.Type) {
			fd.Type = hubclient.FieldNumber
		}
		for _, o := range f.Options {
			fd.Options = append(fd.Options, [2]string{o.Value, cmp.Or(o.Label, o.Value)})
		}
		data.Fields[f.Name] = fd
		if _, ok := data.Ops[fd.Type]; ok {
			continue
		}
		for _, o := range opsFor(fd.Type) {
			data.Ops[fd.Type] = append(data.Ops[fd.Type], [3]string{o.Op, o.Label, strconv.FormatBool(takesValue(o.Op))})
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

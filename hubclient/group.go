package hubclient

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// A group repeats its child fields (Field.Fields): its value is a list of
// items, each an object of the children's values. A form posts a child of
// the i-th item (from 0) as "name.i.child" (ItemKey) and the number of
// items shown as "name.count" (CountKey); "Add another" and "Remove" post
// GroupField, which the app answers with the form again (Regroup).

// GroupField is the name of the buttons that add an item to a group,
// "add:name", or remove one, "remove:name:i".
const GroupField = "_hubformGroup"

// MaxGroupItems is the most items a group takes, whatever its maxItems.
const MaxGroupItems = 50

// ProblemGroupItem: an item of a group breaks a rule of one of its
// children. Its Problem's Limit holds the item, the child and the child's
// problem, which Problem.Text writes as "Entry 2, Email: …", the built-in
// text of ProblemGroupItem filled in ({n}, {label}, {message}).
const ProblemGroupItem = "groupItem"

// itemProblem is the problem p of child of the item-th item of a group.
func itemProblem(item int, child string, p Problem) Problem {
	return Problem{Code: ProblemGroupItem, Limit: strings.Join([]string{strconv.Itoa(item), child, p.Code, p.Limit}, "\x00")}
}

// groupItem reads a ProblemGroupItem: the item, the child, and the
// child's problem.
func (p Problem) groupItem() (item int, child string, inner Problem, ok bool) {
	parts := strings.SplitN(p.Limit, "\x00", 4)
	if p.Code != ProblemGroupItem || len(parts) != 4 {
		return 0, "", Problem{}, false
	}
	item, err := strconv.Atoi(parts[0])
	return item, parts[1], Problem{parts[2], parts[3]}, err == nil
}

// CountKey is the key under which a form posts how many items of a group
// it shows.
func (f *Field) CountKey() string { return f.Name + ".count" }

// ItemKey is the key under which a form posts child of the i-th item of a
// group (from 0): "team.0.email".
func (f *Field) ItemKey(i int, child string) string {
	return f.Name + "." + strconv.Itoa(i) + "." + child
}

// Child returns the group's child field called name, or nil.
func (f *Field) Child(name string) *Field {
	for i := range f.Fields {
		if f.Fields[i].Name == name {
			return &f.Fields[i]
		}
	}
	return nil
}

// groupCondition is a group's value as a condition reads it: its items
// by position and how many there are, so that {"var": "team.count"} and
// {"var": "team.0.email"} read what the post's keys name. A group left
// empty or not posted counts 0.
func groupCondition(v any) map[string]any {
	items, _ := v.([]any)
	out := make(map[string]any, len(items)+1)
	out["count"] = float64(len(items))
	for i, item := range items {
		out[strconv.Itoa(i)] = logicValue(item)
	}
	return out
}

// groupPart reports whether part ("count", "0.email") is a key of group f.
func groupPart(f *Field, part string) bool {
	if part == "count" {
		return true
	}
	i, child, ok := strings.Cut(part, ".")
	n, err := strconv.Atoi(i)
	return ok && err == nil && n >= 0 && n < MaxGroupItems && strconv.Itoa(n) == i && f.Child(child) != nil
}

// Items returns how many items of group f a post shows: its count, else
// one past the highest item posted, at least minItems and one.
func (f *Field) Items(posted map[string][]string) int {
	n := 0
	if c := posted[f.CountKey()]; len(c) > 0 {
		n, _ = strconv.Atoi(c[0])
	}
	prefix := f.Name + "."
	for key := range posted {
		if part, ok := strings.CutPrefix(key, prefix); ok && part != "count" {
			i, _, _ := strings.Cut(part, ".")
			if k, err := strconv.Atoi(i); err == nil {
				n = max(n, k+1)
			}
		}
	}
	return min(max(n, f.MinItems, 1), MaxGroupItems)
}

// groupItems types a group's post: an object per item, of its children's
// values typed as theirs are; an item left empty is left out.
func groupItems(f *Field, posted map[string][]string) (any, bool) {
	items := []any{}
	found := false
	for i := range f.Items(posted) {
		item := map[string]any{}
		empty := true
		for _, c := range f.Fields {
			list, ok := posted[f.ItemKey(i, c.Name)]
			if !ok {
				continue
			}
			found = true
			v := c.Value(list)
			item[c.Name] = v
			if !IsEmptyValue(v) && !(c.Type == FieldCheckbox && v == false) {
				empty = false
			}
		}
		if !empty {
			items = append(items, item)
		}
	}
	_, counted := posted[f.CountKey()]
	return items, found || counted
}

// checkGroup judges a group's items, each child as its own field is
// judged, and returns the first problem, which names the item (from 1)
// and the child.
func (l *Logic) checkGroup(f *Field, v any) Problem {
	var items []any
	switch v := v.(type) {
	case []any:
		items = v
	case []map[string]any:
		for _, m := range v {
			items = append(items, m)
		}
	default:
		return Problem{Code: ProblemObject}
	}
	for i, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			return Problem{Code: ProblemObject}
		}
		for name := range obj {
			if f.Child(name) == nil {
				return Problem{Code: ProblemObject}
			}
		}
		for j := range f.Fields {
			c := &f.Fields[j]
			if p := l.checkChild(f, c, obj[c.Name]); p.Code != "" {
				return itemProblem(i+1, c.Name, p)
			}
		}
	}
	return checkItems(f, len(items))
}

// checkChild judges a child's value with the child's own rules; its
// pattern is compiled under "group.child".
func (l *Logic) checkChild(group, child *Field, v any) Problem {
	c := *child
	c.Name = group.Name + "." + child.Name
	if v == nil {
		v = child.Value(nil)
	}
	return l.checkField(&c, child.Required, v)
}

// Regroup applies a group's button, GroupField's value op, to posted: it
// adds an item ("add:team"), up to maxItems, or removes the i-th
// ("remove:team:2"), those after it moving up, down to minItems. It
// returns the post to show again, or posted as it is when op names no
// group of s.
func (s *Schema) Regroup(posted map[string][]string, op string) map[string][]string {
	parts := strings.Split(op, ":")
	if len(parts) < 2 {
		return posted
	}
	f := s.Field(parts[1])
	if f == nil || f.Type != FieldGroup {
		return posted
	}
	n := f.Items(posted)
	out := maps.Clone(posted)
	switch {
	case parts[0] == "add" && len(parts) == 2:
		if most := cmpOr(f.MaxItems, MaxGroupItems); n < most {
			n++
		}
	case parts[0] == "remove" && len(parts) == 3:
		at, err := strconv.Atoi(parts[2])
		if err != nil || at < 0 || at >= n || n <= max(f.MinItems, 1) {
			break
		}
		for i := at; i < n; i++ {
			for _, c := range f.Fields {
				delete(out, f.ItemKey(i, c.Name))
				if next, ok := posted[f.ItemKey(i+1, c.Name)]; ok && i+1 < n {
					out[f.ItemKey(i, c.Name)] = next
				}
			}
		}
		n--
	}
	out[f.CountKey()] = []string{strconv.Itoa(n)}
	return out
}

func cmpOr(a, b int) int {
	if a > 0 {
		return min(a, b)
	}
	return b
}

// groupChildTypes are the types a group's child may be: one control, one
// posted key.
var groupChildTypes = []string{
	FieldText, FieldEmail, FieldTel, FieldURL, FieldNumber, FieldTextarea, FieldSelect, FieldRadio,
	FieldCheckbox, FieldCheckboxes, FieldDate, FieldTime, FieldDateTime,
}

// TakesChild reports whether a group's child may be of type typ.
func TakesChild(typ string) bool { return slices.Contains(groupChildTypes, typ) }

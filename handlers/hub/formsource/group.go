package formsource

import (
	"fmt"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// group checks a group's child fields (fields), addLabel and bounds: at
// least one child, each named as a field is and once, of a type of one
// control, with options of its own where it takes them, and no condition,
// prefill or child fields of its own; and that no other type sets them.
func (v *validator) group(path, at string, f *hubclient.Field) {
	if f.Type != hubclient.FieldGroup {
		if len(f.Fields) > 0 {
			v.addf(path+".fields", "%s: fields apply only to group fields", at)
		}
		if f.AddLabel != "" {
			v.addf(path+".addLabel", "%s: addLabel applies only to group fields", at)
		}
		return
	}
	if len(f.Fields) == 0 {
		v.addf(path+".fields", "%s: a group needs at least one field", at)
	}
	if f.MaxItems > hubclient.MaxGroupItems {
		v.addf(path+".maxItems", "%s: maxItems of a group is at most %d", at, hubclient.MaxGroupItems)
	}
	seen := map[string]bool{}
	for i := range f.Fields {
		c := &f.Fields[i]
		cpath, cat := fmt.Sprintf("%s.fields[%d]", path, i), fmt.Sprintf("%s, field %q", at, c.Name)
		switch {
		case !fieldName.MatchString(c.Name) || hubclient.IsHoneypot(c.Name):
			v.addf(cpath+".name", "%s: name does not match %s (and does not start with _hp)", cat, fieldName)
		case seen[c.Name]:
			v.addf(cpath+".name", "%s: name is used by more than one field of the group", cat)
		}
		seen[c.Name] = true
		if !hubclient.TakesChild(c.Type) {
			v.addf(cpath+".type", "%s: a group's field is one of %s, not %q", cat, strings.Join(childTypes(), ", "), c.Type)
		}
		if c.TypeOf().TakesOptions() && len(c.Options) == 0 {
			v.addf(cpath+".options", "%s: a %s field needs at least one option", cat, c.Type)
		}
		if len(c.VisibleIf) > 0 || len(c.RequiredIf) > 0 || c.Prefill || len(c.Fields) > 0 {
			v.addf(cpath, "%s: a group's field takes no visibleIf, requiredIf, prefill or fields", cat)
		}
	}
}

// childTypes lists the types a group's child may be.
func childTypes() []string {
	var out []string
	for _, t := range hubclient.FieldTypes {
		if hubclient.TakesChild(t) {
			out = append(out, t)
		}
	}
	return out
}

package formsource

import "fmt"

// maxCalculations is the most calculations a form may have: each is an
// expression the hub evaluates on every submission, and the form on every
// change of the fields they read.
const maxCalculations = 64

// calculations checks the names of the form's calculations: in the
// character set of field names, since conditions read them as fields.
// Their expressions, formats and the other names are checked with the
// conditions (rules).
func (v *validator) calculations() {
	if len(v.schema.Calculations) > maxCalculations {
		v.addf("calculations", "calculations: %d calculations; a form has at most %d", len(v.schema.Calculations), maxCalculations)
	}
	for i, c := range v.schema.Calculations {
		if c.Name != "" && !fieldName.MatchString(c.Name) {
			v.addf(fmt.Sprintf("calculations[%d].name", i), "calculation %q: name does not match %s", c.Name, fieldName)
		}
	}
}

package formsource

import (
	"fmt"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// composite checks the members of a matrix (rows, columns, multiple) and
// of an address (countries), and that no other type sets them.
func (v *validator) composite(path, at string, f *hubclient.Field) {
	matrix, address := f.Type == hubclient.FieldMatrix, f.Type == hubclient.FieldAddress
	if !matrix {
		if len(f.Rows) > 0 {
			v.addf(path+".rows", "%s: rows apply only to matrix fields", at)
		}
		if len(f.Columns) > 0 {
			v.addf(path+".columns", "%s: columns apply only to matrix fields", at)
		}
	}
	if !address && len(f.Countries) > 0 {
		v.addf(path+".countries", "%s: countries apply only to address fields", at)
	}
	if (matrix || address) && len(f.Options) > 0 {
		v.addf(path+".options", "%s: a %s takes no options", at, f.Type)
	}
	if matrix {
		v.matrixChoices(path, at, "rows", f.Rows)
		v.matrixChoices(path, at, "columns", f.Columns)
	}
	seen := map[string]bool{}
	for i, c := range f.Countries {
		switch {
		case !hubclient.IsCountry(c):
			v.addf(fmt.Sprintf("%s.countries[%d]", path, i), "%s: countries[%d]: %q is not an ISO 3166-1 country code in capitals, such as FR or DE", at, i, c)
		case seen[c]:
			v.addf(fmt.Sprintf("%s.countries[%d]", path, i), "%s: country %q appears more than once", at, c)
		}
		seen[c] = true
	}
}

// matrixChoices checks a matrix's rows or columns: at least one, each
// with a value of its own and no picture; a row's value holds no dot,
// since a condition reads the row as "name.row".
func (v *validator) matrixChoices(path, at, member string, list []hubclient.Option) {
	if len(list) == 0 {
		v.addf(path+"."+member, "%s: a matrix needs at least one of its %s", at, member)
	}
	values := map[string]bool{}
	for j, o := range list {
		where := fmt.Sprintf("%s.%s[%d]", path, member, j)
		switch {
		case o.Value == "":
			v.addf(where+".value", "%s: %s[%d]: value is empty", at, member, j)
		case values[o.Value]:
			v.addf(where+".value", "%s: %s value %q appears more than once", at, member, o.Value)
		case member == "rows" && strings.Contains(o.Value, "."):
			v.addf(where+".value", "%s: rows[%d]: value %q holds a dot; conditions read a row as name.row, so use letters, digits, - or _", at, j, o.Value)
		}
		values[o.Value] = true
		if o.Image != "" || o.Alt != "" {
			v.addf(where, "%s: %s[%d]: a matrix's %s show no pictures", at, member, j, member)
		}
	}
}

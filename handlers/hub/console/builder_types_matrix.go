package console

import (
	"fmt"
	"net/url"

	"github.com/hubform/hubform/hubclient"
)

// A matrix's settings: its rows and columns, and whether a row takes
// several answers.

// editMatrix sets a matrix's rows and columns, one a line as options
// are ("value|label", or a label that is its own value). Each needs one
// line at least, and a value once.
func editMatrix(f *hubclient.Field, i int, form url.Values) []error {
	var errs []error
	f.Multiple = form.Get("multiple") != "" // a box unticked posts nothing
	for _, part := range []struct {
		member, word string
		list         *[]hubclient.Option
	}{{"rows", "row", &f.Rows}, {"columns", "column", &f.Columns}} {
		v, ok := form[part.member]
		if !ok {
			continue
		}
		os := parseOptions(v[0], *part.list)
		path := fmt.Sprintf("fields[%d].%s", i, part.member)
		if len(os) == 0 {
			errs = append(errs, problem(path, "A matrix needs one %s at least: write one a line", part.word))
			continue
		}
		if dup := twice(os); dup != "" {
			errs = append(errs, problem(path, "The %s “%s” is written twice: each %s is on one line only", part.word, dup, part.word))
			continue
		}
		*part.list = os
	}
	return errs
}

// twice returns the first value two of os share, "" for none.
func twice(os []hubclient.Option) string {
	seen := map[string]bool{}
	for _, o := range os {
		if seen[o.Value] {
			return o.Value
		}
		seen[o.Value] = true
	}
	return ""
}

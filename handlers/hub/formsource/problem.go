package formsource

import "errors"

// Problem is one problem of a form file, at the member it is about. Its
// message is the one the forms directory logs; Path locates the member for
// programs and for the console, which shows it beside its input.
type Problem struct {
	// Path is the member's JSON path, such as "fields[2].name",
	// "hub.webhooks[0].url" or `i18n.translations["de"].steps["s1"]`;
	// empty for the file as a whole.
	Path string
	Err  error
}

func (p *Problem) Error() string { return p.Err.Error() }

func (p *Problem) Unwrap() error { return p.Err }

// Problems splits an error of Parse or Validate into its problems, each
// with the JSON path of its member where it has one.
func Problems(err error) []Problem {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []Problem
		for _, e := range j.Unwrap() {
			out = append(out, Problems(e)...)
		}
		return out
	}
	var p *Problem
	if errors.As(err, &p) {
		return []Problem{*p}
	}
	return []Problem{{Err: err}}
}

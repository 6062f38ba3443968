package console

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// The bounds of the ranged types, numbers, sliders, dates and times: the
// lowest and highest values a visitor may give, and the step between
// them.

// boundWords are the words of a ranged type's lowest and highest values
// and its step, by type.
var boundWords = map[string][3]string{
	hubclient.FieldNumber:   {"lowest number", "highest number", "step"},
	hubclient.FieldSlider:   {"lowest number", "highest number", "step"},
	hubclient.FieldDate:     {"first date", "last date", "step in days"},
	hubclient.FieldTime:     {"earliest time", "latest time", "step in minutes"},
	hubclient.FieldDateTime: {"earliest date and time", "latest date and time", "step in minutes"},
}

// editBounds sets min, max and step of a ranged field as posted: each
// must read as the type's values, the lowest not above the highest, the
// step a positive number (whole for days and minutes).
func editBounds(f *hubclient.Field, i int, form url.Values) []error {
	var errs []error
	r := f.TypeOf().Range()
	words := boundWords[f.Type]
	if words[0] == "" {
		words = [3]string{"lowest value", "highest value", "step"}
	}
	bad := func(member, format string, args ...any) {
		errs = append(errs, problem(memberPath(i, member), format, args...))
	}
	lo, hi := f.Min, f.Max
	for k, member := range []string{"min", "max"} {
		v, ok := form[member]
		if !ok {
			continue
		}
		b := hubclient.Bound(strings.TrimSpace(v[0]))
		if _, reads := r.Read(b); b != "" && !reads {
			bad(member, "The %s is %s: %q is not one", words[k], r.What, string(b))
			continue
		}
		if k == 0 {
			lo = b
		} else {
			hi = b
		}
	}
	// "step" is the page a field is on: the step of its values is "by".
	if v, ok := form["by"]; ok {
		text := strings.TrimSpace(v[0])
		n, err := strconv.ParseFloat(text, 64)
		wholeStep := f.Type == hubclient.FieldDate || f.Type == hubclient.FieldTime || f.Type == hubclient.FieldDateTime
		switch {
		case text == "":
			f.Step = 0
		case err != nil || n <= 0 || math.IsInf(n, 0):
			bad("step", "The %s is a number above 0", words[2])
		case wholeStep && n != math.Trunc(n):
			bad("step", "The %s is a whole number", words[2])
		default:
			f.Step = n
		}
	}
	if len(errs) > 0 {
		return errs
	}
	a, okA := r.Read(lo)
	b, okB := r.Read(hi)
	switch {
	case f.Type == hubclient.FieldSlider && (lo == "" || hi == ""):
		bad("min", "A slider needs its lowest and highest numbers")
	case okA && okB && a > b:
		bad("min", "The %s is after the %s", words[0], words[1])
	default:
		f.Min, f.Max = lo, hi
	}
	return errs
}

package console

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/hubform/hubform/hubclient"
)

// The points of a choice's options and its right answers, which a score
// adds up (the formula's points(), the quiz).

// maxPoints bounds an option's points, either way.
const maxPoints = 1_000_000

// editScoring sets the points and the right answers of f's options,
// posted by option value: "points.VALUE", a number or nothing, and
// "correct.VALUE" ticked. The panel posts "scoring" when it showed them.
func editScoring(f *hubclient.Field, i int, form url.Values) []error {
	if form.Get("scoring") == "" {
		return nil
	}
	var errs []error
	for k := range f.Options {
		o := &f.Options[k]
		text := strings.TrimSpace(form.Get("points." + o.Value))
		o.Correct = form.Get("correct."+o.Value) == "on"
		if text == "" {
			o.Points = 0
			continue
		}
		n, err := strconv.ParseFloat(strings.Replace(text, ",", ".", 1), 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || math.Abs(n) > maxPoints {
			errs = append(errs, problem(fmt.Sprintf("fields[%d].options[%d].points", i, k),
				"The points of the option “%s” are a number, such as 2 or -1 or 0.5, of at most a million: %q is not one", optionWords(o), text))
			continue
		}
		o.Points = n
	}
	return errs
}

// hasScoring reports whether an option of f has points or is right.
func hasScoring(f *hubclient.Field) bool {
	return slices.ContainsFunc(f.Options, func(o hubclient.Option) bool { return o.Points != 0 || o.Correct })
}

// pointsText is an option's points as its input shows them, "" for none.
func pointsText(o *hubclient.Option) string {
	if o.Points == 0 {
		return ""
	}
	return strconv.FormatFloat(o.Points, 'f', -1, 64)
}

// editChoices sets the pictures and the scoring of a multiple choice's
// or checkboxes' options.
func editChoices(f *hubclient.Field, i int, form url.Values) []error {
	return append(editPictures(f, i, form), editScoring(f, i, form)...)
}

package console

import (
	"net/url"
	"strconv"

	"github.com/hubform/hubform/hubclient"
)

// The ratings' settings: a rating's number of stars, a scale's ends and
// the words under them, an NPS's words under its ends (its numbers are
// 0 to 10, always).

// Scale ends: the least and most a scale's highest number may be.
const (
	minScaleMax = 2
	maxScaleMax = 10
)

// editRating sets the number of stars: empty for the default, else a
// whole number from hubclient.MinRatingMax to hubclient.MaxRatingMax.
func editRating(f *hubclient.Field, i int, form url.Values) []error {
	return editWholeMax(f, i, form, hubclient.MinRatingMax, hubclient.MaxRatingMax, "The number of stars")
}

// editScale sets a scale's lowest number, 0 or 1, its highest and the
// words under its ends.
func editScale(f *hubclient.Field, i int, form url.Values) []error {
	var errs []error
	if v, ok := postedText(form, "min"); ok {
		if v != "" && v != "0" && v != "1" {
			errs = append(errs, problem(memberPath(i, "min"), "A scale starts at 0 or 1"))
		} else {
			f.Min = hubclient.Bound(v)
		}
	}
	errs = append(errs, editWholeMax(f, i, form, minScaleMax, maxScaleMax, "The highest number of a scale")...)
	return append(errs, editEndLabels(f, i, form)...)
}

// editWholeMax sets f's max as posted: empty for the type's default, else
// a whole number from lo to hi, which words name.
func editWholeMax(f *hubclient.Field, i int, form url.Values, lo, hi int, words string) []error {
	v, ok := postedText(form, "max")
	if !ok {
		return nil
	}
	if v == "" {
		f.Max = ""
		return nil
	}
	n, err := wholeIn(memberPath(i, "max"), v, lo, hi, words)
	if err != nil {
		return []error{err}
	}
	f.Max = hubclient.Bound(strconv.Itoa(n))
	return nil
}

// editEndLabels sets the words under a scale's or an NPS's two ends.
func editEndLabels(f *hubclient.Field, _ int, form url.Values) []error {
	if v, ok := postedText(form, "minLabel"); ok {
		f.MinLabel = v
	}
	if v, ok := postedText(form, "maxLabel"); ok {
		f.MaxLabel = v
	}
	return nil
}
